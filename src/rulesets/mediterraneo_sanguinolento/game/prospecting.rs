//! Prospecting for metal (digest §4.8, rules L741-L743, L5827): 400 DEN a try, one a month per
//! country, 1D20 with hills +1, mountain +2, plain -1, desert -2. The result table is missing
//! (A64: the rules send "see PROSPECTING" to METAL, which gives none); option
//! `prospecting_result` plays A64's proposal (15 or more finds a vein: +10% of the country's base
//! metal production at every later collection, whoever holds the land) or nothing ("none": no
//! country prospects, as nothing can be found).
//!
//! A major prospects at home, in the month loop, when its policy's `prospecting` is on and the
//! expected find repays the 400 DEN before the turn cap at the black market's buying price of
//! metal, within its DEN above reserve and wages. The referee's countries do not prospect.

use super::economy;
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, MET};
use super::state::State;
use super::trade::price_per_ten;
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// DEN a try costs (L743).
pub const PRICE: i64 = 400;
/// 1D20 + the terrain's modifier at least this finds a vein (A64's proposal).
pub const FIND_AT: i32 = 15;

/// The 1D20 modifier of node `c`'s terrain (L743).
pub fn modifier(g: &Game, c: CountryId) -> i32 {
    let terrain = g.scenario.nodes[c as usize].terrain as usize;
    match data().terrain[terrain].name_en.as_str() {
        "hills" => 1,
        "mountain" => 2,
        "plain" => -1,
        "desert" => -2,
        _ => 0,
    }
}

/// Chance that one try at `c` finds a vein: P(1D20 + modifier >= 15).
pub fn chance(g: &Game, c: CountryId) -> f64 {
    let need = FIND_AT - modifier(g, c);
    ((21 - need).clamp(0, 20)) as f64 / 20.0
}

/// Metal a vein adds to land `l`'s collection: a tenth of its base production.
pub fn vein(g: &Game, l: usize) -> i64 {
    g.scenario.production[l][MET] as i64 / 10
}

/// What land `l`'s veins add to each collection.
pub fn output(g: &Game, st: &State, l: usize) -> i64 {
    vein(g, l) * st.veins[l] as i64
}

/// Whether `c` playing `p` tries this month: the option plays A64's table, it holds its home, its
/// policy prospects, the expected metal of a try (its chance × a vein × the collections left,
/// three a year) at the black market's buying price repays the 400 DEN, and its DEN above reserve
/// and wages pay it.
pub fn wants(g: &Game, st: &State, c: CountryId, p: &Scripted) -> bool {
    if !g.prospecting || p.prospecting < 0.5 || st.lands[c as usize].owner != c {
        return false;
    }
    let collections_left = g.turn_cap.saturating_sub(st.turn) as f64 / 2.0;
    let per_unit = price_per_ten(MET, false) as f64 / 10.0;
    let expected = chance(g, c) * vein(g, c as usize) as f64 * collections_left * per_unit;
    expected >= PRICE as f64
        && st.nations[c as usize].stock[DEN] - PRICE >= economy::den_to_keep(g, st, c, p)
}

/// One month's tries: each country that [`wants`] to pays 400 DEN and rolls.
pub fn month(g: &Game, st: &mut State, plans: &[Scripted], dice: &mut Dice, log: &mut dyn GameLog) {
    for c in 0..st.nations.len() as CountryId {
        if !wants(g, st, c, &plans[c as usize]) {
            continue;
        }
        st.spend(c, DEN, PRICE);
        st.counts.prospecting_tries += 1;
        let roll = dice.d(20) as i32 + modifier(g, c);
        if roll >= FIND_AT {
            st.veins[c as usize] = st.veins[c as usize].saturating_add(1);
            st.counts.veins_found += 1;
            game_log!(
                log,
                "{} prospects and finds a vein (1D20 + {} = {roll}): +{} MET a collection",
                g.scenario.countries[c as usize].name,
                modifier(g, c),
                vein(g, c as usize)
            );
        }
    }
}

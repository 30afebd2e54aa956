//! Siege engines (digest §4.7, §3.3-§3.4; rules §21.1.5 L3840-L3844, L3672; A23): a besieger
//! builds one engine for the fortress it besieges, "like the fortifications": level N costs
//! N x (100 MAD + 150 DEN) (the digest's reading of the price line); it lowers the walls'
//! effective level by N (option `siege_engine`, A23: or by 1) in the assault and in the siege's
//! hunger and morale, from the start of the siege (A23's recommended reading, as the battle
//! calculators play it; option `siege_engine_time` = "level-months": ready after N months of
//! siege, as a fortification of level N is built); it is lost when the siege ends (taken, lifted
//! or beaten). One engine per fortress assaulted (L3842): one per siege here.
//!
//! On the graph the engine is paid when the siege begins (from the besieger's treasury and wood,
//! carried by its army); a policy builds the largest level its `engine_level` allows that the
//! walls make useful (and, built on site, that is ready by the month its `siege_months`
//! assaults) and that its DEN above reserve and wages and its wood pay.

use super::economy;
use super::policy::Scripted;
use super::scenario::{CountryId, DEN, MAD};
use super::state::State;
use super::Game;

/// Price of one level of engine: wood and DEN (L3844).
pub const MAD_PER_LEVEL: i64 = 100;
pub const DEN_PER_LEVEL: i64 = 150;

/// How much an engine of `level` lowers the walls (option siege_engine, A23).
pub fn effect(g: &Game, level: u32) -> u32 {
    if g.engine_full {
        level
    } else {
        (level > 0) as u32
    }
}

/// The engine `c` playing `plan` builds against walls of level `fort` (0: none).
pub fn planned(g: &Game, st: &State, c: CountryId, plan: &Scripted, fort: u32) -> u32 {
    let mut wanted = (plan.engine_level as u32).min(fort);
    if g.engine_on_site {
        wanted = wanted.min(plan.siege_months as u32);
    }
    let stock = &st.nations[c as usize].stock;
    let spare = stock[DEN] - economy::den_to_keep(g, st, c, plan);
    (0..=wanted)
        .rev()
        .find(|&l| l as i64 * DEN_PER_LEVEL <= spare && l as i64 * MAD_PER_LEVEL <= stock[MAD])
        .unwrap_or(0)
}

/// At the start of `c`'s siege of walls `fort`: it pays for the engine its policy plans, which
/// replaces any earlier one (engines are lost after their siege).
pub fn start(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, fort: u32) {
    let level = planned(g, st, c, plan, fort);
    st.nations[c as usize].engine = level as u8;
    if level == 0 {
        return;
    }
    st.spend(c, DEN, level as i64 * DEN_PER_LEVEL);
    st.spend(c, MAD, level as i64 * MAD_PER_LEVEL);
    st.counts.siege_engines += 1;
}

/// The level of `c`'s engine that counts after `months` months of its siege: from the start, or
/// once built on site a month a level (option siege_engine_time).
pub fn ready(g: &Game, st: &State, c: CountryId, months: u32) -> u32 {
    let level = st.nations[c as usize].engine as u32;
    if !g.engine_on_site || months >= level {
        level
    } else {
        0
    }
}

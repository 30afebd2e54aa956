//! The help a protector owes a client state, an associated state or a defensive ally (a
//! referee's country, or a major with a defensive treaty, `diplomacy::majors_agree`) when a major
//! attacks it (digest §4.10, L436-L486): the obligation to defend it "with a reasonable number of
//! troops" (L448), a referee's judgement (digest §6.1 item 4) read by option `reasonable_defence`,
//! and the share of the partner's own troops the protector may command in its defence (a client
//! 20%, L444; an associated state 50% when it is attacked, L470).
//!
//! On the region graph the protector's help is a field battle of its own: when an army marching by
//! land arrives at the partner's node, the protector's field army, idle at home and within a
//! month's move of the partner, meets it there first, with the lent share of the partner's most
//! numerous kind beside it (a band that goes back to the partner after the fight, minus its
//! losses). A won fight sends the marcher home; otherwise the partner defends itself as before.

use super::battles;
use super::diplomacy;
use super::leaders;
use super::mercenaries::{self, Band, Source};
use super::military;
use super::policy::Scripted;
use super::scenario::CountryId;
use super::state::{Mission, State};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// Share of its troops a partner at treaty `level` lends its protector for its defence when it is
/// attacked (a client 20%, L444; an associate up to 50%, L470; a defensive ally none: its own army
/// defends it).
pub fn lent_share(level: u8) -> f64 {
    match level {
        diplomacy::CLIENT => 0.2,
        diplomacy::ASSOCIATED => 0.5,
        _ => 0.0,
    }
}

/// The reading of "a reasonable number of troops" (option `reasonable_defence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reasonable {
    /// The protector joins when the battle code gives the marcher at most even odds of winning
    /// their fight (an undecided fight counts for the protector).
    Odds,
    /// It joins whenever its field army can.
    Always,
    /// Not played: nobody helps.
    Never,
}

impl Reasonable {
    pub fn from_option(text: &str) -> Reasonable {
        match text {
            "always" => Reasonable::Always,
            "never" => Reasonable::Never,
            _ => Reasonable::Odds,
        }
    }
}

/// The marcher's P(win) at or below which a protector joins under `Reasonable::Odds`.
pub const REASONABLE_ODDS: f64 = 0.5;

/// The major bound to defend `o` (a referee's country, or a major with a defensive treaty with
/// it) against `c`: the first whose treaty with `o` is a defensive treaty or better (a province
/// is its own), that has no treaty with `c` (it would have to break it), whose field army stands
/// idle at home with troops and within a month's move of `t`, and which is not `c` itself; with
/// its treaty level.
pub fn protector(
    g: &Game,
    st: &State,
    c: CountryId,
    o: CountryId,
    t: CountryId,
) -> Option<(CountryId, u8)> {
    g.majors.iter().enumerate().find_map(|(p, &q)| {
        let level = st.relations[diplomacy::at(st, p, o)].level;
        let n = &st.nations[q as usize];
        let ready = q != c
            && q != o
            && (diplomacy::DEFENSIVE..diplomacy::PROVINCE).contains(&level)
            && st.relations[diplomacy::at(st, p, c)].level == diplomacy::NONE
            && !st.relations[diplomacy::at(st, p, o)].war
            && st.lands[q as usize].owner == q
            && n.at == q
            && n.mission == Mission::Idle
            && battles::has_troops(&n.field)
            && mercenaries::in_reach(g, st, q, t);
        ready.then_some((q, level))
    })
}

/// Before `c`'s army, arrived by land at `t` (held by `o`), fights `o`'s defenders: `o`'s
/// protector may meet it first. Returns true when the protector won (the marcher goes home).
#[allow(clippy::too_many_arguments)]
pub fn defend(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    c: CountryId,
    o: CountryId,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> bool {
    if g.reasonable_defence == Reasonable::Never {
        return false;
    }
    let Some((q, level)) = protector(g, st, c, o, t) else {
        return false;
    };
    // The lent share of the partner's most numerous kind, in a free band slot of the protector.
    let slot = st.nations[q as usize]
        .mercs
        .iter()
        .position(|b| b.source == Source::None);
    let nat = &st.nations[o as usize];
    let kind = (0..g.nkinds[o as usize] as usize).max_by(|&a, &b| {
        (nat.field[a] + nat.garrison[a]).total_cmp(&(nat.field[b] + nat.garrison[b]))
    });
    let mut lent = (0.0, None);
    if let (Some(s), Some(k)) = (slot, kind) {
        let units = (nat.field[k] * lent_share(level)).floor();
        if units >= 1.0 {
            st.nations[o as usize].field[k] -= units;
            st.nations[q as usize].mercs[s] = Band {
                source: Source::Lent(o, k as u8),
                units,
                price: 0,
                bought: month,
            };
            lent = (units, Some((s, k)));
        }
    }
    let sides = [
        military::side(g, st, c, month),
        military::side(g, st, q, month),
    ];
    let join = match g.reasonable_defence {
        Reasonable::Always => true,
        _ => {
            let trials = plans[q as usize].odds_trials.max(1);
            let win = military::winter(g, month);
            let attacker_wins = battles::odds(g, t, None, 0, win, sides, trials, dice);
            attacker_wins <= REASONABLE_ODDS
        }
    };
    let mut defended = false;
    if join {
        let fought = battles::field_battle(
            g,
            t,
            military::winter(g, month),
            military::weather_at(g, st, t),
            sides,
            dice,
        );
        st.counts.battles += 1;
        st.counts.protector_battles += 1;
        military::settle(g, st, c, q, &fought, None);
        leaders::after_battle(g, st, &sides, &fought, month, dice);
        defended = fought.winner == Some(1);
        st.counts.protector_wins += defended as u32;
        game_log!(
            log,
            "month {month}: {} defends {} ({}) against {}: {}",
            g.scenario.countries[q as usize].name,
            g.scenario.countries[o as usize].name,
            diplomacy::LEVELS[level as usize],
            g.scenario.countries[c as usize].name,
            if defended { "repulsed" } else { "not repulsed" }
        );
    }
    // The lent troops left go back to the partner (settle counted their losses as men lost, and
    // among the mercenaries' whose counter they leave).
    if let (units, Some((s, k))) = lent {
        let band = st.nations[q as usize].mercs[s];
        let left = if matches!(band.source, Source::Lent(..)) {
            band.units
        } else {
            0.0
        };
        st.nations[o as usize].field[k] += left;
        st.nations[q as usize].mercs[s] = Band::NONE;
        let men = (units - left) * g.kinds[o as usize][k].men;
        st.counts.lent_men_lost += men;
        st.counts.mercenary_men_lost -= men;
        if join {
            st.counts.lent_units += units;
        }
    }
    if defended {
        military::fall_back(st, plans, c, o);
    }
    defended
}

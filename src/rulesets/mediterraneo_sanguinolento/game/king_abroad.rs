//! The king away from home (digest §4.19, rules §27 L4336): each month a nation's king spends away
//! costs it 1 PV (every culture) and 25/25/50 rebellion index (B, B/C, C).
//!
//! A king is away when he has gone with the field army (the policy's `king_commands`) and the army
//! stands, at the month's end, outside his country. Which land counts as his is a reading (option
//! `king_abroad`): "home-country" (the default: the plain sense of "fuera", out of his own
//! country, so a campaign in lands he conquered counts) or "held-lands" (out of every land his
//! nation holds, a conquered country counted as his realm). A captured king is no longer king
//! (he is succeeded, L5327), so only a free king is counted.

use super::leaders::field_away;
use super::pv;
use super::scenario::CountryId;
use super::state::State;
use super::Game;

/// What "away" means for the king (option `king_abroad`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Outside his home country's node.
    HomeCountry,
    /// Outside every node his nation holds.
    HeldLands,
}

impl Reading {
    pub fn from_option(v: &str) -> Reading {
        match v {
            "held-lands" => Reading::HeldLands,
            _ => Reading::HomeCountry,
        }
    }
}

/// Whether `c`'s king is away from home at this moment, by `reading`.
pub fn away(st: &State, c: CountryId, reading: Reading) -> bool {
    let n = &st.nations[c as usize];
    let with_army = n
        .leaders
        .iter()
        .any(|l| l.king && l.in_field && l.serving());
    if !with_army || !field_away(st, c) {
        return false;
    }
    match reading {
        Reading::HomeCountry => n.at != c,
        Reading::HeldLands => st.lands[n.at as usize].owner != c,
    }
}

/// At each month's end: the row for every nation whose king is away.
pub fn month(g: &Game, st: &mut State) {
    for c in 0..st.nations.len() as CountryId {
        if away(st, c, g.king_abroad) {
            st.counts.king_months_abroad += 1;
            st.apply(c, pv::KING, pv::KING_ABROAD, g.culture[c as usize]);
        }
    }
}

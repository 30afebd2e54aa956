//! Increasing a city's treasure (digest §4.19, rules §27 L4376: "minimum 500", 1 PV every
//! culture, each 100 DEN +10 rebellion index; the rate digest §4.16 quotes for paying the index).
//!
//! A major whose policy gives it a share (`treasure_share`) of its DEN above reserve and wages
//! puts whole lots of 500 DEN into its capital's treasure in the constructions phase, while it
//! holds its home. The DEN stay in the city: its next sacker takes them with the printed treasure
//! (sack.rs), and the stealing-a-treasure row applies then even where none was printed.
//!
//! The row prints "minimum 500" and one PV without saying per what; option `treasure_pv` reads it:
//! "per-500" (the default: 1 PV for each 500 DEN added, as the gift rows are per lot) or
//! "per-turn" (1 PV for an increase of at least 500 DEN, at most one increase a turn) or
//! "within-gift-cap" (per 500, but counted against the period's gift cap, L4384-L4386, as if the
//! treasure were a delivery to the population; by default it is not one and the cap does not
//! apply).

use super::economy;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, DEN};
use super::state::State;
use super::Game;

/// The least increase the row scores (L4376), and the DEN a PV under option "per-500".
pub const LOT: i64 = 500;
/// Rebellion index per 100 DEN added.
pub const IDR_PER_100_DEN: i32 = 10;

/// What the row scores (option `treasure_pv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    PerLot,
    PerTurn,
    WithinGiftCap,
}

impl Reading {
    pub fn from_option(v: &str) -> Reading {
        match v {
            "per-turn" => Reading::PerTurn,
            "within-gift-cap" => Reading::WithinGiftCap,
            _ => Reading::PerLot,
        }
    }
}

/// The lots `c` adds now: its policy's share of the DEN above reserve and wages, in whole lots
/// (one lot under "per-turn", where a larger increase scores no more).
pub fn lots(g: &Game, st: &State, c: CountryId, p: &Scripted) -> i64 {
    if p.treasure_share <= 0.0 || st.lands[c as usize].owner != c {
        return 0;
    }
    if g.scenario.countries[c as usize].cities.is_empty() {
        return 0;
    }
    let den = st.nations[c as usize].stock[DEN];
    let n = economy::share_of_spare(g, st, c, p, den, p.treasure_share) / LOT;
    match g.treasure_pv {
        Reading::PerLot => n,
        Reading::PerTurn => n.min(1),
        Reading::WithinGiftCap => {
            let room = economy::GIFT_CAP as i64 - st.nations[c as usize].gifts_this_period;
            n.min(room.max(0) / LOT)
        }
    }
}

/// PV and rebellion index for `lots` lots added at once.
pub fn scored(reading: Reading, lots: i64) -> (i32, i32) {
    if lots <= 0 {
        return (0, 0);
    }
    let pv = match reading {
        Reading::PerLot | Reading::WithinGiftCap => lots as i32,
        Reading::PerTurn => 1,
    };
    (pv, (lots * LOT / 100) as i32 * IDR_PER_100_DEN)
}

/// The constructions phase: each major adds what its policy wants to its capital's treasure.
pub fn phase(g: &Game, st: &mut State, plans: &[Scripted]) {
    for c in 0..st.nations.len() as CountryId {
        let n = lots(g, st, c, &plans[c as usize]);
        if n == 0 {
            continue;
        }
        let den = st.spend(c, DEN, n * LOT);
        let capital = g.scenario.countries[c as usize].cities.start;
        st.treasure_added[capital as usize] += den;
        let (pv, idr) = scored(g.treasure_pv, n);
        st.add_pv(c, pv::TREASURE, pv);
        st.nations[c as usize].idr += idr;
        if g.treasure_pv == Reading::WithinGiftCap {
            st.nations[c as usize].gifts_this_period += den;
        }
        st.counts.treasure_den += den as f64;
    }
}

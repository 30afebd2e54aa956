//! Slaves (ESC; digest §4.1 "Slaves", rules L833-L835; §3.2.12's prisoners row, L833, and
//! surrender row, L3576; §4.19's row "Each 100 ESC freed", L4236): where a country's slaves come
//! from and what the majors do with them.
//!
//! Sources: the winner of a land fight takes 1 in 50 of the beaten side's casualties, and an
//! assaulted garrison that breaks surrenders whole (the battle code's `slaves_taken`, settled in
//! `military::settle`); a garrison that surrenders to a siege (hunger, walls) is its taker's,
//! man for man (L3576). Every land fight here has a major on one side (the referee's countries
//! only defend): a referee's country that beats a major takes its slaves too, and keeps them.
//! The majors never buy slaves at the black market (no use here wants more than the captives).
//!
//! Uses, the majors' policies': freeing them (policy `slaves_freed`: the §4.19 row per lot of 100,
//! the black market keeping that share of them until they make whole lots and selling the rest at
//! option `black_market_sale`, A52), and putting them on
//! the works they start at home (policy `slaves_on_works`, `works.rs`: each lot of 100 ends a work
//! a month sooner or returns 5% of its price, option `slaves_on_works_effect`; 75% of them are lost
//! when it ends, the rest come home; all are lost with a work lost with its land). Not played:
//! slaves on the walls, roads and major constructions (their months are the policy's, one under
//! way at a time: a month sooner changes little); galley rowers (+4 PM a fleet: the region graph's
//! crossings take one month whatever the ships' PM, A67). Enslaving POB, the first source
//! (L833, A68), is `enslave.rs`.

use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, DEN, ESC, MAD, MET, PIE, POB};
use super::state::State;
use super::works::Work;
use super::Game;

/// Slaves go on works and are freed in lots of this many (L833, L4236).
pub const LOT: i64 = 100;
/// Percent of the slaves on a work lost when it ends (L835).
pub const LOST_ON_WORKS_PERCENT: i64 = 75;
/// Percent of a work's price each lot saves (option slaves_on_works_effect = "cost", L833) …
pub const COST_PERCENT_PER_LOT: i64 = 5;
/// … at most this many lots: the work is never free.
pub const MAX_COST_LOTS: i64 = 19;

/// `winner` takes `slaves` captives (the battle code's count: a fraction is nobody).
pub fn captured(st: &mut State, winner: CountryId, slaves: f64) {
    let n = slaves.floor() as i64;
    if n > 0 {
        st.gain(winner, ESC, n);
        st.counts.slaves_taken += n as f64;
    }
}

/// A garrison of `men` surrenders to a siege: its men are `taker`'s slaves (L3576); the caller
/// ends the garrison (its men leave the men ledger as lost).
pub fn surrendered(st: &mut State, taker: CountryId, men: f64) {
    captured(st, taker, men);
}

/// Whole lots of `stock` the share `share` of them takes (rounded down).
pub fn lots(stock: i64, share: f64) -> i64 {
    ((stock.max(0) / LOT) as f64 * share.clamp(0.0, 1.0)).floor() as i64
}

/// Phase 5 before the black market: each major holding its home frees its policy's share of its
/// lots of slaves, each lot scoring the §4.19 row by its culture.
pub fn free(g: &Game, st: &mut State, plans: &[Scripted]) {
    for &c in &g.majors {
        if st.lands[c as usize].owner != c {
            continue;
        }
        let n = lots(
            st.nations[c as usize].stock[ESC],
            plans[c as usize].slaves_freed,
        );
        if n == 0 {
            continue;
        }
        st.spend(c, ESC, n * LOT);
        for _ in 0..n {
            st.apply(c, pv::SLAVES, pv::ESC_FREED, g.culture[c as usize]);
        }
        st.counts.slaves_freed += (n * LOT) as f64;
    }
}

/// Slaves the black market's buyers leave `c`: the policy's share of them to be freed (rounded
/// up: captives come a few at a time, and a lot is freed only once it is whole) and the lots it
/// puts on the works it may start this turn.
pub fn kept(st: &State, c: CountryId, plan: &Scripted) -> i64 {
    let stock = st.nations[c as usize].stock[ESC].max(0);
    let freed = (stock as f64 * plan.slaves_freed.clamp(0.0, 1.0)).ceil() as i64;
    let works = if plan.works_share > 0.0 {
        lots(stock, plan.slaves_on_works) * LOT
    } else {
        0
    };
    (freed + works).min(stock)
}

/// The most lots a work with `months_left` months to go takes: a month sooner each, all its months
/// but one, or 5% of its price back each, at most [`MAX_COST_LOTS`] (option slaves_on_works_effect).
pub fn most_lots(g: &Game, months_left: u8) -> i64 {
    if g.slaves_save_months {
        months_left as i64 - 1
    } else {
        MAX_COST_LOTS
    }
}

/// `c` has just started work `w` at home (`works::start`): it puts its policy's share of its lots
/// on it, each a month sooner (at most all its months but one) or 5% of its price back (at most
/// [`MAX_COST_LOTS`]) by option slaves_on_works_effect. The lots stay with the work until it ends.
pub fn on_work(g: &Game, st: &mut State, c: CountryId, plan: &Scripted, w: Work) {
    let i = w.index();
    let cap = most_lots(g, st.works[c as usize].left[i]);
    let n = lots(st.nations[c as usize].stock[ESC], plan.slaves_on_works).min(cap);
    if n <= 0 {
        return;
    }
    st.spend(c, ESC, n * LOT);
    st.counts.slaves_on_works += (n * LOT) as f64;
    st.works[c as usize].slaves[i] = n as u8;
    if g.slaves_save_months {
        st.works[c as usize].left[i] -= n as u8;
        return;
    }
    // The price back, the stone and wood of "PIE y/o MAD" as they were paid (`works::start_at`
    // records the wood in the work).
    let p = w.price();
    let wood = st.works[c as usize].wood.building[i];
    let stone = p.pie + p.pie_or_mad - (wood - p.mad);
    for (r, paid) in [
        (POB, p.pob),
        (DEN, p.den),
        (PIE, stone),
        (MAD, wood),
        (MET, p.met),
    ] {
        let back = paid * COST_PERCENT_PER_LOT * n / 100;
        if back > 0 {
            st.gain(c, r, back);
        }
        if r == MAD {
            st.works[c as usize].wood.building[i] -= back;
        }
        if r == DEN {
            st.counts.works_den -= back as f64;
        }
    }
}

/// Slaves of `lots` lots on a finished work: what is left of them after the work's 75%.
pub fn survivors(lots: i64) -> i64 {
    lots * LOT - lots * LOT * LOST_ON_WORKS_PERCENT / 100
}

/// Work `w` of `c` is finished (`works::finish`): the survivors of its slaves come home.
pub fn work_ended(st: &mut State, c: CountryId, w: Work) {
    let n = std::mem::take(&mut st.works[c as usize].slaves[w.index()]) as i64;
    if n > 0 {
        st.gain(c, ESC, survivors(n));
    }
}

//! Colonies (digest §4.7, rules §21.1.7 L3860-L3864; §4.10 L604; §4.19 L4308, L4312): a civilized
//! nation builds a city in another country. The colony is a work of `works.rs` (price and months
//! of a city, paid in full at the start, built month by month, paused while the host's capital is
//! besieged) that stands in its host's land with its builder recorded (`Works::colonist`); several
//! may be under way at once (L681), one per host.
//!
//! The rule: at least 200 of the builder's POB go there (spent from its POB on hand: they may come
//! back when it is finished, but unspent POB lapses at the next collection anyway, L713); it
//! yields as a city (L3862: 150 POB, 150 DEN and 75 MAN a collection, the builder's culture) to
//! its builder; each colony a major has built in a country is +10 on its first diplomacy rolls
//! with it (L604); when it is finished the builder scores the colony-construction row and the host
//! the allowing-a-colony row (by their own cultures).
//!
//! Readings (the region graph has no hexes): a host is a referee's country that holds its home,
//! is not at war with the builder, and borders a land the builder holds or lies on a sea lane from
//! its home (the countries its envoys reach, `diplomacy.rs`); at most one colony stands in a
//! country (one city per hex, L3852, and the graph has one free site per country). Whether the
//! host must have a treaty with the builder to allow it is option `colony_hosts`; what becomes of
//! a finished colony when its host falls to a third country is option `colony_conquest` (a colony
//! under way falls with its host like the host's own works). The policy's `colonies` decides
//! whether to build one; the works' payback test (`works::planned`) decides when; [`host`] picks
//! where.

use super::policy::Scripted;
use super::scenario::{CountryId, DEN, MAN, POB};
use super::state::{State, R};
use super::works::{Work, CITY_POB_DEN};
use super::Game;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// The builder's POB that must go to the colony (L3862).
pub const SETTLERS: i64 = 200;
/// First-roll modifier per colony built in the country negotiated with (L604).
pub const DIPLOMACY_PER_COLONY: i32 = 10;

/// The readings options `colony_hosts` and `colony_conquest` choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Only a country with a treaty (non-aggression or better) with the builder allows a colony
    /// ("treaty"); by default any country at peace with it does ("at-peace").
    pub treaty_hosts: bool,
    /// A finished colony yields to whoever holds its host's land ("falls"); by default it stays
    /// its builder's ("kept": a colony is the builder's own city, not the host's).
    pub falls_with_host: bool,
}

impl Rules {
    pub fn from_options(o: &Options) -> Rules {
        Rules {
            treaty_hosts: o.choice("colony_hosts") == "treaty",
            falls_with_host: o.choice("colony_conquest") == "falls",
        }
    }
}

/// Whether country `t`, which `c`'s envoys reach (`near`: it borders a land `c` holds or lies on a
/// sea lane from its home), would allow `c` a colony now (the readings in the module's comment).
pub fn may_host(g: &Game, st: &State, c: CountryId, t: CountryId, near: bool) -> bool {
    if !near
        || t == c
        || g.major_index[t as usize] != u8::MAX
        || st.lands[t as usize].owner != t
        || st.works[t as usize].colonist.is_some()
    {
        return false;
    }
    let Some(r) = super::diplomacy::relation(g, st, c, t) else {
        return false;
    };
    let refused = g.colonies.treaty_hosts && r.level == super::diplomacy::NONE;
    !r.war && !refused
}

/// Where `c` playing `p` would found a colony now: none if its policy builds none, it is not
/// civilized, is away from home or lacks the settlers; else among the countries that would allow
/// it (every colony yields the same, so the choice is its diplomacy) the one whose treaty with it
/// is weakest (the +10 has the most treaties left to win there), then the richest in DEN
/// production (what a client or associate sells it), then the lower number.
pub fn host(g: &Game, st: &State, c: CountryId, p: &Scripted) -> Option<CountryId> {
    if p.colonies < 0.5
        || g.culture[c as usize] != Culture::Civilized
        || st.lands[c as usize].owner != c
        || st.nations[c as usize].stock[POB] < SETTLERS
    {
        return None;
    }
    let mut near = [false; 256];
    for l in 0..st.lands.len() {
        if st.lands[l].owner == c {
            for &t in &g.neighbours[l] {
                near[t as usize] = true;
            }
        }
    }
    for l in g.scenario.links(c) {
        near[l.to as usize] |= l.sea;
    }
    let mut best: Option<((i32, i64), CountryId)> = None;
    for t in 0..st.lands.len() as CountryId {
        if !may_host(g, st, c, t, near[t as usize]) {
            continue;
        }
        let level = super::diplomacy::relation(g, st, c, t).map_or(0, |r| r.level);
        let key = (
            -(level as i32),
            g.scenario.production[t as usize][DEN] as i64,
        );
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Finished colonies `c` has built in `t` (0 or 1), for its diplomacy rolls there.
pub fn built_in(st: &State, c: CountryId, t: CountryId) -> i32 {
    let w = &st.works[t as usize];
    (w.colonist == Some(c) && w.built(Work::Colony) > 0) as i32
}

/// What a finished colony yields each collection: a city's POB, DEN and MAN (L3826, L3862) by its
/// builder's culture.
pub fn output(builder: Culture) -> [i64; R] {
    let mut out = [0i64; R];
    out[POB] = CITY_POB_DEN;
    out[DEN] = CITY_POB_DEN;
    out[MAN] = super::works::city_man(builder, false);
    out
}

/// Who collects the colony in land `l` built by `builder`: the builder, or by option
/// `colony_conquest` = falls the holder of a host taken by another.
pub fn collector(g: &Game, st: &State, l: usize, builder: CountryId) -> CountryId {
    let owner = st.lands[l].owner;
    if g.colonies.falls_with_host && owner as usize != l {
        owner
    } else {
        builder
    }
}

/// At each collection every finished colony yields to its collector (after the lands).
pub fn collection(g: &Game, st: &mut State) {
    for l in 0..st.lands.len() {
        let w = st.works[l];
        let Some(builder) = w.colonist else { continue };
        if w.built(Work::Colony) == 0 {
            continue;
        }
        let to = collector(g, st, l, builder);
        let out = output(g.culture[builder as usize]);
        for (r, &v) in out.iter().enumerate() {
            if v > 0 {
                st.gain(to, r, v);
            }
        }
        st.nations[to as usize].pob_collected += out[POB];
        st.counts.works_output += out.iter().sum::<i64>() as f64;
        st.counts.colony_collections += 1;
    }
}

//! 4 DIPLOMACIA (digest §4.10, rules §5 L420-L674, §24 L4038-L4062): the majors court the
//! referee's countries by the two d100 rolls of L540-L582, and keep or break what they sign.
//!
//! Each turn a major sends its policy's number of envoys, one proposal each, to the countries it
//! borders (no ambassador needed, L674) or reaches by a sea lane from home (an ambassador: 1 POB,
//! 1 CAB, 100 DEN, 25 DEN a year, L672). The first roll, a d100 (option `diplomacy_die`, A54) with
//! the modifiers of L586-L654 (race by option `same_race`, A60; the policy's gifts, pressure and
//! backed pressure mapped linearly onto the judged ranges as digest §6.2 proposes, the gifts and
//! the backing in `envoy_gifts.rs`), decides the reception; an
//! audience gets the unmodified second roll's treaty. A treaty is +1 PV to each signatory, a better
//! one with the same country an extension (+0.5 PV), at most 15 at a time (L522). What treaties do:
//! the signatories do not march on each other (a major breaks a treaty by marching on its partner:
//! -5 PV, option `treaty_breach_pv`, A51); a client state sells its buyer up to 50% of its
//! production 1:1, an associated state 75% (not ELE, CAB, CAM, ESC; L442, L468); a province joins
//! its buyer's empire. The referee's countries never break a treaty ("very unlikely", L4060) and
//! start none but the Seleucid satrapies' commercial treaties with Babilonia (L4560).

use super::envoy_gifts;
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, CAB, COM, DEN, MAD, MAN, MET, PIE, POB};
use super::state::{Land, State, NO_UNITS};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// Treaty levels, weakest first; a downgrade moves one level down (L548).
pub const NONE: u8 = 0;
pub const NON_AGGRESSION: u8 = 1;
pub const EQUAL_TRADE: u8 = 2;
pub const ADVANTAGEOUS_TRADE: u8 = 3;
pub const DEFENSIVE: u8 = 4;
pub const CLIENT: u8 = 5;
pub const ASSOCIATED: u8 = 6;
pub const PROVINCE: u8 = 7;
pub const LEVELS: [&str; 8] = [
    "no treaty",
    "non-aggression",
    "equal-terms trade",
    "advantageous trade",
    "defensive military treaty",
    "client state",
    "associated state",
    "province",
];

/// Treaties a country may hold at a time (L522).
pub const MAX_TREATIES: usize = 15;
/// An ambassador's cost (L672) and yearly upkeep in DEN, paid each January.
pub const AMBASSADOR_COST: [(usize, i64); 3] = [(POB, 1), (CAB, 1), (DEN, 100)];
pub const AMBASSADOR_UPKEEP: i64 = 25;
/// Pressure's judged range, and the natural roll at or below which it counts against (L600).
pub const PRESSURE_MAX: i32 = 10;
pub const PRESSURE_FLIPS_AT: i32 = 50;
/// Share of a client's and of an associate's production its partner may buy 1:1 (L442, L468),
/// and the resources it may buy (not elephants, horses, camels or slaves).
pub const CLIENT_SHARE: f64 = 0.5;
pub const ASSOCIATED_SHARE: f64 = 0.75;
pub const BUYABLE: [usize; 5] = [COM, MET, MAD, PIE, MAN];
/// The Seleucids' central power, whose satrapies hold commercial treaties with it (L4558-L4566).
pub const SELEUCID_CENTRE: &str = "Babilonia";

/// What a major and one other country are to each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relation {
    pub level: u8,
    /// It has negotiated with it before (the first time is -5).
    pub met: bool,
    /// Turns in a row it has negotiated with it, up to `last_turn` (+5 per 3).
    pub streak: u8,
    pub last_turn: u32,
    /// Its envoys beaten and killed there, never avenged here (-5 and -10 each).
    pub beaten: u8,
    pub killed: u8,
    /// The country declared war on it, or it broke their treaty: no more talks.
    pub war: bool,
}

/// How the first roll receives the envoy (digest §4.10's resolution, A54).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reception {
    War,
    Downgrade,
    Killed,
    Beaten,
    NoEffect,
    Expelled,
    NotReceived,
    Audience,
}

/// The first roll: war on a natural 0 or 1 whatever the modifiers; then the modified result's
/// band, read with or without a previous treaty.
pub fn reception(natural: i32, modified: i32, treaty: bool) -> Reception {
    use Reception::*;
    if natural <= 1 {
        return War;
    }
    match (treaty, modified) {
        (true, ..=10) => Downgrade,
        (true, 11..=20) => NoEffect,
        (false, ..=2) => War,
        (false, 3..=5) => Killed,
        (false, 6..=20) => Beaten,
        (_, 21..=40) => Expelled,
        (_, 41..=90) => NotReceived,
        _ => Audience,
    }
}

/// The second roll (1-100, unmodified): the treaty level offered (NONE: not interested).
pub fn offered(roll: u32) -> u8 {
    match roll {
        ..=20 => NONE,
        21..=40 => NON_AGGRESSION,
        41..=75 => EQUAL_TRADE,
        76..=85 => ADVANTAGEOUS_TRADE,
        86..=90 => DEFENSIVE,
        91..=95 => CLIENT,
        96..=99 => ASSOCIATED,
        _ => PROVINCE,
    }
}

/// The pressure modifier: +pressure, or -pressure when the natural roll is 50 or less.
pub fn pressure_modifier(pressure: i32, natural: i32) -> i32 {
    let p = pressure.clamp(0, PRESSURE_MAX);
    if natural <= PRESSURE_FLIPS_AT {
        -p
    } else {
        p
    }
}

/// Whether `a` and `b` are of the same race (option `same_race`, A60).
pub fn same_race(g: &Game, a: CountryId, b: CountryId) -> bool {
    let (ca, cb) = (
        &g.scenario.countries[a as usize],
        &g.scenario.countries[b as usize],
    );
    if g.race_by_culture {
        ca.culture == cb.culture
    } else {
        ca.group.is_some() && ca.group == cb.group
    }
}

/// The first roll's modifiers that do not depend on the die, gift or pressure, for major `c`
/// negotiating with `t` this turn (its relation `r` as it stands, the streak counting this turn).
pub fn standing_modifier(g: &Game, st: &State, c: CountryId, t: CountryId, r: &Relation) -> i32 {
    standing(g, st, c, t, r, borders(g, st, c, t))
}

fn standing(
    g: &Game,
    st: &State,
    c: CountryId,
    t: CountryId,
    r: &Relation,
    bordering: bool,
) -> i32 {
    let turn = st.turn;
    let mut m = if same_race(g, c, t) { 5 } else { -5 };
    m += super::colonies::DIPLOMACY_PER_COLONY * super::colonies::built_in(st, c, t);
    if bordering {
        m += 2;
    }
    if !r.met {
        m -= 5;
    }
    m += 5 * (streak_after(r, turn) / 3) as i32;
    if r.level > NONE {
        m += 5;
    }
    m - 5 * r.beaten as i32 - 10 * r.killed as i32
}

/// The streak of talks once this turn's is counted.
fn streak_after(r: &Relation, turn: u32) -> u8 {
    if r.last_turn > 0 && r.last_turn + 1 == turn {
        r.streak.saturating_add(1)
    } else if r.last_turn == turn {
        r.streak
    } else {
        1
    }
}

/// Whether `t` borders a country `c` holds (a neighbour: no ambassador needed, L674; +2).
pub fn borders(g: &Game, st: &State, c: CountryId, t: CountryId) -> bool {
    (0..st.lands.len()).any(|l| st.lands[l].owner == c && g.neighbours[l].contains(&t))
}

/// Index of the relation of the `p`-th major with country `t`.
pub fn at(st: &State, p: usize, t: CountryId) -> usize {
    p * st.lands.len() + t as usize
}

/// The relation of country `c` (if it is a major) with `t`.
pub fn relation(g: &Game, st: &State, c: CountryId, t: CountryId) -> Option<Relation> {
    let p = g.major_index[c as usize];
    (p != u8::MAX).then(|| st.relations[at(st, p as usize, t)])
}

/// Whether a treaty binds `c` not to march on the lands of `o` (either way round).
pub fn bound(g: &Game, st: &State, c: CountryId, o: CountryId) -> bool {
    relation(g, st, c, o).is_some_and(|r| r.level > NONE)
        || relation(g, st, o, c).is_some_and(|r| r.level > NONE)
}

/// Treaties the `p`-th major holds.
pub fn treaties(st: &State, p: usize) -> usize {
    let n = st.lands.len();
    st.relations[p * n..(p + 1) * n]
        .iter()
        .filter(|r| r.level > NONE)
        .count()
}

/// Relations at the start: none but each Seleucid satrapy's commercial (equal-terms) treaty with
/// Babilonia, where Babilonia is a major.
pub fn initial(s: &super::scenario::Scenario, major_index: &[u8]) -> Vec<Relation> {
    let n = s.countries.len();
    let mut out = vec![Relation::default(); s.majors.len() * n];
    let Some(flag) = s.special.flag("seleucid_satrapies") else {
        return out;
    };
    let Some(centre) = s.country(SELEUCID_CENTRE) else {
        return out;
    };
    let p = major_index[centre as usize];
    if p == u8::MAX {
        return out;
    }
    for t in 0..n as CountryId {
        if t != centre && flag.who.contains(t) {
            out[p as usize * n + t as usize].level = EQUAL_TRADE;
        }
    }
    out
}

/// The country the `p`-th major courts next this turn: among those it borders or reaches by sea
/// from home, that are not majors, hold their home, are not at war with it and were not courted
/// yet this turn, the one without a treaty (while it holds fewer than 15) with the best standing
/// modifier, else the one whose treaty is weakest below a province; ties to the lower number.
fn next_partner(g: &Game, st: &State, p: usize, c: CountryId) -> Option<CountryId> {
    // 1: bordering a land it holds; 2: on a sea lane from its home.
    let mut near = [0u8; 256];
    for l in 0..st.lands.len() {
        if st.lands[l].owner == c {
            for &t in &g.neighbours[l] {
                near[t as usize] = 1;
            }
        }
    }
    for l in g.scenario.links(c) {
        if l.sea && near[l.to as usize] == 0 {
            near[l.to as usize] = 2;
        }
    }
    let full = treaties(st, p) >= MAX_TREATIES;
    let mut best: Option<((bool, i32, i32), CountryId)> = None;
    for t in 0..st.lands.len() as CountryId {
        if near[t as usize] == 0 {
            continue;
        }
        let r = &st.relations[at(st, p, t)];
        if t == c
            || g.major_index[t as usize] != u8::MAX
            || st.lands[t as usize].owner != t
            || r.war
            || r.last_turn == st.turn
            || (full && r.level == NONE)
        {
            continue;
        }
        let key = (
            r.level == NONE,
            -(r.level as i32),
            standing(g, st, c, t, r, near[t as usize] == 1),
        );
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, t));
        }
    }
    best.map(|(_, t)| t)
}

/// Phase 4: every major holding its home sends its envoys; treaties with a country that lost
/// its home lapse first.
pub fn phase(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let n = st.lands.len();
    for i in 0..st.relations.len() {
        let t = i % n;
        if st.relations[i].level > NONE && st.lands[t].owner != t as CountryId {
            st.relations[i].level = NONE;
        }
    }
    for (p, &c) in g.majors.iter().enumerate() {
        if st.lands[c as usize].owner != c {
            continue;
        }
        let plan = &plans[c as usize];
        for _ in 0..plan.envoys {
            let Some(t) = next_partner(g, st, p, c) else {
                break;
            };
            if !negotiate(g, st, plan, p, t, month, dice, log) {
                break;
            }
        }
    }
}

/// Treaties between majors (L420-L536: players agree freely and lodge their treaty with the
/// referee, which binds them): each turn every two majors holding their homes whose policies both
/// offer treaties to majors (`major_treaties` at 0.5 or more), that border each other, are
/// linked by a sea lane from home or of which one keeps an ambassador (he carries treaties from
/// home, L494-L528), are at peace (neither broke a treaty with the other) and hold
/// fewer than 15 treaties each, sign an equal-terms trade treaty, or a defensive military
/// treaty where both policies offer one (`major_defence`; a trade treaty between them is then
/// raised to it, an extension): +1 PV and its IDR each (an extension +0.5), no march on each
/// other unless a policy breaks treaties, each one's caravans may sell in the other's cities,
/// and under a defensive treaty each defends the other (`alliances.rs`).
pub fn majors_agree(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    log: &mut dyn GameLog,
) {
    let offers = |c: CountryId| plans[c as usize].major_treaties >= 0.5;
    for p in 0..g.majors.len() {
        for q in p + 1..g.majors.len() {
            let (c, d) = (g.majors[p], g.majors[q]);
            if !offers(c)
                || !offers(d)
                || st.lands[c as usize].owner != c
                || st.lands[d as usize].owner != d
            {
                continue;
            }
            let (i, j) = (at(st, p, d), at(st, q, c));
            let (a, b) = (st.relations[i], st.relations[j]);
            let defends = |x: CountryId| plans[x as usize].major_defence >= 0.5;
            let level = if defends(c) && defends(d) {
                DEFENSIVE
            } else {
                EQUAL_TRADE
            };
            if a.level >= level || b.level >= level || a.war || b.war {
                continue;
            }
            let new = a.level == NONE;
            if new && (treaties(st, p) >= MAX_TREATIES || treaties(st, q) >= MAX_TREATIES) {
                continue;
            }
            let by_sea = g.scenario.links(c).iter().any(|l| l.sea && l.to == d);
            let envoy =
                st.nations[c as usize].ambassadors > 0 || st.nations[d as usize].ambassadors > 0;
            if !by_sea && !envoy && !borders(g, st, c, d) {
                continue;
            }
            for (k, who) in [(i, c), (j, d)] {
                st.relations[k].level = level;
                st.relations[k].met = true;
                score_treaty(g, st, who, new);
            }
            st.counts.major_treaties += new as u32;
            st.counts.major_defensive_treaties += (level == DEFENSIVE) as u32;
            game_log!(
                log,
                "month {month}: {} and {} sign: {}",
                g.scenario.countries[c as usize].name,
                g.scenario.countries[d as usize].name,
                LEVELS[level as usize]
            );
        }
    }
}

/// One proposal of the `p`-th major to `t`; false if it could not send it (no ambassador to pay).
#[allow(clippy::too_many_arguments)]
pub fn negotiate(
    g: &Game,
    st: &mut State,
    plan: &Scripted,
    p: usize,
    t: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) -> bool {
    let c = g.majors[p];
    let ambassador = !borders(g, st, c, t);
    let keep = super::economy::den_to_keep(g, st, c, plan);
    if ambassador && st.nations[c as usize].ambassadors == 0 {
        let nat = &st.nations[c as usize];
        let affordable = AMBASSADOR_COST.iter().all(|&(r, v)| {
            let spare = if r == DEN {
                nat.stock[r] - keep
            } else {
                nat.stock[r]
            };
            spare >= v
        });
        if !affordable {
            return false;
        }
        for (r, v) in AMBASSADOR_COST {
            st.spend(c, r, v);
        }
        st.nations[c as usize].ambassadors += 1;
    }
    let gift = envoy_gifts::choose(g, st, c, plan, State::calendar(month));
    let backing = if plan.backed_pressure >= 0.5 {
        envoy_gifts::backing_points(g, st, p, c, t)
    } else {
        0
    };
    let i = at(st, p, t);
    let r = st.relations[i];
    let standing = standing_modifier(g, st, c, t, &r);
    let natural = if g.diplomacy_die_from_one {
        dice.d(100) as i32
    } else {
        dice.below(100) as i32
    };
    let modified = natural
        + standing
        + envoy_gifts::modifier(g, &gift)
        + pressure_modifier(plan.pressure, natural)
        + envoy_gifts::backed_modifier(backing, natural);
    let got = reception(natural, modified, r.level > NONE);
    // Given before the treaty is offered (a province's stock joins its partner's).
    envoy_gifts::settle(g, st, c, t, &gift, envoy_gifts::fate(got));
    let rel = &mut st.relations[i];
    rel.streak = streak_after(&r, st.turn);
    rel.last_turn = st.turn;
    rel.met = true;
    let ct = g.culture[t as usize];
    match got {
        Reception::War => {
            rel.level = NONE;
            rel.war = true;
            st.counts.wars_declared += 1;
        }
        Reception::Downgrade => rel.level -= 1,
        Reception::Killed => {
            rel.killed = rel.killed.saturating_add(1);
            if ambassador {
                st.nations[c as usize].ambassadors -= 1;
            }
            st.counts.ambassadors_killed += 1;
            st.apply(t, pv::DIPLOMACY, pv::KILLING_AMBASSADORS, ct);
        }
        Reception::Beaten => rel.beaten = rel.beaten.saturating_add(1),
        Reception::NoEffect | Reception::Expelled | Reception::NotReceived => {}
        Reception::Audience => {
            let level = offered(dice.d(100));
            if level > r.level {
                sign(g, st, p, t, level, month, log);
            }
        }
    }
    game_log!(
        log,
        "{} courts {} (d100 {natural}, modified {modified}): {got:?}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name
    );
    true
}

/// `who`'s PV and IDR for signing a treaty: +1 PV for a new one, +0.5 for an extension (PV are
/// whole: every second extension scores 1).
fn score_treaty(g: &Game, st: &mut State, who: CountryId, new: bool) {
    let cul = g.culture[who as usize];
    if new {
        st.apply(who, pv::DIPLOMACY, pv::PER_TREATY, cul);
    } else {
        let nat = &mut st.nations[who as usize];
        nat.extensions += 1;
        let pv = nat.extensions.is_multiple_of(2) as i32;
        nat.idr += pv::TREATY_EXTENSION_IDR[pv::column(cul)];
        st.add_pv(who, pv::DIPLOMACY, pv);
    }
}

/// The `p`-th major and `t` sign a treaty of `level` (better than what they had): +1 PV each for a
/// new treaty, +0.5 for an extension (PV are whole: every second extension scores 1); a province
/// joins the major's empire.
pub fn sign(
    g: &Game,
    st: &mut State,
    p: usize,
    t: CountryId,
    level: u8,
    month: u32,
    log: &mut dyn GameLog,
) {
    let c = g.majors[p];
    let i = at(st, p, t);
    let new = st.relations[i].level == NONE;
    st.relations[i].level = level;
    for who in [c, t] {
        score_treaty(g, st, who, new);
    }
    if new {
        st.counts.treaties_signed += 1;
    } else {
        st.counts.treaties_extended += 1;
    }
    game_log!(
        log,
        "month {month}: {} and {} sign: {}",
        g.scenario.countries[c as usize].name,
        g.scenario.countries[t as usize].name,
        LEVELS[level as usize]
    );
    if level == PROVINCE {
        annex(g, st, c, t, month);
        st.relations[i].level = NONE;
    }
}

/// Province (L484): `t` joins `c`'s empire: its land and stock pass to `c`, yielding in full from
/// the first collection a month or more away; its troops go home to their fields (disbanded).
pub fn annex(g: &Game, st: &mut State, c: CountryId, t: CountryId, month: u32) {
    let mpu = g.men_per_unit(t);
    let nat = &mut st.nations[t as usize];
    let mut men = 0.0;
    for stack in [&mut nat.field, &mut nat.garrison, &mut nat.training] {
        men += State::men(stack, &mpu);
        *stack = NO_UNITS;
    }
    nat.mission = super::state::Mission::Idle;
    nat.at = t;
    nat.work = (0, 0);
    st.ledger.men_lost += men;
    st.transfer_stock(t, c);
    // The province keeps its people's index (`revolt.rs`).
    st.lands[t as usize].idr = super::revolt::index(st, t);
    st.lands[t as usize] = Land {
        owner: c,
        taken_month: month,
        collections: 3,
        garrison: NO_UNITS,
        ..st.lands[t as usize]
    };
    st.counts.provinces += 1;
}

/// Major `c` marches on the lands of its treaty partner `o`: the treaty is broken (PV by option
/// `treaty_breach_pv`, the table's IDR) and `o` talks to it no more.
pub fn break_treaty(g: &Game, st: &mut State, c: CountryId, o: CountryId) {
    let cul = g.culture[c as usize];
    for (a, b) in [(c, o), (o, c)] {
        let p = g.major_index[a as usize];
        if p == u8::MAX {
            continue;
        }
        let i = at(st, p as usize, b);
        if st.relations[i].level > NONE {
            st.relations[i].level = NONE;
            st.relations[i].war = true;
        }
    }
    let row = pv::BREAKING_TREATY;
    let pv = if g.breach_by_table {
        row.pv(cul)
    } else {
        pv::TREATY_BREACH_TEXT
    };
    st.add_pv(c, pv::DIPLOMACY, pv);
    st.nations[c as usize].idr += row.idr(cul);
    st.counts.treaties_broken += 1;
}

/// Ambassadors' upkeep each January (25 DEN each); one not paid is dismissed.
pub fn upkeep(st: &mut State, months: [u32; 2]) {
    if !months.iter().any(|&m| State::calendar(m) == 1) {
        return;
    }
    for c in 0..st.nations.len() as CountryId {
        let n = st.nations[c as usize].ambassadors as i64;
        if n == 0 {
            continue;
        }
        let paid = st.spend(c, DEN, n * AMBASSADOR_UPKEEP);
        st.nations[c as usize].ambassadors = (paid / AMBASSADOR_UPKEEP) as u8;
    }
}

/// After a collection, each major buys its policy's share of what its client and associated
/// states may sell it, 1:1 in DEN, from their stock (their food beyond their own next feeding and
/// army food only: a partner may not be starved into rebellion, L490), within its DEN reserve.
pub fn buy_from_partners(g: &Game, st: &mut State, plans: &[Scripted], cal: u32) {
    for (p, &c) in g.majors.iter().enumerate() {
        let plan = &plans[c as usize];
        if plan.client_buying <= 0.0 || st.lands[c as usize].owner != c {
            continue;
        }
        for t in 0..st.lands.len() as CountryId {
            let share = match st.relations[at(st, p, t)].level {
                CLIENT => CLIENT_SHARE,
                ASSOCIATED => ASSOCIATED_SHARE,
                _ => continue,
            };
            for r in BUYABLE {
                let allowed = (g.scenario.production[t as usize][r] as f64
                    * share
                    * plan.client_buying.min(1.0)) as i64;
                let spare = if r == COM {
                    let keep = super::economy::food_to_keep(g, st, t, &plans[t as usize], cal);
                    st.nations[t as usize].stock[COM] - keep
                } else {
                    st.nations[t as usize].stock[r]
                };
                let den =
                    st.nations[c as usize].stock[DEN] - super::economy::den_to_keep(g, st, c, plan);
                let amount = allowed.min(spare).min(den);
                if amount <= 0 {
                    continue;
                }
                st.nations[t as usize].stock[r] -= amount;
                st.nations[c as usize].stock[r] += amount;
                st.nations[c as usize].stock[DEN] -= amount;
                st.nations[t as usize].stock[DEN] += amount;
                st.counts.bought_from_partners += amount as f64;
            }
        }
    }
}

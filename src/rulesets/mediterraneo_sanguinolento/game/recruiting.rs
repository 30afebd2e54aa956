//! Recruitment centres (digest §4.5.9 method 1; rules §33, L4534): a major whose treaty with a
//! country grants it permission (option `recruitment_permission`) sends a recruiter there (100 DEN
//! and 1 CAB, or 1 CAM without horses; once per centre) and hires troops of the host's kinds up
//! to the POB the host collects in one collection, each unit at +50% money (its DEN cost, the
//! morale cost) and -50% metal, its men taken from the host's POB on hand (the host's available
//! population is reduced by what the recruiter used). They join the major's field army as a
//! mercenary band (`mercenaries::Source::Recruited`: upkeep, battle behaviour and casualty cap as
//! the other bands) when option `recruitment_wait` says: "delivery" 2 turns after the hire (the
//! next hire there then), "rehire" the next turn like any recruit (the next hire there 2 turns
//! after this one).
//!
//! Choices the text leaves open: the major hires the host's strongest kind (the highest combat
//! factor a unit) at the kind's own quality and morale (the text lets the recruiter choose; the
//! host's sheet is the stand-in's), in the host with the most POB available among those it may
//! use; it keeps at most `MAX_CENTRES` centres, and a centre whose host no longer grants
//! permission closes when nothing hired there is on the way. Policy `recruitment_centre` is the
//! share of its spare DEN (above its reserve and wages) it spends a turn (0: never).

use super::diplomacy;
use super::economy;
use super::mercenaries::{self, Source};
use super::policy::Scripted;
use super::scenario::{CountryId, CAB, CAM, DEN, MET, POB};
use super::state::{State, Stock, R};
use super::Game;

/// Centres a major keeps at once (the game's bound; the text sets none).
pub const MAX_CENTRES: usize = 2;
/// The recruiter's cost (digest §3.1.3, L4534): 100 DEN and one horse or camel.
pub const RECRUITER_DEN: i64 = 100;
/// Turns between two hires in one country (L4534), and the delivery delay under "delivery".
pub const WAIT_TURNS: u32 = 2;
/// A hired unit's money and metal, in percent of the unit's own cost (L4534).
pub const MONEY_PERCENT: i64 = 150;
pub const METAL_PERCENT: i64 = 50;
/// A slot without a centre.
pub const NO_HOST: CountryId = CountryId::MAX;

/// A recruitment centre of a major in `host`, and the troops hired there on their way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Centre {
    pub host: CountryId,
    /// First turn it may hire there again.
    pub next_hire: u32,
    /// The host's kind hired, the units on their way (0: none), the DEN paid for them and the
    /// turn they join.
    pub kind: u8,
    pub units: f64,
    pub price: i64,
    pub arrives: u32,
}

impl Centre {
    pub const NONE: Centre = Centre {
        host: NO_HOST,
        next_hire: 0,
        kind: 0,
        units: 0.0,
        price: 0,
        arrives: 0,
    };
}

pub type Centres = [Centre; MAX_CENTRES];
pub const NO_CENTRES: Centres = [Centre::NONE; MAX_CENTRES];

/// The least treaty level with the host that grants permission (option recruitment_permission).
pub fn permission_level(g: &Game) -> u8 {
    match g.options.choice("recruitment_permission") {
        "trade" => diplomacy::EQUAL_TRADE,
        "client" => diplomacy::CLIENT,
        _ => diplomacy::NON_AGGRESSION,
    }
}

/// Turns from a hire to the troops' joining (option recruitment_wait).
pub fn delivery_turns(g: &Game) -> u32 {
    if g.options.choice("recruitment_wait") == "rehire" {
        1
    } else {
        WAIT_TURNS
    }
}

/// What one unit whose own cost is `cost` costs at a recruitment centre: its DEN +50% and its
/// MET -50% (both rounded up), the rest as printed (POB: its men, paid by the host).
pub fn unit_price(cost: &Stock) -> Stock {
    let mut price = *cost;
    price[DEN] = (cost[DEN] * MONEY_PERCENT + 99) / 100;
    price[MET] = (cost[MET] * METAL_PERCENT + 99) / 100;
    price
}

/// POB the host `t` lets a recruiter use now: what it collects in one collection, within its POB
/// on hand.
pub fn host_pob(st: &State, t: CountryId) -> i64 {
    let n = &st.nations[t as usize];
    n.pob_collected.min(n.stock[POB]).max(0)
}

/// The recruiter's animal: a horse if it has one, else a camel; None without either.
fn recruiter_animal(st: &State, c: CountryId) -> Option<usize> {
    let stock = &st.nations[c as usize].stock;
    [CAB, CAM].into_iter().find(|&r| stock[r] >= 1)
}

/// Phase 6: the troops hired earlier join their bands (when a band slot is free; else they wait),
/// then each major with a recruitment share hires once at its best centre.
pub fn phase(g: &Game, st: &mut State, plans: &[Scripted], turn: u32, month: u32) {
    for &c in &g.majors {
        deliver(g, st, c, turn, month);
    }
    let level = permission_level(g);
    for (p, &c) in g.majors.iter().enumerate() {
        let plan = &plans[c as usize];
        if plan.recruitment_centre <= 0.0 || st.lands[c as usize].owner != c {
            continue;
        }
        close_unpermitted(st, p, c, level);
        hire(g, st, p, c, plan, level, turn);
    }
}

/// Troops whose turn has come join `c`'s bands.
fn deliver(g: &Game, st: &mut State, c: CountryId, turn: u32, month: u32) {
    for i in 0..MAX_CENTRES {
        let centre = st.nations[c as usize].centres[i];
        if centre.units <= 0.0 || turn < centre.arrives {
            continue;
        }
        let source = Source::Recruited(centre.host, centre.kind);
        if !mercenaries::enlist(st, c, source, centre.units, centre.price, month) {
            continue;
        }
        let men = g.kinds[centre.host as usize][centre.kind as usize].men;
        st.ledger.men_raised += centre.units * men;
        st.counts.centre_units_delivered += centre.units;
        let slot = &mut st.nations[c as usize].centres[i];
        slot.units = 0.0;
        slot.price = 0;
    }
}

/// Whether `t` grants the `p`-th major permission: it holds its home and has a treaty of `level`
/// or better with it.
fn permits(st: &State, p: usize, t: CountryId, level: u8) -> bool {
    st.lands[t as usize].owner == t && st.relations[diplomacy::at(st, p, t)].level >= level
}

/// Centres of `c` whose host no longer grants permission close, once nothing is on its way.
fn close_unpermitted(st: &mut State, p: usize, c: CountryId, level: u8) {
    for i in 0..MAX_CENTRES {
        let centre = st.nations[c as usize].centres[i];
        if centre.host != NO_HOST && centre.units <= 0.0 && !permits(st, p, centre.host, level) {
            st.nations[c as usize].centres[i] = Centre::NONE;
        }
    }
}

/// The host's strongest kind (highest combat factor a unit).
fn strongest(g: &Game, t: CountryId) -> Option<usize> {
    (0..g.nkinds[t as usize] as usize).max_by(|&a, &b| {
        g.kinds[t as usize][a]
            .factor
            .total_cmp(&g.kinds[t as usize][b].factor)
    })
}

/// One hire of `c` (the `p`-th major): in the permitting country with the most POB available
/// where it has a centre ready to hire or a free slot for a new one, the units of the host's
/// strongest kind its recruitment share of its spare DEN pays (after the recruiter of a new
/// centre), within the host's POB and its own stocks, when a band slot can take them.
fn hire(g: &Game, st: &mut State, p: usize, c: CountryId, plan: &Scripted, level: u8, turn: u32) {
    let centres = st.nations[c as usize].centres;
    let free = centres.iter().position(|x| x.host == NO_HOST);
    let mut best: Option<(CountryId, i64)> = None;
    for t in 0..st.nations.len() as CountryId {
        if t == c || !permits(st, p, t, level) {
            continue;
        }
        let existing = centres.iter().find(|x| x.host == t);
        let ready = match existing {
            Some(x) => x.units <= 0.0 && turn >= x.next_hire,
            None => free.is_some(),
        };
        let pob = host_pob(st, t);
        if ready && pob > 0 && best.is_none_or(|(_, b)| pob > b) {
            best = Some((t, pob));
        }
    }
    let Some((t, pob)) = best else {
        return;
    };
    let Some(k) = strongest(g, t) else {
        return;
    };
    let source = Source::Recruited(t, k as u8);
    if mercenaries::slot(&st.nations[c as usize].mercs, source).is_none() {
        return;
    }
    let slot = centres
        .iter()
        .position(|x| x.host == t)
        .or(free)
        .expect("a ready centre or a free slot");
    let new_centre = centres[slot].host != t;
    let animal = if new_centre {
        match recruiter_animal(st, c) {
            Some(a) => Some(a),
            None => return,
        }
    } else {
        None
    };
    let kind = g.kinds[t as usize][k];
    let price = unit_price(&kind.cost);
    let spare = st.nations[c as usize].stock[DEN] - economy::den_to_keep(g, st, c, plan);
    let budget = (spare.max(0) as f64 * plan.recruitment_centre.min(1.0)).floor() as i64
        - if new_centre { RECRUITER_DEN } else { 0 };
    let stock = st.nations[c as usize].stock;
    let mut units = pob / price[POB].max(1);
    for r in 0..R {
        if r == POB || price[r] <= 0 {
            continue;
        }
        let mut have = if r == DEN { budget } else { stock[r] };
        if Some(r) == animal {
            have -= 1;
        }
        units = units.min(have.max(0) / price[r]);
    }
    if units < 1 {
        return;
    }
    if let Some(a) = animal {
        st.spend(c, DEN, RECRUITER_DEN);
        st.spend(c, a, 1);
        st.counts.recruiters_sent += 1;
    }
    for r in 0..R {
        if r == POB {
            st.spend(t, POB, price[POB] * units);
        } else if price[r] > 0 {
            st.spend(c, r, price[r] * units);
        }
    }
    let den = price[DEN] * units;
    st.nations[c as usize].centres[slot] = Centre {
        host: t,
        next_hire: turn + WAIT_TURNS,
        kind: k as u8,
        units: units as f64,
        price: den,
        arrives: turn + delivery_turns(g),
    };
    let counts = &mut st.counts;
    counts.centre_hires += 1;
    counts.centre_units_hired += units as f64;
    counts.centre_den += den as f64;
    counts.centre_host_pob += (price[POB] * units) as f64;
}

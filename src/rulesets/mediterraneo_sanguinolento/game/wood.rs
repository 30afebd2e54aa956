//! The January wood upkeep of constructions (digest §4.1 row "MAD wood" and §2's calendar; rules
//! §6.4 L751): every January each construction with wood in it must be restored with 1/5 of the
//! wood used in it, or it collapses; ships owe nothing.
//!
//! The wood is recorded per land, as the constructions belong to the land and whoever holds it in
//! January owes their upkeep: per work type (`works.rs`; a sum per type, each of its works
//! counted as owning an equal share), per level of the capital's walls (`economy.rs`) and for its
//! major constructions (`major_works.rs`). Siege engines (lost with their siege) and convoys
//! (vehicles, like ships) owe nothing.
//!
//! Readings (option `wood_upkeep`): a construction owes from the first January after it is
//! finished (one under way is not yet a construction); walls standing at the start paid no wood
//! and owe none; a land's holder pays from its own wood, 1/5 of each construction's wood rounded
//! up, and when it cannot pay all, the cheapest to restore are kept first ("cheapest-kept": most
//! constructions stand); a wall level stands on the ones below, so an unpaid level brings down
//! every level above it; a collapsed work loses one of its type and its yield, a collapsed major
//! construction is lost (the PV and rebellion index it scored are kept, as the walls' are when an
//! event brings them down); "off" plays no upkeep. The referee's countries pay from their stocks
//! (they do not trade); a holder pays its lands in the order of the map's countries.

use super::scenario::{CountryId, MAD};
use super::state::State;
use super::works::{TYPES, WORKS};
use super::Game;
use crate::game::GameLog;
use crate::game_log;

/// Highest wall level recorded (option civilized_max_fortification's maximum).
pub const MAX_WALL: usize = 20;
/// The share of a construction's wood restored each January (L751).
pub const UPKEEP_DIVISOR: i64 = 5;

/// Wood paid into the constructions of one land.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wood {
    /// Per work type: the wood of its finished works, and of the one under way.
    pub works: [i64; TYPES],
    pub building: [i64; TYPES],
    /// Per wall level of its capital (index level - 1): the wood paid when it was last started.
    pub walls: [i64; MAX_WALL],
    /// Its finished major constructions, their wood, and the wood of the one under way.
    pub majors: u8,
    pub major: i64,
    pub major_building: i64,
}

/// The option `wood_upkeep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Paid every January, the cheapest to restore kept first when the wood runs short.
    CheapestKept,
    Off,
}

impl Reading {
    pub fn from_option(v: &str) -> Reading {
        match v {
            "off" => Reading::Off,
            _ => Reading::CheapestKept,
        }
    }
}

/// One group of like constructions of a land: `count` of them holding `wood` together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Work(usize),
    /// A wall level of the land's capital.
    Wall(u8),
    Major,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    what: What,
    count: i64,
    wood: i64,
    /// Order of payment: wood per construction, a wall level's never below the levels under it
    /// (they stand first).
    key: f64,
}

const GROUPS: usize = TYPES + MAX_WALL + 1;

/// The wooden constructions standing in land `l`, in the order they are paid (the cheapest to
/// restore first; ties in listing order: works, walls from level 1, major constructions).
fn groups(g: &Game, st: &State, l: usize) -> ([Group; GROUPS], usize) {
    let none = Group {
        what: What::Major,
        count: 0,
        wood: 0,
        key: 0.0,
    };
    let mut out = [none; GROUPS];
    let mut n = 0;
    let works = &st.works[l];
    let wood = &works.wood;
    for w in WORKS {
        let i = w.index();
        let count = works.built[i] as i64;
        if count > 0 && wood.works[i] > 0 {
            let key = wood.works[i] as f64 / count as f64;
            out[n] = Group {
                what: What::Work(i),
                count,
                wood: wood.works[i],
                key,
            };
            n += 1;
        }
    }
    let level = g.capital[l].map_or(0, |city| st.city_fort[city as usize] as usize);
    let mut below = 0.0f64;
    for lv in 1..=level.min(MAX_WALL) {
        let w = wood.walls[lv - 1];
        if w > 0 {
            below = below.max(w as f64);
            out[n] = Group {
                what: What::Wall(lv as u8),
                count: 1,
                wood: w,
                key: below,
            };
            n += 1;
        }
    }
    if wood.majors > 0 && wood.major > 0 {
        out[n] = Group {
            what: What::Major,
            count: wood.majors as i64,
            wood: wood.major,
            key: wood.major as f64 / wood.majors as f64,
        };
        n += 1;
    }
    out[..n].sort_by(|a, b| a.key.total_cmp(&b.key));
    (out, n)
}

/// Wood that keeps `kept` of a group's `count` constructions holding `wood`: 1/5 of their share
/// of it, rounded up.
pub fn upkeep(kept: i64, count: i64, wood: i64) -> i64 {
    let owed = kept * wood;
    let per = UPKEEP_DIVISOR * count;
    (owed + per - 1) / per
}

/// How many of a group's `count` constructions holding `wood` `stock` wood keeps.
fn keepable(stock: i64, count: i64, wood: i64) -> i64 {
    (UPKEEP_DIVISOR * count * stock / wood).min(count)
}

/// Wood the constructions of land `l` owe next January: what [`restore`] takes when it keeps
/// them all (the same groups, summed without ordering them: the policies ask it often).
pub fn due(g: &Game, st: &State, l: usize) -> i64 {
    let works = &st.works[l];
    let wood = &works.wood;
    let mut owed = 0;
    for i in 0..TYPES {
        if works.built[i] > 0 && wood.works[i] > 0 {
            owed += upkeep(1, 1, wood.works[i]);
        }
    }
    let level = g.capital[l].map_or(0, |city| st.city_fort[city as usize] as usize);
    for &w in &wood.walls[..level.min(MAX_WALL)] {
        owed += upkeep(1, 1, w);
    }
    if wood.majors > 0 {
        owed += upkeep(1, 1, wood.major);
    }
    owed
}

/// Wood `c` owes next January for the constructions of every land it holds (0 with the option
/// off): what its policy keeps from the black market's buyers and buys there when short.
pub fn owed(g: &Game, st: &State, c: CountryId) -> i64 {
    if g.wood_upkeep == Reading::Off {
        return 0;
    }
    (0..st.lands.len())
        .filter(|&l| st.lands[l].owner == c)
        .map(|l| due(g, st, l))
        .sum()
}

/// The most wood `c` may put into new constructions now (the walls', the works'): its stock
/// beyond the upkeep it owes, less the new ones' own first upkeep (a fifth of their wood); and
/// where it does not buy wood at the black market (`buys` false: the referee's countries), no
/// more than the yearly wood of the lands it holds can restore beside what they owe already, so
/// that it never builds what it cannot keep standing. Its whole stock with the option off.
pub fn spare_for_building(g: &Game, st: &State, c: CountryId, buys: bool) -> i64 {
    let stock = st.nations[c as usize].stock[MAD];
    if g.wood_upkeep == Reading::Off {
        return stock;
    }
    let (mut owed, mut yearly) = (0, 0);
    let collections = g.scenario.calendar.collection.count_ones() as i64;
    for l in (0..st.lands.len()).filter(|&l| st.lands[l].owner == c) {
        owed += due(g, st, l);
        yearly += g.scenario.production[l][MAD] as i64 * collections;
    }
    let most = (stock - owed).max(0) * UPKEEP_DIVISOR / (UPKEEP_DIVISOR + 1);
    if buys {
        return most;
    }
    most.min((yearly - owed).max(0) * UPKEEP_DIVISOR)
}

/// 2 PAGOS in a turn whose months include January: every land's holder restores its wooden
/// constructions, or they collapse.
pub fn january(g: &Game, st: &mut State, months: [u32; 2], log: &mut dyn GameLog) {
    if g.wood_upkeep == Reading::Off || !months.iter().any(|&m| State::calendar(m) == 1) {
        return;
    }
    for l in 0..st.lands.len() {
        restore(g, st, l, log);
    }
}

/// Land `l`'s holder pays its constructions' upkeep, the cheapest first; the rest collapse.
pub fn restore(g: &Game, st: &mut State, l: usize, log: &mut dyn GameLog) {
    let (groups, n) = groups(g, st, l);
    if n == 0 {
        return;
    }
    let holder = st.lands[l].owner;
    let mut walls_fell = false;
    let mut collapsed = 0;
    for x in &groups[..n] {
        let stock = st.nations[holder as usize].stock[MAD];
        let kept = match x.what {
            What::Wall(_) if walls_fell => 0,
            _ => keepable(stock, x.count, x.wood),
        };
        let paid = st.spend(holder, MAD, upkeep(kept, x.count, x.wood));
        st.counts.wood_upkeep_paid += paid as f64;
        if kept == x.count {
            continue;
        }
        collapsed += x.count - kept;
        game_log!(
            log,
            "{}: {} {} collapse(s) for want of wood (L751; {} wood, {} held)",
            g.scenario.countries[l].name,
            x.count - kept,
            match x.what {
                What::Work(i) => WORKS[i].name().to_string(),
                What::Wall(level) => format!("wall level {level}"),
                What::Major => "major construction".to_string(),
            },
            upkeep(x.count - kept, x.count, x.wood),
            st.nations[holder as usize].stock[MAD]
        );
        let wood = &mut st.works[l].wood;
        match x.what {
            What::Work(i) => {
                super::works::lose_built(&mut st.works[l], i, (x.count - kept) as u8);
            }
            What::Wall(level) => {
                walls_fell = true;
                if let Some(city) = g.capital[l] {
                    let fort = &mut st.city_fort[city as usize];
                    *fort = (*fort).min(level - 1);
                }
            }
            What::Major => {
                wood.major = x.wood * kept / x.count;
                wood.majors = kept as u8;
            }
        }
    }
    collapsed += super::works::drop_orphan_enlargements(g, &mut st.works[l], l) as i64;
    st.counts.constructions_collapsed += collapsed as u32;
}

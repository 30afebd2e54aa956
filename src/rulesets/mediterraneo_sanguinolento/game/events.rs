//! 1 EVENTOS (digest §4.14, rules §22 L3868-L4020): every month every country rolls two D6 (row,
//! column) on the event grid (A55: every country, every month). Most events act on the country's
//! next collection (L4018), kept on its land as multipliers and additions; the rest act at once:
//! plague on the troops there, the natural disaster on a city's walls, returning ex-mercenaries,
//! an armed incursion fought through the battle code, the political crisis's PV row.

use super::battles::{self, has_troops, Side};
use super::leaders::{self, Lead, Who};
use super::mercenaries::NO_BANDS;
use super::military::{self, garrison_mut};
use super::policy::Scripted;
use super::pv;
use super::scenario::{CountryId, COM, DEN, POB};
use super::state::{Mission, State, Units, KINDS, NO_UNITS, R};
use super::Game;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;

/// The grid as printed (L3876-L3888): row die, then column die.
pub const GRID: [&[u8; 6]; 6] = [
    b"ERKOSJ", b"QANCBO", b"MKDKPR", b"CGEFKM", b"OKPLPO", b"HGJAIT",
];

/// POB and DEN a J event adds to the next collection: 125 POB, and a quarter of one city's DEN.
pub const IMMIGRANTS: i64 = 125;

/// What a country's next collection carries from its events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pending {
    /// Multiplier per resource.
    pub mult: [f64; R],
    pub pob: i64,
    pub den: i64,
}

impl Pending {
    pub const NONE: Pending = Pending {
        mult: [1.0; R],
        pob: 0,
        den: 0,
    };

    /// What the land yields at the collection: `base` times the multipliers, plus the additions.
    pub fn apply(&self, base: &[u32; R]) -> [i64; R] {
        let mut out = [0i64; R];
        for r in 0..R {
            out[r] = (base[r] as f64 * self.mult[r]).floor() as i64;
        }
        out[POB] += self.pob;
        out[DEN] += self.den;
        out
    }
}

fn pending(st: &mut State, l: CountryId) -> &mut Pending {
    &mut st.lands[l as usize].pending
}

/// The event of a row die and a column die.
pub fn event(row: u32, column: u32) -> u8 {
    GRID[row as usize - 1][column as usize - 1]
}

/// Rolls and applies the month's event of every country (its land, whoever holds it).
pub fn month(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    for l in 0..st.lands.len() as CountryId {
        let e = event(dice.d(6), dice.d(6));
        apply(g, st, plans, l, e, month, dice, log);
    }
}

/// Event `e` on country `l` in game month `month`.
#[allow(clippy::too_many_arguments)]
pub fn apply(
    g: &Game,
    st: &mut State,
    plans: &[Scripted],
    l: CountryId,
    e: u8,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let o = st.lands[l as usize].owner;
    let home = o == l;
    match e {
        b'D' => {
            pending(st, l).mult[POB] *= 0.9;
            plague(g, st, l, dice);
        }
        b'E' => pending(st, l).mult[COM] *= 0.5,
        b'F' => pending(st, l).mult[COM] *= 1.0 - dice.d(6) as f64 / 10.0,
        b'G' => pending(st, l).mult[COM] *= 1.0 + dice.d(6) as f64 / 10.0,
        b'H' => {
            let cities = g.scenario.countries[l as usize].cities.clone();
            if !cities.is_empty() {
                let city = cities.start + dice.below(cities.len() as u64) as u16;
                st.city_fort[city as usize] = 0;
            }
        }
        b'I' | b'K' => {
            let third = if e == b'K' { 1.0 } else { -1.0 } / 3.0;
            if !g.currency_on_treasury {
                pending(st, l).mult[DEN] *= 1.0 + third;
            } else if home {
                let treasury = st.nations[o as usize].stock[DEN];
                let change = (treasury as f64 / 3.0).floor() as i64;
                if e == b'K' {
                    st.gain(o, DEN, change);
                } else {
                    st.spend(o, DEN, change);
                }
            }
        }
        b'J' => {
            let cities = g.scenario.countries[l as usize].cities.len() as i64;
            if cities > 0 {
                pending(st, l).pob += IMMIGRANTS;
                pending(st, l).den += g.scenario.production[l as usize][DEN] as i64 / cities / 4;
            }
        }
        b'L' if home => return_home(g, st, &plans[o as usize], o, dice),
        b'M' if home && g.majors.contains(&o) => incursion(g, st, o, month, dice, log),
        b'N' if home => st.apply(o, pv::EVENTS, pv::POLITICAL_CRISIS, g.culture[o as usize]),
        b'B' if home => leaders::event_death(g, st, o, dice),
        b'C' if home => leaders::event_new(g, st, o, dice),
        b'O' => pending(st, l).mult[DEN] *= 2.0,
        b'P' => pending(st, l).mult[DEN] *= 0.5,
        b'Q' => {
            for r in 0..R {
                if r != POB {
                    pending(st, l).mult[r] *= 0.95;
                }
            }
        }
        b'R' => pending(st, l).mult[POB] *= 1.2,
        b'S' => pending(st, l).mult[POB] *= 0.8,
        // A, T: espionage and technology are not played.
        _ => {}
    }
}

/// Whole units of `units` that die, each on 1 in 1D10 (a fractional unit as one more roll).
fn plague_deaths(units: f64, dice: &mut Dice) -> f64 {
    let whole = units.floor();
    let mut dead = 0.0;
    for _ in 0..whole as u32 {
        dead += (dice.d(10) == 1) as u32 as f64;
    }
    let part = units - whole;
    if part > 1e-9 && dice.d(10) == 1 {
        dead += part;
    }
    dead
}

/// Plague: every unit in country `l` (its holder's troops there) dies on a 1 in 1D10.
pub fn plague(g: &Game, st: &mut State, l: CountryId, dice: &mut Dice) {
    let o = st.lands[l as usize].owner;
    let mpu = g.men_per_unit(o);
    let home = o == l;
    let here = {
        let n = &st.nations[o as usize];
        let field = n.at == l && n.mission == Mission::Idle;
        let mut u: Units = *military::garrison(st, l);
        for k in 0..KINDS {
            if home {
                u[k] += n.training[k];
            }
            if field {
                u[k] += n.field[k];
            }
        }
        (u, field)
    };
    let (units, field) = here;
    let mut keep = [1.0; KINDS];
    let mut men = 0.0;
    for k in 0..KINDS {
        if units[k] > 1e-9 {
            let dead = plague_deaths(units[k], dice);
            keep[k] = 1.0 - dead / units[k];
            men += dead * mpu[k];
        }
    }
    let cut = |stack: &mut Units| {
        for k in 0..KINDS {
            stack[k] *= keep[k];
        }
    };
    cut(garrison_mut(st, l));
    let n = &mut st.nations[o as usize];
    if home {
        cut(&mut n.training);
    }
    if field {
        cut(&mut n.field);
    }
    st.ledger.men_lost += men;
}

/// Return home: 1D6 units of ex-mercenaries (of the country's first kind) join it if it pays a
/// unit's half-yearly wages for each now, keeps its DEN reserve and can feed them; they train for
/// a turn.
fn return_home(g: &Game, st: &mut State, p: &Scripted, o: CountryId, dice: &mut Dice) {
    if g.nkinds[o as usize] == 0 {
        return;
    }
    let kind = g.kinds[o as usize][0];
    let n = dice.d(6) as i64;
    if super::economy::feedable(g, st, o, 0) < n {
        return;
    }
    let wage = super::economy::wage(kind.cost[DEN]);
    if st.nations[o as usize].stock[DEN] - n * wage < super::economy::den_to_keep(g, st, o, p) {
        return;
    }
    st.spend(o, DEN, n * wage);
    st.nations[o as usize].training[0] += n as f64;
    st.ledger.men_raised += n as f64 * kind.men;
}

/// Armed incursion: 2D6 units of a neighbouring referee country's first kind attack major `o` at
/// home: its field army if it stands there, else its garrison, in a field battle (battle code);
/// an undefended home suffers a month of invasion. The raiders are a band, not the neighbour's
/// army: their losses are nobody's.
fn incursion(
    g: &Game,
    st: &mut State,
    o: CountryId,
    month: u32,
    dice: &mut Dice,
    log: &mut dyn GameLog,
) {
    let neighbours = &g.neighbours[o as usize];
    if neighbours.is_empty() {
        return;
    }
    let from = neighbours[dice.below(neighbours.len() as u64) as usize];
    let raider = st.lands[from as usize].owner;
    if g.majors.contains(&raider) || g.nkinds[raider as usize] == 0 {
        return;
    }
    let mut band = NO_UNITS;
    band[0] = (dice.d(6) + dice.d(6)) as f64;
    let n = &st.nations[o as usize];
    let field = n.at == o && n.mission == Mission::Idle && has_troops(&n.field);
    let defenders = if field { n.field } else { n.garrison };
    st.counts.incursions += 1;
    if !has_troops(&defenders) {
        st.apply(
            o,
            pv::INVASION,
            pv::FIRST_MONTH_OF_INVASION,
            g.culture[o as usize],
        );
        return;
    }
    let mut sides = [
        Side {
            mix: super::special::NO_MIX,
            mercs: NO_BANDS,
            militia: 0.0,
            republican: 0.0,
            country: raider,
            units: band,
            unsupplied: 0.0,
            fatigue: 0,
            lead: Lead {
                who: Who::Band,
                ..Lead::UNNAMED
            },
        },
        Side {
            mix: st.nations[o as usize].mix,
            ..Side::new(o, defenders, leaders::home_lead(g, st, o, month))
        },
    ];
    super::republican_militia::join(g, st, o, false, &mut sides[1]);
    let weather = st.weather[g.scenario.nodes[o as usize].zone as usize];
    let fought = battles::field_battle(g, o, military::winter(g, month), weather, sides, dice);
    let mpu = g.men_per_unit(o);
    let nat = &mut st.nations[o as usize];
    let stack = if field {
        &mut nat.field
    } else {
        &mut nat.garrison
    };
    let mut men = 0.0;
    for k in 0..KINDS {
        let lost = fought.lost[1][k].min(stack[k]);
        stack[k] -= lost;
        men += lost * mpu[k];
    }
    nat.fought_this_year = true;
    st.ledger.men_lost += men;
    super::republican_militia::lose(g, st, fought.republican_lost[1]);
    leaders::after_battle(g, st, &sides, &fought, month, dice);
    if let Some(w) = fought.winner {
        let row = pv::battle_row(w == 1, fought.factors[1], fought.factors[0]);
        st.apply(o, pv::BATTLES, row, g.culture[o as usize]);
    }
    game_log!(
        log,
        "month {month}: raiders from {} attack {}: {}",
        g.scenario.countries[from as usize].name,
        g.scenario.countries[o as usize].name,
        match fought.winner {
            Some(1) => "beaten off",
            Some(_) => "the raiders win",
            None => "undecided",
        }
    );
}

//! Naval combat (rules §12, L2346-L2711; digest §3.5, §8.4): ram combat on the naval matrices or
//! boarding on 3-3, Greek fire (L5134-L5137), corvus (L5155), a retreat attempt (L2663, A31) and
//! pursuit (L2669), segment by segment and day by day until a fleet is destroyed, routs or withdraws.
//!
//! One deterministic procedure serves both answers: `NavalBattle::plan` (what the segment is),
//! `NavalBattle::fire` (one side's fire for given dice), `NavalBattle::apply` and
//! `NavalBattle::after` (end conditions and retreat decisions), `NavalBattle::pursuit_loss`. The
//! exact answer enumerates their dice over a Markov chain of merged states; a Monte Carlo trial
//! samples them.
//!
//! Readings that are not rule options (each also said in `notes()`):
//! * A side is one mass: every ship type loses the same fraction of its ships, so a side's state is the
//!   number of whole ships still fighting: each segment's ships out of action are floored (L22: ships
//!   are indivisible, like A22's men). This keeps the exact chain small; a hit under one ship's worth
//!   of factors does nothing. Embarked troops are spread over the ships and share their fate.
//! * Casualty factors become ships at the enemy's average factor per ship in the segment's kind of
//!   combat (A29, A32); a side with no factors of that kind converts at the weakest ship's (FTR ram 1,
//!   FC crew 2 per fleet). Boarding casualties are ships captured by the enemy (A32).
//! * Barbarian (-1) and FQ (+1, own ships at least 75% FQ against at least 75% FTR) die modifiers
//!   apply to ram segments only (L2425 ties the -1 to the lack of rams; L2709 says "ram attack").
//! * Morale: ram segments use the crews' value, boarding segments the average of fleets' crews and
//!   embarked units (A27); losses so far carry over when the kind of combat changes.
//! * Retreat (A31): attempted at the end of a segment when the side's policy says so, at most once,
//!   never while grappled; success ends the battle at once without pursuit (the other side holds the
//!   sea); failure makes the retreater fight 11 against 43-33-23 for the next three segments and then
//!   withdraw, pursued. Both sides wanting to retreat at once: both withdraw, no winner.
//! * Pursuit (§3.5.2 PROPOSAL): after a rout or a failed retreat, by the winner's current ram factors on
//!   the pursuit table, +1 on the row die with a naval leader, -1 in rain.

use super::data::{self, data};
use super::field::{WEATHER, WINTER};
use crate::battle::keys::{self, Key, Type};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial, LOSSES};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::FastMap;
use crate::options::Options;
use crate::spec::Fields;
use toml::{Table, Value};

pub const SUMMARY: &str = "naval combat: ram combat on the naval matrices or boarding, Greek fire, corvus, retreat attempt and pursuit, segment by segment until a fleet is destroyed, routs or withdraws (rules §12)";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;
const FLEET_TYPES: [&str; 7] = ["FG", "FB", "FT", "FQ", "FTR", "FC", "FP"];
const FQ: usize = 3;
const FTR: usize = 4;
const MATRICES: [&str; 6] = ["PE", "DI", "KY", "ES", "DL", "RP"];
use super::army::MORALE_CLASSES as MORALE;
use super::SIDES;
const QUALITY: [&str; 2] = ["regular", "irregular"];

const FLEETS: Key = Key::new(
    "fleets",
    Type::Table {
        format: "fleet type (FG FB FT FQ FTR FC FP) = number of fleets, multiples of 0.1 = single ships",
        example: "{ FT = 3, FG = 2 }",
    },
)
.required()
.help("the side's fleets by type");
const CREW_QUALITY: Key = keys::choice("quality", &QUALITY)
    .default_choice("regular")
    .help("the crews' quality");
const CREW_MORALE: Key = keys::choice("morale", &MORALE)
    .default_choice("C")
    .help("the crews' morale class (A doubles factors, B x1.5)");
const BARBARIAN: Key =
    keys::flag("barbarian").help("barbarian ships, -1 on the ram combat die (L2425)");
const CORVUS: Key = keys::flag("corvus").help("Italo-Roman corvus, boarding factors x1.2 (L5155)");
const GREEK_FIRE: Key = keys::flag("greek_fire")
    .help("fires on the archery table in every non-boarding segment (L5134-L5137)");
const EMBARKED: Key = Key::new(
    "embarked",
    Type::Table {
        format: "land unit type = number of units, within the fleets' transport capacity",
        example: "{ IM = 1 }",
    },
)
.absent("none")
.help("land units aboard (boarding factors of the NAVAL column)");
const EMBARKED_QUALITY: Key = keys::choice("embarked_quality", &QUALITY)
    .absent("the crews'")
    .help("the embarked units' quality");
const EMBARKED_MORALE: Key = keys::choice("embarked_morale", &MORALE)
    .absent("the crews'")
    .help("the embarked units' morale class");
const LEADER: Key = keys::int("leader", 0, 5)
    .absent("none, counted as 0")
    .help("the naval leader's tactical value");
const INFANTRY_LEADER: Key = keys::int("infantry_leader", 0, 5)
    .absent("none")
    .help("an infantry leader's tactical value, leading boarding at -2 (L2140)");
const COMBAT: Key = keys::choice("combat", &["ram", "boarding"])
    .default_choice("ram")
    .help("the side's order; if they differ the better naval leader decides, ties ram (L2451)");
const MATRIX: Key = keys::choice("matrix", &MATRICES)
    .default_choice("ES")
    .help("the side's naval matrix (L2673)");
const RETREAT_BELOW_MORALE: Key = keys::number("retreat_below_morale", 0.0, 6.0)
    .absent("never")
    .help("attempt a retreat when morale falls below this");
const RETREAT_AFTER_LOSSES: Key = keys::number("retreat_after_losses", 0.0, 100.0)
    .absent("never")
    .help("attempt a retreat once this % of the ships is lost");
const PURSUE: Key = keys::flag("pursue")
    .default_bool(true)
    .help("pursue a routed or withdrawing enemy");
const MAX_DAYS: Key = keys::int("max_days", 1, 365)
    .default_int(30)
    .help("days fought at most; what is still undecided is reported as `undecided`, outcome none");
const OCEAN: Key = keys::flag("ocean").help(
    "the battle is on the Atlantic or Indian ocean (+2 on the storm roll of the note on sailing on)",
);

const SIDE_KEYS: [Key; 16] = keys::placed(
    [
        FLEETS,
        CREW_QUALITY,
        CREW_MORALE,
        BARBARIAN,
        CORVUS,
        GREEK_FIRE,
        EMBARKED,
        EMBARKED_QUALITY,
        EMBARKED_MORALE,
        LEADER,
        INFANTRY_LEADER,
        COMBAT,
        MATRIX,
        RETREAT_BELOW_MORALE,
        RETREAT_AFTER_LOSSES,
        PURSUE,
    ],
    &SIDES,
);

pub const KEYS: &[Key] = &keys::join::<20>(&[&SIDE_KEYS, &[WEATHER, WINTER, OCEAN, MAX_DAYS]]);
/// Boarding is fought on 3-3 in every segment (L2433).
const BOARD_CODE: Code = Code {
    cas: 3,
    mor: 3,
    star: false,
    board: true,
};
/// A failed retreat: the retreater fires 11 every segment, the other side 43, 33, 23 (L2663).
const FAILED_RETREAT: [Code; 3] = [Code::fire(4, 3), Code::fire(3, 3), Code::fire(2, 3)];
const RETREATER_CODE: Code = Code::fire(1, 1);
/// Most states the exact chain may hold after a segment, and most transitions it may follow in all,
/// before it gives up (a few seconds of work).
const STATE_BUDGET: usize = 250_000;
const WORK_BUDGET: u64 = 80_000_000;
/// Units of a side's state per ship: whole ships (each segment's losses floored, L22).
const H: u64 = 1;
/// Ram factors are held in 1/80 (a ship is 1/10 fleet, elite x/2, weather x/4) and boarding factors
/// in 1/400 (also corvus x/5).
const RAM_DEN: u64 = 80;
const BOARD_DEN: u64 = 400;

/// One segment code: casualty and morale columns, "*" (1D6 <= 3 boards), "A" (boarding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Code {
    cas: u8,
    mor: u8,
    star: bool,
    board: bool,
}

impl Code {
    const fn fire(cas: u8, mor: u8) -> Code {
        Code {
            cas,
            mor,
            star: false,
            board: false,
        }
    }

    /// "42", "21*", "A"; the printed "1" (PE/DI, A30) is read "11".
    fn parse(text: &str) -> Code {
        if text == "A" {
            return Code {
                board: true,
                ..BOARD_CODE
            };
        }
        let star = text.ends_with('*');
        let digits: Vec<u8> = text
            .trim_end_matches('*')
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let (cas, mor) = match digits[..] {
            [c, m] => (c, m),
            [c] => (c, c),
            _ => panic!("naval matrix code {text:?}"),
        };
        Code {
            cas,
            mor,
            star,
            board: false,
        }
    }

    fn show(self) -> String {
        if self.board {
            "A".into()
        } else {
            format!(
                "{}{}{}",
                self.cas,
                self.mor,
                if self.star { "*" } else { "" }
            )
        }
    }
}

/// One side, resolved into plain numbers at build time.
#[derive(Clone, Debug)]
struct Side {
    ships: [u32; 7],
    /// Ships in all.
    n: u64,
    embarked: Vec<(String, u32)>,
    /// Σ ships × ram per fleet × elite×2 × weather×4 (factors = /80).
    ram: u64,
    /// Σ (ships × crew per fleet × elite×2 + 10 × embarked × NAVAL factor × elite×2) × (6 with corvus
    /// else 5) × weather×4 (factors = /400).
    board: u64,
    /// The same, but never below the weakest ship's (used to convert the enemy's casualties).
    ram_conv: u64,
    board_conv: u64,
    /// Base morale in hundredths in ram and in boarding segments.
    morale_ram: i32,
    morale_board: i32,
    /// Die modifier in ram segments (barbarian -1, FQ +1).
    ram_die: i32,
    /// Tactical values for the leadership table in ram and boarding segments.
    lead_ram: usize,
    lead_board: usize,
    naval_leader: Option<u32>,
    greek: bool,
    corvus: bool,
    barbarian: bool,
    quality: &'static str,
    morale_class: &'static str,
    order_boarding: bool,
    matrix: &'static str,
    retreat_below: Option<i32>,
    retreat_losses: Option<f64>,
    pursue: bool,
    /// Crew and embarked men.
    men: u64,
}

/// A battle in progress, merged across dice paths in the exact chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    /// Ships still fighting.
    rem: [u32; 2],
    /// Ships captured by the enemy in boarding.
    cap: [u32; 2],
    /// Morale lost so far, hundredths.
    lost: [i32; 2],
    /// Segments fought.
    seg: u16,
    /// Boarding in progress and persisting (A28).
    grappled: bool,
    /// Boarding happened at least once.
    boarded: bool,
    /// The last segment was a boarding segment (whose morale base then counts).
    last_board: bool,
    /// Retreat bits: 1 << s attempted, 4 << s succeeded, 16 << s failed.
    retreat: u8,
    /// Segments left of a failed retreat.
    forced: u8,
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Fin {
    /// 0 attacker, 1 defender, 2 none.
    winner: u8,
    pursue: bool,
    undecided: bool,
}

impl Fin {
    const fn win(s: usize, pursue: bool) -> Fin {
        Fin {
            winner: s as u8,
            pursue,
            undecided: false,
        }
    }
    const NONE: Fin = Fin {
        winner: 2,
        pursue: false,
        undecided: false,
    };
}

/// What the reports need of a finished battle beyond its path: the ships left and captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Ending {
    rem: [u32; 2],
    cap: [u32; 2],
    fin: Fin,
}

impl Ending {
    fn of(st: &State, fin: Fin) -> Ending {
        Ending {
            rem: st.rem,
            cap: st.cap,
            fin,
        }
    }
}

/// What the next segment is.
enum Plan {
    /// Codes for the attacker and the defender; `star` = boarding on 1D6 <= 3 first.
    Fire([Code; 2], bool),
    Board,
}

/// What follows a segment.
enum After {
    Done(Fin),
    Go,
    /// Side `s` attempts a retreat: a 1D6 decides.
    Retreat(usize),
}

/// One side's fire in one segment: enemy ships put out of action (or captured), enemy
/// morale lost in hundredths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shot {
    loss: u32,
    mor: i32,
}

pub struct NavalBattle {
    sides: [Side; 2],
    /// Segment codes from the matrix cell, None when the cell is NO COMBATE.
    cell: Option<[[Code; 3]; 2]>,
    boarding_battle: bool,
    /// Why the kind of combat is what it is.
    combat_reason: String,
    /// CRT as percentages and morale hundredths: [block][row][column].
    cas: [[[u32; 6]; 8]; 6],
    mor: [[[i32; 6]; 8]; 6],
    block_first_digit: bool,
    separate_morale_die: bool,
    floor_factors: bool,
    persists: bool,
    retreat_target: i32,
    rain: i32,
    weather: &'static str,
    winter: bool,
    /// The fleets sail the Atlantic or the Indian ocean (+2 on the storm roll).
    ocean: bool,
    weather_x4: u64,
    max_segments: u16,
    max_days: u32,
    /// LEAD[own][enemy] for ram and boarding, per side.
    lead: [[i32; 2]; 2],
    schema: Schema,
    columns: Columns,
}

// Schema indices.
/// Where the battle's quantities sit in its schema, fixed by [`NavalBattle::new`] as it names
/// them; pairs are (attacker, defender).
#[derive(Clone, Debug)]
struct Columns {
    losses: [usize; 2],
    captured: [usize; 2],
    boarding: usize,
    undecided: usize,
    days: usize,
    retreat_tried: [usize; 2],
    retreat_ok: [usize; 2],
    morale: [usize; 2],
    men: [usize; 2],
    pursuit: [usize; 2],
    damaged: [usize; 2],
    sunk: [usize; 2],
    segments: usize,
}

fn input(fields: &Fields, key: &str, value: impl std::fmt::Display, allowed: &str) -> AleaError {
    AleaError::input(fields.source, fields.field(key), value, allowed)
}

/// `{ CODE = number }` tables: returns (code, value), checking codes and values.
fn read_by_code(
    side: &Fields,
    key: &Key,
    codes: &[&str],
    max: f64,
    integer: bool,
) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    let Some(Value::Table(t)) = key.raw(side)? else {
        return Ok(out);
    };
    let whole = if integer {
        "a whole number"
    } else {
        "a multiple of 0.1"
    };
    for (code, v) in t {
        let path = format!("{}.{code}", key.field(side));
        if !codes.contains(&code.as_str()) {
            return Err(AleaError::input(
                side.source,
                path,
                format!("\"{code}\""),
                format!("one of {}", codes.join(", ")),
            ));
        }
        let x = match v {
            Value::Integer(i) => *i as f64,
            Value::Float(x) if !integer => *x,
            other => {
                return Err(AleaError::input(
                    side.source,
                    path,
                    other,
                    format!("{whole} from 0 to {max}"),
                ))
            }
        };
        let tenths = x * 10.0;
        if !(0.0..=max).contains(&x) || (tenths - tenths.round()).abs() > 1e-6 {
            return Err(AleaError::input(
                side.source,
                path,
                x,
                format!("{whole} from 0 to {max}"),
            ));
        }
        out.push((code.clone(), x));
    }
    Ok(out)
}

struct SideInput {
    side: Side,
    /// Tactical value of the naval leader for the choice of combat (absent = 0).
    naval_tactical: u32,
}

fn parse_side(side: &Fields, weather_x4: u64) -> Result<SideInput> {
    let d = data();
    let mut ships = [0u32; 7];
    for (code, x) in read_by_code(side, &FLEETS, &FLEET_TYPES, 1000.0, false)? {
        let t = FLEET_TYPES
            .iter()
            .position(|c| *c == code)
            .expect("checked");
        ships[t] = (x * 10.0).round() as u32;
    }
    let n: u64 = ships.iter().map(|&s| s as u64).sum();
    if n == 0 {
        return Err(input(
            side,
            FLEETS.name,
            "no ships",
            "at least one ship, e.g. { FT = 1 }",
        ));
    }
    let quality = CREW_QUALITY.choice(side)?;
    let morale_class = CREW_MORALE.choice(side)?;
    let e_quality = EMBARKED_QUALITY.opt_choice(side)?.unwrap_or(quality);
    let e_morale = EMBARKED_MORALE.opt_choice(side)?.unwrap_or(morale_class);
    let value = |q: &str, m: &str| -> i64 {
        let i = MORALE.iter().position(|c| *c == m).expect("checked");
        let v = if q == "regular" {
            &d.morale.value.regular
        } else {
            &d.morale.value.irregular
        };
        v[i] as i64
    };
    let elite2 = |m: &str| -> u64 {
        let i = MORALE.iter().position(|c| *c == m).expect("checked");
        (d.morale.elite.factor_multiplier[i] * 2.0).round() as u64
    };
    let land_codes: Vec<&str> = d.units.iter().map(|u| u.code.as_str()).collect();
    let embarked: Vec<(String, u32)> = read_by_code(side, &EMBARKED, &land_codes, 10_000.0, true)?
        .into_iter()
        .map(|(c, x)| (c, x as u32))
        .filter(|(_, x)| *x > 0)
        .collect();
    let fleets: Vec<&data::Fleet> = FLEET_TYPES
        .iter()
        .map(|c| d.fleet(c).expect("fleet in the data"))
        .collect();
    let capacity: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].carries_units as u64)
        .sum::<u64>()
        / 10;
    let aboard: u64 = embarked.iter().map(|(_, x)| *x as u64).sum();
    if aboard > capacity {
        return Err(input(
            side,
            EMBARKED.name,
            format!("{aboard} units"),
            &format!("at most {capacity} land units, the fleets' transport capacity (L4598-L4610)"),
        ));
    }
    let barbarian = BARBARIAN.bool(side)?;
    let corvus = CORVUS.bool(side)?;
    let greek = GREEK_FIRE.bool(side)?;
    let e2 = elite2(morale_class);
    let ram: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].ram as u64)
        .sum::<u64>()
        * e2
        * weather_x4;
    let corvus_x5 = if corvus { 6 } else { 5 };
    let crew: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].boarding as u64)
        .sum::<u64>()
        * e2;
    let troops: u64 = embarked
        .iter()
        .map(|(c, x)| {
            let f = d.factor(c, data::NAVAL).expect("land unit in the data");
            10 * *x as u64 * f.round() as u64 * elite2(e_morale)
        })
        .sum();
    let board = (crew + troops) * corvus_x5 * weather_x4;
    let ram_conv = ram.max(n * e2 * weather_x4);
    let board_conv = board.max(n * 2 * e2 * corvus_x5 * weather_x4);
    let crew_value = value(quality, morale_class);
    let morale_ram = (crew_value * 100) as i32;
    let troops_n = aboard as i64 * 10; // in tenths of a unit, like ships are tenths of a fleet
    let morale_board = ((100 * (n as i64 * crew_value + troops_n * value(e_quality, e_morale)))
        / (n as i64 + troops_n)) as i32;
    let men: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].crew as u64)
        .sum::<u64>()
        / 10
        + embarked
            .iter()
            .map(|(c, x)| *x as u64 * d.unit(c).expect("unit").men as u64)
            .sum::<u64>();
    let leader = LEADER.opt_int(side)?.map(|x| x as u32);
    let infantry = INFANTRY_LEADER.opt_int(side)?.map(|x| x as u32);
    let lead_ram = leader.unwrap_or(0) as usize;
    let lead_board = lead_ram.max(infantry.map_or(0, |t| t.saturating_sub(2)) as usize);
    let order_boarding = COMBAT.choice(side)? == "boarding";
    let matrix = MATRIX.choice(side)?;
    let retreat_below = RETREAT_BELOW_MORALE
        .opt_number(side)?
        .map(|x| (x * 100.0).round() as i32);
    let retreat_losses = RETREAT_AFTER_LOSSES.opt_number(side)?;
    let pursue = PURSUE.bool(side)?;
    Ok(SideInput {
        side: Side {
            ships,
            n,
            embarked,
            ram,
            board,
            ram_conv,
            board_conv,
            morale_ram,
            morale_board,
            // FQ +1 needs the enemy's FTR too: added in `NavalBattle::new`.
            ram_die: -(barbarian as i32),
            lead_ram,
            lead_board,
            naval_leader: leader,
            greek,
            corvus,
            barbarian,
            quality,
            morale_class,
            order_boarding,
            matrix,
            retreat_below,
            retreat_losses,
            pursue,
            men,
        },
        naval_tactical: leader.unwrap_or(0),
    })
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(NavalBattle::from_fields(fields, &options)?))
}

impl NavalBattle {
    fn from_fields(fields: &Fields, options: &Options) -> Result<NavalBattle> {
        let weather = WEATHER.choice(fields)?;
        let winter = WINTER.bool(fields)?;
        let max_days = MAX_DAYS.int(fields)? as u32;
        let empty = Table::new();
        let x4 = weather_x4(weather, winter, options);
        let a = parse_side(&fields.table(SIDES[0], &empty)?, x4)?;
        let d = parse_side(&fields.table(SIDES[1], &empty)?, x4)?;
        let mut b = NavalBattle::new([a, d], weather, winter, max_days, options);
        b.ocean = OCEAN.bool(fields)?;
        Ok(b)
    }
}

/// The storm number of a month's weather (L5785-L5799, A33): clear 1, rain 2, storm or snow 5.
pub fn storm_number(weather: &str) -> u32 {
    match weather {
        "rain" => 2,
        "storm" | "snow" => 5,
        _ => 1,
    }
}

/// P(a fleet that moves loses ships to a storm) = storm number/10 x P(2D6 + modifiers >= 10), the
/// modifiers being +2 in winter, +2 on the Atlantic or Indian ocean, +1 for a fleet that began the
/// turn at sea (L2366-L2370, L5785-L5799). Ships lost are then 1D10 (mean 5.5).
pub fn storm_loss_chance(weather: &str, winter: bool, ocean: bool, at_sea: bool) -> f64 {
    let m = 2 * winter as i32 + 2 * ocean as i32 + at_sea as i32;
    let mut ways = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            ways += (a + b + m >= 10) as u32;
        }
    }
    storm_number(weather) as f64 / 10.0 * ways as f64 / 36.0
}

/// Factors ×4: storm or snow halve (L5685), a winter month halves (L4502); together x0.25 or x0.5 (A14).
fn weather_x4(weather: &str, winter: bool, options: &Options) -> u64 {
    let storm = matches!(weather, "storm" | "snow");
    match (storm, winter) {
        (false, false) => 4,
        (true, true) if options.choice("winter_and_storm") == "both" => 1,
        _ => 2,
    }
}

impl NavalBattle {
    fn new(
        inputs: [SideInput; 2],
        weather: &'static str,
        winter: bool,
        max_days: u32,
        options: &Options,
    ) -> NavalBattle {
        let d = data();
        let [a, b] = inputs;
        let mut sides = [a.side, b.side];
        // FQ +1 only against a fleet of at least 75% FTR (L2709).
        let ftr = |s: &Side| s.ships[FTR] as u64 * 4 >= s.n * 3;
        for s in 0..2 {
            let fq = sides[s].ships[FQ] as u64 * 4 >= sides[s].n * 3;
            if fq && ftr(&sides[1 - s]) {
                sides[s].ram_die += 1;
            }
        }
        // The kind of combat (L2451).
        let (oa, od) = (sides[0].order_boarding, sides[1].order_boarding);
        let (boarding_battle, combat_reason) = if oa == od {
            (oa, "both sides ordered it".to_string())
        } else if a.naval_tactical != b.naval_tactical {
            let s = if a.naval_tactical > b.naval_tactical {
                0
            } else {
                1
            };
            (
                sides[s].order_boarding,
                format!(
                    "the {}'s naval leader is the better tactician (L2451)",
                    SIDES[s]
                ),
            )
        } else {
            (
                false,
                "orders differ and the naval leaders tie: ram (L2451)".to_string(),
            )
        };
        let reading = options.choice("naval_matrix");
        let cell = d
            .naval_cell(sides[1].matrix, sides[0].matrix)
            .expect("naval cell in the data");
        let cell = (cell.kind == "combat").then(|| {
            let attacker: &Vec<String> = match (&cell.mirror_attacker_fires, reading) {
                (Some(m), "symmetric") => m,
                (Some(m), "digest") if cell.r#use.as_deref() == Some("mirror") => m,
                _ => &cell.attacker_fires,
            };
            let codes =
                |v: &Vec<String>| -> [Code; 3] { std::array::from_fn(|i| Code::parse(&v[i])) };
            [codes(attacker), codes(&cell.defender_fires)]
        });
        let regularized = options.choice("crt") == "corrected";
        let mut cas = [[[0u32; 6]; 8]; 6];
        let mut mor = [[[0i32; 6]; 8]; 6];
        for b in 1..=5usize {
            for r in 0..=7usize {
                for c in 1..=5usize {
                    let (pc, pm) = d
                        .crt(b as u32, r as u32, c, c, regularized)
                        .expect("CRT entry");
                    cas[b][r][c] = pc.round() as u32;
                    mor[b][r][c] = (pm * 100.0).round() as i32;
                }
            }
        }
        let lead_of = |own: usize, enemy: usize| d.leadership(own, enemy).expect("LEAD");
        let lead = [
            [
                lead_of(sides[0].lead_ram, sides[1].lead_ram),
                lead_of(sides[0].lead_board, sides[1].lead_board),
            ],
            [
                lead_of(sides[1].lead_ram, sides[0].lead_ram),
                lead_of(sides[1].lead_board, sides[0].lead_board),
            ],
        ];
        let mut schema = Schema::new(OUTCOMES);
        let ships = [0, 1].map(|i| sides[i].n as usize);
        let losses = [0, 1].map(|i| schema.count(side_column(SIDES[i], LOSSES), ships[i]));
        let captured = [0, 1].map(|i| schema.count(side_column(SIDES[i], "captured"), ships[i]));
        let (boarding, undecided) = (schema.scalar("boarding"), schema.scalar("undecided"));
        let days = schema.scalar_bounded("days", max_days as f64);
        let mut per_side = |group: &str, bound: [f64; 2]| {
            [0, 1].map(|i| schema.scalar_bounded(format!("{group}/{}", SIDES[i]), bound[i]))
        };
        let ships_bound = ships.map(|n| n as f64);
        let columns = Columns {
            losses,
            captured,
            boarding,
            undecided,
            days,
            retreat_tried: per_side("retreat_attempted", [1.0; 2]),
            retreat_ok: per_side("retreat_succeeded", [1.0; 2]),
            morale: per_side("morale_left", [10.0; 2]),
            men: per_side("men_lost", [0, 1].map(|i| sides[i].men.max(1) as f64)),
            pursuit: per_side("pursuit_losses", ships_bound),
            damaged: per_side("ships_damaged", ships_bound),
            sunk: per_side("ships_sunk", ships_bound),
            segments: schema.scalar_bounded("segments", 3.0 * max_days as f64),
        };
        NavalBattle {
            ocean: false,
            sides,
            cell,
            boarding_battle,
            combat_reason,
            cas,
            mor,
            block_first_digit: options.choice("crt_block") == "first-digit",
            separate_morale_die: options.choice("morale_die") == "separate",
            floor_factors: options.flag("floor_factor_casualties"),
            persists: options.flag("boarding_persists"),
            retreat_target: options.int("naval_retreat_target") as i32,
            rain: if weather == "rain" { -1 } else { 0 },
            weather,
            winter,
            weather_x4: weather_x4(weather, winter, options),
            max_segments: (3 * max_days) as u16,
            max_days,
            lead,
            schema,
            columns,
        }
    }

    fn start(&self) -> State {
        State {
            rem: [(self.sides[0].n * H) as u32, (self.sides[1].n * H) as u32],
            cap: [0; 2],
            lost: [0; 2],
            seg: 0,
            grappled: false,
            boarded: false,
            last_board: self.boarding_battle,
            retreat: 0,
            forced: 0,
        }
    }

    fn morale(&self, st: &State, s: usize, board: bool) -> i32 {
        let side = &self.sides[s];
        (if board {
            side.morale_board
        } else {
            side.morale_ram
        }) - st.lost[s]
    }

    /// What the next segment is (L2663-L2667, A28).
    fn plan(&self, st: &State) -> Plan {
        if st.forced > 0 {
            let s = retreater(st);
            let mut codes = [FAILED_RETREAT[3 - st.forced as usize]; 2];
            codes[s] = RETREATER_CODE;
            return Plan::Fire(codes, false);
        }
        if self.boarding_battle || st.grappled {
            return Plan::Board;
        }
        let cell = self.cell.expect("a battle with combat");
        let i = (st.seg % 3) as usize;
        let codes = [cell[0][i], cell[1][i]];
        if codes[0].board || codes[1].board {
            Plan::Board
        } else {
            Plan::Fire(codes, codes[0].star || codes[1].star)
        }
    }

    /// Enemy ships put out of action by `pct`% of side `s`'s factors of one kind.
    fn convert(&self, s: usize, rem: u32, pct: u32, board: bool) -> u32 {
        let (own, enemy) = (&self.sides[s], &self.sides[1 - s]);
        let (t_own, t_enemy, den) = if board {
            (own.board, enemy.board_conv, BOARD_DEN)
        } else {
            (own.ram, enemy.ram_conv, RAM_DEN)
        };
        if pct == 0 || t_own == 0 || rem == 0 {
            return 0;
        }
        let (pct, rem, t_own, t_enemy) = (pct as u128, rem as u128, t_own as u128, t_enemy as u128);
        let (n_own, n_enemy, den, h) = (own.n as u128, enemy.n as u128, den as u128, H as u128);
        let loss = if self.floor_factors {
            // Whole factors of casualties first (A22, literal), then ships.
            let factors = pct * rem * t_own / (100 * h * n_own * den);
            factors * h * n_enemy * den / t_enemy
        } else {
            pct * rem * t_own * n_enemy / (100 * n_own * t_enemy)
        };
        loss.min(u32::MAX as u128) as u32
    }

    /// Enemy ships sunk by Greek fire: `pct`% of the side's ram factors in ships.
    fn greek(&self, s: usize, rem: u32, pct: u32) -> u32 {
        let own = &self.sides[s];
        let x =
            pct as u128 * rem as u128 * own.ram as u128 / (100 * own.n as u128 * RAM_DEN as u128);
        let x = if self.floor_factors {
            x / H as u128 * H as u128
        } else {
            x
        };
        x.min(u32::MAX as u128) as u32
    }

    /// Side `s` fires with casualty die `d`, morale die `dm` and Greek fire die `g` (0 = none).
    // The three dice are spelled out: the exact chain enumerates them, a trial samples them.
    #[allow(clippy::too_many_arguments)]
    fn fire(&self, st: &State, s: usize, board: bool, code: Code, d: i32, dm: i32, g: i32) -> Shot {
        let side = &self.sides[s];
        let (block, cas_col, mor_col) = if self.block_first_digit {
            (code.cas as i32, code.mor, code.mor)
        } else {
            (
                self.morale(st, s, board).div_euclid(100),
                code.cas,
                code.mor,
            )
        };
        let block = block.clamp(1, 5) as usize;
        let (cas_col, mor_col) = (cas_col.clamp(1, 5) as usize, mor_col.clamp(1, 5) as usize);
        let common = self.rain + if board { 0 } else { side.ram_die };
        let lead = self.lead[s][board as usize];
        let row_cas = (d + common + lead).clamp(0, 7) as usize;
        let row_mor = (dm + common).clamp(0, 7) as usize;
        let mut loss = self.convert(s, st.rem[s], self.cas[block][row_cas][cas_col], board);
        if g > 0 {
            loss += self.greek(s, st.rem[s], data().archery(g));
        }
        Shot {
            loss,
            mor: self.mor[block][row_mor][mor_col],
        }
    }

    /// Both sides' fire applied at once (from the start-of-segment values), then the day's -0.25.
    fn apply(&self, st: &State, board: bool, shots: [Shot; 2]) -> State {
        let mut n = *st;
        for s in 0..2 {
            let e = 1 - s;
            let loss = shots[s].loss.min(n.rem[e]);
            n.rem[e] -= loss;
            if board {
                n.cap[e] += loss;
            }
            n.lost[e] += shots[s].mor;
        }
        n.seg += 1;
        if board {
            n.boarded = true;
            n.grappled = self.persists;
        }
        n.last_board = board;
        n.forced = n.forced.saturating_sub(1);
        if n.seg.is_multiple_of(3) {
            n.lost[0] += 25;
            n.lost[1] += 25;
        }
        n
    }

    /// End of battle (§3.2.10), the end of a failed retreat, the day limit and retreat decisions.
    fn after(&self, st: &mut State) -> After {
        match (st.rem[0] == 0, st.rem[1] == 0) {
            (true, true) => return After::Done(Fin::NONE),
            (true, false) => return After::Done(Fin::win(1, false)),
            (false, true) => return After::Done(Fin::win(0, false)),
            _ => {}
        }
        let broken = [0, 1].map(|s| self.morale(st, s, st.last_board) <= 0);
        match broken {
            [true, true] => return After::Done(Fin::NONE),
            [true, false] => return After::Done(Fin::win(1, self.sides[1].pursue)),
            [false, true] => return After::Done(Fin::win(0, self.sides[0].pursue)),
            _ => {}
        }
        if st.forced == 0 && st.retreat & 0x30 != 0 {
            let s = retreater(st);
            return After::Done(Fin::win(1 - s, self.sides[1 - s].pursue));
        }
        if st.seg >= self.max_segments {
            return After::Done(Fin {
                undecided: true,
                ..Fin::NONE
            });
        }
        if st.forced > 0 || st.grappled || self.boarding_battle {
            return After::Go;
        }
        let wants = [0, 1].map(|s| {
            let side = &self.sides[s];
            if st.retreat & (1 << s) != 0 {
                return false;
            }
            let low = side
                .retreat_below
                .is_some_and(|m| self.morale(st, s, false) < m);
            let lost = side.retreat_losses.is_some_and(|pct| {
                let lost = side.n * H - st.rem[s] as u64;
                lost as f64 * 100.0 >= pct * (side.n * H) as f64 - 1e-9
            });
            low || lost
        });
        match wants {
            [true, true] => {
                st.retreat |= 0b1111;
                After::Done(Fin::NONE)
            }
            [true, false] => After::Retreat(0),
            [false, true] => After::Retreat(1),
            _ => After::Go,
        }
    }

    /// The retreat attempt of side `s` (A31): 1D6 >= target, +1 with the better naval leader.
    fn retreat_bonus(&self, s: usize) -> i32 {
        let own = self.sides[s].naval_leader.map_or(-1, |t| t as i32);
        let enemy = self.sides[1 - s].naval_leader.map_or(-1, |t| t as i32);
        (own > enemy) as i32
    }

    fn retreat(&self, st: &mut State, s: usize, die: i32) -> Option<Fin> {
        st.retreat |= 1 << s;
        if die + self.retreat_bonus(s) >= self.retreat_target {
            st.retreat |= 4 << s;
            Some(Fin::win(1 - s, false))
        } else {
            st.retreat |= 16 << s;
            st.forced = 3;
            None
        }
    }

    /// The loser's ships lost in pursuit, for the row and column dice (§3.1.12).
    fn pursuit_loss(&self, e: &Ending, row_die: i32, col_die: i32) -> u32 {
        let w = e.fin.winner as usize;
        let bonus = self.sides[w].naval_leader.is_some() as i32;
        let row = (row_die + bonus + self.rain).clamp(1, 7) as usize;
        let pct = data()
            .pursuit(row, col_die as usize)
            .expect("pursuit entry");
        self.convert(w, e.rem[w], pct, false).min(e.rem[1 - w])
    }

    fn pursues(&self, e: &Ending) -> bool {
        e.fin.pursue && e.fin.winner < 2 && {
            let w = e.fin.winner as usize;
            self.sides[w].ram > 0 && e.rem[w] > 0 && e.rem[1 - w] > 0
        }
    }

    /// Everything reported about a finished battle.
    fn record(&self, st: &State, fin: Fin, pursued: u32, out: &mut Trial) {
        self.record_path(st, fin, out);
        self.record_losses(&Ending::of(st, fin), pursued, out);
    }

    /// What depends on how the battle went, not on the ships left (added as it finishes).
    fn record_path(&self, st: &State, fin: Fin, out: &mut Trial) {
        let c = &self.columns;
        let sc = &mut out.scalars;
        sc[c.boarding] = st.boarded as u32 as f64;
        sc[c.undecided] = fin.undecided as u32 as f64;
        sc[c.segments] = st.seg as f64;
        sc[c.days] = st.seg.div_ceil(3) as f64;
        for s in 0..2 {
            sc[c.retreat_tried[s]] = (st.retreat >> s & 1) as f64;
            sc[c.retreat_ok[s]] = (st.retreat >> (2 + s) & 1) as f64;
            sc[c.morale[s]] = self.morale(st, s, st.last_board) as f64 / 100.0;
        }
    }

    /// The outcome and what depends on the ships left, after `pursued` ships lost in pursuit.
    fn record_losses(&self, e: &Ending, pursued: u32, out: &mut Trial) {
        let c = &self.columns;
        let fin = e.fin;
        out.outcome = fin.winner as usize;
        let mut rem = e.rem;
        if fin.winner < 2 {
            rem[1 - fin.winner as usize] -= pursued;
        }
        let sc = &mut out.scalars;
        for s in 0..2 {
            let side = &self.sides[s];
            let total = side.n * H;
            let lost_h = total - rem[s] as u64;
            let lost = if rem[s] == 0 { side.n } else { lost_h / H } as u32;
            let captured = (e.cap[s] as u64 / H) as u32;
            out.counts[c.losses[s]] = lost;
            out.counts[c.captured[s]] = captured;
            sc[c.men[s]] = (side.men * lost_h / total) as f64;
            let before = if e.rem[s] == 0 {
                side.n
            } else {
                (total - e.rem[s] as u64) / H
            } as u32;
            sc[c.pursuit[s]] = (lost - before) as f64;
            let rammed = (lost - captured.min(lost)) as f64;
            // A29: the losses of a fleet that survives are damaged (repairable); a destroyed fleet's
            // ships are lost.
            if rem[s] > 0 {
                sc[c.damaged[s]] = rammed;
                sc[c.sunk[s]] = 0.0;
            } else {
                sc[c.damaged[s]] = 0.0;
                sc[c.sunk[s]] = rammed;
            }
        }
    }

    /// Side `s`'s possible shots with their probabilities, for the exact chain, into `out`.
    fn shots(&self, st: &State, s: usize, board: bool, code: Code, out: &mut Vec<(Shot, f64)>) {
        out.clear();
        let morale_dice: &[i32] = if self.separate_morale_die {
            &[1, 2, 3, 4, 5, 6]
        } else {
            &[0]
        };
        let greek_dice: &[i32] = if self.sides[s].greek && !board {
            &[1, 2, 3, 4, 5, 6]
        } else {
            &[0]
        };
        let w = 1.0 / (6 * morale_dice.len() * greek_dice.len()) as f64;
        for d in 1..=6 {
            for &dm in morale_dice {
                for &g in greek_dice {
                    let shot = self.fire(st, s, board, code, d, if dm == 0 { d } else { dm }, g);
                    match out.iter_mut().find(|(x, _)| *x == shot) {
                        Some((_, p)) => *p += w,
                        None => out.push((shot, w)),
                    }
                }
            }
        }
    }

    /// Adds a finished battle to the exact answer: its path now, its ending (merged) for later.
    fn finish(
        &self,
        st: &State,
        fin: Fin,
        p: f64,
        t: &mut Trial,
        ex: &mut Exact,
        endings: &mut FastMap<Ending, f64>,
    ) {
        let ns = self.schema.scalars.len();
        t.clear(0, ns);
        self.record_path(st, fin, t);
        for k in 0..ns {
            ex.scalars[k] += p * t.scalars[k];
        }
        *endings.entry(Ending::of(st, fin)).or_insert(0.0) += p;
    }

    /// Adds the endings, with their pursuit dice, to the exact answer.
    fn settle_endings(&self, endings: FastMap<Ending, f64>, ex: &mut Exact) {
        let (nc, ns) = (self.schema.counts.len(), self.schema.scalars.len());
        let c = &self.columns;
        let mut endings: Vec<(Ending, f64)> = endings.into_iter().collect();
        endings.sort_by_key(|(e, _)| (e.rem, e.cap, e.fin.winner, e.fin.pursue, e.fin.undecided));
        let mut t = Trial::default();
        for (e, p) in endings {
            let mut add = |loss: u32, w: f64| {
                t.clear(nc, ns);
                self.record_losses(&e, loss, &mut t);
                ex.outcomes[t.outcome] += w;
                for k in 0..nc {
                    ex.counts[k].add_mass(t.counts[k] as usize, w);
                }
                // The scalars that depend on the ships left (the path's were added as it ended).
                for k in [c.men, c.pursuit, c.damaged, c.sunk].into_iter().flatten() {
                    ex.scalars[k] += w * t.scalars[k];
                }
            };
            if self.pursues(&e) {
                for row in 1..=6 {
                    for col in 1..=6 {
                        add(self.pursuit_loss(&e, row, col), p / 36.0);
                    }
                }
            } else {
                add(0, p);
            }
        }
    }

    /// The exact answer: the chain of merged states, segment by segment; finished battles are added to
    /// the answer as they finish.
    fn solve(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let mut t = Trial::default();
        let start = self.start();
        let mut endings: FastMap<Ending, f64> = FastMap::default();
        if self.cell.is_none() && !self.boarding_battle {
            self.finish(&start, Fin::NONE, 1.0, &mut t, &mut ex, &mut endings);
            self.settle_endings(endings, &mut ex);
            return Ok(ex);
        }
        let (mut a, mut b) = (Vec::with_capacity(216), Vec::with_capacity(216));
        let mut running: FastMap<State, f64> = FastMap::default();
        running.insert(start, 1.0);
        let mut next: FastMap<State, f64> = FastMap::default();
        let mut work = 0u64;
        while !running.is_empty() {
            for (&st, &p) in &running {
                let branches: [(bool, [Code; 2], f64); 2] = match self.plan(&st) {
                    Plan::Board => [(true, [BOARD_CODE; 2], 1.0), (false, [BOARD_CODE; 2], 0.0)],
                    Plan::Fire(codes, false) => [(false, codes, 1.0), (true, codes, 0.0)],
                    // "*": boarding on 1D6 <= 3 (L2667).
                    Plan::Fire(codes, true) => [(true, [BOARD_CODE; 2], 0.5), (false, codes, 0.5)],
                };
                for (board, codes, q) in branches {
                    if q == 0.0 {
                        continue;
                    }
                    self.shots(&st, 0, board, codes[0], &mut a);
                    self.shots(&st, 1, board, codes[1], &mut b);
                    work += (a.len() * b.len()) as u64;
                    for &(sa, pa) in &a {
                        for &(sb, pb) in &b {
                            let mut n = self.apply(&st, board, [sa, sb]);
                            let w = p * q * pa * pb;
                            match self.after(&mut n) {
                                After::Done(fin) => {
                                    self.finish(&n, fin, w, &mut t, &mut ex, &mut endings)
                                }
                                After::Go => *next.entry(n).or_insert(0.0) += w,
                                After::Retreat(s) => {
                                    for die in 1..=6 {
                                        let mut m = n;
                                        match self.retreat(&mut m, s, die) {
                                            Some(fin) => self.finish(
                                                &m,
                                                fin,
                                                w / 6.0,
                                                &mut t,
                                                &mut ex,
                                                &mut endings,
                                            ),
                                            None => *next.entry(m).or_insert(0.0) += w / 6.0,
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if next.len() > STATE_BUDGET || work > WORK_BUDGET {
                return Err(Intractable(format!(
                    "the exact chain outgrew its budget ({} battle states after segment {}, {work} transitions; at most {STATE_BUDGET} and {WORK_BUDGET})",
                    next.len(),
                    next.keys().next().map_or(0, |s| s.seg)
                )));
            }
            std::mem::swap(&mut running, &mut next);
            next.clear();
        }
        self.settle_endings(endings, &mut ex);
        Ok(ex)
    }

    fn side_line(&self, s: usize) -> String {
        let side = &self.sides[s];
        let fleets: Vec<String> = (0..7)
            .filter(|&t| side.ships[t] > 0)
            .map(|t| {
                let x = side.ships[t];
                if x.is_multiple_of(10) {
                    format!("{} {}", x / 10, FLEET_TYPES[t])
                } else {
                    format!("{}.{} {}", x / 10, x % 10, FLEET_TYPES[t])
                }
            })
            .collect();
        let mut extras = Vec::new();
        if !side.embarked.is_empty() {
            let e: Vec<String> = side
                .embarked
                .iter()
                .map(|(c, x)| format!("{x} {c}"))
                .collect();
            extras.push(format!("embarked {}", e.join(" + ")));
        }
        for (on, what) in [
            (side.barbarian, "barbarian (-1 ram die)"),
            (side.corvus, "corvus"),
            (side.greek, "Greek fire"),
        ] {
            if on {
                extras.push(what.to_string());
            }
        }
        format!(
            "{}: {} ({} ships), {} {} crews; ram {} factors, boarding {} factors; morale {:.2} (ram) / {:.2} (boarding); leader tactical {} (boarding {}); orders {}, matrix {}{}{}",
            SIDES[s],
            fleets.join(" + "),
            side.n,
            side.quality,
            side.morale_class,
            side.ram as f64 / RAM_DEN as f64,
            side.board as f64 / BOARD_DEN as f64,
            side.morale_ram as f64 / 100.0,
            side.morale_board as f64 / 100.0,
            side.naval_leader.map_or("none".to_string(), |t| t.to_string()),
            side.lead_board,
            if side.order_boarding { "boarding" } else { "ram" },
            side.matrix,
            if extras.is_empty() { "" } else { "; " },
            extras.join(", ")
        )
    }
}

fn retreater(st: &State) -> usize {
    if st.retreat & 0x10 != 0 {
        0
    } else {
        1
    }
}

impl Simulate for NavalBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let mut st = self.start();
        let fin = if self.cell.is_none() && !self.boarding_battle {
            Fin::NONE
        } else {
            loop {
                let (board, codes) = match self.plan(&st) {
                    Plan::Board => (true, [BOARD_CODE; 2]),
                    Plan::Fire(codes, false) => (false, codes),
                    Plan::Fire(codes, true) => {
                        if dice.d(6) <= 3 {
                            (true, [BOARD_CODE; 2])
                        } else {
                            (false, codes)
                        }
                    }
                };
                let mut shots = [Shot { loss: 0, mor: 0 }; 2];
                for s in 0..2 {
                    let d = dice.d(6) as i32;
                    let dm = if self.separate_morale_die {
                        dice.d(6) as i32
                    } else {
                        d
                    };
                    let g = if self.sides[s].greek && !board {
                        dice.d(6) as i32
                    } else {
                        0
                    };
                    shots[s] = self.fire(&st, s, board, codes[s], d, dm, g);
                }
                st = self.apply(&st, board, shots);
                match self.after(&mut st) {
                    After::Done(fin) => break fin,
                    After::Go => {}
                    After::Retreat(s) => {
                        let die = dice.d(6) as i32;
                        if let Some(fin) = self.retreat(&mut st, s, die) {
                            break fin;
                        }
                    }
                }
            }
        };
        let ending = Ending::of(&st, fin);
        let pursued = if self.pursues(&ending) {
            let row = dice.d(6) as i32;
            let col = dice.d(6) as i32;
            self.pursuit_loss(&ending, row, col)
        } else {
            0
        };
        self.record(&st, fin, pursued, out);
    }
}

impl BattleModel for NavalBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        self.solve()
    }

    fn describe(&self) -> Vec<String> {
        vec![self.side_line(0), self.side_line(1)]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.boarding_battle {
            notes.push(format!(
                "boarding from the first segment, both sides on 3-3 ({})",
                self.combat_reason
            ));
        } else {
            let (a, d) = (self.sides[0].matrix, self.sides[1].matrix);
            match &self.cell {
                None => notes.push(format!(
                    "ram combat, matrices {a} (attacker) against {d} (defender): no combat (L2485-L2657)"
                )),
                Some(c) => {
                    let show = |v: &[Code; 3]| v.map(|x| x.show()).join("-");
                    notes.push(format!(
                        "ram combat ({}); cell defender {d} / attacker {a}: attacker fires {}, defender fires {} (\"*\" = boarding on 1D6 <= 3, \"A\" = boarding)",
                        self.combat_reason,
                        show(&c[0]),
                        show(&c[1])
                    ));
                }
            }
        }
        let mut conditions = vec![format!("weather {}", self.weather)];
        if self.winter {
            conditions.push("winter".into());
        }
        notes.push(format!(
            "{}: factors x{}{}; one 1D6 a side and segment; morale -0.25 a day; at most {} days",
            conditions.join(", "),
            self.weather_x4 as f64 / 4.0,
            if self.rain < 0 {
                ", -1 to every combat and pursuit roll"
            } else {
                ""
            },
            self.max_days
        ));
        let storm = storm_loss_chance(self.weather, self.winter, self.ocean, true);
        notes.push(format!(
            "sailing on after the battle (a fleet at sea{}): storm loss P = {:.4} per fleet, {:.2} ships expected (D14)",
            if self.ocean { ", on the ocean" } else { "" },
            storm,
            storm * 5.5
        ));
        notes.push(format!(
            "leadership modifiers on the casualty roll: attacker {:+} / defender {:+} in ram, {:+} / {:+} in boarding",
            self.lead[0][0], self.lead[1][0], self.lead[0][1], self.lead[1][1]
        ));
        if self
            .sides
            .iter()
            .any(|s| s.retreat_below.is_some() || s.retreat_losses.is_some())
        {
            notes.push(format!(
                "retreat attempt (A31): 1D6 >= {} (+1 with the better naval leader); on a failure the retreater fights 11 against 43-33-23 for three segments, then withdraws and is pursued",
                self.retreat_target
            ));
        }
        notes.push("pursuit after a rout or a forced withdrawal: the winner's current ram factors on the pursuit table (+1 on the row die with a naval leader); a successful retreat is not pursued".into());
        notes.push("losses spread over the ship types in proportion (one mass per side), counted in whole ships (floored each segment, L22); boarding casualties are ships captured; ram losses of a fleet that survives are damaged (repairable, A29)".into());
        notes
    }
}

#[cfg(test)]
#[path = "naval_tests.rs"]
mod tests;

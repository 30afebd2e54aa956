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

mod input;
mod play;
mod report;
mod segment;
#[cfg(test)]
mod tests;

pub use input::{build, KEYS};

pub const SUMMARY: &str = "naval combat: ram combat on the naval matrices or boarding, Greek fire, corvus, retreat attempt and pursuit, segment by segment until a fleet is destroyed, routs or withdraws (rules §12)";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;
const FLEET_TYPES: [&str; 7] = ["FG", "FB", "FT", "FQ", "FTR", "FC", "FP"];
const FQ: usize = 3;
const FTR: usize = 4;
const MATRICES: [&str; 6] = ["PE", "DI", "KY", "ES", "DL", "RP"];
use super::army::MORALE_CLASSES as MORALE;
use super::SIDES;
const QUALITY: [&str; 2] = ["regular", "irregular"];

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

//! Forced marches (rules §43, L5401-L5563; digest §4.12, A49 in §4.20) on the region graph: a
//! field army marching by land that would end the month short of the next node asks its policy's
//! extra PM (at most +2 with any infantry, +4 with only cavalry, camelry, chariots and elephants;
//! on the last leg no more than it lacks to reach its target) and rolls once on the table; what it
//! gains is added to the month's progress. An "F" result fatigues it for that month: every battle
//! it fights in the month carries the number beside the F as the battle code's `fatigue` (no
//! formation, factors x0.75, morale -0.1 each, -1 on its combat rolls; `battles::army`). The
//! source's "turn" is read as the month the march is made in (the graph moves month by month);
//! the previous month's forced march and fatigue are the table's "previous turn" modifiers. An
//! army with an unfed share this month (`unsupplied > 0`) cannot force march (L5540), nor can
//! ships (L2056: crossings by sea never step). The militia never leaves home here, so its -1
//! never applies on the graph (coded and tested). The policy's `forced_march` is the largest
//! ask (0: never) and `forced_march_battle` (0.5 or more) lets it force the leg that reaches a
//! target where a field army waits (the fatigue then weighs on that battle).

use super::mercenaries;
use super::military;
use super::policy::Scripted;
use super::scenario::CountryId;
use super::state::{Counts, Nation, State, KINDS};
use super::Game;
use crate::dice::Dice;
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// PM gained and the fatigue number of one table entry ("2F": 2 PM, fatigue 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub gained: u32,
    pub fatigue: u32,
}

const fn pm(n: u32) -> Outcome {
    Outcome {
        gained: n,
        fatigue: 0,
    }
}

const fn tired(n: u32) -> Outcome {
    Outcome {
        gained: n,
        fatigue: n,
    }
}

/// The §43 table (L5405-L5530): row = the modified roll 0-10, column = PM asked 1-4.
pub const TABLE: [[Outcome; 4]; 11] = [
    [pm(0), pm(0), pm(0), pm(0)],
    [pm(0), pm(0), tired(1), tired(1)],
    [pm(0), tired(1), pm(1), pm(1)],
    [tired(1), tired(2), pm(1), tired(2)],
    [tired(1), pm(1), tired(2), pm(2)],
    [tired(1), pm(1), pm(2), tired(3)],
    [pm(1), tired(2), pm(2), pm(3)],
    [pm(1), tired(2), tired(3), tired(4)],
    [pm(1), pm(2), tired(3), pm(4)],
    [pm(1), pm(2), pm(3), pm(4)],
    [pm(1), pm(2), pm(3), pm(4)],
];

/// Largest ask with any infantry, and with only mounted kinds (L5560-L5563).
pub const INFANTRY_MAX: u32 = 2;
pub const MOUNTED_MAX: u32 = 4;

/// A49's readings (options `forced_march_die` and `forced_march_a_bonus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The die reads 0-9 ("zero-to-nine"), not 1-10.
    pub die_from_zero: bool,
    /// An all-morale-A army also takes the A-B +1 (+3 in all), not +2 alone.
    pub a_bonus_stacks: bool,
}

impl Rules {
    pub fn new(options: &Options) -> Rules {
        Rules {
            die_from_zero: options.choice("forced_march_die") == "zero-to-nine",
            a_bonus_stacks: options.choice("forced_march_a_bonus") == "three",
        }
    }
}

/// This month's and the previous month's forced march of a nation's field army.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strain {
    pub forced: bool,
    /// The number beside the F this month (0: not fatigued); what its battles carry.
    pub fatigue: u32,
    pub forced_before: bool,
    pub fatigued_before: bool,
}

/// The table's modifiers (L5542-L5552).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conditions {
    pub militia: bool,
    pub morale_a_b_only: bool,
    pub morale_a_only: bool,
    pub forced_before: bool,
    pub fatigued_before: bool,
    pub italian_iml_only: bool,
    pub roman_iml_only: bool,
    pub winter: bool,
}

/// The sum of the modifiers: A-only +2 instead of A-B's +1 (A49), or +3 if they stack.
pub fn modifier(c: &Conditions, rules: Rules) -> i32 {
    let morale = if c.morale_a_only {
        2 + (rules.a_bonus_stacks as i32)
    } else {
        c.morale_a_b_only as i32
    };
    let iml = if c.roman_iml_only {
        2
    } else {
        c.italian_iml_only as i32
    };
    morale + iml
        - c.militia as i32
        - c.forced_before as i32
        - c.fatigued_before as i32
        - c.winter as i32
}

/// The table's entry for `ask` PM (1-4) at die `roll` plus `modifier`, clamped to 0-10.
pub fn outcome(ask: u32, roll: i32, modifier: i32) -> Outcome {
    let row = (roll + modifier).clamp(0, 10) as usize;
    TABLE[row][ask.clamp(1, 4) as usize - 1]
}

/// The roll: 1D10 as 1-10, or 0-9 with option forced_march_die = "zero-to-nine".
pub fn roll(rules: Rules, dice: &mut Dice) -> i32 {
    dice.d10() as i32 - rules.die_from_zero as i32
}

/// Each kind (own, then the marching bands) that marches with `c`'s field army: (code, class,
/// morale 0 = A).
fn marching<'a>(
    g: &'a Game,
    st: &'a State,
    c: CountryId,
) -> impl Iterator<Item = (&'static str, bool, usize)> + 'a {
    let nat = &st.nations[c as usize];
    let own = (0..KINDS)
        .filter(move |&k| nat.field[k] > 1e-9)
        .map(move |k| g.kinds[c as usize][k]);
    let bands = nat
        .mercs
        .iter()
        .filter(|b| b.units > 1e-9)
        .filter_map(move |b| mercenaries::kind(g, b.source));
    own.chain(bands).map(|k| {
        let infantry = data().units[k.unit as usize].class == "infantry";
        (k.code, infantry, k.morale)
    })
}

/// The modifiers of `c`'s field army this month.
pub fn conditions(g: &Game, st: &State, c: CountryId, winter: bool) -> Conditions {
    let strain = st.nations[c as usize].march;
    let flags = &g.scenario.nations;
    let iml_only = marching(g, st, c).all(|(code, _, _)| code == "IML");
    Conditions {
        // The militia never marches with the field army on the graph (`militia.rs`).
        militia: false,
        morale_a_b_only: marching(g, st, c).all(|(_, _, m)| m <= 1),
        morale_a_only: marching(g, st, c).all(|(_, _, m)| m == 0),
        forced_before: strain.forced_before,
        fatigued_before: strain.fatigued_before,
        italian_iml_only: iml_only && flags.italic.contains(c),
        roman_iml_only: iml_only && flags.roman.contains(c),
        winter,
    }
}

/// The most `c`'s field army may ask: +2 with any infantry, +4 mounted only.
pub fn army_limit(g: &Game, st: &State, c: CountryId) -> u32 {
    if marching(g, st, c).any(|(_, infantry, _)| infantry) {
        INFANTRY_MAX
    } else {
        MOUNTED_MAX
    }
}

/// What `c`'s field army may force this month on its land march to `to`, decided before it steps
/// (`military::step`), used at most once when a leg is short.
#[derive(Clone, Copy, Debug)]
pub struct Offer {
    ask: u32,
    modifier: i32,
    /// The leg reaching the target is not forced: a field army waits there and the policy will
    /// not fight it fatigued.
    spare_last_leg: bool,
    rules: Rules,
    used: bool,
}

impl Offer {
    pub fn new(
        g: &Game,
        st: &State,
        plans: &[Scripted],
        c: CountryId,
        to: CountryId,
        winter: bool,
    ) -> Offer {
        let p = &plans[c as usize];
        let nat = &st.nations[c as usize];
        let allowed = !nat.by_sea && nat.unsupplied <= 0.0 && to != c;
        let ask = if allowed {
            (p.forced_march.min(MOUNTED_MAX as u8) as u32).min(army_limit(g, st, c))
        } else {
            0
        };
        let waits = super::battles::has_troops(&military::defenders(st, to).1);
        Offer {
            ask,
            modifier: if ask > 0 {
                modifier(&conditions(g, st, c, winter), g.forced_march)
            } else {
                0
            },
            spare_last_leg: waits && p.forced_march_battle < 0.5,
            rules: g.forced_march,
            used: false,
        }
    }

    /// Called when the army lacks `short` PM for its next leg (`last`: the one reaching the
    /// target): forces the march once this month and adds what it gains to `nat.progress`.
    /// Returns whether it rolled (the caller then checks the leg again).
    pub fn force(
        &mut self,
        nat: &mut Nation,
        counts: &mut Counts,
        last: bool,
        short: u32,
        dice: &mut Dice,
    ) -> bool {
        if self.used || self.ask == 0 || (last && self.spare_last_leg) {
            return false;
        }
        self.used = true;
        let ask = if last { self.ask.min(short) } else { self.ask };
        let got = outcome(ask, roll(self.rules, dice), self.modifier);
        nat.progress += got.gained;
        nat.march.forced = true;
        nat.march.fatigue = got.fatigue;
        counts.forced_marches += 1;
        counts.forced_pm += got.gained as f64;
        counts.fatigued_marches += (got.fatigue > 0) as u32;
        true
    }
}

/// At the start of a month's movement: this month's strain becomes the previous month's.
pub fn new_month(st: &mut State) {
    for nat in &mut st.nations {
        let s = nat.march;
        nat.march = Strain {
            forced: false,
            fatigue: 0,
            forced_before: s.forced,
            fatigued_before: s.fatigue > 0,
        };
    }
}

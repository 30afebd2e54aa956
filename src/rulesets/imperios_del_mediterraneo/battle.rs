//! Field and naval battles, and pacification (a field battle against a barbarian area), digest
//! §3.4, §3.5, §3.8: one opposed roll, ties to the defender; when the attacker wins, the defender's
//! d6 against the cards it began with may cost the attacker one random card (a fleet with its
//! cargo); every discarded card comes back on a 6.
//!
//! The exact answer enumerates (winner, which card is lost) with their probabilities; the
//! simulation rolls the same steps; both finish through [`Battle::ending`].

use super::cards::Combat;
use super::forces::{
    parse_force, Force, ENRAGED, FORCE, LAND_SIDE_KEYS, SEA_FORCE, SEA_SIDE_KEYS, STRENGTH,
};
use super::rolloff::{roll_off, Total};
use super::{ATTACKER, DEFENDER, SIDES};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial, LOSSES};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

/// Who wins.
pub const OUTCOMES: &[&str] = &SIDES;

pub mod field {
    pub const SUMMARY: &str = "field battle: one roll-off of troop factors + base die + leader dice, ties to the defender; the defender's casualty roll, recovery on a 6";
    pub const OUTCOMES: &[&str] = super::OUTCOMES;
    pub const KEYS: &[crate::battle::keys::Key] = super::FIELD_KEYS;
    pub fn build(
        f: &crate::spec::Fields,
        o: crate::options::Options,
    ) -> crate::error::Result<Box<dyn crate::battle::BattleModel>> {
        super::build(f, o, super::Kind::Field)
    }
}

pub mod naval {
    pub const SUMMARY: &str = "naval battle: fleets and the troops they carry; a side without fleets loses; a lost fleet takes its cargo";
    pub const OUTCOMES: &[&str] = super::OUTCOMES;
    pub const KEYS: &[crate::battle::keys::Key] = super::NAVAL_KEYS;
    pub fn build(
        f: &crate::spec::Fields,
        o: crate::options::Options,
    ) -> crate::error::Result<Box<dyn crate::battle::BattleModel>> {
        super::build(f, o, super::Kind::Naval)
    }
}

pub mod pacify {
    pub const SUMMARY: &str = "pacification: a field battle against a barbarian area rolling strength + Enraged dice, no base die; the winning margin for the Pacification table";
    pub const OUTCOMES: &[&str] = super::OUTCOMES;
    pub const KEYS: &[crate::battle::keys::Key] = super::PACIFY_KEYS;
    pub fn build(
        f: &crate::spec::Fields,
        o: crate::options::Options,
    ) -> crate::error::Result<Box<dyn crate::battle::BattleModel>> {
        super::build(f, o, super::Kind::Pacify)
    }
}

const FIELD_KEYS: &[Key] = &keys::placed(LAND_SIDE_KEYS, &SIDES);
const NAVAL_KEYS: &[Key] = &keys::placed(SEA_SIDE_KEYS, &SIDES);
/// The area's force is implied, so `force` may only say "barbarian".
const BARBARIAN_FORCE: Key = keys::choice("force", &["barbarian"])
    .default_choice("barbarian")
    .help("implied: a pacification is fought against a barbarian area");
const PACIFY_KEYS: &[Key] = &keys::join::<13>(&[
    &keys::placed(LAND_SIDE_KEYS, ATTACKER),
    &[
        BARBARIAN_FORCE.at(DEFENDER),
        STRENGTH.at(DEFENDER),
        ENRAGED.at(DEFENDER),
    ],
]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Field,
    Naval,
    Pacify,
}

/// How a battle ends for the bookkeeping of cards and VP.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ending {
    pub attacker_won: bool,
    pub attacker_discarded: u32,
    /// Of those, the cards that roll for recovery.
    pub attacker_recoverable: u32,
    pub defender_discarded: u32,
    pub defender_recoverable: u32,
    /// The attacker's EM goes on (it won and still has troops, or cards at sea).
    pub continues: bool,
    pub casualty: bool,
}

/// Which of a pacifying attacker's cards roll for recovery once the battle is decided (§3.8),
/// said once for the pacify battle and for the game's pacifications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacifyRecovery {
    /// The winner's casualty card alone, if the casualty roll took one.
    Casualty,
    /// Every card (the winner's survivors under `pacify_survivors_get_recovery_roll`; the
    /// loser's, a lost field battle), Leaders included.
    Every,
    /// The loser's every card but its fleets, set aside (A-32 with `aside_fleets_recover` off).
    EveryButFleets,
}

pub fn pacify_recovery(
    attacker_won: bool,
    survivors_recover: bool,
    aside_fleets_recover: bool,
) -> PacifyRecovery {
    match (attacker_won, survivors_recover, aside_fleets_recover) {
        (true, true, _) | (false, _, true) => PacifyRecovery::Every,
        (true, false, _) => PacifyRecovery::Casualty,
        (false, _, false) => PacifyRecovery::EveryButFleets,
    }
}

/// The cards a barbarian area "began the resolution with" for the attacker's casualty roll
/// its dice, or none.
pub fn barbarian_casualty_count(dice: u32, options: &Options) -> u32 {
    if options.choice("barbarian_casualty_count") == "dice" {
        dice
    } else {
        0
    }
}

/// One of the attacker's cards that the casualty roll may take, with what goes with it.
#[derive(Clone, Copy, Debug)]
struct Loss {
    /// The attacker card (index among its fighting cards) chosen.
    card: usize,
    cards: u32,
    /// The last fleet went down: the leaders go with it.
    leaders_too: bool,
    /// No troop is left to go on.
    no_troops_left: bool,
}

pub struct Battle {
    kind: Kind,
    combat: Combat,
    pub a: Force,
    pub d: Force,
    ta: Total,
    td: Total,
    /// Decided before any roll: Some(attacker won).
    automatic: Option<bool>,
    /// Cards the defender began the resolution with (its casualty die must be at most this).
    defender_count: u32,
    losses: Vec<Loss>,
    aside_fleets_recover: bool,
    pacify_recovery: bool,
    em_ends_without_troops: bool,
    schema: Schema,
    columns: Columns,
    notes: Vec<String>,
}

/// Where the battle's quantities sit in its schema, fixed by `new` as it names them; pairs are
/// (attacker, defender).
struct Columns {
    losses: [usize; 2],
    margin: usize,
    recovered: [usize; 2],
    vp: [usize; 2],
    casualty: usize,
    continues: usize,
    /// One per card the attacker may lose, in the order of its loss labels.
    card_lost: Vec<usize>,
}

pub fn build(fields: &Fields, options: Options, kind: Kind) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(Battle::from_fields(fields, &options, kind)?))
}

impl Battle {
    pub fn from_fields(fields: &Fields, options: &Options, kind: Kind) -> Result<Battle> {
        let empty = Table::new();
        let naval = kind == Kind::Naval;
        let force = if naval { &SEA_FORCE } else { &FORCE };
        let a = parse_force(&fields.table(SIDES[0], &empty)?, naval, force)?;
        let d_fields = fields.table(SIDES[1], &empty)?;
        let d = if kind == Kind::Pacify {
            BARBARIAN_FORCE.choice(&d_fields)?;
            let strength = STRENGTH.int(&d_fields)? as u32;
            let enraged = ENRAGED.int(&d_fields)? as u32;
            Force::Barbarian {
                dice: strength + enraged,
            }
        } else {
            parse_force(&d_fields, naval, force)?
        };
        if naval {
            for (side, force) in SIDES.into_iter().zip([&a, &d]) {
                if matches!(force, Force::Barbarian { .. }) {
                    return Err(AleaError::input(
                        fields.source,
                        format!("{side}.force"),
                        "\"barbarian\"",
                        "\"cards\" or \"neutral\": barbarians have no naval capability (L995-L996)",
                    ));
                }
            }
        }
        if kind != Kind::Pacify && matches!(a, Force::Barbarian { .. }) && naval {
            unreachable!()
        }
        Ok(Battle::new(kind, a, d, options))
    }

    pub fn new(kind: Kind, a: Force, d: Force, options: &Options) -> Battle {
        let combat = if kind == Kind::Naval {
            Combat::Naval
        } else {
            Combat::Field
        };
        let ta = a.total(combat, true, false);
        let td = d.total(combat, true, false);
        let has_force = |f: &Force| match f {
            Force::Cards(cf) => match combat {
                Combat::Naval => !cf.fleets.is_empty(),
                _ => !f.fighting(combat, false).is_empty(),
            },
            Force::NonPlayer { fixed, dice } => *fixed > 0 || *dice > 0,
            Force::Barbarian { dice } => *dice > 0,
        };
        let mut notes = Vec::new();
        let automatic = match (has_force(&a), has_force(&d)) {
            (false, _) => {
                notes.push(format!(
                    "the attacker has no {}: the defender wins without a roll",
                    if combat == Combat::Naval {
                        "fleet"
                    } else {
                        "troops"
                    }
                ));
                Some(false)
            }
            (true, false) => {
                notes.push("the defender has nothing to fight with: the attacker wins without a roll or casualty roll".into());
                Some(true)
            }
            _ => None,
        };
        let defender_count = match &d {
            _ if automatic.is_some() => 0,
            Force::Cards(_) => d.fighting(combat, false).len() as u32,
            Force::NonPlayer { fixed, dice } => dice + (*fixed as u32).div_ceil(6),
            Force::Barbarian { dice } => barbarian_casualty_count(*dice, options),
        };
        let (losses, labels) = loss_branches(&a, combat);
        let mut schema = Schema::new(OUTCOMES);
        let most = |f: &Force| f.card_count().max(1);
        let columns = Columns {
            losses: [(SIDES[0], &a), (SIDES[1], &d)]
                .map(|(side, f)| schema.count(side_column(side, LOSSES), most(f))),
            margin: schema.count("margin", (ta.fixed + 6 * ta.dice as i32).max(1) as usize),
            recovered: [(SIDES[0], &a), (SIDES[1], &d)].map(|(side, f)| {
                schema.scalar_bounded(side_column(side, "cards_recovered"), most(f) as f64)
            }),
            vp: SIDES.map(|side| schema.scalar_bounded(side_column(side, "vp"), 2.0)),
            casualty: schema.scalar(side_column(SIDES[0], "casualty")),
            continues: schema.scalar("expedition_continues"),
            card_lost: labels
                .iter()
                .map(|l| schema.scalar(format!("card_lost/{l}")))
                .collect(),
        };
        if automatic.is_none() {
            notes.push(format!(
                "totals: attacker {} + {}d6, defender {} + {}d6 ({}); ties to the defender",
                ta.fixed,
                ta.dice,
                td.fixed,
                td.dice,
                match &d {
                    Force::Barbarian { .. } => "no base die for a barbarian area",
                    _ => "each with its base die",
                }
            ));
            notes.push(format!(
                "if the attacker wins, it loses one random {} on the defender's 1d6 <= {defender_count}{}",
                if combat == Combat::Naval {
                    "Fleet or Troop card (a fleet with its cargo)"
                } else {
                    "Troop card"
                },
                if matches!(d, Force::Barbarian { .. }) {
                    " (a barbarian area counts its dice, A-29)"
                } else {
                    ""
                }
            ));
        }
        if kind == Kind::Pacify {
            notes.push("pacification: the Pacification table and its margin modifier are not in the rulebook text (A-39); the answer gives the winning margin, and VP only for a defeat (-2)".into());
        }
        Battle {
            kind,
            combat,
            a,
            d,
            ta,
            td,
            automatic,
            defender_count,
            losses,
            aside_fleets_recover: options.flag("aside_fleets_recover"),
            pacify_recovery: options.flag("pacify_survivors_get_recovery_roll"),
            em_ends_without_troops: options.flag("em_ends_without_troops"),
            schema,
            columns,
            notes,
        }
    }

    /// P(the casualty roll takes a card | the attacker won).
    fn casualty_chance(&self) -> f64 {
        if self.losses.is_empty() {
            0.0
        } else {
            self.defender_count.min(6) as f64 / 6.0
        }
    }

    /// The bookkeeping once the winner and the attacker's loss (if any) are known.
    pub fn ending(&self, attacker_won: bool, loss: Option<usize>) -> Ending {
        let (a_cards, a_fleets, a_leaders) = match &self.a {
            Force::Cards(cf) => (
                cf.troops.len() as u32,
                cf.fleets.len() as u32,
                cf.leaders.len() as u32,
            ),
            _ => (0, 0, 0),
        };
        let a_all = a_cards + a_fleets + a_leaders;
        let d_all = self.d.card_count() as u32;
        let mut e = Ending {
            attacker_won,
            defender_discarded: d_all,
            defender_recoverable: d_all,
            casualty: loss.is_some(),
            ..Ending::default()
        };
        if !attacker_won {
            e.attacker_discarded = a_all;
            e.attacker_recoverable = a_all;
            if self.combat == Combat::Field && !self.aside_fleets_recover {
                e.attacker_recoverable -= a_fleets;
            }
            return e;
        }
        let lost = loss.map(|i| self.losses[i]);
        let lost_cards = lost.map_or(0, |l| l.cards + if l.leaders_too { a_leaders } else { 0 });
        let no_troops = lost.is_some_and(|l| l.no_troops_left);
        if self.kind == Kind::Pacify {
            // The attack ends: every card is discarded; only the battle's casualty rolls.
            e.attacker_discarded = a_all;
            e.attacker_recoverable =
                match pacify_recovery(true, self.pacify_recovery, self.aside_fleets_recover) {
                    PacifyRecovery::Casualty => lost_cards,
                    _ => a_all,
                };
            return e;
        }
        e.attacker_discarded = lost_cards;
        e.attacker_recoverable = lost_cards;
        e.continues =
            self.a.is_player() && lost_cards < a_all && !(self.em_ends_without_troops && no_troops);
        if !self.a.is_player() {
            e.continues = true;
        }
        e
    }

    fn vp(&self, e: &Ending) -> [f64; 2] {
        let sign = if e.attacker_won { 1.0 } else { -1.0 };
        match self.kind {
            Kind::Pacify => [if e.attacker_won { 0.0 } else { -2.0 }, 0.0],
            _ => [
                if self.a.is_player() { 2.0 * sign } else { 0.0 },
                if self.d.is_player() { -2.0 * sign } else { 0.0 },
            ],
        }
    }

    /// Every (winner, loss) with its probability, and the margin distribution of the wins.
    fn branches(&self) -> (Vec<(f64, bool, Option<usize>)>, crate::exact::Pmf) {
        let (pw, margin) = match self.automatic {
            Some(true) => (1.0, crate::exact::Pmf::zeros(1)),
            Some(false) => (0.0, crate::exact::Pmf::zeros(1)),
            None => {
                let r = roll_off(self.ta, self.td);
                (r.attacker_wins, r.margin)
            }
        };
        let c = self.casualty_chance();
        let mut out = vec![(1.0 - pw, false, None), (pw * (1.0 - c), true, None)];
        let n = self.losses.len() as f64;
        for i in 0..self.losses.len() {
            out.push((pw * c / n, true, Some(i)));
        }
        (out, margin)
    }
}

/// "troop 2 Hoplitas", or "troop 2" for an unnamed inline card.
fn label(role: &str, i: usize, name: &str) -> String {
    let plain = format!("{role} {}", i + 1);
    if name == plain {
        plain
    } else {
        format!("{plain} {name}")
    }
}

/// The attacker cards the casualty roll can take, one equally likely branch each.
fn loss_branches(a: &Force, combat: Combat) -> (Vec<Loss>, Vec<String>) {
    match a {
        Force::Cards(cf) => {
            let troops = cf.troops.len() as u32;
            let mut out = Vec::new();
            let mut labels = Vec::new();
            if combat == Combat::Naval {
                for (j, fl) in cf.fleets.iter().enumerate() {
                    let cargo = cf.aboard.iter().filter(|x| **x == Some(j)).count() as u32;
                    out.push(Loss {
                        card: out.len(),
                        cards: 1 + cargo,
                        leaders_too: cf.fleets.len() == 1,
                        no_troops_left: cargo == troops && troops > 0,
                    });
                    labels.push(label("fleet", j, &fl.name));
                }
                for (i, t) in cf.troops.iter().enumerate() {
                    out.push(Loss {
                        card: out.len(),
                        cards: 1,
                        leaders_too: false,
                        no_troops_left: troops == 1,
                    });
                    labels.push(label("troop", i, &t.name));
                }
            } else {
                let fighting: Vec<_> = cf.troops.iter().filter(|t| t.field.usable()).collect();
                for (i, t) in fighting.iter().enumerate() {
                    out.push(Loss {
                        card: i,
                        cards: 1,
                        leaders_too: false,
                        no_troops_left: troops == 1,
                    });
                    labels.push(label("troop", i, &t.name));
                }
            }
            (out, labels)
        }
        // A non-player force loses a die or 6 points: one "card" (L1160-L1169).
        Force::NonPlayer { .. } => (
            vec![Loss {
                card: 0,
                cards: 1,
                leaders_too: false,
                no_troops_left: false,
            }],
            vec!["a die or 6 points of the force".into()],
        ),
        Force::Barbarian { .. } => (
            vec![Loss {
                card: 0,
                cards: 1,
                leaders_too: false,
                no_troops_left: false,
            }],
            vec!["a die of the horde".into()],
        ),
    }
}

impl Simulate for Battle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        out.clear(self.schema.counts.len(), self.schema.scalars.len());
        let (won, margin) = match self.automatic {
            Some(w) => (w, 0),
            None => {
                let m = self.ta.roll(dice) - self.td.roll(dice);
                (m > 0, m.max(0))
            }
        };
        let mut loss = None;
        if won && !self.losses.is_empty() && dice.d(6) <= self.defender_count {
            loss = Some(dice.below(self.losses.len() as u64) as usize);
        }
        let e = self.ending(won, loss);
        out.outcome = if won { 0 } else { 1 };
        out.counts[c.losses[0]] = e.attacker_discarded;
        out.counts[c.losses[1]] = e.defender_discarded;
        out.counts[c.margin] = margin as u32;
        let recovered = |n: u32, dice: &mut Dice| (0..n).filter(|_| dice.d(6) == 6).count() as f64;
        out.scalars[c.recovered[0]] = recovered(e.attacker_recoverable, dice);
        out.scalars[c.recovered[1]] = recovered(e.defender_recoverable, dice);
        let vp = self.vp(&e);
        out.scalars[c.vp[0]] = vp[0];
        out.scalars[c.vp[1]] = vp[1];
        out.scalars[c.casualty] = e.casualty as u8 as f64;
        out.scalars[c.continues] = e.continues as u8 as f64;
        if let Some(i) = loss {
            out.scalars[c.card_lost[self.losses[i].card]] = 1.0;
        }
    }
}

impl BattleModel for Battle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let c = &self.columns;
        let mut ex = Exact::zeros(&self.schema);
        let (branches, margin) = self.branches();
        for (p, won, loss) in branches {
            if p <= 0.0 {
                continue;
            }
            let e = self.ending(won, loss);
            ex.outcomes[if won { 0 } else { 1 }] += p;
            ex.counts[c.losses[0]].add_mass(e.attacker_discarded as usize, p);
            ex.counts[c.losses[1]].add_mass(e.defender_discarded as usize, p);
            ex.scalars[c.recovered[0]] += p * e.attacker_recoverable as f64 / 6.0;
            ex.scalars[c.recovered[1]] += p * e.defender_recoverable as f64 / 6.0;
            let vp = self.vp(&e);
            ex.scalars[c.vp[0]] += p * vp[0];
            ex.scalars[c.vp[1]] += p * vp[1];
            ex.scalars[c.casualty] += p * e.casualty as u8 as f64;
            ex.scalars[c.continues] += p * e.continues as u8 as f64;
            if let Some(i) = loss {
                ex.scalars[c.card_lost[self.losses[i].card]] += p;
            }
        }
        // The margin: 0 when the attacker does not win by rolling.
        let pw: f64 = margin.0.iter().sum();
        let mut m = margin;
        let automatic_win = if self.automatic == Some(true) {
            1.0
        } else {
            0.0
        };
        m.add_mass(0, 1.0 - pw - automatic_win + automatic_win);
        ex.counts[c.margin] = m;
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!("{}: {}", SIDES[0], self.a.describe()),
            format!("{}: {}", SIDES[1], self.d.describe()),
        ]
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

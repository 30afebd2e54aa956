//! City assault (digest §3.6): the attacker's assault values + base die + leader and card dice
//! against the city's defence dice (size + fortification markers + 1 for a capital held by its own
//! empire) plus its helpers' dice, no base die; ties hold. Every card is discarded, no recovery.

use super::cards::Combat;
use super::forces::{parse_force, Force, EXTRA_DICE, FORCE, LAND_SIDE_KEYS, LEADERS, MODIFIER};
use super::rolloff::{roll_off, Total};
use super::{ATTACKER, DEFENDER, SIDES};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial, LOSSES};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str = "city assault: assault values + base die + leader/card dice against size + fortifications (+1 own capital) dice, no base die; ties hold; no recovery";
pub const OUTCOMES: &[&str] = &["taken", "held"];
const CITY: &[&str] = &["city"];

pub const SIZE: Key = keys::int("size", 1, 6).required().help("the city's size");
pub const MARKERS: Key = keys::int("markers", 0, 10)
    .default_int(0)
    .help("the city's fortification markers");
pub const CAPITAL: Key = keys::flag("capital").help("a capital held by its own empire (+1 die)");
pub const OWNER: Key = keys::choice("owner", &["player", "neutral"])
    .default_choice("player")
    .help("who holds the city");
const FLEETS_FIGHT: Key = keys::flag("fleets_fight").help(
    "the fleets join the assault (the city has a port and the expedition came by sea, L907-L909)",
);

pub const KEYS: &[Key] = &keys::join::<18>(&[
    &keys::placed(LAND_SIDE_KEYS, ATTACKER),
    &[
        FLEETS_FIGHT,
        SIZE.at(CITY),
        MARKERS.at(CITY),
        CAPITAL.at(CITY),
        OWNER.at(CITY),
        LEADERS
            .at(DEFENDER)
            .help("the city's helpers: Leader cards"),
        EXTRA_DICE
            .at(DEFENDER)
            .help("the city's helpers: City Defence / Special Event dice"),
        MODIFIER.at(DEFENDER),
    ],
]);

pub struct Assault {
    pub a: Force,
    pub ta: Total,
    pub td: Total,
    pub size: u32,
    pub city_dice: u32,
    pub player_owner: bool,
    pub possible: bool,
    schema: Schema,
    notes: Vec<String>,
}

/// The city's defence dice (L918-L924; digest T-21, T-22).
pub fn defence_dice(size: u32, markers: u32, own_capital: bool) -> u32 {
    size + markers + own_capital as u32
}

/// A city as a battle file describes it: its size and defence dice (size + markers + 1 for a
/// capital held by its own empire), whether a player owns it.
pub struct CityInput {
    pub size: u32,
    pub dice: u32,
    pub player_owner: bool,
}

/// Reads `size`, `markers`, `capital` and `owner` from the city's table (the caller checks which
/// keys the table may hold).
pub fn parse_city(t: &Fields) -> Result<CityInput> {
    let size = SIZE.opt_int(t)?.ok_or_else(|| SIZE.missing(t))? as u32;
    let markers = MARKERS.int(t)? as u32;
    let capital = CAPITAL.bool(t)?;
    Ok(CityInput {
        size,
        dice: defence_dice(size, markers, capital),
        player_owner: OWNER.choice(t)? != "neutral",
    })
}

/// The dice a side's helpers add (`leaders` and `extra_dice`) and its flat `modifier`.
pub fn parse_helpers(t: &Fields) -> Result<(u32, i32)> {
    let dice = super::cards::parse_leaders(t, &LEADERS)?
        .iter()
        .sum::<u32>()
        + EXTRA_DICE.int(t)? as u32;
    Ok((dice, MODIFIER.int(t)? as i32))
}

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let a = parse_force(&fields.table(SIDES[0], &empty)?, false, &FORCE)?;
    let city = parse_city(&fields.table("city", &empty)?)?;
    let (helpers, modifier) = parse_helpers(&fields.table(SIDES[1], &empty)?)?;
    let fleets_fight = FLEETS_FIGHT.bool(fields)?;
    Ok(Box::new(Assault::new(
        a,
        fleets_fight,
        city.size,
        city.dice,
        helpers,
        modifier,
        city.player_owner,
    )))
}

impl Assault {
    pub fn new(
        a: Force,
        fleets_fight: bool,
        size: u32,
        city_dice: u32,
        helper_dice: u32,
        modifier: i32,
        player_owner: bool,
    ) -> Assault {
        let possible = match &a {
            Force::Cards(_) => !a.fighting(Combat::Assault, fleets_fight).is_empty(),
            Force::NonPlayer { fixed, dice } => *fixed > 0 || *dice > 0,
            Force::Barbarian { dice } => *dice > 0,
        };
        let ta = a.total(Combat::Assault, true, fleets_fight);
        let td = Total {
            fixed: modifier,
            dice: city_dice + helper_dice,
        };
        let mut schema = Schema::new(OUTCOMES);
        schema.count(side_column(SIDES[0], LOSSES), a.card_count().max(1));
        for side in SIDES {
            schema.scalar_bounded(side_column(side, "vp"), size as f64);
        }
        let mut notes = vec![format!(
            "city: {city_dice} defence dice + {helper_dice} helper dice{}, no base die; attacker {} + {}d6; ties hold",
            if modifier != 0 { format!(", modifier {modifier:+}") } else { String::new() },
            ta.fixed,
            ta.dice
        )];
        if !possible {
            notes.push(
                "no attacking card has an assault value: the assault cannot be made (L905-L916)"
                    .into(),
            );
        }
        notes.push("every card played is discarded, and there is no recovery roll after an assault (L951-L958)".into());
        Assault {
            a,
            ta,
            td,
            size,
            city_dice,
            player_owner,
            possible,
            schema,
            notes,
        }
    }

    /// P(taken).
    pub fn p_taken(&self) -> f64 {
        if self.possible {
            roll_off(self.ta, self.td).attacker_wins
        } else {
            0.0
        }
    }

    /// VP on conquest (L972-L975): +size to a player conqueror; -size to a player owner. A city
    /// taken by a non-player force becomes neutral and nobody gains.
    fn vp_taken(&self) -> [f64; 2] {
        [
            if self.a.is_player() {
                self.size as f64
            } else {
                0.0
            },
            if self.player_owner {
                -(self.size as f64)
            } else {
                0.0
            },
        ]
    }
}

impl Simulate for Assault {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        out.clear(self.schema.counts.len(), self.schema.scalars.len());
        let taken = self.possible && self.ta.roll(dice) > self.td.roll(dice);
        out.outcome = if taken { 0 } else { 1 };
        out.counts[0] = self.a.card_count() as u32;
        if taken {
            let vp = self.vp_taken();
            out.scalars[0] = vp[0];
            out.scalars[1] = vp[1];
        }
    }
}

impl BattleModel for Assault {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = self.p_taken();
        ex.outcomes = vec![p, 1.0 - p];
        ex.counts[0].add_mass(self.a.card_count(), 1.0);
        let vp = self.vp_taken();
        ex.scalars[0] = p * vp[0];
        ex.scalars[1] = p * vp[1];
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!("{}: {}", SIDES[0], self.a.describe()),
            format!(
                "city: size {}, {} defence dice, {} owner",
                self.size,
                self.city_dice,
                if self.player_owner {
                    "a player"
                } else {
                    "neutral"
                }
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

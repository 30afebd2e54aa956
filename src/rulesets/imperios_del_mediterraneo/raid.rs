//! Non-player attacks on a player's city (digest §3.9, §3.10): the Barbarian Allies horde, the
//! Neutral Attack event and the Pirates event. The raider is a force of fixed value and dice; it
//! may cross straits (a Neutral Attack is a land expedition: it loses a die or 6 points per card),
//! the city's owner may intercept it on land (a field battle the owner wins on ties, ±2 VP), and
//! it then assaults the city. A conquered city becomes neutral and its owner loses its size in VP.

use super::assault::{CAPITAL, MARKERS, SIZE};
use super::cards::Combat;
use super::forces::{parse_force, Force};
use super::forces::{CARDS_FORCE, ENRAGED, EXTRA_DICE, LEADERS, MODIFIER, OWNER_KEYS};
use super::rolloff::{roll_off, Total};
use super::strait::WEATHER;
use super::strait::{roll_strait, strait_outcomes, Weather};
use super::SIDES;
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str = "a non-player attack on a player's city: Barbarian Allies horde, Neutral Attack or Pirates; straits, the owner's land interception, then the assault";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
const RAIDER: Key = keys::choice("raider", &["horde", "neutral", "pirates"])
    .default_choice("horde")
    .help("\"horde\": strength + enraged dice, no base die; \"neutral\": fixed + dice + the base die, rolls for straits; \"pirates\": fixed + dice + the base die, assaults directly");
const STRENGTH: Key = keys::int("strength", 0, 10)
    .default_int(2)
    .help("a horde's strength");
const FIXED: Key = keys::int("fixed", 0, 99)
    .default_int(6)
    .help("neutral or pirates: the event table's fixed value (not in the rulebook text)");
const DICE: Key = keys::int("dice", 0, 30)
    .default_int(0)
    .help("neutral or pirates: the event table's dice");
const STRAITS: Key = keys::int("straits", 0, 10)
    .default_int(0)
    .help("straits a Neutral Attack crosses (it loses a die, or 6 points, per card lost)");
const CITY: &[&str] = &["city"];

pub const KEYS: &[Key] = &keys::join::<19>(&[
    &[
        RAIDER,
        STRENGTH,
        ENRAGED.help("a horde's Enraged level"),
        FIXED,
        DICE,
        STRAITS,
        WEATHER,
    ],
    &keys::placed(OWNER_KEYS, &["land_interception"]),
    &[
        SIZE.at(CITY),
        MARKERS.at(CITY),
        CAPITAL.at(CITY),
        LEADERS.at(CITY).help("the city's helpers: Leader cards"),
        EXTRA_DICE
            .at(CITY)
            .help("the city's helpers: City Defence / Special Event dice"),
        MODIFIER.at(CITY),
    ],
]);

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Raider {
    Horde,
    Neutral,
    Pirates,
}

pub struct Raid {
    raider: Raider,
    force: Force,
    straits: u32,
    weather: Weather,
    wreck_ones: u32,
    interceptor: Option<Force>,
    size: u32,
    city: Total,
    schema: Schema,
    columns: Columns,
    notes: Vec<String>,
}

/// Where the raid's quantities sit in its schema, fixed by `build` as it names them.
struct Columns {
    stopped: usize,
    /// Attacker's, defender's.
    vp: [usize; 2],
    recovered: usize,
    spent: usize,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let raider = match RAIDER.choice(fields)? {
        "neutral" => Raider::Neutral,
        "pirates" => Raider::Pirates,
        _ => Raider::Horde,
    };
    let force = match raider {
        Raider::Horde => Force::Barbarian {
            dice: STRENGTH.int(fields)? as u32 + ENRAGED.int(fields)? as u32,
        },
        _ => Force::NonPlayer {
            fixed: FIXED.int(fields)? as i32,
            dice: DICE.int(fields)? as u32,
        },
    };
    let straits = STRAITS.int(fields)? as u32;
    if straits > 0 && raider != Raider::Neutral {
        return Err(AleaError::input(
            fields.source,
            "straits",
            straits,
            "0: only a Neutral Attack travels by land and rolls for straits",
        ));
    }
    let weather = super::strait::weather(fields, &WEATHER)?;
    let empty = Table::new();
    let interceptor = if fields.has("land_interception") {
        if raider == Raider::Pirates && !options.flag("pirates_intercepted") {
            return Err(AleaError::input(
                fields.source,
                "land_interception",
                "a table",
                "nothing: pirates assault the city directly (A-09; option pirates_intercepted)",
            ));
        }
        let f = parse_force(
            &fields.table("land_interception", &empty)?,
            false,
            &CARDS_FORCE,
        )?;
        if !f.is_player() {
            return Err(AleaError::input(
                fields.source,
                "land_interception.force",
                "a non-card force",
                "\"cards\": the city's owner intercepts with his cards",
            ));
        }
        Some(f)
    } else {
        None
    };
    let c = fields.table("city", &empty)?;
    let city = super::assault::parse_city(&c)?;
    let size = city.size;
    let dice = city.dice + super::assault::parse_helpers(&c)?.0;
    Ok(Box::new(Raid::new(
        raider,
        force,
        straits,
        weather,
        interceptor,
        size,
        dice,
        &options,
    )))
}

/// What one raid did, for a game: whether the city fell, the owner's VP, and which of the
/// interceptor's cards (troops, fleets, leaders in order, a bit each) came back on a 6.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaidPlayed {
    pub taken: bool,
    pub stopped: bool,
    pub vp: [f64; 2],
    pub intercepted: bool,
    pub recovered: u32,
}

impl Raid {
    /// A raid on a city of `size` defended by `city_dice` dice (its defence and its helpers'),
    /// from `force`, optionally intercepted by the owner's cards.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        raider: Raider,
        force: Force,
        straits: u32,
        weather: Weather,
        interceptor: Option<Force>,
        size: u32,
        city_dice: u32,
        options: &Options,
    ) -> Raid {
        let mut schema = Schema::new(OUTCOMES);
        let columns = Columns {
            stopped: schema.scalar("stopped_before_the_city"),
            vp: [(SIDES[0], 2.0), (SIDES[1], 8.0)]
                .map(|(side, bound)| schema.scalar_bounded(side_column(side, "vp"), bound)),
            recovered: schema.scalar_bounded(side_column(SIDES[1], "cards_recovered"), 40.0),
            spent: schema.scalar_bounded(side_column(SIDES[1], "cards_spent"), 40.0),
        };
        let notes = vec![
            format!(
                "{}: {}",
                match raider {
                    Raider::Horde => "Barbarian Allies horde",
                    Raider::Neutral => "Neutral Attack",
                    Raider::Pirates => "Pirates",
                },
                force.describe()
            ),
            "a raider that wins the interception loses a die (or 6 points) on the owner's 1d6 <= his Troop cards; a conquered city becomes neutral: its owner loses its size in VP, nobody gains (L968-L975)".into(),
        ];
        Raid {
            raider,
            force,
            straits,
            weather,
            wreck_ones: options.int("bad_weather_wreck_ones") as u32,
            interceptor,
            size,
            city: Total {
                fixed: 0,
                dice: city_dice,
            },
            schema,
            columns,
            notes,
        }
    }

    /// One raid with dice (the trial's steps, in the trial's order of rolls).
    pub fn play(&self, dice: &mut Dice) -> RaidPlayed {
        let mut out = RaidPlayed::default();
        let mut f = self.force.clone();
        for _ in 0..self.straits {
            let Some(lost) = roll_strait(dice, self.weather, self.wreck_ones) else {
                out.stopped = true;
                return out;
            };
            for _ in 0..lost {
                match f.lose_card() {
                    Some(g) => f = g,
                    None => {
                        out.stopped = true;
                        return out;
                    }
                }
            }
        }
        if let Some(d) = &self.interceptor {
            out.intercepted = true;
            let spent = d.card_count() as u32;
            for i in 0..spent {
                if dice.d(6) == 6 {
                    out.recovered |= 1 << i;
                }
            }
            let ta = f.total(Combat::Field, true, false);
            let td = d.total(Combat::Field, true, false);
            if ta.roll(dice) <= td.roll(dice) {
                out.stopped = true;
                out.vp = [0.0, 2.0];
                return out;
            }
            out.vp = [0.0, -2.0];
            let troops = d.fighting(Combat::Field, false).len() as u32;
            if dice.d(6) <= troops {
                match f.lose_card() {
                    Some(g) => f = g,
                    None => {
                        out.stopped = true;
                        return out;
                    }
                }
            }
        }
        out.taken = self.assault_total(&f).roll(dice) > self.city.roll(dice);
        if out.taken {
            out.vp[1] -= self.size as f64;
        }
        out
    }
}

/// A leaf of the raid: (probability, the city fell, stopped before it, VP (raider, owner),
/// owner's cards spent).
type Leaf = (f64, bool, bool, [f64; 2], u32);

impl Raid {
    fn assault_total(&self, f: &Force) -> Total {
        f.total(Combat::Assault, self.raider != Raider::Horde, false)
    }

    fn walk(&self, leaf: &mut impl FnMut(Leaf)) {
        let mut states: Vec<(f64, Option<Force>)> = vec![(1.0, Some(self.force.clone()))];
        let o = strait_outcomes(self.weather, self.wreck_ones);
        for _ in 0..self.straits {
            let mut next = Vec::new();
            for (p, f) in states {
                let Some(f) = f else { continue };
                let one = f.lose_card();
                let two = one.as_ref().and_then(|x| x.lose_card());
                next.push((p * o[0], Some(f)));
                next.push((p * o[1], one));
                next.push((p * o[2], two));
                leaf((p * o[3], false, true, [0.0, 0.0], 0));
            }
            states = Vec::new();
            for (p, f) in next {
                match f {
                    Some(f) => states.push((p, Some(f))),
                    None => leaf((p, false, true, [0.0, 0.0], 0)),
                }
            }
        }
        for (p, f) in states {
            let Some(mut f) = f else { continue };
            let mut vp = [0.0, 0.0];
            let mut spent = 0;
            let mut branches = vec![(1.0, f.clone())];
            if let Some(d) = &self.interceptor {
                spent = d.card_count() as u32;
                let ta = f.total(Combat::Field, true, false);
                let td = d.total(Combat::Field, true, false);
                let pw = roll_off(ta, td).attacker_wins;
                let troops = d.fighting(Combat::Field, false).len() as u32;
                let chance = troops.min(6) as f64 / 6.0;
                leaf((p * (1.0 - pw), false, true, [0.0, 2.0], spent));
                vp = [0.0, -2.0];
                branches = vec![(pw * (1.0 - chance), f.clone())];
                match f.lose_card() {
                    Some(g) => branches.push((pw * chance, g)),
                    None => leaf((p * pw * chance, false, true, vp, spent)),
                }
            }
            for (q, g) in branches {
                f = g;
                let taken = roll_off(self.assault_total(&f), self.city).attacker_wins;
                let mut won = vp;
                won[1] -= self.size as f64;
                leaf((p * q * taken, true, false, won, spent));
                leaf((p * q * (1.0 - taken), false, false, vp, spent));
            }
        }
    }
}

impl Simulate for Raid {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        out.clear(0, self.schema.scalars.len());
        let r = self.play(dice);
        if r.intercepted {
            let spent = self.interceptor.as_ref().map_or(0, |d| d.card_count());
            out.scalars[c.spent] = spent as f64;
            out.scalars[c.recovered] = r.recovered.count_ones() as f64;
        }
        out.outcome = if r.taken { 0 } else { 1 };
        if r.stopped {
            out.scalars[c.stopped] = 1.0;
        }
        out.scalars[c.vp[0]] = r.vp[0];
        out.scalars[c.vp[1]] = r.vp[1];
    }
}

impl BattleModel for Raid {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let c = &self.columns;
        let mut ex = Exact::zeros(&self.schema);
        self.walk(&mut |(p, taken, stopped, vp, spent)| {
            if p <= 0.0 {
                return;
            }
            ex.outcomes[if taken { 0 } else { 1 }] += p;
            ex.scalars[c.stopped] += p * stopped as u8 as f64;
            ex.scalars[c.vp[0]] += p * vp[0];
            ex.scalars[c.vp[1]] += p * vp[1];
            ex.scalars[c.spent] += p * spent as f64;
            ex.scalars[c.recovered] += p * spent as f64 / 6.0;
        });
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!("raider: {}", self.force.describe()),
            format!(
                "city: size {}, {} defence dice; interception: {}",
                self.size,
                self.city.dice,
                self.interceptor
                    .as_ref()
                    .map_or("none".into(), |f| f.describe())
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

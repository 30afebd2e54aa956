//! Rome against a war: the land battle and the naval battle (L747-L792; digest §3.3-§3.8, §8).
//!
//! One roll of 3d6. An unmodified roll among the war's or its leaders' Disaster numbers is a
//! Disaster (half of every legion and fleet lost, rounded up), among the Standoff numbers a
//! Standoff (a quarter); otherwise the roll plus the modifier (troops + MIL capped at troops −
//! enemy strength) is read on the Combat Results Table. A Defeat kills the commander; otherwise one
//! mortality chit is drawn per unit lost.

use super::chits::Cup;
use super::data::{data, find, War};
use crate::battle::keys::{self, Key, Type};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::{draw_without_replacement, Dice};
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::{Table, Value};

/// Legions (and fleets) Rome may have in existence (L635).
pub const MAX_UNITS: u32 = 25;

pub const ROME: &[&str] = &["rome"];
const WAR: &[&str] = &["war"];

pub const LEGIONS: Key = keys::int("legions", 0, MAX_UNITS as i64)
    .default_int(0)
    .help("Rome's legions (at most 25 in all, L635)");
pub const VETERAN_LEGIONS: Key = keys::int("veteran_legions", 0, MAX_UNITS as i64)
    .default_int(0)
    .help("veteran legions (each counts 2)");
pub const FLEETS: Key = keys::int("fleets", 0, MAX_UNITS as i64)
    .default_int(0)
    .help("Rome's fleets");
pub const COMMANDER: Key = Key::new(
    "commander",
    Type::Text {
        format: "a statesman or family senator of the data, by name or id",
        example: "\"1A\"",
    },
)
.absent("a commander of MIL 0 (or commander_military)")
.help("the commander: gives his MIL and abilities");
pub const COMMANDER_MILITARY: Key = keys::int("commander_military", 0, 10)
    .absent("the named commander's MIL")
    .help("the commander's Military rating, overriding the named one's");
const COMMANDER_INFLUENCE: Key = keys::int("commander_influence", 0, 100)
    .absent("no ransom counted")
    .help("the commander's Influence, for the ransom if he is captured (L791)");
pub const MASTER_OF_HORSE_MILITARY: Key = keys::int("master_of_horse_military", 0, 10)
    .default_int(0)
    .help("the Master of Horse's MIL when a Dictator commands");
/// An army of Rome's, under `[rome]` or in a `[[armies]]` entry.
pub const ARMY_KEYS: [Key; 7] = [
    LEGIONS,
    VETERAN_LEGIONS,
    FLEETS,
    COMMANDER,
    COMMANDER_MILITARY,
    COMMANDER_INFLUENCE,
    MASTER_OF_HORSE_MILITARY,
];

const WAR_NAME: Key = Key::new(
    "name",
    Type::Text {
        format: "a war of the data (scenarios/republica-de-roma/wars.toml)",
        example: "\"1st Gallic War\"",
    },
)
.absent("a war given by its numbers (land_strength at least)")
.help("the war");
const STRENGTH_HELP: &str = "the war's strength (overrides the named war's)";
const LAND_STRENGTH: Key = keys::int("land_strength", 0, 100).help(STRENGTH_HELP);
const NAVAL_STRENGTH: Key = keys::int("naval_strength", 0, 100).help(STRENGTH_HELP);
const FLEET_SUPPORT: Key = keys::int("fleet_support", 0, MAX_UNITS as i64)
    .help("the fleets a land battle against the war needs (L649, L749)");
const NUMBERS: Type = Type::List {
    format: "3d6 totals, 3 to 18, e.g. [13] or [11, 14]",
    example: "[13]",
};
const DISASTER_NUMBERS: Key =
    Key::new("disaster_numbers", NUMBERS).help("the war's Disaster numbers");
const STANDOFF_NUMBERS: Key =
    Key::new("standoff_numbers", NUMBERS).help("the war's Standoff numbers");
const SPOILS: Key = keys::int("spoils", 0, 1000).help("the war's spoils in talents");
const REVOLT: Key = keys::flag("revolt").help("a war that makes a province revolt");
const SERIES: Key = Key::new(
    "series",
    Type::Text {
        format: "the name of the war's series (for matching wars and commanders' abilities)",
        example: "\"Gallic\"",
    },
)
.help("the war's series");
pub const NAVAL_VICTORY: Key = keys::flag("naval_victory").help(
    "Rome has beaten the war's fleet (needed before a land battle against a war with a fleet)",
);
const WAR_KEYS: [Key; 10] = [
    WAR_NAME,
    LAND_STRENGTH,
    NAVAL_STRENGTH,
    FLEET_SUPPORT,
    DISASTER_NUMBERS,
    STANDOFF_NUMBERS,
    SPOILS,
    REVOLT,
    SERIES,
    NAVAL_VICTORY,
];

const MATCHING_WARS: Key = keys::int("matching_wars", 1, 4)
    .default_int(1)
    .help("active wars of the series (multiplies the strength)");
const ENEMY_LEADERS: Key = Key::new(
    "enemy_leaders",
    Type::List {
        format: "leader names from the data, e.g. [\"Hannibal\"]",
        example: "[\"Hannibal\"]",
    },
)
.help("the war's leaders");
const EVIL_OMENS: Key = keys::int("evil_omens", 0, 5)
    .default_int(0)
    .help("Evil Omens cards in play");

/// A war and what surrounds it, for every battle against one.
pub const AGAINST_WAR: [Key; 13] = keys::join(&[
    &keys::placed(WAR_KEYS, WAR),
    &[MATCHING_WARS, ENEMY_LEADERS, EVIL_OMENS],
]);

/// The keys of a land or naval battle (and of both at once).
pub const KEYS: &[Key] = &keys::join::<20>(&[&keys::placed(ARMY_KEYS, ROME), &AGAINST_WAR]);
const OUTCOMES: [&str; 5] = ["victory", "stalemate", "defeat", "disaster", "standoff"];
pub const VICTORY: usize = 0;
pub const STALEMATE: usize = 1;
pub const DEFEAT: usize = 2;
pub const DISASTER: usize = 3;
pub const STANDOFF: usize = 4;
/// 3d6 totals 3..=18, out of 216.
pub(super) const WEIGHTS_3D6: [u32; 16] =
    [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Land,
    Naval,
}

/// A Combat Results Table row: lowest and highest modified total, result, units lost (`None` = all).
type CrtRow = (i32, i32, usize, Option<u32>);

/// The Combat Results Table's row for a modified total: the result and the units each side loses
/// (`None` = all of them). Built once from `scenarios/republica-de-roma/combat-results.toml`.
pub fn crt(total: i32) -> (usize, Option<u32>) {
    static TABLE: std::sync::OnceLock<Vec<CrtRow>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        data()
            .crt
            .iter()
            .map(|row| {
                let result = match row.result.as_str() {
                    "victory" => VICTORY,
                    "stalemate" => STALEMATE,
                    _ => DEFEAT,
                };
                let loss = match &row.losses {
                    Value::Integer(n) => Some(*n as u32),
                    _ => None,
                };
                (
                    row.min_total.unwrap_or(i32::MIN),
                    row.max_total.unwrap_or(i32::MAX),
                    result,
                    loss,
                )
            })
            .collect()
    });
    let &(_, _, result, loss) = table
        .iter()
        .find(|(lo, hi, _, _)| (*lo..=*hi).contains(&total))
        .expect("the Combat Results Table covers every total");
    (result, loss)
}

/// A war as fought: printed values, possibly overridden in the battle file.
#[derive(Clone, Debug)]
struct WarCard {
    name: String,
    series: String,
    land: u32,
    naval: u32,
    fleet_support: u32,
    disaster: Vec<u32>,
    standoff: Vec<u32>,
    spoils: u32,
    revolt: bool,
}

impl WarCard {
    fn from_data(w: &War) -> WarCard {
        WarCard {
            name: w.name.clone(),
            series: w.series.clone(),
            land: w.land,
            naval: w.naval,
            fleet_support: w.fleet_support,
            disaster: w.disaster.clone(),
            standoff: w.standoff.clone(),
            spoils: w.spoils,
            revolt: w.revolt,
        }
    }
}

struct Leader {
    name: String,
    strength: u32,
    disaster: Vec<u32>,
    standoff: Vec<u32>,
}

pub struct RomanBattle {
    kind: Kind,
    pub(super) regular: u32,
    pub(super) veteran: u32,
    fleets: u32,
    /// The modifier, with its probability (more than one when the commander's MIL is rolled).
    pub(super) drms: Vec<(i32, f64)>,
    /// What the modifier is made of, to recompute it for another army: MIL (a distribution),
    /// the Master of Horse's MIL, whether the cap is on their sum, and −enemy − omens.
    mil: Pmf,
    moh: u32,
    combined_cap: bool,
    base: i32,
    pub(super) fleet_support: u32,
    /// The war's printed naval strength (a land battle needs it beaten first).
    pub(super) war_naval: u32,
    /// The ransom if the commander is captured, when his Influence is given.
    ransom: Option<f64>,
    /// Per unmodified 3d6 total (index = total): Disaster, Standoff or neither.
    special: [Option<usize>; 19],
    halves_losses: Option<bool>, // Some(round_up)
    pub(super) gain: u32,
    /// Printed strength of what this battle fights (land or naval): the victory gain is half of it.
    pub(super) printed: u32,
    pub(super) spoils: u32,
    pub(super) cup: Cup,
    veteran_from_battle: bool,
    popularity_by_strength: bool,
    gain_requires_survival: bool,
    describe: Vec<String>,
    notes: Vec<String>,
    schema: Schema,
    pub(super) columns: Columns,
    /// The expected ransom's scalar, when the commander can be captured for one.
    ransom_column: Option<usize>,
}

/// Where a Roman battle's quantities sit in its schema, fixed by [`Columns::add`] as it names
/// them; the naval-then-land battle reports the same ones first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Columns {
    pub legions_lost: usize,
    pub veterans_lost: usize,
    pub fleets_lost: usize,
    pub killed: usize,
    pub captured: usize,
    pub unrest: usize,
    pub popularity: usize,
    pub influence: usize,
    pub spoils: usize,
    pub veteran_gained: usize,
    pub war_defeated: usize,
}

/// The most a Roman battle can lose or gain in one trial, which sizes its schema.
pub(super) struct Caps {
    pub legions: u32,
    pub veterans: u32,
    pub fleets: u32,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
}

impl Columns {
    /// Adds the quantities every Roman battle reports to `schema`.
    pub(super) fn add(schema: &mut Schema, caps: Caps) -> Columns {
        Columns {
            legions_lost: schema.count("legions_lost", caps.legions as usize),
            veterans_lost: schema.count("veteran_legions_lost", caps.veterans as usize),
            fleets_lost: schema.count("fleets_lost", caps.fleets as usize),
            killed: schema.scalar("commander/killed"),
            captured: schema.scalar("commander/captured"),
            unrest: schema.scalar_bounded("unrest_change", caps.unrest),
            popularity: schema.scalar_bounded("popularity_change", caps.popularity),
            influence: schema.scalar_bounded("influence_gain", caps.influence),
            spoils: schema.scalar_bounded("spoils", caps.spoils),
            veteran_gained: schema.scalar("veteran_gained"),
            war_defeated: schema.scalar("war_defeated"),
        }
    }

    /// The scalars, in schema order.
    pub(super) fn scalars(&self) -> [usize; 8] {
        [
            self.killed,
            self.captured,
            self.unrest,
            self.popularity,
            self.influence,
            self.spoils,
            self.veteran_gained,
            self.war_defeated,
        ]
    }

    /// Records one battle's figures in a trial.
    pub(super) fn record(&self, b: &Sim, out: &mut Trial) {
        out.counts[self.legions_lost] = b.lost_regular + b.lost_veteran;
        out.counts[self.veterans_lost] = b.lost_veteran;
        out.counts[self.fleets_lost] = b.lost_fleets;
        out.scalars[self.killed] = b.killed as u32 as f64;
        out.scalars[self.captured] = b.captured as u32 as f64;
        out.scalars[self.unrest] = b.unrest;
        out.scalars[self.popularity] = b.popularity;
        out.scalars[self.influence] = b.influence;
        out.scalars[self.spoils] = b.spoils;
        out.scalars[self.veteran_gained] = b.veteran_gained as u32 as f64;
        out.scalars[self.war_defeated] = b.war_defeated as u32 as f64;
    }
}

/// The Disaster or Standoff result of each unmodified 3d6 total (index = total), from the
/// (disaster, standoff) lists of a war and of its leaders. A total on both lists is a Disaster when
/// `disaster_wins`, a Standoff otherwise.
pub fn special_numbers<'a>(
    lists: impl Iterator<Item = (&'a [u32], &'a [u32])>,
    disaster_wins: bool,
) -> [Option<usize>; 19] {
    let mut special = [None; 19];
    for (disaster, standoff) in lists {
        for (list, what) in [(standoff, STANDOFF), (disaster, DISASTER)] {
            for &n in list {
                let slot = &mut special[n as usize];
                *slot = match (*slot, what) {
                    (Some(DISASTER), _) if disaster_wins => Some(DISASTER),
                    (Some(STANDOFF), DISASTER) if !disaster_wins => Some(STANDOFF),
                    _ => Some(what),
                };
            }
        }
    }
    special
}

/// The result and the units lost (legions, fleets) of one battle: an unmodified 3d6 `roll` checked
/// against the Disaster and Standoff numbers not yet `used` this turn (bit = total; L663-L665),
/// then `roll + drm` on the Combat Results Table. `halves` is Some(round up) for a commander who
/// halves losses.
pub fn resolve_roll(
    special: &[Option<usize>; 19],
    roll: usize,
    drm: i32,
    legions: u32,
    fleets: u32,
    used: u32,
    halves: Option<bool>,
) -> (usize, u32, u32) {
    let special = if used & (1 << roll) != 0 {
        None
    } else {
        special[roll]
    };
    let (result, lost_l, lost_f) = match special {
        Some(DISASTER) => (DISASTER, legions.div_ceil(2), fleets.div_ceil(2)),
        Some(_) => (STANDOFF, legions.div_ceil(4), fleets.div_ceil(4)),
        None => {
            let total = roll as i32 + drm;
            match crt(total) {
                (result, None) => (result, legions, fleets),
                (result, Some(n)) => (result, n.min(legions), n.min(fleets)),
            }
        }
    };
    let halve = |n: u32| match halves {
        Some(true) => n.div_ceil(2),
        Some(false) => n / 2,
        None => n,
    };
    (result, halve(lost_l), halve(lost_f))
}

/// A captive's ransom in talents: twice his Influence, at least 10 (L791).
pub fn ransom(influence: u32) -> f64 {
    (2 * influence).max(10) as f64
}

fn numbers(f: &Fields, list: &Key) -> Result<Option<Vec<u32>>> {
    let key = list.name;
    match list.raw(f)? {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::Integer(i) if (3..=18).contains(i) => Ok(*i as u32),
                other => Err(AleaError::input(
                    f.source,
                    f.field(key),
                    other,
                    "a list of 3d6 totals, 3 to 18",
                )),
            })
            .collect::<Result<Vec<u32>>>()
            .map(Some),
        Some(other) => Err(AleaError::input(
            f.source,
            f.field(key),
            other,
            "a list of 3d6 totals, e.g. [13] or [11, 14]",
        )),
    }
}

fn parse_war(war: &Fields) -> Result<WarCard> {
    let mut card = match WAR_NAME.text(war)? {
        Some(name) => WarCard::from_data(find(
            &data().wars,
            |w| &w.name,
            war.source,
            "war.name",
            name,
        )?),
        None => {
            if !LAND_STRENGTH.has(war) {
                return Err(AleaError::invalid(
                    war.source,
                    "[war] needs `name` (a war from the data) or at least `land_strength` (raw numbers)",
                ));
            }
            WarCard {
                name: "a war given by its numbers".into(),
                series: String::new(),
                land: 0,
                naval: 0,
                fleet_support: 0,
                disaster: Vec::new(),
                standoff: Vec::new(),
                spoils: 0,
                revolt: false,
            }
        }
    };
    if let Some(v) = LAND_STRENGTH.opt_int(war)? {
        card.land = v as u32;
    }
    if let Some(v) = NAVAL_STRENGTH.opt_int(war)? {
        card.naval = v as u32;
    }
    if let Some(v) = FLEET_SUPPORT.opt_int(war)? {
        card.fleet_support = v as u32;
    }
    if let Some(v) = numbers(war, &DISASTER_NUMBERS)? {
        card.disaster = v;
    }
    if let Some(v) = numbers(war, &STANDOFF_NUMBERS)? {
        card.standoff = v;
    }
    if let Some(v) = SPOILS.opt_int(war)? {
        card.spoils = v as u32;
    }
    if let Some(v) = REVOLT.opt_bool(war)? {
        card.revolt = v;
    }
    if let Some(v) = SERIES.text(war)? {
        card.series = v.to_string();
    }
    Ok(card)
}

fn parse_leaders(f: &Fields) -> Result<Vec<Leader>> {
    let Some(value) = ENEMY_LEADERS.raw(f)? else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = value else {
        return Err(AleaError::input(
            f.source,
            "enemy_leaders",
            value,
            "a list of leader names, e.g. [\"Hannibal\"]",
        ));
    };
    items
        .iter()
        .map(|v| match v {
            Value::String(name) => {
                let l = find(
                    &data().leaders,
                    |l| &l.name,
                    f.source,
                    "enemy_leaders",
                    name,
                )?;
                Ok(Leader {
                    name: l.name.clone(),
                    strength: l.strength,
                    disaster: l.disaster.clone(),
                    standoff: l.standoff.clone(),
                })
            }
            other => Err(AleaError::input(
                f.source,
                "enemy_leaders",
                other,
                "leader names from the data",
            )),
        })
        .collect()
}

pub fn build_land(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    RomanBattle::build(fields, options, Kind::Land).map(|b| Box::new(b) as Box<dyn BattleModel>)
}

pub fn build_naval(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    RomanBattle::build(fields, options, Kind::Naval).map(|b| Box::new(b) as Box<dyn BattleModel>)
}

impl RomanBattle {
    fn build(fields: &Fields, options: Options, kind: Kind) -> Result<RomanBattle> {
        Self::build_kind(fields, options, kind, false)
    }

    /// `after_naval_victory`: a land battle fought right after beating the war's fleet.
    pub(super) fn build_kind(
        fields: &Fields,
        options: Options,
        kind: Kind,
        after_naval_victory: bool,
    ) -> Result<RomanBattle> {
        let empty = Table::new();
        let rome = fields.table("rome", &empty)?;
        Self::build_army(fields, &rome, options, kind, after_naval_victory)
    }

    /// The battle of the army `rome` (`[rome]`, or an entry of `[[armies]]`) against the war of
    /// `fields`.
    pub(super) fn build_army(
        fields: &Fields,
        rome: &Fields,
        options: Options,
        kind: Kind,
        after_naval_victory: bool,
    ) -> Result<RomanBattle> {
        let empty = Table::new();
        let (regular, veteran, fleets) = (
            LEGIONS.int(rome)? as u32,
            VETERAN_LEGIONS.int(rome)? as u32,
            FLEETS.int(rome)? as u32,
        );
        if regular + veteran > MAX_UNITS {
            return Err(AleaError::input(
                fields.source,
                VETERAN_LEGIONS.field(rome),
                veteran,
                format!("at most {MAX_UNITS} legions in all (L635)"),
            ));
        }
        let war = parse_war(&fields.table("war", &empty)?)?;
        let naval_victory =
            after_naval_victory || NAVAL_VICTORY.bool(&fields.table("war", &empty)?)?;
        let leaders = parse_leaders(fields)?;
        let matching = MATCHING_WARS.int(fields)? as u32;
        let omens = EVIL_OMENS.int(fields)? as i32;

        // The commander: a statesman or family senator from the data, or a bare rating.
        let mut commander_name = "a commander".to_string();
        let (mut halves, mut nullified) = (false, false);
        // The commander's MIL as a distribution: a number, or a roll such as Pompey's 1d6 + 1.
        let mut mil = crate::exact::Pmf::point(0);
        if let Some(name) = COMMANDER.text(rome)? {
            let c = super::data::commander(fields.source, &COMMANDER.field(rome), name)?;
            nullified = c.cancels(&war.name, &war.series);
            (commander_name, mil, halves) = (c.name, c.mil, c.halves_losses);
        }
        let ransom = COMMANDER_INFLUENCE.opt_int(rome)?.map(|i| ransom(i as u32));
        if let Some(m) = COMMANDER_MILITARY.opt_int(rome)? {
            mil = crate::exact::Pmf::point(m as usize);
        }
        let moh = MASTER_OF_HORSE_MILITARY.int(rome)? as u32;

        let troops = match kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        match kind {
            Kind::Land => {
                if regular + veteran == 0 {
                    return Err(AleaError::input(
                        fields.source,
                        LEGIONS.field(rome),
                        0,
                        "at least one legion for a land battle",
                    ));
                }
                if fleets < war.fleet_support {
                    return Err(AleaError::input(
                        fields.source,
                        FLEETS.field(rome),
                        fleets,
                        format!(
                            "at least the war's fleet support, {} (L649, L749)",
                            war.fleet_support
                        ),
                    ));
                }
                if war.naval > 0 && !naval_victory {
                    return Err(AleaError::invalid(fields.source, format!("{} has a fleet: win the naval battle first (L751), or set war.naval_victory = true", war.name)));
                }
            }
            Kind::Naval => {
                if war.naval == 0 {
                    return Err(AleaError::invalid(
                        fields.source,
                        format!(
                            "{} has no fleet (naval strength 0): there is no naval battle",
                            war.name
                        ),
                    ));
                }
                if fleets == 0 {
                    return Err(AleaError::input(
                        fields.source,
                        FLEETS.field(rome),
                        0,
                        "at least one fleet for a naval battle",
                    ));
                }
            }
        }
        let combined_cap = options.choice("mil_cap") == "combined";
        let multiplies_naval = options.flag("matching_multiplies_naval");
        let leader_strength: u32 = leaders.iter().map(|l| l.strength).sum();
        let enemy = match kind {
            Kind::Land => war.land * matching + leader_strength,
            Kind::Naval => {
                let leaders_count =
                    options.choice("leader_naval_strength") == "always" || war.naval > 0;
                war.naval * if multiplies_naval { matching } else { 1 }
                    + if leaders_count { leader_strength } else { 0 }
            }
        };
        let base = troops as i32 - enemy as i32 - omens * options.int("evil_omen_modifier") as i32;
        let without_troops = base - troops as i32;
        let drms = modifiers(&mil, moh, combined_cap, troops, without_troops);
        let mil_used = |m: u32| (drms_for(&drms, m, &mil) - base) as u32;

        let disaster_wins = options.choice("disaster_standoff_tie") == "disaster";
        let (war_d, war_s): (&[u32], &[u32]) = if nullified {
            (&[], &[])
        } else {
            (&war.disaster, &war.standoff)
        };
        let special = special_numbers(
            std::iter::once((war_d, war_s))
                .chain(leaders.iter().map(|l| (&l.disaster[..], &l.standoff[..]))),
            disaster_wins,
        );
        let k = options.int("mortality_draw_two") as u32;
        let cup = Cup {
            numbered: 36 - k,
            draw_two: k,
        };
        let printed = match kind {
            Kind::Land => war.land,
            Kind::Naval => war.naval,
        };
        let mut schema = Schema::new(&OUTCOMES);
        let legions = regular + veteran;
        let columns = Columns::add(
            &mut schema,
            Caps {
                legions,
                veterans: veteran,
                fleets,
                unrest: 2.0,
                popularity: (printed.div_ceil(2) + legions) as f64,
                influence: printed.div_ceil(2) as f64,
                spoils: war.spoils as f64,
            },
        );
        let ransom_column = ransom.map(|r| schema.scalar_bounded("commander/expected_ransom", r));

        let what = if kind == Kind::Land { "land" } else { "naval" };
        let omen_text = if omens > 0 {
            format!(" − evil omens {omens}")
        } else {
            String::new()
        };
        let mut notes = vec![if drms.len() == 1 {
            let m = mil.0.iter().position(|&p| p > 0.0).unwrap_or(0) as u32;
            format!(
                "drm = troops {troops} + MIL {} (of {}) − enemy {enemy}{omen_text} = {:+}",
                mil_used(m),
                m + moh,
                drms[0].0
            )
        } else {
            format!("drm = troops {troops} + rolled MIL (capped at troops) − enemy {enemy}{omen_text}: from {:+} to {:+}", drms[0].0, drms[drms.len() - 1].0)
        }];
        if nullified {
            notes.push(format!("{commander_name} cancels the war's own Disaster and Standoff numbers; its leaders' numbers stay"));
        }
        let p_special = |what: usize| {
            (3..=18)
                .filter(|&r| special[r] == Some(what))
                .map(|r| WEIGHTS_3D6[r - 3])
                .sum::<u32>()
        };
        let (d_list, s_list): (Vec<usize>, Vec<usize>) = (
            (3..=18).filter(|&r| special[r] == Some(DISASTER)).collect(),
            (3..=18).filter(|&r| special[r] == Some(STANDOFF)).collect(),
        );
        if d_list.is_empty() && s_list.is_empty() {
            notes.push("no Disaster or Standoff numbers apply".into());
        } else {
            notes.push(format!(
            "Disaster on an unmodified {:?} ({}/216), Standoff on {:?} ({}/216): no army size changes these",
            (3..=18).filter(|&r| special[r] == Some(DISASTER)).collect::<Vec<_>>(),
            p_special(DISASTER),
            (3..=18).filter(|&r| special[r] == Some(STANDOFF)).collect::<Vec<_>>(),
            p_special(STANDOFF)
        ));
        }
        let leader_text = if leaders.is_empty() {
            String::new()
        } else {
            format!(
                " with {}",
                leaders
                    .iter()
                    .map(|l| format!("{} (+{})", l.name, l.strength))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let describe = vec![
            format!(
                "Rome: {regular} legions, {veteran} veteran legions, {fleets} fleets; {commander_name}, MIL {}{}",
                if mil.0.iter().filter(|&&p| p > 0.0).count() == 1 { format!("{:.0}", mil.mean()) } else { format!("rolled, mean {:.1}", mil.mean()) },
                if moh > 0 { format!(" + master of horse {moh}") } else { String::new() }
            ),
            format!("war: {} ({what} strength {printed} × {matching}{leader_text} = {enemy}; fleet support {})", war.name, war.fleet_support),
        ];
        Ok(RomanBattle {
            kind,
            regular,
            veteran,
            fleets,
            drms,
            mil: mil.clone(),
            moh,
            combined_cap,
            base: without_troops,
            fleet_support: war.fleet_support,
            war_naval: war.naval,
            ransom,
            special,
            halves_losses: halves.then(|| options.choice("halved_losses_rounding") == "up"),
            gain: printed.div_ceil(2),
            printed,
            spoils: if kind == Kind::Land && !war.revolt {
                war.spoils
            } else {
                0
            },
            cup,
            veteran_from_battle: kind == Kind::Land || options.flag("veterans_from_naval_battles"),
            popularity_by_strength: options.choice("popularity_loss_counts") == "strength",
            gain_requires_survival: options.flag("victory_gain_requires_survival"),
            describe,
            notes,
            schema,
            columns,
            ransom_column,
        })
    }

    /// The result and the units lost for an unmodified roll.
    #[cfg(test)]
    fn resolve(&self, roll: usize, drm: i32) -> (usize, u32, u32) {
        self.resolve_army(roll, drm, self.regular + self.veteran, self.fleets, 0)
    }

    /// The result and losses for an army of `legions` and `fleets` (survivors of an earlier battle).
    /// `used` marks (bit = roll) the Disaster and Standoff numbers already applied against this war
    /// this turn: each applies once per war per turn (L663-L665), after which the roll uses the CRT.
    pub(super) fn resolve_army(
        &self,
        roll: usize,
        drm: i32,
        legions: u32,
        fleets: u32,
        used: u32,
    ) -> (usize, u32, u32) {
        resolve_roll(
            &self.special,
            roll,
            drm,
            legions,
            fleets,
            used,
            self.halves_losses,
        )
    }

    /// The modifier for another army, drawing a rolled MIL if need be; allocates nothing.
    pub(super) fn drm_for_troops(&self, troops: u32, dice: &mut Dice) -> i32 {
        let m = if self.drms.len() == 1 {
            self.mil.0.iter().position(|&p| p > 0.0).unwrap_or(0) as u32
        } else {
            self.mil.sample(dice.uniform()) as u32
        };
        let used = if self.combined_cap {
            (m + self.moh).min(troops)
        } else {
            m.min(troops) + self.moh.min(troops)
        };
        self.base + troops as i32 + used as i32
    }

    fn popularity_loss(&self, lost_regular: u32, lost_veteran: u32) -> f64 {
        let counted = if self.popularity_by_strength {
            lost_regular + 2 * lost_veteran
        } else {
            lost_regular + lost_veteran
        };
        -((counted / 2) as f64)
    }

    pub(super) fn legions(&self) -> u32 {
        self.regular + self.veteran
    }

    pub(super) fn veterans(&self) -> u32 {
        self.veteran
    }

    pub(super) fn fleets(&self) -> u32 {
        self.fleets
    }

    /// Every way the battle can go, exactly: one branch per (roll, MIL value, veterans among the
    /// legions lost), with the commander's fate and the other effects as probabilities/expectations.
    pub(super) fn solve_branches(&self) -> Vec<Branch> {
        self.solve_branches_used(0)
    }

    /// As [`Self::solve_branches`], with the numbers in `used` already spent this turn.
    pub(super) fn solve_branches_used(&self, used: u32) -> Vec<Branch> {
        let mut out = Vec::new();
        for roll in 3..=18usize {
            for &(drm, p_drm) in &self.drms {
                let w = p_drm * WEIGHTS_3D6[roll - 3] as f64 / 216.0;
                let (result, lost_l, lost_f) =
                    self.resolve_army(roll, drm, self.regular + self.veteran, self.fleets, used);
                let spends = if matches!(result, DISASTER | STANDOFF) {
                    1 << roll
                } else {
                    0
                };
                let (killed, captured) = if result == DEFEAT {
                    (1.0, 0.0)
                } else {
                    let f = self.cup.fate(lost_l + lost_f, result == VICTORY);
                    (f.killed, f.captured)
                };
                let survives = if self.gain_requires_survival {
                    1.0 - killed - captured
                } else {
                    1.0
                };
                let vets = Pmf::hypergeometric(
                    self.legions() as usize,
                    self.veteran as usize,
                    lost_l as usize,
                );
                for (j, &pj) in vets.0.iter().enumerate() {
                    if pj == 0.0 {
                        continue;
                    }
                    let (lost_regular, lost_veteran) = (lost_l - j as u32, j as u32);
                    let won = result == VICTORY;
                    out.push(Branch {
                        spends,
                        weight: w * pj,
                        result,
                        lost_regular,
                        lost_veteran,
                        lost_fleets: lost_f,
                        killed,
                        captured,
                        unrest: unrest(result),
                        popularity: self.popularity_loss(lost_regular, lost_veteran)
                            + if won {
                                survives * self.gain as f64
                            } else {
                                0.0
                            },
                        influence: if won {
                            survives * self.gain as f64
                        } else {
                            0.0
                        },
                        spoils: if won { self.spoils as f64 } else { 0.0 },
                        veteran_gained: self.gains_veteran(result, lost_regular) as u32 as f64,
                        war_defeated: (won && self.kind == Kind::Land) as u32 as f64,
                    });
                }
            }
        }
        out
    }

    fn gains_veteran(&self, result: usize, lost_regular: u32) -> bool {
        self.veteran_from_battle
            && matches!(result, VICTORY | STALEMATE | STANDOFF)
            && lost_regular < self.regular
    }

    pub(super) fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        if ex.counts.is_empty() {
            // A battle re-derived for survivors has no schema of its own: solve over the standard
            // one, laid out as `self.columns` (the scalars' bounds do not shape an exact answer).
            let mut schema = Schema::new(&OUTCOMES);
            let caps = Caps {
                legions: self.legions(),
                veterans: self.veteran,
                fleets: self.fleets,
                unrest: 1.0,
                popularity: 1.0,
                influence: 1.0,
                spoils: 1.0,
            };
            Columns::add(&mut schema, caps);
            ex = Exact::zeros(&schema);
        }
        let c = &self.columns;
        for b in self.solve_branches() {
            let w = b.weight;
            ex.outcomes[b.result] += w;
            ex.counts[c.legions_lost].add_mass((b.lost_regular + b.lost_veteran) as usize, w);
            ex.counts[c.veterans_lost].add_mass(b.lost_veteran as usize, w);
            ex.counts[c.fleets_lost].add_mass(b.lost_fleets as usize, w);
            ex.scalars[c.killed] += w * b.killed;
            ex.scalars[c.captured] += w * b.captured;
            ex.scalars[c.unrest] += w * b.unrest;
            ex.scalars[c.popularity] += w * b.popularity;
            ex.scalars[c.influence] += w * b.influence;
            ex.scalars[c.spoils] += w * b.spoils;
            ex.scalars[c.veteran_gained] += w * b.veteran_gained;
            ex.scalars[c.war_defeated] += w * b.war_defeated;
        }
        if let (Some(r), Some(k)) = (self.ransom, self.ransom_column) {
            ex.scalars[k] = ex.scalars[c.captured] * r;
        }
        ex
    }

    /// One battle with dice, by an army of the given size; `drm` is drawn when not given.
    pub(super) fn simulate_once(
        &self,
        dice: &mut Dice,
        regular: u32,
        veteran: u32,
        fleets: u32,
        drm: Option<i32>,
    ) -> Sim {
        self.simulate_used(dice, regular, veteran, fleets, drm, 0)
    }

    /// As [`Self::simulate_once`], with the Disaster and Standoff numbers in `used` already spent.
    pub(super) fn simulate_used(
        &self,
        dice: &mut Dice,
        regular: u32,
        veteran: u32,
        fleets: u32,
        drm: Option<i32>,
        used: u32,
    ) -> Sim {
        let roll = (dice.d(6) + dice.d(6) + dice.d(6)) as usize;
        // The modifier of the army actually fighting (survivors differ from the starting army).
        let troops = match self.kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        let drm = drm.unwrap_or_else(|| self.drm_for_troops(troops, dice));
        let (result, lost_l, lost_f) =
            self.resolve_army(roll, drm, regular + veteran, fleets, used);
        let spends = if matches!(result, DISASTER | STANDOFF) {
            1 << roll
        } else {
            0
        };
        let [lost_regular, lost_veteran] =
            draw_without_replacement(dice, [regular, veteran], lost_l);
        let (killed, captured) = if result == DEFEAT {
            (true, false)
        } else {
            self.cup.draw(lost_l + lost_f, result == VICTORY, dice)
        };
        let won = result == VICTORY;
        let gained = won && (!self.gain_requires_survival || !(killed || captured));
        Sim {
            spends,
            result,
            lost_regular,
            lost_veteran,
            lost_fleets: lost_f,
            killed,
            captured,
            unrest: unrest(result),
            popularity: self.popularity_loss(lost_regular, lost_veteran)
                + if gained { self.gain as f64 } else { 0.0 },
            influence: if gained { self.gain as f64 } else { 0.0 },
            spoils: if won { self.spoils as f64 } else { 0.0 },
            veteran_gained: self.veteran_from_battle
                && matches!(result, VICTORY | STALEMATE | STANDOFF)
                && lost_regular < regular,
            war_defeated: won && self.kind == Kind::Land,
        }
    }
}

/// The modifier for each MIL value: troops + MIL (capped at troops) + `base`, with its probability.
fn modifiers(mil: &Pmf, moh: u32, combined_cap: bool, troops: u32, base: i32) -> Vec<(i32, f64)> {
    let used = |m: u32| {
        if combined_cap {
            (m + moh).min(troops)
        } else {
            m.min(troops) + moh.min(troops)
        }
    };
    mil.0
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 0.0)
        .map(|(m, &p)| (base + troops as i32 + used(m as u32) as i32, p))
        .collect()
}

/// The modifier that goes with MIL value `m` (for the explanation line).
fn drms_for(drms: &[(i32, f64)], m: u32, mil: &Pmf) -> i32 {
    let index = mil
        .0
        .iter()
        .enumerate()
        .filter(|(_, &p)| p > 0.0)
        .position(|(v, _)| v as u32 == m)
        .unwrap_or(0);
    drms[index].0
}

impl RomanBattle {
    /// The same battle fought by another army (the survivors of an earlier battle).
    pub(super) fn with_army(&self, regular: u32, veteran: u32, fleets: u32) -> RomanBattle {
        let troops = match self.kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        RomanBattle {
            regular,
            veteran,
            fleets,
            drms: modifiers(&self.mil, self.moh, self.combined_cap, troops, self.base),
            mil: self.mil.clone(),
            describe: Vec::new(),
            notes: Vec::new(),
            schema: Schema::default(),
            ransom: None,
            ransom_column: None,
            ..*self
        }
    }
}

pub fn unrest(result: usize) -> f64 {
    match result {
        DEFEAT => 2.0,
        DISASTER => 1.0,
        VICTORY => -1.0,
        _ => 0.0,
    }
}

impl Simulate for RomanBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let b = self.simulate_once(dice, self.regular, self.veteran, self.fleets, None);
        out.outcome = b.result;
        self.columns.record(&b, out);
        if let (Some(r), Some(k)) = (self.ransom, self.ransom_column) {
            out.scalars[k] = b.captured as u32 as f64 * r;
        }
    }
}

/// One exact branch of a battle.
pub(super) struct Branch {
    /// The Disaster or Standoff number this branch spends (bit = roll), or 0.
    pub spends: u32,
    pub weight: f64,
    pub result: usize,
    pub lost_regular: u32,
    pub lost_veteran: u32,
    pub lost_fleets: u32,
    pub killed: f64,
    pub captured: f64,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
    pub veteran_gained: f64,
    pub war_defeated: f64,
}

/// One simulated battle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sim {
    pub spends: u32,
    pub result: usize,
    pub lost_regular: u32,
    pub lost_veteran: u32,
    pub lost_fleets: u32,
    pub killed: bool,
    pub captured: bool,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
    pub veteran_gained: bool,
    pub war_defeated: bool,
}

impl Sim {
    /// Adds a later battle by the same army to this one.
    pub(super) fn absorb(&mut self, later: &Sim) {
        self.spends |= later.spends;
        self.result = later.result;
        self.lost_regular += later.lost_regular;
        self.lost_veteran += later.lost_veteran;
        self.lost_fleets += later.lost_fleets;
        self.killed |= later.killed;
        self.captured |= later.captured;
        self.unrest += later.unrest;
        self.popularity += later.popularity;
        self.influence += later.influence;
        self.spoils += later.spoils;
        self.veteran_gained |= later.veteran_gained;
        self.war_defeated |= later.war_defeated;
    }
}

impl BattleModel for RomanBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        Ok(self.solve())
    }

    fn describe(&self) -> Vec<String> {
        self.describe.clone()
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    fn battle(kind: Kind, text: &str) -> RomanBattle {
        let table: Table = text.parse().unwrap();
        let f = Fields::new("test", &table);
        let empty = Table::new();
        let options =
            Options::resolve(super::super::OPTIONS, f.table("options", &empty).unwrap()).unwrap();
        RomanBattle::build(&f, options, kind).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn t12_marius_against_the_gladiators() {
        // Marius (MIL 4), 9 legions, no fleet, against the Gladiator Revolt (6) with Spartacus (5).
        let b = battle(
            Kind::Land,
            "enemy_leaders = [\"Spartacus\"]\n[rome]\nlegions = 9\ncommander_military = 4\n[war]\nname = \"Gladiator Revolt\"",
        );
        assert_eq!(b.drms, vec![(2, 1.0)]);
        // A roll of 10: total 12 → Stalemate, one legion lost and no fleet (there is none).
        assert_eq!(b.resolve(10, 2), (STALEMATE, 1, 0));
        // Rolls 6 and 11 are Disasters (5 legions lost), 14 and 16 Standoffs (3 lost).
        assert_eq!(b.resolve(6, 2), (DISASTER, 5, 0));
        assert_eq!(b.resolve(11, 2), (DISASTER, 5, 0));
        assert_eq!(b.resolve(14, 2), (STANDOFF, 3, 0));
        let ex = b.solve();
        assert!((ex.outcomes[DISASTER] - 37.0 / 216.0).abs() < 1e-12);
        assert!((ex.outcomes[STANDOFF] - 21.0 / 216.0).abs() < 1e-12);
        // With 3 legions his MIL counts as 3 only.
        let small = battle(Kind::Land, "enemy_leaders = [\"Spartacus\"]\n[rome]\nlegions = 3\ncommander_military = 4\n[war]\nname = \"Gladiator Revolt\"");
        assert_eq!(small.drms, vec![(3 + 3 - 11, 1.0)]);
    }

    #[test]
    fn t22_ransom() {
        // Influence 3 → 10 T (the minimum); Influence 8 → 16 T.
        assert_eq!(ransom(3), 10.0);
        assert_eq!(ransom(8), 16.0);
        let b = battle(Kind::Land, "[rome]\nlegions = 5\ncommander_military = 2\ncommander_influence = 8\n[war]\nname = \"Gladiator Revolt\"");
        let ex = b.solve();
        let (ransom, captured) = (b.ransom_column.unwrap(), b.columns.captured);
        assert!((ex.scalars[ransom] - 16.0 * ex.scalars[captured]).abs() < 1e-12);
        assert!(ex.scalars[captured] > 0.0);
    }

    #[test]
    fn t11_the_lusitanian_diagram() {
        // Lusitanian War (6) doubled by the Numantine War, with Viriathus (+5): 17. Rome: 16 strength, MIL 4.
        let text = |commander: &str| {
            format!("matching_wars = 2\nenemy_leaders = [\"Viriathus\"]\n[rome]\nlegions = 16\nfleets = 2\n{commander}\n[war]\nname = \"Lusitanian War\"")
        };
        let with = battle(Kind::Land, &text("commander = \"1B\""));
        assert_eq!(with.drms, vec![(3, 1.0)]);
        let without = battle(Kind::Land, &text("commander_military = 4"));
        assert_eq!(without.drms, vec![(3, 1.0)]);
        let (w, wo) = (with.solve(), without.solve());
        assert!(
            (w.outcomes[DISASTER] - 10.0 / 216.0).abs() < 1e-12,
            "{}",
            w.outcomes[DISASTER] * 216.0
        );
        assert!(
            (w.outcomes[STANDOFF] - 25.0 / 216.0).abs() < 1e-12,
            "{}",
            w.outcomes[STANDOFF] * 216.0
        );
        assert!((wo.outcomes[DISASTER] - 20.0 / 216.0).abs() < 1e-12);
        assert!((wo.outcomes[STANDOFF] - 58.0 / 216.0).abs() < 1e-12);
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_a_grid() {
        let progress = Progress::hidden();
        let mut cases = 0;
        let commanders = [
            "commander_military = 0",
            "commander = \"P. Cornelius Scipio Africanus\"",
            "commander = \"Q. Fabius Maximus Verrucosus Cunctator\"",
            "commander = \"Cn. Pompeius Magnus\"",
        ];
        for war in data().wars.iter().filter(|w| w.deck == "early") {
            for (legions, veterans, fleets) in
                [(1, 0, 1), (4, 2, 5), (9, 0, 8), (15, 5, 12), (20, 5, 25)]
            {
                for commander in commanders.map(|c| {
                    if c.starts_with("commander_military") {
                        format!("{c}\ncommander_influence = 7")
                    } else {
                        c.to_string()
                    }
                }) {
                    let kinds: &[Kind] = if war.naval > 0 {
                        &[Kind::Land, Kind::Naval]
                    } else {
                        &[Kind::Land]
                    };
                    for &kind in kinds {
                        let text = format!(
                            "matching_wars = {}\n[rome]\nlegions = {legions}\nveteran_legions = {veterans}\nfleets = {fleets}\n{commander}\n[war]\nname = \"{}\"\nnaval_victory = true\nfleet_support = 0",
                            1 + cases % 3,
                            war.name
                        );
                        let b = battle(kind, &text);
                        let ex = b.solve();
                        assert!((ex.outcomes.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                        let run = McRun {
                            trials: 40_000,
                            seed: 8,
                            stream: cases,
                            progress: &progress,
                        };
                        if let Err(e) = agreement(&b.schema, &ex, &b.monte_carlo(&run), 5.0) {
                            panic!("{kind:?} {text}\n{e}");
                        }
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases >= 100, "{cases}");
    }
}

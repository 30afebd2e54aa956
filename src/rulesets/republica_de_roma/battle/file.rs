//! The keys of a Roman battle file: Rome's army, the war and what surrounds it.

use super::*;

/// Legions (and fleets) Rome may have in existence (L635).
pub const MAX_UNITS: u32 = 25;

pub const ROME: &[&str] = &["rome"];
pub(super) const WAR: &[&str] = &["war"];

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
pub(super) const COMMANDER_INFLUENCE: Key = keys::int("commander_influence", 0, 100)
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

pub(super) const WAR_NAME: Key = Key::new(
    "name",
    Type::Text {
        format: "a war of the data (scenarios/republica-de-roma/wars.toml)",
        example: "\"1st Gallic War\"",
    },
)
.absent("a war given by its numbers (land_strength at least)")
.help("the war");
pub(super) const STRENGTH_HELP: &str = "the war's strength (overrides the named war's)";
pub(super) const LAND_STRENGTH: Key = keys::int("land_strength", 0, 100).help(STRENGTH_HELP);
pub(super) const NAVAL_STRENGTH: Key = keys::int("naval_strength", 0, 100).help(STRENGTH_HELP);
pub(super) const FLEET_SUPPORT: Key = keys::int("fleet_support", 0, MAX_UNITS as i64)
    .help("the fleets a land battle against the war needs (L649, L749)");
pub(super) const NUMBERS: Type = Type::List {
    format: "3d6 totals, 3 to 18, e.g. [13] or [11, 14]",
    example: "[13]",
};
pub(super) const DISASTER_NUMBERS: Key =
    Key::new("disaster_numbers", NUMBERS).help("the war's Disaster numbers");
pub(super) const STANDOFF_NUMBERS: Key =
    Key::new("standoff_numbers", NUMBERS).help("the war's Standoff numbers");
pub(super) const SPOILS: Key = keys::int("spoils", 0, 1000).help("the war's spoils in talents");
pub(super) const REVOLT: Key = keys::flag("revolt").help("a war that makes a province revolt");
pub(super) const SERIES: Key = Key::new(
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
pub(super) const WAR_KEYS: [Key; 10] = [
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

pub(super) const MATCHING_WARS: Key = keys::int("matching_wars", 1, 4)
    .default_int(1)
    .help("active wars of the series (multiplies the strength)");
pub(super) const ENEMY_LEADERS: Key = Key::new(
    "enemy_leaders",
    Type::List {
        format: "leader names from the data, e.g. [\"Hannibal\"]",
        example: "[\"Hannibal\"]",
    },
)
.help("the war's leaders");
pub(super) const EVIL_OMENS: Key = keys::int("evil_omens", 0, 5)
    .default_int(0)
    .help("Evil Omens cards in play");

/// A war and what surrounds it, for every battle against one.
pub const AGAINST_WAR: [Key; 13] = keys::join(&[
    &keys::placed(WAR_KEYS, WAR),
    &[MATCHING_WARS, ENEMY_LEADERS, EVIL_OMENS],
]);

/// The keys of a land or naval battle (and of both at once).
pub const KEYS: &[Key] = &keys::join::<20>(&[&keys::placed(ARMY_KEYS, ROME), &AGAINST_WAR]);

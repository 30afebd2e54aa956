//! The two sides of a combat (digest §3.0): a player's cards (Troops, Fleets carrying Troops,
//! Leaders, dice added by other cards), a non-player force with a fixed value and dice (Neutral
//! Attack, Pirates), or a barbarian area rolling (printed strength + Enraged level) dice.

use super::cards::{parse_cards, parse_leaders, total_of, Card, Combat};
use super::rolloff::Total;
use crate::battle::keys::{self, Key, Type};
use crate::error::{AleaError, Result};
use crate::spec::Fields;

#[derive(Clone, Debug, PartialEq)]
pub struct CardForce {
    pub troops: Vec<Card>,
    pub fleets: Vec<Card>,
    /// The fleet each troop is aboard (by index), when the force sails.
    pub aboard: Vec<Option<usize>>,
    /// Dice of each Leader card.
    pub leaders: Vec<u32>,
    /// Dice added by City Attack / City Defence / Special Event cards on this side.
    pub extra_dice: u32,
    /// A manual adjustment for card texts (digest §8.8).
    pub modifier: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Force {
    Cards(CardForce),
    /// A non-player force: a fixed value and dice; it loses a die (or 6 points) per "card" lost.
    NonPlayer {
        fixed: i32,
        dice: u32,
    },
    /// A barbarian area: its dice, no base die, no naval capability.
    Barbarian {
        dice: u32,
    },
}

const fn force(values: &'static [&'static str], help: &'static str) -> Key {
    keys::choice("force", values)
        .default_choice("cards")
        .help(help)
}
/// Any force: on land a side may be anyone.
pub const FORCE: Key = force(
    &["cards", "neutral", "barbarian"],
    "\"cards\": a player's cards; \"neutral\": a non-player force (fixed + dice, plus the base die); \"barbarian\": an area (strength + enraged dice, no base die)",
);
/// At sea, or intercepting: barbarians have no naval capability (L995-L996) and only the
/// attacked city's owner intercepts.
pub const SEA_FORCE: Key = force(
    &["cards", "neutral"],
    "\"cards\": a player's cards; \"neutral\": a non-player force (fixed + dice, plus the base die); never barbarians (no naval capability, L995-L996)",
);
/// A player's side: an expedition, or a city owner intercepting a raid.
pub const CARDS_FORCE: Key = force(&["cards"], "a player's cards");
pub const TROOPS: Key = Key::new(
    "troops",
    Type::List {
        format: "Troop cards, each an example card's name (scenarios/imperios-del-mediterraneo/cards.toml, values assumed) or inline { name, field, naval, assault } with values a number (fixed factors), \"Nd\" (N dice) or \"-\" (none)",
        example: "[\"Hoplitas\"]",
    },
)
.help("the side's Troop cards");
pub const FLEETS: Key = Key::new(
    "fleets",
    Type::List {
        format: "Fleet cards, as troops (the naval value is the cargo capacity; dice count as their number, A-58)",
        example: "[\"Trirremes\"]",
    },
)
.help("the side's Fleet cards");
pub const ABOARD: Key = Key::new(
    "aboard",
    Type::List {
        format: "for each troop, the fleet (1, 2, …) carrying it at sea",
        example: "[1]",
    },
)
.absent("spread to keep the largest cargo small (A-26)")
.help("which fleet carries each troop (naval battles)");
pub const LEADERS: Key = Key::new(
    "leaders",
    Type::List {
        format: "Leader cards, each its dice 0-10 (e.g. [1, 2]) or an example leader's name (Estratega, Gran general)",
        example: "[1]",
    },
)
.help("the side's Leader cards");
pub const EXTRA_DICE: Key = keys::int("extra_dice", 0, 30)
    .default_int(0)
    .help("dice added by City Attack / City Defence / Special Event cards on this side");
pub const MODIFIER: Key = keys::int("modifier", -50, 50)
    .default_int(0)
    .help("a flat adjustment for card texts (digest §8.8)");
pub const FIXED: Key = keys::int("fixed", 0, 99)
    .default_int(0)
    .help("a neutral force's fixed value (e.g. 6)");
pub const DICE: Key = keys::int("dice", 0, 30)
    .default_int(0)
    .help("a neutral force's dice");
pub const STRENGTH: Key = keys::int("strength", 0, 10)
    .default_int(1)
    .help("a barbarian area's printed strength");
pub const ENRAGED: Key = keys::int("enraged", 0, 3)
    .default_int(0)
    .help("a barbarian area's Enraged level");

/// The keys of a side on land, whichever its force: nothing is aboard.
pub const LAND_SIDE_KEYS: [Key; 10] = [
    FORCE, TROOPS, FLEETS, LEADERS, EXTRA_DICE, MODIFIER, FIXED, DICE, STRENGTH, ENRAGED,
];
/// The keys of a side at sea: cards or a neutral force.
pub const SEA_SIDE_KEYS: [Key; 9] = [
    SEA_FORCE, TROOPS, FLEETS, ABOARD, LEADERS, EXTRA_DICE, MODIFIER, FIXED, DICE,
];
/// The keys of a land interceptor: cards or a neutral force.
pub const INTERCEPTOR_KEYS: [Key; 8] = [
    SEA_FORCE, TROOPS, FLEETS, LEADERS, EXTRA_DICE, MODIFIER, FIXED, DICE,
];
/// The keys of an expedition: a player's cards, aboard when it sails.
pub const EXPEDITION_KEYS: [Key; 7] = [
    CARDS_FORCE,
    TROOPS,
    FLEETS,
    ABOARD,
    LEADERS,
    EXTRA_DICE,
    MODIFIER,
];
/// The keys of a city owner intercepting a raid: his cards.
pub const OWNER_KEYS: [Key; 6] = [CARDS_FORCE, TROOPS, FLEETS, LEADERS, EXTRA_DICE, MODIFIER];
const CARD_KEYS: &[Key] = &[FORCE, TROOPS, FLEETS, ABOARD, LEADERS, EXTRA_DICE, MODIFIER];
const NEUTRAL_KEYS: &[Key] = &[FORCE, FIXED, DICE];
pub const BARBARIAN_KEYS: &[Key] = &[FORCE, STRENGTH, ENRAGED];

/// Reads one side whose kind the key `force` declares. `naval` asks for a loading of the troops
/// on the fleets.
pub fn parse_force(f: &Fields, naval: bool, force: &Key) -> Result<Force> {
    match force.choice(f)? {
        "neutral" => {
            keys::only(f, NEUTRAL_KEYS, "to a force = \"neutral\"")?;
            let fixed = FIXED.int(f)? as i32;
            let dice = DICE.int(f)? as u32;
            Ok(Force::NonPlayer { fixed, dice })
        }
        "barbarian" => {
            keys::only(f, BARBARIAN_KEYS, "to a force = \"barbarian\"")?;
            let strength = STRENGTH.int(f)? as u32;
            let enraged = ENRAGED.int(f)? as u32;
            Ok(Force::Barbarian {
                dice: strength + enraged,
            })
        }
        _ => {
            keys::only(f, CARD_KEYS, "to a player's cards (force = \"cards\")")?;
            let troops = parse_cards(f, &TROOPS, "troop")?;
            let fleets = parse_cards(f, &FLEETS, "fleet")?;
            let leaders = parse_leaders(f, &LEADERS)?;
            let extra_dice = EXTRA_DICE.int(f)? as u32;
            let modifier = MODIFIER.int(f)? as i32;
            let aboard = if naval && !fleets.is_empty() {
                loading(f, &troops, &fleets)?
            } else {
                vec![None; troops.len()]
            };
            Ok(Force::Cards(CardForce {
                troops,
                fleets,
                aboard,
                leaders,
                extra_dice,
                modifier,
            }))
        }
    }
}

/// Which fleet carries each troop: as given, or spread over the fleets' free capacity so that
/// the largest cargo is as small as it can be. Capacity is checked either way (L667-L670).
fn loading(f: &Fields, troops: &[Card], fleets: &[Card]) -> Result<Vec<Option<usize>>> {
    let capacity: Vec<u32> = fleets.iter().map(|c| c.naval.as_count()).collect();
    let total: u32 = capacity.iter().sum();
    if troops.len() as u32 > total {
        return Err(AleaError::input(
            f.source,
            f.field("troops"),
            format!("{} troops", troops.len()),
            format!("at most {total}, the cargo capacity of the fleets (their naval values)"),
        ));
    }
    let mut load = vec![0u32; fleets.len()];
    let mut aboard = Vec::new();
    match ABOARD.raw(f)? {
        Some(toml::Value::Array(items)) => {
            if items.len() != troops.len() {
                return Err(AleaError::input(
                    f.source,
                    f.field("aboard"),
                    format!("{} entries", items.len()),
                    format!("one fleet number per troop ({})", troops.len()),
                ));
            }
            for (i, v) in items.iter().enumerate() {
                let k = v
                    .as_integer()
                    .filter(|k| (1..=fleets.len() as i64).contains(k))
                    .ok_or_else(|| {
                        AleaError::input(
                            f.source,
                            format!("{}[{i}]", f.field("aboard")),
                            crate::spec::value_text(v),
                            format!("a fleet number 1-{}", fleets.len()),
                        )
                    })? as usize
                    - 1;
                load[k] += 1;
                if load[k] > capacity[k] {
                    return Err(AleaError::input(
                        f.source,
                        format!("{}[{i}]", f.field("aboard")),
                        k + 1,
                        format!("a fleet with room: fleet {} carries {}", k + 1, capacity[k]),
                    ));
                }
                aboard.push(Some(k));
            }
        }
        Some(other) => {
            return Err(AleaError::input(
                f.source,
                f.field("aboard"),
                crate::spec::value_text(other),
                "a list of fleet numbers, one per troop",
            ))
        }
        None => {
            for _ in troops {
                let k = (0..fleets.len())
                    .filter(|&k| load[k] < capacity[k])
                    .min_by_key(|&k| (load[k], std::cmp::Reverse(capacity[k])))
                    .expect("capacity was checked");
                load[k] += 1;
                aboard.push(Some(k));
            }
        }
    }
    Ok(aboard)
}

impl Force {
    /// The cards the side lays down in this kind of combat (Troops; Fleets and Troops at sea;
    /// in an assault the cards with an assault value, fleets only when `fleets_fight`).
    pub fn fighting(&self, c: Combat, fleets_fight: bool) -> Vec<&Card> {
        match self {
            Force::Cards(cf) => match c {
                Combat::Field => cf.troops.iter().filter(|t| t.field.usable()).collect(),
                Combat::Naval => cf.fleets.iter().chain(&cf.troops).collect(),
                Combat::Assault => cf
                    .troops
                    .iter()
                    .chain(cf.fleets.iter().filter(|_| fleets_fight))
                    .filter(|t| t.assault.usable())
                    .collect(),
            },
            _ => Vec::new(),
        }
    }

    /// The side's total: its cards' values, leaders' and other cards' dice, and the base die when
    /// it rolls one.
    pub fn total(&self, c: Combat, base_die: bool, fleets_fight: bool) -> Total {
        let mut t = match self {
            Force::Cards(cf) => {
                let mut t = total_of(self.fighting(c, fleets_fight).into_iter(), c);
                t.dice += cf.leaders.iter().sum::<u32>() + cf.extra_dice;
                t.fixed += cf.modifier;
                t
            }
            Force::NonPlayer { fixed, dice } => Total {
                fixed: *fixed,
                dice: *dice,
            },
            Force::Barbarian { dice } => Total {
                fixed: 0,
                dice: *dice,
            },
        };
        if base_die && !matches!(self, Force::Barbarian { .. }) {
            t.dice += 1;
        }
        t
    }

    /// A non-card force after losing "a card" (L1160-L1169, A-47): a die while it has dice, else
    /// 6 points; None when nothing is left (its attack ends).
    pub fn lose_card(&self) -> Option<Force> {
        let left = match *self {
            Force::NonPlayer { fixed, dice } if dice > 0 => Force::NonPlayer {
                fixed,
                dice: dice - 1,
            },
            Force::NonPlayer { fixed, dice } => Force::NonPlayer {
                fixed: (fixed - 6).max(0),
                dice,
            },
            Force::Barbarian { dice } => Force::Barbarian {
                dice: dice.saturating_sub(1),
            },
            Force::Cards(_) => return Some(self.clone()),
        };
        match left {
            Force::NonPlayer { fixed: 0, dice: 0 } | Force::Barbarian { dice: 0 } => None,
            f => Some(f),
        }
    }

    pub fn is_player(&self) -> bool {
        matches!(self, Force::Cards(_))
    }

    /// Every card the side has played (troops, fleets, leaders).
    pub fn card_count(&self) -> usize {
        match self {
            Force::Cards(cf) => cf.troops.len() + cf.fleets.len() + cf.leaders.len(),
            _ => 0,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Force::Cards(cf) => {
                let mut parts = Vec::new();
                if !cf.troops.is_empty() {
                    let t: Vec<String> = cf.troops.iter().map(|x| x.show()).collect();
                    parts.push(format!("troops {}", t.join(", ")));
                }
                if !cf.fleets.is_empty() {
                    let t: Vec<String> = cf.fleets.iter().map(|x| x.show()).collect();
                    parts.push(format!("fleets {}", t.join(", ")));
                }
                if !cf.leaders.is_empty() {
                    let t: Vec<String> = cf.leaders.iter().map(|d| format!("{d}d")).collect();
                    parts.push(format!("leaders {}", t.join(", ")));
                }
                if cf.extra_dice > 0 {
                    parts.push(format!("{} extra dice", cf.extra_dice));
                }
                if cf.modifier != 0 {
                    parts.push(format!("modifier {:+}", cf.modifier));
                }
                if parts.is_empty() {
                    "no cards".into()
                } else {
                    format!("{} (values field/naval/assault)", parts.join("; "))
                }
            }
            Force::NonPlayer { fixed, dice } => {
                format!("non-player force: {fixed} + {dice}d, plus the base die")
            }
            Force::Barbarian { dice } => format!(
                "barbarian area: {dice} {}, no base die",
                if *dice == 1 { "die" } else { "dice" }
            ),
        }
    }
}

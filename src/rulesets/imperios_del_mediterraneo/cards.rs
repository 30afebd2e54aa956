//! Cards as data (digest §3.0, §4.2): a card's field, naval and assault values, each a fixed number
//! of combat factors, a number of dice, or "-" (no part in that kind of combat). The rulebook does
//! not list the cards; `scenarios/imperios-del-mediterraneo/cards.toml` holds assumed examples, and a
//! battle file may describe its own cards inline.

use super::rolloff::Total;
use crate::battle::keys::Key;
use crate::error::{AleaError, Result};
use crate::spec::{value_text, Fields};
use std::sync::OnceLock;
use toml::{Table, Value};

/// One printed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cv {
    Dash,
    Fixed(u32),
    Dice(u32),
}

impl Cv {
    pub fn usable(&self) -> bool {
        *self != Cv::Dash
    }

    fn add_to(&self, t: &mut Total) {
        match *self {
            Cv::Dash => {}
            Cv::Fixed(n) => t.fixed += n as i32,
            Cv::Dice(k) => t.dice += k,
        }
    }

    /// A fleet's cargo capacity from its naval value: dice count as their number.
    pub fn as_count(&self) -> u32 {
        match *self {
            Cv::Dash => 0,
            Cv::Fixed(n) | Cv::Dice(n) => n,
        }
    }

    fn show(&self) -> String {
        match *self {
            Cv::Dash => "-".into(),
            Cv::Fixed(n) => n.to_string(),
            Cv::Dice(k) => format!("{k}d"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    Field,
    Naval,
    Assault,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub name: String,
    pub field: Cv,
    pub naval: Cv,
    pub assault: Cv,
}

impl Card {
    pub fn value(&self, c: Combat) -> Cv {
        match c {
            Combat::Field => self.field,
            Combat::Naval => self.naval,
            Combat::Assault => self.assault,
        }
    }

    pub fn show(&self) -> String {
        format!(
            "{} ({}/{}/{})",
            self.name,
            self.field.show(),
            self.naval.show(),
            self.assault.show()
        )
    }
}

/// The sum a set of cards adds to a side's total in one kind of combat.
pub fn total_of<'a>(cards: impl Iterator<Item = &'a Card>, c: Combat) -> Total {
    let mut t = Total::default();
    for card in cards {
        card.value(c).add_to(&mut t);
    }
    t
}

pub struct Deck {
    pub cards: Vec<(Card, Vec<String>, Option<u32>)>,
}

/// The example deck (names, types, values; a leader's dice).
pub fn deck() -> &'static Deck {
    static DECK: OnceLock<Deck> = OnceLock::new();
    DECK.get_or_init(|| {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/imperios-del-mediterraneo/cards.toml"
        ));
        let table: Table = text.parse().expect("cards.toml parses");
        let list = table
            .get("card")
            .and_then(Value::as_array)
            .expect("cards.toml has [[card]] entries");
        let cards = list
            .iter()
            .map(|v| {
                let t = v.as_table().expect("a [[card]] is a table");
                let name = t["name"].as_str().expect("a card has a name").to_string();
                let types = t["types"]
                    .as_array()
                    .expect("a card has types")
                    .iter()
                    .map(|x| x.as_str().expect("a type is a string").to_string())
                    .collect();
                let cv = |k: &str| {
                    t.get(k)
                        .map_or(Some(Cv::Dash), parse_cv)
                        .unwrap_or_else(|| panic!("cards.toml: {name}.{k}"))
                };
                let card = Card {
                    field: cv("field"),
                    naval: cv("naval"),
                    assault: cv("assault"),
                    name,
                };
                let dice = t.get("dice").and_then(Value::as_integer).map(|d| d as u32);
                (card, types, dice)
            })
            .collect();
        Deck { cards }
    })
}

/// An integer = fixed factors, "Nd" or "Nd6" = N dice, "-" = none.
pub fn parse_cv(v: &Value) -> Option<Cv> {
    match v {
        Value::Integer(n) if (0..=99).contains(n) => Some(Cv::Fixed(*n as u32)),
        Value::String(s) if s.trim() == "-" => Some(Cv::Dash),
        Value::String(s) => {
            let s = s.trim().to_ascii_lowercase();
            let k = s.strip_suffix("d6").or_else(|| s.strip_suffix('d'))?;
            let k: u32 = k.parse().ok()?;
            (1..=20).contains(&k).then_some(Cv::Dice(k))
        }
        _ => None,
    }
}

const CV_ALLOWED: &str =
    "a whole number of combat factors 0-99, \"Nd\" for N dice (1-20), or \"-\" for none";

/// A card from a battle file: the name of an example card, or an inline table
/// `{ name = "…", field = 3, naval = "-", assault = "1d" }` (missing values are "-").
pub fn parse_card(f: &Fields, key: &str, i: usize, v: &Value, role: &str) -> Result<Card> {
    let field = format!("{}[{i}]", f.field(key));
    match v {
        Value::String(name) => {
            let found = deck().cards.iter().find(|c| c.0.name == *name);
            match found {
                Some((card, types, _)) if types.iter().any(|t| t == role) => Ok(card.clone()),
                Some(_) => Err(AleaError::input(
                    f.source,
                    field,
                    value_text(v),
                    format!("a card that can be played as a {role}"),
                )),
                None => {
                    let names: Vec<&str> = deck()
                        .cards
                        .iter()
                        .filter(|c| c.1.iter().any(|t| t == role))
                        .map(|c| c.0.name.as_str())
                        .collect();
                    Err(AleaError::input(
                        f.source,
                        field,
                        value_text(v),
                        format!(
                            "an inline card {{ field = …, naval = …, assault = … }} or an example {role} card: {}",
                            names.join(", ")
                        ),
                    ))
                }
            }
        }
        Value::Table(t) => {
            for k in t.keys() {
                if !["name", "field", "naval", "assault"].contains(&k.as_str()) {
                    return Err(AleaError::input(
                        f.source,
                        format!("{field}.{k}"),
                        value_text(&t[k]),
                        "a card's keys: name, field, naval, assault",
                    ));
                }
            }
            let cv = |k: &str| -> Result<Cv> {
                match t.get(k) {
                    None => Ok(Cv::Dash),
                    Some(x) => parse_cv(x).ok_or_else(|| {
                        AleaError::input(
                            f.source,
                            format!("{field}.{k}"),
                            value_text(x),
                            CV_ALLOWED,
                        )
                    }),
                }
            };
            Ok(Card {
                name: t
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("{role} {}", i + 1), str::to_string),
                field: cv("field")?,
                naval: cv("naval")?,
                assault: cv("assault")?,
            })
        }
        other => Err(AleaError::input(
            f.source,
            field,
            value_text(other),
            "an example card's name or an inline card table",
        )),
    }
}

/// A list of cards under `key` (absent = none).
pub fn parse_cards(f: &Fields, list: &Key, role: &str) -> Result<Vec<Card>> {
    let key = list.name;
    match list.raw(f)? {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| parse_card(f, key, i, v, role))
            .collect(),
        Some(other) => Err(AleaError::input(
            f.source,
            f.field(key),
            value_text(other),
            "a list of cards",
        )),
    }
}

/// Leader cards: a list of example leader names or of dice counts (the dice each adds).
pub fn parse_leaders(f: &Fields, list: &Key) -> Result<Vec<u32>> {
    match list.raw(f)? {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let field = format!("{}[{i}]", list.field(f));
                match v {
                    Value::Integer(n) if (0..=10).contains(n) => Ok(*n as u32),
                    Value::String(name) => deck()
                        .cards
                        .iter()
                        .find(|c| c.0.name == *name && c.1.iter().any(|t| t == "leader"))
                        .and_then(|c| c.2)
                        .ok_or_else(|| {
                            AleaError::input(
                                f.source,
                                field,
                                value_text(v),
                                "a leader's dice 0-10 or an example leader card (Estratega, Gran general)",
                            )
                        }),
                    other => Err(AleaError::input(
                        f.source,
                        field,
                        value_text(other),
                        "a leader's dice 0-10 or an example leader card's name",
                    )),
                }
            })
            .collect(),
        Some(other) => Err(AleaError::input(
            f.source,
            list.field(f),
            value_text(other),
            "a list of leaders (dice each, or example leader names)",
        )),
    }
}

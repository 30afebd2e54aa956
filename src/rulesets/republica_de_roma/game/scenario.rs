//! A scenario's set-up, read from its era file (`scenarios/republica-de-roma/early-republic.toml`
//! and its siblings; digest §5.3-§5.6). The card values come from the card files through
//! [`super::cards::Cards`]; the era file says how the decks are built, what is dealt, and the
//! starting Treasury, Unrest and legions.

use super::cards::{era_index, Cards};
use crate::error::{AleaError, Result};
use crate::spec::{toml_error, Fields};
use std::path::Path;
use toml::{Table, Value};

/// Extra Faction cards from other decks shuffled in unseen (Middle and Late set-ups).
#[derive(Clone, Debug, Default)]
pub struct AddedCards {
    pub from: Vec<u8>,
    pub exclude_statesmen: bool,
    pub exclude_concessions: bool,
    pub exclude_laws: bool,
    pub count: u32,
}

#[derive(Clone, Debug)]
pub struct Setup {
    pub id: String,
    pub title: String,
    /// The decks in the order they enter play (one, or several in the extended game).
    pub decks: Vec<u8>,
    /// Alternative history: every deck mixed into one, the era set by the turn.
    pub mixed: bool,
    pub era_by_turn: Vec<(u32, u8)>,
    pub era_ends_among_last: u32,
    pub treasury: i32,
    pub unrest: i32,
    pub legions: u32,
    pub fleets: u32,
    /// 1d6 result a legion needs to follow a rebel, per era (L821).
    pub loyalty_threshold: [u8; 3],
    pub forum_inactive_wars: Vec<u8>,
    pub family_pool: Vec<u8>,
    pub families_per_player: u32,
    pub faction_cards_per_player: u32,
    pub concessions_added: bool,
    pub added: AddedCards,
    pub laws_in_force: Vec<u8>,
    pub laws_removed: Vec<u8>,
    /// Provinces dealt one per player: (ids, developed side).
    pub provinces: Vec<(Vec<u8>, bool)>,
    pub consul_influence: i32,
    /// The packet under the last deck: (deck, count), plus The Era Ends.
    pub bottom: Vec<(u8, u32)>,
}

struct EraFile {
    source: String,
    table: Table,
}

fn read(path: &Path, source: &str, field: &str) -> Result<EraFile> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        AleaError::input(
            source,
            field,
            format!("\"{}\" ({e})", path.display()),
            "a readable scenario file, e.g. scenarios/republica-de-roma/early-republic.toml",
        )
    })?;
    let shown = path.display().to_string();
    let table: Table =
        toml::from_str(&text).map_err(|e| toml_error(&shown, "scenario", &text, &e))?;
    Ok(EraFile {
        source: shown,
        table,
    })
}

fn ids(f: &Fields, key: &str, lookup: impl Fn(&str) -> Option<u8>, what: &str) -> Result<Vec<u8>> {
    let Some(v) = f.raw(key) else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = v else {
        return Err(AleaError::input(
            f.source,
            f.field(key),
            v,
            format!("a list of {what}"),
        ));
    };
    items
        .iter()
        .map(|x| {
            x.as_str().and_then(&lookup).ok_or_else(|| {
                AleaError::input(f.source, f.field(key), x, format!("a list of {what}"))
            })
        })
        .collect()
}

fn eras(f: &Fields, key: &str) -> Result<Vec<u8>> {
    ids(f, key, era_index, "eras: \"early\", \"middle\", \"late\"")
}

fn int(f: &Fields, key: &str, lo: i64, hi: i64, default: i64) -> Result<i64> {
    Ok(f.int_in(key, lo, hi)?.unwrap_or(default))
}

impl Setup {
    /// Reads a scenario: an era file, the extended file (with `variant`), or the alternative
    /// history file. `source`/`field` name the experiment's key for errors about the path itself.
    pub fn load(
        path: &str,
        variant: Option<&str>,
        cards: &Cards,
        source: &str,
        field: &str,
    ) -> Result<Setup> {
        let file = read(Path::new(path), source, field)?;
        let dir = Path::new(path).parent().unwrap_or(Path::new("."));
        let top = Fields::new(&file.source, &file.table);
        let empty = Table::new();
        // The loyalty thresholds of the three eras, from their own files when present.
        let mut thresholds = [5u8, 4, 3];
        for (e, name) in [
            "early-republic.toml",
            "middle-republic.toml",
            "late-republic.toml",
        ]
        .iter()
        .enumerate()
        {
            let p = dir.join(name);
            if p.exists() {
                let f = read(&p, source, field)?;
                let t = Fields::new(&f.source, &f.table);
                let sc = t.table("scenario", &empty)?;
                thresholds[e] =
                    int(&sc, "legion_loyalty_threshold", 1, 7, thresholds[e] as i64)? as u8;
            }
        }
        if top.has("variant") {
            // extended.toml: pick a variant, set up from its first scenario, EoE per its last.
            let wanted = variant.unwrap_or("early_to_middle");
            let Some(Value::Array(variants)) = top.raw("variant") else {
                return Err(AleaError::input(
                    &file.source,
                    "variant",
                    "",
                    "[[variant]] tables",
                ));
            };
            let names: Vec<&str> = variants
                .iter()
                .filter_map(|v| v.get("id").and_then(Value::as_str))
                .collect();
            let Some(v) = variants
                .iter()
                .find(|v| v.get("id").and_then(Value::as_str) == Some(wanted))
            else {
                return Err(AleaError::input(
                    source,
                    "variant",
                    format!("\"{wanted}\""),
                    format!("a variant of {}: {}", file.source, names.join(", ")),
                ));
            };
            let vt = v.as_table().cloned().unwrap_or_default();
            let vf = Fields::new(&file.source, &vt);
            let decks = eras(&vf, "decks")?;
            let first = vf.string("setup")?.unwrap_or("early-republic.toml");
            let last = vf.string("era_ends_rule")?.unwrap_or("late-republic.toml");
            let first_path = dir.join(first).display().to_string();
            let last_path = dir.join(last).display().to_string();
            let mut setup = Setup::load(&first_path, None, cards, source, field)?;
            let last_setup = Setup::load(&last_path, None, cards, source, field)?;
            setup.id = format!("extended_{wanted}");
            setup.title = format!("Extended game ({})", wanted.replace('_', " "));
            setup.decks = decks;
            setup.bottom = last_setup.bottom;
            setup.loyalty_threshold = thresholds;
            return Ok(setup);
        }
        let sc = top.table("scenario", &empty)?;
        if let Some(base) = sc.string("setup")? {
            // alternative-history.toml: an Early set-up with every deck mixed.
            let base_path = dir.join(base).display().to_string();
            let mut setup = Setup::load(&base_path, None, cards, source, field)?;
            setup.id = sc
                .string("id")?
                .unwrap_or("alternative_history")
                .to_string();
            setup.title = sc
                .string("name")?
                .unwrap_or("Alternative History")
                .to_string();
            setup.decks = eras(&sc, "decks")?;
            setup.mixed = true;
            setup.family_pool = eras(&sc, "family_pool")?;
            setup.families_per_player = int(
                &sc,
                "family_cards_per_player",
                1,
                6,
                setup.families_per_player as i64,
            )? as u32;
            setup.era_ends_among_last = int(&sc, "era_ends_among_last", 1, 60, 12)? as u32;
            setup.bottom.clear();
            if let Some(Value::Array(rows)) = sc.raw("era_by_turn") {
                setup.era_by_turn = rows
                    .iter()
                    .map(|r| {
                        let turn = r.get("from_turn").and_then(Value::as_integer);
                        let era = r.get("era").and_then(Value::as_str).and_then(era_index);
                        match (turn, era) {
                            (Some(t), Some(e)) if t >= 1 => Ok((t as u32, e)),
                            _ => Err(AleaError::input(
                                &file.source,
                                "scenario.era_by_turn",
                                r,
                                "{ from_turn = N, era = \"early\" | \"middle\" | \"late\" }",
                            )),
                        }
                    })
                    .collect::<Result<_>>()?;
            }
            setup.loyalty_threshold = thresholds;
            return Ok(setup);
        }
        let deck_era = sc
            .choice("deck_era", &["early", "middle", "late"])?
            .and_then(era_index)
            .ok_or_else(|| {
                AleaError::input(
                    &file.source,
                    "scenario.deck_era",
                    "nothing",
                    "\"early\", \"middle\" or \"late\"",
                )
            })?;
        let st = top.table("setup", &empty)?;
        let war = |s: &str| cards.wars.iter().position(|w| w.id == s).map(|i| i as u8);
        let law = |s: &str| cards.laws.iter().position(|l| l.0 == s).map(|i| i as u8);
        let province = |s: &str| {
            cards
                .provinces
                .iter()
                .position(|p| p.id == s)
                .map(|i| i as u8)
        };
        let mut provinces = Vec::new();
        if let Some(Value::Array(groups)) = st.raw("provinces") {
            for g in groups {
                let gt = g.as_table().cloned().unwrap_or_default();
                let gf = Fields::new(&file.source, &gt);
                let list = ids(&gf, "ids", province, "province ids from provinces.toml")?;
                let side = gf
                    .choice("side", &["undeveloped", "developed"])?
                    .unwrap_or("undeveloped");
                provinces.push((list, side == "developed"));
            }
        }
        let mut added = AddedCards::default();
        if let Some(Value::Table(t)) = st.raw("faction_cards_added") {
            let af = Fields::new(&file.source, t);
            added.from = eras(&af, "from_decks")?;
            added.count = int(&af, "count", 0, 60, 0)? as u32;
            if let Some(Value::Array(ex)) = af.raw("exclude") {
                for x in ex {
                    match x.as_str() {
                        Some("statesmen") => added.exclude_statesmen = true,
                        Some("concessions") => added.exclude_concessions = true,
                        Some("laws") => added.exclude_laws = true,
                        _ => {
                            return Err(AleaError::input(
                                &file.source,
                                "setup.faction_cards_added.exclude",
                                x,
                                "card kinds: \"statesmen\", \"concessions\", \"laws\"",
                            ))
                        }
                    }
                }
            }
        }
        let bt = top.table("bottom_of_deck", &empty)?;
        let mut bottom = Vec::new();
        if let Some(Value::Array(parts)) = bt.raw("parts") {
            for p in parts {
                let deck = p.get("deck").and_then(Value::as_str).and_then(era_index);
                let count = p.get("count").and_then(Value::as_integer);
                match (deck, count) {
                    (Some(d), Some(c)) if (0..=60).contains(&c) => bottom.push((d, c as u32)),
                    _ => {
                        return Err(AleaError::input(
                            &file.source,
                            "bottom_of_deck.parts",
                            p,
                            "{ deck = \"early\" | \"middle\" | \"late\", count = 0..60 }",
                        ))
                    }
                }
            }
        }
        Ok(Setup {
            id: sc.string("id")?.unwrap_or("scenario").to_string(),
            title: sc
                .string("name")?
                .unwrap_or("República de Roma")
                .to_string(),
            decks: vec![deck_era],
            mixed: false,
            era_by_turn: Vec::new(),
            era_ends_among_last: 0,
            treasury: int(&sc, "treasury", 0, 10_000, 100)? as i32,
            unrest: int(&sc, "unrest", 0, 50, 0)? as i32,
            legions: int(&sc, "legions", 0, 25, 4)? as u32,
            fleets: int(&sc, "fleets", 0, 25, 0)? as u32,
            loyalty_threshold: thresholds,
            forum_inactive_wars: ids(&st, "forum_inactive_wars", war, "war ids from wars.toml")?,
            family_pool: eras(&st, "family_pool")?,
            families_per_player: int(&st, "family_cards_per_player", 1, 6, 3)? as u32,
            faction_cards_per_player: int(&st, "faction_cards_per_player", 0, 6, 3)? as u32,
            concessions_added: st
                .raw("concessions_added")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty()),
            added,
            laws_in_force: ids(&st, "laws_in_force", law, "law ids from laws.toml")?,
            laws_removed: ids(&st, "laws_removed", law, "law ids from laws.toml")?,
            provinces,
            consul_influence: int(&st, "initial_consul_influence", 0, 20, 5)? as i32,
            bottom,
        })
    }

    /// The era in force at `turn` when the era follows the turn (alternative history).
    pub fn era_at_turn(&self, turn: u32) -> Option<u8> {
        self.era_by_turn
            .iter()
            .rev()
            .find(|(t, _)| turn >= *t)
            .map(|(_, e)| *e)
    }
}

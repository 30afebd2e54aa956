//! The card values and tables of `scenarios/republica-de-roma/` (provenance recorded there). They are
//! embedded at build time so that the binary answers from anywhere; the files remain the data.

use crate::error::{close_matches, AleaError, Result};
use serde::Deserialize;
use std::sync::OnceLock;

macro_rules! scenario {
    ($file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/republica-de-roma/",
            $file
        ))
    };
}

#[derive(Debug, Deserialize)]
pub struct War {
    pub name: String,
    pub deck: String,
    #[serde(default)]
    pub series: String,
    pub land: u32,
    pub fleet_support: u32,
    pub naval: u32,
    pub disaster: Vec<u32>,
    pub standoff: Vec<u32>,
    pub spoils: u32,
    #[serde(default)]
    pub revolt: bool,
}

#[derive(Debug, Deserialize)]
pub struct EnemyLeader {
    pub name: String,
    pub strength: u32,
    pub disaster: Vec<u32>,
    pub standoff: Vec<u32>,
    pub matching_series: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct Nullifies {
    #[serde(default)]
    pub series: Vec<String>,
    #[serde(default)]
    pub wars: Vec<String>,
}

/// A rating rolled each time it is used (Pompey's MIL is 1d6 + 1).
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct RatingRoll {
    pub dice: u32,
    pub sides: u32,
    pub plus: u32,
}

#[derive(Debug, Deserialize)]
pub struct Statesman {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub military: Option<u32>,
    #[serde(default)]
    pub military_roll: Option<RatingRoll>,
    #[serde(default)]
    pub halves_losses: bool,
    #[serde(default)]
    pub nullifies: Option<Nullifies>,
}

#[derive(Debug, Deserialize)]
pub struct Senator {
    pub id: u32,
    pub name: String,
    pub military: u32,
}

#[derive(Debug, Deserialize)]
pub struct CrtRow {
    pub min_total: Option<i32>,
    pub max_total: Option<i32>,
    pub result: String,
    pub losses: toml::Value,
}

#[derive(Debug, Deserialize)]
pub struct ChitPool {
    pub numbered: u32,
    pub draw_two: u32,
    pub blank: u32,
}

#[derive(Debug, Deserialize)]
struct WarsFile {
    war: Vec<War>,
}
#[derive(Debug, Deserialize)]
struct LeadersFile {
    leader: Vec<EnemyLeader>,
}
#[derive(Debug, Deserialize)]
struct StatesmenFile {
    statesman: Vec<Statesman>,
}
#[derive(Debug, Deserialize)]
struct SenatorsFile {
    senator: Vec<Senator>,
}
#[derive(Debug, Deserialize)]
struct CrtFile {
    row: Vec<CrtRow>,
}
#[derive(Debug, Deserialize)]
struct ChitsFile {
    pool: ChitPool,
}

pub struct Data {
    pub wars: Vec<War>,
    pub leaders: Vec<EnemyLeader>,
    pub statesmen: Vec<Statesman>,
    pub senators: Vec<Senator>,
    pub crt: Vec<CrtRow>,
    pub chits: ChitPool,
}

fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> T {
    // The files are part of the build and tested; a failure here is a bug in the shipped data.
    toml::from_str(text).unwrap_or_else(|e| panic!("scenarios/republica-de-roma/{file}: {e}"))
}

pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| Data {
        wars: parse::<WarsFile>("wars.toml", scenario!("wars.toml")).war,
        leaders: parse::<LeadersFile>("enemy-leaders.toml", scenario!("enemy-leaders.toml")).leader,
        statesmen: parse::<StatesmenFile>("statesmen.toml", scenario!("statesmen.toml")).statesman,
        senators: parse::<SenatorsFile>("senators.toml", scenario!("senators.toml")).senator,
        crt: parse::<CrtFile>("combat-results.toml", scenario!("combat-results.toml")).row,
        chits: parse::<ChitsFile>("mortality-chits.toml", scenario!("mortality-chits.toml")).pool,
    })
}

/// A commander from the data: a statesman (by name or id) or a family senator (by name).
pub struct Commander {
    pub name: String,
    /// MIL as a distribution: a number, or a roll such as Pompey's 1d6 + 1.
    pub mil: crate::exact::Pmf,
    pub halves_losses: bool,
    /// War series and war names whose own Disaster and Standoff numbers he cancels.
    pub nullifies: Option<&'static Nullifies>,
}

impl Commander {
    /// Whether he cancels the Disaster and Standoff numbers of `war` (of series `series`).
    pub fn cancels(&self, war: &str, series: &str) -> bool {
        self.nullifies.is_some_and(|n| {
            n.wars.iter().any(|x| x == war)
                || (!series.is_empty() && n.series.iter().any(|x| x == series))
        })
    }
}

pub fn commander(source: &str, field: &str, wanted: &str) -> Result<Commander> {
    use crate::exact::Pmf;
    let d = data();
    let w = wanted.trim().to_lowercase();
    if let Some(s) = d
        .statesmen
        .iter()
        .find(|s| s.name.to_lowercase() == w || s.id.to_lowercase() == w)
    {
        let mil = match (s.military, s.military_roll) {
            (_, Some(r)) => Pmf::dice_sum(r.dice as usize, r.sides as usize)
                .convolve(&Pmf::point(r.plus as usize)),
            (Some(m), None) => Pmf::point(m as usize),
            (None, None) => Pmf::point(0),
        };
        return Ok(Commander {
            name: s.name.clone(),
            mil,
            halves_losses: s.halves_losses,
            nullifies: s.nullifies.as_ref(),
        });
    }
    if let Some(s) = d.senators.iter().find(|s| s.name.to_lowercase() == w) {
        return Ok(Commander {
            name: s.name.clone(),
            mil: Pmf::point(s.military as usize),
            halves_losses: false,
            nullifies: None,
        });
    }
    let names = d
        .statesmen
        .iter()
        .map(|s| s.name.as_str())
        .chain(d.senators.iter().map(|s| s.name.as_str()));
    let near = close_matches(wanted, names);
    let near = if near.is_empty() {
        "none".to_string()
    } else {
        near.join(", ")
    };
    Err(AleaError::input(
        source,
        field,
        format!("\"{wanted}\""),
        format!("a statesman or senator from the data; close matches: {near}"),
    ))
}

/// Finds a card by name (case-insensitive); an unknown name lists the close matches.
pub fn find<'a, T>(
    items: &'a [T],
    name_of: impl Fn(&T) -> &str,
    source: &str,
    field: &str,
    wanted: &str,
) -> Result<&'a T> {
    let w = wanted.trim().to_lowercase();
    if let Some(item) = items.iter().find(|i| name_of(i).to_lowercase() == w) {
        return Ok(item);
    }
    let names: Vec<&str> = items.iter().map(&name_of).collect();
    let near = close_matches(wanted, names.iter().copied());
    let allowed = if near.is_empty() {
        format!(
            "a name from the data, e.g. {}",
            names.iter().take(4).copied().collect::<Vec<_>>().join(", ")
        )
    } else {
        format!("a name from the data; close matches: {}", near.join(", "))
    };
    Err(AleaError::input(
        source,
        field,
        format!("\"{wanted}\""),
        allowed,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_data_loads_whole() {
        let d = data();
        assert_eq!(d.wars.len(), 31);
        assert!(d.leaders.len() >= 8);
        assert!(d.statesmen.len() >= 19);
        assert_eq!(d.senators.len(), 30);
        assert_eq!(d.chits.numbered + d.chits.blank + d.chits.draw_two, 36);
        // The CRT covers every total without gaps.
        let mut covered = Vec::new();
        for row in &d.crt {
            covered.push((
                row.min_total.unwrap_or(i32::MIN),
                row.max_total.unwrap_or(i32::MAX),
            ));
        }
        covered.sort();
        for pair in covered.windows(2) {
            assert_eq!(pair[0].1 + 1, pair[1].0);
        }
    }

    #[test]
    fn unknown_names_list_close_matches() {
        let d = data();
        let e = find(&d.wars, |w| &w.name, "b.toml", "war.name", "2nd Punik War")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("2nd Punic War"), "{e}");
        assert!(find(
            &d.wars,
            |w| &w.name,
            "b.toml",
            "war.name",
            "gladiator revolt"
        )
        .is_ok());
    }
}

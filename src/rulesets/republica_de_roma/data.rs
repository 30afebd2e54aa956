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
    #[serde(default)]
    pub id: String,
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
    #[serde(default)]
    pub series_index: u32,
    #[serde(default)]
    pub active_on_draw: bool,
    #[serde(default)]
    pub drought: bool,
    #[serde(default)]
    pub drought_even_if_inactive: bool,
    #[serde(default)]
    pub tax_farmer_roll: bool,
}

#[derive(Debug, Deserialize)]
pub struct EnemyLeader {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub deck: String,
    pub name: String,
    pub strength: u32,
    pub disaster: Vec<u32>,
    pub standoff: Vec<u32>,
    pub matching_series: Vec<String>,
    /// The matching war cards by name: a leader of a stand-alone war (no series) joins it by name.
    #[serde(default)]
    pub matching_wars: Vec<String>,
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
    pub family_id: u32,
    #[serde(default)]
    pub deck: String,
    #[serde(default)]
    pub oratory: u32,
    #[serde(default)]
    pub loyalty: u32,
    #[serde(default)]
    pub influence: u32,
    #[serde(default)]
    pub popularity: i32,
    #[serde(default)]
    pub opponents: Vec<String>,
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
    #[serde(default)]
    pub deck: String,
    #[serde(default)]
    pub oratory: u32,
    #[serde(default)]
    pub loyalty: u32,
    #[serde(default)]
    pub influence: u32,
}

/// Dice printed on a card: `sign` × (dice)d(sides) + plus (a Hispania tax rolls −1d6 − 1).
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CardRoll {
    pub dice: u32,
    pub sides: u32,
    #[serde(default = "plus_one")]
    pub dice_sign: i32,
    #[serde(default)]
    pub plus: i32,
}

fn plus_one() -> i32 {
    1
}

#[derive(Clone, Debug, Deserialize)]
pub struct ProvinceSide {
    pub spoils: CardRoll,
    pub state_tax: CardRoll,
    pub land_strength: u32,
    pub naval_strength: u32,
    /// Where the rulebook and the data differ, the data's values (the rulebook's are the fields).
    #[serde(default)]
    pub external_differs: Option<toml::Table>,
}

#[derive(Debug, Deserialize)]
pub struct Province {
    pub id: String,
    pub name: String,
    pub frontier: bool,
    #[serde(default)]
    pub created_by: Vec<String>,
    pub undeveloped: ProvinceSide,
    pub developed: ProvinceSide,
}

#[derive(Debug, Deserialize)]
pub struct Concession {
    pub id: String,
    pub name: String,
    pub income: u32,
    #[serde(default)]
    pub income_per_legion_raised: u32,
    #[serde(default)]
    pub income_per_fleet_raised: u32,
    #[serde(default)]
    pub destroyed_by_wars: Vec<String>,
    #[serde(default)]
    pub natural_disaster_roll: Vec<u32>,
    #[serde(default)]
    pub tax_farmer_number: Option<u32>,
}

#[derive(Debug, Deserialize)]
pub struct PopulationRow {
    pub min: Option<i32>,
    pub max: Option<i32>,
    pub unrest: i32,
    pub effects: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub struct RandomEventRow {
    pub total: u32,
    pub early: String,
    pub middle: String,
    pub late: String,
}

#[derive(Debug, Deserialize)]
pub struct LandBill {
    pub id: String,
    pub cost: u32,
    pub recurring: bool,
    pub counters: u32,
    pub pass_unrest: i32,
    pub pass_sponsor_popularity: i32,
    pub pass_cosponsor_popularity: i32,
    pub vote_against_popularity: i32,
}

#[derive(Debug, Deserialize)]
pub struct GamesRow {
    pub id: String,
    pub cost: u32,
    pub popularity: i32,
    pub unrest: i32,
}

#[derive(Debug, Deserialize)]
pub struct AppealRow {
    pub min: Option<i32>,
    pub max: Option<i32>,
    /// Votes added to the accused's side; absent when the row kills or frees.
    #[serde(default)]
    pub votes: i32,
    #[serde(default)]
    pub result: String,
}

#[derive(Debug, Deserialize)]
pub struct ForumEvent {
    pub id: String,
    pub deck: String,
    #[serde(default)]
    pub creates_province: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct Law {
    pub id: String,
    pub deck: String,
}

#[derive(Debug, Deserialize)]
pub struct IntrigueKind {
    pub id: String,
    pub count: std::collections::BTreeMap<String, u32>,
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
#[derive(Debug, Deserialize)]
struct ProvincesFile {
    province: Vec<Province>,
}
#[derive(Debug, Deserialize)]
struct ConcessionsFile {
    concession: Vec<Concession>,
}
#[derive(Debug, Deserialize)]
struct PopulationFile {
    row: Vec<PopulationRow>,
}
#[derive(Debug, Deserialize)]
struct RandomEventsFile {
    row: Vec<RandomEventRow>,
}
#[derive(Debug, Deserialize)]
struct LandBillsFile {
    land_bill: Vec<LandBill>,
}
#[derive(Debug, Deserialize)]
struct GamesFile {
    games: Vec<GamesRow>,
    appeal: Vec<AppealRow>,
}
#[derive(Debug, Deserialize)]
struct EventsFile {
    forum_event: Vec<ForumEvent>,
}
#[derive(Debug, Deserialize)]
struct LawsFile {
    law: Vec<Law>,
}
#[derive(Debug, Deserialize)]
struct IntrigueFile {
    intrigue: Vec<IntrigueKind>,
}

pub struct Data {
    pub wars: Vec<War>,
    pub leaders: Vec<EnemyLeader>,
    pub statesmen: Vec<Statesman>,
    pub senators: Vec<Senator>,
    pub crt: Vec<CrtRow>,
    pub chits: ChitPool,
    pub provinces: Vec<Province>,
    pub concessions: Vec<Concession>,
    pub population: Vec<PopulationRow>,
    pub random_events: Vec<RandomEventRow>,
    pub land_bills: Vec<LandBill>,
    pub games: Vec<GamesRow>,
    pub appeal: Vec<AppealRow>,
    pub forum_events: Vec<ForumEvent>,
    pub laws: Vec<Law>,
    pub intrigue: Vec<IntrigueKind>,
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
        provinces: parse::<ProvincesFile>("provinces.toml", scenario!("provinces.toml")).province,
        concessions: parse::<ConcessionsFile>("concessions.toml", scenario!("concessions.toml"))
            .concession,
        population: parse::<PopulationFile>("population.toml", scenario!("population.toml")).row,
        random_events: parse::<RandomEventsFile>(
            "random-events.toml",
            scenario!("random-events.toml"),
        )
        .row,
        land_bills: parse::<LandBillsFile>("land-bills.toml", scenario!("land-bills.toml"))
            .land_bill,
        games: parse::<GamesFile>("games-and-appeal.toml", scenario!("games-and-appeal.toml"))
            .games,
        appeal: parse::<GamesFile>("games-and-appeal.toml", scenario!("games-and-appeal.toml"))
            .appeal,
        forum_events: parse::<EventsFile>("events.toml", scenario!("events.toml")).forum_event,
        laws: parse::<LawsFile>("laws.toml", scenario!("laws.toml")).law,
        intrigue: parse::<IntrigueFile>("intrigue.toml", scenario!("intrigue.toml")).intrigue,
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

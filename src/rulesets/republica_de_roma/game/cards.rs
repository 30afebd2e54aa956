//! The cards and tables of `scenarios/republica-de-roma/` as the game uses them: indices instead of
//! names, Disaster and Standoff numbers as bit masks, dice as small structs. Built once per model
//! from [`super::super::data::data`], the one parse of those files.

use super::super::data::{self, data, CardRoll, Data};
use crate::dice::Dice;

pub const ERAS: [&str; 3] = ["early", "middle", "late"];

pub fn era_index(name: &str) -> Option<u8> {
    ERAS.iter().position(|e| *e == name).map(|i| i as u8)
}

/// One card of a Forum deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    War(u8),
    Leader(u8),
    Statesman(u8),
    Family(u8),
    Concession(u8),
    Law(u8),
    Intrigue(u8),
    /// Forum events: The Era Ends, bequests, the Catiline Conspiracy (index into `forum_events`).
    Forum(u8),
}

/// Dice printed on a card: sign × (n)d(sides) + plus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    pub dice: u8,
    pub sides: u8,
    pub sign: i8,
    pub plus: i8,
}

impl Roll {
    fn from(r: &CardRoll) -> Roll {
        Roll {
            dice: r.dice as u8,
            sides: r.sides as u8,
            sign: r.dice_sign as i8,
            plus: r.plus as i8,
        }
    }

    pub fn roll(&self, dice: &mut Dice) -> i32 {
        let mut sum = 0;
        for _ in 0..self.dice {
            sum += dice.d(self.sides as u32) as i32;
        }
        self.sign as i32 * sum + self.plus as i32
    }

    /// Every total with its probability (tests and exact checks).
    pub fn distribution(&self) -> Vec<(i32, f64)> {
        let pmf = crate::exact::Pmf::dice_sum(self.dice as usize, self.sides as usize);
        pmf.0
            .iter()
            .enumerate()
            .filter(|(_, &p)| p > 0.0)
            .map(|(s, &p)| (self.sign as i32 * s as i32 + self.plus as i32, p))
            .collect()
    }
}

pub struct WarCard {
    pub id: String,
    pub name: String,
    pub deck: u8,
    pub series: u8,
    pub series_index: u8,
    pub land: u32,
    pub naval: u32,
    pub fleet_support: u32,
    pub disaster: Vec<u32>,
    pub standoff: Vec<u32>,
    pub spoils: u32,
    pub drought: bool,
    pub drought_even_if_inactive: bool,
    pub active_on_draw: bool,
    pub revolt: bool,
    pub tax_farmer_roll: bool,
    /// Provinces a land victory creates.
    pub creates: Vec<u8>,
}

pub struct LeaderCard {
    pub id: String,
    pub name: String,
    pub deck: u8,
    pub strength: u32,
    pub disaster: Vec<u32>,
    pub standoff: Vec<u32>,
    /// Series (bit = series index) whose wars he joins.
    pub series: u64,
}

pub struct FamilyCard {
    pub id: u8,
    pub name: String,
    pub deck: u8,
    pub mil: u8,
    pub ora: u8,
    pub loy: u8,
    pub inf: u8,
}

pub struct StatesmanCard {
    pub id: String,
    pub name: String,
    pub deck: u8,
    /// Index of his family card.
    pub family: u8,
    pub mil: u8,
    /// Pompey's MIL is rolled before each battle.
    pub mil_roll: Option<Roll>,
    pub ora: u8,
    pub loy: u8,
    pub inf: u8,
    pub pop: i8,
    /// Statesmen he opposes (indices): his loyalty is 0 in a faction that holds one (L424).
    pub opponents: Vec<u8>,
    pub halves_losses: bool,
    /// Series (bit) and wars (bit) whose own Disaster and Standoff numbers he cancels.
    pub cancels_series: u64,
    pub cancels_wars: u64,
}

pub struct Side {
    pub spoils: Roll,
    pub tax: Roll,
}

pub struct ProvinceCard {
    pub id: String,
    pub name: String,
    pub frontier: bool,
    /// Wars (bit) whose land victory creates the province.
    pub created_by: u64,
    /// [undeveloped, developed].
    pub sides: [Side; 2],
    /// The data's undeveloped spoils where they differ from the rulebook's (Hispania Ulterior).
    pub data_spoils: Option<Roll>,
}

pub struct ConcessionCard {
    pub id: String,
    pub name: String,
    pub deck: u8,
    pub income: u32,
    pub per_legion: u32,
    pub per_fleet: u32,
    pub tax_farmer: Option<u8>,
    pub destroyed_by: u64,
    /// 1d6 results (bit) on which a Natural Disaster destroys it.
    pub natural_disaster: u8,
}

pub struct PopulationRow {
    pub min: i32,
    pub max: i32,
    pub unrest: i32,
    pub no_recruitment: bool,
    pub manpower_shortage: bool,
    pub mob: bool,
    pub people_revolt: bool,
}

/// What an event does, as the game models it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    AllyDeserts,
    AlliedEnthusiasm,
    BarbarianRaids,
    Drought,
    EnemysAllyDeserts,
    EnemyLeaderDies,
    Epidemic,
    EvilOmens,
    InternalDisorder,
    ManpowerShortage,
    MobViolence,
    NaturalDisaster,
    NewAlliance,
    PretenderEmerges,
    Refuge,
    RhodianAlliance,
    StormAtSea,
    TrialOfVerres,
}

pub const EVENT_IDS: [(&str, EventKind); 18] = [
    ("ally_deserts", EventKind::AllyDeserts),
    ("allied_enthusiasm", EventKind::AlliedEnthusiasm),
    ("barbarian_raids", EventKind::BarbarianRaids),
    ("drought", EventKind::Drought),
    ("enemys_ally_deserts", EventKind::EnemysAllyDeserts),
    ("enemy_leader_dies", EventKind::EnemyLeaderDies),
    ("epidemic", EventKind::Epidemic),
    ("evil_omens", EventKind::EvilOmens),
    ("internal_disorder", EventKind::InternalDisorder),
    ("manpower_shortage", EventKind::ManpowerShortage),
    ("mob_violence", EventKind::MobViolence),
    ("natural_disaster", EventKind::NaturalDisaster),
    ("new_alliance", EventKind::NewAlliance),
    ("pretender_emerges", EventKind::PretenderEmerges),
    ("refuge", EventKind::Refuge),
    ("rhodian_alliance", EventKind::RhodianAlliance),
    ("storm_at_sea", EventKind::StormAtSea),
    ("trial_of_verres", EventKind::TrialOfVerres),
];

/// Events drawn but not modelled by the automation (their effect is skipped and said so).
pub const UNMODELLED_EVENTS: &[EventKind] = &[
    EventKind::BarbarianRaids,
    EventKind::InternalDisorder,
    EventKind::PretenderEmerges,
    EventKind::Refuge,
    EventKind::TrialOfVerres,
];

pub struct LandBillCard {
    pub cost: u32,
    pub recurring: bool,
    pub counters: u8,
    pub unrest: i32,
    pub sponsor_pop: i32,
    pub cosponsor_pop: i32,
}

pub struct GamesKind {
    pub cost: u32,
    pub pop: i32,
    pub unrest: i32,
}

/// The Popular Appeal table: votes for 2d6 + Popularity, with "killed" at or below `killed_max`
/// and "freed" at or above `freed_min`.
pub struct Appeal {
    pub killed_max: i32,
    pub freed_min: i32,
    /// Votes by total, from killed_max + 1 to freed_min - 1.
    pub votes: Vec<i32>,
}

impl Appeal {
    pub fn votes(&self, total: i32) -> i32 {
        let i = (total - self.killed_max - 1).clamp(0, self.votes.len() as i32 - 1);
        self.votes[i as usize]
    }
}

pub struct ForumEventCard {
    pub id: String,
    pub deck: Option<u8>,
    pub creates: Option<u8>,
}

pub struct Cards {
    pub series: Vec<String>,
    pub wars: Vec<WarCard>,
    pub leaders: Vec<LeaderCard>,
    pub families: Vec<FamilyCard>,
    pub statesmen: Vec<StatesmanCard>,
    pub provinces: Vec<ProvinceCard>,
    pub concessions: Vec<ConcessionCard>,
    pub laws: Vec<(String, u8)>,
    /// Intrigue kinds: (id, count per era).
    pub intrigue: Vec<(String, [u8; 3])>,
    pub forum_events: Vec<ForumEventCard>,
    pub population: Vec<PopulationRow>,
    /// Random Events table: `[3d6 total - 3][era]`.
    pub random_events: [[EventKind; 3]; 16],
    pub land_bills: [LandBillCard; 3],
    pub games: Vec<GamesKind>,
    pub appeal: Appeal,
    pub era_ends: u8,
    pub military_reforms: Option<u8>,
    pub tradition_erodes: Option<u8>,
}

fn index_of<T>(items: &[T], id: impl Fn(&T) -> &str, wanted: &str) -> Option<usize> {
    items.iter().position(|x| id(x) == wanted)
}

/// A deck's index; a name that is no era counts as the early deck (the data tests rule it out).
fn era(name: &str) -> u8 {
    era_index(name).unwrap_or(0)
}

/// The index of war series `name`, added to `series` the first time it is named. Wars name theirs
/// first, then leaders, then statesmen, so the indices follow the files' order.
fn series_of(series: &mut Vec<String>, name: &str) -> u8 {
    match series.iter().position(|x| x == name) {
        Some(i) => i as u8,
        None => {
            series.push(name.to_string());
            (series.len() - 1) as u8
        }
    }
}

/// The wars named by id, as bits by war index (unknown ids set none).
fn war_bits(wars: &[WarCard], ids: &[String]) -> u64 {
    ids.iter()
        .filter_map(|id| index_of(wars, |w| &w.id, id))
        .fold(0, |a, i| a | 1u64 << i)
}

/// The war cards, their provinces still to be linked ([`link_provinces`]).
fn wars(d: &Data, series: &mut Vec<String>) -> Vec<WarCard> {
    d.wars
        .iter()
        .map(|w| WarCard {
            id: w.id.clone(),
            name: w.name.clone(),
            deck: era(&w.deck),
            // A stand-alone war is a series of one, named by its id.
            series: series_of(
                series,
                if w.series.is_empty() {
                    &w.id
                } else {
                    &w.series
                },
            ),
            series_index: w.series_index.max(1) as u8,
            land: w.land,
            naval: w.naval,
            fleet_support: w.fleet_support,
            disaster: w.disaster.clone(),
            standoff: w.standoff.clone(),
            spoils: w.spoils,
            drought: w.drought,
            drought_even_if_inactive: w.drought_even_if_inactive,
            active_on_draw: w.active_on_draw,
            revolt: w.revolt,
            tax_farmer_roll: w.tax_farmer_roll,
            creates: Vec::new(),
        })
        .collect()
}

fn province(p: &data::Province, wars: &[WarCard]) -> ProvinceCard {
    let data_spoils = p
        .undeveloped
        .external_differs
        .as_ref()
        .and_then(|t| t.get("spoils"))
        .and_then(|v| v.clone().try_into::<CardRoll>().ok())
        .map(|r| Roll::from(&r));
    let side = |s: &data::ProvinceSide| Side {
        spoils: Roll::from(&s.spoils),
        tax: Roll::from(&s.state_tax),
    };
    ProvinceCard {
        id: p.id.clone(),
        name: p.name.clone(),
        frontier: p.frontier,
        created_by: war_bits(wars, &p.created_by),
        sides: [side(&p.undeveloped), side(&p.developed)],
        data_spoils,
    }
}

/// Each war lists the provinces its land victory creates.
fn link_provinces(wars: &mut [WarCard], provinces: &[ProvinceCard]) {
    for (i, p) in provinces.iter().enumerate() {
        for (w, war) in wars.iter_mut().enumerate() {
            if p.created_by & (1 << w) != 0 {
                war.creates.push(i as u8);
            }
        }
    }
}

fn leader(l: &data::EnemyLeader, wars: &[WarCard], series: &mut Vec<String>) -> LeaderCard {
    // The series named, and those of the matching wars named one by one: a leader of a
    // stand-alone war (Antiochus III, Cleopatra) has no series of his own (L396).
    let named = l
        .matching_series
        .iter()
        .fold(0, |a, s| a | 1u64 << series_of(series, s));
    let by_war = l
        .matching_wars
        .iter()
        .filter_map(|name| wars.iter().find(|w| &w.name == name))
        .fold(0, |a, w| a | 1u64 << w.series);
    LeaderCard {
        id: l.id.clone(),
        name: l.name.clone(),
        deck: era(&l.deck),
        strength: l.strength,
        disaster: l.disaster.clone(),
        standoff: l.standoff.clone(),
        series: named | by_war,
    }
}

/// The family cards, by id.
fn families(d: &Data) -> Vec<FamilyCard> {
    let mut families: Vec<FamilyCard> = d
        .senators
        .iter()
        .map(|s| FamilyCard {
            id: s.id as u8,
            name: s.name.clone(),
            deck: era(&s.deck),
            mil: s.military as u8,
            ora: s.oratory as u8,
            loy: s.loyalty as u8,
            inf: s.influence as u8,
        })
        .collect();
    families.sort_by_key(|f| f.id);
    families
}

fn statesman(
    s: &data::Statesman,
    d: &Data,
    families: &[FamilyCard],
    wars: &[WarCard],
    series: &mut Vec<String>,
) -> StatesmanCard {
    let n = s.nullifies.as_ref();
    StatesmanCard {
        id: s.id.clone(),
        name: s.name.clone(),
        deck: era(&s.deck),
        family: families
            .iter()
            .position(|f| f.id as u32 == s.family_id)
            .unwrap_or(0) as u8,
        mil: s.military.unwrap_or(0) as u8,
        mil_roll: s.military_roll.map(|r| Roll {
            dice: r.dice as u8,
            sides: r.sides as u8,
            sign: 1,
            plus: r.plus as i8,
        }),
        ora: s.oratory as u8,
        loy: s.loyalty as u8,
        inf: s.influence as u8,
        pop: s.popularity as i8,
        opponents: s
            .opponents
            .iter()
            .filter_map(|o| index_of(&d.statesmen, |x| &x.id, o))
            .map(|i| i as u8)
            .collect(),
        halves_losses: s.halves_losses,
        cancels_series: n.map_or(0, |n| {
            n.series
                .iter()
                .fold(0, |a, x| a | 1u64 << series_of(series, x))
        }),
        // Wars are named by name or by id.
        cancels_wars: n.map_or(0, |n| {
            n.wars
                .iter()
                .filter_map(|x| {
                    index_of(wars, |w| &w.name, x).or_else(|| index_of(wars, |w| &w.id, x))
                })
                .fold(0, |a, i| a | 1u64 << i)
        }),
    }
}

fn concession(c: &data::Concession, wars: &[WarCard]) -> ConcessionCard {
    ConcessionCard {
        id: c.id.clone(),
        name: c.name.clone(),
        deck: 0,
        income: c.income,
        per_legion: c.income_per_legion_raised,
        per_fleet: c.income_per_fleet_raised,
        tax_farmer: c.tax_farmer_number.map(|n| n as u8),
        destroyed_by: war_bits(wars, &c.destroyed_by_wars),
        natural_disaster: c
            .natural_disaster_roll
            .iter()
            .fold(0u8, |m, &r| m | (1 << r)),
    }
}

fn population_row(r: &data::PopulationRow) -> PopulationRow {
    let has = |e: &str| r.effects.iter().any(|x| x == e);
    PopulationRow {
        min: r.min.unwrap_or(i32::MIN),
        max: r.max.unwrap_or(i32::MAX),
        unrest: r.unrest,
        no_recruitment: has("no_recruitment"),
        manpower_shortage: has("manpower_shortage"),
        mob: has("mob"),
        people_revolt: has("people_revolt"),
    }
}

fn event_kind(id: &str) -> EventKind {
    EVENT_IDS
        .iter()
        .find(|(x, _)| *x == id)
        .map(|(_, k)| *k)
        .unwrap_or_else(|| panic!("random-events.toml names an unknown event {id}"))
}

/// The Random Events table: `[3d6 total - 3][era]`.
fn random_events(d: &Data) -> [[EventKind; 3]; 16] {
    let mut table = [[EventKind::Drought; 3]; 16];
    for row in &d.random_events {
        table[row.total as usize - 3] = [
            event_kind(&row.early),
            event_kind(&row.middle),
            event_kind(&row.late),
        ];
    }
    table
}

fn land_bill(b: &data::LandBill) -> LandBillCard {
    LandBillCard {
        cost: b.cost,
        recurring: b.recurring,
        counters: b.counters as u8,
        unrest: b.pass_unrest,
        sponsor_pop: b.pass_sponsor_popularity,
        cosponsor_pop: b.pass_cosponsor_popularity,
    }
}

fn appeal(rows: &[data::AppealRow]) -> Appeal {
    let bound = |result: &str, end: fn(&data::AppealRow) -> Option<i32>| {
        rows.iter().filter(|r| r.result == result).find_map(end)
    };
    let killed_max = bound("killed", |r| r.max).unwrap_or(2);
    let freed_min = bound("freed", |r| r.min).unwrap_or(12);
    let votes = (killed_max + 1..freed_min)
        .map(|t| {
            rows.iter()
                .find(|r| {
                    r.result.is_empty()
                        && r.min.unwrap_or(i32::MIN) <= t
                        && t <= r.max.unwrap_or(i32::MAX)
                })
                .map_or(0, |r| r.votes)
        })
        .collect();
    Appeal {
        killed_max,
        freed_min,
        votes,
    }
}

fn forum_event(f: &data::ForumEvent, provinces: &[ProvinceCard]) -> ForumEventCard {
    ForumEventCard {
        id: f.id.clone(),
        deck: era_index(&f.deck),
        creates: f
            .creates_province
            .as_ref()
            .and_then(|p| index_of(provinces, |x| &x.id, p))
            .map(|i| i as u8),
    }
}

/// Intrigue kinds: (id, count per era).
fn intrigue(k: &data::IntrigueKind) -> (String, [u8; 3]) {
    let n = |e: &str| k.count.get(e).copied().unwrap_or(0) as u8;
    (k.id.clone(), [n("early"), n("middle"), n("late")])
}

impl Cards {
    pub fn load() -> Cards {
        let d = data();
        let mut series = Vec::new();
        let mut wars = wars(d, &mut series);
        let provinces: Vec<ProvinceCard> = d.provinces.iter().map(|p| province(p, &wars)).collect();
        link_provinces(&mut wars, &provinces);
        let leaders = d
            .leaders
            .iter()
            .map(|l| leader(l, &wars, &mut series))
            .collect();
        let families = families(d);
        let statesmen = d
            .statesmen
            .iter()
            .map(|s| statesman(s, d, &families, &wars, &mut series))
            .collect();
        let forum_events: Vec<ForumEventCard> = d
            .forum_events
            .iter()
            .map(|f| forum_event(f, &provinces))
            .collect();
        let laws: Vec<(String, u8)> = d
            .laws
            .iter()
            .map(|l| (l.id.clone(), era(&l.deck)))
            .collect();
        Cards {
            era_ends: index_of(&forum_events, |f| &f.id, "era_ends").unwrap_or(0) as u8,
            military_reforms: index_of(&laws, |l| &l.0, "military_reforms").map(|i| i as u8),
            tradition_erodes: index_of(&laws, |l| &l.0, "tradition_erodes").map(|i| i as u8),
            series,
            concessions: d.concessions.iter().map(|c| concession(c, &wars)).collect(),
            wars,
            leaders,
            families,
            statesmen,
            provinces,
            laws,
            intrigue: d.intrigue.iter().map(intrigue).collect(),
            forum_events,
            population: d.population.iter().map(population_row).collect(),
            random_events: random_events(d),
            land_bills: [0, 1, 2].map(|i| land_bill(&d.land_bills[i])),
            games: d
                .games
                .iter()
                .map(|g| GamesKind {
                    cost: g.cost,
                    pop: g.popularity,
                    unrest: g.unrest,
                })
                .collect(),
            appeal: appeal(&d.appeal),
        }
    }

    /// The cards of one era's deck (The Era Ends excluded: set-up places it).
    pub fn era_deck(&self, era: u8, out: &mut Vec<Card>) {
        for (i, w) in self.wars.iter().enumerate() {
            if w.deck == era {
                out.push(Card::War(i as u8));
            }
        }
        for (i, l) in self.leaders.iter().enumerate() {
            if l.deck == era {
                out.push(Card::Leader(i as u8));
            }
        }
        for (i, s) in self.statesmen.iter().enumerate() {
            if s.deck == era {
                out.push(Card::Statesman(i as u8));
            }
        }
        for (i, f) in self.families.iter().enumerate() {
            if f.deck == era {
                out.push(Card::Family(i as u8));
            }
        }
        if era == 0 {
            for i in 0..self.concessions.len() {
                out.push(Card::Concession(i as u8));
            }
        }
        for (i, l) in self.laws.iter().enumerate() {
            if l.1 == era {
                out.push(Card::Law(i as u8));
            }
        }
        for (i, f) in self.forum_events.iter().enumerate() {
            if f.deck == Some(era) {
                out.push(Card::Forum(i as u8));
            }
        }
        for (i, k) in self.intrigue.iter().enumerate() {
            for _ in 0..k.1[era as usize] {
                out.push(Card::Intrigue(i as u8));
            }
        }
    }

    pub fn population_row(&self, total: i32) -> &PopulationRow {
        self.population
            .iter()
            .find(|r| r.min <= total && total <= r.max)
            .expect("the Population table covers every total")
    }

    pub fn is_faction_card(card: Card) -> bool {
        matches!(
            card,
            Card::Statesman(_) | Card::Concession(_) | Card::Law(_) | Card::Intrigue(_)
        )
    }
}

/// A test per data file: every row is valid and names only what exists, so the look-ups above never
/// fall back to a default (an unknown war, deck or family would otherwise pass silently).
#[cfg(test)]
mod tests {
    use super::*;

    /// Where `row` is invalid, the file and the row, for the assertion's message.
    fn at(file: &str, row: &str) -> String {
        format!("scenarios/republica-de-roma/{file}: {row}")
    }

    fn unique<'a>(file: &str, ids: impl Iterator<Item = &'a str>) {
        let mut seen = std::collections::HashSet::new();
        for id in ids {
            assert!(!id.is_empty() && seen.insert(id), "{}", at(file, id));
        }
    }

    /// Disaster and Standoff numbers are unmodified 3d6 totals.
    fn totals_3d6(file: &str, row: &str, numbers: &[u32]) {
        assert!(
            numbers.iter().all(|n| (3..=18).contains(n)),
            "{}",
            at(file, row)
        );
    }

    fn war_series() -> Vec<&'static str> {
        data().wars.iter().map(|w| w.series.as_str()).collect()
    }

    fn is_war(name_or_id: &str) -> bool {
        data()
            .wars
            .iter()
            .any(|w| w.name == name_or_id || w.id == name_or_id)
    }

    #[test]
    fn every_war_row_is_valid() {
        let d = data();
        unique("wars.toml", d.wars.iter().map(|w| w.id.as_str()));
        for w in &d.wars {
            assert!(era_index(&w.deck).is_some(), "{}", at("wars.toml", &w.id));
            assert_eq!(w.series.is_empty(), w.series_index == 0, "{}", w.id);
            totals_3d6("wars.toml", &w.id, &w.disaster);
            totals_3d6("wars.toml", &w.id, &w.standoff);
        }
    }

    #[test]
    fn every_enemy_leader_row_is_valid() {
        let (d, series) = (data(), war_series());
        unique(
            "enemy-leaders.toml",
            d.leaders.iter().map(|l| l.id.as_str()),
        );
        for l in &d.leaders {
            let row = at("enemy-leaders.toml", &l.id);
            assert!(era_index(&l.deck).is_some(), "{row}");
            assert!(
                !l.matching_series.is_empty() || !l.matching_wars.is_empty(),
                "{row}"
            );
            assert!(
                l.matching_series
                    .iter()
                    .all(|s| series.contains(&s.as_str())),
                "{row}"
            );
            assert!(
                l.matching_wars
                    .iter()
                    .all(|n| d.wars.iter().any(|w| &w.name == n)),
                "{row}"
            );
            totals_3d6("enemy-leaders.toml", &l.id, &l.disaster);
            totals_3d6("enemy-leaders.toml", &l.id, &l.standoff);
        }
    }

    #[test]
    fn every_statesman_row_is_valid() {
        let (d, series) = (data(), war_series());
        unique("statesmen.toml", d.statesmen.iter().map(|s| s.id.as_str()));
        for s in &d.statesmen {
            let row = at("statesmen.toml", &s.id);
            assert!(era_index(&s.deck).is_some(), "{row}");
            assert!(
                d.senators.iter().any(|f| f.id == s.family_id),
                "{row}: family"
            );
            assert!(
                s.opponents
                    .iter()
                    .all(|o| d.statesmen.iter().any(|x| &x.id == o)),
                "{row}: opponents"
            );
            if let Some(n) = &s.nullifies {
                assert!(
                    n.series.iter().all(|x| series.contains(&x.as_str())),
                    "{row}: nullifies.series"
                );
                assert!(n.wars.iter().all(|x| is_war(x)), "{row}: nullifies.wars");
            }
        }
    }

    #[test]
    fn every_senator_row_is_valid() {
        let d = data();
        let mut ids: Vec<u32> = d.senators.iter().map(|s| s.id).collect();
        ids.sort();
        assert_eq!(ids, (1..=30).collect::<Vec<u32>>(), "senators.toml: ids");
        for s in &d.senators {
            assert!(
                era_index(&s.deck).is_some(),
                "{}",
                at("senators.toml", &s.name)
            );
        }
    }

    #[test]
    fn every_province_and_concession_row_is_valid() {
        let d = data();
        unique("provinces.toml", d.provinces.iter().map(|p| p.id.as_str()));
        for p in &d.provinces {
            let row = at("provinces.toml", &p.id);
            assert!(p.created_by.iter().all(|w| is_war(w)), "{row}: created_by");
            for side in [&p.undeveloped, &p.developed] {
                for r in [side.spoils, side.state_tax] {
                    assert!(
                        r.sides == 6 && r.dice <= 3 && r.dice_sign.abs() == 1,
                        "{row}"
                    );
                }
            }
        }
        unique(
            "concessions.toml",
            d.concessions.iter().map(|c| c.id.as_str()),
        );
        for c in &d.concessions {
            let row = at("concessions.toml", &c.id);
            let wars = &c.destroyed_by_wars;
            assert!(wars.iter().all(|w| is_war(w)), "{row}: destroyed_by_wars");
            let d6 = |r: &u32| (1..=6).contains(r);
            assert!(c.natural_disaster_roll.iter().all(d6), "{row}");
            assert!(c.tax_farmer_number.iter().all(d6), "{row}");
        }
    }

    /// Rows of a table by total (`min`, `max`; open at either end) cover every total exactly once.
    fn covers_every_total(file: &str, mut rows: Vec<(Option<i32>, Option<i32>)>) {
        rows.sort_by_key(|r| r.0.unwrap_or(i32::MIN));
        assert!(
            rows[0].0.is_none() && rows.last().unwrap().1.is_none(),
            "{file}: open ends"
        );
        for pair in rows.windows(2) {
            assert_eq!(pair[0].1.map(|m| m + 1), pair[1].0, "{file}: {pair:?}");
        }
    }

    #[test]
    fn the_population_table_covers_every_total_with_known_effects() {
        let d = data();
        covers_every_total(
            "population.toml",
            d.population.iter().map(|r| (r.min, r.max)).collect(),
        );
        let known = [
            "no_recruitment",
            "manpower_shortage",
            "mob",
            "people_revolt",
        ];
        for r in &d.population {
            assert!(
                r.effects.iter().all(|e| known.contains(&e.as_str())),
                "population.toml: {:?}",
                r.effects
            );
        }
    }

    #[test]
    fn the_random_events_table_has_every_3d6_total_once_and_known_events() {
        let d = data();
        let mut totals: Vec<u32> = d.random_events.iter().map(|r| r.total).collect();
        totals.sort();
        assert_eq!(totals, (3..=18).collect::<Vec<u32>>(), "random-events.toml");
        let known = |id: &str| EVENT_IDS.iter().any(|(x, _)| *x == id);
        for r in &d.random_events {
            assert!(
                known(&r.early) && known(&r.middle) && known(&r.late),
                "random-events.toml: total {}",
                r.total
            );
        }
    }

    #[test]
    fn land_bills_games_and_the_appeal_table_are_valid() {
        let d = data();
        assert_eq!(d.land_bills.len(), 3, "land-bills.toml: the three bills");
        unique(
            "games-and-appeal.toml",
            d.games.iter().map(|g| g.id.as_str()),
        );
        covers_every_total(
            "games-and-appeal.toml",
            d.appeal.iter().map(|r| (r.min, r.max)).collect(),
        );
        for r in &d.appeal {
            assert!(
                ["", "killed", "freed"].contains(&r.result.as_str()),
                "games-and-appeal.toml: result {}",
                r.result
            );
        }
        let a = Cards::load().appeal;
        assert_eq!(a.votes.len() as i32, a.freed_min - a.killed_max - 1);
    }

    #[test]
    fn every_forum_event_law_and_intrigue_row_is_valid() {
        let d = data();
        unique("events.toml", d.forum_events.iter().map(|f| f.id.as_str()));
        for f in &d.forum_events {
            let row = at("events.toml", &f.id);
            // The Era Ends is in no deck: each scenario's set-up places it.
            assert!(era_index(&f.deck).is_some() || f.deck == "none", "{row}");
            let province = |p: &String| d.provinces.iter().any(|x| &x.id == p);
            assert!(f.creates_province.iter().all(province), "{row}");
        }
        assert!(d.forum_events.iter().any(|f| f.id == "era_ends"));
        unique("laws.toml", d.laws.iter().map(|l| l.id.as_str()));
        for l in &d.laws {
            assert!(era_index(&l.deck).is_some(), "{}", at("laws.toml", &l.id));
        }
        for id in ["military_reforms", "tradition_erodes"] {
            assert!(d.laws.iter().any(|l| l.id == id), "laws.toml: {id}");
        }
        unique("intrigue.toml", d.intrigue.iter().map(|k| k.id.as_str()));
        for k in &d.intrigue {
            assert!(
                k.count.keys().all(|e| era_index(e).is_some()),
                "{}",
                at("intrigue.toml", &k.id)
            );
        }
    }
}

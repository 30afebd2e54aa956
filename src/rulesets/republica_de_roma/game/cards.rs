//! The cards and tables of `scenarios/republica-de-roma/` as the game uses them: indices instead of
//! names, Disaster and Standoff numbers as bit masks, dice as small structs. Built once per model
//! from [`super::super::data::data`], the one parse of those files.

use super::super::data::{data, CardRoll};
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

impl Cards {
    pub fn load() -> Cards {
        let d = data();
        let mut series: Vec<String> = Vec::new();
        let mut series_of = |s: &str| -> u8 {
            match series.iter().position(|x| x == s) {
                Some(i) => i as u8,
                None => {
                    series.push(s.to_string());
                    (series.len() - 1) as u8
                }
            }
        };
        let era = |s: &str| era_index(s).unwrap_or(0);
        let provinces_ids: Vec<&str> = d.provinces.iter().map(|p| p.id.as_str()).collect();
        let wars: Vec<WarCard> = d
            .wars
            .iter()
            .map(|w| WarCard {
                id: w.id.clone(),
                name: w.name.clone(),
                deck: era(&w.deck),
                series: if w.series.is_empty() {
                    series_of(&w.id)
                } else {
                    series_of(&w.series)
                },
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
            .collect();
        let war_ids: Vec<String> = wars.iter().map(|w| w.id.clone()).collect();
        let war_bit = |id: &str| -> u64 {
            war_ids
                .iter()
                .position(|w| w == id)
                .map_or(0, |i| 1u64 << i)
        };
        let mut wars = wars;
        let provinces: Vec<ProvinceCard> = d
            .provinces
            .iter()
            .map(|p| {
                let data_spoils = p
                    .undeveloped
                    .external_differs
                    .as_ref()
                    .and_then(|t| t.get("spoils"))
                    .and_then(|v| v.clone().try_into::<CardRoll>().ok())
                    .map(|r| Roll::from(&r));
                ProvinceCard {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    frontier: p.frontier,
                    created_by: p
                        .created_by
                        .iter()
                        .map(|w| war_bit(w))
                        .fold(0, |a, b| a | b),
                    sides: [
                        Side {
                            spoils: Roll::from(&p.undeveloped.spoils),
                            tax: Roll::from(&p.undeveloped.state_tax),
                        },
                        Side {
                            spoils: Roll::from(&p.developed.spoils),
                            tax: Roll::from(&p.developed.state_tax),
                        },
                    ],
                    data_spoils,
                }
            })
            .collect();
        for (i, p) in provinces.iter().enumerate() {
            for (w, war) in wars.iter_mut().enumerate() {
                if p.created_by & (1 << w) != 0 {
                    war.creates.push(i as u8);
                }
            }
        }
        let _ = provinces_ids;
        let leaders = d
            .leaders
            .iter()
            .map(|l| LeaderCard {
                id: l.id.clone(),
                name: l.name.clone(),
                deck: era(&l.deck),
                strength: l.strength,
                disaster: l.disaster.clone(),
                standoff: l.standoff.clone(),
                // The series named, and those of the matching wars named one by one: a leader of
                // a stand-alone war (Antiochus III, Cleopatra) has no series of his own (L396).
                series: l
                    .matching_series
                    .iter()
                    .map(|s| 1u64 << series_of(s))
                    .chain(l.matching_wars.iter().filter_map(|name| {
                        wars.iter()
                            .find(|w| &w.name == name)
                            .map(|w| 1u64 << w.series)
                    }))
                    .fold(0, |a, b| a | b),
            })
            .collect();
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
        let statesman_ids: Vec<&str> = d.statesmen.iter().map(|s| s.id.as_str()).collect();
        let statesmen = d
            .statesmen
            .iter()
            .map(|s| {
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
                        .filter_map(|o| statesman_ids.iter().position(|x| x == o))
                        .map(|i| i as u8)
                        .collect(),
                    halves_losses: s.halves_losses,
                    cancels_series: n.map_or(0, |n| {
                        n.series
                            .iter()
                            .map(|x| 1u64 << series_of(x))
                            .fold(0, |a, b| a | b)
                    }),
                    cancels_wars: n.map_or(0, |n| {
                        n.wars
                            .iter()
                            .map(|x| {
                                index_of(&wars, |w| &w.name, x)
                                    .or_else(|| index_of(&wars, |w| &w.id, x))
                                    .map_or(0, |i| 1u64 << i)
                            })
                            .fold(0, |a, b| a | b)
                    }),
                }
            })
            .collect();
        let concessions = d
            .concessions
            .iter()
            .map(|c| ConcessionCard {
                id: c.id.clone(),
                name: c.name.clone(),
                deck: 0,
                income: c.income,
                per_legion: c.income_per_legion_raised,
                per_fleet: c.income_per_fleet_raised,
                tax_farmer: c.tax_farmer_number.map(|n| n as u8),
                destroyed_by: c
                    .destroyed_by_wars
                    .iter()
                    .map(|w| war_bit(w))
                    .fold(0, |a, b| a | b),
                natural_disaster: c
                    .natural_disaster_roll
                    .iter()
                    .fold(0u8, |m, &r| m | (1 << r)),
            })
            .collect();
        let population = d
            .population
            .iter()
            .map(|r| {
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
            })
            .collect();
        let kind = |id: &str| {
            EVENT_IDS
                .iter()
                .find(|(x, _)| *x == id)
                .map(|(_, k)| *k)
                .unwrap_or_else(|| panic!("random-events.toml names an unknown event {id}"))
        };
        let mut random_events = [[EventKind::Drought; 3]; 16];
        for row in &d.random_events {
            random_events[row.total as usize - 3] =
                [kind(&row.early), kind(&row.middle), kind(&row.late)];
        }
        let bill = |i: usize| {
            let b = &d.land_bills[i];
            LandBillCard {
                cost: b.cost,
                recurring: b.recurring,
                counters: b.counters as u8,
                unrest: b.pass_unrest,
                sponsor_pop: b.pass_sponsor_popularity,
                cosponsor_pop: b.pass_cosponsor_popularity,
            }
        };
        let killed_max = d
            .appeal
            .iter()
            .filter(|r| r.result == "killed")
            .filter_map(|r| r.max)
            .next()
            .unwrap_or(2);
        let freed_min = d
            .appeal
            .iter()
            .filter(|r| r.result == "freed")
            .filter_map(|r| r.min)
            .next()
            .unwrap_or(12);
        let votes = (killed_max + 1..freed_min)
            .map(|t| {
                d.appeal
                    .iter()
                    .find(|r| {
                        r.result.is_empty()
                            && r.min.unwrap_or(i32::MIN) <= t
                            && t <= r.max.unwrap_or(i32::MAX)
                    })
                    .map_or(0, |r| r.votes)
            })
            .collect();
        let forum_events: Vec<ForumEventCard> = d
            .forum_events
            .iter()
            .map(|f| ForumEventCard {
                id: f.id.clone(),
                deck: era_index(&f.deck),
                creates: f
                    .creates_province
                    .as_ref()
                    .and_then(|p| index_of(&provinces, |x| &x.id, p))
                    .map(|i| i as u8),
            })
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
            wars,
            leaders,
            families,
            statesmen,
            provinces,
            concessions,
            laws,
            intrigue: d
                .intrigue
                .iter()
                .map(|k| {
                    let n = |e: &str| k.count.get(e).copied().unwrap_or(0) as u8;
                    (k.id.clone(), [n("early"), n("middle"), n("late")])
                })
                .collect(),
            forum_events,
            population,
            random_events,
            land_bills: [bill(0), bill(1), bill(2)],
            games: d
                .games
                .iter()
                .map(|g| GamesKind {
                    cost: g.cost,
                    pop: g.popularity,
                    unrest: g.unrest,
                })
                .collect(),
            appeal: Appeal {
                killed_max,
                freed_min,
                votes,
            },
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

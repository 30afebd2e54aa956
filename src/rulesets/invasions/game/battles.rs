//! Land battles of the full game, played by the battle calculator's own code (basic or advanced):
//! a battle is described as the calculator's input table, built once per distinct situation and
//! kept in a per-worker cache with its exact P(attacker wins). Every later battle of the same
//! situation is one `play` of the cached model from the game's dice: no second copy of any rule,
//! and after the cache warms up no allocation per battle.

use super::state::{Units, NT};
use crate::battle::{Simulate, Trial};
use crate::dice::Dice;
use crate::exact::FastMap;
use crate::options::Options;
use crate::rulesets::invasions::advanced::Advanced;
use crate::rulesets::invasions::army::{Status, TEMPLATES};
use crate::rulesets::invasions::basic::Basic;
use crate::rulesets::invasions::land::{self, Finish, LandBattle, System, Terrain, ATTACKER};
use crate::rulesets::invasions::landing::{Interception, Landing, SeaRisk};
use crate::rulesets::invasions::naval::{self, Naval};
use crate::rulesets::invasions::SIDES;
use crate::spec::Fields;
use toml::{Table, Value};

/// Where and how the attacker comes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ground {
    pub terrain: Terrain,
    pub barbarian_province: bool,
    /// The border crossed into the Area.
    pub crossing: Border,
    pub fortified_city: bool,
    /// A standing Roman Limes supports the defender (XVIII.I).
    pub limes: bool,
}

/// A border a battle's attackers crossed, as the calculator's `crossing` key names it (an enum,
/// not the name, so that the cache's keys hash and compare cheaply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Border {
    None,
    River,
    MountainRange,
    Strait,
}

impl Border {
    pub fn name(self) -> &'static str {
        match self {
            Border::None => "none",
            Border::River => "river",
            Border::MountainRange => "mountain-range",
            Border::Strait => "strait",
        }
    }
}

/// One side as the battle code needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fighter {
    pub status: Status,
    pub nomad: bool,
    pub rome: bool,
    pub decline: bool,
    pub horde: bool,
    pub without_capital: bool,
    pub units: Units,
    /// The combat bonus of the leader with the stack (leaders.rs), `None` without one.
    pub leader: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    ground: Ground,
    sides: [Fighter; 2],
}

enum Model {
    Basic(Box<Basic>),
    Advanced(Box<Advanced>),
}

impl Model {
    fn battle(&self) -> &LandBattle {
        match self {
            Model::Basic(b) => &b.0,
            Model::Advanced(a) => &a.battle,
        }
    }
    fn play(&self, dice: &mut Dice) -> Finish {
        match self {
            Model::Basic(b) => b.play(dice),
            Model::Advanced(a) => a.play(dice),
        }
    }
}

/// What a played battle left: who won, each side's survivors by unit type, a captured horde.
#[derive(Clone, Copy, Debug, Default)]
pub struct Result {
    pub attacker_won: bool,
    pub survivors: [Units; 2],
    pub horde_captured: bool,
    pub limes_destroyed: bool,
    /// P(each side's leader dies) as the battle code settles it (XX.J), drawn by the game.
    pub leader_death: [f64; 2],
}

/// Most built battles a worker keeps (each holds the calculator's model, a few KB), and most
/// P(attacker wins) values (a few dozen bytes each); past either the cache starts again. Results
/// do not depend on it: every entry is a function of its key.
const MODELS: usize = 16_384;
const ODDS: usize = 250_000;

pub struct Battles {
    system: System,
    options: Options,
    models: FastMap<Key, Model>,
    odds: FastMap<Key, f64>,
    landings: FastMap<LandingKey, Landing>,
}

/// An amphibious landing as the calculator's `Landing` takes it: the sea-risk roll, the enemy
/// naval stack's interception and the naval battle (attacker = the transporting stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LandingKey {
    pub risk: SeaRisk,
    pub interception: Interception,
    pub sides: [naval::Side; 2],
    pub carried: u8,
    /// The zone of the battle is a Mediterranean or Pontus Euxinus one (Q47).
    pub mediterranean: bool,
    pub britannia: bool,
}

/// What one landing left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Landed {
    pub sea_failure: bool,
    pub intercepted: bool,
    /// Land units that reach the shore (at most 3 per fleet still afloat).
    pub landed: u8,
    /// Fleets lost for good by the transporting and the intercepting stack.
    pub fleets_lost: [u8; 2],
}

fn side_table(f: &Fighter) -> Table {
    let mut t = Table::new();
    let nation = match f.status {
        Status::Barbarian => "barbarian",
        Status::Kingdom => "kingdom",
        Status::Empire => "empire",
    };
    t.insert("nation".into(), Value::String(nation.into()));
    for (k, &n) in f.units.iter().enumerate() {
        if n > 0 {
            t.insert(TEMPLATES[k].name.into(), Value::Integer(n as i64));
        }
    }
    for (name, on) in [
        ("nomad", f.nomad),
        ("rome", f.rome),
        ("decline", f.decline),
        ("horde", f.horde),
        ("kingdom_without_capital", f.without_capital),
    ] {
        if on {
            t.insert(name.into(), Value::Boolean(true));
        }
    }
    if let Some(l) = f.leader {
        t.insert("leader".into(), Value::Integer(l as i64));
    }
    t.insert("can_retreat".into(), Value::Boolean(true));
    t
}

impl Battles {
    pub fn new(system: System, options: Options) -> Battles {
        Battles {
            system,
            options,
            models: FastMap::default(),
            odds: FastMap::default(),
            landings: FastMap::default(),
        }
    }

    fn model(&mut self, key: Key) -> &Model {
        if !self.models.contains_key(&key) {
            if self.models.len() >= MODELS {
                self.models.clear();
            }
            let model = self.build(&key);
            self.models.insert(key, model);
        }
        &self.models[&key]
    }

    fn build(&self, key: &Key) -> Model {
        let mut t = Table::new();
        t.insert(
            "terrain".into(),
            Value::String(key.ground.terrain.name().into()),
        );
        let province = if key.ground.barbarian_province {
            "barbarian"
        } else {
            "civilized"
        };
        t.insert("province".into(), Value::String(province.into()));
        t.insert(
            "crossing".into(),
            Value::String(key.ground.crossing.name().into()),
        );
        t.insert("all_crossed".into(), Value::Boolean(true));
        t.insert(
            "fortified_city".into(),
            Value::Boolean(key.ground.fortified_city),
        );
        if key.ground.limes {
            t.insert("limes".into(), Value::Boolean(true));
        }
        for (name, side) in SIDES.iter().zip(&key.sides) {
            t.insert(name.to_string(), Value::Table(side_table(side)));
        }
        let fields = Fields::new("invasions game battle", &t);
        // The game builds only tables the calculator accepts (known unit names, counts in range):
        // a failure is a bug in the game, not bad input.
        let battle = land::build(&fields, self.options.clone(), self.system)
            .unwrap_or_else(|e| panic!("a game battle the calculator rejects: {e}"));
        match self.system {
            System::Basic => Model::Basic(Box::new(Basic(battle))),
            System::Advanced => Model::Advanced(Box::new(Advanced::new(battle))),
        }
    }

    /// P(the attacker wins), exact where the solver can (cached).
    pub fn p_attacker(&mut self, ground: Ground, sides: [Fighter; 2]) -> f64 {
        let key = Key { ground, sides };
        if let Some(&p) = self.odds.get(&key) {
            return p;
        }
        // The policies ask for odds of leaderless stacks (see `Play::evaluate`) while most
        // battles are fought with leaders: a model built only for odds is not kept.
        let built;
        let model = match self.models.get(&key) {
            Some(m) => m,
            None => {
                built = self.build(&key);
                &built
            }
        };
        let p = exact_p_attacker(model).unwrap_or_else(|| {
            // Too many states for the exact solver: a fixed-seed estimate, still a function of the key.
            let mut dice = Dice::from_seed(0x1a5_u64 ^ TRIALS);
            let wins = (0..TRIALS)
                .filter(|_| {
                    let f = model.play(&mut dice);
                    model.battle().winner(&f) == ATTACKER
                })
                .count();
            wins as f64 / TRIALS as f64
        });
        if self.odds.len() >= ODDS {
            self.odds.clear();
        }
        self.odds.insert(key, p);
        p
    }

    /// One battle from the game's dice.
    pub fn fight(&mut self, ground: Ground, sides: [Fighter; 2], dice: &mut Dice) -> Result {
        let model = self.model(Key { ground, sides });
        let b = model.battle();
        let f = model.play(dice);
        let st = b.settle(&f);
        let mut out = Result {
            attacker_won: st.winner == ATTACKER,
            horde_captured: st.horde_captured,
            limes_destroyed: st.limes_destroyed,
            leader_death: st.leader_death,
            ..Result::default()
        };
        for s in 0..2 {
            // Classes follow the input table's unit order: the types present, in template order.
            let mut class = 0;
            for k in 0..NT {
                if sides[s].units[k] == 0 {
                    continue;
                }
                // By name: a `const`'s address is not one place (each use may get its own copy,
                // differently in each build), so pointer equality would make results depend on
                // how the binary was compiled.
                let idx = b.sides[s]
                    .classes()
                    .iter()
                    .position(|c| c.template.name == TEMPLATES[k].name)
                    .unwrap_or(class);
                let a = &st.survivors[s];
                let w = &b.sides[s].waiting;
                // Damaged elites count as units: the game does not track damage.
                out.survivors[s][k] =
                    a.intact[idx] + a.damaged[idx] + w.intact[idx] + w.damaged[idx];
                class += 1;
            }
        }
        out
    }

    /// One landing from the game's dice, played by the calculator's `Landing` (built once per
    /// situation): its sea-risk roll, interception D2 and naval battle.
    pub fn land(&mut self, key: LandingKey, dice: &mut Dice) -> Landed {
        if !self.landings.contains_key(&key) {
            if self.landings.len() >= MODELS {
                self.landings.clear();
            }
            let system = match self.system {
                System::Basic => naval::System::Basic,
                // The naval calculator's default number of advanced rounds.
                System::Advanced => naval::System::Advanced { rounds: 2 },
            };
            let naval = Naval::new(
                key.sides,
                key.carried,
                system,
                key.mediterranean,
                naval::Rules::from_options(&self.options),
                naval::Policy::default(),
            );
            let has_defender = key.interception != Interception::None;
            let landing = Landing::new(
                key.risk,
                key.interception,
                naval,
                has_defender,
                key.britannia,
                false,
            );
            self.landings.insert(key, landing);
        }
        let mut trial = Trial::default();
        self.landings[&key].trial(dice, &mut trial);
        // The Landing schema's columns: units landed, lost at sea, each side's fleets lost; the
        // scalars sea-risk failure and intercepted first.
        Landed {
            sea_failure: trial.scalars[0] > 0.0,
            intercepted: trial.scalars[1] > 0.0,
            landed: trial.counts[0] as u8,
            fleets_lost: [trial.counts[2] as u8, trial.counts[3] as u8],
        }
    }

    /// (built battles, P(win) values) held.
    pub fn cached(&self) -> (usize, usize) {
        (self.models.len(), self.odds.len())
    }
}

const TRIALS: u64 = 400;

fn exact_p_attacker(model: &Model) -> Option<f64> {
    let finishes = match model {
        Model::Basic(b) => b.finishes().ok()?,
        Model::Advanced(a) => a.finishes(),
    };
    let b = model.battle();
    Some(
        finishes
            .iter()
            .filter(|(f, _)| b.winner(f) == ATTACKER)
            .map(|(_, p)| p)
            .sum(),
    )
}

//! Land battles of the full game, played by the battle calculator's own code (basic or advanced):
//! a battle is described as the calculator's input table, built once per distinct situation and
//! kept in a per-worker cache with its exact P(attacker wins). Every later battle of the same
//! situation is one `play` of the cached model from the game's dice: no second copy of any rule,
//! and after the cache warms up no allocation per battle.

use super::cache::Generations;
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

/// A battle's situation packed in three words, so that a lookup hashes and compares three
/// integers: each side's unit counts a nibble a type (words 0 and 1), the ground and each side's
/// flags and leader in word 2. `None` where a count passes 15 or a leader's bonus 253 (such a
/// battle is played from a model built for it alone, never cached).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key([u64; 3]);

impl Key {
    fn pack(ground: &Ground, sides: &[Fighter; 2]) -> Option<Key> {
        let mut w = [0u64; 3];
        for (s, f) in sides.iter().enumerate() {
            for (k, &n) in f.units.iter().enumerate() {
                if n > 15 {
                    return None;
                }
                w[s] |= (n as u64) << (4 * k);
            }
            let leader = match f.leader {
                None => 0,
                Some(l) if l < u8::MAX - 1 => l as u64 + 1,
                Some(_) => return None,
            };
            let flags = f.status as u64
                | (f.nomad as u64) << 2
                | (f.rome as u64) << 3
                | (f.decline as u64) << 4
                | (f.horde as u64) << 5
                | (f.without_capital as u64) << 6
                | leader << 8;
            w[2] |= flags << (8 + 16 * s);
        }
        w[2] |= ground.terrain as u64
            | (ground.barbarian_province as u64) << 3
            | (ground.crossing as u64) << 4
            | (ground.fortified_city as u64) << 6
            | (ground.limes as u64) << 7;
        Some(Key(w))
    }
}

enum Model {
    Basic(Box<Basic>),
    Advanced(Box<Advanced>),
}

/// A model kept to play again, with where each unit type of the game's stacks stands among its
/// sides' classes (worked out once: by name, see [`Built::new`]).
struct Built {
    model: Model,
    class: [[u8; NT]; 2],
}

impl Built {
    fn new(model: Model, sides: &[Fighter; 2]) -> Built {
        let b = model.battle();
        let mut class = [[0u8; NT]; 2];
        for s in 0..2 {
            // Classes follow the input table's unit order: the types present, in template order.
            let mut next = 0;
            for k in 0..NT {
                if sides[s].units[k] == 0 {
                    continue;
                }
                // By name: a `const`'s address is not one place (each use may get its own copy,
                // differently in each build), so pointer equality would make results depend on
                // how the binary was compiled.
                class[s][k] = b.sides[s]
                    .classes()
                    .iter()
                    .position(|c| c.template.name == TEMPLATES[k].name)
                    .unwrap_or(next) as u8;
                next += 1;
            }
        }
        Built { model, class }
    }
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

/// Most built battles a worker keeps in a generation (each holds the calculator's model, a few
/// KB), and most P(attacker wins) values (32 bytes each: 7/8 of 2^18 fill a hash table of 2^18
/// slots); the older generation is kept as well ([`Generations`]). Results do not depend on
/// them: every entry is a function of its key.
const MODELS: usize = 12_288;
const ODDS: usize = (1 << 18) / 8 * 7;

pub struct Battles {
    system: System,
    options: Options,
    models: Generations<Key, Built>,
    odds: Generations<Key, f64>,
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
            models: Generations::new(MODELS),
            odds: Generations::new(ODDS),
            landings: FastMap::default(),
        }
    }

    fn build(&self, ground: &Ground, sides: &[Fighter; 2]) -> Model {
        build(self.system, &self.options, ground, sides)
    }

    /// P(the attacker wins), exact where the solver can (cached).
    pub fn p_attacker(&mut self, ground: Ground, sides: [Fighter; 2]) -> f64 {
        let key = Key::pack(&ground, &sides);
        if let Some(p) = key.and_then(|k| self.odds.get_copied(&k)) {
            return p;
        }
        // The policies ask for odds of leaderless stacks (see `Play::evaluate`) while most
        // battles are fought with leaders: a model built only for odds is not kept.
        let built;
        let model = match key.and_then(|k| self.models.peek(&k)) {
            Some(b) => &b.model,
            None => {
                built = self.build(&ground, &sides);
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
        if let Some(k) = key {
            self.odds.insert(k, p);
        }
        p
    }

    /// One battle from the game's dice.
    pub fn fight(&mut self, ground: Ground, sides: [Fighter; 2], dice: &mut Dice) -> Result {
        let lone;
        let built = match Key::pack(&ground, &sides) {
            Some(key) => {
                let (system, options) = (self.system, &self.options);
                self.models.get_or_insert_with(key, || {
                    Built::new(build(system, options, &ground, &sides), &sides)
                })
            }
            None => {
                lone = Built::new(self.build(&ground, &sides), &sides);
                &lone
            }
        };
        let b = built.model.battle();
        let f = built.model.play(dice);
        let st = b.settle(&f);
        let mut out = Result {
            attacker_won: st.winner == ATTACKER,
            horde_captured: st.horde_captured,
            limes_destroyed: st.limes_destroyed,
            leader_death: st.leader_death,
            ..Result::default()
        };
        for s in 0..2 {
            let a = &st.survivors[s];
            let w = &b.sides[s].waiting;
            for k in 0..NT {
                if sides[s].units[k] == 0 {
                    continue;
                }
                let idx = built.class[s][k] as usize;
                // Damaged elites count as units: the game does not track damage.
                out.survivors[s][k] =
                    a.intact[idx] + a.damaged[idx] + w.intact[idx] + w.damaged[idx];
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

/// The calculator's model of a battle, built from the input table `alea odds` would read.
fn build(system: System, options: &Options, ground: &Ground, sides: &[Fighter; 2]) -> Model {
    let mut t = Table::new();
    t.insert(
        "terrain".into(),
        Value::String(ground.terrain.name().into()),
    );
    let province = if ground.barbarian_province {
        "barbarian"
    } else {
        "civilized"
    };
    t.insert("province".into(), Value::String(province.into()));
    t.insert(
        "crossing".into(),
        Value::String(ground.crossing.name().into()),
    );
    t.insert("all_crossed".into(), Value::Boolean(true));
    t.insert(
        "fortified_city".into(),
        Value::Boolean(ground.fortified_city),
    );
    if ground.limes {
        t.insert("limes".into(), Value::Boolean(true));
    }
    for (name, side) in SIDES.iter().zip(sides) {
        t.insert(name.to_string(), Value::Table(side_table(side)));
    }
    let fields = Fields::new("invasions game battle", &t);
    // The game builds only tables the calculator accepts (known unit names, counts in range):
    // a failure is a bug in the game, not bad input.
    let battle = land::build(&fields, options.clone(), system)
        .unwrap_or_else(|e| panic!("a game battle the calculator rejects: {e}"));
    match system {
        System::Basic => Model::Basic(Box::new(Basic(battle))),
        System::Advanced => Model::Advanced(Box::new(Advanced::new(battle))),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn fighter(status: Status, units: Units) -> Fighter {
        Fighter {
            status,
            nomad: false,
            rome: false,
            decline: false,
            horde: false,
            without_capital: false,
            units,
            leader: None,
        }
    }

    #[test]
    fn packed_keys_differ_in_every_field_and_refuse_what_does_not_fit() {
        let ground = Ground {
            terrain: Terrain::Plain,
            barbarian_province: false,
            crossing: Border::None,
            fortified_city: false,
            limes: false,
        };
        let mut units = [0u8; NT];
        units[0] = 3;
        let sides = [
            fighter(Status::Barbarian, units),
            fighter(Status::Empire, units),
        ];
        let base = Key::pack(&ground, &sides).unwrap();
        // Each variant changes one field of the situation: every packed key must be new.
        let mut variants = vec![base];
        let grounds = [
            Ground {
                terrain: Terrain::Swamp,
                ..ground
            },
            Ground {
                barbarian_province: true,
                ..ground
            },
            Ground {
                crossing: Border::Strait,
                ..ground
            },
            Ground {
                fortified_city: true,
                ..ground
            },
            Ground {
                limes: true,
                ..ground
            },
        ];
        for g in &grounds {
            variants.push(Key::pack(g, &sides).unwrap());
        }
        for s in 0..2 {
            let changes: [fn(&mut Fighter); 9] = [
                |f| f.status = Status::Kingdom,
                |f| f.nomad = true,
                |f| f.rome = true,
                |f| f.decline = true,
                |f| f.horde = true,
                |f| f.without_capital = true,
                |f| f.leader = Some(0),
                |f| f.leader = Some(3),
                |f| f.units[NT - 1] = 15,
            ];
            for change in changes {
                let mut v = sides;
                change(&mut v[s]);
                variants.push(Key::pack(&ground, &v).unwrap());
            }
        }
        let distinct: std::collections::HashSet<_> = variants.iter().collect();
        assert_eq!(distinct.len(), variants.len());
        // A count past a nibble or a leader past the byte is not packed (never cached).
        let mut big = sides;
        big[1].units[2] = 16;
        assert_eq!(Key::pack(&ground, &big), None);
        big = sides;
        big[0].leader = Some(u8::MAX - 1);
        assert_eq!(Key::pack(&ground, &big), None);
    }
}

//! Land battles of the full game, played by the battle calculator's own code (basic or advanced):
//! a battle is put together by the calculator's own constructor (`LandBattle::new`, which a battle
//! file's table also goes through) straight from the game's state, built once per distinct
//! situation and kept in a per-worker cache with its exact P(attacker wins). Every later battle of the same
//! situation is one `play` of the cached model from the game's dice: no second copy of any rule,
//! and after the cache warms up no allocation per battle.

use super::state::{Units, NT};
use crate::battle::{BattleModel, Simulate, Trial};
use crate::dice::Dice;
use crate::exact::FastMap;
use crate::options::Options;
use crate::rulesets::invasions::advanced::Advanced;
use crate::rulesets::invasions::army::{Stack, Status, UnitClass, MAX_CLASSES, TEMPLATES};
use crate::rulesets::invasions::basic::Basic;
use crate::rulesets::invasions::land::{
    AmbushSetting, Field, Finish, LandBattle, Policy, Rules, Side, System, Terrain, ATTACKER,
};
use crate::rulesets::invasions::landing::{Interception, Landing, SeaRisk};
use crate::rulesets::invasions::naval::{self, Naval};
use std::sync::LazyLock;

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

/// A border a battle's attackers crossed: the calculator's own (the map's `scenario::Crossing` is
/// the kind of a link between Areas, a different thing).
pub use crate::rulesets::invasions::land::Crossing as Border;

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

impl Key {
    /// The key with what cannot change who wins cleared, so that battles differing only there
    /// share one P(attacker wins): an Empire in Decline's leader assassination and a Kingdom
    /// without capital's submission come after the battle (XX.J, XXIX.C), and the Barbarian
    /// province die goes only to a Barbarian attacking a Civilized nation (L1377). Neither the
    /// dice a battle rolls nor its winner read them otherwise, so the exact P and the fixed-seed
    /// estimate alike are the same for every battle sharing the key.
    fn for_odds(mut self) -> Key {
        for f in &mut self.sides {
            f.decline = false;
            f.without_capital = false;
        }
        let [attacker, defender] = &self.sides;
        self.ground.barbarian_province &=
            attacker.status == Status::Barbarian && defender.status.civilized();
        self
    }
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
/// do not depend on it: every entry is a function of its key. A million games fill 250,000 odds
/// and start again, solving anew what they had; 1,000,000 cut that run's CPU by 8% for 65 MB.
const MODELS: usize = 16_384;
const ODDS: usize = 1_000_000;

pub struct Battles {
    system: System,
    options: Options,
    /// The options' land battle readings, resolved once.
    rules: Rules,
    sum_leader_rerolls: bool,
    /// The calculator's default battle policy (the game's players do not set it).
    policy: Policy,
    models: FastMap<Key, Model>,
    odds: FastMap<Key, f64>,
    landings: FastMap<LandingKey, Landing>,
    at_sea: FastMap<LandingKey, AtSea>,
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
    /// The transporting stack refuses the naval battle once intercepted (XXV.C-D: the
    /// transport or landing is cancelled, its units stay where they embarked).
    pub refuse: bool,
}

/// A landing's exact means (the battle code's `Landing`): P(an enemy stack intercepts it), the
/// land units that reach the shore and those lost at sea with sunk fleets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AtSea {
    pub p_intercepted: f64,
    pub units_landed: f64,
    pub units_lost: f64,
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
    /// Intercepted, the transporting stack refused the battle: nobody landed, nobody was lost.
    pub refused: bool,
}

/// The unit types in name order, the order a battle file's side table lists them: a game battle's
/// classes are the types present in this order, so that it is the same model (the same ties
/// between equal worths broken the same way) as the same battle typed into a file.
static BY_NAME: LazyLock<[usize; NT]> = LazyLock::new(|| {
    let mut order: [usize; NT] = std::array::from_fn(|k| k);
    order.sort_by_key(|&k| TEMPLATES[k].name);
    order
});

/// The unit types of `units` present, in class order.
fn present(units: &Units) -> impl Iterator<Item = usize> + '_ {
    BY_NAME.iter().copied().filter(|&k| units[k] > 0)
}

fn side(f: &Fighter) -> Side {
    let classes: Vec<UnitClass> = present(&f.units)
        .map(|k| UnitClass::new(&TEMPLATES[k], f.status))
        .collect();
    // The game fields only stacks the calculator takes: a failure is a bug in the game.
    assert!(
        !classes.is_empty() && classes.len() <= MAX_CLASSES,
        "a game battle side with {} unit types",
        classes.len()
    );
    let mut stack = Stack::of(classes);
    for (class, k) in present(&f.units).enumerate() {
        stack.intact[class] = f.units[k];
    }
    Side {
        nomad: f.nomad,
        rome: f.rome,
        decline: f.decline,
        horde: f.horde,
        without_capital: f.without_capital,
        leader: f.leader.map(u32::from),
        rerolls: f.leader.map_or(0, u32::from),
        ..Side::new(f.status, stack)
    }
}

impl Battles {
    pub fn new(system: System, options: Options) -> Battles {
        Battles {
            system,
            rules: Rules::from(&options),
            sum_leader_rerolls: options.flag("sum_leader_rerolls"),
            policy: Policy::default(),
            options,
            models: FastMap::default(),
            odds: FastMap::default(),
            landings: FastMap::default(),
            at_sea: FastMap::default(),
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
        let g = &key.ground;
        let field = Field {
            terrain: g.terrain,
            barbarian_province: g.barbarian_province,
            crossing: g.crossing,
            all_crossed: true,
            interception: false,
            fortified_city: g.fortified_city,
            limes: g.limes,
            ambush: AmbushSetting::Auto,
        };
        let battle = LandBattle::new(
            self.system,
            field,
            key.sides.each_ref().map(side),
            self.rules.clone(),
            self.policy.clone(),
            self.sum_leader_rerolls,
        );
        match self.system {
            System::Basic => Model::Basic(Box::new(Basic(battle))),
            System::Advanced => Model::Advanced(Box::new(Advanced::new(battle))),
        }
    }

    /// P(the attacker wins), exact where the solver can (cached).
    pub fn p_attacker(&mut self, ground: Ground, sides: [Fighter; 2]) -> f64 {
        let key = Key { ground, sides };
        let odds_key = key.for_odds();
        if let Some(&p) = self.odds.get(&odds_key) {
            return p;
        }
        // The policies ask for odds of leaderless stacks (see `Play::evaluate`) while most
        // battles are fought with leaders: a model built only for odds is not kept.
        let built;
        let model = match self.models.get(&key) {
            Some(m) => m,
            None => {
                built = self.build(&odds_key);
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
        self.odds.insert(odds_key, p);
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
            let (a, w) = (&st.survivors[s], &b.sides[s].waiting);
            for (class, k) in present(&sides[s].units).enumerate() {
                // Damaged elites count as units: the game does not track damage.
                out.survivors[s][k] =
                    a.intact[class] + a.damaged[class] + w.intact[class] + w.damaged[class];
            }
        }
        out
    }

    /// One landing from the game's dice, played by the calculator's `Landing` (built once per
    /// situation): its sea-risk roll, interception D2 and naval battle.
    pub fn land(&mut self, key: LandingKey, dice: &mut Dice) -> Landed {
        let mut trial = Trial::default();
        self.landing(key).trial(dice, &mut trial);
        // The Landing schema's columns: units landed, lost at sea, each side's fleets lost; the
        // scalars sea-risk failure and intercepted first.
        let intercepted = trial.scalars[1] > 0.0;
        Landed {
            sea_failure: trial.scalars[0] > 0.0,
            intercepted,
            landed: trial.counts[0] as u8,
            fleets_lost: [trial.counts[2] as u8, trial.counts[3] as u8],
            refused: intercepted && key.refuse,
        }
    }

    /// The exact means of one landing (the same `Landing` model [`Battles::land`] plays), for
    /// the planners of transports and landings.
    pub fn at_sea(&mut self, key: LandingKey) -> AtSea {
        if let Some(&a) = self.at_sea.get(&key) {
            return a;
        }
        // The Landing's exact distribution never fails (its naval battle has 2 fleets a side at
        // most); an intractable one would be a bug in the game.
        let ex = self
            .landing(key)
            .exact()
            .expect("a game landing's exact distribution");
        let a = AtSea {
            p_intercepted: ex.scalars[1],
            units_landed: ex.counts[0].mean(),
            units_lost: ex.counts[1].mean(),
        };
        if self.at_sea.len() >= ODDS {
            self.at_sea.clear();
        }
        self.at_sea.insert(key, a);
        a
    }

    /// The calculator's `Landing` for `key`, built once per situation.
    fn landing(&mut self, key: LandingKey) -> &Landing {
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
                naval::Policy {
                    refuse: if key.refuse {
                        naval::Refuse::Attacker
                    } else {
                        naval::Refuse::Never
                    },
                    ..naval::Policy::default()
                },
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
        &self.landings[&key]
    }

    /// (built battles, P(win) values) held.
    pub fn cached(&self) -> (usize, usize) {
        (self.models.len(), self.odds.len())
    }
}

const TRIALS: u64 = 400;

fn exact_p_attacker(model: &Model) -> Option<f64> {
    let b = model.battle();
    let finishes = match model {
        Model::Basic(basic) => return basic.probability_where(|f| b.winner(f) == ATTACKER).ok(),
        Model::Advanced(a) => a.finishes(),
    };
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
    use crate::rulesets::invasions::advanced::Advanced;
    use crate::rulesets::invasions::{land, OPTIONS};
    use crate::spec::Fields;

    fn fighter(status: Status, units: &[(&str, u8)], leader: Option<u8>) -> Fighter {
        let mut counts = [0; NT];
        for &(name, n) in units {
            counts[super::super::state::template(name)] = n;
        }
        Fighter {
            status,
            nomad: false,
            rome: false,
            decline: false,
            horde: false,
            without_capital: false,
            units: counts,
            leader,
        }
    }

    /// A game battle is the very model its battle file gives: the same sides (classes in the same
    /// order), field, recovery and exact finishes.
    #[test]
    fn a_game_battle_is_the_model_its_battle_file_gives() {
        let options = Options::defaults(OPTIONS);
        let mut horde = fighter(
            Status::Barbarian,
            &[("infantry", 3), ("cavalry", 2), ("archer", 1)],
            Some(2),
        );
        horde.horde = true;
        // Noble cavalry and clibanarii are worth the same: the class order breaks the tie.
        let mut rome = fighter(
            Status::Empire,
            &[("legion", 1), ("noble_cavalry", 1), ("clibanarii", 1)],
            Some(1),
        );
        rome.rome = true;
        rome.decline = true;
        let river = Ground {
            terrain: Terrain::Forest,
            barbarian_province: true,
            crossing: Border::River,
            fortified_city: true,
            limes: true,
        };
        let file = "terrain = \"forest\"\nprovince = \"barbarian\"\ncrossing = \"river\"\n\
            fortified_city = true\nlimes = true\n\
            [attacker]\ninfantry = 3\ncavalry = 2\narcher = 1\nhorde = true\nleader = 2\n\
            [defender]\nnation = \"empire\"\nrome = true\ndecline = true\nlegion = 1\n\
            noble_cavalry = 1\nclibanarii = 1\nleader = 1\n";
        let mut kingdom = fighter(Status::Kingdom, &[("heavy_infantry", 2)], None);
        kingdom.without_capital = true;
        let mountain = Ground {
            terrain: Terrain::Mountain,
            barbarian_province: false,
            crossing: Border::None,
            fortified_city: false,
            limes: false,
        };
        let file2 = "terrain = \"mountain\"\n\
            [attacker]\nnation = \"kingdom\"\nheavy_infantry = 2\nkingdom_without_capital = true\n\
            [defender]\ninfantry = 2\ncavalry = 1\n";
        let raiders = fighter(Status::Barbarian, &[("infantry", 2), ("cavalry", 1)], None);
        for (ground, sides, file) in [
            (river, [horde, rome], file),
            (mountain, [kingdom, raiders], file2),
        ] {
            let table: toml::Table = file.parse().unwrap();
            for system in [System::Basic, System::Advanced] {
                let game = Battles::new(system, options.clone()).build(&Key { ground, sides });
                let fields = Fields::new("test", &table);
                let filed = land::build(&fields, options.clone(), system).unwrap();
                let (a, b) = (game.battle(), &filed);
                assert_eq!(format!("{:?}", a.sides), format!("{:?}", b.sides));
                assert_eq!(format!("{:?}", a.field), format!("{:?}", b.field));
                assert_eq!(a.recovery, b.recovery);
                assert!(b.city.is_none());
                match game {
                    Model::Basic(g) => {
                        assert_eq!(g.finishes().unwrap(), Basic(filed).finishes().unwrap())
                    }
                    Model::Advanced(g) => {
                        assert_eq!(g.finishes(), Advanced::new(filed).finishes())
                    }
                }
            }
        }
    }

    /// The odds sum only the attacker's finishes, yet bit for bit as summing them over the whole
    /// sorted list of finishes would.
    #[test]
    fn the_odds_are_the_sum_over_the_sorted_finishes() {
        let options = Options::defaults(OPTIONS);
        let barbarians = fighter(Status::Barbarian, &[("infantry", 3), ("cavalry", 2)], None);
        let led = fighter(
            Status::Barbarian,
            &[("infantry", 2), ("archer", 1)],
            Some(2),
        );
        let empire = fighter(Status::Empire, &[("legion", 2), ("archer", 1)], Some(1));
        let kingdom = fighter(
            Status::Kingdom,
            &[("heavy_infantry", 2), ("cavalry", 1)],
            None,
        );
        let mut ground = Ground {
            terrain: Terrain::Plain,
            barbarian_province: true,
            crossing: Border::River,
            fortified_city: false,
            limes: false,
        };
        let battles = Battles::new(System::Basic, options);
        for terrain in [Terrain::Plain, Terrain::Forest, Terrain::Mountain] {
            ground.terrain = terrain;
            for sides in [[barbarians, empire], [led, kingdom], [kingdom, barbarians]] {
                let model = battles.build(&Key { ground, sides });
                let Model::Basic(basic) = &model else {
                    unreachable!("a basic system builds basic battles")
                };
                let b = model.battle();
                let whole: f64 = basic
                    .finishes()
                    .unwrap()
                    .iter()
                    .filter(|(f, _)| b.winner(f) == ATTACKER)
                    .map(|(_, p)| p)
                    .sum();
                let p = exact_p_attacker(&model).unwrap();
                assert!(p > 0.0 && p < 1.0);
                assert_eq!(p.to_bits(), whole.to_bits());
            }
        }
    }

    /// What the odds key clears cannot change P(attacker wins): the models built from the full
    /// keys and from their odds keys give the same exact P, bit for bit.
    #[test]
    fn the_odds_key_clears_only_what_cannot_change_who_wins() {
        let options = Options::defaults(OPTIONS);
        let mut kingdom = fighter(Status::Kingdom, &[("infantry", 3), ("cavalry", 1)], Some(1));
        kingdom.without_capital = true;
        let mut empire = fighter(Status::Empire, &[("legion", 2), ("archer", 1)], Some(2));
        empire.decline = true;
        let barbarians = fighter(Status::Barbarian, &[("infantry", 4)], None);
        let ground = Ground {
            terrain: Terrain::Plain,
            barbarian_province: true,
            crossing: Border::None,
            fortified_city: false,
            limes: false,
        };
        for system in [System::Basic, System::Advanced] {
            let battles = Battles::new(system, options.clone());
            for sides in [
                [kingdom, empire],
                [empire, kingdom],
                [barbarians, barbarians],
            ] {
                let key = Key { ground, sides };
                let odds = key.for_odds();
                assert_ne!(key, odds);
                let p = |k: &Key| exact_p_attacker(&battles.build(k)).unwrap();
                assert_eq!(p(&key).to_bits(), p(&odds).to_bits());
            }
            // A Barbarian attacking a Civilized nation keeps the province's die.
            let key = Key {
                ground,
                sides: [barbarians, empire],
            };
            assert!(key.for_odds().ground.barbarian_province);
        }
    }
}

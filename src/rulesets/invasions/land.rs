//! What the basic (XX) and advanced (XXI) land battles share: the battlefield, the two sides, the
//! rule readings and player policies in force, and everything after the last volley — victory,
//! leader loss, recovery, repair, retreat and hordes (digest §3.0.5, §3.12).

use super::allocation::Casualties;
use super::army::{self, parse_stack, Army, Origin, Stack, Status, UnitClass};
use crate::battle::keys::{self, Key};
use crate::battle::Schema;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use std::sync::OnceLock;
use toml::Table;

pub use super::outcome::{Finish, Layout, Settlement, Sink, Weighted};
use super::take_city::CityPlan;

pub const ATTACKER: usize = 0;
pub const DEFENDER: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    Plain,
    Steppe,
    Desert,
    Forest,
    Mountain,
    Swamp,
}

impl Terrain {
    pub const NAMES: &'static [&'static str] =
        &["plain", "steppe", "desert", "forest", "mountain", "swamp"];

    fn parse(s: &str) -> Terrain {
        match s {
            "plain" => Terrain::Plain,
            "steppe" => Terrain::Steppe,
            "desert" => Terrain::Desert,
            "forest" => Terrain::Forest,
            "mountain" => Terrain::Mountain,
            _ => Terrain::Swamp,
        }
    }

    /// Plain, steppe and desert (L1427, L1863).
    pub fn open(self) -> bool {
        matches!(self, Terrain::Plain | Terrain::Steppe | Terrain::Desert)
    }

    pub fn name(self) -> &'static str {
        Terrain::NAMES[self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Crossing {
    None,
    River,
    MountainRange,
    Strait,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmbushSetting {
    /// Automatic after a range or river crossing, else on a passed D2 (L1354).
    Auto,
    Always,
    Never,
}

/// The province and how the attacker came in.
#[derive(Clone, Debug)]
pub struct Field {
    pub terrain: Terrain,
    pub barbarian_province: bool,
    pub crossing: Crossing,
    pub all_crossed: bool,
    pub interception: bool,
    pub fortified_city: bool,
    pub limes: bool,
    pub ambush: AmbushSetting,
}

/// One side as entered.
#[derive(Clone, Debug)]
pub struct Side {
    pub status: Status,
    pub nomad: bool,
    pub rome: bool,
    pub decline: bool,
    pub stack: Stack,
    pub fighting: Army,
    pub waiting: Army,
    /// Printed combat bonus of the best leader, None without a leader.
    pub leader: Option<u32>,
    pub rerolls: u32,
    pub leader_mountains: bool,
    pub horde: bool,
    /// A Kingdom with no capital submits when its leader and his stack are destroyed (XXIX.C).
    pub without_capital: bool,
    pub can_retreat: bool,
    pub event_dice: i32,
    pub event_exchanges: i32,
    pub event_modifier: i32,
}

impl Side {
    /// A side as a battle file's defaults have it (no leader, no stacking limit, no event cards,
    /// free to retreat), with every unit of `stack` fighting.
    pub fn new(status: Status, stack: Stack) -> Side {
        let (fighting, waiting) = stack.split_at_limit(u32::MAX);
        Side {
            status,
            nomad: false,
            rome: false,
            decline: false,
            stack,
            fighting,
            waiting,
            leader: None,
            rerolls: 0,
            leader_mountains: false,
            horde: false,
            without_capital: false,
            can_retreat: true,
            event_dice: 0,
            event_exchanges: 0,
            event_modifier: 0,
        }
    }

    pub fn classes(&self) -> &[UnitClass] {
        &self.stack.classes
    }
    pub fn best_bonus(&self) -> u32 {
        self.leader.unwrap_or(0)
    }
    /// Has at least one genuine unit of its own nation (auxiliaries and mercenaries are not).
    pub fn has_national(&self, army: &Army) -> bool {
        self.classes()
            .iter()
            .enumerate()
            .any(|(k, c)| c.origin == Origin::National && army.intact[k] + army.damaged[k] > 0)
    }
    pub fn all_national(&self, army: &Army) -> bool {
        self.classes()
            .iter()
            .enumerate()
            .all(|(k, c)| c.origin == Origin::National || army.intact[k] + army.damaged[k] == 0)
    }
}

/// Rule readings (digest §3.16), resolved once.
#[derive(Clone, Debug)]
pub struct Rules {
    pub forest_literal: bool,
    pub mixed_all_units_in_basic: bool,
    pub river_needs_all_amphibious: bool,
    pub elite_exchange_minimum: u32,
    pub rerolls_in_fire_round: bool,
    pub ambusher_is_defender: bool,
    pub ambush_recompute_advantages: bool,
    pub fire_pooled_rounding: bool,
    pub tie_any_side_horde: bool,
    pub fortified_any_defender: bool,
    pub small_battle_with_horde_and_limes: bool,
    pub both_wiped_defender_wins: bool,
    pub horde_needs_extra_hit: bool,
    pub tie_break_remaining: bool,
    pub ambush_all_other_units: bool,
    pub fire_minimum_one_die: bool,
    pub advanced_fire_per_term: bool,
    pub advanced_fire_lose_basic_die: bool,
}

impl Rules {
    pub fn from(o: &Options) -> Rules {
        Rules {
            forest_literal: o.choice("forest_penalty") == "literal",
            mixed_all_units_in_basic: o.choice("mixed_stack_bonus") == "all-units-in-basic",
            river_needs_all_amphibious: o.choice("river_amphibious") == "all-amphibious",
            elite_exchange_minimum: o.int("elite_exchange_minimum") as u32,
            rerolls_in_fire_round: o.flag("rerolls_in_fire_round"),
            ambusher_is_defender: o.choice("ambusher") == "defender",
            ambush_recompute_advantages: o.flag("ambush_recompute_advantages"),
            fire_pooled_rounding: o.choice("fire_dice_rounding") == "pooled",
            tie_any_side_horde: o.choice("tie_city_or_horde") == "any-side",
            fortified_any_defender: o.choice("fortified_city_bonus") == "any-defender",
            small_battle_with_horde_and_limes: o.choice("small_battle_count")
                == "with-horde-and-limes",
            both_wiped_defender_wins: o.choice("both_wiped_out") == "defender-wins",
            horde_needs_extra_hit: o.flag("horde_needs_extra_hit_on_defence"),
            tie_break_remaining: o.choice("tie_break_bonus") == "remaining-rerolls",
            ambush_all_other_units: o.choice("ambush_extra_units") == "all-other-units",
            fire_minimum_one_die: o.flag("fire_minimum_one_die"),
            advanced_fire_per_term: o.choice("advanced_fire_rounding") == "per-term",
            advanced_fire_lose_basic_die: o.choice("advanced_fire_heavy_penalty")
                == "lose-basic-die",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderOption {
    Auto,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdvancedOption {
    Auto,
    OwnPlusTwo,
    EnemyMinusTwo,
    Never,
}

/// Player choices (digest §3.15; defaults §8.5).
#[derive(Clone, Debug)]
pub struct Policy {
    pub casualties: Casualties,
    /// None: leaders never reroll.
    pub reroll_threshold: Option<f64>,
    pub leader_option: LeaderOption,
    pub advanced_option: AdvancedOption,
    pub ambush: bool,
    pub retreat_threshold: f64,
    /// Unit types from least to most valuable, for casualties and recovery (default: §8.5's order).
    pub unit_order: Vec<&'static army::Template>,
    /// The Romans give the first hit to a supported Limes (it is destroyed, no unit is), instead of
    /// only the hits no unit can take.
    pub limes_first: bool,
}

impl Default for Policy {
    /// Every policy key at its declared default.
    fn default() -> Policy {
        let empty = Table::new();
        Policy::parse(&Fields::new("policy defaults", &empty))
            .expect("the declared defaults are valid")
    }
}

impl Policy {
    fn parse(p: &Fields) -> Result<Policy> {
        let threshold = REROLL_THRESHOLD.number(p)?;
        Ok(Policy {
            casualties: match CASUALTIES.choice(p)? {
                "min-elim" => Casualties::MinElim,
                _ => Casualties::Smart,
            },
            reroll_threshold: match REROLLS.choice(p)? {
                "never" => None,
                _ => Some(threshold),
            },
            leader_option: match LEADER_OPTION.choice(p)? {
                "never" => LeaderOption::Never,
                _ => LeaderOption::Auto,
            },
            advanced_option: match ADVANCED_OPTION.choice(p)? {
                "own-plus-2" => AdvancedOption::OwnPlusTwo,
                "enemy-minus-2" => AdvancedOption::EnemyMinusTwo,
                "never" => AdvancedOption::Never,
                _ => AdvancedOption::Auto,
            },
            ambush: AMBUSH_POLICY.bool(p)?,
            retreat_threshold: RETREAT_THRESHOLD.number(p)?,
            unit_order: parse_unit_order(p)?,
            limes_first: LIMES_POLICY.choice(p)? == "first",
        })
    }

    pub fn describe(&self) -> String {
        format!(
            "policy: casualties {}, rerolls {}, leader option {}, ambush {}, voluntary retreat (advanced) below P(win) {}, or below 1/2 when outnumbered 2:1",
            match self.casualties {
                Casualties::Smart => "smart (free eliminations the recovery undoes; elite, cavalry and heavy thresholds kept between rounds)",
                Casualties::MinElim => "min-elim (flip elites first, then cheapest units)",
            },
            match self.reroll_threshold {
                None => "never".to_string(),
                Some(t) => format!("greedy (gain > {t})"),
            },
            match self.leader_option {
                LeaderOption::Auto => "auto",
                LeaderOption::Never => "never",
            },
            if self.ambush { "when allowed" } else { "never" },
            self.retreat_threshold
        ) + &if self.unit_order.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = self.unit_order.iter().map(|t| t.name).collect();
            format!(", unit order (least valuable first) {}", names.join(" < "))
        } + if self.limes_first { ", the Limes takes the first hit" } else { "" }
    }
}

fn parse_unit_order(p: &Fields) -> Result<Vec<&'static army::Template>> {
    let names: Vec<&str> = army::TEMPLATES.iter().map(|t| t.name).collect();
    let allowed = || {
        format!(
            "a list of unit types, least valuable first, from {}",
            names.join(", ")
        )
    };
    let Some(v) = UNIT_ORDER.raw(p)? else {
        return Ok(Vec::new());
    };
    let Some(items) = v.as_array() else {
        return Err(AleaError::input(
            p.source,
            p.field("unit_order"),
            v,
            allowed(),
        ));
    };
    let mut order = Vec::new();
    for item in items {
        let t = item
            .as_str()
            .and_then(|s| army::TEMPLATES.iter().find(|t| t.name == s));
        match t {
            Some(t) if !order.iter().any(|o: &&army::Template| o.name == t.name) => order.push(t),
            _ => {
                return Err(AleaError::input(
                    p.source,
                    p.field("unit_order"),
                    item,
                    allowed(),
                ))
            }
        }
    }
    Ok(order)
}

use super::SIDES;
const POLICY: &[&str] = &["policy"];

const TERRAIN: Key = keys::choice("terrain", Terrain::NAMES)
    .default_choice("plain")
    .help("the province's terrain");
const PROVINCE: Key = keys::choice("province", &["barbarian", "civilized"])
    .default_choice("civilized")
    .help("a Barbarian province gives a Barbarian attacker +1");
const CROSSING: Key = keys::choice("crossing", &["none", "river", "mountain-range", "strait"])
    .default_choice("none")
    .help("what the attacker crossed to enter (in an interception battle: what the interceptors crossed, which makes a mountain ambush automatic)");
const ALL_CROSSED: Key = keys::flag("all_crossed")
    .default_bool(true)
    .help("every attacking unit crossed (the penalty needs all)");
const INTERCEPTION: Key = keys::flag("interception").help(
    "the defender intercepted the moving attacker (no crossing penalties; the attacker may ambush)",
);
const FORTIFIED_CITY: Key =
    keys::flag("fortified_city").help("a fortified city held by the defender");
const LIMES: Key = keys::flag("limes").help("a Roman Limes supports the defender");
const AMBUSH: Key = keys::choice("ambush", &["auto", "always", "never"])
    .default_choice("auto")
    .help("\"auto\": in mountains, automatic after a range or river crossing, else a D2");

const NATION: Key = keys::choice("nation", &["barbarian", "kingdom", "empire"])
    .default_choice("barbarian")
    .help("the side's nation status");
const NOMAD: Key = keys::flag("nomad").help("a Nomad nation");
const ROME: Key = keys::flag("rome").help("Rome or Byzantium (double elite exchange)");
const DECLINE: Key =
    keys::flag("decline").help("an Empire in Decline (a winning leader may be assassinated)");
const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader")
    .help("the best leader's combat bonus (= rerolls); give either leader or leaders");
const LEADERS: Key = Key::new(
    "leaders",
    keys::Type::List {
        format: "the combat bonuses 0..3 of several leaders",
        example: "[3, 1]",
    },
)
.absent("no leader")
.help("several leaders");
const LEADER_MOUNTAINS: Key = keys::flag("leader_mountains").help("the leader cannot be ambushed");
const HORDE: Key = keys::flag("horde")
    .help("a horde with the stack (defence: +1 die / +1 column; attack: stays in the rear)");
const WITHOUT_CAPITAL: Key = keys::flag("kingdom_without_capital").help(
    "a Kingdom with no capital (e.g. the Euskaldunes), which submits when its leader and his stack are destroyed",
);
const CAN_RETREAT: Key = keys::flag("can_retreat")
    .default_bool(true)
    .help("false if the loser has nowhere to go (its units are then eliminated)");
const STACKING_LIMIT: Key = keys::int("stacking_limit", 1, 40)
    .absent("no limit")
    .help("units beyond it wait outside and share the stack's fate");
const EVENT_DICE: Key = keys::int("event_dice", -3, 3)
    .default_int(0)
    .help("event cards: dice");
const EVENT_EXCHANGES: Key = keys::int("event_exchanges", -3, 3)
    .default_int(0)
    .help("event cards: exchanges (basic)");
const EVENT_MODIFIER: Key = keys::int("event_modifier", -3, 3)
    .default_int(0)
    .help("event cards: modifier (advanced)");
const UNIT: Key = keys::int("<unit>", 0, 40)
    .default_int(0)
    .family(army::is_unit_key, "archer")
    .hints(army::UNIT_NAMES)
    .help("how many units: <unit> one of infantry, frankish_infantry, archer, cavalry, horse_archer, heavy_infantry, heavy_cavalry, elite_infantry, legion, elite_cavalry, noble_cavalry, clibanarii, cataphractae, guard, palatine_cavalry; prefixes damaged_, alpine_, amphibious_, auxiliary_, mercenary_ combine (alpine_archer, damaged_legion)");

const CASUALTIES: Key = keys::choice("casualties", &["smart", "min-elim"])
    .default_choice("smart")
    .help("who takes the hits");
const REROLLS: Key = keys::choice("rerolls", &["greedy", "never"])
    .default_choice("greedy")
    .help("whether leaders reroll");
const REROLL_THRESHOLD: Key = keys::number("reroll_threshold", -2.0, 2.0)
    .default_number(0.0)
    .help("τ: a die is rerolled only if its gain exceeds τ");
const LEADER_OPTION: Key = keys::choice("leader_option", &["auto", "never"])
    .default_choice("auto")
    .help("whether the leader option is used");
const ADVANCED_OPTION: Key = keys::choice(
    "advanced_option",
    &["auto", "own-plus-2", "enemy-minus-2", "never"],
)
.default_choice("auto")
.help("the advanced system's leader option");
const AMBUSH_POLICY: Key = keys::flag("ambush")
    .default_bool(true)
    .help("ambush when allowed");
const RETREAT_THRESHOLD: Key = keys::number("retreat_threshold", 0.0, 1.0)
    .default_number(0.3)
    .help("P(win) below which a side retreats after round 1");
const UNIT_ORDER: Key = Key::new(
    "unit_order",
    keys::Type::List {
        format: "unit types from least to most valuable",
        example: "[\"infantry\", \"archer\", \"legion\"]",
    },
)
.absent("infantry, Frankish infantry, damaged elites, archer, cavalry, horse archer, heavy, elites, Guards")
.help("who is eliminated first and recovered last");
const LIMES_POLICY: Key = keys::choice("limes", &["last-resort", "first"])
    .default_choice("last-resort")
    .help("\"last-resort\": the Limes takes only hits no unit can; \"first\": it takes a volley's first hit");

const FIELD_KEYS: [Key; 8] = [
    TERRAIN,
    PROVINCE,
    CROSSING,
    ALL_CROSSED,
    INTERCEPTION,
    FORTIFIED_CITY,
    LIMES,
    AMBUSH,
];
const SIDE_KEYS: [Key; 15] = keys::placed(
    [
        NATION,
        NOMAD,
        ROME,
        DECLINE,
        LEADER,
        LEADERS,
        LEADER_MOUNTAINS,
        HORDE,
        WITHOUT_CAPITAL,
        CAN_RETREAT,
        STACKING_LIMIT,
        EVENT_DICE,
        EVENT_EXCHANGES,
        EVENT_MODIFIER,
        UNIT,
    ],
    &SIDES,
);
const POLICY_KEYS: [Key; 9] = keys::placed(
    [
        CASUALTIES,
        REROLLS,
        REROLL_THRESHOLD,
        UNIT_ORDER,
        LIMES_POLICY,
        LEADER_OPTION,
        ADVANCED_OPTION,
        AMBUSH_POLICY,
        RETREAT_THRESHOLD,
    ],
    POLICY,
);

/// The keys of a land battle file (basic and advanced alike).
pub const KEYS: &[Key] = &keys::join::<37>(&[
    &FIELD_KEYS,
    &SIDE_KEYS,
    &super::take_city::CITY_KEYS,
    &POLICY_KEYS,
]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Basic,
    Advanced,
}

/// A land battle, ready to be played by either system.
pub struct LandBattle {
    pub system: System,
    pub field: Field,
    pub sides: [Side; 2],
    pub rules: Rules,
    pub policy: Policy,
    /// Recovery slots of each side (L1457): 2, 1 or 0 by the smaller stack at the start.
    pub recovery: u32,
    /// The siege the winning attacker lays afterwards, when `[city]` is given.
    pub city: Option<CityPlan>,
    /// The reported columns, laid out on first use: the full game plays its battles without
    /// reporting them, and naming the columns would cost it more than playing a battle.
    columns: OnceLock<(Schema, Layout)>,
}

fn parse_side(fields: &Fields, name: &'static str, empty: &Table) -> Result<Side> {
    let side = fields.table(name, empty)?;
    let status = match NATION.choice(&side)? {
        "kingdom" => Status::Kingdom,
        "empire" => Status::Empire,
        _ => Status::Barbarian,
    };
    let stack = parse_stack(&side, status, &UNIT)?;
    if stack.total() == 0 {
        return Err(AleaError::input(
            fields.source,
            format!("{name}.infantry"),
            0,
            "at least one unit a side (see `alea list` for the unit keys)",
        ));
    }
    let list_error = |x: &toml::Value| {
        AleaError::input(
            fields.source,
            format!("{name}.leaders"),
            x,
            "a list of combat bonuses 0..3",
        )
    };
    let leaders: Vec<u32> = match (LEADER.opt_int(&side)?, LEADERS.raw(&side)?) {
        (Some(_), Some(_)) => {
            return Err(AleaError::invalid(
                fields.source,
                format!("give either `{name}.leader` or `{name}.leaders`, not both"),
            ))
        }
        (Some(l), None) => vec![l as u32],
        (None, Some(toml::Value::Array(a))) => {
            let mut v = Vec::new();
            for x in a {
                match x.as_integer() {
                    Some(i) if (0..=3).contains(&i) => v.push(i as u32),
                    _ => return Err(list_error(x)),
                }
            }
            v
        }
        (None, Some(v)) => return Err(list_error(v)),
        (None, None) => vec![],
    };
    let limit = STACKING_LIMIT.opt_int(&side)?.map(|l| l as u32);
    let (fighting, waiting) = stack.split_at_limit(limit.unwrap_or(u32::MAX));
    Ok(Side {
        status,
        nomad: NOMAD.bool(&side)?,
        rome: ROME.bool(&side)?,
        decline: DECLINE.bool(&side)?,
        leader: leaders.iter().copied().max(),
        // All leaders' rerolls; `build` keeps only the best one's unless Q8's option says otherwise.
        rerolls: leaders.iter().sum(),
        leader_mountains: LEADER_MOUNTAINS.bool(&side)?,
        horde: HORDE.bool(&side)?,
        without_capital: WITHOUT_CAPITAL.bool(&side)?,
        can_retreat: CAN_RETREAT.bool(&side)?,
        event_dice: EVENT_DICE.int(&side)? as i32,
        event_exchanges: EVENT_EXCHANGES.int(&side)? as i32,
        event_modifier: EVENT_MODIFIER.int(&side)? as i32,
        stack,
        fighting,
        waiting,
    })
}

/// Builds a land battle from fields the declaration ([`KEYS`]) has checked.
pub fn build(fields: &Fields, options: Options, system: System) -> Result<LandBattle> {
    let empty = Table::new();
    let rules = Rules::from(&options);
    let sides = [
        parse_side(fields, SIDES[0], &empty)?,
        parse_side(fields, SIDES[1], &empty)?,
    ];
    let field = Field {
        terrain: Terrain::parse(TERRAIN.choice(fields)?),
        barbarian_province: PROVINCE.choice(fields)? == "barbarian",
        crossing: match CROSSING.choice(fields)? {
            "river" => Crossing::River,
            "mountain-range" => Crossing::MountainRange,
            "strait" => Crossing::Strait,
            _ => Crossing::None,
        },
        all_crossed: ALL_CROSSED.bool(fields)?,
        interception: INTERCEPTION.bool(fields)?,
        fortified_city: FORTIFIED_CITY.bool(fields)?,
        limes: LIMES.bool(fields)?,
        ambush: match AMBUSH.choice(fields)? {
            "always" => AmbushSetting::Always,
            "never" => AmbushSetting::Never,
            _ => AmbushSetting::Auto,
        },
    };
    let policy = Policy::parse(&fields.table("policy", &empty)?)?;
    let sum_rerolls = options.flag("sum_leader_rerolls");
    let mut battle = LandBattle::new(system, field, sides, rules, policy, sum_rerolls);
    battle.city = CityPlan::parse(
        fields,
        &battle.sides[ATTACKER],
        battle.field.fortified_city,
        &options,
    )?;
    Ok(battle)
}

impl LandBattle {
    /// A battle from its parts, the one place a land battle is put together (a battle file's
    /// table through [`build`]; the full game from its own state, with no table): the leaders'
    /// rerolls (Q8), the policy's unit order and the small-battle recovery. No siege follows.
    pub fn new(
        system: System,
        field: Field,
        mut sides: [Side; 2],
        rules: Rules,
        policy: Policy,
        sum_leader_rerolls: bool,
    ) -> LandBattle {
        if !sum_leader_rerolls {
            for s in &mut sides {
                s.rerolls = s.leader.unwrap_or(0);
            }
        }
        if !policy.unit_order.is_empty() {
            for side in &mut sides {
                side.stack.reorder_worth(&policy.unit_order);
                let limit = side.fighting.units();
                (side.fighting, side.waiting) = side.stack.split_at_limit(limit);
            }
        }
        let starts = [0, 1].map(|s| {
            let mut n = sides[s].fighting.units();
            if rules.small_battle_with_horde_and_limes {
                n += sides[s].horde as u32 + (s == DEFENDER && field.limes) as u32;
            }
            n
        });
        let recovery = match starts.iter().min() {
            Some(0) | Some(1) => 0,
            Some(2) => 1,
            _ => 2,
        };
        LandBattle {
            system,
            field,
            sides,
            rules,
            policy,
            recovery,
            city: None,
            columns: OnceLock::new(),
        }
    }

    fn columns(&self) -> &(Schema, Layout) {
        self.columns.get_or_init(|| {
            Layout::schema(&self.sides, self.system, &self.field, self.city.is_some())
        })
    }

    /// What the calculator reports of this battle.
    pub fn schema(&self) -> &Schema {
        &self.columns().0
    }

    pub fn layout(&self) -> &Layout {
        &self.columns().1
    }

    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for s in 0..2 {
            let side = &self.sides[s];
            let mut t = format!(
                "{}: {} ({}{}{})",
                super::SIDES[s],
                side.stack.describe(),
                match side.status {
                    Status::Barbarian => "Barbarian",
                    Status::Kingdom => "Kingdom",
                    Status::Empire => "Empire",
                },
                if side.nomad { ", Nomad" } else { "" },
                if side.rome { ", Rome/Byzantium" } else { "" },
            );
            match side.leader {
                Some(b) => t.push_str(&format!("; leader +{b}, {} reroll(s)", side.rerolls)),
                None => t.push_str("; no leader"),
            }
            if side.horde {
                t.push_str("; horde");
            }
            if side.waiting.units() > 0 {
                t.push_str(&format!(
                    "; {} unit(s) wait outside the stacking limit",
                    side.waiting.units()
                ));
            }
            lines.push(t);
        }
        let f = &self.field;
        let mut t = format!(
            "{} ({})",
            f.terrain.name(),
            if f.terrain.open() {
                "open: red swords count"
            } else {
                "closed: red swords void"
            }
        );
        if f.barbarian_province {
            t.push_str(", Barbarian province");
        }
        if f.crossing != Crossing::None {
            t.push_str(&format!(", attacker crossed a {:?}", f.crossing).to_lowercase());
        }
        if f.interception {
            t.push_str(", interception battle");
        }
        if f.fortified_city {
            t.push_str(", fortified city");
        }
        if f.limes {
            t.push_str(", Limes");
        }
        lines.push(t);
        lines
    }

    pub fn common_notes(&self) -> Vec<String> {
        let mut notes = vec![
            self.policy.describe(),
            format!(
                "recovery: each side brings back up to {} eliminated unit(s) (small-battle rule)",
                self.recovery
            ),
        ];
        if let Some(city) = &self.city {
            notes.push(format!(
                "{}: city_taken = P(the attacker wins and takes the city this turn)",
                city.description
            ));
        }
        notes
    }
}

/// Both sides' cavalry and heavy advantages now: [side][0 = cavalry, 1 = heavy].
pub fn advantages(b: &LandBattle, armies: &[Army; 2]) -> [[bool; 2]; 2] {
    let cav = [0, 1].map(|s| army::cavalry(b.sides[s].classes(), &armies[s]));
    let heavy = [0, 1].map(|s| army::heavy(b.sides[s].classes(), &armies[s]));
    [0, 1].map(|s| {
        [
            army::advantage(cav[s], cav[1 - s]),
            army::advantage(heavy[s], heavy[1 - s]),
        ]
    })
}

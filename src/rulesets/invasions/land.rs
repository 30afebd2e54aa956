//! What the basic (XX) and advanced (XXI) land battles share: the battlefield, the two sides, the
//! rule readings and player policies in force, and everything after the last volley — victory,
//! leader loss, recovery, repair, retreat and hordes (digest §3.0.5, §3.12).

use super::allocation::Casualties;
use super::army::{self, parse_stack, Army, Origin, Stack, Status, UnitClass};
use crate::battle::Schema;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub use super::outcome::{Finish, Layout, Settlement, Sink, Weighted};
use super::take_city::CityPlan;

pub const ATTACKER: usize = 0;
pub const DEFENDER: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

impl Policy {
    pub const KEYS: &'static [&'static str] = &[
        "casualties",
        "rerolls",
        "reroll_threshold",
        "leader_option",
        "advanced_option",
        "ambush",
        "retreat_threshold",
        "unit_order",
        "limes",
    ];

    fn parse(p: &Fields) -> Result<Policy> {
        p.only(Policy::KEYS)?;
        let threshold = p.number_in("reroll_threshold", -2.0, 2.0)?.unwrap_or(0.0);
        Ok(Policy {
            casualties: match p.choice("casualties", &["smart", "min-elim"])? {
                Some("min-elim") => Casualties::MinElim,
                _ => Casualties::Smart,
            },
            reroll_threshold: match p.choice("rerolls", &["greedy", "never"])? {
                Some("never") => None,
                _ => Some(threshold),
            },
            leader_option: match p.choice("leader_option", &["auto", "never"])? {
                Some("never") => LeaderOption::Never,
                _ => LeaderOption::Auto,
            },
            advanced_option: match p.choice(
                "advanced_option",
                &["auto", "own-plus-2", "enemy-minus-2", "never"],
            )? {
                Some("own-plus-2") => AdvancedOption::OwnPlusTwo,
                Some("enemy-minus-2") => AdvancedOption::EnemyMinusTwo,
                Some("never") => AdvancedOption::Never,
                _ => AdvancedOption::Auto,
            },
            ambush: p.bool("ambush")?.unwrap_or(true),
            retreat_threshold: p.number_in("retreat_threshold", 0.0, 1.0)?.unwrap_or(0.3),
            unit_order: parse_unit_order(p)?,
            limes_first: p.choice("limes", &["last-resort", "first"])? == Some("first"),
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
    let Some(v) = p.raw("unit_order") else {
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

pub const SIDE_KEYS: &[&str] = &[
    "nation",
    "nomad",
    "rome",
    "decline",
    "leader",
    "leaders",
    "leader_mountains",
    "horde",
    "kingdom_without_capital",
    "can_retreat",
    "stacking_limit",
    "event_dice",
    "event_exchanges",
    "event_modifier",
];

pub const KEYS: &[&str] = &[
    "terrain: plain (default), steppe, desert, forest, mountain or swamp",
    "province: \"barbarian\" or \"civilized\" (default), for the Barbarian attacker's +1",
    "crossing: none (default), river, mountain-range or strait: what the attacker crossed to enter (in an interception battle: what the interceptors crossed, which makes a mountain ambush automatic)",
    "all_crossed: every attacking unit crossed (default true; the penalty needs all)",
    "interception: the defender intercepted the moving attacker (no crossing penalties; the attacker may ambush)",
    "fortified_city: a fortified city held by the defender",
    "limes: a Roman Limes supports the defender",
    "ambush: \"auto\" (default: in mountains, automatic after a range or river crossing, else a D2), \"always\" or \"never\"",
    "[attacker]/[defender] nation: barbarian (default), kingdom or empire; nomad: true for Nomads; rome: Rome or Byzantium (double elite exchange); decline: an Empire in Decline (a winning leader may be assassinated)",
    "[attacker]/[defender] leader: best leader's combat bonus 0..3 (= rerolls), or leaders = [3, 1] for several; leader_mountains: the leader cannot be ambushed",
    "[attacker]/[defender] horde: a horde with the stack (defence: +1 die / +1 column; attack: stays in the rear)",
    "[attacker]/[defender] kingdom_without_capital: a Kingdom with no capital (e.g. the Euskaldunes), which submits when its leader and his stack are destroyed",
    "[attacker]/[defender] can_retreat: false if the loser has nowhere to go (its units are then eliminated)",
    "[attacker]/[defender] stacking_limit: units beyond it wait outside and share the stack's fate",
    "[attacker]/[defender] event_dice, event_exchanges (basic), event_modifier (advanced): event cards",
    "[attacker]/[defender] <unit>: infantry, frankish_infantry, archer, cavalry, horse_archer, heavy_infantry, heavy_cavalry, elite_infantry, legion, elite_cavalry, noble_cavalry, clibanarii, cataphractae, guard, palatine_cavalry; prefixes damaged_, alpine_, amphibious_, auxiliary_, mercenary_ combine (alpine_archer, damaged_legion)",
    "[city] walls (none, standard, roma, ctesiphon, ravenna, constantinople, theodosian; default from fortified_city), decline (none, simple, double), fleet, turn, event: the winning attacker then besieges the city (reported as city_taken)",
    "[policy] casualties: smart (default) or min-elim; rerolls: greedy (default) or never; reroll_threshold: τ (default 0)",
    "[policy] unit_order: unit types from least to most valuable, e.g. [\"infantry\", \"archer\", \"legion\"]: who is eliminated first and recovered last (default: infantry, Frankish infantry, damaged elites, archer, cavalry, horse archer, heavy, elites, Guards)",
    "[policy] limes: \"last-resort\" (default: the Limes takes only hits no unit can) or \"first\" (it takes a volley's first hit)",
    "[policy] leader_option: auto (default) or never; advanced_option: auto, own-plus-2, enemy-minus-2 or never; ambush: true (default); retreat_threshold: P(win) below which a side retreats after round 1 (default 0.3)",
];

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
    pub schema: Schema,
    pub layout: Layout,
    /// Recovery slots of each side (L1457): 2, 1 or 0 by the smaller stack at the start.
    pub recovery: u32,
    /// The siege the winning attacker lays afterwards, when `[city]` is given.
    pub city: Option<CityPlan>,
}

fn parse_side(fields: &Fields, name: &'static str, empty: &Table) -> Result<Side> {
    let side = fields.table(name, empty)?;
    let status = match side.choice("nation", &["barbarian", "kingdom", "empire"])? {
        Some("kingdom") => Status::Kingdom,
        Some("empire") => Status::Empire,
        _ => Status::Barbarian,
    };
    let stack = parse_stack(&side, status, SIDE_KEYS)?;
    if stack.total() == 0 {
        return Err(AleaError::input(
            fields.source,
            format!("{name}.infantry"),
            0,
            "at least one unit a side (see `alea list` for the unit keys)",
        ));
    }
    let leaders: Vec<u32> = match (side.raw("leader"), side.raw("leaders")) {
        (Some(_), Some(_)) => {
            return Err(AleaError::invalid(
                fields.source,
                format!("give either `{name}.leader` or `{name}.leaders`, not both"),
            ))
        }
        (Some(_), None) => vec![side.int_in("leader", 0, 3)?.unwrap_or(0) as u32],
        (None, Some(toml::Value::Array(a))) => {
            let mut v = Vec::new();
            for x in a {
                match x.as_integer() {
                    Some(i) if (0..=3).contains(&i) => v.push(i as u32),
                    _ => {
                        return Err(AleaError::input(
                            fields.source,
                            format!("{name}.leaders"),
                            x,
                            "a list of combat bonuses 0..3",
                        ))
                    }
                }
            }
            v
        }
        (None, Some(v)) => {
            return Err(AleaError::input(
                fields.source,
                format!("{name}.leaders"),
                v,
                "a list of combat bonuses 0..3",
            ))
        }
        (None, None) => vec![],
    };
    let limit = side.int_in("stacking_limit", 1, 40)?.map(|l| l as u32);
    let (fighting, waiting) = stack.split_at_limit(limit.unwrap_or(u32::MAX));
    Ok(Side {
        status,
        nomad: side.bool("nomad")?.unwrap_or(false),
        rome: side.bool("rome")?.unwrap_or(false),
        decline: side.bool("decline")?.unwrap_or(false),
        leader: leaders.iter().copied().max(),
        // All leaders' rerolls; `build` keeps only the best one's unless Q8's option says otherwise.
        rerolls: leaders.iter().sum(),
        leader_mountains: side.bool("leader_mountains")?.unwrap_or(false),
        horde: side.bool("horde")?.unwrap_or(false),
        without_capital: side.bool("kingdom_without_capital")?.unwrap_or(false),
        can_retreat: side.bool("can_retreat")?.unwrap_or(true),
        event_dice: side.int_in("event_dice", -3, 3)?.unwrap_or(0) as i32,
        event_exchanges: side.int_in("event_exchanges", -3, 3)?.unwrap_or(0) as i32,
        event_modifier: side.int_in("event_modifier", -3, 3)?.unwrap_or(0) as i32,
        stack,
        fighting,
        waiting,
    })
}

pub fn build(fields: &Fields, options: Options, system: System) -> Result<LandBattle> {
    fields.only(&[
        "ruleset",
        "battle",
        "options",
        "policy",
        "attacker",
        "defender",
        "terrain",
        "province",
        "crossing",
        "all_crossed",
        "interception",
        "fortified_city",
        "limes",
        "ambush",
        "city",
    ])?;
    let empty = Table::new();
    let rules = Rules::from(&options);
    let mut sides = [
        parse_side(fields, "attacker", &empty)?,
        parse_side(fields, "defender", &empty)?,
    ];
    if !options.flag("sum_leader_rerolls") {
        for s in &mut sides {
            s.rerolls = s.leader.unwrap_or(0);
        }
    }
    let field = Field {
        terrain: Terrain::parse(fields.choice("terrain", Terrain::NAMES)?.unwrap_or("plain")),
        barbarian_province: fields.choice("province", &["barbarian", "civilized"])?
            == Some("barbarian"),
        crossing: match fields.choice("crossing", &["none", "river", "mountain-range", "strait"])? {
            Some("river") => Crossing::River,
            Some("mountain-range") => Crossing::MountainRange,
            Some("strait") => Crossing::Strait,
            _ => Crossing::None,
        },
        all_crossed: fields.bool("all_crossed")?.unwrap_or(true),
        interception: fields.bool("interception")?.unwrap_or(false),
        fortified_city: fields.bool("fortified_city")?.unwrap_or(false),
        limes: fields.bool("limes")?.unwrap_or(false),
        ambush: match fields.choice("ambush", &["auto", "always", "never"])? {
            Some("always") => AmbushSetting::Always,
            Some("never") => AmbushSetting::Never,
            _ => AmbushSetting::Auto,
        },
    };
    let policy = Policy::parse(&fields.table("policy", &empty)?)?;
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
    let city = CityPlan::parse(fields, &sides[ATTACKER], field.fortified_city, &options)?;
    let (schema, layout) = Layout::schema(&sides, system, &field, city.is_some());
    Ok(LandBattle {
        system,
        field,
        sides,
        rules,
        policy,
        schema,
        layout,
        recovery,
        city,
    })
}

impl LandBattle {
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

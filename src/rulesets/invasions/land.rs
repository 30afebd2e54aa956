//! What the basic (XX) and advanced (XXI) land battles share: the battlefield, the two sides, the
//! rule readings and player policies in force, and everything after the last volley — victory,
//! leader loss, recovery, repair, retreat and hordes (digest §3.0.5, §3.12).

use super::allocation::{allocate, min_eliminations, Casualties, Plan};
use super::army::{self, parse_stack, Army, Origin, Stack, Status, UnitClass};
use crate::battle::{Exact, Schema, Trial};
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const ATTACKER: usize = 0;
pub const DEFENDER: usize = 1;
pub const SIDE_NAMES: [&str; 2] = ["attacker", "defender"];

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
        })
    }

    pub fn describe(&self) -> String {
        format!(
            "policy: casualties {}, rerolls {}, leader option {}, ambush {}, voluntary retreat (advanced) below P(win) {}, or below 1/2 when outnumbered 2:1",
            match self.casualties {
                Casualties::Smart => "smart (free eliminations the recovery undoes, elite thresholds kept)",
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
        )
    }
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
    "can_retreat",
    "stacking_limit",
    "event_dice",
    "event_exchanges",
    "event_modifier",
];

pub const KEYS: &[&str] = &[
    "terrain: plain (default), steppe, desert, forest, mountain or swamp",
    "province: \"barbarian\" or \"civilized\" (default), for the Barbarian attacker's +1",
    "crossing: none (default), river, mountain-range or strait: what the attacker crossed to enter",
    "all_crossed: every attacking unit crossed (default true; the penalty needs all)",
    "interception: the defender intercepted the moving attacker (no crossing penalties; the attacker may ambush)",
    "fortified_city: a fortified city held by the defender",
    "limes: a Roman Limes supports the defender",
    "ambush: \"auto\" (default: in mountains, automatic after a range or river crossing, else a D2), \"always\" or \"never\"",
    "[attacker]/[defender] nation: barbarian (default), kingdom or empire; nomad: true for Nomads; rome: Rome or Byzantium (double elite exchange); decline: an Empire in Decline (a winning leader may be assassinated)",
    "[attacker]/[defender] leader: best leader's combat bonus 0..3 (= rerolls), or leaders = [3, 1] for several; leader_mountains: the leader cannot be ambushed",
    "[attacker]/[defender] horde: a horde with the stack (defence: +1 die / +1 column; attack: stays in the rear)",
    "[attacker]/[defender] can_retreat: false if the loser has nowhere to go (its units are then eliminated)",
    "[attacker]/[defender] stacking_limit: units beyond it wait outside and share the stack's fate",
    "[attacker]/[defender] event_dice, event_exchanges (basic), event_modifier (advanced): event cards",
    "[attacker]/[defender] <unit>: infantry, frankish_infantry, archer, cavalry, horse_archer, heavy_infantry, heavy_cavalry, elite_infantry, legion, elite_cavalry, noble_cavalry, clibanarii, cataphractae, guard, palatine_cavalry; prefixes damaged_, alpine_, amphibious_, auxiliary_, mercenary_ combine (alpine_archer, damaged_legion)",
    "[policy] casualties: smart (default) or min-elim; rerolls: greedy (default) or never; reroll_threshold: τ (default 0)",
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
    let (schema, layout) = Layout::schema(&sides, system, &field);
    Ok(LandBattle {
        system,
        field,
        sides,
        rules,
        policy,
        schema,
        layout,
        recovery,
    })
}

/// Where each reported quantity sits in the schema.
#[derive(Clone, Debug)]
pub struct Layout {
    eliminated: [usize; 2],
    hits: [usize; 2],
    survivors: [usize; 2],
    recovered: [usize; 2],
    /// Per side: (template name, count index) for permanent losses by unit type.
    lost: [Vec<(&'static str, usize)>; 2],
    wiped: [usize; 2],
    both_wiped: usize,
    leader_killed: [usize; 2],
    retreats: [usize; 2],
    flips: [usize; 2],
    horde_captured: Option<usize>,
    limes_destroyed: Option<usize>,
    rounds: Option<usize>,
    ended_early: Option<[usize; 3]>,
}

/// Largest number of hits one side can inflict in the whole battle.
fn max_hits(side: &Side, system: System) -> usize {
    let n = side.stack.total() as usize + 6;
    match system {
        // Fire dice ≤ units, combat dice ≤ units + bonuses, 2 hits a die at most.
        System::Basic => 2 * (2 * n),
        System::Advanced => 2 + 2 * 5,
    }
}

impl Layout {
    fn schema(sides: &[Side; 2], system: System, field: &Field) -> (Schema, Layout) {
        let mut s = Schema::new(&["attacker", "defender"]);
        let totals = [0, 1].map(|k| sides[k].stack.total() as usize);
        let eliminated =
            [0, 1].map(|k| s.count(format!("{}_eliminated", SIDE_NAMES[k]), totals[k]));
        let hits = [0, 1].map(|k| {
            s.count(
                format!("{}_hits_inflicted", SIDE_NAMES[k]),
                max_hits(&sides[k], system),
            )
        });
        let survivors = [0, 1].map(|k| s.count(format!("{}_survivors", SIDE_NAMES[k]), totals[k]));
        let recovered = [0, 1].map(|k| s.count(format!("{}_recovered", SIDE_NAMES[k]), 2));
        let lost = [0, 1].map(|k| {
            let mut v: Vec<(&'static str, usize)> = Vec::new();
            for c in sides[k].classes() {
                if v.iter().any(|(n, _)| *n == c.template.name) {
                    continue;
                }
                let n: usize = sides[k]
                    .classes()
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.template.name == c.template.name)
                    .map(|(j, _)| (sides[k].stack.intact[j] + sides[k].stack.damaged[j]) as usize)
                    .sum();
                let idx = s.count(
                    format!("{}_losses_by_type/{}", SIDE_NAMES[k], c.template.name),
                    n,
                );
                v.push((c.template.name, idx));
            }
            v
        });
        let wiped = [0, 1].map(|k| s.scalar(format!("{}_wiped_out", SIDE_NAMES[k])));
        let both_wiped = s.scalar("both_wiped_out");
        let leader_killed = [0, 1].map(|k| s.scalar(format!("{}_leader_killed", SIDE_NAMES[k])));
        let retreats = [0, 1].map(|k| s.scalar(format!("{}_retreats", SIDE_NAMES[k])));
        let flips = [0, 1].map(|k| {
            s.scalar_bounded(
                format!("{}_elites_flipped", SIDE_NAMES[k]),
                totals[k] as f64,
            )
        });
        let horde_captured = (sides[0].horde || sides[1].horde).then(|| s.scalar("horde_captured"));
        let limes_destroyed = field.limes.then(|| s.scalar("limes_destroyed"));
        let (rounds, ended_early) = if system == System::Advanced {
            (
                Some(s.scalar_bounded("combat_rounds", 2.0)),
                Some([
                    s.scalar("ended_round_1/wipe_out"),
                    s.scalar("ended_round_1/defender_retreat"),
                    s.scalar("ended_round_1/attacker_retreat"),
                ]),
            )
        } else {
            (None, None)
        };
        (
            s,
            Layout {
                eliminated,
                hits,
                survivors,
                recovered,
                lost,
                wiped,
                both_wiped,
                leader_killed,
                retreats,
                flips,
                horde_captured,
                limes_destroyed,
                rounds,
                ended_early,
            },
        )
    }
}

/// The state of a battle once the dice have stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Finish {
    pub armies: [Army; 2],
    /// Hits nobody on that side could absorb.
    pub leftover: [u32; 2],
    pub hits_inflicted: [u32; 2],
    pub rerolls_left: [u32; 2],
    pub limes_hit: bool,
    /// Advanced: rounds fought, and who retreated voluntarily after round 1.
    pub rounds: u8,
    pub voluntary_retreat: Option<usize>,
}

/// What a finished battle means for each side.
pub struct Settlement {
    pub winner: usize,
    pub wiped: [bool; 2],
    pub recovered: [u32; 2],
    pub survivors: [Army; 2],
    pub survivor_count: [u32; 2],
    pub leader_death: [f64; 2],
    pub retreats: [bool; 2],
    pub horde_captured: bool,
    pub limes_destroyed: bool,
}

impl LandBattle {
    pub fn open(&self) -> bool {
        self.field.terrain.open()
    }

    /// Victory (XX.I, L1436-1444) with Q7, Q11 and Q28.
    pub fn winner(&self, f: &Finish) -> usize {
        if let Some(r) = f.voluntary_retreat {
            return 1 - r;
        }
        let wiped = [0, 1].map(|s| f.armies[s].units() == 0);
        if wiped[DEFENDER] && !wiped[ATTACKER] {
            return ATTACKER;
        }
        if wiped[ATTACKER] && !wiped[DEFENDER] {
            return DEFENDER;
        }
        if wiped[0] && wiped[1] && self.rules.both_wiped_defender_wins {
            return DEFENDER;
        }
        let lost = [0, 1].map(|s| f.armies[s].eliminated_total());
        if lost[ATTACKER] != lost[DEFENDER] {
            return if lost[ATTACKER] < lost[DEFENDER] {
                ATTACKER
            } else {
                DEFENDER
            };
        }
        let d = &self.sides[DEFENDER];
        if self.field.fortified_city
            || d.horde
            || (self.rules.tie_any_side_horde && self.sides[ATTACKER].horde)
        {
            return DEFENDER;
        }
        let bonus = |s: usize| {
            if self.rules.tie_break_remaining {
                f.rerolls_left[s]
            } else {
                self.sides[s].best_bonus()
            }
        };
        if bonus(ATTACKER) > bonus(DEFENDER) {
            ATTACKER
        } else {
            DEFENDER
        }
    }

    /// The hits of the volley that decides the battle, allocated by each owner's policy.
    pub fn allocate_final(&self, f: &mut Finish, hits_on: [u32; 2]) {
        if self.policy.casualties == Casualties::MinElim {
            for s in 0..2 {
                f.leftover[s] += allocate(
                    self.sides[s].classes(),
                    &mut f.armies[s],
                    hits_on[s],
                    Plan::default(),
                );
            }
            return;
        }
        // Smart: see who loses at the minimum; the loser spends the recoveries first, then the
        // winner spends what keeps it winning.
        let mut trial = *f;
        for s in 0..2 {
            let (a, left) = min_eliminations(self.sides[s].classes(), &f.armies[s], hits_on[s]);
            trial.armies[s] = a;
            trial.leftover[s] += left;
        }
        let loser = 1 - self.winner(&trial);
        let free = |army: &Army, min: &Army| -> u32 {
            let flips = (min.flips - army.flips) as u32;
            self.recovery
                .saturating_sub(min.eliminated_total())
                .min(flips)
        };
        let mut out = *f;
        let l_free = free(&f.armies[loser], &trial.armies[loser]);
        let mut la = f.armies[loser];
        out.leftover[loser] += allocate(
            self.sides[loser].classes(),
            &mut la,
            hits_on[loser],
            Plan {
                free_eliminations: l_free,
                ..Plan::default()
            },
        );
        out.armies[loser] = la;
        let w = 1 - loser;
        let w_free = free(&f.armies[w], &trial.armies[w]);
        for k in (0..=w_free).rev() {
            let mut cand = out;
            let mut wa = f.armies[w];
            cand.leftover[w] += allocate(
                self.sides[w].classes(),
                &mut wa,
                hits_on[w],
                Plan {
                    free_eliminations: k,
                    ..Plan::default()
                },
            );
            cand.armies[w] = wa;
            if k == 0 || self.winner(&cand) == w {
                *f = cand;
                return;
            }
        }
    }

    /// Hits of a volley that does not decide the battle (fire round, advanced round 1).
    pub fn allocate_volley(&self, side: usize, army: &mut Army, hits: u32) -> u32 {
        let plan = if self.policy.casualties == Casualties::Smart {
            let s = &self.sides[side];
            let min = self.rules.elite_exchange_minimum;
            Plan {
                free_eliminations: 0,
                keep_thresholds: [min, if s.rome { 4.max(min) } else { 0 }],
                spare_recoveries: self.recovery.saturating_sub(army.eliminated_total()),
            }
        } else {
            Plan::default()
        };
        allocate(self.sides[side].classes(), army, hits, plan)
    }

    /// The battle before the first die: the fighting units, every leader's rerolls.
    pub fn opening(&self) -> Finish {
        Finish {
            armies: [self.sides[0].fighting, self.sides[1].fighting],
            leftover: [0; 2],
            hits_inflicted: [0; 2],
            rerolls_left: [self.sides[0].rerolls, self.sides[1].rerolls],
            limes_hit: false,
            rounds: 0,
            voluntary_retreat: None,
        }
    }

    pub fn wiped(f: &Finish) -> bool {
        f.armies[0].units() == 0 || f.armies[1].units() == 0
    }

    /// Rerolls the leaders may spend on a fire round (none unless Q4 says otherwise).
    pub fn fire_rerolls(&self, f: &Finish) -> [u32; 2] {
        if self.rules.rerolls_in_fire_round {
            f.rerolls_left
        } else {
            [0, 0]
        }
    }

    /// Records the rerolls an exchange used out of those it was offered.
    pub fn spend(f: &mut Finish, offered: [u32; 2], left: [u32; 2]) {
        for (have, (o, l)) in f.rerolls_left.iter_mut().zip(offered.iter().zip(left)) {
            *have -= o - l;
        }
    }

    /// Hits nobody could absorb: a supported Limes may take one (L1176), the rest are lost.
    fn absorb(&self, f: &mut Finish, victim: usize, mut left: u32) {
        if victim == DEFENDER && self.field.limes && !f.limes_hit && left > 0 {
            f.limes_hit = true;
            left -= 1;
        }
        f.leftover[victim] += left;
    }

    /// A volley that does not decide the battle (fire, advanced round 1).
    pub fn take_volley(&self, f: &mut Finish, victim: usize, hits: u32) {
        f.hits_inflicted[1 - victim] += hits;
        let mut army = f.armies[victim];
        let left = self.allocate_volley(victim, &mut army, hits);
        f.armies[victim] = army;
        self.absorb(f, victim, left);
    }

    /// The volley that decides the battle: `inflicted[s]` hits by side `s`.
    pub fn take_final(&self, f: &mut Finish, inflicted: [u32; 2]) {
        f.hits_inflicted[0] += inflicted[0];
        f.hits_inflicted[1] += inflicted[1];
        let before = f.leftover;
        self.allocate_final(f, [inflicted[DEFENDER], inflicted[ATTACKER]]);
        for (s, b) in before.into_iter().enumerate() {
            let extra = f.leftover[s] - b;
            f.leftover[s] = b;
            self.absorb(f, s, extra);
        }
    }

    /// Victory, leader loss, recovery, repair, retreat, hordes (§3.0.5, §3.12).
    pub fn settle(&self, f: &Finish) -> Settlement {
        let winner = self.winner(f);
        let wiped = [0, 1].map(|s| f.armies[s].units() == 0);
        let mut survivors = f.armies;
        let mut recovered = [0; 2];
        for s in 0..2 {
            let side = &self.sides[s];
            let a = &mut survivors[s];
            for _ in 0..self.recovery {
                let best = (0..side.classes().len())
                    .filter(|&k| a.eliminated[k] > 0)
                    .max_by(|&x, &y| {
                        side.classes()[x]
                            .value(false)
                            .partial_cmp(&side.classes()[y].value(false))
                            .expect("finite values")
                    });
                let Some(k) = best else { break };
                a.eliminated[k] -= 1;
                if side.classes()[k].two_hit {
                    a.damaged[k] += 1;
                } else {
                    a.intact[k] += 1;
                }
                recovered[s] += 1;
            }
            if side.status.civilized() {
                let best = (0..side.classes().len())
                    .filter(|&k| a.damaged[k] > 0)
                    .max_by(|&x, &y| {
                        side.classes()[x]
                            .value(false)
                            .partial_cmp(&side.classes()[y].value(false))
                            .expect("finite values")
                    });
                if let Some(k) = best {
                    a.damaged[k] -= 1;
                    a.intact[k] += 1;
                }
            }
        }
        let loser = 1 - winner;
        let mut survivor_count =
            [0, 1].map(|s| survivors[s].units() + self.sides[s].waiting.units());
        if !self.sides[loser].can_retreat {
            survivor_count[loser] = 0;
            survivors[loser] = Army {
                eliminated: survivors[loser].eliminated,
                ..Army::default()
            };
        }
        let retreats = [0, 1].map(|s| s == loser && survivor_count[s] > 0);
        let leader_death = [0, 1].map(|s| {
            let side = &self.sides[s];
            if side.leader.is_none() {
                return 0.0;
            }
            let wipe = if wiped[s] { 0.5 } else { 0.0 };
            let assassination = if winner == s && side.decline && side.status == Status::Empire {
                0.3
            } else {
                0.0
            };
            1.0 - (1.0 - wipe) * (1.0 - assassination)
        });
        let (a, d) = (&self.sides[ATTACKER], &self.sides[DEFENDER]);
        let nomads_in_barbarian_area = |victor: &Side, horde_side: &Side| {
            victor.nomad && !horde_side.nomad && self.field.barbarian_province
        };
        let horde_captured = if d.horde && winner == ATTACKER {
            nomads_in_barbarian_area(a, d)
                || (!d.has_national(&f.armies[DEFENDER])
                    && (!self.rules.horde_needs_extra_hit || f.leftover[DEFENDER] > 0))
        } else if a.horde && winner == DEFENDER {
            nomads_in_barbarian_area(d, a) || (wiped[ATTACKER] && f.leftover[ATTACKER] > 0)
        } else {
            false
        };
        Settlement {
            winner,
            wiped,
            recovered,
            survivors,
            survivor_count,
            leader_death,
            retreats,
            horde_captured,
            limes_destroyed: self.field.limes && (f.limes_hit || winner == ATTACKER),
        }
    }
}

/// Where one finished battle is written: a trial (leader deaths already drawn) or the exact
/// answer (weighted by the battle's probability).
pub trait Sink {
    fn outcome(&mut self, k: usize);
    fn count(&mut self, k: usize, value: u32);
    fn scalar(&mut self, k: usize, value: f64);
}

impl Sink for Trial {
    fn outcome(&mut self, k: usize) {
        self.outcome = k;
    }
    fn count(&mut self, k: usize, value: u32) {
        self.counts[k] = value;
    }
    fn scalar(&mut self, k: usize, value: f64) {
        self.scalars[k] = value;
    }
}

pub struct Weighted<'a> {
    pub exact: &'a mut Exact,
    pub p: f64,
}

impl Sink for Weighted<'_> {
    fn outcome(&mut self, k: usize) {
        self.exact.outcomes[k] += self.p;
    }
    fn count(&mut self, k: usize, value: u32) {
        self.exact.counts[k].add_mass(value as usize, self.p);
    }
    fn scalar(&mut self, k: usize, value: f64) {
        self.exact.scalars[k] += self.p * value;
    }
}

impl LandBattle {
    /// Writes a finished battle; `leader_killed` is 0/1 in a trial, a probability when exact.
    pub fn record(
        &self,
        f: &Finish,
        st: &Settlement,
        leader_killed: [f64; 2],
        sink: &mut impl Sink,
    ) {
        let l = &self.layout;
        sink.outcome(st.winner);
        for s in 0..2 {
            sink.count(l.eliminated[s], f.armies[s].eliminated_total());
            sink.count(
                l.hits[s],
                f.hits_inflicted[s].min(self.schema.counts[l.hits[s]].max as u32),
            );
            sink.count(l.survivors[s], st.survivor_count[s]);
            sink.count(l.recovered[s], st.recovered[s]);
            let side = &self.sides[s];
            for (name, idx) in &l.lost[s] {
                let mut start = 0;
                let mut end = 0;
                for (k, c) in side.classes().iter().enumerate() {
                    if c.template.name == *name {
                        start += (side.stack.intact[k] + side.stack.damaged[k]) as u32;
                        let waiting = (side.waiting.intact[k] + side.waiting.damaged[k]) as u32;
                        end += if st.survivor_count[s] == 0 {
                            0
                        } else {
                            (st.survivors[s].intact[k] + st.survivors[s].damaged[k]) as u32
                                + waiting
                        };
                    }
                }
                sink.count(*idx, start - end);
            }
            sink.scalar(l.wiped[s], st.wiped[s] as u8 as f64);
            sink.scalar(l.leader_killed[s], leader_killed[s]);
            sink.scalar(l.retreats[s], st.retreats[s] as u8 as f64);
            sink.scalar(l.flips[s], f.armies[s].flips as f64);
        }
        sink.scalar(l.both_wiped, (st.wiped[0] && st.wiped[1]) as u8 as f64);
        if let Some(k) = l.horde_captured {
            sink.scalar(k, st.horde_captured as u8 as f64);
        }
        if let Some(k) = l.limes_destroyed {
            sink.scalar(k, st.limes_destroyed as u8 as f64);
        }
        if let Some(k) = l.rounds {
            sink.scalar(k, f.rounds as f64);
        }
        if let Some(e) = l.ended_early {
            let after_one = f.rounds == 1;
            sink.scalar(
                e[0],
                (after_one && f.voluntary_retreat.is_none()) as u8 as f64,
            );
            sink.scalar(e[1], (f.voluntary_retreat == Some(DEFENDER)) as u8 as f64);
            sink.scalar(e[2], (f.voluntary_retreat == Some(ATTACKER)) as u8 as f64);
        }
    }

    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for s in 0..2 {
            let side = &self.sides[s];
            let mut t = format!(
                "{}: {} ({}{}{})",
                SIDE_NAMES[s],
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
        vec![
            self.policy.describe(),
            format!(
                "recovery: each side brings back up to {} eliminated unit(s) (small-battle rule)",
                self.recovery
            ),
        ]
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

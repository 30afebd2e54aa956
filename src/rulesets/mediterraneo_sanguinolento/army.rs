//! One side's army as a battle file describes it: culture, nation, units by type with quality and
//! morale (the rulebook's own notation, e.g. `IM-RC` = medium infantry, regular, morale C), commander,
//! and the player's choices for the battle (tactic, retreat threshold, archers, chariots, guard…).
//! Digest §3.1, §3.2.4-§3.2.8, §3.10, §8.1.

use super::data::data;
use super::SIDES;
use crate::battle::keys::{self, Key, Type};
use crate::error::{AleaError, Result};
use crate::spec::Fields;
use toml::Value;

/// Most distinct unit groups (type, quality, morale, veteran, guard) one side may bring.
pub const MAX_GROUPS: usize = 6;

/// What a side's `tactic` may be: the ten tactics of the land matrix, or the best response.
const TACTIC_CHOICES: [&str; 11] = [
    "FL",
    "AF",
    "AE",
    "EC",
    "AC",
    "RF",
    "DE",
    "RE",
    "CU",
    "AO",
    BEST_RESPONSE,
];
const BEST_RESPONSE: &str = "best-response";
/// The tactics of the land matrix, in its order.
pub const TACTICS: &[&str] = TACTIC_CHOICES.split_at(10).0;
pub const FL: usize = 0;
pub const AF: usize = 1;
pub const AE: usize = 2;
pub const DE: usize = 6;
pub const RE: usize = 7;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Culture {
    Civilized,
    Mixed,
    Barbarian,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub code: String,
    pub regular: bool,
    /// 0 = A … 3 = D.
    pub morale: usize,
    pub units: f64,
    pub veteran: bool,
    pub guard: bool,
}

impl Group {
    pub fn label(&self) -> String {
        format!(
            "{}-{}{}",
            self.code,
            if self.regular { "R" } else { "I" },
            MORALE_CLASSES[self.morale]
        )
    }

    /// Morale value in combat (L3706-L3708).
    pub fn morale_value(&self) -> u32 {
        let v = &data().morale.value;
        if self.regular {
            v.regular[self.morale]
        } else {
            v.irregular[self.morale]
        }
    }

    /// Elite multiplier of the combat factors: A x2, B x1.5 (L4550).
    pub fn elite(&self) -> f64 {
        data().morale.elite.factor_multiplier[self.morale]
    }

    pub fn men(&self) -> u32 {
        let per = data().unit(&self.code).map_or(0, |u| u.men);
        (self.units * per as f64).round() as u32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderKind {
    None,
    Infantry,
    Cavalry,
    Archer,
    Chariot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TacticChoice {
    Fixed(usize),
    BestResponse,
}

/// How the commander uses his strategic level on the terrain roll (L2889).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    None,
    Raise,
    Lower,
    /// Raise, lower or not use it: whichever gives the side the best win chance.
    Best,
}

/// A leader as the rules write him, "tactical-strategic" (digest T2: "4-3" = tactical 4, strategic 3).
pub fn parse_leader(text: &str) -> Option<(i64, i64)> {
    let (t, s) = text.trim().split_once('-')?;
    let value = |x: &str| x.trim().parse::<i64>().ok().filter(|v| (0..=5).contains(v));
    Some((value(t)?, value(s)?))
}

#[derive(Clone, Debug, PartialEq)]
pub struct Army {
    pub culture: Culture,
    pub roman: bool,
    pub italic: bool,
    pub hispanic: bool,
    pub greek: bool,
    pub carthaginian: bool,
    pub seleucid: bool,
    pub groups: Vec<Group>,
    pub has_commander: bool,
    pub tactical: i32,
    pub strategic: i32,
    pub leader_kind: LeaderKind,
    pub king: bool,
    pub fatigue: u32,
    pub unsupplied: f64,
    pub surprise: bool,
    // The player's choices.
    pub tactic: TacticChoice,
    pub fallback_tactic: usize,
    pub strategy: Strategy,
    pub flank_fraction: f64,
    pub flank_strategic: i32,
    pub archers_fire: bool,
    /// Segment of each day (1-3) in which chariots are launched; 0 = never.
    pub chariots_segment: u32,
    /// Segment of the battle (1 = day 1 segment 1, 4 = day 2 segment 1 …) the guard is launched in; 0 = never.
    pub guard_segment: u32,
    pub guard_bonus: u32,
    /// Retreat when own morale falls below this (hundredths).
    pub retreat_below_morale: Option<i64>,
    /// Retreat when this fraction of the men has been lost.
    pub retreat_after_losses: Option<f64>,
    pub retreat_before_battle: bool,
    pub pursue: bool,
    pub casualty_order: Vec<String>,
}

/// The morale classes, best first (index 0 = A).
pub const MORALE_CLASSES: [&str; 4] = ["A", "B", "C", "D"];
/// The nation flags a side may carry (the game scenario names countries with them).
pub const NATIONS: [&str; 6] = [
    "roman",
    "italic",
    "hispanic",
    "greek",
    "carthaginian",
    "seleucid",
];
const UNIT_LIST: Type = Type::List {
    format: "unit keys as written in `units`",
    example: "[\"IM-RC\"]",
};

const UNITS: Key = Key::new(
    "units",
    Type::Table {
        format: "unit type = number of units (fractions allowed), the type written as the rules do, `IM`, or with quality and morale, `IM-RC` (R regular / I irregular, morale A-D)",
        example: "{ \"IML-RC\" = 10, \"CL-IB\" = 2 }",
    },
)
.required()
.help("the side's units by type");
const CULTURE: Key = keys::choice("culture", &["civilized", "mixed", "barbarian"])
    .default_choice("civilized")
    .help("\"civilized\" (regular troops, formations), \"mixed\" (B/C) or \"barbarian\" (irregular, no formation)");
const QUALITY: Key = keys::choice("quality", &["regular", "irregular"])
    .absent("irregular for a barbarian culture, else regular")
    .help("the quality of units written without one");
const MORALE: Key = keys::choice("morale", &MORALE_CLASSES)
    .default_choice("C")
    .help("the morale class of units written without one");
const NATION: Key = Key::new(
    "nation",
    Type::List {
        format: "flags among \"roman\", \"italic\", \"hispanic\", \"greek\" (can build IPF: +1 fortification, EC and AO), \"carthaginian\", \"seleucid\" (EC)",
        example: "[\"roman\"]",
    },
)
.absent("none")
.help("the nation, for what its troops may do");
const VETERANS: Key = Key::new("veterans", UNIT_LIST)
    .absent("none")
    .help("the units that are veterans");
const GUARD: Key = Key::new("guard", UNIT_LIST)
    .absent("none")
    .help("the units that are the guard");
const TACTICAL: Key = keys::int("tactical", 0, 5)
    .absent("no commander: 0")
    .help("the commanding leader's tactical value");
const STRATEGIC: Key = keys::int("strategic", 0, 5)
    .absent("0")
    .help("the commanding leader's strategic value");
const LEADER: Key = Key::new(
    "leader",
    Type::Text {
        format: "tactical-strategic, each 0-5, as the rules write him",
        example: "\"4-3\"",
    },
)
.absent("no commander, unless tactical or strategic is given")
.help("the commanding leader instead of tactical and strategic");
const LEADER_KIND: Key = keys::choice("leader_kind", &["infantry", "cavalry", "archer", "chariot"])
    .default_choice("infantry")
    .help("\"cavalry\" (+1 pursuit and retreat rolls), \"archer\" (+1 archery), \"chariot\" (+1 chariot charges)");
const KING: Key = keys::flag("king").help("the king fights in person (+0.5 morale)");
const FATIGUE: Key = keys::int("fatigue", 0, 10)
    .default_int(0)
    .help("forced-march fatigue n (-0.1 morale each, factors x0.75, -1 die, no formation)");
const UNSUPPLIED: Key = keys::number("unsupplied", 0.0, 1.0)
    .default_number(0.0)
    .help("fraction of the army out of supply on the offensive (x0.5)");
const SURPRISE: Key =
    keys::flag("surprise").help("caught in strategic redeployment by this side (+1 casualties)");
const TACTIC: Key = keys::choice("tactic", &TACTIC_CHOICES)
    .default_choice("AE")
    .help("the side's tactic; \"best-response\" = the tactic with the best win chance against the other side's, per battle terrain (both sides best-response = each maximises its worst case)");
const FALLBACK_TACTIC: Key = keys::choice("fallback_tactic", TACTICS)
    .default_choice("AE")
    .help("used when the tactic is not allowed on the rolled battle terrain (AF, CU, AO only on 1-5), so not one of those");
const STRATEGY: Key = keys::choice("strategy", &["none", "raise", "lower", "best"])
    .default_choice("none")
    .help("the commander's strategic level on the terrain roll; \"best\" = whichever of the three gives the better win chance, by simulation (both sides \"best\" = each maximises his worst case)");
const FLANK_FRACTION: Key = keys::number("flank_fraction", 0.0, 0.9)
    .default_number(0.25)
    .help("share of every unit type sent off the board with a flanking (FL) tactic");
const FLANK_STRATEGIC: Key = keys::int("flank_strategic", 0, 5)
    .absent("the commander's")
    .help("strategic value of the flanking detachment's leader");
const ARCHERS: Key = keys::choice("archers", &["missile", "melee"])
    .default_choice("missile")
    .help("\"missile\": fire before each segment, fight at half factors");
const CHARIOTS_SEGMENT: Key = keys::int("chariots_segment", 0, 3)
    .default_int(0)
    .help("segment of each day (1-3) when 5+ chariot units are launched at the enemy formation; 0 = never");
const GUARD_SEGMENT: Key = keys::int("guard_segment", 0, 90)
    .default_int(0)
    .help("segment of the battle (1 = day 1 segment 1, 4 = day 2 segment 1 …) when the guard (10+ units of morale A/B) is launched; 0 = never");
const GUARD_BONUS: Key = keys::int("guard_bonus", 1, 2)
    .default_int(2)
    .help("the launched guard's bonus");
const RETREAT_BELOW_MORALE: Key = keys::number("retreat_below_morale", 0.0, 20.0)
    .absent("never")
    .help("retreat when own morale falls below this");
const RETREAT_AFTER_LOSSES: Key = keys::number("retreat_after_losses", 0.0, 100.0)
    .absent("never")
    .help("retreat once this percentage of the men is lost");
const RETREAT_BEFORE_BATTLE: Key = keys::flag("retreat_before_battle")
    .help("leave before combat when eligible (mounted troops, L2897)");
const PURSUE: Key = keys::flag("pursue")
    .default_bool(true)
    .help("pursue a beaten enemy");
const CASUALTY_ORDER: Key = Key::new("casualty_order", UNIT_LIST)
    .absent("the order of `units`")
    .help("the units taking casualties first; half of each loss always falls on the formation's unit type");

/// The keys of a side's table, the same in every land battle of the ruleset.
pub const SIDE_KEYS: [Key; 29] = keys::placed(
    [
        UNITS,
        CULTURE,
        QUALITY,
        MORALE,
        NATION,
        VETERANS,
        GUARD,
        TACTICAL,
        STRATEGIC,
        LEADER,
        LEADER_KIND,
        KING,
        FATIGUE,
        UNSUPPLIED,
        SURPRISE,
        TACTIC,
        FALLBACK_TACTIC,
        STRATEGY,
        FLANK_FRACTION,
        FLANK_STRATEGIC,
        ARCHERS,
        CHARIOTS_SEGMENT,
        GUARD_SEGMENT,
        GUARD_BONUS,
        RETREAT_BELOW_MORALE,
        RETREAT_AFTER_LOSSES,
        RETREAT_BEFORE_BATTLE,
        PURSUE,
        CASUALTY_ORDER,
    ],
    &SIDES,
);

fn unit_codes() -> Vec<&'static str> {
    data().units.iter().map(|u| u.code.as_str()).collect()
}

/// Splits `IM-RC` into (IM, Some(regular), Some(morale index)).
fn parse_unit_key(key: &str) -> Option<(String, Option<bool>, Option<usize>)> {
    let (code, suffix) = match key.split_once('-') {
        Some((c, s)) => (c, Some(s)),
        None => (key, None),
    };
    data().unit(code)?;
    match suffix {
        None => Some((code.to_string(), None, None)),
        Some(s) => {
            let b = s.as_bytes();
            if b.len() != 2 {
                return None;
            }
            let regular = match b[0] {
                b'R' => true,
                b'I' => false,
                _ => return None,
            };
            let morale = (b[1] as char).to_digit(16)?.checked_sub(10)? as usize;
            (morale < 4).then(|| (code.to_string(), Some(regular), Some(morale)))
        }
    }
}

/// The nation's flags, each checked against [`NATIONS`].
fn parse_nation<'a>(f: &Fields<'a>) -> Result<Vec<&'a str>> {
    let nation = NATION.strings(f)?;
    match nation.iter().find(|n| !NATIONS.contains(n)) {
        Some(n) => Err(AleaError::input(
            f.source,
            NATION.field(f),
            format!("\"{n}\""),
            format!("a list of {}", NATIONS.join(", ")),
        )),
        None => Ok(nation),
    }
}

/// The side's unit groups in casualty order (the groups `casualty_order` names first, the rest
/// in written order): `units` merged by type, quality, morale, veteran and guard.
fn parse_groups(f: &Fields, culture: Culture) -> Result<(Vec<Group>, Vec<String>)> {
    let default_regular = match QUALITY.opt_choice(f)? {
        Some(q) => q == "regular",
        None => culture != Culture::Barbarian,
    };
    let morale = MORALE.choice(f)?;
    let default_morale = MORALE_CLASSES
        .iter()
        .position(|m| *m == morale)
        .expect("a declared class");
    let empty = toml::Table::new();
    let units = UNITS.table(f, &empty)?;
    let veterans = VETERANS.strings(f)?;
    let guard = GUARD.strings(f)?;
    let mut groups: Vec<Group> = Vec::new();
    // The key each group was first written with, which `casualty_order` names it by.
    let mut keys: Vec<&str> = Vec::new();
    for key in units.keys() {
        let field = format!("{}.{key}", UNITS.field(f));
        let (code, regular, morale) = parse_unit_key(key).ok_or_else(|| {
            AleaError::input(
                f.source,
                &field,
                format!("\"{key}\""),
                format!(
                    "a unit type ({}), optionally with -R/-I and morale A-D, e.g. IM-RC",
                    unit_codes().join(" ")
                ),
            )
        })?;
        let n = match units.raw(key) {
            Some(Value::Integer(i)) if (0..=10_000).contains(i) => *i as f64,
            Some(Value::Float(x)) if (0.0..=10_000.0).contains(x) => *x,
            other => {
                return Err(AleaError::input(
                    f.source,
                    &field,
                    other.map_or("nothing".to_string(), |v| v.to_string()),
                    "a number of units from 0 to 10000",
                ))
            }
        };
        if n <= 0.0 {
            continue;
        }
        let g = Group {
            code,
            regular: regular.unwrap_or(default_regular),
            morale: morale.unwrap_or(default_morale),
            units: n,
            veteran: veterans.contains(&key),
            guard: guard.contains(&key),
        };
        if let Some(existing) = groups.iter_mut().find(|x| {
            x.code == g.code
                && x.regular == g.regular
                && x.morale == g.morale
                && x.veteran == g.veteran
                && x.guard == g.guard
        }) {
            existing.units += n;
            continue;
        }
        groups.push(g);
        keys.push(key);
    }
    for (list, named) in [(&VETERANS, &veterans), (&GUARD, &guard)] {
        if let Some(v) = named.iter().find(|v| !units.has(v)) {
            return Err(AleaError::input(
                f.source,
                list.field(f),
                format!("\"{v}\""),
                "unit keys written in `units`",
            ));
        }
    }
    if groups.is_empty() {
        return Err(AleaError::input(
            f.source,
            UNITS.field(f),
            "no units",
            "at least one unit type with a positive number, e.g. units = { \"IM-RC\" = 10 }",
        ));
    }
    if groups.len() > MAX_GROUPS {
        return Err(AleaError::input(
            f.source,
            UNITS.field(f),
            format!("{} distinct groups", groups.len()),
            format!("at most {MAX_GROUPS} (type, quality, morale, veteran, guard) groups"),
        ));
    }
    let casualty_order = CASUALTY_ORDER.strings(f)?;
    if let Some(c) = casualty_order.iter().find(|c| !keys.contains(c)) {
        return Err(AleaError::input(
            f.source,
            CASUALTY_ORDER.field(f),
            format!("\"{c}\""),
            format!("unit keys written in `units`: {}", keys.join(", ")),
        ));
    }
    // By group index, not label: a label leaves out the veteran and guard flags, so two groups
    // can share one.
    let mut order: Vec<usize> = Vec::with_capacity(groups.len());
    for c in &casualty_order {
        let i = keys.iter().position(|k| k == c).unwrap_or(0);
        if !order.contains(&i) {
            order.push(i);
        }
    }
    for i in 0..groups.len() {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    let ordered = order.iter().map(|&i| groups[i].clone()).collect();
    let names = casualty_order.iter().map(|c| c.to_string()).collect();
    Ok((ordered, names))
}

/// The commander's tactical and strategic values, written as `leader = "4-3"` or as the two
/// keys; `None` without a commander.
fn parse_commander(f: &Fields) -> Result<Option<(i64, i64)>> {
    let (tactical, strategic) = (TACTICAL.opt_int(f)?, STRATEGIC.opt_int(f)?);
    let Some(text) = LEADER.text(f)? else {
        return Ok(match (tactical, strategic) {
            (None, None) => None,
            (t, s) => Some((t.unwrap_or(0), s.unwrap_or(0))),
        });
    };
    let leader = parse_leader(text).ok_or_else(|| {
        AleaError::input(
            f.source,
            LEADER.field(f),
            text,
            "the leader as the rules write him, tactical-strategic, each 0-5 (e.g. \"4-3\")",
        )
    })?;
    if tactical.is_some() || strategic.is_some() {
        return Err(AleaError::input(
            f.source,
            LEADER.field(f),
            text,
            "either `leader` or `tactical`/`strategic`, not both",
        ));
    }
    Ok(Some(leader))
}

fn tactic_index(name: &str) -> usize {
    TACTICS
        .iter()
        .position(|t| *t == name)
        .expect("a declared tactic")
}

impl Army {
    /// Reads one side's table (its keys are [`SIDE_KEYS`], checked before the build runs).
    pub fn parse(f: &Fields) -> Result<Army> {
        let culture = match CULTURE.choice(f)? {
            "mixed" => Culture::Mixed,
            "barbarian" => Culture::Barbarian,
            _ => Culture::Civilized,
        };
        let nation = parse_nation(f)?;
        let has = |flag: &str| nation.contains(&flag);
        let (groups, casualty_order) = parse_groups(f, culture)?;
        let leader_kind = match LEADER_KIND.choice(f)? {
            "cavalry" => LeaderKind::Cavalry,
            "archer" => LeaderKind::Archer,
            "chariot" => LeaderKind::Chariot,
            _ => LeaderKind::Infantry,
        };
        let commander = parse_commander(f)?;
        let (tactical, strategic) = commander.unwrap_or((0, 0));
        let tactic = match TACTIC.choice(f)? {
            BEST_RESPONSE => TacticChoice::BestResponse,
            t => TacticChoice::Fixed(tactic_index(t)),
        };
        let strategy = match STRATEGY.choice(f)? {
            "raise" => Strategy::Raise,
            "lower" => Strategy::Lower,
            "best" => Strategy::Best,
            _ => Strategy::None,
        };
        let army = Army {
            culture,
            roman: has("roman"),
            italic: has("italic"),
            hispanic: has("hispanic"),
            greek: has("greek"),
            carthaginian: has("carthaginian"),
            seleucid: has("seleucid"),
            groups,
            has_commander: commander.is_some(),
            tactical: tactical as i32,
            strategic: strategic as i32,
            leader_kind: if commander.is_some() {
                leader_kind
            } else {
                LeaderKind::None
            },
            king: KING.bool(f)?,
            fatigue: FATIGUE.int(f)? as u32,
            unsupplied: UNSUPPLIED.number(f)?,
            surprise: SURPRISE.bool(f)?,
            tactic,
            fallback_tactic: tactic_index(FALLBACK_TACTIC.choice(f)?),
            strategy,
            flank_fraction: FLANK_FRACTION.number(f)?,
            flank_strategic: FLANK_STRATEGIC
                .opt_int(f)?
                .map_or(strategic as i32, |v| v as i32),
            archers_fire: ARCHERS.choice(f)? != "melee",
            chariots_segment: CHARIOTS_SEGMENT.int(f)? as u32,
            guard_segment: GUARD_SEGMENT.int(f)? as u32,
            guard_bonus: GUARD_BONUS.int(f)? as u32,
            retreat_below_morale: RETREAT_BELOW_MORALE
                .opt_number(f)?
                .map(|m| (m * 100.0).round() as i64),
            retreat_after_losses: RETREAT_AFTER_LOSSES.opt_number(f)?.map(|p| p / 100.0),
            retreat_before_battle: RETREAT_BEFORE_BATTLE.bool(f)?,
            pursue: PURSUE.bool(f)?,
            casualty_order,
        };
        for t in [army.fallback_tactic].into_iter().chain(match army.tactic {
            TacticChoice::Fixed(t) => Some(t),
            TacticChoice::BestResponse => None,
        }) {
            if !army.may_use(t) {
                return Err(AleaError::input(
                    f.source,
                    TACTIC.field(f),
                    TACTICS[t],
                    format!(
                        "a tactic this nation may use: {}",
                        army.usable_tactics()
                            .iter()
                            .map(|&t| TACTICS[t])
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                ));
            }
        }
        if army.fallback_tactic == AF || army.fallback_tactic >= 8 {
            return Err(AleaError::input(
                f.source,
                FALLBACK_TACTIC.field(f),
                TACTICS[army.fallback_tactic],
                "a tactic allowed on every battle terrain (not AF, CU or AO)",
            ));
        }
        Ok(army)
    }
    /// Tactics the nation may choose at all (L2934, L2944).
    pub fn may_use(&self, t: usize) -> bool {
        match TACTICS[t] {
            "EC" => self.greek || self.carthaginian || self.roman || self.seleucid,
            "CU" => self.roman || self.italic,
            "AO" => self.greek,
            _ => true,
        }
    }

    pub fn usable_tactics(&self) -> Vec<usize> {
        (0..TACTICS.len()).filter(|&t| self.may_use(t)).collect()
    }

    /// The tactic actually played on battle terrain `terrain` (1-10): AF, CU and AO only on 1-5 (L2942).
    pub fn tactic_on(&self, chosen: usize, terrain: usize) -> usize {
        let open_only = matches!(TACTICS[chosen], "AF" | "CU" | "AO");
        if open_only && terrain > 5 {
            self.fallback_tactic
        } else {
            chosen
        }
    }

    pub fn total_men(&self) -> u32 {
        self.groups.iter().map(Group::men).sum()
    }

    pub fn describe(&self) -> String {
        let units: Vec<String> = self
            .groups
            .iter()
            .map(|g| {
                let mut s = format!("{} {}", g.units, g.label());
                if g.veteran {
                    s.push_str(" veteran");
                }
                if g.guard {
                    s.push_str(" guard");
                }
                s
            })
            .collect();
        let culture = match self.culture {
            Culture::Civilized => "civilized",
            Culture::Mixed => "B/C",
            Culture::Barbarian => "barbarian",
        };
        let leader = if self.has_commander {
            format!(", commander {}-{}", self.tactical, self.strategic)
        } else {
            ", no commander".into()
        };
        let tactic = match self.tactic {
            TacticChoice::Fixed(t) => TACTICS[t].to_string(),
            TacticChoice::BestResponse => "best response".into(),
        };
        format!(
            "{} ({culture}, {} men{leader}), tactic {tactic}",
            units.join(" + "),
            self.total_men()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_keys_follow_the_rulebook_notation() {
        assert_eq!(
            parse_unit_key("IL-ID"),
            Some(("IL".into(), Some(false), Some(3)))
        );
        assert_eq!(
            parse_unit_key("IM-RC"),
            Some(("IM".into(), Some(true), Some(2)))
        );
        assert_eq!(parse_unit_key("CMM"), Some(("CMM".into(), None, None)));
        assert_eq!(parse_unit_key("IM-RE"), None);
        assert_eq!(parse_unit_key("XX"), None);
    }
}

//! One side's army as a battle file describes it: culture, nation, units by type with quality and
//! morale (the rulebook's own notation, e.g. `IM-RC` = medium infantry, regular, morale C), commander,
//! and the player's choices for the battle (tactic, retreat threshold, archers, chariots, guard…).
//! Digest §3.1, §3.2.4-§3.2.8, §3.10, §8.1.

use super::data::data;
use crate::error::{AleaError, Result};
use crate::spec::Fields;
use toml::Value;

/// Most distinct unit groups (type, quality, morale, veteran, guard) one side may bring.
pub const MAX_GROUPS: usize = 6;

pub const TACTICS: [&str; 10] = ["FL", "AF", "AE", "EC", "AC", "RF", "DE", "RE", "CU", "AO"];
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
            ["A", "B", "C", "D"][self.morale]
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

pub const SIDE_KEYS: &[&str] = &[
    "[attacker]/[defender] units: table of unit type = number of units (fractions allowed), the type written as the rules do, `IM` or with quality and morale `IM-RC` (R regular / I irregular, morale A-D), e.g. { \"IML-RC\" = 10, \"CL-IB\" = 2 }",
    "[side] culture: \"civilized\" (regular troops, formations), \"mixed\" (B/C) or \"barbarian\" (irregular, no formation); default civilized",
    "[side] quality, morale: defaults for units written without them (quality by culture; morale \"C\")",
    "[side] nation: list of flags among \"roman\", \"italic\", \"hispanic\", \"greek\" (can build IPF: +1 fortification, EC and AO), \"carthaginian\", \"seleucid\" (EC)",
    "[side] veterans, guard: lists of unit keys (as in `units`) that are veterans / the guard",
    "[side] tactical, strategic: the commanding leader's values 0-5 (no leader: tactical 0); or leader = \"4-3\" as the rules write him (tactical-strategic)",
    "[side] leader_kind: \"infantry\" (default), \"cavalry\" (+1 pursuit and retreat rolls), \"archer\" (+1 archery), \"chariot\" (+1 chariot charges)",
    "[side] king: the king fights in person (+0.5 morale); fatigue: forced-march fatigue n (-0.1 morale each, factors x0.75, -1 die, no formation); unsupplied: fraction of the army out of supply on the offensive (x0.5); surprise: caught in strategic redeployment by this side (+1 casualties)",
    "[side] tactic: FL AF AE EC AC RF DE RE CU AO, or \"best-response\" (the tactic with the best win chance against the other side's, per battle terrain; both sides best-response = each maximises its worst case); default AE",
    "[side] fallback_tactic: used when the tactic is not allowed on the rolled battle terrain (AF, CU, AO only on 1-5); default AE",
    "[side] strategy: the commander's strategic level on the terrain roll: \"none\" (default), \"raise\", \"lower\" or \"best\" (whichever of the three gives the better win chance, by simulation; both sides \"best\" = each maximises his worst case)",
    "[side] flank_fraction: share of every unit type sent off the board with a flanking (FL) tactic, 0-0.9 (default 0.25); flank_strategic: strategic value of the detachment's leader (default the commander's)",
    "[side] archers: \"missile\" (default: fire before each segment, fight at half factors) or \"melee\"",
    "[side] chariots_segment: segment of each day (1-3) when 5+ chariot units are launched at the enemy formation; 0 = never (default)",
    "[side] guard_segment: segment of the battle (1 = day 1 segment 1, 4 = day 2 segment 1 …) when the guard (10+ units of morale A/B) is launched; 0 = never (default); guard_bonus: 1 or 2 (default 2)",
    "[side] retreat_below_morale: retreat when own morale falls below this; retreat_after_losses: retreat once this percentage of the men is lost (default: never)",
    "[side] retreat_before_battle: leave before combat when eligible (mounted troops, L2897); pursue: pursue a beaten enemy (default true)",
    "[side] casualty_order: list of unit keys taking casualties first (default: the order of `units`); half of each loss always falls on the formation's unit type",
];

const SIDE_FIELDS: &[&str] = &[
    "units",
    "culture",
    "quality",
    "morale",
    "nation",
    "veterans",
    "guard",
    "tactical",
    "strategic",
    "leader",
    "leader_kind",
    "king",
    "fatigue",
    "unsupplied",
    "surprise",
    "tactic",
    "fallback_tactic",
    "strategy",
    "flank_fraction",
    "flank_strategic",
    "archers",
    "chariots_segment",
    "guard_segment",
    "guard_bonus",
    "retreat_below_morale",
    "retreat_after_losses",
    "retreat_before_battle",
    "pursue",
    "casualty_order",
];

fn strings(f: &Fields, key: &str) -> Result<Vec<String>> {
    match f.raw(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(AleaError::input(
                    f.source,
                    f.field(key),
                    other,
                    "a list of strings",
                )),
            })
            .collect(),
        Some(other) => Err(AleaError::input(
            f.source,
            f.field(key),
            other,
            "a list of strings",
        )),
    }
}

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

fn tactic_index(f: &Fields, key: &str, value: &str) -> Result<usize> {
    TACTICS.iter().position(|t| *t == value).ok_or_else(|| {
        AleaError::input(
            f.source,
            f.field(key),
            format!("\"{value}\""),
            format!("one of {}", TACTICS.join(" ")),
        )
    })
}

impl Army {
    /// Reads one side's table (`side` is "attacker" or "defender").
    pub fn parse(f: &Fields) -> Result<Army> {
        f.only(SIDE_FIELDS)?;
        let culture = match f.choice("culture", &["civilized", "mixed", "barbarian"])? {
            None | Some("civilized") => Culture::Civilized,
            Some("mixed") => Culture::Mixed,
            _ => Culture::Barbarian,
        };
        let default_regular = match f.choice("quality", &["regular", "irregular"])? {
            Some(q) => q == "regular",
            None => culture != Culture::Barbarian,
        };
        let default_morale = match f.choice("morale", &["A", "B", "C", "D"])? {
            Some(m) => ["A", "B", "C", "D"]
                .iter()
                .position(|x| *x == m)
                .unwrap_or(2),
            None => 2,
        };
        let nation = strings(f, "nation")?;
        const FLAGS: [&str; 6] = [
            "roman",
            "italic",
            "hispanic",
            "greek",
            "carthaginian",
            "seleucid",
        ];
        for n in &nation {
            if !FLAGS.contains(&n.as_str()) {
                return Err(AleaError::input(
                    f.source,
                    f.field("nation"),
                    format!("\"{n}\""),
                    format!("a list of {}", FLAGS.join(", ")),
                ));
            }
        }
        let has = |flag: &str| nation.iter().any(|n| n == flag);
        let empty = toml::Table::new();
        let units = f.table("units", &empty)?;
        let veterans = strings(f, "veterans")?;
        let guard = strings(f, "guard")?;
        let mut groups: Vec<Group> = Vec::new();
        let mut keys: Vec<String> = Vec::new();
        for key in units.keys() {
            let field = format!("{}.{key}", f.field("units"));
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
                veteran: veterans.iter().any(|v| v == key),
                guard: guard.iter().any(|v| v == key),
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
            keys.push(key.to_string());
        }
        for (what, list) in [("veterans", &veterans), ("guard", &guard)] {
            for v in list {
                if !units.has(v) {
                    return Err(AleaError::input(
                        f.source,
                        f.field(what),
                        format!("\"{v}\""),
                        "unit keys written in `units`",
                    ));
                }
            }
        }
        if groups.is_empty() {
            return Err(AleaError::input(
                f.source,
                f.field("units"),
                "no units",
                "at least one unit type with a positive number, e.g. units = { \"IM-RC\" = 10 }",
            ));
        }
        if groups.len() > MAX_GROUPS {
            return Err(AleaError::input(
                f.source,
                f.field("units"),
                format!("{} distinct groups", groups.len()),
                format!("at most {MAX_GROUPS} (type, quality, morale, veteran, guard) groups"),
            ));
        }
        let casualty_order = strings(f, "casualty_order")?;
        for c in &casualty_order {
            if !keys.contains(c) {
                return Err(AleaError::input(
                    f.source,
                    f.field("casualty_order"),
                    format!("\"{c}\""),
                    format!("unit keys written in `units`: {}", keys.join(", ")),
                ));
            }
        }
        // The order as group indices, groups not named keeping their written order.
        let mut order: Vec<String> = casualty_order
            .iter()
            .map(|c| {
                let i = keys.iter().position(|k| k == c).unwrap_or(0);
                groups[i].label()
            })
            .collect();
        for g in &groups {
            if !order.contains(&g.label()) {
                order.push(g.label());
            }
        }
        let leader_kind =
            match f.choice("leader_kind", &["infantry", "cavalry", "archer", "chariot"])? {
                None | Some("infantry") => LeaderKind::Infantry,
                Some("cavalry") => LeaderKind::Cavalry,
                Some("archer") => LeaderKind::Archer,
                _ => LeaderKind::Chariot,
            };
        let (mut tactical, mut strategic) =
            (f.int_in("tactical", 0, 5)?, f.int_in("strategic", 0, 5)?);
        if let Some(text) = f.string("leader")? {
            let (t, s) = parse_leader(text).ok_or_else(|| {
                AleaError::input(
                    f.source,
                    f.field("leader"),
                    text,
                    "the leader as the rules write him, tactical-strategic, each 0-5 (e.g. \"4-3\")",
                )
            })?;
            if tactical.is_some() || strategic.is_some() {
                return Err(AleaError::input(
                    f.source,
                    f.field("leader"),
                    text,
                    "either `leader` or `tactical`/`strategic`, not both",
                ));
            }
            (tactical, strategic) = (Some(t), Some(s));
        }
        let has_commander = tactical.is_some() || strategic.is_some();
        let tactic = match f.string("tactic")? {
            None => TacticChoice::Fixed(AE),
            Some("best-response") => TacticChoice::BestResponse,
            Some(t) => TacticChoice::Fixed(tactic_index(f, "tactic", t).map_err(|_| {
                AleaError::input(
                    f.source,
                    f.field("tactic"),
                    format!("\"{t}\""),
                    format!("one of {} or \"best-response\"", TACTICS.join(" ")),
                )
            })?),
        };
        let fallback_tactic = match f.string("fallback_tactic")? {
            None => AE,
            Some(t) => tactic_index(f, "fallback_tactic", t)?,
        };
        let strategy = match f.choice("strategy", &["none", "raise", "lower", "best"])? {
            None | Some("none") => Strategy::None,
            Some("raise") => Strategy::Raise,
            Some("lower") => Strategy::Lower,
            _ => Strategy::Best,
        };
        let strategic = strategic.unwrap_or(0) as i32;
        let army = Army {
            culture,
            roman: has("roman"),
            italic: has("italic"),
            hispanic: has("hispanic"),
            greek: has("greek"),
            carthaginian: has("carthaginian"),
            seleucid: has("seleucid"),
            groups: order
                .iter()
                .map(|l| {
                    groups
                        .iter()
                        .find(|g| g.label() == *l)
                        .cloned()
                        .expect("label of a group")
                })
                .collect(),
            has_commander,
            tactical: tactical.unwrap_or(0) as i32,
            strategic,
            leader_kind: if has_commander {
                leader_kind
            } else {
                LeaderKind::None
            },
            king: f.bool("king")?.unwrap_or(false),
            fatigue: f.int_in("fatigue", 0, 10)?.unwrap_or(0) as u32,
            unsupplied: f.number_in("unsupplied", 0.0, 1.0)?.unwrap_or(0.0),
            surprise: f.bool("surprise")?.unwrap_or(false),
            tactic,
            fallback_tactic,
            strategy,
            flank_fraction: f.number_in("flank_fraction", 0.0, 0.9)?.unwrap_or(0.25),
            flank_strategic: f
                .int_in("flank_strategic", 0, 5)?
                .map_or(strategic, |v| v as i32),
            archers_fire: f.choice("archers", &["missile", "melee"])? != Some("melee"),
            chariots_segment: f.int_in("chariots_segment", 0, 3)?.unwrap_or(0) as u32,
            guard_segment: f.int_in("guard_segment", 0, 90)?.unwrap_or(0) as u32,
            guard_bonus: f.int_in("guard_bonus", 1, 2)?.unwrap_or(2) as u32,
            retreat_below_morale: f
                .number_in("retreat_below_morale", 0.0, 20.0)?
                .map(|m| (m * 100.0).round() as i64),
            retreat_after_losses: f
                .number_in("retreat_after_losses", 0.0, 100.0)?
                .map(|p| p / 100.0),
            retreat_before_battle: f.bool("retreat_before_battle")?.unwrap_or(false),
            pursue: f.bool("pursue")?.unwrap_or(true),
            casualty_order,
        };
        for t in [army.fallback_tactic].into_iter().chain(match army.tactic {
            TacticChoice::Fixed(t) => Some(t),
            TacticChoice::BestResponse => None,
        }) {
            if !army.may_use(t) {
                return Err(AleaError::input(
                    f.source,
                    f.field("tactic"),
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
                f.field("fallback_tactic"),
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

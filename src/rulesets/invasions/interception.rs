//! Interception (XIX.A, L1201-1235; digest §3.7, §4.12, §8.4): each reacting stack of the province
//! owner rolls D10 + modifiers ≥ 6 to join the defence; those arriving are cut to the target's
//! stacking limit (4, 3 in mountains, + the best leader stacking bonus present, + 1 for an invading
//! nation), the excess staying behind. Q14's lost minus signs are the option `lost_minus_signs`.

use super::wording;
use crate::battle::keys::{self, Key, Type};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str =
    "interception: D10 + modifiers >= 6 per reacting stack; stacks and units arriving within the stacking limit";
pub const OUTCOMES: &[&str] = &["intercepted", "not_intercepted"];
const MOUNTAIN: Key = keys::flag("mountain")
    .help("the target province is mountainous (stacking limit 3 instead of 4)");
const DEFENDERS: Key = keys::int("defenders", 0, 30)
    .default_int(0)
    .help("the owner's units already in the target (they count against the limit)");
const DEFENDER_STACKING: Key = keys::int("defender_stacking", 0, 3)
    .default_int(0)
    .help("stacking bonus of a leader already in the target");
const UNITS: Key = keys::int("units", 1, 30)
    .default_int(1)
    .help("units in the stack");
const LEADER: Key = keys::int("leader", 0, 3)
    .absent("no leader")
    .help("the stack leader's combat bonus (+bonus)");
const STACKING: Key = keys::int("stacking", 0, 3)
    .default_int(0)
    .help("the leader's stacking bonus");
const CAPITAL: Key = keys::flag("capital").help("the target holds the interceptor's capital (+3)");
const EMPIRE: Key = keys::flag("empire").help("the interceptor is an Empire (+2)");
const DISTANCE: Key = keys::int("distance", 1, 3)
    .default_int(1)
    .help("land steps to the target (3: -1)");
const CROSSINGS: Key = keys::int("crossings", 0, 3)
    .default_int(0)
    .help("mountain ranges and straits crossed (-2 each)");
const BOSPORUS: Key =
    keys::flag("bosporus").help("one of the straits is the Bosporus (a further -2)");
const STACKS: Key = Key::new(
    "stacks",
    Type::Tables(
        &[
            UNITS, LEADER, STACKING, CAPITAL, EMPIRE, DISTANCE, CROSSINGS, BOSPORUS,
        ],
        1,
        MAX_STACKS,
    ),
)
.required()
.help("one table per reacting stack (at most one without a leader)");

pub const KEYS: &[Key] = &[MOUNTAIN, DEFENDERS, DEFENDER_STACKING, STACKS];

const MAX_STACKS: usize = 8;

/// The stacking limit (XVII, L1050-1075): 4 (3 in mountains) + the leader's stacking bonus + 1 while
/// invading.
pub fn stacking_limit(mountain: bool, leader_stacking_bonus: u32, invading: bool) -> u32 {
    (if mountain { 3 } else { 4 }) + leader_stacking_bonus + invading as u32
}

/// P(D10 + m ≥ 6) = clamp((5 + m)/10).
pub fn p_intercept(m: i32) -> f64 {
    (5 + m).clamp(0, 10) as f64 / 10.0
}

/// A printed roll: does `roll` (1..=10) + `m` reach 6?
pub fn succeeds(m: i32, roll: u32) -> bool {
    roll as i32 + m >= 6
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Reacting {
    pub units: u32,
    pub leader: Option<u32>,
    pub stacking: u32,
    pub capital: bool,
    pub empire: bool,
    pub distance: u32,
    pub crossings: u32,
    pub bosporus: bool,
}

impl Reacting {
    /// Every modifier, named, with whether it applies (L1213-1218); `sign` is −1 with the
    /// restored minus signs. No allocation, so the full game can ask at every attack.
    fn terms(&self, sign: i32) -> [(&'static str, i32, bool); 6] {
        let leader = self.leader.unwrap_or(0);
        [
            ("leader", leader as i32, leader > 0),
            ("capital in the target", 3, self.capital),
            ("Empire", 2, self.empire),
            ("distance 3", sign, self.distance >= 3),
            (
                "ranges/straits",
                2 * sign * self.crossings as i32,
                self.crossings > 0,
            ),
            ("Bosporus", 2 * sign, self.bosporus),
        ]
    }

    /// Each modifier that applies, named.
    pub fn breakdown(&self, sign: i32) -> Vec<(&'static str, i32)> {
        self.terms(sign)
            .into_iter()
            .filter(|t| t.2)
            .map(|(name, m, _)| (name, m))
            .collect()
    }

    pub fn modifier(&self, sign: i32) -> i32 {
        self.terms(sign).iter().filter(|t| t.2).map(|t| t.1).sum()
    }
}

pub struct Interception {
    pub stacks: Vec<Reacting>,
    pub mountain: bool,
    pub defenders: u32,
    pub defender_stacking: u32,
    /// −1 with the restored minus signs (default), +1 as extracted.
    pub sign: i32,
    /// Each stack's modifier, computed once.
    mods: Vec<i32>,
    schema: Schema,
}

impl Interception {
    pub fn new(
        stacks: Vec<Reacting>,
        mountain: bool,
        defenders: u32,
        defender_stacking: u32,
        sign: i32,
    ) -> Interception {
        let n = stacks.len();
        let total: u32 = stacks.iter().map(|s| s.units).sum();
        let mut schema = Schema::new(OUTCOMES);
        schema.count("stacks_arriving", n);
        schema.count("units_arriving", total as usize);
        schema.count("units_left_behind", total as usize);
        for k in 0..n {
            schema.scalar(format!("arrives/{}", k + 1));
        }
        let mods = stacks.iter().map(|s| s.modifier(sign)).collect();
        Interception {
            mods,
            stacks,
            mountain,
            defenders,
            defender_stacking,
            sign,
            schema,
        }
    }

    fn p(&self, k: usize) -> f64 {
        p_intercept(self.mods[k])
    }

    /// (units arriving, units left behind) when the stacks in bit set `arrived` succeed.
    pub fn arrival(&self, arrived: u32) -> (u32, u32) {
        let mut bonus = self.defender_stacking;
        let mut units = 0;
        for (k, s) in self.stacks.iter().enumerate() {
            if arrived & (1 << k) != 0 {
                units += s.units;
                if s.leader.is_some() {
                    bonus = bonus.max(s.stacking);
                }
            }
        }
        let room = stacking_limit(self.mountain, bonus, false).saturating_sub(self.defenders);
        let arriving = units.min(room);
        (arriving, units - arriving)
    }

    fn record(&self, arrived: u32, w: f64, ex: &mut Exact) {
        let (a, left) = self.arrival(arrived);
        ex.outcomes[if arrived != 0 { 0 } else { 1 }] += w;
        ex.counts[0].add_mass(arrived.count_ones() as usize, w);
        ex.counts[1].add_mass(a as usize, w);
        ex.counts[2].add_mass(left as usize, w);
    }
}

fn read_stack(fields: &Fields, f: &Fields) -> Result<Reacting> {
    let field = f.path();
    let s = Reacting {
        units: UNITS.int(f)? as u32,
        leader: LEADER.opt_int(f)?.map(|l| l as u32),
        stacking: STACKING.int(f)? as u32,
        capital: CAPITAL.bool(f)?,
        empire: EMPIRE.bool(f)?,
        distance: DISTANCE.int(f)? as u32,
        crossings: CROSSINGS.int(f)? as u32,
        bosporus: BOSPORUS.bool(f)?,
    };
    if s.stacking > 0 && s.leader.is_none() {
        return Err(AleaError::input(
            fields.source,
            format!("{field}.stacking"),
            s.stacking,
            "0 for a stack without a leader (give its leader's combat bonus in `leader`)",
        ));
    }
    if s.bosporus && s.crossings == 0 {
        return Err(AleaError::input(
            fields.source,
            format!("{field}.crossings"),
            0,
            "at least 1 when the stack crosses the Bosporus (a strait)",
        ));
    }
    Ok(s)
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let stacks = keys::entries(fields, &STACKS)?
        .iter()
        .map(|f| read_stack(fields, f))
        .collect::<Result<Vec<_>>>()?;
    if stacks.is_empty() {
        return Err(STACKS.missing(fields));
    }
    if stacks.iter().filter(|s| s.leader.is_none()).count() > 1 {
        return Err(AleaError::input(
            fields.source,
            "stacks",
            "two stacks without a leader",
            "at most one leaderless stack (any number with leaders), XIX.A",
        ));
    }
    let sign = if options.choice("lost_minus_signs") == "as-extracted" {
        1
    } else {
        -1
    };
    Ok(Box::new(Interception::new(
        stacks,
        MOUNTAIN.bool(fields)?,
        DEFENDERS.int(fields)? as u32,
        DEFENDER_STACKING.int(fields)? as u32,
        sign,
    )))
}

impl Simulate for Interception {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let mut arrived = 0u32;
        for (k, &m) in self.mods.iter().enumerate() {
            if succeeds(m, dice.d10()) {
                arrived |= 1 << k;
                out.scalars[k] = 1.0;
            }
        }
        let (a, left) = self.arrival(arrived);
        out.outcome = if arrived != 0 { 0 } else { 1 };
        out.counts[0] = arrived.count_ones();
        out.counts[1] = a;
        out.counts[2] = left;
    }
}

impl BattleModel for Interception {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let n = self.stacks.len();
        for c in ex.counts.iter_mut() {
            *c = Pmf::zeros(c.len());
        }
        for arrived in 0u32..(1 << n) {
            let w: f64 = (0..n)
                .map(|k| {
                    if arrived & (1 << k) != 0 {
                        self.p(k)
                    } else {
                        1.0 - self.p(k)
                    }
                })
                .product();
            if w > 0.0 {
                self.record(arrived, w, &mut ex);
            }
        }
        for k in 0..n {
            ex.scalars[k] = self.p(k);
        }
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let mut v = vec![format!(
            "target: {}province, {} owner's units already there{}",
            if self.mountain { "mountain " } else { "" },
            self.defenders,
            if self.defender_stacking > 0 {
                format!(" with a leader of stacking +{}", self.defender_stacking)
            } else {
                String::new()
            }
        )];
        for (k, s) in self.stacks.iter().enumerate() {
            v.push(format!(
                "stack {}: {} units, {}; modifier {:+} ({}), P = {:.2}",
                k + 1,
                s.units,
                match s.leader {
                    Some(l) => format!("leader combat {l} stacking +{}", s.stacking),
                    None => "no leader".to_string(),
                },
                s.modifier(self.sign),
                wording::modifiers(&s.breakdown(self.sign)),
                self.p(k)
            ));
        }
        v
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "stacking limit in the target: {} + the best stacking bonus of the leaders there; units above it stay behind",
            stacking_limit(self.mountain, 0, false)
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::test_support::{
        assert_agrees, assert_input_error, close, input_error,
    };

    #[test]
    fn t14_stacking() {
        assert_eq!(stacking_limit(false, 2, false), 6);
        assert_eq!(stacking_limit(true, 2, false), 5);
        assert_eq!(stacking_limit(false, 2, true), 7);
        assert_eq!(stacking_limit(true, 2, true), 6);
        assert_eq!(stacking_limit(false, 0, false), 4);
    }

    #[test]
    fn t12_interception_of_375() {
        // Stack 1: Thracia, no leader, Empire (+2).
        let s1 = Reacting {
            units: 3,
            empire: true,
            distance: 1,
            ..Reacting::default()
        };
        assert_eq!(s1.modifier(-1), 2);
        assert_eq!(3 + s1.modifier(-1), 5);
        assert!(!succeeds(s1.modifier(-1), 3));
        close(p_intercept(s1.modifier(-1)), 0.7);
        // Stack 2: Valens (combat 1, stacking +2) from Cappadocia, 3 steps, across the Bosporus.
        let s2 = Reacting {
            units: 6,
            leader: Some(1),
            stacking: 2,
            empire: true,
            distance: 3,
            crossings: 1,
            bosporus: true,
            ..Reacting::default()
        };
        assert_eq!(s2.modifier(-1), 1 + 2 - 2 - 2 - 1);
        assert_eq!(9 + s2.modifier(-1), 7);
        assert!(succeeds(s2.modifier(-1), 9));
        close(p_intercept(s2.modifier(-1)), 0.3);
        // Moesia Inferior (mountain): 3 + 2 = 5, so 1 of Valens's 6 units stays in Cappadocia.
        let i = Interception::new(vec![s1, s2], true, 0, 0, -1);
        assert_eq!(stacking_limit(true, 2, false), 5);
        assert_eq!(i.arrival(0b10), (5, 1));
        let ex = i.exact().unwrap();
        close(ex.scalars[0], 0.7);
        close(ex.scalars[1], 0.3);
        close(ex.outcomes[1], 0.3 * 0.7);
        // Both arrive (0.21): 9 units, limit 5 (Valens's bonus) → 5 in, 4 behind.
        close(ex.counts[2].get(4), 0.21);
        // Only stack 1 (0.49): 3 units, limit 3 without a leader.
        close(ex.counts[1].get(3), 0.49);
    }

    #[test]
    fn lost_minus_signs_as_extracted() {
        let s = Reacting {
            distance: 3,
            crossings: 1,
            bosporus: true,
            ..Reacting::default()
        };
        assert_eq!(s.modifier(-1), -5);
        assert_eq!(s.modifier(1), 5);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        for case in 0..24u32 {
            let n = 1 + case % 4;
            let stacks: Vec<Reacting> = (0..n)
                .map(|k| {
                    let c = case + 3 * k;
                    let leader = if k == 0 && case % 3 == 0 {
                        None
                    } else {
                        Some(c % 4)
                    };
                    Reacting {
                        units: 1 + c % 6,
                        leader,
                        stacking: if leader.is_some() { c % 3 } else { 0 },
                        capital: c % 5 == 0,
                        empire: c % 2 == 0,
                        distance: 1 + c % 3,
                        crossings: c % 3 % 2,
                        bosporus: c % 7 == 1 && c % 3 % 2 == 1,
                    }
                })
                .collect();
            let i = Interception::new(
                stacks,
                case % 2 == 1,
                case % 5,
                case % 4 % 3,
                if case % 9 == 8 { 1 } else { -1 },
            );
            assert_agrees(&i, 30_000, 16, case as u64, &case.to_string());
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert_input_error(
            build,
            "[[stacks]]\nleader = 1\ndistance = 4",
            "stacks[0].distance",
        );
        input_error(build, "[[stacks]]\nunits = 2\n[[stacks]]\nunits = 1");
    }
}

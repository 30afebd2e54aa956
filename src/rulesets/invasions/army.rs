//! Land units and stacks (digest §3.0.1, §3.0.2): unit templates as data, the qualities a counter
//! may carry, and a stack's state during a battle as counts per class.

use crate::battle::keys::Key;
use crate::error::{AleaError, Result};
use crate::spec::Fields;

/// Most distinct unit classes a side may bring (type × quality combinations).
pub const MAX_CLASSES: usize = 8;

/// A unit type as printed on the counter (L159-184, glossary L3072-3128).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Template {
    pub name: &'static str,
    pub archer: bool,
    pub cavalry: bool,
    pub heavy: bool,
    pub frankish: bool,
    /// Elite points of the intact counter for a Civilized owner: 0, 1, or 2 (Guards, L171).
    pub elite: u8,
    /// Worth to its owner: the order casualties spare and recovery brings back (digest §8.5).
    pub value: f64,
}

const fn t(
    name: &'static str,
    archer: bool,
    cavalry: bool,
    heavy: bool,
    frankish: bool,
    elite: u8,
    value: f64,
) -> Template {
    Template {
        name,
        archer,
        cavalry,
        heavy,
        frankish,
        elite,
        value,
    }
}

pub const TEMPLATES: &[Template] = &[
    t("infantry", false, false, false, false, 0, 1.0),
    t("frankish_infantry", false, false, false, true, 0, 1.5),
    t("archer", true, false, false, false, 0, 3.0),
    t("cavalry", false, true, false, false, 0, 4.0),
    t("horse_archer", true, true, false, false, 0, 5.0),
    t("heavy_infantry", false, false, true, false, 0, 6.0),
    t("heavy_cavalry", false, true, true, false, 0, 7.0),
    t("elite_infantry", false, false, false, false, 1, 8.0),
    t("legion", false, false, true, false, 1, 8.2),
    t("elite_cavalry", false, true, false, false, 1, 8.5),
    t("noble_cavalry", false, true, true, false, 1, 9.0),
    t("clibanarii", false, true, true, false, 1, 9.0),
    t("cataphractae", true, true, true, false, 1, 9.5),
    t("guard", false, false, true, false, 2, 10.0),
    t("palatine_cavalry", false, true, true, false, 2, 10.0),
];

/// The names of the unit types, as [`TEMPLATES`] has them (for the did-you-mean of a unit key).
pub const UNIT_NAMES: &[&str] = &[
    "infantry",
    "frankish_infantry",
    "archer",
    "cavalry",
    "horse_archer",
    "heavy_infantry",
    "heavy_cavalry",
    "elite_infantry",
    "legion",
    "elite_cavalry",
    "noble_cavalry",
    "clibanarii",
    "cataphractae",
    "guard",
    "palatine_cavalry",
];

/// Where a unit comes from: the first unit eliminated must be national (auxiliaries count as
/// national, L1433); mercenaries are not units of the side's nation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    National,
    Auxiliary,
    Mercenary,
}

/// Qualities a counter may carry, written as prefixes of the unit key (`alpine_archer`).
const PREFIXES: &[&str] = &[
    "damaged_",
    "alpine_",
    "amphibious_",
    "auxiliary_",
    "mercenary_",
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitClass {
    pub template: &'static Template,
    pub alpine: bool,
    pub amphibious: bool,
    pub origin: Origin,
    /// Takes two hits (first flips it): an elite of a Civilized owner (L166-169).
    pub two_hit: bool,
    /// The owner's valuation: the template's, unless a policy reorders the unit types.
    pub worth: f64,
}

impl UnitClass {
    /// A national unit of the template with no qualities, as `status`'s owner fields it.
    pub fn new(template: &'static Template, status: Status) -> UnitClass {
        UnitClass {
            template,
            alpine: false,
            amphibious: false,
            origin: Origin::National,
            two_hit: template.elite > 0 && status.civilized(),
            worth: template.value,
        }
    }

    /// Flags of the counter's face: a damaged elite is standard infantry keeping alpine,
    /// amphibious and francisca (L166-170).
    pub fn archer(&self, damaged: bool) -> bool {
        !damaged && self.template.archer
    }
    pub fn cavalry(&self, damaged: bool) -> bool {
        !damaged && self.template.cavalry
    }
    pub fn heavy(&self, damaged: bool) -> bool {
        !damaged && self.template.heavy
    }
    pub fn horse_archer(&self, damaged: bool) -> bool {
        self.archer(damaged) && self.cavalry(damaged)
    }
    pub fn elite_points(&self, damaged: bool) -> u32 {
        if self.two_hit && !damaged {
            self.template.elite as u32
        } else {
            0
        }
    }
    /// Value for casualties and recovery; a damaged elite ranks just above standard infantry
    /// (§8.5 order: infantry, damaged elites, archers, cavalry, heavy).
    pub fn value(&self, damaged: bool) -> f64 {
        let quality = 0.01 * (self.alpine as u8 + self.amphibious as u8) as f64;
        if damaged {
            2.0 + self.worth / 100.0 + quality
        } else {
            self.worth + quality
        }
    }

    pub fn label(&self) -> String {
        let mut s = String::new();
        match self.origin {
            Origin::National => {}
            Origin::Auxiliary => s.push_str("auxiliary "),
            Origin::Mercenary => s.push_str("mercenary "),
        }
        if self.alpine {
            s.push_str("alpine ");
        }
        if self.amphibious {
            s.push_str("amphibious ");
        }
        s.push_str(&self.template.name.replace('_', " "));
        s
    }
}

/// Nation status (III, L137-157): Barbarians' elites are standard (L169, L443).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Barbarian,
    Kingdom,
    Empire,
}

impl Status {
    pub fn civilized(self) -> bool {
        self != Status::Barbarian
    }
}

/// A stack's composition: classes with intact and damaged counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub classes: Vec<UnitClass>,
    pub intact: Vec<u8>,
    pub damaged: Vec<u8>,
    /// Every (class, damaged?) from least to most valuable to the owner.
    ranking: Vec<(usize, bool)>,
}

/// Per-side state during a battle. Fixed arrays keep it `Copy` and hashable for the exact solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Army {
    pub intact: [u8; MAX_CLASSES],
    pub damaged: [u8; MAX_CLASSES],
    /// Eliminated so far, by class (an eliminated elite returns damaged whatever it was).
    pub eliminated: [u8; MAX_CLASSES],
    /// Intact elites flipped so far.
    pub flips: u8,
}

impl Army {
    /// Units standing, intact or damaged. The solvers ask it millions of times (who won, who
    /// is wiped out): each array is read as one word and its bytes added within it.
    #[inline]
    pub fn units(&self) -> u32 {
        byte_sum(self.intact) + byte_sum(self.damaged)
    }
    #[inline]
    pub fn eliminated_total(&self) -> u32 {
        byte_sum(self.eliminated)
    }
}

/// The sum of eight counts, added within one u64: neighbouring bytes into 16-bit lanes (at most
/// 510 each), then the four lanes into the top one by a multiply (at most 2,040: no lane carries
/// into the next). An `Army` holds `MAX_CLASSES` = 8 counts a row, one word.
#[inline]
fn byte_sum(counts: [u8; MAX_CLASSES]) -> u32 {
    const BYTES: u64 = 0x00ff_00ff_00ff_00ff;
    let w = u64::from_le_bytes(counts);
    let lanes = (w & BYTES) + ((w >> 8) & BYTES);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// Every group of counters present: (class index, class, damaged?, how many).
pub fn counters<'a>(
    classes: &'a [UnitClass],
    army: &'a Army,
) -> impl Iterator<Item = (usize, &'a UnitClass, bool, u32)> + 'a {
    classes.iter().enumerate().flat_map(move |(k, c)| {
        [(false, army.intact[k]), (true, army.damaged[k])]
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(move |(damaged, n)| (k, c, damaged, n as u32))
    })
}

/// Sums a per-counter quantity over a stack.
pub fn count(classes: &[UnitClass], army: &Army, f: impl Fn(&UnitClass, bool) -> u32) -> u32 {
    // An indexed loop rather than `counters`' chain of iterators: the exact solvers ask for
    // these sums (advantages, elite points) in every state they visit.
    let mut sum = 0;
    for (k, c) in classes.iter().enumerate() {
        sum += army.intact[k] as u32 * f(c, false) + army.damaged[k] as u32 * f(c, true);
    }
    sum
}

pub fn cavalry(classes: &[UnitClass], army: &Army) -> u32 {
    count(classes, army, |c, d| c.cavalry(d) as u32)
}
pub fn heavy(classes: &[UnitClass], army: &Army) -> u32 {
    count(classes, army, |c, d| c.heavy(d) as u32)
}
pub fn elites(classes: &[UnitClass], army: &Army) -> u32 {
    count(classes, army, |c, d| c.elite_points(d))
}

/// Cavalry or heavy advantage (L1327-1333): 2 more, or some against none.
pub fn advantage(mine: u32, theirs: u32) -> bool {
    mine >= theirs + 2 || (mine >= 1 && theirs == 0)
}

/// Whether `key` names units (a unit type, with any prefixes): the `<unit>` family of keys.
pub fn is_unit_key(key: &str) -> bool {
    parse_unit_key(key, Status::Barbarian).is_some()
}

/// Whether `key` names units, and which class.
pub fn parse_unit_key(key: &str, status: Status) -> Option<(UnitClass, bool)> {
    let mut rest = key;
    let (mut damaged, mut alpine, mut amphibious) = (false, false, false);
    let mut origin = Origin::National;
    'strip: loop {
        for p in PREFIXES {
            if let Some(r) = rest.strip_prefix(p) {
                match *p {
                    "damaged_" => damaged = true,
                    "alpine_" => alpine = true,
                    "amphibious_" => amphibious = true,
                    "auxiliary_" => origin = Origin::Auxiliary,
                    _ => origin = Origin::Mercenary,
                }
                rest = r;
                continue 'strip;
            }
        }
        break;
    }
    let template = TEMPLATES.iter().find(|t| t.name == rest)?;
    Some((
        UnitClass {
            alpine,
            amphibious,
            origin,
            ..UnitClass::new(template, status)
        },
        damaged,
    ))
}

/// Reads the unit keys of a side table: the keys of the `unit` family (the declaration has
/// rejected any other key the side does not take).
pub fn parse_stack(side: &Fields, status: Status, unit: &Key) -> Result<Stack> {
    let mut stack = Stack::of(Vec::new());
    for key in side.keys() {
        let Some((class, damaged)) = parse_unit_key(key, status) else {
            continue;
        };
        let n = unit.member_int(side, key)?.unwrap_or(0) as u8;
        if damaged && !class.two_hit {
            return Err(AleaError::input(
                side.source,
                side.field(key),
                n,
                "damaged_ only for elite units of a Civilized nation (a Barbarian's elites are standard)",
            ));
        }
        let k = match stack.classes.iter().position(|c| *c == class) {
            Some(k) => k,
            None => {
                if stack.classes.len() == MAX_CLASSES {
                    return Err(AleaError::input(
                        side.source,
                        side.field(key),
                        n,
                        format!("at most {MAX_CLASSES} distinct unit kinds a side"),
                    ));
                }
                stack.classes.push(class);
                stack.intact.push(0);
                stack.damaged.push(0);
                stack.classes.len() - 1
            }
        };
        if damaged {
            stack.damaged[k] += n;
        } else {
            stack.intact[k] += n;
        }
    }
    stack.rank();
    Ok(stack)
}

impl Stack {
    /// A stack of these classes with no units yet.
    pub fn of(classes: Vec<UnitClass>) -> Stack {
        let n = classes.len();
        let mut s = Stack {
            classes,
            intact: vec![0; n],
            damaged: vec![0; n],
            ranking: Vec::new(),
        };
        s.rank();
        s
    }

    fn rank(&mut self) {
        let mut r: Vec<(usize, bool)> = (0..self.classes.len())
            .flat_map(|k| [(k, false), (k, true)])
            .collect();
        r.sort_by(|a, b| {
            let v = |&(k, d): &(usize, bool)| self.classes[k].value(d);
            v(a).partial_cmp(&v(b)).expect("finite values")
        });
        self.ranking = r;
    }

    /// Reorders the worth of the unit types named in `order` (least valuable first) among the
    /// worths those types have by default; other types keep theirs.
    pub fn reorder_worth(&mut self, order: &[&'static Template]) {
        let mut slots: Vec<f64> = order.iter().map(|t| t.value).collect();
        slots.sort_by(|a, b| a.partial_cmp(b).expect("finite values"));
        for c in self.classes.iter_mut() {
            if let Some(i) = order.iter().position(|t| t.name == c.template.name) {
                c.worth = slots[i];
            }
        }
        self.rank();
    }

    /// The least valuable counter present satisfying `accept(class, damaged)`.
    #[inline]
    pub fn cheapest(
        &self,
        army: &Army,
        accept: impl Fn(&UnitClass, bool) -> bool,
    ) -> Option<(usize, bool)> {
        self.ranking.iter().copied().find(|&(k, damaged)| {
            let n = if damaged {
                army.damaged[k]
            } else {
                army.intact[k]
            };
            n > 0 && accept(&self.classes[k], damaged)
        })
    }

    pub fn total(&self) -> u32 {
        self.intact
            .iter()
            .chain(&self.damaged)
            .map(|&n| n as u32)
            .sum()
    }

    pub fn army(&self) -> Army {
        let mut a = Army::default();
        a.intact[..self.intact.len()].copy_from_slice(&self.intact);
        a.damaged[..self.damaged.len()].copy_from_slice(&self.damaged);
        a
    }

    /// Splits off the least valuable units beyond `limit` (they wait outside the battle, L1236).
    pub fn split_at_limit(&self, limit: u32) -> (Army, Army) {
        let mut fighting = self.army();
        let mut waiting = Army::default();
        let mut excess = self.total().saturating_sub(limit);
        while excess > 0 {
            let (k, damaged) = self
                .cheapest(&fighting, |_, _| true)
                .expect("excess implies a unit to set aside");
            if damaged {
                fighting.damaged[k] -= 1;
                waiting.damaged[k] += 1;
            } else {
                fighting.intact[k] -= 1;
                waiting.intact[k] += 1;
            }
            excess -= 1;
        }
        (fighting, waiting)
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (k, c) in self.classes.iter().enumerate() {
            if self.intact[k] > 0 {
                parts.push(format!("{} {}", self.intact[k], c.label()));
            }
            if self.damaged[k] > 0 {
                parts.push(format!("{} damaged {}", self.damaged[k], c.label()));
            }
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word sums equal plain sums, for counts up to 255 in every class.
    #[test]
    fn army_sums_add_every_count() {
        let mut seed = 0x9e37_79b9_u32;
        let mut count = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            [0, 1, 2, 7, 128, 254, 255][(seed % 7) as usize] as u8
        };
        for _ in 0..500 {
            let army = Army {
                intact: std::array::from_fn(|_| count()),
                damaged: std::array::from_fn(|_| count()),
                eliminated: std::array::from_fn(|_| count()),
                flips: 0,
            };
            let plain = |a: &[u8]| a.iter().map(|&c| c as u32).sum::<u32>();
            assert_eq!(army.units(), plain(&army.intact) + plain(&army.damaged));
            assert_eq!(army.eliminated_total(), plain(&army.eliminated));
        }
        assert_eq!(Army::default().units(), 0);
        let full = Army {
            intact: [255; MAX_CLASSES],
            damaged: [255; MAX_CLASSES],
            ..Army::default()
        };
        assert_eq!(full.units(), 2 * 8 * 255);
    }

    #[test]
    fn unit_keys_combine_qualities() {
        let (c, d) = parse_unit_key("damaged_alpine_legion", Status::Empire).unwrap();
        assert!(d && c.alpine && c.two_hit && c.template.name == "legion");
        let (c, _) = parse_unit_key("noble_cavalry", Status::Barbarian).unwrap();
        assert!(!c.two_hit && c.heavy(false) && c.cavalry(false));
        assert!(parse_unit_key("legionn", Status::Empire).is_none());
        let (c, _) = parse_unit_key("mercenary_horse_archer", Status::Kingdom).unwrap();
        assert!(c.origin == Origin::Mercenary && c.horse_archer(false));
    }

    #[test]
    fn unit_names_are_the_templates() {
        let names: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
        assert_eq!(names, UNIT_NAMES);
    }

    #[test]
    fn advantages_follow_the_two_more_or_some_against_none_rule() {
        assert!(advantage(7, 2) && !advantage(2, 7));
        assert!(advantage(1, 0) && !advantage(0, 0));
        assert!(!advantage(3, 2) && advantage(5, 3));
    }
}

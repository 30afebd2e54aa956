//! Who absorbs the hits (XX.H, L1429-1434; digest §3.0.4, policy §8.5).
//!
//! One hit eliminates a standard unit or a damaged elite, or flips an intact elite of a Civilized
//! owner. The first unit eliminated must be national. What is left over after every unit is gone is
//! reported (a horde or a Limes may take it).

use super::army::{advantage, cavalry, elites, heavy, Army, Origin, Stack, UnitClass};

/// The owner's casualty policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Casualties {
    /// Flip intact elites first, then eliminate the least valuable units.
    MinElim,
    /// MinElim, but use eliminations the recovery step will undo instead of flips when that
    /// cannot change the result, and between rounds keep the elite exchange thresholds and the
    /// cavalry and heavy advantages.
    Smart,
}

/// What the owner may do beyond the minimum for one volley.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plan {
    /// Cheap units to eliminate before flipping elites (recovery will bring them back).
    pub free_eliminations: u32,
    /// Elite-point thresholds worth keeping (e.g. 2 and, for Rome, 4): a flip that would cross one
    /// is replaced by a cheap elimination while `spare_recoveries` last.
    pub keep_thresholds: [u32; 2],
    /// The enemy's (cavalry, heavy) units: a flip or elimination that would lose the cavalry or
    /// heavy advantage is avoided the same way.
    pub enemy: Option<(u32, u32)>,
    pub spare_recoveries: u32,
}

impl Plan {
    /// Whether going from `now` to `after` loses something the plan keeps.
    fn loses(&self, classes: &[UnitClass], now: &Army, after: &Army) -> bool {
        let (e_now, e_after) = (elites(classes, now), elites(classes, after));
        if self
            .keep_thresholds
            .iter()
            .any(|&t| t > 0 && e_now >= t && e_after < t)
        {
            return true;
        }
        let Some((enemy_cav, enemy_heavy)) = self.enemy else {
            return false;
        };
        let lost = |count: fn(&[UnitClass], &Army) -> u32, enemy: u32| {
            advantage(count(classes, now), enemy) && !advantage(count(classes, after), enemy)
        };
        lost(cavalry, enemy_cav) || lost(heavy, enemy_heavy)
    }
}

fn national_eliminated(classes: &[UnitClass], army: &Army) -> bool {
    classes
        .iter()
        .enumerate()
        .any(|(k, c)| c.origin != Origin::Mercenary && army.eliminated[k] > 0)
}

/// The least valuable counter that may go (national first, L1433).
fn pick(stack: &Stack, army: &Army, only_cheap: bool) -> Option<(usize, bool)> {
    let ok = |c: &UnitClass, damaged: bool| !only_cheap || damaged || !c.two_hit;
    if national_eliminated(&stack.classes, army) {
        stack.cheapest(army, ok)
    } else {
        stack
            .cheapest(army, |c, d| ok(c, d) && c.origin != Origin::Mercenary)
            .or_else(|| stack.cheapest(army, ok))
    }
}

fn remove(army: &mut Army, (k, damaged): (usize, bool)) {
    if damaged {
        army.damaged[k] -= 1;
    } else {
        army.intact[k] -= 1;
    }
    army.eliminated[k] += 1;
}

/// Removes the least valuable counter that may go; false if none.
fn eliminate_one(stack: &Stack, army: &mut Army, only_cheap: bool) -> bool {
    match pick(stack, army, only_cheap) {
        Some(p) => {
            remove(army, p);
            true
        }
        None => false,
    }
}

/// The intact elite whose flip costs least: fewest elite points, then least value.
fn flip_candidate(classes: &[UnitClass], army: &Army) -> Option<usize> {
    (0..classes.len())
        .filter(|&k| classes[k].two_hit && army.intact[k] > 0)
        .min_by(|&a, &b| {
            let key = |k: usize| (classes[k].template.elite, classes[k].value(false));
            key(a).partial_cmp(&key(b)).expect("finite values")
        })
}

/// Applies `hits` to `army`; returns the hits nobody could absorb.
pub fn allocate(stack: &Stack, army: &mut Army, hits: u32, plan: Plan) -> u32 {
    let classes = &stack.classes;
    let mut h = hits;
    let mut free = plan.free_eliminations;
    while h > 0 && free > 0 && army.units() > 1 && eliminate_one(stack, army, true) {
        h -= 1;
        free -= 1;
    }
    let mut spare = plan.spare_recoveries;
    while h > 0 {
        if let Some(k) = flip_candidate(classes, army) {
            let mut flipped = *army;
            flipped.intact[k] -= 1;
            flipped.damaged[k] += 1;
            flipped.flips += 1;
            // Keep what the next round needs: a cheap elimination the recovery will undo instead
            // of a flip that would lose a threshold, unless that elimination loses one too.
            let instead = (spare > 0 && army.units() > 1 && plan.loses(classes, army, &flipped))
                .then(|| pick(stack, army, true))
                .flatten()
                .filter(|&p| {
                    let mut e = *army;
                    remove(&mut e, p);
                    !plan.loses(classes, army, &e)
                });
            match instead {
                Some(p) => {
                    remove(army, p);
                    spare -= 1;
                }
                None => *army = flipped,
            }
        } else if !eliminate_one(stack, army, false) {
            break;
        }
        h -= 1;
    }
    h
}

/// Eliminations the minimum-elimination policy would suffer from `hits`.
pub fn min_eliminations(stack: &Stack, army: &Army, hits: u32) -> (Army, u32) {
    let mut a = *army;
    let left = allocate(stack, &mut a, hits, Plan::default());
    (a, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::invasions::army::{parse_unit_key, Status};

    fn classes(keys: &[&str], status: Status) -> Stack {
        Stack::of(
            keys.iter()
                .map(|k| parse_unit_key(k, status).unwrap().0)
                .collect(),
        )
    }

    #[test]
    fn nisibis_allocation_flips_then_eliminates() {
        // T04: the Persians take 5 hits. Flipping both elites first, then eliminating in the §8.5
        // order (damaged elites before archers) loses the Clibanarii, the elite infantry and one
        // horse archer: the printed allocation.
        let c = classes(
            &[
                "clibanarii",
                "heavy_cavalry",
                "horse_archer",
                "elite_infantry",
            ],
            Status::Kingdom,
        );
        let mut a = Army::default();
        a.intact[..4].copy_from_slice(&[1, 1, 3, 1]);
        let left = allocate(&c, &mut a, 5, Plan::default());
        assert_eq!(left, 0);
        assert_eq!(a.flips, 2);
        assert_eq!(&a.eliminated[..4], &[1, 0, 1, 1]);
        let left = allocate(&c, &mut a, 10, Plan::default());
        assert_eq!(left, 7, "3 units left absorb 3 of 10 hits");
        assert_eq!(a.units(), 0);
    }

    #[test]
    fn first_eliminated_unit_is_national() {
        let c = classes(&["mercenary_infantry", "cavalry"], Status::Kingdom);
        let mut a = Army::default();
        a.intact[..2].copy_from_slice(&[2, 1]);
        allocate(&c, &mut a, 2, Plan::default());
        assert_eq!(a.eliminated[1], 1, "the national cavalry goes first");
        assert_eq!(a.eliminated[0], 1);
    }

    #[test]
    fn free_eliminations_spare_the_legions() {
        // Designer's note L2021: eliminate the 2 auxiliaries rather than flip legions.
        let c = classes(&["auxiliary_infantry", "legion"], Status::Empire);
        let mut a = Army::default();
        a.intact[..2].copy_from_slice(&[2, 2]);
        let mut b = a;
        allocate(
            &c,
            &mut a,
            2,
            Plan {
                free_eliminations: 2,
                ..Plan::default()
            },
        );
        assert_eq!((a.eliminated[0], a.flips), (2, 0));
        allocate(&c, &mut b, 2, Plan::default());
        assert_eq!((b.eliminated_total(), b.flips), (0, 2));
    }

    #[test]
    fn between_rounds_the_heavy_advantage_is_kept_when_a_recovery_allows() {
        // 1 legion (heavy) + 1 auxiliary against a stack with no heavy unit: flipping the legion
        // would lose the heavy advantage, so the auxiliary goes (recovery will bring it back).
        let c = classes(&["auxiliary_infantry", "legion"], Status::Empire);
        let mut a = Army::default();
        a.intact[..2].copy_from_slice(&[1, 1]);
        let plan = Plan {
            enemy: Some((0, 0)),
            spare_recoveries: 2,
            ..Plan::default()
        };
        let mut kept = a;
        allocate(&c, &mut kept, 1, plan);
        assert_eq!((kept.eliminated[0], kept.flips), (1, 0));
        // With no recovery to spare, or against enough heavy units, the legion flips.
        let mut flipped = a;
        allocate(
            &c,
            &mut flipped,
            1,
            Plan {
                spare_recoveries: 0,
                ..plan
            },
        );
        assert_eq!((flipped.eliminated_total(), flipped.flips), (0, 1));
        let mut flipped = a;
        allocate(
            &c,
            &mut flipped,
            1,
            Plan {
                enemy: Some((0, 3)),
                ..plan
            },
        );
        assert_eq!(flipped.flips, 1);
    }
}

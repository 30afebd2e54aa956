//! A side as it enters battle: its unit groups as slots (factors, pilum, mounted, detachment), its
//! morale base and formation, from the army, the enemy and the setting.

use super::SLOTS;
use crate::rulesets::mediterraneo_sanguinolento::army::{
    Army, Culture, LeaderKind, MAX_GROUPS, TACTICS,
};
use crate::rulesets::mediterraneo_sanguinolento::data::data;

#[derive(Clone, Debug)]
pub struct Slot {
    pub group: usize,
    pub code: String,
    pub men_per_unit: f64,
    /// Combat factor of one unit in this battle (terrain, elite, fortification, weather, supply, fatigue).
    pub factor: f64,
    /// Pilum or falcata in the first segment (A46).
    pub first_mult: f64,
    pub archer: bool,
    pub mounted: bool,
    /// Cavalry proper (CAB: CL CA CM CP CC), for the formation-break modifier.
    pub cavalry: bool,
    /// 1 = CM, 2 = CP or CC (charges, L5114).
    pub charger: u8,
    pub chariot: bool,
    pub elephant: bool,
    pub light_foot: bool,
    pub pursuit: f64,
    pub guard: bool,
    pub elite: bool,
    pub detached: bool,
    pub formation_type: bool,
    pub met: f64,
    pub animals: f64,
}

#[derive(Clone, Debug)]
pub struct SideSetup {
    pub slots: Vec<Slot>,
    pub order: Vec<usize>,
    /// Morale = (base - loss x weight) / (100 x weight), exactly.
    pub base: i64,
    pub weight: i64,
    pub lead: i32,
    pub veteran: i32,
    pub fatigued: bool,
    pub has_formation: bool,
    pub formation_code: String,
    pub break_need: i32,
    /// 0, 2 or 4: how thin the formation's unit type is (L5345).
    pub thin: i32,
    pub irregular: bool,
    pub leader: LeaderKind,
    pub surprise: bool,
    pub archers_fire: bool,
    pub chariots_segment: u32,
    pub guard_segment: u32,
    pub guard_bonus: u32,
    pub retreat_below: Option<i64>,
    pub retreat_after: Option<f64>,
    pub pursue: bool,
    pub initial_men: u32,
    /// Factors that fight but never take casualties (warfleets supporting a landing, L4466).
    pub support: f64,
    pub flank_strategic: i32,
    pub detachment: bool,
    pub tactic: usize,
    /// Units in every slot at the start.
    pub units0: [f64; SLOTS],
    /// Casualties are counted in steps of this many combat factors (1/resolution of the army's
    /// factors), so that equal battle states meet and merge in the exact solver.
    pub delta: f64,
    /// Fights inside fortifications: the enemy's cavalry superiority does not count (L3542).
    pub fortified: bool,
}

/// What the side fights with: terrain column, weather and its place.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub column: usize,
    pub winter: bool,
    pub storm: bool,
    pub winter_and_storm_both: bool,
    pub fort_level: u32,
    pub first_segment_bonus: bool,
    pub resolution: u32,
}

const MOUNTED: [&str; 8] = ["CL", "CA", "CM", "CP", "CC", "CML", "CMA", "CMM"];

impl SideSetup {
    pub fn new(army: &Army, enemy: &Army, tactic: usize, setting: &Setting) -> SideSetup {
        let d = data();
        let mut mult = 1.0;
        let halvings = setting.winter as u32 + setting.storm as u32;
        if halvings > 0 {
            mult *= if setting.winter_and_storm_both {
                0.5f64.powi(halvings as i32)
            } else {
                0.5
            };
        }
        mult *= 1.0 - 0.5 * army.unsupplied;
        if army.fatigue > 0 {
            mult *= 0.75;
        }
        mult *= setting.fort_level.max(1) as f64;
        let total_men: f64 = army.groups.iter().map(|g| g.men() as f64).sum();
        // The formation's unit type: the type with most men (L5345, L5349).
        let mut by_type: Vec<(String, f64)> = Vec::new();
        for g in &army.groups {
            match by_type.iter_mut().find(|(c, _)| *c == g.code) {
                Some(e) => e.1 += g.men() as f64,
                None => by_type.push((g.code.clone(), g.men() as f64)),
            }
        }
        let (form_code, form_men) =
            by_type
                .iter()
                .cloned()
                .fold((String::new(), -1.0), |a, b| if b.1 > a.1 { b } else { a });
        let share = form_men / total_men.max(1.0);
        let thin = if share >= 0.75 {
            0
        } else if share > 0.5 {
            2
        } else {
            4
        };
        let regular_men: f64 = army
            .groups
            .iter()
            .filter(|g| g.regular)
            .map(|g| g.men() as f64)
            .sum();
        let break_need = d.formation_break(&form_code, setting.column);
        let has_formation = army.culture != Culture::Barbarian
            && regular_men >= 0.75 * total_men
            && army.fatigue == 0
            && break_need.is_some();
        let detach = TACTICS[tactic] == "FL" && army.flank_fraction > 0.0;
        let mut slots = Vec::new();
        let mut order = Vec::new();
        for (gi, g) in army.groups.iter().enumerate() {
            let u = d.unit(&g.code).expect("validated unit");
            let first = if setting.first_segment_bonus {
                let pilum: f64 = if g.code == "IML" && (army.roman || army.italic) {
                    1.15
                } else {
                    1.0
                };
                let falcata: f64 = if army.hispanic { 1.1 } else { 1.0 };
                pilum.max(falcata)
            } else {
                1.0
            };
            let code = g.code.as_str();
            slots.push(Slot {
                group: gi,
                code: g.code.clone(),
                men_per_unit: u.men as f64,
                factor: d.factor(code, setting.column).unwrap_or(0.0) * g.elite() * mult,
                first_mult: first,
                archer: matches!(code, "IA" | "CA" | "CMA"),
                mounted: MOUNTED.contains(&code),
                cavalry: matches!(code, "CL" | "CA" | "CM" | "CP" | "CC"),
                charger: match code {
                    "CM" => 1,
                    "CP" | "CC" => 2,
                    _ => 0,
                },
                chariot: matches!(code, "CRL" | "CRP"),
                elephant: code == "E",
                light_foot: matches!(code, "IL" | "IA"),
                pursuit: match code {
                    "IL" => 0.5,
                    c if MOUNTED.contains(&c) || c == "CRL" => 1.0,
                    _ => 0.0,
                },
                guard: g.guard,
                elite: g.morale <= 1,
                detached: false,
                formation_type: g.code == form_code,
                met: u.cost.get("met").copied().unwrap_or(0) as f64,
                animals: u.animals as f64,
            });
            order.push(gi);
            if detach {
                order.push(MAX_GROUPS + gi);
            }
        }
        if detach {
            // Detachment slots live at MAX_GROUPS + group index; unused indices stay empty.
            let n = slots.len();
            for i in n..MAX_GROUPS {
                let mut filler = slots[0].clone();
                filler.group = i;
                filler.factor = 0.0;
                slots.push(filler);
            }
            for i in 0..MAX_GROUPS {
                let mut t = slots[i].clone();
                t.detached = true;
                slots.push(t);
            }
        }
        let all = slots;
        let weight: i64 = army
            .groups
            .iter()
            .map(|g| (g.units * 100.0).round() as i64)
            .sum::<i64>()
            .max(1);
        let avg_num: i64 = army
            .groups
            .iter()
            .map(|g| (g.units * 100.0).round() as i64 * g.morale_value() as i64)
            .sum();
        let extra = 100 * setting.fort_level as i64 + if army.king { 50 } else { 0 }
            - 10 * army.fatigue as i64;
        let vet_men: f64 = army
            .groups
            .iter()
            .filter(|g| g.veteran)
            .map(|g| g.men() as f64)
            .sum();
        let irregular_men = total_men - regular_men;
        let mut side = SideSetup {
            slots: all,
            order,
            base: 100 * avg_num + extra * weight,
            weight,
            lead: d
                .leadership(army.tactical as usize, enemy.tactical as usize)
                .unwrap_or(0),
            veteran: (vet_men >= 0.75 * total_men) as i32,
            fatigued: army.fatigue > 0,
            has_formation,
            formation_code: form_code,
            break_need: break_need.map_or(99, |n| n as i32),
            thin,
            irregular: irregular_men >= 0.75 * total_men,
            leader: army.leader_kind,
            surprise: army.surprise,
            archers_fire: army.archers_fire,
            chariots_segment: army.chariots_segment,
            guard_segment: army.guard_segment,
            guard_bonus: army.guard_bonus,
            retreat_below: army.retreat_below_morale,
            retreat_after: army.retreat_after_losses,
            pursue: army.pursue,
            initial_men: army.total_men(),
            support: 0.0,
            flank_strategic: army.flank_strategic,
            detachment: detach,
            tactic,
            units0: [0.0; SLOTS],
            delta: 1.0,
            fortified: setting.fort_level > 0,
        };
        let men = side.start_men(army);
        let mut total = 0.0;
        for (i, s) in side.slots.iter().enumerate() {
            side.units0[i] = men[i] / s.men_per_unit;
            total += side.units0[i] * s.factor;
        }
        side.delta = (total / setting.resolution as f64).max(1e-6);
        side
    }

    /// Takes up to `amount` factors from `units` of the slots passing `filter`, down the casualty
    /// order; returns what could not be taken.
    pub(super) fn remove(
        &self,
        units: &mut [f64; SLOTS],
        amount: f64,
        filter: impl Fn(&Slot) -> bool,
    ) -> f64 {
        let mut r = amount;
        for &i in &self.order {
            if r <= 1e-12 {
                break;
            }
            let s = &self.slots[i];
            if !filter(s) || units[i] <= 0.0 || s.factor <= 0.0 {
                continue;
            }
            let avail = units[i] * s.factor;
            if avail <= r + 1e-12 {
                units[i] = 0.0;
                r -= avail;
            } else {
                units[i] -= r / s.factor;
                r = 0.0;
            }
        }
        r.max(0.0)
    }

    /// The men each slot starts with.
    pub fn start_men(&self, army: &Army) -> [f64; SLOTS] {
        let mut men = [0f64; SLOTS];
        for (gi, g) in army.groups.iter().enumerate() {
            let total = g.men();
            let away = if self.detachment {
                (total as f64 * army.flank_fraction).round() as u32
            } else {
                0
            };
            men[gi] = (total - away) as f64;
            if self.detachment {
                men[MAX_GROUPS + gi] = away as f64;
            }
        }
        men
    }

    pub fn morale_hundredths(&self, loss: i32) -> f64 {
        (self.base - loss as i64 * self.weight) as f64 / self.weight as f64
    }

    pub(super) fn broken(&self, loss: i32) -> bool {
        self.base - loss as i64 * self.weight <= 0
    }

    pub(super) fn block(&self, loss: i32) -> usize {
        let m = (self.base - loss as i64 * self.weight).div_euclid(100 * self.weight);
        m.clamp(1, 5) as usize
    }
}

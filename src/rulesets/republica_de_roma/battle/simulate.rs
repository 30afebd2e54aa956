//! One battle with dice, and a trial of the battle model.

use super::*;

impl RomanBattle {
    /// One battle with dice, by an army of the given size; `drm` is drawn when not given.
    pub(crate) fn simulate_once(
        &self,
        dice: &mut Dice,
        regular: u32,
        veteran: u32,
        fleets: u32,
        drm: Option<i32>,
    ) -> Sim {
        self.simulate_used(dice, regular, veteran, fleets, drm, 0)
    }

    /// As [`Self::simulate_once`], with the Disaster and Standoff numbers in `used` already spent.
    pub(crate) fn simulate_used(
        &self,
        dice: &mut Dice,
        regular: u32,
        veteran: u32,
        fleets: u32,
        drm: Option<i32>,
        used: u32,
    ) -> Sim {
        let roll = (dice.d(6) + dice.d(6) + dice.d(6)) as usize;
        // The modifier of the army actually fighting (survivors differ from the starting army).
        let troops = match self.kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        let drm = drm.unwrap_or_else(|| self.drm_for_troops(troops, dice));
        let (result, lost_l, lost_f) =
            self.resolve_army(roll, drm, regular + veteran, fleets, used);
        let spends = if matches!(result, DISASTER | STANDOFF) {
            1 << roll
        } else {
            0
        };
        let [lost_regular, lost_veteran] =
            draw_without_replacement(dice, [regular, veteran], lost_l);
        let (killed, captured) = if result == DEFEAT {
            (true, false)
        } else {
            self.cup.draw(lost_l + lost_f, result == VICTORY, dice)
        };
        let won = result == VICTORY;
        let gained = won && (!self.gain_requires_survival || !(killed || captured));
        Sim {
            spends,
            result,
            lost_regular,
            lost_veteran,
            lost_fleets: lost_f,
            killed,
            captured,
            unrest: unrest(result),
            popularity: self.popularity_loss(lost_regular, lost_veteran)
                + if gained { self.gain as f64 } else { 0.0 },
            influence: if gained { self.gain as f64 } else { 0.0 },
            spoils: if won { self.spoils as f64 } else { 0.0 },
            veteran_gained: self.veteran_from_battle
                && matches!(result, VICTORY | STALEMATE | STANDOFF)
                && lost_regular < regular,
            war_defeated: won && self.kind == Kind::Land,
        }
    }
}

impl Simulate for RomanBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let b = self.simulate_once(dice, self.regular, self.veteran, self.fleets, None);
        out.outcome = b.result;
        self.columns.record(&b, out);
        if let (Some(r), Some(k)) = (self.ransom, self.ransom_column) {
            out.scalars[k] = b.captured as u32 as f64 * r;
        }
    }
}

/// One simulated battle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sim {
    pub spends: u32,
    pub result: usize,
    pub lost_regular: u32,
    pub lost_veteran: u32,
    pub lost_fleets: u32,
    pub killed: bool,
    pub captured: bool,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
    pub veteran_gained: bool,
    pub war_defeated: bool,
}

impl Sim {
    /// Adds a later battle by the same army to this one.
    pub(crate) fn absorb(&mut self, later: &Sim) {
        self.spends |= later.spends;
        self.result = later.result;
        self.lost_regular += later.lost_regular;
        self.lost_veteran += later.lost_veteran;
        self.lost_fleets += later.lost_fleets;
        self.killed |= later.killed;
        self.captured |= later.captured;
        self.unrest += later.unrest;
        self.popularity += later.popularity;
        self.influence += later.influence;
        self.spoils += later.spoils;
        self.veteran_gained |= later.veteran_gained;
        self.war_defeated |= later.war_defeated;
    }
}

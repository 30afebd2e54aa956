//! Every way a battle can go, exactly: one branch per roll, MIL value and veterans lost.

use super::*;

impl RomanBattle {
    /// Every way the battle can go, exactly: one branch per (roll, MIL value, veterans among the
    /// legions lost), with the commander's fate and the other effects as probabilities/expectations.
    pub(crate) fn solve_branches(&self) -> Vec<Branch> {
        self.solve_branches_used(0)
    }

    /// As [`Self::solve_branches`], with the numbers in `used` already spent this turn.
    pub(crate) fn solve_branches_used(&self, used: u32) -> Vec<Branch> {
        let mut out = Vec::new();
        for roll in 3..=18usize {
            for &(drm, p_drm) in &self.drms {
                let w = p_drm * WEIGHTS_3D6[roll - 3] as f64 / 216.0;
                let (result, lost_l, lost_f) =
                    self.resolve_army(roll, drm, self.regular + self.veteran, self.fleets, used);
                let spends = if matches!(result, DISASTER | STANDOFF) {
                    1 << roll
                } else {
                    0
                };
                let (killed, captured) = if result == DEFEAT {
                    (1.0, 0.0)
                } else {
                    let f = self.cup.fate(lost_l + lost_f, result == VICTORY);
                    (f.killed, f.captured)
                };
                let survives = if self.gain_requires_survival {
                    1.0 - killed - captured
                } else {
                    1.0
                };
                let vets = Pmf::hypergeometric(
                    self.legions() as usize,
                    self.veteran as usize,
                    lost_l as usize,
                );
                for (j, &pj) in vets.0.iter().enumerate() {
                    if pj == 0.0 {
                        continue;
                    }
                    let (lost_regular, lost_veteran) = (lost_l - j as u32, j as u32);
                    let won = result == VICTORY;
                    out.push(Branch {
                        spends,
                        weight: w * pj,
                        result,
                        lost_regular,
                        lost_veteran,
                        lost_fleets: lost_f,
                        killed,
                        captured,
                        unrest: unrest(result),
                        popularity: self.popularity_loss(lost_regular, lost_veteran)
                            + if won {
                                survives * self.gain as f64
                            } else {
                                0.0
                            },
                        influence: if won {
                            survives * self.gain as f64
                        } else {
                            0.0
                        },
                        spoils: if won { self.spoils as f64 } else { 0.0 },
                        veteran_gained: self.gains_veteran(result, lost_regular) as u32 as f64,
                        war_defeated: (won && self.kind == Kind::Land) as u32 as f64,
                    });
                }
            }
        }
        out
    }

    fn gains_veteran(&self, result: usize, lost_regular: u32) -> bool {
        self.veteran_from_battle
            && matches!(result, VICTORY | STALEMATE | STANDOFF)
            && lost_regular < self.regular
    }

    pub(crate) fn solve(&self) -> Exact {
        let mut ex = Exact::zeros(&self.schema);
        if ex.counts.is_empty() {
            // A battle re-derived for survivors has no schema of its own: solve over the standard
            // one, laid out as `self.columns` (the scalars' bounds do not shape an exact answer).
            let mut schema = Schema::new(&OUTCOMES);
            let caps = Caps {
                legions: self.legions(),
                veterans: self.veteran,
                fleets: self.fleets,
                unrest: 1.0,
                popularity: 1.0,
                influence: 1.0,
                spoils: 1.0,
            };
            Columns::add(&mut schema, caps);
            ex = Exact::zeros(&schema);
        }
        let c = &self.columns;
        for b in self.solve_branches() {
            let w = b.weight;
            ex.outcomes[b.result] += w;
            ex.counts[c.legions_lost].add_mass((b.lost_regular + b.lost_veteran) as usize, w);
            ex.counts[c.veterans_lost].add_mass(b.lost_veteran as usize, w);
            ex.counts[c.fleets_lost].add_mass(b.lost_fleets as usize, w);
            ex.scalars[c.killed] += w * b.killed;
            ex.scalars[c.captured] += w * b.captured;
            ex.scalars[c.unrest] += w * b.unrest;
            ex.scalars[c.popularity] += w * b.popularity;
            ex.scalars[c.influence] += w * b.influence;
            ex.scalars[c.spoils] += w * b.spoils;
            ex.scalars[c.veteran_gained] += w * b.veteran_gained;
            ex.scalars[c.war_defeated] += w * b.war_defeated;
        }
        if let (Some(r), Some(k)) = (self.ransom, self.ransom_column) {
            ex.scalars[k] = ex.scalars[c.captured] * r;
        }
        ex
    }
}

/// One exact branch of a battle.
pub(crate) struct Branch {
    /// The Disaster or Standoff number this branch spends (bit = roll), or 0.
    pub spends: u32,
    pub weight: f64,
    pub result: usize,
    pub lost_regular: u32,
    pub lost_veteran: u32,
    pub lost_fleets: u32,
    pub killed: f64,
    pub captured: f64,
    pub unrest: f64,
    pub popularity: f64,
    pub influence: f64,
    pub spoils: f64,
    pub veteran_gained: f64,
    pub war_defeated: f64,
}

//! The chain's steps: straits, the naval and land battles with their casualties and card texts,
//! and the assault's totals, each as branches with their probabilities (exact) or rolled (simulation).

use super::*;

impl Expedition {
    pub(super) fn total(&self, s: State, c: Combat, cards: &[usize], extra: u32) -> Total {
        let mut t = Total {
            fixed: 0,
            dice: 1 + extra + if s.leaders { self.em.leader_dice } else { 0 },
        };
        for &i in cards {
            match self.em.cards[i].value(c) {
                Cv::Dash => {}
                Cv::Fixed(n) => t.fixed += n as i32,
                Cv::Dice(k) => t.dice += k,
            }
        }
        // The resolution hook: the fighting cards' dice and bonuses (L1184-L1186).
        if let Some(texts) = &self.texts {
            for &i in cards {
                t.dice += texts.em[i].dice;
                t.fixed += texts.em[i].bonus;
            }
        }
        t
    }

    /// The outcomes of one strait from `s`: (probability, next state or a wreck).
    pub(super) fn strait_branches(&self, s: State) -> Vec<(f64, Option<State>)> {
        let o = strait_outcomes(self.weather, self.wreck_ones);
        let mut out = vec![(o[0], Some(s)), (o[3], None)];
        // One card lost, uniformly among the expedition's troop and fleet cards; two: in turn.
        for (k, p) in [(1, o[1]), (2, o[2])] {
            if p == 0.0 {
                continue;
            }
            let mut states = vec![(p, s)];
            for _ in 0..k {
                let mut next = Vec::new();
                for (q, st) in states {
                    let alive: Vec<usize> = self.alive(st).collect();
                    if alive.is_empty() {
                        next.push((q, st));
                    }
                    for &i in &alive {
                        let mut n = st;
                        n.alive &= !(1 << i);
                        next.push((q / alive.len() as f64, self.fit_cargo(n)));
                    }
                }
                states = next;
            }
            out.extend(states.into_iter().map(|(q, st)| (q, Some(st))));
        }
        out
    }

    /// What a battle against an interceptor turns on, from state `s`.
    pub(super) fn battle_setup(&self, s: State, d: &Force, naval: bool) -> BattleSetup {
        let c = if naval { Combat::Naval } else { Combat::Field };
        let fighting: Vec<usize> = if naval {
            self.alive(s).collect()
        } else {
            self.troops(s)
                .into_iter()
                .filter(|&i| self.em.cards[i].field.usable())
                .collect()
        };
        let all = self.alive(s).count() as u32 + if s.leaders { self.em.leaders } else { 0 };
        let has_own = if naval {
            !self.fleets(s).is_empty()
        } else {
            !fighting.is_empty()
        };
        let d_has = match d {
            Force::Cards(cf) => {
                if naval {
                    !cf.fleets.is_empty()
                } else {
                    !d.fighting(c, false).is_empty()
                }
            }
            Force::NonPlayer { fixed, dice } => *fixed > 0 || *dice > 0,
            Force::Barbarian { dice } => *dice > 0,
        };
        let count = if !d_has {
            0
        } else {
            match d {
                Force::Cards(_) => d.fighting(c, false).len() as u32,
                Force::NonPlayer { fixed, dice } => dice + (*fixed as u32).div_ceil(6),
                Force::Barbarian { dice } => {
                    if self.barbarian_dice_count {
                        *dice
                    } else {
                        0
                    }
                }
            }
        };
        // The cards the casualty roll can take: a fleet with its cargo, or one troop.
        let candidates: Vec<Vec<usize>> = if naval {
            let mut v: Vec<Vec<usize>> = self
                .cargo(s)
                .iter()
                .map(|(f, load)| std::iter::once(*f).chain(load.iter().copied()).collect())
                .collect();
            v.extend(self.troops(s).into_iter().map(|t| vec![t]));
            v
        } else {
            fighting.iter().map(|&t| vec![t]).collect()
        };
        BattleSetup {
            ta: self.total(s, c, &fighting, 0),
            td: d.total(c, true, false),
            all,
            has_own,
            d_has,
            count,
            candidates,
        }
    }

    /// The state after the casualty roll took `lost`, None if the expedition cannot go on; and
    /// the cards discarded (the leaders go with the last fleet, A-49).
    pub(super) fn after_loss(&self, s: State, lost: &[usize], naval: bool) -> (Option<State>, u32) {
        let mut next = s;
        for &i in lost {
            next.alive &= !(1 << i);
        }
        let mut gone = lost.len() as u32;
        if naval && self.fleets(next).is_empty() && next.leaders {
            next.leaders = false;
            gone += self.em.leaders;
        }
        let ends = next.alive == 0
            || (self.em_ends_without_troops && self.troops(next).is_empty())
            || (naval && self.fleets(next).is_empty());
        ((!ends).then_some(next), gone)
    }

    /// A battle against an interceptor: (probability, whether the attacker won, the state it goes
    /// on with (None: the expedition is over), the attacker's cards discarded in it, the cards
    /// its recovery rolls bring back in expectation).
    pub(super) fn battle_branches(
        &self,
        s: State,
        d: &Force,
        naval: bool,
    ) -> Vec<(f64, bool, Option<State>, u32, f64)> {
        let b = self.battle_setup(s, d, naval);
        let all_leaders = if s.leaders { self.em.leaders } else { 0 };
        let all_back = self.recovery_mass(s.alive, all_leaders);
        if !b.has_own {
            return vec![(1.0, false, None, b.all, all_back)];
        }
        let n = b.candidates.len() as f64;
        // P(lose), P(win, no casualty), P(win, a casualty): over the defender's variants
        // when the start-of-battle hook may take some of its troops.
        let (lose, keep, hit) = match (naval, self.texts.is_some()) {
            (false, true) => {
                let fighting: Vec<usize> = self
                    .troops(s)
                    .into_iter()
                    .filter(|&i| self.em.cards[i].field.usable())
                    .collect();
                match self.defender_variants(d, &fighting) {
                    Some(variants) => {
                        let (mut lose, mut keep, mut hit) = (0.0, 0.0, 0.0);
                        for (w, td, count, d_has) in variants {
                            let pw = if d_has { attacker_wins(b.ta, td) } else { 1.0 };
                            let chance = if b.candidates.is_empty() {
                                0.0
                            } else {
                                count.min(6) as f64 / 6.0
                            };
                            lose += w * (1.0 - pw);
                            keep += w * pw * (1.0 - chance);
                            hit += w * pw * chance;
                        }
                        (lose, keep, hit)
                    }
                    None => self.plain_branches(&b),
                }
            }
            _ => self.plain_branches(&b),
        };
        let mut out = vec![
            (lose, false, None, b.all, all_back),
            (keep, true, Some(s), 0, 0.0),
        ];
        for lost in &b.candidates {
            let (next, gone) = self.after_loss(s, lost, naval);
            let back = if self.texts.is_none() {
                gone as f64 / 6.0
            } else {
                let mask = lost.iter().fold(0u32, |m, &i| m | 1 << i);
                self.recovery_mass(mask, gone - lost.len() as u32)
            };
            out.push((hit / n, true, next, gone, back));
        }
        out
    }

    /// The three chances of a battle as printed: P(lose), P(win, no casualty), P(win, a
    /// casualty) (the last times 1/n for each of the n candidates).
    pub(super) fn plain_branches(&self, b: &BattleSetup) -> (f64, f64, f64) {
        let pw = if b.d_has {
            attacker_wins(b.ta, b.td)
        } else {
            1.0
        };
        let chance = if b.candidates.is_empty() {
            0.0
        } else {
            b.count.min(6) as f64 / 6.0
        };
        (1.0 - pw, pw * (1.0 - chance), pw * chance)
    }

    /// The same battle with dice: (attacker won, the state it goes on with, the attacker's cards
    /// lost in it as bits, whether its leaders were lost).
    pub(super) fn battle_roll(
        &self,
        s: State,
        d: &Force,
        naval: bool,
        dice: &mut Dice,
    ) -> (bool, Option<State>, u32, bool) {
        let mut b = self.battle_setup(s, d, naval);
        if !b.has_own {
            return (false, None, s.alive, s.leaders);
        }
        if !naval && self.texts.is_some() {
            // The start-of-battle hook: the kills take uniformly random defending troops
            // (every way equally likely, one draw among them).
            let fighting: Vec<usize> = self
                .troops(s)
                .into_iter()
                .filter(|&i| self.em.cards[i].field.usable())
                .collect();
            if let Some(v) = self.defender_variants(d, &fighting) {
                let pick = if v.len() > 1 {
                    dice.below(v.len() as u64) as usize
                } else {
                    0
                };
                (_, b.td, b.count, b.d_has) = v[pick];
            }
        }
        if b.d_has && b.ta.roll(dice) <= b.td.roll(dice) {
            return (false, None, s.alive, s.leaders);
        }
        if b.candidates.is_empty() || dice.d(6) > b.count {
            return (true, Some(s), 0, false);
        }
        let lost = &b.candidates[dice.below(b.candidates.len() as u64) as usize];
        let (next, _) = self.after_loss(s, lost, naval);
        let mask = lost.iter().fold(0u32, |m, &i| m | 1 << i);
        let leaders_gone = s.leaders && naval && self.fleets(remove(s, mask)).is_empty();
        (true, next, mask, leaders_gone)
    }

    /// The totals of the final assault or pacification, None when nothing can take part.
    pub(super) fn target_totals(&self, s: State) -> Option<(Total, Total)> {
        let cards = self.target_cards(s);
        if cards.is_empty() {
            return None;
        }
        Some(match self.target {
            Target::City { dice, modifier, .. } => {
                // The resolution hook: fortification levels the fighting cards ignore.
                let ignored: u32 = self
                    .texts
                    .as_ref()
                    .map_or(0, |t| cards.iter().map(|&i| t.em[i].ignore).sum());
                let dice = if ignored > 0 {
                    dice.saturating_sub(ignored).max(1)
                } else {
                    dice
                };
                (
                    self.total(s, Combat::Assault, &cards, self.assault_extra_dice),
                    Total {
                        fixed: modifier,
                        dice,
                    },
                )
            }
            Target::Barbarian { dice } => (
                self.total(s, Combat::Field, &cards, 0),
                Total { fixed: 0, dice },
            ),
        })
    }

    /// P(the final assault or pacification succeeds) from `s`.
    pub(super) fn target_chance(&self, s: State) -> f64 {
        self.target_totals(s)
            .map_or(0.0, |(a, d)| attacker_wins(a, d))
    }

    /// By sea, the fleets' assault factors reach the city's size (L685-L688, A-22) and the
    /// attacker chose to assault straight from the ships.
    pub(super) fn arrives_directly(&self, s: State) -> bool {
        let Target::City { size, .. } = self.target else {
            return false;
        };
        if !self.naval || !self.direct || self.march {
            return false;
        }
        let sum: f64 = self
            .fleets(s)
            .iter()
            .map(|&i| match self.em.cards[i].assault {
                Cv::Dash => 0.0,
                Cv::Fixed(n) => n as f64,
                Cv::Dice(k) => match self.dice_reading {
                    "mean" => 3.5 * k as f64,
                    "max" => 6.0 * k as f64,
                    _ => k as f64,
                },
            })
            .sum();
        sum >= size as f64
    }

    /// VP of a conquest or pacification for (attacker, defender).
    pub(super) fn target_vp(&self) -> [f64; 2] {
        match self.target {
            Target::City {
                size, player_owner, ..
            } => [size as f64, if player_owner { -(size as f64) } else { 0.0 }],
            Target::Barbarian { .. } => [0.0, 0.0],
        }
    }

    pub(super) fn interceptor_cards(d: &Force) -> u32 {
        d.card_count() as u32
    }
}

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
        let fighting = self.fighting(s, naval);
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
        // The battle's card window: the Special Event dice for each side, unless an earlier
        // battle spent them.
        let window = self.battle_window(s);
        let mut td = d.total(c, true, false);
        td.dice += window[1];
        BattleSetup {
            ta: self.total(s, c, &fighting, window[0]),
            td,
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

    /// The attacker's cards that fight in a battle from `s`: at sea all of them, in the field
    /// its Troop cards with a field value.
    pub(super) fn fighting(&self, s: State, naval: bool) -> Vec<usize> {
        if naval {
            self.alive(s).collect()
        } else {
            self.troops(s)
                .into_iter()
                .filter(|&i| self.em.cards[i].field.usable())
                .collect()
        }
    }

    /// The end-of-combat hook (A-61: in the recovery step) of a combat the attacker won: the
    /// VP its `fought` cards' texts give it.
    pub(super) fn win_vp_of(&self, fought: &[usize]) -> f64 {
        match &self.texts {
            None => 0.0,
            Some(t) => fought.iter().map(|&i| t.em[i].win_vp as f64).sum(),
        }
    }

    /// [`Self::win_vp_of`] of the cards of `mask`.
    pub(super) fn win_vp_mask(&self, mask: u32) -> f64 {
        match &self.texts {
            None => 0.0,
            Some(t) => {
                t.em.iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, c)| c.win_vp as f64)
                    .sum()
            }
        }
    }

    /// The start-of-battle hook on the attacker (A-61: start effects, simultaneous with its
    /// own): in a field battle the land interceptor's fighting troops' `kills` discard that
    /// many of the attacker's fighting troops, every set equally likely: (weight, the killed
    /// cards as bits). None: no texts, at sea, or no kill.
    pub(super) fn attacker_kill_variants(
        &self,
        s: State,
        d: &Force,
        naval: bool,
    ) -> Option<Vec<(f64, u32)>> {
        if naval {
            return None;
        }
        let t = self.texts.as_ref()?;
        let Force::Cards(cf) = d else {
            return None;
        };
        let kills: u32 = cf
            .troops
            .iter()
            .enumerate()
            .filter(|(_, c)| c.field.usable())
            .map(|(j, _)| t.land.get(j).map_or(0, |x| x.kills))
            .sum();
        let fighting = self.fighting(s, false);
        let m = fighting.len();
        let k = (kills as usize).min(m);
        if k == 0 {
            return None;
        }
        let sets: Vec<u32> = (0u32..1 << m)
            .filter(|x| x.count_ones() as usize == k)
            .collect();
        let w = 1.0 / sets.len() as f64;
        Some(
            sets.into_iter()
                .map(|pick| {
                    let killed = fighting
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| pick & (1 << j) != 0)
                        .fold(0u32, |mask, (_, &i)| mask | 1 << i);
                    (w, killed)
                })
                .collect(),
        )
    }

    /// A battle against an interceptor: its [`Branch`]es, the start-of-battle kills
    /// on the attacker first (their cards discarded and rolled for recovery), then the
    /// resolution and the casualty roll.
    pub(super) fn battle_branches(&self, s: State, d: &Force, naval: bool) -> Vec<Branch> {
        // The attacker's kills on the defender count its troops before the defender's kills
        // on it (start effects are simultaneous).
        let fighting = if self.texts.is_some() {
            self.fighting(s, naval)
        } else {
            Vec::new()
        };
        let Some(variants) = self.attacker_kill_variants(s, d, naval) else {
            return self.resolution_branches(s, d, naval, &fighting);
        };
        let mut out = Vec::new();
        for (w, killed) in variants {
            let killed_back = self.recovery_mass(killed, 0);
            for mut b in self.resolution_branches(remove(s, killed), d, naval, &fighting) {
                b.p *= w;
                b.gone += killed.count_ones();
                b.back += killed_back;
                out.push(b);
            }
        }
        out
    }

    /// The battle from its resolution, the attacker as `s` after the start of the battle
    /// (`started`: its fighting cards before the start-of-battle kills).
    fn resolution_branches(
        &self,
        s: State,
        d: &Force,
        naval: bool,
        started: &[usize],
    ) -> Vec<Branch> {
        let b = self.battle_setup(s, d, naval);
        let all_leaders = if s.leaders { self.em.leaders } else { 0 };
        let all_back = self.recovery_mass(s.alive, all_leaders);
        let lost = |p: f64| Branch {
            p,
            won: false,
            next: None,
            gone: b.all,
            back: all_back,
            win_vp: 0.0,
        };
        if !b.has_own {
            return vec![lost(1.0)];
        }
        let win_vp = if self.texts.is_some() {
            self.win_vp_of(&self.fighting(s, naval))
        } else {
            0.0
        };
        let n = b.candidates.len() as f64;
        // P(lose), P(win, no casualty), P(win, a casualty): over the defender's variants
        // when the start-of-battle hook may take some of its troops.
        let variants = if naval || self.texts.is_none() {
            None
        } else {
            self.defender_variants(d, started, self.battle_window(s)[1])
        };
        let (lose, keep, hit) = match variants {
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
        };
        let mut out = vec![
            lost(lose),
            Branch {
                p: keep,
                won: true,
                next: Some(s),
                gone: 0,
                back: 0.0,
                win_vp,
            },
        ];
        for lost in &b.candidates {
            let (next, gone) = self.after_loss(s, lost, naval);
            let back = if self.texts.is_none() {
                gone as f64 / 6.0
            } else {
                let mask = lost.iter().fold(0u32, |m, &i| m | 1 << i);
                self.recovery_mass(mask, gone - lost.len() as u32)
            };
            out.push(Branch {
                p: hit / n,
                won: true,
                next,
                gone,
                back,
                win_vp,
            });
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
    /// lost in it as bits, whether its leaders were lost, the cards that fought to the
    /// resolution as bits when it won: their end-of-combat texts fire, the cards the
    /// start-of-battle kills took as bits).
    pub(super) fn battle_roll(
        &self,
        s: State,
        d: &Force,
        naval: bool,
        dice: &mut Dice,
    ) -> (bool, Option<State>, u32, bool, u32, u32) {
        let started = if self.texts.is_some() {
            self.fighting(s, naval)
        } else {
            Vec::new()
        };
        // The start-of-battle hook on the attacker: the land interceptor's kills take
        // uniformly random fighting troops (every set equally likely, one draw among them).
        let killed = match self.attacker_kill_variants(s, d, naval) {
            Some(v) if v.len() > 1 => v[dice.below(v.len() as u64) as usize].1,
            Some(v) => v[0].1,
            None => 0,
        };
        let s = remove(s, killed);
        let mut b = self.battle_setup(s, d, naval);
        if !b.has_own {
            return (false, None, s.alive | killed, s.leaders, 0, killed);
        }
        if !naval && self.texts.is_some() {
            // The start-of-battle hook on the defender: the kills take uniformly random
            // defending troops (every way equally likely, one draw among them).
            if let Some(v) = self.defender_variants(d, &started, self.battle_window(s)[1]) {
                let pick = if v.len() > 1 {
                    dice.below(v.len() as u64) as usize
                } else {
                    0
                };
                (_, b.td, b.count, b.d_has) = v[pick];
            }
        }
        if b.d_has && b.ta.roll(dice) <= b.td.roll(dice) {
            return (false, None, s.alive | killed, s.leaders, 0, killed);
        }
        let fought = if self.texts.is_some() {
            self.fighting(s, naval)
                .iter()
                .fold(0u32, |m, &i| m | 1 << i)
        } else {
            0
        };
        if b.candidates.is_empty() || dice.d(6) > b.count {
            return (true, Some(s), killed, false, fought, killed);
        }
        let lost = &b.candidates[dice.below(b.candidates.len() as u64) as usize];
        let (next, _) = self.after_loss(s, lost, naval);
        let mask = lost.iter().fold(0u32, |m, &i| m | 1 << i);
        let leaders_gone = s.leaders && naval && self.fleets(remove(s, mask)).is_empty();
        (true, next, mask | killed, leaders_gone, fought, killed)
    }

    /// The totals of the final assault or pacification, None when nothing can take part.
    pub(super) fn target_totals(&self, s: State) -> Option<(Total, Total)> {
        let cards = self.target_cards(s);
        if cards.is_empty() {
            return None;
        }
        Some(match self.target {
            Target::City { dice, modifier, .. } => {
                let window = self.target_window(s);
                let dice = dice + window[1];
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
                    self.total(
                        s,
                        Combat::Assault,
                        &cards,
                        self.assault_extra_dice + window[0],
                    ),
                    Total {
                        fixed: modifier,
                        dice,
                    },
                )
            }
            // The pacification's card window (a field battle, §3.8): the attacker's Special
            // Event dice.
            Target::Barbarian { dice } => {
                let window = self.target_window(s);
                (
                    self.total(
                        s,
                        Combat::Field,
                        &cards,
                        self.assault_extra_dice + window[0],
                    ),
                    Total {
                        fixed: 0,
                        dice: dice + window[1],
                    },
                )
            }
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

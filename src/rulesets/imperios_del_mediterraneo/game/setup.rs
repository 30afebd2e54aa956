//! Set-up (digest §2.1): capitals, key cities, the round-robin empire building with the
//! players' placements, the neutral fill, the deal.

use super::policy::{self, Policy, Scripted, Style};
use super::state::NEUTRAL;
use super::turn::Play;
use crate::dice::Dice;

impl Play<'_> {
    /// Set-up (digest §2.1): capitals, key cities, the round-robin empire building, the neutral
    /// fill, the deal.
    pub fn setup(&mut self, dice: &mut Dice) {
        let s = self.s();
        for p in 0..self.n() {
            self.pol[p] = match self.game.policies[p] {
                Policy::Mixture => policy::defaults(policy::MIXED[dice.below(3) as usize]),
                // The searcher's own choices outside its decisions: its rollout policy's.
                Policy::Search(_, Some(g)) => Policy::Scripted(g),
                Policy::Search(_, None) => Policy::Random,
                own => own,
            };
        }
        self.st.reset(s, dice);
        let most = s
            .empires
            .iter()
            .map(|e| e.fortifications)
            .max()
            .unwrap_or(1);
        for round in 1..most {
            for k in 0..self.n() {
                let p = self.game.seats[k];
                if round < s.empires[p].fortifications {
                    let c = self.choose_placement(p, dice);
                    if self.st.owner[c] == NEUTRAL {
                        self.st.set_owner(c, p as u8);
                    }
                    self.st.markers[c] += 1;
                    self.st.players[p].reserve -= 1;
                }
            }
        }
        for c in 0..s.map.cities.len() {
            if self.st.owner[c] == NEUTRAL && self.st.markers[c] == 0 {
                self.st.markers[c] = 1;
                self.st.neutral_reserve -= 1;
            }
        }
        for p in 0..self.n() {
            self.st.players[p].start_cities = self.st.cities_of(p);
            let h = s.empires[p].hand_size as usize;
            self.st.draw(p, h);
        }
    }

    /// A set-up marker: a free, non-key city one road or strait from an own city, or a stack on
    /// an own city (always legal, A-55).
    pub(super) fn choose_placement(&mut self, p: usize, dice: &mut Dice) -> usize {
        let s = self.s();
        let mut best: Option<usize> = None;
        let mut legal = 0u32;
        let mut pick = usize::MAX;
        let random = self.pol[p] == Policy::Random;
        // P2 stacks its capital first (digest §6.3): its first `stack` set-up markers.
        if let Policy::Scripted(Scripted {
            style: Style::Turtle { stack, .. },
            ..
        }) = self.pol[p]
        {
            let capital = s.empires[p].capital;
            if (self.st.markers[capital] as u32) <= stack {
                return capital;
            }
        }
        for c in 0..s.map.cities.len() {
            let free =
                self.st.owner[c] == NEUTRAL && self.st.markers[c] == 0 && !s.map.cities[c].key;
            let next_to_own = s.map.adjacent[c].iter().any(|&(m, k)| {
                k != super::scenario::EdgeKind::BarbarianPath
                    && s.map.is_city(m)
                    && self.st.owner[m] as usize == p
            });
            let own = self.st.owner[c] as usize == p;
            if (free && next_to_own) || own {
                legal += 1;
                // Reservoir sampling for the random player.
                if random && dice.below(legal as u64) == 0 {
                    pick = c;
                }
                let size = |x: usize| s.map.cities[x].size;
                if free
                    && next_to_own
                    && best.is_none_or(|b| {
                        size(c) > size(b)
                            || (size(c) == size(b) && self.tie_key(p, c) < self.tie_key(p, b))
                    })
                {
                    best = Some(c);
                }
            }
        }
        if random {
            pick
        } else {
            best.unwrap_or(s.empires[p].capital)
        }
    }
}

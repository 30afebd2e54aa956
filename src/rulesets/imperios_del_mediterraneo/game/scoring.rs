//! The end of a turn (digest §2.3, §4.4): the scoring (doubled in the double-VP turn), the
//! hand targets, the reshuffle, discard and refill.

use super::military;
use super::policy::Policy;
use super::state::shuffle;
use super::turn::Play;
use crate::dice::Dice;

impl Play<'_> {
    pub fn end_of_turn(&mut self, turn: u8, last: bool, dice: &mut Dice) {
        let s = self.s();
        let n = self.n();
        let doubled = if self.game.rules.double_last_turn {
            last
        } else {
            turn == 3
        };
        let mul = if doubled { 2 } else { 1 };
        let mut cities = [0u8; 8];
        for p in 0..n {
            cities[p] = self.st.cities_of(p);
        }
        let most = cities[..n].iter().copied().max().unwrap_or(0);
        let at_most = cities[..n].iter().filter(|&&c| c == most).count();
        let mut progress = [0i32; 8];
        for p in 0..n {
            progress[p] = cities[p] as i32 - self.st.players[p].start_cities as i32;
        }
        let best_progress = progress[..n].iter().copied().max().unwrap_or(0);
        let at_best = progress[..n]
            .iter()
            .filter(|&&x| x == best_progress)
            .count();
        for p in 0..n {
            let (vp, cards) = score(
                self.st.key_cities_of(s, p) as i32,
                cities[p] == most && most > 0,
                at_most,
                !self.st.holds_capital(s, p),
                turn >= 2 && best_progress > 0 && progress[p] == best_progress,
                at_best,
                self.game.rules.progression_tie_card as i32,
            );
            self.st.add_vp(p, vp * mul);
            let target = s.empires[p].hand_size as i32 + cards;
            self.st.players[p].hand_target = target.max(0) as u8;
        }
        if last {
            return;
        }
        // Reshuffle (pile + discards), discard down, draw up.
        for p in 0..n {
            let pl = &mut self.st.players[p];
            let discards = std::mem::take(&mut pl.discard);
            pl.draw.extend_from_slice(&discards);
            pl.discard = discards;
            pl.discard.clear();
            shuffle(dice, &mut pl.draw);
            while pl.hand.len() > pl.hand_target as usize {
                // The weakest card (the lowest field value; the random player any).
                let i = match self.pol[p] {
                    Policy::Random | Policy::Mixture | Policy::Search(..) => {
                        dice.below(pl.hand.len() as u64) as usize
                    }
                    Policy::Scripted(_) => (0..pl.hand.len())
                        .min_by(|&a, &b| {
                            military::strength(s, p, pl.hand[a], false)
                                .total_cmp(&military::strength(s, p, pl.hand[b], false))
                        })
                        .expect("a card"),
                };
                let c = pl.hand.swap_remove(i);
                pl.discard.push(c);
            }
            let want = (pl.hand_target as usize).saturating_sub(pl.hand.len());
            self.st.draw(p, want);
        }
        self.st.enraged = 0;
        for p in 0..n {
            self.st.players[p].start_cities = self.st.cities_of(p);
        }
    }
}

/// One player's end-of-turn items before doubling (digest §4.4): (VP, hand extras). `most`:
/// it has the most cities (shared by `at_most` players); `best`: the best progression (shared
/// by `at_best`), only from turn 2.
pub fn score(
    keys: i32,
    most: bool,
    at_most: usize,
    capital_lost: bool,
    best: bool,
    at_best: usize,
    tie_card: i32,
) -> (i32, i32) {
    let mut vp = keys;
    let mut cards = keys;
    if most {
        if at_most == 1 {
            vp += 5;
            cards += 2;
        } else {
            vp += 3;
            cards += 1;
        }
    }
    if capital_lost {
        vp -= 3;
        cards -= 1;
    }
    if best {
        if at_best == 1 {
            vp += 3;
            cards += 1;
        } else {
            vp += 2;
            cards += tie_card;
        }
    }
    (vp, cards)
}

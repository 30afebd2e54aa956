//! Who a nation may attack, province by province (XII.D and the political layer's peace), and
//! the same for a whole Area from the holdings index (totals.rs), which the Military phase's
//! target scan (military.rs `choose`) reads so that it visits only the provinces it may attack.

use super::scenario::AreaKind;
use super::state::NONE;
use super::turn::Play;
use crate::rulesets::invasions::army::Status;

impl Play<'_> {
    /// Who `n` may attack in province `p`: a nation of another player still in the game; inside
    /// a Barbarian Area two Barbarians are neutral (XII.D). Unheld provinces are free to take.
    pub(super) fn attackable(&self, n: usize, p: usize) -> bool {
        let o = self.st.owner[p];
        if o == n as u8 {
            return false;
        }
        if o == NONE {
            return true;
        }
        let o = o as usize;
        self.enemy_owner(n, o) && !self.neutral_in(n, o, self.game.scenario.provinces[p].area)
    }

    /// Whether `n` may attack what `o` (another nation) holds, wherever it is: a nation of
    /// another player still in the game, at peace with it by no bond, truce or alliance.
    fn enemy_owner(&self, n: usize, o: usize) -> bool {
        let g = self.game;
        !(g.player_of(o) == g.player_of(n)
            || self.st.status(o).is_none()
            || super::politics::at_peace(&self.st, n, o))
    }

    /// Inside a Barbarian Area two Barbarians are neutral (XII.D).
    fn neutral_in(&self, n: usize, o: usize, a: u8) -> bool {
        self.game.scenario.areas[a as usize].kind == AreaKind::Barbarian
            && self.st.status(n) == Some(Status::Barbarian)
            && self.st.status(o) == Some(Status::Barbarian)
    }

    /// The provinces of Area `a` that `n` may attack ([`Self::attackable`]), as a bit set over
    /// the Area's province list, from the holdings index (totals.rs): the unheld provinces and
    /// those of each enemy holder. `enemies` caches [`Self::enemy_owner`] across one scan (bit o
    /// known, bit o an enemy).
    pub(super) fn attackable_in(&self, n: usize, a: usize, enemies: &mut (u64, u64)) -> u64 {
        let t = &self.st.totals;
        let areas = t.unheld.len();
        let mut mask = t.unheld[a];
        let mut holders = t.holders[a] & !(1u64 << n);
        while holders != 0 {
            let o = holders.trailing_zeros() as usize;
            holders &= holders - 1;
            let bit = 1u64 << o;
            if enemies.0 & bit == 0 {
                enemies.0 |= bit;
                if self.enemy_owner(n, o) {
                    enemies.1 |= bit;
                }
            }
            if enemies.1 & bit != 0 && !self.neutral_in(n, o, a as u8) {
                mask |= t.held[o * areas + a];
            }
        }
        // The index must give what the per-province test gives (debug builds and a test:
        // totals.rs).
        if super::totals::checking() {
            let tested = self.game.scenario.areas[a]
                .provinces
                .iter()
                .enumerate()
                .filter(|&(_, &p)| self.attackable(n, p as usize))
                .fold(0u64, |m, (j, _)| m | 1 << j);
            assert_eq!(
                mask, tested,
                "turn {}: nation {n}'s attackable provinces in Area {a}",
                self.st.turn
            );
            super::totals::counted(1);
        }
        mask
    }
}

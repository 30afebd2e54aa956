//! Alliances between nations (XXVI; digest §4.13) at the Area level of digest §6.3. An alliance
//! comes from the *Unio* card (diplomacy.rs) and lasts until both Military activations are over
//! (the end of the turn's Military phase). Allies are friendly: they neither attack nor raid each
//! other (`politics::at_peace`), and they activate together in the later of their two slots
//! (XXVI.B). An alliance lapses as soon as either partner is a federate, client or vassal
//! (XXVI.A): [`allied`] reads the bonds, so no step has to remember to break it.
//!
//! What the Area level leaves out: a province has one owner here, so no province is shared
//! (shared control, the equal split of its income and VP, and the separation of stacks when the
//! alliance ends do not arise); an ally's units do not join a partner's battles.

use super::politics::Bond;
use super::state::{State, NONE};
use super::turn::Play;

/// Most alliances a turn holds.
pub const MAX_ALLIANCES: usize = 16;

/// Whether `n` may enter an alliance (XXVI.A): a nation in play that is nobody's federate, client
/// or vassal.
pub fn may_ally(st: &State, n: usize) -> bool {
    st.status(n).is_some() && st.nations[n].bond == Bond::Free
}

/// Whether `a` and `b` are allies this turn.
pub fn allied(st: &State, a: usize, b: usize) -> bool {
    let (a8, b8) = (a as u8, b as u8);
    st.alliances[..st.alliance_count as usize]
        .iter()
        .any(|&(x, y)| (x, y) == (a8, b8) || (x, y) == (b8, a8))
        && may_ally(st, a)
        && may_ally(st, b)
}

impl Play<'_> {
    /// Makes `a` and `b` allies for the rest of the turn; false when either may not ally, they
    /// already are, or the turn's table is full.
    pub fn ally(&mut self, a: usize, b: usize) -> bool {
        let st = &mut self.st;
        if a == b
            || !may_ally(st, a)
            || !may_ally(st, b)
            || allied(st, a, b)
            || st.alliance_count as usize >= MAX_ALLIANCES
        {
            return false;
        }
        st.alliances[st.alliance_count as usize] = (a as u8, b as u8);
        st.alliance_count += 1;
        st.counters.alliances += 1;
        true
    }

    /// The turn's alliances end (both Military activations are over).
    pub fn end_alliances(&mut self) {
        self.st.alliances[..self.st.alliance_count as usize].fill((NONE, NONE));
        self.st.alliance_count = 0;
    }

    /// XXVI.B: allies activate together in the later of their two slots: the earlier partner
    /// moves to just before the later one, the nations between them moving up one slot each.
    pub fn join_allies(&mut self) {
        for i in 0..self.st.alliance_count as usize {
            let (a, b) = self.st.alliances[i];
            if !allied(&self.st, a as usize, b as usize) {
                continue;
            }
            let order = &mut self.st.order;
            let (Some(x), Some(y)) = (
                order.iter().position(|&n| n == a),
                order.iter().position(|&n| n == b),
            ) else {
                continue;
            };
            let (early, late) = (x.min(y), x.max(y));
            order[early..late].rotate_left(1);
        }
    }
}

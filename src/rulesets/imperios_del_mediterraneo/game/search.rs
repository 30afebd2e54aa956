//! Imperios del Mediterráneo's decisions for the engine's search player
//! ([`crate::game::search`]): at the first expedition of each of its action phases, which
//! expedition to declare, or to pass. The candidates are pass, its rollout policy's own choice,
//! and the best expedition (by the scripted player's value, whatever its chance) against each of
//! the [`super::turn::TOP_TARGETS`] most valuable targets. Each is tried by copying the state and
//! playing on: the candidate, then every player's own policy (the searcher's rollout policy, its
//! second expedition in Campaign season included) to the end of the game, worth its win share;
//! cut at a horizon, its VP over the leader's.
//!
//! The searcher sees the whole state (an omniscient player): its rollouts deal the other
//! players' hidden cards as they are, not as it could estimate them.

use super::military::Plan;
use super::policy::Policy;
use super::state::State;
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searchable;
use std::cell::RefCell;

/// What a rollout plays on from: the state and each player's policy in this game.
#[derive(Clone)]
pub struct Snapshot {
    pub st: State,
    pub pol: Vec<Policy>,
}

/// The game as the search player sees it: a worker of its own, without search, whose state is
/// swapped in for each rollout (its expedition cache kept warm).
pub struct Rollouts<'g> {
    play: RefCell<Play<'g>>,
}

impl<'g> Rollouts<'g> {
    pub fn new(game: &'g Game) -> Rollouts<'g> {
        Rollouts {
            play: RefCell::new(Play::without_search(game)),
        }
    }
}

impl<'g> Searchable for Rollouts<'g> {
    type State = Snapshot;
    type Action = Option<Plan>;

    fn candidates(&self, snap: &Snapshot, p: usize, out: &mut Vec<Option<Plan>>) {
        let mut play = self.play.borrow_mut();
        play.st.clone_from(&snap.st);
        play.pol.clone_from(&snap.pol);
        play.candidates(p, out);
    }

    fn rollout(
        &self,
        snap: &mut Snapshot,
        p: usize,
        action: Option<Plan>,
        horizon: u32,
        dice: &mut Dice,
    ) -> f64 {
        let mut play = self.play.borrow_mut();
        std::mem::swap(&mut play.st, &mut snap.st);
        play.pol.clone_from(&snap.pol);
        let value = play.rollout(p, action, horizon, dice);
        std::mem::swap(&mut play.st, &mut snap.st);
        value
    }
}

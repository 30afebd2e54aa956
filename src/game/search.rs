//! The search player, written once for every ruleset: flat Monte Carlo over the candidate actions
//! of one decision point, with successive halving and common random numbers.
//!
//! A ruleset exposes its strategic decisions by implementing [`Searchable`]: the candidate actions
//! of a player at a decision point, and a rollout that plays on from a copy of the state with one
//! candidate taken, every later decision by the players' own policies (the searcher's by its
//! `rollout` policy), to the end of the game or a horizon of turns. [`Searcher::choose`] spends
//! a budget of rollouts on the candidates: every candidate still in the running gets the same
//! number of rollouts, the worse half is dropped, and so on until one is left. Rollout `j` of
//! every candidate plays from the same seed (common random numbers), so candidates are compared
//! on the same luck and the comparison's noise is the candidates' difference, not the dice's.
//!
//! The searcher sees the whole state, the other players' policies included (an omniscient
//! player); a ruleset with hidden information says so where it implements [`Searchable`].

use crate::dice::{mix64, Dice};

/// `policy = "search"`'s parameters (the rollout policy is the ruleset's own type, kept beside).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSpec {
    /// Rollouts per decision, shared among the candidates.
    pub budget: u32,
    /// Turns a rollout plays before it is scored by the ruleset's heuristic; 0 = to the end.
    pub horizon: u32,
}

impl Default for SearchSpec {
    fn default() -> SearchSpec {
        SearchSpec {
            budget: 64,
            horizon: 0,
        }
    }
}

/// Mixed into a decision's seed for the order ties are broken in.
const TIE_SALT: u64 = 0x7469_6573;

/// What the search parameters may be, for the policy catalog and `alea list`.
pub const BUDGET_RANGE: (u32, u32) = (1, 100_000);
pub const HORIZON_RANGE: (u32, u32) = (0, 1_000);

/// A game whose decisions a search player can try out.
pub trait Searchable {
    /// Everything a rollout needs to play on: copied once per rollout.
    type State: Clone;
    type Action: Copy;

    /// The legal candidate actions of `player` at the decision point `state` is at, into `out`
    /// (already cleared). Fewer than two candidates means there is nothing to search.
    fn candidates(&self, state: &Self::State, player: usize, out: &mut Vec<Self::Action>);

    /// Takes `action` for `player` at the decision point of `state`, then plays on to the end of
    /// the game, or for `horizon` turns when it is not 0, and returns what the game was worth to
    /// `player`, in [0, 1] (its win share at the end; the ruleset's heuristic at a horizon).
    fn rollout(
        &self,
        state: &mut Self::State,
        player: usize,
        action: Self::Action,
        horizon: u32,
        dice: &mut Dice,
    ) -> f64;

    /// Whether the first candidate is the rollout policy's own move, to be kept unless another
    /// is clearly better: it is then never dropped by the halving, and the best other survivor
    /// replaces it only if their paired difference (the same seeds) is more than
    /// [`OVERRULE_SE`] standard errors above 0. With few rollouts per candidate the best of
    /// several noisy means is otherwise often a worse move than the policy's (the Invasions
    /// ladder at budget 16).
    fn keeps_first(&self) -> bool {
        false
    }
}

/// How many standard errors of the paired difference a candidate must beat the first one by
/// where [`Searchable::keeps_first`] holds.
pub const OVERRULE_SE: f64 = 2.0;

/// Reusable buffers of one search player: choosing allocates nothing once they have grown.
pub struct Searcher<G: Searchable> {
    candidates: Vec<G::Action>,
    alive: Vec<usize>,
    value: Vec<f64>,
    rollouts: Vec<u32>,
    /// Where the first candidate is kept: its value in each rollout `j` of the current round,
    /// and per candidate the sums of the differences from it and of their squares.
    first_values: Vec<f64>,
    diff: Vec<f64>,
    diff_sq: Vec<f64>,
    scratch: Option<G::State>,
}

impl<G: Searchable> Default for Searcher<G> {
    fn default() -> Self {
        Searcher {
            candidates: Vec::new(),
            alive: Vec::new(),
            value: Vec::new(),
            rollouts: Vec::new(),
            first_values: Vec::new(),
            diff: Vec::new(),
            diff_sq: Vec::new(),
            scratch: None,
        }
    }
}

/// How many rollouts each surviving candidate gets in each halving round: the budget split evenly
/// over the rounds, then over the candidates alive in the round, at least one each.
pub fn rollouts_per_round(budget: u32, candidates: usize) -> Vec<(usize, u32)> {
    let mut rounds = Vec::new();
    let mut alive = candidates;
    let steps = (usize::BITS - (candidates.max(1) - 1).leading_zeros()).max(1);
    let per_step = (budget / steps).max(1);
    while alive > 1 {
        rounds.push((alive, (per_step / alive as u32).max(1)));
        alive = alive.div_ceil(2);
    }
    rounds
}

impl<G: Searchable> Searcher<G> {
    /// The action `player` takes at `state`'s decision point, by successive halving over
    /// `spec.budget` rollouts; `None` when there is no candidate. The rollouts' seeds come from
    /// one draw of `dice`, so the game's own stream moves on by exactly one word per decision.
    pub fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        player: usize,
        spec: SearchSpec,
        dice: &mut Dice,
    ) -> Option<G::Action> {
        self.candidates.clear();
        game.candidates(state, player, &mut self.candidates);
        let k = self.candidates.len();
        if k <= 1 {
            return self.candidates.first().copied();
        }
        let base = dice.next_u64();
        self.alive.clear();
        self.alive.extend(0..k);
        // The candidates in a random order: rollouts that score 0 or 1 often tie, and a tie must
        // not always go to the first candidate the ruleset lists.
        let mut order = Dice::from_seed(mix64(base ^ TIE_SALT));
        for i in (1..k).rev() {
            self.alive.swap(i, order.below(i as u64 + 1) as usize);
        }
        self.value.clear();
        self.value.resize(k, 0.0);
        self.rollouts.clear();
        self.rollouts.resize(k, 0);
        let keep_first = game.keeps_first();
        if keep_first {
            // The first candidate is played first in every round: the others pair with it.
            let at = self
                .alive
                .iter()
                .position(|&c| c == 0)
                .expect("candidate 0");
            self.alive[..=at].rotate_right(1);
            self.diff.clear();
            self.diff.resize(k, 0.0);
            self.diff_sq.clear();
            self.diff_sq.resize(k, 0.0);
        }
        let mut done = 0u32;
        for (_, per) in rollouts_per_round(spec.budget, k) {
            self.first_values.clear();
            for &c in &self.alive {
                for j in done..done + per {
                    let scratch = match &mut self.scratch {
                        Some(s) => {
                            s.clone_from(state);
                            s
                        }
                        none => none.insert(state.clone()),
                    };
                    let mut roll = Dice::from_seed(mix64(base ^ j as u64));
                    let v =
                        game.rollout(scratch, player, self.candidates[c], spec.horizon, &mut roll);
                    self.value[c] += v;
                    self.rollouts[c] += 1;
                    if keep_first {
                        if c == 0 {
                            self.first_values.push(v);
                        } else {
                            let d = v - self.first_values[(j - done) as usize];
                            self.diff[c] += d;
                            self.diff_sq[c] += d * d;
                        }
                    }
                }
            }
            done += per;
            // Best mean first; a stable sort keeps tied candidates in their shuffled order.
            let (value, rollouts) = (&self.value, &self.rollouts);
            let mean = |c: usize| value[c] / rollouts[c] as f64;
            if keep_first {
                // The first stays first in the order it is played in, and is never dropped.
                self.alive[1..].sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
                let keep = self.alive.len().div_ceil(2).max(2);
                self.alive.truncate(keep);
            } else {
                self.alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
                self.alive.truncate(self.alive.len().div_ceil(2));
            }
        }
        if keep_first {
            return Some(self.candidates[self.overrule_or_first()]);
        }
        Some(self.candidates[self.alive[0]])
    }

    /// The best surviving challenger if its paired difference from the first candidate is
    /// clearly above 0, else the first candidate (index 0).
    fn overrule_or_first(&self) -> usize {
        let Some(&best) = self.alive.get(1) else {
            return 0;
        };
        let n = self.rollouts[best] as f64;
        if n < 2.0 {
            return 0;
        }
        let mean = self.diff[best] / n;
        let var = ((self.diff_sq[best] - n * mean * mean) / (n - 1.0)).max(0.0);
        if mean > OVERRULE_SE * (var / n).sqrt() {
            best
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arms with known chances of paying 1: the searcher must find the best one.
    struct Bandit(Vec<f64>);

    impl Searchable for Bandit {
        type State = ();
        type Action = usize;
        fn candidates(&self, _: &(), _: usize, out: &mut Vec<usize>) {
            out.extend(0..self.0.len());
        }
        fn rollout(&self, _: &mut (), _: usize, arm: usize, _: u32, dice: &mut Dice) -> f64 {
            dice.chance(self.0[arm]) as u8 as f64
        }
    }

    /// A bandit whose first arm is the rollout policy's move, kept unless clearly beaten.
    struct Incumbent(Vec<f64>);

    impl Searchable for Incumbent {
        type State = ();
        type Action = usize;
        fn candidates(&self, _: &(), _: usize, out: &mut Vec<usize>) {
            out.extend(0..self.0.len());
        }
        fn rollout(&self, _: &mut (), _: usize, arm: usize, _: u32, dice: &mut Dice) -> f64 {
            // Independent luck per arm (not common numbers), the hard case for a paired test.
            let mut own = Dice::from_seed(mix64(dice.next_u64() ^ arm as u64));
            own.chance(self.0[arm]) as u8 as f64
        }
        fn keeps_first(&self) -> bool {
            true
        }
    }

    #[test]
    fn the_first_candidate_is_kept_unless_another_is_clearly_better() {
        let spec = SearchSpec {
            budget: 64,
            horizon: 0,
        };
        let mut searcher = Searcher::default();
        let chosen = |arms: &[f64], searcher: &mut Searcher<Incumbent>| -> Vec<usize> {
            let bandit = Incumbent(arms.to_vec());
            (0..200)
                .map(|game| {
                    let mut dice = Dice::for_trial(9, 0, game);
                    searcher.choose(&bandit, &(), 0, spec, &mut dice).unwrap()
                })
                .collect()
        };
        // Six arms as good as the first: a plain search would pick one of the others five
        // times in six; a paired 2-SE test of the best of five lets a few through.
        let equal = chosen(&[0.5; 6], &mut searcher);
        let kept = equal.iter().filter(|&&a| a == 0).count();
        assert!(
            kept >= 150,
            "the first of six equal arms kept {kept} times in 200"
        );
        // A clearly better arm still wins.
        let better = chosen(&[0.2, 0.25, 0.9, 0.3], &mut searcher);
        let found = better.iter().filter(|&&a| a == 2).count();
        assert!(found >= 190, "the best arm chosen {found} times in 200");
        // Worse arms never replace the first.
        let worse = chosen(&[0.6, 0.2, 0.3, 0.1], &mut searcher);
        assert!(worse.iter().all(|&a| a == 0), "{worse:?}");
    }

    #[test]
    fn successive_halving_spends_the_budget_and_finds_the_best_arm() {
        let rounds = rollouts_per_round(64, 8);
        assert_eq!(rounds, vec![(8, 2), (4, 5), (2, 10)]);
        let spent: u32 = rounds.iter().map(|&(a, r)| a as u32 * r).sum();
        assert!(spent <= 64, "{spent}");
        assert_eq!(rollouts_per_round(1, 5), vec![(5, 1), (3, 1), (2, 1)]);
        assert!(rollouts_per_round(100, 1).is_empty());

        let bandit = Bandit(vec![0.2, 0.3, 0.8, 0.25, 0.4, 0.1]);
        let mut searcher = Searcher::default();
        let mut right = 0;
        for game in 0..200 {
            let mut dice = Dice::for_trial(5, 0, game);
            let spec = SearchSpec {
                budget: 120,
                horizon: 0,
            };
            if searcher.choose(&bandit, &(), 0, spec, &mut dice) == Some(2) {
                right += 1;
            }
        }
        assert!(right >= 190, "the best arm was chosen {right} times in 200");
        let lone = Bandit(vec![0.5]);
        let (mut dice, mut twin) = (Dice::for_trial(5, 0, 0), Dice::for_trial(5, 0, 0));
        assert_eq!(
            searcher.choose(&lone, &(), 0, SearchSpec::default(), &mut dice),
            Some(0)
        );
        assert_eq!(
            dice.next_u64(),
            twin.next_u64(),
            "no draw without a choice to make"
        );
    }
}

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
//! A ruleset whose first candidate is its rollout policy's own choice may give the search a
//! `margin` ([`SearchSpec::margin`]): that candidate is then the default, rolled out on every
//! round and never dropped, and the best challenger replaces it only when their paired difference
//! (rollout `j` of both plays the same seed) exceeds `margin` standard errors. Keeping the best of
//! noisy estimates otherwise overrules a good policy with moves no better than its own, so often
//! that the searcher plays worse than its rollout policy. The challenger the halving keeps is the
//! best of many noisy means, so its own rollouts overstate it (with a dozen candidates no better
//! than the default, a 2-standard-error margin is passed in about one decision in six);
//! `confirm` ([`SearchSpec::confirm`]) decides on fresh paired rollouts instead.
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
    /// `Some(z)` where the ruleset lists its rollout policy's own choice first: that choice is
    /// kept unless another candidate beats it by `z` standard errors of their paired difference,
    /// and a decision leaves the game's dice untouched (with `z` infinite the searcher plays the
    /// very games its rollout policy plays). `None`: the best mean wins.
    pub margin: Option<f64>,
    /// With a margin: fresh paired rollouts (default and best challenger, on seeds the halving
    /// did not use) that alone decide whether the challenger overrules the default. 0: the
    /// halving's own rollouts decide, and the challenger chosen as the best of many noisy means
    /// then passes the margin far more often than the margin says (the winner's curse).
    pub confirm: u32,
}

impl Default for SearchSpec {
    fn default() -> SearchSpec {
        SearchSpec {
            budget: 64,
            horizon: 0,
            margin: None,
            confirm: 0,
        }
    }
}

/// Mixed into a decision's seed for the order ties are broken in.
const TIE_SALT: u64 = 0x7469_6573;
/// Mixed into the game's next word (not drawn) for a decision's seed when it has a default.
const DEFAULT_SALT: u64 = 0x6465_6661_756c_7473;

/// What the search parameters may be, for the policy catalog and `alea list`.
pub const BUDGET_RANGE: (u32, u32) = (1, 100_000);
pub const HORIZON_RANGE: (u32, u32) = (0, 1_000);
/// `margin`, in standard errors (infinite: never overrule the rollout policy).
pub const MARGIN_RANGE: (f64, f64) = (0.0, f64::INFINITY);
/// `confirm`: paired rollouts of the default and the best challenger (each pair is two rollouts).
pub const CONFIRM_RANGE: (u32, u32) = (0, 100_000);

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
}

/// How the last decision with a default went: the best challenger against the default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Verdict {
    /// The best challenger's index in the candidate list (0 when there was none).
    pub challenger: usize,
    /// Its mean paired difference from the default, and that mean's standard error.
    pub difference: f64,
    pub standard_error: f64,
    /// Rollouts the difference rests on.
    pub rollouts: u32,
    /// Whether the challenger was taken.
    pub overruled: bool,
}

/// Reusable buffers of one search player: choosing allocates nothing once they have grown.
pub struct Searcher<G: Searchable> {
    candidates: Vec<G::Action>,
    alive: Vec<usize>,
    value: Vec<f64>,
    rollouts: Vec<u32>,
    /// Per candidate, the sums of its paired differences from the default and of their squares.
    difference: Vec<(f64, f64)>,
    /// The default's values in the current round, by rollout.
    default_values: Vec<f64>,
    scratch: Option<G::State>,
    /// The last decision that had a default and challengers.
    pub verdict: Verdict,
}

impl<G: Searchable> Default for Searcher<G> {
    fn default() -> Self {
        Searcher {
            candidates: Vec::new(),
            alive: Vec::new(),
            value: Vec::new(),
            rollouts: Vec::new(),
            difference: Vec::new(),
            default_values: Vec::new(),
            scratch: None,
            verdict: Verdict::default(),
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
    /// `spec.budget` rollouts; `None` when there is no candidate. Without a margin the rollouts'
    /// seeds come from one draw of `dice`, so the game's own stream moves on by exactly one word
    /// per decision; with one they come from the next word without drawing it.
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
        let base = match spec.margin {
            None => dice.next_u64(),
            Some(_) => mix64(dice.clone().next_u64() ^ DEFAULT_SALT ^ (player as u64) << 48),
        };
        // With a default, candidate 0 is not among those halved: it is rolled out every round.
        let first = spec.margin.is_some() as usize;
        self.alive.clear();
        self.alive.extend(first..k);
        // The candidates in a random order: rollouts that score 0 or 1 often tie, and a tie must
        // not always go to the first candidate the ruleset lists.
        let mut order = Dice::from_seed(mix64(base ^ TIE_SALT));
        for i in (1..self.alive.len()).rev() {
            self.alive.swap(i, order.below(i as u64 + 1) as usize);
        }
        self.value.clear();
        self.value.resize(k, 0.0);
        self.rollouts.clear();
        self.rollouts.resize(k, 0);
        self.difference.clear();
        self.difference.resize(k, (0.0, 0.0));
        let mut done = 0u32;
        for (_, per) in rollouts_per_round(spec.budget, k) {
            if first == 1 {
                self.default_values.clear();
                for j in done..done + per {
                    let v = self.roll(game, state, player, 0, spec.horizon, base, j);
                    self.default_values.push(v);
                }
            }
            for i in 0..self.alive.len() {
                let c = self.alive[i];
                for j in done..done + per {
                    let v = self.roll(game, state, player, c, spec.horizon, base, j);
                    if first == 1 {
                        let d = v - self.default_values[(j - done) as usize];
                        self.difference[c].0 += d;
                        self.difference[c].1 += d * d;
                    }
                }
            }
            done += per;
            // Best mean first; a stable sort keeps tied candidates in their shuffled order.
            let (value, rollouts) = (&self.value, &self.rollouts);
            let mean = |c: usize| value[c] / rollouts[c] as f64;
            self.alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
            self.alive.truncate(self.alive.len().div_ceil(2));
        }
        let best = self.alive[0];
        let Some(margin) = spec.margin else {
            return Some(self.candidates[best]);
        };
        let (mut n, (mut sum, mut squares)) = (self.rollouts[best], self.difference[best]);
        // A challenger the halving's rollouts put below the default is not confirmed: it could
        // not overrule without the confirmation either.
        if spec.confirm > 0 && sum > 0.0 {
            (n, sum, squares) = (spec.confirm, 0.0, 0.0);
            for j in done..done + spec.confirm {
                let d = self.roll(game, state, player, best, spec.horizon, base, j)
                    - self.roll(game, state, player, 0, spec.horizon, base, j);
                sum += d;
                squares += d * d;
            }
        }
        let difference = sum / n as f64;
        let variance = if n > 1 {
            ((squares - sum * difference) / (n - 1) as f64).max(0.0)
        } else {
            f64::INFINITY
        };
        let standard_error = (variance / n as f64).sqrt();
        // An infinite margin never overrules (not even a difference with no spread).
        let overruled =
            margin.is_finite() && difference > 0.0 && difference > margin * standard_error;
        self.verdict = Verdict {
            challenger: best,
            difference,
            standard_error,
            rollouts: n,
            overruled,
        };
        Some(self.candidates[if overruled { best } else { 0 }])
    }

    /// Rollout `j` of candidate `c` (its seed shared by every candidate's rollout `j`).
    #[allow(clippy::too_many_arguments)]
    fn roll(
        &mut self,
        game: &G,
        state: &G::State,
        player: usize,
        c: usize,
        horizon: u32,
        base: u64,
        j: u32,
    ) -> f64 {
        let scratch = match &mut self.scratch {
            Some(s) => {
                s.clone_from(state);
                s
            }
            none => none.insert(state.clone()),
        };
        let mut roll = Dice::from_seed(mix64(base ^ j as u64));
        let v = game.rollout(scratch, player, self.candidates[c], horizon, &mut roll);
        self.value[c] += v;
        self.rollouts[c] += 1;
        v
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

    /// Arms whose rollouts share a seed but not their luck: arm `i` skips `i` words of the
    /// rollout's stream first, as candidates of a real game diverge after their first move.
    struct NoisyBandit(Vec<f64>);

    impl Searchable for NoisyBandit {
        type State = ();
        type Action = usize;
        fn candidates(&self, _: &(), _: usize, out: &mut Vec<usize>) {
            out.extend(0..self.0.len());
        }
        fn rollout(&self, _: &mut (), _: usize, arm: usize, _: u32, dice: &mut Dice) -> f64 {
            for _ in 0..arm {
                dice.next_u64();
            }
            dice.chance(self.0[arm]) as u8 as f64
        }
    }

    #[test]
    fn confirming_on_fresh_rollouts_stops_the_winners_curse_and_keeps_a_real_gain() {
        let spec = |confirm| SearchSpec {
            budget: 32,
            horizon: 0,
            margin: Some(2.0),
            confirm,
        };
        let mut searcher = Searcher::default();
        let decisions = 1000;
        let overrules = |searcher: &mut Searcher<NoisyBandit>, arms: &NoisyBandit, confirm| {
            (0..decisions)
                .filter(|&d| {
                    let mut dice = Dice::for_trial(7, 0, d);
                    searcher.choose(arms, &(), 0, spec(confirm), &mut dice) != Some(0)
                })
                .count()
        };
        // Twelve arms no better than the default.
        let flat = NoisyBandit(vec![0.5; 12]);
        let plain = overrules(&mut searcher, &flat, 0);
        let confirmed = overrules(&mut searcher, &flat, 16);
        assert!(
            plain >= 80,
            "the halving's own rollouts overruled {plain} times in {decisions}"
        );
        assert!(
            confirmed * 3 <= plain && confirmed <= 50,
            "confirmed overrules {confirmed} in {decisions} (plain {plain})"
        );
        // One arm clearly better is taken as often as without the confirmation: the halving
        // finds it (or loses it) on the same rollouts, and fresh ones confirm it.
        let mut better = vec![0.5; 12];
        better[7] = 0.95;
        let better = NoisyBandit(better);
        let mut taken = |confirm| {
            (0..200)
                .filter(|&d| {
                    let mut dice = Dice::for_trial(8, 0, d);
                    searcher.choose(&better, &(), 0, spec(confirm), &mut dice) == Some(7)
                })
                .count()
        };
        let (plain, confirmed) = (taken(0), taken(16));
        assert!(
            confirmed + 10 >= plain && confirmed >= 100,
            "the better arm was taken {confirmed} times in 200 with the confirmation, {plain} without"
        );
        assert_eq!(searcher.verdict.rollouts, 16, "{:?}", searcher.verdict);
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
                margin: None,
                confirm: 0,
            };
            if searcher.choose(&bandit, &(), 0, spec, &mut dice) == Some(2) {
                right += 1;
            }
        }
        assert!(right >= 190, "the best arm was chosen {right} times in 200");
        // With a margin, arm 0 is the default: equal arms never overrule it (their paired
        // rollouts tie), a clearly better arm does; plain halving takes a tied arm at random.
        let with = |margin| SearchSpec {
            budget: 120,
            horizon: 0,
            margin,
            confirm: 0,
        };
        let flat = Bandit(vec![0.5; 6]);
        let (mut kept, mut kept_plain) = (0, 0);
        for game in 0..200 {
            let mut dice = Dice::for_trial(6, 0, game);
            kept += (searcher.choose(&flat, &(), 0, with(Some(2.0)), &mut dice) == Some(0)) as u32;
            assert_eq!(searcher.verdict.difference, 0.0);
            assert!(!searcher.verdict.overruled);
            kept_plain += (searcher.choose(&flat, &(), 0, with(None), &mut dice) == Some(0)) as u32;
        }
        assert_eq!(kept, 200);
        assert!(
            kept_plain < 100,
            "plain halving kept arm 0 {kept_plain} times in 200"
        );
        let mut taken = 0;
        for game in 0..200 {
            let mut dice = Dice::for_trial(6, 1, game);
            let (before, after) = (dice.clone().next_u64(), {
                let d = searcher.choose(&bandit, &(), 0, with(Some(2.0)), &mut dice);
                taken += (d == Some(2)) as u32;
                dice.next_u64()
            });
            assert_eq!(before, after, "a decision with a default draws nothing");
            let v = searcher.verdict;
            assert_eq!(v.overruled, v.difference > 2.0 * v.standard_error);
        }
        assert!(taken >= 190, "the best arm was taken {taken} times in 200");
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

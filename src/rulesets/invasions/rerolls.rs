//! Leaders' rerolls on battle dice (XX.E, L1360-1367; digest §3.1.5, policy §8.5).
//!
//! After both pools are rolled the sides take turns, the Attacker first: on its turn a side may
//! have one die rerolled, its own or the enemy's. The greedy policy rerolls the die whose expected
//! change is largest (own die showing v: E − v; enemy die showing v: v − E) when that exceeds the
//! threshold τ, and the exchange ends when both sides pass in a row. What a side sees is only how
//! many dice of each colour show 0, 1 or 2 hits, so the exact solver walks that state, with counts
//! capped at the rerolls still to come (a class larger than that can never run out).

use super::faces::Colour;
use crate::battle::Intractable;
use crate::dice::Dice;
use crate::exact::FastMap;

/// Dice of one pool by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool {
    pub white: u32,
    pub black: u32,
}

impl Pool {
    pub fn dice(&self) -> u32 {
        self.white + self.black
    }
    fn of(&self, c: Colour) -> u32 {
        match c {
            Colour::White => self.white,
            Colour::Black => self.black,
        }
    }
}

/// How many dice of each colour (index) show 0, 1, 2 hits.
pub type Showing = [[u8; 3]; 2];

#[derive(Clone, Copy, Debug)]
pub struct Judge {
    mean: [f64; 2],
    p: [[f64; 3]; 2],
    open: bool,
    /// None: never reroll.
    threshold: Option<f64>,
}

/// One reroll: whose die (0 = attacker's, 1 = defender's), its colour and what it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reroll {
    pub side: usize,
    pub colour: usize,
    pub showing: usize,
}

impl Judge {
    pub fn new(open: bool, threshold: Option<f64>) -> Judge {
        Judge {
            mean: [Colour::White.mean_hits(open), Colour::Black.mean_hits(open)],
            p: [
                Colour::White.hit_distribution(open),
                Colour::Black.hit_distribution(open),
            ],
            open,
            threshold,
        }
    }

    /// The reroll `mover` wants, if any.
    pub fn choose(&self, mover: usize, shows: &[Showing; 2]) -> Option<Reroll> {
        let tau = self.threshold?;
        let mut best: Option<(f64, Reroll)> = None;
        for side in [mover, 1 - mover] {
            for colour in 0..2 {
                for v in 0..3 {
                    if shows[side][colour][v] == 0 {
                        continue;
                    }
                    let gain = if side == mover {
                        self.mean[colour] - v as f64
                    } else {
                        v as f64 - self.mean[colour]
                    };
                    if gain > tau + 1e-12 && best.is_none_or(|b| gain > b.0 + 1e-12) {
                        best = Some((
                            gain,
                            Reroll {
                                side,
                                colour,
                                showing: v,
                            },
                        ));
                    }
                }
            }
        }
        best.map(|b| b.1)
    }
}

/// Hits of both pools after the rerolls, and the rerolls left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rolled {
    pub hits: [u32; 2],
    pub rerolls_left: [u32; 2],
}

/// Rolls both pools and plays the reroll exchange.
pub fn play(pools: [Pool; 2], rerolls: [u32; 2], judge: &Judge, dice: &mut Dice) -> Rolled {
    let mut shows: [Showing; 2] = [[[0; 3]; 2]; 2];
    let mut hits = [0u32; 2];
    for side in 0..2 {
        for colour in Colour::ALL {
            for _ in 0..pools[side].of(colour) {
                let v = colour.hits_on(dice.below(6) as usize, judge.open) as usize;
                shows[side][colour.index()][v] += 1;
                hits[side] += v as u32;
            }
        }
    }
    let mut left = rerolls;
    let (mut mover, mut passes) = (0, 0);
    while passes < 2 {
        let choice = if left[mover] > 0 {
            judge.choose(mover, &shows)
        } else {
            None
        };
        match choice {
            Some(r) => {
                left[mover] -= 1;
                passes = 0;
                let colour = Colour::ALL[r.colour];
                let v = colour.hits_on(dice.below(6) as usize, judge.open) as usize;
                shows[r.side][r.colour][r.showing] -= 1;
                shows[r.side][r.colour][v] += 1;
                hits[r.side] = hits[r.side] + v as u32 - r.showing as u32;
            }
            None => passes += 1,
        }
        mover = 1 - mover;
    }
    Rolled {
        hits,
        rerolls_left: left,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ChainState {
    shows: [Showing; 2],
    hits: [u32; 2],
    left: [u32; 2],
    mover: usize,
    passes: u8,
}

fn cap(shows: &mut [Showing; 2], limit: u32) {
    let limit = limit.min(255) as u8;
    for side in shows.iter_mut() {
        for colour in side.iter_mut() {
            for n in colour.iter_mut() {
                *n = (*n).min(limit);
            }
        }
    }
}

/// One pool's distribution over (showing, capped at `limit`; hits).
fn pool_distribution(pool: Pool, judge: &Judge, limit: u32) -> FastMap<(Showing, u32), f64> {
    let mut dist: FastMap<(Showing, u32), f64> = FastMap::from_iter([(([[0; 3]; 2], 0), 1.0)]);
    let limit = limit.min(255) as u8;
    for colour in Colour::ALL {
        let c = colour.index();
        for _ in 0..pool.of(colour) {
            let mut next = FastMap::with_capacity_and_hasher(dist.len() * 3, Default::default());
            for (&(show, hits), &p) in &dist {
                for v in 0..3 {
                    let q = judge.p[c][v];
                    if q == 0.0 {
                        continue;
                    }
                    let mut s = show;
                    s[c][v] = (s[c][v] + 1).min(limit);
                    *next.entry((s, hits + v as u32)).or_insert(0.0) += p * q;
                }
            }
            dist = next;
        }
    }
    dist
}

/// Joint states of both pools the exact solver may walk in one battle before it calls the battle
/// intractable (a few seconds of work); Monte Carlo answers beyond.
pub const EXACT_BUDGET: u64 = 3_000_000;

/// Most exchanges [`exact`] remembers per thread before it starts again (each a few KB at most).
const MEMO: usize = 8_192;

/// An exchange as [`exact`] remembers it: the pools, rerolls and the judge's own inputs.
type MemoKey = ([Pool; 2], [u32; 2], bool, Option<u64>);

/// Solved exchanges by [`MemoKey`], each with the budget its solve spent.
type Solved = FastMap<MemoKey, (u64, Vec<(Rolled, f64)>)>;

thread_local! {
    /// [`exact`]'s solved exchanges and what each cost the budget: a full game's odds solve the
    /// same few pools over and over across battles.
    static SOLVED: std::cell::RefCell<Solved> = std::cell::RefCell::new(Solved::default());
}

/// The exact joint distribution of [`play`]'s result, spending `budget` (joint states walked).
/// Remembered per thread: a repeated exchange spends the budget its first solve spent (and is
/// intractable where that would not fit), so the result never depends on what came before.
pub fn exact(
    pools: [Pool; 2],
    rerolls: [u32; 2],
    judge: &Judge,
    budget: &mut u64,
) -> Result<Vec<(Rolled, f64)>, Intractable> {
    let key = (
        pools,
        rerolls,
        judge.open,
        judge.threshold.map(f64::to_bits),
    );
    let known = SOLVED.with(|m| {
        m.borrow()
            .get(&key)
            .map(|(cost, v)| (*cost, (*cost <= *budget).then(|| v.clone())))
    });
    match known {
        Some((cost, Some(v))) => {
            *budget -= cost;
            Ok(v)
        }
        Some((_, None)) => Err(too_many(pools)),
        None => {
            let before = *budget;
            let v = solve(pools, rerolls, judge, budget)?;
            SOLVED.with(|m| {
                let mut m = m.borrow_mut();
                if m.len() >= MEMO {
                    m.clear();
                }
                m.insert(key, (before - *budget, v.clone()));
            });
            Ok(v)
        }
    }
}

fn too_many(pools: [Pool; 2]) -> Intractable {
    Intractable(format!(
        "the leaders' rerolls over {}+{} and {}+{} dice make too many dice states to follow exactly",
        pools[0].white, pools[0].black, pools[1].white, pools[1].black
    ))
}

fn solve(
    pools: [Pool; 2],
    rerolls: [u32; 2],
    judge: &Judge,
    budget: &mut u64,
) -> Result<Vec<(Rolled, f64)>, Intractable> {
    let mut out: FastMap<Rolled, f64> = FastMap::default();
    if judge.threshold.is_none() || rerolls == [0, 0] {
        let per_side: Vec<Vec<f64>> = (0..2)
            .map(|s| {
                let mut h = vec![0.0; 2 * pools[s].dice() as usize + 1];
                for ((_, hits), p) in pool_distribution(pools[s], judge, 0) {
                    h[hits as usize] += p;
                }
                h
            })
            .collect();
        for (a, pa) in per_side[0].iter().enumerate() {
            for (d, pd) in per_side[1].iter().enumerate() {
                if pa * pd > 0.0 {
                    out.insert(
                        Rolled {
                            hits: [a as u32, d as u32],
                            rerolls_left: rerolls,
                        },
                        pa * pd,
                    );
                }
            }
        }
        return Ok(sorted(out));
    }
    let limit = rerolls[0] + rerolls[1];
    let a = pool_distribution(pools[0], judge, limit);
    let d = pool_distribution(pools[1], judge, limit);
    let cost = (a.len() * d.len()) as u64 * (limit as u64 + 1);
    if cost > *budget {
        return Err(too_many(pools));
    }
    *budget -= cost;
    let mut current: FastMap<ChainState, f64> =
        FastMap::with_capacity_and_hasher(a.len() * d.len(), Default::default());
    for (&(sa, ha), &pa) in &a {
        for (&(sd, hd), &pd) in &d {
            current.insert(
                ChainState {
                    shows: [sa, sd],
                    hits: [ha, hd],
                    left: rerolls,
                    mover: 0,
                    passes: 0,
                },
                pa * pd,
            );
        }
    }
    while !current.is_empty() {
        let mut next: FastMap<ChainState, f64> =
            FastMap::with_capacity_and_hasher(current.len(), Default::default());
        for (st, p) in current {
            if st.passes >= 2 {
                *out.entry(Rolled {
                    hits: st.hits,
                    rerolls_left: st.left,
                })
                .or_insert(0.0) += p;
                continue;
            }
            let choice = if st.left[st.mover] > 0 {
                judge.choose(st.mover, &st.shows)
            } else {
                None
            };
            match choice {
                None => {
                    let mut s = st;
                    s.passes += 1;
                    s.mover = 1 - s.mover;
                    *next.entry(s).or_insert(0.0) += p;
                }
                Some(r) => {
                    for v in 0..3 {
                        let q = judge.p[r.colour][v];
                        if q == 0.0 {
                            continue;
                        }
                        let mut s = st;
                        s.left[st.mover] -= 1;
                        s.passes = 0;
                        s.mover = 1 - st.mover;
                        s.shows[r.side][r.colour][r.showing] -= 1;
                        s.shows[r.side][r.colour][v] += 1;
                        s.hits[r.side] = s.hits[r.side] + v as u32 - r.showing as u32;
                        cap(&mut s.shows, s.left[0] + s.left[1]);
                        *next.entry(s).or_insert(0.0) += p * q;
                    }
                }
            }
        }
        current = next;
    }
    Ok(sorted(out))
}

fn sorted(map: FastMap<Rolled, f64>) -> Vec<(Rolled, f64)> {
    let mut v: Vec<(Rolled, f64)> = map.into_iter().collect();
    v.sort_by_key(|a| a.0);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(white: u32, black: u32) -> Pool {
        Pool { white, black }
    }

    fn side_distribution(pools: [Pool; 2], rerolls: [u32; 2], open: bool, side: usize) -> Vec<f64> {
        let judge = Judge::new(open, Some(0.0));
        let mut h = vec![0.0; 40];
        for (r, p) in exact(pools, rerolls, &judge, &mut u64::MAX.clone()).unwrap() {
            h[r.hits[side] as usize] += p;
        }
        h
    }

    /// The per-thread memory of [`exact`] gives back what a fresh solve gives, bit for bit, and
    /// spends the budget that solve spends: intractable again where it would not fit.
    #[test]
    fn a_remembered_exchange_is_a_fresh_solve() {
        for open in [false, true] {
            for threshold in [None, Some(0.0), Some(0.3)] {
                let judge = Judge::new(open, threshold);
                for (pools, rerolls) in [
                    ([pool(3, 1), pool(2, 2)], [1, 2]),
                    ([pool(0, 4), pool(5, 0)], [0, 0]),
                    ([pool(4, 2), pool(3, 3)], [3, 1]),
                ] {
                    let mut fresh_budget = EXACT_BUDGET;
                    let fresh = solve(pools, rerolls, &judge, &mut fresh_budget).unwrap();
                    let spent = EXACT_BUDGET - fresh_budget;
                    // The first call may solve or remember; the second remembers.
                    for _ in 0..2 {
                        let mut budget = EXACT_BUDGET;
                        let got = exact(pools, rerolls, &judge, &mut budget).unwrap();
                        assert_eq!(format!("{got:?}"), format!("{fresh:?}"));
                        assert_eq!(EXACT_BUDGET - budget, spent);
                    }
                    if spent > 0 {
                        let mut short = spent - 1;
                        assert!(solve(pools, rerolls, &judge, &mut short.clone()).is_err());
                        assert!(exact(pools, rerolls, &judge, &mut short).is_err());
                    }
                }
            }
        }
    }

    #[test]
    fn pool_distributions_match_the_digest() {
        // §7.5: 7W closed; 2W+2B closed; means of 3W+3B and 4W+2B closed; §7.1 T04 extras.
        let h = side_distribution([pool(7, 0), pool(1, 0)], [0, 0], false, 0);
        let want = [128.0, 448.0, 672.0, 560.0, 280.0, 84.0, 14.0, 1.0];
        for (k, w) in want.iter().enumerate() {
            assert!((h[k] - w / 2187.0).abs() < 1e-12, "{k}");
        }
        let h = side_distribution([pool(2, 2), pool(1, 0)], [0, 0], false, 0);
        let want = [36.0, 84.0, 97.0, 68.0, 30.0, 8.0, 1.0];
        for (k, w) in want.iter().enumerate() {
            assert!((h[k] - w / 324.0).abs() < 1e-12, "{k}");
        }
        let mean = |h: &[f64]| h.iter().enumerate().map(|(k, p)| k as f64 * p).sum::<f64>();
        assert!(
            (mean(&side_distribution(
                [pool(3, 3), pool(1, 0)],
                [0, 0],
                false,
                0
            )) - 3.0)
                .abs()
                < 1e-12
        );
        assert!(
            (mean(&side_distribution(
                [pool(4, 2), pool(1, 0)],
                [0, 0],
                false,
                0
            )) - 8.0 / 3.0)
                .abs()
                < 1e-12
        );
        let h = side_distribution([pool(5, 2), pool(1, 0)], [0, 0], true, 0);
        assert!((mean(&h) - 16.0 / 3.0).abs() < 1e-12);
        assert!((h[0] - 1.0 / 288.0).abs() < 1e-15);
        assert!((h[14] - 1.0 / 69984.0).abs() < 1e-15);
        let h = side_distribution([pool(6, 1), pool(1, 0)], [0, 0], true, 0);
        assert!((mean(&h) - 5.0).abs() < 1e-12 && (h[0] - 1.0 / 192.0).abs() < 1e-15);
    }

    #[test]
    fn one_reroll_on_one_die_is_worked_by_hand() {
        // One white die in open terrain against nothing the defender can spoil: reroll a blank.
        // P(0) = 1/2 · 1/2, P(1) = 1/3 + 1/2 · 1/3, P(2) = 1/6 + 1/2 · 1/6.
        let judge = Judge::new(true, Some(0.0));
        let mut h = [0.0; 3];
        for (r, p) in exact(
            [pool(1, 0), pool(0, 0)],
            [1, 0],
            &judge,
            &mut u64::MAX.clone(),
        )
        .unwrap()
        {
            h[r.hits[0] as usize] += p;
        }
        assert!((h[0] - 0.25).abs() < 1e-12);
        assert!((h[1] - 0.5).abs() < 1e-12);
        assert!((h[2] - 0.25).abs() < 1e-12);
    }

    #[test]
    fn rerolls_never_hurt_the_side_that_holds_them() {
        for open in [true, false] {
            let mean = |r: [u32; 2], side| {
                side_distribution([pool(4, 2), pool(3, 1)], r, open, side)
                    .iter()
                    .enumerate()
                    .map(|(k, p)| k as f64 * p)
                    .sum::<f64>()
            };
            assert!(mean([2, 0], 0) > mean([0, 0], 0));
            assert!(mean([2, 0], 1) < mean([0, 0], 1));
            assert!(mean([0, 3], 0) < mean([0, 0], 0));
        }
    }

    #[test]
    fn exact_and_simulated_exchanges_agree() {
        let cases = [
            ([pool(3, 1), pool(2, 2)], [2, 1], true),
            ([pool(5, 2), pool(6, 1)], [3, 2], true),
            ([pool(1, 0), pool(4, 0)], [1, 3], false),
            ([pool(2, 3), pool(0, 1)], [0, 2], false),
        ];
        for (i, (pools, rerolls, open)) in cases.into_iter().enumerate() {
            let judge = Judge::new(open, Some(0.0));
            let ex = exact(pools, rerolls, &judge, &mut u64::MAX.clone()).unwrap();
            let n = 200_000;
            let mut counts: FastMap<Rolled, u64> = FastMap::default();
            let mut dice = Dice::for_trial(7, i as u64, 0);
            for _ in 0..n {
                *counts
                    .entry(play(pools, rerolls, &judge, &mut dice))
                    .or_insert(0) += 1;
            }
            let total: f64 = ex.iter().map(|e| e.1).sum();
            assert!((total - 1.0).abs() < 1e-9);
            for (r, p) in &ex {
                let f = *counts.get(r).unwrap_or(&0) as f64 / n as f64;
                let se = (p * (1.0 - p) / n as f64).sqrt() + 2.0 / n as f64;
                assert!((f - p).abs() < 5.0 * se, "{r:?}: exact {p}, simulated {f}");
            }
        }
    }
}

//! What a finished land battle means, and how it is written: the volleys' bookkeeping, victory
//! (XX.I), leader loss (XX.J), recovery and repair (XX.K), retreat (XX.L) and hordes (XXIX.B); the
//! schema's layout, and the sink a trial or the exact answer is written to (digest §3.0.4-§3.0.5).

use super::allocation::{allocate, min_eliminations, Casualties, Plan};
use super::army::{self, Army, Status};
use super::land::{Field, LandBattle, Side, System, ATTACKER, DEFENDER};
use super::SIDES;
use crate::battle::{side_column, Exact, Schema, Trial, LOSSES};

/// Where each reported quantity sits in the schema.
#[derive(Clone, Debug)]
pub struct Layout {
    eliminated: [usize; 2],
    hits: [usize; 2],
    /// Units lost for good: eliminated and not recovered, or trapped with no retreat.
    losses: [usize; 2],
    recovered: [usize; 2],
    /// Per side: (template name, count index) for permanent losses by unit type.
    lost: [Vec<(&'static str, usize)>; 2],
    wiped: [usize; 2],
    both_wiped: usize,
    leader_killed: [usize; 2],
    retreats: [usize; 2],
    flips: [usize; 2],
    horde_captured: Option<usize>,
    /// Per side, for a Kingdom without capital: P(it submits).
    submits: [Option<usize>; 2],
    limes_destroyed: Option<usize>,
    rounds: Option<usize>,
    ended_early: Option<[usize; 3]>,
    city_taken: Option<usize>,
}

/// Largest number of hits one side can inflict in the whole battle.
fn max_hits(side: &Side, system: System) -> usize {
    let n = side.stack.total() as usize + 6;
    match system {
        // Fire dice ≤ units, combat dice ≤ units + bonuses, 2 hits a die at most.
        System::Basic => 2 * (2 * n),
        System::Advanced => 2 + 2 * 5,
    }
}

impl Layout {
    pub fn schema(
        sides: &[Side; 2],
        system: System,
        field: &Field,
        city: bool,
    ) -> (Schema, Layout) {
        let mut s = Schema::new(&super::SIDES);
        let totals = [0, 1].map(|k| sides[k].stack.total() as usize);
        let eliminated = [0, 1].map(|k| s.count(side_column(SIDES[k], "eliminated"), totals[k]));
        let hits = [0, 1].map(|k| {
            s.count(
                side_column(SIDES[k], "hits_inflicted"),
                max_hits(&sides[k], system),
            )
        });
        let losses = [0, 1].map(|k| s.count(side_column(SIDES[k], LOSSES), totals[k]));
        let recovered = [0, 1].map(|k| s.count(side_column(SIDES[k], "recovered"), 2));
        let lost = [0, 1].map(|k| {
            let mut v: Vec<(&'static str, usize)> = Vec::new();
            for c in sides[k].classes() {
                if v.iter().any(|(n, _)| *n == c.template.name) {
                    continue;
                }
                let n: usize = sides[k]
                    .classes()
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.template.name == c.template.name)
                    .map(|(j, _)| (sides[k].stack.intact[j] + sides[k].stack.damaged[j]) as usize)
                    .sum();
                let idx = s.count(
                    format!(
                        "{}/{}",
                        side_column(SIDES[k], "losses_by_type"),
                        c.template.name
                    ),
                    n,
                );
                v.push((c.template.name, idx));
            }
            v
        });
        let wiped = [0, 1].map(|k| s.scalar(side_column(SIDES[k], "wiped_out")));
        let both_wiped = s.scalar("both_wiped_out");
        let leader_killed = [0, 1].map(|k| s.scalar(side_column(SIDES[k], "leader_killed")));
        let retreats = [0, 1].map(|k| s.scalar(side_column(SIDES[k], "retreats")));
        let flips = [0, 1]
            .map(|k| s.scalar_bounded(side_column(SIDES[k], "elites_flipped"), totals[k] as f64));
        let horde_captured = (sides[0].horde || sides[1].horde).then(|| s.scalar("horde_captured"));
        let submits = [0, 1].map(|k| {
            sides[k]
                .without_capital
                .then(|| s.scalar(side_column(SIDES[k], "submits")))
        });
        let limes_destroyed = field.limes.then(|| s.scalar("limes_destroyed"));
        let (rounds, ended_early) = if system == System::Advanced {
            (
                Some(s.scalar_bounded("combat_rounds", 2.0)),
                Some([
                    s.scalar("ended_round_1/wipe_out"),
                    s.scalar(format!(
                        "ended_round_1/{}",
                        side_column(SIDES[1], "retreat")
                    )),
                    s.scalar(format!(
                        "ended_round_1/{}",
                        side_column(SIDES[0], "retreat")
                    )),
                ]),
            )
        } else {
            (None, None)
        };
        let city_taken = city.then(|| s.scalar("city_taken"));
        (
            s,
            Layout {
                eliminated,
                hits,
                losses,
                recovered,
                lost,
                wiped,
                both_wiped,
                leader_killed,
                retreats,
                flips,
                horde_captured,
                submits,
                limes_destroyed,
                rounds,
                ended_early,
                city_taken,
            },
        )
    }
}

/// The state of a battle once the dice have stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Finish {
    pub armies: [Army; 2],
    /// Hits nobody on that side could absorb.
    pub leftover: [u32; 2],
    pub hits_inflicted: [u32; 2],
    pub rerolls_left: [u32; 2],
    pub limes_hit: bool,
    /// Advanced: rounds fought, and who retreated voluntarily after round 1.
    pub rounds: u8,
    pub voluntary_retreat: Option<usize>,
}

/// What a finished battle means for each side.
pub struct Settlement {
    pub winner: usize,
    pub wiped: [bool; 2],
    pub recovered: [u32; 2],
    pub survivors: [Army; 2],
    pub survivor_count: [u32; 2],
    pub leader_death: [f64; 2],
    pub retreats: [bool; 2],
    pub horde_captured: bool,
    pub limes_destroyed: bool,
}

/// Each side's minimum-elimination allocation (`min_eliminations`) by number of hits, for the
/// side's army last asked about: the exact solver settles one army against every hit count the
/// other side may roll, and the allocation is a function of (stack, army, hits) alone. One cache
/// serves one battle (one pair of stacks).
pub struct MinCache {
    armies: [Option<Army>; 2],
    /// Bit `h` of `known[s]`: `mins[s][h]` holds the allocation of `h` hits.
    known: [u64; 2],
    mins: [[(Army, u32); 64]; 2],
}

impl Default for MinCache {
    fn default() -> Self {
        MinCache {
            armies: [None; 2],
            known: [0; 2],
            mins: [[(Army::default(), 0); 64]; 2],
        }
    }
}

impl MinCache {
    fn get(&mut self, stack: &army::Stack, side: usize, army: &Army, hits: u32) -> (Army, u32) {
        if hits >= 64 {
            return min_eliminations(stack, army, hits);
        }
        if self.armies[side] != Some(*army) {
            self.armies[side] = Some(*army);
            self.known[side] = 0;
        }
        let (bit, h) = (1u64 << hits, hits as usize);
        if self.known[side] & bit == 0 {
            self.mins[side][h] = min_eliminations(stack, army, hits);
            self.known[side] |= bit;
        }
        self.mins[side][h]
    }
}

impl LandBattle {
    pub fn open(&self) -> bool {
        self.field.terrain.open()
    }

    /// Victory (XX.I, L1436-1444) with Q7, Q11 and Q28.
    pub fn winner(&self, f: &Finish) -> usize {
        if let Some(r) = f.voluntary_retreat {
            return 1 - r;
        }
        let wiped = [0, 1].map(|s| f.armies[s].units() == 0);
        if wiped[DEFENDER] && !wiped[ATTACKER] {
            return ATTACKER;
        }
        if wiped[ATTACKER] && !wiped[DEFENDER] {
            return DEFENDER;
        }
        if wiped[0] && wiped[1] && self.rules.both_wiped_defender_wins {
            return DEFENDER;
        }
        let lost = [0, 1].map(|s| f.armies[s].eliminated_total());
        if lost[ATTACKER] != lost[DEFENDER] {
            return if lost[ATTACKER] < lost[DEFENDER] {
                ATTACKER
            } else {
                DEFENDER
            };
        }
        let d = &self.sides[DEFENDER];
        if self.field.fortified_city
            || d.horde
            || (self.rules.tie_any_side_horde && self.sides[ATTACKER].horde)
        {
            return DEFENDER;
        }
        let bonus = |s: usize| {
            if self.rules.tie_break_remaining {
                f.rerolls_left[s]
            } else {
                self.sides[s].best_bonus()
            }
        };
        if bonus(ATTACKER) > bonus(DEFENDER) {
            ATTACKER
        } else {
            DEFENDER
        }
    }

    /// The hits of the volley that decides the battle, allocated by each owner's policy.
    pub fn allocate_final(&self, f: &mut Finish, hits_on: [u32; 2]) {
        self.allocate_final_by(f, hits_on, |s, army, hits| {
            min_eliminations(&self.sides[s].stack, army, hits)
        });
    }

    /// [`LandBattle::allocate_final`] with side `s`'s minimum-elimination allocation of `hits`
    /// from `army` given by `min` (the exact solver keeps them, see [`MinCache`]).
    fn allocate_final_by(
        &self,
        f: &mut Finish,
        hits_on: [u32; 2],
        mut min: impl FnMut(usize, &Army, u32) -> (Army, u32),
    ) {
        if self.policy.casualties == Casualties::MinElim {
            for s in 0..2 {
                let (a, left) = min(s, &f.armies[s], hits_on[s]);
                f.armies[s] = a;
                f.leftover[s] += left;
            }
            return;
        }
        // Smart: see who loses at the minimum; the loser spends the recoveries first, then the
        // winner spends what keeps it winning.
        let mut trial = *f;
        for s in 0..2 {
            let (a, left) = min(s, &f.armies[s], hits_on[s]);
            trial.armies[s] = a;
            trial.leftover[s] += left;
        }
        let loser = 1 - self.winner(&trial);
        let free = |army: &Army, min: &Army| -> u32 {
            let flips = (min.flips - army.flips) as u32;
            self.recovery
                .saturating_sub(min.eliminated_total())
                .min(flips)
        };
        // With no free elimination a side's allocation is its minimum one, already made.
        let with_free = |side: usize, k: u32, into: &mut Finish| {
            if k == 0 {
                into.armies[side] = trial.armies[side];
                into.leftover[side] = trial.leftover[side];
            } else {
                let mut a = f.armies[side];
                into.leftover[side] = f.leftover[side]
                    + allocate(
                        &self.sides[side].stack,
                        &mut a,
                        hits_on[side],
                        Plan {
                            free_eliminations: k,
                            ..Plan::default()
                        },
                    );
                into.armies[side] = a;
            }
        };
        let mut out = *f;
        with_free(
            loser,
            free(&f.armies[loser], &trial.armies[loser]),
            &mut out,
        );
        let w = 1 - loser;
        let w_free = free(&f.armies[w], &trial.armies[w]);
        for k in (0..=w_free).rev() {
            let mut cand = out;
            with_free(w, k, &mut cand);
            if k == 0 || self.winner(&cand) == w {
                *f = cand;
                return;
            }
        }
    }

    /// Hits of a volley that does not decide the battle (fire round, advanced round 1).
    pub fn allocate_volley(
        &self,
        side: usize,
        army: &mut Army,
        enemy_army: Army,
        hits: u32,
    ) -> u32 {
        let plan = if self.policy.casualties == Casualties::Smart {
            let s = &self.sides[side];
            let min = self.rules.elite_exchange_minimum;
            let enemy = enemy_army;
            let e = &self.sides[1 - side];
            Plan {
                free_eliminations: 0,
                keep_thresholds: [min, if s.rome { 4.max(min) } else { 0 }],
                enemy: Some((
                    army::cavalry(e.classes(), &enemy),
                    army::heavy(e.classes(), &enemy),
                )),
                spare_recoveries: self.recovery.saturating_sub(army.eliminated_total()),
            }
        } else {
            Plan::default()
        };
        allocate(&self.sides[side].stack, army, hits, plan)
    }

    /// The battle before the first die: the fighting units, every leader's rerolls.
    pub fn opening(&self) -> Finish {
        Finish {
            armies: [self.sides[0].fighting, self.sides[1].fighting],
            leftover: [0; 2],
            hits_inflicted: [0; 2],
            rerolls_left: [self.sides[0].rerolls, self.sides[1].rerolls],
            limes_hit: false,
            rounds: 0,
            voluntary_retreat: None,
        }
    }

    pub fn wiped(f: &Finish) -> bool {
        f.armies[0].units() == 0 || f.armies[1].units() == 0
    }

    /// Rerolls the leaders may spend on a fire round (none unless Q4 says otherwise).
    pub fn fire_rerolls(&self, f: &Finish) -> [u32; 2] {
        if self.rules.rerolls_in_fire_round {
            f.rerolls_left
        } else {
            [0, 0]
        }
    }

    /// Records the rerolls an exchange used out of those it was offered.
    pub fn spend(f: &mut Finish, offered: [u32; 2], left: [u32; 2]) {
        for (have, (o, l)) in f.rerolls_left.iter_mut().zip(offered.iter().zip(left)) {
            *have -= o - l;
        }
    }

    /// Hits nobody could absorb: a supported Limes may take one (L1176), the rest are lost.
    fn absorb(&self, f: &mut Finish, victim: usize, mut left: u32) {
        if victim == DEFENDER && self.field.limes && !f.limes_hit && left > 0 {
            f.limes_hit = true;
            left -= 1;
        }
        f.leftover[victim] += left;
    }

    /// A volley that does not decide the battle (fire, advanced round 1).
    pub fn take_volley(&self, f: &mut Finish, victim: usize, hits: u32) {
        f.hits_inflicted[1 - victim] += hits;
        let hits = self.limes_first(f, victim, hits);
        let mut army = f.armies[victim];
        let left = self.allocate_volley(victim, &mut army, f.armies[1 - victim], hits);
        f.armies[victim] = army;
        self.absorb(f, victim, left);
    }

    /// With the `limes = "first"` policy the Romans give a volley's first hit to their Limes.
    fn limes_first(&self, f: &mut Finish, victim: usize, hits: u32) -> u32 {
        if victim == DEFENDER
            && self.field.limes
            && self.policy.limes_first
            && !f.limes_hit
            && hits > 0
        {
            f.limes_hit = true;
            hits - 1
        } else {
            hits
        }
    }

    /// The volley that decides the battle: `inflicted[s]` hits by side `s`.
    pub fn take_final(&self, f: &mut Finish, inflicted: [u32; 2]) {
        self.take_final_by(f, inflicted, |s, army, hits| {
            min_eliminations(&self.sides[s].stack, army, hits)
        });
    }

    /// [`LandBattle::take_final`] with the minimum-elimination allocations kept in `mins`, which
    /// serves this battle only.
    pub fn take_final_cached(&self, f: &mut Finish, inflicted: [u32; 2], mins: &mut MinCache) {
        self.take_final_by(f, inflicted, |s, army, hits| {
            mins.get(&self.sides[s].stack, s, army, hits)
        });
    }

    fn take_final_by(
        &self,
        f: &mut Finish,
        inflicted: [u32; 2],
        min: impl FnMut(usize, &Army, u32) -> (Army, u32),
    ) {
        f.hits_inflicted[0] += inflicted[0];
        f.hits_inflicted[1] += inflicted[1];
        let on_defender = self.limes_first(f, DEFENDER, inflicted[ATTACKER]);
        let before = f.leftover;
        self.allocate_final_by(f, [inflicted[DEFENDER], on_defender], min);
        for (s, b) in before.into_iter().enumerate() {
            let extra = f.leftover[s] - b;
            f.leftover[s] = b;
            self.absorb(f, s, extra);
        }
    }

    /// Victory, leader loss, recovery, repair, retreat, hordes (§3.0.5, §3.12).
    pub fn settle(&self, f: &Finish) -> Settlement {
        let winner = self.winner(f);
        let wiped = [0, 1].map(|s| f.armies[s].units() == 0);
        let mut survivors = f.armies;
        let mut recovered = [0; 2];
        for s in 0..2 {
            let side = &self.sides[s];
            let a = &mut survivors[s];
            for _ in 0..self.recovery {
                let best = (0..side.classes().len())
                    .filter(|&k| a.eliminated[k] > 0)
                    .max_by(|&x, &y| {
                        side.classes()[x]
                            .value(false)
                            .partial_cmp(&side.classes()[y].value(false))
                            .expect("finite values")
                    });
                let Some(k) = best else { break };
                a.eliminated[k] -= 1;
                if side.classes()[k].two_hit {
                    a.damaged[k] += 1;
                } else {
                    a.intact[k] += 1;
                }
                recovered[s] += 1;
            }
            if side.status.civilized() {
                let best = (0..side.classes().len())
                    .filter(|&k| a.damaged[k] > 0)
                    .max_by(|&x, &y| {
                        side.classes()[x]
                            .value(false)
                            .partial_cmp(&side.classes()[y].value(false))
                            .expect("finite values")
                    });
                if let Some(k) = best {
                    a.damaged[k] -= 1;
                    a.intact[k] += 1;
                }
            }
        }
        let loser = 1 - winner;
        let mut survivor_count =
            [0, 1].map(|s| survivors[s].units() + self.sides[s].waiting.units());
        if !self.sides[loser].can_retreat {
            survivor_count[loser] = 0;
            survivors[loser] = Army {
                eliminated: survivors[loser].eliminated,
                ..Army::default()
            };
        }
        let retreats = [0, 1].map(|s| s == loser && survivor_count[s] > 0);
        let leader_death = [0, 1].map(|s| {
            let side = &self.sides[s];
            if side.leader.is_none() {
                return 0.0;
            }
            let wipe = if wiped[s] { 0.5 } else { 0.0 };
            let assassination = if winner == s && side.decline && side.status == Status::Empire {
                0.3
            } else {
                0.0
            };
            1.0 - (1.0 - wipe) * (1.0 - assassination)
        });
        let (a, d) = (&self.sides[ATTACKER], &self.sides[DEFENDER]);
        let nomads_in_barbarian_area = |victor: &Side, horde_side: &Side| {
            victor.nomad && !horde_side.nomad && self.field.barbarian_province
        };
        let horde_captured = if d.horde && winner == ATTACKER {
            nomads_in_barbarian_area(a, d)
                || (!d.has_national(&f.armies[DEFENDER])
                    && (!self.rules.horde_needs_extra_hit || f.leftover[DEFENDER] > 0))
        } else if a.horde && winner == DEFENDER {
            nomads_in_barbarian_area(d, a) || (wiped[ATTACKER] && f.leftover[ATTACKER] > 0)
        } else {
            false
        };
        Settlement {
            winner,
            wiped,
            recovered,
            survivors,
            survivor_count,
            leader_death,
            retreats,
            horde_captured,
            limes_destroyed: self.field.limes && (f.limes_hit || winner == ATTACKER),
        }
    }
}

/// Where one finished battle is written: a trial (leader deaths already drawn) or the exact
/// answer (weighted by the battle's probability).
pub trait Sink {
    fn outcome(&mut self, k: usize);
    fn count(&mut self, k: usize, value: u32);
    fn scalar(&mut self, k: usize, value: f64);
}

impl Sink for Trial {
    fn outcome(&mut self, k: usize) {
        self.outcome = k;
    }
    fn count(&mut self, k: usize, value: u32) {
        self.counts[k] = value;
    }
    fn scalar(&mut self, k: usize, value: f64) {
        self.scalars[k] = value;
    }
}

pub struct Weighted<'a> {
    pub exact: &'a mut Exact,
    pub p: f64,
}

impl Sink for Weighted<'_> {
    fn outcome(&mut self, k: usize) {
        self.exact.outcomes[k] += self.p;
    }
    fn count(&mut self, k: usize, value: u32) {
        self.exact.counts[k].add_mass(value as usize, self.p);
    }
    fn scalar(&mut self, k: usize, value: f64) {
        self.exact.scalars[k] += self.p * value;
    }
}

impl LandBattle {
    /// Writes a finished battle; `leader_killed` is 0/1 in a trial, a probability when exact.
    pub fn record(
        &self,
        f: &Finish,
        st: &Settlement,
        leader_killed: [f64; 2],
        city_taken: f64,
        sink: &mut impl Sink,
    ) {
        let l = self.layout();
        sink.outcome(st.winner);
        for s in 0..2 {
            sink.count(l.eliminated[s], f.armies[s].eliminated_total());
            sink.count(
                l.hits[s],
                f.hits_inflicted[s].min(self.schema().counts[l.hits[s]].max as u32),
            );
            sink.count(
                l.losses[s],
                self.sides[s].stack.total() - st.survivor_count[s],
            );
            sink.count(l.recovered[s], st.recovered[s]);
            let side = &self.sides[s];
            for (name, idx) in &l.lost[s] {
                let mut start = 0;
                let mut end = 0;
                for (k, c) in side.classes().iter().enumerate() {
                    if c.template.name == *name {
                        start += (side.stack.intact[k] + side.stack.damaged[k]) as u32;
                        let waiting = (side.waiting.intact[k] + side.waiting.damaged[k]) as u32;
                        end += if st.survivor_count[s] == 0 {
                            0
                        } else {
                            (st.survivors[s].intact[k] + st.survivors[s].damaged[k]) as u32
                                + waiting
                        };
                    }
                }
                sink.count(*idx, start - end);
            }
            sink.scalar(l.wiped[s], st.wiped[s] as u8 as f64);
            sink.scalar(l.leader_killed[s], leader_killed[s]);
            sink.scalar(l.retreats[s], st.retreats[s] as u8 as f64);
            sink.scalar(l.flips[s], f.armies[s].flips as f64);
        }
        sink.scalar(l.both_wiped, (st.wiped[0] && st.wiped[1]) as u8 as f64);
        for s in 0..2 {
            if let Some(k) = l.submits[s] {
                // Its leader killed with his stack destroyed (the leader's fate is 0/1 in a trial,
                // a probability when exact).
                sink.scalar(k, if st.wiped[s] { leader_killed[s] } else { 0.0 });
            }
        }
        if let Some(k) = l.horde_captured {
            sink.scalar(k, st.horde_captured as u8 as f64);
        }
        if let Some(k) = l.limes_destroyed {
            sink.scalar(k, st.limes_destroyed as u8 as f64);
        }
        if let Some(k) = l.rounds {
            sink.scalar(k, f.rounds as f64);
        }
        if let Some(k) = l.city_taken {
            sink.scalar(k, city_taken);
        }
        if let Some(e) = l.ended_early {
            let after_one = f.rounds == 1;
            sink.scalar(
                e[0],
                (after_one && f.voluntary_retreat.is_none()) as u8 as f64,
            );
            sink.scalar(e[1], (f.voluntary_retreat == Some(DEFENDER)) as u8 as f64);
            sink.scalar(e[2], (f.voluntary_retreat == Some(ATTACKER)) as u8 as f64);
        }
    }
}

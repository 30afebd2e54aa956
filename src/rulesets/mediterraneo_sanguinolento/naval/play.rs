//! Both answers: a Monte Carlo trial samples the segment's dice; the exact answer enumerates them
//! over a chain of merged states.

use super::*;

impl Simulate for NavalBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let mut st = self.start();
        let fin = if self.cell.is_none() && !self.boarding_battle {
            Fin::NONE
        } else {
            loop {
                let (board, codes) = match self.plan(&st) {
                    Plan::Board => (true, [BOARD_CODE; 2]),
                    Plan::Fire(codes, false) => (false, codes),
                    Plan::Fire(codes, true) => {
                        if dice.d(6) <= 3 {
                            (true, [BOARD_CODE; 2])
                        } else {
                            (false, codes)
                        }
                    }
                };
                let mut shots = [Shot { loss: 0, mor: 0 }; 2];
                for s in 0..2 {
                    let d = dice.d(6) as i32;
                    let dm = if self.separate_morale_die {
                        dice.d(6) as i32
                    } else {
                        d
                    };
                    let g = if self.sides[s].greek && !board {
                        dice.d(6) as i32
                    } else {
                        0
                    };
                    shots[s] = self.fire(&st, s, board, codes[s], d, dm, g);
                }
                st = self.apply(&st, board, shots);
                match self.after(&mut st) {
                    After::Done(fin) => break fin,
                    After::Go => {}
                    After::Retreat(s) => {
                        let die = dice.d(6) as i32;
                        if let Some(fin) = self.retreat(&mut st, s, die) {
                            break fin;
                        }
                    }
                }
            }
        };
        let ending = Ending::of(&st, fin);
        let pursued = if self.pursues(&ending) {
            let row = dice.d(6) as i32;
            let col = dice.d(6) as i32;
            self.pursuit_loss(&ending, row, col)
        } else {
            0
        };
        self.record(&st, fin, pursued, out);
    }
}

impl NavalBattle {
    /// Side `s`'s possible shots with their probabilities, for the exact chain, into `out`.
    pub(super) fn shots(
        &self,
        st: &State,
        s: usize,
        board: bool,
        code: Code,
        out: &mut Vec<(Shot, f64)>,
    ) {
        out.clear();
        let morale_dice: &[i32] = if self.separate_morale_die {
            &[1, 2, 3, 4, 5, 6]
        } else {
            &[0]
        };
        let greek_dice: &[i32] = if self.sides[s].greek && !board {
            &[1, 2, 3, 4, 5, 6]
        } else {
            &[0]
        };
        let w = 1.0 / (6 * morale_dice.len() * greek_dice.len()) as f64;
        for d in 1..=6 {
            for &dm in morale_dice {
                for &g in greek_dice {
                    let shot = self.fire(st, s, board, code, d, if dm == 0 { d } else { dm }, g);
                    match out.iter_mut().find(|(x, _)| *x == shot) {
                        Some((_, p)) => *p += w,
                        None => out.push((shot, w)),
                    }
                }
            }
        }
    }

    /// Adds a finished battle to the exact answer: its path now, its ending (merged) for later.
    fn finish(
        &self,
        st: &State,
        fin: Fin,
        p: f64,
        t: &mut Trial,
        ex: &mut Exact,
        endings: &mut FastMap<Ending, f64>,
    ) {
        let ns = self.schema.scalars.len();
        t.clear(0, ns);
        self.record_path(st, fin, t);
        for k in 0..ns {
            ex.scalars[k] += p * t.scalars[k];
        }
        *endings.entry(Ending::of(st, fin)).or_insert(0.0) += p;
    }

    /// Adds the endings, with their pursuit dice, to the exact answer.
    fn settle_endings(&self, endings: FastMap<Ending, f64>, ex: &mut Exact) {
        let (nc, ns) = (self.schema.counts.len(), self.schema.scalars.len());
        let c = &self.columns;
        let mut endings: Vec<(Ending, f64)> = endings.into_iter().collect();
        endings.sort_by_key(|(e, _)| (e.rem, e.cap, e.fin.winner, e.fin.pursue, e.fin.undecided));
        let mut t = Trial::default();
        for (e, p) in endings {
            let mut add = |loss: u32, w: f64| {
                t.clear(nc, ns);
                self.record_losses(&e, loss, &mut t);
                ex.outcomes[t.outcome] += w;
                for k in 0..nc {
                    ex.counts[k].add_mass(t.counts[k] as usize, w);
                }
                // The scalars that depend on the ships left (the path's were added as it ended).
                for k in [c.men, c.pursuit, c.damaged, c.sunk].into_iter().flatten() {
                    ex.scalars[k] += w * t.scalars[k];
                }
            };
            if self.pursues(&e) {
                for row in 1..=6 {
                    for col in 1..=6 {
                        add(self.pursuit_loss(&e, row, col), p / 36.0);
                    }
                }
            } else {
                add(0, p);
            }
        }
    }

    /// The exact answer: the chain of merged states, segment by segment; finished battles are added to
    /// the answer as they finish.
    pub(super) fn solve(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let mut t = Trial::default();
        let start = self.start();
        let mut endings: FastMap<Ending, f64> = FastMap::default();
        if self.cell.is_none() && !self.boarding_battle {
            self.finish(&start, Fin::NONE, 1.0, &mut t, &mut ex, &mut endings);
            self.settle_endings(endings, &mut ex);
            return Ok(ex);
        }
        let (mut a, mut b) = (Vec::with_capacity(216), Vec::with_capacity(216));
        let mut running: FastMap<State, f64> = FastMap::default();
        running.insert(start, 1.0);
        let mut next: FastMap<State, f64> = FastMap::default();
        let mut work = 0u64;
        while !running.is_empty() {
            for (&st, &p) in &running {
                let branches: [(bool, [Code; 2], f64); 2] = match self.plan(&st) {
                    Plan::Board => [(true, [BOARD_CODE; 2], 1.0), (false, [BOARD_CODE; 2], 0.0)],
                    Plan::Fire(codes, false) => [(false, codes, 1.0), (true, codes, 0.0)],
                    // "*": boarding on 1D6 <= 3 (L2667).
                    Plan::Fire(codes, true) => [(true, [BOARD_CODE; 2], 0.5), (false, codes, 0.5)],
                };
                for (board, codes, q) in branches {
                    if q == 0.0 {
                        continue;
                    }
                    self.shots(&st, 0, board, codes[0], &mut a);
                    self.shots(&st, 1, board, codes[1], &mut b);
                    work += (a.len() * b.len()) as u64;
                    for &(sa, pa) in &a {
                        for &(sb, pb) in &b {
                            let mut n = self.apply(&st, board, [sa, sb]);
                            let w = p * q * pa * pb;
                            match self.after(&mut n) {
                                After::Done(fin) => {
                                    self.finish(&n, fin, w, &mut t, &mut ex, &mut endings)
                                }
                                After::Go => *next.entry(n).or_insert(0.0) += w,
                                After::Retreat(s) => {
                                    for die in 1..=6 {
                                        let mut m = n;
                                        match self.retreat(&mut m, s, die) {
                                            Some(fin) => self.finish(
                                                &m,
                                                fin,
                                                w / 6.0,
                                                &mut t,
                                                &mut ex,
                                                &mut endings,
                                            ),
                                            None => *next.entry(m).or_insert(0.0) += w / 6.0,
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if next.len() > STATE_BUDGET || work > WORK_BUDGET {
                return Err(Intractable(format!(
                    "the exact chain outgrew its budget ({} battle states after segment {}, {work} transitions; at most {STATE_BUDGET} and {WORK_BUDGET})",
                    next.len(),
                    next.keys().next().map_or(0, |s| s.seg)
                )));
            }
            std::mem::swap(&mut running, &mut next);
            next.clear();
        }
        self.settle_endings(endings, &mut ex);
        Ok(ex)
    }
}

//! One segment's procedure, the same for both answers: what the segment is, each side's fire for
//! given dice, its effect, the end conditions, a retreat attempt and the pursuit.

use super::*;

impl NavalBattle {
    pub(super) fn start(&self) -> State {
        State {
            rem: [(self.sides[0].n * H) as u32, (self.sides[1].n * H) as u32],
            cap: [0; 2],
            lost: [0; 2],
            seg: 0,
            grappled: false,
            boarded: false,
            last_board: self.boarding_battle,
            retreat: 0,
            forced: 0,
        }
    }

    pub(super) fn morale(&self, st: &State, s: usize, board: bool) -> i32 {
        let side = &self.sides[s];
        (if board {
            side.morale_board
        } else {
            side.morale_ram
        }) - st.lost[s]
    }

    /// What the next segment is (L2663-L2667, A28).
    pub(super) fn plan(&self, st: &State) -> Plan {
        if st.forced > 0 {
            let s = retreater(st);
            let mut codes = [FAILED_RETREAT[3 - st.forced as usize]; 2];
            codes[s] = RETREATER_CODE;
            return Plan::Fire(codes, false);
        }
        if self.boarding_battle || st.grappled {
            return Plan::Board;
        }
        let cell = self.cell.expect("a battle with combat");
        let i = (st.seg % 3) as usize;
        let codes = [cell[0][i], cell[1][i]];
        if codes[0].board || codes[1].board {
            Plan::Board
        } else {
            Plan::Fire(codes, codes[0].star || codes[1].star)
        }
    }

    /// Enemy ships put out of action by `pct`% of side `s`'s factors of one kind.
    fn convert(&self, s: usize, rem: u32, pct: u32, board: bool) -> u32 {
        let (own, enemy) = (&self.sides[s], &self.sides[1 - s]);
        let (t_own, t_enemy, den) = if board {
            (own.board, enemy.board_conv, BOARD_DEN)
        } else {
            (own.ram, enemy.ram_conv, RAM_DEN)
        };
        if pct == 0 || t_own == 0 || rem == 0 {
            return 0;
        }
        let (pct, rem, t_own, t_enemy) = (pct as u128, rem as u128, t_own as u128, t_enemy as u128);
        let (n_own, n_enemy, den, h) = (own.n as u128, enemy.n as u128, den as u128, H as u128);
        let loss = if self.floor_factors {
            // Whole factors of casualties first (A22, literal), then ships.
            let factors = pct * rem * t_own / (100 * h * n_own * den);
            factors * h * n_enemy * den / t_enemy
        } else {
            pct * rem * t_own * n_enemy / (100 * n_own * t_enemy)
        };
        loss.min(u32::MAX as u128) as u32
    }

    /// Enemy ships sunk by Greek fire: `pct`% of the side's ram factors in ships.
    pub(super) fn greek(&self, s: usize, rem: u32, pct: u32) -> u32 {
        let own = &self.sides[s];
        let x =
            pct as u128 * rem as u128 * own.ram as u128 / (100 * own.n as u128 * RAM_DEN as u128);
        let x = if self.floor_factors {
            x / H as u128 * H as u128
        } else {
            x
        };
        x.min(u32::MAX as u128) as u32
    }

    /// Side `s` fires with casualty die `d`, morale die `dm` and Greek fire die `g` (0 = none).
    // The three dice are spelled out: the exact chain enumerates them, a trial samples them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fire(
        &self,
        st: &State,
        s: usize,
        board: bool,
        code: Code,
        d: i32,
        dm: i32,
        g: i32,
    ) -> Shot {
        let side = &self.sides[s];
        let (block, cas_col, mor_col) = if self.block_first_digit {
            (code.cas as i32, code.mor, code.mor)
        } else {
            (
                self.morale(st, s, board).div_euclid(100),
                code.cas,
                code.mor,
            )
        };
        let block = block.clamp(1, 5) as usize;
        let (cas_col, mor_col) = (cas_col.clamp(1, 5) as usize, mor_col.clamp(1, 5) as usize);
        let common = self.rain + if board { 0 } else { side.ram_die };
        let lead = self.lead[s][board as usize];
        let row_cas = (d + common + lead).clamp(0, 7) as usize;
        let row_mor = (dm + common).clamp(0, 7) as usize;
        let mut loss = self.convert(s, st.rem[s], self.cas[block][row_cas][cas_col], board);
        if g > 0 {
            loss += self.greek(s, st.rem[s], data().archery(g));
        }
        Shot {
            loss,
            mor: self.mor[block][row_mor][mor_col],
        }
    }

    /// Both sides' fire applied at once (from the start-of-segment values), then the day's -0.25.
    pub(super) fn apply(&self, st: &State, board: bool, shots: [Shot; 2]) -> State {
        let mut n = *st;
        for s in 0..2 {
            let e = 1 - s;
            let loss = shots[s].loss.min(n.rem[e]);
            n.rem[e] -= loss;
            if board {
                n.cap[e] += loss;
            }
            n.lost[e] += shots[s].mor;
        }
        n.seg += 1;
        if board {
            n.boarded = true;
            n.grappled = self.persists;
        }
        n.last_board = board;
        n.forced = n.forced.saturating_sub(1);
        if n.seg.is_multiple_of(3) {
            n.lost[0] += 25;
            n.lost[1] += 25;
        }
        n
    }

    /// End of battle (§3.2.10), the end of a failed retreat, the day limit and retreat decisions.
    pub(super) fn after(&self, st: &mut State) -> After {
        match (st.rem[0] == 0, st.rem[1] == 0) {
            (true, true) => return After::Done(Fin::NONE),
            (true, false) => return After::Done(Fin::win(1, false)),
            (false, true) => return After::Done(Fin::win(0, false)),
            _ => {}
        }
        let broken = [0, 1].map(|s| self.morale(st, s, st.last_board) <= 0);
        match broken {
            [true, true] => return After::Done(Fin::NONE),
            [true, false] => return After::Done(Fin::win(1, self.sides[1].pursue)),
            [false, true] => return After::Done(Fin::win(0, self.sides[0].pursue)),
            _ => {}
        }
        if st.forced == 0 && st.retreat & 0x30 != 0 {
            let s = retreater(st);
            return After::Done(Fin::win(1 - s, self.sides[1 - s].pursue));
        }
        if st.seg >= self.max_segments {
            return After::Done(Fin {
                undecided: true,
                ..Fin::NONE
            });
        }
        if st.forced > 0 || st.grappled || self.boarding_battle {
            return After::Go;
        }
        let wants = [0, 1].map(|s| {
            let side = &self.sides[s];
            if st.retreat & (1 << s) != 0 {
                return false;
            }
            let low = side
                .retreat_below
                .is_some_and(|m| self.morale(st, s, false) < m);
            let lost = side.retreat_losses.is_some_and(|pct| {
                let lost = side.n * H - st.rem[s] as u64;
                lost as f64 * 100.0 >= pct * (side.n * H) as f64 - 1e-9
            });
            low || lost
        });
        match wants {
            [true, true] => {
                st.retreat |= 0b1111;
                After::Done(Fin::NONE)
            }
            [true, false] => After::Retreat(0),
            [false, true] => After::Retreat(1),
            _ => After::Go,
        }
    }

    /// The retreat attempt of side `s` (A31): 1D6 >= target, +1 with the better naval leader.
    fn retreat_bonus(&self, s: usize) -> i32 {
        let own = self.sides[s].naval_leader.map_or(-1, |t| t as i32);
        let enemy = self.sides[1 - s].naval_leader.map_or(-1, |t| t as i32);
        (own > enemy) as i32
    }

    pub(super) fn retreat(&self, st: &mut State, s: usize, die: i32) -> Option<Fin> {
        st.retreat |= 1 << s;
        if die + self.retreat_bonus(s) >= self.retreat_target {
            st.retreat |= 4 << s;
            Some(Fin::win(1 - s, false))
        } else {
            st.retreat |= 16 << s;
            st.forced = 3;
            None
        }
    }

    /// The loser's ships lost in pursuit, for the row and column dice (§3.1.12).
    pub(super) fn pursuit_loss(&self, e: &Ending, row_die: i32, col_die: i32) -> u32 {
        let w = e.fin.winner as usize;
        let bonus = self.sides[w].naval_leader.is_some() as i32;
        let row = (row_die + bonus + self.rain).clamp(1, 7) as usize;
        let pct = data()
            .pursuit(row, col_die as usize)
            .expect("pursuit entry");
        self.convert(w, e.rem[w], pct, false).min(e.rem[1 - w])
    }

    pub(super) fn pursues(&self, e: &Ending) -> bool {
        e.fin.pursue && e.fin.winner < 2 && {
            let w = e.fin.winner as usize;
            self.sides[w].ram > 0 && e.rem[w] > 0 && e.rem[1 - w] > 0
        }
    }
}

fn retreater(st: &State) -> usize {
    if st.retreat & 0x10 != 0 {
        0
    } else {
        1
    }
}

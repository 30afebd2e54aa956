//! After the battle: the winner's pursuit (factors, the pursuit table, casualties on the loser).

use super::{Choices, Engine, State};
use crate::rulesets::mediterraneo_sanguinolento::army::LeaderKind;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

impl Engine {
    /// Factors the winner pursues with (L3580-L3584; IL at half).
    pub fn pursuit_factors(&self, st: &State, k: usize) -> f64 {
        let mut t = 0.0;
        for (i, s) in self.sides[k].slots.iter().enumerate() {
            t += st.men[k][i] / s.men_per_unit * s.factor * s.pursuit;
        }
        t
    }

    /// Pursuit: `row_die` and `col_die` (0 = column 1) of the 2D6, casualties on the loser.
    pub fn pursue(&self, st: &mut State, winner: usize, row_die: i32, col_die: i32) {
        let pct = self.pursuit_pct(winner, row_die, col_die);
        self.pursue_pct(st, winner, pct);
    }

    /// The pursuit table's percentage for these dice (`col_die` 0 = column 1).
    pub fn pursuit_pct(&self, winner: usize, row_die: i32, col_die: i32) -> u8 {
        let mut row = row_die;
        if self.sides[winner].leader == LeaderKind::Cavalry {
            row += 1;
        }
        if self.rules.rain {
            row -= 1;
        }
        let row = row.clamp(1, 7) as usize;
        let col = if col_die == 0 { 1 } else { col_die as usize };
        data().pursuit(row, col).unwrap_or(0) as u8
    }

    /// Every pursuit percentage with its probability (column 1 only, or a rolled column).
    pub fn pursuit_choices(&self, winner: usize, column_one: bool) -> Choices<u8, 36> {
        let mut c = Choices::new();
        let cols: &[i32] = if column_one {
            &[0]
        } else {
            &[1, 2, 3, 4, 5, 6]
        };
        for row in 1..=6 {
            for &col in cols {
                c.add(
                    self.pursuit_pct(winner, row, col),
                    1.0 / (6 * cols.len()) as f64,
                );
            }
        }
        c
    }

    /// The pursuit's casualties: `pct` of the winner's pursuit factors, on the loser.
    pub fn pursue_pct(&self, st: &mut State, winner: usize, pct: u8) {
        let loser = Self::enemy(winner);
        let cas = pct as f64 / 100.0 * self.pursuit_factors(st, winner);
        // Pursuit falls on every man of the loser, detachment included.
        let arrived = st.arrived[loser];
        st.arrived[loser] = true;
        self.allocate(st, loser, cas, None);
        st.arrived[loser] = arrived;
    }
}

//! Phase I, Mortality (L246-L270): Imminent wars activate, one mortality chit is drawn.

use super::state::*;
use super::turn::Game;
use crate::game_log;

impl Game<'_> {
    pub fn mortality(&mut self) {
        self.activate_imminent();
        for w in self.s.wars.iter_mut() {
            w.used = 0;
            w.prosecuted = false;
        }
        for s in self.s.senators.iter_mut() {
            s.back_this_turn = false;
            s.bar = false;
        }
        self.s.land_bill_passed_this_turn = false;
        let n = self.draw_chits(1);
        for k in 0..n {
            let id = self.s.chits[k] as usize;
            if id < self.s.senators.len() {
                game_log!(self.log, "  mortality chit {}", id + 1);
                self.kill(id, "mortality");
            } else {
                game_log!(self.log, "  mortality chit: blank");
            }
        }
    }

    /// In each series the Imminent card lowest in the sequence becomes Active, or every
    /// Imminent card under the "all" reading.
    fn activate_imminent(&mut self) {
        let c = &self.m.cards;
        for series in 0..c.series.len() as u8 {
            loop {
                let next = (0..c.wars.len())
                    .filter(|&w| {
                        c.wars[w].series == series && self.s.wars[w].status == WarStatus::Imminent
                    })
                    .min_by_key(|&w| c.wars[w].series_index);
                let Some(w) = next else { break };
                self.s.wars[w].status = WarStatus::Active;
                game_log!(
                    self.log,
                    "  {} moves from Imminent to Active",
                    c.wars[w].name
                );
                if !self.m.rules.imminent_all {
                    break;
                }
            }
        }
    }
}

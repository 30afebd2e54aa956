//! Phase IV, Population (L457-L473): Unrest rises for Unprosecuted wars and droughts, then the
//! HRAO's State of the Republic speech on the Population table.

use super::state::*;
use super::turn::Game;
use super::PEOPLE_REVOLT;
use crate::game_log;

impl Game<'_> {
    /// Drought effects in play: Active drought wars (A-11; also Inactive ones under the "in-play"
    /// reading or when the card says so) and Drought events (L465-L469).
    pub fn droughts(&self) -> u32 {
        let c = &self.m.cards;
        let wars = (0..c.wars.len())
            .filter(|&w| {
                c.wars[w].drought
                    && match self.s.wars[w].status {
                        WarStatus::Active => true,
                        WarStatus::Inactive | WarStatus::Imminent => {
                            self.m.rules.drought_counts_inactive
                                || c.wars[w].drought_even_if_inactive
                        }
                        _ => false,
                    }
            })
            .count() as u32;
        wars + self.s.env.drought_events
    }

    pub fn unprosecuted_wars(&self) -> u32 {
        self.s
            .wars
            .iter()
            .filter(|w| w.status == WarStatus::Active && w.unprosecuted)
            .count() as u32
    }

    /// The Unrest added at the start of the Population phase (L457-L469, T07).
    pub fn unrest_increase(&self) -> i32 {
        (self.unprosecuted_wars() + self.droughts()) as i32
    }

    pub fn population(&mut self) {
        let rise = self.unrest_increase();
        self.change_unrest(rise);
        let hrao = self.s.hrao();
        let pop = if hrao == NONE {
            0
        } else {
            self.s.senators[hrao as usize].pop
        };
        let omens = self.s.env.evil_omens as i32 * self.m.rules.evil_omen_modifier;
        let roll = (self.dice.d(6) + self.dice.d(6) + self.dice.d(6)) as i32;
        let total = roll - self.s.unrest + pop - omens;
        self.speech_result(total);
        game_log!(self.log, "  population: Unrest +{rise}; speech 3d6 {roll} − Unrest + Popularity {pop} = {total} → Unrest {}", self.s.unrest);
    }

    /// Applies the Population table's row for a modified total (L473).
    pub fn speech_result(&mut self, total: i32) {
        let row = self.m.cards.population_row(total);
        let (unrest, no_recruitment, shortage, mob, revolt) = (
            row.unrest,
            row.no_recruitment,
            row.manpower_shortage,
            row.mob,
            row.people_revolt,
        );
        self.change_unrest(unrest);
        if no_recruitment {
            self.s.env.no_recruitment = true;
        }
        if shortage {
            self.s.env.manpower_shortage += 1;
        }
        if mob {
            game_log!(self.log, "  a mob attacks the Senate: 6 chits");
            let k = self.draw_chits(6);
            for j in 0..k {
                let i = self.s.chits[j] as usize;
                if i < self.s.senators.len() && self.s.senators[i].in_rome() {
                    self.kill(i, "the mob");
                }
            }
        }
        if revolt {
            game_log!(self.log, "  THE PEOPLE REVOLT");
            self.rome_falls(PEOPLE_REVOLT);
        }
    }
}

//! Calamities (XIII.E, XIV.J; digest §4.8) under the placeholder model of abstraction.toml
//! `[calamities]`: the 12 calamities and which Administration cards carry one are on the cards
//! and the Calamities player aid, not in the text. Here a card carries a calamity with
//! `card_chance`; a nation picking one card of a set of k cards keeps one without a calamity
//! when it can, so it suffers one with `card_chance`^k; the card a bankruptcy draws carries one
//! with `card_chance`. A calamity is Heresy with `heresy_share`, and only Heresy acts: the other
//! calamities are counted (the collapse test's +1 per calamity this turn, XIV.K) and do nothing
//! else.
//!
//! Heresy of a calamity (XXXI.C): a Heresy + marker of the victim's religion on an Area where it
//! holds a province, drawn at random, never its capital's Area (immune to a calamity heresy; the
//! horde's Area stands in for a Kingdom without a capital); Pagans are immune (no heresy of
//! theirs exists). The marker ages as an event's (religion.rs) and is heretical to every nation
//! of its religion.

use super::files::AbstractionFile;
use super::load::{bad, Loader};
use super::scenario::Religion;
use super::state::NO_PROVINCE;
use super::turn::Play;
use crate::dice::Dice;
use crate::error::Result;
use crate::game::GameLog;
use crate::game_log;

/// abstraction.toml `[calamities]` as the game reads it; both chances 0 without the table.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Calamities {
    /// The chance an Administration card carries a calamity.
    pub card_chance: f64,
    /// The share of calamities that are Heresy.
    pub heresy_share: f64,
}

impl Calamities {
    /// The chance a nation keeping one card of a set of `cards` suffers a calamity: it keeps one
    /// without a calamity when the set holds one.
    pub fn p_calamity(&self, cards: u32) -> f64 {
        self.card_chance.powi(cards.max(1) as i32)
    }
}

impl Loader<'_> {
    /// `[calamities]`: two probabilities.
    pub(super) fn calamities(&mut self, ab: &AbstractionFile) -> Result<Calamities> {
        let Some(c) = &ab.calamities else {
            return Ok(Calamities::default());
        };
        self.stand_in("calamities", &c.provenance, &c.why)?;
        for (field, value, what) in [
            (
                "calamities.card_chance",
                c.card_chance,
                "the chance an Administration card carries a calamity",
            ),
            (
                "calamities.heresy_share",
                c.heresy_share,
                "the share of calamities that are Heresy",
            ),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err(bad(
                    self.ab,
                    field,
                    &value.to_string(),
                    format!("a probability 0..1 ({what})"),
                ));
            }
        }
        Ok(Calamities {
            card_chance: c.card_chance,
            heresy_share: c.heresy_share,
        })
    }
}

impl Play<'_> {
    /// The Administration card `n` keeps from a set of `cards` (or the one a bankruptcy draws,
    /// `cards` = 1) may carry a calamity; a Heresy among them acts.
    pub fn card_calamity(&mut self, n: usize, cards: u32, dice: &mut Dice, log: &mut dyn GameLog) {
        let c = self.game.scenario.calamities;
        if c.card_chance <= 0.0 || dice.uniform() >= c.p_calamity(cards) {
            return;
        }
        let turn = self.st.turn;
        let nation = &mut self.st.nations[n];
        if nation.calamity_turn != turn {
            nation.calamity_turn = turn;
            nation.calamities = 0;
        }
        nation.calamities = nation.calamities.saturating_add(1);
        self.st.counters.calamities += 1;
        if dice.uniform() < c.heresy_share {
            self.calamity_heresy(n, dice, log);
        } else {
            game_log!(
                log,
                "{} suffers a calamity (no effect here)",
                self.game.name(n)
            );
        }
    }

    /// Calamities `n` suffered this turn (the collapse test's +1 each, XIV.K).
    pub fn calamities_this_turn(&self, n: usize) -> u8 {
        let nation = &self.st.nations[n];
        if nation.calamity_turn == self.st.turn {
            nation.calamities
        } else {
            0
        }
    }

    /// The Heresy calamity on `n`: Heresy + of its religion on a random Area where it holds a
    /// province, not its capital's; nothing for a Pagan or where no such Area exists.
    pub fn calamity_heresy(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        let religion = self.religion_of(n);
        if matches!(religion, Religion::Pagan | Religion::Unstated) {
            return;
        }
        let nation = &self.st.nations[n];
        let seat = if nation.capital != NO_PROVINCE {
            nation.capital
        } else {
            nation.horde
        };
        let immune = (seat != NO_PROVINCE).then(|| s.provinces[seat as usize].area as usize);
        let mut chosen = None;
        let mut seen = 0u64;
        for a in 0..s.areas.len() {
            if Some(a) == immune {
                continue;
            }
            if s.areas[a]
                .provinces
                .iter()
                .any(|&p| self.st.owner[p as usize] == n as u8)
            {
                seen += 1;
                if dice.below(seen) == 0 {
                    chosen = Some(a);
                }
            }
        }
        let Some(a) = chosen else { return };
        self.st.heresy[a] = 2;
        self.st.heresy_religion[a] = religion;
        self.st.counters.calamity_heresies += 1;
        game_log!(
            log,
            "calamity: a {religion:?} heresy in {} strikes {} (Heresy +)",
            s.areas[a].name,
            g.name(n)
        );
    }
}

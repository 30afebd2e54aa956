//! Calamities (XIII.E, XIV.J; digest §4.8) under the placeholder model of abstraction.toml
//! `[calamities]`: the 12 calamities and which Administration cards carry one are on the cards
//! and the Calamities player aid, not in the text. Here a card carries a calamity with
//! `card_chance`; a nation picking one card of a set of k cards keeps one without a calamity
//! when it can, so it suffers one with `card_chance`^k; the card a bankruptcy draws carries one
//! with `card_chance`. A calamity is Heresy with `heresy_share`, else one of the `others` rows,
//! each as likely. Every calamity counts for the collapse test's +1 per calamity this turn
//! (XIV.K).
//!
//! Heresy of a calamity (XXXI.C): a Heresy + marker of the victim's religion on an Area where it
//! holds a province, drawn at random, never its capital's Area (immune to a calamity heresy; the
//! horde's Area stands in for a Kingdom without a capital); Pagans are immune (no heresy of
//! theirs exists). The marker ages as an event's (religion.rs) and is heretical to every nation
//! of its religion.
//!
//! The other calamities' effects are not in the text; each row gives one of the mechanics the
//! rulebook says calamities drive: revolts (XVI.A, the revolt procedure of revolts.rs), ageing
//! (VI.E), a Decline level (VI.F), gold or units lost, and the Usurper. The Usurper (XV.D: Rome
//! and Byzantium in Decline test a D2 after their Purchases, a failure brings it): the victim's
//! federates may break their Foedus at once (XXVIII.H; their policy's `foedus_break`, a random
//! player's D2), and the row's revolts strike it (a placeholder). A row marked
//! `heresy_doubles` doubles its amount when the victim holds land it sees as heretical (XXXI.C:
//! heresy aggravates Intolerance and the Usurper; how much is a placeholder).

use super::files::AbstractionFile;
use super::load::{bad, Loader};
use super::policy::Policy;
use super::politics::Bond;
use super::procedures;
use super::scenario::Religion;
use super::state::NO_PROVINCE;
use super::turn::Play;
use crate::dice::Dice;
use crate::error::Result;
use crate::game::GameLog;
use crate::game_log;

/// abstraction.toml `[calamities]` as the game reads it; both chances 0 without the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calamities {
    /// The chance an Administration card carries a calamity.
    pub card_chance: f64,
    /// The share of calamities that are Heresy.
    pub heresy_share: f64,
    /// The other calamities, each as likely (none: they do nothing but count).
    pub others: Vec<Calamity>,
    /// The row the Romans' Usurper test brings (XV.D), if the table has one.
    pub usurper: Option<usize>,
}

/// What a calamity other than Heresy does (its row of `[calamities] others`).
#[derive(Clone, Debug, PartialEq)]
pub struct Calamity {
    pub name: String,
    pub effect: Effect,
    pub amount: u8,
    pub heresy_doubles: bool,
}

/// The mechanics a calamity may drive (the rulebook's hooks; which calamity drives which, and
/// how much, is the placeholder table's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Revolt,
    Age,
    Decline,
    Gold,
    Units,
    Usurper,
}

/// The `effect` words of `[calamities] others`.
pub const EFFECTS: [(&str, Effect); 6] = [
    ("revolt", Effect::Revolt),
    ("age", Effect::Age),
    ("decline", Effect::Decline),
    ("gold", Effect::Gold),
    ("units", Effect::Units),
    ("usurper", Effect::Usurper),
];

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
        let mut others = Vec::with_capacity(c.others.len());
        for (i, row) in c.others.iter().enumerate() {
            let field = |f: &str| format!("calamities.others[{i}].{f}");
            let Some(&(_, effect)) = EFFECTS.iter().find(|e| e.0 == row.effect) else {
                let allowed: Vec<&str> = EFFECTS.iter().map(|e| e.0).collect();
                return Err(bad(
                    self.ab,
                    field("effect"),
                    &row.effect,
                    allowed.join(", "),
                ));
            };
            if row.amount > 20 {
                return Err(bad(
                    self.ab,
                    field("amount"),
                    &row.amount.to_string(),
                    "0..20",
                ));
            }
            if others.iter().any(|o: &Calamity| o.name == row.name) {
                return Err(bad(
                    self.ab,
                    field("name"),
                    &row.name,
                    "a name not used before",
                ));
            }
            self.row_stand_in(
                &format!("calamities.others[{i}]"),
                &row.name,
                &row.provenance,
                &row.why,
            )?;
            others.push(Calamity {
                name: row.name.clone(),
                effect,
                amount: row.amount as u8,
                heresy_doubles: row.heresy_doubles,
            });
        }
        let usurpers = others
            .iter()
            .filter(|o| o.effect == Effect::Usurper)
            .count();
        if usurpers > 1 {
            return Err(bad(
                self.ab,
                "calamities.others",
                &format!("{usurpers} usurper rows"),
                "one row with effect = \"usurper\" at most",
            ));
        }
        let usurper = others.iter().position(|o| o.effect == Effect::Usurper);
        Ok(Calamities {
            card_chance: c.card_chance,
            heresy_share: c.heresy_share,
            others,
            usurper,
        })
    }
}

impl Play<'_> {
    /// The Administration card `n` keeps from a set of `cards` (or the one a bankruptcy draws,
    /// `cards` = 1) may carry a calamity; a Heresy among them acts.
    pub fn card_calamity(&mut self, n: usize, cards: u32, dice: &mut Dice, log: &mut dyn GameLog) {
        let c = &self.game.scenario.calamities;
        if c.card_chance <= 0.0 || dice.uniform() >= c.p_calamity(cards) {
            return;
        }
        self.count_calamity(n);
        if dice.uniform() < c.heresy_share {
            self.calamity_heresy(n, dice, log);
        } else if c.others.is_empty() {
            game_log!(
                log,
                "{} suffers a calamity (no effect here)",
                self.game.name(n)
            );
        } else {
            let row = dice.below(c.others.len() as u64) as usize;
            self.calamity(n, row, dice, log);
        }
    }

    /// One more calamity for `n` this turn (the collapse test's count).
    fn count_calamity(&mut self, n: usize) {
        let turn = self.st.turn;
        let nation = &mut self.st.nations[n];
        if nation.calamity_turn != turn {
            nation.calamity_turn = turn;
            nation.calamities = 0;
        }
        nation.calamities = nation.calamities.saturating_add(1);
        self.st.counters.calamities += 1;
    }

    /// Whether `n` holds land it sees as heretical (XXXI.C).
    fn holds_heretical_land(&self, n: usize) -> bool {
        let s = &self.game.scenario;
        (0..s.areas.len()).any(|a| {
            self.heretical(n, a)
                && s.areas[a]
                    .provinces
                    .iter()
                    .any(|&p| self.st.owner[p as usize] == n as u8)
        })
    }

    /// The calamity of row `row` of `[calamities] others` strikes `n`.
    pub fn calamity(&mut self, n: usize, row: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let c = &g.scenario.calamities.others[row];
        let doubled = c.heresy_doubles && self.holds_heretical_land(n);
        let amount = c.amount << doubled as u8;
        game_log!(
            log,
            "{} suffers the calamity {} ({:?} {amount}{})",
            g.name(n),
            c.name,
            c.effect,
            if doubled { ", doubled by heresy" } else { "" }
        );
        self.st.counters.calamity_effects += 1;
        match c.effect {
            Effect::Revolt => {
                for _ in 0..amount {
                    self.start_revolt(n, dice, log);
                }
            }
            Effect::Age => self.age_up(n, amount, dice, log),
            Effect::Decline => {
                for _ in 0..amount {
                    self.deepen_decline(n, dice, log);
                }
            }
            Effect::Gold => {
                let lost = (amount as i32).min(self.st.nations[n].treasury.max(0));
                self.st.spend_gold(n, lost);
            }
            Effect::Units => {
                // From its biggest stack (the first such Area).
                let areas = g.scenario.areas.len();
                let biggest =
                    (0..areas).max_by_key(|&a| (self.st.count(n, a), std::cmp::Reverse(a)));
                if let Some(a) = biggest {
                    self.st.lose_cheapest(n, a, amount as u32);
                }
            }
            Effect::Usurper => {
                self.st.counters.usurpers += 1;
                self.usurper_frees_federates(n, dice, log);
                for _ in 0..amount {
                    self.start_revolt(n, dice, log);
                }
            }
        }
    }

    /// XXVIII.H: a Usurper seizes power in `n`: each federate of `n` may break its Foedus at
    /// once (its policy's `foedus_break`; a random player's D2).
    fn usurper_frees_federates(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        for m in 0..self.st.nations.len() {
            let ns = &self.st.nations[m];
            if ns.bond != Bond::Federate || ns.lord != n as u8 || self.st.status(m).is_none() {
                continue;
            }
            let breaks = match self.policy(m) {
                Policy::Scripted(p) => p.foedus_break,
                Policy::Random => procedures::d2(dice),
            };
            if breaks {
                self.end_foedus(m, log);
            }
        }
    }

    /// XV.D: Rome or Byzantium in Decline tests a D2 after its Purchases; a failure brings the
    /// Usurper calamity (a calamity of the turn), when the table has one.
    pub fn usurper_test(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let Some(row) = g.scenario.calamities.usurper else {
            return;
        };
        if !g.roman[n]
            || self.st.status(n).is_none()
            || self.st.nations[n].decline == procedures::Decline::None
        {
            return;
        }
        self.st.counters.usurper_tests += 1;
        if procedures::d2(dice) {
            return;
        }
        self.count_calamity(n);
        self.calamity(n, row, dice, log);
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

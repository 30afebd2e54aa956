//! Phase VII, Revolution (L807-L841): statesmen and concessions played, the hand limit, and each
//! victorious general laying down his command or rebelling.

use super::policy::Style;
use super::senate::{rebellion_plan, rebels_with};
use super::state::*;
use super::turn::Game;
use crate::game_log;

/// Plays what a faction can from its hand (L807-L809, L1126; A-36): statesmen whose family card
/// is in the faction, unaligned, or not in play; concessions to the senator with the fewest.
pub fn play_cards(g: &mut Game, f: usize) {
    let one = g.m.rules.revolution_one_card && g.s.turn > 0;
    let mut played = 0;
    for st in 0..g.s.statesmen.len() {
        if one && played > 0 {
            break;
        }
        if g.s.statesmen[st] != StatesmanStatus::Hand(f as u8) {
            continue;
        }
        let card = &g.m.cards.statesmen[st];
        let i = card.family as usize;
        let fam = g.s.senators[i];
        let ok = fam.statesman == NONE
            && match fam.place {
                Place::Faction(x) => x as usize == f,
                Place::Forum | Place::Curia | Place::Deck => true,
            };
        if !ok {
            continue;
        }
        if fam.place == Place::Forum {
            // The unaligned family card joins with him, keeping what it has (L356).
            g.s.senators[i].place = Place::Faction(f as u8);
            g.s.senators[i].at = At::Rome;
        } else if fam.place != Place::Faction(f as u8) {
            g.reset_senator(i);
            g.s.senators[i].family_in_deck = fam.place == Place::Deck;
            g.s.senators[i].place = Place::Faction(f as u8);
            g.s.senators[i].at = At::Rome;
            g.s.senators[i].inf = 0;
        }
        let s = &mut g.s.senators[i];
        s.statesman = st as u8;
        s.mil = card.mil;
        s.ora = card.ora;
        s.loy = card.loy;
        s.inf = s.inf.max(card.inf as i32);
        s.pop = s.pop.max(card.pop as i32);
        g.s.statesmen[st] = StatesmanStatus::Played;
        played += 1;
        game_log!(
            g.log,
            "  Faction {} plays the statesman {}",
            f + 1,
            card.name
        );
    }
    for c in 0..g.s.concessions.len() {
        if one && played > 0 {
            break;
        }
        if g.s.concessions[c] != ConcessionStatus::Hand(f as u8) {
            continue;
        }
        let holder = (0..g.s.senators.len())
            .filter(|&i| {
                g.s.senators[i].place == Place::Faction(f as u8)
                    && !matches!(g.s.senators[i].at, At::Rebel | At::Captive(_))
            })
            .min_by_key(|&i| {
                let held =
                    g.s.concessions
                        .iter()
                        .filter(|&&x| x == ConcessionStatus::Held(i as u8))
                        .count();
                (held, std::cmp::Reverse(g.s.senators[i].inf), i)
            });
        if let Some(i) = holder {
            g.s.concessions[c] = ConcessionStatus::Held(i as u8);
            played += 1;
        }
    }
}

impl Game<'_> {
    pub fn revolution(&mut self) {
        let start = self.s.hrao_faction as usize;
        for k in 0..FACTIONS {
            let f = (start + k) % FACTIONS;
            play_cards(self, f);
            self.hand_limit(f);
        }
        for k in 0..FACTIONS {
            let f = (start + k) % FACTIONS;
            for a in 0..MAX_ARMIES {
                let army = self.s.armies[a];
                if army.used
                    && army.victorious
                    && army.commander != NONE
                    && self.s.senators[army.commander as usize].faction() == Some(f)
                {
                    self.victorious_general(a);
                }
            }
        }
        self.check_influence_35();
    }

    /// Five Faction cards at most (L811): intrigue cards go first.
    fn hand_limit(&mut self, f: usize) {
        let statesmen = self
            .s
            .statesmen
            .iter()
            .filter(|&&x| x == StatesmanStatus::Hand(f as u8))
            .count();
        let concessions = self
            .s
            .concessions
            .iter()
            .filter(|&&x| x == ConcessionStatus::Hand(f as u8))
            .count();
        let mut total = statesmen
            + concessions
            + self.s.factions[f]
                .intrigue
                .iter()
                .map(|&n| n as usize)
                .sum::<usize>();
        for k in 0..16 {
            while total > 5 && self.s.factions[f].intrigue[k] > 0 {
                self.s.factions[f].intrigue[k] -= 1;
                total -= 1;
            }
        }
        for st in 0..self.s.statesmen.len() {
            if total > 5 && self.s.statesmen[st] == StatesmanStatus::Hand(f as u8) {
                self.s.statesmen[st] = StatesmanStatus::Gone;
                total -= 1;
            }
        }
    }

    /// A victorious general lays down his command or rebels (L815-L829), by the Neutral test of
    /// L1357-L1359 scaled by his faction's `rebel_aggression`.
    fn victorious_general(&mut self, a: usize) {
        let army = self.s.armies[a];
        let g = army.commander as usize;
        let f = self.s.senators[g].faction().unwrap_or(0);
        let pol = self.policy(f);
        if self.s.rebel != NONE {
            self.army_home(a);
            return;
        }
        let mut legions = 0;
        let mut loyal = 0;
        for l in &self.s.legions {
            if l.at == LegionAt::Army(a as u8) {
                legions += 1;
                loyal += (l.veteran && l.loyal == g as u8) as u32;
            }
        }
        let total = self.s.legions_raised();
        let money = self.s.senators[g].talents + self.s.factions[f].treasury;
        let threshold = self.m.setup.loyalty_threshold[self.s.era as usize] as u32;
        let aggression = if pol.style == Style::Random {
            self.dice.uniform() * 2.0
        } else {
            pol.rebel_aggression
        };
        let (pays, may) = rebellion_plan(legions, loyal, total, money, threshold, aggression);
        if !may {
            self.army_home(a);
            return;
        }
        // Roll for each legion not loyal to him (L821), +1 each if he pays 1 T a legion.
        let mut followers = loyal;
        if pays {
            let cost = (legions - loyal) as i32;
            let own = self.s.senators[g].talents.min(cost);
            self.senator_spends(g, own);
            self.faction_spends(f, cost - own);
        }
        let mut follows = [false; MAX_UNITS as usize];
        for k in 0..self.s.legions.len() {
            let l = self.s.legions[k];
            if l.at != LegionAt::Army(a as u8) {
                continue;
            }
            follows[k] =
                (l.veteran && l.loyal == g as u8) || self.dice.d(6) + pays as u32 >= threshold;
            followers += (follows[k] && !(l.veteran && l.loyal == g as u8)) as u32;
        }
        if !rebels_with(followers, total, aggression) {
            game_log!(
                self.log,
                "  {} lays down his command ({followers} of {total} legions would follow)",
                self.name(g)
            );
            self.army_home(a);
            return;
        }
        game_log!(
            self.log,
            "  {} REBELS with {followers} of {total} legions",
            self.name(g)
        );
        self.s.rebellions += 1;
        for k in 0..self.s.legions.len() {
            if self.s.legions[k].at == LegionAt::Army(a as u8) {
                // Legions that fail the roll go back to the Senate.
                self.s.legions[k].at = if follows[k] {
                    LegionAt::Rebel
                } else {
                    LegionAt::Rome
                };
            }
        }
        self.s.fleets_rome += army.fleets;
        if army.moh != NONE {
            // A Master of Horse rebels only with his Dictator's faction (L817).
            self.s.senators[army.moh as usize].at = At::Rome;
        }
        self.s.armies[a] = Army::empty();
        self.s.rebel = g as u8;
        // His faction follows him (L825): out of Rome, offices and posts lost.
        for i in 0..self.s.senators.len() {
            if self.s.senators[i].place == Place::Faction(f as u8)
                && !matches!(self.s.senators[i].at, At::Captive(_))
            {
                if i != g {
                    self.leave_post(i);
                }
                self.s.senators[i].office = Office::None;
                self.s.senators[i].at = At::Rebel;
                self.s.senators[i].knights = 0;
            }
        }
        for c in 0..self.s.concessions.len() {
            if let ConcessionStatus::Held(i) = self.s.concessions[c] {
                if self.s.senators[i as usize].at == At::Rebel {
                    self.s.concessions[c] = ConcessionStatus::Forum;
                }
            }
        }
        // Veterans loyal to any rebel join him, wherever they are (L777, L833).
        for k in 0..self.s.legions.len() {
            let l = self.s.legions[k];
            if l.veteran
                && l.loyal != NONE
                && self.s.senators[l.loyal as usize].at == At::Rebel
                && l.at != LegionAt::Unraised
            {
                self.s.legions[k].at = LegionAt::Rebel;
            }
        }
    }
}

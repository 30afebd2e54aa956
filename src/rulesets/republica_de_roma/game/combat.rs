//! Phase VI, Combat (L745-L803; digest §3.5-§3.10): each army fights in dispatch order through
//! the battle code's own resolution ([`resolve_roll`], [`civil_losses`], the mortality cup), then
//! the Unprosecuted check and the four-wars defeat.

use super::super::battle::{
    resolve_roll, special_numbers, unrest, DEFEAT, DISASTER, STALEMATE, STANDOFF, VICTORY,
};
use super::super::civil::civil_losses;
use super::senate::REBEL_WAR;
use super::state::*;
use super::turn::Game;
use super::{FOUR_WARS, REBEL_WINS};
use crate::game_log;

const RESULT: [&str; 5] = ["Victory", "Stalemate", "Defeat", "Disaster", "Standoff"];

impl Game<'_> {
    pub fn combat(&mut self) {
        for a in 0..MAX_ARMIES {
            let army = self.s.armies[a];
            if !army.used || army.commander == NONE {
                continue;
            }
            if army.war == REBEL_WAR {
                self.civil_battle(a);
            } else if self.s.wars[army.war as usize].status == WarStatus::Gone {
                // Defeated by an earlier army this turn: no battle.
                self.army_home(a);
            } else {
                self.fight(a);
            }
            if self.over() {
                return;
            }
        }
        if self.s.rebel != NONE && !self.s.armies.iter().any(|a| a.used && a.war == REBEL_WAR) {
            // The Senate could not send forces against the rebel: he wins (L831).
            let f = self.s.senators[self.s.rebel as usize]
                .faction()
                .unwrap_or(0) as u8;
            game_log!(self.log, "  nobody marches against the rebel");
            if self.s.active_wars() < 4 {
                self.finish(REBEL_WINS, f);
                return;
            }
        }
        // Unprosecuted (L796-L801, A-12).
        for w in 0..self.s.wars.len() {
            let war = &mut self.s.wars[w];
            if war.status == WarStatus::Active {
                if war.prosecuted {
                    if !self.m.rules.unprosecuted_stays {
                        war.unprosecuted = false;
                    }
                } else {
                    war.unprosecuted = true;
                }
            }
        }
        if self.s.active_wars() >= 4 && !self.m.rules.four_wars_end_of_turn {
            game_log!(
                self.log,
                "  {} Active wars at the end of the Combat phase",
                self.s.active_wars()
            );
            self.rome_falls(FOUR_WARS);
        }
    }

    /// The MIL a commander brings to this battle (Pompey rolls his).
    fn battle_mil(&mut self, i: usize) -> u32 {
        let s = &self.s.senators[i];
        if s.statesman != NONE {
            if let Some(r) = self.m.cards.statesmen[s.statesman as usize].mil_roll {
                return r.roll(self.dice).max(0) as u32;
            }
        }
        s.mil as u32
    }

    /// Whether the commander cancels the war's own Disaster and Standoff numbers.
    fn cancels(&self, i: usize, w: usize) -> bool {
        let st = self.s.senators[i].statesman;
        st != NONE && {
            let card = &self.m.cards.statesmen[st as usize];
            let war = &self.m.cards.wars[w];
            card.cancels_wars & (1 << w) != 0 || card.cancels_series & (1 << war.series) != 0
        }
    }

    fn halves(&self, i: usize) -> Option<bool> {
        let st = self.s.senators[i].statesman;
        (st != NONE && self.m.cards.statesmen[st as usize].halves_losses)
            .then_some(self.m.rules.halved_round_up)
    }

    /// One army's battles against its war this turn: naval first if the war has a fleet, then
    /// land if the fleet was beaten and the army has legions and the fleet support.
    fn fight(&mut self, a: usize) {
        let w = self.s.armies[a].war as usize;
        let (_, naval) = self.strength(w);
        if naval > 0 {
            self.battle(a, true);
            if !self.s.armies[a].used || self.s.wars[w].status == WarStatus::Gone {
                return;
            }
            if !self.s.wars[w].naval_victory {
                return;
            }
        }
        let (reg, vet) = self.s.legions_at(LegionAt::Army(a as u8));
        let support = self.m.cards.wars[w].fleet_support;
        if reg + vet > 0 && self.s.armies[a].fleets >= support {
            self.battle(a, false);
        }
    }

    fn battle(&mut self, a: usize, naval: bool) {
        let army = self.s.armies[a];
        let w = army.war as usize;
        let c = &self.m.cards;
        let war = &c.wars[w];
        let (land_eff, naval_eff) = self.strength(w);
        let (reg, vet) = self.s.legions_at(LegionAt::Army(a as u8));
        let troops = if naval { army.fleets } else { reg + 2 * vet };
        let mil = self.battle_mil(army.commander as usize);
        let moh = if army.moh != NONE {
            self.s.senators[army.moh as usize].mil as u32
        } else {
            0
        };
        let used_mil = if self.m.rules.combined_cap {
            (mil + moh).min(troops)
        } else {
            mil.min(troops) + moh.min(troops)
        };
        let enemy = if naval { naval_eff } else { land_eff } as i32;
        let omens = self.s.env.evil_omens as i32 * self.m.rules.evil_omen_modifier;
        let (black, w1, w2) = (self.dice.d(6), self.dice.d(6), self.dice.d(6));
        let roll = (black + w1 + w2) as usize;
        // Ally Deserts and Enemy's Ally Deserts change the war's strength on even / odd rolls.
        let mut swing = 0i32;
        let amount = |side: u8| {
            if side == 2 {
                (w1 + w2) as i32
            } else {
                black as i32
            }
        };
        if self.s.env.ally_deserts > 0 && roll.is_multiple_of(2) {
            swing -= amount(self.s.env.ally_deserts);
        }
        if self.s.env.enemys_ally_deserts > 0 && roll % 2 == 1 {
            swing += amount(self.s.env.enemys_ally_deserts).min(enemy);
        }
        let drm = troops as i32 + used_mil as i32 - enemy - omens + swing;
        let cancelled = self.cancels(army.commander as usize, w);
        let (war_d, war_s): (&[u32], &[u32]) = if cancelled {
            (&[], &[])
        } else {
            (&war.disaster, &war.standoff)
        };
        let series = 1u64 << war.series;
        let leaders = c
            .leaders
            .iter()
            .zip(&self.s.leaders)
            .filter(|(l, st)| **st == LeaderStatus::Attached && l.series & series != 0)
            .map(|(l, _)| (&l.disaster[..], &l.standoff[..]));
        let special = special_numbers(
            std::iter::once((war_d, war_s)).chain(leaders),
            self.m.rules.disaster_wins,
        );
        let legions = reg + vet;
        let (result, lost_l, lost_f) = resolve_roll(
            &special,
            roll,
            drm,
            legions,
            army.fleets,
            self.s.wars[w].used,
            self.halves(army.commander as usize),
        );
        if matches!(result, DISASTER | STANDOFF) {
            self.s.wars[w].used |= 1 << roll;
        }
        self.s.battles += 1;
        self.s.wars[w].battles += 1;
        // Legions lost at random among the army's tokens (L779-L781).
        let mut lost_regular = 0;
        let mut lost_veteran = 0;
        for _ in 0..lost_l {
            let n = self
                .s
                .legions
                .iter()
                .filter(|l| l.at == LegionAt::Army(a as u8))
                .count();
            if n == 0 {
                break;
            }
            let pick = self.dice.below(n as u64) as usize;
            let k = self
                .s
                .legions
                .iter()
                .enumerate()
                .filter(|(_, l)| l.at == LegionAt::Army(a as u8))
                .nth(pick)
                .map(|(k, _)| k)
                .unwrap_or(0);
            if self.s.legions[k].veteran {
                lost_veteran += 1;
            } else {
                lost_regular += 1;
            }
            self.s.legions[k] = Legion {
                at: LegionAt::Unraised,
                veteran: false,
                loyal: NONE,
            };
        }
        self.s.armies[a].fleets -= lost_f;
        self.change_unrest(unrest(result) as i32);
        game_log!(self.log, "  {} battle: {} vs {} ({}): 3d6 {roll} {:+} → {} ; Rome loses {} legions, {lost_f} fleets",
            if naval { "naval" } else { "land" }, self.name(army.commander as usize), war.name, enemy, drm, RESULT[result], lost_l);
        let commander = army.commander as usize;
        // The commander's fate: Defeat kills him; otherwise one chit per unit lost (L785-L789).
        let (mut killed, mut captured, mut moh_lost) = (false, false, false);
        if result == DEFEAT {
            killed = true;
            moh_lost = army.moh != NONE;
        } else {
            let n = self.draw_chits(lost_l + lost_f);
            for j in 0..n {
                let id = self.s.chits[j];
                let last = j == n - 1 && n >= 2 && result != VICTORY;
                if id == commander as u8 {
                    if last {
                        captured = true;
                    } else {
                        killed = true;
                    }
                }
                if id == army.moh && army.moh != NONE {
                    moh_lost = true;
                }
            }
        }
        // Popularity: −1 per 2 legions lost.
        let counted = if self.m.rules.popularity_by_strength {
            lost_regular + 2 * lost_veteran
        } else {
            lost_regular + lost_veteran
        };
        self.gain_popularity(commander, -(counted / 2));
        if !naval && matches!(result, VICTORY | STALEMATE | STANDOFF) && !killed && !captured {
            // One surviving legion becomes a veteran loyal to the general (L773).
            if let Some(k) = self
                .s
                .legions
                .iter()
                .position(|l| l.at == LegionAt::Army(a as u8) && !l.veteran)
            {
                self.s.legions[k].veteran = true;
                self.s.legions[k].loyal = commander as u8;
            }
        }
        if result == VICTORY {
            let printed = if naval { war.naval } else { war.land };
            let gain = printed.div_ceil(2) as i32;
            let survives = !(killed || captured);
            if survives || !self.m.rules.gain_requires_survival {
                self.gain_influence(commander, gain);
                self.gain_popularity(commander, gain);
            }
            if naval {
                self.s.wars[w].naval_victory = true;
                self.s.wars[w].prosecuted = true;
            } else {
                self.war_defeated(w);
                self.s.armies[a].victorious = survives;
            }
        } else if naval {
            if self.s.armies[a].fleets > 0 {
                self.s.wars[w].prosecuted = true;
            }
        } else {
            let (reg, vet) = self.s.legions_at(LegionAt::Army(a as u8));
            if reg + vet > 0 && self.s.armies[a].fleets >= war.fleet_support {
                self.s.wars[w].prosecuted = true;
            }
        }
        if moh_lost {
            let h = army.moh as usize;
            self.s.armies[a].moh = NONE;
            self.kill(h, "in battle");
        }
        if killed {
            self.kill(commander, "in battle");
        } else if captured {
            self.s.armies[a].commander = NONE;
            self.army_home(a);
            self.s.senators[commander].at = At::Captive(w as u8);
            game_log!(self.log, "  {} is captured", self.name(commander));
        } else if self.s.armies[a].used {
            // A survivor keeps fighting as proconsul and takes a Consular token (L794).
            self.s.senators[commander].consular = true;
        }
        if self.s.armies[a].used && self.s.armies[a].commander == NONE {
            self.army_home(a);
        }
    }

    /// A land victory removes the war (L769): spoils unless a revolt or its series is over,
    /// provinces created, captives of that war lost, leaders of no remaining war to the Curia.
    fn war_defeated(&mut self, w: usize) {
        let c = &self.m.cards;
        let spoils = if c.wars[w].revolt || self.series_over(w) {
            0
        } else {
            c.wars[w].spoils as i32
        };
        self.s.wars[w].status = WarStatus::Gone;
        self.s.wars[w].unprosecuted = false;
        self.s.wars[w].prosecuted = true;
        if spoils > 0 {
            self.treasury_income(spoils);
        }
        for &p in &c.wars[w].creates {
            if self.s.provinces[p as usize].status == ProvinceStatus::NotCreated {
                self.s.provinces[p as usize].status = ProvinceStatus::Vacant;
                game_log!(
                    self.log,
                    "  {} becomes a province",
                    c.provinces[p as usize].name
                );
            }
        }
        self.release_captives_of(w);
        for l in 0..c.leaders.len() {
            if self.s.leaders[l] == LeaderStatus::Attached {
                let remaining = (0..c.wars.len())
                    .any(|x| c.leaders[l].series & (1 << c.wars[x].series) != 0 && self.in_play(x));
                if !remaining {
                    self.s.leaders[l] = LeaderStatus::Curia;
                }
            }
        }
        game_log!(
            self.log,
            "  {} is defeated (spoils {spoils} T)",
            c.wars[w].name
        );
    }

    /// The Senate's army against the rebel (L831-L841): CRT only, both sides lose.
    fn civil_battle(&mut self, a: usize) {
        let rebel = self.s.rebel;
        if rebel == NONE {
            self.army_home(a);
            return;
        }
        let army = self.s.armies[a];
        let (sr, sv) = self.s.legions_at(LegionAt::Army(a as u8));
        let (rr, rv) = self.s.legions_at(LegionAt::Rebel);
        let s_troops = sr + 2 * sv;
        let r_troops = rr + 2 * rv;
        let s_mil = self.battle_mil(army.commander as usize).min(s_troops);
        let r_mil = self.battle_mil(rebel as usize).min(r_troops);
        let roll = self.dice.d(6) + self.dice.d(6) + self.dice.d(6);
        let total = roll as i32 + (s_troops + s_mil) as i32 - (r_troops + r_mil) as i32;
        let (result, s_lost, r_lost) = civil_losses(total, sr + sv, rr + rv);
        self.s.battles += 1;
        for (at, n) in [(LegionAt::Army(a as u8), s_lost), (LegionAt::Rebel, r_lost)] {
            for _ in 0..n {
                if let Some(k) = self.s.legions.iter().position(|l| l.at == at) {
                    self.s.legions[k] = Legion {
                        at: LegionAt::Unraised,
                        veteran: false,
                        loyal: NONE,
                    };
                }
            }
        }
        game_log!(
            self.log,
            "  civil war: {} against the rebel {}: 3d6 {roll} → {}",
            self.name(army.commander as usize),
            self.name(rebel as usize),
            RESULT[result]
        );
        // One pool of chits for both sides (L835).
        let n = self.draw_chits(s_lost + r_lost);
        let mut rebel_dies = false;
        let mut senate_dies = result == DEFEAT;
        for j in 0..n {
            let id = self.s.chits[j];
            rebel_dies |= id == rebel;
            senate_dies |= id == army.commander;
        }
        match result {
            VICTORY => {
                let gain = r_troops.div_ceil(2) as i32;
                self.gain_influence(army.commander as usize, gain);
                self.gain_popularity(army.commander as usize, gain);
                self.end_rebellion(true);
                self.army_home(a);
            }
            DEFEAT => {
                self.army_home(a);
                if self.s.active_wars() < 4 {
                    let f = self.s.senators[rebel as usize].faction().unwrap_or(0) as u8;
                    self.finish(REBEL_WINS, f);
                    return;
                }
            }
            _ => {}
        }
        if senate_dies && self.s.senators[army.commander as usize].faction().is_some() {
            self.kill(army.commander as usize, "in the civil war");
        }
        if rebel_dies && self.s.rebel == rebel {
            self.kill(rebel as usize, "in the civil war");
        }
        if self.s.rebel != NONE && self.s.legions_at(LegionAt::Rebel) == (0, 0) {
            // A rebel whose legions are all destroyed is defeated (L837).
            self.end_rebellion(true);
        }
        if self.s.armies[a].used && self.s.rebel == NONE {
            self.army_home(a);
        }
    }
}

//! Religion (XXXI; digest §4.18) at the Area level: nations keep the religion of their people (the
//! rulebook's lists) until a Pagan or Arian Kingdom converts to Catholicism; Areas have a religion
//! (the rulebook's Monophysite Oriens and Aegyptus, the rest from the placeholder
//! abstraction.toml `[religion]`: Mazdean Areas listed, other Civilized Areas Catholic, Barbarian
//! Areas Pagan). Monophysitism is a permanent heresy: heresy is relative to the capital, so a
//! Catholic nation sees a Monophysite Area as heretical unless its capital stands in one (and
//! then the orthodox Areas). Heresy costs its expense (XIV.H, Q45) and −1 to suppression, a
//! religion that differs from the Area's another −1 (XVI.F). Converting scores the card's bonus
//! (the income of the non-heretical Catholic provinces it holds) and half of it for Roma's holder.
//! Heresies of events (XXXI.C): under the placeholder events model a player's card brings one with
//! abstraction.toml `[events]` heresy_chance, to a Catholic Area (drawn at random) where a
//! Catholic nation holds a province: Heresy +, turned to Heresy − and then removed in the next
//! two Heresy ageing steps (1.A.c), so it lasts 2 turns. A marked Area is heretical to every
//! Catholic nation, its capital's Area included (an event heresy spares none); the orthodox Areas
//! do not turn heretical in its eyes when its capital's Area is marked. Heresies of calamities
//! (calamities.rs) mark an Area with their victim's religion.

use super::files::AbstractionFile;
use super::load::{bad, Index, Loader, Names};
use super::policy::Policy;
use super::scenario::{Area, AreaId, AreaKind, Religion};
use super::state::{NONE, NO_PROVINCE, VP_CONVERSION};
use super::turn::Play;
use crate::dice::Dice;
use crate::error::Result;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

impl Loader<'_> {
    /// `[religion]`: each Area's religion and the nations with the conversion bonus.
    pub(super) fn religion(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
        areas: &[Area],
        monophysite: &[AreaId],
    ) -> Result<(Vec<Religion>, Vec<bool>)> {
        let mut religion: Vec<Religion> = areas
            .iter()
            .map(|a| match a.kind {
                AreaKind::Civilized => Religion::Catholic,
                AreaKind::Barbarian => Religion::Pagan,
            })
            .collect();
        for &a in monophysite {
            religion[a as usize] = Religion::Monophysite;
        }
        let mut bonus = vec![false; ab.entry.rows.len()];
        let Some(r) = &ab.religion else {
            return Ok((religion, bonus));
        };
        self.stand_in("religion", &r.provenance, &r.why)?;
        let listed = self.area_list(self.ab, "religion.mazdean_areas", &r.mazdean_areas, names)?;
        for (i, &a) in listed.iter().enumerate() {
            if religion[a as usize] != Religion::Catholic {
                let allowed = "a Civilized Area that is not Monophysite";
                return Err(bad(
                    self.ab,
                    format!("religion.mazdean_areas[{i}]"),
                    &r.mazdean_areas[i],
                    allowed,
                ));
            }
            religion[a as usize] = Religion::Mazdean;
        }
        let keys = Index::new(
            self.ab,
            "a nation of [entry]",
            ab.entry.rows.iter().map(|r| r.nation.as_str()),
            |i| format!("entry.rows[{i}].nation"),
        )?;
        for (i, key) in r.conversion_bonus.iter().enumerate() {
            let n = keys.get(self.ab, format!("religion.conversion_bonus[{i}]"), key)?;
            bonus[n] = true;
        }
        Ok((religion, bonus))
    }
}

impl Play<'_> {
    /// Nation `n`'s religion now.
    pub fn religion_of(&self, n: usize) -> Religion {
        let s = &self.game.scenario;
        if self.st.converted & (1 << n) != 0 {
            Religion::Catholic
        } else {
            s.peoples[s.nations[n].people as usize].religion
        }
    }

    /// Whether Area `a` is heretical in `n`'s eyes: it carries a heresy marker of `n`'s religion
    /// (an event's is Catholic, a calamity's its victim's, calamities.rs); and for a Catholic,
    /// Monophysite when its capital's Area is not, orthodox when its capital's Area is
    /// Monophysite (XXXI.C). Pagans see none.
    pub fn heretical(&self, n: usize, a: usize) -> bool {
        let mine = self.religion_of(n);
        if self.st.heresy[a] > 0 && self.st.heresy_religion[a] == mine && mine != Religion::Pagan {
            return true;
        }
        if mine != Religion::Catholic {
            return false;
        }
        let s = &self.game.scenario;
        let c = self.st.nations[n].capital;
        let capital_monophysite = c != NO_PROVINCE
            && s.area_religion[s.provinces[c as usize].area as usize] == Religion::Monophysite;
        let here = s.area_religion[a];
        (here == Religion::Monophysite) != capital_monophysite
            && matches!(here, Religion::Monophysite | Religion::Catholic)
    }

    /// 1.A.c Heresy ageing: Heresy − markers go, Heresy + turns to Heresy −.
    pub fn age_heresies(&mut self) {
        for m in &mut self.st.heresy {
            *m = m.saturating_sub(1);
        }
    }

    /// An event's heresy: Heresy + on a Catholic Area, drawn at random among those where a
    /// Catholic nation in play holds a province.
    pub fn event_heresy(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let s = &g.scenario;
        let mut chosen = None;
        let mut seen = 0u64;
        for a in 0..s.areas.len() {
            if s.area_religion[a] != Religion::Catholic {
                continue;
            }
            let catholic_here = s.areas[a].provinces.iter().any(|&p| {
                let o = self.st.owner[p as usize];
                o != NONE
                    && self.st.status(o as usize).is_some()
                    && self.religion_of(o as usize) == Religion::Catholic
            });
            if catholic_here {
                seen += 1;
                if dice.below(seen) == 0 {
                    chosen = Some(a);
                }
            }
        }
        let Some(a) = chosen else { return };
        self.st.heresy[a] = 2;
        self.st.heresy_religion[a] = Religion::Catholic;
        self.st.counters.heresies += 1;
        game_log!(log, "a heresy spreads in {} (Heresy +)", s.areas[a].name);
    }

    /// Whether `n`'s religion differs from Area `a`'s (an unstated religion differs from none).
    pub fn religion_differs(&self, n: usize, a: usize) -> bool {
        let mine = self.religion_of(n);
        mine != Religion::Unstated && mine != self.game.scenario.area_religion[a]
    }

    /// Gold a turn for heretical Areas (XIV.H): 1 for each where `n` holds a province; a Kingdom
    /// pays only when it also holds a province in a non-heretical Area (Q45).
    pub fn heresy_expenses(&self, n: usize) -> i32 {
        let mine = self.religion_of(n);
        let marked = |a: usize| self.st.heresy[a] > 0 && self.st.heresy_religion[a] == mine;
        if mine != Religion::Catholic && !(0..self.st.heresy.len()).any(marked) {
            return 0;
        }
        // The Areas where `n` holds a province (the running totals), each judged once.
        let mut held = self.st.totals.areas_held[n];
        let (mut heretical, mut orthodox) = (0u64, 0u64);
        while held != 0 {
            let a = held.trailing_zeros() as usize;
            held &= held - 1;
            if self.heretical(n, a) {
                heretical |= 1 << a;
            } else {
                orthodox |= 1 << a;
            }
        }
        let count = heretical.count_ones() as i32;
        match self.st.status(n) {
            Some(Status::Kingdom) if orthodox == 0 && !self.game.heresy_kingdom_always => 0,
            Some(_) => count,
            None => 0,
        }
    }

    /// The conversion bonus `n` would score now (XXXI.B): the income of the provinces it holds
    /// in Catholic Areas that are not heretical, in halves rounded up; 0 without the card's bonus.
    pub fn conversion_vp(&self, n: usize) -> i32 {
        let s = &self.game.scenario;
        if !s.conversion_bonus[n] {
            return 0;
        }
        let halves: i32 = (0..s.provinces.len())
            .filter(|&p| {
                let a = s.provinces[p].area as usize;
                self.st.owner[p] == n as u8
                    && s.area_religion[a] == Religion::Catholic
                    && self.st.revolt[p] == 0
            })
            .map(|p| s.provinces[p].income_halves as i32)
            .sum();
        (halves + 1) / 2
    }

    /// Start of `n`'s Administration phase: a Pagan or Arian Kingdom or Empire may convert to
    /// Catholicism (the policy's `convert`, a D2 for the random player), once; it scores its
    /// bonus, and Roma's holder half of it (the papacy, even razed).
    pub fn convert(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        if !matches!(self.religion_of(n), Religion::Pagan | Religion::Arian) {
            return;
        }
        let wants = match self.policy(n) {
            Policy::Scripted(p) => p.convert && self.conversion_vp(n) > 0,
            Policy::Random => super::procedures::d2(dice),
        };
        if !wants {
            return;
        }
        let g = self.game;
        let vp = self.conversion_vp(n);
        self.st.converted |= 1 << n;
        self.st.counters.conversions += 1;
        self.score_conversion(n, vp);
        game_log!(log, "{} converts to Catholicism (+{vp} VP)", g.name(n));
        if vp > 0 {
            if let Some(roma) = g.roma {
                let pope = self.st.owner[roma];
                if pope != NONE && self.st.status(pope as usize).is_some() {
                    let half = (vp + 1) / 2;
                    self.score_conversion(pope as usize, half);
                    game_log!(log, "{} holds Roma: +{half} VP", g.name(pope as usize));
                }
            }
        }
    }

    fn score_conversion(&mut self, n: usize, vp: i32) {
        self.st.nations[n].vp[VP_CONVERSION] += vp;
        self.st.turn_vp[self.game.player_of(n)] += vp;
    }
}

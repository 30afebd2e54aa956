//! A scripted player's whole expedition scan ([`Play::greedy_plan`]) kept while nothing it reads
//! has changed: a player that passed, or that meets the same board again, decides as before
//! without trying every target anew. What the scan reads (hidden hands): the player's own hand
//! (in its order: fleets and leaders are taken in hand order), the map (its version: owners and
//! pacified areas), the markers, the Enraged level and the weather (the targets' part of the
//! key), what each other player shows (`decide::Shown`: its predicted defence), the VP when the
//! player is an aggressor (the VP leader's bonus), and its parameters. An omniscient game's
//! predicted defences read the other hands themselves: its scans are not kept.

use super::decide::Shown;
use super::military::Plan;
use super::policy::{Scripted, Style};
use super::scenario::Scenario;
use super::turn::Play;
use super::MAX_EMPIRES;
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;

/// A player's last scan and what it was computed from (`valid` false: none yet).
#[derive(Clone, Default)]
pub struct KeptScan {
    valid: bool,
    g: Option<Scripted>,
    hand: Vec<u8>,
    map_version: u64,
    markers: Vec<u8>,
    enraged: u8,
    weather: Option<Weather>,
    /// Each player's VP (read only by an aggressor).
    vp: [i32; MAX_EMPIRES],
    /// What each other player showed (its own entry unused).
    shown: [Shown; MAX_EMPIRES],
    plan: Option<Plan>,
}

impl KeptScan {
    /// None kept yet, its lists sized for scenario `s` (a hand holds at most its deck).
    pub fn with_capacity(s: &Scenario) -> KeptScan {
        let deck = s.decks.iter().map(|d| d.cards.len()).max().unwrap_or(0);
        KeptScan {
            hand: Vec::with_capacity(deck),
            markers: Vec::with_capacity(s.map.cities.len()),
            ..KeptScan::default()
        }
    }
}

impl Play<'_> {
    /// P1 (and P2, P3): the scan's best plan (`Play::scan`), kept per player while what it
    /// reads is unchanged (test builds scan anyway and check the kept plan).
    pub fn greedy_plan(&mut self, p: usize, g: &Scripted) -> Option<Plan> {
        if self.game.omniscient {
            return self.scan(p, g, None);
        }
        let kept = self.kept_scan_holds(p, g);
        if kept {
            self.kept_scan_hits += 1;
            if !cfg!(test) {
                return self.kept_scans[p].plan;
            }
        }
        let plan = self.scan(p, g, None);
        if kept {
            assert_eq!(
                self.kept_scans[p].plan, plan,
                "seat {p}: a kept scan is stale"
            );
        }
        self.keep_scan(p, g, plan);
        plan
    }

    /// Whether `p`'s kept scan was made from what the scan would read now.
    fn kept_scan_holds(&self, p: usize, g: &Scripted) -> bool {
        let k = &self.kept_scans[p];
        let st = &self.st;
        if !(k.valid
            && k.map_version == st.map_version
            && k.g.as_ref() == Some(g)
            && k.hand == st.players[p].hand
            && k.weather == Some(st.weather)
            && k.enraged == st.enraged
            && k.markers == st.markers)
        {
            return false;
        }
        if matches!(g.style, Style::Aggressor { .. })
            && (0..self.n()).any(|q| k.vp[q] != st.players[q].vp)
        {
            return false;
        }
        (0..self.n()).all(|q| q == p || k.shown[q] == self.shown(q, g.max_cards))
    }

    /// Keeps `plan` as `p`'s scan of the state now.
    fn keep_scan(&mut self, p: usize, g: &Scripted, plan: Option<Plan>) {
        let mut shown = [Shown::default(); MAX_EMPIRES];
        for (q, seen) in shown.iter_mut().enumerate().take(self.n()) {
            if q != p {
                *seen = self.shown(q, g.max_cards);
            }
        }
        let st = &self.st;
        let k = &mut self.kept_scans[p];
        k.valid = true;
        k.g = Some(*g);
        k.hand.clone_from(&st.players[p].hand);
        k.map_version = st.map_version;
        k.markers.clone_from(&st.markers);
        k.enraged = st.enraged;
        k.weather = Some(st.weather);
        for (q, vp) in k.vp.iter_mut().enumerate().take(st.players.len()) {
            *vp = st.players[q].vp;
        }
        k.shown = shown;
        k.plan = plan;
    }
}

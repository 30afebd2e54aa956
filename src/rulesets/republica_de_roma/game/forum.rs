//! Phase III, the Forum (L304-L450; digest §4.6): six initiatives (one per faction, the sixth
//! auctioned), each a 2d6 roll (7: the Random Events table) or a card, then persuasion, knights and
//! games; then Putting Rome in Order.

use super::cards::{Card, EventKind};
use super::policy::Style;
use super::search::Directive;
use super::setup::to_hand;
use super::state::*;
use super::turn::Game;
use super::ERA_ENDS;
use crate::game_log;

/// P(success) of a persuasion at a final base `base` (L420, A-01): 2d6 ≤ base and below the
/// auto-fail.
pub fn persuasion_chance(base: i32, autofail: u32) -> f64 {
    let mut hits = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            let r = a + b;
            if r <= base && (r as u32) < autofail {
                hits += 1;
            }
        }
    }
    hits as f64 / 36.0
}

/// The least reach at which a faction of `style` persuades (a random one, when it tries at all).
pub fn persuasion_threshold(style: Style) -> i32 {
    match style {
        Style::Cooperative => 7,
        Style::Competitive => 6,
        Style::Random => 2,
    }
}

impl Game<'_> {
    pub fn forum(&mut self) {
        // Events of the last turn leave the Forum (L304).
        let env = self.s.env;
        self.s.env = Environment {
            allied_enthusiasm: env.allied_enthusiasm,
            rhodian_fleets: env.rhodian_fleets,
            ..Environment::default()
        };
        let hrao = self.s.hrao();
        let start = match self.s.senators.get(hrao as usize).and_then(|s| s.faction()) {
            Some(f) => f,
            None => self.s.hrao_faction as usize,
        };
        self.s.hrao_faction = start as u8;
        for k in 0..FACTIONS {
            let f = (start + k) % FACTIONS;
            if self.s.factions[f].alive {
                self.initiative(f);
            }
            if self.over() {
                return;
            }
        }
        // 6 - 5 initiatives are auctioned (L342, T18).
        for _ in 0..initiatives_auctioned(FACTIONS) {
            let f = self.auction(start);
            self.initiative(f);
            if self.over() {
                return;
            }
        }
        self.putting_rome_in_order();
        if self.s.era_ends && !self.m.rules.deck_runs_out_ends {
            let f = self.most_influence();
            self.finish(ERA_ENDS, f);
        }
    }

    /// One round of bids from the HRAO clockwise; bids go to the bank.
    fn auction(&mut self, start: usize) -> usize {
        let mut best = (0, start, NONE);
        for k in 0..FACTIONS {
            let f = (start + k) % FACTIONS;
            let Some(i) = self.richest_in_rome(f) else {
                continue;
            };
            let t = self.s.senators[i].talents;
            let bid = match self.policy(f).style {
                // A Neutral opens at turn + 1d6 and others raise to turn + 4 (L1263-L1265).
                Style::Cooperative => (self.s.turn as i32 + 1).min(t),
                Style::Competitive => (self.s.turn as i32 + self.dice.d(6) as i32).min(t / 3),
                Style::Random => self.dice.below(t.max(0) as u64 + 1) as i32,
            };
            if bid > best.0 {
                best = (bid, f, i as u8);
            }
        }
        if best.2 != NONE {
            self.senator_spends(best.2 as usize, best.0);
            game_log!(
                self.log,
                "  Faction {} wins the sixth initiative for {} T",
                best.1 + 1,
                best.0
            );
        }
        best.1
    }

    fn richest_in_rome(&self, f: usize) -> Option<usize> {
        (0..self.s.senators.len())
            .filter(|&i| {
                self.s.senators[i].place == Place::Faction(f as u8) && self.s.senators[i].in_rome()
            })
            .max_by_key(|&i| (self.s.senators[i].talents, std::cmp::Reverse(i)))
    }

    fn initiative(&mut self, f: usize) {
        let roll = self.dice.d(6) + self.dice.d(6);
        if roll == 7 {
            let e = (self.dice.d(6) + self.dice.d(6) + self.dice.d(6)) as usize;
            let kind = self.m.cards.random_events[e - 3][self.s.era as usize];
            self.event(kind);
        } else {
            match self.draw_card() {
                Some((card, era)) => {
                    if era != self.s.era && self.m.setup.era_by_turn.is_empty() {
                        self.s.era = era;
                        game_log!(
                            self.log,
                            "  a card of the {} deck: the era changes",
                            super::cards::ERAS[era as usize]
                        );
                    }
                    self.card_drawn(f, card);
                }
                None => {
                    self.s.deck_ran_out = true;
                }
            }
        }
        if self.over() {
            return;
        }
        self.persuasion(f);
        self.knights(f);
        self.games(f);
    }

    fn card_drawn(&mut self, f: usize, card: Card) {
        let c = &self.m.cards;
        match card {
            Card::War(w) => self.war_drawn(w as usize),
            Card::Leader(l) => self.leader_drawn(l as usize),
            Card::Family(i) => {
                let i = i as usize;
                if self.s.senators[i].place == Place::Deck {
                    self.reset_senator(i);
                    self.s.senators[i].place = Place::Forum;
                    game_log!(
                        self.log,
                        "  F{} draws {}: to the Forum",
                        f + 1,
                        c.families[i].name
                    );
                }
            }
            Card::Forum(e) if e == c.era_ends => {
                self.s.era_ends = true;
                game_log!(self.log, "  F{} draws THE ERA ENDS", f + 1);
            }
            Card::Forum(e) => {
                if let Some(p) = c.forum_events[e as usize].creates {
                    let p = p as usize;
                    if self.s.provinces[p].status == ProvinceStatus::NotCreated {
                        self.s.provinces[p].status = ProvinceStatus::Vacant;
                        game_log!(self.log, "  a bequest creates {}", c.provinces[p].name);
                    }
                }
            }
            other => {
                game_log!(self.log, "  F{} draws a Faction card", f + 1);
                to_hand(self, f, other);
            }
        }
    }

    /// A war card comes out (L374-L398; digest §3.2).
    pub fn war_drawn(&mut self, w: usize) {
        let c = &self.m.cards;
        let series = c.wars[w].series;
        self.s.wars[w].drawn_turn = self.s.turn;
        let mut matched = false;
        for x in 0..c.wars.len() {
            if x != w && c.wars[x].series == series && self.in_play(x) {
                matched = true;
                if self.s.wars[x].status == WarStatus::Inactive {
                    self.s.wars[x].status = WarStatus::Active;
                }
            }
        }
        let leader_waiting = (0..c.leaders.len()).find(|&l| {
            self.s.leaders[l] == LeaderStatus::Curia && c.leaders[l].series & (1 << series) != 0
        });
        let status = if matched {
            WarStatus::Imminent
        } else if c.wars[w].active_on_draw || leader_waiting.is_some() {
            WarStatus::Active
        } else {
            WarStatus::Inactive
        };
        self.s.wars[w].status = status;
        if let Some(l) = leader_waiting {
            if !matched {
                self.s.leaders[l] = LeaderStatus::Attached;
            }
        }
        game_log!(self.log, "  war drawn: {} → {:?}", c.wars[w].name, status);
        if status == WarStatus::Active {
            self.destroy_concessions_of(w);
        }
    }

    fn destroy_concessions_of(&mut self, w: usize) {
        for k in 0..self.s.concessions.len() {
            if self.m.cards.concessions[k].destroyed_by & (1 << w) != 0
                && matches!(
                    self.s.concessions[k],
                    ConcessionStatus::Held(_) | ConcessionStatus::Forum
                )
            {
                self.s.concessions[k] = ConcessionStatus::Curia;
                game_log!(
                    self.log,
                    "  {} is destroyed",
                    self.m.cards.concessions[k].name
                );
            }
        }
    }

    pub(super) fn leader_drawn(&mut self, l: usize) {
        let c = &self.m.cards;
        let series = c.leaders[l].series;
        let mut found = false;
        for w in 0..c.wars.len() {
            if series & (1 << c.wars[w].series) != 0 && self.in_play(w) {
                found = true;
                // Leaders never activate Imminent wars (L386, A-46).
                if self.s.wars[w].status == WarStatus::Inactive {
                    self.s.wars[w].status = WarStatus::Active;
                }
            }
        }
        let any_left = (0..c.wars.len()).any(|w| {
            series & (1 << c.wars[w].series) != 0 && self.s.wars[w].status != WarStatus::Gone
        });
        self.s.leaders[l] = if found {
            LeaderStatus::Attached
        } else if any_left {
            LeaderStatus::Curia
        } else {
            LeaderStatus::Gone
        };
        game_log!(
            self.log,
            "  enemy leader drawn: {} → {:?}",
            c.leaders[l].name,
            self.s.leaders[l]
        );
    }

    // ---- persuasion (L418-L434) ----

    /// The persuasion base before money: ORA + INF − LOY − 7 if aligned − the target's treasury.
    pub fn persuasion_base(&self, persuader: usize, target: usize) -> i32 {
        let p = &self.s.senators[persuader];
        let t = &self.s.senators[target];
        let aligned = t.faction().is_some();
        p.ora as i32 + p.inf - self.loyalty(target) - if aligned { 7 } else { 0 } - t.talents
    }

    /// Loyalty, 0 for a statesman whose opponent sits in the same faction (L424).
    pub fn loyalty(&self, i: usize) -> i32 {
        let s = &self.s.senators[i];
        if s.statesman != NONE {
            if let Some(f) = s.faction() {
                let card = &self.m.cards.statesmen[s.statesman as usize];
                let opposed = self.s.senators.iter().any(|o| {
                    o.place == Place::Faction(f as u8)
                        && o.statesman != NONE
                        && card.opponents.contains(&o.statesman)
                });
                if opposed {
                    return 0;
                }
            }
        }
        s.loy as i32
    }

    /// Whether faction `f` may try to persuade senator `t`: in the Forum, or a rival's (or an
    /// unaligned) senator in Rome who is neither a faction leader nor the Perpetual Dictator.
    pub fn persuadable(&self, f: usize, t: usize) -> bool {
        let ts = &self.s.senators[t];
        ts.place == Place::Forum
            || (ts.in_rome()
                && !ts.leader
                && ts.faction() != Some(f)
                && self.s.perpetual_dictator != t as u8)
    }

    /// Faction `f`'s persuasion at its best, of senator `only` (of every persuadable senator if
    /// None): (reach, target, persuader, bribe budget), the reach its base plus what it may
    /// bribe less what the defence can answer; ties to the target with more ORA + MIL.
    pub fn best_persuasion(
        &self,
        f: usize,
        bribe_share: f64,
        only: Option<usize>,
    ) -> Option<(i32, usize, usize, i32)> {
        let mut best: Option<(i32, usize, usize, i32)> = None;
        for p in 0..self.s.senators.len() {
            if self.s.senators[p].place != Place::Faction(f as u8) || !self.s.senators[p].in_rome()
            {
                continue;
            }
            let budget = (self.s.senators[p].talents as f64 * bribe_share).floor() as i32;
            for t in 0..self.s.senators.len() {
                if only.is_some_and(|o| o != t) || !self.persuadable(f, t) {
                    continue;
                }
                let ts = &self.s.senators[t];
                let base = self.persuasion_base(p, t);
                let defence = self.defence_budget(t);
                let reach = base + budget - defence.min((base + budget - 4).max(0));
                let score = (reach, t, p, budget);
                if best.is_none_or(|b| {
                    (score.0, ts.ora as i32 + ts.mil as i32)
                        > (
                            b.0,
                            self.s.senators[b.1].ora as i32 + self.s.senators[b.1].mil as i32,
                        )
                }) {
                    best = Some(score);
                }
            }
        }
        best
    }

    pub(super) fn persuasion(&mut self, f: usize) {
        let pol = self.policy(f);
        // A searcher may have named whom it persuades this turn.
        let only = match self.s.directives[f] {
            Directive::Persuade(t) if self.persuadable(f, t as usize) => Some(t as usize),
            _ => None,
        };
        let Some((reach, target, persuader, budget)) =
            self.best_persuasion(f, pol.bribe_share, only)
        else {
            return;
        };
        // A random faction tries one time in two.
        if pol.style == Style::Random && !self.dice.chance(0.5) {
            return;
        }
        if reach < persuasion_threshold(pol.style) {
            return;
        }
        let base = self.persuasion_base(persuader, target);
        // Round 1: bribe up to base 9 (L1259); the defence answers to bring it to 4 (L1261);
        // round 2: the persuader adds what he has left, up to 9 again.
        let bribe1 = (9 - base).clamp(0, budget);
        let counter = self.counter_bribe(target, base + bribe1);
        let bribe2 = (9 - (base + bribe1 - counter)).clamp(0, budget - bribe1);
        let roll = self.dice.d(6) + self.dice.d(6);
        self.resolve_persuasion(persuader, target, bribe1 + bribe2, counter, roll);
    }

    /// What the target's side can spend on counter-bribes: his faction's treasury, or for an
    /// unaligned senator the richest other faction's.
    fn defence_budget(&self, target: usize) -> i32 {
        match self.s.senators[target].faction() {
            Some(f) => self.s.factions[f].treasury,
            None => self
                .s
                .factions
                .iter()
                .map(|x| x.treasury)
                .max()
                .unwrap_or(0),
        }
    }

    /// The defending faction's counter-bribe: to bring the base down to exactly 4, only if its
    /// treasury can (L1261); a random faction spends at random.
    fn counter_bribe(&mut self, target: usize, base: i32) -> i32 {
        let f = match self.s.senators[target].faction() {
            Some(f) => f,
            None => (0..FACTIONS)
                .max_by_key(|&f| self.s.factions[f].treasury)
                .unwrap_or(0),
        };
        let treasury = self.s.factions[f].treasury;
        let need = base - 4;
        let c = match self.policy(f).style {
            Style::Random => self.dice.below(treasury.max(0) as u64 + 1) as i32,
            _ if need > 0 && need <= treasury => need,
            _ => 0,
        };
        self.s.factions[f].treasury -= c;
        c
    }

    /// Settles a persuasion: every talent bribed or counter-bribed goes to the target (L432);
    /// success iff roll ≤ base + bribes − counters and the roll is below the auto-fail.
    pub fn resolve_persuasion(
        &mut self,
        persuader: usize,
        target: usize,
        bribes: i32,
        counter: i32,
        roll: u32,
    ) -> bool {
        let base = self.persuasion_base(persuader, target) + bribes - counter;
        self.s.senators[persuader].talents -= bribes;
        self.s.senators[target].talents += bribes + counter;
        let autofail = if self.s.era_ends {
            self.m.rules.persuasion_autofail - 1
        } else {
            self.m.rules.persuasion_autofail
        };
        let ok = roll as i32 <= base && roll < autofail;
        self.s.persuasions += 1;
        game_log!(
            self.log,
            "  {} persuades {}: base {base} (bribes {bribes}, counter {counter}; P = {:.2}), roll {roll}: {}",
            self.name(persuader),
            self.name(target),
            persuasion_chance(base, autofail),
            if ok { "JOINS" } else { "fails" }
        );
        if ok {
            let f = self.s.senators[persuader].faction().unwrap_or(0) as u8;
            let t = &mut self.s.senators[target];
            t.place = Place::Faction(f);
            t.at = At::Rome;
        }
        ok
    }

    // ---- knights and games (L438-L442) ----

    fn knights(&mut self, f: usize) {
        let Some(i) = self.richest_in_rome(f) else {
            return;
        };
        let t = self.s.senators[i].talents;
        let spend = match self.policy(f).style {
            Style::Cooperative => (t - 10).clamp(0, 2),
            Style::Competitive => {
                if t >= 15 {
                    5
                } else {
                    (t - 10).clamp(0, 2)
                }
            }
            Style::Random => self.dice.below(t.clamp(0, 5) as u64 + 1) as i32,
        };
        if spend > 0 || t > 0 {
            self.attract_knight(i, spend);
        }
    }

    /// 1d6 + talents spent ≥ 6 wins a knight (L438); the talents go to the bank.
    pub fn attract_knight(&mut self, i: usize, spend: i32) -> bool {
        if spend > 0 {
            self.senator_spends(i, spend);
        }
        let ok = self.dice.d(6) as i32 + spend >= 6;
        if ok {
            self.s.senators[i].knights += 1;
            game_log!(self.log, "  {} attracts a knight ({spend} T)", self.name(i));
        }
        ok
    }

    fn games(&mut self, f: usize) {
        let Some(i) = self.richest_in_rome(f) else {
            return;
        };
        let s = self.s.senators[i];
        let games = &self.m.cards.games;
        let want = match self.policy(f).style {
            Style::Cooperative => self.s.unrest > s.pop,
            Style::Competitive => s.pop < 3 && s.talents > 30,
            Style::Random => self.dice.chance(0.2),
        };
        if !want {
            return;
        }
        let Some(k) = (0..games.len())
            .rev()
            .find(|&k| games[k].cost as i32 <= s.talents)
        else {
            return;
        };
        self.senator_spends(i, games[k].cost as i32);
        self.gain_popularity(i, games[k].pop);
        self.change_unrest(games[k].unrest);
        game_log!(
            self.log,
            "  {} sponsors games ({} T): Popularity {:+}, Unrest {:+}",
            self.name(i),
            games[k].cost,
            games[k].pop,
            games[k].unrest
        );
    }

    // ---- events (L338; events.toml) ----

    pub fn event(&mut self, kind: EventKind) {
        let bit = 1u32 << kind as u32;
        let dark = self.s.env.in_play & bit != 0;
        self.s.env.in_play |= bit;
        game_log!(
            self.log,
            "  random event: {kind:?}{}",
            if dark { " (dark side)" } else { "" }
        );
        match kind {
            EventKind::EvilOmens => {
                self.s.env.evil_omens += 1;
                if !dark {
                    self.treasury_pays(20, "Evil Omens");
                }
            }
            EventKind::NaturalDisaster => {
                if self.treasury_pays(50, "a Natural Disaster") {
                    let r = self.dice.d(6);
                    for c in 0..self.s.concessions.len() {
                        if self.m.cards.concessions[c].natural_disaster & (1 << r) != 0
                            && matches!(
                                self.s.concessions[c],
                                ConcessionStatus::Held(_) | ConcessionStatus::Forum
                            )
                        {
                            self.s.concessions[c] = ConcessionStatus::Curia;
                        }
                    }
                }
            }
            EventKind::Drought => self.s.env.drought_events += 1,
            EventKind::ManpowerShortage => self.s.env.manpower_shortage += 1,
            EventKind::MobViolence => {
                let n = self.s.unrest as u32 + if dark { self.dice.d(6) } else { 0 };
                let k = self.draw_chits(n);
                for j in 0..k {
                    let i = self.s.chits[j] as usize;
                    if i < self.s.senators.len()
                        && self.s.senators[i].in_rome()
                        && self.s.senators[i].pop < self.s.unrest
                    {
                        self.kill(i, "the mob");
                    }
                }
            }
            EventKind::Epidemic => {
                let k = self.draw_chits(6);
                for j in 0..k {
                    let i = self.s.chits[j] as usize;
                    if i >= self.s.senators.len() || self.s.senators[i].faction().is_none() {
                        continue;
                    }
                    if !dark && self.s.senators[i].in_rome() {
                        self.kill(i, "epidemic");
                    } else if dark && !self.s.senators[i].in_rome() {
                        self.kill(i, "foreign epidemic");
                        break;
                    }
                }
            }
            EventKind::AlliedEnthusiasm => {
                self.s.env.allied_enthusiasm += if dark { 75 } else { 50 };
            }
            EventKind::StormAtSea => {
                let mut lost = self.dice.d(6) + self.dice.d(6);
                let from_port = lost.min(self.s.fleets_rome);
                self.s.fleets_rome -= from_port;
                lost -= from_port;
                for a in 0..MAX_ARMIES {
                    let take = lost.min(self.s.armies[a].fleets);
                    self.s.armies[a].fleets -= take;
                    lost -= take;
                }
            }
            EventKind::AllyDeserts => self.s.env.ally_deserts = 1 + dark as u8,
            EventKind::EnemysAllyDeserts => self.s.env.enemys_ally_deserts = 1 + dark as u8,
            EventKind::EnemyLeaderDies => {
                let c = &self.m.cards;
                let l = (0..c.leaders.len())
                    .filter(|&l| {
                        matches!(
                            self.s.leaders[l],
                            LeaderStatus::Attached | LeaderStatus::Curia
                        )
                    })
                    .max_by_key(|&l| c.leaders[l].strength);
                if let Some(l) = l {
                    self.s.leaders[l] = LeaderStatus::Gone;
                    game_log!(self.log, "  {} dies", c.leaders[l].name);
                }
            }
            EventKind::NewAlliance => self.s.new_alliance = 1 + dark as u8,
            EventKind::RhodianAlliance => {
                let needs = (0..self.m.cards.wars.len()).any(|w| {
                    self.s.wars[w].status == WarStatus::Active
                        && (self.m.cards.wars[w].fleet_support > 0
                            || self.m.cards.wars[w].naval > 0)
                });
                if needs {
                    let free = if dark { 12 } else { 8 };
                    let room = MAX_UNITS - self.s.fleets_total().min(MAX_UNITS);
                    self.s.fleets_rome += free.min(room);
                }
            }
            EventKind::BarbarianRaids
            | EventKind::InternalDisorder
            | EventKind::PretenderEmerges
            | EventKind::Refuge
            | EventKind::TrialOfVerres => {
                game_log!(self.log, "  (not modelled: no effect)");
            }
        }
    }

    // ---- Putting Rome in Order (L446-L450) ----

    fn putting_rome_in_order(&mut self) {
        for s in self.s.senators.iter_mut() {
            s.major = matches!(
                s.office,
                Office::RomeConsul
                    | Office::FieldConsul
                    | Office::Censor
                    | Office::Dictator
                    | Office::MasterOfHorse
            );
        }
        let c = &self.m.cards;
        let tax_farmer_war = (0..c.wars.len())
            .any(|w| c.wars[w].tax_farmer_roll && self.s.wars[w].status == WarStatus::Active);
        if tax_farmer_war {
            let r = self.dice.d(6) as u8;
            for k in 0..self.s.concessions.len() {
                if c.concessions[k].tax_farmer == Some(r)
                    && matches!(
                        self.s.concessions[k],
                        ConcessionStatus::Held(_) | ConcessionStatus::Forum
                    )
                {
                    self.s.concessions[k] = ConcessionStatus::Curia;
                    game_log!(self.log, "  {} is destroyed", c.concessions[k].name);
                }
            }
        }
        for k in 0..self.s.concessions.len() {
            if self.s.concessions[k] == ConcessionStatus::Curia && self.dice.d(6) >= 5 {
                self.s.concessions[k] = ConcessionStatus::Forum;
            }
        }
        for i in 0..self.s.senators.len() {
            if self.s.senators[i].place == Place::Curia && self.dice.d(6) >= 5 {
                self.reset_senator(i);
                self.s.senators[i].place = Place::Forum;
            }
        }
        for l in 0..c.leaders.len() {
            if self.s.leaders[l] != LeaderStatus::Curia {
                continue;
            }
            let matching = (0..c.wars.len())
                .any(|w| c.leaders[l].series & (1 << c.wars[w].series) != 0 && self.in_play(w));
            if !matching && self.dice.d(6) >= 5 {
                self.s.leaders[l] = LeaderStatus::Gone;
                game_log!(self.log, "  {} dies in the Curia", c.leaders[l].name);
            }
        }
    }
}

/// Initiatives auctioned with `players` factions: 6 in all, one per player first (L342, T18).
pub fn initiatives_auctioned(players: usize) -> usize {
    6usize.saturating_sub(players)
}

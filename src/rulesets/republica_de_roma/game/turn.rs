//! The game loop: seven phases a turn (digest §2) until one of the ends of §1.3-§1.6, and the
//! helpers every phase shares (money that enters or leaves the game, deaths, war strength).

use super::cards::Card;
use super::policy::FactionPolicy;
use super::search::{Directive, Rollouts};
use super::state::*;
use super::*;
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GameRecord, TurnObserver};
use crate::game_log;

pub struct Worker<'a> {
    m: &'a Model,
    s: State,
    per_player: Vec<f64>,
    global: Vec<f64>,
    /// For searching factions: the game as rollouts see it, and the searcher's buffers.
    search: Option<(Rollouts<'a>, Searcher<Rollouts<'a>>)>,
}

impl<'a> Worker<'a> {
    pub fn new(m: &'a Model) -> Worker<'a> {
        Worker {
            m,
            s: m.empty_state(),
            per_player: vec![0.0; FACTIONS * TURN_METRICS.len()],
            global: vec![0.0; GLOBAL_METRICS.len()],
            search: m
                .policies
                .iter()
                .any(|p| p.search.is_some())
                .then(|| (Rollouts::new(m), Searcher::default())),
        }
    }
}

/// One game in progress: the model, the state, the game's dice and its log.
pub struct Game<'a> {
    pub m: &'a Model,
    pub s: &'a mut State,
    pub dice: &'a mut Dice,
    pub log: &'a mut dyn GameLog,
    /// How the game ended (index into ENDINGS) and the winning faction (NONE if nobody).
    pub end: Option<(usize, u8)>,
}

impl<'a> Game<'a> {
    pub fn new(
        m: &'a Model,
        s: &'a mut State,
        dice: &'a mut Dice,
        log: &'a mut dyn GameLog,
    ) -> Game<'a> {
        Game {
            m,
            s,
            dice,
            log,
            end: None,
        }
    }
}

impl Game<'_> {
    pub fn over(&self) -> bool {
        self.end.is_some()
    }

    /// The policy faction `f` plays this turn: its own, as this turn's directive has it (a
    /// searcher's own is its rollout policy; without a searcher the directive is always Follow).
    pub fn policy(&self, f: usize) -> FactionPolicy {
        self.s.directives[f].apply(self.m.policies[f], &self.m.styles)
    }

    pub fn name(&self, senator: usize) -> String {
        let s = &self.s.senators[senator];
        let fam = &self.m.cards.families[senator];
        let who = if s.statesman != NONE {
            self.m.cards.statesmen[s.statesman as usize].name.clone()
        } else {
            format!("{} ({})", fam.name, fam.id)
        };
        match s.faction() {
            Some(f) => format!("{who} [F{}]", f + 1),
            None => who,
        }
    }

    pub fn war_name(&self, w: usize) -> &str {
        &self.m.cards.wars[w].name
    }

    pub fn finish(&mut self, ending: usize, winner: u8) {
        if self.end.is_none() {
            self.end = Some((ending, winner));
            game_log!(self.log, "  GAME ENDS: {}", ENDINGS[ending]);
        }
    }

    /// Rome falls, unless a rebel is in play: then he wins (§1.4 item 2, §1.5).
    pub fn rome_falls(&mut self, cause: usize) {
        if self.s.rebel != NONE && cause != FOUR_WARS {
            let f = self.s.senators[self.s.rebel as usize]
                .faction()
                .unwrap_or(0) as u8;
            self.finish(REBEL_WINS, f);
        } else {
            self.finish(cause, NONE);
        }
    }

    // ---- money: every talent that enters or leaves the game goes through these ----

    pub fn treasury_income(&mut self, amount: i32) {
        self.s.treasury += amount;
        self.s.ledger.sources += amount as i64;
    }

    /// A compulsory payment by the Treasury: bankruptcy when it cannot pay (L329).
    pub fn treasury_pays(&mut self, amount: i32, what: &str) -> bool {
        if amount <= 0 {
            return true;
        }
        if self.s.treasury < amount {
            game_log!(
                self.log,
                "  the Treasury cannot pay {amount} T for {what} (has {} T): BANKRUPTCY",
                self.s.treasury
            );
            self.rome_falls(BANKRUPTCY);
            return false;
        }
        self.s.treasury -= amount;
        self.s.ledger.sinks += amount as i64;
        true
    }

    pub fn senator_income(&mut self, senator: usize, amount: i32) {
        self.s.senators[senator].talents += amount;
        self.s.ledger.sources += amount as i64;
    }

    pub fn senator_spends(&mut self, senator: usize, amount: i32) {
        self.s.senators[senator].talents -= amount;
        self.s.ledger.sinks += amount as i64;
    }

    pub fn faction_spends(&mut self, f: usize, amount: i32) {
        self.s.factions[f].treasury -= amount;
        self.s.ledger.sinks += amount as i64;
    }

    // ---- senators ----

    pub fn gain_influence(&mut self, senator: usize, amount: i32) {
        let s = &mut self.s.senators[senator];
        s.inf = (s.inf + amount).max(0);
    }

    pub fn gain_popularity(&mut self, senator: usize, amount: i32) {
        let s = &mut self.s.senators[senator];
        s.pop = (s.pop + amount).clamp(-9, 9);
    }

    pub fn change_unrest(&mut self, amount: i32) {
        self.s.unrest = (self.s.unrest + amount).max(0);
    }

    /// Sets a family senator to his printed values (entering play, or an heir).
    pub fn reset_senator(&mut self, i: usize) {
        let f = &self.m.cards.families[i];
        let s = &mut self.s.senators[i];
        s.statesman = NONE;
        s.mil = f.mil;
        s.ora = f.ora;
        s.loy = f.loy;
        s.inf = f.inf as i32;
        s.pop = 0;
        s.knights = 0;
        s.talents = 0;
        s.office = Office::None;
        s.corrupt = false;
        s.major = false;
        s.consular = false;
        s.bar = false;
        s.back_this_turn = false;
        s.family_in_deck = false;
        s.at = At::Rome;
    }

    /// A senator dies (L264-L270): his money goes to the bank, concessions to the Curia,
    /// province to the Forum, army home; a dead statesman leaves the game and his family card
    /// follows the normal rule: it stays as the heir if it holds the Faction Leader token,
    /// otherwise it goes to the Curia.
    pub fn kill(&mut self, i: usize, why: &str) {
        let s = self.s.senators[i];
        if !matches!(s.place, Place::Faction(_) | Place::Forum) {
            return;
        }
        game_log!(self.log, "  {} dies ({why})", self.name(i));
        self.s.deaths += 1;
        if s.talents != 0 {
            self.senator_spends(i, s.talents);
        }
        for c in 0..self.s.concessions.len() {
            if self.s.concessions[c] == ConcessionStatus::Held(i as u8) {
                self.s.concessions[c] = ConcessionStatus::Curia;
            }
        }
        self.leave_post(i);
        if s.statesman != NONE {
            self.s.statesmen[s.statesman as usize] = StatesmanStatus::Gone;
        }
        if self.s.perpetual_dictator == i as u8 {
            self.s.perpetual_dictator = NONE;
        }
        if self.s.rebel == i as u8 {
            self.end_rebellion(false);
        }
        let leader = s.leader && matches!(s.place, Place::Faction(_));
        self.reset_senator(i);
        if s.family_in_deck {
            // The statesman came without his family card, which is still to be drawn.
            self.s.senators[i].place = Place::Deck;
            self.s.senators[i].leader = false;
            self.s.senators[i].family_in_deck = false;
        } else if leader {
            // The heir: same faction, printed values, in Rome.
            self.s.senators[i].leader = true;
        } else {
            self.s.senators[i].place = Place::Curia;
            self.s.senators[i].leader = false;
        }
    }

    /// Takes a senator out of wherever he serves: his province to the Forum, his army home.
    pub fn leave_post(&mut self, i: usize) {
        match self.s.senators[i].at {
            At::Governor(p) => {
                self.s.provinces[p as usize].status = ProvinceStatus::Vacant;
            }
            At::Army(a) => {
                let a = a as usize;
                if self.s.armies[a].commander == i as u8 {
                    self.army_home(a);
                } else if self.s.armies[a].moh == i as u8 {
                    self.s.armies[a].moh = NONE;
                }
            }
            _ => {}
        }
        self.s.senators[i].at = At::Rome;
        self.s.senators[i].office = Office::None;
    }

    /// An army comes back: legions to the barracks, fleets to port, commanders to Rome.
    pub fn army_home(&mut self, a: usize) {
        let army = self.s.armies[a];
        if !army.used {
            return;
        }
        for l in self.s.legions.iter_mut() {
            if l.at == LegionAt::Army(a as u8) {
                l.at = LegionAt::Rome;
            }
        }
        self.s.fleets_rome += army.fleets;
        for who in [army.commander, army.moh] {
            if who != NONE && self.s.senators[who as usize].at == At::Army(a as u8) {
                self.s.senators[who as usize].at = At::Rome;
            }
        }
        self.s.armies[a] = Army::empty();
    }

    /// The rebellion ends: crushed (rebels executed) or its leader dead (L837).
    pub fn end_rebellion(&mut self, executed: bool) {
        let rebel = self.s.rebel;
        if rebel == NONE {
            return;
        }
        self.s.rebel = NONE;
        for l in self.s.legions.iter_mut() {
            if l.at == LegionAt::Rebel {
                l.at = LegionAt::Rome;
            }
        }
        for i in 0..self.s.senators.len() {
            if self.s.senators[i].at == At::Rebel {
                if executed && i != rebel as usize {
                    self.kill(i, "executed with the rebellion");
                } else {
                    self.s.senators[i].at = At::Rome;
                }
            }
        }
        if executed && self.s.senators[rebel as usize].at == At::Rome {
            self.kill(rebel as usize, "executed: the rebellion is crushed");
        }
    }

    // ---- wars ----

    /// Active cards in the war's series (Unprosecuted included), 1..=4 (L380).
    pub fn multiplier(&self, w: usize) -> u32 {
        let series = self.m.cards.wars[w].series;
        self.m
            .cards
            .wars
            .iter()
            .zip(&self.s.wars)
            .filter(|(c, s)| c.series == series && s.status == WarStatus::Active)
            .count()
            .max(1) as u32
    }

    pub fn leader_strength(&self, w: usize) -> u32 {
        let series = 1u64 << self.m.cards.wars[w].series;
        self.m
            .cards
            .leaders
            .iter()
            .zip(&self.s.leaders)
            .filter(|(l, st)| **st == LeaderStatus::Attached && l.series & series != 0)
            .map(|(l, _)| l.strength)
            .sum()
    }

    /// Effective (land, naval) strength of a war (digest §3.3).
    pub fn strength(&self, w: usize) -> (u32, u32) {
        let c = &self.m.cards.wars[w];
        let mult = self.multiplier(w);
        let leaders = self.leader_strength(w);
        let land = c.land * mult + leaders;
        let naval = if self.s.wars[w].naval_victory {
            0
        } else if c.naval > 0 {
            c.naval
                * if self.m.rules.matching_multiplies_naval {
                    mult
                } else {
                    1
                }
                + leaders
        } else if self.m.rules.leader_always_naval {
            leaders
        } else {
            0
        };
        (land, naval)
    }

    pub fn series_over(&self, w: usize) -> bool {
        // The last war of its series has been defeated: the rest are revolts (L390).
        let c = &self.m.cards.wars[w];
        let last = self
            .m
            .cards
            .wars
            .iter()
            .enumerate()
            .filter(|(_, x)| x.series == c.series)
            .max_by_key(|(_, x)| x.series_index)
            .map(|(i, _)| i)
            .unwrap_or(w);
        last != w && self.s.wars[last].status == WarStatus::Gone
    }

    pub fn in_play(&self, w: usize) -> bool {
        matches!(
            self.s.wars[w].status,
            WarStatus::Inactive | WarStatus::Imminent | WarStatus::Active
        )
    }

    /// Draws `n` mortality chits; the senator ids drawn are left in `self.s.chits[..count]`.
    pub fn draw_chits(&mut self, n: u32) -> usize {
        let cup = super::super::chits::Cup {
            numbered: 36 - self.m.rules.draw_two,
            draw_two: self.m.rules.draw_two,
        };
        let mut out = self.s.chits;
        let k = cup.draw_chits(n, self.dice, &mut out);
        self.s.chits = out;
        k
    }

    /// The Era Ends and victory by Influence: the faction with the most (rebels and captives
    /// excluded); ties by 2d6 (§1.04.8).
    pub fn most_influence(&mut self) -> u8 {
        let mut best = NONE;
        let mut best_score = (i32::MIN, 0u32);
        for f in 0..FACTIONS {
            if !self.s.factions[f].alive {
                continue;
            }
            let tie = self.dice.d(6) + self.dice.d(6);
            let score = (self.s.faction_influence(f), tie);
            if score > best_score {
                best_score = score;
                best = f as u8;
            }
        }
        best
    }

    /// The perpetual dictatorship at 35 Influence (L705), unless Military Reforms is in force.
    pub fn check_influence_35(&mut self) {
        if self.over()
            || self.s.perpetual_dictator != NONE
            || self.s.law(self.m.cards.military_reforms)
        {
            return;
        }
        let mut best: Option<usize> = None;
        for i in 0..self.s.senators.len() {
            let s = &self.s.senators[i];
            if s.in_rome() && s.inf >= 35 && best.is_none_or(|b| s.inf > self.s.senators[b].inf) {
                best = Some(i);
            }
        }
        if let Some(i) = best {
            game_log!(
                self.log,
                "  {} reaches {} Influence: Perpetual Dictator",
                self.name(i),
                self.s.senators[i].inf
            );
            self.s.perpetual_dictator = i as u8;
            self.s.pd_elected = false;
        }
    }

    pub fn draw_card(&mut self) -> Option<(Card, u8)> {
        if self.s.deck.is_empty() {
            if let Some(era) = self.s.next_decks.first().copied() {
                self.s.next_decks.remove(0);
                let last = self.s.next_decks.is_empty();
                super::setup::build_next_deck(self, era, last);
            }
        }
        self.s.deck.pop()
    }
}

impl crate::game::GamePlay for Worker<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        let m = self.m;
        self.s.directives = [Directive::Follow; FACTIONS];
        let mut g = Game::new(m, &mut self.s, dice, log);
        super::setup::deal(&mut g);
        let mut turn = 0;
        while turn < m.rules.turn_cap && !g.over() {
            turn += 1;
            g.begin_turn(turn);
            if let Some((game, searcher)) = &mut self.search {
                for f in 0..FACTIONS {
                    let Some(spec) = m.policies[f].search else {
                        continue;
                    };
                    // The searchers decide in turn order: a later one's rollouts play the
                    // earlier ones' directives for this turn.
                    let d = searcher
                        .choose(game, g.s, f, spec, g.dice)
                        .unwrap_or_default();
                    g.s.directives[f] = d;
                    game_log!(g.log, "  Faction {} (search) plays {d:?} this turn", f + 1);
                }
            }
            g.play_to_senate();
            if let Some((game, searcher)) = &mut self.search {
                // The Senate's decisions are the Censor's and the Dominant player's: a searcher
                // holding either decides them now that the elections are known.
                for f in 0..FACTIONS {
                    let Some(spec) = m.policies[f].search else {
                        continue;
                    };
                    if g.over() {
                        break;
                    }
                    let d = searcher
                        .choose(game, g.s, f, spec, g.dice)
                        .unwrap_or_default();
                    g.s.senate_directives[f] = d;
                    if d != Directive::Follow {
                        game_log!(
                            g.log,
                            "  Faction {} (search) plays {d:?} in the Senate",
                            f + 1
                        );
                    }
                }
            }
            g.play_from_senate();
            g.s.directives = [Directive::Follow; FACTIONS];
            g.s.senate_directives = [Directive::Follow; FACTIONS];
            measure(&g, &mut self.per_player, &mut self.global);
            observer.turn(turn, &self.per_player, &self.global);
        }
        if !g.over() {
            g.finish(TURN_CAP, NONE);
        }
        let (ending, winner) = g.end.unwrap_or((TURN_CAP, NONE));
        record.turns = turn;
        record.ending = ending;
        for f in 0..FACTIONS {
            record.score[f] = g.s.faction_influence(f) as f64;
            record.win_share[f] = if winner as usize == f { 1.0 } else { 0.0 };
        }
        let falls = matches!(ending, FOUR_WARS | PEOPLE_REVOLT | BANKRUPTCY);
        record.extra[0] = falls as u32 as f64;
        record.extra[1] = g.s.battles as f64;
        record.extra[2] = g.s.deaths as f64;
        record.extra[3] = g.s.persuasions as f64;
        record.extra[4] = g.s.prosecutions as f64;
        record.extra[5] = g.s.rebellions as f64;
        record.extra[6] = g.s.treasury as f64;
        record.extra[7] = g.s.unrest as f64;
        for w in 0..m.cards.wars.len() {
            record.extra[BASE_COLUMNS.len() + w] =
                (falls && g.s.wars[w].status == WarStatus::Active) as u32 as f64;
        }
    }
}

impl Game<'_> {
    /// Turn `turn` begins: its number, its era, the log's header.
    pub(super) fn begin_turn(&mut self, turn: u32) {
        self.s.turn = turn;
        if let Some(e) = self.m.setup.era_at_turn(turn) {
            self.s.era = e;
        }
        game_log!(
            self.log,
            "== turn {turn} ({}) · Treasury {} T · Unrest {} · Active wars {} ==",
            super::cards::ERAS[self.s.era as usize],
            self.s.treasury,
            self.s.unrest,
            self.s.active_wars()
        );
    }

    /// The seven phases of the turn begun, until the game ends (digest §2).
    pub(super) fn play_turn(&mut self) {
        self.play_to_senate();
        self.play_from_senate();
    }

    /// The turn begun, until the Senate sits after its elections (or the game ends).
    pub(super) fn play_to_senate(&mut self) {
        self.mortality();
        if !self.over() {
            self.revenue();
        }
        if !self.over() {
            self.forum();
        }
        if !self.over() {
            self.population();
        }
        if !self.over() {
            self.senate_sits();
        }
    }

    /// The rest of the turn from the sitting Senate (nothing if the game has ended).
    pub(super) fn play_from_senate(&mut self) {
        if !self.over() {
            self.senate_decides();
        }
        if !self.over() {
            self.combat();
        }
        if !self.over() {
            self.revolution();
        }
        if !self.over() {
            self.end_of_turn();
        }
    }

    /// The victory checks at the end of the turn (§1.3, §1.4).
    pub(super) fn end_of_turn(&mut self) {
        if self.s.perpetual_dictator != NONE {
            let pd = self.s.perpetual_dictator as usize;
            let f = self.s.senators[pd].faction().unwrap_or(0) as u8;
            let how = if self.s.pd_elected {
                DICTATOR_ELECTED
            } else {
                DICTATOR_35
            };
            self.finish(how, f);
            return;
        }
        if self.s.deck_ran_out && self.m.rules.deck_runs_out_ends {
            let f = self.most_influence();
            self.finish(DECK_RUNS_OUT, f);
        }
    }
}

fn measure(g: &Game, per_player: &mut [f64], global: &mut [f64]) {
    let k = TURN_METRICS.len();
    for f in 0..FACTIONS {
        per_player[f * k] = g.s.faction_influence(f) as f64;
        per_player[f * k + 1] = g.s.faction_votes(f) as f64;
        per_player[f * k + 2] = g.s.faction_money(f) as f64;
        per_player[f * k + 3] = g.s.faction_members(f) as f64;
    }
    global[0] = g.s.treasury as f64;
    global[1] = g.s.unrest as f64;
    global[2] = g.s.active_wars() as f64;
    global[3] = g.s.legions_raised() as f64;
    global[4] = g.s.fleets_total() as f64;
}

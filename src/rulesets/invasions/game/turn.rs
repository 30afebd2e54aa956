//! One game, turn by turn in the order of digest §2: Time phase (ageing and status tests, the
//! Roman split, entries and reinforcements, events, raids, caravans, diplomacy), Administration
//! (cards, income, purchases, revolts), the Military phase in activation order, End of Diplomacy,
//! Scoring; then the end of the game and its tie-break.

use super::battles::Battles;
use super::policy::{Directive, Policy};
use super::procedures::{self, D10Test, Decline, EmpireTest, KingdomTest};
use super::scenario::AreaKind;
use super::search::Rollouts;
use super::state::Stage;
use super::state::{self, Phase, State, NONE, NO_PROVINCE, VP_OBJECTIVES};
use super::{Game, WEST_STANDS};
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, TurnObserver};
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// One worker: the game's state and the battle cache, reused game after game.
pub struct Play<'g> {
    pub game: &'g Game,
    pub st: State,
    pub battles: Battles,
    per_player: Vec<f64>,
    global: Vec<f64>,
    /// Where a player searches: the game as rollouts see it, and the searcher's buffers.
    search: Option<Box<(Rollouts<'g>, Searcher<Rollouts<'g>>)>>,
    /// Zones where the active nation's naval stacks met an enemy stack this activation (XXV.B:
    /// once an activation), and whether one of them was stopped (blockade.rs, encounters.rs).
    pub(super) naval_met: u32,
    pub(super) naval_halted: bool,
}

impl<'g> Play<'g> {
    pub fn new(game: &'g Game) -> Play<'g> {
        let mut play = Play::without_search(game);
        if game.search.iter().any(Option::is_some) {
            play.search = Some(Box::new((Rollouts::new(game), Searcher::default())));
        }
        play
    }

    /// A worker whose searching players play their rollout policies (the rollouts' own).
    pub fn without_search(game: &'g Game) -> Play<'g> {
        Play {
            search: None,
            game,
            st: game.start.clone(),
            battles: game
                .caches
                .lock()
                .ok()
                .and_then(|mut pool| pool.pop())
                .unwrap_or_else(|| Battles::new(game.system, game.options.clone())),
            per_player: vec![0.0; game.players.len() * super::TURN_METRICS.len()],
            global: vec![0.0; super::GLOBAL_METRICS.len()],
            naval_met: 0,
            naval_halted: false,
        }
    }

    /// The policy nation `n` plays now: its own, as its player's plan and orders for the turn
    /// have it (Follow, the policy unchanged, for every player that does not search).
    ///
    /// Inlined where it is asked, so that a caller reading one threshold reads only that one
    /// in the common case; the directives' path is not.
    #[inline]
    pub fn policy(&self, n: usize) -> Policy {
        let p = self.game.player_of(n);
        let (plan, orders) = (self.st.plans[p], self.st.orders[p]);
        // The common case (no searching player): the policy as it is, not copied through two
        // `apply`s.
        if plan == Directive::Follow && orders == Directive::Follow {
            return self.game.policies[n];
        }
        self.directed_policy(n, plan, orders)
    }

    /// [`Self::policy`] under a searching player's plan and orders.
    #[inline(never)]
    fn directed_policy(&self, n: usize, plan: Directive, orders: Directive) -> Policy {
        orders.apply(plan.apply(self.game.policies[n]))
    }

    /// Plays the whole game from the start into `self.st`.
    pub fn run(&mut self, dice: &mut Dice, observer: &mut dyn TurnObserver, log: &mut dyn GameLog) {
        self.st.clone_from(&self.game.start);
        for turn in 1..=self.game.last_turn {
            self.st.turn = turn;
            game_log!(log, "== {} ==", self.game_label(turn));
            self.decide(Stage::Plan, dice, log);
            self.turn_start(dice, log);
            self.decide(Stage::Orders, dice, log);
            self.turn_rest(dice, log);
            self.observe(observer);
        }
    }

    /// The searching players choose their plan or orders for the turn, in player order (a later
    /// one's rollouts play the earlier ones' choices).
    fn decide(&mut self, stage: Stage, dice: &mut Dice, log: &mut dyn GameLog) {
        self.st.stage = stage;
        let Some(search) = &mut self.search else {
            return;
        };
        let (rollouts, searcher) = &mut **search;
        let g = self.game;
        for p in 0..g.players.len() {
            let Some(spec) = g.search[p] else { continue };
            let d = searcher
                .choose(rollouts, &self.st, p, spec, dice)
                .unwrap_or_default();
            match stage {
                Stage::Plan => self.st.plans[p] = d,
                Stage::Orders => self.st.orders[p] = d,
            }
            if d != Directive::Follow {
                game_log!(log, "{} (search): {stage:?} {d:?}", g.players[p]);
            }
        }
    }

    /// A turn's start: step 1.A (ageing and status) and 1.B (the Roman split, Attila's death,
    /// entries, reinforcements).
    pub fn turn_start(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let turn = self.st.turn;
        self.st.turn_vp.fill(0);
        // 1 Time phase. Play begins on turn 1 at step 1.C (L354): no ageing on turn 1.
        if turn > 1 {
            self.age_barbarians(dice, log);
            self.age_civilized(dice, log);
            self.age_heresies();
        }
        if turn == self.game.scenario.roman_split_turn {
            self.split_rome(log);
        }
        if turn == self.game.scenario.attila_death_turn {
            self.attila_dies(log);
        }
        self.enter_nations(turn, log);
        if turn > 1 {
            self.reinforce(dice, log);
        }
        self.place_leaders(log);
        // Submission's aftermath, rebellions and the Foedus (politics.rs).
        self.politics(dice, log);
        self.st.stage = Stage::Orders;
    }

    /// The rest of a turn from step 1.C: events, raids, caravans, Administration, the Military
    /// phase, End of Diplomacy, scoring; the turn's plans and orders end with it.
    pub fn turn_rest(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let turn = self.st.turn;
        // 1.C.a events (the scenario's stand-in: revolts at most), 1.C.b raids, 1.C.c caravans.
        self.events(dice, log);
        self.raider_raids(dice, log);
        if turn > 1 {
            self.caravans(dice, log);
        }
        // 1.D Diplomacy.
        self.diplomacy(dice, log);
        // 2 Administration (skipped on turn 1): cards, income, purchases; revolts need events.
        if turn > 1 {
            self.administration(dice, log);
            self.tributes();
        }
        // 3 Military phase.
        self.military(dice, log);
        self.settle_loans_and_marriages(log);
        // 3.B End of Diplomacy: unused cards discarded for 1 gold each.
        self.end_of_diplomacy();
        self.recover_unowned();
        // 4 Scoring.
        let scoring =
            self.game.scenario.scoring_turns.contains(&turn) || turn == self.game.last_turn;
        if scoring {
            self.score(log);
        }
        if scoring || self.game.foedus_vp_every_turn {
            self.foedus_vp(log);
        }
        self.west_falls(turn, log);
        self.st.plans.fill(Directive::Follow);
        self.st.orders.fill(Directive::Follow);
        self.st.stage = Stage::Plan;
    }

    fn game_label(&self, turn: u8) -> String {
        use crate::game::GameModel;
        self.game.turn_label(turn as u32)
    }

    // ---- 1.A Ageing and status ------------------------------------------------------------------

    fn age_barbarians(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        for n in 0..self.st.nations.len() {
            if self.st.status(n) != Some(Status::Barbarian) || g.inactive[n] {
                continue;
            }
            // Raiders age once on the map (VI.C): only a nation with a horde ages here.
            if self.st.nations[n].horde == NO_PROVINCE {
                continue;
            }
            let ns = &mut self.st.nations[n];
            ns.age = (ns.age + 1).min(7);
            let age = ns.age;
            // The Huns never found a Kingdom (L478): their fate is Attila's death.
            if n == g.hunni {
                continue;
            }
            // A federate may not found a Kingdom (XXVIII.E).
            if self.st.nations[n].bond == super::politics::Bond::Federate {
                continue;
            }
            let voluntary = self.wants_kingdom(n, age, dice);
            let horde = self.st.nations[n].horde;
            let horde_in_barbarian_area = horde != NO_PROVINCE
                && g.scenario.areas[g.scenario.provinces[horde as usize].area as usize].kind
                    == AreaKind::Barbarian;
            let test = KingdomTest {
                age,
                treasury: self.st.nations[n].treasury.clamp(0, 255) as u8,
                horde_in_barbarian_area,
                tens: g.tens,
            };
            let promoted = voluntary || (test.required() && test.roll(dice));
            if promoted {
                game_log!(
                    log,
                    "{} becomes a Kingdom at age {age} ({})",
                    g.name(n),
                    if voluntary {
                        "announced"
                    } else {
                        "forced test"
                    }
                );
                self.found_kingdom(n);
            }
        }
    }

    /// The policy's voluntary Kingdom (age ≥ 3, L486), once holding a province in a Civilized Area.
    fn wants_kingdom(&self, n: usize, age: u8, dice: &mut Dice) -> bool {
        let g = self.game;
        if age < 3 {
            return false;
        }
        let holds_civilized = (0..g.scenario.provinces.len()).any(|p| {
            self.st.owner[p] == n as u8
                && g.scenario.areas[g.scenario.provinces[p].area as usize].kind
                    == AreaKind::Civilized
        });
        match self.policy(n) {
            Policy::Scripted(s) => holds_civilized && age >= s.kingdom_age,
            Policy::Random => holds_civilized && procedures::d2(dice),
        }
    }

    /// A new Kingdom or Empire (VII.D, VIII.C): age 1, no Decline, the first 20 gold now (the
    /// second 10 come next turn).
    fn promote(&mut self, n: usize, status: Status) {
        let st = &mut self.st;
        st.set_phase(&self.game.scenario, n, Phase::Active(status));
        st.nations[n].age = 1;
        st.nations[n].decline = Decline::None;
        st.nations[n].promoted_turn = st.turn;
        st.gain_gold(n, 20);
    }

    /// Young Kingdom (VII.D): age 1, +20 gold now and +10 next turn, a city grows, the horde
    /// becomes the capital in a held city.
    pub fn found_kingdom(&mut self, n: usize) {
        self.promote(n, Status::Kingdom);
        let st = &mut self.st;
        st.counters.kingdoms_founded += 1;
        // City growth: a level-1 city on an empty site, else 1 → 2, else 2 → 3 (L516-519).
        let np = st.owner.len();
        'grow: for from in 0..3u8 {
            for p in 0..np {
                if st.owner[p] == n as u8
                    && self.game.scenario.provinces[p].city.is_some()
                    && st.level[p] == from
                {
                    st.grow_city(&self.game.scenario, p);
                    break 'grow;
                }
            }
        }
        self.place_capital(n);
    }

    /// The capital goes to the best city the nation holds; without one the horde stands in.
    pub fn place_capital(&mut self, n: usize) {
        let st = &mut self.st;
        let best = (0..st.owner.len())
            .filter(|&p| st.owner[p] == n as u8 && st.level[p] > 0)
            .max_by_key(|&p| (st.level[p], std::cmp::Reverse(p)));
        if let Some(p) = best {
            st.nations[n].capital = p as u16;
            st.set_horde(&self.game.scenario, n, NO_PROVINCE);
            if st.walls[p] == 0 {
                st.walls[p] = super::economy::STANDARD_WALLS;
            }
        }
    }

    fn age_civilized(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let turn = self.st.turn;
        for n in 0..self.st.nations.len() {
            if !self.st.civilized(n) || g.inactive[n] {
                continue;
            }
            // The young nation's second 10 gold (VII.D, VIII.C), unless promoted again since.
            if self.st.nations[n].promoted_turn + 1 == turn {
                self.st.gain_gold(n, 10);
            }
            self.age_up(n, 1, dice, log);
            if self.st.status(n) == Some(Status::Kingdom)
                && self.st.nations[n].promoted_turn != turn
            {
                self.empire_test(n, dice, log);
            }
        }
    }

    /// Ageing (VI.E): beyond 12, Decline grows instead.
    pub fn age_up(&mut self, n: usize, steps: u8, dice: &mut Dice, log: &mut dyn GameLog) {
        for _ in 0..steps {
            if self.st.nations[n].age < 12 {
                self.st.nations[n].age += 1;
            } else {
                self.deepen_decline(n, dice, log);
            }
        }
    }

    /// One more Decline level; at double, a Kingdom tests for Empire, an Empire pays 10 (L421).
    pub fn deepen_decline(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let d = &mut self.st.nations[n].decline;
        match *d {
            Decline::None => *d = Decline::Simple,
            Decline::Simple => *d = Decline::Double,
            Decline::Double => match self.st.status(n) {
                Some(Status::Kingdom) => self.empire_test(n, dice, log),
                _ => {
                    let pay = self.st.nations[n].treasury.min(10);
                    self.st.spend_gold(n, pay);
                }
            },
        }
    }

    /// Areas `n` controls (Civilized, Barbarian).
    pub fn controlled_areas(&self, n: usize) -> (u8, u8) {
        let g = self.game;
        self.st.check_control(&g.scenario);
        let (mut civ, mut barb) = (0, 0);
        for a in 0..g.scenario.areas.len() {
            if super::alliances::shares_control(&self.st, a, n) {
                match g.scenario.areas[a].kind {
                    AreaKind::Civilized => civ += 1,
                    AreaKind::Barbarian => barb += 1,
                }
            }
        }
        (civ, barb)
    }

    fn empire_test(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let (civ, barb) = self.controlled_areas(n);
        let test = EmpireTest {
            civilized_areas: civ,
            barbarian_areas: barb,
            leader_combat: self.leader_of(n).map_or(0, |r| r.combat),
            decline: self.st.nations[n].decline,
            holds_roma_or_constantinopolis: g
                .great_cities
                .iter()
                .any(|&p| self.st.owner[p as usize] == n as u8),
            clients: 0,
            area_bonus: g.area_bonus,
        };
        if test.required() && test.roll(dice) {
            game_log!(
                log,
                "{} becomes an Empire ({civ} Civilized + {barb} Barbarian Areas)",
                g.name(n)
            );
            self.promote(n, Status::Empire);
            self.st.counters.empires_founded += 1;
        }
    }

    // ---- 1.B Entries, the Roman split, reinforcements ---------------------------------------------

    pub fn split_rome(&mut self, log: &mut dyn GameLog) {
        let g = self.game;
        let (w, e) = (g.romani, g.orientali);
        if w == usize::MAX || e == usize::MAX || self.st.status(w).is_none() {
            return;
        }
        game_log!(log, "the Empire splits: {} and {}", g.name(w), g.name(e));
        // Byzantium enters with its own forces in its capital, then takes the Eastern Areas.
        state::enter(&g.scenario, &mut self.st, e);
        for &a in &g.scenario.roman_split {
            let a = a as usize;
            for &p in &g.scenario.areas[a].provinces {
                if self.st.owner[p as usize] == w as u8 {
                    self.st.set_owner(&g.scenario, p as usize, e as u8);
                }
            }
            let moved = *self.st.at(w, a);
            for k in 0..state::NT {
                self.st.at_mut(e, a)[k] += moved[k];
            }
            *self.st.at_mut(w, a) = [0; state::NT];
        }
    }

    fn attila_dies(&mut self, log: &mut dyn GameLog) {
        let h = self.game.hunni;
        if h == usize::MAX || self.st.status(h).is_none() {
            return;
        }
        game_log!(log, "Attila dies: the Huns vanish");
        self.eliminate(h);
    }

    /// A nation leaves the game: its units go, its provinces are left uncontrolled.
    pub fn eliminate(&mut self, n: usize) {
        let s = &self.game.scenario;
        // Its vassals and clients go free, its federates keep their provinces (XXVIII.H, XXIX.H).
        self.free_dependants_of(n, &mut crate::game::NoLog);
        self.st.nations[n].bond = super::politics::Bond::Free;
        self.st.nations[n].lord = NONE;
        self.st.nations[n].leader = super::leaders::InPlay::NONE;
        self.st.remove_all_units(n);
        self.st.release_all(s, n);
        self.st.set_phase(s, n, Phase::Gone);
        self.st.set_horde(s, n, NO_PROVINCE);
        let ns = &mut self.st.nations[n];
        ns.capital = NO_PROVINCE;
        let gold = ns.treasury;
        self.st.spend_gold(n, gold);
    }

    fn enter_nations(&mut self, turn: u8, log: &mut dyn GameLog) {
        let g = self.game;
        for n in 0..g.scenario.nations.len() {
            let nation = &g.scenario.nations[n];
            if turn == 1 || n == g.orientali {
                continue;
            }
            let waiting = self.st.nations[n].phase == Phase::Waiting;
            if waiting && nation.entry_turn <= turn {
                // A Kingdom appears once its capital province is free (the Time Track places it).
                if let Some(c) = nation.capital {
                    if self.st.owner[c as usize] != NONE {
                        continue;
                    }
                }
                state::enter(&g.scenario, &mut self.st, n);
                game_log!(log, "{} enters", g.name(n));
            }
            // A raider settling on the map (the Angles, L704): its horde and its units arrive.
            if nation.active_from == turn && self.st.status(n).is_some() {
                if let Some(h) = nation.horde {
                    let a = g.scenario.provinces[h as usize].area as usize;
                    let off = self.st.nations[n].offmap;
                    let mut row = self.st.at_mut(n, a);
                    for k in 0..state::NT {
                        row[k] += off[k];
                    }
                    drop(row);
                    *self.st.offmap_mut(n) = [0; state::NT];
                    self.st.set_horde(&g.scenario, n, h);
                    self.st.nations[n].settled = false;
                    if self.st.owner[h as usize] == NONE {
                        self.st.set_owner(&g.scenario, h as usize, n as u8);
                    }
                    game_log!(
                        log,
                        "{} lands at {}",
                        g.name(n),
                        g.scenario.provinces[h as usize].name
                    );
                }
            }
        }
    }

    /// IX: a Barbarian on the map gets 1 unit a turn with its horde (the default when the Time
    /// Track shows nothing more; Nomads choose theirs); an inactive minor Kingdom rebuilds one lost
    /// unit a turn.
    fn reinforce(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let infantry = state::template("infantry");
        let horse_archer = state::template("horse_archer");
        for n in 0..self.st.nations.len() {
            match self.st.status(n) {
                Some(Status::Barbarian) if !g.inactive[n] => {
                    let h = self.st.nations[n].horde;
                    if h == NO_PROVINCE {
                        continue;
                    }
                    let a = g.scenario.provinces[h as usize].area as usize;
                    let k = if g.nomad[n] { horse_archer } else { infantry };
                    self.st.add_units(n, a, k, 1);
                }
                Some(_) if g.inactive[n] && g.minor[n] => {
                    let c = self.st.nations[n].capital;
                    let home = if c != NO_PROVINCE {
                        c
                    } else {
                        match g.scenario.nations[n].controls.first() {
                            Some(&p) if self.st.owner[p as usize] == n as u8 => p,
                            _ => continue,
                        }
                    };
                    let a = g.scenario.provinces[home as usize].area as usize;
                    let have = self.st.units_of(n);
                    let full: u32 = g.scenario.nations[n].units.iter().map(|u| u.1 as u32).sum();
                    if have < full {
                        // Rebuilds one lost unit at random among the starting types it lacks.
                        let missing: u32 = full - have;
                        let mut r = dice.below(missing as u64) as u32;
                        for &(k, c) in &g.scenario.nations[n].units {
                            let lack =
                                (c as u32).saturating_sub(self.st.at(n, a)[k as usize] as u32);
                            if r < lack {
                                self.st.add_units(n, a, k as usize, 1);
                                game_log!(log, "{} rebuilds a unit", g.name(n));
                                break;
                            }
                            r = r.saturating_sub(lack);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    // ---- End of turn: recovery of unowned sites, scoring, the West ---------------------------------

    /// Pillage markers on provinces nobody controls are cleared at the end of the turn (nobody's
    /// Income step would clear them).
    fn recover_unowned(&mut self) {
        for p in 0..self.st.owner.len() {
            if self.st.owner[p] == NONE {
                self.st.set_pillaged(&self.game.scenario, p, false);
            }
        }
    }

    /// What nation `n`'s objectives would score now (0 for a nation out of play or inactive).
    pub fn objective_vp(&self, n: usize) -> i32 {
        let g = self.game;
        self.st.check_control(&g.scenario);
        if self.st.status(n).is_none() || g.inactive[n] {
            return 0;
        }
        // Its own land and its vassals' count whole, its clients' half (XXVII.A, XXIX.E); a
        // vassal scores half (XXIX.F); every half rounded up (§0).
        let mut halves = 0i32;
        for o in &g.scenario.nations[n].objectives {
            let holder = match o.target {
                super::scenario::Target::Area(a) => match self.st.control[a as usize] {
                    _ if super::alliances::shares_control(&self.st, a as usize, n) => n as u8,
                    c => c,
                },
                super::scenario::Target::Province(p) => self.st.owner[p as usize],
            };
            halves += super::politics::share_halves(&self.st, n, holder, o.vp as i32);
        }
        let vp = (halves + 1) / 2;
        if self.st.nations[n].bond == super::politics::Bond::Vassal {
            (vp + 1) / 2
        } else {
            vp
        }
    }

    fn score(&mut self, log: &mut dyn GameLog) {
        let g = self.game;
        for n in 0..g.scenario.nations.len() {
            let vp = self.objective_vp(n);
            if vp > 0 {
                self.st.nations[n].vp[VP_OBJECTIVES] += vp;
                self.st.turn_vp[g.player_of(n)] += vp;
                game_log!(log, "scoring: {} +{vp} VP for its objectives", g.name(n));
            }
        }
    }

    fn west_falls(&mut self, turn: u8, log: &mut dyn GameLog) {
        let w = self.game.romani;
        if w == usize::MAX || self.st.counters.west_fall_turn != 0 {
            return;
        }
        let gone = match self.st.status(w) {
            None => self.st.nations[w].phase == Phase::Gone,
            Some(_) => !self.st.owner.contains(&(w as u8)),
        };
        if gone {
            game_log!(log, "the Western Empire has fallen");
            self.st.counters.west_fall_turn = turn;
        }
    }

    pub fn player_vp(&self, p: usize) -> i32 {
        let g = self.game;
        (0..g.scenario.nations.len())
            .filter(|&n| g.player_of(n) == p)
            .map(|n| self.st.nations[n].vp.iter().sum::<i32>())
            .sum()
    }

    fn observe(&mut self, observer: &mut dyn TurnObserver) {
        let g = self.game;
        let m = super::TURN_METRICS.len();
        self.per_player.fill(0.0);
        for n in 0..g.scenario.nations.len() {
            let p = g.player_of(n);
            let row = &mut self.per_player[p * m..(p + 1) * m];
            row[0] += self.st.nations[n].vp.iter().sum::<i32>() as f64;
            row[1] += self.st.nations[n].treasury as f64;
            row[2] += self.st.units_of(n) as f64;
        }
        for &o in &self.st.owner {
            if o != NONE {
                self.per_player[g.player_of(o as usize) * m + 3] += 1.0;
            }
        }
        self.global.fill(0.0);
        for ns in &self.st.nations {
            match ns.phase {
                Phase::Active(Status::Barbarian) => self.global[0] += 1.0,
                Phase::Active(Status::Kingdom) => self.global[1] += 1.0,
                Phase::Active(Status::Empire) => self.global[2] += 1.0,
                Phase::Gone => self.global[3] += 1.0,
                Phase::Waiting => {}
            }
        }
        observer.turn(self.st.turn as u32, &self.per_player, &self.global);
    }

    /// The winner at the end of the game: the most VP, the tie-break counting the last turn's VP
    /// twice, then Romans > Huns > Persians > Goths (L367-369, the scenario's player order).
    pub fn winner(&self) -> usize {
        let key = |q: usize| (self.player_vp(q), self.player_vp(q) + self.st.turn_vp[q]);
        let mut best = 0;
        for p in 1..self.game.players.len() {
            if key(p) > key(best) {
                best = p;
            }
        }
        best
    }

    /// Fills the record: VP, the winner ([`Self::winner`]), the per-game columns.
    pub fn record(&self, record: &mut GameRecord, log: &mut dyn GameLog) {
        let g = self.game;
        let players = g.players.len();
        record.turns = g.last_turn as u32;
        record.ending = (g.scenario.islam_turn > 0) as usize;
        for p in 0..players {
            record.score[p] = self.player_vp(p) as f64;
        }
        let best = self.winner();
        record.win_share[best] = 1.0;
        game_log!(
            log,
            "winner: {} with {} VP",
            g.players[best],
            self.player_vp(best)
        );
        let c = &self.st.counters;
        let fall = if c.west_fall_turn == 0 {
            WEST_STANDS
        } else {
            c.west_fall_turn
        };
        let head = [
            fall as f64,
            c.kingdoms_founded as f64,
            c.empires_founded as f64,
            c.collapses as f64,
            c.battles as f64,
            c.sieges as f64,
            c.cities_taken as f64,
            c.cities_sacked as f64,
            c.walls_razed as f64,
            c.cities_fortified as f64,
            c.raids as f64,
            c.revolts as f64,
            c.revolts_suppressed as f64,
            c.interceptions as f64,
            c.flights as f64,
            c.landings_tried as f64,
            c.landings as f64,
            c.naval_battles as f64,
            c.fleets_sunk as f64,
            c.assaults as f64,
            c.limes_destroyed as f64,
            c.submissions as f64,
            c.clients_made as f64,
            c.foedera as f64,
            c.foedera_broken as f64,
            c.freed as f64,
            c.leaders_killed as f64,
            c.campaigns as f64,
            c.conversions as f64,
            c.diplomacy_cards as f64,
            c.truces as f64,
            c.alliances as f64,
            c.marriages as f64,
            c.mercenaries_hired as f64,
            c.sieges_bribed as f64,
            c.foedus_cards as f64,
            c.heresies as f64,
            c.event_alliances as f64,
            c.coalitions as f64,
            c.limes_local_units as f64,
            c.kingdom_foedera as f64,
            c.mercenaries_deserted as f64,
            c.pacts as f64,
            c.calamities as f64,
            c.calamity_heresies as f64,
            c.fleet_moves as f64,
            c.transports as f64,
            c.barbarian_landings as f64,
            c.joint_battles as f64,
            c.pooled_areas as f64,
            c.naval_interceptions as f64,
            c.naval_refusals as f64,
            c.calamity_effects as f64,
            c.usurper_tests as f64,
            c.usurpers as f64,
            c.blockade_moves as f64,
            c.blockades_met as f64,
            c.blockade_battles as f64,
            c.blockades_broken as f64,
            c.crossings_refused as f64,
            c.interceptions_on_the_way as f64,
            c.transports_planned as f64,
            c.transports_dropped as f64,
            c.transports_intercepted as f64,
            c.units_lost_at_sea as f64,
        ];
        record.extra[..head.len()].copy_from_slice(&head);
        for p in 0..players.min(4) {
            let sources = state::VP_SOURCES.len();
            for src in 0..sources {
                let vp: i32 = (0..g.scenario.nations.len())
                    .filter(|&n| g.player_of(n) == p)
                    .map(|n| self.st.nations[n].vp[src])
                    .sum();
                record.extra[head.len() + sources * p + src] = vp as f64;
            }
        }
        let first = super::GAME_COLUMNS.len();
        for (i, &(n, src)) in g.nation_columns.iter().enumerate() {
            record.extra[first + i] = self.st.nations[n].vp[src] as f64;
        }
    }
}

impl Drop for Play<'_> {
    fn drop(&mut self) {
        let battles = std::mem::replace(
            &mut self.battles,
            Battles::new(self.game.system, self.game.options.clone()),
        );
        if let Ok(mut pool) = self.game.caches.lock() {
            pool.push(battles);
        }
    }
}

impl GamePlay for Play<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        self.run(dice, observer, log);
        self.record(record, log);
    }
}

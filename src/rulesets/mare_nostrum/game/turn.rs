//! One game, turn by turn (digest §2), with the end conditions of §1.4 checked after every turn.

use super::economy::Scratch;
use super::scenario::{COLLAPSE, FIASCO, STABILITY, T};
use super::search::{Directive, Rollouts};
use super::state::State;
use super::war::MoveScratch;
use super::Model;
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, TurnObserver};
use crate::game_log;

pub struct Worker<'a> {
    model: &'a Model,
    state: State,
    scratch: Scratch,
    moves: MoveScratch,
    per_player: Vec<f64>,
    global: Vec<f64>,
    /// For searching nations: the game as rollouts see it, and the searcher's buffers.
    search: Option<(Rollouts<'a>, Searcher<Rollouts<'a>>)>,
}

impl<'a> Worker<'a> {
    pub fn new(model: &'a Model) -> Worker<'a> {
        Worker {
            model,
            state: State::default(),
            scratch: Scratch::default(),
            moves: MoveScratch::default(),
            per_player: Vec::new(),
            global: Vec::new(),
            search: model
                .policies
                .iter()
                .any(|p| p.search_spec().is_some())
                .then(|| (Rollouts::new(model), Searcher::default())),
        }
    }

    #[cfg(test)]
    pub fn state(&self) -> &State {
        &self.state
    }
}

impl GamePlay for Worker<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        self.play_watched(dice, record, observer, log, &mut |_, _| {});
    }
}

/// Called after every phase of a turn with the phase's name: the tests' window on the game.
pub type PhaseWatch<'w> = dyn FnMut(Phase, &State) + 'w;

/// The phases of a turn, in order (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Economy,
    HistoryCards,
    Stability,
    Diplomacy,
    Population,
    Recruitment,
    MilitaryUpkeep,
    Garrisons,
    Fleets,
    Independents,
    Trade,
    Movement,
    EndOfTurn,
}

impl Worker<'_> {
    /// [`GamePlay::play`], with `after` called at the end of every phase.
    pub fn play_watched(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
        after: &mut PhaseWatch,
    ) {
        let m = self.model;
        let s = &mut self.state;
        s.reset(m, dice);
        let mut historical_periods = 0;
        let ending = loop {
            s.turn += 1;
            // The year, not the turn, gives the date: a Historical Period spans five.
            game_log!(
                log,
                "== turn {} ({} AUC){} ==",
                s.turn,
                m.scenario.start_year + s.year as i32 - 1,
                if s.historical_period {
                    " — a Historical Period (5 years)"
                } else {
                    ""
                }
            );
            if let Some((game, searcher)) = &mut self.search {
                s.directives.fill(Directive::Follow);
                for n in 0..m.policies.len() {
                    let Some(spec) = m.policies[n].search_spec() else {
                        continue;
                    };
                    if !s.nations[n].alive {
                        continue;
                    }
                    let d = searcher.choose(game, s, n, spec, dice).unwrap_or_default();
                    s.directives[n] = d;
                    game_log!(log, "  {} (search) plays {d:?} this turn", m.name(n));
                }
            }
            play_turn(m, s, &mut self.scratch, &mut self.moves, dice, log, after);
            historical_periods += s.historical_period as u32;
            measure(m, s, &mut self.per_player, &mut self.global);
            observer.turn(s.turn, &self.per_player, &self.global);
            if let Some(e) = end_condition(m, s, record) {
                break e;
            }
            between_turns(s);
        };
        record.turns = s.turn;
        record.ending = ending;
        for (n, nation) in s.nations.iter().enumerate() {
            record.score[n] = nation.vp as f64;
        }
        record.extra.copy_from_slice(&[
            s.battles as f64,
            s.wars_declared as f64,
            s.surrenders as f64,
            s.annexations as f64,
            s.cities_taken as f64,
            historical_periods as f64,
        ]);
        game_log!(
            log,
            "== the game ends after {} turns: {} ==",
            s.turn,
            super::ENDINGS[ending]
        );
    }
}

/// The years the turn took pass; two war-free years in a row make the next turn a Historical
/// Period (L919, A38).
pub(super) fn between_turns(s: &mut State) {
    s.year += if s.historical_period { 5 } else { 1 };
    let any_war = s.nations.iter().any(|n| n.at_war != 0);
    s.peace_turns = if any_war { 0 } else { s.peace_turns + 1 };
    s.historical_period = s.peace_turns >= 2;
}

pub(super) fn play_turn(
    m: &Model,
    s: &mut State,
    scratch: &mut Scratch,
    moves: &mut MoveScratch,
    dice: &mut Dice,
    log: &mut dyn GameLog,
    after: &mut PhaseWatch,
) {
    let p = &m.policies;
    s.refresh_port_seas();
    game_log!(log, "economic phase");
    s.economic_phase(m, scratch, log);
    after(Phase::Economy, s);
    if m.rules.abstract_cards {
        history_cards(m, s, dice, log);
        after(Phase::HistoryCards, s);
    }
    s.invest_in_stability(m, p, dice, log);
    after(Phase::Stability, s);
    game_log!(log, "diplomacy");
    s.diplomacy(m, p, dice, log);
    after(Phase::Diplomacy, s);
    s.population_changes(m, p, dice);
    after(Phase::Population, s);
    s.recruit(m, p, dice, log);
    after(Phase::Recruitment, s);
    s.military_upkeep(m, log);
    after(Phase::MilitaryUpkeep, s);
    s.garrisons(m, p, dice);
    after(Phase::Garrisons, s);
    s.naval_phase(m, p, dice, log);
    after(Phase::Fleets, s);
    s.independent_diplomacy(m, p, dice, log);
    after(Phase::Independents, s);
    s.trade_phase(m, p, dice);
    s.give_goods(m, p, dice, log);
    s.buy_from_independents(m, p, dice, log);
    after(Phase::Trade, s);
    game_log!(log, "movement");
    s.movement(m, p, moves, dice, log);
    after(Phase::Movement, s);
    end_of_turn(m, s, dice, log);
    after(Phase::EndOfTurn, s);
}

/// The abstract deck (§7.2): each nation holding a card plays one a turn: +20 T, +1 stability or +5 VP.
fn history_cards(m: &Model, s: &mut State, dice: &mut Dice, log: &mut dyn GameLog) {
    for n in 0..s.nations.len() {
        if !s.nations[n].alive || s.nations[n].cards == 0 {
            continue;
        }
        s.nations[n].cards -= 1;
        match dice.d(3) {
            1 => s.nations[n].goods[T] += 20,
            2 => s.change_stability(n, 1, m.rules.optimal_vp),
            _ => s.nations[n].vp += 5,
        }
        game_log!(log, "  {} plays a history card", m.name(n));
    }
}

fn end_of_turn(m: &Model, s: &mut State, dice: &mut Dice, log: &mut dyn GameLog) {
    game_log!(log, "end of turn");
    // Leaders age (L742-L748, L931) and check at 51+ (L750); Fiasco and Collapse check one more.
    let years = if s.historical_period { 5 } else { 1 };
    for li in 0..s.leaders.len() {
        let l = s.leaders[li];
        if !l.alive {
            continue;
        }
        let extra = if l.nation == super::state::NONE {
            0
        } else {
            match s.nations[l.nation as usize].stability {
                FIASCO => 1,
                COLLAPSE => 2,
                _ => 0,
            }
        };
        s.leaders[li].leader.age += years + extra;
        let age = s.leaders[li].leader.age;
        if age >= 51 {
            let den = 2 + s.leaders[li].leader.historical as u32;
            if m.field.age_check.removes(dice.d(100), age / den) {
                s.remove_leader(m, li, dice, log);
            }
        }
    }
    for n in 0..s.nations.len() {
        let st = s.nations[n].stability;
        if !s.nations[n].alive || st < FIASCO {
            continue;
        }
        let count = s
            .leaders
            .iter()
            .filter(|l| l.alive && l.nation as usize == n)
            .count();
        if count == 0 {
            continue;
        }
        let k = dice.below(count as u64) as usize;
        let li = (0..s.leaders.len())
            .filter(|&i| s.leaders[i].alive && s.leaders[i].nation as usize == n)
            .nth(k)
            .unwrap();
        let den = if st == FIASCO { 5 } else { 4 } + s.leaders[li].leader.historical as u32;
        if m.field
            .age_check
            .removes(dice.d(100), s.leaders[li].leader.age / den)
        {
            s.remove_leader(m, li, dice, log);
        }
    }
    s.forced_surrenders(m, log);
    s.quiet_wars_end(m, log);
    // Cards: draw one if below the limit (two in a Historical Period), discard down to it.
    for nation in &mut s.nations {
        let draw = if s.historical_period {
            2
        } else {
            (nation.cards < nation.card_limit) as u32
        };
        nation.cards = (nation.cards + draw).min(nation.card_limit);
    }
    if s.historical_period {
        for n in 0..s.nations.len() {
            if !s.nations[n].alive {
                continue;
            }
            let wanted = m.policies[n].reforms(m, s, n, dice);
            s.reform(m, n, wanted, dice, log);
            let t = m.policies[n]
                .invest_for_vp(m, s, n, dice)
                .min(s.nations[n].goods[T])
                .max(0);
            let vp = t / 50;
            s.nations[n].goods[T] -= 50 * vp;
            s.nations[n].vp += vp;
        }
    }
    for n in 0..s.nations.len() {
        if s.nations[n].alive {
            game_log!(
                log,
                "  {}: {} VP, {}, treasury {}, {} land units, {} fleets",
                m.name(n),
                s.nations[n].vp,
                STABILITY[s.nations[n].stability as usize],
                super::economy::goods_text(&s.nations[n].goods),
                s.total_units(n),
                s.nations[n].fleets
            );
        }
    }
}

fn measure(m: &Model, s: &State, per_player: &mut Vec<f64>, global: &mut Vec<f64>) {
    let k = super::TURN_METRICS.len();
    per_player.clear();
    per_player.resize(s.nations.len() * k, 0.0);
    for n in 0..s.nations.len() {
        let row = &mut per_player[n * k..(n + 1) * k];
        row[0] = s.nations[n].vp as f64;
        row[1] = s.nations[n].goods[T] as f64;
        row[2] = s.nations[n].stability as f64;
        row[3] = s.total_units(n) as f64;
        row[4] = s.nations[n].fleets as f64;
        row[5] = s.owned[n].len() as f64;
    }
    let _ = m;
    global.clear();
    let wars: u32 = s.nations.iter().map(|n| n.at_war.count_ones()).sum::<u32>() / 2;
    global.push(wars as f64);
    global.push(s.nations.iter().filter(|n| n.alive).count() as f64);
}

/// §1.4: the first end condition that holds (winners written to `record`), or None.
pub(super) fn end_condition(m: &Model, s: &State, record: &mut GameRecord) -> Option<usize> {
    let nn = s.nations.len();
    // The best and second-best VP (equal when two nations share the lead); runs every turn, so no allocation.
    let (mut top, mut second) = (i64::MIN, i64::MIN);
    for nation in &s.nations {
        if nation.vp > top {
            second = top;
            top = nation.vp;
        } else if nation.vp > second {
            second = nation.vp;
        }
    }
    let share_top = |record: &mut GameRecord| {
        let k = s.nations.iter().filter(|n| n.vp == top).count() as f64;
        for n in 0..nn {
            record.win_share[n] = if s.nations[n].vp == top { 1.0 / k } else { 0.0 };
        }
    };
    if top >= 700 {
        share_top(record);
        return Some(0);
    }
    if top >= 350 && top > 2 * second {
        share_top(record);
        return Some(1);
    }
    let all_others = |n: usize| ((1u32 << nn) - 1) as u16 & !(1 << n);
    let full = (0..nn)
        .filter(|&n| s.nations[n].unconditional_from & all_others(n) == all_others(n))
        .fold(0u16, |mask, n| mask | 1 << n);
    if full != 0 {
        for n in 0..nn {
            if full & (1 << n) != 0 {
                record.win_share[n] = 1.0 / full.count_ones() as f64;
            }
        }
        return Some(2);
    }
    if s.eliminated >= 6 {
        share_top(record);
        return Some(3);
    }
    let no_war = s.nations.iter().all(|n| n.at_war == 0);
    if no_war {
        for n in 0..nn {
            let others = (0..nn)
                .filter(|&o| o != n && s.nations[o].alive)
                .fold(0u16, |a, o| a | 1 << o);
            let nation = &s.nations[n];
            if nation.alive
                && nation.vp == top
                && nation.military & others == others
                && nation.commercial & others == others
            {
                record.win_share[n] = 1.0;
                return Some(4);
            }
        }
    }
    if s.turn >= m.rules.turn_cap {
        share_top(record);
        return Some(5);
    }
    None
}

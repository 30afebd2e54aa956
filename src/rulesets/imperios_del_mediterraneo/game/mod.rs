//! The Imperios del Mediterráneo full game (issue 23), Layer A of digest §6.3 ("Core-IDM"): the
//! rules engine on data files. Files: the data files' serde shapes (`files.rs`), their loader
//! (`load.rs`), the map by id that an explicit map file and the ring template both become
//! (`map.rs`), the loaded scenario (`scenario.rs`), the game state (`state.rs`), the turns and
//! rounds and the final ranking (`turn.rs`), the set-up (`setup.rs`), the round events
//! (`events.rs`), the action phase and the defender's answers (`actions.rs`), an expedition
//! resolved, conquest and pacification (`conquest.rs`), the end-of-turn scoring and refill
//! (`scoring.rs`), expeditions and raids through the calculator's own code (`military.rs`), the
//! players (`policy.rs`) and their decisions (`decide.rs`), the search player's decisions
//! (`search.rs`).
//!
//! Every run on data that is not transcribed carries [`scenario::SYNTHETIC_BANNER`].

// Players, cities and nodes index several parallel tables at once.
#![allow(clippy::needless_range_loop)]

mod actions;
mod conquest;
mod decide;
mod events;
mod files;
mod kept_outcomes;
mod kept_scan;
pub mod key;
pub mod load;
pub mod map;
pub mod military;
pub mod policy;
mod reached;
pub mod scenario;
pub mod scoring;
pub mod search;
mod setup;
pub mod state;
pub mod turn;

/// Most empires a game seats (`players` 2-8).
pub const MAX_EMPIRES: usize = 8;

#[cfg(test)]
mod battle_texts_tests;
#[cfg(test)]
mod defender_texts_tests;
#[cfg(test)]
mod experiment_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod kept_tests;
#[cfg(test)]
mod load_tests;
#[cfg(test)]
mod map_tests;
#[cfg(test)]
mod passage_tests;
#[cfg(test)]
mod policy_tests;
#[cfg(test)]
mod reached_tests;
#[cfg(test)]
mod special_battle_tests;
#[cfg(test)]
mod special_tests;
#[cfg(test)]
mod texts_tests;
#[cfg(test)]
mod window_tests;

use crate::error::{AleaError, Result};
use crate::game::{GameModel, GamePlay, GameSetup};
use crate::options::Options;
use policy::{Policy, CATALOG};
use scenario::Scenario;
use std::path::Path;

pub const ENDINGS: &[&str] = &["automatic victory (cities)", "last turn"];
pub const TURN_METRICS: &[&str] = &["vp", "cities", "hand"];
pub const GLOBAL_METRICS: &[&str] = &["rounds"];
pub const GAME_COLUMNS: &[&str] = &[
    "rounds",
    "expeditions",
    "empire_attacks",
    "conquests",
    "pacifications",
    "wrecks",
    "raids_taken",
];

/// What a game on vanilla decks does not play (the first of its not-played lines).
pub const VANILLA_DECKS: &str = "vanilla decks only: no Empire (I) or Special Event (X) cards (their texts are printed on the cards, §5.3, and §6.2 gives no placeholder: a vanilla deck holds none; a deck file may give an X card an assumed text), no card texts (the effect hooks of A-61 run, these decks attach no effect); Time for diplomacy therefore leaves Pass and Change";
/// What a game on decks with card texts does not play (in place of [`VANILLA_DECKS`]).
pub const TEXT_DECKS: &[&str] = &[
    "card texts: only the generic effects the decks attach (effect, amount, timing; docs/games.md); Special Event (X) cards only with an assumed text (provenance assumed, labelled in the deck's line), their combat dice committed to an expedition's card window for either side (by the attacker with its City Attack cards, the defender with its City Defence cards, third parties by their hinder parameter; in a pacification the attacker's and the third parties', for the attacker or the area) and played, under rule option special_event_window, in the first combat of the chain that is fought (default \"first-battle\": an interception's naval or field battle, else the assault or pacification; after a battle each rolls for recovery) or kept for the assault or pacification (\"target\"); not in a raid's battle, not outside combat; Empire (I) cards only as their empire_effect (VP, draws) in the action phase",
    "card texts in battles: a land or naval interceptor's cards play their dice, bonus, recovery and end-of-combat (VP, draws when it wins its battle) texts, a land interceptor's start-of-battle kills (simultaneous with the attacker's: the chain branches on both sides' losses, the killed cards roll for recovery), under either interception_timing; the attacker's end-of-combat texts (VP, draws) fire for its cards that fought to the resolution of each interception battle it won and of a won assault or pacification; not played: a flee text on an interceptor's card (the generic effect makes the interceptor flee: on its own card it has no meaning), a raid interceptor's recovery and end-of-combat texts (the raid code rolls its recovery as printed); the chain's defender VP leaves out the interceptor's end-of-combat VP (the game adds them)",
    "card texts and the players: the greedy player's exact chance and expected VP include the combat texts (dice, bonus, ignored fortification, start-of-battle kills, the fleeing interceptor, VP on a win) but not end-of-combat draws or recovery texts; the scripted players play an Empire card whenever they declare no expedition",
];

/// What the engine does not play yet: printed by every run (after the decks' line).
pub const SIMPLIFICATIONS: &[&str] = &[
    "combat windows: the attacker's Leaders and City Attack cards, the defender's City Defence cards and the third parties' City Defence and City Attack cards (scripted players' hinder parameter: against a side that leads them by that many VP; default 30 = never; the random player never plays them) are committed when the expedition is declared (returned to hand if it never reaches the combat they join: the assault, or for Special Event cards the first battle under special_event_window), not in the window's rounds after each battle's reveal (no holder keeps an X card for a later combat of the chain); the exact chain counts the third parties' dice, the greedy attacker's prediction does not foresee them; no third party plays in a raid's assault",
    "interceptions (A-24, rule option interception_timing): by default (\"as-reached\") the defender decides each interception as the expedition reaches its point (its straits first, then by sea the departure port before the naval battle and the naval leg, then the arrival: the landing, a march's arrival port or the city), seeing the attacker's surviving cards (their count by role unless omniscient) and the earlier battles, at most one land and one naval interception (the interceptors' card texts played as at declaration); the greedy defender sends its strongest cards at each point it reaches (at the departure port only where the exact chance for the attacker from there is lower than with the land interception at the arrival), P2 only where the interception lowers the attacker's exact chance from that point by delta (later points not counted), the random player flips coins at each point; \"at-declaration\" commits both when the expedition is declared; the routes the interceptors can take (and 8.3's owners' answers) are fixed at the declaration, each interceptor rolls its straits when it is sent; other nodes of a route give the same battle and are not offered; the scripted attacker predicts the greedy defender's rule with the land interception at the arrival (not P2's delta test, not the departure port)",
    "routes: a land route, one naval leg from the departure port (an own port reached by land, fewest straits) to the target port, or a naval leg to another own port and a march by land from it (offered to a target that is not a port where it crosses fewer straits than land alone); a naval arrival assaults directly when the fleets allow it (A-22), else lands; the search player's interceptions (whether and where) and its free-passage answers are not searched: they are its rollout policy's rule in its games and its rollouts (the scripted player's with a scripted rollout, coin flips with a random one)",
    "optional rule 8.3 (free passage, when on): a route passes other players' cities only where no route of the player's own reaches the target (or its interception point); each owner is asked once, in route order, before the straits; a cancelled expedition spends the action; permission is never negotiated beforehand",
];

/// The rule options the game reads, once per game set (the §3.12 flags it touches).
#[derive(Clone, Debug)]
pub struct Rules {
    pub all_pass_bonus: i32,
    pub round_resets: bool,
    pub progression_tie_card: u8,
    pub double_last_turn: bool,
    pub wreck_ends_phase: bool,
    pub neutral_may_target_self: bool,
    pub pirates_may_target_self: bool,
    pub pacify_survivors_recover: bool,
    pub aside_fleets_recover: bool,
    pub shorter_game: bool,
    pub first_commands: bool,
    pub free_passage: bool,
    /// the defender decides each interception as the expedition reaches its point (else
    /// both when it is declared).
    pub intercept_as_reached: bool,
    pub extra_turns: u8,
    pub options: Options,
}

impl Rules {
    pub fn from_options(o: &Options) -> Rules {
        Rules {
            all_pass_bonus: o.int("all_pass_bonus") as i32,
            round_resets: o.flag("round_counter_resets_each_turn"),
            progression_tie_card: o.int("progression_tie_card") as u8,
            double_last_turn: o.choice("double_vp_turn") == "last",
            wreck_ends_phase: o.flag("wreck_ends_action_phase"),
            neutral_may_target_self: o.flag("neutral_attack_may_target_self"),
            pirates_may_target_self: o.flag("pirates_may_target_self"),
            pacify_survivors_recover: o.flag("pacify_survivors_get_recovery_roll"),
            aside_fleets_recover: o.flag("aside_fleets_recover"),
            shorter_game: o.flag("shorter_game"),
            first_commands: o.flag("first_commands"),
            free_passage: o.flag("free_passage"),
            intercept_as_reached: o.choice("interception_timing") == "as-reached",
            extra_turns: o.int("extra_turns") as u8,
            options: o.clone(),
        }
    }
}

pub struct Game {
    pub scenario: Scenario,
    pub rules: Rules,
    pub players: Vec<String>,
    pub labels: Vec<String>,
    pub policies: Vec<Policy>,
    /// The empires in the order they play each round and place set-up markers (seat order):
    /// the scenario's order unless the experiment's `seat_order` permutes it.
    pub seats: Vec<usize>,
    pub turns: u8,
    /// Policies read other players' hidden cards instead of estimating them (digest §6.3: faster,
    /// not the game as played).
    pub omniscient: bool,
}

pub fn build(setup: &GameSetup) -> Result<Box<dyn GameModel>> {
    Ok(Box::new(build_game(setup)?))
}

pub fn build_game(setup: &GameSetup) -> Result<Game> {
    let f = &setup.fields;
    f.only(&[
        "scenario",
        "players",
        "policies",
        "omniscient",
        "seat_order",
        "tables",
    ])?;
    let path = f.string("scenario")?.ok_or_else(|| {
        AleaError::input(
            setup.source,
            f.field("scenario"),
            "nothing",
            "a Core-IDM scenario file, e.g. scenarios/imperios-del-mediterraneo/game/mirror-ring.toml",
        )
    })?;
    let players = f.int_in("players", 2, MAX_EMPIRES as i64)?.ok_or_else(|| {
        AleaError::input(
            setup.source,
            f.field("players"),
            "nothing",
            "the number of empires, 2-8",
        )
    })? as usize;
    let tables = f.string("tables")?.map(Path::new);
    let scenario = load::load_with(Path::new(path), players, tables)?;
    if let Some(missing) = scenario.refusal() {
        return Err(AleaError::input(
            setup.source,
            f.field("scenario"),
            format!("a transcribed map with data that is not: {missing}"),
            "every data file transcribed: per-empire win rates of the real game are refused until then (synthetic maps run, with the banner)",
        ));
    }
    let names: Vec<String> = scenario.empires.iter().map(|e| e.name.clone()).collect();
    let empty = toml::Table::new();
    let keys = crate::game::summary::player_keys(&names);
    let chosen = CATALOG.assign(&f.table("policies", &empty)?, &keys, "greedy")?;
    let (policies, labels): (Vec<_>, Vec<_>) =
        chosen.into_iter().map(|c| (c.policy, c.label)).unzip();
    let mut game = Game::new(scenario, &setup.options, names, labels, policies);
    game.omniscient = f.bool("omniscient")?.unwrap_or(false);
    if let Some(v) = f.raw("seat_order") {
        game.seats = seat_order(setup.source, &f.field("seat_order"), v, players)?;
    }
    Ok(game)
}

/// `seat_order = [2, 1, 3]`: the scenario's empires by number (1 = its first), in the order
/// they are to play; a permutation of 1..=players.
fn seat_order(source: &str, field: &str, v: &toml::Value, players: usize) -> Result<Vec<usize>> {
    let wanted = || {
        format!("a permutation of 1..={players}: the scenario's empires by number in the order they play, e.g. [2, 1{}]", if players > 2 { ", 3" } else { "" })
    };
    let list = v
        .as_array()
        .ok_or_else(|| AleaError::input(source, field, crate::spec::value_text(v), wanted()))?;
    let mut seats = Vec::with_capacity(players);
    for x in list {
        match x.as_integer() {
            Some(i) if (1..=players as i64).contains(&i) && !seats.contains(&(i as usize - 1)) => {
                seats.push(i as usize - 1)
            }
            _ => {
                return Err(AleaError::input(
                    source,
                    field,
                    crate::spec::value_text(v),
                    wanted(),
                ))
            }
        }
    }
    if seats.len() != players {
        return Err(AleaError::input(
            source,
            field,
            crate::spec::value_text(v),
            wanted(),
        ));
    }
    Ok(seats)
}

impl Game {
    pub fn new(
        scenario: Scenario,
        options: &Options,
        players: Vec<String>,
        labels: Vec<String>,
        policies: Vec<Policy>,
    ) -> Game {
        let rules = Rules::from_options(options);
        let players_count = players.len();
        let turns = scenario.turns + rules.extra_turns;
        Game {
            scenario,
            rules,
            players,
            labels,
            policies,
            seats: (0..players_count).collect(),
            turns,
            omniscient: false,
        }
    }
}

impl GameModel for Game {
    fn players(&self) -> &[String] {
        &self.players
    }
    fn player_policies(&self) -> &[String] {
        &self.labels
    }
    fn endings(&self) -> &[&'static str] {
        ENDINGS
    }
    fn turn_metrics(&self) -> &[&'static str] {
        TURN_METRICS
    }
    fn global_metrics(&self) -> &[&'static str] {
        GLOBAL_METRICS
    }
    fn game_columns(&self) -> &[&'static str] {
        GAME_COLUMNS
    }
    fn max_turns(&self) -> u32 {
        self.turns as u32
    }
    fn banner(&self) -> Option<&'static str> {
        self.scenario.banner()
    }
    /// Only the unperturbed ring with one policy for all: anywhere else the seats differ by
    /// more than their order, and a χ² against 1/n would not be a seat-order test.
    fn tests_equal_seats(&self) -> bool {
        self.scenario.mirror && self.labels.iter().all(|l| *l == self.labels[0])
    }
    fn describe(&self) -> Vec<String> {
        let s = &self.scenario;
        let mut out = Vec::new();
        if let Some(b) = s.banner() {
            out.push(format!(
                "{b}: seats on a synthetic map with synthetic decks and placeholder tables; no per-empire win rate of the real game is given until every data file is transcribed"
            ));
        }
        out.push(format!(
            "{} empires in seat order, {} cities, {} barbarian areas, {} turns, automatic victory at {} cities",
            s.empires.len(),
            s.map.cities.len(),
            s.map.areas.len(),
            self.turns,
            s.auto_win_cities
        ));
        if self.seats.iter().enumerate().any(|(k, &p)| k != p) {
            let order: Vec<&str> = self
                .seats
                .iter()
                .map(|&p| s.empires[p].name.as_str())
                .collect();
            out.push(format!(
                "seat order (experiment's seat_order): {}",
                order.join(", ")
            ));
        }
        for e in &s.empires {
            out.push(format!(
                "{}: capital {}, {} fortification markers, hand {}, deck {}",
                e.name,
                s.map.cities[e.capital].name,
                e.fortifications,
                e.hand_size,
                s.decks[e.deck].name
            ));
        }
        for (d, deck) in s.decks.iter().enumerate() {
            if !deck.has_effects || !s.empires.iter().any(|e| e.deck == d) {
                continue;
            }
            let texts: Vec<String> = deck
                .kinds
                .iter()
                .filter(|k| !k.effects.is_empty())
                .map(|k| {
                    let e: Vec<String> = k
                        .effects
                        .iter()
                        .map(|e| format!("{} {} {}", e.kind.name(), e.amount, e.timing.name()))
                        .collect();
                    match &k.assumed {
                        Some(label) => format!(
                            "{} (Special Event, ASSUMED text: {label}; {})",
                            k.name,
                            e.join(", ")
                        ),
                        None => format!("{} ({})", k.name, e.join(", ")),
                    }
                })
                .collect();
            out.push(format!(
                "deck {} card texts: {}",
                deck.name,
                texts.join("; ")
            ));
        }
        for src in &s.sources {
            out.push(format!(
                "data: {} {} [{}]: {}",
                src.provenance.name(),
                src.file,
                src.what,
                src.why
            ));
        }
        out.push(if self.omniscient {
            "information: omniscient (policies read the other players' hands)".to_string()
        } else {
            "information: each policy sees public information and its own hand; others' hidden cards are estimated from their decks less their discard piles".to_string()
        });
        let texts = s.empires.iter().any(|e| s.decks[e.deck].has_effects);
        let decks: &[&str] = if texts { TEXT_DECKS } else { &[VANILLA_DECKS] };
        for line in decks.iter().chain(SIMPLIFICATIONS) {
            out.push(format!("not played yet: {line}"));
        }
        out
    }
    fn worker(&self) -> Box<dyn GamePlay + '_> {
        Box::new(turn::Play::new(self))
    }
}

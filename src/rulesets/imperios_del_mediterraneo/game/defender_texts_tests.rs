//! The defender's card texts (digest §6.3 hooks, A-61): a naval interceptor's resolution and
//! recovery texts, and a winning interceptor's end-of-combat texts.

use super::game_tests::{check, game_with, options, RING};
use super::military::{self, Cards, Defence, Plan};
use super::policy;
use super::scenario::{CardEffect, Deck, EffectKind, Timing, FLEET, TROOP};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use crate::rulesets::imperios_del_mediterraneo::cards::Cv;

/// The ring for 3 with player 2 on a copy of the vanilla deck whose Flota is changed by `edit`.
fn with_fleet(edit: impl Fn(&mut super::scenario::CardKind)) -> Game {
    let mut g = game_with(RING, 3, policy::defaults("greedy"), &options());
    let s = &mut g.scenario;
    let vanilla = &s.decks[s.empires[1].deck];
    let mut kinds = vanilla.kinds.clone();
    for k in kinds.iter_mut().filter(|k| k.is(FLEET)) {
        edit(k);
    }
    let deck = Deck::new("edited".into(), kinds, vanilla.cards.clone());
    s.decks.push(deck);
    s.empires[1].deck = s.decks.len() - 1;
    g
}

fn node(g: &Game, name: &str) -> usize {
    let s = &g.scenario;
    (0..s.map.nodes())
        .find(|&n| s.map.node_name(n) == name)
        .unwrap()
}

/// Player 1 by sea from its capital against player 2's harbour, with 2 troops and a fleet;
/// player 2 intercepts at sea with two fleets.
fn by_sea(g: &Game) -> (Play<'_>, Plan, Defence) {
    let s = &g.scenario;
    let mut play = Play::new(g);
    let mut dice = Dice::for_trial(8, 0, 0);
    play.setup(&mut dice);
    let harbour = node(g, "harbour-2");
    play.st.transfer(s, harbour, 1);
    let mut plan = Plan {
        target: harbour,
        naval: true,
        from: s.empires[0].capital as u16,
        ..Plan::default()
    };
    let all: Vec<u8> = (0..35).collect();
    let of = |p: usize, t: u8, n: usize| -> Cards {
        let mut out = Cards::default();
        for &c in all.iter().filter(|&&c| military::is(s, p, c, t)).take(n) {
            out.push(c);
        }
        out
    };
    for &c in of(0, TROOP, 2)
        .as_slice()
        .iter()
        .chain(of(0, FLEET, 1).as_slice())
    {
        plan.cards.push(c);
    }
    let defence = Defence {
        naval: of(1, FLEET, 2),
        ..Defence::default()
    };
    (play, plan, defence)
}

fn chance(g: &Game) -> f64 {
    let (mut play, plan, defence) = by_sea(g);
    let s = &g.scenario;
    play.cache
        .chance(s, &play.st, &g.rules.options, 0, &plan, &defence)
        .0
}

/// A naval interceptor's Flota with +2 at resolution fights as a Flota printed 2 higher at
/// sea: the attacker's exact chance is the same (and lower than against the vanilla Flota).
#[test]
fn a_naval_interceptors_bonus_text_counts_at_sea() {
    let bonus = with_fleet(|k| {
        k.effects.push(CardEffect {
            kind: EffectKind::CombatBonus,
            amount: 2,
            timing: Timing::OnResolution,
        })
    });
    let printed = with_fleet(|k| k.naval = Cv::Fixed(4));
    let vanilla = with_fleet(|_| {});
    let (b, p, v) = (chance(&bonus), chance(&printed), chance(&vanilla));
    assert!((b - p).abs() < 1e-12, "{b} {p}");
    assert!(b < v, "{b} {v}");
}

/// A naval interceptor's recovery text (back on a 2 or more) brings its fleets back 5 times in
/// 6, against 1 in 6 as printed (within 5 standard errors).
#[test]
fn a_naval_interceptors_recovery_text_is_rolled() {
    for (recover, p) in [(Some(2u8), 5.0 / 6.0), (None, 1.0 / 6.0)] {
        let g = with_fleet(|k| {
            if let Some(r) = recover {
                k.effects.push(CardEffect {
                    kind: EffectKind::Recovery,
                    amount: r,
                    timing: Timing::RecoveryRule,
                })
            }
        });
        let (mut play, plan, defence) = by_sea(&g);
        let s = &g.scenario;
        let (mut rolls, mut back) = (0u32, 0u32);
        for i in 0..4000 {
            let mut dice = Dice::for_trial(21, 0, i);
            let played =
                play.cache
                    .play(s, &play.st, &g.rules.options, 0, &plan, &defence, &mut dice);
            if played.intercepted[0] {
                rolls += 2;
                back += played.interceptor_recovered[0].count_ones();
            }
        }
        let rate = back as f64 / rolls as f64;
        let se = (p * (1.0 - p) / rolls as f64).sqrt();
        assert!((rate - p).abs() < 5.0 * se, "{recover:?}: {rate} vs {p}");
    }
}

/// A winning interceptor's cards give their end-of-combat VP and draws to their owner; in games
/// where the first seat's Infantería pesada carries 1 VP on a win, its interceptions fire it,
/// with every card conserved.
#[test]
fn a_winning_interceptor_plays_its_end_of_combat_texts() {
    let g = game_with(
        "scenarios/imperios-del-mediterraneo/game/mirror-ring-texts-glory.toml",
        4,
        policy::defaults("greedy"),
        &options(),
    );
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(2, 0, 0);
    play.setup(&mut dice);
    let s = &g.scenario;
    let d = &s.decks[s.empires[0].deck];
    let heavy: Vec<u8> = (0..d.cards.len() as u8)
        .filter(|&c| d.kinds[d.cards[c as usize] as usize].name == "Infantería pesada")
        .take(3)
        .collect();
    let mut cards = Cards::default();
    for &c in &heavy {
        cards.push(c);
    }
    let vp = play.st.players[0].vp;
    play.interceptor_end_of_combat(0, &cards);
    assert_eq!(play.st.players[0].vp, vp + 3);
    let mut record = GameRecord::new(4, super::GAME_COLUMNS.len());
    let mut fired = 0;
    for i in 0..300 {
        let mut dice = Dice::for_trial(19, 0, i);
        record.clear();
        play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
        check(&play, &record);
        fired += play.st.counts.interceptor_texts;
    }
    assert!(fired > 0);
}

//! Card texts in the field and naval battles of an expedition (digest §3.4, §3.5, A-61's timing:
//! flee, start effects, all cards played, rolls, resolution bonuses, end of combat in the
//! recovery step): a land interceptor's start-of-battle kills on the attacker (the chain branches
//! on the attacker's losses), the attacker's end-of-combat texts after an interception battle it
//! won, the Special Event dice of a pacification's window, and a naval interceptor's texts under
//! the default as-reached interceptions. Exact odds against hand computations (an oracle that
//! counts every dice outcome), the simulated chain against the exact one within 5 standard
//! errors, and the game's counters over games on decks with texts, cards conserved.

use super::game_tests::{check, game_with, options};
use super::policy::{self, Policy};
use super::scenario::{CardEffect, Deck, EffectKind, Timing, FLEET};
use super::turn::Play;
use super::Game;
use crate::battle::BattleModel;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use crate::rulesets::imperios_del_mediterraneo::cards::{Card, Cv};
use crate::rulesets::imperios_del_mediterraneo::expedition::{CardText, Expedition, Target, Texts};
use crate::rulesets::imperios_del_mediterraneo::forces::Force;
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;

use super::texts_tests::{self, force, p_beats};

const DIR: &str = "scenarios/imperios-del-mediterraneo/game/";

/// A troop with these field and assault values.
fn troop(field: i32, assault: i32) -> Card {
    texts_tests::troop(Cv::Fixed(field as _), Cv::Fixed(assault as _))
}

/// A land expedition of `troops` (texts `em`) against `target`, no straits, a land interceptor
/// of `land` (texts `land_texts`), `extra` Special Event / City Attack dice for its target's
/// combat.
fn chain(
    troops: Vec<Card>,
    em: Vec<CardText>,
    land: Option<(Vec<Card>, Vec<CardText>)>,
    target: Target,
    extra: u32,
) -> Expedition {
    let land_texts = land.as_ref().map_or_else(Vec::new, |l| l.1.clone());
    Expedition::new(
        force(troops),
        false,
        0,
        Weather::Normal,
        None,
        land.map(|l| Force::Cards(force(l.0))),
        target,
        true,
        extra,
        &options(),
    )
    .with_texts(Texts {
        em,
        land: land_texts,
        naval: Vec::new(),
    })
}

fn kills(n: u32) -> CardText {
    CardText {
        kills: n,
        ..CardText::default()
    }
}

fn win_vp(n: u32) -> CardText {
    CardText {
        win_vp: n,
        ..CardText::default()
    }
}

const CITY: Target = Target::City {
    size: 2,
    dice: 2,
    player_owner: true,
    modifier: 0,
};

/// The simulated chain's success rate and mean attacker VP agree with the exact ones within 5
/// standard errors (the VP's from the simulated spread).
fn twin(e: &Expedition) {
    let (p, vp) = e.chance_and_vp();
    let n = 100_000;
    let mut dice = Dice::from_seed(23);
    let (mut hits, mut sum, mut sq) = (0usize, 0.0, 0.0);
    for _ in 0..n {
        let played = e.play(&mut dice);
        hits += played.failed.is_none() as usize;
        sum += played.vp[0];
        sq += played.vp[0] * played.vp[0];
    }
    let f = hits as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
    assert!((f - p).abs() < 5.0 * se, "simulated {f} vs exact {p}");
    let mean = sum / n as f64;
    let var = (sq / n as f64 - mean * mean).max(1e-12);
    let se = (var / n as f64).sqrt();
    assert!(
        (mean - vp).abs() < 5.0 * se,
        "simulated VP {mean} vs exact {vp}"
    );
}

/// The land interceptor's start-of-battle kill takes one of the attacker's two troops (field 3
/// and field 1, assault 3 and 1), each half the time. By hand: with the field-3 troop left it
/// beats the interceptor's field-2 troop with P(3+1d6 > 2+1d6), keeps its card when the
/// casualty die (against 1 card) is 2-6 (5/6), then assaults the 2-dice city with
/// P(3+1d6 > 2d6); with the field-1 troop left the same with 1 for 3. Without the text the two
/// fight together (4+1d6) and the casualty takes either (then one assaults, else both: 4+1d6).
/// A kill on each side: the two are simultaneous, so the attacker's kill still takes the
/// interceptor's only troop even when its own card dies, and the attacker wins outright
/// (no troop against it: no casualty die): 1/2 P(3+1d6 > 2d6) + 1/2 P(1+1d6 > 2d6).
#[test]
fn a_land_interceptors_start_of_battle_kills_branch_on_the_attackers_losses() {
    let troops = || vec![troop(3, 3), troop(1, 1)];
    let land = |t: CardText| Some((vec![troop(2, 1)], vec![t]));
    let plain = CardText::default();
    let with_kill = 0.5 * p_beats(3, 1, 2, 1) * 5.0 / 6.0 * p_beats(3, 1, 0, 2)
        + 0.5 * p_beats(1, 1, 2, 1) * 5.0 / 6.0 * p_beats(1, 1, 0, 2);
    let without = p_beats(4, 1, 2, 1)
        * (5.0 / 6.0 * p_beats(4, 1, 0, 2)
            + 1.0 / 12.0 * p_beats(3, 1, 0, 2)
            + 1.0 / 12.0 * p_beats(1, 1, 0, 2));
    let both = 0.5 * p_beats(3, 1, 0, 2) + 0.5 * p_beats(1, 1, 0, 2);
    for (em, d, want) in [
        (vec![plain; 2], plain, without),
        (vec![plain; 2], kills(1), with_kill),
        (vec![kills(1), plain], kills(1), both),
    ] {
        let e = chain(troops(), em.clone(), land(d), CITY, 0);
        let (p, _) = e.chance_and_vp();
        assert!((p - want).abs() < 1e-12, "{em:?} / {d:?}: {p} vs {want}");
        twin(&e);
    }
    assert!(with_kill < without);
    // The killed card rolls for recovery (A-31: every card discarded since the start of the
    // battle): a troop alone against the kill is lost before the resolution, so the battle is
    // lost with no card left to fight; that card's roll brings it back 1 time in 6, and every
    // play reports it killed.
    let e = chain(vec![troop(3, 3)], vec![plain], land(kills(1)), CITY, 0);
    assert_eq!(e.chance_and_vp().0, 0.0);
    let col = e
        .schema()
        .scalars
        .iter()
        .position(|s| s.contains("cards_recovered"))
        .unwrap();
    assert!((e.exact().unwrap().scalars[col] - 1.0 / 6.0).abs() < 1e-12);
    let mut dice = Dice::from_seed(4);
    for _ in 0..100 {
        assert_eq!(e.play(&mut dice).killed, 1);
    }
}

/// The attacker's end-of-combat text (+1 VP when its side wins) fires after an interception
/// battle it won, not only at the target. By hand, one field-3 troop against one field-2
/// interceptor: it wins the battle with w = P(3+1d6 > 2+1d6) (+2 battle VP, +1 from the text;
/// -2 on a loss), keeps its card with 5/6, then takes the 2-dice, size-2 city with
/// a = P(3+1d6 > 2d6) (+2 for the city, +1 from the text):
/// E[VP] = w (2 + 1) - 2 (1 - w) + w 5/6 a (2 + 1).
#[test]
fn the_attackers_end_of_combat_texts_fire_after_a_won_interception() {
    let w = p_beats(3, 1, 2, 1);
    let a = p_beats(3, 1, 0, 2);
    let land = Some((vec![troop(2, 1)], vec![CardText::default()]));
    let e = chain(vec![troop(3, 3)], vec![win_vp(1)], land.clone(), CITY, 0);
    let (p, vp) = e.chance_and_vp();
    assert!((p - w * 5.0 / 6.0 * a).abs() < 1e-12);
    let want = 3.0 * w - 2.0 * (1.0 - w) + w * 5.0 / 6.0 * a * 3.0;
    assert!((vp - want).abs() < 1e-12, "{vp} vs {want}");
    // Without the text: one VP less on each won combat.
    let plain = chain(vec![troop(3, 3)], vec![CardText::default()], land, CITY, 0);
    let gap = vp - plain.chance_and_vp().1;
    assert!((gap - (w + w * 5.0 / 6.0 * a)).abs() < 1e-12, "{gap}");
    twin(&e);
    // A won battle reports the card that fought in it (for the game's draws), w of the time.
    let mut dice = Dice::from_seed(8);
    let n = 20_000;
    let mut won = 0;
    for _ in 0..n {
        match e.play(&mut dice).won_battle_cards[1] {
            0 => {}
            1 => won += 1,
            other => panic!("{other}"),
        }
    }
    let se = (w * (1.0 - w) / n as f64).sqrt();
    assert!((won as f64 / n as f64 - w).abs() < 5.0 * se, "{won}");
}

/// A pacification is a field battle with a card window (§3.8): the attacker's Special Event
/// die joins its total. By hand, a field-3 troop against a 2-dice area: P(3+1d6 > 2d6) as
/// printed, P(3+2d6 > 2d6) with one X die; the area's own X dice from a third party (in its
/// dice) P(3+1d6 > 3d6).
#[test]
fn a_pacifications_special_event_dice_join_the_field_battle() {
    for (extra, area, want) in [
        (0, 2, p_beats(3, 1, 0, 2)),
        (1, 2, p_beats(3, 2, 0, 2)),
        (0, 3, p_beats(3, 1, 0, 3)),
    ] {
        let e = chain(
            vec![troop(3, 3)],
            vec![CardText::default()],
            None,
            Target::Barbarian { dice: area },
            extra,
        );
        let (p, _) = e.chance_and_vp();
        assert!((p - want).abs() < 1e-12, "{extra} {area}: {p} vs {want}");
        twin(&e);
    }
}

/// Exact against simulated over a grid: attackers of 1-3 troops, interceptors of 1-2 troops
/// with 0-2 kills, attacker kills 0-1, end-of-combat VP, an X die at the target, cities and
/// areas.
#[test]
fn battle_texts_exact_and_simulated_agree_over_a_grid() {
    for n in 1..=3usize {
        for m in 1..=2usize {
            for dk in 0..=2u32 {
                for ak in 0..=1u32 {
                    let troops: Vec<Card> = (0..n).map(|i| troop(2 + i as i32, 2)).collect();
                    let mut em = vec![win_vp(1); n];
                    em[0].kills = ak;
                    let mut land = vec![CardText::default(); m];
                    land[0].kills = dk;
                    let target = if (n + m) % 2 == 0 {
                        CITY
                    } else {
                        Target::Barbarian { dice: 2 }
                    };
                    let e = chain(
                        troops,
                        em,
                        Some((vec![troop(2, 1); m], land)),
                        target,
                        dk % 2,
                    );
                    twin(&e);
                }
            }
        }
    }
}

/// Every empire on `deck` with its Flota given `effect` (naval texts for the interceptor).
fn fleets_with(deck: &str, n: usize, effect: CardEffect) -> Game {
    let mut g = game_with(
        &format!("{DIR}{deck}"),
        n,
        policy::defaults("greedy"),
        &options(),
    );
    let s = &mut g.scenario;
    let base = &s.decks[s.empires[0].deck];
    let mut kinds = base.kinds.clone();
    for k in kinds.iter_mut().filter(|k| k.is(FLEET)) {
        k.effects.push(effect);
    }
    let deck = Deck::new("edited".into(), kinds, base.cards.clone());
    s.decks.push(deck);
    for e in s.empires.iter_mut() {
        e.deck = s.decks.len() - 1;
    }
    g
}

/// Over games on decks with texts the new windows fire: a land interceptor's kills take
/// attacking cards and attackers' end-of-combat texts fire after won interceptions (every
/// text at once), X cards go into pacifications (the Special Event deck), a naval
/// interceptor's end-of-combat text fires under the default as-reached interceptions (a Flota
/// with +1 VP on a win); cards and markers stay conserved and every game ends.
#[test]
fn battle_texts_fire_in_games_and_cards_stay_conserved() {
    let glory = CardEffect {
        kind: EffectKind::VictoryPoints,
        amount: 1,
        timing: Timing::OnEndOfCombat,
    };
    let games = [
        game_with(
            &format!("{DIR}mirror-ring-texts-all.toml"),
            4,
            policy::defaults("greedy"),
            &options(),
        ),
        game_with(
            &format!("{DIR}mirror-ring-texts-special.toml"),
            4,
            policy::defaults("greedy"),
            &options(),
        ),
        game_with(
            &format!("{DIR}mirror-ring-texts-special.toml"),
            4,
            Policy::Random,
            &options(),
        ),
        fleets_with("mirror-ring.toml", 4, glory),
    ];
    let mut totals = [0u32; 5];
    for (k, g) in games.iter().enumerate() {
        let mut play = Play::new(g);
        let mut record = GameRecord::new(4, super::GAME_COLUMNS.len());
        for i in 0..150 {
            let mut dice = Dice::for_trial(31, k as u64, i);
            record.clear();
            play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            check(&play, &record);
            let c = &play.st.counts;
            totals[0] += c.attacker_cards_killed;
            totals[1] += c.attacker_battle_texts;
            totals[2] += c.pacification_special_cards;
            totals[3] += c.naval_interceptor_texts;
            totals[4] += c.naval_interceptions;
        }
    }
    println!(
        "killed, attacker texts, pacification X, naval texts, naval interceptions: {totals:?}"
    );
    let [killed, attacker_texts, pacification_x, naval_texts, naval] = totals;
    assert!(killed > 0, "{totals:?}");
    assert!(attacker_texts > 0, "{totals:?}");
    assert!(pacification_x > 0, "{totals:?}");
    assert!(naval > 0 && naval_texts > 0, "{totals:?}");
}

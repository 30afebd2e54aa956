//! Card texts (the effect hooks of digest §6.3 with the timing of A-61): each generic effect
//! fires at its timing point and changes what it says — exact odds with and without it against
//! an oracle that counts every dice outcome (not the calculator's roll-off), the simulated chain
//! against the exact one, the game's state before and after — and cards stay conserved over
//! random games on the decks with texts.

use super::game_tests::{check, game_with, options};
use super::military::{Cards, Plan};
use super::policy::Policy;
use super::scenario::{Event, TROOP};
use super::turn::Play;
use crate::battle::BattleModel;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};
use crate::rulesets::imperios_del_mediterraneo::cards::{Card, Cv};
use crate::rulesets::imperios_del_mediterraneo::expedition::{
    CardText, Expedition, Fail, Target, Texts,
};
use crate::rulesets::imperios_del_mediterraneo::forces::{CardForce, Force};
use crate::rulesets::imperios_del_mediterraneo::strait::Weather;

const DIR: &str = "scenarios/imperios-del-mediterraneo/game/";

/// P(fixed_a + a d6 > fixed_d + d d6), every outcome of the a + d dice counted.
pub(super) fn p_beats(fixed_a: i32, a: u32, fixed_d: i32, d: u32) -> f64 {
    let n = a + d;
    let (mut wins, mut all) = (0u64, 0u64);
    for code in 0..6u64.pow(n) {
        let (mut c, mut ta, mut td) = (code, fixed_a, fixed_d);
        for i in 0..n {
            let face = (c % 6) as i32 + 1;
            c /= 6;
            if i < a {
                ta += face;
            } else {
                td += face;
            }
        }
        wins += (ta > td) as u64;
        all += 1;
    }
    wins as f64 / all as f64
}

pub(super) fn troop(field: Cv, assault: Cv) -> Card {
    Card {
        name: "t".into(),
        field,
        naval: Cv::Dash,
        assault,
    }
}

pub(super) fn force(troops: Vec<Card>) -> CardForce {
    CardForce {
        aboard: vec![None; troops.len()],
        troops,
        fleets: Vec::new(),
        leaders: Vec::new(),
        extra_dice: 0,
        modifier: 0,
    }
}

/// A land expedition of these troops against this target, no straits, the given land
/// interceptor, the texts (one per troop) attached.
fn chain(troops: Vec<Card>, target: Target, land: Option<Vec<Card>>, texts: Texts) -> Expedition {
    Expedition::new(
        force(troops),
        false,
        0,
        Weather::Normal,
        None,
        land.map(|t| Force::Cards(force(t))),
        target,
        true,
        0,
        &options(),
    )
    .with_texts(texts)
}

fn text(f: impl FnOnce(&mut CardText)) -> CardText {
    let mut t = CardText::default();
    f(&mut t);
    t
}

fn em(texts: Vec<CardText>) -> Texts {
    Texts {
        em: texts,
        ..Texts::default()
    }
}

/// The simulated chain's success rate agrees with the exact one within 5 standard errors.
fn twin(e: &Expedition, p: f64) {
    let n = 100_000;
    let mut dice = Dice::from_seed(11);
    let hits = (0..n)
        .filter(|_| e.play(&mut dice).failed.is_none())
        .count();
    let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
    let f = hits as f64 / n as f64;
    assert!((f - p).abs() < 5.0 * se, "simulated {f} vs exact {p}");
}

/// Resolution: +1 die, +2 combat factors, a fortification level ignored; end of combat: +1 VP
/// on a win. Pacification of a 2-dice area by a field-3 troop; assault of a 3-dice city by an
/// assault-2 troop.
#[test]
fn resolution_and_end_of_combat_texts_change_the_exact_odds() {
    let area = Target::Barbarian { dice: 2 };
    let t = || vec![troop(Cv::Fixed(3), Cv::Fixed(2))];
    let cases = [
        (CardText::default(), p_beats(3, 1, 0, 2), 0.0),
        (text(|x| x.dice = 1), p_beats(3, 2, 0, 2), 0.0),
        (text(|x| x.bonus = 2), p_beats(5, 1, 0, 2), 0.0),
        (text(|x| x.win_vp = 1), p_beats(3, 1, 0, 2), 1.0),
    ];
    for (tx, p, win_vp) in cases {
        let e = chain(t(), area, None, em(vec![tx]));
        let (chance, vp) = e.chance_and_vp();
        assert!((chance - p).abs() < 1e-12, "{tx:?}: {chance} vs {p}");
        // A won pacification gives no battle VP (its reward is the table's), a lost one -2.
        let want = p * win_vp - 2.0 * (1.0 - p);
        assert!((vp - want).abs() < 1e-12, "{tx:?}: VP {vp} vs {want}");
        twin(&e, p);
    }
    let city = Target::City {
        size: 2,
        dice: 3,
        player_owner: false,
        modifier: 0,
    };
    for (tx, p) in [
        (CardText::default(), p_beats(2, 1, 0, 3)),
        (text(|x| x.ignore = 1), p_beats(2, 1, 0, 2)),
        (text(|x| x.ignore = 3), p_beats(2, 1, 0, 1)),
    ] {
        let e = chain(t(), city, None, em(vec![tx]));
        let (chance, vp) = e.chance_and_vp();
        assert!((chance - p).abs() < 1e-12, "{tx:?}: {chance} vs {p}");
        assert!((vp - 2.0 * p).abs() < 1e-12, "{tx:?}: VP {vp}");
        twin(&e, p);
    }
    assert!(p_beats(3, 2, 0, 2) > p_beats(3, 1, 0, 2));
}

/// Start of battle and flee: against a land interceptor of two field-2 troops, a field-3 troop
/// wins the battle with P(3+1d6 > 4+1d6), keeps its only card when the casualty die beats 2,
/// then assaults a 2-dice city. Killing one interceptor troop at the start leaves 2+1d6 and a
/// casualty die against 1; a fleeing interceptor leaves the assault alone.
#[test]
fn start_of_battle_and_flee_texts_change_the_exact_odds() {
    let city = Target::City {
        size: 2,
        dice: 2,
        player_owner: true,
        modifier: 0,
    };
    let defenders = || Some(vec![troop(Cv::Fixed(2), Cv::Fixed(1)); 2]);
    let assault = p_beats(3, 1, 0, 2);
    let cases = [
        (
            CardText::default(),
            p_beats(3, 1, 4, 1) * 4.0 / 6.0 * assault,
        ),
        (
            text(|x| x.kills = 1),
            p_beats(3, 1, 2, 1) * 5.0 / 6.0 * assault,
        ),
        // Both troops killed: the interceptor has no troop, the attacker wins outright and
        // no casualty die is rolled against it.
        (text(|x| x.kills = 2), assault),
        (text(|x| x.cancel = true), assault),
    ];
    for (tx, p) in cases {
        let e = chain(
            vec![troop(Cv::Fixed(3), Cv::Fixed(3))],
            city,
            defenders(),
            em(vec![tx]),
        );
        let (chance, _) = e.chance_and_vp();
        assert!((chance - p).abs() < 1e-12, "{tx:?}: {chance} vs {p}");
        twin(&e, p);
        let mut dice = Dice::from_seed(3);
        let played = e.play(&mut dice);
        assert_eq!(played.fled, tx.cancel, "{tx:?}");
        if tx.cancel {
            assert!(!played.intercepted[1] && played.failed != Some(Fail::OnLand));
        }
    }
    // The interceptor's own resolution texts count for it: +1 die on each of its troops.
    let mut texts = em(vec![CardText::default()]);
    texts.land = vec![text(|x| x.dice = 1); 2];
    let e = chain(
        vec![troop(Cv::Fixed(3), Cv::Fixed(3))],
        city,
        defenders(),
        texts,
    );
    let p = p_beats(3, 1, 4, 3) * 4.0 / 6.0 * assault;
    assert!((e.chance_and_vp().0 - p).abs() < 1e-12);
}

/// Recovery: two troops with no field value lose to any interceptor at once and every card is
/// discarded; one of them comes back on 4-6, the other on a 6: 3/6 + 1/6 expected, exactly and
/// with dice.
#[test]
fn a_recovery_text_lowers_the_roll_that_brings_a_card_back() {
    let city = Target::City {
        size: 2,
        dice: 2,
        player_owner: true,
        modifier: 0,
    };
    let troops = vec![troop(Cv::Dash, Cv::Fixed(2)); 2];
    let defenders = Some(vec![troop(Cv::Fixed(2), Cv::Fixed(1))]);
    for (texts, want) in [
        (vec![CardText::default(); 2], 2.0 / 6.0),
        (
            vec![text(|x| x.recover_from = 4), CardText::default()],
            4.0 / 6.0,
        ),
    ] {
        let e = chain(troops.clone(), city, defenders.clone(), em(texts));
        let ex = e.exact().unwrap();
        let col = e
            .schema()
            .scalars
            .iter()
            .position(|s| s.contains("cards_recovered"))
            .unwrap();
        assert!(
            (ex.scalars[col] - want).abs() < 1e-12,
            "{}",
            ex.scalars[col]
        );
        let n = 100_000;
        let mut dice = Dice::from_seed(5);
        let back: u32 = (0..n)
            .map(|_| e.play(&mut dice).recovered.count_ones())
            .sum();
        let mean = back as f64 / n as f64;
        let se = (want / n as f64).sqrt(); // at most the variance of a sum of Bernoullis
        assert!((mean - want).abs() < 5.0 * se, "{mean} vs {want}");
    }
}

fn texts_game(deck: &str, n: usize, policy: Policy) -> super::Game {
    game_with(
        &format!("{DIR}mirror-ring-{deck}.toml"),
        n,
        policy,
        &options(),
    )
}

fn cards_of(play: &Play, p: usize, name: &str) -> Vec<u8> {
    let s = &play.game.scenario;
    let d = &s.decks[s.empires[p].deck];
    (0..d.cards.len() as u8)
        .filter(|&c| d.kinds[d.cards[c as usize] as usize].name == name)
        .collect()
}

/// Puts these cards (and only these) in `p`'s hand, the rest in its draw pile.
fn hand(play: &mut Play, p: usize, cards: &[u8]) {
    let deck = play.game.scenario.decks[play.game.scenario.empires[p].deck]
        .cards
        .len() as u8;
    let pl = &mut play.st.players[p];
    pl.hand = cards.to_vec();
    pl.discard.clear();
    pl.draw = (0..deck).filter(|c| !cards.contains(c)).collect();
}

/// Empire effect: Tributo gives 2 VP, Embajada draws 2 cards, each then discarded; in Time for
/// diplomacy a scripted player plays both in its action phase, in Campaign season none.
#[test]
fn empire_cards_play_their_effect_as_an_action() {
    let g = texts_game("texts-empire", 2, super::policy::defaults("greedy"));
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(1);
    play.setup(&mut dice);
    let tributo = cards_of(&play, 0, "Tributo")[0];
    let embajada = cards_of(&play, 0, "Embajada")[0];
    hand(&mut play, 0, &[tributo]);
    let vp = play.st.players[0].vp;
    assert!(play.play_empire_card(0));
    assert_eq!(play.st.players[0].vp, vp + 2);
    assert_eq!(play.st.players[0].hand, Vec::<u8>::new());
    assert_eq!(play.st.players[0].discard, vec![tributo]);
    assert!(!play.play_empire_card(0), "no Empire card left");
    hand(&mut play, 0, &[embajada]);
    let draw = play.st.players[0].draw.len();
    assert!(play.play_empire_card(0));
    assert_eq!(play.st.players[0].hand.len(), 2);
    assert_eq!(play.st.players[0].draw.len(), draw - 2);
    assert_eq!(play.st.players[0].discard, vec![embajada]);
    for (event, played) in [(Event::TimeForDiplomacy, 2), (Event::CampaignSeason, 0)] {
        hand(&mut play, 0, &[tributo, embajada]);
        play.st.event = event;
        let before = play.st.counts.empire_cards;
        play.action_phase(0, None, &mut dice, &mut NoLog);
        assert_eq!(play.st.counts.empire_cards - before, played, "{event:?}");
    }
}

/// End of combat: a won assault's Infantería pesada (texts-plunder) draws its owner a card;
/// Infantería, which has no text, draws none.
#[test]
fn a_won_combat_draws_the_cards_its_texts_say() {
    let g = texts_game("texts-plunder", 2, super::policy::defaults("greedy"));
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(1);
    play.setup(&mut dice);
    let heavy = cards_of(&play, 0, "Infantería pesada");
    let plain = cards_of(&play, 0, "Infantería");
    for (fought, draws) in [(&heavy[..2], 2), (&plain[..2], 0)] {
        hand(&mut play, 0, &[]);
        let mut order = Cards::default();
        for &c in fought {
            order.push(c);
        }
        play.end_of_combat_draws(0, &order, 0b11);
        assert_eq!(play.st.players[0].hand.len(), draws);
        hand(&mut play, 0, &[]);
        play.end_of_combat_draws(0, &order, 0b00);
        assert_eq!(play.st.players[0].hand.len(), 0, "cards that did not fight");
    }
}

/// The chain reports which cards fought to a won resolution for a deck whose only text is a
/// draw (texts-plunder): a draws-only card is not vanilla to it. (Before, such a deck's texts
/// read as vanilla, the chain reported no fighting cards, and its draws never fired in a game.)
#[test]
fn a_draws_only_text_reaches_the_game_from_the_chain() {
    let g = texts_game("texts-plunder", 2, super::policy::defaults("greedy"));
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::from_seed(3);
    play.setup(&mut dice);
    let heavy = cards_of(&play, 0, "Infantería pesada");
    let target = (0..s.map.cities.len())
        .find(|&c| play.st.owner[c] == super::state::NEUTRAL)
        .unwrap();
    let mut plan = Plan {
        target,
        ..Plan::default()
    };
    for &c in &heavy[..3] {
        plan.cards.push(c);
    }
    let o = &g.rules.options;
    let none = super::military::Defence::default();
    let mut won = 0;
    for _ in 0..200 {
        let r = play.cache.play(s, &play.st, o, 0, &plan, &none, &mut dice);
        if r.failed.is_none() {
            won += 1;
            assert_eq!(r.fought_at_target, 0b111);
        }
    }
    assert!(won > 0);
}

/// Flee, in the game: the defender intercepts a landing at its capital; against Exploradores
/// its troops flee home, against plain Infantería they fight and are discarded (unless a
/// recovery 6 brings one back).
#[test]
fn a_fleeing_interceptor_takes_its_cards_home() {
    let g = texts_game("texts-scouts", 2, super::policy::defaults("greedy"));
    let s = &g.scenario;
    let capital = s.empires[1].capital;
    let mut fled = 0;
    let mut fought = 0;
    for (name, seed) in [("Exploradores", 0u64), ("Infantería", 1)]
        .into_iter()
        .flat_map(|x| (0..20).map(move |i| (x.0, x.1 * 100 + i)))
    {
        let mut play = Play::new(&g);
        let mut dice = Dice::from_seed(seed);
        play.setup(&mut dice);
        let troop = cards_of(&play, 0, name)[0];
        let fleet = cards_of(&play, 0, "Flota")[0];
        hand(&mut play, 0, &[troop, fleet]);
        let defenders: Vec<u8> = (0..35u8)
            .filter(|&c| super::military::is(s, 1, c, TROOP))
            .take(3)
            .collect();
        hand(&mut play, 1, &defenders);
        let mut plan = Plan {
            target: capital,
            naval: true,
            straits: 0,
            ..Plan::default()
        };
        plan.cards.push(troop);
        plan.cards.push(fleet);
        play.expedition(0, plan, &mut dice, &mut NoLog);
        let home = defenders
            .iter()
            .filter(|c| play.st.players[1].hand.contains(c))
            .count();
        if name == "Exploradores" {
            assert_eq!(home, 3, "seed {seed}: the interceptor fled home");
            fled += 1;
        } else if home < 3 {
            fought += 1;
        }
    }
    assert_eq!(fled, 20);
    assert!(
        fought > 10,
        "plain troops met the interceptor: {fought} of 20"
    );
}

/// Cards, markers and pacified markers are conserved and every game ends, over random games
/// on the decks with texts (every text at once, and the Empire cards), 2-8 players, both
/// policies; the texts fire (Empire cards played).
#[test]
fn invariants_over_random_games_with_card_texts() {
    let mut empire_cards = 0;
    let mut games = 0;
    for (f, deck) in ["texts-all", "texts-empire"].iter().enumerate() {
        for n in 2..=8 {
            for policy in [Policy::Random, super::policy::defaults("greedy")] {
                let g = texts_game(deck, n, policy);
                let mut play = Play::new(&g);
                let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
                let count = if policy == Policy::Random { 80 } else { 30 };
                for i in 0..count {
                    let mut dice = Dice::for_trial(9, (f * 100 + n) as u64, i);
                    record.clear();
                    play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
                    check(&play, &record);
                    empire_cards += play.st.counts.empire_cards;
                    games += 1;
                }
            }
        }
    }
    assert!(games > 1500);
    assert!(empire_cards > 100, "{empire_cards} Empire cards played");
}

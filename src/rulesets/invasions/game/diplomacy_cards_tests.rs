//! Matrimonium, Mercenary, Corruption and the Foedus card (diplomacy_cards.rs): their gold, the
//! lent unit and its return, the marriage's 2 VP, the lifted siege, the forced Foedus; all of them
//! played in games with the invariants holding.

use super::diplomacy::kind_named;
use super::diplomacy_cards::{CORRUPTION_GOLD, DOWRY_GOLD, MARRIAGE_VP, MERCENARY_GOLD};
use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::state::{Phase, VP_MARRIAGE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn eager() -> Scripted {
    Scripted {
        marry: 0.0,
        hire: 3.0,
        corrupt: 0.0,
        foedus_offer: 0.0,
        foedus_accept: false,
        ..Scripted::defaults()
    }
}

#[test]
fn matrimonium_pays_the_dowry_borrows_a_unit_for_the_turn_and_pays_2_vp_unless_the_target_attacks()
{
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let start = play.st.clone();
    for attacks in [false, true] {
        play.st.clone_from(&start);
        play.st.nations[rome].treasury = 20;
        let mut dice = Dice::from_seed(1);
        assert!(play.play_marriage(rome, &mut dice, &mut NoLog));
        let t = play.st.marriages[0].target as usize;
        assert_ne!(g.player_of(t), g.player_of(rome));
        assert_eq!(play.st.nations[rome].treasury, 20 - DOWRY_GOLD);
        assert_eq!(
            play.st.nations[t].treasury,
            start.nations[t].treasury + DOWRY_GOLD
        );
        // The target's cheapest unit now stands with Rome, for the turn.
        assert_eq!(play.st.loan_count, 1);
        assert_eq!(play.st.units_of(rome), start.units_of(rome) + 1);
        assert_eq!(play.st.units_of(t), start.units_of(t) - 1);
        if attacks {
            play.note_attack(t, rome);
        }
        // Another nation's attack on Rome costs the target nothing.
        play.note_attack(rome, t);
        play.settle_loans_and_marriages(&mut NoLog);
        assert_eq!(play.st.units_of(rome), start.units_of(rome));
        assert_eq!(play.st.units_of(t), start.units_of(t));
        let vp = if attacks { 0 } else { MARRIAGE_VP };
        assert_eq!(
            play.st.nations[t].vp[VP_MARRIAGE], vp,
            "attacked: {attacks}"
        );
        assert_eq!(play.st.marriage_count, 0);
    }
}

#[test]
fn a_hired_mercenary_costs_3_gold_and_leaves_the_game_when_its_nation_is_gone() {
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let start = play.st.clone();
    // Some Civilized nation of the start has a Barbarian horde in or next to an Area it controls.
    let hirer = (0..s.nations.len())
        .find(|&n| {
            play.st.clone_from(&start);
            play.st.civilized(n) && !g.inactive[n] && {
                play.st.nations[n].treasury = 20;
                play.play_mercenary(n, &mut Dice::from_seed(2), &mut NoLog)
            }
        })
        .expect("a mercenary to hire in 350");
    let b = play.st.loans[0].from as usize;
    assert_eq!(play.st.status(b), Some(Status::Barbarian));
    assert_eq!(play.st.nations[hirer].treasury, 20 - MERCENARY_GOLD);
    assert_eq!(
        play.st.nations[b].treasury,
        start.nations[b].treasury + MERCENARY_GOLD
    );
    assert_eq!(play.st.counters.mercenaries_hired, 1);
    let mid = play.st.clone();
    play.settle_loans_and_marriages(&mut NoLog);
    assert_eq!(play.st.units_of(b), start.units_of(b), "returned");
    // Its nation gone meanwhile: the unit leaves the game through the ledger.
    play.st.clone_from(&mid);
    play.eliminate(b);
    let out = play.st.ledger.units_out;
    play.settle_loans_and_marriages(&mut NoLog);
    assert_eq!(play.st.units_of(hirer), start.units_of(hirer));
    assert_eq!(play.st.ledger.units_out, out + 1);
    assert_eq!(play.st.nations[b].phase, Phase::Gone);
}

#[test]
fn corruption_lifts_a_siege_for_1_gold_to_the_besieger_and_leaves_the_hand() {
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let alamanni = s.nation("alamanni").unwrap() as usize;
    let k = kind_named(s, "corruption").unwrap();
    let mut play = Play::new(&g);
    play.st.turn = 5;
    let p = (0..s.provinces.len())
        .find(|&p| play.st.owner[p] == rome as u8 && play.st.level[p] > 0)
        .unwrap();
    let mut dice = Dice::from_seed(3);
    assert!(
        !play.bribe_besieger(alamanni, p, &mut dice, &mut NoLog),
        "no card in hand"
    );
    play.st.nations[rome].hand[k] = 1;
    play.st.nations[rome].cards = 1;
    let gold = [
        play.st.nations[rome].treasury,
        play.st.nations[alamanni].treasury,
    ];
    assert!(play.bribe_besieger(alamanni, p, &mut dice, &mut NoLog));
    assert_eq!(play.st.nations[rome].treasury, gold[0] - CORRUPTION_GOLD);
    assert_eq!(
        play.st.nations[alamanni].treasury,
        gold[1] + CORRUPTION_GOLD
    );
    assert_eq!(
        (play.st.nations[rome].hand[k], play.st.nations[rome].cards),
        (0, 0)
    );
    assert!(
        !play.bribe_besieger(alamanni, p, &mut dice, &mut NoLog),
        "played once"
    );
}

#[test]
fn the_foedus_card_forces_a_foedus_a_barbarian_would_refuse() {
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let start = play.st.clone();
    let mut dice = Dice::from_seed(4);
    assert!(play.offer_foedus(rome, false, &mut dice, &mut NoLog));
    assert_eq!(play.st.counters.foedera, 0, "the policy refuses");
    play.st.clone_from(&start);
    assert!(play.play_foedus_card(rome, &mut dice, &mut NoLog));
    assert_eq!(play.st.counters.foedera, 1);
    assert_eq!(play.st.counters.foedus_cards, 1);
}

#[test]
fn the_cards_are_played_in_games_and_the_invariants_hold() {
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
    let names = [
        "marriages",
        "mercenaries_hired",
        "sieges_bribed",
        "foedus_cards",
    ];
    let mut seen = [0.0; 4];
    for i in 0..300 {
        r.clear();
        play.play(
            &mut Dice::for_trial(41, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        assert_eq!((play.st.loan_count, play.st.marriage_count), (0, 0));
        for (s, name) in seen.iter_mut().zip(names) {
            *s += r.extra[column(name)];
        }
    }
    for (s, name) in seen.iter().zip(names) {
        assert!(*s > 0.0, "{name} never happens in 300 games");
    }
}

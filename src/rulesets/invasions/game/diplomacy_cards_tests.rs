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

#[test]
fn a_kingdom_gets_a_foedus_only_by_the_card_and_collects_its_provinces_income() {
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let persae = s.nation("persae").unwrap() as usize;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    assert_eq!(play.st.status(persae), Some(Status::Kingdom));
    // A Civilized Area where the Persians hold two provinces besides their capital, and a free
    // Barbarian of another player with its horde and units in a neighbouring Area.
    let capital = play.st.nations[persae].capital as usize;
    let area = (0..s.areas.len())
        .find(|&a| {
            s.areas[a].kind == super::scenario::AreaKind::Civilized
                && s.areas[a]
                    .provinces
                    .iter()
                    .filter(|&&p| {
                        play.st.owner[p as usize] == persae as u8 && p as usize != capital
                    })
                    .count()
                    >= 2
        })
        .expect("the Persians hold such an Area at the start");
    let next = s.areas[area].links[0].to as usize;
    let b = (0..play.st.nations.len())
        .find(|&b| {
            play.st.status(b) == Some(Status::Barbarian)
                && !g.inactive[b]
                && g.player_of(b) != g.player_of(persae)
                && play.st.nations[b].horde != super::state::NO_PROVINCE
                && s.nations[b].entry_turn != 2
                && s.nations[b].active_from != 2
        })
        .unwrap();
    let horde = s.areas[next].provinces[0];
    play.st.set_horde(s, b, horde);
    play.st.add_units(b, next, 0, 3);
    let mut dice = Dice::from_seed(3);
    // By the card it is forced, accepted whatever the Barbarian's policy (foedus_accept false).
    assert!(play.play_foedus_card(persae, &mut dice, &mut NoLog));
    assert_eq!(play.st.counters.kingdom_foedera, 1);
    let federate = (0..play.st.nations.len())
        .find(|&m| {
            play.st.nations[m].bond == super::politics::Bond::Federate
                && play.st.nations[m].lord == persae as u8
        })
        .expect("a federate of the Persians");
    let ceded: Vec<usize> = (0..s.provinces.len())
        .filter(|&p| play.st.foedus_for[p] == persae as u8)
        .collect();
    assert_eq!(ceded.len(), 2);
    for &p in &ceded {
        assert_eq!(play.st.owner[p], federate as u8);
        assert_ne!(p, capital, "the capital is never ceded");
    }
    // XXVIII.D: the Kingdom federator collects their province income (not their cities').
    let with = play.gross_halves(persae);
    for &p in &ceded {
        play.st.set_foedus(s, p, super::state::NONE);
    }
    let without = play.gross_halves(persae);
    let income: i32 = ceded
        .iter()
        .filter(|&&p| play.st.revolt[p] == 0)
        .map(|&p| s.provinces[p].income_halves as i32)
        .sum();
    assert!(income > 0);
    assert_eq!(with - without, income);
}

#[test]
fn a_hired_mercenary_deserts_to_its_own_nation_when_the_two_fight() {
    let g = bundled_game(Policy::Scripted(eager()));
    let s = &g.scenario;
    let rome = s.nation("romani").unwrap() as usize;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let home = play.home_area(rome).unwrap();
    let b = (0..play.st.nations.len())
        .find(|&b| {
            play.st.status(b) == Some(Status::Barbarian)
                && !g.inactive[b]
                && g.player_of(b) != g.player_of(rome)
                && play.st.units_of(b) > 0
        })
        .unwrap();
    let b_area = (0..s.areas.len())
        .find(|&a| play.st.count(b, a) > 0)
        .unwrap();
    let start = play.st.clone();
    for (hired, rome_attacks) in [(true, true), (true, false), (false, true)] {
        play.st.clone_from(&start);
        assert!(play.lend_for_the_turn(b, rome));
        play.st.hired[0] = hired;
        let k = play.st.loans[0].kind as usize;
        let units = play.st.all_units();
        let (rome_home, b_there) = (play.st.at(rome, home)[k], play.st.at(b, b_area)[k]);
        if rome_attacks {
            // Rome attacks the lender from the Area where its hired unit joined it.
            let mut attackers = *play.st.at(rome, home);
            let sent = attackers[k];
            assert!(play.mercenaries_desert(rome, b, home, b_area, &mut attackers));
            let gone = hired as u8;
            assert_eq!(attackers[k], sent - gone);
            assert_eq!(play.st.at(rome, home)[k], rome_home - gone);
            assert_eq!(play.st.at(b, b_area)[k], b_there + gone);
        } else {
            // The lender attacks Rome's home Area: the hired unit goes over to it.
            let mut attackers = *play.st.at(b, b_area);
            let sent = attackers[k];
            assert!(play.mercenaries_desert(b, rome, b_area, home, &mut attackers));
            assert_eq!(attackers[k], sent + 1);
            assert_eq!(play.st.at(rome, home)[k], rome_home - 1);
        }
        assert_eq!(
            play.st.all_units(),
            units,
            "desertion moves a unit, nothing more"
        );
        assert_eq!(play.st.counters.mercenaries_deserted, hired as u32);
        // The deserter's loan is over: the end of the Military phase returns nothing more.
        play.settle_loans_and_marriages(&mut NoLog);
        assert_eq!(play.st.all_units(), units);
        assert_eq!(play.st.units_of(rome), start.units_of(rome));
        assert_eq!(play.st.units_of(b), start.units_of(b));
    }
}

#[test]
fn kingdoms_foedera_and_mercenaries_deserting_happen_in_games() {
    use super::alliances_tests::{counted_in, counted_over};
    let eager = Policy::Scripted(Scripted {
        foedus_offer: 0.0,
        hire: 3.0,
        ..Scripted::defaults()
    });
    assert!(counted_over(eager, 400, "mercenaries_deserted") > 0.0);
    // The bundled leaders give a Kingdom cards only on Sapor II's and Chosroes I's turns, so a
    // Kingdom's Foedus by card needs a Kingdom that draws: here every Kingdom's intrinsic leader
    // has diplomacy 1.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(super::scenario::BUNDLED_DIR);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let ab = read("abstraction.toml");
    let from = "kingdom = { combat = 1 }";
    assert!(ab.contains(from));
    let ab = ab.replacen(from, "kingdom = { combat = 1, diplomacy = 1 }", 1);
    let scenario =
        super::scenario::Scenario::parse("rb.toml", &read("rulebook.toml"), "ab.toml", &ab)
            .unwrap();
    let g = super::game_tests::game_with_options(
        scenario,
        eager,
        &crate::options::Options::defaults(crate::rulesets::invasions::OPTIONS),
    );
    assert!(counted_in(&g, 400, "kingdom_foedera") > 0.0);
}

#[test]
fn pactum_pays_5_gold_for_a_truce_and_a_province_of_the_target_where_the_player_moves_a_unit() {
    use super::diplomacy_cards::PACT_GOLD;
    let g = bundled_game(Policy::Scripted(Scripted {
        pact: 0.0,
        ..Scripted::defaults()
    }));
    let s = &g.scenario;
    let mut play = Play::new(&g);
    play.st.turn = 2;
    let start = play.st.clone();
    let mut played = 0;
    for n in 0..play.st.nations.len() {
        let on_map = (0..s.areas.len()).any(|a| start.count(n, a) > 0);
        if !play.st.civilized(n) || g.inactive[n] || !on_map {
            continue;
        }
        play.st.clone_from(&start);
        play.st.gain_gold(n, 10);
        let Some((t, _)) = play.most_threatening(n) else {
            continue;
        };
        let Some(q) = play.pact_province(n, t) else {
            continue;
        };
        let (gold, units) = (play.st.all_gold(), play.st.all_units());
        let (tn, tt) = (play.st.nations[n].treasury, play.st.nations[t].treasury);
        let mut dice = Dice::from_seed(9);
        assert!(play.play_pactum(n, &mut dice, &mut NoLog));
        played += 1;
        // The province: the target's, not its capital, in an Area where it keeps another.
        assert_eq!(start.owner[q], t as u8);
        assert_ne!(start.nations[t].capital as usize, q);
        let a = s.provinces[q].area as usize;
        assert!(super::state::held_in(s, &start, t, a) >= 2);
        assert_eq!(play.st.owner[q], n as u8);
        assert!(play.st.count(n, a) > 0, "the player moved a unit in");
        assert!(play.in_truce(n, t) && play.in_truce(t, n));
        assert!(!play.attackable(t, q), "the pact protects it this turn");
        assert_eq!(play.st.nations[n].treasury, tn - PACT_GOLD);
        assert_eq!(play.st.nations[t].treasury, tt + PACT_GOLD);
        assert_eq!((play.st.all_gold(), play.st.all_units()), (gold, units));
        assert_eq!(play.st.counters.pacts, 1);
        play.end_of_diplomacy();
        assert!(!play.in_truce(n, t), "the pact ends with the turn");
    }
    assert!(played > 0, "some Civilized nation can play it at the start");
    // Without 5 gold it stays in hand.
    let rome = s.nation("romani").unwrap() as usize;
    play.st.clone_from(&start);
    play.st.nations[rome].treasury = PACT_GOLD - 1;
    assert!(!play.play_pactum(rome, &mut Dice::from_seed(1), &mut NoLog));
}

#[test]
fn pactum_is_played_in_games() {
    use super::alliances_tests::counted_over;
    let eager = Policy::Scripted(Scripted {
        pact: 0.0,
        ..Scripted::defaults()
    });
    assert!(counted_over(eager, 300, "pacts") > 0.0);
    assert!(counted_over(Policy::Random, 300, "pacts") > 0.0);
}

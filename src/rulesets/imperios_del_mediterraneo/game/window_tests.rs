//! Third parties in an assault's card window (digest §3.0, §4.9 "kingmaking"): who plays City
//! Defence or City Attack cards for which side under the scripted `hinder` parameter, that the
//! exact chain counts their dice as dice of the side they help, and that games play them with
//! every card conserved.

use super::game_tests::{check, game_with, options, RING};
use super::military::{Cards, Defence, Plan};
use super::policy::{self, Policy, NEVER_HINDER};
use super::scenario::{CITY_ATTACK, CITY_DEFENCE, TROOP};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameRecord, NoLog, NoObserver};

/// `n` greedy players with this `hinder` and no reserve.
fn game(n: usize, hinder: f64) -> Game {
    let mut g = game_with(RING, n, policy::defaults("greedy"), &options());
    for pol in g.policies.iter_mut() {
        if let Policy::Scripted(s) = pol {
            s.hinder = hinder;
            s.reserve = 0;
        }
    }
    g
}

/// Player `r`'s hand: exactly `defence` City Defence and `attack` City Attack cards of its
/// deck and one Troop card (the rest of its cards in its draw pile).
fn hand_of(play: &mut Play, r: usize, defence: usize, attack: usize) {
    let s = play.s();
    let pl = &mut play.st.players[r];
    pl.draw.append(&mut pl.hand);
    let (mut d, mut a, mut t) = (0, 0, 0);
    let mut i = 0;
    while i < pl.draw.len() {
        let c = pl.draw[i];
        let want = if super::military::is(s, r, c, CITY_DEFENCE) && d < defence {
            d += 1;
            true
        } else if super::military::is(s, r, c, CITY_ATTACK) && a < attack {
            a += 1;
            true
        } else if super::military::is(s, r, c, TROOP) && t < 1 {
            t += 1;
            true
        } else {
            false
        };
        if want {
            pl.hand.push(pl.draw.swap_remove(i));
        } else {
            i += 1;
        }
    }
    assert_eq!((d, a, t), (defence, attack, 1));
}

/// Player 3 watches player 1 attack player 2's city: what it plays with these VP.
fn window(hinder: f64, vp: [u32; 3]) -> (Defence, usize, Cards) {
    let g = game(3, hinder);
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(3, 0, 0);
    play.setup(&mut dice);
    hand_of(&mut play, 2, 2, 3);
    for p in 0..3 {
        play.st.players[p].vp = vp[p] as _;
    }
    let mut d = Defence::default();
    play.third_parties(0, Some(1), &mut d, false);
    (d, play.st.players[2].hand.len(), play.third[2])
}

#[test]
fn a_third_party_plays_against_the_side_that_leads_it() {
    // The attacker leads player 3 by 5: its two City Defence cards (a die each) go to the city.
    let (d, hand, cards) = window(3.0, [15, 10, 10]);
    assert_eq!(
        (d.third_defence, d.third_attack, cards.len(), hand),
        (2, 0, 2, 4)
    );
    // The defender leads it: its three City Attack cards go to the attacker.
    let (d, hand, cards) = window(3.0, [10, 15, 10]);
    assert_eq!(
        (d.third_defence, d.third_attack, cards.len(), hand),
        (0, 3, 3, 3)
    );
    // Both lead it: against the one further ahead; equally: against the attacker.
    let (d, _, _) = window(3.0, [14, 16, 10]);
    assert_eq!((d.third_defence, d.third_attack), (0, 3));
    let (d, _, _) = window(3.0, [16, 16, 10]);
    assert_eq!((d.third_defence, d.third_attack), (2, 0));
    // Nobody leads it by 3: nothing played.
    let (d, hand, cards) = window(3.0, [12, 12, 10]);
    assert_eq!(
        (d.third_defence, d.third_attack, cards.len(), hand),
        (0, 0, 0, 6)
    );
    // The default never plays, whatever the lead.
    let (d, _, _) = window(NEVER_HINDER, [45, 10, 1]);
    assert_eq!((d.third_defence, d.third_attack), (0, 0));
}

#[test]
fn the_defender_and_the_reserve_are_kept_out_of_the_window() {
    let mut g = game(3, 0.0);
    if let Policy::Scripted(s) = &mut g.policies[2] {
        s.reserve = 5;
    }
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(3, 0, 1);
    play.setup(&mut dice);
    hand_of(&mut play, 1, 2, 0);
    hand_of(&mut play, 2, 2, 3);
    play.st.players[0].vp = 30;
    let mut d = Defence::default();
    play.third_parties(0, Some(1), &mut d, false);
    // Player 2 defends (its City Defence cards are its own, not a third party's); player 3
    // keeps 5 of its 6 cards.
    assert_eq!(play.third[1].len(), 0);
    assert_eq!((play.third[2].len(), play.st.players[2].hand.len()), (1, 5));
    assert_eq!(d.third_defence, 1);
    // Nothing reached the assault: the cards go home.
    play.third_parties_done(0, false, None, &mut dice);
    assert_eq!(play.st.players[2].hand.len(), 6);
    assert_eq!(play.st.counts.third_party_cards, 1);
}

/// The exact chain counts a third party's City Defence die as a die of the city (the same
/// chance as one more fortification marker) and its City Attack die as the attacker's own City
/// Attack die.
#[test]
fn the_chain_counts_third_party_dice_for_the_side_they_help() {
    let g = game(3, 0.0);
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(3, 0, 2);
    play.setup(&mut dice);
    let target = (0..s.map.cities.len())
        .find(|&c| play.st.owner[c] == super::state::NEUTRAL)
        .unwrap();
    let mut plan = Plan {
        target,
        straits: 0,
        ..Plan::default()
    };
    let hand = play.st.players[0].draw.clone();
    for &c in &hand {
        if super::military::is(s, 0, c, TROOP) && plan.cards.len() < 3 {
            plan.cards.push(c);
        }
    }
    let options = &g.rules.options;
    let none = Defence::default();
    let helped = Defence {
        third_defence: 1,
        ..none
    };
    let (with_die, _) = play.cache.chance(s, &play.st, options, 0, &plan, &helped);
    play.st.markers[target] += 1;
    let (with_marker, _) = play.cache.chance(s, &play.st, options, 0, &plan, &none);
    play.st.markers[target] -= 1;
    assert_eq!(with_die, with_marker);
    let (alone, _) = play.cache.chance(s, &play.st, options, 0, &plan, &none);
    assert!(with_die < alone);
    let attack = hand
        .iter()
        .copied()
        .find(|&c| super::military::is(s, 0, c, CITY_ATTACK))
        .unwrap();
    let mut own = plan;
    own.attack.push(attack);
    let (own_card, _) = play.cache.chance(s, &play.st, options, 0, &own, &none);
    let pushed = Defence {
        third_attack: 1,
        ..none
    };
    let (third_card, _) = play.cache.chance(s, &play.st, options, 0, &plan, &pushed);
    assert_eq!(own_card, third_card);
    assert!(third_card > alone);
}

/// In games of greedy players who hinder any leader, third parties play their cards, and every
/// card and marker is conserved.
#[test]
fn games_play_third_party_cards_with_cards_conserved() {
    let mut played = 0;
    for n in [3, 5] {
        let g = game(n, 0.0);
        let mut play = Play::new(&g);
        let mut record = GameRecord::new(n, super::GAME_COLUMNS.len());
        for i in 0..150 {
            let mut dice = Dice::for_trial(13, n as u64, i);
            record.clear();
            play.play_game(&mut dice, &mut record, &mut NoObserver, &mut NoLog);
            check(&play, &record);
            assert!(play.third.iter().all(|c| c.is_empty()));
            played += play.st.counts.third_party_cards;
        }
    }
    assert!(played > 0, "{played}");
}

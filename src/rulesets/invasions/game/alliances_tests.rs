//! Alliances (alliances.rs, XXVI): allies leave each other alone until the turn's end, lapse with
//! a bond, activate together in the later slot; Unio makes them in games, only with consent.

use super::game_tests::{bundled_game, check_invariants};
use super::policy::{Policy, Scripted};
use super::politics::Bond;
use super::state::Phase;
use super::turn::Play;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
use crate::rulesets::invasions::army::Status;

fn scripted() -> Policy {
    Policy::Scripted(Scripted::defaults())
}

fn held_by(play: &Play, n: usize) -> usize {
    (0..play.st.owner.len())
        .find(|&p| play.st.owner[p] == n as u8)
        .unwrap()
}

#[test]
fn allies_neither_attack_nor_raid_each_other_until_the_military_phase_ends() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let alamanni = s.nation("alamanni").unwrap() as usize;
    assert_ne!(g.player_of(rome), g.player_of(alamanni));
    let (p, q) = (held_by(&play, alamanni), held_by(&play, rome));
    assert!(play.attackable(rome, p) && play.attackable(alamanni, q));
    assert!(play.ally(rome, alamanni));
    assert!(!play.ally(alamanni, rome), "already allies");
    assert!(super::alliances::allied(&play.st, alamanni, rome));
    assert!(!play.attackable(rome, p) && !play.attackable(alamanni, q));
    assert_eq!(play.st.counters.alliances, 1);
    play.end_of_diplomacy();
    assert!(!super::alliances::allied(&play.st, rome, alamanni));
    assert!(play.attackable(rome, p) && play.attackable(alamanni, q));
}

#[test]
fn an_alliance_lapses_when_a_partner_becomes_a_vassal_client_or_federate() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap() as usize;
    let alamanni = s.nation("alamanni").unwrap() as usize;
    let start = play.st.clone();
    for bond in [Bond::Vassal, Bond::Client, Bond::Federate] {
        play.st.clone_from(&start);
        assert!(play.ally(rome, alamanni));
        play.st.nations[alamanni].bond = bond;
        play.st.nations[alamanni].lord = rome as u8;
        assert!(
            !super::alliances::allied(&play.st, rome, alamanni),
            "{bond:?} ends it"
        );
        // Nor may a bound nation enter a new one (XXVI.A).
        let franks = s.nation("franci").unwrap() as usize;
        assert!(!play.ally(alamanni, franks), "{bond:?}");
    }
    // A nation out of play may not ally.
    play.st.clone_from(&start);
    let waiting = (0..play.st.nations.len())
        .find(|&n| play.st.nations[n].phase == Phase::Waiting)
        .unwrap();
    assert!(!play.ally(rome, waiting));
}

#[test]
fn allies_activate_together_in_the_later_of_their_two_slots() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = s.nation("romani").unwrap();
    let alamanni = s.nation("alamanni").unwrap();
    assert_eq!(play.st.status(rome as usize), Some(Status::Empire));
    assert_eq!(play.st.status(alamanni as usize), Some(Status::Barbarian));
    play.sort_activation();
    let before = play.st.order.clone();
    let pos = |order: &[u8], n: u8| order.iter().position(|&x| x == n).unwrap();
    // VI.G: a Barbarian before an Empire.
    assert!(pos(&before, alamanni) < pos(&before, rome));
    assert!(play.ally(rome as usize, alamanni as usize));
    play.join_allies();
    let after = &play.st.order;
    // The Alamanni move to the Empire's slot, just before it; everyone else keeps their order.
    assert_eq!(pos(after, alamanni) + 1, pos(after, rome));
    let others = |o: &[u8]| -> Vec<u8> { o.iter().copied().filter(|&n| n != alamanni).collect() };
    assert_eq!(others(after), others(&before));
}

fn alliances_over(policy: Policy, games: u64) -> f64 {
    let g = bundled_game(policy);
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = g
        .game_columns()
        .iter()
        .position(|c| *c == "alliances")
        .unwrap();
    let mut made = 0.0;
    for i in 0..games {
        r.clear();
        play.play(
            &mut Dice::for_trial(31, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(&play, &r, &format!("game {i}"));
        assert_eq!(play.st.alliance_count, 0, "alliances end with the turn");
        made += r.extra[column];
    }
    made
}

#[test]
fn unio_makes_alliances_in_games_only_where_the_target_accepts_and_the_invariants_hold() {
    assert!(alliances_over(scripted(), 300) > 0.0);
    assert!(alliances_over(Policy::Random, 300) > 0.0);
    let refusing = Policy::Scripted(Scripted {
        alliance_accept: false,
        ..Scripted::defaults()
    });
    assert_eq!(alliances_over(refusing, 100), 0.0);
}

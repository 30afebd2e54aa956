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
    counted_over(policy, games, "alliances")
}

/// The sum of a per-game column over `games` games, each checked against the invariants.
pub(super) fn counted_over(policy: Policy, games: u64, name: &str) -> f64 {
    counted_in(&bundled_game(policy), games, name)
}

/// The sum of a per-game column of `g` over `games` games, each checked against the invariants.
pub(super) fn counted_in(g: &super::Game, games: u64, name: &str) -> f64 {
    let mut play = Play::new(g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let column = g.game_columns().iter().position(|c| *c == name).unwrap();
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

#[test]
fn the_alliance_event_allies_the_players_most_threatened_nation_with_its_threat() {
    let g = bundled_game(scripted());
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(5, 0, 0);
    let start = play.st.clone();
    let mut made = 0;
    for player in 0..g.players.len() {
        play.st.clone_from(&start);
        // The nation the event picks: the player's, with the highest threat ratio.
        let expected = (0..play.st.nations.len())
            .filter(|&n| {
                g.player_of(n) == player
                    && !g.inactive[n]
                    && super::alliances::may_ally(&play.st, n)
            })
            .filter_map(|n| play.most_threatening(n).map(|(t, r)| (n, t, r)))
            .filter(|&(_, t, _)| super::alliances::may_ally(&play.st, t))
            .fold(None, |b: Option<(usize, usize, f64)>, c| {
                if b.is_none_or(|b| c.2 > b.2) {
                    Some(c)
                } else {
                    b
                }
            });
        let ok = play.event_alliance(player, &mut dice, &mut NoLog);
        assert_eq!(ok, expected.is_some(), "player {player}");
        if let Some((n, t, _)) = expected {
            assert!(super::alliances::allied(&play.st, n, t));
            assert_ne!(g.player_of(n), g.player_of(t));
            assert_eq!(play.st.counters.event_alliances, 1);
            made += 1;
        }
    }
    assert!(made > 0, "some player is threatened at the start");
    // A refusing target makes none.
    let g = bundled_game(Policy::Scripted(Scripted {
        alliance_accept: false,
        ..Scripted::defaults()
    }));
    let mut play = Play::new(&g);
    for player in 0..g.players.len() {
        assert!(!play.event_alliance(player, &mut dice, &mut NoLog));
    }
    assert_eq!(play.st.alliance_count, 0);
}

#[test]
fn the_barbarian_coalition_allies_two_barbarians_of_different_players_with_neighbouring_hordes() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let mut dice = Dice::for_trial(6, 0, 0);
    let horde_area = |play: &Play, n: usize| {
        let h = play.st.nations[n].horde;
        (h != super::state::NO_PROVINCE && play.st.status(n) == Some(Status::Barbarian))
            .then(|| s.provinces[h as usize].area as usize)
    };
    let mut made = 0;
    let start = play.st.clone();
    for player in 0..g.players.len() {
        play.st.clone_from(&start);
        if !play.barbarian_coalition(player, &mut dice, &mut NoLog) {
            continue;
        }
        made += 1;
        let (a, b) = play.st.alliances[0];
        let (a, b) = (a as usize, b as usize);
        assert!(g.player_of(a) != g.player_of(b));
        assert!(g.player_of(a) == player || g.player_of(b) == player);
        let (x, y) = (horde_area(&play, a).unwrap(), horde_area(&play, b).unwrap());
        assert!(x == y || s.areas[x].links.iter().any(|l| l.to as usize == y));
        assert_eq!(play.st.counters.coalitions, 1);
    }
    assert!(made > 0, "some Barbarians stand side by side at the start");
}

#[test]
fn the_alliance_and_coalition_events_happen_in_games_and_the_invariants_hold() {
    assert!(counted_over(scripted(), 300, "event_alliances") > 0.0);
    assert!(counted_over(scripted(), 300, "coalitions") > 0.0);
    assert!(counted_over(Policy::Random, 200, "coalitions") > 0.0);
}

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

/// A Civilized Area of at least 3 provinces with no horde in it, emptied of owners.
fn empty_civilized_area(play: &mut Play) -> usize {
    let s = &play.game.scenario;
    let with_horde = |play: &Play, a: usize| {
        play.st.nations.iter().any(|ns| {
            ns.horde != super::state::NO_PROVINCE
                && s.provinces[ns.horde as usize].area as usize == a
        })
    };
    let a = (0..s.areas.len())
        .find(|&a| {
            s.areas[a].kind == super::scenario::AreaKind::Civilized
                && s.areas[a].provinces.len() >= 3
                && !with_horde(play, a)
        })
        .unwrap();
    for &p in &s.areas[a].provinces {
        play.st.set_owner(s, p as usize, super::state::NONE);
    }
    a
}

fn nation(play: &Play, key: &str) -> usize {
    play.game.scenario.nation(key).unwrap() as usize
}

#[test]
fn allied_kingdoms_pool_their_provinces_for_area_control_and_both_share_it() {
    use super::alliances::shares_control;
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let a = empty_civilized_area(&mut play);
    let (x, y, z) = (
        nation(&play, "franci"),
        nation(&play, "burgundi"),
        nation(&play, "suebi"),
    );
    for n in [x, y, z] {
        play.st.set_phase(s, n, Phase::Active(Status::Kingdom));
    }
    // XII.C, Q44: a Kingdom needs strictly more than half the provinces; x holds one short of
    // that, y one: neither alone, both together.
    let provinces = &s.areas[a].provinces;
    let need = provinces.len() / 2 + 1;
    for &p in &provinces[..need - 1] {
        play.st.set_owner(s, p as usize, x as u8);
    }
    play.st.set_owner(s, provinces[need - 1] as usize, y as u8);
    assert_eq!(play.st.control[a], super::state::NONE);
    assert!(play.ally(x, y));
    assert!(play.st.control[a] == x as u8 || play.st.control[a] == y as u8);
    assert!(shares_control(&play.st, a, x) && shares_control(&play.st, a, y));
    assert!(!shares_control(&play.st, a, z), "not an ally");
    assert_eq!(play.st.counters.pooled_areas, 1);
    let civilized = |play: &Play, n| play.controlled_areas(n).0;
    assert!(civilized(&play, x) >= 1 && civilized(&play, y) >= 1);
    let mut fresh = play.st.control.clone();
    super::state::control_table(s, &play.st, &mut fresh);
    assert_eq!(fresh, play.st.control, "the kept table is the rebuild");
    // The alliance ends with the turn, and its pooled control with it.
    play.end_alliances();
    assert_eq!(play.st.control[a], super::state::NONE);
    assert!(!shares_control(&play.st, a, x) && !shares_control(&play.st, a, y));
}

#[test]
fn an_empire_claims_with_its_allys_cities_and_its_ally_shares_the_area_income() {
    use super::alliances::shares_control;
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let rome = nation(&play, "romani");
    let franks = nation(&play, "franci");
    play.st.set_phase(s, franks, Phase::Active(Status::Kingdom));
    // A Civilized Area with at least 2 cities, emptied; Rome holds fewer than half its cities,
    // the Franks the rest of a majority.
    let a = (0..s.areas.len())
        .find(|&a| {
            s.areas[a].kind == super::scenario::AreaKind::Civilized
                && s.areas[a]
                    .provinces
                    .iter()
                    .filter(|&&p| play.st.level[p as usize] > 0)
                    .count()
                    >= 2
                && !play.st.nations.iter().any(|ns| {
                    ns.horde != super::state::NO_PROVINCE
                        && s.provinces[ns.horde as usize].area as usize == a
                })
        })
        .unwrap();
    for &p in &s.areas[a].provinces {
        play.st.set_owner(s, p as usize, super::state::NONE);
    }
    let cities: Vec<usize> = s.areas[a]
        .provinces
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| play.st.level[p] > 0)
        .collect();
    let need = cities.len() / 2 + 1;
    for &p in &cities[..need - 1] {
        play.st.set_owner(s, p, rome as u8);
    }
    play.st.set_owner(s, cities[need - 1], franks as u8);
    assert_ne!(play.st.control[a], rome as u8);
    let before = play.gross_halves(rome);
    assert!(play.ally(rome, franks));
    // An Empire's claim beats a Kingdom's (XII.C): Rome claims, the Franks share it.
    assert_eq!(play.st.control[a], rome as u8);
    assert!(shares_control(&play.st, a, franks));
    // The Area's 1 gold (2 halves) to Rome; not full control (the Franks hold a city).
    assert_eq!(play.gross_halves(rome) - before, 2);
}

#[test]
fn allied_barbarian_hordes_in_one_area_control_it_where_two_hordes_alone_would_not() {
    use super::alliances::shares_control;
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let (x, y) = (nation(&play, "franci"), nation(&play, "burgundi"));
    let a = (0..s.areas.len())
        .find(|&a| {
            s.areas[a].kind == super::scenario::AreaKind::Barbarian
                && !play.st.nations.iter().any(|ns| {
                    ns.horde != super::state::NO_PROVINCE
                        && s.provinces[ns.horde as usize].area as usize == a
                })
                && s.areas[a]
                    .provinces
                    .iter()
                    .all(|&p| play.st.owner[p as usize] == super::state::NONE)
        })
        .unwrap();
    let provinces = &s.areas[a].provinces;
    for (n, &p) in [x, y].into_iter().zip(provinces.iter()) {
        play.st.set_phase(s, n, Phase::Active(Status::Barbarian));
        play.st.set_horde(s, n, p);
    }
    assert_eq!(play.st.control[a], super::state::NONE, "two hordes");
    assert!(play.ally(x, y));
    assert!(play.st.control[a] == x as u8 || play.st.control[a] == y as u8);
    assert!(shares_control(&play.st, a, x) && shares_control(&play.st, a, y));
    assert_eq!(play.st.counters.pooled_areas, 1);
}

#[test]
fn a_bond_ends_the_alliance_for_good_and_its_pooled_control() {
    let g = bundled_game(scripted());
    let s = &g.scenario;
    let mut play = Play::new(&g);
    let a = empty_civilized_area(&mut play);
    let (x, y, lord) = (
        nation(&play, "franci"),
        nation(&play, "burgundi"),
        nation(&play, "romani"),
    );
    for n in [x, y] {
        play.st.set_phase(s, n, Phase::Active(Status::Kingdom));
    }
    let provinces = &s.areas[a].provinces;
    let need = provinces.len() / 2 + 1;
    for &p in &provinces[..need - 1] {
        play.st.set_owner(s, p as usize, x as u8);
    }
    play.st.set_owner(s, provinces[need - 1] as usize, y as u8);
    assert!(play.ally(x, y));
    assert_ne!(play.st.control[a], super::state::NONE);
    play.submit(y, lord, Bond::Client, &mut NoLog);
    assert_eq!(play.st.alliance_count, 0);
    assert_eq!(play.st.control[a], super::state::NONE);
    // Freed again, y is no ally of x (the alliance expired, XXVI.B).
    play.free_dependants_of(lord, &mut NoLog);
    assert!(!super::alliances::allied(&play.st, x, y));
}

#[test]
fn allies_pool_their_holdings_for_area_control_in_games() {
    // Alliances are one-turn affairs between neighbours; pooling changes an Area's controller
    // only where neither partner holds a majority alone.
    let pooled = counted_over(scripted(), 500, "pooled_areas");
    assert!(pooled > 0.0, "{pooled}");
}

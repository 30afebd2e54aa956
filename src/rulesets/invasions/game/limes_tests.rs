//! The Limes' end (limes.rs, XVIII.I): in the Purchases after the last Limes turn each Limes
//! still standing becomes the scenario's local units of the Roman nation holding it.

use super::alliances_tests::counted_over;
use super::game_tests::bundled_game;
use super::policy::{Policy, Scripted};
use super::turn::Play;

#[test]
fn each_standing_limes_becomes_local_units_on_the_turn_after_the_last_limes_turn() {
    let g = bundled_game(Policy::Scripted(Scripted::defaults()));
    let s = &g.scenario;
    assert_eq!(s.limes_last_turn, 7, "digest §3.4: on the map to turn 7");
    assert_eq!(s.limes_local_units, vec![(0, 1)], "one infantry each");
    let mut play = Play::new(&g);
    let limes: Vec<usize> = s.limes.iter().map(|&p| p as usize).collect();
    assert!(limes.len() >= 3);
    let goths = s.nation("visigothi").unwrap() as usize;
    // One Limes destroyed, one province lost to a Barbarian, the rest standing.
    play.st.limes[limes[0]] = false;
    play.st.set_owner(s, limes[1], goths as u8);
    play.st.turn = 7;
    let before = play.st.clone();
    play.rebuild_limes();
    // On turn 7 the Purchases still rebuild (the one destroyed in a Roman province).
    assert!(play.st.limes[limes[0]] == g.roman[play.st.owner[limes[0]] as usize]);
    assert_eq!(play.st.all_units(), before.all_units());
    play.st.clone_from(&before);
    play.st.turn = 8;
    play.rebuild_limes();
    let standing: Vec<usize> = limes[2..]
        .iter()
        .copied()
        .filter(|&p| g.roman[before.owner[p] as usize] && before.limes[p])
        .collect();
    assert!(!standing.is_empty());
    assert_eq!(
        play.st.all_units(),
        before.all_units() + standing.len() as i64
    );
    assert_eq!(
        play.st.ledger.units_in,
        before.ledger.units_in + standing.len() as i64
    );
    assert_eq!(play.st.counters.limes_local_units, standing.len() as u32);
    for a in 0..s.areas.len() {
        for n in 0..play.st.nations.len() {
            let gained = standing
                .iter()
                .filter(|&&p| s.provinces[p].area as usize == a && before.owner[p] == n as u8)
                .count() as u8;
            assert_eq!(play.st.at(n, a)[0], before.at(n, a)[0] + gained);
        }
    }
    assert!(limes.iter().all(|&p| !play.st.limes[p]), "no Limes is left");
    assert!(limes.iter().all(|&p| !play.limes_stands(p)));
    // Never again.
    play.st.turn = 9;
    let after = play.st.clone();
    play.rebuild_limes();
    assert_eq!(play.st.all_units(), after.all_units());
}

#[test]
fn the_limes_turn_into_local_units_in_games() {
    assert!(
        counted_over(
            Policy::Scripted(Scripted::defaults()),
            200,
            "limes_local_units"
        ) > 0.0
    );
}

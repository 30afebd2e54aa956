//! Tests of fleets, crossings by sea and landings: island countries are reachable by sea only,
//! storms at sea sink ships at the digest's D14 rate, a landing force fights converted and loses
//! every kind alike, and crossings, naval battles, landings and storms happen in games (none
//! with overseas = 0).

use super::battles::{self, Side};
use super::game_tests::{country, game_with, options, scripted_game};
use super::military::{self, UNREACHABLE};
use super::naval;
use super::policy::{Policy, Scripted};
use super::state::{State, KINDS};
use super::turn::Play;
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;
use crate::game::{GamePlay, GameRecord, NoLog, NoObserver};

#[test]
fn islands_are_reached_by_sea_only_and_with_a_whole_fleet() {
    let g = scripted_game();
    let n = g.scenario.countries.len();
    let roma = country(&g, "Roma");
    let cerdena = country(&g, "Cerdeña");
    assert_eq!(g.next[roma as usize * n + cerdena as usize], UNREACHABLE);
    let mut st = g.start.clone();
    assert!(st.nations[roma as usize].fleets >= 1.0);
    assert!(military::sea_target(&g, &st, roma, cerdena, 2));
    // FT carry 2 land units a fleet (digest §3.1.8).
    assert_eq!(
        military::capacity(&g, &st, roma),
        2.0 * st.nations[roma as usize].fleets.floor()
    );
    // Fewer than 10 ships cannot move by sea (L1246).
    st.nations[roma as usize].fleets = 0.9;
    assert!(!military::sea_target(&g, &st, roma, cerdena, 2));
    // A land neighbour is never a sea target, and no country without a sea coast has fleets.
    let etruria = country(&g, "Etruria");
    assert!(!military::sea_target(&g, &g.start, roma, etruria, 2));
    for c in 0..n {
        if g.scenario.nodes[c].seas == 0 {
            assert_eq!(g.start.nations[c].fleets, 0.0, "{c}");
        }
    }
}

/// D14: P(a fleet that moves loses ships) = storm number / 10 × P(2D6 + mods ≥ 10), 1D10 ships
/// when it does. In clear weather with no modifier 1/60; in a storm, in winter, on the Atlantic
/// (a crossing starts in port: not at sea) 5/10 × P(2D6 ≥ 6) = 1/2 × 26/36 = 13/36.
#[test]
fn storms_at_sea_sink_ships_at_the_digests_rate() {
    let g = scripted_game();
    let links = |c: u8| g.scenario.links(c).to_vec();
    // An Atlantic lane between two Atlantic-only coasts (bit 0 of SEAS), and a Mediterranean one
    // (bit 1).
    let only_atlantic = |c: usize| g.scenario.nodes[c].seas == 1;
    let (a, b) = (0..g.scenario.countries.len() as u8)
        .flat_map(|a| links(a).into_iter().map(move |l| (a, l)))
        .find(|(a, l)| l.sea && only_atlantic(*a as usize) && only_atlantic(l.to as usize))
        .map(|(a, l)| (a, l.to))
        .expect("an Atlantic sea lane");
    let january = 1;
    assert!(military::winter(&g, january));
    let july = 7;
    assert!(!military::winter(&g, july));
    let (med, other) = (0..g.scenario.countries.len() as u8)
        .filter(|&m| g.scenario.nodes[m as usize].seas == 2)
        .find_map(|m| {
            links(m)
                .into_iter()
                .find(|l| l.sea && g.scenario.nodes[l.to as usize].seas == 2)
                .map(|l| (m, l.to))
        })
        .expect("a Mediterranean lane");
    for (weather, month, from, to, p) in [
        (Weather::Clear, july, med, other, 1.0 / 60.0),
        (Weather::Storm, january, a, b, 13.0 / 36.0),
    ] {
        let mut st = g.start.clone();
        st.weather = [weather; super::weather::ZONES];
        let fleets = 200_000.0;
        st.nations[from as usize].fleets = fleets;
        st.nations[from as usize].field = [1.0e6; KINDS];
        let men_before = State::men(&st.nations[from as usize].field, &g.men_per_unit(from));
        let mut dice = Dice::from_seed(17);
        naval::storms(
            &g,
            &mut st,
            from,
            naval::Squadron::Army,
            from,
            to,
            month,
            &mut dice,
        );
        let sunk = st.counts.ships_lost_to_storms;
        let expected = fleets * p * 5.5;
        let se = (fleets * (p * 38.5 - (p * 5.5) * (p * 5.5))).sqrt();
        assert!(
            (sunk - expected).abs() < 5.0 * se,
            "{weather:?}: {sunk} ships sunk, expected {expected} ± {se}"
        );
        assert!(
            (st.nations[from as usize].fleets - (fleets - sunk / 10.0)).abs() < 1e-6,
            "the ships sunk leave the fleets"
        );
        // The troops aboard the sunk ships go down with them, and are counted lost.
        let share = sunk / (fleets * 10.0);
        let men_after = State::men(&st.nations[from as usize].field, &g.men_per_unit(from));
        assert!((men_after - men_before * (1.0 - share)).abs() < 1e-6 * men_before);
        assert!((st.ledger.men_lost - (men_before - men_after)).abs() < 1e-6 * men_before);
    }
}

#[test]
fn a_landing_force_fights_as_infantry_and_loses_every_kind_alike() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let cerdena = country(&g, "Cerdeña");
    assert!(g.nkinds[roma as usize] == 3, "Roma raises three kinds");
    let attacker = Side::new(roma, [10.0, 10.0, 6.0], super::leaders::Lead::UNNAMED);
    let defender = Side::new(cerdena, [8.0, 8.0, 0.0], super::leaders::Lead::UNNAMED);
    let mut fought_any = false;
    for seed in 0..20 {
        let mut dice = Dice::from_seed(seed);
        let f = battles::landing_battle(
            &g,
            cerdena,
            false,
            Weather::Clear,
            [attacker, defender],
            5.0,
            &mut dice,
        );
        let shares: Vec<f64> = (0..KINDS)
            .map(|k| f.lost[0][k] / attacker.units[k])
            .collect();
        assert!(
            shares.iter().all(|s| (s - shares[0]).abs() < 1e-9),
            "{shares:?}"
        );
        fought_any |= shares[0] > 0.0;
        // The landing force's cavalry fights as infantry: its factors differ from the field's.
        let mut twin = Dice::from_seed(seed);
        let field = battles::field_battle(
            &g,
            cerdena,
            false,
            Weather::Clear,
            [attacker, defender],
            &mut twin,
        );
        assert_ne!(f.factors[0], field.factors[0]);
    }
    assert!(fought_any);
}

fn games(g: &Game, n: u64) -> [f64; 4] {
    let mut play = Play::new(g);
    let mut r = GameRecord::new(g.players.len(), g.columns.len());
    let mut sums = [0.0; 4];
    for i in 0..n {
        r.clear();
        play.play(
            &mut Dice::for_trial(21, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        let c = &play.st.counts;
        sums[0] += c.landings as f64;
        sums[1] += c.naval_battles as f64;
        sums[2] += c.ships_lost_to_storms;
        // An island conquered: some country holds a land it cannot reach by land from home.
        let nn = g.scenario.countries.len();
        sums[3] += (0..nn)
            .filter(|&t| {
                let o = play.st.lands[t].owner as usize;
                o != t && g.next[o * nn + t] == UNREACHABLE
            })
            .count() as f64;
    }
    sums
}

#[test]
fn crossings_naval_battles_landings_and_storms_happen_in_games_and_not_without_overseas() {
    let g = scripted_game();
    let [landings, naval, storms, islands] = games(&g, 40);
    assert!(
        landings > 0.0 && naval > 0.0 && storms > 0.0 && islands > 0.0,
        "{landings} {naval} {storms} {islands}"
    );
    let never = game_with(
        // No envoys either: an island can also join as a province by diplomacy.
        Policy::Scripted(Scripted {
            overseas: 0.0,
            envoys: 0,
            ..Scripted::defaults()
        }),
        &options(),
    );
    assert_eq!(games(&never, 20), [0.0; 4]);
}

//! Tests of the political layer (politics.rs): submission (§3.12, Q50), vassals and clients
//! (XXVII, XXIX), the Foedus (XXVIII), their scoring and tributes, and that each happens in games.

use super::policy::{Policy, Scripted};
use super::politics::{at_peace, Bond, FOEDUS_VP, REBELLION_VP};
use super::scenario::{AreaKind, Scenario};
use super::state::{Phase, NONE, NO_PROVINCE, VP_FOEDUS, VP_REBELLION};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver, TextLog};
use crate::options::Options;
use crate::rulesets::invasions::army::Status;

fn game_with_options(policy: Scripted, options: &Options) -> Game {
    super::game_tests::game_with_options(
        Scenario::bundled().unwrap(),
        Policy::Scripted(policy),
        options,
    )
}

fn game(policy: Scripted) -> Game {
    game_with_options(
        policy,
        &Options::defaults(crate::rulesets::invasions::OPTIONS),
    )
}

fn nation(g: &Game, key: &str) -> usize {
    g.scenario.nation(key).unwrap() as usize
}

/// Sets a treasury through the ledger (so the gold invariant still holds).
fn set_treasury(play: &mut Play, n: usize, gold: i32) {
    let now = play.st.nations[n].treasury;
    if gold > now {
        play.st.gain_gold(n, gold - now);
    } else {
        play.st.spend_gold(n, now - gold);
    }
}

fn gold_balances(play: &Play) -> bool {
    play.st.all_gold() == play.st.ledger.gold_in - play.st.ledger.gold_out
}

#[test]
fn a_captured_horde_submits_as_a_vassal_and_hands_over_half_its_treasury() {
    let g = game(Scripted::defaults());
    let mut play = Play::new(&g);
    let (rome, alamanni) = (nation(&g, "romani"), nation(&g, "alamanni"));
    assert_eq!(play.st.status(alamanni), Some(Status::Barbarian));
    let horde = play.st.nations[alamanni].horde;
    assert_ne!(horde, NO_PROVINCE);
    set_treasury(&mut play, alamanni, 7);
    set_treasury(&mut play, rome, 0);
    play.st.remove_all_units(alamanni);
    assert!(play.horde_captured(rome, alamanni, &mut NoLog));
    let ns = &play.st.nations[alamanni];
    assert_eq!((ns.bond, ns.lord as usize), (Bond::Vassal, rome));
    // XXIX.B: the treasury halved, the removed half (7 / 2 = 3) to the sovereign.
    assert_eq!((ns.treasury, play.st.nations[rome].treasury), (4, 3));
    // The nation stays in the game, a Barbarian with its horde where it was.
    assert_eq!(ns.phase, Phase::Active(Status::Barbarian));
    assert_eq!(ns.horde, horde);
    assert_eq!(play.st.counters.submissions, 1);
    assert!(at_peace(&play.st, rome, alamanni) && at_peace(&play.st, alamanni, rome));
    assert!(gold_balances(&play));
}

#[test]
fn a_vassal_cannot_subjugate_so_the_horde_it_captures_ends_its_nation() {
    let g = game(Scripted::defaults());
    let mut play = Play::new(&g);
    let (rome, alamanni) = (nation(&g, "romani"), nation(&g, "alamanni"));
    let other = (0..g.scenario.nations.len())
        .find(|&n| {
            n != alamanni
                && play.st.status(n) == Some(Status::Barbarian)
                && play.st.nations[n].horde != NO_PROVINCE
        })
        .expect("a second Barbarian with a horde on turn 1");
    play.submit(alamanni, rome, Bond::Vassal, &mut NoLog);
    play.st.remove_all_units(other);
    assert!(!play.horde_captured(alamanni, other, &mut NoLog));
    assert_eq!(play.st.nations[other].phase, Phase::Gone);
}

#[test]
fn q50_a_kingdom_submits_only_with_its_capital_taken_and_3_provinces_or_fewer() {
    let g = game(Scripted::defaults());
    let s = &g.scenario;
    let (rome, persia, armenia, alamanni) = (
        nation(&g, "romani"),
        nation(&g, "persae"),
        nation(&g, "armenii"),
        nation(&g, "alamanni"),
    );
    assert!(g.minor[armenia] && !g.minor[persia]);
    // A minor kingdom whose capital a Civilized nation takes becomes its client (XXVII.A) ...
    let mut play = Play::new(&g);
    let capital = play.st.nations[armenia].capital as usize;
    play.st.set_owner(s, capital, rome as u8);
    play.kingdom_capital_taken(rome, armenia, &mut NoLog);
    assert_eq!(play.st.nations[armenia].bond, Bond::Client);
    assert_eq!(play.st.counters.clients_made, 1);
    // ... a Barbarian's vassal.
    let mut play = Play::new(&g);
    play.st.set_owner(s, capital, alamanni as u8);
    play.kingdom_capital_taken(alamanni, armenia, &mut NoLog);
    assert_eq!(play.st.nations[armenia].bond, Bond::Vassal);
    // Persia with more than 3 provinces left does not submit; with 3 it does.
    let mut play = Play::new(&g);
    let held: Vec<usize> = (0..s.provinces.len())
        .filter(|&p| play.st.owner[p] == persia as u8)
        .collect();
    assert!(
        held.len() > 4,
        "Persia starts with {} provinces",
        held.len()
    );
    play.st.set_owner(s, held[0], rome as u8);
    play.kingdom_capital_taken(rome, persia, &mut NoLog);
    assert_eq!(play.st.nations[persia].bond, Bond::Free);
    for &p in &held[..held.len() - 3] {
        play.st.set_owner(s, p, rome as u8);
    }
    play.kingdom_capital_taken(rome, persia, &mut NoLog);
    assert_eq!(
        (play.st.nations[persia].bond, play.st.nations[persia].lord),
        (Bond::Vassal, rome as u8)
    );
    // Empires never submit.
    let mut play = Play::new(&g);
    play.kingdom_capital_taken(persia, rome, &mut NoLog);
    assert_eq!(play.st.nations[rome].bond, Bond::Free);
}

/// Nobody holds anything, no capitals: the scoring test hands out Areas.
fn empty_board(play: &mut Play) {
    play.st.owner.fill(NONE);
    for ns in play.st.nations.iter_mut() {
        ns.capital = NO_PROVINCE;
    }
    play.st.rebuild_control(&play.game.scenario);
}

#[test]
fn a_sovereign_scores_its_vassals_land_whole_a_patron_half_and_a_vassal_half_its_own() {
    let g = game(Scripted::defaults());
    let s = &g.scenario;
    let (rome, persia) = (nation(&g, "romani"), nation(&g, "persae"));
    let vp_of = |key: &str, area: &str| {
        let n = nation(&g, key);
        let a = s.area(area).unwrap();
        s.nations[n]
            .objectives
            .iter()
            .find(|o| o.target == super::scenario::Target::Area(a))
            .map(|o| o.vp as i32)
            .unwrap()
    };
    let (italia, persis) = (vp_of("romani", "Italia"), vp_of("persae", "Persis"));
    assert_eq!((italia, persis), (12, 9), "abstraction.toml's stand-ins");
    let mut play = Play::new(&g);
    empty_board(&mut play);
    for area in ["Italia", "Persis"] {
        for &p in &s.areas[s.area(area).unwrap() as usize].provinces {
            play.st.set_owner(s, p as usize, persia as u8);
        }
    }
    assert_eq!(play.objective_vp(rome), 0);
    assert_eq!(play.objective_vp(persia), persis);
    play.submit(persia, rome, Bond::Vassal, &mut NoLog);
    // XXIX.E: Italia held by the vassal counts for Rome whole; XXIX.F: Persia scores 9 / 2,
    // rounded up (§0).
    assert_eq!(play.objective_vp(rome), italia);
    assert_eq!(play.objective_vp(persia), 5);
    // As a client (XXVII.A): the patron half of it (6), the client its whole own.
    play.st.nations[persia].bond = Bond::Client;
    assert_eq!(play.objective_vp(rome), 6);
    assert_eq!(play.objective_vp(persia), persis);
}

/// A Civilized Area with at least 2 cities where an Empire holding everything but two of its
/// cities would lose the majority of its cities (XII.C).
fn small_civilized_area(g: &Game, play: &Play) -> usize {
    let s = &g.scenario;
    (0..s.areas.len())
        .find(|&a| {
            let cities = s.areas[a]
                .provinces
                .iter()
                .filter(|&&p| play.st.level[p as usize] > 0)
                .count();
            s.areas[a].kind == AreaKind::Civilized
                && cities >= 2
                && 2 * (cities - 2) <= cities
                && s.areas[a].provinces.len() >= 3
        })
        .expect("a small Civilized Area")
}

#[test]
fn foedus_provinces_pass_to_the_federate_but_count_for_the_federator_until_it_ends() {
    let g = game(Scripted::defaults());
    let s = &g.scenario;
    let (rome, alamanni) = (nation(&g, "romani"), nation(&g, "alamanni"));
    let mut play = Play::new(&g);
    empty_board(&mut play);
    let a = small_civilized_area(&g, &play);
    let area = &s.areas[a];
    for &p in &area.provinces {
        play.st.set_owner(s, p as usize, rome as u8);
    }
    assert_eq!(play.st.control[a], rome as u8);
    let cities: Vec<usize> = area
        .provinces
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| play.st.level[p] > 0)
        .collect();
    let units = play.st.units_of(alamanni);
    play.establish_foedus(rome, alamanni, cities[0], cities[1]);
    let ns = &play.st.nations[alamanni];
    assert_eq!((ns.bond, ns.lord as usize), (Bond::Federate, rome));
    assert_eq!(ns.horde as usize, cities[0]);
    assert_eq!(play.st.owner[cities[0]], alamanni as u8);
    assert_eq!(play.st.owner[cities[1]], alamanni as u8);
    // XII: the federator controls the Foedus provinces, so the Area stays Rome's.
    assert_eq!(play.st.control[a], rome as u8);
    let mut fresh = play.st.control.clone();
    super::state::control_table(s, &play.st, &mut fresh);
    assert_eq!(fresh, play.st.control, "the kept table equals a rebuild");
    // Its units moved with the horde, up to the two provinces' stacking, none lost.
    assert_eq!(play.st.units_of(alamanni), units);
    assert!(play.st.count(alamanni, a) <= play.limit(cities[0], false) * 2);
    // Ended: the federate keeps the provinces, now its own, and Rome loses its majority.
    play.end_foedus(alamanni, &mut NoLog);
    assert_eq!(play.st.owner[cities[0]], alamanni as u8);
    assert_ne!(play.st.control[a], rome as u8);
    assert_eq!(play.st.nations[alamanni].bond, Bond::Free);
}

#[test]
fn tributes_move_the_rules_gold_and_a_broke_vassal_still_pays_its_sovereign() {
    let g = game(Scripted::defaults());
    let (rome, persia, armenia, alamanni) = (
        nation(&g, "romani"),
        nation(&g, "persae"),
        nation(&g, "armenii"),
        nation(&g, "alamanni"),
    );
    let mut play = Play::new(&g);
    for (n, gold) in [(rome, 0), (persia, 0), (armenia, 1), (alamanni, 0)] {
        set_treasury(&mut play, n, gold);
    }
    play.submit(persia, rome, Bond::Vassal, &mut NoLog);
    play.submit(armenia, rome, Bond::Client, &mut NoLog);
    play.st.nations[alamanni].bond = Bond::Federate;
    play.st.nations[alamanni].lord = rome as u8;
    play.tributes();
    // Rome: 0 + 1 (vassal, XXIX.E) + 1 (all the client has, XXVII) − 2 (all it has of the 3 it
    // owes its federate, XXVIII.D) = 0.
    assert_eq!(play.st.nations[rome].treasury, 0);
    assert_eq!(play.st.nations[persia].treasury, 0);
    assert_eq!(play.st.nations[armenia].treasury, 0);
    assert_eq!(play.st.nations[alamanni].treasury, 2);
    assert!(gold_balances(&play));
}

/// Trials of the political step for a federate (or a Nomad's vassal) whose bond began on turn
/// `began`, played on turn `now`: how many ended it (a vassal: rebelled and won its freedom), and
/// how many vassals failed their rebellion.
fn trials_of_politics(
    g: &Game,
    bond: Bond,
    lord: &str,
    began: u8,
    now: u8,
    trials: u64,
) -> (u64, u64) {
    let alamanni = nation(g, "alamanni");
    let l = nation(g, lord);
    let mut play = Play::new(g);
    let (mut ended, mut failed) = (0, 0);
    for i in 0..trials {
        play.st.clone_from(&g.start);
        play.st
            .set_phase(&g.scenario, l, Phase::Active(Status::Barbarian));
        play.st.turn = now;
        let ns = &mut play.st.nations[alamanni];
        (ns.bond, ns.lord, ns.bond_turn) = (bond, l as u8, began);
        let units = play.st.units_of(alamanni);
        play.politics(&mut Dice::for_trial(5, 0, i), &mut NoLog);
        if play.st.nations[alamanni].bond == Bond::Free {
            ended += 1;
        } else if play.st.nations[alamanni].vp[VP_REBELLION] != 0 {
            // A failed rebellion: −5 VP and a unit (XXIX.G).
            assert_eq!(play.st.nations[alamanni].vp[VP_REBELLION], -REBELLION_VP);
            assert_eq!(play.st.units_of(alamanni), units - 1);
            failed += 1;
        }
    }
    (ended, failed)
}

/// |hits − n·p| within 5 standard errors.
fn near(hits: u64, n: u64, p: f64) -> bool {
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    (hits as f64 - n as f64 * p).abs() <= 5.0 * sd.max(1e-9)
}

#[test]
fn a_federate_breaks_freely_the_turn_after_and_later_on_a_d2_and_never_if_it_does_not_want_to() {
    let breaks = Scripted {
        foedus_break: true,
        foedus_offer: 5.0,
        ..Scripted::defaults()
    };
    let g = game(breaks);
    // The Roman Empire is the federator here; "romani" is active on every turn tested.
    assert_eq!(
        trials_of_politics(&g, Bond::Federate, "romani", 2, 3, 200),
        (200, 0)
    );
    let n = 4000;
    let (ended, _) = trials_of_politics(&g, Bond::Federate, "romani", 2, 4, n);
    assert!(near(ended, n, 0.5), "{ended} of {n}");
    let keeps = game(Scripted {
        foedus_break: false,
        foedus_offer: 5.0,
        ..Scripted::defaults()
    });
    assert_eq!(
        trials_of_politics(&keeps, Bond::Federate, "romani", 2, 5, 200),
        (0, 0)
    );
}

#[test]
fn a_nomads_vassal_rebels_on_a_d2_from_the_next_turn_and_a_failure_costs_5_vp_and_a_unit() {
    let g = game(Scripted {
        rebel: true,
        foedus_offer: 5.0,
        ..Scripted::defaults()
    });
    assert!(g.nomad[nation(&g, "hunni")]);
    assert_eq!(
        trials_of_politics(&g, Bond::Vassal, "hunni", 3, 3, 200),
        (0, 0)
    );
    let n = 4000;
    let (freed, failed) = trials_of_politics(&g, Bond::Vassal, "hunni", 2, 4, n);
    assert_eq!(freed + failed, n, "every allowed rebellion is tried");
    assert!(near(freed, n, 0.5), "{freed} of {n}");
    // A non-Nomad's vassal never rebels (XXIX.G is the Nomads' rule).
    assert!(!g.nomad[nation(&g, "visigothi")]);
    assert_eq!(
        trials_of_politics(&g, Bond::Vassal, "visigothi", 2, 4, 200),
        (0, 0)
    );
}

/// Plays `games` games and returns the summed counters of the political layer and the VP of the
/// federates and of failed rebellions.
fn political_totals(g: &Game, games: u64) -> ([u32; 5], i64, i64) {
    let mut play = Play::new(g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    let mut counts = [0u32; 5];
    let (mut foedus_vp, mut rebellion_vp) = (0i64, 0i64);
    for i in 0..games {
        r.clear();
        play.play(
            &mut Dice::for_trial(17, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        let c = &play.st.counters;
        for (k, v) in [
            c.submissions,
            c.clients_made,
            c.foedera,
            c.foedera_broken,
            c.freed,
        ]
        .into_iter()
        .enumerate()
        {
            counts[k] += v;
        }
        for ns in &play.st.nations {
            foedus_vp += ns.vp[VP_FOEDUS] as i64;
            rebellion_vp += ns.vp[VP_REBELLION] as i64;
        }
    }
    (counts, foedus_vp, rebellion_vp)
}

#[test]
fn submissions_clients_foedera_and_rebellions_happen_in_games() {
    let (counts, foedus_vp, rebellion_vp) = political_totals(&game(Scripted::defaults()), 300);
    for (k, name) in [
        "submissions",
        "clients",
        "foedera",
        "ended foedera",
        "freed",
    ]
    .iter()
    .enumerate()
    {
        assert!(counts[k] > 0, "no {name} in 300 scripted games");
    }
    assert!(foedus_vp > 0 && foedus_vp % FOEDUS_VP as i64 == 0);
    assert!(rebellion_vp < 0 && rebellion_vp % REBELLION_VP as i64 == 0);
}

#[test]
fn under_q30s_scoring_turns_reading_the_foedus_vp_come_only_on_scoring_turns() {
    for (reading, only_scoring) in [("every-turn", false), ("scoring-turns", true)] {
        let table: toml::Table =
            toml::from_str(&format!("foedus_vp_turns = \"{reading}\"")).unwrap();
        let options = Options::resolve(
            crate::rulesets::invasions::OPTIONS,
            crate::spec::Fields::new("t.toml", &table),
        )
        .unwrap();
        let g = game_with_options(Scripted::defaults(), &options);
        let mut turns = Vec::new();
        for seed in 0..20 {
            let mut play = Play::new(&g);
            let mut log = TextLog::default();
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            play.play(
                &mut Dice::for_trial(seed, 0, 0),
                &mut r,
                &mut NoObserver,
                &mut log,
            );
            let mut turn = 0;
            for line in &log.lines {
                if let Some(rest) = line.strip_prefix("== turn ") {
                    turn = rest.split(' ').next().unwrap().parse::<u8>().unwrap();
                }
                if line.ends_with("VP for its Foedus") {
                    turns.push(turn);
                }
            }
        }
        assert!(!turns.is_empty(), "{reading}: no Foedus VP in 20 games");
        let off_scoring = turns.iter().any(|t| ![3, 6, 9, 12].contains(t));
        assert_eq!(off_scoring, !only_scoring, "{reading}: {turns:?}");
    }
}

#[test]
fn balanced_objectives_make_every_players_historical_end_state_worth_the_romans_179_vp() {
    let as_written = Scenario::bundled().unwrap();
    let mut balanced = Scenario::bundled().unwrap();
    assert!(balanced.choose_objective_values(true));
    let totals = |s: &Scenario| {
        let mut t = vec![0u32; s.players.len()];
        let mut rows = vec![0u32; s.players.len()];
        for n in &s.nations {
            for o in &n.objectives {
                t[n.player as usize] += o.vp as u32;
                rows[n.player as usize] += 1;
            }
        }
        (t, rows)
    };
    let (written, _) = totals(&as_written);
    // abstraction.toml's [objectives] rows as written: the Romans' nations 179 VP, the others
    // 75 to 99 (the sums the [objective_balance] factors were derived from).
    assert_eq!(written, [179, 76, 75, 99]);
    let (scaled, rows) = totals(&balanced);
    for p in 0..4 {
        // Each row rounds to the nearest VP: the total is 179 within half a VP a row (and the
        // factors' three decimals).
        let slack = rows[p] as f64 / 2.0 + 1.0;
        assert!(
            (scaled[p] as f64 - 179.0).abs() <= slack,
            "{}: {} VP all held",
            balanced.players[p],
            scaled[p]
        );
    }
    // Persis (Persians, 9 VP as written) × 2.387 = 21.48 → 21; Italia (Romans) stays 12.
    let vp = |s: &Scenario, key: &str, area: &str| {
        let n = s.nation(key).unwrap() as usize;
        let a = s.area(area).unwrap();
        s.nations[n]
            .objectives
            .iter()
            .find(|o| o.target == super::scenario::Target::Area(a))
            .unwrap()
            .vp
    };
    assert_eq!(vp(&balanced, "persae", "Persis"), 21);
    assert_eq!(vp(&balanced, "romani", "Italia"), 12);
    // The stand-in is listed only where it is used.
    let mut unused = Scenario::bundled().unwrap();
    assert!(unused.choose_objective_values(false));
    assert!(!unused.stand_in_summary().contains("objective_balance"));
    assert!(balanced.stand_in_summary().contains("objective_balance"));
}

//! Tests of the turn engine: the digest §7 examples that concern what it plays (T3 recruitment
//! arithmetic, T9 fortification PV, T10 collection timing), the game's fights against the battle
//! code's exact answer, invariants over thousands of random games (resources and men change only
//! through the rules' sources and sinks, every unit in one place, every game ends), determinism
//! with 1 and 2 threads, bad input.

use super::battles::{self, Side};
use super::economy;
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, Scenario, CAB, CAM, COM, DEN, ELE, MAD, MET, PIE, POB};
use super::state::{Mission, State, KINDS, NO_UNITS, R};
use super::turn::Play;
use super::{Game, Kind};
use crate::dice::Dice;
use crate::game::{GameModel, GamePlay, GameRecord, GameSetup, NoLog, NoObserver};
use crate::options::Options;
use crate::rulesets::mediterraneo_sanguinolento::data::data;
use crate::rulesets::mediterraneo_sanguinolento::engine::Budget;
use crate::rulesets::mediterraneo_sanguinolento::field::{Context, FieldBattle};
use crate::spec::Fields;

pub(super) fn options() -> Options {
    Options::defaults(crate::rulesets::mediterraneo_sanguinolento::OPTIONS)
}

pub(super) fn options_with(text: &str) -> Options {
    let table: toml::Table = toml::from_str(text).unwrap();
    Options::resolve(
        crate::rulesets::mediterraneo_sanguinolento::OPTIONS,
        Fields::new("options", &table),
    )
    .unwrap()
}

pub(super) fn game_with(policy: Policy, options: &Options) -> Game {
    let scenario = Scenario::bundled().unwrap();
    let majors = scenario.majors.len();
    Game::new(
        scenario,
        options,
        vec!["test".into(); majors],
        vec![policy; majors],
    )
}

pub(super) fn scripted_game() -> Game {
    game_with(Policy::Scripted(Scripted::defaults()), &options())
}

fn unit(code: &str) -> u8 {
    data().units.iter().position(|u| u.code == code).unwrap() as u8
}

pub(super) fn country(g: &Game, name: &str) -> CountryId {
    g.scenario.country(name).unwrap()
}

#[test]
fn t3_recruitment_arithmetic_at_cirene() {
    // Digest T3: 3 IM, 3 CMM, 1 CRL, 1 E from 1,000 POB use 990 men (10 POB left), 300 camels,
    // 60 horses, 10 elephants; derived: 2,900 MET and 200 MAD.
    let order = [("IM", 3i64), ("CMM", 3), ("CRL", 1), ("E", 1)];
    let mut total = [0i64; R];
    for (code, n) in order {
        let k = Kind::new(unit(code), 2, true);
        for r in 0..R {
            total[r] += k.cost[r] * n;
        }
    }
    assert_eq!(total[POB], 990);
    assert_eq!(1000 - total[POB], 10);
    assert_eq!(total[CAM], 300);
    assert_eq!(total[CAB], 60);
    assert_eq!(total[ELE], 10);
    assert_eq!(total[MET], 2900);
    assert_eq!(total[MAD], 200);
    // The morale cost in DEN (digest §3.1.4, T13): regular C 300 a unit, regular B 600.
    assert_eq!(total[DEN], 8 * 300);
    assert_eq!(Kind::new(unit("IM"), 1, true).cost[DEN], 600);

    // Through the game's purchase: a country raising IM, CMM and CRL from 1,000 POB.
    let mut g = scripted_game();
    let c = country(&g, "Cirenaica");
    g.kinds[c as usize] = [
        Kind::new(unit("IM"), 2, true),
        Kind::new(unit("CMM"), 2, true),
        Kind::new(unit("CRL"), 2, true),
    ];
    g.nkinds[c as usize] = 3;
    let mut st = g.start.clone();
    st.nations[c as usize].stock = [0; R];
    st.nations[c as usize].stock[POB] = 1000;
    for r in [DEN, MET, MAD, CAM, CAB] {
        st.nations[c as usize].stock[r] = 100_000;
    }
    for (k, n) in [(0, 3), (1, 3), (2, 1)] {
        assert!(economy::affordable(&g, &st, c, k, 1000, 0) >= n);
        economy::buy(&g, &mut st, c, k, n);
    }
    assert_eq!(st.nations[c as usize].stock[POB], 1000 - 960);
    assert_eq!(st.nations[c as usize].training, [3.0, 3.0, 1.0]);
    assert_eq!(st.ledger.men_raised, 960.0);
    assert_eq!(st.nations[c as usize].stock[MET], 100_000 - 2800);
    // What the POB left cannot pay for is not bought.
    assert_eq!(economy::affordable(&g, &st, c, 0, 40, 0), 0);
}

#[test]
fn t9_walls_give_the_new_level_in_pv_and_take_as_many_months() {
    for (option, pv) in [("triangular", [1, 3, 6]), ("per-level", [1, 2, 3])] {
        let o = options_with(&format!("fortification_pv = \"{option}\""));
        let g = game_with(Policy::Scripted(Scripted::defaults()), &o);
        let c = country(&g, "Roma");
        let capital = g.capital[c as usize].unwrap() as usize;
        let mut st = g.start.clone();
        st.city_fort[capital] = 0;
        st.nations[c as usize].stock[DEN] = 10_000;
        st.nations[c as usize].stock[PIE] = 10_000;
        let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
        plans[c as usize].fortify = 3;
        plans[c as usize].reserve = 0;
        let besieged = [false; 256];
        let idr0 = st.nations[c as usize].idr;
        for level in 1..=3u8 {
            let den = st.nations[c as usize].stock[DEN];
            economy::constructions(&g, &mut st, &plans);
            assert_eq!(st.nations[c as usize].work, (level, level));
            assert_eq!(den - st.nations[c as usize].stock[DEN], 150 * level as i64);
            for _ in 1..level {
                economy::works_month(&g, &mut st, &besieged);
                assert_eq!(
                    st.city_fort[capital],
                    level - 1,
                    "level {level} takes {level} months"
                );
            }
            economy::works_month(&g, &mut st, &besieged);
            assert_eq!(st.city_fort[capital], level);
            assert_eq!(
                st.nations[c as usize].pv_by[super::pv::FORTIFICATION],
                pv[level as usize - 1]
            );
        }
        // Roma is civilized: +25 IDR a level (§4.19).
        assert_eq!(st.nations[c as usize].idr - idr0, 75);
        assert_eq!(10_000 - st.nations[c as usize].stock[PIE], 600);
    }
}

#[test]
fn t10_a_country_conquered_in_june_yields_in_august_at_10_percent_pob() {
    let g = scripted_game();
    let (roma, malta) = (country(&g, "Roma"), country(&g, "Malta"));
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    for (taken, yields_in_august) in [(6u32, true), (7, true), (8, false)] {
        let mut st = g.start.clone();
        st.lands[malta as usize].owner = roma;
        st.lands[malta as usize].taken_month = taken;
        st.nations[roma as usize].stock[POB] = 0;
        economy::collection(&g, &mut st, &plans, 8);
        let own = g.scenario.production[roma as usize][POB] as i64;
        let malta_pob = g.scenario.production[malta as usize][POB] as i64;
        let expected = own
            + if yields_in_august {
                malta_pob * 10 / 100
            } else {
                0
            };
        assert_eq!(
            st.nations[roma as usize].pob_collected, expected,
            "taken in month {taken}"
        );
        if yields_in_august {
            // The second collection brings 20%, the third 30%, then everything (L5273).
            st.nations[roma as usize].stock[POB] = 0;
            economy::collection(&g, &mut st, &plans, 12);
            assert_eq!(
                st.nations[roma as usize].pob_collected,
                own + malta_pob * 20 / 100
            );
        }
    }
    assert!(economy::collects(6, 8) && !economy::collects(8, 8) && economy::collects(0, 4));
    assert_eq!(
        [0, 1, 2, 3, 9].map(economy::conquered_pob_percent),
        [10, 20, 30, 100, 100]
    );
}

#[test]
fn the_harvest_adds_a_quarter_to_august_com() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let plans = vec![Scripted::referee(); g.scenario.countries.len()];
    let com = g.scenario.production[roma as usize][COM] as i64;
    for (month, expected) in [(4, com), (8, com * 5 / 4), (12, com)] {
        let mut st = g.start.clone();
        st.nations[roma as usize].stock[COM] = 0;
        economy::collection(&g, &mut st, &plans, month);
        assert_eq!(
            st.nations[roma as usize].stock[COM], expected,
            "month {month}"
        );
    }
}

/// The game's fights are the battle code's: P(attacker wins) of the game's field battle and of
/// the policy's odds match the calculator's exact answer for the same armies within 5 SE.
#[test]
fn game_fights_match_the_battle_codes_exact_answer() {
    let g = scripted_game();
    let (a, d) = (country(&g, "Celtiberia"), country(&g, "Cerdeña"));
    // One kind a side keeps the exact answer small (about ten seconds with the patient budget).
    let units = |n: f64| {
        let mut u = NO_UNITS;
        u[0] = n;
        u
    };
    let sides = [
        Side::new(a, units(5.0), super::leaders::Lead::UNNAMED),
        Side::new(d, units(4.0), super::leaders::Lead::UNNAMED),
    ];
    let armies = [
        battles::army(&g, &sides[0], true),
        battles::army(&g, &sides[1], false),
    ];
    let hex = &data().terrain[g.scenario.nodes[d as usize].terrain as usize].name_en;
    let ctx = Context {
        weather_rain: false,
        storm: false,
        winter: false,
        max_days: 30,
        resolution: crate::rulesets::mediterraneo_sanguinolento::field::DEFAULT_RESOLUTION,
    };
    let mut budget = Budget {
        states: 3_000_000,
        work: 400_000_000,
        used: 0,
        progress: None,
    };
    let exact = FieldBattle::new(armies, ctx, Some(hex), None, &g.options)
        .solve(&mut budget)
        .unwrap();
    let p = exact.outcomes[0];
    assert!(p > 0.05 && p < 0.95, "a contested battle: {p}");
    let n = 4000;
    let mut dice = Dice::for_trial(3, 0, 0);
    let wins = (0..n)
        .filter(|_| {
            battles::field_battle(
                &g,
                d,
                false,
                super::weather::Weather::Clear,
                sides,
                &mut dice,
            )
            .winner
                == Some(0)
        })
        .count() as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (wins / n as f64 - p).abs() < 5.0 * se,
        "field {} vs {p}",
        wins / n as f64
    );
    let odds = battles::odds(&g, d, None, false, sides, n, &mut dice);
    assert!((odds - p).abs() < 5.0 * se, "odds {odds} vs {p}");
}

/// Plays `games` games of `g` on the dice streams (seed, 0, i), checks the invariants after each
/// (failures labelled `label` and the game's index) and hands each finished game to `each`: the
/// loop of every whole-games test.
pub(super) fn play_checked(
    g: &Game,
    seed: u64,
    games: u64,
    label: &str,
    mut each: impl FnMut(u64, &Play, &GameRecord),
) {
    let mut play = Play::new(g);
    let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
    for i in 0..games {
        r.clear();
        play.play(
            &mut Dice::for_trial(seed, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        check_invariants(g, &play, &r, &format!("{label} game {i}"));
        each(i, &play, &r);
    }
}

pub(super) fn check_invariants(g: &Game, play: &Play, r: &GameRecord, what: &str) {
    let st = &play.st;
    let start = &g.start;
    assert!(
        r.turns >= 1 && r.turns <= g.turn_cap,
        "{what}: the game ended"
    );
    if r.ending == 0 {
        assert!(r.score.iter().any(|&s| s >= 400.0), "{what}");
    } else {
        assert_eq!(r.turns, g.turn_cap, "{what}");
    }
    let share: f64 = r.win_share.iter().sum();
    assert!((share - 1.0).abs() < 1e-9, "{what}: win shares {share}");
    // Resources: what is held now (in stock, on the caravans and with the armies) is what was held, plus what
    // was gained, minus what was spent.
    for res in 0..R {
        let held = |s: &State| {
            (0..s.nations.len() as CountryId)
                .map(|c| {
                    let food = if res == super::scenario::COM {
                        super::supply::carried(s, c)
                    } else {
                        0
                    };
                    s.nations[c as usize].stock[res] + super::trade::carried(s, c)[res] + food
                })
                .sum::<i64>()
        };
        assert_eq!(
            held(st) - held(start),
            st.ledger.gained[res] - st.ledger.spent[res],
            "{what}: resource {}",
            super::scenario::RESOURCES[res]
        );
        assert!(
            st.nations.iter().all(|n| n.stock[res] >= 0),
            "{what}: negative stock"
        );
    }
    // Ships: what is in port now is what was, plus those launched, minus those sunk.
    let ships = super::fleets::ships_afloat(st);
    let expected =
        super::fleets::ships_afloat(start) + st.ledger.ships_built - st.ledger.ships_lost;
    assert!(
        (ships - expected).abs() < 1e-6 * expected.max(1.0),
        "{what}: ships {ships} vs {expected}"
    );
    // Men: what stands now is what stood, plus the raised, minus the lost.
    let men = |s: &State| -> f64 {
        (0..s.nations.len() as CountryId)
            .map(|c| {
                State::men(&s.all_units(c), &g.men_per_unit(c))
                    + super::mercenaries::men(g, &s.nations[c as usize].mercs)
                    + s.lands[c as usize].militia * g.militia.kind.men
                    + super::republican_militia::men_of(g, s, c)
                    + super::supply::convoy_men(s, c)
            })
            .sum()
    };
    // Militia: raised at the call, lost in fights, disbanded home; the Republican militia's
    // men: there from the start, lost in fights, raised as they recover.
    let expected = men(start) + st.ledger.men_raised - st.ledger.men_lost - st.ledger.men_disbanded;
    assert!(
        (men(st) - expected).abs() < 1e-6 * expected.max(1.0),
        "{what}: men {} vs {expected}",
        men(st)
    );
    // Every unit in one place: non-negative stacks, a field army in a node, a siege where it stands.
    for (c, n) in st.nations.iter().enumerate() {
        // Mercenary bands: whole or worn, never negative, none empty but unused.
        for b in &n.mercs {
            assert!(
                b.units >= 0.0 && b.units.is_finite() && b.price >= 0,
                "{what}: {c}"
            );
            assert_eq!(
                b.source == super::mercenaries::Source::None,
                b.units == 0.0,
                "{what}: {c}"
            );
        }
        for stack in [&n.field, &n.garrison, &n.training] {
            assert!(
                stack.iter().all(|&u| u >= 0.0 && u.is_finite()),
                "{what}: {c}"
            );
        }
        assert!((n.at as usize) < st.lands.len(), "{what}");
        let land = &st.lands[c];
        assert!(
            land.garrison.iter().all(|&u| u >= 0.0 && u.is_finite()),
            "{what}: occupation of {c}"
        );
        if land.owner as usize == c {
            assert_eq!(
                land.garrison, NO_UNITS,
                "{what}: a home holds its nation's garrison"
            );
        }
        // A militia stands only in an invaded country, whole units or none; a conquered one's
        // after a collection there, within its share (L5273).
        if land.militia != 0.0 {
            assert!(
                land.militia >= super::militia::DESTROYED_BELOW && land.militia.is_finite(),
                "{what}: {c}'s militia {}",
                land.militia
            );
            if land.owner as usize != c {
                assert!(
                    land.collections > 0,
                    "{what}: {c}'s militia before a collection"
                );
            }
            assert!(
                super::military::invaded(st)[c],
                "{what}: {c}'s militia outlives its invasion"
            );
        }
        if let Mission::Siege { target, .. } | Mission::Pillage { target } = n.mission {
            assert_eq!(
                n.at, target,
                "{what}: a siege or a raid where the army stands"
            );
        }
        // An army crossing by sea is in its home port or at its target.
        if let (true, Mission::March { target }) = (n.by_sea, n.mission) {
            assert!(n.at as usize == c || n.at == target, "{what}: {c} at sea");
        }
        // Fleets: whole ships of every kind; only the majors buy, so the referee's countries never
        // have more than at the start and what they captured (repairs.rs).
        for fleets in [n.fleets, n.transports, n.pirates] {
            let ships = fleets * 10.0;
            assert!(
                ships >= 0.0 && (ships - ships.round()).abs() < 1e-6,
                "{what}: {c} has {ships} ships"
            );
        }
        for ships in n.docks.damaged.iter().chain(&n.docks.uncrewed) {
            assert!(
                *ships >= 0.0 && (ships - ships.round()).abs() < 1e-9,
                "{what}: {c} docks {:?}",
                n.docks
            );
        }
        if !g.majors.contains(&(c as CountryId)) {
            let ships = (n.fleets + n.transports) * 10.0 + n.docks.ships();
            assert!(
                ships <= start.nations[c].fleets * 10.0 + n.docks.taken + 1e-6 && n.pirates == 0.0,
                "{what}: {c} fleets"
            );
        }
        // Leaders: one to four living named leaders, one king among them, values 0-5.
        let living = n.leaders.iter().filter(|l| l.alive);
        assert!((1..=4).contains(&living.clone().count()), "{what}: {c}");
        assert_eq!(living.clone().filter(|l| l.king).count(), 1, "{what}");
        assert!(living
            .clone()
            .all(|l| l.tactical <= 5 && l.strategic <= 5 && (l.able(st.month) || !l.in_field)));
        // Treaties: at most 15 a major (L522).
        let p = g.major_index[c];
        if p != u8::MAX {
            assert!(super::diplomacy::treaties(st, p as usize) <= super::diplomacy::MAX_TREATIES);
        }
        let pv: i32 = n.pv_by.iter().sum();
        assert_eq!(pv, n.pv, "{what}: PV by source add up");
        for k in 0..KINDS {
            if k >= g.nkinds[c] as usize {
                assert_eq!(n.field[k] + n.garrison[k] + n.training[k], 0.0, "{what}");
            }
        }
    }
}

#[test]
fn invariants_hold_over_thousands_of_random_and_scripted_games() {
    for (policy, games) in [
        (Policy::Random, 2000u64),
        (Policy::Scripted(Scripted::defaults()), 300),
    ] {
        let g = game_with(policy, &options());
        let mut fought = 0;
        play_checked(&g, 11, games, &format!("{policy:?}"), |_, play, _| {
            fought += play.st.counts.battles + play.st.counts.assaults;
        });
        assert!(fought > 0, "{policy:?}: some fights happen");
    }
}

fn build(text: &str) -> crate::error::Result<Box<dyn GameModel>> {
    let table: toml::Table = toml::from_str(text).unwrap();
    let setup = GameSetup {
        source: "exp.toml",
        fields: Fields::new("exp.toml", &table),
        options: options(),
    };
    super::build(&setup)
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_code_2() {
    for (text, field, hint) in [
        ("[policies]\nromaa = \"random\"", "policies.romaa", "roma"),
        (
            "[policies]\nroma = { policy = \"scripted\", attack = 2 }",
            "roma.attack",
            "0 to 1",
        ),
        (
            "[policies]\nroma = \"agressive\"",
            "policies.roma",
            "scripted",
        ),
        ("scenario = \"nowhere\"", "scenario", "folder"),
        ("turns = 3", "turns", "scenario"),
    ] {
        let e = build(text).err().expect(text);
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2, "{msg}");
        assert!(!msg.trim().contains('\n'), "one line: {msg}");
        assert!(msg.contains(field) && msg.contains(hint), "{text}: {msg}");
    }
    let ok = build("[policies]\nesparta = { policy = \"scripted\", attack = 0.9 }").unwrap();
    assert!(ok
        .player_policies()
        .iter()
        .any(|l| l == "scripted(attack=0.9)"));
}

#[test]
fn every_run_says_its_winners_rest_on_placeholders_and_what_is_not_played() {
    let lines = scripted_game().describe();
    assert!(lines
        .iter()
        .any(|l| l.starts_with("WINNERS REST ON PLACEHOLDERS") && l.contains("production")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("  mercenaries (§4.5.9)")));
    assert!(lines
        .iter()
        .any(|l| l.contains("not played: pirates hired as mercenaries at sea")));
    assert!(lines
        .iter()
        .any(|l| l.contains("spreading the word (§4.5.9 method 2")));
    assert!(lines.iter().any(|l| l.contains("events (§4.14")));
    assert!(lines.iter().any(|l| l.contains("weather (§4.15")));
    assert!(lines
        .iter()
        .any(|l| l.contains("placeholder") && l.contains("[start]")));
}

#[test]
fn the_experiment_does_not_depend_on_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let mut summaries = Vec::new();
    for threads in [1, 2] {
        let result = crate::game::tests::run_shipped(
            "experiments/mediterraneo-majors.toml",
            100,
            threads,
            &tmp.path().join(format!("t{threads}")),
        );
        assert_eq!(result.games, 100);
        summaries.push(std::fs::read_to_string(result.dir.join("summary.csv")).unwrap());
    }
    assert_eq!(summaries[0], summaries[1]);
    assert!(summaries[0].contains("Babilonia") && summaries[0].contains("scripted"));
}

/// Each `(options text, field, allowed)` is refused with a one-line error naming the field and
/// an allowed value, exit code 2.
pub fn assert_bad_options(cases: &[(&str, &str, &str)]) {
    for &(text, field, allowed) in cases {
        let table: toml::Table = toml::from_str(text).unwrap();
        let err = match crate::options::Options::resolve(
            crate::rulesets::mediterraneo_sanguinolento::OPTIONS,
            crate::spec::Fields::new("options", &table),
        ) {
            Ok(_) => panic!("{text}: accepted"),
            Err(e) => e,
        };
        let msg = err.to_string();
        assert_eq!(err.exit_code(), 2, "{msg}");
        assert_eq!(msg.lines().count(), 1, "{msg}");
        assert!(msg.contains(field) && msg.contains(allowed), "{msg}");
    }
}

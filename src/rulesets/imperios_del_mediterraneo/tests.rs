//! Imperios del Mediterráneo: the digest's §7 combat tests and exact-vs-simulation agreement.

use super::assault::{defence_dice, Assault};
use super::battle::{Battle, Kind};
use super::cards::{Card, Cv};
use super::forces::{CardForce, Force};
use super::strait::{Strait, Weather};
use super::{OPTIONS, SIDES};
use crate::battle::{agreement, assert_agrees};
use crate::battle::{side_column, LOSSES};
use crate::battle::{BattleModel, McRun};
use crate::options::Options;
use crate::progress::Progress;
use crate::rulesets::load_battle;

fn options() -> Options {
    Options::defaults(OPTIONS)
}

fn troop(field: u32, naval: Cv, assault: Cv) -> Card {
    Card {
        name: String::new(),
        field: Cv::Fixed(field),
        naval,
        assault,
    }
}

fn troops(fields: &[u32]) -> Force {
    Force::Cards(CardForce {
        troops: fields
            .iter()
            .map(|&f| troop(f, Cv::Dash, Cv::Fixed(f)))
            .collect(),
        fleets: Vec::new(),
        aboard: vec![None; fields.len()],
        leaders: Vec::new(),
        extra_dice: 0,
        modifier: 0,
    })
}

fn load(text: &str) -> Box<dyn BattleModel> {
    load_battle("test.toml", &text.parse().expect("test battle parses"))
        .expect("test battle loads")
        .model
}

fn scalar(b: &dyn BattleModel, ex: &crate::battle::Exact, name: &str) -> f64 {
    ex.scalars[b.schema().scalar_index(name).expect(name)]
}

/// Digest T-21, T-22: city defence dice.
#[test]
fn t21_t22_defence_dice() {
    assert_eq!(defence_dice(3, 2, true), 6);
    assert_eq!(defence_dice(3, 2, false), 5);
    assert_eq!(defence_dice(2, 1, false), 3);
}

/// Digest T-23: a barbarian area printed 3, Enraged 2 rolls 5 dice and no base die.
#[test]
fn t23_barbarian_dice() {
    let b = load("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"pacify\"\n[attacker]\ntroops = [{ field = 4 }]\n[defender]\nstrength = 3\nenraged = 2");
    assert!(
        b.notes().iter().any(|n| n.contains("defender 0 + 5d6")),
        "{:?}",
        b.notes()
    );
}

/// Digest T-24: a non-card force loses a die, or 6 points, per card.
#[test]
fn t24_non_card_losses() {
    let fixed = |f: i32| Force::NonPlayer { fixed: f, dice: 0 };
    assert_eq!(fixed(9).lose_card(), Some(fixed(3)));
    assert_eq!(fixed(6).lose_card(), None);
    assert_eq!(
        Force::NonPlayer { fixed: 0, dice: 3 }.lose_card(),
        Some(Force::NonPlayer { fixed: 0, dice: 2 })
    );
}

/// Digest T-30, T-31, T-32, T-33, T-50, T-51, T-52.
#[test]
fn battle_bookkeeping_tests() {
    let o = options();
    // T-51: 7 + 1d6 against 5 + 1d6, the defender fielded 3 troops.
    let b = Battle::new(Kind::Field, troops(&[4, 3]), troops(&[2, 2, 1]), &o);
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[0] - 13.0 / 18.0).abs() < 1e-12);
    assert!((scalar(&b, &ex, &side_column(SIDES[0], "casualty")) - 13.0 / 36.0).abs() < 1e-12);
    // T-50: the casualty chance by the defender's card count.
    for (n, chance) in [(1, 1.0 / 6.0), (4, 2.0 / 3.0), (6, 1.0), (8, 1.0)] {
        let d = troops(&vec![0; n]);
        let b = Battle::new(Kind::Field, troops(&[30]), d, &o);
        let ex = b.exact().unwrap();
        assert!((ex.outcomes[0] - 1.0).abs() < 1e-12);
        assert!(
            (scalar(&b, &ex, &side_column(SIDES[0], "casualty")) - chance).abs() < 1e-12,
            "n = {n}"
        );
    }
    // T-52: four discarded cards bring back 4/6 on average.
    let b = Battle::new(Kind::Field, troops(&[0, 0, 0, 0]), troops(&[40]), &o);
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[1] - 1.0).abs() < 1e-12);
    assert!((scalar(&b, &ex, &side_column(SIDES[0], "cards_recovered")) - 2.0 / 3.0).abs() < 1e-12);
    assert!((scalar(&b, &ex, &side_column(SIDES[0], "vp")) + 2.0).abs() < 1e-12);
    assert!((scalar(&b, &ex, &side_column(SIDES[1], "vp")) - 2.0).abs() < 1e-12);
    // T-32: equal totals go to the defender.
    let b = Battle::new(Kind::Field, troops(&[5]), troops(&[5]), &o);
    assert!((b.exact().unwrap().outcomes[0] - 15.0 / 36.0).abs() < 1e-12);
    // T-30: losing to a barbarian area costs 2 VP.
    let b = Battle::new(
        Kind::Pacify,
        troops(&[0]),
        Force::Barbarian { dice: 20 },
        &o,
    );
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[1] - 1.0).abs() < 1e-12);
    assert!((scalar(&b, &ex, &side_column(SIDES[0], "vp")) + 2.0).abs() < 1e-12);
    // T-31: a horde that beats the interceptor costs the player 2 VP, nobody gains.
    let b = Battle::new(Kind::Field, Force::Barbarian { dice: 30 }, troops(&[1]), &o);
    let ex = b.exact().unwrap();
    assert!(ex.outcomes[0] > 0.999);
    assert!(
        (scalar(&b, &ex, &side_column(SIDES[1], "vp")) + 2.0 * ex.outcomes[0]
            - 2.0 * ex.outcomes[1])
            .abs()
            < 1e-9
    );
    assert_eq!(scalar(&b, &ex, &side_column(SIDES[0], "vp")), 0.0);
    // T-33: neither side has a fleet left: the defender wins without a roll.
    let b = Battle::new(Kind::Naval, troops(&[9]), troops(&[1]), &o);
    assert_eq!(b.exact().unwrap().outcomes[1], 1.0);
}

/// Naval: a lost fleet takes its cargo; the cargo risk per card.
#[test]
fn a_sunk_fleet_takes_its_cargo() {
    let b = load(
        "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"naval\"\n[attacker]\nfleets = [{ naval = 2, assault = 1 }, { naval = 3, assault = 1 }]\ntroops = [{ assault = 3 }, { assault = 3 }, { assault = 2 }]\naboard = [1, 1, 2]\n[defender]\nfleets = [{ naval = 4 }, { naval = 0 }]",
    );
    let ex = b.exact().unwrap();
    // 5 + 1d6 against 4 + 1d6 (the second defending fleet has naval value 0): 7/12 (T-61).
    assert!((ex.outcomes[0] - 7.0 / 12.0).abs() < 1e-12);
    // Two defending cards: a loss on 1d6 <= 2, one of five cards; fleet 1 takes 3 cards.
    let each = 7.0 / 12.0 * 2.0 / 6.0 / 5.0;
    let p3 = ex.counts[b
        .schema()
        .count_index(&side_column(SIDES[0], LOSSES))
        .unwrap()]
    .get(3);
    assert!((p3 - each).abs() < 1e-12, "{p3}");
    let fleet1 = scalar(b.as_ref(), &ex, "card_lost/fleet 1");
    assert!((fleet1 - each).abs() < 1e-12);
}

/// Exact and Monte Carlo agree within 5 standard errors over 120 battles of every kind.
#[test]
fn exact_and_monte_carlo_agree_over_a_grid() {
    let progress = Progress::hidden();
    let mut cases = 0;
    for i in 0..120u64 {
        let a = (i % 5) as u32;
        let d = ((i / 5) % 4) as u32;
        let text = match i % 5 {
            0 => format!(
                "battle = \"field\"\n[attacker]\ntroops = [{{ field = {} }}, {{ field = \"1d\" }}]\nleaders = [{}]\n[defender]\ntroops = [{{ field = {} }}, {{ field = 1 }}, {{ field = 2 }}]",
                3 + a,
                d % 3,
                2 + d
            ),
            1 => format!(
                "battle = \"naval\"\n[attacker]\nfleets = [{{ naval = 2 }}, {{ naval = \"1d\" }}]\ntroops = [{{ naval = {a} }}, {{ naval = 1 }}]\n[defender]\nfleets = [{{ naval = {} }}]\ntroops = [{{ naval = 1 }}]\nextra_dice = {}",
                2 + d,
                d % 2
            ),
            2 => format!(
                "battle = \"assault\"\n[attacker]\ntroops = [{{ assault = {} }}, {{ assault = \"2d\" }}]\nleaders = [{}]\n[city]\nsize = {}\nmarkers = {}\ncapital = {}",
                2 + 2 * a,
                a % 2,
                1 + d,
                d % 3,
                i % 2 == 0
            ),
            3 => format!(
                "battle = \"pacify\"\n[attacker]\ntroops = [{{ field = {} }}, {{ field = 2 }}]\n[defender]\nstrength = {}\nenraged = {}",
                2 + a,
                1 + d,
                a % 4
            ),
            _ => format!(
                "battle = \"strait\"\nstraits = {}\nweather = \"{}\"\ncards = {}",
                1 + d,
                ["normal", "bad", "good", "bad", "normal"][a as usize],
                1 + a
            ),
        };
        let b = load(&format!("ruleset = \"imperios-del-mediterraneo\"\n{text}"));
        let exact = b.exact().unwrap();
        let total: f64 = exact.outcomes.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "case {i}: mass {total}");
        let run = McRun {
            trials: 40_000,
            seed: 17,
            stream: i,
            progress: &progress,
        };
        if let Err(why) = agreement(b.schema(), &exact, &b.monte_carlo(&run), 5.0) {
            panic!("case {i}: {why}\n{text}");
        }
        cases += 1;
    }
    assert!(cases >= 100);
}

/// Bad input names the file, the field and what is allowed.
#[test]
fn bad_input_names_the_field() {
    for (text, field) in [
        ("battle = \"field\"\n[attacker]\ntroops = [{ field = \"x\" }]", "attacker.troops[0].field"),
        ("battle = \"field\"\n[attacker]\ntroops = [\"Nadie\"]", "attacker.troops[0]"),
        ("battle = \"naval\"\n[attacker]\nfleets = [{ naval = 1 }]\ntroops = [{ naval = 1 }, { naval = 1 }]", "attacker.troops"),
        ("battle = \"assault\"\n[attacker]\ntroops = [{ assault = 1 }]\n[city]\nsize = 9", "city.size"),
        ("battle = \"naval\"\n[attacker]\nforce = \"barbarian\"", "attacker.force"),
    ] {
        let t: toml::Table = format!("ruleset = \"imperios-del-mediterraneo\"\n{text}")
            .parse()
            .unwrap();
        let e = load_battle("bad.toml", &t).err().expect(field);
        assert_eq!(e.exit_code(), 2);
        let msg = e.to_string();
        assert!(msg.contains(field) && msg.contains("bad.toml"), "{field}: {msg}");
    }
}

/// Example cards from the scenario deck load by name.
#[test]
fn example_cards_load_by_name() {
    let b = load("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"field\"\n[attacker]\ntroops = [\"Hoplitas\", \"Caballería númida\"]\nleaders = [\"Estratega\"]\n[defender]\ntroops = [\"Falange\"]");
    // Hoplitas 3 + Caballería 2d + Estratega 1d + base: 3 + 4d6 against 4 + 1d6.
    assert!(
        b.notes()
            .iter()
            .any(|n| n.contains("attacker 3 + 4d6, defender 4 + 1d6")),
        "{:?}",
        b.notes()
    );
    let _ = Assault::new(troops(&[1]), false, 1, 1, 0, 0, true);
    let _ = Strait::new(1, Weather::Normal, 2, 2);
}

const T60: &str = "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nstraits = 1\n[attacker]\ntroops = [{ assault = 3 }, { assault = 3 }, { assault = 2 }]\n[target]\nsize = 2\nmarkers = 1\nowner = \"neutral\"";

const T61: &str = "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\n[attacker]\nfleets = [{ naval = 2, assault = 1 }, { naval = 3, assault = 1 }]\ntroops = [{ assault = 3 }, { assault = 3 }, { assault = 2 }]\naboard = [1, 1, 2]\n[naval_interception]\nfleets = [{ naval = 4 }, { naval = 0 }]\n[target]\nsize = 3\nmarkers = 1";

/// Digest T-60 and T-61: the chained expeditions, exactly.
#[test]
fn t60_t61_chained_expeditions() {
    let b = load(T60);
    let ex = b.exact().unwrap();
    assert!(
        (ex.outcomes[0] - 453965.0 / 839808.0).abs() < 1e-12,
        "{}",
        ex.outcomes[0]
    );
    assert!((scalar(b.as_ref(), &ex, "wrecked_at_a_strait") - 1.0 / 216.0).abs() < 1e-12);
    // A neutral city: the conqueror gains its size (2), nobody loses.
    assert!(
        (scalar(b.as_ref(), &ex, &side_column(SIDES[0], "vp")) - 2.0 * ex.outcomes[0]).abs()
            < 1e-12
    );
    let b = load(T61);
    let ex = b.exact().unwrap();
    assert!(
        (ex.outcomes[0] - 42553.0 / 233280.0).abs() < 1e-12,
        "{}",
        ex.outcomes[0]
    );
    assert!((scalar(b.as_ref(), &ex, "lost_at_sea") - 5.0 / 12.0).abs() < 1e-12);
    // VP: +2 / -2 for the naval battle, then +3 / -3 for the conquest.
    let vp = 2.0 * (7.0 / 12.0) - 2.0 * (5.0 / 12.0) + 3.0 * ex.outcomes[0];
    assert!((scalar(b.as_ref(), &ex, &side_column(SIDES[0], "vp")) - vp).abs() < 1e-12);
}

/// Digest T-25 (direct assault allowed when the fleets' assault factors reach the size) and T-28
/// (a won interception, then a lost assault: +2 / -2 and no recovery for the assault).
#[test]
fn t25_t28_arrival_and_books() {
    let direct = |fleet_assault: [u32; 2]| {
        load(&format!(
            "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\n[attacker]\nfleets = [{{ naval = 2, assault = {} }}, {{ naval = 2, assault = {} }}]\ntroops = [{{ field = 5, assault = 2 }}]\n[land_interception]\ntroops = [{{ field = 30 }}]\n[target]\nsize = 3",
            fleet_assault[0], fleet_assault[1]
        ))
        .exact()
        .unwrap()
    };
    // 2 + 1 = 3 >= 3: straight from the ships, the land interceptor never fights.
    let ex = direct([2, 1]);
    assert!(ex.outcomes[0] > 0.0);
    // 2 + 0 < 3: a landing, where the overwhelming land interception wins.
    let ex = direct([2, 0]);
    assert!(ex.outcomes[0] < 1e-9);
    // T-28: win the field interception for sure, then lose the assault for sure.
    let b = load("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\n[attacker]\ntroops = [{ field = 30, assault = 0 }, { field = 30, assault = 0 }]\n[land_interception]\ntroops = [{ field = 0 }]\n[target]\nsize = 4\nmarkers = 10\nmodifier = 50");
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[1] - 1.0).abs() < 1e-12);
    assert!((scalar(b.as_ref(), &ex, &side_column(SIDES[0], "vp")) - 2.0).abs() < 1e-12);
    assert!((scalar(b.as_ref(), &ex, &side_column(SIDES[1], "vp")) + 2.0).abs() < 1e-12);
    // Only the battle's casualty (1/6 x one card half the time) can come back, not the assault's.
    let lost = 1.0 / 6.0;
    assert!(
        (scalar(b.as_ref(), &ex, &side_column(SIDES[0], "cards_recovered")) - lost / 6.0).abs()
            < 1e-12
    );
}

/// Exact and Monte Carlo agree on 24 expeditions (straits, weather, interceptions, arrivals).
#[test]
fn expeditions_agree_with_simulation() {
    let progress = Progress::hidden();
    for i in 0..24u64 {
        let weather = ["normal", "bad", "good"][(i % 3) as usize];
        let text = if i % 2 == 0 {
            format!(
                "route = \"naval\"\nstraits = {}\nweather = \"{weather}\"\narrival = \"{}\"\n[attacker]\nfleets = [{{ naval = 2, assault = 1 }}, {{ naval = \"2d\", assault = 1 }}]\ntroops = [{{ field = 3, naval = 1, assault = 3 }}, {{ field = 2, assault = 2 }}, {{ field = 2, assault = \"1d\" }}]\nleaders = [{}]\n[naval_interception]\nfleets = [{{ naval = {} }}]\n[land_interception]\ntroops = [{{ field = {} }}, {{ field = 1 }}]\n[target]\nsize = {}\nmarkers = 1",
                i % 3,
                if i % 4 == 0 { "direct" } else { "landing" },
                i % 2,
                2 + i % 4,
                1 + i % 5,
                1 + i % 4
            )
        } else {
            format!(
                "straits = {}\nweather = \"{weather}\"\n[attacker]\ntroops = [{{ field = 3, assault = 2 }}, {{ field = \"1d\", assault = 3 }}]\n[target]\nkind = \"barbarian\"\nstrength = {}\nenraged = {}",
                i % 4,
                1 + i % 3,
                i % 4
            )
        };
        let b = load(&format!(
            "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\n{text}"
        ));
        let exact = b.exact().unwrap();
        let total: f64 = exact.outcomes.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "case {i}: mass {total}");
        let run = McRun {
            trials: 40_000,
            seed: 23,
            stream: i,
            progress: &progress,
        };
        if let Err(why) = agreement(b.schema(), &exact, &b.monte_carlo(&run), 5.0) {
            panic!("case {i}: {why}\n{text}");
        }
    }
}

/// Digest T-27, T-31, T-47, T-48: raids by non-player forces.
#[test]
fn raids_by_hordes_neutrals_and_pirates() {
    let raid = |text: &str| {
        load(&format!(
            "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"raid\"\n{text}"
        ))
    };
    // T-47: a horde of 4 dice against 3 defence dice.
    let b = raid("raider = \"horde\"\nstrength = 4\n[city]\nsize = 2\nmarkers = 1");
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[0] - 23105.0 / 31104.0).abs() < 1e-12);
    // T-27: the city falls to pirates: its owner loses its size, nobody gains.
    assert!(
        (scalar(b.as_ref(), &ex, &side_column(SIDES[1], "vp")) + 2.0 * ex.outcomes[0]).abs()
            < 1e-12
    );
    // T-48: pirates Dice(2) + base die against 3 defence dice.
    let b = raid("raider = \"pirates\"\nfixed = 0\ndice = 2\n[city]\nsize = 2\nmarkers = 1");
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[0] - 3527.0 / 7776.0).abs() < 1e-12);
    assert_eq!(scalar(b.as_ref(), &ex, &side_column(SIDES[0], "vp")), 0.0);
    // T-31: a horde of 3 dice against an interceptor with 5 + 1d6 wins 287/432; the owner then
    // loses 2 VP, and the horde may lose a die (1d6 <= 1 troop) before assaulting.
    let b = raid("raider = \"horde\"\nstrength = 3\n[land_interception]\ntroops = [{ field = 5 }]\n[city]\nsize = 1");
    let ex = b.exact().unwrap();
    let stopped = scalar(b.as_ref(), &ex, "stopped_before_the_city");
    assert!((stopped - (1.0 - 287.0 / 432.0)).abs() < 1e-12);
    let win = 287.0 / 432.0;
    let vp_battle = 2.0 * (1.0 - win) - 2.0 * win;
    let vp = scalar(b.as_ref(), &ex, &side_column(SIDES[1], "vp"));
    assert!((vp - (vp_battle - ex.outcomes[0])).abs() < 1e-12, "{vp}");
    // Pirates cannot be intercepted unless the option says so.
    let t: toml::Table = "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"raid\"\nraider = \"pirates\"\n[land_interception]\ntroops = [{ field = 1 }]\n[city]\nsize = 1".parse().unwrap();
    assert!(load_battle("t.toml", &t).is_err());
    // Agreement with simulation over a few raids.
    for (i, text) in [
        "raider = \"neutral\"\nfixed = 6\ndice = 1\nstraits = 2\nweather = \"bad\"\n[land_interception]\ntroops = [{ field = 3 }, { field = 2 }]\n[city]\nsize = 2\nmarkers = 1",
        "raider = \"horde\"\nstrength = 3\nenraged = 1\n[land_interception]\ntroops = [{ field = 4 }]\n[city]\nsize = 3",
        "raider = \"pirates\"\nfixed = 3\ndice = 1\n[city]\nsize = 2\ncapital = true",
        "raider = \"neutral\"\nfixed = 9\nstraits = 3\n[city]\nsize = 1",
    ]
    .iter()
    .enumerate()
    {
        let b = raid(text);
        assert_agrees(&*b, 60_000, 29, i as u64, &format!("raid {i}\n{text}"));
    }
}

/// Digest T-26 (a conquest: +size to the conqueror, -size to the owner), T-35 (no fleets on a land
/// route) and T-36 (troops beyond the fleets' capacity; leaders do not count).
#[test]
fn t26_t35_t36_conquest_and_legality() {
    let b = load("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"assault\"\n[attacker]\ntroops = [{ assault = 40 }]\n[city]\nsize = 3\nmarkers = 2");
    let ex = b.exact().unwrap();
    assert!((ex.outcomes[0] - 1.0).abs() < 1e-12);
    assert!((scalar(b.as_ref(), &ex, &side_column(SIDES[0], "vp")) - 3.0).abs() < 1e-12);
    assert!((scalar(b.as_ref(), &ex, &side_column(SIDES[1], "vp")) + 3.0).abs() < 1e-12);
    let bad = |text: &str, field: &str| {
        let t: toml::Table = format!("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\n{text}\n[target]\nsize = 2")
            .parse()
            .unwrap();
        let e = load_battle("em.toml", &t).err().expect(field);
        assert!(e.to_string().contains(field), "{field}: {e}");
    };
    bad(
        "[attacker]\ntroops = [{ assault = 1 }]\nfleets = [{ naval = 2 }]",
        "attacker.fleets",
    );
    bad(
        "route = \"naval\"\n[attacker]\nfleets = [{ naval = 2 }, { naval = 1 }]\ntroops = [{ assault = 1 }, { assault = 1 }, { assault = 1 }, { assault = 1 }]\nleaders = [1, 1]",
        "attacker.troops",
    );
}

/// P(fa + the sum of `na` d6 > fd + the sum of `nd` d6) by counting every roll of the dice: an
/// oracle of its own (no code of the calculator).
fn beats(fa: i32, na: u32, fd: i32, nd: u32) -> f64 {
    let n = na + nd;
    let (mut wins, mut all) = (0u64, 0u64);
    for code in 0..6u64.pow(n) {
        let (mut x, mut a, mut d) = (code, fa, fd);
        for k in 0..n {
            let face = (x % 6) as i32 + 1;
            x /= 6;
            if k < na {
                a += face;
            } else {
                d += face;
            }
        }
        wins += (a > d) as u64;
        all += 1;
    }
    wins as f64 / all as f64
}

/// Digest T-61 again, counted by hand through [`beats`] (which validates the counting oracle
/// the next tests use): 7/12 at sea, then each casualty branch's assault.
#[test]
fn t61_counted_by_hand() {
    let sea = beats(5, 1, 4, 1);
    assert!((sea - 7.0 / 12.0).abs() < 1e-12);
    let assault = |fc: i32| beats(fc, 1, 0, 4);
    let lose_one = (assault(3) + 3.0 * assault(7) + assault(8)) / 5.0;
    let p = sea * (4.0 / 6.0 * assault(10) + 2.0 / 6.0 * lose_one);
    assert!((p - 42553.0 / 233280.0).abs() < 1e-12, "{p}");
}

/// The land interception at the departure port, before the naval battle (§3.3, L735-L751),
/// against the count by hand: fleet F (naval 2, capacity 2, assault 1) carries T1 (field 3,
/// assault 3) and T2 (field 2, assault 2); the land interceptor has one troop (field 2), the
/// naval one a fleet (naval 3); the target is a size-3 port with one marker (4 dice). The fleet's
/// assault 1 < 3: a landing, and the fleet joins the assault.
#[test]
fn land_interception_before_the_sea_counted() {
    let text = |at: &str| {
        format!("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\nland_interception_at = \"{at}\"\n[attacker]\nfleets = [{{ naval = 2, assault = 1 }}]\ntroops = [{{ field = 3, assault = 3 }}, {{ field = 2, assault = 2 }}]\n[naval_interception]\nfleets = [{{ naval = 3 }}]\n[land_interception]\ntroops = [{{ field = 2 }}]\n[target]\nsize = 3\nmarkers = 1")
    };
    let assault = |troops: &[i32]| -> f64 {
        if troops.is_empty() {
            0.0 // no troop left, the expedition ends
        } else {
            beats(1 + troops.iter().sum::<i32>(), 1, 0, 4)
        }
    };
    // At sea: 2 + 1d6 against 3 + 1d6; a casualty on a 1 (one defending card): the fleet (with
    // its cargo: the end) or one of the troops, uniformly.
    let at_sea = |troops: &[i32]| -> f64 {
        let n = troops.len() as f64 + 1.0;
        let mut lose_one = 0.0;
        for i in 0..troops.len() {
            let rest: Vec<i32> = (0..troops.len())
                .filter(|&j| j != i)
                .map(|j| troops[j])
                .collect();
            lose_one += assault(&rest) / n;
        }
        beats(2, 1, 3, 1) * (5.0 / 6.0 * assault(troops) + 1.0 / 6.0 * lose_one)
    };
    // On land first: 5 + 1d6 against 2 + 1d6, a casualty on a 1: T1 or T2.
    let land = beats(5, 1, 2, 1);
    let first =
        land * (5.0 / 6.0 * at_sea(&[3, 2]) + 1.0 / 6.0 * (at_sea(&[2]) + at_sea(&[3])) / 2.0);
    let ex = load(&text("departure")).exact().unwrap();
    assert!(
        (ex.outcomes[0] - first).abs() < 1e-12,
        "{} {first}",
        ex.outcomes[0]
    );
    // At the landing instead: the naval battle first, then the field battle.
    let on_land = |troops: &[i32]| -> f64 {
        let field: i32 = troops.iter().sum();
        let mut lose_one = 0.0;
        for i in 0..troops.len() {
            let rest: Vec<i32> = (0..troops.len())
                .filter(|&j| j != i)
                .map(|j| troops[j])
                .collect();
            lose_one += assault(&rest) / troops.len() as f64;
        }
        beats(field, 1, 2, 1) * (5.0 / 6.0 * assault(troops) + 1.0 / 6.0 * lose_one)
    };
    // Field values equal assault values here (3 and 2), so one list serves both.
    let sea_then_land = beats(2, 1, 3, 1)
        * (5.0 / 6.0 * on_land(&[3, 2]) + 1.0 / 6.0 * (on_land(&[2]) + on_land(&[3])) / 3.0);
    let ex = load(&text("arrival")).exact().unwrap();
    assert!(
        (ex.outcomes[0] - sea_then_land).abs() < 1e-12,
        "{} {sea_then_land}",
        ex.outcomes[0]
    );
    assert!(
        (first - sea_then_land).abs() > 1e-4,
        "the two places differ"
    );
}

/// A land leg after the naval one (§3.1 combined route): no direct assault even where the
/// fleets' assault factors reach the size, the land interceptor fights after the landing, and
/// the fleets stay out of the assault; against the count by hand. Fleet F (naval 2, assault 3)
/// carries T1 (field 3, assault 2) and T2 (field 1, assault 1); a naval interceptor (fleet naval
/// 2), a land one (troop field 2); the target a size-2 city with one marker (3 dice).
#[test]
fn a_march_after_the_sea_counted() {
    let text = |arrival: &str| {
        format!("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\narrival = \"{arrival}\"\n[attacker]\nfleets = [{{ naval = 2, assault = 3 }}]\ntroops = [{{ field = 3, assault = 2 }}, {{ field = 1, assault = 1 }}]\n[naval_interception]\nfleets = [{{ naval = 2 }}]\n[land_interception]\ntroops = [{{ field = 2 }}]\n[target]\nsize = 2\nmarkers = 1")
    };
    // Troops as (field, assault).
    let assault = |troops: &[(i32, i32)], fleet: i32| -> f64 {
        if troops.is_empty() {
            0.0
        } else {
            beats(fleet + troops.iter().map(|t| t.1).sum::<i32>(), 1, 0, 3)
        }
    };
    let without = |troops: &[(i32, i32)], i: usize| -> Vec<(i32, i32)> {
        (0..troops.len())
            .filter(|&j| j != i)
            .map(|j| troops[j])
            .collect()
    };
    let on_land = |troops: &[(i32, i32)]| -> f64 {
        let field: i32 = troops.iter().map(|t| t.0).sum();
        let lose_one: f64 = (0..troops.len())
            .map(|i| assault(&without(troops, i), 0) / troops.len() as f64)
            .sum();
        beats(field, 1, 2, 1) * (5.0 / 6.0 * assault(troops, 0) + 1.0 / 6.0 * lose_one)
    };
    let both = [(3, 2), (1, 1)];
    let at_sea_lose_one = (0.0 + on_land(&without(&both, 0)) + on_land(&without(&both, 1))) / 3.0;
    let march = beats(2, 1, 2, 1) * (5.0 / 6.0 * on_land(&both) + 1.0 / 6.0 * at_sea_lose_one);
    let b = load(&text("march"));
    let ex = b.exact().unwrap();
    assert!(
        (ex.outcomes[0] - march).abs() < 1e-12,
        "{} {march}",
        ex.outcomes[0]
    );
    // Straight from the ships instead (3 >= 2): no land battle, the fleet fights.
    let direct = beats(2, 1, 2, 1)
        * (5.0 / 6.0 * assault(&both, 3)
            + 1.0 / 6.0 * (assault(&without(&both, 0), 3) + assault(&without(&both, 1), 3)) / 3.0);
    let ex = load(&text("direct")).exact().unwrap();
    assert!(
        (ex.outcomes[0] - direct).abs() < 1e-12,
        "{} {direct}",
        ex.outcomes[0]
    );
    // A march by land alone is refused.
    let bad = "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\narrival = \"march\"\n[attacker]\ntroops = [{ field = 3 }]\n[target]\nsize = 2";
    assert!(load_battle("test.toml", &bad.parse().unwrap()).is_err());
    let good = bad.replace("arrival = \"march\"", "arrival = \"landing\"");
    assert!(load_battle("test.toml", &good.parse().unwrap()).is_ok());
}

/// Exact and Monte Carlo agree within 5 standard errors on T-61 and on naval expeditions with
/// every place of the land interception and both arrivals by sea (with straits and weather).
#[test]
fn interceptions_and_marches_agree_with_simulation() {
    let mut cases = vec![T61.to_string()];
    for i in 0..8u64 {
        let weather = ["normal", "bad"][(i % 2) as usize];
        let arrival = ["march", "landing", "direct", "march"][(i % 4) as usize];
        let at = if i < 4 { "departure" } else { "arrival" };
        cases.push(format!(
            "ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"naval\"\nstraits = {}\nweather = \"{weather}\"\narrival = \"{arrival}\"\nland_interception_at = \"{at}\"\n[attacker]\nfleets = [{{ naval = 2, assault = 2 }}, {{ naval = \"1d\", assault = 1 }}]\ntroops = [{{ field = 3, assault = 3 }}, {{ field = 2, naval = 1, assault = 2 }}, {{ field = \"1d\", assault = 1 }}]\nleaders = [{}]\n[naval_interception]\nfleets = [{{ naval = {} }}, {{ naval = 1 }}]\n[land_interception]\ntroops = [{{ field = {} }}]\n[target]\nsize = {}\nmarkers = 1",
            i % 3,
            i % 2,
            1 + i % 3,
            2 + i % 4,
            2 + i % 2
        ));
    }
    for (i, text) in cases.iter().enumerate() {
        let b = load(text);
        assert_agrees(&*b, 60_000, 61, i as u64, &format!("{i}\n{text}"));
    }
}

/// An expedition writes its notes and names its columns when asked, not when built (a game's
/// expeditions never print them): the notes still name the route, the interceptions and, by
/// sea, the loading and a march's or a departure-port interception's route; the schema counts
/// the cards that reach the target up to the expedition's own number.
#[test]
fn notes_and_schema_written_when_asked() {
    let text = |route: &str, arrival: &str, at: &str| {
        format!("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nroute = \"{route}\"\nstraits = 1\narrival = \"{arrival}\"\nland_interception_at = \"{at}\"\n[attacker]\nfleets = [{{ naval = 2, assault = 3 }}]\ntroops = [{{ field = 3, assault = 2 }}, {{ field = 1, assault = 1 }}]\n[naval_interception]\nfleets = [{{ naval = 2 }}]\n[land_interception]\ntroops = [{{ field = 2 }}]\n[target]\nsize = 2\nmarkers = 1")
    };
    let has = |b: &dyn BattleModel, s: &str| b.notes().iter().any(|n| n.contains(s));
    let march = load(&text("naval", "march", "departure"));
    assert!(has(&*march, "naval route; 1 strait in"));
    assert!(has(&*march, "naval interception: fleets"));
    assert!(has(&*march, "land interception: troops"));
    assert!(has(&*march, "spread over the surviving fleets (A-26)"));
    assert!(has(
        &*march,
        "a land leg after the naval one: no direct assault, the fleets stay out of the assault; the land interception at a node of the land leg before the naval one"
    ));
    let landing = load(&text("naval", "landing", "arrival"));
    assert!(!has(&*landing, "the land interception at"));
    let at_departure = load(&text("naval", "landing", "departure"));
    assert!(has(
        &*at_departure,
        "the naval leg ends at the target; the land interception at a node of the land leg"
    ));
    let land = load("ruleset = \"imperios-del-mediterraneo\"\nbattle = \"expedition\"\nstraits = 1\n[attacker]\ntroops = [{ field = 3, assault = 2 }]\n[land_interception]\ntroops = [{ field = 2 }]\n[target]\nsize = 2");
    assert!(has(&*land, "land route; 1 strait in"));
    assert!(!has(&*land, "spread over the surviving fleets"));
    assert!(!has(&*land, "the land interception at"));
    let schema = march.schema();
    assert_eq!(schema.counts.len(), 1);
    assert_eq!(schema.counts[0].name, "cards_at_target");
    assert_eq!(schema.counts[0].max, 3, "two troops and a fleet");
    assert_eq!(schema.scalars.len(), 9);
    assert_eq!(schema.scalars[0], "wrecked_at_a_strait");
    let ex = march.exact().unwrap();
    assert_eq!(ex.scalars.len(), 9);
    assert!((ex.outcomes[0] + ex.outcomes[1] - 1.0).abs() < 1e-12);
}

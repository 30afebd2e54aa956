//! Tests of the mercenaries (digest §4.5.9) and of hiring partners' troops (§4.10): the dice
//! against their exact distributions, the upkeep and the casualty cap by hand, the auction, the
//! options' readings, bad input, and whole games keeping the invariants with every counter moving.

use super::battles::{self, Side};
use super::diplomacy;
use super::game_tests::{
    assert_bad_options, country, game_with, options, options_with, play_checked,
};
use super::leaders::Lead;
use super::mercenaries::{self, Band, Source, BANDS, NO_BANDS};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, Scenario, DEN};
use super::state::{KINDS, NO_UNITS};
use super::weather::Weather;
use super::Game;
use crate::dice::Dice;
use crate::game::{GameModel, NoLog};

fn game() -> Game {
    game_with(Policy::Scripted(Scripted::defaults()), &options())
}

fn within_5_se(hits: u64, n: u64, p: f64, what: &str) {
    let f = hits as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!((f - p).abs() < 5.0 * se, "{what}: {f} vs exact {p}");
}

/// L4518: mercenaries appear on a 1 of 1D6 (5/6 none), then 1D6 units: each count 1/36.
#[test]
fn the_appearance_roll_and_the_unit_count_match_their_exact_distributions() {
    let n = 120_000u64;
    let mut dice = Dice::for_trial(21, 0, 0);
    let mut counts = [0u64; 7];
    for _ in 0..n {
        counts[mercenaries::appearance(&mut dice).unwrap_or(0) as usize] += 1;
    }
    within_5_se(counts[0], n, 5.0 / 6.0, "no mercenaries");
    for (units, &hits) in counts.iter().enumerate().skip(1) {
        within_5_se(hits, n, 1.0 / 36.0, &format!("{units} units"));
    }
}

/// The referee's table is drawn by its rows' weights.
#[test]
fn the_referee_table_is_drawn_by_weight() {
    let g = game();
    let data = &g.scenario.mercenaries;
    let total: u32 = data.rows.iter().map(|r| r.weight).sum();
    let n = 60_000u64;
    let mut dice = Dice::for_trial(22, 0, 0);
    let mut hits = vec![0u64; data.rows.len()];
    for _ in 0..n {
        hits[mercenaries::roll_row(data, &mut dice)] += 1;
    }
    for (i, r) in data.rows.iter().enumerate() {
        within_5_se(
            hits[i],
            n,
            r.weight as f64 / total as f64,
            &format!("row {i}"),
        );
    }
}

fn band(source: Source, units: f64, price: i64, bought: u32) -> Band {
    Band {
        source,
        units,
        price,
        bought,
    }
}

/// L4520: a tenth of the price a year (rounded up), in January after the purchase by default,
/// on the anniversary with option mercenary_upkeep; unpaid, the band deserts.
#[test]
fn upkeep_is_a_tenth_of_the_price_a_year_and_unpaid_bands_desert() {
    assert_eq!(mercenaries::upkeep_of(3000), 300);
    assert_eq!(mercenaries::upkeep_of(1005), 101);
    assert_eq!(mercenaries::upkeep_of(0), 0);
    let january = game();
    let anniversary = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("mercenary_upkeep = \"anniversary\""),
    );
    let roma = country(&january, "Roma");
    // Bought in game month 3 (March of year 1) for 1,200 DEN: 120 a year.
    for (g, due_month, not_due) in [(&january, 13u32, 15u32), (&anniversary, 15, 13)] {
        let b = band(Source::Table(0), 4.0, 1200, 3);
        assert!(mercenaries::due(g, &b, due_month), "{due_month}");
        assert!(!mercenaries::due(g, &b, not_due), "{not_due}");
        assert!(!mercenaries::due(g, &b, 3), "not in the month bought");
        let mut st = g.start.clone();
        st.nations[roma as usize].mercs[0] = b;
        st.nations[roma as usize].stock[DEN] = 1000;
        let months = [due_month, due_month + 1];
        mercenaries::payments(g, &mut st, months);
        assert_eq!(st.nations[roma as usize].stock[DEN], 880);
        assert_eq!(st.counts.mercenary_upkeep_den, 120.0);
        assert_eq!(st.nations[roma as usize].mercs[0], b);
        // 119 DEN cannot pay 120: the band leaves, its men lost.
        st.nations[roma as usize].stock[DEN] = 119;
        let lost = st.ledger.men_lost;
        mercenaries::payments(g, &mut st, [due_month + 12, due_month + 13]);
        assert_eq!(st.nations[roma as usize].stock[DEN], 119);
        assert_eq!(st.nations[roma as usize].mercs[0], Band::NONE);
        let men = 4.0 * g.merc_kinds[0].men;
        assert_eq!(st.ledger.men_lost - lost, men);
        assert_eq!(st.counts.mercenaries_deserted, 4.0);
        assert_eq!(st.counts.deserted_men, men);
    }
    // The reserve keeps the next upkeep back.
    let g = &january;
    let mut st = g.start.clone();
    let p = Scripted::defaults();
    let before = super::economy::den_to_keep(g, &st, roma, &p);
    st.nations[roma as usize].mercs[1] = band(Source::Table(1), 2.0, 905, 1);
    assert_eq!(super::economy::den_to_keep(g, &st, roma, &p) - before, 91);
}

/// L4522 by hand: 10 units of 200 men and 5 of 100 lose 2 and 1 (500 men); a band of 4 units of
/// 200 men loses 2 (400 men). Of 900 men lost the band may take 90: 310 men move onto the 2,000
/// men left, 1,600 : 400, i.e. 1.24 and 0.62 units; the band loses 0.45 units.
#[test]
fn the_casualty_cap_moves_the_excess_onto_the_own_troops_left() {
    let own = [10.0, 5.0, 0.0];
    let mut own_lost = [2.0, 1.0, 0.0];
    let own_men = [200.0, 100.0, 0.0];
    let mut band_lost = [2.0, 0.0];
    let moved =
        mercenaries::cap_losses(&own, &mut own_lost, &own_men, &mut band_lost, &[200.0, 0.0]);
    assert!((moved - 310.0).abs() < 1e-9, "{moved}");
    assert!((own_lost[0] - 3.24).abs() < 1e-12, "{own_lost:?}");
    assert!((own_lost[1] - 1.62).abs() < 1e-12, "{own_lost:?}");
    assert!((band_lost[0] - 0.45).abs() < 1e-12, "{band_lost:?}");
    // Within the cap nothing moves; with no own troops left the band keeps its losses ("if
    // possible"); with too few left, only what is left moves.
    // 1,000 own men and 20 of the band's lost: within the 102 allowed.
    let mut a = [5.0, 0.0, 0.0];
    let mut b = [0.1, 0.0];
    let moved = mercenaries::cap_losses(&[10.0, 0.0, 0.0], &mut a, &own_men, &mut b, &[200.0, 0.0]);
    assert_eq!((moved, a, b), (0.0, [5.0, 0.0, 0.0], [0.1, 0.0]));
    let mut all = [3.0, 0.0, 0.0];
    let mut b = [2.0, 0.0];
    let moved =
        mercenaries::cap_losses(&[3.0, 0.0, 0.0], &mut all, &own_men, &mut b, &[200.0, 0.0]);
    assert_eq!((moved, b), (0.0, [2.0, 0.0]));
    let mut few = [3.0, 0.0, 0.0];
    let mut c = [2.0, 0.0];
    // 600 + 400 lost, 100 allowed: 300 would move, 200 men (1 unit) are left.
    let moved =
        mercenaries::cap_losses(&[4.0, 0.0, 0.0], &mut few, &own_men, &mut c, &[200.0, 0.0]);
    assert!(
        (moved - 200.0).abs() < 1e-9 && (few[0] - 4.0).abs() < 1e-12 && (c[0] - 1.0).abs() < 1e-12
    );
}

/// Country `c`'s side of `own` units of its first kind beside `merc` units of table row `row`.
fn side_with(c: CountryId, own: f64, row: u8, merc: f64) -> Side {
    let mut units = NO_UNITS;
    units[0] = own;
    let mut mercs = NO_BANDS;
    if merc > 0.0 {
        mercs[0] = band(Source::Table(row), merc, 0, 0);
    }
    Side {
        mercs,
        ..Side::new(c, units, Lead::UNNAMED)
    }
}

/// L4522: mercenaries attack only beside at least twice their men; they always defend.
#[test]
fn attacking_mercenaries_need_twice_their_men_beside_them() {
    let g = game();
    let roma = country(&g, "Roma");
    let own_men = g.kinds[roma as usize][0].men;
    let merc_men = g.merc_kinds[1].men;
    // Own troops of exactly twice the band's men, and one unit fewer.
    let units = 2.0 * 3.0 * merc_men / own_men;
    let enough = side_with(roma, units, 1, 3.0);
    let short = side_with(roma, units - 1.0, 1, 3.0);
    assert_eq!(enough.fighting_bands(&g, true), enough.mercs);
    assert_eq!(short.fighting_bands(&g, true), NO_BANDS);
    assert_eq!(short.fighting_bands(&g, false), short.mercs);
    let groups = |s: &Side, attacking| battles::army(&g, s, attacking).groups.len();
    assert_eq!(groups(&enough, true), 2);
    assert_eq!(groups(&short, true), 1);
    assert_eq!(groups(&short, false), 2);
}

/// Field battles with a band beside the own troops: under the default cap the band never loses
/// more than 10% of its side's men lost while own troops are left, and over many battles it
/// loses less than uncapped, which gives it the battle code's share (options' readings differ).
/// The band (archers, row 6) outnumbers the own troops: its type forms the formation, which
/// takes half the casualties (L3600), so the battle code's order alone would not spare it.
#[test]
fn the_battle_hook_caps_mercenary_losses_and_the_readings_differ() {
    let capped = game();
    let uncapped = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("mercenary_casualties = \"uncapped\""),
    );
    let (a, d) = (country(&capped, "Celtiberia"), country(&capped, "Cerdeña"));
    let share = |g: &Game, seed: u64| -> (f64, u32) {
        let mut dice = Dice::for_trial(seed, 0, 0);
        let sides = [side_with(a, 8.0, 0, 0.0), side_with(d, 2.0, 6, 6.0)];
        assert_eq!(g.merc_kinds[6].code, "IA");
        assert_ne!(g.kinds[d as usize][0].code, "IA");
        let own_men = g.men_per_unit(d);
        let merc_men = g.merc_kinds[6].men;
        let (mut band_gone, mut all_gone, mut capped_fights) = (0.0, 0.0, 0);
        for _ in 0..400 {
            let f = battles::field_battle(g, d, false, Weather::Clear, sides, &mut dice);
            let own: f64 = (0..KINDS).map(|k| f.lost[1][k] * own_men[k]).sum();
            let band: f64 = (0..BANDS).map(|b| f.merc_lost[1][b] * merc_men).sum();
            let left = (sides[1].units[0] - f.lost[1][0]) * own_men[0];
            if g.merc_cap && left > 1e-6 {
                assert!(
                    band <= 0.1 * (own + band) + 1e-6,
                    "{band} of {}",
                    own + band
                );
            }
            capped_fights += (f.merc_moved[1] > 0.0) as u32;
            band_gone += band;
            all_gone += own + band;
        }
        (band_gone / all_gone.max(1.0), capped_fights)
    };
    let (with_cap, moved) = share(&capped, 5);
    let (without, unmoved) = share(&uncapped, 5);
    assert!(moved > 0, "the cap acted");
    assert_eq!(unmoved, 0);
    assert!(with_cap < without, "{with_cap} vs {without}");
}

/// The auction: the highest sealed bid within reach wins and pays; a bid beyond the spare DEN or
/// out of reach is none.
#[test]
fn the_highest_bid_within_reach_wins_and_pays() {
    let g = game();
    let roma = country(&g, "Roma");
    let cartago = country(&g, "Cartago");
    let fresh = || {
        let mut st = g.start.clone();
        st.nations[roma as usize].stock[DEN] = 50_000;
        st.nations[cartago as usize].stock[DEN] = 50_000;
        st
    };
    let mut st = fresh();
    let mut plans = vec![Scripted::referee(); st.nations.len()];
    plans[roma as usize].mercenary_bid = 200;
    plans[cartago as usize].mercenary_bid = 400;
    assert!(mercenaries::in_reach(&g, &st, roma, roma));
    assert!(
        !mercenaries::in_reach(&g, &st, cartago, roma),
        "Cartago is not a month from Roma"
    );
    let den = st.nations[roma as usize].stock[DEN];
    let men = st.ledger.men_raised;
    let mut dice = Dice::for_trial(1, 0, 0);
    let w = mercenaries::auction(
        &g,
        &mut st,
        &plans,
        (3, 1, false, roma),
        5,
        &mut dice,
        &mut NoLog,
    );
    assert_eq!(w, Some(roma));
    assert_eq!(st.nations[roma as usize].stock[DEN], den - 600);
    assert_eq!(
        st.nations[roma as usize].mercs[0],
        band(Source::Table(1), 3.0, 600, 5)
    );
    assert_eq!(st.ledger.men_raised - men, 3.0 * g.merc_kinds[1].men);
    // Where both reach them, the higher bid wins; Cartago's whole treasury is short of a bid of
    // 25,000 a unit: no bid.
    let mut st = fresh();
    st.nations[cartago as usize].at = roma;
    assert!(mercenaries::in_reach(&g, &st, cartago, roma));
    let w = mercenaries::auction(
        &g,
        &mut st,
        &plans,
        (2, 0, false, roma),
        5,
        &mut dice,
        &mut NoLog,
    );
    assert_eq!(w, Some(cartago));
    let mut st = fresh();
    st.nations[cartago as usize].at = roma;
    plans[cartago as usize].mercenary_bid = 25_000;
    let w = mercenaries::auction(
        &g,
        &mut st,
        &plans,
        (2, 0, false, roma),
        5,
        &mut dice,
        &mut NoLog,
    );
    assert_eq!(w, Some(roma));
}

/// L446, L472: a client lets its partner hire 50% of its troops, an associate 30%; by hand on
/// the partner's most numerous kind, paid to the partner at its morale cost.
#[test]
fn partners_let_their_protector_hire_half_or_thirty_percent() {
    assert_eq!(mercenaries::hire_share(diplomacy::CLIENT), 0.5);
    assert_eq!(mercenaries::hire_share(diplomacy::ASSOCIATED), 0.3);
    assert_eq!(mercenaries::hire_share(diplomacy::DEFENSIVE), 0.0);
    let g = game();
    let roma = country(&g, "Roma");
    let p = g.major_index[roma as usize] as usize;
    let t = country(&g, "Etruria");
    for (level, hired) in [(diplomacy::CLIENT, 7.0), (diplomacy::ASSOCIATED, 4.0)] {
        let mut st = g.start.clone();
        let i = diplomacy::at(&st, p, t);
        st.relations[i].level = level;
        let nat = &mut st.nations[t as usize];
        nat.field = [10.0, 1.0, 0.0];
        nat.garrison = [4.0, 0.0, 0.0];
        st.nations[roma as usize].stock[DEN] = 100_000;
        let mut plans = vec![Scripted::referee(); st.nations.len()];
        plans[roma as usize].partner_hire = 1.0;
        let den_t = st.nations[t as usize].stock[DEN];
        mercenaries::hire_partners(&g, &mut st, &plans, 7);
        let price = hired as i64 * g.kinds[t as usize][0].cost[DEN];
        assert_eq!(
            st.nations[roma as usize].mercs[0],
            band(Source::Partner(t, 0), hired, price, 7),
            "level {level}"
        );
        assert_eq!(st.nations[roma as usize].stock[DEN], 100_000 - price);
        assert_eq!(st.nations[t as usize].stock[DEN], den_t + price);
        let left = st.nations[t as usize].field[0] + st.nations[t as usize].garrison[0];
        assert_eq!(left, 14.0 - hired);
        // Once a partner: a second phase hires nothing more.
        mercenaries::hire_partners(&g, &mut st, &plans, 9);
        assert_eq!(st.nations[roma as usize].mercs[0].units, hired);
    }
}

#[test]
fn bad_option_values_and_bad_table_rows_exit_2() {
    assert_bad_options(&[
        (
            "mercenary_casualties = \"half\"",
            "mercenary_casualties",
            "capped",
        ),
        (
            "mercenary_upkeep = \"monthly\"",
            "mercenary_upkeep",
            "anniversary",
        ),
        (
            "reasonable_defence = \"sometimes\"",
            "reasonable_defence",
            "odds",
        ),
    ]);
    let rb = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/mediterraneo-sanguinolento/game/rulebook.toml"
    ));
    let ab = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/mediterraneo-sanguinolento/game/abstraction.toml"
    ));
    for (from, to, field) in [
        (
            "leader_chance = 0.1",
            "leader_chance = 1.5",
            "mercenaries.leader_chance",
        ),
        (
            "partner_price = 1.0",
            "partner_price = -1.0",
            "mercenaries.partner_price",
        ),
        (
            "{ unit = \"IL\", morale = \"C\", regular = false, weight = 4 }",
            "{ unit = \"IX\", morale = \"C\", regular = false, weight = 4 }",
            "mercenaries.bands[0].unit",
        ),
        (
            "{ unit = \"IL\", morale = \"C\", regular = false, weight = 4 }",
            "{ unit = \"IL\", morale = \"E\", regular = false, weight = 4 }",
            "mercenaries.bands[0].morale",
        ),
        (
            "{ unit = \"IL\", morale = \"C\", regular = false, weight = 4 }",
            "{ unit = \"IL\", morale = \"C\", regular = false, weight = 0 }",
            "mercenaries.bands[0].weight",
        ),
    ] {
        assert!(ab.contains(from), "{from}");
        let err = match Scenario::parse("rb.toml", rb, "ab.toml", &ab.replacen(from, to, 1)) {
            Ok(_) => panic!("{to}: accepted"),
            Err(e) => e,
        };
        let msg = err.to_string();
        assert_eq!(err.exit_code(), 2, "{msg}");
        assert_eq!(msg.lines().count(), 1, "{msg}");
        assert!(
            msg.starts_with("ab.toml") && msg.contains(field),
            "{field}: {msg}"
        );
    }
}

/// Whole games in which every major bids high for mercenaries and hires its partners' troops:
/// every new counter moves and the invariants hold (men, resources and money change only through
/// the rules' sources and sinks, the purchases and upkeep among them).
#[test]
fn whole_games_with_mercenaries_keep_the_invariants() {
    let keen = Scripted {
        mercenary_bid: 700,
        partner_hire: 1.0,
        envoys: 2,
        ..Scripted::defaults()
    };
    const NEW: usize = 16;
    let mut totals = [0.0f64; NEW];
    for (policy, games, option) in [
        (
            Policy::Scripted(keen),
            200u64,
            // Fed from the home stock (army_supply): the supply rule's marches held back for
            // want of convoys would leave the protectors' rare fights rarer still.
            "reasonable_defence = \"always\"\narmy_supply = \"home-stock\"",
        ),
        (Policy::Random, 200, "mercenary_upkeep = \"anniversary\""),
    ] {
        let g = game_with(policy, &options_with(option));
        let first = g
            .game_columns()
            .iter()
            .position(|c| *c == "mercenaries_appeared")
            .unwrap();
        // Lent troops lose men in a handful of these games only: seed 31 saw none once Rome's
        // Republican militia shifted the dice streams (4 lent units in 400 games).
        play_checked(&g, 32, games, &format!("{policy:?}"), |_, _, r| {
            for (j, t) in totals.iter_mut().enumerate() {
                *t += r.extra[first + j];
            }
        });
    }
    let first = super::GAME_COLUMNS
        .iter()
        .position(|c| *c == "mercenaries_appeared")
        .unwrap();
    let names = &super::GAME_COLUMNS[first..first + NEW];
    for (name, t) in names.iter().zip(totals) {
        assert!(t > 0.0, "{name} never moved: {totals:?}");
    }
}

/// L444, L470: a client lends its protector 20% of its troops for its defence, an associate 50%;
/// a defensive ally none.
#[test]
fn partners_lend_twenty_or_fifty_percent_for_their_defence() {
    use super::alliances::{self, Reasonable};
    assert_eq!(alliances::lent_share(diplomacy::CLIENT), 0.2);
    assert_eq!(alliances::lent_share(diplomacy::ASSOCIATED), 0.5);
    assert_eq!(alliances::lent_share(diplomacy::DEFENSIVE), 0.0);
    let (always, never, odds) = (
        game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with("reasonable_defence = \"always\""),
        ),
        game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with("reasonable_defence = \"never\""),
        ),
        game(),
    );
    assert_eq!(odds.reasonable_defence, Reasonable::Odds);
    let g = &always;
    // Tesalia is a month's march from Macedonia (3 plain hexes); Roma attacks it.
    let (macedonia, roma) = (country(g, "Macedonia"), country(g, "Roma"));
    let p = g.major_index[macedonia as usize] as usize;
    let t = country(g, "Tesalia");
    let plans = vec![Scripted::defaults(); g.start.nations.len()];
    for (level, lent) in [(diplomacy::CLIENT, 2.0), (diplomacy::ASSOCIATED, 5.0)] {
        let setup = |g: &Game, macedonia_units: f64| {
            let mut st = g.start.clone();
            let i = diplomacy::at(&st, p, t);
            st.relations[i].level = level;
            st.nations[t as usize].field = [10.0, 0.0, 0.0];
            st.nations[macedonia as usize].field = [macedonia_units, 0.0, 0.0];
            // Roma's army stands in Tesalia, arrived.
            st.nations[roma as usize].at = t;
            st.nations[roma as usize].field = [12.0, 0.0, 0.0];
            st.nations[roma as usize].mission = super::state::Mission::March { target: t };
            st
        };
        let st = setup(g, 6.0);
        assert_eq!(
            alliances::protector(g, &st, roma, t, t),
            Some((macedonia, level))
        );
        assert_eq!(
            alliances::protector(g, &st, macedonia, t, t),
            None,
            "not against itself"
        );
        let mut away = st.clone();
        away.nations[macedonia as usize].mission = super::state::Mission::Return;
        assert_eq!(alliances::protector(g, &away, roma, t, t), None, "busy");
        let mut st = setup(g, 6.0);
        let men = st.ledger.men_lost;
        let mut dice = Dice::for_trial(4, 0, 0);
        let won = alliances::defend(g, &mut st, &plans, roma, t, t, 5, &mut dice, &mut NoLog);
        assert_eq!(st.counts.protector_battles, 1);
        assert_eq!(st.counts.lent_units, lent, "level {level}");
        assert_eq!(st.counts.protector_wins, won as u32);
        // The lent troops are back, less their losses, counted as men lost.
        let back = st.nations[t as usize].field[0];
        let kind_men = g.kinds[t as usize][0].men;
        assert!((st.counts.lent_men_lost - (10.0 - back) * kind_men).abs() < 1e-6);
        assert!(st.ledger.men_lost - men >= st.counts.lent_men_lost - 1e-6);
        assert!(st.nations[macedonia as usize]
            .mercs
            .iter()
            .all(|b| *b == Band::NONE));
        // "never": no help; "odds": a hopeless protector (1 unit and the lent ones against 60)
        // stays home.
        let mut st = setup(&never, 6.0);
        assert!(!alliances::defend(
            &never, &mut st, &plans, roma, t, t, 5, &mut dice, &mut NoLog
        ));
        assert_eq!(st.counts.protector_battles, 0);
        let mut st = setup(&odds, 1.0);
        st.nations[roma as usize].field = [60.0, 0.0, 0.0];
        assert!(!alliances::defend(
            &odds, &mut st, &plans, roma, t, t, 5, &mut dice, &mut NoLog
        ));
        assert_eq!(
            (st.counts.protector_battles, st.nations[t as usize].field[0]),
            (0, 10.0)
        );
        let mut st = setup(g, 1.0);
        alliances::defend(g, &mut st, &plans, roma, t, t, 5, &mut dice, &mut NoLog);
        assert_eq!(st.counts.protector_battles, 1, "always: even hopeless");
    }
}

//! Tests of diplomacy (digest §4.10): the first roll's bands (A54) and the second roll's printed
//! distribution (digest §8.6), the modifiers, the game's proposals against the exact chance of a
//! treaty (5 standard errors), treaty PV and its breach (A51), treaties keeping armies apart,
//! client states' sales, provinces, and treaties signed in whole games.

use super::diplomacy::{self, Reception, Relation};
use super::game_tests::{country, game_with, options, options_with, scripted_game};
use super::military;
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, COM, DEN, ELE, POB};
use super::state::State;
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::{GamePlay, GameRecord, NoLog, NoObserver};

#[test]
fn the_first_roll_reads_the_digests_bands() {
    use Reception::*;
    // Digest §4.10's resolution (A54): a natural 0 or 1 is war whatever the modifiers.
    assert_eq!(diplomacy::reception(0, 60, false), War);
    assert_eq!(diplomacy::reception(1, 120, true), War);
    // Without a previous treaty.
    for (m, r) in [
        (-7, War),
        (2, War),
        (3, Killed),
        (5, Killed),
        (6, Beaten),
        (20, Beaten),
        (21, Expelled),
        (40, Expelled),
        (41, NotReceived),
        (90, NotReceived),
        (91, Audience),
        (130, Audience),
    ] {
        assert_eq!(diplomacy::reception(50, m, false), r, "no treaty, {m}");
    }
    // With one.
    for (m, r) in [
        (-7, Downgrade),
        (2, Downgrade),
        (10, Downgrade),
        (11, NoEffect),
        (20, NoEffect),
        (21, Expelled),
        (41, NotReceived),
        (91, Audience),
    ] {
        assert_eq!(diplomacy::reception(50, m, true), r, "treaty, {m}");
    }
}

#[test]
fn the_second_roll_gives_20_20_35_10_5_5_4_1_percent() {
    // Digest §8.6: the second roll's fixed distribution over its eight results.
    let mut count = [0; 8];
    for roll in 1..=100 {
        count[diplomacy::offered(roll) as usize] += 1;
    }
    assert_eq!(count, [20, 20, 35, 10, 5, 5, 4, 1]);
}

#[test]
fn pressure_maps_onto_its_judged_range() {
    // The gifts' bands: envoy_gifts_tests.
    assert_eq!(diplomacy::pressure_modifier(10, 50), -10);
    assert_eq!(diplomacy::pressure_modifier(10, 51), 10);
    assert_eq!(diplomacy::pressure_modifier(25, 99), 10);
    assert_eq!(diplomacy::pressure_modifier(0, 10), 0);
}

#[test]
fn standing_modifiers_add_up_as_listed() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria"); // latinos like Roma, and its neighbour
    let cartago = country(&g, "Cartago"); // fenicios, overseas
    let mut st = g.start.clone();
    st.turn = 5;
    let fresh = Relation::default();
    // Same race +5, bordering +2, first time -5.
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, etruria, &fresh),
        2
    );
    // Different race -5, not bordering, first time -5.
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, cartago, &fresh),
        -10
    );
    // Met before, third turn in a row (+5), a treaty (+5), one envoy beaten (-5), one killed (-10).
    let r = Relation {
        level: diplomacy::EQUAL_TRADE,
        met: true,
        streak: 2,
        last_turn: 4,
        beaten: 1,
        killed: 1,
        war: false,
    };
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, etruria, &r),
        5 + 2 + 5 + 5 - 5 - 10
    );
    // A streak broken by a missed turn starts again.
    let r = Relation { last_turn: 3, ..r };
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, etruria, &r),
        5 + 2 + 5 - 5 - 10
    );
    // Option same_race = culture: Roma and Cartago are both civilized.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("same_race = \"culture\""),
    );
    assert_eq!(
        diplomacy::standing_modifier(&g, &st, roma, cartago, &fresh),
        0
    );
}

/// Exact chance that a first proposal with standing modifier `m` and gift modifier `gm` signs a
/// treaty: a d100 of 0-99 that is not 0-1 and reaches 91 modified, then a second roll above 20.
fn exact_treaty_chance(m: i32) -> f64 {
    let audiences = (2..100).filter(|&d| d + m >= 91).count();
    audiences as f64 / 100.0 * 0.8
}

#[test]
fn proposals_sign_treaties_at_the_exact_rate_within_5_se() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let plan = Scripted {
        envoy_gift: 1200,
        reserve: 0,
        ..Scripted::defaults()
    };
    let p = g.major_index[roma as usize] as usize;
    let trials = 20_000u64;
    let mut signed = 0u32;
    let mut wars = 0u32;
    let mut dice = Dice::for_trial(3, 0, 0);
    let mut st = g.start.clone();
    st.turn = 2;
    st.nations[roma as usize].stock[DEN] = 1_000_000;
    let start = st.clone();
    for _ in 0..trials {
        st.clone_from(&start);
        diplomacy::negotiate(&g, &mut st, &plan, p, etruria, 3, &mut dice, &mut NoLog);
        signed += st.counts.treaties_signed;
        wars += st.counts.wars_declared;
        let i = diplomacy::at(&st, p, etruria);
        // A province joins the empire: no treaty is kept with it.
        let kept = st.relations[i].level > 0 || st.counts.provinces == 1;
        assert_eq!(kept, st.counts.treaties_signed == 1);
    }
    // Standing +2 (same race, bordering, first time) and the gift's +10.
    let want = exact_treaty_chance(12);
    let got = signed as f64 / trials as f64;
    let se = (want * (1.0 - want) / trials as f64).sqrt();
    assert!((got - want).abs() < 5.0 * se, "{got} vs {want}");
    // War on a natural 0 or 1 (the modified 2 is out of reach at +12): 2 in 100.
    let got = wars as f64 / trials as f64;
    let se = (0.02f64 * 0.98 / trials as f64).sqrt();
    assert!((got - 0.02).abs() < 5.0 * se, "{got}");
}

#[test]
fn a_treaty_scores_for_both_and_its_breach_costs_the_breaker() {
    for (option, barbarian_breach) in [("text", -5), ("table", -3)] {
        let g = game_with(
            Policy::Scripted(Scripted::defaults()),
            &options_with(&format!("treaty_breach_pv = \"{option}\"")),
        );
        let roma = country(&g, "Roma");
        let etruria = country(&g, "Etruria");
        let p = g.major_index[roma as usize] as usize;
        let mut st = g.start.clone();
        let mut plan = Scripted::defaults();
        plan.envoy_gift = 0;
        // Force an audience and a treaty by trying until one is signed.
        let mut dice = Dice::for_trial(5, 0, 0);
        let (idr0, idr_t0) = (
            st.nations[roma as usize].idr,
            st.nations[etruria as usize].idr,
        );
        let mut turn = 1;
        while st.counts.treaties_signed == 0 {
            st.turn = turn;
            let i = diplomacy::at(&st, p, etruria);
            st.relations[i].war = false;
            st.relations[i].killed = 0;
            st.relations[i].beaten = 0;
            st.relations[i].level = 0;
            diplomacy::negotiate(&g, &mut st, &plan, p, etruria, 1, &mut dice, &mut NoLog);
            turn += 1;
        }
        let i = diplomacy::at(&st, p, etruria);
        assert!(st.relations[i].level > 0);
        // Killed envoys cost Etruria its row; discount them from its PV.
        let killed_pv = super::pv::KILLING_AMBASSADORS.pv(g.culture[etruria as usize])
            * st.counts.ambassadors_killed as i32;
        for (who, idr0) in [(roma, idr0), (etruria, idr_t0)] {
            let n = &st.nations[who as usize];
            let own = if who == etruria { killed_pv } else { 0 };
            assert_eq!(n.pv_by[super::pv::DIPLOMACY] - own, 1, "+1 PV each");
            if who == roma {
                assert_eq!(n.idr - idr0, 25);
            }
        }
        // Two extensions score +1 (0.5 each), +10 IDR each.
        let pv0 = st.nations[roma as usize].pv;
        for _ in 0..2 {
            let level = st.relations[i].level;
            if level >= diplomacy::ASSOCIATED {
                st.relations[i].level = diplomacy::NON_AGGRESSION;
            }
            let next = st.relations[i].level + 1;
            diplomacy::sign(&g, &mut st, p, etruria, next, 1, &mut NoLog);
        }
        assert_eq!(st.nations[roma as usize].pv - pv0, 1);
        assert_eq!(st.counts.treaties_extended, 2);
        // Marching on it breaks the treaty.
        let pv0 = st.nations[roma as usize].pv;
        assert!(diplomacy::bound(&g, &st, roma, etruria));
        diplomacy::break_treaty(&g, &mut st, roma, etruria);
        assert_eq!(
            st.nations[roma as usize].pv - pv0,
            -5,
            "civilized: -5 either way"
        );
        assert!(!diplomacy::bound(&g, &st, roma, etruria));
        assert!(st.relations[i].war);
        // A barbarian breaker: -5 by the text, -3 by the table (A51).
        let b = (0..g.culture.len())
            .find(|&c| {
                g.culture[c]
                    == crate::rulesets::mediterraneo_sanguinolento::army::Culture::Barbarian
            })
            .unwrap() as CountryId;
        let pv0 = st.nations[b as usize].pv;
        diplomacy::break_treaty(&g, &mut st, b, roma);
        assert_eq!(
            st.nations[b as usize].pv - pv0,
            barbarian_breach,
            "{option}"
        );
    }
}

#[test]
fn treaty_partners_are_no_targets_unless_the_policy_breaks_treaties() {
    let g = scripted_game();
    let babilonia = country(&g, "Babilonia");
    let p = g.major_index[babilonia as usize] as usize;
    let st = g.start.clone();
    // The satrapies start with Babilonia's commercial treaty (L4560).
    let satrapies: Vec<CountryId> = ["Charax", "Hyrcania", "Drangannia", "Media", "Sagartia"]
        .iter()
        .map(|n| country(&g, n))
        .collect();
    for &s in &satrapies {
        assert_eq!(
            st.relations[diplomacy::at(&st, p, s)].level,
            diplomacy::EQUAL_TRADE
        );
    }
    assert_eq!(diplomacy::treaties(&st, p), 5);
    let bordering: Vec<CountryId> = satrapies
        .iter()
        .copied()
        .filter(|s| g.neighbours[babilonia as usize].contains(s))
        .collect();
    assert!(!bordering.is_empty(), "a satrapy borders Babilonia");
    let offered = |breaks: bool| {
        let mut out = Vec::new();
        military::targets(&g, &st, babilonia, 2, 0.0, breaks, |t, _| out.push(t));
        out
    };
    let (kept, broken) = (offered(false), offered(true));
    for s in &bordering {
        assert!(!kept.contains(s) && broken.contains(s), "{s}");
    }
    assert!(
        kept.iter().any(|t| !bordering.contains(t)),
        "others stay targets"
    );
}

#[test]
fn client_and_associated_states_sell_their_share_one_to_one() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let p = g.major_index[roma as usize] as usize;
    let plans = vec![
        Scripted {
            reserve: 0,
            ..Scripted::referee()
        };
        g.scenario.countries.len()
    ];
    let mut plans = plans;
    plans[roma as usize] = Scripted {
        client_buying: 1.0,
        reserve: 0,
        ..Scripted::defaults()
    };
    for (level, share) in [(diplomacy::CLIENT, 0.5), (diplomacy::ASSOCIATED, 0.75)] {
        let mut st = g.start.clone();
        let i = diplomacy::at(&st, p, etruria);
        st.relations[i].level = level;
        for r in 0..st.nations[0].stock.len() {
            st.nations[etruria as usize].stock[r] = 100_000;
        }
        st.nations[roma as usize].stock[DEN] = 1_000_000;
        let money = |s: &State| s.nations.iter().map(|n| n.stock[DEN]).sum::<i64>();
        let before = st.clone();
        diplomacy::buy_from_partners(&g, &mut st, &plans, 4);
        let prod = &g.scenario.production[etruria as usize];
        let mut paid = 0;
        for r in diplomacy::BUYABLE {
            let got = st.nations[roma as usize].stock[r] - before.nations[roma as usize].stock[r];
            let want = (prod[r] as f64 * share) as i64;
            let want = if r == COM {
                let keep =
                    super::economy::food_to_keep(&g, &before, etruria, &plans[etruria as usize], 4);
                want.min(100_000 - keep)
            } else {
                want
            };
            assert_eq!(got, want, "resource {r} at {share}");
            paid += got;
        }
        assert!(paid > 0);
        for r in [POB, ELE] {
            assert_eq!(
                st.nations[roma as usize].stock[r],
                before.nations[roma as usize].stock[r]
            );
        }
        assert_eq!(
            before.nations[roma as usize].stock[DEN] - st.nations[roma as usize].stock[DEN],
            paid
        );
        assert_eq!(money(&st), money(&before), "money only changes hands");
    }
}

#[test]
fn a_province_joins_with_its_stock_and_yields_in_full() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let etruria = country(&g, "Etruria");
    let mut st = g.start.clone();
    let den = st.nations[roma as usize].stock[DEN] + st.nations[etruria as usize].stock[DEN];
    let men: f64 = State::men(&st.all_units(etruria), &g.men_per_unit(etruria));
    assert!(men > 0.0);
    diplomacy::annex(&g, &mut st, roma, etruria, 6);
    assert_eq!(st.lands[etruria as usize].owner, roma);
    assert_eq!(st.nations[roma as usize].stock[DEN], den);
    assert_eq!(st.ledger.men_lost, men);
    assert_eq!(
        State::men(&st.all_units(etruria), &g.men_per_unit(etruria)),
        0.0
    );
    assert_eq!(
        super::economy::conquered_pob_percent(st.lands[etruria as usize].collections),
        100
    );
    assert!(!super::economy::collects(6, 6) && super::economy::collects(6, 8));
}

fn count_over(g: &Game, games: u64) -> super::state::Counts {
    let mut play = Play::new(g);
    let mut r = GameRecord::new(
        g.players.len(),
        crate::game::GameModel::game_columns(g).len(),
    );
    let mut total = super::state::Counts::default();
    for i in 0..games {
        r.clear();
        play.play(
            &mut Dice::for_trial(17, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        let c = &play.st.counts;
        total.treaties_signed += c.treaties_signed;
        total.treaties_extended += c.treaties_extended;
        total.treaties_broken += c.treaties_broken;
        total.wars_declared += c.wars_declared;
        total.ambassadors_killed += c.ambassadors_killed;
        total.provinces += c.provinces;
        total.bought_from_partners += c.bought_from_partners;
        for p in 0..g.majors.len() {
            assert!(diplomacy::treaties(&play.st, p) <= diplomacy::MAX_TREATIES);
        }
    }
    total
}

#[test]
fn treaties_are_signed_extended_and_broken_in_games() {
    let scripted = count_over(&scripted_game(), 200);
    assert!(scripted.treaties_signed > 0, "{scripted:?}");
    assert!(scripted.treaties_extended > 0, "{scripted:?}");
    assert!(scripted.wars_declared > 0, "{scripted:?}");
    assert!(scripted.ambassadors_killed > 0, "{scripted:?}");
    assert!(scripted.bought_from_partners > 0.0, "{scripted:?}");
    let random = count_over(&game_with(Policy::Random, &options()), 200);
    assert!(random.treaties_broken > 0, "{random:?}");
    assert!(random.treaties_signed > 0, "{random:?}");
}

#[test]
fn majors_sign_a_trade_treaty_when_both_offer_and_can_reach_each_other() {
    let g = scripted_game();
    let atenas = country(&g, "Atenas");
    let esparta = country(&g, "Esparta");
    let peloponeso = country(&g, "Peloponeso");
    let (p, q) = (
        g.major_index[atenas as usize] as usize,
        g.major_index[esparta as usize] as usize,
    );
    let offering = Scripted {
        major_treaties: 1.0,
        ..Scripted::defaults()
    };
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[atenas as usize] = offering;
    plans[esparta as usize] = offering;
    // Neither borders the other (Peloponeso lies between), no sea lane, no ambassador: no treaty.
    let mut st = g.start.clone();
    diplomacy::majors_agree(&g, &mut st, &plans, 1, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 0);
    // Atenas holding Peloponeso borders Esparta: they sign, +1 PV each, and are bound.
    st.lands[peloponeso as usize].owner = atenas;
    let mut refused = plans.clone();
    refused[esparta as usize].major_treaties = 0.0;
    diplomacy::majors_agree(&g, &mut st, &refused, 1, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 0, "both must offer");
    diplomacy::majors_agree(&g, &mut st, &plans, 1, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 1);
    for (who, i) in [
        (atenas, diplomacy::at(&st, p, esparta)),
        (esparta, diplomacy::at(&st, q, atenas)),
    ] {
        assert_eq!(st.nations[who as usize].pv, 1);
        assert_eq!(st.relations[i].level, diplomacy::EQUAL_TRADE);
    }
    assert!(diplomacy::bound(&g, &st, atenas, esparta));
    assert!(super::trade::receives(&g, &st, p, esparta));
    // Signed once: the next turn adds nothing; a broken treaty closes talks for the game.
    diplomacy::majors_agree(&g, &mut st, &plans, 3, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 1);
    diplomacy::break_treaty(&g, &mut st, atenas, esparta);
    assert!(!diplomacy::bound(&g, &st, atenas, esparta));
    // -5 PV for the breach under the default reading of A51 (L424, L4058).
    assert_eq!(st.nations[atenas as usize].pv, 1 - 5);
    diplomacy::majors_agree(&g, &mut st, &plans, 5, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 1);
    // An ambassador carries treaties from home: Atenas keeping one reaches Esparta without a border.
    let mut st = g.start.clone();
    st.nations[atenas as usize].ambassadors = 1;
    diplomacy::majors_agree(&g, &mut st, &plans, 1, &mut NoLog);
    assert_eq!(st.counts.major_treaties, 1);
}

#[test]
fn majors_that_offer_treaties_sign_them_in_games() {
    let g = game_with(
        Policy::Scripted(Scripted {
            major_treaties: 1.0,
            ..Scripted::defaults()
        }),
        &options(),
    );
    let mut play = Play::new(&g);
    let mut r = GameRecord::new(
        g.players.len(),
        crate::game::GameModel::game_columns(&g).len(),
    );
    let mut signed = 0;
    for i in 0..200 {
        r.clear();
        play.play(
            &mut Dice::for_trial(29, 0, i),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
        );
        signed += play.st.counts.major_treaties;
    }
    assert!(signed > 0);
}

#[test]
fn majors_that_both_offer_defence_sign_a_defensive_treaty_and_defend_each_other() {
    let g = scripted_game();
    let atenas = country(&g, "Atenas");
    let esparta = country(&g, "Esparta");
    let peloponeso = country(&g, "Peloponeso");
    let (p, q) = (
        g.major_index[atenas as usize] as usize,
        g.major_index[esparta as usize] as usize,
    );
    let trade = Scripted {
        major_treaties: 1.0,
        ..Scripted::defaults()
    };
    let defence = Scripted {
        major_defence: 1.0,
        ..trade
    };
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[atenas as usize] = trade;
    plans[esparta as usize] = defence;
    let mut st = g.start.clone();
    st.lands[peloponeso as usize].owner = atenas;
    let level = |st: &State| {
        (
            st.relations[diplomacy::at(st, p, esparta)].level,
            st.relations[diplomacy::at(st, q, atenas)].level,
        )
    };
    // One offers only trade: a trade treaty (+1 PV each).
    diplomacy::majors_agree(&g, &mut st, &plans, 1, &mut NoLog);
    let trade_level = diplomacy::EQUAL_TRADE;
    assert_eq!(level(&st), (trade_level, trade_level));
    // Both offer defence: the trade treaty is raised to a defensive one, an extension (+0.5 PV:
    // the first scores 0, +10 IDR) and no second treaty counted.
    plans[atenas as usize] = defence;
    let idr = st.nations[atenas as usize].idr;
    diplomacy::majors_agree(&g, &mut st, &plans, 3, &mut NoLog);
    assert_eq!(level(&st), (diplomacy::DEFENSIVE, diplomacy::DEFENSIVE));
    assert_eq!(st.nations[atenas as usize].pv, 1);
    assert_eq!(st.nations[atenas as usize].idr - idr, 10);
    assert_eq!(st.counts.major_treaties, 1);
    assert_eq!(st.counts.major_defensive_treaties, 1);
    // Nothing more to sign.
    diplomacy::majors_agree(&g, &mut st, &plans, 5, &mut NoLog);
    assert_eq!(st.counts.major_defensive_treaties, 1);
    // Straight to a defensive treaty: +1 PV each.
    let mut fresh = g.start.clone();
    fresh.lands[peloponeso as usize].owner = atenas;
    diplomacy::majors_agree(&g, &mut fresh, &plans, 1, &mut NoLog);
    assert_eq!(level(&fresh), (diplomacy::DEFENSIVE, diplomacy::DEFENSIVE));
    assert_eq!(fresh.nations[esparta as usize].pv, 1);
}

#[test]
fn a_major_defends_its_defensive_ally_against_a_third_major_it_has_no_treaty_with() {
    use super::alliances;
    let g = scripted_game();
    let st0 = g.start.clone();
    // Two majors within a month's march of each other's homes, and a third to attack.
    let (ally, partner) = g
        .majors
        .iter()
        .flat_map(|&a| g.majors.iter().map(move |&b| (a, b)))
        .find(|&(a, b)| a != b && super::mercenaries::in_reach(&g, &st0, a, b))
        .expect("two majors within a month's march");
    let attacker = *g
        .majors
        .iter()
        .find(|&&m| m != ally && m != partner)
        .unwrap();
    let p = g.major_index[ally as usize] as usize;
    let mut st = st0.clone();
    st.nations[ally as usize].field = [10.0, 0.0, 0.0];
    assert_eq!(
        alliances::protector(&g, &st, attacker, partner, partner),
        None
    );
    let i = diplomacy::at(&st, p, partner);
    st.relations[i].level = diplomacy::DEFENSIVE;
    assert_eq!(
        alliances::protector(&g, &st, attacker, partner, partner),
        Some((ally, diplomacy::DEFENSIVE))
    );
    // Not against itself, and not against a major it has a treaty with.
    assert_eq!(alliances::protector(&g, &st, ally, partner, partner), None);
    let mut bound = st.clone();
    let j = diplomacy::at(&bound, p, attacker);
    bound.relations[j].level = diplomacy::EQUAL_TRADE;
    assert_eq!(
        alliances::protector(&g, &bound, attacker, partner, partner),
        None
    );
    // A trade treaty alone obliges nothing.
    st.relations[i].level = diplomacy::EQUAL_TRADE;
    assert_eq!(
        alliances::protector(&g, &st, attacker, partner, partner),
        None
    );
}

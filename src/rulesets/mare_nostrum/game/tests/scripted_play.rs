//! The scripted policies' play: feeding, recruiting, hiring, investing, marching only into
//! battles it can win, and what the war and peace clauses do to their holdings.

use super::*;

/// Rome's grain figures: (active PPU, PPR, harvests).
fn grain_figures(s: &State, n: usize) -> (i64, i64, i64) {
    s.provinces_of(n).fold((0, 0, 0), |(u, r, h), p| {
        let pr = &s.provinces[p];
        (u + pr.ppu as i64, r + pr.ppr as i64, h + pr.harvests as i64)
    })
}

#[test]
fn the_aggressor_recruits_no_more_regulars_than_its_grain_feeds() {
    let m = model("rome = { policy = \"aggressor\", grain_share = 1.0 }");
    let mut s = start(&m, 12);
    let rome = 12;
    s.nations[rome].goods = [5_000, 10, 1_000, 1_000];
    let want = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let (ppu, ppr, harvests) = grain_figures(&s, rome);
    let regulars = (want.infantry + want.cavalry) as i64;
    // Every regular takes a PPR: the PPU left unfed must stay within the harvests and a fifth
    // of the granary (grain_share 1).
    assert!(regulars > 0, "it still recruits");
    assert!(
        ppu - (ppr - regulars) <= harvests + 10 / 5,
        "{regulars} regulars leave {} PPU unfed on {harvests} G a year",
        ppu - (ppr - regulars)
    );
    // By default (grain_share 0) regulars come only from PPR the cities do not need.
    let m = model("rome = \"aggressor\"");
    let want = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let regulars = (want.infantry + want.cavalry) as i64;
    assert!(regulars <= (ppr - ppu).max(0), "{want:?}");
}

#[test]
fn at_war_the_aggressor_hires_mercenaries_where_its_nation_may() {
    let m = model("rome = \"aggressor\"\ncarthage = \"aggressor\"\ngermans = \"aggressor\"");
    let mut s = start(&m, 13);
    let (carthage, germans, rome) = (1, 9, 12);
    for n in [carthage, germans, rome] {
        s.nations[n].goods = [2_000, 50, 200, 20];
        s.nations[n].at_war |= 1 << 5;
    }
    let mut dice = Dice::from_seed(1);
    let c = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert!(c.mercenary_infantry > 0, "{c:?}");
    // Rome may hire no mercenary infantry, only cavalry; the Germans none at all.
    let r = m.policies[rome].recruit(&m, &s, rome, &mut dice);
    assert!(
        r.mercenary_infantry == 0 && r.mercenary_cavalry > 0,
        "{r:?}"
    );
    let g = m.policies[germans].recruit(&m, &s, germans, &mut dice);
    assert!(
        g.mercenary_infantry == 0 && g.mercenary_cavalry == 0,
        "{g:?}"
    );
}

#[test]
fn the_aggressor_invests_at_optimal_and_buys_vp_in_a_historical_period() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 14);
    let rome = 12;
    s.nations[rome].goods = [2_000, 200, 200, 0];
    s.nations[rome].stability = 0;
    let mut dice = Dice::from_seed(1);
    let wanted = m.policies[rome].invest_stability(&m, &s, rome, &mut dice);
    assert!(wanted.iter().all(|&w| w > 0), "{wanted:?}");
    s.historical_period = true;
    assert!(m.policies[rome].invest_for_vp(&m, &s, rome, &mut dice) >= 50);
}

#[test]
fn field_odds_agree_with_the_battles_clash_plays() {
    use crate::rulesets::mare_nostrum::field::FieldSide;
    use crate::rulesets::mare_nostrum::{Leader, Winner};
    let m = model("");
    let leader = |modifier| {
        Some(Leader {
            modifier,
            age: 40,
            historical: false,
        })
    };
    let sides = [
        FieldSide {
            units: [9, 2, 1, 0],
            leader: leader(1),
            independent: false,
        },
        FieldSide {
            units: [7, 0, 0, 0],
            leader: leader(0),
            independent: false,
        },
    ];
    let odds = m.field.odds(&sides);
    assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let e = m.field.engage(&sides);
    let mut dice = Dice::from_seed(5);
    let trials = 40_000;
    let mut seen = [0u32; 3];
    for _ in 0..trials {
        let k = match m.field.clash(&e, &mut dice).1 {
            Winner::Attacker => 0,
            Winner::Defender => 1,
            Winner::None => 2,
        };
        seen[k] += 1;
    }
    for k in 0..3 {
        let f = seen[k] as f64 / trials as f64;
        let se = (odds[k] * (1.0 - odds[k]) / trials as f64).sqrt();
        assert!(
            (f - odds[k]).abs() < 5.0 * se + 1e-9,
            "{k}: {f} v {}",
            odds[k]
        );
    }
}

#[test]
fn the_aggressor_marches_into_a_field_battle_it_can_win_not_one_at_two_to_one() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 15);
    let rome = 12;
    s.turn = 2;
    // A Roman province with foreign land next to it, at war with that land's nation.
    let (from, foe) = s
        .provinces_of(rome)
        .find_map(|p| {
            m.adjacency[p].iter().find_map(|&(q, _)| {
                let o = s.provinces[q].owner;
                (o != state::NONE && o as usize != rome).then_some((p, o as usize))
            })
        })
        .unwrap();
    s.nations[rome].at_war |= 1 << foe;
    s.nations[foe].at_war |= 1 << rome;
    for p in 0..s.provinces.len() {
        for n in [rome, foe] {
            *s.army_mut(n, p) = [0; 6];
        }
    }
    for l in &mut s.leaders {
        l.province = 0;
    }
    let li = s
        .leaders
        .iter()
        .position(|l| l.nation as usize == rome)
        .unwrap();
    s.leaders[li].province = from as u16;
    s.leaders[li].leader.modifier = 1;
    s.army_mut(rome, from)[state::INF] = 30;
    let target = policy::march_target(&m, &s, rome, from).unwrap();
    assert_eq!(s.provinces[target].owner as usize, foe);
    s.army_mut(foe, target)[state::INF] = 8;
    let lf = s
        .leaders
        .iter()
        .position(|l| l.nation as usize == foe)
        .unwrap();
    s.leaders[lf].province = target as u16;
    s.leaders[lf].leader.modifier = 0;
    let (to, _, share) = m.policies[rome]
        .army_order(&m, &s, rome, from, &mut Dice::from_seed(1))
        .unwrap();
    assert_eq!(to, target);
    let marching = (30.0 * share).round() as u32;
    assert!(
        marching < 16 && marching > 8,
        "{marching} units against 8: under 2:1, so the battle can have a winner"
    );
    // Two enemy units: no column that may win has the odds, so it overruns them (24 is at
    // least the default 4 times 2) or, with a higher overrun_ratio, waits.
    s.army_mut(foe, target)[state::INF] = 2;
    let (_, _, share) = m.policies[rome]
        .army_order(&m, &s, rome, from, &mut Dice::from_seed(1))
        .unwrap();
    assert_eq!(share, 0.8);
    let patient = model("rome = { policy = \"aggressor\", overrun_ratio = 20.0 }");
    assert!(patient.policies[rome]
        .army_order(&patient, &s, rome, from, &mut Dice::from_seed(1))
        .is_none());
}

#[test]
fn recruitment_leaves_the_turns_upkeep_paid() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 16);
    let rome = 12;
    s.nations[rome].goods = [1_500, 100, 100, 10];
    s.nations[rome].at_war |= 1 << 5;
    s.historical_period = true;
    let a = s.units_by_class(rome);
    let standing = 2 * (a[0] + a[1] + a[2] + a[3]) as i64
        + 3 * (a[4] + a[5]) as i64
        + s.nations[rome].fleets as i64;
    let r = m.policies[rome].recruit(&m, &s, rome, &mut Dice::from_seed(1));
    let cost = (5 + 10) * r.infantry as i64
        + (15 + 10) * r.cavalry as i64
        + (45 + 15) * r.mercenary_cavalry as i64
        + 5 * standing;
    assert!(r.infantry + r.mercenary_cavalry > 0, "{r:?}");
    assert!(
        cost <= 1_500,
        "{r:?} and five years of upkeep cost {cost} T"
    );
}

#[test]
fn forced_peace_counts_years_so_a_historical_period_uses_up_five() {
    let (m, mut s) = at_start(17);
    let (victor, loser) = (12, 5);
    s.turn = 3;
    s.year = 3;
    s.nations[victor].at_war |= 1 << loser;
    s.nations[loser].at_war |= 1 << victor;
    s.treaty(&m, victor, loser, false, &mut NoLog);
    for n in [victor, loser] {
        s.nations[n].stability = 3;
    }
    // Turn 4 is a Historical Period: years 4 to 8, all under the five years of forced peace.
    s.turn = 4;
    s.year = 4;
    assert!(!s.may_declare_war(victor, loser));
    // Turn 5 begins in year 9: the forced peace (years 4-8) is over.
    s.turn = 5;
    s.year = 9;
    assert!(s.may_declare_war(victor, loser));
    assert!(s.may_declare_war(loser, victor));
}

#[test]
fn occupied_cities_go_back_to_their_owners_when_hostilities_end() {
    let (m, mut s) = at_start(18);
    let (rome, foe) = (12, 5);
    s.turn = 3;
    s.nations[rome].at_war |= 1 << foe;
    s.nations[foe].at_war |= 1 << rome;
    // No troops anywhere, so nothing is ceded and the war may die out.
    for n in 0..s.nations.len() {
        s.disband_armies(n);
    }
    let theirs = s.provinces_of(foe).next().unwrap();
    let ours = s.provinces_of(rome).next().unwrap();
    for (p, by) in [(theirs, rome), (ours, foe)] {
        s.provinces[p].occupier = by as u8;
        s.provinces[p].occupation_vp = true;
        s.provinces[p].garrison = 1;
    }
    let quiet = s.clone();
    // A surrender: the loser's occupation VP go, the victor keeps its own.
    let mut plain = s.clone();
    plain.provinces[ours].occupation_vp = false;
    s.treaty(&m, rome, foe, false, &mut NoLog);
    plain.treaty(&m, rome, foe, false, &mut NoLog);
    for p in [theirs, ours] {
        assert_eq!(s.provinces[p].occupier, state::NONE, "{}", m.code(p));
        assert_eq!(s.provinces[p].garrison, 0);
    }
    assert_eq!(s.nations[foe].vp, plain.nations[foe].vp - 5);
    assert_eq!(s.nations[rome].vp, plain.nations[rome].vp);
    // A war that dies out: both occupiers hand back and lose the VP.
    let mut s = quiet;
    let vp = [s.nations[rome].vp, s.nations[foe].vp];
    s.war_activity.fill(0);
    s.quiet_wars_end(&m, &mut NoLog);
    assert!(!s.at_war(rome, foe));
    assert_eq!(s.provinces[theirs].occupier, state::NONE);
    assert_eq!(s.provinces[ours].occupier, state::NONE);
    assert_eq!(
        [s.nations[rome].vp, s.nations[foe].vp],
        [vp[0] - 5, vp[1] - 5]
    );
}

#[test]
fn grain_and_resources_bought_from_independents_arrive_next_turn() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 19);
    let rome = 12;
    s.turn = 2;
    s.nations[rome].stability = 0;
    s.nations[rome].goods = [2_000, 0, 0, 0];
    let mut dice = Dice::from_seed(1);
    s.buy_from_independents(&m, &m.policies, &mut dice, &mut NoLog);
    let bought = s.nations[rome].on_order;
    assert!(bought[G] > 0 && bought[scenario::R] > 0, "{bought:?}");
    assert_eq!(
        s.nations[rome].goods[T],
        2_000 - 10 * (bought[G] + bought[scenario::R]) - 25 * bought[scenario::CB]
    );
    let before = s.nations[rome].goods;
    s.turn = 3;
    s.economic_phase(&m, &mut economy::Scratch::default(), &mut NoLog);
    assert_eq!(s.nations[rome].on_order, [0; 4]);
    assert!(s.nations[rome].goods[scenario::R] >= before[scenario::R] + bought[scenario::R]);
}

#[test]
fn goods_change_hands_only_between_commercial_allies() {
    let keys = [
        "gauls", "carthage", "egypt", "seleucid", "armenia", "pergamon", "pontus", "bosporus",
        "dacians", "germans", "illyria", "macedon", "rome",
    ];
    let policies: String = keys.iter().map(|k| format!("{k} = \"random\"\n")).collect();
    let m = model(&policies);
    let mut s = start(&m, 20);
    let total = |s: &State| -> [i64; 4] {
        let mut t = [0; 4];
        for n in &s.nations {
            for k in 0..4 {
                t[k] += n.goods[k];
            }
        }
        t
    };
    let mut dice = Dice::from_seed(2);
    for n in 0..s.nations.len() {
        s.nations[n].commercial = 0;
        s.nations[n].goods = [100; 4];
    }
    let start_goods: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    for _ in 0..50 {
        s.give_goods(&m, &m.policies, &mut dice, &mut NoLog);
    }
    let now: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    assert_eq!(now, start_goods, "no alliance, no gifts");
    for n in 0..s.nations.len() {
        s.nations[n].commercial = 0x1fff & !(1 << n);
    }
    let sum = total(&s);
    for _ in 0..50 {
        s.give_goods(&m, &m.policies, &mut dice, &mut NoLog);
    }
    assert_eq!(total(&s), sum, "gifts neither make nor lose goods");
    let now: Vec<_> = s.nations.iter().map(|n| n.goods).collect();
    assert_ne!(now, start_goods, "allies gave goods");
}

#[test]
fn at_peace_unfed_cities_take_back_disbanded_regulars_as_ppr() {
    let m = model("rome = \"aggressor\"");
    let mut s = start(&m, 21);
    let rome = 12;
    s.turn = 2;
    s.nations[rome].at_war = 0;
    s.nations[rome].goods = [0, 0, 0, 0];
    // Every Roman city short of PPR: the PPU above the PPR outrun the harvests.
    for k in 0..s.owned[rome].len() {
        let p = s.owned[rome][k] as usize;
        s.provinces[p].ppr = 1;
        s.provinces[p].ppu = s.provinces[p].harvests + 4;
        *s.army_mut(rome, p) = [3, 0, 0, 0, 2, 0];
    }
    let (ledger, units) = (s.units_ledger, s.total_units(rome));
    let ppr: u32 = s.provinces_of(rome).map(|p| s.provinces[p].ppr).sum();
    s.population_changes(&m, &m.policies, &mut Dice::from_seed(1));
    let disbanded = units - s.total_units(rome);
    assert!(disbanded > 0);
    assert_eq!(s.units_ledger, ledger - disbanded as i64);
    let now: u32 = s.provinces_of(rome).map(|p| s.provinces[p].ppr).sum();
    assert_eq!(now, ppr + disbanded, "each disbanded unit is a PPR");
    for p in s.provinces_of(rome) {
        assert_eq!(
            s.army(rome, p)[state::MINF],
            2,
            "mercenaries cannot be disbanded"
        );
    }
}

#[test]
fn a_war_across_the_sea_is_a_target_and_armies_cross_with_supremacy() {
    let m = model("rome = \"aggressor\"\ncarthage = \"aggressor\"");
    let mut s = start(&m, 22);
    let (carthage, rome) = (1, 12);
    assert_eq!(
        m.neighbours[rome] & (1 << carthage),
        0,
        "no land between them"
    );
    assert_ne!(m.sea_neighbours[rome] & (1 << carthage), 0);
    s.turn = 2;
    s.refresh_port_seas();
    // Ten fleets more than Carthage's make it a target; fewer do not.
    s.nations[carthage].fleets = 5;
    s.nations[rome].fleets = 14;
    assert!(!policy::reachable(&m, &s, rome, carthage));
    s.nations[rome].fleets = 15;
    assert!(policy::reachable(&m, &s, rome, carthage));
    // At war, Rome's fleet goes to a sea both open on.
    s.nations[rome].at_war |= 1 << carthage;
    s.nations[carthage].at_war |= 1 << rome;
    s.nations[carthage].fleet_sea = state::NONE;
    let sea = m.policies[rome].fleet_sea(&m, &s, rome, &mut Dice::from_seed(1)) as usize;
    assert_ne!(m.home_seas[rome] & m.home_seas[carthage] & (1 << sea), 0);
    // With supremacy there, the army at a port on that sea marches on a Carthaginian city.
    let seas = m.scenario.seas.len();
    s.fleets_at_sea.fill(0);
    s.fleets_at_sea[rome * seas + sea] = 15;
    s.fleets_generation = searches::fresh_generation();
    let from = s
        .provinces_of(rome)
        .find(|&p| s.provinces[p].ports & (1 << sea) != 0)
        .unwrap();
    for n in 0..s.nations.len() {
        s.disband_armies(n);
    }
    s.army_mut(rome, from)[state::INF] = 10;
    let target = policy::march_target(&m, &s, rome, from).unwrap();
    assert_eq!(s.provinces[target].owner as usize, carthage);
    let route = m.route(&s, rome, from, target, &mut RouteScratch::default());
    assert!(route.is_some_and(|r| r.steps().iter().any(|st| st.2.is_none())));
    // Without supremacy no route crosses the sea (a long way round by land may remain).
    s.fleets_at_sea.fill(0);
    s.fleets_generation = searches::fresh_generation();
    if let Some(t) = policy::march_target(&m, &s, rome, from) {
        let route = m.route(&s, rome, from, t, &mut RouteScratch::default());
        assert!(route.is_none_or(|r| r.steps().iter().all(|st| st.2.is_some())));
    }
}

#[test]
fn at_peace_an_aggressor_hires_only_with_five_turns_of_upkeep_in_hand() {
    let m = model("carthage = \"aggressor\"");
    let mut s = start(&m, 23);
    let carthage = 1;
    s.turn = 2;
    s.nations[carthage].at_war = 0;
    let a = s.units_by_class(carthage);
    let upkeep = 2 * (a[0] + a[1] + a[2] + a[3]) as i64
        + 3 * (a[4] + a[5]) as i64
        + s.nations[carthage].fleets as i64;
    let mut dice = Dice::from_seed(1);
    s.nations[carthage].goods = [60 + 3 * upkeep, 0, 100, 10];
    let poor = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert_eq!(
        poor.infantry + poor.cavalry + poor.mercenary_infantry,
        0,
        "{poor:?}"
    );
    s.nations[carthage].goods = [5_000, 0, 100, 10];
    let rich = m.policies[carthage].recruit(&m, &s, carthage, &mut dice);
    assert!(rich.mercenary_infantry > 0, "{rich:?}");
    // Its idle treasury also buys grades with the independents.
    s.nations[carthage].stability = 2;
    assert!(m.policies[carthage]
        .independent_action(&m, &s, carthage, &mut dice)
        .is_some());
}

#[test]
fn a_share_of_an_army_rounds_as_f64_round_does() {
    let mut shares: Vec<f64> = (0..=1000).map(|k| k as f64 / 1000.0).collect();
    shares.extend([
        0.5,
        0.49999999999999994,
        1.0 / 3.0,
        2.0 / 3.0,
        -0.3,
        -0.7,
        f64::NAN,
    ]);
    for a in 0..300u32 {
        for &share in &shares {
            let army = [a, 0, a / 2, 1, a * 3, 7];
            let got = state::share_of(&army, share);
            for c in 0..6 {
                assert_eq!(
                    got[c],
                    (army[c] as f64 * share).round() as u32,
                    "{a} x {share}"
                );
            }
        }
    }
}

/// The army's commander is its living leader with the highest modifier, then the oldest; of
/// equals, the last listed (as before the search became a loop). Leaders of other nations, in
/// other provinces or dead never command.
#[test]
fn the_best_leader_is_the_highest_then_oldest_and_the_last_of_equals() {
    use super::state::GameLeader;
    use crate::rulesets::mare_nostrum::Leader;
    let (_, mut s) = at_start(1);
    let leader = |modifier, age, nation, province, alive| GameLeader {
        leader: Leader {
            modifier,
            age,
            historical: false,
        },
        nation,
        province,
        alive,
    };
    s.leaders = vec![
        leader(3, 60, 0, 5, false), // dead
        leader(3, 60, 1, 5, true),  // another nation
        leader(3, 60, 0, 6, true),  // another province
        leader(1, 40, 0, 5, true),
        leader(2, 25, 0, 5, true),
        leader(2, 30, 0, 5, true),
        leader(2, 30, 0, 5, true),
        leader(1, 50, 0, 5, true),
    ];
    assert_eq!(s.best_leader(0, 5), Some(6));
    s.leaders[6].alive = false;
    assert_eq!(s.best_leader(0, 5), Some(5));
    s.leaders[4].leader.age = 30;
    assert_eq!(s.best_leader(0, 5), Some(5));
    assert_eq!(s.best_leader(0, 7), None);
    assert_eq!(s.best_leader(2, 5), None);
}

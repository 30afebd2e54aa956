//! Army supply (digest §4.4, L2084-L2122; §3.7's -3, L5575): the carried food and a convoy's
//! arithmetic by hand, the 3-month run of hunger with its winter months, the two readings of
//! option army_supply, a convoy's price and pace, the convoys lost to a victor, and whole games in
//! which every major's scripted army campaigns without starving.

use super::battles::Fought;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, CAB, CAM, COM, DEN, MAD, POB};
use super::state::{Mission, State, NO_UNITS};
use super::supply::{self, CONVOY_LOAD};
use super::Game;
use crate::game::GameModel;
use crate::rulesets::mediterraneo_sanguinolento::interception::land_modifier;

/// `c`'s field army of `units` of its first kind standing in `at` on `mission`, nothing carried.
pub(super) fn army(g: &Game, c: CountryId, units: f64, at: CountryId, mission: Mission) -> State {
    let mut st = g.start.clone();
    let n = &mut st.nations[c as usize];
    n.field = NO_UNITS;
    n.field[0] = units;
    n.at = at;
    n.mission = mission;
    st
}

/// `c`'s army of `units` in its first month of siege of `t`.
fn besieging(g: &Game, c: CountryId, units: f64, t: CountryId) -> State {
    army(
        g,
        c,
        units,
        t,
        Mission::Siege {
            target: t,
            months: 0,
        },
    )
}

fn plans(g: &Game, p: Scripted) -> Vec<Scripted> {
    vec![p; g.scenario.countries.len()]
}

/// Two nodes: Esparta's home and a neighbour it does not hold.
fn esparta_and_atenas(g: &Game) -> (CountryId, CountryId) {
    (country(g, "Esparta"), country(g, "Atenas"))
}

#[test]
fn need_and_capacity_are_1_com_per_200_men_and_5000_a_convoy() {
    let g = scripted_game();
    let (c, t) = esparta_and_atenas(&g);
    let men = g.men_per_unit(c)[0];
    // Enough units for 2,100 men (or the nearest above): need rounds up, the backs' load down.
    let units = (2100.0 / men).ceil();
    let total = units * men;
    let mut st = army(&g, c, units, t, Mission::March { target: t });
    assert_eq!(
        supply::monthly_need(&g, &st, c),
        (total / 200.0).ceil() as i64
    );
    assert_eq!(supply::capacity(&g, &st, c), (total / 200.0).floor() as i64);
    st.nations[c as usize].supply.convoys = 2;
    assert_eq!(
        supply::capacity(&g, &st, c),
        (total / 200.0).floor() as i64 + 10_000
    );
    assert_eq!(CONVOY_LOAD, 5_000);
}

#[test]
fn an_army_abroad_eats_what_it_carries_not_the_home_stock() {
    let g = scripted_game();
    let (c, t) = esparta_and_atenas(&g);
    let p = plans(&g, Scripted::defaults());
    let mut st = besieging(&g, c, 20.0, t);
    st.nations[c as usize].stock[COM] = 10_000;
    let need = supply::monthly_need(&g, &st, c);
    st.nations[c as usize].supply.food = need + need / 2;
    supply::month(&g, &mut st, &p, false);
    assert_eq!(st.nations[c as usize].unsupplied, 0.0);
    assert_eq!(st.nations[c as usize].supply.food, need / 2);
    assert_eq!(
        st.nations[c as usize].stock[COM], 10_000,
        "home stock untouched"
    );
    assert_eq!(st.ledger.spent[COM], need);
    // The next month half a month's food is left: the unfed share is the rest.
    supply::month(&g, &mut st, &p, false);
    let unfed = 1.0 - (need / 2) as f64 / need as f64;
    assert!((st.nations[c as usize].unsupplied - unfed).abs() < 1e-12);
    assert_eq!(st.nations[c as usize].supply.hungry, 1);

    // Option army_supply = "home-stock": the same army eats from the home stock.
    let g = game_with(
        Policy::Scripted(Scripted::defaults()),
        &options_with("army_supply = \"home-stock\""),
    );
    let mut st = besieging(&g, c, 20.0, t);
    st.nations[c as usize].stock[COM] = 10_000;
    supply::month(&g, &mut st, &p, false);
    assert_eq!(st.nations[c as usize].unsupplied, 0.0);
    assert_eq!(st.nations[c as usize].stock[COM], 10_000 - need);
}

#[test]
fn three_non_winter_months_unfed_kill_the_unfed_share_and_winter_pauses_the_run() {
    let g = scripted_game();
    let (c, t) = esparta_and_atenas(&g);
    let mut st = besieging(&g, c, 40.0, t);
    let men = State::men(&st.nations[c as usize].field, &g.men_per_unit(c));
    // Unfed, unfed, winter, unfed: the third counted month kills a quarter.
    for (winter, hungry) in [(false, 1), (false, 2), (true, 2)] {
        supply::starve(&g, &mut st, c, 0.25, winter);
        assert_eq!(st.nations[c as usize].supply.hungry, hungry);
        assert_eq!(st.nations[c as usize].field[0], 40.0);
    }
    supply::starve(&g, &mut st, c, 0.25, false);
    assert_eq!(st.nations[c as usize].field[0], 30.0);
    assert!((st.ledger.men_lost - men / 4.0).abs() < 1e-9);
    assert_eq!(st.nations[c as usize].supply.hungry, 0);
    // A fed month ends the run.
    supply::starve(&g, &mut st, c, 0.5, false);
    supply::starve(&g, &mut st, c, 0.5, false);
    supply::starve(&g, &mut st, c, 0.0, false);
    supply::starve(&g, &mut st, c, 0.5, false);
    assert_eq!(st.nations[c as usize].supply.hungry, 1);
    assert_eq!(st.nations[c as usize].field[0], 30.0);
}

#[test]
fn a_convoy_costs_its_price_slows_the_army_to_8_pm_and_costs_3_intercepting() {
    let g = scripted_game();
    let (c, t) = esparta_and_atenas(&g);
    let p = plans(&g, Scripted::defaults());
    let mut st = army(&g, c, 20.0, c, Mission::March { target: t });
    let s = &mut st.nations[c as usize].stock;
    (s[POB], s[DEN], s[CAB], s[CAM], s[MAD], s[COM]) = (60, 60, 50, 100, 250, 5_000);
    let before = st.nations[c as usize].stock;
    let mut with_convoy = st.clone();
    with_convoy.nations[c as usize].supply.convoys = 1;
    let there = supply::months_to_target(&g, &with_convoy, c);
    assert!(there >= 1);
    let (raised, spent) = (st.ledger.men_raised, st.ledger.spent);
    assert_eq!(supply::pace(&g, &st, c, 10), 10);
    supply::month(&g, &mut st, &p, false);
    let n = &st.nations[c as usize];
    assert_eq!(
        n.supply.convoys, 1,
        "one convoy, as the default policy wants"
    );
    // CAB short of 100: camels.
    for (r, v) in [(POB, 50), (DEN, 50), (CAM, 100), (MAD, 200), (CAB, 0)] {
        assert_eq!(before[r] - n.stock[r], v, "resource {r}");
        assert_eq!(st.ledger.spent[r] - spent[r], v, "resource {r}");
    }
    assert_eq!(st.ledger.men_raised - raised, 50.0);
    assert_eq!(supply::convoy_men(&st, c), 50.0);
    assert_eq!(supply::pace(&g, &st, c, 10), 8);
    assert_eq!(supply::pace(&g, &st, c, 6), 6);
    assert!(supply::has_convoy(&g, &st, c));
    assert_eq!(
        land_modifier(1, false, supply::has_convoy(&g, &st, c), true, 2),
        land_modifier(1, false, false, true, 2) - 3
    );
    // It loaded its policy's months of food at the target, the march there and back and the
    // margin from the stock (a transfer, not a spending), leaving the population's next
    // half-yearly feeding and the yearly army food.
    let d = Scripted::defaults();
    let months = d.carried_months as i64 + 2 * there + d.supply_margin as i64;
    let want = supply::monthly_need(&g, &st, c) * months;
    let feeding = n.pob_collected / 20 + super::economy::army_food(&st, c);
    let loaded = want.min(5_000 - feeding);
    assert_eq!(n.supply.food, loaded);
    assert_eq!(n.stock[COM], 5_000 - loaded);
    assert_eq!(st.ledger.spent[COM], spent[COM]);
    // Not affordable a second time, and none wanted: nothing more is bought.
    supply::month(&g, &mut st, &p, false);
    assert_eq!(st.nations[c as usize].supply.convoys, 1);
    // Idle at home, the food goes back to the stock.
    st.nations[c as usize].mission = Mission::Idle;
    supply::month(&g, &mut st, &p, false);
    assert_eq!(st.nations[c as usize].supply.food, 0);
    assert_eq!(st.nations[c as usize].stock[COM], 5_000);
}

fn fought(winner: usize) -> Fought {
    Fought {
        winner: Some(winner),
        ..Fought::default()
    }
}

#[test]
fn a_beaten_army_abroad_loses_its_convoys_and_their_food_to_the_victor() {
    let g = scripted_game();
    let (c, t) = esparta_and_atenas(&g);
    let o = st_owner(&g, t);
    // The marcher (side 0) beaten in Atenas by its holder standing at home: the food goes into
    // the holder's stock.
    let mut st = army(&g, c, 20.0, t, Mission::March { target: t });
    st.nations[c as usize].supply.convoys = 1;
    st.nations[c as usize].supply.food = 6_000;
    let backs = supply::capacity(&g, &st, c) - CONVOY_LOAD;
    let stock = st.nations[o as usize].stock[COM];
    let men_lost = st.ledger.men_lost;
    supply::beaten(&g, &mut st, [c, o], &fought(1), None);
    assert_eq!(st.nations[c as usize].supply.convoys, 0);
    assert_eq!(st.nations[o as usize].stock[COM], stock + 5_000);
    assert_eq!(st.nations[c as usize].supply.food, backs.min(1_000));
    assert_eq!(st.ledger.spent[COM], (1_000 - backs).max(0));
    assert_eq!(st.ledger.men_lost - men_lost, 50.0);
    assert_eq!(st.counts.convoys_lost, 1);

    // The victor abroad takes the food into what it carries, up to what it can carry.
    let mut st = army(&g, c, 20.0, t, Mission::March { target: t });
    st.nations[c as usize].supply.convoys = 1;
    st.nations[c as usize].supply.food = 300;
    st.nations[o as usize].at = c;
    st.nations[o as usize].field = NO_UNITS;
    st.nations[o as usize].field[0] = 20.0;
    let room = supply::capacity(&g, &st, o);
    supply::beaten(&g, &mut st, [c, o], &fought(1), None);
    assert_eq!(st.nations[o as usize].supply.food, room.min(300));
    // A winning marcher, or an army beaten on its own lands, keeps its convoys.
    let mut st = army(&g, c, 20.0, c, Mission::Idle);
    st.nations[c as usize].supply.convoys = 1;
    supply::beaten(&g, &mut st, [o, c], &fought(0), None);
    assert_eq!(st.nations[c as usize].supply.convoys, 1);
}

fn st_owner(g: &Game, t: CountryId) -> CountryId {
    g.start.lands[t as usize].owner
}

#[test]
fn scripted_armies_buy_convoys_campaign_and_hardly_starve() {
    // Hunger still kills where the rules leave no choice (an army whose home fell, an army that
    // lost its convoys to a victor far from home), never for want of a convoy or of a turn home.
    let g = scripted_game();
    let (mut bought, mut starved, mut lost, mut conquests) = (0.0, 0.0, 0.0, 0.0);
    let col = |name: &str| g.game_columns().iter().position(|c| *c == name).unwrap();
    let (bought_col, starved_col, conquests_col) =
        (col("convoys_bought"), col("starved_men"), col("conquests"));
    play_checked(&g, 11, 40, "supply", |_, play, r| {
        bought += r.extra[bought_col];
        starved += r.extra[starved_col];
        conquests += r.extra[conquests_col];
        lost += play.st.ledger.men_lost;
    });
    assert!(
        conquests > 0.0 && bought > 0.0,
        "{conquests} conquests, {bought} convoys"
    );
    assert!(
        starved < 0.02 * lost,
        "{starved} men starved of {lost} lost"
    );
}

#[test]
fn the_black_market_sells_the_convoys_wood_and_horses_and_the_works_leave_them() {
    let g = scripted_game();
    let roma = country(&g, "Roma");
    let mut st = g.start.clone();
    st.nations[roma as usize].stock = [0; super::state::R];
    st.nations[roma as usize].stock[DEN] = 100_000;
    let p = Scripted {
        convoys: 2,
        market_buy: 1.0,
        market_sell: 0.0,
        recruit: 0.0,
        caravans: 0,
        ..Scripted::defaults()
    };
    // Two convoys: 400 MAD and 200 CAB lacking, 100 DEN of their own.
    assert_eq!(supply::materials_wanted(&st, roma, &p), (400, 200, 100));
    let mut ps = vec![Scripted::referee(); g.scenario.countries.len()];
    ps[roma as usize] = p;
    super::trade::phase(&g, &mut st, &ps);
    let s = st.nations[roma as usize].stock;
    assert_eq!((s[MAD], s[CAB]), (400, 200));
    assert_eq!(supply::materials_wanted(&st, roma, &p), (0, 0, 100));
    // The works do not count the convoys' wood as theirs.
    let (_, _, left) = super::works::planned_and_stock(&g, &st, roma, &p);
    assert_eq!(left[MAD], 0);
    // Without a buying policy, nothing is bought.
    let mut idle = g.start.clone();
    idle.nations[roma as usize].stock = [0; super::state::R];
    ps[roma as usize].market_buy = 0.0;
    super::trade::phase(&g, &mut idle, &ps);
    assert_eq!(idle.nations[roma as usize].stock[MAD], 0);
}

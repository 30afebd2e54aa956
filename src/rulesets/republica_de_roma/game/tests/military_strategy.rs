//! The Senate's military step (issue 19 item 5; [`super::super::strategy`]): recruitment, the
//! Proportional and All Possible Strength armies, the peace footing, proconsuls' reinforcement and
//! the Senate's parameters.

use super::*;

/// A dealt Early game made ready for the Senate's military step: every war out of the game (so
/// none is in play or Dangerous), no army, `legions` legions and `fleets` fleets in Rome,
/// `treasury` T, no event in play, and the consuls elected.
fn military_fixture(m: &Model, legions: u32, fleets: u32, treasury: i32) -> (State, Dice) {
    let (mut s, mut dice) = dealt(m, 11);
    for w in s.wars.iter_mut() {
        w.status = WarStatus::Gone;
    }
    for a in s.armies.iter_mut() {
        *a = Army::empty();
    }
    for (k, l) in s.legions.iter_mut().enumerate() {
        *l = Legion {
            at: if (k as u32) < legions {
                LegionAt::Rome
            } else {
                LegionAt::Unraised
            },
            veteran: false,
            loyal: NONE,
        };
    }
    s.fleets_rome = fleets;
    s.treasury = treasury;
    s.env = Environment::default();
    s.land_bills = [0; 3];
    s.rebel = NONE;
    {
        let mut log = NoLog;
        let mut g = Game::new(m, &mut s, &mut dice, &mut log);
        g.elect_offices(&[0, 1, 2, 3, 4], false);
    }
    (s, dice)
}

fn armies_against(s: &State, w: usize) -> Vec<Army> {
    s.armies
        .iter()
        .filter(|a| a.used && a.war == w as u8)
        .copied()
        .collect()
}

#[test]
fn recruitment_raises_the_fleets_a_naval_war_needs_before_legions() {
    let m = model("cooperative");
    let (mut s, mut dice) = military_fixture(&m, 4, 0, 150);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    let punic = war(&m, "1st_punic_war");
    g.s.wars[punic].status = WarStatus::Active;
    // 14 units affordable: 10 fleets for the 1st Punic War's fleet come first, then 4 legions.
    let afford = g.affordable(false);
    assert!(
        (10..16).contains(&afford),
        "fixture: {afford} units affordable"
    );
    g.recruit(6, 10, false);
    assert_eq!(g.s.fleets_rome, 10, "every fleet the naval battle needs");
    assert_eq!(g.s.legions_raised(), 4 + afford - 10);
}

#[test]
fn all_possible_strength_stops_at_a_modifier_of_fifteen() {
    let m = model("cooperative");
    let (mut s, mut dice) = military_fixture(&m, 0, 0, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    let syria = war(&m, "syrian_war");
    g.s.wars[syria].status = WarStatus::Active;
    assert_eq!(g.all_strength(syria), (6 + 15, 2));
    // Crisis list, last line: the weakest Active war with all possible strength, up to +15.
    g.military(true);
    let armies = armies_against(g.s, syria);
    assert_eq!(armies.len(), 1);
    assert_eq!(g.s.legions_raised(), 21, "not all 25 legions");
    assert_eq!(
        g.s.legions_at(LegionAt::Army(
            g.s.armies.iter().position(|a| a.used).unwrap() as u8
        )),
        (21, 0)
    );
}

#[test]
fn an_inactive_dangerous_war_keeps_rome_armed_and_is_attacked() {
    let m = model("cooperative");
    let punic = war(&m, "1st_punic_war");
    let punic2 = war(&m, "2nd_punic_war");
    let (mut s, mut dice) = military_fixture(&m, 20, 12, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[punic].status = WarStatus::Inactive;
    assert!(!g.dangerous(punic), "no matching card in the deck");
    g.s.wars[punic2].status = WarStatus::Deck;
    assert!(
        g.dangerous(punic),
        "the 2nd Punic War waits in the deck (L1313)"
    );
    // No Active war, but a Dangerous one in play: no peace footing (L1315); the Normal list's
    // second line sends a Proportional Army against it, which activates it.
    g.military(false);
    let armies = armies_against(g.s, punic);
    assert_eq!(armies.len(), 1, "a Proportional Army goes against it");
    assert!(armies[0].fleets >= 10, "fleets for its naval strength");
    assert_eq!(g.s.wars[punic].status, WarStatus::Active);
    assert!(g.s.legions_raised() > 10, "nothing was disbanded");
    // With an Active war beside it, the Dangerous line comes first: the Inactive 1st Punic War is
    // attacked, not the Syrian War; under the other reading (rule option dangerous_wars =
    // "active") the Syrian War is, by the third line.
    let syria = war(&m, "syrian_war");
    let (mut s, mut dice) = military_fixture(&m, 20, 12, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[punic].status = WarStatus::Inactive;
    g.s.wars[punic2].status = WarStatus::Deck;
    g.s.wars[syria].status = WarStatus::Active;
    g.military(false);
    assert_eq!(armies_against(g.s, punic).len(), 1);
    assert!(armies_against(g.s, syria).is_empty());
    let table: toml::Table = toml::from_str("dangerous_wars = \"active\"").unwrap();
    let options = Options::resolve(
        crate::rulesets::republica_de_roma::OPTIONS,
        crate::spec::Fields::new("test.toml", &table),
    )
    .unwrap();
    let mut m2 = model("cooperative");
    m2.rules = Rules::new(&options, 60);
    let (mut s, mut dice) = military_fixture(&m2, 20, 12, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m2, &mut s, &mut dice, &mut log);
    g.s.wars[punic].status = WarStatus::Inactive;
    g.s.wars[punic2].status = WarStatus::Deck;
    g.s.wars[syria].status = WarStatus::Active;
    g.military(false);
    assert!(armies_against(g.s, punic).is_empty());
    assert_eq!(g.s.wars[punic].status, WarStatus::Inactive);
    assert_eq!(armies_against(g.s, syria).len(), 1);
}

#[test]
fn with_no_war_in_play_rome_keeps_ten_legions_and_five_fleets() {
    let mut m = model("cooperative");
    let (mut s, mut dice) = military_fixture(&m, 20, 12, 1000);
    {
        let mut log = NoLog;
        let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
        g.military(false);
        assert_eq!(g.s.legions_raised(), 10);
        assert_eq!(g.s.fleets_total(), 5);
    }
    m.senate.peace_legions = 6;
    m.senate.peace_fleets = 0;
    let (mut s, mut dice) = military_fixture(&m, 20, 12, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.military(false);
    assert_eq!((g.s.legions_raised(), g.s.fleets_total()), (6, 0));
}

#[test]
fn a_proportional_army_against_a_fleet_takes_half_the_spare_fleets() {
    let m = model("cooperative");
    let punic = war(&m, "1st_punic_war");
    let (mut s, mut dice) = military_fixture(&m, 20, 20, 1000);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[punic].status = WarStatus::Active;
    g.military(false);
    let armies = armies_against(g.s, punic);
    assert_eq!(armies.len(), 1);
    // 10 fleets for its naval strength, plus half of the 10 spare (L1311).
    assert_eq!(armies[0].fleets, 15);
    let a = g.s.armies.iter().position(|a| a.used).unwrap();
    assert_eq!(g.s.legions_at(LegionAt::Army(a as u8)), (15, 0));
}

#[test]
fn proconsuls_are_reinforced_with_fleets_where_their_war_needs_them() {
    let m = model("cooperative");
    let punic = war(&m, "1st_punic_war");
    let (mut s, mut dice) = military_fixture(&m, 10, 10, 0);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[punic].status = WarStatus::Active;
    g.s.turn = 5;
    // A proconsul sent last turn with 5 legions and only the 5 fleets of support: the war's fleet
    // (10) is still to be beaten.
    let proconsul = (0..g.s.senators.len())
        .find(|&i| g.s.senators[i].in_rome() && g.s.senators[i].office == Office::None)
        .unwrap();
    g.s.armies[0] = Army {
        used: true,
        commander: proconsul as u8,
        moh: NONE,
        war: punic as u8,
        fleets: 5,
        sent_turn: 4,
        victorious: false,
    };
    g.s.senators[proconsul].at = At::Army(0);
    for l in g.s.legions.iter_mut().take(5) {
        l.at = LegionAt::Army(0);
    }
    g.military(false);
    assert!(
        g.s.armies[0].fleets > 5,
        "fleets {} after reinforcement",
        g.s.armies[0].fleets
    );
    assert!(g.s.legions_at(LegionAt::Army(0)).0 > 5);
}

#[test]
fn two_wars_are_fought_when_one_budget_covers_them_whichever_they_are() {
    let m = model("cooperative");
    let big = war(&m, "2nd_punic_war");
    let syria = war(&m, "syrian_war");
    let illyria = war(&m, "2nd_illyrian_war");
    // Rome has the legions and fleets for the two small wars (6 + 4 legions, 2 + 2 fleets) but not
    // for the 2nd Punic War (15 legions, 5 fleets), and no money to raise more.
    let (mut s, mut dice) = military_fixture(&m, 10, 4, 0);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    for w in [big, syria, illyria] {
        g.s.wars[w].status = WarStatus::Active;
    }
    g.military(false);
    assert_eq!(armies_against(g.s, syria).len(), 1, "the Syrian War");
    assert_eq!(
        armies_against(g.s, illyria).len(),
        1,
        "the 2nd Illyrian War"
    );
    assert!(armies_against(g.s, big).is_empty());
}

#[test]
fn the_budget_pays_for_legions_and_fleets_once() {
    let m = model("cooperative");
    let syria = war(&m, "syrian_war");
    // The Syrian War needs 6 legions and 2 fleets: 8 units, 80 T. Rome can afford 7.
    let (mut s, mut dice) = military_fixture(&m, 0, 0, 0);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[syria].status = WarStatus::Active;
    let due = g.expenses_due() + 14;
    g.s.treasury = 70 + (due - 100 + m.senate.reserve).max(0);
    assert_eq!(g.affordable(false), 7);
    g.military(false);
    assert!(
        armies_against(g.s, syria).is_empty(),
        "a Proportional Army it cannot pay for is not sent"
    );
    // The Dominant player raises toward it all the same, fleets first (L1315).
    assert_eq!((g.s.fleets_rome, g.s.legions_raised()), (2, 5));
    assert!(g.s.treasury >= (g.expenses_due() - 100 + m.senate.reserve).max(0));
}

#[test]
fn the_dominant_player_may_keep_the_money_when_the_strategy_cannot_be_carried_out() {
    let mut m = model("cooperative");
    m.senate.shortfall_recruit = 0.0;
    let syria = war(&m, "syrian_war");
    let (mut s, mut dice) = military_fixture(&m, 0, 0, 70);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[syria].status = WarStatus::Active;
    g.military(false);
    assert_eq!((g.s.fleets_rome, g.s.legions_raised()), (0, 0));
    assert_eq!(g.s.treasury, 70);
}

#[test]
fn revenue_leaves_the_treasury_its_reserve_out_of_senators_and_faction_treasuries() {
    let m = model("cooperative");
    let (mut s, mut dice) = dealt(&m, 5);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    for w in g.s.wars.iter_mut() {
        w.status = WarStatus::Gone;
    }
    for p in g.s.provinces.iter_mut() {
        p.status = ProvinceStatus::NotCreated;
    }
    for k in 0..4 {
        g.s.wars[k].status = WarStatus::Active;
    }
    // 80 T of war costs and the legions' upkeep against 100 T of income and an empty Treasury.
    g.s.treasury = 0;
    for sen in g.s.senators.iter_mut() {
        sen.talents = 0;
        sen.knights = 0;
    }
    for c in g.s.concessions.iter_mut() {
        *c = ConcessionStatus::Deck;
    }
    g.s.factions[0].treasury = 200;
    let before = g.s.money();
    g.redistribute();
    assert_eq!(g.s.money(), before, "a transfer, not income");
    assert!(g.s.factions[0].treasury < 200, "the faction treasury helps");
    let due = g.expenses_due();
    g.revenue();
    assert!(g.end.is_none());
    assert!(
        g.s.treasury >= m.senate.reserve,
        "Treasury {} after expenses of {due}: an Evil Omens would bankrupt Rome",
        g.s.treasury
    );
}

#[test]
fn senate_parameters_are_read_from_the_game_table_and_checked() {
    use crate::game::GameSetup;
    use crate::spec::Fields;
    let build = |text: &str| {
        let table: toml::Table = toml::from_str(text).unwrap();
        let setup = GameSetup {
            source: "exp.toml",
            fields: Fields::new("exp.toml", &table),
            options: Options::defaults(crate::rulesets::republica_de_roma::OPTIONS),
        };
        build(&setup).map(|m| m.describe().join("\n"))
    };
    let text = build("[senate]\nreserve = 20\nsurplus_share = 0.25\npeace_legions = 8\n").unwrap();
    assert!(
        text.contains("reserve 20 T") && text.contains("surplus_share 0.25"),
        "{text}"
    );
    assert!(build("").unwrap().contains(
        "reserve 50 T, surplus_share 0.5, max_modifier +15, peace_legions 10, peace_fleets 5"
    ));
    let e = build("[senate]\nreserve = -5\n").err().unwrap().to_string();
    assert!(
        e.contains("exp.toml")
            && e.contains("senate.reserve")
            && e.contains("-5")
            && e.contains("0 to 1000"),
        "{e}"
    );
    let e = build("[senate]\nreserv = 5\n").err().unwrap().to_string();
    assert!(e.contains("senate.reserv") && e.contains("reserve"), "{e}");
    let e = build("[senate]\nsurplus_share = 2\n")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("senate.surplus_share") && e.contains("0 to 1"),
        "{e}"
    );
}

#[test]
fn a_matching_war_is_attacked_only_with_the_active_ones_before_it() {
    let m = model("cooperative");
    let first = war(&m, "1st_illyrian_war");
    let second = war(&m, "2nd_illyrian_war");
    // Both Active, so doubled: the 1st needs 10 legions, the 2nd 8. Rome has 8 and no money.
    let (mut s, mut dice) = military_fixture(&m, 8, 3, 0);
    let mut log = NoLog;
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[first].status = WarStatus::Active;
    g.s.wars[second].status = WarStatus::Active;
    assert_eq!((g.strength(first).0, g.strength(second).0), (10, 8));
    g.military(false);
    assert!(
        armies_against(g.s, second).is_empty(),
        "not the 2nd Illyrian War without the 1st (L380)"
    );
    // With an army already fighting the 1st, the 2nd may be attacked.
    let (mut s, mut dice) = military_fixture(&m, 8, 3, 0);
    let mut g = Game::new(&m, &mut s, &mut dice, &mut log);
    g.s.wars[first].status = WarStatus::Active;
    g.s.wars[second].status = WarStatus::Active;
    g.s.armies[7] = Army {
        used: true,
        commander: NONE,
        moh: NONE,
        war: first as u8,
        fleets: 0,
        sent_turn: 0,
        victorious: false,
    };
    g.military(false);
    assert_eq!(armies_against(g.s, second).len(), 1);
}

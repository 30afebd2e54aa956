//! Tests of spreading the word (digest §4.5.9 method 2, L4536; `word.rs`): the arrivals, a unit's
//! price at morale C +25% by hand, the units raised within each bound, the morale mix, the
//! policy's reserve, and whole games keeping the invariants.

use super::economy;
use super::game_tests::{country, game_with, options_with, play_checked, scripted_game};
use super::policy::{Policy, Scripted};
use super::scenario::{CountryId, DEN, POB};
use super::special::{self, MORALES};
use super::state::State;
use super::word;
use super::Game;

fn spreader(share: f64) -> Scripted {
    Scripted {
        spread_word: share,
        ..Scripted::defaults()
    }
}

fn plans(g: &Game, c: CountryId, p: Scripted) -> Vec<Scripted> {
    let mut plans = vec![Scripted::referee(); g.scenario.countries.len()];
    plans[c as usize] = p;
    plans
}

/// Cartago (not a special population: its kinds' own morale) with plenty of every resource.
fn rich(g: &Game, c: CountryId) -> State {
    let mut st = g.start.clone();
    for r in 0..st.nations[c as usize].stock.len() {
        if r != POB {
            st.nations[c as usize].stock[r] += 1_000_000;
        }
    }
    st
}

#[test]
fn a_word_recruit_costs_its_morale_c_price_and_a_quarter() {
    let g = scripted_game();
    let c = country(&g, "Cartago");
    assert_eq!(
        word::arriving(&g, c),
        200 * g.neighbours[c as usize].len() as i64
    );
    assert!(word::arriving(&g, c) > 0);
    let k = word::kind_index(&g, c).unwrap();
    let kinds = &g.kinds[c as usize][..g.nkinds[c as usize] as usize];
    assert!(kinds.iter().all(|x| x.factor <= kinds[k].factor));
    let kind = &kinds[k];
    let base = kind.cost[DEN] - special::morale_cost(kind, kind.morale);
    let at_c = base + special::morale_cost(kind, word::MORALE);
    // +25%, rounded up: by hand.
    assert_eq!(word::unit_den(&g, c, k), (at_c * 5 + 3) / 4);
}

#[test]
fn the_word_raises_what_arrives_within_its_bounds() {
    let g = scripted_game();
    let c = country(&g, "Cartago");
    let k = word::kind_index(&g, c).unwrap();
    let kind = g.kinds[c as usize][k];
    let mut st = rich(&g, c);
    let p = spreader(1.0);
    let arrivals = word::arriving(&g, c) / kind.cost[POB];
    let n = word::units(&g, &st, c, k, &p);
    assert_eq!(n, arrivals.min(economy::feedable(&g, &st, c, k)));
    assert!(n > 0);
    let before = st.clone();
    word::purchases(&g, &mut st, &plans(&g, c, p));
    let (a, b) = (&before.nations[c as usize], &st.nations[c as usize]);
    assert_eq!(b.training[k] - a.training[k], n as f64);
    assert_eq!(a.stock[DEN] - b.stock[DEN], word::unit_den(&g, c, k) * n);
    assert_eq!(b.stock[POB], a.stock[POB], "the men come from abroad");
    assert_eq!(
        st.ledger.men_raised - before.ledger.men_raised,
        n as f64 * kind.men
    );
    assert_eq!(st.counts.word_units, n as f64);
    // Morale C mixed into the kind's classes: the new share of C is the recruits' part.
    let own = before.all_units(c)[k];
    let old = special::shares(&kind, &a.mix[k]);
    let share_c = (old[word::MORALE] * own + n as f64) / (own + n as f64);
    assert!((b.mix[k][word::MORALE] - share_c).abs() < 1e-12);
    let total: f64 = (0..MORALES).map(|m| b.mix[k][m]).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // The policy's share of the spare DEN, wages kept back: half the share, about half the DEN.
    let mut poor = rich(&g, c);
    let keep = economy::den_to_keep(&g, &poor, c, &p);
    let per = word::unit_den(&g, c, k) + economy::wage(kind.cost[DEN]);
    poor.nations[c as usize].stock[DEN] = keep + 3 * per;
    let bound = arrivals.min(economy::feedable(&g, &poor, c, k));
    assert_eq!(word::units(&g, &poor, c, k, &p), bound.min(3));
    assert_eq!(word::units(&g, &poor, c, k, &spreader(1.0 / 3.0)), 1);
    poor.nations[c as usize].stock[DEN] = keep;
    assert_eq!(
        word::units(&g, &poor, c, k, &p),
        0,
        "never below its reserve"
    );
    // Never more than its own units; never without its home; the default never.
    let mut few = rich(&g, c);
    let n = &mut few.nations[c as usize];
    for k in 0..n.field.len() {
        n.field[k] = 0.0;
        n.garrison[k] = 0.0;
        n.training[k] = 0.0;
    }
    n.field[0] = 2.0;
    assert!(arrivals > 2);
    assert_eq!(
        word::units(&g, &few, c, k, &p),
        2,
        "backed by as many of its own"
    );
    let mut lost = rich(&g, c);
    lost.lands[c as usize].owner = country(&g, "Roma");
    word::purchases(&g, &mut lost, &plans(&g, c, p));
    assert_eq!(lost.counts.word_units, 0.0);
    let mut off = rich(&g, c);
    word::purchases(&g, &mut off, &plans(&g, c, Scripted::defaults()));
    assert_eq!(off.counts.word_units, 0.0);
}

#[test]
fn whole_games_keep_the_invariants_while_spreading_the_word() {
    let g = game_with(Policy::Scripted(spreader(0.5)), &options_with(""));
    let mut raised = 0.0;
    play_checked(&g, 61, 30, "word", |_, play, _| {
        raised += play.st.counts.word_units;
    });
    assert!(raised > 0.0, "some major raised troops by the word");
    let g = game_with(Policy::Random, &options_with(""));
    play_checked(&g, 62, 20, "random", |_, _, _| {});
}

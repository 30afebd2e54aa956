//! The map searches and trade links the model keeps between turns are the ones a search from
//! scratch finds.

use super::*;

/// [`Model::nearest`] as a plain breadth-first search from scratch, nothing kept.
fn nearest_afresh(
    m: &Model,
    s: &State,
    n: usize,
    from: usize,
    mut wanted: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let np = s.provinces.len();
    let mut seen = vec![false; np];
    let mut queue = std::collections::VecDeque::from([from]);
    seen[from] = true;
    let supremacy = if s.fleets_at_sea.iter().any(|&f| f >= 10) {
        s.supremacy(m, n)
    } else {
        0
    };
    while let Some(p) = queue.pop_front() {
        if p != from && wanted(p) {
            return Some(p);
        }
        if p != from && !s.passable(n, p) {
            continue;
        }
        let by_sea = m.port_links[p]
            .iter()
            .filter(|&&(_, shared)| {
                s.provinces[p].ports & supremacy != 0 && shared & supremacy != 0
            })
            .map(|&(q, _)| q);
        for q in m.adjacency[p].iter().map(|&(q, _)| q).chain(by_sea) {
            if !seen[q] {
                seen[q] = true;
                queue.push_back(q);
            }
        }
    }
    None
}

/// [`Model::route`] as a label-correcting search from scratch (the queue in the same order),
/// nothing kept: the steps of the path, or None.
fn route_afresh(
    m: &Model,
    s: &State,
    n: usize,
    from: usize,
    to: usize,
) -> Option<Vec<(usize, u32, Option<scenario::Border>)>> {
    let np = s.provinces.len();
    let mut cost = vec![u32::MAX; np];
    let mut prev = vec![(usize::MAX, 0, None); np];
    let mut queue = std::collections::VecDeque::from([from]);
    cost[from] = 0;
    let supremacy = s.supremacy(m, n);
    while let Some(p) = queue.pop_front() {
        let by_land = m.adjacency[p].iter().map(|&(q, b)| {
            let step = if b == scenario::Border::Plain { 1 } else { 2 };
            (q, step, Some(b))
        });
        let by_sea = m.port_links[p]
            .iter()
            .filter(|&&(_, shared)| {
                s.provinces[p].ports & supremacy != 0 && shared & supremacy != 0
            })
            .map(|&(q, _)| (q, 2, None));
        for (q, step, border) in by_land.chain(by_sea) {
            if cost[p] + step < cost[q] && (q == to || s.passable(n, q)) {
                cost[q] = cost[p] + step;
                prev[q] = (p, step, border);
                queue.push_back(q);
            }
        }
    }
    if cost[to] == u32::MAX || to == from {
        return None;
    }
    let mut path = Vec::new();
    let mut at = to;
    while at != from {
        let (p, step, border) = prev[at];
        path.push((at, step, border));
        at = p;
    }
    path.reverse();
    path.truncate(6);
    Some(path)
}

#[test]
fn kept_map_searches_are_the_searches_afresh_over_many_turns() {
    // Asked after phases that change owners, wars, passages and fleets, from the provinces the
    // armies stand in: a search kept past a change it should have noticed differs here.
    let mixes = [
        "default = \"random\"",
        "default = { policy = \"aggressor\", aggression = 1.0 }\negypt = \"naval\"",
    ];
    // The third province not `n`'s, seen nearest first (a search that collects as it goes).
    fn third<'a>(s: &'a State, n: usize, seen: &'a mut u32) -> impl FnMut(usize) -> bool + 'a {
        move |p| {
            *seen += (s.provinces[p].owner as usize != n) as u32;
            *seen == 3
        }
    }
    let mut route_checks = 0;
    let mut found = 0;
    for (i, mix) in mixes.iter().enumerate() {
        let m = model(mix);
        for g in 0..60u64 {
            let mut w = turn::Worker::new(&m);
            let mut r = GameRecord::new(13, GAME_COLUMNS.len());
            let mut scratch = RouteScratch::default();
            let mut check = |phase: turn::Phase, s: &State| {
                use turn::Phase::*;
                if !matches!(
                    phase,
                    Diplomacy | Fleets | Independents | Movement | EndOfTurn
                ) {
                    return;
                }
                for n in 0..s.nations.len() {
                    let froms = (0..s.provinces.len())
                        .filter(|&p| state::size(s.army(n, p)) > 0)
                        .take(2);
                    for from in froms {
                        let wanted = |p: usize| policy::worth_marching_on(s, n, p);
                        let target = m.nearest(s, n, from, wanted);
                        assert_eq!(
                            target,
                            nearest_afresh(&m, s, n, from, wanted),
                            "{phase:?}: nearest target of nation {n} from {from} (mix {i}, game {g})"
                        );
                        found += target.is_some() as u32;
                        let (mut a, mut b) = (0, 0);
                        assert_eq!(
                            m.nearest(s, n, from, third(s, n, &mut a)),
                            nearest_afresh(&m, s, n, from, third(s, n, &mut b)),
                            "{phase:?}: third province from {from} (mix {i}, game {g})"
                        );
                        assert_eq!(a, b);
                        let capital = s.nations[(n + 1) % s.nations.len()].capital;
                        for to in target.into_iter().chain([capital]) {
                            let kept = m.route(s, n, from, to, &mut scratch);
                            assert_eq!(
                                kept.map(|r| r.steps().to_vec()),
                                route_afresh(&m, s, n, from, to),
                                "{phase:?}: route of nation {n} from {from} to {to} (mix {i}, game {g})"
                            );
                            route_checks += 1;
                        }
                    }
                }
            };
            w.play_watched(
                &mut Dice::from_seed(50_000 + 1000 * i as u64 + g),
                &mut r,
                &mut NoObserver,
                &mut NoLog,
                &mut check,
            );
        }
    }
    assert!(
        found > 1000 && route_checks > 10_000,
        "{found} targets, {route_checks} routes"
    );
}

#[test]
fn kept_facing_trade_links_are_the_ones_found_by_a_scan_over_many_turns() {
    // One kept table asked after every phase (links are added, halved away, ceded and annexed;
    // cities change hands between), held to a plain scan for the link back.
    let m = model("default = \"random\"\nrome = \"aggressor\"\ncarthage = \"expansionist\"");
    let mut checked = 0;
    let mut faced = 0;
    for g in 0..150u64 {
        let mut w = turn::Worker::new(&m);
        let mut r = GameRecord::new(13, GAME_COLUMNS.len());
        let mut kept = economy::Facing::default();
        let mut check = |phase: turn::Phase, s: &State| {
            let owner = |c: usize| s.provinces[c].owner;
            let index = kept.update(&s.trade, owner);
            for (i, l) in s.trade.iter().enumerate() {
                let back = s.trade.iter().position(|b| {
                    owner(l.to as usize) != state::NONE
                        && b.owner == owner(l.to as usize)
                        && (b.from, b.to) == (l.to, l.from)
                });
                assert_eq!(
                    index[i],
                    back.map_or(economy::NO_LINK, |b| b as u32),
                    "{phase:?}: the link facing {l:?} (game {g})"
                );
                checked += 1;
                faced += back.is_some() as u32;
            }
        };
        w.play_watched(
            &mut Dice::from_seed(70_000 + g),
            &mut r,
            &mut NoObserver,
            &mut NoLog,
            &mut check,
        );
    }
    assert!(faced > 1000 && faced < checked, "{faced} of {checked}");
}

#[test]
fn a_kept_facing_link_goes_when_the_city_it_ends_in_changes_hands() {
    let (_, mut s) = at_start(3);
    let (carthage, rome) = (1, 12);
    let (roma, carthago) = (s.nations[rome].capital, s.nations[carthage].capital);
    s.trade = vec![
        state::TradeLink {
            owner: carthage as u8,
            from: carthago as u16,
            to: roma as u16,
            points: 4,
        },
        state::TradeLink {
            owner: rome as u8,
            from: roma as u16,
            to: carthago as u16,
            points: 3,
        },
    ];
    s.trade.sort_by_key(state::TradeLink::key);
    let mut kept = economy::Facing::default();
    let facing = |s: &State, kept: &mut economy::Facing| {
        kept.update(&s.trade, |c| s.provinces[c].owner).to_vec()
    };
    assert_eq!(
        facing(&s, &mut kept),
        [1, 0],
        "the two links face each other"
    );
    // Carthage loses its capital to Macedon: Rome's link now ends in a Macedonian city.
    s.set_owner(carthago, 11);
    assert_eq!(facing(&s, &mut kept), [1, economy::NO_LINK]);
    assert_eq!(
        facing(&s, &mut economy::Facing::default()),
        [1, economy::NO_LINK]
    );
}

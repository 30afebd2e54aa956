//! The map searches a turn asks for many times (the nearest province worth marching on, the route
//! there), kept per (nation, starting province) and used again for as long as that nation's map
//! is unchanged: the same passable provinces and naval supremacy give the same search.
//!
//! A kept search is keyed by the map it read ([`MapKey`]: the passable provinces as a mask and the
//! seas held), and that key is itself kept per nation and worked out again only when what it reads
//! changes: the owners and the fleets at sea (each known by a generation number taken afresh when
//! they change), the nation's wars, military alliances and the passages granted to it. Generation
//! numbers are unique in the process, so nothing kept can be mistaken for another map's, not even
//! in the copies of a state the search player makes for its rollouts: the searches are kept per
//! thread, for every state played on it.

use super::scenario::Border;
use super::state::State;
use super::{Model, Route, RouteScratch};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};

static GENERATIONS: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The searches kept on this thread, for every state played on it: a state's searches are
    /// found by their keys, so states (and games) share them safely, and a worker allocates the
    /// tables once per thread rather than once per chunk of games.
    static KEPT: RefCell<Searches> = RefCell::default();
}

/// A generation number no other version of any map in this process has had.
pub fn fresh_generation() -> u64 {
    GENERATIONS.fetch_add(1, Ordering::Relaxed)
}

/// What nation `n`'s map searches read, worked out again only when what they depend on changes:
/// the provinces `n` may pass through (`State::passable`: the owners, `n`'s wars and the passages
/// others grant it; an owner's change is applied in place by [`State::set_owner`]) and the seas
/// where it has naval supremacy (the fleets at sea, `n`'s wars and its military alliances).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct View {
    /// The owners' generation, `n`'s wars and the passages granted to it.
    passable_from: Option<(u64, u16, u16)>,
    /// The fleets' generation, `n`'s wars and its military alliances.
    supremacy_from: Option<(u64, u16, u16)>,
    key: MapKey,
}

/// The map as a nation's searches see it: a search kept for one key is the search for any state
/// with the same key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapKey {
    passable: [u64; 4],
    supremacy: u16,
    /// Whether some nation has ten fleets on some sea ([`Model::nearest`] counts supremacy only then).
    any_ten: bool,
}

impl MapKey {
    fn passable(&self, p: usize) -> bool {
        self.passable[p / 64] & 1 << (p % 64) != 0
    }
}

/// Owners a nation may pass through, as a mask: its own, its enemies' and those granting it passage.
fn passable_owners(n: usize, at_war: u16, passage_to: u16) -> u16 {
    1 << n | at_war | passage_to
}

impl State {
    /// The passages granted to `n`, as a mask of grantors.
    fn passage_to(&self, n: usize) -> u16 {
        let mut grantors = 0u16;
        for (o, nation) in self.nations.iter().enumerate() {
            grantors |= ((nation.passage >> n) & 1) << o;
        }
        grantors
    }

    /// Province `p` has passed to nation `owner` (the owners' generation moved from `before` to
    /// now): the kept views that were up to date see it at once.
    pub(super) fn owner_changed(&mut self, p: usize, owner: usize, before: u64) {
        let now = self.owners_generation;
        KEPT.with_borrow_mut(|kept| {
            for (n, view) in kept.views.iter_mut().enumerate() {
                let Some((generation, at_war, passage_to)) = view.passable_from else {
                    continue;
                };
                if generation != before {
                    continue;
                }
                let bit = (passable_owners(n, at_war, passage_to) >> owner) as u64 & 1;
                let word = &mut view.key.passable[p / 64];
                *word = *word & !(1 << (p % 64)) | bit << (p % 64);
                view.passable_from = Some((now, at_war, passage_to));
            }
        })
    }
}

impl Model {
    /// Nation `n`'s [`MapKey`], worked out afresh only when what it reads has changed.
    fn map_key(&self, s: &State, kept: &mut Searches, n: usize) -> MapKey {
        let nation = &s.nations[n];
        let passable_from = Some((s.owners_generation, nation.at_war, s.passage_to(n)));
        let supremacy_from = Some((s.fleets_generation, nation.at_war, nation.military));
        let view = &mut kept.views[n];
        if view.passable_from != passable_from {
            let owners = passable_owners(n, nation.at_war, s.passage_to(n)) as u32;
            let mut passable = [0u64; 4];
            for (p, pr) in s.provinces.iter().enumerate() {
                // An independent (no owner) is passable: its bit is past the 16 nations'.
                let ok = (owners | 1 << 31) >> (pr.owner as u32).min(31) & 1;
                passable[p / 64] |= (ok as u64) << (p % 64);
            }
            view.key.passable = passable;
            view.passable_from = passable_from;
        }
        if view.supremacy_from != supremacy_from {
            view.key.supremacy = self.supremacy(s, n);
            view.key.any_ten = s.fleets_at_sea.iter().any(|&f| f >= 10);
            view.supremacy_from = supremacy_from;
        }
        view.key
    }
}

/// A breadth-first walk from one province, stopped where the last question was answered and
/// resumed by the next one: the order in which it meets provinces depends on the map only, not
/// on what is looked for.
#[derive(Clone, Copy, Debug, Default)]
struct Walk {
    key: Option<MapKey>,
    /// Provinces queued so far (the first is the start) and how many of them have been expanded.
    tail: u16,
    head: u16,
    seen: [u64; 4],
}

pub type Step = (u16, u8, Option<Border>);
pub const UNREACHED: Step = (u16::MAX, 0, None);

/// The kept searches, per (nation, starting province).
#[derive(Debug, Default)]
pub struct Searches {
    provinces: usize,
    views: Vec<View>,
    walks: Vec<Walk>,
    /// `provinces` queued provinces per walk.
    queues: Vec<u8>,
    /// The map each cheapest-path table was worked out for ([`Model::route_table`]).
    tables: Vec<Option<MapKey>>,
    /// `provinces` steps per table: for each province, the one it is best reached from, the
    /// step's cost and the border crossed.
    steps: Vec<Step>,
}

impl Searches {
    fn size_for(&mut self, nations: usize, provinces: usize) {
        if self.provinces != provinces || self.views.len() != nations {
            self.provinces = provinces;
            self.views.clear();
            self.views.resize(nations, View::default());
            self.walks.clear();
            self.walks.resize(nations * provinces, Walk::default());
            self.queues.clear();
            self.queues.resize(nations * provinces * provinces, 0);
            self.tables.clear();
            self.tables.resize(nations * provinces, None);
            self.steps.clear();
            self.steps
                .resize(nations * provinces * provinces, UNREACHED);
        }
    }
}

impl Model {
    /// The nearest province (by steps through passable provinces, across seas where `n` has
    /// naval supremacy as [`Model::route`] moves) that satisfies `wanted`, which sees the
    /// provinces nearest first (so it may also collect them and stop at the k-th).
    pub fn nearest(
        &self,
        s: &State,
        n: usize,
        from: usize,
        wanted: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        KEPT.with_borrow_mut(|kept| self.nearest_kept(kept, s, n, from, wanted))
    }

    fn nearest_kept(
        &self,
        kept: &mut Searches,
        s: &State,
        n: usize,
        from: usize,
        mut wanted: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        let np = s.provinces.len();
        kept.size_for(s.nations.len(), np);
        let mut key = self.map_key(s, kept, n);
        // Supremacy counts here only once some fleet could hold a sea alone.
        if !key.any_ten {
            key.supremacy = 0;
        }
        let slot = n * np + from;
        let Searches { walks, queues, .. } = kept;
        let walk = &mut walks[slot];
        let queue = &mut queues[slot * np..(slot + 1) * np];
        if walk.key != Some(key) {
            *walk = Walk {
                key: Some(key),
                tail: 1,
                head: 0,
                seen: [0; 4],
            };
            queue[0] = from as u8;
            walk.seen[from / 64] |= 1 << (from % 64);
        }
        // The part walked before (after the start): asked again, in the same order.
        for &p in queue[..walk.head as usize].iter().skip(1) {
            if wanted(p as usize) {
                return Some(p as usize);
            }
        }
        while walk.head < walk.tail {
            let p = queue[walk.head as usize] as usize;
            if p != from && wanted(p) {
                return Some(p);
            }
            walk.head += 1;
            if p != from && !key.passable(p) {
                continue;
            }
            let mut visit = |q: usize| {
                let bit = 1u64 << (q % 64);
                if walk.seen[q / 64] & bit == 0 {
                    walk.seen[q / 64] |= bit;
                    queue[walk.tail as usize] = q as u8;
                    walk.tail += 1;
                }
            };
            for &(q, _) in &self.adjacency[p] {
                visit(q);
            }
            if s.provinces[p].ports & key.supremacy != 0 {
                for &(q, shared) in &self.port_links[p] {
                    if shared & key.supremacy != 0 {
                        visit(q);
                    }
                }
            }
        }
        None
    }

    /// The cheapest path for `n` from `from` to `to` through passable provinces (and seas it
    /// commands); None if out of reach. Only the steps one turn can cover are kept. The table of
    /// paths from `from` is kept while `n`'s map is unchanged: it does not depend on `to` when
    /// `to` itself is passable (an impassable target may be entered, so it is searched afresh).
    pub fn route(
        &self,
        s: &State,
        n: usize,
        from: usize,
        to: usize,
        scratch: &mut RouteScratch,
    ) -> Option<Route> {
        KEPT.with_borrow_mut(|kept| self.route_kept(kept, s, n, from, to, scratch))
    }

    fn route_kept(
        &self,
        kept: &mut Searches,
        s: &State,
        n: usize,
        from: usize,
        to: usize,
        scratch: &mut RouteScratch,
    ) -> Option<Route> {
        let np = s.provinces.len();
        kept.size_for(s.nations.len(), np);
        let mut map = self.map_key(s, kept, n);
        map.any_ten = false; // routes count supremacy whatever the fleets
        if !map.passable(to) {
            self.route_table(s, &map, from, to, scratch);
            return Route::read(&scratch.prev, from, to);
        }
        let slot = n * np + from;
        let Searches { tables, steps, .. } = kept;
        let table = &mut steps[slot * np..(slot + 1) * np];
        if tables[slot] != Some(map) {
            // `to` is passable, so the table is the same for every target.
            self.route_table(s, &map, from, from, scratch);
            table.copy_from_slice(&scratch.prev);
            tables[slot] = Some(map);
        }
        Route::read(table, from, to)
    }

    /// Fills `scratch.prev` with the cheapest way `n` reaches each province from `from` through
    /// passable provinces (and seas it commands) as `map` has them, `to` entered even if
    /// impassable:
    /// [`Model::route`] reads a path from it.
    fn route_table(
        &self,
        s: &State,
        map: &MapKey,
        from: usize,
        to: usize,
        scratch: &mut RouteScratch,
    ) {
        let np = s.provinces.len();
        let RouteScratch { cost, prev, queue } = scratch;
        cost.clear();
        cost.resize(np, u32::MAX);
        prev.clear();
        prev.resize(np, UNREACHED);
        queue.clear();
        cost[from] = 0;
        queue.push_back(from as u16);
        let supremacy = map.supremacy;
        while let Some(p) = queue.pop_front() {
            let p = p as usize;
            let c = cost[p];
            let mut relax =
                |q: usize, step: u32, border: Option<Border>, queue: &mut VecDeque<u16>| {
                    if c + step < cost[q] && (q == to || map.passable(q)) {
                        cost[q] = c + step;
                        prev[q] = (p as u16, step as u8, border);
                        queue.push_back(q as u16);
                    }
                };
            for &(q, b) in &self.adjacency[p] {
                relax(q, if b == Border::Plain { 1 } else { 2 }, Some(b), queue);
            }
            if s.provinces[p].ports & supremacy != 0 {
                for &(q, shared) in &self.port_links[p] {
                    if shared & supremacy != 0 {
                        relax(q, 2, None, queue);
                    }
                }
            }
        }
    }
}

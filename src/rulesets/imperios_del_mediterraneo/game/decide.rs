//! The players' decisions in a game (digest §6.3): where an expedition can go, the random and
//! the scripted players' expeditions (every candidate through the exact chain calculator), the
//! defence they predict, P2's test of an interception, and the estimate of another player's
//! hidden cards from public information. The game's turn order and rules are `turn.rs`.

use super::kept_outcomes::{kinds_word, Target};
use super::key::{self, Key};
use super::military::{self, Cards, Defence, Plan};
use super::policy::{Scripted, Style};
use super::scenario::{CITY_DEFENCE, FLEET, LEADER, TROOP};
use super::state::NEUTRAL;
use super::turn::{Play, TOP_TARGETS};
use crate::dice::Dice;

/// A way to a target ([`Play::targets`]): by land, by sea to a port, or by sea and then by land.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Way {
    pub node: usize,
    pub naval: bool,
    pub march: bool,
    /// Straits on the land legs.
    pub straits: u8,
    /// By sea: the departure port, and a march's arrival port.
    pub from: u16,
    pub arrive: u16,
    /// Optional rule 8.3: the other players' cities a land route passes.
    pub through: military::Through,
}

impl Way {
    fn land(node: usize, straits: u8) -> Way {
        Way {
            node,
            straits,
            ..Way::default()
        }
    }

    /// An expedition on this way, without cards.
    pub fn plan(&self) -> Plan {
        Plan {
            target: self.node,
            naval: self.naval,
            march: self.march,
            straits: self.straits,
            from: self.from,
            arrive: self.arrive,
            through: self.through,
            ..Plan::default()
        }
    }
}

/// Most targets [`Play::targets`] lists.
pub const MAX_TARGETS: usize = 64;

/// A player's targets ([`Play::targets`]) and the map version they were found at (0: none yet).
#[derive(Clone)]
pub struct KeptTargets {
    version: u64,
    k: usize,
    ways: [Way; MAX_TARGETS],
}

impl Default for KeptTargets {
    fn default() -> KeptTargets {
        KeptTargets {
            version: 0,
            k: 0,
            ways: [Way::default(); MAX_TARGETS],
        }
    }
}

/// A player's deck less its discard pile: the cards gone (a bit per deck card) and the cards of
/// each kind left ([`Play::unseen`]).
#[derive(Default)]
struct Unseen {
    gone: u64,
    count: [u32; military::MAX_KINDS],
}

/// A hand sorted for [`Play::scan`].
#[derive(Default)]
struct SortedHand {
    city_troops: Cards,
    area_troops: Cards,
    fleets: Cards,
    leaders: Cards,
    attack: Cards,
    /// Its Special Event cards with dice: the pacification's window (a field battle).
    battle: Cards,
}

impl Play<'_> {
    /// P2's test: intercepting lowers attacker `a`'s exact chance by at least `delta`. The
    /// attacker's cards are face down: the defender sees their counts and estimates them.
    pub(super) fn interception_pays(
        &mut self,
        a: usize,
        plan: &Plan,
        d: &Defence,
        delta: f64,
    ) -> bool {
        let s = self.s();
        let seen = self.seen_plan(a, plan);
        let without = Defence {
            intercept: Cards::default(),
            naval: Cards::default(),
            land_first: false,
            ..*d
        };
        let options = &self.game.rules.options;
        let (open, _) = self.cache.chance(s, &self.st, options, a, &seen, &without);
        let (held, _) = self.cache.chance(s, &self.st, options, a, &seen, d);
        open - held >= delta
    }

    /// Attacker `a`'s declared expedition as a defender sees it: its route and its card counts
    /// by role, the cards themselves estimated (as they are when the game is omniscient).
    pub(super) fn seen_plan(&self, a: usize, plan: &Plan) -> Plan {
        let s = self.s();
        let mut seen = *plan;
        if !self.game.omniscient {
            let troops = plan
                .cards
                .as_slice()
                .iter()
                .filter(|&&c| military::is(s, a, c, TROOP))
                .count();
            let fleets = plan.cards.len() - troops;
            seen.cards = Cards::default();
            self.estimate(a, TROOP, troops, false, &mut seen.cards);
            self.estimate(a, FLEET, fleets, false, &mut seen.cards);
        }
        seen
    }

    /// Appends to `out` an estimate of `k` hidden cards of type `t` of player `q`: the cards of
    /// its deck of that type not in its discard pile (all another player can know of them), in
    /// their proportions by kind (largest remainders), the strongest kinds first when `best`.
    pub fn estimate(&self, q: usize, t: u8, k: usize, best: bool, out: &mut Cards) {
        self.estimate_from(&self.unseen(q), q, t, k, best, out);
    }

    /// Player `q`'s deck less its discard pile, for [`Self::estimate_from`] (one pass over the
    /// pile for all the estimates of one player).
    fn unseen(&self, q: usize) -> Unseen {
        let gone = self.st.players[q]
            .discard
            .iter()
            .fold(0u64, |b, &c| b | 1u64 << c);
        self.unseen_from(q, gone)
    }

    /// Player `q`'s deck less the cards `gone` (its discard pile as bits).
    fn unseen_from(&self, q: usize, gone: u64) -> Unseen {
        let s = self.s();
        let deck = &s.decks[s.empires[q].deck];
        let mut u = Unseen {
            gone,
            ..Unseen::default()
        };
        for (count, mask) in u.count.iter_mut().zip(&deck.kind_mask) {
            *count = (mask & !gone).count_ones();
        }
        u
    }

    /// [`Self::estimate`] from `q`'s [`Self::unseen`] cards `u`.
    fn estimate_from(&self, u: &Unseen, q: usize, t: u8, k: usize, best: bool, out: &mut Cards) {
        let s = self.s();
        let deck = &s.decks[s.empires[q].deck];
        let kinds = deck.kinds.len();
        let mut count = [0u32; military::MAX_KINDS];
        for i in 0..kinds {
            if deck.kinds[i].is(t) {
                count[i] = u.count[i];
            }
        }
        let gone = u.gone;
        let total: u32 = count[..kinds].iter().sum();
        let k = k.min(total as usize);
        if k == 0 {
            return;
        }
        // Largest remainders: each kind's whole quota, then one more for the largest fractions.
        let mut take = [0u32; military::MAX_KINDS];
        let mut given = 0;
        for i in 0..kinds {
            take[i] = count[i] * k as u32 / total;
            given += take[i];
        }
        while given < k as u32 {
            let i = (0..kinds)
                .filter(|&i| take[i] < count[i])
                .max_by_key(|&i| ((count[i] * k as u32) % total, std::cmp::Reverse(i)))
                .expect("a kind with cards left");
            take[i] += 1;
            given += 1;
        }
        // The first unseen cards of each kind; the strongest kinds first when `best`, so a
        // caller taking the first few takes the best.
        let mut push_kind = |kind: usize| {
            // The kind's cards not gone, lowest first (its cards in card order).
            let mut left = deck.kind_mask[kind] & !gone;
            for _ in 0..take[kind] {
                out.push(left.trailing_zeros() as u8);
                left &= left - 1;
            }
        };
        if best {
            deck.by_field_strength.iter().for_each(|&i| push_kind(i));
        } else {
            (0..kinds).for_each(push_kind);
        }
    }

    // ---- The players' expeditions -----------------------------------------------------------

    /// Each target the player can reach and how, into `out` ([`Self::find_targets`]).
    pub(super) fn targets(&mut self, p: usize, out: &mut [Way; MAX_TARGETS]) -> usize {
        let k = self.find_targets(p);
        out[..k].copy_from_slice(&self.kept_targets[p].ways[..k]);
        k
    }

    /// Each target the player can reach and how, into `self.kept_targets[p]`; returns how many.
    /// They are a function of the map alone: kept while its version is unchanged (test builds
    /// find them anyway and check the kept ones).
    fn find_targets(&mut self, p: usize) -> usize {
        let version = self.st.map_version;
        let kept = self.kept_targets[p].version == version;
        if kept && !cfg!(test) {
            return self.kept_targets[p].k;
        }
        let mut out = [Way::default(); MAX_TARGETS];
        let k = self.list_targets(p, &mut out);
        let memo = &mut self.kept_targets[p];
        if kept {
            assert_eq!(
                memo.ways[..memo.k],
                out[..k],
                "seat {p}: map version {version} stale"
            );
        }
        memo.version = version;
        memo.k = k;
        memo.ways[..k].copy_from_slice(&out[..k]);
        k
    }

    /// Each target the player can reach and how: by land; by sea to a port; by sea and then by
    /// land (a march from another own port) where that crosses fewer straits than by land
    /// alone (or reaches what land alone does not), a port excepted (the sea reaches it).
    fn list_targets(&mut self, p: usize, out: &mut [Way; MAX_TARGETS]) -> usize {
        let s = self.s();
        let nodes = s.map.nodes();
        let mut k = 0;
        let capital = s.empires[p].capital;
        if !self.st.holds_capital(s, p) {
            // the only expedition allowed retakes the capital, no route needed.
            out[0] = Way::land(capital, 0);
            return 1;
        }
        self.compute_reach(p);
        if self.game.rules.free_passage {
            self.passage_reach(p, capital);
        }
        let reach = &self.reach[p * nodes..(p + 1) * nodes];
        let march = &self.march[p * nodes..(p + 1) * nodes];
        let sea_from = self.sea_from[p];
        let sea = Way {
            naval: true,
            straits: sea_from,
            from: self.departure[p],
            ..Way::default()
        };
        for node in 0..nodes {
            let hostile = if s.map.is_city(node) {
                self.st.owner[node] as usize != p
            } else {
                !self.st.pacified[s.map.area(node)]
            };
            if !hostile {
                continue;
            }
            if reach[node] != u8::MAX && k < out.len() {
                out[k] = Way::land(node, reach[node]);
                k += 1;
            } else if self.game.rules.free_passage && k < out.len() {
                // 8.3: by land through other players' cities, where no own route reaches.
                if let Some(through) = self.passage_path(p, node) {
                    out[k] = Way {
                        through,
                        ..Way::land(node, self.via[node])
                    };
                    k += 1;
                }
            }
            if sea_from == u8::MAX || k >= out.len() {
                continue;
            }
            let port = s.map.is_city(node) && s.map.cities[node].port;
            if port {
                out[k] = Way { node, ..sea };
                k += 1;
            } else if march[node].0 != u8::MAX
                && (sea_from as u32 + march[node].0 as u32) < reach[node] as u32
            {
                out[k] = Way {
                    node,
                    march: true,
                    straits: sea_from + march[node].0,
                    arrive: march[node].1,
                    ..sea
                };
                k += 1;
            }
        }
        k
    }

    /// Optional rule 8.3: from `from`, the fewest straits to every node by land through `p`'s
    /// own cities, pacified areas and (asking their owners) other players' cities, into
    /// `self.via`, with each node's predecessor in `self.via_pred`.
    pub(super) fn passage_reach(&mut self, p: usize, from: usize) {
        let s = self.s();
        self.via.fill(u8::MAX);
        self.via[from] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for n in 0..s.map.nodes() {
                let d = self.via[n];
                let foreign = s.map.is_city(n) && self.st.owner[n] != super::state::NEUTRAL;
                if d == u8::MAX || !(self.st.passable(s, p, n, from) || foreign) {
                    continue;
                }
                for &(m, kind) in &s.map.adjacent[n] {
                    let nd = d + (kind == super::scenario::EdgeKind::Strait) as u8;
                    if nd < self.via[m] {
                        self.via[m] = nd;
                        self.via_pred[m] = n as u16;
                        changed = true;
                    }
                }
            }
        }
    }

    /// The other players' cities on the route [`Self::passage_reach`] found to `node`, in
    /// route order, None if it has none, too many, or no route.
    pub(super) fn passage_path(&self, p: usize, node: usize) -> Option<military::Through> {
        if self.via[node] == u8::MAX {
            return None;
        }
        let s = self.s();
        let mut back = military::Through::default();
        let start = s.empires[p].capital;
        let mut n = node;
        while n != start {
            n = self.via_pred[n] as usize;
            if s.map.is_city(n) && self.st.owner[n] != NEUTRAL && self.st.owner[n] as usize != p {
                if back.n as usize == military::MAX_THROUGH {
                    return None;
                }
                back.cities[back.n as usize] = n as u16;
                back.straits[back.n as usize] = self.via[n];
                back.n += 1;
            }
        }
        if back.n == 0 {
            return None;
        }
        let k = back.n as usize;
        back.cities[..k].reverse();
        back.straits[..k].reverse();
        Some(back)
    }

    /// P0: a random legal expedition, or None (then it passes or changes a card).
    pub(super) fn random_plan(&mut self, p: usize, dice: &mut Dice) -> Option<Plan> {
        if dice.below(2) == 0 {
            return None;
        }
        let s = self.s();
        let mut targets = [Way::default(); MAX_TARGETS];
        let k = self.targets(p, &mut targets);
        if k == 0 {
            return None;
        }
        let way = targets[dice.below(k as u64) as usize];
        let (target, naval) = (way.node, way.naval);
        let mut plan = way.plan();
        let mut capacity = 0u32;
        let hand = &self.st.players[p].hand;
        for &c in hand {
            if military::is(s, p, c, FLEET) && naval && dice.below(2) == 0 {
                plan.cards.push(c);
                let d = &s.decks[s.empires[p].deck];
                capacity += d.kinds[d.cards[c as usize] as usize].naval.as_count();
            }
        }
        let mut troops = 0;
        for &c in hand {
            if military::is(s, p, c, TROOP) && dice.below(2) == 0 && (!naval || troops < capacity) {
                plan.cards.push(c);
                troops += 1;
            } else if military::is(s, p, c, LEADER) && dice.below(2) == 0 {
                plan.leaders.push(c);
            } else if military::helps_assault(s, p, c, true)
                && (s.map.is_city(target) || military::helps_battle(s, p, c))
                && dice.below(2) == 0
            {
                plan.attack.push(c);
            }
        }
        if troops == 0 {
            return None;
        }
        Some(plan)
    }

    /// P1: every target, the best 1..max_cards troops (with the fleets to carry them by sea),
    /// through the exact chain; the best value that passes θ and τ ([`Self::greedy_plan`] keeps
    /// it while what it reads is unchanged); and when `top` is given, the best plan of each
    /// target whatever its chance and value, the best `TOP_TARGETS` of them by value (the
    /// search's candidates).
    pub(super) fn scan(
        &mut self,
        p: usize,
        g: &Scripted,
        mut top: Option<&mut [(f64, Plan); TOP_TARGETS]>,
    ) -> Option<Plan> {
        let s = self.s();
        let hand_len = self.st.players[p].hand.len();
        if hand_len as u32 <= g.reserve {
            return None;
        }
        let k = self.find_targets(p);
        let mut best: Option<(f64, Plan)> = None;
        let budget = (hand_len as u32 - g.reserve).min(g.max_cards);
        let hand = self.sorted_hand(p);
        let carriers = self.carriers(p, &hand.fleets, budget);
        // The defence each target's owner is expected to put up depends on the owner alone, and
        // so do its parts of the key by land and by sea (`key::key` is the sum of its parts).
        let mut defences: [Option<(Defence, [Key; 2])>; super::MAX_EMPIRES] =
            [None; super::MAX_EMPIRES];
        // A target no player holds: no defence, whose part of the key is nothing.
        let undefended = Defence::default();
        // One leader and one City Attack card (against a city) or battle card (against an area)
        // go with the expedition when held: the attacker's part of the key of its bare plan.
        let bare_cards = |attack: &Cards| {
            let mut plan = Plan::default();
            if let Some(&l) = hand.leaders.as_slice().first() {
                plan.leaders.push(l);
            }
            if let Some(&a) = attack.as_slice().first() {
                plan.attack.push(a);
            }
            plan
        };
        let (city_cards, area_cards) = (bare_cards(&hand.attack), bare_cards(&hand.battle));
        let attacker_parts = [&city_cards, &area_cards].map(|c| key::attacker_part(s, p, c));
        // What the worker's table of target outcomes keys a target by besides its key: the
        // troops' and fleets' kinds (by place: a barbarian area's or a city's troops, by land
        // or by sea) and the policy.
        let policy = self.cache.outcomes.policy(g, budget);
        let kinds = [&hand.area_troops, &hand.city_troops]
            .map(|t| [None, Some(&hand.fleets)].map(|f| kinds_word(s, p, t, f, budget)));
        for i in 0..k {
            let way = self.kept_targets[p].ways[i];
            let (target, naval) = (way.node, way.naval);
            let is_city = s.map.is_city(target);
            let owner = if is_city {
                self.st.owner[target]
            } else {
                NEUTRAL
            };
            let rival = owner != NEUTRAL && owner as usize != p && target != s.empires[p].capital;
            let (bonus, bonus_class) = match g.style {
                Style::Turtle { .. } if rival => continue,
                Style::Aggressor { leader, rival: r } if rival => {
                    if self.leads_others(owner as usize, p) {
                        (r + leader, 2)
                    } else {
                        // The sum it always was (the same number, -0.0 included).
                        (r + 0.0, 1)
                    }
                }
                _ => (0.0, 0),
            };
            let troops = if is_city {
                &hand.city_troops
            } else {
                &hand.area_troops
            };
            let fleets = &hand.fleets;
            if naval && fleets.is_empty() {
                continue;
            }
            let (defence, defence_part) = if owner == NEUTRAL {
                (&undefended, Key::ZERO)
            } else {
                let o = owner as usize;
                if defences[o].is_none() {
                    let d = self.predicted_defence(target, g);
                    defences[o] = Some((d, self.defence_parts(owner, &d)));
                }
                let (d, parts) = defences[o].as_ref().expect("just predicted");
                (d, parts[naval as usize])
            };
            let bare_cards = if is_city { &city_cards } else { &area_cards };
            let bare = Plan {
                leaders: bare_cards.leaders,
                attack: bare_cards.attack,
                ..way.plan()
            };
            let key = key::target_part(s, &self.st, &bare, self.st.weather, true)
                .plus(&defence_part)
                .plus(&attacker_parts[!is_city as usize]);
            #[cfg(test)]
            assert_eq!(key, key::key_without_cards(s, &self.st, p, &bare, defence));
            let outcome = self.target_outcome(
                p,
                g,
                &Target {
                    key,
                    bare: &bare,
                    defence,
                    troops,
                    fleets,
                    kinds: kinds[is_city as usize][naval as usize],
                    carriers: naval.then_some(&carriers),
                    budget,
                    is_city,
                    bonus,
                    bonus_class,
                    policy,
                },
            );
            let with_cards = |n_troops: usize, n_fleets: usize| {
                let mut plan = bare;
                let cards = troops.as_slice()[..n_troops].iter();
                for &c in cards.chain(&fleets.as_slice()[..n_fleets]) {
                    plan.cards.push(c);
                }
                plan
            };
            // The target's first best passing count against the best of the targets before
            // it: the same as each of its passing counts in turn (equal values on one target
            // have the same tie key, so the first stays).
            if let Some((value, n_troops, n_fleets)) = outcome.passing {
                let better = best.as_ref().is_none_or(|(v, b)| {
                    value > *v
                        || (value == *v && self.tie_key(p, target) < self.tie_key(p, b.target))
                });
                if better {
                    best = Some((value, with_cards(n_troops, n_fleets)));
                }
            }
            if let Some(top) = top.as_deref_mut() {
                // Insert into the best few, best first (the first of equals kept).
                let (value, n_troops, n_fleets) = outcome.best;
                if let Some(i) = top.iter().position(|&(v, _)| value > v) {
                    top[i..].rotate_right(1);
                    top[i] = (value, with_cards(n_troops, n_fleets));
                }
            }
        }
        best.map(|(_, plan)| plan)
    }

    /// By sea, for each count of troops (index 1..=MAX_PLAN): the fewest of `fleets` (in their
    /// order) whose capacity carries them and the key bytes of those fleets, None where all of
    /// them do not or the troops and fleets pass `budget` cards. The same for every target of a
    /// decision, so worked out once per decision, the fleets taken on as the troops grow.
    fn carriers(
        &self,
        p: usize,
        fleets: &Cards,
        budget: u32,
    ) -> [Option<(usize, Key)>; military::MAX_PLAN + 1] {
        let s = self.s();
        let d = &s.decks[s.empires[p].deck];
        let cap = |c: u8| d.kinds[d.cards[c as usize] as usize].naval.as_count();
        let mut out = [None; military::MAX_PLAN + 1];
        let (mut room, mut n_fleets, mut fleets_key) = (0, 0, Key::ZERO);
        for (n_troops, carried) in out.iter_mut().enumerate().skip(1) {
            while room < n_troops as u32 && n_fleets < fleets.len() {
                let f = fleets.as_slice()[n_fleets];
                room += cap(f);
                key::add_card(s, p, &mut fleets_key, f);
                n_fleets += 1;
            }
            if room < n_troops as u32 {
                break; // all the fleets carry fewer troops, and so fewer than any more
            }
            if (n_troops + n_fleets) as u32 <= budget {
                *carried = Some((n_fleets, fleets_key));
            }
        }
        out
    }

    /// [`key::defence_part`] of `owner`'s defence `d` by land and by sea, kept per owner while
    /// its predicted defence is the same (so are its parts).
    fn defence_parts(&mut self, owner: u8, d: &Defence) -> [Key; 2] {
        let s = self.s();
        let kept = &mut self.kept_defence_parts[owner as usize];
        match kept {
            Some((defence, parts)) if defence == d => *parts,
            _ => {
                let parts = [false, true].map(|naval| key::defence_part(s, owner, naval, d));
                *kept = Some((*d, parts));
                parts
            }
        }
    }

    /// Player `p`'s hand by role for its expeditions: its Troop cards strongest first for a
    /// city's assault and for a barbarian area's field battle (equals by card index), its Fleet,
    /// Leader and City Attack cards in hand order.
    fn sorted_hand(&self, p: usize) -> SortedHand {
        let s = self.s();
        let hand = &self.st.players[p].hand;
        let mut out = SortedHand::default();
        for &c in hand {
            if military::is(s, p, c, FLEET) {
                out.fleets.push(c);
            } else if military::is(s, p, c, LEADER) {
                out.leaders.push(c);
            } else if military::helps_assault(s, p, c, true) {
                out.attack.push(c);
                if military::helps_battle(s, p, c) {
                    out.battle.push(c);
                }
            }
        }
        military::strongest_first(s, p, hand, TROOP, true, &mut out.city_troops);
        military::strongest_first(s, p, hand, TROOP, false, &mut out.area_troops);
        out
    }

    /// Whether `q` has the most VP among the players other than `p` (ties included).
    pub(super) fn leads_others(&self, q: usize, p: usize) -> bool {
        let vp = self.st.players[q].vp;
        (0..self.n()).all(|o| o == p || self.st.players[o].vp <= vp)
    }

    /// What the scripted attacker expects the owner of `target` to do: the greedy defence,
    /// straits ignored, from the defender's hand as the attacker can estimate it (its hand size
    /// and its deck less its discard pile), or as it is when the game is omniscient. Hidden
    /// hands: kept per defender while what it shows ([`Shown`]) is unchanged, and its naval
    /// interception while the map version is (test builds predict anyway and check the kept).
    pub(super) fn predicted_defence(&mut self, target: usize, g: &Scripted) -> Defence {
        let s = self.s();
        if !s.map.is_city(target) || self.st.owner[target] == NEUTRAL {
            return Defence::default();
        }
        let q = self.st.owner[target] as usize;
        if self.game.omniscient {
            let d = self.predict(q, g);
            return self.at_sea_if_it_can(q, d);
        }
        let shown = self.shown(q, g.max_cards);
        let version = self.st.map_version;
        let seen = &self.predicted[q];
        let kept = seen.kept(&shown);
        let kept_at_sea = (seen.sea_version == version).then_some(seen.at_sea);
        if let Some(d) = kept {
            if !cfg!(test) {
                if let Some(at_sea) = kept_at_sea {
                    return at_sea;
                }
                let at_sea = self.at_sea_if_it_can(q, d);
                let seen = &mut self.predicted[q];
                seen.sea_version = version;
                seen.at_sea = at_sea;
                return at_sea;
            }
        }
        let d = self.predict(q, g);
        let at_sea = self.at_sea_if_it_can(q, d);
        if let Some(k) = kept {
            assert_eq!(k, d, "seat {q}: a kept predicted defence is stale");
            if let Some(k) = kept_at_sea {
                assert_eq!(
                    k, at_sea,
                    "seat {q}: map version {version} kept a stale defence"
                );
            }
        }
        self.predicted[q] = Seen {
            shown,
            defence: Some(d),
            sea_version: version,
            at_sea,
        };
        at_sea
    }

    /// What `q` shows a policy with card limit `max_cards` ([`Shown`]): a pass over its
    /// discard pile, and over its hand and draw pile only while some of its cards are in play.
    pub(super) fn shown(&self, q: usize, max_cards: u32) -> Shown {
        let s = self.s();
        let pl = &self.st.players[q];
        // A deck has at most MAX_DECK = 64 cards: a card is a bit of a word.
        let bits = |cards: &[u8]| cards.iter().fold(0u64, |b, &c| b | 1u64 << c);
        let gone = bits(&pl.discard);
        let deck = s.decks[s.empires[q].deck].cards.len();
        // The piles never share a card (cards are conserved): when they hold the whole deck,
        // the hand and the draw pile hold every card not discarded.
        let held = if pl.hand.len() + pl.draw.len() + pl.discard.len() == deck {
            !gone & (u64::MAX >> (64 - deck))
        } else {
            bits(&pl.hand) | bits(&pl.draw)
        };
        Shown {
            held,
            gone,
            hand: pl.hand.len() as u32,
            capital: self.st.holds_capital(s, q),
            max_cards,
        }
    }

    /// [`Self::predicted_defence`] of defender `q`, computed, before the check of its ports.
    fn predict(&mut self, q: usize, g: &Scripted) -> Defence {
        let s = self.s();
        let mut d = Defence::default();
        let mut troops = Cards::default();
        let mut fleets = Cards::default();
        if self.game.omniscient {
            let hand = &self.st.players[q].hand;
            for &c in hand {
                if military::is(s, q, c, CITY_DEFENCE) {
                    d.defence.push(c);
                }
            }
            military::strongest_first(s, q, hand, TROOP, false, &mut troops);
            military::strongest_at_sea(s, q, hand, &mut fleets);
        } else {
            // Of its deck's cards in its hand or draw pile: all of them, and those of a type.
            let shown = self.shown(q, g.max_cards);
            let deck = &s.decks[s.empires[q].deck];
            let held = |t: u8| {
                let mut mask = 0;
                for (kind, kind_mask) in deck.kinds.iter().zip(&deck.kind_mask) {
                    if kind.is(t) {
                        mask |= kind_mask;
                    }
                }
                (shown.held & mask).count_ones()
            };
            let (h, unseen) = (shown.hand, shown.held.count_ones());
            let (defence, troop, fleet) = (held(CITY_DEFENCE), held(TROOP), held(FLEET));
            let share = |x: u32| ((h * x) as f64 / unseen.max(1) as f64).round() as usize;
            let u = self.unseen_from(q, shown.gone);
            self.estimate_from(&u, q, CITY_DEFENCE, share(defence), false, &mut d.defence);
            let mut guess = Cards::default();
            self.estimate_from(&u, q, TROOP, share(troop), true, &mut guess);
            military::strongest_first(s, q, guess.as_slice(), TROOP, false, &mut troops);
            let mut guess = Cards::default();
            self.estimate_from(&u, q, FLEET, share(fleet), false, &mut guess);
            military::strongest_at_sea(s, q, guess.as_slice(), &mut fleets);
        }
        if self.st.holds_capital(s, q) {
            for &c in troops.as_slice().iter().take(g.max_cards as usize) {
                d.intercept.push(c);
            }
            for &c in fleets.as_slice().iter().take(g.max_cards as usize) {
                d.naval.push(c);
            }
        }
        d
    }

    /// `d` without its naval interception when `q` reaches no port of its own by land (public
    /// information: the map and who holds what).
    fn at_sea_if_it_can(&mut self, q: usize, mut d: Defence) -> Defence {
        if !d.naval.is_empty() {
            self.compute_departure(q);
            if self.sea_from[q] == u8::MAX {
                d.naval = Cards::default();
            }
        }
        d
    }
}

/// What a player's predicted defence ([`Play::predicted_defence`], hidden hands, before the
/// check of its ports) is a function of: which of its deck's cards are in its hand or draw pile
/// and which in its discard pile (as sets: their order reads nowhere), its hand size, whether it
/// holds its capital, and the predicting policy's card limit. The same shown gives the same
/// defence.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shown {
    /// A bit per deck card (`MAX_DECK` is 64).
    held: u64,
    gone: u64,
    hand: u32,
    capital: bool,
    max_cards: u32,
}

const _: () = assert!(
    super::load::MAX_DECK <= 64,
    "Shown holds a deck's cards as bits of a word"
);

/// A player's defence last predicted ([`Play::predicted_defence`], hidden hands) and what it
/// was predicted from, kept across decisions while that is unchanged; and with its naval
/// interception checked against the map of version `sea_version` (0, never drawn: not yet).
#[derive(Clone, Default)]
pub struct Seen {
    shown: Shown,
    /// The defence predicted from `shown` (None before the first).
    defence: Option<Defence>,
    sea_version: u64,
    at_sea: Defence,
}

impl Seen {
    /// The kept defence, if it was predicted from what the player shows now.
    pub(super) fn kept(&self, shown: &Shown) -> Option<Defence> {
        self.defence.filter(|_| self.shown == *shown)
    }
}

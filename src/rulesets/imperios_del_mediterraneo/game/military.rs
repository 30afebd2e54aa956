//! Military expeditions, interceptions and the non-player raids of a game (digest §3.1-§3.10),
//! every one resolved by the battle calculator's own code: `Expedition::new` and its `play`
//! (straits, the interception, the assault or pacification, recovery), `Raid::new` and its `play`
//! (Neutral Attack, Pirates). Expeditions are cached per worker by what they are made of, so the
//! exact chance the greedy player reads and the chain a declared expedition plays are built once;
//! the caches outlive the game that filled them, for the next game on the same decks and options.

use super::kept_outcomes::Outcomes;
use super::key::{city_dice, defence_dice, key, layout::*, Key};
use super::scenario::{
    CardKind, Deck, EffectKind, Scenario, Timing, CITY_ATTACK, CITY_DEFENCE, FLEET, LEADER,
    SPECIAL, TROOP,
};
use super::state::{State, NEUTRAL};
use crate::dice::Dice;
use crate::options::Options;
use crate::rulesets::imperios_del_mediterraneo::cards::Card;
use crate::rulesets::imperios_del_mediterraneo::expedition::{
    CardText, Expedition, Played, Point, Reached, Route, Target, Texts,
};
use crate::rulesets::imperios_del_mediterraneo::forces::{CardForce, Force};
use crate::rulesets::imperios_del_mediterraneo::raid::{Raid, RaidPlayed, Raider};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

/// Most card kinds a deck may have (the cache key counts each kind).
pub const MAX_KINDS: usize = 16;
/// Most expeditions a worker keeps: past this the cache starts again, so memory stays bounded
/// however many games run (an entry is a function of its key, so no result changes).
pub const MAX_CACHED: usize = 500_000;
/// Most cards of one role a plan holds.
pub const MAX_PLAN: usize = 16;

/// A small list of card indices (a hand's cards) without allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cards {
    pub ids: [u8; MAX_PLAN],
    pub n: u8,
}

impl Cards {
    pub fn push(&mut self, c: u8) {
        if (self.n as usize) < MAX_PLAN {
            self.ids[self.n as usize] = c;
            self.n += 1;
        }
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.ids[..self.n as usize]
    }
    pub fn len(&self) -> usize {
        self.n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// Most other players' cities a route under free passage (optional rule 8.3) may pass.
pub const MAX_THROUGH: usize = 4;

/// The other players' cities a route passes under free passage (8.3), in route order, and the
/// straits from the capital to each (a refused city attacked is reached with those).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Through {
    pub cities: [u16; MAX_THROUGH],
    pub straits: [u8; MAX_THROUGH],
    pub n: u8,
}

/// An expedition a player declares: its target, its route, its cards.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plan {
    pub target: usize,
    pub naval: bool,
    /// By sea, a land leg after the naval one: landing at the own port `arrive`, then by land.
    pub march: bool,
    /// Straits on the land legs (before and after the naval one).
    pub straits: u8,
    /// By sea, the departure port (an own port reached by land from the capital) and, for a
    /// march, the arrival port (route nodes where the defender may land-intercept).
    pub from: u16,
    pub arrive: u16,
    /// Optional rule 8.3: the other players' cities the land route passes.
    pub through: Through,
    /// Troop and Fleet cards (card indices into the attacker's deck).
    pub cards: Cards,
    pub leaders: Cards,
    /// City Attack cards for the assault.
    pub attack: Cards,
}

/// The defender's answer: its land and naval interceptions and the City Defence cards it adds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Defence {
    /// The land interceptor's Troop cards.
    pub intercept: Cards,
    pub defence: Cards,
    /// Straits on the land interceptor's route from its capital.
    pub straits: u8,
    /// The naval interceptor's Fleet cards (an expedition by sea only, §3.3).
    pub naval: Cards,
    /// Straits on the naval interceptor's land route to its port.
    pub naval_straits: u8,
    /// The land interception is fought at the attacker's departure port, before the naval
    /// battle (else at the arrival: the landing, the march's port or the city).
    pub land_first: bool,
    /// Dice the other players' City Defence and City Attack cards add to the city and to the
    /// attacker in the assault (third parties in the card window, §3.0 and §4.9).
    pub third_defence: u8,
    pub third_attack: u8,
    /// Dice the other players' Special Event (X) cards add to the defender and to the attacker
    /// in the expedition's card window (the first battle or the assault, option
    /// `special_event_window`).
    pub special_defence: u8,
    pub special_attack: u8,
}

/// Slots of the small table in front of the map: the latest lookups, dense enough to stay in
/// the core's own cache when the map does not (a lookup in the map was mostly a memory stall).
const FRONT: usize = 4096;
/// Most built expeditions a worker keeps to play again: past this they are built anew.
pub const MAX_PLAYED: usize = 1024;

/// Exact (P(success), expected VP) of expeditions by what they are made of, and the
/// calculator's expeditions the game has played, kept to play again. Every entry is a function
/// of its key (the game's rule options are fixed), so no result depends on what is kept.
#[derive(Default)]
pub struct Cache {
    map: FxHashMap<Key, (f64, f64)>,
    /// Slot `hash % FRONT`: the latest key met there and its entry (allocated on first use).
    front: Vec<(Key, (f64, f64))>,
    played: FxHashMap<Key, Expedition>,
    /// The scan's outcomes by target (`kept_outcomes.rs`), a function of their keys too.
    pub(super) outcomes: Outcomes,
}

/// The caches kept for one set of decks and rule options: an entry is a function of its key,
/// the decks and the options, nothing else, so every game built on them in this process (a
/// sweep's cases, a ladder's or a tuner's games) may use them, and which one a worker gets
/// changes no result.
struct Shelf {
    decks: Vec<Deck>,
    options: Options,
    caches: Vec<Cache>,
}

/// Most sets of decks and options kept (the oldest is dropped first).
const MAX_SHELVES: usize = 4;

static SHELVES: Mutex<Vec<Shelf>> = Mutex::new(Vec::new());

fn shelves() -> std::sync::MutexGuard<'static, Vec<Shelf>> {
    SHELVES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A cache for a worker of a game on these decks and options: a kept one if there is one.
pub fn take_cache(decks: &[Deck], options: &Options) -> Cache {
    shelves()
        .iter_mut()
        .find(|shelf| shelf.decks == decks && shelf.options == *options)
        .and_then(|shelf| shelf.caches.pop())
        .unwrap_or_default()
}

/// A worker's cache back for the next worker: at most one kept per thread of the pool.
pub fn keep_cache(decks: &[Deck], options: &Options, cache: Cache) {
    let mut shelves = shelves();
    match shelves
        .iter_mut()
        .find(|shelf| shelf.decks == decks && shelf.options == *options)
    {
        Some(shelf) => {
            if shelf.caches.len() < rayon::current_num_threads() {
                shelf.caches.push(cache);
            }
        }
        None => {
            if shelves.len() >= MAX_SHELVES {
                shelves.remove(0);
            }
            shelves.push(Shelf {
                decks: decks.to_vec(),
                options: options.clone(),
                caches: vec![cache],
            });
        }
    }
}

pub fn role_troop(k: &CardKind) -> bool {
    k.is(TROOP)
}

fn card(k: &CardKind) -> Card {
    Card {
        name: k.name.clone(),
        field: k.field,
        naval: k.naval,
        assault: k.assault,
    }
}

/// The attacker's cards as the calculator's force, in the order `play` reports them: troops by
/// kind, then fleets by kind; and that order as deck-card positions of the plan.
fn force_of(s: &Scenario, deck: usize, cards: &[u8], leaders: &[u8], naval: bool) -> CardForce {
    let d = &s.decks[deck];
    let kind = |c: &u8| &d.kinds[d.cards[*c as usize] as usize];
    let mut troops: Vec<(u8, Card)> = Vec::new();
    let mut fleets: Vec<(u8, Card)> = Vec::new();
    for c in cards {
        let k = kind(c);
        if role_troop(k) {
            troops.push((d.cards[*c as usize], card(k)));
        } else if k.is(FLEET) {
            fleets.push((d.cards[*c as usize], card(k)));
        }
    }
    troops.sort_by_key(|x| x.0);
    fleets.sort_by_key(|x| x.0);
    let troops: Vec<Card> = troops.into_iter().map(|x| x.1).collect();
    let fleets: Vec<Card> = fleets.into_iter().map(|x| x.1).collect();
    let aboard = if naval && !fleets.is_empty() {
        spread(&troops, &fleets)
    } else {
        vec![None; troops.len()]
    };
    CardForce {
        troops,
        fleets,
        aboard,
        leaders: leaders.iter().map(|c| kind(c).dice as u32).collect(),
        extra_dice: 0,
        modifier: 0,
    }
}

/// The troops spread over the fleets to keep the largest cargo small, as the
/// calculator's own default loading does.
fn spread(troops: &[Card], fleets: &[Card]) -> Vec<Option<usize>> {
    let capacity: Vec<u32> = fleets.iter().map(|c| c.naval.as_count()).collect();
    let mut load = vec![0u32; fleets.len()];
    troops
        .iter()
        .map(|_| {
            let k = (0..fleets.len())
                .filter(|&k| load[k] < capacity[k])
                .min_by_key(|&k| (load[k], std::cmp::Reverse(capacity[k])))?;
            load[k] += 1;
            Some(k)
        })
        .collect()
}

/// A plan's cards in the order the calculator numbers them: troops by kind, then fleets by kind
/// (stable within a kind).
pub fn calculator_order(s: &Scenario, deck: usize, cards: &[u8], out: &mut Cards) {
    let d = &s.decks[deck];
    *out = Cards::default();
    for troop_pass in [true, false] {
        for k in 0..d.kinds.len() {
            let kind = &d.kinds[k];
            if role_troop(kind) != troop_pass || !(role_troop(kind) || kind.is(FLEET)) {
                continue;
            }
            for &c in cards {
                if d.cards[c as usize] as usize == k {
                    out.push(c);
                }
            }
        }
    }
}

/// Whether the fleets' assault factors reach the city's size, so the expedition may assault
/// straight from the ships (A-22, the calculator's reading is applied inside it too).
pub fn fleets_reach_size(s: &Scenario, deck: usize, cards: &[u8], size: u8) -> bool {
    let d = &s.decks[deck];
    let sum: u32 = cards
        .iter()
        .map(|&c| &d.kinds[d.cards[c as usize] as usize])
        .filter(|k| !role_troop(k) && k.is(FLEET))
        .map(|k| k.assault.as_count())
        .sum();
    sum >= size as u32
}

fn front_slot(k: &Key) -> usize {
    let mut h = rustc_hash::FxHasher::default();
    k.hash(&mut h);
    h.finish() as usize % FRONT
}

impl Cache {
    /// The exact chance of success and expected VP of this plan against this defence, computed
    /// on first use.
    pub fn chance(
        &mut self,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
    ) -> (f64, f64) {
        let k = key(s, st, attacker, plan, defence, st.weather, true);
        self.chance_keyed(&k, s, st, options, attacker, plan, defence)
    }

    /// [`Self::chance`] where the caller has the plan's key (`k` must be `plan`'s key against
    /// `defence` in `st`: `key::key_without_cards` and `key::add_card`).
    #[allow(clippy::too_many_arguments)]
    pub fn chance_keyed(
        &mut self,
        k: &Key,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
    ) -> (f64, f64) {
        if let Some(e) = self.known(k) {
            return e;
        }
        if self.map.len() >= MAX_CACHED {
            self.map.clear();
        }
        let e = expedition(s, st, options, attacker, plan, defence, k).chance_and_vp();
        self.map.insert(*k, e);
        self.front[front_slot(k)] = (*k, e);
        e
    }

    /// The kept (P(success), expected VP) of the expedition with key `k`, if computed before.
    pub fn known(&mut self, k: &Key) -> Option<(f64, f64)> {
        let slot = front_slot(k);
        if self.front.is_empty() {
            self.front = vec![(Key::NONE, (0.0, 0.0)); FRONT];
        }
        if self.front[slot].0 == *k {
            return Some(self.front[slot].1);
        }
        let e = *self.map.get(k)?;
        self.front[slot] = (*k, e);
        Some(e)
    }

    /// Plays this plan against this defence with the calculator's expedition, built on first
    /// use.
    #[allow(clippy::too_many_arguments)]
    pub fn play(
        &mut self,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
        dice: &mut Dice,
    ) -> Played {
        self.built(s, st, options, attacker, plan, defence)
            .play(dice)
    }

    /// The calculator's expedition of this plan against this defence, built on first use and
    /// kept to play again.
    #[allow(clippy::too_many_arguments)]
    pub fn built(
        &mut self,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
    ) -> &Expedition {
        let k = key(s, st, attacker, plan, defence, st.weather, true);
        if self.played.len() >= MAX_PLAYED && !self.played.contains_key(&k) {
            self.played.clear();
        }
        self.played
            .entry(k)
            .or_insert_with(|| expedition(s, st, options, attacker, plan, defence, &k))
    }

    /// Plays this plan against this defence from point `from` (the expedition as `at`) until
    /// `until` (None: to its end): the chain of [`Self::play`] a point at a time, for a defender
    /// deciding each interception as the expedition reaches it.
    #[allow(clippy::too_many_arguments)]
    pub fn play_between(
        &mut self,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
        dice: &mut Dice,
        at: Reached,
        from: Point,
        until: Option<Point>,
    ) -> Played {
        self.built(s, st, options, attacker, plan, defence)
            .play_between(dice, at, from, until)
    }

    /// The exact (P(success), expected VP) of this plan against this defence from point `from`
    /// on, every card of the plan there (a defender's view of the expedition that reached it:
    /// the plan holds its surviving cards; `spent`: the card window's Special Event dice were
    /// played in a battle before it), computed on first use.
    #[allow(clippy::too_many_arguments)]
    pub fn chance_from(
        &mut self,
        s: &Scenario,
        st: &State,
        options: &Options,
        attacker: usize,
        plan: &Plan,
        defence: &Defence,
        from: Point,
        spent: bool,
    ) -> (f64, f64) {
        let mut k = key(s, st, attacker, plan, defence, st.weather, true);
        k.add(FROM, from as u8);
        k.set(SPENT, spent);
        self.chance_keyed(&k, s, st, options, attacker, plan, defence)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

fn expedition(
    s: &Scenario,
    st: &State,
    options: &Options,
    attacker: usize,
    plan: &Plan,
    defence: &Defence,
    k: &Key,
) -> Expedition {
    let direct = k.byte(DIRECT) == 1;
    let deck = s.empires[attacker].deck;
    let cf = force_of(
        s,
        deck,
        plan.cards.as_slice(),
        plan.leaders.as_slice(),
        plan.naval,
    );
    let t = plan.target;
    let target = if s.map.is_city(t) {
        Target::City {
            size: s.map.cities[t].size as u32,
            dice: k.byte(TARGET_DICE) as u32,
            player_owner: st.owner[t] != NEUTRAL,
            modifier: 0,
        }
    } else {
        Target::Barbarian {
            dice: k.byte(TARGET_DICE) as u32,
        }
    };
    let land = k.has(LAND_INTERCEPTED).then(|| {
        let owner = st.owner[t] as usize;
        Force::Cards(force_of(
            s,
            s.empires[owner].deck,
            defence.intercept.as_slice(),
            &[],
            false,
        ))
    });
    let naval = k.has(NAVAL_INTERCEPTED).then(|| {
        let deck = s.empires[st.owner[t] as usize].deck;
        let mut cf = force_of(s, deck, defence.naval.as_slice(), &[], true);
        if s.decks[deck].has_effects {
            // The resolution hook of the naval interceptor's cards: no start-of-battle or flee
            // text acts at sea and all of them fight to the resolution, so their dice and bonus
            // are its side's own.
            fold_resolution(s, deck, defence.naval.as_slice(), &mut cf, true);
        }
        Force::Cards(cf)
    });
    let e = Expedition::new(
        cf,
        plan.naval,
        plan.straits as u32,
        st.weather,
        naval,
        land,
        target,
        direct,
        k.byte(ATTACK_DICE) as u32,
        options,
    )
    .with_route(Route {
        march: k.has(MARCH),
        land_first: k.has(LAND_FIRST),
    })
    .starting_at(match k.byte(FROM) & FROM_MASK {
        0 => Point::Start,
        1 => Point::Departure,
        2 => Point::Sea,
        _ => Point::Arrival,
    })
    .with_special(
        [
            k.byte(SPECIAL_ATTACK) as u32,
            k.byte(SPECIAL_DEFENCE) as u32,
        ],
        options.choice("special_event_window") == "first-battle",
    )
    .starting_spent(k.has(SPENT));
    let intercepted = k.has(LAND_INTERCEPTED) || k.has(NAVAL_INTERCEPTED);
    let defender_deck = intercepted.then(|| s.empires[st.owner[t] as usize].deck);
    if !s.decks[deck].has_effects && !defender_deck.is_some_and(|d| s.decks[d].has_effects) {
        return e;
    }
    let of =
        |cards: &Cards| defender_deck.map_or_else(Vec::new, |d| texts_of(s, d, cards.as_slice()));
    e.with_texts(Texts {
        em: texts_of(s, deck, plan.cards.as_slice()),
        land: if k.has(LAND_INTERCEPTED) {
            of(&defence.intercept)
        } else {
            Vec::new()
        },
        naval: if k.has(NAVAL_INTERCEPTED) {
            of(&defence.naval)
        } else {
            Vec::new()
        },
    })
}

/// Adds the resolution texts (dice, bonus) of `cards` that fight in this combat (at sea: a
/// naval value; on land: a field value) to their force `cf` built by [`force_of`].
fn fold_resolution(s: &Scenario, deck: usize, cards: &[u8], cf: &mut CardForce, naval: bool) {
    let fighting = cf.troops.iter().chain(&cf.fleets);
    for (c, text) in fighting.zip(texts_of(s, deck, cards)) {
        if if naval {
            c.naval.usable()
        } else {
            c.field.usable()
        } {
            cf.extra_dice += text.dice;
            cf.modifier += text.bonus;
        }
    }
}

/// What a card kind's texts do in the calculator's chain (the effect hooks of digest §6.3).
pub fn card_text(k: &CardKind) -> CardText {
    let recovery = k.effect(EffectKind::Recovery, Timing::RecoveryRule);
    CardText {
        dice: k.effect(EffectKind::CombatDice, Timing::OnResolution) as u32,
        bonus: k.effect(EffectKind::CombatBonus, Timing::OnResolution) as i32,
        ignore: k.effect(EffectKind::IgnoreFortification, Timing::OnResolution) as u32,
        kills: k.effect(EffectKind::EnemyLosses, Timing::OnBattleStart) as u32,
        cancel: k.effect(EffectKind::CancelInterception, Timing::OnFlee) > 0,
        recover_from: if recovery > 0 { recovery as u32 } else { 6 },
        win_vp: k.effect(EffectKind::VictoryPoints, Timing::OnEndOfCombat) as u32,
        draws: k.effect(EffectKind::DrawCards, Timing::OnEndOfCombat) as u32,
    }
}

/// The texts of these cards in the order [`force_of`] gives the calculator their cards:
/// troops by kind, then fleets by kind.
fn texts_of(s: &Scenario, deck: usize, cards: &[u8]) -> Vec<CardText> {
    let mut order = Cards::default();
    calculator_order(s, deck, cards, &mut order);
    let d = &s.decks[deck];
    order
        .as_slice()
        .iter()
        .map(|&c| card_text(&d.kinds[d.cards[c as usize] as usize]))
        .collect()
}

/// A Neutral Attack or Pirates raid on `city` (§3.10) by the calculator's raid code.
#[allow(clippy::too_many_arguments)]
pub fn raid(
    s: &Scenario,
    st: &State,
    options: &Options,
    pirates: bool,
    force: (i32, u32),
    straits: u32,
    city: usize,
    defence: &Defence,
    dice: &mut Dice,
) -> RaidPlayed {
    let owner = st.owner[city] as usize;
    let interceptor = (!defence.intercept.is_empty()).then(|| {
        let deck = s.empires[owner].deck;
        let mut cf = force_of(s, deck, defence.intercept.as_slice(), &[], false);
        if s.decks[deck].has_effects {
            // The resolution hook of the owner's troops (all of them fight to the end: no
            // start-of-battle kill in a raid).
            fold_resolution(s, deck, defence.intercept.as_slice(), &mut cf, false);
        }
        Force::Cards(cf)
    });
    let r = Raid::new(
        if pirates {
            Raider::Pirates
        } else {
            Raider::Neutral
        },
        Force::NonPlayer {
            fixed: force.0,
            dice: force.1,
        },
        straits,
        st.weather,
        interceptor,
        s.map.cities[city].size as u32,
        {
            // The owner's City Defence and Special Event dice both join the raid's assault.
            let (defence, special) = defence_dice(s, st.owner[city], defence);
            (city_dice(s, st, city) + defence + special) as u32
        },
        options,
    );
    r.play(dice)
}

/// The interceptor's cards in the order the raid reports them (troops by kind).
pub fn interceptor_order(s: &Scenario, owner: usize, cards: &[u8], out: &mut Cards) {
    calculator_order(s, s.empires[owner].deck, cards, out)
}

/// Whether a card of player `p` helps a side of an assault: a City Attack card (`attack`) or a
/// City Defence card, or a Special Event (X) card with an assumed text (its dice for either).
#[inline]
pub fn helps_assault(s: &Scenario, p: usize, c: u8, attack: bool) -> bool {
    let d = &s.decks[s.empires[p].deck];
    let k = &d.kinds[d.cards[c as usize] as usize];
    k.is(if attack { CITY_ATTACK } else { CITY_DEFENCE }) || helps_battle(s, p, c)
}

/// Whether a card of player `p` helps a side of a field or naval battle (§3.0's card window of
/// a battle): a Special Event (X) card with an assumed text (its dice for either side).
#[inline]
pub fn helps_battle(s: &Scenario, p: usize, c: u8) -> bool {
    let d = &s.decks[s.empires[p].deck];
    let k = &d.kinds[d.cards[c as usize] as usize];
    k.is(SPECIAL) && k.dice > 0
}

/// Whether a card (by deck index) of player `p` has type `t`.
#[inline]
pub fn is(s: &Scenario, p: usize, c: u8, t: u8) -> bool {
    let d = &s.decks[s.empires[p].deck];
    d.kinds[d.cards[c as usize] as usize].is(t)
}

/// The cards of `cards` (player `p`'s) of type `t`, strongest in the field (or the assault)
/// first, equals by card index, into `out` (the strongest [`MAX_PLAN`]).
pub fn strongest_first(
    s: &Scenario,
    p: usize,
    cards: &[u8],
    t: u8,
    assault: bool,
    out: &mut Cards,
) {
    let d = &s.decks[s.empires[p].deck];
    let rank = if assault {
        &d.assault_rank
    } else {
        &d.field_rank
    };
    *out = Cards::default();
    for &c in cards {
        if !d.kinds[d.cards[c as usize] as usize].is(t) {
            continue;
        }
        // Insertion by rank, the weakest dropped past MAX_PLAN.
        let n = out.len();
        let mut i = n;
        while i > 0 && rank[out.ids[i - 1] as usize] > rank[c as usize] {
            i -= 1;
        }
        if i == MAX_PLAN {
            continue;
        }
        let end = n.min(MAX_PLAN - 1);
        out.ids.copy_within(i..end, i + 1);
        out.ids[i] = c;
        out.n = end as u8 + 1;
    }
}

/// The Fleet cards of `cards` (player `p`'s), strongest at sea first (dice 3.5 each), equals
/// by card index, into `out` (the first [`MAX_PLAN`]).
pub fn strongest_at_sea(s: &Scenario, p: usize, cards: &[u8], out: &mut Cards) {
    let d = &s.decks[s.empires[p].deck];
    let naval = |c: u8| cv_strength(d.kinds[d.cards[c as usize] as usize].naval);
    *out = Cards::default();
    for &c in cards {
        if is(s, p, c, FLEET) {
            out.push(c);
        }
    }
    let n = out.len();
    out.ids[..n].sort_by(|&x, &y| naval(y).total_cmp(&naval(x)).then(x.cmp(&y)));
}

/// A card's strength for sorting: its value in this combat (dice count 3.5 each).
pub fn strength(s: &Scenario, p: usize, c: u8, assault: bool) -> f64 {
    let d = &s.decks[s.empires[p].deck];
    if assault {
        d.assault_strength[c as usize]
    } else {
        d.field_strength[c as usize]
    }
}

/// A combat value's worth for sorting: dice count 3.5 each.
pub fn cv_strength(v: crate::rulesets::imperios_del_mediterraneo::cards::Cv) -> f64 {
    use crate::rulesets::imperios_del_mediterraneo::cards::Cv;
    match v {
        Cv::Dash => 0.0,
        Cv::Fixed(n) => n as f64,
        Cv::Dice(n) => 3.5 * n as f64,
    }
}

/// A card kind's worth for sorting in the field (or the assault): its printed value, plus what
/// its resolution effects add while it fights (a die 3.5; a defence die ignored 3.5).
pub fn kind_strength(k: &CardKind, assault: bool) -> f64 {
    let v = if assault { k.assault } else { k.field };
    let mut w = cv_strength(v);
    if k.effects.is_empty() || !v.usable() {
        return w;
    }
    w += 3.5 * k.effect(EffectKind::CombatDice, Timing::OnResolution) as f64
        + k.effect(EffectKind::CombatBonus, Timing::OnResolution) as f64;
    if assault {
        w += 3.5 * k.effect(EffectKind::IgnoreFortification, Timing::OnResolution) as f64;
    }
    w
}

pub const LEADER_TYPE: u8 = LEADER;

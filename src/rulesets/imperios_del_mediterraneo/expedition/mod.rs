//! The military expedition chain (digest §3.1, §8.7): "will my expedition reach and take the
//! city?" Straits on the land legs, a naval interception, the arrival (direct assault or landing),
//! a land interception, then the assault (or the pacification of a barbarian area), with the
//! attacker's surviving cards carried from step to step.
//!
//! A state is the set of the attacker's cards still in the expedition (a bit per card) and whether
//! its leaders are still with it. The exact answer follows every branch with its probability; the
//! simulation rolls the same steps with dice. Both go through the same transitions.

use super::assault::{CAPITAL, MARKERS, OWNER, SIZE};
use super::cards::{Card, Combat, Cv};
use super::forces::{parse_force, CardForce, Force};
use super::forces::{
    CARDS_FORCE, ENRAGED, EXPEDITION_KEYS, EXTRA_DICE, FLEETS, INTERCEPTOR_KEYS, LEADERS, MODIFIER,
    SEA_FORCE, SEA_SIDE_KEYS, STRENGTH, TROOPS,
};
use super::rolloff::{attacker_wins, Total};
use super::strait::WEATHER;
use super::strait::{strait_outcomes, Weather};
use super::SIDES;
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use std::sync::{LazyLock, OnceLock};
use toml::Table;

mod build;
mod points;
mod steps;
pub use build::build;
pub use points::{Point, Reached};

pub const SUMMARY: &str = "the whole military expedition: straits, a naval and a land interception, landing or direct assault, then the assault or pacification, cards carried between steps";
/// Who wins.
pub const OUTCOMES: &[&str] = &super::SIDES;
const ROUTE: Key = keys::choice("route", &["land", "naval"])
    .default_choice("land")
    .help("\"naval\": one naval leg (the troops must fit in the fleets)");
const STRAITS: Key = keys::int("straits", 0, 10)
    .default_int(0)
    .help("straits on the land legs");
const TARGET_KIND: Key = keys::choice("kind", &["city", "barbarian"])
    .default_choice("city")
    .help("a city (size, markers, capital, owner and its helpers) or a barbarian area (strength, enraged)");
const ARRIVAL: Key = keys::choice("arrival", &["direct", "landing", "march"])
    .default_choice("direct")
    .help("by sea: \"direct\" assault straight from the ships when the fleets' assault factors reach the city's size (A-22), \"landing\" at the city, or \"march\": landing at another port and marching on by land (a land leg after the naval one: no direct assault, the fleets do not fight in the assault)");
const LAND_AT: Key = keys::choice("land_interception_at", &["arrival", "departure"])
    .default_choice("arrival")
    .help("where the land interception is fought (L735-L741): \"arrival\" on the land leg after the naval one or at the city (by sea: after the naval battle, and a direct assault skips it), \"departure\" at a city or pacified area of the land leg before the naval one (before the naval battle); on a land route both are the same battle");
const ASSAULT_EXTRA_DICE: Key = keys::int("assault_extra_dice", 0, 30)
    .default_int(0)
    .help("City Attack / Special Event dice the attacker adds to the assault (Special Event dice to a pacification's field battle)");
const TARGET: &[&str] = &["target"];
const TARGET_SIZE: Key = SIZE
    .absent("")
    .help("the city's size (required for a city)");
/// The target's keys narrow with its kind.
const CITY_KEYS: &[Key] = &[
    TARGET_KIND,
    TARGET_SIZE,
    MARKERS,
    CAPITAL,
    OWNER,
    LEADERS,
    EXTRA_DICE,
    MODIFIER,
];
const AREA_KEYS: &[Key] = &[TARGET_KIND, STRENGTH, ENRAGED];

pub const KEYS: &[Key] = &keys::join::<40>(&[
    &[
        ROUTE,
        STRAITS,
        WEATHER,
        ARRIVAL,
        LAND_AT,
        ASSAULT_EXTRA_DICE,
    ],
    &keys::placed(EXPEDITION_KEYS, super::ATTACKER),
    &keys::placed(SEA_SIDE_KEYS, &["naval_interception"]),
    &keys::placed(INTERCEPTOR_KEYS, &["land_interception"]),
    &keys::placed(
        [
            TARGET_KIND,
            TARGET_SIZE,
            MARKERS,
            CAPITAL,
            OWNER,
            LEADERS.help("the city's helpers: Leader cards"),
            EXTRA_DICE.help("the city's helpers: City Defence / Special Event dice"),
            MODIFIER,
            STRENGTH.help("a barbarian area's printed strength"),
            ENRAGED,
        ],
        TARGET,
    ),
]);

const MAX_CARDS: usize = 24;

/// The attacker's expedition: its cards (troops first, then fleets) and leaders.
#[derive(Clone, Debug)]
struct Em {
    cards: Vec<Card>,
    fleet: Vec<bool>,
    /// The fleet (card index) each troop sails on.
    aboard: Vec<Option<usize>>,
    leader_dice: u32,
    leaders: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    alive: u32,
    leaders: bool,
    /// The Special Event dice of the card window ([`Expedition::with_special`]) were played in
    /// an earlier battle of the chain (spent: the later combats do not have them).
    spent: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fail {
    Wrecked,
    AtSea,
    OnLand,
    Target,
}

/// Tallies along one path: VP, and cards recovered in expectation (the recovery d6s are
/// independent of everything after, so their expectation is exact).
#[derive(Clone, Copy, Debug, Default)]
struct Books {
    vp: [f64; 2],
    recovered: [f64; 2],
    defender_cards: u32,
    cards_at_target: u32,
}

/// One way a battle against an interceptor goes.
#[derive(Clone, Copy, Debug)]
struct Branch {
    p: f64,
    /// Whether the attacker won.
    won: bool,
    /// The state it goes on with (None: the expedition is over).
    next: Option<State>,
    /// The attacker's cards discarded in it (leaders included).
    gone: u32,
    /// The cards its recovery rolls bring back, in expectation.
    back: f64,
    /// The end-of-combat VP of its cards that fought to a won resolution.
    win_vp: f64,
}

struct BattleSetup {
    ta: Total,
    td: Total,
    /// Every card of the expedition (leaders included): what a lost battle discards.
    all: u32,
    has_own: bool,
    d_has: bool,
    /// The defender's cards at the resolution: the casualty die must be at most this.
    count: u32,
    candidates: Vec<Vec<usize>>,
}

/// What the expedition attacks: a city (its size, its defence dice with its helpers', whether a
/// player owns it, a flat modifier for card texts) or a barbarian area (its dice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    City {
        size: u32,
        dice: u32,
        player_owner: bool,
        modifier: i32,
    },
    Barbarian {
        dice: u32,
    },
}

/// One card's texts as the chain plays them (digest §6.3 effect hooks, timing of A-61); all
/// zero (recovery on a 6) for a vanilla card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardText {
    /// Resolution: dice and a fixed bonus added to its side's total while it fights.
    pub dice: u32,
    pub bonus: i32,
    /// Resolution: defence dice the attacked city loses in the assault it fights in.
    pub ignore: u32,
    /// Start of a field battle: Troop cards the other side discards.
    pub kills: u32,
    /// Flee: the land interceptor flees while the card is in the expedition.
    pub cancel: bool,
    /// Recovery: the lowest d6 that brings the card back.
    pub recover_from: u32,
    /// End of combat: VP to its owner when its side wins the combat it fought in.
    pub win_vp: u32,
    /// End of combat: cards its owner draws when its side wins (the game draws them; the
    /// chain only reports which cards fought to a won resolution, so a card with this text
    /// alone must not read as vanilla).
    pub draws: u32,
}

impl Default for CardText {
    fn default() -> CardText {
        CardText {
            dice: 0,
            bonus: 0,
            ignore: 0,
            kills: 0,
            cancel: false,
            recover_from: 6,
            win_vp: 0,
            draws: 0,
        }
    }
}

/// The texts of an expedition's cards (in its order: troops, then fleets), of its land
/// interceptor's troops and of its naval interceptor's cards (in their forces' orders; the
/// naval interceptor's resolution dice and bonus are in its force's `extra_dice` and
/// `modifier`, so only its recovery texts are read here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Texts {
    pub em: Vec<CardText>,
    pub land: Vec<CardText>,
    pub naval: Vec<CardText>,
}

pub struct Expedition {
    em: Em,
    /// None for vanilla cards: every hook is skipped and the chain plays as printed.
    texts: Option<Box<Texts>>,
    naval: bool,
    straits: u32,
    weather: Weather,
    wreck_ones: u32,
    naval_interception: Option<Force>,
    land_interception: Option<Force>,
    target: Target,
    direct: bool,
    /// The naval leg lands at another port and the expedition marches on by land (§3.1
    /// combined route): no direct assault, the fleets stay out of the assault.
    march: bool,
    /// The land interception is fought on the land leg before the naval one.
    land_first: bool,
    /// Where the chain starts (the start, or a later point for a defender deciding there).
    from: Point,
    /// The window's Special Event dice were spent before `from` (a chain started later on).
    spent_before: bool,
    assault_extra_dice: u32,
    /// Special Event (X) dice committed to the expedition's card window for the attacker and
    /// for the defender (§3.0: anyone may play them in a battle's window or an assault's).
    special: [u32; 2],
    /// Rule option `special_event_window`: the X dice join the first combat of the chain (an
    /// interception's naval or field battle, else the assault or pacification) and are spent
    /// there; false: they are kept for the assault or pacification.
    special_in_battles: bool,
    fleets_after_landing: bool,
    dice_reading: &'static str,
    em_ends_without_troops: bool,
    barbarian_dice_count: bool,
    /// Built on first use: a game's expedition only walks its chain, and naming the columns
    /// cost as much as the walk (what a battle file prints is the same either way).
    schema: OnceLock<Schema>,
    columns: Columns,
}

/// Where the expedition's quantities sit in its schema, fixed by [`schema_and_columns`] as it
/// names them (the same for any number of cards).
#[derive(Clone, Copy)]
struct Columns {
    cards_at_target: usize,
    /// Where the expedition failed, in the order of [`Fail`].
    failed: [usize; 4],
    /// Attacker's, defender's.
    vp: [usize; 2],
    recovered: [usize; 2],
    defender_spent: usize,
}

/// The expedition's schema for `cards` Troop and Fleet cards and where its quantities sit.
fn schema_and_columns(cards: usize) -> (Schema, Columns) {
    let mut schema = Schema::new(OUTCOMES);
    let columns = Columns {
        // Troop and Fleet cards that reach the assault or pacification (0 when it never gets
        // there).
        cards_at_target: schema.count("cards_at_target", cards),
        failed: [
            "wrecked_at_a_strait",
            "lost_at_sea",
            "lost_on_land",
            "failed_at_the_target",
        ]
        .map(|s| schema.scalar(s)),
        vp: SIDES.map(|side| schema.scalar_bounded(side_column(side, "vp"), 20.0)),
        recovered: [(SIDES[0], MAX_CARDS as f64), (SIDES[1], 60.0)].map(|(side, bound)| {
            schema.scalar_bounded(side_column(side, "cards_recovered"), bound)
        }),
        defender_spent: schema.scalar_bounded(side_column(SIDES[1], "cards_spent"), 60.0),
    };
    (schema, columns)
}

/// The columns of every expedition (the card count only bounds a count, it moves no column).
static COLUMNS: LazyLock<Columns> = LazyLock::new(|| schema_and_columns(0).1);

impl Columns {
    fn failed(&self, f: Fail) -> usize {
        self.failed[f as usize]
    }
}

/// A naval expedition's route beyond its one naval leg (§3.1, §3.3): a land leg after it, and
/// where on the route the land interception is fought.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Route {
    /// A land leg after the naval one (landing at another port, then marching to the target).
    pub march: bool,
    /// The land interception on the land leg before the naval one (before the naval battle).
    pub land_first: bool,
}

/// What one expedition did, for a game. Card bits follow the expedition's cards: its troops in
/// order, then its fleets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Played {
    /// None: the city was taken or the area pacified.
    pub failed: Option<Fail>,
    /// Battle VP for (attacker, defender), and the conquest's size; no pacification reward.
    pub vp: [f64; 2],
    /// The winning margin of the assault or pacification roll (0 unless it succeeded).
    pub margin: i32,
    /// Cards lost in battles that came back on a 6 (the rest of the expedition is discarded).
    pub recovered: u32,
    /// Leaders lost in battles that came back on a 6.
    pub leaders_recovered: u32,
    /// Of each interceptor (naval, land), the cards (troops, fleets, leaders in order) that came
    /// back on a 6.
    pub interceptor_recovered: [u32; 2],
    /// Whether each interception (naval, land) was fought.
    pub intercepted: [bool; 2],
    /// The cards (bits as in `recovered`) that reached the target, and whether the leaders did.
    pub alive_at_target: u32,
    pub leaders_at_target: bool,
    /// The cards (bits as in `recovered`) that fought in the assault or pacification.
    pub fought_at_target: u32,
    /// The cards (bits as in `recovered`) that fought to the resolution of each interception
    /// battle (naval, land) the attacker won: their end-of-combat texts fire (their VP are in
    /// `vp`).
    pub won_battle_cards: [u32; 2],
    /// The cards (bits as in `recovered`) a land interceptor's start-of-battle texts killed.
    pub killed: u32,
    /// The land interceptor fled (a cancel_interception text): no battle, its cards go home.
    pub fled: bool,
    /// Where the chain stopped when played up to a point ([`Expedition::play_between`]).
    pub reached: Option<Reached>,
    /// The interception battle (0 naval, 1 land) whose card window the Special Event dice of
    /// [`Expedition::with_special`] joined (None: kept for the assault or pacification, or
    /// never played): their cards are discarded there and roll for recovery.
    pub special_battle: Option<usize>,
}

impl Expedition {
    /// The exact chance of success and the attacker's expected battle and conquest VP.
    pub fn chance_and_vp(&self) -> (f64, f64) {
        let mut p = 0.0;
        let mut vp = 0.0;
        self.walk(&mut |q, b, f| {
            if f.is_none() {
                p += q;
            }
            vp += q * b.vp[0];
        });
        (p, vp)
    }

    /// One expedition with dice, in the trial's order of rolls.
    pub fn play(&self, dice: &mut Dice) -> Played {
        self.run(dice, self.start(), self.from, None).0
    }

    /// The expedition chain on the given cards and situation: a battle file's, or a game's.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        cf: CardForce,
        naval: bool,
        straits: u32,
        weather: Weather,
        naval_interception: Option<Force>,
        land_interception: Option<Force>,
        target: Target,
        direct: bool,
        assault_extra_dice: u32,
        options: &Options,
    ) -> Expedition {
        let mut cards = cf.troops.clone();
        let mut fleet = vec![false; cards.len()];
        cards.extend(cf.fleets.iter().cloned());
        fleet.extend(vec![true; cf.fleets.len()]);
        let troops = cf.troops.len();
        let mut aboard: Vec<Option<usize>> =
            cf.aboard.iter().map(|a| a.map(|k| troops + k)).collect();
        aboard.resize(cards.len(), None);
        let em = Em {
            cards,
            fleet,
            aboard,
            leader_dice: cf.leaders.iter().sum(),
            leaders: cf.leaders.len() as u32,
        };
        Expedition {
            em,
            texts: None,
            naval,
            straits,
            weather,
            wreck_ones: options.int("bad_weather_wreck_ones") as u32,
            naval_interception,
            land_interception,
            target,
            direct,
            march: false,
            land_first: false,
            from: Point::Start,
            spent_before: false,
            assault_extra_dice,
            special: [0, 0],
            special_in_battles: false,
            fleets_after_landing: options.flag("fleets_assault_after_landing"),
            dice_reading: options.choice("dice_fc_for_direct_assault"),
            em_ends_without_troops: options.flag("em_ends_without_troops"),
            barbarian_dice_count: options.choice("barbarian_casualty_count") == "dice",
            schema: OnceLock::new(),
            columns: *COLUMNS,
        }
    }

    /// Sets the route beyond the naval leg (a land route ignores it).
    pub fn with_route(mut self, route: Route) -> Expedition {
        if self.naval && route != Route::default() {
            self.march = route.march;
            self.land_first = route.land_first;
        }
        self
    }

    /// The Special Event (X) dice committed to the expedition's card window for the attacker
    /// and for the defender, and where they are played (option `special_event_window`): in the
    /// first combat of the chain (`in_battles`: an interception battle if one is fought before
    /// the target) or in the assault or pacification.
    pub fn with_special(mut self, dice: [u32; 2], in_battles: bool) -> Expedition {
        self.special = dice;
        self.special_in_battles = in_battles && dice != [0, 0];
        self
    }

    /// The window's Special Event dice were already spent where the chain starts (a chain
    /// started at a later point, after a battle that played them).
    pub fn starting_spent(mut self, spent: bool) -> Expedition {
        self.spent_before = spent && self.special_in_battles;
        self
    }

    /// The Special Event dice (attacker's, defender's) an interception battle from `s` adds.
    fn battle_window(&self, s: State) -> [u32; 2] {
        if self.special_in_battles && !s.spent {
            self.special
        } else {
            [0, 0]
        }
    }

    /// The Special Event dice (attacker's, defender's) the assault or pacification from `s`
    /// adds: those no battle spent.
    fn target_window(&self, s: State) -> [u32; 2] {
        if s.spent {
            [0, 0]
        } else {
            self.special
        }
    }

    /// `s` after a battle: its window's Special Event dice spent (when battles play them).
    fn spend(&self, mut s: State) -> State {
        s.spent |= self.special_in_battles;
        s
    }

    /// Gives the cards their texts (a game's expedition on a deck with effects); all-vanilla
    /// texts leave the chain as printed.
    pub fn with_texts(mut self, texts: Texts) -> Expedition {
        let vanilla = CardText::default();
        if texts
            .em
            .iter()
            .chain(&texts.land)
            .chain(&texts.naval)
            .any(|t| *t != vanilla)
        {
            self.texts = Some(Box::new(texts));
        }
        self
    }

    fn text(&self, i: usize) -> CardText {
        self.texts
            .as_ref()
            .map_or_else(CardText::default, |t| t.em[i])
    }

    /// The flee hook (A-61: flee effects first): a card of the expedition makes the land
    /// interceptor flee.
    fn flees(&self, s: State) -> bool {
        self.texts.is_some() && self.alive(s).any(|i| self.text(i).cancel)
    }

    /// Expected cards back from a recovery roll for each card of `mask` (its text's lowest
    /// recovering roll, else a 6) and for `leaders` leaders (a 6).
    fn recovery_mass(&self, mask: u32, leaders: u32) -> f64 {
        match &self.texts {
            None => (mask.count_ones() + leaders) as f64 / 6.0,
            Some(t) => {
                let mut m = leaders as f64 / 6.0;
                for (i, c) in t.em.iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        m += (7 - c.recover_from) as f64 / 6.0;
                    }
                }
                m
            }
        }
    }

    /// The interceptor's lowest recovering roll for its card `j` (troops, fleets, leaders in
    /// order; texts for the land interceptor's troops and the naval interceptor's cards).
    fn interceptor_recover_from(&self, naval: bool, j: usize) -> u32 {
        match &self.texts {
            Some(t) => {
                let texts = if naval { &t.naval } else { &t.land };
                texts.get(j).map_or(6, |c| c.recover_from)
            }
            None => 6,
        }
    }

    /// With texts, a field battle's defender at the resolution: each way the start-of-battle
    /// kills (the attacker's fighting troops' `kills`) leave its fighting troops, equally
    /// likely, as (weight, total, card count, has troops), `window` Special Event dice added
    /// to its total. None: no texts, or at sea.
    fn defender_variants(
        &self,
        d: &Force,
        fighting: &[usize],
        window: u32,
    ) -> Option<Vec<(f64, Total, u32, bool)>> {
        let t = self.texts.as_ref()?;
        let Force::Cards(cf) = d else {
            return None;
        };
        let kills: u32 = fighting.iter().map(|&i| t.em[i].kills).sum();
        let rest = Total {
            fixed: cf.modifier,
            dice: 1 + cf.extra_dice + window + cf.leaders.iter().sum::<u32>(),
        };
        let mut parts: Vec<Total> = Vec::new();
        for (j, c) in cf.troops.iter().enumerate() {
            if !c.field.usable() {
                continue;
            }
            let text = t.land.get(j).copied().unwrap_or_default();
            let mut part = Total {
                fixed: text.bonus,
                dice: text.dice,
            };
            match c.field {
                Cv::Fixed(n) => part.fixed += n as i32,
                Cv::Dice(k) => part.dice += k,
                Cv::Dash => {}
            }
            parts.push(part);
        }
        let m = parts.len();
        let k = (kills as usize).min(m);
        let subsets: Vec<u32> = (0u32..1 << m)
            .filter(|x| x.count_ones() as usize == m - k)
            .collect();
        let w = 1.0 / subsets.len() as f64;
        Some(
            subsets
                .into_iter()
                .map(|keep| {
                    let mut td = rest;
                    for (j, p) in parts.iter().enumerate() {
                        if keep & (1 << j) != 0 {
                            td.fixed += p.fixed;
                            td.dice += p.dice;
                        }
                    }
                    let n = keep.count_ones();
                    (w, td, n, n > 0)
                })
                .collect(),
        )
    }

    /// The cards that fight in the assault or pacification from `s`.
    #[inline]
    fn target_cards(&self, s: State) -> Vec<usize> {
        match self.target {
            Target::City { .. } => {
                let fleets_fight = self.naval
                    && !self.march
                    && (self.arrives_directly(s) || self.fleets_after_landing);
                self.alive(s)
                    .filter(|&i| {
                        (!self.em.fleet[i] || fleets_fight) && self.em.cards[i].assault.usable()
                    })
                    .collect()
            }
            Target::Barbarian { .. } => self
                .troops(s)
                .into_iter()
                .filter(|&i| self.em.cards[i].field.usable())
                .collect(),
        }
    }

    /// The end-of-combat hook of a won assault or pacification: the VP its fighting cards'
    /// texts give the attacker.
    fn target_win_vp(&self, s: State) -> f64 {
        match &self.texts {
            None => 0.0,
            Some(_) => self.win_vp_of(&self.target_cards(s)),
        }
    }

    fn start(&self) -> State {
        State {
            alive: (1u32 << self.em.cards.len()) - 1,
            leaders: self.em.leaders > 0,
            spent: self.spent_before,
        }
    }

    fn alive(&self, s: State) -> impl Iterator<Item = usize> + '_ {
        (0..self.em.cards.len()).filter(move |&i| s.alive & (1 << i) != 0)
    }

    fn troops(&self, s: State) -> Vec<usize> {
        self.alive(s).filter(|&i| !self.em.fleet[i]).collect()
    }

    fn fleets(&self, s: State) -> Vec<usize> {
        self.alive(s).filter(|&i| self.em.fleet[i]).collect()
    }

    fn capacity(&self, s: State) -> u32 {
        self.fleets(s)
            .iter()
            .map(|&i| self.em.cards[i].naval.as_count())
            .sum()
    }

    /// Outside a battle a lost fleet leaves troops without room: discard the weakest (assault
    /// value, fixed counted as is, dice as 3.5 each) until the rest fit (L1193-L1201).
    fn fit_cargo(&self, mut s: State) -> State {
        if !self.naval {
            return s;
        }
        let room = self.capacity(s) as usize;
        let mut troops = self.troops(s);
        troops.sort_by(|&x, &y| {
            worth(&self.em.cards[x])
                .total_cmp(&worth(&self.em.cards[y]))
                .then(y.cmp(&x))
        });
        while troops.len() > room {
            let i = troops.remove(0);
            s.alive &= !(1 << i);
        }
        if self.fleets(s).is_empty() {
            s.leaders = false;
        }
        s
    }

    /// The troops each alive fleet carries: as loaded at the start (the `aboard` list, or spread
    /// evenly, A-26); troops whose fleet was lost outside a battle move to fleets with room.
    fn cargo(&self, s: State) -> Vec<(usize, Vec<usize>)> {
        let fleets = self.fleets(s);
        let mut load: Vec<(usize, Vec<usize>)> = fleets.iter().map(|&f| (f, Vec::new())).collect();
        let mut orphans = Vec::new();
        for t in self.troops(s) {
            match self.em.aboard[t].and_then(|f| load.iter().position(|l| l.0 == f)) {
                Some(k) => load[k].1.push(t),
                None => orphans.push(t),
            }
        }
        for t in orphans {
            let room = |k: usize| {
                self.em.cards[load[k].0].naval.as_count() as i64 - load[k].1.len() as i64
            };
            if let Some(k) = (0..load.len())
                .filter(|&k| room(k) > 0)
                .max_by_key(|&k| (room(k), std::cmp::Reverse(k)))
            {
                load[k].1.push(t);
            }
        }
        load
    }

    fn battle_step(
        &self,
        states: Vec<(f64, State, Books)>,
        d: &Force,
        naval: bool,
        fail: Fail,
        leaf: &mut impl FnMut(f64, Books, Option<Fail>),
    ) -> Vec<(f64, State, Books)> {
        let dn = Self::interceptor_cards(d);
        let d_back = match self.texts {
            None => dn as f64 / 6.0,
            Some(_) => (0..dn as usize)
                .map(|j| (7 - self.interceptor_recover_from(naval, j)) as f64 / 6.0)
                .sum(),
        };
        let mut next = Vec::new();
        for (p, s, b) in states {
            for br in self.battle_branches(s, d, naval) {
                if br.p == 0.0 {
                    continue;
                }
                let mut nb = b;
                nb.recovered[0] += br.back;
                nb.recovered[1] += d_back;
                nb.defender_cards += dn;
                let v = if br.won { 2.0 } else { -2.0 };
                nb.vp[0] += v + br.win_vp;
                if d.is_player() {
                    nb.vp[1] -= v;
                }
                match br.next {
                    Some(n) => next.push((p * br.p, self.spend(n), nb)),
                    None => leaf(p * br.p, nb, Some(fail)),
                }
            }
        }
        merge(next)
    }
}

/// The index of the `n`-th set bit of `bits` (0 = the lowest).
fn nth_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// A state without the cards of `mask`.
fn remove(s: State, mask: u32) -> State {
    State {
        alive: s.alive & !mask,
        ..s
    }
}

fn worth(c: &Card) -> f64 {
    match c.assault {
        Cv::Dash => 0.0,
        Cv::Fixed(n) => n as f64,
        Cv::Dice(k) => 3.5 * k as f64,
    }
}

/// Adds up branches that reached the same state with the same books.
fn merge(v: Vec<(f64, State, Books)>) -> Vec<(f64, State, Books)> {
    let mut out: Vec<(f64, State, Books)> = Vec::with_capacity(v.len());
    for (p, s, b) in v {
        match out.iter_mut().find(|(_, t, c)| *t == s && same(c, &b)) {
            Some(e) => e.0 += p,
            None => out.push((p, s, b)),
        }
    }
    out
}

fn same(a: &Books, b: &Books) -> bool {
    a.vp == b.vp && a.recovered == b.recovered && a.defender_cards == b.defender_cards
}

impl Simulate for Expedition {
    /// One expedition with dice: the straits' dice, both battles' totals, the casualty die and the
    /// lost card, the recovery dice, then the assault.
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let schema = self.schema();
        out.clear(schema.counts.len(), schema.scalars.len());
        let (played, books) = self.run(dice, self.start(), self.from, None);
        record(&self.columns, out, &books, played.failed)
    }
}

fn record(c: &Columns, out: &mut Trial, b: &Books, f: Option<Fail>) {
    out.outcome = if f.is_none() { 0 } else { 1 };
    out.counts[c.cards_at_target] = b.cards_at_target;
    if let Some(f) = f {
        out.scalars[c.failed(f)] = 1.0;
    }
    out.scalars[c.vp[0]] = b.vp[0];
    out.scalars[c.vp[1]] = b.vp[1];
    out.scalars[c.recovered[0]] = b.recovered[0];
    out.scalars[c.recovered[1]] = b.recovered[1];
    out.scalars[c.defender_spent] = b.defender_cards as f64;
}

impl BattleModel for Expedition {
    fn schema(&self) -> &Schema {
        self.schema
            .get_or_init(|| schema_and_columns(self.em.cards.len()).0)
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(self.schema());
        let c = &self.columns;
        self.walk(&mut |p, b, f| {
            if p <= 0.0 {
                return;
            }
            ex.outcomes[if f.is_none() { 0 } else { 1 }] += p;
            ex.counts[c.cards_at_target].add_mass(b.cards_at_target as usize, p);
            if let Some(f) = f {
                ex.scalars[c.failed(f)] += p;
            }
            ex.scalars[c.vp[0]] += p * b.vp[0];
            ex.scalars[c.vp[1]] += p * b.vp[1];
            ex.scalars[c.recovered[0]] += p * b.recovered[0];
            ex.scalars[c.recovered[1]] += p * b.recovered[1];
            ex.scalars[c.defender_spent] += p * b.defender_cards as f64;
        });
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        let cards: Vec<String> = self
            .em
            .cards
            .iter()
            .zip(&self.em.fleet)
            .map(|(c, &f)| format!("{} {}", if f { "fleet" } else { "troop" }, c.show()))
            .collect();
        vec![format!(
            "{}: {}; {} leader{} ({} dice in every combat)",
            SIDES[0],
            cards.join(", "),
            self.em.leaders,
            if self.em.leaders == 1 { "" } else { "s" },
            self.em.leader_dice
        )]
    }

    /// Written when asked (a battle file's report), not when the chain is built (a game's
    /// expedition never prints them).
    fn notes(&self) -> Vec<String> {
        let straits = self.straits;
        let mut notes = vec![format!(
            "{} route; {straits} strait{} in {:?} weather; naval interception: {}; land interception: {}",
            if self.naval { "naval" } else { "land" },
            if straits == 1 { "" } else { "s" },
            self.weather,
            self.naval_interception.as_ref().map_or("none".into(), |f| f.describe()),
            self.land_interception.as_ref().map_or("none".into(), |f| f.describe()),
        )];
        notes.push("every card of the expedition is discarded at its end (after the assault, or when it fails); cards recovered count the 6s rolled for cards lost in battles (none after an assault or a wreck)".into());
        if self.naval {
            notes.push("at sea the troops are spread over the surviving fleets (A-26); troops without room when fleets are lost outside a battle are discarded, weakest assault value first".into());
        }
        // `with_route` keeps a naval route's march and land_first only when either is set.
        if self.naval && (self.march || self.land_first) {
            notes.push(format!(
                "{}; the land interception at {}",
                if self.march {
                    "a land leg after the naval one: no direct assault, the fleets stay out of the assault"
                } else {
                    "the naval leg ends at the target"
                },
                if self.land_first {
                    "a node of the land leg before the naval one, before the naval battle"
                } else {
                    "the arrival"
                }
            ));
        }
        if self.special != [0, 0] {
            notes.push(format!(
                "Special Event dice: {} for the attacker, {} for the defender, played in {}",
                self.special[0],
                self.special[1],
                if self.special_in_battles {
                    "the first combat of the chain (an interception battle, else the target)"
                } else {
                    "the assault or pacification"
                }
            ));
        }
        notes
    }
}

//! A loaded Core-IDM scenario (digest §6.3): the map graph, the empires in seat order, their
//! decks, and the board's tables, each file with its provenance.

use crate::rulesets::imperios_del_mediterraneo::cards::Cv;

/// Where a data file's values come from. Only `Transcribed` data is the real game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataProvenance {
    /// Copied from the board, the cards or the scenario booklet.
    Transcribed,
    /// Invented to exercise the engine (the mirror ring, the vanilla decks).
    Synthetic,
    /// A stand-in for a missing table (digest §6.2).
    Placeholder,
}

impl DataProvenance {
    pub const NAMES: [&'static str; 3] = ["transcribed", "synthetic", "placeholder"];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    pub fn parse(s: &str) -> Option<DataProvenance> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| [Self::Transcribed, Self::Synthetic, Self::Placeholder][i])
    }
}

/// The banner every output from data that is not transcribed carries (digest §6.1).
pub const SYNTHETIC_BANNER: &str = "SYNTHETIC DATA — NOT THE REAL GAME";

/// One data file (or table) and what it rests on.
#[derive(Clone, Debug)]
pub struct DataSource {
    pub file: String,
    pub what: String,
    pub provenance: DataProvenance,
    pub why: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct City {
    pub name: String,
    /// The territory (on the ring, the sector; 0 = the first empire's) the city lies in: the
    /// policies break ties between equal choices by territory counted from their own, so no
    /// sector is everyone's first choice (a tie broken by index would favour or hurt one empire
    /// whatever its seat).
    pub sector: u8,
    pub size: u8,
    pub port: bool,
    pub key: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Area {
    pub name: String,
    pub sector: u8,
    pub strength: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    Road,
    Strait,
    BarbarianPath,
}

impl EdgeKind {
    pub const NAMES: [&'static str; 3] = ["road", "strait", "barbarian_path"];
    pub fn parse(s: &str) -> Option<EdgeKind> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| [Self::Road, Self::Strait, Self::BarbarianPath][i])
    }
}

/// The board: nodes are the cities (0..cities.len()) then the barbarian areas.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    pub cities: Vec<City>,
    pub areas: Vec<Area>,
    /// Each node's neighbours and the kind of edge that links them.
    pub adjacent: Vec<Vec<(usize, EdgeKind)>>,
    /// The territories (the ring's sectors) in the order the map first names them; a node's
    /// `sector` indexes this list.
    pub territories: Vec<String>,
}

impl Map {
    pub fn nodes(&self) -> usize {
        self.cities.len() + self.areas.len()
    }
    pub fn is_city(&self, node: usize) -> bool {
        node < self.cities.len()
    }
    /// The area index of a node that is a barbarian area.
    pub fn area(&self, node: usize) -> usize {
        node - self.cities.len()
    }
    pub fn sector(&self, node: usize) -> u8 {
        if self.is_city(node) {
            self.cities[node].sector
        } else {
            self.areas[self.area(node)].sector
        }
    }

    pub fn node_name(&self, node: usize) -> &str {
        if self.is_city(node) {
            &self.cities[node].name
        } else {
            &self.areas[self.area(node)].name
        }
    }
}

/// The card types (digest §4.2), as bits of [`CardKind::types`].
pub const TROOP: u8 = 1;
pub const FLEET: u8 = 2;
pub const LEADER: u8 = 4;
pub const CITY_DEFENCE: u8 = 8;
pub const CITY_ATTACK: u8 = 16;
pub const EMPIRE: u8 = 32;
pub const SPECIAL: u8 = 64;
/// The type letters of §6.3's schema, bit by bit.
pub const TYPE_LETTERS: [(&str, u8); 7] = [
    ("T", TROOP),
    ("F", FLEET),
    ("L", LEADER),
    ("D", CITY_DEFENCE),
    ("A", CITY_ATTACK),
    ("I", EMPIRE),
    ("X", SPECIAL),
];

/// The timing points of a card text (digest §6.3 Layer A, the timing model of A-61): in a
/// combat, flee effects first, then start-of-battle effects, then (all cards played, dice
/// rolled) the resolution bonuses, then the end-of-combat effects and the recovery rolls; out
/// of combat, an X card played outside a combat and an Empire card played as an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    OnFlee,
    OnBattleStart,
    OnResolution,
    OnEndOfCombat,
    RecoveryRule,
    OnPlayOutsideCombat,
    EmpireEffect,
}

impl Timing {
    pub const ALL: [Timing; 7] = [
        Timing::OnFlee,
        Timing::OnBattleStart,
        Timing::OnResolution,
        Timing::OnEndOfCombat,
        Timing::RecoveryRule,
        Timing::OnPlayOutsideCombat,
        Timing::EmpireEffect,
    ];
    pub const NAMES: [&'static str; 7] = [
        "on_flee",
        "on_battle_start",
        "on_resolution",
        "on_end_of_combat",
        "recovery_rule",
        "on_play_outside_combat",
        "empire_effect",
    ];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The generic card texts a deck may attach to a card (digest §6.3 Layer B: "implement the
/// effect tags for the most common text patterns"), each with an amount and a timing point.
/// Combat effects act while their card (a Troop or Fleet) is in its expedition or interception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectKind {
    /// +amount dice to its side's total in every combat the card fights in.
    CombatDice,
    /// +amount to its side's total in every combat the card fights in (a fixed FC bonus that
    /// counts only while the card is there at the resolution, L1184-L1186).
    CombatBonus,
    /// The attacked city rolls amount fewer defence dice in the assault the card fights in (a
    /// fortification level ignored; never below 1 die).
    IgnoreFortification,
    /// At the start of a field battle the card fights in, the other side discards amount
    /// uniformly random Troop cards before the resolution (start-of-battle kills, A-27).
    EnemyLosses,
    /// The interceptor the card's expedition meets by land flees before the battle: its cards
    /// go back to its owner's hand and no battle is fought (a flee effect, L1188-L1189).
    CancelInterception,
    /// The card comes back to hand on a recovery roll of amount or more, not only on a 6 (as
    /// Cónsul's or the Lanceros libios de élite's special roll, L821-L823).
    Recovery,
    /// Its owner draws amount cards: when its side wins the combat (end of combat), or when
    /// the Empire card is played.
    DrawCards,
    /// Its owner gains amount VP: when its side wins the combat (end of combat), or when the
    /// Empire card is played.
    VictoryPoints,
}

impl EffectKind {
    pub const ALL: [EffectKind; 8] = [
        EffectKind::CombatDice,
        EffectKind::CombatBonus,
        EffectKind::IgnoreFortification,
        EffectKind::EnemyLosses,
        EffectKind::CancelInterception,
        EffectKind::Recovery,
        EffectKind::DrawCards,
        EffectKind::VictoryPoints,
    ];
    pub const NAMES: [&'static str; 8] = [
        "combat_dice",
        "combat_bonus",
        "ignore_fortification",
        "enemy_losses",
        "cancel_interception",
        "recovery",
        "draw_cards",
        "victory_points",
    ];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    pub fn parse(s: &str) -> Option<EffectKind> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::ALL[i])
    }
    /// The timing points the effect can fire at: declared once, read by the loader's check
    /// and by the engine's hooks.
    pub fn timings(self) -> &'static [Timing] {
        match self {
            EffectKind::CombatDice | EffectKind::CombatBonus | EffectKind::IgnoreFortification => {
                &[Timing::OnResolution]
            }
            EffectKind::EnemyLosses => &[Timing::OnBattleStart],
            EffectKind::CancelInterception => &[Timing::OnFlee],
            EffectKind::Recovery => &[Timing::RecoveryRule],
            EffectKind::DrawCards | EffectKind::VictoryPoints => {
                &[Timing::OnEndOfCombat, Timing::EmpireEffect]
            }
        }
    }
    /// The amounts a deck may give (a recovery's is the lowest d6 that brings the card back).
    pub fn amounts(self) -> (u8, u8) {
        match self {
            EffectKind::CombatDice => (1, 6),
            EffectKind::CombatBonus => (1, 12),
            EffectKind::IgnoreFortification => (1, 3),
            EffectKind::EnemyLosses => (1, 3),
            EffectKind::CancelInterception => (1, 1),
            EffectKind::Recovery => (2, 5),
            EffectKind::DrawCards => (1, 3),
            EffectKind::VictoryPoints => (1, 5),
        }
    }
}

/// One card text: what it does, how much, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardEffect {
    pub kind: EffectKind,
    pub amount: u8,
    pub timing: Timing,
}

/// One card as printed: its types, its three combat values, the dice a Leader / City Defence /
/// City Attack adds.
#[derive(Clone, Debug, PartialEq)]
pub struct CardKind {
    pub name: String,
    pub types: u8,
    pub field: Cv,
    pub naval: Cv,
    pub assault: Cv,
    pub dice: u8,
    pub effects: Vec<CardEffect>,
    /// A Special Event (X) card's assumed text: what its label says it stands for (its
    /// `combat_dice` are then its `dice`, for either side of an assault).
    pub assumed: Option<String>,
}

impl CardKind {
    pub fn is(&self, t: u8) -> bool {
        self.types & t != 0
    }

    /// The amount of this card's effect of this kind at this timing (0: none).
    pub fn effect(&self, kind: EffectKind, timing: Timing) -> u8 {
        self.effects
            .iter()
            .filter(|e| e.kind == kind && e.timing == timing)
            .map(|e| e.amount)
            .sum()
    }
}

/// A deck: its card kinds and, card by card, the kind of each (35 entries in a real deck).
#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    pub name: String,
    pub kinds: Vec<CardKind>,
    pub cards: Vec<u8>,
    /// Derived from `kinds` and `cards` by [`Deck::new`], for the players' estimates of hidden
    /// cards: each kind's cards in card order, and the kinds strongest field value first
    /// (equals by kind index).
    pub by_kind: Vec<Vec<u8>>,
    /// Each kind's cards as the bits of a word (card `c`: bit `c`; a deck holds at most
    /// `load::MAX_DECK` = 64 cards).
    pub kind_mask: Vec<u64>,
    pub by_field_strength: Vec<usize>,
    /// Card by card, [`super::military::cv_strength`] of its field and assault values (the
    /// players sort their cards by them).
    pub field_strength: Vec<f64>,
    pub assault_strength: Vec<f64>,
    /// Card by card, its place when every card is sorted strongest field (assault) value
    /// first, equals by card index: sorting cards by it sorts them that way.
    pub field_rank: Vec<u8>,
    pub assault_rank: Vec<u8>,
    /// Whether any card of the deck has a text: the engine's hooks are skipped for a vanilla
    /// deck, so vanilla games play exactly as before the hooks existed.
    pub has_effects: bool,
}

impl Deck {
    pub fn new(name: String, kinds: Vec<CardKind>, cards: Vec<u8>) -> Deck {
        let by_kind: Vec<Vec<u8>> = (0..kinds.len())
            .map(|k| {
                (0..cards.len() as u8)
                    .filter(|&c| cards[c as usize] as usize == k)
                    .collect()
            })
            .collect();
        let kind_mask = by_kind
            .iter()
            .map(|of_kind| of_kind.iter().fold(0u64, |m, &c| m | 1u64 << c))
            .collect();
        let strength = |k: usize| super::military::kind_strength(&kinds[k], false);
        let mut by_field_strength: Vec<usize> = (0..kinds.len()).collect();
        by_field_strength.sort_by(|&a, &b| strength(b).total_cmp(&strength(a)).then(a.cmp(&b)));
        let strength_of = |assault: bool| -> Vec<f64> {
            cards
                .iter()
                .map(|&k| super::military::kind_strength(&kinds[k as usize], assault))
                .collect()
        };
        let field_strength = strength_of(false);
        let assault_strength = strength_of(true);
        let rank = |strength: &[f64]| -> Vec<u8> {
            let mut order: Vec<u8> = (0..cards.len() as u8).collect();
            order.sort_by(|&a, &b| {
                strength[b as usize]
                    .total_cmp(&strength[a as usize])
                    .then(a.cmp(&b))
            });
            let mut rank = vec![0u8; cards.len()];
            for (place, &c) in order.iter().enumerate() {
                rank[c as usize] = place as u8;
            }
            rank
        };
        let field_rank = rank(&field_strength);
        let assault_rank = rank(&assault_strength);
        let has_effects = kinds.iter().any(|k| !k.effects.is_empty());
        Deck {
            name,
            kinds,
            cards,
            by_kind,
            kind_mask,
            by_field_strength,
            field_strength,
            assault_strength,
            field_rank,
            assault_rank,
            has_effects,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Empire {
    pub name: String,
    /// The city holding its capital token.
    pub capital: usize,
    /// Fortification markers placed at set-up, the capital's included.
    pub fortifications: u8,
    pub hand_size: u8,
    /// Index into [`Scenario::decks`].
    pub deck: usize,
}

/// The 11 round events (digest §4.5) in rulebook order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Prosperity,
    GoodWeather,
    NeutralAttack,
    TimeForDiplomacy,
    EnragedBarbarians,
    CampaignSeason,
    Homecoming,
    BadWeather,
    Pirates,
    Scarcity,
    EndOfTurn,
}

impl Event {
    pub const ALL: [Event; 11] = [
        Event::Prosperity,
        Event::GoodWeather,
        Event::NeutralAttack,
        Event::TimeForDiplomacy,
        Event::EnragedBarbarians,
        Event::CampaignSeason,
        Event::Homecoming,
        Event::BadWeather,
        Event::Pirates,
        Event::Scarcity,
        Event::EndOfTurn,
    ];
    pub const NAMES: [&'static str; 11] = [
        "prosperity",
        "good_weather",
        "neutral_attack",
        "time_for_diplomacy",
        "enraged_barbarians",
        "campaign_season",
        "homecoming",
        "bad_weather",
        "pirates",
        "scarcity",
        "end_of_turn",
    ];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The five Pacification results (digest §3.8) in the rulebook's (rising) order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacification {
    HardCampaign,
    Migration,
    Pacification,
    InstillFear,
    TriumphalCampaign,
}

impl Pacification {
    pub const ALL: [Pacification; 5] = [
        Pacification::HardCampaign,
        Pacification::Migration,
        Pacification::Pacification,
        Pacification::InstillFear,
        Pacification::TriumphalCampaign,
    ];
    pub const NAMES: [&'static str; 5] = [
        "hard_campaign",
        "migration",
        "pacification",
        "instill_fear",
        "triumphal_campaign",
    ];
    /// VP and cards drawn (Hard campaign: the +1 choice; its +2-and-discard is the policy's).
    pub fn reward(self) -> (i32, u32) {
        match self {
            Pacification::HardCampaign => (1, 0),
            Pacification::Migration => (2, 0),
            Pacification::Pacification => (3, 1),
            Pacification::InstillFear => (4, 2),
            Pacification::TriumphalCampaign => (5, 3),
        }
    }
}

/// The board's tables (digest §5.3), from data.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// Modified roll `lowest + i` gives `events[i]`; below reads the first, above the last.
    pub lowest: i32,
    pub events: Vec<Event>,
    /// 1d6 − 1 → (fixed value, dice) of the non-player force.
    pub neutral: [(i32, u32); 6],
    pub pirates: [(i32, u32); 6],
    /// m(margin) = (margin − 1) / margin_step.
    pub margin_step: i32,
    /// The lowest modified roll of each result after the first.
    pub pacification_from: [i32; 4],
}

impl Tables {
    pub fn event(&self, modified_roll: i32) -> Event {
        let i = (modified_roll - self.lowest).clamp(0, self.events.len() as i32 - 1);
        self.events[i as usize]
    }

    /// The Pacification result of a won battle with this margin at this Enraged level.
    pub fn pacification(&self, d6: u32, margin: i32, enraged: u32) -> Pacification {
        let roll = d6 as i32 + (margin - 1) / self.margin_step - enraged as i32;
        let above = self
            .pacification_from
            .iter()
            .filter(|&&f| roll >= f)
            .count();
        Pacification::ALL[above]
    }
}

#[derive(Clone, Debug)]
pub struct Scenario {
    /// Every sector and every empire alike (a ring without perturbation): seats differ by their
    /// place in the order alone.
    pub mirror: bool,
    pub map: Map,
    pub empires: Vec<Empire>,
    pub decks: Vec<Deck>,
    pub tables: Tables,
    pub turns: u8,
    pub auto_win_cities: u8,
    /// Every file and table the scenario rests on.
    pub sources: Vec<DataSource>,
}

impl Scenario {
    /// True only when every data file is transcribed: the real game.
    pub fn is_real(&self) -> bool {
        self.sources
            .iter()
            .all(|s| s.provenance == DataProvenance::Transcribed)
    }

    /// The source the map comes from (the base file of a perturbation).
    pub fn map_source(&self) -> Option<&DataSource> {
        let of = |what: &str| self.sources.iter().find(|s| s.what == what);
        of("base scenario").or_else(|| of("scenario"))
    }

    /// Why per-empire win rates of the real game cannot be given, when the map is a transcribed
    /// board but some other data file is not transcribed (digest §6.1). A synthetic map is
    /// never refused: its seats are not empires of the game, and its outputs carry the banner.
    pub fn refusal(&self) -> Option<String> {
        let map = self.map_source()?;
        if map.provenance != DataProvenance::Transcribed {
            return None;
        }
        let missing: Vec<String> = self
            .sources
            .iter()
            .filter(|s| s.provenance != DataProvenance::Transcribed)
            .map(|s| format!("{} [{}] {}", s.file, s.what, s.provenance.name()))
            .collect();
        (!missing.is_empty()).then(|| missing.join("; "))
    }

    /// The banner outputs carry, if any.
    pub fn banner(&self) -> Option<&'static str> {
        (!self.is_real()).then_some(SYNTHETIC_BANNER)
    }
}

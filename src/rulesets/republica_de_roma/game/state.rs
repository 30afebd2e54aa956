//! The state of one game. Sized once per worker and reset for each game, so that a game allocates
//! nothing once the worker's buffers have grown to their working size.
//!
//! Every senator (a family card, with a statesman on top when one has been played) is in exactly
//! one [`Place`]; an aligned senator is also somewhere ([`At`]): in Rome, governing a province,
//! commanding an army, held captive or in rebellion. Legions are 25 numbered tokens, each unraised,
//! in Rome or with an army, veteran or not, loyal to a senator or to nobody (L773-L777).

use super::cards::Card;
use super::search::Directive;

pub const NONE: u8 = u8::MAX;
pub const FACTIONS: usize = 5;
pub const MAX_UNITS: u32 = 25;
pub const MAX_ARMIES: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Not in play: still in a deck, or in a deck set aside.
    Deck,
    /// Unaligned, face up in the Forum.
    Forum,
    /// Waiting in the Curia to come back (1d6 = 5-6).
    Curia,
    /// Aligned with a faction.
    Faction(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    Rome,
    Governor(u8),
    Army(u8),
    Captive(u8),
    Rebel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Office {
    None,
    RomeConsul,
    FieldConsul,
    Censor,
    Dictator,
    MasterOfHorse,
}

#[derive(Clone, Copy, Debug)]
pub struct Senator {
    pub place: Place,
    pub at: At,
    /// The statesman on top of this family card, or NONE.
    pub statesman: u8,
    pub mil: u8,
    pub ora: u8,
    pub loy: u8,
    pub inf: i32,
    pub pop: i32,
    pub knights: u32,
    pub talents: i32,
    pub leader: bool,
    pub office: Office,
    pub corrupt: bool,
    /// Held a Major Office this turn: can face a Major Prosecution (L448).
    pub major: bool,
    pub consular: bool,
    /// Collected concession income this turn (the corruption bar is showing, L278).
    pub bar: bool,
    /// Came back from a governorship or was recalled this turn (L609).
    pub back_this_turn: bool,
    /// His statesman entered play while the family card was still in a deck: the card goes under
    /// him when drawn, and comes out as a new senator if he dies first.
    pub family_in_deck: bool,
}

impl Senator {
    pub fn blank() -> Senator {
        Senator {
            place: Place::Deck,
            at: At::Rome,
            statesman: NONE,
            mil: 0,
            ora: 0,
            loy: 0,
            inf: 0,
            pop: 0,
            knights: 0,
            talents: 0,
            leader: false,
            office: Office::None,
            corrupt: false,
            major: false,
            consular: false,
            bar: false,
            back_this_turn: false,
            family_in_deck: false,
        }
    }

    pub fn faction(&self) -> Option<usize> {
        match self.place {
            Place::Faction(f) => Some(f as usize),
            _ => None,
        }
    }

    pub fn in_rome(&self) -> bool {
        matches!(self.place, Place::Faction(_)) && self.at == At::Rome
    }

    pub fn votes(&self) -> i32 {
        self.ora as i32 + self.knights as i32
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarStatus {
    Deck,
    Inactive,
    Imminent,
    Active,
    /// Defeated or discarded.
    Gone,
}

#[derive(Clone, Copy, Debug)]
pub struct War {
    pub status: WarStatus,
    pub unprosecuted: bool,
    pub naval_victory: bool,
    /// Drawn this turn (it cannot be Unprosecuted in this turn's Population phase, L801).
    pub drawn_turn: u32,
    /// Disaster and Standoff totals already applied this turn (bit = total; L663).
    pub used: u32,
    /// Prosecuted this turn (L796-L799).
    pub prosecuted: bool,
    /// Battles fought against it this game (reports).
    pub battles: u32,
}

impl War {
    /// A war still in its deck, as every game starts.
    pub const IN_DECK: War = War {
        status: WarStatus::Deck,
        unprosecuted: false,
        naval_victory: false,
        drawn_turn: 0,
        used: 0,
        prosecuted: false,
        battles: 0,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderStatus {
    Deck,
    Curia,
    /// With his matching wars in play.
    Attached,
    Gone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatesmanStatus {
    Deck,
    Hand(u8),
    /// On top of his family card (the senator).
    Played,
    Gone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcessionStatus {
    Deck,
    Hand(u8),
    Held(u8),
    Forum,
    Curia,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProvinceStatus {
    NotCreated,
    /// In the Forum, waiting for a governor.
    Vacant,
    Governed(u8),
}

#[derive(Clone, Copy, Debug)]
pub struct Province {
    pub status: ProvinceStatus,
    pub developed: bool,
    /// Revenue phases left for the governor.
    pub term: u8,
}

impl Province {
    /// A province not yet created, as every game starts.
    pub const NOT_CREATED: Province = Province {
        status: ProvinceStatus::NotCreated,
        developed: false,
        term: 0,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegionAt {
    Unraised,
    Rome,
    Army(u8),
    /// With the rebel (the Principal Rebel's army).
    Rebel,
}

#[derive(Clone, Copy, Debug)]
pub struct Legion {
    pub at: LegionAt,
    pub veteran: bool,
    /// The senator a veteran is loyal to, or NONE.
    pub loyal: u8,
}

#[derive(Clone, Copy, Debug)]
pub struct Army {
    pub used: bool,
    pub commander: u8,
    /// The Master of Horse with a Dictator, or NONE.
    pub moh: u8,
    pub war: u8,
    pub fleets: u32,
    pub sent_turn: u32,
    /// Won the land battle this turn: back to Rome or rebellion in the Revolution phase.
    pub victorious: bool,
}

impl Army {
    pub fn empty() -> Army {
        Army {
            used: false,
            commander: NONE,
            moh: NONE,
            war: NONE,
            fleets: 0,
            sent_turn: 0,
            victorious: false,
        }
    }
}

/// Events in play this turn (digest §3.11), and those waiting for the next Revenue phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Environment {
    pub drought_events: u32,
    pub evil_omens: u32,
    pub manpower_shortage: u32,
    pub no_recruitment: bool,
    pub ally_deserts: u8,
    pub enemys_ally_deserts: u8,
    /// Random events drawn this turn (bit = EventKind): a second draw shows the dark side.
    pub in_play: u32,
    pub allied_enthusiasm: i32,
    /// Free fleets of the Rhodian Alliance waiting to be used.
    pub rhodian_fleets: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Faction {
    pub treasury: i32,
    /// Intrigue cards in hand by kind (first 16 kinds).
    pub intrigue: [u8; 16],
    /// Statesmen, concessions and laws in hand are in their own status fields.
    pub alive: bool,
}

/// The money that came into or left the game this turn, by rule (the ledger of the invariant
/// test: every talent is accounted for).
#[derive(Clone, Copy, Debug, Default)]
pub struct Ledger {
    pub sources: i64,
    pub sinks: i64,
}

#[derive(Debug)]
pub struct State {
    pub turn: u32,
    pub era: u8,
    pub deck: Vec<(Card, u8)>,
    /// Decks waiting to enter (extended game), in order.
    pub next_decks: Vec<u8>,
    pub senators: Vec<Senator>,
    pub statesmen: Vec<StatesmanStatus>,
    pub wars: Vec<War>,
    pub leaders: Vec<LeaderStatus>,
    pub provinces: Vec<Province>,
    pub concessions: Vec<ConcessionStatus>,
    pub concession_destroyed: Vec<bool>,
    pub laws_in_force: u32,
    pub laws_in_hand: Vec<u8>,
    pub legions: [Legion; MAX_UNITS as usize],
    pub fleets_rome: u32,
    pub armies: [Army; MAX_ARMIES],
    pub factions: [Faction; FACTIONS],
    pub treasury: i32,
    pub unrest: i32,
    pub env: Environment,
    /// Land bills in play: (type 0..2, turns since passed); type I leaves after its payment.
    pub land_bills: [u8; 3],
    pub land_bill_passed_this_turn: bool,
    /// The Era Ends has been drawn.
    pub era_ends: bool,
    pub rebel: u8,
    /// The Dominant player of this turn's Senate (L1234): the coalition faction with the most votes.
    pub dominant: u8,
    pub perpetual_dictator: u8,
    pub pd_elected: bool,
    /// The last deck has run out (the older edition's end, edition change 1).
    pub deck_ran_out: bool,
    /// A New Alliance waiting for the end of the Senate phase: 0 none, 1 light side, 2 dark.
    pub new_alliance: u8,
    pub hrao_faction: u8,
    /// Negative spoils the Treasury owes at Expenses (L280).
    pub owed_spoils: i32,
    pub ledger: Ledger,
    /// Reports.
    pub battles: u32,
    pub deaths: u32,
    pub persuasions: u32,
    pub prosecutions: u32,
    pub rebellions: u32,
    /// Chits drawn (scratch).
    pub chits: [u8; 64],
    /// Scratch lists.
    pub scratch: Vec<u8>,
    pub scratch2: Vec<u8>,
    /// What each faction plays this turn ([`Directive::Follow`] but for a searcher that chose
    /// otherwise at the start of the turn; reset at its end).
    pub directives: [Directive; FACTIONS],
    /// The Senate in session, between the elections and the rest of the phase (the search
    /// player's second decision point of a turn): the Ruling Coalition's factions, most votes
    /// first (`senate_members[..senate_len]`), and whether Rome is in Crisis.
    pub in_senate: bool,
    pub senate_members: [usize; FACTIONS],
    pub senate_len: u8,
    pub senate_crisis: bool,
    /// What each faction decided when the Senate sat this turn (as `directives`).
    pub senate_directives: [Directive; FACTIONS],
}

/// A copy for the search player's rollouts. `clone_from` names every field (a field added to
/// the state must be added here, or it does not compile) and reuses the vectors' buffers, so a
/// rollout's copy allocates nothing once they have grown.
impl Clone for State {
    fn clone(&self) -> State {
        let mut s = State::new(0, 0, 0, 0, 0, 0);
        s.clone_from(self);
        s
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            turn,
            era,
            deck,
            next_decks,
            senators,
            statesmen,
            wars,
            leaders,
            provinces,
            concessions,
            concession_destroyed,
            laws_in_force,
            laws_in_hand,
            legions,
            fleets_rome,
            armies,
            factions,
            treasury,
            unrest,
            env,
            land_bills,
            land_bill_passed_this_turn,
            era_ends,
            rebel,
            dominant,
            perpetual_dictator,
            pd_elected,
            deck_ran_out,
            new_alliance,
            hrao_faction,
            owed_spoils,
            ledger,
            battles,
            deaths,
            persuasions,
            prosecutions,
            rebellions,
            chits,
            scratch,
            scratch2,
            directives,
            in_senate,
            senate_members,
            senate_len,
            senate_crisis,
            senate_directives,
        } = source;
        self.turn = *turn;
        self.era = *era;
        self.deck.clone_from(deck);
        self.next_decks.clone_from(next_decks);
        self.senators.clone_from(senators);
        self.statesmen.clone_from(statesmen);
        self.wars.clone_from(wars);
        self.leaders.clone_from(leaders);
        self.provinces.clone_from(provinces);
        self.concessions.clone_from(concessions);
        self.concession_destroyed.clone_from(concession_destroyed);
        self.laws_in_force = *laws_in_force;
        self.laws_in_hand.clone_from(laws_in_hand);
        self.legions = *legions;
        self.fleets_rome = *fleets_rome;
        self.armies = *armies;
        self.factions = *factions;
        self.treasury = *treasury;
        self.unrest = *unrest;
        self.env = *env;
        self.land_bills = *land_bills;
        self.land_bill_passed_this_turn = *land_bill_passed_this_turn;
        self.era_ends = *era_ends;
        self.rebel = *rebel;
        self.dominant = *dominant;
        self.perpetual_dictator = *perpetual_dictator;
        self.pd_elected = *pd_elected;
        self.deck_ran_out = *deck_ran_out;
        self.new_alliance = *new_alliance;
        self.hrao_faction = *hrao_faction;
        self.owed_spoils = *owed_spoils;
        self.ledger = *ledger;
        self.battles = *battles;
        self.deaths = *deaths;
        self.persuasions = *persuasions;
        self.prosecutions = *prosecutions;
        self.rebellions = *rebellions;
        self.chits = *chits;
        self.scratch.clone_from(scratch);
        self.scratch2.clone_from(scratch2);
        self.directives = *directives;
        self.in_senate = *in_senate;
        self.senate_members = *senate_members;
        self.senate_len = *senate_len;
        self.senate_crisis = *senate_crisis;
        self.senate_directives = *senate_directives;
    }
}

impl State {
    pub fn new(
        families: usize,
        statesmen: usize,
        wars: usize,
        leaders: usize,
        provinces: usize,
        concessions: usize,
    ) -> State {
        State {
            turn: 0,
            era: 0,
            deck: Vec::with_capacity(200),
            next_decks: Vec::new(),
            senators: vec![Senator::blank(); families],
            statesmen: vec![StatesmanStatus::Deck; statesmen],
            wars: vec![War::IN_DECK; wars],
            leaders: vec![LeaderStatus::Deck; leaders],
            provinces: vec![Province::NOT_CREATED; provinces],
            concessions: vec![ConcessionStatus::Deck; concessions],
            concession_destroyed: vec![false; concessions],
            laws_in_force: 0,
            laws_in_hand: Vec::new(),
            legions: [Legion {
                at: LegionAt::Unraised,
                veteran: false,
                loyal: NONE,
            }; MAX_UNITS as usize],
            fleets_rome: 0,
            armies: [Army::empty(); MAX_ARMIES],
            factions: [Faction::default(); FACTIONS],
            treasury: 0,
            unrest: 0,
            env: Environment::default(),
            land_bills: [0; 3],
            land_bill_passed_this_turn: false,
            era_ends: false,
            rebel: NONE,
            dominant: 0,
            perpetual_dictator: NONE,
            pd_elected: false,
            deck_ran_out: false,
            new_alliance: 0,
            hrao_faction: 0,
            owed_spoils: 0,
            ledger: Ledger::default(),
            battles: 0,
            deaths: 0,
            persuasions: 0,
            prosecutions: 0,
            rebellions: 0,
            chits: [0; 64],
            scratch: Vec::with_capacity(64),
            scratch2: Vec::with_capacity(64),
            directives: [Directive::Follow; FACTIONS],
            in_senate: false,
            senate_members: [0; FACTIONS],
            senate_len: 0,
            senate_crisis: false,
            senate_directives: [Directive::Follow; FACTIONS],
        }
    }

    pub fn legions_at(&self, at: LegionAt) -> (u32, u32) {
        let mut regular = 0;
        let mut veteran = 0;
        for l in &self.legions {
            if l.at == at {
                if l.veteran {
                    veteran += 1;
                } else {
                    regular += 1;
                }
            }
        }
        (regular, veteran)
    }

    pub fn legions_raised(&self) -> u32 {
        self.legions
            .iter()
            .filter(|l| l.at != LegionAt::Unraised)
            .count() as u32
    }

    pub fn fleets_total(&self) -> u32 {
        self.fleets_rome
            + self
                .armies
                .iter()
                .filter(|a| a.used)
                .map(|a| a.fleets)
                .sum::<u32>()
    }

    pub fn active_wars(&self) -> u32 {
        self.wars
            .iter()
            .filter(|w| w.status == WarStatus::Active)
            .count() as u32
    }

    pub fn law(&self, law: Option<u8>) -> bool {
        law.is_some_and(|l| self.laws_in_force & (1 << l) != 0)
    }

    /// The holder of an office, or NONE.
    pub fn office(&self, office: Office) -> u8 {
        self.senators
            .iter()
            .position(|s| s.office == office && s.faction().is_some())
            .map_or(NONE, |i| i as u8)
    }

    /// The Highest Ranking Available Officer: the first office holder in Rome in the order of
    /// L481-L490, else the senator in Rome with the most Influence (ties: lower id).
    pub fn hrao(&self) -> u8 {
        for office in [
            Office::Dictator,
            Office::RomeConsul,
            Office::FieldConsul,
            Office::Censor,
            Office::MasterOfHorse,
        ] {
            let s = self.office(office);
            if s != NONE && self.senators[s as usize].in_rome() {
                return s;
            }
        }
        let mut best = NONE;
        for (i, s) in self.senators.iter().enumerate() {
            if s.in_rome() && (best == NONE || s.inf > self.senators[best as usize].inf) {
                best = i as u8;
            }
        }
        best
    }

    pub fn faction_influence(&self, f: usize) -> i32 {
        self.senators
            .iter()
            .filter(|s| {
                s.place == Place::Faction(f as u8) && !matches!(s.at, At::Captive(_) | At::Rebel)
            })
            .map(|s| s.inf)
            .sum()
    }

    pub fn faction_votes(&self, f: usize) -> i32 {
        self.senators
            .iter()
            .filter(|s| s.place == Place::Faction(f as u8) && s.at == At::Rome)
            .map(|s| s.votes())
            .sum()
    }

    pub fn faction_members(&self, f: usize) -> u32 {
        self.senators
            .iter()
            .filter(|s| s.place == Place::Faction(f as u8))
            .count() as u32
    }

    pub fn faction_money(&self, f: usize) -> i32 {
        self.factions[f].treasury
            + self
                .senators
                .iter()
                .filter(|s| s.place == Place::Faction(f as u8))
                .map(|s| s.talents)
                .sum::<i32>()
    }

    /// Every talent in the game: Treasury, faction treasuries and personal treasuries.
    pub fn money(&self) -> i64 {
        self.treasury as i64
            + self.factions.iter().map(|f| f.treasury as i64).sum::<i64>()
            + self.senators.iter().map(|s| s.talents as i64).sum::<i64>()
    }

    pub fn free_army(&self) -> Option<usize> {
        self.armies.iter().position(|a| !a.used)
    }
}

//! Leaders in the game (digest §4.13, rules §11 L2128-L2342): every nation's named leaders (the
//! first is its king), who commands each fight (the field army's leader, the leader at home, the
//! SPQR in Roma, or a grand unit's unnamed 0-0), what a battle does to its commanders (death,
//! wounds and promotion at the battle code's own chances), the search for new leaders every two
//! months, and the events that kill or bring a leader. The battle code plays what a commander does
//! in a fight: his tactical value on the leadership table, his strategic value on the terrain
//! roll and the flank, his class on pursuit, archery and chariots, the king's +0.5 morale.

use super::battles::{has_troops, Fought, Side};
use super::policy::Scripted;
use super::scenario::{CountryId, DEN};
use super::state::{Mission, State, Units, KINDS};
use super::Game;
use crate::dice::Dice;
use crate::rulesets::mediterraneo_sanguinolento::army::{Culture, LeaderKind};
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// Named leaders a nation can have at once (the king and three more).
pub const MAX_LEADERS: usize = 4;
/// DEN a search for a new leader costs; one search every two months, that is one a turn (L2250).
pub const SEARCH_COST: i64 = 100;
/// A search finds a leader on 2D6 of at least this (L2254).
pub const SEARCH_SUCCESS: u32 = 10;
/// Men in a grand unit of foot and of mounted troops (§4.5.2, L1828-L1834).
pub const GRAND_UNIT_MEN: f64 = 5000.0;
pub const MOUNTED_GRAND_UNIT_MEN: f64 = 3000.0;

/// The new-leader column by 1D6 (L2262-L2274): barbarian and B/C, then civilized.
const COLUMN: [[u8; 6]; 2] = [[1, 1, 1, 2, 2, 3], [1, 1, 2, 2, 3, 4]];
/// (tactical, strategic) by column and 1D6, barbarian and B/C (L2278-L2284).
const VALUES_BARBARIAN: [[(u8, u8); 6]; 3] = [
    [(2, 1), (2, 1), (2, 1), (2, 1), (2, 2), (2, 3)],
    [(3, 1), (3, 1), (3, 1), (3, 1), (3, 2), (3, 3)],
    [(4, 1), (4, 1), (4, 1), (4, 1), (4, 2), (4, 3)],
];
/// (tactical, strategic) by column and 1D6, civilized (L2286-L2296).
const VALUES_CIVILIZED: [[(u8, u8); 6]; 4] = [
    [(2, 1), (2, 1), (2, 2), (2, 2), (2, 2), (2, 3)],
    [(2, 3), (3, 1), (3, 1), (3, 2), (3, 2), (3, 3)],
    [(3, 3), (4, 2), (4, 2), (4, 2), (4, 2), (4, 3)],
    [(4, 3), (4, 3), (4, 4), (4, 4), (5, 3), (5, 4)],
];

/// A named leader of a nation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leader {
    pub tactical: u8,
    pub strategic: u8,
    pub kind: LeaderKind,
    pub alive: bool,
    pub king: bool,
    /// With the field army while it is away from home (else at home).
    pub in_field: bool,
    /// Game month from which a wounded leader serves again (0: never wounded).
    pub wounded_until: u32,
    /// The nation holding him captive ([`NOBODY`]: free; `captives.rs`). A captive keeps his
    /// slot in his own nation's list until he is ransomed, executed or persuaded.
    pub held_by: CountryId,
    /// A leader persuaded to change sides serves only in this country, his old one, now his new
    /// nation's province (L2242; [`NOBODY`]: any leader else).
    pub province: CountryId,
    /// His one persuasion attempt was made (L2242).
    pub persuasion_tried: bool,
    /// He lost his crown by capture: a king of his country, never persuaded (L2242).
    pub ruled: bool,
}

/// No country: a free leader's `held_by`, an ordinary leader's `province`.
pub const NOBODY: CountryId = CountryId::MAX;

impl Leader {
    pub const NONE: Leader = Leader {
        tactical: 0,
        strategic: 0,
        kind: LeaderKind::Infantry,
        alive: false,
        king: false,
        in_field: false,
        wounded_until: 0,
        held_by: NOBODY,
        province: NOBODY,
        persuasion_tried: false,
        ruled: false,
    };

    pub fn new(tactical: u8, strategic: u8, kind: LeaderKind) -> Leader {
        Leader {
            tactical,
            strategic,
            kind,
            alive: true,
            ..Leader::NONE
        }
    }

    /// Alive and not lying wounded in game month `month`, free and his nation's to send anywhere
    /// (not a captive, not a persuaded leader bound to his old country).
    pub fn able(&self, month: u32) -> bool {
        self.serving() && month >= self.wounded_until
    }

    /// Alive, free and not bound to a province: one of his nation's own leaders.
    pub fn serving(&self) -> bool {
        self.alive && self.held_by == NOBODY && self.province == NOBODY
    }

    /// His leadership: the higher of his two values (the ransom's, L2192; A39).
    pub fn leadership(&self) -> u8 {
        self.tactical.max(self.strategic)
    }
}

/// Who commands one side of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The nation's named leader in this slot.
    Named(u8),
    /// A grand unit's unnamed 0-0 (L2166): never wounded; promoted, he gets a name.
    Unnamed,
    /// Roma's SPQR (L5245-L5249): never promoted; his fate is not followed (he appears whenever
    /// Roma is attacked at home).
    Spqr,
    /// The chief of a raiding band (event M): nobody's leader, his fate not followed.
    Band,
}

/// A side's commander as a fight sees him.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lead {
    pub tactical: u8,
    pub strategic: u8,
    pub kind: LeaderKind,
    pub king: bool,
    pub who: Who,
    /// He leads the field army away from home (where a promoted unnamed leader serves on).
    pub field: bool,
}

impl Lead {
    pub const UNNAMED: Lead = Lead {
        tactical: 0,
        strategic: 0,
        kind: LeaderKind::Infantry,
        king: false,
        who: Who::Unnamed,
        field: false,
    };

    fn named(l: &Leader, slot: usize, field: bool) -> Lead {
        Lead {
            tactical: l.tactical,
            strategic: l.strategic,
            kind: l.kind,
            king: l.king,
            who: Who::Named(slot as u8),
            field,
        }
    }

    pub fn is_named(&self) -> bool {
        matches!(self.who, Who::Named(_))
    }
}

/// Whether `c`'s field army is away from home (its leaders apart from those at home).
pub fn field_away(st: &State, c: CountryId) -> bool {
    let n = &st.nations[c as usize];
    has_troops(&n.field) && !(n.at == c && n.mission == Mission::Idle)
}

/// The slot of the leader in command among the able ones `present` admits (A45, option
/// commanding_leader): the king where he is present if the king commands first, else (and
/// without him) the best tactical value, then strategic, the first slot on ties.
fn commander(
    g: &Game,
    st: &State,
    c: CountryId,
    month: u32,
    present: impl Fn(&Leader) -> bool,
) -> Option<usize> {
    let leaders = &st.nations[c as usize].leaders;
    let able = |l: &Leader| l.able(month) && present(l);
    if g.king_commands_first {
        if let Some(k) = leaders.iter().position(|l| l.king && able(l)) {
            return Some(k);
        }
    }
    let mut best: Option<usize> = None;
    for (k, l) in leaders.iter().enumerate() {
        if able(l)
            && best.is_none_or(|b| {
                (l.tactical, l.strategic) > (leaders[b].tactical, leaders[b].strategic)
            })
        {
            best = Some(k);
        }
    }
    best
}

/// The commander of `c`'s field army: the leader who went with it, or (at home) whoever
/// commands there; the unnamed 0-0 where no named leader is with it.
pub fn field_lead(g: &Game, st: &State, c: CountryId, month: u32) -> Lead {
    if !field_away(st, c) {
        return home_lead(g, st, c, month);
    }
    match commander(g, st, c, month, |l| l.in_field) {
        Some(k) => Lead::named(&st.nations[c as usize].leaders[k], k, true),
        None => Lead {
            field: true,
            ..Lead::UNNAMED
        },
    }
}

/// The commander of `c`'s troops at home (its garrison, and its field army when that stands at
/// home): the SPQR in Roma (L5245: supreme command there whenever it is attacked), else the
/// leader in command of those at home.
pub fn home_lead(g: &Game, st: &State, c: CountryId, month: u32) -> Lead {
    if let Some((c0, t, s)) = g.spqr {
        if c0 == c {
            return Lead {
                tactical: t,
                strategic: s,
                who: Who::Spqr,
                ..Lead::UNNAMED
            };
        }
    }
    let away = field_away(st, c);
    match commander(g, st, c, month, |l| !(away && l.in_field)) {
        Some(k) => Lead::named(&st.nations[c as usize].leaders[k], k, false),
        None => Lead::UNNAMED,
    }
}

/// The commander of the troops defending node `t` (its holder's home, or a conquered country
/// held by occupation troops: under the best able leader persuaded there, L2242, else an
/// unnamed one).
pub fn defender_lead(g: &Game, st: &State, t: CountryId, month: u32) -> Lead {
    let o = st.lands[t as usize].owner;
    if o == t {
        return home_lead(g, st, o, month);
    }
    let leaders = &st.nations[o as usize].leaders;
    let mut best: Option<usize> = None;
    for (k, l) in leaders.iter().enumerate() {
        let able = l.alive && l.held_by == NOBODY && l.province == t && month >= l.wounded_until;
        if able
            && best.is_none_or(|b| {
                (l.tactical, l.strategic) > (leaders[b].tactical, leaders[b].strategic)
            })
        {
            best = Some(k);
        }
    }
    best.map_or(Lead::UNNAMED, |k| Lead::named(&leaders[k], k, false))
}

/// The leader the policy sends with a field army about to march (`king_commands` >= 0.5: the
/// one in command of all, the king first where he commands first; else the best who is not the
/// king), None: it marches under its unnamed 0-0.
pub fn chosen(g: &Game, st: &State, c: CountryId, p: &Scripted, month: u32) -> Option<usize> {
    let king_goes = p.king_commands >= 0.5;
    commander(g, st, c, month, |l| king_goes || !l.king)
}

/// The field army's commander if it marched now (the policy's odds).
pub fn prospective_lead(g: &Game, st: &State, c: CountryId, p: &Scripted, month: u32) -> Lead {
    match chosen(g, st, c, p, month) {
        Some(k) => Lead::named(&st.nations[c as usize].leaders[k], k, true),
        None => Lead {
            field: true,
            ..Lead::UNNAMED
        },
    }
}

/// The field army sets out: the chosen leader goes with it, the rest stay home.
pub fn assign(g: &Game, st: &mut State, c: CountryId, p: &Scripted, month: u32) {
    let k = chosen(g, st, c, p, month);
    for (i, l) in st.nations[c as usize].leaders.iter_mut().enumerate() {
        l.in_field = Some(i) == k;
    }
}

/// Grand units in `units` of country `c`: foot in 5,000s, cavalry and camelry in 3,000s, each
/// chariot or elephant unit one (independents count as grand units, L2162).
pub fn grand_units(g: &Game, c: CountryId, units: &Units) -> f64 {
    let (mut foot, mut mounted, mut independents) = (0.0, 0.0, 0.0);
    for k in 0..KINDS {
        if units[k] <= 1e-9 {
            continue;
        }
        let kind = &g.kinds[c as usize][k];
        let men = units[k] * kind.men;
        match data().units[kind.unit as usize].class.as_str() {
            "cavalry" | "camelry" => mounted += men,
            "chariots" | "elephants" => independents += units[k].ceil(),
            _ => foot += men,
        }
    }
    (foot / GRAND_UNIT_MEN).ceil() + (mounted / MOUNTED_GRAND_UNIT_MEN).ceil() + independents
}

/// The tactical value a side's commander brings to the leadership table: his own within his
/// command limit (tactical +2 civilized, +0 B/C, -1 barbarian grand units, L2160-L2162, option
/// leader_command_limit), else 0, the unnamed leaders' (A43: the battle code has one
/// leadership value a side, so the grand units beyond the limit take the whole side's).
pub fn tactical_in_battle(g: &Game, side: &Side) -> u8 {
    let lead = &side.lead;
    if !g.command_limit || lead.tactical == 0 {
        return lead.tactical;
    }
    let bonus = match g.culture[side.country as usize] {
        Culture::Civilized => 2,
        Culture::Mixed => 0,
        Culture::Barbarian => -1,
    };
    let limit = lead.tactical as f64 + bonus as f64;
    if grand_units(g, side.country, &side.units) <= limit {
        lead.tactical
    } else {
        0
    }
}

/// A leader found by a search or brought by an event: the column by culture, then the values
/// (L2258-L2296), of the scenario's class for found leaders.
pub fn roll_new(g: &Game, c: CountryId, dice: &mut Dice) -> Leader {
    let civilized = g.culture[c as usize] == Culture::Civilized;
    let column = COLUMN[civilized as usize][dice.d(6) as usize - 1] as usize - 1;
    let row = dice.d(6) as usize - 1;
    let (t, s) = if civilized {
        VALUES_CIVILIZED[column][row]
    } else {
        VALUES_BARBARIAN[column][row]
    };
    Leader::new(t, s, g.scenario.leaders.found_kind)
}

/// The probability of each (tactical, strategic) a search or event finds for a culture, in
/// 36ths (exact, for the tests and reports).
pub fn new_leader_distribution(civilized: bool) -> Vec<((u8, u8), u32)> {
    let mut out: Vec<((u8, u8), u32)> = Vec::new();
    for die in 0..6 {
        let column = COLUMN[civilized as usize][die] as usize - 1;
        for row in 0..6 {
            let v = if civilized {
                VALUES_CIVILIZED[column][row]
            } else {
                VALUES_BARBARIAN[column][row]
            };
            match out.iter_mut().find(|(x, _)| *x == v) {
                Some((_, n)) => *n += 1,
                None => out.push((v, 1)),
            }
        }
    }
    out
}

/// Puts `leader` in a free slot of `c` (king if the nation has none); false when all are taken.
pub fn add(st: &mut State, c: CountryId, mut leader: Leader) -> bool {
    let leaders = &mut st.nations[c as usize].leaders;
    let Some(slot) = leaders.iter().position(|l| !l.alive) else {
        return false;
    };
    leader.king = !leaders.iter().any(|l| l.alive && l.king);
    leaders[slot] = leader;
    true
}

/// Named leaders alive and serving (captives and persuaded leaders bound to a province apart).
pub fn living(st: &State, c: CountryId) -> usize {
    st.nations[c as usize]
        .leaders
        .iter()
        .filter(|l| l.serving())
        .count()
}

/// Leader `slot` of `c` dies: a dead king is succeeded by the best living leader (L2334); when
/// none is left a free one appears with random values (L2196).
pub fn dies(g: &Game, st: &mut State, c: CountryId, slot: usize, dice: &mut Dice) {
    let was_king = st.nations[c as usize].leaders[slot].king;
    st.nations[c as usize].leaders[slot] = Leader::NONE;
    st.counts.leaders_killed += 1;
    succeed(g, st, c, was_king, dice);
}

/// `c` has lost a leader (dead, captured): a lost king is succeeded by the best serving leader
/// (L2334, L5327); when none serves a free one appears with random values (L2196).
pub fn succeed(g: &Game, st: &mut State, c: CountryId, was_king: bool, dice: &mut Dice) {
    let leaders = &mut st.nations[c as usize].leaders;
    if was_king {
        let heir = (0..MAX_LEADERS)
            .filter(|&k| leaders[k].serving())
            .max_by_key(|&k| (leaders[k].tactical, leaders[k].strategic, MAX_LEADERS - k));
        if let Some(k) = heir {
            leaders[k].king = true;
        }
    }
    if living(st, c) == 0 {
        let free = roll_new(g, c, dice);
        add(st, c, free);
    }
}

/// A won battle's promotion (L2204-L2234, L2338-L2342): 1D6 1-3 tactical +1, 4-6 strategic +1; a
/// value at 5 raises the other instead; 5-5 cannot rise.
pub fn promote(tactical: &mut u8, strategic: &mut u8, die: u32) {
    let (first, second) = if die <= 3 {
        (tactical, strategic)
    } else {
        (strategic, tactical)
    };
    if *first < 5 {
        *first += 1;
    } else if *second < 5 {
        *second += 1;
    }
}

/// What a fight did to the two commanders, drawn at the battle code's own chances (its
/// `leader_killed`, `leader_wounded` and `leader_promoted` columns, digest D7-D8): a named
/// leader dies, or is wounded for 1D6 months and goes home; a winner is promoted; a promoted
/// unnamed 0-0 becomes a named leader (1-0 or 0-1) of that army where a slot is free.
pub fn after_battle(
    g: &Game,
    st: &mut State,
    sides: &[Side; 2],
    fought: &Fought,
    month: u32,
    dice: &mut Dice,
) {
    if sides.iter().any(|s| s.lead.is_named()) {
        st.counts.named_led_fights += 1;
    }
    for k in 0..2 {
        let c = sides[k].country;
        let lead = sides[k].lead;
        let [killed, wounded, promoted] = fought.risk[k];
        match lead.who {
            Who::Spqr | Who::Band => {}
            Who::Named(slot) => {
                let slot = slot as usize;
                if !st.nations[c as usize].leaders[slot].alive {
                    continue;
                }
                let u = dice.uniform();
                if u < killed {
                    dies(g, st, c, slot, dice);
                    continue;
                }
                // Alive on a side left with nobody to carry him off: taken (option
                // leader_capture; a raiding band takes nobody).
                let winner = &sides[1 - k];
                if g.leader_capture.taken(fought, k)
                    && winner.lead.who != Who::Band
                    && super::captives::capture(g, st, c, slot, winner.country, dice)
                {
                    continue;
                }
                if u < killed + wounded {
                    let l = &mut st.nations[c as usize].leaders[slot];
                    l.wounded_until = month + dice.d(6);
                    l.in_field = false;
                    st.counts.leaders_wounded += 1;
                }
                if promoted > 0.0 && dice.chance(promoted) {
                    let die = dice.d(6);
                    let l = &mut st.nations[c as usize].leaders[slot];
                    let before = (l.tactical, l.strategic);
                    promote(&mut l.tactical, &mut l.strategic, die);
                    if (l.tactical, l.strategic) != before {
                        st.counts.leaders_promoted += 1;
                    }
                }
            }
            Who::Unnamed => {
                if promoted > 0.0 && dice.chance(promoted) {
                    let (mut t, mut s) = (0, 0);
                    promote(&mut t, &mut s, dice.d(6));
                    let mut named = Leader::new(t, s, g.scenario.leaders.found_kind);
                    named.in_field = lead.field;
                    if add(st, c, named) {
                        st.counts.leaders_promoted += 1;
                    }
                }
            }
        }
    }
}

/// Every nation whose plan wants more named leaders than it has pays for one search this turn
/// (two months), keeping its DEN reserve and next wages.
pub fn search(g: &Game, st: &mut State, plans: &[Scripted], dice: &mut Dice) {
    for c in 0..st.nations.len() as CountryId {
        let p = &plans[c as usize];
        // One search a turn, stated land or naval (L2254; naval leaders: super::fleets).
        let naval = super::fleets::search_naval(g, st, c, p);
        if (!naval && living(st, c) >= (p.leaders_wanted as usize).min(MAX_LEADERS))
            || st.lands[c as usize].owner != c
        {
            continue;
        }
        let keep = super::economy::den_to_keep(g, st, c, p);
        if st.nations[c as usize].stock[DEN] - SEARCH_COST < keep {
            continue;
        }
        st.spend(c, DEN, SEARCH_COST);
        if dice.d(6) + dice.d(6) >= SEARCH_SUCCESS {
            if naval {
                super::fleets::add_admiral(g, st, c, dice);
                continue;
            }
            let found = roll_new(g, c, dice);
            if add(st, c, found) {
                st.counts.leaders_found += 1;
            }
        }
    }
}

/// Event B: a random named leader of `c` dies.
pub fn event_death(g: &Game, st: &mut State, c: CountryId, dice: &mut Dice) {
    let n = living(st, c);
    if n == 0 {
        return;
    }
    let pick = dice.below(n as u64) as usize;
    let slot = (0..MAX_LEADERS)
        .filter(|&k| st.nations[c as usize].leaders[k].serving())
        .nth(pick)
        .expect("a living leader");
    dies(g, st, c, slot, dice);
}

/// Event C: a free new leader joins `c` (where a slot is free).
pub fn event_new(g: &Game, st: &mut State, c: CountryId, dice: &mut Dice) {
    let found = roll_new(g, c, dice);
    if add(st, c, found) {
        st.counts.leaders_found += 1;
    }
}

/// The battle-terrain roll's shift a commander of strategic value `s` orders (L2889): +s, -s or
/// none, whichever gives his side the best expected ratio of combat factors over the 2D6 (the
/// other side's shift taken as none; ties keep none). Orders are written before the roll.
pub fn terrain_shift(g: &Game, node: CountryId, s: u8, own: &Side, other: &Side) -> i32 {
    if s == 0 {
        return 0;
    }
    let factors = |side: &Side, column: usize| -> f64 {
        let f = &g.factors[side.country as usize];
        (0..KINDS).map(|k| side.units[k] * f[k][column]).sum()
    };
    let columns = &g.terrain_of_roll[node as usize];
    let mut best = (f64::NEG_INFINITY, 0);
    for shift in [0, s as i32, -(s as i32)] {
        let mut expected = 0.0;
        for roll in 2..=12i32 {
            let ways = 6 - (roll - 7).abs();
            let column = columns[(roll + shift).clamp(1, 12) as usize] as usize;
            let ratio = factors(own, column) / (factors(other, column) + 1e-9);
            expected += ways as f64 * ratio;
        }
        if expected > best.0 + 1e-12 {
            best = (expected, shift);
        }
    }
    best.1
}

//! The political layer (digest §3.12, §4.14-4.16): submission and vassals (XXIX), clients
//! (XXVII) and the Foedus (XXVIII), at the Area level of digest §6.3.
//!
//! A nation is in exactly one [`Bond`] besides its phase: free, or the vassal, client or federate
//! of its `lord`. Bound nations and their lord (and two nations bound to the same lord) do not
//! attack or raid each other, nor do allies (alliances.rs).

use super::policy::Policy;
use super::procedures;
use super::scenario::AreaKind;
use super::state::{cheapest_first, State, NONE, NO_PROVINCE, VP_FOEDUS, VP_REBELLION};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// How a nation is bound to another (its `lord`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bond {
    #[default]
    Free,
    /// Subjugated (XXIX): tribute 1 gold a turn, half its VP, its land scores for its sovereign.
    Vassal,
    /// A minor kingdom under a patron (XXVII): tribute up to 2 gold, half its land's VP to the
    /// patron.
    Client,
    /// A Barbarian under a Foedus (XXVIII): 3 gold a turn from its federator, 3 VP a turn.
    Federate,
}

/// XXVIII.E-F: a federate's VP a turn per Foedus, and the gold its federator pays it.
pub const FOEDUS_VP: i32 = 3;
pub const FOEDUS_GOLD: i32 = 3;
/// XXIX.E: a vassal's tribute (paid even by a broke vassal: the sovereign gets it anyway).
pub const VASSAL_TRIBUTE: i32 = 1;
/// XXVII.A: a client's tribute, "usually 2", taken from its treasury.
pub const CLIENT_TRIBUTE: i32 = 2;
/// XXIX.G: a Nomad's vassal whose rebellion fails loses 5 VP and a unit.
pub const REBELLION_VP: i32 = 5;
/// A Kingdom whose capital falls submits only when it holds this many provinces or fewer (Q50).
pub const SUBMISSION_PROVINCES: usize = 3;

/// Whether `a` and `b` leave each other alone: one is bound to the other, or both to the same
/// lord (vassals, clients and federates are neutral or friendly to their lord and its other
/// dependants, XXVII-XXIX).
pub fn at_peace(st: &State, a: usize, b: usize) -> bool {
    let (x, y) = (&st.nations[a], &st.nations[b]);
    truce(st, a, b)
        || super::alliances::allied(st, a, b)
        || (x.bond != Bond::Free && x.lord == b as u8)
        || (y.bond != Bond::Free && y.lord == a as u8)
        || (x.bond != Bond::Free && y.bond != Bond::Free && x.lord == y.lord)
}

/// A one-turn non-aggression pact of this turn between `a` and `b` (*Tributus*, diplomacy.rs).
pub fn truce(st: &State, a: usize, b: usize) -> bool {
    let (a, b) = (a as u8, b as u8);
    st.truces[..st.truce_count as usize]
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
}

/// Vassals and federates may not subjugate (XXVIII.E, XXIX.F).
pub fn may_subjugate(st: &State, n: usize) -> bool {
    st.status(n).is_some() && !matches!(st.nations[n].bond, Bond::Vassal | Bond::Federate)
}

/// What `n` scores for a holding of `holder` worth `vp` (XXVII.A, XXIX.E): all of it for its own
/// and its vassals' land, half of it (in halves, so the caller rounds once) for its clients'.
pub fn share_halves(st: &State, n: usize, holder: u8, vp: i32) -> i32 {
    if holder == NONE {
        return 0;
    }
    if holder as usize == n {
        return 2 * vp;
    }
    let h = &st.nations[holder as usize];
    match h.bond {
        Bond::Vassal if h.lord as usize == n => 2 * vp,
        Bond::Client if h.lord as usize == n => vp,
        _ => 0,
    }
}

impl Play<'_> {
    pub(super) fn transfer_gold(&mut self, from: usize, to: usize, gold: i32) {
        if gold > 0 {
            self.st.spend_gold(from, gold);
            self.st.gain_gold(to, gold);
        }
    }

    /// `n` captured the horde of `o` (XXIX.B): `o` becomes its vassal where `n` may subjugate;
    /// otherwise (a vassal or federate captor) the horde's nation ends as before. True when it
    /// submitted (the captor then leaves the horde's province: the attack ends there).
    pub fn horde_captured(&mut self, n: usize, o: usize, log: &mut dyn GameLog) -> bool {
        if may_subjugate(&self.st, n) && self.st.status(o) == Some(Status::Barbarian) {
            self.submit(o, n, Bond::Vassal, log);
            true
        } else {
            self.eliminate(o);
            false
        }
    }

    /// `n` took the capital of the Kingdom `o` (XXIX.C, Q50): with 3 provinces or fewer left it
    /// submits, a minor kingdom taken by a Civilized nation as a client (XXVII.A), else as a
    /// vassal. Empires never submit.
    pub fn kingdom_capital_taken(&mut self, n: usize, o: usize, log: &mut dyn GameLog) {
        if self.st.status(o) != Some(Status::Kingdom) || !may_subjugate(&self.st, n) {
            return;
        }
        if self.st.owner.iter().filter(|&&x| x == o as u8).count() > SUBMISSION_PROVINCES {
            return;
        }
        let bond = if self.game.minor[o] && self.st.civilized(n) {
            Bond::Client
        } else {
            Bond::Vassal
        };
        self.submit(o, n, bond, log);
    }

    /// `o` submits to `n`: its own dependants go free, a Foedus it had ends, a Barbarian hands
    /// over half its treasury (XXIX.B; the removed half rounded down, so the vassal keeps the
    /// rounded-up half, §0), a vassal lends its sovereign one unit of its choice, once (XXIX.D).
    pub fn submit(&mut self, o: usize, n: usize, bond: Bond, log: &mut dyn GameLog) {
        let g = self.game;
        self.free_dependants_of(o, log);
        if self.st.nations[o].bond == Bond::Federate {
            self.end_foedus(o, log);
        }
        if self.st.status(o) == Some(Status::Barbarian) {
            let half = self.st.nations[o].treasury.max(0) / 2;
            self.transfer_gold(o, n, half);
        }
        let turn = self.st.turn;
        let ns = &mut self.st.nations[o];
        ns.bond = bond;
        ns.lord = n as u8;
        ns.bond_turn = turn;
        self.lapse_alliances(o);
        match bond {
            Bond::Client => self.st.counters.clients_made += 1,
            _ => self.st.counters.submissions += 1,
        }
        game_log!(
            log,
            "{} submits to {} as its {bond:?}",
            g.name(o),
            g.name(n)
        );
        if bond == Bond::Vassal {
            self.lend_unit(o, n);
        }
    }

    /// The vassal's mercenary (XXIX.D): its cheapest unit (its choice) joins the sovereign at its
    /// capital or horde; nothing where the vassal has no unit or the sovereign no home.
    fn lend_unit(&mut self, from: usize, to: usize) {
        let s = &self.game.scenario;
        let home = match self.st.nations[to].capital {
            NO_PROVINCE => self.st.nations[to].horde,
            c => c,
        };
        if home == NO_PROVINCE {
            return;
        }
        let dest = s.provinces[home as usize].area as usize;
        for a in 0..s.areas.len() {
            if let Some(k) = cheapest_first()
                .into_iter()
                .find(|&k| self.st.at(from, a)[k] > 0)
            {
                self.st.at_mut(from, a)[k] -= 1;
                self.st.at_mut(to, dest)[k] += 1;
                return;
            }
        }
    }

    pub fn free_dependants_of(&mut self, l: usize, log: &mut dyn GameLog) {
        for m in 0..self.st.nations.len() {
            if self.st.nations[m].bond != Bond::Free && self.st.nations[m].lord == l as u8 {
                self.set_free(m, log);
            }
        }
    }

    fn set_free(&mut self, m: usize, log: &mut dyn GameLog) {
        if self.st.nations[m].bond == Bond::Federate {
            self.end_foedus(m, log);
            return;
        }
        game_log!(
            log,
            "{} is free of {}",
            self.game.name(m),
            self.game.name(self.st.nations[m].lord as usize)
        );
        let ns = &mut self.st.nations[m];
        ns.bond = Bond::Free;
        ns.lord = NONE;
        self.st.counters.freed += 1;
    }

    /// A Foedus ends (XXVIII.H): the federate keeps the Foedus provinces it holds, now its own.
    pub fn end_foedus(&mut self, m: usize, log: &mut dyn GameLog) {
        let s = &self.game.scenario;
        let f = self.st.nations[m].lord;
        for p in 0..s.provinces.len() {
            if self.st.foedus_for[p] == f && self.st.owner[p] == m as u8 {
                self.st.set_foedus(s, p, NONE);
            }
        }
        let ns = &mut self.st.nations[m];
        ns.bond = Bond::Free;
        ns.lord = NONE;
        self.st.counters.foedera_broken += 1;
        game_log!(log, "the Foedus of {} ends", self.game.name(m));
    }

    /// The political step at the end of the Time phase, after entries and reinforcements (the
    /// rules place the offer no later than the federate's activation and the breaks and
    /// rebellions at the start of the nation's own activation, XXVIII.B, XXIX.G; here all at
    /// once, before the searching players give their orders): bonds whose lord failed end,
    /// Nomads' vassals rebel, federates break their Foedus, and each Empire may offer one Foedus.
    pub fn politics(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        let turn = self.st.turn;
        for m in 0..self.st.nations.len() {
            let bond = self.st.nations[m].bond;
            if bond == Bond::Free {
                continue;
            }
            if self.st.status(m).is_none() {
                // Out of the game: nothing binds it any more.
                let ns = &mut self.st.nations[m];
                ns.bond = Bond::Free;
                ns.lord = NONE;
                continue;
            }
            let l = self.st.nations[m].lord as usize;
            let lord_gone = self.st.status(l).is_none();
            let lord_fallen = self.st.civilized(l) && self.st.nations[l].capital == NO_PROVINCE;
            let lord_bound = matches!(self.st.nations[l].bond, Bond::Vassal | Bond::Federate);
            let wants_out = match self.policy(m) {
                Policy::Scripted(p) if bond == Bond::Federate => p.foedus_break,
                Policy::Scripted(p) => p.rebel,
                Policy::Random => procedures::d2(dice),
            };
            match bond {
                Bond::Vassal | Bond::Client if lord_gone || lord_fallen => self.set_free(m, log),
                Bond::Vassal if lord_bound => self.set_free(m, log),
                Bond::Vassal if g.nomad[l] && turn > self.st.nations[m].bond_turn && wants_out => {
                    if procedures::d2(dice) {
                        game_log!(log, "{} rebels against {}: free", g.name(m), g.name(l));
                        self.set_free(m, log);
                    } else {
                        game_log!(log, "{} rebels against {}: fails", g.name(m), g.name(l));
                        self.st.nations[m].vp[VP_REBELLION] -= REBELLION_VP;
                        self.st.turn_vp[g.player_of(m)] -= REBELLION_VP;
                        for a in 0..g.scenario.areas.len() {
                            if self.st.lose_cheapest(m, a, 1) == 1 {
                                break;
                            }
                        }
                    }
                }
                Bond::Federate if lord_gone => self.end_foedus(m, log),
                Bond::Federate if turn > self.st.nations[m].bond_turn && wants_out => {
                    let failed = lord_fallen
                        || lord_bound
                        || self.st.nations[l].bankrupt_turn == turn
                        || self.st.nations[l].bankrupt_turn + 1 == turn;
                    if failed || turn == self.st.nations[m].bond_turn + 1 || procedures::d2(dice) {
                        self.end_foedus(m, log);
                    }
                }
                _ => {}
            }
        }
        for e in 0..self.st.nations.len() {
            if self.st.status(e) == Some(Status::Empire)
                && !g.minor[e]
                && !g.inactive[e]
                && self.st.nations[e].bond == Bond::Free
            {
                self.offer_foedus(e, false, dice, log);
            }
        }
    }

    /// One Foedus offer by the Empire `e` (XXVIII.A-C): to the Barbarian of another player with
    /// the most units in its horde's Area, when the Area or a neighbour is a Civilized Area where
    /// `e` holds two provinces besides its capital and the Barbarian's units reach the policy's
    /// multiple of `e`'s units there; the two provinces `e` values least are ceded. `forced`
    /// (the *Foedus* card, XXX.F): the Barbarian accepts whatever its policy says. True when a
    /// Foedus was offered.
    pub(super) fn offer_foedus(
        &mut self,
        e: usize,
        forced: bool,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let turn = self.st.turn;
        let ratio = match self.policy(e) {
            Policy::Scripted(p) if p.foedus_offer >= 5.0 => return false,
            Policy::Scripted(p) => p.foedus_offer,
            Policy::Random if procedures::d2(dice) => 0.0,
            Policy::Random => return false,
        };
        let mut best: Option<(u32, usize, usize)> = None;
        for b in 0..self.st.nations.len() {
            let nation = &s.nations[b];
            let ns = &self.st.nations[b];
            if self.st.status(b) != Some(Status::Barbarian)
                || ns.bond != Bond::Free
                || ns.horde == NO_PROVINCE
                || g.inactive[b]
                || g.player_of(b) == g.player_of(e)
                || nation.entry_turn == turn
                || nation.active_from == turn
            {
                continue;
            }
            let hb = s.provinces[ns.horde as usize].area as usize;
            let units = self.st.count(b, hb);
            if units == 0 || best.is_some_and(|(u, _, _)| u >= units) {
                continue;
            }
            for i in 0..=s.areas[hb].links.len() {
                let a = if i == 0 {
                    hb
                } else {
                    s.areas[hb].links[i - 1].to as usize
                };
                if s.areas[a].kind != AreaKind::Civilized || self.ceded(e, a).is_none() {
                    continue;
                }
                if units as f64 >= ratio * self.st.count(e, a).max(1) as f64 {
                    best = Some((units, b, a));
                    break;
                }
            }
        }
        let Some((_, b, a)) = best else { return false };
        let accepts = forced
            || match self.policy(b) {
                Policy::Scripted(p) => p.foedus_accept,
                Policy::Random => procedures::d2(dice),
            };
        game_log!(
            log,
            "{} offers a Foedus in {} to {}: {}",
            g.name(e),
            s.areas[a].name,
            g.name(b),
            if accepts { "accepted" } else { "refused" }
        );
        if accepts {
            let (p1, p2) = self.ceded(e, a).expect("checked above");
            self.establish_foedus(e, b, p1, p2);
        }
        true
    }

    /// The two provinces of `e` in Area `a` it values least, never its capital.
    fn ceded(&self, e: usize, a: usize) -> Option<(usize, usize)> {
        let g = self.game;
        let np = g.scenario.provinces.len();
        let mut two: [Option<(f64, usize)>; 2] = [None, None];
        for &p in &g.scenario.areas[a].provinces {
            let p = p as usize;
            if self.st.owner[p] != e as u8 || self.st.nations[e].capital as usize == p {
                continue;
            }
            let w = g.worth[e * np + p] + self.st.level[p] as f64;
            if two[0].is_none_or(|(v, _)| w < v) {
                two[1] = two[0];
                two[0] = Some((w, p));
            } else if two[1].is_none_or(|(v, _)| w < v) {
                two[1] = Some((w, p));
            }
        }
        match two {
            [Some((_, p1)), Some((_, p2))] => Some((p1, p2)),
            _ => None,
        }
    }

    /// XXVIII.C: the federate holds the two provinces (they count for the federator), its horde
    /// moves to the first with as many of its units from the horde's Area as the two provinces'
    /// stacking allows (the federator's units stay: at the Area level they stand in the same
    /// Area). The federate mercenary is not played.
    pub fn establish_foedus(&mut self, e: usize, b: usize, p1: usize, p2: usize) {
        let s = &self.game.scenario;
        for p in [p1, p2] {
            self.st.set_owner(s, p, b as u8);
            self.st.set_foedus(s, p, e as u8);
        }
        let to = s.provinces[p1].area as usize;
        let from = s.provinces[self.st.nations[b].horde as usize].area as usize;
        if from != to {
            let room = self.limit(p1, false) + self.limit(p2, false);
            let moving = super::military::strongest(self.st.at(b, from), room);
            self.st.move_units(b, from, to, &moving);
        }
        self.st.set_horde(s, b, p1 as u16);
        let turn = self.st.turn;
        let ns = &mut self.st.nations[b];
        ns.bond = Bond::Federate;
        ns.lord = e as u8;
        ns.bond_turn = turn;
        self.lapse_alliances(b);
        self.st.counters.foedera += 1;
    }

    /// The Income step's tributes (XIV, §4.9): a vassal's 1 gold to its sovereign (created when
    /// the vassal is broke), a client's up to 2, a federator's 3 to each federate (what its
    /// treasury holds, at most).
    /// Tributes are received before the federators pay (where a treasury is short, the order
    /// decides what it can pay; the rules give none).
    pub fn tributes(&mut self) {
        for federators_pay in [false, true] {
            for m in 0..self.st.nations.len() {
                let bond = self.st.nations[m].bond;
                if (bond == Bond::Federate) == federators_pay {
                    self.tribute(m);
                }
            }
        }
    }

    fn tribute(&mut self, m: usize) {
        let l = self.st.nations[m].lord as usize;
        match self.st.nations[m].bond {
            Bond::Free => {}
            _ if self.st.status(l).is_none() || self.st.status(m).is_none() => {}
            Bond::Vassal => {
                let paid = self.st.nations[m].treasury.clamp(0, VASSAL_TRIBUTE);
                self.st.spend_gold(m, paid);
                self.st.gain_gold(l, VASSAL_TRIBUTE);
            }
            Bond::Client => {
                let paid = self.st.nations[m].treasury.clamp(0, CLIENT_TRIBUTE);
                self.transfer_gold(m, l, paid);
            }
            Bond::Federate => {
                let paid = self.st.nations[l].treasury.clamp(0, FOEDUS_GOLD);
                self.transfer_gold(l, m, paid);
            }
        }
    }

    /// Each federate's 3 VP (XXVIII.E-F; every turn, or only on scoring turns under option
    /// `foedus_vp_turns`, Q30).
    pub fn foedus_vp(&mut self, log: &mut dyn GameLog) {
        let g = self.game;
        for m in 0..self.st.nations.len() {
            if self.st.nations[m].bond == Bond::Federate && self.st.status(m).is_some() {
                self.st.nations[m].vp[VP_FOEDUS] += FOEDUS_VP;
                self.st.turn_vp[g.player_of(m)] += FOEDUS_VP;
                game_log!(log, "foedus: {} +{FOEDUS_VP} VP for its Foedus", g.name(m));
            }
        }
    }
}

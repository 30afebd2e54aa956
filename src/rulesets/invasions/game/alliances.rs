//! Alliances between nations (XXVI; digest §4.13) at the Area level of digest §6.3. An alliance
//! comes from the *Unio* card (diplomacy.rs) and lasts until both Military activations are over
//! (the end of the turn's Military phase). Allies are friendly: they neither attack nor raid each
//! other (`politics::at_peace`), and they activate together in the later of their two slots
//! (XXVI.B). An alliance lapses as soon as either partner is a federate, client or vassal
//! (XXVI.A): [`allied`] reads the bonds, so no step has to remember to break it.
//!
//! The events *Alliance* and *Barbarian Coalition* (X, XXVI.A) make alliances too, under the
//! placeholder events model (abstraction.toml `[events]` alliance_chance, coalition_chance: the
//! card texts are not in the text): [`Play::event_alliance`], [`Play::barbarian_coalition`].
//!
//! Allies' units join each other's battles (joint.rs) and stack together (joint.rs's joined
//! stacks: the limit counts both). Allies pool their holdings for Area control (XII.C, [`pool`]):
//! an Empire's cities and its ally's, a Kingdom's provinces and its ally's, a Barbarian's horde
//! beside only its allies' hordes; the claim goes to the partner whose status claims (an Empire
//! beats a Kingdom beats a Barbarian) and each ally shares the control it gives ([`shares_control`]:
//! an Empire's Area income, the Empire test's and the collapse test's Areas, objectives). What the
//! Area level leaves out: a province has one owner here, so no province is shared (the shared
//! province control of XXVI.B, the equal split of its income and VP, and the separation of stacks
//! when the alliance ends do not arise); full control (XII.C) stays a nation's own (it must
//! hold every city itself). Passage is not a question at the Area level (a stack reaches any
//! adjacent Area).

use super::policy::Policy;
use super::politics::Bond;
use super::procedures;
use super::scenario::Scenario;
use super::state::{area_controller, Phase, State, NONE, NO_PROVINCE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// Which event made an alliance offer (its counter and log line).
#[derive(Clone, Copy)]
enum EventAlliance {
    Alliance,
    Coalition,
}

/// Most alliances a turn holds.
pub const MAX_ALLIANCES: usize = 16;

/// Whether `n` may enter an alliance (XXVI.A): a nation in play that is nobody's federate, client
/// or vassal.
pub fn may_ally(st: &State, n: usize) -> bool {
    st.status(n).is_some() && st.nations[n].bond == Bond::Free
}

/// Whether `a` and `b` are allies this turn.
pub fn allied(st: &State, a: usize, b: usize) -> bool {
    let (a8, b8) = (a as u8, b as u8);
    st.alliances[..st.alliance_count as usize]
        .iter()
        .any(|&(x, y)| (x, y) == (a8, b8) || (x, y) == (b8, a8))
        && may_ally(st, a)
        && may_ally(st, b)
}

/// Whether `n` shares the control of Area `a`: it controls it or an ally of its does (XII.C).
pub fn shares_control(st: &State, a: usize, n: usize) -> bool {
    let c = st.control[a];
    c == n as u8 || (c != NONE && st.alliance_count > 0 && allied(st, c as usize, n))
}

/// Area control's pooling (XII.C), for [`area_controller`] when the turn has alliances: each
/// holder's provinces and cities become its own plus its allies' (a holder's count is what its
/// bloc holds); the hordes present count as one when they all belong to one Barbarian and its
/// allies, that Barbarian then claiming with the bloc's provinces (added as a holder when it
/// holds none itself). `holders[..k]` are (nation, provinces, cities); returns the hordes pair
/// (how many, whose) the claim reads.
pub fn pool(
    s: &Scenario,
    st: &State,
    a: usize,
    holders: &mut [(u8, u32, u32); 16],
    k: &mut usize,
    hordes: (u8, u8),
) -> (u8, u8) {
    let mut result = hordes;
    if hordes.0 > 1 {
        // The hordes here; a Barbarian among them whose every other horde is an ally's.
        let mut present = [NONE; 16];
        let mut m = 0;
        for (n, ns) in st.nations.iter().enumerate() {
            if ns.horde != NO_PROVINCE
                && matches!(ns.phase, Phase::Active(_))
                && s.provinces[ns.horde as usize].area as usize == a
                && m < present.len()
            {
                present[m] = n as u8;
                m += 1;
            }
        }
        let bloc = present[..m].iter().copied().find(|&b| {
            st.status(b as usize) == Some(Status::Barbarian)
                && present[..m]
                    .iter()
                    .all(|&o| o == b || allied(st, o as usize, b as usize))
        });
        if let Some(b) = bloc {
            result = (1, b);
        }
    }
    let own = *holders;
    let n_own = *k;
    if result.0 == 1 && *k < holders.len() && !own[..n_own].iter().any(|h| h.0 == result.1) {
        holders[*k] = (result.1, 0, 0);
        *k += 1;
    }
    for h in holders[..*k].iter_mut() {
        let (mut provinces, mut cities) = (0, 0);
        for o in &own[..n_own] {
            if o.0 == h.0 || allied(st, o.0 as usize, h.0 as usize) {
                provinces += o.1;
                cities += o.2;
            }
        }
        (h.1, h.2) = (provinces, cities);
    }
    result
}

impl Play<'_> {
    /// The alliances changed: every Area's controller again (few alliances a game); returns how
    /// many Areas changed hands.
    fn refresh_control(&mut self) -> u32 {
        let s = &self.game.scenario;
        let mut changed = 0;
        for a in 0..s.areas.len() {
            let c = area_controller(s, &self.st, a);
            if c != self.st.control[a] {
                self.st.control[a] = c;
                changed += 1;
            }
        }
        changed
    }

    /// `n` became a federate, client or vassal: its alliances expire (XXVI.B) for good, not
    /// only while the bond lasts.
    pub fn lapse_alliances(&mut self, n: usize) {
        let count = self.st.alliance_count as usize;
        let table = &mut self.st.alliances;
        let mut kept = 0;
        for i in 0..count {
            let (x, y) = table[i];
            if x as usize != n && y as usize != n {
                table[kept] = (x, y);
                kept += 1;
            }
        }
        table[kept..count].fill((NONE, NONE));
        self.st.alliance_count = kept as u8;
        if kept < count {
            self.refresh_control();
        }
    }

    /// Makes `a` and `b` allies for the rest of the turn; false when either may not ally, they
    /// already are, or the turn's table is full. Their holdings pool at once: the Areas whose
    /// control that changes are counted (`pooled_areas`).
    pub fn ally(&mut self, a: usize, b: usize) -> bool {
        let st = &mut self.st;
        if a == b
            || !may_ally(st, a)
            || !may_ally(st, b)
            || allied(st, a, b)
            || st.alliance_count as usize >= MAX_ALLIANCES
        {
            return false;
        }
        st.alliances[st.alliance_count as usize] = (a as u8, b as u8);
        st.alliance_count += 1;
        st.counters.alliances += 1;
        let pooled = self.refresh_control();
        self.st.counters.pooled_areas += pooled;
        true
    }

    /// The turn's alliances end (both Military activations are over); their pooled control
    /// with them.
    pub fn end_alliances(&mut self) {
        let count = self.st.alliance_count as usize;
        self.st.alliances[..count].fill((NONE, NONE));
        self.st.alliance_count = 0;
        if count > 0 {
            self.refresh_control();
        }
    }

    /// XXVI.B: allies activate together in the later of their two slots: the earlier partner
    /// moves to just before the later one, the nations between them moving up one slot each.
    pub fn join_allies(&mut self) {
        for i in 0..self.st.alliance_count as usize {
            let (a, b) = self.st.alliances[i];
            if !allied(&self.st, a as usize, b as usize) {
                continue;
            }
            let order = &mut self.st.order;
            let (Some(x), Some(y)) = (
                order.iter().position(|&n| n == a),
                order.iter().position(|&n| n == b),
            ) else {
                continue;
            };
            let (early, late) = (x.min(y), x.max(y));
            order[early..late].rotate_left(1);
        }
    }

    /// Whether `t`'s player takes an alliance offered to it: its policy's `alliance_accept`, a
    /// random player on a D2.
    fn accepts_alliance(&self, t: usize, dice: &mut Dice) -> bool {
        match self.policy(t) {
            Policy::Scripted(p) => p.alliance_accept,
            Policy::Random => procedures::d2(dice),
        }
    }

    /// The *Alliance* event drawn by `player` (placeholder model): its nation most threatened
    /// (the highest ratio of `most_threatening`; free to ally, active) offers a one-turn
    /// alliance to that threat, which accepts as its policy's `alliance_accept` says. True when
    /// an alliance was made.
    pub fn event_alliance(
        &mut self,
        player: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let mut best: Option<(usize, usize, f64)> = None;
        for n in 0..self.st.nations.len() {
            if g.player_of(n) != player || g.inactive[n] || !may_ally(&self.st, n) {
                continue;
            }
            if let Some((t, ratio)) = self.most_threatening(n) {
                if may_ally(&self.st, t) && best.is_none_or(|b| ratio > b.2) {
                    best = Some((n, t, ratio));
                }
            }
        }
        let Some((n, t, _)) = best else { return false };
        self.event_offer(n, t, EventAlliance::Alliance, dice, log)
    }

    /// The tail both alliance events share: `t` accepts or refuses `n`'s offer; the event's
    /// counter and log line.
    fn event_offer(
        &mut self,
        n: usize,
        t: usize,
        event: EventAlliance,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let made = self.accepts_alliance(t, dice) && self.ally(n, t);
        match event {
            EventAlliance::Alliance => {
                self.st.counters.event_alliances += made as u32;
                game_log!(
                    log,
                    "event Alliance: {} offers {} an alliance: {}",
                    g.name(n),
                    g.name(t),
                    if made { "accepted" } else { "refused" }
                );
            }
            EventAlliance::Coalition => {
                self.st.counters.coalitions += made as u32;
                game_log!(
                    log,
                    "event Barbarian Coalition: {} and {}: {}",
                    g.name(n),
                    g.name(t),
                    if made { "allied" } else { "refused" }
                );
            }
        }
        made
    }

    /// The *Barbarian Coalition* event drawn by `player` (placeholder model): its Barbarian
    /// nation with the most units beside its horde allies with another player's Barbarian whose
    /// horde stands in the same Area or an adjacent one (the one with the most units there), if
    /// that nation's policy accepts (`alliance_accept`). Both must be free to ally and active.
    pub fn barbarian_coalition(
        &mut self,
        player: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        let horde_area = |st: &State, b: usize| -> Option<usize> {
            let h = st.nations[b].horde;
            (h != NO_PROVINCE
                && st.status(b) == Some(Status::Barbarian)
                && !g.inactive[b]
                && may_ally(st, b))
            .then(|| s.provinces[h as usize].area as usize)
        };
        let mut lead: Option<(usize, usize, u32)> = None;
        for n in 0..self.st.nations.len() {
            if g.player_of(n) != player {
                continue;
            }
            if let Some(a) = horde_area(&self.st, n) {
                let units = self.st.count(n, a);
                if lead.is_none_or(|l| units > l.2) {
                    lead = Some((n, a, units));
                }
            }
        }
        let Some((n, a, _)) = lead else { return false };
        let mut partner: Option<(usize, u32)> = None;
        for t in 0..self.st.nations.len() {
            if g.player_of(t) == player {
                continue;
            }
            let Some(b) = horde_area(&self.st, t) else {
                continue;
            };
            let near = b == a || s.areas[a].links.iter().any(|l| l.to as usize == b);
            let units = self.st.count(t, b);
            if near && partner.is_none_or(|p| units > p.1) {
                partner = Some((t, units));
            }
        }
        let Some((t, _)) = partner else { return false };
        self.event_offer(n, t, EventAlliance::Coalition, dice, log)
    }
}

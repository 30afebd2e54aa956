//! The diplomacy cards beyond *Tributus* and *Unio* (XXX; digest §4.17), with the mechanical
//! effects the text gives, at the Area level of digest §6.3:
//! - *Matrimonium*: 2 gold of dowry to the enemy most threatening the player's land; the target
//!   lends its cheapest unit for the player's activation and scores 2 VP if it does not attack
//!   the player in its activation (they stay hostile).
//! - *Mercenary*: 3 gold to a Barbarian whose horde stands in or next to an Area the player
//!   controls, which lends its cheapest unit for the player's activation.
//! - *Corruption*: kept in hand and played by a city's owner when a siege is about to be rolled
//!   against it (the owner's policy weighs P(the city falls)); the siege is lifted and the owner
//!   pays 1 gold to the besieger.
//! - *Pactum*: 5 gold to the enemy most threatening the player's land for a one-turn pact (a
//!   truce, as *Tributus*'s); the target gives up one of its provinces in or next to an Area
//!   where the player holds land (not its capital nor its horde's province; the player's pick:
//!   the one worth most to it), and the player moves a unit into its Area. At the Area level the
//!   target's units stay in the Area, so the province must be one of two or more the target
//!   holds there (its units keep defending the others); the rulebook's granaries are not marked.
//! - *Foedus*: an Empire or a Kingdom forces a Foedus (XXVIII) on the Barbarian its own offer
//!   would pick (politics.rs), accepted whatever that nation's policy says.
//!
//! A lent unit joins the borrower in the Area of its capital (or horde) and goes back to the
//! lender's at the end of the Military phase while the borrower still has a unit of its kind
//! (the first unit lost in a mixed stack is a national one, L1433); a lender no longer on the
//! map keeps nothing (the unit leaves the game). A unit hired by *Mercenary* never fights its
//! own nation: it deserts to it at a battle's start ([`Play::mercenaries_desert`]).

use super::policy::Policy;
use super::procedures;
use super::state::{cheapest_first, NONE, NO_PROVINCE, VP_MARRIAGE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;

/// Most loans and marriages a turn holds.
pub const MAX_LOANS: usize = 16;
/// XXX.D: *Matrimonium*'s dowry and the target's VP.
pub const DOWRY_GOLD: i32 = 2;
pub const MARRIAGE_VP: i32 = 2;
/// XXX.H: *Mercenary*'s price.
pub const MERCENARY_GOLD: i32 = 3;
/// XXX.C: *Pactum*'s price.
pub const PACT_GOLD: i32 = 5;
/// XXX.G: *Corruption*'s payment to the besieger.
pub const CORRUPTION_GOLD: i32 = 1;

/// One unit of kind `kind` lent by `from` to `to` for this turn's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loan {
    pub from: u8,
    pub to: u8,
    pub kind: u8,
}

impl Loan {
    pub const NONE: Loan = Loan {
        from: NONE,
        to: NONE,
        kind: 0,
    };
}

/// A *Matrimonium* of this turn: `target` scores its VP unless it attacks `player`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marriage {
    pub player: u8,
    pub target: u8,
    pub attacked: bool,
}

impl Marriage {
    pub const NONE: Marriage = Marriage {
        player: NONE,
        target: NONE,
        attacked: false,
    };
}

impl Play<'_> {
    /// The Area where `n` keeps a borrowed unit: its capital's, else its horde's.
    pub(super) fn home_area(&self, n: usize) -> Option<usize> {
        let home = match self.st.nations[n].capital {
            NO_PROVINCE => self.st.nations[n].horde,
            c => c,
        };
        (home != NO_PROVINCE && self.st.status(n).is_some())
            .then(|| self.game.scenario.provinces[home as usize].area as usize)
    }

    /// `from` lends its cheapest unit to `to` for the turn; false when it has none, `to` has no
    /// home or the turn's loans are full.
    pub fn lend_for_the_turn(&mut self, from: usize, to: usize) -> bool {
        let Some(dest) = self.home_area(to) else {
            return false;
        };
        if self.st.loan_count as usize >= MAX_LOANS {
            return false;
        }
        for a in 0..self.game.scenario.areas.len() {
            if let Some(k) = cheapest_first()
                .into_iter()
                .find(|&k| self.st.at(from, a)[k] > 0)
            {
                self.st.at_mut(from, a)[k] -= 1;
                self.st.at_mut(to, dest)[k] += 1;
                let i = self.st.loan_count as usize;
                self.st.loans[i] = Loan {
                    from: from as u8,
                    to: to as u8,
                    kind: k as u8,
                };
                self.st.loan_count += 1;
                return true;
            }
        }
        false
    }

    /// End of the Military phase: lent units go home, marriages pay their VP.
    pub fn settle_loans_and_marriages(&mut self, log: &mut dyn GameLog) {
        let g = self.game;
        for i in 0..self.st.loan_count as usize {
            let Loan { from, to, kind } = self.st.loans[i];
            if from == NONE {
                // A mercenary that deserted to its own nation (Self::mercenaries_desert).
                continue;
            }
            let (from, to, k) = (from as usize, to as usize, kind as usize);
            // The borrower's unit of that kind, from its home Area first.
            let areas = g.scenario.areas.len();
            let start = self.home_area(to).unwrap_or(0);
            let Some(a) = (0..areas)
                .map(|i| (start + i) % areas)
                .find(|&a| self.st.at(to, a)[k] > 0)
            else {
                continue;
            };
            self.st.at_mut(to, a)[k] -= 1;
            match self.home_area(from) {
                Some(h) => self.st.at_mut(from, h)[k] += 1,
                None => self.st.ledger.units_out += 1,
            }
        }
        self.st.loan_count = 0;
        self.st.hired = [false; MAX_LOANS];
        for i in 0..self.st.marriage_count as usize {
            let m = self.st.marriages[i];
            let t = m.target as usize;
            if !m.attacked && self.st.status(t).is_some() {
                self.st.nations[t].vp[VP_MARRIAGE] += MARRIAGE_VP;
                self.st.turn_vp[g.player_of(t)] += MARRIAGE_VP;
                game_log!(
                    log,
                    "{} +{MARRIAGE_VP} VP: it did not attack {} (Matrimonium)",
                    g.name(t),
                    g.name(m.player as usize)
                );
            }
        }
        self.st.marriage_count = 0;
    }

    /// Called when `n` attacks a province of `o`: a marriage's target attacking its player
    /// forfeits the VP.
    pub fn note_attack(&mut self, n: usize, o: usize) {
        let (n, o) = (n as u8, o as u8);
        for m in &mut self.st.marriages[..self.st.marriage_count as usize] {
            if m.target == n && m.player == o {
                m.attacked = true;
            }
        }
    }

    /// *Matrimonium* (XXX.D): on the enemy most threatening `n`'s land when the threat reaches
    /// the policy's `marry` and `n` can pay the dowry.
    pub(super) fn play_marriage(
        &mut self,
        n: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        if self.st.nations[n].treasury < DOWRY_GOLD || self.st.marriage_count as usize >= MAX_LOANS
        {
            return false;
        }
        let Some((t, ratio)) = self.most_threatening(n) else {
            return false;
        };
        let plays = match self.policy(n) {
            Policy::Scripted(p) => ratio >= p.marry,
            Policy::Random => procedures::d2(dice),
        };
        if !plays {
            return false;
        }
        self.transfer_gold(n, t, DOWRY_GOLD);
        let i = self.st.marriage_count as usize;
        self.st.marriages[i] = Marriage {
            player: n as u8,
            target: t as u8,
            attacked: false,
        };
        self.st.marriage_count += 1;
        self.st.counters.marriages += 1;
        let lent = self.lend_for_the_turn(t, n);
        game_log!(
            log,
            "{} pays {} a dowry of {DOWRY_GOLD} gold (Matrimonium){}",
            g.name(n),
            g.name(t),
            if lent { ", which lends a unit" } else { "" }
        );
        true
    }

    /// *Mercenary* (XXX.H): when its treasury reaches the policy's `hire`, `n` pays 3 gold to the
    /// Barbarian (of another player, in play, not invading, not at peace with it) with the most
    /// units in its horde's Area, that horde standing in or next to an Area `n` controls; it
    /// lends its cheapest unit for the turn.
    pub(super) fn play_mercenary(
        &mut self,
        n: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let s = &g.scenario;
        if self.st.nations[n].treasury < MERCENARY_GOLD {
            return false;
        }
        let plays = match self.policy(n) {
            Policy::Scripted(p) => self.st.nations[n].treasury as f64 >= p.hire,
            Policy::Random => procedures::d2(dice),
        };
        if !plays {
            return false;
        }
        self.st.check_control(s);
        let mut best: Option<(u32, usize)> = None;
        for b in 0..self.st.nations.len() {
            let h = self.st.nations[b].horde;
            if self.st.status(b) != Some(Status::Barbarian)
                || h == NO_PROVINCE
                || g.inactive[b]
                || g.player_of(b) == g.player_of(n)
                || self.invading(b)
            {
                continue;
            }
            let ha = s.provinces[h as usize].area as usize;
            let controls = |a: usize| super::alliances::shares_control(&self.st, a, n);
            let near = controls(ha) || s.areas[ha].links.iter().any(|l| controls(l.to as usize));
            let units = self.st.count(b, ha);
            if near && units > 0 && best.is_none_or(|(u, _)| units > u) {
                best = Some((units, b));
            }
        }
        let Some((_, b)) = best else { return false };
        if !self.lend_for_the_turn(b, n) {
            return false;
        }
        self.st.hired[self.st.loan_count as usize - 1] = true;
        self.transfer_gold(n, b, MERCENARY_GOLD);
        self.st.counters.mercenaries_hired += 1;
        game_log!(
            log,
            "{} hires a mercenary of {} for {MERCENARY_GOLD} gold",
            g.name(n),
            g.name(b)
        );
        true
    }

    /// *Corruption* (XXX.G), before `n` rolls a siege of province `p`'s city: its owner, holding
    /// the card and 1 gold, lifts the siege when P(the city falls) reaches its policy's
    /// `corrupt` (not against an invading besieger). True when the siege is lifted.
    pub fn bribe_besieger(
        &mut self,
        n: usize,
        p: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let g = self.game;
        let o = self.st.owner[p];
        let Some(k) = super::diplomacy::kind_named(&g.scenario, "corruption") else {
            return false;
        };
        if o == NONE {
            return false;
        }
        let o = o as usize;
        if self.st.nations[o].hand[k] == 0
            || self.st.nations[o].treasury < CORRUPTION_GOLD
            || self.invading(n)
        {
            return false;
        }
        let plays = match self.policy(o) {
            Policy::Scripted(q) => self.p_fall(n, p) >= q.corrupt,
            Policy::Random => procedures::d2(dice),
        };
        if !plays {
            return false;
        }
        self.st.nations[o].hand[k] -= 1;
        self.st.nations[o].cards -= 1;
        if g.played_cards_discarded {
            self.st.cards_out[k] += 1;
        }
        self.transfer_gold(o, n, CORRUPTION_GOLD);
        self.st.counters.sieges_bribed += 1;
        game_log!(
            log,
            "{} besieges {}: lifted, {} pays it {CORRUPTION_GOLD} gold (Corruption)",
            g.name(n),
            g.scenario.provinces[p].name,
            g.name(o)
        );
        true
    }

    /// *Foedus* (XXX.F): an Empire or a Kingdom (the card is a Kingdom's only way to a Foedus,
    /// XXVIII.A) free of bonds forces the Foedus its own offer would make (politics.rs); a
    /// Kingdom federator then collects the province income of the Foedus provinces its federate
    /// holds (XXVIII.D, economy.rs).
    pub(super) fn play_foedus_card(
        &mut self,
        n: usize,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let status = self.st.status(n);
        if !matches!(status, Some(Status::Empire | Status::Kingdom))
            || self.game.minor[n]
            || self.st.nations[n].bond != super::politics::Bond::Free
        {
            return false;
        }
        let before = self.st.counters.foedera;
        let offered = self.offer_foedus(n, true, dice, log);
        if self.st.counters.foedera > before {
            self.st.counters.foedus_cards += 1;
            if status == Some(Status::Kingdom) {
                self.st.counters.kingdom_foedera += 1;
            }
        }
        offered
    }

    /// XXX.H: a *Mercenary* never fights its own nation; when `n` (in Area `from`, attacking
    /// with `attackers`) attacks a province of `o` in Area `to`, a unit one of them hired from
    /// the other deserts to its own nation at the battle's start. At the Area level a hired unit
    /// stays where it joined its borrower (`home_area`): it takes part when the
    /// borrower's stack comes from, or defends, that Area and holds a unit of its kind. The
    /// loan is over (the unit is home). False when no attacker is left.
    pub fn mercenaries_desert(
        &mut self,
        n: usize,
        o: usize,
        from: usize,
        to: usize,
        attackers: &mut super::state::Units,
    ) -> bool {
        for i in 0..self.st.loan_count as usize {
            let Loan {
                from: lender,
                to: borrower,
                kind,
            } = self.st.loans[i];
            if !self.st.hired[i] {
                continue;
            }
            let (lender, borrower, k) = (lender as usize, borrower as usize, kind as usize);
            let home = self.home_area(borrower);
            if (borrower, lender) == (n, o) && home == Some(from) && attackers[k] > 0 {
                attackers[k] -= 1;
                self.st.at_mut(n, from)[k] -= 1;
                self.st.at_mut(o, to)[k] += 1;
            } else if (borrower, lender) == (o, n) && home == Some(to) && self.st.at(o, to)[k] > 0 {
                self.st.at_mut(o, to)[k] -= 1;
                self.st.at_mut(n, from)[k] += 1;
                attackers[k] += 1;
            } else {
                continue;
            }
            self.st.loans[i] = Loan::NONE;
            self.st.hired[i] = false;
            self.st.counters.mercenaries_deserted += 1;
        }
        super::state::total(attackers) > 0
    }

    /// *Pactum* (XXX.C): when the threat reaches the policy's `pact` and `n` has 5 gold, on the
    /// enemy most threatening its land ([`Self::most_threatening`]): the gold, a truce to the end
    /// of the turn, and the province of that enemy worth most to `n` among those it may pick
    /// (module comment), where `n` moves a unit (one of its own in that Area, else its cheapest
    /// from the Area where it has the most). False when it stays in hand.
    pub(super) fn play_pactum(&mut self, n: usize, dice: &mut Dice, log: &mut dyn GameLog) -> bool {
        let g = self.game;
        let s = &g.scenario;
        if self.st.nations[n].treasury < PACT_GOLD
            || self.st.truce_count as usize >= super::diplomacy::MAX_TRUCES
            || self.st.units_of(n) == 0
        {
            return false;
        }
        let Some((t, ratio)) = self.most_threatening(n) else {
            return false;
        };
        let plays = match self.policy(n) {
            Policy::Scripted(p) => ratio >= p.pact,
            Policy::Random => procedures::d2(dice),
        };
        if !plays {
            return false;
        }
        let Some(q) = self.pact_province(n, t) else {
            return false;
        };
        let a = s.provinces[q].area as usize;
        if self.st.count(n, a) == 0 {
            let from = (0..s.areas.len())
                .max_by_key(|&b| (self.st.count(n, b), std::cmp::Reverse(b)))
                .expect("the map has Areas");
            // Units off the map (units_of counts them) cannot be moved in.
            let Some(k) = cheapest_first()
                .into_iter()
                .find(|&k| self.st.at(n, from)[k] > 0)
            else {
                return false;
            };
            self.st.at_mut(n, from)[k] -= 1;
            self.st.at_mut(n, a)[k] += 1;
        }
        self.transfer_gold(n, t, PACT_GOLD);
        self.st.set_owner(s, q, n as u8);
        let k = self.st.truce_count as usize;
        self.st.truces[k] = (n as u8, t as u8);
        self.st.truce_count += 1;
        self.st.counters.pacts += 1;
        game_log!(
            log,
            "{} pays {} {PACT_GOLD} gold for a pact and {} (Pactum)",
            g.name(n),
            g.name(t),
            s.provinces[q].name
        );
        true
    }

    /// The province *Pactum* takes from `t` for `n`: one of `t`'s, in or next to an Area where
    /// `n` holds a province, not `t`'s capital nor its horde's province, in an Area where `t`
    /// holds another province; the one worth most to `n` (objective VP, income, city).
    pub(super) fn pact_province(&self, n: usize, t: usize) -> Option<usize> {
        let g = self.game;
        let s = &g.scenario;
        let np = s.provinces.len();
        let mut near = 0u64;
        for (p, &o) in self.st.owner.iter().enumerate() {
            if o == n as u8 {
                let a = s.provinces[p].area as usize;
                near |= 1 << a;
                for l in &s.areas[a].links {
                    near |= 1 << l.to;
                }
            }
        }
        let ns = &self.st.nations[t];
        let mut best: Option<(f64, usize)> = None;
        for (p, &o) in self.st.owner.iter().enumerate() {
            let a = s.provinces[p].area as usize;
            if o != t as u8
                || near & (1 << a) == 0
                || p == ns.capital as usize
                || p == ns.horde as usize
                || super::state::held_in(s, &self.st, t, a) < 2
            {
                continue;
            }
            let w = g.worth[n * np + p] + self.st.level[p] as f64;
            if best.is_none_or(|(v, _)| w > v) {
                best = Some((w, p));
            }
        }
        best.map(|(_, p)| p)
    }
}

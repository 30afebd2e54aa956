//! Mediterráneo sanguinolento's decisions for the engine's search player
//! ([`crate::game::search`]).
//!
//! A searching major decides once a turn, before the turn's events, by overruling its rollout
//! policy with a [`Directive`] for that turn: the war (no march, a bolder march, or a march on one
//! of the [`TARGETS`] best-scored neighbours whatever the odds) when its field army stands idle at
//! home; the purchases (none, or heavy troops only); the gifts of a turn with a collection (the
//! whole cap or none); the tax level of a turn with the April collection (lowered ×2, normal or
//! raised ×2); the envoys of the turn (one more than the policy's, each with the 1,200 DEN gift
//! that gives the +10 and treaties offered to the other majors, or neither); the turn's trade (all it may at the black market and at least
//! one caravan, or none); where they would change the turn, the fleet purchases (none, or one
//! warfleet a home city and two transports more than the policy keeps), the mercenary bid (none,
//! or raised), the hiring of partners' troops (the policy's opposite) and the turn's works (none,
//! or as many as pay back within the game). The first candidate is always `Follow`, the rollout policy's own play, and the
//! engine keeps it unless another is clearly better over the same seeds
//! (its catalog's `margin`, [`crate::game::search::SearchSpec::margin`]), measured on fresh
//! rollouts (`confirm`, 16 pairs by default) rather than on those the halving picked it by.
//!
//! Each candidate is tried by copying the state and playing on: the candidate this turn, every
//! major's own policy afterwards (a searcher plays its rollout policy), to the end of the game or
//! for `horizon` turns. At the end a rollout is worth 0.9 × the major's win share + 0.1 × its PV
//! margin; cut at a horizon, its PV margin alone: 1/2 + (its PV − the best other major's PV) /
//! (2 × the victory PV), clamped to [0, 1]. (A share of the leader's PV would give every
//! candidate of the leading major the same 1.)
//!
//! The searcher sees the whole state and every other country's policy (an omniscient player: more
//! than the game's spies would tell it).

use super::diplomacy;
use super::economy;
use super::fleets;
use super::major_works;
use super::mercenaries::{self, Source};
use super::military;
use super::policy::{Directive, Policy, Scripted};
use super::roads;
use super::scenario::{CountryId, DEN, PIE};
use super::state::State;
use super::turn::Play;
use super::works;
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searchable;
use crate::game::NoLog;
use std::cell::RefCell;

/// At most this many `Attack` candidates: the best targets by the scripted shortlist's score.
pub const TARGETS: usize = 2;

/// The tax levels a searcher may set in April (lowered ×2, normal, raised ×2).
pub const TAX_LEVELS: [i8; 3] = [-2, 0, 2];

/// The game as the search player sees it: a worker of its own (its state swapped in for a
/// rollout), whose searching majors play their rollout policies.
pub struct Rollouts<'g> {
    play: RefCell<Play<'g>>,
    /// The directives of the majors that chose before the searcher this turn.
    chosen: RefCell<Vec<Directive>>,
}

impl<'g> Rollouts<'g> {
    pub fn new(game: &'g Game) -> Rollouts<'g> {
        Rollouts {
            play: RefCell::new(Play::without_search(game)),
            chosen: RefCell::new(vec![Directive::Follow; game.majors.len()]),
        }
    }

    /// The directives already chosen this turn (by majors searching before the next one).
    pub fn directives_from(&self, chosen: &[Directive]) {
        self.chosen.borrow_mut().copy_from_slice(chosen);
    }
}

/// Major `p`'s PV margin over the best other major, mapped into [0, 1].
pub fn pv_margin(play: &Play, p: usize) -> f64 {
    let g = play.game;
    let pv = |q: usize| play.st.nations[g.majors[q] as usize].pv;
    let best_other = (0..g.majors.len())
        .filter(|&q| q != p)
        .map(pv)
        .max()
        .unwrap_or(0);
    let scale = 2.0 * g.scenario.calendar.victory_pv.max(1) as f64;
    (0.5 + (pv(p) - best_other) as f64 / scale).clamp(0.0, 1.0)
}

/// Whether the turn `turn` ends with a collection, and whether that collection is April's.
fn collection_in(g: &Game, turn: u32) -> (bool, bool) {
    let last = 2 * turn;
    let cal = State::calendar(last);
    let collects = g.scenario.calendar.collection & (1 << cal) != 0;
    (collects, collects && cal == 4)
}

/// The directives worth trying for major `p` at the start of `st.turn`, Follow first.
pub fn candidates(g: &Game, st: &State, p: usize, out: &mut Vec<Directive>) {
    out.push(Directive::Follow);
    let c = g.majors[p];
    if st.lands[c as usize].owner != c {
        return;
    }
    let turn = st.turn;
    let own = match g.policies[c as usize] {
        Policy::Scripted(s) => s,
        // The random policy's numbers are drawn afresh each turn: only the war is offered.
        Policy::Random => super::policy::Scripted::defaults(),
    };
    let random = matches!(g.policies[c as usize], Policy::Random);
    if turn > g.scenario.calendar.no_player_attacks_on_turn && military::may_march(st, c) {
        out.extend([Directive::Hold, Directive::Bold]);
        let mut best: [(CountryId, f64); TARGETS] = [(CountryId::MAX, f64::NEG_INFINITY); TARGETS];
        let breaks = own.break_treaties >= 0.5;
        military::targets(g, st, c, turn, own.overseas, breaks, |t, score| {
            if best.iter().any(|b| b.0 == t) || score <= best[TARGETS - 1].1 {
                return;
            }
            best[TARGETS - 1] = (t, score);
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        });
        out.extend(
            best.iter()
                .filter(|b| b.0 != CountryId::MAX)
                .map(|b| Directive::Attack(b.0)),
        );
    }
    if random {
        return;
    }
    if own.recruit > 0.0 {
        out.push(Directive::Save);
    }
    if g.nkinds[c as usize] > 1 && (own.heavy_share < 1.0 || own.mounted_share > 0.0) {
        out.push(Directive::Heavy);
    }
    let (collects, april) = collection_in(g, turn);
    if collects {
        if own.gifts < 1.0 {
            out.push(Directive::Gifts(true));
        }
        if own.gifts > 0.0 {
            out.push(Directive::Gifts(false));
        }
    }
    if april {
        out.extend(
            TAX_LEVELS
                .iter()
                .filter(|&&l| l != own.taxes)
                .map(|&l| Directive::Taxes(l)),
        );
    }
    out.push(Directive::Court(true));
    if own.envoys > 0 || own.major_treaties >= 0.5 {
        out.push(Directive::Court(false));
    }
    if own.market_sell < 1.0 || own.market_buy < 1.0 || own.caravans == 0 {
        out.push(Directive::Trade(true));
    }
    if own.market_sell > 0.0 || own.market_buy > 0.0 || own.caravans > 0 {
        out.push(Directive::Trade(false));
    }
    fleets_and_hires(g, st, p, &own, out);
    works_directives(g, st, p, &own, out);
}

/// The works directives that would change what major `p`'s turn does, judged on the state at
/// the turn's start (the constructions come after the turn's payments and purchases, which the
/// rollouts play): none where the policy would start a work or a road, more where the raised
/// plan would start more works and roads than the policy's.
fn works_directives(g: &Game, st: &State, p: usize, own: &Scripted, out: &mut Vec<Directive>) {
    let c = g.majors[p];
    // The works first, then the road with what they leave, as the constructions phase plays them.
    let started = |plan: &Scripted| {
        let (_, works, stock) = works::planned_and_stock(g, st, c, plan);
        // The major construction weighed on the works' leftovers (the road's stone not taken).
        let road = roads::planned_from(g, st, c, plan, &stock);
        // The wall hex after the road, as the constructions phase plays them.
        let mut after_road = stock;
        if let Some(i) = road {
            let (den, pie, _) = roads::price(g, i);
            after_road[DEN] -= den;
            after_road[PIE] -= pie;
        }
        works
            + road.is_some() as usize
            + major_works::planned_from(g, st, c, plan, &stock) as usize
            + super::walls::planned_from(g, st, c, plan, &after_road).is_some() as usize
    };
    let policy = started(own);
    if policy > 0 {
        out.push(Directive::Works(false));
    }
    let more = Directive::Works(true).apply(*own);
    if more != *own && started(&more) > policy {
        out.push(Directive::Works(true));
    }
}

/// The fleet, mercenary and partner directives that would change what major `p`'s turn does:
/// no fleets where the policy would order some and more where one more warfleet is affordable
/// (a port, nothing on the stocks); no bid where the policy bids and a raised one where it is
/// affordable (a band slot for the table's mercenaries; whether any appear this turn is the
/// turn's own roll, which the rollouts play); partners hired or not, the policy's opposite, where
/// a client or associated state has troops to hire and a band slot is free.
fn fleets_and_hires(g: &Game, st: &State, p: usize, own: &Scripted, out: &mut Vec<Directive>) {
    let c = g.majors[p];
    let n = &st.nations[c as usize];
    let spare = n.stock[DEN] - economy::den_to_keep(g, st, c, own);
    if let Some(warfleet) = g.scenario.fleet {
        if fleets::has_port(g, st, c) && n.shipyard.is_empty() {
            let cities = g.scenario.countries[c as usize].cities.len() as f64;
            let orders = own.warfleets_per_city * cities - n.fleets >= 1.0
                || own.transports as f64 - n.transports >= 1.0
                || own.pirate_fleets as f64 - n.pirates >= 1.0;
            if orders {
                out.push(Directive::Fleets(false));
            }
            if spare >= fleets::fleet_cost(warfleet, fleets::CREW_CLASS, true)[DEN] {
                out.push(Directive::Fleets(true));
            }
        }
    }
    if n.mercs
        .iter()
        .any(|b| matches!(b.source, Source::None | Source::Table(_)))
    {
        if own.mercenary_bid > 0 && spare >= own.mercenary_bid {
            out.push(Directive::Mercenaries(false));
        }
        let raised = Directive::Mercenaries(true).apply(*own).mercenary_bid;
        if raised > own.mercenary_bid && spare >= raised {
            out.push(Directive::Mercenaries(true));
        }
    }
    if spare > 0 && partner_to_hire(g, st, p) {
        out.push(Directive::Partners(own.partner_hire < 0.5));
    }
}

/// Whether major `p` has a free band slot and a client or associated state holding its home that
/// it has hired no band from yet (what `mercenaries::hire_partners` looks for).
pub fn partner_to_hire(g: &Game, st: &State, p: usize) -> bool {
    let bands = &st.nations[g.majors[p] as usize].mercs;
    if bands.iter().all(|b| b.source != Source::None) {
        return false;
    }
    (0..st.nations.len() as CountryId).any(|t| {
        mercenaries::hire_share(st.relations[diplomacy::at(st, p, t)].level) > 0.0
            && st.lands[t as usize].owner == t
            && !bands
                .iter()
                .any(|b| matches!(b.source, Source::Partner(x, _) if x == t))
    })
}

impl<'g> Searchable for Rollouts<'g> {
    type State = State;
    type Action = Directive;

    fn candidates(&self, st: &State, p: usize, out: &mut Vec<Directive>) {
        let play = self.play.borrow();
        candidates(play.game, st, p, out);
    }

    /// `st` is at the start of turn `st.turn`, before its events.
    fn rollout(
        &self,
        st: &mut State,
        p: usize,
        d: Directive,
        horizon: u32,
        dice: &mut Dice,
    ) -> f64 {
        let mut play = self.play.borrow_mut();
        std::mem::swap(&mut play.st, st);
        play.directives.copy_from_slice(&self.chosen.borrow());
        play.directives[p] = d;
        let g = play.game;
        let first = play.st.turn;
        let mut turn = first;
        let value = loop {
            play.play_turn(turn, dice, &mut NoLog);
            if play.leader_at_victory().is_some() {
                break 0.9 * play.win_share(p, 0) + 0.1 * pv_margin(&play, p);
            }
            if turn >= g.turn_cap {
                break 0.9 * play.win_share(p, 1) + 0.1 * pv_margin(&play, p);
            }
            if horizon > 0 && turn + 1 - first >= horizon {
                break pv_margin(&play, p);
            }
            turn += 1;
        };
        std::mem::swap(&mut play.st, st);
        value
    }
}

//! Invasions' decisions for the engine's search player ([`crate::game::search`]).
//!
//! A searching player decides twice a turn, for all its nations at once, by overruling its
//! rollout policy with a [`Directive`]. At the turn's start (the plan, before ageing): whether its
//! Barbarians announce their Kingdom as soon as the rules allow or not at all this turn, and what
//! its Kingdoms and Empires do in Purchases (heavy units only, plain infantry only, nothing, or a
//! city's walls first). Once the turn's nations have entered and been reinforced (the orders,
//! before events, raids and the Military phase): bolder or no attacks, raids instead of attacks,
//! or an attack on one named province, whatever the odds, by every nation of the player that can
//! reach it (one of the best few by the scripted players' own scoring: a Barbarian's invasion
//! target, a Kingdom's war). Each directive reaches the game only where the game reads the
//! nation's policy ([`super::turn::Play::policy`]) or its orders ([`super::military`]); a target
//! no longer open by then leaves the nation to its policy.
//!
//! Each candidate is tried by copying the state and playing on: the candidate this turn, every
//! player's own policy afterwards (a searcher plays its rollout policy), to the end of the game or
//! for `horizon` turns. At the end a rollout is worth 0.9 × the player's win share + 0.1 × its VP
//! over the leader's: with the placeholder VP one player wins almost every game, and the VP term
//! still tells the others' candidates apart. Cut at a horizon it is worth its VP, with what its
//! objectives would score if scored then, over the leader's (a heuristic in [0, 1]).
//!
//! The searcher sees the whole state and every other player's policy (no hidden information is
//! played: the decks follow the null model).

use super::policy::{Directive, Policy};
use super::state::{Phase, Stage, State, NO_PROVINCE};
use super::turn::Play;
use super::Game;
use crate::dice::Dice;
use crate::game::search::Searchable;
use crate::game::NoLog;
use crate::rulesets::invasions::army::Status;
use std::cell::RefCell;

/// At most this many `Attack` candidates: the best provinces by the scripted players' scoring.
pub const TARGETS: usize = 3;

/// The game as the search player sees it: a worker of its own (its state swapped in for a
/// rollout, its battle cache kept warm), whose searching players play their rollout policies.
pub struct Rollouts<'g> {
    play: RefCell<Play<'g>>,
}

impl<'g> Rollouts<'g> {
    pub fn new(game: &'g Game) -> Rollouts<'g> {
        Rollouts {
            play: RefCell::new(Play::without_search(game)),
        }
    }
}

/// Player `p`'s VP over the leader's, in [0, 1]; `projected` adds what every nation's objectives
/// would score now (a rollout cut before a scoring turn).
pub fn vp_share(play: &Play, p: usize, projected: bool) -> f64 {
    let g = play.game;
    let worth = |q: usize| {
        let mut vp = play.player_vp(q);
        if projected {
            vp += (0..g.scenario.nations.len())
                .filter(|&n| g.player_of(n) == q)
                .map(|n| play.objective_vp(n))
                .sum::<i32>();
        }
        vp
    };
    let best = (0..g.players.len()).map(worth).max().unwrap_or(0);
    if best <= 0 {
        return 0.0;
    }
    (worth(p).max(0) as f64 / best as f64).min(1.0)
}

/// Whether Barbarian `n` may announce its Kingdom when it ages this turn (age 3 at least, a
/// province held in a Civilized Area; never the Huns).
fn may_announce(play: &Play, n: usize) -> bool {
    let g = play.game;
    let st = &play.st;
    st.status(n) == Some(Status::Barbarian)
        && !g.inactive[n]
        && n != g.hunni
        && st.nations[n].horde != NO_PROVINCE
        && st.nations[n].age + 1 >= 3
        && (0..g.scenario.provinces.len()).any(|p| {
            st.owner[p] == n as u8
                && g.scenario.areas[g.scenario.provinces[p].area as usize].kind
                    == super::scenario::AreaKind::Civilized
        })
}

/// The best `TARGETS` provinces player `p`'s nations could attack now, by the shortlist's score.
fn targets(play: &Play, p: usize, out: &mut Vec<Directive>) {
    let g = play.game;
    let st = &play.st;
    let mut best = [(usize::MAX, f64::NEG_INFINITY); TARGETS];
    let mut offer = |q: usize, score: f64| {
        if best.iter().any(|b| b.0 == q) {
            let slot = best.iter_mut().find(|b| b.0 == q).expect("found");
            slot.1 = slot.1.max(score);
        } else if score > best[TARGETS - 1].1 {
            best[TARGETS - 1] = (q, score);
        }
        best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    };
    for n in 0..g.scenario.nations.len() {
        if g.player_of(n) != p || g.inactive[n] {
            continue;
        }
        match st.status(n) {
            Some(Status::Barbarian) => {
                let h = st.nations[n].horde;
                if h == NO_PROVINCE {
                    continue;
                }
                let nation = &g.scenario.nations[n];
                let invading = nation.entry_turn == st.turn || nation.active_from == st.turn;
                let from = g.scenario.provinces[h as usize].area as usize;
                play.target_scores(n, from, invading, 0, &mut offer);
            }
            Some(_) if !g.minor[n] => {
                let keep = match play.policy(n) {
                    Policy::Scripted(s) => s.garrison as u32,
                    Policy::Random => 0,
                };
                for a in 0..g.scenario.areas.len() {
                    if st.count(n, a) > keep {
                        play.target_scores(n, a, false, keep, &mut offer);
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(
        best.iter()
            .filter(|b| b.0 != usize::MAX)
            .map(|b| Directive::Attack(b.0 as u16)),
    );
}

impl<'g> Searchable for Rollouts<'g> {
    type State = State;
    type Action = Directive;

    fn candidates(&self, state: &State, p: usize, out: &mut Vec<Directive>) {
        let mut play = self.play.borrow_mut();
        play.st.clone_from(state);
        let play = &*play;
        let g = play.game;
        let st = &play.st;
        out.push(Directive::Follow);
        let mine = || (0..g.scenario.nations.len()).filter(move |&n| g.player_of(n) == p);
        // Directives that move numbers mean nothing to the random policy.
        let scripted = mine().any(|n| matches!(g.policies[n], Policy::Scripted(_)));
        match state.stage {
            Stage::Plan => {
                // Turn 1 starts at the events (L354): no ageing, no Administration.
                if !scripted || st.turn <= 1 {
                    return;
                }
                if mine().any(|n| may_announce(play, n)) {
                    out.extend([Directive::KingdomNow, Directive::NoKingdom]);
                }
                let buyers: Vec<usize> = mine()
                    .filter(|&n| st.civilized(n) && !g.inactive[n] && !g.minor[n])
                    .collect();
                if !buyers.is_empty() {
                    out.extend([Directive::BuyHeavy, Directive::BuyCheap, Directive::Save]);
                    let unwalled = (0..st.owner.len()).any(|q| {
                        buyers.contains(&(st.owner[q] as usize))
                            && st.level[q] > 0
                            && st.walls[q] == 0
                    });
                    if unwalled {
                        out.push(Directive::Fortify);
                    }
                }
            }
            Stage::Orders => {
                let active = mine()
                    .any(|n| !g.inactive[n] && matches!(st.nations[n].phase, Phase::Active(_)));
                if !active {
                    return;
                }
                if scripted {
                    out.extend([Directive::Bold, Directive::Stay]);
                    let hordes = mine().any(|n| {
                        st.status(n) == Some(Status::Barbarian)
                            && !g.inactive[n]
                            && st.nations[n].horde != NO_PROVINCE
                    });
                    if hordes {
                        out.push(Directive::Raid);
                    }
                }
                targets(play, p, out);
            }
        }
    }

    /// `s` is at one of a turn's two decision points ([`State::stage`]).
    fn rollout(&self, s: &mut State, p: usize, d: Directive, horizon: u32, dice: &mut Dice) -> f64 {
        let mut play = self.play.borrow_mut();
        std::mem::swap(&mut play.st, s);
        let mut log = NoLog;
        let first = play.st.turn;
        match play.st.stage {
            Stage::Plan => {
                play.st.plans[p] = d;
                play.turn_start(dice, &mut log);
                play.turn_rest(dice, &mut log);
            }
            Stage::Orders => {
                play.st.orders[p] = d;
                play.turn_rest(dice, &mut log);
            }
        }
        let last = play.game.last_turn;
        let value = loop {
            if play.st.turn >= last {
                let won = (play.winner() == p) as u8 as f64;
                break 0.9 * won + 0.1 * vp_share(&play, p, false);
            }
            if horizon > 0 && (play.st.turn + 1 - first) as u32 >= horizon {
                break vp_share(&play, p, true);
            }
            play.st.turn += 1;
            play.turn_start(dice, &mut log);
            play.turn_rest(dice, &mut log);
        };
        std::mem::swap(&mut play.st, s);
        value
    }
}

//! Naval transport and amphibious landings (XXV.D-E, digest §3.9, §4.12) at the Area level: a
//! nation whose naval stack lies off one of its coastal provinces carries up to 3 land units a
//! fleet across that zone, or into an adjacent zone where it also has a naval stack (2 zones at
//! most), and lands them on an enemy or empty province with a port on the last zone crossed. The
//! sea-risk roll, an enemy naval stack's interception (automatic for a stack whose nation holds
//! every city of the zone's coast, else a D2) and the naval battle are the calculator's own
//! `Landing` (through `battles.rs`, by shipping.rs's `cross`); the landed units then attack the
//! province as a land stack would, with no border crossed. A Barbarian lands too (weighing it on
//! its `attack`). Fleets move and transports sail in shipping.rs; a city on a coast where its
//! owner has a naval stack gets the siege's −1.

use super::battles::Landed;
use super::military::{shortlist_p_win, strength, strongest, Target};
use super::policy::Policy;
use super::scenario::Scenario;
use super::state::{total, State, Units, NONE};
use super::turn::Play;
use crate::dice::Dice;
use crate::game::GameLog;
use crate::game_log;
use crate::rulesets::invasions::army::Status;
use crate::rulesets::invasions::landing::SeaRisk;
use crate::rulesets::invasions::naval::{self, Kind};

/// Land units one fleet carries (XXV.D, L2259).
pub const CARRIED_PER_FLEET: u32 = 3;

/// Q47's reading of "the Mediterranean and Pontus Euxinus": every *Mare …* zone but the Suebic,
/// Aral, Caspian and Red seas, plus Sinus Gallicus, Propontis and Pontus Euxinus.
pub fn mediterranean(sea: &str) -> bool {
    let other_mare = [
        "Mare Suebicum",
        "Mare Aralis",
        "Mare Caspium",
        "Mare Rubrum",
    ];
    (sea.starts_with("Mare ") && !other_mare.contains(&sea))
        || ["Sinus Gallicus", "Propontis", "Pontus Euxinus"].contains(&sea)
}

/// The sea-risk roll of a landing by `n` in Area `to` across the zone `last` (XXV.E): −2 unless
/// `n` holds a built city of that Area with a port on `last` (an unbuilt site does not count),
/// +1 for Rome and Byzantium on a Mediterranean or Pontus Euxinus coast; no roll for a Barbarian
/// nation invading Britannia.
pub fn sea_risk(
    s: &Scenario,
    st: &State,
    n: usize,
    roman: bool,
    barbarian: bool,
    to: usize,
    last: usize,
) -> SeaRisk {
    let city_on_coast = s.areas[to].provinces.iter().any(|&q| {
        let q = q as usize;
        s.provinces[q].port == Some(last as u8) && st.owner[q] == n as u8 && st.level[q] > 0
    });
    SeaRisk {
        city_on_coast,
        rome_byzantium: roman,
        mediterranean: mediterranean(&s.seas[last].name),
        event: 0,
        exempt: barbarian && s.areas[to].name == "Britannia",
    }
}

/// A landing the policy weighs: where from, across which zones, onto which province.
#[derive(Clone, Copy, Debug)]
pub(super) struct Crossing {
    from: usize,
    /// The zone the stack embarks on and the zone it lands from (the same for one zone).
    first: usize,
    last: usize,
    province: usize,
    attackers: Units,
    score: f64,
}

impl Play<'_> {
    pub(super) fn fleets(&self, n: usize, sea: usize) -> u8 {
        self.st.fleets[n * self.game.scenario.seas.len() + sea]
    }

    pub(super) fn fleets_mut(&mut self, n: usize, sea: usize) -> &mut u8 {
        let seas = self.game.scenario.seas.len();
        &mut self.st.fleets[n * seas + sea]
    }

    /// Whether the owner of province `p` has a naval stack off its port (the siege's −1, XXIV.C).
    pub(super) fn supplied_by_sea(&self, p: usize) -> bool {
        let o = self.st.owner[p];
        match self.game.scenario.provinces[p].port {
            Some(sea) if o != NONE => self.fleets(o as usize, sea as usize) > 0,
            _ => false,
        }
    }

    /// Whether `n` holds every built city on the coast of zone `sea` (at least one): its naval
    /// interception there is automatic (XXV.B) and, at sea in the Mediterranean, its stack gets
    /// 2 rerolls (XXV.C).
    pub(super) fn holds_coast(&self, n: usize, sea: usize) -> bool {
        let mut cities = 0;
        for &q in &self.game.scenario.seas[sea].ports {
            let q = q as usize;
            if self.st.level[q] > 0 {
                if self.st.owner[q] != n as u8 {
                    return false;
                }
                cities += 1;
            }
        }
        cities > 0
    }

    pub(super) fn naval_side(&self, n: usize, sea: usize) -> naval::Side {
        naval::Side {
            fleets: self.fleets(n, sea).min(2),
            elite: 0,
            kind: match self.st.status(n) {
                Some(Status::Empire) => Kind::Empire,
                Some(Status::Kingdom) => Kind::Kingdom,
                _ => Kind::Barbarian,
            },
            rome_byzantium: self.game.roman[n],
            leader: None,
            full_coastal_control: self.holds_coast(n, sea),
        }
    }

    /// The enemy naval stack that intercepts a transport across `zones`: the biggest one of
    /// another player's nation still in the game, in the last zone first (ties: the first nation).
    pub(super) fn interceptor(&self, n: usize, zones: [usize; 2]) -> Option<(usize, usize)> {
        let g = self.game;
        let mut best: Option<(usize, usize, u8)> = None;
        for sea in [zones[1], zones[0]] {
            for o in 0..g.scenario.nations.len() {
                let f = self.fleets(o, sea);
                if f == 0 || g.player_of(o) == g.player_of(n) || self.st.status(o).is_none() {
                    continue;
                }
                if best.is_none_or(|b| f > b.2) {
                    best = Some((o, sea, f));
                }
            }
            if best.is_some() {
                break;
            }
        }
        best.map(|(o, sea, _)| (o, sea))
    }

    /// A landing this activation, if the policy finds one worth it (a Barbarian weighs it on its
    /// `attack`, a Kingdom or an Empire on its `civilized_attack`). True when one was tried.
    pub(super) fn landing(
        &mut self,
        n: usize,
        keep: u32,
        dice: &mut Dice,
        log: &mut dyn GameLog,
    ) -> bool {
        let seas = self.game.scenario.seas.len();
        if self.st.fleets[n * seas..(n + 1) * seas]
            .iter()
            .all(|&f| f == 0)
        {
            return false;
        }
        let (attack, siege, min_risk, sea_loss) = match self.policy(n) {
            Policy::Scripted(p) if self.st.status(n) == Some(Status::Barbarian) => {
                (p.attack, p.siege, p.landing, Some(p.sea_loss))
            }
            Policy::Scripted(p) => (p.civilized_attack, p.siege, p.landing, Some(p.sea_loss)),
            // The random player lands half the time when it can.
            Policy::Random => (0.0, 0.0, if dice.below(2) == 0 { 0.0 } else { 2.0 }, None),
        };
        if min_risk > 1.0 {
            return false;
        }
        let Some(c) = self.best_crossing(n, keep, siege, min_risk, sea_loss) else {
            return false;
        };
        let g = self.game;
        let s = &g.scenario;
        let to = s.provinces[c.province].area as usize;
        let (defenders, horde) = self.defenders(c.province);
        let p_win = if total(&defenders) == 0 {
            1.0
        } else {
            let o = self.st.owner[c.province] as usize;
            let sides = [
                self.fighter(n, c.attackers, false),
                self.fighter(o, defenders, horde),
            ];
            self.battles.p_attacker(self.ground(to, c.province), sides)
        };
        if p_win < attack {
            return false;
        }
        let landed = self.sail(n, &c, dice, log);
        if landed.landed > 0 {
            let attackers = strongest(&c.attackers, landed.landed as u32);
            let t = Target {
                province: c.province,
                from: c.from,
                attackers,
                p_win,
                by_sea: true,
            };
            self.attack(n, t, false, dice, log);
        }
        true
    }

    /// The best landing for `n` by the policy's score (P(sea risk) × the shortlist's P(win) ×
    /// P(the city falls) × the province's worth), among those whose sea-risk roll passes
    /// `min_risk` and whose siege passes `siege`. With `sea_loss` (a scripted player's), the
    /// enemy fleets count: the sea-risk factor becomes the share of the carried units expected
    /// ashore (the battle code's exact `Landing`, shipping.rs's `expected_at_sea`), and a
    /// crossing expected to lose more than `sea_loss` of them at sea is left alone.
    pub(super) fn best_crossing(
        &mut self,
        n: usize,
        keep: u32,
        siege: f64,
        min_risk: f64,
        sea_loss: Option<f64>,
    ) -> Option<Crossing> {
        let g = self.game;
        let s = &g.scenario;
        let barbarian = self.st.status(n) == Some(Status::Barbarian);
        let mut best: Option<Crossing> = None;
        for from in 0..s.areas.len() {
            let have = self.st.count(n, from).saturating_sub(keep);
            if have == 0 {
                continue;
            }
            // The zones where `n` embarks: its naval stack off one of its ports in this Area.
            let mut embark = 0u32;
            for &q in &s.areas[from].provinces {
                let q = q as usize;
                if let Some(sea) = s.provinces[q].port {
                    if self.st.owner[q] == n as u8 && self.fleets(n, sea as usize) > 0 {
                        embark |= 1 << sea;
                    }
                }
            }
            while embark != 0 {
                let first = embark.trailing_zeros() as usize;
                embark &= embark - 1;
                let links = s.seas[first].links.len();
                for i in 0..=links {
                    let last = if i == 0 {
                        first
                    } else {
                        s.seas[first].links[i - 1] as usize
                    };
                    let afloat = self.fleets(n, first).min(self.fleets(n, last)).min(2);
                    if afloat == 0 {
                        continue;
                    }
                    let capacity = CARRIED_PER_FLEET * afloat as u32;
                    for &p in &s.seas[last].ports {
                        let p = p as usize;
                        let to = s.provinces[p].area as usize;
                        if to == from || !self.attackable(n, p) || !self.may_enter(n, to) {
                            continue;
                        }
                        let p_fall = self.p_fall(n, p);
                        let sea = sea_risk(s, &self.st, n, g.roman[n], barbarian, to, last);
                        let mut risk = sea.success();
                        if p_fall < siege || risk < min_risk {
                            continue;
                        }
                        let count = have.min(capacity).min(self.limit(p, false));
                        if let Some(share) = sea_loss.filter(|_| count > 0) {
                            let zones = [first, last];
                            let at_sea =
                                self.expected_at_sea(n, zones, count as u8, sea, sea.exempt);
                            if at_sea.units_lost > share * count as f64 {
                                continue;
                            }
                            risk = at_sea.units_landed / count as f64;
                        }
                        let attackers = strongest(self.st.at(n, from), count);
                        let (defenders, horde) = self.defenders(p);
                        let p_win = if total(&defenders) == 0 {
                            1.0
                        } else {
                            shortlist_p_win(strength(&attackers), strength(&defenders), horde)
                        };
                        let score = risk * p_win * p_fall * self.worth(n, p);
                        if best.is_none_or(|b| score > b.score) {
                            best = Some(Crossing {
                                from,
                                first,
                                last,
                                province: p,
                                attackers,
                                score,
                            });
                        }
                    }
                }
            }
        }
        best
    }

    /// The crossing itself through the calculator's `Landing`: fleets sunk leave the game, the
    /// units that did not reach the shore are lost (the cheapest), the rest stay home on a
    /// failed sea-risk roll.
    fn sail(&mut self, n: usize, c: &Crossing, dice: &mut Dice, log: &mut dyn GameLog) -> Landed {
        let g = self.game;
        let s = &g.scenario;
        let to = s.provinces[c.province].area as usize;
        let barbarian = self.st.status(n) == Some(Status::Barbarian);
        let risk = sea_risk(s, &self.st, n, g.roman[n], barbarian, to, c.last);
        let carried = total(&c.attackers) as u8;
        let zones = [c.first, c.last];
        let (out, enemy) = self.cross(n, zones, &c.attackers, risk, risk.exempt, dice);
        self.st.counters.landings_tried += 1;
        // A refused battle cancels the landing (XXV.C-D): nobody lands, nobody is lost.
        if !out.sea_failure && !out.refused {
            let landed = strongest(&c.attackers, out.landed as u32);
            let mut lost = 0;
            let mut u = self.st.at_mut(n, c.from);
            for k in 0..u.len() {
                let gone = c.attackers[k] - landed[k];
                u[k] -= gone;
                lost += gone as i64;
            }
            drop(u);
            self.st.ledger.units_out += lost;
        }
        self.st.counters.landings += (out.landed > 0) as u32;
        game_log!(
            log,
            "{} sails {} units from {} across {}{} to {}: {}{}, {} land",
            g.name(n),
            carried,
            s.areas[c.from].name,
            s.seas[c.first].name,
            and_second_sea(s, c.first, c.last),
            s.provinces[c.province].name,
            if out.sea_failure {
                "the sea-risk roll fails"
            } else if out.refused {
                "the sea-risk roll passes, intercepted, the battle refused: cancelled"
            } else {
                "the sea-risk roll passes"
            },
            interception_words(g, enemy, &out),
            out.landed
        );
        out
    }
}

/// A crossing's log words for its second zone, if it has one (landings and transports).
pub(super) fn and_second_sea(s: &Scenario, first: usize, last: usize) -> String {
    if last != first {
        format!(" and {}", s.seas[last].name)
    } else {
        String::new()
    }
}

/// A crossing's log words for the enemy stack that intercepted it, if one did (landings and
/// transports).
pub(super) fn interception_words(g: &super::Game, enemy: Option<usize>, out: &Landed) -> String {
    match enemy {
        Some(o) if out.intercepted => format!(
            ", intercepted by {} (fleets lost {} / {})",
            g.name(o),
            out.fleets_lost[0],
            out.fleets_lost[1]
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameModel, GamePlay, GameRecord, NoLog, NoObserver};
    use crate::rulesets::invasions::game::game_tests::check_invariants;
    use crate::rulesets::invasions::game::policy::Scripted;
    use crate::rulesets::invasions::game::state::{template, NT};
    use crate::rulesets::invasions::game::Game;

    use crate::rulesets::invasions::game::game_tests::bundled_game as game;

    fn province(g: &Game, name: &str) -> usize {
        g.scenario.province(name).unwrap() as usize
    }

    #[test]
    fn t19_the_sea_risk_roll_counts_only_a_built_city_on_the_last_zones_coast() {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        let rome = s.nation("romani").unwrap() as usize;
        let vandals = s.nation("vandali").unwrap();
        let africa = s.area("Africa").unwrap() as usize;
        let mauretanicum = s.seas.iter().position(|z| z.name == "Mare Mauretanicum");
        let last = mauretanicum.unwrap();
        let mut st = g.start.clone();
        st.owner.fill(NONE);
        // Saldæ enemy-held; Rome holds Carthago, but on Mare Siculum: −2 + 1 (Rome, a
        // Mediterranean coast) = −1, P = 0.5 (L2282-2286).
        st.owner[province(&g, "Saldæ")] = vandals;
        st.owner[province(&g, "Africa")] = rome as u8;
        let risk = sea_risk(s, &st, rome, true, false, africa, last);
        assert_eq!(risk.modifier(), -1);
        assert!((risk.success() - 0.5).abs() < 1e-12);
        // Hippo Regius held but unbuilt: still −1.
        let utica = province(&g, "Utica");
        st.owner[utica] = rome as u8;
        let risk = sea_risk(s, &st, rome, true, false, africa, last);
        assert!((risk.success() - 0.5).abs() < 1e-12);
        // Built and friendly: +1, P = 0.7.
        st.level[utica] = 1;
        let risk = sea_risk(s, &st, rome, true, false, africa, last);
        assert_eq!(risk.modifier(), 1);
        assert!((risk.success() - 0.7).abs() < 1e-12);
        // A Barbarian invading Britannia rolls nothing; elsewhere it does.
        let britannia = s.area("Britannia").unwrap() as usize;
        let britannicus = s.seas.iter().position(|z| z.name == "Oceanus Britannicus");
        let to_britain = sea_risk(s, &st, 0, false, true, britannia, britannicus.unwrap());
        assert_eq!(to_britain.success(), 1.0);
        assert!(sea_risk(s, &st, 0, false, true, africa, last).success() < 1.0);
        // Q47: the Mediterranean bonus zones.
        assert!(mediterranean("Mare Mauretanicum") && mediterranean("Propontis"));
        assert!(!mediterranean("Mare Suebicum") && !mediterranean("Oceanus Britannicus"));
    }

    #[test]
    fn t11_a_fleet_off_the_port_of_the_besieged_gives_minus_1_and_three_dice_take_athenae_at_0_657()
    {
        let g = game(Policy::Scripted(Scripted::defaults()));
        let s = &g.scenario;
        let mut play = Play::new(&g);
        let rome = s.nation("romani").unwrap() as usize;
        let goths = s.nation("visigothi").unwrap() as usize;
        let achaia = province(&g, "Achaia");
        let aegeum = s.seas.iter().position(|z| z.name == "Mare Aegeum").unwrap();
        play.st.turn = 2;
        play.st.set_owner(s, achaia, rome as u8);
        play.st.walls[achaia] = 0;
        *play.fleets_mut(rome, aegeum) = 0;
        assert_eq!(play.siege_modifier(goths, achaia), 0);
        *play.fleets_mut(rome, aegeum) = 1;
        assert!(play.supplied_by_sea(achaia));
        assert_eq!(play.siege_modifier(goths, achaia), -1);
        // Fritigernus's 2 rerolls: 1 − 0.7³ (T11).
        let p = crate::rulesets::invasions::siege::p_fall(play.siege_modifier(goths, achaia), 2);
        assert!((p - 0.657).abs() < 1e-12);
    }

    /// Rome holds Italia with 5 infantry and 1 fleet in Mare Adriaticum; Dyrrachium (Epirus)
    /// belongs to the Ostrogoths with nobody in it.
    fn adriatic_board(g: &Game) -> (Play<'_>, usize, usize, usize, usize) {
        let s = &g.scenario;
        let mut play = Play::new(g);
        let rome = s.nation("romani").unwrap() as usize;
        let goths = s.nation("ostrogothi").unwrap() as usize;
        let italia = s.area("Italia").unwrap() as usize;
        let adriaticum = s
            .seas
            .iter()
            .position(|z| z.name == "Mare Adriaticum")
            .unwrap();
        let epirus = province(g, "Epirus");
        for n in 0..s.nations.len() {
            for a in 0..s.areas.len() {
                *play.st.at_mut(n, a) = [0; NT];
            }
            for z in 0..s.seas.len() {
                *play.fleets_mut(n, z) = 0;
            }
        }
        play.st.at_mut(rome, italia)[template("infantry")] = 5;
        *play.fleets_mut(rome, adriaticum) = 1;
        play.st.set_owner(s, epirus, goths as u8);
        play.st.walls[epirus] = 0;
        play.st.ledger.units_in = play.st.all_units();
        play.st.ledger.units_out = 0;
        play.st.ledger.fleets_in = play.st.fleets.iter().map(|&f| f as i64).sum();
        play.st.ledger.fleets_out = 0;
        (play, rome, goths, italia, adriaticum)
    }

    #[test]
    fn t18_one_fleet_carries_three_units_and_the_landing_fails_as_often_as_the_sea_risk_says() {
        // Every stack fights (naval_fight 0): the 1-fleet landing does not refuse the 2-fleet
        // interceptor below (refusals: blockade_tests.rs).
        let g = game(Policy::Scripted(Scripted {
            naval_fight: 0.0,
            ..Scripted::defaults()
        }));
        let s = &g.scenario;
        let (mut play, rome, goths, italia, adriaticum) = adriatic_board(&g);
        let epirus = province(&g, "Epirus");
        let c = play
            .best_crossing(rome, 0, 0.0, 0.0, None)
            .expect("a landing in reach");
        assert_eq!(c.province, epirus);
        assert_eq!((c.from, c.first, c.last), (italia, adriaticum, adriaticum));
        // 3 land units per fleet (L2259), though 5 stand ready.
        assert_eq!(total(&c.attackers), CARRIED_PER_FLEET);
        let to = s.provinces[epirus].area as usize;
        let risk = sea_risk(s, &play.st, rome, true, false, to, adriaticum);
        // No Roman city on the Adriatic coast of Moesia: −2 + 1 = −1, P = 0.5.
        assert!((risk.success() - 0.5).abs() < 1e-12);
        let start = play.st.clone();
        let mut dice = Dice::from_seed(19);
        let trials = 20_000;
        let mut failures = 0;
        for _ in 0..trials {
            play.st.clone_from(&start);
            let out = play.sail(rome, &c, &mut dice, &mut NoLog);
            assert!(!out.intercepted, "no enemy fleet at sea");
            if out.sea_failure {
                failures += 1;
                assert_eq!(
                    play.st.count(rome, italia),
                    5,
                    "a failed roll keeps them home"
                );
            } else {
                assert_eq!(out.landed as u32, CARRIED_PER_FLEET);
            }
        }
        let f = failures as f64 / trials as f64;
        let se = (0.25 / trials as f64).sqrt();
        assert!((f - 0.5).abs() <= 5.0 * se, "{f}");
        // With an enemy stack in the zone whose nation holds every city of its coast, every
        // landing past the sea is intercepted; the naval battle's losses leave the game.
        play.st.clone_from(&start);
        *play.fleets_mut(goths, adriaticum) = 2;
        for &q in &s.seas[adriaticum].ports {
            if play.st.level[q as usize] > 0 {
                play.st.set_owner(s, q as usize, goths as u8);
            }
        }
        assert!(play.holds_coast(goths, adriaticum));
        play.st.ledger.fleets_in += 2;
        let board = play.st.clone();
        let (mut battles, mut sunk) = (0, 0);
        for _ in 0..2000 {
            play.st.clone_from(&board);
            let out = play.sail(rome, &c, &mut dice, &mut NoLog);
            assert_eq!(out.intercepted, !out.sea_failure);
            battles += out.intercepted as u32;
            sunk += (out.fleets_lost[0] + out.fleets_lost[1]) as u32;
            let fleets: i64 = play.st.fleets.iter().map(|&f| f as i64).sum();
            assert_eq!(fleets, play.st.ledger.fleets_in - play.st.ledger.fleets_out);
            assert_eq!(
                play.st.all_units(),
                play.st.ledger.units_in - play.st.ledger.units_out
            );
            if play.fleets(rome, adriaticum) == 0 {
                assert_eq!(out.landed, 0, "a sunk stack lands nobody");
            }
        }
        assert!(battles > 800 && sunk > 0, "{battles} battles, {sunk} sunk");
    }

    #[test]
    fn landings_and_naval_battles_happen_in_games_and_fleets_are_conserved() {
        for (policy, games) in [
            (Policy::Scripted(Scripted::defaults()), 400u64),
            (Policy::Random, 400),
        ] {
            let g = game(policy);
            let mut play = Play::new(&g);
            let mut r = GameRecord::new(g.players.len(), g.game_columns().len());
            let (mut landings, mut battles) = (0, 0);
            for i in 0..games {
                r.clear();
                play.play(
                    &mut Dice::for_trial(5, 0, i),
                    &mut r,
                    &mut NoObserver,
                    &mut NoLog,
                );
                check_invariants(&play, &r, &format!("{policy:?} game {i}"));
                let st = &play.st;
                let fleets: i64 = st.fleets.iter().map(|&f| f as i64).sum();
                assert_eq!(fleets, st.ledger.fleets_in - st.ledger.fleets_out);
                landings += st.counters.landings;
                battles += st.counters.naval_battles;
            }
            assert!(
                landings > 0 && battles > 0,
                "{policy:?}: {landings} landings, {battles} naval battles"
            );
        }
    }
}

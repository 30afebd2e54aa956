//! One game, turn by turn in the order of digest §2 (two months a turn): recruits of the last turn
//! become operational; 1 events; 2 payments and 3 desertions; 4 diplomacy; 5 trade (the
//! majors' black market and caravans; client states' sales come after the collection); 6 purchases and the turn's leader search; 7 constructions; 8 movement and combat, month by month, with the
//! month's work on the walls; 9 collection in April, August and December. The game ends when a
//! major reaches 400 PV at the end of a turn (the highest wins if several do) or at the turn cap
//! (the most PV wins).

use super::captives;
use super::destruction;
use super::diplomacy;
use super::economy;
use super::events;
use super::fleets;
use super::intrigue;
use super::king_abroad;
use super::leaders;
use super::major_works;
use super::mercenaries;
use super::military;
use super::mounts;
use super::pirates;
use super::policy::{Directive, Policy, Scripted};
use super::prospecting;
use super::recruiting;
use super::repairs;
use super::revolt;
use super::roads;
use super::routes;
use super::scenario::{CountryId, DEN, POB};
use super::sea_trade;
use super::search::Rollouts;
use super::slaves;
use super::state::State;
use super::trade;
use super::treasures;
use super::walls;
use super::wood;
use super::word;
use super::works;
use super::{pv, Game, GAME_COLUMNS, PROXIES, TURN_METRICS};
use crate::dice::Dice;
use crate::game::search::Searcher;
use crate::game::{GameLog, GamePlay, GameRecord, TurnObserver};
use crate::game_log;

/// One worker: the game's state and the turn's resolved policies, reused game after game.
pub struct Play<'g> {
    pub game: &'g Game,
    pub st: State,
    /// Each country's decisions this turn (a random player's are drawn afresh every turn).
    pub plans: Vec<Scripted>,
    /// Each major's directive for this turn (Follow for every major that does not search).
    pub directives: Vec<Directive>,
    per_player: Vec<f64>,
    /// Where a major searches: the game as rollouts see it, and the searcher's buffers.
    search: Option<Box<(Rollouts<'g>, Searcher<Rollouts<'g>>)>>,
}

impl<'g> Play<'g> {
    pub fn new(game: &'g Game) -> Play<'g> {
        let mut play = Play::without_search(game);
        if game.search.iter().any(Option::is_some) {
            play.search = Some(Box::new((Rollouts::new(game), Searcher::default())));
        }
        play
    }

    /// A worker whose searching majors play their rollout policies (the rollouts' own).
    pub fn without_search(game: &'g Game) -> Play<'g> {
        Play {
            search: None,
            directives: vec![Directive::Follow; game.majors.len()],
            game,
            st: game.start.clone(),
            plans: game
                .policies
                .iter()
                .map(|p| match p {
                    Policy::Scripted(s) => *s,
                    Policy::Random => Scripted::defaults(),
                })
                .collect(),
            per_player: vec![0.0; game.players.len() * TURN_METRICS.len()],
        }
    }

    /// Plays a whole game into `self.st`; returns (turns played, ending).
    pub fn run(
        &mut self,
        dice: &mut Dice,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) -> (u32, usize) {
        self.st.clone_from(&self.game.start);
        for turn in 1..=self.game.turn_cap {
            self.st.turn = turn;
            self.decide(dice, log);
            self.play_turn(turn, dice, log);
            self.observe(observer);
            if self.leader_at_victory().is_some() {
                return (turn, 0);
            }
        }
        (self.game.turn_cap, 1)
    }

    /// The searching majors choose their directive for the turn `self.st.turn`, in player order
    /// (a later one's rollouts play the earlier ones' choices). A budget of 0 follows the
    /// rollout policy without a draw.
    fn decide(&mut self, dice: &mut Dice, log: &mut dyn GameLog) {
        let Some(search) = &mut self.search else {
            return;
        };
        let (rollouts, searcher) = &mut **search;
        let g = self.game;
        for p in 0..g.majors.len() {
            let Some(spec) = g.search[p] else { continue };
            if spec.budget == 0 {
                continue;
            }
            rollouts.directives_from(&self.directives);
            let d = searcher
                .choose(rollouts, &self.st, p, spec, dice)
                .unwrap_or_default();
            self.directives[p] = d;
            if d != Directive::Follow {
                let v = searcher.verdict;
                game_log!(
                    log,
                    "{} (search): {d:?}, worth {:+.4} ± {:.4} more than its policy's play over {} paired rollouts",
                    g.players[p],
                    v.difference,
                    v.standard_error,
                    v.rollouts
                );
            }
        }
    }

    /// One turn in §2's order, under the majors' directives, which it then resets to Follow.
    pub fn play_turn(&mut self, turn: u32, dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        self.st.turn = turn;
        let months = [2 * turn - 1, 2 * turn];
        self.st.month = months[0];
        game_log!(log, "== {} ==", crate::game::GameModel::turn_label(g, turn));
        self.resolve_random_plans(dice);
        self.apply_directives();
        self.turn_phases(turn, months, dice, log);
        self.lift_directives();
    }

    /// Each major's plan this turn: its policy's, under its directive.
    fn apply_directives(&mut self) {
        for (p, &c) in self.game.majors.iter().enumerate() {
            if self.directives[p] != Directive::Follow {
                self.plans[c as usize] = self.directives[p].apply(self.plans[c as usize]);
            }
        }
    }

    /// Back to the policies' own plans (a random player's is drawn afresh next turn anyway).
    fn lift_directives(&mut self) {
        for (p, &c) in self.game.majors.iter().enumerate() {
            if self.directives[p] != Directive::Follow {
                if let Policy::Scripted(own) = self.game.policies[c as usize] {
                    self.plans[c as usize] = own;
                }
                self.directives[p] = Directive::Follow;
            }
        }
    }

    fn turn_phases(&mut self, turn: u32, months: [u32; 2], dice: &mut Dice, log: &mut dyn GameLog) {
        let g = self.game;
        economy::train(&mut self.st);
        fleets::launch(g, &mut self.st, months[0]);
        sea_trade::launch(g, &mut self.st, months[0]);
        if g.events_rolled {
            for m in months {
                events::month(g, &mut self.st, &self.plans, m, dice, log);
            }
        }
        // Once a game turn, after the month's events: the mercenaries' appearance and auction.
        mercenaries::turn(g, &mut self.st, &self.plans, months[0], dice, log);
        economy::payments(g, &mut self.st, months);
        wood::january(g, &mut self.st, months, log);
        mercenaries::payments(g, &mut self.st, months);
        diplomacy::upkeep(&mut self.st, months);
        // The cities' indices brought up to date before and after the lands annexed by treaty
        // change hands (L5631, `city_revolt.rs`).
        super::city_revolt::sync(g, &mut self.st);
        diplomacy::phase(g, &mut self.st, &self.plans, months[0], dice, log);
        diplomacy::majors_agree(g, &mut self.st, &self.plans, months[0], log);
        super::city_revolt::sync(g, &mut self.st);
        // Slaves are freed before the black market sells the rest.
        slaves::free(g, &mut self.st, &self.plans);
        trade::phase(g, &mut self.st, &self.plans);
        // Repairs and crews first: the purchases then see the fleets they give back. The
        // recruitment centres deliver and hire before the hosts' own purchases use their POB.
        repairs::phase(g, &mut self.st, &self.plans);
        recruiting::phase(g, &mut self.st, &self.plans, turn, months[0]);
        // The fleets the policy names come before the share of POB turned into troops.
        fleets::purchases(g, &mut self.st, &self.plans, months[0]);
        sea_trade::purchases(g, &mut self.st, &self.plans, months[0]);
        economy::purchases(g, &mut self.st, &self.plans);
        word::purchases(g, &mut self.st, &self.plans);
        mercenaries::hire_partners(g, &mut self.st, &self.plans, months[0]);
        // Captives are persuaded, executed or ransomed before the searches count the leaders.
        captives::phase(g, &mut self.st, &self.plans, months[0], dice);
        leaders::search(g, &mut self.st, &self.plans, dice);
        economy::constructions(g, &mut self.st, &self.plans);
        works::constructions(g, &mut self.st, &self.plans);
        roads::constructions(g, &mut self.st, &self.plans, log);
        walls::constructions(g, &mut self.st, &self.plans);
        major_works::constructions(g, &mut self.st, &self.plans, log);
        treasures::phase(g, &mut self.st, &self.plans);
        mounts::purchases(g, &mut self.st, &self.plans);
        intrigue::turn(g, &mut self.st, &self.plans, months, dice, log);
        // No attacks on the first turn (L4508); the referee's countries never attack here.
        if turn > g.scenario.calendar.no_player_attacks_on_turn {
            military::choose_targets(g, &mut self.st, &self.plans, turn, dice);
        }
        for m in months {
            self.st.month = m;
            destruction::start_month(&mut self.st);
            military::month(g, &mut self.st, &self.plans, m, dice, log);
            destruction::month(g, &mut self.st, &self.plans, m, log);
            king_abroad::month(g, &mut self.st);
            if m == months[0] {
                pirates::raids(g, &mut self.st, &self.plans, m, dice, log);
            }
            trade::month(g, &mut self.st);
            sea_trade::month(g, &mut self.st, &self.plans, m, dice);
            let besieged = military::besieged(&self.st);
            economy::works_month(g, &mut self.st, &besieged);
            works::month(g, &mut self.st, &besieged);
            roads::month(g, &mut self.st, log);
            walls::month(g, &mut self.st, &besieged, log);
            major_works::month(g, &mut self.st, &besieged, log);
            prospecting::month(g, &mut self.st, &self.plans, dice, log);
        }
        let last = months[1];
        if g.scenario.calendar.collection & (1 << State::calendar(last)) != 0 {
            revolt::check(g, &mut self.st, last, dice, log);
            economy::collection(g, &mut self.st, &self.plans, last);
            routes::collection(g, &mut self.st, &self.plans, last, dice, log);
        }
    }

    /// A random player's decisions: every parameter drawn uniformly in its range each turn.
    fn resolve_random_plans(&mut self, dice: &mut Dice) {
        for (c, &random) in self.game.random.iter().enumerate() {
            if !random {
                continue;
            }
            self.plans[c] = Scripted {
                taxes: dice.below(5) as i8 - 2,
                tax_idr: 0,
                reserve: dice.below(1001) as i64,
                food_stock: dice.uniform() * 2.0,
                recruit: dice.uniform(),
                heavy_share: dice.uniform(),
                mounted_share: dice.uniform() * 0.5,
                gifts: dice.uniform(),
                gift_goods: dice.uniform(),
                fortify: dice.below(7) as u8,
                garrison: dice.uniform(),
                occupation: dice.uniform(),
                attack: dice.uniform(),
                odds_trials: 1,
                min_ratio: 0.0,
                siege_months: dice.below(4) as u8,
                peace: dice.below(13) as u32,
                overseas: dice.uniform(),
                king_commands: dice.uniform(),
                leaders_wanted: dice.below(5) as u8,
                envoys: dice.below(3) as u8,
                envoy_gift: dice.below(1201) as i64,
                pressure: dice.below(11) as i32,
                envoy_food_metal: dice.below(1201) as i64,
                envoy_goods: dice.below(1101) as i64,
                envoy_caravan: dice.uniform(),
                backed_pressure: dice.uniform(),
                break_treaties: dice.uniform(),
                client_buying: dice.uniform(),
                market_sell: dice.uniform(),
                market_buy: dice.uniform(),
                caravans: dice.below(trade::MAX_CARAVANS as u64 + 1) as u8,
                major_treaties: dice.uniform(),
                major_defence: dice.uniform(),
                sack_den_per_pv: dice.uniform() * 5000.0,
                pillage_den_per_pv: dice.uniform() * 200.0,
                intercept: dice.uniform() * 1.1,
                spy: dice.uniform(),
                counter_espionage: dice.uniform(),
                assassinate_tactical: dice.below(7) as u8,
                assassination_den: dice.below(5001) as i64,
                warfleets_per_city: dice.uniform() * 3.0,
                transports: dice.below(11) as u8,
                pirate_fleets: dice.below(21) as u8,
                naval_leaders_wanted: dice.below(3) as u8,
                mercenary_bid: dice.below(1001) as i64,
                partner_hire: dice.uniform(),
                repair_ships: dice.uniform(),
                recruitment_centre: dice.uniform(),
                trade_leagues: dice.uniform(),
                route_piracy: dice.uniform(),
                merchant_fleets: dice.below(sea_trade::MAX_MERCHANT_FLEETS as u64 + 1) as u8,
                ships_first: dice.uniform(),
                fishing_fleets: dice.below(sea_trade::MAX_FISHING_FLEETS as u64 + 1) as u8,
                fish_for_den: dice.uniform(),
                ransom_leadership: dice.below(7) as u8,
                execute_leadership: dice.below(7) as u8,
                persuasion_den: dice.below(4001) as i64,
                works_share: dice.uniform(),
                works_payback: dice.uniform() * 60.0,
                colonies: dice.uniform(),
                naval_bases: dice.below(3) as u8,
                refuse_naval: dice.uniform() * 3.0,
                roads_share: dice.uniform(),
                walls_share: dice.uniform(),
                major_works_share: dice.uniform(),
                treasure_share: dice.uniform(),
                extra_levy: dice.uniform(),
                engine_level: dice.below(6) as u8,
                prospecting: dice.uniform(),
                militia_ratio: 0.0,
                militia_idr: i32::MIN,
                province_gift_idr: dice.below(1001) as i32,
                forced_march: dice.below(5) as u8,
                forced_march_battle: dice.uniform(),
                mount_breeding: dice.below(6) as u8,
                convoys: dice.below(super::supply::MAX_CONVOYS as u64 + 1) as u8,
                carried_months: 1 + dice.below(12) as u8,
                supply_margin: dice.below(4) as u8,
                forage_months: dice.below(4) as u8,
                slaves_freed: dice.uniform(),
                slaves_on_works: dice.uniform(),
                raze_cities: dice.uniform(),
                raze_works: dice.uniform(),
                spread_word: dice.uniform(),
                enslave_home: dice.uniform(),
                enslave_provinces: dice.uniform(),
                target: None,
            };
        }
    }

    /// The major with the most PV if some major has reached the victory PV.
    pub fn leader_at_victory(&self) -> Option<CountryId> {
        let target = self.game.scenario.calendar.victory_pv as i32;
        self.game
            .majors
            .iter()
            .copied()
            .filter(|&c| self.st.nations[c as usize].pv >= target)
            .max_by_key(|&c| self.st.nations[c as usize].pv)
    }

    /// Major `p`'s share of the win of a game that ended now by `ending` (0: someone reached the
    /// victory PV, and only those who did may win; 1: the turn cap): 1 / the number of majors
    /// tied with the most PV, if it is one of them.
    pub fn win_share(&self, p: usize, ending: usize) -> f64 {
        let g = self.game;
        let pv = |q: usize| self.st.nations[g.majors[q] as usize].pv;
        let best = (0..g.majors.len()).map(pv).max().unwrap_or(0);
        let eligible = |q: usize| ending == 1 || pv(q) >= g.scenario.calendar.victory_pv as i32;
        if pv(p) != best || !eligible(p) {
            return 0.0;
        }
        let winners = (0..g.majors.len())
            .filter(|&q| pv(q) == best && eligible(q))
            .count();
        1.0 / winners as f64
    }

    fn observe(&mut self, observer: &mut dyn TurnObserver) {
        let g = self.game;
        let m = TURN_METRICS.len();
        for (p, &c) in g.majors.iter().enumerate() {
            let nat = &self.st.nations[c as usize];
            let men = State::men(&self.st.all_units(c), &g.men_per_unit(c));
            let lands = self.st.lands.iter().filter(|l| l.owner == c).count();
            let row = &mut self.per_player[p * m..(p + 1) * m];
            row[0] = nat.pv as f64;
            row[1] = nat.stock[DEN] as f64;
            row[2] = men;
            row[3] = lands as f64;
        }
        observer.turn(self.st.turn, &self.per_player, &[]);
    }

    /// Fills `record` from the finished game.
    pub fn record(&self, turns: u32, ending: usize, record: &mut GameRecord) {
        let g = self.game;
        let st = &self.st;
        record.turns = turns;
        record.ending = ending;
        let pv: Vec<i32> = g
            .majors
            .iter()
            .map(|&c| st.nations[c as usize].pv)
            .collect();
        for p in 0..pv.len() {
            record.score[p] = pv[p] as f64;
            record.win_share[p] = self.win_share(p, ending);
        }
        let c = &st.counts;
        let head = [
            c.battles as f64,
            c.assaults as f64,
            c.surrenders as f64,
            c.conquests as f64,
            c.revolts as f64,
            c.province_revolts as f64,
            c.revolts_suppressed as f64,
            c.provinces_freed as f64,
            c.revolt_men_lost,
            c.province_gifts as f64,
            c.city_revolts as f64,
            c.capital_revolts as f64,
            c.deserted_men,
            c.incursions as f64,
            c.landings as f64,
            c.naval_battles as f64,
            c.ships_lost_to_storms,
            c.named_led_fights as f64,
            c.leaders_killed as f64,
            c.leaders_wounded as f64,
            c.leaders_promoted as f64,
            c.leaders_found as f64,
            c.treaties_signed as f64,
            c.treaties_extended as f64,
            c.treaties_broken as f64,
            c.wars_declared as f64,
            c.ambassadors_killed as f64,
            c.envoy_goods_given,
            c.caravans_given as f64,
            c.provinces as f64,
            c.bought_from_partners,
            c.major_treaties as f64,
            c.major_defensive_treaties as f64,
            c.caravans_bought as f64,
            c.caravan_trips as f64,
            c.caravan_den,
            c.market_bought_den,
            c.market_sold_den,
            c.countries_sacked as f64,
            c.cities_sacked as f64,
            c.treasures_taken as f64,
            c.sacred_sacked as f64,
            c.sack_den,
            c.pillages as f64,
            c.pillage_den,
            c.interceptions_tried as f64,
            c.interceptions_succeeded as f64,
            c.spying_bought as f64,
            c.counter_espionage_months as f64,
            c.assassinations_tried as f64,
            c.assassinations_succeeded as f64,
            c.warfleets_bought as f64,
            c.transports_bought as f64,
            c.pirate_fleets_bought as f64,
            c.ships_lost_in_battle,
            c.naval_interceptions_tried as f64,
            c.naval_led_battles as f64,
            c.naval_leaders_found as f64,
            c.maritime_pillages as f64,
            c.maritime_pillage_den,
            c.mercenaries_appeared as f64,
            c.mercenary_units_offered as f64,
            c.mercenaries_hired as f64,
            c.mercenary_units_hired as f64,
            c.mercenary_den,
            c.mercenary_upkeep_den,
            c.mercenaries_deserted,
            c.mercenary_leaders as f64,
            c.mercenary_men_lost,
            c.mercenary_casualties_moved,
            c.partner_units_hired,
            c.partner_hire_den,
            c.protector_battles as f64,
            c.protector_wins as f64,
            c.lent_units,
            c.lent_men_lost,
            c.ships_damaged,
            c.ships_boarded,
            c.ships_taken_in_port,
            c.ships_repaired,
            c.repair_groups as f64,
            c.repair_den,
            c.ships_crewed,
            c.crewing_den,
            c.recruiters_sent as f64,
            c.centre_hires as f64,
            c.centre_units_hired,
            c.centre_units_delivered,
            c.centre_den,
            c.centre_host_pob,
            c.leagues_formed as f64,
            c.leagues_ended as f64,
            c.route_member_collections as f64,
            c.route_den,
            c.route_goods,
            c.route_caravan_trips as f64,
            c.route_caravan_goods,
            c.route_piracies as f64,
            c.route_pirate_den,
            c.merchant_fleets_bought as f64,
            c.merchant_trips as f64,
            c.merchant_route_trips as f64,
            c.merchant_den,
            c.merchant_route_goods,
            c.merchant_calls as f64,
            c.merchant_call_den,
            c.merchant_ships_lost,
            c.merchant_fleets_sunk as f64,
            c.merchant_man_lost,
            c.merchant_den_lost,
            c.fishing_fleets_bought as f64,
            c.fishing_fleet_months,
            c.fishing_com,
            c.fishing_den,
            c.fishing_ships_lost,
            c.leaders_captured as f64,
            c.leaders_executed as f64,
            c.ransoms_paid as f64,
            c.ransom_den,
            c.persuasions_tried as f64,
            c.persuasion_den,
            c.leaders_persuaded as f64,
            c.persuaded_lost as f64,
            c.captives_freed as f64,
            c.works_started as f64,
            c.works_finished as f64,
            c.works_den,
            c.works_output,
            c.colony_collections as f64,
            c.naval_battles_refused as f64,
            c.roads_started as f64,
            c.roads_built as f64,
            c.wall_hexes_built as f64,
            c.major_works_started as f64,
            c.major_works_built as f64,
            c.prospecting_tries as f64,
            c.veins_found as f64,
            c.militia_calls as f64,
            c.militia_conquered_calls as f64,
            c.siege_engines as f64,
            c.levies as f64,
            c.levy_pob,
            c.militia_months as f64,
            c.militia_men_lost,
            c.militias_destroyed as f64,
            c.republican_militia_fights as f64,
            c.republican_militia_men_lost,
            c.republican_militia_men_recovered,
            c.republican_militia_disbands as f64,
            c.king_months_abroad as f64,
            c.treasure_den,
            c.forced_marches as f64,
            c.forced_pm,
            c.fatigued_marches as f64,
            c.mounts_bred as f64,
            c.convoys_bought as f64,
            c.convoys_lost as f64,
            c.starved_men,
            c.marches_held_back as f64,
            c.foraged_com,
            c.wood_upkeep_paid,
            c.constructions_collapsed as f64,
            c.slaves_taken,
            c.slaves_freed,
            c.slaves_on_works,
            c.cities_destroyed as f64,
            c.own_cities_destroyed as f64,
            c.roads_destroyed as f64,
            c.works_destroyed as f64,
            c.wall_hexes_destroyed as f64,
            c.constructions_destroyed as f64,
            c.man_destroyed,
            c.pob_enslaved,
            c.word_units,
            c.word_den,
        ];
        record.extra[..GAME_COLUMNS.len()].copy_from_slice(&head);
        let mut i = GAME_COLUMNS.len();
        for &m in &g.majors {
            let nat = &st.nations[m as usize];
            for s in 0..pv::SOURCES.len() {
                record.extra[i] = nat.pv_by[s] as f64;
                i += 1;
            }
            let proxies = proxies(g, st, m);
            record.extra[i..i + PROXIES.len()].copy_from_slice(&proxies);
            i += PROXIES.len();
        }
    }
}

/// The §1.4 proxies of country `c`: cities held, countries conquered, treasury and stock at
/// black-market sale value, combat factors of all its troops.
pub fn proxies(g: &Game, st: &State, c: CountryId) -> [f64; 4] {
    let cities: usize = st
        .lands
        .iter()
        .enumerate()
        .filter(|(_, l)| l.owner == c)
        .map(|(t, _)| g.scenario.countries[t].cities.len())
        .sum::<usize>()
        - destruction::ruins_held(g, st, c)
        + works::new_cities(st, c);
    let nat = &st.nations[c as usize];
    let wealth: f64 = (0..nat.stock.len())
        .filter(|&r| r != POB)
        .map(|r| nat.stock[r] as f64 * g.sale[r])
        .sum();
    [
        cities as f64,
        nat.conquests as f64,
        wealth,
        military::strength(g, c, &st.all_units(c)),
    ]
}

impl GamePlay for Play<'_> {
    fn play(
        &mut self,
        dice: &mut Dice,
        record: &mut GameRecord,
        observer: &mut dyn TurnObserver,
        log: &mut dyn GameLog,
    ) {
        let (turns, ending) = self.run(dice, observer, log);
        self.record(turns, ending, record);
        game_log!(
            log,
            "game over after {turns} turns ({}): {}",
            super::ENDINGS[ending],
            self.game
                .majors
                .iter()
                .map(|&c| format!(
                    "{} {} PV",
                    self.game.scenario.countries[c as usize].name, self.st.nations[c as usize].pv
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

//! Assault (rule 4.3, L712-L718) and siege (rule 4.4, L720-L728); digest §3.3-§3.4, §9.3-§9.4.
//!
//! Each order is one exchange: attackers hit on a natural 10 (a siege rolls at most 10 dice), the
//! garrison on 9-10 (assault) or 10 (siege); each garrison point lost rolls a d10 that destroys a
//! PPU on 8+ (assault) or 7+ (siege). Consecutive orders carry both sides' survivors forward until
//! the city falls, the attackers are gone, or the orders run out.

use super::leader::{AgeCheck, Leader, LeaderFate};
use super::leader::{LEADER, LEADER_AGE, LEADER_HISTORICAL};
use super::units::{self, Allocation, Units, TYPES};
use super::units::{CAV, INF, UNIT_KEYS, VET_CAV, VET_INF};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial, LOSSES};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::{Pmf, StateDist};
use crate::options::Options;
use crate::spec::{Fields, MAX_COUNT};
use std::collections::BTreeMap;
use toml::Table;

const SIEGE_DICE: u32 = 10;
/// Work (states × transitions) above which the exact chain is refused in favour of simulation.
const EXACT_WORK_LIMIT: f64 = 4e8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Assault,
    Siege,
}

/// One assault or siege order under the rules in force (shared by the calculator and the game).
#[derive(Clone, Copy, Debug)]
pub struct CityRules {
    dice_cap: Option<u32>,
    attacker_first: bool,
    losses_from_rollers: bool,
    mutual_destruction_takes: bool,
    /// Natural d10 face the garrison needs.
    garrison_target: i32,
    /// Natural d10 face a lost garrison point needs to destroy a PPU.
    ppu_target: i32,
}

impl CityRules {
    pub fn new(kind: Kind, options: &Options) -> CityRules {
        let cap = options.int("assault_dice_cap");
        CityRules {
            dice_cap: match kind {
                Kind::Siege => Some(SIEGE_DICE),
                Kind::Assault if cap > 0 => Some(cap as u32),
                Kind::Assault => None,
            },
            attacker_first: options.choice("city_combat_order") == "attacker-first",
            losses_from_rollers: kind == Kind::Siege
                && options.choice("siege_losses_from") == "rolling-units",
            mutual_destruction_takes: options.choice("mutual_destruction") == "city-taken",
            garrison_target: if kind == Kind::Assault { 9 } else { 10 },
            ppu_target: if kind == Kind::Assault { 8 } else { 7 },
        }
    }

    /// Whether the city falls: its garrison is gone, and (unless the reading says a city emptied of
    /// both sides in one exchange still falls) an attacker survives to occupy it.
    pub fn taken(&self, attackers: u32, garrison: u32) -> bool {
        garrison == 0 && (attackers > 0 || self.mutual_destruction_takes)
    }

    pub fn dice(&self, n: u32) -> u32 {
        self.dice_cap.map_or(n, |c| n.min(c))
    }

    /// Most attackers one order can kill given `n` attackers present.
    pub fn loss_cap(&self, n: u32) -> u32 {
        if self.losses_from_rollers {
            self.dice(n)
        } else {
            n
        }
    }

    /// One order by `n` attackers against `g` garrison points: (attackers lost, garrison lost).
    #[inline]
    pub fn order(&self, n: u32, g: u32, dice: &mut Dice) -> (u32, u32) {
        let a = dice.d10_at_least(self.dice(n), 10).min(g);
        let firing = if self.attacker_first { g - a } else { g };
        let h = dice
            .d10_at_least(firing, self.garrison_target)
            .min(self.loss_cap(n));
        (h, a)
    }

    /// PPU destroyed for good by `garrison_lost` garrison points falling, at most `ppu`.
    #[inline]
    pub fn ppu_destroyed(&self, garrison_lost: u32, ppu: u32, dice: &mut Dice) -> u32 {
        dice.d10_at_least(garrison_lost, self.ppu_target).min(ppu)
    }
}

pub struct CityBattle {
    kind: Kind,
    units: Units,
    garrison: u32,
    ppu: Option<u32>,
    independent_city: bool,
    orders: u32,
    leader: Option<Leader>,
    age_check: AgeCheck,
    vp_if_taken: f64,
    owner_stability_if_taken: f64,
    allocation: Allocation,
    rules: CityRules,
    leader_checks: bool,
    schema: Schema,
    columns: Columns,
}

// Schema layout.
/// Where a city battle's quantities sit in its schema, fixed by [`CityBattle::new`] as it names
/// them.
#[derive(Clone, Debug)]
struct Columns {
    losses: usize,
    losses_by_type: [usize; 4],
    garrison_left: usize,
    ppu_destroyed: usize,
    orders_used: usize,
    wiped_out: usize,
    vp: usize,
    owner_stability: usize,
    leader_removed: usize,
    /// One per order, the first order first.
    taken_by_order: Vec<usize>,
}

pub fn build_assault(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    build(fields, options, Kind::Assault)
}

pub fn build_siege(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    build(fields, options, Kind::Siege)
}

use super::{ATTACKER, DEFENDER, SIDES};
const GARRISON: Key = keys::int("garrison", 1, MAX_COUNT)
    .required()
    .help("garrison points (a city without garrison is simply occupied)");
const PPU: Key = keys::count("ppu")
    .absent("PPU loss not capped")
    .help("the city's urban population points");
const OWNER: Key = keys::choice("owner", &["nation", "independent"])
    .default_choice("nation")
    .help("\"nation\" (+5 VP to the occupier) or \"independent\" (annexed: +10 VP)");
const ORDERS_HELP: &str = "consecutive orders, garrison and attackers carried between orders";
const ASSAULT_ORDERS: Key = keys::int("orders", 1, 6).default_int(1).help(ORDERS_HELP);
const SIEGE_ORDERS: Key = keys::int("orders", 1, 5).default_int(1).help(ORDERS_HELP);

macro_rules! city_keys {
    ($orders:expr) => {
        &[
            UNIT_KEYS[INF]
                .at(ATTACKER)
                .help("attacking infantry (type matters only for losses by type)"),
            UNIT_KEYS[CAV].at(ATTACKER).help("attacking cavalry"),
            UNIT_KEYS[VET_INF]
                .at(ATTACKER)
                .help("attacking veteran infantry"),
            UNIT_KEYS[VET_CAV]
                .at(ATTACKER)
                .help("attacking veteran cavalry"),
            LEADER
                .at(ATTACKER)
                .absent("no leader")
                .help("the leader's modifier (used only when city_combat_is_battle = true)"),
            LEADER_AGE
                .at(ATTACKER)
                .help("the leader's age (used only when city_combat_is_battle = true)"),
            LEADER_HISTORICAL
                .at(ATTACKER)
                .help("a named historical leader (used only when city_combat_is_battle = true)"),
            GARRISON.at(DEFENDER),
            PPU.at(DEFENDER),
            OWNER.at(DEFENDER),
            $orders,
        ]
    };
}

pub const ASSAULT_KEYS: &[Key] = city_keys!(ASSAULT_ORDERS);
pub const SIEGE_KEYS: &[Key] = city_keys!(SIEGE_ORDERS);

fn build(fields: &Fields, options: Options, kind: Kind) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let attacker = fields.table(SIDES[0], &empty)?;
    let units = units::parse_units(&attacker)?;
    if units::total(&units) == 0 {
        return Err(AleaError::input(
            fields.source,
            UNIT_KEYS[INF].field(&attacker),
            0,
            "at least one attacking unit (infantry, cavalry, veteran_infantry or veteran_cavalry)",
        ));
    }
    let defender = fields.table(SIDES[1], &empty)?;
    let garrison = GARRISON.int(&defender)? as u32;
    let orders = match kind {
        Kind::Siege => SIEGE_ORDERS,
        Kind::Assault => ASSAULT_ORDERS,
    };
    let orders = orders.int(fields)? as u32;
    let ppu = if PPU.has(&defender) {
        Some(PPU.count(&defender)?)
    } else {
        None
    };
    let independent_city = OWNER.choice(&defender)? == "independent";
    Ok(Box::new(CityBattle::new(
        kind,
        units,
        garrison,
        ppu,
        independent_city,
        orders,
        Leader::parse(&attacker)?,
        options,
    )))
}

impl CityBattle {
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: Kind,
        units: Units,
        garrison: u32,
        ppu: Option<u32>,
        independent_city: bool,
        orders: u32,
        leader: Option<Leader>,
        options: Options,
    ) -> CityBattle {
        let n0 = units::total(&units);
        let max_losses = n0.min(orders.saturating_mul(garrison)) as usize;
        let mut schema = Schema::new(&["taken", "held"]);
        let columns = Columns {
            losses: schema.count(side_column(SIDES[0], LOSSES), max_losses),
            losses_by_type: std::array::from_fn(|t| {
                schema.count(
                    format!("{}/{}", side_column(SIDES[0], "losses_by_type"), TYPES[t]),
                    (units[t] as usize).min(max_losses),
                )
            }),
            garrison_left: schema.count("garrison_left", garrison as usize),
            ppu_destroyed: schema.count(
                "ppu_destroyed",
                ppu.unwrap_or(garrison).min(garrison) as usize,
            ),
            orders_used: schema.count("orders_used", orders as usize),
            wiped_out: schema.scalar(side_column(SIDES[0], "wiped_out")),
            vp: schema.scalar_bounded(format!("vp/{}", SIDES[0]), 10.0),
            owner_stability: schema.scalar(format!("stability/{}", SIDES[1])),
            leader_removed: schema.scalar(format!("leader_removed/{}", SIDES[0])),
            taken_by_order: (1..=orders)
                .map(|k| schema.scalar(format!("taken_by_order/{k}")))
                .collect(),
        };
        CityBattle {
            kind,
            units,
            garrison,
            ppu,
            independent_city,
            orders,
            leader,
            allocation: Allocation::from_option(options.choice("casualty_allocation")),
            rules: CityRules::new(kind, &options),
            leader_checks: options.flag("city_combat_is_battle"),
            age_check: AgeCheck::new(&options),
            vp_if_taken: if independent_city { 10.0 } else { 5.0 },
            owner_stability_if_taken: if !independent_city
                && options.flag("occupation_costs_stability")
            {
                -1.0
            } else {
                0.0
            },
            schema,
            columns,
        }
    }

    fn taken(&self, attackers: u32, garrison: u32) -> bool {
        self.rules.taken(attackers, garrison)
    }

    fn dice(&self, n: u32) -> u32 {
        self.rules.dice(n)
    }

    fn p(target: i32) -> f64 {
        ((11 - target).clamp(0, 10)) as f64 / 10.0
    }

    /// P(the leader has left play after `orders` orders), each order a battle with no winner (A17).
    fn leader_removal_after(&self, orders: u32) -> f64 {
        let Some(leader) = self.leader.filter(|_| self.leader_checks) else {
            return 0.0;
        };
        let stays: f64 = (0..orders)
            .map(|j| {
                let aged = Leader {
                    age: leader.age + j,
                    ..leader
                };
                1.0 - aged.removal_probability(LeaderFate::NoWinner, &self.age_check)
            })
            .product();
        1.0 - stays
    }

    fn estimated_work(&self) -> f64 {
        let n0 = units::total(&self.units) as f64;
        let g = self.garrison as f64 + 1.0;
        let attackers = n0.min(self.orders as f64 * self.garrison as f64) + 1.0;
        self.orders as f64 * attackers * g * g * g.min(n0 + 1.0)
    }

    fn solve(&self) -> std::result::Result<Exact, Intractable> {
        if self.estimated_work() > EXACT_WORK_LIMIT {
            return Err(Intractable(format!(
                "the exact chain over {} attackers and {} garrison points for {} orders is too large (about {:.1e} steps)",
                units::total(&self.units),
                self.garrison,
                self.orders,
                self.estimated_work()
            )));
        }
        let n0 = units::total(&self.units);
        let p_att = Self::p(10);
        let p_gar = Self::p(self.rules.garrison_target);
        let mut attack_hits: BTreeMap<(u32, u32), Pmf> = BTreeMap::new();
        let mut garrison_hits: BTreeMap<(u32, u32), Pmf> = BTreeMap::new();
        let mut ex = Exact::zeros(&self.schema);
        let c = &self.columns;
        // State: (attackers, garrison, orders used).
        let mut dist = StateDist::certain((n0, self.garrison, 0u32));
        for k in 1..=self.orders {
            dist = dist.step(|&(n, g, used), emit| {
                if n == 0 || g == 0 {
                    emit((n, g, used), 1.0);
                    return;
                }
                let d = self.dice(n);
                let ha = attack_hits
                    .entry((d, g))
                    .or_insert_with(|| Pmf::binomial_capped(d as usize, p_att, g as usize))
                    .clone();
                for (a, &pa) in ha.0.iter().enumerate() {
                    if pa == 0.0 {
                        continue;
                    }
                    let firing = if self.rules.attacker_first {
                        g - a as u32
                    } else {
                        g
                    };
                    let cap = self.rules.loss_cap(n);
                    let hg = garrison_hits.entry((firing, cap)).or_insert_with(|| {
                        Pmf::binomial_capped(firing as usize, p_gar, cap as usize)
                    });
                    for (h, &ph) in hg.0.iter().enumerate() {
                        if ph > 0.0 {
                            emit((n - h as u32, g - a as u32, used + 1), pa * ph);
                        }
                    }
                }
            });
            ex.scalars[c.taken_by_order[k as usize - 1]] =
                dist.probability(|&(n, g, _)| self.taken(n, g));
        }
        let ppu_cap = self.ppu.unwrap_or(self.garrison) as usize;
        let p_ppu = Self::p(self.rules.ppu_target);
        let mut losses = Pmf::zeros(1);
        for (&(n, g, used), w) in dist.iter() {
            let taken = self.taken(n, g);
            ex.outcomes[if taken { 0 } else { 1 }] += w;
            losses.add_mass((n0 - n) as usize, w);
            ex.counts[c.garrison_left].add_mass(g as usize, w);
            ex.counts[c.orders_used].add_mass(used as usize, w);
            let ppu = Pmf::binomial_capped((self.garrison - g) as usize, p_ppu, ppu_cap);
            ex.counts[c.ppu_destroyed].add_scaled(&ppu, w);
            if n == 0 {
                ex.scalars[c.wiped_out] += w;
            }
            if taken {
                ex.scalars[c.vp] += w * self.vp_if_taken;
                ex.scalars[c.owner_stability] += w * self.owner_stability_if_taken;
            }
            ex.scalars[c.leader_removed] += w * self.leader_removal_after(used);
        }
        for (t, pmf) in self
            .allocation
            .by_type(&self.units, &losses)
            .into_iter()
            .enumerate()
        {
            ex.counts[c.losses_by_type[t]] = pmf;
        }
        ex.counts[c.losses] = losses;
        Ok(ex)
    }
}

impl Simulate for CityBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let c = &self.columns;
        let mut units = self.units;
        let mut n = units::total(&units);
        let mut g = self.garrison;
        let mut ppu_left = self.ppu.unwrap_or(self.garrison);
        let mut used = 0;
        let mut leader_removed = false;
        for k in 1..=self.orders {
            if n > 0 && g > 0 {
                used += 1;
                let (h, a) = self.rules.order(n, g, dice);
                let lost = self.allocation.draw(&units, h, dice);
                for t in 0..4 {
                    units[t] -= lost[t];
                }
                n -= h;
                g -= a;
                let destroyed = self.rules.ppu_destroyed(a, ppu_left, dice);
                ppu_left -= destroyed;
                out.counts[c.ppu_destroyed] += destroyed;
                if let Some(leader) = self
                    .leader
                    .filter(|_| self.leader_checks && !leader_removed)
                {
                    let aged = Leader {
                        age: leader.age + k - 1,
                        ..leader
                    };
                    leader_removed = aged.roll_removal(LeaderFate::NoWinner, &self.age_check, dice);
                }
            }
            out.scalars[c.taken_by_order[k as usize - 1]] = (self.taken(n, g)) as u32 as f64;
        }
        let taken = self.taken(n, g);
        out.outcome = if taken { 0 } else { 1 };
        out.counts[c.losses] = units::total(&self.units) - n;
        for (t, (start, now)) in self.units.iter().zip(units).enumerate() {
            out.counts[c.losses_by_type[t]] = start - now;
        }
        out.counts[c.garrison_left] = g;
        out.counts[c.orders_used] = used;
        out.scalars[c.wiped_out] = (n == 0) as u32 as f64;
        if taken {
            out.scalars[c.vp] = self.vp_if_taken;
            out.scalars[c.owner_stability] = self.owner_stability_if_taken;
        }
        out.scalars[c.leader_removed] = leader_removed as u32 as f64;
    }
}

impl BattleModel for CityBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        self.solve()
    }

    fn describe(&self) -> Vec<String> {
        let what = if self.kind == Kind::Assault {
            "assault"
        } else {
            "siege"
        };
        let ppu = self
            .ppu
            .map_or("PPU not given (loss uncapped)".to_string(), |p| {
                format!("{p} PPU")
            });
        let owner = if self.independent_city {
            "independent"
        } else {
            "a nation's"
        };
        vec![
            format!(
                "{}: {}; up to {} {what} order{}",
                SIDES[0],
                units::describe(&self.units),
                self.orders,
                if self.orders == 1 { "" } else { "s" }
            ),
            format!(
                "{}: {} garrison points; {ppu}; {owner} city",
                SIDES[1], self.garrison
            ),
        ]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let n = units::total(&self.units);
        if self.kind == Kind::Siege && n > SIEGE_DICE {
            notes.push(format!(
                "only {SIEGE_DICE} of the {n} besiegers roll (L722)"
            ));
        }
        if self.leader.is_some() && !self.leader_checks {
            notes.push("the leader is not at risk: assaults and sieges are not battles (A17; see city_combat_is_battle)".into());
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    fn city(
        kind: Kind,
        units: Units,
        garrison: u32,
        ppu: Option<u32>,
        orders: u32,
        options: &str,
    ) -> CityBattle {
        let t: Table = options.parse().unwrap();
        let o = Options::resolve(super::super::OPTIONS, Fields::new("t", &t)).unwrap();
        let leader = Some(Leader {
            modifier: 1,
            age: 40,
            historical: false,
        });
        CityBattle::new(kind, units, garrison, ppu, false, orders, leader, o)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1.5e-6, "{a} vs {b}");
    }

    #[test]
    fn digest_d9_one_assault() {
        let b = city(Kind::Assault, [8, 0, 0, 0], 4, Some(6), 1, "");
        let ex = b.solve().unwrap();
        close(ex.outcomes[0], 0.005024);
        close(ex.counts[b.columns.losses].mean(), 0.8);
        close(ex.counts[b.columns.ppu_destroyed].mean(), 0.239863);
    }

    #[test]
    fn digest_d10_consecutive_assaults() {
        for (orders, taken, losses) in [(3, 0.169820, 1.939410), (5, 0.431629, 2.610280)] {
            let b = city(Kind::Assault, [8, 0, 0, 0], 4, Some(6), orders, "");
            let ex = b.solve().unwrap();
            close(ex.outcomes[0], taken);
            close(ex.counts[b.columns.losses].mean(), losses);
            close(
                ex.scalars[b.columns.taken_by_order[orders as usize - 1]],
                taken,
            );
        }
    }

    #[test]
    fn digest_d11_d12_sieges() {
        let b = city(Kind::Siege, [12, 0, 0, 0], 4, Some(6), 1, "");
        let ex = b.solve().unwrap();
        close(ex.outcomes[0], 0.012795);
        close(ex.counts[b.columns.losses].mean(), 0.4);
        close(ex.counts[b.columns.ppu_destroyed].mean(), 0.399283);
        for (orders, taken) in [(3, 0.351784), (5, 0.745348)] {
            let ex = city(Kind::Siege, [12, 0, 0, 0], 4, Some(6), orders, "")
                .solve()
                .unwrap();
            close(ex.outcomes[0], taken);
        }
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_a_grid() {
        let progress = Progress::hidden();
        let mut cases = 0;
        let readings = [
            "",
            "casualty_allocation = \"owner-choice\"\ncity_combat_is_battle = true",
            "city_combat_order = \"attacker-first\"\nassault_dice_cap = 5\nsiege_losses_from = \"rolling-units\"",
        ];
        for kind in [Kind::Assault, Kind::Siege] {
            for units in [[3, 0, 0, 0], [6, 2, 1, 0], [14, 4, 0, 2]] {
                for garrison in [1, 3, 6] {
                    for (orders, reading) in [(1, 0), (3, 1), (5, 2)] {
                        let b = city(kind, units, garrison, Some(4), orders, readings[reading]);
                        let ex = b.solve().unwrap();
                        let run = McRun {
                            trials: 40_000,
                            seed: 17,
                            stream: cases,
                            progress: &progress,
                        };
                        if let Err(e) = agreement(&b.schema, &ex, &b.monte_carlo(&run), 5.0) {
                            panic!(
                                "{kind:?} {units:?} v {garrison}, {orders} orders, [{}]\n{e}",
                                readings[reading]
                            );
                        }
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases >= 50);
    }

    #[test]
    fn huge_requests_are_refused_not_hung() {
        let b = city(Kind::Assault, [1_000_000, 0, 0, 0], 100_000, None, 6, "");
        assert!(b.solve().is_err());
        let small_garrison = city(Kind::Assault, [1_000_000, 0, 0, 0], 3, None, 2, "");
        let ex = small_garrison.solve().unwrap();
        assert!(ex.outcomes[0] > 0.999_999);
    }
}

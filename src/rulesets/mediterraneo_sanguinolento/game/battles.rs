//! Fights of the game through the battle code, never a copy of it: a field battle is
//! `field::plan` on a battle terrain rolled from the node's hex, an assault is
//! `assault::assault_battle` at the capital's effective level, and both are played by
//! `FieldBattle`'s own trial, whose recorded columns (units lost per group with pursuit, men
//! recovered, slaves and metal taken) are read back into the game.
//!
//! Building a battle allocates (its armies, schema and engine): that happens once per fight, not
//! per turn; a game has a few dozen fights.

use super::leaders::{self, Lead};
use super::mercenaries::{self, Bands, BANDS, NO_BANDS};
use super::scenario::CountryId;
use super::special::{self, Mix};
use super::state::State;
use super::state::{Units, KINDS, NO_UNITS};
use super::weather::Weather;
use super::Game;
use crate::battle::{side_column, Simulate, Trial};
use crate::dice::Dice;
use crate::rulesets::mediterraneo_sanguinolento::army::{
    Army, Group, Strategy, TacticChoice, AE, AF, DE,
};
use crate::rulesets::mediterraneo_sanguinolento::assault::{
    assault_battle, assault_case, effective_level,
};
use crate::rulesets::mediterraneo_sanguinolento::field::{
    self, Context, FieldBattle, LandOptions, Plan, TerrainCase, DEFAULT_RESOLUTION,
};
use crate::rulesets::mediterraneo_sanguinolento::landing;
use crate::rulesets::mediterraneo_sanguinolento::outcome::Verdict;
use crate::rulesets::mediterraneo_sanguinolento::SIDES;

/// One side of a fight: whose troops, how many of each kind, the share fighting unfed, and who
/// commands them.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub country: CountryId,
    pub units: Units,
    pub unsupplied: f64,
    /// The number beside a forced march's F this month (0: rested; `forced_march.rs`).
    pub fatigue: u32,
    pub lead: Lead,
    /// Its mercenary bands (none but with a field army; `mercenaries.rs`).
    pub mercs: Bands,
    /// Its militia's IL-ID units (none but defending the home; `militia.rs`).
    pub militia: f64,
    /// Its Republican militia's IM-RC units (none but defending Roma's home;
    /// `republican_militia.rs`).
    pub republican: f64,
    /// Its kinds' shares by morale class (its nation's; `special.rs`).
    pub mix: Mix,
}

impl Side {
    /// `units` of `country` under `lead`, and nothing beside them: no mercenary bands, militia or
    /// Republican militia, no unfed share, rested, every kind at its own morale (no special mix).
    pub fn new(country: CountryId, units: Units, lead: Lead) -> Side {
        Side {
            country,
            units,
            unsupplied: 0.0,
            fatigue: 0,
            lead,
            mercs: NO_BANDS,
            militia: 0.0,
            republican: 0.0,
            mix: special::NO_MIX,
        }
    }

    /// The bands that fight: all of them defending, attacking only beside at least twice their
    /// men in the side's own troops (L4522).
    pub fn fighting_bands(&self, game: &Game, attacking: bool) -> Bands {
        let mut bands = self.mercs;
        let band_men = mercenaries::men(game, &bands);
        if band_men <= 0.0 {
            return bands;
        }
        let own = State::men(&self.units, &game.men_per_unit(self.country));
        if attacking && own < mercenaries::SUPPORT_RATIO * band_men {
            bands = NO_BANDS;
        }
        bands
    }
}

/// What a fight did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fought {
    /// 0 = the attacker, 1 = the defender, None = undecided or both broke.
    pub winner: Option<usize>,
    /// Units each side lost (pursuit included, recovered men given back).
    pub lost: [Units; 2],
    /// Combat factors of each side at the start (the PV table's ratio).
    pub factors: [f64; 2],
    /// Men each side lost by the battle code (whole men, before recovery): the 1 in 50 the
    /// winner takes as slaves are of the loser's (`slaves.rs`).
    pub men_lost: [f64; 2],
    pub slaves: [f64; 2],
    pub metal: [f64; 2],
    /// Each side's commander's chances, by the battle code: killed, wounded, promoted.
    pub risk: [[f64; 3]; 2],
    /// Units each side's mercenary bands lost (after the 10% cap).
    pub merc_lost: [[f64; BANDS]; 2],
    /// Men of mercenary casualties the cap moved onto each side's own troops.
    pub merc_moved: [f64; 2],
    /// Units each side's militia lost.
    pub militia_lost: [f64; 2],
    /// Units each side's Republican militia lost.
    pub republican_lost: [f64; 2],
    /// How each side ended, by the battle code: routed, exterminated (or overrun), and the
    /// assaulted garrison's surrender (what a commander's capture reads, `captives.rs`).
    pub routed: [bool; 2],
    pub exterminated: [bool; 2],
    pub surrendered: bool,
}

/// Days fought before a battle is called undecided (the calculator's default).
const MAX_DAYS: u32 = 30;

fn context(winter: bool, weather: Weather) -> Context {
    Context {
        weather_rain: weather == Weather::Rain,
        storm: weather.severe(),
        winter,
        max_days: MAX_DAYS,
        resolution: DEFAULT_RESOLUTION,
    }
}

/// The battle code's army for `side`: its kinds with units left, its commander (his tactical
/// value within his command limit, his strategic value for the flank, his class, the king's
/// morale), the nation flags the scenario gives the country; attacker AF (AE where AF is not
/// allowed), defender DE.
pub fn army(game: &Game, side: &Side, attacking: bool) -> Army {
    let c = side.country;
    let flags = &game.scenario.nations;
    let kinds = &game.kinds[c as usize];
    // A kind fights as one group per morale class it holds (Rome's and Sparta's mixes).
    let mut groups: Vec<Group> = (0..game.nkinds[c as usize] as usize)
        .filter(|&k| side.units[k] > 1e-9)
        .flat_map(|k| {
            special::classes(&kinds[k], &side.mix[k]).map(move |(morale, share)| Group {
                code: kinds[k].code.to_string(),
                regular: kinds[k].regular,
                morale,
                units: side.units[k] * share,
                veteran: false,
                guard: false,
            })
        })
        .collect();
    // The militias after the own troops, the mercenaries last in the casualty order.
    for (k, units) in [
        (game.militia.kind, side.militia),
        (game.republican.kind, side.republican),
    ] {
        if units > 1e-9 {
            groups.push(Group {
                code: k.code.to_string(),
                regular: k.regular,
                morale: k.morale,
                units,
                veteran: false,
                guard: false,
            });
        }
    }
    for band in side.fighting_bands(game, attacking) {
        if let (Some(k), true) = (mercenaries::kind(game, band.source), band.units > 1e-9) {
            groups.push(Group {
                code: k.code.to_string(),
                regular: k.regular,
                morale: k.morale,
                units: band.units,
                veteran: false,
                guard: false,
            });
        }
    }
    let tactic = if attacking { AF } else { DE };
    Army {
        culture: game.culture[c as usize],
        roman: flags.roman.contains(c),
        italic: flags.italic.contains(c),
        hispanic: flags.hispanic.contains(c),
        greek: flags.greek.contains(c),
        carthaginian: flags.carthaginian.contains(c),
        seleucid: flags.seleucid.contains(c),
        groups,
        has_commander: true,
        tactical: leaders::tactical_in_battle(game, side) as i32,
        strategic: side.lead.strategic as i32,
        leader_kind: side.lead.kind,
        king: side.lead.king,
        fatigue: side.fatigue,
        unsupplied: side.unsupplied,
        surprise: false,
        tactic: TacticChoice::Fixed(tactic),
        fallback_tactic: if attacking { AE } else { DE },
        strategy: Strategy::None,
        flank_fraction: 0.25,
        flank_strategic: side.lead.strategic as i32,
        archers_fire: true,
        chariots_segment: 0,
        guard_segment: 0,
        guard_bonus: 2,
        retreat_below_morale: None,
        retreat_after_losses: None,
        retreat_before_battle: false,
        pursue: true,
        casualty_order: Vec::new(),
    }
}

pub fn has_troops(units: &Units) -> bool {
    units.iter().any(|&u| u > 1e-9)
}

/// A field battle in `node` (its hex rolled into a battle terrain with 2D6) in the month's weather
/// of its zone.
pub fn field_battle(
    game: &Game,
    node: CountryId,
    winter: bool,
    weather: Weather,
    sides: [Side; 2],
    dice: &mut Dice,
) -> Fought {
    let armies = [army(game, &sides[0], true), army(game, &sides[1], false)];
    fight(game, node, winter, weather, sides, armies, None, dice)
}

/// A landing in `node` (digest §3.6): the field battle of [`field_battle`] with the landing
/// force converted to infantry by the landing code (`landing::convert`, A35) and a tenth of its
/// `fleets`' ram factors beside it (L4466); the landed units lose the converted force's lost
/// share, kind by kind (they fight as infantry and are themselves again after the landing).
pub fn landing_battle(
    game: &Game,
    node: CountryId,
    winter: bool,
    weather: Weather,
    sides: [Side; 2],
    fleets: f64,
    dice: &mut Dice,
) -> Fought {
    let mut armies = [army(game, &sides[0], true), army(game, &sides[1], false)];
    armies[0].groups = landing::convert(&armies[0].groups);
    if armies[0].groups.is_empty() {
        return field_battle(game, node, winter, weather, sides, dice);
    }
    let ram = game.scenario.fleet.map_or(0, |f| f.ram) as f64;
    let support = fleets.floor() * ram / 10.0;
    fight(
        game,
        node,
        winter,
        weather,
        sides,
        armies,
        Some(support),
        dice,
    )
}

/// The battle of two armies on `node`'s terrain (2D6 on its hex); `landing` is the landing
/// force's fleet support, `None` for a battle on land.
#[allow(clippy::too_many_arguments)]
fn fight(
    game: &Game,
    node: CountryId,
    winter: bool,
    weather: Weather,
    sides: [Side; 2],
    armies: [Army; 2],
    landing: Option<f64>,
    dice: &mut Dice,
) -> Fought {
    let roll = (dice.d(6) + dice.d(6)) as i32 + shifts(game, node, &sides);
    let column = game.terrain_of_roll[node as usize][roll.clamp(1, 12) as usize] as usize;
    let tactics = [tactic(&armies[0], column), DE];
    let ctx = context(winter, weather);
    let opts = LandOptions::new(&game.options);
    let mut plan = field::plan(&armies, tactics, column, &ctx, &opts);
    if let Some(support) = landing {
        plan.engine.sides[0].support = support;
    }
    let case = TerrainCase {
        terrain: column,
        probability: 1.0,
        tactics,
        plan,
    };
    let battle = FieldBattle::from_cases(
        armies,
        vec![case],
        MAX_DAYS,
        &game.options,
        false,
        Vec::new(),
    );
    play(game, &battle, &sides, landing.is_some(), dice)
}

/// Both commanders' shifts of the battle-terrain roll (L2889; digest T1).
fn shifts(game: &Game, node: CountryId, sides: &[Side; 2]) -> i32 {
    leaders::terrain_shift(game, node, sides[0].lead.strategic, &sides[0], &sides[1])
        + leaders::terrain_shift(game, node, sides[1].lead.strategic, &sides[1], &sides[0])
}

/// The walls an assault meets: the capital's fortification level, the months of siege behind it
/// (each lowers it by one, L3664) and the level of the besieger's siege engine (0: none; option
/// `siege_engine`, A23).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walls {
    pub fort: u32,
    pub months: u32,
    pub engine: u32,
}

impl Walls {
    /// The level the assault code fights at (the assault code's own arithmetic).
    pub fn level(&self, game: &Game, armies: &[Army; 2]) -> u32 {
        effective_level(
            armies,
            self.fort,
            self.months,
            false,
            self.engine,
            game.engine_full,
        )
    }
}

/// An assault on a capital behind `walls` (the assault code's effective level: Greek defenders
/// +1, Roman attackers -1, the siege's months, the besieger's engine).
pub fn assault(
    game: &Game,
    walls: Walls,
    winter: bool,
    weather: Weather,
    sides: [Side; 2],
    dice: &mut Dice,
) -> Fought {
    let armies = [army(game, &sides[0], true), army(game, &sides[1], false)];
    let level = walls.level(game, &armies);
    let battle = assault_battle(
        armies,
        level,
        &context(winter, weather),
        &game.options,
        Vec::new(),
    );
    play(game, &battle, &sides, false, dice)
}

/// Plays `battle` once and reads what each side lost back into unit kinds: group by group, or
/// for a `converted` attacker (a landing force fighting as infantry) the share its groups lost.
fn play(
    game: &Game,
    battle: &FieldBattle,
    sides: &[Side; 2],
    converted: bool,
    dice: &mut Dice,
) -> Fought {
    let mut trial = Trial::default();
    battle.trial(dice, &mut trial);
    let schema = &battle.schema;
    let e = &battle.cases[0].plan.engine;
    let mut out = Fought {
        winner: (trial.outcome < 2).then_some(trial.outcome),
        surrendered: schema
            .scalar_index("garrison_surrendered")
            .is_some_and(|i| trial.scalars[i] > 0.0),
        factors: [e.all_factors(&e.start, 0), e.all_factors(&e.start, 1)],
        ..Fought::default()
    };
    let scalar = |name: String| schema.scalar_index(&name).map_or(0.0, |i| trial.scalars[i]);
    for k in 0..2 {
        let side = SIDES[k];
        let mut lost = NO_UNITS;
        let mut band_lost = [0.0; BANDS];
        let mut militia_lost = 0.0;
        let mut republican_lost = 0.0;
        let bands = sides[k].fighting_bands(game, k == 0);
        if converted && k == 0 {
            let groups = &battle.armies[0].groups;
            let fought: f64 = groups.iter().map(|g| g.units).sum();
            let gone: f64 = groups
                .iter()
                .map(|g| scalar(format!("{side}_units_lost/{}", g.label())).min(g.units))
                .sum();
            let share = if fought > 0.0 { gone / fought } else { 0.0 };
            lost = sides[0].units.map(|u| u * share);
            militia_lost = sides[0].militia * share;
            republican_lost = sides[0].republican * share;
            band_lost = bands.map(|b| b.units * share);
        } else {
            // Groups in army()'s order: the kinds with units (a group per morale class each),
            // the militia, the Republican militia, then the bands with units. A militia or a band
            // of the side's own kind has the same label: the n-th group of a label has the n-th
            // column of that name.
            let groups = &battle.armies[k].groups;
            let lost_of = |g: usize| -> f64 {
                let label = groups[g].label();
                let nth = groups[..g].iter().filter(|x| x.label() == label).count();
                let name = format!("{side}_units_lost/{label}");
                schema
                    .scalars
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| **s == name)
                    .nth(nth)
                    .map_or(0.0, |(i, _)| trial.scalars[i])
            };
            let mut g = 0;
            let kinds = &game.kinds[sides[k].country as usize];
            for kind in 0..KINDS {
                if sides[k].units[kind] <= 1e-9 {
                    continue;
                }
                for _ in special::classes(&kinds[kind], &sides[k].mix[kind]) {
                    lost[kind] += lost_of(g);
                    g += 1;
                }
                lost[kind] = lost[kind].min(sides[k].units[kind]);
            }
            if sides[k].militia > 1e-9 {
                militia_lost = lost_of(g).min(sides[k].militia);
                g += 1;
            }
            if sides[k].republican > 1e-9 {
                republican_lost = lost_of(g).min(sides[k].republican);
                g += 1;
            }
            for (b, band) in bands.iter().enumerate() {
                if band.source == mercenaries::Source::None || band.units <= 1e-9 {
                    continue;
                }
                band_lost[b] = lost_of(g).min(band.units);
                g += 1;
            }
        }
        // Recovered men rejoin their groups in proportion to what each lost.
        let men_lost = scalar(side_column(side, "men_lost"));
        let recovered = scalar(side_column(side, "men_recovered"));
        if men_lost > 0.0 && recovered > 0.0 {
            let keep = 1.0 - (recovered / men_lost).min(1.0);
            for u in lost.iter_mut().chain(band_lost.iter_mut()) {
                *u *= keep;
            }
            militia_lost *= keep;
            republican_lost *= keep;
        }
        if game.merc_cap && band_lost.iter().any(|&u| u > 0.0) {
            // Lent partner troops are no mercenaries: the cap leaves them (and their losses) out.
            let band_men = bands.map(|b| match b.source {
                mercenaries::Source::Lent(..) => 0.0,
                _ => mercenaries::kind(game, b.source).map_or(0.0, |kind| kind.men),
            });
            out.merc_moved[k] = mercenaries::cap_losses(
                &sides[k].units,
                &mut lost,
                &game.men_per_unit(sides[k].country),
                &mut band_lost,
                &band_men,
            );
        }
        out.lost[k] = lost;
        out.men_lost[k] = men_lost;
        out.merc_lost[k] = band_lost;
        out.militia_lost[k] = militia_lost;
        out.republican_lost[k] = republican_lost;
        out.risk[k] = ["leader_killed", "leader_wounded", "leader_promoted"]
            .map(|column| scalar(side_column(side, column)));
        out.routed[k] = scalar(side_column(side, "routed")) > 0.0;
        out.exterminated[k] = scalar(side_column(side, "exterminated")) > 0.0;
        out.slaves[k] = scalar(side_column(side, "slaves_taken"));
        out.metal[k] = scalar(side_column(side, "metal_taken"));
    }
    out
}

/// The battle code's P(win) of a fight, from `trials` simulated ones (the policy's odds, which
/// cannot know the weather of the month it will be fought in: they assume clear weather). Each
/// battle plan (per rolled battle terrain, or the assault's one) is built once and played
/// `trials` times by the segment engine.
#[allow(clippy::too_many_arguments)]
pub fn odds(
    game: &Game,
    node: CountryId,
    assault: Option<Walls>,
    winter: bool,
    sides: [Side; 2],
    trials: u32,
    dice: &mut Dice,
) -> f64 {
    let armies = [army(game, &sides[0], true), army(game, &sides[1], false)];
    let ctx = context(winter, Weather::Clear);
    let mut wins = 0;
    match assault {
        Some(walls) => {
            let level = walls.level(game, &armies);
            let case = assault_case(&armies, level, &ctx, &game.options, &mut Vec::new());
            for _ in 0..trials {
                wins += (winner(&case.plan, dice) == Some(0)) as u32;
            }
        }
        None => {
            let opts = LandOptions::new(&game.options);
            let mut plans: [Option<Plan>; 11] = std::array::from_fn(|_| None);
            let shift = shifts(game, node, &sides);
            for _ in 0..trials {
                let roll = (dice.d(6) + dice.d(6)) as i32 + shift;
                let column =
                    game.terrain_of_roll[node as usize][roll.clamp(1, 12) as usize] as usize;
                let plan = plans[column].get_or_insert_with(|| {
                    let tactics = [tactic(&armies[0], column), DE];
                    field::plan(&armies, tactics, column, &ctx, &opts)
                });
                wins += (winner(plan, dice) == Some(0)) as u32;
            }
        }
    }
    wins as f64 / trials.max(1) as f64
}

/// The attacker's ordered tactic on battle terrain `column` (AF falls back to AE off open ground).
fn tactic(army: &Army, column: usize) -> usize {
    match army.tactic {
        TacticChoice::Fixed(t) => army.tactic_on(t, column),
        TacticChoice::BestResponse => AE,
    }
}

/// Who wins one play of a plan (a routed garrison surrenders: the attacker wins either way).
fn winner(plan: &Plan, dice: &mut Dice) -> Option<usize> {
    match plan.decided {
        Some(v) => v.winner(),
        None => Verdict::Battle(plan.engine.play(dice).1).winner(),
    }
}

//! The field battle (digest §3.2, §8.1): the 2D6 battle-terrain roll moved by the commanders'
//! strategic levels, factors by terrain, overrun at 20:1, retreat before combat, the two tactics
//! crossed in the land matrix, days of three segments on the engine, and the pursuit.
//! Landings (§3.6) are field battles with the landing force converted to infantry.

use super::army::{Army, Strategy, TacticChoice, AF, RE, SIDE_KEYS, TACTICS};
use super::data::{data, CIUDAD};
use super::engine::{
    archery_table, Budget, CellCodes, CellKind, Crt, End, Engine, Rules, Setting, SideSetup, State,
};
use super::outcome::{Finish, Layout, Sink, Verdict};
use super::SIDES;
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::FastMap;
use crate::options::Options;
use crate::progress::Progress;
use crate::spec::Fields;

pub const SUMMARY: &str = "field battle: terrain roll, 10x10 tactic matrix, days of 3 segments on the casualty/morale table, formations, archers, charges, guard, flanking, morale, retreat and pursuit";
pub const OUTCOMES: &[&str] = super::outcome::OUTCOMES;

pub const HEXES: [(&str, &str); 6] = [
    ("plain", "LLANO"),
    ("desert", "DESIERTO"),
    ("forest", "BOSQUE"),
    ("rough", "ABRUPTO"),
    ("hills", "MONTES"),
    ("mountain", "MONTAÑA"),
];

const HEX_NAMES: [&str; 6] = firsts(HEXES);

/// The first of each pair.
const fn firsts<const N: usize>(pairs: [(&'static str, &'static str); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut k = 0;
    while k < N {
        out[k] = pairs[k].0;
        k += 1;
    }
    out
}

pub const HEX: Key = keys::choice("hex", &HEX_NAMES)
    .default_choice("plain")
    .help("the hex's terrain, rolled into a battle terrain with 2D6");
pub const BATTLE_TERRAIN: Key = keys::int("battle_terrain", 1, 10)
    .absent("rolled from the hex")
    .help("force the battle terrain type 1 (most open) .. 10 (most broken) instead of rolling it");
pub const WEATHER: Key = keys::choice("weather", &["clear", "rain", "storm", "snow"])
    .default_choice("clear")
    .help("\"rain\": -1 on every combat and pursuit die; \"storm\" or \"snow\": factors x0.5");
pub const WINTER: Key = keys::flag("winter").help("December-February (factors x0.5)");
const MAX_DAYS: Key = keys::int("max_days", 1, 60)
    .default_int(30)
    .help("days fought before the battle is called undecided");
const RESOLUTION: Key = keys::int("resolution", 4, 100_000)
    .default_int(DEFAULT_RESOLUTION as i64)
    .help("casualties are counted in steps of 1/resolution of each army's combat factors (rounded to the nearest step each segment; 20 = 5% of the army's combat factors), the same for the exact answer and the simulation; finer steps make the exact answer slower");

/// The keys of the day's fighting, the same in every land battle of the ruleset.
pub const CONTEXT_KEYS: [Key; 4] = [WEATHER, WINTER, MAX_DAYS, RESOLUTION];

pub const KEYS: &[Key] = &keys::join::<35>(&[&[HEX, BATTLE_TERRAIN], &CONTEXT_KEYS, &SIDE_KEYS]);

/// Casualties are counted in steps of 1/DEFAULT_RESOLUTION of each army's combat factors.
pub const DEFAULT_RESOLUTION: u32 = 20;

/// Trials per tactic pair when a best-response tactic is chosen by simulation.
const BEST_RESPONSE_TRIALS: u64 = 3000;

/// What happens on one battle terrain: decided before any segment is fought, or fought out.
#[derive(Clone, Debug)]
pub struct Plan {
    pub decided: Option<Verdict>,
    pub engine: Engine,
}

#[derive(Clone, Debug)]
pub struct Context {
    pub weather_rain: bool,
    pub storm: bool,
    pub winter: bool,
    pub max_days: u32,
    pub resolution: u32,
}

/// The rule options a land battle reads, resolved once.
#[derive(Clone, Debug)]
pub struct LandOptions {
    pub corrected_crt: bool,
    pub symmetric_matrix: bool,
    pub block_by_morale: bool,
    pub separate_morale_die: bool,
    pub share_sign: i32,
    pub cumulative_segment_mod: bool,
    pub charge_digit: bool,
    pub overrun_both: bool,
    pub winter_and_storm_both: bool,
    pub auto_retreat_pursuit: bool,
    pub flank_plus_one: bool,
    pub mounted_archers_fire: bool,
    pub screen_share: bool,
    pub floor_factors: bool,
    pub pilum_each_day: bool,
    pub mounted_by_units: bool,
    pub defender_first: bool,
}

impl LandOptions {
    pub fn new(o: &Options) -> LandOptions {
        LandOptions {
            corrected_crt: o.choice("crt") == "corrected",
            symmetric_matrix: o.choice("land_matrix") == "symmetric",
            block_by_morale: o.choice("crt_block") == "morale",
            separate_morale_die: o.choice("morale_die") == "separate",
            share_sign: if o.choice("formation_share_modifier") == "harder" {
                -1
            } else {
                1
            },
            cumulative_segment_mod: o.choice("formation_segment_modifier") == "cumulative",
            charge_digit: o.choice("charge_bonus") == "digit",
            overrun_both: o.choice("overrun") == "either-side",
            winter_and_storm_both: o.choice("winter_and_storm") == "both",
            auto_retreat_pursuit: o.flag("auto_retreat_pursuit"),
            flank_plus_one: o.choice("flank_retry") == "plus-one",
            mounted_archers_fire: o.flag("mounted_archers_fire"),
            screen_share: o.choice("retreat_screen") == "share",
            floor_factors: o.flag("floor_factor_casualties"),
            pilum_each_day: o.choice("pilum") == "each-day",
            mounted_by_units: o.choice("mounted_count") == "units",
            defender_first: o.choice("retreat_order") == "defender-first",
        }
    }

    pub fn rules(
        &self,
        column: usize,
        ctx: &Context,
        assault: bool,
        archery_city_mod: i32,
    ) -> Rules {
        Rules {
            crt: Crt::new(self.corrected_crt),
            block_by_morale: self.block_by_morale,
            separate_morale_die: self.separate_morale_die,
            cumulative_segment_mod: self.cumulative_segment_mod,
            share_sign: self.share_sign,
            charge_digit: self.charge_digit,
            floor_factors: self.floor_factors,
            pilum_each_day: self.pilum_each_day,
            mounted_by_units: self.mounted_by_units,
            screen_share: self.screen_share,
            flank_plus_one: self.flank_plus_one,
            column,
            rain: ctx.weather_rain,
            assault,
            archery_city_mod,
            mounted_archers_fire: self.mounted_archers_fire,
            max_days: ctx.max_days,
            archery: archery_table(),
        }
    }
}

/// Builds the engine for two armies with their tactics on battle terrain `column`.
pub fn engine(
    armies: &[Army; 2],
    tactics: [usize; 2],
    rules: Rules,
    settings: [Setting; 2],
    symmetric: bool,
) -> Engine {
    let sides = [
        SideSetup::new(&armies[0], &armies[1], tactics[0], &settings[0]),
        SideSetup::new(&armies[1], &armies[0], tactics[1], &settings[1]),
    ];
    let start = State {
        cas: [[0; 5]; 2],
        men: [
            sides[0].start_men(&armies[0]),
            sides[1].start_men(&armies[1]),
        ],
        loss: [0, 0],
        formation: [sides[0].has_formation, sides[1].has_formation],
        arrived: [false, false],
        retreat: [0, 0],
    };
    Engine {
        cell: CellCodes::land(tactics[1], tactics[0], symmetric),
        retreat_cells: [
            CellCodes::land(tactics[1], RE, symmetric),
            CellCodes::land(RE, tactics[0], symmetric),
        ],
        sides,
        start,
        rules,
    }
}

/// The battle on one battle terrain with both tactics known (digest §3.2.2 steps 2-5).
pub fn plan(
    armies: &[Army; 2],
    tactics: [usize; 2],
    column: usize,
    ctx: &Context,
    opts: &LandOptions,
) -> Plan {
    let setting = Setting {
        column,
        winter: ctx.winter,
        storm: ctx.storm,
        winter_and_storm_both: opts.winter_and_storm_both,
        fort_level: 0,
        first_segment_bonus: true,
        resolution: ctx.resolution,
    };
    let rules = opts.rules(column, ctx, false, 0);
    let mut e = engine(armies, tactics, rules, [setting; 2], opts.symmetric_matrix);
    let f = [e.all_factors(&e.start, 0), e.all_factors(&e.start, 1)];
    let decided = |v: Verdict, engine: Engine| Plan {
        decided: Some(v),
        engine,
    };
    if f[0] >= 20.0 * f[1] {
        return decided(Verdict::Overrun(1), e);
    }
    if opts.overrun_both && f[1] >= 20.0 * f[0] {
        return decided(Verdict::Overrun(0), e);
    }
    let order = if opts.defender_first { [1, 0] } else { [0, 1] };
    let mounted = |k: usize| -> f64 {
        armies[k]
            .groups
            .iter()
            .filter(|g| is_mounted(&g.code))
            .map(|g| g.men() as f64)
            .sum()
    };
    let mounted_f = |k: usize| -> f64 {
        armies[k]
            .groups
            .iter()
            .filter(|g| is_mounted(&g.code))
            .map(|g| g.units * data().factor(&g.code, column).unwrap_or(0.0) * g.elite())
            .sum()
    };
    for k in order {
        if !armies[k].retreat_before_battle {
            continue;
        }
        let o = 1 - k;
        if mounted(k) > 0.0 && mounted(k) >= 2.0 * mounted(o) && mounted_f(k) >= 0.15 * f[o] {
            return decided(Verdict::Disengaged(k), e);
        }
        if mounted(k) >= 0.5 * armies[k].total_men() as f64 {
            // One segment on the Retirada matrix, then away (L2897).
            e.start.retreat[k] = 1;
            return Plan {
                decided: None,
                engine: e,
            };
        }
    }
    match e.cell.kind {
        CellKind::NoCombat => decided(Verdict::NoBattle, e),
        CellKind::AutoRetreat => {
            let leaver = match (tactics[0] == RE, tactics[1] == RE) {
                (true, true) => None,
                (true, false) => Some(0),
                _ => Some(1),
            };
            decided(Verdict::AutoRetreat(leaver), e)
        }
        CellKind::Combat => Plan {
            decided: None,
            engine: e,
        },
    }
}

fn is_mounted(code: &str) -> bool {
    matches!(
        code,
        "CL" | "CA" | "CM" | "CP" | "CC" | "CML" | "CMA" | "CMM"
    )
}

/// One battle terrain with its probability and what happens there.
#[derive(Clone, Debug)]
pub struct TerrainCase {
    pub terrain: usize,
    pub probability: f64,
    pub tactics: [usize; 2],
    pub plan: Plan,
}

pub struct FieldBattle {
    pub armies: [Army; 2],
    pub cases: Vec<TerrainCase>,
    /// case index by 2D6 total (2..=12); None when the terrain is forced.
    by_roll: Option<[usize; 13]>,
    pub schema: Schema,
    layout: Layout,
    auto_retreat_pursuit: bool,
    pub notes: Vec<String>,
    hex: Option<&'static str>,
    /// A city assault: a garrison that breaks surrenders (L3576).
    pub assault: bool,
}

impl FieldBattle {
    /// A battle with given cases (assaults, landings); `assault` turns a routed defender into a surrender.
    pub fn from_cases(
        armies: [Army; 2],
        cases: Vec<TerrainCase>,
        max_days: u32,
        options: &Options,
        assault: bool,
        notes: Vec<String>,
    ) -> FieldBattle {
        let (schema, layout) = Layout::schema(&armies, max_days, assault);
        FieldBattle {
            armies,
            cases,
            by_roll: None,
            schema,
            layout,
            auto_retreat_pursuit: LandOptions::new(options).auto_retreat_pursuit,
            notes,
            hex: None,
            assault,
        }
    }

    fn verdict(&self, end: End) -> Verdict {
        if self.assault && end == End::Rout(1) {
            Verdict::Surrender
        } else {
            Verdict::Battle(end)
        }
    }
}

/// Pursuit of loser `l` by the winner: (row die, column die or 0 for column 1, probability).
pub fn pursuit_rolls(
    e: &Engine,
    st: &State,
    v: &Verdict,
    pursue_auto: bool,
) -> Option<(usize, bool)> {
    let w = v.winner()?;
    let l = 1 - w;
    if matches!(
        v,
        Verdict::Overrun(_) | Verdict::Surrender | Verdict::Battle(End::Exterminated(_))
    ) {
        return None;
    }
    if matches!(v, Verdict::AutoRetreat(_)) && !pursue_auto {
        return None;
    }
    if !e.sides[w].pursue || e.pursuit_factors(st, w) <= 0.0 {
        return None;
    }
    Some((w, v.pursuit_column_one(e, st, l)))
}

impl FieldBattle {
    #[allow(clippy::too_many_arguments)]
    fn finish_exact(
        &self,
        case: &TerrainCase,
        e: &Engine,
        st: &State,
        v: Verdict,
        day: u32,
        p: f64,
        exact: &mut Exact,
    ) {
        match pursuit_rolls(e, st, &v, self.auto_retreat_pursuit) {
            None => self.record(case, e, st, v, day, [0, 0], &mut Sink::Exact(exact, p)),
            Some((w, col1)) => {
                let l = 1 - w;
                for (pct, q) in e.pursuit_choices(w, col1).iter() {
                    let mut s = *st;
                    e.pursue_pct(&mut s, w, pct);
                    let mut lost = [0, 0];
                    lost[l] = (e.total_men(st, l) - e.total_men(&s, l)).round() as u32;
                    self.record(case, e, &s, v, day, lost, &mut Sink::Exact(exact, p * q));
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        case: &TerrainCase,
        e: &Engine,
        st: &State,
        v: Verdict,
        day: u32,
        pursuit_lost: [u32; 2],
        sink: &mut Sink,
    ) {
        let f = Finish {
            engine: e,
            end_state: *st,
            verdict: v,
            day,
            pursuit_lost,
            terrain: case.terrain,
        };
        self.layout.record(&f, sink);
    }
}

pub fn parse_context(fields: &Fields) -> Result<Context> {
    let weather = WEATHER.choice(fields)?;
    Ok(Context {
        weather_rain: weather == "rain",
        storm: weather == "storm" || weather == "snow",
        winter: WINTER.bool(fields)?,
        max_days: MAX_DAYS.int(fields)? as u32,
        resolution: RESOLUTION.int(fields)? as u32,
    })
}

/// The two sides, whose keys are [`SIDE_KEYS`].
pub fn parse_armies(fields: &Fields) -> Result<[Army; 2]> {
    let empty = toml::Table::new();
    let [a, d] = SIDES.map(|side| fields.table(side, &empty).and_then(|f| Army::parse(&f)));
    Ok([a?, d?])
}

/// The hex the battle terrain is rolled on, and the battle terrain when it is forced instead.
pub fn parse_terrain<'a>(fields: &Fields<'a>) -> Result<(Option<&'static str>, Option<usize>)> {
    Ok((
        HEX.opt_choice(fields)?,
        BATTLE_TERRAIN.opt_int(fields)?.map(|t| t as usize),
    ))
}

/// The battle terrain distribution: (terrain, probability, 2D6 totals leading to it).
pub fn terrain_distribution(hex: &str, shift: i32) -> Vec<(usize, f64, Vec<u32>)> {
    let mut out: Vec<(usize, f64, Vec<u32>)> = Vec::new();
    for roll in 2..=12u32 {
        let ways = 6 - (roll as i32 - 7).abs();
        let t = data()
            .battle_terrain(hex, roll as i32 + shift)
            .expect("every clamped roll has a terrain");
        match out.iter_mut().find(|(x, _, _)| *x == t) {
            Some(e) => {
                e.1 += ways as f64 / 36.0;
                e.2.push(roll);
            }
            None => out.push((t, ways as f64 / 36.0, vec![roll])),
        }
    }
    out.sort_by_key(|x| x.0);
    out
}

/// Win chance of `side` with these tactics on this terrain, by simulation (for best responses).
fn win_chance(
    armies: &[Army; 2],
    tactics: [usize; 2],
    column: usize,
    ctx: &Context,
    opts: &LandOptions,
    side: usize,
) -> f64 {
    let p = plan(armies, tactics, column, ctx, opts);
    match p.decided {
        Some(v) => (v.winner() == Some(side)) as u8 as f64,
        None => {
            let e = &p.engine;
            let mut wins = 0;
            for i in 0..BEST_RESPONSE_TRIALS {
                let mut dice = Dice::for_trial(
                    0x5eed,
                    column as u64 * 100 + tactics[0] as u64 * 10 + tactics[1] as u64,
                    i,
                );
                let (_, end, _) = e.play(&mut dice);
                if Verdict::Battle(end).winner() == Some(side) {
                    wins += 1;
                }
            }
            wins as f64 / BEST_RESPONSE_TRIALS as f64
        }
    }
}

fn allowed_on(army: &Army, column: usize) -> Vec<usize> {
    army.usable_tactics()
        .into_iter()
        .filter(|&t| !(matches!(TACTICS[t], "AF" | "CU" | "AO") && column > 5))
        .collect()
}

/// Each side's tactic on one battle terrain (best responses resolved).
/// The shift each side's commander puts on the terrain roll. A side ordering "best" takes, among
/// raising, lowering and not using his level, the one with the best win chance (each battle terrain's
/// chance estimated as for best-response tactics); when both do, each maximises his worst case.
fn strategic_shifts(
    armies: &[Army; 2],
    hex: &str,
    ctx: &Context,
    opts: &LandOptions,
) -> ([i32; 2], Option<String>) {
    let options = |a: &Army| -> Vec<i32> {
        match a.strategy {
            Strategy::None => vec![0],
            Strategy::Raise => vec![a.strategic],
            Strategy::Lower => vec![-a.strategic],
            Strategy::Best if a.strategic == 0 => vec![0],
            Strategy::Best => vec![a.strategic, 0, -a.strategic],
        }
    };
    let (oa, od) = (options(&armies[0]), options(&armies[1]));
    if oa.len() == 1 && od.len() == 1 {
        return ([oa[0], od[0]], None);
    }
    let mut chance: FastMap<usize, [f64; 2]> = FastMap::default();
    let mut wins = |shift: i32| -> [f64; 2] {
        let mut w = [0.0; 2];
        for (terrain, p, _) in terrain_distribution(hex, shift) {
            let c = *chance.entry(terrain).or_insert_with(|| {
                let tactics = choose_tactics(armies, terrain, ctx, opts);
                [0, 1].map(|k| win_chance(armies, tactics, terrain, ctx, opts, k))
            });
            w[0] += p * c[0];
            w[1] += p * c[1];
        }
        w
    };
    let grid: Vec<Vec<[f64; 2]>> = oa
        .iter()
        .map(|a| od.iter().map(|d| wins(a + d)).collect())
        .collect();
    // Each side maximises its worst case over the other's choices (a fixed choice has one).
    let a = (0..oa.len())
        .max_by(|&x, &y| {
            let worst = |i: usize| grid[i].iter().map(|w| w[0]).fold(1.0, f64::min);
            worst(x).total_cmp(&worst(y))
        })
        .unwrap_or(0);
    let d = (0..od.len())
        .max_by(|&x, &y| {
            let worst = |j: usize| grid.iter().map(|r| r[j][1]).fold(1.0, f64::min);
            worst(x).total_cmp(&worst(y))
        })
        .unwrap_or(0);
    let w = grid[a][d];
    (
        [oa[a], od[d]],
        Some(format!(
            "\"best\" chosen among raise, none and lower by simulated win chances ({:.1}% attacker, {:.1}% defender)",
            100.0 * w[0],
            100.0 * w[1]
        )),
    )
}

fn choose_tactics(
    armies: &[Army; 2],
    column: usize,
    ctx: &Context,
    opts: &LandOptions,
) -> [usize; 2] {
    let fixed = |k: usize| match armies[k].tactic {
        TacticChoice::Fixed(t) => Some(armies[k].tactic_on(t, column)),
        TacticChoice::BestResponse => None,
    };
    match (fixed(0), fixed(1)) {
        (Some(a), Some(d)) => [a, d],
        (None, Some(d)) => {
            let best = allowed_on(&armies[0], column)
                .into_iter()
                .map(|a| (a, win_chance(armies, [a, d], column, ctx, opts, 0)))
                .fold((AF, -1.0), |b, x| if x.1 > b.1 { x } else { b });
            [best.0, d]
        }
        (Some(a), None) => {
            let best = allowed_on(&armies[1], column)
                .into_iter()
                .map(|d| (d, win_chance(armies, [a, d], column, ctx, opts, 1)))
                .fold((AF, -1.0), |b, x| if x.1 > b.1 { x } else { b });
            [a, best.0]
        }
        (None, None) => {
            // Tactics are secret orders: each side takes the tactic whose worst case is best.
            let ta = allowed_on(&armies[0], column);
            let td = allowed_on(&armies[1], column);
            let mut w = vec![vec![(0.0, 0.0); td.len()]; ta.len()];
            for (i, &a) in ta.iter().enumerate() {
                for (j, &d) in td.iter().enumerate() {
                    w[i][j] = (
                        win_chance(armies, [a, d], column, ctx, opts, 0),
                        win_chance(armies, [a, d], column, ctx, opts, 1),
                    );
                }
            }
            let a = (0..ta.len())
                .map(|i| (i, w[i].iter().map(|x| x.0).fold(1.0, f64::min)))
                .fold((0, -1.0), |b, x| if x.1 > b.1 { x } else { b })
                .0;
            let d = (0..td.len())
                .map(|j| (j, w.iter().map(|r| r[j].1).fold(1.0, f64::min)))
                .fold((0, -1.0), |b, x| if x.1 > b.1 { x } else { b })
                .0;
            [ta[a], td[d]]
        }
    }
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let armies = parse_armies(fields)?;
    let ctx = parse_context(fields)?;
    let (hex_name, forced) = parse_terrain(fields)?;
    if let (Some(t), Some(_)) = (forced, hex_name) {
        return Err(AleaError::input(
            fields.source,
            BATTLE_TERRAIN.field(fields),
            t,
            "either `hex` (the terrain is rolled) or `battle_terrain` (forced), not both",
        ));
    }
    Ok(Box::new(FieldBattle::new(
        armies, ctx, hex_name, forced, &options,
    )))
}

impl FieldBattle {
    pub fn new(
        armies: [Army; 2],
        ctx: Context,
        hex_name: Option<&str>,
        forced: Option<usize>,
        options: &Options,
    ) -> FieldBattle {
        let opts = LandOptions::new(options);
        let mut notes = Vec::new();
        let (distribution, hex) = match forced {
            Some(t) => (vec![(t, 1.0, Vec::new())], None),
            None => {
                let name = hex_name.unwrap_or("plain");
                let hex = HEXES.iter().find(|h| h.0 == name).expect("validated hex").1;
                let (shifts, how) = strategic_shifts(&armies, hex, &ctx, &opts);
                let s = shifts[0] + shifts[1];
                if s != 0 || how.is_some() {
                    notes.push(format!(
                        "terrain roll: 2D6 {s:+} from the commanders' strategic levels ({}: {:+}, {}: {:+}){}",
                        SIDES[0],
                        shifts[0],
                        SIDES[1],
                        shifts[1],
                        how.map_or(String::new(), |h| format!("; {h}"))
                    ));
                }
                (terrain_distribution(hex, s), Some(hex_name_static(name)))
            }
        };
        let mut cases = Vec::new();
        let mut by_roll = [0usize; 13];
        for (terrain, p, rolls) in distribution {
            let tactics = choose_tactics(&armies, terrain, &ctx, &opts);
            for r in rolls {
                by_roll[r as usize] = cases.len();
            }
            cases.push(TerrainCase {
                terrain,
                probability: p,
                tactics,
                plan: plan(&armies, tactics, terrain, &ctx, &opts),
            });
        }
        for (k, a) in armies.iter().enumerate() {
            let chosen: Vec<String> = cases
                .iter()
                .map(|c| format!("{} on terrain {}", TACTICS[c.tactics[k]], c.terrain))
                .collect();
            let how = match a.tactic {
                TacticChoice::BestResponse => format!(
                    "best response, found by {BEST_RESPONSE_TRIALS} simulated battles per tactic pair"
                ),
                TacticChoice::Fixed(_) => "as ordered".into(),
            };
            notes.push(format!(
                "{} tactic ({how}): {}",
                SIDES[k],
                chosen.join(", ")
            ));
        }
        notes.push(format!(
            "policy: retreat thresholds attacker {}, defender {}; pursuit attacker {}, defender {}; undecided after {} days",
            retreat_text(&armies[0]),
            retreat_text(&armies[1]),
            armies[0].pursue,
            armies[1].pursue,
            ctx.max_days
        ));
        let (schema, layout) = Layout::schema(&armies, ctx.max_days, false);
        FieldBattle {
            by_roll: forced.is_none().then_some(by_roll),
            armies,
            cases,
            schema,
            layout,
            auto_retreat_pursuit: opts.auto_retreat_pursuit,
            notes,
            hex,
            assault: false,
        }
    }

    /// The exact answer within `budget`, or why not.
    pub fn solve(&self, budget: &mut Budget) -> std::result::Result<Exact, Intractable> {
        let mut exact = Exact::zeros(&self.schema);
        for case in &self.cases {
            let e = &case.plan.engine;
            match case.plan.decided {
                Some(v) => {
                    self.finish_exact(case, e, &e.start, v, 0, case.probability, &mut exact);
                }
                None => {
                    // The engine gives each distinct ending once, in a fixed order.
                    e.solve(case.probability, budget, &mut |s, end, day, p| {
                        self.finish_exact(case, e, s, self.verdict(end), day, p, &mut exact);
                    })?;
                }
            }
        }
        Ok(exact)
    }
}

fn hex_name_static(name: &str) -> &'static str {
    HEXES.iter().find(|h| h.0 == name).map_or("plain", |h| h.0)
}

fn retreat_text(a: &Army) -> String {
    let mut parts = Vec::new();
    if let Some(m) = a.retreat_below_morale {
        parts.push(format!("morale below {:.2}", m as f64 / 100.0));
    }
    if let Some(f) = a.retreat_after_losses {
        parts.push(format!("{:.0}% of the men lost", f * 100.0));
    }
    if parts.is_empty() {
        "none (fight to the end)".into()
    } else {
        parts.join(" or ")
    }
}

impl Simulate for FieldBattle {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        out.clear(self.schema.counts.len(), self.schema.scalars.len());
        let case = match &self.by_roll {
            Some(by_roll) => &self.cases[by_roll[(dice.d(6) + dice.d(6)) as usize]],
            None => &self.cases[0],
        };
        let e = &case.plan.engine;
        let (st, v, day) = match case.plan.decided {
            None => {
                let (st, end, day) = e.play(dice);
                (st, self.verdict(end), day)
            }
            Some(v) => (e.start, v, 0),
        };
        let mut st = st;
        let mut lost = [0, 0];
        if let Some((w, col1)) = pursuit_rolls(e, &st, &v, self.auto_retreat_pursuit) {
            let before = e.total_men(&st, 1 - w);
            let row = dice.d(6) as i32;
            let col = if col1 { 0 } else { dice.d(6) as i32 };
            e.pursue(&mut st, w, row, col);
            lost[1 - w] = (before - e.total_men(&st, 1 - w)).round() as u32;
        }
        self.record(case, e, &st, v, day, lost, &mut Sink::Trial(out));
    }
}

impl BattleModel for FieldBattle {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        self.solve(&mut Budget::quick())
    }

    fn exact_patiently(&self, visible: bool) -> std::result::Result<Exact, Intractable> {
        let limit = Budget::patient(&Progress::hidden()).work;
        let progress = Progress::new(limit, "resolutions", visible);
        let answer = self.solve(&mut Budget::patient(&progress));
        progress.finish();
        answer
    }

    fn describe(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..2)
            .map(|k| format!("{}: {}", SIDES[k], self.armies[k].describe()))
            .collect();
        let terrain: Vec<String> = self
            .cases
            .iter()
            .map(|c| format!("{} ({:.1}%)", c.terrain, 100.0 * c.probability))
            .collect();
        out.push(match self.hex {
            Some(h) => format!("battle terrain rolled on {h}: {}", terrain.join(", ")),
            None if self.cases.iter().all(|c| c.terrain == CIUDAD) => {
                format!("city column (CIUDAD, battle terrain {CIUDAD})")
            }
            None => format!("battle terrain {}", terrain.join(", ")),
        });
        out
    }

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }
}

#[cfg(test)]
#[path = "field_tests.rs"]
mod tests;

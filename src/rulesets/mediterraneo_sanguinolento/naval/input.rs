//! A naval battle file: its keys, each side read into plain numbers (ships, factors, morale), and
//! the battle built from the two sides and the rule options.

use super::*;

const FLEETS: Key = Key::new(
    "fleets",
    Type::Table {
        format: "fleet type (FG FB FT FQ FTR FC FP) = number of fleets, multiples of 0.1 = single ships",
        example: "{ FT = 3, FG = 2 }",
    },
)
.required()
.help("the side's fleets by type");
const CREW_QUALITY: Key = keys::choice("quality", &QUALITY)
    .default_choice("regular")
    .help("the crews' quality");
const CREW_MORALE: Key = keys::choice("morale", &MORALE)
    .default_choice("C")
    .help("the crews' morale class (A doubles factors, B x1.5)");
const BARBARIAN: Key =
    keys::flag("barbarian").help("barbarian ships, -1 on the ram combat die (L2425)");
const CORVUS: Key = keys::flag("corvus").help("Italo-Roman corvus, boarding factors x1.2 (L5155)");
const GREEK_FIRE: Key = keys::flag("greek_fire")
    .help("fires on the archery table in every non-boarding segment (L5134-L5137)");
const EMBARKED: Key = Key::new(
    "embarked",
    Type::Table {
        format: "land unit type = number of units, within the fleets' transport capacity",
        example: "{ IM = 1 }",
    },
)
.absent("none")
.help("land units aboard (boarding factors of the NAVAL column)");
const EMBARKED_QUALITY: Key = keys::choice("embarked_quality", &QUALITY)
    .absent("the crews'")
    .help("the embarked units' quality");
const EMBARKED_MORALE: Key = keys::choice("embarked_morale", &MORALE)
    .absent("the crews'")
    .help("the embarked units' morale class");
const LEADER: Key = keys::int("leader", 0, 5)
    .absent("none, counted as 0")
    .help("the naval leader's tactical value");
const INFANTRY_LEADER: Key = keys::int("infantry_leader", 0, 5)
    .absent("none")
    .help("an infantry leader's tactical value, leading boarding at -2 (L2140)");
const COMBAT: Key = keys::choice("combat", &["ram", "boarding"])
    .default_choice("ram")
    .help("the side's order; if they differ the better naval leader decides, ties ram (L2451)");
const MATRIX: Key = keys::choice("matrix", &MATRICES)
    .default_choice("ES")
    .help("the side's naval matrix (L2673)");
const RETREAT_BELOW_MORALE: Key = keys::number("retreat_below_morale", 0.0, 6.0)
    .absent("never")
    .help("attempt a retreat when morale falls below this");
const RETREAT_AFTER_LOSSES: Key = keys::number("retreat_after_losses", 0.0, 100.0)
    .absent("never")
    .help("attempt a retreat once this % of the ships is lost");
const PURSUE: Key = keys::flag("pursue")
    .default_bool(true)
    .help("pursue a routed or withdrawing enemy");
const MAX_DAYS: Key = keys::int("max_days", 1, 365)
    .default_int(30)
    .help("days fought at most; what is still undecided is reported as `undecided`, outcome none");
const OCEAN: Key = keys::flag("ocean").help(
    "the battle is on the Atlantic or Indian ocean (+2 on the storm roll of the note on sailing on)",
);

const SIDE_KEYS: [Key; 16] = keys::placed(
    [
        FLEETS,
        CREW_QUALITY,
        CREW_MORALE,
        BARBARIAN,
        CORVUS,
        GREEK_FIRE,
        EMBARKED,
        EMBARKED_QUALITY,
        EMBARKED_MORALE,
        LEADER,
        INFANTRY_LEADER,
        COMBAT,
        MATRIX,
        RETREAT_BELOW_MORALE,
        RETREAT_AFTER_LOSSES,
        PURSUE,
    ],
    &SIDES,
);

pub const KEYS: &[Key] = &keys::join::<20>(&[&SIDE_KEYS, &[WEATHER, WINTER, OCEAN, MAX_DAYS]]);

fn input(fields: &Fields, key: &str, value: impl std::fmt::Display, allowed: &str) -> AleaError {
    AleaError::input(fields.source, fields.field(key), value, allowed)
}

/// `{ CODE = number }` tables: returns (code, value), checking codes and values.
fn read_by_code(
    side: &Fields,
    key: &Key,
    codes: &[&str],
    max: f64,
    integer: bool,
) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    let Some(Value::Table(t)) = key.raw(side)? else {
        return Ok(out);
    };
    let whole = if integer {
        "a whole number"
    } else {
        "a multiple of 0.1"
    };
    for (code, v) in t {
        let path = format!("{}.{code}", key.field(side));
        if !codes.contains(&code.as_str()) {
            return Err(AleaError::input(
                side.source,
                path,
                format!("\"{code}\""),
                format!("one of {}", codes.join(", ")),
            ));
        }
        let x = match v {
            Value::Integer(i) => *i as f64,
            Value::Float(x) if !integer => *x,
            other => {
                return Err(AleaError::input(
                    side.source,
                    path,
                    other,
                    format!("{whole} from 0 to {max}"),
                ))
            }
        };
        let tenths = x * 10.0;
        if !(0.0..=max).contains(&x) || (tenths - tenths.round()).abs() > 1e-6 {
            return Err(AleaError::input(
                side.source,
                path,
                x,
                format!("{whole} from 0 to {max}"),
            ));
        }
        out.push((code.clone(), x));
    }
    Ok(out)
}

struct SideInput {
    side: Side,
    /// Tactical value of the naval leader for the choice of combat (absent = 0).
    naval_tactical: u32,
}

fn parse_side(side: &Fields, weather_x4: u64) -> Result<SideInput> {
    let d = data();
    let mut ships = [0u32; 7];
    for (code, x) in read_by_code(side, &FLEETS, &FLEET_TYPES, 1000.0, false)? {
        let t = FLEET_TYPES
            .iter()
            .position(|c| *c == code)
            .expect("checked");
        ships[t] = (x * 10.0).round() as u32;
    }
    let n: u64 = ships.iter().map(|&s| s as u64).sum();
    if n == 0 {
        return Err(input(
            side,
            FLEETS.name,
            "no ships",
            "at least one ship, e.g. { FT = 1 }",
        ));
    }
    let quality = CREW_QUALITY.choice(side)?;
    let morale_class = CREW_MORALE.choice(side)?;
    let e_quality = EMBARKED_QUALITY.opt_choice(side)?.unwrap_or(quality);
    let e_morale = EMBARKED_MORALE.opt_choice(side)?.unwrap_or(morale_class);
    let value = |q: &str, m: &str| -> i64 {
        let i = MORALE.iter().position(|c| *c == m).expect("checked");
        let v = if q == "regular" {
            &d.morale.value.regular
        } else {
            &d.morale.value.irregular
        };
        v[i] as i64
    };
    let elite2 = |m: &str| -> u64 {
        let i = MORALE.iter().position(|c| *c == m).expect("checked");
        (d.morale.elite.factor_multiplier[i] * 2.0).round() as u64
    };
    let land_codes: Vec<&str> = d.units.iter().map(|u| u.code.as_str()).collect();
    let embarked: Vec<(String, u32)> = read_by_code(side, &EMBARKED, &land_codes, 10_000.0, true)?
        .into_iter()
        .map(|(c, x)| (c, x as u32))
        .filter(|(_, x)| *x > 0)
        .collect();
    let fleets: Vec<&data::Fleet> = FLEET_TYPES
        .iter()
        .map(|c| d.fleet(c).expect("fleet in the data"))
        .collect();
    let capacity: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].carries_units as u64)
        .sum::<u64>()
        / 10;
    let aboard: u64 = embarked.iter().map(|(_, x)| *x as u64).sum();
    if aboard > capacity {
        return Err(input(
            side,
            EMBARKED.name,
            format!("{aboard} units"),
            &format!("at most {capacity} land units, the fleets' transport capacity (L4598-L4610)"),
        ));
    }
    let barbarian = BARBARIAN.bool(side)?;
    let corvus = CORVUS.bool(side)?;
    let greek = GREEK_FIRE.bool(side)?;
    let e2 = elite2(morale_class);
    let ram: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].ram as u64)
        .sum::<u64>()
        * e2
        * weather_x4;
    let corvus_x5 = if corvus { 6 } else { 5 };
    let crew: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].boarding as u64)
        .sum::<u64>()
        * e2;
    let troops: u64 = embarked
        .iter()
        .map(|(c, x)| {
            let f = d.factor(c, data::NAVAL).expect("land unit in the data");
            10 * *x as u64 * f.round() as u64 * elite2(e_morale)
        })
        .sum();
    let board = (crew + troops) * corvus_x5 * weather_x4;
    let ram_conv = ram.max(n * e2 * weather_x4);
    let board_conv = board.max(n * 2 * e2 * corvus_x5 * weather_x4);
    let crew_value = value(quality, morale_class);
    let morale_ram = (crew_value * 100) as i32;
    let troops_n = aboard as i64 * 10; // in tenths of a unit, like ships are tenths of a fleet
    let morale_board = ((100 * (n as i64 * crew_value + troops_n * value(e_quality, e_morale)))
        / (n as i64 + troops_n)) as i32;
    let men: u64 = (0..7)
        .map(|t| ships[t] as u64 * fleets[t].crew as u64)
        .sum::<u64>()
        / 10
        + embarked
            .iter()
            .map(|(c, x)| *x as u64 * d.unit(c).expect("unit").men as u64)
            .sum::<u64>();
    let leader = LEADER.opt_int(side)?.map(|x| x as u32);
    let infantry = INFANTRY_LEADER.opt_int(side)?.map(|x| x as u32);
    let lead_ram = leader.unwrap_or(0) as usize;
    let lead_board = lead_ram.max(infantry.map_or(0, |t| t.saturating_sub(2)) as usize);
    let order_boarding = COMBAT.choice(side)? == "boarding";
    let matrix = MATRIX.choice(side)?;
    let retreat_below = RETREAT_BELOW_MORALE
        .opt_number(side)?
        .map(|x| (x * 100.0).round() as i32);
    let retreat_losses = RETREAT_AFTER_LOSSES.opt_number(side)?;
    let pursue = PURSUE.bool(side)?;
    Ok(SideInput {
        side: Side {
            ships,
            n,
            embarked,
            ram,
            board,
            ram_conv,
            board_conv,
            morale_ram,
            morale_board,
            // FQ +1 needs the enemy's FTR too: added in `NavalBattle::new`.
            ram_die: -(barbarian as i32),
            lead_ram,
            lead_board,
            naval_leader: leader,
            greek,
            corvus,
            barbarian,
            quality,
            morale_class,
            order_boarding,
            matrix,
            retreat_below,
            retreat_losses,
            pursue,
            men,
        },
        naval_tactical: leader.unwrap_or(0),
    })
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(NavalBattle::from_fields(fields, &options)?))
}

impl NavalBattle {
    pub(super) fn from_fields(fields: &Fields, options: &Options) -> Result<NavalBattle> {
        let weather = WEATHER.choice(fields)?;
        let winter = WINTER.bool(fields)?;
        let max_days = MAX_DAYS.int(fields)? as u32;
        let empty = Table::new();
        let x4 = weather_x4(weather, winter, options);
        let a = parse_side(&fields.table(SIDES[0], &empty)?, x4)?;
        let d = parse_side(&fields.table(SIDES[1], &empty)?, x4)?;
        let mut b = NavalBattle::new([a, d], weather, winter, max_days, options);
        b.ocean = OCEAN.bool(fields)?;
        Ok(b)
    }
}

/// Factors ×4: storm or snow halve (L5685), a winter month halves (L4502); together x0.25 or x0.5 (A14).
fn weather_x4(weather: &str, winter: bool, options: &Options) -> u64 {
    let storm = matches!(weather, "storm" | "snow");
    match (storm, winter) {
        (false, false) => 4,
        (true, true) if options.choice("winter_and_storm") == "both" => 1,
        _ => 2,
    }
}

impl NavalBattle {
    fn new(
        inputs: [SideInput; 2],
        weather: &'static str,
        winter: bool,
        max_days: u32,
        options: &Options,
    ) -> NavalBattle {
        let d = data();
        let [a, b] = inputs;
        let mut sides = [a.side, b.side];
        // FQ +1 only against a fleet of at least 75% FTR (L2709).
        let ftr = |s: &Side| s.ships[FTR] as u64 * 4 >= s.n * 3;
        for s in 0..2 {
            let fq = sides[s].ships[FQ] as u64 * 4 >= sides[s].n * 3;
            if fq && ftr(&sides[1 - s]) {
                sides[s].ram_die += 1;
            }
        }
        // The kind of combat (L2451).
        let (oa, od) = (sides[0].order_boarding, sides[1].order_boarding);
        let (boarding_battle, combat_reason) = if oa == od {
            (oa, "both sides ordered it".to_string())
        } else if a.naval_tactical != b.naval_tactical {
            let s = if a.naval_tactical > b.naval_tactical {
                0
            } else {
                1
            };
            (
                sides[s].order_boarding,
                format!(
                    "the {}'s naval leader is the better tactician (L2451)",
                    SIDES[s]
                ),
            )
        } else {
            (
                false,
                "orders differ and the naval leaders tie: ram (L2451)".to_string(),
            )
        };
        let reading = options.choice("naval_matrix");
        let cell = d
            .naval_cell(sides[1].matrix, sides[0].matrix)
            .expect("naval cell in the data");
        let cell = (cell.kind == "combat").then(|| {
            let attacker: &Vec<String> = match (&cell.mirror_attacker_fires, reading) {
                (Some(m), "symmetric") => m,
                (Some(m), "digest") if cell.r#use.as_deref() == Some("mirror") => m,
                _ => &cell.attacker_fires,
            };
            let codes =
                |v: &Vec<String>| -> [Code; 3] { std::array::from_fn(|i| Code::parse(&v[i])) };
            [codes(attacker), codes(&cell.defender_fires)]
        });
        let regularized = options.choice("crt") == "corrected";
        let mut cas = [[[0u32; 6]; 8]; 6];
        let mut mor = [[[0i32; 6]; 8]; 6];
        for b in 1..=5usize {
            for r in 0..=7usize {
                for c in 1..=5usize {
                    let (pc, pm) = d
                        .crt(b as u32, r as u32, c, c, regularized)
                        .expect("CRT entry");
                    cas[b][r][c] = pc.round() as u32;
                    mor[b][r][c] = (pm * 100.0).round() as i32;
                }
            }
        }
        let lead_of = |own: usize, enemy: usize| d.leadership(own, enemy).expect("LEAD");
        let lead = [
            [
                lead_of(sides[0].lead_ram, sides[1].lead_ram),
                lead_of(sides[0].lead_board, sides[1].lead_board),
            ],
            [
                lead_of(sides[1].lead_ram, sides[0].lead_ram),
                lead_of(sides[1].lead_board, sides[0].lead_board),
            ],
        ];
        let mut schema = Schema::new(OUTCOMES);
        let ships = [0, 1].map(|i| sides[i].n as usize);
        let losses = [0, 1].map(|i| schema.count(side_column(SIDES[i], LOSSES), ships[i]));
        let captured = [0, 1].map(|i| schema.count(side_column(SIDES[i], "captured"), ships[i]));
        let (boarding, undecided) = (schema.scalar("boarding"), schema.scalar("undecided"));
        let days = schema.scalar_bounded("days", max_days as f64);
        let mut per_side = |group: &str, bound: [f64; 2]| {
            [0, 1].map(|i| schema.scalar_bounded(format!("{group}/{}", SIDES[i]), bound[i]))
        };
        let ships_bound = ships.map(|n| n as f64);
        let columns = Columns {
            losses,
            captured,
            boarding,
            undecided,
            days,
            retreat_tried: per_side("retreat_attempted", [1.0; 2]),
            retreat_ok: per_side("retreat_succeeded", [1.0; 2]),
            morale: per_side("morale_left", [10.0; 2]),
            men: per_side("men_lost", [0, 1].map(|i| sides[i].men.max(1) as f64)),
            pursuit: per_side("pursuit_losses", ships_bound),
            damaged: per_side("ships_damaged", ships_bound),
            sunk: per_side("ships_sunk", ships_bound),
            segments: schema.scalar_bounded("segments", 3.0 * max_days as f64),
        };
        NavalBattle {
            ocean: false,
            sides,
            cell,
            boarding_battle,
            combat_reason,
            cas,
            mor,
            block_first_digit: options.choice("crt_block") == "first-digit",
            separate_morale_die: options.choice("morale_die") == "separate",
            floor_factors: options.flag("floor_factor_casualties"),
            persists: options.flag("boarding_persists"),
            retreat_target: options.int("naval_retreat_target") as i32,
            rain: if weather == "rain" { -1 } else { 0 },
            weather,
            winter,
            weather_x4: weather_x4(weather, winter, options),
            max_segments: (3 * max_days) as u16,
            max_days,
            lead,
            schema,
            columns,
        }
    }
}

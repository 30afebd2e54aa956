//! Amphibious landing (XXV.E, L2268-2286; digest §3.9, §8.4).
//!
//! A naval transport to an enemy or empty coastal province with one sea-risk roll, D10 + m ≥ 5,
//! before any interception: −2 unless the nation controls a city on the target's coast that is
//! coastal to the last sea zone crossed, +1 for Rome / Byzantium on a Mediterranean or Pontus
//! Euxinus coast, ± an event; no roll for a Barbarian nation invading Britannia or for amphibious
//! units. A successful landing may then be intercepted by an enemy naval stack (automatic or D2,
//! XXV.B) and the naval battle fought (the naval procedure's model); the units landed are at most
//! 3 per fleet still afloat (L2266, L2286). The active stack refusing the battle cancels the
//! transport.

use super::naval::{
    check_coastal, parse_policy, parse_side, parse_system, weighted_records, Kind, Naval, Refuse,
    Rules, Side,
};
use super::naval_input::{FLEETS, POLICY_KEYS, SEA, SIDE_KEYS, SYSTEM_KEYS};
use crate::battle::keys::{self, Key};
use crate::battle::{side_column, Exact, Schema, Simulate, Trial};
use crate::battle::{BattleModel, Intractable};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

pub const SUMMARY: &str =
    "amphibious landing: sea-risk roll, then an optional naval interception and battle (XXV.E)";
pub const OUTCOMES: &[&str] = &["landed", "failed", "turned_back"];
use super::{ATTACKER, DEFENDER, SIDES};
const LANDING_CARRIED: Key = keys::int("carried", 1, 6)
    .required()
    .help("land units transported, at most 3 per fleet");
const CITY_ON_COAST: Key = keys::flag("city_on_coast").help(
    "the nation controls a (built) city on the target's coast, coastal to the last sea zone crossed: no -2",
);
const AMPHIBIOUS: Key =
    keys::flag("amphibious").help("the landing units are amphibious: no sea-risk roll");
const DEFENDER_FLEETS: Key = FLEETS.absent("").help(
    "fleets of the intercepting naval stack, at most 2 (required unless interception = \"none\")",
);
const BRITANNIA: Key =
    keys::flag("britannia").help("a Barbarian nation invading Britannia: no sea-risk roll");
const EVENT: Key = keys::int("event", -3, 3)
    .default_int(0)
    .help("the Storm / Expert Navigation event's modifier to the sea-risk roll");
const INTERCEPTION: Key = keys::choice("interception", INTERCEPTIONS)
    .absent("\"d2\" with a [defender], else \"none\"")
    .help("\"automatic\": the interceptor controls every coastal city of the zone");

pub const KEYS: &[Key] = &keys::join::<24>(&[
    &keys::placed(SIDE_KEYS, ATTACKER),
    &[
        LANDING_CARRIED.at(ATTACKER),
        CITY_ON_COAST.at(ATTACKER),
        AMPHIBIOUS.at(ATTACKER),
        DEFENDER_FLEETS.at(DEFENDER),
    ],
    &keys::placed(
        [
            SIDE_KEYS[1],
            SIDE_KEYS[2],
            SIDE_KEYS[3],
            SIDE_KEYS[4],
            SIDE_KEYS[5],
        ],
        DEFENDER,
    ),
    &keys::placed(POLICY_KEYS, &["policy"]),
    &SYSTEM_KEYS,
    &[BRITANNIA, EVENT, INTERCEPTION],
]);

const INTERCEPTIONS: &[&str] = &["none", "automatic", "d2"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interception {
    None,
    Automatic,
    D2,
}

impl Interception {
    fn probability(self) -> f64 {
        match self {
            Interception::None => 0.0,
            Interception::Automatic => 1.0,
            Interception::D2 => 0.5,
        }
    }
}

/// What decides the sea-risk roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeaRisk {
    pub city_on_coast: bool,
    pub rome_byzantium: bool,
    pub mediterranean: bool,
    pub event: i32,
    /// Amphibious units, or a Barbarian nation invading Britannia: no roll.
    pub exempt: bool,
}

impl SeaRisk {
    /// The D10 modifier (L2276-2279).
    pub fn modifier(&self) -> i32 {
        let coast = if self.city_on_coast { 0 } else { -2 };
        let roman = i32::from(self.rome_byzantium && self.mediterranean);
        coast + roman + self.event
    }

    /// P(D10 + m ≥ 5) = clamp((6 + m)/10), or 1 without a roll.
    pub fn success(&self) -> f64 {
        if self.exempt {
            1.0
        } else {
            (f64::from(6 + self.modifier()) / 10.0).clamp(0.0, 1.0)
        }
    }
}

/// Units landed by a transport of `carried` units with `afloat` fleets left (L2266, L2286).
pub fn units_landed(carried: u8, afloat: u8) -> u8 {
    carried.min(3 * afloat)
}

pub struct Landing {
    risk: SeaRisk,
    interception: Interception,
    /// The naval battle if intercepted (attacker = the transporting stack).
    naval: Naval,
    carried: u8,
    britannia: bool,
    amphibious: bool,
    has_defender: bool,
    schema: Schema,
}

/// How one landing went.
#[derive(Clone, Copy, Debug)]
enum Course {
    SeaFailure,
    Unopposed,
    Battle(super::naval::End),
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let attacker_fields = fields.table(SIDES[0], &empty)?;
    let city_on_coast = CITY_ON_COAST.bool(&attacker_fields)?;
    let amphibious = AMPHIBIOUS.bool(&attacker_fields)?;
    let (attacker, carried) = parse_side(&attacker_fields, true)?;
    if carried == 0 {
        return Err(LANDING_CARRIED.missing(&attacker_fields));
    }
    let has_defender = fields.has(SIDES[1]);
    let interception =
        match INTERCEPTION
            .opt_choice(fields)?
            .unwrap_or(if has_defender { "d2" } else { "none" })
        {
            "automatic" => Interception::Automatic,
            "d2" => Interception::D2,
            _ => Interception::None,
        };
    let defender = if has_defender {
        parse_side(&fields.table(SIDES[1], &empty)?, false)?.0
    } else if interception != Interception::None {
        return Err(AleaError::input(
            fields.source,
            FLEETS.field_in(SIDES[1]),
            "missing",
            "the intercepting naval stack, 1 or 2 fleets (or interception = \"none\")",
        ));
    } else {
        Side::new(1)
    };
    check_coastal(fields, &[attacker, defender])?;
    let mediterranean = SEA.choice(fields)? == "mediterranean";
    let system = parse_system(fields)?;
    let policy = parse_policy(&fields.table("policy", &empty)?)?;
    let event = EVENT.int(fields)? as i32;
    let britannia = BRITANNIA.bool(fields)?;
    let risk = SeaRisk {
        city_on_coast,
        rome_byzantium: attacker.rome_byzantium,
        mediterranean,
        event,
        exempt: amphibious || (britannia && attacker.kind == Kind::Barbarian),
    };
    let naval = Naval::new(
        [attacker, defender],
        carried,
        system,
        mediterranean,
        Rules::from_options(&options),
        policy,
    );
    Ok(Box::new(Landing::new(
        risk,
        interception,
        naval,
        has_defender,
        britannia,
        amphibious,
    )))
}

impl Landing {
    pub fn new(
        risk: SeaRisk,
        interception: Interception,
        naval: Naval,
        has_defender: bool,
        britannia: bool,
        amphibious: bool,
    ) -> Landing {
        let carried = naval.carried;
        let mut schema = Schema::new(OUTCOMES);
        schema.count("units_landed", carried as usize);
        schema.count("units_lost_at_sea", carried as usize);
        schema.count(
            side_column(SIDES[0], "fleets_lost"),
            naval.sides[0].fleets as usize,
        );
        let defender_max = if interception == Interception::None {
            0
        } else {
            naval.sides[1].fleets as usize
        };
        schema.count(side_column(SIDES[1], "fleets_lost"), defender_max);
        schema.scalar("sea_risk_failure");
        schema.scalar("intercepted");
        for outcome in super::naval::OUTCOMES {
            schema.scalar(format!("naval_battle/{outcome}"));
        }
        for side in SIDES {
            schema.scalar(side_column(side, "leader_killed"));
        }
        schema.scalar(format!("vp_to_{}", SIDES[0]));
        Landing {
            risk,
            interception,
            naval,
            carried,
            britannia,
            amphibious,
            has_defender,
            schema,
        }
    }

    fn record(&self, course: &Course, out: &mut Trial) {
        match course {
            Course::SeaFailure => {
                out.outcome = 1;
                out.scalars[0] = 1.0;
            }
            Course::Unopposed => {
                out.outcome = 0;
                out.counts[0] = self.carried as u32;
            }
            Course::Battle(end) => {
                let r = self.naval.result(end);
                let landed = if end.refused == Some(0) {
                    0
                } else {
                    units_landed(self.carried, end.stacks[0].alive())
                };
                out.outcome = if landed > 0 { 0 } else { 2 };
                out.counts[0] = landed as u32;
                out.counts[1] = r.carried_lost as u32;
                out.counts[2] = r.lost[0] as u32;
                out.counts[3] = r.lost[1] as u32;
                out.scalars[1] = 1.0;
                out.scalars[2 + r.winner] = 1.0;
                out.scalars[5] = f64::from(u8::from(r.leader_killed[0]));
                out.scalars[6] = f64::from(u8::from(r.leader_killed[1]));
                out.scalars[7] = r.vp_to_attacker as f64;
            }
        }
    }
}

impl Simulate for Landing {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let course = if !self.risk.exempt && (dice.d10() as i32) + self.risk.modifier() < 5 {
            Course::SeaFailure
        } else {
            let intercepted = match self.interception {
                Interception::None => false,
                Interception::Automatic => true,
                Interception::D2 => dice.d10().is_multiple_of(2),
            };
            if intercepted {
                Course::Battle(self.naval.simulate(dice))
            } else {
                Course::Unopposed
            }
        };
        self.record(&course, out);
    }
}

impl BattleModel for Landing {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let success = self.risk.success();
        let intercepted = success * self.interception.probability();
        let battles = if intercepted > 0.0 {
            self.naval.ends()
        } else {
            Vec::new()
        };
        let courses = [
            (Course::SeaFailure, 1.0 - success),
            (Course::Unopposed, success - intercepted),
        ]
        .into_iter()
        .chain(
            battles
                .into_iter()
                .map(|(end, p)| (Course::Battle(end), intercepted * p)),
        );
        Ok(weighted_records(&self.schema, courses, |course, t| {
            self.record(course, t)
        }))
    }

    fn describe(&self) -> Vec<String> {
        let mut first = self.naval.describe_side(0);
        if self.risk.exempt {
            first += if self.amphibious {
                "; amphibious units: no sea-risk roll"
            } else {
                "; a Barbarian nation invading Britannia: no sea-risk roll"
            };
        } else {
            let mut parts = vec![if self.risk.city_on_coast {
                "a friendly city on the target's coast (no −2)".to_string()
            } else {
                "no friendly city on the target's coast −2".to_string()
            }];
            if self.risk.rome_byzantium && self.risk.mediterranean {
                parts.push("Rome/Byzantium on a Mediterranean coast +1".into());
            }
            if self.risk.event != 0 {
                parts.push(format!("event {:+}", self.risk.event));
            }
            first += &format!(
                "; sea risk: {} = {:+} → P(D10 + m ≥ 5) = {:.1}",
                parts.join(", "),
                self.risk.modifier(),
                self.risk.success()
            );
        }
        let second = match self.interception {
            Interception::None => format!("{}: no naval interception", SIDES[1]),
            Interception::Automatic => {
                format!("{}; interception automatic", self.naval.describe_side(1))
            }
            Interception::D2 => format!("{}; interception on a D2", self.naval.describe_side(1)),
        };
        vec![first, second]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = vec![
            "outcomes: landed = at least one unit ashore; failed = the sea-risk roll failed (the units stay, movement spent); turned_back = intercepted and no unit ashore (transport refused or every fleet sunk)".to_string(),
            "units landed = min(carried, 3 × fleets afloat after the naval battle, before recovery); the carried land leader is not modelled".to_string(),
        ];
        if self.britannia && !self.risk.exempt {
            notes.push("britannia: only a Barbarian nation skips the sea-risk roll".into());
        }
        if self.interception != Interception::None {
            notes.extend(self.naval.notes());
            if self.naval.policy.refuse == Refuse::Attacker {
                notes.push(
                    "policy: refuse = attacker cancels the transport when intercepted".into(),
                );
            }
        } else if self.has_defender {
            notes.push("interception = none: the [defender] stack is ignored".into());
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::mix64;
    use crate::rulesets::invasions::naval::{End, Policy, Stack, System};
    use crate::rulesets::invasions::test_support::{
        assert_agrees, assert_input_error, exact, model, near,
    };

    const CAESAREA: &str = "sea = \"mediterranean\"\ninterception = \"none\"\n[attacker]\nfleets = 2\ncarried = 5\nkind = \"empire\"\nrome_byzantium = true\n";

    #[test]
    fn t19_cartaginensis_to_caesarea() {
        // Saldae enemy-held: −2 + 1 (Roman, Mediterranean) = −1 → P = 0.5.
        let risk = SeaRisk {
            city_on_coast: false,
            rome_byzantium: true,
            mediterranean: true,
            event: 0,
            exempt: false,
        };
        assert_eq!(risk.modifier(), -1);
        assert!(near(risk.success(), 0.5));
        let ex = exact(CAESAREA, build);
        assert!(near(ex.scalars[0], 0.5));
        assert!(near(ex.counts[0].get(5), 0.5));
        // Hippo Regius built and friendly: no −2, +1 → P = 0.7.
        let hippo = SeaRisk {
            city_on_coast: true,
            ..risk
        };
        assert_eq!(hippo.modifier(), 1);
        assert!(near(hippo.success(), 0.7));
        let text = CAESAREA.replace("carried = 5\n", "carried = 5\ncity_on_coast = true\n");
        let ex = exact(&text, build);
        assert!(near(ex.outcomes[0], 0.7));
    }

    #[test]
    fn t19_stilicho_five_units_on_one_fleet_left_land_three() {
        assert_eq!(units_landed(5, 1), 3);
        assert_eq!(units_landed(5, 2), 5);
        assert_eq!(units_landed(5, 0), 0);
        let naval = Naval::new(
            [
                Side {
                    rome_byzantium: true,
                    ..Side::new(2)
                },
                Side::new(2),
            ],
            5,
            System::Basic,
            true,
            Rules::default(),
            Policy::default(),
        );
        let landing = Landing::new(
            SeaRisk {
                city_on_coast: false,
                rome_byzantium: true,
                mediterranean: true,
                event: 0,
                exempt: false,
            },
            Interception::Automatic,
            naval,
            true,
            false,
            false,
        );
        let mut t = Trial::default();
        let end = End {
            refused: None,
            stacks: [Stack { tough: 0, other: 1 }, Stack { tough: 0, other: 2 }],
            hits: [0, 1],
        };
        landing.record(&Course::Battle(end), &mut t);
        assert_eq!(t.outcome, 0);
        assert_eq!(t.counts[0], 3);
        assert_eq!(t.counts[1], 2);
        // Intercepted for sure: the units landed are 5 (no fleet sunk), 3 (one) or 0 (both).
        let ex = landing.exact().unwrap();
        assert!(near(ex.scalars[1], 0.5));
        let support: Vec<usize> = (0..=5).filter(|&k| ex.counts[0].get(k) > 0.0).collect();
        assert_eq!(support, vec![0, 3, 5]);
    }

    #[test]
    fn analytic_landing_with_a_d2_interception() {
        // Sea risk m = −2 → 0.4; D2 interception; 1 standard fleet each, no rerolls: the transport
        // sinks with probability 1/3. P(landed) = 0.4·(1/2 + 1/2·2/3), P(turned back) = 0.4·1/2·1/3.
        let text = "[attacker]\nfleets = 1\ncarried = 2\n[defender]\nfleets = 1\n";
        let ex = exact(text, build);
        assert!(near(ex.outcomes[1], 0.6));
        assert!(near(ex.outcomes[0], 0.4 * (0.5 + 0.5 * 2.0 / 3.0)));
        assert!(near(ex.outcomes[2], 0.4 * 0.5 / 3.0));
        assert!(near(ex.scalars[1], 0.2));
        assert!(near(ex.scalars[2] + ex.scalars[3] + ex.scalars[4], 0.2));
        // Amphibious units and Barbarians into Britannia skip the roll; an event shifts it.
        let amph = "[attacker]\nfleets = 1\ncarried = 2\namphibious = true\n";
        assert!(near(exact(amph, build).outcomes[0], 1.0));
        let brit = "britannia = true\n[attacker]\nfleets = 1\ncarried = 2\nkind = \"barbarian\"\n";
        assert!(near(exact(brit, build).outcomes[0], 1.0));
        let storm = "event = -3\n[attacker]\nfleets = 1\ncarried = 2\n";
        assert!(near(exact(storm, build).outcomes[0], 0.1));
        // Refusals: the transport is cancelled, or the interceptor pays 1 VP and everyone lands.
        let refuse = "interception = \"automatic\"\n[policy]\nrefuse = \"attacker\"\n[attacker]\nfleets = 1\ncarried = 2\ncity_on_coast = true\n[defender]\nfleets = 2\n";
        let ex = exact(refuse, build);
        assert!(near(ex.outcomes[2], 0.6) && near(ex.outcomes[0], 0.0));
        let refuse = refuse.replace("\"attacker\"", "\"defender\"");
        let ex = exact(&refuse, build);
        assert!(near(ex.outcomes[0], 0.6) && near(ex.scalars[7], 0.6));
    }

    fn grid_case(i: u64) -> String {
        let r = |k: u64, n: u64| mix64(i * 47 + k + 1000) % n;
        let mut text = String::new();
        if r(1, 3) == 0 {
            text += "system = \"advanced\"\n";
        }
        text += &format!(
            "sea = \"{}\"\n",
            ["mediterranean", "other"][r(2, 2) as usize]
        );
        let interception = ["none", "automatic", "d2"][r(3, 3) as usize];
        text += &format!(
            "interception = \"{interception}\"\nevent = {}\n",
            r(4, 5) as i64 - 2
        );
        let barbarian = r(5, 3) == 0;
        if barbarian && r(6, 2) == 0 {
            text += "britannia = true\n";
        }
        text += &format!(
            "[options]\nnaval_red_swords = {}\nnaval_small_battle_recovery = {}\n",
            r(7, 2) == 0,
            r(8, 3) != 0
        );
        if r(9, 6) == 0 {
            text += &format!("[policy]\nrefuse = \"{}\"\n", SIDES[r(10, 2) as usize]);
        }
        let fleets = 1 + r(11, 2);
        text += &format!(
            "[attacker]\nfleets = {fleets}\nelite = {}\ncarried = {}\ncity_on_coast = {}\namphibious = {}\n",
            r(12, fleets + 1),
            1 + r(13, 3 * fleets),
            r(14, 2) == 0,
            r(15, 8) == 0
        );
        if barbarian {
            text += "kind = \"barbarian\"\n";
        } else if r(16, 2) == 0 {
            text += "rome_byzantium = true\n";
        }
        if r(17, 2) == 0 {
            text += &format!("leader = {}\n", r(18, 4));
        }
        if interception != "none" || r(19, 2) == 0 {
            let dfleets = 1 + r(20, 2);
            text += &format!(
                "[defender]\nfleets = {dfleets}\nelite = {}\n",
                r(21, dfleets + 1)
            );
            if r(22, 2) == 0 {
                text += &format!("leader = {}\n", r(23, 4));
            }
        }
        text
    }

    #[test]
    fn exact_and_monte_carlo_agree_on_a_grid() {
        for i in 0..40u64 {
            let text = grid_case(i);
            let m = model(&text, build).unwrap();
            assert_agrees(&*m, 20_000, 19, i, &format!("{i}:\n{text}"));
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        for (text, field) in [
            ("event = 5\n[attacker]\nfleets = 1\ncarried = 2\n", "event"),
            (
                "interception = \"d2\"\n[attacker]\nfleets = 1\ncarried = 2\n",
                "defender.fleets",
            ),
            ("[attacker]\nfleets = 1\n", "attacker.carried"),
            (
                "[attacker]\nfleets = 1\ncarried = 1\nrowing = 1\n",
                "attacker.rowing",
            ),
        ] {
            assert_input_error(build, text, field);
        }
    }
}

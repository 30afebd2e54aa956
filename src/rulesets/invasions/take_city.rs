//! "Win the battle and take the city": a land battle chained to the siege its winner must lay to
//! take the province (digest §8.2 outputs, §3.8; XII.B L723). The besieger is the attacker's stack
//! as the battle leaves it (after recovery and repair), led by its leader if he survived.

use super::army::{self, Status};
use super::land::{Side, ATTACKER};
use super::siege::{self, Nation, Siege, Situation, Walls};
use crate::battle::keys::{self, Key};
use crate::battle::BattleModel;
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::options::Options;
use crate::spec::Fields;

const CITY: &[&str] = &["city"];
const WALLS: Key = keys::choice("walls", siege::WALLS)
    .absent("\"standard\" with fortified_city, else \"none\"")
    .help("the city's walls: the winning attacker then besieges the city (reported as city_taken)");
const DECLINE: Key = keys::choice("decline", &["none", "simple", "double"])
    .default_choice("none")
    .help("the defending Empire's decline, for the siege");
const FLEET: Key = keys::flag("fleet").help("the besieged city is supplied by a fleet");
const TURN: Key = keys::int("turn", 1, 12)
    .default_int(1)
    .help("the game turn of the siege");
const EVENT: Key = keys::int("event", -5, 5)
    .default_int(0)
    .help("an event card's modifier to the siege");
/// `[city]`: the siege the winning attacker lays afterwards.
pub const CITY_KEYS: [Key; 5] = keys::placed([WALLS, DECLINE, FLEET, TURN, EVENT], CITY);

/// One siege per reachable besieging stack, solved once.
pub struct CityPlan {
    /// Indexed by [units][elites][leader alive].
    sieges: Vec<Siege>,
    p_taken: Vec<f64>,
    elites_max: u32,
    pub description: String,
}

impl CityPlan {
    /// Reads `[city]`; None when the battle file has none.
    pub fn parse(
        fields: &Fields,
        attacker: &Side,
        fortified_city: bool,
        options: &Options,
    ) -> Result<Option<CityPlan>> {
        if !fields.has("city") {
            return Ok(None);
        }
        let empty = toml::Table::new();
        let city = fields.table("city", &empty)?;
        let default_walls = if fortified_city { "standard" } else { "none" };
        let walls_name = WALLS.opt_choice(&city)?.unwrap_or(default_walls);
        let walls = Walls::parse(walls_name);
        if walls.fortified() != fortified_city {
            return Err(AleaError::input(
                fields.source,
                "city.walls",
                format!("\"{walls_name}\""),
                if fortified_city {
                    "fortified walls (standard, roma, ctesiphon, ravenna, constantinople, theodosian): the battle is fought at a fortified city"
                } else {
                    "\"none\", or set fortified_city = true"
                },
            ));
        }
        let decline = match DECLINE.choice(&city)? {
            "simple" => 1,
            "double" => 2,
            _ => 0,
        };
        let situation = Situation {
            nation: match (attacker.status, attacker.nomad) {
                (Status::Barbarian, true) => Nation::Nomad,
                (Status::Barbarian, false) => Nation::Barbarian,
                _ => Nation::Civilized,
            },
            walls,
            decline,
            fleet: FLEET.bool(&city)?,
            event: EVENT.int(&city)? as i32,
        };
        let turn = TURN.int(&city)? as u32;
        let units_max = attacker.stack.total();
        let elites_max = attacker
            .classes()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.two_hit)
            .map(|(k, _)| (attacker.stack.intact[k] + attacker.stack.damaged[k]) as u32)
            .sum::<u32>();
        let mut sieges = Vec::new();
        let mut p_taken = Vec::new();
        for units in 0..=units_max {
            for elites in 0..=elites_max {
                for alive in [false, true] {
                    let stack = siege::Stack {
                        units: units.max(1),
                        elites: elites.min(units),
                    };
                    let leader = if alive { attacker.leader } else { None };
                    let mut s = Siege::new(situation, leader, stack, turn, 1);
                    s.hits_per_reroll = options.flag("assault_hits_per_reroll");
                    s.terror_each_arrival = options.flag("terror_each_arrival");
                    s.rebuild_schema();
                    let p = if units == 0 {
                        0.0
                    } else {
                        s.exact().map(|e| e.outcomes[0]).unwrap_or(0.0)
                    };
                    sieges.push(s);
                    p_taken.push(p);
                }
            }
        }
        let description = format!(
            "then the siege of the city: walls {walls_name}, modifier {:+} without assault (turn {turn}); assault policy auto",
            situation.modifier(turn, false)
        );
        Ok(Some(CityPlan {
            sieges,
            p_taken,
            elites_max,
            description,
        }))
    }

    fn index(&self, units: u32, elites: u32, alive: bool) -> usize {
        ((units * (self.elites_max + 1) + elites.min(self.elites_max)) * 2 + alive as u32) as usize
    }

    /// The besieging stack the battle leaves: (units, intact elites).
    pub fn besiegers(attacker: &Side, survivors: &army::Army, count: u32) -> (u32, u32) {
        let elites = attacker
            .classes()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.two_hit)
            .map(|(k, _)| (survivors.intact[k] + attacker.waiting.intact[k]) as u32)
            .sum();
        (count, elites)
    }

    /// P(the city falls) for this stack, its leader alive with probability `alive`.
    pub fn p_taken(&self, units: u32, elites: u32, alive: f64) -> f64 {
        alive * self.p_taken[self.index(units, elites, true)]
            + (1.0 - alive) * self.p_taken[self.index(units, elites, false)]
    }

    /// Plays the siege with real dice.
    pub fn play(&self, units: u32, elites: u32, alive: bool, dice: &mut Dice) -> bool {
        if units == 0 {
            return false;
        }
        let s = &self.sieges[self.index(units, elites, alive)];
        s.play(&mut || dice.d10()).taken_turn > 0
    }
}

/// Whether the attacker won (the only case a siege follows).
pub fn attacker_won(winner: usize) -> bool {
    winner == ATTACKER
}

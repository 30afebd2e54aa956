//! The expedition battle's keys: reading a battle file's fields into an [`Expedition`].

use super::*;

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let naval = ROUTE.choice(fields)? == "naval";
    let a_fields = fields.table(SIDES[0], &empty)?;
    let a = parse_force(&a_fields, naval, &CARDS_FORCE)?;
    let Force::Cards(cf) = a else {
        return Err(AleaError::input(
            fields.source,
            CARDS_FORCE.field(&a_fields),
            "a non-card force",
            "\"cards\": an expedition is a player's cards (non-player forces: use field, naval and assault)",
        ));
    };
    if !naval && !cf.fleets.is_empty() {
        return Err(AleaError::input(
            fields.source,
            FLEETS.field(&a_fields),
            format!("{} fleets", cf.fleets.len()),
            "no fleets on a land route (L659-L661); set route = \"naval\"",
        ));
    }
    if cf.troops.len() + cf.fleets.len() > MAX_CARDS || cf.troops.len() + cf.fleets.len() == 0 {
        return Err(AleaError::input(
            fields.source,
            TROOPS.field(&a_fields),
            format!("{} cards", cf.troops.len() + cf.fleets.len()),
            format!("1 to {MAX_CARDS} Troop and Fleet cards"),
        ));
    }
    let weather = super::super::strait::weather(fields, &WEATHER)?;
    let straits = STRAITS.int(fields)? as u32;
    let interceptor = |key: &'static str| -> Result<Option<Force>> {
        if !fields.has(key) {
            return Ok(None);
        }
        let f = parse_force(
            &fields.table(key, &empty)?,
            key == "naval_interception",
            &SEA_FORCE,
        )?;
        if matches!(f, Force::Barbarian { .. }) {
            return Err(AleaError::input(
                fields.source,
                format!("{key}.force"),
                "\"barbarian\"",
                "\"cards\" or \"neutral\": only the attacked city's owner intercepts",
            ));
        }
        Ok(Some(f))
    };
    let naval_interception = interceptor("naval_interception")?;
    let land_interception = interceptor("land_interception")?;
    if naval_interception.is_some() && !naval {
        return Err(AleaError::input(
            fields.source,
            "naval_interception",
            "a table",
            "nothing on a land route: a naval interception needs a naval leg (L743-L747)",
        ));
    }
    let t = fields.table("target", &empty)?;
    let target = match TARGET_KIND.choice(&t)? {
        "barbarian" => {
            keys::only(&t, AREA_KEYS, "to a barbarian area (kind = \"barbarian\")")?;
            let dice = STRENGTH.int(&t)? as u32 + ENRAGED.int(&t)? as u32;
            Target::Barbarian { dice }
        }
        _ => {
            keys::only(&t, CITY_KEYS, "to a city (kind = \"city\")")?;
            let city = super::super::assault::parse_city(&t)?;
            let (helpers, modifier) = super::super::assault::parse_helpers(&t)?;
            Target::City {
                size: city.size,
                dice: city.dice + helpers,
                player_owner: city.player_owner,
                modifier,
            }
        }
    };
    if matches!(target, Target::Barbarian { .. })
        && (naval_interception.is_some() || land_interception.is_some())
    {
        return Err(AleaError::input(
            fields.source,
            "land_interception",
            "a table",
            "nothing: an expedition against a barbarian area cannot be intercepted (L1000-L1005)",
        ));
    }
    let arrival = ARRIVAL.choice(fields)?;
    let direct = arrival == "direct";
    let assault_extra_dice = ASSAULT_EXTRA_DICE.int(fields)? as u32;
    if arrival == "march" && !naval {
        return Err(AleaError::input(
            fields.source,
            "arrival",
            "\"march\"",
            "\"direct\" or \"landing\" on a land route: a march is the land leg after a naval one (route = \"naval\")",
        ));
    }
    let route = Route {
        march: arrival == "march",
        land_first: LAND_AT.choice(fields)? == "departure",
    };
    Ok(Box::new(
        Expedition::new(
            cf,
            naval,
            straits,
            weather,
            naval_interception,
            land_interception,
            target,
            direct,
            assault_extra_dice,
            &options,
        )
        .with_route(route),
    ))
}

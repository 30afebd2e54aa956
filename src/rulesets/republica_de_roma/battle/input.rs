//! Reading a Roman battle: the war card and its leaders, the army, and the battle built from them.

use super::*;

fn numbers(f: &Fields, list: &Key) -> Result<Option<Vec<u32>>> {
    let key = list.name;
    match list.raw(f)? {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::Integer(i) if (3..=18).contains(i) => Ok(*i as u32),
                other => Err(AleaError::input(
                    f.source,
                    f.field(key),
                    other,
                    "a list of 3d6 totals, 3 to 18",
                )),
            })
            .collect::<Result<Vec<u32>>>()
            .map(Some),
        Some(other) => Err(AleaError::input(
            f.source,
            f.field(key),
            other,
            "a list of 3d6 totals, e.g. [13] or [11, 14]",
        )),
    }
}

fn parse_war(war: &Fields) -> Result<WarCard> {
    let mut card = match WAR_NAME.text(war)? {
        Some(name) => WarCard::from_data(find(
            &data().wars,
            |w| &w.name,
            war.source,
            "war.name",
            name,
        )?),
        None => {
            if !LAND_STRENGTH.has(war) {
                return Err(AleaError::invalid(
                    war.source,
                    "[war] needs `name` (a war from the data) or at least `land_strength` (raw numbers)",
                ));
            }
            WarCard {
                name: "a war given by its numbers".into(),
                series: String::new(),
                land: 0,
                naval: 0,
                fleet_support: 0,
                disaster: Vec::new(),
                standoff: Vec::new(),
                spoils: 0,
                revolt: false,
            }
        }
    };
    if let Some(v) = LAND_STRENGTH.opt_int(war)? {
        card.land = v as u32;
    }
    if let Some(v) = NAVAL_STRENGTH.opt_int(war)? {
        card.naval = v as u32;
    }
    if let Some(v) = FLEET_SUPPORT.opt_int(war)? {
        card.fleet_support = v as u32;
    }
    if let Some(v) = numbers(war, &DISASTER_NUMBERS)? {
        card.disaster = v;
    }
    if let Some(v) = numbers(war, &STANDOFF_NUMBERS)? {
        card.standoff = v;
    }
    if let Some(v) = SPOILS.opt_int(war)? {
        card.spoils = v as u32;
    }
    if let Some(v) = REVOLT.opt_bool(war)? {
        card.revolt = v;
    }
    if let Some(v) = SERIES.text(war)? {
        card.series = v.to_string();
    }
    Ok(card)
}

fn parse_leaders(f: &Fields) -> Result<Vec<Leader>> {
    let Some(value) = ENEMY_LEADERS.raw(f)? else {
        return Ok(Vec::new());
    };
    let Value::Array(items) = value else {
        return Err(AleaError::input(
            f.source,
            "enemy_leaders",
            value,
            "a list of leader names, e.g. [\"Hannibal\"]",
        ));
    };
    items
        .iter()
        .map(|v| match v {
            Value::String(name) => {
                let l = find(
                    &data().leaders,
                    |l| &l.name,
                    f.source,
                    "enemy_leaders",
                    name,
                )?;
                Ok(Leader {
                    name: l.name.clone(),
                    strength: l.strength,
                    disaster: l.disaster.clone(),
                    standoff: l.standoff.clone(),
                })
            }
            other => Err(AleaError::input(
                f.source,
                "enemy_leaders",
                other,
                "leader names from the data",
            )),
        })
        .collect()
}

pub fn build_land(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    RomanBattle::build(fields, options, Kind::Land).map(|b| Box::new(b) as Box<dyn BattleModel>)
}

pub fn build_naval(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    RomanBattle::build(fields, options, Kind::Naval).map(|b| Box::new(b) as Box<dyn BattleModel>)
}

impl RomanBattle {
    pub(super) fn build(fields: &Fields, options: Options, kind: Kind) -> Result<RomanBattle> {
        Self::build_kind(fields, options, kind, false)
    }

    /// `after_naval_victory`: a land battle fought right after beating the war's fleet.
    pub(crate) fn build_kind(
        fields: &Fields,
        options: Options,
        kind: Kind,
        after_naval_victory: bool,
    ) -> Result<RomanBattle> {
        let empty = Table::new();
        let rome = fields.table("rome", &empty)?;
        Self::build_army(fields, &rome, options, kind, after_naval_victory)
    }

    /// The battle of the army `rome` (`[rome]`, or an entry of `[[armies]]`) against the war of
    /// `fields`.
    pub(crate) fn build_army(
        fields: &Fields,
        rome: &Fields,
        options: Options,
        kind: Kind,
        after_naval_victory: bool,
    ) -> Result<RomanBattle> {
        let empty = Table::new();
        let (regular, veteran, fleets) = (
            LEGIONS.int(rome)? as u32,
            VETERAN_LEGIONS.int(rome)? as u32,
            FLEETS.int(rome)? as u32,
        );
        if regular + veteran > MAX_UNITS {
            return Err(AleaError::input(
                fields.source,
                VETERAN_LEGIONS.field(rome),
                veteran,
                format!("at most {MAX_UNITS} legions in all (L635)"),
            ));
        }
        let war = parse_war(&fields.table("war", &empty)?)?;
        let naval_victory =
            after_naval_victory || NAVAL_VICTORY.bool(&fields.table("war", &empty)?)?;
        let leaders = parse_leaders(fields)?;
        let matching = MATCHING_WARS.int(fields)? as u32;
        let omens = EVIL_OMENS.int(fields)? as i32;

        // The commander: a statesman or family senator from the data, or a bare rating.
        let mut commander_name = "a commander".to_string();
        let (mut halves, mut nullified) = (false, false);
        // The commander's MIL as a distribution: a number, or a roll such as Pompey's 1d6 + 1.
        let mut mil = crate::exact::Pmf::point(0);
        if let Some(name) = COMMANDER.text(rome)? {
            let c = super::super::data::commander(fields.source, &COMMANDER.field(rome), name)?;
            nullified = c.cancels(&war.name, &war.series);
            (commander_name, mil, halves) = (c.name, c.mil, c.halves_losses);
        }
        let ransom = COMMANDER_INFLUENCE.opt_int(rome)?.map(|i| ransom(i as u32));
        if let Some(m) = COMMANDER_MILITARY.opt_int(rome)? {
            mil = crate::exact::Pmf::point(m as usize);
        }
        let moh = MASTER_OF_HORSE_MILITARY.int(rome)? as u32;

        let troops = match kind {
            Kind::Land => regular + 2 * veteran,
            Kind::Naval => fleets,
        };
        match kind {
            Kind::Land => {
                if regular + veteran == 0 {
                    return Err(AleaError::input(
                        fields.source,
                        LEGIONS.field(rome),
                        0,
                        "at least one legion for a land battle",
                    ));
                }
                if fleets < war.fleet_support {
                    return Err(AleaError::input(
                        fields.source,
                        FLEETS.field(rome),
                        fleets,
                        format!(
                            "at least the war's fleet support, {} (L649, L749)",
                            war.fleet_support
                        ),
                    ));
                }
                if war.naval > 0 && !naval_victory {
                    return Err(AleaError::invalid(fields.source, format!("{} has a fleet: win the naval battle first (L751), or set war.naval_victory = true", war.name)));
                }
            }
            Kind::Naval => {
                if war.naval == 0 {
                    return Err(AleaError::invalid(
                        fields.source,
                        format!(
                            "{} has no fleet (naval strength 0): there is no naval battle",
                            war.name
                        ),
                    ));
                }
                if fleets == 0 {
                    return Err(AleaError::input(
                        fields.source,
                        FLEETS.field(rome),
                        0,
                        "at least one fleet for a naval battle",
                    ));
                }
            }
        }
        let combined_cap = options.choice("mil_cap") == "combined";
        let multiplies_naval = options.flag("matching_multiplies_naval");
        let leader_strength: u32 = leaders.iter().map(|l| l.strength).sum();
        let enemy = match kind {
            Kind::Land => war.land * matching + leader_strength,
            Kind::Naval => {
                let leaders_count =
                    options.choice("leader_naval_strength") == "always" || war.naval > 0;
                war.naval * if multiplies_naval { matching } else { 1 }
                    + if leaders_count { leader_strength } else { 0 }
            }
        };
        let base = troops as i32 - enemy as i32 - omens * options.int("evil_omen_modifier") as i32;
        let without_troops = base - troops as i32;
        let drms = modifiers(&mil, moh, combined_cap, troops, without_troops);
        let mil_used = |m: u32| (drms_for(&drms, m, &mil) - base) as u32;

        let disaster_wins = options.choice("disaster_standoff_tie") == "disaster";
        let (war_d, war_s): (&[u32], &[u32]) = if nullified {
            (&[], &[])
        } else {
            (&war.disaster, &war.standoff)
        };
        let special = special_numbers(
            std::iter::once((war_d, war_s))
                .chain(leaders.iter().map(|l| (&l.disaster[..], &l.standoff[..]))),
            disaster_wins,
        );
        let k = options.int("mortality_draw_two") as u32;
        let cup = Cup {
            numbered: 36 - k,
            draw_two: k,
        };
        let printed = match kind {
            Kind::Land => war.land,
            Kind::Naval => war.naval,
        };
        let mut schema = Schema::new(&OUTCOMES);
        let legions = regular + veteran;
        let columns = Columns::add(
            &mut schema,
            Caps {
                legions,
                veterans: veteran,
                fleets,
                unrest: 2.0,
                popularity: (printed.div_ceil(2) + legions) as f64,
                influence: printed.div_ceil(2) as f64,
                spoils: war.spoils as f64,
            },
        );
        let ransom_column = ransom.map(|r| schema.scalar_bounded("commander/expected_ransom", r));

        let what = if kind == Kind::Land { "land" } else { "naval" };
        let omen_text = if omens > 0 {
            format!(" − evil omens {omens}")
        } else {
            String::new()
        };
        let mut notes = vec![if drms.len() == 1 {
            let m = mil.0.iter().position(|&p| p > 0.0).unwrap_or(0) as u32;
            format!(
                "drm = troops {troops} + MIL {} (of {}) − enemy {enemy}{omen_text} = {:+}",
                mil_used(m),
                m + moh,
                drms[0].0
            )
        } else {
            format!("drm = troops {troops} + rolled MIL (capped at troops) − enemy {enemy}{omen_text}: from {:+} to {:+}", drms[0].0, drms[drms.len() - 1].0)
        }];
        if nullified {
            notes.push(format!("{commander_name} cancels the war's own Disaster and Standoff numbers; its leaders' numbers stay"));
        }
        let p_special = |what: usize| {
            (3..=18)
                .filter(|&r| special[r] == Some(what))
                .map(|r| WEIGHTS_3D6[r - 3])
                .sum::<u32>()
        };
        let (d_list, s_list): (Vec<usize>, Vec<usize>) = (
            (3..=18).filter(|&r| special[r] == Some(DISASTER)).collect(),
            (3..=18).filter(|&r| special[r] == Some(STANDOFF)).collect(),
        );
        if d_list.is_empty() && s_list.is_empty() {
            notes.push("no Disaster or Standoff numbers apply".into());
        } else {
            notes.push(format!(
            "Disaster on an unmodified {:?} ({}/216), Standoff on {:?} ({}/216): no army size changes these",
            (3..=18).filter(|&r| special[r] == Some(DISASTER)).collect::<Vec<_>>(),
            p_special(DISASTER),
            (3..=18).filter(|&r| special[r] == Some(STANDOFF)).collect::<Vec<_>>(),
            p_special(STANDOFF)
        ));
        }
        let leader_text = if leaders.is_empty() {
            String::new()
        } else {
            format!(
                " with {}",
                leaders
                    .iter()
                    .map(|l| format!("{} (+{})", l.name, l.strength))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let describe = vec![
            format!(
                "Rome: {regular} legions, {veteran} veteran legions, {fleets} fleets; {commander_name}, MIL {}{}",
                if mil.0.iter().filter(|&&p| p > 0.0).count() == 1 { format!("{:.0}", mil.mean()) } else { format!("rolled, mean {:.1}", mil.mean()) },
                if moh > 0 { format!(" + master of horse {moh}") } else { String::new() }
            ),
            format!("war: {} ({what} strength {printed} × {matching}{leader_text} = {enemy}; fleet support {})", war.name, war.fleet_support),
        ];
        Ok(RomanBattle {
            kind,
            regular,
            veteran,
            fleets,
            drms,
            mil: mil.clone(),
            moh,
            combined_cap,
            base: without_troops,
            fleet_support: war.fleet_support,
            war_naval: war.naval,
            ransom,
            special,
            halves_losses: halves.then(|| options.choice("halved_losses_rounding") == "up"),
            gain: printed.div_ceil(2),
            printed,
            spoils: if kind == Kind::Land && !war.revolt {
                war.spoils
            } else {
                0
            },
            cup,
            veteran_from_battle: kind == Kind::Land || options.flag("veterans_from_naval_battles"),
            popularity_by_strength: options.choice("popularity_loss_counts") == "strength",
            gain_requires_survival: options.flag("victory_gain_requires_survival"),
            describe,
            notes,
            schema,
            columns,
            ransom_column,
        })
    }
}

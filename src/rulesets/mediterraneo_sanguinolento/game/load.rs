//! Reading rulebook.toml: every printed fact checked, names turned into indices; the shared checks
//! (provenance tags, resources, morale classes) that load_abstraction.rs uses too.

use super::files::*;
use super::scenario::*;
use crate::error::{did_you_mean, AleaError, Result};
use crate::rulesets::mediterraneo_sanguinolento::army::{MORALE_CLASSES, NATIONS};
use std::collections::HashMap;

pub(super) fn bad(
    file: &str,
    field: impl Into<String>,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(file, field, value, allowed)
}

pub(super) fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// The index into `CULTURES` of the culture code `code` read from `file`'s `field`, or the one-line
/// error naming the code and the codes allowed.
pub(super) fn culture_code(file: &str, field: impl Into<String>, code: &str) -> Result<usize> {
    CULTURES
        .iter()
        .position(|(c, _)| *c == code)
        .ok_or_else(|| {
            let codes: Vec<&str> = CULTURES.iter().map(|(c, _)| *c).collect();
            let (last, rest) = codes.split_last().expect("three cultures");
            bad(
                file,
                field,
                quoted(code),
                format!("a culture code: {} or {last}", rest.join(", ")),
            )
        })
}

/// `culture_code` for a table with one row per culture: also an error when a row for the same
/// culture came before (`filled`).
pub(super) fn culture_row<T>(
    file: &str,
    field: String,
    code: &str,
    filled: &[Option<T>; 3],
) -> Result<usize> {
    let k = culture_code(file, field.clone(), code)?;
    if filled[k].is_some() {
        return Err(bad(file, field, quoted(code), "one row per culture"));
    }
    Ok(k)
}

/// Every culture's value of a per-culture table (`what` = "row" or "entry"), or the error naming the
/// first culture the table left out.
pub(super) fn every_culture<T: Copy>(
    file: &str,
    field: &str,
    found: [Option<T>; 3],
    what: &str,
) -> Result<[T; 3]> {
    match found {
        [Some(b), Some(mixed), Some(c)] => Ok([b, mixed, c]),
        _ => {
            let k = found.iter().position(Option::is_none).unwrap_or(0);
            let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            Err(bad(
                file,
                field,
                format!("no {what} for culture \"{}\"", CULTURES[k].0),
                format!("{article} {what} for every culture"),
            ))
        }
    }
}

pub(super) struct Loader<'f> {
    pub(super) rb: &'f str,
    pub(super) ab: &'f str,
    pub(super) stand_ins: Vec<StandIn>,
}

/// Country names and their indices.
pub(super) struct Names<'a> {
    pub(super) map: HashMap<&'a str, CountryId>,
}

impl<'a> Names<'a> {
    pub(super) fn get(
        &self,
        file: &str,
        field: impl Into<String>,
        name: &str,
    ) -> Result<CountryId> {
        self.map.get(name).copied().ok_or_else(|| {
            let hint = did_you_mean(name, self.map.keys().copied());
            bad(
                file,
                field,
                quoted(name),
                format!("a country of rulebook.toml{hint}"),
            )
        })
    }
}

pub(super) use crate::game::provenance::present;

/// A resource table as `Resources`, rejecting unknown keys.
pub(super) fn resources(file: &str, field: &str, table: &ResourceTable) -> Result<Resources> {
    let mut out = [0; 11];
    for (k, &v) in table {
        let i = RESOURCES.iter().position(|r| r == k).ok_or_else(|| {
            bad(
                file,
                format!("{field}.{k}"),
                v,
                format!("a resource key: one of {}", RESOURCES.join(", ")),
            )
        })?;
        out[i] = v;
    }
    Ok(out)
}

pub(super) fn add(into: &mut Resources, from: &Resources, times: u32) {
    for (a, b) in into.iter_mut().zip(from) {
        *a += b * times;
    }
}

fn months(file: &str, field: &str, list: &[u32]) -> Result<u16> {
    let mut bits = 0u16;
    for (i, &m) in list.iter().enumerate() {
        if !(1..=12).contains(&m) {
            return Err(bad(file, format!("{field}[{i}]"), m, "a month 1-12"));
        }
        bits |= 1 << m;
    }
    Ok(bits)
}

pub(super) fn class(file: &str, field: &str, text: &str) -> Result<u8> {
    MORALE_CLASSES
        .iter()
        .position(|c| *c == text)
        .map(|i| i as u8)
        .ok_or_else(|| bad(file, field, quoted(text), "a morale class: A, B, C or D"))
}

impl<'f> Loader<'f> {
    pub(super) fn new(rb: &'f str, ab: &'f str) -> Loader<'f> {
        Loader {
            rb,
            ab,
            stand_ins: Vec::new(),
        }
    }

    fn rulebook_tag(&self, field: &str, p: &str, lines: Option<&str>) -> Result<()> {
        if p != "rulebook" {
            return Err(bad(
                self.rb,
                format!("{field}.provenance"),
                quoted(p),
                "\"rulebook\" (stand-ins belong in abstraction.toml)",
            ));
        }
        present(
            self.rb,
            &format!("{field}.lines"),
            lines,
            "the rulebook lines, as \"Lnnn-Lnnn\"",
        )
    }

    /// A row's line in the rulebook text (numbered from 1).
    fn line(&self, field: &str, line: u32) -> Result<()> {
        if line == 0 {
            return Err(bad(
                self.rb,
                field,
                0,
                "the row's line in the rulebook (1 or more)",
            ));
        }
        Ok(())
    }

    /// Checks a table's provenance and reason and records it for the stand-in summary.
    pub(super) fn stand_in(&mut self, field: &str, p: &str, why: Option<&str>) -> Result<()> {
        let provenance = match p {
            "assumed" => Provenance::Assumed,
            "placeholder" => Provenance::Placeholder,
            _ => {
                return Err(bad(
                    self.ab,
                    format!("{field}.provenance"),
                    quoted(p),
                    "\"assumed\" or \"placeholder\"",
                ))
            }
        };
        present(
            self.ab,
            &format!("{field}.why"),
            why,
            "a reason for the stand-in",
        )?;
        self.stand_ins.push(StandIn {
            file: self.ab.to_string(),
            field: field.to_string(),
            subject: String::new(),
            provenance,
            why: why.unwrap_or_default().to_string(),
        });
        Ok(())
    }

    pub(super) fn build(mut self, rb: &RulebookFile, ab: &AbstractionFile) -> Result<Scenario> {
        let c = &rb.calendar;
        self.rulebook_tag("calendar", &c.provenance, c.lines.as_deref())?;
        self.rulebook_tag(
            "countries",
            &rb.countries.provenance,
            rb.countries.lines.as_deref(),
        )?;
        let g = &rb.cultural_groups;
        self.rulebook_tag("cultural_groups", &g.provenance, g.lines.as_deref())?;
        let f = &rb.nation_flags;
        self.rulebook_tag("nation_flags", &f.provenance, f.lines.as_deref())?;
        let s = &rb.special_rules;
        self.rulebook_tag("special_rules", &s.provenance, s.lines.as_deref())?;
        let t = &rb.treasures;
        self.rulebook_tag("treasures", &t.provenance, t.lines.as_deref())?;
        let t = &rb.forage;
        self.rulebook_tag("forage", &t.provenance, t.lines.as_deref())?;
        if !(1..=12).contains(&c.months_per_turn) {
            return Err(bad(
                self.rb,
                "calendar.months_per_turn",
                c.months_per_turn,
                "1-12",
            ));
        }
        if c.victory_pv == 0 {
            return Err(bad(
                self.rb,
                "calendar.victory_pv",
                0,
                "a positive number of PV",
            ));
        }
        let calendar = Calendar {
            months_per_turn: c.months_per_turn as u8,
            winter: months(self.rb, "calendar.winter_months", &c.winter_months)?,
            collection: months(self.rb, "calendar.collection_months", &c.collection_months)?,
            victory_pv: c.victory_pv,
            no_player_attacks_on_turn: c.no_player_attacks_on_turn,
            printed_city_total: c.printed_city_total,
        };

        let (mut countries, mut cities) = self.countries(rb)?;
        let names = Names {
            map: countries
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.as_str(), i as CountryId))
                .collect(),
        };
        // The names index borrows `countries`; group indices are filled after it is dropped.
        let groups_of = self.groups(rb, ab, &names, countries.len())?;
        let nations = self.nations(rb, ab, &names, &groups_of.1)?;
        let special = self.special(rb, &names, &nations, &countries, &cities)?;
        let treasures = self.treasures(rb, &names, &countries, &mut cities)?;
        let forage = self.forage(rb)?;
        let (nodes, link_start, links) = self.graph(ab, &names)?;
        let majors = self.majors(ab, &names)?;
        let (production, city_yield) = self.production(ab, &countries, &nodes)?;
        let start = self.start(ab, &countries, &nodes)?;
        let leaders = self.leaders(ab)?;
        let importance = self.importance(ab)?;
        let sea_trade = self.sea_trade(ab.sea_trade.as_ref())?;
        let intrigue = self.intrigue(ab)?;
        let mercenaries = self.mercenaries(ab)?;
        let routes = self.routes(
            ab.trade_routes.as_ref(),
            &names,
            &countries,
            &cities,
            &nodes,
            &link_start,
            &links,
            &production,
        )?;
        drop(names);
        for (country, (group, provenance)) in countries.iter_mut().zip(groups_of.0) {
            country.group = group;
            country.group_provenance = provenance;
        }
        Ok(Scenario {
            calendar,
            countries,
            cities,
            groups: groups_of.1,
            nations,
            special,
            treasures,
            forage,
            nodes,
            link_start,
            links,
            majors,
            production,
            city_yield,
            fleet: start.1,
            start: start.0,
            leaders,
            importance,
            sea_trade,
            intrigue,
            mercenaries,
            routes,
            stand_ins: self.stand_ins,
        })
    }

    fn countries(&self, rb: &RulebookFile) -> Result<(Vec<Country>, Vec<City>)> {
        let rows = &rb.countries.rows;
        // A `CountrySet` holds 192 countries.
        if rows.is_empty() || rows.len() > 192 {
            return Err(bad(
                self.rb,
                "countries.rows",
                rows.len(),
                "1-192 countries",
            ));
        }
        let mut countries = Vec::with_capacity(rows.len());
        let mut cities: Vec<City> = Vec::new();
        let mut seen = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            let field = |k: &str| format!("countries.rows[{i}].{k}");
            if row.number as usize != i + 1 {
                return Err(bad(
                    self.rb,
                    field("number"),
                    row.number,
                    format!("{} (rows in printed order)", i + 1),
                ));
            }
            if row.name.trim().is_empty() || seen.insert(row.name.as_str(), i).is_some() {
                return Err(bad(
                    self.rb,
                    field("name"),
                    quoted(&row.name),
                    "a country name listed once",
                ));
            }
            let culture = CULTURES[culture_code(self.rb, field("culture"), &row.culture)?].1;
            self.line(&field("line"), row.line)?;
            let first = cities.len() as CityId;
            if cities.len() + row.cities.len() > 10_000 {
                return Err(bad(
                    self.rb,
                    field("cities"),
                    row.cities.len(),
                    "at most 10000 cities in all",
                ));
            }
            for (j, name) in row.cities.iter().enumerate() {
                let city_field = format!("countries.rows[{i}].cities[{j}]");
                if name.trim().is_empty() || row.cities[..j].contains(name) {
                    return Err(bad(
                        self.rb,
                        city_field,
                        quoted(name),
                        "a city name listed once in its country",
                    ));
                }
                cities.push(City {
                    name: name.clone(),
                    country: i as CountryId,
                    treasure: 0,
                });
            }
            countries.push(Country {
                number: row.number as u16,
                name: row.name.clone(),
                culture,
                group: None,
                group_provenance: Provenance::Rulebook,
                cities: first..cities.len() as CityId,
                line: row.line,
                note: row.note.clone(),
            });
        }
        Ok((countries, cities))
    }

    /// Each country's group (with its provenance) and the group names.
    #[allow(clippy::type_complexity)]
    fn groups(
        &mut self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
        n: usize,
    ) -> Result<(Vec<(Option<u8>, Provenance)>, Vec<String>)> {
        let mut of = vec![(None, Provenance::Rulebook); n];
        let mut groups = Vec::new();
        for (i, row) in rb.cultural_groups.rows.iter().enumerate() {
            if groups.contains(&row.group) {
                return Err(bad(
                    self.rb,
                    format!("cultural_groups.rows[{i}].group"),
                    quoted(&row.group),
                    "a group listed once",
                ));
            }
            groups.push(row.group.clone());
            for (j, name) in row.countries.iter().enumerate() {
                let field = format!("cultural_groups.rows[{i}].countries[{j}]");
                let c = names.get(self.rb, &field, name)?;
                if of[c as usize].0.is_some() {
                    return Err(bad(
                        self.rb,
                        field,
                        quoted(name),
                        "a country in one group only",
                    ));
                }
                of[c as usize].0 = Some(i as u8);
            }
        }
        for (i, name) in rb.cultural_groups.not_listed.iter().enumerate() {
            let field = format!("cultural_groups.not_listed[{i}]");
            let c = names.get(self.rb, &field, name)?;
            if of[c as usize].0.is_some() {
                return Err(bad(
                    self.rb,
                    field,
                    quoted(name),
                    "a country no group lists",
                ));
            }
        }
        let r = &ab.readings;
        self.stand_in("readings", &r.provenance, r.why.as_deref())?;
        for (i, row) in r.group_of_unlisted.iter().enumerate() {
            let field = |k: &str| format!("readings.group_of_unlisted[{i}].{k}");
            let c = names.get(self.ab, field("country"), &row.country)?;
            if !rb.cultural_groups.not_listed.contains(&row.country) {
                return Err(bad(
                    self.ab,
                    field("country"),
                    quoted(&row.country),
                    "a country of cultural_groups.not_listed",
                ));
            }
            let g = groups.iter().position(|g| *g == row.group).ok_or_else(|| {
                bad(
                    self.ab,
                    field("group"),
                    quoted(&row.group),
                    format!(
                        "a cultural group{}",
                        did_you_mean(&row.group, groups.iter().map(|s| s.as_str()))
                    ),
                )
            })?;
            of[c as usize] = (Some(g as u8), Provenance::Assumed);
        }
        Ok((of, groups))
    }

    fn set(&self, file: &str, field: &str, list: &[String], names: &Names) -> Result<CountrySet> {
        let mut set = CountrySet::default();
        for (i, name) in list.iter().enumerate() {
            set.insert(names.get(file, format!("{field}[{i}]"), name)?);
        }
        Ok(set)
    }

    fn nations(
        &self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
        groups: &[String],
    ) -> Result<NationFlags> {
        let f = &rb.nation_flags;
        let greek_group = groups
            .iter()
            .position(|g| *g == ab.readings.greek_group)
            .ok_or_else(|| {
                bad(
                    self.ab,
                    "readings.greek_group",
                    quoted(&ab.readings.greek_group),
                    "a cultural group of rulebook.toml",
                )
            })?;
        let mut greek = CountrySet::default();
        for name in &rb.cultural_groups.rows[greek_group].countries {
            greek.insert(names.get(self.rb, "cultural_groups", name)?);
        }
        let italic = self.set(self.rb, "nation_flags.italic", &f.italic, names)?;
        let extra = self.set(
            self.ab,
            "readings.italic_countries",
            &ab.readings.italic_countries,
            names,
        )?;
        Ok(NationFlags {
            roman: self.set(self.rb, "nation_flags.roman", &f.roman, names)?,
            italic: italic.union(extra),
            hispanic: self.set(self.rb, "nation_flags.hispanic", &f.hispanic, names)?,
            greek,
            carthaginian: self.set(self.rb, "nation_flags.carthaginian", &f.carthaginian, names)?,
            seleucid: self.set(self.rb, "nation_flags.seleucid", &f.seleucid, names)?,
        })
    }

    /// `who`: each name a nation flag of the battle code or a country.
    fn who(
        &self,
        field: &str,
        who: &Who,
        names: &Names,
        nations: &NationFlags,
    ) -> Result<CountrySet> {
        let mut set = CountrySet::default();
        for (i, name) in who.names().iter().enumerate() {
            match nations.get(name) {
                Some(s) => set = set.union(s),
                None => {
                    let c = names.map.get(name.as_str()).copied().ok_or_else(|| {
                        bad(
                            self.rb,
                            format!("{field}[{i}]"),
                            quoted(name),
                            format!("a country or a nation flag ({})", NATIONS.join(", ")),
                        )
                    })?;
                    set.insert(c);
                }
            }
        }
        Ok(set)
    }

    fn factor(
        &self,
        field: &str,
        rule: &FactorRule,
        names: &Names,
        nations: &NationFlags,
    ) -> Result<(f64, CountrySet)> {
        self.line(&format!("special_rules.{field}.line"), rule.line)?;
        if !(rule.factor > 1.0 && rule.factor <= 2.0) {
            return Err(bad(
                self.rb,
                format!("special_rules.{field}.factor"),
                rule.factor,
                "a multiplier above 1 and at most 2",
            ));
        }
        Ok((
            rule.factor,
            self.who(
                &format!("special_rules.{field}.who"),
                &rule.who,
                names,
                nations,
            )?,
        ))
    }

    fn special(
        &self,
        rb: &RulebookFile,
        names: &Names,
        nations: &NationFlags,
        countries: &[Country],
        cities: &[City],
    ) -> Result<SpecialRules> {
        let s = &rb.special_rules;
        let g = &s.greek_fortification_bonus;
        if g.levels == 0 || g.levels > 3 {
            return Err(bad(
                self.rb,
                "special_rules.greek_fortification_bonus.levels",
                g.levels,
                "1-3 levels",
            ));
        }
        let m = &s.merchant_call_den;
        let fm = &s.forced_march_bonus;
        self.line("special_rules.greek_fortification_bonus.line", g.line)?;
        self.line("special_rules.merchant_call_den.line", m.line)?;
        let what = "the rulebook lines, as \"Lnnn-Lnnn\"";
        present(
            self.rb,
            "special_rules.forced_march_bonus.lines",
            Some(&fm.lines),
            what,
        )?;
        for (k, v) in [("roman_iml", fm.roman_iml), ("italic_iml", fm.italic_iml)] {
            if v > 5 {
                return Err(bad(
                    self.rb,
                    format!("special_rules.forced_march_bonus.{k}"),
                    v,
                    "0-5",
                ));
            }
        }
        let mut sacred = Vec::new();
        for (i, row) in s.sacred_cities.iter().enumerate() {
            let field = |k: &str| format!("special_rules.sacred_cities[{i}].{k}");
            self.line(&field("line"), row.line)?;
            let c = names.get(self.rb, field("country"), &row.country)?;
            let city = countries[c as usize]
                .cities
                .clone()
                .find(|&j| cities[j as usize].name == row.city)
                .ok_or_else(|| {
                    bad(
                        self.rb,
                        field("city"),
                        quoted(&row.city),
                        format!("a city of {}", row.country),
                    )
                })?;
            if !(-100..0).contains(&row.pv) {
                return Err(bad(self.rb, field("pv"), row.pv, "a PV loss, -100 to -1"));
            }
            let losers = self.who(&field("losers"), &row.losers, names, nations)?;
            sacred.push(Sacred {
                city,
                pv: row.pv,
                losers,
            });
        }
        let mut population_morale = Vec::new();
        for (i, row) in s.population_morale.iter().enumerate() {
            let field = |k: &str| format!("special_rules.population_morale[{i}].{k}");
            self.line(&field("line"), row.line)?;
            let country = names.get(self.rb, field("country"), &row.country)?;
            let from_capital = match row.from.as_str() {
                "capital" => true,
                "province" => false,
                other => {
                    return Err(bad(
                        self.rb,
                        field("from"),
                        quoted(other),
                        "\"capital\" or \"province\"",
                    ))
                }
            };
            if !(row.share > 0.0 && row.share <= 1.0) {
                return Err(bad(
                    self.rb,
                    field("share"),
                    row.share,
                    "a share above 0 and at most 1",
                ));
            }
            population_morale.push(PopulationMorale {
                country,
                from_capital,
                share: row.share,
                morale: class(self.rb, &field("morale"), &row.morale)?,
                cost_as: class(self.rb, &field("cost_as"), &row.cost_as)?,
            });
        }
        // The shares of one source of POB must make up all of it.
        for p in &population_morale {
            let total: f64 = population_morale
                .iter()
                .filter(|q| q.country == p.country && q.from_capital == p.from_capital)
                .map(|q| q.share)
                .sum();
            if (total - 1.0).abs() > 1e-9 {
                let name = &countries[p.country as usize].name;
                return Err(bad(
                    self.rb,
                    "special_rules.population_morale",
                    format!("shares summing to {total} for {name}"),
                    "shares summing to 1 per country and source",
                ));
            }
        }
        let mut flags: Vec<RuleFlag> = Vec::new();
        for (i, row) in s.flags.iter().enumerate() {
            let field = |k: &str| format!("special_rules.flags[{i}].{k}");
            self.line(&field("line"), row.line)?;
            let (rule, keys) =
                RULE_FLAGS
                    .iter()
                    .find(|(r, _)| *r == row.rule)
                    .ok_or_else(|| {
                        let all: Vec<&str> = RULE_FLAGS.iter().map(|(r, _)| *r).collect();
                        bad(
                            self.rb,
                            field("rule"),
                            quoted(&row.rule),
                            format!("a rule flag: one of {}", all.join(", ")),
                        )
                    })?;
            if flags.iter().any(|f| f.rule == *rule) {
                return Err(bad(
                    self.rb,
                    field("rule"),
                    quoted(rule),
                    "each rule flag once",
                ));
            }
            for (key, value) in &row.numbers {
                if !keys.contains(&key.as_str()) {
                    let allowed = if keys.is_empty() {
                        format!("no numbers for {rule}")
                    } else {
                        format!("a number of {rule}: {}", keys.join(", "))
                    };
                    return Err(bad(
                        self.rb,
                        field(&format!("numbers.{key}")),
                        value,
                        allowed,
                    ));
                }
            }
            let mut numbers = Vec::with_capacity(keys.len());
            for key in keys.iter() {
                let v = row.numbers.get(*key).ok_or_else(|| {
                    bad(
                        self.rb,
                        field(&format!("numbers.{key}")),
                        "nothing",
                        format!("the number {rule} needs"),
                    )
                })?;
                numbers.push(*v);
            }
            flags.push(RuleFlag {
                rule,
                who: self.who(&field("who"), &row.who, names, nations)?,
                numbers,
            });
        }
        Ok(SpecialRules {
            falcata: self.factor(
                "falcata_first_segment",
                &s.falcata_first_segment,
                names,
                nations,
            )?,
            pilum: self.factor(
                "pilum_first_segment",
                &s.pilum_first_segment,
                names,
                nations,
            )?,
            corvus: self.factor("corvus_boarding", &s.corvus_boarding, names, nations)?,
            greek_fortification: (
                g.levels as u8,
                self.who(
                    "special_rules.greek_fortification_bonus.who",
                    &g.who,
                    names,
                    nations,
                )?,
            ),
            merchant_call: (
                m.den,
                self.who(
                    "special_rules.merchant_call_den.who",
                    &m.who,
                    names,
                    nations,
                )?,
            ),
            forced_march_roman_iml: fm.roman_iml as u8,
            forced_march_italic_iml: fm.italic_iml as u8,
            sacred,
            population_morale,
            flags,
        })
    }

    /// COM foraged per hex, by battle-code hex terrain (its index in battle-terrain.toml).
    fn forage(&self, rb: &RulebookFile) -> Result<Vec<u32>> {
        let terrains = &crate::rulesets::mediterraneo_sanguinolento::data::data().terrain;
        let mut out: Vec<Option<u32>> = vec![None; terrains.len()];
        for (i, row) in rb.forage.rows.iter().enumerate() {
            let field = |k: &str| format!("forage.rows[{i}].{k}");
            self.line(&field("line"), row.line)?;
            let t = terrains
                .iter()
                .position(|h| h.hex == row.hex)
                .ok_or_else(|| {
                    let all: Vec<&str> = terrains.iter().map(|h| h.hex.as_str()).collect();
                    bad(
                        self.rb,
                        field("hex"),
                        quoted(&row.hex),
                        format!(
                            "a hex terrain of battle-terrain.toml: one of {}",
                            all.join(", ")
                        ),
                    )
                })?;
            if out[t].is_some() {
                return Err(bad(
                    self.rb,
                    field("hex"),
                    quoted(&row.hex),
                    "one row per hex terrain",
                ));
            }
            if row.com > 1000 {
                return Err(bad(self.rb, field("com"), row.com, "0-1000 COM per hex"));
            }
            out[t] = Some(row.com);
        }
        out.iter()
            .zip(terrains)
            .map(|(com, h)| {
                com.ok_or_else(|| {
                    bad(
                        self.rb,
                        "forage.rows",
                        format!("no row for {}", quoted(&h.hex)),
                        "a row for every hex terrain of battle-terrain.toml",
                    )
                })
            })
            .collect()
    }

    fn treasures(
        &self,
        rb: &RulebookFile,
        names: &Names,
        countries: &[Country],
        cities: &mut [City],
    ) -> Result<Vec<Treasure>> {
        let mut out = Vec::new();
        for (i, row) in rb.treasures.rows.iter().enumerate() {
            let field = |k: &str| format!("treasures.rows[{i}].{k}");
            self.line(&field("line"), row.line)?;
            if row.den == 0 || row.den > 100_000 {
                return Err(bad(self.rb, field("den"), row.den, "1-100000 DEN"));
            }
            let city = match (&row.country, row.not_a_city) {
                (None, true) => None,
                (Some(_), true) => {
                    return Err(bad(
                        self.rb,
                        field("country"),
                        "a country",
                        "no country for a treasure that is not a listed city",
                    ))
                }
                (None, false) => {
                    return Err(bad(
                        self.rb,
                        field("country"),
                        "nothing",
                        "the country of the treasure's city (or not_a_city = true)",
                    ))
                }
                (Some(country), false) => {
                    let c = names.get(self.rb, field("country"), country)?;
                    // The list prints names in capitals; the country list's spelling is title case.
                    let wanted = row
                        .city_name
                        .clone()
                        .unwrap_or_else(|| title_case(&row.city));
                    let j = countries[c as usize]
                        .cities
                        .clone()
                        .find(|&j| cities[j as usize].name == wanted)
                        .ok_or_else(|| bad(self.rb, field("city"), quoted(&row.city), format!("a city of {country} (set city_name to its country-list spelling)")))?;
                    if cities[j as usize].treasure != 0 {
                        return Err(bad(
                            self.rb,
                            field("city"),
                            quoted(&row.city),
                            "one treasure per city",
                        ));
                    }
                    cities[j as usize].treasure = row.den;
                    Some(j)
                }
            };
            out.push(Treasure {
                printed: row.city.clone(),
                den: row.den,
                city,
                line: row.line,
                note: row.note.clone(),
            });
        }
        Ok(out)
    }
}

/// "EMERITA AUGUSTA" -> "Emerita Augusta".
fn title_case(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            let lower = w.to_lowercase();
            let mut chars = lower.chars();
            match chars.next() {
                Some(f) => f.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

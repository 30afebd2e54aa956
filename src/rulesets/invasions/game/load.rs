//! Reading rulebook.toml: every printed fact checked, names turned into indices; the shared checks
//! (provenance tags, name indices) that load_abstraction.rs uses too.

use super::files::*;
use super::load_abstraction::{set_row, turn};
use super::scenario::*;
use crate::error::{did_you_mean, AleaError, Result};
use crate::rulesets::invasions::land::Terrain;
use std::collections::HashMap;

pub(super) fn bad(
    file: &str,
    field: impl Into<String>,
    value: &str,
    allowed: impl Into<String>,
) -> AleaError {
    AleaError::input(file, field, format!("\"{value}\""), allowed)
}

/// Names of one kind (Areas, provinces, seas, nations) and their indices.
pub(super) struct Index<'a> {
    pub(super) what: &'static str,
    pub(super) map: HashMap<&'a str, usize>,
    pub(super) names: Vec<&'a str>,
}

impl<'a> Index<'a> {
    /// Fails on a name listed twice; `field(i)` names the i-th entry.
    pub(super) fn new(
        file: &str,
        what: &'static str,
        names: impl IntoIterator<Item = &'a str>,
        field: impl Fn(usize) -> String,
    ) -> Result<Index<'a>> {
        let names: Vec<&'a str> = names.into_iter().collect();
        let mut map = HashMap::new();
        for (i, &name) in names.iter().enumerate() {
            if map.insert(name, i).is_some() {
                return Err(bad(file, field(i), name, format!("{what} listed once")));
            }
        }
        Ok(Index { what, map, names })
    }

    pub(super) fn get(&self, file: &str, field: impl Into<String>, name: &str) -> Result<usize> {
        self.map.get(name).copied().ok_or_else(|| {
            let hint = did_you_mean(name, self.map.keys().copied());
            bad(file, field, name, format!("{}{hint}", self.what))
        })
    }
}

pub(super) struct Loader<'f> {
    pub(super) rb: &'f str,
    pub(super) ab: &'f str,
    pub(super) stand_ins: Vec<StandIn>,
}

/// The indices the abstraction refers to.
pub(super) struct Names<'a> {
    pub(super) areas: Index<'a>,
    pub(super) provinces: Index<'a>,
    pub(super) seas: Index<'a>,
    pub(super) peoples: Index<'a>,
}

pub(super) fn provenance(
    file: &str,
    field: &str,
    text: &str,
    allowed: &[Provenance],
) -> Result<Provenance> {
    let names: Vec<&str> = allowed.iter().map(|p| p.name()).collect();
    allowed
        .iter()
        .copied()
        .find(|p| p.name() == text)
        .ok_or_else(|| bad(file, field, text, format!("one of {}", names.join(", "))))
}

pub(super) use crate::game::provenance::present;

impl<'f> Loader<'f> {
    fn rulebook_tag(&self, field: &str, p: &str, lines: &Option<String>) -> Result<()> {
        provenance(
            self.rb,
            &format!("{field}.provenance"),
            p,
            &[Provenance::Rulebook],
        )?;
        let what = "the rulebook lines, as \"Lnnn-Lnnn\"";
        present(self.rb, &format!("{field}.lines"), lines.as_deref(), what)
    }

    /// Checks a table of the abstraction and records it for the stand-in summary.
    pub(super) fn stand_in(
        &mut self,
        field: &str,
        p: &str,
        why: &Option<String>,
    ) -> Result<Provenance> {
        let allowed = [Provenance::Assumed, Provenance::Placeholder];
        let prov = provenance(self.ab, &format!("{field}.provenance"), p, &allowed)?;
        let why = why.as_deref();
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
            provenance: prov,
            why: why.unwrap_or_default().to_string(),
        });
        Ok(prov)
    }

    /// A row that carries its own provenance (else its table's applies); `subject` names what
    /// the row is about for the summary.
    pub(super) fn row_stand_in(
        &mut self,
        field: &str,
        subject: &str,
        p: &Option<String>,
        why: &Option<String>,
    ) -> Result<()> {
        match p {
            Some(p) => {
                self.stand_in(field, p, why)?;
                let last = self.stand_ins.last_mut().expect("just pushed");
                last.subject = subject.to_string();
                Ok(())
            }
            None if why.is_some() => Err(AleaError::input(
                self.ab,
                format!("{field}.provenance"),
                "nothing",
                "a provenance beside the row's why",
            )),
            None => Ok(()),
        }
    }

    pub(super) fn build(mut self, rb: &RulebookFile, ab: &AbstractionFile) -> Result<Scenario> {
        self.rulebook_tags(rb)?;
        self.limits(rb, ab)?;
        let names = self.names(rb)?;
        let mut seas = self.seas(rb);
        let mut areas = self.areas(rb)?;
        let mut provinces = self.provinces(rb, &names)?;
        self.walls(rb, &mut provinces)?;
        self.fill_areas_and_ports(&mut areas, &mut seas, &provinces)?;
        let (caravans, caravan_gold) = self.caravans(rb, &names, &mut provinces)?;
        let rivers = self.rivers(rb, &names)?;
        let peoples = self.peoples(rb, &names)?;
        let monophysite_areas = self.area_list(
            self.rb,
            "religion.monophysite_areas",
            &rb.religion.monophysite_areas,
            &names,
        )?;
        self.area_graph(ab, &names, &rivers, &mut areas)?;
        let boxes = self.boxes(rb, ab, &names)?;
        self.sea_graph(ab, &names, &mut seas)?;
        self.straits(ab, &names, &mut areas)?;
        let head = &rb.scenario;
        self.time_track(ab, head.turns)?;
        let nations = self.nations(rb, ab, &names, &peoples, &areas, &provinces)?;
        let split = &ab.roman_split;
        self.stand_in("roman_split", &split.provenance, &split.why)?;
        let roman_split = self.area_list(self.ab, "roman_split.areas", &split.areas, &names)?;
        let (kingdom_sets, empire_sets) = self.administration(ab)?;
        let pr = &ab.purchases;
        self.stand_in("purchases", &pr.provenance, &pr.why)?;
        let kingdom_prices = self.units("purchases.kingdom", &pr.kingdom)?;
        let empire_prices = self.units("purchases.empire", &pr.empire)?;
        let roman_national = self.units("purchases.roman_national", &pr.roman_national)?;
        let revolt_chance = self.events(ab)?;
        let e = &ab.events;
        let heresy_chance =
            self.card_chance(ab, "heresy_chance", e.heresy_chance, "brings a heresy")?;
        let alliance_chance = self.card_chance(
            ab,
            "alliance_chance",
            e.alliance_chance,
            "is the Alliance event",
        )?;
        let coalition_chance = self.card_chance(
            ab,
            "coalition_chance",
            e.coalition_chance,
            "is the Barbarian Coalition event",
        )?;
        let (limes, limes_local_units) = self.limes(ab, &names)?;
        let objective_balance = self.objective_balance(ab, &head.players)?;
        let leaders = self.leaders(ab, head.turns)?;
        let (area_religion, conversion_bonus) =
            self.religion(ab, &names, &areas, &monophysite_areas)?;
        let calamities = self.calamities(ab)?;
        let mut s = Scenario {
            title: head.title.clone(),
            year: head.year,
            turns: head.turns,
            turns_with_islam: head.turns_with_islam,
            scoring_turns: head.scoring_turns.clone(),
            roman_split_turn: head.roman_split_turn,
            limes_last_turn: head.limes_last_turn,
            limes,
            limes_local_units,
            players: head.players.clone(),
            dates: rb.date.iter().map(|d| (d.turn, d.year)).collect(),
            seas,
            areas,
            provinces,
            boxes,
            rivers,
            peoples,
            nations,
            monophysite_areas,
            caravans,
            caravan_gold,
            attila_death_turn: ab.time_track.attila_death_turn,
            islam_turn: ab.time_track.islam_turn,
            theodosian_walls_turn: ab.time_track.theodosian_walls_turn,
            roman_split,
            kingdom_sets,
            empire_sets,
            kingdom_prices,
            empire_prices,
            roman_national,
            administration_deck: set_row(&rb.decks.administration),
            event_deck: [rb.decks.events.public, rb.decks.events.private],
            diplomacy_deck: rb.decks.diplomacy.clone().into_iter().collect(),
            revolt_chance,
            heresy_chance,
            alliance_chance,
            coalition_chance,
            revolt_areas: [[0; 10]; 2],
            objective_balance,
            leaders,
            area_religion,
            conversion_bonus,
            calamities,
            stand_ins: self.stand_ins,
        };
        if revolt_chance > 0.0 {
            s.revolt_areas = super::procedures::revolt_areas(&s)?;
        }
        Ok(s)
    }

    fn rulebook_tags(&self, rb: &RulebookFile) -> Result<()> {
        let h = &rb.scenario;
        self.rulebook_tag("scenario", &h.provenance, &h.lines)?;
        for (i, d) in rb.date.iter().enumerate() {
            self.rulebook_tag(&format!("date[{i}]"), &d.provenance, &d.lines)?;
        }
        self.rulebook_tag("seas", &rb.seas.provenance, &rb.seas.lines)?;
        for (i, a) in rb.area.iter().enumerate() {
            self.rulebook_tag(&format!("area[{i}]"), &a.provenance, &a.lines)?;
        }
        let p = &rb.provinces;
        self.rulebook_tag("provinces", &p.provenance, &p.lines)?;
        self.rulebook_tag("walls", &rb.walls.provenance, &rb.walls.lines)?;
        for (i, b) in rb.boxes.iter().enumerate() {
            self.rulebook_tag(&format!("box[{i}]"), &b.provenance, &b.lines)?;
        }
        self.rulebook_tag("rivers", &rb.rivers.provenance, &rb.rivers.lines)?;
        self.rulebook_tag("nations", &rb.nations.provenance, &rb.nations.lines)?;
        let f = &rb.nation_facts;
        self.rulebook_tag("nation_facts", &f.provenance, &f.lines)?;
        let r = &rb.religion;
        self.rulebook_tag("religion", &r.provenance, &r.lines)?;
        let c = &rb.caravans;
        self.rulebook_tag("caravans", &c.provenance, &c.lines)?;
        self.rulebook_tag("decks", &rb.decks.provenance, &rb.decks.lines)
    }

    /// Scenario I with its four players; the index types and bit sets hold these many (u8 Areas and
    /// nations, u32 coasts, u16 raids).
    fn limits(&self, rb: &RulebookFile, ab: &AbstractionFile) -> Result<()> {
        let h = &rb.scenario;
        if h.key != "scenario-1" || h.players.len() != 4 {
            let value = format!("{} with {} players", h.key, h.players.len());
            return Err(bad(
                self.rb,
                "scenario",
                &value,
                "scenario-1 with 4 players",
            ));
        }
        let checks = [
            (self.rb, "area", rb.area.len(), 255),
            (
                self.rb,
                "provinces.rows",
                rb.provinces.rows.len(),
                u16::MAX as usize,
            ),
            (self.rb, "seas.rows", rb.seas.rows.len(), 32),
            (self.rb, "nations.rows", rb.nations.rows.len(), 255),
            (self.ab, "entry.rows", ab.entry.rows.len(), 255),
            (self.rb, "scenario.turns", h.turns as usize, 15),
        ];
        for (file, field, n, most) in checks {
            if n > most {
                return Err(AleaError::input(file, field, n, format!("at most {most}")));
            }
        }
        for (i, &t) in h.scoring_turns.iter().enumerate() {
            turn(self.rb, format!("scenario.scoring_turns[{i}]"), t, h.turns)?;
        }
        Ok(())
    }

    fn names<'a>(&self, rb: &'a RulebookFile) -> Result<Names<'a>> {
        let rb_name = self.rb;
        Ok(Names {
            areas: Index::new(
                rb_name,
                "an Area of [[area]]",
                rb.area.iter().map(|a| a.name.as_str()),
                |i| format!("area[{i}].name"),
            )?,
            provinces: Index::new(
                rb_name,
                "a province of [provinces]",
                rb.provinces.rows.iter().map(|p| p.name.as_str()),
                |i| format!("provinces.rows[{i}].name"),
            )?,
            seas: Index::new(
                rb_name,
                "a sea zone of [seas]",
                rb.seas.rows.iter().map(|s| s.name.as_str()),
                |i| format!("seas.rows[{i}].name"),
            )?,
            peoples: Index::new(
                rb_name,
                "a nation key of [nations]",
                rb.nations.rows.iter().map(|n| n.key.as_str()),
                |i| format!("nations.rows[{i}].key"),
            )?,
        })
    }

    fn seas(&self, rb: &RulebookFile) -> Vec<Sea> {
        let row = |s: &SeaRow| Sea {
            name: s.name.clone(),
            monopoly: s.monopoly,
            links: Vec::new(),
            ports: Vec::new(),
        };
        rb.seas.rows.iter().map(row).collect()
    }

    fn areas(&self, rb: &RulebookFile) -> Result<Vec<Area>> {
        // The game keeps a nation's Areas as the bits of a u64.
        if rb.area.len() > MAX_AREAS {
            let n = rb.area.len();
            return Err(AleaError::input(
                self.rb,
                "area",
                format!("{n} Areas"),
                format!("at most {MAX_AREAS}"),
            ));
        }
        let mut out = Vec::new();
        for (i, a) in rb.area.iter().enumerate() {
            let kind = match (a.kind.as_str(), a.empire_income) {
                ("barbarian", None) => AreaKind::Barbarian,
                ("civilized", Some(_)) => AreaKind::Civilized,
                _ => {
                    let allowed = "\"barbarian\" (no empire_income) or \"civilized\" (with one)";
                    return Err(bad(self.rb, format!("area[{i}].kind"), &a.kind, allowed));
                }
            };
            let field = format!("area[{i}].printed_alternative");
            let alternative_halves = a.printed_alternative.map(|x| halves(self.rb, &field, x));
            out.push(Area {
                name: a.name.clone(),
                kind,
                kingdom_income: a.kingdom_income,
                empire_income: a.empire_income,
                alternative_halves: alternative_halves.transpose()?,
                provinces: Vec::new(),
                links: Vec::new(),
                coasts: 0,
            });
        }
        Ok(out)
    }

    fn provinces(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<Province>> {
        let rows = &rb.provinces.rows;
        let mut out = Vec::with_capacity(rows.len());
        for (i, p) in rows.iter().enumerate() {
            out.push(self.province(i, p, names)?);
        }
        Ok(out)
    }

    fn province(&self, i: usize, p: &ProvinceRow, names: &Names) -> Result<Province> {
        let f = |k: &str| format!("provinces.rows[{i}].{k}");
        let Some(area) = &p.area else {
            let allowed = names.areas.what;
            return Err(AleaError::input(self.rb, f("area"), "nothing", allowed));
        };
        let area = names.areas.get(self.rb, f("area"), area)? as AreaId;
        let terrain = Terrain::NAMES.iter().position(|t| *t == p.terrain);
        let terrain = terrain
            .map(|t| TERRAINS[t])
            .ok_or_else(|| bad(self.rb, f("terrain"), &p.terrain, Terrain::NAMES.join(", ")))?;
        let city = self.city(&f("city"), p)?;
        let port = match &p.port {
            Some(s) if city.is_some() => Some(names.seas.get(self.rb, f("port"), s)? as SeaId),
            Some(s) => return Err(bad(self.rb, f("port"), s, "a port where a city or site is")),
            None => None,
        };
        if let Some(m) = p.marks.iter().find(|m| !MARKS.contains(&m.as_str())) {
            return Err(bad(self.rb, f("marks"), m, MARKS.join(", ")));
        }
        Ok(Province {
            name: p.name.clone(),
            area,
            counts_for_area: !p.outside_area,
            terrain,
            income_halves: halves(self.rb, &f("income"), p.income)?,
            city,
            port,
            no_sea_zone: p.no_sea_zone,
            caravan: false,
            line: p.line,
        })
    }

    /// A city needs a level; a site (level 0) cannot be fortified. Walls come from the `[walls]` table.
    fn city(&self, field: &str, p: &ProvinceRow) -> Result<Option<City>> {
        match (&p.city, p.level) {
            (None, None) if !p.fortified => Ok(None),
            (Some(name), Some(level @ 0..=3)) if !p.fortified || level > 0 => Ok(Some(City {
                name: name.clone(),
                level,
                fortified: p.fortified,
                walls: 0,
            })),
            _ => {
                let value = format!("{:?} level {:?}", p.city, p.level);
                let allowed = "a city with a level 0-3 (fortified only from 1), or neither";
                Err(bad(self.rb, field, &value, allowed))
            }
        }
    }

    fn walls(&self, rb: &RulebookFile, provinces: &mut [Province]) -> Result<()> {
        let w = &rb.walls;
        for p in provinces.iter_mut() {
            if let Some(c) = p.city.as_mut().filter(|c| c.fortified) {
                c.walls = w.usual;
            }
        }
        for (i, e) in w.exceptions.iter().chain([&w.theodosian]).enumerate() {
            let field = if i < w.exceptions.len() {
                format!("walls.exceptions[{i}].city")
            } else {
                "walls.theodosian.city".to_string()
            };
            let city = provinces
                .iter_mut()
                .filter_map(|p| p.city.as_mut())
                .find(|c| c.name == e.city && c.fortified)
                .ok_or_else(|| bad(self.rb, field, &e.city, "a fortified city of [provinces]"))?;
            if i < w.exceptions.len() {
                city.walls = e.modifier;
            }
        }
        Ok(())
    }

    fn fill_areas_and_ports(
        &self,
        areas: &mut [Area],
        seas: &mut [Sea],
        provinces: &[Province],
    ) -> Result<()> {
        for (i, p) in provinces.iter().enumerate() {
            if p.counts_for_area {
                areas[p.area as usize].provinces.push(i as ProvinceId);
            }
            if let Some(s) = p.port {
                seas[s as usize].ports.push(i as ProvinceId);
                areas[p.area as usize].coasts |= 1 << s;
            }
        }
        if let Some(i) = areas
            .iter()
            .position(|a| a.provinces.len() > MAX_AREA_PROVINCES)
        {
            return Err(AleaError::input(
                self.rb,
                format!("area[{i}].name"),
                format!("{} ({} provinces)", areas[i].name, areas[i].provinces.len()),
                format!("an Area at most {MAX_AREA_PROVINCES} provinces of [provinces] count for"),
            ));
        }
        match areas.iter().position(|a| a.provinces.is_empty()) {
            Some(i) => Err(bad(
                self.rb,
                format!("area[{i}].name"),
                &areas[i].name,
                "an Area at least one province of [provinces] counts for",
            )),
            None => Ok(()),
        }
    }

    #[allow(clippy::type_complexity)]
    fn caravans(
        &self,
        rb: &RulebookFile,
        names: &Names,
        provinces: &mut [Province],
    ) -> Result<(Vec<(ProvinceId, u8, u8)>, [u8; 2])> {
        let c = &rb.caravans;
        for (i, name) in c.provinces.iter().enumerate() {
            let p = names
                .provinces
                .get(self.rb, format!("caravans.provinces[{i}]"), name)?;
            provinces[p].caravan = true;
        }
        let mut out = Vec::new();
        let mut covered = [0u8; 11];
        for (i, row) in c.exceptional_d10.iter().enumerate() {
            let field = format!("caravans.exceptional_d10[{i}]");
            let p = names
                .provinces
                .get(self.rb, format!("{field}.province"), &row.province)?;
            let [low, high] = row.faces;
            if !provinces[p].caravan || !(1..=high).contains(&low) || high > 10 {
                let value = format!("{} {low}-{high}", row.province);
                let allowed = "a caravan province with faces low <= high in 1..10";
                return Err(bad(self.rb, field, &value, allowed));
            }
            covered[low as usize..=high as usize]
                .iter_mut()
                .for_each(|n| *n += 1);
            out.push((p as ProvinceId, low, high));
        }
        if covered[1..].iter().any(|&n| n != 1) {
            let allowed = "rows covering the faces 1..10 once each";
            return Err(bad(
                self.rb,
                "caravans.exceptional_d10",
                "a gap or overlap",
                allowed,
            ));
        }
        Ok((out, [c.gold, c.exceptional_gold]))
    }

    fn rivers(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<River>> {
        let mut out = Vec::new();
        for (i, r) in rb.rivers.rows.iter().enumerate() {
            let field = format!("rivers.rows[{i}].areas");
            out.push(River {
                name: r.name.clone(),
                areas: self.area_list(self.rb, &field, &r.areas, names)?,
            });
        }
        Ok(out)
    }

    pub(super) fn area_list(
        &self,
        file: &str,
        field: &str,
        list: &[String],
        names: &Names,
    ) -> Result<Vec<AreaId>> {
        let area = |a: &String| names.areas.get(file, field, a).map(|i| i as AreaId);
        list.iter().map(area).collect()
    }

    fn people_keys(&self, field: &str, list: &[String], names: &Names) -> Result<Vec<usize>> {
        list.iter()
            .map(|k| names.peoples.get(self.rb, field, k))
            .collect()
    }

    fn peoples(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<People>> {
        const GROUPS: [&str; 6] = ["germanic", "nomad", "raider", "roman", "slavic", "other"];
        let facts = &rb.nation_facts;
        let inactive = self.people_keys("nation_facts.inactive", &facts.inactive, names)?;
        let minor = &facts.minor_kingdoms_at_start;
        let minor = self.people_keys("nation_facts.minor_kingdoms_at_start", minor, names)?;
        for (k, list) in [
            ("empire_at_start", &facts.empire_at_start),
            ("kingdom_at_start", &facts.kingdom_at_start),
            ("raiders_later_active", &facts.raiders_later_active),
            ("raider_examples", &facts.raider_examples),
            ("no_voluntary_kingdom", &facts.no_voluntary_kingdom),
        ] {
            self.people_keys(&format!("nation_facts.{k}"), list, names)?;
        }
        let religions = self.religions(rb, names)?;
        let mut out = Vec::new();
        for (i, n) in rb.nations.rows.iter().enumerate() {
            if !GROUPS.contains(&n.group.as_str()) {
                let field = format!("nations.rows[{i}].group");
                return Err(bad(self.rb, field, &n.group, GROUPS.join(", ")));
            }
            let barbarian = !matches!(n.group.as_str(), "roman" | "other");
            out.push(People {
                key: n.key.clone(),
                latin: n.latin.clone(),
                group: n.group.clone(),
                minor_kingdom: n.minor_kingdom || minor.contains(&i),
                inactive: inactive.contains(&i),
                religion: religions[i].unwrap_or(if barbarian {
                    Religion::Pagan
                } else {
                    Religion::Unstated
                }),
            });
        }
        Ok(out)
    }

    fn religions(&self, rb: &RulebookFile, names: &Names) -> Result<Vec<Option<Religion>>> {
        let r = &rb.religion;
        if r.other_barbarians != "pagan" {
            return Err(bad(
                self.rb,
                "religion.other_barbarians",
                &r.other_barbarians,
                "\"pagan\"",
            ));
        }
        let mut out = vec![None; rb.nations.rows.len()];
        for (k, list, religion) in [
            ("catholic", &r.catholic, Religion::Catholic),
            ("mazdean", &r.mazdean, Religion::Mazdean),
            ("arian", &r.arian, Religion::Arian),
        ] {
            for p in self.people_keys(&format!("religion.{k}"), list, names)? {
                out[p] = Some(religion);
            }
        }
        Ok(out)
    }
}

/// A printed income (½ steps) in halves.
pub(super) fn halves(file: &str, field: &str, x: f64) -> Result<u8> {
    let h = x * 2.0;
    if h.fract() == 0.0 && (0.0..=40.0).contains(&h) {
        Ok(h as u8)
    } else {
        let allowed = "a multiple of 0.5 from 0 to 20";
        Err(AleaError::input(file, field, x, allowed))
    }
}

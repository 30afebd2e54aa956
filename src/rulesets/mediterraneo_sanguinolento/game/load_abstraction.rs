//! Reading abstraction.toml: the region graph, the majors, production and the starting forces, each
//! table recorded as a stand-in with its provenance.

use super::files::*;
use super::load::*;
use super::scenario::*;
use crate::error::{did_you_mean, Result};
use crate::rulesets::mediterraneo_sanguinolento::army::{parse_leader, LeaderKind};
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// The land leader classes a file may name (L2140-L2144; naval leaders fight only at sea).
const LEADER_KINDS: [(&str, LeaderKind); 4] = [
    ("infantry", LeaderKind::Infantry),
    ("cavalry", LeaderKind::Cavalry),
    ("archer", LeaderKind::Archer),
    ("chariot", LeaderKind::Chariot),
];

impl Loader<'_> {
    #[allow(clippy::type_complexity)]
    pub(super) fn graph(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
    ) -> Result<(Vec<Node>, Vec<u32>, Vec<Link>)> {
        let n = names.map.len();
        let t = &ab.nodes;
        self.stand_in("nodes", &t.provenance, t.why.as_deref())?;
        let terrains = &data().terrain;
        let mut nodes: Vec<Option<Node>> = vec![None; n];
        for (i, row) in t.rows.iter().enumerate() {
            let field = |k: &str| format!("nodes.rows[{i}].{k}");
            let c = names.get(self.ab, field("country"), &row.country)?;
            if nodes[c as usize].is_some() {
                return Err(bad(
                    self.ab,
                    field("country"),
                    quoted(&row.country),
                    "one node per country",
                ));
            }
            if !(-90.0..=90.0).contains(&row.lat) {
                return Err(bad(self.ab, field("lat"), row.lat, "a latitude -90 to 90"));
            }
            if !(-180.0..=180.0).contains(&row.lon) {
                return Err(bad(
                    self.ab,
                    field("lon"),
                    row.lon,
                    "a longitude -180 to 180",
                ));
            }
            let terrain = terrains
                .iter()
                .position(|h| h.name_en == row.terrain)
                .ok_or_else(|| {
                    let all: Vec<&str> = terrains.iter().map(|h| h.name_en.as_str()).collect();
                    bad(
                        self.ab,
                        field("terrain"),
                        quoted(&row.terrain),
                        format!("a hex terrain: one of {}", all.join(", ")),
                    )
                })?;
            let zone = ZONES.iter().position(|z| *z == row.zone).ok_or_else(|| {
                bad(
                    self.ab,
                    field("zone"),
                    quoted(&row.zone),
                    "a climatic zone: A, B, C, D or E",
                )
            })?;
            let mut seas = 0u8;
            for (j, sea) in row.seas.iter().enumerate() {
                let s = SEAS.iter().position(|s| s == sea).ok_or_else(|| {
                    bad(
                        self.ab,
                        format!("nodes.rows[{i}].seas[{j}]"),
                        quoted(sea),
                        format!("a sea: one of {}", SEAS.join(", ")),
                    )
                })?;
                seas |= 1 << s;
            }
            nodes[c as usize] = Some(Node {
                lat: row.lat,
                lon: row.lon,
                terrain: terrain as u8,
                zone: zone as u8,
                seas,
            });
        }
        let mut out = Vec::with_capacity(n);
        for (c, node) in nodes.into_iter().enumerate() {
            let name = names
                .map
                .iter()
                .find(|(_, &i)| i as usize == c)
                .map(|(k, _)| *k)
                .unwrap_or("?");
            out.push(node.ok_or_else(|| {
                bad(
                    self.ab,
                    "nodes.rows",
                    format!("no row for \"{name}\""),
                    "one node for every country of rulebook.toml",
                )
            })?);
        }
        // Both directions of every edge, then grouped by country (CSR: no allocation when a game walks it).
        let mut pairs: Vec<(CountryId, Link)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut edge = |file: &str,
                        field: String,
                        a: CountryId,
                        b: CountryId,
                        hexes: u32,
                        strait: u32,
                        sea: bool|
         -> Result<()> {
            if a == b {
                return Err(bad(
                    file,
                    field,
                    "a node linked to itself",
                    "two different countries",
                ));
            }
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(bad(
                    file,
                    field,
                    "a pair linked twice",
                    "each pair of countries linked once (by land, strait or sea)",
                ));
            }
            if !(1..=200).contains(&hexes) {
                return Err(bad(file, format!("{field}.hexes"), hexes, "1-200 hexes"));
            }
            pairs.push((
                a,
                Link {
                    to: b,
                    hexes: hexes as u16,
                    strait: strait as u8,
                    sea,
                },
            ));
            pairs.push((
                b,
                Link {
                    to: a,
                    hexes: hexes as u16,
                    strait: strait as u8,
                    sea,
                },
            ));
            Ok(())
        };
        let t = &ab.land_edges;
        self.stand_in("land_edges", &t.provenance, t.why.as_deref())?;
        for (i, row) in t.rows.iter().enumerate() {
            let field = format!("land_edges.rows[{i}]");
            let a = names.get(self.ab, format!("{field}.a"), &row.a)?;
            let b = names.get(self.ab, format!("{field}.b"), &row.b)?;
            if !STRAITS.contains(&row.strait) {
                return Err(bad(
                    self.ab,
                    format!("{field}.strait"),
                    row.strait,
                    "0 (a land border), 4, 5 or 8 PM",
                ));
            }
            edge(self.ab, field, a, b, row.hexes, row.strait, false)?;
        }
        let t = &ab.sea_lanes;
        self.stand_in("sea_lanes", &t.provenance, t.why.as_deref())?;
        for (i, row) in t.rows.iter().enumerate() {
            let field = format!("sea_lanes.rows[{i}]");
            let a = names.get(self.ab, format!("{field}.a"), &row.a)?;
            let b = names.get(self.ab, format!("{field}.b"), &row.b)?;
            if out[a as usize].seas & out[b as usize].seas == 0 {
                let v = format!("\"{}\" - \"{}\"", row.a, row.b);
                return Err(bad(
                    self.ab,
                    field,
                    v,
                    "two countries whose nodes touch a common sea",
                ));
            }
            edge(self.ab, field, a, b, row.hexes, 0, true)?;
        }
        pairs.sort_by_key(|(from, link)| (*from, link.to));
        let mut start = vec![0u32; n + 1];
        for (from, _) in &pairs {
            start[*from as usize + 1] += 1;
        }
        for c in 0..n {
            start[c + 1] += start[c];
        }
        let links: Vec<Link> = pairs.into_iter().map(|(_, l)| l).collect();
        // Every country must be reachable, or a game could never reach its cities.
        let mut reached = vec![false; n];
        let mut stack = vec![0usize];
        reached[0] = true;
        while let Some(c) = stack.pop() {
            for l in &links[start[c] as usize..start[c + 1] as usize] {
                if !reached[l.to as usize] {
                    reached[l.to as usize] = true;
                    stack.push(l.to as usize);
                }
            }
        }
        if let Some(c) = reached.iter().position(|r| !r) {
            let name = names
                .map
                .iter()
                .find(|(_, &i)| i as usize == c)
                .map(|(k, _)| *k)
                .unwrap_or("?");
            return Err(bad(
                self.ab,
                "land_edges",
                format!("\"{name}\" unreachable"),
                "a connected graph: every country reachable by land, strait or sea",
            ));
        }
        Ok((out, start, links))
    }

    pub(super) fn majors(&mut self, ab: &AbstractionFile, names: &Names) -> Result<Vec<CountryId>> {
        let m = &ab.majors;
        self.stand_in("majors", &m.provenance, m.why.as_deref())?;
        if m.countries.is_empty() || m.countries.len() > 32 {
            return Err(bad(
                self.ab,
                "majors.countries",
                m.countries.len(),
                "1-32 major countries",
            ));
        }
        let mut out = Vec::new();
        for (i, name) in m.countries.iter().enumerate() {
            let c = names.get(self.ab, format!("majors.countries[{i}]"), name)?;
            if out.contains(&c) {
                return Err(bad(
                    self.ab,
                    format!("majors.countries[{i}]"),
                    quoted(name),
                    "each major once",
                ));
            }
            out.push(c);
        }
        Ok(out)
    }

    pub(super) fn production(
        &mut self,
        ab: &AbstractionFile,
        countries: &[Country],
        nodes: &[Node],
    ) -> Result<(Vec<Resources>, Resources)> {
        let p = &ab.production;
        self.stand_in("production", &p.provenance, p.why.as_deref())?;
        let city = resources(self.ab, "production.city", &p.city)?;
        let tribe = resources(self.ab, "production.tribe", &p.tribe)?;
        let mut city_man = [0u32; 3];
        for (k, &v) in &p.city_man {
            city_man[culture_code(self.ab, format!("production.city_man.{k}"), k)?] = v;
        }
        let terrains = &data().terrain;
        let mut rural: Vec<Option<Resources>> = vec![None; terrains.len()];
        for (i, row) in p.rural.iter().enumerate() {
            let t = terrains
                .iter()
                .position(|h| h.name_en == row.terrain)
                .ok_or_else(|| {
                    bad(
                        self.ab,
                        format!("production.rural[{i}].terrain"),
                        quoted(&row.terrain),
                        "a hex terrain of battle-terrain.toml",
                    )
                })?;
            rural[t] = Some(resources(
                self.ab,
                &format!("production.rural[{i}].yields"),
                &row.yields,
            )?);
        }
        let mut out = Vec::with_capacity(countries.len());
        for (c, country) in countries.iter().enumerate() {
            let node = &nodes[c];
            let own = rural[node.terrain as usize].ok_or_else(|| {
                let name = &terrains[node.terrain as usize].name_en;
                bad(
                    self.ab,
                    "production.rural",
                    format!("no row for \"{name}\""),
                    format!(
                        "a row for every terrain a node uses ({} has it)",
                        country.name
                    ),
                )
            })?;
            let mut total = [0u32; 11];
            let n = country.cities.len() as u32;
            if n == 0 {
                add(&mut total, &tribe, 1);
            } else {
                add(&mut total, &city, n);
                total[MAN] += city_man[culture_index(country.culture)] * n;
            }
            add(&mut total, &own, 1);
            out.push(total);
        }
        Ok((out, city))
    }

    pub(super) fn start(
        &mut self,
        ab: &AbstractionFile,
        countries: &[Country],
        nodes: &[Node],
    ) -> Result<(Vec<Start>, Option<&'static Fleet>)> {
        let s = &ab.start;
        let fleet = match &s.fleet {
            None => None,
            Some(code) => Some(data().fleet(code).ok_or_else(|| {
                bad(
                    self.ab,
                    "start.fleet",
                    quoted(code),
                    "a fleet type: FG FB FT FQ FTR FC FP",
                )
            })?),
        };
        if s.fleets_per_coastal_city > 100 {
            return Err(bad(
                self.ab,
                "start.fleets_per_coastal_city",
                s.fleets_per_coastal_city,
                "0-100 fleets per city",
            ));
        }
        self.stand_in("start", &s.provenance, s.why.as_deref())?;
        let stock = resources(self.ab, "start.stock_per_city", &s.stock_per_city)?;
        if s.fortification > 6 {
            return Err(bad(
                self.ab,
                "start.fortification",
                s.fortification,
                "a fortification level 0-6",
            ));
        }
        let units = &data().units;
        // Per culture, the units of one city (`count` = per city).
        let mut by_culture: [Option<Vec<StartUnit>>; 3] = [None, None, None];
        for (i, row) in s.army.iter().enumerate() {
            let field = format!("start.army[{i}].culture");
            let k = culture_row(self.ab, field, &row.culture, &by_culture)?;
            let mut list = Vec::new();
            for (j, u) in row.units.iter().enumerate() {
                let field = |f: &str| format!("start.army[{i}].units[{j}].{f}");
                let unit = units.iter().position(|x| x.code == u.unit).ok_or_else(|| {
                    let hint = did_you_mean(&u.unit, units.iter().map(|x| x.code.as_str()));
                    bad(
                        self.ab,
                        field("unit"),
                        quoted(&u.unit),
                        format!("a unit code of land-units.toml{hint}"),
                    )
                })?;
                if u.per_city == 0 || u.per_city > 100 {
                    return Err(bad(
                        self.ab,
                        field("per_city"),
                        u.per_city,
                        "1-100 units per city",
                    ));
                }
                list.push(StartUnit {
                    unit: unit as u8,
                    count: u.per_city,
                    morale: class(self.ab, &field("morale"), &u.morale)?,
                    regular: u.regular,
                });
            }
            by_culture[k] = Some(list);
        }
        let mut out = Vec::with_capacity(countries.len());
        for (country, node) in countries.iter().zip(nodes) {
            let k = culture_index(country.culture);
            let list = by_culture[k].as_ref().ok_or_else(|| {
                bad(
                    self.ab,
                    "start.army",
                    format!("no row for culture \"{}\"", CULTURES[k].0),
                    "a row for every culture of the countries",
                )
            })?;
            // A country without cities (a Tribus) counts as one city.
            let size = (country.cities.len() as u32).max(1);
            let mut stock_here = [0u32; 11];
            add(&mut stock_here, &stock, size);
            out.push(Start {
                treasury: (s.treasury_per_city * size).max(s.treasury_minimum),
                stock: stock_here,
                fortification: s.fortification as u8,
                fleets: if node.seas != 0 && fleet.is_some() && !country.cities.is_empty() {
                    s.fleets_per_coastal_city * country.cities.len() as u32
                } else {
                    0
                },
                units: list
                    .iter()
                    .map(|&u| StartUnit {
                        count: u.count * size,
                        ..u
                    })
                    .collect(),
            });
        }
        Ok((out, fleet))
    }

    /// Every country's king by culture and the class of found leaders ([leaders]).
    pub(super) fn leaders(&mut self, ab: &AbstractionFile) -> Result<LeadersData> {
        let t = &ab.leaders;
        self.stand_in("leaders", &t.provenance, t.why.as_deref())?;
        let kind = |field: String, text: &str| {
            LEADER_KINDS
                .iter()
                .find(|(name, _)| *name == text)
                .map(|(_, k)| *k)
                .ok_or_else(|| {
                    let names: Vec<&str> = LEADER_KINDS.iter().map(|(n, _)| *n).collect();
                    bad(
                        self.ab,
                        field,
                        quoted(text),
                        format!("a land leader class: {}", names.join(", ")),
                    )
                })
        };
        let found_kind = kind("leaders.found_kind".into(), &t.found_kind)?;
        let mut king: [Option<(u8, u8, LeaderKind)>; 3] = [None; 3];
        for (i, row) in t.king.iter().enumerate() {
            let field = |f: &str| format!("leaders.king[{i}].{f}");
            let c = culture_row(self.ab, field("culture"), &row.culture, &king)?;
            let (tactical, strategic) = parse_leader(&row.leader).ok_or_else(|| {
                bad(
                    self.ab,
                    field("leader"),
                    quoted(&row.leader),
                    "tactical-strategic, each 0-5, e.g. \"4-3\"",
                )
            })?;
            king[c] = Some((
                tactical as u8,
                strategic as u8,
                kind(field("kind"), &row.kind)?,
            ));
        }
        Ok(LeadersData {
            king: every_culture(self.ab, "leaders.king", king, "row")?,
            found_kind,
        })
    }

    /// The commercial importance of each culture's cities ([trade], L885-L888: A x3, B x2, C x1).
    pub(super) fn importance(&mut self, ab: &AbstractionFile) -> Result<[u8; 3]> {
        let t = &ab.trade;
        self.stand_in("trade", &t.provenance, t.why.as_deref())?;
        let mut out = [None; 3];
        for (k, letter) in &t.importance {
            let field = format!("trade.importance.{k}");
            let c = culture_code(self.ab, field.clone(), k)?;
            out[c] = Some(match letter.as_str() {
                "A" => 3,
                "B" => 2,
                "C" => 1,
                _ => {
                    return Err(bad(
                        self.ab,
                        field,
                        quoted(letter),
                        "a commercial importance: A, B or C",
                    ))
                }
            });
        }
        every_culture(self.ab, "trade.importance", out, "entry")
    }

    /// The region-graph reading of interception's range and a report's sea travel ([intrigue]).
    pub(super) fn intrigue(&mut self, ab: &AbstractionFile) -> Result<IntrigueData> {
        let t = &ab.intrigue;
        self.stand_in("intrigue", &t.provenance, t.why.as_deref())?;
        if !(1..=3).contains(&t.range_hexes) {
            return Err(bad(
                self.ab,
                "intrigue.range_hexes",
                t.range_hexes,
                "1 to 3 (interception reaches 3 hexes, L5567)",
            ));
        }
        if !(1..=3).contains(&t.same_node_distance) {
            return Err(bad(
                self.ab,
                "intrigue.same_node_distance",
                t.same_node_distance,
                "1 to 3 hexes",
            ));
        }
        if !(1..=24).contains(&t.sea_lane_months) {
            return Err(bad(
                self.ab,
                "intrigue.sea_lane_months",
                t.sea_lane_months,
                "1 to 24 months",
            ));
        }
        Ok(IntrigueData {
            range_hexes: t.range_hexes,
            same_node_distance: t.same_node_distance,
            sea_lane_months: t.sea_lane_months,
        })
    }
}

//! Reading abstraction.toml: the Area-level stand-ins for the missing components, each table
//! recorded as a stand-in with its provenance.

use super::files::*;
use super::load::*;
use super::scenario::*;
use crate::error::{AleaError, Result};
use crate::rulesets::invasions::army::{Status, TEMPLATES};
use std::collections::{BTreeMap, HashMap};

// ---- The abstraction -------------------------------------------------------------------------------

impl<'f> Loader<'f> {
    pub(super) fn area_graph(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
        rivers: &[River],
        areas: &mut [Area],
    ) -> Result<()> {
        let g = &ab.area_graph;
        self.stand_in("area_graph", &g.provenance, &g.why)?;
        for (i, l) in g.links.iter().enumerate() {
            let (a, link) = self.area_link(i, l, names, rivers)?;
            let b = link.to;
            if a == b || areas[a as usize].links.iter().any(|x| x.to == b) {
                let value = format!("{} - {}", l.a, l.b);
                let field = format!("area_graph.links[{i}]");
                return Err(bad(
                    self.ab,
                    field,
                    &value,
                    "two different Areas, linked once",
                ));
            }
            areas[a as usize].links.push(link);
            areas[b as usize].links.push(AreaLink { to: a, ..link });
        }
        Ok(())
    }

    /// Area `a` and its link to `b`.
    fn area_link(
        &self,
        i: usize,
        l: &LinkRow,
        names: &Names,
        rivers: &[River],
    ) -> Result<(AreaId, AreaLink)> {
        let f = |k: &str| format!("area_graph.links[{i}].{k}");
        let a = names.areas.get(self.ab, f("a"), &l.a)? as AreaId;
        let b = names.areas.get(self.ab, f("b"), &l.b)? as AreaId;
        let crossing = match l.kind.as_str() {
            "land" => Crossing::Land,
            "strait" => Crossing::Strait,
            other => return Err(bad(self.ab, f("kind"), other, "\"land\" or \"strait\"")),
        };
        if let Some(r) = &l.river {
            let drains = |river: &River| river.areas.contains(&a) && river.areas.contains(&b);
            if !rivers.iter().any(|river| river.name == *r && drains(river)) {
                let allowed = "a river of rulebook.toml [rivers] that drains both Areas";
                return Err(bad(self.ab, f("river"), r, allowed));
            }
        }
        let link = AreaLink {
            to: b,
            crossing,
            river: l.river.is_some(),
            mountains: l.mountains,
            sea: None,
        };
        Ok((a, link))
    }

    /// abstraction.toml [straits] (optional): each strait of the Area graph given the sea zone
    /// whose naval stacks blockade it (XXV.F), a zone on the coast of one of its two Areas.
    pub(super) fn straits(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
        areas: &mut [Area],
    ) -> Result<()> {
        let Some(t) = &ab.straits else {
            return Ok(());
        };
        self.stand_in("straits", &t.provenance, &t.why)?;
        for (i, row) in t.rows.iter().enumerate() {
            let f = |k: &str| format!("straits.rows[{i}].{k}");
            let a = names.areas.get(self.ab, f("a"), &row.a)?;
            let b = names.areas.get(self.ab, f("b"), &row.b)?;
            let sea = names.seas.get(self.ab, f("sea"), &row.sea)?;
            let Some(link) = areas[a]
                .links
                .iter()
                .position(|l| l.to as usize == b && l.crossing == Crossing::Strait)
            else {
                let value = format!("{} - {}", row.a, row.b);
                let allowed = "two Areas joined by a strait in [area_graph] links";
                return Err(bad(self.ab, format!("straits.rows[{i}]"), &value, allowed));
            };
            if areas[a].links[link].sea.is_some() {
                let value = format!("{} - {}", row.a, row.b);
                let allowed = "a strait listed once";
                return Err(bad(self.ab, format!("straits.rows[{i}]"), &value, allowed));
            }
            if (areas[a].coasts | areas[b].coasts) & (1 << sea) == 0 {
                let allowed = format!(
                    "a sea zone where {} or {} has a port (rulebook.toml)",
                    row.a, row.b
                );
                return Err(bad(self.ab, f("sea"), &row.sea, allowed));
            }
            areas[a].links[link].sea = Some(sea as SeaId);
            let back = areas[b]
                .links
                .iter_mut()
                .find(|l| l.to as usize == a)
                .expect("links are symmetric");
            back.sea = Some(sea as SeaId);
        }
        Ok(())
    }

    pub(super) fn boxes(
        &self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
    ) -> Result<Vec<OffMapBox>> {
        let links = &ab.area_graph.boxes;
        let mut out = Vec::new();
        for (i, b) in rb.boxes.iter().enumerate() {
            if !["barbarian", "civilized"].contains(&b.listed_under.as_str()) {
                let field = format!("box[{i}].listed_under");
                return Err(bad(
                    self.rb,
                    field,
                    &b.listed_under,
                    "\"barbarian\" or \"civilized\"",
                ));
            }
            let Some(link) = links.iter().find(|l| l.name == b.name) else {
                let allowed = "a box given its Area in area_graph.boxes";
                return Err(bad(self.ab, "area_graph.boxes", &b.name, allowed));
            };
            out.push(OffMapBox {
                name: b.name.clone(),
                bonus: b.bonus.unwrap_or(0),
                area: names.areas.get(self.ab, "area_graph.boxes", &link.area)? as AreaId,
            });
        }
        if let Some(l) = links
            .iter()
            .find(|l| !rb.boxes.iter().any(|b| b.name == l.name))
        {
            return Err(bad(
                self.ab,
                "area_graph.boxes",
                &l.name,
                "an off-map box of [[box]]",
            ));
        }
        Ok(out)
    }

    pub(super) fn sea_graph(
        &mut self,
        ab: &AbstractionFile,
        names: &Names,
        seas: &mut [Sea],
    ) -> Result<()> {
        let g = &ab.sea_graph;
        self.stand_in("sea_graph", &g.provenance, &g.why)?;
        for (i, [a, b]) in g.links.iter().enumerate() {
            let field = format!("sea_graph.links[{i}]");
            let x = names.seas.get(self.ab, &field, a)? as SeaId;
            let y = names.seas.get(self.ab, &field, b)? as SeaId;
            if x == y || seas[x as usize].links.contains(&y) {
                let allowed = "two different sea zones, linked once";
                return Err(bad(self.ab, field, &format!("{a} - {b}"), allowed));
            }
            seas[x as usize].links.push(y);
            seas[y as usize].links.push(x);
        }
        Ok(())
    }

    pub(super) fn time_track(&mut self, ab: &AbstractionFile, turns: u8) -> Result<()> {
        let t = &ab.time_track;
        self.stand_in("time_track", &t.provenance, &t.why)?;
        for (k, v, zero_ok) in [
            ("attila_death_turn", t.attila_death_turn, false),
            ("islam_turn", t.islam_turn, true),
            ("theodosian_walls_turn", t.theodosian_walls_turn, false),
        ] {
            if !(v <= turns && (zero_ok || v > 0)) {
                let allowed = format!(
                    "a turn 1..{turns}{}",
                    if zero_ok { " or 0 (never)" } else { "" }
                );
                return Err(AleaError::input(
                    self.ab,
                    format!("time_track.{k}"),
                    v,
                    allowed,
                ));
            }
        }
        Ok(())
    }

    pub(super) fn nations(
        &mut self,
        rb: &RulebookFile,
        ab: &AbstractionFile,
        names: &Names,
        peoples: &[People],
        areas: &[Area],
        provinces: &[Province],
    ) -> Result<Vec<Nation>> {
        let entry = &ab.entry;
        self.stand_in("entry", &entry.provenance, &entry.why)?;
        let mut nations = Vec::new();
        for (i, row) in entry.rows.iter().enumerate() {
            let field = format!("entry.rows[{i}]");
            self.row_stand_in(&field, &row.nation, &row.provenance, &row.why)?;
            // Per-player and per-nation columns share one name pattern (vp_<source>_<key>).
            if rb
                .scenario
                .players
                .iter()
                .any(|p| p.eq_ignore_ascii_case(&row.nation))
            {
                let allowed = "a key that is not also a player's name";
                return Err(bad(
                    self.ab,
                    format!("{field}.nation"),
                    &row.nation,
                    allowed,
                ));
            }
            nations.push(self.entry(i, row, rb.scenario.turns, names, peoples, provinces)?);
        }
        let keys = Index::new(
            self.ab,
            "a nation of [entry]",
            entry.rows.iter().map(|r| r.nation.as_str()),
            |i| format!("entry.rows[{i}].nation"),
        )?;
        self.assignment(ab, &rb.scenario.players, &keys, &mut nations)?;
        self.start(ab, &keys, names, areas, &mut nations)?;
        self.forces(ab, &keys, peoples, &mut nations)?;
        self.objectives(ab, &keys, names, &mut nations)?;
        self.fleets(ab, &keys, names, &mut nations)?;
        Ok(nations)
    }

    fn entry(
        &self,
        i: usize,
        row: &EntryRow,
        turns: u8,
        names: &Names,
        peoples: &[People],
        provinces: &[Province],
    ) -> Result<Nation> {
        let f = |k: &str| format!("entry.rows[{i}].{k}");
        let (people_field, people_key) = match &row.people {
            Some(p) => (f("people"), p),
            None => (f("nation"), &row.nation),
        };
        let people = names.peoples.get(self.ab, people_field, people_key)?;
        let mut raids = 0u16;
        for &t in &row.raids {
            raids |= 1 << turn(self.ab, f("raids"), t, turns)?;
        }
        let active_from = match row.active_from {
            0 => 0,
            t => turn(self.ab, f("active_from"), t, turns)?,
        };
        let nation = Nation {
            key: row.nation.clone(),
            people: people as u8,
            player: 0,
            entry_turn: turn(self.ab, f("turn"), row.turn, turns)?,
            status: status(self.ab, f("status"), &row.status)?,
            nomad: peoples[people].group == "nomad",
            capital: self.capital(&f("capital"), &row.capital, names, provinces)?,
            horde: self.optional_province(&f("horde"), &row.horde, names)?,
            raids,
            active_from,
            treasury: 0,
            units: Vec::new(),
            controls: Vec::new(),
            objectives: Vec::new(),
            fleets: Vec::new(),
        };
        self.check_home(i, row, &nation, &peoples[people])?;
        Ok(nation)
    }

    fn optional_province(
        &self,
        field: &str,
        name: &Option<String>,
        names: &Names,
    ) -> Result<Option<ProvinceId>> {
        let Some(name) = name else { return Ok(None) };
        Ok(Some(
            names.provinces.get(self.ab, field, name)? as ProvinceId
        ))
    }

    /// A capital is a province with a city, not a site.
    fn capital(
        &self,
        field: &str,
        name: &Option<String>,
        names: &Names,
        provinces: &[Province],
    ) -> Result<Option<ProvinceId>> {
        let capital = self.optional_province(field, name, names)?;
        match capital.map(|c| &provinces[c as usize]) {
            Some(p) if p.city.as_ref().is_none_or(|c| c.level == 0) => {
                let allowed = "a province with a city (level 1-3)";
                Err(bad(self.ab, field, &p.name, allowed))
            }
            _ => Ok(capital),
        }
    }

    /// A Civilized nation needs a capital unless it is a minor or inactive kingdom; an active
    /// Barbarian needs a horde, a raider only once it settles.
    fn check_home(&self, i: usize, row: &EntryRow, n: &Nation, people: &People) -> Result<()> {
        let optional = people.minor_kingdom || people.inactive;
        let civilized = n.status != Status::Barbarian;
        let raider = n.raids != 0;
        let (key, value, allowed) = if !civilized && n.capital.is_some() {
            ("capital", shown(&row.capital), "no capital for a Barbarian")
        } else if !civilized && !raider && n.horde.is_none() {
            (
                "horde",
                shown(&row.horde),
                "a horde province for an active Barbarian",
            )
        } else if raider && n.horde.is_some() != (n.active_from > 0) {
            let value = n.active_from.to_string();
            (
                "active_from",
                value,
                "a turn when, and only when, a raider has a horde",
            )
        } else if civilized && n.horde.is_some() {
            (
                "horde",
                shown(&row.horde),
                "no horde for a Kingdom or Empire",
            )
        } else if civilized && n.capital.is_none() && !optional {
            let allowed = "a capital for a Kingdom or Empire that is not minor or inactive";
            ("capital", shown(&row.capital), allowed)
        } else {
            return Ok(());
        };
        Err(AleaError::input(
            self.ab,
            format!("entry.rows[{i}].{key}"),
            value,
            allowed,
        ))
    }

    fn assignment(
        &mut self,
        ab: &AbstractionFile,
        players: &[String],
        keys: &Index,
        nations: &mut [Nation],
    ) -> Result<()> {
        let a = &ab.assignment;
        self.stand_in("assignment", &a.provenance, &a.why)?;
        let mut assigned = vec![false; nations.len()];
        for (player, list) in &a.players {
            let field = format!("assignment.{player}");
            let Some(p) = players.iter().position(|x| x == player) else {
                let allowed = format!("one of the players {}", players.join(", "));
                return Err(bad(self.ab, field, player, allowed));
            };
            for key in list {
                let n = keys.get(self.ab, &field, key)?;
                if std::mem::replace(&mut assigned[n], true) {
                    return Err(bad(
                        self.ab,
                        field,
                        key,
                        "a nation given to one player only",
                    ));
                }
                nations[n].player = p as PlayerId;
            }
        }
        match assigned.iter().position(|&a| !a) {
            Some(n) => Err(bad(
                self.ab,
                "assignment",
                &nations[n].key,
                "every nation given a player",
            )),
            None => Ok(()),
        }
    }

    fn start(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        names: &Names,
        areas: &[Area],
        nations: &mut [Nation],
    ) -> Result<()> {
        let s = &ab.start;
        self.stand_in("start", &s.provenance, &s.why)?;
        let mut holder: HashMap<ProvinceId, usize> = HashMap::new();
        for (i, row) in s.rows.iter().enumerate() {
            let field = format!("start.rows[{i}]");
            self.row_stand_in(&field, &row.nation, &row.provenance, &row.why)?;
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            for name in &row.controls {
                let f = format!("{field}.controls");
                for p in self.area_or_province(&f, name, names, areas)? {
                    if holder.insert(p, n).is_some() {
                        return Err(bad(self.ab, f, name, "provinces held by one nation only"));
                    }
                    nations[n].controls.push(p);
                }
            }
            let first = nations[n].entry_turn == 1;
            if let Some(c) = nations[n]
                .capital
                .filter(|c| first && !nations[n].controls.contains(c))
            {
                let allowed = "a capital among the provinces the nation controls";
                return Err(bad(
                    self.ab,
                    format!("{field}.controls"),
                    names.provinces.names[c as usize],
                    allowed,
                ));
            }
        }
        Ok(())
    }

    /// An Area or a province, by name.
    fn target(&self, field: &str, name: &str, names: &Names) -> Result<Target> {
        if let Some(&a) = names.areas.map.get(name) {
            return Ok(Target::Area(a as AreaId));
        }
        match names.provinces.map.get(name) {
            Some(&p) => Ok(Target::Province(p as ProvinceId)),
            None => Err(bad(
                self.ab,
                field,
                name,
                "an Area or a province of rulebook.toml",
            )),
        }
    }

    /// An Area's counting provinces, or one province.
    fn area_or_province(
        &self,
        field: &str,
        name: &str,
        names: &Names,
        areas: &[Area],
    ) -> Result<Vec<ProvinceId>> {
        Ok(match self.target(field, name, names)? {
            Target::Area(a) => areas[a as usize].provinces.clone(),
            Target::Province(p) => vec![p],
        })
    }

    fn forces(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        peoples: &[People],
        nations: &mut [Nation],
    ) -> Result<()> {
        let f = &ab.forces;
        self.stand_in("forces", &f.provenance, &f.why)?;
        for n in nations.iter_mut() {
            let people = &peoples[n.people as usize];
            let force = match n.status {
                _ if n.raids != 0 => &f.raider,
                Status::Empire => &f.empire,
                Status::Kingdom if people.minor_kingdom || people.inactive => &f.minor_kingdom,
                Status::Kingdom => &f.kingdom,
                Status::Barbarian if n.nomad => &f.nomad,
                Status::Barbarian => &f.barbarian,
            };
            n.treasury = force.treasury;
            n.units = self.units("forces", &force.units)?;
        }
        for (i, row) in f.rows.iter().enumerate() {
            let field = format!("forces.rows[{i}]");
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            nations[n].treasury = row.treasury;
            nations[n].units = self.units(&format!("{field}.units"), &row.units)?;
        }
        Ok(())
    }

    pub(super) fn units(&self, field: &str, units: &BTreeMap<String, u8>) -> Result<Vec<(u8, u8)>> {
        let mut out = Vec::new();
        for (name, &count) in units {
            let Some(t) = TEMPLATES.iter().position(|t| t.name == name) else {
                let known: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
                return Err(bad(
                    self.ab,
                    field,
                    name,
                    format!("a unit type: {}", known.join(", ")),
                ));
            };
            out.push((t as u8, count));
        }
        Ok(out)
    }

    fn objectives(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        names: &Names,
        nations: &mut [Nation],
    ) -> Result<()> {
        let o = &ab.objectives;
        self.stand_in("objectives", &o.provenance, &o.why)?;
        for (i, row) in o.rows.iter().enumerate() {
            let field = format!("objectives.rows[{i}]");
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            let target = self.target(&format!("{field}.target"), &row.target, names)?;
            nations[n].objectives.push(Objective { target, vp: row.vp });
        }
        Ok(())
    }

    /// `[fleets]`: the naval stack each nation brings on entering, at most one per zone (XXV.A).
    fn fleets(
        &mut self,
        ab: &AbstractionFile,
        keys: &Index,
        names: &Names,
        nations: &mut [Nation],
    ) -> Result<()> {
        let Some(f) = &ab.fleets else {
            return Ok(());
        };
        self.stand_in("fleets", &f.provenance, &f.why)?;
        for (i, row) in f.rows.iter().enumerate() {
            let field = format!("fleets.rows[{i}]");
            self.row_stand_in(&field, &row.nation, &row.provenance, &row.why)?;
            let n = keys.get(self.ab, format!("{field}.nation"), &row.nation)?;
            let sea = names.seas.get(self.ab, format!("{field}.sea"), &row.sea)? as SeaId;
            if !(1..=2).contains(&row.fleets) {
                let allowed = "1 or 2 (a naval stack holds at most 2 fleets, XXV.A)";
                return Err(AleaError::input(
                    self.ab,
                    format!("{field}.fleets"),
                    row.fleets,
                    allowed,
                ));
            }
            if nations[n].fleets.iter().any(|&(s, _)| s == sea) {
                let allowed = "one row per nation and sea zone";
                return Err(bad(self.ab, format!("{field}.sea"), &row.sea, allowed));
            }
            nations[n].fleets.push((sea, row.fleets));
        }
        Ok(())
    }

    /// `[limes]`: the provinces with a Roman Limes.
    /// `[limes]`: its provinces, and the local units (type, count) each Limes becomes.
    pub(super) fn limes(&mut self, ab: &AbstractionFile, names: &Names) -> Result<LimesData> {
        let Some(l) = &ab.limes else {
            return Ok((Vec::new(), Vec::new()));
        };
        self.stand_in("limes", &l.provenance, &l.why)?;
        let mut out = Vec::new();
        for (i, name) in l.provinces.iter().enumerate() {
            let field = format!("limes.provinces[{i}]");
            let p = names.provinces.get(self.ab, field.clone(), name)? as ProvinceId;
            if out.contains(&p) {
                return Err(bad(self.ab, field, name, "a province listed once"));
            }
            out.push(p);
        }
        let local = match &l.local_units {
            Some(u) => self.units("limes.local_units", u)?,
            None => Vec::new(),
        };
        Ok((out, local))
    }

    /// The optional `[objective_balance]`: a factor above 0 for every player, nothing else.
    pub(super) fn objective_balance(
        &mut self,
        ab: &AbstractionFile,
        players: &[String],
    ) -> Result<Option<Vec<f64>>> {
        let Some(b) = &ab.objective_balance else {
            return Ok(None);
        };
        self.stand_in("objective_balance", &b.provenance, &b.why)?;
        let mut out = vec![f64::NAN; players.len()];
        for (key, &f) in &b.factors {
            let field = format!("objective_balance.factors.{key}");
            let Some(p) = players.iter().position(|x| x == key) else {
                let allowed = format!("a player of rulebook.toml: {}", players.join(", "));
                return Err(bad(self.ab, field, key, allowed));
            };
            if !(f > 0.0 && f <= 100.0) {
                return Err(bad(
                    self.ab,
                    field,
                    &f.to_string(),
                    "a factor above 0, at most 100",
                ));
            }
            out[p] = f;
        }
        if let Some(p) = out.iter().position(|f| f.is_nan()) {
            let allowed = format!("a factor for every player ({} has none)", players[p]);
            return Err(bad(self.ab, "objective_balance.factors", "", allowed));
        }
        Ok(Some(out))
    }

    pub(super) fn administration(&mut self, ab: &AbstractionFile) -> Result<(SetCosts, SetCosts)> {
        let a = &ab.administration;
        self.stand_in("administration", &a.provenance, &a.why)?;
        let (kingdom, empire) = (set_row(&a.kingdom), set_row(&a.empire));
        for (i, k) in a.known.iter().enumerate() {
            self.known_cost(i, k, &kingdom, &empire)?;
        }
        if a.effects != "null" {
            let allowed = "\"null\" (the only model so far)";
            return Err(bad(self.ab, "administration.effects", &a.effects, allowed));
        }
        Ok((kingdom, empire))
    }

    /// A cost one of the text's examples fixes must be the one the table gives.
    fn known_cost(
        &mut self,
        i: usize,
        k: &KnownCost,
        kingdom: &SetCosts,
        empire: &SetCosts,
    ) -> Result<()> {
        let field = format!("administration.known[{i}]");
        let subject = format!("{} {}", k.status, k.set);
        self.row_stand_in(&field, &subject, &Some(k.provenance.clone()), &k.why)?;
        let table = match k.status.as_str() {
            "kingdom" => kingdom,
            "empire" => empire,
            other => {
                return Err(bad(
                    self.ab,
                    format!("{field}.status"),
                    other,
                    "kingdom or empire",
                ))
            }
        };
        let Some(set) = SETS.iter().position(|s| *s == k.set) else {
            return Err(bad(
                self.ab,
                format!("{field}.set"),
                &k.set,
                SETS.join(", "),
            ));
        };
        if table[set] != k.cost {
            let allowed = format!("the cost the table above gives ({})", table[set]);
            return Err(AleaError::input(
                self.ab,
                format!("{field}.cost"),
                k.cost,
                allowed,
            ));
        }
        Ok(())
    }

    /// An `[events]` card chance beyond the revolts' (`heresy_chance`, `alliance_chance`,
    /// `coalition_chance`): a probability, only under model "revolts"; 0 when absent. `what`
    /// says what the card brings, for the error.
    pub(super) fn card_chance(
        &mut self,
        ab: &AbstractionFile,
        name: &str,
        value: Option<f64>,
        what: &str,
    ) -> Result<f64> {
        let field = format!("events.{name}");
        match (ab.events.model.as_str(), value) {
            (_, None) => Ok(0.0),
            ("revolts", Some(c)) if (0.0..=1.0).contains(&c) => Ok(c),
            ("revolts", Some(c)) => Err(bad(
                self.ab,
                &field,
                &c.to_string(),
                format!("a probability 0..1 (the chance a player's event card {what})"),
            )),
            (_, Some(c)) => Err(bad(
                self.ab,
                &field,
                &c.to_string(),
                "nothing unless model = \"revolts\" (under the null model no card acts)",
            )),
        }
    }

    /// The events model: "null" (no card acts) or "revolts" (a card starts a revolt with
    /// `revolt_chance`); returns that chance (0 under the null model).
    pub(super) fn events(&mut self, ab: &AbstractionFile) -> Result<f64> {
        let e = &ab.events;
        self.stand_in("events", &e.provenance, &e.why)?;
        let allowed = "a probability 0..1 (the chance a player's event card starts a revolt)";
        match (e.model.as_str(), e.revolt_chance) {
            ("null", None) => Ok(0.0),
            ("null", Some(c)) => Err(bad(
                self.ab,
                "events.revolt_chance",
                &c.to_string(),
                "nothing with model = \"null\" (no card acts); model = \"revolts\" uses it",
            )),
            ("revolts", Some(c)) if (0.0..=1.0).contains(&c) => Ok(c),
            ("revolts", Some(c)) => Err(bad(
                self.ab,
                "events.revolt_chance",
                &c.to_string(),
                allowed,
            )),
            ("revolts", None) => Err(bad(self.ab, "events.revolt_chance", "nothing", allowed)),
            (other, _) => Err(bad(
                self.ab,
                "events.model",
                other,
                "\"null\" (no card acts) or \"revolts\" (cards start revolts at revolt_chance)",
            )),
        }
    }
}

/// `[limes]` read: its provinces and the local units (unit type, count) each Limes becomes.
type LimesData = (Vec<ProvinceId>, Vec<(u8, u8)>);

/// A turn of the game, 1..=turns.
pub(super) fn turn(file: &str, field: String, t: u8, turns: u8) -> Result<u8> {
    if (1..=turns).contains(&t) {
        Ok(t)
    } else {
        Err(AleaError::input(
            file,
            field,
            t,
            format!("a turn 1..{turns}"),
        ))
    }
}

pub(super) fn status(file: &str, field: String, text: &str) -> Result<Status> {
    let found = STATUSES.iter().find(|(n, _)| *n == text).map(|&(_, s)| s);
    found.ok_or_else(|| bad(file, field, text, "barbarian, kingdom or empire"))
}

/// An optional name as an error message shows it.
pub(super) fn shown(name: &Option<String>) -> String {
    name.as_ref()
        .map_or("nothing".to_string(), |n| format!("\"{n}\""))
}

/// A row keyed by Administration set, in the order of `SETS`.
pub(super) fn set_row(r: &SetCostsRow) -> [u8; 3] {
    [r.passive, r.military, r.reform]
}

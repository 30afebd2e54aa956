//! The map and the empires in the schema of digest §6.3, named by id: what an explicit map file
//! lists (`[[city]]`, `[[barbarian]]`, `[[edge]]`, `[[scenario.empire]]`) and what the `[ring]`
//! template generates, so both reach the game through one code path ([`MapSpec::build`]), which
//! resolves the ids to node indices and checks them.

use super::load::MAX_NODES;
use super::scenario::{Area, City, EdgeKind, Empire, Map};
use crate::error::{did_you_mean, AleaError, Result};

/// One row of a map, with the field its errors name (e.g. `city[3]`, `ring.city[0]`).
#[derive(Clone, Debug)]
pub struct CitySpec {
    pub field: String,
    pub id: String,
    pub territory: String,
    pub size: u8,
    pub port: bool,
}

#[derive(Clone, Debug)]
pub struct AreaSpec {
    pub field: String,
    pub id: String,
    pub territory: String,
    pub strength: u8,
}

#[derive(Clone, Debug)]
pub struct EdgeSpec {
    pub field: String,
    pub a: String,
    pub b: String,
    pub kind: EdgeKind,
}

/// An empire as the scenario sets it up, in seat order.
#[derive(Clone, Debug)]
pub struct EmpireSpec {
    pub field: String,
    pub name: String,
    pub capital: String,
    pub fortifications: u8,
    pub hand_size: u8,
    /// Index into the scenario's decks.
    pub deck: usize,
}

/// A map with its scenario's empires and key cities, every node named by its id. Node indices
/// follow the lists: the cities in order, then the barbarian areas; a node's neighbours are in
/// the order of the edges.
#[derive(Clone, Debug, Default)]
pub struct MapSpec {
    /// The file the rows come from (the base file of a perturbation).
    pub file: String,
    pub cities: Vec<CitySpec>,
    pub areas: Vec<AreaSpec>,
    pub edges: Vec<EdgeSpec>,
    pub key_cities: Vec<(String, String)>,
    pub empires: Vec<EmpireSpec>,
}

impl MapSpec {
    /// No rows yet, read from `file`.
    pub fn empty(file: &str) -> MapSpec {
        MapSpec {
            file: file.to_string(),
            ..MapSpec::default()
        }
    }

    fn bad(
        &self,
        field: impl Into<String>,
        value: impl std::fmt::Display,
        allowed: impl Into<String>,
    ) -> AleaError {
        AleaError::input(&self.file, field, value, allowed)
    }

    /// The node of an id: cities first, then areas.
    pub fn node(&self, id: &str) -> Option<usize> {
        self.cities.iter().position(|c| c.id == id).or_else(|| {
            self.areas
                .iter()
                .position(|a| a.id == id)
                .map(|i| self.cities.len() + i)
        })
    }

    fn ids(&self) -> impl Iterator<Item = &str> {
        self.cities
            .iter()
            .map(|c| c.id.as_str())
            .chain(self.areas.iter().map(|a| a.id.as_str()))
    }

    fn city(&self, field: String, id: &str) -> Result<usize> {
        match self.node(id) {
            Some(c) if c < self.cities.len() => Ok(c),
            _ => Err(self.bad(
                field,
                format!(
                    "\"{id}\"{}",
                    did_you_mean(id, self.cities.iter().map(|c| c.id.as_str()))
                ),
                "a city id of the map",
            )),
        }
    }

    /// Resolves the ids and checks the map: ids distinct, every edge between known nodes and of
    /// a kind its ends allow, no edge twice, capitals distinct cities, key cities not capitals.
    pub fn build(&self) -> Result<(Map, Vec<Empire>)> {
        let n_nodes = self.cities.len() + self.areas.len();
        if n_nodes > MAX_NODES {
            return Err(self.bad(
                "city",
                format!("{n_nodes} cities and areas"),
                format!("at most {MAX_NODES} cities and areas"),
            ));
        }
        if self.cities.is_empty() {
            return Err(self.bad("city", "none", "at least one city"));
        }
        let rows = self
            .cities
            .iter()
            .map(|c| (&c.field, &c.id, &c.territory))
            .chain(self.areas.iter().map(|a| (&a.field, &a.id, &a.territory)));
        let mut territories: Vec<String> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (field, id, territory) in rows {
            if seen.contains(&id.as_str()) {
                return Err(self.bad(
                    format!("{field}.id"),
                    format!("\"{id}\" twice"),
                    "an id no other city or area of the map has",
                ));
            }
            seen.push(id);
            if !territories.contains(territory) {
                territories.push(territory.clone());
            }
        }
        let sector = |t: &str| territories.iter().position(|x| x == t).unwrap() as u8;
        let mut cities: Vec<City> = self
            .cities
            .iter()
            .map(|c| City {
                name: c.id.clone(),
                sector: sector(&c.territory),
                size: c.size,
                port: c.port,
                key: false,
            })
            .collect();
        let areas = self
            .areas
            .iter()
            .map(|a| Area {
                name: a.id.clone(),
                sector: sector(&a.territory),
                strength: a.strength,
            })
            .collect();
        let mut adjacent: Vec<Vec<(usize, EdgeKind)>> = vec![Vec::new(); n_nodes];
        for e in &self.edges {
            let end = |side: &str, id: &str| -> Result<usize> {
                self.node(id).ok_or_else(|| {
                    self.bad(
                        format!("{}.{side}", e.field),
                        format!("\"{id}\"{}", did_you_mean(id, self.ids())),
                        "a city or barbarian area id of the map",
                    )
                })
            };
            let (a, b) = (end("a", &e.a)?, end("b", &e.b)?);
            let (a_city, b_city) = (a < cities.len(), b < cities.len());
            let allowed = match e.kind {
                EdgeKind::Road | EdgeKind::Strait => a_city && b_city,
                EdgeKind::BarbarianPath => !(a_city && b_city),
            };
            if !allowed {
                return Err(self.bad(format!("{}.kind", e.field), format!("\"{}\"", EdgeKind::NAMES[e.kind as usize]), "road or strait between two cities; barbarian_path from a city or area to an area (L119-L139)"));
            }
            if a == b || adjacent[a].iter().any(|&(x, _)| x == b) {
                return Err(self.bad(
                    e.field.clone(),
                    format!("\"{}\" - \"{}\"", e.a, e.b),
                    "an edge between two different nodes not already linked",
                ));
            }
            adjacent[a].push((b, e.kind));
            adjacent[b].push((a, e.kind));
        }
        let mut empires = Vec::with_capacity(self.empires.len());
        for e in &self.empires {
            let capital = self.city(format!("{}.capital", e.field), &e.capital)?;
            if empires.iter().any(|x: &Empire| x.capital == capital) {
                return Err(self.bad(
                    format!("{}.capital", e.field),
                    format!("\"{}\"", e.capital),
                    "a city no other empire has as its capital",
                ));
            }
            empires.push(Empire {
                name: e.name.clone(),
                capital,
                fortifications: e.fortifications,
                hand_size: e.hand_size,
                deck: e.deck,
            });
        }
        for (field, k) in &self.key_cities {
            let c = self.city(field.clone(), k)?;
            if empires.iter().any(|e| e.capital == c) {
                return Err(self.bad(
                    field.clone(),
                    format!("\"{k}\""),
                    "a city other than a capital (key cities start neutral, L284-L289)",
                ));
            }
            cities[c].key = true;
        }
        let map = Map {
            cities,
            areas,
            adjacent,
            territories,
        };
        Ok((map, empires))
    }

    /// The map as an explicit map file's `[[city]]`, `[[barbarian]]`, `[[edge]]` and
    /// `[[scenario.empire]]` rows (what the ring template generates, written out).
    pub fn rows_toml(&self, deck_names: &[&str]) -> String {
        let mut out = String::new();
        let q = |s: &str| format!("\"{s}\"");
        for c in &self.cities {
            out += &format!(
                "[[city]]\nid = {}\nterritory = {}\nsize = {}\nport = {}\n\n",
                q(&c.id),
                q(&c.territory),
                c.size,
                c.port
            );
        }
        for a in &self.areas {
            out += &format!(
                "[[barbarian]]\nid = {}\nterritory = {}\nstrength = {}\n\n",
                q(&a.id),
                q(&a.territory),
                a.strength
            );
        }
        for e in &self.edges {
            out += &format!(
                "[[edge]]\na = {}\nb = {}\nkind = {}\n\n",
                q(&e.a),
                q(&e.b),
                q(EdgeKind::NAMES[e.kind as usize])
            );
        }
        for (seat, e) in self.empires.iter().enumerate() {
            out += &format!(
                "[[scenario.empire]]\nname = {}\nseat = {}\ncapital = {}\nfortifications = {}\nhand_size = {}\ndeck = {}\n\n",
                q(&e.name),
                seat + 1,
                q(&e.capital),
                e.fortifications,
                e.hand_size,
                q(deck_names[e.deck])
            );
        }
        out
    }
}

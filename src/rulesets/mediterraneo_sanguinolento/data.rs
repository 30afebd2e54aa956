//! The unit statistics and combat tables of `scenarios/mediterraneo-sanguinolento/` (provenance and the
//! misprint options are recorded there). They are embedded at build time so that the binary answers from
//! anywhere; the files remain the data.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

macro_rules! scenario {
    ($file:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/mediterraneo-sanguinolento/",
            $file
        ))
    };
}

/// The 12 columns of the land factor table: battle terrain types 1-10, then CIUDAD and NAVAL.
pub const CIUDAD: usize = 11;
pub const NAVAL: usize = 12;

#[derive(Debug, Deserialize)]
pub struct LandUnit {
    pub code: String,
    pub name_es: String,
    pub name_en: String,
    pub class: String,
    pub men: u32,
    pub animals: u32,
    pub animal_kind: String,
    #[serde(default)]
    pub chariots: u32,
    pub movement: u32,
    /// Creation cost per unit by resource (pob, met, mad, cab, cam, ele); the corrected value where the
    /// rulebook misprints (see `printed`).
    pub cost: BTreeMap<String, u32>,
    #[serde(default)]
    pub printed: Option<BTreeMap<String, u32>>,
    #[serde(default)]
    pub ambiguity: Option<String>,
    pub provenance: String,
    pub lines: String,
}

#[derive(Debug, Deserialize)]
pub struct FactorRow {
    pub units: Vec<String>,
    pub factors: Vec<f64>,
    pub provenance: String,
    pub lines: String,
}

#[derive(Debug, Deserialize)]
pub struct CrtEntry {
    pub block: u32,
    pub row: u32,
    pub values: Vec<f64>,
    #[serde(default)]
    pub regularized: Option<Vec<f64>>,
    #[serde(default)]
    pub ambiguity: Option<String>,
    pub provenance: String,
    pub lines: String,
}

#[derive(Debug, Deserialize)]
pub struct ByQuality<T> {
    pub regular: Vec<T>,
    pub irregular: Vec<T>,
    pub provenance: String,
    pub lines: String,
}

#[derive(Debug, Deserialize)]
pub struct Elite {
    pub factor_multiplier: Vec<f64>,
    pub provenance: String,
}

#[derive(Debug, Deserialize)]
pub struct Training {
    pub months: Vec<u32>,
    pub fleet_extra: u32,
}

#[derive(Debug, Deserialize)]
pub struct Limits {
    pub max_a: u32,
    pub max_b: u32,
}

#[derive(Debug, Deserialize)]
pub struct Morale {
    pub classes: Vec<String>,
    pub cost: ByQuality<u32>,
    pub value: ByQuality<u32>,
    pub elite: Elite,
    pub training: Training,
    pub limits: Limits,
}

#[derive(Debug, Deserialize)]
pub struct Tactic {
    pub code: String,
    pub name_es: String,
    pub name_en: String,
    pub restriction: String,
}

/// One cell of the land tactic matrix or of the naval matrices.
#[derive(Debug, Deserialize)]
pub struct Cell {
    pub defender: String,
    pub attacker: String,
    /// "combat", "auto-retreat" or "no-combat".
    pub kind: String,
    #[serde(default)]
    pub attacker_fires: Vec<String>,
    #[serde(default)]
    pub defender_fires: Vec<String>,
    #[serde(default)]
    pub flank_attacker_fires: Vec<String>,
    #[serde(default)]
    pub flank_defender_fires: Vec<String>,
    /// Where the printed attacker codes break the matrix's symmetry: what the mirror cell says.
    #[serde(default)]
    pub mirror_attacker_fires: Option<Vec<String>>,
    /// Naval only: which reading is recommended ("printed" or "mirror").
    #[serde(default)]
    pub r#use: Option<String>,
    #[serde(default)]
    pub ambiguity: Option<String>,
    pub provenance: String,
    pub lines: String,
}

#[derive(Debug, Deserialize)]
pub struct FormationRow {
    pub units: Vec<String>,
    /// The 1D20 result needed, per battle terrain 1-10 and CIUDAD; -1 = no formation there.
    pub needed: Vec<i32>,
}

#[derive(Debug, Deserialize)]
pub struct HexTerrain {
    pub hex: String,
    pub name_en: String,
    /// [min, max] of the modified 2D6 for battle terrain types 1-10; [0, 0] = impossible.
    pub ranges: Vec<[u32; 2]>,
}

#[derive(Debug, Deserialize)]
pub struct ArcheryBand {
    #[serde(default)]
    pub min: Option<i32>,
    #[serde(default)]
    pub max: Option<i32>,
    pub percent: u32,
}

#[derive(Debug, Deserialize)]
pub struct ArcheryModifiers {
    pub target: BTreeMap<String, i32>,
    pub archer_leader: i32,
    pub rain: i32,
}

#[derive(Debug, Deserialize)]
pub struct Fleet {
    pub code: String,
    pub name_es: String,
    pub name_en: String,
    pub ram: u32,
    pub boarding: u32,
    pub carries_units: u32,
    pub carries_points: u32,
    pub crew: u32,
    pub movement: u32,
    pub cost: BTreeMap<String, u32>,
    pub morale_cost: bool,
    #[serde(default)]
    pub assumed: Vec<String>,
    pub provenance: String,
}

#[derive(Debug, Deserialize)]
pub struct NavalMatrix {
    pub code: String,
    pub name_es: String,
}

#[derive(Deserialize)]
struct UnitsFile {
    unit: Vec<LandUnit>,
}
#[derive(Deserialize)]
struct FactorsFile {
    columns: Vec<String>,
    row: Vec<FactorRow>,
}
#[derive(Deserialize)]
struct CrtFile {
    casualties: Vec<CrtEntry>,
    morale: Vec<CrtEntry>,
}
#[derive(Deserialize)]
struct TacticsFile {
    tactic: Vec<Tactic>,
    cell: Vec<Cell>,
}
#[derive(Deserialize)]
struct LeadershipFile {
    modifier: Vec<Vec<i32>>,
}
#[derive(Deserialize)]
struct PursuitFile {
    percent: Vec<Vec<u32>>,
}
#[derive(Deserialize)]
struct ArcheryFile {
    band: Vec<ArcheryBand>,
    modifiers: ArcheryModifiers,
}
#[derive(Deserialize)]
struct FormationFile {
    columns: Vec<String>,
    row: Vec<FormationRow>,
}
#[derive(Deserialize)]
struct TerrainFile {
    terrain: Vec<HexTerrain>,
}
#[derive(Deserialize)]
struct FleetsFile {
    ships_per_fleet: u32,
    fleet: Vec<Fleet>,
}
#[derive(Deserialize)]
struct NavalFile {
    matrix: Vec<NavalMatrix>,
    cell: Vec<Cell>,
}

pub struct Data {
    pub units: Vec<LandUnit>,
    pub factor_columns: Vec<String>,
    pub factors: Vec<FactorRow>,
    pub crt_casualties: Vec<CrtEntry>,
    pub crt_morale: Vec<CrtEntry>,
    pub morale: Morale,
    pub tactics: Vec<Tactic>,
    pub land_cells: Vec<Cell>,
    pub leadership: Vec<Vec<i32>>,
    pub pursuit: Vec<Vec<u32>>,
    pub archery_bands: Vec<ArcheryBand>,
    pub archery_modifiers: ArcheryModifiers,
    pub formation_columns: Vec<String>,
    pub formation: Vec<FormationRow>,
    pub terrain: Vec<HexTerrain>,
    pub ships_per_fleet: u32,
    pub fleets: Vec<Fleet>,
    pub naval_matrices: Vec<NavalMatrix>,
    pub naval_cells: Vec<Cell>,
}

fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> T {
    // The files are part of the build and tested; a failure here is a bug in the shipped data.
    toml::from_str(text)
        .unwrap_or_else(|e| panic!("scenarios/mediterraneo-sanguinolento/{file}: {e}"))
}

pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let f: FactorsFile = parse("land-factors.toml", scenario!("land-factors.toml"));
        let crt: CrtFile = parse("combat-results.toml", scenario!("combat-results.toml"));
        let t: TacticsFile = parse("land-tactics.toml", scenario!("land-tactics.toml"));
        let a: ArcheryFile = parse("archery.toml", scenario!("archery.toml"));
        let fb: FormationFile = parse("formation-break.toml", scenario!("formation-break.toml"));
        let fl: FleetsFile = parse("naval-units.toml", scenario!("naval-units.toml"));
        let n: NavalFile = parse("naval-matrices.toml", scenario!("naval-matrices.toml"));
        Data {
            units: parse::<UnitsFile>("land-units.toml", scenario!("land-units.toml")).unit,
            factor_columns: f.columns,
            factors: f.row,
            crt_casualties: crt.casualties,
            crt_morale: crt.morale,
            morale: parse("morale.toml", scenario!("morale.toml")),
            tactics: t.tactic,
            land_cells: t.cell,
            leadership: parse::<LeadershipFile>("leadership.toml", scenario!("leadership.toml"))
                .modifier,
            pursuit: parse::<PursuitFile>("pursuit.toml", scenario!("pursuit.toml")).percent,
            archery_bands: a.band,
            archery_modifiers: a.modifiers,
            formation_columns: fb.columns,
            formation: fb.row,
            terrain: parse::<TerrainFile>("battle-terrain.toml", scenario!("battle-terrain.toml"))
                .terrain,
            ships_per_fleet: fl.ships_per_fleet,
            fleets: fl.fleet,
            naval_matrices: n.matrix,
            naval_cells: n.cell,
        }
    })
}

impl Data {
    pub fn unit(&self, code: &str) -> Option<&LandUnit> {
        self.units.iter().find(|u| u.code == code)
    }

    /// The land combat factor of one unit of `unit` in `column` (1-10 = battle terrain type, 11 =
    /// CIUDAD, 12 = NAVAL).
    pub fn factor(&self, unit: &str, column: usize) -> Option<f64> {
        let row = self
            .factors
            .iter()
            .find(|r| r.units.iter().any(|u| u == unit))?;
        row.factors.get(column.checked_sub(1)?).copied()
    }

    /// The CRT: (casualty %, morale points lost) for `block` 1-5, `row` 0-7 and the casualty and morale
    /// columns 1-5 of a tactical code. `regularized` selects the pattern-corrected values of the two
    /// misprinted entries (ambiguity A6) instead of the printed ones.
    pub fn crt(
        &self,
        block: u32,
        row: u32,
        cas_col: usize,
        mor_col: usize,
        regularized: bool,
    ) -> Option<(f64, f64)> {
        let pick = |entries: &[CrtEntry], col: usize| -> Option<f64> {
            let e = entries.iter().find(|e| e.block == block && e.row == row)?;
            let values = match (&e.regularized, regularized) {
                (Some(r), true) => r,
                _ => &e.values,
            };
            values.get(col.checked_sub(1)?).copied()
        };
        Some((
            pick(&self.crt_casualties, cas_col)?,
            pick(&self.crt_morale, mor_col)?,
        ))
    }

    /// The land tactic cell for the defender's and the attacker's tactic codes.
    pub fn tactic_cell(&self, defender: &str, attacker: &str) -> Option<&Cell> {
        self.land_cells
            .iter()
            .find(|c| c.defender == defender && c.attacker == attacker)
    }

    /// The naval matrix cell for the defender's and the attacker's matrix codes.
    pub fn naval_cell(&self, defender: &str, attacker: &str) -> Option<&Cell> {
        self.naval_cells
            .iter()
            .find(|c| c.defender == defender && c.attacker == attacker)
    }

    /// The modifier to one's own casualty roll for commanders of tactical value `own` and `enemy` (0-5).
    pub fn leadership(&self, own: usize, enemy: usize) -> Option<i32> {
        self.leadership.get(own)?.get(enemy).copied()
    }

    /// The pursuit table: row 1-7, column 1-6 → % of the pursuers' factors.
    pub fn pursuit(&self, row: usize, col: usize) -> Option<u32> {
        self.pursuit
            .get(row.checked_sub(1)?)?
            .get(col.checked_sub(1)?)
            .copied()
    }

    /// The archery table: modified 1D6 result → % of the archers' factors.
    pub fn archery(&self, result: i32) -> u32 {
        self.archery_bands
            .iter()
            .find(|b| b.min.is_none_or(|m| result >= m) && b.max.is_none_or(|m| result <= m))
            .map_or(0, |b| b.percent)
    }

    /// The 1D20 result needed to break a formation of `unit` in `column` (1-10 = battle terrain, 11 =
    /// CIUDAD); None when that unit has no formation there.
    pub fn formation_break(&self, unit: &str, column: usize) -> Option<u32> {
        let row = self
            .formation
            .iter()
            .find(|r| r.units.iter().any(|u| u == unit))?;
        let n = *row.needed.get(column.checked_sub(1)?)?;
        u32::try_from(n).ok()
    }

    /// The battle terrain type (1-10) for a hex terrain (Spanish label, e.g. "LLANO") and a modified
    /// 2D6 result, clamped to 1-12 (ambiguity A7).
    pub fn battle_terrain(&self, hex: &str, roll: i32) -> Option<usize> {
        let t = self.terrain.iter().find(|t| t.hex == hex)?;
        let r = roll.clamp(1, 12) as u32;
        t.ranges
            .iter()
            .position(|[lo, hi]| *lo > 0 && (*lo..=*hi).contains(&r))
            .map(|i| i + 1)
    }

    pub fn fleet(&self, code: &str) -> Option<&Fleet> {
        self.fleets.iter().find(|f| f.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAND_TACTICS: [&str; 10] = ["FL", "AF", "AE", "EC", "AC", "RF", "DE", "RE", "CU", "AO"];
    const NAVAL_MATRICES: [&str; 6] = ["PE", "DI", "KY", "ES", "DL", "RP"];

    #[test]
    fn every_table_loads_at_full_size() {
        let d = data();
        assert_eq!(d.units.len(), 18);
        for u in &d.units {
            assert_eq!(u.provenance, "rulebook");
            assert!(d.factor(&u.code, 1).is_some(), "{} has no factors", u.code);
        }
        assert_eq!(d.factor_columns.len(), 12);
        assert!(d.factors.iter().all(|r| r.factors.len() == 12));
        assert_eq!(d.factors.iter().map(|r| r.units.len()).sum::<usize>(), 18);
        assert_eq!(d.crt_casualties.len(), 40);
        assert_eq!(d.crt_morale.len(), 40);
        for b in 1..=5 {
            for r in 0..=7 {
                for c in 1..=5 {
                    assert!(d.crt(b, r, c, c, false).is_some());
                }
            }
        }
        assert_eq!(d.morale.classes.len(), 4);
        assert_eq!(d.tactics.len(), 10);
        assert_eq!(d.land_cells.len(), 100);
        for def in LAND_TACTICS {
            for att in LAND_TACTICS {
                let c = d.tactic_cell(def, att).unwrap();
                if c.kind == "combat" {
                    assert_eq!(c.attacker_fires.len(), 3);
                    assert_eq!(c.defender_fires.len(), 3);
                    assert!(matches!(c.flank_attacker_fires.len(), 0 | 2));
                }
            }
        }
        assert_eq!(d.leadership.len(), 6);
        assert!(d.leadership.iter().all(|r| r.len() == 6));
        assert_eq!(d.pursuit.len(), 7);
        assert!(d.pursuit.iter().all(|r| r.len() == 6));
        assert_eq!(d.formation.len(), 8);
        assert!(d.formation.iter().all(|r| r.needed.len() == 11));
        assert_eq!(d.formation_columns.len(), 11);
        assert_eq!(d.terrain.len(), 6);
        assert_eq!(d.ships_per_fleet, 10);
        assert_eq!(d.fleets.len(), 7);
        assert_eq!(d.naval_matrices.len(), 6);
        assert_eq!(d.naval_cells.len(), 36);
        for def in NAVAL_MATRICES {
            for att in NAVAL_MATRICES {
                let c = d.naval_cell(def, att).unwrap();
                if c.kind == "combat" {
                    assert_eq!(c.attacker_fires.len(), 3);
                    assert_eq!(c.defender_fires.len(), 3);
                }
            }
        }
    }

    #[test]
    fn spot_checks_against_the_digest() {
        let d = data();
        // Digest §3.1.7, row IL/IA: terrain 1 = 0.25, NAVAL = 5; row CC: terrain 1 = 2.5; row E: CIUDAD 0.25.
        assert_eq!(d.factor("IA", 1), Some(0.25));
        assert_eq!(d.factor("IL", NAVAL), Some(5.0));
        assert_eq!(d.factor("CC", 1), Some(2.5));
        assert_eq!(d.factor("E", CIUDAD), Some(0.25));
        assert_eq!(d.factor("M", NAVAL), Some(10.0));
        assert_eq!(d.factor("IML", 4), Some(1.0));
        // Digest §3.1.5: CRP = 45 men, 60 horses, 15 chariots; E = 30 men, 10 elephants.
        let crp = d.unit("CRP").unwrap();
        assert_eq!((crp.men, crp.animals, crp.chariots), (45, 60, 15));
        assert_eq!(d.unit("E").unwrap().animals, 10);
        // Digest §3.1.3 and A1: CML costs 100 CAM (printed in the CAB column).
        let cml = d.unit("CML").unwrap();
        assert_eq!(cml.cost.get("cam"), Some(&100));
        assert_eq!(cml.printed.as_ref().unwrap().get("cab"), Some(&100));
        assert_eq!(cml.ambiguity.as_deref(), Some("A1"));
        // Digest §3.1.4: regular A costs 750, irregular D 50; values regular A 5, irregular D 1.
        assert_eq!(d.morale.cost.regular[0], 750);
        assert_eq!(d.morale.cost.irregular[3], 50);
        assert_eq!(d.morale.value.regular[0], 5);
        assert_eq!(d.morale.value.irregular[3], 1);
        // Digest §3.1.10: block 5 row 7 = 20% / 2.2 in column 5; block 1 row 0 column 1 = 0 / 0.
        assert_eq!(d.crt(5, 7, 5, 5, false), Some((20.0, 2.2)));
        assert_eq!(d.crt(1, 0, 1, 1, false), Some((0.0, 0.0)));
        // Digest §3.1.10 (A6): the two misprints, printed and regularized.
        assert_eq!(d.crt(3, 6, 3, 1, false), Some((10.0, 0.8)));
        assert_eq!(d.crt(3, 6, 3, 1, true), Some((15.0, 0.8)));
        assert_eq!(d.crt(2, 7, 1, 2, false), Some((10.0, 1.2)));
        assert_eq!(d.crt(2, 7, 1, 2, true), Some((10.0, 1.0)));
        // Digest §3.2.6, cell 62 (DE/AF) and §7.3: attacker fires 31, defender 41 in segment 1.
        let c = d.tactic_cell("DE", "AF").unwrap();
        assert_eq!(
            (c.attacker_fires[0].as_str(), c.defender_fires[0].as_str()),
            ("31", "41")
        );
        // Digest §3.2.6 cell 7 (FL/DE): flank arrived 11 11 / 24 44; cells 48, 67.
        let c = d.tactic_cell("FL", "DE").unwrap();
        assert_eq!(c.flank_defender_fires, ["24", "44"]);
        assert_eq!(d.tactic_cell("AC", "RE").unwrap().kind, "auto-retreat");
        assert_eq!(d.tactic_cell("DE", "DE").unwrap().kind, "no-combat");
        // Digest §3.1.11: LEAD[4][2] = 0, LEAD[4][3] = +1, LEAD[5][0] = +2.
        assert_eq!(d.leadership(4, 2), Some(0));
        assert_eq!(d.leadership(4, 3), Some(1));
        assert_eq!(d.leadership(5, 0), Some(2));
        // Digest §3.1.12: row 7 column 6 = 30%. §3.1.13: 6 → 25%, negative → 0%.
        assert_eq!(d.pursuit(7, 6), Some(30));
        assert_eq!(d.archery(6), 25);
        assert_eq!(d.archery(-1), 0);
        assert_eq!(d.archery_modifiers.target.get("IPF"), Some(&-3));
        // Digest §3.1.9: IML terrain 1 needs 17 (§7.3); CP has no formation in a city.
        assert_eq!(d.formation_break("IML", 1), Some(17));
        assert_eq!(d.formation_break("CP", CIUDAD), None);
        assert_eq!(d.formation_break("E", 1), None);
        // Digest §3.1.8: FQ ram 7, boarding 20, 1,200 points; FT needs a morale cost by assumption.
        let fq = d.fleet("FQ").unwrap();
        assert_eq!((fq.ram, fq.boarding, fq.carries_points), (7, 20, 1200));
        assert_eq!(d.fleet("FT").unwrap().assumed, ["morale_cost"]);
        assert!(!d.fleet("FC").unwrap().morale_cost);
        // Digest §3.5.2 (A30): PE/DI prints 11-1-12*, read from the mirror as 11-11-12*.
        let c = d.naval_cell("PE", "DI").unwrap();
        assert_eq!(c.attacker_fires, ["11", "1", "12*"]);
        assert_eq!(
            c.mirror_attacker_fires.as_deref().unwrap(),
            ["11", "11", "12*"]
        );
        assert_eq!(c.r#use.as_deref(), Some("mirror"));
        assert_eq!(d.naval_cell("KY", "KY").unwrap().kind, "no-combat");
        // Digest §7.1 T1: plain, modified roll 6 → battle terrain type 2.
        assert_eq!(d.battle_terrain("LLANO", 6), Some(2));
    }

    /// Digest §7.2 D1: the CRT depends only on s = block + column + row, except the two A6 misprints;
    /// the regularized values follow the pattern everywhere.
    #[test]
    fn d1_crt_pattern() {
        let d = data();
        let cas = |s: u32| match s {
            0..=5 => 0.0,
            6..=8 => 5.0,
            9..=11 => 10.0,
            12..=14 => 15.0,
            _ => 20.0,
        };
        let mor = |s: u32| {
            const M: [f64; 12] = [0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2];
            if s <= 5 {
                0.0
            } else {
                M[(s - 6) as usize]
            }
        };
        let mut deviations = Vec::new();
        for b in 1..=5u32 {
            for r in 0..=7u32 {
                for c in 1..=5u32 {
                    let s = b + r + c;
                    let (pc, pm) = d.crt(b, r, c as usize, c as usize, false).unwrap();
                    if pc != cas(s) {
                        deviations.push(("cas", b, r, c));
                    }
                    if pm != mor(s) {
                        deviations.push(("mor", b, r, c));
                    }
                    let (rc, rm) = d.crt(b, r, c as usize, c as usize, true).unwrap();
                    assert_eq!((rc, rm), (cas(s), mor(s)), "regularized {b} {r} {c}");
                }
            }
        }
        assert_eq!(
            deviations,
            [
                ("mor", 2, 7, 2),
                ("mor", 2, 7, 3),
                ("mor", 2, 7, 4),
                ("mor", 2, 7, 5),
                ("cas", 3, 6, 3),
            ]
        );
    }

    /// Digest §7.2 D2 and D3: the matrices are symmetric (cell(R,C).attacker == cell(C,R).defender)
    /// except the 8 land (A18) and 6 naval (A30) cells, which carry the mirror's codes.
    #[test]
    fn d2_d3_matrix_symmetry() {
        let d = data();
        for (cells, tactics, expected) in [
            (&d.land_cells, &LAND_TACTICS[..], 8),
            (&d.naval_cells, &NAVAL_MATRICES[..], 6),
        ] {
            let find = |r: &str, c: &str| {
                cells
                    .iter()
                    .find(|x| x.defender == r && x.attacker == c)
                    .unwrap()
            };
            let mut asymmetric = 0;
            for r in tactics {
                for c in tactics {
                    let (x, m) = (find(r, c), find(c, r));
                    assert_eq!(x.kind, m.kind);
                    if x.attacker_fires != m.defender_fires {
                        asymmetric += 1;
                        assert_eq!(x.mirror_attacker_fires.as_ref(), Some(&m.defender_fires));
                        assert!(x.ambiguity.is_some());
                    } else {
                        assert!(x.mirror_attacker_fires.is_none());
                    }
                }
            }
            assert_eq!(asymmetric, expected);
        }
    }

    /// Digest §7.2 D4: the printed grid of pairs (column = leader A, row = leader B; digest §3.1.11
    /// "Printed pairs") is (LEAD[A][B], LEAD[B][A]) in all 36 cells.
    #[test]
    fn d4_leadership_matches_the_printed_pairs() {
        let d = data();
        let a_mods = [
            [-1, 0, 0, 1, 1, 2],
            [-1, -1, 0, 0, 1, 1],
            [-1, -1, 0, 0, 0, 1],
            [-1, -1, -1, 0, 1, 1],
            [-1, -1, -1, 0, 1, 1],
            [-1, -1, -1, 0, 0, 1],
        ];
        let b_mods = [
            [-1, -1, -1, -1, -1, -1],
            [0, -1, -1, -1, -1, -1],
            [0, 0, 0, -1, -1, -1],
            [1, 0, 0, 0, 0, 0],
            [1, 1, 0, 1, 1, 0],
            [2, 1, 1, 1, 1, 1],
        ];
        for b in 0..6 {
            for a in 0..6 {
                assert_eq!(d.leadership(a, b), Some(a_mods[b][a]), "A {a} B {b}");
                assert_eq!(d.leadership(b, a), Some(b_mods[b][a]), "A {a} B {b}");
            }
        }
    }

    /// Digest §7.2 D5: battle-terrain distribution with an unmodified 2D6.
    #[test]
    fn d5_battle_terrain_distribution() {
        let d = data();
        let expected: [(&str, [u32; 10]); 6] = [
            ("LLANO", [10, 16, 9, 1, 0, 0, 0, 0, 0, 0]),
            ("DESIERTO", [3, 23, 10, 0, 0, 0, 0, 0, 0, 0]),
            ("BOSQUE", [0, 3, 7, 11, 9, 3, 2, 1, 0, 0]),
            ("ABRUPTO", [0, 1, 2, 7, 11, 9, 5, 1, 0, 0]),
            ("MONTES", [0, 0, 1, 2, 7, 11, 9, 5, 1, 0]),
            ("MONTAÑA", [0, 0, 0, 1, 2, 7, 11, 9, 5, 1]),
        ];
        for (hex, want) in expected {
            let mut got = [0u32; 10];
            for a in 1..=6 {
                for b in 1..=6 {
                    got[d.battle_terrain(hex, a + b).unwrap() - 1] += 1;
                }
            }
            assert_eq!(got, want, "{hex}");
        }
    }

    /// Digest §7.2 D6: expected pursuit % (in 36ths): 475 unmodified, 575 with a cavalry leader, 390
    /// (65/6) in rain; column 1: 210 (35/6), 300 (25/3) with a cavalry leader.
    #[test]
    fn d6_pursuit_expectation() {
        let d = data();
        let mean36 = |shift: i32, col1: bool| -> u32 {
            let mut sum = 0;
            for row_die in 1..=6i32 {
                for col in 1..=6usize {
                    let row = (row_die + shift).clamp(1, 7) as usize;
                    sum += d.pursuit(row, if col1 { 1 } else { col }).unwrap();
                }
            }
            sum
        };
        assert_eq!(mean36(0, false), 475);
        assert_eq!(mean36(1, false), 575);
        assert_eq!(mean36(-1, false), 390);
        assert_eq!(mean36(0, true), 210);
        assert_eq!(mean36(1, true), 300);
    }

    /// Digest §7.2 D13: archery mean % with an unmodified 1D6 is 17.5; against IPF (−3) it is 8⅓.
    #[test]
    fn d13_archery_means() {
        let d = data();
        let sum = |m: i32| (1..=6).map(|r| d.archery(r + m)).sum::<u32>();
        assert_eq!(sum(0), 105);
        assert_eq!(sum(*d.archery_modifiers.target.get("IPF").unwrap()), 50);
    }

    /// Digest §7.1 T3: at Cirene, 3 IM + 3 CMM + 1 CRL + 1 E use 990 men, 300 camels, 60 horses, 10
    /// elephants; derived costs MET 2,900 and MAD 200.
    #[test]
    fn t3_recruiting_at_cirene() {
        let d = data();
        let build = [("IM", 3), ("CMM", 3), ("CRL", 1), ("E", 1)];
        let total = |f: &dyn Fn(&LandUnit) -> u32| -> u32 {
            build.iter().map(|(c, n)| n * f(d.unit(c).unwrap())).sum()
        };
        assert_eq!(total(&|u| u.men), 990);
        assert_eq!(total(&|u| u.cost.get("met").copied().unwrap_or(0)), 2900);
        assert_eq!(total(&|u| u.cost.get("mad").copied().unwrap_or(0)), 200);
        assert_eq!(total(&|u| u.cost.get("cam").copied().unwrap_or(0)), 300);
        assert_eq!(total(&|u| u.cost.get("cab").copied().unwrap_or(0)), 60);
        assert_eq!(total(&|u| u.cost.get("ele").copied().unwrap_or(0)), 10);
    }
}

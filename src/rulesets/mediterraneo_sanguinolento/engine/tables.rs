//! The tables a battle reads: the tactical codes of a matrix cell, the casualty/morale table and the
//! archery table as arrays, and the rule readings (`Rules`) a battle is played under.

use crate::rulesets::mediterraneo_sanguinolento::army::TACTICS;
use crate::rulesets::mediterraneo_sanguinolento::data::data;

/// A tactical code: casualty column and morale column; None = no fire.
pub type Code = Option<(u8, u8)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    Combat,
    AutoRetreat,
    NoCombat,
}

#[derive(Clone, Copy, Debug)]
pub struct CellCodes {
    pub kind: CellKind,
    /// fire[side][segment 0..3]
    pub fire: [[Code; 3]; 2],
    /// After the flanking detachment arrives (segments 2 and 3; index 0 unused).
    pub arrived: Option<[[Code; 3]; 2]>,
    pub flanker: Option<usize>,
}

/// A tactical code as the matrices print it ("31") or as the rules write it ("3-2", digest T5):
/// casualty column, morale column; anything else ("-") is no fire.
pub fn parse_code(s: &str) -> Code {
    let b = s.as_bytes();
    match b {
        [c, m] | [c, b'-', m] if c.is_ascii_digit() && m.is_ascii_digit() => {
            Some((c - b'0', m - b'0'))
        }
        _ => None,
    }
}

impl CellCodes {
    /// Every segment the same codes (assaults: 5-1 against 5-2).
    pub fn fixed(attacker: (u8, u8), defender: (u8, u8)) -> CellCodes {
        CellCodes {
            kind: CellKind::Combat,
            fire: [[Some(attacker); 3], [Some(defender); 3]],
            arrived: None,
            flanker: None,
        }
    }

    /// The land matrix cell for the two tactics (rows = defender, columns = attacker, A4b);
    /// `symmetric` reads the 8 asymmetric cells as their mirror (A18).
    pub fn land(defender: usize, attacker: usize, symmetric: bool) -> CellCodes {
        let c = data()
            .tactic_cell(TACTICS[defender], TACTICS[attacker])
            .expect("the land matrix has all 100 cells");
        let kind = match c.kind.as_str() {
            "auto-retreat" => CellKind::AutoRetreat,
            "no-combat" => CellKind::NoCombat,
            _ => CellKind::Combat,
        };
        let three = |v: &[String]| -> [Code; 3] {
            let mut out = [None; 3];
            for (i, s) in v.iter().take(3).enumerate() {
                out[i] = parse_code(s);
            }
            out
        };
        let attacker_codes = match (&c.mirror_attacker_fires, symmetric) {
            (Some(m), true) => m,
            _ => &c.attacker_fires,
        };
        let two = |v: &[String]| -> [Code; 3] {
            let mut out = [None; 3];
            for (i, s) in v.iter().take(2).enumerate() {
                out[i + 1] = parse_code(s);
            }
            out
        };
        let arrived = (!c.flank_attacker_fires.is_empty())
            .then(|| [two(&c.flank_attacker_fires), two(&c.flank_defender_fires)]);
        let flanker = match (TACTICS[attacker] == "FL", TACTICS[defender] == "FL") {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        };
        CellCodes {
            kind,
            fire: [three(attacker_codes), three(&c.defender_fires)],
            arrived,
            flanker,
        }
    }
}

/// The casualty/morale table as arrays: `cas[block-1][row][col-1]` in %, `mor[..]` in tenths.
#[derive(Clone, Debug)]
pub struct Crt {
    pub cas: [[[u8; 5]; 8]; 5],
    pub mor: [[[u8; 5]; 8]; 5],
}

impl Crt {
    /// The table, built once per process for each reading (a full game builds it for every fight).
    pub fn new(corrected: bool) -> Crt {
        static TABLES: std::sync::OnceLock<[Crt; 2]> = std::sync::OnceLock::new();
        TABLES.get_or_init(|| [Crt::build(false), Crt::build(true)])[corrected as usize].clone()
    }

    fn build(corrected: bool) -> Crt {
        let mut t = Crt {
            cas: [[[0; 5]; 8]; 5],
            mor: [[[0; 5]; 8]; 5],
        };
        for b in 0..5 {
            for r in 0..8 {
                for c in 0..5 {
                    let (p, m) = data()
                        .crt(b as u32 + 1, r as u32, c + 1, c + 1, corrected)
                        .expect("the CRT has 5 blocks of 8 rows and 5 columns");
                    t.cas[b][r][c] = p.round() as u8;
                    t.mor[b][r][c] = (m * 10.0).round() as u8;
                }
            }
        }
        t
    }
}

#[derive(Clone, Debug)]
pub struct Rules {
    pub crt: Crt,
    pub block_by_morale: bool,
    pub separate_morale_die: bool,
    pub cumulative_segment_mod: bool,
    /// +1: the -2/-4 of a thin formation is added to the breaker's roll (A10 "easier"); -1: subtracted.
    pub share_sign: i32,
    pub charge_digit: bool,
    pub floor_factors: bool,
    pub pilum_each_day: bool,
    pub mounted_by_units: bool,
    pub screen_share: bool,
    pub flank_plus_one: bool,
    /// Column of the factor and formation tables: battle terrain 1-10, or CIUDAD.
    pub column: usize,
    pub rain: bool,
    /// A city assault: no cavalry or elephant die bonus, archers shoot at the walls.
    pub assault: bool,
    pub archery_city_mod: i32,
    pub mounted_archers_fire: bool,
    pub max_days: u32,
    /// archery[result + 10] = % for a modified 1D6 result.
    pub archery: [u8; 24],
}

impl Rules {
    pub fn archery_pct(&self, result: i32) -> u8 {
        self.archery[(result + 10).clamp(0, 23) as usize]
    }
}

pub fn archery_table() -> [u8; 24] {
    static TABLE: std::sync::OnceLock<[u8; 24]> = std::sync::OnceLock::new();
    *TABLE.get_or_init(build_archery_table)
}

fn build_archery_table() -> [u8; 24] {
    let mut t = [0u8; 24];
    for (i, v) in t.iter_mut().enumerate() {
        *v = data().archery(i as i32 - 10) as u8;
    }
    t
}

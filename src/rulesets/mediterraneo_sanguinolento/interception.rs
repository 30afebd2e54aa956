//! Interception (digest §3.7, §8.6): one roll decides whether an army or a fleet reaches its target.
//! Land (L5567-L5587): 1D10 + the leader's strategic level + 3 if only mounted troops or chariots
//! intercept - 3 with a supply convoy + 1 in own territory - distance; success on 7-10. Naval
//! (L2463-L2467): 1D6 + the naval leader's leadership - distance; success on 3-6. Option
//! `interception_bands` (A36): "open-ended" = at least 7 / 3, "literal" = only those bands.

use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::Result;
use crate::options::Options;
use crate::spec::Fields;

pub const SUMMARY: &str = "interception: one roll, land 1D10 + strategic +3 mounted -3 convoy +1 own territory - distance (7-10), naval 1D6 + leadership - distance (3-6)";
pub const OUTCOMES: &[&str] = &["intercepted", "missed"];
const KIND: Key = keys::choice("kind", &["land", "naval"])
    .default_choice("land")
    .help("a land interception (1D10) or a naval one (1D6)");
const DISTANCE: Key = keys::int("distance", 1, 3)
    .default_int(1)
    .help("hexes to the target");
const STRATEGIC: Key = keys::int("strategic", 0, 5)
    .default_int(0)
    .help("land: the intercepting leader's strategic level");
const MOUNTED_ONLY: Key =
    keys::flag("mounted_only").help("land: only cavalry, camelry or chariots intercept (+3)");
const CONVOY: Key = keys::flag("convoy").help("land: a supply convoy goes along (-3)");
const OWN_TERRITORY: Key =
    keys::flag("own_territory").help("land: intercepting in own territory (+1)");
const LEADERSHIP: Key = keys::int("leadership", 0, 5)
    .default_int(0)
    .help("naval: the naval leader's leadership");

pub const KEYS: &[Key] = &[
    KIND,
    DISTANCE,
    STRATEGIC,
    MOUNTED_ONLY,
    CONVOY,
    OWN_TERRITORY,
    LEADERSHIP,
];
/// The keys narrow with the kind of interception.
const LAND_KEYS: &[Key] = &[
    KIND,
    DISTANCE,
    STRATEGIC,
    MOUNTED_ONLY,
    CONVOY,
    OWN_TERRITORY,
];
const NAVAL_KEYS: &[Key] = &[KIND, DISTANCE, LEADERSHIP];

/// Land interception's modifier (digest §8.6): the leader's strategic level + 3 if only mounted
/// troops or chariots intercept - 3 with a supply convoy + 1 in own territory - distance in hexes.
pub fn land_modifier(
    strategic: i32,
    mounted_only: bool,
    convoy: bool,
    own_territory: bool,
    distance: i32,
) -> i32 {
    strategic + 3 * mounted_only as i32 - 3 * convoy as i32 + own_territory as i32 - distance
}

/// Whether a land interception's natural 1D10 `d` succeeds with modifier `m`: at least 7, and
/// with the `literal` band (A36) at most 10.
pub fn land_succeeds(d: u32, m: i32, literal: bool) -> bool {
    let r = d as i32 + m;
    r >= 7 && (!literal || r <= 10)
}

/// P(land interception) by enumeration of the 1D10 (digest §8.6).
pub fn land_chance(m: i32, literal: bool) -> f64 {
    (1..=10).filter(|&d| land_succeeds(d, m, literal)).count() as f64 / 10.0
}

/// Whether a naval interception's natural 1D6 `d` succeeds with modifier `m` (the naval
/// leader's leadership - distance): at least 3, and with the `literal` band (A36) at most 6.
pub fn naval_succeeds(d: u32, m: i32, literal: bool) -> bool {
    let r = d as i32 + m;
    r >= 3 && (!literal || r <= 6)
}

/// P(naval interception) by enumeration of the 1D6 (digest §8.6, D11).
pub fn naval_chance(m: i32, literal: bool) -> f64 {
    (1..=6).filter(|&d| naval_succeeds(d, m, literal)).count() as f64 / 6.0
}

pub struct Interception {
    kind: &'static str,
    sides: u32,
    modifier: i32,
    /// Successful results, inclusive.
    lo: i32,
    hi: i32,
    literal: bool,
    schema: Schema,
}

pub fn build(fields: &Fields, options: Options) -> Result<Box<dyn BattleModel>> {
    Ok(Box::new(Interception::from_fields(fields, &options)?))
}

impl Interception {
    fn from_fields(fields: &Fields, options: &Options) -> Result<Interception> {
        let distance = DISTANCE.int(fields)? as i32;
        let literal = options.choice("interception_bands") == "literal";
        if KIND.choice(fields)? == "land" {
            keys::only(
                fields,
                LAND_KEYS,
                "to a land interception (kind = \"land\")",
            )?;
            let m = land_modifier(
                STRATEGIC.int(fields)? as i32,
                MOUNTED_ONLY.bool(fields)?,
                CONVOY.bool(fields)?,
                OWN_TERRITORY.bool(fields)?,
                distance,
            );
            Ok(Interception::new("land", 10, m, 7, 10, literal))
        } else {
            keys::only(
                fields,
                NAVAL_KEYS,
                "to a naval interception (kind = \"naval\")",
            )?;
            let m = LEADERSHIP.int(fields)? as i32 - distance;
            Ok(Interception::new("naval", 6, m, 3, 6, literal))
        }
    }

    fn new(
        kind: &'static str,
        sides: u32,
        modifier: i32,
        lo: i32,
        hi: i32,
        literal: bool,
    ) -> Interception {
        let mut schema = Schema::new(OUTCOMES);
        schema.scalar_bounded("roll", 20.0);
        Interception {
            kind,
            sides,
            modifier,
            lo,
            hi: if literal { hi } else { i32::MAX },
            literal,
            schema,
        }
    }

    /// Whether natural face `d` intercepts (the land roll is [`land_succeeds`]'s).
    fn succeeds(&self, d: u32) -> bool {
        if self.kind == "land" {
            land_succeeds(d, self.modifier, self.literal)
        } else {
            naval_succeeds(d, self.modifier, self.literal)
        }
    }

    fn p(&self) -> f64 {
        (1..=self.sides).filter(|&d| self.succeeds(d)).count() as f64 / self.sides as f64
    }
}

impl Simulate for Interception {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let d = dice.d(self.sides);
        out.outcome = if self.succeeds(d) { 0 } else { 1 };
        out.scalars[0] = (d as i32 + self.modifier) as f64;
    }
}

impl BattleModel for Interception {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let p = self.p();
        ex.outcomes = vec![p, 1.0 - p];
        ex.scalars[0] = (self.sides as f64 + 1.0) / 2.0 + self.modifier as f64;
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "{} interception: 1D{} {:+}, success on {}{}",
            self.kind,
            self.sides,
            self.modifier,
            self.lo,
            if self.literal {
                format!("-{}", self.hi)
            } else {
                " or more".into()
            }
        )]
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "P(intercept) = {:.4} (option interception_bands = {})",
            self.p(),
            if self.literal {
                "literal"
            } else {
                "open-ended"
            }
        )];
        if self.kind == "land" {
            notes.push("the leader must not have moved for a whole month; the interceptors return to their hex after the combat and cannot retreat before it (L5567-L5587, L2897)".into());
        } else {
            notes.push("the fleet must spend the month doing nothing, ordered to intercept a named target; after the naval combat it returns to its starting point (L2463-L2467)".into());
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;
    use toml::Table;

    fn build_from(text: &str) -> Result<Interception> {
        let t: Table = text.parse().unwrap();
        let fields = Fields::new("t.toml", &t);
        let empty = Table::new();
        let options = Options::resolve(super::super::OPTIONS, fields.table("options", &empty)?)?;
        Interception::from_fields(&fields, &options)
    }

    fn p(text: &str) -> f64 {
        build_from(text).unwrap().exact().unwrap().outcomes[0]
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    /// Digest §7.2 D10: P(1D10 + m >= 7) = (4 + m) / 10 clamped: m = 0 -> 2/5 ... m >= 6 -> 1,
    /// m <= -4 -> 0. With the literal 7-10 band, results above 10 fail: m = 6 -> 4/10.
    #[test]
    fn d10_land_interception() {
        let m0 = "kind = \"land\"\nstrategic = 1"; // 1 - distance 1 = 0
        close(p(m0), 0.4);
        close(p("strategic = 3"), 0.6); // m = 2
        close(
            p("strategic = 4\nmounted_only = true\nown_territory = true"),
            1.0,
        ); // m = 7
        close(p("convoy = true\ndistance = 3"), 0.0); // m = -6
        close(p("strategic = 2\nconvoy = true\ndistance = 1"), 0.2); // m = -2
        for (m, want) in [(-4, 0.0), (-3, 0.1), (0, 0.4), (5, 0.9), (6, 1.0)] {
            let mut b = build_from(m0).unwrap();
            b.modifier = m;
            close(b.p(), want);
        }
        // Literal band: m = 6 (strategic 5, mounted, own territory, distance 3) -> faces 1-4 only.
        close(
            p("strategic = 5\nmounted_only = true\nown_territory = true\ndistance = 3\n[options]\ninterception_bands = \"literal\""),
            0.4,
        );
        close(
            p("strategic = 1\n[options]\ninterception_bands = \"literal\""),
            0.4,
        );
    }

    /// Digest §7.2 D11: P(1D6 + m >= 3): m = 0 -> 2/3, m = 1 -> 5/6, m >= 2 -> 1; the literal 3-6 band:
    /// m = 1 -> 2/3, m = 3 -> 1/2.
    #[test]
    fn d11_naval_interception() {
        close(p("kind = \"naval\"\nleadership = 1"), 2.0 / 3.0);
        close(p("kind = \"naval\"\nleadership = 2"), 5.0 / 6.0);
        close(p("kind = \"naval\"\nleadership = 5\ndistance = 3"), 1.0);
        close(
            p("kind = \"naval\"\nleadership = 0\ndistance = 3"),
            1.0 / 6.0,
        );
        let lit = "[options]\ninterception_bands = \"literal\"";
        close(
            p(&format!("kind = \"naval\"\nleadership = 2\n{lit}")),
            2.0 / 3.0,
        );
        close(p(&format!("kind = \"naval\"\nleadership = 4\n{lit}")), 0.5);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        for (i, text) in [
            "strategic = 2",
            "kind = \"naval\"\nleadership = 3\ndistance = 2",
            "strategic = 5\nmounted_only = true\n[options]\ninterception_bands = \"literal\"",
        ]
        .iter()
        .enumerate()
        {
            let b = build_from(text).unwrap();
            let run = McRun {
                trials: 40_000,
                seed: 3,
                stream: i as u64,
                progress: &progress,
            };
            agreement(&b.schema, &b.exact().unwrap(), &b.monte_carlo(&run), 5.0).unwrap();
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        for (text, field) in [
            ("distance = 4", "distance"),
            ("strategic = 6", "strategic"),
            ("kind = \"air\"", "kind"),
            ("kind = \"naval\"\nstrategic = 2", "strategic"),
            ("leadership = 2", "leadership"),
        ] {
            let e = build_from(text).err().unwrap();
            assert_eq!(e.exit_code(), 2, "{e}");
            assert!(e.to_string().contains(field), "{field}: {e}");
        }
    }
}

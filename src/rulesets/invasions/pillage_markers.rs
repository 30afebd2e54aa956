//! The pillage marker pool (`scenarios/invasions/pillage-markers.toml`, provenance "assumed"): the
//! rulebook does not give its composition. Sacks (`siege.rs`) draw several markers without
//! replacement; raids (`raid.rs`) draw one.

use crate::dice::Dice;
use serde::Deserialize;
use std::sync::OnceLock;

/// Most marker classes the pool may hold (the simulator draws over a fixed-size array).
pub const MARKER_CLASSES: usize = 8;

#[derive(Debug, Deserialize)]
pub struct MarkerClass {
    pub gold: u32,
    pub count: u32,
    #[serde(default)]
    pub usurper: bool,
    pub provenance: String,
}

#[derive(Debug, Deserialize)]
pub struct PoolInfo {
    pub provenance: String,
    pub why: String,
}

#[derive(Debug, Deserialize)]
pub struct Markers {
    pub pool: PoolInfo,
    pub marker: Vec<MarkerClass>,
}

impl Markers {
    pub fn total(&self) -> u32 {
        self.marker.iter().map(|m| m.count).sum()
    }

    /// The most gold one marker gives (0 for an empty pool).
    pub fn max_gold(&self) -> u32 {
        self.marker.iter().map(|m| m.gold).max().unwrap_or(0)
    }

    /// The gold of one marker drawn from the full pool.
    pub fn draw_gold(&self, dice: &mut Dice) -> u32 {
        let mut r = dice.below(self.total() as u64) as u32;
        for m in &self.marker {
            if r < m.count {
                return m.gold;
            }
            r -= m.count;
        }
        0
    }

    pub fn mean_gold(&self) -> f64 {
        let gold: u32 = self.marker.iter().map(|m| m.gold * m.count).sum();
        gold as f64 / self.total() as f64
    }

    /// Class counts padded to [`MARKER_CLASSES`].
    pub fn counts(&self) -> [u32; MARKER_CLASSES] {
        let mut c = [0; MARKER_CLASSES];
        for (slot, m) in c.iter_mut().zip(&self.marker) {
            *slot = m.count;
        }
        c
    }

    /// Every way of drawing `n` markers without replacement: (probability, gold, Usurper markers).
    pub fn draws(&self, n: u32) -> Vec<(f64, u32, u32)> {
        let mut out = Vec::new();
        let mut left: Vec<u32> = self.marker.iter().map(|m| m.count).collect();
        self.draw_rec(n, &mut left, 1.0, 0, 0, &mut out);
        out
    }

    fn draw_rec(
        &self,
        n: u32,
        left: &mut [u32],
        p: f64,
        gold: u32,
        usurpers: u32,
        out: &mut Vec<(f64, u32, u32)>,
    ) {
        let total: u32 = left.iter().sum();
        if n == 0 || total == 0 {
            out.push((p, gold, usurpers));
            return;
        }
        for k in 0..left.len() {
            if left[k] == 0 {
                continue;
            }
            let q = left[k] as f64 / total as f64;
            left[k] -= 1;
            let m = &self.marker[k];
            self.draw_rec(
                n - 1,
                left,
                p * q,
                gold + m.gold,
                usurpers + m.usurper as u32,
                out,
            );
            left[k] += 1;
        }
    }
}

/// The shipped pool; its shape is checked by the tests.
pub fn pillage_markers() -> &'static Markers {
    static MARKERS: OnceLock<Markers> = OnceLock::new();
    MARKERS.get_or_init(|| {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/invasions/pillage-markers.toml"
        ));
        // Part of the build and tested: a failure here is a bug in the shipped data.
        toml::from_str(text)
            .unwrap_or_else(|e| panic!("scenarios/invasions/pillage-markers.toml: {e}"))
    })
}

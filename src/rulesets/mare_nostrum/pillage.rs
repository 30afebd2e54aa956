//! Pillage, the "raze" order (L665-L667; digest §3.5, §9.5).
//!
//! Each pillaging unit, counted once per consecutive order, idles one PPR of the province at the
//! next economic phase; the units beyond the province's PPR each roll a d10 and destroy a PPR
//! for good on a 10.

use super::units;
use super::units::{CAV, INF, UNIT_KEYS, VET_CAV, VET_INF};
use crate::battle::keys::{self, Key};
use crate::battle::{BattleModel, Intractable};
use crate::battle::{Exact, Schema, Simulate, Trial};
use crate::dice::Dice;
use crate::error::{AleaError, Result};
use crate::exact::Pmf;
use crate::options::Options;
use crate::spec::Fields;
use toml::Table;

/// One pillage by `effective` units (units × consecutive orders) of a province with `ppr` PPR:
/// (PPR idle at the next economic phase, PPR destroyed for good).
#[inline]
pub fn pillage(effective: u64, ppr: u32, dice: &mut Dice) -> (u32, u32) {
    let excess = effective.saturating_sub(ppr as u64).min(u32::MAX as u64) as u32;
    let destroyed = dice.d10_at_least(excess, 10).min(ppr);
    (effective.min(ppr as u64) as u32, destroyed)
}

pub struct Pillage {
    /// Units × consecutive orders.
    effective: u64,
    ppr: u32,
    units: u32,
    orders: u32,
    schema: Schema,
}

use super::{ATTACKER, DEFENDER, SIDES};
const PPR: Key = keys::count("ppr").help("the province's rural population points");
const ORDERS: Key = keys::int("orders", 1, 6)
    .default_int(1)
    .help("consecutive pillage orders, each counting the units again");

pub const KEYS: &[Key] = &[
    UNIT_KEYS[INF].at(ATTACKER).help("pillaging infantry"),
    UNIT_KEYS[CAV].at(ATTACKER).help("pillaging cavalry"),
    UNIT_KEYS[VET_INF]
        .at(ATTACKER)
        .help("pillaging veteran infantry"),
    UNIT_KEYS[VET_CAV]
        .at(ATTACKER)
        .help("pillaging veteran cavalry"),
    PPR.at(DEFENDER),
    ORDERS,
];

pub fn build(fields: &Fields, _options: Options) -> Result<Box<dyn BattleModel>> {
    let empty = Table::new();
    let attacker = fields.table(SIDES[0], &empty)?;
    let n = units::total(&units::parse_units(&attacker)?);
    if n == 0 {
        return Err(AleaError::input(
            fields.source,
            UNIT_KEYS[INF].field(&attacker),
            0,
            "at least one pillaging unit",
        ));
    }
    let defender = fields.table(SIDES[1], &empty)?;
    let ppr = PPR.count(&defender)?;
    let orders = ORDERS.int(fields)? as u32;
    Ok(Box::new(Pillage::new(n, orders, ppr)))
}

impl Pillage {
    pub fn new(units: u32, orders: u32, ppr: u32) -> Pillage {
        let mut schema = Schema::new(&["destroyed", "spared"]);
        schema.count("ppr_destroyed", ppr as usize);
        schema.scalar_bounded("ppr_inactive", ppr as f64);
        Pillage {
            effective: units as u64 * orders as u64,
            ppr,
            units,
            orders,
            schema,
        }
    }

    /// Dice rolled: the effective units beyond the province's PPR.
    fn excess(&self) -> u64 {
        self.effective.saturating_sub(self.ppr as u64)
    }

    fn inactive(&self) -> f64 {
        self.effective.min(self.ppr as u64) as f64
    }
}

impl Simulate for Pillage {
    fn trial(&self, dice: &mut Dice, out: &mut Trial) {
        let (_, destroyed) = pillage(self.effective, self.ppr, dice);
        out.outcome = if destroyed > 0 { 0 } else { 1 };
        out.counts[0] = destroyed;
        out.scalars[0] = self.inactive();
    }
}

impl BattleModel for Pillage {
    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn exact(&self) -> std::result::Result<Exact, Intractable> {
        let mut ex = Exact::zeros(&self.schema);
        let destroyed = Pmf::binomial_capped(self.excess() as usize, 0.1, self.ppr as usize);
        ex.outcomes = vec![1.0 - destroyed.get(0), destroyed.get(0)];
        ex.counts[0] = destroyed;
        ex.scalars[0] = self.inactive();
        Ok(ex)
    }

    fn describe(&self) -> Vec<String> {
        vec![
            format!(
                "{}: {} units, {} consecutive pillage order{} (counted as {} units)",
                SIDES[0],
                self.units,
                self.orders,
                if self.orders == 1 { "" } else { "s" },
                self.effective
            ),
            format!("{}: a province with {} PPR", SIDES[1], self.ppr),
        ]
    }

    fn notes(&self) -> Vec<String> {
        vec![format!(
            "{} PPR idle at the next economic phase; {} dice roll for permanent destruction (a 10 each)",
            self.inactive(),
            self.excess()
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::agreement;
    use crate::battle::McRun;
    use crate::progress::Progress;

    #[test]
    fn digest_e17_three_orders_of_five_units_on_seven_ppr() {
        // 7 PPR idle; (5 × 3 − 7) = 8 d10 roll: E[destroyed] = 0.8, P(none) = 0.9^8.
        let p = Pillage::new(5, 3, 7);
        assert_eq!(p.excess(), 8);
        let ex = p.exact().unwrap();
        assert_eq!(ex.scalars[0], 7.0);
        assert!((ex.counts[0].mean() - 0.8).abs() < 1e-7); // capped at 7 PPR: 1e-8 less
        assert!((ex.outcomes[1] - 0.430467).abs() < 1e-6);
    }

    #[test]
    fn exact_and_monte_carlo_agree() {
        let progress = Progress::hidden();
        let cases = [(5, 3, 7), (2, 1, 9), (12, 6, 3), (40, 2, 20), (1, 1, 0)];
        for (stream, (units, orders, ppr)) in cases.into_iter().enumerate() {
            let p = Pillage::new(units, orders, ppr);
            let run = McRun {
                trials: 50_000,
                seed: 4,
                stream: stream as u64,
                progress: &progress,
            };
            agreement(&p.schema, &p.exact().unwrap(), &p.monte_carlo(&run), 5.0).unwrap();
        }
    }
}

//! The rows of the victory-point and rebellion-index table (digest §4.19, rules §27 L4218-L4376)
//! this engine applies, each with its PV and IDR by the acting country's culture, and the PV
//! sources the reports break PV down by.

use crate::rulesets::mediterraneo_sanguinolento::army::Culture;

/// One row of the table: PV and IDR in the culture columns B, B/C, C.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub pv: [i32; 3],
    pub idr: [i32; 3],
}

impl Row {
    pub fn pv(&self, c: Culture) -> i32 {
        self.pv[column(c)]
    }
    pub fn idr(&self, c: Culture) -> i32 {
        self.idr[column(c)]
    }
}

/// The table's column of a culture.
pub fn column(c: Culture) -> usize {
    match c {
        Culture::Barbarian => 0,
        Culture::Mixed => 1,
        Culture::Civilized => 2,
    }
}

const fn row(pv: [i32; 3], idr: [i32; 3]) -> Row {
    Row { pv, idr }
}

pub const GIFT_600_DEN: Row = row([1, 1, 2], [40, 50, 60]);
pub const GIFT_300_COM: Row = row([2, 2, 3], [80, 100, 120]);
pub const GIFT_600_PIE: Row = row([1, 1, 1], [80, 100, 120]);
pub const GIFT_600_MAD: Row = row([1, 1, 1], [80, 100, 120]);
pub const GIFT_800_CAB: Row = row([1, 1, 1], [50, 80, 100]);
pub const GIFT_600_CAM: Row = row([1, 1, 1], [50, 80, 100]);
pub const CONQUERING_TERRITORY: Row = row([10, 8, 6], [140, 120, 120]);
pub const LOSING_TERRITORY: Row = row([-3, -5, -8], [-120, -120, -140]);
pub const LOSING_A_CITY: Row = row([-1, -2, -3], [-100, -120, -140]);
pub const LOSING_MAIN_COUNTRY: Row = row([-5, -10, -15], [-150, -200, -250]);
pub const REBELLION_MAIN_COUNTRY: Row = row([-2, -4, -6], [-100, -120, -150]);
pub const REBELLION_PROVINCE: Row = row([-1, -2, -3], [-75, -100, -120]);
pub const REBELLION_CITY: Row = row([-1, -1, -2], [-25, -50, -75]);
pub const REBELLION_CAPITAL: Row = row([-2, -2, -3], [-50, -75, -100]);
/// Suppressing a rebellion (L4364): the table's IDR is negative too (repression angers).
pub const SUPPRESSING_REBELLION: Row = row([1, 0, 0], [-175, -200, -250]);
/// Per fortification level (the IDR; the PV follow option `fortification_pv`, A75).
pub const FORTIFICATION_LEVEL: Row = row([1, 1, 1], [75, 50, 25]);
/// Per frontier wall hex built (`walls.rs`, L4300).
pub const WALL_HEX: Row = row([1, 1, 1], [75, 50, 25]);
pub const NOT_FIGHTING_IN_A_YEAR: Row = row([-1, 2, 3], [-50, 50, 100]);
pub const FIRST_MONTH_OF_INVASION: Row = row([-1, -2, -3], [-175, -200, -250]);
pub const POLITICAL_CRISIS: Row = row([-1, -1, -2], [-25, -25, -50]);
pub const FOLLOWING_MONTH_OF_INVASION: Row = row([-1, -1, -1], [-50, -75, -100]);
pub const PER_TREATY: Row = row([1, 1, 1], [25, 25, 25]);
/// A treaty extension: +0.5 PV (scored whole, every second one) and this IDR.
pub const TREATY_EXTENSION_IDR: [i32; 3] = [10, 10, 10];
/// Breaking a written treaty: the table's row (A51 "table"); the text's -5 for every culture is
/// `TREATY_BREACH_TEXT` (A51's recommended reading).
pub const BREAKING_TREATY: Row = row([-3, -4, -5], [-25, -50, -75]);
pub const TREATY_BREACH_TEXT: i32 = -5;
pub const KILLING_AMBASSADORS: Row = row([0, -1, -2], [-25, -50, -75]);
pub const SACKING_CITIES: Row = row([3, 1, -3], [-50, -75, -100]);
pub const SACKING_COUNTRIES: Row = row([2, 1, -4], [100, 0, -100]);
pub const PILLAGE: Row = row([2, 1, -2], [50, 0, -50]);
/// Taken with a city's treasure, beside the sacking-cities row (L4334).
pub const STEALING_TREASURE: Row = row([1, -1, -2], [50, -25, -50]);
/// Tax rows by level -2 (lower ×2), -1 (lower ×1.5), 1 (raise ×1.5), 2 (raise ×2).
pub const TAXES: [Row; 4] = [
    row([2, 4, 6], [150, 225, 275]),
    row([1, 2, 3], [100, 150, 175]),
    row([-1, -2, -3], [-100, -150, -175]),
    row([-2, -4, -6], [-150, -225, -275]),
];

/// The battle rows: winning at 1:3, 1:2, 1:1, 2:1, 3:1; losing at 1:3, 1:2, 1:1, 1.5:1, 2:1, 3:1.
pub const WINNING: [Row; 5] = [
    row([7, 6, 6], [100, 75, 50]),
    row([6, 5, 5], [75, 50, 25]),
    row([5, 4, 4], [50, 25, 25]),
    row([3, 2, 2], [25, 10, 10]),
    row([2, 1, 1], [25, 10, 5]),
];
pub const LOSING: [Row; 6] = [
    row([-1, -1, -2], [-5, -10, -25]),
    row([-2, -2, -3], [-10, -10, -25]),
    row([-3, -3, -4], [-25, -25, -50]),
    row([-4, -4, -5], [-25, -50, -75]),
    row([-5, -5, -6], [-50, -75, -100]),
    row([-6, -6, -7], [-75, -100, -120]),
];

/// The row of a battle won or lost at `own : enemy` combat factors at its start (digest §4.19's
/// proposed buckets).
pub fn battle_row(won: bool, own: f64, enemy: f64) -> Row {
    let r = if enemy > 0.0 {
        own / enemy
    } else {
        f64::INFINITY
    };
    if won {
        let i = if r <= 1.0 / 3.0 {
            0
        } else if r <= 0.5 {
            1
        } else if r < 2.0 {
            2
        } else if r < 3.0 {
            3
        } else {
            4
        };
        WINNING[i]
    } else {
        let i = if r <= 1.0 / 3.0 {
            0
        } else if r <= 0.5 {
            1
        } else if r < 1.5 {
            2
        } else if r < 2.0 {
            3
        } else if r < 3.0 {
            4
        } else {
            5
        };
        LOSING[i]
    }
}

/// Each 50 POB not fed: -1 PV (rules §51, A76 "text" reading); each COM not delivered: IDR -1.
pub const UNFED_POB_PER_PV: i64 = 50;

/// Where a country's PV came from, in report order.
pub const SOURCES: [&str; 20] = [
    "battles",
    "conquest",
    "fortification",
    "gifts",
    "taxes",
    "peace",
    "invasion",
    "hunger_rebellion",
    "events",
    "diplomacy",
    "sack",
    "intrigue",
    "works",
    "militia",
    "levy",
    "king",
    "treasure",
    "slaves",
    "revolt",
    "destruction",
];
pub const BATTLES: usize = 0;
pub const CONQUEST: usize = 1;
pub const FORTIFICATION: usize = 2;
pub const GIFTS: usize = 3;
pub const TAXES_SOURCE: usize = 4;
pub const PEACE: usize = 5;
pub const INVASION: usize = 6;
pub const HUNGER_REBELLION: usize = 7;
pub const EVENTS: usize = 8;
pub const DIPLOMACY: usize = 9;
/// Sacks, treasures, the sacred cities' losses and pillage.
pub const SACK: usize = 10;
/// Assassination attempts (digest §3.9, A38).
pub const INTRIGUE: usize = 11;
/// New cities, enlargements, colonies, naval bases and ports (`works.rs`, `colonies.rs`) and
/// roads (`roads.rs`).
pub const WORKS: usize = 12;
/// Months with the militia mobilized (`militia.rs`).
pub const MILITIA: usize = 13;
/// Extra POB levies (`levy.rs`).
pub const LEVY: usize = 14;
/// Months the king spends away from home (`king_abroad.rs`).
pub const KING: usize = 15;
/// DEN added to the capital's treasure (`treasures.rs`).
pub const TREASURE: usize = 16;
/// Slaves freed (`slaves.rs`).
pub const SLAVES: usize = 17;
/// Each 100 slaves (ESC) freed (L4236).
pub const ESC_FREED: Row = row([0, 1, 1], [80, 100, 110]);
/// Enslaving 5% of own POB (L4370) and of others' (L4372), `enslave.rs`.
pub const ENSLAVING_OWN: Row = row([-1, -2, -3], [-100, -150, -175]);
pub const ENSLAVING_OTHERS: Row = row([0, -1, -2], [-50, -75, -100]);
/// Revolts and their suppression (`revolt.rs`).
pub const REVOLT: usize = 18;
/// Cities destroyed and the MAN charged with them (`destruction.rs`).
pub const DESTRUCTION: usize = 19;
/// Destroying a city of another nation and one's own (L4282-L4284; the text's -1/-2 PV by option
/// `city_destruction_pv`).
pub const DESTROYING_ENEMY_CITY: Row = row([1, 0, -2], [50, 0, -50]);
pub const DESTROYING_OWN_CITY: Row = row([-1, -2, -3], [-25, -50, -75]);
/// Each month the king is away (L4336).
pub const KING_ABROAD: Row = row([-1, -1, -1], [-25, -25, -50]);
/// A production improvement built (L4346-L4358: shipyards, quarries, crop intensification,
/// reforestation, mining, fishing and manufactures factories; one row, the same numbers each).
pub const IMPROVEMENT_BUILT: Row = row([0, 1, 1], [0, 75, 50]);
/// Mass recruitment, per 5% of extra POB levied (L4362).
pub const MASS_RECRUITMENT: Row = row([-1, -2, -3], [-75, -100, -150]);
/// Each month with the militia mobilized (L4288; the PV follow option `militia_pv`, A50).
pub const MILITIA_MONTH: Row = row([-1, -1, -2], [-50, -100, -120]);
/// City construction and city enlargement, at the work's end (the builder's culture).
pub const CITY_CONSTRUCTION: Row = row([0, 4, 5], [0, 100, 125]);
pub const CITY_ENLARGEMENT: Row = row([0, 3, 4], [0, 75, 100]);
/// Colony construction (the builder's culture) and allowing a colony to be built in one's
/// country (the host's), at the colony's end (`colonies.rs`; L4308, L4312).
pub const COLONY_CONSTRUCTION: Row = row([0, 2, 4], [0, 100, 150]);
pub const ALLOWING_A_COLONY: Row = row([2, 1, -1], [150, 100, -50]);
/// A naval base and a port built, at the work's end (L4310, L4298).
pub const NAVAL_BASE_CONSTRUCTION: Row = row([0, 1, 2], [0, 50, 75]);
pub const PER_PORT_BUILT: Row = row([0, 1, 1], [0, 50, 75]);
/// Per road (vía) built, at the road's end (`roads.rs`).
pub const ROAD_BUILT: Row = row([0, 1, 1], [0, 50, 75]);
/// Mount breeding, when bought (`mounts.rs`).
pub const MOUNT_BREEDING: Row = row([0, 1, 1], [0, 75, 50]);
/// An assassination attempt, by the table (A38 "table"); the specific rule's -5 PV is
/// `ASSASSINATION_TEXT` (A38's recommended reading).
pub const ASSASSINATION_ATTEMPT: Row = row([0, -1, -2], [-25, -50, -75]);
pub const ASSASSINATION_TEXT: i32 = -5;

/// PV for raising a city's fortification from `level - 1` to `level`: the new level (A75
/// "triangular", the specific note L4214) or 1 (the table's "per level" line).
pub fn fortification_pv(level: u8, triangular: bool) -> i32 {
    if triangular {
        level as i32
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t9_fortification_pv_is_the_new_level() {
        // Digest T9: 0→1 gives +1, 1→2 gives +2 (3 in all); derived: 2→3 gives +3 (6 in all).
        let total = |to: u8| (1..=to).map(|l| fortification_pv(l, true)).sum::<i32>();
        assert_eq!(fortification_pv(1, true), 1);
        assert_eq!(fortification_pv(2, true), 2);
        assert_eq!(total(2), 3);
        assert_eq!(total(3), 6);
        assert_eq!((1..=3).map(|l| fortification_pv(l, false)).sum::<i32>(), 3);
    }

    #[test]
    fn battle_buckets_follow_the_proposed_ratios() {
        assert_eq!(battle_row(true, 1.0, 3.0), WINNING[0]);
        assert_eq!(battle_row(true, 1.0, 2.0), WINNING[1]);
        assert_eq!(battle_row(true, 1.0, 1.0), WINNING[2]);
        assert_eq!(battle_row(true, 2.0, 1.0), WINNING[3]);
        assert_eq!(battle_row(true, 3.0, 1.0), WINNING[4]);
        assert_eq!(battle_row(false, 1.4, 1.0), LOSING[2]);
        assert_eq!(battle_row(false, 1.5, 1.0), LOSING[3]);
        assert_eq!(battle_row(false, 5.0, 1.0), LOSING[5]);
        assert_eq!(WINNING[2].pv(Culture::Civilized), 4);
        assert_eq!(LOSING[5].pv(Culture::Barbarian), -6);
    }
}

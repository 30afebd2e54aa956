//! Tests of the engine's tables: matrix cells and the casualty/morale table.

use super::*;

#[test]
fn codes_and_cells_read_as_the_matrix_prints_them() {
    assert_eq!(parse_code("31"), Some((3, 1)));
    assert_eq!(parse_code("-"), None);
    // §7.3: row DE, column AF: attacker fires 31, defender 41.
    let c = CellCodes::land(6, 1, true);
    assert_eq!(c.fire[0][0], Some((3, 1)));
    assert_eq!(c.fire[1][0], Some((4, 1)));
    // FL/RE: the flanker fires only in segment 1 unless its detachment arrives.
    let c = CellCodes::land(0, 7, true);
    assert_eq!(c.fire[0], [Some((1, 1)), None, None]);
    assert_eq!(c.flanker, Some(1));
    assert_eq!(c.arrived.unwrap()[1][1], Some((3, 4)));
    // A18: DE/CU attacker fires 31 52 53 printed, 31 52 52 symmetric.
    assert_eq!(CellCodes::land(6, 8, false).fire[0][2], Some((5, 3)));
    assert_eq!(CellCodes::land(6, 8, true).fire[0][2], Some((5, 2)));
    assert_eq!(CellCodes::land(6, 6, true).kind, CellKind::NoCombat);
    assert_eq!(CellCodes::land(4, 7, true).kind, CellKind::AutoRetreat);
}

#[test]
fn the_crt_arrays_follow_the_corrected_pattern() {
    let crt = Crt::new(true);
    let printed = Crt::new(false);
    for b in 0..5 {
        for r in 0..8 {
            for c in 0..5 {
                let s = b + 1 + r + c + 1;
                let cas = match s {
                    0..=5 => 0,
                    6..=8 => 5,
                    9..=11 => 10,
                    12..=14 => 15,
                    _ => 20,
                };
                assert_eq!(
                    crt.cas[b][r][c],
                    cas,
                    "block {} row {r} col {}",
                    b + 1,
                    c + 1
                );
                let mor = if s <= 5 {
                    0
                } else if s == 6 {
                    1
                } else {
                    2 * (s - 6)
                };
                assert_eq!(crt.mor[b][r][c] as usize, mor);
            }
        }
    }
    assert_eq!(printed.cas[2][6][2], 10);
    assert_eq!(printed.mor[1][7][1], 12);
}

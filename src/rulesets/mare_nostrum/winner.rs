//! Who won a naval or field battle (L687-L690, L705-L707; digest §3.1 `decide`).

use crate::options::Options;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Attacker,
    Defender,
    None,
}

impl Winner {
    /// Index into the outcome list `["attacker", "defender", "none"]`.
    pub fn index(self) -> usize {
        match self {
            Winner::Attacker => 0,
            Winner::Defender => 1,
            Winner::None => 2,
        }
    }
}

/// The thresholds of one battle type and the readings in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinnerRule {
    /// Criterion 1: the total losses needed (6 naval, 4 field).
    pub min_total: u32,
    /// Criterion 2: the units engaged that make any loss advantage decisive (40 naval, 20 field).
    pub big: u32,
    pub strict_double: bool,
}

impl WinnerRule {
    pub fn new(min_total: u32, big: u32, options: &Options) -> WinnerRule {
        WinnerRule {
            min_total,
            big,
            strict_double: options.choice("more_than_double") == "strict",
        }
    }
}

/// Units of each side at the start: all engaged (criterion 2), and as counted for the 2:1 rule (A4).
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub engaged: [u32; 2],
    pub ratio: [u32; 2],
}

impl Sizes {
    pub fn same(a: u32, b: u32) -> Sizes {
        Sizes {
            engaged: [a, b],
            ratio: [a, b],
        }
    }

    /// Whether side `s` has 2:1 numbers or more, and so cannot win.
    pub fn blocked(&self, s: usize) -> bool {
        self.ratio[s] >= 2 * self.ratio[1 - s]
    }
}

/// `kills[s]` = enemy units side `s` (0 attacker, 1 defender) eliminated.
/// A side with 2:1 numbers or more cannot win: the battle then has no winner.
pub fn decide(rule: &WinnerRule, kills: [u32; 2], sizes: &Sizes, leaders_ok: bool) -> Winner {
    if !leaders_ok {
        return Winner::None;
    }
    let engaged = sizes.engaged[0] + sizes.engaged[1];
    let wins = |s: usize| {
        let (kx, ky) = (kills[s], kills[1 - s]);
        let double = if rule.strict_double {
            kx > 2 * ky
        } else {
            kx >= 2 * ky
        };
        kx > ky
            && ((double && kx + ky >= rule.min_total) || engaged >= rule.big)
            && !sizes.blocked(s)
    };
    if wins(0) {
        Winner::Attacker
    } else if wins(1) {
        Winner::Defender
    } else {
        Winner::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;

    fn field() -> WinnerRule {
        WinnerRule::new(4, 20, &Options::defaults(super::super::OPTIONS))
    }

    #[test]
    fn criterion_one_needs_more_than_double_and_four_losses() {
        let r = field();
        assert_eq!(
            decide(&r, [3, 1], &Sizes::same(8, 8), true),
            Winner::Attacker
        );
        assert_eq!(decide(&r, [2, 1], &Sizes::same(8, 8), true), Winner::None); // exactly double
        assert_eq!(decide(&r, [3, 0], &Sizes::same(8, 8), true), Winner::None); // only 3 losses in all
        assert_eq!(
            decide(&r, [4, 0], &Sizes::same(8, 8), true),
            Winner::Attacker
        );
    }

    #[test]
    fn criterion_two_and_the_two_to_one_block() {
        let r = field();
        assert_eq!(
            decide(&r, [2, 1], &Sizes::same(10, 10), true),
            Winner::Attacker
        ); // 20 engaged
        assert_eq!(decide(&r, [1, 1], &Sizes::same(10, 10), true), Winner::None);
        assert_eq!(decide(&r, [5, 0], &Sizes::same(10, 5), true), Winner::None); // 2:1 blocks the attacker
        assert_eq!(
            decide(&r, [0, 4], &Sizes::same(10, 5), true),
            Winner::Defender
        );
        assert_eq!(
            decide(&r, [5, 0], &Sizes::same(10, 10), false),
            Winner::None
        ); // a side without a leader
    }
}

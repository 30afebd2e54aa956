//! The special dice of Invasions as data (digest §3.0.3, L1299-1320) and the 2D6 of the advanced
//! system. Every rule about a die reads these faces; nothing about a face is written as a branch.

/// One face of a battle die: white swords hit everywhere, red swords only in open terrain (L1427).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    pub white_swords: u8,
    pub red_swords: u8,
}

impl Face {
    pub const fn hits(self, open_terrain: bool) -> u8 {
        if open_terrain {
            self.white_swords + self.red_swords
        } else {
            self.white_swords
        }
    }
}

const BLANK: Face = Face {
    white_swords: 0,
    red_swords: 0,
};
const WHITE: Face = Face {
    white_swords: 1,
    red_swords: 0,
};
const RED: Face = Face {
    white_swords: 0,
    red_swords: 1,
};
const WHITE_RED: Face = Face {
    white_swords: 1,
    red_swords: 1,
};
const TWO_WHITE: Face = Face {
    white_swords: 2,
    red_swords: 0,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// Faces of the die (L1305-1310 white: 3 blank, white, red, white+red; L1314-1320 black:
    /// 2 blank, white, red, white+red, two white).
    pub const fn faces(self) -> [Face; 6] {
        match self {
            Colour::White => [BLANK, BLANK, BLANK, WHITE, RED, WHITE_RED],
            Colour::Black => [BLANK, BLANK, WHITE, RED, WHITE_RED, TWO_WHITE],
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }

    /// P(the die shows 0, 1, 2 hits).
    pub fn hit_distribution(self, open_terrain: bool) -> [f64; 3] {
        let mut p = [0.0; 3];
        for f in self.faces() {
            p[f.hits(open_terrain) as usize] += 1.0 / 6.0;
        }
        p
    }

    /// Hits of one rolled face, `face` in 0..6.
    #[inline(always)]
    pub fn hits_on(self, face: usize, open_terrain: bool) -> u8 {
        self.faces()[face].hits(open_terrain)
    }

    pub fn mean_hits(self, open_terrain: bool) -> f64 {
        let p = self.hit_distribution(open_terrain);
        p[1] + 2.0 * p[2]
    }
}

/// P(2D6 = s), s in 2..=12 (index s).
pub fn two_d6(s: i32) -> f64 {
    if (2..=12).contains(&s) {
        (6 - (s - 7).abs()) as f64 / 36.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn t01_die_faces_give_the_digest_distributions() {
        assert!(close(
            Colour::White.hit_distribution(true),
            [1.0 / 2.0, 1.0 / 3.0, 1.0 / 6.0]
        ));
        assert!(close(
            Colour::White.hit_distribution(false),
            [2.0 / 3.0, 1.0 / 3.0, 0.0]
        ));
        assert!(close(
            Colour::Black.hit_distribution(true),
            [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]
        ));
        assert!(close(
            Colour::Black.hit_distribution(false),
            [1.0 / 2.0, 1.0 / 3.0, 1.0 / 6.0]
        ));
        assert!((Colour::Black.mean_hits(true) - 1.0).abs() < 1e-12);
        assert!((Colour::White.mean_hits(false) - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn two_d6_sums_to_one() {
        let total: f64 = (2..=12).map(two_d6).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!(two_d6(7), 6.0 / 36.0);
        assert_eq!(two_d6(13), 0.0);
    }
}

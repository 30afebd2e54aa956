//! A small multiplicative hasher for the exact solvers' state maps and the simulators' lookups:
//! their keys are short arrays of small integers, built and hashed millions of times, where the
//! standard SipHash (built to resist adversarial keys) dominates the work.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_maps_behave_like_maps() {
        let mut m: FastMap<([u8; 8], [u32; 2]), f64> = FastMap::default();
        for i in 0..1000u32 {
            let key = ([(i % 7) as u8; 8], [i, i / 3]);
            *m.entry(key).or_insert(0.0) += 1.0;
        }
        assert_eq!(m.len(), 1000);
        assert_eq!(m[&([3; 8], [10, 3])], 1.0);
        let mut h1 = FastHasher::default();
        let mut h2 = FastHasher::default();
        h1.write(&[1, 2, 3]);
        h2.write(&[1, 2, 4]);
        assert_ne!(h1.finish(), h2.finish());
    }
}

//! A map bounded by generations: entries go into the young generation; when it is full it becomes
//! the old one (the previous old one is dropped) and a fresh young one starts. An entry found in
//! the old generation moves back into the young one, so the entries a run keeps meeting survive
//! every turnover, where clearing a full map would drop them all and build them again.
//!
//! Every value a cache of the game holds is a function of its key, so what is kept, and when it
//! is dropped, changes the time a run takes and never its results.

use crate::exact::FastMap;
use std::hash::Hash;

pub struct Generations<K, V> {
    young: FastMap<K, V>,
    old: FastMap<K, V>,
    /// Most entries a generation holds.
    capacity: usize,
}

impl<K: Hash + Eq + Copy, V> Generations<K, V> {
    pub fn new(capacity: usize) -> Self {
        Generations {
            young: FastMap::default(),
            old: FastMap::default(),
            capacity,
        }
    }

    /// The value of `key` if either generation holds it (moved into the young one).
    pub fn get(&mut self, key: &K) -> Option<&V> {
        if !self.young.contains_key(key) {
            let v = self.old.remove(key)?;
            self.insert(*key, v);
        }
        self.young.get(key)
    }

    /// The value of `key`, made by `make` where neither generation holds it.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &V {
        if self.get(&key).is_none() {
            self.insert(key, make());
        }
        &self.young[&key]
    }

    /// The value of `key` if either generation holds it, left where it is.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.young.get(key).or_else(|| self.old.get(key))
    }

    /// Adds an entry that neither generation holds.
    pub fn insert(&mut self, key: K, value: V) {
        if self.young.len() >= self.capacity {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(key, value);
    }

    /// Entries held in both generations.
    pub fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }
}

impl<K: Hash + Eq + Copy, V: Copy> Generations<K, V> {
    /// The value of `key` by copy (one lookup when the young generation holds it).
    pub fn get_copied(&mut self, key: &K) -> Option<V> {
        if let Some(&v) = self.young.get(key) {
            return Some(v);
        }
        let v = self.old.remove(key)?;
        self.insert(*key, v);
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_young_generation_turns_old_and_entries_met_again_survive() {
        let mut g: Generations<u32, u32> = Generations::new(2);
        g.insert(1, 10);
        g.insert(2, 20);
        // Full: 1 and 2 turn old, 3 starts the young generation.
        g.insert(3, 30);
        assert_eq!(g.len(), 3);
        // 1 is met again: back to the young generation, which is full again.
        assert_eq!(g.get_copied(&1), Some(10));
        // 4 turns {3, 1} old and drops {2}, never met since.
        g.insert(4, 40);
        assert_eq!(g.peek(&2), None);
        assert_eq!(g.peek(&1), Some(&10));
        assert_eq!(g.peek(&3), Some(&30));
        assert_eq!(g.get(&4), Some(&40));
        let mut made = 0;
        assert_eq!(
            *g.get_or_insert_with(2, || {
                made += 1;
                21
            }),
            21
        );
        assert_eq!(*g.get_or_insert_with(2, || unreachable!()), 21);
        assert_eq!(made, 1);
        assert!(g.len() <= 4);
    }
}

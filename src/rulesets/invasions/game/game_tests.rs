//! Tests of the full game: the §7 examples that concern it, invariants over random games,
//! determinism, bad input.

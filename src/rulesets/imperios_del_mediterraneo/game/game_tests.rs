//! The game's rules (digest §7 tests on rounds, turns, events, scoring, sudden death) and its
//! invariants over many random games.

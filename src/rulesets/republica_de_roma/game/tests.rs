//! Tests of the full game: the digest's worked examples (§7) and invariants over many games.

//! Tests of land interception, espionage and assassination in the game (digest §3.7, §4.11, §3.9).

//! Tests of the game engine.

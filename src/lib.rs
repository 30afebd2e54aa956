//! alea: the balance and the odds of five Spanish-language historical strategy games, by exact
//! probability and Monte Carlo simulation.

// The two engines and what drives them.
pub mod battle;
pub mod cli;
pub mod game;
pub mod rulesets;
pub mod serve;

// What both engines share.
pub mod charts;
pub mod dice;
pub mod error;
pub mod exact;
pub mod options;
pub mod output;
pub mod parallel;
pub mod progress;
pub mod shard;
pub mod spec;
pub mod stats;

//! alea: the balance and the odds of five Spanish-language historical strategy games, by exact
//! probability and Monte Carlo simulation.

pub mod battle;
pub mod dice;
pub mod error;
pub mod exact;
pub mod options;
pub mod progress;
pub mod rulesets;
pub mod runner;
pub mod spec;

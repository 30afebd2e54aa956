//! alea: the balance and the odds of five Spanish-language historical strategy games, by exact
//! probability and Monte Carlo simulation.

pub mod battle;
pub mod charts;
pub mod cli;
pub mod dice;
pub mod error;
pub mod exact;
pub mod experiment;
pub mod experiment_charts;
pub mod game;
pub mod options;
pub mod output;
pub mod progress;
pub mod report;
pub mod rulesets;
pub mod runner;
pub mod spec;
pub mod sweep;

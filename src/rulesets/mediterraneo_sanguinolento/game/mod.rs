//! Mediterráneo sanguinolento, the full game: the scenario (the 160 countries of the rulebook and the
//! region graph of digest §6.2 with its stand-ins).

mod files;
mod load;
mod load_abstraction;
pub mod scenario;

#[cfg(test)]
mod scenario_tests;

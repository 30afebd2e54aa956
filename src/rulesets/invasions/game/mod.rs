//! The Invasions full game (issue 21), built in steps: so far the Scenario I data and its loader,
//! and the dice procedures of the full game as pure functions.

pub mod procedures;
pub mod scenario;

#[cfg(test)]
mod procedures_tests;
#[cfg(test)]
mod tests;

//! The Invasions full game (issue 21), built in steps: so far the Scenario I data and its loader.

pub mod scenario;

#[cfg(test)]
mod tests;

//! The Imperios del Mediterráneo full game (issue 23), Layer A of digest §6.3 ("Core-IDM"): the
//! rules engine on data files. Files: the data files' serde shapes (`files.rs`), their loader
//! (`load.rs`), the loaded scenario (`scenario.rs`).

mod files;
pub mod load;
pub mod scenario;

#[cfg(test)]
mod load_tests;

//! Mediterráneo sanguinolento: the data layer only (no battles registered yet).

pub mod data;

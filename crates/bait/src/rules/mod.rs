//! The game: its VGDL description, the level read with it, the compact state, the actions, and
//! one tick simulated exactly as the homework engine runs it (with a direct fast path for Bait's
//! own rule structure).

pub mod action;
pub mod fast;
pub mod level;
pub mod sim;
pub mod state;
pub mod vgdl;

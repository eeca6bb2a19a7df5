//! Where the learned parts come from: the endgame weights, the piece-square tables, the
//! activity terms and the network, each fitted on positions of the engine's games.

pub mod train;
pub mod train_activity;
pub mod train_net;
pub mod train_tables;

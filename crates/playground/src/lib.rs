//! # playground
//!
//! One local web app that shows every tool of the workspace at work: play xiangqi, othello and
//! connect4 against the engines and watch them think, step through A* on a supply map, play and
//! replay Bait. The server ([`router`], in [`server`]) serves pages embedded in the binary and JSON endpoints
//! per game; each game module only calls its crate's public API.
//!
//! ```
//! let app = playground::router(playground::Limits::default());
//! # drop(app);
//! ```

pub mod access;
pub mod api;
pub mod assets;
pub mod astar;
pub mod bait;
pub mod cli;
pub mod connect4;
pub mod connections;
pub mod othello;
pub mod othello_book;
pub mod per_client;
pub mod server;
pub mod xiangqi;
pub mod xiangqi_games;

pub use api::{ApiError, Limits};
pub use server::{router, router_with};

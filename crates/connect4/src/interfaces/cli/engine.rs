//! The engine's own interfaces: `move` (one `getPoint` decision as text, within its time from
//! the process's start) and `saiblo` (the online judge's text protocol).

use crate::course::protocol::{get_point_from, saiblo};
use crate::engine::{Engine, EngineConfig};
use anyhow::{anyhow, Result};
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// Time per move in milliseconds (the course allows 3000).
    #[arg(long, default_value_t = crate::course::move_times::DEFAULT_LIBRARY_BUDGET.as_millis() as u64)]
    time_ms: u64,
    /// Fixed number of MCTS iterations per move (reproducible play).
    #[arg(long)]
    iterations: Option<u64>,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Threads searching each move (one MCTS tree each; the main one also runs the proofs).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
}

impl EngineArgs {
    pub(super) fn config(&self) -> EngineConfig {
        EngineConfig {
            time: Duration::from_millis(self.time_ms),
            iterations: self.iterations,
            seed: self.seed,
            threads: self.threads as usize,
            ..Default::default()
        }
    }

    pub(super) fn engine(&self) -> Engine {
        Engine::new(self.config())
    }
}

/// What the one-shot `move` keeps of its budget for printing the answer and ending the process.
const EXIT_RESERVE: Duration = Duration::from_millis(10);

#[derive(Debug, clap::Args)]
pub struct MoveArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

impl MoveArgs {
    /// Runs the subcommand, its budget counted from `started` (the process's start); returns
    /// the exit code.
    pub fn run(self, started: Instant) -> Result<i32> {
        let a = self.engine;
        // The whole command, start-up and reading included, keeps to --time-ms: the
        // engine's budget counts from the process's start, less a reserve for leaving.
        let mut engine = Engine::new(EngineConfig {
            time: Duration::from_millis(a.time_ms).saturating_sub(EXIT_RESERVE),
            ..a.config()
        });
        let (x, y) = get_point_from(std::io::stdin().lock(), &mut engine, Some(started))
            .map_err(|e| anyhow!(e))?;
        println!("{x} {y}");
        std::io::stdout().flush()?;
        // The process ends now: the system frees the search tree at once, where
        // dropping it node by node would take a noticeable part of the budget.
        std::mem::forget(engine);
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct SaibloArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

impl SaibloArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let a = self.engine;
        let mut e = a.engine();
        saiblo(std::io::stdin().lock(), std::io::stdout().lock(), &mut e)
            .map_err(|e| anyhow!(e))?;
        Ok(0)
    }
}

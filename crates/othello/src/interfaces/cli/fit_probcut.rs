//! `fit-probcut`: Multi-ProbCut's error model of the NBoard engine's midgame search, measured
//! on seeded positions (optionally on other weights) and written as the checked-in text format.

use anyhow::Result;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct FitProbcutArgs {
    /// Where to write the model.
    #[arg(long, default_value = "probcut.txt")]
    out: std::path::PathBuf,
    /// Positions to measure (at least 50: fewer cannot fit the model's four coefficients per
    /// stage and depth pair).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(50..=100_000))]
    positions: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deepest search measured (3 to 14).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(i32).range(3..=14))]
    max_depth: i32,
    /// Threads (the model does not depend on it; default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Measure the engine on these pattern weights (`othello train --out`) instead of the
    /// built-in ones.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
}

impl FitProbcutArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let FitProbcutArgs {
            out,
            positions,
            seed,
            max_depth,
            jobs,
            weights,
        } = self;
        batch::check_output(&out, weights.as_slice())?;
        if let Some(path) = weights {
            super::use_weights_file(&path)?;
        }

        fit_probcut(
            &out,
            positions as usize,
            seed,
            max_depth,
            jobs.unwrap_or_else(batch::cores),
        )
    }
}

/// `othello fit-probcut`: measure, fit, write, and print the measured table (`out` checked by
/// the caller).
fn fit_probcut(
    out: &std::path::Path,
    positions: usize,
    seed: u64,
    max_depth: i32,
    jobs: usize,
) -> Result<i32> {
    use crate::learn::probcut_fit::{calibration_positions, fit, measure, tabulate};
    let t = Instant::now();
    let ps = calibration_positions(positions, seed);
    let samples = measure(&ps, max_depth, jobs);
    let model = fit(&samples);
    let table = tabulate(&samples);
    let made_by = format!(
        "othello fit-probcut --positions {positions} --seed {seed} --max-depth {max_depth}"
    );
    batch::write_atomic(out, model.to_text(&made_by, &table).as_bytes())?;
    println!("empties depth shallow positions mean sigma (hundredths of a disc)");
    for m in &table {
        println!("{m}");
    }
    eprintln!(
        "{} positions, {} samples, {:.1} s; model written to {}",
        ps.len(),
        samples.len(),
        t.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(0)
}

//! The course's batch job and helpers: `run` (every request of a folder answered), `generate`
//! (requests from seeded games) and `host-lib` (a student library run in a child process).

use crate::course::compete::host_library;
use crate::solver7x6::Solver;
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// A `.txt` request or `.7x6` list, or a folder of them.
    input: PathBuf,
    /// MCTS iterations per request.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    iterations: u64,
    #[command(flatten)]
    common: batch::CommonArgs,
}

impl RunArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        run(&self.input, self.iterations, &self.common)
    }
}

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Stones played before the request.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=144))]
    plies: u64,
    /// Seed of the board and the moves.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
}

impl GenerateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let GenerateArgs { plies, seed } = self;

        let (request, played) = crate::course::run::random_request_played(seed, plies as usize);
        if played < plies as usize {
            bail!(
                "--plies {plies}: on seed {seed}'s board the game has no open move after \
             {played} stones (every move would end it or hand the opponent a win); \
             ask for {played} or fewer, or another seed"
            );
        }
        print!("{request}");
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct HostLibArgs {
    /// Address-space cap for the library's process, MiB.
    #[arg(long, default_value_t = 1024)]
    memory_mb: u64,
    /// The library.
    path: PathBuf,
}

impl HostLibArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let HostLibArgs { path, memory_mb } = self;

        Ok(host_library(&path, memory_mb))
    }
}

/// `connect4 run`: every request or 7x6 list under `input`, one output file each.
fn run(input: &std::path::Path, iterations: u64, common: &batch::CommonArgs) -> Result<i32> {
    use crate::course::run::{answer_request, batch_engine, is_job_file, solve_7x6};
    let out_dir = common.output_dir(input);
    let mut engine = batch_engine(iterations, common.seed);
    let mut solver = Solver::default();
    let report = batch::run_batch(input, is_job_file, common.quiet, |path| {
        let text = batch::read_text(path)?;
        let started = Instant::now();
        let answer = if path.extension().is_some_and(|e| e == "7x6") {
            solve_7x6(&text, &mut solver)
        } else {
            answer_request(&text, &mut engine)
        }
        .map_err(|e| e.in_file(path))?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let out = out_dir.join(batch::output_name(&name, "txt"));
        batch::write_atomic(&out, answer.as_bytes())?;
        let lines = answer.lines().count();
        if !common.quiet && !common.json {
            let what = if lines == 1 {
                answer.trim().to_string()
            } else {
                format!("{lines} positions")
            };
            println!(
                "{name} -> {}: {what} ({:.2} s)",
                out.display(),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(answer)
    })?;
    report.finish(common)
}

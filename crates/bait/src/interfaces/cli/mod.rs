//! The command line, one file per family: the agents' batch job and the optimal solver (`run`),
//! the tools over plans and traces (`tools`: grade, replay, trace, check-trace) and practice
//! levels (`generate`).

mod generate;
mod run;
mod tools;

use crate::rules::level::Level;
use crate::rules::sim::ResultLine;
use crate::rules::vgdl::Game;
use anyhow::{anyhow, Result};
use clap::Parser;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
struct GameArg {
    /// Game description (VGDL); default: the project's own description of Bait.
    #[arg(long, value_name = "FILE")]
    game: Option<PathBuf>,
    /// Print the score as the Java engine does (`Score:5.0`).
    #[arg(long)]
    java_double: bool,
}

/// The subcommands (`--help` opens with the crate's description).
#[derive(Debug, Parser)]
#[command(name = "bait", version, about)]
enum Command {
    /// Run an agent on a level (or every level of a folder): result line and action string.
    Run(run::RunArgs),
    /// Provably optimal plan: the shortest win, or the highest score (then shortest).
    Solve(run::SolveArgs),
    /// Grade a class's action strings against every level (a CSV report).
    ///
    /// Grade a class: every student folder of CLASS (outputs directly or in `output/`, one
    /// action string per level in `output_LEVEL.txt`) against every level of INPUT; any
    /// shortest win is accepted (with `--objective max-score`, any win of the best score in the
    /// fewest actions). Writes a CSV report and prints each student's score.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade(tools::GradeClassArgs),
    /// Validate and replay an action string: the engine's result line.
    Replay(tools::ReplayArgs),
    /// Print the engine-format trace (state after every action).
    Trace(tools::TraceArgs),
    /// Generate practice levels, each proven winnable by the solver.
    ///
    /// Practice levels: random levels of the given size and material, each kept only when the
    /// solver proves it winnable with a shortest win of --min-actions..--max-actions actions.
    /// Writes gen_SEED_N.txt into -o DIR, or prints the levels (blank-line separated).
    Generate(generate::GenerateArgs),
    /// Compare a trace file with the simulator, line by line.
    CheckTrace(tools::CheckTraceArgs),
}

impl GameArg {
    /// The engine's result line for a final state, its score printed as this run asks.
    fn result_line(&self, state: &crate::rules::state::State) -> String {
        ResultLine {
            state,
            java_double: self.java_double,
        }
        .to_string()
    }
}

fn load_game(g: &GameArg) -> Result<Game> {
    match &g.game {
        Some(p) => batch::parse_file(p),
        None => crate::rules::vgdl::DEFAULT_GAME
            .parse()
            .map_err(|e| anyhow!("built-in game description: {e}")),
    }
}

fn load_level(game: &Game, path: &Path) -> Result<Level> {
    let text = batch::read_text(path)?;
    Level::parse(game.clone(), &text).map_err(|e| e.in_file(path).into())
}

/// Level files: `.txt` files that are not game descriptions.
fn is_level_file(p: &Path) -> bool {
    batch::is_txt_input(p) && std::fs::read_to_string(p).is_ok_and(|t| !t.contains("BasicGame"))
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(|| dispatch(batch::parse_with_default_subcommand("run")))
}

fn dispatch(cli: Command) -> Result<i32> {
    match cli {
        Command::Run(args) => args.run(),
        Command::Solve(args) => args.run(),
        Command::Grade(args) => args.run(),
        Command::Replay(args) => args.run(),
        Command::Trace(args) => args.run(),
        Command::Generate(args) => args.run(),
        Command::CheckTrace(args) => args.run(),
    }
}

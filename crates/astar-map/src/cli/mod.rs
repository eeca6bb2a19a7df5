//! The command line: `run` (default), `check`, `grade`, `compare`, `generate`, one file per
//! family.

mod check;
mod generate;
mod run;

use clap::Parser;
use std::path::{Path, PathBuf};

/// The subcommands (`--help` opens with the crate's description).
#[derive(Debug, Parser)]
#[command(name = "astar-map", version, about)]
enum Command {
    /// Solve an input file or every file of a folder; write output_N.txt for each input_N.txt.
    Run(run::RunArgs),
    /// Validate an output file (or a folder of them) against its input: replay and optimality.
    Check {
        /// Input map file, or folder of input_N.txt.
        input: PathBuf,
        /// Output file, or folder of output_N.txt.
        output: PathBuf,
    },
    /// Grade a class's routes against every map (a CSV report).
    ///
    /// Grade a class: every student folder of CLASS (its outputs directly or in `output/`)
    /// against every map of INPUT; any shortest legal route is accepted. Writes a CSV report
    /// (`student,input,verdict,detail`; verdicts ok, wrong, invalid, missing) and prints each
    /// student's score.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade(batch::grade::GradeArgs),
    /// Compare every heuristic on every map of a folder (expanded, generated, time, length).
    Compare {
        /// Input map file or folder.
        input: PathBuf,
        /// Disable per-cell food dominance pruning.
        #[arg(long)]
        no_dominance: bool,
        /// Print JSON instead of a Markdown table.
        #[arg(long)]
        json: bool,
    },
    /// Write a random map, or a map on a Moving AI grid, in the course format.
    Generate(generate::GenerateArgs),
}

fn is_map_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "txt")
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(
        || match batch::parse_with_default_subcommand::<Command>("run") {
            Command::Run(a) => a.run(),
            Command::Check { input, output } => check::check(&input, &output),
            Command::Grade(args) => args.run("astar-map", check::grade),
            Command::Compare {
                input,
                no_dominance,
                json,
            } => check::compare(&input, !no_dominance, json),
            Command::Generate(a) => a.run(),
        },
    )
}

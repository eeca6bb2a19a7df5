//! `run` (the default): every map of a folder solved, output_N.txt written, routes drawn.

use super::is_map_file;
use crate::heuristics::HeuristicKind;
use crate::map::Map;
use crate::solve::{solve, Solution, SolveOptions};
use crate::svg;
use anyhow::Result;
use batch::{output_name, parse_file, run_batch, write_atomic, CommonArgs};
use clap::ValueEnum;
use search_core::{SearchStats, TieBreak};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Input map file, or a folder of them (processed in natural order).
    input: PathBuf,
    #[command(flatten)]
    common: CommonArgs,
    /// Heuristic: zero (uniform-cost search), manhattan, grid (walking distance), supply.
    #[arg(long, value_enum, default_value_t = HeuristicKind::Manhattan)]
    heuristic: HeuristicKind,
    /// Disable per-cell food dominance pruning.
    #[arg(long)]
    no_dominance: bool,
    /// Order of states with equal f.
    #[arg(long, value_enum, default_value_t = TieArg::LargerG)]
    tie_break: TieArg,
    /// Print expanded and generated states and time per input on stderr.
    #[arg(long)]
    stats: bool,
    /// Write an SVG picture of map and route (a file for one input, a folder for many).
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TieArg {
    LargerG,
    SmallerG,
    Fifo,
    Lifo,
}

impl From<TieArg> for TieBreak {
    fn from(t: TieArg) -> TieBreak {
        match t {
            TieArg::LargerG => TieBreak::LargerG,
            TieArg::SmallerG => TieBreak::SmallerG,
            TieArg::Fifo => TieBreak::Fifo,
            TieArg::Lifo => TieBreak::Lifo,
        }
    }
}

#[derive(serde::Serialize)]
struct RunResult {
    output: PathBuf,
    #[serde(flatten)]
    solution: Solution,
}

fn run(a: &RunArgs) -> Result<i32> {
    let out_dir = a.common.output_dir(&a.input);
    let options = SolveOptions {
        heuristic: a.heuristic,
        dominance: !a.no_dominance,
        tie_break: a.tie_break.into(),
        ..Default::default()
    };
    let single = a.input.is_file();
    let report = run_batch(&a.input, is_map_file, a.common.quiet, |path| {
        let map: Map = parse_file(path)?;
        let solution = solve(&map, &options);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let out = out_dir.join(output_name(&name, "txt"));
        write_atomic(&out, solution.output_text().as_bytes())?;
        if let Some(svg_path) = &a.svg {
            let target = if single {
                svg_path.clone()
            } else {
                svg_path.join(output_name(&name, "svg"))
            };
            write_atomic(&target, svg::render(&map, Some(&solution)).as_bytes())?;
        }
        let steps = solution.steps.map_or("-1".to_string(), |s| s.to_string());
        if a.stats {
            let s = &solution.stats;
            eprintln!(
                "{name}: {steps} (expanded {}, generated {}, max frontier {}, {:.3} ms)",
                s.expanded,
                s.generated,
                s.max_frontier,
                s.elapsed.as_secs_f64() * 1e3
            );
        }
        if !a.common.quiet && !a.common.json {
            println!("{name} -> {}: {steps}", out.display());
        }
        Ok(RunResult {
            output: out,
            solution,
        })
    })?;
    let mut total = SearchStats::default();
    for f in report.files.iter().filter_map(|f| f.result.as_ref()) {
        total.add(&f.solution.stats);
    }
    if a.common.json {
        let v = serde_json::json!({ "files": report.files, "total": total, "summary": report.summary() });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        if a.stats {
            eprintln!(
                "total: expanded {}, generated {}, {:.3} ms",
                total.expanded,
                total.generated,
                total.elapsed.as_secs_f64() * 1e3
            );
        }
        if !a.common.quiet || report.failures() > 0 {
            println!("{}", report.summary());
        }
    }
    Ok(report.exit_code())
}

impl RunArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        run(&self)
    }
}

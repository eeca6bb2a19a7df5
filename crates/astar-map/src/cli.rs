//! The command line: `run` (default), `check`, `compare`, `generate`.

use crate::check::check_output;
use crate::generate::{map_from_grid, parse_movingai, random_map, Placement, RandomMap};
use crate::heuristics::HeuristicKind;
use crate::map::Map;
use crate::solve::{solve, Solution, SolveOptions};
use crate::svg;
use anyhow::{bail, Context, Result};
use batch::{output_name, parse_file, run_batch, write_atomic, CommonArgs};
use clap::{Parser, ValueEnum};
use search_core::{SearchStats, TieBreak};
use std::path::{Path, PathBuf};

/// Shortest route on a grid with a food limit and supply points (A* versus uniform-cost search).
#[derive(Debug, Parser)]
#[command(name = "astar-map", version, about)]
enum Command {
    /// Solve an input file or every file of a folder; write output_N.txt for each input_N.txt.
    Run(RunArgs),
    /// Validate an output file (or a folder of them) against its input: replay and optimality.
    Check {
        /// Input map file, or folder of input_N.txt.
        input: PathBuf,
        /// Output file, or folder of output_N.txt.
        output: PathBuf,
    },
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
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
struct RunArgs {
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

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Rows M of a random map (1 to 10,000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    rows: u64,
    /// Columns N of a random map (1 to 10,000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    cols: u64,
    /// Food capacity T.
    #[arg(long, default_value_t = 5)]
    food: u32,
    /// Probability that a cell is a wall (0 to 1).
    #[arg(long, default_value_t = 0.2, value_parser = batch::fraction_arg)]
    walls: f64,
    /// Probability that a free cell is a supply point (0 to 1).
    #[arg(long, default_value_t = 0.1, value_parser = batch::fraction_arg)]
    supplies: f64,
    /// Seed.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Build on a Moving AI `.map` grid instead of a random one.
    #[arg(long, value_name = "FILE.map")]
    movingai: Option<PathBuf>,
    /// Start cell `row,col` on a Moving AI grid (default random).
    #[arg(long, value_parser = parse_pos)]
    start: Option<(usize, usize)>,
    /// Station cell `row,col` on a Moving AI grid (default random).
    #[arg(long, value_parser = parse_pos)]
    station: Option<(usize, usize)>,
    /// Supply cell `row,col` on a Moving AI grid (repeatable; default: random with --supplies).
    #[arg(long = "supply", value_parser = parse_pos)]
    supply_cells: Vec<(usize, usize)>,
    /// Write the map here instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn parse_pos(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s.split_once(',').ok_or("expected row,col")?;
    Ok((
        r.trim().parse().map_err(|_| format!("bad row `{r}`"))?,
        c.trim().parse().map_err(|_| format!("bad column `{c}`"))?,
    ))
}

fn is_map_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "txt")
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(
        || match batch::parse_with_default_subcommand::<Command>("run") {
            Command::Run(a) => run(&a),
            Command::Check { input, output } => check(&input, &output),
            Command::Grade(args) => args.run(grade),
            Command::Compare {
                input,
                no_dominance,
                json,
            } => compare(&input, !no_dominance, json),
            Command::Generate(a) => generate(&a),
        },
    )
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

fn check(input: &Path, output: &Path) -> Result<i32> {
    let pairs: Vec<(PathBuf, PathBuf)> = if input.is_dir() {
        if !output.is_dir() {
            bail!(
                "{}: expected a folder of outputs since the input is a folder",
                output.display()
            );
        }
        batch::collect_inputs(input, is_map_file)?
            .into_iter()
            .map(|i| {
                let name = output_name(&i.file_name().unwrap_or_default().to_string_lossy(), "txt");
                (i, output.join(name))
            })
            .collect()
    } else {
        vec![(input.to_path_buf(), output.to_path_buf())]
    };
    let mut bad = 0;
    for (i, o) in &pairs {
        let verdict = (|| -> Result<Result<String, String>> {
            let map: Map = parse_file(i)?;
            let text = batch::read_text(o)?;
            Ok(check_output(&map, &text))
        })();
        let line = match verdict {
            Ok(Ok(msg)) => msg,
            Ok(Err(why)) => {
                bad += 1;
                format!("FAIL: {why}")
            }
            Err(e) => {
                bad += 1;
                format!("FAIL: {e:#}")
            }
        };
        if pairs.len() > 1 {
            println!("{}: {line}", o.display());
        } else {
            println!("{line}");
        }
    }
    Ok(i32::from(bad > 0))
}

/// `astar-map grade`: every map read first, then each solved once and every student's route
/// for it judged.
fn grade(input: &Path, class: &Path, report: &batch::grade::ReportArgs) -> Result<i32> {
    use crate::check::{judge, optimum};
    let files = batch::collect_inputs(input, is_map_file)?;
    let mut maps = Vec::new();
    for file in &files {
        maps.push(parse_file::<Map>(file)?);
    }
    batch::grade::grade_class(
        "astar-map grade",
        &files,
        class,
        |i| Ok((&maps[i], optimum(&maps[i]))),
        |(map, best), text| judge(map, *best, text),
        report,
    )
}

#[derive(serde::Serialize)]
struct CompareRow {
    input: String,
    steps: Option<usize>,
    results: Vec<(HeuristicKind, SearchStats, Option<usize>)>,
}

fn compare(input: &Path, dominance: bool, json: bool) -> Result<i32> {
    let files = batch::collect_inputs(input, is_map_file)?;
    let mut rows = Vec::new();
    let mut mismatch = false;
    for f in &files {
        let map: Map = parse_file(f)?;
        let results: Vec<_> = HeuristicKind::ALL
            .iter()
            .map(|&h| {
                let s = solve(
                    &map,
                    &SolveOptions {
                        heuristic: h,
                        dominance,
                        ..Default::default()
                    },
                );
                (h, s.stats, s.steps)
            })
            .collect();
        let steps = results[0].2;
        mismatch |= results.iter().any(|r| r.2 != steps);
        rows.push(CompareRow {
            input: f
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            steps,
            results,
        });
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print_compare_table(&rows, dominance);
    }
    if mismatch {
        eprintln!("error: the heuristics disagree on a path length");
    }
    Ok(i32::from(mismatch))
}

fn print_compare_table(rows: &[CompareRow], dominance: bool) {
    let names: Vec<&str> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
    println!(
        "Expanded / generated states and time per heuristic ({}dominance pruning; `zero` is uniform-cost search).\n",
        if dominance { "with " } else { "no " }
    );
    print!("| input | days |");
    for n in &names {
        print!(" {n} expanded | generated | ms |");
    }
    println!();
    print!("|---|---|");
    for _ in &names {
        print!("---|---|---|");
    }
    println!();
    let mut totals = vec![SearchStats::default(); names.len()];
    for row in rows {
        let days = row.steps.map_or("-1".into(), |s| s.to_string());
        print!("| {} | {days} |", row.input);
        for (k, (_, st, _)) in row.results.iter().enumerate() {
            totals[k].add(st);
            print!(
                " {} | {} | {:.3} |",
                st.expanded,
                st.generated,
                st.elapsed.as_secs_f64() * 1e3
            );
        }
        println!();
    }
    print!("| total | |");
    for t in &totals {
        print!(
            " {} | {} | {:.3} |",
            t.expanded,
            t.generated,
            t.elapsed.as_secs_f64() * 1e3
        );
    }
    println!();
}

fn generate(a: &GenerateArgs) -> Result<i32> {
    let map = match &a.movingai {
        Some(file) => {
            let text = batch::read_text(file)?;
            let grid = parse_movingai(&text).map_err(|e| e.in_file(file))?;
            let place = Placement {
                start: a.start,
                station: a.station,
                supplies: a.supply_cells.clone(),
                density: a.supplies,
                food: a.food,
                seed: a.seed,
            };
            map_from_grid(&grid, &place).map_err(|e| e.in_file(file))?
        }
        None => {
            if a.rows * a.cols < 2 {
                bail!("a map needs at least two cells");
            }
            random_map(&RandomMap {
                rows: a.rows as usize,
                cols: a.cols as usize,
                food: a.food,
                walls: a.walls,
                supplies: a.supplies,
                seed: a.seed,
            })
        }
    };
    let text = map.to_string();
    match &a.output {
        Some(path) => write_atomic(path, text.as_bytes()).with_context(|| "writing the map")?,
        None => print!("{text}"),
    }
    Ok(0)
}

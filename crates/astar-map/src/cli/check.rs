//! Checking answers: `check` (an output against its input: replay and optimality), `grade` (a
//! class) and `compare` (every heuristic on every map).

use super::is_map_file;
use crate::check::check_output;
use crate::heuristics::HeuristicKind;
use crate::map::Map;
use crate::solve::{solve, SolveOptions};
use anyhow::{bail, Result};
use batch::{output_name, parse_file};
use search_core::SearchStats;
use std::path::{Path, PathBuf};

pub(super) fn check(input: &Path, output: &Path) -> Result<i32> {
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
pub(super) fn grade(input: &Path, class: &Path, report: &batch::grade::ReportArgs) -> Result<i32> {
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

pub(super) fn compare(input: &Path, dominance: bool, json: bool) -> Result<i32> {
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

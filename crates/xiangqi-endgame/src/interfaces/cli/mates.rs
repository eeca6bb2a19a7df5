//! Mates: `mate` (the shortest forced mate), `generate` (mate problems from random endgames)
//! and `problems` (a collection run through the engine).

use crate::rules::position::Position;
use anyhow::{bail, Result};
use batch::write_atomic;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct MateArgs {
    /// Position in FEN (quote it).
    fen: String,
    /// Longest mate looked for, in plies (both sides' moves).
    #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u32).range(1..=127))]
    plies: u32,
    /// Time limit in seconds (0 for none).
    #[arg(long, default_value_t = 60.0, value_parser = batch::seconds_arg)]
    seconds: f64,
    /// Search by full-width iterative deepening (alpha-beta with mate-distance pruning)
    /// instead: the same answers, to compare the two methods' work.
    #[arg(long, conflicts_with = "checks_only")]
    full_width: bool,
    /// Only mates in which every move of the mating side gives check (the classic
    /// problems' continuous checks): much quicker to prove or rule out, and "no mate" then
    /// means none by checks alone.
    #[arg(long)]
    checks_only: bool,
}

impl MateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        mate_cmd(
            &self.fen,
            self.plies,
            self.seconds,
            self.full_width,
            self.checks_only,
        )
    }
}

fn mate_cmd(
    fen: &str,
    plies: u32,
    seconds: f64,
    full_width: bool,
    checks_only: bool,
) -> Result<i32> {
    use crate::search::engine::{find_mate, MateSearch};
    let pos: Position = fen.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
    let time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
    let started = Instant::now();
    let found = if full_width {
        find_mate(&pos, plies, time)
    } else {
        let deadline = time.map_or(search_core::Deadline::none(), search_core::Deadline::after);
        let prover = crate::search::proof::MateProver::new(16, deadline, None);
        let mut prover = if checks_only {
            prover.by_checks()
        } else {
            prover
        };
        prover.shortest_mate(&pos, plies)
    };
    let ms = started.elapsed().as_millis();
    Ok(match found {
        MateSearch::Mate { moves, line, nodes } => {
            let line: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            let plies = match line.len() {
                1 => "1 ply".to_string(),
                n => format!("{n} plies"),
            };
            println!(
                "mate in {moves} ({plies}): {}  [{nodes} nodes, {ms} ms]",
                line.join(" ")
            );
            0
        }
        MateSearch::NoMate { plies, nodes } => {
            let how = if checks_only { " by checks" } else { "" };
            println!("no forced mate{how} within {plies} plies  [{nodes} nodes, {ms} ms]");
            1
        }
        MateSearch::Unknown { plies, nodes } => {
            println!(
                "time ran out: no forced mate within {plies} plies, longer ones not searched  [{nodes} nodes, {ms} ms]"
            );
            2
        }
    })
}

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Problems to make.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// Seed of the random endgames.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Shortest mate kept, in plies.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=40))]
    min_plies: u32,
    /// Longest mate looked for, in plies.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=127))]
    max_plies: u32,
    /// Nodes for each candidate's mate search (a budget in nodes, not time, so that the
    /// problems are the same on every machine).
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes_each: u64,
    /// Prove the mates by proof-number search instead of the full-width search: slower to
    /// reject candidates without a mate, but it reaches mates of 17 plies and more.
    #[arg(long)]
    proof_numbers: bool,
    /// Write the problems here instead of to standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

impl GenerateArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        generate_cmd(
            self.count as usize,
            self.seed,
            self.min_plies..=self.max_plies,
            self.nodes_each,
            self.proof_numbers,
            self.output.as_deref(),
        )
    }
}

fn generate_cmd(
    count: usize,
    seed: u64,
    plies: std::ops::RangeInclusive<u32>,
    nodes_each: u64,
    proof_numbers: bool,
    output: Option<&Path>,
) -> Result<i32> {
    if plies.is_empty() {
        bail!("--min-plies is above --max-plies");
    }
    if let Some(f) = output {
        batch::check_output(f, &[] as &[&Path])?;
    }
    let bar = batch::progress_bar(count as u64, "problems", false);
    let problems = crate::search::mates::generate(
        seed,
        count,
        *plies.start(),
        *plies.end(),
        nodes_each,
        proof_numbers,
        |_| bar.inc(1),
    );
    bar.finish_and_clear();
    let mut text = format!(
        "# {count} forced mates of {} to {} plies, red to move: xiangqi-endgame generate --count {count} --seed {seed} --min-plies {} --max-plies {} --nodes-each {nodes_each}{}\n",
        plies.start(),
        plies.end(),
        plies.start(),
        plies.end(),
        if proof_numbers { " --proof-numbers" } else { "" }
    );
    for p in &problems {
        text.push_str(&crate::search::mates::problem_line(p));
        text.push('\n');
    }
    match output {
        Some(f) => write_atomic(f, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(0)
}

#[derive(Debug, clap::Args)]
pub struct ProblemsArgs {
    /// The collection.
    file: PathBuf,
    /// Time per problem in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime_ms: u64,
    /// One JSON object per problem instead of text.
    #[arg(long)]
    json: bool,
}

impl ProblemsArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        problems_cmd(
            &self.file,
            Duration::from_millis(self.movetime_ms),
            self.json,
        )
    }
}

fn problems_cmd(file: &Path, move_time: Duration, json: bool) -> Result<i32> {
    use crate::interfaces::problems::{attempt, parse_collection};
    let text = batch::read_text(file)?;
    let (problems, errors) = parse_collection(&text);
    for e in &errors {
        eprintln!("{}", e.clone().in_file(file));
    }
    let bar = batch::progress_bar(problems.len() as u64, "problems", false);
    let (mut mates, mut known, mut at_length) = (0, 0, 0);
    for p in &problems {
        let a = attempt(&p.position, move_time);
        bar.inc(1);
        mates += a.mate_in.is_some() as usize;
        // Whether a known mate was found at its length (a shorter one cannot exist).
        let found = p.mate_in.map(|k| a.mate_in.is_some_and(|m| m <= k));
        known += found.is_some() as usize;
        at_length += (found == Some(true)) as usize;
        if json {
            let record = serde_json::json!({
                "name": p.name,
                "fen": p.position.to_string(),
                "known_mate_in": p.mate_in,
                "engine": a,
            });
            bar.suspend(|| println!("{record}"));
            continue;
        }
        let result = match (a.mate_in, a.first_mate_ms) {
            (Some(m), Some(ms)) => format!("mate in {m}, first seen after {ms} ms"),
            (Some(m), None) => format!("mate in {m}"),
            (None, _) => format!("score {} at depth {}", a.score, a.depth),
        };
        let verdict = match (p.mate_in, found) {
            (Some(k), Some(true)) => format!("  (mate in {k}: found)"),
            (Some(k), _) => format!("  (mate in {k}: MISSED)"),
            (None, _) => String::new(),
        };
        let best = a.best.as_deref().unwrap_or("(none)");
        bar.suspend(|| println!("{}: {best}  {result}{verdict}", p.name));
    }
    bar.finish_and_clear();
    if !json {
        let mut summary = format!(
            "{} problems at {} ms each: the engine reports a forced mate in {mates}",
            problems.len(),
            move_time.as_millis()
        );
        if known > 0 {
            summary.push_str(&format!(
                "; {at_length} of the {known} with a known mate found at that length or sooner"
            ));
        }
        println!("{summary}");
    }
    Ok(if errors.is_empty() { 0 } else { 1 })
}

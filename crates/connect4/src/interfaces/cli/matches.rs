//! Matches: `compete` (the course's match tool), `ladder` (the engine against the built-in
//! opponents), `selfplay` (a game drawn in the terminal) and `tournament` (a class, sharded).

use super::engine::EngineArgs;
use super::solve::parse_size;
use crate::course::compete::{message, result_file, run_match, winner, Contestant};
use crate::engine::{EngineConfig, GameState};
use crate::rules::board::Board;
use anyhow::{anyhow, Result};
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct CompeteArgs {
    /// Player A.
    a: String,
    /// Player B.
    b: String,
    /// Rounds (each two games on one random board).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Result file.
    #[arg(long, default_value = "result.txt")]
    result: PathBuf,
    /// Games played at once (default: one per core; each timed game wants a free core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Seed of the boards and players.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Memory allowed to each library's process, MiB (the course allows 1 GB).
    #[arg(long, default_value_t = 1024)]
    memory_mb: u64,
    /// Print nothing but the summary.
    #[arg(short, long)]
    quiet: bool,
    /// After each game's board, print its moves: the columns played from 0, first mover
    /// first (to replay or analyse a game).
    #[arg(long)]
    moves: bool,
    /// Play every round on a board of this size, ROWSxCOLUMNS (4..12 each), the obstacle
    /// still anywhere (default: the course's random 9..12 by 9..12).
    #[arg(long)]
    size: Option<String>,
    /// Run this many busy threads beside the match, to time moves on a loaded machine.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=256))]
    load: u64,
    /// Write every move's wall time to FILE as CSV (game,contestant,move,ms).
    #[arg(long, value_name = "FILE")]
    times: Option<PathBuf>,
}

impl CompeteArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let CompeteArgs {
            a,
            b,
            rounds,
            result,
            jobs,
            seed,
            memory_mb,
            quiet,
            moves,
            size,
            load,
            times,
        } = self;

        let size = size.as_deref().map(parse_size).transpose()?;
        // Before the first game: a result file that cannot be written fails now, not after
        // the whole match has been played.
        batch::check_output(&result, &[] as &[&std::path::Path])?;
        if let Some(t) = &times {
            batch::check_output(t, &[] as &[&std::path::Path])?;
        }
        let _load = crate::course::move_times::Load::start(load as usize);
        crate::course::compete::MEMORY_LIMIT_MB
            .store(memory_mb, std::sync::atomic::Ordering::Relaxed);
        let jobs = jobs.unwrap_or_else(batch::cores);
        let ca = Contestant::parse(&a).map_err(|e| anyhow!(e))?;
        let cb = Contestant::parse(&b).map_err(|e| anyhow!(e))?;
        warn_unplayable([&ca, &cb]);
        let bar = batch::progress_bar(2 * rounds as u64, "games", quiet);
        let records = run_match(&ca, &cb, rounds, seed, size, jobs, |i, a_first, r| {
            if !quiet {
                bar.suspend(|| {
                    println!(
                        "Round {i} {}: M = {}, N = {}: {}",
                        if a_first { "A first" } else { "B first" },
                        r.board.m,
                        r.board.n,
                        message(r.code)
                    );
                    // Stones lettered by contestant (A or B), whoever moved first.
                    let letters = if a_first { ['A', 'B'] } else { ['B', 'A'] };
                    print!("{}", r.board.to_text(letters));
                    if moves {
                        let cols: Vec<String> = r.moves.iter().map(|y| y.to_string()).collect();
                        println!("moves: {}", cols.join(" "));
                    }
                });
            }
            bar.inc(1);
        });
        bar.finish_and_clear();
        let text = result_file(&records);
        batch::write_atomic(&result, text.as_bytes())?;
        print!("{}", &text[text.find("Stat:").unwrap_or(0)..]);
        print!(
            "{}",
            move_time_report(&records, [(&a, &ca), (&b, &cb)], times.as_deref())?
        );
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct LadderArgs {
    /// Engine time per move in milliseconds.
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Rounds per opponent (two games each).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Games at once (default: one per core the engine's threads leave).
    #[arg(long)]
    jobs: Option<usize>,
    /// Seed.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Threads of the engine per move (`mcts:MS:C:T`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Play on boards of this size only, ROWSxCOLUMNS (as `compete --size`).
    #[arg(long)]
    size: Option<String>,
}

impl LadderArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let LadderArgs {
            time_ms,
            rounds,
            jobs,
            seed,
            threads,
            size,
        } = self;

        let size = size.as_deref().map(parse_size).transpose()?;
        let jobs = jobs.unwrap_or_else(|| (batch::cores() / threads as usize).max(1));
        let exploration = EngineConfig::default().exploration;
        let me = Contestant::Builtin(format!("mcts:{time_ms}:{exploration}:{threads}"));
        println!(
            "| opponent | games | wins | draws | losses | win rate |\n|---|---|---|---|---|---|"
        );
        let mut engine_times = Vec::new();
        for opponent in ["random", "greedy", "alphabeta:2", "alphabeta:4", "mcts:100"] {
            let records = run_match(
                &me,
                &Contestant::Builtin(opponent.into()),
                rounds,
                seed,
                size,
                jobs,
                |_, _, _| {},
            );
            let (mut w, mut d, mut l) = (0, 0, 0);
            for r in records.iter().flat_map(|p| [&p.0, &p.1]) {
                engine_times.extend_from_slice(&r.move_times[0]);
                match winner(r.code) {
                    Some(Some(true)) => w += 1,
                    Some(None) => d += 1,
                    _ => l += 1,
                }
            }
            let n = w + d + l;
            println!(
                "| {opponent} | {n} | {w} | {d} | {l} | {:.1}% |",
                100.0 * w as f64 / n.max(1) as f64
            );
        }
        let budget = crate::course::move_times::budget(&me);
        if let Some(d) = crate::course::move_times::distribution(&engine_times, budget) {
            println!("\nThe engine's move times (budget {time_ms} ms): {d}");
        }
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Seed of the board (size and obstacle).
    #[arg(long, default_value_t = 1)]
    board_seed: u64,
}

impl SelfplayArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let SelfplayArgs { engine, board_seed } = self;

        let mut rng = search_core::SmallRng::seed_from_u64(board_seed);
        let (m, n) = (rng.random_range(9..=12), rng.random_range(9..=12));
        let (no_x, no_y) = (rng.random_range(0..m), rng.random_range(0..n));
        let mut state = GameState::new(Board::new(m, n, no_x, no_y), 1);
        let mut engines = [engine.engine(), engine.engine()];
        while state.result.is_none() {
            let p = state.to_move as usize - 1;
            let t = Instant::now();
            let y = engines[p].choose(&state);
            state.play(y);
            println!(
                "{} plays column {y} ({:.0} ms)\n{}",
                if p == 0 { 'A' } else { 'B' },
                t.elapsed().as_secs_f64() * 1e3,
                state.board
            );
        }
        println!(
            "result: {}",
            match state.result {
                Some(1) => "A won",
                Some(2) => "B won",
                _ => "draw",
            }
        );
        Ok(0)
    }
}

/// The move-time distribution of each contestant over a match (and, with `times`, every
/// move's time written to that CSV file).
fn move_time_report(
    records: &[(
        crate::course::compete::GameRecord,
        crate::course::compete::GameRecord,
    )],
    contestants: [(&str, &Contestant); 2],
    times: Option<&std::path::Path>,
) -> Result<String> {
    use crate::course::move_times::{budget, distribution};
    use std::fmt::Write;
    let games: Vec<&crate::course::compete::GameRecord> =
        records.iter().flat_map(|p| [&p.0, &p.1]).collect();
    let mut out = String::from("\nMove times (wall clock, request to answer):\n");
    let mut csv = String::from("game,contestant,move,ms\n");
    for (side, (name, c)) in contestants.into_iter().enumerate() {
        let label = ['A', 'B'][side];
        let all: Vec<Duration> = games
            .iter()
            .flat_map(|g| g.move_times[side].iter().copied())
            .collect();
        for (g, game) in games.iter().enumerate() {
            for (k, t) in game.move_times[side].iter().enumerate() {
                let _ = writeln!(
                    csv,
                    "{},{label},{},{:.3}",
                    g + 1,
                    k + 1,
                    t.as_secs_f64() * 1e3
                );
            }
        }
        let b = budget(c);
        let budget_text = b.map_or(String::new(), |b| format!(" (budget {} ms)", b.as_millis()));
        match distribution(&all, b) {
            Some(d) => {
                let _ = writeln!(out, "{label} = {name}{budget_text}: {d}");
            }
            None => {
                let _ = writeln!(out, "{label} = {name}: no moves");
            }
        }
    }
    if let Some(path) = times {
        batch::write_atomic(path, csv.as_bytes())?;
    }
    Ok(out)
}

/// Names, on stderr, each library that cannot play and why (it still plays: each of its games
/// is scored as a crash, as the course tool scores it).
pub(super) fn warn_unplayable<'a>(contestants: impl IntoIterator<Item = &'a Contestant>) {
    for c in contestants {
        if let Err(why) = c.probe() {
            eprintln!("warning: {why}; each of its games is scored as a crash");
        }
    }
}

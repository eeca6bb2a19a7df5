//! The command line: `run` (the batch job), `generate` (requests), `solve` (7x6 perfect solver), `move` (one getPoint decision as text),
//! `saiblo` (the online judge's text protocol), `compete` (the course's match tool), `ladder`
//! (the engine against the built-in opponents), `selfplay` (a game drawn in the terminal).

use crate::board::Board;
use crate::compete::{host_library, message, result_file, run_match, winner, Contestant};
use crate::engine::{Engine, EngineConfig, GameState};
use crate::protocol::{get_point_from, saiblo};
use crate::solver7x6::{Position, Solver};
use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use rand::{Rng, SeedableRng};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
struct EngineArgs {
    /// Time per move in milliseconds (the course allows 3000).
    #[arg(long, default_value_t = crate::move_times::DEFAULT_LIBRARY_BUDGET.as_millis() as u64)]
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
    fn config(&self) -> EngineConfig {
        EngineConfig {
            time: Duration::from_millis(self.time_ms),
            iterations: self.iterations,
            seed: self.seed,
            threads: self.threads as usize,
            ..Default::default()
        }
    }

    fn engine(&self) -> Engine {
        Engine::new(self.config())
    }
}

/// What the one-shot `move` keeps of its budget for printing the answer and ending the process.
const EXIT_RESERVE: Duration = Duration::from_millis(10);

/// Gravity Connect Four with an obstacle, and a perfect 7x6 solver.
#[derive(Debug, Parser)]
#[command(name = "connect4", version, about)]
enum Command {
    /// The batch job: answer every getPoint request (`.txt`, the `move` format) of a folder
    /// with `x y`, and solve every 7x6 position list (`.7x6`, Pons' notation) with exact
    /// scores; writes `output_<name>.txt` for each. Reproducible: a fixed, seeded number of
    /// engine iterations per request.
    Run {
        /// A `.txt` request or `.7x6` list, or a folder of them.
        input: PathBuf,
        /// MCTS iterations per request.
        #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        iterations: u64,
        #[command(flatten)]
        common: batch::CommonArgs,
    },
    /// A getPoint request (the `move` format) on a random course board after some seeded
    /// random moves that leave the game open, for `move` and `run`.
    Generate {
        /// Stones played before the request.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=144))]
        plies: u64,
        /// Seed of the board and the moves.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
    },
    /// Solve 7x6 positions (Pons' notation: 1-based columns), one `moves [score]` per line.
    Solve {
        /// File of positions (default: stdin).
        file: Option<PathBuf>,
        /// Compare with the score given on each line; exit 1 on any difference.
        #[arg(long)]
        check: bool,
        /// Only the sign of the score (win/draw/loss).
        #[arg(long)]
        weak: bool,
        /// Print the score of every column instead (-1000 = full), as Pons' `-a`.
        #[arg(long)]
        analyze: bool,
    },
    /// One decision from getPoint's arguments as text on stdin; prints `x y`.
    Move(EngineArgs),
    /// Play one game over the online judge's text protocol on stdin/stdout.
    Saiblo(EngineArgs),
    /// The course's match tool: A against B for N rounds (two games each), result file as the
    /// course writes it. A and B are built-ins (random, greedy, alphabeta:D, mcts:MS[:C[:T]] with
    /// T threads, mcts-lgr:MS[:C[:T]], mcts-tt:MS[:C[:T]]) or shared libraries with
    /// getPoint/clearPoint (run in child processes).
    Compete {
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
    },
    /// Where a game was decided: proves every position of a game (as `compete --moves` prints
    /// it) with the engine's wins-only search, and names the move that lost it; each position
    /// also shows who wins its fill-up game (the threats on the board, no new ones).
    Analyze {
        /// Board size, ROWSxCOLUMNS (4..12 each), e.g. 9x12.
        #[arg(long)]
        size: String,
        /// The forbidden cell, ROW,COLUMN from the top left (0-based), e.g. 2,7.
        #[arg(long)]
        obstacle: String,
        /// Proof time per position in milliseconds.
        #[arg(long, default_value_t = 1000)]
        time_ms: u64,
        /// Prove only the positions after this many moves (the earlier ones are just played).
        #[arg(long, default_value_t = 0)]
        from: usize,
        /// The columns played, from 0, first mover first (`compete --moves` prints them).
        #[arg(required = true, num_args = 1..)]
        moves: Vec<usize>,
    },
    /// A tournament at class scale: every player against every opponent, each round on one
    /// random board played twice with colours swapped; writes DIR/games.csv and
    /// DIR/standings.csv. `--shard I/N` plays a deterministic slice (the schedule depends only
    /// on the seed), `tournament merge` joins the slices, `--resume` goes on after a kill.
    Tournament(TournamentArgs),
    /// The engine against the built-in ladder of opponents: a table of wins, draws, losses.
    Ladder {
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
    },
    /// (internal) Host a shared library for the match tool, in a child process.
    #[command(hide = true)]
    HostLib {
        /// Address-space cap for the library's process, MiB.
        #[arg(long, default_value_t = 1024)]
        memory_mb: u64,
        /// The library.
        path: PathBuf,
    },
    /// Watch the engine play itself on a random board.
    Selfplay {
        #[command(flatten)]
        engine: EngineArgs,
        /// Seed of the board (size and obstacle).
        #[arg(long, default_value_t = 1)]
        board_seed: u64,
    },
}

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct TournamentArgs {
    #[command(subcommand)]
    merge: Option<TournamentCommand>,
    /// Players: libraries, folders of libraries, or built-ins.
    #[arg(long, num_args = 1.., required = true)]
    players: Vec<String>,
    /// Opponents: libraries, folders of libraries, or built-ins such as alphabeta:4.
    #[arg(long, num_args = 1.., required = true)]
    opponents: Vec<String>,
    /// Rounds per pairing (two games each, on one board per round).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    rounds: u64,
    /// Seed of the schedule: boards, first movers, the games' random choices.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// The run folder (games.csv, standings.csv, the journal).
    #[arg(long, required = true)]
    out: Option<PathBuf>,
    /// Time per move of the libraries in ms (CONNECT4_TIME_MS in their processes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    time_ms: Option<u64>,
    /// Games at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only slice I of N of the schedule (I from 1), for several machines or jobs.
    #[arg(long, value_name = "I/N")]
    shard: Option<batch::Shard>,
    /// Go on with the games the run folder's journal does not have yet.
    #[arg(long)]
    resume: bool,
    /// Memory allowed to each library's process, MiB (the course allows 1 GB).
    #[arg(long, default_value_t = 1024)]
    memory_mb: u64,
    /// No progress bar, only the summary.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum TournamentCommand {
    /// Join the games.csv of several run folders (shards) into one games.csv and standings.csv.
    Merge {
        /// The run folders.
        #[arg(required = true, num_args = 1..)]
        dirs: Vec<PathBuf>,
        /// The folder to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Names, on stderr, each library that cannot play and why (it still plays: each of its games
/// is scored as a crash, as the course tool scores it).
fn warn_unplayable<'a>(contestants: impl IntoIterator<Item = &'a Contestant>) {
    for c in contestants {
        if let Err(why) = c.probe() {
            eprintln!("warning: {why}; each of its games is scored as a crash");
        }
    }
}

/// `connect4 tournament`: play the schedule (or a shard of it), or merge shards.
fn tournament(a: TournamentArgs) -> Result<i32> {
    use crate::tournament::{describe, expand, run, schedule, write_results};
    if let Some(TournamentCommand::Merge { dirs, out }) = a.merge {
        let n = crate::tournament::merge(&dirs, &out)?;
        println!(
            "{n} games from {} folders: {}",
            dirs.len(),
            out.join("games.csv").display()
        );
        return Ok(0);
    }
    let dir = a.out.expect("clap requires --out");
    let players = expand(&a.players)?;
    let opponents = expand(&a.opponents)?;
    warn_unplayable(players.iter().chain(&opponents).map(|p| &p.1));
    let names = |v: &[(String, Contestant)]| v.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
    let mut fixtures = schedule(
        &names(&players),
        &names(&opponents),
        a.rounds as usize,
        a.seed,
    );
    let shard = a.shard.unwrap_or(batch::Shard::WHOLE);
    fixtures = fixtures
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shard.takes(*k))
        .map(|(_, f)| f)
        .collect();
    // What the run folder is for: a resumed run must be the same schedule, and merge checks
    // that the shards it joins are all the slices of one.
    let description = describe(
        &a.players,
        &a.opponents,
        a.rounds,
        a.seed,
        shard,
        fixtures.len(),
    );
    let description_file = dir.join("tournament.txt");
    if dir.join("journal.csv").exists() {
        if !a.resume {
            bail!(
                "{}: a run is already there; --resume to go on with it, or another --out",
                dir.display()
            );
        }
        if batch::read_text(&description_file).ok().as_deref() != Some(description.as_str()) {
            bail!(
                "{}: the run there has another schedule (see tournament.txt)",
                dir.display()
            );
        }
    } else {
        batch::write_atomic(&description_file, description.as_bytes())?;
    }
    if let Some(ms) = a.time_ms {
        // Read by the libraries in their own processes (children inherit it).
        std::env::set_var("CONNECT4_TIME_MS", ms.to_string());
    }
    crate::compete::MEMORY_LIMIT_MB.store(a.memory_mb, std::sync::atomic::Ordering::Relaxed);
    let contestants: std::collections::BTreeMap<String, Contestant> =
        players.into_iter().chain(opponents).collect();
    let already = crate::tournament::read_journal(&dir)?.len();
    let bar = batch::progress_bar(fixtures.len() as u64, "games", a.quiet);
    bar.set_position(already.min(fixtures.len()) as u64);
    let started = Instant::now();
    let rows = run(
        &dir,
        &fixtures,
        &contestants,
        a.jobs.unwrap_or_else(batch::cores),
        || bar.inc(1),
    )?;
    bar.finish_and_clear();
    let played = rows.len().saturating_sub(already);
    write_results(&dir, rows)?;
    println!(
        "{} games ({played} played now, {:.1} s), results in {} and {}",
        fixtures.len(),
        started.elapsed().as_secs_f64(),
        dir.join("games.csv").display(),
        dir.join("standings.csv").display()
    );
    Ok(0)
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    // The one-shot `move` counts its budget from here, the start of the process's own code.
    let started = std::time::Instant::now();
    batch::run_main(|| dispatch(Command::parse(), started))
}

fn dispatch(cli: Command, started: std::time::Instant) -> Result<i32> {
    match cli {
        Command::Run {
            input,
            iterations,
            common,
        } => run(&input, iterations, &common),
        Command::Generate { plies, seed } => {
            let (request, played) = crate::run::random_request_played(seed, plies as usize);
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
        Command::Solve {
            file,
            check,
            weak,
            analyze,
        } => {
            let reader: Box<dyn BufRead> = match &file {
                Some(p) => Box::new(std::io::BufReader::new(
                    std::fs::File::open(p).map_err(|e| anyhow!("{}: {e}", p.display()))?,
                )),
                None => Box::new(std::io::stdin().lock()),
            };
            solve(
                reader,
                file.as_ref()
                    .map_or("stdin".into(), |p| p.display().to_string()),
                check,
                weak,
                analyze,
            )
        }
        Command::Move(a) => {
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
        Command::Saiblo(a) => {
            let mut e = a.engine();
            saiblo(std::io::stdin().lock(), std::io::stdout().lock(), &mut e)
                .map_err(|e| anyhow!(e))?;
            Ok(0)
        }
        Command::Compete {
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
        } => {
            let size = size.as_deref().map(parse_size).transpose()?;
            // Before the first game: a result file that cannot be written fails now, not after
            // the whole match has been played.
            batch::check_writable(&result)?;
            if let Some(t) = &times {
                batch::check_writable(t)?;
            }
            let _load = crate::move_times::Load::start(load as usize);
            crate::compete::MEMORY_LIMIT_MB.store(memory_mb, std::sync::atomic::Ordering::Relaxed);
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
        Command::Ladder {
            time_ms,
            rounds,
            jobs,
            seed,
            threads,
            size,
        } => {
            let size = size.as_deref().map(parse_size).transpose()?;
            let jobs = jobs.unwrap_or_else(|| (batch::cores() / threads as usize).max(1));
            let exploration = EngineConfig::default().exploration;
            let me = Contestant::Builtin(format!("mcts:{time_ms}:{exploration}:{threads}"));
            println!("| opponent | games | wins | draws | losses | win rate |\n|---|---|---|---|---|---|");
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
            let budget = crate::move_times::budget(&me);
            if let Some(d) = crate::move_times::distribution(&engine_times, budget) {
                println!("\nThe engine's move times (budget {time_ms} ms): {d}");
            }
            Ok(0)
        }
        Command::Analyze {
            size,
            obstacle,
            time_ms,
            from,
            moves,
        } => {
            let board = parse_board(&size, &obstacle)?;
            let start = GameState::new(board, 1);
            let per_position = Duration::from_millis(time_ms);
            // A `--from` past the end still proves the final position.
            let from = from.min(moves.len());
            let verdicts = crate::analyze::analyze(&start, &moves, from, per_position)
                .map_err(|e| anyhow!(e))?;
            print!("{}", analysis_text(&verdicts, &moves));
            Ok(0)
        }
        Command::HostLib { path, memory_mb } => Ok(host_library(&path, memory_mb)),
        Command::Tournament(a) => tournament(a),
        Command::Selfplay { engine, board_seed } => {
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
}

/// The move-time distribution of each contestant over a match (and, with `times`, every
/// move's time written to that CSV file).
fn move_time_report(
    records: &[(crate::compete::GameRecord, crate::compete::GameRecord)],
    contestants: [(&str, &Contestant); 2],
    times: Option<&std::path::Path>,
) -> Result<String> {
    use crate::move_times::{budget, distribution};
    use std::fmt::Write;
    let games: Vec<&crate::compete::GameRecord> =
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

/// `connect4 run`: every request or 7x6 list under `input`, one output file each.
fn run(input: &std::path::Path, iterations: u64, common: &batch::CommonArgs) -> Result<i32> {
    use crate::run::{answer_request, batch_engine, is_job_file, solve_7x6};
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

/// `connect4 solve`: every line of `reader` (`moves [score]`) solved in turn. A line that is
/// not a position (or too long, or not text) is reported with `name:line` and counted as
/// failed, and the lines after it are still solved; the exit code is 1 if any line failed.
fn solve(
    mut reader: Box<dyn BufRead>,
    name: String,
    check: bool,
    weak: bool,
    analyze: bool,
) -> Result<i32> {
    let mut solver = Solver::default();
    let (mut n, mut wrong, mut unreadable, mut explored) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut line = String::new();
    let mut number = 0;
    loop {
        number += 1;
        match batch::read_line_capped(&mut reader, &mut line, number) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                unreadable += 1;
                // A line too long to read is the end of what can be read from this input.
                if e.contains("longer than") {
                    break;
                }
                continue;
            }
        }
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        if moves.starts_with('#') {
            continue;
        }
        let given = Position::parse(moves).and_then(|p| match words.next() {
            None => Ok((p, None)),
            Some(w) => w
                .parse::<i32>()
                .map(|g| (p, Some(g)))
                .map_err(|_| format!("`{}` is not a score", batch::shown(w))),
        });
        let (pos, given) = match given {
            Ok(ok) => ok,
            Err(e) => {
                eprintln!("error: {name}:{number}: {e}");
                unreadable += 1;
                continue;
            }
        };
        solver.reset_counter();
        if analyze {
            let scores: Vec<String> = solver
                .analyze(&pos, weak)
                .iter()
                .map(|s| s.unwrap_or(-1000).to_string())
                .collect();
            println!("{moves} {}", scores.join(" "));
            continue;
        }
        let score = solver.solve(&pos, weak);
        explored += solver.explored();
        n += 1;
        let expected = given.map(|g| if weak { g.signum() } else { g });
        if check {
            match expected {
                Some(e) if e != score => {
                    wrong += 1;
                    println!("{moves} {score} (expected {e})");
                }
                None => {
                    wrong += 1;
                    println!("{moves} {score} (no score listed to check against)");
                }
                _ => {}
            }
        } else {
            println!("{moves} {score}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if n > 0 {
        eprintln!(
            "{name}: {n} positions, mean {:.3} ms and {:.0} positions explored per position, {:.0} K pos/s",
            secs * 1e3 / n as f64,
            explored as f64 / n as f64,
            explored as f64 / secs.max(1e-9) / 1e3
        );
    }
    if unreadable > 0 {
        let lines = if unreadable == 1 { "line" } else { "lines" };
        eprintln!("{name}: {n} positions solved, {unreadable} {lines} unreadable");
    }
    if check {
        println!("{} passed, {} failed", n - wrong, wrong + unreadable);
        if n + unreadable == 0 {
            eprintln!("error: {name}: nothing to check");
            return Ok(1);
        }
    }
    Ok(i32::from(wrong + unreadable > 0))
}

/// Two numbers separated by `sep` (`what` names the option in messages).
fn parse_pair(text: &str, sep: char, what: &str) -> Result<(usize, usize)> {
    let (a, b) = text
        .split_once(sep)
        .ok_or_else(|| anyhow!("{what} '{text}': expected two numbers separated by '{sep}'"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| anyhow!("{what} '{text}': '{t}' is not a number"))
    };
    Ok((num(a)?, num(b)?))
}

/// Rows and columns from `ROWSxCOLUMNS`, each 4 to 12.
fn parse_size(size: &str) -> Result<(usize, usize)> {
    let (m, n) = parse_pair(size, 'x', "--size")?;
    if !(4..=12).contains(&m) || !(4..=12).contains(&n) {
        return Err(anyhow!("--size {size}: rows and columns must be 4 to 12"));
    }
    Ok((m, n))
}

/// A board from `ROWSxCOLUMNS` and `ROW,COLUMN` of the obstacle, checked.
fn parse_board(size: &str, obstacle: &str) -> Result<Board> {
    let (m, n) = parse_size(size)?;
    let (no_x, no_y) = parse_pair(obstacle, ',', "--obstacle")?;
    if no_x >= m || no_y >= n {
        return Err(anyhow!("--obstacle {obstacle}: outside the {m}x{n} board"));
    }
    Ok(Board::new(m, n, no_x, no_y))
}

/// The analysis as a table, one line per position, then the move that decided the game.
fn analysis_text(verdicts: &[crate::analyze::Verdict], moves: &[usize]) -> String {
    use crate::analyze::{FillUp, Proof};
    use std::fmt::Write;
    let side = |p: u8| if p == 1 { "first" } else { "second" };
    let mut out = String::from("ply  to move  then plays  fill-up  proven\n");
    for v in verdicts {
        let proof = match v.proof {
            Proof::Win { winner, plies } => {
                let unit = if plies == 1 { "ply" } else { "plies" };
                format!("{} wins in {plies} {unit}", side(winner))
            }
            Proof::WinBeyond { winner, searched } => format!(
                "{} wins in more than {searched} plies (proof-number search)",
                side(winner)
            ),
            Proof::Draw => "draw".to_string(),
            Proof::Open { searched } => format!("open (no forced win within {searched} plies)"),
            Proof::Over { winner: Some(w) } => format!("game over: {} won", side(w)),
            Proof::Over { winner: None } => "game over: draw".to_string(),
        };
        let next = moves.get(v.ply).map_or("-".to_string(), |y| y.to_string());
        let fill_up = match v.fill_up {
            Some(FillUp::Win(w)) => side(w),
            Some(FillUp::Draw) => "draw",
            Some(FillUp::Unsolved) => "?",
            None => "-",
        };
        let _ = writeln!(
            out,
            "{:>3}  {:<7}  {next:>10}  {fill_up:<7}  {proof}",
            v.ply,
            side(v.to_move)
        );
    }
    out.push_str(
        "fill-up: who wins if the columns fill up with the threats now on the board and nobody \
         makes a new one (the zugzwang a long game turns on; a guide, not a proof)\n",
    );
    match crate::analyze::losing_move(verdicts) {
        Some(ply) => {
            // The position the deciding move was played from is among the verdicts.
            let mover = verdicts
                .iter()
                .find(|v| v.ply == ply)
                .expect("losing_move names an analysed position")
                .to_move;
            let _ = writeln!(
                out,
                "decided by move {} (column {}, {} player): the winner forces the win from then on",
                ply + 1,
                moves[ply],
                side(mover)
            );
        }
        None => out.push_str("no single deciding move proven\n"),
    }
    out
}

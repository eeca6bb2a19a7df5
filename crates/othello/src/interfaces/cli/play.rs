//! Playing: `match` between deciders and NBoard engines, `nboard` (the engine for GUIs), and
//! `play` against a decider in the terminal.

use anyhow::{anyhow, Result};
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Side A: minimax:D, alphabeta:D, mtdf:D (D plies deep), id:MS (iterative deepening
    /// for MS milliseconds a move), mcts:MS, random, or nboard:COMMAND for an engine that
    /// speaks the NBoard protocol (the command is split at spaces, like
    /// "nboard:othello nboard"), started for each game.
    a: String,
    /// Side B, in the same form as A.
    b: String,
    /// Midgame depth given to NBoard engines (`set depth`).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=60))]
    nboard_depth: u32,
    /// Seconds an NBoard engine may think about one move before it forfeits the game.
    #[arg(long, default_value_t = 60.0, value_parser = batch::seconds_arg)]
    move_timeout: f64,
    /// Each side's game clock as a GGF time control, MAIN[/INCREMENT[/EXTENSION]] with
    /// times as [[h:]m:]s (`2:00` is two minutes a game): sent to NBoard engines in the
    /// game (`TI`, with every move's time), and a side that uses more loses on time.
    #[arg(long, value_parser = clock_arg)]
    clock: Option<crate::formats::ggf::Clock>,
    /// Games (rounded up to an even number).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Random plies of each pair's opening from the start; the openings of a match are all
    /// different, even turned or reflected, while there are enough (four plies have 60).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    opening_plies: u32,
    /// Only openings that the learned evaluation, searched 8 plies, values within DISCS of
    /// even: colour matters less, so more pairs tell the players apart.
    #[arg(long, value_name = "DISCS", value_parser = clap::value_parser!(u32).range(0..=64))]
    balanced: Option<u32>,
    /// A's heuristic.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::HeuristicKind::Course)]
    heuristic_a: crate::search::deciders::HeuristicKind,
    /// B's heuristic.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::HeuristicKind::Course)]
    heuristic_b: crate::search::deciders::HeuristicKind,
    /// Seed of the openings and tie-breaks.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Move order of the searches: the course framework's, or fewest replies first.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::MoveOrder::Course)]
    order: crate::search::deciders::MoveOrder,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Write the search tree of every turn a fixed-depth decider plays (minimax:D,
    /// alphabeta:D, mtdf:D) to DIR/gameN/turnK.dot (and .svg when small); games 1, 3, 5, ...
    /// have A as black.
    #[arg(long, value_name = "DIR")]
    trace: Option<std::path::PathBuf>,
    /// Write the games to FILE as GGF, one a line in the order played (A black in games 1,
    /// 3, 5, ...), with the players, every move's thinking time and the result.
    #[arg(long, value_name = "FILE")]
    ggf: Option<std::path::PathBuf>,
}

impl MatchArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let MatchArgs {
            a,
            b,
            nboard_depth,
            move_timeout,
            clock,
            games,
            opening_plies,
            balanced,
            heuristic_a,
            heuristic_b,
            seed,
            jobs,
            order,
            json,
            trace,
            ggf,
        } = self;

        use crate::interfaces::matchplay::{run, Contestant, MatchOptions};
        if let Some(path) = &ggf {
            batch::check_output(path, &[] as &[&std::path::Path])?;
        }
        let timeout = std::time::Duration::from_secs_f64(move_timeout);
        let pa = Contestant::parse(&a, heuristic_a, order, nboard_depth, timeout)
            .map_err(|e| anyhow!(e))?;
        let pb = Contestant::parse(&b, heuristic_b, order, nboard_depth, timeout)
            .map_err(|e| anyhow!(e))?;
        let jobs = jobs.unwrap_or_else(batch::cores);
        let bar = batch::progress_bar(games.div_ceil(2) as u64 * 2, "games", json);
        let options = MatchOptions {
            games,
            opening_plies: opening_plies as usize,
            balanced,
            seed,
            jobs,
            clock,
            trace: trace.as_deref(),
            record: ggf.as_deref(),
        };
        let r = run(&pa, &pb, &options, || bar.inc(1))?;
        bar.finish_and_clear();
        for f in &r.forfeits {
            eprintln!("{f}");
        }
        if json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            println!(
            "A = {} vs B = {}: {} games from {} openings of {} plies{}, A wins {}, draws {}, losses {}; mean disc difference {:+.2}; A's score {:.1}% (95% CI {:.1}%..{:.1}%)",
            describe(&a, &pa),
            describe(&b, &pb),
            r.games,
            r.openings,
            r.opening_plies,
            r.balanced.map_or(String::new(), |d| format!(" within {d} discs of even")),
            r.wins,
            r.draws,
            r.losses,
            r.mean_disc_difference,
            100.0 * r.score_rate,
            100.0 * r.ci95.0,
            100.0 * r.ci95.1
        );
            for (side, t) in [("A", &r.thinking_a), ("B", &r.thinking_b)] {
                println!(
                "{side} thought {:.1} s over {} moves ({:.2} s a move), the slowest {:.2} s at {} empties{}",
                t.total_seconds,
                t.moves,
                t.total_seconds / t.moves.max(1) as f64,
                t.slowest_seconds,
                t.slowest_empties,
                if t.book_moves > 0 {
                    format!(
                        "; {} book moves ({:.1} a game)",
                        t.book_moves,
                        t.book_moves as f64 / r.games.max(1) as f64
                    )
                } else {
                    String::new()
                }
            );
            }
        }
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct NboardArgs {
    /// Multi-ProbCut's confidence in standard deviations of the shallow search's fitted
    /// error: smaller prunes more; 0 searches full width.
    #[arg(long, default_value_t = f64::from(crate::search::engine::DEFAULT_PROBCUT_CONFIDENCE) / 100.0,
          value_parser = probcut_arg)]
    probcut: f64,
    /// Play from this opening book (`othello book build`) while the position is in it.
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Evaluate with these pattern weights (`othello train --out`) instead of the built-in ones.
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    /// Multi-ProbCut's error model (`othello fit-probcut --out`) for those weights.
    #[arg(long, value_name = "FILE")]
    probcut_model: Option<std::path::PathBuf>,
}

impl NboardArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let NboardArgs {
            probcut,
            book,
            weights,
            probcut_model,
        } = self;
        if let Some(path) = weights {
            super::use_weights_file(&path)?;
        }
        if let Some(path) = probcut_model {
            let text = batch::read_text(&path)?;
            let m = crate::eval::probcut::ErrorModel::from_text(&text)
                .map_err(|e| anyhow!("{}: {e}", path.display()))?;
            crate::eval::probcut::use_model(m).map_err(|e| anyhow!(e))?;
        }
        let book = match book {
            Some(path) => Some(std::sync::Arc::new(super::games::read_book(&path)?)),
            None => None,
        };
        let stdin = std::io::BufReader::new(std::io::stdin());
        let confidence = (probcut > 0.0).then(|| (probcut * 100.0).round() as i32);
        crate::interfaces::nboard::serve_engine(
            confidence,
            book,
            stdin,
            std::io::stdout(),
            std::io::stderr(),
        )?;
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The computer's decider: minimax:D, alphabeta:D, mtdf:D, id:MS, mcts:MS or random.
    #[arg(default_value = "alphabeta:4")]
    decider: String,
    /// Play white (the computer opens).
    #[arg(long)]
    white: bool,
    /// The computer's heuristic.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::HeuristicKind::Pattern)]
    heuristic: crate::search::deciders::HeuristicKind,
    /// Move order of the searches: the course framework's, or fewest replies first.
    #[arg(long, value_enum, default_value_t = crate::search::deciders::MoveOrder::Course)]
    order: crate::search::deciders::MoveOrder,
    /// Seed of the computer's tie-breaks.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Write the search tree of each computer turn (fixed-depth deciders) as Graphviz DOT,
    /// and SVG when small enough or `dot` is installed, into DIR (turnN.dot).
    #[arg(long, value_name = "DIR")]
    trace: Option<std::path::PathBuf>,
}

impl PlayArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let PlayArgs {
            decider,
            white,
            heuristic,
            order,
            seed,
            trace,
        } = self;

        let computer = crate::interfaces::play::Computer {
            decider: decider.parse().map_err(|e: String| anyhow!(e))?,
            heuristic,
            order,
            seed,
            trace,
        };
        crate::interfaces::play::human_game(
            &computer,
            !white,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        )?;
        Ok(0)
    }
}

/// A match side as the report names it: the spec, with the heuristic of a decider.
fn describe(spec: &str, c: &crate::interfaces::matchplay::Contestant) -> String {
    match c {
        crate::interfaces::matchplay::Contestant::Builtin(p) => {
            format!("{spec} ({:?})", p.heuristic)
        }
        crate::interfaces::matchplay::Contestant::Nboard(_) => spec.to_string(),
    }
}

/// A Multi-ProbCut confidence: 0 to 10 standard deviations.
fn probcut_arg(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| (0.0..=10.0).contains(t))
        .ok_or_else(|| format!("`{s}`: a number of standard deviations from 0 to 10"))
}

/// Parses a `--clock` time control.
fn clock_arg(s: &str) -> Result<crate::formats::ggf::Clock, String> {
    s.parse()
}

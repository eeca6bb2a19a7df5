//! Playing: `uci` (the engine for GUIs) and `match` (engine against engine, or an external UCI
//! engine).

use crate::eval::EvalKind;
use crate::search::config::SearchConfig;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct UciArgs {
    /// Evaluation: the learned piece-square tables corrected by the network by default
    /// (`course` and the others for experiments: `match` against the engine's own).
    #[arg(long, value_enum, default_value_t = EvalKind::Net)]
    eval: EvalKind,
    /// Rules of the selective search to switch off, comma-separated (experiments: what a
    /// rule is worth in games, by `match` against the engine with it).
    #[arg(long, value_enum, value_delimiter = ',')]
    without: Vec<crate::search::config::Pruning>,
    /// Ideas of the selective search that are off by default to switch on, comma-separated
    /// (experiments, see docs/xiangqi-endgame.md).
    #[arg(long, value_enum, value_delimiter = ',')]
    with: Vec<crate::search::config::Experiment>,
}

impl UciArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let engine = SearchConfig {
            eval: self.eval,
            ..SearchConfig::engine()
        };
        let config = self.without.iter().fold(engine, |c, &rule| c.without(rule));
        let config = self.with.iter().fold(config, |c, &idea| c.with(idea));
        crate::interfaces::uci::run_with(config, std::io::stdin().lock(), std::io::stdout())?;
        Ok(0)
    }
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Engine A: `selective` (the engine's selective search, `uci`'s), `full-width` (the
    /// full-width search `run` chooses the course's answers with), or `uci:COMMAND` for an
    /// external UCI engine started for each game (another build of this tool with
    /// "uci:./old/xiangqi-endgame uci", or any UCI xiangqi engine).
    #[arg(long, default_value = "selective")]
    a: crate::play::selfplay::Contestant,
    /// Engine B, as for `--a`.
    #[arg(long, default_value = "full-width")]
    b: crate::play::selfplay::Contestant,
    /// A UCI option of engine A, `NAME=VALUE`, sent as `setoption name NAME value VALUE`
    /// after `uci` (repeat for more; for Fairy-Stockfish: `UCI_Variant=xiangqi`).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    a_option: Vec<(String, String)>,
    /// A UCI option of engine B, as for `--a-option`.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    b_option: Vec<(String, String)>,
    /// How engine A's moves number the ranks: `0` (0..9 from red's side, this tool's and
    /// ICCS's), `1` (1..10, Fairy-Stockfish's), or `auto` (asked from its move in the start
    /// position before the first game).
    #[arg(long, default_value = "auto")]
    a_ranks: crate::play::selfplay::Ranks,
    /// How engine B's moves number the ranks, as for `--a-ranks`.
    #[arg(long, default_value = "auto")]
    b_ranks: crate::play::selfplay::Ranks,
    /// Pairs of games (two per opening).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pairs: u32,
    /// Time per move in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime_ms: u64,
    /// Nodes per move instead of a time (`go nodes` for UCI engines): the same games on
    /// every machine and every run.
    #[arg(long, conflicts_with = "movetime_ms", value_parser = clap::value_parser!(u64).range(1..))]
    nodes_per_move: Option<u64>,
    /// A clock for each side instead, BASE+INCREMENT in seconds (`10+0.1`): the engines
    /// manage their own time (`go wtime btime winc binc`), and a side whose clock runs out
    /// loses.
    #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["movetime_ms", "nodes_per_move"], value_parser = crate::play::selfplay::parse_clock)]
    clock: Option<crate::play::selfplay::Budget>,
    /// Plies of every opening: random legal moves, or with --openings the games' own, a number
    /// or a range (`8-12`: each game's drawn from it).
    #[arg(long, default_value = "4", value_parser = plies_arg)]
    opening_plies: std::ops::RangeInclusive<usize>,
    /// Openings from the games of these PGN files (or folders): each pair of games starts
    /// where one of them stood after --opening-plies, every position once, colours swapped.
    #[arg(long, value_name = "PGN", num_args = 1.., conflicts_with_all = ["endgames", "mixed_endgames"])]
    openings: Vec<PathBuf>,
    /// Start every pair of games from a balanced random endgame (the same material on both
    /// sides, scored within a pawn of even by a short search) instead of an opening: what
    /// endgame knowledge is worth.
    #[arg(long, conflicts_with = "opening_plies")]
    endgames: bool,
    /// Start from uneven random endgames instead (each side's material drawn on its own):
    /// decisive games, the training data of `train`.
    #[arg(long, conflicts_with_all = ["opening_plies", "endgames"])]
    mixed_endgames: bool,
    /// Seed of the openings (or endgames).
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Write every game (JSON lines: result, reason, start FEN, moves, answer times) to
    /// this file.
    #[arg(long)]
    games: Option<PathBuf>,
    /// Write every game as a PGN-like record (ICCS moves, tags for the engines, result,
    /// termination, time control and start) to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
}

impl MatchArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let MatchArgs {
            a,
            b,
            a_option,
            b_option,
            a_ranks,
            b_ranks,
            pairs,
            movetime_ms,
            nodes_per_move,
            clock,
            opening_plies,
            openings,
            endgames,
            mixed_endgames,
            seed,
            games,
            pgn,
        } = self;
        match_cmd(
            with_setup(a, a_option, a_ranks, "a")?,
            with_setup(b, b_option, b_ranks, "b")?,
            pairs as usize,
            match (nodes_per_move, clock) {
                (Some(n), _) => crate::play::selfplay::Budget::Nodes(n),
                (None, Some(clock)) => clock,
                (None, None) => {
                    crate::play::selfplay::Budget::Time(Duration::from_millis(movetime_ms))
                }
            },
            if endgames {
                crate::play::selfplay::Starts::Endgames
            } else if mixed_endgames {
                crate::play::selfplay::Starts::MixedEndgames
            } else if !openings.is_empty() {
                let files = crate::notation::collection::pgn_files(&openings)?;
                let c = crate::notation::collection::read(&files, None, &|_| {})?;
                let games: Vec<_> = c.games.into_iter().map(|(_, g)| g).collect();
                let lines =
                    crate::play::selfplay::record_openings(&games, opening_plies.clone(), seed);
                if lines.len() < pairs as usize {
                    eprintln!(
                        "match: {} different openings of {}-{} plies for {pairs} pairs: some are played twice",
                        lines.len(),
                        opening_plies.start(),
                        opening_plies.end()
                    );
                }
                if lines.is_empty() {
                    anyhow::bail!(
                        "--openings: no game starts from the usual position with {} plies",
                        opening_plies.start()
                    );
                }
                crate::play::selfplay::Starts::Lines(std::sync::Arc::new(lines))
            } else {
                if opening_plies.start() != opening_plies.end() {
                    anyhow::bail!("--opening-plies: a range needs --openings (random openings take one length)");
                }
                crate::play::selfplay::Starts::Openings(*opening_plies.start())
            },
            seed,
            games.as_deref(),
            pgn.as_deref(),
        )
    }
}

/// `NAME=VALUE` of `--a-option`/`--b-option`.
fn parse_option(text: &str) -> std::result::Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!(
            "expected NAME=VALUE, like UCI_Variant=xiangqi, not `{text}`"
        )),
    }
}

/// `contestant` with the options and rank numbering given for its side (`--a-…` or `--b-…`),
/// which only an external engine takes.
fn with_setup(
    mut contestant: crate::play::selfplay::Contestant,
    options: Vec<(String, String)>,
    ranks: crate::play::selfplay::Ranks,
    side: &str,
) -> Result<crate::play::selfplay::Contestant> {
    match &mut contestant {
        crate::play::selfplay::Contestant::Uci(engine) => {
            engine.options = options;
            engine.ranks = ranks;
        }
        builtin => {
            if !options.is_empty() || ranks != crate::play::selfplay::Ranks::Auto {
                anyhow::bail!(
                    "--{side}-option and --{side}-ranks are for uci: engines, not `{builtin}`"
                );
            }
        }
    }
    Ok(contestant)
}

/// How often a match rewrites its game records while it plays.
const REWRITE_EVERY: Duration = Duration::from_secs(5);

#[allow(clippy::too_many_arguments)]
fn match_cmd(
    mut a: crate::play::selfplay::Contestant,
    mut b: crate::play::selfplay::Contestant,
    pairs: usize,
    budget: crate::play::selfplay::Budget,
    starts: crate::play::selfplay::Starts,
    seed: u64,
    games_file: Option<&Path>,
    pgn_file: Option<&Path>,
) -> Result<i32> {
    use crate::play::selfplay::{Contestant, Ranks};
    for f in [games_file, pgn_file].into_iter().flatten() {
        batch::check_output(f, &[] as &[&Path])?;
    }
    for contestant in [&mut a, &mut b] {
        let name = contestant.to_string();
        crate::play::selfplay::prepare_contestant(contestant)
            .map_err(|e| anyhow::anyhow!("engine {name}: {e}"))?;
    }
    for (side, contestant) in [("A", &a), ("B", &b)] {
        if let Contestant::Uci(engine) = contestant {
            if engine.ranks == Ranks::FromOne {
                eprintln!("engine {side} numbers ranks 1..10: its moves are translated both ways");
            }
        }
    }
    let bar = batch::progress_bar(2 * pairs as u64, "games", false);
    let mut lines = String::new();
    let mut pgn = String::new();
    let mut played = 0;
    let mut times = [batch::AnswerTimes::default(); 2];
    let (a_name, b_name) = (a.to_string(), b.to_string());
    // The records are rewritten (atomically) after a game when a few seconds have passed since
    // the last write, and at the end: a long match stopped midway keeps nearly all the games it
    // finished, and a fast one does not rewrite its files thousands of times.
    let write = |lines: &str, pgn: &str| -> Result<()> {
        for (file, text) in [(games_file, lines), (pgn_file, pgn)] {
            if let Some(f) = file {
                batch::write_atomic(f, text.as_bytes())?;
            }
        }
        Ok(())
    };
    let mut last_write = std::time::Instant::now();
    let mut write_error = None;
    let tally =
        crate::play::selfplay::run_match(&a, &b, pairs, budget, seed, &starts, |g, a_is_red| {
            bar.inc(1);
            played += 1;
            // The loser of a forfeit or of a loss on time is named on stderr.
            let a_lost = (g.result == crate::play::selfplay::Result::BlackWins) == a_is_red;
            let side = if a_lost { "A" } else { "B" };
            if g.forfeit {
                let colour = if a_lost == a_is_red { "red" } else { "black" };
                let why = g.reason.split_once("forfeits: ").map_or("", |(_, why)| why);
                bar.suspend(|| eprintln!("game {played}: {side} ({colour}) forfeits: {why}"));
            }
            if g.reason == crate::play::selfplay::LOST_ON_TIME {
                bar.suspend(|| eprintln!("game {played}: {side} {}", g.reason));
            }
            // Red's times are index 0: A's are red's when A is red.
            let (a_times, b_times) = if a_is_red {
                (g.times[0], g.times[1])
            } else {
                (g.times[1], g.times[0])
            };
            times[0].merge(&a_times);
            times[1].merge(&b_times);
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            let record = serde_json::json!({
                "a_is_red": a_is_red,
                "result": g.result,
                "reason": g.reason,
                "start": g.start,
                "plies": g.moves.len(),
                "moves": g.moves.join(" "),
                "a_think_ms": ms(a_times.total),
                "a_slowest_ms": ms(a_times.slowest),
                "b_think_ms": ms(b_times.total),
                "b_slowest_ms": ms(b_times.slowest),
            });
            lines.push_str(&record.to_string());
            lines.push('\n');
            let (red, black) = if a_is_red {
                (&a_name, &b_name)
            } else {
                (&b_name, &a_name)
            };
            pgn.push_str(&crate::play::selfplay::pgn(g, played, red, black, budget));
            if write_error.is_none() && last_write.elapsed() >= REWRITE_EVERY {
                write_error = write(&lines, &pgn).err();
                last_write = std::time::Instant::now();
            }
        });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    write(&lines, &pgn)?;
    let score = tally.score;
    println!(
        "{a} against {b}, {} games at {}: {}",
        score.games(),
        budget.time_control(),
        score.summary()
    );
    let by_perpetual = tally.a_won_by_perpetual() + tally.a_lost_by_perpetual();
    if by_perpetual > 0 {
        println!(
            "with the {by_perpetual} game{} decided by perpetual check (A won {}, lost {}) counted as draws: {}",
            if by_perpetual == 1 { "" } else { "s" },
            tally.a_won_by_perpetual(),
            tally.a_lost_by_perpetual(),
            tally.perpetual_as_draws.summary()
        );
    }
    let late = match budget {
        crate::play::selfplay::Budget::Time(t) => format!(
            " (late: after {} ms)",
            (t + crate::play::selfplay::LATE_AFTER).as_millis()
        ),
        crate::play::selfplay::Budget::Nodes(_) | crate::play::selfplay::Budget::Clock { .. } => {
            String::new()
        }
    };
    println!("A thought {}{late}", times[0].summary());
    println!("B thought {}{late}", times[1].summary());
    Ok(0)
}

/// `--opening-plies`: `N` or `A-B`, 0 to 40.
fn plies_arg(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let bad = || format!("`{text}` is not a number of plies (0 to 40) or a range like 8-12");
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a > b || b > 40 {
        return Err(bad());
    }
    Ok(a..=b)
}

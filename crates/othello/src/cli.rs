//! The command line: the batch job `run`, `generate`, `perft`, the course's checks and
//! deciders, `match`, `nboard`, `play`, `timing-table`, `eval`, `solve` and `train`.

use crate::endgame::solve_parallel;
use crate::perft::perft;
use crate::position::Position;
use anyhow::{anyhow, Result};
use clap::Parser;
use std::time::Instant;

/// Othello: perft and exact endgame solving.
#[derive(Debug, Parser)]
#[command(name = "othello", version, about)]
enum Command {
    /// The batch job: solve every `.obf` file of a folder (or one file) exactly into a scored
    /// OBF file, and run every `.timing` job (the assignment's minimax against alpha-beta
    /// table, in leaves per move); writes `output_<name>.obf` / `output_<name>.md`.
    Run {
        /// An `.obf` or `.timing` file, or a folder of them.
        input: std::path::PathBuf,
        #[command(flatten)]
        common: batch::CommonArgs,
    },
    /// Endgame positions from the project's own seeded games, as OBF lines (for `solve` and
    /// `run`): `count` positions for each number of empties.
    Generate {
        /// Empty squares of the positions, comma-separated (1 to 40).
        #[arg(long, value_delimiter = ',', required = true,
              value_parser = clap::value_parser!(u32).range(1..=40))]
        empties: Vec<u32>,
        /// Positions per number of empties.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        count: u64,
        /// Seed of the games.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
    },
    /// Count the leaves of the game tree (passes are plies; a finished game is one leaf).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start position (OBF board and side); default: the standard start.
        #[arg(allow_hyphen_values = true)]
        position: Option<String>,
        /// Moves to play first, like f5d6c3.
        #[arg(long)]
        moves: Option<String>,
    },
    /// Check a table of the course heuristic along a game (`ply_move`, board, side, status, the
    /// four terms, heuristic, action order), replaying the moves from the start.
    Vectors {
        /// The TSV file.
        file: std::path::PathBuf,
    },
    /// Check a table of minimax / alpha-beta values and leaf counts under the course heuristic
    /// and move order (`position`, depth, values, leaf counts).
    Nodecounts {
        /// The TSV file.
        file: std::path::PathBuf,
    },
    /// A fixed-depth course search: value (black's side), best move, leaves evaluated.
    Search {
        /// Depth in plies (the root move is ply 1).
        depth: u32,
        /// Moves from the start, like f5f6e6.
        #[arg(long, default_value = "")]
        moves: String,
        /// Minimax, alpha-beta or MTD(f).
        #[arg(long, value_enum, default_value_t = crate::deciders::Algorithm::Alphabeta)]
        algo: crate::deciders::Algorithm,
        /// Write the search tree as Graphviz DOT (and SVG when `dot` is installed) into DIR.
        #[arg(long, value_name = "DIR")]
        trace: Option<std::path::PathBuf>,
        /// Move order of the searches: the course framework's, or fewest replies first.
        #[arg(long, value_enum, default_value_t = crate::deciders::MoveOrder::Course)]
        order: crate::deciders::MoveOrder,
    },
    /// A match between two deciders (minimax:D, alphabeta:D, mtdf:D, id:MS, mcts:MS, random)
    /// or external engines speaking NBoard (nboard:COMMAND), each decider with a heuristic:
    /// pairs of games from seeded random openings, colours swapped, in parallel.
    Match {
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
        clock: Option<crate::ggf::Clock>,
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
        #[arg(long, value_enum, default_value_t = crate::deciders::HeuristicKind::Course)]
        heuristic_a: crate::deciders::HeuristicKind,
        /// B's heuristic.
        #[arg(long, value_enum, default_value_t = crate::deciders::HeuristicKind::Course)]
        heuristic_b: crate::deciders::HeuristicKind,
        /// Seed of the openings and tie-breaks.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
        /// Threads (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Move order of the searches: the course framework's, or fewest replies first.
        #[arg(long, value_enum, default_value_t = crate::deciders::MoveOrder::Course)]
        order: crate::deciders::MoveOrder,
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
    },
    /// Be an engine for an Othello GUI or another program: speaks the NBoard protocol on
    /// stdin/stdout (nboard 2, set depth, set game GGF, move, go, hint, ping, learn).
    Nboard {
        /// Multi-ProbCut's confidence in standard deviations of the shallow search's fitted
        /// error: smaller prunes more; 0 searches full width.
        #[arg(long, default_value_t = f64::from(crate::nboard::DEFAULT_PROBCUT_CONFIDENCE) / 100.0,
              value_parser = probcut_arg)]
        probcut: f64,
    },
    /// Play against a decider in the terminal (moves typed like d3).
    Play {
        /// The computer's decider: minimax:D, alphabeta:D, mtdf:D, id:MS, mcts:MS or random.
        #[arg(default_value = "alphabeta:4")]
        decider: String,
        /// Play white (the computer opens).
        #[arg(long)]
        white: bool,
        /// The computer's heuristic.
        #[arg(long, value_enum, default_value_t = crate::deciders::HeuristicKind::Pattern)]
        heuristic: crate::deciders::HeuristicKind,
        /// Move order of the searches: the course framework's, or fewest replies first.
        #[arg(long, value_enum, default_value_t = crate::deciders::MoveOrder::Course)]
        order: crate::deciders::MoveOrder,
        /// Seed of the computer's tie-breaks.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
        /// Write the search tree of each computer turn (fixed-depth deciders) as Graphviz DOT,
        /// and SVG when small enough or `dot` is installed, into DIR (turnN.dot).
        #[arg(long, value_name = "DIR")]
        trace: Option<std::path::PathBuf>,
    },
    /// The assignment's timing table (ms per move, minimax vs alpha-beta) as Markdown.
    TimingTable {
        /// Depths, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = vec![2, 3, 4, 5, 6])]
        depths: Vec<u32>,
        /// Self-play games per cell.
        #[arg(long, default_value_t = 2)]
        games: usize,
        /// Stop measuring a cell after this many seconds.
        #[arg(long, default_value_t = 20.0)]
        cap: f64,
        /// Move order of the searches: the course framework's, or fewest replies first.
        #[arg(long, value_enum, default_value_t = crate::deciders::MoveOrder::Course)]
        order: crate::deciders::MoveOrder,
        /// Seed of the tie-breaks.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
    },
    /// The course heuristic's terms and action order after some moves from the start.
    Eval {
        /// Moves like f5f6e6.
        #[arg(default_value = "")]
        moves: String,
    },
    /// Exact endgame value and best move for a position, or every line of an OBF file (with
    /// --check, compared with the file's best score).
    Solve {
        /// An OBF line in quotes, or an OBF file.
        #[arg(allow_hyphen_values = true)]
        input: String,
        /// Compare each line's score with the best score listed in it.
        #[arg(long)]
        check: bool,
        /// Transposition table size in MiB (default: sized to the largest position, 8 MiB
        /// at 20 empties, four times more per two more empties, from 2 up to 128 MiB), per
        /// job (1 to 65536).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65_536))]
        hash_mb: Option<u64>,
        /// Lines of a file solved at once, each by its own thread with its own table (results
        /// still print in file order). One by default, so that each line's time is its own.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Threads solving each line, sharing one table of --hash-mb (the nodes of the
        /// leftmost line share out their moves): the time printed is then wall time.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Train the pattern evaluation: play seeded games, label them with the exact solver,
    /// fit the weights of every stage and write them (the checked-in data/patterns.bin is
    /// this command's output with its defaults). Prints the error on held-back games.
    Train {
        /// Where to write the weights.
        #[arg(long, default_value = "patterns.bin")]
        out: std::path::PathBuf,
        /// Games to play in each round.
        #[arg(long, default_value_t = 40_000, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Seed of every random choice.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Positions with at most this many empties are solved exactly (8 to 22).
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(8..=22))]
        solve_empties: u32,
        /// Rounds: the first plays with the improved evaluation, each later one with the
        /// previous round's weights; the last round's weights are written.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10))]
        rounds: u32,
        /// Play the first round on these weights (a file `othello train` wrote) instead of
        /// the improved evaluation.
        #[arg(long, value_name = "WEIGHTS")]
        from: Option<std::path::PathBuf>,
        /// Rounds played on weights use the NBoard engine's midgame search to this depth
        /// (with Multi-ProbCut, and the solver's moves once solved); 0: depth-3 alpha-beta.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=12))]
        search_depth: u32,
        /// With --search-depth, label each position not yet solved with this share of its
        /// search's value and the rest of the game's exact value (0 to 1; 0: the game's alone).
        #[arg(long, default_value_t = 0.0, value_parser = batch::fraction_arg)]
        search_label: f64,
        /// Fit each round's weights on the labelled positions of its last K rounds together
        /// (more positions for the same weights), not on its own alone.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10))]
        fit_rounds: u32,
        /// Fit each round as a change to the weights its games were played on (--from's, then
        /// the previous round's): the ridge pulls toward them instead of toward zero, so what
        /// the round's games see rarely keeps its earlier value.
        #[arg(long)]
        refine: bool,
        /// Keep each round's labelled positions in DIR/roundK.samples (and the settings that
        /// made them in DIR/roundK.settings; other settings are refused): read them from there
        /// when the file exists (instead of playing), write them there otherwise.
        #[arg(long, value_name = "DIR")]
        samples: Option<std::path::PathBuf>,
        /// Conjugate-gradient iterations per stage.
        #[arg(long, default_value_t = crate::train::Fit::default().iterations)]
        iterations: u32,
        /// Ridge penalty on the squared weights (0 or more).
        #[arg(long, default_value_t = crate::train::Fit::default().ridge, value_parser = ridge_arg)]
        ridge: f64,
        /// Threads playing games (the games do not depend on it; default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print the error table as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Fit Multi-ProbCut's error model of the NBoard engine's midgame search: on positions of
    /// the engine's own seeded games, deep minus shallow values for every depth from 2 on,
    /// their mean and deviation fitted as linear functions of empties, depth and shallow
    /// depth (the checked-in data/probcut.txt is this command's output with its defaults).
    /// Prints the measured table per stage and depth pair.
    FitProbcut {
        /// Where to write the model.
        #[arg(long, default_value = "probcut.txt")]
        out: std::path::PathBuf,
        /// Positions to measure.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        positions: u64,
        /// Seed of the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Deepest search measured (3 to 14).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(i32).range(3..=14))]
        max_depth: i32,
        /// Threads (the model does not depend on it; default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
}

/// A Multi-ProbCut confidence: 0 to 10 standard deviations.
fn probcut_arg(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| (0.0..=10.0).contains(t))
        .ok_or_else(|| format!("`{s}`: a number of standard deviations from 0 to 10"))
}

/// `othello fit-probcut`: measure, fit, write, and print the measured table.
fn fit_probcut(
    out: &std::path::Path,
    positions: usize,
    seed: u64,
    max_depth: i32,
    jobs: usize,
) -> Result<i32> {
    use crate::probcut_fit::{calibration_positions, fit, measure, tabulate};
    batch::check_writable(out)?;
    let t = Instant::now();
    let ps = calibration_positions(positions, seed);
    let samples = measure(&ps, max_depth, jobs);
    let model = fit(&samples);
    let table = tabulate(&samples);
    let made_by = format!(
        "othello fit-probcut --positions {positions} --seed {seed} --max-depth {max_depth}"
    );
    batch::write_atomic(out, model.to_text(&made_by, &table).as_bytes())?;
    println!("empties depth shallow positions mean sigma (hundredths of a disc)");
    for m in &table {
        println!("{m}");
    }
    eprintln!(
        "{} positions, {} samples, {:.1} s; model written to {}",
        ps.len(),
        samples.len(),
        t.elapsed().as_secs_f64(),
        out.display()
    );
    Ok(0)
}

/// `othello train`: rounds of games (played, or read back from `samples_dir`) and fits, the
/// last round's weights written to `out`, its error table printed.
fn train(
    out: &std::path::Path,
    opts: &crate::train::Generate,
    rounds: u32,
    (from, search_depth, fit_rounds, refine): (Option<&std::path::Path>, u32, u32, bool),
    samples_dir: Option<&std::path::Path>,
    fit_opts: &crate::train::Fit,
    json: bool,
) -> Result<i32> {
    use crate::train::{fit_from, generate, samples_from_bytes, samples_to_bytes, Player};
    batch::check_writable(out)?;
    // The starting weights, and for the samples' settings their hash (not their path).
    let (mut weights, from_hash) = match from {
        Some(f) => {
            let bytes = std::fs::read(f).map_err(|e| anyhow!("{}: {e}", f.display()))?;
            let w = crate::pattern::Weights::from_bytes(&bytes)
                .map_err(|e| anyhow!("{}: {}", f.display(), e.0))?;
            let mut h = search_core::hash::FastHasher::default();
            std::hash::Hasher::write(&mut h, &bytes);
            (Some(w), Some(std::hash::Hasher::finish(&h)))
        }
        None => (None, None),
    };
    let mut report = Vec::new();
    // The labelled positions of the rounds a fit still uses.
    let mut recent: std::collections::VecDeque<Vec<crate::train::Sample>> =
        std::collections::VecDeque::new();
    for round in 1..=rounds {
        let t = Instant::now();
        let cache = samples_dir.map(|d| d.join(format!("round{round}.samples")));
        // What the round's games depend on, kept beside its samples: the games, the seed, the
        // exact-solve depth, and after round 1 the fit that made the players' weights.
        let mut made_with = format!(
            "games {} seed {} solve-empties {}",
            opts.games, opts.seed, opts.solve_empties
        );
        if let Some(h) = from_hash {
            made_with += &format!(" from-weights {h:016x}");
        }
        if search_depth > 0 {
            made_with += &format!(" search-depth {search_depth}");
            if opts.search_label > 0.0 {
                made_with += &format!(" search-label {}", opts.search_label);
            }
        }
        if round > 1 {
            made_with += &format!(
                " iterations {} ridge {}",
                fit_opts.iterations, fit_opts.ridge
            );
            // The players' weights were fitted on this many rounds.
            let fitted_on = fit_rounds.min(round - 1);
            if fitted_on > 1 {
                made_with += &format!(" fit-rounds {fitted_on}");
            }
            if refine {
                made_with += " refine";
            }
        }
        let settings_file = |f: &std::path::Path| f.with_extension("settings");
        let samples = match &cache {
            Some(f) if f.exists() => {
                let recorded = std::fs::read_to_string(settings_file(f)).unwrap_or_default();
                let recorded = match recorded.trim() {
                    "" => "settings not recorded",
                    r => r,
                };
                if recorded != made_with {
                    return Err(anyhow!(
                        "{} was made with `{recorded}`, not `{made_with}`: use another \
                         --samples directory, or remove the file to play the games again",
                        f.display(),
                    ));
                }
                let bytes = std::fs::read(f).map_err(|e| anyhow!("{}: {e}", f.display()))?;
                samples_from_bytes(&bytes).map_err(|e| anyhow!("{}: {e}", f.display()))?
            }
            _ => {
                let evaluator = weights.as_ref().map(crate::pattern::Evaluator::new);
                let player = match (evaluator.as_ref(), search_depth) {
                    (None, _) => Player::Improved,
                    (Some(e), 0) => Player::Weights(e),
                    (Some(e), depth) => Player::Search { weights: e, depth },
                };
                let round_opts = crate::train::Generate {
                    seed: opts.seed ^ u64::from(round - 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    ..*opts
                };
                let bar = batch::progress_bar(u64::from(opts.games), "games", false);
                let samples = generate(&round_opts, player, &|| bar.inc(1));
                bar.finish_and_clear();
                if let Some(f) = &cache {
                    batch::write_atomic(f, &samples_to_bytes(&samples))?;
                    batch::write_atomic(&settings_file(f), format!("{made_with}\n").as_bytes())?;
                }
                samples
            }
        };
        eprintln!(
            "round {round}: {} labelled positions in {:.1} s",
            samples.len(),
            t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        let bar = batch::progress_bar(crate::pattern::STAGES as u64, "stages", false);
        recent.push_back(samples);
        if recent.len() > fit_rounds as usize {
            recent.pop_front();
        }
        let together: Vec<crate::train::Sample>;
        let fitted_on = if recent.len() == 1 {
            &recent[0]
        } else {
            together = recent.iter().flatten().copied().collect();
            &together
        };
        let prior = weights.as_ref().filter(|_| refine);
        let (w, r) = fit_from(fitted_on, fit_opts, prior, &|| bar.inc(1));
        bar.finish_and_clear();
        eprintln!(
            "round {round}: fitted in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        weights = Some(w);
        report = r;
    }
    let weights = weights.expect("at least one round");
    batch::write_atomic(out, &weights.to_bytes())?;
    eprintln!("wrote {}", out.display());
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "| empties | training positions | held back | RMSE (discs) | MAE | RMS of labels |"
        );
        println!("|---|---|---|---|---|---|");
        for r in &report {
            println!(
                "| {}-{} | {} | {} | {:.2} | {:.2} | {:.2} |",
                r.empties.0, r.empties.1, r.train, r.held_back, r.rmse, r.mae, r.rms_label
            );
        }
    }
    Ok(0)
}

/// A match side as the report names it: the spec, with the heuristic of a decider.
fn describe(spec: &str, c: &crate::matchplay::Contestant) -> String {
    match c {
        crate::matchplay::Contestant::Builtin(p) => format!("{spec} ({:?})", p.heuristic),
        crate::matchplay::Contestant::Nboard(_) => spec.to_string(),
    }
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(|| dispatch(Command::parse()))
}

fn dispatch(cli: Command) -> Result<i32> {
    match cli {
        Command::Run { input, common } => run(&input, &common),
        Command::Train {
            out,
            games,
            seed,
            solve_empties,
            rounds,
            from,
            search_depth,
            search_label,
            fit_rounds,
            refine,
            samples,
            iterations,
            ridge,
            jobs,
            json,
        } => train(
            &out,
            &crate::train::Generate {
                games,
                seed,
                solve_empties,
                threads: jobs.unwrap_or_else(batch::cores),
                search_label,
            },
            rounds,
            (from.as_deref(), search_depth, fit_rounds, refine),
            samples.as_deref(),
            &crate::train::Fit { iterations, ridge },
            json,
        ),
        Command::FitProbcut {
            out,
            positions,
            seed,
            max_depth,
            jobs,
        } => fit_probcut(
            &out,
            positions as usize,
            seed,
            max_depth,
            jobs.unwrap_or_else(batch::cores),
        ),
        Command::Generate {
            empties,
            count,
            seed,
        } => {
            for line in crate::run::generate_positions(&empties, count as usize, seed) {
                println!("{line}");
            }
            Ok(0)
        }
        Command::Perft {
            depth,
            position,
            moves,
        } => {
            let mut p = match position {
                Some(s) => s.parse::<Position>().map_err(|e| anyhow!(e))?,
                None => Position::default(),
            };
            if let Some(m) = moves {
                p = p.play_sequence(&m).map_err(|e| anyhow!(e))?;
            }
            let t = Instant::now();
            let n = perft(&p, depth);
            let secs = t.elapsed().as_secs_f64();
            println!("perft {depth}: {n}");
            eprintln!(
                "{secs:.3} s, {:.1} M leaves/s",
                n as f64 / secs.max(1e-9) / 1e6
            );
            Ok(0)
        }
        Command::Vectors { file } => {
            let text = batch::read_text(&file)?;
            let (mut ok, mut bad) = (0, 0);
            let mut p = Position::default();
            for (i, line) in text.lines().enumerate().skip(1) {
                let cols: Vec<&str> = line.split('\t').collect();
                if cols.len() < 10 {
                    continue;
                }
                let mv = cols[0].split(':').nth(1).unwrap_or("");
                if mv != "start" {
                    let m: crate::Move = mv
                        .parse()
                        .map_err(|e| anyhow!("{}:{}: {e}", file.display(), i + 1))?;
                    if !p.is_legal(m) {
                        return Err(anyhow!(
                            "{}:{}: {mv} is illegal here",
                            file.display(),
                            i + 1
                        ));
                    }
                    p = p.play(m);
                }
                let got = row(&p);
                let want = cols[1..10].join("\t");
                if got == want {
                    ok += 1;
                } else {
                    bad += 1;
                    println!(
                        "{}:{}: expected {want}\n    got {got}",
                        file.display(),
                        i + 1
                    );
                }
            }
            println!("{ok} passed, {bad} failed");
            if ok + bad == 0 {
                return Err(anyhow!("{}: no rows to check", file.display()));
            }
            Ok(i32::from(bad > 0))
        }
        Command::Nodecounts { file } => {
            use crate::deciders::{search, Algorithm, MoveOrder};
            let text = batch::read_text(&file)?;
            let (mut ok, mut bad) = (0, 0);
            for (i, line) in text.lines().enumerate().skip(1) {
                let c: Vec<&str> = line.split('\t').collect();
                if c.len() < 6 {
                    continue;
                }
                let moves = c[0].split_once(':').map_or("", |m| m.1);
                let p = Position::default()
                    .play_sequence(moves)
                    .map_err(|e| anyhow!("{}:{}: {e}", file.display(), i + 1))?;
                let depth: u32 = c[1]
                    .parse()
                    .map_err(|_| anyhow!("{}:{}: bad depth", file.display(), i + 1))?;
                let (mv, mr) = search(&p, depth, Algorithm::Minimax, MoveOrder::Course);
                let (av, ar) = search(&p, depth, Algorithm::Alphabeta, MoveOrder::Course);
                let got = format!("{mv}.0\t{}\t{av}.0\t{}", mr.stats.leaves, ar.stats.leaves);
                let want = c[2..6].join("\t");
                if got == want {
                    ok += 1;
                } else {
                    bad += 1;
                    println!("{}:{}: expected {want}, got {got}", file.display(), i + 1);
                }
            }
            println!("{ok} passed, {bad} failed");
            if ok + bad == 0 {
                return Err(anyhow!("{}: no rows to check", file.display()));
            }
            Ok(i32::from(bad > 0))
        }
        Command::Search {
            depth,
            moves,
            algo,
            trace,
            order,
        } => {
            let p = Position::default()
                .play_sequence(&moves)
                .map_err(|e| anyhow!(e))?;
            if let Some(dir) = trace {
                let traced = crate::trace::trace_search(
                    &p,
                    depth,
                    algo,
                    order,
                    crate::deciders::HeuristicKind::Course,
                );
                eprintln!("{}", crate::trace::write_trace(&dir, &p, &traced)?);
            }
            let t = Instant::now();
            let (value, r) = crate::deciders::search(&p, depth, algo, order);
            println!(
                "value {value} (black's side), best {}, {} leaves, {} nodes, {:.1} ms",
                r.best.map_or("-".into(), |m| m.to_string()),
                r.stats.leaves,
                r.stats.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
            Ok(0)
        }
        Command::Match {
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
        } => {
            use crate::matchplay::{run, Contestant, MatchOptions};
            if let Some(path) = &ggf {
                batch::check_writable(path)?;
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
                        "{side} thought {:.1} s over {} moves ({:.2} s a move), the slowest {:.2} s at {} empties",
                        t.total_seconds,
                        t.moves,
                        t.total_seconds / t.moves.max(1) as f64,
                        t.slowest_seconds,
                        t.slowest_empties
                    );
                }
            }
            Ok(0)
        }
        Command::Nboard { probcut } => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            let confidence = (probcut > 0.0).then(|| (probcut * 100.0).round() as i32);
            crate::nboard::serve_with(confidence, stdin, std::io::stdout(), std::io::stderr())?;
            Ok(0)
        }
        Command::Play {
            decider,
            white,
            heuristic,
            order,
            seed,
            trace,
        } => {
            let computer = crate::play::Computer {
                decider: decider.parse().map_err(|e: String| anyhow!(e))?,
                heuristic,
                order,
                seed,
                trace,
            };
            crate::play::human_game(
                &computer,
                !white,
                std::io::stdin().lock(),
                std::io::stdout().lock(),
            )?;
            Ok(0)
        }
        Command::TimingTable {
            depths,
            games,
            cap,
            order,
            seed,
        } => {
            print!(
                "{}",
                crate::play::timing_table(
                    &depths,
                    order,
                    games,
                    seed,
                    std::time::Duration::from_secs_f64(cap)
                )
            );
            Ok(0)
        }
        Command::Eval { moves } => {
            let p = Position::default()
                .play_sequence(&moves)
                .map_err(|e| anyhow!(e))?;
            println!("board\tside\tstatus\tpiece\tmove\tcorner\tstability\theuristic\tactions");
            println!("{}", row(&p));
            Ok(0)
        }
        Command::Solve {
            input,
            check,
            hash_mb,
            jobs,
            threads,
        } => {
            // A line that does not parse is reported and counted; the others are still solved.
            let positions: Vec<(String, String, Result<Position, String>)> =
                if std::path::Path::new(&input).is_file() {
                    batch::read_text(std::path::Path::new(&input))?
                        .lines()
                        .enumerate()
                        .filter(|(_, l)| !crate::run::is_blank_or_comment(l))
                        .map(|(i, l)| (format!("{input}:{}", i + 1), l.to_string(), l.parse()))
                        .collect()
                } else {
                    let p = input.parse().map_err(|e| {
                        anyhow!("`{input}` is neither a file nor a position in OBF form: {e}")
                    })?;
                    vec![("argument".into(), input.clone(), Ok(p))]
                };
            let most_empties = positions
                .iter()
                .filter_map(|(_, _, p)| p.as_ref().ok().map(Position::empties))
                .max();
            let hash_mb = hash_mb.map_or_else(
                || crate::endgame::table_megabytes(most_empties.unwrap_or(0)),
                |mb| mb as usize,
            );
            let jobs = jobs.clamp(1, positions.len().max(1));
            // Every job's table is allocated here, so that memory that cannot be had is a
            // message before any work, not an abort in the middle of it.
            let mut searchers = (0..jobs)
                .map(|_| crate::endgame::searchers(threads as usize, hash_mb))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| {
                    anyhow!("--hash-mb {hash_mb} with {jobs} job(s) of {threads} thread(s): {e}")
                })?;
            let (mut ok, mut bad) = (0, 0);
            let mut report = |r: SolveLine| match r {
                SolveLine::Solved { text, verdict } => {
                    match verdict {
                        Some(true) => ok += 1,
                        Some(false) => bad += 1,
                        None => {}
                    }
                    println!("{text}");
                }
                SolveLine::Unreadable(message) => {
                    bad += 1;
                    eprintln!("error: {message}");
                }
            };
            // Each worker takes the next unsolved line and has its own table; results are
            // printed in input order as soon as all earlier lines are done.
            let next = std::sync::atomic::AtomicUsize::new(0);
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::scope(|scope| {
                for mut searcher in searchers.drain(..) {
                    let (tx, next, positions) = (tx.clone(), &next, &positions);
                    scope.spawn(move || loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((where_, line, p)) = positions.get(i) else {
                            break;
                        };
                        let r = solve_line(where_, line, p, check, &mut searcher, jobs == 1);
                        if tx.send((i, r)).is_err() {
                            break;
                        }
                    });
                }
                drop(tx);
                let mut done: Vec<Option<SolveLine>> = (0..positions.len()).map(|_| None).collect();
                let mut printed = 0;
                for (i, r) in rx {
                    done[i] = Some(r);
                    while let Some(r) = done.get_mut(printed).and_then(Option::take) {
                        report(r);
                        printed += 1;
                    }
                }
            });
            if check {
                println!("{ok} passed, {bad} failed");
                if ok + bad == 0 {
                    return Err(anyhow!("{input}: no position to check"));
                }
            }
            Ok(i32::from(bad > 0))
        }
    }
}

/// `othello run`: every job file under `input`, one output file each, and the summary line.
fn run(input: &std::path::Path, common: &batch::CommonArgs) -> Result<i32> {
    use crate::run::{is_job_file, output_file_name, run_job};
    let out_dir = common.output_dir(input);
    let report = batch::run_batch(input, is_job_file, common.quiet, |path| {
        let output = run_job(path, &batch::read_text(path)?)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let out = out_dir.join(output_file_name(&name));
        batch::write_atomic(&out, output.text.as_bytes())?;
        if !common.quiet && !common.json {
            println!("{name} -> {}: {}", out.display(), output.summary);
        }
        Ok(output)
    })?;
    report.finish(common)
}

/// The outcome of one line of `solve`.
enum SolveLine {
    /// The report line, and with `--check` whether the score matched the listed one.
    Solved { text: String, verdict: Option<bool> },
    /// The line is not a position: the message names the file and line.
    Unreadable(String),
}

/// Solves one OBF line (already parsed into `p`) and words the report; with several threads
/// and `alone` (no other line solved at the same time) the process's CPU time over the solve
/// is reported next to the wall time.
fn solve_line(
    where_: &str,
    line: &str,
    p: &Result<Position, String>,
    check: bool,
    searchers: &mut [crate::endgame::EndgameSearcher],
    alone: bool,
) -> SolveLine {
    let p = match p {
        Ok(p) => p,
        Err(e) => return SolveLine::Unreadable(format!("{where_}: {e}")),
    };
    let t = Instant::now();
    let cpu_before = batch::process_cpu_time();
    let s = solve_parallel(p, searchers).expect("no deadline, node limit or stop signal is set");
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (cpu_before, batch::process_cpu_time()) {
        (Some(a), Some(b)) if alone && searchers.len() > 1 => {
            format!(" wall, {:.3} s CPU", (b - a).as_secs_f64())
        }
        _ => String::new(),
    };
    let best = s.best.map_or("-".into(), |m| m.to_string().to_uppercase());
    let listed = line
        .split(';')
        .nth(1)
        .and_then(|f| f.split(':').nth(1))
        .and_then(|v| v.trim().parse::<i32>().ok());
    let (verdict, note) = match (check, listed) {
        (true, Some(l)) if l == s.score => (Some(true), " ok".to_string()),
        (true, Some(l)) => (Some(false), format!(" FAIL (listed {l:+})")),
        (true, None) => (
            Some(false),
            " FAIL (no score listed to check against)".to_string(),
        ),
        _ => (None, String::new()),
    };
    SolveLine::Solved {
        text: format!(
            "{where_}: {} empties, best {best} score {:+}{note} ({secs:.3} s{cpu}, {} nodes, {:.1} M nodes/s)",
            p.empties(),
            s.score,
            s.nodes,
            s.nodes as f64 / secs.max(1e-9) / 1e6
        ),
        verdict,
    }
}

/// One row of the course vectors table for `p`.
fn row(p: &Position) -> String {
    let t = crate::course::terms(p);
    let text = p.to_string();
    let (board, side) = text.split_at(64);
    let actions: Vec<String> = crate::course::actions(p)
        .into_iter()
        .map(crate::course::action_text)
        .collect();
    format!(
        "{board}\t{}\t{:?}\t{}\t{}\t{}\t{}\t{}.0\t{}",
        side.trim(),
        t.status,
        t.piece,
        t.mobility,
        t.corner,
        t.stability,
        t.heuristic,
        actions.join(" ")
    )
}

/// `--ridge`: a finite penalty, 0 or more (NaN would write weights of NaN).
fn ridge_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
        _ => Err(format!("`{text}` is not a finite number of 0 or more")),
    }
}

/// Parses a `--clock` time control.
fn clock_arg(s: &str) -> Result<crate::ggf::Clock, String> {
    s.parse()
}

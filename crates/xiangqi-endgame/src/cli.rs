//! The command line: `run` (default), `perft`, `compare`, `uci`.

use crate::course_io::{answer_line, YOrigin};
use crate::engine::{decide, fixed_depth, Decision, Rules, SearchConfig};
use crate::eval::EvalKind;
use crate::fen::{board_text, parse_board_file};
use crate::framework::{self, ScoredMove};
use crate::movegen::legal_moves;
use crate::perft::{divide, perft};
use crate::piece::Color;
use crate::position::Position;
use crate::svg;
use anyhow::{bail, Result};
use batch::{output_name, run_batch, write_atomic, CommonArgs};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Best moves in Chinese-chess endgames with alpha-beta search (USTC Lab 1.2).
#[derive(Debug, Parser)]
#[command(name = "xiangqi-endgame", version, about)]
enum Command {
    /// Choose red's move for a board file or every N.txt of a folder; write output_N.txt and
    /// move/red_N.txt, move/black_N.txt.
    Run(RunArgs),
    /// Count the leaves of the legal-move tree (perft) from a FEN.
    Perft {
        /// Position in FEN (quote it).
        fen: String,
        /// Depth in plies.
        depth: u32,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// The report's table: nodes and time per depth with and without pruning, move chosen.
    Compare {
        /// Board file or folder.
        input: PathBuf,
        /// Depths to compare, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = vec![3, 4])]
        depths: Vec<u32>,
        /// Move rules.
        #[arg(long, value_enum, default_value_t = Rules::Legal)]
        rules: Rules,
        /// Skip unpruned searches larger than this many nodes (estimated from the pruned one).
        #[arg(long, default_value_t = 200_000_000)]
        max_minimax_nodes: u64,
    },
    /// Check answer files against their boards: any move that keeps the best result at the
    /// grading depth (the same mate distance, or the same score) is accepted.
    Check {
        /// A board file or a folder of N.txt.
        input: PathBuf,
        /// An answer file or a folder of output_N.txt.
        output: PathBuf,
        #[command(flatten)]
        grading: GradingArgs,
    },
    /// Grade a class: every student folder of CLASS (answers directly or in `output/`) against
    /// every board of INPUT, as `check` decides. Writes a CSV report (`student,input,verdict,
    /// detail`) and prints each student's score.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade {
        #[command(flatten)]
        class: batch::grade::GradeArgs,
        #[command(flatten)]
        grading: GradingArgs,
    },
    /// Speak UCI on stdin/stdout (for xiangqi GUIs and tools).
    Uci {
        /// Evaluation: the learned piece-square tables corrected by the network by default
        /// (`course` and the others for experiments: `match` against the engine's own).
        #[arg(long, value_enum, default_value_t = EvalKind::Net)]
        eval: EvalKind,
        /// Rules of the selective search to switch off, comma-separated (experiments: what a
        /// rule is worth in games, by `match` against the engine with it).
        #[arg(long, value_enum, value_delimiter = ',')]
        without: Vec<crate::engine::Pruning>,
        /// Ideas of the selective search that are off by default to switch on, comma-separated
        /// (experiments, see docs/xiangqi-endgame.md).
        #[arg(long, value_enum, value_delimiter = ',')]
        with: Vec<crate::engine::Experiment>,
    },
    /// The shortest forced mate for the side to move, with its line, by proof-number search
    /// (each length proven or disproven in turn: "no mate" is a proof). Exit 0 with a mate, 1
    /// without one, 2 when the time ran out.
    Mate {
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
    },
    /// Forced-mate problems from random endgames (seeded), each proven by the mate search: one
    /// `FEN ; mate in K ; line` per line.
    Generate {
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
    },
    /// Engine against engine from seeded random openings, each engine red once per opening,
    /// under the repetition rulings: what a search change is worth in games.
    Match {
        /// Engine A: `selective` (the engine's selective search, `uci`'s), `full-width` (the
        /// full-width search `run` chooses the course's answers with), or `uci:COMMAND` for an
        /// external UCI engine started for each game (another build of this tool with
        /// "uci:./old/xiangqi-endgame uci", or any UCI xiangqi engine).
        #[arg(long, default_value = "selective")]
        a: crate::selfplay::Contestant,
        /// Engine B, as for `--a`.
        #[arg(long, default_value = "full-width")]
        b: crate::selfplay::Contestant,
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
        a_ranks: crate::selfplay::Ranks,
        /// How engine B's moves number the ranks, as for `--a-ranks`.
        #[arg(long, default_value = "auto")]
        b_ranks: crate::selfplay::Ranks,
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
        #[arg(long, value_name = "BASE+INC", conflicts_with_all = ["movetime_ms", "nodes_per_move"], value_parser = crate::selfplay::parse_clock)]
        clock: Option<crate::selfplay::Budget>,
        /// Random plies of every opening.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
        opening_plies: u32,
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
    },
    /// Learn the endgame evaluation's weights (`--eval learned`) from games (`match --games`
    /// records) by Texel's method and write them as `name value` lines; or, with `--tables`,
    /// piece-square tables by phase (`--eval piece-square`) fitted to deeper searches of the
    /// games' positions; or, with `--activity`, the activity terms' weights (`--eval
    /// activity`) on top of the built-in tables, fitted the same way
    Train {
        /// The games (one file or more).
        #[arg(required = true)]
        games: Vec<PathBuf>,
        /// Where to write the weights.
        #[arg(short, long)]
        output: PathBuf,
        /// How the games were made, written into the weights file's header.
        #[arg(long, default_value = "")]
        source: String,
        /// Learn piece-square tables by phase, labelled by deeper searches, instead of the
        /// endgame weights.
        #[arg(long, group = "labelled")]
        tables: bool,
        /// Learn the activity terms' weights on top of the built-in piece-square tables,
        /// labelled by deeper searches with the engine's own evaluation.
        #[arg(long, group = "labelled")]
        activity: bool,
        /// With --tables or --activity: nodes of the search that labels each position.
        #[arg(long, default_value_t = 20_000, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..))]
        label_nodes: u64,
        /// With --tables or --activity: keep every N-th quiet position.
        #[arg(long, default_value_t = 2, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..))]
        every: u64,
        /// With --tables or --activity: threads for the labelling searches (what is learned
        /// does not depend on it; default: all cores).
        #[arg(long, requires = "labelled", value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
    },
    /// Learn the network of `--eval net` from the engine's own games: play them from seeded
    /// random openings at a fixed number of nodes per move, label every quiet position by the
    /// score of the search that moved from it (blended with the game's result), fit the
    /// network on top of the piece-square evaluation and write it quantised (the built-in one
    /// is `crates/xiangqi-endgame/data/net.bin`). The same seed gives the same network.
    TrainNet {
        /// The network file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Self-play games.
        #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Nodes per move of the self-play searches.
        #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Random plies of every opening.
        #[arg(long, default_value_t = 8)]
        opening_plies: usize,
        /// The engine that plays the games (both sides): `piece-square` (the engine before
        /// the network) or `selective` (the engine with the built-in network).
        #[arg(long, value_enum, default_value_t = crate::selfplay::Engine::PieceSquare)]
        play: crate::selfplay::Engine,
        /// Seed of the openings, the initial weights and the order of the samples.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Passes over the data.
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..))]
        epochs: u64,
        /// The game result's share of each label (the search score's is the rest).
        #[arg(long, default_value_t = 0.0, value_parser = share_arg)]
        result_weight: f64,
        /// Threads for the games (the data does not depend on it; default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: Option<u64>,
        /// Read the labelled positions from this file instead of playing the games, or, when
        /// it does not exist yet, write them to it (`FEN;score;result;game` lines).
        #[arg(long, value_name = "FILE")]
        data: Option<PathBuf>,
    },
    /// Run a problem collection through the engine at a time per problem: its move, whether it
    /// reports a forced mate and how soon. FILE holds a FEN per line (`; mate in K` after it
    /// is checked against) or a JSON array of objects with `fen` and `name`
    Problems {
        /// The collection.
        file: PathBuf,
        /// Time per problem in milliseconds.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        movetime_ms: u64,
        /// One JSON object per problem instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// A board file (10 lines of 9 characters), a folder of them, or a FEN with --fen.
    input: String,
    #[command(flatten)]
    common: CommonArgs,
    /// Treat INPUT as a FEN string.
    #[arg(long)]
    fen: bool,
    /// Deepest search iteration in plies.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    /// Time budget per position in seconds (0 for none).
    #[arg(long, default_value_t = 10.0, value_parser = batch::seconds_arg)]
    time: f64,
    /// Move rules for the search and the move lists.
    #[arg(long, value_enum, default_value_t = Rules::Legal)]
    rules: Rules,
    /// Evaluation.
    #[arg(long, value_enum, default_value_t = EvalKind::Course)]
    eval: EvalKind,
    /// Plain minimax to exactly --depth (no pruning, no table), for comparison.
    #[arg(long)]
    no_prune: bool,
    /// Where y = 0 is in the answer: bottom (red's back rank, the course rule) or top.
    #[arg(long, value_enum, default_value_t = YOrigin::Bottom)]
    y_origin: YOrigin,
    /// Folder for the move lists (default: `move/` beside the output folder).
    #[arg(long, value_name = "DIR")]
    moves_dir: Option<PathBuf>,
    /// Print nodes, depth and time per position on stderr.
    #[arg(long)]
    stats: bool,
    /// Write an SVG of the board with the move (a file for one input, a folder for many).
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
}

/// How answers are judged.
#[derive(Debug, clap::Args)]
struct GradingArgs {
    /// Search depth in plies at which the best result is decided (2 to 12; `run`'s default
    /// depth, so that its answers are judged at the depth they were chosen).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(2..=12))]
    depth: u32,
    /// Where y = 0 is in the answers: bottom (red's back rank, the course rule) or top.
    #[arg(long, value_enum, default_value_t = YOrigin::Bottom)]
    y_origin: YOrigin,
}

impl GradingArgs {
    /// The search that decides the best result: the grading depth, no clock.
    fn search_config(&self) -> SearchConfig {
        SearchConfig {
            depth: self.depth,
            time: None,
            ..Default::default()
        }
    }
}

/// Every board under `input` with the answer file name and the values of its moves.
fn graded_boards(
    input: &Path,
    grading: &GradingArgs,
) -> Result<Vec<batch::grade::GradeInput<crate::grade::Board>>> {
    let config = grading.search_config();
    let mut boards = Vec::new();
    for file in batch::collect_inputs(input, batch::is_txt_input)? {
        let pos = parse_board_file(&batch::read_text(&file)?).map_err(|e| e.in_file(&file))?;
        let values = crate::grade::move_values(&pos, &config);
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        boards.push((name.clone(), output_name(&name, "txt"), (pos, values)));
    }
    Ok(boards)
}

/// `xiangqi-endgame check`: one verdict line per answer file; exit 1 if any is not ok.
fn check(input: &Path, output: &Path, grading: &GradingArgs) -> Result<i32> {
    let boards = graded_boards(input, grading)?;
    let single = !input.is_dir();
    let mut bad = 0;
    for (_, answer_name, (pos, values)) in &boards {
        let file = if single {
            output.to_path_buf()
        } else {
            output.join(answer_name)
        };
        let (verdict, detail) = match batch::read_text(&file) {
            Ok(text) => crate::grade::judge(pos, values, &text, grading.y_origin),
            Err(e) => (batch::grade::Verdict::Missing, format!("{e:#}")),
        };
        bad += usize::from(verdict != batch::grade::Verdict::Ok);
        if verdict == batch::grade::Verdict::Ok {
            println!("{}: {detail}", file.display());
        } else {
            println!("{}: {}: {detail}", file.display(), verdict.as_str());
        }
    }
    Ok(i32::from(bad > 0))
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(
        || match batch::parse_with_default_subcommand::<Command>("run") {
            Command::Run(a) => run(&a),
            Command::Perft { fen, depth, divide } => perft_cmd(&fen, depth, divide),
            Command::Compare {
                input,
                depths,
                rules,
                max_minimax_nodes,
            } => compare(&input, &depths, rules, max_minimax_nodes),
            Command::Check {
                input,
                output,
                grading,
            } => check(&input, &output, &grading),
            Command::Grade { class, grading } => class.run(|input, class, report| {
                let files = batch::collect_inputs(input, batch::is_txt_input)?;
                let mut boards = Vec::new();
                for file in &files {
                    let text = batch::read_text(file)?;
                    boards.push(parse_board_file(&text).map_err(|e| e.in_file(file))?);
                }
                let config = grading.search_config();
                let context = format!(
                    "xiangqi-endgame grade --depth {} --y-origin {:?}",
                    grading.depth, grading.y_origin
                );
                batch::grade::grade_class(
                    &context,
                    &files,
                    class,
                    |i| Ok((&boards[i], crate::grade::move_values(&boards[i], &config))),
                    |(pos, values), text| crate::grade::judge(pos, values, text, grading.y_origin),
                    report,
                )
            }),
            Command::Uci {
                eval,
                without,
                with,
            } => {
                let config = without.iter().fold(
                    SearchConfig {
                        eval,
                        ..SearchConfig::engine()
                    },
                    |c, &rule| c.without(rule),
                );
                let config = with.iter().fold(config, |c, &idea| c.with(idea));
                crate::uci::run_with(config, std::io::stdin().lock(), std::io::stdout())
            }
            .map(|_| 0)
            .map_err(Into::into),
            Command::Generate {
                count,
                seed,
                min_plies,
                max_plies,
                nodes_each,
                proof_numbers,
                output,
            } => generate_cmd(
                count as usize,
                seed,
                min_plies..=max_plies,
                nodes_each,
                proof_numbers,
                output.as_deref(),
            ),
            Command::Mate {
                fen,
                plies,
                seconds,
                full_width,
                checks_only,
            } => mate_cmd(&fen, plies, seconds, full_width, checks_only),
            Command::Train {
                games,
                output,
                source,
                tables: false,
                activity: false,
                ..
            } => train_cmd(&games, &output, &source),
            Command::Train {
                games,
                output,
                source,
                tables,
                label_nodes,
                every,
                threads,
                ..
            } => {
                let options = crate::train_tables::TableOptions {
                    label_nodes,
                    every: every as usize,
                    threads: threads.map_or_else(batch::cores, |t| t as usize),
                    quiet: false,
                };
                if tables {
                    train_tables_cmd(&games, &output, &source, &options)
                } else {
                    train_activity_cmd(&games, &output, &source, &options)
                }
            }
            Command::TrainNet {
                output,
                games,
                nodes,
                opening_plies,
                play,
                seed,
                epochs,
                result_weight,
                threads,
                data,
            } => train_net_cmd(
                &output,
                &crate::train_net::NetOptions {
                    games: games as usize,
                    nodes,
                    opening_plies,
                    play,
                    seed,
                    threads: threads.map_or_else(batch::cores, |t| t as usize),
                    epochs: epochs as usize,
                    result_weight,
                    quiet: false,
                },
                data.as_deref(),
            ),
            Command::Problems {
                file,
                movetime_ms,
                json,
            } => problems_cmd(&file, Duration::from_millis(movetime_ms), json),
            Command::Match {
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
                endgames,
                mixed_endgames,
                seed,
                games,
                pgn,
            } => match_cmd(
                with_setup(a, a_option, a_ranks, "a")?,
                with_setup(b, b_option, b_ranks, "b")?,
                pairs as usize,
                match (nodes_per_move, clock) {
                    (Some(n), _) => crate::selfplay::Budget::Nodes(n),
                    (None, Some(clock)) => clock,
                    (None, None) => {
                        crate::selfplay::Budget::Time(Duration::from_millis(movetime_ms))
                    }
                },
                if endgames {
                    crate::selfplay::Starts::Endgames
                } else if mixed_endgames {
                    crate::selfplay::Starts::MixedEndgames
                } else {
                    crate::selfplay::Starts::Openings(opening_plies as usize)
                },
                seed,
                games.as_deref(),
                pgn.as_deref(),
            ),
        },
    )
}

#[derive(serde::Serialize)]
struct RunResult {
    input: String,
    output: Option<PathBuf>,
    fen: String,
    answer: Option<String>,
    uci: Option<String>,
    score: i32,
    mate_in: Option<u32>,
    game_over: Option<String>,
    pv: Vec<String>,
    stats: search_core::GameStats,
}

fn run(a: &RunArgs) -> Result<i32> {
    let config = SearchConfig {
        depth: a.depth,
        time: (a.time > 0.0).then(|| Duration::from_secs_f64(a.time)),
        rules: a.rules,
        eval: a.eval,
        prune: !a.no_prune,
        ..Default::default()
    };
    if a.fen {
        let pos: Position = a.input.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
        let d = decide(&pos, &config, |_| {});
        let r = report(&pos, &d, "fen", None, a);
        if a.common.json {
            println!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            print!("{}", board_text(&pos));
            println!(
                "{}",
                r.answer.as_deref().unwrap_or("no legal move").trim_end()
            );
        }
        if let Some(path) = &a.svg {
            write_atomic(path, svg::render(&pos, d.mv, &caption(&r)).as_bytes())?;
        }
        return Ok(0);
    }
    let input = PathBuf::from(&a.input);
    let out_dir = a.common.output_dir(&input);
    let moves_dir = a.moves_dir.clone().unwrap_or_else(|| {
        out_dir
            .parent()
            .map_or_else(|| PathBuf::from("move"), |p| p.join("move"))
    });
    let single = input.is_file();
    let report_all = run_batch(&input, batch::is_txt_input, a.common.quiet, |path| {
        let pos = parse_board_file(&batch::read_text(path)?).map_err(|e| e.in_file(path))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let stem = name
            .rsplit_once('.')
            .map_or(name.as_str(), |s| s.0)
            .to_string();
        let d = decide(&pos, &config, |_| {});
        let out = out_dir.join(output_name(&name, "txt"));
        let mut r = report(&pos, &d, &name, Some(out.clone()), a);
        match &r.answer {
            Some(line) => write_atomic(&out, line.as_bytes())?,
            None => bail!(
                "{}: red has no legal move (the game is lost)",
                path.display()
            ),
        }
        for color in [Color::Red, Color::Black] {
            let file = moves_dir.join(format!(
                "{}_{stem}.txt",
                if color == Color::Red { "red" } else { "black" }
            ));
            write_atomic(
                &file,
                framework::print_moves(&move_list(&pos, color, a.rules)).as_bytes(),
            )?;
        }
        if let Some(svg_path) = &a.svg {
            let target = if single {
                svg_path.clone()
            } else {
                svg_path.join(output_name(&name, "svg"))
            };
            write_atomic(&target, svg::render(&pos, d.mv, &caption(&r)).as_bytes())?;
        }
        if a.stats {
            eprintln!(
                "{name}: depth {}, {} nodes, {:.1} ms, {:.0} nodes/s, score {}{}",
                d.stats.depth,
                d.stats.nodes,
                d.stats.elapsed.as_secs_f64() * 1e3,
                d.stats.nodes_per_second(),
                d.score,
                d.mate_in
                    .map_or(String::new(), |m| format!(" (mate in {m})"))
            );
        }
        if !a.common.quiet && !a.common.json {
            print!("{name}\n{}", board_text(&pos));
            let note = d
                .mate_in
                .map_or(String::new(), |m| format!("   mate in {m}"));
            let over = d
                .game_over
                .as_ref()
                .map_or(String::new(), |g| format!("   ({g})"));
            println!(
                "-> {}{note}{over}\n",
                r.answer.as_deref().unwrap_or("").trim_end()
            );
        }
        r.input = name;
        Ok(r)
    })?;
    report_all.finish(&a.common)
}

fn caption(r: &RunResult) -> String {
    let mut c = r.answer.clone().unwrap_or_default().trim_end().to_string();
    if let Some(m) = r.mate_in {
        c.push_str(&format!("  — mate in {m}"));
    }
    c
}

fn report(
    pos: &Position,
    d: &Decision,
    input: &str,
    output: Option<PathBuf>,
    a: &RunArgs,
) -> RunResult {
    RunResult {
        input: input.to_string(),
        output,
        fen: pos.to_string(),
        answer: d.mv.map(|m| answer_line(pos, m, a.y_origin)),
        uci: d.mv.map(|m| m.to_string()),
        score: d.score,
        mate_in: d.mate_in,
        game_over: d.game_over.clone(),
        pv: d.pv.iter().map(|m| m.to_string()).collect(),
        stats: d.stats,
    }
}

/// The move list of `color` in framework scan order: all framework moves, or (standard rules)
/// those that are legal.
pub fn move_list(pos: &Position, color: Color, rules: Rules) -> Vec<ScoredMove> {
    let list = framework::moves(pos, color);
    match rules {
        Rules::Framework => list,
        Rules::Legal => {
            let mut p = pos.clone();
            p.set_side(color);
            let mut legal = Vec::new();
            legal_moves(&p, &mut legal);
            list.into_iter().filter(|m| legal.contains(&m.mv)).collect()
        }
    }
}

fn perft_cmd(fen: &str, depth: u32, show_divide: bool) -> Result<i32> {
    let mut pos: Position = fen.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
    let t = Instant::now();
    let total = if show_divide {
        let parts = divide(&mut pos, depth);
        for (m, n) in &parts {
            println!("{m}: {n}");
        }
        parts.iter().map(|p| p.1).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!("perft {depth}: {total}");
    eprintln!(
        "{:.3} s, {:.1} M leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(0)
}

fn compare(input: &Path, depths: &[u32], rules: Rules, max_minimax: u64) -> Result<i32> {
    let files = batch::collect_inputs(input, batch::is_txt_input)?;
    println!("| input | depth | alpha-beta nodes | ms | move | minimax nodes | ms | move | nodes saved |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in files {
        let pos = parse_board_file(&batch::read_text(&f)?).map_err(|e| e.in_file(&f))?;
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if pos.king(Color::Black).is_none() || pos.king(Color::Red).is_none() {
            println!("| {name} | – | a king is missing: the game is over | | | | | | |");
            continue;
        }
        let mut last_ratio = 1.0f64;
        for &depth in depths {
            let ab = fixed_depth(&pos, depth, true, rules, EvalKind::Course);
            let line = |m: Option<crate::square::Move>| {
                m.map_or("-".into(), |m| {
                    answer_line(&pos, m, YOrigin::Bottom).trim_end().to_string()
                })
            };
            // Estimate minimax's size from the branching factor to skip hopeless runs.
            let mut moves = Vec::new();
            legal_moves(&pos, &mut moves);
            let estimate = (moves.len().max(2) as f64).powi(depth as i32) * last_ratio.max(0.5);
            let (mm_nodes, mm_ms, mm_move, saved) = if estimate <= max_minimax as f64 {
                let mm = fixed_depth(&pos, depth, false, rules, EvalKind::Course);
                last_ratio = mm.stats.nodes as f64 / (moves.len().max(2) as f64).powi(depth as i32);
                (
                    mm.stats.nodes.to_string(),
                    format!("{:.1}", mm.stats.elapsed.as_secs_f64() * 1e3),
                    line(mm.best),
                    format!(
                        "{:.1}%",
                        100.0 * (1.0 - ab.stats.nodes as f64 / mm.stats.nodes as f64)
                    ),
                )
            } else {
                ("skipped".into(), "".into(), "".into(), "".into())
            };
            println!(
                "| {name} | {depth} | {} | {:.1} | {} | {mm_nodes} | {mm_ms} | {mm_move} | {saved} |",
                ab.stats.nodes,
                ab.stats.elapsed.as_secs_f64() * 1e3,
                line(ab.best)
            );
        }
    }
    Ok(0)
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
    mut contestant: crate::selfplay::Contestant,
    options: Vec<(String, String)>,
    ranks: crate::selfplay::Ranks,
    side: &str,
) -> Result<crate::selfplay::Contestant> {
    match &mut contestant {
        crate::selfplay::Contestant::Uci(engine) => {
            engine.options = options;
            engine.ranks = ranks;
        }
        builtin => {
            if !options.is_empty() || ranks != crate::selfplay::Ranks::Auto {
                anyhow::bail!(
                    "--{side}-option and --{side}-ranks are for uci: engines, not `{builtin}`"
                );
            }
        }
    }
    Ok(contestant)
}

#[allow(clippy::too_many_arguments)]
fn match_cmd(
    mut a: crate::selfplay::Contestant,
    mut b: crate::selfplay::Contestant,
    pairs: usize,
    budget: crate::selfplay::Budget,
    starts: crate::selfplay::Starts,
    seed: u64,
    games_file: Option<&Path>,
    pgn_file: Option<&Path>,
) -> Result<i32> {
    use crate::selfplay::{Contestant, Ranks};
    for f in [games_file, pgn_file].into_iter().flatten() {
        batch::check_writable(f)?;
    }
    for contestant in [&mut a, &mut b] {
        let name = contestant.to_string();
        crate::selfplay::prepare_contestant(contestant)
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
    let score = crate::selfplay::run_match(&a, &b, pairs, budget, seed, starts, |g, a_is_red| {
        bar.inc(1);
        played += 1;
        // The loser of a forfeit or of a loss on time is named on stderr.
        let a_lost = (g.result == crate::selfplay::Result::BlackWins) == a_is_red;
        let side = if a_lost { "A" } else { "B" };
        if g.forfeit {
            let colour = if a_lost == a_is_red { "red" } else { "black" };
            let why = g.reason.split_once("forfeits: ").map_or("", |(_, why)| why);
            bar.suspend(|| eprintln!("game {played}: {side} ({colour}) forfeits: {why}"));
        }
        if g.reason == crate::selfplay::LOST_ON_TIME {
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
        pgn.push_str(&crate::selfplay::pgn(g, played, red, black, budget));
    });
    bar.finish_and_clear();
    if let Some(f) = games_file {
        batch::write_atomic(f, lines.as_bytes())?;
    }
    if let Some(f) = pgn_file {
        batch::write_atomic(f, pgn.as_bytes())?;
    }
    println!(
        "{a} against {b}, {} games at {}: {}",
        score.games(),
        budget.time_control(),
        score.summary()
    );
    let late = match budget {
        crate::selfplay::Budget::Time(t) => format!(
            " (late: after {} ms)",
            (t + crate::selfplay::LATE_AFTER).as_millis()
        ),
        crate::selfplay::Budget::Nodes(_) | crate::selfplay::Budget::Clock { .. } => String::new(),
    };
    println!("A thought {}{late}", times[0].summary());
    println!("B thought {}{late}", times[1].summary());
    Ok(0)
}

/// The text of every file.
fn read_all(files: &[PathBuf]) -> Result<Vec<String>> {
    files.iter().map(|f| batch::read_text(f)).collect()
}

/// The games files' names, for a weights file's header.
fn file_names(games: &[PathBuf]) -> String {
    let names: Vec<String> = games
        .iter()
        .map(|g| {
            g.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    names.join(" ")
}

/// The summary line of a fit to search labels (`train --tables`, `train --activity`): the
/// labels searched to `label_nodes` nodes (`labelled_with` says with what, after `nodes`),
/// `base` the evaluation the fit starts from, `learned` what was fitted, as the errors against
/// the labels and then against the results name it.
fn labelled_fit_summary<T>(
    t: &crate::train_tables::LabelledFit<T>,
    label_nodes: u64,
    labelled_with: &str,
    base: &str,
    learned: [&str; 2],
) -> String {
    format!(
        "{} positions fitted, {} held back (every tenth game), each labelled by a search of {} \
         nodes{labelled_with}; logistic scale {:.1}; mean squared error against the labels with \
         the {base} {:.5} (held back {:.5}), with {} {:.5} (held back {:.5}); against the \
         held-back games' results: {base} {:.5}, {} {:.5}, the labelling search {:.5}",
        t.positions.0,
        t.positions.1,
        label_nodes,
        t.scale,
        t.base_error.0,
        t.base_error.1,
        learned[0],
        t.fitted_error.0,
        t.fitted_error.1,
        t.result_error.0,
        learned[1],
        t.result_error.1,
        t.result_error.2,
    )
}

fn train_tables_cmd(
    games: &[PathBuf],
    output: &Path,
    source: &str,
    options: &crate::train_tables::TableOptions,
) -> Result<i32> {
    batch::check_writable(output)?;
    let texts = read_all(games)?;
    let t =
        crate::train_tables::fit_tables(&texts, options).map_err(|(i, e)| e.in_file(&games[i]))?;
    let summary = labelled_fit_summary(
        &t,
        options.label_nodes,
        "",
        "course evaluation",
        ["these tables", "these tables"],
    );
    let how = format!(
        "Piece-square tables by phase learned by `xiangqi-endgame train --tables --label-nodes {} \
         --every {} {}`.",
        options.label_nodes,
        options.every,
        file_names(games)
    );
    write_learned(output, &how, source, &summary, &t.learned.to_text())?;
    println!("{summary}");
    Ok(0)
}

fn train_activity_cmd(
    games: &[PathBuf],
    output: &Path,
    source: &str,
    options: &crate::train_tables::TableOptions,
) -> Result<i32> {
    batch::check_writable(output)?;
    let texts = read_all(games)?;
    let t = crate::train_activity::fit_activity(&texts, options)
        .map_err(|(i, e)| e.in_file(&games[i]))?;
    let summary = labelled_fit_summary(
        &t,
        options.label_nodes,
        " with the piece-square evaluation",
        "piece-square evaluation",
        ["these weights", "with these weights"],
    );
    let how = format!(
        "Activity weights (opening, endgame; sixteenths of a unit per count) learned by \
         `xiangqi-endgame train --activity --label-nodes {} --every {} {}`.",
        options.label_nodes,
        options.every,
        file_names(games)
    );
    write_learned(output, &how, source, &summary, &t.learned.to_text())?;
    println!("{summary}");
    Ok(0)
}

/// A share from 0 to 1.
fn share_arg(s: &str) -> std::result::Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| (0.0..=1.0).contains(v))
        .ok_or_else(|| format!("`{s}` is not a number from 0 to 1"))
}

fn train_net_cmd(
    output: &Path,
    options: &crate::train_net::NetOptions,
    data: Option<&Path>,
) -> Result<i32> {
    use crate::train_net::{fit_network, positions_from_text, positions_to_text};
    batch::check_writable(output)?;
    let started = Instant::now();
    let cpu_before = batch::process_cpu_time();
    let positions = match data {
        Some(file) if file.exists() => {
            let text = batch::read_text(file)?;
            let (flags, positions) = positions_from_text(&text).map_err(|e| e.in_file(file))?;
            if flags != options.data_flags() {
                bail!(
                    "{}: the positions were made with `{flags}`, not `{}`: pass the same options",
                    file.display(),
                    options.data_flags()
                );
            }
            eprintln!(
                "{} labelled positions read from {}",
                positions.len(),
                file.display()
            );
            positions
        }
        _ => {
            let positions = crate::train_net::self_play_positions(options);
            if let Some(file) = data {
                batch::write_atomic(file, positions_to_text(&positions, options).as_bytes())?;
                eprintln!(
                    "{} labelled positions written to {}",
                    positions.len(),
                    file.display()
                );
            }
            positions
        }
    };
    let games_secs = started.elapsed().as_secs_f64();
    let mut t = fit_network(&positions, options)?;
    let cpu = match (cpu_before, batch::process_cpu_time()) {
        (Some(a), Some(b)) => format!("{:.0} s of CPU", (b - a).as_secs_f64()),
        _ => "CPU time unknown".to_string(),
    };
    let stages = ["opening", "middlegame", "endgame", "all"];
    let per_stage: Vec<String> = stages
        .iter()
        .zip(&t.label_error)
        .map(|(name, (a, b))| format!("{name} {a:.5} -> {b:.5}"))
        .collect();
    let description = format!(
        "Made by `xiangqi-endgame train-net {} --epochs {} --result-weight {}` in {:.0} s wall ({:.0} s of it making or reading the positions), \
         {cpu}: {} samples fitted (each position as it is and with its files mirrored) and {} positions held back (every tenth game), labels from the \
         self-play searches blended with the results, logistic scale {:.1}; epoch {} kept. \
         Held-back squared error against the search labels, piece-square evaluation -> with \
         the network: {}. Against the held-back results: {:.5} -> {:.5} (the labelling \
         searches {:.5}). Largest quantisation difference on the held-back positions: {:.1}.",
        options.data_flags(),
        options.epochs,
        options.result_weight,
        started.elapsed().as_secs_f64(),
        games_secs,
        t.positions.0,
        t.positions.1,
        t.scale,
        t.epoch,
        per_stage.join(", "),
        t.result_error.0,
        t.result_error.1,
        t.result_error.2,
        t.quantisation_error,
    );
    t.network.description = description.clone();
    batch::write_atomic(output, &t.network.to_bytes())?;
    println!("{description}");
    Ok(0)
}

/// Writes what `train` learned: `# ` header lines (how, where the games came from, the
/// summary), then `body`.
fn write_learned(output: &Path, how: &str, source: &str, summary: &str, body: &str) -> Result<()> {
    let mut file = format!("# {how}\n");
    if !source.is_empty() {
        file.push_str(&format!("# The games: {source}\n"));
    }
    file.push_str(&format!("# {summary}\n{body}"));
    batch::write_atomic(output, file.as_bytes())
}

fn train_cmd(games: &[PathBuf], output: &Path, source: &str) -> Result<i32> {
    batch::check_writable(output)?;
    let texts = read_all(games)?;
    let t = crate::train::fit(&texts).map_err(|(i, e)| e.in_file(&games[i]))?;
    let summary = format!(
        "{} positions fitted, {} held back (every tenth game); logistic scale {:.1}; mean squared \
         error with the course evaluation {:.5} (held back {:.5}), with these weights {:.5} \
         (held back {:.5})",
        t.positions.0,
        t.positions.1,
        t.scale,
        t.course_error.0,
        t.course_error.1,
        t.fitted_error.0,
        t.fitted_error.1
    );
    let how = format!(
        "Endgame weights learned by `xiangqi-endgame train {}` (Texel's method).",
        file_names(games)
    );
    write_learned(output, &how, source, &summary, &t.weights.to_text())?;
    println!("{summary}");
    print!("{}", t.weights.to_text());
    Ok(0)
}

fn problems_cmd(file: &Path, move_time: Duration, json: bool) -> Result<i32> {
    use crate::problems::{attempt, parse_collection};
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

fn mate_cmd(
    fen: &str,
    plies: u32,
    seconds: f64,
    full_width: bool,
    checks_only: bool,
) -> Result<i32> {
    use crate::engine::{find_mate, MateSearch};
    let pos: Position = fen.parse().map_err(|e| anyhow::anyhow!("FEN: {e}"))?;
    let time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
    let started = Instant::now();
    let found = if full_width {
        find_mate(&pos, plies, time)
    } else {
        let deadline = time.map_or(search_core::Deadline::none(), search_core::Deadline::after);
        let prover = crate::proof::MateProver::new(16, deadline, None);
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
        batch::check_writable(f)?;
    }
    let bar = batch::progress_bar(count as u64, "problems", false);
    let problems = crate::mates::generate(
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
        text.push_str(&crate::mates::problem_line(p));
        text.push('\n');
    }
    match output {
        Some(f) => write_atomic(f, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(0)
}

//! The command line, one file per family of subcommands: the course's batch job (`course`),
//! checking and grading (`grading`), playing (`play`), mates (`mates`) and learning (`learn`).

mod analyze;
mod course;
mod games;
mod grading;
mod learn;
mod mates;
mod play;

use clap::Parser;

/// The subcommands (`--help` opens with the crate's description).
#[derive(Debug, Parser)]
#[command(name = "xiangqi-endgame", version, about)]
enum Command {
    /// The batch job: red's move for a board file or every N.txt of a folder.
    ///
    /// Choose red's move for a board file or every N.txt of a folder; write output_N.txt and
    /// move/red_N.txt, move/black_N.txt.
    Run(course::RunArgs),
    /// Count the leaves of the legal-move tree (perft) from a FEN.
    Perft(course::PerftArgs),
    /// The report's table: nodes and time per depth with and without pruning, move chosen.
    Compare(grading::CompareArgs),
    /// Check answer files against their boards at the grading depth.
    ///
    /// Check answer files against their boards: any move that keeps the best result at the
    /// grading depth (the same mate distance, or the same score) is accepted.
    Check(grading::CheckArgs),
    /// Grade a class's answers against every board (a CSV report).
    ///
    /// Grade a class: every student folder of CLASS (answers directly or in `output/`) against
    /// every board of INPUT, as `check` decides. Writes a CSV report (`student,input,verdict,
    /// detail`) and prints each student's score.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade(grading::GradeClassArgs),
    /// Speak UCI on stdin/stdout (for xiangqi GUIs and tools).
    Uci(play::UciArgs),
    /// The shortest forced mate and its line, by proof-number search.
    ///
    /// The shortest forced mate for the side to move, with its line, by proof-number search
    /// (each length proven or disproven in turn: "no mate" is a proof). Exit 0 with a mate, 1
    /// without one, 2 when the time ran out.
    Mate(mates::MateArgs),
    /// Forced-mate problems from random endgames, each proven (seeded).
    ///
    /// Forced-mate problems from random endgames (seeded), each proven by the mate search: one
    /// `FEN ; mate in K ; line` per line.
    Generate(mates::GenerateArgs),
    /// Engine against engine from seeded or recorded openings.
    ///
    /// Engine against engine from seeded random openings, each engine red once per opening,
    /// under the repetition rulings: what a search change is worth in games.
    Match(play::MatchArgs),
    /// Learn the endgame evaluation's weights from games (Texel's method).
    ///
    /// Learn the endgame evaluation's weights (`--eval learned`) from games (`match --games`
    /// records) by Texel's method and write them as `name value` lines; or, with `--tables`,
    /// piece-square tables by phase (`--eval piece-square`) fitted to deeper searches of the
    /// games' positions; or, with `--activity`, the activity terms' weights (`--eval
    /// activity`) on top of the built-in tables, fitted the same way
    Train(learn::TrainArgs),
    /// Learn the network of `--eval net` from self-play or master games.
    ///
    /// Learn the network of `--eval net` from the engine's own games: play them from seeded
    /// random openings at a fixed number of nodes per move, label every quiet position by the
    /// score of the search that moved from it (blended with the game's result), fit the
    /// network on top of the piece-square evaluation and write it quantised (the built-in one
    /// is `crates/xiangqi-endgame/data/net.bin`). The same seed gives the same network.
    TrainNet(learn::TrainNetArgs),
    /// Run a problem collection through the engine.
    ///
    /// Run a problem collection through the engine at a time per problem: its move, whether it
    /// reports a forced mate and how soon. FILE holds a FEN per line (`; mate in K` after it
    /// is checked against) or a JSON array of objects with `fen` and `name`
    Problems(mates::ProblemsArgs),
    /// Read game records (PGN in ICCS, WXF or Chinese notation) and report what they hold.
    ///
    /// Every move is checked legal; a bad game is named on stderr (file, game, line, move,
    /// reason) and the rest are still read. Prints the number of games, the results and the
    /// most played openings by ECCO code; converts to PGN in another notation (`-o`) or to
    /// one FEN a position (`--fens`). The encoding (UTF-8, GBK/GB18030 or Big5) is found
    /// from each file's bytes unless `--encoding` says.
    Games(games::GamesArgs),
    /// Look over a game with the engine: each position's value, mistakes and blunders.
    ///
    /// Every position of the game is searched for --movetime; a move costing its side
    /// --mistake or --blunder centipawns against the engine's best is marked so, with the
    /// better move. Prints a table; writes the game annotated as PGN (`-o`) and the
    /// evaluation over the game as an SVG graph (`--svg`).
    Analyze(analyze::AnalyzeArgs),
}

/// Runs the command line (`run` when no subcommand is named); returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(
        || match batch::parse_with_default_subcommand::<Command>("run") {
            Command::Run(a) => a.run(),
            Command::Perft(a) => a.run(),
            Command::Compare(a) => a.run(),
            Command::Check(a) => a.run(),
            Command::Grade(a) => a.run(),
            Command::Uci(a) => a.run(),
            Command::Mate(a) => a.run(),
            Command::Generate(a) => a.run(),
            Command::Match(a) => a.run(),
            Command::Train(a) => a.run(),
            Command::TrainNet(a) => a.run(),
            Command::Problems(a) => a.run(),
            Command::Games(a) => a.run(),
            Command::Analyze(a) => a.run(),
        },
    )
}

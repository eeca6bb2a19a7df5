//! The command line: the batch job `run`, `generate`, `perft`, the course's checks and
//! deciders, `match`, `nboard`, `play`, `timing-table`, `eval`, `solve`, `train`, `fit-probcut`,
//! and the archives: `games` and `book`.

mod course;
mod fit_probcut;
mod games;
mod learn;
mod play;
mod solve;

use anyhow::Result;
use clap::Parser;

/// The subcommands (`--help` opens with the crate's description).
#[derive(Debug, Parser)]
#[command(name = "othello", version, about)]
enum Command {
    /// The batch job: solve every OBF file and run every timing job of a folder.
    ///
    /// The batch job: solve every `.obf` file of a folder (or one file) exactly into a scored
    /// OBF file, and run every `.timing` job (the assignment's minimax against alpha-beta
    /// table, in leaves per move); writes `output_<name>.obf` / `output_<name>.md`.
    Run(course::RunArgs),
    /// Endgame positions from seeded games, as OBF lines.
    ///
    /// Endgame positions from the project's own seeded games, as OBF lines (for `solve` and
    /// `run`): `count` positions for each number of empties.
    Generate(course::GenerateArgs),
    /// Count the leaves of the game tree (passes are plies; a finished game is one leaf).
    Perft(course::PerftArgs),
    /// Check a table of the course heuristic along a game.
    ///
    /// Check a table of the course heuristic along a game (`ply_move`, board, side, status, the
    /// four terms, heuristic, action order), replaying the moves from the start.
    Vectors(course::VectorsArgs),
    /// Check a table of minimax / alpha-beta values and leaf counts.
    ///
    /// Check a table of minimax / alpha-beta values and leaf counts under the course heuristic
    /// and move order (`position`, depth, values, leaf counts).
    Nodecounts(course::NodecountsArgs),
    /// A fixed-depth course search: value (black's side), best move, leaves evaluated.
    Search(course::SearchArgs),
    /// A match between two deciders or NBoard engines from seeded openings.
    ///
    /// A match between two deciders (minimax:D, alphabeta:D, mtdf:D, id:MS, mcts:MS, random)
    /// or external engines speaking NBoard (nboard:COMMAND), each decider with a heuristic:
    /// pairs of games from seeded random openings, colours swapped, in parallel.
    Match(play::MatchArgs),
    /// Be an engine for an Othello GUI: the NBoard protocol on stdin/stdout.
    ///
    /// Be an engine for an Othello GUI or another program: speaks the NBoard protocol on
    /// stdin/stdout (nboard 2, set depth, set game GGF, move, go, hint, ping, learn).
    Nboard(play::NboardArgs),
    /// Play against a decider in the terminal (moves typed like d3).
    Play(play::PlayArgs),
    /// The assignment's timing table (ms per move, minimax vs alpha-beta) as Markdown.
    TimingTable(course::TimingTableArgs),
    /// The course heuristic's terms and action order after some moves from the start.
    Eval(course::EvalArgs),
    /// Exact endgame value and best move of a position or an OBF file.
    ///
    /// Exact endgame value and best move for a position, or every line of an OBF file (with
    /// --check, compared with the file's best score).
    Solve(solve::SolveArgs),
    /// Train the pattern evaluation from self-play and expert games.
    ///
    /// Train the pattern evaluation: play seeded games, label them with the exact solver,
    /// fit the weights of every stage and write them (the checked-in data/patterns.bin is
    /// this command's output with its defaults). Prints the error on held-back games.
    Train(learn::TrainArgs),
    /// Fit Multi-ProbCut's error model of the midgame search.
    ///
    /// Fit Multi-ProbCut's error model of the NBoard engine's midgame search: on positions of
    /// the engine's own seeded games, deep minus shallow values for every depth from 2 on,
    /// their mean and deviation fitted as linear functions of empties, depth and shallow
    /// depth (the checked-in data/probcut.txt is this command's output with its defaults).
    /// Prints the measured table per stage and depth pair.
    FitProbcut(fit_probcut::FitProbcutArgs),
    /// Read game archives (WTHOR .wtb, Logistello's .gam, GGF) and report what they hold.
    ///
    /// Every game is replayed and checked; a bad record is named on stderr (file, game, ply,
    /// reason) and left out, and the rest are still read. Prints the number of games, the
    /// results, the most played openings (turned and reflected games together), the players
    /// and tournaments with the most games; converts to GGF, transcripts or Logistello's lines.
    Games(games::GamesArgs),
    /// Build an opening book from game archives, or show a position's book moves.
    Book(games::BookArgs),
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::run_main(|| dispatch(Command::parse()))
}

/// Makes the pattern weights `othello train` wrote to `path` the evaluation's (`nboard
/// --weights`, `fit-probcut --weights`).
fn use_weights_file(path: &std::path::Path) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let w = crate::eval::pattern::Weights::from_bytes(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.0))?;
    crate::eval::pattern::use_weights(w).map_err(|e| anyhow::anyhow!(e.0))
}

fn dispatch(cli: Command) -> Result<i32> {
    match cli {
        Command::Run(args) => args.run(),
        Command::Generate(args) => args.run(),
        Command::Perft(args) => args.run(),
        Command::Vectors(args) => args.run(),
        Command::Nodecounts(args) => args.run(),
        Command::Search(args) => args.run(),
        Command::Match(args) => args.run(),
        Command::Nboard(args) => args.run(),
        Command::Play(args) => args.run(),
        Command::TimingTable(args) => args.run(),
        Command::Eval(args) => args.run(),
        Command::Solve(args) => args.run(),
        Command::Train(args) => args.run(),
        Command::FitProbcut(args) => args.run(),
        Command::Games(args) => args.run(),
        Command::Book(args) => args.run(),
    }
}

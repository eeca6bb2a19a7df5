//! The command line: `run` (the batch job), `generate` (requests), `solve` (7x6 perfect solver), `move` (one getPoint decision as text),
//! `saiblo` (the online judge's text protocol), `compete` (the course's match tool), `ladder`
//! (the engine against the built-in opponents), `selfplay` (a game drawn in the terminal).

mod course;
mod engine;
mod matches;
mod solve;
mod tournament;

use anyhow::Result;
use clap::Parser;

/// The subcommands (`--help` opens with the crate's description).
#[derive(Debug, Parser)]
#[command(name = "connect4", version, about)]
enum Command {
    /// The batch job: answer every getPoint request and 7x6 position list of a folder.
    ///
    /// The batch job: answer every getPoint request (`.txt`, the `move` format) of a folder
    /// with `x y`, and solve every 7x6 position list (`.7x6`, Pons' notation) with exact
    /// scores; writes `output_<name>.txt` for each. Reproducible: a fixed, seeded number of
    /// engine iterations per request.
    Run(course::RunArgs),
    /// A random getPoint request for `move` and `run` (seeded).
    ///
    /// A getPoint request (the `move` format) on a random course board after some seeded
    /// random moves that leave the game open, for `move` and `run`.
    Generate(course::GenerateArgs),
    /// Solve 7x6 positions (Pons' notation: 1-based columns), one `moves [score]` per line.
    Solve(solve::SolveArgs),
    /// One decision from getPoint's arguments as text on stdin; prints `x y`.
    Move(engine::MoveArgs),
    /// Play one game over the online judge's text protocol on stdin/stdout.
    Saiblo(engine::SaibloArgs),
    /// The course's match tool: A against B for N rounds, with its result file.
    ///
    /// The course's match tool: A against B for N rounds (two games each), result file as the
    /// course writes it. A and B are built-ins (random, greedy, alphabeta:D, mcts:MS[:C[:T]] with
    /// T threads, mcts-lgr:MS[:C[:T]], mcts-tt:MS[:C[:T]]) or shared libraries with
    /// getPoint/clearPoint (run in child processes).
    Compete(matches::CompeteArgs),
    /// Where a game was decided: every position proven, the losing move named.
    ///
    /// Where a game was decided: proves every position of a game (as `compete --moves` prints
    /// it) with the engine's wins-only search, and names the move that lost it; each position
    /// also shows who wins its fill-up game (the threats on the board, no new ones).
    Analyze(solve::AnalyzeArgs),
    /// A round-robin tournament at class scale, resumable and shardable.
    ///
    /// A tournament at class scale: every player against every opponent, each round on one
    /// random board played twice with colours swapped; writes DIR/games.csv and
    /// DIR/standings.csv. `--shard I/N` plays a deterministic slice (the schedule depends only
    /// on the seed), `tournament merge` joins the slices, `--resume` goes on after a kill.
    Tournament(tournament::TournamentArgs),
    /// The engine against the built-in ladder of opponents: a table of wins, draws, losses.
    Ladder(matches::LadderArgs),
    /// (internal) Host a shared library for the match tool, in a child process.
    #[command(hide = true)]
    HostLib(course::HostLibArgs),
    /// Watch the engine play itself on a random board.
    Selfplay(matches::SelfplayArgs),
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    // The one-shot `move` counts its budget from here, the start of the process's own code.
    let started = std::time::Instant::now();
    batch::run_main(|| dispatch(Command::parse(), started))
}

fn dispatch(cli: Command, started: std::time::Instant) -> Result<i32> {
    match cli {
        Command::Run(args) => args.run(),
        Command::Move(a) => a.run(started),
        Command::Saiblo(a) => a.run(),
        Command::Generate(args) => args.run(),
        Command::Solve(args) => args.run(),
        Command::Compete(args) => args.run(),
        Command::Analyze(args) => args.run(),
        Command::Tournament(a) => a.run(),
        Command::Ladder(args) => args.run(),
        Command::HostLib(args) => args.run(),
        Command::Selfplay(args) => args.run(),
    }
}

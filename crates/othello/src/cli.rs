//! The command line: `perft`, `solve`.

use crate::endgame::{solve, Endgame};
use crate::perft::perft;
use crate::position::Position;
use anyhow::{anyhow, Result};
use clap::{Parser, Subcommand};
use search_core::Searcher;
use std::time::Instant;

/// Othello: perft and exact endgame solving.
#[derive(Debug, Parser)]
#[command(name = "othello", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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
    /// Exact endgame value and best move for a position, or every line of an OBF file (with
    /// --check, compared with the file's best score).
    Solve {
        /// An OBF line in quotes, or an OBF file.
        #[arg(allow_hyphen_values = true)]
        input: String,
        /// Compare each line's score with the best score listed in it.
        #[arg(long)]
        check: bool,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash_mb: usize,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    batch::exit_code(dispatch(Cli::parse()))
}

fn dispatch(cli: Cli) -> Result<i32> {
    match cli.command {
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
        Command::Solve {
            input,
            check,
            hash_mb,
        } => {
            let lines: Vec<(String, String)> = if std::path::Path::new(&input).is_file() {
                batch::read_text(std::path::Path::new(&input))?
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(i, l)| (format!("{input}:{}", i + 1), l.to_string()))
                    .collect()
            } else {
                vec![("argument".into(), input.clone())]
            };
            let mut searcher: Searcher<Endgame> = Searcher::new(hash_mb);
            let (mut ok, mut bad) = (0, 0);
            for (where_, line) in lines {
                let p: Position = line.parse().map_err(|e| anyhow!("{where_}: {e}"))?;
                let t = Instant::now();
                let s = solve(&p, &mut searcher);
                let secs = t.elapsed().as_secs_f64();
                let best = s.best.map_or("-".into(), |m| m.to_string().to_uppercase());
                let listed = line
                    .split(';')
                    .nth(1)
                    .and_then(|f| f.split(':').nth(1))
                    .and_then(|v| v.trim().parse::<i32>().ok());
                let verdict = match (check, listed) {
                    (true, Some(l)) if l == s.score => {
                        ok += 1;
                        " ok".to_string()
                    }
                    (true, Some(l)) => {
                        bad += 1;
                        format!(" FAIL (listed {l:+})")
                    }
                    _ => String::new(),
                };
                println!(
                    "{where_}: {} empties, best {best} score {:+}{verdict} ({:.3} s, {} nodes, {:.1} M nodes/s)",
                    p.empties(),
                    s.score,
                    secs,
                    s.nodes,
                    s.nodes as f64 / secs.max(1e-9) / 1e6
                );
            }
            if check {
                println!("{ok} passed, {bad} failed");
            }
            Ok(i32::from(bad > 0))
        }
    }
}

//! `games`: read game records (PGN in ICCS, WXF or Chinese notation; UTF-8, GBK or Big5), report
//! what they hold, and convert them to another notation or to one FEN a position.

use crate::notation::collection::{pgn_files, read};
use crate::notation::pgn::{write_game, Encoding, Notation};
use anyhow::Result;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    /// PGN files, or folders of them (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The files' encoding (default: found from each file's bytes).
    #[arg(long, value_enum)]
    encoding: Option<Encoding>,
    /// Write every game read to this PGN file (UTF-8) in --notation.
    #[arg(long, short, value_name = "OUT.pgn")]
    output: Option<PathBuf>,
    /// The notation of --output's moves.
    #[arg(long, value_enum, default_value_t = Notation::Iccs)]
    notation: Notation,
    /// Write every position of every game, one a line: its board in FEN letters (red upper
    /// case) and the side to move (`w` or `b`).
    #[arg(long, value_name = "FILE")]
    fens: Option<PathBuf>,
    /// Lines of the openings list.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    top: u64,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// What a collection holds, as `games` prints it.
#[derive(Debug, serde::Serialize)]
struct Summary {
    games: usize,
    files: usize,
    rejected: usize,
    red_wins: usize,
    draws: usize,
    black_wins: usize,
    unknown: usize,
    positions: usize,
    /// The most frequent ECCO codes with their games and red's score.
    openings: Vec<(String, usize, f64)>,
}

impl GamesArgs {
    /// Runs the subcommand; returns the exit code (1 when a game was rejected).
    pub fn run(self) -> Result<i32> {
        for out in [&self.output, &self.fens].into_iter().flatten() {
            batch::check_output(out, &self.paths)?;
        }
        let files = pgn_files(&self.paths)?;
        let bar = batch::progress_bar(batch::total_bytes(&files), "bytes", self.quiet || self.json);
        let c = read(&files, self.encoding, &|b| bar.inc(b))?;
        bar.finish_and_clear();
        for r in &c.rejected {
            eprintln!("rejected: {}", c.describe(r));
        }
        let mut s = Summary {
            games: c.games.len(),
            files: c.files.len(),
            rejected: c.rejected.len(),
            red_wins: 0,
            draws: 0,
            black_wins: 0,
            unknown: 0,
            positions: 0,
            openings: Vec::new(),
        };
        let mut ecco: HashMap<String, (usize, f64)> = HashMap::new();
        for (_, g) in &c.games {
            s.positions += g.moves.len() + 1;
            let score = match g.red_result() {
                Some(1) => {
                    s.red_wins += 1;
                    Some(1.0)
                }
                Some(0) => {
                    s.draws += 1;
                    Some(0.5)
                }
                Some(_) => {
                    s.black_wins += 1;
                    Some(0.0)
                }
                None => {
                    s.unknown += 1;
                    None
                }
            };
            if let (Some(code), Some(score)) = (g.tag("ECCO").filter(|e| !e.is_empty()), score) {
                let e = ecco.entry(code.to_string()).or_default();
                e.0 += 1;
                e.1 += score;
            }
        }
        let mut openings: Vec<(String, usize, f64)> = ecco
            .into_iter()
            .map(|(code, (n, sum))| (code, n, sum / n as f64))
            .collect();
        openings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        openings.truncate(self.top as usize);
        s.openings = openings;
        if let Some(out) = &self.output {
            let text: String = c
                .games
                .iter()
                .map(|(_, g)| write_game(g, self.notation))
                .collect();
            batch::write_atomic(out, text.as_bytes())?;
        }
        if let Some(out) = &self.fens {
            let mut text = String::with_capacity(s.positions * 60);
            for (_, g) in &c.games {
                for p in g.positions() {
                    let fen = p.to_string();
                    let mut fields = fen.split(' ');
                    text.push_str(fields.next().unwrap_or(""));
                    text.push(' ');
                    text.push_str(fields.next().unwrap_or("w"));
                    text.push('\n');
                }
            }
            batch::write_atomic(out, text.as_bytes())?;
        }
        if self.json {
            println!("{}", serde_json::to_string_pretty(&s)?);
        } else {
            let pct = |n: usize| 100.0 * n as f64 / s.games.max(1) as f64;
            println!(
                "{} in {} ({} rejected), {} positions",
                batch::plural(s.games, "game", "games"),
                batch::plural(s.files, "file", "files"),
                s.rejected,
                s.positions
            );
            println!(
                "results: red wins {:.1}%, draws {:.1}%, black wins {:.1}%, unknown {:.1}%",
                pct(s.red_wins),
                pct(s.draws),
                pct(s.black_wins),
                pct(s.unknown)
            );
            if !s.openings.is_empty() {
                println!("\nmost played openings (ECCO):");
                println!("{:>8}  {:>6}  code", "games", "red");
                for (code, n, score) in &s.openings {
                    println!("{n:>8}  {:>5.1}%  {code}", 100.0 * score);
                }
            }
        }
        for out in [&self.output, &self.fens].into_iter().flatten() {
            eprintln!("wrote {}", out.display());
        }
        Ok(i32::from(!c.rejected.is_empty()))
    }
}

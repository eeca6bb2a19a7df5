//! `analyze`: the engine's evaluation of every position of a game, the better move where the
//! played one costs more than a threshold, written as an annotated PGN and an SVG graph.

use crate::notation::collection::{pgn_files, read};
use crate::notation::pgn::{write_annotated, Annotation, Encoding, Notation};
use crate::search::analysis::{analyze, Thresholds, Verdict};
use crate::search::config::SearchConfig;
use anyhow::{anyhow, Result};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The PGN file of the game.
    game_file: PathBuf,
    /// Which game of the file (from 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// Search time per position, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime: u64,
    /// A move costing this many centipawns or more is a mistake.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i32).range(1..=100_000))]
    mistake: i32,
    /// A move costing this many centipawns or more is a blunder.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(i32).range(1..=100_000))]
    blunder: i32,
    /// The file's encoding (default: found from its bytes).
    #[arg(long, value_enum)]
    encoding: Option<Encoding>,
    /// Write the annotated game here (PGN, UTF-8).
    #[arg(long, short, value_name = "OUT.pgn")]
    output: Option<PathBuf>,
    /// Write the evaluation graph here (SVG).
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// The notation of the annotated game and the table.
    #[arg(long, value_enum, default_value_t = Notation::Iccs)]
    notation: Notation,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
}

impl AnalyzeArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        if self.blunder < self.mistake {
            return Err(anyhow!(
                "--blunder {} is below --mistake {}: a blunder costs at least a mistake",
                self.blunder,
                self.mistake
            ));
        }
        for out in [&self.output, &self.svg].into_iter().flatten() {
            batch::check_output(out, std::slice::from_ref(&self.game_file))?;
        }
        let files = pgn_files(std::slice::from_ref(&self.game_file))?;
        let c = read(&files, self.encoding, &|_| {})?;
        let n = self.game as usize;
        let total = c.games.len() + c.rejected.len();
        if let Some(r) = c.rejected.iter().find(|(_, e)| e.game == n) {
            return Err(anyhow!("{}", c.describe(r)));
        }
        let game = c
            .games
            .iter()
            .map(|(_, g)| g)
            .nth(n - 1 - c.rejected.iter().filter(|(_, e)| e.game < n).count())
            .filter(|_| n <= total)
            .ok_or_else(|| {
                anyhow!(
                    "{}: --game {n}, but the file holds {total} game{}",
                    self.game_file.display(),
                    if total == 1 { "" } else { "s" }
                )
            })?;
        let config = SearchConfig {
            time: Some(Duration::from_millis(self.movetime)),
            ..SearchConfig::engine()
        };
        let thresholds = Thresholds {
            mistake: self.mistake,
            blunder: self.blunder,
        };
        let bar = batch::progress_bar(game.moves.len() as u64 + 1, "positions", self.json);
        let analysis = analyze(&game.start, &game.moves, &config, thresholds, &|| {
            bar.inc(1)
        });
        bar.finish_and_clear();
        let positions = game.positions();
        let text = |i: usize, m| crate::notation::pgn::write_move(&positions[i], m, self.notation);
        let pawns = |v: i32| format!("{:+.2}", f64::from(v) / 100.0);
        let annotations: Vec<Annotation> = analysis
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut comment = pawns(a.after);
                if let (Some(v), Some(best)) = (a.verdict, a.best) {
                    let word = if v == Verdict::Blunder {
                        "blunder"
                    } else {
                        "mistake"
                    };
                    comment = format!(
                        "{comment} {word}: {} was better ({})",
                        text(i, best),
                        pawns(a.before)
                    );
                }
                Annotation {
                    suffix: match a.verdict {
                        Some(Verdict::Blunder) => "??",
                        Some(Verdict::Mistake) => "?",
                        None => "",
                    },
                    comment: Some(comment),
                }
            })
            .collect();
        if let Some(out) = &self.output {
            batch::write_atomic(
                out,
                write_annotated(game, self.notation, &annotations).as_bytes(),
            )?;
        }
        if let Some(out) = &self.svg {
            let title = match (game.tag("Red"), game.tag("Black")) {
                (Some(r), Some(b)) if !r.is_empty() || !b.is_empty() => format!("{r} - {b}"),
                _ => format!("{} game {n}", self.game_file.display()),
            };
            let svg = crate::interfaces::eval_graph::render(&analysis, &title);
            batch::write_atomic(out, svg.as_bytes())?;
        }
        if self.json {
            println!("{}", serde_json::to_string_pretty(&analysis)?);
        } else {
            println!(
                "{:>5}  {:<10} {:>7} {:>7}  {:<10} verdict",
                "move", "played", "before", "after", "best"
            );
            for (i, a) in analysis.iter().enumerate() {
                let number =
                    if (i % 2 == 0) == (game.start.side() == crate::board::piece::Color::Red) {
                        format!("{}.", i / 2 + 1)
                    } else {
                        format!("{}...", i / 2 + 1)
                    };
                println!(
                    "{number:>5}  {:<10} {:>7} {:>7}  {:<10} {}",
                    text(i, a.played),
                    pawns(a.before),
                    pawns(a.after),
                    a.best.map_or("-".into(), |b| text(i, b)),
                    match a.verdict {
                        Some(Verdict::Blunder) => format!("blunder ({} cp)", a.cost),
                        Some(Verdict::Mistake) => format!("mistake ({} cp)", a.cost),
                        None => String::new(),
                    }
                );
            }
            let count = |side: usize, v: Verdict| {
                analysis
                    .iter()
                    .enumerate()
                    .filter(|(i, a)| i % 2 == side && a.verdict == Some(v))
                    .count()
            };
            let first = if game.start.side() == crate::board::piece::Color::Red {
                ["red", "black"]
            } else {
                ["black", "red"]
            };
            for (side, name) in first.iter().enumerate() {
                println!(
                    "{name}: {}, {}",
                    batch::plural(count(side, Verdict::Mistake), "mistake", "mistakes"),
                    batch::plural(count(side, Verdict::Blunder), "blunder", "blunders")
                );
            }
        }
        for out in [&self.output, &self.svg].into_iter().flatten() {
            eprintln!("wrote {}", out.display());
        }
        Ok(0)
    }
}

//! `othello games`: read game archives (WTHOR, Logistello's book, GGF), report what they hold,
//! and convert them to GGF, transcripts or Logistello's lines.

use crate::formats::archive::{game_files, read, Archive};
use crate::formats::summary::Summary;
use anyhow::Result;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    /// Game files (.wtb, .gam, .gam.gz, .ggf) or folders of them (searched recursively).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Count openings of this many plies.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=60))]
    opening_plies: u64,
    /// Lines of each list (openings, players, tournaments).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    top: u64,
    /// Write every game as GGF, one a line, with its players, tournament, year and result.
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    /// Write every game's moves as a transcript, one a line (`f5d6c3…`).
    #[arg(long, value_name = "FILE")]
    transcripts: Option<PathBuf>,
    /// Write every game in Logistello's form, one a line (`+f5-d6…: +04 10`).
    #[arg(long, value_name = "FILE")]
    gam: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

impl GamesArgs {
    /// Runs the subcommand; returns the exit code (1 when a record was rejected).
    pub fn run(self) -> Result<i32> {
        let outputs: Vec<&PathBuf> = [&self.ggf, &self.transcripts, &self.gam]
            .into_iter()
            .flatten()
            .collect();
        for out in &outputs {
            batch::check_output(out, &self.paths)?;
        }
        let archive = read_archives(&self.paths, self.quiet || self.json)?;
        let convert = |each: &dyn Fn(&crate::formats::archive::ArchiveGame) -> String| {
            let mut text = String::new();
            for g in &archive.games {
                text.push_str(&each(g));
                text.push('\n');
            }
            text
        };
        let replay = |g: &crate::formats::archive::ArchiveGame| {
            g.record.replay().expect("the archive holds replayed games")
        };
        if let Some(out) = &self.ggf {
            let text = convert(&|g| g.record.to_ggf(&replay(g)).to_string());
            batch::write_atomic(out, text.as_bytes())?;
        }
        if let Some(out) = &self.transcripts {
            batch::write_atomic(out, convert(&|g| g.record.transcript()).as_bytes())?;
        }
        if let Some(out) = &self.gam {
            let text = convert(&|g| crate::formats::logistello::write_line(&replay(g)));
            batch::write_atomic(out, text.as_bytes())?;
        }
        let summary = Summary::of(&archive, self.opening_plies as usize, self.top as usize);
        if self.json {
            println!("{}", serde_json::to_string_pretty(&summary)?);
        } else {
            print!("{summary}");
        }
        for out in outputs {
            eprintln!("wrote {}", out.display());
        }
        Ok(i32::from(!archive.rejected.is_empty()))
    }
}

#[derive(Debug, clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Debug, clap::Subcommand)]
enum BookCommand {
    /// Build an opening book from game archives.
    ///
    /// Every position up to --plies that at least --min-games games reach (turned and
    /// reflected positions merged), with its games' results; the book's leaves valued by the
    /// engine's search to --depth, the values backed up by negamax through the book's moves.
    Build(BuildArgs),
    /// Show a position's book moves with their games, score and value.
    Show(ShowArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// Game files (.wtb, .gam, .gam.gz, .ggf) or folders of them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where to write the book.
    #[arg(long, short, default_value = "book.bin")]
    out: PathBuf,
    /// Positions up to this many plies from the start.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: u32,
    /// Positions fewer games reach are left out.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    min_games: u32,
    /// The engine's search depth at the book's leaves.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Threads searching the leaves (default: all cores; the book does not depend on it).
    #[arg(long)]
    jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// Moves from the start (like f5d6) or a position in OBF form; the start by default.
    #[arg(default_value = "", allow_hyphen_values = true)]
    position: String,
    /// The book file (`othello book build`).
    #[arg(long)]
    book: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Reads a book file, its errors naming it.
pub fn read_book(path: &std::path::Path) -> Result<crate::search::book::Book> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    crate::search::book::Book::from_bytes(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// A position given as moves from the start or in OBF form.
pub fn position_arg(text: &str) -> Result<crate::rules::position::Position> {
    let start = crate::rules::position::Position::default();
    if text.trim().len() >= 64 {
        return text.parse().map_err(|e| anyhow::anyhow!("`{text}`: {e}"));
    }
    start
        .play_sequence(text)
        .map_err(|e| anyhow::anyhow!("`{}`: {e}", batch::shown(text)))
}

/// Every game of the archives `paths` names (see [`game_files`]), with a progress bar over
/// their bytes unless `quiet`; each rejected record is named on stderr.
pub(super) fn read_archives(paths: &[PathBuf], quiet: bool) -> Result<Archive> {
    let files = game_files(paths)?;
    let bar = batch::progress_bar(batch::total_bytes(&files), "bytes", quiet);
    let archive = read(&files, &|b| bar.inc(b))?;
    bar.finish_and_clear();
    for e in &archive.rejected {
        eprintln!("rejected: {e}");
    }
    Ok(archive)
}

impl BookArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        match self.command {
            BookCommand::Build(a) => {
                batch::check_output(&a.out, &a.paths)?;
                let archive = read_archives(&a.paths, false)?;
                let opts = crate::search::book::BookOptions {
                    plies: a.plies,
                    min_games: a.min_games,
                    depth: a.depth,
                    threads: a.jobs.unwrap_or_else(batch::cores),
                };
                let t = std::time::Instant::now();
                let bar = std::sync::OnceLock::new();
                let book = crate::search::book::Book::build(&archive.games, &opts, &|| {
                    bar.get_or_init(|| batch::progress_bar(0, "leaves", a.quiet))
                        .inc(1)
                });
                if let Some(b) = bar.get() {
                    b.finish_and_clear();
                }
                batch::write_atomic(&a.out, &book.to_bytes())?;
                let leaves = book.nodes.values().filter(|n| n.leaf).count();
                println!(
                    "{} positions ({leaves} leaves searched to depth {}) from {} games in {:.1} s; wrote {}",
                    book.nodes.len(),
                    a.depth,
                    archive.games.len(),
                    t.elapsed().as_secs_f64(),
                    a.out.display()
                );
                Ok(i32::from(!archive.rejected.is_empty()))
            }
            BookCommand::Show(a) => {
                let book = read_book(&a.book)?;
                let p = position_arg(&a.position)?;
                let node = book.get(&p);
                let moves = book.moves(&p);
                if a.json {
                    let rows: Vec<serde_json::Value> = moves
                        .iter()
                        .map(|m| {
                            serde_json::json!({
                                "move": m.mv.to_string(),
                                "games": m.node.games,
                                "score": m.score,
                                "mean_discs": m.mean_diff,
                                "value": m.value,
                            })
                        })
                        .collect();
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&serde_json::json!({
                            "position": p.to_string(),
                            "games": node.map(|n| n.games),
                            "value": node.map(|n| f64::from(n.value) / 100.0),
                            "moves": rows,
                        }))?
                    );
                    return Ok(0);
                }
                print!("{}", crate::interfaces::play::draw(&p));
                match node {
                    None => println!("not in the book"),
                    Some(n) => println!(
                        "in the book: {} games, the side to move's score {:.1}%, value {:+.2} discs",
                        n.games,
                        100.0 * n.score(),
                        f64::from(n.value) / 100.0
                    ),
                }
                if !moves.is_empty() {
                    println!(
                        "{:>5}  {:>7}  {:>6}  {:>6}  {:>6}",
                        "move", "games", "score", "discs", "value"
                    );
                    for m in &moves {
                        println!(
                            "{:>5}  {:>7}  {:>5.1}%  {:>+6.2}  {:>+6.2}",
                            m.mv.to_string(),
                            m.node.games,
                            100.0 * m.score,
                            m.mean_diff,
                            m.value
                        );
                    }
                }
                Ok(0)
            }
        }
    }
}

//! `othello games`: read game archives (WTHOR, Logistello's book, GGF), report what they hold,
//! and convert them to GGF, transcripts or Logistello's lines.

use crate::formats::archive::{game_files, read};
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
        let files = game_files(&self.paths)?;
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
            .sum();
        let bar = batch::progress_bar(bytes, "bytes", self.quiet || self.json);
        let archive = read(&files, &|b| bar.inc(b))?;
        bar.finish_and_clear();
        for e in &archive.rejected {
            eprintln!("rejected: {e}");
        }
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

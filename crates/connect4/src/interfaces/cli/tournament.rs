//! `tournament`: every player against every opponent at class scale, sharded, merged and
//! resumed.

use super::matches::warn_unplayable;
use crate::course::compete::Contestant;
use anyhow::{bail, Result};
use clap::Subcommand;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    #[command(subcommand)]
    merge: Option<TournamentCommand>,
    /// Players: libraries, folders of libraries, or built-ins.
    #[arg(long, num_args = 1.., required = true)]
    players: Vec<String>,
    /// Opponents: libraries, folders of libraries, or built-ins such as alphabeta:4.
    #[arg(long, num_args = 1.., required = true)]
    opponents: Vec<String>,
    /// Rounds per pairing (two games each, on one board per round).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    rounds: u64,
    /// Seed of the schedule: boards, first movers, the games' random choices.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// The run folder (games.csv, standings.csv, the journal).
    #[arg(long, required = true)]
    out: Option<PathBuf>,
    /// Time per move of the libraries in ms (CONNECT4_TIME_MS in their processes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    time_ms: Option<u64>,
    /// Games at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only slice I of N of the schedule (I from 1), for several machines or jobs.
    #[arg(long, value_name = "I/N")]
    shard: Option<batch::Shard>,
    /// Go on with the games the run folder's journal does not have yet.
    #[arg(long)]
    resume: bool,
    /// Memory allowed to each library's process, MiB (the course allows 1 GB).
    #[arg(long, default_value_t = 1024)]
    memory_mb: u64,
    /// No progress bar, only the summary.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum TournamentCommand {
    /// Join the games.csv of several run folders (shards) into one games.csv and standings.csv.
    Merge {
        /// The run folders.
        #[arg(required = true, num_args = 1..)]
        dirs: Vec<PathBuf>,
        /// The folder to write.
        #[arg(long)]
        out: PathBuf,
    },
}

/// `connect4 tournament`: play the schedule (or a shard of it), or merge shards.
fn tournament(a: TournamentArgs) -> Result<i32> {
    use crate::course::tournament::{describe, expand, run, schedule, write_results};
    if let Some(TournamentCommand::Merge { dirs, out }) = a.merge {
        let n = crate::course::tournament::merge(&dirs, &out)?;
        println!(
            "{n} games from {} folders: {}",
            dirs.len(),
            out.join("games.csv").display()
        );
        return Ok(0);
    }
    let dir = a.out.expect("clap requires --out");
    let players = expand(&a.players)?;
    let opponents = expand(&a.opponents)?;
    for (list, what) in [(&players, "player"), (&opponents, "opponent")] {
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = list.iter().find(|p| !seen.insert(&p.0)) {
            bail!(
                "the {what} {} is named twice: each plays once (the games would share their keys)",
                twice.0
            );
        }
    }
    warn_unplayable(players.iter().chain(&opponents).map(|p| &p.1));
    let names = |v: &[(String, Contestant)]| v.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
    let mut fixtures = schedule(
        &names(&players),
        &names(&opponents),
        a.rounds as usize,
        a.seed,
    );
    let shard = a.shard.unwrap_or(batch::Shard::WHOLE);
    fixtures = fixtures
        .into_iter()
        .enumerate()
        .filter(|(k, _)| shard.takes(*k))
        .map(|(_, f)| f)
        .collect();
    // What the run folder is for: a resumed run must be the same schedule, and merge checks
    // that the shards it joins are all the slices of one.
    let description = describe(
        &a.players,
        &a.opponents,
        a.rounds,
        a.seed,
        shard,
        fixtures.len(),
    );
    let description_file = dir.join("tournament.txt");
    if dir.join("journal.csv").exists() {
        if !a.resume {
            bail!(
                "{}: a run is already there; --resume to go on with it, or another --out",
                dir.display()
            );
        }
        if !description_file.exists() {
            bail!(
                "{}: a journal without its tournament.txt: not a run this tool can go on with",
                dir.display()
            );
        }
        if batch::read_text(&description_file)?.as_str() != description.as_str() {
            bail!(
                "{}: the run there has another schedule (see tournament.txt)",
                dir.display()
            );
        }
    } else {
        batch::write_atomic(&description_file, description.as_bytes())?;
    }
    if let Some(ms) = a.time_ms {
        // Read by the libraries in their own processes (children inherit it).
        std::env::set_var("CONNECT4_TIME_MS", ms.to_string());
    }
    crate::course::compete::MEMORY_LIMIT_MB
        .store(a.memory_mb, std::sync::atomic::Ordering::Relaxed);
    let contestants: std::collections::BTreeMap<String, Contestant> =
        players.into_iter().chain(opponents).collect();
    let already = crate::course::tournament::read_journal(&dir)?.len();
    let bar = batch::progress_bar(fixtures.len() as u64, "games", a.quiet);
    bar.set_position(already.min(fixtures.len()) as u64);
    let started = Instant::now();
    let rows = run(
        &dir,
        &fixtures,
        &contestants,
        a.jobs.unwrap_or_else(batch::cores),
        || bar.inc(1),
    )?;
    bar.finish_and_clear();
    let played = rows.len().saturating_sub(already);
    write_results(&dir, rows)?;
    println!(
        "{} games ({played} played now, {:.1} s), results in {} and {}",
        fixtures.len(),
        started.elapsed().as_secs_f64(),
        dir.join("games.csv").display(),
        dir.join("standings.csv").display()
    );
    Ok(0)
}

impl TournamentArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        tournament(self)
    }
}

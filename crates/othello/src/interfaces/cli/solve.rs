//! `othello solve`: exact values and best moves for OBF positions, a file's lines on several
//! jobs and threads, printed in file order.

use crate::rules::position::Position;
use crate::search::endgame::solve_parallel;
use anyhow::{anyhow, Result};
use std::time::Instant;
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// An OBF line in quotes, or an OBF file.
    #[arg(allow_hyphen_values = true)]
    input: String,
    /// Compare each line's score with the best score listed in it.
    #[arg(long)]
    check: bool,
    /// Transposition table size in MiB (default: sized to the largest position, 8 MiB
    /// at 20 empties, four times more per two more empties, from 2 up to 128 MiB), per
    /// job (1 to 65536).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash_mb: Option<u64>,
    /// Lines of a file solved at once, each by its own thread with its own table (results
    /// still print in file order). One by default, so that each line's time is its own.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Threads solving each line, sharing one table of --hash-mb (the nodes of the
    /// leftmost line share out their moves): the time printed is then wall time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
}

impl SolveArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let SolveArgs {
            input,
            check,
            hash_mb,
            jobs,
            threads,
        } = self;

        // A line that does not parse is reported and counted; the others are still solved.
        let positions: Vec<(String, String, Result<Position, String>)> =
            if std::path::Path::new(&input).is_file() {
                batch::read_text(std::path::Path::new(&input))?
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !crate::interfaces::run::is_blank_or_comment(l))
                    .map(|(i, l)| (format!("{input}:{}", i + 1), l.to_string(), l.parse()))
                    .collect()
            } else {
                let p = input.parse().map_err(|e| {
                    anyhow!("`{input}` is neither a file nor a position in OBF form: {e}")
                })?;
                vec![("argument".into(), input.clone(), Ok(p))]
            };
        let most_empties = positions
            .iter()
            .filter_map(|(_, _, p)| p.as_ref().ok().map(Position::empties))
            .max();
        let hash_mb = hash_mb.map_or_else(
            || crate::search::endgame::table_megabytes(most_empties.unwrap_or(0)),
            |mb| mb as usize,
        );
        let jobs = jobs.clamp(1, positions.len().max(1));
        // Every job's table is allocated here, so that memory that cannot be had is a
        // message before any work, not an abort in the middle of it.
        let mut searchers = (0..jobs)
            .map(|_| crate::search::endgame::searchers(threads as usize, hash_mb))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                anyhow!("--hash-mb {hash_mb} with {jobs} job(s) of {threads} thread(s): {e}")
            })?;
        let (mut ok, mut bad) = (0, 0);
        let mut report = |r: SolveLine| match r {
            SolveLine::Solved { text, verdict } => {
                match verdict {
                    Some(true) => ok += 1,
                    Some(false) => bad += 1,
                    None => {}
                }
                println!("{text}");
            }
            SolveLine::Unreadable(message) => {
                bad += 1;
                eprintln!("error: {message}");
            }
        };
        // Each worker takes the next unsolved line and has its own table; results are
        // printed in input order as soon as all earlier lines are done.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            for mut searcher in searchers.drain(..) {
                let (tx, next, positions) = (tx.clone(), &next, &positions);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((where_, line, p)) = positions.get(i) else {
                        break;
                    };
                    let r = solve_line(where_, line, p, check, &mut searcher, jobs == 1);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut done: Vec<Option<SolveLine>> = (0..positions.len()).map(|_| None).collect();
            let mut printed = 0;
            for (i, r) in rx {
                done[i] = Some(r);
                while let Some(r) = done.get_mut(printed).and_then(Option::take) {
                    report(r);
                    printed += 1;
                }
            }
        });
        if check {
            println!("{ok} passed, {bad} failed");
            if ok + bad == 0 {
                return Err(anyhow!("{input}: no position to check"));
            }
        }
        Ok(i32::from(bad > 0))
    }
}

/// The outcome of one line of `solve`.
enum SolveLine {
    /// The report line, and with `--check` whether the score matched the listed one.
    Solved { text: String, verdict: Option<bool> },
    /// The line is not a position: the message names the file and line.
    Unreadable(String),
}

/// Solves one OBF line (already parsed into `p`) and words the report; with several threads
/// and `alone` (no other line solved at the same time) the process's CPU time over the solve
/// is reported next to the wall time.
fn solve_line(
    where_: &str,
    line: &str,
    p: &Result<Position, String>,
    check: bool,
    searchers: &mut [crate::search::endgame::EndgameSearcher],
    alone: bool,
) -> SolveLine {
    let p = match p {
        Ok(p) => p,
        Err(e) => return SolveLine::Unreadable(format!("{where_}: {e}")),
    };
    let t = Instant::now();
    let cpu_before = batch::process_cpu_time();
    let s = solve_parallel(p, searchers).expect("no deadline, node limit or stop signal is set");
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (cpu_before, batch::process_cpu_time()) {
        (Some(a), Some(b)) if alone && searchers.len() > 1 => {
            format!(" wall, {:.3} s CPU", (b - a).as_secs_f64())
        }
        _ => String::new(),
    };
    let best = s.best.map_or("-".into(), |m| m.to_string().to_uppercase());
    let listed = line
        .split(';')
        .nth(1)
        .and_then(|f| f.split(':').nth(1))
        .and_then(|v| v.trim().parse::<i32>().ok());
    let (verdict, note) = match (check, listed) {
        (true, Some(l)) if l == s.score => (Some(true), " ok".to_string()),
        (true, Some(l)) => (Some(false), format!(" FAIL (listed {l:+})")),
        (true, None) => (
            Some(false),
            " FAIL (no score listed to check against)".to_string(),
        ),
        _ => (None, String::new()),
    };
    SolveLine::Solved {
        text: format!(
            "{where_}: {} empties, best {best} score {:+}{note} ({secs:.3} s{cpu}, {} nodes, {:.1} M nodes/s)",
            p.empties(),
            s.score,
            s.nodes,
            s.nodes as f64 / secs.max(1e-9) / 1e6
        ),
        verdict,
    }
}

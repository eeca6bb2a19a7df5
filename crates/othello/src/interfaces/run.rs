//! The batch job (`othello run DIR`), in the same form as the other tools': every `.obf` file
//! is solved exactly, line by line, into a scored OBF file; every `.timing` file is a job that
//! writes the assignment's table of minimax against alpha-beta (and MTD(f)). Outputs are the
//! same on every run and machine: scores, best moves and leaf counts, never wall times (those
//! go to the terminal). Also the generator of endgame positions from the project's own games.

use crate::interfaces::matchplay::random_opening;
use crate::rules::position::{Move, Position};
use crate::search::deciders::{decide, search, Algorithm, Decider, HeuristicKind, MoveOrder};
use crate::search::endgame::{solve, table_megabytes};
use batch::InputError;
use rand::SeedableRng;
use search_core::SmallRng;
use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// Whether `p` is an input of `othello run`: an OBF file or a timing job.
pub fn is_job_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "obf" || e == "timing")
}

/// The output file name for a job file: `endgames.obf` gives `output_endgames.obf`,
/// `table.timing` gives `output_table.md`.
///
/// ```
/// use othello::run::output_file_name;
/// assert_eq!(output_file_name("endgames_14.obf"), "output_endgames_14.obf");
/// assert_eq!(output_file_name("course.timing"), "output_course.md");
/// ```
pub fn output_file_name(input_name: &str) -> String {
    let ext = if input_name.ends_with(".timing") {
        "md"
    } else {
        "obf"
    };
    batch::output_name(input_name, ext)
}

/// What one job produced: the output text and a line for the terminal.
#[derive(Debug, Clone, serde::Serialize)]
pub struct JobOutput {
    /// The output file's contents (reproducible).
    #[serde(skip)]
    pub text: String,
    /// One line for the terminal (with times).
    pub summary: String,
}

/// Runs one job file (`.obf` or `.timing`), named `name` in messages.
pub fn run_job(name: &Path, text: &str) -> anyhow::Result<JobOutput> {
    if name.extension().is_some_and(|e| e == "timing") {
        let job = text.parse::<TimingJob>().map_err(|e| e.in_file(name))?;
        Ok(job.run())
    } else {
        solve_obf(text).map_err(|e| e.in_file(name).into())
    }
}

/// Whether an OBF line carries no position: blank, or a comment (`%` as in Edax's files, or `#`).
///
/// ```
/// use othello::run::is_blank_or_comment;
/// assert!(is_blank_or_comment("  % generated"));
/// assert!(!is_blank_or_comment("---------------------------OX------XO--------------------------- X;"));
/// ```
pub fn is_blank_or_comment(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('%') || line.starts_with('#')
}

/// Solves every position of an OBF text exactly; the output repeats each position with its
/// best move and exact score in OBF's scored-move form (`board side; A2:+38;`). Every line is
/// parsed before any is solved, so a bad line costs no solving time.
pub fn solve_obf(text: &str) -> Result<JobOutput, InputError> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if is_blank_or_comment(line) {
            continue;
        }
        let p: Position = line.trim().parse().map_err(|e| InputError::at(i + 1, e))?;
        positions.push(p);
    }
    if positions.is_empty() {
        return Err(InputError::at(0, "no position in the file"));
    }
    let most = positions.iter().map(Position::empties).max().unwrap_or(0);
    let mut searcher = crate::search::endgame::searcher(table_megabytes(most));
    let (mut out, mut nodes) = (String::new(), 0u64);
    let started = Instant::now();
    for p in &positions {
        let s = solve(p, &mut searcher);
        nodes += s.nodes;
        let best = s.best.map_or("--".into(), |m| m.to_string().to_uppercase());
        let _ = writeln!(out, "{p}; {best}:{:+};", s.score);
    }
    let secs = started.elapsed().as_secs_f64();
    Ok(JobOutput {
        text: out,
        summary: format!(
            "{} positions solved ({} to {} empties), {nodes} nodes, {secs:.2} s",
            positions.len(),
            positions.iter().map(Position::empties).min().unwrap_or(0),
            most
        ),
    })
}

/// The assignment's timing table as a job file: `key value` lines (`#` starts a comment).
///
/// ```text
/// depths 1,2,3,4,5
/// games 1
/// order course      # or mobility
/// seed 2024
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimingJob {
    /// Search depths, one table row each.
    pub depths: Vec<u32>,
    /// Self-play games measured per row.
    pub games: usize,
    /// Move order of the searches.
    pub order: MoveOrder,
    /// Seed of the games' random openings.
    pub seed: u64,
}

impl std::str::FromStr for TimingJob {
    type Err = InputError;

    fn from_str(text: &str) -> Result<TimingJob, InputError> {
        let mut job = TimingJob {
            depths: vec![1, 2, 3, 4],
            games: 1,
            order: MoveOrder::Course,
            seed: 2024,
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |m: String| InputError::at(i + 1, m);
            let (key, value) = line
                .split_once(char::is_whitespace)
                .map(|(k, v)| (k, v.trim()))
                .ok_or_else(|| at(format!("`{line}`: expected `key value`")))?;
            let number = |what: &str, max: u64| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&v| (1..=max).contains(&v))
                    .ok_or_else(|| {
                        at(format!(
                            "{what} `{value}`: expected a number from 1 to {max}"
                        ))
                    })
            };
            match key {
                "depths" => {
                    job.depths = value
                        .split(',')
                        .map(|d| {
                            d.trim()
                                .parse::<u32>()
                                .ok()
                                .filter(|d| (1..=8).contains(d))
                                .ok_or_else(|| {
                                    at(format!(
                                        "depth `{}`: expected a number from 1 to 8",
                                        d.trim()
                                    ))
                                })
                        })
                        .collect::<Result<_, _>>()?;
                }
                "games" => job.games = number("games", 100)? as usize,
                "seed" => {
                    job.seed = value
                        .parse()
                        .map_err(|_| at(format!("seed `{value}`: expected a number")))?
                }
                "order" => {
                    job.order = match value {
                        "course" => MoveOrder::Course,
                        "mobility" => MoveOrder::Mobility,
                        _ => {
                            return Err(at(format!("order `{value}`: expected course or mobility")))
                        }
                    }
                }
                _ => {
                    return Err(at(format!(
                        "unknown key `{key}` (expected depths, games, order or seed)"
                    )))
                }
            }
        }
        Ok(job)
    }
}

/// Leaves per move of one algorithm at one depth.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeafCounts {
    /// Moves measured.
    pub moves: u64,
    /// Leaves evaluated in all.
    pub total: u64,
    /// Most leaves of one move.
    pub most: u64,
}

impl LeafCounts {
    fn add(&mut self, leaves: u64) {
        self.moves += 1;
        self.total += leaves;
        self.most = self.most.max(leaves);
    }

    fn mean(&self) -> f64 {
        self.total as f64 / self.moves.max(1) as f64
    }
}

const ALGORITHMS: [Algorithm; 3] = [Algorithm::Minimax, Algorithm::Alphabeta, Algorithm::Mtdf];

impl TimingJob {
    /// Plays the job's games and measures every position of them with each algorithm: leaf
    /// counts per depth (minimax, alpha-beta, MTD(f), in that order) and the time they took.
    /// The games start from seeded random openings (four plies) and each side then plays
    /// alpha-beta's move at the row's depth under the course heuristic.
    pub fn measure(&self) -> Vec<([LeafCounts; 3], [Duration; 3])> {
        self.depths
            .iter()
            .map(|&depth| {
                let mut rng = SmallRng::seed_from_u64(self.seed);
                let (mut leaves, mut times) = ([LeafCounts::default(); 3], [Duration::ZERO; 3]);
                for _ in 0..self.games {
                    let mut p = random_opening(&mut rng, 4);
                    while !p.game_over() {
                        if p.moves() == 0 {
                            p = p.play(Move::Pass);
                            continue;
                        }
                        for (k, algo) in ALGORITHMS.into_iter().enumerate() {
                            let t = Instant::now();
                            let (_, r) = search(&p, depth, algo, self.order);
                            times[k] += t.elapsed();
                            leaves[k].add(r.stats.leaves);
                        }
                        let m = decide(
                            &p,
                            Decider::AlphaBeta(depth),
                            HeuristicKind::Course,
                            self.order,
                            &mut rng,
                        );
                        p = p.play(m);
                    }
                }
                (leaves, times)
            })
            .collect()
    }

    /// Measures and words the result: a Markdown table of leaves per move (the file; the same
    /// on every machine) and one of milliseconds per move (the terminal).
    pub fn run(&self) -> JobOutput {
        let rows = self.measure();
        let mut text = format!(
            "Leaves evaluated per move, course heuristic, {:?} move order, {} game(s) from seeded openings (seed {}).\n\n\
             | depth | moves | minimax mean | minimax most | alpha-beta mean | alpha-beta most | MTD(f) mean | MTD(f) most | alpha-beta saves |\n\
             |---|---|---|---|---|---|---|---|---|\n",
            self.order, self.games, self.seed
        );
        let mut summary = String::from("ms per move (minimax / alpha-beta / MTD(f)):");
        for (&depth, (leaves, times)) in self.depths.iter().zip(&rows) {
            let [mm, ab, mt] = leaves;
            let saved = 100.0 * (1.0 - ab.total as f64 / mm.total.max(1) as f64);
            let _ = writeln!(
                text,
                "| {depth} | {} | {:.1} | {} | {:.1} | {} | {:.1} | {} | {saved:.1}% |",
                mm.moves,
                mm.mean(),
                mm.most,
                ab.mean(),
                ab.most,
                mt.mean(),
                mt.most
            );
            let ms = |k: usize| times[k].as_secs_f64() * 1e3 / leaves[k].moves.max(1) as f64;
            let _ = write!(summary, " d{depth} {:.2}/{:.2}/{:.2}", ms(0), ms(1), ms(2));
        }
        JobOutput { text, summary }
    }
}

/// Endgame positions from the project's own games: for each entry of `empties`, `count` games
/// from seeded random openings (four plies) played by alpha-beta at depth 3 with the improved
/// heuristic, each stopped at the first position with that many empties whose side to move
/// has a move. Returns OBF lines without scores (`board side;`).
///
/// ```
/// let lines = othello::run::generate_positions(&[10, 12], 2, 7);
/// assert_eq!(lines.len(), 4);
/// let p: othello::Position = lines[0].parse().unwrap();
/// assert_eq!(p.empties(), 10);
/// assert_eq!(lines, othello::run::generate_positions(&[10, 12], 2, 7)); // seeded
/// ```
pub fn generate_positions(empties: &[u32], count: usize, seed: u64) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for &target in empties {
        let mut found = 0;
        while found < count {
            let mut p = random_opening(&mut rng, 4);
            while !p.game_over() && p.empties() > target {
                let m = if p.moves() == 0 {
                    Move::Pass
                } else {
                    decide(
                        &p,
                        Decider::AlphaBeta(3),
                        HeuristicKind::Improved,
                        MoveOrder::Mobility,
                        &mut rng,
                    )
                };
                p = p.play(m);
            }
            if p.empties() == target && p.moves() != 0 {
                out.push(format!("{p};"));
                found += 1;
            }
        }
    }
    out
}

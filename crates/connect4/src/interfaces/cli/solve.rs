//! Solving and analysing: `solve` (the perfect 7x6 solver on Pons' test lines) and `analyze`
//! (where a game was decided).

use crate::engine::GameState;
use crate::rules::board::Board;
use crate::solver7x6::{Position, Solver};
use anyhow::{anyhow, Result};
use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// File of positions (default: stdin).
    file: Option<PathBuf>,
    /// Compare with the score given on each line; exit 1 on any difference.
    #[arg(long)]
    check: bool,
    /// Only the sign of the score (win/draw/loss).
    #[arg(long)]
    weak: bool,
    /// Print the score of every column instead (-1000 = full), as Pons' `-a`.
    #[arg(long)]
    analyze: bool,
}

impl SolveArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let SolveArgs {
            file,
            check,
            weak,
            analyze,
        } = self;

        let reader: Box<dyn BufRead> = match &file {
            Some(p) => Box::new(std::io::BufReader::new(
                std::fs::File::open(p).map_err(|e| anyhow!("{}: {e}", p.display()))?,
            )),
            None => Box::new(std::io::stdin().lock()),
        };
        solve(
            reader,
            file.as_ref()
                .map_or("stdin".into(), |p| p.display().to_string()),
            check,
            weak,
            analyze,
        )
    }
}

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// Board size, ROWSxCOLUMNS (4..12 each), e.g. 9x12.
    #[arg(long)]
    size: String,
    /// The forbidden cell, ROW,COLUMN from the top left (0-based), e.g. 2,7.
    #[arg(long)]
    obstacle: String,
    /// Proof time per position in milliseconds.
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Prove only the positions after this many moves (the earlier ones are just played).
    #[arg(long, default_value_t = 0)]
    from: usize,
    /// The columns played, from 0, first mover first (`compete --moves` prints them).
    #[arg(required = true, num_args = 1..)]
    moves: Vec<usize>,
}

impl AnalyzeArgs {
    /// Runs the subcommand; returns the exit code.
    pub fn run(self) -> Result<i32> {
        let AnalyzeArgs {
            size,
            obstacle,
            time_ms,
            from,
            moves,
        } = self;

        let board = parse_board(&size, &obstacle)?;
        let start = GameState::new(board, 1);
        let per_position = Duration::from_millis(time_ms);
        // A `--from` past the end still proves the final position.
        let from = from.min(moves.len());
        let verdicts = crate::engine::analyze::analyze(&start, &moves, from, per_position)
            .map_err(|e| anyhow!(e))?;
        print!("{}", analysis_text(&verdicts, &moves));
        Ok(0)
    }
}

/// `connect4 solve`: every line of `reader` (`moves [score]`) solved in turn. A line that is
/// not a position (or too long, or not text) is reported with `name:line` and counted as
/// failed, and the lines after it are still solved; the exit code is 1 if any line failed.
fn solve(
    mut reader: Box<dyn BufRead>,
    name: String,
    check: bool,
    weak: bool,
    analyze: bool,
) -> Result<i32> {
    let mut solver = Solver::default();
    let (mut n, mut wrong, mut unreadable, mut explored) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut line = String::new();
    let mut number = 0;
    loop {
        number += 1;
        match batch::read_line_capped(&mut reader, &mut line, number) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                unreadable += 1;
                // A line too long to read is the end of what can be read from this input.
                if e.contains("longer than") {
                    break;
                }
                continue;
            }
        }
        let mut words = line.split_whitespace();
        let Some(moves) = words.next() else { continue };
        if moves.starts_with('#') {
            continue;
        }
        let given = Position::parse(moves).and_then(|p| match words.next() {
            None => Ok((p, None)),
            Some(w) => w
                .parse::<i32>()
                .map(|g| (p, Some(g)))
                .map_err(|_| format!("`{}` is not a score", batch::shown(w))),
        });
        let (pos, given) = match given {
            Ok(ok) => ok,
            Err(e) => {
                eprintln!("error: {name}:{number}: {e}");
                unreadable += 1;
                continue;
            }
        };
        solver.reset_counter();
        if analyze {
            let scores: Vec<String> = solver
                .analyze(&pos, weak)
                .iter()
                .map(|s| s.unwrap_or(-1000).to_string())
                .collect();
            println!("{moves} {}", scores.join(" "));
            continue;
        }
        let score = solver.solve(&pos, weak);
        explored += solver.explored();
        n += 1;
        let expected = given.map(|g| if weak { g.signum() } else { g });
        if check {
            match expected {
                Some(e) if e != score => {
                    wrong += 1;
                    println!("{moves} {score} (expected {e})");
                }
                None => {
                    wrong += 1;
                    println!("{moves} {score} (no score listed to check against)");
                }
                _ => {}
            }
        } else {
            println!("{moves} {score}");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if n > 0 {
        eprintln!(
            "{name}: {n} positions, mean {:.3} ms and {:.0} positions explored per position, {:.0} K pos/s",
            secs * 1e3 / n as f64,
            explored as f64 / n as f64,
            explored as f64 / secs.max(1e-9) / 1e3
        );
    }
    if unreadable > 0 {
        let lines = if unreadable == 1 { "line" } else { "lines" };
        eprintln!("{name}: {n} positions solved, {unreadable} {lines} unreadable");
    }
    if check {
        println!("{} passed, {} failed", n - wrong, wrong + unreadable);
        if n + unreadable == 0 {
            eprintln!("error: {name}: nothing to check");
            return Ok(1);
        }
    }
    Ok(i32::from(wrong + unreadable > 0))
}

/// Two numbers separated by `sep` (`what` names the option in messages).
fn parse_pair(text: &str, sep: char, what: &str) -> Result<(usize, usize)> {
    let (a, b) = text
        .split_once(sep)
        .ok_or_else(|| anyhow!("{what} '{text}': expected two numbers separated by '{sep}'"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| anyhow!("{what} '{text}': '{t}' is not a number"))
    };
    Ok((num(a)?, num(b)?))
}

/// Rows and columns from `ROWSxCOLUMNS`, each 4 to 12.
pub(super) fn parse_size(size: &str) -> Result<(usize, usize)> {
    let (m, n) = parse_pair(size, 'x', "--size")?;
    if !(4..=12).contains(&m) || !(4..=12).contains(&n) {
        return Err(anyhow!("--size {size}: rows and columns must be 4 to 12"));
    }
    Ok((m, n))
}

/// A board from `ROWSxCOLUMNS` and `ROW,COLUMN` of the obstacle, checked.
pub(super) fn parse_board(size: &str, obstacle: &str) -> Result<Board> {
    let (m, n) = parse_size(size)?;
    let (no_x, no_y) = parse_pair(obstacle, ',', "--obstacle")?;
    if no_x >= m || no_y >= n {
        return Err(anyhow!("--obstacle {obstacle}: outside the {m}x{n} board"));
    }
    Ok(Board::new(m, n, no_x, no_y))
}

/// The analysis as a table, one line per position, then the move that decided the game.
fn analysis_text(verdicts: &[crate::engine::analyze::Verdict], moves: &[usize]) -> String {
    use crate::engine::analyze::{FillUp, Proof};
    use std::fmt::Write;
    let side = |p: u8| if p == 1 { "first" } else { "second" };
    let mut out = String::from("ply  to move  then plays  fill-up  proven\n");
    for v in verdicts {
        let proof = match v.proof {
            Proof::Win { winner, plies } => {
                let unit = if plies == 1 { "ply" } else { "plies" };
                format!("{} wins in {plies} {unit}", side(winner))
            }
            Proof::WinBeyond { winner, searched } => format!(
                "{} wins in more than {searched} plies (proof-number search)",
                side(winner)
            ),
            Proof::Draw => "draw".to_string(),
            Proof::Open { searched } => format!("open (no forced win within {searched} plies)"),
            Proof::Over { winner: Some(w) } => format!("game over: {} won", side(w)),
            Proof::Over { winner: None } => "game over: draw".to_string(),
        };
        let next = moves.get(v.ply).map_or("-".to_string(), |y| y.to_string());
        let fill_up = match v.fill_up {
            Some(FillUp::Win(w)) => side(w),
            Some(FillUp::Draw) => "draw",
            Some(FillUp::Unsolved) => "?",
            None => "-",
        };
        let _ = writeln!(
            out,
            "{:>3}  {:<7}  {next:>10}  {fill_up:<7}  {proof}",
            v.ply,
            side(v.to_move)
        );
    }
    out.push_str(
        "fill-up: who wins if the columns fill up with the threats now on the board and nobody \
         makes a new one (the zugzwang a long game turns on; a guide, not a proof)\n",
    );
    match crate::engine::analyze::losing_move(verdicts) {
        Some(ply) => {
            // The position the deciding move was played from is among the verdicts.
            let mover = verdicts
                .iter()
                .find(|v| v.ply == ply)
                .expect("losing_move names an analysed position")
                .to_move;
            let _ = writeln!(
                out,
                "decided by move {} (column {}, {} player): the winner forces the win from then on",
                ply + 1,
                moves[ply],
                side(mover)
            );
        }
        None => out.push_str("no single deciding move proven\n"),
    }
    out
}

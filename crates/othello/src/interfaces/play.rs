//! Seeing and playing: the board drawn in the terminal with the legal moves marked, a human
//! against any decider (moves typed as `d3`), and the assignment's timing table (average and
//! longest time per move of minimax and alpha-beta over self-play games, as Markdown).

use crate::eval::course::{actions, status, Status};
use crate::interfaces::trace::trace_turn;
use crate::rules::position::{Color, Move, Position};
use crate::search::deciders::{decide, Decider, HeuristicKind, MoveOrder};
use rand::SeedableRng;
use search_core::SmallRng;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The board with files and ranks, `X` black, `O` white, `*` the legal moves of the side to move.
///
/// ```
/// use othello::{play::draw, Position};
/// let text = draw(&Position::default());
/// assert!(text.contains("4 . . * O X . . ."));
/// ```
pub fn draw(p: &Position) -> String {
    let (b, w) = if p.side == Color::Black {
        (p.me, p.opp)
    } else {
        (p.opp, p.me)
    };
    let moves = p.moves();
    let mut s = String::from("  a b c d e f g h\n");
    for rank in 0..8 {
        s.push_str(&format!("{}", rank + 1));
        for file in 0..8 {
            let bit = 1u64 << (rank * 8 + file);
            let c = if b & bit != 0 {
                'X'
            } else if w & bit != 0 {
                'O'
            } else if moves & bit != 0 {
                '*'
            } else {
                '.'
            };
            s.push(' ');
            s.push(c);
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "X {}  O {}  {} to move\n",
        b.count_ones(),
        w.count_ones(),
        if p.side == Color::Black { "X" } else { "O" }
    ));
    s
}

/// The computer's side of a terminal game.
#[derive(Debug, Clone)]
pub struct Computer {
    /// Who picks the computer's moves.
    pub decider: Decider,
    /// Its evaluation.
    pub heuristic: HeuristicKind,
    /// Its move order.
    pub order: MoveOrder,
    /// Seed of its tie-breaks.
    pub seed: u64,
    /// Folder for the search tree of each computer turn (fixed-depth deciders only).
    pub trace: Option<std::path::PathBuf>,
}

/// A game between a human (typing moves on `input`) and the computer; `human_black` chooses
/// colours.
pub fn human_game(
    computer: &Computer,
    human_black: bool,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<i32> {
    let Computer {
        decider,
        heuristic,
        order,
        seed,
        ..
    } = *computer;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut p = Position::default();
    while status(&p) == Status::Ongoing {
        write!(out, "\n{}", draw(&p))?;
        let human = (p.side == Color::Black) == human_black;
        let mv = if p.moves() == 0 {
            writeln!(
                out,
                "{} must pass.",
                if human { "You" } else { "The computer" }
            )?;
            Move::Pass
        } else if human {
            loop {
                write!(out, "your move: ")?;
                out.flush()?;
                let mut line = String::new();
                // Capped: an endless line on stdin is an error, not an endless read.
                if !batch::read_line_capped(&mut input, &mut line, 1).map_err(anyhow::Error::msg)? {
                    writeln!(out, "\n(end of input: game abandoned)")?;
                    return Ok(0);
                }
                match line.trim().parse::<Move>() {
                    Ok(m) if p.is_legal(m) => break m,
                    _ => {
                        let legal: Vec<String> =
                            actions(&p).iter().map(|m| m.to_string()).collect();
                        writeln!(out, "illegal move; legal: {}", legal.join(" "))?;
                    }
                }
            }
        } else {
            let m = decide(&p, decider, heuristic, order, &mut rng);
            writeln!(out, "computer plays {m}")?;
            if let Some(dir) = &computer.trace {
                if let Some(written) = trace_turn(dir, &p, decider, heuristic, order) {
                    writeln!(out, "{}", written?)?;
                }
            }
            m
        };
        p = p.play(mv);
    }
    write!(out, "\n{}", draw(&p))?;
    let (b, w) = if p.side == Color::Black {
        (p.me, p.opp)
    } else {
        (p.opp, p.me)
    };
    let diff = b.count_ones() as i32 - w.count_ones() as i32;
    let mine = if human_black { diff } else { -diff };
    writeln!(
        out,
        "{}",
        match mine.signum() {
            1 => "You win.",
            -1 => "The computer wins.",
            _ => "A draw.",
        }
    )?;
    Ok(mine)
}

/// Average and longest time per move of `decider` in self-play games from the start.
pub fn time_per_move(
    decider: Decider,
    order: MoveOrder,
    games: usize,
    seed: u64,
    cap: Duration,
) -> (Duration, Duration, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut total, mut longest, mut moves) = (Duration::ZERO, Duration::ZERO, 0usize);
    let started = Instant::now();
    for _ in 0..games {
        let mut p = Position::default();
        while status(&p) == Status::Ongoing {
            if p.moves() == 0 {
                p = p.play(Move::Pass);
                continue;
            }
            let t = Instant::now();
            let m = decide(&p, decider, HeuristicKind::Course, order, &mut rng);
            let took = t.elapsed();
            total += took;
            longest = longest.max(took);
            moves += 1;
            p = p.play(m);
            if started.elapsed() > cap {
                return (total / moves.max(1) as u32, longest, moves);
            }
        }
    }
    (total / moves.max(1) as u32, longest, moves)
}

/// The assignment's table as Markdown: minimax, alpha-beta and MTD(f) at each depth, the
/// searches visiting moves in `order` (a cell whose measurement exceeds `cap` is marked as
/// partial).
pub fn timing_table(
    depths: &[u32],
    order: MoveOrder,
    games: usize,
    seed: u64,
    cap: Duration,
) -> String {
    let mut s = String::from("| depth | minimax avg ms | minimax max ms | alpha-beta avg ms | alpha-beta max ms | MTD(f) avg ms | MTD(f) max ms |\n|---|---|---|---|---|---|---|\n");
    for &d in depths {
        let cell = |dec: Decider| {
            let (avg, max, n) = time_per_move(dec, order, games, seed, cap);
            let mark = if n < 30 * games { " (partial)" } else { "" };
            format!(
                "{:.2}{mark} | {:.2}",
                avg.as_secs_f64() * 1e3,
                max.as_secs_f64() * 1e3
            )
        };
        s.push_str(&format!(
            "| {d} | {} | {} | {} |\n",
            cell(Decider::Minimax(d)),
            cell(Decider::AlphaBeta(d)),
            cell(Decider::Mtdf(d))
        ));
    }
    s
}

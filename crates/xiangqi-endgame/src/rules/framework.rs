//! The course framework's move generator and debug printer, reproduced (spec §6.2, §7).
//!
//! The framework generates pseudo-legal moves for both colours: the horse ignores its leg, no
//! move is filtered for leaving the own king attacked, and the kings may face each other. Pieces
//! are scanned row by row from the top, left to right, each with its generator's own order
//! (chariot right, left, down, up; horse jumps (2,1), (1,2), (−1,2), (−2,1), (−2,−1), (−1,−2),
//! (1,−2), (2,−1) as (dx, dy) with dy counted downwards; the student-written pieces as the saved
//! move lists have them). A move's score is the moving piece's position-table value at the
//! destination minus at the origin. The printer writes `init: x y`, `next: x y`, `score s` per
//! move (x = column, y = row from the top).

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::{Move, Square};
use crate::rules::movegen::{in_palace, own_side};
use crate::rules::position::Position;
use crate::values::tables::position_value;
use std::fmt::Write;

/// A framework move: origin, destination and the position-table score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Position-table delta of the moving piece.
    pub score: i32,
}

/// The framework's move list for `color` (whatever side is to move in `pos`).
///
/// ```
/// use xiangqi_endgame::{framework::moves, Color, Position};
/// let p: Position = "9/4a4/1N1k1a3/5P3/9/9/9/9/9/4K4 w".parse().unwrap();
/// assert_eq!(moves(&p, Color::Red).len(), 12);
/// assert_eq!(moves(&p, Color::Black).len(), 4);
/// ```
pub fn moves(pos: &Position, color: Color) -> Vec<ScoredMove> {
    let mut out = Vec::new();
    for row in 0..10 {
        for col in 0..9 {
            let from = Square::new(row, col);
            if let Some(p) = pos.at(from) {
                if p.color == color {
                    piece_moves(pos, from, p, &mut out);
                }
            }
        }
    }
    out
}

/// Whether `to` may be entered by a piece of `color` (empty or enemy).
fn enterable(pos: &Position, color: Color, to: Square) -> bool {
    pos.at(to).is_none_or(|q| q.color != color)
}

fn piece_moves(pos: &Position, from: Square, p: Piece, out: &mut Vec<ScoredMove>) {
    let color = p.color;
    let mut push = |to: Square| {
        let score = position_value(color, p.kind, to) - position_value(color, p.kind, from);
        out.push(ScoredMove {
            mv: Move::new(from, to),
            score,
        });
    };
    // Offsets below are (dx, dy): column delta, row delta (down positive).
    let step = |dx: i32, dy: i32| from.offset(dy, dx);
    match p.kind {
        Kind::Chariot => {
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut to = step(dx, dy);
                while let Some(t) = to {
                    match pos.at(t) {
                        None => push(t),
                        Some(q) => {
                            if q.color != color {
                                push(t);
                            }
                            break;
                        }
                    }
                    to = t.offset(dy, dx);
                }
            }
        }
        Kind::Horse => {
            for (dx, dy) in [
                (2, 1),
                (1, 2),
                (-1, 2),
                (-2, 1),
                (-2, -1),
                (-1, -2),
                (1, -2),
                (2, -1),
            ] {
                if let Some(t) = step(dx, dy).filter(|&t| enterable(pos, color, t)) {
                    push(t);
                }
            }
        }
        Kind::Elephant => {
            for (dx, dy) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let eye = step(dx / 2, dy / 2);
                if let (Some(t), Some(eye)) = (step(dx, dy), eye) {
                    if pos.at(eye).is_none() && own_side(color, t) && enterable(pos, color, t) {
                        push(t);
                    }
                }
            }
        }
        Kind::Advisor => {
            for (dx, dy) in [(1, 1), (1, -1), (-1, -1), (-1, 1)] {
                if let Some(t) =
                    step(dx, dy).filter(|&t| in_palace(color, t) && enterable(pos, color, t))
                {
                    push(t);
                }
            }
        }
        Kind::King => {
            for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if let Some(t) =
                    step(dx, dy).filter(|&t| in_palace(color, t) && enterable(pos, color, t))
                {
                    push(t);
                }
            }
        }
        Kind::Pawn => {
            let fwd = crate::rules::movegen::forward(color);
            let crossed = !own_side(color, from);
            for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let allowed = if dx == 0 { dy == fwd } else { crossed };
                if let Some(t) = step(dx, dy).filter(|&t| allowed && enterable(pos, color, t)) {
                    push(t);
                }
            }
        }
        Kind::Cannon => {
            // Every square of the cannon's row left to right, then of its column top to bottom.
            let (r, c) = (from.row(), from.col());
            let targets = (0..9)
                .map(|x| Square::new(r, x))
                .chain((0..10).map(|y| Square::new(y, c)));
            for t in targets {
                if t != from && cannon_reaches(pos, color, from, t) {
                    push(t);
                }
            }
        }
    }
}

/// Whether a cannon of `color` on `from` can go to `to` on the same line: to an empty square
/// over no piece, or onto an enemy over exactly one.
fn cannon_reaches(pos: &Position, color: Color, from: Square, to: Square) -> bool {
    let (fr, fc, tr, tc) = (
        from.row() as i32,
        from.col() as i32,
        to.row() as i32,
        to.col() as i32,
    );
    let (dr, dc) = ((tr - fr).signum(), (tc - fc).signum());
    let mut between = 0;
    let (mut r, mut c) = (fr + dr, fc + dc);
    while (r, c) != (tr, tc) {
        between += pos.at(Square::new(r as usize, c as usize)).is_some() as u32;
        r += dr;
        c += dc;
    }
    match pos.at(to) {
        None => between == 0,
        Some(q) => q.color != color && between == 1,
    }
}

/// The framework's debug print of a move list (`init: x y` / `next: x y` / `score s`).
pub fn print_moves(list: &[ScoredMove]) -> String {
    let mut s = String::new();
    for m in list {
        let _ = writeln!(s, "init: {} {}", m.mv.from.col(), m.mv.from.row());
        let _ = writeln!(s, "next: {} {}", m.mv.to.col(), m.mv.to.row());
        let _ = writeln!(s, "score {}", m.score);
    }
    s
}

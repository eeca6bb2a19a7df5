//! The course's evaluation (spec §7.1): for each side, the sum over its pieces of the piece value
//! and the position-table value; the score is red minus black.
//!
//! Position tables are laid out `[file][rank from the owner's back rank]`: a red piece on row r,
//! column c reads `table[c][9 - r]`, a black piece `table[c][r]`. The `threats` variant adds the
//! framework's "next-move values" (行棋可能性): for every enemy piece a side could capture with
//! a legal move right now, the value listed for the victim's kind (king 9999, i.e. giving check;
//! chariot 500; horse and cannon 100; pawn −20; advisor and elephant 0, as the framework's map
//! has no entry for them).

use crate::movegen::pseudo_legal;
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::square::Square;
use crate::tables::*;

/// Which evaluation to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EvalKind {
    /// Piece values plus position tables (the recommended default).
    #[default]
    Course,
    /// Piece values only.
    Material,
    /// `course` plus the next-move values of the captures each side has available.
    Threats,
}

/// Framework piece values.
pub fn piece_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 10_000,
        Kind::Advisor => 10,
        Kind::Elephant => 30,
        Kind::Horse => 300,
        Kind::Chariot => 500,
        Kind::Cannon => 300,
        Kind::Pawn => 90,
    }
}

/// Framework next-move values (0 for advisor and elephant).
pub fn next_move_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 9999,
        Kind::Horse => 100,
        Kind::Chariot => 500,
        Kind::Cannon => 100,
        Kind::Pawn => -20,
        Kind::Advisor | Kind::Elephant => 0,
    }
}

fn table(kind: Kind) -> &'static [[i32; 10]; 9] {
    match kind {
        Kind::King => &KING_TABLE,
        Kind::Advisor => &ADVISOR_TABLE,
        Kind::Elephant => &ELEPHANT_TABLE,
        Kind::Horse => &HORSE_TABLE,
        Kind::Chariot => &CHARIOT_TABLE,
        Kind::Cannon => &CANNON_TABLE,
        Kind::Pawn => &PAWN_TABLE,
    }
}

/// The position-table value of a `color` `kind` on `sq`.
///
/// ```
/// use xiangqi_endgame::{eval::position_value, Color, Kind, Square};
/// // The red king's home square e0 (row 9, column 4) is worth 5; black's e9 (row 0) too.
/// assert_eq!(position_value(Color::Red, Kind::King, Square::new(9, 4)), 5);
/// assert_eq!(position_value(Color::Black, Kind::King, Square::new(0, 4)), 5);
/// ```
#[inline]
pub fn position_value(color: Color, kind: Kind, sq: Square) -> i32 {
    let rank = match color {
        Color::Red => 9 - sq.row(),
        Color::Black => sq.row(),
    };
    table(kind)[sq.col()][rank]
}

/// The evaluation from red's point of view (red minus black).
///
/// ```
/// use xiangqi_endgame::{eval::{evaluate, EvalKind}, Position};
/// let p: Position = "9/4a4/1N1k1a3/5P3/9/9/9/9/9/4K4 w".parse().unwrap();
/// assert_eq!(evaluate(&p, EvalKind::Course), 431);
/// assert_eq!(evaluate(&p, EvalKind::Material), 370);
/// ```
pub fn evaluate(pos: &Position, kind: EvalKind) -> i32 {
    if kind == EvalKind::Course {
        return pos.material();
    }
    let mut score = 0;
    for i in 0..90u8 {
        let sq = Square(i);
        if let Some(p) = pos.at(sq) {
            let mut v = piece_value(p.kind);
            if kind != EvalKind::Material {
                v += position_value(p.color, p.kind, sq);
            }
            score += if p.color == Color::Red { v } else { -v };
        }
    }
    if kind == EvalKind::Threats {
        score += threats(pos, Color::Red) - threats(pos, Color::Black);
    }
    score
}

/// Sum of next-move values of the enemy pieces `color` attacks (pseudo-legal captures).
fn threats(pos: &Position, color: Color) -> i32 {
    let mut p = pos.clone();
    p.set_side(color);
    let mut moves = Vec::with_capacity(64);
    pseudo_legal(&p, &mut moves);
    moves
        .iter()
        .filter_map(|m| p.at(m.to))
        .map(|victim| next_move_value(victim.kind))
        .sum()
}

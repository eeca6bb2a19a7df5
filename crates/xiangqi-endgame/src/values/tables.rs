//! The course framework's evaluation numbers (piece values, next-move values, position
//! tables), transcribed as data. Layout of every table: `[file][rank from the owner's back rank]`.

use crate::board::piece::{Color, Kind};
use crate::board::square::Square;

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

/// Position values of the king.
pub const KING_TABLE: [[i32; 10]; 9] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, -8, -9, 0, 0, 0, 0, 0, 0, 0],
    [5, -8, -9, 0, 0, 0, 0, 0, 0, 0],
    [1, -8, -9, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];
/// Position values of the advisor.
pub const ADVISOR_TABLE: [[i32; 10]; 9] = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 3, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
];
/// Position values of the elephant.
pub const ELEPHANT_TABLE: [[i32; 10]; 9] = [
    [0, 0, -2, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 3, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -2, 0, 0, 0, 0, 0, 0, 0],
];
/// Position values of the horse.
pub const HORSE_TABLE: [[i32; 10]; 9] = [
    [0, -3, 5, 4, 2, 2, 5, 4, 2, 2],
    [-3, 2, 4, 6, 10, 12, 20, 10, 8, 2],
    [2, 4, 6, 10, 13, 11, 12, 11, 15, 2],
    [0, 5, 7, 7, 14, 15, 19, 15, 9, 8],
    [2, -10, 4, 10, 15, 16, 12, 11, 6, 2],
    [0, 5, 7, 7, 14, 15, 19, 15, 9, 8],
    [2, 4, 6, 10, 13, 11, 12, 11, 15, 2],
    [-3, 2, 4, 6, 10, 12, 20, 10, 8, 2],
    [0, -3, 5, 4, 2, 2, 5, 4, 2, 2],
];
/// Position values of the cannon.
pub const CANNON_TABLE: [[i32; 10]; 9] = [
    [0, 0, 1, 0, -1, 0, 0, 1, 2, 4],
    [0, 1, 0, 0, 0, 0, 3, 1, 2, 4],
    [1, 2, 4, 0, 3, 0, 3, 0, 0, 0],
    [3, 2, 3, 0, 0, 0, 2, -5, -4, -5],
    [3, 2, 5, 0, 4, 4, 4, -4, -7, -6],
    [3, 2, 3, 0, 0, 0, 2, -5, -4, -5],
    [1, 2, 4, 0, 3, 0, 3, 0, 0, 0],
    [0, 1, 0, 0, 0, 0, 3, 1, 2, 4],
    [0, 0, 1, 0, -1, 0, 0, 1, 2, 4],
];
/// Position values of the chariot.
pub const CHARIOT_TABLE: [[i32; 10]; 9] = [
    [-6, 5, -2, 4, 8, 8, 6, 6, 6, 6],
    [6, 8, 8, 9, 12, 11, 13, 8, 12, 8],
    [4, 6, 4, 4, 12, 11, 13, 7, 9, 7],
    [12, 12, 12, 12, 14, 14, 16, 14, 16, 13],
    [0, 0, 12, 14, 15, 15, 16, 16, 33, 14],
    [12, 12, 12, 12, 14, 14, 16, 14, 16, 13],
    [4, 6, 4, 4, 12, 11, 13, 7, 9, 7],
    [6, 8, 8, 9, 12, 11, 13, 8, 12, 8],
    [-6, 5, -2, 4, 8, 8, 6, 6, 6, 6],
];
/// Position values of the pawn.
pub const PAWN_TABLE: [[i32; 10]; 9] = [
    [0, 0, 0, -2, 3, 10, 20, 20, 20, 0],
    [0, 0, 0, 0, 0, 18, 27, 30, 30, 0],
    [0, 0, 0, -2, 4, 22, 30, 45, 50, 0],
    [0, 0, 0, 0, 0, 35, 40, 55, 65, 2],
    [0, 0, 0, 6, 7, 40, 42, 55, 70, 4],
    [0, 0, 0, 0, 0, 35, 40, 55, 65, 2],
    [0, 0, 0, -2, 4, 22, 30, 45, 50, 0],
    [0, 0, 0, 0, 0, 18, 27, 30, 30, 0],
    [0, 0, 0, -2, 3, 10, 20, 20, 20, 0],
];

//! Squares and moves.
//!
//! A square is an index 0..90 into the board array, row-major from the top-left as the course's
//! board files are printed (row 0 is black's back rank, row 9 red's). UCI names use files a..i
//! (columns) and ranks 0..9 counted from red's side, so `h2` is row 7, column 7.

use crate::board::piece::Color;
use std::fmt;
use std::str::FromStr;

/// A board square, 0..90 (row * 9 + column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `row` (0 = top) and `col` (0 = left).
    #[inline]
    pub const fn new(row: usize, col: usize) -> Square {
        Square((row * 9 + col) as u8)
    }

    /// The square at signed coordinates, if on the board.
    #[inline]
    pub fn at(row: i32, col: i32) -> Option<Square> {
        ((0..10).contains(&row) && (0..9).contains(&col))
            .then(|| Square::new(row as usize, col as usize))
    }

    /// Row from the top, 0..10.
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    /// Column from the left, 0..9.
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square shifted by (`dr`, `dc`), if on the board.
    #[inline]
    pub fn offset(self, dr: i32, dc: i32) -> Option<Square> {
        Square::at(self.row() as i32 + dr, self.col() as i32 + dc)
    }
}

impl fmt::Display for Square {
    /// UCI name: file a..i, rank 0..9 from red's side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col() as u8) as char, 9 - self.row())
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Square, String> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !b[1].is_ascii_digit() {
            return Err(format!("`{s}` is not a square (a0..i9)"));
        }
        Ok(Square::new(
            9 - (b[1] - b'0') as usize,
            (b[0] - b'a') as usize,
        ))
    }
}

/// A move from one square to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin.
    pub from: Square,
    /// Destination.
    pub to: Square,
}

impl Move {
    /// A move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    /// UCI form, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = String;
    /// ```
    /// use xiangqi_endgame::Move;
    /// let m: Move = "h2e2".parse().unwrap();
    /// assert_eq!((m.from.row(), m.from.col(), m.to.col()), (7, 7, 4));
    /// assert_eq!(m.to_string(), "h2e2");
    /// ```
    fn from_str(s: &str) -> Result<Move, String> {
        if s.len() != 4 || !s.is_ascii() {
            return Err(format!("`{s}` is not a move like h2e2"));
        }
        Ok(Move::new(s[..2].parse()?, s[2..].parse()?))
    }
}
/// Whether `sq` is on `color`'s own side of the river.
#[inline]
pub fn own_side(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.row() >= 5,
        Color::Black => sq.row() <= 4,
    }
}

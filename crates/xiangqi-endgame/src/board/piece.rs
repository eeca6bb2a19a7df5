//! Colours, piece kinds and pieces, with the FEN letters (uppercase red, lowercase black).

use std::fmt;

/// A side. Red moves first and sits at the bottom (rows 5..9 of the board array).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Red (uppercase letters).
    Red = 0,
    /// Black (lowercase letters).
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// K: general.
    King = 0,
    /// A: advisor.
    Advisor = 1,
    /// B: elephant.
    Elephant = 2,
    /// N: horse.
    Horse = 3,
    /// R: chariot.
    Chariot = 4,
    /// C: cannon.
    Cannon = 5,
    /// P: pawn (soldier).
    Pawn = 6,
}

impl Kind {
    /// All kinds.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// The uppercase FEN letter.
    pub fn letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self as usize]
    }
}

/// A piece: colour and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// A piece.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..14 (colour-major), for tables such as Zobrist keys.
    #[inline]
    pub fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    /// Parses a FEN letter; `H` and `E` are accepted for horse and elephant.
    ///
    /// ```
    /// use xiangqi_endgame::{Piece, Color, Kind};
    /// assert_eq!(Piece::from_letter('n'), Some(Piece::new(Color::Black, Kind::Horse)));
    /// assert_eq!(Piece::from_letter('E'), Some(Piece::new(Color::Red, Kind::Elephant)));
    /// assert_eq!(Piece::from_letter('x'), None);
    /// ```
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Pawn,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// The FEN letter.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

//! Reading and writing positions: standard xiangqi FEN and the course's 10x9 board files.
//!
//! FEN lists ranks from black's back rank (top) to red's, `/`-separated, digits for runs of
//! empty squares, then the side to move (`w` or `r` for red, `b` for black); the remaining
//! fields (`- - 0 1`) are accepted and ignored. The course file is the same board expanded: the
//! first 10 non-empty lines of 9 characters (`.` empty); red is to move. `Display` writes FEN,
//! and parsing it back gives the same position.

use crate::board::piece::{Color, Piece};
use crate::board::square::Square;
use crate::rules::position::Position;
use batch::InputError;
use std::fmt;
use std::str::FromStr;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl FromStr for Position {
    type Err = InputError;

    /// Parses FEN.
    ///
    /// ```
    /// use xiangqi_endgame::{Position, START_FEN};
    /// let p: Position = START_FEN.parse().unwrap();
    /// assert_eq!(p.to_string(), START_FEN);
    /// assert!("9/9/9 w".parse::<Position>().is_err());
    /// ```
    fn from_str(fen: &str) -> Result<Position, InputError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| InputError::at(1, "empty FEN"))?;
        let side = match fields.next().unwrap_or("w") {
            "w" | "r" | "W" | "R" => Color::Red,
            "b" | "B" => Color::Black,
            s => {
                return Err(InputError::at(
                    1,
                    format!("side to move `{s}` is not w, r or b"),
                ))
            }
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(InputError::at(
                1,
                format!("FEN board has {} ranks, expected 10", ranks.len()),
            ));
        }
        let mut pos = Position::empty(side);
        for (row, rank) in ranks.iter().enumerate() {
            let mut col = 0usize;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                } else {
                    let piece = Piece::from_letter(c).ok_or_else(|| {
                        InputError::at(
                            1,
                            format!("`{c}` in rank {} is not a piece letter", row + 1),
                        )
                    })?;
                    if col >= 9 {
                        return Err(InputError::at(
                            1,
                            format!("rank {} is longer than 9 squares", row + 1),
                        ));
                    }
                    pos.set(Square::new(row, col), Some(piece));
                    col += 1;
                }
            }
            if col != 9 {
                return Err(InputError::at(
                    1,
                    format!("rank {} has {col} squares, expected 9", row + 1),
                ));
            }
        }
        check_kings(&pos, 1, &[Color::Red, Color::Black])?;
        check_squares(&pos)?;
        Ok(pos)
    }
}

/// Rejects pieces on squares no game can bring them to: an advisor off its palace's five
/// points, an elephant off its seven, a pawn behind its starting rank, or on its own side of
/// the river off its starting files (pawns move sideways only once across).
fn check_squares(pos: &Position) -> Result<(), InputError> {
    use crate::board::piece::Kind;
    for i in 0..90u8 {
        let sq = Square(i);
        let Some(p) = pos.at(sq) else { continue };
        // Rows counted from the piece's own back rank.
        let (row, col) = match p.color {
            Color::Red => (9 - sq.row(), sq.col()),
            Color::Black => (sq.row(), sq.col()),
        };
        let ok = match p.kind {
            Kind::Advisor => matches!((row, col), (0, 3) | (0, 5) | (1, 4) | (2, 3) | (2, 5)),
            Kind::Elephant => matches!(
                (row, col),
                (0, 2) | (0, 6) | (2, 0) | (2, 4) | (2, 8) | (4, 2) | (4, 6)
            ),
            Kind::Pawn => row >= 5 || (row >= 3 && col % 2 == 0),
            _ => true,
        };
        if !ok {
            return Err(InputError::at(
                1,
                format!(
                    "impossible position: a {} {:?} on {sq}, where it can never stand",
                    color_name(p.color),
                    p.kind
                ),
            ));
        }
    }
    Ok(())
}

/// Rejects boards the rules cannot make sense of: a missing king of a colour in `required`,
/// more than one king of a colour, a king outside its palace, or the side not to move in check
/// (its king could be captured). A course board file may lack the black king (the course's
/// first-release input 9 has none; the game is then over); a FEN must have both.
fn check_kings(pos: &Position, line: usize, required: &[Color]) -> Result<(), InputError> {
    for color in [Color::Red, Color::Black] {
        let kings: Vec<Square> = (0..90)
            .map(|i| Square(i as u8))
            .filter(|&s| {
                pos.at(s)
                    .is_some_and(|p| p.color == color && p.kind == crate::board::piece::Kind::King)
            })
            .collect();
        if kings.is_empty() && required.contains(&color) {
            return Err(InputError::at(
                line,
                format!("no {} king: a game needs both kings", color_name(color)),
            ));
        }
        if kings.len() > 1 {
            return Err(InputError::at(
                line,
                format!("{} kings of the same colour", kings.len()),
            ));
        }
        if let Some(&k) = kings.first() {
            if !crate::rules::movegen::in_palace(color, k) {
                return Err(InputError::at(
                    line,
                    format!("the {color:?} king on {k} is outside its palace"),
                ));
            }
        }
    }
    // The side that just moved may not have left its king attacked.
    let mut other = pos.clone();
    other.set_side(pos.side().opposite());
    if crate::rules::movegen::in_check(&other) {
        return Err(InputError::at(
            line,
            format!(
                "impossible position: the {:?} king can be captured",
                other.side()
            ),
        ));
    }
    Ok(())
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..10 {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for col in 0..9 {
                match self.at(Square::new(row, col)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        let side = if self.side() == Color::Red { 'w' } else { 'b' };
        write!(f, " {side} - - 0 1")
    }
}

/// Parses a course board file (red to move).
///
/// ```
/// use xiangqi_endgame::fen::parse_board_file;
/// let text = ".........\n....a....\n.N.k.a...\n.....P...\n.........\n.........\n.........\n.........\n.........\n....K....\n\n\n\n";
/// let p = parse_board_file(text).unwrap();
/// assert_eq!(p.to_string(), "9/4a4/1N1k1a3/5P3/9/9/9/9/9/4K4 w - - 0 1");
/// ```
pub fn parse_board_file(text: &str) -> Result<Position, InputError> {
    let mut pos = Position::empty(Color::Red);
    let mut rows = 0;
    let mut first_line = 0;
    for (n, line) in text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r').trim_end()))
    {
        if line.is_empty() {
            continue;
        }
        if rows == 10 {
            return Err(InputError::at(
                n,
                "unexpected text after the 10 board lines",
            ));
        }
        if first_line == 0 {
            first_line = n;
        }
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != 9 {
            return Err(InputError::at(
                n,
                format!("expected 9 squares, found {}", chars.len()),
            ));
        }
        for (col, &c) in chars.iter().enumerate() {
            if c == '.' {
                continue;
            }
            let piece = Piece::from_letter(c)
                .ok_or_else(|| InputError::at(n, format!("`{c}` is not a piece letter or `.`")))?;
            pos.set(Square::new(rows, col), Some(piece));
        }
        rows += 1;
    }
    if rows < 10 {
        return Err(InputError::at(
            0,
            format!("expected 10 board lines, found {rows}"),
        ));
    }
    check_kings(&pos, first_line, &[Color::Red])?;
    Ok(pos)
}

/// The board as the course prints it: 10 lines of 9 characters.
pub fn board_text(pos: &Position) -> String {
    let mut s = String::with_capacity(100);
    for row in 0..10 {
        for col in 0..9 {
            s.push(pos.at(Square::new(row, col)).map_or('.', |p| p.letter()));
        }
        s.push('\n');
    }
    s
}

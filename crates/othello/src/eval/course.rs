//! The NJU course framework's evaluation, reproduced exactly with its quirks (spec §4–§5), and
//! its move order.
//!
//! Everything is from player one's (black's) point of view: heuristic = piece + 8·move +
//! 300·corner + stability + win, where *move* counts legal squares of both sides whoever is to
//! move, *win* is ±5000 for a finished game, and *stability* (really a count of vulnerable discs)
//! walks all 46 lines of the board — rows, columns and both diagonal directions, each read as an
//! 8-cell array in which the squares of a short diagonal that fall off the board are *empty*
//! padding (the framework's quirk) while the two ends of the array count as walls.

use crate::rules::bitboard::{legal_moves, CORNERS};
use crate::rules::position::{Color, Move, Position};

/// The framework's game status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Someone can still move.
    Ongoing,
    /// Black has more discs at the end.
    PlayerOneWon,
    /// White has more discs at the end.
    PlayerTwoWon,
    /// Equal discs at the end.
    Draw,
}

/// The four terms, the win bonus and the heuristic, from black's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terms {
    /// Disc difference.
    pub piece: i32,
    /// Legal-square difference (both sides counted on the same board).
    pub mobility: i32,
    /// Corner difference.
    pub corner: i32,
    /// The framework's "stability" (vulnerable-disc count) difference.
    pub stability: i32,
    /// Game status.
    pub status: Status,
    /// The heuristic value.
    pub heuristic: i32,
}

fn black_white(p: &Position) -> (u64, u64) {
    match p.side {
        Color::Black => (p.me, p.opp),
        Color::White => (p.opp, p.me),
    }
}

/// The framework's status of a position.
pub fn status(p: &Position) -> Status {
    let (b, w) = black_white(p);
    if legal_moves(b, w) != 0 || legal_moves(w, b) != 0 {
        return Status::Ongoing;
    }
    match b.count_ones().cmp(&w.count_ones()) {
        std::cmp::Ordering::Greater => Status::PlayerOneWon,
        std::cmp::Ordering::Less => Status::PlayerTwoWon,
        std::cmp::Ordering::Equal => Status::Draw,
    }
}

/// Computes the framework's terms.
///
/// ```
/// use othello::{course::terms, Position};
/// let p = Position::default().play_sequence("f5f6e6").unwrap();
/// let t = terms(&p);
/// assert_eq!((t.piece, t.mobility, t.corner, t.stability, t.heuristic), (3, 4, 0, 2, 37));
/// ```
pub fn terms(p: &Position) -> Terms {
    let (b, w) = black_white(p);
    let piece = b.count_ones() as i32 - w.count_ones() as i32;
    let mobility = legal_moves(b, w).count_ones() as i32 - legal_moves(w, b).count_ones() as i32;
    let corner = (b & CORNERS).count_ones() as i32 - (w & CORNERS).count_ones() as i32;
    let stability = stability(b, w);
    let st = status(p);
    let win = match st {
        Status::PlayerOneWon => 5000,
        Status::PlayerTwoWon => -5000,
        _ => 0,
    };
    Terms {
        piece,
        mobility,
        corner,
        stability,
        status: st,
        heuristic: piece + 8 * mobility + 300 * corner + stability + win,
    }
}

/// Cell codes of the framework's lines.
const EMPTY: u8 = 0;
const WALL: u8 = 1;
const ONE: u8 = 2;
const TWO: u8 = 3;

fn stability(b: u64, w: u64) -> i32 {
    let cell = |x: i32, y: i32| -> u8 {
        if !(0..8).contains(&y) || !(0..8).contains(&x) {
            return EMPTY; // padding of short diagonals
        }
        let bit = 1u64 << (x * 8 + y);
        if b & bit != 0 {
            ONE
        } else if w & bit != 0 {
            TWO
        } else {
            EMPTY
        }
    };
    let mut total = 0;
    let mut line = [EMPTY; 8];
    // Rows (index = column), columns (index = row), x+y diagonals and x−y+7 diagonals (index = row).
    for k in 0..8 {
        for i in 0..8 {
            line[i as usize] = cell(k, i);
        }
        total += line_value(&line);
        for i in 0..8 {
            line[i as usize] = cell(i, k);
        }
        total += line_value(&line);
    }
    for k in 0..15 {
        for x in 0..8 {
            line[x as usize] = cell(x, k - x);
        }
        total += line_value(&line);
        for x in 0..8 {
            line[x as usize] = cell(x, x - k + 7);
        }
        total += line_value(&line);
    }
    total
}

/// One line's contribution: runs flanked by an opponent disc on one side and an empty cell on
/// the other (the array's ends count as walls).
fn line_value(line: &[u8; 8]) -> i32 {
    let mut total = 0;
    let mut i = 0;
    while i < 8 {
        let c = line[i];
        let mut j = i;
        while j < 8 && line[j] == c {
            j += 1;
        }
        if c == ONE || c == TWO {
            let left = if i == 0 { WALL } else { line[i - 1] };
            let right = if j == 8 { WALL } else { line[j] };
            let len = (j - i) as i32;
            let opp = if c == ONE { TWO } else { ONE };
            let flanked = (left == opp && right == EMPTY) || (left == EMPTY && right == opp);
            if flanked {
                total += if c == TWO { len } else { -len };
            }
        }
        i = j;
    }
    total
}

/// The framework's `getActions()` order: rows from rank 1 to rank 8, within a row files h to a;
/// a single pass when there is no square.
pub fn actions(p: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    push_actions(p, &mut out);
    out
}

/// [`actions`] appended to `out` (no allocation when `out` has room: the searches' form).
pub fn push_actions(p: &Position, out: &mut Vec<Move>) {
    let m = p.moves();
    if m == 0 {
        out.push(Move::Pass);
        return;
    }
    for rank in 0..8u8 {
        // Within a rank, files h to a: the rank's byte from its high bit down.
        let mut row = (m >> (8 * rank)) as u8;
        while row != 0 {
            let file = 7 - row.leading_zeros() as u8;
            out.push(Move::Square(rank * 8 + file));
            row &= !(1 << file);
        }
    }
}

/// The framework's text for a move (`` `0 `` for a pass).
pub fn action_text(m: Move) -> String {
    match m {
        Move::Pass => "`0".into(),
        Move::Square(_) => m.to_string(),
    }
}

//! A standard 7x6 position as two bitboards (Pons' encoding): each column uses 7 bits (6 cells
//! plus a sentinel), bit `col * 7 + row` with row 0 at the bottom. `current` holds the stones of
//! the player to move, `mask` all stones. Wins, playable cells and threats are a few shifts.

use std::fmt;

/// Board width.
pub const WIDTH: usize = 7;
/// Board height.
pub const HEIGHT: usize = 6;
/// Smallest possible score.
pub const MIN_SCORE: i32 = -((WIDTH * HEIGHT) as i32) / 2 + 3;
/// Largest possible score.
pub const MAX_SCORE: i32 = ((WIDTH * HEIGHT) as i32 + 1) / 2 - 3;

const fn bottom_mask() -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH {
        m |= 1 << (c * (HEIGHT + 1));
        c += 1;
    }
    m
}
const BOTTOM: u64 = bottom_mask();
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// A 7x6 position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Position {
    current: u64,
    mask: u64,
    moves: u32,
}

#[inline]
const fn top_mask(col: usize) -> u64 {
    (1 << (HEIGHT - 1)) << (col * (HEIGHT + 1))
}
#[inline]
const fn bottom_mask_col(col: usize) -> u64 {
    1 << (col * (HEIGHT + 1))
}
/// The cells of column `col`.
#[inline]
pub const fn column_mask(col: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (col * (HEIGHT + 1))
}

impl Position {
    /// Parses Pons' notation (1-based columns). Fails on an off-board move, a full column or a
    /// move that completes a four, as his solver does.
    ///
    /// ```
    /// use connect4::solver7x6::Position;
    /// assert_eq!(Position::parse("4455").unwrap().moves(), 4);
    /// assert!(Position::parse("8").is_err());
    /// assert!(Position::parse("1111111").is_err()); // seventh stone in a full column
    /// ```
    pub fn parse(seq: &str) -> Result<Position, String> {
        let mut p = Position::default();
        for (i, ch) in seq.chars().enumerate() {
            let col = ch
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| (1..=WIDTH).contains(&d))
                .ok_or_else(|| format!("move {}: `{ch}` is not a column 1..7", i + 1))?
                - 1;
            if !p.can_play(col) {
                return Err(format!("move {}: column {} is full", i + 1, col + 1));
            }
            if p.is_winning_move(col) {
                return Err(format!(
                    "move {}: column {} completes a four (the game is over)",
                    i + 1,
                    col + 1
                ));
            }
            p.play_col(col);
        }
        Ok(p)
    }

    /// Stones played.
    #[inline]
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// A unique key (current + mask, as Pons uses).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// Whether column `col` has room.
    #[inline]
    pub fn can_play(&self, col: usize) -> bool {
        self.mask & top_mask(col) == 0
    }

    /// Plays column `col`.
    #[inline]
    pub fn play_col(&mut self, col: usize) {
        self.play((self.mask + bottom_mask_col(col)) & column_mask(col));
    }

    /// Plays the single-bit move `mv`.
    #[inline]
    pub fn play(&mut self, mv: u64) {
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
    }

    /// Whether playing `col` wins at once.
    #[inline]
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.winning_position() & self.possible() & column_mask(col) != 0
    }

    /// Whether the player to move can win at once.
    #[inline]
    pub fn can_win_next(&self) -> bool {
        self.winning_position() & self.possible() != 0
    }

    /// Playable cells.
    #[inline]
    pub fn possible(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// Moves that do not hand the opponent an immediate win.
    #[inline]
    pub fn possible_non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let opponent_win = self.opponent_winning_position();
        let forced = possible & opponent_win;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats: lost
            }
            possible = forced;
        }
        possible & !(opponent_win >> 1)
    }

    /// Number of winning spots `mv` would create for the player to move (move ordering).
    #[inline]
    pub fn move_score(&self, mv: u64) -> u32 {
        compute_winning_position(self.current | mv, self.mask).count_ones()
    }

    #[inline]
    fn winning_position(&self) -> u64 {
        compute_winning_position(self.current, self.mask)
    }

    #[inline]
    fn opponent_winning_position(&self) -> u64 {
        compute_winning_position(self.current ^ self.mask, self.mask)
    }
}

/// Empty cells that would complete a four for the stones `position`.
#[inline]
fn compute_winning_position(position: u64, mask: u64) -> u64 {
    let h = HEIGHT as u32;
    // vertical
    let mut r = (position << 1) & (position << 2) & (position << 3);
    for shift in [h + 1, h, h + 2] {
        // horizontal (h+1), diagonal (h), anti-diagonal (h+2)
        let mut p = (position << shift) & (position << (2 * shift));
        r |= p & (position << (3 * shift));
        r |= p & (position >> shift);
        p = (position >> shift) & (position >> (2 * shift));
        r |= p & (position << shift);
        r |= p & (position >> (3 * shift));
    }
    r & (BOARD ^ mask)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first_to_move = self.moves.is_multiple_of(2);
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let bit = 1u64 << (col * (HEIGHT + 1) + row);
                let c = if self.mask & bit == 0 {
                    '.'
                } else if (self.current & bit != 0) == first_to_move {
                    'X'
                } else {
                    'O'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

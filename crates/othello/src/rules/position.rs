//! A position: the side to move's discs, the opponent's discs, and which colour moves; read and
//! written in Edax's OBF board form (64 squares a1..h1, a2..h8 with `X` black, `O` white, `-`
//! empty, then the side to move). Moves are written `d3`; a pass is `pass` here (the course
//! framework prints it `` `0 ``).

use crate::rules::bitboard::{flips, legal_moves, symmetric_boards};
use std::fmt;
use std::str::FromStr;

/// A colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black: moves first, `X`.
    Black,
    /// White: `O`.
    White,
}

impl Color {
    /// The other colour.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A move: a square 0..64 or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Play on square i (a1 = 0 … h8 = 63).
    Square(u8),
    /// No legal square: pass.
    Pass,
}

/// Sorts `moves` by `key`, lowest first, equal keys in their current order: each key computed
/// once, then an insertion sort of (key, move) pairs on the stack (no allocation; move lists
/// are short). The move ordering of the endgame solver and of its ordering searches.
pub(crate) fn sort_moves_by_key(moves: &mut [Move], mut key: impl FnMut(&Move) -> i32) {
    let mut keyed = [(0i32, Move::Pass); 64];
    let n = moves.len().min(64);
    for (slot, mv) in keyed.iter_mut().zip(moves.iter()) {
        *slot = (key(mv), *mv);
    }
    for i in 1..n {
        let item = keyed[i];
        let mut j = i;
        while j > 0 && keyed[j - 1].0 > item.0 {
            keyed[j] = keyed[j - 1];
            j -= 1;
        }
        keyed[j] = item;
    }
    for (mv, (_, sorted)) in moves.iter_mut().zip(keyed.iter()) {
        *mv = *sorted;
    }
}

/// A square as its number, a pass as 64: how a shared transposition table keeps a move.
impl search_core::PackedMove for Move {
    fn pack(self) -> u16 {
        match self {
            Move::Square(s) => s as u16,
            Move::Pass => 64,
        }
    }
    fn unpack(bits: u16) -> Move {
        if bits < 64 {
            Move::Square(bits as u8)
        } else {
            Move::Pass
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => write!(f, "pass"),
            Move::Square(s) => write!(f, "{}{}", (b'a' + s % 8) as char, s / 8 + 1),
        }
    }
}

impl FromStr for Move {
    type Err = String;
    /// Parses `d3` (any case), or `pass`/`PS`/`` `0 ``.
    fn from_str(s: &str) -> Result<Move, String> {
        let t = s.trim().to_ascii_lowercase();
        if t == "pass" || t == "ps" || t == "`0" {
            return Ok(Move::Pass);
        }
        let b = t.as_bytes();
        if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            return Ok(Move::Square((b[1] - b'1') * 8 + (b[0] - b'a')));
        }
        Err(format!("`{s}` is not a move like d3 or pass"))
    }
}

/// An Othello position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Discs of the side to move.
    pub me: u64,
    /// Discs of the other side.
    pub opp: u64,
    /// Colour of the side to move.
    pub side: Color,
}

impl Default for Position {
    /// The standard start: black to move, d5/e4 black, d4/e5 white.
    fn default() -> Self {
        Position {
            me: (1 << 35) | (1 << 28),
            opp: (1 << 27) | (1 << 36),
            side: Color::Black,
        }
    }
}

impl Position {
    /// Legal squares of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        legal_moves(self.me, self.opp)
    }

    /// The positions of a pseudo-random game from the start, the start first and the finished
    /// game last: each move drawn by a xorshift generator from `seed` (which must not be 0), a
    /// side with no move passing. Tests and benches use it for many varied legal positions.
    ///
    /// ```
    /// use othello::Position;
    /// let game: Vec<Position> = Position::random_game(7).collect();
    /// assert_eq!(game[0], Position::default());
    /// assert!(game.last().unwrap().game_over());
    /// assert_eq!(game, Position::random_game(7).collect::<Vec<_>>());
    /// ```
    pub fn random_game(seed: u64) -> impl Iterator<Item = Position> {
        let mut x = seed;
        let mut next = Some(Position::default());
        std::iter::from_fn(move || {
            let p = next?;
            next = (!p.game_over()).then(|| {
                let m = p.moves();
                if m == 0 {
                    return p.play(Move::Pass);
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let k = (x % u64::from(m.count_ones())) as u32;
                p.play(Move::Square(crate::rules::bitboard::nth_square(m, k)))
            });
            Some(p)
        })
    }

    /// Whether neither side can move.
    pub fn game_over(&self) -> bool {
        self.moves() == 0 && legal_moves(self.opp, self.me) == 0
    }

    /// The position after `mv` (which must be legal; a pass only when no square is).
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        match mv {
            Move::Pass => Position {
                me: self.opp,
                opp: self.me,
                side: self.side.other(),
            },
            Move::Square(s) => {
                let f = flips(self.me, self.opp, s as u32);
                Position {
                    me: self.opp ^ f,
                    opp: self.me | f | (1 << s),
                    side: self.side.other(),
                }
            }
        }
    }

    /// Appends the legal moves to `out`: each square in increasing order, or a pass when
    /// there is none and the game goes on.
    ///
    /// ```
    /// use othello::{Move, Position};
    /// let mut moves = Vec::new();
    /// Position::default().push_moves(&mut moves);
    /// assert_eq!(moves.len(), 4);
    /// assert!(moves.iter().all(|&m| Position::default().is_legal(m)));
    /// ```
    #[inline]
    pub fn push_moves(&self, out: &mut Vec<Move>) {
        let mut bits = self.moves();
        if bits == 0 {
            if !self.game_over() {
                out.push(Move::Pass);
            }
            return;
        }
        while bits != 0 {
            out.push(Move::Square(bits.trailing_zeros() as u8));
            bits &= bits - 1;
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Pass => self.moves() == 0 && !self.game_over(),
            Move::Square(s) => self.moves() >> s & 1 == 1,
        }
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.me | self.opp)).count_ones()
    }

    /// The least of the position's eight images under the symmetries of the board (same side
    /// to move): two positions are the same game turned or reflected exactly when their
    /// canonical forms are equal.
    ///
    /// ```
    /// use othello::position::Position;
    /// let start = Position::default();
    /// // The four first moves are one move turned and reflected.
    /// let firsts: Vec<Position> = ["d3", "c4", "f5", "e6"]
    ///     .iter()
    ///     .map(|m| start.play_sequence(m).unwrap().canonical())
    ///     .collect();
    /// assert!(firsts.iter().all(|p| *p == firsts[0]));
    /// assert_ne!(start.play_sequence("d3c3").unwrap().canonical(),
    ///            start.play_sequence("d3c5").unwrap().canonical());
    /// ```
    pub fn canonical(&self) -> Position {
        let (me, opp) = (symmetric_boards(self.me), symmetric_boards(self.opp));
        let k = (0..8).min_by_key(|&k| (me[k], opp[k])).unwrap_or(0);
        Position {
            me: me[k],
            opp: opp[k],
            side: self.side,
        }
    }

    /// Final score for the side to move when the game is over: disc difference with the empty
    /// squares given to the winner (the OBF/FFO convention).
    pub fn final_score(&self) -> i32 {
        let (a, b) = (self.me.count_ones() as i32, self.opp.count_ones() as i32);
        let e = 64 - a - b;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => a - b + e,
            std::cmp::Ordering::Less => a - b - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Plays a sequence like `f5d6c3` (or with spaces); passes are inserted where forced.
    ///
    /// ```
    /// use othello::Position;
    /// let p = Position::default().play_sequence("f5d6c3").unwrap();
    /// assert_eq!(p.empties(), 57);
    /// ```
    pub fn play_sequence(&self, seq: &str) -> Result<Position, String> {
        let mut p = *self;
        let clean: String = seq.chars().filter(|c| !c.is_whitespace()).collect();
        let bytes = clean.as_bytes();
        let mut i = 0;
        while i + 2 <= bytes.len() {
            let mv: Move = clean[i..i + 2].parse()?;
            if p.moves() == 0 && !p.game_over() {
                p = p.play(Move::Pass);
            }
            if !p.is_legal(mv) {
                return Err(format!("move {} ({mv}) is illegal", i / 2 + 1));
            }
            p = p.play(mv);
            i += 2;
        }
        if i != bytes.len() {
            return Err(format!("`{clean}` has a dangling character"));
        }
        Ok(p)
    }

    fn black_white(&self) -> (u64, u64) {
        match self.side {
            Color::Black => (self.me, self.opp),
            Color::White => (self.opp, self.me),
        }
    }
}

impl FromStr for Position {
    type Err = String;
    /// Parses an OBF board: 64 squares (`X x b *` black, `O o w` white, `- .` empty), then the
    /// side to move (`X`/`B` or `O`/`W`); anything after a `;` is ignored.
    ///
    /// ```
    /// use othello::Position;
    /// let text = "---------------------------OX------XO--------------------------- X";
    /// let p: Position = text.parse().unwrap();
    /// assert_eq!(p, Position::default());
    /// assert_eq!(p.to_string(), text);
    /// ```
    fn from_str(s: &str) -> Result<Position, String> {
        let body = s.split(';').next().unwrap_or("").trim();
        let mut chars = body.chars().filter(|c| !c.is_whitespace());
        let (mut black, mut white) = (0u64, 0u64);
        for i in 0..64 {
            match chars.next() {
                Some('X' | 'x' | 'b' | '*') => black |= 1 << i,
                Some('O' | 'o' | 'w') => white |= 1 << i,
                Some('-' | '.') => {}
                Some(c) => return Err(format!("square {}: `{c}` is not X, O or -", i + 1)),
                None => return Err(format!("only {i} squares, expected 64")),
            }
        }
        let side = match chars.next() {
            Some('X' | 'x' | 'B' | 'b' | '*') => Color::Black,
            Some('O' | 'o' | 'W' | 'w') => Color::White,
            Some(c) => return Err(format!("side to move `{c}` is not X or O")),
            None => return Err("missing the side to move".into()),
        };
        if chars.next().is_some() {
            return Err("unexpected text after the side to move".into());
        }
        Ok(match side {
            Color::Black => Position {
                me: black,
                opp: white,
                side,
            },
            Color::White => Position {
                me: white,
                opp: black,
                side,
            },
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, w) = self.black_white();
        for i in 0..64 {
            let c = if b >> i & 1 == 1 {
                'X'
            } else if w >> i & 1 == 1 {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        write!(f, " {}", if self.side == Color::Black { 'X' } else { 'O' })
    }
}

/// A hash of (own discs, other discs) for transposition tables.
pub fn position_hash(p: &Position) -> u64 {
    use search_core::hash::mix64;
    mix64(p.me) ^ mix64(p.opp ^ 0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// A search's way through the game: the current position and the positions before it, so that
/// a move is taken back by popping (the searches' `Game` implementations hold one).
#[derive(Debug, Clone)]
pub(crate) struct Line {
    /// The position reached.
    pub cur: Position,
    stack: Vec<Position>,
}

impl Line {
    /// Starts at `p`, with room for `depth` moves before the stack grows.
    pub fn new(p: Position, depth: usize) -> Line {
        Line {
            cur: p,
            stack: Vec::with_capacity(depth),
        }
    }

    /// Plays `mv`.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.stack.push(self.cur);
        self.cur = self.cur.play(mv);
    }

    /// Takes back the last move.
    #[inline]
    pub fn pop(&mut self) {
        self.cur = self.stack.pop().expect("a move to undo");
    }

    /// Moves played since the start.
    #[inline]
    pub fn ply(&self) -> usize {
        self.stack.len()
    }

    /// The position `ply` moves after the start (at most [`Line::ply`]).
    #[inline]
    pub fn at(&self, ply: usize) -> &Position {
        self.stack.get(ply).unwrap_or(&self.cur)
    }

    /// Starts again at `p`, keeping the stack's room.
    pub fn reset(&mut self, p: Position) {
        self.cur = p;
        self.stack.clear();
    }
}

//! A position: the 90-square board, the side to move, both kings' squares and a Zobrist hash
//! kept up to date by [`Position::make`] / [`Position::unmake`] (make/unmake with an undo stack,
//! so searches never copy boards).

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::{Move, Square};
use std::sync::OnceLock;

/// What [`Position::unmake`] needs to restore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
}

/// A xiangqi position.
#[derive(Debug, Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    side: Color,
    kings: [Option<Square>; 2],
    hash: u64,
    /// The course evaluation (piece values plus position tables, red minus black), kept up to
    /// date incrementally so that leaves cost nothing to evaluate.
    material: i32,
    /// The learned piece-square tables' sums, red minus black, with every attacking piece on
    /// the board and with none ([`crate::values::piece_square`]), kept up to date the same way.
    tables: [i32; 2],
    /// How many pieces of each kind each side has (`[color][kind]`), and how many of its pawns
    /// have crossed the river, for the evaluation's phase and king-safety terms.
    census: [[u8; 7]; 2],
    crossed_pawns: [u8; 2],
    history: Vec<Undo>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.side == other.side
    }
}
impl Eq for Position {}

/// A piece's contribution to [`Position::material`] (positive for red).
#[inline]
fn worth(p: Piece, sq: Square) -> i32 {
    let v = crate::values::tables::piece_value(p.kind)
        + crate::values::tables::position_value(p.color, p.kind, sq);
    if p.color == Color::Red {
        v
    } else {
        -v
    }
}

/// Whether `p` on `sq` is a pawn across the river (on the enemy's half).
#[inline]
fn is_crossed_pawn(p: Piece, sq: Square) -> bool {
    p.kind == Kind::Pawn && !crate::board::square::own_side(p.color, sq)
}

struct Zobrist {
    pieces: [[u64; 90]; 14],
    black_to_move: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        // SplitMix64 from a fixed seed: the same keys in every run.
        let mut state = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut pieces = [[0u64; 90]; 14];
        for p in pieces.iter_mut() {
            for k in p.iter_mut() {
                *k = next();
            }
        }
        Zobrist {
            pieces,
            black_to_move: next(),
        }
    })
}

impl Position {
    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Position {
        let mut p = Position {
            board: [None; 90],
            side,
            kings: [None; 2],
            hash: 0,
            material: 0,
            tables: [0; 2],
            census: [[0; 7]; 2],
            crossed_pawns: [0; 2],
            history: Vec::with_capacity(64),
        };
        p.hash = p.compute_hash();
        p
    }

    /// The piece on `sq`.
    #[inline]
    pub fn at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The whole board, row-major.
    #[inline]
    pub fn board(&self) -> &[Option<Piece>; 90] {
        &self.board
    }

    /// Puts (or removes) a piece, keeping kings and hash consistent.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let z = zobrist();
        if let Some(old) = self.board[sq.index()] {
            self.hash ^= z.pieces[old.index()][sq.index()];
            self.material -= worth(old, sq);
            self.add_tables(old, sq, -1);
            self.count(old, sq, -1);
            if old.kind == Kind::King && self.kings[old.color as usize] == Some(sq) {
                self.kings[old.color as usize] = None;
            }
        }
        self.board[sq.index()] = piece;
        if let Some(p) = piece {
            self.hash ^= z.pieces[p.index()][sq.index()];
            self.material += worth(p, sq);
            self.add_tables(p, sq, 1);
            self.count(p, sq, 1);
            if p.kind == Kind::King {
                self.kings[p.color as usize] = Some(sq);
            }
        }
    }

    /// Adds `sign` (±1) times `p` on `sq` to the piece-square sums.
    #[inline]
    fn add_tables(&mut self, p: Piece, sq: Square, sign: i32) {
        let [opening, endgame] = crate::values::piece_square::worth(p, sq);
        self.tables[0] += sign * opening;
        self.tables[1] += sign * endgame;
    }

    /// Moves `p`'s contribution to the piece-square sums from `from` to `to`.
    #[inline]
    fn move_tables(&mut self, p: Piece, from: Square, to: Square) {
        let [o1, e1] = crate::values::piece_square::worth(p, from);
        let [o2, e2] = crate::values::piece_square::worth(p, to);
        self.tables[0] += o2 - o1;
        self.tables[1] += e2 - e1;
    }

    /// Adds `delta` (±1) to the census for `p` on `sq`.
    #[inline]
    fn count(&mut self, p: Piece, sq: Square, delta: i8) {
        let c = &mut self.census[p.color as usize][p.kind as usize];
        *c = c.wrapping_add_signed(delta);
        if is_crossed_pawn(p, sq) {
            let c = &mut self.crossed_pawns[p.color as usize];
            *c = c.wrapping_add_signed(delta);
        }
    }

    /// How many `kind` pieces `color` has on the board.
    ///
    /// ```
    /// use xiangqi_endgame::{Color, Kind, Position, START_FEN};
    /// let p: Position = START_FEN.parse().unwrap();
    /// assert_eq!(p.count_of(Color::Red, Kind::Pawn), 5);
    /// ```
    #[inline]
    pub fn count_of(&self, color: Color, kind: Kind) -> u32 {
        self.census[color as usize][kind as usize] as u32
    }

    /// How many of `color`'s pawns stand across the river.
    ///
    /// ```
    /// use xiangqi_endgame::{Color, Position};
    /// let p: Position = "4k4/9/9/4P4/2P6/9/9/9/9/4K4 w".parse().unwrap();
    /// assert_eq!(p.crossed_pawns(Color::Red), 2);
    /// ```
    #[inline]
    pub fn crossed_pawns(&self, color: Color) -> u32 {
        self.crossed_pawns[color as usize] as u32
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.side = side;
            self.hash ^= zobrist().black_to_move;
        }
    }

    /// The king of `color`, if on the board.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color as usize]
    }

    /// The course evaluation, red minus black: piece values plus position-table values.
    #[inline]
    pub fn material(&self) -> i32 {
        self.material
    }

    /// The learned piece-square tables' sums ([`crate::values::piece_square`]), red minus black: with
    /// every attacking piece on the board, and with none.
    ///
    /// ```
    /// use xiangqi_endgame::{Position, START_FEN};
    /// // The start is symmetric.
    /// assert_eq!(START_FEN.parse::<Position>().unwrap().piece_square(), [0, 0]);
    /// ```
    #[inline]
    pub fn piece_square(&self) -> [i32; 2] {
        self.tables
    }

    /// The Zobrist hash (pieces and side to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let z = zobrist();
        let mut h = if self.side == Color::Black {
            z.black_to_move
        } else {
            0
        };
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                h ^= z.pieces[p.index()][i];
            }
        }
        h
    }

    /// Number of moves made since the position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Plays `mv` (which must move a piece of the side to move); captures what stands on the
    /// target.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        let z = zobrist();
        let piece = self.board[mv.from.index()].expect("a move starts on a piece");
        let captured = self.board[mv.to.index()];
        if let Some(c) = captured {
            self.hash ^= z.pieces[c.index()][mv.to.index()];
            self.material -= worth(c, mv.to);
            self.add_tables(c, mv.to, -1);
            self.count(c, mv.to, -1);
            if c.kind == Kind::King {
                self.kings[c.color as usize] = None;
            }
        }
        self.material += worth(piece, mv.to) - worth(piece, mv.from);
        self.move_tables(piece, mv.from, mv.to);
        if piece.kind == Kind::Pawn {
            self.count(piece, mv.from, -1);
            self.count(piece, mv.to, 1);
        }
        self.hash ^= z.pieces[piece.index()][mv.from.index()]
            ^ z.pieces[piece.index()][mv.to.index()]
            ^ z.black_to_move;
        self.board[mv.to.index()] = Some(piece);
        self.board[mv.from.index()] = None;
        if piece.kind == Kind::King {
            self.kings[piece.color as usize] = Some(mv.to);
        }
        self.side = self.side.opposite();
        self.history.push(Undo { mv, captured });
    }

    /// Takes back the last move.
    #[inline]
    pub fn unmake(&mut self) {
        let z = zobrist();
        let Undo { mv, captured } = self.history.pop().expect("a move to take back");
        let piece = self.board[mv.to.index()].expect("the moved piece");
        self.hash ^= z.pieces[piece.index()][mv.from.index()]
            ^ z.pieces[piece.index()][mv.to.index()]
            ^ z.black_to_move;
        self.board[mv.from.index()] = Some(piece);
        self.board[mv.to.index()] = captured;
        self.material -= worth(piece, mv.to) - worth(piece, mv.from);
        self.move_tables(piece, mv.to, mv.from);
        if piece.kind == Kind::Pawn {
            self.count(piece, mv.to, -1);
            self.count(piece, mv.from, 1);
        }
        if let Some(c) = captured {
            self.hash ^= z.pieces[c.index()][mv.to.index()];
            self.material += worth(c, mv.to);
            self.add_tables(c, mv.to, 1);
            self.count(c, mv.to, 1);
            if c.kind == Kind::King {
                self.kings[c.color as usize] = Some(mv.to);
            }
        }
        if piece.kind == Kind::King {
            self.kings[piece.color as usize] = Some(mv.from);
        }
        self.side = self.side.opposite();
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }
}

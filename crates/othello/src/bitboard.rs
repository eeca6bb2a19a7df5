//! Move generation on 64-bit boards: bit i is square i (a1 = 0, b1 = 1, …, h8 = 63).
//!
//! Legal moves and the flips of one move both come from directional flood fills (six shifts per
//! direction, masked against wrapping across the a/h files), unrolled for the eight directions
//! at compile time: no loops over directions, no allocation.

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Shifts toward one direction, masking squares that wrapped around the a/h files.
macro_rules! dir_shift {
    (E, $b:expr) => {
        ($b << 1) & NOT_A
    };
    (W, $b:expr) => {
        ($b >> 1) & NOT_H
    };
    (N, $b:expr) => {
        $b << 8
    };
    (S, $b:expr) => {
        $b >> 8
    };
    (NE, $b:expr) => {
        ($b << 9) & NOT_A
    };
    (NW, $b:expr) => {
        ($b << 7) & NOT_H
    };
    (SE, $b:expr) => {
        ($b >> 7) & NOT_A
    };
    (SW, $b:expr) => {
        ($b >> 9) & NOT_H
    };
}

/// Opponent discs reachable from `from` along one direction (a flood fill through `opp`).
macro_rules! fill {
    ($d:ident, $from:expr, $opp:expr) => {{
        let mut run = dir_shift!($d, $from) & $opp;
        run |= dir_shift!($d, run) & $opp;
        run |= dir_shift!($d, run) & $opp;
        run |= dir_shift!($d, run) & $opp;
        run |= dir_shift!($d, run) & $opp;
        run |= dir_shift!($d, run) & $opp;
        run
    }};
}

/// Invokes the local macro `dir!` once per direction.
macro_rules! each_direction {
    () => {
        dir!(E);
        dir!(W);
        dir!(N);
        dir!(S);
        dir!(NE);
        dir!(NW);
        dir!(SE);
        dir!(SW);
    };
}

/// Squares where `me` may play against `opp`.
///
/// ```
/// use othello::bitboard::legal_moves;
/// // The start: black (d5, e4) to move against white (d4, e5): d3, c4, f5, e6.
/// let black = (1u64 << 35) | (1 << 28);
/// let white = (1u64 << 27) | (1 << 36);
/// assert_eq!(legal_moves(black, white).count_ones(), 4);
/// ```
#[inline]
pub fn legal_moves(me: u64, opp: u64) -> u64 {
    let empty = !(me | opp);
    let mut moves = 0;
    macro_rules! dir {
        ($d:ident) => {
            moves |= dir_shift!($d, fill!($d, me, opp)) & empty;
        };
    }
    each_direction!();
    moves
}

/// The discs flipped when `me` plays on square `sq` (0 when the move is illegal).
#[inline]
pub fn flips(me: u64, opp: u64, sq: u32) -> u64 {
    let mv = 1u64 << sq;
    let mut all = 0;
    macro_rules! dir {
        ($d:ident) => {
            let run = fill!($d, mv, opp);
            if dir_shift!($d, run) & me != 0 {
                all |= run;
            }
        };
    }
    each_direction!();
    all
}

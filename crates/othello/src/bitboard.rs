//! Move generation on 64-bit boards: bit i is square i (a1 = 0, b1 = 1, …, h8 = 63).
//!
//! Legal moves come from directional flood fills (six shifts per direction, masked against
//! wrapping across the a/h files); flips of one move from walking each of the 8 rays. Both are
//! branch-light and allocation-free.

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The 8 directions as (shift, mask applied after shifting).
const DIRS: [(i32, u64); 8] = [
    (1, NOT_A),  // east
    (-1, NOT_H), // west
    (8, !0),     // north
    (-8, !0),    // south
    (9, NOT_A),  // north-east
    (7, NOT_H),  // north-west
    (-7, NOT_A), // south-east
    (-9, NOT_H), // south-west
];

#[inline]
fn shift(b: u64, s: i32) -> u64 {
    if s > 0 {
        b << s
    } else {
        b >> -s
    }
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
    for (s, mask) in DIRS {
        let mut run = shift(me, s) & mask & opp;
        for _ in 0..5 {
            run |= shift(run, s) & mask & opp;
        }
        moves |= shift(run, s) & mask & empty;
    }
    moves
}

/// The discs flipped when `me` plays on square `sq` (0 when the move is illegal).
#[inline]
pub fn flips(me: u64, opp: u64, sq: u32) -> u64 {
    let mv = 1u64 << sq;
    let mut all = 0;
    for (s, mask) in DIRS {
        let mut line = 0;
        let mut cur = shift(mv, s) & mask;
        while cur & opp != 0 {
            line |= cur;
            cur = shift(cur, s) & mask;
        }
        if cur & me != 0 {
            all |= line;
        }
    }
    all
}

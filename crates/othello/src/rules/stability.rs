//! Stable discs: discs that no continuation of the game can flip.
//!
//! A disc can only be flipped along one of its four lines (row, column, two diagonals), and only
//! from inside a run flanked on both sides. So a disc is safe along a line when the line is full
//! (no move can be made on it), when it sits on the board's edge across that line (nothing can
//! flank it from outside), or when its neighbour along the line is a stable disc of its own
//! colour (any flipped run through it would have to flip that neighbour too). A disc safe along
//! all four lines is stable; the set grows from the corners and the full lines until nothing
//! changes. This undercounts a little (it misses some edge patterns), but every disc it reports
//! is truly stable, which is what the endgame solver's cut-off needs: the opponent's stable discs
//! bound the best score from above.

use crate::rules::bitboard::{NOT_A, NOT_H};

const FILE_A: u64 = !NOT_A;
const FILE_H: u64 = !NOT_H;
const RANK_1: u64 = 0x0000_0000_0000_00ff;
const RANK_8: u64 = 0xff00_0000_0000_0000;
const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The 15 diagonals of each sense as masks: a1-h8 direction first, then a8-h1.
const fn diagonal_masks() -> [[u64; 15]; 2] {
    let mut t = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        t[0][7 + r - c] |= 1 << sq;
        t[1][r + c] |= 1 << sq;
        sq += 1;
    }
    t
}
static DIAGONALS: [[u64; 15]; 2] = diagonal_masks();

/// Squares whose whole line is occupied, per line direction: (row, column, a1-h8 diagonal,
/// a8-h1 diagonal).
#[inline]
pub fn full_lines(occupied: u64) -> [u64; 4] {
    // A row is full when its 8 bits are set: fold the row's bits onto its a-file square.
    let mut h = occupied;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & FILE_A) * 0xff;
    // A column is full when its 8 bits are set: fold onto rank 1.
    let mut v = occupied;
    v &= v >> 8;
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & RANK_1) * FILE_A;
    let mut d = [0u64; 2];
    for (full, masks) in d.iter_mut().zip(DIAGONALS.iter()) {
        for &m in masks {
            if occupied & m == m {
                *full |= m;
            }
        }
    }
    [h, v, d[0], d[1]]
}

/// The discs of `own` that can never be flipped, given the other side's discs `other`.
///
/// ```
/// use othello::stability::stable_discs;
/// // A corner is stable, and so is a run along the edge that starts at it.
/// let own = 0b0000_0111; // a1, b1, c1
/// let other = 1 << 3; // d1
/// assert_eq!(stable_discs(own, other), own);
/// // Without the corner nothing on the edge is stable yet.
/// assert_eq!(stable_discs(0b0000_0110, 1 << 3), 0);
/// ```
pub fn stable_discs(own: u64, other: u64) -> u64 {
    let [h, v, d9, d7] = full_lines(own | other);
    // Safe along a line from the start: a full line, or the edge squares across it.
    let safe_h = h | FILE_A | FILE_H;
    let safe_v = v | RANK_1 | RANK_8;
    let safe_d9 = d9 | EDGES;
    let safe_d7 = d7 | EDGES;
    let mut stable = own & safe_h & safe_v & safe_d9 & safe_d7;
    loop {
        let next = stable
            | own
                & (safe_h | (stable << 1 & NOT_A) | (stable >> 1 & NOT_H))
                & (safe_v | stable << 8 | stable >> 8)
                & (safe_d9 | (stable << 9 & NOT_A) | (stable >> 9 & NOT_H))
                & (safe_d7 | (stable << 7 & NOT_H) | (stable >> 7 & NOT_A));
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_lines_of_a_full_board_cover_everything() {
        assert_eq!(full_lines(u64::MAX), [u64::MAX; 4]);
        // One empty square d4 leaves its row, column and both diagonals open.
        let occ = !(1u64 << 27);
        let [h, v, d9, d7] = full_lines(occ);
        assert_eq!(!h, 0xff << 24);
        assert_eq!(!v, FILE_A << 3);
        assert_eq!(!d9 & 1, 1); // a1 is on d4's a1-h8 diagonal
        assert_eq!(!d7 & (1 << 6), 1 << 6); // g1 is on its a8-h1 diagonal
    }

    #[test]
    fn a_full_board_is_all_stable() {
        let own = 0x00ff_00ff_00ff_00ff;
        assert_eq!(stable_discs(own, !own), own);
    }
}

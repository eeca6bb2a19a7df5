//! Perft from a position: leaves of the game tree `depth` plies deep, passes counting as plies
//! and a finished game counting as one leaf (the published convention).

use crate::rules::position::{Move, Position};

/// Leaf count `depth` plies below `p`.
///
/// ```
/// use othello::{perft::perft, Position};
/// assert_eq!(perft(&Position::default(), 5), 1396);
/// ```
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.moves();
    if moves == 0 {
        if p.game_over() {
            return 1;
        }
        return perft(&p.play(Move::Pass), depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        total += perft(&p.play(Move::Square(sq)), depth - 1);
    }
    total
}

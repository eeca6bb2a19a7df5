//! Perft: counting the leaves of the legal-move tree to a depth, the ground truth of move
//! generation (compared with published counts). The last ply is bulk-counted.

use crate::board::square::Move;
use crate::rules::movegen::{count_legal, legal_moves};
use crate::rules::position::Position;

/// Leaves of the legal-move tree `depth` plies deep.
///
/// ```
/// use xiangqi_endgame::{perft::perft, Position, START_FEN};
/// let mut p: Position = START_FEN.parse().unwrap();
/// assert_eq!(perft(&mut p, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..=depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return count_legal(pos, buf) as u64;
    }
    buf.clear();
    legal_moves(pos, buf);
    let mut total = 0;
    for &m in buf.iter() {
        pos.make(m);
        total += perft_with(pos, depth - 1, rest);
        pos.unmake();
    }
    total
}

/// Leaves below each legal root move (`divide`), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake();
            (m, n)
        })
        .collect()
}

//! Helpers of the unit tests: positions seen from the other side, and random games to check
//! fast code against slow code position by position.

use crate::board::square::Move;
use crate::rules::movegen::legal_moves;
use crate::rules::position::Position;
use rand::{Rng, SeedableRng};

/// `pos` seen from the other side: the board turned upside down, the colours swapped.
pub(crate) fn turned_over(pos: &Position) -> Position {
    let fen = pos.to_string();
    let (board, rest) = fen.split_once(' ').unwrap();
    let board: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if rest.starts_with('w') { "b" } else { "w" };
    format!("{} {side}", board.join("/")).parse().unwrap()
}

/// Plays `games` random games of at most `plies` legal moves from the start, drawn from
/// `seed`, and calls `visit` with every position and the move about to be played from it
/// (`None` where the game ends for want of a legal move).
pub(crate) fn random_games(
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position, Option<Move>),
) {
    let mut rng = search_core::SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos: Position = crate::rules::fen::START_FEN.parse().unwrap();
        for _ in 0..plies {
            moves.clear();
            legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                visit(&pos, None);
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            visit(&pos, Some(mv));
            pos.make(mv);
        }
    }
}

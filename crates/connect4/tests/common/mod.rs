//! Positions shared by the integration tests and the benches (the benches include this file
//! by path), so that a test and the bench measuring the same thing use the same position.

use connect4::{engine::GameState, Board};

/// A game of our engine against alphabeta:4 on an 11x11 board (obstacle at row 1, column 2),
/// 61 plies in: the second player, to move, forces four in a row in exactly 29 plies (the game
/// ended with two columns nobody could play into). The start is [`deep_win_start`].
pub const DEEP_WIN_MOVES: [usize; 61] = [
    7, 4, 3, 3, 3, 3, 4, 4, 7, 4, 8, 6, 7, 7, 6, 8, 4, 6, 0, 6, 6, 3, 3, 4, 0, 3, 6, 7, 7, 6, 7, 4,
    4, 6, 6, 7, 4, 7, 7, 2, 2, 4, 10, 9, 3, 3, 6, 0, 0, 6, 0, 7, 9, 4, 3, 3, 0, 0, 9, 9, 1,
];

/// The empty board [`DEEP_WIN_MOVES`] are played on, the first player to move.
pub fn deep_win_start() -> GameState {
    GameState::new(Board::new(11, 11, 1, 2), 1)
}

/// The position after [`DEEP_WIN_MOVES`]: the second player to move wins in 29 plies.
pub fn deep_win_position() -> GameState {
    let mut s = deep_win_start();
    for y in DEEP_WIN_MOVES {
        s.play(y);
    }
    s
}

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
    played(deep_win_start(), &DEEP_WIN_MOVES)
}

/// `start` after the columns `moves`.
pub fn played(mut start: GameState, moves: &[usize]) -> GameState {
    for &y in moves {
        start.play(y);
    }
    start
}

/// Eight middle-game positions from games of our engine (at 40 ms per move, moving first)
/// against alphabeta:4 on the course's random boards, 45% of the cells filled: `M N noX noY`
/// then the columns played. The proof-number bench asks of each whether either side wins.
pub const MIDGAME_POSITIONS: [&str; 8] = [
    "10 10 3 0 0 4 2 6 5 5 1 3 4 4 2 4 2 2 1 3 1 1 5 4 4 5 5 4 6 6 9 6 6 2 9 5 9 9 0 0 1 5 8 5 5 6 8 6",
    "9 11 7 9 0 4 1 3 5 5 8 4 4 3 7 6 6 5 9 10 5 4 4 5 8 6 6 8 4 3 3 5 4 4 3 5 5 3 0 8 10 6 6 8 8 1 0 0 8 1 1 1 10 9 9 3 10 10 3 9 3 9 6 9 9 8 9",
    "9 9 6 3 0 3 6 4 2 2 6 3 3 2 4 6 2 2 4 4 0 3 4 2 2 3 4 3 3 4 6 4 0 0 0 6 0 4 0 0 6 6 8 7 8 7 7 7 2 3 7 7 7 2 7 0",
    "12 9 7 6 0 2 5 5 6 4 1 4 7 8 5 6 7 6 5 2 2 1 5 5 5 6 2 6 2 2 1 6 4 6 6 5 4 4 5 4 4 1 5 2 5 5 2 0 2 6 2 2 4 4 0 4 4 4 0 6 1 1 8 6 8 2 1 1 1 1 1 1 0",
    "10 11 4 2 0 4 3 3 2 1 3 3 6 4 2 2 7 8 4 4 4 2 6 6 7 7 8 8 4 7 4 4 2 6 3 7 7 8 3 6 6 8 8 3 3 2 2 7 7 6 6 8 8 7 0 6 0 0 0 2 4 8 0 3 2 0 0 3 4 6 7 0 8 1",
    "11 9 10 2 0 6 4 4 6 6 4 4 6 4 2 2 0 2 7 4 4 2 2 4 6 6 7 2 7 7 7 7 7 6 6 4 4 2 2 7 6 6 8 5 8 5 5 0 8 8 8 8 1 1 8 1 8",
    "12 9 10 3 0 5 6 3 4 4 4 3 3 5 4 6 5 5 3 4 6 3 4 4 6 5 5 5 5 3 4 3 3 4 3 6 4 3 3 7 7 7 4 4 2 2 8 0 1 1 1 1 0 1 0 1 1 1 1 1 0 0",
    "12 10 5 6 0 4 3 3 2 1 0 4 0 0 3 2 1 2 2 2 3 3 0 3 3 3 6 2 6 6 8 2 2 4 4 5 5 7 8 7 7 6 6 4 0 4 8 8 2 4 4 3 3 7 7 6 6",
];

/// The positions of [`MIDGAME_POSITIONS`], player 1 moving first (for the benches).
#[allow(dead_code)]
pub fn midgame_positions() -> Vec<GameState> {
    midgame_positions_with_first_mover(1)
}

/// The positions of [`MIDGAME_POSITIONS`] with player `first` (1 or 2) moving first: the
/// same stones under either labelling.
#[allow(dead_code)]
pub fn midgame_positions_with_first_mover(first: u8) -> Vec<GameState> {
    MIDGAME_POSITIONS
        .iter()
        .map(|line| {
            let v: Vec<usize> = line.split(' ').map(|x| x.parse().unwrap()).collect();
            played(
                GameState::new(Board::new(v[0], v[1], v[2], v[3]), first),
                &v[4..],
            )
        })
        .collect()
}

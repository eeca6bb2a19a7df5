//! The course game as `search-core`'s two-player searches see it: play/undo on the board, wins
//! scored by distance, and a window-counting evaluation. Used by the `alphabeta:D` opponent and
//! by the engine's exact solver near the end of the game.

use crate::rules::board::Board;
use crate::rules::game_state::GameState;
use search_core::{Game, Score, WIN};

/// The game as `search-core`'s two-player searches see it.
pub struct Searchable {
    state: GameState,
    history: Vec<(usize, usize, Option<u8>)>,
    /// Zobrist keys: per cell, one for each player's stone.
    zobrist: Vec<[u64; 2]>,
    /// The position's key, kept up to date by play/undo (side to move mixed in by `hash`).
    key: u64,
    /// Whether unfinished positions are valued by [`window_score`] (else 0: searches that only
    /// look for forced wins need no evaluation, and it is by far the costliest part of a node).
    evaluate_windows: bool,
}

/// SplitMix64: a fixed sequence of well-mixed numbers for the Zobrist keys.
fn splitmix(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Searchable {
    /// Wraps a position.
    pub fn new(state: GameState) -> Self {
        let b = &state.board;
        let zobrist: Vec<[u64; 2]> = (0..b.m * b.n)
            .map(|c| [splitmix(2 * c as u64), splitmix(2 * c as u64 + 1)])
            .collect();
        let mut key = 0;
        for x in 0..b.m {
            for y in 0..b.n {
                if let p @ (1 | 2) = b.at(x, y) {
                    key ^= zobrist[x * b.n + y][p as usize - 1];
                }
            }
        }
        Searchable {
            state,
            history: Vec::new(),
            zobrist,
            key,
            evaluate_windows: true,
        }
    }

    /// Wraps a position for searches that only prove wins and losses: every unfinished
    /// position is valued 0, so the search spends its time on depth instead of evaluation.
    pub fn wins_only(state: GameState) -> Self {
        Searchable {
            evaluate_windows: false,
            ..Searchable::new(state)
        }
    }
}

impl Game for Searchable {
    type Move = usize;
    fn generate_moves(&self, moves: &mut Vec<usize>) {
        // Centre columns first (they take part in the most lines), without allocating.
        let n = self.state.board.n as i32;
        for d in 0..n {
            let (left, right) = ((n - 1 - d) / 2, (n + d) / 2);
            for (k, y) in [left, right].into_iter().enumerate() {
                let repeat = k == 1 && right == left;
                if !repeat && (2 * y - n + 1).abs() == d && self.state.board.can_play(y as usize) {
                    moves.push(y as usize);
                }
            }
        }
    }
    fn play(&mut self, y: usize) {
        let x = self.state.board.landing_row(y).expect("open column");
        self.history.push((x, y, self.state.result));
        self.key ^= self.zobrist[x * self.state.board.n + y][self.state.to_move as usize - 1];
        self.state.play(y);
    }
    fn undo(&mut self, _y: usize) {
        let (x, y, result) = self.history.pop().expect("a move to undo");
        self.state.board.unplay(x, y);
        self.state.result = result;
        self.state.to_move = 3 - self.state.to_move;
        self.key ^= self.zobrist[x * self.state.board.n + y][self.state.to_move as usize - 1];
    }
    fn outcome(&self) -> Option<Score> {
        match self.state.result {
            Some(0) => Some(0),
            Some(w) if w == self.state.to_move => Some(WIN),
            Some(_) => Some(-WIN),
            None => None,
        }
    }
    fn no_moves_score(&self) -> Score {
        0
    }
    fn hash(&self) -> u64 {
        // The side to move is implied by the stone count, but mixing it in costs nothing.
        self.key ^ u64::from(self.state.to_move == 2).wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn evaluate(&self) -> Score {
        if self.evaluate_windows {
            window_score(&self.state.board, self.state.to_move)
        } else {
            0
        }
    }
}

/// Sum over all windows of four cells (not crossing the obstacle) holding stones of only one
/// player: 1, 4 or 16 for one, two or three stones, positive for `me`.
pub fn window_score(b: &Board, me: u8) -> Score {
    let weight = [0, 1, 4, 16, 64];
    let mut score = 0;
    for x in 0..b.m as i32 {
        for y in 0..b.n as i32 {
            for (dx, dy) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (ex, ey) = (x + 3 * dx, y + 3 * dy);
                if ex < 0 || ey < 0 || ex >= b.m as i32 || ey >= b.n as i32 {
                    continue;
                }
                let (mut mine, mut theirs, mut blocked) = (0, 0, false);
                for k in 0..4 {
                    let (cx, cy) = ((x + k * dx) as usize, (y + k * dy) as usize);
                    if (cx, cy) == (b.no_x, b.no_y) {
                        blocked = true;
                    }
                    match b.at(cx, cy) {
                        0 => {}
                        p if p == me => mine += 1,
                        _ => theirs += 1,
                    }
                }
                if blocked || (mine > 0 && theirs > 0) {
                    continue;
                }
                score += weight[mine] - weight[theirs];
            }
        }
    }
    score
}

//! A game in progress on the course board: the rules' reference, which the course's interfaces
//! speak and the engine's bitboards ([`crate::rules::bitstate::BitState`]) must agree with move by move.

use crate::rules::board::Board;

/// A game in progress on the course board: the rules' reference (the engine simulates on
/// [`BitState`](crate::rules::bitstate::BitState), which must agree with it move by move).
#[derive(Debug, Clone)]
pub struct GameState {
    /// The board.
    pub board: Board,
    /// Player to move, 1 or 2.
    pub to_move: u8,
    /// Winner (1 or 2), 0 for a draw, `None` while playing.
    pub result: Option<u8>,
}

impl GameState {
    /// A position with `to_move` to play.
    pub fn new(board: Board, to_move: u8) -> GameState {
        GameState {
            board,
            to_move,
            result: None,
        }
    }

    /// Plays column `y`.
    pub fn play(&mut self, y: usize) {
        let p = self.to_move;
        let x = self.board.play(y, p);
        if self.board.wins_at(x, y) {
            self.result = Some(p);
        } else if self.board.is_full() {
            self.result = Some(0);
        }
        self.to_move = 3 - p;
    }

    /// Open columns that do not let the opponent win at once on the cell above; all open
    /// columns when every one does. Moves that hand the opponent an immediate win can never be
    /// better than the alternatives, so neither the tree nor the rollouts consider them.
    pub fn safe_columns(&self, out: &mut Vec<usize>) {
        let opp = 3 - self.to_move;
        let b = &self.board;
        let start = out.len();
        for y in (0..b.n).filter(|&y| b.can_play(y)) {
            let unsafe_move = b
                .cell_above_landing(y)
                .is_some_and(|x| b.wins_with(x, y, opp));
            if !unsafe_move {
                out.push(y);
            }
        }
        if out.len() == start {
            out.extend((0..b.n).filter(|&y| b.can_play(y)));
        }
    }

    /// The forced column, if any: an immediate win, or the block of a single immediate threat.
    pub fn forced_move(&self) -> Option<usize> {
        let me = self.to_move;
        let n = self.board.n;
        if let Some(y) = (0..n).find(|&y| self.board.would_win(y, me)) {
            return Some(y);
        }
        let threats: Vec<usize> = (0..n)
            .filter(|&y| self.board.would_win(y, 3 - me))
            .collect();
        (threats.len() == 1).then(|| threats[0])
    }
}

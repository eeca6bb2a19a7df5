//! The engine's proofs on bitboards: [`BitState`] as `search-core`'s two-player game.
//!
//! The tactical screen and the exact endgame search only ask "can a side force four in a row?",
//! so every unfinished position is worth 0 and a node is a copy of a few 256-bit words. The
//! moves searched are those of [`BitState::search_columns`]: a win or a forced block alone when
//! there is one, and never a move that lets the opponent win straight above it unless every
//! move does — such a move loses two plies later, so leaving it out changes no proven value.

use crate::bitstate::BitState;
use search_core::{Game, Score, WIN};

/// A position with its history, for play/undo searches.
#[derive(Debug, Clone)]
pub struct BitSearch {
    current: BitState,
    history: Vec<BitState>,
}

impl BitSearch {
    /// Wraps a position.
    pub fn new(state: BitState) -> BitSearch {
        BitSearch {
            current: state,
            history: Vec::with_capacity(160),
        }
    }

    /// The current position.
    pub fn state(&self) -> &BitState {
        &self.current
    }
}

impl Game for BitSearch {
    type Move = usize;

    fn generate_moves(&self, moves: &mut Vec<usize>) {
        self.current.search_columns(moves);
    }

    #[inline]
    fn play(&mut self, y: usize) {
        self.history.push(self.current);
        self.current.play(y);
    }

    #[inline]
    fn undo(&mut self, _y: usize) {
        self.current = self.history.pop().expect("a move to undo");
    }

    fn outcome(&self) -> Option<Score> {
        match self.current.result() {
            None => None,
            Some(0) => Some(0),
            Some(w) if w == self.current.to_move() => Some(WIN),
            Some(_) => Some(-WIN),
        }
    }

    fn no_moves_score(&self) -> Score {
        0
    }

    fn evaluate(&self) -> Score {
        0
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.current.key()
    }
}

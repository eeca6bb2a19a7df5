//! The engine's proofs on bitboards: [`BitState`] as `search-core`'s two-player game.
//!
//! The tactical screen and the exact endgame search only ask "can a side force four in a row?",
//! so every unfinished position is worth 0 and a node is a copy of a few 256-bit words. The
//! moves searched are those of [`BitState::search_columns`]: a win or a forced block alone when
//! there is one, and never a move that lets the opponent win straight above it unless every
//! move does — such a move loses two plies later, so leaving it out changes no proven value.

use crate::bitstate::BitState;
use search_core::{Game, Score, SearchOptions, Searcher, WIN};

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

    fn reply_count_hint(&self) -> u32 {
        self.current.search_column_count()
    }
}

/// A searcher for the wins-only proofs, with a table of `megabytes` MiB.
///
/// Killer and history reordering are off: [`BitState::search_columns`] already orders the
/// moves by the threats they make, then centre first, and overriding that with moves that cut
/// off elsewhere made proofs about ten times slower (a 29-ply win on an 11x11 board: 4.3 s with
/// them, 0.41 s without). The table is used only from [`TABLE_MIN_DEPTH`] plies of remaining
/// depth: near the leaves a probe is a cache miss that costs more than the subtree it saves
/// (the same proof: 0.41 s with every node probed, 0.23 s from 3 plies).
pub fn proof_searcher(megabytes: usize) -> Searcher<BitSearch> {
    let mut s = Searcher::new(megabytes);
    s.options = SearchOptions {
        killers: false,
        history: false,
        tt_min_depth: TABLE_MIN_DEPTH,
        ..SearchOptions::default()
    };
    s
}

/// Remaining depth from which proof searches probe and store the transposition table.
pub const TABLE_MIN_DEPTH: i32 = 3;

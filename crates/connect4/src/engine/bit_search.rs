//! The engine's proofs on bitboards: [`BitState`] as `search-core`'s two-player game.
//!
//! The tactical screen and the exact endgame search only ask "can a side force four in a row?",
//! so every unfinished position is worth 0 and a node is a copy of a few 256-bit words. The
//! moves searched are those of [`BitState::search_columns`]: a win or a forced block alone when
//! there is one, and never a move that lets the opponent win straight above it unless every
//! move does — such a move loses two plies later, so leaving it out changes no proven value.
//!
//! Ordering the moves plays each of them (to count the threats it makes), so the positions it
//! reaches are kept, one set per ply, and playing a move then copies its position instead of
//! computing it again: the searches play every listed move at least once (the proof-number
//! search plays all of them to set up the new children's numbers).

use crate::rules::bitstate::BitState;
use crate::rules::board::MAX_COLUMNS;
use search_core::{Game, Score, SearchOptions, Searcher, WIN};
use std::cell::RefCell;

/// A position with its history, for play/undo searches.
#[derive(Debug, Clone)]
pub struct BitSearch {
    current: BitState,
    history: Vec<BitState>,
    /// For each ply (the length of `history`), the positions after the moves last generated
    /// there. Playing a move empties the next ply's set, so a set always belongs to the
    /// position now at its ply. (`generate_moves` takes `&self`, hence the cell.)
    children: RefCell<Vec<Children>>,
}

/// The positions after the moves generated at one ply.
#[derive(Debug, Clone, Copy)]
struct Children {
    /// Bit `y` is set when `states[y]` holds the position after column `y`.
    columns: u32,
    states: [BitState; MAX_COLUMNS],
}

impl BitSearch {
    /// Wraps a position.
    pub fn new(state: BitState) -> BitSearch {
        BitSearch {
            current: state,
            history: Vec::with_capacity(160),
            children: RefCell::new(Vec::new()),
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
        let ply = self.history.len();
        let mut children = self.children.borrow_mut();
        if children.len() <= ply {
            let empty = Children {
                columns: 0,
                states: [self.current; MAX_COLUMNS],
            };
            children.resize(ply + 1, empty);
        }
        let set = &mut children[ply];
        let start = moves.len();
        self.current.search_children(moves, &mut set.states);
        set.columns = moves[start..].iter().fold(0, |m, &y| m | 1 << y);
    }

    #[inline]
    fn play(&mut self, y: usize) {
        let ply = self.history.len();
        self.history.push(self.current);
        let children = self.children.get_mut();
        match children.get(ply) {
            Some(set) if set.columns & 1 << y != 0 => self.current = set.states[y],
            _ => self.current.play(y),
        }
        if let Some(next) = children.get_mut(ply + 1) {
            next.columns = 0;
        }
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

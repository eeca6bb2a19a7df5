//! The course's search, on `search-core`: the position with the course heuristic as a [`Game`]
//! whose moves come in the framework's `getActions()` order, so that plain minimax and
//! alpha-beta visit exactly the leaves the framework's deciders visit (the reference node counts
//! are in the conformance checks). Values are reported from player one's (black's) side, as the
//! framework's `heuristic()` is.

use crate::course::{actions, status, terms, Status};
use crate::position::{Color, Move, Position};
use search_core::{alphabeta, minimax, Game, GameResult, Score};

/// The position under the course's rules and evaluation.
pub struct CourseGame {
    cur: Position,
    stack: Vec<Position>,
}

impl CourseGame {
    /// Starts at `p`.
    pub fn new(p: Position) -> CourseGame {
        CourseGame {
            cur: p,
            stack: Vec::new(),
        }
    }

    fn side_value(&self, h: i32) -> Score {
        if self.cur.side == Color::Black {
            h
        } else {
            -h
        }
    }
}

impl Game for CourseGame {
    type Move = Move;
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if status(&self.cur) == Status::Ongoing {
            moves.extend(actions(&self.cur));
        }
    }
    fn play(&mut self, mv: Move) {
        self.stack.push(self.cur);
        self.cur = self.cur.play(mv);
    }
    fn undo(&mut self, _mv: Move) {
        self.cur = self.stack.pop().expect("a move to undo");
    }
    fn outcome(&self) -> Option<Score> {
        (status(&self.cur) != Status::Ongoing).then(|| self.side_value(terms(&self.cur).heuristic))
    }
    fn evaluate(&self) -> Score {
        self.side_value(terms(&self.cur).heuristic)
    }
}

/// The course's searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Plain minimax (the NJU `MiniMaxDecider`).
    Minimax,
    /// Alpha-beta (the UW original, the homework's task 2).
    Alphabeta,
}

/// A fixed-depth search from `p`; the score is turned to black's side.
///
/// ```
/// use othello::{deciders::{search, Algorithm}, Position};
/// let (value, r) = search(&Position::default(), 3, Algorithm::Minimax);
/// assert_eq!((value, r.stats.leaves), (29, 56));
/// let (value, r) = search(&Position::default(), 3, Algorithm::Alphabeta);
/// assert_eq!((value, r.stats.leaves), (29, 35));
/// ```
pub fn search(p: &Position, depth: u32, algo: Algorithm) -> (i32, GameResult<Move>) {
    let mut g = CourseGame::new(*p);
    let r = match algo {
        Algorithm::Minimax => minimax(&mut g, depth),
        Algorithm::Alphabeta => alphabeta(&mut g, depth),
    };
    let value = if p.side == Color::Black {
        r.score
    } else {
        -r.score
    };
    (value, r)
}

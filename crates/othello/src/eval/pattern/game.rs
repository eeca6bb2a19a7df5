//! The position as the searches see it under the pattern evaluation: a `search-core` game whose
//! pattern indices follow each move incrementally, with the fastest-first move order (fewest
//! replies first) and, far from the horizon, the evaluation's order.

use super::*;

/// A position searched with given weights: the evaluation as a `search-core` [`Game`], for
/// the NBoard engine's midgame search, the training games' player and the endgame solver's
/// ordering searches.
///
/// [`Game`]: search_core::Game
pub struct PatternGame<'w> {
    line: Line,
    weights: &'w Evaluator,
    /// Whether moves are searched fastest-first (see [`PatternGame::fastest_first`]).
    fastest_first: bool,
    /// Nodes fewer plies than this above the horizon order by square alone.
    cheap_order_below: i32,
    /// Nodes this many plies or more above the horizon order by the children's evaluation.
    evaluation_order_from: i32,
    /// The side to move's legal squares at the current position once looked up there
    /// ([`UNKNOWN_MOVES`] before): a search asks whether the game is over, then for the moves
    /// or the value, and each of these needs them.
    moves: Cell<u64>,
    readings: &'static Readings,
    /// The pattern indices of the positions on the line, ply by ply from its start; the
    /// first `ready` are those of the line's positions now (see [`incremental`]).
    indices: RefCell<Vec<Indices>>,
    ready: Cell<usize>,
}

/// The squares of each [`SQUARE_RANK`](crate::rules::bitboard::SQUARE_RANK), lowest rank first.
const SQUARES_BY_RANK: [u64; 7] = {
    let mut classes = [0u64; 7];
    let mut s = 0;
    while s < 64 {
        classes[crate::rules::bitboard::SQUARE_RANK[s] as usize] |= 1 << s;
        s += 1;
    }
    classes
};

/// What each of the opponent's replies (corners twice) adds to a move's key in the order by
/// evaluation, in hundredths of a disc. Measured on 100 positions of depth-12 games: 6.86 M
/// positions with 0, 6.77 M with 50, 6.98 M with 300.
pub const ORDER_DISCS_PER_REPLY: i32 = 50;

/// No position has every square legal: the mark of moves not yet looked up.
const UNKNOWN_MOVES: u64 = u64::MAX;

impl PatternGame<'_> {
    /// Starts at `p`, evaluating with `weights`.
    pub fn new(p: Position, weights: &Evaluator) -> PatternGame<'_> {
        PatternGame {
            line: Line::new(p, 8),
            weights,
            fastest_first: false,
            cheap_order_below: 0,
            evaluation_order_from: i32::MAX,
            moves: Cell::new(UNKNOWN_MOVES),
            readings: readings(),
            indices: RefCell::new(vec![readings().of(&p)]),
            ready: Cell::new(1),
        }
    }

    /// Searches the moves that leave the opponent fewest replies (corners counted twice) first,
    /// instead of in square order: the same values, usually found with fewer positions. The
    /// engine's search, the training games' player and the endgame solver's ordering searches
    /// use it (FFO #51, #53 and #56 with four-ply ordering searches: 149.7 → 147.3 s).
    ///
    /// ```
    /// use othello::{pattern::{evaluator, game::PatternGame}, Position};
    /// let p = Position::default();
    /// let mut plain = PatternGame::new(p, evaluator());
    /// let mut ordered = PatternGame::new(p, evaluator()).fastest_first();
    /// let a = search_core::alphabeta(&mut plain, 4);
    /// let b = search_core::alphabeta(&mut ordered, 4);
    /// assert_eq!(a.score, b.score);
    /// ```
    pub fn fastest_first(mut self) -> Self {
        self.fastest_first = true;
        self
    }

    /// Orders the moves of nodes fewer than `depth` plies above the horizon by square alone
    /// ([`SQUARE_RANK`](crate::rules::bitboard::SQUARE_RANK)): there counting each child's replies
    /// costs about as much as the evaluations a better order would spare.
    ///
    /// ```
    /// use othello::{pattern::{evaluator, game::PatternGame}, Position};
    /// use search_core::{Searcher, IterativeOptions, iterative_deepening};
    /// let p = Position::default().play_sequence("f5d6c3d3c4").unwrap();
    /// let value = |mut g: PatternGame| {
    ///     let opts = IterativeOptions { max_depth: 5, ..Default::default() };
    ///     iterative_deepening(&mut g, &mut Searcher::new(1), &opts, |_| {}).score
    /// };
    /// let full = value(PatternGame::new(p, evaluator()).fastest_first());
    /// let cheap = value(PatternGame::new(p, evaluator()).fastest_first().with_cheap_order_below(2));
    /// assert_eq!(full, cheap);
    /// ```
    pub fn with_cheap_order_below(mut self, depth: i32) -> Self {
        self.cheap_order_below = depth;
        self
    }

    /// Orders the moves of nodes `depth` or more plies above the horizon by the evaluation of
    /// the position each leads to, the opponent's replies counted in as well
    /// ([`ORDER_DISCS_PER_REPLY`] for each, corners twice): worst for the opponent first. Far
    /// from the horizon a better first move spares whole subtrees, worth the evaluations.
    ///
    /// ```
    /// use othello::{pattern::{evaluator, game::PatternGame}, Position};
    /// let p = Position::default().play_sequence("f5d6c3d3c4").unwrap();
    /// let plain = search_core::alphabeta(&mut PatternGame::new(p, evaluator()), 5);
    /// let by_value = PatternGame::new(p, evaluator()).with_evaluation_order_from(2);
    /// assert_eq!(search_core::alphabeta(&mut { by_value }, 5).score, plain.score);
    /// ```
    pub fn with_evaluation_order_from(mut self, depth: i32) -> Self {
        self.evaluation_order_from = depth;
        self
    }

    /// Sorts `moves` by the value of the position after each for the opponent, plus
    /// [`ORDER_DISCS_PER_REPLY`] per weighted reply, lowest first.
    fn order_by_evaluation(&self, moves: &mut [crate::rules::position::Move]) {
        let cur = self.line.cur;
        let here = self.indices_here()[self.line.ply()];
        crate::rules::position::sort_moves_by_key(moves, |&mv| {
            let child = cur.play(mv);
            let mut ix = here;
            self.readings.advance(&mut ix, &cur, &child);
            let replies = child.moves();
            self.weights
                .evaluate_indexed(self.readings, &ix, &child, replies)
                + ORDER_DISCS_PER_REPLY * crate::rules::bitboard::weighted_mobility(replies) as i32
        });
    }

    /// Starts again at `p`, keeping the allocated stack (for many small searches).
    pub fn reset(&mut self, p: Position) {
        self.line.reset(p);
        self.moves.set(UNKNOWN_MOVES);
        self.indices.get_mut()[0] = self.readings.of(&p);
        self.ready.set(1);
    }

    /// The line has moved to `ply`: the indices of the plies after it no longer hold.
    #[inline]
    fn moved_to(&mut self, ply: usize) {
        self.moves.set(UNKNOWN_MOVES);
        self.ready.set(self.ready.get().min(ply + 1));
    }

    /// The pattern indices along the line, those of the current position ready.
    fn indices_here(&self) -> std::cell::RefMut<'_, Vec<Indices>> {
        let ply = self.line.ply();
        let mut indices = self.indices.borrow_mut();
        let mut ready = self.ready.get();
        while ready <= ply {
            let mut ix = indices[ready - 1];
            self.readings
                .advance(&mut ix, self.line.at(ready - 1), self.line.at(ready));
            if indices.len() == ready {
                indices.push(ix);
            } else {
                indices[ready] = ix;
            }
            ready += 1;
        }
        self.ready.set(ready);
        indices
    }

    /// The side to move's legal squares, looked up once per position.
    #[inline]
    fn moves(&self) -> u64 {
        let m = self.moves.get();
        if m != UNKNOWN_MOVES {
            return m;
        }
        let m = self.line.cur.moves();
        self.moves.set(m);
        m
    }
}

impl search_core::Game for PatternGame<'_> {
    type Move = crate::rules::position::Move;
    /// The legal squares by [`SQUARE_RANK`](crate::rules::bitboard::SQUARE_RANK) (then by square),
    /// so that the cheap order near the horizon is the order they come in.
    fn generate_moves(&self, moves: &mut Vec<crate::rules::position::Move>) {
        let all = self.moves();
        if all == 0 {
            let cur = &self.line.cur;
            if legal_moves(cur.opp, cur.me) != 0 {
                moves.push(crate::rules::position::Move::Pass);
            }
            return;
        }
        for class in SQUARES_BY_RANK {
            let mut bits = all & class;
            while bits != 0 {
                moves.push(crate::rules::position::Move::Square(
                    bits.trailing_zeros() as u8
                ));
                bits &= bits - 1;
            }
        }
    }
    fn play(&mut self, mv: crate::rules::position::Move) {
        self.line.push(mv);
        // The ply before stays ready; this one is worked out when evaluated.
        self.moved_to(self.line.ply() - 1);
    }
    fn undo(&mut self, _mv: crate::rules::position::Move) {
        self.line.pop();
        self.moved_to(self.line.ply());
    }
    fn order_moves(&self, moves: &mut [crate::rules::position::Move]) {
        if !self.fastest_first || moves.len() < 2 {
            return;
        }
        crate::rules::position::sort_moves_by_key(moves, |&mv| {
            crate::rules::bitboard::weighted_mobility(self.line.cur.play(mv).moves()) as i32
        });
    }
    fn order_moves_at_depth(
        &self,
        moves: &mut [crate::rules::position::Move],
        _alpha: search_core::Score,
        _beta: search_core::Score,
        depth: i32,
    ) {
        // Below `cheap_order_below` the moves stay in the order they were generated in.
        if depth >= self.evaluation_order_from && moves.len() > 1 {
            self.order_by_evaluation(moves);
        } else if depth >= self.cheap_order_below {
            self.order_moves(moves);
        }
    }
    fn outcome(&self) -> Option<search_core::Score> {
        let cur = &self.line.cur;
        (self.moves() == 0 && legal_moves(cur.opp, cur.me) == 0).then(|| 100 * cur.final_score())
    }
    fn evaluate(&self) -> search_core::Score {
        let indices = self.indices_here();
        let cur = &self.line.cur;
        self.weights
            .evaluate_indexed(self.readings, &indices[self.line.ply()], cur, self.moves())
    }
    fn hash(&self) -> u64 {
        crate::rules::position::position_hash(&self.line.cur)
    }
    fn probcut_error(&self, depth: i32, _shallow: i32) -> Option<search_core::ProbCutError> {
        Some(crate::eval::probcut::model().error(self.line.cur.empties(), depth))
    }
}

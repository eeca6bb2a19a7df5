//! The two-player zero-sum game interface used by minimax, alpha-beta, negamax, MTD(f) and
//! iterative deepening.
//!
//! A game crate implements [`Game`] for its position type: it generates moves into a buffer the
//! search owns (no allocation per node), plays and takes back moves in place, and scores
//! positions from the point of view of the side to move (negamax convention). Wins and losses
//! are reported as [`WIN`] / `-WIN`; the searches turn them into distance-aware scores so that
//! the shortest win and the longest loss are preferred (see [`mate_in`]).

use std::fmt::Debug;

/// A position's value from the side to move's point of view.
pub type Score = i32;

/// The value of a won game for the side to move (before distance adjustment).
pub const WIN: Score = 1_000_000;
/// Scores at or beyond this magnitude are decided games: `WIN - ply` for a win `ply` plies away.
pub const WIN_BOUND: Score = WIN - 100_000;
/// Larger than every score; the initial alpha-beta window is `(-INF, INF)`.
pub const INF: Score = WIN + 1;

/// A deterministic two-player zero-sum game with perfect information.
pub trait Game {
    /// A move; cheap to copy and compare.
    type Move: Copy + PartialEq + Debug;

    /// Appends the legal moves of the side to move to `moves` (which the caller has cleared).
    /// A game with passes returns the pass as a move.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv` in place; the game keeps whatever it needs to undo it.
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// `Some(score)` when the game is over before any move generation (for example four in a
    /// row on the board), from the side to move's point of view; `None` otherwise.
    fn outcome(&self) -> Option<Score> {
        None
    }

    /// The value when the side to move has no legal move: by default a loss (`-WIN`),
    /// as in xiangqi; a game where that is a draw returns 0.
    fn no_moves_score(&self) -> Score {
        -WIN
    }

    /// Static evaluation from the side to move's point of view.
    fn evaluate(&self) -> Score;

    /// A hash of the position (Zobrist or similar) for transposition tables; the same position
    /// with the same side to move must give the same hash, and different positions should
    /// differ. Required (no default): a constant here would make every table lookup a false
    /// hit, silently corrupting [`Searcher`](crate::Searcher)'s results.
    fn hash(&self) -> u64;

    /// Puts the most promising moves first (for example captures by victim value). Called on
    /// the freshly generated list before the search applies hash move, killers and history.
    fn order_moves(&self, _moves: &mut [Self::Move]) {}

    /// [`order_moves`](Game::order_moves) for a node searched inside `(alpha, beta)`: a game
    /// that orders by small searches may stop them once a move is known to fall well short of
    /// `alpha` (Edax's sort window), since the order among poor moves matters little. The
    /// default ignores the window.
    fn order_moves_in_window(&self, moves: &mut [Self::Move], _alpha: Score, _beta: Score) {
        self.order_moves(moves);
    }

    /// [`order_moves_in_window`](Game::order_moves_in_window) at a node `depth` plies above
    /// the horizon, as [`Searcher`](crate::Searcher) calls it: a game whose good order is
    /// costly (a move played and its replies counted, per move) may order cheaply near the
    /// horizon, where searching the moves costs little more than that order would. The default
    /// ignores the depth.
    fn order_moves_at_depth(
        &self,
        moves: &mut [Self::Move],
        alpha: Score,
        beta: Score,
        _depth: i32,
    ) {
        self.order_moves_in_window(moves, alpha, beta);
    }

    /// A move so likely to fail high in `(alpha, beta)` that it is worth searching before the
    /// others are ordered, as a hash move is: [`Searcher`](crate::Searcher) asks at a node
    /// without a hash move, searches `moves[i]` first, and orders the others only if it does
    /// not cut off. A game whose full ordering is costly (small searches under every move) can
    /// answer from a cheap static look, since a node far above `beta` is refuted by almost any
    /// good move. The default, `None`, orders every node in full.
    fn likely_cutoff(&self, _moves: &[Self::Move], _alpha: Score, _beta: Score) -> Option<usize> {
        None
    }

    /// Whether `mv` is tactical (a capture, a promotion...). [`order_moves`](Game::order_moves)
    /// is expected to put tactical moves first; killers and history then only reorder the quiet
    /// moves after them.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// An exact value for small subtrees, computed by the game's own specialised code (for
    /// example Othello's last-empties solver), within the window `(alpha, beta)` with fail-soft
    /// bounds: a value `<= alpha` is an upper bound, `>= beta` a lower bound. `None` (the
    /// default) lets [`Searcher`](crate::Searcher) search the node itself.
    fn leaf_solve(&self, _alpha: Score, _beta: Score) -> Option<Score> {
        None
    }

    /// Whether the side to move is in check (or under a comparable forcing threat). The
    /// transposition-table search ([`Searcher`](crate::Searcher)) extends such nodes by one ply
    /// so that forcing sequences are not cut off at the horizon.
    fn in_check(&self) -> bool {
        false
    }

    /// Appends the tactical moves (captures...) to try in the quiescence search that
    /// [`Searcher`](crate::Searcher) runs at its leaves instead of a bare static evaluation.
    /// The default, no moves, makes the quiescence search the static evaluation itself.
    fn generate_tactical(&self, _moves: &mut Vec<Self::Move>) {}

    /// Whether the tactical move `mv` probably loses material (a static-exchange test, cheap
    /// and approximate): the quiescence search skips it when
    /// [`SearchOptions::skip_losing_captures`](crate::SearchOptions::skip_losing_captures) is on.
    /// None by default.
    fn losing_capture(&self, _mv: Self::Move) -> bool {
        false
    }

    /// A small index (below [`HISTORY_SIZE`]) identifying a quiet move for the history
    /// heuristic, typically from-square and to-square; `None` disables history ordering.
    fn history_index(&self, _mv: Self::Move) -> Option<usize> {
        None
    }

    /// A small index (below [`CONTINUATION_SIZE`]) naming the piece `mv` moves and the square
    /// it goes to, asked before the move is played, for the continuation history
    /// ([`SearchOptions::continuation_history`](crate::SearchOptions::continuation_history));
    /// `None` (the default) leaves the move out of it.
    fn continuation_index(&self, _mv: Self::Move) -> Option<usize> {
        None
    }

    /// A cheap estimate of how many moves the side to move has (1 when it must answer a
    /// threat, for example). [`ProofSearch`](crate::ProofSearch) starts a new node's numbers
    /// from it, so that lines where one side has few replies are examined first. The default,
    /// 1, treats every new node alike.
    fn reply_count_hint(&self) -> u32 {
        1
    }

    /// Whether the side to move may pass in a null-move search here: false (the default) for
    /// games where a pass is not a sound bound, for example in likely zugzwang (few pieces
    /// left). Reverse futility pruning trusts the static value on the same assumption and asks
    /// the same question. Only asked when
    /// [`SearchOptions::null_move`](crate::SearchOptions::null_move) or
    /// [`SearchOptions::reverse_futility_depth`](crate::SearchOptions::reverse_futility_depth)
    /// is on and the side to move is not in check.
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// How well a search of `shallow` plies predicts one of `depth` plies at this position, for
    /// [Multi-ProbCut](crate::ProbCut) (asked only when
    /// [`ProbCut::confidence`](crate::ProbCut::confidence) is set): the mean and standard
    /// deviation of deep minus shallow values the game measured on its own positions of this
    /// kind (a game stage, say). `None` (the default) leaves the fixed margin.
    fn probcut_error(&self, _depth: i32, _shallow: i32) -> Option<ProbCutError> {
        None
    }

    /// Passes the move to the opponent (for null-move pruning; only called where
    /// [`null_move_allowed`](Game::null_move_allowed) said yes).
    fn play_null(&mut self) {}

    /// Takes back [`play_null`](Game::play_null).
    fn undo_null(&mut self) {}

    /// Called by [`Searcher`](crate::Searcher) when a search starts at the root (every pass of
    /// MTD(f) and every iteration of iterative deepening), with its depth and window. Tracing
    /// wrappers use it to tell the passes apart; the default does nothing.
    fn on_search_start(&mut self, _depth: u32, _alpha: Score, _beta: Score) {}

    /// Called by [`Searcher`](crate::Searcher) when the transposition table answers for the
    /// current node with `score` instead of a search below it. The default does nothing.
    fn on_table_hit(&mut self, _score: Score) {}
}

/// How far a shallow search's value is from a deep one's at a position, as a game measured it
/// on its own positions for [Multi-ProbCut](crate::ProbCut): the deep value is about the
/// shallow one plus `mean`, give or take `sigma`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbCutError {
    /// Mean of deep minus shallow values, in the evaluation's units.
    pub mean: Score,
    /// Their standard deviation.
    pub sigma: Score,
}

/// Bound of [`Game::continuation_index`]: the continuation history has a score for every pair
/// of indices below it.
pub const CONTINUATION_SIZE: usize = 1 << 11;

/// Size of the history table; [`Game::history_index`] must return values below it.
pub const HISTORY_SIZE: usize = 1 << 14;

/// Turns a terminal value reported `ply` plies below the root into a root-comparable score:
/// wins get smaller and losses larger the further away they are.
///
/// ```
/// use search_core::{mate_in, WIN};
/// assert!(mate_in(WIN, 1) > mate_in(WIN, 3)); // a quicker win is better
/// assert!(mate_in(-WIN, 4) > mate_in(-WIN, 2)); // a later loss is better
/// assert_eq!(mate_in(7, 5), 7); // ordinary scores are untouched
/// ```
#[inline]
pub fn mate_in(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// Plies to the end of the game encoded in a decided score, if it is one.
///
/// ```
/// use search_core::{mate_distance, mate_in, WIN};
/// assert_eq!(mate_distance(mate_in(WIN, 5)), Some(5));
/// assert_eq!(mate_distance(12), None);
/// ```
pub fn mate_distance(score: Score) -> Option<u32> {
    (score.abs() >= WIN_BOUND).then(|| (WIN - score.abs()) as u32)
}

/// The result of a fixed-depth or iterative two-player search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult<M> {
    /// Value of the root for the side to move.
    pub score: Score,
    /// The move chosen (`None` when the root has no move or is over).
    pub best: Option<M>,
    /// Principal variation starting with `best`.
    pub pv: Vec<M>,
    /// Work done.
    pub stats: crate::stats::GameStats,
}

impl<M: Copy> GameResult<M> {
    /// The result of a plain (table-less) search of `depth` plies started at `timer`: its
    /// score, the principal variation it left at the root of `stack`, and its counters.
    pub(crate) fn of_plain_search(
        score: Score,
        stack: &mut PlyStack<M>,
        mut stats: crate::stats::GameStats,
        depth: u32,
        timer: std::time::Instant,
    ) -> Self {
        stats.depth = depth;
        stats.elapsed = timer.elapsed();
        let pv = std::mem::take(&mut stack.pv[0]);
        GameResult {
            score,
            best: pv.first().copied(),
            pv,
            stats,
        }
    }
}

/// How a plain (table-less) search node starts: a leaf with its value, or the ordered moves.
pub(crate) enum NodeStart<M> {
    Leaf(Score),
    Moves(Vec<M>),
}

/// The common opening of a minimax or alpha-beta node: count it, score finished games and the
/// horizon, otherwise generate and order the moves into the ply's reusable buffer (hand it back
/// with `stack.moves[ply] = moves` when done).
pub(crate) fn open_node<G: Game>(
    game: &G,
    stack: &mut PlyStack<G::Move>,
    stats: &mut crate::stats::GameStats,
    depth: u32,
    ply: usize,
) -> NodeStart<G::Move> {
    stats.nodes += 1;
    stack.enter(ply);
    if let Some(v) = game.outcome() {
        stats.leaves += 1;
        return NodeStart::Leaf(mate_in(v, ply as u32));
    }
    if depth == 0 {
        stats.leaves += 1;
        return NodeStart::Leaf(game.evaluate());
    }
    let mut moves = std::mem::take(&mut stack.moves[ply]);
    moves.clear();
    game.generate_moves(&mut moves);
    if moves.is_empty() {
        stats.leaves += 1;
        stack.moves[ply] = moves;
        return NodeStart::Leaf(mate_in(game.no_moves_score(), ply as u32));
    }
    game.order_moves(&mut moves);
    NodeStart::Moves(moves)
}

/// Per-ply scratch space shared by the recursive searches: one move buffer and one principal
/// variation line per ply, allocated once and reused, so the hot loop never allocates.
pub(crate) struct PlyStack<M> {
    pub moves: Vec<Vec<M>>,
    pub pv: Vec<Vec<M>>,
}

impl<M: Copy> PlyStack<M> {
    pub fn new() -> Self {
        PlyStack {
            moves: Vec::new(),
            pv: Vec::new(),
        }
    }

    /// Makes sure buffers exist for `ply` and clears its PV.
    #[inline]
    pub fn enter(&mut self, ply: usize) {
        while self.moves.len() <= ply + 1 {
            self.moves.push(Vec::with_capacity(64));
            self.pv.push(Vec::with_capacity(64));
        }
        self.pv[ply].clear();
    }

    /// Records `mv` followed by the child's PV as the PV of `ply`.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

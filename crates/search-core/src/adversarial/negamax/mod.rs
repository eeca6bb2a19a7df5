//! Negamax alpha-beta with a transposition table, killer moves and history: the workhorse
//! search that MTD(f) and iterative deepening drive, with the selective enhancements of
//! tournament engines available as options (principal-variation search, null move, late-move
//! reductions, futility pruning, mate-distance pruning). By default it orders moves by the
//! table, killers and history and prunes nothing, so that exact solvers and the course
//! searches see every move; [`SearchOptions::selective`] turns the selective ones on. The
//! searcher's parts: `root` (limits and the root), `node` (the node loop and quiescence),
//! `pruning` and `ordering`.

mod node;
mod ordering;
mod pruning;
mod root;

use crate::deadline::Budget;
use crate::game::PlyStack;
use crate::game::{Game, GameResult, Score, INF};
use crate::stats::GameStats;
use crate::tables::busy::BusyTable;
use crate::tables::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Instant;

/// Which enhancements a [`Searcher`] uses (by default the table, killers and history, and no
/// pruning: see [`SearchOptions::default`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Probe and store the transposition table.
    pub use_tt: bool,
    /// Try the two killer moves of each ply early.
    pub killers: bool,
    /// Order quiet moves by history score.
    pub history: bool,
    /// Try, right after the killers, the quiet move that last refuted the move just played
    /// (the counter-move heuristic: a table indexed by [`Game::history_index`] of that move).
    pub counter_moves: bool,
    /// Order quiet moves also by the continuation history: how often a move (its piece and
    /// destination, [`Game::continuation_index`]) cut off right after the opponent's last move
    /// and after the side's own move before it, scores kept like the history's (off in
    /// [`selective`](Self::selective): in xiangqi it measured no gain in games).
    pub continuation_history: bool,
    /// Enhanced transposition cut-off from this remaining depth on (`None`: off): before
    /// searching a node's moves, look each child up in the table; a child already proven bad
    /// enough for its side ends the node at once. Costs a play, hash and probe per move, so it
    /// pays only where subtrees are large.
    pub etc_min_depth: Option<i32>,
    /// Probe and store the table only at nodes with at least this remaining depth: near the
    /// leaves, where most nodes are, a table probe is a cache miss that can cost more than the
    /// small subtree it would save.
    pub tt_min_depth: i32,
    /// Before searching a node's moves, start fetching the table slots of the positions they
    /// lead to, all at once (where the children probe the table and the enhanced
    /// transposition cut-off has not fetched them already): their cache misses then overlap
    /// instead of each stalling its child. Costs a play, hash and undo per move.
    pub prefetch_children: bool,
    /// Principal-variation search: after the first move, prove the others worse with a null
    /// window and search again with the full window only the one that is not.
    pub pvs: bool,
    /// Null-move pruning with this depth reduction, plus a ply for every four plies of remaining
    /// depth (`None`: off): where the game allows it ([`Game::null_move_allowed`]), off the
    /// principal variation and out of check, let the opponent move twice; if the reduced search
    /// still fails high the node is cut. Unsound in zugzwang, hence the game's guard and
    /// [`null_verify_depth`](Self::null_verify_depth).
    pub null_move: Option<i32>,
    /// From this remaining depth on, a null-move cut-off is verified by a search of the node
    /// itself, reduced by the same amount and without a null move.
    pub null_verify_depth: Option<i32>,
    /// Late-move reductions: quiet moves late in the order, at depth 3 or more, out of check and
    /// not giving check, are searched one or two plies shallower with a null window first, and
    /// again at full depth only if they beat alpha.
    pub late_move_reductions: bool,
    /// Late moves of null-window nodes (off the principal variation) are reduced one ply more
    /// (off in [`selective`](Self::selective): in xiangqi it halved the nodes to a depth with
    /// no measurable gain in games).
    pub deeper_reductions_off_pv: bool,
    /// The "improving" signal: a node whose static value is no better than two plies earlier
    /// (the same side to move) reduces its late moves one ply more, and one that is better
    /// returns by reverse futility with a margin of one ply less (off in
    /// [`selective`](Self::selective): in xiangqi it halved the nodes to a depth with no
    /// measurable gain in games).
    pub improving: bool,
    /// Futility pruning with this margin per ply (`None`: off): up to
    /// [`futility_depth`](Self::futility_depth) plies from the horizon, off the principal
    /// variation and out of check, quiet moves that give no check are skipped when the static
    /// evaluation plus the margin times the depth cannot reach alpha. Reverse futility pruning
    /// uses the same margin.
    pub futility_margin: Option<Score>,
    /// The deepest remaining depth at which futility pruning skips moves (2 by default; 0
    /// switches it off while the margin still serves reverse futility pruning).
    pub futility_depth: i32,
    /// Mate-distance pruning: a node `ply` plies deep cannot score better than a mate on the next
    /// ply nor worse than being mated now, so the window shrinks to that and may close.
    pub mate_distance_pruning: bool,
    /// Late-move pruning: one to three plies from the horizon, off the principal variation and
    /// out of check, quiet moves after the first `4 + depth²` that give no check are skipped.
    pub late_move_pruning: bool,
    /// Reverse futility pruning ("static null move") up to this remaining depth (`None`: off):
    /// off the principal variation and out of check, a node whose static value beats beta by
    /// the [futility margin](Self::futility_margin) times the depth returns that value at once,
    /// as no reply is likely to bring it back below beta. Like the null move it assumes the
    /// side to move has a move at least as good as passing, so it too is only tried where
    /// [`Game::null_move_allowed`] says so (in xiangqi a side with no move loses, and a lone
    /// king with a pinned horse is mated by a quiet move that static values cannot see).
    pub reverse_futility_depth: Option<i32>,
    /// Internal iterative reduction from this remaining depth on (`None`: off): a node without
    /// a table move is searched one ply shallower, as its ordering is a guess and the next
    /// iteration will find it with a move to try first.
    pub internal_reduction_depth: Option<i32>,
    /// The quiescence search skips the captures the game calls losing
    /// ([`Game::losing_capture`]): a static-exchange test that keeps it from searching every
    /// way of giving material away.
    pub skip_losing_captures: bool,
    /// When a quiet move cuts off, the quiet moves searched before it lose in history what it
    /// gains: the history then ranks moves by how often they cut, not only by how often they
    /// were tried late enough to cut.
    pub history_malus: bool,
    /// A side in check at the horizon gets the check extension too instead of the quiescence
    /// search's stand-pat, so a mate on the last ply is seen; and the null move's pass is
    /// searched at least one ply deep, so a threat of mate in one stops it.
    pub checks_at_horizon: bool,
    /// Up to this remaining depth (`None`: off, as in [`selective`](Self::selective)), off the
    /// principal variation and out of check, the captures the game calls losing
    /// ([`Game::losing_capture`]) are not searched in the main search, after the node's first
    /// move (as the quiescence search skips them with
    /// [`skip_losing_captures`](Self::skip_losing_captures)).
    pub losing_captures_depth: Option<i32>,
    /// ProbCut (`None`: off): a deep search's value is close to a shallow one's, so off the
    /// principal variation a null-window search about half as deep that clears beta (or
    /// stays under alpha) by a margin decides the node ([`ProbCut`]).
    pub probcut: Option<ProbCut>,
    /// Singular extensions (`None`: off): a table move that looks much better than every other
    /// move of its node is searched a ply deeper ([`Singular`]).
    pub singular: Option<Singular>,
}

/// Settings of singular extensions: at a node at least [`min_depth`](Self::min_depth) deep
/// whose table entry holds a move with a lower bound (or exact value) searched to at most three
/// plies less, the node's other moves are searched to half the depth with a null window at
/// `value - margin_per_ply * depth`. When none reaches it, the table move is singular (the
/// only good one) and is searched a ply deeper; when that bound is already at or above beta,
/// several moves refute the node and it fails high at once (multi-cut).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Singular {
    /// Shallowest remaining depth at which the test is made.
    pub min_depth: i32,
    /// How far under the table's value, per ply of depth, the other moves must stay.
    pub margin_per_ply: Score,
}

/// Settings of ProbCut (Buro): at a node at least [`min_depth`](Self::min_depth) deep, off the
/// principal variation, a search to the even number of plies under about half the depth (the
/// same parity, so the side to move at its horizon is the same) is asked whether the node's
/// value clears `beta + margin` (then the node fails high at once) or stays under
/// `alpha - margin` (then it fails low). The margin is the shallow search's error at the
/// confidence wanted: a few standard deviations of deep minus shallow values, measured on the
/// game's own positions. With [`confidence`](Self::confidence) and a game that knows that
/// error for its position and the depth pair ([`Game::probcut_error`]), the test is Buro's
/// Multi-ProbCut: the bounds are `beta - mean + t·sigma` and `alpha - mean - t·sigma`, so
/// that the margin follows the game's stage and the depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbCut {
    /// Shallowest remaining depth at which the test is made.
    pub min_depth: i32,
    /// How far beyond the window the shallow value must be, in the evaluation's units, where
    /// the game gives no error model (or `confidence` is `None`).
    pub margin: Score,
    /// The confidence `t` in hundredths of a standard deviation (150: 1.5 sigma) by which the
    /// game's fitted error model ([`Game::probcut_error`]) sets the bounds; `None` uses the
    /// fixed margin everywhere.
    pub confidence: Option<i32>,
    /// Make only one of the two shallow searches, on the side of the window the node's
    /// static value lies (the fail-high test when it is at least beta): half the tests'
    /// cost, for the cut-offs the other test would rarely have found.
    pub one_side_by_evaluation: bool,
}

impl ProbCut {
    /// The depth of the shallow search at `depth`: `depth` less twice a quarter of
    /// `depth + 2`, so 4 at depths 8 and 10, 6 at 12.
    ///
    /// ```
    /// use search_core::ProbCut;
    /// let shallow: Vec<i32> = (3..=12).map(ProbCut::shallow_depth).collect();
    /// assert_eq!(shallow, [1, 2, 3, 2, 3, 4, 5, 4, 5, 6]);
    /// ```
    pub fn shallow_depth(depth: i32) -> i32 {
        depth - 2 * ((depth + 2) / 4)
    }
}

impl SearchOptions {
    /// Whether these options keep the search's value exact (no null move, no reductions, no
    /// pruning): principal-variation search and mate-distance pruning only change the work.
    ///
    /// ```
    /// use search_core::SearchOptions;
    /// assert!(SearchOptions::default().is_exact());
    /// assert!(!SearchOptions::selective(100).is_exact());
    /// ```
    pub fn is_exact(&self) -> bool {
        self.null_move.is_none()
            && self.reverse_futility_depth.is_none()
            && self.internal_reduction_depth.is_none()
            && !self.late_move_reductions
            && !self.late_move_pruning
            && self.futility_margin.is_none()
            && !self.skip_losing_captures
            && self.losing_captures_depth.is_none()
            && self.probcut.is_none()
            && self.singular.is_none()
    }

    /// The selective search of a tournament engine: every option of [`SearchOptions::default`]
    /// plus principal-variation search, null move (reduction 3 plus a ply per four of depth,
    /// verified from depth 6), late-move reductions, late-move pruning, futility pruning with
    /// `futility_margin` per ply, mate-distance pruning, a quiescence search without losing
    /// captures and [checks extended at the horizon](Self::checks_at_horizon).
    ///
    /// ```
    /// let o = search_core::SearchOptions::selective(200);
    /// assert!(o.pvs && o.late_move_reductions && o.null_move == Some(3));
    /// assert!(o.skip_losing_captures && !o.is_exact());
    /// ```
    pub fn selective(futility_margin: Score) -> Self {
        SearchOptions {
            pvs: true,
            null_move: Some(3),
            null_verify_depth: Some(6),
            late_move_reductions: true,
            futility_margin: Some(futility_margin),
            mate_distance_pruning: true,
            late_move_pruning: true,
            reverse_futility_depth: Some(REVERSE_FUTILITY_DEPTH),
            internal_reduction_depth: Some(INTERNAL_REDUCTION_DEPTH),
            skip_losing_captures: true,
            history_malus: true,
            checks_at_horizon: true,
            counter_moves: true,
            ..SearchOptions::default()
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            use_tt: true,
            killers: true,
            history: true,
            counter_moves: false,
            continuation_history: false,
            etc_min_depth: None,
            tt_min_depth: i32::MIN,
            prefetch_children: false,
            pvs: false,
            null_move: None,
            null_verify_depth: None,
            late_move_reductions: false,
            deeper_reductions_off_pv: false,
            improving: false,
            futility_margin: None,
            futility_depth: 2,
            mate_distance_pruning: false,
            late_move_pruning: false,
            reverse_futility_depth: None,
            internal_reduction_depth: None,
            skip_losing_captures: false,
            history_malus: false,
            checks_at_horizon: false,
            losing_captures_depth: None,
            probcut: None,
            singular: None,
        }
    }
}

/// Reusable state of a negamax alpha-beta search.
///
/// A [`Searcher`] owns everything that survives between searches (table, killers, history,
/// per-ply buffers), so repeated searches from one position — iterative deepening, MTD(f)'s
/// null-window probes, a game's successive moves — reuse what earlier ones learnt. Move order
/// at a node: the table's move, then the game's tactical moves in the game's order, then the
/// two killer moves of the ply, then the remaining quiet moves by history score. The search
/// is fail-soft; it reads the clock every 1024 nodes and checks its node budget at every node
/// of the main search (quiescence nodes count but do not stop it); an aborted search is
/// flagged and its result must be discarded. Nodes where [`Game::in_check`] holds are
/// extended by one ply, and the leaves run a quiescence search over
/// [`Game::generate_tactical`] (just the static evaluation for games that list no tactical
/// moves). The table is a [`TranspositionTable`] of its own unless made with
/// [`Searcher::with_table`] (a [`SharedTable`](crate::SharedTable) handle, say).
pub struct Searcher<G: Game, T = TranspositionTable<<G as Game>::Move>> {
    /// The transposition table (shared by all searches of this searcher).
    pub tt: T,
    /// Enhancements in use.
    pub options: SearchOptions,
    /// Counters of the searches since the last [`Searcher::reset_stats`].
    pub stats: GameStats,
    stack: PlyStack<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    /// The quiet move that last cut off after each move, by its history index.
    counters: Vec<Option<G::Move>>,
    /// The history index of the move played at each ply on the current line (`None` for a
    /// pass or a move without one).
    played: Vec<Option<usize>>,
    /// Continuation history: `CONTINUATION_SIZE` scores for each continuation index of the
    /// move before (empty until the option asks for it).
    continuation: Vec<i32>,
    /// The continuation index of the move played at each ply on the current line.
    played_pieces: Vec<Option<usize>>,
    /// The static value of each node on the current line (`None` in check or not asked).
    static_values: Vec<Option<Score>>,
    /// The move a singular-extension test leaves out at each ply (`None` outside such tests).
    excluded: Vec<Option<G::Move>>,
    pub(crate) budget: Budget,
    /// Set by [`shared_search_root`](crate::shared_search_root): the positions other threads
    /// are searching, and the remaining depth from which moves leading to them are put off.
    pub(crate) defer_busy: Option<(Arc<BusyTable>, i32)>,
    aborted: bool,
    root_best: Option<G::Move>,
    root_depth: u32,
    /// The root (its hash) and depth of the last root search, see [`Searcher::start_root`].
    last_root: Option<(u64, u32)>,
    root_move_hook: Option<RootMoveHook<G::Move>>,
}

/// Called as each root move's search starts: the move, its number (from 1) and the depth.
pub type RootMoveHook<M> = Box<dyn FnMut(M, usize, u32) + Send>;

/// Deepest remaining depth of [`SearchOptions::selective`]'s reverse futility pruning.
const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Shallowest remaining depth of [`SearchOptions::selective`]'s internal iterative reduction.
const INTERNAL_REDUCTION_DEPTH: i32 = 4;

/// Deepest ply the quiescence search may reach (a guard against endless capture chains).
const MAX_QUIESCENCE_PLY: usize = 200;

impl<G: Game> Searcher<G> {
    /// A searcher with a table of about `tt_megabytes` MiB.
    pub fn new(tt_megabytes: usize) -> Self {
        Self::try_new(tt_megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a transposition table of about `tt_megabytes` MiB, or a message when
    /// that much memory cannot be allocated (for a size given by a user).
    pub fn try_new(tt_megabytes: usize) -> Result<Self, String> {
        Ok(Searcher::with_table(
            TranspositionTable::try_with_megabytes(tt_megabytes)?,
        ))
    }
}

/// Records `value` for `ply` in a per-ply list of the current line.
pub(super) fn note<V: Copy>(list: &mut Vec<Option<V>>, ply: usize, value: Option<V>) {
    if list.len() <= ply {
        list.resize(ply + 1, None);
    }
    list[ply] = value;
}

/// One fixed-depth negamax alpha-beta search with a fresh table of `tt_megabytes` MiB.
///
/// ```
/// use search_core::{negamax, alphabeta, Game, Score};
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) }
/// }
/// let r = negamax(&mut Nim(10), 12, 1);
/// assert_eq!(r.score, alphabeta(&mut Nim(10), 12).score);
/// assert_eq!(r.best, Some(2)); // leave a multiple of 4
/// ```
pub fn negamax<G: Game>(game: &mut G, depth: u32, tt_megabytes: usize) -> GameResult<G::Move> {
    let mut s = Searcher::new(tt_megabytes);
    let timer = Instant::now();
    let score = s.search_root(game, depth, -INF, INF);
    s.stats.elapsed = timer.elapsed();
    GameResult {
        score,
        best: s.best_move(),
        pv: s.pv().to_vec(),
        stats: s.stats,
    }
}

#[cfg(test)]
mod tests {
    use super::pruning::late_move_reduction;

    #[test]
    fn looked_up_reductions_equal_the_formula() {
        for depth in -2..80 {
            for index in 0..100 {
                let r = 0.75 + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / 2.25;
                assert_eq!(late_move_reduction(depth, index), (r as i32).max(1));
            }
        }
    }
}

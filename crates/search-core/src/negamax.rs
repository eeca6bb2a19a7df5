//! Negamax alpha-beta with a transposition table, killer moves and history: the workhorse
//! search that MTD(f) and iterative deepening drive, with the selective enhancements of
//! tournament engines available as options (principal-variation search, null move, late-move
//! reductions, futility pruning, mate-distance pruning; all off by default, so that exact
//! solvers and the course searches see every move).

use crate::game::PlyStack;
use crate::{
    mate_in, Bound, Budget, BusyTable, Deadline, Game, GameResult, GameStats, Score,
    TranspositionTable, Transpositions, CONTINUATION_SIZE, HISTORY_SIZE, INF, WIN, WIN_BOUND,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Which enhancements a [`Searcher`] uses (all on by default).
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

impl<G: Game, T: Transpositions<G::Move>> Searcher<G, T> {
    /// A searcher using `tt`.
    ///
    /// ```
    /// # use search_core::{Game, Score, Searcher, SharedTable, INF};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u8;
    /// #     fn generate_moves(&self, m: &mut Vec<u8>) { m.extend((1..=3).filter(|&k| k as u32 <= self.0)); }
    /// #     fn play(&mut self, k: u8) { self.0 -= k as u32; }
    /// #     fn undo(&mut self, k: u8) { self.0 += k as u32; }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// let table = SharedTable::with_megabytes(1);
    /// let mut s = Searcher::with_table(table.share());
    /// s.search_root(&mut Nim(10), 4, -INF, INF);
    /// assert!(table.probe(10, 0).is_some(), "the other handle sees the entry");
    /// ```
    pub fn with_table(tt: T) -> Self {
        Searcher {
            tt,
            options: SearchOptions::default(),
            stats: GameStats::default(),
            stack: PlyStack::new(),
            killers: Vec::new(),
            history: vec![0; HISTORY_SIZE],
            counters: Vec::new(),
            played: Vec::new(),
            continuation: Vec::new(),
            played_pieces: Vec::new(),
            static_values: Vec::new(),
            excluded: Vec::new(),
            budget: Budget::default(),
            defer_busy: None,
            aborted: false,
            root_best: None,
            root_depth: 0,
            last_root: None,
            root_move_hook: None,
        }
    }

    /// Sets the deadline after which searches abort.
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.budget.deadline = deadline;
    }

    /// Sets a node budget: a search that would visit more nodes (counted since
    /// [`reset_stats`](Searcher::reset_stats)) aborts.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.budget.node_limit = limit;
    }

    /// Sets a flag another thread may raise to stop the search (a UCI `stop`, a GUI's
    /// button): it is read with the clock, every 1024 nodes.
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// # use search_core::{Game, Score, Searcher};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u32;
    /// #     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
    /// #     fn play(&mut self, k: u32) { self.0 -= k; }
    /// #     fn undo(&mut self, k: u32) { self.0 += k; }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// let stop = Arc::new(AtomicBool::new(true)); // raised before the search even starts
    /// let mut s = Searcher::new(1);
    /// s.set_stop_signal(Some(stop));
    /// s.search_root(&mut Nim(40), 30, -search_core::INF, search_core::INF);
    /// assert!(s.aborted());
    /// ```
    pub fn set_stop_signal(&mut self, signal: Option<Arc<AtomicBool>>) {
        self.budget.stop_signal = signal;
    }

    /// The stop signal set by [`set_stop_signal`](Self::set_stop_signal), to hand on to other
    /// searches run for the same move (a proof-number search, say).
    pub fn stop_signal(&self) -> Option<Arc<AtomicBool>> {
        self.budget.stop_signal.clone()
    }

    /// Sets a function told of each root move as its search starts (a UCI engine's `currmove`
    /// lines); `None` removes it.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// # use search_core::{Game, Score, Searcher, INF};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u32;
    /// #     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
    /// #     fn play(&mut self, k: u32) { self.0 -= k; }
    /// #     fn undo(&mut self, k: u32) { self.0 += k; }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let log = seen.clone();
    /// let mut s = Searcher::new(1);
    /// s.set_root_move_hook(Some(Box::new(move |mv, number, depth| {
    ///     log.lock().unwrap().push((mv, number, depth));
    /// })));
    /// s.search_root(&mut Nim(10), 3, -INF, INF);
    /// assert_eq!(seen.lock().unwrap()[0].1, 1);
    /// assert!(seen.lock().unwrap().iter().all(|&(_, _, d)| d == 3));
    /// ```
    pub fn set_root_move_hook(&mut self, hook: Option<RootMoveHook<G::Move>>) {
        self.root_move_hook = hook;
    }

    /// Whether the last search was cut short by the deadline, node budget or stop signal.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Zeroes the counters.
    pub fn reset_stats(&mut self) {
        self.stats = GameStats::default();
    }

    /// Forgets killers and history and empties the table (for a new, unrelated game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counters.clear();
        self.continuation.clear();
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> &[G::Move] {
        self.stack.pv.first().map_or(&[], |v| v.as_slice())
    }

    /// The best root move of the last root search (also when every move failed low).
    pub fn best_move(&self) -> Option<G::Move> {
        self.root_best
    }

    /// Starts a root search of the position `key` to `depth` plies: a new table generation
    /// (older entries become the preferred victims), except when the last root search had the
    /// same root and depth, that is for another window of the same search (an aspiration
    /// re-search), whose entries are as good as the new ones: ageing them let the second
    /// window's shallow results evict the first's deep ones (the Othello solver on FFO #57,
    /// whose first window fails low: 1.67 G → 1.23 G positions, the second window's share
    /// 0.79 G → 0.36 G).
    pub(crate) fn start_root(&mut self, key: u64, depth: u32) {
        if self.last_root != Some((key, depth)) {
            self.tt.new_search();
            self.last_root = Some((key, depth));
        }
    }

    /// Searches the root to `depth` plies within `(alpha, beta)` and returns the fail-soft
    /// score. Sets [`best_move`](Searcher::best_move) and [`pv`](Searcher::pv).
    pub fn search_root(&mut self, game: &mut G, depth: u32, alpha: Score, beta: Score) -> Score {
        self.root_depth = depth;
        // A stop raised before the search starts ends it at its first node.
        self.aborted = self.budget.stop_requested();
        self.root_best = None;
        self.start_root(game.hash(), depth);
        game.on_search_start(depth, alpha, beta);
        let v = self.search(game, depth as i32, 0, alpha, beta, true);
        if !self.aborted {
            self.stats.depth = self.stats.depth.max(depth);
        }
        v
    }

    /// Searches `game` as a node `ply` plies below a root searched to `depth + ply` plies
    /// (a root move's subtree, for a driver that handles the root itself, such as
    /// [`parallel_search_root`](crate::parallel_search_root)): the table may answer for it
    /// at once, and no root move is recorded. Returns the fail-soft score within `(alpha,
    /// beta)`.
    ///
    /// ```
    /// # use search_core::{Game, Score, Searcher, INF};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u32;
    /// #     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
    /// #     fn play(&mut self, k: u32) { self.0 -= k; }
    /// #     fn undo(&mut self, k: u32) { self.0 += k; }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// let mut s = Searcher::new(1);
    /// // Taking 2 of 10 leaves 8; the opponent's value there, negated, is the move's value.
    /// let below = -s.search_below_root(&mut Nim(8), 7, 1, -INF, INF);
    /// assert_eq!(below, s.search_root(&mut Nim(10), 8, -INF, INF));
    /// ```
    pub fn search_below_root(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> Score {
        self.root_depth = depth + ply as u32;
        self.aborted = self.budget.stop_requested();
        self.search(game, depth as i32, ply, alpha, beta, true)
    }

    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.budget.exhausted(self.stats.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    fn search(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        alpha0: Score,
        beta: Score,
        allow_null: bool,
    ) -> Score {
        self.stats.nodes += 1;
        self.stack.enter(ply);
        if self.should_stop() {
            return 0;
        }
        let ply32 = ply as u32;
        if let Some(v) = game.outcome() {
            self.stats.leaves += 1;
            return mate_in(v, ply32);
        }
        let (mut alpha0, mut beta) = (alpha0, beta);
        if ply > 0 && self.options.mate_distance_pruning {
            // Nothing here beats mating on the next ply or loses worse than being mated now.
            alpha0 = alpha0.max(-WIN + ply as Score);
            beta = beta.min(WIN - ply as Score - 1);
            if alpha0 >= beta {
                return alpha0;
            }
        }
        if ply > 0 {
            if let Some(v) = game.leaf_solve(alpha0, beta) {
                self.stats.leaves += 1;
                return v;
            }
        }
        let mut alpha = alpha0;
        // A singular-extension test of this node: its table entry is the node's, not the
        // test's, so the table is left alone here (the children use it).
        let excluded = self.excluded.get(ply).copied().flatten();
        let use_tt =
            self.options.use_tt && depth >= self.options.tt_min_depth && excluded.is_none();
        let key = if use_tt { game.hash() } else { 0 };
        let mut hash_move = None;
        let mut table_value = None;
        if use_tt {
            if let Some(e) = self.tt.probe(key, ply32) {
                hash_move = e.mv;
                table_value = Some((e.score, e.depth as i32, e.bound));
                if ply > 0 && e.depth as i32 >= depth {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score >= beta,
                        Bound::Upper => e.score <= alpha,
                    };
                    if usable {
                        self.stats.tt_cutoffs += 1;
                        game.on_table_hit(e.score);
                        if let Some(m) = e.mv {
                            self.stack.pv[ply].push(m);
                        }
                        return e.score;
                    }
                }
            }
        }
        let extend_checks = ply < 2 * self.root_depth as usize + 8;
        // At the horizon the check is looked at only when a side in check is extended there.
        let in_check = ply > 0 && (depth > 0 || self.options.checks_at_horizon) && game.in_check();
        if depth <= 0 && !(in_check && extend_checks) {
            return self.quiesce(game, ply, alpha, beta);
        }
        // Check extension, bounded so that perpetual checks cannot run away.
        let depth = if in_check && extend_checks {
            depth + 1
        } else {
            depth
        };
        let pv_node = beta - alpha > 1;
        let depth = match self.options.internal_reduction_depth {
            Some(d) if use_tt && hash_move.is_none() && depth >= d && ply > 0 => depth - 1,
            _ => depth,
        };
        let selective = ply > 0 && !in_check && !pv_node && beta.abs() < WIN_BOUND;
        // The node-level prunings (reverse futility, null move, ProbCut) are not tried in a
        // singular-extension test: it asks about the other moves, not the node.
        let prunable_node = selective && excluded.is_none();
        // The static value, for the null move and futility, computed once and only if asked.
        let mut static_value = None;
        let mut evaluate = |game: &G| *static_value.get_or_insert_with(|| game.evaluate());
        // `None` with the option off.
        let improving = (self.options.improving && ply > 0).then(|| {
            let here = (!in_check).then(|| evaluate(game));
            note(&mut self.static_values, ply, here);
            // Unknown two plies up (in check, or the root's side): taken as improving.
            let before = ply.checked_sub(2).and_then(|p| self.static_values[p]);
            match (here, before) {
                (Some(now), Some(then)) => now > then,
                _ => true,
            }
        });
        if prunable_node
            && self
                .options
                .reverse_futility_depth
                .is_some_and(|d| depth <= d)
            && game.null_move_allowed()
        {
            if let Some(margin) = self.options.futility_margin {
                let v = evaluate(game);
                let plies = depth - i32::from(improving == Some(true));
                if v - margin * plies >= beta && v < WIN_BOUND {
                    self.stats.cutoffs += 1;
                    return v;
                }
            }
        }
        if let Some(v) = self.null_move(
            game,
            depth,
            ply,
            beta,
            allow_null && prunable_node,
            &mut evaluate,
        ) {
            return v;
        }
        if prunable_node {
            if let Some(v) = self.probcut(game, depth, ply, (alpha, beta), &mut evaluate) {
                return v;
            }
        }
        let singular = match (hash_move, table_value) {
            (Some(mv), Some(value)) if ply > 0 && extend_checks => {
                match self.singular(game, depth, ply, beta, mv, value) {
                    Some(Singularity::MultiCut(v)) => return v,
                    Some(Singularity::Singular) => Some(mv),
                    None => None,
                }
            }
            _ => None,
        };
        if self.aborted {
            return 0;
        }
        // What the searches before the moves (null move, ProbCut, singular) left at this ply.
        self.stack.pv[ply].clear();
        // Futility: this close to the horizon, quiet moves cannot lift a hopeless static value.
        let futile = selective
            && depth <= self.options.futility_depth
            && alpha.abs() < WIN_BOUND
            && self
                .options
                .futility_margin
                .is_some_and(|m| evaluate(game) + m * depth <= alpha);
        let mut moves = std::mem::take(&mut self.stack.moves[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
            self.stack.moves[ply] = moves;
            return mate_in(game.no_moves_score(), ply32);
        }
        if let Some(left_out) = excluded {
            moves.retain(|&m| m != left_out);
            if moves.is_empty() {
                // The table move is the only move: singular by definition.
                self.stack.moves[ply] = moves;
                return alpha0;
            }
        }
        // Not at the root, like the table cut-off above: the root must name its best move.
        // Enhanced transposition cut-off here (it fetches the children's slots itself).
        let etc_here = ply > 0 && use_tt && self.options.etc_min_depth.is_some_and(|d| depth >= d);
        if etc_here {
            if let Some(v) = self.transposition_cutoff(game, &moves, depth, ply, beta) {
                self.stack.moves[ply] = moves;
                self.stats.tt_cutoffs += 1;
                self.tt
                    .store(key, depth as i16, ply32, v, Bound::Lower, None);
                return v;
            }
        }
        // The hash move, or else the game's likely cut-off, is searched before the others are
        // ordered: when it cuts off (the common case in re-searches), ordering them, often the
        // costliest part of a node, is skipped. The others end in the same order as if all
        // had been ordered at once.
        let first_alone = match hash_move {
            Some(h) => moves.iter().position(|&m| m == h),
            None => game.likely_cutoff(&moves, alpha, beta),
        };
        match first_alone {
            Some(i) => moves[..=i].rotate_right(1),
            None => self.order(game, &mut moves, (ply, depth), alpha, beta),
        }
        if self.options.prefetch_children
            && use_tt
            && depth > self.options.tt_min_depth
            && !etc_here
        {
            for &mv in &moves {
                game.play(mv);
                self.tt.prefetch(game.hash());
                game.undo(mv);
            }
        }
        let mut best = -INF;
        let mut best_mv = moves[0];
        let mut pruned = false;
        // Moves put off because another thread is searching the position they lead to, by
        // index (the first 128 moves); they are searched after the others.
        let defer = matches!(&self.defer_busy, Some((_, d)) if depth >= *d);
        let mut deferred = 0u128;
        let mut next = 0;
        loop {
            let first_pass = next < moves.len();
            let k = if first_pass {
                next += 1;
                next - 1
            } else if deferred != 0 {
                let k = deferred.trailing_zeros() as usize;
                deferred &= deferred - 1;
                k
            } else {
                break;
            };
            if k == 1 && first_alone.is_some() && first_pass {
                self.order(game, &mut moves[1..], (ply, depth), alpha, beta);
            }
            let mv = moves[k];
            let quiet = !game.is_tactical(mv);
            // Late quiet moves may be pruned (futility) or reduced (LMR) unless they give check.
            let reducible = quiet
                && k >= 3
                && depth >= 3
                && ply > 0
                && !in_check
                && self.options.late_move_reductions;
            if ply == 0 {
                if let Some(hook) = self.root_move_hook.as_mut() {
                    hook(mv, k + 1, self.root_depth);
                }
            }
            // A capture that loses material, near the horizon, off the principal variation.
            let losing = k > 0
                && !quiet
                && selective
                && self
                    .options
                    .losing_captures_depth
                    .is_some_and(|d| depth <= d)
                && game.losing_capture(mv);
            if losing {
                pruned = true;
                continue;
            }
            let played_index = if self.options.counter_moves {
                game.history_index(mv)
            } else {
                None
            };
            let played_piece = if self.options.continuation_history {
                game.continuation_index(mv)
            } else {
                None
            };
            game.play(mv);
            // Late-move pruning: near the horizon, off the principal variation, the tail of the
            // quiet moves is not searched at all.
            let prunable = k > 0
                && quiet
                && (futile
                    || selective
                        && self.options.late_move_pruning
                        && depth <= 3
                        && k >= 4 + (depth * depth) as usize);
            let gives_check = (reducible || prunable) && game.in_check();
            if prunable && !gives_check {
                game.undo(mv);
                pruned = true;
                continue;
            }
            if self.options.counter_moves {
                self.note_played(ply, played_index);
            }
            if self.options.continuation_history {
                note(&mut self.played_pieces, ply, played_piece);
            }
            let child = defer.then(|| game.hash());
            if let (Some(key), Some((busy, _))) = (child, &self.defer_busy) {
                if first_pass && k > 0 && k < 128 && busy.contains(key) {
                    game.undo(mv);
                    deferred |= 1 << k;
                    continue;
                }
                busy.enter(key);
            }
            // The singular table move is searched a ply deeper.
            let child_depth = depth - 1 + i32::from(singular == Some(mv));
            let v = if k == 0 || !self.options.pvs && !reducible {
                -self.search(game, child_depth, ply + 1, -beta, -alpha, true)
            } else {
                let reduction = if reducible && !gives_check {
                    let off_pv = self.options.deeper_reductions_off_pv && beta - alpha == 1;
                    let worsening = improving == Some(false);
                    (late_move_reduction(depth, k) + i32::from(off_pv) + i32::from(worsening))
                        .min(child_depth - 1)
                } else {
                    0
                };
                // Null window (and reduced depth) first; the full search only if it beats alpha.
                let mut v = -self.search(
                    game,
                    child_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.search(game, child_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if v > alpha && v < beta && beta - alpha > 1 && !self.aborted {
                    v = -self.search(game, child_depth, ply + 1, -beta, -alpha, true);
                }
                v
            };
            if let (Some(key), Some((busy, _))) = (child, &self.defer_busy) {
                busy.leave(key);
            }
            game.undo(mv);
            if self.aborted {
                self.stack.moves[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_mv = mv;
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if v > alpha {
                    alpha = v;
                    self.stack.update_pv(ply, mv);
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        if quiet {
                            self.reward_quiet(game, mv, ply, depth);
                            if self.options.history_malus {
                                for &earlier in &moves[..k] {
                                    if !game.is_tactical(earlier) {
                                        self.add_history(game, earlier, ply, -depth * depth);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        if pruned && best <= -WIN_BOUND && best < alpha0 {
            // Moves were skipped as unable to reach alpha: the side is not proven mated by the
            // moves that were searched, all that is known is "at most alpha".
            best = alpha0;
        }
        if self.stack.pv[ply].is_empty() {
            // Failed low: still remember the best move found for the table and the caller.
            self.stack.pv[ply].push(best_mv);
        }
        self.stack.moves[ply] = moves;
        if use_tt {
            let bound = Bound::of(best, alpha0, beta);
            self.tt
                .store(key, depth as i16, ply32, best, bound, Some(best_mv));
        }
        best
    }

    /// Null-move pruning at a node where it is allowed: `Some(score)` when letting the opponent
    /// move twice still fails high (and, deep enough, the node's own reduced search agrees).
    fn null_move(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        beta: Score,
        allowed: bool,
        evaluate: &mut impl FnMut(&G) -> Score,
    ) -> Option<Score> {
        let mut r = self.options.null_move? + depth / 4;
        if self.options.checks_at_horizon {
            r = r.min(depth - 2);
        }
        if !allowed || depth < 2 || !game.null_move_allowed() || evaluate(game) < beta {
            return None;
        }
        if self.options.counter_moves {
            self.note_played(ply, None);
        }
        if self.options.continuation_history {
            note(&mut self.played_pieces, ply, None);
        }
        game.play_null();
        let v = -self.search(game, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
        game.undo_null();
        if self.aborted || v < beta {
            return None;
        }
        if self.options.null_verify_depth.is_some_and(|d| depth >= d) {
            let verified = self.search(game, depth - r, ply, beta - 1, beta, false);
            if self.aborted || verified < beta {
                return None;
            }
        }
        self.stats.cutoffs += 1;
        // A mate found behind a pass proves nothing about the position itself.
        Some(if v >= WIN_BOUND { beta } else { v })
    }

    /// ProbCut at a node off the principal variation: `Some(bound)` when a shallow search puts
    /// the node's value beyond the window by the margin.
    fn probcut(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        (alpha, beta): (Score, Score),
        evaluate: &mut impl FnMut(&G) -> Score,
    ) -> Option<Score> {
        let pc = self.options.probcut?;
        if depth < pc.min_depth {
            return None;
        }
        let shallow = ProbCut::shallow_depth(depth);
        // The bounds the shallow value must clear: beta and alpha moved by the expected
        // difference and by the margin.
        let (offset, margin) = match pc.confidence.and_then(|t| {
            let e = game.probcut_error(depth, shallow)?;
            Some((e.mean, (e.sigma.max(0) as i64 * t as i64 / 100) as Score))
        }) {
            Some(fitted) => fitted,
            None => (0, pc.margin),
        };
        let high = beta.saturating_sub(offset).saturating_add(margin);
        let low = alpha.saturating_sub(offset).saturating_sub(margin);
        // One test where the static value points: the node is more likely to fail on its side.
        let (try_high, try_low) = if pc.one_side_by_evaluation {
            let e = evaluate(game);
            (e >= beta, e < beta)
        } else {
            (true, true)
        };
        if try_high && high < WIN_BOUND {
            let v = self.search(game, shallow, ply, high - 1, high, false);
            if self.aborted {
                return None;
            }
            if v >= high {
                self.stats.cutoffs += 1;
                return Some(beta);
            }
        }
        if try_low && low > -WIN_BOUND {
            let v = self.search(game, shallow, ply, low, low + 1, false);
            if self.aborted {
                return None;
            }
            if v <= low {
                self.stats.cutoffs += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// The singular-extension test ([`Singular`]) of the table move `mv` at a node whose table
    /// entry holds `(value, depth, bound)`: `None` when the test does not apply or the move is
    /// not singular.
    fn singular(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        beta: Score,
        mv: G::Move,
        (value, searched, bound): (Score, i32, Bound),
    ) -> Option<Singularity> {
        let sg = self.options.singular?;
        if depth < sg.min_depth
            || searched < depth - 3
            || bound == Bound::Upper
            || value.abs() >= WIN_BOUND
        {
            return None;
        }
        let bar = value - sg.margin_per_ply * depth;
        if bar <= -WIN_BOUND {
            return None;
        }
        note(&mut self.excluded, ply, Some(mv));
        let v = self.search(game, (depth - 1) / 2, ply, bar - 1, bar, false);
        note(&mut self.excluded, ply, None);
        if self.aborted {
            None
        } else if v < bar {
            Some(Singularity::Singular)
        } else if bar >= beta {
            self.stats.cutoffs += 1;
            Some(Singularity::MultiCut(bar))
        } else {
            None
        }
    }

    /// Enhanced transposition cut-off: a move whose resulting position the table already
    /// bounds at or above `beta` (from this side) for at least `depth - 1` plies.
    fn transposition_cutoff(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        depth: i32,
        ply: usize,
        beta: Score,
    ) -> Option<Score> {
        // The children's slots are fetched a chunk at a time before any is read, so that their
        // cache misses overlap instead of following one another.
        const CHUNK: usize = 16;
        let mut keys = [0u64; CHUNK];
        for chunk in moves.chunks(CHUNK) {
            for (key, &mv) in keys.iter_mut().zip(chunk) {
                game.play(mv);
                *key = game.hash();
                game.undo(mv);
                self.tt.prefetch(*key);
            }
            for (&key, &mv) in keys.iter().zip(chunk) {
                if let Some(e) = self.tt.probe(key, ply as u32 + 1) {
                    if e.depth as i32 >= depth - 1
                        && matches!(e.bound, Bound::Upper | Bound::Exact)
                        && -e.score >= beta
                    {
                        self.stack.pv[ply].push(mv);
                        return Some(-e.score);
                    }
                }
            }
        }
        None
    }

    /// Quiescence search: stand pat on the static evaluation, then try the tactical moves.
    fn quiesce(&mut self, game: &mut G, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.stats.leaves += 1;
        let stand_pat = game.evaluate();
        if stand_pat >= beta || ply >= MAX_QUIESCENCE_PLY {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.stack.moves[ply]);
        moves.clear();
        game.generate_tactical(&mut moves);
        if moves.is_empty() {
            self.stack.moves[ply] = moves;
            return stand_pat;
        }
        game.order_moves(&mut moves);
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        for &mv in &moves {
            if self.options.skip_losing_captures && game.losing_capture(mv) {
                continue;
            }
            game.play(mv);
            self.stats.nodes += 1;
            self.stack.enter(ply + 1);
            let v = if let Some(o) = game.outcome() {
                -mate_in(o, ply as u32 + 1)
            } else {
                -self.quiesce(game, ply + 1, -beta, -alpha)
            };
            game.undo(mv);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.stack.moves[ply] = moves;
        best
    }

    fn reward_quiet(&mut self, game: &G, mv: G::Move, ply: usize, depth: i32) {
        if let Some(slot) = self.counter_slot(ply) {
            if self.counters.is_empty() {
                self.counters.resize(HISTORY_SIZE, None);
            }
            self.counters[slot] = Some(mv);
        }
        if self.options.killers {
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None, None]);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.options.history {
            self.add_history(game, mv, ply, depth * depth);
        }
    }

    /// Records the history index of the move played at `ply` (for the counter move of the
    /// node below).
    fn note_played(&mut self, ply: usize, index: Option<usize>) {
        note(&mut self.played, ply, index);
    }

    /// The rows of the continuation history that score the moves of the node at `ply`: after
    /// the opponent's last move and after the side's own move before it.
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.options.continuation_history || self.continuation.is_empty() {
            return [None, None];
        }
        let before = |back: usize| {
            let i = ply.checked_sub(back)?;
            Some(self.played_pieces.get(i).copied()?? * CONTINUATION_SIZE)
        };
        [before(1), before(2)]
    }

    /// The counter-move slot of the node at `ply`: that of the move that led to it.
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        if !self.options.counter_moves || ply == 0 {
            return None;
        }
        let index = (*self.played.get(ply - 1)?)?;
        Some(index % HISTORY_SIZE)
    }

    /// Adds `amount` to the history score of `mv`, halving every score when one grows too large.
    /// With the continuation history on, the scores of `mv` after the moves that led to the
    /// node at `ply` move the same way.
    fn add_history(&mut self, game: &G, mv: G::Move, ply: usize, amount: i32) {
        if let Some(h) = game.history_index(mv) {
            let slot = &mut self.history[h % HISTORY_SIZE];
            *slot = slot.saturating_add(amount);
            if slot.abs() > 1 << 30 {
                self.history.iter_mut().for_each(|x| *x /= 2);
            }
        }
        if self.options.continuation_history {
            if self.continuation.is_empty() {
                self.continuation = vec![0; CONTINUATION_SIZE * CONTINUATION_SIZE];
            }
            let Some(piece) = game.continuation_index(mv) else {
                return;
            };
            for row in self.continuation_rows(ply).into_iter().flatten() {
                let slot = &mut self.continuation[row + piece % CONTINUATION_SIZE];
                *slot = slot.saturating_add(amount);
                if slot.abs() > 1 << 30 {
                    self.continuation.iter_mut().for_each(|x| *x /= 2);
                }
            }
        }
    }

    /// The game's order, then its tactical prefix kept in front, killers, the counter move,
    /// and quiet moves by history (the hash move, if any, is already out of `moves`: see
    /// `search`).
    fn order(
        &self,
        game: &G,
        moves: &mut [G::Move],
        (ply, depth): (usize, i32),
        alpha: Score,
        beta: Score,
    ) {
        game.order_moves_at_depth(moves, alpha, beta, depth);
        let mut front = 0;
        while front < moves.len() && game.is_tactical(moves[front]) {
            front += 1;
        }
        let to_front = |moves: &mut [G::Move], front: &mut usize, m: &G::Move| {
            if let Some(i) = moves[*front..].iter().position(|x| x == m) {
                moves[*front..=*front + i].rotate_right(1);
                *front += 1;
            }
        };
        if self.options.killers {
            if let Some(ks) = self.killers.get(ply) {
                for k in ks.iter().flatten() {
                    to_front(moves, &mut front, k);
                }
            }
        }
        let counter = self
            .counter_slot(ply)
            .and_then(|slot| *self.counters.get(slot)?);
        if let Some(c) = counter {
            to_front(moves, &mut front, &c);
        }
        if self.options.history {
            // A stable sort of the quiet tail by descending history score.
            let rows = self.continuation_rows(ply);
            let score = |m: &G::Move| {
                let history = game
                    .history_index(*m)
                    .map_or(0, |h| self.history[h % HISTORY_SIZE]);
                if rows == [None, None] {
                    return history;
                }
                let Some(piece) = game.continuation_index(*m) else {
                    return history;
                };
                rows.iter().flatten().fold(history, |s, row| {
                    s.saturating_add(self.continuation[row + piece % CONTINUATION_SIZE])
                })
            };
            let tail = &mut moves[front..];
            let mut keys = [0i32; 128];
            if tail.len() <= keys.len() {
                // Each score computed once, into a buffer on the stack.
                let keys = &mut keys[..tail.len()];
                for (k, m) in keys.iter_mut().zip(tail.iter()) {
                    *k = score(m);
                }
                crate::sort_descending_by_keys(tail, keys);
            } else {
                // More moves than any game here has: the same stable order, allocating.
                tail.sort_by_key(|m| std::cmp::Reverse(score(m)));
            }
        }
    }
}

/// What a singular-extension test found.
enum Singularity {
    /// No other move comes near the table move: search it a ply deeper.
    Singular,
    /// Another move, too, reaches a bound at or above beta: the node fails high with it.
    MultiCut(Score),
}

/// Records `value` for `ply` in a per-ply list of the current line.
fn note<V: Copy>(list: &mut Vec<Option<V>>, ply: usize, value: Option<V>) {
    if list.len() <= ply {
        list.resize(ply + 1, None);
    }
    list[ply] = value;
}

/// How many plies a late quiet move (the `index`-th of its node, from 0) is reduced by at
/// `depth`: growing with the logarithms of both, as in tournament engines (one ply for the
/// first late moves at depth 3, three or more for the tail of a deep node).
///
/// Never inlined: inlined, the compiler computed the logarithms of the fallback ahead of the
/// test for a reducible move, in every node of searches that never reduce (0.7% of an Othello
/// endgame solve).
#[inline(never)]
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    // Looked up for the usual depths and move counts: computing the logarithms at every node
    // cost 1% of an Othello endgame solve, which never reduces (the compiler hoisted them).
    const DEPTHS: usize = 64;
    const INDICES: usize = 64;
    static TABLE: std::sync::OnceLock<[[u8; INDICES]; DEPTHS]> = std::sync::OnceLock::new();
    let formula = |depth: i32, index: usize| {
        let r = 0.75 + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / 2.25;
        (r as i32).max(1)
    };
    match (usize::try_from(depth), index) {
        (Ok(d), i) if d < DEPTHS && i < INDICES => {
            let table = TABLE.get_or_init(|| {
                std::array::from_fn(|d| std::array::from_fn(|i| formula(d as i32, i) as u8))
            });
            i32::from(table[d][i])
        }
        _ => formula(depth, index),
    }
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
    use super::late_move_reduction;

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

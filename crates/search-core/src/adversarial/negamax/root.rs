//! The searcher's face: making one (its table owned or shared), its limits (deadline, node
//! budget, stop signal, root-move hook), and the root of a search, which drives `node`'s
//! recursion and keeps the principal variation.

use super::{RootMoveHook, SearchOptions, Searcher};
use crate::deadline::{Budget, Deadline};
use crate::game::{Game, PlyStack, Score, HISTORY_SIZE};
use crate::stats::GameStats;
use crate::tables::tt::Transpositions;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    pub(super) fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.budget.exhausted(self.stats.nodes) {
            self.aborted = true;
        }
        self.aborted
    }
}

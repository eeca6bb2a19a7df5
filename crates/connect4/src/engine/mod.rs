//! The playing engine: `search-core`'s UCT, simulating on bitboards ([`BitState`]; the course
//! board [`GameState`] stays the reference for the rules and the interfaces).

pub mod agents;
pub mod analyze;
pub mod bit_search;
pub mod rollout;
pub mod root_parallel;
pub mod search_game;
pub mod zugzwang;

use crate::engine::bit_search::{proof_searcher, BitSearch};
use crate::engine::rollout::reused_tree;
pub use crate::engine::rollout::{TacticalRollout, SECOND_PLAYER_FOLLOW_UP};
use crate::engine::root_parallel::{combined_best, helper_search, SharedMove, MAX_COLUMNS};
use crate::rules::bitstate::BitState;
pub use crate::rules::game_state::GameState;
use search_core::{
    Deadline, Game, Mcts, MctsConfig, ProofResult, ProofSearch, Searcher, WIN_BOUND,
};
use std::time::{Duration, Instant};

/// The engine's time per move when nothing says otherwise (`CONNECT4_TIME_MS` for the library,
/// `--time-ms` for `move` and `saiblo`): 1 s, two seconds inside the course tool's 3 s limit.
/// Measured with the hard deadline, the slowest of over 4,000 answers at 1 s took 1,019 ms
/// beside two busy threads; the engine is as strong at 1 s as at 2 s within the measurements'
/// noise (116 of 120 games at 2 s against 114 at 1 s, docs/connect4-strength.md), so the
/// margin costs nothing measurable.
pub const DEFAULT_LIBRARY_BUDGET: Duration = Duration::from_millis(1000);

/// Engine settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Time budget per move.
    pub time: Duration,
    /// Optional fixed iteration budget (for reproducible play); the time limit still applies.
    pub iterations: Option<u64>,
    /// UCT exploration constant. The default, 0.6, was tuned by self-play at 200 ms per move
    /// (`compete mcts:200:C mcts:200:C'`, 60 games each): 0.6 beat 0.9 38-22, 0.9 beat 1.3
    /// 42-18, 0.4 against 0.6 was even (29-30, one draw) and 0.25 lost to 0.6 16-44. Against
    /// alphabeta:4 at 1 s per move it made no difference (234 of 240 on the same boards).
    pub exploration: f64,
    /// Tree size limit in nodes (bounded memory).
    pub max_nodes: usize,
    /// Seed.
    pub seed: u64,
    /// Whether rollouts play last good replies ([`TacticalRollout::last_good_reply`]); off by
    /// default (the `mcts-lgr` agent turns it on).
    pub last_good_reply: bool,
    /// Whether the tree searches each position once, whatever the move order
    /// (`search-core`'s [`MctsConfig::transpositions`]); off by default, the `mcts-tt` agent
    /// turns it on. Measured and left off: against alphabeta:4 at 100 ms per move it won 388
    /// of 400 games (seeds 700 and 701), as the engine without it did on the same boards, and
    /// in self-play at 200 ms per move it lost 91 to 109 (seed 610). It costs 5% of the
    /// simulation speed (criterion `mcts_12x12`); the gain it brings to games such as Nim
    /// (search-core's tests) does not show here, where rollouts, not the tree, limit the play.
    pub transpositions: bool,
    /// Threads searching each move: the main one runs the proof searches and its MCTS tree,
    /// every other one grows an MCTS tree of its own ([`crate::engine::root_parallel`]), and the move
    /// goes by the visits of all the trees. One by default. Against alphabeta:4 two threads
    /// won 397 of 400 games at 100 ms per move where one won 388 (seeds 700-701), and 594 of
    /// 600 at 1 s per move (seeds 172-181), as one thread did (99.1% on seeds 156-171).
    pub threads: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            time: DEFAULT_LIBRARY_BUDGET,
            iterations: None,
            exploration: 0.6,
            max_nodes: 4_000_000,
            seed: 2024,
            last_good_reply: false,
            transpositions: false,
            threads: 1,
        }
    }
}

/// An engine that keeps its tree and its proof table between the moves of one game.
///
/// Before searching it takes an immediate win and blocks an immediate loss (when there is a
/// single threat). Neither the tree nor the rollouts consider moves that let the opponent win
/// at once on the cell above (unless every move does); rollouts also win and block when they
/// can, cash in stacked threats (two of one side's threats on consecutive cells of a column:
/// a stone below them wins in three plies) and never hand the opponent one, never fill the
/// cell right below one of their own threats (which lets the opponent kill it) while another
/// move is safe, and otherwise play at random, so simulated games are not decided by
/// blunders; the second player often answers in the column just played (its parity
/// strategy, which decides zugzwang endings). Optionally they first replay the answer that won
/// their last simulation (last good reply, learnt afresh for each move).
/// At every move an alpha-beta screen on bitboards ([`BitSearch`]: wins only, forced moves and
/// safe moves) deepens for an eighth of the time budget, to the end of the game when it can: a
/// proven win is played at once (MCTS would find it too, but may prefer a slower one), and
/// moves it proves lost are taken out of the MCTS tree. A proof-number search (`search-core`'s
/// [`ProofSearch`], which follows forcing lines far beyond the screen's depth) then looks for a
/// deeper forced win for a sixteenth of the budget. MCTS alone runs until [`MCTS_FIRST`] of the
/// budget; a deep win that was neither proved nor disproved then gets another
/// [`OWN_WIN_AFTER_MCTS`] of it (its table is kept, so the work adds up over the moves); the
/// rest goes to trying to prove MCTS's favourite lost by proof-number search. A
/// refuted move is taken out of the tree, a disproved one is not tried again, and after either
/// MCTS runs on for [`MCTS_SLICE`] to re-rank the moves left before the next attempt, so a move
/// refuted in time is never played (unless all are). The tree is
/// bounded, kept between moves when the new position follows from the old one (subtree reuse),
/// and every random choice comes from the seed, so a fixed iteration budget gives reproducible
/// moves. On more than one thread ([`EngineConfig::threads`]) the other threads grow MCTS trees
/// of their own for the whole move ([`crate::engine::root_parallel`]), and the favourite the proofs try
/// to refute, and the move played, go by the visits of all the trees.
pub struct Engine {
    config: EngineConfig,
    tree: Option<Mcts<BitState>>,
    /// The screen's transposition table: what it proved about a position (a win, or no win
    /// within some plies) stays true when the position comes back.
    proofs: Option<Searcher<BitSearch>>,
    /// The proof-number searches' table (deep wins and refutations), kept the same way.
    deep_proofs: Option<ProofSearch<BitSearch>>,
    /// The helper threads' trees ([`EngineConfig::threads`]), kept the same way.
    helpers: Vec<Option<Mcts<BitState>>>,
    /// When the current move must be answered: no phase of the thinking runs past it.
    hard_end: Instant,
    /// The trees being moved on after the last answer, off the clock.
    kept: Option<std::thread::JoinHandle<KeptTrees>>,
    /// The root of the last move's search, column by column.
    last_root: Vec<ColumnVisits>,
    /// Told the root's columns as the search of a move goes ([`Engine::watch`]).
    watcher: Option<Watcher>,
}

/// A function told the root's columns while a move is searched.
pub type Watcher = Box<dyn FnMut(&[ColumnVisits]) -> bool + Send>;

/// How often a watched search reports, as a fraction of the move's time.
const WATCH_EVERY: (u32, u32) = (1, 16);

/// What the search of one move found about one column.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ColumnVisits {
    /// The column, from 0.
    pub column: usize,
    /// Simulations through it, over every thread's tree.
    pub visits: u32,
    /// Mean reward of those simulations for the side that played the column (0 lost, 1 won).
    pub win_rate: f64,
}

/// The main tree and the helpers' trees, kept from one move to the next.
type KeptTrees = (Option<Mcts<BitState>>, Vec<Option<Mcts<BitState>>>);

/// How one move's thinking ended.
enum Thought {
    /// A proven win, or the only move that does not lose at once (with the tree, when it was
    /// searched).
    Decided(usize, Option<Mcts<BitState>>),
    /// No proof decided: the move goes by the search's visit counts.
    Searched(Mcts<BitState>),
}

/// The root children of `trees` merged column by column: visits added, win rates weighted by
/// visits.
fn root_visits<'a>(trees: impl Iterator<Item = &'a Mcts<BitState>>) -> Vec<ColumnVisits> {
    let mut merged: Vec<ColumnVisits> = Vec::new();
    for (column, visits, mean) in trees.flat_map(|t| t.root_children()) {
        let at = match merged.iter().position(|c| c.column == column) {
            Some(i) => i,
            None => {
                merged.push(ColumnVisits {
                    column,
                    visits: 0,
                    win_rate: 0.0,
                });
                merged.len() - 1
            }
        };
        let c = &mut merged[at];
        let total = c.visits + visits;
        if total > 0 {
            c.win_rate =
                (c.win_rate * f64::from(c.visits) + mean * f64::from(visits)) / f64::from(total);
        }
        c.visits = total;
    }
    merged.sort_by_key(|c| c.column);
    merged
}

/// Size of the screen's transposition table, MiB.
const PROOF_TABLE_MB: usize = 16;

/// Size of the proof-number searches' table, MiB. Deep proofs need room: on a 9x9 position
/// 33 plies in, 2 s per move proved two of seven moves lost with 64 MiB and four with 128 MiB
/// (256 MiB: the same four, and small proofs about 10% slower).
const DEEP_PROOF_TABLE_MB: usize = 128;

impl Engine {
    /// A new engine.
    ///
    /// The proof tables are allocated here, not during the first move, so that a match's
    /// clock does not pay for them.
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            tree: None,
            proofs: Some(proof_searcher(PROOF_TABLE_MB)),
            deep_proofs: Some(ProofSearch::new(DEEP_PROOF_TABLE_MB)),
            helpers: Vec::new(),
            hard_end: Instant::now(),
            kept: None,
            last_root: Vec::new(),
            watcher: None,
        }
    }

    /// The columns the last move's search visited, with their visits and win rates over all
    /// its trees (empty when the move was forced before any search).
    ///
    /// ```
    /// use connect4::{Board, engine::{Engine, EngineConfig, GameState}};
    /// let mut e = Engine::new(EngineConfig { iterations: Some(2000), ..Default::default() });
    /// e.choose(&GameState::new(Board::new(9, 9, 0, 0), 1));
    /// let root = e.last_root();
    /// assert!(root.iter().map(|c| c.visits).sum::<u32>() >= 1000);
    /// assert!(root.iter().all(|c| c.column < 9 && (0.0..=1.0).contains(&c.win_rate)));
    /// ```
    pub fn last_root(&self) -> &[ColumnVisits] {
        &self.last_root
    }

    /// Has `watcher` told the visits and win rates of the root's columns (of the main tree)
    /// about every sixteenth of a move's time while it is searched, so that a view can show
    /// the search as it goes; when it answers `false` (nobody is watching any more) the move
    /// is chosen at once from what was searched. `None` stops the watching. Searches on a
    /// fixed iteration budget are not watched (their slices follow the iterations, not the
    /// clock).
    ///
    /// ```
    /// use connect4::{Board, engine::{Engine, EngineConfig, GameState}};
    /// use std::sync::{Arc, Mutex};
    /// let reports = Arc::new(Mutex::new(Vec::new()));
    /// let seen = reports.clone();
    /// let time = std::time::Duration::from_millis(200);
    /// let mut e = Engine::new(EngineConfig { time, ..Default::default() });
    /// e.watch(Some(Box::new(move |columns| {
    ///     seen.lock().unwrap().push(columns.iter().map(|c| c.visits).sum::<u32>());
    ///     true
    /// })));
    /// e.choose(&GameState::new(Board::new(9, 9, 0, 0), 1));
    /// let reports = reports.lock().unwrap();
    /// assert!(reports.len() >= 2 && reports.windows(2).all(|w| w[0] <= w[1]));
    /// ```
    pub fn watch(&mut self, watcher: Option<Watcher>) {
        self.watcher = watcher;
    }

    /// Runs `tree` until its configured deadline, in slices from now when the search is
    /// watched (then the watcher is told the root after each).
    fn search_watched(&mut self, tree: &mut Mcts<BitState>, rollout: &mut TacticalRollout) {
        let config = tree.config();
        let (Some(watcher), None, Some(end)) = (
            &mut self.watcher,
            config.max_iterations,
            config.deadline.instant(),
        ) else {
            tree.search(rollout);
            return;
        };
        let every = self.config.time * WATCH_EVERY.0 / WATCH_EVERY.1;
        let mut until = Instant::now();
        while until < end {
            until = (until + every).min(end);
            tree.set_config(MctsConfig {
                deadline: Deadline::at(until),
                ..config
            });
            tree.search(rollout);
            if !watcher(&root_visits(std::iter::once(&*tree))) {
                // Nobody is watching any more: every phase ends now (they all stop by
                // `hard_end`).
                self.hard_end = Instant::now();
                break;
            }
        }
        tree.set_config(config);
    }

    /// Forgets the current game (the course's re-initialisation for a new game).
    pub fn reset(&mut self) {
        self.collect_kept_trees();
        self.tree = None;
        self.helpers.clear();
        if let Some(s) = &mut self.proofs {
            s.clear();
        }
        if let Some(s) = &mut self.deep_proofs {
            s.clear();
        }
    }

    /// Chooses a column for `state`; the move is always legal when any is.
    ///
    /// ```
    /// use connect4::{Board, engine::{Engine, EngineConfig, GameState}};
    /// let mut b = Board::new(9, 9, 0, 0);
    /// for y in [3, 4, 5] { b.play(y, 1); } // player 1 threatens on both sides
    /// let mut e = Engine::new(EngineConfig { iterations: Some(500), ..Default::default() });
    /// let y = e.choose(&GameState::new(b, 1));
    /// assert!(y == 2 || y == 6); // completes four
    /// ```
    pub fn choose(&mut self, state: &GameState) -> usize {
        self.choose_from(state, Instant::now())
    }

    /// Chooses a column for `state` within the time budget counted from `start` (when the
    /// request arrived): every phase (the screen, the proof-number searches, MCTS, the helper
    /// threads) stops by `start` + the budget, whatever time went before it.
    pub fn choose_from(&mut self, state: &GameState, start: Instant) -> usize {
        self.hard_end = start + self.config.time;
        self.collect_kept_trees();
        let legal: Vec<usize> = (0..state.board.n)
            .filter(|&y| state.board.can_play(y))
            .collect();
        self.last_root.clear();
        if let Some(y) = state.forced_move() {
            self.tree = None;
            return y;
        }
        let helpers = self.config.threads.saturating_sub(1);
        if helpers == 0 || state.board.n > MAX_COLUMNS {
            let thought = self.think(state, start, &legal, None);
            return self.conclude(thought, &legal, None, Vec::new());
        }
        let mut trees = std::mem::take(&mut self.helpers);
        trees.resize_with(helpers, || None);
        let shared = SharedMove::new(helpers);
        let root = BitState::from_game(state);
        let end = start + self.config.time;
        let iterations = self.config.iterations;
        let config = self.mcts_config(Deadline::at(end), iterations);
        let (thought, trees) = std::thread::scope(|s| {
            let handles: Vec<_> = trees
                .into_iter()
                .enumerate()
                .map(|(i, tree)| {
                    let shared = &shared;
                    let config = MctsConfig {
                        seed: helper_seed(config.seed, i),
                        ..config
                    };
                    let rollout = self.rollout();
                    s.spawn(move || {
                        helper_search(tree, root, config, rollout, shared, i, end, iterations)
                    })
                })
                .collect();
            let thought = self.think(state, start, &legal, Some(&shared));
            shared.stop();
            let trees: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().expect("a helper thread panicked"))
                .collect();
            (thought, trees)
        });
        self.conclude(thought, &legal, Some(&shared), trees)
    }

    /// Plays the move `thought` leads to in every tree and keeps them for the next move.
    fn conclude(
        &mut self,
        thought: Thought,
        legal: &[usize],
        shared: Option<&SharedMove>,
        helpers: Vec<Mcts<BitState>>,
    ) -> usize {
        let (choice, tree) = match thought {
            Thought::Decided(y, tree) => (y, tree),
            Thought::Searched(tree) => {
                let y = combined_best(&tree, shared)
                    .filter(|y| legal.contains(y))
                    .unwrap_or(legal[0]);
                (y, Some(tree))
            }
        };
        self.last_root = root_visits(tree.iter().chain(&helpers));
        // Moving the trees on copies the kept subtrees and frees the rest, which takes
        // milliseconds for big trees: it is done on a thread of its own once the answer is
        // given, off the move's clock, and collected when the next move starts.
        self.kept = Some(std::thread::spawn(move || {
            let tree = tree.map(|mut t| {
                t.advance(choice);
                t
            });
            let helpers = helpers
                .into_iter()
                .map(|mut t| {
                    t.advance(choice);
                    Some(t)
                })
                .collect();
            (tree, helpers)
        }));
        choice
    }

    /// Takes back the trees the last move's thread moved on (see `conclude`).
    fn collect_kept_trees(&mut self) {
        if let Some(handle) = self.kept.take() {
            // A panic in that thread loses the trees, not the game: the search starts afresh.
            if let Ok((tree, helpers)) = handle.join() {
                self.tree = tree;
                self.helpers = helpers;
            }
        }
    }

    /// The rollout policy of this engine's trees.
    fn rollout(&self) -> TacticalRollout {
        TacticalRollout {
            last_good_reply: self.config.last_good_reply,
            ..TacticalRollout::default()
        }
    }

    /// The MCTS settings of a search until `deadline` (or `iterations`).
    fn mcts_config(&self, deadline: Deadline, iterations: Option<u64>) -> MctsConfig {
        MctsConfig {
            exploration: self.config.exploration,
            max_iterations: iterations,
            deadline,
            rollout_depth: None,
            max_nodes: self.config.max_nodes,
            normalize: false,
            seed: self.config.seed,
            // The MCTS-solver stops once the root is proven; when every move loses, the engine
            // then has no visit counts to pick the most stubborn move by (it would not block).
            // Nor did it play better: at 300 ms per move against alphabeta:4 it won 378 of 400
            // games, against 384 of 400 without it on the same boards.
            solver: false,
            transpositions: self.config.transpositions,
        }
    }

    /// The thinking of one move on the main thread: the screen, the proof-number searches and
    /// MCTS, telling the helpers (`shared`) which moves are proven lost.
    fn think(
        &mut self,
        state: &GameState,
        start: Instant,
        legal: &[usize],
        shared: Option<&SharedMove>,
    ) -> Thought {
        let exclude = |tree: &mut Mcts<BitState>, y: usize| {
            tree.exclude_root_move(y);
            if let Some(s) = shared {
                s.exclude(y);
            }
        };
        let mut game = BitSearch::new(BitState::from_game(state));
        let mut searcher = self
            .proofs
            .take()
            .unwrap_or_else(|| proof_searcher(PROOF_TABLE_MB));
        searcher.reset_stats();
        let screen = self.screen(&mut game, &mut searcher, legal);
        self.proofs = Some(searcher);
        if let Some(y) = screen.winning {
            return Thought::Decided(y, None);
        }
        let mut deep = self
            .deep_proofs
            .take()
            .unwrap_or_else(|| ProofSearch::new(DEEP_PROOF_TABLE_MB));
        // Wins beyond the screen's depth: proof-number search follows forcing lines far deeper.
        self.set_budget(&mut deep, self.share(self.config.time / 16));
        let own_win = deep.prove(&mut game);
        if let Some(y) = proven_win(own_win, &mut deep, &mut game, legal) {
            self.deep_proofs = Some(deep);
            return Thought::Decided(y, None);
        }
        let time = self.config.time;
        let iterations = self.config.iterations;
        let base = self.mcts_config(Deadline::none(), None);
        let mcts_config = |until: Duration, iterations: Option<u64>| MctsConfig {
            deadline: Deadline::at(start + until),
            max_iterations: iterations,
            ..base
        };
        let first = mcts_config(
            time * MCTS_FIRST.0 / MCTS_FIRST.1,
            iterations.map(|n| n / 2),
        );
        let mut tree = reused_tree(self.tree.take(), *game.state(), first);
        let mut rollout = self.rollout();
        // The moves the screen proved lost are not searched at all, unless every move is lost:
        // then MCTS picks the most stubborn. A new root gets its moves from a first iteration.
        let every_move_lost = screen.lost.len() == legal.len();
        if !screen.lost.is_empty() && !every_move_lost {
            if tree.root_children().is_empty() {
                tree.set_config(MctsConfig {
                    max_iterations: Some(1),
                    ..first
                });
                tree.search(&mut rollout);
                tree.set_config(first);
            }
            for &y in &screen.lost {
                exclude(&mut tree, y);
            }
        }
        self.search_watched(&mut tree, &mut rollout);
        // A deep win the first attempt ran out of time on gets a second share, after MCTS
        // (whose favourite may be a move that is not lost and cannot be refuted: refutations
        // would then take all the time left).
        if own_win == ProofResult::Unknown {
            let share = self.config.time * OWN_WIN_AFTER_MCTS.0 / OWN_WIN_AFTER_MCTS.1;
            self.set_budget(&mut deep, self.share(share));
            let own_win = deep.prove(&mut game);
            if let Some(y) = proven_win(own_win, &mut deep, &mut game, legal) {
                self.deep_proofs = Some(deep);
                return Thought::Decided(y, Some(tree));
            }
        }
        // The rest of the time tries to prove MCTS's favourite lost by proof-number search (a
        // refuted move is excluded from the tree, and the next favourite by visits is tried at
        // once: refutations of sibling moves share the table, so after the first they often
        // take a millisecond). Once an attempt fails (the favourite is not lost, or the budget
        // ran out), more MCTS re-ranks the moves left and the next favourite is tried.
        let mut not_lost: Vec<usize> = Vec::new();
        let mut round = 0;
        loop {
            let elapsed = start.elapsed();
            let rounds_left = match iterations {
                Some(_) => round < FIXED_BUDGET_ROUNDS,
                None => elapsed < time && Instant::now() < self.hard_end,
            };
            if !rounds_left {
                break;
            }
            round += 1;
            // When every move is lost, refutations have nothing to tell apart: the tree offers
            // a move it already holds as lost (the screen's or a refuted one) only then.
            // The helpers' visits count once they are read as the search goes (not on a fixed
            // budget, where the helpers' progress at this point depends on the machine).
            let favourite = combined_best(&tree, shared.filter(|_| iterations.is_none()))
                .filter(|_| !every_move_lost)
                .filter(|y| !not_lost.contains(y))
                .filter(|&y| !tree.root_child_proofs().contains(&(y, Some(false))));
            if let Some(y) = favourite {
                // A watched search reports between refutation attempts: each gets at most a
                // report's interval (an unfinished one goes on in a later round, its table kept).
                let deadline = match self.watcher {
                    Some(_) => Deadline::at(
                        (Instant::now() + time * WATCH_EVERY.0 / WATCH_EVERY.1).min(self.hard_end),
                    ),
                    None => Deadline::at(self.hard_end),
                };
                match self.refute(&mut game, &mut deep, y, deadline) {
                    ProofResult::Proven => {
                        exclude(&mut tree, y);
                        continue;
                    }
                    ProofResult::Disproven => not_lost.push(y),
                    ProofResult::Unknown => {}
                }
            }
            let slice = start.elapsed() + time * MCTS_SLICE.0 / MCTS_SLICE.1;
            tree.set_config(mcts_config(slice.min(time), iterations.map(|n| n / 8)));
            self.search_watched(&mut tree, &mut rollout);
        }
        self.deep_proofs = Some(deep);
        Thought::Searched(tree)
    }

    /// Whether the opponent forces a win after `y`, by proof-number search until a proof, a
    /// disproof or the budget (the deadline, or a node budget when the engine runs on a fixed
    /// iteration budget); a search the budget interrupted proves nothing.
    fn refute(
        &self,
        game: &mut BitSearch,
        deep: &mut ProofSearch<BitSearch>,
        y: usize,
        deadline: Deadline,
    ) -> ProofResult {
        self.set_budget(deep, deadline);
        game.play(y);
        let result = deep.prove(game);
        game.undo(y);
        result
    }

    /// A phase's deadline: `part` of the time from now, but never past the move's end.
    fn share(&self, part: Duration) -> Deadline {
        Deadline::at((Instant::now() + part).min(self.hard_end))
    }

    /// Bounds the next proof-number search by `deadline`, or by [`DEEP_PROOF_NODES`] more nodes
    /// when the engine runs on a fixed iteration budget (so that its play is reproducible).
    fn set_budget(&self, deep: &mut ProofSearch<BitSearch>, deadline: Deadline) {
        if self.config.iterations.is_some() {
            deep.budget_mut().node_limit = Some(deep.nodes() + DEEP_PROOF_NODES);
        } else {
            deep.budget_mut().deadline = deadline;
        }
    }
}

/// The winning move of `game` when proof-number search has just proved (`result`) that the
/// side to move wins.
fn proven_win(
    result: ProofResult,
    deep: &mut ProofSearch<BitSearch>,
    game: &mut BitSearch,
    legal: &[usize],
) -> Option<usize> {
    if result != ProofResult::Proven {
        return None;
    }
    deep.winning_move(game).filter(|y| legal.contains(y))
}

/// Whether the opponent forces a win within `depth` plies after `y` (a null-window search on
/// wins only); `None` when the searcher's budget interrupted it (it proves nothing then).
fn opponent_wins_after(
    game: &mut BitSearch,
    searcher: &mut Searcher<BitSearch>,
    y: usize,
    depth: u32,
) -> Option<bool> {
    game.play(y);
    let v = searcher.search_root(game, depth, WIN_BOUND - 1, WIN_BOUND);
    game.undo(y);
    (!searcher.aborted()).then_some(v >= WIN_BOUND)
}

/// The share of the move time after which MCTS alone stops (the screen and the search for a
/// deep win run before it); the deep win's second share ([`OWN_WIN_AFTER_MCTS`], when the first
/// settled nothing) and refutations, each followed by more MCTS, take the rest. (Giving
/// refutations more of the time did not pay: with MCTS alone until a quarter of the time and
/// refutations in slices of three sixteenths, the engine won 174 of 180 games against
/// alphabeta:4 at 1 s per move, against 587 of 600 with the older split at five eighths. At
/// 300 ms per move against alphabeta:4, 200 games on the same boards each: MCTS alone until
/// 6/16 won 187, until 13/16 won 187 and this split won 192, as it did on a second set of
/// boards.)
pub const MCTS_FIRST: (u32, u32) = (10, 16);

/// The second share of the move time for proving a deep win, after MCTS alone, when the first
/// (a sixteenth, before MCTS) neither proved nor disproved it.
pub const OWN_WIN_AFTER_MCTS: (u32, u32) = (2, 16);

/// The time of MCTS after each refutation attempt that did not refute, as a share of the move
/// time: it re-ranks the moves left.
pub const MCTS_SLICE: (u32, u32) = (1, 16);

/// Refutation attempts when the engine runs on a fixed iteration budget (each with
/// [`DEEP_PROOF_NODES`] nodes; one that does not refute is followed by an eighth of the
/// iterations).
pub const FIXED_BUDGET_ROUNDS: u32 = 4;

/// Node budget of the screen when the engine runs on a fixed iteration budget (reproducible).
pub const SCREEN_NODES: u64 = 400_000;

/// Node budget of each proof-number search when the engine runs on a fixed iteration budget.
pub const DEEP_PROOF_NODES: u64 = 100_000;

/// What the tactical screen proved about the root moves.
struct Screen {
    /// A move that forces a win within the screen's depth.
    winning: Option<usize>,
    /// Moves after which the opponent forces a win within the screen's depth.
    lost: Vec<usize>,
}

impl Engine {
    /// Short alpha-beta proofs before MCTS: a forced win to play at once, and the moves that
    /// lose by force (MCTS with random rollouts can miss such shallow traps; alpha-beta cannot).
    /// Null-window searches with wins as the only non-zero outcome, deepened up to the end of
    /// the game; bounded by an eighth of the move time, or by a node budget when the engine
    /// runs on a fixed iteration budget so that play stays reproducible. Results of an
    /// interrupted search are not used.
    fn screen(
        &self,
        game: &mut BitSearch,
        searcher: &mut Searcher<BitSearch>,
        legal: &[usize],
    ) -> Screen {
        let mut screen = Screen {
            winning: None,
            lost: Vec::new(),
        };
        if self.config.iterations.is_some() {
            searcher.set_node_limit(Some(SCREEN_NODES));
        } else {
            searcher.set_deadline(self.share(self.config.time / 8));
        }
        // Deepening: every completed proof is sound (an interrupted search proves nothing), so
        // shallow traps are always caught and deeper ones when time allows. Only odd depths:
        // the side to move wins on odd plies, and so does the opponent after each root move.
        let empty = game.state().empty_cells();
        for depth in (1..=empty).step_by(2) {
            let v = searcher.search_root(game, depth, WIN_BOUND - 1, WIN_BOUND);
            if searcher.aborted() {
                break;
            }
            if v >= WIN_BOUND {
                screen.winning = searcher.best_move().filter(|y| legal.contains(y));
                if screen.winning.is_some() {
                    return screen;
                }
            }
            for &y in legal {
                if screen.lost.contains(&y) {
                    continue;
                }
                match opponent_wins_after(game, searcher, y, depth) {
                    None => break,
                    Some(true) => screen.lost.push(y),
                    Some(false) => {}
                }
            }
            if searcher.aborted() || screen.lost.len() == legal.len() {
                break;
            }
        }
        screen
    }
}

/// The seed of helper tree `i`, apart from the main tree's `seed` and the other helpers'.
fn helper_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

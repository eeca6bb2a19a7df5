//! Property tests: every two-player search agrees with plain minimax.

mod common;
use proptest::prelude::*;
use search_core::hash::mix64 as mix;
use search_core::*;

/// A random game tree given by a seed: the branching factor and leaf values are hashes of the
/// path, so every node is unique (no transpositions) and the tree is fixed by the seed.
#[derive(Clone)]
struct RandomTree {
    seed: u64,
    path: Vec<u64>,
    hash: u64,
    max_branch: u64,
    /// Whether [`Game::likely_cutoff`] names a move (chosen by the hash, not by merit) at every
    /// node it can, and how often it was asked.
    guess_cutoffs: bool,
    asked: std::cell::Cell<u64>,
    /// What [`Game::probcut_error`] answers at every node.
    probcut_error: Option<ProbCutError>,
    /// Whether nodes less than two plies above the horizon take another order, and the
    /// depths [`Game::order_moves_at_depth`] was called with.
    cheap_near_horizon: bool,
    order_depths: std::cell::RefCell<Vec<i32>>,
}

impl RandomTree {
    fn new(seed: u64, max_branch: u64) -> Self {
        RandomTree {
            seed,
            path: Vec::new(),
            hash: mix(seed),
            max_branch,
            guess_cutoffs: false,
            asked: 0.into(),
            probcut_error: None,
            cheap_near_horizon: false,
            order_depths: Default::default(),
        }
    }
}

impl Game for RandomTree {
    type Move = u8;
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        // Some nodes have no moves (a loss for the side to move), most have 1..=max_branch.
        let b = mix(self.hash ^ 0xabc) % (self.max_branch + 1);
        if self.path.len() < 2 || b > 0 {
            moves.extend(0..b.max(1) as u8);
        }
    }
    fn play(&mut self, mv: u8) {
        self.path.push(self.hash);
        self.hash = mix(self.hash ^ (mv as u64 + 1) ^ self.seed);
    }
    fn undo(&mut self, _mv: u8) {
        self.hash = self.path.pop().unwrap();
    }
    fn evaluate(&self) -> Score {
        (mix(self.hash) % 201) as Score - 100
    }
    fn probcut_error(&self, _depth: i32, _shallow: i32) -> Option<ProbCutError> {
        self.probcut_error
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn order_moves(&self, moves: &mut [u8]) {
        // A deliberately arbitrary but deterministic order, to exercise reordering.
        moves.sort_by_key(|&m| mix(self.hash ^ m as u64) % 7);
    }
    fn order_moves_at_depth(&self, moves: &mut [u8], _alpha: Score, _beta: Score, depth: i32) {
        self.order_depths.borrow_mut().push(depth);
        if self.cheap_near_horizon && depth < 2 {
            moves.reverse();
        } else {
            self.order_moves(moves);
        }
    }
    fn history_index(&self, mv: u8) -> Option<usize> {
        Some(mv as usize)
    }
    fn continuation_index(&self, mv: u8) -> Option<usize> {
        // A "piece" drawn from the position, and the move.
        Some((mix(self.hash ^ 0xc0) % 16) as usize * 16 + mv as usize)
    }
    fn likely_cutoff(&self, moves: &[u8], _alpha: Score, _beta: Score) -> Option<usize> {
        if !self.guess_cutoffs {
            return None;
        }
        self.asked.set(self.asked.get() + 1);
        let h = mix(self.hash ^ 0x9e55);
        (!h.is_multiple_of(3)).then(|| (h / 3 % moves.len() as u64) as usize)
    }
}

/// Checks a parallel root search, `search(alpha, beta)` returning its result and whether the
/// games were restored, against alpha-beta on the tree of `seed`: the full window gives the
/// value, the move named achieves it (mate scores shift by a ply, so those aside), and a null
/// window answers on the right side of it.
fn check_parallel_root(
    seed: u64,
    branch: u64,
    depth: u32,
    mut search: impl FnMut(Score, Score) -> (ParallelRoot<u8>, bool),
) -> Result<(), TestCaseError> {
    let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
    let (r, restored) = search(-INF, INF);
    prop_assert!(!r.aborted);
    prop_assert_eq!(ab.score, r.score);
    prop_assert!(restored);
    if mate_distance(ab.score).is_none() {
        let mut after = RandomTree::new(seed, branch);
        after.play(r.best.unwrap());
        prop_assert_eq!(-alphabeta(&mut after, depth - 1).score, ab.score);
    }
    prop_assert!(search(ab.score - 1, ab.score).0.score >= ab.score);
    prop_assert!(search(ab.score, ab.score + 1).0.score <= ab.score);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_likely_cutoff_tried_first_keeps_the_value(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        // Whatever move the game names (here an arbitrary one), searching it first and ordering
        // the others only after it changes the order, never the value, in a full window or a
        // null one.
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        let mut g = RandomTree { guess_cutoffs: true, ..RandomTree::new(seed, branch) };
        let mut s = Searcher::new(1);
        s.options.pvs = true;
        prop_assert_eq!(s.search_root(&mut g, depth, -INF, INF), ab.score);
        let low = s.search_root(&mut g, depth, ab.score - 1, ab.score);
        prop_assert!(low >= ab.score);
        let high = s.search_root(&mut g, depth, ab.score, ab.score + 1);
        prop_assert!(high <= ab.score);
        prop_assert!(g.path.is_empty());
        if depth >= 2 && branch >= 2 {
            prop_assert!(g.asked.get() > 0);
        }
    }

    #[test]
    fn alphabeta_equals_minimax(seed in any::<u64>(), depth in 1u32..6, branch in 1u64..6) {
        let mm = minimax(&mut RandomTree::new(seed, branch), depth);
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        prop_assert_eq!(mm.score, ab.score);
        prop_assert!(ab.stats.leaves <= mm.stats.leaves);
        // The move alpha-beta picks achieves the minimax value.
        if let Some(m) = ab.best {
            let mut g = RandomTree::new(seed, branch);
            g.play(m);
            let child = minimax(&mut g, depth - 1);
            prop_assert_eq!(-mate_in(child.score, 1).min(INF), mm.score.max(-INF));
        }
    }

    #[test]
    fn aspiration_and_parallel_root_equal_alphabeta(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6, threads in 1usize..4, split in 1u32..5) {
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        for (guess, delta) in [(0, 1), (ab.score, 3), (ab.score + 37, 2), (-1000, 5)] {
            let mut s = Searcher::new(1);
            s.options.pvs = true;
            let v = aspiration_search(&mut RandomTree::new(seed, branch), &mut s, depth, guess, delta);
            prop_assert_eq!(ab.score, v, "guess {} delta {}", guess, delta);
        }
        let mut games = vec![RandomTree::new(seed, branch); threads];
        let mut searchers: Vec<Searcher<RandomTree>> = (0..threads).map(|_| Searcher::new(1)).collect();
        check_parallel_root(seed, branch, depth, |alpha, beta| {
            let r = parallel_search_root(&mut games, &mut searchers, depth, alpha, beta, split);
            (r, games.iter().all(|g| g.path.is_empty()))
        })?;
    }

    #[test]
    fn shared_table_threads_equal_alphabeta(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6, threads in 1usize..4, defer in 1u32..5, entries in prop::sample::select(vec![2usize, 64, 1 << 12])) {
        let table = SharedTable::with_entries(entries);
        let mut searchers: Vec<_> = (0..threads)
            .map(|_| {
                let mut s = Searcher::with_table(table.share());
                s.tt.set_two_way(true);
                s.options.pvs = true;
                s
            })
            .collect();
        let mut games = vec![RandomTree::new(seed, branch); threads];
        check_parallel_root(seed, branch, depth, |alpha, beta| {
            let r = shared_search_root(&mut games, &mut searchers, depth, alpha, beta, defer);
            (r, games.iter().all(|g| g.path.is_empty()))
        })?;
    }

    #[test]
    fn two_way_table_search_equals_alphabeta(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        // Tables from one pair (every position collides) to roomy.
        for entries in [2, 16, 1 << 12] {
            let mut s = Searcher::new(1);
            s.tt = TranspositionTable::with_entries(entries);
            s.tt.set_two_way(true);
            s.options.pvs = true;
            let mut game = RandomTree::new(seed, branch);
            for window in [(-INF, INF), (ab.score - 1, ab.score + 1), (-INF, INF)] {
                let v = s.search_root(&mut game, depth, window.0, window.1);
                prop_assert_eq!(ab.score, v, "{} entries, window {:?}", entries, window);
            }
        }
    }

    #[test]
    fn negamax_tt_and_mtdf_equal_alphabeta(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        let nm = negamax(&mut RandomTree::new(seed, branch), depth, 1);
        prop_assert_eq!(ab.score, nm.score);
        let mut s = Searcher::new(1);
        let md = mtdf(&mut RandomTree::new(seed, branch), &mut s, depth, 0).unwrap();
        prop_assert_eq!(ab.score, md.score);
        // The stepped probes, from a good guess and from far-off ones, on fresh tables.
        for guess in [0, ab.score, ab.score + 37, -1000] {
            let mut s = Searcher::new(1);
            let st = mtdf_stepped(&mut RandomTree::new(seed, branch), &mut s, depth, guess).unwrap();
            prop_assert_eq!(ab.score, st.score, "guess {}", guess);
            // The move named achieves the value (mate scores shift by a ply, so those aside).
            if let (Some(mv), None) = (st.best, mate_distance(ab.score)) {
                let mut after = RandomTree::new(seed, branch);
                after.play(mv);
                prop_assert_eq!(-alphabeta(&mut after, depth - 1).score, ab.score);
            }
        }
        let opts = IterativeOptions { max_depth: depth, ..Default::default() };
        let id = iterative_deepening(&mut RandomTree::new(seed, branch), &mut Searcher::new(1), &opts, |_| {});
        prop_assert_eq!(ab.score, id.score);
        let opts = IterativeOptions { max_depth: depth, kind: IterationKind::Mtdf, ..Default::default() };
        let idm = iterative_deepening(&mut RandomTree::new(seed, branch), &mut Searcher::new(1), &opts, |_| {});
        prop_assert_eq!(ab.score, idm.score);
    }

    /// The searcher tells the game how far each ordered node is from the horizon, and
    /// another order near the horizon changes the work, never the value.
    #[test]
    fn the_order_near_the_horizon_knows_its_depth_and_keeps_the_value(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        let mut g = RandomTree { cheap_near_horizon: true, ..RandomTree::new(seed, branch) };
        let mut s = Searcher::new(1);
        s.options.pvs = true;
        let opts = IterativeOptions { max_depth: depth, ..Default::default() };
        let r = iterative_deepening(&mut g, &mut s, &opts, |_| {});
        prop_assert_eq!(ab.score, r.score);
        let depths = g.order_depths.borrow();
        prop_assert!(depths.iter().all(|&d| (1..=depth as i32).contains(&d)), "{:?}", depths);
    }

    /// Fetching the children's table slots ahead is a hint to the cache: the same value, the
    /// same move and the same positions searched, with or without the table's depth limit and
    /// the enhanced transposition cut-off (which fetches them itself where it runs).
    #[test]
    fn prefetching_the_childrens_slots_changes_nothing_the_search_sees(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6, tt_min_depth in 0i32..3) {
        let search = |prefetch_children: bool| {
            let mut s = Searcher::new(1);
            s.options = SearchOptions { pvs: true, etc_min_depth: Some(3), tt_min_depth, prefetch_children, ..SearchOptions::default() };
            let opts = IterativeOptions { max_depth: depth, ..Default::default() };
            let r = iterative_deepening(&mut RandomTree::new(seed, branch), &mut s, &opts, |_| {});
            (r.score, r.best, r.stats.nodes)
        };
        prop_assert_eq!(search(false), search(true));
    }

    /// The exact parts of the selective search (principal-variation search, mate-distance
    /// pruning, aspiration windows, counter moves and the continuation history in the order)
    /// change the work, never the value.
    #[test]
    fn pvs_aspiration_and_mate_distance_keep_the_value(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        let ab = alphabeta(&mut RandomTree::new(seed, branch), depth);
        let mut s = Searcher::new(1);
        s.options = SearchOptions { pvs: true, mate_distance_pruning: true, counter_moves: true, continuation_history: true, ..SearchOptions::default() };
        let opts = IterativeOptions { max_depth: depth, aspiration: Some(7), ..Default::default() };
        let id = iterative_deepening(&mut RandomTree::new(seed, branch), &mut s, &opts, |_| {});
        prop_assert_eq!(ab.score, id.score);
        // Late-move reductions and futility may change the value but always name a legal move.
        let mut s = Searcher::new(1);
        s.options = SearchOptions::selective(30);
        let opts = IterativeOptions { max_depth: depth, aspiration: Some(7), ..Default::default() };
        let sel = iterative_deepening(&mut RandomTree::new(seed, branch), &mut s, &opts, |_| {});
        let mut moves = Vec::new();
        RandomTree::new(seed, branch).generate_moves(&mut moves);
        prop_assert!(sel.best.is_some_and(|m| moves.contains(&m)));
    }

    /// ProbCut's shallow searches at a node leave its value alone when the margin is beyond
    /// any value the evaluation gives (they can then never decide it), and with a small
    /// margin the search still names a legal move and does no more work than without it at
    /// depths too shallow for the test; with one test a node, on the side of its static value,
    /// as well.
    #[test]
    fn probcut_with_a_margin_beyond_the_values_keeps_the_value(seed in any::<u64>(), depth in 1u32..7, branch in 1u64..6) {
        let search = |probcut: Option<ProbCut>| {
            let mut s = Searcher::new(1);
            s.options = SearchOptions { pvs: true, probcut, ..SearchOptions::default() };
            let opts = IterativeOptions { max_depth: depth, ..Default::default() };
            iterative_deepening(&mut RandomTree::new(seed, branch), &mut s, &opts, |_| {})
        };
        let fixed = |min_depth, margin| Some(ProbCut { min_depth, margin, confidence: None, one_side_by_evaluation: false });
        let plain = search(None);
        let wide = search(fixed(3, 10_000));
        prop_assert_eq!(plain.score, wide.score);
        let narrow = search(fixed(3, 5));
        let mut moves = Vec::new();
        RandomTree::new(seed, branch).generate_moves(&mut moves);
        prop_assert!(narrow.best.is_some_and(|m| moves.contains(&m)));
        let shallow = search(fixed(8, 5));
        prop_assert_eq!((plain.score, plain.stats.nodes), (shallow.score, shallow.stats.nodes));
        // A game without an error model keeps the fixed margin under a confidence.
        let unfitted = search(Some(ProbCut { confidence: Some(150), ..fixed(3, 5).unwrap() }));
        prop_assert_eq!((narrow.score, narrow.stats.nodes), (unfitted.score, unfitted.stats.nodes));
        // One test a node, on the static value's side: the same guarantees.
        let one_side = |pc: Option<ProbCut>| pc.map(|pc| ProbCut { one_side_by_evaluation: true, ..pc });
        prop_assert_eq!(search(one_side(fixed(3, 10_000))).score, plain.score);
        let narrow_one = search(one_side(fixed(3, 5)));
        prop_assert!(narrow_one.best.is_some_and(|m| moves.contains(&m)));
        let shallow_one = search(one_side(fixed(8, 5)));
        prop_assert_eq!((plain.score, plain.stats.nodes), (shallow_one.score, shallow_one.stats.nodes));
    }

    /// Singular extensions change nothing at depths under their shallowest one, and with them
    /// the selective search still names a legal move.
    #[test]
    fn singular_extensions_name_a_legal_move(seed in any::<u64>(), depth in 1u32..8, branch in 1u64..6, margin in 0i32..20) {
        let search = |singular: Option<Singular>| {
            let mut s = Searcher::new(1);
            s.options = SearchOptions { singular, ..SearchOptions::selective(30) };
            let opts = IterativeOptions { max_depth: depth, ..Default::default() };
            iterative_deepening(&mut RandomTree::new(seed, branch), &mut s, &opts, |_| {})
        };
        let plain = search(None);
        let shallow = search(Some(Singular { min_depth: 9, margin_per_ply: margin }));
        prop_assert_eq!((plain.score, plain.stats.nodes), (shallow.score, shallow.stats.nodes));
        let extended = search(Some(Singular { min_depth: 2, margin_per_ply: margin }));
        let mut moves = Vec::new();
        RandomTree::new(seed, branch).generate_moves(&mut moves);
        prop_assert!(extended.best.is_some_and(|m| moves.contains(&m)));
    }

    /// Multi-ProbCut: the game's fitted error sets the bounds. A mean of 0 and a sigma of `m`
    /// at a confidence of one standard deviation search exactly as a fixed margin of `m`
    /// does, and a sigma beyond every value keeps the full-width value, whatever the mean.
    #[test]
    fn multi_probcut_bounds_follow_the_games_error(seed in any::<u64>(), depth in 3u32..7, branch in 1u64..6, m in 1i32..60, mean in -30i32..30) {
        let search = |probcut: Option<ProbCut>, error: Option<ProbCutError>| {
            let mut s = Searcher::new(1);
            s.options = SearchOptions { pvs: true, probcut, ..SearchOptions::default() };
            let opts = IterativeOptions { max_depth: depth, ..Default::default() };
            let mut tree = RandomTree::new(seed, branch);
            tree.probcut_error = error;
            iterative_deepening(&mut tree, &mut s, &opts, |_| {})
        };
        let fixed = search(Some(ProbCut { min_depth: 3, margin: m, confidence: None, one_side_by_evaluation: false }), None);
        let fitted = Some(ProbCut { min_depth: 3, margin: 1, confidence: Some(100), one_side_by_evaluation: false });
        let same = search(fitted, Some(ProbCutError { mean: 0, sigma: m }));
        prop_assert_eq!((fixed.score, fixed.stats.nodes), (same.score, same.stats.nodes));
        let plain = search(None, None);
        let wide = search(fitted, Some(ProbCutError { mean, sigma: 100_000 }));
        prop_assert_eq!(plain.score, wide.score);
    }
}

/// Tic-tac-toe: a solved game with many transpositions (value: draw).
#[derive(Clone, Default)]
struct TicTacToe {
    cells: [u8; 9],
    to_move: u8,
}

impl TicTacToe {
    fn from(s: &str) -> Self {
        let mut t = TicTacToe::default();
        let mut n = 0;
        for (i, c) in s.chars().enumerate() {
            t.cells[i] = match c {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
            n += (c != '.') as u8;
        }
        t.to_move = n % 2;
        t
    }
}

impl Game for TicTacToe {
    type Move = usize;
    fn generate_moves(&self, moves: &mut Vec<usize>) {
        moves.extend((0..9).filter(|&i| self.cells[i] == 0));
    }
    fn play(&mut self, mv: usize) {
        self.cells[mv] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn undo(&mut self, mv: usize) {
        self.cells[mv] = 0;
        self.to_move ^= 1;
    }
    fn outcome(&self) -> Option<Score> {
        let last = 2 - self.to_move; // the player who just moved: 1 (X) or 2 (O)
                                     // Only the player who just moved can have completed a line.
        if common::line_owner(&self.cells) == Some(last) {
            return Some(-WIN);
        }
        None
    }
    fn no_moves_score(&self) -> Score {
        0
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn hash(&self) -> u64 {
        self.cells
            .iter()
            .fold(self.to_move as u64, |h, &c| h * 3 + c as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// Every position after two plies, with the two cells played.
fn after_two_plies() -> impl Iterator<Item = (usize, usize, TicTacToe)> {
    (0..9).flat_map(|a| {
        (0..9).filter(move |&b| b != a).map(move |b| {
            let mut t = TicTacToe::default();
            t.play(a);
            t.play(b);
            (a, b, t)
        })
    })
}

#[test]
fn tictactoe_is_a_draw_for_every_search() {
    let mm = minimax(&mut TicTacToe::default(), 9);
    assert_eq!(mm.score, 0);
    assert_eq!(alphabeta(&mut TicTacToe::default(), 9).score, 0);
    assert_eq!(negamax(&mut TicTacToe::default(), 9, 1).score, 0);
    let mut s = Searcher::new(1);
    assert_eq!(
        mtdf(&mut TicTacToe::default(), &mut s, 9, 3).unwrap().score,
        0
    );
    let r = negamax(&mut TicTacToe::default(), 9, 1);
    assert!(
        r.stats.nodes < mm.stats.nodes / 10,
        "TT+pruning should save most nodes"
    );
}

#[test]
fn enhanced_transposition_cutoffs_keep_every_value() {
    // Every position after two plies, searched by MTD(f) from several guesses with ETC at every
    // depth (tic-tac-toe is full of transpositions), against plain alpha-beta.
    let mut etc_cutoffs = 0;
    for (a, b, t) in after_two_plies() {
        let truth = alphabeta(&mut t.clone(), 9).score;
        for guess in [-WIN, -1, 0, 1, WIN] {
            let mut s = Searcher::new(1);
            s.options.etc_min_depth = Some(1);
            let r = mtdf(&mut t.clone(), &mut s, 9, guess).unwrap();
            assert_eq!(r.score, truth, "after {a} {b}, guess {guess}");
            // The root always names a move that achieves the value.
            let mv = r.best.expect("a best move");
            let mut after = t.clone();
            after.play(mv);
            let child = alphabeta(&mut after, 8).score;
            assert_eq!(-child.signum(), truth.signum(), "after {a} {b}: {mv}");
            // A decided value one ply further away, seen from the other side.
            let closer = mate_distance(truth).map(|d| d - 1);
            assert_eq!(mate_distance(child), closer, "after {a} {b}: {mv}");
            etc_cutoffs += r.stats.tt_cutoffs;
        }
    }
    assert!(etc_cutoffs > 0);
}

#[test]
fn a_table_kept_only_away_from_the_leaves_keeps_every_value() {
    // The table used only from some remaining depth on: every position after two plies has
    // the plain alpha-beta value; a table never probed (from depth 10 on) cuts nothing off.
    for (a, b, t) in after_two_plies() {
        let truth = alphabeta(&mut t.clone(), 9).score;
        let mut cutoffs = Vec::new();
        for min_depth in [i32::MIN, 2, 4, 10] {
            let mut s = Searcher::new(1);
            s.options.tt_min_depth = min_depth;
            let v = s.search_root(&mut t.clone(), 9, -INF, INF);
            assert_eq!(v, truth, "after {a} {b}, table from depth {min_depth}");
            cutoffs.push(s.stats.tt_cutoffs);
        }
        assert!(cutoffs[0] > 0, "after {a} {b}: the full table cuts off");
        assert_eq!(cutoffs[3], 0, "a search of depth 9 never probes from 10");
    }
}

#[test]
fn a_repeated_root_search_with_etc_still_names_its_move() {
    // The same null-window probe twice from every position after two plies: the second one
    // finds the children in the table, and must still say which move reaches the value.
    for (a, b, t) in after_two_plies() {
        for beta in [0, 1] {
            let mut s = Searcher::new(1);
            s.options.etc_min_depth = Some(1);
            for _ in 0..2 {
                let v = s.search_root(&mut t.clone(), 7, beta - 1, beta);
                if v >= beta {
                    assert!(s.best_move().is_some(), "after {a} {b}, beta {beta}");
                }
            }
        }
    }
}

#[test]
fn a_re_search_of_the_same_root_keeps_the_table_generation() {
    // Another window on the same root and depth (an aspiration re-search) keeps the entries of
    // the first window as fresh as its own; a new depth or a new root starts a new generation.
    let mut s: Searcher<TicTacToe> = Searcher::new(1);
    let mut game = TicTacToe::default();
    s.search_root(&mut game, 5, -1, 1);
    let g = s.tt.generation();
    s.search_root(&mut game, 5, -INF, INF);
    assert_eq!(s.tt.generation(), g, "same root and depth");
    s.search_root(&mut game, 6, -INF, INF);
    assert_eq!(s.tt.generation(), g.wrapping_add(1), "a new depth");
    game.play(4);
    s.search_root(&mut game, 6, -INF, INF);
    assert_eq!(s.tt.generation(), g.wrapping_add(2), "a new root");
}

#[test]
fn shortest_win_and_longest_loss_are_preferred() {
    // X to move: X X . / O O . / . . . — X wins at once in cell 2 (not by a slower route).
    let mut t = TicTacToe::from("XX.OO....");
    for r in [
        minimax(&mut t, 5),
        alphabeta(&mut t, 5),
        negamax(&mut t, 5, 1),
    ] {
        assert_eq!(r.best, Some(2));
        assert_eq!(mate_distance(r.score), Some(1));
    }
    // O to move facing a fork (X threatens cells 3 and 7): lost in 2 plies whatever O does.
    let mut t = TicTacToe::from("X.O.O.X.X");
    let r = negamax(&mut t, 9, 1);
    assert!(r.score < 0);
    assert_eq!(mate_distance(r.score), Some(2));
}

/// An explicit tree: a node is either a list of children or a lost position for the side to
/// move (`None`).
struct Explicit {
    tree: Vec<Option<Vec<usize>>>,
    at: Vec<usize>,
}

impl Game for Explicit {
    type Move = usize;
    fn generate_moves(&self, moves: &mut Vec<usize>) {
        if let Some(children) = &self.tree[*self.at.last().unwrap()] {
            moves.extend(children.iter().copied());
        }
    }
    fn play(&mut self, mv: usize) {
        self.at.push(mv);
    }
    fn undo(&mut self, _: usize) {
        self.at.pop();
    }
    fn outcome(&self) -> Option<Score> {
        self.tree[*self.at.last().unwrap()]
            .is_none()
            .then_some(-WIN)
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn hash(&self) -> u64 {
        *self.at.last().unwrap() as u64 + 1
    }
}

#[test]
fn the_longest_loss_is_preferred() {
    // Root 0 (A to move) loses either way: via node 1 A is lost 2 plies later, via node 2
    // only 4 plies later. Every search must choose node 2.
    let tree = vec![
        Some(vec![1, 2]),
        Some(vec![3]),
        Some(vec![4]),
        None,
        Some(vec![5]),
        Some(vec![3]),
    ];
    let new = || Explicit {
        tree: tree.clone(),
        at: vec![0],
    };
    for r in [
        minimax(&mut new(), 8),
        alphabeta(&mut new(), 8),
        negamax(&mut new(), 8, 1),
    ] {
        assert_eq!(r.best, Some(2));
        assert_eq!(mate_distance(r.score), Some(4));
    }
}

/// Iterative deepening on `tree` with a new searcher of a `table_mb` MB table.
fn deepen(mut tree: RandomTree, table_mb: usize, opts: &IterativeOptions) -> GameResult<u8> {
    iterative_deepening(&mut tree, &mut Searcher::new(table_mb), opts, |_| {})
}

#[test]
fn iterative_deepening_honours_its_deadline() {
    // A huge tree: depth 40 could never finish; the deadline must stop it with a legal move.
    let budget = std::time::Duration::from_millis(100);
    let start = std::time::Instant::now();
    let opts = IterativeOptions {
        max_depth: 40,
        deadline: Deadline::after(budget),
        ..Default::default()
    };
    let r = deepen(RandomTree::new(7, 8), 4, &opts);
    let took = start.elapsed();
    assert!(r.best.is_some());
    assert!(r.stats.depth >= 2);
    assert!(
        took < budget + std::time::Duration::from_millis(400),
        "took {took:?}"
    );
}

#[test]
fn node_limit_aborts_and_reports_depth() {
    let opts = IterativeOptions {
        max_depth: 30,
        node_limit: Some(5_000),
        ..Default::default()
    };
    let r = deepen(RandomTree::new(3, 6), 1, &opts);
    assert!(r.best.is_some());
    assert!(r.stats.depth < 30);
}

#[test]
fn node_limit_is_exact() {
    let mut searcher = Searcher::new(1);
    searcher.set_node_limit(Some(100));
    searcher.search_root(&mut RandomTree::new(3, 6), 12, -INF, INF);
    assert!(searcher.aborted());
    // The node that would exceed the budget is counted, not searched.
    assert_eq!(searcher.stats.nodes, 101);
    searcher.reset_stats();
    searcher.set_node_limit(None);
    searcher.search_root(&mut RandomTree::new(3, 6), 4, -INF, INF);
    assert!(!searcher.aborted());
}

/// A [`RandomTree`] cut at `max_depth` plies, where every leaf is a finished game: won, drawn
/// or lost for the side to move by the sign of its value. Proof-number search needs games that
/// end; alpha-beta searched one ply beyond the cut sees every leaf's exact result.
struct FiniteTree {
    tree: RandomTree,
    max_depth: usize,
}

impl Game for FiniteTree {
    type Move = u8;
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        self.tree.generate_moves(moves);
    }
    fn play(&mut self, mv: u8) {
        self.tree.play(mv);
    }
    fn undo(&mut self, mv: u8) {
        self.tree.undo(mv);
    }
    fn outcome(&self) -> Option<Score> {
        (self.tree.path.len() >= self.max_depth).then(|| self.tree.evaluate().signum() * WIN)
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn hash(&self) -> u64 {
        self.tree.hash()
    }
    fn order_moves(&self, moves: &mut [u8]) {
        self.tree.order_moves(moves);
    }
}

/// What alpha-beta says proof-number search must answer: a win for the side to move, or not.
fn expected_proof<G: Game>(game: &mut G, depth: u32) -> ProofResult {
    if alphabeta(game, depth).score >= WIN_BOUND {
        ProofResult::Proven
    } else {
        ProofResult::Disproven
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn proof_number_search_agrees_with_alphabeta(seed in any::<u64>(), depth in 1usize..8, branch in 1u64..5) {
        let tree = || FiniteTree { tree: RandomTree::new(seed, branch), max_depth: depth };
        let expected = expected_proof(&mut tree(), depth as u32 + 1);
        let mut pns = ProofSearch::new(1);
        let mut game = tree();
        prop_assert_eq!(pns.prove(&mut game), expected);
        prop_assert!(game.tree.path.is_empty(), "the game is given back as it was");
    }
}

#[test]
fn proof_number_search_settles_every_tictactoe_opening() {
    // One searcher for every question, so the table carries numbers between them, and
    // tic-tac-toe's transpositions are met from both sides (attacking and defending).
    let mut pns = ProofSearch::new(1);
    assert_eq!(pns.prove(&mut TicTacToe::default()), ProofResult::Disproven);
    let mut proven = 0;
    for (a, b, t) in after_two_plies() {
        let expected = expected_proof(&mut t.clone(), 9);
        assert_eq!(pns.prove(&mut t.clone()), expected, "after {a} {b}");
        proven += (expected == ProofResult::Proven) as usize;
    }
    // X wins after some O replies (an edge answer to a corner, for example) and not others.
    assert!(proven > 0 && proven < 72, "{proven} of 72 positions won");
}

#[test]
fn proof_number_search_gives_up_at_its_budget() {
    let mut pns = ProofSearch::new(1);
    pns.budget_mut().node_limit = Some(10);
    assert_eq!(pns.prove(&mut TicTacToe::default()), ProofResult::Unknown);
    pns.budget_mut().node_limit = None;
    pns.budget_mut().deadline = Deadline::after(std::time::Duration::ZERO);
    assert_eq!(pns.prove(&mut TicTacToe::default()), ProofResult::Unknown);
    pns.budget_mut().deadline = Deadline::none();
    assert_eq!(pns.prove(&mut TicTacToe::default()), ProofResult::Disproven);
}

/// A tree of single lines with a static value at every node: `(children, value for the side
/// that moves at odd plies, lost for the side to move)`.
struct Lines {
    nodes: Vec<(Vec<usize>, Score, bool)>,
    at: Vec<usize>,
}

impl Lines {
    /// A line of `plies` single moves from a new node, each node valued `value`, ending (when
    /// `lost`) in a position lost for its side to move; returns its first node.
    fn line(&mut self, plies: usize, value: Score, lost: bool) -> usize {
        let first = self.nodes.len();
        for i in 0..plies {
            let next = (i + 1 < plies).then_some(first + i + 1);
            let end = i + 1 == plies;
            self.nodes
                .push((next.into_iter().collect(), value, end && lost));
        }
        first
    }
}

impl Game for Lines {
    type Move = usize;
    fn generate_moves(&self, moves: &mut Vec<usize>) {
        moves.extend(&self.nodes[*self.at.last().unwrap()].0);
    }
    fn play(&mut self, mv: usize) {
        self.at.push(mv);
    }
    fn undo(&mut self, _: usize) {
        self.at.pop();
    }
    fn outcome(&self) -> Option<Score> {
        self.nodes[*self.at.last().unwrap()].2.then_some(-WIN)
    }
    fn no_moves_score(&self) -> Score {
        0
    }
    fn evaluate(&self) -> Score {
        let value = self.nodes[*self.at.last().unwrap()].1;
        // `at` holds the root at ply 0: an even length is an odd ply.
        if self.at.len().is_multiple_of(2) {
            value
        } else {
            -value
        }
    }
    fn hash(&self) -> u64 {
        *self.at.last().unwrap() as u64 + 1
    }
}

#[test]
fn a_singular_move_is_searched_a_ply_deeper() {
    // The root's only move leads to node 1, where the side to move has one move that looks
    // good (+50 for it) and two that look bad (-50); the good one ends, 9 plies from the
    // root, in a position where that side is lost. A search to depth 8 sees the loss only
    // when it extends the singular move.
    let mut game = Lines {
        nodes: vec![(vec![1], 0, false), (vec![], 0, false)],
        at: vec![0],
    };
    let trap = game.line(8, 50, true);
    let (b, c) = (game.line(20, -50, false), game.line(20, -50, false));
    game.nodes[1].0 = vec![trap, b, c];
    let mut search = |depth: u32, singular: Option<Singular>| {
        let mut s = Searcher::new(1);
        s.options = SearchOptions {
            singular,
            ..SearchOptions::default()
        };
        let opts = IterativeOptions {
            max_depth: depth,
            ..Default::default()
        };
        iterative_deepening(&mut game, &mut s, &opts, |_| {}).score
    };
    let singular = Some(Singular {
        min_depth: 4,
        margin_per_ply: 1,
    });
    assert_eq!(search(8, None), -50, "the trap is beyond the horizon");
    assert_eq!(search(9, None), 50, "a ply deeper sees it");
    assert_eq!(search(8, singular), 50, "the extension sees it at depth 8");
}

//! MCTS finds the winning move of solved games and is reproducible.

mod common;
use common::Nim;
use search_core::*;

#[test]
fn finds_the_winning_nim_move_from_many_piles() {
    // Taking up to 3: positions with left % 4 != 0 are wins; the winning move is left % 4.
    for left in [5u32, 6, 7, 9, 10, 11, 13] {
        let cfg = MctsConfig::iterations(20_000);
        let mv = mcts(Nim::new(left, 3), cfg, &mut RandomRollout);
        assert_eq!(mv, Some(left % 4), "pile {left}");
    }
}

#[test]
fn same_seed_same_tree_and_reuse_keeps_the_subtree() {
    let cfg = MctsConfig {
        seed: 42,
        ..MctsConfig::iterations(3_000)
    };
    let state = Nim::new(15, 3);
    let mut a = Mcts::new(state.clone(), cfg);
    let mut b = Mcts::new(state, cfg);
    assert_eq!(a.search(&mut RandomRollout), b.search(&mut RandomRollout));
    assert_eq!(a.root_children(), b.root_children());
    let mv = a.best_move().unwrap();
    let before = a.stats().tree_size;
    a.advance(mv);
    let kept = a.root_children().iter().map(|c| c.1).sum::<u32>();
    assert!(kept > 0, "the chosen move's subtree is kept");
    assert_eq!(a.state().left, 15 - mv);
    assert!(before > 1);
}

#[test]
fn one_player_puzzle_with_normalised_scores() {
    // Walk right (+1) or left (-1) from 0 for 6 steps; reward = final position (raw score).
    #[derive(Clone)]
    struct Walk(i32, u32);
    impl MctsState for Walk {
        type Move = i32;
        fn legal_moves(&self, out: &mut Vec<i32>) {
            out.extend([-1, 1]);
        }
        fn apply(&mut self, d: i32) {
            self.0 += d;
            self.1 += 1;
        }
        fn terminal_reward(&self) -> Option<f64> {
            (self.1 == 6).then_some(self.0 as f64)
        }
    }
    let cfg = MctsConfig {
        normalize: true,
        ..MctsConfig::iterations(2_000)
    };
    assert_eq!(mcts(Walk(0, 0), cfg, &mut RandomRollout), Some(1));
}

#[test]
fn solver_proves_nim_wins_and_losses() {
    // Taking up to 3, the side to move wins exactly when the pile is not a multiple of 4.
    for left in 1u32..=16 {
        let cfg = MctsConfig {
            solver: true,
            ..MctsConfig::iterations(200_000)
        };
        let mut tree = Mcts::new(Nim::new(left, 3), cfg);
        let mv = tree.search(&mut RandomRollout);
        assert_eq!(tree.root_proof(), Some(left % 4 != 0), "pile {left}");
        if left % 4 != 0 {
            assert_eq!(mv, Some(left % 4), "pile {left}");
        }
        // Every proven root move is right: taking k wins exactly when left - k is a multiple of 4.
        for (k, proof) in tree.root_child_proofs() {
            if let Some(wins) = proof {
                assert_eq!(wins, (left - k) % 4 == 0, "pile {left}, take {k}");
            }
        }
    }
}

/// Tic-tac-toe, the slow obvious game for the solver's soundness test.
#[derive(Clone, Debug)]
struct TicTacToe {
    cells: [u8; 9],
    to_move: u8,
}

impl TicTacToe {
    fn winner(&self) -> Option<u8> {
        common::line_owner(&self.cells)
    }

    /// Exhaustive minimax: +1 the side to move wins, 0 draw, −1 it loses.
    fn exact(&self) -> i32 {
        if self.winner().is_some() {
            return -1; // the previous mover made three
        }
        let moves: Vec<usize> = (0..9).filter(|&c| self.cells[c] == 0).collect();
        if moves.is_empty() {
            return 0;
        }
        moves
            .iter()
            .map(|&c| {
                let mut next = self.clone();
                next.apply(c);
                -next.exact()
            })
            .max()
            .unwrap()
    }
}

impl MctsState for TicTacToe {
    type Move = usize;
    fn legal_moves(&self, out: &mut Vec<usize>) {
        if self.winner().is_none() {
            out.extend((0..9).filter(|&c| self.cells[c] == 0));
        }
    }
    fn apply(&mut self, c: usize) {
        self.cells[c] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn player(&self) -> usize {
        self.to_move as usize
    }
    fn terminal_reward(&self) -> Option<f64> {
        match self.winner() {
            Some(1) => Some(1.0),
            Some(_) => Some(0.0),
            None if self.cells.iter().all(|&c| c != 0) => Some(0.5),
            None => None,
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Whatever the solver proves about a position and its moves is what exhaustive minimax
    /// says, draws are never proven, and a proven win is the move played.
    #[test]
    fn solver_proofs_agree_with_exhaustive_minimax(
        picks in proptest::collection::vec(0usize..9, 0..6),
        iterations in 50u64..20_000,
        seed in proptest::prelude::any::<u64>(),
    ) {
        let mut s = TicTacToe { cells: [0; 9], to_move: 0 };
        for p in picks {
            let free: Vec<usize> = (0..9).filter(|&c| s.cells[c] == 0).collect();
            if s.winner().is_some() || free.len() <= 1 {
                break;
            }
            s.apply(free[p % free.len()]);
        }
        let cfg = MctsConfig { max_iterations: Some(iterations), solver: true, seed, ..Default::default() };
        let mut tree = Mcts::new(s.clone(), cfg);
        let best = tree.search(&mut RandomRollout);
        let exact = s.exact();
        if let Some(wins) = tree.root_proof() {
            proptest::prop_assert_eq!(if wins { 1 } else { -1 }, exact);
        }
        for (c, proof) in tree.root_child_proofs() {
            let mut next = s.clone();
            next.apply(c);
            if let Some(wins) = proof {
                proptest::prop_assert_eq!(if wins { 1 } else { -1 }, -next.exact(), "move {}", c);
                if wins {
                    proptest::prop_assert_eq!(best, Some(c));
                }
            }
        }
    }
}

#[test]
fn solver_proofs_survive_subtree_reuse_from_the_new_side() {
    let cfg = MctsConfig {
        solver: true,
        ..MctsConfig::iterations(100_000)
    };
    let mut tree = Mcts::new(Nim::new(9, 3), cfg);
    assert_eq!(tree.search(&mut RandomRollout), Some(1));
    assert_eq!(tree.root_proof(), Some(true));
    tree.advance(1); // 8 left: the opponent, now to move, loses
    assert_eq!(tree.root_proof(), Some(false));
    tree.advance(3); // 5 left: we win again
    assert_eq!(tree.root_proof(), Some(true));
    assert_eq!(tree.search(&mut RandomRollout), Some(1));
}

#[test]
fn excluded_root_moves_are_never_searched_again_nor_chosen() {
    // Pile 13, taking up to 3: taking 1 is the winning move, which MCTS finds.
    let cfg = MctsConfig {
        seed: 7,
        ..MctsConfig::iterations(5_000)
    };
    let state = Nim::new(13, 3);
    let mut tree = Mcts::new(state.clone(), cfg);
    // An unexpanded root has no moves to exclude.
    assert!(!tree.exclude_root_move(1));
    assert_eq!(tree.search(&mut RandomRollout), Some(1));
    assert!(tree.exclude_root_move(1));
    assert!(!tree.exclude_root_move(9), "not a move of the root");
    let visits = |t: &Mcts<Nim>, mv: u32| t.root_children().iter().find(|c| c.0 == mv).unwrap().1;
    let before = visits(&tree, 1);
    let choice = tree.search(&mut RandomRollout);
    assert_ne!(choice, Some(1));
    assert_eq!(
        visits(&tree, 1),
        before,
        "an excluded move gets no more visits"
    );
    assert_eq!(
        tree.root_child_proofs()
            .iter()
            .filter(|p| p.1 == Some(false))
            .count(),
        1
    );
    // With every move excluded, the most visited is chosen (the most stubborn defence).
    tree.exclude_root_move(2);
    tree.exclude_root_move(3);
    let most_visited = tree
        .root_children()
        .into_iter()
        .max_by_key(|c| c.1)
        .unwrap()
        .0;
    assert_eq!(tree.best_move(), Some(most_visited));
    // An exclusion says nothing about the position after the move: without the solver the new
    // root is searched as usual.
    tree.advance(1);
    assert_eq!(tree.root_proof(), None);
    assert!(tree.search(&mut RandomRollout).is_some());
    assert!(tree.stats().iterations > 0);
}

#[test]
fn transpositions_pool_the_statistics_of_one_position_and_survive_reuse() {
    let config = MctsConfig {
        transpositions: true,
        seed: 9,
        ..MctsConfig::iterations(5_000)
    };
    let mut tree = Mcts::new(Nim::new(21, 3), config);
    // 21 is a win by taking 1 (leaving a multiple of 4).
    assert_eq!(tree.search(&mut RandomRollout), Some(1));
    assert!(tree.check_pooled_positions().unwrap().1 > 0);
    tree.advance(1);
    tree.advance(2);
    assert!(tree.check_pooled_positions().unwrap().1 > 0);
    // 18 is a win by taking 2.
    assert_eq!(tree.search(&mut RandomRollout), Some(2));
    assert!(tree.check_pooled_positions().unwrap().1 > 0);
}

#[test]
fn pooled_positions_solve_nim_where_the_tree_alone_does_not() {
    // From piles of 17 and 21 plain UCT on 5,000 iterations finds the winning move for 12 and
    // 8 of these 20 seeds; searching each position once, with the statistics of every move
    // order, finds it for all of them.
    for left in [17u32, 21] {
        for seed in 0..20 {
            let config = MctsConfig {
                max_iterations: Some(5_000),
                transpositions: true,
                seed,
                ..Default::default()
            };
            let mut tree = Mcts::new(Nim::new(left, 3), config);
            assert_eq!(
                tree.search(&mut RandomRollout),
                Some(left % 4),
                "{left} {seed}"
            );
        }
    }
}

#[test]
fn without_transpositions_nothing_is_pooled() {
    let config = MctsConfig::iterations(2_000);
    let mut tree = Mcts::new(Nim::new(21, 3), config);
    tree.search(&mut RandomRollout);
    assert_eq!(tree.check_pooled_positions(), Ok((0, 0)));
}

proptest::proptest! {
    /// Through any line of play, with the tree kept from move to move, the pooled statistics
    /// stay the sums of their nodes', each position has one holder, and the move is legal.
    #[test]
    fn pooled_statistics_stay_consistent_through_a_game(
        left in 8u32..40,
        seed in 0u64..1_000,
        line in proptest::collection::vec(1u32..=3, 1..12),
    ) {
        let config = MctsConfig {
            max_iterations: Some(300),
            transpositions: true,
            seed,
            ..Default::default()
        };
        let mut tree = Mcts::new(Nim::new(left, 3), config);
        for take in line {
            if tree.state().left < 2 {
                break;
            }
            let mv = tree.search(&mut RandomRollout).unwrap();
            proptest::prop_assert!(mv <= tree.state().left);
            proptest::prop_assert!(tree.check_pooled_positions().is_ok());
            tree.advance(take.min(tree.state().left - 1));
            proptest::prop_assert!(tree.check_pooled_positions().is_ok());
        }
    }
}

/// A walk on a ring of cells where every step can be undone: the position graph is full of
/// cycles. With pooled positions the selection must still end (it once went round a cycle
/// forever) and the search must walk towards the goal.
#[derive(Clone)]
struct Ring {
    at: i32,
    steps: u32,
}

impl MctsState for Ring {
    type Move = i32;
    fn legal_moves(&self, out: &mut Vec<i32>) {
        out.extend([-1, 1]);
    }
    fn apply(&mut self, d: i32) {
        self.at = (self.at + d).rem_euclid(12);
        self.steps += 1;
    }
    fn terminal_reward(&self) -> Option<f64> {
        (self.at == 3).then(|| 1.0 - f64::from(self.steps) / 100.0)
    }
    fn key(&self) -> Option<u64> {
        Some(self.at as u64)
    }
}

#[test]
fn pooled_positions_on_a_graph_with_cycles_end_and_head_for_the_goal() {
    let config = MctsConfig {
        max_iterations: Some(5_000),
        rollout_depth: Some(4),
        transpositions: true,
        ..MctsConfig::default()
    };
    // From cell 0 the goal (3) is three steps up, nine down.
    let mut tree = Mcts::new(Ring { at: 0, steps: 0 }, config);
    for step in 0..3 {
        let mv = tree.search(&mut RandomRollout);
        assert_eq!(mv, Some(1), "step {step}");
        assert_eq!(tree.stats().iterations, 5_000);
        tree.advance(1);
    }
    assert_eq!(tree.state().at, 3);
}

//! MCTS finds the winning move of solved games and is reproducible.

use search_core::*;

#[derive(Clone)]
struct Nim {
    left: u32,
    max_take: u32,
    to_move: usize,
}

impl MctsState for Nim {
    type Move = u32;
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend((1..=self.max_take).filter(|&k| k <= self.left));
    }
    fn apply(&mut self, k: u32) {
        self.left -= k;
        self.to_move ^= 1;
    }
    fn player(&self) -> usize {
        self.to_move
    }
    fn terminal_reward(&self) -> Option<f64> {
        (self.left == 0).then_some(if self.to_move == 1 { 1.0 } else { 0.0 })
    }
}

#[test]
fn finds_the_winning_nim_move_from_many_piles() {
    // Taking up to 3: positions with left % 4 != 0 are wins; the winning move is left % 4.
    for left in [5u32, 6, 7, 9, 10, 11, 13] {
        let cfg = MctsConfig {
            max_iterations: Some(20_000),
            ..Default::default()
        };
        let mv = mcts(
            Nim {
                left,
                max_take: 3,
                to_move: 0,
            },
            cfg,
            &mut RandomRollout,
        );
        assert_eq!(mv, Some(left % 4), "pile {left}");
    }
}

#[test]
fn same_seed_same_tree_and_reuse_keeps_the_subtree() {
    let cfg = MctsConfig {
        max_iterations: Some(3_000),
        seed: 42,
        ..Default::default()
    };
    let state = Nim {
        left: 15,
        max_take: 3,
        to_move: 0,
    };
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
        max_iterations: Some(2_000),
        normalize: true,
        ..Default::default()
    };
    assert_eq!(mcts(Walk(0, 0), cfg, &mut RandomRollout), Some(1));
}

//! `ExactSolver` against plain negamax on random game trees whose scores shrink with depth
//! (as Connect Four's do), and `BoundTable` against a map.

use proptest::prelude::*;
use search_core::hash::mix64 as mix;
use search_core::{BoundTable, ExactGame, ExactSolver, ScoreBound};
use std::collections::HashMap;

/// Largest score; a node `d` plies deep scores within `±(MAX - d)`.
const MAX: i32 = 12;

/// A node of a random tree: `id` names it, `depth` is its distance from the root, and the tree
/// stops at `height` plies (or earlier, where a node's hash says it is decided).
#[derive(Clone, Copy)]
struct Node {
    id: u64,
    depth: i32,
    height: i32,
    branching: u64,
}

impl Node {
    fn leaf_score(&self) -> Option<i32> {
        let h = mix(self.id ^ 0x5eed);
        let reach = MAX - self.depth;
        (self.depth == self.height || h.is_multiple_of(7))
            .then(|| (mix(h) % (2 * reach as u64 + 1)) as i32 - reach)
    }

    fn children(&self) -> impl Iterator<Item = Node> + '_ {
        (0..1 + mix(self.id) % self.branching).map(move |i| Node {
            id: mix(self.id.wrapping_mul(31).wrapping_add(i + 1)),
            depth: self.depth + 1,
            ..*self
        })
    }
}

impl ExactGame for Node {
    type Move = Node;
    type Candidates = ();
    const MIN_SCORE: i32 = -MAX;
    const MAX_SCORE: i32 = MAX;

    fn candidates(&self) -> Result<(), i32> {
        self.leaf_score().map_or(Ok(()), Err)
    }

    fn score_range(&self) -> (i32, i32) {
        let reach = MAX - self.depth;
        (-reach, reach)
    }

    fn key(&self) -> u64 {
        self.id | 1
    }

    /// Children in a scrambled order, so that move ordering is no help.
    fn order(&self, _: (), out: &mut Vec<Node>) {
        out.extend(self.children());
        out.sort_by_key(|c| mix(c.id ^ 77));
    }

    fn play(&self, child: Node) -> Node {
        child
    }
}

/// Plain negamax: every child, no window, no table.
fn negamax(n: &Node) -> i32 {
    match n.leaf_score() {
        Some(v) => v,
        None => n.children().map(|c| -negamax(&c)).max().unwrap(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solver_matches_plain_negamax(seed in any::<u64>(), height in 1i32..8, branching in 1u64..5) {
        let root = Node { id: seed, depth: 0, height, branching };
        let truth = negamax(&root);
        let mut solver = ExactSolver::<Node, 1009>::new();
        prop_assert_eq!(solver.solve(&root, -MAX, MAX), truth);
        // Again from the table the first solve filled, and the sign only.
        prop_assert_eq!(solver.solve(&root, -MAX, MAX), truth);
        prop_assert_eq!(solver.solve(&root, -1, 1), truth.signum());
        // A full window gives the exact score, from an empty table and from a filled one.
        solver.clear();
        prop_assert_eq!(solver.negamax(&root, -MAX - 1, MAX + 1, 0), truth);
        prop_assert_eq!(solver.negamax(&root, -MAX - 1, MAX + 1, 0), truth);
        // A null window answers which side of it the score lies.
        for x in [-3, 0, 2] {
            solver.clear();
            let r = solver.negamax(&root, x, x + 1, 0);
            prop_assert_eq!(r <= x, truth <= x, "window ({}, {}): {}", x, x + 1, r);
        }
    }

    #[test]
    fn bound_table_keeps_the_newest_bound_per_slot(
        ops in prop::collection::vec((0u64..40, any::<bool>(), -5i32..=5), 1..60)
    ) {
        let mut table = BoundTable::<7>::new(-5, 5);
        let mut newest: HashMap<u64, (u64, ScoreBound)> = HashMap::new();
        for &(key, upper, score) in &ops {
            let bound = if upper { ScoreBound::Upper(score) } else { ScoreBound::Lower(score) };
            table.store(key, bound);
            newest.insert(key % 7, (key, bound));
        }
        for key in 0u64..40 {
            let expected = newest.get(&(key % 7)).filter(|(k, _)| *k == key).map(|&(_, b)| b);
            prop_assert_eq!(table.get(key), expected);
        }
    }
}

#[test]
fn cleared_table_forgets() {
    let mut table = BoundTable::<11>::new(-3, 3);
    table.store(5, ScoreBound::Lower(-3));
    assert_eq!(table.get(5), Some(ScoreBound::Lower(-3)));
    table.clear();
    assert_eq!(table.get(5), None);
}

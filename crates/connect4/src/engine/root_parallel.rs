//! Root parallelism: the engine's other threads each grow an MCTS tree of their own from the
//! same position, with their own seed, while the main thread runs the engine's proof searches
//! and its own tree. What they share is small and lock-free: the root moves the main thread has
//! proven lost (a bit mask the helpers apply between short slices of search) and each helper's
//! root visit counts (published after every slice). The engine picks its favourite, and its
//! move, by the visits of all the trees together (Chaslot, Winands and van den Herik, "Parallel
//! Monte-Carlo Tree Search", 2008: independent trees whose root statistics are summed play as
//! well as a shared tree, with no locking).
//!
//! On a fixed iteration budget a helper runs exactly that many iterations without looking at
//! the main thread, and its counts are read only once it has finished, so the engine's moves
//! stay reproducible.

use crate::engine::rollout::TacticalRollout;
use crate::rules::bitstate::BitState;
use search_core::{Deadline, Mcts, MctsConfig};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Columns a board may have (the bit masks and the published counts are sized for them).
pub const MAX_COLUMNS: usize = 16;

/// How long a helper searches before it looks at the shared state again.
const SLICE: Duration = Duration::from_millis(2);

/// What the main thread and the helpers share while the engine thinks about one move.
pub struct SharedMove {
    /// Set by the main thread once it has decided: the helpers finish their slice and return.
    stop: AtomicBool,
    /// Root moves proven lost for the side to move, as a column mask.
    excluded: AtomicU32,
    /// Each helper's root visit counts by column, as of its last slice.
    visits: Vec<[AtomicU32; MAX_COLUMNS]>,
}

impl SharedMove {
    /// The shared state of a move searched with `helpers` helper trees.
    pub fn new(helpers: usize) -> Self {
        SharedMove {
            stop: AtomicBool::new(false),
            excluded: AtomicU32::new(0),
            visits: (0..helpers)
                .map(|_| std::array::from_fn(|_| AtomicU32::new(0)))
                .collect(),
        }
    }

    /// Tells the helpers that column `y` loses.
    pub fn exclude(&self, y: usize) {
        self.excluded.fetch_or(1 << y, Ordering::Relaxed);
    }

    /// Tells the helpers to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The helpers' visits of root move `y`, summed.
    pub fn visits(&self, y: usize) -> u64 {
        self.visits
            .iter()
            .map(|v| u64::from(v[y].load(Ordering::Relaxed)))
            .sum()
    }

    fn publish(&self, helper: usize, tree: &Mcts<BitState>) {
        for (y, visits, _) in tree.root_children() {
            self.visits[helper][y].store(visits, Ordering::Relaxed);
        }
    }
}

/// One helper's search of `root` (reusing `tree` when `root` follows from its root by a ply):
/// until the main thread stops it or `end`, in slices that apply the moves proven lost so far;
/// or, on a fixed budget (`iterations`), exactly that many iterations. Returns the tree, to be
/// kept for the next move.
#[allow(clippy::too_many_arguments)]
pub fn helper_search(
    tree: Option<Mcts<BitState>>,
    root: BitState,
    config: MctsConfig,
    mut rollout: TacticalRollout,
    shared: &SharedMove,
    helper: usize,
    end: Instant,
    iterations: Option<u64>,
) -> Mcts<BitState> {
    let mut tree = crate::engine::rollout::reused_tree(tree, root, config);
    if let Some(n) = iterations {
        tree.set_config(MctsConfig {
            max_iterations: Some(n),
            deadline: Deadline::at(end),
            ..config
        });
        tree.search(&mut rollout);
        shared.publish(helper, &tree);
        return tree;
    }
    let mut applied = 0u32;
    while !shared.stop.load(Ordering::Relaxed) && Instant::now() < end {
        let excluded = shared.excluded.load(Ordering::Relaxed) & !applied;
        for y in crate::rules::bitstate::columns_in(excluded) {
            // An unexpanded root has no moves yet: retried after the next slice.
            if tree.exclude_root_move(y) {
                applied |= 1 << y;
            }
        }
        tree.set_config(MctsConfig {
            max_iterations: None,
            deadline: Deadline::at((Instant::now() + SLICE).min(end)),
            ..config
        });
        if tree.search(&mut rollout).is_none() {
            break; // the root has no move
        }
        shared.publish(helper, &tree);
    }
    tree
}

/// The root move with the most visits over the main `tree` and the helpers' (`shared`), among
/// those not proven lost unless every one is (ties: the main tree's higher mean reward). With
/// no helpers this is the tree's own [`Mcts::best_move`].
pub fn combined_best(tree: &Mcts<BitState>, shared: Option<&SharedMove>) -> Option<usize> {
    let Some(shared) = shared else {
        return tree.best_move();
    };
    let proofs = tree.root_child_proofs();
    let all_lost = proofs.iter().all(|p| p.1 == Some(false));
    let mut best: Option<(u64, f64, usize)> = None;
    for ((y, visits, mean), (_, proof)) in tree.root_children().into_iter().zip(proofs) {
        if proof == Some(false) && !all_lost {
            continue;
        }
        let visits = u64::from(visits) + shared.visits(y);
        if best.is_none_or(|(v, m, _)| visits > v || (visits == v && mean > m)) {
            best = Some((visits, mean, y));
        }
    }
    best.map(|b| b.2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;
    use crate::rules::game_state::GameState;

    fn searched_tree() -> Mcts<BitState> {
        let root = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 0), 1));
        let config = MctsConfig {
            max_iterations: Some(500),
            ..Default::default()
        };
        let mut tree = Mcts::new(root, config);
        tree.search(&mut TacticalRollout::default());
        tree
    }

    #[test]
    fn the_helpers_visits_count_towards_the_move() {
        let tree = searched_tree();
        let shared = SharedMove::new(2);
        assert_eq!(combined_best(&tree, Some(&shared)), tree.best_move());
        // A move the main tree does not favour, heavily searched by the two helpers.
        let y = (tree.best_move().unwrap() + 1) % 9;
        shared.visits[0][y].store(400, Ordering::Relaxed);
        shared.visits[1][y].store(400, Ordering::Relaxed);
        assert_eq!(shared.visits(y), 800);
        assert_eq!(combined_best(&tree, Some(&shared)), Some(y));
    }

    #[test]
    fn a_move_proven_lost_is_not_played_while_another_is_open() {
        let mut tree = searched_tree();
        let shared = SharedMove::new(1);
        let y = tree.best_move().unwrap();
        shared.visits[0][y].store(10_000, Ordering::Relaxed);
        assert!(tree.exclude_root_move(y));
        let choice = combined_best(&tree, Some(&shared)).unwrap();
        assert_ne!(choice, y);
        // Every move lost: the most visited one is still a move.
        for z in 0..9 {
            tree.exclude_root_move(z);
        }
        assert_eq!(combined_best(&tree, Some(&shared)), Some(y));
    }

    #[test]
    fn a_helper_applies_the_moves_proven_lost_and_publishes_its_visits() {
        let root = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 0), 1));
        let shared = SharedMove::new(1);
        shared.exclude(4);
        let search = |budget: Duration, iterations: Option<u64>| {
            let (config, rollout) = (MctsConfig::default(), TacticalRollout::default());
            let end = Instant::now() + budget;
            helper_search(None, root, config, rollout, &shared, 0, end, iterations)
        };
        let tree = search(Duration::from_millis(30), None);
        assert!(tree.root_child_proofs().contains(&(4, Some(false))));
        let published: u64 = (0..9).map(|y| shared.visits(y)).sum();
        assert!(published > 0);
        assert_eq!(
            published,
            tree.root_children()
                .iter()
                .map(|c| u64::from(c.1))
                .sum::<u64>()
        );
        // On a fixed budget: exactly that many iterations, the exclusions left to the caller.
        let tree = search(Duration::from_secs(60), Some(200));
        assert_eq!(tree.stats().iterations, 200);
    }
}

//! Plain minimax (in negamax form): every node to the given depth, no pruning.
//!
//! Kept deliberately simple and unpruned so that the course comparison tables ("how many leaves
//! does alpha-beta save?") have an honest baseline; it is also the slow, obvious reference that
//! the property tests compare the fast searches against. Moves are searched in the game's
//! generation order after [`Game::order_moves`]; among equal values the first move wins.

use crate::deadline::Budget;
use crate::game::{open_node, NodeStart, PlyStack};
use crate::game::{Game, GameResult, Score, INF};
use crate::stats::GameStats;
use std::time::Instant;

/// Searches `depth` plies with no pruning and returns the minimax value, best move and PV.
///
/// ```
/// use search_core::{minimax, Game, Score};
/// /// Take 1 or 2 stones; whoever takes the last stone wins.
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// // With 4 stones the winning move is to take 1 (leaving a multiple of 3).
/// let r = minimax(&mut Nim(4), 10);
/// assert_eq!(r.best, Some(1));
/// assert!(r.score > 0);
/// ```
pub fn minimax<G: Game>(game: &mut G, depth: u32) -> GameResult<G::Move> {
    minimax_within(game, depth, &Budget::default()).expect("no budget runs out")
}

/// [`minimax`] within `budget` (a deadline, a node limit, a stop signal): `None` when the
/// budget ran out before the search was done (a server's time cap on a plain search that may
/// take minutes).
///
/// ```
/// use search_core::{minimax_within, Budget, Game, Score};
/// struct Wide(u32);
/// impl Game for Wide {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend(0..30); }
///     fn play(&mut self, _: u32) { self.0 += 1; }
///     fn undo(&mut self, _: u32) { self.0 -= 1; }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let budget = Budget::new(search_core::Deadline::none(), Some(1000));
/// assert!(minimax_within(&mut Wide(0), 6, &budget).is_none()); // 30^6 nodes
/// assert!(minimax_within(&mut Wide(0), 1, &budget).is_some());
/// ```
pub fn minimax_within<G: Game>(
    game: &mut G,
    depth: u32,
    budget: &Budget,
) -> Option<GameResult<G::Move>> {
    let timer = Instant::now();
    let mut s = Minimax {
        stack: PlyStack::new(),
        stats: GameStats::default(),
        budget,
        aborted: false,
    };
    let score = s.search(game, depth, 0);
    (!s.aborted).then(|| GameResult::of_plain_search(score, &mut s.stack, s.stats, depth, timer))
}

struct Minimax<'b, M> {
    stack: PlyStack<M>,
    stats: GameStats,
    budget: &'b Budget,
    aborted: bool,
}

impl<M: Copy + PartialEq + std::fmt::Debug> Minimax<'_, M> {
    fn search<G: Game<Move = M>>(&mut self, game: &mut G, depth: u32, ply: usize) -> Score {
        if self.aborted || self.budget.exhausted(self.stats.nodes) {
            self.aborted = true;
            return 0;
        }
        let moves = match open_node(game, &mut self.stack, &mut self.stats, depth, ply) {
            NodeStart::Leaf(v) => return v,
            NodeStart::Moves(m) => m,
        };
        let mut best = -INF;
        for &mv in &moves {
            game.play(mv);
            let v = -self.search(game, depth - 1, ply + 1);
            game.undo(mv);
            if v > best {
                best = v;
                self.stack.update_pv(ply, mv);
            }
        }
        self.stack.moves[ply] = moves;
        best
    }
}

//! Built-in opponents, from weak to strong, for matches and the ladder: `random`, `greedy`
//! (wins, blocks, otherwise prefers the centre), `alphabeta:D` (`search-core` alpha-beta on a
//! window-counting evaluation), `mcts:MS[:C]` (the engine with MS milliseconds per move, and
//! optionally UCT exploration constant C instead of the default, for tuning matches) and
//! `mcts-lgr:MS[:C]` (the engine with last-good-reply rollouts, [`crate::engine::rollout::TacticalRollout`])
//! and `mcts-tt:MS[:C]` (the engine with its tree's transpositions pooled,
//! [`EngineConfig::transpositions`]).

use crate::engine::search_game::Searchable;
use crate::engine::{Engine, EngineConfig, GameState};
use crate::rules::board::Board;
use rand::{Rng, SeedableRng};
use search_core::{alphabeta, SmallRng};
use std::time::Duration;

/// A built-in player.
pub trait Player: Send {
    /// Picks an open column.
    fn choose(&mut self, state: &GameState) -> usize;
    /// Forgets the current game.
    fn reset(&mut self) {}
}

/// The deepest `alphabeta:D` built-in: depth 10 already takes seconds a move on a 12x12 board.
pub const MAX_ALPHABETA_DEPTH: u64 = 10;

/// Parses `random`, `greedy`, `alphabeta:D`, `mcts:MS`, `mcts:MS:C`, `mcts:MS:C:T`,
/// `mcts-lgr:MS`, `mcts-lgr:MS:C`, `mcts-tt:MS`, `mcts-tt:MS:C` (`MS` milliseconds per move,
/// `C` the exploration constant, `T` threads).
///
/// ```
/// use connect4::agents::builtin;
/// assert!(builtin("mcts:500:0.6", 1).is_some()); // 500 ms per move, exploration 0.6
/// assert!(builtin("mcts-lgr:500", 1).is_some()); // with last-good-reply rollouts
/// assert!(builtin("mcts-tt:500", 1).is_some()); // each position searched once
/// assert!(builtin("mcts:500:0.6:2", 1).is_some()); // on two threads
/// assert!(builtin("mcts:500:-1", 1).is_none()); // the constant must be positive
/// assert!(builtin("mcts:500:0.6:0", 1).is_none()); // at least one thread
/// assert!(builtin("alphabeta:4:1", 1).is_none());
/// assert!(builtin("alphabeta:999999", 1).is_none()); // deeper than MAX_ALPHABETA_DEPTH
/// ```
pub fn builtin(spec: &str, seed: u64) -> Option<Box<dyn Player>> {
    let (name, arg) = spec.split_once(':').unwrap_or((spec, ""));
    let defaults = EngineConfig::default();
    let (arg, exploration, threads) = match (name, arg.split_once(':')) {
        ("mcts" | "mcts-lgr" | "mcts-tt", Some((ms, rest))) => {
            let (c, threads) = match rest.split_once(':') {
                Some((c, t)) => (c, t.parse().ok().filter(|&t| t > 0)?),
                None => (rest, defaults.threads),
            };
            let c: f64 = c.parse().ok()?;
            (ms, Some(c).filter(|c| c.is_finite() && *c > 0.0)?, threads)
        }
        _ => (arg, defaults.exploration, defaults.threads),
    };
    let num = |d: u64| {
        if arg.is_empty() {
            Some(d)
        } else {
            arg.parse().ok()
        }
    };
    Some(match name {
        "random" => Box::new(RandomPlayer(SmallRng::seed_from_u64(seed))),
        "greedy" => Box::new(GreedyPlayer(SmallRng::seed_from_u64(seed))),
        // Deeper searches take minutes a move on the largest boards: refused, not hung.
        "alphabeta" => Box::new(AlphaBetaPlayer {
            depth: num(4).filter(|d| (1..=MAX_ALPHABETA_DEPTH).contains(d))? as u32,
        }),
        "mcts" | "mcts-lgr" | "mcts-tt" => Box::new(MctsPlayer(Engine::new(EngineConfig {
            time: Duration::from_millis(num(1000)?),
            exploration,
            seed,
            last_good_reply: name == "mcts-lgr",
            transpositions: name == "mcts-tt",
            threads,
            ..defaults
        }))),
        _ => return None,
    })
}

fn open(b: &Board) -> Vec<usize> {
    (0..b.n).filter(|&y| b.can_play(y)).collect()
}

struct RandomPlayer(SmallRng);
impl Player for RandomPlayer {
    fn choose(&mut self, s: &GameState) -> usize {
        let o = open(&s.board);
        o[self.0.random_range(0..o.len())]
    }
}

struct GreedyPlayer(SmallRng);
impl Player for GreedyPlayer {
    fn choose(&mut self, s: &GameState) -> usize {
        if let Some(y) = s.forced_move() {
            return y;
        }
        let o = open(&s.board);
        let centre = (s.board.n as f64 - 1.0) / 2.0;
        let best = o
            .iter()
            .map(|&y| (y as f64 - centre).abs())
            .fold(f64::INFINITY, f64::min);
        let near: Vec<usize> = o
            .into_iter()
            .filter(|&y| (y as f64 - centre).abs() <= best + 1.0)
            .collect();
        near[self.0.random_range(0..near.len())]
    }
}

struct MctsPlayer(Engine);
impl Player for MctsPlayer {
    fn choose(&mut self, s: &GameState) -> usize {
        self.0.choose(s)
    }
    fn reset(&mut self) {
        self.0.reset();
    }
}

struct AlphaBetaPlayer {
    depth: u32,
}

impl Player for AlphaBetaPlayer {
    fn choose(&mut self, s: &GameState) -> usize {
        let mut g = Searchable::new(s.clone());
        alphabeta(&mut g, self.depth)
            .best
            .unwrap_or_else(|| open(&s.board)[0])
    }
}

//! Built-in opponents, from weak to strong, for matches and the ladder: `random`, `greedy`
//! (wins, blocks, otherwise prefers the centre), `alphabeta:D` (`search-core` alpha-beta on a
//! window-counting evaluation) and `mcts:MS` (the engine with MS milliseconds per move).

use crate::board::Board;
use crate::engine::{Engine, EngineConfig, GameState};
use rand::{Rng, SeedableRng};
use search_core::{alphabeta, Game, Score, SmallRng, WIN};
use std::time::Duration;

/// A built-in player.
pub trait Player: Send {
    /// Picks an open column.
    fn choose(&mut self, state: &GameState) -> usize;
    /// Forgets the current game.
    fn reset(&mut self) {}
}

/// Parses `random`, `greedy`, `alphabeta:D`, `mcts:MS`.
pub fn builtin(spec: &str, seed: u64) -> Option<Box<dyn Player>> {
    let (name, arg) = spec.split_once(':').unwrap_or((spec, ""));
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
        "alphabeta" => Box::new(AlphaBetaPlayer {
            depth: num(4)? as u32,
        }),
        "mcts" => Box::new(MctsPlayer(Engine::new(EngineConfig {
            time: Duration::from_millis(num(1000)?),
            seed,
            ..Default::default()
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
        let mut s2 = s.clone();
        if let Some(y) = s2.forced_move() {
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
        let mut g = Searchable {
            state: s.clone(),
            history: Vec::new(),
        };
        alphabeta(&mut g, self.depth)
            .best
            .unwrap_or_else(|| open(&s.board)[0])
    }
}

/// The game as `search-core`'s two-player searches see it.
struct Searchable {
    state: GameState,
    history: Vec<(usize, usize, Option<u8>)>,
}

impl Game for Searchable {
    type Move = usize;
    fn generate_moves(&self, moves: &mut Vec<usize>) {
        let n = self.state.board.n;
        let mut cols: Vec<usize> = (0..n).filter(|&y| self.state.board.can_play(y)).collect();
        cols.sort_by_key(|&y| (2 * y as i32 - n as i32 + 1).abs());
        moves.extend(cols);
    }
    fn play(&mut self, y: usize) {
        let x = self.state.board.landing_row(y).expect("open column");
        self.history.push((x, y, self.state.result));
        self.state.play(y);
    }
    fn undo(&mut self, _y: usize) {
        let (x, y, result) = self.history.pop().expect("a move to undo");
        self.state.board.unplay(x, y);
        self.state.result = result;
        self.state.to_move = 3 - self.state.to_move;
    }
    fn outcome(&self) -> Option<Score> {
        match self.state.result {
            Some(0) => Some(0),
            Some(w) if w == self.state.to_move => Some(WIN),
            Some(_) => Some(-WIN),
            None => None,
        }
    }
    fn no_moves_score(&self) -> Score {
        0
    }
    fn evaluate(&self) -> Score {
        window_score(&self.state.board, self.state.to_move)
    }
}

/// Sum over all windows of four cells (not crossing the obstacle) holding stones of only one
/// player: 1, 4 or 16 for one, two or three stones, positive for `me`.
fn window_score(b: &Board, me: u8) -> Score {
    let weight = [0, 1, 4, 16, 64];
    let mut score = 0;
    for x in 0..b.m as i32 {
        for y in 0..b.n as i32 {
            for (dx, dy) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (ex, ey) = (x + 3 * dx, y + 3 * dy);
                if ex < 0 || ey < 0 || ex >= b.m as i32 || ey >= b.n as i32 {
                    continue;
                }
                let (mut mine, mut theirs, mut blocked) = (0, 0, false);
                for k in 0..4 {
                    let (cx, cy) = ((x + k * dx) as usize, (y + k * dy) as usize);
                    if (cx, cy) == (b.no_x, b.no_y) {
                        blocked = true;
                    }
                    match b.at(cx, cy) {
                        0 => {}
                        p if p == me => mine += 1,
                        _ => theirs += 1,
                    }
                }
                if blocked || (mine > 0 && theirs > 0) {
                    continue;
                }
                score += weight[mine] - weight[theirs];
            }
        }
    }
    score
}

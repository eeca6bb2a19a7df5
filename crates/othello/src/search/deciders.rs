//! The course's search, on `search-core`: the position with the course heuristic as a [`Game`]
//! whose moves come in the framework's `getActions()` order, so that plain minimax and
//! alpha-beta visit exactly the leaves the framework's deciders visit (the reference node counts
//! are in the conformance checks). Values are reported from player one's (black's) side, as the
//! framework's `heuristic()` is.

use crate::eval::course::{actions, push_actions, status, terms, Status};
use crate::rules::bitboard::{adjacent, legal_moves, CORNERS};
use crate::rules::position::{sort_moves_by_key, Line};
use crate::rules::position::{Color, Move, Position};
use search_core::{
    alphabeta, alphabeta_within, iterative_deepening, minimax, minimax_within, Budget, Deadline,
    Game, GameResult, IterationKind, IterativeOptions, Score, Searcher,
};

/// The position under the course's rules and evaluation.
pub struct CourseGame {
    line: Line,
    kind: HeuristicKind,
    order: MoveOrder,
}

/// In which order the searches visit the moves of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MoveOrder {
    /// The course framework's `getActions()`: rows top to bottom, within a row h to a. With it
    /// plain minimax and alpha-beta visit exactly the leaves the course's deciders visit.
    #[default]
    Course,
    /// Fewest replies for the opponent first (fastest-first), corners before other moves with
    /// the same count: the order under which alpha-beta prunes most.
    Mobility,
}

impl CourseGame {
    /// Starts at `p`.
    pub fn new(p: Position) -> CourseGame {
        CourseGame {
            line: Line::new(p, 0),
            kind: HeuristicKind::Course,
            order: MoveOrder::Course,
        }
    }

    /// Starts at `p`, evaluating with `kind`.
    pub fn with_heuristic(p: Position, kind: HeuristicKind) -> CourseGame {
        CourseGame {
            line: Line::new(p, 0),
            kind,
            order: MoveOrder::Course,
        }
    }

    /// The same game with moves visited in `order`.
    pub fn with_order(self, order: MoveOrder) -> CourseGame {
        CourseGame { order, ..self }
    }

    fn heuristic(&self) -> i32 {
        match self.kind {
            HeuristicKind::Course => terms(&self.line.cur).heuristic,
            HeuristicKind::Improved => improved(&self.line.cur),
            HeuristicKind::Pattern => {
                let v = crate::eval::pattern::evaluate(&self.line.cur);
                match self.line.cur.side {
                    Color::Black => v,
                    Color::White => -v,
                }
            }
        }
    }

    fn side_value(&self, h: i32) -> Score {
        if self.line.cur.side == Color::Black {
            h
        } else {
            -h
        }
    }
}

impl Game for CourseGame {
    type Move = Move;
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if status(&self.line.cur) == Status::Ongoing {
            push_actions(&self.line.cur, moves);
        }
    }
    fn order_moves(&self, moves: &mut [Move]) {
        if self.order == MoveOrder::Mobility {
            let cur = self.line.cur;
            // A stable sort, each key computed once, keeps the course order among equal keys.
            sort_moves_by_key(moves, |&mv| match mv {
                Move::Square(s) => {
                    let replies = cur.play(mv).moves().count_ones() as i32;
                    2 * replies - i32::from(CORNERS >> s & 1 == 1)
                }
                Move::Pass => 0,
            });
        }
    }
    fn play(&mut self, mv: Move) {
        self.line.push(mv);
    }
    fn undo(&mut self, _mv: Move) {
        self.line.pop();
    }
    fn outcome(&self) -> Option<Score> {
        (status(&self.line.cur) != Status::Ongoing).then(|| self.side_value(self.heuristic()))
    }
    fn evaluate(&self) -> Score {
        self.side_value(self.heuristic())
    }
    fn hash(&self) -> u64 {
        // Every heuristic negates under a colour swap, so the side-to-move view depends only on
        // (own discs, other discs).
        crate::rules::position::position_hash(&self.line.cur)
    }
    fn history_index(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Square(s) => Some(s as usize),
            Move::Pass => None,
        }
    }
    fn probcut_error(&self, depth: i32, _shallow: i32) -> Option<search_core::ProbCutError> {
        (self.kind == HeuristicKind::Pattern)
            .then(|| crate::eval::probcut::model().error(self.line.cur.empties(), depth))
    }
}

/// The course's searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Plain minimax (the NJU `MiniMaxDecider`).
    Minimax,
    /// Alpha-beta (the UW original, the homework's task 2).
    Alphabeta,
    /// MTD(f) (the homework's task 4): iterative deepening, each depth found by null-window
    /// alpha-beta passes over a transposition table.
    Mtdf,
}

/// A fixed-depth search from `p`; the score is turned to black's side.
///
/// ```
/// use othello::{deciders::{search, Algorithm}, Position};
/// use othello::deciders::MoveOrder;
/// let (value, r) = search(&Position::default(), 3, Algorithm::Minimax, MoveOrder::Course);
/// assert_eq!((value, r.stats.leaves), (29, 56));
/// let (value, r) = search(&Position::default(), 3, Algorithm::Alphabeta, MoveOrder::Course);
/// assert_eq!((value, r.stats.leaves), (29, 35));
/// ```
pub fn search(
    p: &Position,
    depth: u32,
    algo: Algorithm,
    order: MoveOrder,
) -> (i32, GameResult<Move>) {
    let mut g = CourseGame::new(*p).with_order(order);
    let r = match algo {
        Algorithm::Minimax => minimax(&mut g, depth),
        Algorithm::Alphabeta => alphabeta(&mut g, depth),
        Algorithm::Mtdf => mtdf_search(&mut g, depth),
    };
    let value = if p.side == Color::Black {
        r.score
    } else {
        -r.score
    };
    (value, r)
}

/// Which evaluation a decider uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HeuristicKind {
    /// The course framework's `heuristic()`, quirks included.
    Course,
    /// This project's: positional square weights, mobility, corners and frontier discs.
    Improved,
    /// The learned pattern evaluation (`othello train`), in hundredths of a disc.
    Pattern,
}

/// Square weights of the improved heuristic (a1..h8): corners high, the squares next to empty
/// corners (X- and C-squares) negative.
const WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100,
];

/// The improved evaluation from black's side: square weights (X/C-square penalties lifted once
/// their corner is taken), 10 per legal-move difference, frontier discs (next to an empty square)
/// counted against their owner, and the exact disc difference (times 1000) once the game is over.
pub fn improved(p: &Position) -> i32 {
    let (b, w) = match p.side {
        Color::Black => (p.me, p.opp),
        Color::White => (p.opp, p.me),
    };
    let black_moves = legal_moves(b, w);
    let white_moves = legal_moves(w, b);
    if black_moves == 0 && white_moves == 0 {
        // Neither side can move: the game is over.
        return 1000 * (b.count_ones() as i32 - w.count_ones() as i32);
    }
    let occupied = b | w;
    // Negative weights near a corner are harmless once that corner is occupied.
    let neutral = QUADRANT_PENALTIES
        .iter()
        .filter(|(corner, _)| occupied & corner != 0)
        .fold(0, |acc, (_, squares)| acc | squares);
    let (b_live, w_live) = (b & !neutral, w & !neutral);
    let score: i32 = WEIGHT_CLASSES
        .iter()
        .map(|&(weight, squares)| {
            weight
                * ((b_live & squares).count_ones() as i32 - (w_live & squares).count_ones() as i32)
        })
        .sum();
    let mobility = black_moves.count_ones() as i32 - white_moves.count_ones() as i32;
    let frontier = adjacent(!occupied);
    let front = (frontier & w).count_ones() as i32 - (frontier & b).count_ones() as i32;
    score + 10 * mobility + 5 * front
}

/// The squares of [`WEIGHTS`] carrying `weight`.
const fn squares_weighing(weight: i32) -> u64 {
    let mut mask = 0;
    let mut sq = 0;
    while sq < 64 {
        if WEIGHTS[sq] == weight {
            mask |= 1 << sq;
        }
        sq += 1;
    }
    mask
}

/// Each non-zero weight of [`WEIGHTS`] with its squares: the weighted sum is a handful of
/// popcounts.
const WEIGHT_CLASSES: [(i32, u64); 7] = {
    let weights = [100, -20, 10, 5, -50, -2, 1];
    let mut out = [(0, 0); 7];
    let mut i = 0;
    while i < 7 {
        out[i] = (weights[i], squares_weighing(weights[i]));
        i += 1;
    }
    out
};

/// For each corner, the corner square and the negative-weight squares of its quadrant.
const QUADRANT_PENALTIES: [(u64, u64); 4] = {
    let mut out = [(0, 0); 4];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        let q = (r / 4) * 2 + c / 4;
        out[q].0 = 1 << ((if r < 4 { 0 } else { 7 }) * 8 + if c < 4 { 0 } else { 7 });
        if WEIGHTS[sq] < 0 {
            out[q].1 |= 1 << sq;
        }
        sq += 1;
    }
    out
};

/// A decider of the course: who picks the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// Plain minimax to a depth, ties broken at random (seeded), as the NJU decider.
    Minimax(u32),
    /// Alpha-beta to a depth, same ties.
    AlphaBeta(u32),
    /// MTD(f) with iterative deepening to a depth (transposition table).
    Mtdf(u32),
    /// Iterative-deepening alpha-beta with a transposition table under a time budget in ms.
    Id(u64),
    /// Monte Carlo tree search (UCT, random play-outs) under a time budget in ms.
    Mcts(u64),
    /// A uniformly random legal move.
    Random,
}

/// The position as `search-core`'s MCTS sees it: black is player 0.
#[derive(Debug, Clone, Copy)]
struct MctsPosition(Position);

impl search_core::MctsState for MctsPosition {
    type Move = Move;
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.0.push_moves(out);
    }
    fn apply(&mut self, mv: Move) {
        self.0 = self.0.play(mv);
    }
    fn player(&self) -> usize {
        usize::from(self.0.side == Color::White)
    }
    fn terminal_reward(&self) -> Option<f64> {
        self.0.game_over().then(|| {
            let (b, w) = if self.0.side == Color::Black {
                (self.0.me, self.0.opp)
            } else {
                (self.0.opp, self.0.me)
            };
            match b.count_ones().cmp(&w.count_ones()) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            }
        })
    }
}

impl std::str::FromStr for Decider {
    type Err = String;
    /// `minimax:D`, `alphabeta:D`, `mtdf:D`, `id:MS`, `mcts:MS`, `random`.
    fn from_str(s: &str) -> Result<Decider, String> {
        let (name, arg) = s.split_once(':').unwrap_or((s, ""));
        let depth = || {
            arg.parse::<u32>()
                .map_err(|_| format!("`{s}` needs a depth, like {name}:4"))
        };
        match name {
            "minimax" => Ok(Decider::Minimax(depth()?)),
            "alphabeta" => Ok(Decider::AlphaBeta(depth()?)),
            "mtdf" => Ok(Decider::Mtdf(depth()?)),
            "id" => arg
                .parse::<u64>()
                .map(Decider::Id)
                .map_err(|_| format!("`{s}` needs milliseconds, like id:500")),
            "mcts" => arg
                .parse::<u64>()
                .map(Decider::Mcts)
                .map_err(|_| format!("`{s}` needs milliseconds, like mcts:500")),
            "random" => Ok(Decider::Random),
            _ => Err(format!(
                "unknown decider `{s}` (minimax:D, alphabeta:D, mtdf:D, id:MS, mcts:MS, random)"
            )),
        }
    }
}

/// Iterative deepening to `depth` by MTD(f) passes over a fresh transposition table (the
/// searches `search --algo mtdf` runs and traces).
pub fn mtdf_search<G: Game>(game: &mut G, depth: u32) -> GameResult<G::Move> {
    let mut searcher = Searcher::new(16);
    let opts = IterativeOptions {
        max_depth: depth,
        kind: IterationKind::Mtdf,
        ..Default::default()
    };
    iterative_deepening(game, &mut searcher, &opts, |_| {})
}

/// Iterative deepening (alpha-beta or MTD(f) iterations) with a transposition table.
fn table_search(
    p: &Position,
    heuristic: HeuristicKind,
    order: MoveOrder,
    depth: u32,
    time: Option<std::time::Duration>,
    kind: IterationKind,
) -> Option<(Move, u32, u64)> {
    let mut g = CourseGame::with_heuristic(*p, heuristic).with_order(order);
    let mut searcher = Searcher::new(16);
    let opts = IterativeOptions {
        max_depth: depth,
        deadline: time.map_or(Deadline::none(), Deadline::after),
        kind,
        ..Default::default()
    };
    let r = iterative_deepening(&mut g, &mut searcher, &opts, |_| {});
    r.best.map(|mv| (mv, r.stats.depth, r.stats.nodes))
}

/// Picks a move: every root move is searched to `depth − 1` below it with the full window, the
/// best ones (for the side to move) collected, and one drawn with `rng` (the framework shuffles).
pub fn decide(
    p: &Position,
    decider: Decider,
    heuristic: HeuristicKind,
    order: MoveOrder,
    rng: &mut search_core::SmallRng,
) -> Move {
    decide_within(p, decider, heuristic, order, rng, &Budget::default())
        .expect("no budget runs out")
        .0
}

/// [`decide`] within `budget` (a server's time cap): the move and the nodes searched, or
/// `None` when the budget ran out first. Timed deciders (`id:MS`, `mcts:MS`) keep to the
/// budget's deadline as well as to their own time.
pub fn decide_within(
    p: &Position,
    decider: Decider,
    heuristic: HeuristicKind,
    order: MoveOrder,
    rng: &mut search_core::SmallRng,
    budget: &Budget,
) -> Option<(Move, u64)> {
    use rand::Rng;
    let moves = actions(p);
    let capped = |ms: u64| {
        let own = std::time::Duration::from_millis(ms);
        budget
            .deadline
            .remaining()
            .map_or(own, |left| own.min(left))
    };
    let depth = match decider {
        Decider::Random => return Some((moves[rng.random_range(0..moves.len())], 0)),
        Decider::Minimax(d) | Decider::AlphaBeta(d) => d.max(1),
        Decider::Mtdf(d) => {
            let done = table_search(
                p,
                heuristic,
                order,
                d.max(1),
                budget.deadline.remaining(),
                IterationKind::Mtdf,
            );
            // A fixed-depth MTD(f) that the deadline cut short has not decided.
            return match done {
                Some((mv, depth, nodes)) if depth >= d.max(1) => Some((mv, nodes)),
                Some(_) if budget.deadline.remaining().is_some() => None,
                other => Some(other.map_or((moves[0], 0), |(mv, _, n)| (mv, n))),
            };
        }
        Decider::Mcts(ms) => {
            let config = search_core::MctsConfig {
                max_iterations: None,
                deadline: Deadline::after(capped(ms)),
                seed: rng.random(),
                ..Default::default()
            };
            let mv = search_core::mcts(MctsPosition(*p), config, &mut search_core::RandomRollout)
                .unwrap_or(moves[0]);
            return Some((mv, 0));
        }
        Decider::Id(ms) => {
            let found = table_search(
                p,
                heuristic,
                order,
                64,
                Some(capped(ms)),
                IterationKind::AlphaBeta,
            );
            return Some(found.map_or((moves[0], 0), |(mv, _, n)| (mv, n)));
        }
    };
    let mut best = Vec::new();
    let mut best_value = Score::MIN;
    let mut nodes = 0;
    for &mv in &moves {
        let mut g = CourseGame::with_heuristic(p.play(mv), heuristic).with_order(order);
        let r = match decider {
            Decider::Minimax(_) => minimax_within(&mut g, depth - 1, budget)?,
            _ => alphabeta_within(&mut g, depth - 1, budget)?,
        };
        nodes += r.stats.nodes;
        let v = -r.score;
        if v > best_value {
            best_value = v;
            best.clear();
        }
        if v == best_value {
            best.push(mv);
        }
    }
    Some((best[rng.random_range(0..best.len())], nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The improved evaluation square by square, as first written: the reference for the
    /// popcount version.
    fn improved_by_squares(p: &Position) -> i32 {
        let (b, w) = match p.side {
            Color::Black => (p.me, p.opp),
            Color::White => (p.opp, p.me),
        };
        if status(p) != Status::Ongoing {
            return 1000 * (b.count_ones() as i32 - w.count_ones() as i32);
        }
        let occupied = b | w;
        let mut score = 0;
        for (sq, &w0) in WEIGHTS.iter().enumerate() {
            let bit = 1u64 << sq;
            if occupied & bit == 0 {
                continue;
            }
            let mut weight = w0;
            if weight < 0 {
                let (r, c) = (sq / 8, sq % 8);
                let corner = (if r < 4 { 0 } else { 7 }) * 8 + if c < 4 { 0 } else { 7 };
                if occupied >> corner & 1 == 1 {
                    weight = 0;
                }
            }
            score += if b & bit != 0 { weight } else { -weight };
        }
        let mobility =
            legal_moves(b, w).count_ones() as i32 - legal_moves(w, b).count_ones() as i32;
        let frontier = adjacent(!occupied);
        let front = (frontier & w).count_ones() as i32 - (frontier & b).count_ones() as i32;
        score + 10 * mobility + 5 * front
    }

    /// Along 200 random games (passes and finished games included), every position gets the
    /// same value from both versions.
    #[test]
    fn popcount_evaluation_equals_square_by_square() {
        let mut checked = 0;
        for game in 0..200 {
            for p in Position::random_game(0x9e37_79b9_7f4a_7c15 + game) {
                assert_eq!(improved(&p), improved_by_squares(&p), "{p}");
                checked += 1;
            }
        }
        assert!(checked > 10_000);
    }
}

//! The othello page's endpoints: a game (its moves from the start) shown disc by disc, a move
//! by any decider (the course's minimax, alpha-beta and MTD(f) with their heuristics and their
//! search tree drawn, the learned evaluation with the exact solver near the end), the exact
//! value of a position, and the learned engine's analysis streamed depth by depth.

use crate::api::{comma_list, ApiError, ApiResult, Engines, Input};
use axum::extract::{Query, State};
use axum::Json;
use othello::deciders::{Algorithm, Decider, HeuristicKind, MoveOrder};
use othello::endgame::{solve_until, table_megabytes, Solution};
use othello::nboard::{Analysis, MoveBudget, Thinker};
use othello::{Color, Move, Position};
use rand::SeedableRng;
use search_core::Deadline;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// A game: its moves from the standard start (`d3`, and `pass` where a side had none).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Game {
    /// The moves played.
    #[serde(default)]
    pub moves: Vec<String>,
}

impl Game {
    /// The position reached; fails with the first move that is not legal where it is played.
    pub fn replay(&self) -> Result<Position, ApiError> {
        let mut p = Position::default();
        for (i, text) in self.moves.iter().enumerate() {
            let mv: Move = text.parse().map_err(ApiError::bad)?;
            if !p.is_legal(mv) {
                return Err(ApiError::bad(format!(
                    "move {} ({text}) is not legal there",
                    i + 1
                )));
            }
            p = p.play(mv);
        }
        Ok(p)
    }
}

/// The position as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The 64 squares a1..h8: `b`, `w` or empty.
    pub cells: Vec<&'static str>,
    /// `black` or `white`: the side to move.
    pub side: &'static str,
    /// Legal moves of the side to move (`pass` alone when it has none).
    pub legal: Vec<String>,
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty squares.
    pub empties: u32,
    /// The result once the game is over.
    pub over: Option<String>,
}

/// The page's view of `p`.
pub fn view(p: &Position) -> View {
    let (black, white) = match p.side {
        Color::Black => (p.me, p.opp),
        Color::White => (p.opp, p.me),
    };
    let mut legal = Vec::new();
    if !p.game_over() {
        p.push_moves(&mut legal);
    }
    let (b, w) = (black.count_ones(), white.count_ones());
    View {
        cells: (0..64)
            .map(|i| match (black >> i & 1, white >> i & 1) {
                (1, _) => "b",
                (_, 1) => "w",
                _ => "",
            })
            .collect(),
        side: if p.side == Color::Black {
            "black"
        } else {
            "white"
        },
        legal: legal.iter().map(Move::to_string).collect(),
        black: b,
        white: w,
        empties: p.empties(),
        over: p.game_over().then(|| match b.cmp(&w) {
            std::cmp::Ordering::Greater => format!("black wins {b}-{w}"),
            std::cmp::Ordering::Less => format!("white wins {w}-{b}"),
            std::cmp::Ordering::Equal => format!("a draw {b}-{w}"),
        }),
    }
}

pub(crate) async fn state(Input(game): Input<Game>) -> ApiResult<View> {
    Ok(Json(view(&game.replay()?)))
}

/// A move request: the game, who decides and how.
#[derive(Debug, Clone, Deserialize)]
pub struct MoveRequest {
    /// The game.
    #[serde(flatten)]
    pub game: Game,
    /// `minimax:D`, `alphabeta:D`, `mtdf:D`, `id:MS`, `mcts:MS`, `random` (the course's
    /// deciders) or `learned:D` (the learned evaluation, solving exactly near the end).
    pub decider: String,
    /// The course deciders' evaluation: `course`, `improved` or `pattern`.
    #[serde(default)]
    pub heuristic: Option<String>,
    /// Seed of the ties the course deciders draw.
    #[serde(default)]
    pub seed: u64,
    /// Most milliseconds the learned engine may think.
    #[serde(default = "default_ms")]
    pub ms: u64,
}

fn default_ms() -> u64 {
    2000
}

/// A decision and what the page shows of it.
#[derive(Debug, Clone, Serialize)]
pub struct Decided {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the mover in discs (the learned engine only).
    pub eval: Option<f64>,
    /// Whether `eval` is the exact final disc difference.
    pub exact: bool,
    /// Depth searched.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The search tree of a fixed-depth course decider as SVG, when small enough to draw.
    pub tree: Option<String>,
    /// Why no tree is drawn.
    pub tree_note: Option<String>,
}

fn heuristic_of(name: Option<&str>) -> Result<HeuristicKind, ApiError> {
    match name.unwrap_or("improved") {
        "course" => Ok(HeuristicKind::Course),
        "improved" => Ok(HeuristicKind::Improved),
        "pattern" => Ok(HeuristicKind::Pattern),
        other => Err(ApiError::bad(format!(
            "unknown heuristic `{}` (course, improved, pattern)",
            batch::shown(other)
        ))),
    }
}

/// Deepest fixed-depth course search the page may ask for (plain minimax grows as 10^depth).
const MAX_COURSE_DEPTH: u32 = 6;
/// Deepest search of the learned engine the page may ask for.
const MAX_LEARNED_DEPTH: u32 = 16;

fn learned(p: &Position, depth: u32, budget: &MoveBudget) -> Option<Analysis> {
    Thinker::new(Arc::new(AtomicBool::new(false))).best(p, depth, budget)
}

fn course_decision(
    p: &Position,
    decider: Decider,
    req: &MoveRequest,
    time: std::time::Duration,
) -> Result<Decided, ApiError> {
    let heuristic = heuristic_of(req.heuristic.as_deref())?;
    let depth = match decider {
        Decider::Minimax(d) | Decider::AlphaBeta(d) | Decider::Mtdf(d) => Some(d),
        _ => None,
    };
    if depth.is_some_and(|d| d > MAX_COURSE_DEPTH) {
        return Err(ApiError::bad(format!(
            "depth at most {MAX_COURSE_DEPTH} for the course deciders"
        )));
    }
    let mut rng = search_core::SmallRng::seed_from_u64(req.seed);
    // Every decider keeps to the server's time: a search that cannot finish within it is
    // refused, not left running.
    let budget = search_core::Budget::new(search_core::Deadline::after(time), None);
    let (mv, nodes) = othello::deciders::decide_within(
        p,
        decider,
        heuristic,
        MoveOrder::Course,
        &mut rng,
        &budget,
    )
    .ok_or_else(|| {
        ApiError::busy(format!(
            "{} did not finish within the server's {:.0} s: ask for a smaller depth",
            req.decider,
            time.as_secs_f64()
        ))
    })?;
    let algo = match decider {
        Decider::Minimax(_) => Some(Algorithm::Minimax),
        Decider::AlphaBeta(_) => Some(Algorithm::Alphabeta),
        Decider::Mtdf(_) => Some(Algorithm::Mtdf),
        _ => None,
    };
    // The tree is drawn only when small: tracing a big search would cost as much again.
    let drawable = nodes <= 2 * othello::trace::SVG_MAX_NODES as u64;
    let (tree, tree_note) = match (algo, depth) {
        (Some(algo), Some(d)) if drawable => {
            let t = othello::trace::trace_search(p, d, algo, MoveOrder::Course, heuristic);
            let note = t.svg.is_none().then(|| {
                format!(
                    "the tree has more than {} nodes: too big to draw",
                    othello::trace::SVG_MAX_NODES
                )
            });
            (t.svg, note)
        }
        (Some(_), Some(_)) => (
            None,
            Some(format!(
                "the tree has {nodes} nodes: too big to draw (at most {})",
                othello::trace::SVG_MAX_NODES
            )),
        ),
        _ => (
            None,
            Some("this decider has no fixed-depth tree".to_string()),
        ),
    };
    Ok(Decided {
        mv: mv.to_string(),
        eval: None,
        exact: false,
        depth,
        nodes: Some(nodes),
        tree,
        tree_note,
    })
}

pub(crate) async fn decide_move(
    State(engines): State<Engines>,
    Input(req): Input<MoveRequest>,
) -> ApiResult<Decided> {
    let p = req.game.replay()?;
    if p.game_over() {
        return Err(ApiError::bad("the game is over"));
    }
    let time = engines.think_time(req.ms);
    if let Some(depth) = req.decider.strip_prefix("learned:") {
        let depth: u32 = depth
            .parse()
            .ok()
            .filter(|d| (1..=MAX_LEARNED_DEPTH).contains(d))
            .ok_or_else(|| {
                ApiError::bad(format!("learned:D needs a depth 1..={MAX_LEARNED_DEPTH}"))
            })?;
        return engines
            .run(move || {
                let budget = MoveBudget::new(Instant::now(), time.as_secs_f64(), None, p.empties());
                let a =
                    learned(&p, depth, &budget).ok_or_else(|| ApiError::bad("the game is over"))?;
                Ok(Decided {
                    mv: a.mv.to_string(),
                    eval: Some(a.eval),
                    exact: a.exact,
                    depth: Some(a.depth),
                    nodes: Some(a.nodes),
                    tree: None,
                    tree_note: Some("the learned engine's tree is too big to draw".into()),
                })
            })
            .await;
    }
    let decider: Decider = req.decider.parse().map_err(ApiError::bad)?;
    let decider = match decider {
        Decider::Id(ms) => Decider::Id(ms.min(time.as_millis() as u64)),
        Decider::Mcts(ms) => Decider::Mcts(ms.min(time.as_millis() as u64)),
        d => d,
    };
    engines
        .run(move || course_decision(&p, decider, &req, time))
        .await
}

/// An exact-solve request.
#[derive(Debug, Clone, Deserialize)]
pub struct SolveRequest {
    /// The game.
    #[serde(flatten)]
    pub game: Game,
    /// Time budget, ms.
    #[serde(default = "default_ms")]
    pub ms: u64,
}

/// The exact value of a position, when found in time.
#[derive(Debug, Clone, Serialize)]
pub struct Solved {
    /// Whether the solve finished.
    pub solved: bool,
    /// Final disc difference for the side to move under perfect play (empties to the winner).
    pub value: Option<i32>,
    /// A best move.
    pub best: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Empty squares.
    pub empties: u32,
}

/// Most empty squares the page may ask to solve (beyond, a solve takes minutes to hours).
const MAX_SOLVE_EMPTIES: u32 = 26;

pub(crate) async fn solve(
    State(engines): State<Engines>,
    Input(req): Input<SolveRequest>,
) -> ApiResult<Solved> {
    let p = req.game.replay()?;
    if p.empties() > MAX_SOLVE_EMPTIES {
        return Err(ApiError::bad(format!(
            "{} empty squares: the exact solver takes at most {MAX_SOLVE_EMPTIES} here",
            p.empties()
        )));
    }
    let time = engines.think_time(req.ms);
    engines
        .run(move || {
            let mut searcher = othello::endgame::searcher(table_megabytes(p.empties()));
            searcher.set_deadline(Deadline::after(time));
            Ok(match solve_until(&p, &mut searcher) {
                Some(Solution { score, best, nodes }) => Solved {
                    solved: true,
                    value: Some(score),
                    best: best.map(|m| m.to_string()),
                    nodes,
                    empties: p.empties(),
                },
                None => Solved {
                    solved: false,
                    value: None,
                    best: None,
                    nodes: searcher.stats.nodes,
                    empties: p.empties(),
                },
            })
        })
        .await
}

/// The query of a streamed analysis: moves comma-separated and the deepest depth.
#[derive(Debug, Clone, Deserialize)]
pub struct HintQuery {
    /// Moves from the start, comma-separated.
    #[serde(default)]
    pub moves: String,
    /// Deepest depth (1..=12).
    #[serde(default = "default_hint_depth")]
    pub depth: u32,
}

fn default_hint_depth() -> u32 {
    8
}

/// One move's value in a streamed analysis.
#[derive(Debug, Clone, Serialize)]
pub struct Valued {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the mover in discs.
    pub eval: f64,
    /// Whether the value is exact.
    pub exact: bool,
    /// Depth searched.
    pub depth: u32,
}

pub(crate) async fn hint(
    State(engines): State<Engines>,
    Query(q): Query<HintQuery>,
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let game = Game {
        moves: comma_list(&q.moves),
    };
    let p = game.replay()?;
    if p.game_over() {
        return Err(ApiError::bad("the game is over"));
    }
    if !(1..=12).contains(&q.depth) {
        return Err(ApiError::bad("analysis depth must be 1 to 12"));
    }
    let max = engines.limits.max_think;
    engines
        .stream(move |report| {
            let stop = Arc::new(AtomicBool::new(false));
            let mut thinker = Thinker::new(stop.clone());
            let timer = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(max);
                timer.store(true, std::sync::atomic::Ordering::Relaxed);
            });
            thinker.hint(&p, q.depth, |found| {
                let row: Vec<Valued> = found
                    .iter()
                    .map(|a| Valued {
                        mv: a.mv.to_string(),
                        eval: a.eval,
                        exact: a.exact,
                        depth: a.depth,
                    })
                    .collect();
                if !report.send("depth", &row) {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
            report.send("done", &());
        })
        .await
}

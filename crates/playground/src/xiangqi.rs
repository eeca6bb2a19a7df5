//! The xiangqi page's endpoints: a game (a FEN and the moves since) checked and shown square by
//! square, the engine's thinking streamed iteration by iteration, a full-width mate search, and
//! the course's endgame inputs.

use crate::api::{comma_list, ApiError, ApiResult, Engines, Input, Reporter};
use axum::extract::{Query, State};
use axum::Json;
use search_core::GameResult;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use xiangqi_endgame::engine::{mate_moves, own_move, MateSearch};
use xiangqi_endgame::movegen::{in_check, legal_moves};
use xiangqi_endgame::repetition::GameLine;
use xiangqi_endgame::{Color, Move, Position, Square, START_FEN};

/// A game: where it started (the start position when `fen` is empty) and the moves since.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Game {
    /// The starting position (FEN).
    #[serde(default)]
    pub fen: String,
    /// Moves since, in UCI form (`h2e2`).
    #[serde(default)]
    pub moves: Vec<String>,
}

impl Game {
    /// The position reached and the line leading to it.
    pub fn replay(&self) -> Result<(Position, GameLine), ApiError> {
        let fen = if self.fen.trim().is_empty() {
            START_FEN
        } else {
            self.fen.trim()
        };
        let start: Position = fen
            .parse()
            .map_err(|e| ApiError::bad(format!("bad FEN `{}`: {e}", batch::shown(fen))))?;
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        GameLine::replay(start, &moves).map_err(ApiError::bad)
    }
}

/// One square of the board as the page draws it.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// Its name (`a0`..`i9`).
    pub square: String,
    /// The piece's FEN letter (upper case red), or empty.
    pub piece: String,
}

/// The position of a game as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The position as a FEN.
    pub fen: String,
    /// `red` or `black`: the side to move.
    pub side: &'static str,
    /// The 90 squares, top row (rank 9) first.
    pub cells: Vec<Cell>,
    /// Legal moves of the side to move.
    pub legal: Vec<String>,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Why the game is over, when it is.
    pub over: Option<String>,
    /// The last move played.
    pub last: Option<String>,
}

fn side_name(c: Color) -> &'static str {
    if c == Color::Red {
        "red"
    } else {
        "black"
    }
}

/// The page's view of `pos`.
pub fn view(pos: &Position) -> View {
    let mut legal = Vec::new();
    legal_moves(pos, &mut legal);
    let check = in_check(pos);
    let side = pos.side();
    let over = if pos.king(side).is_none() {
        Some(format!("{} has no king", side_name(side)))
    } else if legal.is_empty() {
        let how = if check { "checkmated" } else { "stalemated" };
        Some(format!(
            "{} is {how}: {} wins",
            side_name(side),
            side_name(side.opposite())
        ))
    } else {
        None
    };
    View {
        fen: pos.to_string(),
        side: side_name(side),
        cells: (0..90)
            .map(|i| {
                let sq = Square(i);
                Cell {
                    square: sq.to_string(),
                    piece: pos.at(sq).map(|p| p.to_string()).unwrap_or_default(),
                }
            })
            .collect(),
        legal: legal.iter().map(Move::to_string).collect(),
        check,
        over,
        last: pos.last_move().map(|m| m.to_string()),
    }
}

/// The page's view of a game's position `pos` reached by `line` in `plies` moves: also over
/// when a repetition is ruled (a perpetual check loses, any other repetition or 60 moves
/// without a capture draws) or the game reaches the referee's move limit, as in `match`.
pub fn game_view(pos: &Position, line: &GameLine, plies: usize) -> View {
    let mut v = view(pos);
    if v.over.is_some() {
        return v;
    }
    use xiangqi_endgame::selfplay::{ruled_ending, Result as Ending, MAX_PLIES};
    v.over = match ruled_ending(line, pos) {
        Some((Ending::Draw, _)) => {
            Some("a draw by repetition or 60 moves without a capture".into())
        }
        Some((won, _)) => {
            let winner = if won == Ending::RedWins {
                Color::Red
            } else {
                Color::Black
            };
            Some(format!(
                "{} checked perpetually: {} wins",
                side_name(winner.opposite()),
                side_name(winner)
            ))
        }
        None if plies >= MAX_PLIES => Some(format!("a draw: {MAX_PLIES} plies, the move limit")),
        None => None,
    };
    v
}

pub(crate) async fn state(Input(game): Input<Game>) -> ApiResult<View> {
    let (pos, line) = game.replay()?;
    Ok(Json(game_view(&pos, &line, game.moves.len())))
}

/// A course input offered on the page.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    /// Its file name.
    pub name: &'static str,
    /// Its position as a FEN (red to move).
    pub fen: String,
}

/// The course's endgame inputs bundled with the project.
const INPUTS: [(&str, &str); 5] = [
    (
        "1.txt",
        include_str!("../../../inputs/xiangqi-endgame/1.txt"),
    ),
    (
        "2.txt",
        include_str!("../../../inputs/xiangqi-endgame/2.txt"),
    ),
    (
        "3.txt",
        include_str!("../../../inputs/xiangqi-endgame/3.txt"),
    ),
    (
        "4.txt",
        include_str!("../../../inputs/xiangqi-endgame/4.txt"),
    ),
    (
        "5.txt",
        include_str!("../../../inputs/xiangqi-endgame/5.txt"),
    ),
];

pub(crate) async fn inputs() -> ApiResult<Vec<Example>> {
    let mut out = Vec::new();
    for (name, text) in INPUTS {
        let pos = xiangqi_endgame::fen::parse_board_file(text)
            .map_err(|e| ApiError::bad(format!("{name}: {e}")))?;
        out.push(Example {
            name,
            fen: pos.to_string(),
        });
    }
    Ok(Json(out))
}

/// The query of a streamed search: the game as in [`Game`] (moves comma-separated) and the
/// thinking time in milliseconds.
#[derive(Debug, Clone, Deserialize)]
pub struct ThinkQuery {
    /// The starting FEN (empty: the start position).
    #[serde(default)]
    pub fen: String,
    /// Moves since, comma-separated.
    #[serde(default)]
    pub moves: String,
    /// Thinking time, ms.
    #[serde(default = "default_think_ms")]
    pub ms: u64,
}

fn default_think_ms() -> u64 {
    1000
}

/// One finished iteration of the engine, as streamed.
#[derive(Debug, Clone, Serialize)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: u32,
    /// Score for the side to move, in the evaluation's units (a pawn is about 100).
    pub score: i32,
    /// Mate in this many moves (negative: mated), when the score is decided.
    pub mate: Option<i32>,
    /// Principal variation.
    pub pv: Vec<String>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the start.
    pub ms: u64,
}

impl Iteration {
    fn of(r: &GameResult<Move>) -> Iteration {
        let mate = mate_moves(r.score);
        Iteration {
            depth: r.stats.depth,
            score: r.score,
            mate,
            pv: r.pv.iter().map(Move::to_string).collect(),
            nodes: r.stats.nodes,
            nps: r.stats.nodes_per_second() as u64,
            ms: r.stats.elapsed.as_millis() as u64,
        }
    }
}

/// The engine's answer, the last event of a streamed search.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The move (`None` when the side to move has none).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Its last iteration.
    pub last: Option<Iteration>,
}

/// The engine's own play on the game, reporting each iteration, stopped when the page goes.
fn engine_search(pos: Position, line: GameLine, time: std::time::Duration, report: &Reporter) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut last = None;
    let d = own_move(&pos, line, time, Some(stop.clone()), |r| {
        let it = Iteration::of(r);
        if !report.send("info", &it) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        last = Some(it);
    });
    report.send(
        "best",
        &Answer {
            mv: d.mv.map(|m| m.to_string()),
            last,
        },
    );
}

pub(crate) async fn think_stream(
    State(engines): State<Engines>,
    Query(q): Query<ThinkQuery>,
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let game = Game {
        fen: q.fen,
        moves: comma_list(&q.moves),
    };
    let (pos, line) = game.replay()?;
    if game_view(&pos, &line, game.moves.len()).over.is_some() {
        return Err(ApiError::bad(
            "the game is over: there is nothing to think about",
        ));
    }
    let time = engines.think_time(q.ms);
    engines
        .stream(move |report| engine_search(pos, line, time, report))
        .await
}

/// A mate search request.
#[derive(Debug, Clone, Deserialize)]
pub struct MateRequest {
    /// The game.
    #[serde(flatten)]
    pub game: Game,
    /// Longest mate looked for, in the side to move's moves (1..=7).
    #[serde(default = "default_mate_moves")]
    pub within: u32,
    /// Time budget, ms.
    #[serde(default = "default_think_ms")]
    pub ms: u64,
}

fn default_mate_moves() -> u32 {
    5
}

/// What the mate search found.
#[derive(Debug, Clone, Serialize)]
pub struct MateView {
    /// `mate`, `none` (proven: no mate that short) or `unknown` (out of time).
    pub result: &'static str,
    /// Mate in this many moves.
    pub moves: Option<u32>,
    /// The mating line, both sides' moves.
    pub line: Vec<String>,
    /// Plies searched without finding a mate.
    pub plies: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
}

pub(crate) async fn mate(
    State(engines): State<Engines>,
    Input(req): Input<MateRequest>,
) -> ApiResult<MateView> {
    if !(1..=7).contains(&req.within) {
        return Err(ApiError::bad("mate length must be 1 to 7 moves"));
    }
    let (pos, _) = req.game.replay()?;
    let time = engines.think_time(req.ms);
    engines
        .run(move || {
            Ok(
                match xiangqi_endgame::engine::find_mate(&pos, 2 * req.within - 1, Some(time)) {
                    MateSearch::Mate { moves, line, nodes } => MateView {
                        result: "mate",
                        moves: Some(moves),
                        line: line.iter().map(Move::to_string).collect(),
                        plies: None,
                        nodes,
                    },
                    MateSearch::NoMate { plies, nodes } => MateView {
                        result: "none",
                        moves: None,
                        line: Vec::new(),
                        plies: Some(plies),
                        nodes,
                    },
                    MateSearch::Unknown { plies, nodes } => MateView {
                        result: "unknown",
                        moves: None,
                        line: Vec::new(),
                        plies: Some(plies),
                        nodes,
                    },
                },
            )
        })
        .await
}

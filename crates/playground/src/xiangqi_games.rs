//! Xiangqi game records on the xiangqi page: a PGN pasted or loaded (ICCS, WXF or Chinese
//! notation) read with the tool's own reader, one game's moves in ICCS and as players write
//! them, to step through on the board; and the engine's look over the game (each position's
//! value, mistakes and blunders with the better move and the engine's line, the evaluation as an
//! SVG graph) within the server's time.

use crate::api::{ApiError, ApiResult, Engines, Input};
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use xiangqi_endgame::engine::SearchConfig;
use xiangqi_endgame::interfaces::eval_graph;
use xiangqi_endgame::notation::pgn::{read_games, write_move, Game, Notation};
use xiangqi_endgame::search::analysis::{analyze, MoveAnalysis, Thresholds};

/// A game of a PGN text.
#[derive(Debug, Clone, Deserialize)]
pub struct GameRequest {
    /// The PGN text (any number of games).
    pub pgn: String,
    /// Which game, from 1.
    #[serde(default = "first")]
    pub game: usize,
}

fn first() -> usize {
    1
}

/// One game read.
#[derive(Debug, Clone, Serialize)]
pub struct GameRecord {
    /// Games in the text (read or rejected).
    pub games: usize,
    /// The text's rejected games, each with its number, line, move and reason.
    pub rejected: Vec<String>,
    /// The game's tags in the order read.
    pub tags: Vec<(String, String)>,
    /// Its start position (FEN).
    pub fen: String,
    /// Its moves in ICCS (`h2e2`), as the board plays them.
    pub moves: Vec<String>,
    /// The same moves in Chinese notation (`炮二平五`).
    pub chinese: Vec<String>,
    /// The result (`1-0`, `0-1`, `1/2-1/2`, `*`), if given.
    pub result: Option<String>,
}

/// The longest game looked over in one request (each position gets at least 5 ms, so the
/// whole look stays within a few seconds of the server's time).
const MAX_PLIES_ANALYSED: usize = 600;

/// The game `req.game` of `req.pgn`, or why there is none.
fn game_of(req: &GameRequest) -> Result<(Game, usize, Vec<String>), ApiError> {
    let all = read_games(&req.pgn);
    let rejected: Vec<String> = all
        .iter()
        .filter_map(|g| g.as_ref().err().map(|e| batch::shown(&e.to_string())))
        .collect();
    if all.is_empty() {
        return Err(ApiError::bad(
            "no game in this text: paste a PGN game (tags, then moves)",
        ));
    }
    let count = all.len();
    match all.into_iter().nth(req.game.max(1) - 1) {
        None => Err(ApiError::bad(format!(
            "game {}, but the text holds {count} game{}",
            req.game,
            if count == 1 { "" } else { "s" }
        ))),
        Some(Err(e)) => Err(ApiError::bad(batch::shown(&e.to_string()))),
        Some(Ok(g)) => Ok((g, count, rejected)),
    }
}

pub(crate) async fn read(Input(req): Input<GameRequest>) -> ApiResult<GameRecord> {
    let (game, games, rejected) = game_of(&req)?;
    let positions = game.positions();
    Ok(Json(GameRecord {
        games,
        rejected,
        fen: game.start.to_string(),
        moves: game.moves.iter().map(ToString::to_string).collect(),
        chinese: game
            .moves
            .iter()
            .zip(&positions)
            .map(|(&m, p)| write_move(p, m, Notation::Chinese))
            .collect(),
        result: game.result.clone(),
        tags: game.tags,
    }))
}

/// A game to look over.
#[derive(Debug, Clone, Deserialize)]
pub struct AnalyzeRequest {
    /// The game.
    #[serde(flatten)]
    pub game: GameRequest,
    /// Search time per position in milliseconds (the whole game within the server's time:
    /// less per position when it has many).
    #[serde(default = "default_ms")]
    pub ms: u64,
}

fn default_ms() -> u64 {
    100
}

/// The engine's look over a game.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// Each move: the values before and after it, the engine's move and line, what it cost,
    /// and the verdict (`Mistake`, `Blunder`) when there is one.
    pub moves: Vec<MoveAnalysis>,
    /// Milliseconds each position was searched.
    pub ms_per_position: u64,
    /// The evaluation over the game as an SVG graph.
    pub svg: String,
}

pub(crate) async fn look_over(
    State(engines): State<Engines>,
    Input(req): Input<AnalyzeRequest>,
) -> ApiResult<Analysis> {
    let (game, _, _) = game_of(&req.game)?;
    if game.moves.len() > MAX_PLIES_ANALYSED {
        return Err(ApiError::bad(format!(
            "the game has {} plies: at most {MAX_PLIES_ANALYSED} are looked over here",
            game.moves.len()
        )));
    }
    let positions = game.moves.len() as u64 + 1;
    let whole = engines.think_time(req.ms.saturating_mul(positions));
    let per = (whole.as_millis() as u64 / positions).clamp(5, 5_000);
    let title = match (game.tag("Red"), game.tag("Black")) {
        (Some(r), Some(b)) => format!("{r} – {b}"),
        _ => "the game".to_string(),
    };
    engines
        .run(move || {
            let config = SearchConfig {
                time: Some(Duration::from_millis(per)),
                ..SearchConfig::engine()
            };
            let moves = analyze(
                &game.start,
                &game.moves,
                &config,
                Thresholds::default(),
                &|| {},
            );
            let svg = eval_graph::render(&moves, &title);
            Ok(Analysis {
                moves,
                ms_per_position: per,
                svg,
            })
        })
        .await
}

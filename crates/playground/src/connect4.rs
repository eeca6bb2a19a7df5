//! The connect4 page's endpoints: a course board (M x N, 9..12 each, one forbidden cell) drawn
//! from a seed, a game on it shown cell by cell, the MCTS engine's move with the visits and win
//! rates of every column, and a finished game analysed (where it was decided).

use crate::api::{comma_list, ApiError, ApiResult, Engines, Input};
use axum::extract::{Query, State};
use axum::response::IntoResponse;
use axum::Json;
use connect4::analyze::{analyze, losing_move, Proof};
use connect4::engine::{ColumnVisits, Engine, EngineConfig, GameState, Watcher};
use connect4::Board;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// A game: the board's size, its forbidden cell, and the columns played (player 1 first).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Game {
    /// Rows, 9..=12.
    pub m: usize,
    /// Columns, 9..=12.
    pub n: usize,
    /// The forbidden cell's row (0 = top).
    pub no_x: usize,
    /// The forbidden cell's column.
    pub no_y: usize,
    /// Columns played, from 0.
    #[serde(default)]
    pub moves: Vec<usize>,
}

impl Game {
    /// The game reached; fails on a bad board or a move into a full column or after the end.
    pub fn replay(&self) -> Result<GameState, ApiError> {
        if !(9..=12).contains(&self.m) || !(9..=12).contains(&self.n) {
            return Err(ApiError::bad(format!(
                "a {}x{} board: the course's boards have 9 to 12 rows and columns",
                self.m, self.n
            )));
        }
        if self.no_x >= self.m || self.no_y >= self.n {
            return Err(ApiError::bad(format!(
                "the forbidden cell ({}, {}) is off the {}x{} board",
                self.no_x, self.no_y, self.m, self.n
            )));
        }
        let mut g = GameState::new(Board::new(self.m, self.n, self.no_x, self.no_y), 1);
        for (i, &y) in self.moves.iter().enumerate() {
            if g.result.is_some() {
                return Err(ApiError::bad(format!("move {} comes after the end", i + 1)));
            }
            if y >= self.n || !g.board.can_play(y) {
                return Err(ApiError::bad(format!(
                    "move {}: column {y} is full or off the board",
                    i + 1
                )));
            }
            g.play(y);
        }
        Ok(g)
    }
}

/// A game as the page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The game itself (board and moves).
    pub game: Game,
    /// Rows top first: 0 empty, 1 or 2 a player's stone, 3 the forbidden cell.
    pub cells: Vec<Vec<u8>>,
    /// Player to move, 1 or 2.
    pub to_move: u8,
    /// Columns with room (none once the game is over).
    pub legal: Vec<usize>,
    /// `1 wins`, `2 wins` or `a draw` once over.
    pub over: Option<String>,
}

/// The page's view of `game`.
pub fn view(game: &Game) -> Result<View, ApiError> {
    let g = game.replay()?;
    let b = &g.board;
    let cells = (0..b.m)
        .map(|x| {
            (0..b.n)
                .map(|y| {
                    if (x, y) == (b.no_x, b.no_y) {
                        3
                    } else {
                        b.at(x, y)
                    }
                })
                .collect()
        })
        .collect();
    Ok(View {
        game: game.clone(),
        cells,
        to_move: g.to_move,
        legal: match g.result {
            None => (0..b.n).filter(|&y| b.can_play(y)).collect(),
            Some(_) => Vec::new(),
        },
        over: g.result.map(|w| match w {
            0 => "a draw".to_string(),
            w => format!("{w} wins"),
        }),
    })
}

/// A new board request.
#[derive(Debug, Clone, Deserialize)]
pub struct NewBoard {
    /// Seed of the board's size and forbidden cell.
    #[serde(default)]
    pub seed: u64,
}

pub(crate) async fn new_board(Input(req): Input<NewBoard>) -> ApiResult<View> {
    let mut rng = search_core::SmallRng::seed_from_u64(req.seed);
    let b = connect4::compete::random_board(&mut rng, None);
    let game = Game {
        m: b.m,
        n: b.n,
        no_x: b.no_x,
        no_y: b.no_y,
        moves: Vec::new(),
    };
    Ok(Json(view(&game)?))
}

pub(crate) async fn state(Input(game): Input<Game>) -> ApiResult<View> {
    Ok(Json(view(&game)?))
}

/// A move request: the game and the engine's time.
#[derive(Debug, Clone, Deserialize)]
pub struct MoveRequest {
    /// The game.
    #[serde(flatten)]
    pub game: Game,
    /// Thinking time, ms.
    #[serde(default = "default_ms")]
    pub ms: u64,
    /// Seed of the engine's random choices.
    #[serde(default)]
    pub seed: u64,
}

fn default_ms() -> u64 {
    500
}

/// The engine's move and its search.
#[derive(Debug, Clone, Serialize)]
pub struct Engined {
    /// The column played.
    pub column: usize,
    /// Every column's visits and win rate (empty when the move was forced).
    pub columns: Vec<ColumnVisits>,
    /// The game after the move.
    pub view: View,
}

/// The engine's tree holds at most this many nodes on the server (about 80 MB; the tools'
/// default of 4 M is 300 MB, too much for every engine of a pool at once): past it the search
/// goes on without growing the tree.
pub const MAX_TREE_NODES: usize = 1_000_000;

/// The engine's move in `game` (not over), thinking `time`; `watcher` is told the columns as
/// the search goes.
fn engine_answer(
    mut game: Game,
    time: std::time::Duration,
    seed: u64,
    watcher: Option<Watcher>,
) -> Result<Engined, ApiError> {
    let state = game.replay()?;
    let mut engine = Engine::new(EngineConfig {
        time,
        seed,
        max_nodes: MAX_TREE_NODES,
        ..EngineConfig::default()
    });
    engine.watch(watcher);
    let column = engine.choose(&state);
    game.moves.push(column);
    Ok(Engined {
        column,
        columns: engine.last_root().to_vec(),
        view: view(&game)?,
    })
}

/// `game` checked: a game that is still going on.
fn going_on(game: &Game) -> Result<(), ApiError> {
    match game.replay()?.result {
        Some(_) => Err(ApiError::bad("the game is over")),
        None => Ok(()),
    }
}

pub(crate) async fn engine_move(
    State(engines): State<Engines>,
    Input(req): Input<MoveRequest>,
) -> ApiResult<Engined> {
    going_on(&req.game)?;
    let time = engines.think_time(req.ms);
    engines
        .run(move || engine_answer(req.game, time, req.seed, None))
        .await
}

/// The query of a streamed engine move: the game as in [`Game`] with the moves comma-separated,
/// the thinking time and the seed.
#[derive(Debug, Clone, Deserialize)]
pub struct ThinkQuery {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// The forbidden cell's row.
    pub no_x: usize,
    /// The forbidden cell's column.
    pub no_y: usize,
    /// Columns played, comma-separated.
    #[serde(default)]
    pub moves: String,
    /// Thinking time, ms.
    #[serde(default = "default_ms")]
    pub ms: u64,
    /// Seed of the engine's random choices.
    #[serde(default)]
    pub seed: u64,
}

/// The engine's move streamed: `visits` events (every column's visits and win rate) as the
/// search goes, then a `move` event ([`Engined`]), or a `failed` event with the message.
pub(crate) async fn think(
    State(engines): State<Engines>,
    Query(q): Query<ThinkQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let moves = comma_list(&q.moves)
        .iter()
        .map(|m| {
            m.parse()
                .map_err(|_| ApiError::bad(format!("`{}` is not a column", batch::shown(m))))
        })
        .collect::<Result<Vec<usize>, ApiError>>()?;
    let game = Game {
        m: q.m,
        n: q.n,
        no_x: q.no_x,
        no_y: q.no_y,
        moves,
    };
    going_on(&game)?;
    let time = engines.think_time(q.ms);
    engines
        .stream(move |report| {
            let sender = report.clone();
            // A page that has gone stops the search.
            let watcher: Watcher = Box::new(move |columns| sender.send("visits", &columns));
            match engine_answer(game, time, q.seed, Some(watcher)) {
                Ok(answer) => report.send("move", &answer),
                Err(e) => report.send("failed", &e.message),
            };
        })
        .await
}

/// One position of an analysed game.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// Moves played before it.
    pub ply: usize,
    /// What is proven there, in words.
    pub proof: String,
}

/// A game analysed move by move.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// Every position from the start.
    pub verdicts: Vec<Verdict>,
    /// The move (index in the game's moves) after which the winner was proven to win.
    pub losing_move: Option<usize>,
}

fn words(p: Proof) -> String {
    match p {
        Proof::Win { winner, plies } => format!("{winner} wins in {plies} plies"),
        Proof::WinBeyond { winner, searched } => {
            format!("{winner} wins (beyond {searched} plies)")
        }
        Proof::Draw => "a draw".into(),
        Proof::Open { searched } => format!("open ({searched} plies searched)"),
        Proof::Over { winner: Some(w) } => format!("over: {w} won"),
        Proof::Over { winner: None } => "over: a draw".into(),
    }
}

pub(crate) async fn analyse(
    State(engines): State<Engines>,
    Input(game): Input<Game>,
) -> ApiResult<Analysis> {
    game.replay()?;
    let start = GameState::new(Board::new(game.m, game.n, game.no_x, game.no_y), 1);
    // The whole analysis within the thinking limit.
    let per = engines.limits.max_think / (game.moves.len() as u32 + 1);
    engines
        .run(move || {
            let verdicts = analyze(&start, &game.moves, 0, per).map_err(ApiError::bad)?;
            Ok(Analysis {
                losing_move: losing_move(&verdicts),
                verdicts: verdicts
                    .iter()
                    .map(|v| Verdict {
                        ply: v.ply,
                        proof: words(v.proof),
                    })
                    .collect(),
            })
        })
        .await
}

//! The othello page's opening book: a book `othello book build` made from expert games
//! (WTHOR, Logistello's), loaded once when the server starts (`--othello-book FILE`), and each
//! position's book moves with their games, score, mean result and backed-up value.

use crate::api::{ApiResult, Input};
use crate::othello::Game;
use axum::Json;
use serde::Serialize;
use std::path::Path;
use std::sync::OnceLock;

use othello::search::book::Book;

/// The book the server was started with, if any.
static BOOK: OnceLock<Book> = OnceLock::new();

/// Loads the book at `path` for every page (once per process): the number of positions it
/// holds, or why it cannot be read.
pub fn load_book(path: &Path) -> Result<usize, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let book = Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let n = book.nodes.len();
    BOOK.set(book)
        .map_err(|_| "an opening book is loaded already".to_string())?;
    Ok(n)
}

/// A book move as the page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct BookEntry {
    /// The move (`f5`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Games through it.
    pub games: u32,
    /// The mover's score in them (wins and half the draws, per game).
    pub score: f64,
    /// The mover's mean final disc difference in them.
    pub mean_diff: f64,
    /// Its value for the mover in discs (the engine's search at the book's leaves, backed up).
    pub value: f64,
}

/// What the book says of a position.
#[derive(Debug, Clone, Serialize)]
pub struct BookAnswer {
    /// Whether the server has a book.
    pub loaded: bool,
    /// How the book was made (its games and settings).
    pub made_with: Option<String>,
    /// The position's book moves, best value first (empty when it is not in the book).
    pub moves: Vec<BookEntry>,
}

pub(crate) async fn book_moves(Input(game): Input<Game>) -> ApiResult<BookAnswer> {
    let p = game.replay()?;
    let Some(book) = BOOK.get() else {
        return Ok(Json(BookAnswer {
            loaded: false,
            made_with: None,
            moves: Vec::new(),
        }));
    };
    // Best value first, as the book gives them.
    let moves = book.moves(&p);
    Ok(Json(BookAnswer {
        loaded: true,
        made_with: Some(book.made_with.clone()),
        moves: moves
            .iter()
            .map(|m| BookEntry {
                mv: m.mv.to_string(),
                games: m.node.games,
                score: m.score,
                mean_diff: m.mean_diff,
                value: m.value,
            })
            .collect(),
    }))
}

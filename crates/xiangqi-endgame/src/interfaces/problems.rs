//! A problem collection run through the engine: each position searched as the engine plays
//! (`go movetime`), with the move it chooses, whether it reports a forced mate and how soon.
//! Collections come as text (`FEN` per line, optionally `; mate in K` and more after it: the
//! format of `generate`) or as a JSON array of objects with a `fen` and an optional `name`, the
//! way puzzle sites and GUIs export them, so students and teachers can test the engine on
//! classic problems of their own.

use crate::board::square::Move;
use crate::rules::position::Position;
use crate::rules::repetition::GameLine;
use crate::search::engine::own_move;
use batch::InputError;
use search_core::{mate_distance, Score};
use std::time::{Duration, Instant};

/// One problem of a collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Its name: the collection's, or `line N` / `entry N`.
    pub name: String,
    /// The position.
    pub position: Position,
    /// The known length of its mate in moves of the side to move, when the collection says.
    pub mate_in: Option<u32>,
}

/// Reads a collection, text or JSON (see the module header). Each entry that cannot be read is
/// an error with its line; the others are still returned.
///
/// ```
/// use xiangqi_endgame::problems::parse_collection;
/// let text = "# two problems\n3k5/9/9/9/9/9/9/9/4R4/4K4 w ; mate in 1\nnot a fen\n";
/// let (problems, errors) = parse_collection(text);
/// assert_eq!(problems.len(), 1);
/// assert_eq!(problems[0].mate_in, Some(1));
/// assert_eq!(errors[0].line, 3);
/// let json = r#"[{"fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "name": "rook"}]"#;
/// assert_eq!(parse_collection(json).0[0].name, "rook");
/// ```
pub fn parse_collection(text: &str) -> (Vec<Problem>, Vec<InputError>) {
    if text.trim_start().starts_with('[') {
        return parse_json(text);
    }
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    for (line, fen, mate_in) in crate::search::mates::problem_fields(text) {
        let mate_in = match mate_in {
            Ok(k) => k,
            Err(e) => {
                errors.push(InputError::at(line, e));
                continue;
            }
        };
        match fen.parse::<Position>() {
            Ok(position) => problems.push(Problem {
                name: format!("line {line}"),
                position,
                mate_in,
            }),
            Err(e) => errors.push(InputError::at(line, format!("FEN: {}", e.message))),
        }
    }
    (problems, errors)
}

fn parse_json(text: &str) -> (Vec<Problem>, Vec<InputError>) {
    let entries: Vec<serde_json::Value> = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (Vec::new(), vec![InputError::at(e.line(), e.to_string())]),
    };
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    for (k, entry) in entries.iter().enumerate() {
        let fen = match entry.get("fen") {
            Some(serde_json::Value::String(fen)) => fen.as_str(),
            Some(other) => {
                let message = format!("entry {}: `fen` is {other}, not a string", k + 1);
                errors.push(InputError::at(0, message));
                continue;
            }
            None => {
                errors.push(InputError::at(0, format!("entry {}: no `fen`", k + 1)));
                continue;
            }
        };
        // The entry's line, for messages: where its FEN first appears.
        let line = text
            .find(fen)
            .map_or(0, |at| text[..at].matches('\n').count() + 1);
        let name = entry
            .get("name")
            .and_then(|n| n.as_str())
            .map_or_else(|| format!("entry {}", k + 1), String::from);
        match fen.parse::<Position>() {
            Ok(position) => problems.push(Problem {
                name,
                position,
                mate_in: None,
            }),
            Err(e) => errors.push(InputError::at(line, format!("{name}: FEN: {}", e.message))),
        }
    }
    (problems, errors)
}

/// What the engine made of one problem.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Attempt {
    /// The move it chose (`None`: no legal move).
    pub best: Option<String>,
    /// The forced mate it reported at the end, in moves of the side to move.
    pub mate_in: Option<u32>,
    /// When it first reported a mate for the side to move, in milliseconds.
    pub first_mate_ms: Option<u64>,
    /// Its final score (centipawns, or a mate score).
    pub score: Score,
    /// Deepest iteration completed (for a mate proven by the proof-number step, its plies).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The engine's own search on `pos` at `move_time`, with a fresh table (as after `ucinewgame`).
pub fn attempt(pos: &Position, move_time: Duration) -> Attempt {
    let started = Instant::now();
    let mut first_mate_ms = None;
    let d = own_move(pos, GameLine::new(pos), move_time, None, |r| {
        let mate = r.score > 0 && mate_distance(r.score).is_some();
        if mate && first_mate_ms.is_none() {
            first_mate_ms = Some(started.elapsed().as_millis() as u64);
        }
    });
    Attempt {
        best: d.mv.map(|m: Move| m.to_string()),
        mate_in: d.mate_in,
        first_mate_ms: d.mate_in.and(first_mate_ms),
        score: d.score,
        depth: d.stats.depth,
        nodes: d.stats.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_name_the_entry_and_its_line() {
        let json = "[\n {\"fen\": \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\"},\n {\"fen\": \"9/9 w\"},\n {\"name\": \"x\"}\n]";
        let (problems, errors) = parse_collection(json);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].name, "entry 1");
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].line, 3);
        assert!(
            errors[0].message.starts_with("entry 2: FEN"),
            "{}",
            errors[0]
        );
        assert_eq!(errors[1].message, "entry 3: no `fen`");
        let (_, errors) = parse_collection("[{\"fen\": ");
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn the_engine_reports_a_mate_in_one_at_once() {
        let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
        let a = attempt(&p, Duration::from_millis(200));
        assert_eq!(a.mate_in, Some(1));
        assert!(a.first_mate_ms.is_some());
        assert!(matches!(a.best.as_deref(), Some("e1e8" | "e1d1")));
    }
}

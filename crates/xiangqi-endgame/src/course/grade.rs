//! Checking answers: an answer file names one move (`R (1,8) (4,8)`); it is correct when it
//! keeps the best result the position offers at the grading depth (the same mate distance, or
//! the same score), not only when it is the move this tool would print: endgames often have
//! two mates of the same length. Every legal move is valued by the same search from the
//! position after it, so the verdict does not depend on move order.

use crate::board::piece::Color;
use crate::board::square::{Move, Square};
use crate::course::course_io::YOrigin;
use crate::rules::movegen::legal_moves;
use crate::rules::position::Position;
use crate::search::config::SearchConfig;
use crate::search::engine::decide;
use batch::grade::Verdict;
use search_core::{mate_distance, Score};

/// A board prepared for grading: the position and every legal move's value.
pub type Board = (Position, Vec<(Move, Score)>);

/// Every legal move of the side to move with its value for that side: the negated score of
/// the search (`config`, one ply less) from the position after it.
pub fn move_values(pos: &Position, config: &SearchConfig) -> Vec<(Move, Score)> {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    let child_config = SearchConfig {
        depth: config.depth.saturating_sub(1).max(1),
        time: None,
        ..*config
    };
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.make(m);
            let mut replies = Vec::new();
            legal_moves(&child, &mut replies);
            // No legal reply loses (the rules' stalemate = loss): a mate in one.
            let value = if replies.is_empty() {
                search_core::WIN - 1
            } else {
                let v = -decide(&child, &child_config, |_| {}).score;
                // A mate counted from the child is one ply further from the root.
                match mate_distance(v) {
                    Some(_) => v - v.signum(),
                    None => v,
                }
            };
            (m, value)
        })
        .collect()
}

/// A value in words: `mate in 3`, `mated in 2`, or centipawns.
pub fn describe(value: Score) -> String {
    match mate_distance(value) {
        Some(plies) if value > 0 => format!("mate in {}", plies.div_ceil(2)),
        Some(plies) => format!("mated in {}", plies.div_ceil(2)),
        None => format!("score {value}"),
    }
}

/// Reads an answer line (`R (1,8) (4,8)`: the piece's letter, origin and destination as
/// `(x,y)`) into a legal move of `pos`, or says what is wrong with it.
///
/// ```
/// use xiangqi_endgame::{course_io::YOrigin, grade::parse_answer, Position};
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// assert_eq!(parse_answer(&p, "R (4,1) (4,8)\n", YOrigin::Bottom).unwrap().to_string(), "e1e8");
/// assert!(parse_answer(&p, "R (4,1) (5,2)", YOrigin::Bottom).unwrap_err().contains("not a legal move"));
/// assert!(parse_answer(&p, "K (4,1) (4,8)", YOrigin::Bottom).unwrap_err().contains("holds R"));
/// ```
pub fn parse_answer(pos: &Position, text: &str, origin: YOrigin) -> Result<Move, String> {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let unreadable = || format!("`{line}` is not an answer like `R (1,8) (4,8)`");
    let mut chars = line.chars();
    let letter = chars.next().ok_or("empty answer file")?;
    if !"KABNRCP".contains(letter) {
        if letter.is_alphabetic() {
            return Err(format!(
                "`{letter}` is not a red piece's letter (K A B N R C P)"
            ));
        }
        return Err(unreadable());
    }
    let numbers = parse_coordinates(chars.as_str()).ok_or_else(unreadable)?;
    let square = |x: usize, y: usize| -> Result<Square, String> {
        if x > 8 || y > 9 {
            return Err(format!("({x},{y}) is off the board"));
        }
        let row = match origin {
            YOrigin::Bottom => 9 - y,
            YOrigin::Top => y,
        };
        Ok(Square::new(row, x))
    };
    let from = square(numbers[0], numbers[1])?;
    let to = square(numbers[2], numbers[3])?;
    match pos.at(from) {
        Some(p) if p.color == Color::Red && p.letter() == letter => {}
        Some(p) => {
            return Err(format!(
                "({},{}) holds {}, not {letter}",
                numbers[0],
                numbers[1],
                p.letter()
            ))
        }
        None => return Err(format!("({},{}) is empty", numbers[0], numbers[1])),
    }
    let mv = Move { from, to };
    let mut legal = Vec::new();
    legal_moves(pos, &mut legal);
    if !legal.contains(&mv) {
        return Err(format!("{} is not a legal move here", line));
    }
    Ok(mv)
}

/// The four numbers of `(x1,y1) (x2,y2)` (spaces allowed around each part), or `None` for
/// anything else: a sign, a letter, a missing or extra number or parenthesis.
fn parse_coordinates(text: &str) -> Option<[usize; 4]> {
    let mut numbers = [0; 4];
    let mut rest = text.trim_start();
    for pair in numbers.chunks_mut(2) {
        rest = rest.strip_prefix('(')?;
        let (inside, after) = rest.split_once(')')?;
        let (x, y) = inside.split_once(',')?;
        for (slot, word) in pair.iter_mut().zip([x, y]) {
            let word = word.trim();
            if word.is_empty() || word.len() > 2 || !word.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            *slot = word.parse().ok()?;
        }
        rest = after.trim_start();
    }
    rest.is_empty().then_some(numbers)
}

/// The verdict on an answer given the position's move values ([`move_values`]): `ok` for any
/// move of the best value, `wrong` for a legal move that keeps less, `invalid` for an answer
/// that cannot be read or is not a legal move.
pub fn judge(
    pos: &Position,
    values: &[(Move, Score)],
    text: &str,
    origin: YOrigin,
) -> (Verdict, String) {
    let mv = match parse_answer(pos, text, origin) {
        Ok(mv) => mv,
        Err(e) => return (Verdict::Invalid, e),
    };
    let Some(best) = values.iter().map(|v| v.1).max() else {
        return (Verdict::Invalid, "red has no legal move".into());
    };
    let mine = values
        .iter()
        .find(|v| v.0 == mv)
        .map_or(Score::MIN, |v| v.1);
    let equally_good = values.iter().filter(|v| v.1 == best).count();
    if mine == best {
        (
            Verdict::Ok,
            format!(
                "ok: {mv} keeps the best result, {} ({})",
                describe(best),
                if equally_good == 1 {
                    "the only such move".to_string()
                } else {
                    format!("one of {equally_good} such moves")
                }
            ),
        )
    } else {
        (
            Verdict::Wrong,
            format!(
                "{mv} gives {}, the best is {}",
                describe(mine),
                describe(best)
            ),
        )
    }
}

//! Logistello's game book (Michael Buro's `logbook.gam`): one game a line, each move with its
//! mover's sign (`+` black, `-` white; a pass shows as the same sign twice), then a colon,
//! black's final disc difference and a last field that is always 10:
//! `+d3-c3+c4-e3…: -04 10`.

use crate::formats::record::GameRecord;
use crate::rules::position::{Color, Move};

/// Reads one line. Errors name the move at fault (from 1) where one is.
pub fn read_line(line: &str) -> Result<GameRecord, (Option<usize>, String)> {
    let (moves, result) = line
        .split_once(':')
        .ok_or_else(|| (None, "no `:` before the result".to_string()))?;
    let moves = moves.trim();
    let mut squares = Vec::with_capacity(60);
    let mut movers = Vec::with_capacity(60);
    let bytes = moves.as_bytes();
    if !moves.is_ascii() || bytes.len() % 3 != 0 {
        return Err((None, "moves are not written like +d3-c3".into()));
    }
    for (i, m) in bytes.chunks(3).enumerate() {
        let ply = Some(i + 1);
        let color = match m[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err((ply, format!("`{}` has no + or - sign", as_text(m)))),
        };
        match as_text(&m[1..]).parse::<Move>() {
            Ok(Move::Square(s)) => squares.push(s),
            _ => return Err((ply, format!("`{}` is not a square", as_text(&m[1..])))),
        }
        movers.push(color);
        if squares.len() > 60 {
            return Err((ply, "more than 60 moves".into()));
        }
    }
    let mut fields = result.split_whitespace();
    let diff: i32 = fields
        .next()
        .and_then(|f| f.parse().ok())
        .filter(|d: &i32| (-64..=64).contains(d))
        .ok_or_else(|| {
            (
                None,
                format!(
                    "`{}` is not black's disc difference (-64..64)",
                    batch::shown(result.trim())
                ),
            )
        })?;
    Ok(GameRecord {
        squares,
        movers: Some(movers),
        black_diff: diff,
        ..GameRecord::default()
    })
}

fn as_text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("?")
}

/// Writes a replayed game as a line of this form.
pub fn write_line(replay: &crate::formats::record::Replay) -> String {
    let mut out = String::with_capacity(200);
    for (p, mv) in replay.choices() {
        out.push(if p.side == Color::Black { '+' } else { '-' });
        out.push_str(&mv.to_string());
    }
    out.push_str(&format!(": {:+03} 10", replay.black_diff));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_replays_and_writes_back() {
        let line = "+e6-f4+e3-f6+g5-d6+e7-f5+c5: +64 10";
        let g = read_line(line).unwrap();
        let replay = g.replay().unwrap();
        assert_eq!(replay.black_diff, 64);
        assert_eq!(write_line(&replay), line);
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(read_line("+d3-c3 -04 10").unwrap_err().1.contains(":"));
        assert_eq!(read_line("+d3*c3: -04 10").unwrap_err().0, Some(2));
        assert_eq!(read_line("+d3-z9: -04 10").unwrap_err().0, Some(2));
        assert!(read_line("+d3-c3: x 10")
            .unwrap_err()
            .1
            .contains("disc difference"));
        // Signs that contradict the rules are caught on replay.
        let g = read_line("+d3+c3: +00 10").unwrap();
        assert_eq!(g.replay().unwrap_err().0, Some(2));
    }
}

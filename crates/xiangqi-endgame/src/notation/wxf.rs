//! WXF notation (the World Xiangqi Federation's), the Latin-letter form of Chinese notation:
//! the piece (K king, A advisor, E or B elephant, H or N horse, R chariot, C cannon, P pawn),
//! its file 1..9 from the mover's right, the direction (`+` forward, `-` back, `.` or `=`
//! sideways) and the file it goes to or the ranks it moves: `C2.5`, `H8+7`. Two pieces of a
//! kind on one file are `+` (front) and `-` (rear) in the file's place (`R+.4`); three or more
//! are `a`, `b`, `c`… from the front (`Pb.4`), and pawns in tandem on two files add the file
//! first (`P7a+1`). Letters read in either case.

use crate::board::piece::Kind;
use crate::board::square::Move;
use crate::notation::descriptive::{describe, resolve, Action, Descriptive, Which};
use crate::rules::position::Position;

fn kind_of(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => Kind::King,
        'A' => Kind::Advisor,
        'E' | 'B' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Chariot,
        'C' => Kind::Cannon,
        'P' => Kind::Pawn,
        _ => return None,
    })
}

fn letter_of(kind: Kind) -> char {
    ['K', 'A', 'E', 'H', 'R', 'C', 'P'][kind as usize]
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}

/// A place marker: `+` front, `-` rear (of two), `a`.. counted from the front.
fn place(c: char) -> Option<(u8, u8)> {
    match c {
        '+' => Some((1, 2)),
        '-' => Some((2, 2)),
        'a'..='e' => Some((c as u8 - b'a' + 1, 5)),
        _ => None,
    }
}

/// Reads a move in WXF into its description (checked against no position yet).
pub fn parse(text: &str) -> Result<Descriptive, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let bad = || {
        format!(
            "`{}` is not a move in WXF (like C2.5)",
            batch::shown(text.trim())
        )
    };
    let (kind, which, a, d) = match chars.as_slice() {
        // The place first, then the piece (`+R.4`).
        [w, p, a, d] if place(*w).is_some() && kind_of(*p).is_some() => {
            let (n, of) = place(*w).ok_or_else(bad)?;
            (
                kind_of(*p).ok_or_else(bad)?,
                Which::Tandem { n, of, file: None },
                *a,
                *d,
            )
        }
        [p, w, a, d] => {
            let kind = kind_of(*p).ok_or_else(bad)?;
            let which = match (digit(*w), place(*w)) {
                (Some(f), _) => Which::File(f),
                (None, Some((n, of))) => Which::Tandem { n, of, file: None },
                _ => return Err(bad()),
            };
            (kind, which, *a, *d)
        }
        [p, f, w, a, d] => {
            let (n, of) = place(*w).ok_or_else(bad)?;
            (
                kind_of(*p).ok_or_else(bad)?,
                Which::Tandem {
                    n,
                    of,
                    file: Some(digit(*f).ok_or_else(bad)?),
                },
                *a,
                *d,
            )
        }
        _ => return Err(bad()),
    };
    let action = match a {
        '+' => Action::Advance,
        '-' => Action::Retreat,
        '.' | '=' => Action::Traverse,
        _ => return Err(bad()),
    };
    Ok(Descriptive {
        kind,
        which,
        action,
        number: digit(d).ok_or_else(bad)?,
    })
}

/// The legal move `text` names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    resolve(pos, &parse(text)?).map_err(|e| format!("{}: {e}", text.trim()))
}

/// `mv` (legal in `pos`) in WXF.
///
/// ```
/// use xiangqi_endgame::notation::wxf::write;
/// use xiangqi_endgame::{Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// assert_eq!(write(&p, "h2e2".parse().unwrap()).unwrap(), "C2.5");
/// ```
pub fn write(pos: &Position, mv: Move) -> Option<String> {
    let d = describe(pos, mv)?;
    let mut out = String::with_capacity(5);
    out.push(letter_of(d.kind));
    match d.which {
        Which::File(f) => out.push((b'0' + f) as char),
        Which::Tandem { n, of, file } => {
            if let Some(f) = file {
                out.push((b'0' + f) as char);
            }
            out.push(match (n, of, file) {
                (1, 2, None) => '+',
                (2, 2, None) => '-',
                (n, _, _) => (b'a' + n - 1) as char,
            });
        }
    }
    out.push(match d.action {
        Action::Advance => '+',
        Action::Retreat => '-',
        Action::Traverse => '.',
    });
    out.push((b'0' + d.number) as char);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_round_trip_and_read_in_either_case() {
        for (fen, iccs, text) in [
            (crate::rules::fen::START_FEN, "h2e2", "C2.5"),
            (crate::rules::fen::START_FEN, "b0c2", "H8+7"),
            ("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w", "e5d5", "R+.6"),
            ("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w", "e2e1", "R--1"),
            ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e6d6", "Pb.6"),
            ("3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w", "c7c8", "P7a+1"),
        ] {
            let p: Position = fen.parse().unwrap();
            let m: Move = iccs.parse().unwrap();
            assert_eq!(write(&p, m).as_deref(), Some(text), "{fen} {iccs}");
            assert_eq!(parse_move(&p, text), Ok(m), "{text}");
            assert_eq!(parse_move(&p, &text.to_ascii_lowercase()), Ok(m), "{text}");
        }
        let p: Position = "3k5/9/9/9/4R4/9/9/4R4/9/5K3 w".parse().unwrap();
        assert_eq!(parse_move(&p, "+R.6"), Ok("e5d5".parse().unwrap()));
        assert_eq!(parse_move(&p, "R+=6"), Ok("e5d5".parse().unwrap()));
    }

    #[test]
    fn bad_text_says_so() {
        let p: Position = crate::rules::fen::START_FEN.parse().unwrap();
        assert!(parse_move(&p, "X2.5").unwrap_err().contains("not a move"));
        assert!(parse_move(&p, "C2*5").unwrap_err().contains("not a move"));
        assert!(parse_move(&p, "R1+5")
            .unwrap_err()
            .contains("no legal move"));
    }
}

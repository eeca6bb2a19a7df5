//! Chinese notation, as players write moves: `炮二平五` (red: Chinese numerals), `馬８進７`
//! (black: full-width digits), four characters: the piece, its file, the direction (進 or 进
//! forward, 退 back, 平 sideways) and the file it goes to or the ranks it moves. Read in
//! traditional or simplified characters, with ASCII or full-width digits for either side; two
//! or three pieces of a kind on one file are told apart by 前 (front), 中 (middle), 後 or 后
//! (rear) before the piece (`前炮進一`), more pawns by 一 to 五 counted from the front
//! (`二兵平四`); pawns in tandem on two files name the file instead of the piece (`前七進一`).
//! Written in traditional characters, red's pieces 帥仕相馬車炮兵 and black's 將士象馬車炮卒,
//! as the master-game collections write them ([`Script::Simplified`] for 帅仕相马车炮兵 /
//! 将士象马车炮卒).

use crate::board::piece::{Color, Kind};
use crate::board::square::Move;
use crate::notation::descriptive::{describe, resolve, Action, Descriptive, Which};
use crate::rules::position::Position;

/// The characters moves are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Script {
    /// 帥仕相馬車炮兵 / 將士象馬車炮卒, 進.
    #[default]
    Traditional,
    /// 帅仕相马车炮兵 / 将士象马车炮卒, 进.
    Simplified,
}

/// The piece a character names, if it names one.
fn kind_of(c: char) -> Option<Kind> {
    Some(match c {
        '帥' | '帅' | '將' | '将' => Kind::King,
        '仕' | '士' => Kind::Advisor,
        '相' | '象' => Kind::Elephant,
        '馬' | '马' | '傌' | '瑪' => Kind::Horse,
        '車' | '车' | '俥' | '伡' => Kind::Chariot,
        '炮' | '砲' | '包' => Kind::Cannon,
        '兵' | '卒' => Kind::Pawn,
        _ => return None,
    })
}

/// The number a character names: Chinese numerals, ASCII and full-width digits, 1 to 9.
fn number_of(c: char) -> Option<u8> {
    const CHINESE: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    if let Some(i) = CHINESE.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        _ => None,
    }
}

fn action_of(c: char) -> Option<Action> {
    match c {
        '進' | '进' => Some(Action::Advance),
        '退' => Some(Action::Retreat),
        '平' => Some(Action::Traverse),
        _ => None,
    }
}

/// Front, middle or rear as a place among `of` pieces (the count is known only once read
/// against a position: `of` here is 2 for 前/後, 3 for 中).
fn place_of(c: char) -> Option<(u8, u8)> {
    match c {
        '前' => Some((1, 2)),
        '中' => Some((2, 3)),
        '後' | '后' => Some((2, 2)),
        _ => None,
    }
}

/// Reads a move in Chinese notation into its description (checked against no position yet).
pub fn parse(text: &str) -> Result<Descriptive, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let bad = || {
        format!(
            "`{}` is not a move in Chinese notation",
            batch::shown(text.trim())
        )
    };
    let (kind, which, rest) = match chars.as_slice() {
        // 炮二平五: piece, file.
        [p, f, rest @ ..] if kind_of(*p).is_some() && number_of(*f).is_some() => (
            kind_of(*p).ok_or_else(bad)?,
            Which::File(number_of(*f).ok_or_else(bad)?),
            rest,
        ),
        // 前炮進一, 中兵平四, 後車退二: place, piece.
        [o, p, rest @ ..] if place_of(*o).is_some() && kind_of(*p).is_some() => {
            let (n, of) = place_of(*o).ok_or_else(bad)?;
            (
                kind_of(*p).ok_or_else(bad)?,
                Which::Tandem { n, of, file: None },
                rest,
            )
        }
        // 二兵平四: pawns counted from the front.
        [o, p, rest @ ..]
            if number_of(*o).is_some_and(|n| n <= 5) && kind_of(*p) == Some(Kind::Pawn) =>
        {
            (
                Kind::Pawn,
                Which::Tandem {
                    n: number_of(*o).ok_or_else(bad)?,
                    of: 5,
                    file: None,
                },
                rest,
            )
        }
        // 前七進一: pawns in tandem on two files, the file instead of the piece.
        [o, f, rest @ ..] if place_of(*o).is_some() && number_of(*f).is_some() => {
            let (n, of) = place_of(*o).ok_or_else(bad)?;
            (
                Kind::Pawn,
                Which::Tandem {
                    n,
                    of,
                    file: number_of(*f),
                },
                rest,
            )
        }
        _ => return Err(bad()),
    };
    let [a, d] = rest else {
        return Err(bad());
    };
    Ok(Descriptive {
        kind,
        which,
        action: action_of(*a).ok_or_else(bad)?,
        number: number_of(*d).ok_or_else(bad)?,
    })
}

/// The legal move `text` names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    resolve(pos, &parse(text)?).map_err(|e| format!("{}: {e}", text.trim()))
}

/// `mv` (legal in `pos`) in Chinese notation.
///
/// ```
/// use xiangqi_endgame::notation::chinese::{write, Script};
/// use xiangqi_endgame::{Position, START_FEN};
/// let mut p: Position = START_FEN.parse().unwrap();
/// assert_eq!(write(&p, "h2e2".parse().unwrap(), Script::Traditional).unwrap(), "炮二平五");
/// p.make("h2e2".parse().unwrap());
/// assert_eq!(write(&p, "h9g7".parse().unwrap(), Script::Simplified).unwrap(), "马８进７");
/// ```
pub fn write(pos: &Position, mv: Move, script: Script) -> Option<String> {
    let d = describe(pos, mv)?;
    let color = pos.side();
    let simplified = script == Script::Simplified;
    let piece = piece_char(color, d.kind, simplified);
    let number = |n: u8| match color {
        Color::Red => ['一', '二', '三', '四', '五', '六', '七', '八', '九'][n as usize - 1],
        Color::Black => char::from_u32('１' as u32 + u32::from(n) - 1).unwrap_or('?'),
    };
    let rear = if simplified { '后' } else { '後' };
    let mut out = String::with_capacity(12);
    match d.which {
        Which::File(f) => {
            out.push(piece);
            out.push(number(f));
        }
        Which::Tandem { n, of, file } => {
            let place = match (n, of) {
                (1, 2..=3) => '前',
                (2, 3) => '中',
                (n, of) if n == of && of <= 3 => rear,
                (n, _) => ['一', '二', '三', '四', '五'][n as usize - 1],
            };
            out.push(place);
            match file {
                Some(f) => out.push(number(f)),
                None => out.push(piece),
            }
        }
    }
    out.push(match d.action {
        Action::Advance if simplified => '进',
        Action::Advance => '進',
        Action::Retreat => '退',
        Action::Traverse => '平',
    });
    out.push(number(d.number));
    Some(out)
}

/// The character of `color`'s piece of `kind`.
pub fn piece_char(color: Color, kind: Kind, simplified: bool) -> char {
    let i = kind as usize;
    match (color, simplified) {
        (Color::Red, false) => ['帥', '仕', '相', '馬', '車', '炮', '兵'][i],
        (Color::Black, false) => ['將', '士', '象', '馬', '車', '炮', '卒'][i],
        (Color::Red, true) => ['帅', '仕', '相', '马', '车', '炮', '兵'][i],
        (Color::Black, true) => ['将', '士', '象', '马', '车', '炮', '卒'][i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn the_masters_forms_read_in_either_script_and_digits() {
        let mut p = pos(crate::rules::fen::START_FEN);
        for (text, iccs) in [
            ("炮二平五", "h2e2"),
            ("馬８進７", "h9g7"),
            ("马二进三", "h0g2"),
            ("車9平8", "i9h9"),
            ("俥一平二", "i0h0"),
            ("卒７進１", "g6g5"),
        ] {
            let m = parse_move(&p, text).unwrap();
            assert_eq!(m.to_string(), iccs, "{text}");
            p.make(m);
        }
    }

    #[test]
    fn tandem_forms_round_trip() {
        for (fen, iccs, text) in [
            ("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w", "e5d5", "前車平六"),
            ("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w", "e2e1", "後車退一"),
            ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e6d6", "中兵平六"),
            ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e5f5", "後兵平四"),
            ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "e5f5", "四兵平四"),
            ("3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w", "c7c8", "前七進一"),
            ("3k5/9/9/9/9/4n4/9/4n4/9/4K4 b", "e2c3", "前馬退３"),
        ] {
            let p = pos(fen);
            let m: Move = iccs.parse().unwrap();
            assert_eq!(
                write(&p, m, Script::Traditional).as_deref(),
                Some(text),
                "{fen} {iccs}"
            );
            assert_eq!(parse_move(&p, text), Ok(m), "{text}");
        }
        // 后 is 後 in simplified script.
        let p = pos("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w");
        assert_eq!(parse_move(&p, "后车退一"), Ok("e2e1".parse().unwrap()));
        assert_eq!(
            write(&p, "e2e1".parse().unwrap(), Script::Simplified).as_deref(),
            Some("后车退一")
        );
    }

    #[test]
    fn bad_text_and_illegal_moves_say_so() {
        let p = pos(crate::rules::fen::START_FEN);
        assert!(parse_move(&p, "炮二平").unwrap_err().contains("not a move"));
        assert!(parse_move(&p, "砲二飛五")
            .unwrap_err()
            .contains("not a move"));
        assert!(parse_move(&p, "車一進五")
            .unwrap_err()
            .contains("no legal move"));
        assert!(parse("h2e2").is_err());
    }
}

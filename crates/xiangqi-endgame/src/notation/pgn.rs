//! PGN game records for xiangqi: tag pairs (`[Red "…"]`, `[Black "…"]`, `[Result "1-0"]`,
//! `[ECCO "C55"]`, `[FEN "…"]` for a start other than the usual one), then numbered moves in any
//! notation players use: ICCS (`h2e2`), WXF (`C2.5`) or Chinese (`炮二平五`), even mixed.
//! Comments (`{…}`, `;` to the end of the line), variations (`(…)`, nested), numeric annotation
//! glyphs (`$1`) and move suffixes (`!`, `?`, `+`, `#`) are skipped. A file holds many games;
//! its encoding is found from its bytes (UTF-8, GB18030/GBK or Big5) unless given. Every move
//! is checked legal as the game is replayed, and a bad game is named with its number, line,
//! move number and the reason while the others are still read.

use crate::board::piece::Color;
use crate::board::square::Move;
use crate::notation::{chinese, iccs, wxf};
use crate::rules::fen::START_FEN;
use crate::rules::position::Position;
use std::fmt;

/// A game read from PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs in the order read (the `FEN` tag among them when there was one).
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves, every one legal.
    pub moves: Vec<Move>,
    /// The result token after the moves (`1-0`, `0-1`, `1/2-1/2`, `*`), or the `Result` tag's.
    pub result: Option<String>,
}

impl Game {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The positions of the game: the start, then after each move.
    pub fn positions(&self) -> Vec<Position> {
        let mut p = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(p.clone());
        for &m in &self.moves {
            p.make(m);
            out.push(p.clone());
        }
        out
    }

    /// The result from red's side: 1 a red win, 0 a draw, -1 a black win, `None` unknown.
    pub fn red_result(&self) -> Option<i32> {
        match self.result.as_deref().or(self.tag("Result"))? {
            "1-0" => Some(1),
            "0-1" => Some(-1),
            "1/2-1/2" => Some(0),
            _ => None,
        }
    }
}

/// A game that could not be read: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the file where the fault lies.
    pub line: usize,
    /// The move number at fault (`12` for red's 12th move, `12...` for black's), if a move is.
    pub move_number: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}", self.game, self.line)?;
        if let Some(m) = &self.move_number {
            write!(f, ", move {m}")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// The notations moves are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Notation {
    /// `h2e2 h9g7`.
    #[default]
    Iccs,
    /// `C2.5 H8+7`.
    Wxf,
    /// `炮二平五 馬８進７`, traditional characters.
    Chinese,
    /// `炮二平五 马８进７`, simplified characters.
    Simplified,
}

/// The encodings a file may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// GB18030 (and GBK, GB2312: simplified Chinese).
    Gbk,
    /// Big5 (traditional Chinese).
    Big5,
}

impl Encoding {
    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Gbk => encoding_rs::GB18030,
            Encoding::Big5 => encoding_rs::BIG5,
        }
    }
}

/// Characters of Chinese move text, to tell a good decoding from a bad one.
const MOVE_CHARS: &str =
    "車车俥馬马傌炮砲兵卒帥帅將将仕士相象進进退平前後后一二三四五六七八九１２３４５６７８９";

/// `bytes` as text: in `forced` when given, else UTF-8 when they are valid UTF-8, else the one
/// of GB18030 and Big5 whose decoding reads as more move text (fewer errors, more of the
/// characters moves are written with). Returns the text and the encoding used.
pub fn decode(bytes: &[u8], forced: Option<Encoding>) -> (String, Encoding) {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let with = |e: Encoding| {
        let (text, _, errors) = e.codec().decode(bytes);
        let score = text.chars().filter(|c| MOVE_CHARS.contains(*c)).count() as i64
            - if errors { 1000 } else { 0 }
            - 50 * text.matches('\u{fffd}').count() as i64;
        (text.into_owned(), score)
    };
    if let Some(e) = forced {
        return (with(e).0, e);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), Encoding::Utf8);
    }
    let (gbk, gbk_score) = with(Encoding::Gbk);
    let (big5, big5_score) = with(Encoding::Big5);
    if big5_score > gbk_score {
        (big5, Encoding::Big5)
    } else {
        (gbk, Encoding::Gbk)
    }
}

/// The legal move a token names in `pos`, in whichever notation it is written.
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, String> {
    let t = token.trim_end_matches(['!', '?', '+', '#']);
    if t.is_empty() {
        return Err(format!("`{}` is not a move", batch::shown(token)));
    }
    let square = |b: &[u8]| {
        b.len() == 2 && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase()) && b[1].is_ascii_digit()
    };
    let b = t.as_bytes();
    let ascii_coords = match b.len() {
        4 => square(&b[..2]) && square(&b[2..]),
        5 => square(&b[..2]) && b[2] == b'-' && square(&b[3..]),
        _ => false,
    };
    if ascii_coords {
        iccs::parse_move(pos, t)
    } else if t.is_ascii() {
        wxf::parse_move(pos, t)
    } else {
        chinese::parse_move(pos, t)
    }
}

/// `mv` (legal in `pos`) written in `notation`.
pub fn write_move(pos: &Position, mv: Move, notation: Notation) -> String {
    let text = match notation {
        Notation::Iccs => None,
        Notation::Wxf => wxf::write(pos, mv),
        Notation::Chinese => chinese::write(pos, mv, chinese::Script::Traditional),
        Notation::Simplified => chinese::write(pos, mv, chinese::Script::Simplified),
    };
    text.unwrap_or_else(|| iccs::write(mv))
}

/// One token of movetext with the line it starts on.
struct Token<'a> {
    text: &'a str,
    line: usize,
}

/// A game not yet replayed: the line it starts on, its tags, its movetext tokens, and a
/// problem found already (an unclosed comment).
type Unread<'a> = (usize, Vec<(String, String)>, Vec<Token<'a>>, Option<String>);

/// The tag pairs and movetext tokens of the games of `text`, each game with the line it starts
/// on. Comments, variations and glyphs are left out here.
fn games_of(text: &str) -> Vec<Unread<'_>> {
    let mut games: Vec<Unread<'_>> = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tokens: Vec<Token<'_>> = Vec::new();
    let mut start_line = 1;
    let mut open = false;
    fn flush<'a>(
        games: &mut Vec<Unread<'a>>,
        tags: &mut Vec<(String, String)>,
        tokens: &mut Vec<Token<'a>>,
        start: usize,
        problem: Option<String>,
    ) {
        games.push((start, std::mem::take(tags), std::mem::take(tokens), problem));
    }
    let mut depth = 0usize; // inside variations
    let mut in_brace = false;
    let mut in_moves = false;
    // A blank line after a game's tags: tags after it start another game (one without moves).
    let mut blank_after_tags = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let trimmed = line.trim();
        if !in_brace && depth == 0 && trimmed.starts_with('[') && trimmed.ends_with(']') {
            if in_moves || blank_after_tags {
                flush(&mut games, &mut tags, &mut tokens, start_line, None);
                in_moves = false;
                open = false;
                blank_after_tags = false;
            }
            if !open {
                start_line = n;
                open = true;
            }
            let inner = &trimmed[1..trimmed.len() - 1];
            let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            tags.push((name.to_string(), value));
            continue;
        }
        if trimmed.is_empty() {
            blank_after_tags |= open && !in_moves && !tags.is_empty();
            continue;
        }
        if !open {
            start_line = n;
            open = true;
        }
        in_moves = true;
        blank_after_tags = false;
        let mut rest = line;
        while !rest.is_empty() {
            if in_brace {
                match rest.find('}') {
                    Some(k) => {
                        in_brace = false;
                        rest = &rest[k + 1..];
                    }
                    None => break,
                }
                continue;
            }
            let r = rest.trim_start();
            if r.is_empty() {
                break;
            }
            let c = r.chars().next().unwrap_or(' ');
            match c {
                '{' => {
                    in_brace = true;
                    rest = &r[1..];
                }
                ';' => break,
                '(' => {
                    depth += 1;
                    rest = &r[1..];
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    rest = &r[1..];
                }
                _ => {
                    let end = r
                        .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                        .unwrap_or(r.len());
                    let word = &r[..end];
                    rest = &r[end..];
                    if depth == 0 {
                        tokens.push(Token {
                            text: word,
                            line: n,
                        });
                        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                            flush(&mut games, &mut tags, &mut tokens, start_line, None);
                            in_moves = false;
                            open = false;
                        }
                    }
                }
            }
        }
    }
    if open {
        let problem =
            (in_brace || depth > 0).then(|| "a comment or variation is never closed".to_string());
        flush(&mut games, &mut tags, &mut tokens, start_line, problem);
    }
    games
}

/// Reads every game of `text`; each is a game or the reason it is not one.
pub fn read_games(text: &str) -> Vec<Result<Game, GameError>> {
    games_of(text)
        .into_iter()
        .enumerate()
        .map(|(i, (line, tags, tokens, problem))| {
            let number = i + 1;
            let err = |line: usize, move_number: Option<String>, reason: String| GameError {
                game: number,
                line,
                move_number,
                reason,
            };
            if let Some(p) = problem {
                return Err(err(line, None, p));
            }
            let fen = tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
                .map(|(_, v)| v.clone());
            let start: Position =
                fen.as_deref()
                    .unwrap_or(START_FEN)
                    .parse()
                    .map_err(|e: batch::InputError| {
                        err(line, None, format!("FEN tag: {}", e.message))
                    })?;
            let mut pos = start.clone();
            let mut moves = Vec::new();
            let mut result = None;
            for t in tokens {
                let mut word = t.text;
                // Move numbers: `12.`, `12...`, or glued to the move (`12.h2e2`).
                let digits = word.chars().take_while(char::is_ascii_digit).count();
                if digits > 0 && word[digits..].starts_with('.') {
                    word = word[digits..].trim_start_matches('.');
                    if word.is_empty() {
                        continue;
                    }
                }
                if word.starts_with('$') || word.chars().all(|c| "!?".contains(c)) {
                    continue;
                }
                if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    result = Some(word.to_string());
                    break;
                }
                let move_number = || {
                    let n = moves.len() / 2 + 1;
                    let black_first = start.side() == Color::Black;
                    let (n, black) = if black_first {
                        (moves.len().div_ceil(2) + 1, moves.len() % 2 == 0)
                    } else {
                        (n, moves.len() % 2 == 1)
                    };
                    if black {
                        format!("{n}...")
                    } else {
                        n.to_string()
                    }
                };
                let mv = parse_move(&pos, word).map_err(|e| err(t.line, Some(move_number()), e))?;
                pos.make(mv);
                moves.push(mv);
            }
            let result = result.or_else(|| {
                tags.iter()
                    .find(|(k, _)| k == "Result")
                    .map(|(_, v)| v.clone())
                    .filter(|v| !v.is_empty())
            });
            Ok(Game {
                tags,
                start,
                moves,
                result,
            })
        })
        .collect()
}

/// What an annotated record adds to a move: a suffix (`?`, `??`) and a comment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Written right after the move.
    pub suffix: &'static str,
    /// Written after it in braces.
    pub comment: Option<String>,
}

/// `game` as PGN in `notation`: its tags (with `FEN` when it does not start from the usual
/// position), then its moves numbered, one move pair a line in Chinese notation, several a
/// line in the others, then the result.
pub fn write_game(game: &Game, notation: Notation) -> String {
    write_annotated(game, notation, &[])
}

/// [`write_game`] with `annotations[i]` after move `i` (moves beyond the slice plain).
pub fn write_annotated(game: &Game, notation: Notation, annotations: &[Annotation]) -> String {
    let mut out = String::new();
    let standard = game.start.to_string() == START_FEN;
    let mut has_fen = false;
    for (k, v) in &game.tags {
        if k.eq_ignore_ascii_case("FEN") {
            has_fen = true;
            if standard {
                out.push_str(&format!("[FEN \"{START_FEN}\"]\n"));
                continue;
            }
            out.push_str(&format!("[FEN \"{}\"]\n", game.start));
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    }
    if !has_fen && !standard {
        out.push_str(&format!("[FEN \"{}\"]\n", game.start));
    }
    out.push('\n');
    let per_line = if matches!(notation, Notation::Chinese | Notation::Simplified) {
        1
    } else {
        6
    };
    let mut pos = game.start.clone();
    let mut line = String::new();
    let mut pairs = 0;
    let black_first = game.start.side() == Color::Black;
    for (i, &mv) in game.moves.iter().enumerate() {
        let red_move = (i % 2 == 0) != black_first;
        let number = (i + usize::from(black_first)) / 2 + 1;
        if red_move {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&format!("{number}. "));
        } else if i == 0 {
            line.push_str(&format!("{number}... "));
        } else {
            line.push(' ');
        }
        line.push_str(&write_move(&pos, mv, notation));
        if let Some(a) = annotations.get(i) {
            line.push_str(a.suffix);
            if let Some(c) = &a.comment {
                line.push_str(&format!(" {{{}}}", c.replace(['{', '}'], "")));
            }
        }
        pos.make(mv);
        if !red_move {
            pairs += 1;
            if pairs % per_line == 0 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(game.result.as_deref().unwrap_or("*"));
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MASTERS: &str = "[Game \"Chinese Chess\"]\n[Event \"友誼賽 中炮對屏風馬\"]\n[Red \"柳大華\"]\n[Black \"吳貴臨\"]\n[Result \"1-0\"]\n[ECCO \"C55\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n3. 車一平二 卒７進１\n1-0\n\n[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n\n1. h2e2 {a comment (with brackets)} h9g7 (1... b9c7 2. h0g2) 2. H2+3 $1 車９平８!? ; to the end\n3. i0h0\n0-1\n";

    /// The two games of [`MASTERS`], read.
    fn masters() -> Vec<Game> {
        read_games(MASTERS)
            .into_iter()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn games_in_every_notation_with_comments_and_variations_are_read() {
        let games = masters();
        assert_eq!(games.len(), 2);
        let iccs: Vec<String> = games[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "g6g5"]);
        assert_eq!(games[0].tag("ECCO"), Some("C55"));
        assert_eq!(games[0].red_result(), Some(1));
        let iccs: Vec<String> = games[1].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        assert_eq!(games[1].red_result(), Some(-1));
    }

    #[test]
    fn written_games_read_back_in_every_notation() {
        let games = masters();
        for notation in [
            Notation::Iccs,
            Notation::Wxf,
            Notation::Chinese,
            Notation::Simplified,
        ] {
            for g in &games {
                let text = write_game(g, notation);
                let back = read_games(&text).pop().unwrap().unwrap();
                assert_eq!(back.moves, g.moves, "{notation:?}\n{text}");
                assert_eq!(back.result, g.result);
            }
        }
        assert!(write_game(&games[0], Notation::Chinese).contains("1. 炮二平五 馬８進７\n"));
    }

    #[test]
    fn annotations_are_written_and_skipped_on_reading() {
        let g = read_games("1. h2e2 h9g7 *\n").pop().unwrap().unwrap();
        let notes = [
            Annotation {
                suffix: "?",
                comment: Some("+0.20 {braces} dropped".into()),
            },
            Annotation::default(),
        ];
        let text = write_annotated(&g, Notation::Iccs, &notes);
        assert!(
            text.contains("1. h2e2? {+0.20 braces dropped} h9g7"),
            "{text}"
        );
        assert_eq!(read_games(&text).pop().unwrap().unwrap().moves, g.moves);
    }

    #[test]
    fn a_game_without_moves_is_a_game_of_its_own() {
        let text = "[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n\n1. h2e2 *\n";
        let read: Vec<Game> = read_games(text).into_iter().map(Result::unwrap).collect();
        assert_eq!(read.len(), 2);
        assert_eq!((read[0].tag("Event"), read[0].moves.len()), (Some("a"), 0));
        assert_eq!((read[1].tag("Event"), read[1].moves.len()), (Some("b"), 1));
    }

    #[test]
    fn a_bad_game_is_named_and_the_next_one_still_read() {
        let text =
            "[Result \"1-0\"]\n\n1. h2e2 h9g7\n2. h0h5 h7h0\n1-0\n\n[Result \"*\"]\n\n1. c3c4\n*\n";
        let read = read_games(text);
        assert_eq!(read.len(), 2);
        let e = read[0].clone().unwrap_err();
        assert_eq!(
            (e.game, e.line, e.move_number.as_deref()),
            (1, 4, Some("2"))
        );
        assert!(e.reason.contains("not a legal move"), "{e}");
        assert_eq!(read[1].clone().unwrap().moves.len(), 1);
        let bad_fen = read_games("[FEN \"9/9 w\"]\n\n1. h2e2 *\n");
        assert!(bad_fen[0]
            .clone()
            .unwrap_err()
            .reason
            .starts_with("FEN tag"));
        let unclosed = read_games("1. h2e2 { never closed\n");
        assert!(unclosed[0]
            .clone()
            .unwrap_err()
            .reason
            .contains("never closed"));
    }

    #[test]
    fn a_game_from_a_black_start_numbers_its_moves() {
        let fen = "3k5/9/9/9/9/9/9/9/4R4/5K3 b - - 0 1";
        let text = format!("[FEN \"{fen}\"]\n\n1... d9d8 2. e1d1 *\n");
        let g = read_games(&text).pop().unwrap().unwrap();
        assert_eq!(g.moves.len(), 2);
        let written = write_game(&g, Notation::Wxf);
        assert!(written.contains("1... K4+1 2. R5.6"), "{written}");
        let bad = read_games(&format!("[FEN \"{fen}\"]\n\n1... d9d8 2. f0f2 *\n"));
        assert_eq!(
            bad[0].clone().unwrap_err().move_number.as_deref(),
            Some("2")
        );
    }

    #[test]
    fn the_encoding_is_found_from_the_bytes() {
        let text = "1. 炮二平五 馬８進７ *\n";
        let (big5, _, _) = encoding_rs::BIG5.encode(text);
        let (gbk, _, _) = encoding_rs::GB18030.encode("1. 炮二平五 马８进７ *\n");
        assert_eq!(decode(&big5, None), (text.to_string(), Encoding::Big5));
        assert_eq!(decode(&gbk, None).1, Encoding::Gbk);
        assert_eq!(decode(text.as_bytes(), None).1, Encoding::Utf8);
        assert_eq!(decode(b"\xef\xbb\xbf1. h2e2 *", None).0, "1. h2e2 *");
        assert_eq!(decode(&big5, Some(Encoding::Big5)).0, text);
    }
}

//! GGF, the game format of the GGS server and of the NBoard protocol (`set game`), for 8x8
//! Othello: `(;GM[Othello]PC[..]PB[..]PW[..]TY[8]BO[8 BOARD SIDE]B[F5]W[F6/-0.60/1.2];)`.
//! A game is its tags, a start position and its moves (each with the evaluation and time the
//! player gave, if any); parsing replays the moves, so a parsed game is always legal, and
//! [`GgfGame`]'s `Display` writes text that parses back to the same game.

use crate::rules::position::{Color, Move, Position};
use std::fmt;
use std::str::FromStr;

/// One move of a GGF game.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfMove {
    /// Who played it.
    pub color: Color,
    /// The square, or a pass (`PA`).
    pub mv: Move,
    /// The evaluation the player gave (discs, its own side), if any.
    pub eval: Option<f64>,
    /// The time it took, in seconds, if given.
    pub time: Option<f64>,
}

/// An Othello game in GGF.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfGame {
    /// Tags other than `BO` and the moves, in the order read (`GM`, `PB`, `PW`, `RE`, ...).
    pub tags: Vec<(String, String)>,
    /// The position before the first move (`BO`).
    pub start: Position,
    /// The moves played from `start`.
    pub moves: Vec<GgfMove>,
}

/// A GGF syntax or rules error at a character offset of the text (counted from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GgfError {
    /// Character position in the text, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for GgfError {}

impl GgfGame {
    /// A game from `start` with no moves and no tags but `GM[Othello]`.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            tags: vec![("GM".into(), "Othello".into())],
            start,
            moves: Vec::new(),
        }
    }

    /// The position after every move.
    pub fn position(&self) -> Position {
        self.moves.iter().fold(self.start, |p, m| p.play(m.mv))
    }

    /// Appends `mv` for the side to move, with a pass inserted first when that side must
    /// pass; an error when the move is illegal.
    ///
    /// ```
    /// use othello::{ggf::GgfGame, Move, Position};
    /// let mut game = GgfGame::new(Position::default());
    /// game.push("f5".parse().unwrap(), None, None).unwrap();
    /// assert!(game.push("f5".parse().unwrap(), None, None).is_err());
    /// assert_eq!(game.position(), Position::default().play_sequence("f5").unwrap());
    /// ```
    pub fn push(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> Result<(), String> {
        let mut p = self.position();
        if mv != Move::Pass && p.is_legal(Move::Pass) {
            self.moves.push(GgfMove {
                color: p.side,
                mv: Move::Pass,
                eval: None,
                time: None,
            });
            p = p.play(Move::Pass);
        }
        if !p.is_legal(mv) {
            return Err(format!("{} is illegal here", ggf_move(mv)));
        }
        self.moves.push(GgfMove {
            color: p.side,
            mv,
            eval,
            time,
        });
        Ok(())
    }
}

/// A GGF time control (`TI`, `TB`, `TW`): `MAIN/INCREMENT/EXTENSION`, each `[[h:]m:]s` and
/// possibly empty (zero), like `TI[5:00//0:30]`: five minutes for the game, no increment, and
/// thirty seconds of extension once the main time is used up.
///
/// ```
/// use othello::ggf::Clock;
/// let c: Clock = "5:00//0:30".parse().unwrap();
/// assert_eq!((c.main, c.increment, c.extension), (300.0, 0.0, 30.0));
/// assert_eq!(c.to_string(), "5:00/0:00/0:30");
/// assert_eq!("1:00:00".parse::<Clock>().unwrap().main, 3600.0);
/// assert_eq!("0.5".parse::<Clock>().unwrap().to_string(), "0:00.50/0:00/0:00");
/// assert!("five minutes".parse::<Clock>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Clock {
    /// Seconds for the whole game.
    pub main: f64,
    /// Seconds added after each of the player's moves.
    pub increment: f64,
    /// Seconds of grace once the main time has run out.
    pub extension: f64,
}

impl FromStr for Clock {
    type Err = String;
    fn from_str(s: &str) -> Result<Clock, String> {
        let mut parts = s.trim().split('/');
        let mut next = |what: &str| -> Result<f64, String> {
            let part = parts.next().unwrap_or("").trim();
            if part.is_empty() {
                return Ok(0.0);
            }
            let mut seconds = 0.0;
            for field in part.split(':') {
                let v: f64 = field
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("the {what} time `{part}` is not [[h:]m:]s"))?;
                seconds = seconds * 60.0 + v;
            }
            Ok(seconds)
        };
        let clock = Clock {
            main: next("main")?,
            increment: next("increment")?,
            extension: next("extension")?,
        };
        match parts.next() {
            Some(extra) => Err(format!("`{extra}` after the extension time")),
            None => Ok(clock),
        }
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |t: f64| {
            let whole = t.floor() as u64;
            let seconds = if t.fract() == 0.0 {
                format!("{:02}", whole % 60)
            } else {
                format!("{:05.2}", t - (whole - whole % 60) as f64)
            };
            if whole >= 3600 {
                format!("{}:{:02}:{seconds}", whole / 3600, whole / 60 % 60)
            } else {
                format!("{}:{seconds}", whole / 60)
            }
        };
        let (m, i, e) = (part(self.main), part(self.increment), part(self.extension));
        write!(f, "{m}/{i}/{e}")
    }
}

impl GgfGame {
    /// The time control of `color`: its own tag (`TB`, `TW`), else `TI`; `None` when the game
    /// has none (or it does not parse).
    pub fn clock(&self, color: Color) -> Option<Clock> {
        let own = if color == Color::Black { "TB" } else { "TW" };
        let tag = |name: &str| self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        tag(own).or_else(|| tag("TI"))?.parse().ok()
    }

    /// Seconds left on `color`'s clock: its time control (main time, extension and the
    /// increments of its moves so far) less the times of its moves; `None` without a clock.
    ///
    /// ```
    /// use othello::{ggf::GgfGame, Color};
    /// let text = "(;GM[Othello]TI[1:00//]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//12.5]W[F6//3];)";
    /// let game: GgfGame = text.parse().unwrap();
    /// assert_eq!(game.time_left(Color::Black), Some(47.5));
    /// assert_eq!(game.time_left(Color::White), Some(57.0));
    /// ```
    pub fn time_left(&self, color: Color) -> Option<f64> {
        let clock = self.clock(color)?;
        let own = self.moves.iter().filter(|m| m.color == color);
        let (moves, used) = own.fold((0, 0.0), |(n, t), m| (n + 1, t + m.time.unwrap_or(0.0)));
        Some(clock.main + clock.extension + f64::from(moves) * clock.increment - used)
    }
}

/// A move as GGF writes it: `F5`, `PA`.
pub fn ggf_move(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        sq => sq.to_string().to_ascii_uppercase(),
    }
}

/// Parses a move as GGF and the NBoard protocol write it: `F5`, `f5`, `PA`, `PASS`.
///
/// ```
/// use othello::{ggf::parse_ggf_move, Move};
/// assert_eq!(parse_ggf_move("PA"), Ok(Move::Pass));
/// assert_eq!(parse_ggf_move("f5"), "f5".parse());
/// assert!(parse_ggf_move("Z9").is_err());
/// ```
pub fn parse_ggf_move(token: &str) -> Result<Move, String> {
    let token = token.trim();
    if token.eq_ignore_ascii_case("pa") || token.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    token
        .parse::<Move>()
        .map_err(|_| format!("`{token}` is not a move like F5 or PA"))
}

/// Parses `F5`, `f5`, `PA`, `PASS`, with an optional `/eval/time` after it.
pub(crate) fn parse_move(value: &str) -> Result<(Move, Option<f64>, Option<f64>), String> {
    let mut parts = value.split('/');
    let mv = parse_ggf_move(parts.next().unwrap_or("").trim())?;
    let number = |part: Option<&str>, what: &str| -> Result<Option<f64>, String> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map(Some)
                .ok_or_else(|| format!("`{t}` is not a number ({what})")),
        }
    };
    let eval = number(parts.next(), "the evaluation")?;
    let time = number(parts.next(), "the time")?;
    if time.is_some_and(|t| t < 0.0) {
        return Err("a negative time".into());
    }
    if parts.next().is_some() {
        return Err("more than MOVE/EVAL/TIME".into());
    }
    Ok((mv, eval, time))
}

/// Parses `8 BOARD SIDE`: 64 squares (`*` black, `O` white, `-` empty; spaces between rows
/// allowed), then `*` or `O`.
fn parse_board(value: &str) -> Result<Position, String> {
    let rest = value.trim_start();
    let Some(rest) = rest.strip_prefix('8') else {
        return Err("the board must start with its size, 8".into());
    };
    if !rest.starts_with(char::is_whitespace) {
        return Err("the board must start with its size, 8".into());
    }
    let squares: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if squares.chars().count() != 65 {
        return Err(format!(
            "the board has {} characters after its size, expected 64 squares and the side to move",
            squares.chars().count()
        ));
    }
    if let Some(c) = squares
        .chars()
        .find(|c| !matches!(c, '*' | 'O' | 'o' | '-'))
    {
        return Err(format!("`{c}` is not a square or a side (*, O or -)"));
    }
    let (board, side) = squares.split_at(64);
    if side == "-" {
        return Err("the side to move must be * or O".into());
    }
    format!("{board} {side}").parse::<Position>()
}

impl FromStr for GgfGame {
    type Err = GgfError;

    /// Parses one game. Tags may come in any order but `BO` must precede the moves; unknown
    /// tags are kept. A `\` escapes the next character inside a value.
    ///
    /// ```
    /// use othello::ggf::GgfGame;
    /// let text = "(;GM[Othello]PC[NBoard]PB[me]PW[you]RE[?]TI[0:00//02:00]TY[8]\
    ///             BO[8 ---------------------------O*------*O--------------------------- *]\
    ///             B[F5]W[F6/-0.60/1.2];)";
    /// let game: GgfGame = text.parse().unwrap();
    /// assert_eq!(game.moves.len(), 2);
    /// assert_eq!(game.moves[1].eval, Some(-0.6));
    /// assert_eq!(game.to_string().parse::<GgfGame>().unwrap(), game);
    /// ```
    fn from_str(text: &str) -> Result<GgfGame, GgfError> {
        let chars: Vec<char> = text.chars().collect();
        let err = |at: usize, message: String| GgfError {
            column: at + 1,
            message,
        };
        let mut i = 0;
        let skip_space = |i: &mut usize| {
            while *i < chars.len() && chars[*i].is_whitespace() {
                *i += 1;
            }
        };
        skip_space(&mut i);
        if chars.get(i..i + 2) != Some(&['(', ';']) {
            return Err(err(i, "a GGF game starts with `(;`".into()));
        }
        i += 2;
        let mut tags = Vec::new();
        let mut game: Option<GgfGame> = None;
        loop {
            skip_space(&mut i);
            match chars.get(i) {
                None => return Err(err(i, "the game does not end with `;)`".into())),
                Some(';') => {
                    i += 1;
                    skip_space(&mut i);
                    if chars.get(i) != Some(&')') {
                        return Err(err(i, "expected `)` after the closing `;`".into()));
                    }
                    i += 1;
                    skip_space(&mut i);
                    if i < chars.len() {
                        return Err(err(i, "text after the game's closing `)`".into()));
                    }
                    break;
                }
                Some(c) if c.is_ascii_uppercase() => {}
                Some(c) => return Err(err(i, format!("`{c}` where a tag like PB[..] belongs"))),
            }
            let key_at = i;
            while i < chars.len() && chars[i].is_ascii_uppercase() {
                i += 1;
            }
            let key: String = chars[key_at..i].iter().collect();
            if chars.get(i) != Some(&'[') {
                return Err(err(i, format!("tag {key} needs a value in [ ]")));
            }
            i += 1;
            let value_at = i;
            let mut value = String::new();
            loop {
                match chars.get(i) {
                    None => {
                        return Err(err(value_at - 1, format!("tag {key}'s `[` is not closed")))
                    }
                    Some(']') => break,
                    Some('\\') if i + 1 < chars.len() => {
                        value.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(&c) => {
                        value.push(c);
                        i += 1;
                    }
                }
            }
            i += 1;
            match key.as_str() {
                "BO" => {
                    if game.is_some() {
                        return Err(err(key_at, "a second board (BO)".into()));
                    }
                    game = Some(GgfGame {
                        tags: Vec::new(),
                        start: parse_board(&value).map_err(|m| err(value_at, m))?,
                        moves: Vec::new(),
                    });
                }
                "B" | "W" => {
                    let Some(g) = game.as_mut() else {
                        return Err(err(key_at, "a move before the board (BO)".into()));
                    };
                    let (mv, eval, time) = parse_move(&value).map_err(|m| err(value_at, m))?;
                    let color = if key == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let p = g.position();
                    if p.side != color {
                        return Err(err(
                            key_at,
                            format!(
                                "{key}[{value}]: it is {}'s turn",
                                if p.side == Color::Black {
                                    "black"
                                } else {
                                    "white"
                                }
                            ),
                        ));
                    }
                    if !p.is_legal(mv) {
                        return Err(err(key_at, format!("{key}[{value}] is illegal here")));
                    }
                    g.moves.push(GgfMove {
                        color,
                        mv,
                        eval,
                        time,
                    });
                }
                "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                    return Err(err(value_at, format!("GM[{value}] is not an Othello game")));
                }
                "TY" if !value.trim().starts_with('8') => {
                    return Err(err(
                        value_at,
                        format!("TY[{value}]: only 8x8 boards are played"),
                    ));
                }
                // Tags after the moves are kept with the others: the order of tags among
                // themselves is what round-trips.
                _ => tags.push((key, value)),
            }
        }
        let mut game = game.ok_or_else(|| err(0, "the game has no board (BO[8 ...])".into()))?;
        game.tags = tags;
        Ok(game)
    }
}

/// Escapes `]` and `\` in a tag value.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(;")?;
        for (k, v) in &self.tags {
            write!(f, "{k}[{}]", escape(v))?;
        }
        let board: String = self
            .start
            .to_string()
            .chars()
            .map(|c| match c {
                'X' => '*',
                c => c,
            })
            .collect();
        write!(f, "BO[8 {board}]")?;
        for m in &self.moves {
            let tag = if m.color == Color::Black { 'B' } else { 'W' };
            write!(f, "{tag}[{}", ggf_move(m.mv))?;
            match (m.eval, m.time) {
                (None, None) => {}
                (Some(e), None) => write!(f, "/{e}")?,
                (e, Some(t)) => write!(f, "/{}/{t}", e.map_or(String::new(), |e| e.to_string()))?,
            }
            write!(f, "]")?;
        }
        write!(f, ";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------O*------*O--------------------------- *";

    #[test]
    fn reads_the_nboard_example_and_writes_it_back() {
        let text =
            format!("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {START}]B[F5]W[F6];)");
        let game: GgfGame = text.parse().unwrap();
        assert_eq!(game.start, Position::default());
        assert_eq!(game.to_string(), text);
        assert_eq!(
            game.position(),
            Position::default().play_sequence("f5f6").unwrap()
        );
    }

    /// A GGF board (with black to move) where black's a1 flips b1 and ends the game: white
    /// has no disc left.
    fn last_move_board() -> String {
        format!("-O*{}*", "-".repeat(61))
    }

    #[test]
    fn evals_times_and_escapes_round_trip() {
        let board = last_move_board();
        let text = format!("(;GM[Othello]PB[x\\]y]BO[8 {board}]B[A1/+64.00/0.5];)");
        let game: GgfGame = text.parse().unwrap();
        assert_eq!(game.tags[1], ("PB".into(), "x]y".into()));
        assert_eq!(game.moves[0].eval, Some(64.0));
        assert_eq!(game.moves[0].time, Some(0.5));
        assert_eq!(game.to_string().parse::<GgfGame>().unwrap(), game);
        // The game is over after a1 (white has no disc left): no pass is legal.
        let over = format!("(;BO[8 {board}]B[A1]W[PA];)");
        assert!(over
            .parse::<GgfGame>()
            .unwrap_err()
            .message
            .contains("illegal"));
    }

    #[test]
    fn random_games_with_passes_round_trip() {
        use rand::{Rng, SeedableRng};
        let mut rng = search_core::SmallRng::seed_from_u64(7);
        let mut passes = 0;
        for _ in 0..200 {
            let mut game = GgfGame::new(Position::default());
            let mut p = game.start;
            while !p.game_over() {
                let moves = p.moves();
                if moves == 0 {
                    // Half the time the pass is written, half the time `push` inserts it
                    // before the other side's move.
                    if rng.random_bool(0.5) {
                        game.push(Move::Pass, None, None).unwrap();
                    } else {
                        let reply = p.play(Move::Pass).moves();
                        let sq = crate::rules::bitboard::nth_square(reply, 0);
                        let before = game.moves.len();
                        game.push(Move::Square(sq), None, None).unwrap();
                        assert_eq!(game.moves.len(), before + 2);
                        assert_eq!(game.moves[before].mv, Move::Pass);
                    }
                    passes += 1;
                } else {
                    let k = rng.random_range(0..moves.count_ones());
                    let sq = crate::rules::bitboard::nth_square(moves, k);
                    let eval = rng
                        .random_bool(0.5)
                        .then(|| rng.random_range(-64..=64) as f64 / 4.0);
                    game.push(Move::Square(sq), eval, Some(0.25)).unwrap();
                }
                p = game.position();
            }
            let text = game.to_string();
            assert_eq!(text.parse::<GgfGame>().unwrap(), game, "{text}");
        }
        assert!(passes > 0, "no game had a pass");
    }

    #[test]
    fn bad_games_are_located() {
        let cases = [
            ("GM[Othello]", 1, "starts with"),
            ("(;GM[Othello]B[F5]BO[8 x];)", 14, "before the board"),
            ("(;GM[Chess]BO[8 x];)", 6, "not an Othello game"),
            ("(;BO[8 ---];)", 6, "characters after its size"),
            ("(;BO[8 ---", 5, "not closed"),
        ];
        for (text, column, words) in cases {
            let e = text.parse::<GgfGame>().unwrap_err();
            assert_eq!(e.column, column, "{text}: {e}");
            assert!(e.message.contains(words), "{text}: {e}");
        }
        let text = format!("(;BO[8 {START}]B[A1];)");
        let e = text.parse::<GgfGame>().unwrap_err();
        assert!(e.message.contains("illegal"), "{e}");
        let text = format!("(;BO[8 {START}]W[F5];)");
        assert!(text
            .parse::<GgfGame>()
            .unwrap_err()
            .message
            .contains("black's turn"));
    }

    #[test]
    fn push_plays_the_last_move_of_a_game() {
        let board = last_move_board();
        let mut game = GgfGame::new(board.replace('*', "X").parse::<Position>().unwrap());
        game.push("a1".parse().unwrap(), None, None).unwrap();
        assert!(game.position().game_over());
        assert_eq!(game.moves.len(), 1);
    }
}

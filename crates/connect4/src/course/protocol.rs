//! The course's text interfaces.
//!
//! * `getPoint` as text: `M N noX noY lastX lastY`, then the N values of `top`, then the M·N
//!   board values (0 empty, 1 opponent, 2 self); the answer is `x y`.
//! * The online judge's plain-text protocol: first `M N noX noY`, then every turn `lastX lastY`,
//!   `top`, board; each answer is a 4-byte big-endian length followed by `x y`.
//!
//! Input is read as whitespace-separated integers, so line breaks do not matter.

use crate::engine::{Engine, GameState};
use crate::rules::board::Board;
use std::io::{BufRead, Write};

/// Reads whitespace-separated integers from a reader, one at a time.
pub struct Tokens<R> {
    reader: R,
    buf: Vec<i64>,
    pos: usize,
    line: usize,
}

impl<R: BufRead> Tokens<R> {
    /// Wraps a reader.
    pub fn new(reader: R) -> Self {
        Tokens {
            reader,
            buf: Vec::new(),
            pos: 0,
            line: 0,
        }
    }

    /// The next integer, `Ok(None)` at end of input.
    pub fn next_int(&mut self) -> Result<Option<i64>, String> {
        while self.pos == self.buf.len() {
            let mut s = String::new();
            // Lines are capped: an endless line (`< /dev/zero`) is an error, not a hang.
            if !batch::read_line_capped(&mut self.reader, &mut s, self.line + 1)? {
                return Ok(None);
            }
            self.line += 1;
            self.buf = s
                .split_whitespace()
                .map(|t| {
                    t.parse::<i64>()
                        .ok()
                        .filter(|v| i32::try_from(*v).is_ok())
                        .ok_or_else(|| {
                            format!(
                                "line {}: `{}` is not an integer the course's int can hold",
                                self.line,
                                batch::shown(t)
                            )
                        })
                })
                .collect::<Result<_, _>>()?;
            self.pos = 0;
        }
        self.pos += 1;
        Ok(Some(self.buf[self.pos - 1]))
    }

    /// The next integer, an error at end of input.
    pub fn expect(&mut self, what: &str) -> Result<i64, String> {
        self.next_int()?
            .ok_or_else(|| format!("input ended before {what}"))
    }

    /// `n` integers.
    pub fn many(&mut self, n: usize, what: &str) -> Result<Vec<i32>, String> {
        (0..n)
            .map(|_| self.expect(what).map(|v| v as i32))
            .collect()
    }
}

fn size(t: &mut Tokens<impl BufRead>) -> Result<(usize, usize, usize, usize), String> {
    let m = t.expect("M")?;
    let n = t.expect("N")?;
    let no_x = t.expect("noX")?;
    let no_y = t.expect("noY")?;
    crate::rules::board::check_size(m.max(0) as usize, n.max(0) as usize)?;
    if no_x < 0 || no_y < 0 || no_x >= m || no_y >= n {
        return Err(format!("obstacle ({no_x}, {no_y}) is off the board"));
    }
    Ok((m as usize, n as usize, no_x as usize, no_y as usize))
}

fn read_turn(
    t: &mut Tokens<impl BufRead>,
    m: usize,
    n: usize,
    no_x: usize,
    no_y: usize,
) -> Result<Option<GameState>, String> {
    let Some(last_x) = t.next_int()? else {
        return Ok(None);
    };
    let last_y = t.expect("lastY")?;
    let top = t.many(n, "top")?;
    let board = t.many(m * n, "the board")?;
    let b = Board::from_course(m, n, &top, &board, no_x, no_y, 2)?;
    // The opponent's last stone, when one is named, is an opponent's stone on the board.
    if (last_x, last_y) != (-1, -1) {
        let on_board = (0..m as i64).contains(&last_x) && (0..n as i64).contains(&last_y);
        if !on_board || board[last_x as usize * n + last_y as usize] != 1 {
            return Err(format!(
                "lastX lastY = {last_x} {last_y} is not a stone of the opponent (1) on the board"
            ));
        }
    }
    if b.is_full() {
        return Err("the board is full: no move to make".into());
    }
    Ok(Some(GameState::new(b, 2)))
}

/// Reads one `getPoint` request given as text (the online protocol's first line followed by
/// one turn), checked against the judge's invariants ([`Board::from_course`]); the position
/// has the requesting side, 2, to move. Nothing may follow the board.
///
/// ```
/// let text = connect4::run::random_request(3, 10);
/// let state = connect4::protocol::parse_request(text.as_bytes()).unwrap();
/// assert_eq!(connect4::run::request_text(&state, None).lines().nth(1), text.lines().nth(1));
/// assert!(connect4::protocol::parse_request(format!("{text} 7").as_bytes()).is_err());
/// ```
pub fn parse_request(input: impl BufRead) -> Result<GameState, String> {
    let mut t = Tokens::new(input);
    let (m, n, no_x, no_y) = size(&mut t)?;
    let state = read_turn(&mut t, m, n, no_x, no_y)?.ok_or("missing lastX lastY")?;
    if let Some(extra) = t.next_int()? {
        return Err(format!(
            "unexpected `{extra}` after the board: one request is M N noX noY lastX lastY, \
             {n} top values and {} board values",
            m * n
        ));
    }
    Ok(state)
}

/// Reads every turn of a Saiblo text stream (`M N noX noY`, then per turn `lastX lastY`,
/// `top`, board) without playing: the positions in order, or the first error.
pub fn parse_saiblo_stream(input: impl BufRead) -> Result<Vec<GameState>, String> {
    let mut t = Tokens::new(input);
    let (m, n, no_x, no_y) = size(&mut t)?;
    let mut turns = Vec::new();
    while let Some(state) = read_turn(&mut t, m, n, no_x, no_y)? {
        turns.push(state);
    }
    Ok(turns)
}

/// Answers one `getPoint` call given as text.
///
/// ```
/// use connect4::{protocol::get_point, engine::{Engine, EngineConfig}};
/// let mut text = String::from("9 9 0 0 -1 -1\n");
/// text += &"9 ".repeat(9);
/// text += &" 0".repeat(81);
/// let mut e = Engine::new(EngineConfig { iterations: Some(200), ..Default::default() });
/// let (x, y) = get_point(text.as_bytes(), &mut e).unwrap();
/// assert_eq!(x, 8);
/// assert!(y < 9);
/// ```
pub fn get_point(input: impl BufRead, engine: &mut Engine) -> Result<(usize, usize), String> {
    // The budget counts from the moment the request has been read.
    get_point_from(input, engine, None)
}

/// [`get_point`] with the budget counted from `start` (the command's own start, so that
/// reading the request is inside it), or from when the request has been read.
pub fn get_point_from(
    input: impl BufRead,
    engine: &mut Engine,
    start: Option<std::time::Instant>,
) -> Result<(usize, usize), String> {
    let state = parse_request(input)?;
    let start = start.unwrap_or_else(std::time::Instant::now);
    let y = engine.choose_from(&state, start);
    Ok((
        state
            .board
            .landing_row(y)
            .expect("the engine plays an open column"),
        y,
    ))
}

/// Plays one game of the online judge's text protocol on `input`/`output`.
pub fn saiblo(
    input: impl BufRead,
    mut output: impl Write,
    engine: &mut Engine,
) -> Result<usize, String> {
    let mut t = Tokens::new(input);
    let (m, n, no_x, no_y) = size(&mut t)?;
    let mut turns = 0;
    while let Some(state) = read_turn(&mut t, m, n, no_x, no_y)? {
        let y = engine.choose_from(&state, std::time::Instant::now());
        let x = state
            .board
            .landing_row(y)
            .expect("the engine plays an open column");
        let msg = format!("{x} {y}");
        output
            .write_all(&(msg.len() as u32).to_be_bytes())
            .map_err(|e| e.to_string())?;
        output
            .write_all(msg.as_bytes())
            .map_err(|e| e.to_string())?;
        output.flush().map_err(|e| e.to_string())?;
        turns += 1;
    }
    Ok(turns)
}

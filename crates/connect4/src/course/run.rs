//! The batch job (`connect4 run DIR`), in the same form as the other tools': every `.txt` file
//! is one `getPoint` request (the `move` format) answered with `x y`, every `.7x6` file a list
//! of standard 7x6 positions (Pons' notation) answered with their exact scores. The engine runs
//! on a fixed, seeded number of iterations here, so the outputs are the same on every run and
//! machine. Also the writer of requests and a generator of them from seeded random games.

use crate::course::compete::random_board;
use crate::course::protocol::get_point;
use crate::engine::{Engine, EngineConfig, GameState};
use crate::solver7x6::{Position, Solver};
use batch::InputError;
use rand::{Rng, SeedableRng};
use search_core::SmallRng;
use std::fmt::Write;
use std::path::Path;

/// Whether `p` is an input of `connect4 run`: a request (`.txt`, not an `output*` file) or a
/// 7x6 position list (`.7x6`).
pub fn is_job_file(p: &Path) -> bool {
    batch::is_txt_input(p) || p.extension().is_some_and(|e| e == "7x6")
}

/// The `getPoint` request for `state` as text, the side to move being "self" (2): the line
/// `M N noX noY lastX lastY` (`-1 -1` when no stone was played yet), the `top` line, then the
/// board row by row, as `connect4 move` reads it.
///
/// ```
/// use connect4::{engine::GameState, run::request_text, Board};
/// let mut s = GameState::new(Board::new(9, 9, 0, 0), 1);
/// s.play(4);
/// let text = request_text(&s, Some((8, 4)));
/// assert!(text.starts_with("9 9 0 0 8 4\n9 9 9 9 8 9 9 9 9\n"));
/// assert!(text.ends_with("0 0 0 0 1 0 0 0 0\n"));
/// ```
pub fn request_text(state: &GameState, last: Option<(usize, usize)>) -> String {
    let b = &state.board;
    let (top, cells) = b.course_view(state.to_move);
    let join = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    let (lx, ly) = last.map_or((-1, -1), |(x, y)| (x as i64, y as i64));
    let mut out = format!(
        "{} {} {} {} {lx} {ly}\n{}\n",
        b.m,
        b.n,
        b.no_x,
        b.no_y,
        join(&top)
    );
    for row in cells.chunks(b.n) {
        out.push_str(&join(row));
        out.push('\n');
    }
    out
}

/// A request on a random course board (9..12 by 9..12, the obstacle anywhere) after `plies`
/// seeded random moves that neither end the game nor leave a win in one for the side to move
/// (so the request asks a real question); fewer plies when the game cannot go on that way.
///
/// ```
/// let a = connect4::run::random_request(5, 12);
/// assert_eq!(a, connect4::run::random_request(5, 12));
/// let mut e = connect4::engine::Engine::new(connect4::engine::EngineConfig {
///     iterations: Some(100),
///     ..Default::default()
/// });
/// assert!(connect4::protocol::get_point(a.as_bytes(), &mut e).is_ok());
/// ```
pub fn random_request(seed: u64, plies: usize) -> String {
    random_request_played(seed, plies).0
}

/// [`random_request`], with how many stones it played: fewer than `plies` when every move
/// would end the game or hand the opponent a win first.
///
/// ```
/// let (text, played) = connect4::run::random_request_played(5, 12);
/// assert_eq!((text, played), (connect4::run::random_request(5, 12), 12));
/// ```
pub fn random_request_played(seed: u64, plies: usize) -> (String, usize) {
    let mut played = 0;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = GameState::new(random_board(&mut rng, None), 1);
    let mut last = None;
    for _ in 0..plies {
        let open: Vec<usize> = (0..state.board.n)
            .filter(|&y| {
                state.board.can_play(y) && {
                    let mut next = state.clone();
                    next.play(y);
                    next.result.is_none()
                        && !(0..next.board.n).any(|z| next.board.would_win(z, next.to_move))
                }
            })
            .collect();
        if open.is_empty() {
            break;
        }
        let y = open[rng.random_range(0..open.len())];
        let x = state.board.landing_row(y).expect("an open column");
        state.play(y);
        last = Some((x, y));
        played += 1;
    }
    (request_text(&state, last), played)
}

/// The engine `run` answers requests with: `iterations` MCTS iterations per move, seeded.
/// The iteration and node budgets alone bound the work: the clock is set far off, so that a
/// busy machine (a parallel build, other tests) cannot cut a phase short and change the answer.
pub fn batch_engine(iterations: u64, seed: u64) -> Engine {
    Engine::new(EngineConfig {
        iterations: Some(iterations),
        seed,
        time: std::time::Duration::from_secs(3600),
        ..Default::default()
    })
}

/// Answers one request file's text: `x y` and a newline.
pub fn answer_request(text: &str, engine: &mut Engine) -> Result<String, InputError> {
    engine.reset();
    let (x, y) = get_point(text.as_bytes(), engine).map_err(|e| InputError::at(0, e))?;
    Ok(format!("{x} {y}\n"))
}

/// Solves a 7x6 position list (`moves [score]` per line, blank lines and `#` comments
/// skipped): one `moves score` line per position. Every line is parsed before any is solved.
pub fn solve_7x6(text: &str, solver: &mut Solver) -> Result<String, InputError> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        if moves.starts_with('#') {
            continue;
        }
        let p = Position::parse(moves).map_err(|e| InputError::at(i + 1, e))?;
        positions.push((moves.to_string(), p));
    }
    if positions.is_empty() {
        return Err(InputError::at(0, "no position in the file"));
    }
    let mut out = String::new();
    for (moves, p) in &positions {
        let _ = writeln!(out, "{moves} {}", solver.solve(p, false));
    }
    Ok(out)
}

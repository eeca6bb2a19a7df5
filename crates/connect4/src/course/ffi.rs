//! The course's C ABI: `getPoint` and `clearPoint`, exported from the `cdylib` build so the
//! library drops into the course's match tool (and Saiblo-style harnesses) unchanged.
//!
//! `getPoint` copies the harness's arrays (it must not write through them), rebuilds the board
//! with its own stones as 2, and asks the engine, which keeps its tree between the moves of one
//! game. A new game in the same process is recognised when the board no longer follows from the
//! previous one (first move, different size or obstacle, or stones that do not add up), and the
//! engine is re-initialised. The time per move is 1 s (two seconds inside the course's 3 s), or
//! `CONNECT4_TIME_MS`; one thread, or `CONNECT4_THREADS`. A panic never crosses the C boundary:
//! the first legal move is returned.
#![allow(unsafe_code)]

use crate::engine::{Engine, EngineConfig, GameState};
use crate::rules::board::Board;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The course's `Point`: two ints, x (row) then y (column).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Row (0 at the top).
    pub x: i32,
    /// Column.
    pub y: i32,
}

struct Session {
    engine: Engine,
    shape: (usize, usize, usize, usize),
    stones: usize,
}

static SESSION: Mutex<Option<Session>> = Mutex::new(None);

fn time_budget() -> Duration {
    std::env::var("CONNECT4_TIME_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(crate::engine::DEFAULT_LIBRARY_BUDGET, Duration::from_millis)
}

/// Threads per move from `CONNECT4_THREADS` (1 to 64; 1 when unset or invalid).
fn threads() -> usize {
    std::env::var("CONNECT4_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|t| (1..=64).contains(t))
        .unwrap_or(1)
}

/// Decides a move for a board given as the course passes it (safe core of `getPoint`), within
/// the time budget counted from `start`, when the request arrived.
#[allow(clippy::too_many_arguments)] // the course's getPoint arguments, and the clock's start
pub fn decide(
    m: usize,
    n: usize,
    top: &[i32],
    board: &[i32],
    last_x: i32,
    no_x: usize,
    no_y: usize,
    start: Instant,
) -> Option<(usize, usize)> {
    let b = Board::from_course(m, n, top, board, no_x, no_y, 2).ok()?;
    let stones = board.iter().filter(|&&v| v != 0).count();
    let shape = (m, n, no_x, no_y);
    let mut guard = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    let fresh = match guard.as_ref() {
        Some(s) => s.shape != shape || last_x < 0 || stones != s.stones + 2,
        None => true,
    };
    if fresh {
        *guard = Some(Session {
            engine: Engine::new(EngineConfig {
                time: time_budget(),
                threads: threads(),
                ..Default::default()
            }),
            shape,
            stones,
        });
    }
    let session = guard.as_mut()?;
    session.stones = stones + 1;
    let state = GameState::new(b, 2);
    // The budget counts from the request's arrival: a new session's tables are on its clock.
    let y = session.engine.choose_from(&state, start);
    Some((state.board.landing_row(y)?, y))
}

/// The first cell, column by column, that the judge accepts (`top[y] == x + 1`, not the
/// obstacle) and that is empty on `board`: the answer to a request too inconsistent to search.
///
/// ```
/// use connect4::ffi::first_legal_cell;
/// // Column 0's top points at the obstacle (1, 0), column 1's at a taken cell.
/// let mut board = vec![0; 27];
/// board[8 * 3 + 1] = 1;
/// assert_eq!(first_legal_cell(9, 3, &[2, 9, 9], &board, (1, 0)), Some((8, 2)));
/// ```
pub fn first_legal_cell(
    m: usize,
    n: usize,
    top: &[i32],
    board: &[i32],
    obstacle: (usize, usize),
) -> Option<(usize, usize)> {
    (0..n).find_map(|y| {
        let t = usize::try_from(*top.get(y)?).ok()?;
        let x = t.checked_sub(1).filter(|&x| x < m)?;
        ((x, y) != obstacle && board.get(x * n + y) == Some(&0)).then_some((x, y))
    })
}

/// The course's `getPoint`.
///
/// # Safety
/// `top` must point to `n` ints and `board` to `m * n` ints, as the course's harness passes them.
#[no_mangle]
#[allow(non_snake_case)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn getPoint(
    m: i32,
    n: i32,
    top: *const i32,
    board: *const i32,
    last_x: i32,
    _last_y: i32,
    no_x: i32,
    no_y: i32,
) -> *mut Point {
    let start = Instant::now();
    let (mu, nu) = (m.max(0) as usize, n.max(0) as usize);
    if top.is_null() || board.is_null() || mu == 0 || nu == 0 {
        return Box::into_raw(Box::new(Point { x: -1, y: -1 }));
    }
    // SAFETY: the harness passes arrays of these lengths; they are only read, then copied.
    let top = unsafe { std::slice::from_raw_parts(top, nu) }.to_vec();
    let board = unsafe { std::slice::from_raw_parts(board, mu * nu) }.to_vec();
    let (nx, ny) = (no_x.max(0) as usize, no_y.max(0) as usize);
    let answer = std::panic::catch_unwind(|| decide(mu, nu, &top, &board, last_x, nx, ny, start))
        .ok()
        .flatten();
    let (x, y) = answer
        .or_else(|| {
            // Fallback for a request the judge could not send (inconsistent arrays): the first
            // cell the judge accepts that is also empty on the board.
            first_legal_cell(mu, nu, &top, &board, (nx, ny))
        })
        .unwrap_or((0, 0));
    Box::into_raw(Box::new(Point {
        x: x as i32,
        y: y as i32,
    }))
}

/// The course's `clearPoint`: frees a `Point` returned by [`getPoint`].
///
/// # Safety
/// `p` must come from [`getPoint`] of this library and not have been freed.
#[no_mangle]
#[allow(non_snake_case)]
pub unsafe extern "C" fn clearPoint(p: *mut Point) {
    if !p.is_null() {
        // SAFETY: `p` was created by Box::into_raw in getPoint.
        drop(unsafe { Box::from_raw(p) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_the_engine_cannot_hold_get_the_first_open_column() {
        // 9 rows x 13 columns: one column more than the bitboards hold.
        let (m, n) = (9i32, 13usize);
        let mut top = vec![m; n];
        top[0] = 0; // column 0 is full
        let mut board = vec![0; m as usize * n];
        for x in 0..m as usize {
            board[x * n] = 1 + (x % 2) as i32;
        }
        assert_eq!(decide(9, 13, &top, &board, -1, 4, 4, Instant::now()), None);
        // SAFETY: `top` and `board` hold n and m * n ints; the point is freed by clearPoint.
        let p = unsafe { getPoint(m, n as i32, top.as_ptr(), board.as_ptr(), -1, -1, 4, 4) };
        let (x, y) = unsafe { ((*p).x, (*p).y) };
        unsafe { clearPoint(p) };
        assert_eq!((x, y), (8, 1));
    }
}

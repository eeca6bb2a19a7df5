//! The course's match tool, `Compete`, rebuilt (spec §6): each round draws a random board and
//! obstacle (seeded) and plays two games on it, A first then B first; 3 s per move; a crash, an
//! illegal move or a timeout loses; result codes, console messages and the result file as the
//! course tool writes them.
//!
//! A contestant is a built-in player or a shared library exposing `getPoint`/`clearPoint`.
//! Libraries never run inside the harness: each game starts a child process (this binary's
//! hidden `host-lib` command) that loads the library and answers requests in the `getPoint`
//! text format, so a crash or a hang kills only the child and is scored, as the course tool
//! scores it, as a bug or a timeout.

use crate::engine::agents::{builtin, Player};
use crate::rules::board::Board;
use crate::rules::game_state::GameState;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Time allowed per move.
pub const MOVE_TIME: Duration = Duration::from_secs(3);

/// Memory allowed to a library's process, in MiB (the course allows 1 GB); `compete
/// --memory-mb` changes it. A library that needs more fails to allocate and, as under the
/// course tool, typically crashes: a loss, with the harness unharmed.
pub static MEMORY_LIMIT_MB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1024);

/// Who plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contestant {
    /// A built-in player spec (`random`, `greedy`, `alphabeta:D`, `mcts:MS`, `mcts-lgr:MS`, `mcts-tt:MS`).
    Builtin(String),
    /// A shared library with `getPoint`/`clearPoint`.
    Library(PathBuf),
}

impl Contestant {
    /// A library when the argument names an existing file, a built-in otherwise.
    pub fn parse(s: &str) -> Result<Contestant, String> {
        let p = PathBuf::from(s);
        if p.is_file() {
            return Ok(Contestant::Library(p));
        }
        builtin(s, 0).map(|_| Contestant::Builtin(s.to_string())).ok_or_else(|| format!("`{s}` is neither a file nor a built-in player (random, greedy, alphabeta:D with D from 1 to 10, mcts:MS, mcts-lgr:MS, mcts-tt:MS)"))
    }

    /// Whether the contestant can play: a library is loaded once in a host process, and one
    /// that cannot be loaded or lacks `getPoint`/`clearPoint` is named with the loader's reason.
    /// (Such a player still plays, as under the course tool: it loses each game as a crash.)
    pub fn probe(&self) -> Result<(), String> {
        match self {
            Contestant::Library(path) => load_library(path).map(|_| ()).map_err(|(_, why)| why),
            Contestant::Builtin(_) => Ok(()),
        }
    }
}

/// A `host-lib` process that has loaded the library at `path`, or the failure as the match
/// scores it and why, with the loader's reason.
fn load_library(path: &std::path::Path) -> Result<batch::LineProcess, (Failure, String)> {
    let shown = path.display();
    let mut host = spawn_host(path).map_err(|e| (Failure::Load, format!("{shown}: {e}")))?;
    let line = host.wait_for(Instant::now() + Duration::from_secs(10), |_| true);
    match line.as_deref() {
        Ok("READY") => Ok(host),
        Ok(l) if l.starts_with("INTERFACE") => Err((
            Failure::Interface,
            format!(
                "{shown}: the library lacks {} (the course's interface)",
                l["INTERFACE".len()..].trim()
            ),
        )),
        Ok(l) => Err((
            Failure::Load,
            format!(
                "{shown}: cannot be loaded as a library: {}",
                l.strip_prefix("LOAD").unwrap_or(l).trim()
            ),
        )),
        Err(batch::WaitError::Timeout) => {
            Err((Failure::Load, format!("{shown}: loading took over 10 s")))
        }
        Err(batch::WaitError::Exited) => Err((
            Failure::Load,
            format!("{shown}: the process loading it crashed"),
        )),
    }
}

/// A `host-lib` child process for the library at `path`.
fn spawn_host(path: &std::path::Path) -> std::io::Result<batch::LineProcess> {
    let exe = std::env::current_exe()?;
    let limit = MEMORY_LIMIT_MB.load(std::sync::atomic::Ordering::Relaxed);
    let mut command = Command::new(exe);
    command
        .arg("host-lib")
        .arg("--memory-mb")
        .arg(limit.to_string())
        .arg(path);
    batch::LineProcess::spawn(command)
}

/// Why a side lost without losing on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Crashed (or answered nonsense).
    Bug,
    /// Too slow.
    Timeout,
    /// The library could not be loaded.
    Load,
    /// The library lacks getPoint or clearPoint.
    Interface,
}

/// One side of a game in progress.
enum Mover {
    Builtin(Box<dyn Player>),
    Library(batch::LineProcess),
}

impl Mover {
    fn start(c: &Contestant, seed: u64) -> Result<Mover, Failure> {
        match c {
            Contestant::Builtin(spec) => Ok(Mover::Builtin(
                builtin(spec, seed).ok_or(Failure::Interface)?,
            )),
            Contestant::Library(path) => load_library(path)
                .map(Mover::Library)
                .map_err(|(failure, _)| failure),
        }
    }

    fn choose(&mut self, state: &GameState, last: (i32, i32)) -> Result<(usize, usize), Failure> {
        match self {
            Mover::Builtin(p) => {
                let y = p.choose(state);
                let x = state.board.landing_row(y).ok_or(Failure::Bug)?;
                Ok((x, y))
            }
            Mover::Library(child) => {
                let b = &state.board;
                let (top, board) = b.course_view(state.to_move);
                let text = format!(
                    "{} {} {} {} {} {}\n{}\n{}\n",
                    b.m,
                    b.n,
                    b.no_x,
                    b.no_y,
                    last.0,
                    last.1,
                    top.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    board
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                if child.send(text.trim_end()).is_err() {
                    return Err(Failure::Bug);
                }
                match child.recv_timeout(MOVE_TIME + Duration::from_millis(200)) {
                    Ok(l) => {
                        let v: Vec<i64> = l
                            .split_whitespace()
                            .filter_map(|t| t.parse().ok())
                            .collect();
                        match v[..] {
                            [x, y] if x >= 0 && y >= 0 => Ok((x as usize, y as usize)),
                            [_, _] => Ok((usize::MAX, usize::MAX)),
                            _ => Err(Failure::Bug),
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        child.kill();
                        Err(Failure::Timeout)
                    }
                    Err(_) => Err(Failure::Bug),
                }
            }
        }
    }
}

/// The outcome of one game: the course's result code and each side's thinking time.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// 0 tie, 1 A wins, 2 B wins, 3 A bug, 4 A illegal, 5 B bug, 6 B illegal, 7 A timeout,
    /// 8 B timeout, −1/−2 A/B cannot be loaded, −3/−4 A/B lacks the interface.
    pub code: i32,
    /// A's total thinking time.
    pub time_a: Duration,
    /// B's total thinking time.
    pub time_b: Duration,
    /// The final board (A = player 1 when A moved first).
    pub board: Board,
    /// The columns played, in order (from 0; the first mover's first), so a game can be
    /// replayed and analysed.
    pub moves: Vec<usize>,
    /// The wall time of each of A's moves, then of each of B's, from the request to the answer.
    pub move_times: [Vec<Duration>; 2],
}

/// Plays one game on an empty `board`; `a_first` says who moves first.
pub fn play_game(
    a: &Contestant,
    b: &Contestant,
    board: Board,
    a_first: bool,
    seed: u64,
) -> GameRecord {
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut moves = Vec::new();
    let record =
        |code: i32, board: &Board, times: &[Vec<Duration>; 2], moves: &[usize]| GameRecord {
            code,
            time_a: times[0].iter().sum(),
            time_b: times[1].iter().sum(),
            board: board.clone(),
            moves: moves.to_vec(),
            move_times: times.clone(),
        };
    let fail =
        |side: usize, f: Failure, board: &Board, times: &[Vec<Duration>; 2], moves: &[usize]| {
            let code = match (side, f) {
                (0, Failure::Bug) => 3,
                (0, Failure::Timeout) => 7,
                (0, Failure::Load) => -1,
                (0, Failure::Interface) => -3,
                (_, Failure::Bug) => 5,
                (_, Failure::Timeout) => 8,
                (_, Failure::Load) => -2,
                (_, Failure::Interface) => -4,
            };
            record(code, board, times, moves)
        };
    let mut movers = Vec::with_capacity(2);
    for (side, c) in [a, b].into_iter().enumerate() {
        match Mover::start(c, seed.wrapping_add(side as u64)) {
            Ok(m) => movers.push(m),
            Err(f) => return fail(side, f, &board, &times, &moves),
        }
    }
    // Player 1 moves first; side 0 is A.
    let side_of = |player: u8| if (player == 1) == a_first { 0 } else { 1 };
    let mut state = GameState::new(board, 1);
    let mut last = (-1, -1);
    loop {
        let side = side_of(state.to_move);
        let t = Instant::now();
        let answer = movers[side].choose(&state, last);
        let took = t.elapsed();
        times[side].push(took);
        let (x, y) = match answer {
            Ok(p) => p,
            Err(f) => return fail(side, f, &state.board, &times, &moves),
        };
        if took > MOVE_TIME {
            return fail(side, Failure::Timeout, &state.board, &times, &moves);
        }
        if !state.board.is_legal(x, y) {
            return record(if side == 0 { 4 } else { 6 }, &state.board, &times, &moves);
        }
        state.play(y);
        moves.push(y);
        last = (x as i32, y as i32);
        match state.result {
            Some(0) => return record(0, &state.board, &times, &moves),
            Some(_) => return record(if side == 0 { 1 } else { 2 }, &state.board, &times, &moves),
            None => {}
        }
    }
}

/// A random board as the course tool draws it: 9..12 rows and columns, the obstacle anywhere;
/// or, with `size` (rows, columns), a board of that size with the obstacle anywhere.
///
/// ```
/// use connect4::compete::random_board;
/// use rand::SeedableRng;
/// use search_core::SmallRng;
/// let mut rng = SmallRng::seed_from_u64(1);
/// let b = random_board(&mut rng, None);
/// assert!((9..=12).contains(&b.m) && (9..=12).contains(&b.n));
/// let b = random_board(&mut rng, Some((9, 10)));
/// assert_eq!((b.m, b.n), (9, 10));
/// assert!(b.no_x < 9 && b.no_y < 10);
/// ```
pub fn random_board(rng: &mut search_core::SmallRng, size: Option<(usize, usize)>) -> Board {
    let (m, n) = size.unwrap_or_else(|| (rng.random_range(9..=12), rng.random_range(9..=12)));
    let no_x = rng.random_range(0..m);
    let no_y = rng.random_range(0..n);
    Board::new(m, n, no_x, no_y)
}

/// Who gets the point for a result code: Some(true) A, Some(false) B, None tie or nobody.
pub fn winner(code: i32) -> Option<Option<bool>> {
    match code {
        0 => Some(None),
        1 | 5 | 6 | 8 => Some(Some(true)),
        2 | 3 | 4 | 7 => Some(Some(false)),
        _ => None,
    }
}

/// The course tool's message for a result code.
pub fn message(code: i32) -> &'static str {
    match code {
        0 => "A and B tied",
        1 => "A - won",
        2 => "B - won",
        3 => "A - bug occurred",
        4 => "A - made illegal step",
        5 => "B - bug occurred",
        6 => "B - made illegal step",
        7 => "A - timed out",
        8 => "B - timed out",
        -1 => "Load File A Error",
        -2 => "Load File B Error",
        -3 => "Function Interface Error in A",
        _ => "Function Interface Error in B",
    }
}

/// A double printed as C++'s default `ostream` does (6 significant digits, no trailing zeros).
///
/// ```
/// use connect4::compete::cpp_double;
/// assert_eq!(cpp_double(0.5), "0.5");
/// assert_eq!(cpp_double(1.0), "1");
/// assert_eq!(cpp_double(1.0 / 3.0), "0.333333");
/// assert_eq!(cpp_double(1.0 / 12.0), "0.0833333");
/// ```
pub fn cpp_double(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let exp = x.abs().log10().floor() as i32;
    let decimals = (5 - exp).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The result file of a match (`rounds` pairs of records, A first then B first).
pub fn result_file(records: &[(GameRecord, GameRecord)]) -> String {
    let mut s = String::new();
    let (mut a, mut b, mut tie) = (0, 0, 0);
    for (i, pair) in records.iter().enumerate() {
        s += &format!("{i}:\n");
        for r in [&pair.0, &pair.1] {
            s += &format!(
                "{}\t{}\t{}\n",
                r.code,
                r.time_a.as_secs(),
                r.time_b.as_secs()
            );
            match winner(r.code) {
                Some(None) => tie += 1,
                Some(Some(true)) => a += 1,
                Some(Some(false)) => b += 1,
                None => {}
            }
        }
        s += "\n";
    }
    let total = (2 * records.len()).max(1) as f64;
    s += "Stat:\n";
    s += &format!("ratio of A wins : {}\n", cpp_double(a as f64 / total));
    s += &format!("ratio of B wins : {}\n", cpp_double(b as f64 / total));
    s += &format!("ratio of Tie : {}\n\n", cpp_double(tie as f64 / total));
    s += &format!(
        "ratio of (A wins + tie) : {}\n",
        cpp_double((a + tie) as f64 / total)
    );
    s += &format!(
        "ratio of (B wins + tie) : {}\n",
        cpp_double((b + tie) as f64 / total)
    );
    s
}

/// Plays `rounds` rounds (two games each) with `jobs` games at once, on random boards
/// ([`random_board`], of `size` when given); `on_game` sees each finished game (round, A
/// first?, record) for console output and progress.
pub fn run_match(
    a: &Contestant,
    b: &Contestant,
    rounds: usize,
    seed: u64,
    size: Option<(usize, usize)>,
    jobs: usize,
    on_game: impl Fn(usize, bool, &GameRecord) + Sync,
) -> Vec<(GameRecord, GameRecord)> {
    let mut rng = search_core::SmallRng::seed_from_u64(seed);
    let boards: Vec<Board> = (0..rounds).map(|_| random_board(&mut rng, size)).collect();
    batch::parallel_map(
        rounds,
        jobs,
        || (),
        |_, i| {
            let g1 = play_game(a, b, boards[i].clone(), true, seed ^ (2 * i as u64));
            on_game(i, true, &g1);
            let g2 = play_game(a, b, boards[i].clone(), false, seed ^ (2 * i as u64 + 1));
            on_game(i, false, &g2);
            (g1, g2)
        },
    )
}

/// Caps this process's address space at `mb` MiB plus room for the host itself (Unix; elsewhere
/// nothing is enforced).
#[cfg(unix)]
#[allow(unsafe_code)]
fn limit_memory(mb: u64) {
    // The host binary and its stack need some address space of their own before the library
    // allocates anything.
    const HOST_ROOM_MB: u64 = 128;
    let bytes = (mb + HOST_ROOM_MB).saturating_mul(1 << 20);
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: bytes as libc::rlim_t,
    };
    // SAFETY: setrlimit only reads the struct passed by reference.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &limit);
    }
}

#[cfg(not(unix))]
fn limit_memory(_mb: u64) {}

/// The `host-lib` side: cap memory at `memory_mb` MiB, load a library and answer `getPoint`
/// requests on stdin until EOF.
#[allow(unsafe_code)]
pub fn host_library(path: &std::path::Path, memory_mb: u64) -> i32 {
    limit_memory(memory_mb);
    type GetPoint = unsafe extern "C" fn(
        i32,
        i32,
        *const i32,
        *const i32,
        i32,
        i32,
        i32,
        i32,
    ) -> *mut crate::course::ffi::Point;
    type ClearPoint = unsafe extern "C" fn(*mut crate::course::ffi::Point);
    // SAFETY: loading a library runs its initialisers; that is the point of this child process,
    // which the harness treats as untrusted (crashes end only this process).
    let lib = match unsafe { libloading::Library::new(path) } {
        Ok(l) => l,
        Err(e) => {
            println!("LOAD {e}");
            return 3;
        }
    };
    // SAFETY: the symbols are declared with the course's signatures.
    let (get, clear) = match unsafe {
        (
            lib.get::<GetPoint>(b"getPoint\0"),
            lib.get::<ClearPoint>(b"clearPoint\0"),
        )
    } {
        (Ok(g), Ok(c)) => (g, c),
        (g, c) => {
            let missing: Vec<&str> = [("getPoint", g.is_err()), ("clearPoint", c.is_err())]
                .iter()
                .filter(|m| m.1)
                .map(|m| m.0)
                .collect();
            println!("INTERFACE {}", missing.join(" and "));
            return 4;
        }
    };
    println!("READY");
    let _ = std::io::stdout().flush();
    let stdin = std::io::stdin();
    let mut tokens = crate::course::protocol::Tokens::new(stdin.lock());
    loop {
        let Ok(Some(m)) = tokens.next_int() else {
            return 0;
        };
        let read = |t: &mut crate::course::protocol::Tokens<_>, k: usize| t.many(k, "request");
        let Ok(head) = read(&mut tokens, 5) else {
            return 1;
        };
        let (n, no_x, no_y, last_x, last_y) = (head[0], head[1], head[2], head[3], head[4]);
        let Ok(top) = read(&mut tokens, n as usize) else {
            return 1;
        };
        let Ok(board) = read(&mut tokens, (m * n as i64) as usize) else {
            return 1;
        };
        // SAFETY: arrays of the sizes the course promises, alive for the call.
        let p = unsafe {
            get(
                m as i32,
                n,
                top.as_ptr(),
                board.as_ptr(),
                last_x,
                last_y,
                no_x,
                no_y,
            )
        };
        if p.is_null() {
            println!("-1 -1");
        } else {
            // SAFETY: a non-null Point from getPoint, freed by the library's own clearPoint.
            let (x, y) = unsafe { ((*p).x, (*p).y) };
            unsafe { clear(p) };
            println!("{x} {y}");
        }
        let _ = std::io::stdout().flush();
    }
}

//! `othello nboard`: the engine side of the NBoard protocol, the line protocol the NBoard GUI
//! and engines such as NTest and Edax speak (spec §12), so this engine plugs into an Othello
//! GUI and plays other engines. The game comes as GGF (`set game`), moves one by one (`move`);
//! `go` answers `=== MOVE/EVAL/TIME` and `hint N` streams `search MOVE EVAL 0 DEPTH` lines for
//! the N best moves as it deepens. A reader thread forwards the input, and any new line stops
//! a running search (the GUI sends `ping` when the position changes and waits for `pong`). The
//! thinking itself is [`crate::search::engine`].

use crate::formats::ggf::{ggf_move, GgfGame};
use crate::rules::position::Position;
use crate::search::engine::*;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Runs an NBoard session: reads commands from `input` until it ends (or `quit`), writes the
/// answers to `output` and complaints about bad commands to `errors` (with the input line).
///
/// ```
/// use othello::nboard::serve;
/// let session = "nboard 2\nset depth 2\n\
///     set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
///     go\nping 7\n";
/// let mut out = Vec::new();
/// serve(session.as_bytes(), &mut out, &mut std::io::sink()).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.lines().any(|l| l.starts_with("=== ")));
/// assert!(out.lines().any(|l| l == "pong 7"));
/// ```
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    errors: impl Write,
) -> std::io::Result<()> {
    serve_with(Some(DEFAULT_PROBCUT_CONFIDENCE), input, output, errors)
}

/// [`serve`] with the midgame search's Multi-ProbCut at `probcut` hundredths of a standard
/// deviation (`None`: the full-width search), as `othello nboard --probcut` sets it.
pub fn serve_with(
    probcut: Option<i32>,
    input: impl BufRead + Send + 'static,
    output: impl Write,
    errors: impl Write,
) -> std::io::Result<()> {
    serve_engine(probcut, None, input, output, errors)
}

/// [`serve_with`] with an opening book: `go` in a position the book has moves for plays the
/// best of them at once, says so (`status Book MOVE`), and answers with its value.
pub fn serve_engine(
    probcut: Option<i32>,
    book: Option<Arc<crate::search::book::Book>>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    mut errors: impl Write,
) -> std::io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    // Lines the reader has sent; `stop` is set with each, and reset (under the same lock) to
    // whether any line is still waiting when the main loop takes one, so a search is stopped
    // exactly when a command is waiting behind it.
    let sent = Arc::new(Mutex::new(0usize));
    let (tx, rx) = channel::<(usize, Result<String, String>)>();
    // The reader is not joined: after `quit` it may still wait on input that never comes.
    let (reader_stop, reader_sent) = (stop.clone(), sent.clone());
    std::thread::spawn(move || {
        let mut input = input;
        for number in 1.. {
            // A line that cannot be read (not UTF-8, too long) is reported and skipped.
            let mut line = String::new();
            let read = match batch::read_line_capped(&mut input, &mut line, number) {
                Ok(false) => break,
                Ok(true) => Ok(line),
                Err(e) => Err(e),
            };
            let mut count = reader_sent.lock().unwrap_or_else(|e| e.into_inner());
            if tx.send((number, read)).is_err() {
                break;
            }
            *count += 1;
            reader_stop.store(true, Ordering::SeqCst);
        }
    });
    let mut session = Session::new(stop.clone(), probcut);
    session.book = book;
    let mut taken = 0usize;
    loop {
        let Ok((number, line)) = rx.recv() else {
            return Ok(());
        };
        taken += 1;
        {
            let count = sent.lock().unwrap_or_else(|e| e.into_inner());
            stop.store(*count > taken, Ordering::SeqCst);
        }
        let line = match line {
            Ok(line) => line,
            Err(message) => {
                writeln!(errors, "nboard: {message}")?;
                errors.flush()?;
                continue;
            }
        };
        match session.handle(&line, &mut output) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => return Ok(()),
            Err(Complaint::Io(e)) => return Err(e),
            Err(Complaint::Input(message)) => {
                writeln!(errors, "nboard: line {number}: {message}")?;
                errors.flush()?;
            }
        }
        output.flush()?;
    }
}

enum Flow {
    Continue,
    Quit,
}

enum Complaint {
    Io(std::io::Error),
    Input(String),
}

impl From<std::io::Error> for Complaint {
    fn from(e: std::io::Error) -> Complaint {
        Complaint::Io(e)
    }
}

/// The engine's state between commands.
struct Session {
    depth: u32,
    /// Seconds a move may take at most (0: no limit).
    time_limit: f64,
    game: GgfGame,
    thinker: Thinker,
    book: Option<Arc<crate::search::book::Book>>,
}

impl Session {
    fn new(stop: Arc<AtomicBool>, probcut: Option<i32>) -> Session {
        Session {
            depth: DEFAULT_DEPTH,
            time_limit: DEFAULT_TIME_LIMIT,
            game: GgfGame::new(Position::default()),
            thinker: Thinker::with_probcut(stop, probcut),
            book: None,
        }
    }

    fn handle(&mut self, line: &str, out: &mut impl Write) -> Result<Flow, Complaint> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "nboard" => {
                if rest != "2" {
                    return Err(Complaint::Input(format!(
                        "protocol version `{rest}`: this engine speaks version 2"
                    )));
                }
                writeln!(out, "set myname {ENGINE_NAME}")?;
            }
            "set" => self.set(rest)?,
            "move" => {
                let (mv, eval, time) =
                    crate::formats::ggf::parse_move(rest).map_err(Complaint::Input)?;
                self.game
                    .push(mv, eval, time)
                    .map_err(|e| Complaint::Input(format!("move {e}")))?;
            }
            "go" => {
                let started = Instant::now();
                writeln!(out, "status Thinking")?;
                out.flush()?;
                let p = self.game.position();
                if let Some(m) = self.book.as_ref().and_then(|b| b.best(&p)) {
                    let secs = started.elapsed().as_secs_f64();
                    writeln!(out, "status Book {}", ggf_move(m.mv))?;
                    writeln!(out, "=== {}/{:.2}/{secs:.2}", ggf_move(m.mv), m.value)?;
                    writeln!(out, "status")?;
                    return Ok(Flow::Continue);
                }
                let left = self.game.time_left(p.side);
                let budget = MoveBudget::new(started, self.time_limit, left, p.empties());
                match self.thinker.best(&p, self.depth, &budget) {
                    Some(a) => {
                        let secs = started.elapsed().as_secs_f64();
                        writeln!(out, "nodestats {} {secs:.2}", a.nodes)?;
                        writeln!(out, "=== {}/{:.2}/{secs:.2}", ggf_move(a.mv), a.eval)?;
                    }
                    None => {
                        writeln!(out, "status")?;
                        return Err(Complaint::Input("go: the game is over".into()));
                    }
                }
                writeln!(out, "status")?;
            }
            "hint" => {
                let n: usize = rest.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                    Complaint::Input(format!("hint needs a number of moves, not `{rest}`"))
                })?;
                writeln!(out, "status Analyzing")?;
                out.flush()?;
                let p = self.game.position();
                let mut failed = None;
                self.thinker.hint(&p, self.depth, |found| {
                    for a in found.iter().take(n) {
                        let line =
                            format!("search {} {:+.2} 0 {}", ggf_move(a.mv), a.eval, a.depth);
                        if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                            failed = Some(e);
                        }
                    }
                });
                if let Some(e) = failed {
                    return Err(Complaint::Io(e));
                }
                writeln!(out, "status")?;
            }
            "ping" => writeln!(out, "pong {rest}")?,
            "learn" => writeln!(out, "learned")?,
            "analyze" => {}
            "quit" | "exit" => return Ok(Flow::Quit),
            other => {
                return Err(Complaint::Input(format!(
                    "unknown command `{other}` (nboard, set, move, go, hint, ping, learn, quit)"
                )))
            }
        }
        Ok(Flow::Continue)
    }

    fn set(&mut self, rest: &str) -> Result<(), Complaint> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => {
                self.depth = value
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=60).contains(d))
                    .ok_or_else(|| {
                        Complaint::Input(format!("set depth needs 1..60, not `{value}`"))
                    })?;
            }
            "game" => {
                self.game = value
                    .parse::<GgfGame>()
                    .map_err(|e| Complaint::Input(format!("set game: {e}")))?;
            }
            "timelimit" => {
                self.time_limit = value
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && *t >= 0.0)
                    .ok_or_else(|| {
                        Complaint::Input(format!(
                            "set timelimit needs seconds (0 for none), not `{value}`"
                        ))
                    })?;
            }
            "contempt" => {}
            other => {
                return Err(Complaint::Input(format!(
                    "unknown setting `{other}` (depth, game, timelimit, contempt)"
                )))
            }
        }
        Ok(())
    }
}

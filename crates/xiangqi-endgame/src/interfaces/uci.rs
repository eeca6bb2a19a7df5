//! The UCI engine loop, as xiangqi GUIs and tools drive an engine (the dialect Pikafish
//! speaks): the search runs on a thread of its own while the loop keeps reading, so `stop`,
//! `isready` and `quit` are answered at once; an `info depth … score cp|mate … nodes … nps …
//! time … pv …` line follows every completed iteration, then `bestmove`.
//!
//! `go` honours `wtime btime winc binc movestogo` (through [`clock_budget`], which never plans
//! past the clock), `movetime`, `depth`, `nodes`, `mate` (a full-width search to the mate's
//! length) and `infinite` (until `stop`; a bare `go` too). The searcher and its table live
//! across moves; `ucinewgame` clears them, `setoption name Hash value MB` resizes the table,
//! `setoption name Move Overhead value MS` sets the time kept back for the GUI's own delays.
//! The game's moves sent with `position … moves …` feed the repetition rulings.

use crate::board::piece::Color;
use crate::board::square::Move;
use crate::rules::fen::START_FEN;
use crate::rules::position::Position;
use crate::rules::repetition::GameLine;
use crate::search::clock::{clock_budget, movetime_budget, DEFAULT_MOVES_TO_GO};
use crate::search::config::SearchConfig;
use crate::search::engine::{mate_moves, think};
use crate::search::search_position::SearchPosition;
use search_core::{Deadline, GameResult, IterativeOptions, SearchOptions, Searcher};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

/// Transposition table size until `setoption name Hash` says otherwise.
pub const DEFAULT_HASH_MB: usize = 16;
/// Time kept back from every clock budget for the GUI's and the pipe's delays (Stockfish's
/// default too).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// Runs the loop on `input` / `output` until `quit` or end of input (where a bounded search
/// still finishes and an infinite one is stopped).
///
/// ```
/// let mut out = Vec::new();
/// let script = "uci\nisready\nposition fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\ngo depth 3\n";
/// xiangqi_endgame::uci::run(script.as_bytes(), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("uciok") && text.contains("readyok"));
/// assert!(text.contains("score mate 1"));
/// // Either mates: on the king's file, or on its rank (the kings may not face).
/// let answer = text.trim_end().rsplit('\n').next().unwrap();
/// assert!(["bestmove e1e8", "bestmove e1d1"].contains(&answer), "{answer}");
/// ```
/// A line that cannot be read (not UTF-8, too long) is answered with `info string error: …`
/// and skipped: the session goes on.
pub fn run(input: impl BufRead, output: impl Write + Send) -> std::io::Result<()> {
    run_with(SearchConfig::engine(), input, output)
}

/// [`run`] with other search settings than the engine's own (an evaluation, rules of the
/// selective search switched off: experiments measured in games by `match`). Time and depth
/// limits come from each `go`.
pub fn run_with(
    config: SearchConfig,
    mut input: impl BufRead,
    output: impl Write + Send,
) -> std::io::Result<()> {
    let out = Output(Mutex::new(output));
    std::thread::scope(|scope| -> std::io::Result<()> {
        let mut session = Session::new(config);
        let mut search: Option<RunningSearch<'_>> = None;
        let mut line = String::new();
        for number in 1.. {
            match batch::read_line_capped(&mut input, &mut line, number) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    out.line(&format!("info string error: {e}"))?;
                    continue;
                }
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(&command) = words.first() else {
                continue;
            };
            match command {
                "isready" => {
                    // The table is allocated here, off the first move's clock, as GUIs send
                    // `isready` before they start one.
                    if search.is_none() && session.searcher.is_none() {
                        session.searcher = Searcher::try_new(session.hash_mb).ok();
                    }
                    out.line("readyok")?
                }
                "stop" => session.finish(search.take(), true)?,
                "ponderhit" => {}
                "quit" => {
                    session.finish(search.take(), true)?;
                    return Ok(());
                }
                "uci" => {
                    let name = format!("id name xiangqi-endgame {}", env!("CARGO_PKG_VERSION"));
                    out.line(&name)?;
                    out.line("id author the search-assignments project")?;
                    out.line(&format!(
                        "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"
                    ))?;
                    out.line("option name Clear Hash type button")?;
                    out.line(&format!(
                        "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000"
                    ))?;
                    out.line("uciok")?;
                }
                "position" => match parse_position(&words[1..]) {
                    Ok((pos, game)) => {
                        session.pos = pos;
                        session.line = game;
                        session.refused = None;
                    }
                    Err(e) => {
                        // The GUI's position is not the one kept: `go` must not search it.
                        out.line(&format!("info string error: {e}"))?;
                        session.refused = Some(e);
                    }
                },
                "ucinewgame" | "setoption" | "go" => {
                    // A GUI waits for `bestmove` before these; if it did not, the search ends
                    // first so that it never runs on a changed table or position.
                    session.finish(search.take(), true)?;
                    match command {
                        "ucinewgame" => session.new_game(),
                        "setoption" => {
                            if let Err(e) = session.set_option(&words[1..]) {
                                out.line(&format!("info string error: {e}"))?;
                            }
                        }
                        _ if session.refused.is_some() => {
                            let why = session.refused.as_deref().unwrap_or_default();
                            out.line(&format!(
                                "info string error: no position to search (the last position command was refused: {why})"
                            ))?;
                            out.line("bestmove 0000")?;
                        }
                        _ => match parse_go(&words[1..]) {
                            Ok(go) => {
                                for warning in &go.warnings {
                                    out.line(&format!("info string warning: {warning}"))?;
                                }
                                search = Some(session.start(scope, &out, go));
                            }
                            Err(e) => {
                                // A GUI waits for the bestmove of every go: answer even this one.
                                out.line(&format!("info string error: {e}"))?;
                                out.line("bestmove 0000")?;
                            }
                        },
                    }
                }
                other => out.line(&format!("info string unknown command {other}"))?,
            }
        }
        // End of input: a bounded search may finish, an infinite one is stopped.
        let infinite = search.as_ref().is_some_and(|s| s.infinite);
        session.finish(search.take(), infinite)
    })
}

/// After how long a search reports each root move it starts (`info currmove`).
pub const CURRMOVE_AFTER: Duration = Duration::from_millis(1000);

/// The output, shared by the loop and the search thread; every line is flushed at once.
struct Output<W: Write>(Mutex<W>);

impl<W: Write> Output<W> {
    fn line(&self, text: &str) -> std::io::Result<()> {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(w, "{text}")?;
        w.flush()
    }
}

/// What persists between searches.
struct Session {
    pos: Position,
    line: GameLine,
    /// Why the last `position` command was refused, until one is accepted.
    refused: Option<String>,
    searcher: Option<Searcher<SearchPosition>>,
    hash_mb: usize,
    move_overhead: Duration,
    config: SearchConfig,
}

/// A search running on its own thread; joining it gives the searcher back.
struct RunningSearch<'scope> {
    stop: Arc<AtomicBool>,
    infinite: bool,
    handle: ScopedJoinHandle<'scope, std::io::Result<Searcher<SearchPosition>>>,
}

impl Session {
    fn new(config: SearchConfig) -> Session {
        let pos: Position = START_FEN.parse().expect("start position");
        Session {
            config,
            line: GameLine::new(&pos),
            pos,
            refused: None,
            searcher: None,
            hash_mb: DEFAULT_HASH_MB,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        }
    }

    fn new_game(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
        self.pos = START_FEN.parse().expect("start position");
        self.line = GameLine::new(&self.pos);
        self.refused = None;
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        // setoption name <id words> [value <x>]
        let value_at = args.iter().position(|&w| w == "value");
        let name = args[..value_at.unwrap_or(args.len())]
            .iter()
            .skip_while(|&&w| w == "name")
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase();
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let number = || -> Result<u64, String> {
            let v = value
                .as_deref()
                .ok_or(format!("option {name} needs a value"))?;
            v.parse()
                .map_err(|_| format!("option {name}: {v:?} is not a whole number"))
        };
        match name.as_str() {
            "hash" => {
                let mb = number()?.clamp(1, 65536) as usize;
                self.searcher = Some(Searcher::try_new(mb)?);
                self.hash_mb = mb;
            }
            "clear hash" => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "move overhead" => self.move_overhead = Duration::from_millis(number()?.min(5000)),
            _ => return Err(format!("unknown option {name:?}")),
        }
        Ok(())
    }

    /// Starts searching the current position on a thread of `scope`.
    fn start<'scope, 'env, W: Write + Send>(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        out: &'scope Output<W>,
        go: Go,
    ) -> RunningSearch<'scope> {
        let start = Instant::now();
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => Searcher::new(self.hash_mb),
        };
        let config = self.config;
        // A mate search is full-width: a pruned one could miss the mate it is asked for.
        searcher.options = if go.mate.is_some() {
            SearchOptions::default()
        } else {
            config.search_options()
        };
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop_signal(Some(stop.clone()));
        let options = go.options(self.pos.side(), start, self.move_overhead, &config);
        let mut game = SearchPosition::with_line(self.pos.clone(), config.eval, self.line.clone());
        let infinite = go.infinite;
        let signal = stop.clone();
        // `currmove` lines once the search has run a second: the hook only queues them, and a
        // reporter thread prints them until the hook is dropped.
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        searcher.set_root_move_hook(Some(Box::new(move |mv, number, depth| {
            if start.elapsed() >= CURRMOVE_AFTER {
                let _ = tx.send(format!(
                    "info depth {depth} currmove {mv} currmovenumber {number}"
                ));
            }
        })));
        let reporter = scope.spawn(move || {
            for line in rx {
                out.line(&line)?;
            }
            Ok::<(), std::io::Error>(())
        });
        let handle = scope.spawn(move || {
            let mut failed = None;
            let d = think(&mut game, &mut searcher, &config, &options, |r| {
                if failed.is_none() {
                    failed = out.line(&info_line(r)).err();
                }
            });
            searcher.set_root_move_hook(None);
            let reported = reporter.join().unwrap_or(Ok(()));
            if let Some(e) = failed {
                return Err(e);
            }
            reported?;
            // An infinite search answers only when told to stop, even if it is done.
            while infinite && !signal.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let answer = match (d.mv, d.pv.get(1)) {
                (Some(m), Some(p)) => format!("bestmove {m} ponder {p}"),
                (Some(m), None) => format!("bestmove {m}"),
                (None, _) => "bestmove (none)".to_string(),
            };
            out.line(&answer)?;
            searcher.set_stop_signal(None);
            Ok(searcher)
        });
        RunningSearch {
            stop,
            infinite,
            handle,
        }
    }

    /// Waits for a running search (stopping it first when `stop`) and takes its searcher back.
    fn finish(&mut self, search: Option<RunningSearch<'_>>, stop: bool) -> std::io::Result<()> {
        let Some(search) = search else { return Ok(()) };
        if stop {
            search.stop.store(true, Ordering::Relaxed);
        }
        match search.handle.join() {
            Ok(result) => {
                self.searcher = Some(result?);
                Ok(())
            }
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// The limits of one `go` command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// Red's and black's clocks (`wtime`, `btime`).
    pub time: [Option<Duration>; 2],
    /// Red's and black's increments (`winc`, `binc`).
    pub increment: [Option<Duration>; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u64>,
    /// Exact time for this move.
    pub move_time: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Find a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// What of the command was not followed, for `info string` lines.
    pub warnings: Vec<String>,
}

/// Parses the words after `go`.
///
/// ```
/// use std::time::Duration;
/// let go = xiangqi_endgame::uci::parse_go(&["wtime", "1000", "btime", "900", "movestogo", "5"]).unwrap();
/// assert_eq!(go.time, [Some(Duration::from_millis(1000)), Some(Duration::from_millis(900))]);
/// assert_eq!(go.moves_to_go, Some(5));
/// assert!(xiangqi_endgame::uci::parse_go(&["depth", "x"]).is_err());
/// let go = xiangqi_endgame::uci::parse_go(&["wtime", "1000", "movestogo", "0"]).unwrap();
/// assert_eq!(go.moves_to_go, None);
/// assert!(go.warnings[0].starts_with("movestogo 0"));
/// ```
pub fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if matches!(key, "infinite" | "ponder") {
            go.infinite = true;
            i += 1;
            continue;
        }
        if key == "searchmoves" {
            // Restricting the root is not supported: the rest of the line is its moves.
            go.warnings
                .push("searchmoves is not supported: every move is searched".into());
            break;
        }
        let value = args.get(i + 1).ok_or(format!("go {key} needs a number"))?;
        let n: u64 = value.parse().map_err(|_| {
            if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                format!("go {key}: {value} is too large (at most {})", u64::MAX)
            } else {
                format!("go {key}: {:?} is not a whole number", batch::shown(value))
            }
        })?;
        let ms = Some(Duration::from_millis(n));
        match key {
            "wtime" => go.time[0] = ms,
            "btime" => go.time[1] = ms,
            "winc" => go.increment[0] = ms,
            "binc" => go.increment[1] = ms,
            "movestogo" if n == 0 => go.warnings.push(format!(
                "movestogo 0 is not a number of moves: the clock is planned for {DEFAULT_MOVES_TO_GO}"
            )),
            "movestogo" => go.moves_to_go = Some(n),
            "movetime" => go.move_time = ms,
            "depth" => go.depth = Some(n.clamp(1, 128) as u32),
            "nodes" => go.nodes = Some(n),
            "mate" => go.mate = Some(n.clamp(1, 60) as u32),
            _ => return Err(format!("unknown go parameter {key:?}")),
        }
        i += 2;
    }
    let bounded = go.time != [None, None]
        || go.move_time.is_some()
        || go.depth.is_some()
        || go.nodes.is_some()
        || go.mate.is_some();
    // A bare `go` searches until `stop`, as GUIs expect.
    go.infinite |= !bounded;
    Ok(go)
}

impl Go {
    /// The iterative-deepening budgets for `side` to move, counted from `start`.
    fn options(
        &self,
        side: Color,
        start: Instant,
        overhead: Duration,
        config: &SearchConfig,
    ) -> IterativeOptions {
        let mut options = IterativeOptions {
            max_depth: self.depth.unwrap_or(128),
            node_limit: self.nodes,
            ..config.iterative_options()
        };
        options.deadline = Deadline::none();
        if let Some(mate) = self.mate {
            // The mated side's missing move shows one ply after the mating move.
            options.max_depth = options.max_depth.min(2 * mate);
            options.aspiration = None;
        }
        if self.infinite {
            return options;
        }
        let me = side as usize;
        let (mut soft, mut hard) = (None, None);
        if let Some(left) = self.time[me] {
            let (s, h) = clock_budget(
                left,
                self.increment[me].unwrap_or_default(),
                self.moves_to_go,
                overhead,
            );
            soft = Some(s);
            hard = Some(h);
        }
        if let Some(t) = self.move_time {
            let t = movetime_budget(t, overhead);
            hard = Some(hard.map_or(t, |h: Duration| h.min(t)));
        }
        options.deadline = hard.map_or(Deadline::none(), |h| Deadline::at(start + h));
        options.soft_deadline = soft.map_or(Deadline::none(), |s| Deadline::at(start + s));
        options
    }
}

fn info_line(r: &GameResult<Move>) -> String {
    let score = match mate_moves(r.score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", r.score),
    };
    let ms = r.stats.elapsed.as_millis().max(1);
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} score {score} nodes {} nps {} time {ms} pv {}",
        r.stats.depth,
        r.stats.nodes,
        r.stats.nodes as u128 * 1000 / ms,
        pv.join(" ")
    )
}

/// Parses the arguments of `position`: the position reached and the game line leading to it.
fn parse_position(args: &[&str]) -> Result<(Position, GameLine), String> {
    let (pos, rest): (Position, &[&str]) = match args.first() {
        Some(&"startpos") => (START_FEN.parse().map_err(|e| format!("{e}"))?, &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(args.len());
            let fen = args[1..end].join(" ");
            (fen.parse().map_err(|e| format!("{e}"))?, &args[end..])
        }
        _ => return Err("expected startpos or fen".into()),
    };
    match rest.split_first() {
        Some((&"moves", moves)) => GameLine::replay(pos, moves),
        Some((extra, _)) => Err(format!("expected moves, found {extra:?}")),
        None => Ok((pos.clone(), GameLine::new(&pos))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_back_the_overhead_but_at_most_a_tenth() {
        let ms = Duration::from_millis;
        let default = ms(DEFAULT_MOVE_OVERHEAD_MS);
        assert_eq!(movetime_budget(ms(300), default), ms(290));
        assert_eq!(movetime_budget(ms(50), default), ms(45));
        assert_eq!(movetime_budget(ms(5000), ms(200)), ms(4800));
        assert_eq!(movetime_budget(ms(300), ms(0)), ms(300));
        assert_eq!(movetime_budget(ms(0), default), ms(0));
    }
}

//! Scripted UCI sessions, driven the way a GUI drives an engine: commands arrive over a pipe
//! while the engine thinks, and the answers are read as they come.

use std::io::{BufReader, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// An engine session on a pipe: lines go in with [`Session::send`], come out on a channel.
struct Session {
    input: Option<std::io::PipeWriter>,
    lines: Receiver<String>,
    engine: Option<JoinHandle<std::io::Result<()>>>,
}

/// A writer that hands every complete line to a channel.
struct LineSink {
    partial: Vec<u8>,
    lines: std::sync::mpsc::Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(i) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let _ = self
                .lines
                .send(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Session {
    fn start() -> Session {
        let (reader, writer) = std::io::pipe().unwrap();
        let (tx, rx) = channel();
        let engine = std::thread::spawn(move || {
            let sink = LineSink {
                partial: Vec::new(),
                lines: tx,
            };
            xiangqi_endgame::uci::run(BufReader::new(reader), sink)
        });
        Session {
            input: Some(writer),
            lines: rx,
            engine: Some(engine),
        }
    }

    fn send(&mut self, line: &str) {
        let w = self.input.as_mut().unwrap();
        writeln!(w, "{line}").unwrap();
        w.flush().unwrap();
    }

    /// Sends `command` and reads up to the line starting with `reply` (within 5 s).
    fn ask(&mut self, command: &str, reply: &str) -> Vec<String> {
        self.ask_within(command, reply, 5)
    }

    /// Sends `command` and reads up to the line starting with `reply` (within `secs`).
    fn ask_within(&mut self, command: &str, reply: &str, secs: u64) -> Vec<String> {
        self.send(command);
        self.until(reply, Duration::from_secs(secs))
    }

    /// Lines up to and including the first that starts with `prefix`, waiting at most `limit`.
    fn until(&self, prefix: &str, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {prefix:?} within {limit:?}; got {seen:?}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("engine ended; got {seen:?}"),
            }
        }
    }

    /// Closes the input and waits for the engine to end.
    fn close(mut self) {
        self.input = None;
        self.engine.take().unwrap().join().unwrap().unwrap();
    }
}

fn best_move(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .map(|rest| rest.split_whitespace().next().unwrap())
        .unwrap()
}

/// The lines that report a finished iteration (not the `currmove` ones).
fn infos(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth") && !l.contains(" currmove "))
        .collect()
}

#[test]
fn handshake_options_and_readiness() {
    let mut s = Session::start();
    let lines = s.ask("uci", "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    s.send("setoption name Hash value 4");
    s.send("setoption name Move Overhead value 10");
    s.send("setoption name Clear Hash");
    let lines = s.ask("setoption name Bogus value 1", "info string");
    assert!(lines[0].contains("unknown option"), "{lines:?}");
    s.ask("isready", "readyok");
    s.close();
}

#[test]
fn go_depth_prints_every_iteration_and_a_legal_move() {
    let mut s = Session::start();
    s.send("position startpos moves h2e2 h9g7");
    let lines = s.ask_within("go depth 5", "bestmove", 30);
    let depths: Vec<u32> = infos(&lines)
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    for l in infos(&lines) {
        for field in ["score ", "nodes ", "nps ", "time ", "pv "] {
            assert!(l.contains(field), "{l}");
        }
    }
    let mut pos: xiangqi_endgame::Position = xiangqi_endgame::START_FEN.parse().unwrap();
    for m in ["h2e2", "h9g7"] {
        pos.make(m.parse().unwrap());
    }
    let mut legal = Vec::new();
    xiangqi_endgame::movegen::legal_moves(&pos, &mut legal);
    let mv: xiangqi_endgame::Move = best_move(&lines).parse().unwrap();
    assert!(legal.contains(&mv));
    s.close();
}

#[test]
fn go_mate_finds_the_mate_and_says_so() {
    let mut s = Session::start();
    // Pawn to e8 leaves the black king no move (spec input 3's pattern is a mate in two).
    s.send("position fen 9/4a4/1N1k1a3/5P3/9/9/9/9/9/4K4 w - - 0 1");
    let lines = s.ask_within("go mate 2", "bestmove", 30);
    assert!(
        lines.iter().any(|l| l.contains("score mate 2")),
        "{lines:?}"
    );
    assert_eq!(best_move(&lines), "f6e6");
    s.close();
}

#[test]
fn go_nodes_stops_near_the_budget() {
    let mut s = Session::start();
    s.send("position startpos");
    let lines = s.ask_within("go nodes 20000", "bestmove", 30);
    let last = infos(&lines).last().copied().cloned().unwrap_or_default();
    let nodes: u64 = last
        .split_whitespace()
        .skip_while(|&w| w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= 20_001, "{last}");
    s.close();
}

#[test]
fn stop_ends_an_infinite_search_at_once_and_a_new_position_follows() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    s.send("isready");
    s.until("readyok", Duration::from_millis(50));
    let sent = Instant::now();
    let lines = s.ask("stop", "bestmove");
    let took = sent.elapsed();
    assert!(
        took < Duration::from_millis(50),
        "stop answered in {took:?}"
    );
    assert!(!best_move(&lines).is_empty());
    // A new position and a clock right after.
    s.send("position startpos moves b2e2");
    s.send("go wtime 100 btime 100");
    let asked = Instant::now();
    s.until("bestmove", Duration::from_secs(5));
    let took = asked.elapsed();
    assert!(
        took < Duration::from_millis(100),
        "a 100 ms clock answered in {took:?}"
    );
    s.close();
}

#[test]
fn go_movetime_and_a_clock_with_increment_answer_in_time() {
    let mut s = Session::start();
    s.send("position startpos");
    let asked = Instant::now();
    let lines = s.ask("go movetime 300", "bestmove");
    let took = asked.elapsed();
    assert!(
        took < Duration::from_millis(400),
        "movetime 300 took {took:?}"
    );
    assert!(infos(&lines).len() >= 3, "{lines:?}");
    s.send("ucinewgame");
    s.send("position startpos moves h2e2");
    let asked = Instant::now();
    s.ask(
        "go wtime 2000 btime 2000 winc 100 binc 100 movestogo 10",
        "bestmove",
    );
    let took = asked.elapsed();
    assert!(took < Duration::from_millis(1500), "took {took:?} of 2 s");
    s.close();
}

#[test]
fn a_long_search_reports_each_root_move_it_starts() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(1600));
    let lines = s.ask_within("stop", "bestmove", 10);
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "no currmove line in {lines:?}");
    let mut legal = Vec::new();
    let start: xiangqi_endgame::Position = xiangqi_endgame::START_FEN.parse().unwrap();
    xiangqi_endgame::movegen::legal_moves(&start, &mut legal);
    for l in current {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (f[0], f[1], f[3], f[5]),
            ("info", "depth", "currmove", "currmovenumber"),
            "{l}"
        );
        assert!(legal.contains(&f[4].parse().unwrap()), "{l}");
        let number: usize = f[6].parse().unwrap();
        assert!((1..=legal.len()).contains(&number), "{l}");
    }
    // Nothing follows the best move.
    assert!(s.lines.recv_timeout(Duration::from_millis(200)).is_err());
    s.close();
}

#[test]
fn quit_in_the_middle_of_a_search_ends_the_session() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let sent = Instant::now();
    s.send("quit");
    let engine = s.engine.take().unwrap();
    engine.join().unwrap().unwrap();
    assert!(sent.elapsed() < Duration::from_millis(500));
}

#[test]
fn bad_commands_are_answered_and_the_session_goes_on() {
    let mut s = Session::start();
    s.ask("position fen not-a-fen", "info string error");
    s.ask(
        "position startpos moves e0e5",
        "info string error: illegal move",
    );
    s.ask("go depth many", "info string error");
    s.ask("frobnicate", "info string unknown command");
    s.ask("go depth 2", "bestmove");
    s.close();
}

#[test]
fn a_lost_side_takes_the_draw_a_repetition_offers() {
    // Red has a bare king against two chariots; the kings have stepped aside and back once, so
    // stepping aside again repeats a position: a draw, far better than any other move.
    let mut s = Session::start();
    s.send("position fen 4k4/9/9/9/r7r/9/9/9/9/3K5 w - - 0 1 moves d0d1 e9f9 d1d0 f9e9");
    let lines = s.ask_within("go depth 4", "bestmove", 10);
    assert_eq!(best_move(&lines), "d0d1", "{lines:?}");
    assert!(
        infos(&lines).last().unwrap().contains("score cp 0"),
        "{lines:?}"
    );
    // Without the game's moves there is nothing to repeat and the position is lost.
    s.send("position fen 4k4/9/9/9/r7r/9/9/9/9/3K5 w - - 0 1");
    let lines = s.ask_within("go depth 4", "bestmove", 10);
    assert!(
        !infos(&lines).last().unwrap().contains("score cp 0"),
        "{lines:?}"
    );
    s.close();
}

#[test]
fn a_session_read_from_a_plain_buffer_ends_with_its_input() {
    // Piped scripts (`printf ... | xiangqi-endgame uci`) get their answer before the end.
    let mut out = Vec::new();
    let script = "position startpos\ngo depth 3\n";
    xiangqi_endgame::uci::run(script.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().last().unwrap().starts_with("bestmove"));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("info depth")).count(),
        3
    );
}

#[test]
fn a_refused_position_or_go_still_gets_its_bestmove() {
    let mut s = Session::start();
    s.send("position startpos");
    // A refused position does not leave the previous one to be searched.
    s.send("position fen xyz");
    let lines = s.ask_within("go nodes 1000", "bestmove", 30);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the last position command was refused")),
        "{lines:?}"
    );
    assert_eq!(best_move(&lines), "0000");
    s.send("position startpos");
    let lines = s.ask_within("go wtime 999999999999999999999999 btime 1", "bestmove", 30);
    assert!(
        lines.iter().any(|l| l.contains("is too large")),
        "a number too large is called so, not `not a number`: {lines:?}"
    );
    assert_eq!(best_move(&lines), "0000");
    s.close();
}

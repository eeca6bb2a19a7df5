//! A UCI engine loop in the form xiangqi GUIs and tools speak it (as Pikafish does): `uci`,
//! `isready`, `ucinewgame`, `position startpos|fen <FEN> [moves ...]`, `go depth N` /
//! `go movetime MS` / `go infinite` (bounded here by a default time), `quit`. Each completed
//! iteration prints `info depth .. score cp|mate .. nodes .. nps .. time .. pv ..`, then
//! `bestmove <move>` with moves like `h2e2`.

use crate::engine::{decide, SearchConfig};
use crate::fen::START_FEN;
use crate::position::Position;
use crate::square::Move;
use search_core::{mate_distance, GameResult};
use std::io::{BufRead, Write};
use std::time::Duration;

/// Runs the loop on `input` / `output` until `quit` or end of input.
///
/// ```
/// let mut out = Vec::new();
/// let script = "uci\nisready\nposition fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\ngo depth 3\nquit\n";
/// xiangqi_endgame::uci::run(script.as_bytes(), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("uciok") && text.contains("readyok"));
/// assert!(text.contains("score mate 1"));
/// assert!(text.trim_end().ends_with("bestmove e1e8"));
/// ```
/// A line that cannot be read (not UTF-8, too long) is answered with `info string error: …`
/// and skipped: the session goes on.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut pos: Position = START_FEN.parse().expect("start position");
    let mut line = String::new();
    for number in 1.. {
        match batch::read_line_capped(&mut input, &mut line, number) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                writeln!(output, "info string error: {e}")?;
                output.flush()?;
                continue;
            }
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(
                    output,
                    "id name xiangqi-endgame {}",
                    env!("CARGO_PKG_VERSION")
                )?;
                writeln!(output, "id author the search-assignments project")?;
                writeln!(output, "uciok")?;
            }
            Some("isready") => writeln!(output, "readyok")?,
            Some("ucinewgame") => pos = START_FEN.parse().expect("start position"),
            Some("position") => match parse_position(&words[1..]) {
                Ok(p) => pos = p,
                Err(e) => writeln!(output, "info string error: {e}")?,
            },
            Some("go") => {
                let config = go_config(&words[1..]);
                let out = &mut output;
                let mut infos = Vec::new();
                let d = decide(&pos, &config, |r: &GameResult<Move>| {
                    infos.push(info_line(r))
                });
                for i in infos {
                    writeln!(out, "{i}")?;
                }
                match d.mv {
                    Some(m) => writeln!(output, "bestmove {m}")?,
                    None => writeln!(output, "bestmove (none)")?,
                }
            }
            Some("quit") => break,
            Some("stop") | Some("setoption") | Some("ponderhit") | None => {}
            Some(other) => writeln!(output, "info string unknown command {other}")?,
        }
        output.flush()?;
    }
    Ok(())
}

fn info_line(r: &GameResult<Move>) -> String {
    let score = match mate_distance(r.score) {
        Some(plies) if r.score > 0 => format!("mate {}", plies.div_ceil(2)),
        Some(plies) => format!("mate -{}", plies / 2),
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

fn go_config(args: &[&str]) -> SearchConfig {
    let mut config = SearchConfig {
        depth: 64,
        time: Some(Duration::from_secs(5)),
        ..Default::default()
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i], value) {
            ("depth", Some(d)) => {
                config.depth = d as u32;
                config.time = None;
            }
            ("movetime", Some(ms)) => config.time = Some(Duration::from_millis(ms)),
            ("nodes", Some(_)) => {}
            _ => {}
        }
        i += 1;
    }
    config
}

/// Parses the arguments of `position`.
fn parse_position(args: &[&str]) -> Result<Position, String> {
    let (mut pos, rest): (Position, &[&str]) = match args.first() {
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
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let mv: Move = m.parse()?;
            let mut legal = Vec::new();
            crate::movegen::legal_moves(&pos, &mut legal);
            if !legal.contains(&mv) {
                return Err(format!("illegal move {m}"));
            }
            pos.make(mv);
        }
    }
    Ok(pos)
}

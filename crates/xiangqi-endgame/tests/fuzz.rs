//! Fuzz tests of the position parsers (FEN and the course's board files) and of UCI's `go`
//! parser: arbitrary text and mutated valid inputs never panic; what parses prints back (as
//! FEN, and as a board file) to text that parses to the same position, and what does not is an
//! error located in the input. Whole UCI sessions too: a mutated session (bad bytes, over-long
//! lines) ends cleanly with each error on a line of the session, and every `go` of a session
//! gets its `bestmove`, the last one after the input has ended.
//! `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

use batch::fuzz::{check_complaint_lines, config, mutated_session, text_like};
use proptest::prelude::*;
use xiangqi_endgame::fen::{board_text, parse_board_file};
use xiangqi_endgame::Position;

const BOARD: &str = include_str!("../../../inputs/xiangqi-endgame/3.txt");
const FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const GO: &str = "wtime 1000 btime 900 winc 10 binc 10 movestogo 20 depth 12 nodes 5000 mate 3";

fn check_go(text: &str) -> Result<(), TestCaseError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Ok(go) = xiangqi_endgame::uci::parse_go(&words) {
        // Whatever was read stays in range.
        prop_assert!(go.depth.is_none_or(|d| (1..=128).contains(&d)));
        prop_assert!(go.mate.is_none_or(|m| (1..=60).contains(&m)));
    }
    Ok(())
}

fn check_board_file(text: &str) -> Result<(), TestCaseError> {
    match parse_board_file(text) {
        Ok(p) => {
            let again = parse_board_file(&board_text(&p)).expect("a printed board parses");
            prop_assert_eq!(again.to_string(), p.to_string());
        }
        Err(e) => prop_assert!(e.line <= text.lines().count() + 1, "{e} is past the end"),
    }
    Ok(())
}

fn check_fen(text: &str) -> Result<(), TestCaseError> {
    if let Ok(p) = text.parse::<Position>() {
        let fen = p.to_string();
        let again: Position = fen.parse().expect("a printed FEN parses");
        prop_assert_eq!(again.to_string(), fen);
    }
    Ok(())
}

const SESSION: &str = "uci\nsetoption name Hash value 1\nisready\nucinewgame\nposition startpos moves h2e2 h9g7\ngo depth 2\nposition fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w moves e1e2\ngo movetime 20\nstop\ngo infinite\nstop\nposition startpos\ngo nodes 500 searchmoves h2e2\nisready\n";

/// Runs a UCI session on `input`: its output.
fn uci(input: &[u8]) -> String {
    let mut out = Vec::new();
    xiangqi_endgame::uci::run(input, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the engine writes UTF-8")
}

fn check_session(mut input: Vec<u8>) -> Result<(), TestCaseError> {
    // A search still running is stopped by `quit`.
    input.extend_from_slice(b"\nquit\n");
    let lines = input.split(|&b| b == b'\n').count();
    let out = uci(&input);
    check_complaint_lines(
        out.lines()
            .filter_map(|l| l.strip_prefix("info string error: line ")),
        lines,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_uci_sessions_end_cleanly(input in mutated_session(SESSION)) {
        check_session(input)?;
    }

    #[test]
    fn every_go_gets_a_bestmove_even_after_the_input_ends(
        opening in proptest::collection::vec(0usize..1000, 0..12),
        depth in 1u32..4,
        gos in 1usize..4,
    ) {
        // A random legal opening, then `go` after `go` and the end of the input.
        let mut pos: Position = FEN.parse().unwrap();
        let mut moves = Vec::new();
        for k in opening {
            let mut legal = Vec::new();
            xiangqi_endgame::movegen::legal_moves(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let m = legal[k % legal.len()];
            moves.push(m.to_string());
            pos.make(m);
        }
        let mut session = format!("setoption name Hash value 1\nposition startpos moves {}\n", moves.join(" "));
        session.push_str(&format!("go depth {depth}\n").repeat(gos));
        let out = uci(session.as_bytes());
        prop_assert_eq!(out.matches("bestmove ").count(), gos, "{}", out);
        prop_assert!(!out.contains("info string error"), "{}", out);
    }

    #[test]
    fn go_commands_parse_or_fail_cleanly(text in text_like(GO)) {
        check_go(&text)?;
    }

    #[test]
    fn board_files_parse_or_fail_cleanly(text in text_like(BOARD)) {
        check_board_file(&text)?;
    }

    #[test]
    fn fens_parse_or_fail_cleanly(text in text_like(FEN)) {
        check_fen(&text)?;
    }
}

#[test]
fn the_session_sample_answers_every_go() {
    let out = uci(format!("{SESSION}quit\n").as_bytes());
    assert_eq!(out.matches("bestmove ").count(), 4, "{out}");
    assert!(out.contains("info string warning: searchmoves is not supported"));
}

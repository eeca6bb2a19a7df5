//! Fuzz tests of the position parsers (FEN and the course's board files) and of UCI's `go`
//! parser: arbitrary text and mutated valid inputs never panic; what parses prints back (as
//! FEN, and as a board file) to text that parses to the same position, and what does not is an
//! error located in the input.
//! `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

use batch::fuzz::{arbitrary_text, config, mutated};
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

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(text in arbitrary_text()) {
        check_board_file(&text)?;
        check_fen(&text)?;
        check_go(&text)?;
    }

    #[test]
    fn mutated_go_commands_parse_or_fail_cleanly(text in mutated(GO)) {
        check_go(&text)?;
    }

    #[test]
    fn mutated_board_files_parse_or_fail_cleanly(text in mutated(BOARD)) {
        check_board_file(&text)?;
    }

    #[test]
    fn mutated_fens_parse_or_fail_cleanly(text in mutated(FEN)) {
        check_fen(&text)?;
    }
}

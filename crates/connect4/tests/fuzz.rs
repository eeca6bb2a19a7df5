//! Fuzz tests of the course's text interfaces (a getPoint request, a Saiblo stream) and of
//! 7x6 move strings: arbitrary text and mutated valid inputs never panic; a request that is
//! accepted satisfies the judge's invariants and prints back to a request that reads the same,
//! and the engine's answer to it is a legal cell. `scripts/fuzz.sh` runs these longer
//! (`FUZZ_CASES`).

use batch::fuzz::{arbitrary_text, config, mutated};
use connect4::engine::{Engine, EngineConfig};
use connect4::protocol::{parse_request, parse_saiblo_stream};
use connect4::run::{random_request, request_text};
use connect4::solver7x6::Position;
use proptest::prelude::*;

fn request() -> &'static str {
    static SAMPLE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SAMPLE.get_or_init(|| random_request(11, 14))
}

fn check_request(text: &str, answer: bool) -> Result<(), TestCaseError> {
    if let Ok(state) = parse_request(text.as_bytes()) {
        let again = parse_request(request_text(&state, None).as_bytes()).expect("reads back");
        prop_assert_eq!(&again.board, &state.board);
        if answer && state.result.is_none() {
            // The answer is one the judge accepts (a small budget: legality, not strength).
            let mut engine = Engine::new(EngineConfig {
                iterations: Some(20),
                ..Default::default()
            });
            let (x, y) = connect4::protocol::get_point(text.as_bytes(), &mut engine).unwrap();
            prop_assert!(state.board.is_legal(x, y), "({x}, {y}) is illegal");
        }
    }
    let _ = parse_saiblo_stream(text.as_bytes());
    Ok(())
}

fn check_moves(text: &str) -> Result<(), TestCaseError> {
    for word in text.split_whitespace() {
        if let Ok(p) = Position::parse(word) {
            prop_assert_eq!(p.moves() as usize, word.len());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(text in arbitrary_text()) {
        check_request(&text, false)?;
        check_moves(&text)?;
    }

    #[test]
    fn mutated_requests_are_refused_or_answered_legally(text in mutated(request())) {
        check_request(&text, true)?;
    }

    #[test]
    fn mutated_move_strings_parse_or_fail_cleanly(text in mutated("4453 2252576253462244111563365343671351441")) {
        check_moves(&text)?;
    }
}

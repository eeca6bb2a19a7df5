//! Fuzz tests of the VGDL game-description parser and of the level parser: arbitrary text and
//! mutated valid files never panic; what is refused is an error located in the file, and a
//! level that is accepted can be played (a few ticks of the simulator run on it).
//! `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

use bait::sim::{parse_actions, play};
use bait::vgdl::Game;
use bait::{Level, DEFAULT_GAME};
use batch::fuzz::{arbitrary_text, config, mutated};
use proptest::prelude::*;

const LEVEL: &str = include_str!("../../../inputs/bait/level_3.txt");

fn game() -> Game {
    DEFAULT_GAME.parse().expect("the bundled game parses")
}

fn check_game(text: &str) -> Result<(), TestCaseError> {
    if let Err(e) = text.parse::<Game>() {
        prop_assert!(e.line <= text.lines().count() + 1, "{e} is past the end");
    }
    Ok(())
}

fn check_level(game: Game, text: &str) -> Result<(), TestCaseError> {
    match Level::parse(game, text) {
        Ok(level) => {
            let _ = play(&level, &parse_actions("RRDDLLUURDLU").unwrap());
        }
        Err(e) => prop_assert!(e.line <= text.lines().count() + 1, "{e} is past the end"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(text in arbitrary_text()) {
        check_game(&text)?;
        check_level(game(), &text)?;
    }

    #[test]
    fn mutated_game_descriptions_parse_or_fail_cleanly(text in mutated(DEFAULT_GAME)) {
        check_game(&text)?;
        // Whatever parses must still read and play a level without panicking.
        if let Ok(g) = text.parse::<Game>() {
            check_level(g, LEVEL)?;
        }
    }

    #[test]
    fn mutated_levels_parse_or_fail_cleanly(text in mutated(LEVEL)) {
        check_level(game(), &text)?;
    }
}

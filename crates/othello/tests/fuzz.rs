//! Fuzz tests of the OBF position parser, the GGF game parser and the timing-job files:
//! arbitrary text and mutated valid lines never panic; a parsed position or game prints back to
//! text that parses to the same thing, and a bad timing job or game is an error located in the
//! text. `scripts/fuzz.sh`
//! runs these longer (`FUZZ_CASES`).

use batch::fuzz::{arbitrary_text, config, mutated};
use othello::ggf::GgfGame;
use othello::run::TimingJob;
use othello::Position;
use proptest::prelude::*;

const OBF: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+38; A2:+38;";
const JOB: &str = include_str!("../../../inputs/othello/course.timing");

fn check_obf(text: &str) -> Result<(), TestCaseError> {
    for line in text.lines() {
        if let Ok(p) = line.parse::<Position>() {
            let again: Position = p.to_string().parse().expect("a printed position parses");
            prop_assert_eq!(again, p);
        }
    }
    Ok(())
}

const GGF: &str = "(;GM[Othello]PC[NBoard]PB[a\\]b]PW[c]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/-0.60/1.2]B[E6]W[F4//3];)";

fn check_ggf(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<GgfGame>() {
        Ok(game) => {
            let again: GgfGame = game.to_string().parse().expect("a printed game parses");
            prop_assert_eq!(again, game);
        }
        Err(e) => prop_assert!(
            e.column >= 1 && e.column <= text.chars().count() + 1,
            "{e} is outside the text"
        ),
    }
    Ok(())
}

fn check_job(text: &str) -> Result<(), TestCaseError> {
    if let Err(e) = text.parse::<TimingJob>() {
        prop_assert!(
            e.line >= 1 && e.line <= text.lines().count(),
            "{e} is not on a line"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(text in arbitrary_text()) {
        check_obf(&text)?;
        check_job(&text)?;
        check_ggf(&text)?;
    }

    #[test]
    fn mutated_ggf_games_parse_or_fail_cleanly(text in mutated(GGF)) {
        check_ggf(&text)?;
    }

    #[test]
    fn mutated_obf_lines_parse_or_fail_cleanly(text in mutated(OBF)) {
        check_obf(&text)?;
    }

    #[test]
    fn mutated_timing_jobs_parse_or_fail_cleanly(text in mutated(JOB)) {
        check_job(&text)?;
    }
}

#[test]
fn the_ggf_sample_is_a_legal_game() {
    let game: GgfGame = GGF.parse().unwrap();
    assert_eq!(game.moves.len(), 4);
}

//! Fuzz tests of the OBF position parser and of the timing-job files: arbitrary text and
//! mutated valid lines never panic; a parsed position prints back to an OBF line that parses to
//! the same position, and a bad timing job is an error located in the file. `scripts/fuzz.sh`
//! runs these longer (`FUZZ_CASES`).

use batch::fuzz::{arbitrary_text, config, mutated};
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

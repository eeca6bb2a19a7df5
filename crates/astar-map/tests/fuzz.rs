//! Fuzz tests of the map parser: arbitrary text and mutated course-format maps never panic;
//! what parses re-serialises to text that parses to the same map, and what does not is an
//! error located in the file. `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

use astar_map::Map;
use batch::fuzz::{config, text_like};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../../../inputs/astar-map/input_3.txt");

fn check(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<Map>() {
        Ok(map) => {
            let again: Map = map.to_string().parse().expect("a printed map parses");
            prop_assert_eq!(again, map);
        }
        Err(e) => {
            prop_assert!(e.line <= text.lines().count() + 1, "{e} is past the end");
            prop_assert!(!e.message.is_empty());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn maps_parse_or_fail_cleanly(text in text_like(SAMPLE)) {
        check(&text)?;
    }
}

//! Fuzz tests of the course's text interfaces (a getPoint request, a Saiblo stream) and of
//! 7x6 move strings: arbitrary text and mutated valid inputs never panic; a request that is
//! accepted satisfies the judge's invariants and prints back to a request that reads the same,
//! and the engine's answer to it is a legal cell. `scripts/fuzz.sh` runs these longer
//! (`FUZZ_CASES`). A tournament's files too: a mutated journal is resumed from or refused
//! naming it, and mutated shards merge to every game of the schedule or are refused, writing
//! nothing.

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

/// A finished two-shard tournament (random against greedy, 2 rounds), played once.
fn shards() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("c4-fuzz-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for shard in ["1/2", "2/2"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_connect4"))
                .args(["tournament", "--players", "random", "--opponents", "greedy"])
                .args(["--rounds", "2", "--seed", "5", "--shard", shard, "--out"])
                .arg(dir.join(&shard[..1]))
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
        }
        dir
    })
}

fn shard_file(shard: &str, file: &str) -> &'static str {
    static TEXTS: std::sync::OnceLock<std::collections::HashMap<String, String>> =
        std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let mut texts = std::collections::HashMap::new();
        for s in ["1", "2"] {
            for f in ["journal.csv", "games.csv", "tournament.txt"] {
                let text = std::fs::read_to_string(shards().join(s).join(f)).unwrap();
                texts.insert(format!("{s}/{f}"), text);
            }
        }
        texts
    });
    &texts[&format!("{shard}/{file}")]
}

/// A fresh copy of the two shards, with `file` of shard 1 replaced by `text`.
fn copy_with(file: &str, text: &str) -> std::path::PathBuf {
    static CASES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let case = CASES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = shards().join(format!("case-{case}"));
    for s in ["1", "2"] {
        std::fs::create_dir_all(dir.join(s)).unwrap();
        for f in ["journal.csv", "games.csv", "tournament.txt"] {
            std::fs::copy(shards().join(s).join(f), dir.join(s).join(f)).unwrap();
        }
    }
    std::fs::write(dir.join("1").join(file), text).unwrap();
    dir
}

fn check_resume(journal: &str) -> Result<(), TestCaseError> {
    use connect4::compete::Contestant;
    use connect4::tournament::{run, schedule};
    let dir = copy_with("journal.csv", journal);
    let fixtures: Vec<_> = schedule(&["random".into()], &["greedy".into()], 2, 5)
        .into_iter()
        .enumerate()
        .filter(|(k, _)| "1/2".parse::<batch::Shard>().unwrap().takes(*k))
        .map(|(_, f)| f)
        .collect();
    let contestants = ["random", "greedy"]
        .map(|c| (c.to_string(), Contestant::Builtin(c.to_string())))
        .into_iter()
        .collect();
    match run(&dir.join("1"), &fixtures, &contestants, 1, || {}) {
        Ok(rows) => {
            prop_assert_eq!(rows.len(), fixtures.len());
            for f in &fixtures {
                let key = [
                    f.player.clone(),
                    f.opponent.clone(),
                    f.round.to_string(),
                    u8::from(f.player_first).to_string(),
                ];
                prop_assert!(rows.iter().any(|r| r[..4] == key), "no game {}", f.key());
            }
            for row in &rows {
                prop_assert!(connect4::tournament::check_row(row).is_ok(), "{:?}", row);
            }
        }
        Err(e) => prop_assert!(format!("{e:#}").contains("journal.csv"), "{e:#}"),
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

fn check_merge(file: &str, text: &str) -> Result<(), TestCaseError> {
    let dir = copy_with(file, text);
    let out = dir.join("merged");
    match connect4::tournament::merge(&[dir.join("1"), dir.join("2")], &out) {
        Ok(n) => {
            prop_assert_eq!(n, 4, "the schedule has 4 games");
            let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
            prop_assert_eq!(games.lines().count(), n + 1);
        }
        Err(_) => prop_assert!(!out.join("games.csv").exists(), "a refused merge wrote"),
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_journals_are_resumed_from_or_refused(text in mutated(shard_file("1", "journal.csv"))) {
        check_resume(&text)?;
    }

    #[test]
    fn mutated_shards_merge_whole_or_are_refused(
        games in mutated(shard_file("1", "games.csv")),
        description in mutated(shard_file("1", "tournament.txt")),
    ) {
        check_merge("games.csv", &games)?;
        check_merge("tournament.txt", &description)?;
    }

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

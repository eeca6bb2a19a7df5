//! Generated practice levels: every level `generate` keeps is parsed back to the same text,
//! really won by the plan the solver finds (replayed by the simulator), with the shortest win's
//! length it reports and inside the difficulty asked for; the command writes level files
//! `solve` reads.

use bait::generate::{generate_level, LevelSpec};
use bait::render::grid_text;
use bait::sim::play;
use bait::solve::shortest;
use bait::state::Outcome;
use bait::{Level, DEFAULT_GAME};
use rand::SeedableRng;
use search_core::{Limits, SmallRng};
use std::process::Command;

/// Levels of many sizes and materials, from many seeds: most draws must produce a level, and
/// every level produced must hold up.
#[test]
fn every_generated_level_is_winnable_and_reads_back_identically() {
    let game: bait::vgdl::Game = DEFAULT_GAME.parse().unwrap();
    let mut made_count = 0;
    for seed in 0..30u64 {
        let spec = LevelSpec {
            rows: 5 + (seed % 4) as usize,
            cols: 5 + (seed / 4 % 5) as usize,
            boxes: (seed % 3) as usize,
            holes: (seed / 3 % 3) as usize,
            min_actions: 4,
            max_actions: 80,
            ..LevelSpec::default()
        };
        let mut rng = SmallRng::seed_from_u64(seed);
        let Some(made) = generate_level(&game, &spec, &mut rng, 300) else {
            continue;
        };
        made_count += 1;
        let level = Level::parse(game.clone(), &made.text).unwrap();
        assert_eq!(grid_text(&level, &level.initial), made.text);
        assert_eq!((level.rows, level.cols), (spec.rows, spec.cols));
        let plan = shortest(&level, &Limits::none());
        assert_eq!(plan.actions.len(), made.shortest, "{}", made.text);
        assert!((spec.min_actions..=spec.max_actions).contains(&made.shortest));
        let states = play(&level, &plan.actions);
        assert_eq!(
            states.last().unwrap().outcome,
            Outcome::Won,
            "{}",
            made.text
        );
    }
    assert!(
        made_count >= 25,
        "only {made_count} of 30 draws made a level"
    );
}

#[test]
fn the_command_writes_levels_that_solve_reads() {
    let dir = std::env::temp_dir().join(format!("bait-gen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin = env!("CARGO_BIN_EXE_bait");
    let out = Command::new(bin)
        .args(["generate", "--count", "2", "--seed", "5", "-o"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("gen_5_1.txt: shortest win"), "{err}");
    assert!(dir.join("gen_5_2.txt").exists());
    // The same seed makes the same levels.
    let again = Command::new(bin)
        .args(["generate", "--count", "1", "--seed", "5"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(again.stdout).unwrap(),
        std::fs::read_to_string(dir.join("gen_5_1.txt")).unwrap()
    );
    let solved = Command::new(bin)
        .args(["solve", "-q", "-o"])
        .arg(dir.join("solved"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(solved.status.code(), Some(0), "{solved:?}");
    // Impossible numbers are refused with a message.
    let bad = Command::new(bin)
        .args(["generate", "--rows", "3"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("at least 4 rows"));
    std::fs::remove_dir_all(dir).unwrap();
}

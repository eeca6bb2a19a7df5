//! Times that are not numbers, checks with nothing to check, files from other editors and
//! incomplete game descriptions: a clear message naming the right file and a non-zero exit (or
//! a correct answer), never a panic.

use batch::run_tool;
use std::path::Path;

const BIN: &str = env!("CARGO_BIN_EXE_bait");

fn temp_dir(name: &str) -> batch::testing::Scratch {
    batch::testing::temp_dir(&format!("bait-bad-{name}"))
}

const LEVEL: &str = include_str!("../../../inputs/bait/level_1.txt");

/// `bait run LEVEL --game GAME -o OUT` succeeds: the result line it prints, with the agent's
/// statistics cut off.
fn result_of(level: &Path, game: &Path, out: &Path) -> String {
    let run = run_tool!(BIN, "run", level, "--game", game, "-o", out).ok();
    let line = run
        .stdout
        .lines()
        .next()
        .unwrap_or("")
        .split("  (")
        .next()
        .unwrap_or("");
    line.split_once(": ").map_or("", |(_, r)| r).to_string()
}

#[test]
fn a_time_that_is_not_a_number_is_refused() {
    run_tool!(BIN, "solve", "inputs/level_1.txt", "--time", "NaN")
        .fails(2, "is not a number of seconds");
}

#[test]
fn check_trace_on_an_empty_trace_is_not_a_success() {
    let dir = temp_dir("trace");
    std::fs::write(dir.join("level.txt"), LEVEL).unwrap();
    run_tool!(BIN, "check-trace", dir.join("level.txt"), "/dev/null")
        .code(1)
        .prints("no trace to check");
}

#[test]
fn levels_with_a_byte_order_mark_or_old_mac_line_ends_play_as_the_original() {
    let dir = temp_dir("bom");
    let game = bait::DEFAULT_GAME;
    std::fs::write(dir.join("game.txt"), format!("\u{feff}{game}")).unwrap();
    std::fs::write(dir.join("plain.txt"), LEVEL).unwrap();
    std::fs::write(dir.join("bom.txt"), format!("\u{feff}{LEVEL}")).unwrap();
    std::fs::write(dir.join("cr.txt"), LEVEL.replace('\n', "\r")).unwrap();
    let run = |level: &str| result_of(&dir.join(level), &dir.join("game.txt"), &dir.join("out"));
    let plain = run("plain.txt");
    assert!(plain.starts_with("Result (1->win; 0->lose):1"), "{plain}");
    for level in ["bom.txt", "cr.txt"] {
        assert_eq!(run(level), plain, "{level}");
    }
}

#[test]
fn an_incomplete_game_description_is_refused_and_blamed() {
    let dir = temp_dir("vgdl");
    std::fs::write(dir.join("level.txt"), LEVEL).unwrap();
    let game = bait::DEFAULT_GAME;
    let cut = game.find("  TerminationSet").unwrap();
    std::fs::write(dir.join("no-termination.txt"), &game[..cut]).unwrap();
    let no_avatar = "BasicGame\n  SpriteSet\n    goal > Immovable\n  InteractionSet\n    goal wall > killSprite\n  TerminationSet\n    SpriteCounter stype=goal limit=0 win=True\n";
    std::fs::write(dir.join("no-avatar.txt"), no_avatar).unwrap();
    let interactions = game.find("  InteractionSet").unwrap();
    let few_rules = format!(
        "{}  InteractionSet\n    avatar wall > stepBack\n{}",
        &game[..interactions],
        &game[cut..]
    );
    std::fs::write(dir.join("few-rules.txt"), few_rules).unwrap();
    for (file, blamed, message) in [
        (
            "no-termination.txt",
            "no-termination.txt",
            "no termination wins the game",
        ),
        ("no-avatar.txt", "no-avatar.txt", "defines no avatar"),
        (
            "few-rules.txt",
            "level.txt",
            "which no interaction of the game description involves",
        ),
    ] {
        let (level, game, out) = (dir.join("level.txt"), dir.join(file), dir.join("out"));
        let run = run_tool!(BIN, "run", level, "--game", game, "-o", out);
        assert_ne!(run.code, Some(0), "{file} was accepted");
        run.says(blamed).says(message);
    }
}

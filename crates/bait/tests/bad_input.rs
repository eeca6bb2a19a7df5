//! Times that are not numbers, checks with nothing to check, files from other editors and
//! incomplete game descriptions: a clear message naming the right file and a non-zero exit (or
//! a correct answer), never a panic.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bait"))
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bait-bad-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const LEVEL: &str = include_str!("../../../inputs/bait/level_1.txt");

/// The result line `bait run` prints for a level file, with the agent's statistics cut off.
fn result_of(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = bin().args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .next()
        .unwrap_or("")
        .split("  (")
        .next()
        .unwrap_or("");
    let line = line.split_once(": ").map_or("", |(_, r)| r).to_string();
    (
        out.status.code(),
        line,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_time_that_is_not_a_number_is_refused() {
    let out = bin()
        .args(["solve", "inputs/level_1.txt", "--time", "NaN"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a number of seconds"));
}

#[test]
fn check_trace_on_an_empty_trace_is_not_a_success() {
    let dir = temp_dir("trace");
    std::fs::write(dir.join("level.txt"), LEVEL).unwrap();
    let out = bin()
        .arg("check-trace")
        .arg(dir.join("level.txt"))
        .arg("/dev/null")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no trace to check"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn levels_with_a_byte_order_mark_or_old_mac_line_ends_play_as_the_original() {
    let dir = temp_dir("bom");
    let game = bait::DEFAULT_GAME;
    std::fs::write(dir.join("game.txt"), format!("\u{feff}{game}")).unwrap();
    std::fs::write(dir.join("plain.txt"), LEVEL).unwrap();
    std::fs::write(dir.join("bom.txt"), format!("\u{feff}{LEVEL}")).unwrap();
    std::fs::write(dir.join("cr.txt"), LEVEL.replace('\n', "\r")).unwrap();
    let run = |level: &str| {
        result_of(&[
            "run".as_ref(),
            dir.join(level).as_os_str(),
            "--game".as_ref(),
            dir.join("game.txt").as_os_str(),
            "-o".as_ref(),
            dir.join("out").as_os_str(),
        ])
    };
    let (code, plain, err) = run("plain.txt");
    assert_eq!(code, Some(0), "{err}");
    assert!(plain.starts_with("Result (1->win; 0->lose):1"), "{plain}");
    for level in ["bom.txt", "cr.txt"] {
        let (code, line, err) = run(level);
        assert_eq!(code, Some(0), "{level}: {err}");
        assert_eq!(line, plain, "{level}");
    }
    std::fs::remove_dir_all(dir).unwrap();
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
        let out = bin()
            .arg("run")
            .arg(dir.join("level.txt"))
            .arg("--game")
            .arg(dir.join(file))
            .arg("-o")
            .arg(dir.join("out"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{file} was accepted");
        assert!(
            err.contains(blamed) && err.contains(message),
            "{file}: {err}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

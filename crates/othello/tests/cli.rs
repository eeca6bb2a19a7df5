//! The binary as a user meets it: `perft`, and `solve` over a file of positions (bad lines,
//! `--check`, `--jobs`).

use othello::endgame::solve;
use othello::{Move, Position};
use search_core::Searcher;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_othello"))
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("othello-cli-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Late positions of a game played from the start by always taking the first legal square,
/// with 5..=9 empty squares, each as an OBF line followed by its exact score.
fn late_positions() -> Vec<(String, i32)> {
    let mut p = Position::default();
    let mut out = Vec::new();
    let mut searcher = Searcher::new(4);
    while !p.game_over() {
        if (5..=9).contains(&p.empties()) {
            out.push((p.to_string(), solve(&p, &mut searcher).score));
        }
        let m = p.moves();
        p = p.play(if m == 0 {
            Move::Pass
        } else {
            Move::Square(m.trailing_zeros() as u8)
        });
    }
    assert!(out.len() >= 4, "the game passes through 5..9 empties");
    out
}

#[test]
fn perft_prints_the_standard_counts() {
    for (depth, leaves) in [(1, 4), (3, 56), (5, 1396)] {
        let out = bin().arg("perft").arg(depth.to_string()).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("perft {depth}: {leaves}")), "{text}");
    }
}

#[test]
fn solve_reports_a_bad_line_and_still_solves_the_others_in_order() {
    let positions = late_positions();
    let mut text = String::new();
    for (i, (board, score)) in positions.iter().enumerate() {
        text.push_str(&format!("{board}; A1:{score:+};\n"));
        if i == 1 {
            text.push_str("this is not a board\n");
        }
    }
    let file = temp_file("bad-line", &text);
    let outputs: Vec<_> = ["1", "3"]
        .iter()
        .map(|jobs| {
            bin()
                .args(["solve", "--check", "--jobs", jobs])
                .arg(&file)
                .output()
                .unwrap()
        })
        .collect();
    for out in &outputs {
        assert_eq!(out.status.code(), Some(1), "a bad line makes the run fail");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{}:3:", file.display())),
            "{stderr}"
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), positions.len() + 1, "{stdout}");
        for (line, (i, (_, score))) in lines.iter().zip(positions.iter().enumerate()) {
            // Input line numbers skip the bad line, which comes third.
            let n = if i < 2 { i + 1 } else { i + 2 };
            assert!(
                line.starts_with(&format!("{}:{n}:", file.display())),
                "{line}"
            );
            assert!(line.contains(&format!("score {score:+} ok")), "{line}");
        }
        assert_eq!(
            lines.last().unwrap(),
            &format!("{} passed, 1 failed", positions.len())
        );
    }
    // Apart from the timings, one job and three print the same.
    let strip = |o: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(strip(&outputs[0]), strip(&outputs[1]));
    let _ = std::fs::remove_file(file);
}

#[test]
fn solve_flags_a_wrong_listed_score() {
    let (board, score) = late_positions().remove(0);
    let file = temp_file("wrong", &format!("{board}; A1:{:+};\n", score + 2));
    let out = bin()
        .args(["solve", "--check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("FAIL (listed {:+})", score + 2)),
        "{stdout}"
    );
    assert!(stdout.contains("0 passed, 1 failed"), "{stdout}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn solve_names_an_argument_that_is_neither_a_file_nor_a_position() {
    let out = bin().args(["solve", "no-such-file.obf"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`no-such-file.obf` is neither a file nor a position"),
        "{stderr}"
    );
}

#[test]
fn match_traces_every_turn_of_a_fixed_depth_decider() {
    let dir = std::env::temp_dir().join(format!("othello-cli-match-trace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = bin()
        .args([
            "match",
            "alphabeta:1",
            "random",
            "--games",
            "2",
            "--jobs",
            "1",
        ])
        .arg("--trace")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for game in ["game1", "game2"] {
        let trees: Vec<String> = std::fs::read_dir(dir.join(game))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "dot"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        // A moves about half the time after the four opening plies; random leaves no tree.
        assert!(trees.len() >= 10, "{game}: {} trees", trees.len());
        assert!(trees.iter().all(|t| t.contains("alpha-beta depth 1")));
    }
    let _ = std::fs::remove_dir_all(dir);
}

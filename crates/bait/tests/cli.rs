//! The binary as a user meets it.

use batch::run_tool;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_bait");

fn bin() -> Command {
    Command::new(BIN)
}

const LEVEL: &str = "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww";

fn temp(name: &str) -> batch::testing::Scratch {
    let d = batch::testing::temp_dir(&format!("bait-cli-{name}"));
    std::fs::create_dir_all(d.join("levels")).unwrap();
    d
}

#[test]
fn replay_prints_the_engine_result_line_and_html() {
    let d = temp("replay");
    let level = d.join("levels/tiny.txt");
    std::fs::write(&level, LEVEL).unwrap();
    let run = run_tool!(
        BIN,
        "replay",
        &level,
        "DRDLDUUUL",
        "--html",
        d.join("r.html")
    )
    .ok();
    assert_eq!(
        run.stdout,
        "Result (1->win; 0->lose):1, Score:5, timesteps:8\n"
    );
    let page = std::fs::read_to_string(d.join("r.html")).unwrap();
    assert!(page.contains("<canvas") && page.contains("step 9: L"));
    run_tool!(BIN, "replay", &level, "DRX").fails(2, "`X` is not an action");
}

#[test]
fn solve_a_folder_skips_the_game_file_and_reports_unwinnable_levels() {
    let d = temp("solve");
    std::fs::write(d.join("levels/a_1.txt"), LEVEL).unwrap();
    std::fs::write(d.join("levels/a_2.txt"), "wwww\nwAgw\nwwww").unwrap();
    std::fs::write(d.join("levels/game.txt"), bait::DEFAULT_GAME).unwrap();
    let run = run_tool!(BIN, "solve", d.join("levels"))
        .code(1)
        .prints("a_1.txt: 9 actions, score 5: DRDLDUUUL")
        .says("a_2.txt: no winning play exists");
    let stdout = run.stdout.trim_end();
    assert!(stdout.ends_with("2 files: 1 ok, 1 failed"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(d.join("output/output_a_1.txt")).unwrap(),
        "DRDLDUUUL\n"
    );
}

#[test]
fn agents_run_and_are_reproducible() {
    let d = temp("agents");
    let level = d.join("levels/tiny.txt");
    std::fs::write(&level, LEVEL).unwrap();
    for agent in ["dfs", "dls:5", "astar", "bfs"] {
        run_tool!(BIN, "run", &level, "--agent", agent, "-o", d.join("out"))
            .ok()
            .prints("Result (1->win; 0->lose):1, Score:5");
    }
}

/// A reader that goes away (`bait … | grep -q win`) ends the program quietly, as it ends `cat`,
/// instead of a panic about a broken pipe (which a `pipefail` script counts as a failure of ours).
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let d = temp("pipe");
    let level = d.join("levels/tiny.txt");
    std::fs::write(&level, LEVEL).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = bin()
        .arg("replay")
        .arg(&level)
        .arg("DRDLDUUUL")
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(13), "killed by SIGPIPE");
}

/// A max-score search cut by its budget says what it proved: the maximum lies between the
/// shortest win's score and the target it was searching, and the full search agrees.
#[test]
fn a_cut_max_score_search_reports_the_bounds_it_proved() {
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/../../inputs/bait/level_4.txt");
    let d = temp("bounds");
    let full = bin()
        .args([
            "solve",
            level,
            "--objective",
            "max-score",
            "--json",
            "-q",
            "-o",
        ])
        .arg(d.join("full"))
        .output()
        .unwrap();
    assert!(full.status.success());
    let report: serde_json::Value = serde_json::from_slice(&full.stdout).unwrap();
    let best = report["files"][0]["result"]["score"].as_i64().unwrap();
    let cut = bin()
        .args([
            "solve",
            level,
            "--objective",
            "max-score",
            "--max-states",
            "1000",
            "-o",
        ])
        .arg(d.join("cut"))
        .output()
        .unwrap();
    assert!(!cut.status.success());
    let stderr = String::from_utf8_lossy(&cut.stderr);
    let numbers: Vec<i64> = stderr
        .split("between ")
        .nth(1)
        .expect("the bounds are reported")
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .take(2)
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(
        numbers[0] <= best && best <= numbers[1],
        "{best} outside {numbers:?}: {stderr}"
    );
}

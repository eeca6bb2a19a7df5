//! The match tool with real shared libraries: this crate's own `cdylib` (loaded through the
//! external-library path, in a child process) plays full games, and deliberately crashing,
//! hanging and incomplete libraries are scored as the course tool scores them, without harming
//! the harness.

use batch::testing::Run;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_connect4"));
    c.env("CONNECT4_TIME_MS", "40");
    c
}

fn own_cdylib() -> PathBuf {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    for name in ["libconnect4.so", "libconnect4.dylib", "connect4.dll"] {
        for dir in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
            if dir.join(name).exists() {
                return dir.join(name);
            }
        }
    }
    panic!(
        "the connect4 cdylib was not built next to {}",
        deps.display()
    );
}

fn c_library(dir: &Path, name: &str, body: &str) -> Option<PathBuf> {
    let src = dir.join(format!("{name}.c"));
    let out = dir.join(format!("lib{name}.so"));
    std::fs::write(&src, body).unwrap();
    let ok = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .ok()?
        .success();
    ok.then_some(out)
}

fn compete(a: &str, b: &str, rounds: &str, result: &Path) -> String {
    Run::of(
        bin()
            .args(["compete", a, b, "--rounds", rounds, "--quiet", "--result"])
            .arg(result),
    )
    .ok();
    std::fs::read_to_string(result).unwrap()
}

#[test]
fn own_library_plays_full_games_through_the_external_path() {
    let dir = batch::testing::temp_dir("c4-own");
    let lib = own_cdylib();
    let text = compete(lib.to_str().unwrap(), "random", "1", &dir.join("r.txt"));
    let games: Vec<&str> = text.lines().skip(1).take(2).collect();
    assert!(
        games.iter().all(|g| g.starts_with("1\t")),
        "the engine should beat random: {text}"
    );
    assert!(text.contains("ratio of A wins : 1\n"));
}

#[test]
fn crashing_hanging_and_incomplete_libraries_are_scored_not_fatal() {
    let dir = batch::testing::temp_dir("c4-bad");
    let crash = c_library(&dir, "crash", "typedef struct { int x, y; } Point;\nPoint* getPoint(int M, int N, const int* top, const int* b, int lx, int ly, int nx, int ny) { volatile int* p = 0; *p = 1; return 0; }\nvoid clearPoint(Point* p) {}\n");
    let hang = c_library(&dir, "hang", "#include <unistd.h>\ntypedef struct { int x, y; } Point;\nPoint* getPoint(int M, int N, const int* top, const int* b, int lx, int ly, int nx, int ny) { sleep(30); return 0; }\nvoid clearPoint(Point* p) {}\n");
    let partial = c_library(&dir, "partial", "int unrelated(void) { return 0; }\n");
    let (Some(crash), Some(hang), Some(partial)) = (crash, hang, partial) else {
        eprintln!("no C compiler: skipped");
        return;
    };
    // A crashes when it moves: game 1 (A first) is an A bug; in game 2 B (greedy) moves first and
    // A crashes on its first move too.
    let text = compete(
        crash.to_str().unwrap(),
        "greedy",
        "1",
        &dir.join("crash.txt"),
    );
    assert_eq!(text.lines().nth(1), Some("3\t0\t0"));
    assert_eq!(text.lines().nth(2), Some("3\t0\t0"));
    assert!(text.contains("ratio of B wins : 1\n"));
    // B hangs: timed out after the 3 s limit, scored for A.
    let text = compete("greedy", hang.to_str().unwrap(), "1", &dir.join("hang.txt"));
    assert!(text.lines().nth(1).unwrap().starts_with("8\t"), "{text}");
    // No getPoint: an interface error, counted for nobody.
    let text = compete(
        partial.to_str().unwrap(),
        "random",
        "1",
        &dir.join("partial.txt"),
    );
    assert!(text.lines().nth(1).unwrap().starts_with("-3\t"), "{text}");
    assert!(text.contains("ratio of A wins : 0\nratio of B wins : 0\nratio of Tie : 0\n"));
}

#[test]
fn a_library_over_the_memory_limit_crashes_alone_and_loses() {
    let dir = batch::testing::temp_dir("c4-hog");
    // Allocates and touches 1.5 GiB (more than the course's 1 GB), then plays a legal move.
    let hog = c_library(&dir, "hog", "#include <stdlib.h>\n#include <string.h>\ntypedef struct { int x, y; } Point;\nPoint* getPoint(int M, int N, const int* top, const int* b, int lx, int ly, int nx, int ny) { size_t n = (size_t)1536 << 20; char* p = malloc(n); memset(p, 1, n); for (int y = 0; y < N; y++) if (top[y] > 0) { Point* q = malloc(sizeof(Point)); q->x = top[y] - 1; q->y = y; return q; } return 0; }\nvoid clearPoint(Point* p) { free(p); }\n");
    let Some(hog) = hog else {
        eprintln!("no C compiler: skipped");
        return;
    };
    let text = compete(hog.to_str().unwrap(), "greedy", "1", &dir.join("hog.txt"));
    // Both games: A's process cannot get the memory and crashes on its first move, a bug.
    assert_eq!(text.lines().nth(1), Some("3\t0\t0"), "{text}");
    assert_eq!(text.lines().nth(2), Some("3\t0\t0"), "{text}");
}

#[test]
fn result_file_has_the_course_layout() {
    let dir = batch::testing::temp_dir("c4-layout");
    let text = compete("greedy", "random", "3", &dir.join("r.txt"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "0:");
    assert_eq!(lines[3], "");
    assert_eq!(lines[4], "1:");
    assert_eq!(lines[12], "Stat:");
    assert!(lines[13].starts_with("ratio of A wins : "));
    assert_eq!(lines[16], "");
    assert!(lines[18].starts_with("ratio of (B wins + tie) : "));
}

#[test]
fn printed_moves_replay_to_the_printed_final_board() {
    let dir = batch::testing::temp_dir("c4-moves");
    let out = Command::new(env!("CARGO_BIN_EXE_connect4"))
        .args(["compete", "greedy", "random", "--rounds", "2", "--moves"])
        .arg("--result")
        .arg(dir.join("r.txt"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut games = 0;
    for (i, line) in lines.iter().enumerate() {
        // "Round i A first: M = .., N = ..: ..", the board, then "moves: ...".
        let Some(rest) = line.strip_prefix("Round ") else {
            continue;
        };
        let a_first = rest.contains("A first");
        let dims: Vec<usize> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        let (m, n) = (dims[1], dims[2]);
        let board: Vec<&str> = lines[i + 1..i + 1 + m].to_vec();
        let moves_line = lines[i + 1 + m]
            .strip_prefix("moves: ")
            .expect("a moves line");
        // The obstacle is the board's X.
        let (no_x, no_y) = board
            .iter()
            .enumerate()
            .find_map(|(x, row)| row.split(' ').position(|c| c == "X").map(|y| (x, y)))
            .unwrap();
        let mut g = connect4::engine::GameState::new(connect4::Board::new(m, n, no_x, no_y), 1);
        for y in moves_line.split(' ') {
            g.play(y.parse().unwrap());
        }
        assert!(g.result.is_some(), "the moves finish the game");
        let letters = if a_first { ['A', 'B'] } else { ['B', 'A'] };
        assert_eq!(
            g.board.to_text(letters),
            board.iter().map(|r| format!("{r}\n")).collect::<String>()
        );
        games += 1;
    }
    assert_eq!(games, 4);
}

#[test]
fn size_fixes_every_board_and_bad_sizes_are_refused() {
    let dir = batch::testing::temp_dir("c4-size");
    let out = bin()
        .args([
            "compete", "greedy", "random", "--rounds", "4", "--size", "9x11",
        ])
        .arg("--result")
        .arg(dir.join("r.txt"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rounds: Vec<&str> = text.lines().filter(|l| l.starts_with("Round ")).collect();
    assert_eq!(rounds.len(), 8);
    assert!(
        rounds.iter().all(|l| l.contains("M = 9, N = 11:")),
        "{rounds:?}"
    );
    // The obstacle is still drawn at random (seeded): not in the same column every round.
    let columns: std::collections::HashSet<usize> =
        text.lines().filter_map(|l| l.find('X')).collect();
    assert!(columns.len() > 1, "{text}");
    for bad in ["13x9", "9", "9xten"] {
        let out = bin()
            .args(["compete", "greedy", "random", "--size", bad])
            .arg("--result")
            .arg(dir.join("bad.txt"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--size {bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("--size"), "{err}");
        assert!(!dir.join("bad.txt").exists());
    }
}

#[test]
fn players_that_cannot_load_are_named_with_the_loader_s_reason() {
    let dir = batch::testing::temp_dir("c4-unloadable");
    let text = dir.join("text.so");
    std::fs::write(&text, "not a library\n").unwrap();
    let Some(partial) = c_library(&dir, "partial", "int getPoint(void) { return 0; }\n") else {
        eprintln!("no C compiler: skipped");
        return;
    };
    let out = bin()
        .args(["tournament", "--players"])
        .arg(&text)
        .arg(&partial)
        .args(["--opponents", "random", "--rounds", "1", "--out"])
        .arg(dir.join("t"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = |name: &str| {
        stderr
            .lines()
            .find(|l| l.starts_with(&format!("warning: {}", dir.join(name).display())))
            .unwrap_or_else(|| panic!("{name} is not named in {stderr}"))
            .to_string()
    };
    assert!(
        line("text.so").contains("cannot be loaded as a library: "),
        "{stderr}"
    );
    assert!(line("text.so").contains("each of its games is scored as a crash"));
    assert!(
        line("libpartial.so").contains("lacks clearPoint (the course's interface)"),
        "{stderr}"
    );
    let standings = std::fs::read_to_string(dir.join("t/standings.csv")).unwrap();
    // Both still play, and lose each game as a crash.
    assert_eq!(standings.lines().count(), 3, "{standings}");
    assert!(
        standings
            .lines()
            .skip(1)
            .all(|l| l.ends_with(",2,0,0,2,2,0,0")),
        "{standings}"
    );
}

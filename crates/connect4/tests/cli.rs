//! The course interfaces as a judge would drive them.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_connect4"))
}

fn run(args: &[&str], input: &str) -> (i32, Vec<u8>, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn move_answers_a_legal_point_and_takes_a_win() {
    // 9x9, obstacle at (4,4); self (2) has three in the bottom row at columns 0..2.
    let mut board = [0; 81];
    for y in 0..3 {
        board[8 * 9 + y] = 2;
    }
    board[7 * 9] = 1;
    board[7 * 9 + 1] = 1;
    let mut top = [9; 9];
    top[0] = 7;
    top[1] = 7;
    top[2] = 8;
    let text = format!(
        "9 9 4 4 7 1\n{}\n{}\n",
        top.iter()
            .map(|v: &i32| v.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        board
            .iter()
            .map(|v: &i32| v.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let (code, out, _) = run(&["move", "--iterations", "100"], &text);
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8(out).unwrap(), "8 3\n");
    let (code, _, err) = run(&["move"], "9 9 4 4\n");
    assert_eq!(code, 2);
    assert!(err.contains("missing lastX lastY"), "{err}");
    // A board the engine cannot hold is refused with a message, not a crash.
    let (code, _, err) = run(&["move"], "20 20 0 0 -1 -1\n");
    assert_eq!(code, 2);
    assert!(err.contains("board size 20x20 is not supported"), "{err}");
}

#[test]
fn saiblo_replies_with_length_prefixed_points() {
    let empty = format!("{}\n{}\n", ["9"; 9].join(" "), ["0"; 81].join(" "));
    let input = format!("9 9 0 0\n-1 -1\n{empty}");
    let (code, out, _) = run(&["saiblo", "--iterations", "50"], &input);
    assert_eq!(code, 0);
    let len = u32::from_be_bytes(out[..4].try_into().unwrap()) as usize;
    let msg = std::str::from_utf8(&out[4..4 + len]).unwrap();
    assert!(msg.starts_with("8 "), "{msg}");
    assert_eq!(out.len(), 4 + len);
}

#[test]
fn solve_checks_scores() {
    let (code, out, _) = run(&["solve", "--check"], "4455 18\n44455554221 -15\n");
    assert_eq!(code, 0);
    assert_eq!(String::from_utf8(out).unwrap(), "2 passed, 0 failed\n");
    let (code, out, _) = run(&["solve", "--check"], "4455 17\n");
    assert_eq!(code, 1);
    assert!(String::from_utf8(out)
        .unwrap()
        .starts_with("4455 18 (expected 17)"));
    let (code, _, err) = run(&["solve"], "4455\n9\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("stdin:2: move 1: `9` is not a column"),
        "{err}"
    );
}

#[test]
fn analyze_names_the_losing_move_and_rejects_illegal_moves() {
    let args = [
        "analyze",
        "--size",
        "9x9",
        "--obstacle",
        "0,0",
        "--time-ms",
        "200",
        "--from",
        "3",
    ];
    let (code, out, _) = run(&[&args[..], &["3", "3", "4", "4", "5"]].concat(), "");
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{out}");
    // Positions after moves 3, 4 and 5 only, numbered from the start of the game.
    let plies: Vec<&str> = out
        .lines()
        .skip(1)
        .take(3)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(plies, ["3", "4", "5"]);
    // The fill-up column: the first player's two threats win the fill-up game too.
    assert!(
        out.contains("  5  second            -  first    first wins in 2 plies"),
        "{out}"
    );
    assert!(
        out.contains("fill-up: who wins if the columns fill up"),
        "{out}"
    );
    assert!(
        out.contains("decided by move 4 (column 4, second player)"),
        "{out}"
    );
    let (code, _, err) = run(&[&args[..], &["3", "3", "4", "4", "5", "77"]].concat(), "");
    assert_eq!(code, 2);
    assert!(err.contains("move 6 (77) is not a legal column"), "{err}");
}

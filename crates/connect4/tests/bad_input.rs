//! Requests the judge could never send, endless input, bad lines and unwritable result files:
//! each gets a clear message and a non-zero exit (or a correct answer), never a panic or an
//! illegal move.

use batch::testing::run_with_input;
use std::process::Command;

fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_connect4"));
    let r = run_with_input(command.args(args), input.as_bytes());
    (r.code, r.stdout, r.stderr)
}

/// A request on an M x N board with the given obstacle, `top` and cells (0, 1 or 2 per cell).
fn request(m: usize, n: usize, obstacle: (usize, usize), top: &[i64], cells: &[i32]) -> String {
    let join = |v: Vec<String>| v.join(" ");
    format!(
        "{m} {n} {} {} -1 -1\n{}\n{}\n",
        obstacle.0,
        obstacle.1,
        join(top.iter().map(i64::to_string).collect()),
        join(cells.iter().map(i32::to_string).collect())
    )
}

/// The 9x9 board whose columns other than `open` are full of alternating stones, as
/// `(top, cells)`, the obstacle at `obstacle`.
fn full_but(open: usize, obstacle: (usize, usize)) -> (Vec<i64>, Vec<i32>) {
    let mut cells = vec![0; 81];
    let mut top = vec![0i64; 9];
    for y in (0..9).filter(|&y| y != open) {
        for x in (0..9).rev() {
            if (x, y) != obstacle {
                // Stones in a pattern with no four: pairs by column, rows shifted.
                cells[x * 9 + y] = if (x / 2 + y) % 2 == 0 { 1 } else { 2 };
            }
        }
    }
    top[open] = 9;
    (top, cells)
}

fn refused(args: &[&str], input: &str, message: &str) {
    let (code, out, err) = run(args, input);
    assert_eq!(
        code,
        Some(2),
        "{args:?} on {input:?}: stdout {out:?}, stderr {err:?}"
    );
    assert!(err.contains(message), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn inconsistent_top_is_refused_not_a_panic() {
    refused(&["move"], "1 1 0 0 -1 -1\n1\n0\n", "top[0] = 1 disagrees");
    refused(
        &["saiblo"],
        "1 1 0 0\n-1 -1\n1\n0\n",
        "top[0] = 1 disagrees",
    );
    refused(&["move"], "1 2 0 0 -1 -1\n1 1\n0 0\n", "disagrees");
}

#[test]
fn a_top_pointing_at_the_obstacle_is_refused_not_played() {
    refused(
        &["move"],
        "2 1 1 0 -1 -1\n2\n0\n0\n",
        "top[0] = 2 disagrees",
    );
    let (mut top, cells) = full_but(0, (8, 0));
    top[0] = 9; // the judge's top is 8: the obstacle is in the bottom row
    refused(
        &["move"],
        &request(9, 9, (8, 0), &top, &cells),
        "top[0] = 9 disagrees",
    );
    let (mut top, mut cells) = full_but(5, (0, 5));
    for x in 1..9 {
        cells[x * 9 + 5] = if x % 2 == 0 { 1 } else { 2 };
    }
    top[5] = 1; // (0, 5) is the obstacle: the column is full
    refused(
        &["move"],
        &request(9, 9, (0, 5), &top, &cells),
        "top[5] = 1 disagrees",
    );
}

#[test]
fn top_that_disagrees_with_the_board_and_overflowing_numbers_are_refused() {
    let mut cells = vec![0; 81];
    cells[8 * 9 + 4] = 1;
    // The board has a stone at the bottom of column 4, `top` says the column is empty.
    refused(
        &["move"],
        &request(9, 9, (0, 0), &[9; 9], &cells),
        "top[4] = 9 disagrees",
    );
    let mut top = vec![9i64; 9];
    top[0] = 4_294_967_305;
    refused(
        &["move"],
        &request(9, 9, (0, 0), &top, &[0; 81]),
        "`4294967305`",
    );
    let request = request(9, 9, (0, 0), &[9; 9], &[0; 81]);
    refused(
        &["move"],
        &format!("{request}7\n"),
        "unexpected `7` after the board",
    );
    // A floating stone, too many stones of one side, a four already on the board.
    let mut floating = vec![0; 81];
    floating[4 * 9 + 4] = 1;
    let mut top = vec![9i64; 9];
    top[4] = 4;
    refused(
        &["move"],
        &self::request(9, 9, (0, 0), &top, &floating),
        "floats",
    );
    let mut two = vec![0; 81];
    two[8 * 9] = 1;
    two[8 * 9 + 1] = 1;
    let mut top = vec![9i64; 9];
    top[0] = 8;
    top[1] = 8;
    refused(
        &["move"],
        &self::request(9, 9, (0, 0), &top, &two),
        "cannot be this side's turn",
    );
}

#[test]
fn the_library_answers_an_inconsistent_request_with_a_legal_cell() {
    // top[0] points at the obstacle (1, 0): the first cell the judge accepts is column 1's.
    let (m, n) = (9usize, 9usize);
    let mut top = vec![9i32; n];
    top[0] = 2;
    let board = vec![0i32; m * n];
    #[allow(unsafe_code)]
    let (x, y) = unsafe {
        let p = connect4::ffi::getPoint(9, 9, top.as_ptr(), board.as_ptr(), -1, -1, 1, 0);
        let xy = ((*p).x, (*p).y);
        connect4::ffi::clearPoint(p);
        xy
    };
    assert_eq!((x, y), (8, 1));
}

#[test]
fn endless_input_is_an_error_not_an_endless_read() {
    let zeros = "0".repeat(2 << 20);
    let (code, _, err) = run(&["move"], &zeros);
    assert_eq!(code, Some(2));
    assert!(err.contains("line 1 is longer than"), "{err}");
    let (code, _, err) = run(&["solve"], &zeros);
    assert_eq!(code, Some(1));
    assert!(err.contains("line 1 is longer than"), "{err}");
}

#[test]
fn solve_reports_a_bad_line_solves_the_rest_and_sums_up() {
    let late = "2252576253462244111563365343671351441";
    let input = format!("4455\n48\n44455554221 x\n{late}\n");
    let (code, out, err) = run(&["solve"], &input);
    assert_eq!(code, Some(1));
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.starts_with("4455 ") && out.lines().nth(1).unwrap().starts_with(late));
    assert!(
        err.contains("stdin:2: move 2: `8` is not a column 1..7"),
        "{err}"
    );
    assert!(err.contains("stdin:3: `x` is not a score"), "{err}");
    assert!(
        err.contains("2 positions solved, 2 lines unreadable"),
        "{err}"
    );
    // --check with nothing to check, or a line without a score, is not a success.
    let (code, out, _) = run(&["solve", "--check"], "4455\n");
    assert_eq!(code, Some(1));
    assert!(out.ends_with("0 passed, 1 failed\n"), "{out}");
    let (code, _, err) = run(&["solve", "--check"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("nothing to check"), "{err}");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let request = request(9, 9, (0, 0), &[9; 9], &[0; 81]);
    let (code, out, err) = run(
        &["move", "--iterations", "50"],
        &format!("\u{feff}{request}"),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("8 "), "{out}");
    let (code, out, _) = run(&["solve"], "\u{feff}4455\n");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("4455 "));
}

#[test]
fn an_unwritable_result_file_fails_before_the_first_game() {
    let dir = batch::testing::temp_dir("c4-result");
    // The result path is a folder: nothing can be written there.
    let (code, out, err) = run(
        &[
            "compete",
            "random",
            "random",
            "--rounds",
            "50",
            "--result",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is a folder"), "{err}");
    assert!(!out.contains("Round"), "games were played: {out}");
}

#[test]
fn unreachable_plies_and_endless_alphabeta_depths_are_refused() {
    // Seed 2024's board has no open move left long before 144 stones.
    refused(&["generate", "--plies", "144"], "", "no open move after");
    let (code, out, _) = run(&["generate", "--plies", "10"], "");
    assert_eq!(code, Some(0));
    assert!(!out.is_empty());
    let dir = std::env::temp_dir().join(format!("c4-deep-{}", std::process::id()));
    let out_dir = dir.to_str().unwrap();
    for player in ["alphabeta:999999", "alphabeta:0", "alphabeta:11"] {
        refused(
            &[
                "tournament",
                "--players",
                player,
                "--opponents",
                "random",
                "--out",
                out_dir,
            ],
            "",
            "alphabeta:D with D from 1 to 10",
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

//! The course interfaces as a judge would drive them.

use batch::run_tool;
use batch::testing::{assert_run_reproduces_bundled_outputs, run_with_input};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_connect4");

fn bin() -> Command {
    Command::new(BIN)
}

fn run(args: &[&str], input: &str) -> (i32, Vec<u8>, String) {
    let r = run_with_input(bin().args(args), input.as_bytes());
    (r.code.unwrap_or(-1), r.stdout.into_bytes(), r.stderr)
}

#[test]
fn move_answers_a_legal_point_and_takes_a_win() {
    // 9x9, obstacle at (4,4); self (2) has three in the bottom row at columns 0..2, the
    // opponent two stones on them and one more on column 0.
    let mut board = [0; 81];
    for y in 0..3 {
        board[8 * 9 + y] = 2;
    }
    board[7 * 9] = 1;
    board[7 * 9 + 1] = 1;
    board[6 * 9] = 1; // the opponent has as many stones: it is self's turn
    let mut top = [9; 9];
    top[0] = 6;
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
    // A bad line is reported and counted; the exit code says something failed.
    let (code, _, err) = run(&["solve"], "4455\n9\n");
    assert_eq!(code, 1);
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

#[test]
fn run_on_the_bundled_inputs_reproduces_the_bundled_outputs() {
    let (r, out) =
        assert_run_reproduces_bundled_outputs(BIN, env!("CARGO_MANIFEST_DIR"), "connect4");
    assert!(r.stdout.ends_with("9 files: 9 ok\n"), "{}", r.stdout);
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn run_answers_requests_legally_solves_7x6_lists_and_keeps_going_past_a_bad_file() {
    use connect4::engine::GameState;
    let dir = batch::testing::temp_dir("connect4-cli-run-mixed");
    for seed in 0..6u64 {
        let text = connect4::run::random_request(seed, 3 * seed as usize);
        std::fs::write(dir.join(format!("input_{seed}.txt")), text).unwrap();
    }
    std::fs::write(dir.join("input_9.txt"), "9 9 0 0 -1 -1\n1 2 3\n").unwrap();
    std::fs::write(dir.join("easy.7x6"), "# comment\n4455\n\n44455554221 2\n").unwrap();
    std::fs::write(dir.join("bad.7x6"), "4455\n48\n").unwrap();
    let out = dir.join("out");
    let r = run_tool!(BIN, "run", &dir, "-o", &out, "--iterations", "300", "-q")
        .fails(1, "input_9.txt: ")
        .says("bad.7x6:2: ");
    assert_eq!(r.stdout, "9 files: 7 ok, 2 failed\n");
    for seed in 0..6u64 {
        // Replay the request's board and check the answer is a legal cell of it.
        let request = connect4::run::random_request(seed, 3 * seed as usize);
        let nums: Vec<i64> = request
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let (m, n) = (nums[0] as usize, nums[1] as usize);
        let top: Vec<i32> = nums[6..6 + n].iter().map(|&v| v as i32).collect();
        let cells: Vec<i32> = nums[6 + n..].iter().map(|&v| v as i32).collect();
        let board =
            connect4::Board::from_course(m, n, &top, &cells, nums[2] as usize, nums[3] as usize, 2)
                .unwrap();
        let answer = std::fs::read_to_string(out.join(format!("output_{seed}.txt"))).unwrap();
        let xy: Vec<usize> = answer
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert!(
            GameState::new(board.clone(), 2)
                .board
                .is_legal(xy[0], xy[1]),
            "seed {seed}: {answer}"
        );
    }
    // Each 7x6 line gets the solver's own score (a score listed in the input is not copied).
    let solved = std::fs::read_to_string(out.join("output_easy.txt")).unwrap();
    let lines: Vec<&str> = solved.lines().collect();
    assert_eq!(lines.len(), 2);
    let mut solver = connect4::solver7x6::Solver::default();
    for (line, moves) in lines.iter().zip(["4455", "44455554221"]) {
        let p = connect4::solver7x6::Position::parse(moves).unwrap();
        assert_eq!(*line, format!("{moves} {}", solver.solve(&p, false)));
    }
}

#[test]
fn a_generated_request_reads_back_as_the_position_it_was_made_from() {
    for seed in 0..20u64 {
        let text = connect4::run::random_request(seed, seed as usize);
        let (code, answer, err) = run(&["move", "--iterations", "200"], &text);
        assert_eq!(code, 0, "seed {seed}: {err}");
        assert_eq!(
            String::from_utf8(answer)
                .unwrap()
                .split_whitespace()
                .count(),
            2
        );
        let g = bin()
            .args([
                "generate",
                "--seed",
                &seed.to_string(),
                "--plies",
                &seed.to_string(),
            ])
            .output()
            .unwrap();
        // Where the board leaves no open move before `seed` stones, generate says so.
        let (_, played) = connect4::run::random_request_played(seed, seed as usize);
        if played < seed as usize {
            assert_eq!(g.status.code(), Some(2), "seed {seed}");
            let err = String::from_utf8_lossy(&g.stderr);
            assert!(err.contains(&format!("after {played} stones")), "{err}");
        } else {
            assert_eq!(String::from_utf8(g.stdout).unwrap(), text);
        }
    }
}

#[test]
fn solve_skips_comment_lines() {
    let (code, out, err) = run(&["solve"], "# a comment\n\n44455554221\n");
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    let mut solver = connect4::solver7x6::Solver::default();
    let p = connect4::solver7x6::Position::parse("44455554221").unwrap();
    assert_eq!(out, format!("44455554221 {}\n", solver.solve(&p, false)));
}

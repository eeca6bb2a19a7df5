//! Times that would overflow a clock, board files from other editors and bad bytes in a UCI
//! session: a clear message and a non-zero exit (or a correct answer), never a panic.

use batch::run_tool;
use batch::testing::{run_with_input, temp_dir, Run};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-endgame");

const BOARD: &str = "...k.....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n....R....\n....K....\n";

#[test]
fn times_that_are_not_finite_seconds_are_refused() {
    for time in ["inf", "1e300", "NaN", "-1"] {
        let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";
        run_tool!(BIN, "run", "--fen", fen, format!("--time={time}"))
            .fails(2, "is not a number of seconds");
    }
}

#[test]
fn a_board_file_with_a_byte_order_mark_is_read() {
    let dir = temp_dir("xq-bom");
    std::fs::write(dir.join("1.txt"), format!("\u{feff}{BOARD}")).unwrap();
    std::fs::write(dir.join("2.txt"), BOARD.replace('\n', "\r")).unwrap();
    run_tool!(BIN, "run", &dir, "-o", dir.join("out/output")).ok();
    for k in [1, 2] {
        let answer =
            std::fs::read_to_string(dir.join(format!("out/output/output_{k}.txt"))).unwrap();
        assert_eq!(answer.trim(), "R (4,1) (4,8)", "{k}.txt");
    }
}

#[test]
fn a_uci_line_of_bad_bytes_is_skipped_and_the_session_goes_on() {
    let text = uci_session(b"uci\n\xff\xfe\xfd\nisready\nquit\n");
    assert!(
        text.contains("info string error: line 2 is not valid UTF-8"),
        "{text}"
    );
    assert!(text.contains("readyok"), "{text}");
}

/// `xiangqi-endgame uci` fed `input`: its output.
fn uci_session(input: &[u8]) -> String {
    run_with_input(Command::new(BIN).arg("uci"), input)
        .ok()
        .stdout
}

#[test]
fn answers_with_signs_letters_or_extra_numbers_are_invalid() {
    use xiangqi_endgame::{course_io::YOrigin, grade::parse_answer, Position};
    let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
    assert!(parse_answer(&p, "R (4,1) (4,8)", YOrigin::Bottom).is_ok());
    assert!(parse_answer(&p, "R(4,1)(4,8)", YOrigin::Bottom).is_ok());
    for bad in [
        "R (-4,1) (4,8)",
        "R (4,+1) (4,8)",
        "R (4,1) (4,8) (4,9)",
        "R (4,1,2) (4,8)",
        "R (4,1) (4, 8x)",
        "R 4,1 4,8",
        "R (4,1) (4,8",
        "R (04,001) (4,8)",
    ] {
        let e = parse_answer(&p, bad, YOrigin::Bottom).unwrap_err();
        assert!(e.contains("is not an answer like"), "{bad}: {e}");
    }
    let e = parse_answer(&p, "Z (4,1) (4,8)", YOrigin::Bottom).unwrap_err();
    assert_eq!(e, "`Z` is not a red piece's letter (K A B N R C P)");
}

#[test]
fn a_position_without_a_king_is_refused_where_a_game_is_played() {
    let no_black = "9/9/9/9/9/9/9/9/4R4/4K4 w";
    let no_red = "3k5/9/9/9/9/9/9/9/4R4/9 w";
    for fen in [no_black, no_red] {
        for args in [
            vec!["mate", fen],
            vec!["run", "--fen", fen],
            vec!["perft", fen, "1"],
        ] {
            Run::from(Command::new(BIN).args(&args).output().unwrap())
                .fails(2, "king: a game needs both kings");
        }
    }
    let text = uci_session(format!("position fen {no_black}\nisready\nquit\n").as_bytes());
    assert!(
        text.contains("info string error: ") && text.contains("no black king"),
        "{text}"
    );
    // A course board file may lack the black king (the course's own input 9 does), not the red.
    let dir = temp_dir("xq-kings");
    std::fs::write(dir.join("1.txt"), BOARD.replace('k', ".")).unwrap();
    std::fs::write(dir.join("2.txt"), BOARD.replace('K', ".")).unwrap();
    run_tool!(BIN, "run", dir.join("1.txt"), "-o", dir.join("out/output")).ok();
    run_tool!(BIN, "run", dir.join("2.txt"), "-o", dir.join("out/output")).fails(1, "no red king");
}

#[test]
fn an_over_long_uci_line_is_dropped_whole_and_line_numbers_stay_right() {
    let mut input = b"uci\n".to_vec();
    input.extend(std::iter::repeat_n(b' ', 3 << 20));
    input.extend_from_slice(b"isready\nfrobnicate\nquit\n");
    let text = uci_session(&input);
    assert!(
        text.contains("info string error: line 2 is longer than"),
        "{text}"
    );
    assert!(!text.contains("readyok"), "the tail of line 2 ran: {text}");
    assert!(
        text.contains("info string unknown command frobnicate"),
        "{text}"
    );
}

#[test]
fn go_options_that_are_not_followed_are_said() {
    let text = uci_session(
        b"position startpos\ngo depth 1 searchmoves h2e2\nposition startpos\ngo depth 1 wtime 1000 btime 1000 movestogo 0\nquit\n",
    );
    assert!(
        text.contains("info string warning: searchmoves is not supported"),
        "{text}"
    );
    assert!(
        text.contains("info string warning: movestogo 0 is not a number of moves"),
        "{text}"
    );
    assert_eq!(text.matches("bestmove ").count(), 2, "{text}");
}

#[test]
fn problem_collections_with_bad_mate_lengths_or_fens_name_them() {
    let dir = temp_dir("xq-problems");
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";
    std::fs::write(
        dir.join("p.txt"),
        format!("{fen} ; mate in 1\n{fen} ; mate in -1\n{fen} ; mate in x\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("p.json"),
        format!(r#"[{{"fen": 5}}, {{"fen": "{fen}"}}]"#),
    )
    .unwrap();
    for (file, expected) in [
        (
            "p.txt",
            "2: `mate in -1`: the moves must be a whole number from 1",
        ),
        ("p.txt", "3: `mate in x`"),
        ("p.json", "entry 1: `fen` is 5, not a string"),
    ] {
        run_tool!(BIN, "problems", "--movetime-ms", "10", dir.join(file)).says(expected);
    }
}

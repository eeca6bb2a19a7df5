//! Times that would overflow a clock, board files from other editors and bad bytes in a UCI
//! session: a clear message and a non-zero exit (or a correct answer), never a panic.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-endgame"))
}

const BOARD: &str = "...k.....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n....R....\n....K....\n";

#[test]
fn times_that_are_not_finite_seconds_are_refused() {
    for time in ["inf", "1e300", "NaN", "-1"] {
        let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";
        let out = bin()
            .args(["run", "--fen", fen, &format!("--time={time}")])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--time {time}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("is not a number of seconds"));
    }
}

#[test]
fn a_board_file_with_a_byte_order_mark_is_read() {
    let dir = std::env::temp_dir().join(format!("xq-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("1.txt"), format!("\u{feff}{BOARD}")).unwrap();
    std::fs::write(dir.join("2.txt"), BOARD.replace('\n', "\r")).unwrap();
    let out = bin()
        .arg("run")
        .arg(&dir)
        .arg("-o")
        .arg(dir.join("out/output"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for k in [1, 2] {
        let answer =
            std::fs::read_to_string(dir.join(format!("out/output/output_{k}.txt"))).unwrap();
        assert_eq!(answer.trim(), "R (4,1) (4,8)", "{k}.txt");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_uci_line_of_bad_bytes_is_skipped_and_the_session_goes_on() {
    let mut child = bin()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input
        .write_all(b"uci\n\xff\xfe\xfd\nisready\nquit\n")
        .unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text.contains("info string error: line 2 is not valid UTF-8"),
        "{text}"
    );
    assert!(text.contains("readyok"), "{text}");
}

//! Full output devices, sizes that cannot be allocated, checks with nothing to check and files
//! saved by other editors: a clear message and a non-zero exit (or a correct answer), never a
//! panic.

use batch::run_tool;
use batch::testing::Run;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_othello");

fn bin() -> Command {
    Command::new(BIN)
}

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("othello-bad-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

const SCORED: &str = "% two scored positions\n\
    --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n\
    -XXXXX--O-XOOO---OOOOOOOXXOXXOOOOXXOXXXOOOXOOOOO---XOO-O--XXXXX- X; C7:+22;\n";

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_an_error_not_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = bin()
        .args(["perft", "3"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: failed printing to stdout"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_table_too_large_is_refused_with_a_message() {
    let file = temp_file("hash.obf", SCORED.as_bytes());
    for (mb, message) in [
        ("18446744073709551615", "not in 1..=65536"),
        ("0", "not in 1..=65536"),
    ] {
        run_tool!(BIN, "solve", &file, "--hash-mb", mb).fails(2, message);
    }
    std::fs::remove_file(file).unwrap();
}

#[test]
fn checks_with_nothing_to_check_do_not_succeed() {
    let unscored = temp_file(
        "unscored.obf",
        b"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;\n",
    );
    let run = run_tool!(BIN, "solve", "--check", &unscored).code(1);
    assert!(
        run.stdout.ends_with("0 passed, 1 failed\n"),
        "{}",
        run.stdout
    );
    let empty = temp_file("empty.obf", b"% nothing\n");
    run_tool!(BIN, "solve", "--check", &empty).fails(2, "no position to check");
    for command in ["vectors", "nodecounts"] {
        run_tool!(BIN, command, "/dev/null").fails(2, "no rows to check");
    }
    std::fs::remove_file(unscored).unwrap();
    std::fs::remove_file(empty).unwrap();
}

#[test]
fn a_byte_order_mark_and_old_mac_line_ends_are_read_correctly() {
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(SCORED.as_bytes());
    let cr = SCORED.replace('\n', "\r");
    for (name, bytes) in [("bom.obf", bom), ("cr.obf", cr.into_bytes())] {
        let file = temp_file(name, &bytes);
        let run = run_tool!(BIN, "solve", "--check", &file).ok();
        assert!(
            run.stdout.ends_with("2 passed, 0 failed\n"),
            "{name}: {}",
            run.stdout
        );
        std::fs::remove_file(file).unwrap();
    }
}

#[test]
fn training_on_nothing_or_with_a_penalty_that_is_not_a_number_is_refused() {
    let dir = std::env::temp_dir().join(format!("othello-train-bad-{}", std::process::id()));
    let out = dir.join("w.bin");
    for (args, message) in [
        (
            &["--ridge", "NaN"][..],
            "`NaN` is not a finite number of 0 or more",
        ),
        (
            &["--ridge=-1"][..],
            "`-1` is not a finite number of 0 or more",
        ),
        (&["--ridge", "inf"][..], "`inf` is not a finite number"),
        (&["--games", "0"][..], "not in 1.."),
    ] {
        Run::of(bin().arg("train").arg("--out").arg(&out).args(args)).fails(2, message);
        assert!(!out.exists());
    }
}

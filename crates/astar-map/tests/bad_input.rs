//! Bad options, full output devices, files from other editors, numbers too large and files a
//! killed run left behind: a clear message and a non-zero exit (or a correct answer), never a
//! panic.

use batch::run_tool;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_astar-map");

fn bin() -> Command {
    Command::new(BIN)
}

fn temp_dir(name: &str) -> batch::testing::Scratch {
    batch::testing::temp_dir(&format!("astar-bad-{name}"))
}

const MAP: &str = "3 4 5\n3 0 0 0\n1 1 0 1\n0 0 0 4\n";

#[test]
fn numeric_options_out_of_range_are_refused() {
    for args in [
        ["generate", "--walls", "NaN"],
        ["generate", "--supplies", "NaN"],
        ["generate", "--walls", "1.5"],
        ["generate", "--rows", "100000"],
    ] {
        let [command, option, value] = args;
        run_tool!(BIN, command, option, value, "--cols", "100000").fails(2, "invalid value");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stderr_or_stdout_is_no_panic() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out = bin()
        .args(["run", "/nonexistent"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let dir = temp_dir("full");
    std::fs::write(dir.join("input_1.txt"), MAP).unwrap();
    let out = bin()
        .arg("run")
        .arg(dir.join("input_1.txt"))
        .arg("-o")
        .arg(dir.join("out"))
        .stdout(full())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed printing to stdout"));
}

#[test]
fn a_byte_order_mark_and_old_mac_line_ends_are_read_correctly() {
    let dir = temp_dir("bom");
    std::fs::write(dir.join("input_1.txt"), format!("\u{feff}{MAP}")).unwrap();
    std::fs::write(dir.join("input_2.txt"), MAP.replace('\n', "\r")).unwrap();
    std::fs::write(dir.join("input_3.txt"), MAP.replace('\n', "\r\n")).unwrap();
    run_tool!(BIN, "run", &dir, "-o", dir.join("out")).ok();
    for k in 1..=3 {
        let answer = std::fs::read_to_string(dir.join(format!("out/output_{k}.txt"))).unwrap();
        assert_eq!(answer.lines().next(), Some("5"), "input_{k}: {answer}");
    }
}

#[test]
fn messages_show_invisible_characters_and_say_too_large() {
    let dir = temp_dir("messages");
    std::fs::write(dir.join("input_1.txt"), "3\u{200b} 4 5\n").unwrap();
    std::fs::write(dir.join("input_2.txt"), "3 99999999999 5\n").unwrap();
    run_tool!(BIN, "run", &dir, "-o", dir.join("out"))
        .fails(1, "row count M `3\\u{200b}` is not a non-negative integer")
        .says("column count N `99999999999` is too large");
}

#[test]
fn temporaries_of_a_killed_run_are_removed_by_the_next() {
    let dir = temp_dir("stale");
    std::fs::write(dir.join("input_1.txt"), MAP).unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    // What `kill -9` during a write leaves: a hidden temporary of a process that is gone.
    let stale = out_dir.join(".output_1.txt.tmp4194304");
    std::fs::write(&stale, "half a fi").unwrap();
    run_tool!(BIN, "run", &dir, "-o", &out_dir).ok();
    assert!(!stale.exists(), "the stale temporary is still there");
    let names: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["output_1.txt"]);
}

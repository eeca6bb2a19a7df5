//! A child engine that misbehaves costs the harness only the time it was allowed: endless
//! output, endless lines, busy grandchildren and an early exit.
#![cfg(unix)]

use batch::testing::{fake_engine, temp_dir};
use batch::{LineProcess, WaitError};
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn endless_output_does_not_stop_the_deadline() {
    let dir = temp_dir("child-spam");
    for (name, body) in [
        ("lines.sh", "yes 'info depth 1 spam'"),
        // One line that never ends.
        ("one-line.sh", "tr '\\0' x < /dev/zero"),
    ] {
        let script = fake_engine(&dir, name, body);
        let mut engine = LineProcess::spawn(Command::new(&script)).unwrap();
        let start = Instant::now();
        let answer = engine.wait_for(start + Duration::from_millis(500), |l| l == "bestmove");
        assert_eq!(answer, Err(WaitError::Timeout), "{name}");
        assert!(start.elapsed() < Duration::from_secs(3), "{name}");
    }
}

/// Whether process `pid` is gone (or a zombie waiting for a parent that does not reap it).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn ending_the_engine_ends_its_children() {
    let dir = temp_dir("child-fork");
    let pid_file = dir.join("busy.pid");
    let script = fake_engine(
        &dir,
        "fork.sh",
        &format!(
            "sh -c 'while :; do :; done' &\necho $! > {}\necho ready\nsleep 100",
            pid_file.display()
        ),
    );
    let mut engine = LineProcess::spawn(Command::new(&script)).unwrap();
    let ready = engine.wait_for(Instant::now() + Duration::from_secs(10), |l| l == "ready");
    assert_eq!(ready.as_deref(), Ok("ready"));
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_string();
    assert!(!gone(&pid), "the busy child runs");
    drop(engine);
    let start = Instant::now();
    while !gone(&pid) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        gone(&pid),
        "the busy grandchild {pid} was ended with its engine"
    );
}

#[test]
fn an_engine_that_exits_is_reported_as_exited() {
    let dir = temp_dir("child-exit");
    let script = fake_engine(&dir, "exit.sh", "read line\nexit 3");
    let mut engine = LineProcess::spawn(Command::new(&script)).unwrap();
    engine.send("go").unwrap();
    let answer = engine.wait_for(Instant::now() + Duration::from_secs(10), |_| true);
    assert_eq!(answer, Err(WaitError::Exited));
}

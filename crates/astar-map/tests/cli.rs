//! The binary as a user meets it: a folder with one bad file still produces the other outputs,
//! names the bad file and line, exits non-zero; `check` exits 0/1 with a one-line reason.

use std::process::Command;

fn temp_dir(name: &str) -> batch::testing::Scratch {
    let d = batch::testing::temp_dir(&format!("astar-cli-{name}"));
    std::fs::create_dir_all(d.join("input")).unwrap();
    d
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_astar-map"))
}

#[test]
fn a_bad_file_does_not_stop_the_batch() {
    let d = temp_dir("batch");
    std::fs::write(d.join("input/input_1.txt"), "1 3 2\n3 0 4").unwrap();
    std::fs::write(d.join("input/input_2.txt"), "1 3 2\n3 0\n").unwrap();
    std::fs::write(d.join("input/input_10.txt"), "1 4 2\n3 0 0 4\n").unwrap();
    let out = bin().arg(d.join("input")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("input_2.txt:2: expected 3 cells in row 0, found 2"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));
    // Default output folder: the sibling `output/` of the input folder.
    assert_eq!(
        std::fs::read_to_string(d.join("output/output_1.txt")).unwrap(),
        "2\nRR\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("output/output_10.txt")).unwrap(),
        "-1\n"
    );
    assert!(!d.join("output/output_2.txt").exists());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.trim_end().ends_with("3 files: 2 ok, 1 failed"),
        "{stdout}"
    );
    // Natural order: input_2 is reported before input_10.
    assert!(stdout.find("input_1.txt").unwrap() < stdout.find("input_10.txt").unwrap());
}

#[test]
fn check_reports_one_line_and_exit_code() {
    let d = temp_dir("check");
    let map = d.join("input/input_1.txt");
    std::fs::write(&map, "3 3 3\n0 0 3\n2 0 1\n1 0 4\n").unwrap();
    let good = d.join("good.txt");
    std::fs::write(&good, "6\nLLDRDR\n").unwrap();
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "-1\n").unwrap();
    let ok = bin().args(["check"]).arg(&map).arg(&good).output().unwrap();
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&ok.stdout),
        "ok: 6 days, optimal, route valid\n"
    );
    let no = bin().args(["check"]).arg(&map).arg(&bad).output().unwrap();
    assert_eq!(no.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&no.stdout)
        .starts_with("FAIL: claims -1 but the station is reachable in 6"));
}

#[test]
fn json_output_has_results_and_totals() {
    let d = temp_dir("json");
    std::fs::write(d.join("input/input_1.txt"), "1 3 2\n3 0 4").unwrap();
    let out = bin().arg(d.join("input")).arg("--json").output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["result"]["steps"], 2);
    assert_eq!(v["files"][0]["result"]["moves"], "RR");
    assert!(v["total"]["expanded"].as_u64().unwrap() >= 2);
}

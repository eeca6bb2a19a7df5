//! The made-up assignment the grading tests share: an answer is right when it repeats the
//! input's text; four inputs and a class of five with every kind of answer.
#![allow(dead_code)] // each test binary uses its own share of these

use batch::grade::{grade_class, ReportArgs, Verdict};
use batch::testing::write;
use batch::Shard;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Four inputs, five students with every kind of answer; returns the input files and the class.
pub fn class(dir: &Path) -> (Vec<PathBuf>, PathBuf) {
    let inputs: Vec<PathBuf> = (1..=4)
        .map(|i| {
            let f = dir.join(format!("input/input_{i}.txt"));
            write(&f, &format!("answer {i}\n"));
            f
        })
        .collect();
    let class = dir.join("class");
    std::fs::create_dir_all(class.join("cid")).unwrap(); // handed in nothing
    for (student, answers) in [
        ("ann", [1, 2, 3, 4]),
        ("ben", [1, 0, 3, 9]),
        ("cid", [0, 0, 0, 0]),
        ("dee", [9, 2, 0, 4]),
        ("eve, \"the\" second", [1, 2, 3, 0]),
    ] {
        for (i, a) in answers.iter().enumerate() {
            let f = class.join(student).join(format!("output_{}.txt", i + 1));
            match a {
                0 => {}
                9 => write(&f, "something else, quoted \"so\"\nover two lines\n"),
                a => write(&f, &format!("answer {a}\n")),
            }
        }
    }
    (inputs, class)
}

pub fn args(report: &Path, shard: Option<&str>, resume: bool) -> ReportArgs {
    ReportArgs {
        report: report.to_path_buf(),
        json: false,
        shard: shard.map(|s| s.parse::<Shard>().unwrap()),
        resume,
    }
}

/// Grades every answer of the slice `args` asks for; panics on an error.
pub fn grade_all(inputs: &[PathBuf], class: &Path, args: &ReportArgs) -> i32 {
    grade(inputs, class, args, &RefCell::default(), None).expect("the grading runs")
}

/// Grades with a `prepare` that records the inputs it was asked for and fails on `fail_at`.
pub fn grade(
    inputs: &[PathBuf],
    class: &Path,
    args: &ReportArgs,
    prepared: &RefCell<Vec<usize>>,
    fail_at: Option<usize>,
) -> anyhow::Result<i32> {
    grade_class(
        "test grade",
        inputs,
        class,
        |i| {
            prepared.borrow_mut().push(i);
            if Some(i) == fail_at {
                anyhow::bail!("input {i}: interrupted");
            }
            Ok(std::fs::read_to_string(&inputs[i])?)
        },
        |expected, text| {
            if text == expected {
                (Verdict::Ok, "ok".into())
            } else {
                (
                    Verdict::Wrong,
                    format!("expected {expected:?}, got {text:?}"),
                )
            }
        },
        args,
    )
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Grades the whole class into `report` (nothing prepared fails) and returns the report.
pub fn graded_report(inputs: &[PathBuf], class: &Path, report: &Path) -> String {
    grade(
        inputs,
        class,
        &args(report, None, false),
        &RefCell::default(),
        None,
    )
    .unwrap();
    read(report)
}

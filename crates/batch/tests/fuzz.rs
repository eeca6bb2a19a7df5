//! Fuzz tests of a split grading run's files: mutated part files merge to a report of every
//! answer or are refused writing nothing, and a mutated journal is resumed from or refused
//! naming it. `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

mod common;

use batch::fuzz::{config, mutated};
use batch::grade::merge_parts;
use common::{args, class, grade, grade_all};
use proptest::prelude::*;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A class graded in two slices, and the journal of slice 1 interrupted at its second input:
/// (folder, inputs, class).
fn graded() -> &'static (PathBuf, Vec<PathBuf>, PathBuf) {
    static RUN: std::sync::OnceLock<(PathBuf, Vec<PathBuf>, PathBuf)> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let d = batch::testing::temp_dir("batch-fuzz-grade");
        let (inputs, class) = class(&d);
        for shard in ["1/2", "2/2"] {
            let part = d.join(format!("part-{}.csv", &shard[..1]));
            grade_all(&inputs, &class, &args(&part, Some(shard), false));
        }
        let stopped = d.join("stopped.csv");
        let calls = RefCell::default();
        grade(
            &inputs,
            &class,
            &args(&stopped, Some("1/2"), false),
            &calls,
            Some(2),
        )
        .unwrap_err();
        (d.keep(), inputs, class)
    })
}

fn text_of(name: &str) -> &'static str {
    static TEXTS: std::sync::OnceLock<[String; 2]> = std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        let d = &graded().0;
        let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
        [read("part-1.csv"), read("stopped.csv.journal")]
    });
    match name {
        "part" => &texts[0],
        _ => &texts[1],
    }
}

/// A new empty folder for one case.
fn case_dir() -> PathBuf {
    static CASES: AtomicUsize = AtomicUsize::new(0);
    let dir = graded()
        .0
        .join(format!("case-{}", CASES.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check_merge(part: &str) -> Result<(), TestCaseError> {
    let dir = case_dir();
    let mine = dir.join("part-1.csv");
    std::fs::write(&mine, part).unwrap();
    let report = dir.join("report.csv");
    let parts = [mine, graded().0.join("part-2.csv")];
    match merge_parts(&parts, &report, false, "test") {
        // The header, then five students by four inputs (a detail may span lines).
        Ok(_) => {
            let text = std::fs::read_to_string(&report).unwrap();
            let records = batch::csv_records(&text).expect("the report is CSV");
            prop_assert_eq!(records.len(), 21, "{}", text);
            prop_assert!(records.iter().all(|r| r.1.len() == 4), "{}", text);
        }
        Err(_) => prop_assert!(!report.exists(), "a refused merge wrote its report"),
    }
    remove(&dir);
    Ok(())
}

fn check_resume(journal: &str) -> Result<(), TestCaseError> {
    let (_, inputs, class) = graded();
    let dir = case_dir();
    let report = dir.join("report.csv");
    std::fs::write(dir.join("report.csv.journal"), journal).unwrap();
    let result = grade(
        inputs,
        class,
        &args(&report, Some("1/2"), true),
        &RefCell::default(),
        None,
    );
    match result {
        Ok(_) => prop_assert!(report.exists()),
        Err(e) => prop_assert!(format!("{e:#}").contains("report.csv.journal"), "{e:#}"),
    }
    remove(&dir);
    Ok(())
}

fn remove(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_parts_merge_whole_or_are_refused(part in mutated(text_of("part"))) {
        check_merge(&part)?;
    }

    #[test]
    fn mutated_journals_are_resumed_from_or_refused(journal in mutated(text_of("journal"))) {
        check_resume(&journal)?;
    }
}

#[test]
fn the_samples_merge_and_resume() {
    check_merge(text_of("part")).unwrap();
    check_resume(text_of("journal")).unwrap();
    assert!(
        text_of("journal").lines().count() > 1,
        "the journal holds verdicts"
    );
}

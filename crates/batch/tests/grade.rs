//! Grading in slices and after interruptions, on a made-up assignment whose answer is right
//! when it repeats the input's text: every split merges to the unsplit report, a slice
//! prepares only its inputs, an interrupted run prepares only what is left, and damaged or
//! mismatched journals and parts are refused with the file and line.

mod common;

use batch::grade::{merge_parts, ReportArgs};
use batch::testing::{temp_dir, write};
use common::{args, class, grade, grade_all, graded_report, read};
use std::cell::RefCell;
use std::path::PathBuf;

#[test]
fn every_split_merges_to_the_unsplit_report_and_prepares_few_inputs() {
    let d = temp_dir("batch-grade-split");
    let (inputs, class) = class(&d);
    let whole = d.join("whole.csv");
    let calls = RefCell::new(Vec::new());
    assert_eq!(
        grade(&inputs, &class, &args(&whole, None, false), &calls, None).unwrap(),
        0
    );
    assert_eq!(*calls.borrow(), [0, 1, 2, 3]);
    let report = read(&whole);
    assert_eq!(report.lines().next(), Some("student,input,verdict,detail"));
    assert!(report.contains("\"eve, \"\"the\"\" second\",input_4.txt,missing,no output_4.txt\n"));
    for n in 1..=25 {
        std::fs::create_dir_all(d.join(format!("split{n}"))).unwrap();
        let mut parts = Vec::new();
        for i in 1..=n {
            let part = d.join(format!("split{n}/part-{i}.csv"));
            let calls = RefCell::new(Vec::new());
            let shard = format!("{i}/{n}");
            grade(
                &inputs,
                &class,
                &args(&part, Some(&shard), false),
                &calls,
                None,
            )
            .unwrap();
            // Four inputs: up to four slices take every n-th input whole; more slices take
            // runs of the 20 answers, each within one or two inputs.
            if n <= 4 {
                let mine: Vec<usize> = (i - 1..4).step_by(n).collect();
                assert_eq!(*calls.borrow(), mine, "{shard}");
            } else {
                assert!(calls.borrow().len() <= 2, "{shard}");
            }
            parts.push(part);
        }
        let merged = d.join(format!("split{n}/merged.csv"));
        merge_parts(&parts, &merged, false, "test").unwrap();
        assert_eq!(read(&merged), report, "{n} slices");
    }
}

#[test]
fn an_interrupted_run_resumes_preparing_only_what_is_left() {
    let d = temp_dir("batch-grade-resume");
    let (inputs, class) = class(&d);
    let whole = d.join("whole.csv");
    grade_all(&inputs, &class, &args(&whole, None, false));
    let report = d.join("report.csv");
    let journal = d.join("report.csv.journal");
    let calls = RefCell::new(Vec::new());
    let e = grade(
        &inputs,
        &class,
        &args(&report, None, false),
        &calls,
        Some(2),
    )
    .unwrap_err();
    assert!(e.to_string().contains("interrupted"));
    assert!(!report.exists());
    assert_eq!(read(&journal).lines().count(), 1 + 2 * 5);
    // Not without --resume.
    let e = grade(&inputs, &class, &args(&report, None, false), &calls, None).unwrap_err();
    assert!(format!("{e:#}").contains("--resume"), "{e:#}");
    // A kill cut the last line short: that verdict is found again.
    let mut text = read(&journal);
    text.push_str("{\"unit\":3,\"verd");
    std::fs::write(&journal, text).unwrap();
    let calls = RefCell::new(Vec::new());
    grade(&inputs, &class, &args(&report, None, true), &calls, None).unwrap();
    assert_eq!(*calls.borrow(), [2, 3]);
    assert_eq!(read(&report), read(&whole));
    assert!(!journal.exists());
}

#[test]
fn journals_of_other_runs_and_damaged_journals_are_refused() {
    let d = temp_dir("batch-grade-journal");
    let (inputs, class) = class(&d);
    let report = d.join("report.csv");
    let journal = d.join("report.csv.journal");
    // Slice 1 of 2 takes inputs 0 and 2 (dealt round-robin); interrupted at input 2.
    let calls = RefCell::new(Vec::new());
    grade(
        &inputs,
        &class,
        &args(&report, Some("1/2"), false),
        &calls,
        Some(2),
    )
    .unwrap_err();
    assert_eq!(*calls.borrow(), [0, 2]);
    let kept = read(&journal);
    let expect_error = |text: &str, args: &ReportArgs, why: &str| {
        std::fs::write(&journal, text).unwrap();
        let e = grade(&inputs, &class, args, &RefCell::default(), None).unwrap_err();
        assert!(format!("{e:#}").contains(why), "{why}: {e:#}");
    };
    // Another slice, another class, an input changed.
    expect_error(
        &kept,
        &args(&report, Some("2/2"), true),
        "report.csv.journal:1: the journal is of another run",
    );
    write(&class.join("fay/output_1.txt"), "answer 1\n");
    expect_error(&kept, &args(&report, Some("1/2"), true), "of another run");
    std::fs::remove_dir_all(class.join("fay")).unwrap();
    write(&inputs[3], "answer 4, changed\n");
    expect_error(&kept, &args(&report, Some("1/2"), true), "of another run");
    write(&inputs[3], "answer 4\n");
    // Rows that are not verdicts of this slice.
    let header = kept.lines().next().unwrap();
    for (row, why) in [
        (
            "{\"unit\":1,\"verdict\":\"bogus\",\"detail\":\"\"}",
            ":2: `bogus` is not a verdict",
        ),
        (
            "{\"unit\":19,\"verdict\":\"ok\",\"detail\":\"\"}",
            ":2: answer 19 is not in shard 1/2",
        ),
        ("not json", ":2: not a journal row"),
    ] {
        expect_error(
            &format!("{header}\n{row}\n"),
            &args(&report, Some("1/2"), true),
            why,
        );
    }
    let row = "{\"unit\":0,\"verdict\":\"ok\",\"detail\":\"ok\"}";
    expect_error(
        &format!("{header}\n{row}\n{row}\n"),
        &args(&report, Some("1/2"), true),
        ":3: answer 0 is graded twice",
    );
}

#[test]
fn merges_of_incomplete_mixed_or_damaged_parts_are_refused_and_write_nothing() {
    let d = temp_dir("batch-grade-merge");
    let (inputs, class) = class(&d);
    let part = |name: &str, shard: &str| {
        let p = d.join(name);
        grade_all(&inputs, &class, &args(&p, Some(shard), false));
        p
    };
    let (p1, p2, p3) = (
        part("p1.csv", "1/3"),
        part("p2.csv", "2/3"),
        part("p3.csv", "3/3"),
    );
    let q2 = part("q2.csv", "2/4");
    write(&class.join("fay/output_1.txt"), "answer 1\n");
    let r3 = part("r3.csv", "3/3");
    let out = d.join("all.csv");
    let cut = d.join("cut.csv");
    let text = read(&p2);
    std::fs::write(&cut, &text[..text.trim_end().rfind('\n').unwrap() + 1]).unwrap();
    let bad_verdict = d.join("bad.csv");
    std::fs::write(&bad_verdict, text.replacen(",ok,", ",fine,", 1)).unwrap();
    let not_a_part = d.join("plain.csv");
    std::fs::write(&not_a_part, "student,input,verdict,detail\n").unwrap();
    for (parts, why) in [
        (vec![&p1, &p3], "shard 2/3 missing"),
        (vec![&p1, &p2, &p2, &p3], "are both shard 2/3"),
        (vec![&p1, &q2, &p3], "of another run"),
        (vec![&p1, &p2, &r3], "of another run"),
        (vec![&p1, &cut, &p3], "do not match the part's checksum"),
        (
            vec![&p1, &bad_verdict, &p3],
            "do not match the part's checksum",
        ),
        (vec![&not_a_part], "plain.csv:1: not a part file"),
        (vec![&p1, &p2, &d.join("p9.csv")], "p9.csv"),
    ] {
        let parts: Vec<PathBuf> = parts.into_iter().cloned().collect();
        let e = merge_parts(&parts, &out, false, "test").unwrap_err();
        assert!(format!("{e:#}").contains(why), "{why}: {e:#}");
        assert!(!out.exists());
    }
    let e = merge_parts(&[p1.clone(), p2.clone(), p3.clone()], &p2, false, "test").unwrap_err();
    assert!(e.to_string().contains("input"), "{e}");
    // Another tool's parts, and a forged header announcing a class too large to hold.
    let e = merge_parts(&[p1.clone(), p2.clone(), p3.clone()], &out, false, "bait").unwrap_err();
    assert!(
        format!("{e:#}").contains("a part file of `test grade`, not of `bait grade`"),
        "{e:#}"
    );
    let forged = d.join("forged.csv");
    let text = read(&p1);
    let (head, rest) = text.split_once('\n').unwrap();
    let head = head.replacen(" 5 students", " 4611686018427387905 students", 1);
    std::fs::write(&forged, format!("{head}\n{rest}")).unwrap();
    let e = merge_parts(&[forged], &out, false, "test").unwrap_err();
    assert!(
        format!("{e:#}").contains("more than the 10000000 answers"),
        "{e:#}"
    );
    // A FIFO or a device as the report is refused.
    let e = merge_parts(
        &[p1.clone(), p2.clone(), p3.clone()],
        std::path::Path::new("/dev/null"),
        false,
        "test",
    )
    .unwrap_err();
    assert!(format!("{e:#}").contains("not a regular file"), "{e:#}");
    merge_parts(&[p3, p1, p2], &out, false, "test").unwrap();
}

#[test]
fn answers_that_are_not_regular_files_and_huge_details_do_not_hang_or_swell_the_report() {
    let d = temp_dir("batch-grade-hostile");
    let (inputs, class) = class(&d);
    // A FIFO would block a read forever; a folder cannot be read.
    let fifo = class.join("cid/output_1.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::create_dir_all(class.join("cid/output_2.txt")).unwrap();
    write(&class.join("cid/output_3.txt"), &"x".repeat(100_000));
    let text = graded_report(&inputs, &class, &d.join("report.csv"));
    assert!(
        text.contains("cid,input_1.txt,invalid,output_1.txt is not a regular file\n"),
        "{text}"
    );
    assert!(
        text.contains("cid,input_2.txt,invalid,output_2.txt is not a regular file\n"),
        "{text}"
    );
    let long = text
        .lines()
        .find(|l| l.starts_with("cid,input_3.txt,wrong,"))
        .unwrap();
    assert!(
        long.len() < 600 && long.ends_with(" more characters)\""),
        "{}",
        &long[..100]
    );
}

#[test]
fn reports_that_would_overwrite_inputs_answers_or_special_files_are_refused() {
    let d = temp_dir("batch-grade-report-path");
    let (inputs, class) = class(&d);
    let answer = class.join("ann/output_1.txt");
    let fifo = d.join("fifo.csv");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (report, why) in [
        (inputs[0].clone(), "that is the input"),
        (answer.clone(), "inside the class folder"),
        (class.join("new.csv"), "inside the class folder"),
        (
            class.join("ann/../../class/ann/x.csv"),
            "inside the class folder",
        ),
        (fifo.clone(), "not a regular file"),
        (d.join("missing/r.csv"), "does not exist; create it first"),
    ] {
        let e = grade(
            &inputs,
            &class,
            &args(&report, None, false),
            &RefCell::default(),
            None,
        )
        .unwrap_err();
        assert!(
            format!("{e:#}").contains(why),
            "{}: {e:#}",
            report.display()
        );
    }
    assert_eq!(read(&inputs[0]), "answer 1\n");
    assert_eq!(read(&answer), "answer 1\n");
    assert!(!class.join("new.csv").exists());
    assert!(!d.join("missing").exists());
}

#[cfg(unix)]
#[test]
fn entries_that_are_not_students_are_named_and_odd_names_kept_apart() {
    use std::os::unix::ffi::OsStrExt;
    let d = temp_dir("batch-grade-entries");
    let (inputs, class) = class(&d);
    write(&class.join("notes.txt"), "not a student\n");
    std::os::unix::fs::symlink("loop", class.join("loop")).unwrap();
    std::os::unix::fs::symlink("/nonexistent", class.join("gone")).unwrap();
    for bytes in [&b"bad\xff"[..], &b"bad\xfe"[..]] {
        let folder = class.join(std::ffi::OsStr::from_bytes(bytes));
        write(&folder.join("output_1.txt"), "answer 1\n");
    }
    let (students, left_out) = batch::grade::class_entries(&class).unwrap();
    let names: Vec<&str> = students.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "ann",
            r"bad\xfe",
            r"bad\xff",
            "ben",
            "cid",
            "dee",
            "eve, \"the\" second"
        ]
    );
    let left_out = left_out.join("\n");
    for (entry, why) in [
        ("notes.txt", "not a folder, so not a student"),
        ("loop", "cannot be opened"),
        ("gone", "cannot be opened"),
    ] {
        let line = left_out
            .lines()
            .find(|l| l.contains(&format!("class/{entry}: ")))
            .unwrap_or_else(|| panic!("{entry} is not named in {left_out}"));
        assert!(line.contains(why), "{line}");
    }
    let text = graded_report(&inputs, &class, &d.join("report.csv"));
    assert!(text.contains("bad\\xfe,input_1.txt,ok,ok\n"), "{text}");
    assert!(text.contains("bad\\xff,input_1.txt,ok,ok\n"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_journal_is_refused_not_waited_on() {
    let d = temp_dir("batch-grade-fifo-journal");
    let (inputs, class) = class(&d);
    let report = d.join("report.csv");
    let journal = d.join("report.csv.journal");
    assert!(std::process::Command::new("mkfifo")
        .arg(&journal)
        .status()
        .unwrap()
        .success());
    let mut a = args(&report, None, false);
    a.resume = true;
    let e = grade(&inputs, &class, &a, &RefCell::default(), None).unwrap_err();
    assert!(format!("{e:#}").contains("not a regular file"), "{e:#}");
}

#[test]
fn a_student_named_like_a_formula_is_written_inert() {
    let d = temp_dir("batch-grade-formula");
    let (inputs, class) = class(&d);
    write(&class.join("=HYPERLINK(\"x\")/output_1.txt"), "answer 1\n");
    write(&class.join("-1+1/output_1.txt"), "answer 1\n");
    let report = d.join("r.csv");
    let text = graded_report(&inputs, &class, &report);
    assert!(
        text.contains("\n\"'=HYPERLINK(\"\"x\"\")\",input_1.txt,ok,"),
        "{text}"
    );
    assert!(text.contains("\n'-1+1,input_1.txt,ok,"), "{text}");
    assert!(!text.contains("\n=") && !text.contains("\n-"), "{text}");
    // Split and merged, the report is the same.
    let parts: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let p = d.join(format!("p{i}.csv"));
            grade_all(&inputs, &class, &args(&p, Some(&format!("{i}/2")), false));
            p
        })
        .collect();
    let merged = d.join("m.csv");
    merge_parts(&parts, &merged, false, "test").unwrap();
    assert_eq!(read(&merged), text);
}

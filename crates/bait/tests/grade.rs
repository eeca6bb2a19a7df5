//! Grading a class of three on Bait levels: one with shortest wins other than this tool's, one
//! with a longer win and a plan that loses, one with a missing and an unreadable file; graded
//! whole and in slices merged.

use batch::testing::{write, Grader};
use std::process::Command;

const LEVEL_1: &str = include_str!("../../../inputs/bait/level_1.txt");
const LEVEL_4: &str = include_str!("../../../inputs/bait/level_4.txt");

fn bait(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bait"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_class_of_three_gets_the_right_verdicts() {
    let d = std::env::temp_dir().join(format!("bait-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    write(&d.join("levels/level_1.txt"), LEVEL_1);
    write(&d.join("levels/level_4.txt"), LEVEL_4);
    // The tool's own shortest plans, to build the answers from.
    let solved = d.join("solved");
    let out = bait(&[
        "solve".as_ref(),
        d.join("levels").as_os_str(),
        "-o".as_ref(),
        solved.as_os_str(),
        "-q".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let plan =
        |level: &str| std::fs::read_to_string(solved.join(format!("output_{level}.txt"))).unwrap();
    let (plan_1, plan_4) = (plan("level_1"), plan("level_4"));
    // Another shortest win of level 1: the first two moves swapped (checked by replay below).
    let other_1 = format!("{}{}{}", &plan_1[1..2], &plan_1[0..1], &plan_1[2..]);
    assert_ne!(other_1, plan_1);
    let replay = bait(&[
        "replay".as_ref(),
        d.join("levels/level_1.txt").as_os_str(),
        other_1.trim().as_ref(),
    ]);
    assert!(String::from_utf8_lossy(&replay.stdout).contains("Result (1->win; 0->lose):1"));
    let class = d.join("class");
    write(&class.join("alice/output_level_1.txt"), &other_1);
    write(&class.join("alice/output_level_4.txt"), &plan_4);
    // Bob: level 1 won with two extra moves that undo each other; level 4 not won.
    let longer = format!("{}LR{}", &plan_1[..1], &plan_1[1..]);
    write(&class.join("bob/output/output_level_1.txt"), &longer);
    write(&class.join("bob/output/output_level_4.txt"), "NNNN\n");
    write(
        &class.join("carol/output_level_1.txt"),
        "walk to the door\n",
    );
    let report = d.join("grades.csv");
    let out = bait(&[
        "grade".as_ref(),
        d.join("levels").as_os_str(),
        class.as_os_str(),
        "--report".as_ref(),
        report.as_os_str(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(&report).unwrap();
    let verdicts: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(
        verdicts,
        [
            "alice,level_1.txt,ok",
            "alice,level_4.txt,ok",
            "bob,level_1.txt,wrong",
            "bob,level_4.txt,wrong",
            "carol,level_1.txt,invalid",
            "carol,level_4.txt,missing",
        ],
        "{csv}"
    );
    let grader = Grader {
        bin: env!("CARGO_BIN_EXE_bait").into(),
        args: vec![d.join("levels").into(), class.into()],
    };
    grader.assert_slices_merge_to_whole(&d.join("split"), 3);
    std::fs::remove_dir_all(d).unwrap();
}

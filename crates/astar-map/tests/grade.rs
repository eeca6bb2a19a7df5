//! Grading a class of three: one with every answer right but by routes other than this tool's,
//! one with a longer route and a false `-1`, one with a missing and an unreadable file; graded
//! whole and in slices merged.

use batch::run_tool;
use batch::testing::{report_verdicts, write, Grader};

const BIN: &str = env!("CARGO_BIN_EXE_astar-map");

#[test]
fn a_class_of_three_gets_the_right_verdicts() {
    let d = std::env::temp_dir().join(format!("astar-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    // Map 1: three shortest routes (RRD, RDR, DRR); map 2: the station cannot be reached.
    write(&d.join("input/input_1.txt"), "2 3 9\n3 0 0\n0 0 4\n");
    write(&d.join("input/input_2.txt"), "2 3 9\n3 1 0\n1 0 4\n");
    let class = d.join("class");
    write(&class.join("alice/output/output_1.txt"), "3\nDRR\n");
    write(&class.join("alice/output/output_2.txt"), "-1\n");
    write(&class.join("bob/output_1.txt"), "5\nRLRRD\n");
    write(&class.join("bob/output_2.txt"), "2\nRD\n");
    write(&class.join("carol/output_1.txt"), "three\nRDR\n");
    let report = d.join("grades.csv");
    run_tool!(BIN, "grade", d.join("input"), &class, "--report", &report)
        .ok()
        .prints("alice: 2/2 ok\n")
        .prints("bob: 0/2 ok (1 wrong, 1 invalid)\n")
        .prints("carol: 0/2 ok (1 invalid, 1 missing)\n");
    let csv = std::fs::read_to_string(&report).unwrap();
    let verdicts = report_verdicts(&csv);
    assert_eq!(csv.lines().next(), Some("student,input,verdict,detail"));
    assert_eq!(
        verdicts,
        [
            "alice,input_1.txt,ok",
            "alice,input_2.txt,ok",
            "bob,input_1.txt,wrong",
            "bob,input_2.txt,invalid",
            "carol,input_1.txt,invalid",
            "carol,input_2.txt,missing",
        ]
    );
    let grader = Grader {
        bin: BIN.into(),
        args: vec![d.join("input").into(), class.into()],
    };
    for n in [2, 3, 7] {
        grader.assert_slices_merge_to_whole(&d.join(format!("split{n}")), n);
    }
    std::fs::remove_dir_all(d).unwrap();
}

//! Grading a class of three: one with every answer right but by routes other than this tool's,
//! one with a longer route and a false `-1`, one with a missing and an unreadable file; graded
//! whole and in slices merged.

use batch::testing::{temp_dir, write, Grader};

const BIN: &str = env!("CARGO_BIN_EXE_astar-map");

#[test]
fn a_class_of_three_gets_the_right_verdicts() {
    let d = temp_dir("astar-grade");
    // Map 1: three shortest routes (RRD, RDR, DRR); map 2: the station cannot be reached.
    write(&d.join("input/input_1.txt"), "2 3 9\n3 0 0\n0 0 4\n");
    write(&d.join("input/input_2.txt"), "2 3 9\n3 1 0\n1 0 4\n");
    let class = d.join("class");
    write(&class.join("alice/output/output_1.txt"), "3\nDRR\n");
    write(&class.join("alice/output/output_2.txt"), "-1\n");
    write(&class.join("bob/output_1.txt"), "5\nRLRRD\n");
    write(&class.join("bob/output_2.txt"), "2\nRD\n");
    write(&class.join("carol/output_1.txt"), "three\nRDR\n");
    let expected = [
        "alice,input_1.txt,ok",
        "alice,input_2.txt,ok",
        "bob,input_1.txt,wrong",
        "bob,input_2.txt,invalid",
        "carol,input_1.txt,invalid",
        "carol,input_2.txt,missing",
    ];
    let grader = Grader::new(BIN, &d.join("input"), &class);
    let stdout = grader.assert_verdicts(&d, &expected, &[2, 3, 7]);
    for line in [
        "alice: 2/2 ok\n",
        "bob: 0/2 ok (1 wrong, 1 invalid)\n",
        "carol: 0/2 ok (1 invalid, 1 missing)\n",
    ] {
        assert!(stdout.contains(line), "{stdout}");
    }
}

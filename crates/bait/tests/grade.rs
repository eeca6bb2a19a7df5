//! Grading a class of three on Bait levels: one with shortest wins other than this tool's, one
//! with a longer win and a plan that loses, one with a missing and an unreadable file; graded
//! whole and in slices merged.

use batch::run_tool;
use batch::testing::{temp_dir, write, Grader};

const LEVEL_1: &str = include_str!("../../../inputs/bait/level_1.txt");
const LEVEL_4: &str = include_str!("../../../inputs/bait/level_4.txt");

const BIN: &str = env!("CARGO_BIN_EXE_bait");

#[test]
fn a_class_of_three_gets_the_right_verdicts() {
    let d = temp_dir("bait-grade");
    write(&d.join("levels/level_1.txt"), LEVEL_1);
    write(&d.join("levels/level_4.txt"), LEVEL_4);
    // The tool's own shortest plans, to build the answers from.
    let solved = d.join("solved");
    run_tool!(BIN, "solve", d.join("levels"), "-o", &solved, "-q").ok();
    let plan =
        |level: &str| std::fs::read_to_string(solved.join(format!("output_{level}.txt"))).unwrap();
    let (plan_1, plan_4) = (plan("level_1"), plan("level_4"));
    // Another shortest win of level 1: the first two moves swapped (checked by replay below).
    let other_1 = format!("{}{}{}", &plan_1[1..2], &plan_1[0..1], &plan_1[2..]);
    assert_ne!(other_1, plan_1);
    run_tool!(BIN, "replay", d.join("levels/level_1.txt"), other_1.trim())
        .prints("Result (1->win; 0->lose):1");
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
    let expected = [
        "alice,level_1.txt,ok",
        "alice,level_4.txt,ok",
        "bob,level_1.txt,wrong",
        "bob,level_4.txt,wrong",
        "carol,level_1.txt,invalid",
        "carol,level_4.txt,missing",
    ];
    Grader::new(BIN, &d.join("levels"), &class).assert_verdicts(&d, &expected, &[3]);
}

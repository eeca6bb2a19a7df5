//! Checking and grading answers on mate-in-one boards, where the truth is plain: a move is
//! right exactly when black has no legal reply after it. A class of three: one with the other
//! mating move than this tool's, one with a legal move that does not mate, one with a missing
//! and an unreadable answer; graded whole and in slices merged. A grading killed in the middle
//! of its searches goes on from its journal.

use batch::run_tool;
use batch::testing::{temp_dir, write, Grader};
use xiangqi_endgame::course_io::{answer_line, YOrigin};
use xiangqi_endgame::fen::board_text;
use xiangqi_endgame::movegen::legal_moves;
use xiangqi_endgame::{Move, Position};

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-endgame");

/// Two boards with two mates in one each.
const FENS: [&str; 2] = ["3k5/9/9/9/9/9/9/9/4R4/4K4 w", "3k5/9/9/9/9/9/9/9/R8/4K4 w"];

/// Red's moves after which black has no legal move, and one after which it has.
fn mates_and_a_miss(pos: &Position) -> (Vec<Move>, Move) {
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    let replies = |m: &Move| {
        let mut p = pos.clone();
        p.make(*m);
        let mut r = Vec::new();
        legal_moves(&p, &mut r);
        r.len()
    };
    let mates: Vec<Move> = moves.iter().copied().filter(|m| replies(m) == 0).collect();
    let miss = moves.iter().copied().find(|m| replies(m) > 0).unwrap();
    (mates, miss)
}

#[test]
fn any_mating_move_is_accepted_and_a_class_of_three_gets_the_right_verdicts() {
    let d = temp_dir("xq-grade");
    let class = d.join("class");
    for (k, fen) in FENS.iter().enumerate() {
        let pos: Position = fen.parse().unwrap();
        let n = k + 1;
        write(&d.join(format!("input/{n}.txt")), &board_text(&pos));
        let (mates, miss) = mates_and_a_miss(&pos);
        assert!(mates.len() >= 2, "{fen} has {} mates in one", mates.len());
        // The tool's own answer, then another mate for alice.
        let input = d.join(format!("input/{n}.txt"));
        run_tool!(BIN, "run", &input, "-o", d.join("tool")).ok();
        let tool = std::fs::read_to_string(d.join(format!("tool/output_{n}.txt"))).unwrap();
        let other = mates
            .iter()
            .map(|&m| answer_line(&pos, m, YOrigin::Bottom))
            .find(|a| *a != tool)
            .unwrap();
        write(&class.join(format!("alice/output_{n}.txt")), &other);
        write(
            &class.join(format!("bob/output/output_{n}.txt")),
            &answer_line(&pos, miss, YOrigin::Bottom),
        );
        // `check` on single files agrees.
        for (answer, ok) in [
            (&other, true),
            (&answer_line(&pos, miss, YOrigin::Bottom), false),
        ] {
            write(&d.join("answer.txt"), answer);
            run_tool!(BIN, "check", &input, d.join("answer.txt")).code(i32::from(!ok));
        }
    }
    write(&class.join("carol/output_1.txt"), "R from here to there\n");
    let expected = [
        "alice,1.txt,ok",
        "alice,2.txt,ok",
        "bob,1.txt,wrong",
        "bob,2.txt,wrong",
        "carol,1.txt,invalid",
        "carol,2.txt,missing",
    ];
    Grader::new(BIN, &d.join("input"), &class).assert_verdicts(&d, &expected, &[3]);
}

#[test]
fn a_grading_killed_mid_search_resumes_from_its_journal() {
    // The project's seven boards at depth 6: the first six take a fraction of a second, the
    // seventh about two, so the run is killed after journalling some verdicts.
    let d = temp_dir("xq-grade-kill");
    let inputs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../inputs/xiangqi-endgame");
    let (ann, moves) = (d.join("class/ann"), d.join("moves"));
    run_tool!(
        BIN,
        "run",
        "--depth",
        "6",
        "-q",
        inputs,
        "-o",
        ann,
        "--moves-dir",
        moves
    )
    .ok();
    write(&d.join("class/ben/output_7.txt"), "not a move\n");
    let grader = Grader {
        bin: BIN.into(),
        args: vec![
            inputs.into(),
            d.join("class").into(),
            "--depth".into(),
            "6".into(),
        ],
    };
    let whole = d.join("whole.csv");
    let summary = grader.whole(&whole);
    assert!(summary.contains("ann: 7/7 ok"), "{summary}");
    grader.assert_resumes_after_kill(&d, &whole);
}

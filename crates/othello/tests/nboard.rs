//! `othello nboard` driven over pipes the way the NBoard GUI drives an engine (handshake, a
//! game as GGF, `go`, `hint`, `ping`), its complaints about bad input, and `othello match`
//! with the engine as an external contestant.

use batch::testing::Run;
use batch::LineProcess;
use othello::endgame::solve;
use othello::ggf::GgfGame;
use othello::{Move, Position};
use std::process::Command;
use std::time::Duration;

const EXE: &str = env!("CARGO_BIN_EXE_othello");
const WAIT: Duration = Duration::from_secs(60);
const START: &str = "---------------------------O*------*O--------------------------- *";

fn engine() -> LineProcess {
    let mut command = Command::new(EXE);
    command.arg("nboard");
    LineProcess::spawn(command).expect("the engine starts")
}

/// Lines up to and including the first one `done` accepts.
fn read_until(e: &LineProcess, done: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = e.recv_timeout(WAIT).expect("the engine answers");
        let last = done(&line);
        lines.push(line);
        if last {
            return lines;
        }
    }
}

fn parse_answer(line: &str) -> (Move, f64) {
    let body = line.strip_prefix("=== ").expect("a move answer");
    let mut parts = body.split('/');
    let mv = parts.next().unwrap();
    let mv = if mv == "PA" {
        Move::Pass
    } else {
        mv.parse().unwrap()
    };
    let eval: f64 = parts.next().unwrap().parse().unwrap();
    let time: f64 = parts.next().unwrap().parse().unwrap();
    assert!(time >= 0.0);
    (mv, eval)
}

#[test]
fn a_gui_session_go_hint_ping() {
    let mut e = engine();
    e.send("nboard 2").unwrap();
    assert_eq!(read_until(&e, |_| true), ["set myname othello-rs"]);
    e.send("set depth 4").unwrap();
    let game =
        format!("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {START}]B[F5]W[F6];)");
    e.send(&format!("set game {game}")).unwrap();
    e.send("go").unwrap();
    let lines = read_until(&e, |l| l.starts_with("==="));
    assert_eq!(lines[0], "status Thinking");
    assert!(lines.iter().any(|l| l.starts_with("nodestats ")));
    let (mv, _) = parse_answer(lines.last().unwrap());
    let p = Position::default().play_sequence("f5f6").unwrap();
    assert!(p.is_legal(mv), "{mv} is illegal");
    assert_eq!(read_until(&e, |_| true), ["status"]);

    // The GUI plays the move and asks for the three best replies.
    e.send(&format!("move {mv}/0.00/0.1")).unwrap();
    e.send("hint 3").unwrap();
    let lines = read_until(&e, |l| l == "status");
    assert_eq!(lines[0], "status Analyzing");
    let replies = p.play(mv).moves().count_ones() as usize;
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    // Depths 1 to 4, the min(3, replies) best at each.
    assert_eq!(searches.len(), 4 * replies.min(3), "{lines:?}");
    for s in &searches {
        let f: Vec<&str> = s.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{s}");
        assert!(p.play(mv).is_legal(f[1].parse().unwrap()), "{s}");
        f[2].parse::<f64>().unwrap();
        assert_eq!(f[3], "0");
    }

    e.send("ping 42").unwrap();
    assert_eq!(read_until(&e, |l| l.starts_with("pong")), ["pong 42"]);
    e.send("learn").unwrap();
    assert_eq!(read_until(&e, |_| true), ["learned"]);
    e.send("quit").unwrap();
    assert!(e.recv_timeout(WAIT).is_err(), "the engine exits on quit");
}

/// At depth 4 the engine solves from 14 empty squares: for the result alone (a move that keeps
/// it, and a bound on the score of its sign) down to 9 empties, and exactly from 8 (a best
/// move and its exact score).
#[test]
fn near_the_end_go_keeps_the_result_and_then_answers_the_exact_score() {
    for (empties, seed) in [(12, 5), (12, 6), (12, 7), (8, 5), (8, 6)] {
        let line = othello::run::generate_positions(&[empties], 1, seed)
            .into_iter()
            .next()
            .unwrap();
        let p: Position = line.parse().unwrap();
        let exact = solve(&p, &mut othello::endgame::searcher(4));
        let mut e = engine();
        e.send("nboard 2").unwrap();
        e.send("set depth 4").unwrap();
        e.send(&format!("set game {}", GgfGame::new(p))).unwrap();
        e.send("go").unwrap();
        let lines = read_until(&e, |l| l.starts_with("==="));
        let (mv, eval) = parse_answer(lines.last().unwrap());
        let after = -solve(&p.play(mv), &mut othello::endgame::searcher(4)).score;
        if empties <= othello::nboard::exact_empties(4) {
            assert_eq!(eval, f64::from(exact.score));
            assert_eq!(after, exact.score, "{mv} is not a best move at {p}");
        } else {
            assert_eq!(eval.signum(), f64::from(exact.score).signum(), "{p}");
            assert_eq!(
                after.signum(),
                exact.score.signum(),
                "{mv} changes the result at {p}"
            );
            match exact.score {
                s if s > 0 => assert!(eval <= f64::from(s), "a win of at least {eval} > {s}"),
                s if s < 0 => assert!(eval >= f64::from(s), "a loss of at most {eval} < {s}"),
                _ => assert_eq!(eval, 0.0),
            }
        }
    }
}

/// At depth 4 the engine searches 15 and 16 empty squares selectively to the end in a null
/// window around a draw: where that finds a win or a draw (its answer then has the depth of
/// the empties), the move keeps the result; a position it finds lost keeps the midgame
/// search's move. Selective, so checked against the exact solver over many positions.
#[test]
fn just_before_the_solve_a_selective_search_keeps_a_win_or_a_draw() {
    use othello::nboard::{MoveBudget, Thinker};
    assert_eq!(othello::nboard::selective_wld_empties(4), 16);
    let mut thinker = Thinker::new(std::sync::Arc::default());
    let (mut won_or_drawn, mut answered, mut kept, mut answered_lost) = (0, 0, 0, 0);
    for empties in [15, 16] {
        for seed in 1..=12 {
            let line = othello::run::generate_positions(&[empties], 1, seed)
                .into_iter()
                .next()
                .unwrap();
            let p: Position = line.parse().unwrap();
            let exact = solve(&p, &mut othello::endgame::searcher(4)).score;
            let a = thinker.best(&p, 4, &MoveBudget::unlimited()).unwrap();
            let selective = a.depth == p.empties();
            if exact < 0 {
                answered_lost += usize::from(selective);
                continue;
            }
            won_or_drawn += 1;
            if selective {
                answered += 1;
                assert!(a.eval >= 0.0, "{a:?} at {p}");
                let after = -solve(&p.play(a.mv), &mut othello::endgame::searcher(4)).score;
                kept += usize::from(after.signum() == exact.signum());
            }
        }
    }
    assert!(
        won_or_drawn >= 8,
        "only {won_or_drawn} positions won or drawn"
    );
    assert!(
        answered * 10 >= won_or_drawn * 8,
        "{answered} of {won_or_drawn}"
    );
    assert!(
        kept + 1 >= answered,
        "the result kept in {kept} of {answered}"
    );
    assert!(
        answered_lost <= 1,
        "{answered_lost} lost positions found won or drawn"
    );
}

#[test]
fn bad_commands_are_reported_with_their_line_and_the_session_goes_on() {
    let input = format!(
        "nboard 2\nset game (;GM[Othello]BO[8 {START}]B[A1];)\nset depth 99\nmove Z9\nfrobnicate\nset game (;GM[Othello]BO[8 {START}]B[F5];)\nmove pass\nset timelimit -1\nping 3\nquit\n"
    );
    let (stdout, stderr) = session(input.as_bytes());
    assert!(stdout.lines().any(|l| l == "pong 3"), "{stdout}");
    for expected in [
        "line 2: set game: GGF column",
        "B[A1] is illegal here",
        "line 3: set depth needs 1..60",
        "line 4: `Z9` is not a move",
        "line 5: unknown command `frobnicate`",
        "line 7: move PA is illegal here",
        "line 8: set timelimit needs seconds (0 for none), not `-1`",
    ] {
        assert!(stderr.contains(expected), "no `{expected}` in:\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Runs a session of raw bytes through `othello nboard`: (stdout, stderr).
fn session(input: &[u8]) -> (String, String) {
    let run = batch::testing::run_with_input(Command::new(EXE).arg("nboard"), input).ok();
    (run.stdout, run.stderr)
}

#[test]
fn bad_bytes_numbers_and_trailing_text_are_reported_and_the_session_goes_on() {
    let mut input = b"nboard 2\nset game (;GM[Othello]BO[8 ".to_vec();
    input.extend_from_slice(START.as_bytes());
    input.extend_from_slice(b"]C[\xff\xfe];)\nmove F5/abc/-1e999\nmove F5/0.5/-2\nmove F5/1/2/3\n");
    input.extend_from_slice(format!("set game (;GM[Othello]BO[8 {START}];) extra\n").as_bytes());
    input.extend_from_slice(b"move F5/1.5/0.25\nping 1\nquit\n");
    let (stdout, stderr) = session(&input);
    for expected in [
        "line 2 is not valid UTF-8",
        "line 3: `abc` is not a number (the evaluation)",
        "line 4: a negative time",
        "line 5: more than MOVE/EVAL/TIME",
        "line 6: set game: GGF column",
        "text after the game's closing `)`",
    ] {
        assert!(stderr.contains(expected), "no `{expected}` in:\n{stderr}");
    }
    assert!(
        !stderr.contains("line 7"),
        "the good move is taken: {stderr}"
    );
    assert!(stdout.lines().any(|l| l == "pong 1"), "{stdout}");
}

#[test]
fn a_forced_pass_is_valued_by_the_answer_to_it() {
    // Black must pass; white then takes B1 with C1 and black has no disc left.
    let board = format!("O*{}", "-".repeat(62));
    let mut e = engine();
    e.send("nboard 2").unwrap();
    e.send("set depth 4").unwrap();
    e.send(&format!("set game (;GM[Othello]BO[8 {board} *];)"))
        .unwrap();
    e.send("go").unwrap();
    let lines = read_until(&e, |l| l.starts_with("==="));
    let answer = lines.last().unwrap();
    let (mv, eval) = parse_answer(answer);
    assert_eq!(mv, Move::Pass);
    assert_eq!(eval, -64.0, "{answer}");
}

#[test]
fn match_against_the_engine_itself_through_nboard() {
    let out = Command::new(EXE)
        .args([
            "match",
            &format!("nboard:{EXE} nboard"),
            "alphabeta:2",
            "--heuristic-b",
            "improved",
            "--nboard-depth",
            "3",
            "--games",
            "4",
            "--jobs",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["forfeits"].as_array().unwrap().len(), 0, "{report}");
    let total = ["wins", "draws", "losses"]
        .iter()
        .map(|k| report[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, 4);
}

#[test]
fn an_engine_that_fails_forfeits_and_the_match_goes_on() {
    let out = Command::new(EXE)
        .args([
            "match",
            "nboard:cat",
            "random",
            "--games",
            "2",
            "--move-timeout",
            "0.3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("A wins 0, draws 0, losses 2"), "{stdout}");
    assert!(
        stderr.contains("game 1: A forfeits: no answer within 0.3 s"),
        "{stderr}"
    );
    let out = Command::new(EXE)
        .args([
            "match",
            "nboard:/nonexistent/engine",
            "random",
            "--games",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start `/nonexistent/engine`"));
}

#[cfg(unix)]
#[test]
fn an_engine_that_prints_endlessly_forfeits_on_time() {
    let dir = batch::testing::temp_dir("othello-spam-engine");
    let script = batch::testing::fake_engine(
        &dir,
        "spam.sh",
        "while read -r l; do case \"$l\" in ping*) echo \"pong ${l#ping }\";; go) yes 'status thinking';; esac; done",
    );
    let start = std::time::Instant::now();
    let out = Command::new(EXE)
        .args(["match", &format!("nboard:{}", script.display()), "random"])
        .args(["--games", "2", "--move-timeout", "0.5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("game 2: A forfeits: no answer within 0.5 s"),
        "{stderr}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// A whole game of the engine against itself under a game clock of three seconds a side, at a
/// depth no clock that short allows (`set depth 20`): every answer arrives before its side's
/// clock runs out, as the test (the GUI) measures it from `go` to `===`.
#[test]
fn a_game_clock_of_three_seconds_is_never_overrun() {
    let mut e = engine();
    e.send("nboard 2").unwrap();
    e.send("set depth 20").unwrap();
    let mut game: GgfGame = format!("(;GM[Othello]TI[0:03//]BO[8 {START}];)")
        .parse()
        .unwrap();
    let mut p = game.position();
    let mut moves = 0;
    while !p.game_over() {
        if p.moves() == 0 {
            game.push(Move::Pass, None, Some(0.0)).unwrap();
            p = p.play(Move::Pass);
            continue;
        }
        let left = game.time_left(p.side).unwrap();
        e.send(&format!("set game {game}")).unwrap();
        let asked = std::time::Instant::now();
        e.send("go").unwrap();
        let deadline = asked + Duration::from_secs_f64(left);
        let answer = e
            .wait_for(deadline, |l| l.starts_with("==="))
            .unwrap_or_else(|_| panic!("no move within the {left:.2} s left, at {p}"));
        let used = asked.elapsed().as_secs_f64();
        let token = answer.trim_start_matches("=== ").split('/').next().unwrap();
        let mv = othello::ggf::parse_ggf_move(token).unwrap();
        assert!(p.is_legal(mv), "{answer} at {p}");
        game.push(mv, None, Some(used)).unwrap();
        p = p.play(mv);
        moves += 1;
    }
    assert!(moves >= 40, "{moves} moves");
    for side in [othello::Color::Black, othello::Color::White] {
        assert!(game.time_left(side).unwrap() > 0.0, "{side:?}: {game}");
    }
}

/// `set timelimit` bounds every move: at depth 30 ten plies in, whose search would take
/// hours, a legal move comes once the limit has passed (a loaded machine may add a little).
#[test]
fn the_time_limit_answers_with_the_best_move_found_so_far() {
    let mut e = engine();
    e.send("nboard 2").unwrap();
    e.send("set depth 30").unwrap();
    e.send("set timelimit 0.5").unwrap();
    let moves = "B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6]W[E7]";
    e.send(&format!("set game (;GM[Othello]BO[8 {START}]{moves};)"))
        .unwrap();
    let asked = std::time::Instant::now();
    e.send("go").unwrap();
    let answer = e
        .wait_for(asked + Duration::from_secs(5), |l| l.starts_with("==="))
        .expect("an answer");
    let took = asked.elapsed().as_secs_f64();
    assert!((0.4..3.0).contains(&took), "{took:.2} s");
    let token = answer.trim_start_matches("=== ").split('/').next().unwrap();
    let mv = othello::ggf::parse_ggf_move(token).unwrap();
    let p = START
        .parse::<Position>()
        .unwrap()
        .play_sequence("f5d6c3d3c4f4f6f3e6e7")
        .unwrap();
    assert!(p.is_legal(mv), "{answer}");
}

/// `match --clock` gives each side a game clock: the engine at a depth no three-second clock
/// allows keeps to it and reports its thinking time, and an engine that never answers
/// forfeits when its clock runs out rather than after the move timeout. (The clock is wall
/// time: three seconds leave the engine's reserve room on a machine busy with other tests.)
#[cfg(unix)]
#[test]
fn a_match_on_a_game_clock_is_kept_to_and_a_silent_engine_loses_on_time() {
    let engine = format!("nboard:{EXE} nboard");
    let mut command = Command::new(EXE);
    command.args([
        "match",
        &engine,
        "random",
        "--nboard-depth",
        "20",
        "--clock",
        "0:03",
    ]);
    command.args(["--games", "2", "--jobs", "1", "--json"]);
    let report = Run::of(&mut command).ok().stdout;
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["forfeits"].as_array().unwrap().len(), 0, "{report}");
    let a = &report["thinking_a"];
    assert!(a["total_seconds"].as_f64().unwrap() <= 6.0, "{report}");
    assert!(a["moves"].as_u64().unwrap() >= 40, "{report}");
    // An engine that answers `ping` but never `go`.
    let dir = batch::testing::temp_dir("othello-silent-engine");
    let silent = batch::testing::fake_engine(
        &dir,
        "silent.sh",
        "while read -r l; do case \"$l\" in ping*) echo \"pong ${l#ping }\";; esac; done",
    );
    let silent = format!("nboard:{}", silent.display());
    let mut command = Command::new(EXE);
    command.args(["match", &silent, "random", "--clock", "0.5", "--games", "2"]);
    Run::of(&mut command)
        .ok()
        .says("game 1: A forfeits: no answer within 0.5 s");
}

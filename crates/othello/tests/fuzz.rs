//! Fuzz tests of the OBF position parser, the GGF game parser, the timing-job files and whole
//! NBoard sessions: arbitrary text and mutated valid lines never panic; a parsed position or
//! game prints back to text that parses to the same thing, and a bad timing job or game is an
//! error located in the text; a mutated session (bad bytes, over-long lines) ends cleanly with
//! each complaint on a line of the session, and every `go` of a session is answered, the last
//! one after the input has ended; WTHOR files and Logistello's lines, arbitrary and mutated,
//! read or fail record by record without a panic, every game read being legal.
//! `scripts/fuzz.sh` runs these longer (`FUZZ_CASES`).

use batch::fuzz::{check_complaint_lines, config, mutated_session, text_like};
use othello::ggf::GgfGame;
use othello::run::TimingJob;
use othello::Position;
use proptest::prelude::*;

const OBF: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+38; A2:+38;";
const JOB: &str = include_str!("../../../inputs/othello/course.timing");

fn check_obf(text: &str) -> Result<(), TestCaseError> {
    for line in text.lines() {
        if let Ok(p) = line.parse::<Position>() {
            let again: Position = p.to_string().parse().expect("a printed position parses");
            prop_assert_eq!(again, p);
        }
    }
    Ok(())
}

const GGF: &str = "(;GM[Othello]PC[NBoard]PB[a\\]b]PW[c]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/-0.60/1.2]B[E6]W[F4//3];)";

fn check_ggf(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<GgfGame>() {
        Ok(game) => {
            let again: GgfGame = game.to_string().parse().expect("a printed game parses");
            prop_assert_eq!(again, game);
        }
        Err(e) => prop_assert!(
            e.column >= 1 && e.column <= text.chars().count() + 1,
            "{e} is outside the text"
        ),
    }
    Ok(())
}

fn check_job(text: &str) -> Result<(), TestCaseError> {
    if let Err(e) = text.parse::<TimingJob>() {
        prop_assert!(
            e.line >= 1 && e.line <= text.lines().count(),
            "{e} is not on a line"
        );
    }
    Ok(())
}

const SESSION: &str = "nboard 2\nset depth 3\nset game (;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)\nmove E6/0.5/1.2\nhint 3\ngo\nping 1\nmove F4\ngo\nset contempt 0\nlearn\nping 2\n";

/// Runs an NBoard session on `input`: (answers, complaints).
fn serve(input: Vec<u8>) -> (String, String) {
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    othello::nboard::serve(std::io::Cursor::new(input), &mut out, &mut errors)
        .expect("writing to memory does not fail");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("the engine writes UTF-8");
    (text(out), text(errors))
}

fn check_session(mut input: Vec<u8>) -> Result<(), TestCaseError> {
    // Every search is stopped by the line waiting behind it, the last by `quit`.
    input.extend_from_slice(b"\nquit\n");
    let lines = input.split(|&b| b == b'\n').count();
    let (_, errors) = serve(input);
    // A complaint without the prefix is kept whole, and fails the check.
    check_complaint_lines(
        errors
            .lines()
            .map(|c| c.strip_prefix("nboard: line ").unwrap_or(c)),
        lines,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_nboard_sessions_end_cleanly(input in mutated_session(SESSION)) {
        check_session(input)?;
    }

    #[test]
    fn every_go_is_answered_even_when_stopped_or_after_the_input_ends(
        empties in 4u32..50,
        seed in any::<u64>(),
        depth in 1u32..5,
        gos in 1usize..4,
    ) {
        let line = &othello::run::generate_positions(&[empties], 1, seed)[0];
        let p: Position = line.parse().unwrap();
        let game = GgfGame::new(p);
        let mut session = format!("nboard 2\nset depth {depth}\nset game {game}\n");
        // All but the last `go` are stopped by the next one; the last runs after the end of
        // the input.
        session.push_str(&"go\n".repeat(gos));
        let (out, errors) = serve(session.into_bytes());
        let answers = out.lines().filter(|l| l.starts_with("=== ")).count();
        if p.game_over() {
            prop_assert_eq!(answers, 0);
        } else {
            prop_assert_eq!(answers, gos, "{}\n{}", out, errors);
            prop_assert!(errors.is_empty(), "{}", errors);
        }
    }

    #[test]
    fn ggf_games_parse_or_fail_cleanly(text in text_like(GGF)) {
        check_ggf(&text)?;
    }

    #[test]
    fn obf_lines_parse_or_fail_cleanly(text in text_like(OBF)) {
        check_obf(&text)?;
    }

    #[test]
    fn timing_jobs_parse_or_fail_cleanly(text in text_like(JOB)) {
        check_job(&text)?;
    }
}

#[test]
fn the_ggf_sample_is_a_legal_game() {
    let game: GgfGame = GGF.parse().unwrap();
    assert_eq!(game.moves.len(), 4);
}

#[test]
fn the_session_sample_answers_every_command() {
    let (out, errors) = serve(format!("{SESSION}quit\n").into_bytes());
    assert_eq!(out.matches("=== ").count(), 2, "{out}");
    assert!(out.contains("pong 2"), "{out}");
    assert!(errors.is_empty(), "{errors}");
}

const GAM: &str = "+f5-d6+c3-d3+c4-f4+c5-b3+c2-e6+c6-b4+b5-d2+e3-a6+c1-b1+f3-f6+e7-e8+g4-g5+g6-h3+d7-d8+c8-f7+f8-b6+a5-h4+h6-e2+g3-h5+a4-c7+g8-e1+d1-f2+f1-g2+h1-h7+h8-h2+g1-g7+b8-a3+a2-b7+a8-a7+a1-b2: +16 10";

fn check_gam(text: &str) -> Result<(), TestCaseError> {
    for line in text.lines() {
        if let Ok(record) = othello::formats::logistello::read_line(line) {
            // A game that replays is legal; a bad one is named at a move or as a whole.
            match record.replay() {
                Ok(replay) => {
                    let again = othello::formats::logistello::write_line(&replay);
                    let back = othello::formats::logistello::read_line(&again)
                        .expect("a written line reads");
                    prop_assert_eq!(back.squares, record.squares);
                }
                Err((ply, _)) => {
                    prop_assert!(ply.is_none_or(|p| p >= 1 && p <= record.squares.len()))
                }
            }
        }
    }
    Ok(())
}

/// A small WTHOR file of real games, then arbitrary edits of its bytes.
fn wthor_like() -> impl Strategy<Value = Vec<u8>> {
    let games: Vec<othello::formats::record::GameRecord> =
        ["f5d6c3d3c4f4c5b3c2", "e6f4e3f6g5d6e7f5c5", "c4e3f6e6f5c5c3"]
            .iter()
            .map(|t| othello::formats::record::GameRecord {
                squares: othello::formats::record::transcript_squares(t).unwrap(),
                black_diff: 0,
                ..Default::default()
            })
            .collect();
    let file = othello::formats::wthor::write_games(&games, 2001, 24);
    let len = file.len();
    (
        proptest::collection::vec((0..len + 8, any::<u8>()), 0..12),
        0..len + 8,
    )
        .prop_map(move |(edits, cut)| {
            let mut b = file.clone();
            for (at, v) in edits {
                if at < b.len() {
                    b[at] = v;
                } else {
                    b.push(v);
                }
            }
            b.truncate(cut.max(1));
            b
        })
}

fn check_wthor(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok((header, games)) = othello::formats::wthor::read_games(bytes) {
        for g in games.into_iter().flatten() {
            prop_assert!(g.squares.iter().all(|&s| s < 64));
            prop_assert_eq!(g.year, Some(header.year));
            if let Err((ply, _)) = g.replay() {
                prop_assert!(ply.is_none_or(|p| p >= 1 && p <= g.squares.len()));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn logistello_lines_read_or_fail_cleanly(text in text_like(GAM)) {
        check_gam(&text)?;
    }

    #[test]
    fn wthor_files_read_or_fail_cleanly(bytes in wthor_like()) {
        check_wthor(&bytes)?;
    }
}

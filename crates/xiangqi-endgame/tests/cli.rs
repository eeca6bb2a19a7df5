//! The binary as a user meets it.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-endgame"))
}

#[test]
fn folder_run_writes_answers_and_move_lists_and_survives_a_bad_file() {
    let d = std::env::temp_dir().join(format!("xq-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("input")).unwrap();
    let board = "...k.....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n....R....\n....K....\n\n\n\n";
    std::fs::write(d.join("input/1.txt"), board).unwrap();
    std::fs::write(d.join("input/2.txt"), "...k.....\n.........\n").unwrap();
    std::fs::write(d.join("input/3.txt"), board.replace("R", "X")).unwrap();
    let out = bin().arg(d.join("input")).arg("--quiet").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2.txt: expected 10 board lines, found 2"),
        "{err}"
    );
    assert!(err.contains("3.txt:9: `X` is not a piece letter"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("output/output_1.txt")).unwrap(),
        "R (4,1) (4,8)\n"
    );
    let red = std::fs::read_to_string(d.join("move/red_1.txt")).unwrap();
    assert!(red.starts_with("init: 4 8\nnext: "), "{red}");
    assert!(d.join("move/black_1.txt").exists());
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn perft_and_fen_commands() {
    let out = bin()
        .args([
            "perft",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "perft 3: 79666\n");
    let out = bin()
        .args([
            "run",
            "--fen",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w",
            "--y-origin",
            "top",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("R (4,8) (4,1)"));
}

#[test]
fn a_match_plays_legal_games_to_a_ruled_end_and_reports_the_score() {
    let d = std::env::temp_dir().join(format!("xq-match-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let games = d.join("games.jsonl");
    let out = bin()
        .args([
            "match",
            "--pairs",
            "1",
            "--movetime-ms",
            "5",
            "--seed",
            "7",
            "--games",
        ])
        .arg(&games)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games at 5 ms per move"), "{text}");
    assert!(text.contains("95% interval"), "{text}");
    let records = std::fs::read_to_string(&games).unwrap();
    assert_eq!(records.lines().count(), 2);
    for line in records.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        // Every game replays legally from the start and ends for the reason it gives.
        let mut pos: xiangqi_endgame::Position = xiangqi_endgame::START_FEN.parse().unwrap();
        let mut legal = Vec::new();
        for m in g["moves"].as_str().unwrap().split_whitespace() {
            legal.clear();
            xiangqi_endgame::movegen::legal_moves(&pos, &mut legal);
            let mv: xiangqi_endgame::Move = m.parse().unwrap();
            assert!(legal.contains(&mv), "{m} in {line}");
            pos.make(mv);
        }
        legal.clear();
        xiangqi_endgame::movegen::legal_moves(&pos, &mut legal);
        match g["reason"].as_str().unwrap() {
            "no legal move" => assert!(legal.is_empty()),
            _ => assert!(!legal.is_empty()),
        }
    }
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn mate_prints_the_shortest_mate_or_proves_there_is_none() {
    let out = bin()
        .args(["mate", "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "--plies", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("mate in 1 (1 ply): e1e8"), "{text}");
    let out = bin()
        .args(["mate", "4k4/9/9/9/9/9/9/9/9/3K5 w", "--plies", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("no forced mate within 5 plies"));
    let out = bin().args(["mate", "not a fen"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("FEN"));
}

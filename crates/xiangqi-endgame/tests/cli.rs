//! The binary as a user meets it.

use batch::run_tool;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_xiangqi-endgame");

fn bin() -> Command {
    Command::new(BIN)
}

/// A fresh scratch folder for one test (`name` and the process id keep tests apart).
fn scratch(name: &str) -> batch::testing::Scratch {
    batch::testing::temp_dir(&format!("xq-{name}"))
}

#[test]
fn folder_run_writes_answers_and_move_lists_and_survives_a_bad_file() {
    let d = scratch("cli");
    std::fs::create_dir_all(d.join("input")).unwrap();
    let board = "...k.....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n....R....\n....K....\n\n\n\n";
    std::fs::write(d.join("input/1.txt"), board).unwrap();
    std::fs::write(d.join("input/2.txt"), "...k.....\n.........\n").unwrap();
    std::fs::write(d.join("input/3.txt"), board.replace("R", "X")).unwrap();
    run_tool!(BIN, d.join("input"), "--quiet")
        .fails(1, "2.txt: expected 10 board lines, found 2")
        .says("3.txt:9: `X` is not a piece letter");
    assert_eq!(
        std::fs::read_to_string(d.join("output/output_1.txt")).unwrap(),
        "R (4,1) (4,8)\n"
    );
    let red = std::fs::read_to_string(d.join("move/red_1.txt")).unwrap();
    assert!(red.starts_with("init: 4 8\nnext: "), "{red}");
    assert!(d.join("move/black_1.txt").exists());
}

#[test]
fn perft_and_fen_commands() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let run = run_tool!(BIN, "perft", start, "3").ok();
    assert_eq!(run.stdout, "perft 3: 79666\n");
    let rook = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";
    run_tool!(BIN, "run", "--fen", rook, "--y-origin", "top").prints("R (4,8) (4,1)");
}

/// Runs `match` with `args` for two games at `movetime` ms per move and returns its output and
/// the games it wrote, each checked to replay legally from its start and to end for the reason
/// it gives.
fn run_match(movetime: &str, args: &[&str]) -> (std::process::Output, Vec<serde_json::Value>) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = scratch(&format!("match-{run}"));
    let games = d.join("games.jsonl");
    let mut command = bin();
    command.args(["match", "--pairs", "1", "--seed", "7"]);
    // An empty time per move: the arguments give the budget (a clock, say).
    if !movetime.is_empty() {
        command.args(["--movetime-ms", movetime]);
    }
    let out = command
        .args(args)
        .arg("--games")
        .arg(&games)
        .output()
        .unwrap();
    let records = std::fs::read_to_string(&games).unwrap_or_default();
    let mut parsed = Vec::new();
    for line in records.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut pos: xiangqi_endgame::Position = g["start"].as_str().unwrap().parse().unwrap();
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
        let reason = g["reason"].as_str().unwrap();
        if reason == "no legal move" {
            assert!(legal.is_empty(), "{line}");
        } else {
            assert!(!legal.is_empty(), "{line}");
        }
        parsed.push(g);
    }
    (out, parsed)
}

#[test]
fn a_match_plays_legal_games_to_a_ruled_end_and_reports_the_score() {
    let (out, games) = run_match("5", &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("selective against full-width, 2 games at 5 ms per move"),
        "{text}"
    );
    assert!(text.contains("95% interval"), "{text}");
    assert_eq!(games.len(), 2);
}

#[test]
fn a_match_against_an_external_uci_engine() {
    // The tool's own `uci` as the external engine, the way a change is measured against the
    // build before it.
    let engine = format!("uci:{} uci", env!("CARGO_BIN_EXE_xiangqi-endgame"));
    let (out, games) = run_match("40", &["--a", &engine]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("{engine} against full-width, 2 games")),
        "{text}"
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!g["reason"].as_str().unwrap().contains("forfeit"), "{g}");
    }
}

#[test]
fn a_match_refuses_an_engine_that_does_not_start_and_forfeits_illegal_moves() {
    let (out, games) = run_match("5", &["--b", "uci:/no/such/engine"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("engine uci:/no/such/engine: cannot start"),
        "{err}"
    );
    assert!(games.is_empty());
    let (out, _) = run_match("5", &["--b", "plain"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown engine `plain`"));
    #[cfg(unix)]
    {
        // An engine that answers the handshake and then always plays a corner to itself.
        let d = scratch("bad-engine");
        let script = d.join("engine.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n uci) echo uciok;;\n isready) echo readyok;;\n go*) echo bestmove a0a0;;\n quit) exit 0;;\n esac; done\n",
        )
        .unwrap();
        let status = Command::new("chmod")
            .arg("+x")
            .arg(&script)
            .status()
            .unwrap();
        assert!(status.success());
        let engine = format!("uci:{}", script.display());
        let (out, games) = run_match("5", &["--b", &engine, "--opening-plies", "0"]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("2 wins, 0 draws, 0 losses"), "{text}");
        let reasons: Vec<&str> = games
            .iter()
            .map(|g| g["reason"].as_str().unwrap())
            .collect();
        assert!(
            reasons.contains(&"black forfeits: illegal move `a0a0`"),
            "{reasons:?}"
        );
        assert!(
            reasons.contains(&"red forfeits: illegal move `a0a0`"),
            "{reasons:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_dies_on_go_forfeits_with_its_reason_and_the_match_goes_on() {
    let d = scratch("dying-engine");
    let handshake = "uci) echo uciok;; isready) echo readyok;;";
    let exited = "the engine exited before `bestmove`";
    for (name, on_go, reason) in [
        ("exit.sh", "exit 3", exited),
        ("kill.sh", "kill -9 $$", exited),
    ] {
        let body =
            format!("while read -r l; do case \"$l\" in {handshake} go*) {on_go};; esac; done");
        let script = batch::testing::fake_engine(&d, name, &body);
        let engine = format!("uci:{}", script.display());
        let (out, games) = run_match("5", &["--a", &engine, "--opening-plies", "0"]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(games.len(), 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("game 1: A (red) forfeits: "), "{stderr}");
        assert!(stderr.contains(reason), "{stderr}");
        assert!(games
            .iter()
            .all(|g| g["reason"].as_str().unwrap().contains(reason)));
    }
}

#[test]
fn a_match_from_balanced_endgames_gives_both_engines_the_same_material() {
    let engine = format!("uci:{} uci", env!("CARGO_BIN_EXE_xiangqi-endgame"));
    let (out, games) = run_match("20", &["--a", &engine, "--endgames"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(games.len(), 2);
    let start = games[0]["start"].as_str().unwrap();
    assert_eq!(
        games[1]["start"].as_str(),
        Some(start),
        "one start per pair"
    );
    assert_ne!(start, xiangqi_endgame::START_FEN);
    let pos: xiangqi_endgame::Position = start.parse().unwrap();
    use xiangqi_endgame::{Color, Kind};
    for kind in [
        Kind::Chariot,
        Kind::Horse,
        Kind::Cannon,
        Kind::Pawn,
        Kind::Elephant,
    ] {
        assert_eq!(
            pos.count_of(Color::Red, kind),
            pos.count_of(Color::Black, kind)
        );
    }
    let out = bin()
        .args(["match", "--endgames", "--opening-plies", "4"])
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "an endgame start has no opening plies"
    );
}

#[test]
fn problems_runs_a_collection_through_the_engine() {
    let d = scratch("problems");
    let text = d.join("set.txt");
    let own: Vec<&str> = include_str!("data/mates.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    std::fs::write(&text, format!("# three\n{}\nnot a fen\n", own.join("\n"))).unwrap();
    let out = bin()
        .args(["problems", text.to_str().unwrap(), "--movetime-ms", "300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "the bad line: {out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("set.txt:5: FEN"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("line 2: "), "{stdout}");
    assert!(
        stdout.contains("3 problems at 300 ms each: the engine reports a forced mate in 3; 3 of the 3 with a known mate found"),
        "{stdout}"
    );
    let json = d.join("set.json");
    std::fs::write(
        &json,
        r#"[{"fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "name": "rook"}]"#,
    )
    .unwrap();
    let out = bin()
        .args([
            "problems",
            json.to_str().unwrap(),
            "--json",
            "--movetime-ms",
            "100",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["name"], "rook");
    assert_eq!(record["engine"]["mate_in"], 1);
}

#[test]
fn train_learns_the_same_weights_from_the_same_games() {
    let d = scratch("train");
    let games = d.join("games.jsonl");
    let out = bin()
        .args([
            "match",
            "--mixed-endgames",
            "--a",
            "selective",
            "--b",
            "selective",
        ])
        .args([
            "--nodes-per-move",
            "3000",
            "--pairs",
            "10",
            "--seed",
            "3",
            "--games",
        ])
        .arg(&games)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("20 games at 3000 nodes per move"));
    let train = |weights: &std::path::Path| {
        bin()
            .arg("train")
            .arg(&games)
            .arg("-o")
            .arg(weights)
            .output()
            .unwrap()
    };
    let mut made = Vec::new();
    for k in 0..2 {
        let weights = d.join(format!("w{k}.txt"));
        let out = train(&weights);
        assert!(out.status.success(), "{out:?}");
        let text = std::fs::read_to_string(&weights).unwrap();
        text.parse::<xiangqi_endgame::eval::EndgameWeights>()
            .unwrap();
        made.push(text);
    }
    assert_eq!(made[0], made[1]);
    // Piece-square tables fitted to searches: the same tables on one thread and on two.
    let tables = |threads: &str, out_file: &std::path::Path, extra: Option<&std::path::Path>| {
        let mut c = bin();
        c.args(["train", "--tables", "--label-nodes", "400", "--every", "3"])
            .args(["--threads", threads])
            .arg(&games);
        if let Some(e) = extra {
            c.arg(e);
        }
        c.arg("-o").arg(out_file).output().unwrap()
    };
    let mut made = Vec::new();
    for threads in ["1", "2"] {
        let file = d.join(format!("t{threads}.txt"));
        let out = tables(threads, &file, None);
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("each labelled by a search of 400 nodes"),
            "{stdout}"
        );
        let text = std::fs::read_to_string(&file).unwrap();
        let t: xiangqi_endgame::piece_square::PieceSquareTables = text.parse().unwrap();
        assert!(t.values.iter().flatten().flatten().any(|&v| v != 0));
        made.push(text);
    }
    assert_eq!(made[0], made[1]);
    let bad = d.join("bad.jsonl");
    std::fs::write(&bad, "{\"result\":\"RedWins\",\"start\":\"3k5/9/9/9/9/9/9/9/4R4/4K4 b\",\"moves\":\"d9d8 e1d2\"}\n").unwrap();
    let out = tables("1", &d.join("t.txt"), Some(&bad));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl:1: `e1d2` is not legal"), "{err}");
    std::fs::rename(&bad, &games).unwrap();
    let out = train(&d.join("w.txt"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("games.jsonl:1: `e1d2` is not legal"), "{err}");
}

#[test]
fn mate_by_checks_only_is_a_narrower_question() {
    // A quiet first move mates in two; by checks alone it takes four moves.
    let fen = "9/2P4P1/4k4/3R4N/9/9/9/9/3K5/9 w";
    let out = bin()
        .args(["mate", fen, "--plies", "9", "--checks-only"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("mate in 4 (7 plies): "), "{text}");
    let out = bin().args(["mate", fen, "--plies", "9"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("mate in 2 (3 plies): "));
    // Here only a quiet move mates.
    let out = bin()
        .args([
            "mate",
            "2P6/9/3k5/R8/1N7/9/9/3A1K3/9/8p w",
            "--plies",
            "9",
            "--checks-only",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("no forced mate by checks within 9 plies"),
        "{text}"
    );
}

#[test]
fn mate_prints_the_shortest_mate_or_proves_there_is_none() {
    let out = bin()
        .args(["mate", "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "--plies", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    // The rook mates on the king's file or on the eighth rank (the kings may not face).
    let mv = text.strip_prefix("mate in 1 (1 ply): ").map(|t| &t[..4]);
    assert!(matches!(mv, Some("e1e8" | "e1d1")), "{text}");
    let out = bin()
        .args([
            "mate",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w",
            "--plies",
            "5",
            "--full-width",
        ])
        .output()
        .unwrap();
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

#[test]
fn uci_experiment_flags_switch_rules_off_and_choose_the_evaluation() {
    use std::io::Write;
    for args in [
        vec!["uci", "--without", "null-move,futility", "--eval", "course"],
        vec!["uci", "--without", "late-move-reductions"],
        vec!["uci", "--with", "static-exchange,singular-extensions"],
        vec![
            "uci",
            "--with",
            "probcut,continuation-history,improving,deeper-reductions",
        ],
    ] {
        let mut child = bin()
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w\ngo depth 3\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("score mate 1"), "{args:?}: {text}");
        assert!(text.contains("bestmove e1"), "{args:?}: {text}");
    }
    let out = bin().args(["uci", "--without", "bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("null-move"));
}

#[cfg(unix)]
#[test]
fn a_clock_match_sends_the_clocks_and_a_side_out_of_time_loses() {
    // An engine that thinks a second when it is given clocks (and plays nonsense at once
    // otherwise): with half a second on its clock it loses on time, not by forfeit.
    let d = scratch("slow-engine");
    let body = "while read -r l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
                'go wtime '*) sleep 1; echo bestmove a0a0;; go*) echo bestmove a0a0;; esac; done";
    let script = batch::testing::fake_engine(&d, "slow.sh", body);
    let engine = format!("uci:{}", script.display());
    let pgn = d.join("games.pgn");
    let (out, games) = run_match(
        "",
        &[
            "--b",
            &engine,
            "--clock",
            "0.5+0",
            "--opening-plies",
            "0",
            "--pgn",
            &pgn.display().to_string(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games at 0.5+0: 2 wins"), "{text}");
    assert!(
        games.iter().all(|g| g["reason"] == "lost on time"),
        "{games:?}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 1: B lost on time"), "{stderr}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn.contains("[TimeControl \"0.5+0\"]"), "{pgn}");
    // The engine's own play manages a clock without running out.
    let (out, games) = run_match("", &["--a", "selective", "--clock", "1+0.01"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        games.iter().all(|g| g["reason"] != "lost on time"),
        "{games:?}"
    );
}

/// This tool's own engine behind a translator that numbers ranks 1..10, the way
/// Fairy-Stockfish writes its moves (`h3e3` for `h2e2`), in both directions.
#[cfg(unix)]
fn engine_counting_ranks_from_one(name: &str) -> (batch::testing::Scratch, String) {
    let d = scratch(name);
    let bin = env!("CARGO_BIN_EXE_xiangqi-endgame");
    let down = r#"s/(?<!\S)([a-i])(10|[1-9])([a-i])(10|[1-9])(?!\S)/$1.($2-1).$3.($4-1)/ge"#;
    let up = r#"s/(?<!\S)([a-i])([0-9])([a-i])([0-9])(?!\S)/$1.($2+1).$3.($4+1)/ge"#;
    let body =
        format!("perl -ne '$|=1; {down}; print' | '{bin}' uci | perl -ne '$|=1; {up}; print'");
    let script = batch::testing::fake_engine(&d, "ranks-from-one.sh", &body);
    let engine = format!("uci:{}", script.display());
    (d, engine)
}

#[cfg(unix)]
#[test]
fn a_match_finds_an_engine_counting_ranks_from_one_and_sets_its_options() {
    let (_dir, engine) = engine_counting_ranks_from_one("ranks-auto");
    let d = scratch("ranks-auto-pgn");
    let pgn = d.join("games.pgn");
    let pgn_arg = pgn.display().to_string();
    let (out, games) = run_match(
        "40",
        &["--b", &engine, "--b-option", "Hash=8", "--pgn", &pgn_arg],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("engine B numbers ranks 1..10"), "{stderr}");
    assert_eq!(games.len(), 2);
    for g in &games {
        let reason = g["reason"].as_str().unwrap();
        assert!(!reason.contains("forfeit"), "{g}");
        assert!(g["b_think_ms"].as_f64().unwrap() > 0.0, "{g}");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("A thought ") && text.contains("B thought "),
        "{text}"
    );
    assert!(text.contains("(late: after 90 ms)"), "{text}");
    // The records are in the tool's own (ICCS) numbering, whatever the engine's.
    let records = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(records.matches("[Event ").count(), 2, "{records}");
    assert!(
        records.contains(&format!("[Black \"{engine}\"]")),
        "{records}"
    );
    let first_moves = games[0]["moves"].as_str().unwrap();
    let first: Vec<&str> = first_moves.split_whitespace().take(2).collect();
    assert!(
        records.contains(&format!("1. {} {}", first[0], first[1])),
        "{records}"
    );
    // An option the engine refuses is its own business; a malformed one is refused here.
    let (out, _) = run_match("5", &["--b", &engine, "--b-option", "Hash"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected NAME=VALUE"));
    let (out, _) = run_match("5", &["--a-ranks", "1"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("are for uci: engines"));
}

#[cfg(unix)]
#[test]
fn a_wrong_rank_numbering_forfeits_with_a_hint() {
    let (_dir, engine) = engine_counting_ranks_from_one("ranks-wrong");
    let (out, games) = run_match(
        "20",
        &["--b", &engine, "--b-ranks", "0", "--opening-plies", "0"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let reasons: Vec<&str> = games
        .iter()
        .map(|g| g["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("forfeits: illegal move") && r.contains("count from 1")),
        "{reasons:?}"
    );
}

#[test]
fn train_net_makes_the_same_network_on_one_thread_and_two_and_reuses_its_data() {
    use xiangqi_endgame::nnue::Network;
    let d = scratch("train-net");
    let train = |threads: &str, data: &std::path::Path, out: &std::path::Path, games: &str| {
        bin()
            .args([
                "train-net",
                "--games",
                games,
                "--nodes",
                "400",
                "--epochs",
                "2",
            ])
            .args(["--threads", threads, "--data"])
            .arg(data)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let mut nets = Vec::new();
    let mut data = Vec::new();
    for threads in ["1", "2"] {
        let (file, net) = (
            d.join(format!("d{threads}.txt")),
            d.join(format!("n{threads}.bin")),
        );
        let out = train(threads, &file, &net, "6");
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("Made by `xiangqi-endgame train-net --games 6 --nodes 400"),
            "{stdout}"
        );
        let net = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
        assert_eq!(net.description, stdout.trim());
        assert!(net.input_weights.iter().any(|&w| w != 0));
        nets.push(net);
        data.push(std::fs::read_to_string(&file).unwrap());
    }
    assert_eq!(data[0], data[1]);
    assert!(data[0]
        .starts_with("# --games 6 --nodes 400 --opening-plies 8 --play piece-square --seed 1\n"));
    let weights = |n: &Network| {
        (
            n.input_weights.clone(),
            n.output_weights.clone(),
            n.output_bias,
        )
    };
    assert_eq!(weights(&nets[0]), weights(&nets[1]));
    // The data file is read again, and gives the same network.
    let again = d.join("again.bin");
    let out = train("1", &d.join("d1.txt"), &again, "6");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("labelled positions read from"),
        "{out:?}"
    );
    let net = Network::from_bytes(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!(weights(&net), weights(&nets[0]));
    // Data made with other options is refused, and a bad line is named.
    let out = train("1", &d.join("d1.txt"), &again, "7");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the positions were made with `--games 6"),
        "{err}"
    );
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "# --games 6 --nodes 400 --opening-plies 8 --play piece-square --seed 1\nnot a position;1;1;0\n").unwrap();
    let out = train("1", &bad, &again, "6");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt:2:"), "{err}");
}

#[test]
fn impossible_positions_unknown_annotations_and_device_outputs_are_refused() {
    // A red pawn behind its own lines can never stand there.
    run_tool!(BIN, "perft", "4k4/9/9/9/9/9/9/9/9/P2K5 w", "1")
        .fails(2, "impossible position: a red Pawn on a0");
    let d = scratch("refusals");
    let problems = d.join("problems.txt");
    std::fs::write(&problems, "3k5/9/9/9/9/9/9/9/4R4/4K4 w; checkmate soon\n").unwrap();
    run_tool!(BIN, "problems", &problems).fails(
        1,
        "problems.txt:1: unknown annotation `checkmate soon`: expected `mate in K`",
    );
    // A device (or a FIFO) is never replaced by the network file.
    run_tool!(BIN, "train-net", "-o", "/dev/null", "--games", "1")
        .fails(2, "/dev/null: not a regular file");
}

/// Two games in Chinese notation: one legal, one whose first black move fits no legal move.
const CHINESE_GAMES: &str = "[Event \"test\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n\n[Event \"bad\"]\n1. 炮二平五 車１進９ *\n";

#[test]
fn games_reads_every_notation_and_encoding_names_a_bad_game_and_converts() {
    let d = scratch("games");
    let games = d.join("games.pgn");
    std::fs::write(&games, CHINESE_GAMES).unwrap();
    // The bad game is named with its file, number, line, move and reason; the good one is read.
    run_tool!(BIN, "games", &games, "-o", d.join("iccs.pgn"))
        .fails(
            1,
            "games.pgn: game 2, line 8, move 1...: 車１進９: no legal move fits it",
        )
        .prints("1 game in 1 file (1 rejected), 5 positions");
    let iccs = std::fs::read_to_string(d.join("iccs.pgn")).unwrap();
    assert!(iccs.contains("1. h2e2 h9g7 2. h0g2 i9h9"), "{iccs}");
    assert!(
        iccs.contains("[Red \"A\"]") && iccs.contains("1-0"),
        "{iccs}"
    );
    // ICCS back to Chinese and to WXF, and WXF back to ICCS: the same moves.
    run_tool!(
        BIN,
        "games",
        d.join("iccs.pgn"),
        "--notation",
        "chinese",
        "-o",
        d.join("zh.pgn")
    )
    .ok();
    let zh = std::fs::read_to_string(d.join("zh.pgn")).unwrap();
    assert!(
        zh.contains("炮二平五 馬８進７") && zh.contains("馬二進三 車９平８"),
        "{zh}"
    );
    run_tool!(
        BIN,
        "games",
        d.join("iccs.pgn"),
        "--notation",
        "wxf",
        "-o",
        d.join("wxf.pgn")
    )
    .ok();
    let wxf = std::fs::read_to_string(d.join("wxf.pgn")).unwrap();
    assert!(wxf.contains("C2.5 H8+7"), "{wxf}");
    run_tool!(BIN, "games", d.join("wxf.pgn"), "-o", d.join("again.pgn")).ok();
    assert_eq!(std::fs::read_to_string(d.join("again.pgn")).unwrap(), iccs);
    // Simplified characters in GBK, traditional in Big5: found from the bytes.
    let good = CHINESE_GAMES.split("\n\n").next().unwrap();
    let simplified = good
        .replace('馬', "马")
        .replace('進', "进")
        .replace('車', "车");
    let (gbk, _, _) = encoding_rs::GBK.encode(&simplified);
    std::fs::write(d.join("gbk.pgn"), &gbk).unwrap();
    let (big5, _, _) = encoding_rs::BIG5.encode(good);
    std::fs::write(d.join("big5.pgn"), &big5).unwrap();
    for f in ["gbk.pgn", "big5.pgn"] {
        run_tool!(BIN, "games", d.join(f), "-o", d.join("out.pgn")).ok();
        assert_eq!(
            std::fs::read_to_string(d.join("out.pgn")).unwrap(),
            iccs,
            "{f}"
        );
    }
    // One FEN a position.
    run_tool!(
        BIN,
        "games",
        d.join("iccs.pgn"),
        "--fens",
        d.join("fens.txt")
    )
    .ok();
    let fens = std::fs::read_to_string(d.join("fens.txt")).unwrap();
    let lines: Vec<&str> = fens.lines().collect();
    assert_eq!(lines.len(), 5, "{fens}");
    assert_eq!(
        lines[0],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
    );
    assert!(
        lines[1].ends_with(" b") && lines[1].contains("1C2C4"),
        "{fens}"
    );
}

#[test]
fn analyze_marks_a_hung_rook_as_a_blunder_in_the_pgn_and_the_graph() {
    let d = scratch("analyze");
    let game = d.join("game.pgn");
    // The black horse on c2 covers a1: the rook walking there is lost for nothing.
    std::fs::write(
        &game,
        "[FEN \"3k5/9/9/9/9/9/9/2n6/9/R3K4 w\"]\n1. a0a1 c2a1 *\n",
    )
    .unwrap();
    run_tool!(
        BIN,
        "analyze",
        &game,
        "--movetime",
        "200",
        "-o",
        d.join("annotated.pgn"),
        "--svg",
        d.join("eval.svg")
    )
    .ok()
    .prints("red: 0 mistakes, 1 blunder");
    let annotated = std::fs::read_to_string(d.join("annotated.pgn")).unwrap();
    assert!(annotated.contains("1. a0a1?? {"), "{annotated}");
    assert!(annotated.contains("blunder: "), "{annotated}");
    let svg = std::fs::read_to_string(d.join("eval.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    run_tool!(BIN, "analyze", &game, "--game", "2").fails(2, "--game 2, but the file holds 1 game");
}

//! The binary as a user meets it: `perft`, and `solve` over a file of positions (bad lines,
//! `--check`, `--jobs`).

use batch::run_tool;
use batch::testing::{assert_run_reproduces_bundled_outputs, Run};
use othello::endgame::solve;
use othello::{Move, Position};
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_othello");

fn bin() -> Command {
    Command::new(EXE)
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("othello-cli-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// Late positions of a game played from the start by always taking the first legal square,
/// with 5..=9 empty squares, each as an OBF line followed by its exact score.
fn late_positions() -> Vec<(String, i32)> {
    let mut p = Position::default();
    let mut out = Vec::new();
    let mut searcher = othello::endgame::searcher(4);
    while !p.game_over() {
        if (5..=9).contains(&p.empties()) {
            out.push((p.to_string(), solve(&p, &mut searcher).score));
        }
        let m = p.moves();
        p = p.play(if m == 0 {
            Move::Pass
        } else {
            Move::Square(m.trailing_zeros() as u8)
        });
    }
    assert!(out.len() >= 4, "the game passes through 5..9 empties");
    out
}

#[test]
fn perft_prints_the_standard_counts() {
    for (depth, leaves) in [(1, 4), (3, 56), (5, 1396)] {
        let out = bin().arg("perft").arg(depth.to_string()).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("perft {depth}: {leaves}")), "{text}");
    }
}

#[test]
fn solve_reports_a_bad_line_and_still_solves_the_others_in_order() {
    let positions = late_positions();
    let mut text = String::new();
    for (i, (board, score)) in positions.iter().enumerate() {
        text.push_str(&format!("{board}; A1:{score:+};\n"));
        if i == 1 {
            text.push_str("this is not a board\n");
        }
    }
    let file = temp_file("bad-line", &text);
    let outputs: Vec<_> = ["1", "3"]
        .iter()
        .map(|jobs| {
            bin()
                .args(["solve", "--check", "--jobs", jobs])
                .arg(&file)
                .output()
                .unwrap()
        })
        .collect();
    for out in &outputs {
        assert_eq!(out.status.code(), Some(1), "a bad line makes the run fail");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{}:3:", file.display())),
            "{stderr}"
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), positions.len() + 1, "{stdout}");
        for (line, (i, (_, score))) in lines.iter().zip(positions.iter().enumerate()) {
            // Input line numbers skip the bad line, which comes third.
            let n = if i < 2 { i + 1 } else { i + 2 };
            assert!(
                line.starts_with(&format!("{}:{n}:", file.display())),
                "{line}"
            );
            assert!(line.contains(&format!("score {score:+} ok")), "{line}");
        }
        assert_eq!(
            lines.last().unwrap(),
            &format!("{} passed, 1 failed", positions.len())
        );
    }
    // Apart from the timings, one job and three print the same.
    let strip = |o: &std::process::Output| -> Vec<String> {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(strip(&outputs[0]), strip(&outputs[1]));
    let _ = std::fs::remove_file(file);
}

#[test]
fn solve_with_threads_checks_every_score_and_refuses_zero_threads() {
    let positions = late_positions();
    let text: String = positions
        .iter()
        .map(|(board, score)| format!("{board}; A1:{score:+};\n"))
        .collect();
    let file = temp_file("threads", &text);
    let out = bin()
        .args(["solve", "--check", "--threads", "2", "--jobs", "2"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("{} passed, 0 failed", positions.len())),
        "{stdout}"
    );
    // Solved one line at a time, each line also reports the CPU its threads took.
    let out = bin()
        .args(["solve", "--check", "--threads", "2"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let solved: Vec<&str> = stdout.lines().filter(|l| l.contains(" empties")).collect();
    assert_eq!(solved.len(), positions.len(), "{stdout}");
    assert!(
        solved
            .iter()
            .all(|l| l.contains(" s wall, ") && l.contains(" s CPU, ")),
        "{stdout}"
    );
    let out = bin()
        .args(["solve", "--threads", "0"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--threads"), "{stderr}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn solve_flags_a_wrong_listed_score() {
    let (board, score) = late_positions().remove(0);
    let file = temp_file("wrong", &format!("{board}; A1:{:+};\n", score + 2));
    run_tool!(EXE, "solve", "--check", &file)
        .code(1)
        .prints(&format!("FAIL (listed {:+})", score + 2))
        .prints("0 passed, 1 failed");
    let _ = std::fs::remove_file(file);
}

#[test]
fn solve_names_an_argument_that_is_neither_a_file_nor_a_position() {
    run_tool!(EXE, "solve", "no-such-file.obf")
        .fails(2, "`no-such-file.obf` is neither a file nor a position");
}

/// `othello match alphabeta:1 random` over `games` games on `jobs` threads.
fn quick_match(games: &str, jobs: &str) -> Command {
    let mut cmd = bin();
    cmd.args([
        "match",
        "alphabeta:1",
        "random",
        "--games",
        games,
        "--jobs",
        jobs,
    ]);
    cmd
}

#[test]
fn match_traces_every_turn_of_a_fixed_depth_decider() {
    let dir = std::env::temp_dir().join(format!("othello-cli-match-trace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Run::of(quick_match("2", "1").arg("--trace").arg(&dir)).ok();
    for game in ["game1", "game2"] {
        let trees: Vec<String> = std::fs::read_dir(dir.join(game))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "dot"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        // A moves about half the time after the eight opening plies; random leaves no tree.
        assert!(trees.len() >= 10, "{game}: {} trees", trees.len());
        assert!(trees.iter().all(|t| t.contains("alpha-beta depth 1")));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn run_on_the_bundled_inputs_reproduces_the_bundled_outputs() {
    let (r, out) =
        assert_run_reproduces_bundled_outputs(EXE, env!("CARGO_MANIFEST_DIR"), "othello");
    assert!(r.stdout.ends_with("2 files: 2 ok\n"), "{}", r.stdout);
    // The scored OBF output is itself an input `solve --check` accepts, every score agreeing.
    let check = bin()
        .args(["solve", "--check"])
        .arg(out.join("output_endgames.obf"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&check.stdout).ends_with("16 passed, 0 failed\n"));
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn run_scores_every_position_exactly_and_keeps_going_past_a_bad_file() {
    let dir = batch::testing::temp_dir("othello-cli-run-mixed");
    let positions = late_positions();
    let obf: String = positions.iter().map(|(p, _)| format!("{p};\n")).collect();
    std::fs::write(dir.join("late.obf"), &obf).unwrap();
    std::fs::write(dir.join("bad.obf"), "% a comment\nnot a position\n").unwrap();
    std::fs::write(dir.join("bad.timing"), "depths 1,2\ngames many\n").unwrap();
    std::fs::write(dir.join("small.timing"), "depths 1,2,3\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not an input").unwrap();
    let out = dir.join("out");
    let r = run_tool!(EXE, "run", &dir, "-o", &out)
        .fails(1, "bad.obf:2: ")
        .says("bad.timing:2: games `many`");
    assert!(
        r.stdout.ends_with("4 files: 2 ok, 2 failed\n"),
        "{}",
        r.stdout
    );
    let scored = std::fs::read_to_string(out.join("output_late.obf")).unwrap();
    for ((p, score), line) in positions.iter().zip(scored.lines()) {
        let (board, moves) = line.split_once("; ").unwrap();
        assert_eq!(board, p);
        let (best, listed) = moves.trim_end_matches(';').split_once(':').unwrap();
        assert_eq!(listed.parse::<i32>().unwrap(), *score, "{line}");
        // The best move is legal and keeps the score.
        let pos: Position = p.parse().unwrap();
        let m: Move = best.to_lowercase().parse().unwrap();
        assert!(pos.is_legal(m), "{line}");
        let after = solve(&pos.play(m), &mut othello::endgame::searcher(4)).score;
        assert_eq!(-after, *score, "{line}");
    }
    let table = std::fs::read_to_string(out.join("output_small.md")).unwrap();
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| depth"))
        .collect();
    assert_eq!(rows.len(), 3, "{table}");
    // Depth 1: every algorithm evaluates each move's children once, alpha-beta saves nothing.
    assert!(rows[0].ends_with("| 0.0% |"), "{table}");
}

#[test]
fn generate_makes_seeded_positions_with_the_asked_empties() {
    let run = |seed: &str| {
        let r = bin()
            .args([
                "generate",
                "--empties",
                "10,13",
                "--count",
                "2",
                "--seed",
                seed,
            ])
            .output()
            .unwrap();
        assert_eq!(r.status.code(), Some(0));
        String::from_utf8(r.stdout).unwrap()
    };
    let text = run("3");
    assert_eq!(text, run("3"));
    assert_ne!(text, run("4"));
    let empties: Vec<u32> = text
        .lines()
        .map(|l| l.parse::<Position>().unwrap().empties())
        .collect();
    assert_eq!(empties, [10, 10, 13, 13]);
    let bad = bin().args(["generate", "--empties", "0"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn solve_skips_comment_lines_as_edax_files_have_them() {
    let (p, score) = late_positions().remove(0);
    let path = temp_file(
        "comments.obf",
        &format!("% made by a test\n\n# another\n{p};\n"),
    );
    let r = bin().arg("solve").arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.contains(&format!(
            ":4: {} empties",
            p.parse::<Position>().unwrap().empties()
        )),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("score {score:+}")), "{stdout}");
    std::fs::remove_file(path).unwrap();
}

/// `othello train` end to end on a small scale: two rounds of games, the samples kept and read
/// back, the weights written in the file form the engine loads, the same file from the same
/// seed, and one error table row per stage.
#[test]
fn train_writes_weights_that_load_and_are_reproducible() {
    let dir = batch::testing::temp_dir("othello-cli-train");
    // The small-scale settings, with `games` games, writing `out`.
    let train = |games: &str, out: &str| {
        let mut cmd = bin();
        cmd.args(["train", "--games", games, "--solve-empties", "10"])
            .args(["--iterations", "20", "--out"])
            .arg(dir.join(out));
        cmd
    };
    let run = |out: &str, samples: bool| {
        let mut cmd = train("20", out);
        if samples {
            cmd.arg("--samples").arg(&dir);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let table = run("a.bin", true);
    assert_eq!(
        table.lines().filter(|l| l.starts_with("| ")).count(),
        17,
        "{table}"
    );
    assert!(dir.join("round1.samples").exists() && dir.join("round2.samples").exists());
    // Played afresh, and fitted again from the kept samples: the same bytes.
    run("b.bin", false);
    run("c.bin", true);
    let a = std::fs::read(dir.join("a.bin")).unwrap();
    assert_eq!(a, std::fs::read(dir.join("b.bin")).unwrap());
    assert_eq!(a, std::fs::read(dir.join("c.bin")).unwrap());
    let w = othello::pattern::Weights::from_bytes(&a).unwrap();
    assert!(w.values.iter().any(|&v| v != 0));
    // The message of a run with kept samples that must fail.
    let refused = |games: &str| {
        let o = train(games, "d.bin")
            .arg("--samples")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    // Samples made with other settings are refused, naming both.
    let err = refused("2");
    assert!(
        err.contains("round1.samples was made with `games 20 ") && err.contains("not `games 2 "),
        "{err}"
    );
    // A damaged samples file is an error naming the file, not a panic.
    std::fs::write(dir.join("round1.samples"), b"short").unwrap();
    let err = refused("20");
    assert!(
        err.contains("round1.samples") && err.contains("21-byte"),
        "{err}"
    );
}

/// `othello train --from WEIGHTS --search-depth D --fit-rounds 2`: rounds played by the
/// engine's search from given weights, the second fitted on both rounds' positions, the same
/// bytes for any thread count, and a weights file that is not one refused with its name.
#[test]
fn train_from_weights_with_the_engines_search() {
    let dir = batch::testing::temp_dir("othello-cli-train-from");
    let start = dir.join("start.bin");
    std::fs::write(&start, othello::pattern::weights().to_bytes()).unwrap();
    let train = |out: &str, jobs: &str, from: &std::path::Path| {
        bin()
            .args(["train", "--games", "12", "--solve-empties", "10"])
            .args(["--rounds", "2", "--fit-rounds", "2", "--iterations", "10"])
            .args(["--search-depth", "3", "--jobs", jobs, "--from"])
            .arg(from)
            .arg("--out")
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    for (out, jobs) in [("a.bin", "1"), ("b.bin", "2")] {
        let o = train(out, jobs, &start);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let a = std::fs::read(dir.join("a.bin")).unwrap();
    assert_eq!(a, std::fs::read(dir.join("b.bin")).unwrap());
    assert!(othello::pattern::Weights::from_bytes(&a).is_ok());
    let not_weights = dir.join("not-weights.bin");
    std::fs::write(&not_weights, b"nothing").unwrap();
    let o = train("c.bin", "1", &not_weights);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not-weights.bin"), "{err}");
}

/// `othello fit-probcut` end to end on a small scale: the model file it writes loads, gives
/// the same bytes for the same seed whatever the thread count, and the measured table has a
/// row per stage and depth pair; a bad confidence for `nboard --probcut` is refused.
#[test]
fn fit_probcut_writes_a_model_that_loads_and_is_reproducible() {
    let dir = batch::testing::temp_dir("othello-cli-probcut");
    let fit = |out: &str, jobs: &str| {
        let o = bin()
            .args(["fit-probcut", "--positions", "50", "--max-depth", "5"])
            .args(["--jobs", jobs, "--out"])
            .arg(dir.join(out))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let table = fit("a.txt", "1");
    // Depths 3, 4 and 5 against their shallow depths 1, 2 and 3.
    for pair in [" 3  1 ", " 4  2 ", " 5  3 "] {
        assert!(table.lines().any(|l| l.contains(pair)), "{table}");
    }
    fit("b.txt", "2");
    let a = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    assert_eq!(a, std::fs::read_to_string(dir.join("b.txt")).unwrap());
    let model = othello::probcut::ErrorModel::from_text(&a).unwrap();
    assert!(model.error(30, 5).sigma >= 50);
    run_tool!(EXE, "nboard", "--probcut=-1")
        .fails(2, "a number of standard deviations from 0 to 10");
}

/// `othello match --ggf` writes every game as a GGF line that reads back: the players, each
/// move with its thinking time, and a result that the replayed moves give.
#[test]
fn match_writes_its_games_as_ggf() {
    let dir = batch::testing::temp_dir("othello-cli-match-ggf");
    let file = dir.join("games.ggf");
    Run::of(quick_match("4", "2").arg("--ggf").arg(&file)).ok();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    for (i, line) in text.lines().enumerate() {
        let game: othello::ggf::GgfGame = line.parse().unwrap();
        let tag = |k: &str| game.tags.iter().find(|t| t.0 == k).map(|t| t.1.clone());
        let a = "AlphaBeta(1) Course".to_string();
        let (pb, pw) = (tag("PB").unwrap(), tag("PW").unwrap());
        assert_eq!(if i % 2 == 0 { &pb } else { &pw }, &a, "{line}");
        assert!(game.moves.iter().all(|m| m.time.is_some()), "{line}");
        let end = game.position();
        assert!(end.game_over(), "{line}");
        let black = if end.side == othello::Color::Black {
            1
        } else {
            -1
        };
        let discs = black * (end.me.count_ones() as i32 - end.opp.count_ones() as i32);
        assert_eq!(tag("RE"), Some(format!("{discs:+}")), "{line}");
    }
}

/// A folder of game archives: a WTHOR file with its players' names and a Logistello file with
/// one bad line, as `othello games` meets them.
fn archives(name: &str) -> (batch::testing::Scratch, std::path::PathBuf) {
    use othello::formats::record::{transcript_squares, GameRecord};
    let scratch = batch::testing::temp_dir(name);
    let dir = scratch.join("games");
    let game = |t: &str, d: i32, black: &str| GameRecord {
        squares: transcript_squares(t).unwrap(),
        black_diff: d,
        black: Some(black.into()),
        white: Some("#0".into()),
        tournament: Some("#0".into()),
        ..GameRecord::default()
    };
    // The shortest game (black wins 64-0) twice, once turned; an unfinished one.
    let wtb = othello::formats::wthor::write_games(
        &[
            game("e6f4e3f6g5d6e7f5c5", 64, "#1"),
            game("d3c5d6c3b4e3d2c4f4", 64, "#1"),
            game("f5d6c3d3c4", -4, "#0"),
        ],
        2001,
        24,
    );
    std::fs::create_dir_all(dir.join("wthor")).unwrap();
    std::fs::write(dir.join("wthor/WTH_2001.wtb"), wtb).unwrap();
    let mut jou = vec![20, 1, 1, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
    for name in [&b"Ann"[..], &b"Bob"[..]] {
        let mut n = name.to_vec();
        n.resize(20, 0);
        jou.extend(n);
    }
    std::fs::write(dir.join("wthor/WTH.JOU"), jou).unwrap();
    batch::testing::write(
        &dir.join("book.gam"),
        "+e6-f4+e3-f6+g5-d6+e7-f5+c5: +64 10\n+f5+d6: +00 10\n",
    );
    (scratch, dir)
}

#[test]
fn games_reads_archives_names_a_bad_record_and_converts() {
    let (scratch, dir) = archives("othello-games-read");
    let ggf = scratch.join("out/all.ggf");
    let transcripts = scratch.join("out/all.txt");
    let run = Run::of(
        bin()
            .arg("games")
            .arg(&dir)
            .args(["--opening-plies", "4", "--ggf"])
            .arg(&ggf)
            .arg("--transcripts")
            .arg(&transcripts),
    )
    .code(1)
    .prints("4 games in 2 files (1 rejected, 1 unfinished)")
    .says("book.gam: game 2, ply 2: d6 is marked as black's move, but white is to move");
    assert!(run.stdout.contains("Ann"), "{}", run.stdout);
    // The shortest game and its turned twin are one opening.
    assert!(
        run.stdout.contains("       3  100.0%  +64.00  e6f4e3f6"),
        "{}",
        run.stdout
    );
    let lines: Vec<String> = std::fs::read_to_string(&ggf)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 4);
    for l in &lines {
        l.parse::<othello::ggf::GgfGame>()
            .expect("each line is a GGF game");
    }
    // Files in natural order: the Logistello game, then WTHOR's, named.
    assert!(
        lines[1].contains("PB[Bob]PW[Ann]") && lines[1].contains("RE[+64]"),
        "{}",
        lines[1]
    );
    let t = std::fs::read_to_string(&transcripts).unwrap();
    assert_eq!(t.lines().nth(2), Some("d3c5d6c3b4e3d2c4f4"));
    // Not a game file, a missing one, and a write over an input are refused.
    Run::of(bin().args(["games", "Cargo.toml"])).fails(2, "not one of the game files");
    Run::of(bin().arg("games").arg(dir.join("nothing.wtb"))).fails(2, "cannot open");
    Run::of(
        bin()
            .arg("games")
            .arg(&dir)
            .arg("--ggf")
            .arg(dir.join("book.gam")),
    )
    .fails(2, "input");
}

#[test]
fn a_book_built_from_games_shows_and_plays_its_moves() {
    let (scratch, dir) = archives("othello-games-book");
    let book = scratch.join("book.bin");
    Run::of(
        bin()
            .args(["book", "build"])
            .arg(&dir)
            .args(["--plies", "4", "--min-games", "2", "--depth", "2", "-o"])
            .arg(&book),
    )
    .code(1) // the bad record is named, the book still written
    .prints("positions");
    let run = Run::of(bin().args(["book", "show", "e6", "--book"]).arg(&book)).ok();
    // All four games start e6 f4, turned or not.
    assert!(
        run.stdout.contains("in the book: 4 games"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("f4"), "{}", run.stdout);
    Run::of(bin().args(["book", "show", "a1", "--book"]).arg(&book)).fails(2, "illegal");
    // The engine plays the book's move at once and says so.
    let session = "nboard 2\nset depth 2\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[E6];)\ngo\nping 1\n";
    let run = batch::testing::run_with_input(
        bin().args(["nboard", "--book"]).arg(&book),
        session.as_bytes(),
    );
    assert!(run.stdout.contains("status Book F4"), "{}", run.stdout);
    assert!(run.stdout.contains("=== F4/"), "{}", run.stdout);
}

#[test]
fn outputs_never_replace_devices_inputs_or_files_silently_and_degenerate_fits_are_refused() {
    // Devices (and FIFOs) are never replaced by a regular file.
    run_tool!(
        EXE,
        "fit-probcut",
        "--out",
        "/dev/null",
        "--positions",
        "50"
    )
    .fails(2, "/dev/null: not a regular file");
    run_tool!(
        EXE,
        "match",
        "random",
        "random",
        "--games",
        "2",
        "--ggf",
        "/dev/null"
    )
    .fails(2, "/dev/null: not a regular file");
    // The starting weights are an input: never overwritten by the fit.
    let weights = temp_file("weights.bin", "");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/patterns.bin"),
        &weights,
    )
    .unwrap();
    run_tool!(EXE, "train", "--from", &weights, "--out", &weights, "--games", "2")
        .fails(2, "that is an input of this command");
    // An existing file is replaced with a word.
    let old = temp_file("old.ggf", "x\n");
    run_tool!(EXE, "match", "random", "random", "--games", "2", "--ggf", &old)
        .ok()
        .says(&format!("replacing {}", old.display()));
    assert!(std::fs::read_to_string(&old)
        .unwrap()
        .starts_with("(;GM[Othello]"));
    // Too few positions for a model, no iteration for a fit.
    run_tool!(EXE, "fit-probcut", "--positions", "2").fails(2, "not in 50..=100000");
    run_tool!(EXE, "train", "--iterations", "0").fails(2, "not in 1..=100000");
    for f in [weights, old] {
        let _ = std::fs::remove_file(f);
    }
}

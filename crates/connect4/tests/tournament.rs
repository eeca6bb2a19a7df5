//! Tournaments: the schedule depends only on the seed, so three shards merged give exactly the
//! rows of one unsharded run (deterministic built-ins give the same results too), and a run
//! killed mid-way resumes from its journal without replaying the games it finished.

use batch::testing::Run;
use std::path::Path;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_connect4"))
}

fn temp_dir(name: &str) -> batch::testing::Scratch {
    batch::testing::temp_dir(&format!("c4-tour-{name}"))
}

const FIELDS: &[&str] = &[
    "--players",
    "greedy",
    "alphabeta:2",
    "--opponents",
    "random",
    "alphabeta:1",
];

fn tournament(out: &Path, extra: &[&str]) -> String {
    let o = Run::of(
        bin()
            .arg("tournament")
            .args(FIELDS)
            .args(["--rounds", "3", "--seed", "31", "-q", "--out"])
            .arg(out)
            .args(extra),
    )
    .ok();
    o.stdout
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// `tournament merge SHARDS... --out OUT`.
fn merge<S: AsRef<std::ffi::OsStr>>(shards: impl IntoIterator<Item = S>, out: &Path) -> Command {
    let mut c = bin();
    c.args(["tournament", "merge"])
        .args(shards)
        .arg("--out")
        .arg(out);
    c
}

/// The files `a` and `b` of folder `d` hold the same text.
fn assert_same(d: &Path, a: &str, b: &str) {
    assert_eq!(read(&d.join(a)), read(&d.join(b)), "{a} and {b} differ");
}

#[test]
fn three_shards_merged_equal_one_unsharded_run() {
    let d = temp_dir("shards");
    tournament(&d.join("all"), &[]);
    let games = read(&d.join("all/games.csv"));
    assert_eq!(
        games.lines().next(),
        Some("player,opponent,round,player_first,rows,cols,obstacle_row,obstacle_col,result,reason,plies")
    );
    // 2 players x 2 opponents x 3 rounds x 2 games.
    assert_eq!(games.lines().count(), 1 + 24);
    let mut shard_rows = 0;
    for i in 1..=3 {
        tournament(&d.join(format!("s{i}")), &["--shard", &format!("{i}/3")]);
        shard_rows += read(&d.join(format!("s{i}/games.csv"))).lines().count() - 1;
    }
    assert_eq!(shard_rows, 24);
    Run::of(&mut merge(
        [d.join("s1"), d.join("s2"), d.join("s3")],
        &d.join("merged"),
    ))
    .ok();
    // Row for row: the schedule columns, and (the built-ins being deterministic) the results.
    assert_eq!(read(&d.join("merged/games.csv")), games);
    assert_same(&d, "merged/standings.csv", "all/standings.csv");
    let standings = read(&d.join("all/standings.csv"));
    assert_eq!(
        standings.lines().next(),
        Some("player,games,wins,draws,losses,crashes,timeouts,score")
    );
    assert_eq!(standings.lines().count(), 3);
    // Every round's board is the same for every pairing.
    let boards: std::collections::BTreeSet<(String, String)> = games
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2].to_string(), f[4..8].join(","))
        })
        .collect();
    assert_eq!(boards.len(), 3);
    // The same shard twice is refused by merge.
    let twice = merge([d.join("s1"), d.join("s1")], &d.join("twice"))
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("are both shard 1/3"));
    // A shard left out, a shard of another seed, an unfinished shard, or a shard as --out:
    // refused with a message that names it, and nothing is written.
    let other = bin()
        .arg("tournament")
        .args(FIELDS)
        .args([
            "--rounds", "3", "--seed", "8", "--shard", "3/3", "-q", "--out",
        ])
        .arg(d.join("seed8"))
        .output()
        .unwrap();
    assert!(other.status.success());
    std::fs::create_dir_all(d.join("cut")).unwrap();
    for f in ["tournament.txt", "games.csv"] {
        std::fs::copy(d.join("s3").join(f), d.join("cut").join(f)).unwrap();
    }
    let games = read(&d.join("s3/games.csv"));
    let cut: Vec<&str> = games.lines().take(games.lines().count() - 1).collect();
    std::fs::write(d.join("cut/games.csv"), cut.join("\n") + "\n").unwrap();
    for (shards, out, why) in [
        (&["s1", "s3"][..], "m1", "shard 2/3 missing"),
        (&["s1", "s2", "seed8"][..], "m2", "of another schedule"),
        (
            &["s1", "s2", "cut"][..],
            "m3",
            "shard 3/3 is unfinished: 7 of its 8 games",
        ),
        (&["s1", "s2", "s3"][..], "s2", "that is one of the shards"),
    ] {
        let o = merge(shards.iter().map(|s| d.join(s)), &d.join(out))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{shards:?}: {err}");
        assert!(err.contains(why), "{shards:?}: {err}");
        assert!(!d.join(out).join("standings.csv").exists() || out == "s2");
    }
}

#[test]
fn the_slurm_array_script_run_as_three_parallel_tasks_and_a_merge_equals_one_run() {
    let d = temp_dir("slurm");
    tournament(&d.join("all"), &[]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/slurm/connect4-tournament.sbatch");
    // The array tasks run at the same time, as Slurm runs them (scripts/slurm/live-test.sh
    // runs them under a real Slurm).
    let children: Vec<_> = (1..=3)
        .map(|i| {
            Command::new("bash")
                .arg(&script)
                .arg(d.join("run"))
                .arg("3")
                .args(FIELDS)
                .args(["--rounds", "3", "--seed", "31"])
                .env("CONNECT4", env!("CARGO_BIN_EXE_connect4"))
                .env("SLURM_ARRAY_TASK_ID", i.to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let shards = (1..=3).map(|i| d.join(format!("run/shard-{i}")));
    Run::of(&mut merge(shards, &d.join("run"))).ok();
    assert_same(&d, "run/games.csv", "all/games.csv");
    assert_same(&d, "run/standings.csv", "all/standings.csv");
}

#[test]
fn a_killed_run_resumes_without_replaying_finished_games() {
    let d = temp_dir("resume");
    let run = d.join("run");
    // Timed players, one game at a time: slow enough to be killed in the middle.
    let args = [
        "--players",
        "mcts:40",
        "--opponents",
        "mcts:40",
        "greedy",
        "--rounds",
        "2",
        "--seed",
        "5",
        "--jobs",
        "1",
        "-q",
    ];
    let mut child = bin()
        .arg("tournament")
        .args(args)
        .arg("--out")
        .arg(&run)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = run.join("journal.csv");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 3 {
        assert!(started.elapsed().as_secs() < 120, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before: Vec<String> = read(&journal).lines().skip(1).map(str::to_string).collect();
    let finished = before.iter().filter(|l| l.split(',').count() == 11).count();
    assert!(
        (2..12).contains(&finished),
        "{finished} games finished before the kill"
    );
    // Without --resume the folder is refused; with it, only the rest is played.
    let refused = bin()
        .arg("tournament")
        .args(args)
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let resumed = Run::of(
        bin()
            .arg("tournament")
            .args(args)
            .arg("--out")
            .arg(&run)
            .arg("--resume"),
    )
    .ok();
    let summary = &resumed.stdout;
    assert!(
        summary.starts_with(&format!("8 games ({} played now", 8 - finished)),
        "{summary}"
    );
    let games = read(&run.join("games.csv"));
    assert_eq!(games.lines().count(), 9);
    // The games finished before the kill are in the results as they were played.
    for row in before.iter().filter(|l| l.split(',').count() == 11) {
        assert!(games.lines().any(|l| l == row), "{row} was replayed");
    }
    // The schedule columns are those of a run that was never killed.
    let fresh = d.join("fresh");
    let o = bin()
        .arg("tournament")
        .args(args)
        .arg("--out")
        .arg(&fresh)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let schedule = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.split(',').take(8).collect::<Vec<_>>().join(","))
            .collect()
    };
    assert_eq!(schedule(&games), schedule(&read(&fresh.join("games.csv"))));
}

#[test]
fn a_journal_that_does_not_fit_the_schedule_is_refused_with_its_line() {
    let d = temp_dir("journal");
    let run = d.join("run");
    tournament(&run, &[]);
    let journal = read(&run.join("journal.csv"));
    let rows: Vec<&str> = journal.lines().collect();
    let fields: Vec<&str> = rows[3].split(',').collect();
    let with = |k: usize, v: &str| {
        let mut f = fields.clone();
        f[k] = v;
        f.join(",")
    };
    let other_board = with(4, if fields[4] == "9" { "10" } else { "9" });
    for (row, why) in [
        (other_board, "another seed"),
        (with(8, "bogus"), "`bogus` is not a result"),
        (with(9, "lucky"), "`lucky` is not a reason"),
        (with(10, "999"), "`999` plies"),
    ] {
        let mut tampered: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        tampered[3] = row;
        std::fs::write(run.join("journal.csv"), tampered.join("\n") + "\n").unwrap();
        let o = bin()
            .arg("tournament")
            .args(FIELDS)
            .args(["--rounds", "3", "--seed", "31", "-q", "--resume", "--out"])
            .arg(&run)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{why}: {err}");
        assert!(
            err.contains("journal.csv:4: game ") && err.contains(why),
            "{err}"
        );
    }
}

#[test]
fn a_player_path_with_a_comma_is_one_name_in_every_file_and_merges() {
    let d = temp_dir("comma");
    let lib = d.join("class,2026/ann.so");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(&lib, "not a library").unwrap();
    let lib = lib.to_string_lossy().into_owned();
    let run = |out: &Path, extra: &[&str]| {
        Run::of(
            bin()
                .args([
                    "tournament",
                    "--players",
                    &lib,
                    "greedy",
                    "--opponents",
                    "random",
                ])
                .args(["--rounds", "2", "--seed", "5", "-q", "--out"])
                .arg(out)
                .args(extra),
        )
        .ok()
    };
    run(&d.join("all"), &[]);
    let standings = read(&d.join("all/standings.csv"));
    assert!(
        standings.contains(&format!("\"{lib}\",4,0,0,4,4,0,0\n")),
        "{standings}"
    );
    // Resumed, nothing is played again; split in two and merged, the same rows.
    let again = run(&d.join("all"), &["--resume"]);
    assert!(again.stdout.contains("(0 played now"), "{}", again.stdout);
    for i in 1..=2 {
        run(&d.join(format!("s{i}")), &["--shard", &format!("{i}/2")]);
    }
    Run::of(&mut merge([d.join("s1"), d.join("s2")], &d.join("merged"))).ok();
    assert_same(&d, "merged/games.csv", "all/games.csv");
    // A merge over a run folder, and a run with a player named twice, are refused.
    Run::of(
        bin()
            .args(["tournament", "merge"])
            .arg(d.join("s1"))
            .arg(d.join("s2"))
            .arg("--out")
            .arg(d.join("all")),
    )
    .fails(2, "a tournament run is there");
    Run::of(
        bin()
            .args([
                "tournament",
                "--players",
                "greedy",
                "greedy",
                "--opponents",
                "random",
                "--out",
            ])
            .arg(d.join("twice")),
    )
    .fails(2, "named twice");
}

#[test]
fn journal_rows_a_game_cannot_end_with_are_refused_on_resume_and_in_a_merge() {
    let d = temp_dir("impossible");
    tournament(&d.join("run"), &[]);
    let games = read(&d.join("run/games.csv"));
    let first = games.lines().nth(1).unwrap().to_string();
    let mut fields: Vec<&str> = first.split(',').collect();
    // A normal win in three plies, then 999 plies on a board of at most 143 cells.
    for (result, plies, why) in [
        ("win", "3", "four in a row needs seven"),
        ("loss", "999", "plies on a"),
    ] {
        fields[8] = result;
        fields[9] = "normal";
        fields[10] = plies;
        let bad = fields.join(",");
        std::fs::write(
            d.join("run/journal.csv"),
            format!("{}\n{bad}\n", games.lines().next().unwrap()),
        )
        .unwrap();
        Run::of(
            bin()
                .arg("tournament")
                .args(FIELDS)
                .args(["--rounds", "3", "--seed", "31", "-q", "--resume", "--out"])
                .arg(d.join("run")),
        )
        .fails(2, why);
        // The same row in a shard's games.csv fails the merge.
        let shard = d.join("one");
        let _ = std::fs::remove_dir_all(&shard);
        std::fs::create_dir_all(&shard).unwrap();
        std::fs::write(
            shard.join("tournament.txt"),
            read(&d.join("run/tournament.txt")),
        )
        .unwrap();
        std::fs::write(shard.join("games.csv"), games.replacen(&first, &bad, 1)).unwrap();
        Run::of(
            bin()
                .args(["tournament", "merge"])
                .arg(&shard)
                .arg("--out")
                .arg(d.join("m")),
        )
        .fails(2, why);
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_journal_is_refused_not_waited_on() {
    let d = temp_dir("fifo");
    tournament(&d.join("run"), &[]);
    let journal = d.join("run/journal.csv");
    let _ = std::fs::remove_file(&journal);
    assert!(Command::new("mkfifo")
        .arg(&journal)
        .status()
        .unwrap()
        .success());
    Run::of(
        bin()
            .arg("tournament")
            .args(FIELDS)
            .args(["--rounds", "3", "--seed", "31", "-q", "--resume", "--out"])
            .arg(d.join("run")),
    )
    .fails(2, "not a regular file");
}

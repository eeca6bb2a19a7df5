//! The engine never overruns its clock, even on a loaded machine: whole games at 100 ms per
//! move beside two busy threads (`compete --load 2`), every move answered within the budget plus
//! 50 ms. A test binary of its own, so that no other test shares the machine with it.

use batch::testing::Run;
use std::process::Command;

#[test]
fn every_move_is_answered_within_the_budget_plus_50_ms_under_load() {
    let dir = batch::testing::temp_dir("c4-clock");
    let out = Run::of(
        Command::new(env!("CARGO_BIN_EXE_connect4"))
            .args([
                "compete",
                "mcts:100",
                "alphabeta:4",
                "--rounds",
                "3",
                "--jobs",
                "1",
                "--load",
                "2",
                "-q",
            ])
            .args(["--seed", "43", "--result"])
            .arg(dir.join("result.txt"))
            .arg("--times")
            .arg(dir.join("times.csv")),
    )
    .ok();
    let stdout = &out.stdout;
    // The distribution is printed with the results: moves, median, 99th, 99.9th, max.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("A = mcts:100"))
        .expect("A's move times");
    println!("{line}");
    assert!(line.contains("99.9th") && line.contains("max"), "{line}");
    let csv = std::fs::read_to_string(dir.join("times.csv")).unwrap();
    let engine: Vec<f64> = csv
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(1) == Some("A"))
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(engine.len() >= 20, "{} moves timed", engine.len());
    let max = engine.iter().cloned().fold(0.0, f64::max);
    assert!(max <= 150.0, "a move took {max:.1} ms with a 100 ms budget");
}

#[test]
fn a_one_shot_move_counts_its_budget_from_the_start_it_is_given() {
    use connect4::engine::{Engine, EngineConfig};
    use std::time::{Duration, Instant};
    let request = Command::new(env!("CARGO_BIN_EXE_connect4"))
        .args(["generate", "--plies", "10", "--seed", "3"])
        .output()
        .unwrap();
    assert!(request.status.success());
    let mut engine = Engine::new(EngineConfig {
        time: Duration::from_millis(500),
        ..Default::default()
    });
    // As if the process had started 400 ms ago: 100 ms are left.
    let now = Instant::now();
    let started = now - Duration::from_millis(400);
    connect4::protocol::get_point_from(&request.stdout[..], &mut engine, Some(started)).unwrap();
    let took = now.elapsed();
    assert!(
        took < Duration::from_millis(300),
        "took {took:?} of the 100 ms left"
    );
}

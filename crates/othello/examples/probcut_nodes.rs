//! What Multi-ProbCut buys and costs the NBoard engine's midgame search at one depth: on
//! positions of the engine's own games (another seed than the model was fitted on), the
//! positions searched, the time, and how often the move and value stay those of the
//! full-width search, for several confidences.
//! `cargo run --release -p othello --example probcut_nodes [DEPTH] [POSITIONS] [SEED]`

use othello::nboard::{engine_game, engine_options};
use othello::probcut_fit::calibration_positions;
use othello::Position;
use search_core::{iterative_deepening, IterativeOptions, Searcher};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(10, |a| a.parse().expect("a depth"));
    let count: usize = args.next().map_or(60, |a| a.parse().expect("a count"));
    let seed: u64 = args.next().map_or(2, |a| a.parse().expect("a seed"));
    let positions: Vec<Position> = calibration_positions(count, seed);
    let search = |p: &Position, confidence: Option<i32>| {
        let mut searcher = Searcher::new(16);
        searcher.options = engine_options(confidence);
        let mut g = engine_game(*p);
        let opts = IterativeOptions {
            max_depth: depth,
            ..Default::default()
        };
        let r = iterative_deepening(&mut g, &mut searcher, &opts, |_| {});
        (r.best, r.score, r.stats.nodes)
    };
    let run = |confidence: Option<i32>| {
        let t = Instant::now();
        let got: Vec<_> = positions.iter().map(|p| search(p, confidence)).collect();
        (got, t.elapsed().as_secs_f64())
    };
    let (full, full_seconds) = run(None);
    let full_nodes: u64 = full.iter().map(|e| e.2).sum();
    println!(
        "depth {depth}, {} positions: full width {full_nodes} positions in {full_seconds:.2} s",
        positions.len()
    );
    for confidence in [300, 200, 150, 110, 80, 50] {
        let (got, seconds) = run(Some(confidence));
        let nodes: u64 = got.iter().map(|g| g.2).sum();
        let same = got.iter().zip(&full).filter(|(g, e)| g.0 == e.0).count();
        let change = got
            .iter()
            .zip(&full)
            .map(|(g, e)| f64::from((g.1 - e.1).abs()))
            .sum::<f64>()
            / got.len() as f64
            / 100.0;
        println!(
            "confidence {:.1} sigma: {nodes:11} positions ({:5.1}%) in {seconds:6.2} s, same move {same}/{}, mean |value change| {change:.2} discs",
            f64::from(confidence) / 100.0,
            100.0 * nodes as f64 / full_nodes as f64,
            got.len()
        );
    }
}

//! Measures how far a shallow search's value is from a deep one's on the engine's own
//! positions, the error ProbCut's margin must cover: for each depth pair (d, ProbCut's shallow
//! depth of d), the mean and standard deviation of deep minus shallow, in hundredths of a disc.
//! `cargo run --release -p othello --example probcut_fit [POSITIONS] [SEED]`

use othello::deciders::{CourseGame, HeuristicKind, MoveOrder};
use othello::nboard::{midgame_options, MoveBudget, Thinker};
use othello::Position;
use search_core::{ProbCut, SearchOptions, Searcher, INF};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(60, |a| a.parse().expect("a count"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("a seed"));
    // Positions of games the engine plays against itself at depth 3 after 8 random plies.
    let mut thinker = Thinker::new(Arc::new(AtomicBool::new(false)));
    let mut positions = Vec::new();
    for game in 0..count as u64 {
        let mut p = Position::random_game(seed * 1000 + game + 1)
            .nth(8)
            .unwrap();
        let plies = 4 + (game * 7) % 36;
        for _ in 0..plies {
            match thinker.best(&p, 3, &MoveBudget::unlimited()) {
                Some(a) => p = p.play(a.mv),
                None => break,
            }
        }
        if !p.game_over() && p.moves() != 0 && p.empties() > 14 {
            positions.push(p);
        }
    }
    println!(
        "{} positions, empties {}..{}",
        positions.len(),
        positions.iter().map(|p| p.empties()).min().unwrap(),
        positions.iter().map(|p| p.empties()).max().unwrap()
    );
    let value = |p: &Position, depth: i32| {
        let mut searcher = Searcher::new(16);
        searcher.options.pvs = true;
        let mut g =
            CourseGame::with_heuristic(*p, HeuristicKind::Pattern).with_order(MoveOrder::Mobility);
        f64::from(searcher.search_root(&mut g, depth as u32, -INF, INF))
    };
    if let Some(depth) = std::env::var("PROBCUT_NODES_DEPTH")
        .ok()
        .and_then(|d| d.parse::<u32>().ok())
    {
        // Work and agreement of the engine's midgame search with ProbCut at several margins.
        let search = |p: &Position, probcut: Option<ProbCut>| {
            let mut searcher = Searcher::new(16);
            searcher.options = SearchOptions {
                probcut,
                ..midgame_options()
            };
            let mut g = CourseGame::with_heuristic(*p, HeuristicKind::Pattern)
                .with_order(MoveOrder::Mobility);
            let opts = search_core::IterativeOptions {
                max_depth: depth,
                ..Default::default()
            };
            let r = search_core::iterative_deepening(&mut g, &mut searcher, &opts, |_| {});
            (r.best, r.score, r.stats.nodes)
        };
        let timer = std::time::Instant::now();
        let exact: Vec<_> = positions.iter().map(|p| search(p, None)).collect();
        let nodes = exact.iter().map(|e| e.2).sum::<u64>();
        let seconds = timer.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds / 1e6;
        println!("depth {depth}: no ProbCut {nodes} nodes in {seconds:.2} s, {rate:.2} M nodes/s");
        println!(
            "depth {depth}: no ProbCut {} nodes",
            exact.iter().map(|e| e.2).sum::<u64>()
        );
        for margin in [200, 400, 600, 800, 1200] {
            let pc = Some(ProbCut {
                min_depth: 3,
                margin,
            });
            let got: Vec<_> = positions.iter().map(|p| search(p, pc)).collect();
            let nodes: u64 = got.iter().map(|g| g.2).sum();
            let same = got.iter().zip(&exact).filter(|(g, e)| g.0 == e.0).count();
            let err = got
                .iter()
                .zip(&exact)
                .map(|(g, e)| f64::from((g.1 - e.1).abs()))
                .sum::<f64>()
                / got.len() as f64;
            println!("margin {margin:5}: {nodes:11} nodes, same move {same}/{}, mean |value change| {err:.0}", got.len());
        }
        return;
    }
    println!("depth shallow  mean(deep-shallow)  sd");
    for depth in 3..=10 {
        let shallow = ProbCut::shallow_depth(depth);
        let diffs: Vec<f64> = positions
            .iter()
            .map(|p| value(p, depth) - value(p, shallow))
            .collect();
        let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
        let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (diffs.len() - 1) as f64)
            .sqrt();
        println!("{depth:5} {shallow:7} {mean:19.1} {sd:5.1}");
    }
}

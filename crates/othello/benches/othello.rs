//! othello benchmarks: perft from the start (leaves per second, one thread), the endgame
//! solver (positions per second) on a 16-empties position reached by a fixed pseudo-random game
//! and on FFO #40 (20 empties), read from ../shared/data when present, never copied here, and
//! the evaluations (positions per second).
#![allow(missing_docs)]
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use othello::endgame::{solve, table_megabytes};
use othello::{perft::perft, Position};
use std::path::Path;

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(3_005_288));
    g.bench_function("start_d9", |b| b.iter(|| perft(&Position::default(), 9)));
    g.throughput(Throughput::Elements(212_258_800));
    g.bench_function("start_d11", |b| b.iter(|| perft(&Position::default(), 11)));
    g.finish();
}

/// A position with `empties` empty squares from a fixed pseudo-random game.
fn random_endgame(empties: u32, seed: u64) -> Position {
    Position::random_game(seed)
        .find(|p| p.empties() <= empties || p.game_over())
        .expect("a game ends")
}

fn ffo(id: u32) -> Option<Position> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/othello/ffo-index.tsv");
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        (f.first()? == &id.to_string()).then(|| format!("{} {}", f[7], f[3]).parse().ok())?
    })
}

fn endgame_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("endgame");
    g.sample_size(10);
    let mut cases = vec![("random_16_empties", random_endgame(16, 0x1234_5678))];
    if let Some(p) = ffo(40) {
        cases.push(("ffo_40", p));
    }
    for (name, p) in cases {
        let mut searcher = othello::endgame::searcher(table_megabytes(p.empties()));
        let nodes = solve(&p, &mut searcher).nodes;
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            b.iter(|| {
                searcher.clear();
                solve(&p, &mut searcher).score
            })
        });
    }
    g.finish();
}

/// Evaluations per second over the positions of a few fixed pseudo-random games: the learned
/// pattern evaluation next to the improved heuristic.
fn evaluation_bench(c: &mut Criterion) {
    let positions: Vec<Position> = (0..8u64)
        .flat_map(|g| {
            (4..=56)
                .step_by(4)
                .map(move |e| random_endgame(e, 0x9e37 + g))
        })
        .filter(|p| !p.game_over())
        .collect();
    let mut g = c.benchmark_group("evaluation");
    g.throughput(Throughput::Elements(positions.len() as u64));
    bench_evaluation(&mut g, "pattern", &positions, othello::pattern::evaluate);
    bench_evaluation(&mut g, "improved", &positions, othello::deciders::improved);
    g.finish();
}

/// Times `evaluate` over every position (a generic function, so the call is as direct as in
/// the engine).
fn bench_evaluation(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    positions: &[Position],
    evaluate: impl Fn(&Position) -> i32,
) {
    g.bench_function(name, |b| {
        b.iter(|| positions.iter().map(&evaluate).sum::<i32>())
    });
}

criterion_group!(benches, perft_bench, endgame_bench, evaluation_bench);
criterion_main!(benches);

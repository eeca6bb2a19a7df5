//! othello benchmarks: perft from the start (leaves per second, one thread), the endgame
//! solver (positions per second) on a 16-empties position reached by a fixed pseudo-random game
//! and on FFO #40 (20 empties), read from ../shared/data when present, never copied here, and
//! the evaluations (positions per second), and game archives read and replayed (games per
//! second: 2,000 random games written as WTHOR and as Logistello's lines, and converted to GGF).
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

/// Games per second: reading (and replaying, to check every move) 2,000 random games as a WTHOR
/// file and as Logistello's lines, and converting them to GGF.
fn archive_bench(c: &mut Criterion) {
    use othello::formats::record::GameRecord;
    use othello::formats::{logistello, wthor};
    let games: Vec<GameRecord> = (0..2000u64)
        .map(|seed| {
            let positions: Vec<Position> = Position::random_game(seed).collect();
            let mut squares = Vec::new();
            for w in positions.windows(2) {
                let played = (w[1].me | w[1].opp) & !(w[0].me | w[0].opp);
                if played != 0 {
                    squares.push(played.trailing_zeros() as u8);
                }
            }
            GameRecord {
                squares,
                black_diff: othello::formats::record::black_final_diff(
                    positions.last().expect("a game has positions"),
                ),
                ..GameRecord::default()
            }
        })
        .collect();
    let wtb = wthor::write_games(&games, 2026, 24);
    let gam: String = games
        .iter()
        .map(|g| logistello::write_line(&g.replay().expect("a random game is legal")) + "\n")
        .collect();
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("read_wthor", |b| {
        b.iter(|| {
            let (_, read) = wthor::read_games(&wtb).expect("a whole file");
            read.into_iter()
                .flatten()
                .filter(|g| g.replay().is_ok())
                .count()
        })
    });
    g.bench_function("read_logistello", |b| {
        b.iter(|| {
            gam.lines()
                .filter_map(|l| logistello::read_line(l).ok())
                .filter(|g| g.replay().is_ok())
                .count()
        })
    });
    g.bench_function("convert_to_ggf", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| g.to_ggf(&g.replay().expect("legal")).to_string().len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    perft_bench,
    endgame_bench,
    evaluation_bench,
    archive_bench
);
criterion_main!(benches);

//! astar-map benchmarks: the course inputs (read from ../shared/data when present, never
//! copied into the repository), and generated maps up to 1000x1000 with T = 500, each solved
//! by this crate (several heuristics) and by the `pathfinding` crate's `astar` over the same
//! (cell, food) state space with the same Manhattan heuristic, side by side.
#![allow(missing_docs)]

use astar_map::generate::{random_map, RandomMap};
use astar_map::{model, solve, Heuristic, HeuristicKind, Map, SolveOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;

fn pathfinding_astar(map: &Map) -> Option<u32> {
    let (sr, sc) = map.pos(map.station);
    pathfinding::directed::astar::astar(
        &model::initial(map),
        |&s| model::successors(map, s),
        |&s| (model::row_of(s).abs_diff(sr) + model::col_of(s).abs_diff(sc)) as u32,
        |&s| model::is_goal(map, s),
    )
    .map(|(_, cost)| cost)
}

fn course_inputs(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/astar/input");
    let maps: Vec<Map> = (1..=10)
        .filter_map(|i| std::fs::read_to_string(dir.join(format!("input_{i}.txt"))).ok())
        .filter_map(|t| t.parse().ok())
        .collect();
    if maps.len() != 10 {
        eprintln!("course inputs not found at {}: skipped", dir.display());
        return;
    }
    let mut g = c.benchmark_group("course_inputs_1_to_10");
    for h in HeuristicKind::ALL {
        g.bench_function(h.name(), |b| {
            let opts = SolveOptions {
                heuristic: h,
                ..Default::default()
            };
            b.iter(|| {
                maps.iter()
                    .map(|m| solve(black_box(m), &opts).steps.unwrap_or(0))
                    .sum::<usize>()
            })
        });
    }
    g.bench_function("pathfinding_crate_manhattan", |b| {
        b.iter(|| {
            maps.iter()
                .map(|m| pathfinding_astar(black_box(m)).unwrap_or(0))
                .sum::<u32>()
        })
    });
    g.finish();
}

/// Preparing the `grid` and `supply` heuristics' distance tables (search-core's distance
/// fields) on a generated 1000x1000 map: part of every solve with those heuristics.
fn heuristic_tables(c: &mut Criterion) {
    let map = random_map(&RandomMap {
        rows: 1000,
        cols: 1000,
        food: 40,
        walls: 0.2,
        supplies: 0.02,
        seed: 11,
    });
    let mut g = c.benchmark_group("heuristic_tables_1000x1000");
    g.sample_size(20);
    g.throughput(Throughput::Elements(map.cells.len() as u64));
    for h in [HeuristicKind::Grid, HeuristicKind::Supply] {
        g.bench_function(h.name(), |b| b.iter(|| Heuristic::new(black_box(&map), h)));
    }
    g.finish();
}

fn generated(c: &mut Criterion) {
    let sizes = [(100usize, 20u32), (300, 60), (1000, 40), (1000, 500)];
    let mut g = c.benchmark_group("generated");
    g.sample_size(10);
    for (side, food) in sizes {
        let map = random_map(&RandomMap {
            rows: side,
            cols: side,
            food,
            walls: 0.2,
            supplies: 0.02,
            seed: 11,
        });
        let reference = solve(&map, &SolveOptions::default());
        assert_eq!(reference.steps.map(|s| s as u32), pathfinding_astar(&map));
        let label = format!("{side}x{side}_T{food}");
        g.throughput(Throughput::Elements(reference.stats.expanded));
        for h in [
            HeuristicKind::Manhattan,
            HeuristicKind::Grid,
            HeuristicKind::Supply,
        ] {
            let opts = SolveOptions {
                heuristic: h,
                ..Default::default()
            };
            g.bench_with_input(BenchmarkId::new(h.name(), &label), &map, |b, m| {
                b.iter(|| solve(m, &opts))
            });
        }
        let plain = SolveOptions {
            dominance: false,
            ..Default::default()
        };
        g.bench_with_input(
            BenchmarkId::new("manhattan_no_dominance", &label),
            &map,
            |b, m| b.iter(|| solve(m, &plain)),
        );
        g.bench_with_input(
            BenchmarkId::new("pathfinding_crate_manhattan", &label),
            &map,
            |b, m| b.iter(|| pathfinding_astar(m)),
        );
    }
    g.finish();
}

criterion_group!(benches, course_inputs, generated, heuristic_tables);
criterion_main!(benches);

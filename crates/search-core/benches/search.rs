//! Benchmarks of search-core on synthetic problems: A* and UCS on an open grid with scattered
//! walls, alpha-beta and negamax+TT on a random game tree, MCTS on Nim. Throughput is reported
//! in expanded states (or nodes, or iterations) per second.

#![allow(missing_docs)]
#[path = "../tests/common/mod.rs"]
mod common;
use common::Nim;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use search_core::*;
use std::hint::black_box;

const SIDE: i32 = 300;

fn wall(r: i32, c: i32) -> bool {
    // Deterministic scattered walls, about 20% of the cells, never on the corners.
    let h = (r as u64 * 73_856_093) ^ (c as u64 * 19_349_663);
    (r, c) != (0, 0) && (r, c) != (SIDE - 1, SIDE - 1) && h.is_multiple_of(5)
}

fn grid_successors(&(r, c): &(i32, i32)) -> impl Iterator<Item = ((i32, i32), u32)> {
    [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        .into_iter()
        .filter(|&(r, c)| (0..SIDE).contains(&r) && (0..SIDE).contains(&c) && !wall(r, c))
        .map(|p| (p, 1))
}

fn manhattan(&(r, c): &(i32, i32)) -> u32 {
    (SIDE - 1 - r).unsigned_abs() + (SIDE - 1 - c).unsigned_abs()
}

fn single_agent(c: &mut Criterion) {
    let goal = (SIDE - 1, SIDE - 1);
    let a = astar(&(0, 0), grid_successors, manhattan, |&p| p == goal);
    let u = ucs(&(0, 0), grid_successors, |&p| p == goal);
    let mut g = c.benchmark_group("grid300");
    g.throughput(Throughput::Elements(a.stats.expanded));
    g.bench_function("astar_manhattan", |b| {
        b.iter(|| {
            astar(black_box(&(0, 0)), grid_successors, manhattan, |&p| {
                p == goal
            })
        })
    });
    g.throughput(Throughput::Elements(u.stats.expanded));
    g.bench_function("ucs", |b| {
        b.iter(|| ucs(black_box(&(0, 0)), grid_successors, |&p| p == goal))
    });
    g.bench_function("bfs", |b| {
        b.iter(|| {
            bfs(
                black_box(&(0, 0)),
                |p| grid_successors(p).map(|e| e.0),
                |&p| p == goal,
                &Limits::none(),
            )
        })
    });
    g.finish();
}

struct Tree {
    hash: u64,
    path: Vec<u64>,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 31;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

impl Game for Tree {
    type Move = u8;
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        moves.extend(0..6);
    }
    fn play(&mut self, mv: u8) {
        self.path.push(self.hash);
        self.hash = mix(self.hash ^ (mv as u64 + 1));
    }
    fn undo(&mut self, _: u8) {
        self.hash = self.path.pop().unwrap();
    }
    fn evaluate(&self) -> Score {
        (self.hash % 1001) as Score - 500
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn history_index(&self, mv: u8) -> Option<usize> {
        Some(mv as usize)
    }
}

fn two_player(c: &mut Criterion) {
    let new = || Tree {
        hash: 12345,
        path: Vec::new(),
    };
    let mut g = c.benchmark_group("random_tree_b6");
    let ab = alphabeta(&mut new(), 7);
    g.throughput(Throughput::Elements(ab.stats.nodes));
    g.bench_function("alphabeta_d7", |b| {
        b.iter(|| alphabeta(&mut new(), black_box(7)))
    });
    let mm = minimax(&mut new(), 6);
    g.throughput(Throughput::Elements(mm.stats.nodes));
    g.bench_function("minimax_d6", |b| {
        b.iter(|| minimax(&mut new(), black_box(6)))
    });
    let nm = negamax(&mut new(), 7, 16);
    g.throughput(Throughput::Elements(nm.stats.nodes));
    g.bench_function("negamax_tt_d7", |b| {
        b.iter(|| negamax(&mut new(), black_box(7), 16))
    });
    g.finish();
}

fn monte_carlo(c: &mut Criterion) {
    let mut g = c.benchmark_group("mcts_nim40");
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("uct_10k_iterations", |b| {
        b.iter(|| {
            let cfg = MctsConfig::iterations(10_000);
            mcts(
                Nim {
                    pooled: false,
                    ..Nim::new(black_box(40), 3)
                },
                cfg,
                &mut RandomRollout,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, single_agent, two_player, monte_carlo);
criterion_main!(benches);

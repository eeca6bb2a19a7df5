//! bait benchmarks: simulator ticks per second (compiled rules and the general interpreter),
//! state hashing, and the shortest solutions of the five homework levels (read from
//! ../shared/data when present, never copied into the repository) and the bundled levels.
#![allow(missing_docs)]

use bait::sim::{step, step_general, Action};
use bait::solve::{max_score, shortest};
use bait::{Level, DEFAULT_GAME};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use search_core::hash::FastHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;

fn levels(dir: &Path, names: &[&str]) -> Vec<Level> {
    names
        .iter()
        .filter_map(|n| std::fs::read_to_string(dir.join(n)).ok())
        .map(|t| Level::parse(DEFAULT_GAME.parse().unwrap(), &t).unwrap())
        .collect()
}

/// The homework levels `homework` (named `homework_name`; read from ../shared/data, skipped
/// with a message when absent) and the four bundled levels, as (bench name, levels).
fn level_sets(homework_name: &'static str, homework: &[&str]) -> Vec<(&'static str, Vec<Level>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bundled = ["level_1.txt", "level_2.txt", "level_3.txt", "level_4.txt"];
    [
        (homework_name, root.join("../shared/data/bait"), homework),
        ("bundled_levels", root.join("inputs/bait"), &bundled[..]),
    ]
    .into_iter()
    .filter_map(|(name, dir, files)| {
        let ls = levels(&dir, files);
        if ls.len() != files.len() {
            eprintln!("{}: not found, skipped", dir.display());
            return None;
        }
        Some((name, ls))
    })
    .collect()
}

fn random_walk(level: &Level, n: usize, general: bool) -> u64 {
    let mut s = level.initial;
    let mut x = 0x9e37_79b9u64;
    let mut acc = 0u64;
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = Action::MOVES[(x % 4) as usize];
        let next = if general {
            step_general(level, &s, a)
        } else {
            step(level, &s, a)
        };
        s = if next.over() { level.initial } else { next };
        acc += s.avatar_cell as u64;
    }
    acc
}

fn simulator(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let level = levels(&root.join("inputs/bait"), &["level_4.txt"]).remove(0);
    let mut g = c.benchmark_group("ticks");
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("compiled_rules", |b| {
        b.iter(|| random_walk(&level, 100_000, false))
    });
    g.bench_function("general_interpreter", |b| {
        b.iter(|| random_walk(&level, 100_000, true))
    });
    g.bench_function("state_hash", |b| {
        b.iter(|| {
            let mut h = FastHasher::default();
            for _ in 0..100_000 {
                level.initial.hash(&mut h);
            }
            h.finish()
        })
    });
    g.finish();
}

fn solving(c: &mut Criterion) {
    let mut g = c.benchmark_group("shortest");
    g.sample_size(10);
    let homework = [
        "bait_lvl0.txt",
        "bait_lvl1.txt",
        "bait_lvl2.txt",
        "bait_lvl3.txt",
        "bait_lvl4.txt",
    ];
    for (name, ls) in level_sets("homework_levels_0_to_4", &homework) {
        let expanded: u64 = ls
            .iter()
            .map(|l| shortest(l, &search_core::Limits::none()).stats.expanded)
            .sum();
        g.throughput(Throughput::Elements(expanded));
        g.bench_function(name, |b| {
            b.iter(|| {
                ls.iter()
                    .map(|l| shortest(l, &search_core::Limits::none()).actions.len())
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

/// Proven maximum scores with their shortest plans (beam, branch and bound, board-aware bound).
fn maximum_scores(c: &mut Criterion) {
    let mut g = c.benchmark_group("max_score");
    g.sample_size(10);
    let homework = [
        "bait_lvl0.txt",
        "bait_lvl1.txt",
        "bait_lvl2.txt",
        "bait_lvl4.txt",
    ];
    for (name, ls) in level_sets("homework_levels_0_1_2_4", &homework) {
        g.bench_function(name, |b| {
            b.iter(|| {
                ls.iter()
                    .map(|l| max_score(l, &search_core::Limits::none()).0.unwrap_or(0))
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, simulator, solving, maximum_scores);
criterion_main!(benches);

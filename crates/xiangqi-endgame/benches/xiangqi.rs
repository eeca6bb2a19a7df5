//! xiangqi-endgame benchmarks: perft from the start position (leaves per second, one thread),
//! choosing a move at depth 5 for the ten course inputs (read from ../shared/data when
//! present, never copied into the repository) and for the bundled positions, and the engine's
//! selective search to depths 8 and 10 from three positions (the start and two published perft
//! positions), whose node counts are printed once before timing (they are exact, the time is
//! not), and evaluations per second of the piece-square, activity and network evaluations (the network's
//! summed from scratch, as the search never does), and game records read (games per second:
//! 1,000 seeded random games of 80 plies written in Chinese notation, read back with every move
//! matched against the legal ones).
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::time::Duration;
use xiangqi_endgame::engine::{decide, SearchConfig};
use xiangqi_endgame::fen::parse_board_file;
use xiangqi_endgame::{perft::perft, Position, START_FEN};

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(3_290_240));
    g.bench_function("startpos_d4", |b| {
        let mut p: Position = START_FEN.parse().unwrap();
        b.iter(|| perft(&mut p, 4))
    });
    g.finish();
}

fn load(dir: &Path) -> Vec<Position> {
    let mut v = Vec::new();
    for i in 1..=10 {
        if let Ok(t) = std::fs::read_to_string(dir.join(format!("{i}.txt"))) {
            v.push(parse_board_file(&t).unwrap());
        }
    }
    v
}

fn search_bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let config = SearchConfig {
        depth: 5,
        time: None,
        ..Default::default()
    };
    let mut g = c.benchmark_group("decide_depth5");
    g.sample_size(10);
    for (name, dir) in [
        (
            "course_inputs_1_to_10",
            root.join("../shared/data/xiangqi/inputs"),
        ),
        ("bundled_inputs", root.join("inputs/xiangqi-endgame")),
    ] {
        let positions = load(&dir);
        if positions.is_empty() {
            eprintln!("{}: not found, skipped", dir.display());
            continue;
        }
        let nodes: u64 = positions
            .iter()
            .map(|p| decide(p, &config, |_| {}).stats.nodes)
            .sum();
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| decide(p, &config, |_| {}).score)
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

/// The start position and two of chessprogramming.org's published perft positions.
const ENGINE_POSITIONS: [(&str, &str); 3] = [
    ("start", START_FEN),
    (
        "cpw2",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    ),
    (
        "cpw3",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    ),
];

fn engine_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    use xiangqi_endgame::eval::EvalKind;
    // The engine's evaluation to depths 8 and 10; the activity and network evaluations to
    // depth 8, for their nodes per second.
    let runs = [
        (8, EvalKind::PieceSquare, ""),
        (10, EvalKind::PieceSquare, ""),
        (8, EvalKind::Activity, "_activity"),
        (8, EvalKind::Net, "_net"),
    ];
    for (depth, eval, label) in runs {
        let config = SearchConfig {
            depth,
            time: None,
            eval,
            ..SearchConfig::engine()
        };
        for (name, fen) in ENGINE_POSITIONS {
            let p: Position = fen.parse().unwrap();
            let nodes = decide(&p, &config, |_| {}).stats.nodes;
            eprintln!("engine/{name}_d{depth}{label}: {nodes} nodes");
            g.throughput(Throughput::Elements(nodes));
            g.bench_function(format!("{name}_d{depth}{label}"), |b| {
                b.iter(|| decide(&p, &config, |_| {}).score)
            });
        }
    }
    g.finish();
}

/// Evaluations per second of the engine's evaluations on the engine positions.
fn eval_bench(c: &mut Criterion) {
    use xiangqi_endgame::eval::{evaluate, EvalKind};
    let mut g = c.benchmark_group("eval");
    let positions: Vec<Position> = ENGINE_POSITIONS
        .iter()
        .map(|(_, fen)| fen.parse().unwrap())
        .collect();
    g.throughput(Throughput::Elements(positions.len() as u64));
    for (name, kind) in [
        ("piece_square", EvalKind::PieceSquare),
        ("activity", EvalKind::Activity),
        ("net_from_scratch", EvalKind::Net),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| evaluate(std::hint::black_box(p), kind))
                    .sum::<i32>()
            })
        });
    }
    g.finish();
}

/// Games per second: 1,000 seeded random games of 80 plies (or to their end) in Chinese notation,
/// parsed and every move checked legal.
fn games_bench(c: &mut Criterion) {
    use rand::{Rng, SeedableRng};
    use xiangqi_endgame::movegen::legal_moves;
    use xiangqi_endgame::notation::pgn::{read_games, write_game, Game, Notation};
    let start: Position = START_FEN.parse().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let mut text = String::new();
    for _ in 0..1000 {
        let mut p = start.clone();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        for _ in 0..80 {
            legal.clear();
            legal_moves(&p, &mut legal);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            p.make(m);
            moves.push(m);
        }
        let game = Game {
            tags: vec![("Event".into(), "bench".into())],
            start: start.clone(),
            moves,
            result: Some("*".into()),
        };
        text += &write_game(&game, Notation::Chinese);
        text.push('\n');
    }
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("read_chinese_pgn", |b| {
        b.iter(|| read_games(&text).iter().filter(|g| g.is_ok()).count())
    });
    g.finish();
}

criterion_group!(
    benches,
    perft_bench,
    search_bench,
    engine_bench,
    eval_bench,
    games_bench
);
criterion_main!(benches);

//! othello benchmarks: perft from the start (leaves per second, one thread).
#![allow(missing_docs)]
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use othello::{perft::perft, Position};

fn perft_bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(3_005_288));
    g.bench_function("start_d9", |b| b.iter(|| perft(&Position::default(), 9)));
    g.finish();
}

criterion_group!(benches, perft_bench);
criterion_main!(benches);

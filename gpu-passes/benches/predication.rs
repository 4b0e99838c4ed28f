//! Predication (seed 000 §4.1, Tables 1 and 2) of a generated reducible CFG of 10,000 blocks:
//! loops, nested and multi-exit loops, switches, short-circuit conditions, early returns.
//! Includes the preprocessing, the CFG analyses and the sort order of §4.

use criterion::{criterion_group, criterion_main, Criterion};
use gpu_passes::predication::predicate_impl;
use ivl::ast::Program;

#[path = "../tests/predication_gen/mod.rs"]
mod predication_gen;

fn bench(c: &mut Criterion) {
    let imp = predication_gen::random_large_impl(7, 10_000);
    let cfg = ivl::cfg::Cfg::new(&imp);
    eprintln!("{} blocks, {} loops", imp.blocks.len(), cfg.loops().len());
    let empty = Program { decls: vec![] };
    let mut g = c.benchmark_group("predication");
    g.sample_size(10);
    g.bench_function("predicate 10k-block CFG", |b| b.iter(|| predicate_impl(&empty, &imp).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

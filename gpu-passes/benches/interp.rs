//! Throughput of the interleaving interpreter (`kivl run`) on loop-heavy kernels.
//!
//! Reports elements = instructions executed (each simple statement is one instruction; a loop
//! test and a back jump are one each), so criterion's "elem/s" is statements per second on one
//! core. Target: ≥ 10 million per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpu_passes::interleaving::{InputValue, Inputs, Interpreter, RunConfig, RunOutcome};

/// Private arithmetic in a loop: the interpreter's hot path.
const PRIVATE_LOOP: &str = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k(n: int)
{
  var i: int;
  var s: int;
  i := 0;
  s := 0;
  while (i < n) {
    s := s + i * 2;
    i := i + 1;
  }
  A[local_id_x] := s;
}
"#;

/// Shared-memory traffic with barriers: race logging and scheduling on every access.
const SHARED_LOOP: &str = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k(n: int)
{
  var i: int;
  var v: int;
  i := 0;
  while (i < n) {
    A[local_id_x] := i;
    barrier;
    v := A[(local_id_x + 1) mod group_size_x];
    barrier;
    i := i + 1;
  }
}
"#;

fn prepare(text: &str) -> Interpreter {
    let (program, diags) = ivl::parser::parse_program(text);
    assert!(diags.is_empty(), "{diags:?}");
    let program = ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(program));
    Interpreter::new(&program).expect("compiles")
}

fn config(local: u64, n: i64) -> RunConfig {
    RunConfig {
        local_size: Some(vec![local]),
        num_groups: Some(vec![1]),
        inputs: Inputs { params: vec![("n".into(), InputValue::Int(n.into()))], ..Inputs::default() },
        max_steps: u64::MAX,
        ..RunConfig::default()
    }
}

fn steps(interp: &Interpreter, cfg: &RunConfig) -> u64 {
    match interp.run(cfg) {
        RunOutcome::Completed(f) => f.steps,
        o => panic!("benchmark kernel did not complete: {o:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("interp");
    g.sample_size(10);
    for (name, text, local, n) in [("private_loop", PRIVATE_LOOP, 4, 250_000), ("shared_loop", SHARED_LOOP, 16, 2_000)]
    {
        let interp = prepare(text);
        let cfg = config(local, n);
        let per_run = steps(&interp, &cfg);
        g.throughput(Throughput::Elements(per_run));
        g.bench_function(name, |b| b.iter(|| steps(&interp, &cfg)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! Barriers (seed 000 Fig. 4d, rules B1/B2), assertion failures, loop and barrier invariants.

mod interleaving_common;
use gpu_passes::interleaving::RunOutcome;
use interleaving_common::*;
use ivl::diag::ErrorKind;

#[test]
fn a_barrier_under_a_thread_dependent_condition_diverges() {
    let k = r#"
procedure {:kernel} k()
{
  if (local_id_x == 0) {
    barrier;
  }
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 20);
    let (_, e) = s.error.expect("divergence");
    assert_eq!(e.kind, ErrorKind::Divergence);
    assert_eq!(line_of(k, e.diagnostic.primary.span.start), 5);
    assert!(e.diagnostic.message.contains("finished"), "{}", e.diagnostic.message);
}

#[test]
fn threads_at_different_barriers_diverge_b1() {
    let k = r#"
procedure {:kernel} k()
{
  if (local_id_x < 2) {
    barrier;
  } else {
    barrier;
  }
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 20);
    let (_, e) = s.error.expect("divergence");
    assert_eq!(e.kind, ErrorKind::Divergence);
    assert!(e.diagnostic.message.contains("different barriers"), "{}", e.diagnostic.message);
    let mut lines = vec![line_of(k, e.diagnostic.primary.span.start), line_of(k, e.diagnostic.related[0].span.start)];
    lines.sort();
    assert_eq!(lines, vec![5, 7]);
}

#[test]
fn the_same_barrier_in_different_iterations_diverges_b2() {
    let k = r#"
procedure {:kernel} k()
{
  var i: int;
  i := 0;
  while (i < 2) {
    if (!(i == 0 && local_id_x == 0)) {
      barrier;
    }
    i := i + 1;
  }
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 20);
    let (_, e) = s.error.expect("divergence");
    assert_eq!(e.kind, ErrorKind::Divergence);
    assert!(e.diagnostic.message.contains("different loop iterations"), "{}", e.diagnostic.message);
}

#[test]
fn uniform_loops_with_barriers_do_not_diverge() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k(n: int)
  requires 0 <= n && n < 6;
{
  var i: int;
  i := 0;
  while (i < n) {
    A[local_id_x] := i;
    barrier;
    assert A[(local_id_x + 1) mod group_size_x] == i;
    barrier;
    i := i + 1;
  }
}
"#;
    let s = many(k, &cfg(&[4], &[2]), 200);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 200);
}

#[test]
fn barriers_in_called_procedures_synchronise() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure sync()
{
  barrier;
}
procedure {:kernel} k()
{
  A[local_id_x] := 7;
  call sync();
  assert A[(local_id_x + 1) mod group_size_x] == 7;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 100);
    assert!(s.error.is_none(), "{:#?}", s.error);
}

#[test]
fn a_failing_assertion_names_its_thread() {
    let k = r#"
procedure {:kernel} k()
{
  assert local_id_x != 3;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 5);
    let (_, e) = s.error.expect("assertion failure");
    assert_eq!(e.kind, ErrorKind::Assertion);
    assert_eq!(e.threads[0].local[0], 3);
    assert!(e.diagnostic.message.contains("thread 3 of group 0"), "{}", e.diagnostic.message);
    assert_eq!(line_of(k, e.diagnostic.primary.span.start), 4);
}

#[test]
fn an_assertion_that_depends_on_the_schedule_is_found() {
    // Thread 0 reads A[1] without a barrier: whether it sees thread 1's write depends on the
    // schedule (and it is also a race, which is reported first when it happens).
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[local_id_x] := 0;
  barrier;
  if (local_id_x == 1) { A[1] := 5; }
  if (local_id_x == 0) { assert A[1] == 0; }
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 1000);
    let (_, e) = s.error.expect("an error");
    assert!(matches!(e.kind, ErrorKind::Race | ErrorKind::Assertion));
}

#[test]
fn loop_invariants_are_checked_on_entry_and_after_iterations() {
    let entry = r#"
procedure {:kernel} k()
{
  var i: int;
  i := 1;
  while (i < 3)
    invariant i == 0;
  {
    i := i + 1;
  }
}
"#;
    let s = many(entry, &cfg(&[1], &[1]), 1);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::InvariantEntry));
    let maintained = r#"
procedure {:kernel} k()
{
  var i: int;
  i := 0;
  while (i < 3)
    invariant i <= 1;
  {
    i := i + 1;
  }
}
"#;
    let s = many(maintained, &cfg(&[1], &[1]), 1);
    let (_, e) = s.error.expect("not maintained");
    assert_eq!(e.kind, ErrorKind::InvariantMaintained);
    assert_eq!(line_of(maintained, e.diagnostic.primary.span.start), 7);
}

#[test]
fn barrier_invariants_are_checked_when_the_group_meets() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[local_id_x] := local_id_x;
  barrier
    invariant A[local_id_x] == local_id_x;
    invariant A[local_id_x] < 2;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 5);
    let (_, e) = s.error.expect("barrier invariant");
    assert_eq!(e.kind, ErrorKind::BarrierInvariant);
    assert_eq!(line_of(k, e.diagnostic.primary.span.start), 8);
}

#[test]
fn kernel_postconditions_are_checked_per_thread() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
  ensures A[local_id_x] == 1;
{
  A[local_id_x] := local_id_x;
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 5);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::Postcondition));
}

#[test]
fn a_missing_group_size_is_an_input_error() {
    let k = r#"
procedure {:kernel} k()
{
  assert local_id_x >= 0;
}
"#;
    let o = interp(k).run(&Default::default());
    let RunOutcome::Invalid(d) = o else { panic!("{o:?}") };
    assert!(d[0].message.contains("--local-size"), "{}", d[0].message);
    // An axiom can fix it instead.
    let fixed = format!("axiom group_size_x == 3;\n{k}");
    let o = interp(&fixed).run(&Default::default());
    let RunOutcome::Completed(f) = o else { panic!("{o:?}") };
    assert!(f.steps > 0);
}

#[test]
fn non_terminating_runs_hit_the_step_limit() {
    let k = r#"
procedure {:kernel} k()
{
  while (true) { }
}
"#;
    let c = gpu_passes::interleaving::RunConfig { max_steps: 10_000, ..cfg(&[2], &[1]) };
    assert!(matches!(interp(k).run(&c), RunOutcome::Limit(_)));
}

#[test]
fn access_log_builtins_in_invariants() {
    let src = |offset: &str| {
        format!(
            r#"
var {{:group_shared}} A: [int]int;
procedure {{:kernel}} k()
{{
  var i: int;
  i := 0;
  while (i < 3)
    invariant __write(A) ==> __write_offset(A) == local_id_x;
    invariant !__read(A);
  {{
    A[local_id_x{offset}] := i;
    i := i + 1;
  }}
}}
"#
        )
    };
    let s = many(&src(""), &cfg(&[4], &[1]), 50);
    assert!(s.error.is_none() && s.invalid.is_none(), "{:#?} {:#?}", s.error, s.invalid);
    let s = many(&src(" + 4"), &cfg(&[4], &[1]), 50);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::InvariantMaintained));
}

#[test]
fn uniformity_is_compared_across_threads() {
    // Compared among threads at the same place and loop iteration.
    let src = |start: &str| {
        format!(
            r#"
procedure {{:kernel}} k()
{{
  var i: int;
  i := {start};
  while (i < 4)
    invariant __uniform(i);
  {{
    i := i + 1;
  }}
}}
"#
        )
    };
    let s = many(&src("0"), &cfg(&[4], &[2]), 50);
    assert!(s.error.is_none() && s.invalid.is_none(), "{:#?} {:#?}", s.error, s.invalid);
    let s = many(&src("local_id_x mod 2"), &cfg(&[4], &[1]), 50);
    let (_, e) = s.error.expect("non-uniform loop counter");
    assert!(e.diagnostic.message.contains("__uniform"), "{}", e.diagnostic.message);
}

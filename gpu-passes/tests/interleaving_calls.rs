//! Calls (bodies run with their contracts checked; bodiless procedures havoc and assume),
//! unstructured control flow, `havoc`/`assume` and infeasible runs, sequential procedures.

mod interleaving_common;
use gpu_passes::interleaving::{run_procedure, InputValue, Inputs, RunOutcome, Value};
use interleaving_common::*;
use ivl::diag::ErrorKind;

#[test]
fn calls_run_bodies_and_check_contracts() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure set(i: int, v: int)
  requires i == local_id_x;
  ensures A[i] == v;
  modifies A;
{
  A[i] := v;
}
procedure get(i: int) returns (r: int)
  ensures r == A[i];
{
  r := A[i];
}
procedure {:kernel} k()
{
  var x: int;
  call set(local_id_x, 2 * local_id_x);
  barrier;
  call x := get((local_id_x + 1) mod group_size_x);
  assert x == 2 * ((local_id_x + 1) mod group_size_x);
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 100);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 100);
}

#[test]
fn a_violated_precondition_points_at_the_call_and_the_clause() {
    let k = r#"
procedure inc(x: int) returns (y: int)
  requires x < 2;
{
  y := x + 1;
}
procedure {:kernel} k()
{
  var y: int;
  call y := inc(local_id_x);
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 5);
    let (_, e) = s.error.expect("precondition");
    assert_eq!(e.kind, ErrorKind::Precondition);
    assert_eq!(line_of(k, e.diagnostic.primary.span.start), 10);
    assert_eq!(line_of(k, e.diagnostic.related[0].span.start), 3);
    assert!(e.threads[0].local[0] >= 2);
}

#[test]
fn a_violated_postcondition_is_reported() {
    let p = r#"
procedure p(x: int) returns (y: int)
  ensures y > x;
{
  y := x;
}
"#;
    let o = run_procedure(&prepare(p), "p", &Inputs::default());
    let RunOutcome::Error(e) = o else { panic!("{o:?}") };
    assert_eq!(e.kind, ErrorKind::Postcondition);
    assert_eq!(line_of(p, e.diagnostic.primary.span.start), 3);
}

#[test]
fn bodiless_procedures_havoc_outputs_and_assume_postconditions() {
    let p = r#"
var G: [int]int;
procedure next(x: int) returns (y: int);
  ensures y == x + 1;
procedure bump(i: int);
  modifies G;
  ensures G[i] == old(G[i]) + 1;
procedure pick() returns (z: int);
  ensures 0 <= z && z < 3;
procedure p() returns (a: int, g: int, z: int)
  modifies G;
{
  var before: int;
  call a := next(41);
  G[5] := 7;
  call bump(5);
  g := G[5];
  call z := pick();
}
"#;
    for seed in 0..20 {
        let c = gpu_passes::interleaving::RunConfig { seed, ..Default::default() };
        let i = interp(p);
        let RunOutcome::Completed(f) = i.run_procedure("p", &c) else { panic!() };
        assert_eq!(f.out("a"), Some(&Value::Int(42)));
        assert_eq!(f.out("g"), Some(&Value::Int(8)));
        let Some(Value::Int(z)) = f.out("z") else { panic!() };
        assert!((0..3).contains(z));
    }
}

#[test]
fn gotos_and_labels() {
    let p = r#"
procedure p(n: int) returns (s: int)
  requires n >= 0;
{
  var i: int;
  entry:
    i := 0;
    s := 0;
    goto head;
  head:
    goto body, done;
  body:
    assume i < n;
    s := s + i;
    i := i + 1;
    goto head;
  done:
    assume !(i < n);
    return;
}
"#;
    let inputs = Inputs { params: vec![("n".into(), InputValue::Int(10.into()))], ..Default::default() };
    let o = run_procedure(&prepare(p), "p", &inputs);
    let RunOutcome::Completed(f) = o else { panic!("{o:?}") };
    assert_eq!(f.out("s"), Some(&Value::Int(45)));
}

#[test]
fn nondeterministic_branches_explore_both_sides() {
    let k = r#"
procedure {:kernel} k()
{
  var x: int;
  if (*) { x := 1; } else { x := 2; }
  assert x == 1;
}
"#;
    let s = many(k, &cfg(&[1], &[1]), 100);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::Assertion));
}

#[test]
fn havoc_with_assumptions() {
    let k = r#"
procedure {:kernel} k()
{
  var x: int;
  var y: int;
  havoc x, y;
  assume x == 3 * local_id_x && 0 <= y && y < 4;
  assert x == 3 * local_id_x;
  assert y <= 3;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 100);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 100);
}

#[test]
fn a_false_assume_makes_the_run_infeasible() {
    let k = r#"
procedure {:kernel} k()
{
  assume local_id_x == 7;
  assert false;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 10);
    assert!(s.error.is_none());
    assert_eq!(s.infeasible, 10);
    assert_eq!(s.completed, 0);
    let o = interp(k).run(&cfg(&[4], &[1]));
    assert!(matches!(o, RunOutcome::Infeasible(_)), "{o:?}");
}

#[test]
fn unsatisfiable_requires_make_runs_infeasible() {
    let k = r#"
procedure {:kernel} k(n: int)
  requires n * n == 2;
{
  assert false;
}
"#;
    let o = interp(k).run(&cfg(&[1], &[1]));
    let RunOutcome::Infeasible(why) = o else { panic!("{o:?}") };
    assert!(why.contains("requires"), "{why}");
}

#[test]
fn sequential_procedures_with_globals_and_old() {
    let p = r#"
var total: int;
procedure add(x: int)
  modifies total;
  ensures total == old(total) + x;
{
  total := total + x;
}
procedure p(n: int) returns (t: int)
  modifies total;
{
  total := 0;
  call add(n);
  call add(n);
  t := total;
}
"#;
    let inputs = Inputs { params: vec![("n".into(), InputValue::Int(21.into()))], ..Default::default() };
    let RunOutcome::Completed(f) = run_procedure(&prepare(p), "p", &inputs) else { panic!() };
    assert_eq!(f.out("t"), Some(&Value::Int(42)));
    assert_eq!(f.global("total"), Some(&Value::Int(42)));
    assert_eq!(f.params, vec![("n".into(), Value::Int(21))]);
}

#[test]
fn a_kernel_without_a_body_cannot_be_run() {
    // A program the lock-step pass produced cannot be run; a kernel without a body neither.
    let k = r#"
procedure {:kernel} k();
"#;
    let o = interp(k).run(&cfg(&[1], &[1]));
    assert!(matches!(o, RunOutcome::Invalid(_)), "{o:?}");
}

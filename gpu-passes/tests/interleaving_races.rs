//! Data races (seed 000 Definition 3.1, docs/kbpl.md §7): found with both accesses, tolerated when
//! benign (seed 003), separated only by the barriers and fences that apply.

mod interleaving_common;
use gpu_passes::interleaving::{RunConfig, RunOutcome, ThreadId};
use interleaving_common::*;
use ivl::diag::ErrorKind;

const NEIGHBOUR: &str = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[local_id_x] := local_id_x;
  A[local_id_x] := A[(local_id_x + 1) mod group_size_x];
}
"#;

#[test]
fn unsynchronised_neighbour_read_is_a_race_with_both_accesses() {
    let s = many(NEIGHBOUR, &cfg(&[4], &[1]), 1000);
    let (_, e) = s.error.expect("a race within 1000 runs");
    assert_eq!(e.kind, ErrorKind::Race);
    let d = &e.diagnostic;
    assert!(d.message.contains("on `A["), "{}", d.message);
    // Both accesses are labelled: one on line 5 (the write), one on line 6.
    let lines: Vec<usize> =
        std::iter::once(&d.primary).chain(&d.related).map(|l| line_of(NEIGHBOUR, l.span.start)).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.contains(&6), "{lines:?}");
    assert!(d.message.contains("write-read") || d.message.contains("read-write") || d.message.contains("write-write"));
    assert_eq!(e.threads.len(), 2);
    assert_ne!(e.threads[0], e.threads[1]);
    assert!(d.notes.iter().any(|n| n.contains("seed")));
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let i = interp(NEIGHBOUR);
    for seed in 0..20 {
        let c = RunConfig { seed, ..cfg(&[4], &[1]) };
        let a = format!("{:?}", i.run(&c).error().map(|e| (&e.diagnostic.message, e.diagnostic.primary.span)));
        let b = format!("{:?}", i.run(&c).error().map(|e| (&e.diagnostic.message, e.diagnostic.primary.span)));
        assert_eq!(a, b);
    }
}

#[test]
fn a_barrier_between_write_and_read_removes_the_race() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  var v: int;
  A[local_id_x] := local_id_x;
  barrier;
  v := A[(local_id_x + 1) mod group_size_x];
  barrier;
  A[local_id_x] := v;
  barrier;
  assert A[local_id_x] == (local_id_x + 1) mod group_size_x;
}
"#;
    let s = many(k, &cfg(&[8], &[2]), 300);
    assert!(s.error.is_none(), "{:#?}", s.error);
    assert_eq!(s.completed, 300);
}

#[test]
fn benign_same_value_writes_are_tolerated_unless_asked() {
    let k = r#"
var {:group_shared} flag: [int]bool;
procedure {:kernel} k()
{
  flag[0] := true;
}
"#;
    let s = many(k, &cfg(&[4], &[1]), 200);
    assert!(s.error.is_none());
    let strict = RunConfig { benign_tolerance: false, ..cfg(&[4], &[1]) };
    let s = many(k, &strict, 10);
    let (_, e) = s.error.expect("reported without benign tolerance");
    assert!(e.diagnostic.message.contains("write-write"), "{}", e.diagnostic.message);
}

#[test]
fn different_values_written_to_one_location_race() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[0] := local_id_x;
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 50);
    let (_, e) = s.error.expect("write-write race");
    assert!(e.diagnostic.message.contains("write-write"));
    assert!(e.diagnostic.primary.message.contains("write of"));
}

#[test]
fn group_shared_memory_has_one_copy_per_group() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[0] := group_id_x;
  assert A[0] == group_id_x;
}
"#;
    // One thread per group: each group writes its own copy, no race, no interference.
    let s = many(k, &cfg(&[1], &[4]), 200);
    assert!(s.error.is_none(), "{:#?}", s.error);
}

#[test]
fn threads_of_different_groups_race_on_global_memory_despite_barriers() {
    let k = r#"
var {:global} B: [int]int;
procedure {:kernel} k()
{
  var v: int;
  B[group_id_x * group_size_x + local_id_x] := 1;
  barrier;
  v := B[(group_id_x * group_size_x + local_id_x + 1) mod (group_size_x * num_groups_x)];
}
"#;
    let s = many(k, &cfg(&[2], &[2]), 500);
    let (_, e) = s.error.expect("inter-group race");
    assert_eq!(e.kind, ErrorKind::Race);
    assert_ne!(e.threads[0].group, e.threads[1].group, "{:?}", e.threads);

    // With one group the barrier separates the accesses.
    let s = many(k, &cfg(&[4], &[1]), 200);
    assert!(s.error.is_none(), "{:#?}", s.error);
}

#[test]
fn a_local_fence_does_not_separate_global_accesses() {
    let src = |fence: &str| {
        format!(
            r#"
var {{:global}} B: [int]int;
procedure {{:kernel}} k()
{{
  var v: int;
  B[local_id_x] := 1;
  barrier {fence};
  v := B[(local_id_x + 1) mod group_size_x];
}}
"#
        )
    };
    let s = many(&src("{:local}"), &cfg(&[2], &[1]), 300);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::Race));
    let s = many(&src("{:global}"), &cfg(&[2], &[1]), 300);
    assert!(s.error.is_none());
    let s = many(&src(""), &cfg(&[2], &[1]), 300);
    assert!(s.error.is_none());
}

#[test]
fn bugle_barrier_calls_fence_by_argument() {
    let src = |args: &str| {
        format!(
            r#"
var {{:group_shared}} A: [int]int;
procedure {{:barrier}} $bugle_barrier(local: bv1, global: bv1);
procedure {{:kernel}} k()
{{
  var v: int;
  A[local_id_x] := 1;
  call $bugle_barrier({args});
  v := A[(local_id_x + 1) mod group_size_x];
}}
"#
        )
    };
    assert!(many(&src("1bv1, 0bv1"), &cfg(&[4], &[1]), 200).error.is_none());
    let s = many(&src("0bv1, 1bv1"), &cfg(&[4], &[1]), 200);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::Race));
}

#[test]
fn scalar_shared_variables_race_too() {
    let k = r#"
var counter: int;
procedure {:kernel} k()
{
  counter := counter + 1;
}
"#;
    let s = many(k, &cfg(&[2], &[1]), 50);
    let (_, e) = s.error.expect("race on a scalar");
    assert!(e.diagnostic.message.contains("`counter`"), "{}", e.diagnostic.message);
}

#[test]
fn round_robin_schedules_find_races_too() {
    let c = RunConfig { schedule: gpu_passes::interleaving::Schedule::RoundRobin, ..cfg(&[4], &[1]) };
    let s = many(NEIGHBOUR, &c, 1);
    assert_eq!(s.error.map(|(_, e)| e.kind), Some(ErrorKind::Race));
}

#[test]
fn replaying_two_threads_shows_their_race() {
    let program = prepare(NEIGHBOUR);
    let t = |l: u32| ThreadId { local: [l, 0, 0], group: [0, 0, 0] };
    let o = gpu_passes::interleaving::replay(&program, &[t(1), t(2)], &Default::default(), &cfg(&[4], &[1]));
    let RunOutcome::Error(e) = o else { panic!("{o:?}") };
    assert_eq!(e.kind, ErrorKind::Race);
    let mut ts = e.threads.clone();
    ts.sort_by_key(|t| t.local[0]);
    assert_eq!(ts, vec![t(1), t(2)]);
    // Two threads that do not touch each other's locations do not race.
    let o = gpu_passes::interleaving::replay(&program, &[t(0), t(2)], &Default::default(), &cfg(&[4], &[1]));
    assert!(matches!(o, RunOutcome::Completed(_)), "{o:?}");
}

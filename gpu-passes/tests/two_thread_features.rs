//! The two-thread reduction feature by feature (`gpu_passes::driver::verify_kernel`):
//! verdicts, error kinds, messages and the source lines of both accesses of a race.

use gpu_passes::driver::verify_kernel;
use gpu_passes::two_thread::{is_kernel_program, Abstraction, KernelOptions};
use ivl::diag::{ErrorKind, SourceFile};
use vcgen::engine::{Outcome, VerifyOptions};

#[path = "two_thread_common/mod.rs"]
mod common;

/// (kind, message, primary line, related lines) of every error; panics on invalid input.
type Errors = Vec<(ErrorKind, String, usize, Vec<usize>)>;

fn sizes(local: &[u64], groups: &[u64]) -> KernelOptions {
    KernelOptions { local_size: Some(local.to_vec()), num_groups: Some(groups.to_vec()), ..KernelOptions::default() }
}

fn run(src: &str, opts: &KernelOptions) -> Result<Errors, Vec<ivl::diag::Diagnostic>> {
    let p = common::front_end(src).unwrap_or_else(|d| panic!("front end: {d:?}"));
    let vopts = VerifyOptions { jobs: 1, timeout_secs: Some(60), ..VerifyOptions::default() };
    let r = verify_kernel(&p, opts, &vopts);
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let file = SourceFile::new("k.kbpl", src);
    let line = |s: ivl::ast::Span| file.line_col(s.start).0;
    let mut out = Vec::new();
    for i in &r.impls {
        match &i.outcome {
            Outcome::Verified => {}
            Outcome::Errors(ds) => out.extend(ds.iter().map(|d| {
                (d.kind, d.message.clone(), line(d.primary.span), d.related.iter().map(|l| line(l.span)).collect())
            })),
            Outcome::Inconclusive(m) => panic!("inconclusive: {m}"),
        }
    }
    Ok(out)
}

fn verify(src: &str, opts: &KernelOptions) -> Errors {
    run(src, opts).unwrap_or_else(|d| panic!("invalid: {d:?}"))
}

fn kinds(e: &Errors) -> Vec<ErrorKind> {
    let mut k: Vec<ErrorKind> = e.iter().map(|x| x.0).collect();
    k.dedup();
    k
}

/// The race errors as (message, primary line, related lines).
fn races(e: &Errors) -> Vec<(String, usize, Vec<usize>)> {
    e.iter().filter(|x| x.0 == ErrorKind::Race).map(|x| (x.1.clone(), x.2, x.3.clone())).collect()
}

const HEAD: &str = "var {:group_shared} A: [int]int;\nvar {:global} out: [int]int;\n";

#[test]
fn write_write_race_names_kind_array_and_both_accesses() {
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  A[0] := local_id_x;\n}}\n");
    let e = verify(&src, &sizes(&[4], &[1]));
    let r = races(&e);
    assert_eq!(r.len(), 1, "{e:?}");
    assert!(r[0].0.contains("write-write") && r[0].0.contains("`A`"), "{}", r[0].0);
    assert_eq!((r[0].1, r[0].2.clone()), (4, vec![4]));
}

#[test]
fn read_write_and_write_read_races() {
    // Read first, then write: thread 1's logged read against thread 2's write.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  x := A[local_id_x + 1];\n  A[local_id_x] := x;\n}}\n"
    );
    let r = races(&verify(&src, &sizes(&[4], &[1])));
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].0.contains("read-write"), "{}", r[0].0);
    assert_eq!((r[0].1, r[0].2.clone()), (6, vec![5]), "primary: the write, related: the read");
    // Write first, then read.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  A[local_id_x] := 1;\n  x := A[local_id_x + 1];\n}}\n"
    );
    let r = races(&verify(&src, &sizes(&[4], &[1])));
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].0.contains("write-read"), "{}", r[0].0);
    assert_eq!((r[0].1, r[0].2.clone()), (6, vec![5]), "primary: the read, related: the write");
    // A barrier in between separates them.
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  A[local_id_x] := 1;\n  barrier;\n  x := A[local_id_x + 1];\n}}\n");
    assert_eq!(verify(&src, &sizes(&[4], &[1])), vec![]);
}

#[test]
fn a_race_underlines_the_two_accesses_not_the_statement() {
    // Both accesses on one line: the write is its target, the read its own expression.
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  A[local_id_x] := A[local_id_x + 1] + 1;\n}}\n");
    let p = common::front_end(&src).unwrap_or_else(|d| panic!("front end: {d:?}"));
    let vopts = VerifyOptions { jobs: 1, timeout_secs: Some(60), ..VerifyOptions::default() };
    let r = verify_kernel(&p, &sizes(&[4], &[1]), &vopts);
    let texts: Vec<(&str, &str)> = r
        .impls
        .iter()
        .flat_map(|i| match &i.outcome {
            Outcome::Errors(ds) => ds.clone(),
            _ => vec![],
        })
        .map(|d| (&src[d.primary.span.range()], &src[d.related[0].span.range()]))
        .collect();
    // Read-write (the write checked against the logged read) and write-read.
    assert_eq!(texts, vec![("A[local_id_x]", "A[local_id_x + 1]"), ("A[local_id_x + 1]", "A[local_id_x]")]);
}

#[test]
fn benign_writes_unless_strict() {
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  A[0] := 1;\n}}\n");
    assert_eq!(verify(&src, &sizes(&[8], &[1])), vec![]);
    let strict = KernelOptions { benign_tolerance: false, ..sizes(&[8], &[1]) };
    assert_eq!(kinds(&verify(&src, &strict)), vec![ErrorKind::Race]);
}

#[test]
fn inter_group_races_on_global_memory() {
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  out[local_id_x] := group_id_x;\n}}\n");
    let e = verify(&src, &sizes(&[4], &[2]));
    let r = races(&e);
    assert_eq!(r.len(), 1, "{e:?}");
    assert!(r[0].0.contains("different groups"), "{}", r[0].0);
    // Not with --only-intra-group, and not for group-shared memory.
    let intra = KernelOptions { only_intra_group: true, ..sizes(&[4], &[2]) };
    assert_eq!(verify(&src, &intra), vec![]);
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  A[local_id_x] := group_id_x;\n}}\n");
    assert_eq!(verify(&src, &sizes(&[4], &[2])), vec![]);
    // Global ids are distinct, for symbolic sizes too (one-dimensional grid).
    let src = format!(
        "{HEAD}axiom group_size_y == 1 && group_size_z == 1 && num_groups_y == 1 && num_groups_z == 1;\n\
         procedure {{:kernel}} k() {{\n  out[group_id_x * group_size_x + local_id_x] := 1;\n}}\n"
    );
    assert_eq!(verify(&src, &KernelOptions::default()), vec![]);
}

#[test]
fn barriers_do_not_order_threads_of_different_groups() {
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  out[group_id_x * 4 + local_id_x] := 1;\n  barrier;\n  x := out[(group_id_x * 4 + local_id_x + 1) mod 8];\n}}\n"
    );
    let e = verify(&src, &sizes(&[4], &[2]));
    let r = races(&e);
    assert!(!r.is_empty(), "{e:?}");
    assert!(r.iter().all(|x| x.0.contains("different groups")), "{r:?}");
}

#[test]
fn divergence_at_a_thread_dependent_barrier() {
    let src = format!("{HEAD}procedure {{:kernel}} k(n: int) {{\n  if (local_id_x == 0) {{\n    barrier;\n  }}\n}}\n");
    let e = verify(&src, &sizes(&[4], &[1]));
    assert_eq!(kinds(&e), vec![ErrorKind::Divergence]);
    assert_eq!(e[0].2, 5);
    let only = KernelOptions { only_divergence: true, ..sizes(&[4], &[1]) };
    assert_eq!(kinds(&verify(&src, &only)), vec![ErrorKind::Divergence]);
    // A condition that is uniform in a group is fine (a parameter, the group id).
    let src = format!(
        "{HEAD}procedure {{:kernel}} k(n: int) {{\n  if (n > 0 && group_id_x == 1) {{\n    barrier;\n  }}\n}}\n"
    );
    assert_eq!(verify(&src, &sizes(&[4], &[2])), vec![]);
}

#[test]
fn divergence_in_a_loop_with_a_thread_dependent_trip_count() {
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var i: int;\n  i := 0;\n  while (i < local_id_x)\n    invariant i >= 0;\n  {{\n    barrier;\n    i := i + 1;\n  }}\n}}\n"
    );
    let e = verify(&src, &sizes(&[4], &[1]));
    assert!(kinds(&e).contains(&ErrorKind::Divergence), "{e:?}");
    // The same loop with a uniform bound needs no invariant about uniformity (the analysis
    // keeps one copy of `i` and of the loop's predicate), only one about the access log.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k(n: int) {{\n  var i: int;\n  i := 0;\n  while (i < n)\n    invariant !__write(A);\n  {{\n    A[local_id_x] := i;\n    barrier;\n    i := i + 1;\n  }}\n}}\n"
    );
    assert_eq!(verify(&src, &sizes(&[4], &[1])), vec![]);
}

#[test]
fn assertion_failure_names_the_thread() {
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  assert local_id_x != 2;\n}}\n");
    let e = verify(&src, &sizes(&[4], &[1]));
    assert_eq!(kinds(&e), vec![ErrorKind::Assertion]);
    assert!(e[0].1.contains("thread"), "{}", e[0].1);
    assert_eq!(e[0].2, 4);
}

#[test]
fn a_group_of_one_thread_still_checks_assertions() {
    // Symbolic sizes include groups of one thread: the "pair" is then one thread twice, and
    // its assertions are still checked (but it does not race with itself).
    let src = "axiom num_groups_x == 1 && num_groups_y == 1 && num_groups_z == 1;\n\
               var {:group_shared} A: [int]int;\n\
               procedure {:kernel} k() {\n  A[0] := local_id_x;\n  assert group_size_x * group_size_y * group_size_z > 1;\n}\n";
    let e = verify(src, &KernelOptions::default());
    assert!(kinds(&e).contains(&ErrorKind::Assertion), "{e:?}");
    let one = verify(src, &sizes(&[1], &[1]));
    assert_eq!(kinds(&one), vec![ErrorKind::Assertion], "no race with itself: {one:?}");
}

#[test]
fn barrier_invariants_are_checked_and_assumed() {
    let ok = "var {:group_shared} A: [int]int;\nvar {:group_shared} B: [int]int;\n\
              procedure {:kernel} k() {\n  A[local_id_x] := 2 * local_id_x;\n  \
              barrier invariant A[local_id_x] == 2 * local_id_x;\n  B[A[local_id_x]] := 1;\n}\n";
    assert_eq!(verify(ok, &sizes(&[8], &[1])), vec![]);
    // Without the invariant the adversarial abstraction loses the values: a race on B.
    let without = ok.replace(" invariant A[local_id_x] == 2 * local_id_x", "").replace(":= 1;", ":= local_id_x;");
    assert_eq!(kinds(&verify(&without, &sizes(&[8], &[1]))), vec![ErrorKind::Race]);
    // Locations nobody accessed since the last barrier may hold anything.
    let unknown = ok.replace("A[local_id_x] := 2 * local_id_x;", "A[0] := 0;");
    let e = verify(&unknown, &sizes(&[8], &[1]));
    assert!(kinds(&e).contains(&ErrorKind::BarrierInvariant), "{e:?}");
    assert!(e.iter().any(|x| x.0 == ErrorKind::BarrierInvariant && x.2 == 5), "{e:?}");
}

#[test]
fn barrier_invariant_instantiated_for_another_thread() {
    let src = "var {:group_shared} A: [int]int;\n\
               procedure {:kernel} k() {\n  var v: int;\n  A[local_id_x] := local_id_x;\n  \
               barrier invariant {:instantiate (local_id_x + 1) mod 8} A[local_id_x] == local_id_x;\n  \
               v := A[(local_id_x + 1) mod 8];\n  assert v == (local_id_x + 1) mod 8;\n}\n";
    assert_eq!(verify(src, &sizes(&[8], &[1])), vec![]);
    let wrong = src.replace("{:instantiate (local_id_x + 1) mod 8} ", "");
    assert_eq!(kinds(&verify(&wrong, &sizes(&[8], &[1]))), vec![ErrorKind::Assertion]);
}

#[test]
fn equality_abstraction_gives_both_threads_equal_values() {
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  x := A[0];\n  if (x > 0) {{\n    barrier;\n  }}\n}}\n"
    );
    let adv = KernelOptions { abstraction: Abstraction::Adversarial, ..sizes(&[4], &[1]) };
    let adversarial = verify(&src, &adv);
    assert_eq!(kinds(&adversarial), vec![ErrorKind::Divergence], "reads are arbitrary per thread");
    let eq = KernelOptions { abstraction: Abstraction::Equality, ..sizes(&[4], &[1]) };
    assert_eq!(verify(&src, &eq), vec![]);
    // After a thread's own write it sees its value; races are still found.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  A[local_id_x] := 7;\n  x := A[local_id_x];\n  assert x == 7;\n  A[0] := local_id_x;\n}}\n"
    );
    let e = verify(&src, &eq);
    assert_eq!(kinds(&e), vec![ErrorKind::Race], "{e:?}");
}

#[test]
fn bit_vector_identity() {
    let src = "const {:local_id_x} tid: bv32;\nconst {:group_size_x} gsz: bv32;\n\
               const {:group_id_x} gid: bv32;\nconst {:num_groups_x} ng: bv32;\n\
               function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32): bv32;\n\
               var {:group_shared} A: [bv32]bv32;\n\
               procedure {:kernel} k() {\n  A[tid] := ADD(tid, 1bv32);\n  barrier;\n  A[0bv32] := tid;\n}\n";
    let e = verify(src, &sizes(&[16], &[2]));
    let r = races(&e);
    assert_eq!(r.len(), 1, "{e:?}");
    assert_eq!((r[0].1, r[0].2.clone()), (10, vec![10]));
}

#[test]
fn two_and_three_dimensional_groups() {
    // Threads that differ only in y race on A[local_id_x].
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  A[local_id_x] := local_id_y;\n}}\n");
    assert_eq!(kinds(&verify(&src, &sizes(&[4, 4], &[1]))), vec![ErrorKind::Race]);
    assert_eq!(verify(&src, &sizes(&[4], &[1])), vec![], "y is 1 when not given");
    let src =
        format!("{HEAD}procedure {{:kernel}} k() {{\n  A[(local_id_z * 2 + local_id_y) * 4 + local_id_x] := 1;\n}}\n");
    assert_eq!(verify(&src, &sizes(&[4, 2, 2], &[1])), vec![]);
    // With three rows (y) per layer, (z * 2 + y) collides: threads of different y race.
    assert_eq!(kinds(&verify(&src.replace(":= 1", ":= local_id_y"), &sizes(&[4, 3, 2], &[1]))), vec![ErrorKind::Race]);
}

#[test]
fn calls_are_inlined_with_their_contracts() {
    let src = format!(
        "{HEAD}procedure store(i: int, v: int)\n  requires i >= 0;\n  modifies A;\n{{\n  A[i] := v;\n}}\n\
         procedure {{:kernel}} k() {{\n  call store(local_id_x, 1);\n  call store(local_id_x - 1, 2);\n}}\n"
    );
    let e = verify(&src, &sizes(&[4], &[1]));
    assert!(e.iter().any(|x| x.0 == ErrorKind::Precondition && x.2 == 11 && x.1.contains("thread")), "{e:?}");
    // The two calls' writes race with each other: both accesses are the callee's line.
    assert!(races(&e).iter().any(|r| r.1 == 7 && r.2 == vec![7]), "{e:?}");
}

#[test]
fn calls_to_barrier_procedures_fence_what_their_arguments_say() {
    let src = format!(
        "{HEAD}procedure {{:barrier}} bar(l: bv1, g: bv1);\n\
         procedure {{:kernel}} k() {{\n  var x: int;\n  A[local_id_x] := 1;\n  out[local_id_x] := 1;\n  \
         call bar(1bv1, 0bv1);\n  x := A[(local_id_x + 1) mod 4];\n  x := out[(local_id_x + 1) mod 4];\n}}\n"
    );
    let r = races(&verify(&src, &sizes(&[4], &[1])));
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].0.contains("`out`"), "only global memory is unfenced: {r:?}");
    assert_eq!((r[0].1, r[0].2.clone()), (10, vec![7]));
}

#[test]
fn a_kernel_that_cannot_run_is_refused() {
    let src = format!("{HEAD}axiom group_size_x == 16;\nprocedure {{:kernel}} k() {{\n  A[0] := local_id_x;\n}}\n");
    let errs = run(&src, &sizes(&[32], &[1])).expect_err("inconsistent sizes");
    assert_eq!(errs[0].kind, ErrorKind::Unsupported);
}

#[test]
fn unsupported_input_is_a_diagnostic() {
    let rec = format!(
        "{HEAD}procedure f(i: int) {{\n  call f(i);\n}}\nprocedure {{:kernel}} k() {{\n  call f(local_id_x);\n}}\n"
    );
    let errs = run(&rec, &sizes(&[4], &[1])).expect_err("recursion");
    assert_eq!(errs[0].kind, ErrorKind::Unsupported);
    assert!(errs[0].message.contains("recursive"), "{}", errs[0].message);
    let opaque =
        format!("{HEAD}procedure g(i: int);\n  modifies A;\nprocedure {{:kernel}} k() {{\n  call g(local_id_x);\n}}\n");
    let errs = run(&opaque, &sizes(&[4], &[1])).expect_err("unknown accesses");
    assert_eq!(errs[0].kind, ErrorKind::Unsupported);
}

#[test]
fn kernel_programs_are_recognised() {
    let p = |s: &str| ivl::parser::parse_program(s).0;
    assert!(is_kernel_program(&p("procedure {:kernel} k() { }")));
    assert!(!is_kernel_program(&p("procedure k() { }")));
    // GPUVerify's output is already a two-thread program.
    let gv = "const {:local_id_x} local_id_x$1: bv32;\nconst {:local_id_x} local_id_x$2: bv32;\n\
              procedure {:kernel} k() { }";
    assert!(!is_kernel_program(&p(gv)));
}

#[test]
fn scalar_shared_variables() {
    // The checker currently asks for map-typed shared memory; the reduction itself handles
    // scalars (one location): seed 003 Fig. 2, benign writes to `g` and a race on `A`.
    let src = "var {:global} g: int;\nvar {:global} A: [int]int;\n\
               procedure {:kernel} fig2() {\n  g := 0;\n  A[local_id_x] := 0;\n  barrier;\n  \
               A[local_id_x] := 1;\n  if (A[local_id_x + 1] == 0) {\n    g := 1;\n  }\n  barrier;\n}\n";
    let (p, d) = ivl::parser::parse_program(src);
    assert!(d.is_empty());
    let p = ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(p));
    let vopts = VerifyOptions { jobs: 1, timeout_secs: Some(60), ..VerifyOptions::default() };
    let r = verify_kernel(&p, &sizes(&[16], &[1]), &vopts);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let file = SourceFile::new("k.kbpl", src);
    let errs: Vec<(ErrorKind, usize, Vec<usize>)> = r
        .impls
        .iter()
        .flat_map(|i| match &i.outcome {
            Outcome::Errors(ds) => ds.clone(),
            _ => vec![],
        })
        .map(|d| {
            (
                d.kind,
                file.line_col(d.primary.span.start).0,
                d.related.iter().map(|l| file.line_col(l.span.start).0).collect(),
            )
        })
        .collect();
    assert_eq!(errs, vec![(ErrorKind::Race, 8, vec![7])], "the write-read race on A, not g");
    let strict = KernelOptions { benign_tolerance: false, ..sizes(&[16], &[1]) };
    let r = verify_kernel(&p, &strict, &vopts);
    let n = r
        .impls
        .iter()
        .map(|i| match &i.outcome {
            Outcome::Errors(ds) => ds.len(),
            _ => 0,
        })
        .sum::<usize>();
    assert!(n >= 2, "strict: the writes to g race too");
}

#[test]
fn read_only_arrays_keep_their_values_across_barriers() {
    // OpenCL/misc/pass/misc11 of GPUVerify's suite: a precondition on a read-only array.
    let body = "  barrier;\n  assert A[local_id_x] == 0;\n  out[group_id_x * group_size_x + local_id_x] := A[0];\n";
    let src = format!("{HEAD}procedure {{:kernel}} k()\n  requires A[local_id_x] == 0;\n{{\n{body}}}\n");
    assert_eq!(verify(&src, &sizes(&[8], &[2])), vec![]);
    // `--abstraction adversarial` abstracts read-only arrays too.
    let adv = KernelOptions { abstraction: Abstraction::Adversarial, ..sizes(&[8], &[2]) };
    let e = verify(&src, &adv);
    assert_eq!(kinds(&e), vec![ErrorKind::Assertion], "{e:?}");
    assert_eq!(e[0].2, 7, "{e:?}");
    // One write anywhere (here to another element, before the barrier) and `A` is abstracted.
    let written = format!(
        "{HEAD}procedure {{:kernel}} k()\n  requires A[local_id_x] == 0;\n{{\n  A[local_id_x + 100] := 0;\n{body}}}\n"
    );
    assert_eq!(kinds(&verify(&written, &sizes(&[8], &[2]))), vec![ErrorKind::Assertion]);
}

#[test]
fn benign_read_write_and_write_read_pairs_need_modelled_values() {
    let eq = KernelOptions { abstraction: Abstraction::Equality, ..sizes(&[8], &[1]) };
    let strict = KernelOptions { benign_tolerance: false, ..eq.clone() };
    // Writing back the value read (benign_race_tests/pass/writeafterread).
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  var v: int;\n  v := A[0];\n  A[0] := v;\n}}\n");
    assert_eq!(verify(&src, &eq), vec![]);
    let r = races(&verify(&src, &strict));
    assert!(r.iter().any(|x| x.0.contains("read-write") && x.1 == 6 && x.2 == vec![5]), "{r:?}");
    // With adversarial reads the value read is arbitrary: the pair races.
    let r = races(&verify(&src, &sizes(&[8], &[1])));
    assert!(r.iter().any(|x| x.0.contains("read-write")), "{r:?}");
    // Another value (benign_race_tests/fail/writeafterread_addition).
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  var v: int;\n  v := A[0];\n  A[0] := v + 1;\n}}\n");
    let r = races(&verify(&src, &eq));
    assert!(r.iter().any(|x| x.0.contains("read-write") && x.1 == 6), "{r:?}");
    // Reading after every thread wrote the same value (multidimarrays/test5): the reader wrote
    // the element itself since; two different values race.
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  A[0] := 0;\n  x := A[0];\n}}\n");
    assert_eq!(verify(&src, &eq), vec![]);
    let r = races(&verify(&src, &strict));
    assert!(!r.is_empty() && r.iter().all(|x| x.0.contains("race on `A`")), "{r:?}");
    let src = format!("{HEAD}procedure {{:kernel}} k() {{\n  var x: int;\n  A[0] := local_id_x;\n  x := A[0];\n}}\n");
    let r = races(&verify(&src, &eq));
    assert!(!r.is_empty() && r.iter().all(|x| x.0.contains("race on `A`")), "{r:?}");
    // A write of the value already there, read by a thread that did not write.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k()\n  requires A[0] == 3;\n{{\n  var x: int;\n  if (local_id_x == 0) {{\n    A[0] := 3;\n  }}\n  x := A[0];\n}}\n"
    );
    assert_eq!(verify(&src, &eq), vec![]);
    let src = src.replace("A[0] := 3;", "A[0] := 4;");
    let r = races(&verify(&src, &eq));
    assert!(r.iter().any(|x| x.0.contains("write-read") && x.1 == 10 && x.2 == vec![8]), "{r:?}");
}

#[test]
fn same_value_writes_in_a_loop_are_benign() {
    // benign_race_tests/pass/writeinloop: the logged value survives the loop's iterations.
    let src = format!(
        "{HEAD}procedure {{:kernel}} k(n: int) {{\n  var i: int;\n  i := 0;\n  while (i < n) {{\n    A[0] := 42;\n    i := i + 1;\n  }}\n}}\n"
    );
    assert_eq!(verify(&src, &sizes(&[8], &[2])), vec![]);
    let r = races(&verify(&src.replace("A[0] := 42;", "A[0] := i;"), &sizes(&[8], &[2])));
    assert!(r.iter().any(|x| x.0.contains("write-write") && x.1 == 7), "{r:?}");
}

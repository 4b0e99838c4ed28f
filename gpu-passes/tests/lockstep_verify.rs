//! `kivl verify --lockstep N` (seed 000 §4.2, Definition 4.1): verdicts, error kinds and source
//! locations on small kernels — the paper's Fig. 1a (correct) and Fig. 1b (barrier divergence),
//! races of every kind, benign writes, barrier fences, assertion failures, and inputs that must
//! be refused.

use gpu_passes::driver::{verify_lockstep, verify_lockstep_with};
use gpu_passes::lockstep::RaceChecks;
use ivl::ast::Program;
use ivl::diag::{ErrorKind, SourceFile};
use vcgen::engine::{Outcome, ProgramResult, VerifyOptions};

fn parse(src: &str) -> Program {
    let (p, diags) = ivl::parser::parse_program(src);
    assert!(diags.is_empty(), "{diags:?}");
    p
}

fn opts() -> VerifyOptions {
    VerifyOptions { jobs: 1, timeout_secs: Some(120), ..VerifyOptions::default() }
}

/// Every error as (kind, message without a race's details, primary line, related lines).
fn errors(src: &str, r: &ProgramResult) -> Vec<(ErrorKind, String, usize, Vec<usize>)> {
    full_errors(src, r)
        .into_iter()
        .map(|(k, m, l, r)| (k, m.split(": this ").next().unwrap_or("").to_string(), l, r))
        .collect()
}

/// Every error as (kind, message, primary line, related lines).
fn full_errors(src: &str, r: &ProgramResult) -> Vec<(ErrorKind, String, usize, Vec<usize>)> {
    let file = SourceFile::new("k.kbpl", src);
    assert!(r.errors.is_empty(), "invalid: {:?}", r.errors);
    let mut out = Vec::new();
    for i in &r.impls {
        match &i.outcome {
            Outcome::Verified => {}
            Outcome::Errors(ds) => {
                for d in ds {
                    let related = d.related.iter().map(|l| file.line_col(l.span.start).0).collect();
                    out.push((d.kind, d.message.clone(), file.line_col(d.primary.span.start).0, related));
                }
            }
            Outcome::Inconclusive(m) => panic!("inconclusive: {m}"),
        }
    }
    out
}

fn verify(src: &str, n: usize) -> Vec<(ErrorKind, String, usize, Vec<usize>)> {
    errors(src, &verify_lockstep(&parse(src), n, &opts()))
}

fn fig3() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/fig3.kbpl")).unwrap()
}

#[test]
fn fig1a_scan_is_verified() {
    assert_eq!(verify(&fig3(), 2), vec![]);
    assert_eq!(verify(&fig3(), 3), vec![]);
    // Not vacuously: the end of the kernel is reachable, and a wrong claim there is found.
    let src = fig3()
        .replace("    assume offset >= TS;\n", "    assume offset >= TS;\n    assert offset == TS && sum[0] == 0;\n");
    let errs = verify(&src, 2);
    assert_eq!(errs.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>(), vec![(ErrorKind::Assertion, 45)], "{errs:?}");
    // A loop invariant of the user's (a leading assert of the header, as `while` lowers) carries over.
    let src = fig3()
        .replace("    offset := 1;\n    goto W, Wend;", "    offset := 1;\n    goto W;")
        .replace(
            "  W:\n    assume offset < TS;\n",
            "  W:\n    assert offset >= 1;\n    goto Wbody, Wend;\n  Wbody:\n    assume offset < TS;\n",
        )
        .replace("    offset := 2 * offset;\n    goto W, Wend;", "    offset := 2 * offset;\n    goto W;")
        .replace("    assume offset >= TS;\n", "    assume offset >= TS;\n    assert offset >= 1;\n");
    assert_eq!(verify(&src, 4), vec![]);
    let bad = src.replace("  W:\n    assert offset >= 1;", "  W:\n    assert offset >= 2;");
    assert_ne!(bad, src);
    assert_eq!(verify(&bad, 4).iter().map(|e| e.0).collect::<Vec<_>>(), vec![ErrorKind::InvariantEntry]);
}

#[test]
fn fig1a_without_first_barrier_races() {
    // Without B1, thread t reads sum[t - offset] while thread t - offset writes it.
    let src = fig3().replace("  B1:\n    barrier;\n", "  B1:\n");
    let errs = verify(&src, 2);
    assert!(!errs.is_empty());
    for (kind, msg, line, related) in &errs {
        assert_eq!(*kind, ErrorKind::Race);
        assert_eq!(msg, "possible read-write race on `sum`", "{errs:?}");
        assert_eq!((*line, related.as_slice()), (31, &[22][..]), "the write in I2, the read in I1");
    }
}

#[test]
fn fig1b_diverges() {
    // Fig. 1b: `while (offset <= tid)`: thread 0 never enters the loop, the others reach B1.
    let src = fig3()
        .replace("assume offset < TS;", "assume offset <= tid;")
        .replace("assume offset >= TS;", "assume offset > tid;")
        .replace("assume tid >= offset;", "assume true;")
        .replace("assume tid < offset;", "assume false;");
    let errs = verify(&src, 2);
    assert!(!errs.is_empty());
    assert_eq!(
        errs,
        vec![(
            ErrorKind::Divergence,
            "possible barrier divergence: not every thread reaches this barrier".into(),
            28,
            vec![]
        )],
        "B1's barrier"
    );
}

const HEAD: &str = "const {:local_id_x} tid: int;\nconst {:group_size_x} TS: int;\nvar {:group_shared} A: [int]int;\nvar {:global} G: [int]int;\nvar s: int;\nprocedure {:kernel} k();\n  modifies A, G, s;\n";

fn kernel(body: &str) -> String {
    format!("{HEAD}implementation {{:kernel}} k()\n{{\n  var x: int;\n{body}}}\n")
}

#[test]
fn write_read_race_between_statements() {
    let src = kernel("  A[tid] := 1;\n  x := A[tid + 1];\n");
    assert_eq!(verify(&src, 2), vec![(ErrorKind::Race, "possible write-read race on `A`".into(), 12, vec![11])]);
    // A barrier in between separates them.
    let src = kernel("  A[tid] := 1;\n  barrier;\n  x := A[tid + 1];\n");
    assert_eq!(verify(&src, 2), vec![]);
}

#[test]
fn race_reports_name_the_threads_and_the_element() {
    // Thread t (local id t of group 0) writes A[t]; thread 0 then reads A[1], thread 1's.
    let src = kernel("  A[tid] := 1;\n  x := A[tid + 1];\n");
    let errs = full_errors(&src, &verify_lockstep(&parse(&src), 2, &opts()));
    let msg = "possible write-read race on `A`: this read (thread 0 of group 0) and the write at the related \
               location (thread 1 of group 0) both access `A[1]`, with no barrier in between";
    assert_eq!(errs, vec![(ErrorKind::Race, msg.to_string(), 12, vec![11])]);
}

#[test]
fn write_write_races_and_benign_writes() {
    let src = kernel("  A[0] := tid;\n");
    let errs = verify(&src, 2);
    assert!(
        !errs.is_empty() && errs.iter().all(|e| e.0 == ErrorKind::Race && e.1.contains("write-write") && e.2 == 11),
        "{errs:?}"
    );
    // Same value: benign by default, a race without benign tolerance.
    for body in ["  A[0] := 7;\n", "  x := 1;\n  s := 1;\n"] {
        let src = kernel(body);
        assert_eq!(verify(&src, 3), vec![]);
        let strict = verify_lockstep_with(&parse(&src), 3, &opts(), RaceChecks { benign_tolerance: false });
        let errs = errors(&src, &strict);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(
            (errs[0].0, errs[0].1.as_str()),
            (
                ErrorKind::Race,
                if body.contains('A') {
                    "possible write-write race on `A`"
                } else {
                    "possible write-write race on `s`"
                }
            )
        );
    }
    // A thread that wrote two different values is not benign with one that wrote the same.
    let src = kernel("  if (tid == 0) { A[0] := 1; A[0] := 2; }\n  if (tid == 1) { A[0] := 2; }\n");
    let errs = verify(&src, 2);
    assert!(errs.iter().any(|e| e.0 == ErrorKind::Race && e.1.contains("write-write")), "{errs:?}");
}

#[test]
fn races_only_between_distinct_threads_on_the_same_location() {
    let src = kernel("  A[tid] := A[tid] + 1;\n  x := A[tid];\n  G[tid] := x;\n");
    assert_eq!(verify(&src, 4), vec![]);
}

#[test]
fn barrier_fences_only_its_memory() {
    // A is group-shared: a global-only barrier does not separate its accesses.
    let src = kernel("  A[tid] := 1;\n  barrier {:global};\n  x := A[1 - tid];\n");
    let errs = verify(&src, 2);
    assert!(errs.iter().any(|e| e.1 == "possible write-read race on `A`"), "{errs:?}");
    let src = kernel("  A[tid] := 1;\n  barrier {:local};\n  x := A[1 - tid];\n");
    assert_eq!(verify(&src, 2), vec![]);
    let src = kernel("  G[tid] := 1;\n  barrier {:local};\n  x := G[1 - tid];\n");
    assert!(!verify(&src, 2).is_empty());
}

#[test]
fn reads_in_untaken_guards_are_not_accesses() {
    // Thread 1 writes A[0]; thread 0 reads it only on a path it cannot take.
    let src = kernel("  if (tid == 1) { A[0] := 5; }\n  if (tid == 1 && A[0] == 5) { x := 1; }\n");
    assert_eq!(verify(&src, 2), vec![]);
    let src = kernel("  if (tid == 1) { A[0] := 5; }\n  if (A[0] == 5) { x := 1; }\n");
    let errs = verify(&src, 2);
    assert!(errs.iter().any(|e| e.1 == "possible write-read race on `A`" && e.2 == 12), "{errs:?}");
}

#[test]
fn divergence_in_a_conditional() {
    let src = kernel("  if (tid == 0) { barrier; }\n");
    let errs = verify(&src, 2);
    assert_eq!(errs.len(), 1);
    assert_eq!((errs[0].0, errs[0].2), (ErrorKind::Divergence, 11));
    // Uniform condition: no divergence.
    let src = kernel("  if (TS == 2) { barrier; }\n");
    assert_eq!(verify(&src, 2), vec![]);
}

#[test]
fn assertion_failure_in_one_thread() {
    let src = kernel("  assert tid < 3;\n");
    assert_eq!(verify(&src, 3), vec![]);
    let errs = verify(&src, 4);
    assert_eq!(errs.len(), 1);
    assert_eq!((errs[0].0, errs[0].2), (ErrorKind::Assertion, 11));
}

#[test]
fn inconsistent_group_size_is_refused() {
    let src = format!("axiom TS == 64;\n{}", kernel("  assert false;\n"));
    let r = verify_lockstep(&parse(&src), 2, &opts());
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert_eq!(r.errors[0].kind, ErrorKind::Unsupported);
    assert_eq!(r.exit_code(), 2);
}

#[test]
fn calls_are_inlined_or_replaced_by_their_contract() {
    // Calls are inlined as on the two-thread path: a callee's race is found in the kernel, a
    // bodiless callee's precondition is checked at the call.
    let src = format!("procedure g() modifies A; {{ A[tid] := 1; }}\n{}", kernel("  call g();\n  x := A[tid + 1];\n"));
    assert_eq!(verify(&src, 2).first().map(|e| e.0), Some(ErrorKind::Race));
    let src = format!(
        "procedure g() modifies A; {{ A[tid] := 1; }}\n{}",
        kernel("  call g();\n  barrier;\n  x := A[tid + 1];\n")
    );
    assert_eq!(verify(&src, 2), vec![]);
    let src = format!("procedure f(y: int); requires y > 0;\n{}", kernel("  call f(tid);\n"));
    assert_eq!(verify(&src, 2).first().map(|e| e.0), Some(ErrorKind::Precondition));
    let src = format!("procedure f(y: int); requires y >= 0;\n{}", kernel("  call f(tid);\n"));
    assert_eq!(verify(&src, 2), vec![]);
}

#[test]
fn unsupported_constructs_are_diagnosed() {
    // A procedure without a body that writes shared memory: its accesses cannot be checked.
    let src = format!("procedure f(); modifies A;\n{}", kernel("  call f();\n"));
    let r = verify_lockstep(&parse(&src), 2, &opts());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].kind, ErrorKind::Unsupported);
    let file = SourceFile::new("k", src.as_str());
    assert_eq!(file.line_col(r.errors[0].primary.span.start).0, 12);
    // A whole-map use of shared memory cannot be race-checked.
    let src = kernel("  assume A == A;\n");
    let r = verify_lockstep(&parse(&src), 2, &opts());
    assert_eq!(r.errors.first().map(|d| d.kind), Some(ErrorKind::Unsupported));
}

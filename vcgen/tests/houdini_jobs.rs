//! Houdini's result does not depend on the number of solver threads.
//!
//! With more threads than implementations and `split_vc`, the engine checks one implementation
//! on several solvers at once, each owning a share of its assertions (`vcgen::engine`); with
//! `portfolio`, solvers configured differently (`vcgen::solver::RACERS`) race on the whole VC.
//! Either way each refutation is shared as soon as it is found, without rounds, so the
//! checks differ from one solver's, but the greatest fixpoint Houdini computes is unique: the
//! assignment, the verdicts and the reported errors must be the same for every `--jobs`. Also
//! checked: Boogie's abort (a failing non-candidate assertion stops the search and is
//! reported, and the refutations of that round are not applied).

mod vc_common;

use ivl::diag::ErrorKind;
use vc_common::*;
use vcgen::engine::{ProgramResult, VerifyOptions};

/// How the threads share one implementation.
#[derive(Clone, Copy, Debug)]
enum Several {
    /// Not at all: threads take whole implementations.
    No,
    Split,
    Portfolio,
}

fn houdini_jobs(src: &str, jobs: usize) -> ProgramResult {
    houdini_opts(src, jobs, Several::No)
}

fn houdini_opts(src: &str, jobs: usize, several: Several) -> ProgramResult {
    let (split_vc, portfolio) = (matches!(several, Several::Split), matches!(several, Several::Portfolio));
    verify_with(src, &VerifyOptions { jobs, houdini: true, split_vc, portfolio, ..Default::default() })
}

/// What [`summary`] returns.
type Summary = (Vec<(String, bool)>, Vec<(String, &'static str)>, Vec<(String, ErrorKind, usize)>);

/// The assignment in candidate order, the verdicts and the error lines.
fn summary(src: &str, r: &ProgramResult) -> Summary {
    let h = r.houdini.as_ref().expect("houdini stats");
    let assignment = h.candidates.iter().map(|c| (c.to_string(), h.assignment[c])).collect();
    (assignment, verdicts(r), errors(src, r))
}

/// Houdini's rounds and solver checks, and every error message.
fn search(r: &ProgramResult) -> (usize, usize, Vec<String>) {
    let h = r.houdini.as_ref().expect("houdini stats");
    let messages = r
        .impls
        .iter()
        .flat_map(|i| match &i.outcome {
            vcgen::engine::Outcome::Errors(ds) => ds.iter().map(|d| d.message.clone()).collect(),
            other => vec![format!("{other:?}")],
        })
        .collect();
    (h.rounds, h.checks, messages)
}

fn assert_same_for_all_jobs(name: &str, src: &str) {
    let one = houdini_jobs(src, 1);
    let expected = summary(src, &one);
    for jobs in [2, 3, 4] {
        for several in [Several::No, Several::Split, Several::Portfolio] {
            let r = houdini_opts(src, jobs, several);
            assert_eq!(summary(src, &r), expected, "{name}: --jobs {jobs} ({several:?}) differs from --jobs 1");
            if matches!(several, Several::No) {
                // Threads that take whole implementations check each in its own Z3 context:
                // the same checks in the same rounds as on one thread.
                assert_eq!(search(&r), search(&one), "{name}: --jobs {jobs}: other Houdini checks than --jobs 1");
            }
        }
    }
}

/// Many candidates in one implementation (more than the error limit per round), some
/// depending on others: the shares refute different subsets per round.
fn many_candidates() -> String {
    let mut src = String::new();
    for k in 0..12 {
        src.push_str(&format!("const {{:existential true}} b{k}: bool;\n"));
    }
    src.push_str("procedure P(n: int)\n  requires n >= 0;\n{\n  var i: int;\n  i := 0;\n  while (i < n)\n");
    for k in 0..12 {
        // Kept: i >= 0, i <= n, and the even bounds i >= -k; refuted: i < k (k < 12) for odd k.
        let inv = if k % 2 == 0 { format!("i >= 0 - {k}") } else { format!("i < {k}") };
        src.push_str(&format!("    invariant b{k} ==> {inv};\n"));
    }
    src.push_str("  { i := i + 1; }\n  assert i >= 0;\n}\n");
    src
}

#[test]
fn same_result_on_one_and_several_threads() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/boogie");
    let mut cases: Vec<(String, String)> = std::fs::read_dir(root)
        .expect("tests/boogie")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("houdini")))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("read")))
        .collect();
    cases.sort();
    assert!(cases.len() >= 6, "the Houdini programs of tests/boogie");
    cases.push(("many_candidates".into(), many_candidates()));
    // Without candidates a race is one check per implementation, with other racers
    // (`vcgen::solver::race_position`): a correct program and its failing twin.
    let plain = "procedure P(x: int) returns (y: int)\n  ensures y > x;\n{\n  y := x + 1;\n  assert y != x;\n}\n";
    cases.push(("no_candidates".into(), plain.into()));
    let plain_bad =
        "procedure P(x: int) returns (y: int)\n  ensures y > x;\n{\n  y := x;\n  assert x > 0;\n  assert x > 1;\n}\n";
    cases.push(("no_candidates_bad".into(), plain_bad.into()));
    // The twins keep their verdicts on one thread, so the comparison below is not vacuous.
    assert_eq!(verdicts(&houdini_jobs(plain, 1)), vec![("P".into(), "verified")]);
    assert_eq!(verdicts(&houdini_jobs(plain_bad, 1)), vec![("P".into(), "errors")]);
    for (name, src) in &cases {
        assert_same_for_all_jobs(name, src);
    }
}

#[test]
fn many_candidates_reach_the_fixpoint_on_shares() {
    let src = many_candidates();
    for several in [Several::Split, Several::Portfolio] {
        let r = houdini_opts(&src, 2, several);
        let h = r.houdini.as_ref().unwrap();
        for k in 0..12 {
            assert_eq!(h.assignment[format!("b{k}").as_str()], k % 2 == 0, "b{k} ({several:?})");
        }
        assert_eq!(verdicts(&r), vec![("P".into(), "verified")]);
    }
}

#[test]
fn non_candidate_failure_stops_the_search() {
    // P's first check finds the failing `assert x > 0` (not a candidate) and refutes `b`: the
    // search stops, `b` keeps its value (Boogie: `b = True`), and the failure is reported.
    let src = "\
const {:existential true} b: bool;
procedure P(x: int) {
  assert x > 0;
  assert b ==> x > 5;
}
";
    for (jobs, several) in [(1, Several::No), (2, Several::No), (2, Several::Split), (2, Several::Portfolio)] {
        let r = houdini_opts(src, jobs, several);
        let h = r.houdini.as_ref().unwrap();
        assert!(h.stopped, "--jobs {jobs}: the search stopped");
        // Several units of one implementation (split or racing) do not wait for each other:
        // one may refute `b` before another reports the failure. The assignment at a stop
        // depends on the order of checks (in Boogie too); the error does not.
        if matches!(several, Several::No) {
            assert!(h.assignment["b"], "--jobs {jobs}");
        }
        assert_eq!(errors(src, &r), vec![("P".into(), ErrorKind::Assertion, 3)], "--jobs {jobs}");
    }
}

/// A chain of candidates whose refutations alternate between two disjoint shares (dealt by
/// candidate, in the order they are first asserted: b0, b2 in one, b1, b3 in the other): each
/// b(k+1) holds while b(k) is assumed, so the shares refute b0, b1, b2, b3 one after another,
/// each after the other share's refutation; b4 and b5 are kept. `tail` ends the procedure.
fn chain(tail: &str) -> String {
    let mut src = String::new();
    for k in 0..6 {
        src.push_str(&format!("const {{:existential true}} b{k}: bool;\n"));
    }
    src.push_str(
        "procedure P(n: int)\n  requires n >= 0;\n{\n  var i, j, k, m, p: int;\n  \
         i := 0; j := 0; k := 0; m := 0; p := 0;\n  while (i < n)\n    invariant b0 ==> j == i + 1;\n    \
         invariant b1 ==> k >= 0;\n    invariant b2 ==> m >= 0;\n    invariant b3 ==> p >= 0;\n    \
         invariant b4 ==> i >= 0;\n    invariant b5 ==> j >= 0;\n  \
         { p := m; m := k; k := j - i - 1; i := i + 1; j := j + 1; }\n",
    );
    src.push_str(tail);
    src.push_str("}\n");
    src
}

#[test]
fn disjoint_shares_reach_the_sequential_fixpoint() {
    let src = chain("  assert i >= 0;\n  assert j >= 0;\n");
    let kept = |r: &ProgramResult| {
        let h = r.houdini.as_ref().expect("houdini stats");
        h.candidates.iter().filter(|c| h.assignment[*c]).map(|c| c.to_string()).collect::<Vec<_>>()
    };
    let one = houdini_jobs(&src, 1);
    assert_eq!(kept(&one), vec!["b4", "b5"]);
    assert_eq!(verdicts(&one), vec![("P".into(), "verified")]);
    for jobs in [2, 3] {
        let r = houdini_opts(&src, jobs, Several::Split);
        assert_eq!(kept(&r), kept(&one), "--jobs {jobs} --split-vc");
        assert_eq!(verdicts(&r), verdicts(&one), "--jobs {jobs} --split-vc");
    }
    assert_same_for_all_jobs("chain", &src);
}

#[test]
fn disjoint_shares_enumerate_every_shares_failures() {
    // The correct twin is `disjoint_shares_reach_the_sequential_fixpoint`'s. Here both
    // assertions after the loop fail (n == 0): they are in different shares (unguarded
    // assertions are dealt in turn), and each share reports its own after the stop.
    let src = chain("  assert i >= 1;\n  assert j >= 1;\n");
    let one = houdini_jobs(&src, 1);
    let expected = vec![("P".into(), ErrorKind::Assertion, 20), ("P".into(), ErrorKind::Assertion, 21)];
    assert_eq!(errors(&src, &one), expected);
    for jobs in [2, 3] {
        let r = houdini_opts(&src, jobs, Several::Split);
        assert!(r.houdini.as_ref().unwrap().stopped, "--jobs {jobs}: the search stopped");
        assert_eq!(errors(&src, &r), expected, "--jobs {jobs} --split-vc");
    }
}

//! File tests for the sequential verifier: every `tests/boogie/*.bpl` carries the outcome
//! Boogie 2.4.1 gives it (`// expect: verified` or `// expect: errors N`, `// error-lines: …`,
//! optional `// args: …`; see tests/boogie/README.md), and `kivl verify` must give the same
//! verdict, the same number of errors, and errors on the same lines.

mod common;
use common::*;

#[test]
fn boogie_programs_give_boogies_outcomes() {
    let files = files("tests/boogie", "bpl");
    assert!(files.len() >= 40, "expected at least 40 Boogie test programs, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let expect = header(&text, "expect").unwrap_or_else(|| panic!("{name}: no `// expect:` header"));
        let extra: Vec<&str> = header(&text, "args").map(|a| a.split_whitespace().collect()).unwrap_or_default();
        let p = path.to_str().unwrap();
        let mut args = vec!["verify", "--format", "json", "--timeout", "30"];
        args.extend(extra.iter().copied());
        args.push(p);
        let run = kivl(&args);
        let got_lines: Vec<u64> = {
            let mut v: Vec<u64> = run.error_summary().iter().map(|(_, l)| *l).collect();
            v.sort();
            v
        };
        let problem = if expect == "verified" {
            (run.verdict() != "verified" || run.code != 0).then(|| {
                format!("expected verified, got {} (exit {}): {:?}", run.verdict(), run.code, run.error_summary())
            })
        } else if let Some(n) = expect.strip_prefix("errors") {
            let n: usize = n.trim().parse().unwrap_or_else(|_| panic!("{name}: bad expect header"));
            // `kivl-error-lines` records a deliberate difference from Boogie's choice of line
            // (see tests/boogie/README.md); otherwise kivl must name Boogie's lines.
            let lines = header(&text, "kivl-error-lines").or_else(|| header(&text, "error-lines"));
            let mut want = lines.map(|l| line_list(l.split('(').next().unwrap_or(""))).unwrap_or_default();
            want.sort();
            if run.verdict() != "errors" || run.code != 1 {
                Some(format!("expected {n} errors, got verdict {} (exit {}) {}", run.verdict(), run.code, run.stderr))
            } else if got_lines.len() != n || (!want.is_empty() && got_lines != want) {
                Some(format!("expected {n} errors on lines {want:?}, got {:?}", run.error_summary()))
            } else {
                None
            }
        } else {
            panic!("{name}: unknown expectation `{expect}`")
        };
        if let Some(p) = problem {
            failures.push(format!("{name}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} programs differ:\n{}", failures.len(), files.len(), failures.join("\n"));
}

/// Every failing twin must fail: a correct program and its `_fail` twin never both verify.
#[test]
fn every_boogie_program_has_a_twin() {
    let files = files("tests/boogie", "bpl");
    let names: std::collections::HashSet<String> =
        files.iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    for n in &names {
        let twin = match n.strip_suffix("_fail") {
            Some(base) => base.to_string(),
            None => format!("{n}_fail"),
        };
        assert!(names.contains(&twin), "{n} has no twin {twin}");
    }
}

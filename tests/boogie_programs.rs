//! File tests for the sequential verifier: every `tests/boogie/*.bpl` carries the outcome
//! Boogie 2.4.1 gives it (`//pass` or `//xfail: errors N`, `//error-lines: …`, optional
//! `//args: …`; tests/README.md and tests/boogie/README.md), and `kivl verify` must give the
//! same verdict, the same number of errors, and errors on the same lines.

mod common;
use common::*;

#[test]
fn boogie_programs_give_boogies_outcomes() {
    let files = files("tests/boogie", &["bpl"]);
    assert!(files.len() >= 40, "expected at least 40 Boogie test programs, found {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let (header, _) = Header::read(path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let p = path.to_str().unwrap();
        let mut args = vec!["verify", "--format", "json", "--timeout", "30"];
        args.extend(header.args.iter().map(String::as_str));
        args.push(p);
        let run = kivl(&args);
        let got_lines: Vec<u64> = {
            let mut v: Vec<u64> = run.error_summary().iter().map(|(_, l)| *l).collect();
            v.sort();
            v
        };
        let problem = match header.expect {
            Expect::Pass => (run.verdict() != "verified" || run.code != 0).then(|| {
                format!("expected verified, got {} (exit {}): {:?}", run.verdict(), run.code, run.error_summary())
            }),
            Expect::Errors(n) => {
                // `kivl-error-lines` records a deliberate difference from Boogie's choice of line
                // (see tests/boogie/README.md); otherwise kivl must name Boogie's lines.
                let lines = header.kivl_error_lines.as_ref().unwrap_or(&header.error_lines);
                let mut want: Vec<u64> = lines.iter().map(|&l| l as u64).collect();
                want.sort();
                if run.verdict() != "errors" || run.code != 1 {
                    Some(format!(
                        "expected {n} errors, got verdict {} (exit {}) {}",
                        run.verdict(),
                        run.code,
                        run.stderr
                    ))
                } else if got_lines.len() != n || (!want.is_empty() && got_lines != want) {
                    Some(format!("expected {n} errors on lines {want:?}, got {:?}", run.error_summary()))
                } else {
                    None
                }
            }
            Expect::Kind(k) => panic!("{name}: `//xfail: {k}`: a Boogie program expects `//xfail: errors N`"),
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
    let files = files("tests/boogie", &["bpl"]);
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

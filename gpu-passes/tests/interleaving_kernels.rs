//! The kernel corpus (`tests/kernels/*.kbpl`) under `kivl run`'s semantics: every `//xfail:KIND`
//! kernel whose bug shows with the concrete sizes of its `//args:` (tests/README.md) shows an error of that kind
//! within a bounded number of seeded runs (at the `//error-line:` when one is given), and no
//! `//pass` kernel ever shows an error.
//!
//! Kernels without concrete sizes (their verdict is about every size) are skipped, as are
//! kernels the front end rejects (that is the front end's test's business).

mod interleaving_common;
use gpu_passes::interleaving::{self as il, Interpreter, RunConfig, RunOutcome};
use std::path::PathBuf;
use test_support::Header;

struct Kernel {
    path: PathBuf,
    text: String,
    expect: Option<String>,
    error_line: Option<usize>,
    cfg: RunConfig,
}

fn corpus() -> Vec<Kernel> {
    let mut out = Vec::new();
    for path in test_support::files("tests/kernels", &["kbpl"]) {
        let (h, text) = Header::read(&path);
        let expect = h.kind().map(String::from);
        let args: Vec<&str> = h.args.iter().map(String::as_str).collect();
        // One error line is checked; a race's pair of lines is not.
        let error_line = match h.error_lines[..] {
            [line] => Some(line),
            _ => None,
        };
        let mut cfg = RunConfig { max_steps: 1_000_000, ..RunConfig::default() };
        let dims = |s: &str| s.split(',').map(|d| d.parse::<u64>().unwrap()).collect::<Vec<_>>();
        let mut i = 0;
        while i < args.len() {
            match args[i] {
                "--local-size" => cfg.local_size = Some(dims(args[i + 1])),
                "--num-groups" => cfg.num_groups = Some(dims(args[i + 1])),
                "--no-benign-tolerance" => {
                    cfg.benign_tolerance = false;
                    i += 1;
                    continue;
                }
                _ => {}
            }
            i += 2;
        }
        out.push(Kernel { path, text, expect, error_line, cfg });
    }
    out
}

fn prepare(text: &str) -> Option<Interpreter> {
    let (program, diags) = ivl::parser::parse_program(text);
    if !diags.is_empty() || !ivl::check::check_program(&program).is_empty() {
        return None;
    }
    Interpreter::new(&ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(program))).ok()
}

#[test]
fn corpus_kernels_behave_as_their_headers_say() {
    let kernels = corpus();
    let mut checked = 0;
    let mut problems = Vec::new();
    for k in &kernels {
        let name = k.path.file_name().unwrap().to_string_lossy().to_string();
        if k.cfg.local_size.is_none() {
            eprintln!("skip {name}: no concrete sizes");
            continue;
        }
        let Some(interp) = prepare(&k.text) else {
            eprintln!("skip {name}: the front end rejects it");
            continue;
        };
        match &k.expect {
            None => {
                let s = il::run_many(&interp, &k.cfg, 15);
                if let Some((run, e)) = &s.error {
                    problems.push(format!(
                        "{name}: //pass kernel shows {} in run {run}: {}",
                        e.kind.as_str(),
                        e.diagnostic.message
                    ));
                } else if let Some(d) = &s.invalid {
                    eprintln!("skip {name}: {}", d[0].message);
                    continue;
                }
            }
            Some(kind) => {
                let mut found = None;
                let mut seen = Vec::new();
                for seed in 0..300 {
                    match interp.run(&RunConfig { seed, ..k.cfg.clone() }) {
                        RunOutcome::Error(e) if e.all().any(|e| e.kind.as_str() == kind) => {
                            found = e.all().find(|e| e.kind.as_str() == kind).cloned();
                            break;
                        }
                        RunOutcome::Error(e) => seen.push(e.kind.as_str()),
                        RunOutcome::Invalid(d) => {
                            seen.push("invalid");
                            eprintln!("{name}: {}", d[0].message);
                            break;
                        }
                        _ => {}
                    }
                }
                match found {
                    None => problems.push(format!("{name}: no {kind} in 300 runs (saw {seen:?})")),
                    Some(e) => {
                        if let Some(line) = k.error_line {
                            let d = &e.diagnostic;
                            let lines: Vec<usize> = std::iter::once(&d.primary)
                                .chain(&d.related)
                                .map(|l| interleaving_common::line_of(&k.text, l.span.start))
                                .collect();
                            if !lines.contains(&line) {
                                problems
                                    .push(format!("{name}: {kind} reported at lines {lines:?}, expected line {line}"));
                            }
                        }
                    }
                }
            }
        }
        checked += 1;
    }
    eprintln!("checked {checked} of {} kernels", kernels.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    if !kernels.is_empty() {
        assert!(checked * 2 >= kernels.len(), "only {checked} of {} kernels could be checked", kernels.len());
    }
}

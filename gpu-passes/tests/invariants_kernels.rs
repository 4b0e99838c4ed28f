//! The inference kernels `tests/kernels/infer_*.kbpl`: their verdicts hold in concrete runs
//! (the interleaving interpreter finds each buggy twin's bug, at its error line, and nothing in
//! the correct kernels), independently of any verifier.

mod invariants_common;

use gpu_passes::interleaving::{run_many, Interpreter, RunConfig};
use invariants_common::*;

fn infer_kernels() -> Vec<String> {
    corpus().into_iter().filter(|n| n.starts_with("infer_")).collect()
}

#[test]
fn infer_kernels_come_in_twins() {
    let names = infer_kernels();
    let correct: Vec<&String> = names.iter().filter(|n| header(n).0).collect();
    assert!(correct.len() >= 8, "{names:?}");
    for c in &correct {
        let twins: Vec<&String> = names.iter().filter(|n| n.starts_with(c.as_str()) && *n != *c).collect();
        assert_eq!(twins.len(), 1, "{c} has twins {twins:?}");
        assert!(!header(twins[0]).0, "{} is a buggy twin", twins[0]);
    }
}

#[test]
fn infer_kernel_verdicts_hold_in_concrete_runs() {
    for name in infer_kernels() {
        let (h, text) = read_header(&name);
        let (pass, args) = (h.passes(), h.args_line());
        let kopts = kernel_options(&args);
        let p = load(&name);
        let interp = Interpreter::new(&p).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        let cfg = RunConfig {
            local_size: kopts.local_size.clone(),
            num_groups: kopts.num_groups.clone(),
            max_steps: 2_000_000,
            ..RunConfig::default()
        };
        let summary = run_many(&interp, &cfg, if pass { 30 } else { 200 });
        assert!(summary.invalid.is_none() && summary.internal.is_none(), "{name}: {summary:?}");
        if pass {
            assert!(summary.error.is_none(), "{name}: {:?}", summary.error.map(|e| e.1.diagnostic));
            assert!(summary.completed > 0, "{name}: no run completed: {summary:?}");
            continue;
        }
        let kind = h.kind().expect("an xfail kernel").to_string();
        let line = h.error_lines[0];
        let (_, err) = summary.error.unwrap_or_else(|| panic!("{name}: no run shows the bug"));
        let file = ivl::diag::SourceFile::new(name.clone(), text.clone());
        let found = err.all().any(|e| {
            let lines: Vec<usize> = std::iter::once(&e.diagnostic.primary)
                .chain(&e.diagnostic.related)
                .map(|l| file.line_col(l.span.start).0)
                .collect();
            e.kind.as_str() == kind && lines.contains(&line)
        });
        assert!(found, "{name}: expected {kind} at line {line}, got {:?}", err.diagnostic);
    }
}

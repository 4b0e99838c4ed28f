//! Issue 6's measure: the correct loop kernels of `tests/kernels/` verify with automatic
//! invariants alone (their own loop invariants removed), and every buggy twin still fails.

mod invariants_common;

use gpu_passes::driver::verify_with_inference;
use gpu_passes::invariants::*;
use invariants_common::*;

/// A tool, not a test: `KIVL_KERNEL=name [KIVL_REPORT=1] cargo test --test invariants_corpus
/// explain_one -- --ignored --nocapture` verifies one kernel (its loop invariants removed when
/// it is correct) and prints the verdict and the inference report.
#[test]
#[ignore]
fn explain_one() {
    let Ok(name) = std::env::var("KIVL_KERNEL") else {
        return;
    };
    let (pass, args) = header(&name);
    let p = load(&name);
    let p = if pass { strip_loop_invariants(&p) } else { p };
    let t = std::time::Instant::now();
    let (r, rep) = verify_with_inference(&p, &kernel_options(&args), &verify_options(), true);
    let h = r.houdini.as_ref().map(|h| (h.candidates.len(), h.kept));
    println!("{name}: pass={pass} verified={} {:?} houdini={h:?} {}", verified(&r), t.elapsed(), describe(&r));
    let mut rep = rep.unwrap();
    let path = kernels_dir().join(format!("{name}.kbpl"));
    rep.set_source(&ivl::diag::SourceFile::new("k", std::fs::read_to_string(path).unwrap()));
    if std::env::var("KIVL_REPORT").is_ok() {
        println!("{}", infer_info_text(&rep));
    }
}

/// Every kernel of the corpus with loops, with its header.
fn loop_kernels() -> Vec<(String, bool, String)> {
    corpus()
        .into_iter()
        .filter_map(|name| {
            let (pass, args) = header(&name);
            match try_load(&name) {
                Ok(p) => has_loops(&p).then_some((name, pass, args)),
                Err(e) => {
                    println!("{name}: does not check, skipped: {e}");
                    None
                }
            }
        })
        .collect()
}

#[test]
fn correct_loop_kernels_verify_without_their_invariants() {
    let mut verified_n = 0;
    let mut failed = Vec::new();
    let kernels: Vec<_> = loop_kernels().into_iter().filter(|(_, pass, _)| *pass).collect();
    for (name, _, args) in &kernels {
        let p = strip_loop_invariants(&load(name));
        let t = std::time::Instant::now();
        let (r, _) = verify_with_inference(&p, &kernel_options(args), &verify_options(), false);
        let ok = verified(&r);
        println!("{name:<40} {:<9} {:>8.2?} {}", if ok { "verified" } else { "FAILED" }, t.elapsed(), describe(&r));
        if ok {
            verified_n += 1;
        } else {
            failed.push(name.clone());
        }
    }
    let pct = 100.0 * verified_n as f64 / kernels.len() as f64;
    println!(
        "{verified_n}/{} correct loop kernels verify with inferred invariants only ({pct:.1}%); failing: {failed:?}",
        kernels.len()
    );
    assert!(pct >= 90.0, "only {pct:.1}% verify; failing: {failed:?}");
}

/// Whether the result reports an error of `kind` located at `line` (a race: at both lines).
fn reports(r: &vcgen::engine::ProgramResult, file: &ivl::diag::SourceFile, kind: &str, lines: &[usize]) -> bool {
    r.impls.iter().any(|i| match &i.outcome {
        vcgen::engine::Outcome::Errors(ds) => ds.iter().any(|d| {
            let at: Vec<usize> =
                std::iter::once(&d.primary).chain(&d.related).map(|l| file.line_col(l.span.start).0).collect();
            d.kind.as_str() == kind && lines.iter().all(|l| at.contains(l))
        }),
        _ => false,
    })
}

#[test]
fn buggy_twins_still_fail_with_inference() {
    let mut wrongly = Vec::new();
    for (name, pass, args) in loop_kernels() {
        if pass {
            continue;
        }
        let (h, text) = read_header(&name);
        let file = ivl::diag::SourceFile::new(name.clone(), text.clone());
        let kind = h.kind().expect("an xfail kernel").to_string();
        let lines = h.error_lines;
        let original = load(&name);
        let mut variants = vec![("as written", original.clone())];
        // A race or divergence is in the code, not in the invariants: it must show without them.
        if kind == "race" || kind == "divergence" {
            variants.push(("invariants removed", strip_loop_invariants(&original)));
        }
        for (how, p) in variants {
            let (r, _) = verify_with_inference(&p, &kernel_options(&args), &verify_options(), false);
            let found = reports(&r, &file, &kind, &lines);
            println!("{name:<40} {how:<20} {}", if found { "fails as expected" } else { "WRONG" });
            if verified(&r) {
                wrongly.push(format!("{name} ({how}): verified"));
            } else if !found {
                wrongly.push(format!("{name} ({how}): no {kind} at {lines:?}: {}", describe(&r)));
            }
        }
    }
    assert!(wrongly.is_empty(), "buggy kernels not reported with inference: {wrongly:#?}");
}

/// The vacuity check of the two-thread reduction (`assert false` under the kernel's axioms and
/// preconditions) works with inference too, and its expected failure does not stop Houdini
/// for the kernel itself: with sizes its axiom allows, the kernel verifies with inferred
/// invariants; with sizes its axiom contradicts, it is refused, never "verified".
#[test]
fn inference_keeps_the_vacuity_check_apart() {
    let text = "var {:group_shared} A: [int]int;
axiom group_size_x == 16 && group_size_y == 1 && group_size_z == 1;
procedure {:kernel} k()
{
  var i: int;
  i := local_id_x;
  while (i < 64) { A[i] := i; i := i + 16; }
}";
    let p = parse_checked(text);
    let run = |args: &str| verify_with_inference(&p, &kernel_options(args), &verify_options(), false).0;
    let ok = run("--local-size 16 --num-groups 2");
    assert!(verified(&ok), "{}", describe(&ok));
    let bad = run("--local-size 32");
    assert!(!verified(&bad));
    assert!(bad.errors.iter().any(|d| d.kind == ivl::diag::ErrorKind::Unsupported), "{}", describe(&bad));
}

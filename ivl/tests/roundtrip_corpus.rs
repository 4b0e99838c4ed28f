//! parse → print → parse on the real workload: every corpus file that parses must print as text
//! that parses back to the same tree (ignoring spans), and printing must be a fixed point.

use ivl::parser::parse_program;
use ivl::printer::print_program;
use ivl::visit::strip_spans;
use std::path::PathBuf;

/// Every `step`-th corpus file (sorted by path): the GPU corpus and Boogie's `test0`/`test1`,
/// or `None` when neither is there (`ivl::corpus`).
fn corpus_files(step: usize) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    if let Some(gpu) = ivl::corpus::gpu() {
        files.extend(ivl::corpus::bpl_files(&gpu.join("gpuverify")));
        files.extend(ivl::corpus::bpl_files(&gpu.join("other")));
    }
    if let Some(tests) = ivl::corpus::boogie_tests() {
        files.extend(ivl::corpus::bpl_files(&tests.join("test0")));
        files.extend(ivl::corpus::bpl_files(&tests.join("test1")));
    }
    files.sort();
    (!files.is_empty()).then(|| files.into_iter().step_by(step).collect())
}

/// A deterministic eighth of the corpus (a debug build parses the whole corpus twice in about
/// 75 s; the full run is `corpus_round_trips_all`).
#[test]
fn corpus_round_trips_sample() {
    if let Some(files) = corpus_files(8) {
        round_trip_files(&files, 100);
    }
}

/// The whole corpus: `cargo test -p ivl --release --test roundtrip_corpus -- --ignored`.
#[test]
#[ignore]
fn corpus_round_trips_all() {
    if let Some(files) = corpus_files(1) {
        round_trip_files(&files, 900);
    }
}

fn round_trip_files(files: &[PathBuf], min_parsed: usize) {
    let (mut parsed, mut skipped, mut failures) = (0, 0, Vec::new());
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let (mut p1, diags) = parse_program(&text);
        if !diags.is_empty() {
            skipped += 1;
            continue;
        }
        parsed += 1;
        let printed = print_program(&p1);
        let (mut p2, diags2) = parse_program(&printed);
        strip_spans(&mut p1);
        strip_spans(&mut p2);
        if !diags2.is_empty() {
            failures.push(format!("{}: printed text does not parse: {:?}", f.display(), diags2[0]));
        } else if p1 != p2 {
            let which = p1.decls.iter().zip(&p2.decls).position(|(a, b)| a != b);
            failures.push(format!("{}: tree differs (declaration {:?})", f.display(), which));
        } else if print_program(&p2) != printed {
            failures.push(format!("{}: printing is not a fixed point", f.display()));
        }
    }
    eprintln!(
        "round trip: {} files, {parsed} parsed, {skipped} skipped (parse errors), {} failures",
        files.len(),
        failures.len()
    );
    assert!(parsed >= min_parsed, "expected most of the corpus to parse, got {parsed}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

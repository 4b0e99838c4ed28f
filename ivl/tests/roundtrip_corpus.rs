//! parse → print → parse on the real workload: every corpus file that parses must print as text
//! that parses back to the same tree (ignoring spans), and printing must be a fixed point.

use ivl::parser::parse_program;
use ivl::printer::print_program;
use ivl::visit::strip_spans;
use std::path::{Path, PathBuf};

const DIRS: [&str; 4] = [
    "/work/corpus/gpu/gpuverify",
    "/work/corpus/gpu/other",
    "/work/corpus/boogie/Test/test0",
    "/work/corpus/boogie/Test/test1",
];

fn bpl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            bpl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "bpl" || x == "kbpl") {
            out.push(p);
        }
    }
}

/// Every `step`-th corpus file (sorted by path), or `None` without a corpus.
fn corpus_files(step: usize) -> Option<Vec<PathBuf>> {
    if !Path::new("/work/corpus").exists() {
        eprintln!("skipped: /work/corpus does not exist");
        return None;
    }
    let mut files = Vec::new();
    for d in DIRS {
        bpl_files(Path::new(d), &mut files);
    }
    files.sort();
    Some(files.into_iter().step_by(step).collect())
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

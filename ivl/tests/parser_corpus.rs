//! The real workload: every GPUVerify-generated file of the corpus (`KIVL_CORPUS`, `ivl::corpus`) parses without a
//! diagnostic, with declarations matching the splitter's; Boogie's own parser tests
//! (`Test/test0`, `Test/test1`) get syntax errors exactly where Boogie 2.4.1 reports parse
//! errors, apart from the listed constructs of later Boogie versions. Skipped (with a message)
//! when the corpus is absent, as on CI.

use ivl::diag::{ErrorKind, SourceFile};
use ivl::parser::parse_program;
use ivl::split::split_decls;
use std::path::PathBuf;

#[test]
fn every_gpu_corpus_file_parses_cleanly() {
    let Some(root) = ivl::corpus::gpu() else { return };
    let mut files = ivl::corpus::bpl_files(&root.join("gpuverify"));
    files.extend(ivl::corpus::bpl_files(&root.join("other")));
    assert!(files.len() >= 1000, "only {} files", files.len());
    // Two threads: the machine has two cores, and each thread builds its own parser.
    let (a, b) = files.split_at(files.len() / 2);
    let check = |files: &[PathBuf]| -> Vec<String> {
        let mut failures = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(f).expect("readable");
            let (p, diags) = parse_program(&text);
            if let Some(d) = diags.first() {
                let (l, c) = SourceFile::new("", text.as_str()).line_col(d.primary.span.start);
                failures.push(format!("{}:{l}:{c}: {}", f.display(), d.message));
            } else if p.decls.len() != split_decls(&text).len() {
                failures.push(format!("{}: declarations and chunks differ", f.display()));
            }
        }
        failures
    };
    let (fa, fb) = std::thread::scope(|s| {
        let ha = s.spawn(|| check(a));
        let hb = s.spawn(|| check(b));
        (ha.join().unwrap(), hb.join().unwrap())
    });
    let failures: Vec<_> = fa.into_iter().chain(fb).collect();
    assert!(failures.is_empty(), "{} files fail:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{} corpus files parsed", files.len());
}

/// Boogie tests whose outcome differs from Boogie 2.4.1's parser, and why.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    ("test0/LineResolve.bpl", "`#line` pragmas are not supported (a syntax error here)"),
    ("test0/SeparateVerification0.bpl", "`#if` preprocessing is not supported"),
    ("test0/Pure.bpl", "`pure procedure` (a later Boogie)"),
    ("test1/Pure.bpl", "`pure procedure` (a later Boogie)"),
    ("test0/BadLabels1.bpl", "Boogie checks labels while parsing; kivl resolves them later"),
    ("test0/Triggers0.bpl", "Boogie checks `{:nopats}` arguments while parsing; kivl keeps the attribute"),
];

#[test]
fn boogie_parser_tests_agree_with_boogie() {
    let Some(root) = ivl::corpus::boogie_tests() else { return };
    let mut files = Vec::new();
    for dir in ["test0", "test1"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        files.extend(rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "bpl")));
    }
    files.sort();
    assert!(files.len() > 50);
    let mut mismatches = Vec::new();
    let mut with_errors = 0;
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(f).expect("readable");
        let expect = std::fs::read_to_string(format!("{}.expect", f.display())).unwrap_or_default();
        let boogie_parse_error = expect.contains("parse errors detected");
        let (_, diags) = parse_program(&text);
        let ours = diags.iter().any(|d| d.kind == ErrorKind::Syntax || d.kind == ErrorKind::Unsupported);
        with_errors += ours as usize;
        let known = KNOWN_DIFFERENCES.iter().any(|(k, _)| *k == rel);
        if (ours != boogie_parse_error) != known {
            mismatches.push(format!("{rel}: boogie parse errors: {boogie_parse_error}, ours: {diags:?}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(with_errors >= 10);
}

#[test]
fn boogie_error_locations_match() {
    // Boogie's `.expect` files give (line, column) of the errors; for these ones kivl reports
    // the same lines.
    let Some(tests) = ivl::corpus::boogie_tests() else { return };
    let root = tests.join("test0");
    for (file, lines) in [
        ("AttributeParsingErr.bpl", &[3, 5, 7, 9, 11, 13, 15, 17, 22][..]),
        ("WhereParsing.bpl", &[16, 17]),
        ("WhereParsing0.bpl", &[19, 20]),
        ("WhereParsing1.bpl", &[16]),
        ("WhereParsing2.bpl", &[3]),
        ("BadQuantifier.bpl", &[5]),
        ("Types0.bpl", &[8, 8]),
    ] {
        let text = std::fs::read_to_string(root.join(file)).expect("readable");
        let src = SourceFile::new(file, text.as_str());
        let (_, diags) = parse_program(&text);
        let ours: Vec<usize> = diags.iter().map(|d| src.line_col(d.primary.span.start).0).collect();
        assert_eq!(ours, lines, "{file}: {diags:?}");
    }
}

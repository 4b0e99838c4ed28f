//! The incremental database reports exactly what the batch front end reports
//! (`parse_program` then `check_program`), on a sample of the corpus — including the files with
//! syntax and type errors.

use ivl::check::check_program;
use ivl::db::{file_diagnostics, file_program, Database};
use ivl::diag::Diagnostic;
use ivl::parser::parse_program;

fn normalized(mut ds: Vec<Diagnostic>) -> Vec<Diagnostic> {
    ds.sort_by(|a, b| {
        (a.primary.span.start, a.primary.span.end, &a.message).cmp(&(
            b.primary.span.start,
            b.primary.span.end,
            &b.message,
        ))
    });
    ds.dedup();
    ds
}

#[test]
fn database_agrees_with_batch_front_end() {
    // Boogie's own front-end tests give the files with diagnostics this test needs.
    let Some(tests) = ivl::corpus::boogie_tests() else { return };
    let mut all = ivl::corpus::bpl_files(&tests.join("test0"));
    all.extend(ivl::corpus::bpl_files(&tests.join("test1")));
    if let Some(gpu) = ivl::corpus::gpu() {
        all.extend(ivl::corpus::bpl_files(&gpu).into_iter().step_by(25));
    }
    let db = Database::new();
    let (mut with_errors, mut compared) = (0, 0);
    for f in &all {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let (program, mut batch) = parse_program(&text);
        batch.extend(check_program(&program));
        let file = db.add_file(f.display().to_string(), text);
        let incremental = file_diagnostics(&db, file).clone();
        assert_eq!(normalized(batch.clone()), normalized(incremental), "{}", f.display());
        assert_eq!(**file_program(&db, file), program, "{}: file_program differs from parse_program", f.display());
        with_errors += !batch.is_empty() as usize;
        compared += 1;
    }
    eprintln!("compared {compared} files, {with_errors} with diagnostics");
    assert!(compared > 90 && with_errors > 10);
}

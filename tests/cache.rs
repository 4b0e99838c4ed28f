//! `kivl verify --cache DIR`: run twice over the kernel suite, the second run makes no solver
//! call and prints the same reports; a changed file or option is verified again.

mod common;
use common::*;
use std::collections::BTreeMap;

/// `kivl verify --cache DIR --format json ARGS FILES…`: the reports and the solver checks made.
fn run(dir: &std::path::Path, args: &str, files: &[String]) -> (serde_json::Value, u64) {
    let mut argv: Vec<&str> = vec!["verify", "--cache", dir.to_str().unwrap(), "--format", "json"];
    argv.extend(args.split_whitespace());
    argv.extend(files.iter().map(String::as_str));
    let r = kivl(&argv);
    assert!(r.json.is_object(), "no JSON for {args} {files:?}: {}", r.stderr);
    let mut files = r.json["files"].clone();
    // A file's wall-clock time is this run's, cached or not.
    files
        .as_array_mut()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_object_mut())
        .for_each(|f| drop(f.remove("time_ms")));
    (files, r.json["solver_checks"].as_u64().expect("solver_checks"))
}

#[test]
fn a_second_run_over_the_kernel_suite_does_no_solver_work() {
    let dir = std::env::temp_dir().join(format!("kivl-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // One run per set of header arguments (`//args:`, tests/README.md).
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in files("tests/kernels", &["kbpl"]) {
        let args = Header::read(&f).0.args_line();
        groups.entry(args).or_default().push(f.to_string_lossy().into_owned());
    }
    let (mut first_checks, mut second_checks) = (0, 0);
    for (args, files) in &groups {
        let (first, n1) = run(&dir, args, files);
        let (second, n2) = run(&dir, args, files);
        first_checks += n1;
        second_checks += n2;
        assert_eq!(first, second, "different reports from the cache for {args}");
    }
    assert!(first_checks > 0, "the first run made no solver call");
    assert_eq!(second_checks, 0, "the second run called the solver");

    // A changed file, or another option, is verified afresh.
    let file = dir.join("changed.kbpl");
    std::fs::write(&file, "procedure P() { assert 1 + 1 == 2; }\n").unwrap();
    let one = vec![file.to_string_lossy().into_owned()];
    assert!(run(&dir, "", &one).1 > 0);
    assert_eq!(run(&dir, "", &one).1, 0);
    assert!(run(&dir, "--error-limit 2", &one).1 > 0, "another option must miss the cache");
    std::fs::write(&file, "procedure P() { assert 1 + 1 == 3; }\n").unwrap();
    let (changed, n) = run(&dir, "", &one);
    assert!(n > 0);
    assert_eq!(changed[0]["verdict"], "errors");
    std::fs::remove_dir_all(&dir).ok();
}

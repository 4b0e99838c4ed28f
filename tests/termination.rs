//! `kivl verify --termination` (seed 004) on real kernels:
//! - `tests/termination/*.kbpl`: loops that terminate (`//pass`) and their non-terminating twins
//!   (`//xfail:termination`, with the loop's line as `//error-line:`; tests/README.md): counters that jump over or
//!   move away from their bound, shifts to a zero that stays, bit-vector wrap-around, exits that
//!   depend on shared memory, a stuck outer loop, a callee that spins;
//! - every kernel of `tests/kernels/` terminates and must be proven to, automatically.

mod common;
use common::*;
use std::path::Path;

/// `kivl verify --format json` with the arguments of the file's header.
fn verify(file: &Path, extra: &[&str]) -> Run {
    let (header, _) = Header::read(file);
    let mut args: Vec<&str> = vec!["verify", "--format", "json"];
    args.extend(extra);
    args.extend(header.args.iter().map(String::as_str));
    let path = file.to_str().expect("a UTF-8 path");
    args.push(path);
    kivl(&args)
}

/// `kivl ARGS tests/termination/FILE`: exit status and stdout, as people see it.
fn human(args: &[&str], file: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(args)
        .arg(repo_dir(&format!("tests/termination/{file}")))
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn termination_status(run: &Run) -> String {
    run.file()["termination"]["status"].as_str().unwrap_or("absent").to_string()
}

#[test]
fn terminating_loops_are_proven_and_their_twins_are_not() {
    let files = files("tests/termination", &["kbpl"]);
    assert!(files.len() >= 30, "the termination kernels are missing");
    let mut wrong = Vec::new();
    let mut non_terminating = 0;
    for f in &files {
        let (header, _) = Header::read(f);
        let run = verify(f, &[]);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if header.passes() {
            if run.code != 0 || termination_status(&run) != "proven" {
                wrong.push(format!("{name}: expected proven, got exit {} {:?}", run.code, run.error_summary()));
            }
            continue;
        }
        assert_eq!(header.kind(), Some("termination"), "{name}: unknown header");
        non_terminating += 1;
        let [line] = header.error_lines[..] else { panic!("{name}: one error line expected") };
        let line = line as u64;
        let at_line = run.error_summary().contains(&("termination".to_string(), line));
        if run.code != 1 || termination_status(&run) != "not proven" || !at_line {
            wrong.push(format!(
                "{name}: expected a termination error at line {line}, got exit {} {} {:?}",
                run.code,
                termination_status(&run),
                run.error_summary()
            ));
        }
    }
    assert!(non_terminating >= 15, "only {non_terminating} non-terminating kernels");
    assert!(wrong.is_empty(), "wrong termination verdicts:\n{}", wrong.join("\n"));
}

/// Every kernel of the verdict corpus terminates (race and divergence verdicts aside).
#[test]
fn every_corpus_kernel_is_proven_terminating() {
    let files = files("tests/kernels", &["kbpl"]);
    let statuses = par_map(&files, |f| termination_status(&verify(f, &["--termination", "--only-divergence"])));
    let unproven: Vec<String> = files
        .iter()
        .zip(statuses)
        .filter(|(_, status)| status != "proven")
        .map(|(f, status)| format!("{}: {status}", f.display()))
        .collect();
    assert!(unproven.is_empty(), "corpus kernels not proven terminating:\n{}", unproven.join("\n"));
}

#[test]
fn emit_termination_prints_a_program_that_checks_again() {
    let (code, text) = human(&["transform", "--emit", "termination"], "nested.kbpl");
    assert_eq!(code, Some(0));
    // Two loops, each with a ranking check on its back edge, and no barrier or kernel left.
    assert_eq!(text.matches("$ranked0:").count(), 2, "{text}");
    assert!(!text.contains("{:kernel}"));
    let dir = std::env::temp_dir().join(format!("kivl-termination-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nested.bpl");
    std::fs::write(&file, &text).unwrap();
    let check = kivl(&["check", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{:?}", check.error_summary());
    // As a plain Boogie program with Houdini, the kept ranking checks verify.
    let run = kivl(&["verify", "--houdini", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{:?}", run.error_summary());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_the_flag_termination_is_not_checked() {
    let run = verify(&repo_dir("tests/termination/wrong_direction.kbpl"), &[]);
    assert_eq!(run.code, 1);
    // The header asks for `--termination`; without the header's arguments:
    let file = repo_dir("tests/termination/wrong_direction.kbpl");
    let run = kivl(&["verify", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{:?}", run.error_summary());
    assert_eq!(termination_status(&run), "absent");
}

/// `--replay` runs a loop that was not proven: a run that exceeds the step limit is shown.
#[test]
fn replay_shows_a_run_that_does_not_finish() {
    let (code, text) = human(&["verify", "--termination", "--replay"], "wrong_direction.kbpl");
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("did not finish") && text.contains("consistent with a loop that never ends"), "{text}");
}

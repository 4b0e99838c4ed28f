//! Bad input and usage at the command line (issue 16, parts 3 and 5): every one exits 2 with
//! a diagnostic of the right kind, at the right place, in both output formats, and the closing
//! line counts invalid files apart. Each test is the reproduction of a report.

// Shared by several test files, each using a part of it (`common` allows dead code itself).
mod common;
use common::*;

/// A file of `bytes` in a directory of this test process.
fn temp_bytes(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kivl-cli-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A human-format run: exit status and standard output (standard error is checked apart).
fn human(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kivl")).args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// `(kind, line, column)` of the first error's first location.
fn first_location(run: &Run) -> (String, u64, u64) {
    let e = &run.errors()[0];
    let at = &e["locations"][0];
    (e["kind"].as_str().unwrap().to_string(), at["line"].as_u64().unwrap(), at["column"].as_u64().unwrap())
}

/// The closing line's counts in the JSON output.
fn json_counts(run: &Run) -> [u64; 4] {
    ["verified", "errors", "inconclusive", "invalid"].map(|k| run.json["counts"][k].as_u64().unwrap())
}

#[test]
fn a_byte_that_is_not_utf8_is_a_located_syntax_error_in_both_formats() {
    // It used to panic inside ariadne (exit 4): the span was the byte's offset in the file,
    // shown over a text where that byte had become the three bytes of U+FFFD.
    let p = temp_bytes("latin1.bpl", b"procedure P() { assert true; }\n// caf\xe9\n");
    let p = p.to_str().unwrap();
    for cmd in ["check", "verify"] {
        let run = kivl(&[cmd, "--format", "json", p]);
        assert_eq!((run.code, run.verdict()), (2, "invalid"), "{cmd}: {}", run.stderr);
        assert_eq!(first_location(&run), ("syntax".to_string(), 2, 7), "{cmd}: line 2, the column of the byte");
        assert!(run.errors()[0]["message"].as_str().unwrap().contains("not valid UTF-8"));
        let (code, out, err) = human(&[cmd, p]);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(out.contains("[syntax] Error: the file is not valid UTF-8: byte 0xE9"), "{out}");
        assert!(out.contains("latin1.bpl:2:7"), "file:line:column of the byte:\n{out}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(closing_line(&["verify", p]), "kivl finished with 0 verified, 0 errors, 1 invalid");
}

#[test]
fn columns_of_bad_bytes_count_characters_and_a_cut_sequence_at_the_end_is_found() {
    // After a two-byte `é` the bad byte is the fifth character of its line.
    let p = temp_bytes("after_e.bpl", b"procedure P() { }\n// \xc3\xa9\xff\n");
    let run = kivl(&["check", "--format", "json", p.to_str().unwrap()]);
    assert_eq!((run.code, first_location(&run)), (2, ("syntax".to_string(), 2, 5)));
    // The first two bytes of a three-byte `€` and then the end of the file.
    let p = temp_bytes("cut.bpl", b"procedure P() { }\n\xe2\x82");
    let run = kivl(&["check", "--format", "json", p.to_str().unwrap()]);
    assert_eq!((run.code, first_location(&run)), (2, ("syntax".to_string(), 2, 1)));
    let (code, out, err) = human(&["check", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("byte 0xE2") && out.contains("cut.bpl:2:1"), "{out}");
}

/// A kernel with irreducible control flow: the cycle B <-> C has two entries.
const IRREDUCIBLE: &str = "var {:group_shared} A: [int]int;\n\nprocedure {:kernel} K()\n{\n  var b: bool;\n  \
                           A0: goto B, C;\n  B: goto C;\n  C: goto B;\n}\n";

#[test]
fn irreducible_control_flow_is_invalid_input() {
    let p = temp_bytes("irreducible.kbpl", IRREDUCIBLE.as_bytes());
    let p = p.to_str().unwrap();
    let run = kivl(&["verify", "--format", "json", p]);
    assert_eq!((run.code, run.verdict()), (2, "invalid"), "{:?}", run.error_summary());
    assert_eq!(run.error_summary(), vec![("unsupported".to_string(), 7)]);
    assert!(run.errors()[0]["message"].as_str().unwrap().starts_with("irreducible control flow"));
    assert_eq!(json_counts(&run), [0, 0, 0, 1]);
    let (code, out, _) = human(&["verify", p]);
    assert_eq!(code, 2);
    assert!(out.contains("[unsupported] Error: irreducible control flow"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "kivl finished with 0 verified, 0 errors, 1 invalid");
}

#[test]
fn sizes_that_contradict_the_axioms_are_invalid_input_and_printed_as_given() {
    // reduce.kbpl fixes `group_size_y == 1`; `--local-size 8,8` says 8.
    let p = repo_dir("examples/reduce.kbpl");
    let p = p.to_str().unwrap();
    let run = kivl(&["verify", "--format", "json", "--local-size", "8,8", p]);
    assert_eq!((run.code, run.verdict()), (2, "invalid"), "{:?}", run.error_summary());
    assert_eq!(run.error_summary(), vec![("unsupported".to_string(), 9)]);
    let message = run.errors()[0]["message"].as_str().unwrap();
    assert!(message.ends_with("(--local-size 8,8)"), "{message}");
    // The kernel's implementations verify vacuously: not counted as verified.
    assert_eq!(json_counts(&run), [0, 0, 0, 1]);
    assert_eq!(run.file()["verified"], 0);
    let run = kivl(&["verify", "--format", "json", "--local-size", "8,8", "--num-groups", "2", p]);
    let message = run.errors()[0]["message"].as_str().unwrap();
    assert!(message.ends_with("(--local-size 8,8 --num-groups 2)"), "{message}");
    assert_eq!(
        closing_line(&["verify", "--local-size", "8,8", p]),
        "kivl finished with 0 verified, 0 errors, 1 invalid"
    );
}

#[test]
fn invalid_files_are_counted_apart_from_verified_and_failing_ones() {
    let ok = temp_bytes("count_ok.bpl", b"procedure P() { assert true; }\n");
    let bad = temp_bytes("count_bad.bpl", b"procedure P() { assert false; }\n");
    let broken = temp_bytes("count_broken.bpl", b"procedure P() { assert ; }\n");
    let files = [ok.to_str().unwrap(), bad.to_str().unwrap(), broken.to_str().unwrap()];
    let run = kivl(&[&["verify", "--format", "json"][..], &files].concat());
    assert_eq!(run.code, 2, "the worst file decides");
    assert_eq!(json_counts(&run), [1, 1, 0, 1]);
    let verdicts: Vec<&str> =
        run.json["files"].as_array().unwrap().iter().map(|f| f["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["verified", "errors", "invalid"]);
    assert_eq!(closing_line(&[&["verify"][..], &files].concat()), "kivl finished with 1 verified, 1 error, 1 invalid");
    // Without invalid files, the closing line is Boogie's, as before.
    assert_eq!(closing_line(&["verify", files[0], files[1]]), "kivl finished with 1 verified, 1 error");
}

#[test]
fn a_missing_file_or_a_directory_is_an_io_error_without_a_code_frame() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().unwrap();
    for (path, why) in [("/nonexistent/file.kbpl", "No such file"), (dir, "directory")] {
        for cmd in ["check", "verify"] {
            let run = kivl(&[cmd, "--format", "json", path]);
            assert_eq!((run.code, run.verdict()), (2, "invalid"), "{cmd} {path}");
            let e = &run.errors()[0];
            assert_eq!(e["kind"], "io");
            let message = e["message"].as_str().unwrap();
            assert!(message.starts_with(&format!("cannot read {path}: ")) && message.contains(why), "{message}");
            assert_eq!(e["locations"].as_array().unwrap().len(), 0, "a file that cannot be read has no locations");
            let (code, out, _) = human(&[cmd, path]);
            assert_eq!(code, 2);
            let first = out.lines().next().unwrap();
            assert!(first.starts_with(&format!("[io] Error: cannot read {path}: ")), "{out}");
            assert!(!out.contains('╭') && !out.contains('│'), "no code frame around an empty excerpt:\n{out}");
        }
    }
    let p = repo_dir("examples/reduce.kbpl");
    let run = kivl(&["run", "--format", "json", "--inputs", "/nonexistent/inputs.json", p.to_str().unwrap()]);
    assert_eq!((run.code, run.verdict()), (2, "invalid"));
    assert_eq!(run.errors()[0]["kind"], "io");
}

#[test]
fn zero_jobs_or_error_limit_and_infer_info_without_inference_are_usage_errors() {
    let ok = temp_bytes("usage_ok.bpl", b"procedure P() { assert true; }\n");
    let ok = ok.to_str().unwrap();
    for (flag, value) in [("--jobs", "0"), ("--error-limit", "0")] {
        let (code, out, err) = human(&["verify", flag, value, ok]);
        assert_eq!(code, 2, "{flag} {value}: {out}");
        assert!(err.contains(flag) && err.contains("expected a positive integer"), "{err}");
    }
    assert_eq!(human(&["verify", "--jobs", "1", "--error-limit", "1", ok]).0, 0);
    let (code, _, err) = human(&["verify", "--no-infer", "--infer-info", ok]);
    assert_eq!(code, 2);
    assert!(err.contains("--no-infer"), "says that --infer-info needs inference: {err}");
    assert_eq!(human(&["verify", "--infer-info", ok]).0, 0);
    assert_eq!(human(&["verify", "--houdini", "--infer-info", ok]).0, 0);
}

#[test]
fn timeout_zero_means_no_limit() {
    // Factoring a 24-bit prime by bit-blasting: a few tenths of a second for Z3, so a limit of
    // a millisecond (what `--timeout 0` used to become) makes it inconclusive.
    let p = temp_bytes("timeout0.bpl", factoring_program(24, 4096, 8388617).as_bytes());
    let run = kivl(&["verify", "--format", "json", "--timeout", "0", p.to_str().unwrap()]);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{:?}", run.error_summary());
    let (_, help, _) = human(&["verify", "--help"]);
    assert!(help.contains("0 means no limit"), "{help}");
}

/// The last line of a human-format run.
fn closing_line(args: &[&str]) -> String {
    human(args).1.lines().last().unwrap_or_default().to_string()
}

/// Ctrl-C during a long check: kivl stops at once, says "interrupted", exits 130 and prints no
/// verdict (Z3's own handler, which only cancels the check, is off).
#[test]
fn ctrl_c_stops_at_once_without_a_verdict() {
    for signal in ["-INT", "-TERM"] {
        let p = temp_bytes("interrupt.bpl", factoring_program(64, 4294967296, 1000000016000000063).as_bytes());
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
            .args(["verify", "--timeout", "0", p.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let sent = std::time::Instant::now();
        let killed = std::process::Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        let took = sent.elapsed();
        assert_eq!(out.status.code(), Some(130), "{signal}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"), "{signal}: {out:?}");
        assert!(out.stdout.is_empty(), "{signal}: a verdict was printed: {out:?}");
        assert!(took < std::time::Duration::from_secs(1), "{signal}: took {took:?}");
    }
}

/// Bit-vectors past `MAX_BV_WIDTH` are refused where they are written, before Z3 could
/// bit-blast them (`bv1000000` took 92 s and 6.9 GB, `bv100000000` never finished).
#[test]
fn huge_bit_vectors_are_unsupported_at_their_type() {
    for w in ["1000000", "100000000"] {
        let text = format!("procedure P(a: bv{w}, b: bv{w}) {{ assert a == b; }}\n");
        let p = temp_bytes("wide.bpl", text.as_bytes());
        let run = kivl(&["verify", "--format", "json", "--timeout", "10", p.to_str().unwrap()]);
        assert_eq!(run.code, 2);
        let errors = run.errors();
        // One error at each of the two types: `a: bvN` and `b: bvN`.
        let columns: Vec<u64> = errors.iter().map(|e| e["locations"][0]["column"].as_u64().unwrap()).collect();
        assert_eq!(columns, [16, 23 + w.len() as u64], "{errors:?}");
        assert!(errors.iter().all(|e| e["kind"] == "unsupported"), "{errors:?}");
    }
    let ok = temp_bytes("wide_ok.bpl", b"procedure P(a: bv4096) { assert a == a; }\n");
    assert_eq!(kivl(&["verify", ok.to_str().unwrap()]).code, 0);
}

/// `n` assignments `x := x + 1;` in a row, then `assert x == target` (on line `n + 3`).
fn straight_line(n: usize, target: usize) -> String {
    let mut s = String::from("procedure P()\n{ var x: int; x := 0;\n");
    for _ in 0..n {
        s.push_str("  x := x + 1;\n");
    }
    s.push_str(&format!("  assert x == {target};\n}}\n"));
    s
}

#[test]
fn ten_thousand_straight_line_statements_verify_within_the_time_limit() {
    // The VC used to be quadratic in a block's length: `--emit vc` took 27 s and 2.9 GB, and
    // `verify --timeout 10` had not finished after 90 s. Now it is linear (0.4 s here);
    // `scripts/vc-scaling.sh` measures the growth.
    let good = temp_bytes("line10k.bpl", straight_line(10_000, 10_000).as_bytes());
    let run = kivl(&["verify", "--format", "json", "--timeout", "10", good.to_str().unwrap()]);
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{}", run.stderr);

    let bad = temp_bytes("line10k_bad.bpl", straight_line(10_000, 10_001).as_bytes());
    let run = kivl(&["verify", "--format", "json", "--timeout", "10", bad.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.error_summary(), vec![("assertion".to_string(), 10_003)]);
}

#[test]
fn z3_at_its_memory_limit_is_inconclusive_with_a_clear_message() {
    // Multiplying 4096-bit vectors bit-blasts to millions of gates: 2 GB without a limit.
    let file = temp_bytes(
        "mul4096.bpl",
        b"function {:bvbuiltin \"bvmul\"} bvmul(bv4096, bv4096) : bv4096;\n\
          procedure P(a: bv4096, b: bv4096, c: bv4096) { assert bvmul(a, b) != c || bvmul(b, c) != a; }\n",
    );
    let (code, stdout, _) = human(&["verify", "--memory-limit", "300", "--timeout", "60", file.to_str().unwrap()]);
    assert_eq!(code, 3, "{stdout}");
    assert!(stdout.contains("Z3 reached its memory limit (300 MB, --memory-limit)"), "{stdout}");
    assert!(stdout.contains("kivl finished with 0 verified, 0 errors, 1 inconclusive"), "{stdout}");
}

#[test]
fn a_closed_pipe_ends_kivl_quietly() {
    // `kivl transform ... | head` used to panic ("failed printing to stdout: Broken pipe"). The
    // output (about 300 KB) is larger than a pipe holds, so kivl is still writing when it closes.
    let file = temp_bytes("line10k_pipe.bpl", straight_line(10_000, 10_000).as_bytes());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["transform", "--emit", "passified", file.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("internal error"), "{stderr}");
}

#[test]
fn the_time_limit_holds_where_z3_ignores_its_own() {
    // Boogie's `Test/havoc0/KeyboardClassUnload.bpl` (read from KIVL_BOOGIE_TESTS, not bundled):
    // with `--timeout 10` kivl used to run for minutes inside one Z3 check, which ignores Z3's
    // timer (the z3 binary too). The watchdog now interrupts it, and gives up with status 3
    // when Z3 does not even stop then: either way kivl ends within seconds of the limit.
    let Some(tests) = ivl::corpus::boogie_tests() else { return };
    let file = tests.join("havoc0/KeyboardClassUnload.bpl");
    let start = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kivl"))
        .args(["verify", "--timeout", "10", file.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(90) {
            child.kill().unwrap();
            panic!("kivl --timeout 10 still running after 90 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(matches!(status.code(), Some(0 | 1 | 3)), "{status:?}");
}

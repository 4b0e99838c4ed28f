//! README.md's commands are run and their output compared with what it shows.
//!
//! - A ```` ```console ```` block holds commands, each on a line `$ COMMAND`, each followed by
//!   its output. The command runs in bash at the repository's root, with the `kivl` under test
//!   first on `PATH` and stderr merged into stdout; its output must match the lines shown, where
//!   a line `…` stands for any number of lines and a `…` inside a line for any text on that line
//!   (trailing spaces are ignored). The command must exit with status 0: a command whose
//!   status matters shows it (`; echo "exit $?"`).
//! - A ```` ```sh ```` block holds the set-up and installation commands, which are checked
//!   without building anything: `bash scripts/setup.sh && ` must name an existing script,
//!   `cargo run --release -- ARGS` runs `kivl ARGS` (exit status 0), `cargo test --workspace
//!   --release` must be the test command of `.ci/run`, and `kivl …`/`mkdir …` lines run with
//!   `HOME` in a temporary folder (exit status 0).
//!
//! Any other command, a code block of another kind, or text before a console block's first
//! command fails the test, so that nothing in the README goes unchecked.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a README command may take (the watch example stops itself after 10 s).
const COMMAND_LIMIT: Duration = Duration::from_secs(120);

#[derive(Debug, PartialEq)]
enum Check {
    /// `$ COMMAND` of a console block and the output lines shown after it.
    Console { line: usize, command: String, expected: Vec<String> },
    /// `cargo run --release -- ARGS`: `kivl ARGS` must exit with status 0.
    RunKivl { line: usize, args: String },
    /// A command that must be a line of `.ci/run`.
    CiCommand { line: usize, command: String },
    /// A shell line run with `HOME` in a temporary folder.
    Shell { line: usize, command: String },
}

/// The checks of a README text, or the first thing in it no check covers.
fn checks(readme: &str) -> Result<Vec<Check>, String> {
    let mut out = Vec::new();
    let mut lines = readme.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((start, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut body = Vec::new();
        loop {
            match lines.next() {
                Some((_, l)) if l.starts_with("```") => break,
                Some((n, l)) => body.push((n, l)),
                None => return Err(format!("line {start}: a code block that is not closed")),
            }
        }
        match info.trim() {
            "console" => console_checks(start, &body, &mut out)?,
            "sh" => {
                for (n, l) in body {
                    if let Some(check) = sh_check(n, l)? {
                        out.push(check);
                    }
                }
            }
            other => return Err(format!("line {start}: a ```{other} block, which no check covers")),
        }
    }
    Ok(out)
}

fn console_checks(start: usize, body: &[(usize, &str)], out: &mut Vec<Check>) -> Result<(), String> {
    let mut current: Option<Check> = None;
    for &(n, l) in body {
        if let Some(command) = l.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Check::Console { line: n, command: command.to_string(), expected: Vec::new() });
        } else if let Some(Check::Console { expected, .. }) = current.as_mut() {
            expected.push(l.to_string());
        } else {
            return Err(format!("line {n}: output before the first command of the console block of line {start}"));
        }
    }
    match current {
        Some(c) => out.push(c),
        None => return Err(format!("line {start}: a console block without a command")),
    }
    Ok(())
}

fn sh_check(n: usize, line: &str) -> Result<Option<Check>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let command = match line.strip_prefix("bash scripts/setup.sh && ") {
        Some(rest) => {
            if !repo().join("scripts/setup.sh").is_file() {
                return Err(format!("line {n}: scripts/setup.sh does not exist"));
            }
            rest
        }
        None => line,
    };
    if let Some(args) = command.strip_prefix("cargo run --release -- ") {
        return Ok(Some(Check::RunKivl { line: n, args: args.to_string() }));
    }
    if command == "cargo test --workspace --release" {
        return Ok(Some(Check::CiCommand { line: n, command: command.to_string() }));
    }
    if command.starts_with("kivl ") || command.starts_with("mkdir ") {
        return Ok(Some(Check::Shell { line: n, command: command.to_string() }));
    }
    Err(format!("line {n}: `{line}` is a command no check runs"))
}

/// Whether `actual` matches the `pattern` of one line: `…` stands for any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() || !actual.ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output lines match the expected ones: a line `…` stands for any lines.
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"…", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((first, rest)) => !actual.is_empty() && line_matches(first, actual[0]) && lines_match(rest, &actual[1..]),
    }
}

/// Lines without trailing spaces, without trailing empty lines.
fn normalise(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `script` in bash at the repository's root with the `kivl` under test first on `PATH`
/// (and `HOME` as given): its exit status and its stdout and stderr, merged.
fn bash(script: &str, home: Option<&Path>) -> (i32, String) {
    let kivl = PathBuf::from(env!("CARGO_BIN_EXE_kivl"));
    let path = format!("{}:{}", kivl.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(format!("exec 2>&1\n{script}")).current_dir(repo()).env("PATH", path);
    if let Some(home) = home {
        cmd.env("HOME", home);
    }
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > COMMAND_LIMIT {
            child.kill().unwrap();
            panic!("README command still running after {COMMAND_LIMIT:?}: {script}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status.code().unwrap_or(-1), reader.join().unwrap())
}

fn run(check: &Check, home: &Path) -> Result<(), String> {
    match check {
        Check::Console { line, command, expected } => {
            let (code, output) = bash(command, None);
            let expected: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
            let mut expected = expected.as_slice();
            while expected.last() == Some(&"") {
                expected = &expected[..expected.len() - 1];
            }
            if code != 0 {
                return Err(format!(
                    "line {line}: `{command}` exits with status {code}; a README command whose status is not 0 shows it (`; echo \"exit $?\"`)\n{output}"
                ));
            }
            if !lines_match(expected, &normalise(&output)) {
                return Err(format!(
                    "line {line}: `{command}` prints\n{output}\nwhich does not match README.md's\n{}",
                    expected.join("\n")
                ));
            }
            Ok(())
        }
        Check::RunKivl { line, args } => {
            let (code, output) = bash(&format!("kivl {args}"), None);
            if code != 0 {
                return Err(format!("line {line}: `kivl {args}` exits with status {code}\n{output}"));
            }
            Ok(())
        }
        Check::CiCommand { line, command } => {
            let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
            if !ci.lines().any(|l| l.trim() == command) {
                return Err(format!("line {line}: `{command}` is not a line of .ci/run"));
            }
            Ok(())
        }
        Check::Shell { line, command } => {
            let (code, output) = bash(command, Some(home));
            if code != 0 {
                return Err(format!("line {line}: `{command}` exits with status {code}\n{output}"));
            }
            Ok(())
        }
    }
}

#[test]
fn every_command_of_the_readme_gives_the_output_it_shows() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let checks = checks(&readme).unwrap_or_else(|e| panic!("README.md, {e}"));
    assert!(checks.iter().any(|c| matches!(c, Check::Console { .. })), "README.md shows no command");
    let home = std::env::temp_dir().join(format!("kivl-readme-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let failures: Vec<String> = checks.iter().filter_map(|c| run(c, &home).err()).collect();
    let _ = std::fs::remove_dir_all(&home);
    assert!(failures.is_empty(), "README.md:\n{}", failures.join("\n\n"));
}

#[test]
fn the_set_up_command_verifies_a_program_of_the_repository() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let checks = checks(&readme).unwrap();
    let runs: Vec<&String> = checks
        .iter()
        .filter_map(|c| match c {
            Check::RunKivl { args, .. } => Some(args),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), 1, "one `cargo run` command in the set-up: {runs:?}");
    let file = runs[0].split_whitespace().last().unwrap();
    assert!(repo().join(file).is_file(), "the set-up verifies `{file}`, which is not in the repository");
    assert!(
        checks.iter().any(|c| matches!(c, Check::CiCommand { .. })),
        "the set-up shows the test command of .ci/run"
    );
}

#[test]
fn the_checker_rejects_what_it_cannot_check() {
    assert!(checks("```\n$ kivl verify a.cu\n```\n").is_err(), "a block without a kind");
    assert!(checks("```sh\ncargo build --release\n```\n").is_err(), "an unknown set-up command");
    assert!(checks("```console\nkivl finished\n```\n").is_err(), "output without a command");
    assert!(checks("```console\n$ kivl verify a.cu\n").is_err(), "an unclosed block");
    let ok = checks("```console\n$ kivl --version\nkivl …\n```\n").unwrap();
    assert_eq!(ok, vec![Check::Console { line: 2, command: "kivl --version".into(), expected: vec!["kivl …".into()] }]);
}

#[test]
fn ellipses_match_text_and_lines() {
    assert!(line_matches("a … c", "a b c"));
    assert!(line_matches("time=\"…\">", "time=\"0.918\">"));
    assert!(line_matches("x … y … z", "x 1 y 2 z"));
    assert!(!line_matches("a … c", "a b d"));
    assert!(!line_matches("ab…ba", "aba"));
    assert!(!line_matches("a", "ab"));
    assert!(lines_match(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(lines_match(&["a", "…"], &["a"]));
    assert!(!lines_match(&["a", "…", "d"], &["a", "b", "c"]));
    assert!(!lines_match(&["a"], &["a", "b"]));
}

#[test]
fn a_wrong_output_or_status_fails() {
    let home = std::env::temp_dir();
    let wrong = Check::Console { line: 1, command: "kivl --version".into(), expected: vec!["kivl 0.0.0".into()] };
    assert!(run(&wrong, &home).is_err());
    let status = Check::Console { line: 1, command: "kivl --version >/dev/null; exit 1".into(), expected: vec![] };
    assert!(run(&status, &home).is_err());
}

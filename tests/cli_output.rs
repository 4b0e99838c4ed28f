//! What `kivl verify` prints for people and tools (issue 22, docs/kbpl.md §8): SARIF 2.1.0
//! validated against its JSON schema, JUnit XML, the JSON's totals, tool and times, `--time`,
//! `--verbose`/`--silent`, `--stop-at-first-error`, completions and man pages, and the progress
//! line, which appears on a terminal and nowhere else.

mod common;
use common::*;
use serde_json::Value;
use std::process::Command;

fn example(name: &str) -> String {
    repo_dir("docs/examples").join(name).to_string_lossy().into_owned()
}

/// A `kivl` run: exit status, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kivl")).args(args).output().expect("running kivl");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

const RACE: [&str; 4] = ["--local-size", "64", "--num-groups", "8"];

fn race_args<'a>(extra: &[&'a str], files: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["verify"];
    v.extend(RACE);
    v.extend(extra);
    v.extend(files);
    v
}

// ---- SARIF ----

/// The SARIF 2.1.0 schema as the `serde-sarif` crate ships it (its build script generates its
/// types from it): found through `cargo metadata`, so the schema is read from the crate's
/// source, not kept in this repository.
fn sarif_schema() -> Value {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata");
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON");
    let pkg = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == "serde-sarif").expect("serde-sarif");
    let manifest = std::path::Path::new(pkg["manifest_path"].as_str().unwrap());
    let text = std::fs::read_to_string(manifest.with_file_name("src").join("schema.json")).expect("the schema");
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert!(schema["title"].as_str().unwrap().contains("SARIF") && schema["title"].as_str().unwrap().contains("2.1.0"));
    schema
}

/// The schema's validator. One pattern of the published schema, `run.language`'s
/// `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$` (a stray `]`, a known defect), is not a regular
/// expression the validator accepts, and the validator checks the schema's own patterns; it is
/// replaced by what it means to say (kivl does not write `language`). Everything else is the
/// schema as shipped.
fn validator() -> jsonschema::Validator {
    let mut schema = sarif_schema();
    let mut fixed = 0;
    for def in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        if pattern == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" {
            *pattern = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
            fixed += 1;
        }
    }
    assert_eq!(fixed, 2, "the shipped schema changed");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator.iter_errors(log).map(|e| format!("{e} at {}", e.instance_path())).collect()
}

#[test]
fn sarif_output_validates_against_the_sarif_2_1_0_schema() {
    let (code, out, _) =
        run(&race_args(&["--format", "sarif"], &[&example("first_race.kbpl"), &example("first.kbpl")]));
    assert_eq!(code, 1, "{out}");
    let log: Value = serde_json::from_str(&out).expect("SARIF is JSON");
    let validator = validator();
    assert_eq!(schema_errors(&validator, &log), Vec::<String>::new());
    // Also readable by a typed SARIF library.
    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(log.clone()).expect("serde-sarif reads it");
    assert_eq!(typed.runs.len(), 1);
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "kivl");
    let rules: Vec<&str> =
        run["tool"]["driver"]["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert!(rules.contains(&"race") && rules.contains(&"divergence") && rules.contains(&"timeout"), "{rules:?}");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "one race in first_race.kbpl, none in first.kbpl");
    let r = &results[0];
    assert_eq!(r["ruleId"], "race");
    assert_eq!(r["level"], "error");
    assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize], "race");
    let loc = &r["locations"][0]["physicalLocation"];
    assert!(loc["artifactLocation"]["uri"].as_str().unwrap().ends_with("first_race.kbpl"));
    assert_eq!(loc["region"]["startLine"], 13);
    assert_eq!(loc["region"]["startColumn"], 3);
    let related = &r["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 8, "the read of the race");
    assert!(related["message"]["text"].as_str().unwrap().starts_with("read of A["), "{related}");
}

#[test]
fn the_schema_check_rejects_invalid_sarif() {
    let (_, out, _) = run(&race_args(&["--format", "sarif"], &[&example("first_race.kbpl")]));
    let log: Value = serde_json::from_str(&out).unwrap();
    let validator = validator();
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!schema_errors(&validator, &bad_level).is_empty());
    let mut no_version = log.clone();
    no_version.as_object_mut().unwrap().remove("version");
    assert!(!schema_errors(&validator, &no_version).is_empty());
    let mut bad_line = log;
    bad_line["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(!schema_errors(&validator, &bad_line).is_empty());
}

// ---- JUnit ----

#[test]
fn junit_has_a_suite_per_file_and_a_case_per_implementation() {
    let files = [example("first_race.kbpl"), example("first.kbpl"), example("bad_syntax.kbpl")];
    let (code, out, _) = run(&race_args(&["--format", "junit"], &files.iter().map(|s| s.as_str()).collect::<Vec<_>>()));
    assert_eq!(code, 2, "the invalid file decides: {out}");
    let doc = roxmltree::Document::parse(&out).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("failures"), Some("1"));
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 3);
    let racy = &suites[0];
    assert!(racy.attribute("name").unwrap().ends_with("first_race.kbpl"));
    let case = racy.children().find(|n| n.has_tag_name("testcase")).unwrap();
    assert_eq!(case.attribute("name"), Some("add_next"));
    let failure = case.children().find(|n| n.has_tag_name("failure")).expect("a failure");
    assert_eq!(failure.attribute("type"), Some("race"));
    assert!(failure.attribute("message").unwrap().contains("race on `A`"));
    assert!(failure.text().unwrap().contains("first_race.kbpl:13:3"), "{:?}", failure.text());
    let ok = suites[1].children().find(|n| n.has_tag_name("testcase")).unwrap();
    assert_eq!(ok.attribute("name"), Some("add_next"));
    assert!(ok.children().all(|n| !n.is_element()), "a verified implementation has no failure");
    let invalid = suites[2].children().find(|n| n.has_tag_name("testcase")).unwrap();
    let err = invalid.children().find(|n| n.has_tag_name("error")).expect("an error for an invalid file");
    assert_eq!(err.attribute("type"), Some("syntax"));
}

// ---- JSON ----

#[test]
fn json_has_schema_version_tool_totals_and_times() {
    let (code, out, _) = run(&race_args(
        &["--format", "json"],
        &[&example("first_race.kbpl"), &example("first.kbpl"), &example("bad_type.kbpl")],
    ));
    assert_eq!(code, 2);
    let j: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["schema_version"], "1.3");
    assert_eq!(j["tool"]["name"], "kivl");
    assert_eq!(j["tool"]["version"], env!("CARGO_PKG_VERSION"));
    let t = &j["totals"];
    assert_eq!((t["files"].as_u64(), t["verified"].as_u64(), t["with_errors"].as_u64()), (Some(3), Some(1), Some(1)));
    assert_eq!((t["invalid"].as_u64(), t["inconclusive"].as_u64()), (Some(1), Some(0)));
    assert_eq!(t["errors"]["race"], 1);
    assert_eq!(t["errors"]["type"].as_u64().map(|n| n > 0), Some(true));
    assert!(j["time_ms"].is_u64());
    for f in j["files"].as_array().unwrap() {
        assert!(f["time_ms"].is_u64(), "{f}");
    }
    assert!(j["files"][0]["implementations"][0]["time_ms"].is_u64());
    // The fields of the contract stay (docs/kbpl.md §8.4).
    assert!(j["counts"].is_object() && j["solver_checks"].is_u64());
    assert!(j.get("time").is_none(), "`time` only with --time");
}

#[test]
fn time_prints_stages_and_implementations() {
    let (_, out, _) = run(&["verify", "--houdini", "--time", &example("loop_infer.kbpl")]);
    let line = out.lines().find(|l| l.starts_with("time: ") && l.contains("loop_infer.kbpl")).expect(&out);
    for part in ["front end", "passes", "Houdini", "solver", "Houdini round"] {
        assert!(line.contains(part), "{part} in {line}");
    }
    assert!(out.lines().any(|l| l.starts_with("time:   `reduce`")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("time: total ")), "{out}");
    let (_, out, _) = run(&["verify", "--houdini", "--time", "--format", "json", &example("loop_infer.kbpl")]);
    let j: Value = serde_json::from_str(&out).unwrap();
    let t = &j["files"][0]["time"];
    assert!(t["stages"]["houdini_ms"].is_u64() && t["solver_ms"].is_u64(), "{t}");
    assert!(t["houdini_rounds"].as_u64().unwrap() >= 1, "{t}");
    assert_eq!(t["implementations"][0]["name"], "reduce");
    assert!(j["time"]["total_ms"].is_u64());
}

// ---- --verbose, --silent, --stop-at-first-error ----

#[test]
fn execution_traces_only_with_verbose() {
    let (code, out, _) = run(&race_args(&[], &[&example("first_race.kbpl")]));
    assert_eq!(code, 1);
    assert!(out.contains("race on `A`") && out.contains("counterexample:"), "{out}");
    assert!(!out.contains("execution trace:"), "{out}");
    let (_, out, _) = run(&race_args(&["--verbose"], &[&example("first_race.kbpl")]));
    assert!(out.contains("execution trace:") && out.contains("anon"), "{out}");
    // The JSON keeps its notes.
    let (_, out, _) = run(&race_args(&["--format", "json"], &[&example("first_race.kbpl")]));
    assert!(out.contains("execution trace:"), "{out}");
}

#[test]
fn silent_prints_only_the_closing_line() {
    let (code, out, _) = run(&race_args(&["--silent"], &[&example("first_race.kbpl")]));
    assert_eq!(code, 1);
    assert_eq!(out, "kivl finished with 0 verified, 1 error; termination not checked (--termination)\n");
    let (code, out, _) = run(&race_args(&["-q"], &[&example("first.kbpl")]));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn stop_at_first_error_leaves_the_later_files_out() {
    let files = [example("first.kbpl"), example("first_race.kbpl"), example("first.kbpl"), example("bad_type.kbpl")];
    let refs: Vec<&str> = files.iter().map(|s| s.as_str()).collect();
    let (code, out, _) = run(&race_args(&["--stop-at-first-error", "--format", "json"], &refs));
    assert_eq!(code, 1, "the invalid file after the error is not looked at: {out}");
    let j: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["files"].as_array().unwrap().len(), 2);
    assert_eq!(j["skipped"].as_array().unwrap().len(), 2);
    assert_eq!(j["totals"]["skipped"], 2);
    assert_eq!(j["totals"]["files"], 4);
    let (_, out, _) = run(&race_args(&["--stop-at-first-error"], &refs));
    assert!(out.contains("stopped at the first error (--stop-at-first-error): 2 files not verified"), "{out}");
    // Without the flag every file is verified.
    let (code, _, _) = run(&race_args(&[], &refs));
    assert_eq!(code, 2);
}

#[test]
fn a_confirmed_race_is_headed_confirmed() {
    let (code, out, _) = run(&["verify", "--local-size", "8", "--replay", &example("first_race.kbpl")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("confirmed read-write race on `A`"), "{out}");
    assert!(!out.contains("possible read-write race"), "{out}");
    // Without --replay nothing is confirmed.
    let (_, out, _) = run(&["verify", "--local-size", "8", &example("first_race.kbpl")]);
    assert!(out.contains("possible read-write race on `A`"), "{out}");
}

// ---- completions and man pages ----

#[test]
fn completions_and_man_pages_come_from_the_command_line() {
    let (code, out, _) = run(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(out.contains("_kivl()") && out.contains("--stop-at-first-error") && out.contains("--format"), "bash");
    for shell in ["zsh", "fish"] {
        let (code, out, _) = run(&["completions", shell]);
        assert_eq!(code, 0);
        assert!(out.contains("stop-at-first-error"), "{shell}");
    }
    let (code, out, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(".ie") || out.contains(".TH kivl"), "{}", &out[..out.len().min(300)]);
    let (code, out, _) = run(&["man", "verify"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH kivl-verify") && out.contains("stop\\-at\\-first\\-error"), "{out}");
    let (code, _, err) = run(&["man", "nonsense"]);
    assert_eq!(code, 2, "{err}");
}

// ---- the progress line ----

/// Runs kivl in docs/examples under a pseudo-terminal (util-linux `script`), so that stdout and
/// stderr are terminals; returns what the terminal received.
fn on_a_terminal(args: &[&str]) -> Option<String> {
    let mut cmd = vec![env!("CARGO_BIN_EXE_kivl").to_string()];
    cmd.extend(args.iter().map(|a| format!("'{a}'")));
    let out = Command::new("script")
        .args(["-qefc", &cmd.join(" "), "/dev/null"])
        .current_dir(repo_dir("docs/examples"))
        .env("TERM", "xterm")
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_progress_line_appears_on_a_terminal_and_not_when_piped() {
    // The line is cut to the terminal's width (80 columns here): short names.
    let args = ["verify", "--houdini", "--jobs", "1", "loop_infer.kbpl"];
    let Some(tty) = on_a_terminal(&args) else {
        panic!("util-linux `script` is needed to run kivl under a pseudo-terminal");
    };
    assert!(tty.contains("kivl finished with 1 verified"), "{tty}");
    assert!(tty.contains("loop_infer.kbpl: Houdini: round 1, 17 of 17 candidates"), "stage, round, candidates: {tty}");
    assert!(tty.contains("loop_infer.kbpl: Houdini: round 2, 16 of 17 candidates"), "{tty}");
    assert!(tty.contains("loop_infer.kbpl: front end"), "{tty}");
    let path = example("loop_infer.kbpl");
    let piped = ["verify", "--houdini", "--jobs", "1", &path];
    let (code, out, err) = run(&piped);
    assert_eq!(code, 0);
    assert!(!err.contains("candidates") && !out.contains("Houdini:"), "{out}{err}");
    // Not with --silent or a machine format, even on a terminal.
    for extra in [["--silent"], ["--no-progress"]] {
        let mut a = args.to_vec();
        a.extend(extra);
        let tty = on_a_terminal(&a).unwrap();
        assert!(tty.contains("kivl finished") && !tty.contains("Houdini: round"), "{extra:?}: {tty}");
    }
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let tty = on_a_terminal(&a).unwrap();
    assert!(tty.contains("\"verdict\"") && !tty.contains("Houdini: round"), "{tty}");
}

#[test]
fn sarif_with_implementations_and_files_not_verified_validates() {
    let dir = std::env::temp_dir().join(format!("kivl-cli-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let two = dir.join("two.bpl");
    std::fs::write(&two, "procedure bad(x: int) { assert x > 0; }\nprocedure later(x: int) { assert x == x; }\n")
        .unwrap();
    let two = two.to_string_lossy().into_owned();
    let (code, out, _) = run(&["verify", "--stop-at-first-error", "--format", "sarif", &two, &example("first.kbpl")]);
    assert_eq!(code, 1, "{out}");
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(schema_errors(&validator(), &log), Vec::<String>::new());
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    let texts: Vec<&str> = notes.iter().map(|n| n["message"]["text"].as_str().unwrap()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert_eq!(texts[0], "`later`: not verified: --stop-at-first-error");
    assert!(texts[1].starts_with("file ") && texts[1].ends_with("first.kbpl: not verified: --stop-at-first-error"));
    let _: serde_sarif::sarif::Sarif = serde_json::from_value(log).expect("serde-sarif reads it");
}

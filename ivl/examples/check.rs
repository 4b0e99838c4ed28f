//! A minimal `kivl check`: parse, resolve and type-check each FILE; print the diagnostics
//! (human-readable, or the JSON of docs/kbpl.md §8 with `--format json`); exit 0 if every file is
//! accepted, 2 otherwise. Used by `scripts/boogie-frontend-agreement.sh` when the `kivl` binary
//! is not built.
//!
//!     cargo run --release -p ivl --example check -- [--format json] FILE...

use ivl::diag::SourceFile;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut json = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--format" => json = args.next().as_deref() == Some("json"),
            "--format=json" => json = true,
            _ => files.push(a),
        }
    }
    let mut ok = true;
    let mut reports = Vec::new();
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let file = SourceFile::new(path.clone(), text);
        let (program, mut diags) = ivl::parser::parse_program(&file.text);
        if diags.is_empty() {
            diags = ivl::check::check_program(&program);
        }
        ok &= diags.is_empty();
        if json {
            let errors: Vec<_> = diags.iter().map(|d| d.to_json(&file)).collect();
            let verdict = if diags.is_empty() { "verified" } else { "invalid" };
            reports.push(serde_json::json!({ "file": path, "verdict": verdict, "errors": errors }));
        } else {
            for d in &diags {
                eprint!("{}", d.render(&file, false));
            }
        }
    }
    if json {
        println!("{}", serde_json::json!({ "files": reports }));
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

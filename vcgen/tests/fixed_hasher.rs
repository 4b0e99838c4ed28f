//! The parts of the engine that build Z3 terms must not use the standard library's randomly
//! seeded hash maps (see `vcgen::HashMap`): their iteration and drop order reaches Z3 and made
//! the same file take a different search, and time, on every run.

use std::path::Path;

#[test]
fn z3_facing_modules_use_the_fixed_hasher() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        // `desugar/` only rewrites the program, before any Z3 term exists.
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if code.contains("std::collections::Hash")
                    || (code.contains("std::collections::{") && code.contains("Hash"))
                {
                    offenders.push(format!("{}:{}", path.display(), i + 1));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "standard hash maps in Z3-facing code: {offenders:?}");
}

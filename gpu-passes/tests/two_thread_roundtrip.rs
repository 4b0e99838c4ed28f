//! `kivl transform --emit two-thread` (`gpu_passes::two_thread::two_thread_program`): the
//! two-thread program of every kernel of the corpus prints as `.kbpl` that parses and
//! type-checks again, and is recognised as a two-thread program (verified as plain Boogie).

use gpu_passes::two_thread::{is_kernel_program, two_thread_program, KernelOptions};
use std::path::Path;

#[path = "two_thread_common/mod.rs"]
mod common;

#[test]
fn corpus_two_thread_programs_print_parse_and_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kbpl"))
        .collect();
    files.sort();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(program) = common::front_end(&text) else { continue };
        assert!(is_kernel_program(&program), "{}", f.display());
        let tt = two_thread_program(&program, &KernelOptions::default())
            .unwrap_or_else(|d| panic!("{}: {d:?}", f.display()));
        let printed = ivl::printer::print_program(&tt);
        let again = common::front_end(&printed).unwrap_or_else(|d| panic!("{}: {d:?}\n{printed}", f.display()));
        assert!(!is_kernel_program(&again), "{}: the output is a two-thread program", f.display());
        checked += 1;
    }
    assert!(checked > 100, "only {checked} kernels");
}

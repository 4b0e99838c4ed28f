//! Where the external test corpora are on this machine.
//!
//! Their files are not in the repository (symbooglix/gpu has no licence to redistribute, and
//! Boogie's tests are Boogie's), so the tests and benchmarks that read them find them through
//! one environment variable each, and say "skipped: …" when it is unset or does not name a
//! directory: a corpus test never passes silently without its corpus.
//!
//! - `KIVL_CORPUS`: a checkout of github.com/symbooglix/gpu (its `gpuverify/` and `other/`
//!   folders hold 1,036 GPUVerify-generated Boogie programs);
//! - `KIVL_BOOGIE_TESTS`: the `Test/` folder of github.com/boogie-org/boogie.

use std::path::{Path, PathBuf};

/// The symbooglix/gpu checkout named by `KIVL_CORPUS`.
pub fn gpu() -> Option<PathBuf> {
    from_env("KIVL_CORPUS", "a checkout of github.com/symbooglix/gpu")
}

/// Boogie's `Test/` folder named by `KIVL_BOOGIE_TESTS`.
pub fn boogie_tests() -> Option<PathBuf> {
    from_env("KIVL_BOOGIE_TESTS", "the Test/ folder of github.com/boogie-org/boogie")
}

fn from_env(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var).map(PathBuf::from) {
        Some(p) if p.is_dir() => Some(p),
        Some(p) => {
            eprintln!("skipped: {var}={} is not a directory ({what})", p.display());
            None
        }
        None => {
            eprintln!("skipped: {var} is not set ({what})");
            None
        }
    }
}

/// The `.bpl` and `.kbpl` files under `dir`, recursively, sorted by path.
pub fn bpl_files(dir: &Path) -> Vec<PathBuf> {
    files_where(dir, |p| p.extension().is_some_and(|x| x == "bpl" || x == "kbpl"))
}

/// The files under `dir` (recursively) that `keep` accepts, sorted by path. A folder that
/// cannot be read counts as empty.
pub fn files_where(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, keep, out);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &keep, &mut out);
    out.sort();
    out
}

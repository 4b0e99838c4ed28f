//! `kivl verify --cache DIR`: a verdict is stored under a key made of everything it depends on,
//! so that a second run over unchanged files (a CI job, a test suite) does no solver work and
//! prints the same output.
//!
//! The key is a BLAKE3 hash of: this executable (its path, size and modification time: a rebuilt
//! kivl never reads an older kivl's results), the options of the run that shape a verdict, and
//! the file's name and text. A `.kbpl`/`.bpl` file is self-contained, so its text is all it
//! depends on. A collision would be a wrong verdict, hence a cryptographic hash. Entries are
//! written to a temporary file and renamed, so a concurrent run never reads half an entry; an
//! entry that does not parse is ignored (and overwritten).

use crate::pipeline::VerifyConfig;
use crate::report::{FileReport, Verdict};
use ivl::diag::{Diagnostic, SourceFile};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What is stored of a report (the source is the key's, not stored again).
#[derive(Serialize, Deserialize)]
struct Entry {
    verdict: Verdict,
    errors: Vec<Diagnostic>,
    info: Vec<String>,
    extra: serde_json::Map<String, serde_json::Value>,
}

#[derive(Clone)]
pub struct Cache {
    dir: PathBuf,
    /// The part of every key that depends on the executable and the options, not the file.
    run: blake3::Hash,
}

impl Cache {
    /// A cache in `dir` (created if missing) for runs with `cfg`.
    pub fn new(dir: &Path, cfg: &VerifyConfig) -> std::io::Result<Cache> {
        std::fs::create_dir_all(dir)?;
        let mut h = blake3::Hasher::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        if let Ok(exe) = std::env::current_exe() {
            h.update(exe.to_string_lossy().as_bytes());
            if let Ok(m) = std::fs::metadata(&exe) {
                h.update(&m.len().to_le_bytes());
                let modified = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
                h.update(&modified.map_or(0, |d| d.as_nanos()).to_le_bytes());
            }
        }
        h.update(format!("{cfg:?}").as_bytes());
        // A `--boogie-file` is part of every kernel's program: its text, not only its name.
        for f in &cfg.frontend.boogie_files {
            h.update(&std::fs::read(f).unwrap_or_default());
        }
        Ok(Cache { dir: dir.to_path_buf(), run: h.finalize() })
    }

    fn path(&self, source: &SourceFile) -> PathBuf {
        let mut h = blake3::Hasher::new();
        h.update(self.run.as_bytes());
        h.update(&(source.name.len() as u64).to_le_bytes());
        h.update(source.name.as_bytes());
        h.update(source.text.as_bytes());
        self.dir.join(format!("{}.json", h.finalize().to_hex()))
    }

    /// The stored report of `source`, if any.
    pub fn load(&self, source: &SourceFile) -> Option<FileReport> {
        let text = std::fs::read(self.path(source)).ok()?;
        let e: Entry = serde_json::from_slice(&text).ok()?;
        let mut r = FileReport::new(source.clone(), e.verdict, e.errors);
        r.info = e.info;
        r.extra = e.extra;
        Some(r)
    }

    /// Stores `report` (inconclusive ones are not: a later run may have more time).
    pub fn store(&self, report: &FileReport) {
        if report.verdict == Verdict::Inconclusive {
            return;
        }
        let e = Entry {
            verdict: report.verdict,
            errors: report.errors.clone(),
            info: report.info.clone(),
            extra: report.extra.clone(),
        };
        let path = self.path(&report.source);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = serde_json::to_vec(&e).ok().and_then(|bytes| std::fs::write(&tmp, bytes).ok());
        if written.is_some() {
            let _ = std::fs::rename(&tmp, &path);
        }
    }
}

/// `verify_file` through the cache.
pub fn verify_file(path: &Path, cfg: &VerifyConfig, cache: &Cache) -> FileReport {
    // A `.cl`/`.cu` verdict also depends on the headers it includes, which the key does not
    // cover: such files are not cached.
    if frontend::Language::of(path).is_some() {
        return crate::pipeline::verify_file(path, cfg);
    }
    let source = match crate::front::read_source(path) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Some(r) = cache.load(&source) {
        return r;
    }
    let report = crate::pipeline::verify_source(source, cfg);
    cache.store(&report);
    report
}

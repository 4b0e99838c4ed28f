//! The front end: a source file to the checked program the driver (`gpu_passes::driver`) takes.
//!
//! `.kbpl`/`.bpl` text is parsed, resolved and type-checked as queries on the salsa database
//! (`ivl::db`); an OpenCL (`.cl`) or CUDA (`.cu`) kernel is first translated to `.kbpl` by the
//! `frontend` crate (clang), and the program's spans are moved back onto the kernel source. The
//! checked program then gets the GPU prelude and inferred `modifies` clauses.

use crate::report::{FileReport, Verdict};
use ivl::ast::Program;
use ivl::diag::{Diagnostic, ErrorKind, SourceFile};
use std::path::Path;
use std::sync::Arc;

/// A checked program, and for a `.cl`/`.cu` file the seconds spent in clang and in the
/// translation.
pub struct Checked {
    pub program: Program,
    pub times: Option<(f64, f64)>,
}

/// Reads a file; an unreadable file is an invalid input with a diagnostic: an I/O error (no
/// location) when it cannot be read, a syntax error at the first byte that is not UTF-8 when it
/// cannot be decoded. The report then carries the lossy decoding of the file (the bad bytes
/// become U+FFFD), and the span is taken in that text — at the replacement character — not
/// in the bytes, so that it falls on character boundaries of the text it is shown with. A
/// `.cl`/`.cu` kernel is not refused (clang reads it): its bad bytes become `?` in the text
/// diagnostics are shown with (`frontend::decode_source`).
pub fn read_source(path: &Path) -> Result<SourceFile, FileReport> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile::new(name, text)),
            // clang accepts such bytes in a kernel (in comments): read, not refused.
            Err(e) if frontend::Language::of(path).is_some() => {
                Ok(SourceFile::new(name, frontend::decode_source(e.as_bytes())))
            }
            Err(e) => {
                // The text before the first bad byte is decoded as it is, so the byte offset
                // of the bad byte is the offset of its replacement character.
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let span = ivl::ast::Span::new(at, at + char::REPLACEMENT_CHARACTER.len_utf8());
                let d = Diagnostic::syntax(format!("the file is not valid UTF-8: byte 0x{byte:02X}"), span)
                    .with_label(format!("byte 0x{byte:02X} here"))
                    .with_note("kivl reads source files as UTF-8");
                Err(FileReport::invalid(SourceFile::new(name, text), vec![d]))
            }
        },
        Err(e) => {
            let d = Diagnostic::io(&name, e);
            Err(FileReport::invalid(SourceFile::new(name, String::new()), vec![d]))
        }
    }
}

/// Parse, resolve and type-check: the front end, run as queries on the salsa database.
/// When a file has syntax errors, only those are reported: type errors that follow from a
/// declaration that did not parse would only be noise.
fn front_end(source: &SourceFile, opts: &frontend::Options) -> Result<Checked, Vec<Diagnostic>> {
    if let Some(lang) = frontend::Language::of(Path::new(&source.name)) {
        return kernel_front_end(source, lang, opts);
    }
    if let Some(d) = kernel_only_options(opts) {
        return Err(vec![d]);
    }
    let db = ivl::db::Database::new();
    let file = db.add_file(source.name.clone(), source.text.clone());
    front_end_diagnostics(&db, file)?;
    let program = Arc::clone(ivl::db::file_program(&db, file));
    // Once the database is gone the program has one owner: no copy of the syntax tree.
    drop(db);
    Ok(Checked { program: Arc::try_unwrap(program).unwrap_or_else(|shared| (*shared).clone()), times: None })
}

/// The `.kbpl` generated from a kernel is parsed and checked like any file; the program's
/// spans are then moved onto the kernel source, so that every report points at `kernel.cl`.
/// A problem in the generated text is a front-end bug; it is reported at the kernel line the
/// text came from.
fn kernel_front_end(
    source: &SourceFile,
    lang: frontend::Language,
    opts: &frontend::Options,
) -> Result<Checked, Vec<Diagnostic>> {
    if lang == frontend::Language::Cuda && !opts.global_offset.is_empty() {
        let why = "--global_offset is OpenCL's global work offset; a CUDA kernel has none (GPUVerify refuses it too)";
        return Err(vec![Diagnostic::unsupported(why, ivl::ast::Span::DUMMY)]);
    }
    let mut tr = translate_kernel(source, lang, opts)?;
    let appended = crate::boogie_files::append(&mut tr, &opts.boogie_files)?;
    let map = frontend::remap::SpanMap::new(&tr, &source.text);
    let db = ivl::db::Database::new();
    let file = db.add_file(format!("{}.kbpl", source.name), tr.kbpl.clone());
    front_end_diagnostics(&db, file).map_err(|ds| {
        ds.into_iter()
            .map(|d| {
                appended.locate(d).unwrap_or_else(|d| {
                    map.map_diagnostic(d)
                        .with_note("in the .kbpl generated from the kernel (`kivl transform --emit kbpl` prints it)")
                })
            })
            .collect::<Vec<_>>()
    })?;
    let mut program = (**ivl::db::file_program(&db, file)).clone();
    frontend::remap::remap_spans(&mut program, &map);
    Ok(Checked { program, times: Some((tr.clang_secs, tr.translate_secs)) })
}

/// GPUVerify's options that act on an OpenCL/CUDA kernel's source or translation, refused for
/// a `.kbpl`/`.bpl` file with what to do instead: ignoring them could change a verdict.
pub fn kernel_only_options(opts: &frontend::Options) -> Option<Diagnostic> {
    let given = [
        (!opts.boogie_files.is_empty(), "--boogie-file", "write its declarations into the file"),
        (opts.annotations == frontend::Annotations::None, "--no-annotations", "remove the annotations from the file"),
        (
            opts.annotations == frontend::Annotations::OnlyRequires,
            "--only-requires",
            "remove the annotations other than `requires` from the file",
        ),
        (
            opts.invariants_as_candidates,
            "--invariants-as-candidates",
            "write the invariants as `invariant {:candidate}`",
        ),
        (!opts.global_offset.is_empty(), "--global_offset", "add the offset where the file computes global ids"),
        (
            !opts.global_size.is_empty(),
            "--global_size with a symbolic local size",
            "state the sizes with axioms (§4) or give --local-size",
        ),
    ];
    let (_, option, instead) = given.into_iter().find(|(on, _, _)| *on)?;
    let why = format!("{option} applies to OpenCL and CUDA kernels (.cl, .cu); for a .kbpl or .bpl file, {instead}");
    Some(Diagnostic::unsupported(why, ivl::ast::Span::DUMMY))
}

/// A `.cl`/`.cu` file translated to KBPL (the front end's diagnostics point at the kernel).
pub fn translate_kernel(
    source: &SourceFile,
    lang: frontend::Language,
    opts: &frontend::Options,
) -> Result<frontend::Translation, Vec<Diagnostic>> {
    frontend::translate_file(Path::new(&source.name), &source.text, lang, opts)
}

/// The front end's verdict on a file of the database: `Err` with the diagnostics to show.
fn front_end_diagnostics(db: &ivl::db::Database, file: ivl::db::SourceFile) -> Result<(), Vec<Diagnostic>> {
    db_diagnostics(ivl::db::file_diagnostics(db, file))
}

/// The diagnostics to show of those a file's database found (its syntax errors if it has any).
pub fn db_diagnostics(diags: &[Diagnostic]) -> Result<(), Vec<Diagnostic>> {
    if diags.is_empty() {
        return Ok(());
    }
    let syntax: Vec<Diagnostic> = diags.iter().filter(|d| d.kind == ErrorKind::Syntax).cloned().collect();
    Err(if syntax.is_empty() { diags.to_vec() } else { syntax })
}

/// The program every later stage starts from: checked, with the GPU prelude and inferred
/// modifies clauses.
pub fn checked(source: &SourceFile, opts: &frontend::Options) -> Result<Checked, Vec<Diagnostic>> {
    let Checked { program, times } = front_end(source, opts)?;
    Ok(Checked { program: complete(program)?, times })
}

/// A parsed and checked program with the GPU prelude and inferred modifies clauses, its code
/// expressions and let expressions replaced (`Err`: a code expression kivl cannot read exactly).
pub fn complete(mut program: Program) -> Result<Program, Vec<Diagnostic>> {
    let refused = ivl::code_exprs::eliminate(&mut program);
    if !refused.is_empty() {
        return Err(refused);
    }
    ivl::lets::eliminate(&mut program);
    Ok(ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(program)))
}

/// [`checked`] without the times.
pub fn checked_program(source: &SourceFile, opts: &frontend::Options) -> Result<Program, Vec<Diagnostic>> {
    checked(source, opts).map(|c| c.program)
}

/// `kivl check`: the front end's diagnostics of a file.
pub fn check_file(path: &Path, opts: &frontend::Options) -> FileReport {
    let mut source = match read_source(path) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if frontend::Language::of(path).is_some() {
        return match front_end(&source, opts) {
            Ok(_) => FileReport::new(source, Verdict::Verified, Vec::new()),
            Err(diags) => FileReport::invalid(source, diags),
        };
    }
    // The database owns the text while checking and hands it back after (no copy of a
    // file of megabytes).
    let mut db = ivl::db::Database::new();
    let file = db.add_file(source.name.clone(), std::mem::take(&mut source.text));
    let result = front_end_diagnostics(&db, file);
    source.text = db.set_text(file, String::new());
    drop(db);
    match result {
        Ok(()) => FileReport::new(source, Verdict::Verified, Vec::new()),
        Err(diags) => FileReport::invalid(source, diags),
    }
}

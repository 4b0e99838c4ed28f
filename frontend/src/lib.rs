//! The OpenCL and CUDA front end (issue 17): a kernel file becomes `.kbpl` text that the
//! ordinary pipeline checks and verifies.
//!
//! ```text
//! kernel.cl ─ clang-14 -O0 -g ─ opt-14 -passes=mem2reg ─ llvm-ir ─ translate ─ .kbpl text
//!                                                                               + line origins
//! ```
//!
//! Why text rather than a syntax tree: the generated program must print and re-parse anyway
//! (`kivl transform --emit kbpl`), and going through the parser and checker keeps one route
//! into the pipeline. Every generated line records the kernel source location it comes from
//! ([`Translation::origins`]); [`remap`] moves the parsed program's spans onto the kernel file,
//! so reports point at `kernel.cl` lines.
//!
//! The encoding follows GPUVerify's Boogie (which kivl verifies well): integers and floats as
//! bit-vectors, `{:bvbuiltin}` arithmetic, uninterpreted float operations, one map per memory
//! object indexed by element, blocks with `goto` and guarding `assume`s.

mod builtins;
mod c_access;
mod clang;
mod cuda_host_vars;
mod cuda_rewrites;
mod layout;
mod memory;
pub mod remap;
mod translate;

use ivl::ast::Span;
use ivl::diag::Diagnostic;
use std::path::{Path, PathBuf};

/// The kernel languages the front end reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    OpenCl,
    Cuda,
}

impl Language {
    /// By file extension: `.cl` is OpenCL, `.cu` is CUDA; anything else is not for the front end.
    pub fn of(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "cl" => Some(Language::OpenCl),
            "cu" => Some(Language::Cuda),
            _ => None,
        }
    }
}

/// Preprocessor options passed through to clang (`kivl verify -DN=4 -I dir k.cl`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub defines: Vec<String>,
    pub includes: Vec<PathBuf>,
    /// The dimensions of the sizes given on the command line: what `get_work_dim()` returns
    /// (without sizes it is an arbitrary value).
    pub work_dim: Option<u32>,
    /// `--check-array-bounds`: every access to an array whose size the kernel states (a
    /// `__local`, `__constant` or private array) is checked to lie inside it.
    pub check_array_bounds: bool,
}

/// A line and column (1-based) of the kernel file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// A translated kernel file.
#[derive(Clone, Debug)]
pub struct Translation {
    pub kbpl: String,
    /// Per line of `kbpl` (0-based), the kernel source location it was generated from.
    pub origins: Vec<Option<Loc>>,
    /// Where lines without an origin point: the first kernel's definition.
    pub fallback: Loc,
    /// Seconds spent in clang and opt, and in reading and translating the IR.
    pub clang_secs: f64,
    pub translate_secs: f64,
}

/// Translates the kernel file at `path` (whose text is `text`, for locating diagnostics).
pub fn translate_file(path: &Path, text: &str, lang: Language, opts: &Options) -> Result<Translation, Vec<Diagnostic>> {
    let t0 = std::time::Instant::now();
    let dir = clang::TempDir::new()
        .map_err(|e| vec![Diagnostic::unsupported(format!("cannot create a temporary directory: {e}"), Span::DUMMY)])?;
    let ll = match clang::compile(path, lang, &opts.defines, &opts.includes, &dir) {
        Ok(ll) => ll,
        Err(clang::ClangError::Source(errors)) => {
            return Err(errors
                .into_iter()
                .map(|(line, col, msg)| {
                    Diagnostic::syntax(format!("clang: {msg}"), span_at(text, Loc { line, col })).with_label(msg)
                })
                .collect())
        }
        Err(clang::ClangError::Tool(msg)) => return Err(vec![Diagnostic::unsupported(msg, Span::DUMMY)]),
    };
    let clang_secs = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let ir_text = std::fs::read_to_string(&ll)
        .map_err(|e| vec![Diagnostic::unsupported(format!("cannot read clang's output: {e}"), Span::DUMMY)])?;
    // The IR reader is a foreign library: a panic in it is an unsupported input, not a crash.
    let module = std::panic::catch_unwind(|| llvm_ir::Module::from_ir_path(&ll))
        .map_err(|_| vec![Diagnostic::unsupported("the LLVM IR reader failed on this kernel", Span::DUMMY)])?
        .map_err(|e| vec![Diagnostic::unsupported(format!("cannot read clang's IR: {e}"), Span::DUMMY)])?;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let kernels = match lang {
        Language::OpenCl => Vec::new(),
        Language::Cuda => clang::nvvm_kernels(&ir_text),
    };
    // The IR reader's queries (`type_of`) panic on some shapes the translator did not foresee:
    // an unsupported input, not a crash.
    let translated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        translate::translate_module(&module, &file_name, &kernels, opts)
    }))
    .map_err(|_| vec![Diagnostic::unsupported("the LLVM IR reader failed on this kernel", Span::DUMMY)])?;
    let mut out = translated.map_err(|errors| {
        errors
            .into_iter()
            .map(|(loc, msg)| {
                let span = loc.map_or(Span::DUMMY, |l| span_at(text, l));
                Diagnostic::unsupported(msg, span).with_label("not supported by the OpenCL/CUDA front end")
            })
            .collect::<Vec<_>>()
    })?;
    out.clang_secs = clang_secs;
    out.translate_secs = t1.elapsed().as_secs_f64();
    Ok(out)
}

/// The text of a kernel file whose bytes are not all UTF-8 (a Latin-1 `©` or a Windows-1252
/// quote in a comment, which clang accepts): every byte that is not part of a valid UTF-8
/// sequence becomes `?`, so that the text has the file's byte offsets, lines and columns (clang
/// reports columns in bytes) and diagnostics land where clang says. clang reads the file
/// itself, so the translation does not depend on this text.
pub fn decode_source(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    text
}

/// The span of a source location. clang places a load at the start of its expression and a
/// store at its assignment operator, so that a race report can underline the two accesses
/// themselves, as `kivl run` does:
/// - at an assignment operator (`=`, `+=`, `++`, …): the target written, before it;
/// - at a name followed by selectors (`A[i]`, `s.f`, `p->f`): that access;
/// - otherwise (a call, a barrier, an unknown column): from the column to the end of the line
///   (without the line break), so that the report shows the statement.
pub fn span_at(text: &str, loc: Loc) -> Span {
    let mut start = 0usize;
    for _ in 1..loc.line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return Span::new(text.len(), text.len()),
        }
    }
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = if text[..end].ends_with('\r') { end - 1 } else { end };
    let col = (loc.col.max(1) - 1) as usize;
    let from = (start + col).min(end);
    let from = if text.is_char_boundary(from) { from } else { start };
    // Leading whitespace is not part of the statement.
    let from = if col == 0 { from + (text[from..end].len() - text[from..end].trim_start().len()) } else { from };
    let line = &text.as_bytes()[start..end];
    let at = from - start;
    let access = || c_access::target_before(line, at).or_else(|| c_access::access_at(line, at));
    let (a, b) = if col == 0 { None } else { access() }.unwrap_or((at, line.len()));
    Span::new(start + a, start + b.max(a))
}

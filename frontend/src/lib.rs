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
mod global_size;
mod launches;
mod layout;
mod memory;
pub mod remap;
mod translate;

pub use clang::remove_temp_dirs;
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
    /// `--cl-std`: the OpenCL C version a `.cl` file is compiled as; None: the one it needs
    /// ([`ClStd::needed_by`]).
    pub cl_std: Option<ClStd>,
    /// `--kernel NAME`: verify only these kernels (empty: all, and the functions checked on
    /// their own).
    pub kernels: Vec<String>,
    /// Further arguments for clang, as they are (GPUVerify's `--clang-opt`).
    pub clang_args: Vec<String>,
    /// The run's wall-clock end (`--timeout`): clang and opt are killed when it passes, and the
    /// file gets a `timeout` error instead of IR.
    pub deadline: Option<ivl::deadline::Deadline>,
    /// Which of the kernel's own annotations count (GPUVerify's `--no-annotations`,
    /// `--only-requires`).
    pub annotations: Annotations,
    /// GPUVerify's `--invariants-as-candidates`: the kernel's loop and function-wide
    /// invariants become candidates, kept only where Houdini proves them.
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--global_offset`: OpenCL's global work offset per dimension (the missing
    /// ones 0), added to `get_global_id` and returned by `get_global_offset`.
    pub global_offset: Vec<u64>,
    /// GPUVerify's `--global_size` when the local size is symbolic (`--local_size=*`): per
    /// dimension given, the group size divides it and the number of groups is the quotient.
    /// Empty otherwise (the command line then fixes the number of groups itself).
    pub global_size: Vec<u64>,
    /// GPUVerify's `--boogie-file`: Boogie files whose declarations join the translation (read
    /// by kivl's own front end, `src/front.rs`, after this crate's translation).
    pub boogie_files: Vec<PathBuf>,
}

/// The kernel annotations the front end keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Annotations {
    /// All of them.
    #[default]
    All,
    /// `__requires` only (`--only-requires`).
    OnlyRequires,
    /// None (`--no-annotations`): invariants, contracts and barrier invariants are dropped;
    /// `__assert` and `__assume` stay, as in GPUVerify.
    None,
}

/// The OpenCL C versions kivl compiles (`-cl-std=CL1.2`, `-cl-std=CL2.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClStd {
    Cl12,
    Cl20,
}

impl ClStd {
    /// The version a kernel needs: OpenCL C 2.0 when its text names a built-in that only 2.0
    /// declares (the work-group and sub-group functions); 1.2 otherwise. 1.2 is the default
    /// because 2.0 changes the meaning of code written for 1.2 (an unqualified pointer is
    /// generic, not private).
    pub fn needed_by(text: &str) -> ClStd {
        const ONLY_IN_2_0: [&str; 5] =
            ["work_group_", "sub_group_", "get_sub_group_", "get_max_sub_group_size", "get_num_sub_groups"];
        let named = |w: &str| text.match_indices(w).any(|(i, _)| !follows_identifier(text, i));
        if ONLY_IN_2_0.iter().any(|w| named(w)) {
            ClStd::Cl20
        } else {
            ClStd::Cl12
        }
    }

    /// clang's `-cl-std` value and the `__OPENCL_VERSION__` it stands for.
    pub fn clang(self) -> (&'static str, u32) {
        match self {
            ClStd::Cl12 => ("CL1.2", 120),
            ClStd::Cl20 => ("CL2.0", 200),
        }
    }
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
    let cl_std = opts.cl_std.unwrap_or_else(|| ClStd::needed_by(text));
    let ll = match clang::compile(path, lang, cl_std, opts, &dir) {
        Ok(ll) => ll,
        Err(clang::ClangError::Source(errors)) => {
            return Err(errors
                .into_iter()
                .map(|(line, col, msg)| {
                    let span = span_at(text, Loc { line, col });
                    match unsupported_api(&msg) {
                        Some(api) => Diagnostic::unsupported(
                            format!("`{api}` is a CUDA/OpenCL API that kivl does not support yet"),
                            span,
                        )
                        .with_label("not declared by kivl's CUDA/OpenCL headers")
                        .with_note(format!("clang: {msg}")),
                        None => Diagnostic::syntax(format!("clang: {msg}"), span).with_label(msg),
                    }
                })
                .collect())
        }
        Err(clang::ClangError::Tool(msg)) => return Err(vec![Diagnostic::unsupported(msg, Span::DUMMY)]),
        Err(clang::ClangError::TimedOut(msg)) => {
            return Err(vec![Diagnostic::new(ivl::diag::ErrorKind::Timeout, msg, Span::DUMMY)
                .with_note("clang was stopped: the file's time limit was over before it had compiled the kernel")])
        }
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
    let grid = (lang == Language::Cuda && opts.work_dim.is_none())
        .then(|| translate::Grid { launches: host_launches(path, text, opts, &dir) });
    let translated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        translate::translate_module(&module, &file_name, &kernels, opts, grid.as_ref())
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
    global_size::append_facts(&mut out, &opts.global_size);
    out.clang_secs = clang_secs;
    out.translate_secs = t1.elapsed().as_secs_f64();
    Ok(out)
}

/// Whether the character before byte `i` of `text` continues an identifier (C's or KBPL's,
/// whose names also hold `$` and `.`): a name found at `i` is then only the end of another.
pub(crate) fn follows_identifier(text: &str, i: usize) -> bool {
    text[..i].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// The launches in a CUDA program's host code (none when it has no `<<<`, or when its host
/// side does not compile on its own: the sizes then stay symbolic).
fn host_launches(path: &Path, text: &str, opts: &Options, dir: &clang::TempDir) -> Vec<launches::Launch> {
    if !text.contains("<<<") {
        return Vec::new();
    }
    let Some(ll) = clang::compile_host(path, opts, dir) else { return Vec::new() };
    // The IR reader is a foreign library: a panic in it means no launches, not a crash.
    match std::panic::catch_unwind(|| llvm_ir::Module::from_ir_path(&ll)) {
        Ok(Ok(m)) => launches::find(&m),
        _ => Vec::new(),
    }
}

/// The API a clang error is about when it names something undeclared that only a CUDA or
/// OpenCL API can be (a name reserved for the implementation, `__syncwarp_v2`; a `cuda…`,
/// `work_group_…` or `sub_group_…` function; a member of `cooperative_groups`): kivl's headers
/// declare what kivl models, so such a name is an unsupported API, not a misspelling to
/// suggest a fix for.
fn unsupported_api(msg: &str) -> Option<String> {
    let quoted = |rest: &str| rest.strip_prefix('\'').and_then(|r| r.split_once('\'')).map(|(n, _)| n.to_string());
    if let Some(rest) = msg.strip_prefix("no member named ") {
        let name = quoted(rest)?;
        return msg.contains("namespace 'cooperative_groups'").then(|| format!("cooperative_groups::{name}"));
    }
    let name = quoted(msg.strip_prefix("use of undeclared identifier ")?)?;
    const API: [&str; 5] = ["__", "cuda", "work_group_", "sub_group_", "get_sub_group"];
    API.iter().any(|p| name.starts_with(p)).then_some(name)
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
    span_on_line(text, start, loc)
}

/// [`span_at`] for a `loc` whose line starts at byte `start` of `text` (`None`: past the last
/// line), found by the caller: mapping every span of a program line by line from the start of
/// the text made the front end quadratic in the kernel's length (issue 42).
pub(crate) fn span_at_line_start(text: &str, start: Option<usize>, loc: Loc) -> Span {
    match start {
        Some(start) => span_on_line(text, start, loc),
        None => Span::new(text.len(), text.len()),
    }
}

fn span_on_line(text: &str, start: usize, loc: Loc) -> Span {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undeclared_apis_are_unsupported() {
        let m = "use of undeclared identifier '__syncwarp_x'; did you mean '__sync_swap'?";
        assert_eq!(unsupported_api(m).as_deref(), Some("__syncwarp_x"));
        assert_eq!(
            unsupported_api("use of undeclared identifier 'cudaMallocAsync'").as_deref(),
            Some("cudaMallocAsync")
        );
        assert_eq!(unsupported_api("use of undeclared identifier 'tid'"), None);
        let m = "no member named 'labeled_partition' in namespace 'cooperative_groups'";
        assert_eq!(unsupported_api(m).as_deref(), Some("cooperative_groups::labeled_partition"));
        assert_eq!(unsupported_api("no member named 'x' in 'S'"), None);
    }

    #[test]
    fn opencl_version_from_the_builtins_named() {
        assert_eq!(ClStd::needed_by("x = work_group_reduce_add(y);"), ClStd::Cl20);
        assert_eq!(ClStd::needed_by("x = my_work_group_sum(y);"), ClStd::Cl12);
        assert_eq!(ClStd::needed_by("barrier(CLK_LOCAL_MEM_FENCE);"), ClStd::Cl12);
    }
}

//! Running clang-14 and opt-14: kernel source to LLVM IR text.
//!
//! `-O0 -g -Xclang -disable-O0-optnone` keeps the code as written (no optimisation that would
//! move accesses between lines) with debug locations on every instruction, and lets `opt`
//! run on it; `opt -passes=mem2reg` then turns the stack slots of scalars into SSA values, so
//! that only arrays and address-taken locals remain in memory. No other pass: each one would
//! make the IR further from the source lines the reports point at.
//! `-fno-discard-value-names` keeps the source names of values (`%tid`), which become the
//! names of the generated variables.

use crate::cuda_rewrites;
use crate::{ClStd, Language, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The headers kivl passes to clang, written to a temporary directory.
const ANNOTATIONS_H: &str = include_str!("headers/annotations.h");
const CUDA_H: &str = include_str!("headers/cuda.h");
/// The host runtime API that `headers/cuda.h` includes (by this name, from its own folder).
const CUDA_RUNTIME_H: &str = include_str!("headers/cuda_runtime.h");
/// CUDA's headers whose device declarations `headers/cuda.h` has: empty files of these names.
const CUDA_STUBS: [&str; 22] = [
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "driver_types.h",
    "driver_functions.h",
    "vector_types.h",
    "vector_functions.h",
    "device_types.h",
    "device_launch_parameters.h",
    "host_defines.h",
    "builtin_types.h",
    "channel_descriptor.h",
    "texture_fetch_functions.h",
    "surface_functions.h",
    "cuda_texture_types.h",
    "cuda_profiler_api.h",
    "curand_kernel.h",
    "math_constants.h",
    "device_functions.h",
    "sm_20_intrinsics.h",
    "cooperative_groups.h",
    "cooperative_groups/reduce.h",
];
/// CUDA's headers of kivl's own, by name on the include path; `omp.h` declares the OpenMP
/// runtime for host code (its pragmas are ignored: the host side is not verified).
const CUDA_HEADERS: [(&str, &str); 2] =
    [("cuda_fp16.h", include_str!("headers/cuda_fp16.h")), ("omp.h", include_str!("headers/omp.h"))];

/// What went wrong before there was IR: clang's own diagnostics, or a tool that is missing.
pub enum ClangError {
    /// clang's error lines about the kernel file: `(line, column, message)`, and clang's whole
    /// output for the notes.
    Source(Vec<(u32, u32, String)>),
    /// A tool that could not be run, or that failed without a located message.
    Tool(String),
    /// The run's deadline passed while a tool ran (it was killed): the message to report.
    TimedOut(String),
}

/// A temporary directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> std::io::Result<TempDir> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir =
            std::env::temp_dir().join(format!("kivl-fe-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

/// Removes every temporary directory this process made (`kivl-fe-PID-N`): for an interrupt,
/// which ends the process without running the `Drop` of the directories in use.
pub fn remove_temp_dirs() {
    let prefix = format!("kivl-fe-{}-", std::process::id());
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The tool names; `KIVL_CLANG` / `KIVL_OPT` override them.
fn tool(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

/// Compiles `path` to optimised-for-reading IR in `dir`; returns the `.ll` path.
pub fn compile(
    path: &Path,
    lang: Language,
    cl_std: ClStd,
    opts: &Options,
    dir: &TempDir,
) -> Result<PathBuf, ClangError> {
    let io = |e: std::io::Error| ClangError::Tool(format!("cannot write the front end's headers: {e}"));
    let ann = dir.0.join("kivl_annotations.h");
    std::fs::write(&ann, ANNOTATIONS_H).map_err(io)?;
    let raw = dir.0.join("kernel.ll");
    let ll = dir.0.join("kernel.mem2reg.ll");
    let mut cmd = Command::new(tool("KIVL_CLANG", "clang-14"));
    match lang {
        Language::OpenCl => {
            // The spir target defines no platform version: the language's.
            let (std, version) = cl_std.clang();
            cmd.args(["-x", "cl", &format!("-cl-std={std}"), "-target", "spir", "-Xclang", "-finclude-default-header"]);
            cmd.arg(format!("-D__OPENCL_VERSION__={version}"));
        }
        Language::Cuda => {
            let cuda = dir.0.join("kivl_cuda.h");
            std::fs::write(&cuda, CUDA_H).map_err(io)?;
            std::fs::write(dir.0.join("kivl_cuda_runtime.h"), CUDA_RUNTIME_H).map_err(io)?;
            // `-m32`: the device target is then 32-bit nvptx, so pointers and `size_t` are
            // 32 bits as in OpenCL's spir and in GPUVerify's encoding.
            cmd.args(["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-m32"]);
            cmd.arg("-include").arg(&cuda);
            // Kernels written for GPUVerify `#include "cuda.h"` (or CUDA's other device
            // headers): empty ones in the search path (kivl's header is already included).
            let inc = dir.0.join("include");
            std::fs::create_dir_all(&inc).map_err(io)?;
            std::fs::create_dir_all(inc.join("cooperative_groups")).map_err(io)?;
            for h in CUDA_STUBS {
                std::fs::write(inc.join(h), "/* kivl: see kivl_cuda.h */\n").map_err(io)?;
            }
            for (h, text) in CUDA_HEADERS {
                std::fs::write(inc.join(h), text).map_err(io)?;
            }
            cmd.arg("-isystem").arg(&inc);
        }
    }
    cmd.arg("-include").arg(&ann);
    if let Some(mode) = annotation_mode_header(opts) {
        let h = dir.0.join("kivl_annotation_mode.h");
        std::fs::write(&h, mode).map_err(io)?;
        cmd.arg("-include").arg(&h);
    }
    cmd.args(["-emit-llvm", "-S", "-O0", "-g", "-Xclang", "-disable-O0-optnone", "-fno-discard-value-names"]);
    cmd.args(["-Wno-everything", "-fno-color-diagnostics"]);
    user_args(&mut cmd, opts);
    cmd.arg("-o").arg(&raw);
    let run = |cmd: &mut Command, src: &Path| {
        output_by(cmd.arg(src), opts.deadline)?
            .map_err(|e| ClangError::Tool(format!("cannot run clang-14 ({e}); run scripts/setup.sh")))
    };
    let mut out = run(Command::new(cmd.get_program()).args(cmd.get_args()), path)?;
    if !out.status.success() && lang == Language::Cuda {
        // Again, from a copy with what nvcc accepts in clang's terms (`cuda_rewrites.rs`).
        let source = crate::decode_source(&std::fs::read(path).unwrap_or_default());
        if let Some(edits) = cuda_rewrites::plan(&String::from_utf8_lossy(&out.stderr), path, &source) {
            let copy = dir.0.join("src");
            std::fs::create_dir_all(&copy).map_err(io)?;
            let copy = copy.join(path.file_name().unwrap_or_default());
            std::fs::write(&copy, cuda_rewrites::apply(&source, &edits, path)).map_err(io)?;
            if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                cmd.arg("-I").arg(d);
            }
            out = run(&mut cmd, &copy)?;
        }
    }
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let errors = located_errors(&stderr, path);
        return Err(if errors.is_empty() {
            ClangError::Tool(format!("clang failed: {}", stderr.trim()))
        } else {
            ClangError::Source(errors)
        });
    }
    let out = output_by(
        Command::new(tool("KIVL_OPT", "opt-14")).args(["-S", "-passes=mem2reg", "-o"]).arg(&ll).arg(&raw),
        opts.deadline,
    )?
    .map_err(|e| ClangError::Tool(format!("cannot run opt-14 ({e}); run scripts/setup.sh")))?;
    if !out.status.success() {
        return Err(ClangError::Tool(format!("opt failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(ll)
}

/// Macros the header of `--no-annotations`, `--only-requires` and `--invariants-as-candidates`
/// redefines after `headers/annotations.h`: GPUVerify's meaning of these options is the same
/// redefinition of its annotation macros (bugle's `no_annotations.h`, `candidate_annotations.h`).
const CONTRACTS: [&str; 4] = ["__requires", "__global_requires", "__ensures", "__global_ensures"];
const INVARIANTS: [&str; 6] = [
    "__invariant",
    "__global_invariant",
    "__candidate_invariant",
    "__candidate_global_invariant",
    "__function_wide_invariant",
    "__function_wide_candidate_invariant",
];
/// The invariants `--invariants-as-candidates` turns into candidates, and the candidate each
/// becomes.
const AS_CANDIDATES: [(&str, &str); 3] = [
    ("__invariant", "__candidate_invariant"),
    ("__global_invariant", "__candidate_global_invariant"),
    ("__function_wide_invariant", "__function_wide_candidate_invariant"),
];
/// The arities of `__barrier_invariant_N` and `__barrier_invariant_binary_N` in
/// `headers/annotations.h`.
const BARRIER_INVARIANTS: std::ops::RangeInclusive<usize> = 1..=32;
const BINARY_BARRIER_INVARIANTS: std::ops::RangeInclusive<usize> = 1..=2;

/// The header that gives the kernel's annotations the meaning the options ask for: dropped
/// annotations expand to nothing (their expression is not even compiled, as in GPUVerify),
/// and under `--invariants-as-candidates` an invariant is the candidate of the same kind.
/// `None` when every annotation keeps its meaning.
pub(crate) fn annotation_mode_header(opts: &Options) -> Option<String> {
    use crate::Annotations;
    let mut dropped: Vec<String> = Vec::new();
    if opts.annotations != Annotations::All {
        dropped.extend(INVARIANTS.iter().map(|m| format!("{m}(e)")));
        let contracts =
            CONTRACTS.iter().filter(|m| !(opts.annotations == Annotations::OnlyRequires && **m == "__requires"));
        dropped.extend(contracts.map(|m| format!("{m}(e)")));
        dropped.extend(BARRIER_INVARIANTS.map(|n| format!("__barrier_invariant_{n}(...)")));
        dropped.extend(BINARY_BARRIER_INVARIANTS.map(|n| format!("__barrier_invariant_binary_{n}(...)")));
    }
    let mut text = String::new();
    for m in &dropped {
        let name = &m[..m.find('(').unwrap_or(m.len())];
        text.push_str(&format!("#undef {name}\n#define {m} ((void)0)\n"));
    }
    if opts.invariants_as_candidates {
        for (inv, cand) in AS_CANDIDATES {
            text.push_str(&format!("#undef {inv}\n#define {inv}(e) {cand}(e)\n"));
        }
    }
    (!text.is_empty()).then(|| format!("/* kivl: the annotation options (clang.rs) */\n{text}"))
}

/// Compiles the host side of a CUDA program (after [`compile`], whose headers it reuses) to IR
/// in which its launches can be read (`launches.rs`): `-O1` folds constants, `-fno-inline`
/// keeps each launch's call of its kernel's host stub, `-fno-exceptions` makes it a call (not
/// an `invoke`) in code with destructors. x86-64, so that a `dim3` is passed as `{i64, i32}`.
/// None when it does not compile (the launches are then unknown).
pub fn compile_host(path: &Path, opts: &Options, dir: &TempDir) -> Option<PathBuf> {
    let ll = dir.0.join("host.ll");
    let mut cmd = Command::new(tool("KIVL_CLANG", "clang-14"));
    cmd.args(["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib"]);
    cmd.arg("-include").arg(dir.0.join("kivl_cuda.h"));
    cmd.arg("-include").arg(dir.0.join("kivl_annotations.h"));
    cmd.arg("-isystem").arg(dir.0.join("include"));
    cmd.args(["-emit-llvm", "-S", "-O1", "-fno-inline", "-fno-exceptions", "-g", "-Wno-everything"]);
    cmd.arg("-fno-color-diagnostics");
    user_args(&mut cmd, opts);
    let out = output_by(cmd.arg("-o").arg(&ll).arg(path), opts.deadline).ok()?.ok()?;
    out.status.success().then_some(ll)
}

/// Runs `cmd` to its end, or kills it when `deadline` passes (then a [`ClangError::TimedOut`]).
/// Its output is read while it runs, so that a tool writing much to a pipe is not blocked.
fn output_by(
    cmd: &mut Command,
    deadline: Option<ivl::deadline::Deadline>,
) -> Result<std::io::Result<std::process::Output>, ClangError> {
    use std::io::Read;
    use std::process::Stdio;
    let Some(deadline) = deadline else { return Ok(cmd.output()) };
    if deadline.passed() {
        return Err(ClangError::TimedOut(timed_out(deadline)));
    }
    let mut child = match cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if deadline.passed() => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(ClangError::TimedOut(timed_out(deadline)));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5).min(deadline.remaining())),
            Err(e) => return Ok(Err(e)),
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    Ok(Ok(std::process::Output { status, stdout, stderr }))
}

/// The message of a file whose front end was stopped by the deadline.
fn timed_out(deadline: ivl::deadline::Deadline) -> String {
    ivl::deadline::given_up(deadline.limit(), Some("front end"))
}

/// The command line's `-D`, `-I` and `--clang-opt` arguments.
fn user_args(cmd: &mut Command, opts: &Options) {
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.includes {
        cmd.arg("-I").arg(i);
    }
    cmd.args(&opts.clang_args);
}

/// clang's `FILE:LINE:COL: error: MESSAGE` lines about the kernel file.
fn located_errors(stderr: &str, path: &Path) -> Vec<(u32, u32, String)> {
    let name = path.display().to_string();
    stderr
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(name.as_str())?.strip_prefix(':')?;
            let mut parts = rest.splitn(4, ':');
            let line = parts.next()?.trim().parse().ok()?;
            let col = parts.next()?.trim().parse().ok()?;
            let kind = parts.next()?.trim();
            let msg = parts.next()?.trim();
            (kind == "error" || kind == "fatal error").then(|| (line, col, msg.to_string()))
        })
        .collect()
}

/// The functions the IR marks as kernels: OpenCL's `spir_kernel` calling convention is read
/// from the module; CUDA's `__global__` functions are only named in `!nvvm.annotations`,
/// which the `llvm-ir` crate does not expose, so they are read from the IR text.
pub fn nvvm_kernels(ir_text: &str) -> Vec<String> {
    ir_text
        .lines()
        .filter(|l| l.contains("!\"kernel\""))
        .filter_map(|l| {
            let at = l.find('@')?;
            let name: String =
                l[at + 1..].chars().take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$')).collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[cfg(test)]
mod annotation_mode_tests {
    use super::annotation_mode_header;
    use crate::{Annotations, Options};

    #[test]
    fn the_options_redefine_the_annotation_macros() {
        assert_eq!(annotation_mode_header(&Options::default()), None);
        let none = annotation_mode_header(&Options { annotations: Annotations::None, ..Default::default() }).unwrap();
        for dropped in ["__invariant(e)", "__requires(e)", "__global_ensures(e)", "__barrier_invariant_32(...)"] {
            assert!(none.contains(&format!("#define {dropped} ((void)0)\n")), "{dropped}: {none}");
        }
        let only = Options { annotations: Annotations::OnlyRequires, ..Default::default() };
        let only = annotation_mode_header(&only).unwrap();
        assert!(!only.contains("__requires(e)") && only.contains("#define __global_requires(e) ((void)0)"), "{only}");
        let cand = annotation_mode_header(&Options { invariants_as_candidates: true, ..Default::default() }).unwrap();
        assert!(cand.contains("#define __invariant(e) __candidate_invariant(e)\n"), "{cand}");
        assert!(!cand.contains("((void)0)"), "{cand}");
    }
}

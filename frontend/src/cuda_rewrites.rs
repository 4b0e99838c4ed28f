//! CUDA that nvcc (and the clang of GPUVerify's time) accepts and clang-14 rejects, rewritten
//! in a copy of the kernel so that it compiles with the meaning nvcc gives it.
//!
//! When every error clang reports is one of the kinds below, at a place in the kernel file
//! itself, the kernel is compiled again from a copy with one edit per error; every line, column
//! and file name of the copy is the original's (edits blank text out with spaces, or insert
//! lines followed by `#line N "kernel"`). Any other error, or one of these kinds in an included
//! header, leaves the source as it is and clang's errors are reported.
//!
//! - **Host variables** used by device code (`cuda_host_vars.rs`): `__device__` before them.
//! - **`extern __shared__ T a[N];`** (a sized extern shared array, `CUDA20/bitonicsort`): clang
//!   accepts `extern` only on unsized shared arrays (the dynamic shared memory, whose extern
//!   arrays all start at the same address). The array is read as a plain `__shared__` array of
//!   `N` elements, as GPUVerify did; that is sound only if it is the kernel's only extern shared
//!   array (two of them would alias, and separate arrays would hide their races), so a file with
//!   two `extern __shared__` declarations is left to clang's error.
//! - **`__device__ __shared__` on a local variable** (`gpgpu-sim/DG/MaxwellsGPU_*`): clang allows
//!   no `__device__` on a non-static local; in nvcc a `__shared__` variable is device memory
//!   anyway, so the `__device__` is dropped when the declaration is also `__shared__`. (A local
//!   `__constant__` or a lone `__device__` keeps clang's error: per-thread copies could differ
//!   from nvcc's single object.)
//! - **`__global__ __device__` on one function** (`gpgpu-sim/RAY/*`): clang-14 refuses the pair;
//!   GPUVerify's front end read the function as a kernel. The `__device__` after `__global__` is
//!   dropped, so the function stays the kernel it is launched as.
//! - **An explicit instantiation without `__global__`** (`template void f<32>(…);` of a
//!   `__global__` template, `0_Simple/matrixMul`): clang wants the instantiation's target
//!   attribute to match the template's; nvcc infers it. `__global__` is added (if the template
//!   is not a kernel, the second compilation fails and its error is reported).

use crate::cuda_host_vars;
use std::path::Path;

/// One change to the kernel's source, at 1-based lines and columns of the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// The line `text`, then `#line N`, before line `N`.
    InsertBefore(u32, &'static str),
    /// The bytes `[col, col + len)` of a line replaced by spaces.
    Blank { line: u32, col: u32, len: u32 },
}

/// The edits that fix every error of clang's output `stderr` about `path`, whose source is
/// `source`; None when some error is of another kind (or the output has none).
pub fn plan(stderr: &str, path: &Path, source: &str) -> Option<Vec<Edit>> {
    let name = path.display().to_string();
    let lines: Vec<&str> = source.lines().collect();
    let mut edits = Vec::new();
    let mut host_errors = false;
    for l in stderr.lines().filter(|l| l.contains(": error: ")) {
        if cuda_host_vars::is_host_reference(l) {
            host_errors = true;
            continue;
        }
        let (line, col, msg) = located(l, &name)?;
        let text = *lines.get(line.checked_sub(1)? as usize)?;
        edits.push(fix(line, col, msg, text, source)?);
    }
    if host_errors {
        // A sized extern shared array is also a "host variable" until its `extern` goes.
        let blanked: Vec<u32> =
            edits.iter().filter_map(|e| if let Edit::Blank { line, .. } = e { Some(*line) } else { None }).collect();
        let host = cuda_host_vars::declaration_lines(stderr, path);
        if host.is_empty() && blanked.is_empty() {
            return None;
        }
        edits.extend(host.into_iter().filter(|n| !blanked.contains(n)).map(|n| Edit::InsertBefore(n, "__device__")));
    }
    edits.sort_by_key(|e| match e {
        Edit::InsertBefore(n, _) | Edit::Blank { line: n, .. } => *n,
    });
    edits.dedup();
    (!edits.is_empty()).then_some(edits)
}

/// `(line, column, message)` of an error line `FILE:LINE:COL: error: MESSAGE` about `name`.
fn located<'a>(l: &'a str, name: &str) -> Option<(u32, u32, &'a str)> {
    let rest = l.strip_prefix(name)?.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let col = parts.next()?.parse().ok()?;
    let msg = parts.next()?.trim().strip_prefix("error: ")?;
    Some((line, col, msg))
}

/// The edit for one error at `line:col` (whose text is `text`).
fn fix(line: u32, col: u32, msg: &str, text: &str, source: &str) -> Option<Edit> {
    let at = (col as usize).checked_sub(1)?;
    if msg.starts_with("__shared__ variable") && msg.ends_with("cannot be 'extern'") {
        if extern_shared_declarations(source) != 1 {
            return None;
        }
        let e = text.get(..at)?.rfind("extern")?;
        return Some(Edit::Blank { line, col: e as u32 + 1, len: 6 });
    }
    if msg.starts_with("__constant__, __device__, and __managed__ are not allowed on non-static local") {
        let shared = text.contains("__shared__");
        return (shared && text.get(at..)?.starts_with("__device__")).then_some(Edit::Blank { line, col, len: 10 });
    }
    if msg == "'device' and 'global' attributes are not compatible" {
        let global = text.get(..at)?.contains("__global__");
        return (global && text.get(at..)?.starts_with("__device__")).then_some(Edit::Blank { line, col, len: 10 });
    }
    if msg.starts_with("explicit instantiation of") && msg.contains("does not refer to a function template") {
        let t = text.find("template")?;
        let plain = text[..t].trim().is_empty() && !text.contains("__global__") && !text.contains("__device__");
        return plain.then_some(Edit::InsertBefore(line, "template __global__"));
    }
    None
}

/// How many times `extern` is followed by `__shared__` (spaces between) in `source`, outside
/// `//` comments.
fn extern_shared_declarations(source: &str) -> usize {
    let code = source.lines().map(|l| l.split("//").next().unwrap_or_default());
    code.map(|l| l.match_indices("extern").filter(|(i, _)| l[i + 6..].trim_start().starts_with("__shared__")).count())
        .sum()
}

/// The source with `edits` made, numbered as the original (`file` in its `#line`s). An
/// inserted `template __global__` takes the place of the line's own `template`.
pub fn apply(source: &str, edits: &[Edit], file: &Path) -> String {
    let file = file.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::with_capacity(source.len() + 64 * edits.len());
    for (i, line) in source.split_inclusive('\n').enumerate() {
        let n = i as u32 + 1;
        let mut line = line.to_string();
        for e in edits {
            match *e {
                Edit::InsertBefore(m, text) if m == n => {
                    out.push_str(&format!("{text}\n#line {n} \"{file}\"\n"));
                    if text.starts_with("template ") {
                        if let Some(t) = line.find("template") {
                            line.replace_range(t..t + 8, "        ");
                        }
                    }
                }
                Edit::Blank { line: m, col, len } if m == n => {
                    let (a, b) = (col as usize - 1, (col + len) as usize - 1);
                    if line.is_char_boundary(a) && line.is_char_boundary(b.min(line.len())) {
                        line.replace_range(a..b.min(line.len()), &" ".repeat(b.min(line.len()) - a));
                    }
                }
                _ => {}
            }
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str = "/k/kernel.cu";

    fn rewrite(src: &str, err: &str) -> Option<String> {
        let p = Path::new(P);
        plan(err, p, src).map(|e| apply(src, &e, p))
    }

    #[test]
    fn host_variables() {
        let err = "/k/kernel.cu:8:4: error: reference to __host__ variable 'b' in __global__ function\n\
                   /k/kernel.cu:3:7: note: host variable declared here\n";
        let src = "a\nb\nchar *buffer;\nd\n";
        assert_eq!(rewrite(src, err).unwrap(), "a\nb\n__device__\n#line 3 \"/k/kernel.cu\"\nchar *buffer;\nd\n");
        let other = format!("{err}/k/kernel.cu:9:1: error: use of undeclared identifier 'q'\n");
        assert_eq!(rewrite(src, &other), None);
    }

    #[test]
    fn sized_extern_shared_array() {
        let src = "__global__ void k() {\n  extern __shared__ int s[32];\n  s[0] = 1;\n}\n";
        let err = "/k/kernel.cu:2:10: error: __shared__ variable 's' cannot be 'extern'\n\
                   /k/kernel.cu:3:3: error: reference to __host__ variable 's' in __global__ function\n\
                   /k/kernel.cu:2:25: note: host variable declared here\n";
        assert_eq!(
            rewrite(src, err).unwrap(),
            "__global__ void k() {\n         __shared__ int s[32];\n  s[0] = 1;\n}\n"
        );
        // Two extern shared arrays alias each other: not rewritten.
        let two = src.replace("  s[0]", "  extern __shared__ int t[];\n  s[0]");
        assert_eq!(rewrite(&two, err), None);
        // A comment is no declaration.
        assert!(rewrite(&format!("// extern __shared__\n{src}"), &err.replace(":2:", ":3:").replace(":3:3:", ":4:3:"))
            .is_some());
    }

    #[test]
    fn device_shared_local() {
        let src = "void k() {\n  __device__ __shared__ float s[4];\n  __device__ float t;\n}\n";
        let e = |l| {
            format!("/k/kernel.cu:{l}:3: error: __constant__, __device__, and __managed__ are not allowed on non-static local variables\n")
        };
        assert_eq!(
            rewrite(src, &e(2)).unwrap(),
            "void k() {\n             __shared__ float s[4];\n  __device__ float t;\n}\n"
        );
        // Not shared: a per-thread local would not be nvcc's object.
        assert_eq!(rewrite(src, &e(3)), None);
    }

    #[test]
    fn global_device_function() {
        let src = "__global__  __device__ void k(int *A) {}\n";
        let err = "/k/kernel.cu:1:13: error: 'device' and 'global' attributes are not compatible\n";
        assert_eq!(rewrite(src, err).unwrap(), "__global__             void k(int *A) {}\n");
        // `__device__` alone is not the pair: left to clang.
        assert_eq!(rewrite("__device__ void k() {}\n", &err.replace(":13:", ":1:")), None);
    }

    #[test]
    fn explicit_instantiation_of_a_kernel() {
        let src = "template <int N> __global__ void f(int *);\ntemplate void f<16>(int *);\n";
        let err = "/k/kernel.cu:2:15: error: explicit instantiation of 'f' does not refer to a function template, variable template, member function, member class, or static data member\n";
        assert_eq!(
            rewrite(src, err).unwrap(),
            "template <int N> __global__ void f(int *);\ntemplate __global__\n#line 2 \"/k/kernel.cu\"\n         void f<16>(int *);\n"
        );
        // An error in a header cannot be rewritten in the kernel.
        assert_eq!(rewrite(src, &err.replace("/k/kernel.cu", "/k/common.h")), None);
    }
}

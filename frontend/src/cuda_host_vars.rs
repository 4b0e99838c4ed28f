//! CUDA file-scope variables declared without `__device__` and used by device code.
//!
//! clang-14 rejects them ("reference to __host__ variable 'x' in __global__ function"), the
//! clang of GPUVerify's time did not, and GPUVerify's test suite relies on it
//! (`CUDA/atomics/pointer_add`, `CUDA/memcpy_simplification/i8_element_global_passed_to_call1`):
//! the variable is then one object in the device's global memory, shared by every thread.
//! kivl reads it the same way, as if it were declared `__device__`, which is the
//! over-approximating choice (accesses of different threads to it are checked for races;
//! private copies per thread would hide them).
//!
//! How: when clang's only errors are of that kind, its notes ("host variable declared here")
//! give the declarations' lines; the kernel is compiled again from a copy in which the line
//! `__device__` is inserted before each of those lines, each followed by `#line N "kernel"`
//! so that every line, column and file name of the copy is the original's.

use std::path::Path;

/// The lines (1-based) of the host variables clang's output `stderr` about `path` complains
/// about, when those complaints are its only errors; empty otherwise.
pub fn declaration_lines(stderr: &str, path: &Path) -> Vec<u32> {
    let name = path.display().to_string();
    let mut errors_all_host = true;
    let mut lines = Vec::new();
    for l in stderr.lines() {
        if l.contains(": error: ") && !l.contains("reference to __host__ variable") {
            errors_all_host = false;
        }
        let Some(rest) = l.strip_prefix(name.as_str()).and_then(|r| r.strip_prefix(':')) else { continue };
        if rest.ends_with(": note: host variable declared here") {
            if let Some(n) = rest.split(':').next().and_then(|n| n.parse().ok()) {
                lines.push(n);
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    if errors_all_host {
        lines
    } else {
        Vec::new()
    }
}

/// The kernel's source with `__device__` before each of `lines`, numbered as the original.
pub fn patched_source(source: &str, lines: &[u32], path: &Path) -> String {
    let file = path.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::with_capacity(source.len() + 64 * lines.len());
    for (i, line) in source.split_inclusive('\n').enumerate() {
        let n = i as u32 + 1;
        if lines.contains(&n) {
            out.push_str(&format!("__device__\n#line {n} \"{file}\"\n"));
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_declarations_and_patches_them() {
        let p = Path::new("/k/kernel.cu");
        let err = "/k/kernel.cu:8:4: error: reference to __host__ variable 'b' in __global__ function\n\
                   /k/kernel.cu:4:7: note: host variable declared here\n";
        assert_eq!(declaration_lines(err, p), vec![4]);
        let other = format!("{err}/k/kernel.cu:9:1: error: use of undeclared identifier 'q'\n");
        assert!(declaration_lines(&other, p).is_empty());
        let src = "a\nb\nchar *buffer;\nd\n";
        assert_eq!(patched_source(src, &[3], p), "a\nb\n__device__\n#line 3 \"/k/kernel.cu\"\nchar *buffer;\nd\n");
    }
}

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
//! How: clang's notes ("host variable declared here") give the declarations' lines;
//! `cuda_rewrites.rs` inserts `__device__` before each of those lines in a copy of the kernel.

use std::path::Path;

/// Whether clang's error line `l` is a device function's reference to a host variable.
pub fn is_host_reference(l: &str) -> bool {
    l.contains(": error: reference to __host__ variable")
}

/// The lines (1-based) of the host variables clang's output `stderr` about `path` complains
/// about (the lines of its notes).
pub fn declaration_lines(stderr: &str, path: &Path) -> Vec<u32> {
    let name = path.display().to_string();
    let mut lines: Vec<u32> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix(name.as_str())?.strip_prefix(':'))
        .filter(|rest| rest.ends_with(": note: host variable declared here"))
        .filter_map(|rest| rest.split(':').next()?.parse().ok())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_declarations() {
        let p = Path::new("/k/kernel.cu");
        let err = "/k/kernel.cu:8:4: error: reference to __host__ variable 'b' in __global__ function\n\
                   /k/kernel.cu:4:7: note: host variable declared here\n\
                   /k/other.h:2:7: note: host variable declared here\n";
        assert!(err.lines().next().is_some_and(is_host_reference));
        assert_eq!(declaration_lines(err, p), vec![4]);
    }
}

//! The thread grid's dimensions and sizes: the three dimension names (`x`, `y`, `z`) and the
//! work-group and grid sizes of a kernel run, when they are fixed.
//!
//! Why one module: the two-thread reduction (`two_thread/config.rs`, which states the sizes as
//! preconditions) and candidate invariant generation (`invariants/facts.rs`, which writes them
//! as literals and bounds power-of-two families by them) read the same `--local-size` /
//! `--num-groups` values; both take them from here.

use ivl::ast::Span;
use ivl::diag::Diagnostic;

/// The dimensions of the thread grid, in order.
pub const DIMS: [&str; 3] = ["x", "y", "z"];

/// Work-group and grid sizes, when fixed (command line or axioms; `None`: symbolic or fixed by
/// the file's own axioms). Dimensions not given are 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub local: Option<[u64; 3]>,
    pub groups: Option<[u64; 3]>,
}

/// The first three values of `v`, missing ones 1.
fn padded(v: &[u64]) -> [u64; 3] {
    let dim = |d: usize| v.get(d).copied().unwrap_or(1);
    [dim(0), dim(1), dim(2)]
}

impl Sizes {
    /// Checks `--local-size` / `--num-groups` values: 1 to 3 positive numbers.
    pub fn new(local: Option<&[u64]>, groups: Option<&[u64]>) -> Result<Sizes, Diagnostic> {
        fn dims<'a>(flag: &str, v: Option<&'a [u64]>) -> Result<Option<&'a [u64]>, Diagnostic> {
            match v {
                Some(v) if v.is_empty() || v.len() > 3 || v.contains(&0) => Err(Diagnostic::unsupported(
                    format!("`{flag}` takes 1 to 3 positive numbers, got {v:?}"),
                    Span::DUMMY,
                )),
                _ => Ok(v),
            }
        }
        Ok(Sizes::padded(dims("--local-size", local)?, dims("--num-groups", groups)?))
    }

    /// The sizes as given, unchecked: the first three values of each, missing dimensions 1.
    pub fn padded(local: Option<&[u64]>, groups: Option<&[u64]>) -> Sizes {
        Sizes { local: local.map(padded), groups: groups.map(padded) }
    }

    /// The number of threads of a work-group.
    pub fn group_threads(&self) -> Option<u64> {
        self.local.map(|l| l.iter().product())
    }

    /// Whether a group certainly has at least two threads (else the "pair" may be one thread).
    pub fn group_has_pairs(&self) -> bool {
        self.group_threads().is_some_and(|n| n >= 2)
    }

    /// Whether the grid certainly has a single group (no inter-group pairs).
    pub fn single_group(&self) -> bool {
        self.groups.is_some_and(|g| g == [1, 1, 1])
    }
}

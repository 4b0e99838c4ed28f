//! The sizes a CUDA kernel runs with, as preconditions of its procedure (issue 39), when the
//! command line gives none:
//!
//! - **the hardware's limits**: a block has at most 1,024 threads (x and y at most 1,024, z at
//!   most 64) and a grid at most 2³¹ − 1 blocks in x and 65,535 in y and z (CUDA C++
//!   Programming Guide, "Compute Capabilities", every architecture since 3.0), so no witness
//!   of a bug uses sizes no GPU can launch;
//! - **the program's launches** (`launches.rs`): the kernel runs with one of the sizes its
//!   launches give — a disjunction with one case per launch, each a conjunction of the sizes
//!   known (a constant, or an expression of the kernel's own parameters); a size that is not
//!   known is left out, so it stays symbolic within the limits.
//!
//! These are `requires` of the kernel, which the two-thread program assumes like the
//! preconditions a user writes; sizes on the command line replace them all.

use super::*;
use crate::launches::{Launch, Term};

/// What the front end knows of the sizes of a program's kernels.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    pub launches: Vec<Launch>,
}

/// The largest block and grid sizes per dimension (x, y, z), and threads per block.
const MAX_BLOCK: [u64; 3] = [1024, 1024, 64];
const MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];
const MAX_THREADS_PER_BLOCK: u64 = 1024;

impl<'m> Tr<'m> {
    /// The preconditions on kernel `k`'s sizes; `params[i]` is the KBPL name of its `i`-th
    /// parameter when that is a 32-bit integer.
    pub(super) fn grid_requires(&mut self, k: &Function, params: &[Option<String>], kloc: Option<Loc>) {
        let Some(grid) = self.grid else { return };
        let ule = self.bvop("ULE", 32);
        let mul = self.bvop("MUL", 32);
        let mut limits: Vec<String> = Vec::new();
        for (d, x) in DIMS.iter().enumerate() {
            limits.push(format!("{ule}(group_size_{x}, {}bv32)", MAX_BLOCK[d]));
            limits.push(format!("{ule}(num_groups_{x}, {}bv32)", MAX_GRID[d]));
        }
        limits.push(format!(
            "{ule}({mul}({mul}(group_size_x, group_size_y), group_size_z), {MAX_THREADS_PER_BLOCK}bv32)"
        ));
        self.requires.push((limits.join(" && "), kloc));
        let launches: Vec<&Launch> = grid.launches.iter().filter(|l| l.kernel == k.name).collect();
        if launches.is_empty() {
            return;
        }
        let mut cases = Vec::new();
        for l in &launches {
            let mut known = Vec::new();
            for (d, x) in DIMS.iter().enumerate() {
                for (what, t) in [("group_size", &l.block[d]), ("num_groups", &l.grid[d])] {
                    if let Some(e) = t.as_ref().and_then(|t| self.term_text(t, params)) {
                        known.push(format!("{what}_{x} == {e}"));
                    }
                }
            }
            if known.is_empty() {
                // One launch of unknown sizes: the kernel may run with any.
                return;
            }
            cases.push(format!("({})", known.join(" && ")));
        }
        let at = launches.first().map(|l| Loc { line: l.line, col: 1 }).filter(|l| l.line > 0).or(kloc);
        self.requires.push((cases.join(" || "), at));
    }

    /// A term as KBPL over the kernel's parameters; None when it uses a parameter that is not
    /// a 32-bit integer.
    fn term_text(&mut self, t: &Term, params: &[Option<String>]) -> Option<String> {
        Some(match t {
            Term::Const(v) => format!("{v}bv32"),
            Term::Param(k) => params.get(*k)?.clone()?,
            Term::Bin(op, a, b) => {
                let (a, b) = (self.term_text(a, params)?, self.term_text(b, params)?);
                format!("{}({a}, {b})", self.bvop(op, 32))
            }
        })
    }
}

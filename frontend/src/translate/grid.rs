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
//! - **what the kernel reads**: a dimension whose thread and block ids and sizes the kernel
//!   never reads (`threadIdx.y`, `blockDim.y` for the block's y; `blockIdx.y`, `gridDim.y` for
//!   the grid's) is taken to be 1 — the kernel is written for launches without it — and each
//!   dimension's global ids fit in 32 bits, the range of the 32-bit index arithmetic kernels
//!   write (`blockIdx.x * blockDim.x + threadIdx.x`), which wraps for larger grids: at most
//!   2²² blocks in x (2³² threads at 1,024 a block; a bound linear in the sizes). Both are assumptions about the launch, stated in
//!   docs/kbpl.md §10 with the limits; a launch found in the program or sizes on the command
//!   line make them unnecessary.
//!
//! These are `requires` of the kernel, which the two-thread program assumes like the
//! preconditions a user writes; sizes on the command line replace them all.

use super::Tr;
use crate::builtins::{DIMS, IDENTITY};
use crate::launches::{Launch, Term};
use crate::Loc;
use llvm_ir::Function;
use std::collections::HashSet;

/// What the front end knows of the sizes of a program's kernels.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    pub launches: Vec<Launch>,
}

/// The largest block and grid sizes per dimension (x, y, z), and threads per block.
const MAX_BLOCK: [u64; 3] = [1024, 1024, 64];
const MAX_GRID: [u64; 3] = [(1 << 31) - 1, 65535, 65535];
const MAX_THREADS_PER_BLOCK: u64 = 1024;
/// The blocks in x whose global ids fit in 32 bits at the largest block size (2^32 / 1,024).
const MAX_GRID_X_32_BIT: u64 = 1 << 22;

impl<'m> Tr<'m> {
    /// The preconditions on kernel `k`'s sizes; `params[i]` is the KBPL name of its `i`-th
    /// parameter when that is a 32-bit integer.
    pub(super) fn grid_requires(&mut self, k: &Function, params: &[Option<String>], kloc: Option<Loc>) {
        let Some(grid) = self.facts.grid else { return };
        // Before the limits below are added to the clauses.
        let read = self.identity_read();
        let ule = self.decls.bvop("ULE", 32);
        let mul = self.decls.bvop("MUL", 32);
        let mut limits: Vec<String> = Vec::new();
        for (d, x) in DIMS.iter().enumerate() {
            limits.push(format!("{ule}(group_size_{x}, {}bv32)", MAX_BLOCK[d]));
            limits.push(format!("{ule}(num_groups_{x}, {}bv32)", MAX_GRID[d]));
        }
        limits.push(format!(
            "{ule}({mul}({mul}(group_size_x, group_size_y), group_size_z), {MAX_THREADS_PER_BLOCK}bv32)"
        ));
        self.clauses.require(limits.join(" && "), kloc);
        let launches: Vec<&Launch> = grid.launches.iter().filter(|l| l.kernel == k.name).collect();
        // No launch found: one case with every size unknown.
        let unknown = Launch { line: 0, kernel: k.name.clone(), grid: Default::default(), block: Default::default() };
        let cases_of: Vec<&Launch> = if launches.is_empty() { vec![&unknown] } else { launches.clone() };
        let mut cases = Vec::new();
        for l in cases_of {
            let mut known = Vec::new();
            for (d, x) in DIMS.iter().enumerate() {
                for (what, t) in [("group_size", &l.block[d]), ("num_groups", &l.grid[d])] {
                    match t.as_ref().map(|t| self.term_text(t, params)) {
                        Some(Some(e)) => known.push(format!("{what}_{x} == {e}")),
                        // A size of the launch that kivl could not read: only the assumptions.
                        _ => known.extend(self.assumed_size(what, d, &read)),
                    }
                }
            }
            cases.push(format!("({})", if known.is_empty() { "true".into() } else { known.join(" && ") }));
        }
        let at = launches.first().map(|l| Loc { line: l.line, col: 1 }).filter(|l| l.line > 0).or(kloc);
        self.clauses.require(cases.join(" || "), at);
    }

    /// The identity constants (`local_id_y`, `num_groups_z`, …) the kernel's code and clauses
    /// read.
    fn identity_read(&self) -> HashSet<String> {
        let mut read = HashSet::new();
        for (text, _) in self.body.statements().chain(self.clauses.clauses()) {
            for name in IDENTITY.iter().flat_map(|w| DIMS.iter().map(move |x| format!("{w}_{x}"))) {
                if !read.contains(&name) && text.match_indices(&name).any(|(i, _)| !crate::follows_identifier(text, i))
                {
                    read.insert(name);
                }
            }
        }
        read
    }

    /// What is assumed of a size (`group_size` or `num_groups`, dimension `d`) that no launch
    /// gives, with `read` the identity constants the kernel reads: 1 in a dimension the kernel
    /// does not read, and at most 2^22 blocks in x.
    fn assumed_size(&mut self, what: &str, d: usize, read: &HashSet<String>) -> Option<String> {
        let x = DIMS[d];
        let ids = if what == "group_size" { ["local_id", "group_size"] } else { ["group_id", "num_groups"] };
        if d > 0 && !ids.iter().any(|w| read.contains(&format!("{w}_{x}"))) {
            return Some(format!("{what}_{x} == 1bv32"));
        }
        // With at most 1,024 threads a block, 2^22 blocks keep x's global ids below 2^32 (a
        // bound without a product of sizes, which would make the queries non-linear); y and z
        // are within it by the limits already.
        (d == 0 && what == "num_groups").then(|| {
            let ule = self.decls.bvop("ULE", 32);
            format!("{ule}(num_groups_x, {MAX_GRID_X_32_BIT}bv32)")
        })
    }

    /// A term as KBPL over the kernel's parameters; None when it uses a parameter that is not
    /// a 32-bit integer.
    fn term_text(&mut self, t: &Term, params: &[Option<String>]) -> Option<String> {
        Some(match t {
            Term::Const(v) => format!("{v}bv32"),
            Term::Param(k) => params.get(*k)?.clone()?,
            Term::Bin(op, a, b) => {
                let (a, b) = (self.term_text(a, params)?, self.term_text(b, params)?);
                format!("{}({a}, {b})", self.decls.bvop(op, 32))
            }
        })
    }
}

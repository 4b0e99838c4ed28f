//! What holds for the whole procedure being built, whatever function of it is being
//! translated: the options that shape it, whether it is a function checked on its own, which
//! names have one value for a thread's whole run, the launches that give its sizes, and its
//! asynchronous copies.
//!
//! Apart from the translator because these facts are set when the procedure starts and only
//! read afterwards, except the fixed names (each scalar parameter adds its own) and the count
//! of copy sites; the test of whether an expression is fixed is their one piece of logic, and
//! it needs nothing else.

use super::grid::Grid;
use crate::builtins::{DIMS, IDENTITY};
use std::collections::HashSet;

pub(super) struct KernelFacts<'m> {
    /// What `get_work_dim()` returns (`None`: an arbitrary value).
    pub(super) work_dim: Option<u32>,
    /// What `get_global_offset(d)` returns (`--global_offset`), per dimension.
    pub(super) global_offset: [u64; 3],
    /// `--check-array-bounds` (see [`crate::Options`]).
    pub(super) check_bounds: bool,
    /// The procedure being built is a function no kernel calls, checked on its own.
    pub(super) uncalled: bool,
    /// The module calls `async_work_group_copy` & co. (`async_copy.rs`).
    pub(super) uses_async: bool,
    /// Asynchronous-copy call sites translated so far in this kernel.
    pub(super) async_sites: usize,
    /// A CUDA program's launches, when the command line gives no sizes (`grid.rs`).
    pub(super) grid: Option<&'m Grid>,
    /// Identity constants and the kernel's scalar parameters: names whose value is fixed.
    fixed_names: HashSet<String>,
}

impl<'m> KernelFacts<'m> {
    pub(super) fn new(opts: &crate::Options, uses_async: bool, grid: Option<&'m Grid>) -> Self {
        KernelFacts {
            work_dim: opts.work_dim,
            global_offset: std::array::from_fn(|d| opts.global_offset.get(d).copied().unwrap_or(0)),
            check_bounds: opts.check_array_bounds,
            uncalled: false,
            uses_async,
            async_sites: 0,
            grid,
            fixed_names: IDENTITY.iter().flat_map(|w| DIMS.iter().map(move |d| format!("{w}_{d}"))).collect(),
        }
    }

    /// Makes `name` (a parameter of the procedure) one of the fixed names.
    pub(super) fn fix(&mut self, name: String) {
        self.fixed_names.insert(name);
    }

    /// Whether an expression names only identity constants, kernel parameters, literals and
    /// functions: its value cannot change while a thread runs.
    pub(super) fn is_fixed(&self, text: &str) -> bool {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i] as char;
            if c.is_ascii_alphabetic() || c == '_' || c == '$' {
                let start = i;
                while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$' | b'.')) {
                    i += 1;
                }
                let word = &text[start..i];
                let call = b.get(i) == Some(&b'(');
                let fixed = call
                    || matches!(word, "if" | "then" | "else" | "true" | "false")
                    || self.fixed_names.contains(word);
                if !fixed {
                    return false;
                }
            } else if c.is_ascii_digit() {
                // A literal such as `5bv32`.
                while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::KernelFacts;

    fn facts() -> KernelFacts<'static> {
        let opts = crate::Options { work_dim: Some(2), check_array_bounds: true, ..Default::default() };
        KernelFacts::new(&opts, false, None)
    }

    #[test]
    fn identity_constants_literals_and_functions_are_fixed() {
        let f = facts();
        assert_eq!((f.work_dim, f.check_bounds, f.uncalled, f.async_sites), (Some(2), true, false, 0));
        assert!(f.is_fixed("BV32_ADD(BV32_MUL(group_id_x, group_size_x), local_id_x)"));
        assert!(f.is_fixed("(if (num_groups_z == 1bv32) then 5bv32 else 0bv32)"));
        assert!(f.is_fixed("true && !false"));
        assert!(f.is_fixed(""));
        // A function's arguments count, not its name.
        assert!(!f.is_fixed("BV32_ADD(local_id_x, $i)"));
    }

    #[test]
    fn a_parameter_is_fixed_once_made_so_and_a_local_never() {
        let mut f = facts();
        assert!(!f.is_fixed("BV32_MUL($n, 4bv32)"));
        f.fix("$n".into());
        assert!(f.is_fixed("BV32_MUL($n, 4bv32)"));
        // Names are whole words: `$n.obj` and `$n2` are other variables.
        assert!(!f.is_fixed("$n.obj"));
        assert!(!f.is_fixed("$n2"));
        assert!(!f.is_fixed("local_id_w"));
    }
}

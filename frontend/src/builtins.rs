//! The external functions a kernel calls, by name: OpenCL's work-item functions and barrier
//! (Itanium-mangled, `_Z12get_local_idj`), the CUDA registers and `__syncthreads` of
//! `headers/cuda.h`, the annotations of `headers/annotations.h`, and LLVM intrinsics.

/// GPUVerify's uninterpreted functions: `bool __uninterpreted_function_f(int);` declares a
/// function whose result depends only on its arguments (equal arguments, equal results).
pub const UNINTERPRETED_PREFIX: &str = "__uninterpreted_function_";

/// The identity constants of the KBPL prelude, per dimension.
pub const DIMS: [&str; 3] = ["x", "y", "z"];
pub const IDENTITY: [&str; 4] = ["local_id", "group_id", "group_size", "num_groups"];

/// An annotation function (GPUVerify's annotation language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    Assert,
    Assume,
    Requires,
    Ensures,
    Invariant,
    CandidateInvariant,
    Implies,
    Enabled,
    Other,
    Uniform,
    Read,
    Write,
    ReadOffsetBytes,
    WriteOffsetBytes,
    Distinct,
    Ite,
    EqualFloats,
    GlobalRequires,
    GlobalEnsures,
    /// `__barrier_invariant_N(φ, ids…)`: attached to the next barrier.
    BarrierInvariant,
    /// `__barrier_invariant_binary_N(φ, a1, b1, …)`: relates two threads; the ids in pairs.
    BinaryBarrierInvariant,
    /// `__return_val_int()`/`__return_val_bool()` in a postcondition: the function's result.
    ReturnVal,
    /// `__old_int(e)`/`__old_bool(e)`: `e` at the function's entry.
    Old,
    /// `__all(e)`: `e` holds in both threads of the two-thread reduction.
    All,
    /// `__exclusive(e)`: `e` does not hold in both threads at once.
    Exclusive,
    /// `__global_assert(e)`: an assertion for every thread, also those a branch disabled.
    GlobalAssert,
    /// `__ptr_offset_bytes(p)`: the byte offset of `p` into its memory object.
    PtrOffsetBytes,
    /// `__function_wide_invariant(e)`: an invariant of every loop of the function.
    FunctionWideInvariant,
    FunctionWideCandidateInvariant,
    /// `__atomic_has_taken_value(p, offset_bytes, v)`: this thread's atomics on the element
    /// returned `v` (KBPL's `__taken`).
    AtomicHasTakenValue,
    /// `__reads_from(p)`/`__writes_to(p)` in a `__spec_` function.
    ReadsFrom,
    WritesTo,
}

impl Spec {
    /// Statements checked or assumed where they are written (their argument is folded in).
    pub fn is_assertion(self) -> bool {
        matches!(self, Spec::Assert | Spec::Assume | Spec::GlobalAssert)
    }

    pub fn is_function_wide(self) -> bool {
        matches!(self, Spec::FunctionWideInvariant | Spec::FunctionWideCandidateInvariant)
    }

    /// Annotations whose argument is only a specification: the code computing it is not run.
    pub fn is_clause(self) -> bool {
        matches!(
            self,
            Spec::Requires
                | Spec::Ensures
                | Spec::GlobalRequires
                | Spec::GlobalEnsures
                | Spec::Invariant
                | Spec::CandidateInvariant
                | Spec::BarrierInvariant
                | Spec::BinaryBarrierInvariant
        ) || self.is_function_wide()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// An identity constant; the dimension is the call's argument (OpenCL) or fixed (CUDA).
    Identity(&'static str, Option<usize>),
    GlobalId,
    GlobalSize,
    GlobalOffset,
    WorkDim,
    /// OpenCL `barrier(flags)`: the fences come from the argument.
    Barrier,
    /// A barrier with fixed fences (local, global).
    FixedBarrier(bool, bool),
    Spec(Spec),
    /// Debug-info and lifetime intrinsics: no meaning for verification.
    Ignore,
    FMulAdd,
    /// `__assert_fail(…)`, which `<cassert>`'s `assert` calls when its condition is false: a
    /// failing assertion (the call never returns).
    AssertFail,
    /// `llvm.nvvm.texsurf.handle.*(@tex)`: the handle of a CUDA texture or surface passed by
    /// value, which only kivl's fetch functions (`headers/cuda.h`) receive, and ignore: an
    /// arbitrary number (its pointer argument is no access).
    TextureHandle,
}

/// The source name of an Itanium-mangled function (`_Z12get_local_idj` → `get_local_id`).
pub fn demangle(name: &str) -> &str {
    let Some(rest) = name.strip_prefix("_Z") else { return name };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    match rest[..digits].parse::<usize>() {
        Ok(n) if digits + n <= rest.len() => &rest[digits..digits + n],
        _ => name,
    }
}

pub fn classify(mangled: &str) -> Option<Builtin> {
    if mangled.starts_with("llvm.dbg.") || mangled.starts_with("llvm.lifetime.") {
        return Some(Builtin::Ignore);
    }
    if mangled.starts_with("llvm.fmuladd.") {
        return Some(Builtin::FMulAdd);
    }
    if mangled.starts_with("llvm.nvvm.texsurf.handle.") {
        return Some(Builtin::TextureHandle);
    }
    if mangled == "llvm.nvvm.barrier0" {
        return Some(Builtin::FixedBarrier(true, true));
    }
    let name = demangle(mangled);
    let b = match name {
        "get_local_id" => Builtin::Identity("local_id", None),
        "get_group_id" => Builtin::Identity("group_id", None),
        "get_local_size" => Builtin::Identity("group_size", None),
        "get_num_groups" => Builtin::Identity("num_groups", None),
        "get_global_id" => Builtin::GlobalId,
        "get_global_size" => Builtin::GlobalSize,
        "get_global_offset" => Builtin::GlobalOffset,
        "get_work_dim" => Builtin::WorkDim,
        // OpenCL 2.0's `work_group_barrier(flags[, scope])`: the same flags in the same place.
        "barrier" | "work_group_barrier" => Builtin::Barrier,
        "__syncthreads" => Builtin::FixedBarrier(true, true),
        "__assert_fail" | "__assertfail" => Builtin::AssertFail,
        // Fences synchronise no threads: no effect on races.
        "mem_fence"
        | "read_mem_fence"
        | "write_mem_fence"
        | "__threadfence_block"
        | "__threadfence"
        | "__threadfence_system" => Builtin::Ignore,
        "__kivl_assert" => Builtin::Spec(Spec::Assert),
        "__kivl_assume" => Builtin::Spec(Spec::Assume),
        "__kivl_requires" => Builtin::Spec(Spec::Requires),
        "__kivl_ensures" => Builtin::Spec(Spec::Ensures),
        "__kivl_global_requires" => Builtin::Spec(Spec::GlobalRequires),
        "__kivl_global_ensures" => Builtin::Spec(Spec::GlobalEnsures),
        // kivl's loop invariants hold for every thread, also those that left the loop: what
        // GPUVerify calls a global invariant (its `__invariant` is for the threads still in).
        "__kivl_invariant" | "__kivl_global_invariant" => Builtin::Spec(Spec::Invariant),
        "__kivl_candidate_invariant" | "__kivl_candidate_global_invariant" => Builtin::Spec(Spec::CandidateInvariant),
        "__kivl_function_wide_invariant" => Builtin::Spec(Spec::FunctionWideInvariant),
        "__kivl_function_wide_candidate_invariant" => Builtin::Spec(Spec::FunctionWideCandidateInvariant),
        "__kivl_implies" => Builtin::Spec(Spec::Implies),
        "__kivl_enabled" => Builtin::Spec(Spec::Enabled),
        "__kivl_other_int" | "__kivl_other_bool" => Builtin::Spec(Spec::Other),
        "__kivl_uniform_int" | "__kivl_uniform_bool" => Builtin::Spec(Spec::Uniform),
        "__kivl_read" => Builtin::Spec(Spec::Read),
        "__kivl_write" => Builtin::Spec(Spec::Write),
        "__kivl_read_offset_bytes" => Builtin::Spec(Spec::ReadOffsetBytes),
        "__kivl_write_offset_bytes" => Builtin::Spec(Spec::WriteOffsetBytes),
        "__kivl_distinct_int" => Builtin::Spec(Spec::Distinct),
        "__kivl_return_val_int" | "__kivl_return_val_bool" | "__return_val_int4" => Builtin::Spec(Spec::ReturnVal),
        "__kivl_old_int" | "__kivl_old_bool" => Builtin::Spec(Spec::Old),
        "__kivl_all" => Builtin::Spec(Spec::All),
        "__kivl_exclusive" => Builtin::Spec(Spec::Exclusive),
        "__kivl_global_assert" => Builtin::Spec(Spec::GlobalAssert),
        "__kivl_ptr_offset_bytes" => Builtin::Spec(Spec::PtrOffsetBytes),
        n if n.strip_prefix("__kivl_barrier_invariant_").is_some_and(|k| k.parse::<u8>().is_ok()) => {
            Builtin::Spec(Spec::BarrierInvariant)
        }
        n if n.strip_prefix("__kivl_barrier_invariant_binary_").is_some_and(|k| k.parse::<u8>().is_ok()) => {
            Builtin::Spec(Spec::BinaryBarrierInvariant)
        }
        "__kivl_ite_int" => Builtin::Spec(Spec::Ite),
        "__reads_from" => Builtin::Spec(Spec::ReadsFrom),
        "__writes_to" => Builtin::Spec(Spec::WritesTo),
        // Overloaded (and so mangled) in the annotation header: `_Z14__equal_floatsDv4_fS_`.
        "__equal_floats" | "__equal_doubles" => Builtin::Spec(Spec::EqualFloats),
        "__atomic_has_taken_value" => Builtin::Spec(Spec::AtomicHasTakenValue),
        _ => {
            let reg = name.strip_prefix("__kivl_")?;
            let (what, dim) = reg.rsplit_once('_')?;
            let what = IDENTITY.iter().find(|w| **w == what)?;
            let d = DIMS.iter().position(|x| *x == dim)?;
            Builtin::Identity(what, Some(d))
        }
    };
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn itanium_names() {
        assert_eq!(demangle("_Z12get_local_idj"), "get_local_id");
        assert_eq!(demangle("_Z7barrierj"), "barrier");
        assert_eq!(demangle("plain"), "plain");
        // A length past the end is not a name.
        assert_eq!(demangle("_Z99x"), "_Z99x");
    }

    #[test]
    fn work_item_functions_and_registers() {
        assert_eq!(classify("_Z12get_local_idj"), Some(Builtin::Identity("local_id", None)));
        assert_eq!(classify("__kivl_num_groups_z"), Some(Builtin::Identity("num_groups", Some(2))));
        assert_eq!(classify("llvm.nvvm.barrier0"), Some(Builtin::FixedBarrier(true, true)));
        assert_eq!(classify("_Z9mem_fencej"), Some(Builtin::Ignore));
        assert_eq!(classify("__kivl_barrier_invariant_7"), Some(Builtin::Spec(Spec::BarrierInvariant)));
        assert_eq!(classify("__kivl_barrier_invariant_binary_1"), Some(Builtin::Spec(Spec::BinaryBarrierInvariant)));
        assert_eq!(classify("__kivl_local_id_w"), None);
        assert_eq!(classify("_Z4sqrtf"), None);
        assert_eq!(classify("_Z14__equal_floatsDv4_fS_"), Some(Builtin::Spec(Spec::EqualFloats)));
        assert_eq!(classify("llvm.nvvm.texsurf.handle.internal.p1i64"), Some(Builtin::TextureHandle));
    }
}

//! OpenCL's `atomic_*` / `atom_*` and CUDA's `atomic*` functions: each call becomes one KBPL
//! atomic statement `atomic x := op(M[i], args);` (docs/kbpl.md §3.4) on the element the
//! pointer argument addresses, so that the race checks see an atomic access (GPUVerify's
//! meaning: never a race with another atomic, a race with a plain access of the element) and
//! `kivl run` executes the operation. A pointer into several objects gets one branch per
//! object, as plain loads and stores do.
//!
//! Signed and unsigned `min`/`max` are told apart by the type of the last parameter in the
//! mangled name (`j`, `m`, `y`: unsigned int, long and long long). CUDA's `atomicInc`/`atomicDec` wrap at their
//! argument (`inc_wrap`/`dec_wrap`), OpenCL's `atomic_inc`/`atomic_dec` do not; CUDA's float
//! `atomicAdd` is `fadd`. CUDA's scoped atomics (`atomicAdd_system`, `atomicCAS_block`, …) are
//! the same operations: `_system` is atomic for every thread, as the plain ones; `_block` only
//! for the threads of one block, so it is the plain atomic on `__shared__` memory and, on
//! global memory, a located `unsupported` error. An atomic on byte-level memory (`bytes.rs`) is
//! one atomic per byte (`byte_level_atomic`).

use super::frame::Frame;
use super::values::{scalar_ty, Ex, Ty, Val};
use super::Tr;
use crate::memory::{Lin, Ptr, Space};
use crate::{builtins, Loc};
use ivl::ast::AtomicOp;
use llvm_ir::instruction as inst;

/// The operation of an atomic function, from its mangled name; `None` for other functions.
fn operation(mangled: &str, float: bool) -> Option<AtomicOp> {
    let name = builtins::demangle(mangled);
    let name = name.strip_suffix("_block").or_else(|| name.strip_suffix("_system")).unwrap_or(name);
    let unsigned = matches!(mangled.as_bytes().last(), Some(b'j' | b'm' | b'y' | b't' | b'h'));
    let (min, max) = if unsigned { (AtomicOp::UMin, AtomicOp::UMax) } else { (AtomicOp::Min, AtomicOp::Max) };
    let op = match name {
        "atomicAdd" if float => AtomicOp::FAdd,
        "atomic_add" | "atom_add" | "atomicAdd" => AtomicOp::Add,
        "atomic_sub" | "atom_sub" | "atomicSub" => AtomicOp::Sub,
        "atomic_xchg" | "atom_xchg" | "atomicExch" => AtomicOp::Xchg,
        "atomic_cmpxchg" | "atom_cmpxchg" | "atomicCAS" => AtomicOp::CmpXchg,
        "atomic_min" | "atom_min" | "atomicMin" => min,
        "atomic_max" | "atom_max" | "atomicMax" => max,
        "atomic_and" | "atom_and" | "atomicAnd" => AtomicOp::And,
        "atomic_or" | "atom_or" | "atomicOr" => AtomicOp::Or,
        "atomic_xor" | "atom_xor" | "atomicXor" => AtomicOp::Xor,
        "atomic_inc" | "atom_inc" => AtomicOp::Inc,
        "atomic_dec" | "atom_dec" => AtomicOp::Dec,
        "atomicInc" => AtomicOp::IncWrap,
        "atomicDec" => AtomicOp::DecWrap,
        _ => return None,
    };
    Some(op)
}

/// Whether `mangled` names an atomic function (its result is not a value to recompute).
pub(super) fn is_atomic_function(mangled: &str) -> bool {
    operation(mangled, false).is_some() || operation(mangled, true).is_some()
}

impl<'m> Tr<'m> {
    /// Translates `c` if it calls an atomic function (see the module documentation).
    pub(super) fn atomic_call(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, name: &str, loc: Option<Loc>) -> bool {
        let ret = scalar_ty(&self.module.type_of(c));
        let Some(op) = operation(name, matches!(ret, Some(Ty::Float(_)))) else { return false };
        let Some(ty) = ret else {
            self.err(loc, format!("`{}` with a result that is not a scalar", builtins::demangle(name)));
            return true;
        };
        if c.arguments.len() != 1 + op.arity() {
            self.err(loc, format!("`{}` with {} arguments", builtins::demangle(name), c.arguments.len()));
            return true;
        }
        let p = self.operand(f, &c.arguments[0].0, loc);
        let Some(p) = self.ptr(p, loc) else { return true };
        if p.cands().iter().any(|&b| self.objects.space_of(b) == Some(Space::Constant)) {
            self.err(loc, "an atomic on constant memory");
            return true;
        }
        // A block-scoped atomic is atomic only for the threads of one block: exactly a plain
        // atomic on `__shared__` memory, which only the block sees; on global memory two blocks'
        // atomics on one element would race, a check kivl does not make yet.
        let plain = builtins::demangle(name);
        if plain.ends_with("_block") && p.cands().iter().any(|&b| self.objects.space_of(b) == Some(Space::Global)) {
            self.err(loc, format!("the block-scoped atomic `{plain}` on global memory is not supported yet"));
            return true;
        }
        // Its alignment is checked by `access`, as for every access.
        let mut args = String::new();
        for (a, _) in &c.arguments[1..] {
            let v = self.operand(f, a, loc);
            let Some(v) = self.scalar(v, loc) else { return true };
            if v.ty.width() != ty.width() {
                self.err(loc, "an atomic whose argument and element widths differ");
                return true;
            }
            args.push_str(&format!(", {}", v.text));
        }
        let result = c.dest.as_ref().map(|d| {
            let v = f.var(d);
            self.body.declare(v.clone(), ty.kbpl());
            f.vals.insert(d.clone(), Val::Scalar(Ex::new(v.clone(), ty)));
            v
        });
        let out = result.as_ref().map_or(String::new(), |v| format!("{v} := "));
        let op = op.name();
        self.on_each_object(&p, loc, |tr, q| {
            if tr.objects.space_of(q.base).is_none() {
                // Through the null pointer: the access fails, and its result is arbitrary.
                let fail = tr.null_assertion();
                return Some(result.as_ref().map_or(fail.clone(), |v| format!("{fail} havoc {v};")));
            }
            if tr.objects.is_byte_level(q.base) && ty.width() > 8 {
                return tr.byte_level_atomic(q, ty, result.as_deref(), loc);
            }
            let place = tr.access(q, ty, loc)?;
            let clear = tr.clear_pointers(q, ty.width());
            Some(format!("atomic {out}{op}({place}{args});{clear}"))
        });
        true
    }
}

impl<'m> Tr<'m> {
    /// An atomic of `ty` at `q` in byte-level memory (`bytes.rs`): one atomic exchange per
    /// byte, of an arbitrary new value. `kivl verify` knows nothing of the value an atomic
    /// returns or leaves (docs/kbpl.md §3.4), so this is the same abstraction, with each byte
    /// logged as an atomic access; `kivl run` then leaves an arbitrary value instead of the
    /// operation's.
    fn byte_level_atomic(&mut self, q: &Ptr, ty: Ty, result: Option<&str>, loc: Option<Loc>) -> Option<String> {
        let w = ty.width();
        self.alignment_check(q, u64::from(w / 8), loc);
        let new = self.body.fresh_var("atomic", &ty.kbpl());
        let mut out = format!("havoc {new};");
        let mut olds = Vec::new();
        for j in 0..w / 8 {
            let at = Ptr::to(q.base, q.off.clone().plus(&Lin::constant(u64::from(j))));
            let place = self.access(&at, Ty::Bv(8), loc)?;
            let old = self.body.fresh_var("atomic", "bv8");
            out.push_str(&format!(" atomic {old} := xchg({place}, {new}[{}:{}]);", 8 * (j + 1), 8 * j));
            olds.push(old);
        }
        if let Some(r) = result {
            olds.reverse();
            out.push_str(&format!(" {r} := {};", olds.join(" ++ ")));
        }
        out.push_str(&self.clear_pointers(q, w));
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::operation;
    use ivl::ast::AtomicOp;

    #[test]
    fn names() {
        assert_eq!(operation("_Z10atomic_minPU3AS3Vjj", false), Some(AtomicOp::UMin));
        assert_eq!(operation("_Z10atomic_minPU3AS3Vii", false), Some(AtomicOp::Min));
        assert_eq!(operation("_Z9atomicAddPff", true), Some(AtomicOp::FAdd));
        assert_eq!(operation("_Z9atomicIncPjj", false), Some(AtomicOp::IncWrap));
        assert_eq!(operation("_Z10atomic_incPU3AS1Vj", false), Some(AtomicOp::Inc));
        assert_eq!(operation("_Z3sinf", false), None);
    }
}

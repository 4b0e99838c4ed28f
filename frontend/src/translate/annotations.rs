//! GPUVerify's specification annotations: contracts (`__requires`, `__ensures`, their global
//! forms), assertions and assumptions, loop invariants at loop heads (and function-wide ones),
//! barrier invariants, and the annotations used as values in clauses (`__other`, `__implies`,
//! `__read`, `__write_offset_bytes`, `__old_int`, `__return_val_int`, …).
//!
//! Apart from the instruction lowering because an annotation is a clause, not code: its
//! operands are folded (`folding.rs`), and where it goes (a `requires` of the procedure, an
//! assertion at the call, a loop head's leading assert, the next barrier) depends on the
//! function it is written in, not on the instruction.

use super::frame::{is_pure, operands, Frame};
use super::names::call_name;
use super::values::{bool_ex, bool_to_int, scalar_ty, Ex, Ty, Val};
use super::{async_copy, Tr};
use crate::builtins::{self, Builtin, Spec};
use crate::memory::Ptr;
use crate::Loc;
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::terminator::Terminator;
use llvm_ir::{BasicBlock, Operand};

impl<'m> Tr<'m> {
    /// `__invariant` calls of a block become its leading asserts; outside a loop head they are
    /// unsupported (Boogie reads only a loop head's leading asserts as invariants). A loop head
    /// also gets the function's `__function_wide_invariant`s, wherever they are written (their
    /// operands are folded from their own block).
    pub(super) fn invariants(&mut self, f: &mut Frame<'m>, b: &'m BasicBlock, bi: usize, header: bool) {
        let own = b.instrs.iter().map(|i| (i, bi, false));
        let wide =
            f.func.basic_blocks.iter().enumerate().flat_map(|(wbi, wb)| wb.instrs.iter().map(move |i| (i, wbi, true)));
        let wide: Vec<_> = if header { wide.collect() } else { Vec::new() };
        if header && self.facts.uses_async {
            // No asynchronous copy in flight at a loop head (`async_copy.rs`).
            self.body.emit(format!("assert {{:candidate}} {} == 0bv32;", async_copy::PENDING), None);
        }
        for (i, cbi, function_wide) in own.chain(wide) {
            let Instruction::Call(c) = i else { continue };
            let s = match (self.callee_builtin(c), function_wide) {
                (Some(Builtin::Spec(s @ (Spec::Invariant | Spec::CandidateInvariant))), false) => s,
                // GPUVerify's older style: `__assert` first in a loop condition is an invariant.
                (Some(Builtin::Spec(Spec::Assert)), false) if header => Spec::Invariant,
                (Some(Builtin::Spec(Spec::FunctionWideInvariant)), true) => Spec::Invariant,
                (Some(Builtin::Spec(Spec::FunctionWideCandidateInvariant)), true) => Spec::CandidateInvariant,
                _ => continue,
            };
            let loc = self.loc(&c.debugloc, f);
            if !header {
                self.err(loc, "`__invariant` outside a loop condition: write it first in the loop's condition, e.g. `for (...; __invariant(e), i < n; ...)`");
                continue;
            }
            let Some(arg) = c.arguments.first() else { continue };
            if let Some(e) = self.spec_expr(f, &arg.0, cbi, loc) {
                let attr = if s == Spec::CandidateInvariant { "{:candidate} " } else { "" };
                self.body.emit(format!("assert {attr}{};", bool_ex(&e)), loc);
            }
        }
    }

    /// GPUVerify's rules for a `__function_wide_invariant`: written at the end of its function
    /// (after the last statement), about what every loop head can see: parameters, constants,
    /// memory and the work-item functions, not values the function computes on the way.
    fn function_wide_ok(&mut self, f: &Frame<'m>, arg: &Operand, cbi: usize, loc: Option<Loc>) -> bool {
        let b = &f.func.basic_blocks[cbi];
        let spec = |i: &Instruction| match i {
            Instruction::Call(c) => self.callee_builtin(c),
            _ => None,
        };
        // After the first function-wide invariant of the block: only annotations, ignored
        // intrinsics and the values they fold in.
        let at_end = matches!(b.term, Terminator::Ret(_))
            && b.instrs.iter().skip_while(|i| !matches!(spec(i), Some(Builtin::Spec(s)) if s.is_function_wide())).all(
                |i| match i {
                    Instruction::Call(_) => matches!(spec(i), Some(Builtin::Spec(_) | Builtin::Ignore)),
                    _ => i.try_get_result().is_some_and(|d| f.spec_only.contains(d)),
                },
            );
        if !at_end {
            self.err(loc, "`__function_wide_invariant` must come after the last statement of its function");
            return false;
        }
        fn entry_only(f: &Frame, op: &Operand, depth: usize) -> bool {
            let Operand::LocalOperand { name, .. } = op else { return true };
            if f.func.parameters.iter().any(|p| &p.name == name) {
                return true;
            }
            match f.defs.get(name) {
                // A load is run where it is written unless only clauses use it.
                Some((i, _))
                    if depth < 64
                        && is_pure(i)
                        && (!matches!(i, Instruction::Load(_)) || f.spec_only.contains(name)) =>
                {
                    operands(i).into_iter().all(|o| entry_only(f, o, depth + 1))
                }
                _ => false,
            }
        }
        if !entry_only(f, arg, 0) {
            self.err(loc, "`__function_wide_invariant` may use only the function's parameters, memory, constants and work-item functions, not values computed in the function");
            return false;
        }
        true
    }

    /// An annotation call as a statement (assertions, assumptions, contracts, barrier
    /// invariants); false for annotations that are values.
    pub(super) fn spec_effect(
        &mut self,
        f: &mut Frame<'m>,
        c: &'m inst::Call,
        s: Spec,
        bi: usize,
        loc: Option<Loc>,
    ) -> bool {
        let arg = c.arguments.first().map(|a| a.0.clone());
        match (s, arg) {
            (Spec::Invariant | Spec::CandidateInvariant, _) => true,
            (Spec::ReadsFrom | Spec::WritesTo, _) => {
                self.spec_access(f, c, s == Spec::WritesTo, loc);
                true
            }
            // Emitted at every loop head (`invariants`); checked here once.
            (s, a) if s.is_function_wide() => {
                if let Some(a) = a {
                    self.function_wide_ok(f, &a, bi, loc);
                }
                true
            }
            // Already a leading assert of its loop head (`invariants`).
            (Spec::Assert, _) if f.headers.contains(&f.func.basic_blocks[bi].name) => true,
            (Spec::BarrierInvariant | Spec::BinaryBarrierInvariant, Some(a)) => {
                let Some(phi) = self.spec_expr(f, &a, bi, loc) else { return true };
                let mut ids = Vec::new();
                for (op, _) in c.arguments.iter().skip(1) {
                    let Some(e) = self.spec_expr(f, op, bi, loc) else { return true };
                    ids.push(e.text);
                }
                // A binary invariant's ids are pairs, one `{:instantiate_pair a, b}` each
                // (docs/kbpl.md §5.3).
                let attrs = if s == Spec::BinaryBarrierInvariant {
                    ids.chunks(2)
                        .map(|p| format!("{{:instantiate_pair {}}}", p.join(", ")))
                        .collect::<Vec<_>>()
                        .join(" ")
                } else {
                    format!("{{:instantiate {}}}", ids.join(", "))
                };
                let inv = format!("invariant {attrs} {};", bool_ex(&phi));
                self.clauses.await_barrier(inv, loc);
                true
            }
            // Every thread runs a kernel's first block, so there a global assertion is
            // an ordinary one; elsewhere a branch may have disabled some threads, and the
            // assertion is about them too: stated for this thread and the other one of the pair
            // (`__other`), checked wherever one of them is.
            (Spec::GlobalAssert, Some(a)) if f.ret.is_some() || bi != 0 => {
                if let Some(e) = self.spec_expr(f, &a, bi, loc) {
                    if e.text.contains(RETURN_VAL) {
                        self.err(loc, "`__return_val_*()` outside a postcondition");
                        return true;
                    }
                    for one in for_both_threads(&bool_ex(&e)) {
                        self.body.emit(format!("assert {one};"), loc);
                    }
                }
                true
            }
            (Spec::Assert | Spec::Assume | Spec::GlobalAssert, Some(a)) => {
                if let Some(e) = self.spec_expr(f, &a, bi, loc) {
                    if e.text.contains(RETURN_VAL) {
                        self.err(loc, "`__return_val_*()` outside a postcondition");
                        return true;
                    }
                    let kw = if s == Spec::Assume { "assume" } else { "assert" };
                    self.body.emit(format!("{kw} {};", bool_ex(&e)), loc);
                }
                true
            }
            // GPUVerify's unpredicated contract of a called function: it holds for the threads
            // a branch disabled too. Inlined, the clause is stated for this thread and the
            // other one of the pair (`__other`), checked wherever one of them calls.
            (Spec::GlobalRequires | Spec::GlobalEnsures, Some(a)) if f.ret.is_some() => {
                let Some(e) = self.spec_expr(f, &a, bi, loc) else { return true };
                for one in for_both_threads(&bool_ex(&e)) {
                    if s == Spec::GlobalRequires {
                        self.body.emit(format!("assert {{:check \"precondition\"}} {one};"), f.call_loc.or(loc));
                    } else {
                        f.ensures.push((one, loc));
                    }
                }
                true
            }
            (Spec::Requires | Spec::Ensures | Spec::GlobalRequires | Spec::GlobalEnsures, Some(a)) => {
                let s = match s {
                    Spec::GlobalRequires => Spec::Requires,
                    Spec::GlobalEnsures => Spec::Ensures,
                    s => s,
                };
                let Some(e) = self.spec_expr(f, &a, bi, loc) else { return true };
                let b = bool_ex(&e);
                match (s, f.ret.is_some()) {
                    // A function checked on its own has its parameters as locals, which
                    // clauses cannot name: its precondition is assumed at its start.
                    (Spec::Requires, false) if self.facts.uncalled => self.body.emit(format!("assume {b};"), loc),
                    // A kernel's precondition on its private memory (a struct passed by value,
                    // whose map is a local of the body, which clauses cannot name) is assumed
                    // where it is written, if nothing was stored before it (the entry state).
                    (Spec::Requires, false)
                        if bi == 0 && no_store_before(f, c) && self.objects.mentions_private(&b) =>
                    {
                        self.body.emit(format!("assume {b};"), loc)
                    }
                    (Spec::Requires, false) => self.clauses.require(b, loc),
                    (Spec::Ensures, false) if self.facts.uncalled => f.ensures.push((b, loc)),
                    (Spec::Ensures, false) => self.clauses.ensure(b, loc),
                    // An inlined function's precondition is checked at the call.
                    (Spec::Requires, true) => {
                        self.body.emit(format!("assert {{:check \"precondition\"}} {b};"), f.call_loc.or(loc))
                    }
                    _ => f.ensures.push((b, loc)),
                }
                true
            }
            _ => false,
        }
    }

    /// An annotation used as a value (`__other`, `__implies`, `__read`, …), of width `w` when
    /// it is a truth value turned into an integer.
    pub(super) fn spec_value(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        s: Spec,
        name: &str,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let w = scalar_ty(&self.module.type_of(c)).map_or(32, |t| t.width());
        let mut args = Vec::new();
        for (op, _) in &c.arguments {
            args.push(self.arg(f, op, spec, loc)?);
        }
        // The annotations of numbers say so when given a pointer or a vector, rather
        // than leave the value undefined.
        let of_memory = matches!(
            s,
            Spec::Read
                | Spec::Write
                | Spec::ReadOffsetBytes
                | Spec::WriteOffsetBytes
                | Spec::PtrOffsetBytes
                | Spec::AtomicHasTakenValue
        );
        if !of_memory && s != Spec::EqualFloats && args.iter().any(|a| !matches!(a, Val::Scalar(_))) {
            self.err(loc, format!("`{}` takes numbers, and is given a pointer or a vector", builtins::demangle(name)));
            return None;
        }
        match s {
            Spec::ReturnVal if f.ret.is_none() && !self.facts.uncalled => {
                self.err(loc, "`__return_val_*()` in a kernel, which returns nothing");
                None
            }
            Spec::ReturnVal => Some(Ex::new(RETURN_VAL.into(), Ty::Bv(w))),
            Spec::Old => self.old_value(f, c, &args, loc),
            Spec::Read | Spec::Write | Spec::ReadOffsetBytes | Spec::WriteOffsetBytes | Spec::AtomicHasTakenValue
                if spec.is_none() =>
            {
                Some(self.access_annotation_in_code(s, w, loc))
            }
            Spec::AtomicHasTakenValue => self.taken_annotation(&args, w, loc),
            _ if of_memory => self.memory_annotation(s, &args, w, loc),
            _ => self.logic_annotation(s, &args, w, loc),
        }
    }

    /// `__old_int`/`__old_bool`: a parameter's or constant's value never changes, so at the
    /// entry it is what it is now; of anything else (memory: GPUVerify's
    /// specification_tests/pass/value_related_spec) the value at the function's entry.
    fn old_value(&mut self, f: &Frame<'m>, c: &inst::Call, args: &[Val], loc: Option<Loc>) -> Option<Ex> {
        let fixed = match c.arguments.first().map(|a| &a.0) {
            Some(Operand::LocalOperand { name, .. }) => f.func.parameters.iter().any(|p| &p.name == name),
            Some(Operand::ConstantOperand(_)) => true,
            _ => false,
        };
        if fixed {
            return scalar_at(args, 0);
        }
        let e = scalar_at(args, 0)?;
        if f.ret.is_none() && !self.facts.uncalled && !self.objects.mentions_private(&e.text) {
            // A kernel's postcondition (a clause of the procedure): Boogie's `old` is the
            // kernel's entry state, of the global maps (private ones are locals, which `old`
            // does not go back for).
            return Some(Ex::new(format!("old({})", e.text), e.ty));
        }
        // Inlined, or a function checked on its own (its postconditions are assertions at its
        // returns): the value at the function's entry, taken where the clause is written,
        // provided nothing before it in the function may have written memory.
        let block0 = &f.func.basic_blocks[0].instrs;
        let pos = block0.iter().position(|i| matches!(i, Instruction::Call(x) if std::ptr::eq(x, c)));
        let barrier = |i: &Instruction| matches!(i, Instruction::Call(x) if matches!(call_name(x).and_then(builtins::classify), Some(Builtin::Barrier | Builtin::FixedBarrier(..))));
        if pos.is_none_or(|p| block0[..p].iter().any(barrier)) || !no_store_before(f, c) {
            self.err(loc, "`__old_int`/`__old_bool` of memory after the function may have written it (write it first in the function)");
            return None;
        }
        let v = self.body.fresh_var("old", &e.ty.kbpl());
        self.body.emit(format!("{v} := {};", e.text), loc);
        Some(Ex::new(v, e.ty))
    }

    /// The annotations of numbers and truth values (`__all`, `__implies`, `__other`, …).
    fn logic_annotation(&mut self, s: Spec, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        let scalar = |k: usize| scalar_at(args, k);
        let b = match s {
            Spec::All => {
                let b = bool_ex(&scalar(0)?);
                format!("({b} && __other({b}))")
            }
            Spec::Exclusive => {
                let b = bool_ex(&scalar(0)?);
                format!("!({b} && __other({b}))")
            }
            Spec::Implies => format!("({} ==> {})", bool_ex(&scalar(0)?), bool_ex(&scalar(1)?)),
            Spec::Enabled => "__enabled()".into(),
            Spec::Uniform => format!("__uniform({})", scalar(0)?.text),
            Spec::Other => return Some(Ex::new(format!("__other({})", scalar(0)?.text), scalar(0)?.ty)),
            Spec::Distinct => format!("({0} != __other({0}))", scalar(0)?.text),
            Spec::EqualFloats => self.equal_lanes(args.first(), args.get(1), loc)?,
            Spec::Ite => {
                let (c, a, b) = (scalar(0)?, scalar(1)?, scalar(2)?);
                return Some(Ex::new(format!("(if {} then {} else {})", bool_ex(&c), a.text, b.text), a.ty));
            }
            _ => {
                self.err(loc, "an annotation used as a value");
                return None;
            }
        };
        Some(bool_to_int(b, w))
    }

    /// An access annotation (`__read(p)`, `__write_offset_bytes(p)`, `__atomic_has_taken_value`, …) computed by the code
    /// rather than in a specification: an argument of a function (`baz(__read_offset_bytes(r))`,
    /// GPUVerify's OpenCL/misc/pass/misc9), a local's value, or the code clang keeps for the
    /// operands of an `__invariant`. In GPUVerify it reads the race-checking instrumentation's
    /// state, which the program itself has no business depending on; here it is an arbitrary
    /// value (a truth value for `__read`/`__write`), which covers whatever that state is.
    fn access_annotation_in_code(&mut self, s: Spec, w: u32, loc: Option<Loc>) -> Ex {
        let offset = matches!(s, Spec::ReadOffsetBytes | Spec::WriteOffsetBytes);
        let v = self.body.fresh_var("access_annotation", if offset { "bv32" } else { "bool" });
        self.body.emit(format!("havoc {v};"), loc);
        if offset {
            Ex::new(v, Ty::Bv(32))
        } else {
            bool_to_int(v, w)
        }
    }

    /// The annotations of memory accesses and pointers (`__read`, `__write_offset_bytes`,
    /// `__ptr_offset_bytes`, …). Pointers are resolved statically, so their offset is an
    /// expression; an access annotation of a pointer into one of several objects (`r = x ? p :
    /// q`, OpenCL/misc/pass/misc9) is the annotation of the object it points into, chosen by
    /// the pointer's selector as its accesses are.
    fn memory_annotation(&mut self, s: Spec, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        if s == Spec::PtrOffsetBytes {
            // A pointer into one of several objects has one offset, whichever it points into.
            let Some(Val::Ptr(p)) = args.first() else {
                self.err(loc, "`__ptr_offset_bytes` of something that is not a pointer");
                return None;
            };
            return Some(Ex::new(p.off.expr(&mut self.decls.needs_fn()), Ty::Bv(32)));
        }
        let offset = matches!(s, Spec::ReadOffsetBytes | Spec::WriteOffsetBytes);
        // The pointer argument of an access annotation: into memory objects, never null.
        let p = match args.first() {
            Some(Val::Ptr(p)) if p.cands().iter().all(|&c| self.objects.space_of(c).is_some()) => p.clone(),
            _ if offset => {
                self.err(
                    loc,
                    "an offset annotation of something that is not a pointer into memory objects (it may be null)",
                );
                return None;
            }
            _ => {
                self.err(
                    loc,
                    "`__read`/`__write` of something that is not a pointer into memory objects (it may be null)",
                );
                return None;
            }
        };
        let mut per_object: Vec<(usize, String)> = Vec::new();
        for c in p.cands() {
            let name = self.objects.bases[c].name.clone();
            let text = match s {
                Spec::ReadOffsetBytes | Spec::WriteOffsetBytes => {
                    let kw = if s == Spec::ReadOffsetBytes { "__read_offset" } else { "__write_offset" };
                    // The element size is known once the object's accesses are seen.
                    format!("{}({kw}({name}), {WIDTH_MARK}{c}bv32)", self.decls.bvop("MUL", 32))
                }
                _ => format!("{}({name})", if s == Spec::Read { "__read" } else { "__write" }),
            };
            per_object.push((c, text));
        }
        let (_, last) = per_object.pop()?;
        let text = match &p.alt {
            Some(alt) => per_object
                .into_iter()
                .rev()
                .fold(last, |acc, (c, t)| format!("(if {} == {c}bv32 then {t} else {acc})", alt.sel)),
            None => last,
        };
        Some(if offset { Ex::new(text, Ty::Bv(32)) } else { bool_to_int(text, w) })
    }

    /// GPUVerify's `__atomic_has_taken_value(p, offset_bytes, v)`: KBPL's `__taken(A, i, v)`
    /// (docs/kbpl.md §5.2) of the element `offset_bytes` bytes past `p`, the offset and the
    /// value as 32-bit numbers (the element index and counter types of the memory model).
    fn taken_annotation(&mut self, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        let (Some(Val::Ptr(p @ Ptr { alt: None, .. })), Some(off), Some(v)) =
            (args.first(), scalar_at(args, 1), scalar_at(args, 2))
        else {
            self.err(loc, "`__atomic_has_taken_value` of something that is not a pointer to one memory object");
            return None;
        };
        let as32 = |e: Ex| match e.ty {
            Ty::Bv(32) => Some(e.text),
            Ty::Bv(n) if n > 32 => Some(format!("{}[32:0]", e.text)),
            Ty::Bv(n) => Some(format!("(0bv{} ++ {})", 32 - n, e.text)),
            _ => None,
        };
        let (Some(off), Some(v)) = (as32(off), as32(v)) else {
            self.err(loc, "`__atomic_has_taken_value` of an offset or value that is not an integer");
            return None;
        };
        let (c, name) = (p.base, self.objects.bases[p.base].name.clone());
        let start = p.off.expr(&mut self.decls.needs_fn());
        let bytes = format!("{}({start}, {off})", self.decls.bvop("ADD", 32));
        let index = format!("{}({bytes}, {WIDTH_MARK}{c}bv32)", self.decls.bvop("UDIV", 32));
        Some(bool_to_int(format!("__taken({name}, {index}, {v})"), w))
    }
}

/// Stands for the element size in bytes of memory object N until it is known.
pub(super) const WIDTH_MARK: &str = "@size_of_object_";

/// What `__return_val_int()` stands for in a postcondition until a `ret` replaces it with the
/// returned value (not an identifier a program can have, so it cannot be captured).
pub(super) const RETURN_VAL: &str = "$__kivl_return_val";

/// The `k`th argument of an annotation when it is a number or truth value.
fn scalar_at(args: &[Val], k: usize) -> Option<Ex> {
    match args.get(k) {
        Some(Val::Scalar(e)) => Some(e.clone()),
        _ => None,
    }
}

/// Whether nothing before the call `c` in the function's entry block may write memory: no
/// store, and no call other than of the built-ins (work-item functions, annotations).
fn no_store_before(f: &Frame, c: &inst::Call) -> bool {
    f.func.basic_blocks[0].instrs.iter().take_while(|i| !matches!(i, Instruction::Call(x) if std::ptr::eq(x, c))).all(
        |i| match i {
            Instruction::Store(_) => false,
            Instruction::Call(x) => call_name(x).and_then(builtins::classify).is_some(),
            _ => true,
        },
    )
}

/// A clause `b` for the work-items a branch disabled too, as the clauses to check where either
/// thread of the pair is: `b` for this thread and `__other(b)` for the other one. One clause
/// `b && __other(b)` when `b` has no access annotation; two when it has: the access logs are
/// the first thread's only (docs/kbpl.md §5.2), so a clause that reads them is read in that
/// thread only and would vanish from a conjunction with the other thread's reading. Apart,
/// `b` is checked when the first thread calls and `__other(b)` (the first thread's `b`) when
/// the second does: the first thread is arbitrary, so every work-item's log is checked,
/// whether or not it calls (OpenCL/annotation_tests/global_ensures).
fn for_both_threads(b: &str) -> Vec<String> {
    if b.contains("__read") || b.contains("__write") {
        vec![b.to_string(), format!("__other({b})")]
    } else {
        vec![format!("({b} && __other({b}))")]
    }
}

#[cfg(test)]
mod tests {
    use super::for_both_threads;

    #[test]
    fn a_clause_for_both_threads_keeps_the_access_logs_apart() {
        assert_eq!(for_both_threads("BV32_ULT($i, $n)"), ["(BV32_ULT($i, $n) && __other(BV32_ULT($i, $n)))"]);
        assert_eq!(for_both_threads("!__write($$A)"), ["!__write($$A)", "__other(!__write($$A))"]);
        assert_eq!(for_both_threads("__read_offset($$A) == 0bv32").len(), 2);
    }
}

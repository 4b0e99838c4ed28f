//! Null and undefined pointers (GPUVerify's `bad_pointer_access` check): the null pointer is
//! one more candidate object, [`NULL_OBJECT`], in the multi-object pointers of
//! [`crate::memory`]. An undefined pointer is null with an arbitrary offset.
//!
//! - An access through a pointer that may be null is an assertion error at the access's line
//!   ("possible access through a null or undefined pointer"): on the branch where the selector
//!   names the null object (or unconditionally when the pointer is null), `assert false`
//!   carrying that message. Reading yields an arbitrary value, so verification continues.
//! - `p == q` and `p != q` compare selector and offset like any two pointers, so a pointer
//!   compared against null and used only when it is not null verifies.
//! - Unsigned ordering against the null constant follows from null being address 0 and no
//!   object living there: `p > null` is `p != null`, `p >= null` holds, `p < null` does not,
//!   `p <= null` is `p == null`. A signed ordering of pointers has no such meaning: it is an
//!   arbitrary boolean (an over-approximation).

use super::frame::Frame;
use super::values::{lane_ty, Ex, Ty};
use super::Tr;
use crate::memory::{Ptr, NULL_ACCESS, NULL_OBJECT};
use crate::Loc;
use llvm_ir::instruction as inst;
use llvm_ir::IntPredicate;

impl<'m> Tr<'m> {
    /// The assertion that fails when an access goes through a null pointer.
    pub(super) fn null_assertion(&self) -> String {
        format!("assert {{:msg \"{NULL_ACCESS}\"}} false;")
    }

    /// An access of type `ty` through the null pointer: the failing assertion, then an
    /// arbitrary value as the place read or written.
    pub(super) fn null_access(&mut self, ty: Ty, loc: Option<Loc>) -> String {
        let a = self.null_assertion();
        self.body.emit(a, loc);
        self.body.fresh_var("null", &ty.kbpl())
    }

    /// An ordering comparison where one side is the null constant (see the module doc).
    pub(super) fn null_ordering(&mut self, pred: IntPredicate, p: &Ptr, q: &Ptr) -> Option<Ex> {
        let (p, pred) = if q.is_null_constant() {
            (p, pred)
        } else if p.is_null_constant() {
            (q, swap(pred))
        } else {
            return None;
        };
        let off = p.off.expr(&mut self.decls.needs_fn());
        let is_null = format!("({} == {NULL_OBJECT}bv32 && {off} == 0bv32)", p.sel());
        let text = match pred {
            IntPredicate::UGT => format!("!{is_null}"),
            IntPredicate::UGE => "true".into(),
            IntPredicate::ULT => "false".into(),
            IntPredicate::ULE => is_null,
            _ => self.body.fresh_var("ptrcmp", "bool"),
        };
        Some(Ex::new(text, Ty::Bool))
    }
}

impl<'m> Tr<'m> {
    /// An ordering comparison of pointers that may point into different objects: of their
    /// offsets within one object, an arbitrary boolean (havocked where it is computed) across
    /// objects, whose addresses kivl does not model.
    pub(super) fn unrelated_ordering(&mut self, pred: IntPredicate, p: &Ptr, q: &Ptr) -> Ex {
        let op = super::scalars::ordering_name(pred);
        let cmp = self.decls.bvop(op, 32);
        let pe = p.off.expr(&mut self.decls.needs_fn());
        let qe = q.off.expr(&mut self.decls.needs_fn());
        let any = self.body.fresh_var("ptrcmp", "bool");
        self.body.emit(format!("havoc {any};"), None);
        Ex::new(format!("(if {} == {} then {cmp}({pe}, {qe}) else {any})", p.sel(), q.sel()), Ty::Bool)
    }

    /// A pointer converted to a number: its address, which kivl does not model — 0 for the
    /// null pointer, else an arbitrary number (havocked where it is computed).
    pub(super) fn pointer_to_int(
        &mut self,
        f: &Frame<'m>,
        x: &inst::PtrToInt,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let p = self.arg(f, &x.operand, spec, loc);
        let p = self.ptr(p, loc)?;
        let w = lane_ty(&x.to_type)?.width();
        if p.is_null_constant() {
            return Some(Ex::new(format!("0bv{w}"), Ty::Bv(w)));
        }
        let v = self.body.fresh_var("address", &format!("bv{w}"));
        self.body.emit(format!("havoc {v};"), loc);
        Some(Ex::new(v, Ty::Bv(w)))
    }
}

/// `a pred b` is `b (swap pred) a`.
fn swap(pred: IntPredicate) -> IntPredicate {
    match pred {
        IntPredicate::UGT => IntPredicate::ULT,
        IntPredicate::ULT => IntPredicate::UGT,
        IntPredicate::UGE => IntPredicate::ULE,
        IntPredicate::ULE => IntPredicate::UGE,
        IntPredicate::SGT => IntPredicate::SLT,
        IntPredicate::SLT => IntPredicate::SGT,
        IntPredicate::SGE => IntPredicate::SLE,
        IntPredicate::SLE => IntPredicate::SGE,
        p => p,
    }
}

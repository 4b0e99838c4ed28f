//! Arithmetic, casts and comparisons: integer operations as `{:bvbuiltin}` functions, floats
//! as uninterpreted operations on bit-vectors (GPUVerify's encoding), conversions, `select`,
//! and comparisons of numbers and of pointers into one object or several.
//!
//! Apart from the other instruction families because these compute a value from values and
//! touch no memory: they only declare the functions they use (`decls.rs`).

use super::frame::Frame;
use super::values::{bool_ex, bool_to_int, lane_ty, Ex, Ty, Val};
use super::Tr;
use crate::memory::{Alt, Lin, Ptr};
use crate::Loc;
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::{IntPredicate, Operand, TypeRef};

impl<'m> Tr<'m> {
    /// A floating-point comparison: an uninterpreted predicate, or a constant.
    pub(super) fn fcmp_value(
        &mut self,
        f: &Frame<'m>,
        x: &inst::FCmp,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let (a, b) = self.scalar_pair(f, &x.operand0, &x.operand1, spec, loc)?;
        Some(match x.predicate {
            llvm_ir::FPPredicate::False => Ex::new("false".into(), Ty::Bool),
            llvm_ir::FPPredicate::True => Ex::new("true".into(), Ty::Bool),
            p => self.fop(&format!("FCMP_{}", format!("{p}").to_uppercase()), &[a, b], Some(Ty::Bool)),
        })
    }

    /// A sign extension (of a boolean: all ones or zero).
    pub(super) fn sext_value(
        &mut self,
        f: &Frame<'m>,
        x: &inst::SExt,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let a = self.scalar_arg(f, &x.operand, spec, loc)?;
        let w = lane_ty(&x.to_type)?.width();
        Some(match a.ty {
            Ty::Bool => {
                // All ones is `0 - 1`.
                let sub = self.decls.bvop("SUB", w);
                Ex::new(format!("(if {} then {sub}(0bv{w}, 1bv{w}) else 0bv{w})", a.text), Ty::Bv(w))
            }
            t => {
                let text = self.decls.sext(&a.text, t.width(), w);
                Ex::new(text, Ty::Bv(w))
            }
        })
    }

    /// A bit cast: pointers stay, scalars of one width change their type.
    pub(super) fn bitcast_value(
        &mut self,
        f: &Frame<'m>,
        x: &inst::BitCast,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        match self.arg(f, &x.operand, spec, loc)? {
            Val::Ptr(p) => Some(Val::Ptr(p)),
            Val::Vector(_) => {
                self.err(loc, "a bit cast of a whole vector");
                None
            }
            Val::Scalar(e) => match lane_ty(&x.to_type) {
                Some(t) if t.width() == e.ty.width() && t != Ty::Bool => Some(Val::Scalar(Ex::new(e.text, t))),
                _ => {
                    self.err(loc, "a bit cast between types of different shapes (vectors, aggregates)");
                    None
                }
            },
        }
    }

    /// A `select` of scalars or of pointers (into one object, or into several with a selector).
    pub(super) fn select_value(
        &mut self,
        f: &Frame<'m>,
        x: &inst::Select,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let c = self.scalar_arg(f, &x.condition, spec, loc)?;
        let c = bool_ex(&c);
        let a = self.arg(f, &x.true_value, spec, loc)?;
        let b = self.arg(f, &x.false_value, spec, loc)?;
        match (a, b) {
            (Val::Scalar(a), Val::Scalar(b)) => {
                Some(Val::Scalar(Ex::new(format!("(if {c} then {} else {})", a.text, b.text), a.ty)))
            }
            (Val::Ptr(p), Val::Ptr(q)) if p.base == q.base && p.alt.is_none() && q.alt.is_none() => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let off = Lin::term(format!("(if {c} then {pe} else {qe})"), 1);
                Some(Val::Ptr(Ptr::to(p.base, off)))
            }
            (Val::Ptr(p), Val::Ptr(q)) => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let off = Lin::term(format!("(if {c} then {pe} else {qe})"), 1);
                let mut cands = p.cands();
                cands.extend(q.cands().into_iter().filter(|x| !p.cands().contains(x)));
                let sel = format!("(if {c} then {} else {})", p.sel(), q.sel());
                Some(Val::Ptr(Ptr { base: p.base, off, alt: Some(Alt { sel, cands }) }))
            }
            _ => {
                self.err(loc, "a pointer that may point into different memory objects");
                None
            }
        }
    }

    pub(super) fn binop(&mut self, op: &str, a: Ex, b: Ex, loc: Option<Loc>) -> Option<Ex> {
        match a.ty {
            Ty::Bool => {
                let t = match op {
                    "AND" => format!("({} && {})", a.text, b.text),
                    "OR" => format!("({} || {})", a.text, b.text),
                    "XOR" => format!("({} != {})", a.text, b.text),
                    _ => {
                        self.err(loc, "arithmetic on 1-bit values");
                        return None;
                    }
                };
                Some(Ex::new(t, Ty::Bool))
            }
            t => {
                let fname = self.decls.bvop(op, t.width());
                Some(Ex::new(format!("{fname}({}, {})", a.text, b.text), Ty::Bv(t.width())))
            }
        }
    }

    /// An uninterpreted floating-point operation, as GPUVerify encodes floats.
    pub(super) fn fop(&mut self, op: &str, args: &[Ex], result: Option<Ty>) -> Ex {
        let w = args.first().map_or(32, |a| a.ty.width());
        let name = format!("{op}{w}");
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let result = result.unwrap_or(Ty::Float(w));
        let name = self.decls.uninterpreted(&name, &tys, result);
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Ex::new(format!("{name}({})", texts.join(", ")), result)
    }

    pub(super) fn conv(&mut self, op: &str, a: Ex, to: &TypeRef) -> Option<Ex> {
        let t = lane_ty(to)?;
        let name = format!("{op}{}_{}", a.ty.width(), t.width());
        let name = self.decls.uninterpreted(&name, &[a.ty], t);
        Some(Ex::new(format!("{name}({})", a.text), t))
    }

    pub(super) fn icmp(&mut self, pred: IntPredicate, a: Val, b: Val, loc: Option<Loc>) -> Option<Ex> {
        let (a, b) = match (a, b) {
            (Val::Scalar(a), Val::Scalar(b)) => (a, b),
            (Val::Ptr(p), Val::Ptr(q)) if p.base == q.base && p.alt.is_none() && q.alt.is_none() => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                (Ex::new(pe, Ty::Bv(32)), Ex::new(qe, Ty::Bv(32)))
            }
            (Val::Ptr(p), Val::Ptr(q)) if matches!(pred, IntPredicate::EQ | IntPredicate::NE) => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let eq = format!("({} == {} && {pe} == {qe})", p.sel(), q.sel());
                let text = if pred == IntPredicate::EQ { eq } else { format!("!{eq}") };
                return Some(Ex::new(text, Ty::Bool));
            }
            (Val::Ptr(p), Val::Ptr(q)) => {
                return Some(match self.null_ordering(pred, &p, &q) {
                    Some(e) => e,
                    None => self.unrelated_ordering(pred, &p, &q),
                });
            }
            _ => {
                self.err(loc, "an ordering comparison of pointers into different memory objects");
                return None;
            }
        };
        // `x != 0` and `x == 0` on an int that encodes a boolean fold back to the boolean.
        let zero = |e: &Ex| e.text == format!("0bv{}", e.ty.width());
        if let (Some(bo), true) = (&a.bool_of, zero(&b)) {
            match pred {
                IntPredicate::NE => return Some(Ex::new(bo.clone(), Ty::Bool)),
                IntPredicate::EQ => return Some(Ex::new(format!("!{bo}"), Ty::Bool)),
                _ => {}
            }
        }
        let op = match pred {
            IntPredicate::EQ => return Some(Ex::new(format!("({} == {})", a.text, b.text), Ty::Bool)),
            IntPredicate::NE => return Some(Ex::new(format!("({} != {})", a.text, b.text), Ty::Bool)),
            ordering => ordering_name(ordering),
        };
        if a.ty == Ty::Bool {
            self.err(loc, "an ordering comparison of 1-bit values");
            return None;
        }
        let fname = self.decls.bvop(op, a.ty.width());
        Some(Ex::new(format!("{fname}({}, {})", a.text, b.text), Ty::Bool))
    }

    /// A bv32 index expression (GEP indices are signed; wider ones are truncated as the
    /// 32-bit address arithmetic does).
    pub(super) fn index32(&mut self, e: &Ex) -> String {
        match e.ty.width() {
            32 => e.text.clone(),
            w if w > 32 => format!("{}[32:0]", e.text),
            w => self.decls.sext(&e.text, w, 32),
        }
    }
}

/// The `{:bvbuiltin}` operation of an integer binary instruction, with its operands.
pub(super) fn int_binop(i: &Instruction) -> Option<(&'static str, &Operand, &Operand)> {
    use Instruction as I;
    Some(match i {
        I::Add(x) => ("ADD", &x.operand0, &x.operand1),
        I::Sub(x) => ("SUB", &x.operand0, &x.operand1),
        I::Mul(x) => ("MUL", &x.operand0, &x.operand1),
        I::UDiv(x) => ("UDIV", &x.operand0, &x.operand1),
        I::SDiv(x) => ("SDIV", &x.operand0, &x.operand1),
        I::URem(x) => ("UREM", &x.operand0, &x.operand1),
        I::SRem(x) => ("SREM", &x.operand0, &x.operand1),
        I::And(x) => ("AND", &x.operand0, &x.operand1),
        I::Or(x) => ("OR", &x.operand0, &x.operand1),
        I::Xor(x) => ("XOR", &x.operand0, &x.operand1),
        I::Shl(x) => ("SHL", &x.operand0, &x.operand1),
        I::LShr(x) => ("LSHR", &x.operand0, &x.operand1),
        I::AShr(x) => ("ASHR", &x.operand0, &x.operand1),
        _ => return None,
    })
}

/// The uninterpreted operation of a floating-point binary instruction, with its operands.
pub(super) fn float_binop(i: &Instruction) -> Option<(&'static str, &Operand, &Operand)> {
    use Instruction as I;
    Some(match i {
        I::FAdd(x) => ("FADD", &x.operand0, &x.operand1),
        I::FSub(x) => ("FSUB", &x.operand0, &x.operand1),
        I::FMul(x) => ("FMUL", &x.operand0, &x.operand1),
        I::FDiv(x) => ("FDIV", &x.operand0, &x.operand1),
        I::FRem(x) => ("FREM", &x.operand0, &x.operand1),
        _ => return None,
    })
}

/// The uninterpreted conversion of a floating-point cast, with its operand and target type.
pub(super) fn float_conversion(i: &Instruction) -> Option<(&'static str, &Operand, &TypeRef)> {
    use Instruction as I;
    Some(match i {
        I::FPTrunc(x) => ("FPTRUNC", &x.operand, &x.to_type),
        I::FPExt(x) => ("FPEXT", &x.operand, &x.to_type),
        I::FPToUI(x) => ("FP2UI", &x.operand, &x.to_type),
        I::FPToSI(x) => ("FP2SI", &x.operand, &x.to_type),
        I::UIToFP(x) => ("UI2FP", &x.operand, &x.to_type),
        I::SIToFP(x) => ("SI2FP", &x.operand, &x.to_type),
        _ => return None,
    })
}

/// An integer truncation (to `i1`: a boolean).
pub(super) fn trunc(a: Ex, to: &TypeRef) -> Option<Ex> {
    Some(match lane_ty(to)? {
        Ty::Bool => Ex::new(format!("({}[1:0] == 1bv1)", a.text), Ty::Bool),
        t => Ex::new(format!("{}[{}:0]", a.text, t.width()), t),
    })
}

/// A zero extension (of a boolean: one or zero).
pub(super) fn zext(a: Ex, to: &TypeRef) -> Option<Ex> {
    let w = lane_ty(to)?.width();
    Some(match a.ty {
        Ty::Bool => bool_to_int(a.text, w),
        t => Ex::new(format!("(0bv{} ++ {})", w - t.width(), a.text), Ty::Bv(w)),
    })
}

/// The name of the bit-vector comparison of an ordering predicate (`ULT` of `BV32_ULT`);
/// `SGE` for the equalities, which callers handle before.
pub(super) fn ordering_name(pred: IntPredicate) -> &'static str {
    match pred {
        IntPredicate::ULT => "ULT",
        IntPredicate::ULE => "ULE",
        IntPredicate::UGT => "UGT",
        IntPredicate::UGE => "UGE",
        IntPredicate::SLT => "SLT",
        IntPredicate::SLE => "SLE",
        IntPredicate::SGT => "SGT",
        _ => "SGE",
    }
}

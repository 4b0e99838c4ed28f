//! Instruction lowering's entry points: one instruction that is not a phi node as statements,
//! an instruction without effects as a value, and an operand's value; each instruction family
//! is lowered in its own module (`scalars.rs`, `access.rs`, `calls.rs`, `annotations.rs`,
//! `globals.rs`, and the features' modules), which these dispatch to.
//!
//! Apart from the families so that what an instruction becomes is decided in one place (a
//! statement, a folded value, or a variable bound to it: [`Tr::bind`]).

use super::annotations::RETURN_VAL;
use super::frame::Frame;
use super::names::call_name;
use super::scalars::{float_binop, float_conversion, int_binop, trunc, zext};
use super::values::{memory_scalar_ty, vector_shape, Ex, Val};
use super::{aggregates, Tr};
use crate::memory::{Lin, Ptr};
use crate::{builtins, Loc};
use llvm_ir::instruction::Instruction;
use llvm_ir::Operand;

impl<'m> Tr<'m> {
    /// Translates one instruction that is not a phi node.
    pub(super) fn instruction(&mut self, f: &mut Frame<'m>, i: &'m Instruction, bi: usize) {
        let loc = self.loc(llvm_ir::HasDebugLoc::get_debug_loc(i), f);
        match i {
            Instruction::Store(s) if vector_shape(&self.module.type_of(&s.value)).is_some() => {
                self.vector_store(f, s, loc)
            }
            Instruction::Store(s) if aggregates::is_aggregate(&self.module.type_of(&s.value)) => {
                self.aggregate_store(f, s, loc)
            }
            Instruction::Store(s) => self.store(f, s, loc),
            // Created with the frame (`objects_of_allocas`), so that pointers can be resolved
            // before their allocation is translated.
            Instruction::Alloca(_) => {}
            Instruction::Load(l) if self.loads_pointer(l) => self.load_pointer(f, l, loc),
            Instruction::Load(l) if self.points_into_several(f, &l.address, loc) => self.load_from_several(f, l, loc),
            Instruction::Call(c) if self.call_effect(f, c, bi, loc) => {}
            _ => {
                let Some(dest) = i.try_get_result() else {
                    let msg = match i {
                        Instruction::Call(c) => match call_name(c) {
                            Some("__kivl_surface_write") => {
                                "a CUDA surface write (`surf*write`): surfaces are not modelled".into()
                            }
                            Some(n) if builtins::demangle(n).starts_with("__") => {
                                format!("the annotation `{}` is not supported yet", builtins::demangle(n))
                            }
                            Some(n) => format!("a call of the external function `{}`", builtins::demangle(n)),
                            None => "an indirect call".into(),
                        },
                        _ => format!("unsupported instruction `{}`", first_word(i)),
                    };
                    self.err(loc, msg);
                    return;
                };
                match self.value_of(f, i, None, loc) {
                    Some(Val::Ptr(p)) => {
                        f.vals.insert(dest.clone(), Val::Ptr(p));
                    }
                    Some(Val::Scalar(e)) if e.text.contains(RETURN_VAL) => self.err(
                        loc,
                        "`__return_val_*()` in a value computed in steps (a `&&`, `||` or `?:` splits the clause): write one `__ensures` per conjunct, or use `&`",
                    ),
                    Some(Val::Scalar(e)) => {
                        let v = f.var(dest);
                        let e = self.bind(v, e, loc);
                        f.vals.insert(dest.clone(), Val::Scalar(e));
                    }
                    Some(Val::Vector(lanes)) => self.bind_lanes(f, dest, lanes, loc),
                    None => {}
                }
            }
        }
    }

    /// An operand's value as it is when the current instruction runs (while an element-wise
    /// vector operation is split, a vector operand's lane).
    pub(super) fn operand(&mut self, f: &Frame<'m>, op: &Operand, loc: Option<Loc>) -> Option<Val> {
        let v = self.whole_operand(f, op, loc);
        self.in_lane(v, loc)
    }

    fn whole_operand(&mut self, f: &Frame<'m>, op: &Operand, loc: Option<Loc>) -> Option<Val> {
        match op {
            Operand::LocalOperand { name, ty } => {
                if let Some(v) = f.vals.get(name) {
                    return Some(v.clone());
                }
                match memory_scalar_ty(ty) {
                    Some(t) => Some(Val::Scalar(Ex::new(f.var(name), t))),
                    None => {
                        self.err(loc, "a pointer whose memory object cannot be determined statically");
                        None
                    }
                }
            }
            Operand::ConstantOperand(k) => self.constant(f, k, loc),
            Operand::MetadataOperand => None,
        }
    }

    pub(super) fn scalar(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Ex> {
        match v? {
            Val::Scalar(e) => Some(e),
            Val::Ptr(_) => {
                self.err(loc, "a pointer used as a number (pointer arithmetic beyond indexing)");
                None
            }
            Val::Vector(_) => {
                self.err(loc, "a vector used as a number");
                None
            }
        }
    }

    pub(super) fn ptr(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Ptr> {
        match v? {
            Val::Ptr(p) => Some(p),
            Val::Scalar(_) | Val::Vector(_) => {
                self.err(loc, "an integer used as a pointer");
                None
            }
        }
    }

    /// The value of an instruction without effects (in a clause when `spec` is its block).
    pub(super) fn value_of(
        &mut self,
        f: &Frame<'m>,
        i: &'m Instruction,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        if let Some(v) = self.aggregate_value(f, i, spec, loc) {
            return v;
        }
        if let Some(v) = self.vector_value(f, i, spec, loc) {
            return v;
        }
        use Instruction as I;
        if let Some((op, x, y)) = int_binop(i) {
            let (a, b) = self.scalar_pair(f, x, y, spec, loc)?;
            return self.binop(op, a, b, loc).map(Val::Scalar);
        }
        if let Some((op, x, y)) = float_binop(i) {
            let (a, b) = self.scalar_pair(f, x, y, spec, loc)?;
            return Some(Val::Scalar(self.fop(op, &[a, b], None)));
        }
        if let Some((op, x, to)) = float_conversion(i) {
            let a = self.scalar_arg(f, x, spec, loc)?;
            return self.conv(op, a, to).map(Val::Scalar);
        }
        let e = match i {
            I::FNeg(x) => {
                let a = self.scalar_arg(f, &x.operand, spec, loc)?;
                self.fop("FNEG", &[a], None)
            }
            I::FCmp(x) => self.fcmp_value(f, x, spec, loc)?,
            I::ICmp(x) => {
                let a = self.arg(f, &x.operand0, spec, loc)?;
                let b = self.arg(f, &x.operand1, spec, loc)?;
                self.icmp(x.predicate, a, b, loc)?
            }
            I::Trunc(x) => trunc(self.scalar_arg(f, &x.operand, spec, loc)?, &x.to_type)?,
            I::ZExt(x) => zext(self.scalar_arg(f, &x.operand, spec, loc)?, &x.to_type)?,
            I::SExt(x) => self.sext_value(f, x, spec, loc)?,
            I::BitCast(x) => return self.bitcast_value(f, x, spec, loc),
            I::AddrSpaceCast(x) => return self.arg(f, &x.operand, spec, loc),
            I::Freeze(x) => return self.arg(f, &x.operand, spec, loc),
            I::Select(x) => return self.select_value(f, x, spec, loc),
            I::GetElementPtr(g) => {
                let base = self.arg(f, &g.address, spec, loc);
                let base = self.ptr(base, loc)?;
                return self.gep(f, base, &g.indices, &g.source_element_type, spec, loc).map(Val::Ptr);
            }
            I::Load(l) if self.loads_pointer(l) => return self.load_pointer_value(f, l, spec, loc),
            I::Load(l) => self.load_value(f, l, spec, loc)?,
            I::Call(c) => self.call_value(f, c, spec, loc)?,
            I::PtrToInt(x) => self.pointer_to_int(f, x, spec, loc)?,
            I::IntToPtr(x) => {
                // A number made a pointer points into no object (an access through it fails).
                let e = self.scalar_arg(f, &x.operand, spec, loc)?;
                let e = self.index32(&e);
                return Some(Val::Ptr(Ptr::null(Lin::term(e, 1))));
            }
            other => {
                self.err(loc, format!("unsupported instruction `{}`", first_word(other)));
                return None;
            }
        };
        Some(Val::Scalar(e))
    }

    /// The scalar value of an operand.
    pub(super) fn scalar_arg(
        &mut self,
        f: &Frame<'m>,
        op: &Operand,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let v = self.arg(f, op, spec, loc);
        self.scalar(v, loc)
    }

    /// The scalar values of two operands, the first translated first.
    pub(super) fn scalar_pair(
        &mut self,
        f: &Frame<'m>,
        x: &Operand,
        y: &Operand,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<(Ex, Ex)> {
        let a = self.scalar_arg(f, x, spec, loc)?;
        let b = self.scalar_arg(f, y, spec, loc)?;
        Some((a, b))
    }

    /// The value `e` computed by an instruction, as later uses read it: a value fixed for the
    /// whole run of a thread (ids, sizes, parameters and arithmetic on them) stays an
    /// expression, so that invariant inference sees `A[get_global_id(0)]` as an access at a
    /// fixed offset even inside a loop; any other is assigned to the variable `v`.
    pub(super) fn bind(&mut self, v: String, e: Ex, loc: Option<Loc>) -> Ex {
        if e.text.len() <= 160 && self.facts.is_fixed(&e.text) {
            return e;
        }
        self.body.declare(v.clone(), e.ty.kbpl());
        self.body.emit(format!("{v} := {};", e.text), loc);
        Ex { text: v, ty: e.ty, bool_of: e.bool_of }
    }
}

/// The opcode of an instruction, for messages.
pub(super) fn first_word(i: &Instruction) -> String {
    let s = format!("{i}");
    let s = s.split_once(" = ").map_or(s.as_str(), |p| p.1).to_string();
    s.split_whitespace().next().unwrap_or("?").to_string()
}

//! OpenCL's vector types (`float4`, `int3`, `uchar2`, …; issue 18), split into their lanes.
//!
//! A vector value is a tuple of scalar expressions, one per lane ([`Val::Vector`]); nothing of
//! the vector survives into the KBPL, which keeps the verifier's view the one it has of
//! scalars (GPUVerify's Bugle also splits vectors into elements):
//!
//! - **Element-wise operations** (arithmetic, comparisons, casts of the same lane count,
//!   `select`, `llvm.fmuladd`) run the scalar translation once per lane: while `Tr::lane` is
//!   `Some(k)`, every vector operand reads as its lane `k` (`Tr::operand`), so the scalar code
//!   in `instr.rs` and `scalars.rs` is reused as it is.
//! - **Lane moves**: `extractelement` and `insertelement` with a constant index pick or replace
//!   a lane; with a variable index they become an `if` chain over the lanes (an index past the
//!   last lane gives an arbitrary value, as LLVM's poison). `shufflevector` (swizzles such as
//!   `v.yyxx`) picks lanes of its two operands; an undefined mask lane is an arbitrary value.
//! - **Constants**: `<i32 1, i32 2, …>`, `zeroinitializer`, `undef`/`poison` lanes (each a
//!   variable that is never assigned: an arbitrary value) and constant lane moves.
//! - **Bit casts** that keep the lane count are element-wise; the others (`<4 x i8>` to `i32`)
//!   concatenate and re-split the bits, lane 0 in the low bits (the targets are little-endian).
//! - **Memory**: a vector load or store is one access per lane on the element-typed map of its
//!   object, lane `k` at byte offset `k·size(element)`, so races are checked per element. A
//!   3-lane vector occupies the memory of 4 lanes (OpenCL's alignment rule, `layout.rs`); clang
//!   stores it as `<4 x T>` with an undefined fourth lane, which is written as such.
//! - **Values crossing blocks and functions**: a vector phi is one phi per lane, a kernel
//!   parameter of vector type one parameter per lane (`$x.0`, `$x.1`, …), an inlined function
//!   returning a vector assigns one result variable per lane.
//! - **Calls of external functions** that return vectors (OpenCL's vector built-ins, such as
//!   `min`, `fmin`, `shuffle`) are uninterpreted functions, one per result lane, of all the
//!   scalars of all the arguments: no built-in is assumed to work lane by lane, except the
//!   integer `min`/`max` (`int_minmax.rs`). Image reads
//!   (`read_imagef`…) have their own translation (`images.rs`).

use super::annotations::RETURN_VAL;
use super::frame::Frame;
use super::names::{call_name, global_name};
use super::values::{scalar_ty, vector_shape, Ex, Ty, Val};
use super::{aggregates, instr, Tr};
use crate::builtins::{self, Builtin, Spec};
use crate::memory::{Lin, Ptr};
use crate::{layout, Loc};
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::instruction::{ExtractElement, InsertElement, ShuffleVector};
use llvm_ir::{Constant, ConstantRef, Module, Name, TypeRef};

/// Instructions whose lane `k` depends only on lane `k` of their operands (given that the
/// result is a vector).
fn elementwise(m: &Module, i: &Instruction) -> bool {
    use Instruction as I;
    match i {
        I::Call(c) => call_name(c).and_then(builtins::classify) == Some(Builtin::FMulAdd),
        I::BitCast(x) => !reshapes(&m.type_of(&x.operand), &x.to_type),
        I::Add(_)
        | I::Sub(_)
        | I::Mul(_)
        | I::UDiv(_)
        | I::SDiv(_)
        | I::URem(_)
        | I::SRem(_)
        | I::And(_)
        | I::Or(_)
        | I::Xor(_)
        | I::Shl(_)
        | I::LShr(_)
        | I::AShr(_)
        | I::FAdd(_)
        | I::FSub(_)
        | I::FMul(_)
        | I::FDiv(_)
        | I::FRem(_)
        | I::FNeg(_)
        | I::ICmp(_)
        | I::FCmp(_)
        | I::Trunc(_)
        | I::ZExt(_)
        | I::SExt(_)
        | I::FPTrunc(_)
        | I::FPExt(_)
        | I::FPToUI(_)
        | I::FPToSI(_)
        | I::UIToFP(_)
        | I::SIToFP(_)
        | I::Select(_)
        | I::Freeze(_) => true,
        _ => false,
    }
}

/// Whether a bit cast from `from` to `to` changes the number or width of lanes (a scalar
/// counting as one lane).
fn reshapes(from: &TypeRef, to: &TypeRef) -> bool {
    let shape = |t: &TypeRef| match vector_shape(t) {
        Some((n, e)) => scalar_ty(&e).map(|e| (n, e.width())),
        None => scalar_ty(t).map(|t| (1, t.width())),
    };
    (vector_shape(from).is_some() || vector_shape(to).is_some()) && shape(from) != shape(to)
}

/// The lanes a shuffle mask picks; `None` for an undefined lane.
fn mask_lanes(mask: &ConstantRef) -> Option<Vec<Option<u64>>> {
    match mask.as_ref() {
        Constant::Vector(v) => v
            .iter()
            .map(|c| match c.as_ref() {
                Constant::Int { value, .. } => Some(Some(*value)),
                Constant::Undef(_) | Constant::Poison(_) => Some(None),
                _ => None,
            })
            .collect(),
        Constant::AggregateZero(t) => vector_shape(t).map(|(n, _)| vec![Some(0); n]),
        Constant::Undef(t) | Constant::Poison(t) => vector_shape(t).map(|(n, _)| vec![None; n]),
        _ => None,
    }
}

impl<'m> Tr<'m> {
    /// The value of an instruction that involves vectors, or `None` for one that does not
    /// (then the scalar translation applies). While a lane is selected, element-wise vector
    /// instructions are left to the scalar translation (which reads lane `k` of their
    /// operands); anything else is computed whole and then reads as its lane.
    pub(super) fn vector_value(
        &mut self,
        f: &Frame<'m>,
        i: &'m Instruction,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Option<Val>> {
        let shape = vector_shape(&self.module.type_of(i));
        if self.lane.is_some() {
            if shape.is_some() && elementwise(self.module, i) {
                return None;
            }
            let lane = self.lane.take();
            let v = self.value_of(f, i, spec, loc);
            self.lane = lane;
            return Some(self.in_lane(v, loc));
        }
        use Instruction as I;
        let v = match i {
            I::ExtractElement(x) => self.extract_element(f, x, spec, loc),
            I::InsertElement(x) => self.insert_element(f, x, spec, loc),
            I::ShuffleVector(x) => self.shuffle_vector(f, x, spec, loc),
            I::BitCast(x) if reshapes(&self.module.type_of(&x.operand), &x.to_type) => {
                let v = self.arg(f, &x.operand, spec, loc);
                self.reshape(v?, &x.to_type, loc)
            }
            _ => {
                let (n, elem) = shape?;
                let Some(ty) = scalar_ty(&elem) else {
                    self.err(loc, "a vector of pointers");
                    return Some(None);
                };
                match i {
                    I::Load(l) => self.vector_load(f, l, n, ty, &elem, spec, loc),
                    I::Call(c) if !elementwise(self.module, i) => self.vector_call(f, c, n, ty, spec, loc),
                    _ if elementwise(self.module, i) => self.by_lanes(f, i, n, spec, loc),
                    other => {
                        self.err(loc, format!("unsupported instruction `{}` on vectors", instr::first_word(other)));
                        None
                    }
                }
            }
        };
        Some(v)
    }

    /// An element-wise instruction, translated once per lane.
    fn by_lanes(
        &mut self,
        f: &Frame<'m>,
        i: &'m Instruction,
        n: usize,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let errors = self.errors.len();
        let mut lanes = Vec::with_capacity(n);
        for k in 0..n {
            self.lane = Some(k);
            let v = self.value_of(f, i, spec, loc);
            self.lane = None;
            match v {
                Some(Val::Scalar(e)) => lanes.push(e),
                _ => {
                    if self.errors.len() == errors {
                        self.err(loc, "a vector operation the front end cannot split into lanes");
                    }
                    return None;
                }
            }
        }
        Some(Val::Vector(lanes))
    }

    /// Lane `k` of a vector while lane `k` is selected; any other value as it is.
    pub(super) fn in_lane(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Val> {
        match (self.lane, v) {
            (Some(k), Some(Val::Vector(lanes))) => match lanes.get(k) {
                Some(e) => Some(Val::Scalar(e.clone())),
                None => {
                    self.err(loc, "an element-wise operation on vectors of different lengths");
                    None
                }
            },
            (_, v) => v,
        }
    }

    /// The lanes of a vector value.
    fn lanes(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Vec<Ex>> {
        match v? {
            Val::Vector(l) => Some(l),
            _ => {
                self.err(loc, "a vector operation on a value that is not a vector");
                None
            }
        }
    }

    /// An arbitrary value of type `t` (an undefined lane).
    fn arbitrary(&mut self, t: Ty) -> Ex {
        Ex::new(self.body.fresh_var("undef", &t.kbpl()), t)
    }

    /// Lane `idx` of `lanes`: a constant index picks it, a variable one is an `if` chain.
    fn pick(&mut self, lanes: &[Ex], idx: &Ex) -> Option<Ex> {
        let t = lanes.first()?.ty;
        if let Some(k) = literal(idx) {
            return Some(lanes.get(k as usize).cloned().unwrap_or_else(|| self.arbitrary(t)));
        }
        let mut out = self.arbitrary(t).text;
        for (k, e) in lanes.iter().enumerate().rev() {
            out = format!("(if {} == {k}bv{} then {} else {out})", idx.text, idx.ty.width(), e.text);
        }
        Some(Ex::new(out, t))
    }

    /// `lanes` with lane `idx` replaced by `e`.
    fn replace(&mut self, mut lanes: Vec<Ex>, e: Ex, idx: &Ex) -> Vec<Ex> {
        match literal(idx) {
            Some(k) => {
                if let Some(l) = lanes.get_mut(k as usize) {
                    *l = e;
                }
            }
            None => {
                for (k, l) in lanes.iter_mut().enumerate() {
                    let text = format!("(if {} == {k}bv{} then {} else {})", idx.text, idx.ty.width(), e.text, l.text);
                    *l = Ex::new(text, e.ty);
                }
            }
        }
        lanes
    }

    /// The lanes a shuffle picks from `a` followed by `b` (`b` is read only when picked).
    fn shuffle(
        &mut self,
        a: Vec<Ex>,
        b: impl FnOnce(&mut Self) -> Option<Vec<Ex>>,
        mask: &[Option<u64>],
    ) -> Option<Vec<Ex>> {
        let n = a.len() as u64;
        let t = a.first()?.ty;
        let b = if mask.iter().any(|m| m.is_some_and(|m| m >= n)) { b(self)? } else { Vec::new() };
        Some(
            mask.iter()
                .map(|m| match m {
                    Some(m) if *m < n => a[*m as usize].clone(),
                    Some(m) => b.get((*m - n) as usize).cloned().unwrap_or_else(|| self.arbitrary(t)),
                    None => self.arbitrary(t),
                })
                .collect(),
        )
    }

    fn extract_element(
        &mut self,
        f: &Frame<'m>,
        x: &ExtractElement,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let v = self.arg(f, &x.vector, spec, loc);
        let lanes = self.lanes(v, loc)?;
        let idx = self.arg(f, &x.index, spec, loc);
        let idx = self.scalar(idx, loc)?;
        self.pick(&lanes, &idx).map(Val::Scalar)
    }

    fn insert_element(
        &mut self,
        f: &Frame<'m>,
        x: &InsertElement,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let v = self.arg(f, &x.vector, spec, loc);
        let lanes = self.lanes(v, loc)?;
        let e = self.arg(f, &x.element, spec, loc);
        let e = self.scalar(e, loc)?;
        let idx = self.arg(f, &x.index, spec, loc);
        let idx = self.scalar(idx, loc)?;
        Some(Val::Vector(self.replace(lanes, e, &idx)))
    }

    fn shuffle_vector(
        &mut self,
        f: &Frame<'m>,
        x: &'m ShuffleVector,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let Some(mask) = mask_lanes(&x.mask) else {
            self.err(loc, "a shuffle whose mask is not a constant vector");
            return None;
        };
        let a = self.arg(f, &x.operand0, spec, loc);
        let a = self.lanes(a, loc)?;
        let b = |tr: &mut Self| {
            let b = tr.arg(f, &x.operand1, spec, loc);
            tr.lanes(b, loc)
        };
        self.shuffle(a, b, &mask).map(Val::Vector)
    }

    /// A bit cast between shapes: the lanes' bits concatenated (lane 0 lowest) and cut anew.
    fn reshape(&mut self, v: Val, to: &TypeRef, loc: Option<Loc>) -> Option<Val> {
        let lanes = match v {
            Val::Scalar(e) => vec![e],
            Val::Vector(l) => l,
            Val::Ptr(_) => {
                self.err(loc, "a bit cast of a pointer to a vector");
                return None;
            }
        };
        let target = match vector_shape(to) {
            Some((n, e)) => scalar_ty(&e).map(|t| (n, t)),
            None => scalar_ty(to).map(|t| (1, t)),
        };
        let bits: u32 = lanes.iter().map(|l| l.ty.width()).sum();
        let Some((n, t)) = target
            .filter(|(n, t)| *t != Ty::Bool && lanes.iter().all(|l| l.ty != Ty::Bool) && t.width() * *n as u32 == bits)
        else {
            self.err(loc, "a bit cast between vectors of booleans, pointers or different sizes");
            return None;
        };
        let texts: Vec<&str> = lanes.iter().rev().map(|l| l.text.as_str()).collect();
        let all = if texts.len() == 1 { texts[0].to_string() } else { format!("({})", texts.join(" ++ ")) };
        let w = t.width();
        let cut: Vec<Ex> = (0..n as u32).map(|k| Ex::new(format!("{all}[{}:{}]", (k + 1) * w, k * w), t)).collect();
        Some(if vector_shape(to).is_some() { Val::Vector(cut) } else { Val::Scalar(Ex::new(all, t)) })
    }

    /// A vector load: one access per lane.
    #[allow(clippy::too_many_arguments)]
    fn vector_load(
        &mut self,
        f: &Frame<'m>,
        l: &inst::Load,
        n: usize,
        ty: Ty,
        elem: &TypeRef,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        if l.atomicity.is_some() {
            self.err(loc, "an atomic load");
            return None;
        }
        let p = self.arg(f, &l.address, spec, loc);
        let p = self.ptr(p, loc)?;
        let size = layout::size_align(elem, &self.module.types)?.0;
        let mut lanes = Vec::with_capacity(n);
        for q in lane_pointers(&p, n, size) {
            lanes.push(Ex::new(self.access(&q, ty, loc)?, ty));
        }
        Some(Val::Vector(lanes))
    }

    /// A store of a vector value: one write per lane.
    pub(super) fn vector_store(&mut self, f: &Frame<'m>, s: &inst::Store, loc: Option<Loc>) {
        let Some(p) = self.store_target(f, s, loc) else { return };
        let v = self.operand(f, &s.value, loc);
        let Some(lanes) = self.lanes(v, loc) else { return };
        let Some((_, elem)) = vector_shape(&self.module.type_of(&s.value)) else { return };
        let Some((size, _)) = layout::size_align(&elem, &self.module.types) else { return };
        let offsets: Vec<u64> = (0..lanes.len() as u64).map(|k| k * size).collect();
        self.write_leaves(&p, &offsets, &lanes, loc);
    }

    /// A vector load through a pointer into one of several objects: per lane, one branch per
    /// object into the lane's variable.
    pub(super) fn vector_load_from_several(
        &mut self,
        f: &mut Frame<'m>,
        l: &'m inst::Load,
        lt: &TypeRef,
        loc: Option<Loc>,
    ) {
        let Some((n, elem)) = vector_shape(lt) else { return };
        let (Some(ty), Some((size, _))) = (scalar_ty(&elem), layout::size_align(&elem, &self.module.types)) else {
            self.err(loc, "a load of a vector of pointers or booleans");
            return;
        };
        let p = self.operand(f, &l.address, loc);
        let Some(p) = self.ptr(p, loc) else { return };
        let base = f.var(&l.dest);
        let mut lanes = Vec::with_capacity(n);
        for (k, q) in lane_pointers(&p, n, size).iter().enumerate() {
            let v = format!("{base}.{k}");
            self.body.declare(v.clone(), ty.kbpl());
            self.on_each_object(q, loc, |tr, q| tr.access(q, ty, loc).map(|place| format!("{v} := {place};")));
            lanes.push(Ex::new(v, ty));
        }
        f.vals.insert(l.dest.clone(), Val::Vector(lanes));
    }

    /// A call of an external function returning a vector: per lane, an uninterpreted function
    /// of every scalar of every argument.
    fn vector_call(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        n: usize,
        ty: Ty,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let name = call_name(c)?;
        if builtins::classify(name) == Some(Builtin::Spec(Spec::ReturnVal)) && spec.is_some() {
            // `__return_val_int4()` in a postcondition: lane `k` of the result, filled in at
            // each `ret` (`with_return_value`).
            return Some(Val::Vector((0..n).map(|k| Ex::new(format!("{RETURN_VAL}.{k}"), ty)).collect()));
        }
        if builtins::classify(name).is_some() || builtins::demangle(name).starts_with("__") {
            self.err(loc, format!("`{}` returning a vector", builtins::demangle(name)));
            return None;
        }
        let args = self.external_args(f, c, name, spec, loc)?;
        if let Some(lanes) = self.int_min_max_lanes(name, &args, n) {
            return Some(Val::Vector(lanes));
        }
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        let lanes = (0..n)
            .map(|k| {
                let fname = self.decls.uninterpreted(&format!("$ext.{}.{k}", global_name(name)), &tys, ty);
                Ex::new(format!("{fname}({})", texts.join(", ")), ty)
            })
            .collect();
        Some(Val::Vector(lanes))
    }

    /// The value of a constant of vector type (or a constant lane move); `None` for other
    /// constants.
    pub(super) fn vector_constant(&mut self, f: &Frame<'m>, k: &ConstantRef, loc: Option<Loc>) -> Option<Option<Val>> {
        let lane_const = |c: Constant| ConstantRef::new(c);
        let v = match k.as_ref() {
            Constant::Vector(elems) => {
                let mut lanes = Vec::with_capacity(elems.len());
                for e in elems {
                    let e = self.constant(f, e, loc);
                    let Some(Val::Scalar(e)) = e else {
                        self.err(loc, "a constant vector of pointers");
                        return Some(None);
                    };
                    lanes.push(e);
                }
                Some(Val::Vector(lanes))
            }
            Constant::AggregateZero(t) | Constant::Undef(t) | Constant::Poison(t) | Constant::Null(t) => {
                let (n, elem) = vector_shape(t)?;
                let lane = lane_const(match k.as_ref() {
                    Constant::Undef(_) => Constant::Undef(elem),
                    Constant::Poison(_) => Constant::Poison(elem),
                    _ => Constant::AggregateZero(elem),
                });
                let lanes: Option<Vec<Ex>> = (0..n)
                    .map(|_| {
                        let v = self.constant(f, &lane, loc);
                        self.scalar(v, loc)
                    })
                    .collect();
                lanes.map(Val::Vector)
            }
            Constant::ExtractElement(x) => {
                let v = self.constant(f, &x.vector, loc);
                let lanes = self.lanes(v, loc)?;
                let idx = self.constant(f, &x.index, loc);
                let idx = self.scalar(idx, loc)?;
                self.pick(&lanes, &idx).map(Val::Scalar)
            }
            Constant::InsertElement(x) => {
                let v = self.constant(f, &x.vector, loc);
                let lanes = self.lanes(v, loc)?;
                let e = self.constant(f, &x.element, loc);
                let e = self.scalar(e, loc)?;
                let idx = self.constant(f, &x.index, loc);
                let idx = self.scalar(idx, loc)?;
                Some(Val::Vector(self.replace(lanes, e, &idx)))
            }
            Constant::ShuffleVector(x) => {
                let Some(mask) = mask_lanes(&x.mask) else {
                    self.err(loc, "a shuffle whose mask is not a constant vector");
                    return Some(None);
                };
                let a = self.constant(f, &x.operand0, loc);
                let a = self.lanes(a, loc)?;
                let b = |tr: &mut Self| {
                    let b = tr.constant(f, &x.operand1, loc);
                    tr.lanes(b, loc)
                };
                self.shuffle(a, b, &mask).map(Val::Vector)
            }
            Constant::BitCast(x) if reshapes(&self.module.type_of(&x.operand), &x.to_type) => {
                let v = self.constant(f, &x.operand, loc);
                self.reshape(v?, &x.to_type, loc)
            }
            _ => return None,
        };
        // A lane move on a constant vector read while a lane is selected.
        Some(self.in_lane(v, loc))
    }

    /// One variable per lane, `{base}.{k}`, for a vector of type `ty` (phi nodes, the result
    /// of an inlined call), or per leaf of a struct or array; `None` when `ty` holds pointers.
    pub(super) fn lane_vars(&mut self, base: &str, ty: &TypeRef) -> Option<Vec<Ex>> {
        let tys: Vec<Ty> = match vector_shape(ty) {
            Some((n, elem)) => vec![scalar_ty(&elem)?; n],
            // A struct or array: one variable per leaf (`aggregates.rs`).
            None => aggregates::leaves(ty, &self.module.types)?.into_iter().map(|l| l.1).collect(),
        };
        Some(
            tys.into_iter()
                .enumerate()
                .map(|(k, t)| {
                    let v = format!("{base}.{k}");
                    self.body.declare(v.clone(), t.kbpl());
                    Ex::new(v, t)
                })
                .collect(),
        )
    }

    /// A kernel parameter of vector type: one parameter per lane (for a function no kernel
    /// calls, one local per lane: arbitrary values). `None` when `ty` is not a vector.
    pub(super) fn vector_param(
        &mut self,
        name: &str,
        ty: &TypeRef,
        extra: bool,
        params: &mut Vec<String>,
    ) -> Option<Val> {
        let base = format!("${name}");
        if extra {
            return self.lane_vars(&base, ty).map(Val::Vector);
        }
        let (n, elem) = vector_shape(ty)?;
        let t = scalar_ty(&elem)?;
        let lanes = (0..n)
            .map(|k| {
                let v = format!("{base}.{k}");
                params.push(format!("{v}: {}", t.kbpl()));
                self.facts.fix(v.clone());
                Ex::new(v, t)
            })
            .collect();
        Some(Val::Vector(lanes))
    }

    /// Binds the lanes an instruction computed to `dest`: a lane fixed for the thread's run
    /// stays an expression (as for scalars), any other is assigned to `{dest}.{k}`.
    pub(super) fn bind_lanes(&mut self, f: &mut Frame<'m>, dest: &Name, lanes: Vec<Ex>, loc: Option<Loc>) {
        let base = f.var(dest);
        let out = lanes.into_iter().enumerate().map(|(k, e)| self.bind(format!("{base}.{k}"), e, loc)).collect();
        f.vals.insert(dest.clone(), Val::Vector(out));
    }

    /// The assignment of a returned vector to the caller's lane variables `{res}.{k}`.
    pub(super) fn vector_return(&mut self, res: &str, lanes: &[Ex], loc: Option<Loc>) {
        let lhs: Vec<String> = (0..lanes.len()).map(|k| format!("{res}.{k}")).collect();
        let rhs: Vec<&str> = lanes.iter().map(|e| e.text.as_str()).collect();
        self.body.emit(format!("{} := {};", lhs.join(", "), rhs.join(", ")), loc);
    }

    /// `__equal_floats(a, b)` / `__equal_doubles(a, b)`: bit equality of two floats, or of
    /// every lane of two vectors (the annotation header declares the vector overloads).
    pub(super) fn equal_lanes(&mut self, a: Option<&Val>, b: Option<&Val>, loc: Option<Loc>) -> Option<String> {
        match (a?, b?) {
            (Val::Scalar(a), Val::Scalar(b)) => Some(format!("({} == {})", a.text, b.text)),
            (Val::Vector(a), Val::Vector(b)) if a.len() == b.len() => {
                let eqs: Vec<String> = a.iter().zip(b).map(|(x, y)| format!("{} == {}", x.text, y.text)).collect();
                Some(format!("({})", eqs.join(" && ")))
            }
            _ => {
                self.err(loc, "an equality annotation on values of different shapes");
                None
            }
        }
    }
}

/// The pointers to the `n` lanes of a vector at `p`, each `size` bytes.
pub(super) fn lane_pointers(p: &Ptr, n: usize, size: u64) -> Vec<Ptr> {
    (0..n as u64)
        .map(|k| Ptr { base: p.base, off: p.off.clone().plus(&Lin::constant(k * size)), alt: p.alt.clone() })
        .collect()
}

/// The value of an integer literal `5bv32`.
fn literal(e: &Ex) -> Option<u64> {
    let (digits, width) = e.text.split_once("bv")?;
    width.parse::<u32>().ok()?;
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{lane_pointers, literal};
    use crate::memory::{Lin, Ptr};
    use crate::translate::values::{Ex, Ty};

    #[test]
    fn literals_are_constant_indices() {
        assert_eq!(literal(&Ex::new("3bv32".into(), Ty::Bv(32))), Some(3));
        assert_eq!(literal(&Ex::new("$i".into(), Ty::Bv(32))), None);
        assert_eq!(literal(&Ex::new("BV32_ADD(1bv32, 2bv32)".into(), Ty::Bv(32))), None);
    }

    #[test]
    fn lanes_are_consecutive_elements() {
        let p = Ptr::to(0, Lin::term("i".into(), 16));
        let q = lane_pointers(&p, 4, 4);
        assert_eq!(q[3].off.index(4, &mut |_| {}), "BV32_ADD(BV32_MUL(i, 4bv32), 3bv32)");
    }
}

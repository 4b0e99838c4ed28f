//! Structs and arrays held in registers (issue 18): CUDA's vector types are structs
//! (`float4` is `{ float, float, float, float }`), and the CUDA samples' helper math returns
//! them by value, so clang's IR loads, stores, returns and takes apart whole structs.
//!
//! An aggregate value is flattened into its scalar *leaves* (the fields of the fields…, and
//! the elements of arrays), in memory order, and held as a [`Val::Vector`] of one expression
//! per leaf, as `vectors.rs` holds a vector's lanes; nothing of the struct survives into the
//! KBPL (GPUVerify's Bugle also splits aggregates into their scalars):
//!
//! - **Memory**: a load or store of a whole struct is one access per leaf, at the leaf's byte
//!   offset (`layout.rs`), so each field's access is race-checked on its own; a field of
//!   another width than the object's other accesses makes the object byte-level (`bytes.rs`).
//! - **Registers**: `extractvalue` reads the leaves of the field it names (one scalar, or the
//!   leaves of a nested struct), `insertvalue` replaces them; a phi, the result of an inlined
//!   call and a `ret` move every leaf (`vectors.rs`'s lane variables serve both).
//! - **Constants**: `zeroinitializer` is zero leaves, `undef`/`poison` an arbitrary variable
//!   per leaf, a constant struct or array the leaves of its elements.
//!
//! An aggregate that holds pointers, or has more than [`MAX_LEAVES`] scalars, is a located
//! `unsupported`.

use super::frame::Frame;
use super::values::{loaded_type, scalar_ty, Ex, Ty, Val};
use super::Tr;
use crate::memory::{Lin, Ptr};
use crate::{layout, Loc};
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::types::Type;
use llvm_ir::{Constant, ConstantRef, TypeRef};

/// The most scalars an aggregate held in registers is split into.
const MAX_LEAVES: usize = 256;

/// Whether `ty` is a struct or array type (an aggregate in LLVM's sense).
pub(super) fn is_aggregate(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), Type::StructType { .. } | Type::NamedStructType { .. } | Type::ArrayType { .. })
}

/// The scalar leaves of an aggregate type, in memory order: each one's byte offset from the
/// start of the aggregate and its type. `None` when `ty` is not an aggregate, holds pointers
/// or opaque types, or has more than [`MAX_LEAVES`] leaves.
pub(super) fn leaves(ty: &TypeRef, types: &llvm_ir::types::Types) -> Option<Vec<(u64, Ty)>> {
    if !is_aggregate(ty) {
        return None;
    }
    let mut out = Vec::new();
    collect(ty, types, 0, &mut out, 0).then_some(out)
}

fn collect(ty: &TypeRef, types: &llvm_ir::types::Types, at: u64, out: &mut Vec<(u64, Ty)>, depth: usize) -> bool {
    if depth > 16 || out.len() > MAX_LEAVES {
        return false;
    }
    if let Some(t) = scalar_ty(ty) {
        out.push((at, t));
        return true;
    }
    match ty.as_ref() {
        Type::StructType { element_types, .. } => (0..element_types.len()).all(|i| {
            layout::field(ty, i, types).is_some_and(|(off, fty)| collect(&fty, types, at + off, out, depth + 1))
        }),
        Type::NamedStructType { .. } => match named_fields(ty, types) {
            Some(n) => (0..n).all(|i| {
                layout::field(ty, i, types).is_some_and(|(off, fty)| collect(&fty, types, at + off, out, depth + 1))
            }),
            None => false,
        },
        Type::ArrayType { element_type, num_elements } | Type::VectorType { element_type, num_elements, .. } => {
            let Some((size, _)) = layout::size_align(element_type, types) else { return false };
            (0..*num_elements as u64).all(|k| collect(element_type, types, at + k * size, out, depth + 1))
        }
        _ => false,
    }
}

/// The number of fields of a named struct type.
fn named_fields(ty: &TypeRef, types: &llvm_ir::types::Types) -> Option<usize> {
    let Type::NamedStructType { name } = ty.as_ref() else { return None };
    match types.named_struct_def(name)? {
        llvm_ir::types::NamedStructDef::Defined(t) => match t.as_ref() {
            Type::StructType { element_types, .. } => Some(element_types.len()),
            _ => None,
        },
        llvm_ir::types::NamedStructDef::Opaque => None,
    }
}

/// The number of leaves of `ty` (1 for a scalar).
fn leaf_count(ty: &TypeRef, types: &llvm_ir::types::Types) -> Option<usize> {
    match scalar_ty(ty) {
        Some(_) => Some(1),
        None => leaves(ty, types).map(|l| l.len()),
    }
}

/// The leaves `start..start+count` that the field at `indices` (of `extractvalue` and
/// `insertvalue`) occupies in an aggregate of type `ty`, and the field's type.
fn leaf_range(ty: &TypeRef, indices: &[u32], types: &llvm_ir::types::Types) -> Option<(usize, usize, TypeRef)> {
    let mut start = 0;
    let mut cur = ty.clone();
    for &i in indices {
        let i = i as usize;
        cur = match cur.as_ref() {
            Type::ArrayType { element_type, .. } => {
                start += i * leaf_count(element_type, types)?;
                element_type.clone()
            }
            _ => {
                for j in 0..i {
                    start += leaf_count(&layout::field(&cur, j, types)?.1, types)?;
                }
                layout::field(&cur, i, types)?.1
            }
        };
    }
    Some((start, leaf_count(&cur, types)?, cur))
}

impl<'m> Tr<'m> {
    /// The value of an instruction on aggregates (`extractvalue`, `insertvalue`, the load of a
    /// whole struct or array), or `None` for any other instruction. Handled before anything
    /// asks the IR reader for these instructions' types (it cannot type them on named
    /// structs).
    pub(super) fn aggregate_value(
        &mut self,
        f: &Frame<'m>,
        i: &'m Instruction,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Option<Val>> {
        match i {
            Instruction::ExtractValue(x) => {
                let ty = self.module.type_of(&x.aggregate);
                let agg = self.arg(f, &x.aggregate, spec, loc);
                Some(self.extract_value(agg, &ty, &x.indices, loc))
            }
            Instruction::InsertValue(x) => {
                let ty = self.module.type_of(&x.aggregate);
                let agg = self.arg(f, &x.aggregate, spec, loc);
                let elem = self.arg(f, &x.element, spec, loc);
                Some(self.insert_value(agg, elem, &ty, &x.indices, loc))
            }
            Instruction::Load(l) if is_aggregate(&loaded_type(self.module, l)) => {
                Some(self.aggregate_load(f, l, spec, loc))
            }
            _ => None,
        }
    }

    /// The leaves of an aggregate type, or a located error.
    fn leaves_of(&mut self, ty: &TypeRef, loc: Option<Loc>) -> Option<Vec<(u64, Ty)>> {
        let l = leaves(ty, &self.module.types);
        if l.is_none() {
            self.err(loc, format!("a struct or array value that holds pointers or more than {MAX_LEAVES} scalars"));
        }
        l
    }

    /// `extractvalue`: the field's scalar, or the leaves of a nested aggregate.
    fn extract_value(&mut self, agg: Option<Val>, ty: &TypeRef, indices: &[u32], loc: Option<Loc>) -> Option<Val> {
        let lanes = self.aggregate_leaves(agg, loc)?;
        let Some((start, n, sub)) = leaf_range(ty, indices, &self.module.types).filter(|r| r.0 + r.1 <= lanes.len())
        else {
            self.err(loc, "an `extractvalue` the front end cannot place in its aggregate");
            return None;
        };
        Some(if is_aggregate(&sub) {
            Val::Vector(lanes[start..start + n].to_vec())
        } else {
            Val::Scalar(lanes[start].clone())
        })
    }

    /// `insertvalue`: the aggregate with the field's leaves replaced.
    fn insert_value(
        &mut self,
        agg: Option<Val>,
        elem: Option<Val>,
        ty: &TypeRef,
        indices: &[u32],
        loc: Option<Loc>,
    ) -> Option<Val> {
        let mut lanes = self.aggregate_leaves(agg, loc)?;
        let new = match elem? {
            Val::Scalar(e) => vec![e],
            Val::Vector(l) => l,
            Val::Ptr(_) => {
                self.err(loc, "a pointer stored into a struct or array value");
                return None;
            }
        };
        match leaf_range(ty, indices, &self.module.types) {
            Some((start, n, _)) if n == new.len() && start + n <= lanes.len() => {
                lanes.splice(start..start + n, new);
                Some(Val::Vector(lanes))
            }
            _ => {
                self.err(loc, "an `insertvalue` the front end cannot place in its aggregate");
                None
            }
        }
    }

    /// The leaves of an aggregate value.
    fn aggregate_leaves(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Vec<Ex>> {
        match v? {
            Val::Vector(l) => Some(l),
            _ => {
                self.err(loc, "a struct or array operation on a value that is not one");
                None
            }
        }
    }

    /// The load of a whole struct or array: one access per leaf.
    fn aggregate_load(&mut self, f: &Frame<'m>, l: &inst::Load, spec: Option<usize>, loc: Option<Loc>) -> Option<Val> {
        if l.atomicity.is_some() {
            self.err(loc, "an atomic load");
            return None;
        }
        let layout = self.leaves_of(&loaded_type(self.module, l), loc)?;
        let p = self.arg(f, &l.address, spec, loc);
        let p = self.ptr(p, loc)?;
        if p.alt.is_some() {
            self.err(loc, "a load of a struct or array through a pointer into several memory objects");
            return None;
        }
        let mut out = Vec::with_capacity(layout.len());
        for (off, ty) in layout {
            let q = Ptr::to(p.base, p.off.clone().plus(&Lin::constant(off)));
            out.push(Ex::new(self.access(&q, ty, loc)?, ty));
        }
        Some(Val::Vector(out))
    }

    /// The store of a whole struct or array value: one write per leaf.
    pub(super) fn aggregate_store(&mut self, f: &Frame<'m>, s: &inst::Store, loc: Option<Loc>) {
        let Some(p) = self.store_target(f, s, loc) else { return };
        let Some(layout) = self.leaves_of(&self.module.type_of(&s.value), loc) else { return };
        let v = self.operand(f, &s.value, loc);
        let Some(values) = self.aggregate_leaves(v, loc) else { return };
        let offsets: Vec<u64> = layout.iter().map(|l| l.0).collect();
        self.write_leaves(&p, &offsets, &values, loc);
    }

    /// Writes `values[k]` at byte offset `offsets[k]` from `p`; through a pointer into
    /// several objects, one branch per object and value (`on_each_object`).
    pub(super) fn write_leaves(&mut self, p: &Ptr, offsets: &[u64], values: &[Ex], loc: Option<Loc>) {
        for (off, e) in offsets.iter().zip(values) {
            let q = Ptr { base: p.base, off: p.off.clone().plus(&Lin::constant(*off)), alt: p.alt.clone() };
            self.on_each_object(&q, loc, |tr, q| tr.write(q, e.ty, &e.text, loc));
        }
    }

    /// An aggregate constant used as a value (`zeroinitializer`, `undef`, `{ float 1.0, … }`),
    /// or `None` for a constant that is no aggregate.
    pub(super) fn aggregate_constant(
        &mut self,
        f: &Frame<'m>,
        k: &ConstantRef,
        loc: Option<Loc>,
    ) -> Option<Option<Val>> {
        match k.as_ref() {
            Constant::AggregateZero(t) | Constant::Undef(t) | Constant::Poison(t) if is_aggregate(t) => {
                let layout = match self.leaves_of(t, loc) {
                    Some(l) => l,
                    None => return Some(None),
                };
                let zero = matches!(k.as_ref(), Constant::AggregateZero(_));
                let lanes = layout
                    .into_iter()
                    .map(|(_, ty)| match (zero, ty) {
                        (true, Ty::Bool) => Ex::new("false".into(), ty),
                        (true, _) => Ex::new(format!("0bv{}", ty.width()), ty),
                        (false, _) => Ex::new(self.body.fresh_var("undef", &ty.kbpl()), ty),
                    })
                    .collect();
                Some(Some(Val::Vector(lanes)))
            }
            Constant::Struct { values, .. } | Constant::Array { elements: values, .. } => {
                let mut lanes = Vec::new();
                for v in values {
                    match self.constant(f, v, loc) {
                        Some(Val::Scalar(e)) => lanes.push(e),
                        Some(Val::Vector(l)) => lanes.extend(l),
                        Some(Val::Ptr(_)) => {
                            self.err(loc, "a constant struct or array that holds pointers");
                            return Some(None);
                        }
                        None => return Some(None),
                    }
                }
                Some(Some(Val::Vector(lanes)))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{leaf_range, leaves};
    use crate::translate::values::Ty;
    use llvm_ir::types::{FPType, Types};

    #[test]
    fn leaves_follow_the_fields_and_elements_in_memory_order() {
        let t = Types::blank_for_testing();
        // { float, [2 x i16], i32 }: the array is split, and the int aligned to 4 bytes.
        let s = t.struct_of(vec![t.fp(FPType::Single), t.array_of(t.i16(), 2), t.i32()], false);
        let l = leaves(&s, &t).unwrap();
        assert_eq!(l, vec![(0, Ty::Float(32)), (4, Ty::Bv(16)), (6, Ty::Bv(16)), (8, Ty::Bv(32))]);
        // Field 1 occupies leaves 1..3, element 1 of it leaf 2.
        assert_eq!(leaf_range(&s, &[1], &t).map(|r| (r.0, r.1)), Some((1, 2)));
        assert_eq!(leaf_range(&s, &[1, 1], &t).map(|r| (r.0, r.1)), Some((2, 1)));
        assert_eq!(leaf_range(&s, &[2], &t).map(|r| (r.0, r.1)), Some((3, 1)));
    }

    #[test]
    fn pointers_and_scalars_have_no_leaves() {
        let t = Types::blank_for_testing();
        assert!(leaves(&t.i32(), &t).is_none());
        let p = t.pointer_to(t.i32());
        assert!(leaves(&t.struct_of(vec![t.i32(), p], false), &t).is_none());
    }
}

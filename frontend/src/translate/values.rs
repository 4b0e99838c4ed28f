//! What an LLVM value becomes: a scalar KBPL expression with its type, a statically resolved
//! pointer, or a vector of scalars; and the LLVM types they are read from.
//!
//! Apart from the translator so that the lowering modules and the components share one
//! vocabulary that depends on nothing else of the front end (this module uses only
//! `crate::memory` and `llvm_ir`). Element types come from the loads and stores (and GEP source
//! types), never from pointer types, except in [`loaded_type`] and [`const_gep_source`] where
//! LLVM 14 offers nothing else: those two change with opaque pointers.

use crate::memory::Ptr;
use llvm_ir::instruction as inst;
use llvm_ir::types::{FPType, Type};
use llvm_ir::{Constant, ConstantRef, Module, Operand, TypeRef};

/// A scalar KBPL type: `bool` for `i1`, `bvN` for integers and floats (floats keep their
/// width for the names of their uninterpreted operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Bool,
    Bv(u32),
    Float(u32),
}

impl Ty {
    pub(super) fn kbpl(self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::Bv(w) | Ty::Float(w) => format!("bv{w}"),
        }
    }
    pub(super) fn width(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::Bv(w) | Ty::Float(w) => w,
        }
    }
}

/// A scalar expression; `bool_of` is the boolean it encodes when it is `if b then 1 else 0`
/// (C's comparisons become ints), so that `x != 0` folds back to `b`.
#[derive(Clone, Debug)]
pub(super) struct Ex {
    pub(super) text: String,
    pub(super) ty: Ty,
    pub(super) bool_of: Option<String>,
}

impl Ex {
    pub(super) fn new(text: String, ty: Ty) -> Ex {
        Ex { text, ty, bool_of: None }
    }
}

#[derive(Clone, Debug)]
pub(super) enum Val {
    Scalar(Ex),
    Ptr(Ptr),
    /// A vector: one scalar per lane (`vectors.rs`).
    Vector(Vec<Ex>),
}

/// The truth value an expression stands for: itself when it is a boolean, else `e != 0`.
pub(super) fn bool_ex(e: &Ex) -> String {
    if let Some(b) = &e.bool_of {
        return b.clone();
    }
    match e.ty {
        Ty::Bool => e.text.clone(),
        t => format!("({} != 0bv{})", e.text, t.width()),
    }
}

/// The boolean `b` as a `w`-bit integer, one or zero (and remembered as `b`).
pub(super) fn bool_to_int(b: String, w: u32) -> Ex {
    Ex { text: format!("(if {b} then 1bv{w} else 0bv{w})"), ty: Ty::Bv(w), bool_of: Some(b) }
}

pub(super) fn scalar_ty(ty: &TypeRef) -> Option<Ty> {
    match ty.as_ref() {
        Type::IntegerType { bits: 1 } => Some(Ty::Bool),
        Type::IntegerType { bits } => Some(Ty::Bv(*bits)),
        Type::FPType(FPType::Half) => Some(Ty::Float(16)),
        Type::FPType(FPType::Single) => Some(Ty::Float(32)),
        Type::FPType(FPType::Double) => Some(Ty::Float(64)),
        _ => None,
    }
}

/// The scalar type of one lane: `scalar_ty` of a vector's element type, or of `ty` itself
/// (casts translated lane by lane, `vectors.rs`).
pub(super) fn lane_ty(ty: &TypeRef) -> Option<Ty> {
    match vector_shape(ty) {
        Some((_, elem)) => scalar_ty(&elem),
        None => scalar_ty(ty),
    }
}

/// The scalar type of a value in memory: `scalar_ty`, and OpenCL's `event_t` as a bv32 number
/// (`async_copy.rs`).
pub(super) fn memory_scalar_ty(ty: &TypeRef) -> Option<Ty> {
    scalar_ty(ty).or_else(|| is_event(ty).then_some(Ty::Bv(32)))
}

/// The lane count and lane type of a (fixed-length) vector type.
pub(super) fn vector_shape(ty: &TypeRef) -> Option<(usize, TypeRef)> {
    match ty.as_ref() {
        Type::VectorType { element_type, num_elements, scalable: false } => Some((*num_elements, element_type.clone())),
        _ => None,
    }
}

/// Whether a type is OpenCL's `event_t` (a pointer to the opaque `opencl.event_t`), which
/// `async_copy.rs` keeps as a number.
pub(super) fn is_event(ty: &TypeRef) -> bool {
    match ty.as_ref() {
        Type::PointerType { pointee_type, .. } => {
            matches!(pointee_type.as_ref(), Type::NamedStructType { name } if name == "opencl.event_t")
        }
        _ => false,
    }
}

pub(super) fn is_pointer(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), Type::PointerType { .. })
}

pub(super) fn addr_space(ty: &TypeRef) -> u32 {
    match ty.as_ref() {
        Type::PointerType { addr_space, .. } => *addr_space,
        _ => 0,
    }
}

/// The type a load reads. LLVM 14: the pointee type; LLVM 15+: `Load::loaded_ty`.
pub(super) fn loaded_type(m: &Module, l: &inst::Load) -> TypeRef {
    m.type_of(l)
}

/// The source element type of a constant GEP. LLVM 14: the pointee type of its address.
pub(super) fn const_gep_source(m: &Module, address: &ConstantRef) -> Option<TypeRef> {
    match m.type_of(address).as_ref() {
        Type::PointerType { pointee_type, .. } => Some(pointee_type.clone()),
        _ => None,
    }
}

/// The value of an integer constant operand (`None` for anything else).
pub(super) fn int_constant(op: &Operand) -> Option<u64> {
    match op {
        Operand::ConstantOperand(k) => match k.as_ref() {
            Constant::Int { value, .. } => Some(*value),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{bool_ex, bool_to_int, Ex, Ty};

    #[test]
    fn comparisons_turned_into_ints_fold_back() {
        let i = bool_to_int("($x == 1bv32)".into(), 8);
        assert_eq!(i.text, "(if ($x == 1bv32) then 1bv8 else 0bv8)");
        assert_eq!(i.ty, Ty::Bv(8));
        assert_eq!(bool_ex(&i), "($x == 1bv32)");
        assert_eq!(bool_ex(&Ex::new("$b".into(), Ty::Bool)), "$b");
        assert_eq!(bool_ex(&Ex::new("$n".into(), Ty::Bv(16))), "($n != 0bv16)");
    }

    #[test]
    fn floats_are_bit_vectors_of_their_width() {
        assert_eq!(Ty::Float(64).kbpl(), "bv64");
        assert_eq!(Ty::Float(16).width(), 16);
        assert_eq!(Ty::Bool.kbpl(), "bool");
        assert_eq!(Ty::Bool.width(), 1);
    }
}

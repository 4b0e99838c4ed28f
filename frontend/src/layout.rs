//! Sizes and field offsets of LLVM types, for turning GEPs into byte offsets. Both targets
//! (32-bit spir and nvptx) align scalars to their size, aggregates to their largest member.

use llvm_ir::types::{FPType, Type, Types};
use llvm_ir::TypeRef;

/// Bytes of a pointer on the targets kivl compiles for (`-target spir`, CUDA with `-m32`).
pub const POINTER_BYTES: u64 = 4;

/// `(size, alignment)` in bytes; `None` for types without a size (functions, opaque structs).
pub fn size_align(ty: &TypeRef, types: &Types) -> Option<(u64, u64)> {
    match ty.as_ref() {
        Type::IntegerType { bits } => {
            let bytes = u64::from(bits.div_ceil(8)).next_power_of_two();
            Some((bytes, bytes))
        }
        Type::FPType(fp) => {
            let bytes = match fp {
                FPType::Half | FPType::BFloat => 2,
                FPType::Single => 4,
                FPType::Double => 8,
                _ => return None,
            };
            Some((bytes, bytes))
        }
        Type::PointerType { .. } => Some((POINTER_BYTES, POINTER_BYTES)),
        Type::ArrayType { element_type, num_elements } => {
            let (s, a) = size_align(element_type, types)?;
            Some((s * *num_elements as u64, a))
        }
        // OpenCL 1.2 §6.1.5: a vector is aligned to its size, and a 3-lane vector has the size
        // and alignment of a 4-lane one (spir's data layout says the same: `v96:128`).
        Type::VectorType { element_type, num_elements, .. } => {
            let (s, _) = size_align(element_type, types)?;
            let size = s * (*num_elements as u64).next_power_of_two();
            Some((size, size))
        }
        Type::StructType { element_types, is_packed } => {
            struct_layout(element_types, *is_packed, types).map(|l| (l.0, l.1))
        }
        Type::NamedStructType { name } => match types.named_struct_def(name) {
            Some(llvm_ir::types::NamedStructDef::Defined(t)) => size_align(t, types),
            _ => None,
        },
        _ => None,
    }
}

/// A struct's size, alignment and field offsets.
fn struct_layout(fields: &[TypeRef], packed: bool, types: &Types) -> Option<(u64, u64, Vec<u64>)> {
    let mut off = 0u64;
    let mut align = 1u64;
    let mut offsets = Vec::new();
    for f in fields {
        let (s, a) = size_align(f, types)?;
        let a = if packed { 1 } else { a };
        off = off.div_ceil(a) * a;
        offsets.push(off);
        off += s;
        align = align.max(a);
    }
    Some((off.div_ceil(align) * align, align, offsets))
}

/// The byte offset of field `i` of a struct type and the field's type.
pub fn field(ty: &TypeRef, i: usize, types: &Types) -> Option<(u64, TypeRef)> {
    match ty.as_ref() {
        Type::StructType { element_types, is_packed } => {
            let (_, _, offsets) = struct_layout(element_types, *is_packed, types)?;
            Some((*offsets.get(i)?, element_types.get(i)?.clone()))
        }
        Type::NamedStructType { name } => match types.named_struct_def(name) {
            Some(llvm_ir::types::NamedStructDef::Defined(t)) => field(t, i, types),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::size_align;
    use llvm_ir::types::Types;

    #[test]
    fn vectors_are_aligned_to_their_size_and_three_lanes_take_four() {
        let t = Types::blank_for_testing();
        let int3 = t.vector_of(t.i32(), 3, false);
        assert_eq!(size_align(&int3, &t), Some((16, 16)));
        assert_eq!(size_align(&t.vector_of(t.i8(), 2, false), &t), Some((2, 2)));
        // An array of int3 has a stride of 16 bytes.
        assert_eq!(size_align(&t.array_of(int3, 2), &t), Some((32, 16)));
    }
}

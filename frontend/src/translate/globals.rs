//! Constants and program-scope variables: constant operands (numbers, floats, null and
//! undefined values, constant expressions), the memory object of a global variable (found by
//! name, made on first use), and the axioms that give OpenCL's initialised constant memory its
//! contents.
//!
//! Apart from the instruction lowering because a constant is a value of no instruction, and a
//! global's object is made where it is first named, by whichever instruction names it.

use super::frame::Frame;
use super::names::global_name;
use super::values::{const_gep_source, is_pointer, memory_scalar_ty, scalar_ty, vector_shape, Ex, Ty, Val};
use super::Tr;
use crate::memory::{Lin, Ptr, Space};
use crate::{builtins, layout, Loc};
use llvm_ir::constant::Float;
use llvm_ir::types::Type;
use llvm_ir::{Constant, ConstantRef, Name, Operand, TypeRef};

impl<'m> Tr<'m> {
    pub(super) fn constant(&mut self, f: &Frame<'m>, k: &ConstantRef, loc: Option<Loc>) -> Option<Val> {
        if let Some(v) = self.vector_constant(f, k, loc) {
            return v;
        }
        if let Some(v) = self.aggregate_constant(f, k, loc) {
            return v;
        }
        let s = |t: String, ty| Some(Val::Scalar(Ex::new(t, ty)));
        match k.as_ref() {
            Constant::Int { bits: 1, value } => {
                s(if *value & 1 == 1 { "true".into() } else { "false".into() }, Ty::Bool)
            }
            Constant::Int { bits, value } => s(format!("{value}bv{bits}"), Ty::Bv(*bits)),
            Constant::Float(Float::Single(x)) => s(format!("{}bv32", x.to_bits()), Ty::Float(32)),
            Constant::Float(Float::Double(x)) => s(format!("{}bv64", x.to_bits()), Ty::Float(64)),
            Constant::Undef(t) | Constant::Poison(t) | Constant::Null(t) | Constant::AggregateZero(t) => {
                match (k.as_ref(), memory_scalar_ty(t)) {
                    (Constant::Null(_) | Constant::AggregateZero(_), Some(Ty::Bool)) => s("false".into(), Ty::Bool),
                    (Constant::Null(_) | Constant::AggregateZero(_), Some(ty)) => s(format!("0bv{}", ty.width()), ty),
                    // An undefined value: a variable that is never assigned.
                    (_, Some(ty)) => {
                        let v = self.body.fresh_var("undef", &ty.kbpl());
                        s(v, ty)
                    }
                    (Constant::Null(_), None) if is_pointer(t) => Some(Val::Ptr(Ptr::null(Lin::default()))),
                    // An undefined pointer: null with an arbitrary offset (never a valid access).
                    (Constant::Undef(_) | Constant::Poison(_), None) if is_pointer(t) => {
                        let off = self.body.fresh_var("undef", "bv32");
                        Some(Val::Ptr(Ptr::null(Lin::term(off, 1))))
                    }
                    _ => {
                        self.err(loc, "a null or undefined aggregate");
                        None
                    }
                }
            }
            Constant::GlobalReference { name: Name::Name(n), .. } if self.function_object(n).is_some() => {
                self.function_object(n).map(|o| Val::Ptr(Ptr::to(o, Lin::default())))
            }
            Constant::GlobalReference { name: Name::Name(n), .. } => {
                let b = self.global_base(n, loc)?;
                Some(Val::Ptr(Ptr::to(b, Lin::default())))
            }
            Constant::BitCast(c) => self.constant(f, &c.operand, loc),
            // A number made a pointer points into no object: null at that offset.
            Constant::IntToPtr(c) => match c.operand.as_ref() {
                Constant::Int { value, .. } => Some(Val::Ptr(Ptr::null(Lin::constant(*value)))),
                _ => {
                    self.err(loc, "an unsupported constant expression");
                    None
                }
            },
            Constant::AddrSpaceCast(c) => self.constant(f, &c.operand, loc),
            Constant::GetElementPtr(g) => {
                let base = self.constant(f, &g.address, loc);
                let base = self.ptr(base, loc)?;
                let src = const_gep_source(self.module, &g.address)?;
                let idx: Vec<Operand> = g.indices.iter().map(|c| Operand::ConstantOperand(c.clone())).collect();
                self.gep(f, base, &idx, &src, None, loc).map(Val::Ptr)
            }
            _ => {
                self.err(loc, "an unsupported constant expression");
                None
            }
        }
    }

    fn global_base(&mut self, mangled: &str, loc: Option<Loc>) -> Option<usize> {
        let name = format!("$${}", global_name(mangled));
        if let Some(b) = self.objects.global(&name) {
            return Some(b);
        }
        let g = self.module.get_global_var_by_name(&Name::Name(Box::new(mangled.to_string())));
        let Some(g) = g else {
            self.err(loc, format!("a reference to `{}`, which is not a variable", builtins::demangle(mangled)));
            return None;
        };
        let space = match g.addr_space {
            3 => Space::GroupShared,
            1 => Space::Global,
            2 | 4 => Space::Constant,
            _ if g.is_constant => Space::Constant,
            _ => {
                self.err(loc, format!("the program-scope variable `{}` in private memory", global_name(mangled)));
                return None;
            }
        };
        // CUDA's dynamic shared memory: every unsized `extern __shared__` array starts at the
        // same address, so all of them are one memory object (the first one's name); separate
        // maps would hide the races between two names of the same bytes.
        let dynamic = space == Space::GroupShared && g.initializer.is_none() && is_unsized_array(&g.ty);
        if dynamic {
            if let Some(b) = self.objects.global(DYNAMIC_SHARED) {
                self.objects.name_global(name, b);
                return Some(b);
            }
        }
        let b = self.objects.new_base(name.clone(), space);
        self.objects.name_global(name.clone(), b);
        if dynamic {
            self.objects.name_global(DYNAMIC_SHARED.to_string(), b);
        }
        let value_ty = match &g.initializer {
            Some(init) => Some(self.module.type_of(init)),
            None => match g.ty.as_ref() {
                Type::PointerType { pointee_type, .. } => Some(pointee_type.clone()),
                _ => None,
            },
        };
        self.objects.bases[b].size = value_ty.and_then(|t| layout::size_align(&t, &self.module.types)).map(|s| s.0);
        // CUDA's host may overwrite `__constant__` memory (cudaMemcpyToSymbol): only OpenCL's
        // initializers are the contents, and those of the private constants clang makes for a
        // local aggregate's initializer (`int a[] = {1, 2}` is a memcpy from `__const.k.a`).
        let opencl = self.module.target_triple.as_deref().is_some_and(|t| t.starts_with("spir"));
        let private_const = g.is_constant && g.linkage == llvm_ir::module::Linkage::Private;
        if space == Space::Constant && (opencl || private_const) {
            if let Some(init) = &g.initializer {
                self.constant_contents(b, &name, init);
            }
        }
        Some(b)
    }

    /// Axioms for the contents of OpenCL read-only memory with an initializer (`__constant int
    /// T[4] = {…}`): arrays (nested ones flattened) of one integer or float type or of vectors
    /// of one (`__constant int3 c[2]`, lanes in memory order, padding lanes unknown), or all
    /// zeros. Other initializers leave the contents arbitrary, which is sound.
    fn constant_contents(&mut self, b: usize, name: &str, init: &ConstantRef) {
        const MAX_ELEMENTS: usize = 4096;
        let types = &self.module.types;
        let ty = self.module.type_of(init);
        let mut leaf = ty.clone();
        while let Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } = leaf.as_ref() {
            leaf = element_type.clone();
        }
        let Some(t) = scalar_ty(&leaf).filter(|t| *t != Ty::Bool) else { return };
        let w = t.width();
        if w % 8 != 0 || layout::size_align(&leaf, types).is_none() {
            return;
        }
        // Byte-level constant memory (`bytes.rs`) holds each value's bytes, little-endian.
        let bytes = self.objects.is_byte_level(b);
        let cell = if bytes { 8 } else { w };
        self.objects.bases[b].width = Some(cell);
        match init.as_ref() {
            Constant::AggregateZero(_) => {
                let ax = format!("axiom (forall i: bv32 :: {name}[i] == 0bv{cell});");
                self.decls.axiom(name, ax);
            }
            _ => {
                let mut values = Vec::new();
                if !flatten(init, &mut values, MAX_ELEMENTS) {
                    return;
                }
                let per = if bytes { (w / 8) as usize } else { 1 };
                let facts: Vec<String> = values
                    .iter()
                    .enumerate()
                    .flat_map(|(i, v)| (0..per).map(move |j| (i * per + j, v.map(|v| cell_value(v, j, bytes)))))
                    .filter_map(|(i, v)| Some(format!("{name}[{i}bv32] == {}bv{cell}", v?)))
                    .collect();
                if !facts.is_empty() {
                    self.decls.axiom(name, format!("axiom {};", facts.join(" && ")));
                }
            }
        }
    }
}

/// Byte `j` of `v` (little-endian) when `bytes`, else `v` itself.
fn cell_value(v: u64, j: usize, bytes: bool) -> u64 {
    if bytes {
        (v >> (8 * j)) & 0xff
    } else {
        v
    }
}

/// The scalar leaves of a constant array as bit patterns (`None` where unknown), at most `max`
/// of them.
pub(super) fn flatten(c: &ConstantRef, out: &mut Vec<Option<u64>>, max: usize) -> bool {
    if out.len() > max {
        return false;
    }
    match c.as_ref() {
        Constant::Array { elements, .. } => elements.iter().all(|e| flatten(e, out, max)),
        Constant::Vector(_) | Constant::AggregateZero(_) => constant_lanes(c).map(|l| out.extend(l)).is_some(),
        Constant::Int { value, .. } => {
            out.push(Some(*value));
            true
        }
        Constant::Float(Float::Single(x)) => {
            out.push(Some(u64::from(x.to_bits())));
            true
        }
        Constant::Float(Float::Double(x)) => {
            out.push(Some(x.to_bits()));
            true
        }
        _ => false,
    }
}

/// The lanes of a constant vector as they lie in memory (the contents of constant memory):
/// bit patterns, `None` for undefined lanes and for the padding lane of a 3-lane vector.
fn constant_lanes(c: &ConstantRef) -> Option<Vec<Option<u64>>> {
    let mut out = Vec::new();
    let n = match c.as_ref() {
        Constant::Vector(elems) => {
            for e in elems {
                match e.as_ref() {
                    Constant::Undef(_) | Constant::Poison(_) => out.push(None),
                    _ if flatten(e, &mut out, usize::MAX) => {}
                    _ => return None,
                }
            }
            elems.len()
        }
        Constant::AggregateZero(t) => {
            let (n, _) = vector_shape(t)?;
            out.resize(n, Some(0));
            n
        }
        _ => return None,
    };
    out.resize(n.next_power_of_two(), None);
    Some(out)
}

/// The key under which CUDA's dynamic shared memory (all unsized `extern __shared__` arrays) is
/// known among the global bases; not a name a variable can have.
const DYNAMIC_SHARED: &str = "extern __shared__";

/// Whether a global's type (a pointer to its value) is an array of no elements (`T a[]`).
fn is_unsized_array(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), Type::PointerType { pointee_type, .. }
        if matches!(pointee_type.as_ref(), Type::ArrayType { num_elements: 0, .. }))
}

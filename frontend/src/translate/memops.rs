//! `llvm.memcpy.*`, `llvm.memmove.*` and `llvm.memset.*` with a constant length (struct
//! assignments, aggregate initialisers, `__builtin_memcpy`): element-wise reads and writes of
//! the memory maps, so that every copied element is a real access that races are checked on.
//!
//! The element width is the width the objects' other accesses agree on; when neither object
//! has one yet, the width of the pointed-to types' scalars (a struct of shorts: 16 bits), else
//! the widest of 8, 4, 2, 1 bytes that divides the length and both byte offsets. The copy is
//! byte-exact whatever the width (both maps hold the same bytes in units of that width). A
//! later access of another width to either object, or a length or offset that is not a
//! multiple of the objects' element width (a struct of two floats copied out of an array of
//! `float4`s at an 8-byte offset), makes both objects byte-level (`bytes.rs`), and the copy is
//! then byte by byte. A non-constant length, a pointer into several objects or a copy of more
//! than [`MAX_ELEMENTS`] elements is `unsupported`.

use super::frame::Frame;
use super::values::{int_constant, Ty};
use super::Tr;
use crate::memory::{Lin, Ptr, Space};
use crate::{layout, Loc};
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::types::{FPType, Type};
use llvm_ir::{Constant, Operand, TypeRef};

/// The most elements one intrinsic call is unrolled into.
const MAX_ELEMENTS: u64 = 1024;

pub(super) fn is_mem_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") || name.starts_with("llvm.memset.")
}

/// Whether a byte offset is a multiple of `unit` whatever its terms' values.
pub(super) fn divisible(off: &Lin, unit: u64) -> bool {
    off.konst.is_multiple_of(unit) && off.terms.iter().all(|t| t.1.is_multiple_of(unit))
}

impl<'m> Tr<'m> {
    pub(super) fn mem_intrinsic(&mut self, f: &Frame<'m>, c: &'m inst::Call, name: &str, loc: Option<Loc>) {
        let set = name.starts_with("llvm.memset.");
        let what = if set { "memset" } else { "memcpy" };
        let args: Vec<&Operand> = c.arguments.iter().map(|a| &a.0).collect();
        let Some((len, dst, src)) = self.mem_operands(f, &args, name, what, loc) else { return };
        if len == 0 {
            return;
        }
        let Some(w) = self.mem_element_width(f, &args, len, &dst, src.as_ref(), loc) else { return };
        let unit = u64::from(w / 8);
        let n = len / unit;
        if n > MAX_ELEMENTS {
            self.err(loc, format!("a {what} of more than {MAX_ELEMENTS} elements ({n})"));
            return;
        }
        for b in std::iter::once(dst.base).chain(src.as_ref().map(|s| s.base)) {
            self.objects.bases[b].width = Some(w);
        }
        match src {
            None => self.memset_elements(f, args[1], &dst, w, n, loc),
            Some(src) => {
                self.memcpy_elements(&src, &dst, w, n, loc);
                self.copy_pointers(&src, &dst, w, n, loc);
            }
        }
    }

    /// The constant length and the destination and source (none for a memset) of a memory
    /// intrinsic, each into one object; none after an error, or after the failing assertion of
    /// an access through the null pointer.
    fn mem_operands(
        &mut self,
        f: &Frame<'m>,
        args: &[&Operand],
        name: &str,
        what: &str,
        loc: Option<Loc>,
    ) -> Option<(u64, Ptr, Option<Ptr>)> {
        if args.len() < 3 {
            self.err(loc, format!("a call of `{name}` with too few arguments"));
            return None;
        }
        let Some(len) = int_constant(args[2]) else {
            self.err(loc, format!("a {what} whose length is not a constant"));
            return None;
        };
        let dst = self.operand(f, args[0], loc);
        let dst = self.ptr(dst, loc)?;
        let src = if what == "memset" {
            None
        } else {
            let s = self.operand(f, args[1], loc);
            Some(self.ptr(s, loc)?)
        };
        if dst.alt.is_some() || src.as_ref().is_some_and(|s| s.alt.is_some()) {
            self.err(loc, format!("a {what} through a pointer that may point into several memory objects"));
            return None;
        }
        if std::iter::once(&dst).chain(src.as_ref()).any(|p| self.objects.space_of(p.base).is_none()) {
            let a = self.null_assertion();
            self.body.emit(a, loc);
            return None;
        }
        if self.objects.bases[dst.base].space == Space::Constant {
            self.constant_write(&dst, loc);
            return None;
        }
        Some((len, dst, src))
    }

    /// The element width of a copy: the objects' own, else the pointed-to types', else the
    /// widest that divides the length and the offsets; none (after an error) when the objects
    /// disagree or the width does not divide the length and offsets.
    fn mem_element_width(
        &mut self,
        f: &Frame<'m>,
        args: &[&Operand],
        len: u64,
        dst: &Ptr,
        src: Option<&Ptr>,
        loc: Option<Loc>,
    ) -> Option<u32> {
        let what = if src.is_none() { "memset" } else { "memcpy" };
        let objects: Vec<usize> = std::iter::once(dst.base).chain(src.map(|s| s.base)).collect();
        let fits = |w: u32| {
            let unit = u64::from(w / 8);
            len.is_multiple_of(unit) && divisible(&dst.off, unit) && src.is_none_or(|s| divisible(&s.off, unit))
        };
        // A byte-level object is copied byte by byte (`bytes.rs`).
        let known: Vec<u32> = if objects.iter().any(|&b| self.objects.is_byte_level(b)) {
            vec![8]
        } else {
            objects.iter().filter_map(|&b| self.objects.bases[b].width).collect()
        };
        let w = if let Some(&w) = known.first() {
            if known.iter().any(|&k| k != w) {
                for &b in &objects {
                    self.objects.width_conflict(b);
                }
                let names: Vec<String> = objects.iter().map(|&b| self.objects.bases[b].name.clone()).collect();
                self.err(
                    loc,
                    format!(
                        "a {what} between memory objects with elements of different widths ({}: {} and {} bits; byte-level memory is issue 18)",
                        names.join(", "),
                        known[0],
                        known[1]
                    ),
                );
                return None;
            }
            w
        } else {
            let mut cands: Vec<u32> = Vec::new();
            cands.extend(self.pointee_width(f, args[0]));
            if src.is_some() {
                cands.extend(self.pointee_width(f, args[1]));
            }
            cands.extend([64, 32, 16, 8]);
            cands.into_iter().find(|&w| fits(w)).unwrap_or(8)
        };
        if !fits(w) {
            // The objects become byte-level on the next translation, where every copy fits.
            for &b in &objects {
                self.objects.width_conflict(b);
            }
            self.err(
                loc,
                format!(
                    "a {what} of {len} bytes whose length or offsets are not multiples of the {}-byte elements of the memory it accesses (byte-level memory is issue 18)",
                    w / 8
                ),
            );
            return None;
        }
        Some(w)
    }

    /// A memset of `n` elements of `w` bits: each written with the byte `value` repeated.
    fn memset_elements(&mut self, f: &Frame<'m>, value: &Operand, dst: &Ptr, w: u32, n: u64, loc: Option<Loc>) {
        let v = self.operand(f, value, loc);
        let Some(v) = self.scalar(v, loc) else { return };
        if v.ty.width() != 8 {
            self.err(loc, "a memset whose value is not a byte");
            return;
        }
        let bytes = w / 8;
        let value = int_constant(value).map(|value| {
            let b = value & 0xff;
            let rep = (0..bytes).fold(0u64, |acc, _| (acc << 8) | b);
            format!("{rep}bv{w}")
        });
        let value = value.unwrap_or_else(|| {
            let parts: Vec<&str> = (0..bytes).map(|_| v.text.as_str()).collect();
            if bytes == 1 {
                v.text.clone()
            } else {
                format!("({})", parts.join(" ++ "))
            }
        });
        let ty = Ty::Bv(w);
        for k in 0..n {
            let at = element(dst, k, w);
            let Some(place) = self.access(&at, ty, loc) else { return };
            let clear = self.clear_pointers(&at, w);
            self.body.emit(format!("{place} := {value};{clear}"), loc);
        }
    }

    /// A memcpy of `n` elements of `w` bits. Into the same object, every element is read
    /// before any is written (memmove's meaning, which is memcpy's where memcpy is defined).
    fn memcpy_elements(&mut self, src: &Ptr, dst: &Ptr, w: u32, n: u64, loc: Option<Loc>) {
        let ty = Ty::Bv(w);
        let same = src.base == dst.base;
        let mut temps = Vec::new();
        let mut tmp = None;
        for k in 0..n {
            let Some(from) = self.access(&element(src, k, w), ty, loc) else { return };
            let t = match (&tmp, same) {
                (Some(t), false) => String::clone(t),
                _ => self.body.fresh_var("copy", &ty.kbpl()),
            };
            tmp = Some(t.clone());
            self.body.emit(format!("{t} := {from};"), loc);
            if same {
                temps.push(t);
            } else {
                let Some(to) = self.access(&element(dst, k, w), ty, loc) else { return };
                self.body.emit(format!("{to} := {t};"), loc);
            }
        }
        for (k, t) in temps.iter().enumerate() {
            let Some(to) = self.access(&element(dst, k as u64, w), ty, loc) else { return };
            self.body.emit(format!("{to} := {t};"), loc);
        }
    }

    /// The width of the scalars of the type a pointer operand points to, looking through
    /// pointer casts (`bitcast %struct.S* %p to i8*`): the common width of every scalar in it,
    /// or none when they differ. LLVM 14's typed pointers: this changes with opaque pointers.
    fn pointee_width(&self, f: &Frame<'m>, op: &Operand) -> Option<u32> {
        let mut cur: Operand = op.clone();
        for _ in 0..16 {
            let next = match &cur {
                Operand::LocalOperand { name, .. } => match f.defs.get(name) {
                    Some((Instruction::BitCast(c), _)) => Some(c.operand.clone()),
                    Some((Instruction::AddrSpaceCast(c), _)) => Some(c.operand.clone()),
                    _ => None,
                },
                Operand::ConstantOperand(k) => match k.as_ref() {
                    Constant::BitCast(c) => Some(Operand::ConstantOperand(c.operand.clone())),
                    Constant::AddrSpaceCast(c) => Some(Operand::ConstantOperand(c.operand.clone())),
                    _ => None,
                },
                Operand::MetadataOperand => return None,
            };
            match next {
                Some(n) => cur = n,
                None => break,
            }
        }
        match self.module.type_of(&cur).as_ref() {
            Type::PointerType { pointee_type, .. } => self.leaf_width(pointee_type, 0),
            _ => None,
        }
    }

    fn leaf_width(&self, ty: &TypeRef, depth: usize) -> Option<u32> {
        if depth > 16 {
            return None;
        }
        match ty.as_ref() {
            Type::IntegerType { bits } if matches!(bits, 8 | 16 | 32 | 64) => Some(*bits),
            Type::FPType(FPType::Half) => Some(16),
            Type::FPType(FPType::Single) => Some(32),
            Type::FPType(FPType::Double) => Some(64),
            Type::PointerType { .. } => Some(layout::POINTER_BYTES as u32 * 8),
            Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                self.leaf_width(element_type, depth + 1)
            }
            Type::StructType { element_types, .. } => {
                let mut ws = element_types.iter().map(|t| self.leaf_width(t, depth + 1));
                let first = ws.next()??;
                ws.all(|w| w == Some(first)).then_some(first)
            }
            Type::NamedStructType { name } => match self.module.types.named_struct_def(name) {
                Some(llvm_ir::types::NamedStructDef::Defined(t)) => self.leaf_width(t, depth + 1),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The `k`th element of `w` bits from `p`.
fn element(p: &Ptr, k: u64, w: u32) -> Ptr {
    Ptr::to(p.base, p.off.clone().plus(&Lin::constant(k * u64::from(w / 8))))
}

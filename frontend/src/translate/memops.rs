//! `llvm.memcpy.*`, `llvm.memmove.*` and `llvm.memset.*` with a constant length (struct
//! assignments, aggregate initialisers, `__builtin_memcpy`): element-wise reads and writes of
//! the memory maps, so that every copied element is a real access that races are checked on.
//!
//! The element width is the width the objects' other accesses agree on; when neither object
//! has one yet, the width of the pointed-to types' scalars (a struct of shorts: 16 bits), else
//! the widest of 8, 4, 2, 1 bytes that divides the length and both byte offsets. The copy is
//! byte-exact whatever the width (both maps hold the same bytes in units of that width), and a
//! later access of another width to either object is the usual located `unsupported`. A
//! length, offset or known width that does not fit, a non-constant length, a pointer into
//! several objects or a copy of more than [`MAX_ELEMENTS`] elements is `unsupported`.

use super::*;

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
        if args.len() < 3 {
            self.err(loc, format!("a call of `{name}` with too few arguments"));
            return;
        }
        let Some(len) = int_constant(args[2]) else {
            self.err(loc, format!("a {what} whose length is not a constant"));
            return;
        };
        let dst = self.operand(f, args[0], loc);
        let Some(dst) = self.ptr(dst, loc) else { return };
        let src = if set {
            None
        } else {
            let s = self.operand(f, args[1], loc);
            let Some(s) = self.ptr(s, loc) else { return };
            Some(s)
        };
        if dst.alt.is_some() || src.as_ref().is_some_and(|s| s.alt.is_some()) {
            self.err(loc, format!("a {what} through a pointer that may point into several memory objects"));
            return;
        }
        if std::iter::once(&dst).chain(src.as_ref()).any(|p| self.space_of(p.base).is_none()) {
            let a = self.null_assertion();
            self.emit(a, loc);
            return;
        }
        if self.bases[dst.base].space == Space::Constant {
            self.err(loc, "a write to constant memory");
            return;
        }
        if len == 0 {
            return;
        }
        // The element width: the objects' own, else the pointed-to types', else the widest
        // that divides the length and the offsets.
        let objects: Vec<usize> = std::iter::once(dst.base).chain(src.as_ref().map(|s| s.base)).collect();
        let fits = |w: u32| {
            let unit = u64::from(w / 8);
            len.is_multiple_of(unit)
                && divisible(&dst.off, unit)
                && src.as_ref().is_none_or(|s| divisible(&s.off, unit))
        };
        let known: Vec<u32> = objects.iter().filter_map(|&b| self.bases[b].width).collect();
        let w = if let Some(&w) = known.first() {
            if known.iter().any(|&k| k != w) {
                let names: Vec<String> = objects.iter().map(|&b| self.bases[b].name.clone()).collect();
                self.err(
                    loc,
                    format!(
                        "a {what} between memory objects with elements of different widths ({}: {} and {} bits; byte-level memory is issue 18)",
                        names.join(", "),
                        known[0],
                        known[1]
                    ),
                );
                return;
            }
            w
        } else {
            let mut cands: Vec<u32> = Vec::new();
            cands.extend(self.pointee_width(f, args[0]));
            if !set {
                cands.extend(self.pointee_width(f, args[1]));
            }
            cands.extend([64, 32, 16, 8]);
            cands.into_iter().find(|&w| fits(w)).unwrap_or(8)
        };
        if !fits(w) {
            self.err(
                loc,
                format!(
                    "a {what} of {len} bytes whose length or offsets are not multiples of the {}-byte elements of the memory it accesses (byte-level memory is issue 18)",
                    w / 8
                ),
            );
            return;
        }
        let unit = u64::from(w / 8);
        let n = len / unit;
        if n > MAX_ELEMENTS {
            self.err(loc, format!("a {what} of more than {MAX_ELEMENTS} elements ({n})"));
            return;
        }
        for &b in &objects {
            self.bases[b].width = Some(w);
        }
        let ty = Ty::Bv(w);
        let at = |p: &Ptr, k: u64| Ptr::to(p.base, p.off.clone().plus(&Lin::constant(k * unit)));
        match src {
            None => {
                let v = self.operand(f, args[1], loc);
                let Some(v) = self.scalar(v, loc) else { return };
                if v.ty.width() != 8 {
                    self.err(loc, "a memset whose value is not a byte");
                    return;
                }
                let bytes = w / 8;
                let value = int_constant(args[1]).map(|value| {
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
                for k in 0..n {
                    let Some(place) = self.access(&at(&dst, k), ty, loc) else { return };
                    self.emit(format!("{place} := {value};"), loc);
                }
            }
            Some(src) => {
                // Into the same object: every element is read before any is written (memmove's
                // meaning, which is memcpy's where memcpy is defined).
                let same = src.base == dst.base;
                let mut temps = Vec::new();
                let mut tmp = None;
                for k in 0..n {
                    let Some(from) = self.access(&at(&src, k), ty, loc) else { return };
                    let t = match (&tmp, same) {
                        (Some(t), false) => String::clone(t),
                        _ => self.fresh_var("copy", &ty.kbpl()),
                    };
                    tmp = Some(t.clone());
                    self.emit(format!("{t} := {from};"), loc);
                    if same {
                        temps.push(t);
                    } else {
                        let Some(to) = self.access(&at(&dst, k), ty, loc) else { return };
                        self.emit(format!("{to} := {t};"), loc);
                    }
                }
                for (k, t) in temps.iter().enumerate() {
                    let Some(to) = self.access(&at(&dst, k as u64), ty, loc) else { return };
                    self.emit(format!("{to} := {t};"), loc);
                }
            }
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

//! Memory accesses: address computations (GEP) as linear byte offsets, loads and stores as
//! reads and writes of the objects' maps at an element index, the checks an access carries
//! (alignment, `--check-array-bounds`, constant memory), and the case split of an access
//! through a pointer into one of several objects.
//!
//! Apart from the other instruction families because every access, whichever instruction or
//! built-in makes it, goes through [`Tr::access`] and [`Tr::on_each_object`] here: the width
//! agreement of an object's accesses and its checks are decided in one place.

use super::frame::Frame;
use super::values::{is_pointer, loaded_type, memory_scalar_ty, vector_shape, Ex, Ty, Val};
use super::{memops, Tr};
use crate::memory::{Lin, Ptr, Space};
use crate::{layout, Loc};
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::types::Type;
use llvm_ir::{Constant, Operand, TypeRef};

impl<'m> Tr<'m> {
    /// An access at an offset that is not a multiple of its width would straddle two elements
    /// of the map (memory is not modelled byte by byte; the element index rounds down): where
    /// the offset is not evidently aligned, an assertion says it is (a misaligned access is
    /// undefined in C and faults on GPUs).
    pub(super) fn alignment_check(&mut self, p: &Ptr, unit: u64, loc: Option<Loc>) {
        if unit <= 1 || memops::divisible(&p.off, unit) {
            return;
        }
        let off = p.off.expr(&mut self.decls.needs_fn());
        let urem = self.decls.bvop("UREM", 32);
        self.body.emit(
            format!(
                "assert {{:msg \"possible misaligned access: the byte offset may not be a multiple of {unit}\"}} \
                 {urem}({off}, {unit}bv32) == 0bv32;"
            ),
            loc,
        );
    }

    /// `--check-array-bounds`: the `bytes` accessed at `p` lie inside its object, where the
    /// object's size is known (GPUVerify's check and message). The offset is unsigned, so a
    /// negative index wraps around and fails too.
    fn bounds_check(&mut self, p: &Ptr, bytes: u32, loc: Option<Loc>) {
        let Some(size) = self.objects.bases[p.base].size else { return };
        // The source name: `$$k.tile` is kernel k's `tile`, `$$p.c1.x` an inlined private `x`.
        let full = &self.objects.bases[p.base].name;
        let name = full.split('.').rev().find(|s| s.parse::<u64>().is_err()).unwrap_or(full).trim_start_matches("$$");
        let name = name.to_string();
        let last = size.checked_sub(u64::from(bytes));
        let cond = match last {
            Some(last) => {
                let off = p.off.expr(&mut self.decls.needs_fn());
                let ule = self.decls.bvop("ULE", 32);
                format!("{ule}({off}, {last}bv32)")
            }
            None => "false".into(),
        };
        self.body.emit(format!("assert {{:msg \"possible array out-of-bounds access on array {name}\"}} {cond};"), loc);
    }

    pub(super) fn gep(
        &mut self,
        f: &Frame<'m>,
        base: Ptr,
        indices: &[Operand],
        src: &TypeRef,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ptr> {
        let types = &self.module.types;
        let mut off = base.off;
        let mut ty = src.clone();
        for (k, idx) in indices.iter().enumerate() {
            let (size, next) = if k == 0 {
                (layout::size_align(&ty, types)?.0, ty.clone())
            } else {
                match ty.as_ref() {
                    Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                        (layout::size_align(element_type, types)?.0, element_type.clone())
                    }
                    Type::StructType { .. } | Type::NamedStructType { .. } => {
                        let Operand::ConstantOperand(c) = idx else { return None };
                        let Constant::Int { value, .. } = c.as_ref() else { return None };
                        let Some((field_off, fty)) = layout::field(&ty, *value as usize, types) else {
                            self.err(loc, "a struct whose layout is unknown");
                            return None;
                        };
                        off = off.plus(&Lin::constant(field_off));
                        ty = fty;
                        continue;
                    }
                    _ => {
                        self.err(loc, "an unsupported address computation");
                        return None;
                    }
                }
            };
            let konst = match idx {
                Operand::ConstantOperand(c) => match c.as_ref() {
                    Constant::Int { value, bits } => Some((*value, *bits)),
                    _ => None,
                },
                _ => None,
            };
            match konst {
                Some((value, bits)) => {
                    // Sign-extend the constant to 64 bits, then wrap at 32.
                    let neg = bits > 0 && bits < 64 && (value >> (bits - 1)) & 1 == 1;
                    let v = if neg { value | (!0u64 << bits) } else { value };
                    off = off.plus(&Lin::constant(v.wrapping_mul(size)));
                }
                None => {
                    let v = self.arg(f, idx, spec, loc);
                    let e = self.scalar(v, loc)?;
                    let e = self.index32(&e);
                    off = off.plus(&Lin::term(e, size));
                }
            }
            ty = next;
        }
        Some(Ptr { base: base.base, off, alt: base.alt })
    }

    /// The element index of an access of `bytes` bytes through `p`; the object's element
    /// width must agree with the access.
    pub(super) fn access(&mut self, p: &Ptr, ty: Ty, loc: Option<Loc>) -> Option<String> {
        if p.alt.is_some() {
            self.err(loc, "an access in a specification through a pointer into several memory objects");
            return None;
        }
        if self.objects.space_of(p.base).is_none() {
            return Some(self.null_access(ty, loc));
        }
        if ty == Ty::Bool || !ty.width().is_multiple_of(8) {
            self.err(loc, "an access to memory of a type narrower than a byte");
            return None;
        }
        let w = ty.width();
        // Memory read inside a specification is not an access of the program.
        if !self.clauses.in_spec() {
            if self.facts.check_bounds {
                self.bounds_check(p, w / 8, loc);
            }
            self.alignment_check(p, u64::from(w / 8), loc);
        }
        if self.objects.is_byte_level(p.base) {
            self.objects.bases[p.base].width = Some(8);
            return Some(self.byte_read(p, w));
        }
        let base = &mut self.objects.bases[p.base];
        match base.width {
            None => base.width = Some(w),
            Some(bw) if bw != w => {
                let name = base.name.clone();
                self.objects.width_conflict(p.base);
                self.err(loc, format!("accesses of different widths ({bw} and {w} bits) to `{name}`"));
                return None;
            }
            _ => {}
        }
        let name = self.objects.bases[p.base].name.clone();
        let idx = p.off.index(u64::from(w / 8), &mut self.decls.needs_fn());
        Some(format!("{name}[{idx}]"))
    }

    /// Where a store writes: a pointer into writable memory, or a located error (`volatile`
    /// changes nothing for races and divergence; LLVM's atomic stores are not translated).
    pub(super) fn store_target(&mut self, f: &Frame<'m>, s: &inst::Store, loc: Option<Loc>) -> Option<Ptr> {
        if s.atomicity.is_some() {
            self.err(loc, "an atomic store");
            return None;
        }
        let p = self.operand(f, &s.address, loc);
        let p = self.ptr(p, loc)?;
        if p.cands().iter().any(|&c| self.objects.space_of(c) == Some(Space::Constant)) {
            self.constant_write(&p, loc);
            return None;
        }
        Some(p)
    }

    /// A write through a pointer into constant memory: GPUVerify's error, a failing assertion
    /// at the write (the write itself is left out); a pointer that may also point into
    /// writable memory is `unsupported`.
    pub(super) fn constant_write(&mut self, p: &Ptr, loc: Option<Loc>) {
        if p.cands().iter().all(|&c| matches!(self.objects.space_of(c), None | Some(Space::Constant))) {
            self.body.emit(format!("assert {{:msg \"{CONSTANT_WRITE}\"}} false;"), loc);
        } else {
            self.err(loc, "a write through a pointer that may point into constant or other memory");
        }
    }

    pub(super) fn store(&mut self, f: &Frame<'m>, s: &inst::Store, loc: Option<Loc>) {
        let Some(p) = self.store_target(f, s, loc) else { return };
        let v = self.operand(f, &s.value, loc);
        if let Some(Val::Ptr(q)) = &v {
            self.store_pointer(&p, q, loc);
            return;
        }
        let Some(v) = self.scalar(v, loc) else { return };
        self.on_each_object(&p, loc, |tr, q| tr.write(q, v.ty, &v.text, loc));
    }

    /// Whether an address may point into several memory objects.
    pub(super) fn points_into_several(&mut self, f: &Frame<'m>, address: &Operand, loc: Option<Loc>) -> bool {
        matches!(self.operand(f, address, loc), Some(Val::Ptr(Ptr { alt: Some(_), .. })))
    }

    /// A load through a pointer into one of several objects: one branch per object.
    pub(super) fn load_from_several(&mut self, f: &mut Frame<'m>, l: &'m inst::Load, loc: Option<Loc>) {
        if l.atomicity.is_some() {
            self.err(loc, "an atomic load");
            return;
        }
        let lt = loaded_type(self.module, l);
        if vector_shape(&lt).is_some() {
            self.vector_load_from_several(f, l, &lt, loc);
            return;
        }
        let Some(t) = memory_scalar_ty(&lt) else {
            self.err(loc, "a load of a pointer, an aggregate or a vector");
            return;
        };
        let p = self.operand(f, &l.address, loc);
        let Some(p) = self.ptr(p, loc) else { return };
        let v = f.var(&l.dest);
        self.body.declare(v.clone(), t.kbpl());
        f.vals.insert(l.dest.clone(), Val::Scalar(Ex::new(v.clone(), t)));
        self.on_each_object(&p, loc, |tr, q| tr.access(q, t, loc).map(|place| format!("{v} := {place};")));
    }

    /// A non-atomic load of a scalar.
    pub(super) fn load_value(
        &mut self,
        f: &Frame<'m>,
        l: &'m inst::Load,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        if l.atomicity.is_some() {
            self.err(loc, "an atomic load");
            return None;
        }
        let lt = loaded_type(self.module, l);
        let Some(t) = memory_scalar_ty(&lt) else {
            let what =
                if is_pointer(&lt) { "a pointer loaded from memory" } else { "a load of an aggregate or vector" };
            self.err(loc, what);
            return None;
        };
        let p = self.arg(f, &l.address, spec, loc);
        let p = self.ptr(p, loc)?;
        Some(Ex::new(self.access(&p, t, loc)?, t))
    }

    /// Emits the statement `stmt` makes for each object `p` may point into, each on a
    /// branch that assumes `p` points there.
    pub(super) fn on_each_object(
        &mut self,
        p: &Ptr,
        loc: Option<Loc>,
        mut stmt: impl FnMut(&mut Self, &Ptr) -> Option<String>,
    ) {
        let Some(alt) = p.alt.clone() else {
            if let Some(s) = stmt(self, p) {
                self.body.emit(s, loc);
            }
            return;
        };
        let k = self.body.next_number();
        let join = format!("{}$join{k}", self.body.current_label());
        let mut labels = Vec::new();
        // The null branch is taken for any selector that names none of the objects (a pointer
        // loaded from memory may hold anything, `pointers.rs`).
        let real: Vec<String> = alt
            .cands
            .iter()
            .filter(|&&c| self.objects.space_of(c).is_some())
            .map(|c| format!("{} != {c}bv32", alt.sel))
            .collect();
        for (j, &c) in alt.cands.iter().enumerate() {
            let q = Ptr::to(c, p.off.clone());
            let s = if self.objects.space_of(c).is_none() { Some(self.null_assertion()) } else { stmt(self, &q) };
            let Some(s) = s else { return };
            let label = format!("{join}$obj{j}");
            let guard = match self.objects.space_of(c) {
                Some(_) => format!("{} == {c}bv32", alt.sel),
                None if real.is_empty() => "true".into(),
                None => real.join(" && "),
            };
            let stmts = vec![(format!("assume {guard};"), loc), (s, loc), (format!("goto {join};"), loc)];
            self.body.add_edge_block(label.clone(), stmts);
            labels.push(label);
        }
        self.body.emit(format!("goto {};", labels.join(", ")), loc);
        self.body.start_block(join);
    }

    /// The memory objects a pointer operand may point into, found without translating it:
    /// through casts, GEPs, phi nodes and selects (a bounded search).
    pub(super) fn static_objects(
        &mut self,
        f: &Frame<'m>,
        op: &Operand,
        depth: usize,
        loc: Option<Loc>,
    ) -> Option<Vec<usize>> {
        if depth > 32 {
            return None;
        }
        match op {
            Operand::LocalOperand { name, .. } => {
                if let Some(Val::Ptr(p)) = f.vals.get(name) {
                    return Some(p.cands());
                }
                let (i, _) = *f.defs.get(name)?;
                let ops: Vec<&Operand> = match i {
                    Instruction::GetElementPtr(g) => vec![&g.address],
                    Instruction::BitCast(c) => vec![&c.operand],
                    Instruction::AddrSpaceCast(c) => vec![&c.operand],
                    Instruction::Select(s) => vec![&s.true_value, &s.false_value],
                    Instruction::Phi(p) => p.incoming_values.iter().map(|v| &v.0).collect(),
                    Instruction::Load(l) if self.loads_pointer(l) => {
                        let objects = self.static_objects(f, &l.address, depth + 1, loc)?;
                        return Some(self.loaded_cands(&objects));
                    }
                    _ => return None,
                };
                let mut out = Vec::new();
                for o in ops {
                    // A phi's own back edge adds nothing.
                    if matches!(o, Operand::LocalOperand { name: n, .. } if n == name) {
                        continue;
                    }
                    for c in self.static_objects(f, o, depth + 1, loc)? {
                        if !out.contains(&c) {
                            out.push(c);
                        }
                    }
                }
                Some(out)
            }
            Operand::ConstantOperand(_) => match self.operand(f, op, loc) {
                Some(Val::Ptr(p)) => Some(p.cands()),
                _ => None,
            },
            Operand::MetadataOperand => None,
        }
    }
}

/// The message of the assertion that a write to constant memory becomes (GPUVerify's wording).
pub(super) const CONSTANT_WRITE: &str = "possible attempt to modify constant memory";

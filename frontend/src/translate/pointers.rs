//! Pointers stored in memory (a pointer in a struct, in a private array of pointers, in a
//! `__shared__` variable, in a by-value struct parameter), in GPUVerify's model: a pointer is a
//! base object and an offset, and a memory cell that holds a pointer holds both.
//!
//! - A memory object that holds pointers gets a *companion map* `X$base` next to its map `X`:
//!   where `X` holds a pointer's byte offset, `X$base` holds the number of the object it points
//!   into (the selector of [`crate::memory::Alt`]). Storing a pointer writes both; storing a
//!   number (or copying, setting, an atomic) writes the companion with the null object, so a
//!   number read back as a pointer is never mistaken for one. A byte-level object (`bytes.rs`)
//!   has the selector in each of the pointer's four bytes; a load takes it only when all four
//!   agree.
//! - A pointer loaded from memory may point into any object whose pointers the kernel stores
//!   into that memory (a flow-insensitive points-to set, found by translating the module
//!   again until it no longer grows, [`PtrFacts`]), and into none: an access through it is a
//!   case split over those objects, as Bugle's over the arrays of the right space, and the last
//!   branch, where the selector names none of them (the null pointer, memory written by the
//!   host, a pointer the analysis did not see), is a failing assertion (GPUVerify's
//!   `bad_pointer_access`, `null.rs`). The analysis only decides which branches are real cases,
//!   so its imprecision can cost a false alarm, never a missed error.
//! - A pointer field of a by-value struct kernel parameter (`struct s { int *p; }`, CUDA's
//!   `__global__ void k(s q)`) points, as a pointer parameter does, to a fresh object of its
//!   address space (`$$q$f16` for the pointer at byte 16 of `q`), or to one of the kernel's
//!   pointer parameters of that space (so `__requires(q.p == p)` is a real case), at offset 0:
//!   the parameter's map gets those pointers at the kernel's entry. GPUVerify makes such an
//!   array only for fields the kernel reads; so does kivl (the fields a pointer load reads).

use super::frame::Frame;
use super::values::{is_event, is_pointer, loaded_type, Ty, Val};
use super::Tr;
use crate::memory::{Alt, Lin, Ptr, Space, NULL_OBJECT};
use crate::{layout, Loc};
use llvm_ir::instruction as inst;
use llvm_ir::types::Type;
use llvm_ir::TypeRef;
use std::collections::{BTreeMap, BTreeSet};

/// The most pointer fields of one by-value struct parameter that the front end looks at.
const MAX_FIELDS: usize = 256;

/// What one translation learnt about pointers in memory, by object name; the module is
/// translated again until a translation learns nothing new (`translate_module`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PtrFacts {
    /// The objects that hold pointers (stored into them or loaded from them), each with the
    /// objects that the pointers stored there may point into.
    contents: BTreeMap<String, BTreeSet<String>>,
    /// Pointer fields of by-value struct parameters that are loaded: `NAME@OFFSET`, or `NAME@*`
    /// for a load at an offset that is not a constant.
    loaded_fields: BTreeSet<String>,
}

impl PtrFacts {
    /// Adds `other`'s facts to these; whether any was new.
    pub(super) fn absorb(&mut self, other: PtrFacts) -> bool {
        let mut grew = false;
        for (k, v) in other.contents {
            match self.contents.get_mut(&k) {
                None => {
                    self.contents.insert(k, v);
                    grew = true;
                }
                Some(e) => {
                    let before = e.len();
                    e.extend(v);
                    grew |= e.len() != before;
                }
            }
        }
        for f in other.loaded_fields {
            grew |= self.loaded_fields.insert(f);
        }
        grew
    }

    /// Whether the object named `name` holds pointers.
    pub(super) fn holds(&self, name: &str) -> bool {
        self.contents.contains_key(name)
    }
}

/// The companion map of the object map `name` (see the module documentation).
pub(super) fn companion(name: &str) -> String {
    format!("{name}$base")
}

impl<'m> Tr<'m> {
    /// Whether `l` loads a pointer (not an `event_t`, which is a number, `async_copy.rs`).
    pub(super) fn loads_pointer(&self, l: &inst::Load) -> bool {
        let t = loaded_type(self.module, l);
        is_pointer(&t) && !is_event(&t)
    }

    /// The companion places of a `w`-bit access at `p`: one per map entry it covers.
    fn companion_places(&mut self, p: &Ptr, w: u32) -> Vec<String> {
        let name = companion(&self.objects.bases[p.base].name);
        if self.objects.is_byte_level(p.base) {
            (0..u64::from(w / 8))
                .map(|j| {
                    let off = p.off.clone().plus(&Lin::constant(j));
                    format!("{name}[{}]", off.index(1, &mut self.decls.needs_fn()))
                })
                .collect()
        } else {
            vec![format!("{name}[{}]", p.off.index(u64::from(w / 8), &mut self.decls.needs_fn()))]
        }
    }

    /// The statements (each with a leading space) that follow a write of a number of `w`
    /// bits at `p`: no pointer is there any more.
    pub(super) fn clear_pointers(&mut self, p: &Ptr, w: u32) -> String {
        if !self.objects.holds_pointers(p.base) {
            return String::new();
        }
        self.companion_places(p, w).into_iter().map(|pl| format!(" {pl} := {NULL_OBJECT}bv32;")).collect()
    }

    /// The selector of the pointer stored at `p` (a 32-bit access).
    fn companion_read(&mut self, p: &Ptr) -> String {
        if !self.objects.holds_pointers(p.base) {
            return format!("{NULL_OBJECT}bv32");
        }
        let places = self.companion_places(p, 32);
        match places.split_first() {
            Some((first, rest)) if !rest.is_empty() => {
                let same: Vec<String> = rest.iter().map(|r| format!("{first} == {r}")).collect();
                format!("(if {} then {first} else {NULL_OBJECT}bv32)", same.join(" && "))
            }
            _ => places.into_iter().next().unwrap_or_else(|| format!("{NULL_OBJECT}bv32")),
        }
    }

    fn note_holds(&mut self, b: usize) -> &mut BTreeSet<String> {
        let name = self.objects.bases[b].name.clone();
        self.objects.ptr_found.contents.entry(name).or_default()
    }

    /// A store of the pointer `q` at `p`.
    pub(super) fn store_pointer(&mut self, p: &Ptr, q: &Ptr, loc: Option<Loc>) {
        let names: Vec<String> = q.cands().into_iter().filter_map(|c| self.object_name(c)).collect();
        let off = q.off.expr(&mut self.decls.needs_fn());
        let sel = q.sel();
        self.on_each_object(p, loc, |tr, o| {
            if tr.objects.space_of(o.base).is_some() {
                tr.note_holds(o.base).extend(names.iter().cloned());
            }
            let mut s = tr.write_number(o, Ty::Bv(32), &off, loc)?;
            if tr.objects.holds_pointers(o.base) {
                for pl in tr.companion_places(o, 32) {
                    s.push_str(&format!(" {pl} := {sel};"));
                }
            }
            Some(s)
        });
    }

    /// The objects a pointer loaded through `p` may point into, the null object (any pointer
    /// the kernel did not store there) last; records that `p`'s objects hold pointers.
    fn note_pointer_load(&mut self, p: &Ptr) -> Vec<usize> {
        let objects: Vec<usize> = p.cands().into_iter().filter(|&o| self.objects.space_of(o).is_some()).collect();
        for o in objects {
            self.note_holds(o);
            if self.objects.is_byval(o) {
                let at = if p.off.terms.is_empty() { p.off.konst.to_string() } else { "*".into() };
                let key = format!("{}@{at}", self.objects.bases[o].name);
                self.objects.ptr_found.loaded_fields.insert(key);
            }
        }
        self.loaded_cands(&p.cands())
    }

    /// The objects the pointers held by `objects` may point into, null last.
    pub(super) fn loaded_cands(&self, objects: &[usize]) -> Vec<usize> {
        let mut out = Vec::new();
        for &o in objects.iter().filter(|&&o| self.objects.space_of(o).is_some()) {
            for n in self.objects.ptr_known.contents.get(&self.objects.bases[o].name).into_iter().flatten() {
                if let Some(b) = self.object_named(n) {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
        }
        out.push(NULL_OBJECT);
        out
    }

    fn object_named(&self, n: &str) -> Option<usize> {
        self.function_named(n).or_else(|| self.objects.global(n)).or_else(|| self.objects.last_named(n))
    }

    /// The offset and selector places of the pointer stored at `p` in one object.
    fn pointer_place(&mut self, p: &Ptr, loc: Option<Loc>) -> Option<(String, String)> {
        let place = self.access(p, Ty::Bv(32), loc)?;
        let sel =
            if self.objects.space_of(p.base).is_none() { format!("{NULL_OBJECT}bv32") } else { self.companion_read(p) };
        Some((place, sel))
    }

    /// A load of a pointer as a statement: the offset and selector in variables.
    pub(super) fn load_pointer(&mut self, f: &mut Frame<'m>, l: &'m inst::Load, loc: Option<Loc>) {
        if l.atomicity.is_some() {
            self.err(loc, "an atomic load");
            return;
        }
        let p = self.operand(f, &l.address, loc);
        let Some(p) = self.ptr(p, loc) else { return };
        let v = f.var(&l.dest);
        let (off, sel) = (format!("{v}.off"), format!("{v}.obj"));
        self.body.declare(off.clone(), "bv32".into());
        self.body.declare(sel.clone(), "bv32".into());
        let cands = self.note_pointer_load(&p);
        self.on_each_object(&p, loc, |tr, o| {
            let (place, s) = tr.pointer_place(o, loc)?;
            Some(format!("{off} := {place}; {sel} := {s};"))
        });
        let base = cands[0];
        f.vals.insert(l.dest.clone(), Val::Ptr(Ptr { base, off: Lin::term(off, 1), alt: Some(Alt { sel, cands }) }));
    }

    /// A load of a pointer folded into a specification: the places as expressions.
    pub(super) fn load_pointer_value(
        &mut self,
        f: &Frame<'m>,
        l: &'m inst::Load,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        let p = self.arg(f, &l.address, spec, loc);
        let p = self.ptr(p, loc)?;
        if p.alt.is_some() {
            self.err(loc, "a pointer loaded in a specification through a pointer into several memory objects");
            return None;
        }
        let cands = self.note_pointer_load(&p);
        let (place, sel) = self.pointer_place(&p, loc)?;
        Some(Val::Ptr(Ptr { base: cands[0], off: Lin::term(place, 1), alt: Some(Alt { sel, cands }) }))
    }

    /// Copies the companions of `n` elements of `w` bits from `src` to `dst` (a memcpy), all
    /// read before any is written; the destination holds what the source holds.
    pub(super) fn copy_pointers(&mut self, src: &Ptr, dst: &Ptr, w: u32, n: u64, loc: Option<Loc>) {
        if self.objects.ptr_known.holds(&self.objects.bases[src.base].name) {
            let held =
                self.objects.ptr_known.contents.get(&self.objects.bases[src.base].name).cloned().unwrap_or_default();
            self.note_holds(dst.base).extend(held);
        }
        if !self.objects.holds_pointers(dst.base) {
            return;
        }
        let unit = u64::from(w / 8);
        let mut temps = Vec::new();
        for k in 0..n {
            let at = |p: &Ptr| Ptr::to(p.base, p.off.clone().plus(&Lin::constant(k * unit)));
            let from = if self.objects.holds_pointers(src.base) {
                self.companion_places(&at(src), w)
            } else {
                vec![format!("{NULL_OBJECT}bv32"); self.companion_places(&at(dst), w).len()]
            };
            for fr in from {
                let t = self.body.fresh_var("copy", "bv32");
                self.body.emit(format!("{t} := {fr};"), loc);
                temps.push(t);
            }
        }
        let mut temps = temps.into_iter();
        for k in 0..n {
            let to = Ptr::to(dst.base, dst.off.clone().plus(&Lin::constant(k * unit)));
            for pl in self.companion_places(&to, w) {
                if let Some(t) = temps.next() {
                    self.body.emit(format!("{pl} := {t};"), loc);
                }
            }
        }
    }

    /// The companions to havoc with the private objects `maps` (a bodiless call may store
    /// any pointer there).
    pub(super) fn companions_of(&self, maps: &[String]) -> Vec<String> {
        maps.iter().filter(|m| self.objects.ptr_known.holds(m)).map(|m| companion(m)).collect()
    }

    /// A block `$entry` before the kernel's first block that stores the pointers its by-value
    /// struct parameters (`byvals`: object, name, type) hold; none when they hold none.
    pub(super) fn entry_block(
        &mut self,
        f: &Frame<'m>,
        byvals: &[(usize, String, TypeRef)],
        params: &[usize],
        loc: Option<Loc>,
    ) {
        if byvals.is_empty() {
            return;
        }
        self.body.start_block("$entry".into());
        for (b, name, ty) in byvals {
            // The host passes one value to every thread: the copies are equal at entry (issue
            // 41: without this, a field read as an index differed between threads).
            if !self.facts.uncalled {
                let m = self.objects.bases[*b].name.clone();
                self.body.emit(format!("assume {m} == __other({m});"), loc);
            }
            self.byval_pointers(*b, name, ty, params, loc);
        }
        if self.body.drop_empty_block() {
            return;
        }
        if let Some(first) = f.func.basic_blocks.first() {
            let l = f.label(&first.name);
            self.body.emit(format!("goto {l};"), loc);
        }
    }

    /// The pointers a by-value struct parameter (object `b`, named `$$NAME`, of type `ty`)
    /// holds at the kernel's entry, for the fields the kernel loads (see the module
    /// documentation): stored by the entry block `$entry`. `params` are the kernel's pointer
    /// parameters.
    fn byval_pointers(&mut self, b: usize, pname: &str, ty: &TypeRef, params: &[usize], loc: Option<Loc>) {
        let mut fields = Vec::new();
        pointer_fields(ty, &self.module.types, 0, &mut fields, 0);
        let name = self.objects.bases[b].name.clone();
        for (off, space) in fields {
            let loaded = |k: &str| self.objects.ptr_known.loaded_fields.contains(&format!("{name}@{k}"));
            if !loaded(&off.to_string()) && !loaded("*") {
                continue;
            }
            let fresh = self.objects.param_base(&format!("{pname}$f{off}"), space);
            let mut cands = vec![fresh];
            cands.extend(params.iter().copied().filter(|&p| self.objects.bases[p].space == space));
            let sel = self.body.fresh_var("field", "bv32");
            let choice: Vec<String> = cands.iter().map(|c| format!("{sel} == {c}bv32")).collect();
            self.body.emit(format!("assume {};", choice.join(" || ")), loc);
            let q = Ptr { base: fresh, off: Lin::default(), alt: Some(Alt { sel, cands }) };
            self.store_pointer(&Ptr::to(b, Lin::constant(off)), &q, loc);
        }
    }
}

/// The byte offsets of the data pointers in a value of type `ty` placed at byte `at`, with
/// the memory space each points into.
fn pointer_fields(ty: &TypeRef, types: &llvm_ir::types::Types, at: u64, out: &mut Vec<(u64, Space)>, depth: usize) {
    if depth > 16 || out.len() >= MAX_FIELDS {
        return;
    }
    match ty.as_ref() {
        Type::PointerType { pointee_type, addr_space } if !matches!(pointee_type.as_ref(), Type::FuncType { .. }) => {
            let space = match addr_space {
                3 => Space::GroupShared,
                2 | 4 => Space::Constant,
                _ => Space::Global,
            };
            out.push((at, space));
        }
        Type::ArrayType { element_type, num_elements } => {
            let Some((size, _)) = layout::size_align(element_type, types) else { return };
            for k in 0..*num_elements as u64 {
                pointer_fields(element_type, types, at + k * size, out, depth + 1);
            }
        }
        Type::StructType { .. } | Type::NamedStructType { .. } => {
            let mut i = 0;
            while let Some((off, fty)) = layout::field(ty, i, types) {
                pointer_fields(&fty, types, at + off, out, depth + 1);
                i += 1;
            }
        }
        _ => {}
    }
}

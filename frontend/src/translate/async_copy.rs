//! OpenCL's `async_work_group_copy`, `async_work_group_strided_copy` and `wait_group_events`
//! (OpenCL 1.2 §6.12.10), in the two-thread reduction, following GPUVerify's reading of them:
//! a copy is done by the work-group, asynchronously, between the call and the
//! `wait_group_events` that waits for its event; `wait_group_events` does not synchronise the
//! work-items with each other (a barrier must follow before others' copied data is used).
//!
//! The encoding (each part over-approximates the copy, so a `verified` stays sound):
//!
//! - **Who copies.** The copy of call site `i` is attributed to one work-item of the group,
//!   `$async_copier{i}_d(group_id)` in each dimension `d`: an uninterpreted function of the
//!   group, so the same work-item for both threads of a pair in one group, and any work-item
//!   in some model. Independent per site, so two copies may be made by two different
//!   work-items and race with each other (two copies writing one range).
//! - **What it accesses.** The copier reads the source element `k` and writes the destination
//!   element `k` for an arbitrary `k` below the count (`havoc k`, a branch on `k < n`): the race
//!   check sees every element of both ranges, as GPUVerify's one logged offset per access.
//!   The value written is the one read (with the adversarial abstraction it is arbitrary).
//! - **When.** The accesses are made at the call and belong to its barrier interval. A copy
//!   that may still be in flight at a barrier (not yet waited for) is an assertion error at the
//!   barrier ("possible barrier while an asynchronous copy is in flight"): the copy could then
//!   overlap any later interval, which this encoding does not model. A site's copy issued again
//!   while its previous copy is in flight is an assertion error too (the two copies would have
//!   the same copier, hiding their races). In-flight copies are the bits of the ghost local
//!   `$async$pending`; loop heads get the candidate invariant `$async$pending == 0bv32`.
//! - **Events.** `event_t` values are bv32 numbers: a copy given the null event returns its
//!   site's number `i + 1`, one given an event returns that event (the copy joins it), and
//!   `wait_group_events(n, list)` clears every in-flight copy whose event is among the `n`
//!   events `list` holds (`n` must be a constant).
//! - **Uniformity** (the OpenCL rule that all work-items of a group reach the call with the
//!   same arguments): asserted for threads of one group, `__uniform(__enabled())` and the
//!   uniformity of every argument, events included.
//!
//! A count, stride or event that is not a 32-bit number, an element type that is not a scalar
//! or a vector, and more than 32 copy sites per kernel are `unsupported`.

use super::frame::Frame;
use super::values::{addr_space, int_constant, scalar_ty, vector_shape, Ex, Ty, Val};
use super::Tr;
use crate::builtins::{self, DIMS};
use crate::memory::{Lin, Ptr, Space};
use crate::Loc;
use llvm_ir::instruction as inst;
use llvm_ir::types::Type;
use llvm_ir::{Constant, Module, Operand, TypeRef};

/// The ghost local holding one bit per copy site in flight.
pub(super) const PENDING: &str = "$async$pending";

/// The most copy sites one kernel may have (the bits of [`PENDING`]).
const MAX_SITES: usize = 32;

/// What kind of asynchronous-copy call a mangled name is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Copy,
    Strided,
    Wait,
}

fn kind(mangled: &str) -> Option<Kind> {
    match builtins::demangle(mangled) {
        "async_work_group_copy" => Some(Kind::Copy),
        "async_work_group_strided_copy" => Some(Kind::Strided),
        "wait_group_events" => Some(Kind::Wait),
        _ => None,
    }
}

/// Whether a module calls any of the asynchronous-copy functions (then barriers and loop
/// heads get the checks and invariants of the module documentation).
pub(super) fn module_uses_async(m: &Module) -> bool {
    m.func_declarations.iter().any(|d| kind(&d.name).is_some())
}

/// The condition "the other thread of the pair is in the same group".
fn same_group() -> String {
    let parts: Vec<String> = DIMS.iter().map(|d| format!("group_id_{d} == __other(group_id_{d})")).collect();
    format!("({})", parts.join(" && "))
}

impl<'m> Tr<'m> {
    /// Translates `c` if it calls one of the asynchronous-copy functions.
    pub(super) fn async_call(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, name: &str, loc: Option<Loc>) -> bool {
        let Some(k) = kind(name) else { return false };
        match k {
            Kind::Wait => self.wait_group_events(f, c, loc),
            _ => self.async_copy(f, c, k == Kind::Strided, loc),
        }
        true
    }

    /// An event operand as a bv32 number (the null event is 0).
    fn event_operand(&mut self, f: &Frame<'m>, op: &Operand, loc: Option<Loc>) -> Option<Ex> {
        if let Operand::ConstantOperand(k) = op {
            if matches!(k.as_ref(), Constant::Null(_)) {
                return Some(Ex::new("0bv32".into(), Ty::Bv(32)));
            }
        }
        let v = self.operand(f, op, loc);
        let e = self.scalar(v, loc)?;
        (e.ty == Ty::Bv(32)).then_some(e)
    }

    /// `assert same group ==> φ` with a message saying which rule φ is.
    fn assert_group_uniform(&mut self, what: &str, phi: String, loc: Option<Loc>) {
        let msg = format!("possibly non-uniform {what}: every work-item of a group must make the same call");
        self.body.emit(format!("assert {{:msg \"{msg}\"}} {} ==> {phi};", same_group()), loc);
    }

    fn async_copy(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, strided: bool, loc: Option<Loc>) {
        let what = if strided { "async_work_group_strided_copy" } else { "async_work_group_copy" };
        let args: Vec<&Operand> = c.arguments.iter().map(|a| &a.0).collect();
        if args.len() != if strided { 5 } else { 4 } {
            self.err(loc, format!("`{what}` with {} arguments", args.len()));
            return;
        }
        let site = self.facts.async_sites;
        if site >= MAX_SITES {
            self.err(loc, format!("more than {MAX_SITES} asynchronous copies in one kernel"));
            return;
        }
        let Some(elem) = self.copy_element(&self.module.type_of(args[0]), loc) else { return };
        let dst = self.operand(f, args[0], loc);
        let src = self.operand(f, args[1], loc);
        let (Some(dst), Some(src)) = (self.ptr(dst, loc), self.ptr(src, loc)) else { return };
        let n = self.operand(f, args[2], loc);
        let stride = if strided { self.operand(f, args[3], loc) } else { None };
        let Some(ev) = self.event_operand(f, args[args.len() - 1], loc) else {
            self.err(loc, format!("`{what}` with an event that is not a plain event value"));
            return;
        };
        let Some(n) = self.scalar(n, loc).filter(|e| e.ty == Ty::Bv(32)) else {
            self.err(loc, format!("`{what}` with a count that is not a 32-bit number"));
            return;
        };
        let stride = match (strided, self.scalar(stride, loc)) {
            (false, _) => None,
            (true, Some(s)) if s.ty == Ty::Bv(32) => Some(s),
            _ => {
                self.err(loc, format!("`{what}` with a stride that is not a 32-bit number"));
                return;
            }
        };
        if self.objects.bases.get(dst.base).is_some_and(|b| b.space == Space::Constant) {
            self.err(loc, "a write to constant memory");
            return;
        }
        self.facts.async_sites += 1;
        // Uniformity of the call and of its arguments.
        self.assert_group_uniform(&format!("call of {what}"), "__uniform(__enabled())".into(), loc);
        let mut parts = vec![n.text.clone(), ev.text.clone(), dst.sel(), src.sel()];
        for off in [&dst.off, &src.off] {
            let e = off.expr(&mut self.decls.needs_fn());
            parts.push(e);
        }
        parts.extend(stride.iter().map(|s| s.text.clone()));
        // Literals and object numbers are uniform.
        for p in parts.into_iter().filter(|p| !p.ends_with("bv32") || p.contains('(')) {
            self.assert_group_uniform(&format!("argument of {what}"), format!("__uniform({p})"), loc);
        }
        // In flight: at most once per site.
        let bit = 1u64 << site;
        let and = self.decls.bvop("AND", 32);
        let or = self.decls.bvop("OR", 32);
        self.body.emit(
            format!(
                "assert {{:msg \"possible second {what} of this call while the first is in flight (not waited for)\"}} \
                 {and}({PENDING}, {bit}bv32) == 0bv32;"
            ),
            loc,
        );
        self.body.emit(format!("{PENDING} := {or}({PENDING}, {bit}bv32);"), loc);
        let ev_var = format!("$async{site}$ev");
        self.body.declare(ev_var.clone(), "bv32".into());
        self.body.emit(format!("{ev_var} := (if {} == 0bv32 then {}bv32 else {});", ev.text, site + 1, ev.text), loc);
        if let Some(d) = c.dest.as_ref() {
            f.vals.insert(d.clone(), Val::Scalar(Ex::new(ev_var, Ty::Bv(32))));
        }
        // Strided: the global side is strided (the local side is the one in address space 3).
        let dst_local = addr_space(&self.module.type_of(args[0])) == 3;
        let (dst_stride, src_stride) = match stride {
            Some(s) if dst_local => (None, Some(s.text)),
            Some(s) => (Some(s.text), None),
            None => (None, None),
        };
        self.copier_accesses(site, &n.text, (&dst, dst_stride), (&src, src_stride), &elem, loc);
    }

    /// The lanes of one copied element: (lane type, lane count, element size in bytes).
    fn copy_element(&mut self, ptr_ty: &TypeRef, loc: Option<Loc>) -> Option<(Ty, usize, u64)> {
        let Type::PointerType { pointee_type, .. } = ptr_ty.as_ref() else {
            self.err(loc, "an asynchronous copy through something that is not a pointer");
            return None;
        };
        let (lanes, lane) = match vector_shape(pointee_type) {
            Some((n, e)) => (n, scalar_ty(&e)),
            None => (1, scalar_ty(pointee_type)),
        };
        match lane {
            Some(t) if t != Ty::Bool => {
                let stored = if lanes == 3 { 4 } else { lanes };
                Some((t, lanes, stored as u64 * u64::from(t.width() / 8)))
            }
            _ => {
                self.err(loc, "an asynchronous copy of elements that are not numbers or vectors of numbers");
                None
            }
        }
    }

    /// The copier's accesses: for an arbitrary element `k < n`, when this work-item is the
    /// site's copier, read each lane of source element `k` and write it to destination element
    /// `k` (times the stride on the strided side).
    fn copier_accesses(
        &mut self,
        site: usize,
        n: &str,
        dst: (&Ptr, Option<String>),
        src: (&Ptr, Option<String>),
        elem: &(Ty, usize, u64),
        loc: Option<Loc>,
    ) {
        let (lane, lanes, bytes) = *elem;
        let k = format!("$async{site}$k");
        self.body.declare(k.clone(), "bv32".into());
        let bv3 = [Ty::Bv(32), Ty::Bv(32), Ty::Bv(32)];
        let gid = "group_id_x, group_id_y, group_id_z";
        let mut copier = Vec::new();
        for d in DIMS {
            let fun = self.decls.uninterpreted(&format!("$async_copier{site}_{d}"), &bv3, Ty::Bv(32));
            copier.push(format!("local_id_{d} == {fun}({gid})"));
        }
        let ult = self.decls.bvop("ULT", 32);
        let mul = self.decls.bvop("MUL", 32);
        let guard = format!("{} && {ult}({k}, {n})", copier.join(" && "));
        self.body.emit(format!("havoc {k};"), loc);
        let join = format!("$async{site}$join{}", self.body.next_number());
        let yes = format!("{join}$copy");
        let skip = format!("{join}$skip");
        self.body.emit(format!("goto {yes}, {skip};"), loc);
        self.body
            .add_edge_block(skip.clone(), vec![(format!("assume !({guard});"), loc), (format!("goto {join};"), loc)]);
        self.body.start_block(yes);
        self.body.emit(format!("assume {guard};"), loc);
        let at = |p: &Ptr, stride: &Option<String>, j: usize| {
            let index = match stride {
                Some(s) => format!("{mul}({k}, {s})"),
                None => k.clone(),
            };
            let off = Lin::term(index, bytes).plus(&Lin::constant(j as u64 * u64::from(lane.width() / 8)));
            Ptr { base: p.base, off: p.off.clone().plus(&off), alt: p.alt.clone() }
        };
        for j in 0..lanes {
            let tmp = self.body.fresh_var("async_value", &lane.kbpl());
            let from = at(src.0, &src.1, j);
            self.on_each_object(&from, loc, |tr, q| tr.access(q, lane, loc).map(|place| format!("{tmp} := {place};")));
            let to = at(dst.0, &dst.1, j);
            self.on_each_object(&to, loc, |tr, q| tr.write(q, lane, &tmp, loc));
        }
        self.body.emit(format!("goto {join};"), loc);
        self.body.start_block(join);
    }

    /// `wait_group_events(n, list)`: clears the in-flight copies whose event is one of the `n`
    /// events in `list` (`n` a constant); the call and its events must be group-uniform.
    fn wait_group_events(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, loc: Option<Loc>) {
        let Some(n) = c.arguments.first().and_then(|a| int_constant(&a.0)) else {
            self.err(loc, "`wait_group_events` whose number of events is not a constant");
            return;
        };
        if n > 64 {
            self.err(loc, "`wait_group_events` of more than 64 events");
            return;
        }
        let Some(list) = c.arguments.get(1) else {
            self.err(loc, "`wait_group_events` without its event list");
            return;
        };
        let list = self.operand(f, &list.0, loc);
        let Some(list) = self.ptr(list, loc) else { return };
        self.assert_group_uniform("call of wait_group_events", "__uniform(__enabled())".into(), loc);
        let mut events = Vec::new();
        for j in 0..n {
            let e = self.body.fresh_var("async_event", "bv32");
            let q = Ptr { base: list.base, off: list.off.clone().plus(&Lin::constant(4 * j)), alt: list.alt.clone() };
            self.on_each_object(&q, loc, |tr, q| tr.access(q, Ty::Bv(32), loc).map(|place| format!("{e} := {place};")));
            self.assert_group_uniform("event of wait_group_events", format!("__uniform({e})"), loc);
            events.push(e);
        }
        if events.is_empty() {
            return;
        }
        let and = self.decls.bvop("AND", 32);
        let mut cleared = Vec::new();
        for site in 0..self.facts.async_sites {
            let ev = format!("$async{site}$ev");
            let hit: Vec<String> = events.iter().map(|e| format!("{ev} == {e}")).collect();
            let keep = !(1u64 << site) & 0xffff_ffff;
            cleared.push(format!("(if {} then {keep}bv32 else 4294967295bv32)", hit.join(" || ")));
        }
        for mask in cleared {
            self.body.emit(format!("{PENDING} := {and}({PENDING}, {mask});"), loc);
        }
    }

    /// Before a barrier: no asynchronous copy may be in flight (see the module documentation).
    pub(super) fn no_copy_in_flight(&mut self, loc: Option<Loc>) {
        if self.facts.uses_async {
            self.body.emit(
                format!(
                    "assert {{:msg \"possible barrier while an asynchronous copy is in flight (not waited for with wait_group_events)\"}} {PENDING} == 0bv32;"
                ),
                loc,
            );
        }
    }
}

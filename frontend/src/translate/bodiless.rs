//! Calls of functions that are declared but not defined (`float *bar(float *p);`), which
//! GPUVerify treats as procedures without a body: the result is an arbitrary value, chosen
//! anew at each call.
//!
//! What such a call may do to memory is decided soundly from its pointer arguments:
//!
//! - a pointer into **private** memory (an address-taken local, a struct passed by value): the
//!   function may read and write all of that object, so the object's map is havocked (private
//!   memory cannot race, so no access needs checking);
//! - a pointer into **constant** memory: it can only be read, which changes nothing and never
//!   races;
//! - a pointer into **global or group-shared** memory: which elements it touches, and when, is
//!   unknown, so the race check cannot be done: a located `unsupported` error;
//! - a **null** pointer argument is no access by itself (the function may test it);
//! - a call that never returns (a `noreturn` function: the block ends in `unreachable`, which
//!   is a failing assertion) needs no race check: any thread that makes it fails anyway.
//!
//! A returned pointer is unknown: it is modelled as an undefined pointer (null with an arbitrary
//! offset, see [`super::null`]), so any access through it is reported as a possible null or
//! undefined access rather than guessed to be valid. A returned struct (without pointers) has
//! every field arbitrary (`aggregates.rs`).
//!
//! Functions declared `__attribute__((const))` (LLVM `readnone`, as OpenCL's math built-ins are)
//! with scalar arguments and result keep their translation as uninterpreted functions: equal
//! arguments give equal results. Atomics, `async_work_group_copy`, vector loads and stores and
//! annotations are not bodiless calls in this sense and are left to their own translations.

use super::frame::Frame;
use super::names::call_name;
use super::values::{is_pointer, scalar_ty, Val};
use super::{aggregates, Tr};
use crate::memory::{Lin, Ptr, Space};
use crate::{builtins, Loc};
use llvm_ir::function::FunctionAttribute;
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::terminator::Terminator;
use llvm_ir::types::Type;
use llvm_ir::TypeRef;

/// Names that have their own translation elsewhere (or are not supported yet for that reason),
/// and anything that may synchronise.
fn has_own_translation(name: &str) -> bool {
    let plain = builtins::demangle(name);
    name.starts_with("llvm.")
        // clang's constructor of an OpenCL sampler from its flags: an opaque handle, which
        // only image reads use (`images.rs`, which ignores it), so an unknown pointer will do.
        || (plain.starts_with("__") && plain != "__translate_sampler_initializer")
        || plain.starts_with("atom")
        || plain.starts_with("vload")
        || plain.starts_with("vstore")
        || plain.starts_with("async_work_group")
        || plain == "wait_group_events"
        // Synchronisation must never become a call without effect.
        || plain.contains("barrier")
        || plain.contains("sync")
        || super::collectives::is_collective(plain)
        || builtins::classify(name).is_some()
}

impl<'m> Tr<'m> {
    /// Whether `c` calls a bodiless function this module translates (its value is then not an
    /// expression that can be folded into a guard or clause).
    pub(super) fn is_bodiless(&self, c: &inst::Call) -> bool {
        let Some(name) = call_name(c) else { return false };
        if self.module.get_func_by_name(name).is_some() || has_own_translation(name) {
            return false;
        }
        let ret = self.module.type_of(c);
        let void = matches!(ret.as_ref(), Type::VoidType);
        let ret_scalar = scalar_ty(&ret);
        let ret_leaves = aggregates::leaves(&ret, &self.module.types).is_some();
        if !(void || ret_scalar.is_some() || is_pointer(&ret) || ret_leaves) {
            return false;
        }
        let arg_types: Vec<TypeRef> = c.arguments.iter().map(|(a, _)| self.module.type_of(a)).collect();
        if arg_types.iter().any(|t| scalar_ty(t).is_none() && !is_pointer(t)) {
            return false;
        }
        let pointers = arg_types.iter().any(is_pointer);
        let pure = c.function_attributes.contains(&FunctionAttribute::ReadNone);
        !(pure && !pointers && ret_scalar.is_some())
    }

    /// Translates a call of a bodiless function; false when the call is not one (or is a pure
    /// function of scalars, translated as an uninterpreted function by `call_value`).
    pub(super) fn bodiless_call(
        &mut self,
        f: &mut Frame<'m>,
        c: &'m inst::Call,
        name: &str,
        bi: usize,
        loc: Option<Loc>,
    ) -> bool {
        if !self.is_bodiless(c) {
            return false;
        }
        let never_returns = ends_in_unreachable(f, c, bi);
        let ret = self.module.type_of(c);
        let ret_scalar = scalar_ty(&ret);
        let arg_types: Vec<TypeRef> = c.arguments.iter().map(|(a, _)| self.module.type_of(a)).collect();
        let fname = builtins::demangle(name).to_string();
        let mut havoc = Vec::new();
        for ((a, _), t) in c.arguments.iter().zip(&arg_types) {
            if !is_pointer(t) {
                continue;
            }
            let v = self.operand(f, a, loc);
            let Some(p) = self.ptr(v, loc) else { return true };
            for o in p.cands() {
                match self.objects.space_of(o) {
                    None | Some(Space::Constant) => {}
                    Some(Space::Private) => {
                        let m = self.objects.bases[o].name.clone();
                        if !havoc.contains(&m) {
                            havoc.push(m);
                        }
                    }
                    // Followed by `unreachable`, a failing assertion: every thread that
                    // makes the call fails, whatever the function accessed.
                    Some(Space::Global | Space::GroupShared) if never_returns => {}
                    Some(Space::Global | Space::GroupShared) => {
                        self.err(
                            loc,
                            format!(
                                "a call of the bodiless function `{fname}` with a pointer to shared memory (its accesses are unknown)"
                            ),
                        );
                        return true;
                    }
                }
            }
        }
        let companions = self.companions_of(&havoc);
        havoc.extend(companions);
        if !havoc.is_empty() {
            self.body.emit(format!("havoc {};", havoc.join(", ")), loc);
        }
        if let Some(d) = &c.dest {
            let v = match ret_scalar {
                Some(t) => self.havoc_scalar(f, d, t, loc),
                // A struct returned by value (a texel `float4`): every field arbitrary.
                None if !is_pointer(&ret) => {
                    let v = f.var(d);
                    let Some(lanes) = self.lane_vars(&v, &ret) else { return true };
                    let names: Vec<&str> = lanes.iter().map(|e| e.text.as_str()).collect();
                    self.body.emit(format!("havoc {};", names.join(", ")), loc);
                    Val::Vector(lanes)
                }
                None => {
                    let off = self.body.fresh_var("unknown", "bv32");
                    Val::Ptr(Ptr::null(Lin::term(off, 1)))
                }
            };
            f.vals.insert(d.clone(), v);
        }
        true
    }
}

/// Whether `c` is the last instruction of block `bi` and the block ends in `unreachable`
/// (a call of a `noreturn` function, as clang emits it): the call never returns.
fn ends_in_unreachable(f: &Frame, c: &inst::Call, bi: usize) -> bool {
    let b = &f.func.basic_blocks[bi];
    let last_is_c = matches!(b.instrs.last(), Some(Instruction::Call(l)) if std::ptr::eq(l, c));
    last_is_c && matches!(b.term, Terminator::Unreachable(_))
}

//! Calls: the dispatch of a call to what it is (an inlined function, a memory intrinsic, an
//! atomic, an image access, an asynchronous copy, a collective, a barrier, an annotation, a
//! bodiless function), the inlining of a defined function, barriers with their invariants, and
//! the values of work-item functions and of external functions (uninterpreted).
//!
//! Apart from the other instruction families because a call is the one instruction whose
//! meaning depends on its callee's name: the features' modules each claim their names here.

use super::control::ret_selector;
use super::frame::Frame;
use super::names::{call_name, global_name};
use super::values::{int_constant, is_pointer, scalar_ty, vector_shape, Ex, Ty, Val};
use super::{aggregates, collectives, memops, Tr};
use crate::builtins::{self, Builtin, DIMS};
use crate::memory::{Alt, Lin, Ptr};
use crate::Loc;
use llvm_ir::instruction as inst;
use llvm_ir::{Function, Name};

impl<'m> Tr<'m> {
    /// A call with an effect (barrier, annotation, inlined function); false for calls that
    /// only compute a value.
    pub(super) fn call_effect(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, bi: usize, loc: Option<Loc>) -> bool {
        let Some(name) = call_name(c) else {
            if c.function.is_left() {
                self.err(loc, "inline assembly");
            } else {
                self.call_through_pointer(f, c, loc);
            }
            return true;
        };
        if let Some(g) = self.module.get_func_by_name(name) {
            self.inline(f, c, g, loc);
            return true;
        }
        let arg_const = |k: usize| c.arguments.get(k).and_then(|a| int_constant(&a.0));
        if memops::is_mem_intrinsic(name) {
            self.mem_intrinsic(f, c, name, loc);
            return true;
        }
        if self.atomic_call(f, c, name, loc) || self.image_call(f, c, name, loc) {
            return true;
        }
        if self.async_call(f, c, name, loc)
            || self.collective_call(f, c, name, loc)
            || self.vload_vstore_call(f, c, name, loc)
        {
            return true;
        }
        if self.bodiless_call(f, c, name, bi, loc) {
            return true;
        }
        if name == "__kivl_grid_sync" {
            // cooperative_groups' grid_group::sync(): every thread of every group waits, and
            // both memories are fenced.
            self.emit_barrier(" {:grid}", loc);
            return true;
        }
        match builtins::classify(name) {
            Some(Builtin::Ignore) => true,
            Some(Builtin::Barrier) => {
                // CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2 (other bits fence no
                // memory kivl models). Flags computed at run time may differ between threads
                // (GPUVerify fences each thread's accesses by its own flags): fencing nothing
                // over-approximates them.
                let flags = arg_const(0).unwrap_or(0);
                self.barrier(flags & 1 != 0, flags & 2 != 0, loc);
                true
            }
            Some(Builtin::FixedBarrier(l, g)) => {
                self.barrier(l, g, loc);
                true
            }
            Some(Builtin::Spec(s)) => self.spec_effect(f, c, s, bi, loc),
            Some(Builtin::TextureHandle) => {
                self.arbitrary_result(f, c, loc);
                true
            }
            Some(Builtin::AssertFail) => {
                self.body.emit(format!("assert {{:msg \"{ASSERT_FAIL}\"}} false;"), loc);
                true
            }
            _ => false,
        }
    }

    /// The call's result, if any, is an arbitrary value (a new one at each call).
    fn arbitrary_result(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, loc: Option<Loc>) {
        let (Some(d), Some(t)) = (&c.dest, scalar_ty(&self.module.type_of(c))) else { return };
        let v = self.havoc_scalar(f, d, t, loc);
        f.vals.insert(d.clone(), v);
    }

    /// A new local of type `t` for the register `d`, havocked here: an arbitrary value.
    pub(super) fn havoc_scalar(&mut self, f: &Frame<'m>, d: &Name, t: Ty, loc: Option<Loc>) -> Val {
        let v = f.var(d);
        self.body.declare(v.clone(), t.kbpl());
        self.body.emit(format!("havoc {v};"), loc);
        Val::Scalar(Ex::new(v, t))
    }

    /// A barrier with its fences and the barrier invariants written before it.
    pub(super) fn barrier(&mut self, local: bool, global: bool, loc: Option<Loc>) {
        let attr = match (local, global) {
            (true, false) => " {:local}",
            (false, true) => " {:global}",
            (false, false) => " {:nofence}",
            (true, true) => "",
        };
        self.emit_barrier(attr, loc);
    }

    /// `barrier` with its attributes (`attr`, with a leading space, or empty) and the barrier
    /// invariants written before it.
    fn emit_barrier(&mut self, attr: &str, loc: Option<Loc>) {
        self.no_copy_in_flight(loc);
        let invs = self.clauses.take_barrier_invariants();
        if invs.is_empty() {
            self.body.emit(format!("barrier{attr};"), loc);
        } else {
            self.body.emit(format!("barrier{attr} {}", invs.join(" ")), loc);
        }
    }

    pub(super) fn inline(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, g: &'m Function, loc: Option<Loc>) {
        if self.body.is_active(&g.name) {
            self.err(loc, format!("recursive call of `{}`", builtins::demangle(&g.name)));
            return;
        }
        if g.is_var_arg {
            self.err(loc, "a call of a variadic function");
            return;
        }
        let k = self.body.next_call();
        let cont = format!("{}$ret{k}", self.body.current_label());
        let result = match (&c.dest, scalar_ty(&g.return_type)) {
            (Some(d), Some(t)) => {
                let v = f.var(d);
                self.body.declare(v.clone(), t.kbpl());
                f.vals.insert(d.clone(), Val::Scalar(Ex::new(v.clone(), t)));
                Some(v)
            }
            // A returned pointer: its object is found at the returns, its byte offset is a
            // variable.
            (Some(d), None) if is_pointer(&g.return_type) => {
                let v = format!("{}.off", f.var(d));
                self.body.declare(v.clone(), "bv32".into());
                Some(v)
            }
            (Some(d), None) if vector_shape(&g.return_type).is_some() || aggregates::is_aggregate(&g.return_type) => {
                let v = f.var(d);
                let lanes = self.lane_vars(&v, &g.return_type);
                match lanes {
                    Some(lanes) => f.vals.insert(d.clone(), Val::Vector(lanes)),
                    None => {
                        self.err(loc, "a call of a function returning a vector, struct or array that holds pointers");
                        return;
                    }
                };
                Some(v)
            }
            (Some(_), None) => {
                self.err(loc, "a call of a function returning an aggregate");
                return;
            }
            _ => None,
        };
        let mut callee = self.frame(g, format!("{}c{k}.", f.prefix), Some((cont.clone(), result)), loc.or(f.call_loc));
        for (p, (a, _)) in g.parameters.iter().zip(&c.arguments) {
            if let Some(v) = self.operand(f, a, loc) {
                callee.vals.insert(p.name.clone(), v);
            }
        }
        let Some(entry) = g.basic_blocks.first() else { return };
        let target = callee.label(&entry.name);
        self.body.emit(format!("goto {target};"), loc);
        self.body.enter(g.name.clone());
        self.function_body(&mut callee);
        self.body.leave();
        if let (Some(d), Some(off), true) =
            (&c.dest, &callee.ret.as_ref().and_then(|r| r.1.clone()), is_pointer(&g.return_type))
        {
            match callee.ret_cands.as_slice() {
                [] => self.err(loc, "a returned pointer whose memory object cannot be determined statically"),
                cands => {
                    let alt = (cands.len() > 1).then(|| Alt { sel: ret_selector(off), cands: cands.to_vec() });
                    f.vals.insert(d.clone(), Val::Ptr(Ptr { base: cands[0], off: Lin::term(off.clone(), 1), alt }));
                }
            }
        }
        self.body.start_block(cont);
    }

    /// The value of a call to an external function that computes a value.
    pub(super) fn call_value(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let name = call_name(c)?;
        match builtins::classify(name) {
            Some(
                b @ (Builtin::Identity(..)
                | Builtin::GlobalId
                | Builtin::GlobalSize
                | Builtin::GlobalOffset
                | Builtin::WorkDim),
            ) => self.work_item_value(c, b, loc),
            Some(Builtin::FMulAdd) => {
                let mut a = Vec::new();
                for (op, _) in &c.arguments {
                    a.push(self.scalar_arg(f, op, spec, loc)?);
                }
                if a.len() != 3 {
                    return None;
                }
                let m = self.fop("FMUL", &a[..2], None);
                Some(self.fop("FADD", &[m, a[2].clone()], None))
            }
            Some(Builtin::Spec(s)) => self.spec_value(f, c, s, name, spec, loc),
            Some(_) => {
                self.err(loc, format!("`{}` used as a value", builtins::demangle(name)));
                None
            }
            // GPUVerify's `__uninterpreted_function_NAME(…)`: a function of its arguments only.
            None if builtins::demangle(name).starts_with(builtins::UNINTERPRETED_PREFIX) => {
                self.external_value(f, c, name, spec, loc)
            }
            None if builtins::demangle(name).starts_with("__") => {
                self.err(loc, format!("the annotation `{}` is not supported yet", builtins::demangle(name)));
                None
            }
            None => self.external_value(f, c, name, spec, loc),
        }
    }

    /// A work-item function (ids, sizes, offsets, dimensions) as an expression over the
    /// identity constants.
    fn work_item_value(&mut self, c: &inst::Call, b: Builtin, loc: Option<Loc>) -> Option<Ex> {
        let dim = |k: Option<u64>| k.filter(|&d| d < 3).map(|d| d as usize);
        let arg_const = c.arguments.first().and_then(|a| int_constant(&a.0));
        let id = |w: &str, d: usize| format!("{w}_{}", DIMS[d]);
        let mut arg_dim = || {
            let d = dim(arg_const);
            if d.is_none() {
                self.errors.push((loc, "a work-item function whose dimension is not the constant 0, 1 or 2".into()));
            }
            d
        };
        match b {
            Builtin::Identity(w, fixed) => {
                let d = match fixed {
                    Some(d) => d,
                    None => arg_dim()?,
                };
                Some(Ex::new(id(w, d), Ty::Bv(32)))
            }
            Builtin::GlobalId => {
                let d = arg_dim()?;
                let (add, mul) = (self.decls.bvop("ADD", 32), self.decls.bvop("MUL", 32));
                let t = format!("{add}({mul}({}, {}), {})", id("group_id", d), id("group_size", d), id("local_id", d));
                // OpenCL's global work offset (`--global_offset`) shifts every global id.
                let t = match self.global_offset(d) {
                    0 => t,
                    o => format!("{add}({t}, {o}bv32)"),
                };
                Some(Ex::new(t, Ty::Bv(32)))
            }
            Builtin::GlobalSize => {
                let d = arg_dim()?;
                let mul = self.decls.bvop("MUL", 32);
                Some(Ex::new(format!("{mul}({}, {})", id("group_size", d), id("num_groups", d)), Ty::Bv(32)))
            }
            // Without an offset any dimension's is 0, a dimension not known until run time too.
            Builtin::GlobalOffset if self.facts.global_offset == [0; 3] => Some(Ex::new("0bv32".into(), Ty::Bv(32))),
            Builtin::GlobalOffset => {
                let d = arg_dim()?;
                Some(Ex::new(format!("{}bv32", self.global_offset(d)), Ty::Bv(32)))
            }
            _ => Some(match self.facts.work_dim {
                Some(d) => Ex::new(format!("{d}bv32"), Ty::Bv(32)),
                None => {
                    let f = self.decls.uninterpreted("$work_dim", &[], Ty::Bv(32));
                    Ex::new(format!("{f}()"), Ty::Bv(32))
                }
            }),
        }
    }

    /// OpenCL's global work offset in dimension `d` (`--global_offset`), modulo 2^32 as
    /// `size_t` is 32 bits here.
    fn global_offset(&self, d: usize) -> u64 {
        self.facts.global_offset[d] & u64::from(u32::MAX)
    }

    /// A call of an external function the kernel does not define (a math built-in): an
    /// uninterpreted function of its scalar arguments, as GPUVerify does (but OpenCL's integer
    /// `min`/`max`, `int_minmax.rs`).
    fn external_value(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        name: &str,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let ret = scalar_ty(&self.module.type_of(c));
        // A collective is never a function of its arguments (`collectives.rs`).
        let Some(ret) = ret.filter(|_| !collectives::unmodelled(builtins::demangle(name))) else {
            self.err(loc, format!("a call of the external function `{}`", builtins::demangle(name)));
            return None;
        };
        let args = self.external_args(f, c, name, spec, loc)?;
        if let Some(mut lane) = self.int_min_max_lanes(name, &args, 1) {
            return lane.pop();
        }
        let fname = external_name(name);
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let fname = self.decls.uninterpreted(&fname, &tys, ret);
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Some(Ex::new(format!("{fname}({})", texts.join(", ")), ret))
    }

    /// The arguments of an external function modelled as an uninterpreted function: numbers,
    /// and vectors lane by lane; a pointer (which it might read or write through) is an error.
    pub(super) fn external_args(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        name: &str,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Vec<Ex>> {
        let mut args = Vec::new();
        for (op, _) in &c.arguments {
            match self.arg(f, op, spec, loc)? {
                Val::Scalar(e) => args.push(e),
                Val::Vector(lanes) => args.extend(lanes),
                Val::Ptr(_) => {
                    let what = format!(
                        "a call of the external function `{}` with a pointer argument",
                        builtins::demangle(name)
                    );
                    self.err(loc, what);
                    return None;
                }
            }
        }
        Some(args)
    }

    pub(super) fn callee_builtin(&self, c: &inst::Call) -> Option<Builtin> {
        call_name(c).filter(|n| self.module.get_func_by_name(n).is_none()).and_then(builtins::classify)
    }
}

/// The KBPL name of the uninterpreted function modelling the external function `name`:
/// `$ext.NAME`, except that GPUVerify's `__uninterpreted_function_f` is `f`, as Bugle names it,
/// so that a `--boogie-file` written for GPUVerify can state axioms about `f` (when `f` is a
/// KBPL identifier; a keyword such as `old` keeps the `$ext.` form).
fn external_name(name: &str) -> String {
    let plain = builtins::demangle(name).strip_prefix(builtins::UNINTERPRETED_PREFIX).filter(|f| is_identifier(f));
    match plain {
        Some(f) => f.to_string(),
        None => format!("$ext.{}", global_name(name)),
    }
}

/// Whether `word` lexes as one KBPL identifier (not a keyword, not a number).
fn is_identifier(word: &str) -> bool {
    let lexed = ivl::lexer::lex(word, 0);
    lexed.errors.is_empty() && matches!(lexed.toks.as_slice(), [ivl::lexer::Tok::Ident(_)])
}

/// The message of a device-side `assert(e)` whose `e` may be false.
const ASSERT_FAIL: &str = "this assert() might fail";

//! Instructions, operands, memory accesses and calls.

use super::*;
use crate::memory::Alt;

impl<'m> Tr<'m> {
    /// Translates one instruction that is not a phi node.
    pub(super) fn instruction(&mut self, f: &mut Frame<'m>, i: &'m Instruction, bi: usize) {
        let loc = self.loc(llvm_ir::HasDebugLoc::get_debug_loc(i), f);
        match i {
            Instruction::Store(s) if vector_shape(&self.module.type_of(&s.value)).is_some() => {
                self.vector_store(f, s, loc)
            }
            Instruction::Store(s) if aggregates::is_aggregate(&self.module.type_of(&s.value)) => {
                self.aggregate_store(f, s, loc)
            }
            Instruction::Store(s) => self.store(f, s, loc),
            // Created with the frame (`objects_of_allocas`), so that pointers can be resolved
            // before their allocation is translated.
            Instruction::Alloca(_) => {}
            Instruction::Load(l) if self.loads_pointer(l) => self.load_pointer(f, l, loc),
            Instruction::Load(l) if self.points_into_several(f, &l.address, loc) => self.load_from_several(f, l, loc),
            Instruction::Call(c) if self.call_effect(f, c, bi, loc) => {}
            _ => {
                let Some(dest) = i.try_get_result() else {
                    let msg = match i {
                        Instruction::Call(c) => match call_name(c) {
                            Some("__kivl_surface_write") => {
                                "a CUDA surface write (`surf*write`): surfaces are not modelled".into()
                            }
                            Some(n) if builtins::demangle(n).starts_with("__") => {
                                format!("the annotation `{}` is not supported yet", builtins::demangle(n))
                            }
                            Some(n) => format!("a call of the external function `{}`", builtins::demangle(n)),
                            None => "an indirect call".into(),
                        },
                        _ => format!("unsupported instruction `{}`", first_word(i)),
                    };
                    self.err(loc, msg);
                    return;
                };
                match self.value_of(f, i, None, loc) {
                    Some(Val::Ptr(p)) => {
                        f.vals.insert(dest.clone(), Val::Ptr(p));
                    }
                    Some(Val::Scalar(e)) if e.text.contains(RETURN_VAL) => self.err(
                        loc,
                        "`__return_val_*()` in a value computed in steps (a `&&`, `||` or `?:` splits the clause): write one `__ensures` per conjunct, or use `&`",
                    ),
                    Some(Val::Scalar(e)) => {
                        let v = f.var(dest);
                        let e = self.bind(v, e, loc);
                        f.vals.insert(dest.clone(), Val::Scalar(e));
                    }
                    Some(Val::Vector(lanes)) => self.bind_lanes(f, dest, lanes, loc),
                    None => {}
                }
            }
        }
    }

    /// A call with an effect (barrier, annotation, inlined function); false for calls that
    /// only compute a value.
    fn call_effect(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, bi: usize, loc: Option<Loc>) -> bool {
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

    /// An annotation call as a statement (assertions, assumptions, contracts, barrier
    /// invariants); false for annotations that are values.
    fn spec_effect(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, s: Spec, bi: usize, loc: Option<Loc>) -> bool {
        let arg = c.arguments.first().map(|a| a.0.clone());
        match (s, arg) {
            (Spec::Invariant | Spec::CandidateInvariant, _) => true,
            (Spec::ReadsFrom | Spec::WritesTo, _) => {
                self.spec_access(f, c, s == Spec::WritesTo, loc);
                true
            }
            // Emitted at every loop head (`invariants`); checked here once.
            (s, a) if s.is_function_wide() => {
                if let Some(a) = a {
                    self.function_wide_ok(f, &a, bi, loc);
                }
                true
            }
            // Already a leading assert of its loop head (`invariants`).
            (Spec::Assert, _) if f.headers.contains(&f.func.basic_blocks[bi].name) => true,
            (Spec::BarrierInvariant | Spec::BinaryBarrierInvariant, Some(a)) => {
                let Some(phi) = self.spec_expr(f, &a, bi, loc) else { return true };
                let mut ids = Vec::new();
                for (op, _) in c.arguments.iter().skip(1) {
                    let Some(e) = self.spec_expr(f, op, bi, loc) else { return true };
                    ids.push(e.text);
                }
                // A binary invariant's ids are pairs, one `{:instantiate_pair a, b}` each
                // (docs/kbpl.md §5.3).
                let attrs = if s == Spec::BinaryBarrierInvariant {
                    ids.chunks(2)
                        .map(|p| format!("{{:instantiate_pair {}}}", p.join(", ")))
                        .collect::<Vec<_>>()
                        .join(" ")
                } else {
                    format!("{{:instantiate {}}}", ids.join(", "))
                };
                let inv = format!("invariant {attrs} {};", bool_ex(&phi));
                self.clauses.await_barrier(inv, loc);
                true
            }
            // Every thread runs a kernel's first block, so there a global assertion is
            // an ordinary one; elsewhere a branch may have disabled some threads, and the
            // assertion is about them too: stated for this thread and the other one of the pair
            // (`__other`), checked wherever one of them is.
            (Spec::GlobalAssert, Some(a)) if f.ret.is_some() || bi != 0 => {
                if let Some(e) = self.spec_expr(f, &a, bi, loc) {
                    if e.text.contains(RETURN_VAL) {
                        self.err(loc, "`__return_val_*()` outside a postcondition");
                        return true;
                    }
                    for one in for_both_threads(&bool_ex(&e)) {
                        self.body.emit(format!("assert {one};"), loc);
                    }
                }
                true
            }
            (Spec::Assert | Spec::Assume | Spec::GlobalAssert, Some(a)) => {
                if let Some(e) = self.spec_expr(f, &a, bi, loc) {
                    if e.text.contains(RETURN_VAL) {
                        self.err(loc, "`__return_val_*()` outside a postcondition");
                        return true;
                    }
                    let kw = if s == Spec::Assume { "assume" } else { "assert" };
                    self.body.emit(format!("{kw} {};", bool_ex(&e)), loc);
                }
                true
            }
            // GPUVerify's unpredicated contract of a called function: it holds for the threads
            // a branch disabled too. Inlined, the clause is stated for this thread and the
            // other one of the pair (`__other`), checked wherever one of them calls.
            (Spec::GlobalRequires | Spec::GlobalEnsures, Some(a)) if f.ret.is_some() => {
                let Some(e) = self.spec_expr(f, &a, bi, loc) else { return true };
                for one in for_both_threads(&bool_ex(&e)) {
                    if s == Spec::GlobalRequires {
                        self.body.emit(format!("assert {{:check \"precondition\"}} {one};"), f.call_loc.or(loc));
                    } else {
                        f.ensures.push((one, loc));
                    }
                }
                true
            }
            (Spec::Requires | Spec::Ensures | Spec::GlobalRequires | Spec::GlobalEnsures, Some(a)) => {
                let s = match s {
                    Spec::GlobalRequires => Spec::Requires,
                    Spec::GlobalEnsures => Spec::Ensures,
                    s => s,
                };
                let Some(e) = self.spec_expr(f, &a, bi, loc) else { return true };
                let b = bool_ex(&e);
                match (s, f.ret.is_some()) {
                    // A function checked on its own has its parameters as locals, which
                    // clauses cannot name: its precondition is assumed at its start.
                    (Spec::Requires, false) if self.facts.uncalled => self.body.emit(format!("assume {b};"), loc),
                    // A kernel's precondition on its private memory (a struct passed by value,
                    // whose map is a local of the body, which clauses cannot name) is assumed
                    // where it is written, if nothing was stored before it (the entry state).
                    (Spec::Requires, false)
                        if bi == 0 && no_store_before(f, c) && self.objects.mentions_private(&b) =>
                    {
                        self.body.emit(format!("assume {b};"), loc)
                    }
                    (Spec::Requires, false) => self.clauses.require(b, loc),
                    (Spec::Ensures, false) if self.facts.uncalled => f.ensures.push((b, loc)),
                    (Spec::Ensures, false) => self.clauses.ensure(b, loc),
                    // An inlined function's precondition is checked at the call.
                    (Spec::Requires, true) => {
                        self.body.emit(format!("assert {{:check \"precondition\"}} {b};"), f.call_loc.or(loc))
                    }
                    _ => f.ensures.push((b, loc)),
                }
                true
            }
            _ => false,
        }
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

    /// An operand's value as it is when the current instruction runs (while an element-wise
    /// vector operation is split, a vector operand's lane).
    pub(super) fn operand(&mut self, f: &Frame<'m>, op: &Operand, loc: Option<Loc>) -> Option<Val> {
        let v = self.whole_operand(f, op, loc);
        self.in_lane(v, loc)
    }

    fn whole_operand(&mut self, f: &Frame<'m>, op: &Operand, loc: Option<Loc>) -> Option<Val> {
        match op {
            Operand::LocalOperand { name, ty } => {
                if let Some(v) = f.vals.get(name) {
                    return Some(v.clone());
                }
                match memory_scalar_ty(ty) {
                    Some(t) => Some(Val::Scalar(Ex::new(f.var(name), t))),
                    None => {
                        self.err(loc, "a pointer whose memory object cannot be determined statically");
                        None
                    }
                }
            }
            Operand::ConstantOperand(k) => self.constant(f, k, loc),
            Operand::MetadataOperand => None,
        }
    }

    /// An operand inside a specification clause of block `bi`: the block's computations
    /// folded in (they run before the clause's place at the head of the block).
    pub(super) fn arg(&mut self, f: &Frame<'m>, op: &Operand, spec: Option<usize>, loc: Option<Loc>) -> Option<Val> {
        if let (Some(bi), Operand::LocalOperand { name, .. }) = (spec, op) {
            if let Some(&(i, dbi)) = f.defs.get(name) {
                // Computations without effects are recomputed; a load only when it is not run
                // (it feeds only clauses), so that it reads what the clause's place sees.
                // A short-circuit `&&`/`||` meeting in this block is one expression.
                if let (Instruction::Phi(p), true) = (i, dbi == bi) {
                    if let Some(v) = self.short_circuit(f, p, bi, loc) {
                        return Some(v);
                    }
                }
                let foldable = match i {
                    Instruction::Phi(_) | Instruction::Store(_) | Instruction::Alloca(_) => false,
                    Instruction::Load(_) => f.spec_only.contains(name),
                    // Not a call with an effect (an atomic, an image access, a collective), whose value is the
                    // variable it was given when the call ran.
                    Instruction::Call(c) => {
                        call_name(c).is_some_and(|n| {
                            self.module.get_func_by_name(n).is_none()
                                && !atomics::is_atomic_function(n)
                                && !images::is_image_function(n)
                                && !collectives::is_collective(builtins::demangle(n))
                        }) && !self.is_bodiless(c)
                    }
                    _ => true,
                };
                // Shared subterms are copied when folded: a budget keeps the text linear in
                // the block's size (past it, the computed variable is named instead).
                if dbi == bi && foldable && self.clauses.take_fold() {
                    return self.value_of(f, i, spec, loc);
                }
            }
        }
        self.operand(f, op, loc)
    }

    /// A specification clause's or a branch's operand folded with the computations of block
    /// `bi` that it depends on.
    pub(super) fn spec_expr(&mut self, f: &Frame<'m>, op: &Operand, bi: usize, loc: Option<Loc>) -> Option<Ex> {
        let outer = self.clauses.begin_fold();
        let v = self.arg(f, op, Some(bi), loc);
        self.clauses.end_fold(outer);
        self.scalar(v, loc)
    }

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

    pub(super) fn scalar(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Ex> {
        match v? {
            Val::Scalar(e) => Some(e),
            Val::Ptr(_) => {
                self.err(loc, "a pointer used as a number (pointer arithmetic beyond indexing)");
                None
            }
            Val::Vector(_) => {
                self.err(loc, "a vector used as a number");
                None
            }
        }
    }

    pub(super) fn ptr(&mut self, v: Option<Val>, loc: Option<Loc>) -> Option<Ptr> {
        match v? {
            Val::Ptr(p) => Some(p),
            Val::Scalar(_) | Val::Vector(_) => {
                self.err(loc, "an integer used as a pointer");
                None
            }
        }
    }

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

    /// A bv32 index expression (GEP indices are signed; wider ones are truncated as the
    /// 32-bit address arithmetic does).
    fn index32(&mut self, e: &Ex) -> String {
        match e.ty.width() {
            32 => e.text.clone(),
            w if w > 32 => format!("{}[32:0]", e.text),
            w => self.decls.sext(&e.text, w, 32),
        }
    }

    fn gep(
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

    fn store(&mut self, f: &Frame<'m>, s: &inst::Store, loc: Option<Loc>) {
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
    fn points_into_several(&mut self, f: &Frame<'m>, address: &Operand, loc: Option<Loc>) -> bool {
        matches!(self.operand(f, address, loc), Some(Val::Ptr(Ptr { alt: Some(_), .. })))
    }

    /// A load through a pointer into one of several objects: one branch per object.
    fn load_from_several(&mut self, f: &mut Frame<'m>, l: &'m inst::Load, loc: Option<Loc>) {
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

    /// The value of an instruction without effects (in a clause when `spec` is its block).
    pub(super) fn value_of(
        &mut self,
        f: &Frame<'m>,
        i: &'m Instruction,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        if let Some(v) = self.aggregate_value(f, i, spec, loc) {
            return v;
        }
        if let Some(v) = self.vector_value(f, i, spec, loc) {
            return v;
        }
        use Instruction as I;
        if let Some((op, x, y)) = int_binop(i) {
            let (a, b) = self.scalar_pair(f, x, y, spec, loc)?;
            return self.binop(op, a, b, loc).map(Val::Scalar);
        }
        if let Some((op, x, y)) = float_binop(i) {
            let (a, b) = self.scalar_pair(f, x, y, spec, loc)?;
            return Some(Val::Scalar(self.fop(op, &[a, b], None)));
        }
        if let Some((op, x, to)) = float_conversion(i) {
            let a = self.scalar_arg(f, x, spec, loc)?;
            return self.conv(op, a, to).map(Val::Scalar);
        }
        let e = match i {
            I::FNeg(x) => {
                let a = self.scalar_arg(f, &x.operand, spec, loc)?;
                self.fop("FNEG", &[a], None)
            }
            I::FCmp(x) => self.fcmp_value(f, x, spec, loc)?,
            I::ICmp(x) => {
                let a = self.arg(f, &x.operand0, spec, loc)?;
                let b = self.arg(f, &x.operand1, spec, loc)?;
                self.icmp(x.predicate, a, b, loc)?
            }
            I::Trunc(x) => trunc(self.scalar_arg(f, &x.operand, spec, loc)?, &x.to_type)?,
            I::ZExt(x) => zext(self.scalar_arg(f, &x.operand, spec, loc)?, &x.to_type)?,
            I::SExt(x) => self.sext_value(f, x, spec, loc)?,
            I::BitCast(x) => return self.bitcast_value(f, x, spec, loc),
            I::AddrSpaceCast(x) => return self.arg(f, &x.operand, spec, loc),
            I::Freeze(x) => return self.arg(f, &x.operand, spec, loc),
            I::Select(x) => return self.select_value(f, x, spec, loc),
            I::GetElementPtr(g) => {
                let base = self.arg(f, &g.address, spec, loc);
                let base = self.ptr(base, loc)?;
                return self.gep(f, base, &g.indices, &g.source_element_type, spec, loc).map(Val::Ptr);
            }
            I::Load(l) if self.loads_pointer(l) => return self.load_pointer_value(f, l, spec, loc),
            I::Load(l) => self.load_value(f, l, spec, loc)?,
            I::Call(c) => self.call_value(f, c, spec, loc)?,
            I::PtrToInt(x) => self.pointer_to_int(f, x, spec, loc)?,
            I::IntToPtr(x) => {
                // A number made a pointer points into no object (an access through it fails).
                let e = self.scalar_arg(f, &x.operand, spec, loc)?;
                let e = self.index32(&e);
                return Some(Val::Ptr(Ptr::null(Lin::term(e, 1))));
            }
            other => {
                self.err(loc, format!("unsupported instruction `{}`", first_word(other)));
                return None;
            }
        };
        Some(Val::Scalar(e))
    }

    /// The scalar value of an operand.
    fn scalar_arg(&mut self, f: &Frame<'m>, op: &Operand, spec: Option<usize>, loc: Option<Loc>) -> Option<Ex> {
        let v = self.arg(f, op, spec, loc);
        self.scalar(v, loc)
    }

    /// The scalar values of two operands, the first translated first.
    fn scalar_pair(
        &mut self,
        f: &Frame<'m>,
        x: &Operand,
        y: &Operand,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<(Ex, Ex)> {
        let a = self.scalar_arg(f, x, spec, loc)?;
        let b = self.scalar_arg(f, y, spec, loc)?;
        Some((a, b))
    }

    /// A floating-point comparison: an uninterpreted predicate, or a constant.
    fn fcmp_value(&mut self, f: &Frame<'m>, x: &inst::FCmp, spec: Option<usize>, loc: Option<Loc>) -> Option<Ex> {
        let (a, b) = self.scalar_pair(f, &x.operand0, &x.operand1, spec, loc)?;
        Some(match x.predicate {
            llvm_ir::FPPredicate::False => Ex::new("false".into(), Ty::Bool),
            llvm_ir::FPPredicate::True => Ex::new("true".into(), Ty::Bool),
            p => self.fop(&format!("FCMP_{}", format!("{p}").to_uppercase()), &[a, b], Some(Ty::Bool)),
        })
    }

    /// A sign extension (of a boolean: all ones or zero).
    fn sext_value(&mut self, f: &Frame<'m>, x: &inst::SExt, spec: Option<usize>, loc: Option<Loc>) -> Option<Ex> {
        let a = self.scalar_arg(f, &x.operand, spec, loc)?;
        let w = lane_ty(&x.to_type)?.width();
        Some(match a.ty {
            Ty::Bool => {
                // All ones is `0 - 1`.
                let sub = self.decls.bvop("SUB", w);
                Ex::new(format!("(if {} then {sub}(0bv{w}, 1bv{w}) else 0bv{w})", a.text), Ty::Bv(w))
            }
            t => {
                let text = self.decls.sext(&a.text, t.width(), w);
                Ex::new(text, Ty::Bv(w))
            }
        })
    }

    /// A bit cast: pointers stay, scalars of one width change their type.
    fn bitcast_value(
        &mut self,
        f: &Frame<'m>,
        x: &inst::BitCast,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Val> {
        match self.arg(f, &x.operand, spec, loc)? {
            Val::Ptr(p) => Some(Val::Ptr(p)),
            Val::Vector(_) => {
                self.err(loc, "a bit cast of a whole vector");
                None
            }
            Val::Scalar(e) => match lane_ty(&x.to_type) {
                Some(t) if t.width() == e.ty.width() && t != Ty::Bool => Some(Val::Scalar(Ex::new(e.text, t))),
                _ => {
                    self.err(loc, "a bit cast between types of different shapes (vectors, aggregates)");
                    None
                }
            },
        }
    }

    /// A `select` of scalars or of pointers (into one object, or into several with a selector).
    fn select_value(&mut self, f: &Frame<'m>, x: &inst::Select, spec: Option<usize>, loc: Option<Loc>) -> Option<Val> {
        let c = self.scalar_arg(f, &x.condition, spec, loc)?;
        let c = bool_ex(&c);
        let a = self.arg(f, &x.true_value, spec, loc)?;
        let b = self.arg(f, &x.false_value, spec, loc)?;
        match (a, b) {
            (Val::Scalar(a), Val::Scalar(b)) => {
                Some(Val::Scalar(Ex::new(format!("(if {c} then {} else {})", a.text, b.text), a.ty)))
            }
            (Val::Ptr(p), Val::Ptr(q)) if p.base == q.base && p.alt.is_none() && q.alt.is_none() => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let off = Lin::term(format!("(if {c} then {pe} else {qe})"), 1);
                Some(Val::Ptr(Ptr::to(p.base, off)))
            }
            (Val::Ptr(p), Val::Ptr(q)) => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let off = Lin::term(format!("(if {c} then {pe} else {qe})"), 1);
                let mut cands = p.cands();
                cands.extend(q.cands().into_iter().filter(|x| !p.cands().contains(x)));
                let sel = format!("(if {c} then {} else {})", p.sel(), q.sel());
                Some(Val::Ptr(Ptr { base: p.base, off, alt: Some(Alt { sel, cands }) }))
            }
            _ => {
                self.err(loc, "a pointer that may point into different memory objects");
                None
            }
        }
    }

    /// A non-atomic load of a scalar.
    fn load_value(&mut self, f: &Frame<'m>, l: &'m inst::Load, spec: Option<usize>, loc: Option<Loc>) -> Option<Ex> {
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

    fn binop(&mut self, op: &str, a: Ex, b: Ex, loc: Option<Loc>) -> Option<Ex> {
        match a.ty {
            Ty::Bool => {
                let t = match op {
                    "AND" => format!("({} && {})", a.text, b.text),
                    "OR" => format!("({} || {})", a.text, b.text),
                    "XOR" => format!("({} != {})", a.text, b.text),
                    _ => {
                        self.err(loc, "arithmetic on 1-bit values");
                        return None;
                    }
                };
                Some(Ex::new(t, Ty::Bool))
            }
            t => {
                let fname = self.decls.bvop(op, t.width());
                Some(Ex::new(format!("{fname}({}, {})", a.text, b.text), Ty::Bv(t.width())))
            }
        }
    }

    /// An uninterpreted floating-point operation, as GPUVerify encodes floats.
    fn fop(&mut self, op: &str, args: &[Ex], result: Option<Ty>) -> Ex {
        let w = args.first().map_or(32, |a| a.ty.width());
        let name = format!("{op}{w}");
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let result = result.unwrap_or(Ty::Float(w));
        let name = self.decls.uninterpreted(&name, &tys, result);
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Ex::new(format!("{name}({})", texts.join(", ")), result)
    }

    fn conv(&mut self, op: &str, a: Ex, to: &TypeRef) -> Option<Ex> {
        let t = lane_ty(to)?;
        let name = format!("{op}{}_{}", a.ty.width(), t.width());
        let name = self.decls.uninterpreted(&name, &[a.ty], t);
        Some(Ex::new(format!("{name}({})", a.text), t))
    }

    fn icmp(&mut self, pred: IntPredicate, a: Val, b: Val, loc: Option<Loc>) -> Option<Ex> {
        let (a, b) = match (a, b) {
            (Val::Scalar(a), Val::Scalar(b)) => (a, b),
            (Val::Ptr(p), Val::Ptr(q)) if p.base == q.base && p.alt.is_none() && q.alt.is_none() => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                (Ex::new(pe, Ty::Bv(32)), Ex::new(qe, Ty::Bv(32)))
            }
            (Val::Ptr(p), Val::Ptr(q)) if matches!(pred, IntPredicate::EQ | IntPredicate::NE) => {
                let pe = p.off.expr(&mut self.decls.needs_fn());
                let qe = q.off.expr(&mut self.decls.needs_fn());
                let eq = format!("({} == {} && {pe} == {qe})", p.sel(), q.sel());
                let text = if pred == IntPredicate::EQ { eq } else { format!("!{eq}") };
                return Some(Ex::new(text, Ty::Bool));
            }
            (Val::Ptr(p), Val::Ptr(q)) => {
                return Some(match self.null_ordering(pred, &p, &q) {
                    Some(e) => e,
                    None => self.unrelated_ordering(pred, &p, &q),
                });
            }
            _ => {
                self.err(loc, "an ordering comparison of pointers into different memory objects");
                return None;
            }
        };
        // `x != 0` and `x == 0` on an int that encodes a boolean fold back to the boolean.
        let zero = |e: &Ex| e.text == format!("0bv{}", e.ty.width());
        if let (Some(bo), true) = (&a.bool_of, zero(&b)) {
            match pred {
                IntPredicate::NE => return Some(Ex::new(bo.clone(), Ty::Bool)),
                IntPredicate::EQ => return Some(Ex::new(format!("!{bo}"), Ty::Bool)),
                _ => {}
            }
        }
        let op = match pred {
            IntPredicate::EQ => return Some(Ex::new(format!("({} == {})", a.text, b.text), Ty::Bool)),
            IntPredicate::NE => return Some(Ex::new(format!("({} != {})", a.text, b.text), Ty::Bool)),
            ordering => ordering_name(ordering),
        };
        if a.ty == Ty::Bool {
            self.err(loc, "an ordering comparison of 1-bit values");
            return None;
        }
        let fname = self.decls.bvop(op, a.ty.width());
        Some(Ex::new(format!("{fname}({}, {})", a.text, b.text), Ty::Bool))
    }

    /// The value of a call to an external function that computes a value.
    fn call_value(&mut self, f: &Frame<'m>, c: &'m inst::Call, spec: Option<usize>, loc: Option<Loc>) -> Option<Ex> {
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
                Some(Ex::new(t, Ty::Bv(32)))
            }
            Builtin::GlobalSize => {
                let d = arg_dim()?;
                let mul = self.decls.bvop("MUL", 32);
                Some(Ex::new(format!("{mul}({}, {})", id("group_size", d), id("num_groups", d)), Ty::Bv(32)))
            }
            Builtin::GlobalOffset => Some(Ex::new("0bv32".into(), Ty::Bv(32))),
            _ => Some(match self.facts.work_dim {
                Some(d) => Ex::new(format!("{d}bv32"), Ty::Bv(32)),
                None => {
                    let f = self.decls.uninterpreted("$work_dim", &[], Ty::Bv(32));
                    Ex::new(format!("{f}()"), Ty::Bv(32))
                }
            }),
        }
    }

    /// An annotation used as a value (`__other`, `__implies`, `__read`, …), of width `w` when
    /// it is a truth value turned into an integer.
    fn spec_value(
        &mut self,
        f: &Frame<'m>,
        c: &'m inst::Call,
        s: Spec,
        name: &str,
        spec: Option<usize>,
        loc: Option<Loc>,
    ) -> Option<Ex> {
        let w = scalar_ty(&self.module.type_of(c)).map_or(32, |t| t.width());
        let mut args = Vec::new();
        for (op, _) in &c.arguments {
            args.push(self.arg(f, op, spec, loc)?);
        }
        // The annotations of numbers say so when given a pointer or a vector, rather
        // than leave the value undefined.
        let of_memory = matches!(
            s,
            Spec::Read
                | Spec::Write
                | Spec::ReadOffsetBytes
                | Spec::WriteOffsetBytes
                | Spec::PtrOffsetBytes
                | Spec::AtomicHasTakenValue
        );
        if !of_memory && s != Spec::EqualFloats && args.iter().any(|a| !matches!(a, Val::Scalar(_))) {
            self.err(loc, format!("`{}` takes numbers, and is given a pointer or a vector", builtins::demangle(name)));
            return None;
        }
        match s {
            Spec::ReturnVal if f.ret.is_none() && !self.facts.uncalled => {
                self.err(loc, "`__return_val_*()` in a kernel, which returns nothing");
                None
            }
            Spec::ReturnVal => Some(Ex::new(RETURN_VAL.into(), Ty::Bv(w))),
            Spec::Old => self.old_value(f, c, &args, loc),
            Spec::Read | Spec::Write | Spec::ReadOffsetBytes | Spec::WriteOffsetBytes | Spec::AtomicHasTakenValue
                if spec.is_none() =>
            {
                Some(self.access_annotation_in_code(s, w, loc))
            }
            Spec::AtomicHasTakenValue => self.taken_annotation(&args, w, loc),
            _ if of_memory => self.memory_annotation(s, &args, w, loc),
            _ => self.logic_annotation(s, &args, w, loc),
        }
    }

    /// `__old_int`/`__old_bool`: a parameter's or constant's value never changes, so at the
    /// entry it is what it is now; of anything else (memory: GPUVerify's
    /// specification_tests/pass/value_related_spec) the value at the function's entry.
    fn old_value(&mut self, f: &Frame<'m>, c: &inst::Call, args: &[Val], loc: Option<Loc>) -> Option<Ex> {
        let fixed = match c.arguments.first().map(|a| &a.0) {
            Some(Operand::LocalOperand { name, .. }) => f.func.parameters.iter().any(|p| &p.name == name),
            Some(Operand::ConstantOperand(_)) => true,
            _ => false,
        };
        if fixed {
            return scalar_at(args, 0);
        }
        let e = scalar_at(args, 0)?;
        if f.ret.is_none() && !self.facts.uncalled && !self.objects.mentions_private(&e.text) {
            // A kernel's postcondition (a clause of the procedure): Boogie's `old` is the
            // kernel's entry state, of the global maps (private ones are locals, which `old`
            // does not go back for).
            return Some(Ex::new(format!("old({})", e.text), e.ty));
        }
        // Inlined, or a function checked on its own (its postconditions are assertions at its
        // returns): the value at the function's entry, taken where the clause is written,
        // provided nothing before it in the function may have written memory.
        let block0 = &f.func.basic_blocks[0].instrs;
        let pos = block0.iter().position(|i| matches!(i, Instruction::Call(x) if std::ptr::eq(x, c)));
        let barrier = |i: &Instruction| matches!(i, Instruction::Call(x) if matches!(call_name(x).and_then(builtins::classify), Some(Builtin::Barrier | Builtin::FixedBarrier(..))));
        if pos.is_none_or(|p| block0[..p].iter().any(barrier)) || !no_store_before(f, c) {
            self.err(loc, "`__old_int`/`__old_bool` of memory after the function may have written it (write it first in the function)");
            return None;
        }
        let v = self.body.fresh_var("old", &e.ty.kbpl());
        self.body.emit(format!("{v} := {};", e.text), loc);
        Some(Ex::new(v, e.ty))
    }

    /// The annotations of numbers and truth values (`__all`, `__implies`, `__other`, …).
    fn logic_annotation(&mut self, s: Spec, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        let scalar = |k: usize| scalar_at(args, k);
        let b = match s {
            Spec::All => {
                let b = bool_ex(&scalar(0)?);
                format!("({b} && __other({b}))")
            }
            Spec::Exclusive => {
                let b = bool_ex(&scalar(0)?);
                format!("!({b} && __other({b}))")
            }
            Spec::Implies => format!("({} ==> {})", bool_ex(&scalar(0)?), bool_ex(&scalar(1)?)),
            Spec::Enabled => "__enabled()".into(),
            Spec::Uniform => format!("__uniform({})", scalar(0)?.text),
            Spec::Other => return Some(Ex::new(format!("__other({})", scalar(0)?.text), scalar(0)?.ty)),
            Spec::Distinct => format!("({0} != __other({0}))", scalar(0)?.text),
            Spec::EqualFloats => self.equal_lanes(args.first(), args.get(1), loc)?,
            Spec::Ite => {
                let (c, a, b) = (scalar(0)?, scalar(1)?, scalar(2)?);
                return Some(Ex::new(format!("(if {} then {} else {})", bool_ex(&c), a.text, b.text), a.ty));
            }
            _ => {
                self.err(loc, "an annotation used as a value");
                return None;
            }
        };
        Some(bool_to_int(b, w))
    }

    /// An access annotation (`__read(p)`, `__write_offset_bytes(p)`, `__atomic_has_taken_value`, …) computed by the code
    /// rather than in a specification: an argument of a function (`baz(__read_offset_bytes(r))`,
    /// GPUVerify's OpenCL/misc/pass/misc9), a local's value, or the code clang keeps for the
    /// operands of an `__invariant`. In GPUVerify it reads the race-checking instrumentation's
    /// state, which the program itself has no business depending on; here it is an arbitrary
    /// value (a truth value for `__read`/`__write`), which covers whatever that state is.
    fn access_annotation_in_code(&mut self, s: Spec, w: u32, loc: Option<Loc>) -> Ex {
        let offset = matches!(s, Spec::ReadOffsetBytes | Spec::WriteOffsetBytes);
        let v = self.body.fresh_var("access_annotation", if offset { "bv32" } else { "bool" });
        self.body.emit(format!("havoc {v};"), loc);
        if offset {
            Ex::new(v, Ty::Bv(32))
        } else {
            bool_to_int(v, w)
        }
    }

    /// The annotations of memory accesses and pointers (`__read`, `__write_offset_bytes`,
    /// `__ptr_offset_bytes`, …). Pointers are resolved statically, so their offset is an
    /// expression; an access annotation of a pointer into one of several objects (`r = x ? p :
    /// q`, OpenCL/misc/pass/misc9) is the annotation of the object it points into, chosen by
    /// the pointer's selector as its accesses are.
    fn memory_annotation(&mut self, s: Spec, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        if s == Spec::PtrOffsetBytes {
            // A pointer into one of several objects has one offset, whichever it points into.
            let Some(Val::Ptr(p)) = args.first() else {
                self.err(loc, "`__ptr_offset_bytes` of something that is not a pointer");
                return None;
            };
            return Some(Ex::new(p.off.expr(&mut self.decls.needs_fn()), Ty::Bv(32)));
        }
        let offset = matches!(s, Spec::ReadOffsetBytes | Spec::WriteOffsetBytes);
        // The pointer argument of an access annotation: into memory objects, never null.
        let p = match args.first() {
            Some(Val::Ptr(p)) if p.cands().iter().all(|&c| self.objects.space_of(c).is_some()) => p.clone(),
            _ if offset => {
                self.err(
                    loc,
                    "an offset annotation of something that is not a pointer into memory objects (it may be null)",
                );
                return None;
            }
            _ => {
                self.err(
                    loc,
                    "`__read`/`__write` of something that is not a pointer into memory objects (it may be null)",
                );
                return None;
            }
        };
        let mut per_object: Vec<(usize, String)> = Vec::new();
        for c in p.cands() {
            let name = self.objects.bases[c].name.clone();
            let text = match s {
                Spec::ReadOffsetBytes | Spec::WriteOffsetBytes => {
                    let kw = if s == Spec::ReadOffsetBytes { "__read_offset" } else { "__write_offset" };
                    // The element size is known once the object's accesses are seen.
                    format!("{}({kw}({name}), {WIDTH_MARK}{c}bv32)", self.decls.bvop("MUL", 32))
                }
                _ => format!("{}({name})", if s == Spec::Read { "__read" } else { "__write" }),
            };
            per_object.push((c, text));
        }
        let (_, last) = per_object.pop()?;
        let text = match &p.alt {
            Some(alt) => per_object
                .into_iter()
                .rev()
                .fold(last, |acc, (c, t)| format!("(if {} == {c}bv32 then {t} else {acc})", alt.sel)),
            None => last,
        };
        Some(if offset { Ex::new(text, Ty::Bv(32)) } else { bool_to_int(text, w) })
    }

    /// GPUVerify's `__atomic_has_taken_value(p, offset_bytes, v)`: KBPL's `__taken(A, i, v)`
    /// (docs/kbpl.md §5.2) of the element `offset_bytes` bytes past `p`, the offset and the
    /// value as 32-bit numbers (the element index and counter types of the memory model).
    fn taken_annotation(&mut self, args: &[Val], w: u32, loc: Option<Loc>) -> Option<Ex> {
        let (Some(Val::Ptr(p @ Ptr { alt: None, .. })), Some(off), Some(v)) =
            (args.first(), scalar_at(args, 1), scalar_at(args, 2))
        else {
            self.err(loc, "`__atomic_has_taken_value` of something that is not a pointer to one memory object");
            return None;
        };
        let as32 = |e: Ex| match e.ty {
            Ty::Bv(32) => Some(e.text),
            Ty::Bv(n) if n > 32 => Some(format!("{}[32:0]", e.text)),
            Ty::Bv(n) => Some(format!("(0bv{} ++ {})", 32 - n, e.text)),
            _ => None,
        };
        let (Some(off), Some(v)) = (as32(off), as32(v)) else {
            self.err(loc, "`__atomic_has_taken_value` of an offset or value that is not an integer");
            return None;
        };
        let (c, name) = (p.base, self.objects.bases[p.base].name.clone());
        let start = p.off.expr(&mut self.decls.needs_fn());
        let bytes = format!("{}({start}, {off})", self.decls.bvop("ADD", 32));
        let index = format!("{}({bytes}, {WIDTH_MARK}{c}bv32)", self.decls.bvop("UDIV", 32));
        Some(bool_to_int(format!("__taken({name}, {index}, {v})"), w))
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
        let fname = format!("$ext.{}", global_name(name));
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let fname = self.decls.uninterpreted(&fname, &tys, ret);
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Some(Ex::new(format!("{fname}({})", texts.join(", ")), ret))
    }

    /// The value `e` computed by an instruction, as later uses read it: a value fixed for the
    /// whole run of a thread (ids, sizes, parameters and arithmetic on them) stays an
    /// expression, so that invariant inference sees `A[get_global_id(0)]` as an access at a
    /// fixed offset even inside a loop; any other is assigned to the variable `v`.
    pub(super) fn bind(&mut self, v: String, e: Ex, loc: Option<Loc>) -> Ex {
        if e.text.len() <= 160 && self.facts.is_fixed(&e.text) {
            return e;
        }
        self.body.declare(v.clone(), e.ty.kbpl());
        self.body.emit(format!("{v} := {};", e.text), loc);
        Ex { text: v, ty: e.ty, bool_of: e.bool_of }
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
        Constant::Vector(_) | Constant::AggregateZero(_) => vectors::constant_lanes(c).map(|l| out.extend(l)).is_some(),
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

/// The message of the assertion that a write to constant memory becomes (GPUVerify's wording).
pub(super) const CONSTANT_WRITE: &str = "possible attempt to modify constant memory";

/// The opcode of an instruction, for messages.
pub(super) fn first_word(i: &Instruction) -> String {
    let s = format!("{i}");
    let s = s.split_once(" = ").map_or(s.as_str(), |p| p.1).to_string();
    s.split_whitespace().next().unwrap_or("?").to_string()
}

/// The `{:bvbuiltin}` operation of an integer binary instruction, with its operands.
fn int_binop(i: &Instruction) -> Option<(&'static str, &Operand, &Operand)> {
    use Instruction as I;
    Some(match i {
        I::Add(x) => ("ADD", &x.operand0, &x.operand1),
        I::Sub(x) => ("SUB", &x.operand0, &x.operand1),
        I::Mul(x) => ("MUL", &x.operand0, &x.operand1),
        I::UDiv(x) => ("UDIV", &x.operand0, &x.operand1),
        I::SDiv(x) => ("SDIV", &x.operand0, &x.operand1),
        I::URem(x) => ("UREM", &x.operand0, &x.operand1),
        I::SRem(x) => ("SREM", &x.operand0, &x.operand1),
        I::And(x) => ("AND", &x.operand0, &x.operand1),
        I::Or(x) => ("OR", &x.operand0, &x.operand1),
        I::Xor(x) => ("XOR", &x.operand0, &x.operand1),
        I::Shl(x) => ("SHL", &x.operand0, &x.operand1),
        I::LShr(x) => ("LSHR", &x.operand0, &x.operand1),
        I::AShr(x) => ("ASHR", &x.operand0, &x.operand1),
        _ => return None,
    })
}

/// The uninterpreted operation of a floating-point binary instruction, with its operands.
fn float_binop(i: &Instruction) -> Option<(&'static str, &Operand, &Operand)> {
    use Instruction as I;
    Some(match i {
        I::FAdd(x) => ("FADD", &x.operand0, &x.operand1),
        I::FSub(x) => ("FSUB", &x.operand0, &x.operand1),
        I::FMul(x) => ("FMUL", &x.operand0, &x.operand1),
        I::FDiv(x) => ("FDIV", &x.operand0, &x.operand1),
        I::FRem(x) => ("FREM", &x.operand0, &x.operand1),
        _ => return None,
    })
}

/// The uninterpreted conversion of a floating-point cast, with its operand and target type.
fn float_conversion(i: &Instruction) -> Option<(&'static str, &Operand, &TypeRef)> {
    use Instruction as I;
    Some(match i {
        I::FPTrunc(x) => ("FPTRUNC", &x.operand, &x.to_type),
        I::FPExt(x) => ("FPEXT", &x.operand, &x.to_type),
        I::FPToUI(x) => ("FP2UI", &x.operand, &x.to_type),
        I::FPToSI(x) => ("FP2SI", &x.operand, &x.to_type),
        I::UIToFP(x) => ("UI2FP", &x.operand, &x.to_type),
        I::SIToFP(x) => ("SI2FP", &x.operand, &x.to_type),
        _ => return None,
    })
}

/// An integer truncation (to `i1`: a boolean).
fn trunc(a: Ex, to: &TypeRef) -> Option<Ex> {
    Some(match lane_ty(to)? {
        Ty::Bool => Ex::new(format!("({}[1:0] == 1bv1)", a.text), Ty::Bool),
        t => Ex::new(format!("{}[{}:0]", a.text, t.width()), t),
    })
}

/// A zero extension (of a boolean: one or zero).
fn zext(a: Ex, to: &TypeRef) -> Option<Ex> {
    let w = lane_ty(to)?.width();
    Some(match a.ty {
        Ty::Bool => bool_to_int(a.text, w),
        t => Ex::new(format!("(0bv{} ++ {})", w - t.width(), a.text), Ty::Bv(w)),
    })
}

/// The `k`th argument of an annotation when it is a number or truth value.
fn scalar_at(args: &[Val], k: usize) -> Option<Ex> {
    match args.get(k) {
        Some(Val::Scalar(e)) => Some(e.clone()),
        _ => None,
    }
}

/// Whether nothing before the call `c` in the function's entry block may write memory: no
/// store, and no call other than of the built-ins (work-item functions, annotations).
fn no_store_before(f: &Frame, c: &inst::Call) -> bool {
    f.func.basic_blocks[0].instrs.iter().take_while(|i| !matches!(i, Instruction::Call(x) if std::ptr::eq(x, c))).all(
        |i| match i {
            Instruction::Store(_) => false,
            Instruction::Call(x) => call_name(x).and_then(builtins::classify).is_some(),
            _ => true,
        },
    )
}

/// The name of the bit-vector comparison of an ordering predicate (`ULT` of `BV32_ULT`);
/// `SGE` for the equalities, which callers handle before.
pub(super) fn ordering_name(pred: IntPredicate) -> &'static str {
    match pred {
        IntPredicate::ULT => "ULT",
        IntPredicate::ULE => "ULE",
        IntPredicate::UGT => "UGT",
        IntPredicate::UGE => "UGE",
        IntPredicate::SLT => "SLT",
        IntPredicate::SLE => "SLE",
        IntPredicate::SGT => "SGT",
        _ => "SGE",
    }
}

/// A clause `b` for the work-items a branch disabled too, as the clauses to check where either
/// thread of the pair is: `b` for this thread and `__other(b)` for the other one. One clause
/// `b && __other(b)` when `b` has no access annotation; two when it has: the access logs are
/// the first thread's only (docs/kbpl.md §5.2), so a clause that reads them is read in that
/// thread only and would vanish from a conjunction with the other thread's reading. Apart,
/// `b` is checked when the first thread calls and `__other(b)` (the first thread's `b`) when
/// the second does: the first thread is arbitrary, so every work-item's log is checked,
/// whether or not it calls (OpenCL/annotation_tests/global_ensures).
fn for_both_threads(b: &str) -> Vec<String> {
    if b.contains("__read") || b.contains("__write") {
        vec![b.to_string(), format!("__other({b})")]
    } else {
        vec![format!("({b} && __other({b}))")]
    }
}

/// The message of a device-side `assert(e)` whose `e` may be false.
const ASSERT_FAIL: &str = "this assert() might fail";

/// The key under which CUDA's dynamic shared memory (all unsized `extern __shared__` arrays) is
/// known among the global bases; not a name a variable can have.
const DYNAMIC_SHARED: &str = "extern __shared__";

/// Whether a global's type (a pointer to its value) is an array of no elements (`T a[]`).
fn is_unsized_array(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), Type::PointerType { pointee_type, .. }
        if matches!(pointee_type.as_ref(), Type::ArrayType { num_elements: 0, .. }))
}

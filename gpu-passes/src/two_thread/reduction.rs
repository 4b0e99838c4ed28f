//! The two-thread reduction of one kernel, seed 001 §4.1 (Tables 4.1-4.3), built as the
//! lock-step construction of seed 000 (Table 3) for `TS = 2` over the predicated kernel
//! (`crate::predication`, `crate::lockstep`): one construction, parameterised by how shared
//! state is modelled. Where the lock-step program ψ-assigns shared variables and checks races
//! with exact logs, the two-thread program
//!
//! - keeps one copy of every uniform value (`super::uniformity`; Table 4.2's `x$1`/`x$2` only
//!   for the others) and, when no branch depends on the thread, one `v_active`;
//! - abstracts the shared state (`super::abstraction`) and instruments every access with
//!   thread 1's log and thread 2's check (`super::race_instrumentation`, §4.2);
//! - checks divergence, empties logs, havocs the shared state and checks / assumes barrier
//!   invariants at barriers (`super::barriers`, `super::barrier_invariants`);
//! - reads every assertion, invariant and contract once per thread
//!   (`super::spec_builtins`), naming the thread in the error message.
//!
//! At each loop header it adds two checked invariants: where each thread can be
//! (`PredicatedImpl::header_positions`), and, for a loop the uniformity analysis found
//! uniform, that both threads are in the loop or neither is.

use super::abstraction::{self, marker_group, Model};
use super::barrier_invariants::Views;
use super::exprs::*;
use super::race_instrumentation::{AccessKind, CheckScope, Logs, ThreadAccess, WarpSync};
use super::spec_builtins::{self, for_thread, SpecEnv};
use super::uniformity;
use super::KernelOptions;
use crate::lockstep::{lockstep_impl, Access, Instrument, KernelCtx, SharedVar, Threads};
use crate::predication::{predicate_preprocessed, FreshNames, PredicatedImpl};
use crate::preprocess::preprocess;
use ivl::ast::*;
use ivl::blocks::{check_kind, BlockImpl};
use ivl::diag::Diagnostic;
use ivl::resolve::MemSpace;
use ivl::visit::strip_spans;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

/// The instrumentation of one kernel in one variant (the lock-step construction's hook).
pub(crate) struct Instr {
    /// The threads are in different groups.
    pub inter: bool,
    pub benign: bool,
    /// `KernelOptions::asymmetric_asserts`.
    pub asymmetric: bool,
    /// Restricts race and divergence checks to two distinct threads, when the two modelled
    /// threads may be one (a group of one thread).
    pub guard: Option<Expr>,
    /// `--warp-sync`: "the two threads are in the same warp" (see `race_instrumentation`).
    pub same_warp: Option<Expr>,
    pub groups: Vec<Vec<Access>>,
    pub logs: BTreeMap<Name, Logs>,
    /// Arrays whose races are checked.
    pub checked: HashSet<Name>,
    pub shared: HashMap<Name, SharedVar>,
    /// Arrays with one copy per thread, and their copies.
    pub copies: HashMap<Name, Vec<Name>>,
    /// Arrays with one (modelled) copy.
    pub single: HashSet<Name>,
    /// Arrays no thread writes (`abstraction::read_only`): barriers keep their values.
    pub read_only: HashSet<Name>,
    /// Arrays whose reads are neither logged nor checked: no statement writes them (reads
    /// alone never race) and no specification asks about their reads (`__read(A)`).
    pub unlogged_reads: HashSet<Name>,
    pub views: Views,
    pub track: Name,
    pub local_id_x: Name,
    /// Its type (for the barrier invariants' candidates at loop headers).
    pub local_id_x_ty: Type,
    /// `local_id_x` names a thread of the group (`Identity::local_id_x_valid`).
    pub local_id_x_valid: Expr,
    pub uniform_headers: HashSet<Name>,
    pub active: Name,
    pub active_single: bool,
    /// In the leading asserts (the invariants) of a loop header.
    pub header_prefix: bool,
    /// Per loop header, facts about one thread (over the unrenamed names) that are invariants
    /// of the lock-step loop for each thread: see [`path_facts`].
    pub header_facts: HashMap<Name, Vec<Expr>>,
    /// Facts about the logged write values that hold everywhere (`Logs::fixed_write_values`),
    /// checked invariants of every loop.
    pub write_values: Vec<Expr>,
    /// Per loop header, "some thread is at the header" (filled in by `at_header`, used by
    /// [`bypass_loops`]).
    pub some_in: Rc<RefCell<HashMap<Name, Expr>>>,
}

/// Reading specifications inside the kernel body.
pub(crate) struct Env<'a> {
    th: &'a Threads,
    logs: &'a BTreeMap<Name, Logs>,
}

impl SpecEnv for Env<'_> {
    fn phi(&self, e: &Expr, t: usize) -> Expr {
        self.th.phi(e, t)
    }
    fn log_builtin(&self, builtin: &str, array: &Name) -> Option<Expr> {
        self.logs.get(array)?.builtin(builtin)
    }
}

/// Reading specifications outside the body (kernel contracts), with explicit copies.
pub(crate) struct CopiesEnv<'a> {
    pub substs: [HashMap<Name, Expr>; 2],
    pub logs: &'a BTreeMap<Name, Logs>,
}

impl CopiesEnv<'_> {
    pub fn new<'a>(copies: &HashMap<Name, Vec<Name>>, logs: &'a BTreeMap<Name, Logs>) -> CopiesEnv<'a> {
        let subst = |t: usize| copies.iter().map(|(k, v)| (k.clone(), var(&v[t]))).collect();
        CopiesEnv { substs: [subst(0), subst(1)], logs }
    }
}

impl SpecEnv for CopiesEnv<'_> {
    fn phi(&self, e: &Expr, t: usize) -> Expr {
        ivl::visit::substitute(e, &self.substs[t])
    }
    fn log_builtin(&self, builtin: &str, array: &Name) -> Option<Expr> {
        self.logs.get(array)?.builtin(builtin)
    }
}

/// Both threads' readings of `e`, without duplicates (a uniform expression is read once).
pub(crate) fn per_thread(env: &dyn SpecEnv, e: &Expr) -> Vec<(usize, Expr)> {
    let mut out: Vec<(usize, Expr)> = Vec::new();
    let mut seen: Vec<Expr> = Vec::new();
    for t in 0..2 {
        if let Some(x) = for_thread(env, e, t) {
            let mut key = x.clone();
            strip_spans(&mut key);
            if !seen.contains(&key) {
                seen.push(key);
                out.push((t, x));
            }
        }
    }
    out
}

impl Instr {
    pub(crate) fn env<'a>(&'a self, kc: &'a KernelCtx) -> Env<'a> {
        Env { th: &kc.th, logs: &self.logs }
    }

    pub(crate) fn note(&self) -> &'static str {
        if self.inter {
            " (the two threads are in different groups)"
        } else {
            ""
        }
    }

    fn thread_access(&self, kc: &KernelCtx, a: &Access, t: usize) -> ThreadAccess {
        let read = |e: &Expr| self.read_in(kc, e, t);
        ThreadAccess {
            pc: read(&a.cond),
            loc: a.loc.iter().map(read).collect(),
            value: a.value.as_ref().map(read),
            old: self.logs.get(&a.var).and_then(|l| l.element(&a.loc)).map(|e| read(&e)),
        }
    }

    /// A part of an access read in thread `t`. An access made inside a specification may use
    /// its built-ins (`__assume(A[__other_int(i)] < A[i])` reads `A` at the other thread's
    /// `i`): they are read as in the specification, so that none is left in the program.
    fn read_in(&self, kc: &KernelCtx, e: &Expr, t: usize) -> Expr {
        if spec_builtins::mentions_builtin(e) {
            if let Some(x) = for_thread(&self.env(kc), e, t) {
                return x;
            }
        }
        kc.th.phi(e, t)
    }

    /// The log, check and known-location updates of access group `k`.
    fn access_group(&mut self, kc: &mut KernelCtx, k: usize, out: &mut Vec<Stmt>) {
        let group = self.groups[k].clone();
        let note = self.note();
        let group: Vec<Access> = group
            .into_iter()
            .filter(|a| !(AccessKind::of(a) == AccessKind::Read && self.unlogged_reads.contains(&a.var)))
            .collect();
        for a in &group {
            let kind = AccessKind::of(a);
            let Some(site) = self.logs.get_mut(&a.var).map(|l| l.site(kind, a.span)) else { continue };
            let ta = self.thread_access(kc, a, 0);
            out.extend(self.logs[&a.var].log(kind, site, &ta, &self.track, a.span));
        }
        // With `--warp-sync`, only the accesses of this statement may race with a thread of
        // the same warp.
        let spans: Vec<Span> = group.iter().map(|a| a.span).collect();
        let lockstep = self.same_warp.as_ref().map(|w| WarpSync { same_warp: w, statement: &spans });
        for a in &group {
            if self.checked.contains(&a.var) {
                let l = &self.logs[&a.var];
                let ta = self.thread_access(kc, a, 1);
                let scope =
                    CheckScope { benign: self.benign, guard: self.guard.as_ref(), warp: lockstep.as_ref(), note };
                out.extend(l.checks(AccessKind::of(a), &ta, a.span, &scope));
            }
        }
        // Thread 2's writes of this statement, after its checks (benign write-read pairs).
        for a in &group {
            if let Some(l) = self.logs.get(&a.var) {
                out.extend(l.update(AccessKind::of(a), &self.thread_access(kc, a, 1), a.span));
            }
        }
        for a in &group {
            for t in 0..2 {
                let ta = self.thread_access(kc, a, t);
                out.extend(self.views.record(&a.var, t, &ta.pc, &ta.loc, a.span));
            }
        }
    }

    /// An assertion (or invariant, or a callee's contract) read in each thread.
    ///
    /// A loop invariant holds for each thread whether or not it is still in the loop (as in
    /// GPUVerify, and docs/kbpl.md §5.2): a thread that left the loop is disabled for the rest of it,
    /// so what held when it left still holds. Its predication guard (`v_active == H ==>`) is
    /// dropped; the invariant stays sound, as it is checked exactly as it is assumed.
    fn assert(&self, kc: &KernelCtx, s: &Stmt, invariant: bool, out: &mut Vec<Stmt>) {
        let StmtKind::Assert { attrs, expr } = &s.kind else { unreachable!() };
        let expr = match &expr.kind {
            ExprKind::Binary(BinOp::Implies, g, e)
                if invariant
                    && matches!(&g.kind, ExprKind::Binary(BinOp::Eq, a, _)
                        if matches!(&a.kind, ExprKind::Var(x) if x.name == self.active)) =>
            {
                &**e
            }
            _ => expr,
        };
        let what = match check_kind(attrs) {
            "assertion" => Some("this assertion might not hold"),
            "precondition" => Some("a precondition for this call might not hold"),
            "postcondition" => Some("this postcondition might not hold on a return path"),
            _ => None,
        };
        // `--asymmetric-asserts`: the kernel's own assertions in the first thread only.
        let first_only = self.asymmetric && !invariant && check_kind(attrs) == "assertion";
        for (t, e) in per_thread(&self.env(kc), expr) {
            if first_only && t > 0 {
                continue;
            }
            let mut a = attrs.clone();
            if let Some(w) = what.filter(|_| !invariant && find_attr(attrs, "msg").is_none()) {
                a.push(attr("msg", vec![str_arg(&format!("{w} in thread {}{}", t + 1, self.note()))], s.span));
            }
            out.push(Stmt::new(StmtKind::Assert { attrs: a, expr: e }, s.span));
        }
    }
}

impl Instrument for Instr {
    fn before(&mut self, _: &mut KernelCtx, _: &Stmt, _: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        Ok(())
    }

    fn after_barrier(&mut self, _: &mut KernelCtx, _: &[Attribute], _: &Expr, _: &mut Vec<Stmt>) {}

    fn at_header(&mut self, kc: &mut KernelCtx, pred: &PredicatedImpl, header: &Name, out: &mut Vec<Stmt>) {
        self.header_prefix = true;
        let Some(lp) = pred.loops.iter().find(|l| &l.header == header) else { return };
        let sp = pred.imp.blocks.iter().find(|b| &b.label.name == header).map_or(Span::DUMMY, |b| b.label.span);
        let active = var(&self.active);
        let allowed = pred
            .header_positions(lp)
            .into_iter()
            .map(|i| Expr::eq(active.clone(), int(i)))
            .reduce(Expr::or)
            .expect("the header");
        let inv = |e: Expr| assert_stmt(ivl::blocks::check_attrs("invariant", None), e, sp);
        out.push(inv(kc.th.all(&allowed)));
        // Some thread is in the loop: the loop is bypassed when no thread enters it.
        let some_in = kc.th.any(&Expr::eq(active.clone(), int(lp.header_id)));
        self.some_in.borrow_mut().insert(header.clone(), some_in.clone());
        out.push(inv(some_in));
        for f in self.header_facts.get(header).into_iter().flatten() {
            out.push(inv(kc.th.all(f)));
        }
        out.extend(self.views.own_candidates(&kc.th, &self.local_id_x, &self.local_id_x_ty, sp));
        out.extend(self.write_values.iter().map(|f| inv(f.clone())));
        if !self.active_single && self.uniform_headers.contains(header) {
            let at = Expr::eq(active, int(lp.header_id));
            out.push(inv(Expr::eq(kc.th.phi(&at, 0), kc.th.phi(&at, 1))));
        }
    }

    fn rewrite(&mut self, kc: &mut KernelCtx, s: &Stmt, out: &mut Vec<Stmt>) -> Result<Option<Stmt>, Diagnostic> {
        let invariant = self.header_prefix && matches!(s.kind, StmtKind::Assert { .. }) && marker_group(s).is_none();
        if self.header_prefix && !invariant {
            // The loop's invariants end here: nothing after them may look like one.
            out.push(assume_stmt(Expr::bool(true), s.span));
            self.header_prefix = false;
        }
        match &s.kind {
            StmtKind::Assert { .. } => match marker_group(s) {
                Some(k) => self.access_group(kc, k, out),
                None => self.assert(kc, s, invariant, out),
            },
            StmtKind::Assume { attrs, expr } if spec_builtins::mentions_builtin(expr) => {
                for (_, e) in per_thread(&self.env(kc), expr) {
                    out.push(Stmt::new(StmtKind::Assume { attrs: attrs.clone(), expr: e }, s.span));
                }
            }
            StmtKind::Barrier { .. } => self.barrier(kc, s, out)?,
            _ => return Ok(Some(s.clone())),
        }
        Ok(None)
    }
}

/// What the variant of a kernel needs from the whole program.
pub(crate) struct VariantCtx<'a> {
    pub inter: bool,
    pub opts: &'a KernelOptions,
    pub shared: &'a HashMap<Name, SharedVar>,
    /// Arrays whose values specifications mention.
    pub specified: &'a HashSet<Name>,
    /// Per-thread identity constants and their two copies.
    pub const_copies: &'a HashMap<Name, Vec<Name>>,
    pub guard: Option<Expr>,
    /// `--warp-sync`, intra-group variant: "the two threads are in the same warp".
    pub same_warp: Option<Expr>,
    pub local_id_x: Name,
    pub local_id_x_ty: Type,
    pub local_id_x_valid: Expr,
    pub globals: &'a HashMap<Name, Type>,
    /// The kernel's contracts (they may name arrays and logs).
    pub contracts: &'a [Contract],
}

/// The two-thread form of one kernel in one variant.
pub(crate) struct KernelVariant {
    pub imp: BlockImpl,
    /// Every name with two copies (identity constants, private variables, per-thread arrays).
    pub copies: HashMap<Name, Vec<Name>>,
    pub logs: BTreeMap<Name, Logs>,
    /// Declarations of new globals (logs, array copies).
    pub decls: Vec<Decl>,
}

/// Shared variables mentioned in `node` as log built-in arguments.
fn logged_arrays<T: ivl::visit::Node + ?Sized>(node: &T, out: &mut HashSet<Name>) {
    struct C<'a>(&'a mut HashSet<Name>);
    impl ivl::visit::Visit for C<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call(f, args) = &e.kind {
                if spec_builtins::LOG_BUILTINS.contains(&f.as_str()) {
                    if let Some(ExprKind::Var(a)) = args.first().map(|a| &a.kind) {
                        self.0.insert(a.name.clone());
                    }
                }
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    node.accept(&mut C(out));
}

/// The arrays whose logs the statements or the kernel's contracts ask about (`__read(A)` and
/// the other log built-ins).
fn specified_logs<'s>(ctx: &VariantCtx, stmts: impl Iterator<Item = &'s Stmt>) -> HashSet<Name> {
    let mut asked = HashSet::new();
    for s in stmts {
        logged_arrays(s, &mut asked);
    }
    for c in ctx.contracts {
        logged_arrays(&c.expr, &mut asked);
    }
    asked
}

/// Builds one kernel (its body in block form, calls gone) in one variant.
pub(crate) fn kernel_variant(
    ctx: &VariantCtx,
    body: &BlockImpl,
    names: &mut FreshNames,
    new_globals: &mut Vec<(String, Decl)>,
) -> Result<KernelVariant, Vec<Diagnostic>> {
    let (pre, uni, mut pred) = predicated_body(ctx, body, names)?;
    let read_only = match ctx.opts.abstraction {
        super::Abstraction::Adversarial => HashSet::new(),
        // Only arrays a specification reads (or under the equality abstraction): GPUVerify's
        // suite expects the same-value copies of an unspecified read-only array to race
        // (CUDA/memcpy/fail_overstep, lentoobig, notexactdiv).
        _ => abstraction::read_only(&pred.imp, ctx.shared)
            .into_iter()
            .filter(|a| ctx.specified.contains(a) || ctx.opts.abstraction == super::Abstraction::Equality)
            .collect(),
    };
    // Reads of an array that no statement writes cannot race (issue 42: on a kernel reading
    // thousands of input elements their logs and checks were most of the VC).
    let asked = specified_logs(ctx, pred.imp.blocks.iter().flat_map(|b| &b.stmts));
    let unlogged_reads: HashSet<Name> =
        abstraction::read_only(&pred.imp, ctx.shared).into_iter().filter(|a| !asked.contains(a)).collect();
    let equality = ctx.opts.abstraction == super::Abstraction::Equality;
    let models = abstraction::choose(ctx.shared, ctx.specified, &read_only, equality, ctx.inter);
    let groups = abstraction::abstract_reads(&mut pred.imp, ctx.shared, &models, names)?;
    if ctx.opts.warp_sync.is_some() {
        warp_sync_models(&groups, &models, &read_only, body.span)?;
    }
    let stmts: Vec<&Stmt> = pred.imp.blocks.iter().flat_map(|b| &b.stmts).collect();
    let (used, logged) = used_and_logged(ctx, &stmts, &groups);
    let mut decls = Vec::new();
    let (array_copies, single_arrays, kc_shared) = shared_copies(ctx, &used, &models, names, &mut decls);
    let logs = declare_logs(ctx, logged, &groups, &models, names, &mut decls)?;
    let checked: HashSet<Name> = if ctx.opts.only_divergence || ctx.opts.only_log {
        HashSet::new()
    } else {
        logs.values().filter(|l| !ctx.inter || l.space != MemSpace::GroupShared).map(|l| l.array.clone()).collect()
    };
    let mut binv_arrays = Vec::new();
    for s in &stmts {
        if let StmtKind::Barrier { invariants, .. } = &s.kind {
            for inv in invariants {
                spec_builtins::value_mentions(&inv.expr, &mut binv_arrays);
            }
        }
    }
    let binv_arrays: Vec<Name> =
        binv_arrays.into_iter().filter(|a| array_copies.contains_key(a) || single_arrays.contains(a)).collect();

    let mut single: HashSet<Name> = uni.vars.clone();
    let active_single = uni.all_blocks;
    if active_single {
        single.insert(pred.active.clone());
        single.insert(pred.next.clone());
    }
    let uniform_headers: HashSet<Name> =
        pred.loops.iter().map(|l| l.header.clone()).filter(|h| uni.blocks.contains(h)).collect();
    let mut copies: HashMap<Name, Vec<Name>> = ctx.const_copies.clone();
    copies.extend(array_copies.clone());
    let parts = InstrParts {
        ctx,
        span: body.span,
        groups: &groups,
        logs: &logs,
        checked: &checked,
        array_copies: &array_copies,
        single_arrays: &single_arrays,
        read_only: &read_only,
        unlogged_reads: &unlogged_reads,
        binv_arrays: &binv_arrays,
        uniform_headers: &uniform_headers,
        active_single,
        header_facts: path_facts(&pre, &pred, &|x: &Name| ctx.shared.contains_key(x)),
        modified: stmts.iter().flat_map(|s| ivl::visit::modified_vars(*s)).collect(),
        some_in: Rc::default(),
    };
    let mut make_ins = |kc: &mut KernelCtx, pred: &PredicatedImpl| Ok(parts.instrumentation(kc, pred));
    let (mut imp, outs) = lockstep_impl(&pred, 2, &kc_shared, &copies, names, new_globals, &mut make_ins, &single)?;
    bypass_loops(&mut imp, &pred, &parts.some_in.borrow());
    // The copies of the out-parameters (for the contracts): `outs` lists one entry per single
    // out-parameter and two per duplicated one, in order.
    let mut i = 0;
    for o in &pred.imp.outs {
        if single.contains(&o.name.name) {
            i += 1;
        } else {
            copies.insert(o.name.name.clone(), vec![outs[i].name.name.clone(), outs[i + 1].name.name.clone()]);
            i += 2;
        }
    }
    Ok(KernelVariant { imp, copies, logs, decls })
}

/// `--warp-sync` with modelled array values is unsupported: the other threads of a warp may
/// change any element between two statements of a thread without a race, which the single and
/// per-thread models (seed 001 §4.4) do not account for; adversarial reads do. Read-only
/// arrays are the exception: no thread changes them.
fn warp_sync_models(
    groups: &[Vec<Access>],
    models: &HashMap<Name, abstraction::Model>,
    read_only: &HashSet<Name>,
    span: Span,
) -> Result<(), Vec<Diagnostic>> {
    let modelled = groups.iter().flatten().find(|a| {
        !read_only.contains(&a.var) && models.get(&a.var).is_some_and(|m| *m != abstraction::Model::Adversarial)
    });
    match modelled {
        Some(a) => Err(vec![Diagnostic::unsupported(
            format!(
                "`--warp-sync` needs the adversarial abstraction: the values of `{}` are modelled (equality \
                 abstraction, or a specification reads them), and the other threads of a warp may change them \
                 at every statement",
                a.var
            ),
            span,
        )]),
        None => Ok(()),
    }
}

/// The kernel's body preprocessed (atomics lowered), its uniformity, and predicated with the
/// enabledness built-in read as "the thread is at this block".
fn predicated_body(
    ctx: &VariantCtx,
    body: &BlockImpl,
    names: &mut FreshNames,
) -> Result<(BlockImpl, uniformity::Uniformity, PredicatedImpl), Vec<Diagnostic>> {
    // Branch targets in reverse, so that the sort order lays sibling branches out in source
    // order (of two equivalent errors, the one earlier in the source is found first).
    let mut body = body.clone();
    for b in &mut body.blocks {
        if let ivl::blocks::Terminator::Goto(ts) = &mut b.term {
            ts.reverse();
        }
    }
    let mut pre = preprocess(&body)?;
    super::atomics::no_taken_in_contracts(ctx.contracts)?;
    // After the guards are in place, so that no lowered `assume` is taken for one.
    let mut counters = super::atomics::counters(&pre);
    if ctx.inter {
        counters.retain(|c| ctx.shared.get(c).is_some_and(|sv| sv.space != MemSpace::GroupShared));
    }
    super::atomics::lower_atomics(&mut pre, ctx.shared, &counters, names);
    let per_thread_names: HashSet<Name> = ctx.const_copies.keys().chain(ctx.shared.keys()).cloned().collect();
    let uni = uniformity::analyse(&pre, &per_thread_names);
    let mut pred = predicate_preprocessed(&pre, ctx.globals, names)?;
    for b in &mut pred.imp.blocks {
        if let Some(&id) = pred.block_ids.get(&b.label.name) {
            let enabled = Expr::eq(var(&pred.active), int(id));
            spec_builtins::substitute_enabled(&mut b.stmts, &enabled);
        }
    }
    Ok((pre, uni, pred))
}

/// The shared variables this kernel uses (sorted), and those whose logs it reads or writes.
fn used_and_logged(ctx: &VariantCtx, stmts: &[&Stmt], groups: &[Vec<Access>]) -> (Vec<Name>, HashSet<Name>) {
    let mut used: HashSet<Name> = HashSet::new();
    for s in stmts {
        used.extend(ivl::visit::free_vars(*s));
        if let StmtKind::Assign { lhss, .. } = &s.kind {
            used.extend(lhss.iter().map(|l| l.var.name.clone()));
        }
    }
    used.extend(ivl::visit::free_vars(&ctx.contracts.iter().map(|c| c.expr.clone()).collect::<Vec<_>>()));
    used.extend(groups.iter().flatten().map(|a| a.var.clone()));
    let mut logged: HashSet<Name> = groups.iter().flatten().map(|a| a.var.clone()).collect();
    logged.extend(specified_logs(ctx, stmts.iter().copied()));
    used.extend(logged.iter().cloned());
    let mut used: Vec<Name> = used.into_iter().filter(|n| ctx.shared.contains_key(n)).collect();
    used.sort();
    (used, logged)
}

/// The shared arrays by their model: the two copies of each per-thread array (declared in
/// `decls`), the arrays with one copy, and those as the lock-step construction's shared
/// variables.
type SharedCopies = (HashMap<Name, Vec<Name>>, HashSet<Name>, HashMap<Name, SharedVar>);

/// Copies of the used shared arrays, by their model.
fn shared_copies(
    ctx: &VariantCtx,
    used: &[Name],
    models: &HashMap<Name, Model>,
    names: &mut FreshNames,
    decls: &mut Vec<Decl>,
) -> SharedCopies {
    let mut array_copies: HashMap<Name, Vec<Name>> = HashMap::new();
    let mut single_arrays = HashSet::new();
    let mut kc_shared = HashMap::new();
    for a in used {
        match models[a] {
            Model::PerThread => {
                let c: Vec<Name> = (1..=2).map(|t| names.fresh(&format!("{a}${t}"))).collect();
                for n in &c {
                    decls.push(var_decl(n, ctx.shared[a].ty.clone(), vec![]));
                }
                array_copies.insert(a.clone(), c);
            }
            Model::Single => {
                single_arrays.insert(a.clone());
                kc_shared.insert(a.clone(), ctx.shared[a].clone());
            }
            Model::Adversarial => {}
        }
    }
    (array_copies, single_arrays, kc_shared)
}

/// The logs of the logged shared arrays (declared in `decls`), with every access site: a
/// check compares with every logged site, so all are known before any check is made. A
/// modelled array's log keeps values (benign read-write and write-read pairs) unless benign
/// tolerance is off.
fn declare_logs(
    ctx: &VariantCtx,
    logged: HashSet<Name>,
    groups: &[Vec<Access>],
    models: &HashMap<Name, Model>,
    names: &mut FreshNames,
    decls: &mut Vec<Decl>,
) -> Result<BTreeMap<Name, Logs>, Vec<Diagnostic>> {
    let mut logs = BTreeMap::new();
    let mut logged: Vec<Name> = logged.into_iter().filter(|n| ctx.shared.contains_key(n)).collect();
    logged.sort();
    for a in &logged {
        let atomics = groups.iter().flatten().any(|x| x.atomic && &x.var == a);
        let values = ctx.opts.benign_tolerance && models.get(a).is_some_and(|m| *m != Model::Adversarial);
        match Logs::declare(a, &ctx.shared[a], atomics, values, names) {
            Some((l, d)) => {
                decls.extend(d);
                logs.insert(a.clone(), l);
            }
            None => {
                return Err(vec![Diagnostic::unsupported(
                    format!("race checking of `{a}` needs its map type spelled out"),
                    Span::DUMMY,
                )])
            }
        }
    }
    for a in groups.iter().flatten() {
        if let Some(l) = logs.get_mut(&a.var) {
            l.site(AccessKind::of(a), a.span);
        }
    }
    Ok(logs)
}

/// What the instrumentation of one kernel variant is made of, before the lock-step
/// construction asks for it.
struct InstrParts<'a> {
    ctx: &'a VariantCtx<'a>,
    span: Span,
    groups: &'a Vec<Vec<Access>>,
    logs: &'a BTreeMap<Name, Logs>,
    checked: &'a HashSet<Name>,
    array_copies: &'a HashMap<Name, Vec<Name>>,
    single_arrays: &'a HashSet<Name>,
    read_only: &'a HashSet<Name>,
    unlogged_reads: &'a HashSet<Name>,
    binv_arrays: &'a [Name],
    uniform_headers: &'a HashSet<Name>,
    active_single: bool,
    header_facts: HashMap<Name, Vec<Expr>>,
    /// The variables the predicated body modifies.
    modified: HashSet<Name>,
    some_in: Rc<RefCell<HashMap<Name, Expr>>>,
}

impl InstrParts<'_> {
    /// The instrumentation (the lock-step construction's hook) and the statements that start
    /// the kernel: empty logs, the barrier invariants' views, and the same memory for both
    /// threads.
    fn instrumentation(&self, kc: &mut KernelCtx, pred: &PredicatedImpl) -> (Box<dyn Instrument>, Vec<Stmt>) {
        let (ctx, span) = (self.ctx, self.span);
        let mut views = Views::default();
        for a in self.binv_arrays {
            views.add(kc, a, &ctx.shared[a], self.array_copies.get(a).map(|c| c.as_slice()));
        }
        let track = kc.fresh_local("$track", Type::bool());
        let mut init: Vec<Stmt> = self.logs.values().map(|l| l.init(span)).collect();
        init.extend(views.init(kc, span));
        // Both threads start from the same memory (different groups: the same global memory).
        let mut arrays: Vec<&Name> = self.array_copies.keys().collect();
        arrays.sort();
        for a in arrays {
            if !ctx.inter || ctx.shared[a].space != MemSpace::GroupShared {
                let c = &self.array_copies[a];
                init.push(assign_stmt(vec![(lhs(&c[1], vec![], span), var(&c[0]))], span));
            }
        }
        // Values the same for both threads (a per-thread value is never a benign pair's).
        let fixed = |e: &Expr| {
            !kc.th.is_per_thread(e)
                && ivl::visit::free_vars(e).iter().all(|x| !self.modified.contains(x) && !ctx.shared.contains_key(x))
        };
        let write_values = if ctx.opts.benign_tolerance {
            let phi1 = |e: &Expr| kc.th.phi(e, 0);
            self.logs.values().flat_map(|l| l.fixed_write_values(self.groups, &fixed, &phi1)).collect()
        } else {
            Vec::new()
        };
        let ins = Instr {
            inter: ctx.inter,
            benign: ctx.opts.benign_tolerance,
            asymmetric: ctx.opts.asymmetric_asserts,
            guard: ctx.guard.clone(),
            same_warp: ctx.same_warp.clone(),
            groups: self.groups.clone(),
            logs: self.logs.clone(),
            checked: self.checked.clone(),
            shared: ctx.shared.clone(),
            copies: self.array_copies.clone(),
            single: self.single_arrays.clone(),
            read_only: self.read_only.clone(),
            unlogged_reads: self.unlogged_reads.clone(),
            views,
            track,
            local_id_x: ctx.local_id_x.clone(),
            local_id_x_ty: ctx.local_id_x_ty.clone(),
            local_id_x_valid: ctx.local_id_x_valid.clone(),
            uniform_headers: self.uniform_headers.clone(),
            active: pred.active.clone(),
            active_single: self.active_single,
            header_prefix: false,
            header_facts: self.header_facts.clone(),
            write_values,
            some_in: self.some_in.clone(),
        };
        (Box::new(ins), init)
    }
}

/// Facts about where a thread has been, per loop header: invariants that loop cutting would
/// otherwise lose, because it havocs `v_active` (seed 000's predication keeps control flow in
/// that one variable, where Table 4.2's structured predicates keep each condition apart).
///
/// (A) A block `D` outside loop `L` that dominates its header: a thread at a position of
///     [`PredicatedImpl::header_positions`] that `D` dominates went through `D`, so `D`'s guard
///     held; it still holds if no block from `D` to the end of `L` (sort order) modifies it.
///     A position `P` after a loop `O` that encloses `L` and `D` (a thread that left `O` from
///     inside `L`, parked at `P` while `O` goes round) is kept only if no block from `D` to the
///     end of `O` modifies the guard either, and then `P ==> guard` is also a fact at `O`'s
///     header: without it the fact at `L` would hold but not be inductive (GPUVerify's
///     `CUDA/misc/pass/misc5`, a `goto` out of two nested loops).
/// (B) A position `P` after `L` (a thread that left or skipped the loop): `P`'s guard held
///     when the thread got there, and the thread is disabled until `P` runs, so its private
///     and uniform variables are frozen. Guards that read shared memory are not used.
fn path_facts(pre: &BlockImpl, pred: &PredicatedImpl, is_shared: &dyn Fn(&Name) -> bool) -> HashMap<Name, Vec<Expr>> {
    let cfg = ivl::cfg::Cfg::new(pre);
    let index = pre.label_index();
    let id_of = |b: usize| pred.block_ids.get(&pre.blocks[b].label.name).copied();
    let block_of: HashMap<u64, usize> = (0..pre.blocks.len()).filter_map(|b| id_of(b).map(|id| (id, b))).collect();
    let at = |id: u64| Expr::eq(var(&pred.active), int(id));
    let modified_in = |lo: u64, hi: u64| -> HashSet<Name> {
        block_of
            .iter()
            .filter(|(&id, _)| id > lo && id <= hi)
            .flat_map(|(_, &b)| ivl::visit::modified_vars(&pre.blocks[b].stmts))
            .collect()
    };
    let mut out: HashMap<Name, Vec<Expr>> = HashMap::new();
    for lp in &pred.loops {
        let Some(&h) = index.get(&lp.header) else { continue };
        let allowed = pred.header_positions(lp);
        let mut facts = Vec::new();
        // (A)
        for d in cfg.dominators_of(h) {
            let Some(id_d) = id_of(d) else { continue };
            if id_d >= lp.header_id {
                continue;
            }
            let Some(g) = crate::preprocess::guard(&pre.blocks[d]).filter(|g| !g.is_true()) else { continue };
            let fv = ivl::visit::free_vars(g);
            if fv.iter().any(is_shared) {
                continue;
            }
            if fv.iter().any(|x| modified_in(id_d, lp.last_id).contains(x)) {
                continue;
            }
            let mut positions: Vec<Expr> = Vec::new();
            for &p in allowed.iter().filter(|p| block_of.get(p).is_some_and(|&b| cfg.dominates(d, b))) {
                // Loops around `L` and `D` that a thread at `p` has left (parked while they run).
                let left: Vec<&crate::predication::LoopLayout> = pred
                    .loops
                    .iter()
                    .filter(|o| o.header_id <= id_d && o.last_id >= lp.last_id && p > o.last_id)
                    .collect();
                if let Some(end) = left.iter().map(|o| o.last_id).max() {
                    if fv.iter().any(|x| modified_in(id_d, end).contains(x)) {
                        continue;
                    }
                    for o in left {
                        let fact = Expr::implies(at(p), g.clone());
                        let at_o = out.entry(o.header.clone()).or_default();
                        if !at_o.contains(&fact) {
                            at_o.push(fact);
                        }
                    }
                }
                positions.push(at(p));
            }
            if let Some(here) = positions.into_iter().reduce(Expr::or) {
                facts.push(Expr::implies(here, g.clone()));
            }
        }
        // (B)
        for &p in allowed.iter().filter(|&&p| p > lp.last_id) {
            let Some(&b) = block_of.get(&p) else { continue };
            let Some(g) = crate::preprocess::guard(&pre.blocks[b]).filter(|g| !g.is_true()) else { continue };
            if ivl::visit::free_vars(g).iter().any(is_shared) {
                continue;
            }
            facts.push(Expr::implies(at(p), g.clone()));
        }
        out.entry(lp.header.clone()).or_default().extend(facts);
    }
    out
}

/// Lets the lock-step program jump over a loop that no thread enters (Table 4.2's
/// `while (F$1 || F$2)`): every jump to a loop header other than the loop's own back edge goes
/// through `H_enter: assume (some thread at H); goto H;` or `H_bypass: assume !(…);` which
/// continues where the loop's exit block continues. Without this the lock-step program runs
/// through the loop once with every thread disabled, and loop cutting forgets the state of
/// everything the loop modifies.
fn bypass_loops(imp: &mut BlockImpl, pred: &PredicatedImpl, some_in: &HashMap<Name, Expr>) {
    use ivl::blocks::{Block, Terminator};
    let mut labels: HashSet<Name> = imp.blocks.iter().map(|b| b.label.name.clone()).collect();
    let mut fresh = |base: String| {
        let n = if labels.contains(base.as_str()) { ivl::visit::fresh_name(&base, &labels) } else { Name::from(base) };
        labels.insert(n.clone());
        n
    };
    for lp in &pred.loops {
        let Some(cond) = some_in.get(&lp.header) else { continue };
        let Some(exit_term) = imp.blocks.iter().find(|b| b.label.name == lp.exit).map(|b| b.term.clone()) else {
            continue;
        };
        let sp = imp.blocks.iter().find(|b| b.label.name == lp.header).map_or(Span::DUMMY, |b| b.label.span);
        let enter = fresh(format!("{}_enter", lp.header));
        let bypass = fresh(format!("{}_bypass", lp.header));
        for b in &mut imp.blocks {
            if b.label.name == lp.back {
                continue;
            }
            if let Terminator::Goto(ts) = &mut b.term {
                if ts.iter().any(|t| t.name == lp.header) {
                    ts.retain(|t| t.name != lp.header);
                    ts.push(Ident::new(enter.clone(), sp));
                    ts.push(Ident::new(bypass.clone(), sp));
                }
            }
        }
        imp.blocks.push(Block {
            label: Ident::new(enter, sp),
            stmts: vec![assume_stmt(cond.clone(), sp)],
            term: Terminator::Goto(vec![Ident::new(lp.header.clone(), sp)]),
            span: sp,
        });
        imp.blocks.push(Block {
            label: Ident::new(bypass, sp),
            stmts: vec![assume_stmt(Expr::not(cond.clone()), sp)],
            term: exit_term,
            span: sp,
        });
    }
}

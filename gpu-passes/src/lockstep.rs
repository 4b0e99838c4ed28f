//! Lock-step execution of all threads as one sequential program, seed 000 §4.2 (Collingbourne et
//! al.), Table 3 and Fig. 6, for a concrete number of threads `TS`.
//!
//! Why: once every thread runs the same predicated blocks in the same order
//! ([`crate::predication`]), the threads of a work-group can be executed together by a
//! sequential *vector* program, and checking that one program checks every interleaving of the
//! threads (Theorem 5.2: for terminating, well-formed kernels, the lock-step and interleaving
//! semantics agree on races, barrier divergence and assertion failures). A sequential program is
//! what the VC engine verifies.
//!
//! The construction `φ(π(P))` follows Table 3 on the predicated program `π(P)`, with `φ_t`
//! renaming each private variable `v` to its thread-`t` copy `v$t`:
//!
//! | predicated (`π(P)`)                          | lock-step (`φ(π(P))`)                                    |
//! |----------------------------------------------|----------------------------------------------------------|
//! | `v := (if v_active == B then e else v)`, `v` private | `v$1, …, v$TS := φ_1(…), …, φ_TS(…)` (vector assignment) |
//! | … `v` shared                                 | `v := ψ(⟨v_active$t == B, φ_t(e)⟩)` (ψ-assignment, below)  |
//! | `havoc v_havoc`                              | `havoc v_havoc$1, …, v_havoc$TS` (vector havoc)          |
//! | `assert v_active == B ==> e`                 | `assert ⋀_t φ_t(v_active == B ==> e)`                    |
//! | `barrier {:enabled v_active == B}`           | `assert (⋁_t v_active$t == B) ==> (⋀_t v_active$t == B)` (barrier assertion) |
//! | `assume e` (guards, `v_next := {…}`)         | `assume ⋀_t φ_t(e)`                                      |
//! | `B_back: assume v_active == H`               | `assume ⋁_t v_active$t == H` (Table 3b)                  |
//! | `B_exit: assume v_active != H`               | `assume ⋀_t v_active$t != H` (Table 3b)                  |
//!
//! The lock-step program is plain Boogie over the copies `x$1..x$TS` (no `vec` statements), so
//! the VC engine verifies it as it is. The ψ-assignment of Fig. 6 — a nondeterministic choice
//! among the values of the enabled threads, the variable unchanged if none is enabled — is
//! generalised to maps location by location (threads writing different locations of an array in
//! one step all take effect): the threads' guards, locations and values are evaluated into
//! temporaries, each thread gets a havoc'd priority, and the writes are applied thread by
//! thread, a thread's write taking effect unless an enabled thread with a higher priority writes
//! the same location. Every enabled writer of a location can win, and only they can.
//!
//! Threads: `TS` threads of one work-group, one-dimensional. A constant declared
//! `{:local_id_x}` becomes per-thread constants `c$t == t - 1` (`{:local_id_y|z}`: `0`), one
//! declared `{:group_size_x}` is fixed to `TS` (`y`, `z`: 1); group ids and grid sizes stay
//! uniform and symbolic. Axioms mentioning a per-thread constant hold for every thread.
//! Locals and out-parameters are private; in-parameters and constants are uniform; global
//! variables are shared.
//!
//! [`checked_lockstep_program`] additionally instruments the program with the checks of
//! Definition 4.1 (see [`races`]); the driver ([`crate::driver`]) verifies it with the VC
//! engine.

mod accesses;
mod races;
mod spec;

pub(crate) use accesses::{accesses, Access};
pub use races::{checked_lockstep_program, unrunnable, CheckedLockstep, RaceChecks};

use crate::bodies::{declares_kernels, is_selected};
use crate::predication::{
    all_names, barrier_enabled, global_var_types, int_lit, predicate_preprocessed, simple_lhs, stmt, typed, FreshNames,
    PredicatedImpl,
};
use crate::preprocess::{barrier_calls_to_statements, preprocess};
use ivl::ast::*;
use ivl::blocks::{check_attrs, Block, BlockImpl};
use ivl::diag::Diagnostic;
use ivl::resolve::{identity_attr, mem_space, MemSpace};
use ivl::visit::{free_vars, substitute};
use std::collections::{HashMap, HashSet};

/// A shared (global) variable.
#[derive(Clone, Debug)]
pub(crate) struct SharedVar {
    pub ty: Type,
    pub space: MemSpace,
}

/// Thread copies: for every per-thread name, its `TS` copies, and the substitutions `φ_t`.
pub(crate) struct Threads {
    pub ts: usize,
    pub copies: HashMap<Name, Vec<Name>>,
    substs: Vec<HashMap<Name, Expr>>,
}

impl Threads {
    fn new(ts: usize, copies: HashMap<Name, Vec<Name>>) -> Threads {
        let substs = (0..ts)
            .map(|t| copies.iter().map(|(k, v)| (k.clone(), Expr::var(v[t].clone(), Span::DUMMY))).collect())
            .collect();
        Threads { ts, copies, substs }
    }

    /// `φ_t(e)`, threads numbered from 0.
    pub fn phi(&self, e: &Expr, t: usize) -> Expr {
        substitute(e, &self.substs[t])
    }

    pub fn is_per_thread(&self, e: &Expr) -> bool {
        free_vars(e).iter().any(|x| self.copies.contains_key(x))
    }

    /// `⋀_t φ_t(e)` (just `e` when it mentions no per-thread name).
    pub fn all(&self, e: &Expr) -> Expr {
        self.fold(e, Expr::and)
    }

    /// `⋁_t φ_t(e)`.
    pub fn any(&self, e: &Expr) -> Expr {
        self.fold(e, Expr::or)
    }

    fn fold(&self, e: &Expr, op: fn(Expr, Expr) -> Expr) -> Expr {
        if !self.is_per_thread(e) {
            return e.clone();
        }
        (0..self.ts).map(|t| self.phi(e, t)).reduce(op).expect("at least one thread")
    }

    pub fn copy(&self, x: &Name, t: usize) -> Option<&Name> {
        self.copies.get(x).map(|c| &c[t])
    }
}

/// A write to a shared variable, decomposed from the predicated `v := (if C then NEW else v)`:
/// the location `path` (one index list per `[...]`) and the value written there.
#[derive(Clone, Debug)]
pub(crate) struct SharedWrite {
    pub var: Ident,
    pub cond: Expr,
    pub path: Vec<Vec<Expr>>,
    pub value: Expr,
    pub span: Span,
}

/// Inverse of [`crate::predication::map_update`]: `v[i := v[i][j := e]]` is the path `[i, j]`
/// and the value `e`; anything else is a whole-variable write.
fn split_update(v: &Name, new: &Expr) -> (Vec<Vec<Expr>>, Expr) {
    fn go(base: &Expr, e: &Expr, path: &mut Vec<Vec<Expr>>) -> Option<Expr> {
        match &e.kind {
            ExprKind::Store(b, idx, val) if strip(b) == strip(base) => {
                path.push(idx.clone());
                let inner = Expr::new(ExprKind::Select(Box::new(base.clone()), idx.clone()), base.span);
                Some(go(&inner, val, path).unwrap_or_else(|| (**val).clone()))
            }
            _ => None,
        }
    }
    let mut path = Vec::new();
    match go(&Expr::var(v.clone(), Span::DUMMY), new, &mut path) {
        Some(value) => (path, value),
        None => (Vec::new(), new.clone()),
    }
}

fn strip(e: &Expr) -> Expr {
    let mut e = e.clone();
    ivl::visit::strip_spans(&mut e);
    e
}

/// Decomposes the predicated assignment of `rhs` to shared `lhs`.
pub(crate) fn shared_write(lhs: &Lhs, rhs: &Expr, span: Span) -> SharedWrite {
    let v = &lhs.var;
    // Predicated form: if C then NEW else v.
    let (cond, new) = match &rhs.kind {
        ExprKind::IfThenElse(c, a, b) if matches!(&b.kind, ExprKind::Var(x) if x.name == v.name) => {
            ((**c).clone(), (**a).clone())
        }
        _ => (Expr::bool(true), crate::predication::map_update(lhs, rhs.clone())),
    };
    let (path, value) = split_update(&v.name, &new);
    SharedWrite { var: v.clone(), cond, path, value, span }
}

/// The index types of each `[...]` level of a map type, and the type left after `depth` levels.
pub(crate) fn map_levels(ty: &Type, depth: usize) -> Option<(Vec<Vec<Type>>, Type)> {
    let mut levels = Vec::new();
    let mut cur = ty.clone();
    for _ in 0..depth {
        match cur.kind {
            TypeKind::Map { type_params, args, result } if type_params.is_empty() => {
                levels.push(args);
                cur = *result;
            }
            _ => return None,
        }
    }
    Some((levels, cur))
}

/// The full depth of nested map types.
pub(crate) fn map_depth(ty: &Type) -> usize {
    match &ty.kind {
        TypeKind::Map { result, .. } => 1 + map_depth(result),
        _ => 0,
    }
}

/// Hooks for instrumentation around the statements of the lock-step program (race checks).
pub(crate) trait Instrument {
    /// Statements to put before the lock-step form of predicated statement `s` (of the block
    /// with id `block`).
    fn before(&mut self, kc: &mut KernelCtx, s: &Stmt, out: &mut Vec<Stmt>) -> Result<(), Diagnostic>;
    /// Statements after the barrier assertion of `barrier {:enabled cond}`.
    fn after_barrier(&mut self, kc: &mut KernelCtx, attrs: &[Attribute], cond: &Expr, out: &mut Vec<Stmt>);
    /// Statements at the start of each loop header.
    fn at_header(&mut self, kc: &mut KernelCtx, pred: &PredicatedImpl, header: &Name, out: &mut Vec<Stmt>);
    /// How predicated statement `s` is modelled (the two-thread reduction's hook: shared state
    /// abstracted and instrumented instead of ψ-assigned). Statements pushed to `out` come
    /// first; the returned statement then gets the Table 3 translation, `None` skips it.
    /// Default: `s` itself.
    fn rewrite(&mut self, _kc: &mut KernelCtx, s: &Stmt, _out: &mut Vec<Stmt>) -> Result<Option<Stmt>, Diagnostic> {
        Ok(Some(s.clone()))
    }
    /// Thread `t`'s log of its reads (`write` false) or writes of `array` since its last
    /// barrier, for `__read(A)` and friends ([`spec`]); `None` when nothing logs them.
    fn access_log(&self, _kc: &KernelCtx, _array: &Name, _write: bool, _t: usize) -> Option<spec::AccessLog> {
        None
    }
}

/// No instrumentation: the plain Table 3 construction.
pub(crate) struct Plain;

impl Instrument for Plain {
    fn before(&mut self, _: &mut KernelCtx, _: &Stmt, _: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        Ok(())
    }
    fn after_barrier(&mut self, _: &mut KernelCtx, _: &[Attribute], _: &Expr, _: &mut Vec<Stmt>) {}
    fn at_header(&mut self, _: &mut KernelCtx, _: &PredicatedImpl, _: &Name, _: &mut Vec<Stmt>) {}
}

/// Translation state of one kernel.
pub(crate) struct KernelCtx<'a> {
    pub th: Threads,
    pub shared: &'a HashMap<Name, SharedVar>,
    pub names: &'a mut FreshNames,
    /// Locals of the lock-step implementation added on the way (ψ temporaries, logs).
    pub new_locals: Vec<TypedIdent>,
    /// Global declarations needed on the way (constant empty maps …), keyed to share them.
    pub new_globals: &'a mut Vec<(String, Decl)>,
    psi_temps: HashMap<(Name, usize), PsiTemps>,
    priorities: Option<Vec<Name>>,
}

#[derive(Clone)]
struct PsiTemps {
    guard: Vec<Name>,
    /// Per thread, one temporary per index of the (flattened) path.
    index: Vec<Vec<Name>>,
    value: Vec<Name>,
}

impl KernelCtx<'_> {
    pub fn fresh_local(&mut self, base: &str, ty: Type) -> Name {
        let n = self.names.fresh(base);
        self.new_locals.push(typed(&n, ty));
        n
    }

    fn psi_temps(&mut self, w: &SharedWrite) -> Result<PsiTemps, Diagnostic> {
        let key = (w.var.name.clone(), w.path.len());
        if let Some(t) = self.psi_temps.get(&key) {
            return Ok(t.clone());
        }
        let sv = self.shared[&w.var.name].clone();
        let (levels, value_ty) = map_levels(&sv.ty, w.path.len()).ok_or_else(|| {
            Diagnostic::unsupported(
                format!("the lock-step form of this write to `{}` needs its map type spelled out", w.var.name),
                w.span,
            )
        })?;
        let index_tys: Vec<Type> = levels.into_iter().flatten().collect();
        let v = w.var.name.clone();
        let mut temps = PsiTemps { guard: Vec::new(), index: Vec::new(), value: Vec::new() };
        for t in 1..=self.th.ts {
            temps.guard.push(self.fresh_local(&format!("{v}$psi_g{t}"), Type::bool()));
            let idx = (0..index_tys.len())
                .map(|k| self.fresh_local(&format!("{v}$psi_i{k}_{t}"), index_tys[k].clone()))
                .collect();
            temps.index.push(idx);
            temps.value.push(self.fresh_local(&format!("{v}$psi_v{t}"), value_ty.clone()));
        }
        self.psi_temps.insert(key, temps.clone());
        Ok(temps)
    }

    fn priorities(&mut self) -> Vec<Name> {
        if let Some(p) = &self.priorities {
            return p.clone();
        }
        let p: Vec<Name> = (1..=self.th.ts).map(|t| self.fresh_local(&format!("psi$prio{t}"), Type::int())).collect();
        self.priorities = Some(p.clone());
        p
    }

    /// Table 3a, the ψ-assignments of one statement: temporaries first (in the pre-state), then
    /// `prelude` (the private part of the statement, also in the pre-state), then the writes.
    fn psi(&mut self, writes: &[SharedWrite], prelude: Option<Stmt>, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let ts = self.th.ts;
        let mut temps = Vec::new();
        let (mut lhss, mut rhss) = (Vec::new(), Vec::new());
        for w in writes {
            let tp = self.psi_temps(w)?;
            let idx: Vec<&Expr> = w.path.iter().flatten().collect();
            for t in 0..ts {
                lhss.push(simple_lhs(&tp.guard[t], w.span));
                rhss.push(self.th.phi(&w.cond, t));
                for (k, e) in idx.iter().enumerate() {
                    lhss.push(simple_lhs(&tp.index[t][k], w.span));
                    rhss.push(self.th.phi(e, t));
                }
                lhss.push(simple_lhs(&tp.value[t], w.span));
                rhss.push(self.th.phi(&w.value, t));
            }
            temps.push(tp);
        }
        if !lhss.is_empty() {
            out.push(stmt(StmtKind::Assign { lhss, rhss }, writes[0].span));
        }
        out.extend(prelude);
        let prio = if ts > 1 { self.priorities() } else { Vec::new() };
        if ts > 1 {
            let sp = writes[0].span;
            out.push(stmt(StmtKind::Havoc(prio.iter().map(|p| Ident::new(p.clone(), sp)).collect()), sp));
        }
        for (w, tp) in writes.iter().zip(&temps) {
            let sp = w.span;
            let var = |n: &Name| Expr::var(n.clone(), sp);
            // The temporaries' path: same shape as the write's.
            let mut k = 0;
            let path_of = |t: usize, k: &mut usize| -> Vec<Vec<Expr>> {
                w.path
                    .iter()
                    .map(|lvl| {
                        lvl.iter()
                            .map(|_| {
                                let e = var(&tp.index[t][*k]);
                                *k += 1;
                                e
                            })
                            .collect()
                    })
                    .collect()
            };
            let paths: Vec<Vec<Vec<Expr>>> = (0..ts)
                .map(|t| {
                    k = 0;
                    path_of(t, &mut k)
                })
                .collect();
            let same_loc = |s: usize, t: usize| -> Option<Expr> {
                paths[s]
                    .iter()
                    .flatten()
                    .zip(paths[t].iter().flatten())
                    .map(|(a, b)| Expr::eq(a.clone(), b.clone()))
                    .reduce(Expr::and)
            };
            for t in 0..ts {
                // Thread t's write takes effect unless a higher-priority enabled thread writes there.
                let mut wins = var(&tp.guard[t]);
                for s in (0..ts).filter(|&s| s != t) {
                    let mut beats = Expr::and(var(&tp.guard[s]), Expr::binary(BinOp::Gt, var(&prio[s]), var(&prio[t])));
                    if let Some(eq) = same_loc(s, t) {
                        beats = Expr::and(beats, eq);
                    }
                    wins = Expr::and(wins, Expr::not(beats));
                }
                let lhs = Lhs { var: w.var.clone(), indices: paths[t].clone(), span: sp };
                let old = paths[t]
                    .iter()
                    .fold(var(&w.var.name), |m, idx| Expr::new(ExprKind::Select(Box::new(m), idx.clone()), sp));
                let rhs = Expr::ite(wins, var(&tp.value[t]), old);
                out.push(stmt(StmtKind::Assign { lhss: vec![lhs], rhss: vec![rhs] }, sp));
            }
        }
        Ok(())
    }

    /// Table 3a, assignment: private variables per thread, one-copy variables from thread 1,
    /// shared writes through the ψ-assignment.
    fn assign(
        &mut self,
        s: &Stmt,
        lhss: &[Lhs],
        rhss: &[Expr],
        ins: &mut dyn Instrument,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let sp = s.span;
        ins.before(self, s, out)?;
        let (mut plhs, mut prhs, mut writes) = (Vec::new(), Vec::new(), Vec::new());
        for (l, r) in lhss.iter().zip(rhss) {
            if self.th.copies.contains_key(&l.var.name) {
                for t in 0..self.th.ts {
                    let mut lt = l.clone();
                    lt.var.name = self.th.copy(&l.var.name, t).unwrap().clone();
                    lt.indices = l.indices.iter().map(|ix| ix.iter().map(|e| self.th.phi(e, t)).collect()).collect();
                    plhs.push(lt);
                    prhs.push(self.th.phi(r, t));
                }
            } else if self.shared.contains_key(&l.var.name) {
                writes.push(shared_write(l, r, sp));
            } else {
                // A variable with one copy (a uniform value of the two-thread
                // reduction): every thread computes the same value, take thread 1's.
                let mut l1 = l.clone();
                l1.indices = l.indices.iter().map(|ix| ix.iter().map(|e| self.th.phi(e, 0)).collect()).collect();
                plhs.push(l1);
                prhs.push(self.th.phi(r, 0));
            }
        }
        let private = (!plhs.is_empty()).then(|| stmt(StmtKind::Assign { lhss: plhs, rhss: prhs }, sp));
        if writes.is_empty() {
            out.extend(private);
            Ok(())
        } else {
            self.psi(&writes, private, out)
        }
    }

    /// Table 3a, barrier: the divergence assertion (every thread or none reaches it), then the
    /// instrumentation's barrier effect.
    fn barrier(
        &mut self,
        attrs: &[Attribute],
        invariants: &[BarrierInvariant],
        sp: Span,
        ins: &mut dyn Instrument,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        if let Some(inv) = invariants.first() {
            return Err(Diagnostic::unsupported("barrier invariants in the lock-step program", inv.span)
                .with_note("barrier invariants are supported by the two-thread reduction"));
        }
        let cond = barrier_enabled(attrs).cloned().unwrap_or_else(|| Expr::bool(true));
        let e = Expr::implies(self.th.any(&cond), self.th.all(&cond));
        let mut a = check_attrs("divergence", None);
        a.push(Attribute {
            name: Ident::new("msg", sp),
            args: vec![AttrArg::String(
                "possible barrier divergence: not every thread reaches this barrier".into(),
                sp,
            )],
            span: sp,
        });
        out.push(stmt(StmtKind::Assert { attrs: a, expr: e }, sp));
        ins.after_barrier(self, attrs, &cond, out);
        Ok(())
    }

    /// Table 3a: the lock-step form of one predicated statement.
    fn statement(
        &mut self,
        s: &Stmt,
        back_block: bool,
        ins: &mut dyn Instrument,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Diagnostic> {
        let sp = s.span;
        match &s.kind {
            StmtKind::Assign { lhss, rhss } => self.assign(s, lhss, rhss, ins, out),
            StmtKind::Havoc(xs) => {
                let mut ys = Vec::new();
                for x in xs {
                    match self.th.copies.get(&x.name) {
                        Some(c) => ys.extend(c.iter().map(|n| Ident::new(n.clone(), x.span))),
                        // One copy (a uniform value of the two-thread reduction).
                        None if !self.shared.contains_key(&x.name) => ys.push(x.clone()),
                        None => {
                            return Err(Diagnostic::unsupported(
                                format!("`havoc {}` of a shared variable outside predicated form", x.name),
                                x.span,
                            ))
                        }
                    }
                }
                out.push(stmt(StmtKind::Havoc(ys), sp));
                Ok(())
            }
            StmtKind::Assert { attrs, expr } => {
                // `__enabled()` is the block condition of the predicated `v_active == B ==> e`.
                let enabled = match &expr.kind {
                    ExprKind::Binary(BinOp::Implies, g, _) if !spec::mentions_builtin(g) => (**g).clone(),
                    _ => Expr::bool(true),
                };
                let e = self.spec_all(&*ins, expr, &enabled)?;
                out.push(stmt(StmtKind::Assert { attrs: attrs.clone(), expr: e }, sp));
                Ok(())
            }
            StmtKind::Assume { attrs, expr } => {
                ins.before(self, s, out)?;
                let e = if back_block { self.th.any(expr) } else { self.th.all(expr) };
                out.push(stmt(StmtKind::Assume { attrs: attrs.clone(), expr: e }, sp));
                Ok(())
            }
            StmtKind::Barrier { attrs, invariants } => self.barrier(attrs, invariants, sp, ins, out),
            StmtKind::Call { .. } | StmtKind::Vector(_) => {
                Err(Diagnostic::unsupported("this statement has no lock-step form", sp))
            }
            _ => Err(Diagnostic::unsupported("structured statement in a block body", sp)),
        }
    }
}

/// Names that are per-thread in every kernel: constants carrying `{:local_id_*}`.
fn per_thread_consts(p: &Program) -> Vec<(Name, Type, &'static str)> {
    let mut out = Vec::new();
    for d in &p.decls {
        if let DeclKind::Const(c) = &d.kind {
            if let Some((attr, _)) = identity_attr(&c.attrs) {
                if attr.starts_with("local_id_") {
                    out.extend(c.names.iter().map(|n| (n.name.clone(), c.ty.clone(), attr)));
                }
            }
        }
    }
    out
}

/// A literal of an identity constant's type.
fn literal(ty: &Type, v: u64, span: Span) -> Result<Expr, Diagnostic> {
    match ty.kind {
        TypeKind::Int => Ok(int_lit(v, span)),
        TypeKind::Bv(w) => Ok(Expr::new(ExprKind::BvLit { value: v.into(), width: w }, span)),
        _ => Err(Diagnostic::unsupported("thread identity constants must be `int` or bit-vectors", ty.span)),
    }
}

fn axiom(e: Expr) -> Decl {
    Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: Vec::new(), expr: e }), span: Span::DUMMY }
}

/// The lock-step program, with instrumentation `ins` (none for [`lockstep_program`]).
pub(crate) struct Built {
    pub program: Program,
    /// Per kernel: name, its per-thread copies map, and the requires of the lock-step procedure.
    pub kernels: Vec<Name>,
}

/// Makes the instrumentation of one kernel, and the statements that start its body.
pub(crate) type MakeInstrument<'m> =
    dyn FnMut(&mut KernelCtx, &PredicatedImpl) -> Result<(Box<dyn Instrument>, Vec<Stmt>), Diagnostic> + 'm;

pub(crate) fn build(p: &Program, ts: usize, make_ins: &mut MakeInstrument) -> Result<Built, Vec<Diagnostic>> {
    if ts == 0 {
        return Err(vec![Diagnostic::unsupported("the lock-step program needs at least one thread", Span::DUMMY)]);
    }
    let p = barrier_calls_to_statements(p);
    let mut names = FreshNames::new(all_names(&p));
    let shared = shared_vars(&p);
    let mut diags = Vec::new();
    let mut new_decls: Vec<Decl> = Vec::new();
    let mut new_globals: Vec<(String, Decl)> = Vec::new();

    // Per-thread identity constants and the facts about them.
    let const_copies = identity_copies(&p, ts, &mut names, &mut new_decls, &mut diags);
    group_size_axioms(&p, ts, &mut new_decls, &mut diags);
    per_thread_axioms(&p, ts, &const_copies, &mut new_decls);

    let mut out = p.clone();
    let mut bodies = Bodies { ts, shared: &shared, const_copies: &const_copies, names: &mut names };
    let (kernels, renamed_outs) = bodies.lockstep_bodies(&p, &mut out, &mut new_globals, make_ins, &mut diags);
    kernel_procedures(&mut out, ts, &const_copies, &renamed_outs);
    if !diags.is_empty() {
        return Err(diags);
    }
    out.decls.extend(new_decls);
    out.decls.extend(new_globals.into_iter().map(|(_, d)| d));
    Ok(Built { program: out, kernels })
}

/// The global variables of a program, with their types and memory spaces.
fn shared_vars(p: &Program) -> HashMap<Name, SharedVar> {
    p.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(
                v.vars
                    .iter()
                    .map(|x| (x.name.name.clone(), SharedVar { ty: x.ty.clone(), space: mem_space(&v.attrs) })),
            ),
            _ => None,
        })
        .flatten()
        .collect()
}

/// One constant per thread for every local-id constant (`local_id_x$t`, fixed to `t - 1` in
/// dimension x and to 0 in the others); the copies by original name.
fn identity_copies(
    p: &Program,
    ts: usize,
    names: &mut FreshNames,
    new_decls: &mut Vec<Decl>,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<Name, Vec<Name>> {
    let mut const_copies: HashMap<Name, Vec<Name>> = HashMap::new();
    for (c, ty, attr) in per_thread_consts(p) {
        let copies: Vec<Name> = (1..=ts).map(|t| names.fresh(&format!("{c}${t}"))).collect();
        for (t, n) in copies.iter().enumerate() {
            new_decls.push(Decl {
                kind: DeclKind::Const(ConstDecl {
                    attrs: Vec::new(),
                    unique: false,
                    names: vec![Ident::new(n.clone(), Span::DUMMY)],
                    ty: ty.clone(),
                    order_spec: None,
                }),
                span: Span::DUMMY,
            });
            let v = if attr == "local_id_x" { t as u64 } else { 0 };
            match literal(&ty, v, Span::DUMMY) {
                Ok(l) => new_decls.push(axiom(Expr::eq(Expr::var(n.clone(), Span::DUMMY), l))),
                Err(d) => diags.push(d),
            }
        }
        const_copies.insert(c, copies);
    }
    const_copies
}

/// Axioms fixing the group size to the `TS` threads: `TS` in dimension x, 1 in the others.
fn group_size_axioms(p: &Program, ts: usize, new_decls: &mut Vec<Decl>, diags: &mut Vec<Diagnostic>) {
    for d in &p.decls {
        if let DeclKind::Const(c) = &d.kind {
            if let Some((attr, _)) = identity_attr(&c.attrs) {
                if attr.starts_with("group_size_") {
                    let v = if attr == "group_size_x" { ts as u64 } else { 1 };
                    for n in &c.names {
                        match literal(&c.ty, v, Span::DUMMY) {
                            Ok(l) => new_decls.push(axiom(Expr::eq(Expr::var(n.name.clone(), Span::DUMMY), l))),
                            Err(d) => diags.push(d),
                        }
                    }
                }
            }
        }
    }
}

/// The axioms that mention per-thread constants, once for each thread.
fn per_thread_axioms(p: &Program, ts: usize, const_copies: &HashMap<Name, Vec<Name>>, new_decls: &mut Vec<Decl>) {
    let const_threads = Threads::new(ts, const_copies.clone());
    for d in &p.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            if const_threads.is_per_thread(&a.expr) {
                for t in 0..ts {
                    new_decls.push(axiom(const_threads.phi(&a.expr, t)));
                }
            }
        }
    }
}

/// What the lock-step construction of every selected body shares.
struct Bodies<'a> {
    ts: usize,
    shared: &'a HashMap<Name, SharedVar>,
    const_copies: &'a HashMap<Name, Vec<Name>>,
    names: &'a mut FreshNames,
}

impl Bodies<'_> {
    /// Every selected body of `out` (a copy of `p`) replaced by its lock-step form: preprocess,
    /// predicate, Table 3b. Returns the kernels built and, by kernel, the out-parameters renamed
    /// per thread (in procedure and implementation).
    fn lockstep_bodies(
        &mut self,
        p: &Program,
        out: &mut Program,
        new_globals: &mut Vec<(String, Decl)>,
        make_ins: &mut MakeInstrument,
        diags: &mut Vec<Diagnostic>,
    ) -> (Vec<Name>, HashMap<Name, Vec<TypedIdent>>) {
        let globals = global_var_types(p);
        let gpu = declares_kernels(p);
        let mut kernels = Vec::new();
        let mut renamed_outs: HashMap<Name, Vec<TypedIdent>> = HashMap::new();
        for d in &mut out.decls {
            let (attrs, name, body) = match &d.kind {
                DeclKind::Implementation(i) => (i.attrs.clone(), i.name.clone(), Some(ivl::lower::lower_body(i))),
                DeclKind::Procedure(pr) if pr.body.is_some() => {
                    (pr.attrs.clone(), pr.name.clone(), Some(ivl::lower::lower_procedure_body(pr)))
                }
                _ => continue,
            };
            if !is_selected(p, &attrs, &name.name, gpu) {
                continue;
            }
            let result = body.expect("a body").and_then(|b| {
                let pre = preprocess(&b)?;
                let pred = predicate_preprocessed(&pre, &globals, self.names)?;
                lockstep_impl(
                    &pred,
                    self.ts,
                    self.shared,
                    self.const_copies,
                    self.names,
                    new_globals,
                    make_ins,
                    &HashSet::new(),
                )
            });
            match result {
                Ok((imp, outs)) => {
                    renamed_outs.insert(name.name.clone(), outs.clone());
                    match &mut d.kind {
                        DeclKind::Implementation(i) => {
                            i.outs = outs;
                            i.body = imp.to_body();
                        }
                        DeclKind::Procedure(pr) => {
                            pr.outs = outs;
                            pr.body = Some(imp.to_body());
                        }
                        _ => unreachable!(),
                    }
                    kernels.push(name.name.clone());
                }
                Err(ds) => diags.extend(ds),
            }
        }
        (kernels, renamed_outs)
    }
}

/// The kernels' procedure declarations: per-thread outs, contracts for every thread.
fn kernel_procedures(
    out: &mut Program,
    ts: usize,
    const_copies: &HashMap<Name, Vec<Name>>,
    renamed_outs: &HashMap<Name, Vec<TypedIdent>>,
) {
    for d in &mut out.decls {
        if let DeclKind::Procedure(pr) = &mut d.kind {
            let Some(outs) = renamed_outs.get(&pr.name.name) else {
                continue;
            };
            let mut copies = const_copies.clone();
            for (i, o) in pr.outs.iter().enumerate() {
                copies.insert(o.name.name.clone(), (0..ts).map(|t| outs[i * ts + t].name.name.clone()).collect());
            }
            let th = Threads::new(ts, copies);
            pr.outs = outs.clone();
            for c in &mut pr.contracts {
                c.expr = th.all(&c.expr);
            }
        }
    }
}

/// Table 3b: the lock-step form of a predicated implementation. Returns the implementation and
/// its out-parameters (each original one replaced by its `TS` copies, in order).
///
/// Locals and outs named in `single` keep one copy (the uniform values of the two-thread
/// reduction; empty for the plain construction): their assignments take thread 1's value.
#[allow(clippy::too_many_arguments)]
pub(crate) fn lockstep_impl(
    pred: &PredicatedImpl,
    ts: usize,
    shared: &HashMap<Name, SharedVar>,
    const_copies: &HashMap<Name, Vec<Name>>,
    names: &mut FreshNames,
    new_globals: &mut Vec<(String, Decl)>,
    make_ins: &mut MakeInstrument,
    single: &HashSet<Name>,
) -> Result<(BlockImpl, Vec<TypedIdent>), Vec<Diagnostic>> {
    let imp = &pred.imp;
    let mut copies = const_copies.clone();
    let mut locals = Vec::new();
    let mut outs = Vec::new();
    // The thread of every entry of `locals` / `outs` (single copies: thread 1).
    let (mut local_threads, mut out_threads) = (Vec::new(), Vec::new());
    for (v, is_out) in imp.locals.iter().map(|v| (v, false)).chain(imp.outs.iter().map(|v| (v, true))) {
        let (list, threads) = if is_out { (&mut outs, &mut out_threads) } else { (&mut locals, &mut local_threads) };
        if single.contains(&v.name.name) {
            list.push(v.clone());
            threads.push(0);
            continue;
        }
        let c: Vec<Name> = (1..=ts).map(|t| names.fresh(&format!("{}${t}", v.name.name))).collect();
        for (t, n) in c.iter().enumerate() {
            let mut tv = v.clone();
            tv.name.name = n.clone();
            list.push(tv);
            threads.push(t);
        }
        copies.insert(v.name.name.clone(), c);
    }
    let th = Threads::new(ts, copies);
    // Where-clauses of the copies talk about the copies.
    for (v, &t) in locals.iter_mut().zip(&local_threads).chain(outs.iter_mut().zip(&out_threads)) {
        if let Some(w) = &v.where_clause {
            v.where_clause = Some(th.phi(w, t));
        }
    }
    let mut kc = KernelCtx {
        th,
        shared,
        names,
        new_locals: Vec::new(),
        new_globals,
        psi_temps: HashMap::new(),
        priorities: None,
    };
    let (mut ins, init) = make_ins(&mut kc, pred).map_err(|d| vec![d])?;
    let ins = ins.as_mut();
    let headers: HashSet<&Name> = pred.loops.iter().map(|l| &l.header).collect();
    let mut blocks = Vec::with_capacity(imp.blocks.len());
    let mut diags = Vec::new();
    for (bi, b) in imp.blocks.iter().enumerate() {
        let mut stmts = Vec::new();
        if headers.contains(&b.label.name) {
            ins.at_header(&mut kc, pred, &b.label.name, &mut stmts);
        }
        if bi == 0 {
            stmts.extend(init.iter().cloned());
        }
        let back = pred.back_of(&b.label.name).is_some();
        for s in &b.stmts {
            let result = match ins.rewrite(&mut kc, s, &mut stmts) {
                Ok(Some(s)) => kc.statement(&s, back, ins, &mut stmts),
                Ok(None) => Ok(()),
                Err(d) => Err(d),
            };
            if let Err(d) = result {
                diags.push(d);
            }
        }
        blocks.push(Block { label: b.label.clone(), stmts, term: b.term.clone(), span: b.span });
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    locals.extend(kc.new_locals);
    Ok((BlockImpl { locals, outs: outs.clone(), blocks, ..imp.clone() }, outs))
}

/// `kivl transform --emit lockstep --threads N`: every kernel (every body of a program without
/// kernels) as the lock-step program of seed 000 Table 3 for `ts` threads.
pub fn lockstep_program(p: &Program, ts: usize) -> Result<Program, Vec<Diagnostic>> {
    Ok(build(p, ts, &mut |_, _| Ok((Box::new(Plain) as Box<dyn Instrument>, Vec::new())))?.program)
}

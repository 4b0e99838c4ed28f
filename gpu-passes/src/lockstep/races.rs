//! Verification of the lock-step program: data races by Definition 4.1 of seed 000, barrier
//! divergence by the barrier assertions of Table 3, and assertion failures, with the VC engine.
//!
//! Definition 4.1: a race is a write by thread `t` and an access by a distinct thread `t'` to
//! the same shared location with no barrier in between; a thread accesses in a step only when it
//! is enabled (`v_active$t == B`), and reads everything the step evaluates — for guards, only
//! what short-circuit evaluation reaches (a guard `v_next == Bi ==> g` reads `g` only when the
//! thread goes to `Bi`). Expressions of `assert` statements are specifications, not accesses.
//!
//! Instrumentation, per shared variable `v` and thread `t` (ghost locals, all over the location
//! type of `v`; a scalar has one location):
//! - `W_v$t[l]` / `R_v$t[l]`: the access site (a number, `0` for none) of `t`'s last write /
//!   read of `l` since the last barrier that fences `v`'s memory;
//! - `WV_v$t[l]`: the value `t` last wrote to `l`; `MV_v$t[l]`: `t` wrote two different values.
//!
//! Before each statement, for each of its accesses by an enabled thread `t` at `l` and every
//! other thread `t'`: a read checks `W_v$t'[l] != s` for each write site `s` of `v`; a write
//! checks `R_v$t'[l] != s` for each read site, and `W_v$t'[l] != s` for each write site —
//! unless (benign tolerance, docs/kbpl.md §7) every write of `t'` to `l` wrote the value being
//! written. One assertion per site makes the error name both accesses. Accesses of two
//! threads in the same statement are checked against each other directly. Then the logs are
//! updated, then the statement runs. A barrier executed by the threads (its barrier assertion
//! already requires all or none) empties the logs of the memory it fences (`barrier {:local}`:
//! group-shared variables; `{:global}`: global ones; plain: both).
//!
//! Loops: each loop header gets the checked invariant that every thread is at the header, at
//! the header of an enclosing loop, or at a block after the loop that some block up to the
//! loop's end jumps to (`v_active` only grows, except along back edges), and Houdini candidates — some thread is at the header, the logs are empty, private
//! variables are equal in all threads — from which Houdini keeps the inductive ones. A kernel whose axioms and
//! preconditions are inconsistent with `TS` threads (say, a fixed `group_size_x`) is refused
//! rather than reported verified.

use super::accesses::{accesses, Access};
use super::{build, map_depth, map_levels, Instrument, KernelCtx};
use crate::predication::{int_lit, stmt, PredicatedImpl};
use crate::two_thread::barriers::{fenced, fences};
use crate::two_thread::exprs::map_type;
use crate::vacuity::{Kernel, VacuityChecks};
use ivl::ast::*;
use ivl::blocks::check_attrs;
use ivl::diag::{Diagnostic, ErrorKind};
use ivl::resolve::MemSpace;
use std::collections::HashMap;

/// Options of the race checks.
#[derive(Clone, Copy, Debug)]
pub struct RaceChecks {
    /// Two writes of the same value are not a race (GPUVerify's default).
    pub benign_tolerance: bool,
}

impl Default for RaceChecks {
    fn default() -> Self {
        RaceChecks { benign_tolerance: true }
    }
}

/// The ghost logs of one shared variable.
struct Logs {
    w: Vec<Name>,
    r: Vec<Name>,
    wv: Vec<Name>,
    mv: Vec<Name>,
    /// The "nothing accessed" values of the site logs and of the multi-value flags.
    empty_site: Expr,
    empty_flag: Expr,
    space: MemSpace,
}

struct Site {
    var: Name,
    write: bool,
    span: Span,
}

struct RaceInstrument {
    checks: RaceChecks,
    sites: Vec<Site>,
    logs: HashMap<Name, Logs>,
    /// Private variables whose equality across threads is a loop-invariant candidate.
    uniform_candidates: Vec<Name>,
}

/// One race check: the checking access (primary location) of thread `here` and the other
/// access (related location) of thread `other`, as in the two-thread reduction's message, so
/// that `crate::two_thread::counterexample::explain` names the threads and the element: the
/// threads are fixed here (thread `t` has local id `t` in group 0), the element is captured as
/// the checking access's location (`offsetK`).
struct RaceCheck<'a> {
    var: &'a Name,
    /// `read`/`write` of the other access, then of the checking one.
    kinds: (&'static str, &'static str),
    threads: (usize, usize),
    spans: (Span, Span),
    loc: &'a [Expr],
}

fn access_name(write: bool) -> &'static str {
    if write {
        "write"
    } else {
        "read"
    }
}

impl RaceCheck<'_> {
    fn assert(&self, e: Expr) -> Stmt {
        use crate::two_thread::counterexample::{capture, race_message};
        use crate::two_thread::exprs::check_attrs_msg;
        let (related, primary) = self.spans;
        let (first, second) = self.kinds;
        let msg = race_message(&format!("{first}-{second}"), self.var, self.kinds, "");
        let mut attrs = check_attrs_msg("race", Some(related), &msg, primary);
        for (k, t) in [(1, self.threads.0), (2, self.threads.1)] {
            for dim in crate::sizes::DIMS {
                let local = if dim == "x" { t } else { 0 };
                attrs.push(capture(&format!("t{k}.local_id_{dim}"), int_lit(local as u64, primary)));
                attrs.push(capture(&format!("t{k}.group_id_{dim}"), int_lit(0, primary)));
            }
        }
        for (k, l) in self.loc.iter().enumerate() {
            attrs.push(capture(&format!("{}{k}", vcgen::wp::INDEX_CAPTURE), l.clone()));
        }
        stmt(StmtKind::Assert { attrs, expr: e }, primary)
    }
}

fn select(m: &Name, loc: &[Expr], span: Span) -> Expr {
    let v = Expr::var(m.clone(), span);
    if loc.is_empty() {
        v
    } else {
        Expr::new(ExprKind::Select(Box::new(v), loc.to_vec()), span)
    }
}

fn lhs(m: &Name, loc: &[Expr], span: Span) -> Lhs {
    let indices = if loc.is_empty() { vec![] } else { vec![loc.to_vec()] };
    Lhs { var: Ident::new(m.clone(), span), indices, span }
}

impl RaceInstrument {
    fn site_id(&self, a: &Access) -> u64 {
        1 + self.sites.iter().position(|s| s.var == a.var && s.write == a.write && s.span == a.span).expect("site")
            as u64
    }

    fn sites_of(&self, var: &Name, write: bool) -> Vec<(u64, Span)> {
        self.sites
            .iter()
            .enumerate()
            .filter(|(_, s)| &s.var == var && s.write == write)
            .map(|(i, s)| (i as u64 + 1, s.span))
            .collect()
    }

    /// A constant map (`[T..]int` all zero, or `[T..]bool` all false), declared once.
    fn empty_map(kc: &mut KernelCtx, args: &[Type], result: Type, zero: Expr) -> Expr {
        if args.is_empty() {
            return zero;
        }
        let ty = map_type(args, result);
        let key = format!("empty {}", ivl::printer::print_type(&ty));
        if let Some((_, d)) = kc.new_globals.iter().find(|(k, _)| *k == key) {
            if let DeclKind::Const(c) = &d.kind {
                return Expr::var(c.names[0].name.clone(), Span::DUMMY);
            }
        }
        let name = kc.names.fresh("race$empty");
        let vars: Vec<TypedIdent> = args
            .iter()
            .enumerate()
            .map(|(i, t)| crate::predication::typed(&Name::from(format!("i{i}")), t.clone()))
            .collect();
        let body = Expr::eq(
            select(
                &name,
                &vars.iter().map(|v| Expr::var(v.name.name.clone(), Span::DUMMY)).collect::<Vec<_>>(),
                Span::DUMMY,
            ),
            zero,
        );
        let q =
            Quantifier { kind: QuantKind::Forall, type_params: vec![], vars, attrs: vec![], triggers: vec![], body };
        let cdecl = Decl {
            kind: DeclKind::Const(ConstDecl {
                attrs: vec![],
                unique: false,
                names: vec![Ident::new(name.clone(), Span::DUMMY)],
                ty,
                order_spec: None,
            }),
            span: Span::DUMMY,
        };
        let ax = Decl {
            kind: DeclKind::Axiom(AxiomDecl {
                attrs: vec![],
                expr: Expr::new(ExprKind::Quant(Box::new(q)), Span::DUMMY),
            }),
            span: Span::DUMMY,
        };
        kc.new_globals.push((key, cdecl));
        kc.new_globals.push((format!("axiom {name}"), ax));
        Expr::var(name, Span::DUMMY)
    }

    fn make_logs(&mut self, kc: &mut KernelCtx, var: &Name) -> Result<(), Diagnostic> {
        if self.logs.contains_key(var) {
            return Ok(());
        }
        let sv = kc.shared[var].clone();
        let (levels, value_ty) = map_levels(&sv.ty, map_depth(&sv.ty)).expect("full depth");
        let args: Vec<Type> = levels.into_iter().flatten().collect();
        let ts = kc.th.ts;
        let mut mk = |kind: &str, result: Type| -> Vec<Name> {
            (1..=ts).map(|t| kc.fresh_local(&format!("{kind}_{var}${t}"), map_type(&args, result.clone()))).collect()
        };
        let logs = Logs {
            w: mk("W", Type::int()),
            r: mk("R", Type::int()),
            wv: mk("WV", value_ty.clone()),
            mv: mk("MV", Type::bool()),
            empty_site: Expr::bool(false),
            empty_flag: Expr::bool(false),
            space: sv.space,
        };
        let empty_site = Self::empty_map(kc, &args, Type::int(), int_lit(0, Span::DUMMY));
        let empty_flag = Self::empty_map(kc, &args, Type::bool(), Expr::bool(false));
        self.logs.insert(var.clone(), Logs { empty_site, empty_flag, ..logs });
        Ok(())
    }

    /// `W, R, MV := empty` for thread `t` of `var`, when `cond` holds.
    fn reset(&self, var: &Name, cond: Option<&Expr>, span: Span, out: &mut Vec<Stmt>) {
        let l = &self.logs[var];
        let (mut lhss, mut rhss) = (Vec::new(), Vec::new());
        for t in 0..l.w.len() {
            for (m, empty) in [(&l.w[t], &l.empty_site), (&l.r[t], &l.empty_site), (&l.mv[t], &l.empty_flag)] {
                lhss.push(lhs(m, &[], span));
                rhss.push(match cond {
                    Some(c) => Expr::ite(c.clone(), empty.clone(), Expr::var(m.clone(), span)),
                    None => empty.clone(),
                });
            }
        }
        out.push(stmt(StmtKind::Assign { lhss, rhss }, span));
    }
}

fn loc_eq(a: &[Expr], b: &[Expr]) -> Option<Expr> {
    a.iter().zip(b).map(|(x, y)| Expr::eq(x.clone(), y.clone())).reduce(Expr::and)
}

impl Instrument for RaceInstrument {
    fn before(&mut self, kc: &mut KernelCtx, s: &Stmt, out: &mut Vec<Stmt>) -> Result<(), Diagnostic> {
        let acc = accesses(kc.shared, s)?;
        if acc.is_empty() {
            return Ok(());
        }
        if acc.iter().any(|a| a.atomic) {
            return Err(Diagnostic::unsupported(
                "atomic accesses are verified by the two-thread reduction only (not with `--lockstep`)",
                s.span,
            ));
        }
        let inst = instances(kc, &acc);
        self.check_against_logs(kc.th.ts, &acc, &inst, out);
        self.check_within_step(kc.th.ts, &acc, &inst, out);
        self.log_accesses(&acc, &inst, out);
        Ok(())
    }

    fn access_log(&self, kc: &KernelCtx, array: &Name, write: bool, t: usize) -> Option<super::spec::AccessLog> {
        let l = self.logs.get(array)?;
        let ty = &kc.shared.get(array)?.ty;
        let (levels, _) = map_levels(ty, map_depth(ty))?;
        let m = if write { &l.w[t] } else { &l.r[t] };
        Some(super::spec::AccessLog {
            log: Expr::var(m.clone(), Span::DUMMY),
            empty: l.empty_site.clone(),
            index: levels.into_iter().flatten().collect(),
        })
    }

    fn after_barrier(&mut self, kc: &mut KernelCtx, attrs: &[Attribute], cond: &Expr, out: &mut Vec<Stmt>) {
        let fences = fences(attrs);
        let executed = kc.th.any(cond);
        let mut vars: Vec<&Name> = self.logs.keys().filter(|v| fenced(self.logs[*v].space, fences)).collect();
        vars.sort();
        for v in vars {
            self.reset(v, Some(&executed), cond.span, out);
        }
    }

    fn at_header(&mut self, kc: &mut KernelCtx, pred: &PredicatedImpl, header: &Name, out: &mut Vec<Stmt>) {
        let Some(lp) = pred.loops.iter().find(|l| &l.header == header) else {
            return;
        };
        let sp = Span::DUMMY;
        // Where a thread can be when the lock-step program is at this header: at the header, at
        // the header of an enclosing loop (a `continue` taken earlier), or at a block after the
        // loop that a block up to the loop's end jumped to (an exit taken earlier, or the loop
        // skipped). Every other block before the header has run and been left.
        let enclosing = |h: u64| {
            pred.loops.iter().any(|o| o.header_id == h && o.header_id < lp.header_id && o.last_id >= lp.last_id)
        };
        let mut ids: Vec<u64> = pred
            .edges
            .iter()
            .filter(|&&(s, t)| s <= lp.last_id && (t > lp.last_id || enclosing(t)))
            .map(|&(_, t)| t)
            .collect();
        ids.push(lp.header_id);
        ids.sort_unstable();
        ids.dedup();
        let active = Expr::var(pred.active.clone(), sp);
        let allowed =
            ids.iter().map(|&i| Expr::eq(active.clone(), int_lit(i, sp))).reduce(Expr::or).expect("the header");
        let inv = kc.th.all(&allowed);
        out.push(stmt(StmtKind::Assert { attrs: check_attrs("invariant", None), expr: inv }, sp));
        let candidate = |e: Expr| {
            let attrs = vec![Attribute { name: Ident::new("candidate", sp), args: vec![], span: sp }];
            stmt(StmtKind::Assert { attrs, expr: e }, sp)
        };
        // Some thread is in the loop (true unless every thread skips it).
        out.push(candidate(kc.th.any(&Expr::eq(active.clone(), int_lit(lp.header_id, sp)))));
        let mut vars: Vec<&Name> = self.logs.keys().collect();
        vars.sort();
        for v in vars {
            let l = &self.logs[v];
            for t in 0..l.w.len() {
                for (m, empty) in [(&l.w[t], &l.empty_site), (&l.r[t], &l.empty_site), (&l.mv[t], &l.empty_flag)] {
                    out.push(candidate(Expr::eq(Expr::var(m.clone(), sp), empty.clone())));
                }
            }
        }
        for x in &self.uniform_candidates {
            let c = &kc.th.copies[x];
            for t in 1..c.len() {
                out.push(candidate(Expr::eq(Expr::var(c[0].clone(), sp), Expr::var(c[t].clone(), sp))));
            }
        }
    }
}

/// An access instantiated for one thread: its condition, location and value.
type Inst = (Expr, Vec<Expr>, Option<Expr>);

/// Each access of a step instantiated for every thread (`φ_t`).
fn instances(kc: &KernelCtx, acc: &[Access]) -> Vec<Vec<Inst>> {
    let ts = kc.th.ts;
    acc.iter()
        .map(|a| {
            (0..ts)
                .map(|t| {
                    (
                        kc.th.phi(&a.cond, t),
                        a.loc.iter().map(|e| kc.th.phi(e, t)).collect(),
                        a.value.as_ref().map(|v| kc.th.phi(v, t)),
                    )
                })
                .collect()
        })
        .collect()
}

impl RaceInstrument {
    /// Each access of thread `t` against the logs of every other thread: a read against the
    /// write sites, a write against the read and the write sites (with benign tolerance, a
    /// write of the value already written is no race).
    fn check_against_logs(&self, ts: usize, acc: &[Access], inst: &[Vec<Inst>], out: &mut Vec<Stmt>) {
        let benign = self.checks.benign_tolerance;
        for (ai, a) in acc.iter().enumerate() {
            let l = &self.logs[&a.var];
            for (t, (pc, loc, val)) in inst[ai].iter().enumerate() {
                for u in (0..ts).filter(|&u| u != t) {
                    // Thread `u` did not log an access of site `sid` at `loc`.
                    let not_logged = |log: &Name, sid| {
                        Expr::implies(
                            pc.clone(),
                            Expr::binary(BinOp::Neq, select(log, loc, a.span), int_lit(sid, a.span)),
                        )
                    };
                    let check = |first: bool, sspan| RaceCheck {
                        var: &a.var,
                        kinds: (access_name(first), access_name(a.write)),
                        threads: (u, t),
                        spans: (sspan, a.span),
                        loc,
                    };
                    if a.write {
                        for (sid, sspan) in self.sites_of(&a.var, false) {
                            out.push(check(false, sspan).assert(not_logged(&l.r[u], sid)));
                        }
                        for (sid, sspan) in self.sites_of(&a.var, true) {
                            let logged = Expr::eq(select(&l.w[u], loc, a.span), int_lit(sid, a.span));
                            let conflict = if benign {
                                let differs = Expr::binary(
                                    BinOp::Neq,
                                    select(&l.wv[u], loc, a.span),
                                    val.clone().expect("a value"),
                                );
                                Expr::and(logged, Expr::or(select(&l.mv[u], loc, a.span), differs))
                            } else {
                                logged
                            };
                            out.push(check(true, sspan).assert(Expr::implies(pc.clone(), Expr::not(conflict))));
                        }
                    } else {
                        for (sid, sspan) in self.sites_of(&a.var, true) {
                            out.push(check(true, sspan).assert(not_logged(&l.w[u], sid)));
                        }
                    }
                }
            }
        }
    }

    /// Accesses of two threads in the same step, checked against each other directly.
    fn check_within_step(&self, ts: usize, acc: &[Access], inst: &[Vec<Inst>], out: &mut Vec<Stmt>) {
        let benign = self.checks.benign_tolerance;
        for i in 0..acc.len() {
            for j in i..acc.len() {
                let (a, b) = (&acc[i], &acc[j]);
                if a.var != b.var || !(a.write || b.write) {
                    continue;
                }
                for t in 0..ts {
                    for u in (0..ts).filter(|&u| u != t && (i != j || u > t)) {
                        let (pa, la, va) = &inst[i][t];
                        let (pb, lb, vb) = &inst[j][u];
                        let mut clash = Expr::and(pa.clone(), pb.clone());
                        if let Some(eq) = loc_eq(la, lb) {
                            clash = Expr::and(clash, eq);
                        }
                        if a.write && b.write && benign {
                            clash =
                                Expr::and(clash, Expr::binary(BinOp::Neq, va.clone().unwrap(), vb.clone().unwrap()));
                        }
                        let check = RaceCheck {
                            var: &a.var,
                            kinds: (access_name(a.write), access_name(b.write)),
                            threads: (t, u),
                            spans: (a.span, b.span),
                            loc: lb,
                        };
                        out.push(check.assert(Expr::not(clash)));
                    }
                }
            }
        }
    }

    /// The accesses of every enabled thread entered in its logs.
    fn log_accesses(&self, acc: &[Access], inst: &[Vec<Inst>], out: &mut Vec<Stmt>) {
        // Log the accesses.
        for (ai, a) in acc.iter().enumerate() {
            let l = &self.logs[&a.var];
            let sid = int_lit(self.site_id(a), a.span);
            for (t, (pc, loc, val)) in inst[ai].iter().enumerate() {
                let sp = a.span;
                let keep = |m: &Name, new: Expr| Expr::ite(pc.clone(), new, select(m, loc, sp));
                if a.write {
                    let val = val.clone().unwrap();
                    let two_values = Expr::and(
                        pc.clone(),
                        Expr::and(
                            Expr::binary(BinOp::Neq, select(&l.w[t], loc, sp), int_lit(0, sp)),
                            Expr::binary(BinOp::Neq, select(&l.wv[t], loc, sp), val.clone()),
                        ),
                    );
                    let lhss = vec![lhs(&l.w[t], loc, sp), lhs(&l.wv[t], loc, sp), lhs(&l.mv[t], loc, sp)];
                    let rhss = vec![
                        keep(&l.w[t], sid.clone()),
                        keep(&l.wv[t], val),
                        Expr::or(select(&l.mv[t], loc, sp), two_values),
                    ];
                    out.push(stmt(StmtKind::Assign { lhss, rhss }, sp));
                } else {
                    out.push(stmt(
                        StmtKind::Assign { lhss: vec![lhs(&l.r[t], loc, sp)], rhss: vec![keep(&l.r[t], sid.clone())] },
                        sp,
                    ));
                }
            }
        }
    }
}

/// Prepares the instrumentation of one predicated kernel: its access sites and logs, the
/// candidates, and the statements that empty the logs at the start.
fn prepare(
    kc: &mut KernelCtx,
    pred: &PredicatedImpl,
    checks: RaceChecks,
) -> Result<(RaceInstrument, Vec<Stmt>), Diagnostic> {
    let mut ri = RaceInstrument { checks, sites: Vec::new(), logs: HashMap::new(), uniform_candidates: Vec::new() };
    for b in &pred.imp.blocks {
        for s in &b.stmts {
            for a in accesses(kc.shared, s)? {
                if !ri.sites.iter().any(|x| x.var == a.var && x.write == a.write && x.span == a.span) {
                    ri.sites.push(Site { var: a.var.clone(), write: a.write, span: a.span });
                }
                ri.make_logs(kc, &a.var)?;
            }
        }
    }
    let fresh: Vec<&Name> = pred.fresh_locals.iter().map(|v| &v.name.name).filter(|n| **n != pred.active).collect();
    ri.uniform_candidates =
        pred.imp.locals.iter().map(|v| v.name.name.clone()).filter(|n| !fresh.contains(&n)).collect();
    let mut init = Vec::new();
    let mut vars: Vec<Name> = ri.logs.keys().cloned().collect();
    vars.sort();
    for v in &vars {
        ri.reset(v, None, pred.imp.span, &mut init);
    }
    Ok((ri, init))
}

/// The lock-step program with the race checks, loop invariants and candidates that `kivl
/// verify --lockstep N` verifies, and the vacuity checks of its kernels.
pub struct CheckedLockstep {
    pub program: Program,
    pub vacuity: VacuityChecks,
}

/// The lock-step program of `p` for `n` threads with the race checks of Definition 4.1 (see
/// the module documentation), and one vacuity check per kernel.
pub fn checked_lockstep_program(p: &Program, n: usize, checks: RaceChecks) -> Result<CheckedLockstep, Vec<Diagnostic>> {
    let built = build(p, n, &mut |kc, pred| {
        let (ri, init) = prepare(kc, pred, checks)?;
        Ok((Box::new(ri) as Box<dyn Instrument>, init))
    })?;
    let program = built.program;
    untranslated_builtins(&program)?;
    let kernels: Vec<ProcedureDecl> =
        built.kernels.iter().filter_map(|k| program.procedures().find(|pr| &pr.name.name == k).cloned()).collect();
    let vacuity = VacuityChecks::new(
        &program,
        kernels.iter().map(|pr| Kernel {
            name: &pr.name.name,
            span: pr.name.span,
            ins: &pr.ins,
            requires: pr.contracts.iter().filter(|c| c.kind == SpecKind::Requires).cloned().collect(),
        }),
    );
    Ok(CheckedLockstep { program, vacuity })
}

/// A specification built-in the lock-step construction left in a contract (`requires
/// !__read(A)`: the access logs it reads do not exist there) would make the program mean
/// nothing: it is refused, at the contract.
fn untranslated_builtins(program: &Program) -> Result<(), Vec<Diagnostic>> {
    let unsupported: Vec<Diagnostic> = program
        .procedures()
        .flat_map(|pr| &pr.contracts)
        .filter(|c| super::spec::mentions_builtin(&c.expr))
        .map(|c| {
            Diagnostic::unsupported(
                "this specification built-in is not supported in a contract with `--lockstep`",
                c.span,
            )
            .with_label("in this contract")
        })
        .collect();
    if unsupported.is_empty() {
        Ok(())
    } else {
        Err(unsupported)
    }
}

/// The error of a kernel that no work-group of `n` threads can run.
pub fn unrunnable(kernel: &Name, span: Span, n: usize) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        format!("the axioms and preconditions of kernel `{kernel}` are inconsistent with a work-group of {n} threads"),
        span,
    )
    .with_note(
        "a kernel that cannot run with this many threads is not reported verified; check fixed `group_size` axioms",
    )
}

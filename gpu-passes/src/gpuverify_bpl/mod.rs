//! Candidate invariants for GPUVerify's instrumented Boogie (`.bpl` files that GPUVerify
//! wrote: `_WATCHED_OFFSET`, `_WRITE_HAS_OCCURRED_$$A`, `local_id_x$1` …), the `bpl-candidates`
//! stage of the plain-Boogie path.
//!
//! Why: a `.bpl` that GPUVerify wrote carries the candidates its own generator made (`_bN ==>
//! …` with `{:tag "loopBound"}` …) but not the loop invariants the kernel's author wrote in the
//! source (`__invariant(__write_implies(out, …))`): the `.bpl` files of the symbooglix/gpu
//! corpus have none. Without them a kernel whose threads write with a stride (thread `t`
//! writes the elements `t`, `t + G`, `t + 2G` …) cannot be proved race-free, and `kivl verify
//! X.bpl` disagrees with `kivl verify X.cu` (issue 18). This pass adds, at each loop head,
//! candidates of the strided-access family of GPUVerify's own race instrumenter (its
//! "accessed offset is the thread id" and "accessed offsets satisfy predicates" candidates,
//! GPUVerify's `RaceInstrumenter`/`LoopInvariantGenerator`; seed 001 §4.3):
//!
//! - for an access log `_K_HAS_OCCURRED_$$A` (K = READ, WRITE) updated in the loop, for each
//!   element width W of A in the `.bpl`'s units (1, and the source element's width over the
//!   `.bpl` element's, `{:source_elem_width}` / `{:elem_width}`) and each pair (M, E) below:
//!   `_K_HAS_OCCURRED_$$A ==> BV32_UREM(BV32_UDIV(_WATCHED_OFFSET, W), M) == E$1`
//!   (`{:thread 1}`: only thread 1's accesses are logged);
//! - for a thread's variable `v$t` that the loop increments by a loop-invariant stride
//!   (`v$t := BV32_ADD(v$t, s)`), and each pair: `BV32_UREM(v$t, M) == E$t` (`{:thread t}`,
//!   both threads), the fact the log candidates need to be inductive;
//!
//! - for a row pitch P of the kernel (a uniform factor of a group id, `group_id_x$1 * P`: the
//!   group works on its own row), `_K_HAS_OCCURRED_$$A ==> BV32_UREM(BV32_UREM(O, P),
//!   group_size) == local_id$1` with O the scaled offset above: the offset within the row is
//!   strided by the group (only this pair: `bvurem` terms are costly for the solver);
//!
//! where the pairs (M, E) are, per dimension d that is not fixed to one thread:
//! (group size, local id), (global size, global id = group id × group size + local id), and
//! (m, local id), (m, global id) for each modulus m of the loop: its strides s, and the
//! uniform factors C of its variables in products (`i * C`: thread t writes `t + i * C`).
//!
//! Each candidate is guarded as GPUVerify guards its own: `assert {:tag "kivl_strided"}
//! {:thread t} _kbN ==> φ` with a fresh `const {:existential true} _kbN: bool`, so Houdini
//! keeps only the inductive ones and assumes none before it proved it: a candidate can make
//! a proof succeed, never an unsafe program verify.

mod family;

use family::{Dims, Pair};
use ivl::ast::*;
use ivl::blocks::Block;
use ivl::cfg::Cfg;
use std::collections::HashSet;

/// The constant that GPUVerify's race instrumentation watches.
const WATCHED_OFFSET: &str = "_WATCHED_OFFSET";
/// The access logs candidates are made for, and the procedure that updates each.
const LOGS: [(&str, &str); 2] =
    [("_WRITE_HAS_OCCURRED_$$", "_LOG_WRITE_$$"), ("_READ_HAS_OCCURRED_$$", "_LOG_READ_$$")];

/// Whether `p` is GPUVerify's race-instrumented Boogie.
pub fn is_instrumented(p: &Program) -> bool {
    let consts = const_names(p);
    consts.contains(WATCHED_OFFSET) && consts.contains("local_id_x$1") && !logs(p).is_empty()
}

/// The program with the strided-access candidates at every loop head of every implementation,
/// or `None` when there are none to add (it is not GPUVerify's instrumented Boogie, a `BV32_*`
/// function it declares does not mean what GPUVerify's does, or no loop has such an access).
pub fn with_candidates(p: &Program) -> Option<Program> {
    if !is_instrumented(p) {
        return None;
    }
    let functions = family::functions(p)?;
    let dims = Dims::of(p, &const_names(p));
    let logs = logs(p);
    let mut guards = Guards { taken: ivl::visit::all_names(p), made: Vec::new() };
    let mut out = p.clone();
    for d in &mut out.decls {
        if let DeclKind::Implementation(imp) = &mut d.kind {
            add_to_implementation(imp, &dims, &logs, &mut guards);
        }
    }
    if guards.made.is_empty() {
        return None;
    }
    out.decls.extend(functions);
    out.decls.extend(guards.made.iter().map(guard_decl));
    Some(out)
}

/// One access log of the program: `_K_HAS_OCCURRED_$$A`, the procedure that updates it, and
/// the element widths of A in the `.bpl`'s units.
struct Log {
    flag: Name,
    logger: Name,
    widths: Vec<u64>,
}

fn logs(p: &Program) -> Vec<Log> {
    let mut out = Vec::new();
    for d in &p.decls {
        let DeclKind::Var(v) = &d.kind else { continue };
        for t in &v.vars {
            let name = t.name.as_str();
            let Some((_, logger)) = LOGS.iter().find(|(flag, _)| name.starts_with(flag)) else { continue };
            let array = &name[name.find("$$").expect("the prefix has `$$`") + 2..];
            let widths = widths(&v.attrs);
            out.push(Log { flag: t.name.name.clone(), logger: format!("{logger}{array}").into(), widths });
        }
    }
    out
}

/// 1, and the source element's width in the `.bpl`'s elements when it is a multiple of it.
fn widths(attrs: &[Attribute]) -> Vec<u64> {
    let int = |name| match find_attr(attrs, name).and_then(|a| a.args.first()) {
        Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(n), .. })) => u64::try_from(n).ok(),
        _ => None,
    };
    match (int("elem_width"), int("source_elem_width")) {
        (Some(e), Some(s)) if e > 0 && s > e && s % e == 0 => vec![1, s / e],
        _ => vec![1],
    }
}

fn const_names(p: &Program) -> HashSet<Name> {
    let mut out = HashSet::new();
    for d in &p.decls {
        if let DeclKind::Const(c) = &d.kind {
            out.extend(c.names.iter().map(|n| n.name.clone()));
        }
    }
    out
}

/// Fresh existential guards.
struct Guards {
    taken: HashSet<Name>,
    made: Vec<(Name, Span)>,
}

impl Guards {
    fn fresh(&mut self, span: Span) -> Name {
        let name = (self.made.len()..)
            .map(|i| Name::from(format!("_kb{i}")))
            .find(|n| !self.taken.contains(n))
            .expect("some name is free");
        self.taken.insert(name.clone());
        self.made.push((name.clone(), span));
        name
    }
}

fn guard_decl((name, span): &(Name, Span)) -> Decl {
    let attr =
        Attribute { name: Ident::new("existential", *span), args: vec![AttrArg::Expr(Expr::bool(true))], span: *span };
    let c = ConstDecl {
        attrs: vec![attr],
        unique: false,
        names: vec![Ident::new(name.clone(), *span)],
        ty: Type::bool(),
        order_spec: None,
    };
    Decl { kind: DeclKind::Const(c), span: *span }
}

/// Adds the candidates of each loop of `imp` after its header's label. Bodies that do not
/// lower (a resolution error reported elsewhere), and loops whose header has no label in the
/// written body (structured `while` loops: not GPUVerify's output), get none.
fn add_to_implementation(imp: &mut ImplementationDecl, dims: &Dims, logs: &[Log], guards: &mut Guards) {
    let Ok(blocks) = ivl::lower::lower_body(imp) else { return };
    let cfg = Cfg::new(&blocks);
    let all: Vec<&Stmt> = blocks.blocks.iter().flat_map(|b| &b.stmts).collect();
    // A pitch that is the group size makes the global id, which the pairs have already.
    let mut pitches = family::factors(&all, &HashSet::new(), family::is_group_id);
    pitches.retain(|p| !family::is_group_size(p));
    for lp in cfg.loops() {
        let header = &blocks.blocks[lp.header].label;
        let Some(at) =
            imp.body.stmts.iter().position(|s| matches!(&s.kind, StmtKind::Label(l) if l.name == header.name))
        else {
            continue;
        };
        let body: Vec<&Block> = lp.body.iter().map(|&b| &blocks.blocks[b]).collect();
        let candidates = loop_candidates(&body, dims, logs, &pitches, header.span);
        let stmts = candidates.into_iter().map(|(thread, phi)| guarded_assert(guards.fresh(header.span), thread, phi));
        imp.body.stmts.splice(at + 1..at + 1, stmts.collect::<Vec<_>>());
    }
}

/// The candidates of one loop, each with the thread it is about. `pitches`: the row pitches
/// of the implementation.
fn loop_candidates(body: &[&Block], dims: &Dims, logs: &[Log], pitches: &[Expr], span: Span) -> Vec<(u8, Expr)> {
    let modified: HashSet<Name> = body.iter().flat_map(|b| ivl::visit::modified_vars(&b.stmts)).collect();
    let strided = family::strided_vars(body, &modified);
    let stmts: Vec<&Stmt> = body.iter().flat_map(|b| &b.stmts).collect();
    let in_loop = |e: &Expr| ivl::visit::free_vars(e).iter().any(|n| modified.contains(n));
    let mut moduli: Vec<Expr> = strided.iter().map(|(_, s)| s.clone()).collect();
    moduli.extend(family::factors(&stmts, &modified, in_loop));
    let mut out = Vec::new();
    let called: HashSet<Name> = body.iter().flat_map(|b| called_procedures(&b.stmts)).collect();
    let pairs = dims.pairs(1, &moduli, span);
    for log in logs.iter().filter(|l| called.contains(&l.logger)) {
        for &w in &log.widths {
            for pair in &pairs {
                out.push((1, family::access_candidate(&log.flag, w, pair, span)));
                // Within a row, only "offset % P % group size == local id" (GPUVerify's
                // test kernels' form): the other pairs multiply the costly `bvurem` terms.
                let rows = if family::is_group_size(&pair.modulus) { pitches } else { &[][..] };
                for p in rows {
                    out.push((1, family::row_candidate(&log.flag, w, p, pair, span)));
                }
            }
        }
    }
    for (var, _) in &strided {
        let Some(thread) = family::thread_of(var) else { continue };
        for Pair { modulus, id } in dims.pairs(thread, &moduli, span) {
            out.push((thread, family::residue_is(Expr::var(var.clone(), span), modulus, id, span)));
        }
    }
    out
}

fn called_procedures(stmts: &[Stmt]) -> Vec<Name> {
    stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Call { proc, .. } => Some(proc.name.clone()),
            _ => None,
        })
        .collect()
}

/// `assert {:tag "kivl_strided"} {:thread t} g ==> φ;`
fn guarded_assert(guard: Name, thread: u8, phi: Expr) -> Stmt {
    let span = phi.span;
    let tag =
        Attribute { name: Ident::new("tag", span), args: vec![AttrArg::String("kivl_strided".into(), span)], span };
    let thread = Attribute {
        name: Ident::new("thread", span),
        args: vec![AttrArg::Expr(Expr::new(ExprKind::IntLit(thread.into()), span))],
        span,
    };
    let expr = Expr::implies(Expr::var(guard, span), phi);
    Stmt::new(StmtKind::Assert { attrs: vec![tag, thread], expr }, span)
}

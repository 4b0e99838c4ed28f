//! Loop cutting: makes a reducible block body acyclic (Boogie's `ConvertCFG2DAG`; Barnett &
//! Leino 2005 §3).
//!
//! For each natural loop ([`ivl::cfg`]) with header `h`, the leading `assert`/`assume`
//! statements of `h` are the loop's invariants (docs/kbpl.md §3.1: checked invariants are the asserts,
//! free ones the assumes). The header becomes
//!
//! ```text
//! h:  assert {:check "invariant-entry"} I;      // for each leading assert I
//!     havoc <targets>;                          // everything the loop may modify
//!     assume I; ... (the leading statements, asserts turned into assumes)
//!     <rest of h>
//! ```
//!
//! and every back edge `u -> h` is removed: the latch `u` ends with
//! `assert {:check "invariant-maintained"} I; assume false;` (when `u` has other successors
//! the checks go into a new block on the edge). What remains is acyclic: after the header, an
//! arbitrary iteration that satisfies the invariants.
//!
//! Loop targets are the variables assigned, havocked or received from calls in the loop's
//! blocks, plus the `modifies` of the procedures called there; a `barrier` statement in a loop
//! counts as modifying every global. Free invariants are assumed after the havoc and never
//! checked, as in Boogie. An assert marked `{:check "invariant"}` (lowered from `while`) that
//! is not at the head of a loop — the loop never iterates — is just an entry check. Irreducible
//! control flow is an `unsupported` diagnostic naming the blocks of the offending cycle.

use super::context::Context;
use super::contracts;
use super::names::Fresh;
use super::stmts::where_assumes;
use ivl::ast::*;
use ivl::blocks::{check_kind, related_span, Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use ivl::lower::with_check;
use std::collections::{HashMap, HashSet};

/// Cuts every back edge of `imp`; see the module documentation.
pub fn cut_loops(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) -> Result<(), Diagnostic> {
    let cfg = Cfg::new(imp);
    cfg.check_reducible()?;
    retag_stray_invariants(imp, &cfg);
    if cfg.loops().is_empty() {
        return Ok(());
    }
    let scope: HashSet<Name> = contracts::local_scope(imp).keys().cloned().collect();
    let wheres = contracts::where_clauses(ctx, imp);
    let modified: Vec<Vec<Name>> = imp.blocks.iter().map(|b| block_targets(ctx, &b.stmts, &scope)).collect();

    // Invariants of every header, from the original statements.
    let mut invariants: HashMap<usize, Vec<Stmt>> = HashMap::new();
    for l in cfg.loops() {
        let h = l.header;
        let lead = leading_predicates(&imp.blocks[h].stmts);
        let asserts: Vec<Stmt> =
            imp.blocks[h].stmts[..lead].iter().filter(|s| matches!(s.kind, StmtKind::Assert { .. })).cloned().collect();
        invariants.insert(h, asserts);
    }

    for l in cfg.loops() {
        let h = l.header;
        let mut targets = Vec::new();
        let mut seen = HashSet::new();
        for &b in &l.body {
            for x in &modified[b] {
                if seen.insert(x.clone()) {
                    targets.push(x.clone());
                }
            }
        }
        let span = imp.blocks[h].label.span;
        let old = std::mem::take(&mut imp.blocks[h].stmts);
        let lead = leading_predicates(&old);
        let mut stmts: Vec<Stmt> = invariants[&h].iter().map(|s| check(s, "invariant-entry")).collect();
        if !targets.is_empty() {
            stmts.push(Stmt::new(StmtKind::Havoc(targets.iter().map(|t| Ident::new(t.clone(), span)).collect()), span));
            stmts.extend(where_assumes(&targets, &|n| wheres.get(n).cloned(), span));
        }
        let mut rest = old.into_iter();
        for s in rest.by_ref().take(lead) {
            stmts.push(match s.kind {
                StmtKind::Assert { attrs, expr } => {
                    let attrs =
                        attrs.into_iter().filter(|a| !matches!(a.name.as_str(), "check" | "related_span")).collect();
                    Stmt::new(StmtKind::Assume { attrs, expr }, s.span)
                }
                _ => s,
            });
        }
        stmts.extend(rest);
        imp.blocks[h].stmts = stmts;
    }

    // Remove the back edges, checking the invariants at the end of each latch.
    let mut latches: Vec<usize> = cfg.back_edges().iter().map(|&(u, _)| u).collect();
    latches.sort_unstable();
    latches.dedup();
    let mut new_blocks = Vec::new();
    for u in latches {
        let heads: Vec<usize> = cfg.back_edges().iter().filter(|&&(x, _)| x == u).map(|&(_, h)| h).collect();
        let span = imp.blocks[u].span;
        let maintained = |h: usize| -> Vec<Stmt> {
            let mut v: Vec<Stmt> = invariants[&h].iter().map(|s| check(s, "invariant-maintained")).collect();
            v.push(Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: Expr::bool(false) }, span));
            v
        };
        if cfg.successors(u).len() == 1 {
            let h = heads[0];
            let extra = maintained(h);
            let b = &mut imp.blocks[u];
            b.stmts.extend(extra);
            b.term = Terminator::Return;
            continue;
        }
        let mut redirect: HashMap<Name, Ident> = HashMap::new();
        for h in heads {
            let hl = imp.blocks[h].label.name.clone();
            let label = Ident::new(fresh.make(&format!("{}$backedge${}", imp.blocks[u].label.name, hl)), span);
            new_blocks.push(Block { label: label.clone(), stmts: maintained(h), term: Terminator::Return, span });
            redirect.insert(hl, label);
        }
        if let Terminator::Goto(ts) = &mut imp.blocks[u].term {
            for t in ts.iter_mut() {
                if let Some(l) = redirect.get(&t.name) {
                    *t = l.clone();
                }
            }
        }
    }
    imp.blocks.extend(new_blocks);
    Ok(())
}

/// Number of leading `assert`/`assume` statements.
pub fn leading_predicates(stmts: &[Stmt]) -> usize {
    stmts.iter().take_while(|s| matches!(s.kind, StmtKind::Assert { .. } | StmtKind::Assume { .. })).count()
}

/// A copy of the invariant assert `s` that checks `kind`, related to the invariant itself.
pub(super) fn check(s: &Stmt, kind: &str) -> Stmt {
    let StmtKind::Assert { attrs, expr } = &s.kind else { unreachable!("invariants are asserts") };
    let related = related_span(attrs).unwrap_or(s.span);
    Stmt::new(StmtKind::Assert { attrs: with_check(attrs, kind, Some(related)), expr: expr.clone() }, s.span)
}

/// Asserts lowered from `while` invariants whose header turned out not to head a loop are
/// checked once, on entry.
fn retag_stray_invariants(imp: &mut BlockImpl, cfg: &Cfg) {
    for (i, b) in imp.blocks.iter_mut().enumerate() {
        if cfg.is_loop_header(i) {
            continue;
        }
        for s in &mut b.stmts {
            if let StmtKind::Assert { attrs, .. } = &mut s.kind {
                if check_kind(attrs) == "invariant" {
                    let related = related_span(attrs);
                    *attrs = with_check(attrs, "invariant-entry", related);
                }
            }
        }
    }
}

/// The variables the statements of a block may modify, in order of first occurrence.
fn block_targets(ctx: &Context, stmts: &[Stmt], scope: &HashSet<Name>) -> Vec<Name> {
    let mut out = Vec::new();
    let mut seen: HashSet<Name> = HashSet::new();
    let mut add = |n: &Name, out: &mut Vec<Name>| {
        if seen.insert(n.clone()) {
            out.push(n.clone());
        }
    };
    for s in stmts {
        for x in ivl::modifies::written_vars(s) {
            add(&x.name, &mut out);
        }
        match &s.kind {
            StmtKind::Call { proc, .. } => {
                if let Some(p) = ctx.procedure(&proc.name) {
                    for m in &p.modifies {
                        add(&m.name, &mut out);
                    }
                }
            }
            StmtKind::Barrier { .. } => {
                for g in ctx.global_names() {
                    if !scope.contains(&g) {
                        add(&g, &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

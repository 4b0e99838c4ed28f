//! Modifies-clause inference, Boogie's `/doModSetAnalysis` (docs/kbpl.md §2.4): every procedure with a
//! body gets, in its `modifies` clause, the global variables its bodies assign, havoc or receive
//! from calls, and everything its callees modify (a fixpoint over the call graph). Later passes
//! (call desugaring, the GPU passes) then rely on complete modifies clauses. GPUVerify's output
//! depends on this, which is why [`crate::check`] does not report missing modifies entries in
//! programs with a `{:kernel}`.
//!
//! Declared entries are kept in their order; inferred ones are appended in name order, each with
//! the span of the statement that first causes it.

use crate::ast::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Calls `f` on every statement of `ss`, nested ones included (pre-order).
pub fn walk_stmts<'a>(ss: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in ss {
        f(s);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                walk_stmts(then, f);
                match els {
                    Some(Else::Block(b)) => walk_stmts(b, f),
                    Some(Else::If(s)) => walk_stmts(std::slice::from_ref(&**s), f),
                    None => {}
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => walk_stmts(body, f),
            _ => {}
        }
    }
}

/// The variables a simple statement writes (assignment and havoc targets, call results, ψ
/// targets), and the callee of a call.
pub fn written_vars(s: &Stmt) -> Vec<&Ident> {
    match &s.kind {
        StmtKind::Assign { lhss, .. } | StmtKind::Vector(VectorStmt::Assign { lhss, .. }) => {
            lhss.iter().map(|l| &l.var).collect()
        }
        StmtKind::Havoc(ids) | StmtKind::Vector(VectorStmt::Havoc(ids)) => ids.iter().collect(),
        StmtKind::Call { outs, .. } => outs.iter().collect(),
        StmtKind::Vector(VectorStmt::Psi { lhs, .. }) => vec![&lhs.var],
        StmtKind::Atomic(a) => std::iter::once(&a.target.var).chain(&a.out).collect(),
        _ => Vec::new(),
    }
}

#[derive(Default)]
struct ProcFacts {
    /// Globals written directly, with the first writing statement's span.
    direct: Vec<(Name, Span)>,
    /// Callees, with the call's span.
    calls: Vec<(Name, Span)>,
}

/// Fills every procedure's `modifies` clause with what its implementations (and body) modify,
/// transitively through calls. Procedures without a body keep their declared clause.
pub fn infer_modifies(p: &Program) -> Program {
    let globals: HashSet<&Name> = p
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(v.vars.iter().map(|tv| &tv.name.name)),
            _ => None,
        })
        .flatten()
        .collect();
    let (facts, declared) = proc_facts(p, &globals);
    let mods = transitive_mods(&facts, &declared, &globals);
    let mut out = p.clone();
    for d in &mut out.decls {
        if let DeclKind::Procedure(pd) = &mut d.kind {
            let Some(m) = mods.get(&pd.name.name) else {
                continue;
            };
            let have: HashSet<Name> = pd.modifies.iter().map(|i| i.name.clone()).collect();
            for (g, span) in m {
                if !have.contains(g) {
                    pd.modifies.push(Ident::new(g.clone(), *span));
                }
            }
        }
    }
    out
}

/// Per procedure with a body: the globals it writes and the procedures it calls; and every
/// procedure's declared `modifies`.
fn proc_facts(p: &Program, globals: &HashSet<&Name>) -> (HashMap<Name, ProcFacts>, HashMap<Name, Vec<Name>>) {
    let mut facts: HashMap<Name, ProcFacts> = HashMap::new();
    let mut declared: HashMap<Name, Vec<Name>> = HashMap::new();
    for d in &p.decls {
        let (name, ins, outs, body) = match &d.kind {
            DeclKind::Procedure(pd) => {
                declared
                    .entry(pd.name.name.clone())
                    .or_insert_with(|| pd.modifies.iter().map(|m| m.name.clone()).collect());
                match &pd.body {
                    Some(b) => (&pd.name.name, &pd.ins, &pd.outs, b),
                    None => continue,
                }
            }
            DeclKind::Implementation(i) => (&i.name.name, &i.ins, &i.outs, &i.body),
            _ => continue,
        };
        let shadowed: HashSet<&Name> = ins
            .iter()
            .chain(outs)
            .map(|x| &x.name.name)
            .chain(body.locals.iter().flat_map(|v| &v.vars).map(|v| &v.name.name))
            .collect();
        let f = facts.entry(name.clone()).or_default();
        walk_stmts(&body.stmts, &mut |s| {
            for v in written_vars(s) {
                if globals.contains(&v.name)
                    && !shadowed.contains(&v.name)
                    && !f.direct.iter().any(|(n, _)| *n == v.name)
                {
                    f.direct.push((v.name.clone(), s.span));
                }
            }
            if let StmtKind::Call { proc, .. } = &s.kind {
                f.calls.push((proc.name.clone(), s.span));
            }
        });
    }
    (facts, declared)
}

/// mods(P) = declared(P) ∪ direct(P) ∪ ⋃ mods(Q) for the callees Q, as a fixpoint; each global
/// with the span of the first statement that writes it (directly or by a call).
fn transitive_mods(
    facts: &HashMap<Name, ProcFacts>,
    declared: &HashMap<Name, Vec<Name>>,
    globals: &HashSet<&Name>,
) -> HashMap<Name, BTreeMap<Name, Span>> {
    let mut mods: HashMap<Name, BTreeMap<Name, Span>> = HashMap::new();
    for (name, f) in facts {
        let m = mods.entry(name.clone()).or_default();
        for (g, span) in &f.direct {
            m.entry(g.clone()).or_insert(*span);
        }
    }
    let callee_mods = |mods: &HashMap<Name, BTreeMap<Name, Span>>, q: &Name| -> Vec<Name> {
        let mut v: Vec<Name> = declared.get(q).cloned().unwrap_or_default();
        if let Some(m) = mods.get(q) {
            v.extend(m.keys().cloned());
        }
        v
    };
    let mut order: Vec<&Name> = facts.keys().collect();
    order.sort();
    loop {
        let mut changed = false;
        for name in &order {
            let mut add: Vec<(Name, Span)> = Vec::new();
            for (q, span) in &facts[*name].calls {
                for g in callee_mods(&mods, q) {
                    if globals.contains(&g) {
                        add.push((g, *span));
                    }
                }
            }
            let m = mods.get_mut(*name).expect("every procedure with facts has a set");
            for (g, span) in add {
                if let std::collections::btree_map::Entry::Vacant(v) = m.entry(g) {
                    v.insert(span);
                    changed = true;
                }
            }
        }
        if !changed {
            return mods;
        }
    }
}

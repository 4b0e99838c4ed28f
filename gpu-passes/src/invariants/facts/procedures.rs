//! What each procedure does, for the loops that call it: barrier procedures, procedure
//! summaries (the arrays it writes, its shared accesses) and the shared-memory accesses of
//! statements with the conditions that guard them.
//!
//! Separate from loops: a summary is per procedure and is computed once for the program,
//! before any loop is read.

use super::syntax::{body_of, leading_assumes, shared_reads};
use super::*;

impl ProgramFacts<'_> {
    /// Barrier procedures, procedure summaries and the bodies kernels reach.
    pub(super) fn summarise_procedures(&mut self) {
        let program = self.program;
        let mut calls: HashMap<Name, Vec<Name>> = HashMap::new();
        let mut direct_barrier: HashSet<Name> = HashSet::new();
        for d in &program.decls {
            if let DeclKind::Procedure(p) = &d.kind {
                if has_attr(&p.attrs, "barrier") {
                    direct_barrier.insert(p.name.name.clone());
                }
            }
            let Some((name, _, _, _, body)) = body_of(d) else {
                continue;
            };
            ivl::modifies::walk_stmts(&body.stmts, &mut |s| match &s.kind {
                StmtKind::Barrier { .. } => {
                    direct_barrier.insert(name.clone());
                }
                StmtKind::Call { proc, .. } => calls.entry(name.clone()).or_default().push(proc.name.clone()),
                _ => {}
            });
        }
        // Barrier procedures: a fixpoint over calls.
        let mut barrier = direct_barrier;
        loop {
            let before = barrier.len();
            for (p, cs) in &calls {
                if cs.iter().any(|c| barrier.contains(c)) {
                    barrier.insert(p.clone());
                }
            }
            if barrier.len() == before {
                break;
            }
        }
        self.barrier_procs = barrier;
        // Reachable bodies.
        let mut reach: Vec<Name> = self.kernels.iter().cloned().collect();
        let mut seen: HashSet<Name> = HashSet::new();
        while let Some(n) = reach.pop() {
            if seen.insert(n.clone()) {
                reach.extend(calls.get(&n).into_iter().flatten().cloned());
            }
        }
        for (i, d) in program.decls.iter().enumerate() {
            if let Some((name, attrs, ..)) = body_of(d) {
                if seen.contains(name) {
                    self.owners.push(BodyOwner { decl: i, name: name.clone(), kernel: has_attr(attrs, "kernel") });
                }
            }
        }
        // Summaries of callees (not kernels): accesses over their formals.
        for d in &program.decls {
            let Some((name, attrs, ins, outs, body)) = body_of(d) else {
                continue;
            };
            if has_attr(attrs, "kernel") || self.summaries.contains_key(name) {
                continue;
            }
            let Some(imp) = ivl::lower::lower(attrs, &Ident::new(name.clone(), Span::DUMMY), ins, outs, body).ok()
            else {
                continue;
            };
            let mut accesses = Vec::new();
            for b in &imp.blocks {
                let conds = leading_assumes(&b.stmts);
                for s in &b.stmts {
                    self.stmt_accesses(s, &conds, &mut accesses, &HashMap::new());
                }
            }
            let summary = ProcSummary {
                ins: ins.iter().map(|v| v.name.name.clone()).collect(),
                accesses,
                has_barrier: self.barrier_procs.contains(name),
            };
            self.summaries.insert(name.clone(), summary);
        }
    }

    /// The shared accesses of one simple statement (a call contributes its callee's accesses,
    /// with actual arguments for formals; one level deep).
    pub(super) fn stmt_accesses(
        &self,
        s: &Stmt,
        conds: &[Expr],
        out: &mut Vec<LoopAccess>,
        summaries: &HashMap<Name, ProcSummary>,
    ) {
        let mut reads = Vec::new();
        match &s.kind {
            StmtKind::Assign { lhss, rhss } => {
                for (l, r) in lhss.iter().zip(rhss) {
                    shared_reads(&self.env, r, &mut reads);
                    for idx in l.indices.iter().flatten() {
                        shared_reads(&self.env, idx, &mut reads);
                    }
                    if self.env.global_var(&l.var.name).is_some() && !l.indices.is_empty() && l.indices[0].len() == 1 {
                        out.push(LoopAccess {
                            array: l.var.name.clone(),
                            index: l.indices[0][0].clone(),
                            levels: l.indices.len(),
                            write: true,
                            value: Some(r.clone()),
                            conds: conds.to_vec(),
                        });
                    }
                }
            }
            StmtKind::Assume { expr, attrs } if attrs.is_empty() => shared_reads(&self.env, expr, &mut reads),
            StmtKind::Assert { expr, attrs } if ivl::blocks::check_kind(attrs) == "assertion" => {
                shared_reads(&self.env, expr, &mut reads)
            }
            StmtKind::Call { proc, args, .. } => {
                for a in args {
                    shared_reads(&self.env, a, &mut reads);
                }
                if let Some(sum) = summaries.get(&proc.name) {
                    let map: HashMap<Name, Expr> = sum.ins.iter().cloned().zip(args.iter().cloned()).collect();
                    for a in &sum.accesses {
                        let mut a = a.clone();
                        a.index = ivl::visit::substitute(&a.index, &map);
                        a.value = a.value.map(|v| ivl::visit::substitute(&v, &map));
                        a.conds = conds
                            .iter()
                            .cloned()
                            .chain(a.conds.iter().map(|c| ivl::visit::substitute(c, &map)))
                            .collect();
                        out.push(a);
                    }
                }
            }
            _ => {}
        }
        for (array, index, levels) in reads {
            out.push(LoopAccess { array, index, levels, write: false, value: None, conds: conds.to_vec() });
        }
    }
}

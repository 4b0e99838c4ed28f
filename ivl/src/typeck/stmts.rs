//! Type checking of statements and bodies: assignments, calls (with modifies clauses), atomic
//! statements, labels and jumps, and the checking of very large bodies in parts on several
//! threads.
//!
//! Separate from expressions: statements add the procedure's state (labels, loop depth,
//! modifies clauses, assignable targets) to what is checked.

use super::*;

/// Where to cut a large body's top-level statements for checking on several threads: near
/// each `k/parts` of the text, the first statement there that does not follow a label (a label
/// names the structured statement after it, so the two stay together). Empty for bodies
/// shorter than [`PARALLEL_CHECK_BYTES`].
fn parallel_cuts(ss: &[Stmt], parts: usize) -> Vec<usize> {
    let (Some(first), Some(last)) = (ss.first(), ss.last()) else {
        return Vec::new();
    };
    let len = last.span.end.saturating_sub(first.span.start);
    if len < PARALLEL_CHECK_BYTES {
        return Vec::new();
    }
    let mut cuts: Vec<usize> = Vec::new();
    for k in 1..parts {
        let target = first.span.start + (len as u64 * k as u64 / parts as u64) as u32;
        let from = cuts.last().map_or(1, |&c| c + 1);
        if let Some(i) =
            (from..ss.len()).find(|&i| ss[i].span.start >= target && !matches!(ss[i - 1].kind, StmtKind::Label(_)))
        {
            cuts.push(i);
        }
    }
    cuts
}

impl Checker<'_> {
    /// Checks a body (`{ var ...; stmts }`) in the current scope (parameters declared).
    pub fn body(&mut self, body: &Body) {
        for decl in &body.locals {
            self.attrs(&decl.attrs);
            let tys = self.var_types(decl.vars.iter().map(|v| &v.ty));
            for (v, ty) in decl.vars.iter().zip(tys) {
                self.declare(&v.name, ty, LocalKind::Local);
                self.attrs(&v.attrs);
            }
        }
        let saved = self.ctx;
        self.ctx = Ctx { no_old: Some("a `where` clause"), no_globals: None, spec: false, trigger: false };
        for decl in &body.locals {
            for v in &decl.vars {
                if let Some(w) = &v.where_clause {
                    self.expect_bool(w, "a `where` clause");
                }
            }
        }
        self.ctx = saved;
        self.labels.clear();
        self.collect_labels(&body.stmts);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cuts =
            if threads < 2 { Vec::new() } else { parallel_cuts(&body.stmts, crate::parallel::parts_for(threads)) };
        if cuts.is_empty() {
            self.stmts(&body.stmts);
        } else {
            self.stmts_in_parts(&body.stmts, &cuts, threads);
        }
    }

    /// Checks the parts of `ss` between `cuts` on `threads` threads, which take the parts in
    /// turn ([`crate::parallel::in_turn`]), then gathers the diagnostics in statement order.
    /// This equals `self.stmts(ss)`: between two top-level statements that are not separated
    /// by a label, the only state the checker carries is read-only (the scope, the labels
    /// collected beforehand, the context), `enclosing_labels` is empty and `loop_depth` is 0,
    /// so every part starts from exactly the state a sequential check would have there,
    /// whichever copy of the checker takes it.
    fn stmts_in_parts(&mut self, ss: &[Stmt], cuts: &[usize], threads: usize) {
        let mut bounds = vec![0];
        bounds.extend(cuts);
        bounds.push(ss.len());
        // Own copies of the types: cloning a map type bumps a reference count, and threads
        // bumping the same counts for every variable they look up made checking a third slower.
        let env = self.env.unshared();
        let mut worker = Checker { diags: Vec::new(), errors: 0, instances: Vec::new(), ..self.clone() };
        worker.env = &env;
        for l in worker.scope.values_mut() {
            l.ty = l.ty.unshared();
        }
        let workers = vec![worker; threads];
        let parts = crate::parallel::in_turn(bounds.len() - 1, workers, |c, k| {
            c.stmts(&ss[bounds[k]..bounds[k + 1]]);
            (std::mem::take(&mut c.diags), std::mem::take(&mut c.errors), std::mem::take(&mut c.instances))
        })
        .unwrap_or_else(|p| std::panic::resume_unwind(p));
        for (diags, errors, instances) in parts {
            self.diags.extend(diags);
            self.errors += errors;
            self.instances.extend(instances);
        }
    }

    fn collect_labels(&mut self, ss: &[Stmt]) {
        for s in ss {
            match &s.kind {
                StmtKind::Label(l) => {
                    if let Some(prev) = self.labels.get(&l.name) {
                        let d = Diagnostic::type_error(format!("duplicate label `{}`", l.name), l.span)
                            .with_label("declared again here")
                            .with_related(*prev, "first declared here");
                        self.report(d);
                    } else {
                        self.labels.insert(l.name.clone(), l.span);
                    }
                }
                StmtKind::If { then, els, .. } => {
                    self.collect_labels(then);
                    let mut e = els.as_ref();
                    while let Some(x) = e {
                        match x {
                            Else::Block(b) => {
                                self.collect_labels(b);
                                e = None;
                            }
                            Else::If(s) => {
                                self.collect_labels(std::slice::from_ref(s));
                                e = None;
                            }
                        }
                    }
                }
                StmtKind::While { body, .. } | StmtKind::Block(body) => self.collect_labels(body),
                _ => {}
            }
        }
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        let mut pending = 0usize;
        for s in ss {
            if let StmtKind::Label(l) = &s.kind {
                self.enclosing_labels.push(l.name.clone());
                pending += 1;
                continue;
            }
            // Labels written right before a structured statement name it (targets of `break L`).
            let structured = matches!(s.kind, StmtKind::If { .. } | StmtKind::While { .. } | StmtKind::Block(_));
            if !structured {
                let n = self.enclosing_labels.len();
                self.enclosing_labels.truncate(n - pending);
                pending = 0;
            }
            self.stmt(s);
            let n = self.enclosing_labels.len();
            self.enclosing_labels.truncate(n - pending);
            pending = 0;
        }
        let n = self.enclosing_labels.len();
        self.enclosing_labels.truncate(n - pending);
    }

    fn with_ctx(&mut self, ctx: Ctx, f: impl FnOnce(&mut Self)) {
        let saved = self.ctx;
        self.ctx = ctx;
        f(self);
        self.ctx = saved;
    }

    fn spec_ctx(&self) -> Ctx {
        Ctx { spec: true, ..self.ctx }
    }

    pub(crate) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Label(_) => {}
            StmtKind::Assign { lhss, rhss } => self.assign(s, lhss, rhss),
            StmtKind::Havoc(ids) => {
                self.distinct_targets(ids.iter(), "havoc");
                for id in ids {
                    self.target(id, "havoc");
                }
            }
            StmtKind::Assert { attrs, expr } | StmtKind::Assume { attrs, expr } => {
                self.attrs(attrs);
                let what = if matches!(s.kind, StmtKind::Assert { .. }) { "an assertion" } else { "an assumption" };
                self.with_ctx(self.spec_ctx(), |c| c.expect_bool(expr, what));
            }
            StmtKind::Call { attrs, outs, proc, args } => {
                self.attrs(attrs);
                self.call_stmt(s, outs, proc, args);
            }
            StmtKind::Goto(targets) => {
                for t in targets {
                    if !self.labels.contains_key(&t.name) {
                        self.type_error(
                            format!("undeclared label `{}`", t.name),
                            t.span,
                            "no statement of this procedure has this label",
                        );
                    }
                }
            }
            StmtKind::Return => {}
            StmtKind::Break(label) => match label {
                None if self.loop_depth == 0 => {
                    self.type_error("`break` outside a loop", s.span, "`break;` must be inside a `while` loop");
                }
                Some(l) if !self.enclosing_labels.contains(&l.name) => {
                    self.type_error(
                        format!("break label `{}` does not name an enclosing statement", l.name),
                        l.span,
                        "`break L;` needs `L:` right before an enclosing `if` or `while`",
                    );
                }
                _ => {}
            },
            StmtKind::If { cond, then, els } => {
                if let Some(c) = cond {
                    self.expect_bool(c, "the condition of `if`");
                }
                self.stmts(then);
                let mut e = els.as_ref();
                while let Some(x) = e {
                    match x {
                        Else::Block(b) => {
                            self.stmts(b);
                            e = None;
                        }
                        Else::If(s) => {
                            self.stmt(s);
                            e = None;
                        }
                    }
                }
            }
            StmtKind::While { cond, invariants, body } => {
                if let Some(c) = cond {
                    self.expect_bool(c, "the condition of `while`");
                }
                for inv in invariants {
                    self.attrs(&inv.attrs);
                    self.with_ctx(self.spec_ctx(), |c| c.expect_bool(&inv.expr, "a loop invariant"));
                }
                self.loop_depth += 1;
                self.stmts(body);
                self.loop_depth -= 1;
            }
            StmtKind::Barrier { attrs, invariants } => {
                self.attrs(attrs);
                for inv in invariants {
                    self.attrs(&inv.attrs);
                    self.with_ctx(self.spec_ctx(), |c| c.expect_bool(&inv.expr, "a barrier invariant"));
                }
            }
            StmtKind::Atomic(a) => self.atomic(a),
            StmtKind::Block(ss) => self.stmts(ss),
            StmtKind::Vector(v) => match v {
                VectorStmt::Assign { lhss, rhss } => self.assign(s, lhss, rhss),
                VectorStmt::Havoc(ids) => {
                    self.distinct_targets(ids.iter(), "havoc");
                    for id in ids {
                        self.target(id, "havoc");
                    }
                }
                VectorStmt::Psi { lhs, rhs } => self.assign(s, std::slice::from_ref(lhs), std::slice::from_ref(rhs)),
                VectorStmt::Assume(e) => self.with_ctx(self.spec_ctx(), |c| c.expect_bool(e, "an assumption")),
                VectorStmt::Assert(e) => self.with_ctx(self.spec_ctx(), |c| c.expect_bool(e, "an assertion")),
            },
        }
    }

    /// Reports a variable named twice among the targets of one statement.
    fn distinct_targets<'i>(&mut self, ids: impl Iterator<Item = &'i Ident>, what: &str) {
        let mut seen: Vec<&Ident> = Vec::new();
        for id in ids {
            if let Some(prev) = seen.iter().find(|p| p.name == id.name) {
                let d =
                    Diagnostic::type_error(format!("variable `{}` is assigned twice by one {what}", id.name), id.span)
                        .with_label("assigned again here")
                        .with_related(prev.span, "first assigned here");
                self.report(d);
            } else {
                seen.push(id);
            }
        }
    }

    /// A variable that a statement writes: must be a mutable variable; a global must be in the
    /// procedure's modifies clause (unless modifies clauses are inferred). Returns its type.
    pub(super) fn target(&mut self, id: &Ident, what: &str) -> Ty {
        match self.lookup(&id.name) {
            None => self.var(id),
            Some(VarRef::Bound(t)) => {
                self.type_error(
                    format!("cannot {what} bound variable `{}`", id.name),
                    id.span,
                    "bound variables are immutable",
                );
                t
            }
            Some(VarRef::Local(t, LocalKind::In)) => {
                self.type_error(
                    format!("cannot {what} in-parameter `{}`", id.name),
                    id.span,
                    "in-parameters are immutable; copy it into a local variable",
                );
                t
            }
            Some(VarRef::Local(t, _)) => t,
            Some(VarRef::Global(g)) => {
                if let GlobalKind::Const { .. } = g.kind {
                    self.type_error(
                        format!("cannot {what} constant `{}`", id.name),
                        id.span,
                        "constants are immutable",
                    );
                } else if let Some(m) = &self.modifies {
                    if !m.contains(&id.name) {
                        let d = Diagnostic::type_error(
                            format!(
                                "global variable `{}` is modified but not in the modifies clause of `{}`",
                                id.name, self.proc_name
                            ),
                            id.span,
                        )
                        .with_label(format!("add `modifies {};` to procedure `{}`", id.name, self.proc_name));
                        self.report(d);
                    }
                }
                g.ty.clone()
            }
        }
    }

    fn assign(&mut self, s: &Stmt, lhss: &[Lhs], rhss: &[Expr]) {
        self.distinct_targets(lhss.iter().map(|l| &l.var), "parallel assignment");
        let tys = self.lhs_types(lhss);
        if lhss.len() != rhss.len() {
            for r in rhss {
                self.expr(r);
            }
            self.type_error(
                format!(
                    "{} left-hand side{} but {} right-hand side{}",
                    lhss.len(),
                    plural_s(lhss.len()),
                    rhss.len(),
                    plural_s(rhss.len())
                ),
                s.span,
                "a parallel assignment needs as many values as targets",
            );
            return;
        }
        for (k, (r, t)) in rhss.iter().zip(&tys).enumerate() {
            let name = &lhss[k].var.name;
            match t {
                Some(t) => _ = self.expect(r, t, || format!("assigned to `{name}`")),
                None => self.assign_to_open(&lhss[k], r),
            }
        }
    }

    /// `atomic x := op(A[i], args);` (docs/kbpl.md §3.4): `A` is a global variable, `A[i]` an
    /// `int` or a bit-vector (bit-vectors only for the bitwise, unsigned and float operations;
    /// `fadd` on `bv32` or `bv64`), every argument and `x` of the element's type.
    fn atomic(&mut self, a: &AtomicStmt) {
        if !matches!(self.lookup(&a.target.var.name), Some(VarRef::Global(_))) {
            self.type_error(
                format!("the target of an atomic operation must be a global variable, not `{}`", a.target.var.name),
                a.target.var.span,
                "atomics update shared memory",
            );
        }
        let mut t = self.target(&a.target.var, "update atomically");
        for idx in &a.target.indices {
            t = self.select(&t, idx, a.target.var.span, a.target.span);
        }
        let ok = match t {
            Ty::Error => true,
            Ty::Int => !a.op.bv_only(),
            Ty::Bv(w) => a.op != AtomicOp::FAdd || w == 32 || w == 64,
            _ => false,
        };
        if !ok {
            let need = match a.op {
                AtomicOp::FAdd => "a `bv32` or `bv64` element (a float)",
                op if op.bv_only() => "a bit-vector element",
                _ => "an `int` or bit-vector element",
            };
            self.type_error(
                format!("atomic `{}` needs {need}, found `{t}`", a.op.name()),
                a.target.span,
                "the element updated atomically",
            );
        }
        if a.args.len() != a.op.arity() {
            self.type_error(
                format!(
                    "atomic `{}` takes {} argument{} after the element, found {}",
                    a.op.name(),
                    a.op.arity(),
                    plural_s(a.op.arity()),
                    a.args.len()
                ),
                a.target.span,
                "the element",
            );
        }
        for e in &a.args {
            self.expect(e, &t, || format!("an argument of atomic `{}`", a.op.name()));
        }
        if let Some(x) = &a.out {
            if !matches!(self.lookup(&x.name), Some(VarRef::Local(..)) | None) {
                self.type_error(
                    format!(
                        "atomic `{}` returns the old value into `{}`, which is not a local variable",
                        a.op.name(),
                        x.name
                    ),
                    x.span,
                    "use a local variable",
                );
            }
            let xt = self.target(x, "assign to");
            if !xt.compatible(&t) {
                self.mismatch(x.span, &t, &xt, format!("the old value of the element of atomic `{}`", a.op.name()));
            }
        }
    }

    fn call_stmt(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, args: &[Expr]) {
        let env = self.env;
        let Some(pi) = env.procedure(&proc.name) else {
            for a in args {
                self.expr(a);
            }
            for o in outs {
                self.target(o, "assign to");
            }
            let label = if env.function(&proc.name).is_some() {
                "this is a function: use it in an expression"
            } else {
                "no procedure of this name is declared"
            };
            self.type_error(format!("call to undeclared procedure `{}`", proc.name), proc.span, label);
            return;
        };
        if pi.ins.len() != args.len() {
            for a in args {
                self.expr(a);
            }
            self.type_error(
                format!(
                    "procedure `{}` takes {} argument{}, found {}",
                    proc.name,
                    pi.ins.len(),
                    plural_s(pi.ins.len()),
                    args.len()
                ),
                s.span,
                "wrong number of arguments",
            );
        } else if pi.type_params > 0 {
            self.poly_call(s, outs, proc, args, pi);
            return;
        } else {
            for (a, (pn, pt)) in args.iter().zip(&pi.ins) {
                self.expect(a, pt, || format!("argument `{pn}` of `{}`", proc.name));
            }
        }
        self.call_outs(s, outs, proc, pi);
    }

    /// A call of a polymorphic procedure: the instantiation is inferred from the arguments and
    /// the receiving variables together.
    fn poly_call(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, args: &[Expr], pi: &ProcInfo) {
        let mut tys: Vec<Ty> = args.iter().map(|a| self.expr(a)).collect();
        let mut spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        let mut formals: Vec<&Ty> = pi.ins.iter().map(|(_, t)| t).collect();
        if pi.outs.len() == outs.len() {
            tys.extend(outs.iter().map(|o| self.target(o, "assign to")));
            spans.extend(outs.iter().map(|o| o.span));
            formals.extend(pi.outs.iter().map(|(_, t)| t));
        }
        let names: Vec<&Name> = pi.ins.iter().chain(&pi.outs).map(|(n, _)| n).collect();
        let what = |k: usize| format!("parameter `{}` of `{}`", names[k], proc.name);
        if let Some(inst) = self.instantiate(pi.type_params, formals.into_iter().zip(&tys).zip(spans), what) {
            let open_ok = tys.iter().any(Ty::has_error);
            self.record_instance(s.span, proc, inst, open_ok);
        }
        if pi.outs.len() == outs.len() {
            self.distinct_targets(outs.iter(), "call");
            self.call_modifies(s, proc, pi);
        } else {
            self.call_outs(s, outs, proc, pi);
        }
    }

    /// The receiving variables of a call and the call's modifies check.
    fn call_outs(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, pi: &ProcInfo) {
        self.distinct_targets(outs.iter(), "call");
        if pi.outs.len() != outs.len() {
            for o in outs {
                self.target(o, "assign to");
            }
            self.type_error(
                format!(
                    "procedure `{}` returns {} value{}, but the call receives {}",
                    proc.name,
                    pi.outs.len(),
                    plural_s(pi.outs.len()),
                    outs.len()
                ),
                s.span,
                "wrong number of result variables",
            );
        } else {
            for (o, (pn, pt)) in outs.iter().zip(&pi.outs) {
                let t = self.target(o, "assign to");
                if !t.compatible(pt) {
                    self.mismatch(o.span, pt, &t, format!("receives out-parameter `{pn}` of `{}`", proc.name));
                }
            }
        }
        self.call_modifies(s, proc, pi);
    }

    /// A call's callee may modify only what the caller's modifies clause allows.
    fn call_modifies(&mut self, s: &Stmt, proc: &Ident, pi: &ProcInfo) {
        let env = self.env;
        if let Some(m) = &self.modifies {
            let missing: Vec<&Name> =
                pi.modifies.iter().filter(|g| !m.contains(*g) && env.global_var(g).is_some()).collect();
            if !missing.is_empty() {
                let list = missing.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>().join(", ");
                let d = Diagnostic::type_error(
                    format!(
                        "call to `{}` modifies {list}, which the modifies clause of `{}` does not include",
                        proc.name, self.proc_name
                    ),
                    s.span,
                )
                .with_label(format!("`{}` may modify {list}", proc.name));
                self.report(d);
            }
        }
    }
}

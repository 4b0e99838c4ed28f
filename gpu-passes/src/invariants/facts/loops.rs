//! The loops of a body: lowering to blocks with `while` loops tagged, natural loops on the
//! CFG, what each loop modifies, its guards, the conditions around it, its shared accesses and
//! the values its variables have on entry (reaching definitions).
//!
//! Separate because this is the one place that reads the CFG: structured and goto loops look
//! the same to everything after it.

use super::syntax::{body_of, leading_assumes};
use super::*;

/// Calls `f(k, stmt)` for every `while` statement of `stmts`, numbering them in pre-order.
pub fn for_each_while(stmts: &mut [Stmt], k: &mut usize, f: &mut impl FnMut(usize, &mut Stmt)) {
    for s in stmts {
        if matches!(s.kind, StmtKind::While { .. }) {
            f(*k, s);
            *k += 1;
        }
        match &mut s.kind {
            StmtKind::While { body, .. } | StmtKind::Block(body) => for_each_while(body, k, f),
            StmtKind::If { then, els, .. } => {
                for_each_while(then, k, f);
                match els {
                    Some(Else::Block(b)) => for_each_while(b, k, f),
                    Some(Else::If(s)) => for_each_while(std::slice::from_mut(&mut **s), k, f),
                    None => {}
                }
            }
            _ => {}
        }
    }
}

/// The labels written in `stmts` (recursively).
pub fn user_labels(stmts: &[Stmt]) -> HashSet<Name> {
    let mut out = HashSet::new();
    ivl::modifies::walk_stmts(stmts, &mut |s| {
        if let StmtKind::Label(l) = &s.kind {
            out.insert(l.name.clone());
        }
    });
    out
}

/// The body lowered to blocks, with every `while` tagged by its pre-order number.
fn lower_tagged(
    attrs: &[Attribute],
    name: &Name,
    ins: &[TypedIdent],
    outs: &[TypedIdent],
    body: &Body,
) -> Option<BlockImpl> {
    let mut body = body.clone();
    let mut k = 0;
    for_each_while(&mut body.stmts, &mut k, &mut |k, s| {
        if let StmtKind::While { invariants, .. } = &mut s.kind {
            let tag = Attribute {
                name: Ident::new(LOOP_TAG, Span::DUMMY),
                args: vec![AttrArg::Expr(Expr::new(ExprKind::IntLit(k.into()), Span::DUMMY))],
                span: Span::DUMMY,
            };
            invariants.insert(0, Invariant { free: true, attrs: vec![tag], expr: Expr::bool(true), span: s.span });
        }
    });
    ivl::lower::lower(attrs, &Ident::new(name.clone(), Span::DUMMY), ins, outs, &body).ok()
}

fn loop_tag(block: &ivl::blocks::Block) -> Option<usize> {
    block.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Assume { attrs, .. } | StmtKind::Assert { attrs, .. } => {
            find_attr(attrs, LOOP_TAG).and_then(|a| match a.args.first() {
                Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. })) => v.try_into().ok(),
                _ => None,
            })
        }
        _ => None,
    })
}

impl ProgramFacts<'_> {
    /// Facts of every loop of every body that a kernel reaches.
    pub fn loops(&self) -> Vec<LoopFacts> {
        let mut out = Vec::new();
        for owner in &self.owners {
            let d = &self.program.decls[owner.decl];
            let Some((name, attrs, ins, outs, body)) = body_of(d) else {
                continue;
            };
            let Some(imp) = lower_tagged(attrs, name, ins, outs, body) else {
                continue;
            };
            let locals = locals_of(&self.env, ins, outs, Some(body));
            let labels = user_labels(&body.stmts);
            self.body_loops(owner, &imp, &locals, &labels, &mut out);
        }
        out
    }

    fn body_loops(
        &self,
        owner: &BodyOwner,
        imp: &BlockImpl,
        locals: &HashMap<Name, Ty>,
        labels: &HashSet<Name>,
        out: &mut Vec<LoopFacts>,
    ) {
        let cfg = Cfg::new(imp);
        if !cfg.is_reducible() {
            return;
        }
        let rd = ReachingDefs::new(imp, &cfg, locals);
        for lp in cfg.loops() {
            let hb = &imp.blocks[lp.header];
            let (site, span) = match loop_tag(hb) {
                Some(k) => (Site::While(k), hb.label.span),
                None if labels.contains(&hb.label.name) => (Site::Label(hb.label.name.clone()), hb.label.span),
                None => continue,
            };
            let (modified, assigns, has_barrier) = self.loop_effects(imp, lp, locals);
            let modified_set: HashSet<Name> = modified.iter().cloned().collect();
            let accesses = self.loop_accesses(imp, &cfg, lp);
            let guards = loop_guards(imp, &cfg, lp);
            let outer_conds = outer_conds(imp, &cfg, lp);
            let init = rd.entry_values(&cfg, lp, &modified_set);
            out.push(LoopFacts {
                proc: owner.name.clone(),
                site,
                span,
                depth: lp.depth,
                modified,
                assigns,
                init,
                guards,
                has_barrier,
                accesses,
                outer_conds,
                locals: locals.clone(),
                kernel: owner.kernel,
            });
        }
    }

    /// What the blocks of loop `lp` do: the locals they modify (assign, havoc, receive from
    /// calls or atomics), their `x := e` assignments in block order, whether they contain a
    /// barrier (directly or by a call).
    fn loop_effects(
        &self,
        imp: &BlockImpl,
        lp: &ivl::cfg::Loop,
        locals: &HashMap<Name, Ty>,
    ) -> (Vec<Name>, Vec<(Name, Expr)>, bool) {
        let mut modified: Vec<Name> = Vec::new();
        let mut assigns: Vec<(Name, Expr)> = Vec::new();
        let mut has_barrier = false;
        for &b in &lp.body {
            for s in &imp.blocks[b].stmts {
                match &s.kind {
                    StmtKind::Assign { lhss, rhss } => {
                        for (l, r) in lhss.iter().zip(rhss) {
                            if locals.contains_key(&l.var.name) {
                                push_unique(&mut modified, &l.var.name);
                                if l.indices.is_empty() {
                                    assigns.push((l.var.name.clone(), r.clone()));
                                }
                            }
                        }
                    }
                    StmtKind::Havoc(xs) => xs.iter().for_each(|x| push_unique(&mut modified, &x.name)),
                    StmtKind::Call { outs, proc, .. } => {
                        outs.iter().for_each(|x| push_unique(&mut modified, &x.name));
                        if self.barrier_procs.contains(&proc.name) {
                            has_barrier = true;
                        }
                    }
                    StmtKind::Barrier { .. } => has_barrier = true,
                    StmtKind::Atomic(a) => a.out.iter().for_each(|x| push_unique(&mut modified, &x.name)),
                    _ => {}
                }
            }
        }
        (modified, assigns, has_barrier)
    }

    /// The shared accesses of loop `lp`, with the conditions that dominate them inside the loop.
    fn loop_accesses(&self, imp: &BlockImpl, cfg: &Cfg, lp: &ivl::cfg::Loop) -> Vec<LoopAccess> {
        let mut accesses = Vec::new();
        for &b in &lp.body {
            let mut conds = Vec::new();
            for d in cfg.dominators_of(b) {
                if d != lp.header && lp.contains(d) {
                    conds.extend(leading_assumes(&imp.blocks[d].stmts));
                }
            }
            let skip = if b == lp.header { leading_len(&imp.blocks[b].stmts) } else { 0 };
            for s in &imp.blocks[b].stmts[skip..] {
                self.stmt_accesses(s, &conds, &mut accesses, &self.summaries);
            }
        }
        accesses
    }
}

/// The guards of loop `lp`: `assume c` leading an in-loop successor of a block with an exit.
fn loop_guards(imp: &BlockImpl, cfg: &Cfg, lp: &ivl::cfg::Loop) -> Vec<Expr> {
    let mut guards = Vec::new();
    for &(from, _) in &lp.exits {
        for &s in cfg.successors(from) {
            if lp.contains(s) && s != lp.header {
                if let Some(StmtKind::Assume { expr, attrs }) = imp.blocks[s].stmts.first().map(|s| &s.kind) {
                    if attrs.is_empty() && !guards.contains(expr) {
                        guards.push(expr.clone());
                    }
                }
            }
        }
    }
    guards
}

/// The `assume`s of the blocks that dominate loop `lp` from outside (enclosing conditions).
pub(super) fn outer_conds(imp: &BlockImpl, cfg: &Cfg, lp: &ivl::cfg::Loop) -> Vec<Expr> {
    let mut outer_conds = Vec::new();
    for d in cfg.dominators_of(lp.header) {
        if !lp.contains(d) {
            outer_conds.extend(leading_assumes(&imp.blocks[d].stmts));
        }
    }
    outer_conds
}

fn leading_len(stmts: &[Stmt]) -> usize {
    stmts.iter().take_while(|s| matches!(s.kind, StmtKind::Assert { .. } | StmtKind::Assume { .. })).count()
}

fn push_unique(v: &mut Vec<Name>, n: &Name) {
    if !v.contains(n) {
        v.push(n.clone());
    }
}

/// Reaching definitions over blocks: which assignments reach a block's entry.
struct ReachingDefs {
    /// Definition sites: the variable and, for `x := e`, the right-hand side.
    defs: Vec<(Name, Option<Expr>)>,
    /// Definitions reaching the end of each block.
    out: Vec<BTreeSet<usize>>,
}

impl ReachingDefs {
    fn new(imp: &BlockImpl, cfg: &Cfg, locals: &HashMap<Name, Ty>) -> ReachingDefs {
        let mut defs: Vec<(Name, Option<Expr>)> = Vec::new();
        // Entry definitions: one per variable, with no known value.
        let mut names: Vec<&Name> = locals.keys().collect();
        names.sort();
        let entry: BTreeSet<usize> = names
            .iter()
            .map(|n| {
                defs.push(((*n).clone(), None));
                defs.len() - 1
            })
            .collect();
        let n = imp.blocks.len();
        let mut gen: Vec<HashMap<Name, usize>> = vec![HashMap::new(); n];
        for (b, block) in imp.blocks.iter().enumerate() {
            for s in &block.stmts {
                let mut def = |x: &Name, rhs: Option<Expr>, defs: &mut Vec<(Name, Option<Expr>)>| {
                    if locals.contains_key(x) {
                        defs.push((x.clone(), rhs));
                        gen[b].insert(x.clone(), defs.len() - 1);
                    }
                };
                match &s.kind {
                    StmtKind::Assign { lhss, rhss } => {
                        for (l, r) in lhss.iter().zip(rhss) {
                            let rhs = if l.indices.is_empty() { Some(r.clone()) } else { None };
                            def(&l.var.name, rhs, &mut defs);
                        }
                    }
                    StmtKind::Havoc(xs) => xs.iter().for_each(|x| def(&x.name, None, &mut defs)),
                    StmtKind::Call { outs, .. } => outs.iter().for_each(|x| def(&x.name, None, &mut defs)),
                    StmtKind::Atomic(at) => at.out.iter().for_each(|x| def(&x.name, None, &mut defs)),
                    _ => {}
                }
            }
        }
        let def_var: Vec<Name> = defs.iter().map(|(x, _)| x.clone()).collect();
        let mut out: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        let order: Vec<usize> = cfg.reverse_postorder().to_vec();
        loop {
            let mut changed = false;
            for &b in &order {
                let mut inn: BTreeSet<usize> = if b == cfg.entry() { entry.clone() } else { BTreeSet::new() };
                for &p in cfg.predecessors(b) {
                    inn.extend(out[p].iter().copied());
                }
                let mut o: BTreeSet<usize> = inn.into_iter().filter(|d| !gen[b].contains_key(&def_var[*d])).collect();
                o.extend(gen[b].values().copied());
                if o != out[b] {
                    out[b] = o;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        ReachingDefs { defs, out }
    }

    /// Entry values of the variables at a loop header: the unique definition reaching it from
    /// outside the loop, when it is an assignment whose right-hand side the loop leaves alone.
    fn entry_values(&self, cfg: &Cfg, lp: &ivl::cfg::Loop, modified: &HashSet<Name>) -> HashMap<Name, Expr> {
        let mut reaching: BTreeSet<usize> = BTreeSet::new();
        for &p in cfg.predecessors(lp.header) {
            if !lp.contains(p) {
                reaching.extend(self.out[p].iter().copied());
            }
        }
        let mut by_var: HashMap<&Name, Vec<usize>> = HashMap::new();
        for d in &reaching {
            by_var.entry(&self.defs[*d].0).or_default().push(*d);
        }
        let mut out = HashMap::new();
        for (x, ds) in by_var {
            let [d] = ds.as_slice() else { continue };
            let Some(rhs) = &self.defs[*d].1 else { continue };
            let fvs = free_vars(rhs);
            if fvs.iter().any(|v| v == x || modified.contains(v)) {
                continue;
            }
            out.insert(x.clone(), rhs.clone());
        }
        out
    }
}

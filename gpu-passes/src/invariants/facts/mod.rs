//! What the candidate rules need to know about a kernel and its loops.
//!
//! Why: the rules of seed 001 §4.3 are stated over source patterns ("`A[lid + C]` occurs in the
//! loop", "`i = i * 2` occurs in the loop", "`i = lid` appears before the loop"). Reading those
//! off the syntax tree directly would have to be done twice, once for structured `while` loops
//! and once for Bugle-style `goto` loops. Instead every body is lowered to blocks
//! ([`ivl::lower`]) and its natural loops are found on the CFG ([`ivl::cfg`]); a loop's facts —
//! the variables it modifies and how, the values they have on entry (reaching definitions), its
//! guard, whether it contains a barrier, its shared-memory accesses with the conditions that
//! guard them — are then the same for both forms. Each loop remembers where its invariants go
//! in the source ([`Site`]): the `k`-th `while` of the body in pre-order, or the user label of a
//! goto loop's header block.

use super::arith::{Arith, Num, Op, Term, View};
pub use crate::sizes::Sizes;
pub use crate::uniformity::Class;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::cfg::Cfg;
use ivl::check::{build_env, locals_of, type_of, GlobalEnv, GlobalKind, Ty, IDENTITY_ATTRS};
use ivl::resolve::identity_attr;
use ivl::visit::{free_vars, walk_expr, Visit};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The attribute that tags `while` loops before lowering (never in an output program).
const LOOP_TAG: &str = "kivl_loop_tag";

/// Where a loop's invariants go.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// The `k`-th `while` statement of the body, in pre-order (see [`for_each_while`]).
    While(usize),
    /// The header block of a goto loop, by its label.
    Label(Name),
}

/// A shared-memory access made in a loop (directly or by a called procedure), as a source
/// pattern for the candidate rules: the array, the index of its outermost level and the
/// conditions that dominate it. Not the exact per-step access of the race instrumentation
/// (`crate::lockstep::accesses::Access`, whole location and evaluation condition): the rules
/// match patterns such as `A[lid + C]` before predication, when no such step exists yet.
#[derive(Clone, Debug)]
pub struct LoopAccess {
    pub array: Name,
    /// The index of the outermost map level.
    pub index: Expr,
    /// Number of index levels (`A[i][j]` has 2).
    pub levels: usize,
    pub write: bool,
    /// The written value.
    pub value: Option<Expr>,
    /// Conditions that hold when the access happens (the `assume`s of the blocks dominating it
    /// inside the loop).
    pub conds: Vec<Expr>,
}

/// How a loop updates a variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// `x := x + step` (or `x - step`: `down`), `step` uniform and loop-invariant.
    Additive { step: Expr, down: bool },
    /// `x := x * 2`, `x := x + x`, `x := x << 1`.
    Double,
    /// `x := x div 2`, `x := x >> 1`.
    Half,
    /// Anything else.
    Other,
}

/// What a procedure does when called: its shared accesses (over its formals) and barriers.
#[derive(Clone, Debug, Default)]
pub struct ProcSummary {
    pub ins: Vec<Name>,
    pub accesses: Vec<LoopAccess>,
    pub has_barrier: bool,
}

/// Facts about one loop.
#[derive(Clone, Debug)]
pub struct LoopFacts {
    pub proc: Name,
    pub site: Site,
    /// The `while` statement, or the header label.
    pub span: Span,
    pub depth: usize,
    /// Local variables (and out-parameters) the loop assigns, havocs or receives from calls.
    pub modified: Vec<Name>,
    /// `x := e` assignments of the loop, in block order.
    pub assigns: Vec<(Name, Expr)>,
    /// The value of a variable on entry to the loop: the single definition that reaches the
    /// header from outside the loop, when its right-hand side is unchanged by the loop.
    pub init: HashMap<Name, Expr>,
    /// Conditions under which the loop is iterated (`while (c)`, or the `assume c` leading a
    /// block inside the loop that is a sibling of an exit).
    pub guards: Vec<Expr>,
    pub has_barrier: bool,
    pub accesses: Vec<LoopAccess>,
    /// `assume`s of the blocks that dominate the loop (enclosing conditions).
    pub outer_conds: Vec<Expr>,
    /// Parameters and locals of the enclosing body, with their types.
    pub locals: HashMap<Name, Ty>,
    pub kernel: bool,
}

/// A procedure or implementation with a body that a kernel reaches.
#[derive(Clone, Debug)]
pub struct BodyOwner {
    pub decl: usize,
    pub name: Name,
    pub kernel: bool,
}

/// Program-wide facts.
pub struct ProgramFacts<'p> {
    pub program: &'p Program,
    pub env: GlobalEnv,
    pub arith: Arith,
    pub sizes: Sizes,
    /// Thread-identity attribute of each identity constant name.
    identity: HashMap<Name, &'static str>,
    /// Identity constant names by attribute (declared, else the prelude name).
    pub id_names: HashMap<&'static str, Name>,
    /// Procedures whose call is (or contains) a barrier.
    pub barrier_procs: HashSet<Name>,
    pub summaries: HashMap<Name, ProcSummary>,
    pub owners: Vec<BodyOwner>,
    /// Kernel parameters are uniform; so are these (kernel names).
    pub kernels: HashSet<Name>,
    written_arrays: Vec<Name>,
    /// Sizes fixed exactly, by identity attribute.
    fixed: HashMap<&'static str, u64>,
    /// The values the uniform loop variables take at each `while` head, by procedure and
    /// pre-order number ([`super::values`]).
    pub loop_values: HashMap<(Name, usize), Vec<super::values::Tuple>>,
}

/// A body with what lowering needs: name, attributes, in- and out-parameters.
type BodyParts<'d> = (&'d Name, &'d [Attribute], &'d [TypedIdent], &'d [TypedIdent], &'d Body);

fn body_of(d: &Decl) -> Option<BodyParts<'_>> {
    match &d.kind {
        DeclKind::Procedure(p) => p.body.as_ref().map(|b| (&p.name.name, &p.attrs[..], &p.ins[..], &p.outs[..], b)),
        DeclKind::Implementation(i) => Some((&i.name.name, &i.attrs[..], &i.ins[..], &i.outs[..], &i.body)),
        _ => None,
    }
}

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

/// Reads of shared maps (`g[i]` with `g` a global variable) in an expression.
fn shared_reads(env: &GlobalEnv, e: &Expr, out: &mut Vec<(Name, Expr, usize)>) {
    struct Reads<'a> {
        env: &'a GlobalEnv,
        out: &'a mut Vec<(Name, Expr, usize)>,
    }
    impl Visit for Reads<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Select(m, idx) = &e.kind {
                let mut levels = 1;
                let mut root = &**m;
                let mut outer = idx;
                while let ExprKind::Select(inner, i) = &root.kind {
                    levels += 1;
                    outer = i;
                    root = inner;
                }
                if let ExprKind::Var(g) = &root.kind {
                    if self.env.global_var(&g.name).is_some() && outer.len() == 1 {
                        self.out.push((g.name.clone(), outer[0].clone(), levels));
                    }
                }
            }
            walk_expr(self, e)
        }
    }
    Reads { env, out }.visit_expr(e);
}

fn leading_assumes(stmts: &[Stmt]) -> Vec<Expr> {
    stmts
        .iter()
        .take_while(|s| matches!(s.kind, StmtKind::Assume { .. } | StmtKind::Assert { .. }))
        .filter_map(|s| match &s.kind {
            StmtKind::Assume { attrs, expr } if attrs.is_empty() => Some(expr.clone()),
            _ => None,
        })
        .collect()
}

impl<'p> ProgramFacts<'p> {
    pub fn new(program: &'p Program, sizes: Sizes) -> ProgramFacts<'p> {
        let (env, _) = build_env(&program.decls);
        let mut identity = HashMap::new();
        let mut id_names: HashMap<&'static str, Name> = HashMap::new();
        let mut declared: HashSet<Name> = HashSet::new();
        for d in &program.decls {
            match &d.kind {
                DeclKind::Const(c) => {
                    for n in &c.names {
                        declared.insert(n.name.clone());
                        if let Some((attr, _)) = identity_attr(&c.attrs) {
                            identity.insert(n.name.clone(), attr);
                            id_names.entry(attr).or_insert_with(|| n.name.clone());
                        }
                    }
                }
                DeclKind::Var(v) => declared.extend(v.vars.iter().map(|v| v.name.name.clone())),
                _ => {}
            }
        }
        for attr in IDENTITY_ATTRS {
            if !declared.contains(attr) && env.has_kernel {
                identity.insert(Name::from(attr), attr);
                id_names.entry(attr).or_insert_with(|| Name::from(attr));
            }
        }
        let taken = all_names(program);
        let arith = Arith::new(program, &env, taken);
        // Sizes fixed exactly: given ones (all dimensions), and single ones axioms fix.
        let mut fixed = axiom_sizes(program, &identity, &arith);
        for (base, dims) in [(6usize, sizes.local), (9, sizes.groups)] {
            for (d, v) in dims.iter().flatten().enumerate() {
                fixed.insert(IDENTITY_ATTRS[base + d], *v);
            }
        }
        // For the heuristics (bounds of power-of-two families), unknown y and z count as 1.
        let guess = |base: usize| {
            let x = *fixed.get(IDENTITY_ATTRS[base])?;
            let dim = |d: usize| fixed.get(IDENTITY_ATTRS[base + d]).copied().unwrap_or(1);
            Some([x, dim(1), dim(2)])
        };
        let sizes = Sizes { local: sizes.local.or_else(|| guess(6)), groups: sizes.groups.or_else(|| guess(9)) };
        let kernels: HashSet<Name> = program
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Procedure(p) if has_attr(&p.attrs, "kernel") => Some(p.name.name.clone()),
                DeclKind::Implementation(i) if has_attr(&i.attrs, "kernel") => Some(i.name.name.clone()),
                _ => None,
            })
            .collect();
        let mut facts = ProgramFacts {
            program,
            env,
            arith,
            sizes,
            identity,
            id_names,
            barrier_procs: HashSet::new(),
            summaries: HashMap::new(),
            owners: Vec::new(),
            kernels,
            written_arrays: Vec::new(),
            fixed,
            loop_values: HashMap::new(),
        };
        facts.summarise_procedures();
        facts.written_arrays = facts.compute_written_arrays();
        facts.loop_values = facts.simulate_uniform_values();
        facts
    }

    /// The shared arrays (global variables of map type) that bodies reachable from kernels
    /// write, in declaration order. Only they can race: an array nobody writes needs no
    /// access-log invariant.
    pub fn shared_arrays(&self) -> Vec<Name> {
        self.written_arrays.clone()
    }

    fn compute_written_arrays(&self) -> Vec<Name> {
        let mut used: HashSet<Name> = HashSet::new();
        for o in &self.owners {
            if let Some((.., body)) = body_of(&self.program.decls[o.decl]) {
                ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
                    for x in ivl::modifies::written_vars(s) {
                        used.insert(x.name.clone());
                    }
                });
            }
        }
        let mut out = Vec::new();
        for d in &self.program.decls {
            if let DeclKind::Var(v) = &d.kind {
                for x in &v.vars {
                    let is_map = self.env.global_var(&x.name.name).is_some_and(|g| g.ty.as_map().is_some());
                    if is_map && used.contains(&x.name.name) {
                        out.push(x.name.name.clone());
                    }
                }
            }
        }
        out
    }

    fn simulate_uniform_values(&self) -> HashMap<(Name, usize), Vec<super::values::Tuple>> {
        use super::values::Val;
        let consts: HashMap<Name, Val> = self
            .size_literals()
            .into_iter()
            .filter_map(|(n, e)| match &e.kind {
                ExprKind::IntLit(v) => Some((n, Val::Int(v.clone().into()))),
                ExprKind::BvLit { value, width } => Some((n, Val::Bv(value.clone().into(), *width))),
                _ => None,
            })
            .collect();
        let mut out = HashMap::new();
        for o in &self.owners {
            let Some((name, _, ins, outs, body)) = body_of(&self.program.decls[o.decl]) else {
                continue;
            };
            let locals = locals_of(&self.env, ins, outs, Some(body));
            for (k, tuples) in super::values::simulate(body, &locals, &consts, &self.arith) {
                if let Some(t) = tuples {
                    out.insert((name.clone(), k), t);
                }
            }
        }
        out
    }

    /// The known sizes as literals, by the names of their constants (`group_size_x` -> `64`):
    /// candidates state them so, which keeps `mod group_size_x` linear for the solver.
    ///
    /// Only sizes fixed exactly count: those given (every dimension; missing ones are 1) and
    /// those an axiom `c == N` fixes, one by one.
    pub fn size_literals(&self) -> HashMap<Name, Expr> {
        let mut out = HashMap::new();
        for (name, attr) in &self.identity {
            let Some(v) = self.fixed.get(attr) else { continue };
            let ty = self.env.global(name).map(|g| g.ty.clone());
            let Some(num) = ty.as_ref().and_then(Num::of) else {
                continue;
            };
            out.insert(name.clone(), self.arith.lit(num, *v as i64));
        }
        out
    }

    /// The thread-identity attribute of a name (`"local_id_x"` …).
    pub fn identity(&self, name: &str) -> Option<&'static str> {
        self.identity.get(name).copied()
    }

    pub fn num_of(&self, locals: &HashMap<Name, Ty>, e: &Expr) -> Option<Num> {
        type_of(&self.env, &|n: &str| locals.get(n).cloned(), e).as_ref().and_then(Num::of)
    }

    pub fn type_of(&self, locals: &HashMap<Name, Ty>, e: &Expr) -> Option<Ty> {
        type_of(&self.env, &|n: &str| locals.get(n).cloned(), e)
    }

    /// Barrier procedures, procedure summaries and the bodies kernels reach.
    fn summarise_procedures(&mut self) {
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
    fn stmt_accesses(
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

    /// Which kinds of values `e` depends on at the head of loop `lf` (locals that the loop does
    /// not modify are followed to their entry value).
    pub fn classify(&self, lf: &LoopFacts, e: &Expr) -> Class {
        self.classify_depth(lf, e, 0)
    }

    fn classify_depth(&self, lf: &LoopFacts, e: &Expr, depth: usize) -> Class {
        let mut c = Class::default();
        let mut reads = Vec::new();
        shared_reads(&self.env, e, &mut reads);
        if !reads.is_empty() || contains_old_or_quant(e) {
            c.other = true;
        }
        for v in free_vars(e) {
            c = c.join(self.classify_var(lf, &v, depth));
        }
        c
    }

    fn classify_var(&self, lf: &LoopFacts, v: &Name, depth: usize) -> Class {
        let mut c = Class::default();
        if let Some(attr) = self.identity(v) {
            return Class::of_identity(attr);
        }
        if lf.modified.contains(v) {
            c.varying = true;
            return c;
        }
        if lf.locals.contains_key(v) {
            if let Some(e) = lf.init.get(v) {
                if depth < 6 {
                    return self.classify_depth(lf, e, depth + 1);
                }
            }
            // A parameter: uniform in a kernel; in a callee, assumed so.
            if self.is_param(lf, v) {
                return c;
            }
            c.other = true;
            return c;
        }
        match self.env.global(v).map(|g| &g.kind) {
            Some(GlobalKind::Const { .. }) => c,
            Some(GlobalKind::Var { .. }) => {
                c.other = true;
                c
            }
            None => c,
        }
    }

    fn is_param(&self, lf: &LoopFacts, v: &Name) -> bool {
        self.env.procedure(&lf.proc).is_some_and(|p| p.ins.iter().any(|(n, _)| n == v))
    }

    /// How loop `lf` updates `x` (all its assignments must agree).
    pub fn update_of(&self, lf: &LoopFacts, x: &Name) -> Update {
        let mut kind: Option<Update> = None;
        for (y, rhs) in &lf.assigns {
            if y != x {
                continue;
            }
            let u = self.classify_update(lf, x, through_temporary(lf, x, rhs));
            match &kind {
                None => kind = Some(u),
                Some(k) if *k == u || strip_spans_eq(k, &u) => {}
                Some(_) => return Update::Other,
            }
        }
        // A variable modified otherwise (havoc, call) has no regular update.
        let assigned = lf.assigns.iter().filter(|(y, _)| y == x).count();
        if assigned == 0 {
            return Update::Other;
        }
        kind.unwrap_or(Update::Other)
    }

    fn classify_update(&self, lf: &LoopFacts, x: &Name, rhs: &Expr) -> Update {
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == *x);
        let is_lit = |e: &Expr, n: i64| self.arith.lit_value(e).is_some_and(|v| v == n.into());
        match self.arith.view(rhs) {
            View::Arith(Op::Add, a, b) if is_x(a) && is_x(b) => return Update::Double,
            View::Arith(Op::Mul, a, b) if (is_x(a) && is_lit(b, 2)) || (is_x(b) && is_lit(a, 2)) => {
                return Update::Double
            }
            View::Arith(Op::Shl, a, b) if is_x(a) && is_lit(b, 1) => return Update::Double,
            View::Arith(Op::Div, a, b) if is_x(a) && is_lit(b, 2) => return Update::Half,
            View::Arith(Op::LShr, a, b) if is_x(a) && is_lit(b, 1) => return Update::Half,
            _ => {}
        }
        // `x + s1 - s2 + …` with exactly one `+x` and uniform, loop-invariant other terms.
        let terms = self.arith.terms(rhs);
        let (own, rest): (Vec<&Term>, Vec<&Term>) = terms.iter().partition(|t| is_x(&t.expr));
        let [t] = own.as_slice() else { return Update::Other };
        if t.neg || rest.is_empty() || !rest.iter().all(|t| self.classify(lf, &t.expr).is_uniform_invariant()) {
            return Update::Other;
        }
        let Some(num) = self.num_of(&lf.locals, rhs) else {
            return Update::Other;
        };
        let rest: Vec<Term> = rest.into_iter().cloned().collect();
        if rest.iter().all(|t| t.neg) {
            let pos: Vec<Term> = rest.iter().map(|t| Term { neg: false, expr: t.expr.clone() }).collect();
            return Update::Additive { step: self.arith.sum(num, &pos), down: true };
        }
        Update::Additive { step: self.arith.sum(num, &rest), down: false }
    }
}

/// `x := t` where the loop assigns the temporary `t` once, `t := e`: the update is read as
/// `x := e` (the front end's `$inc := i + s; … i := $inc;` on a loop's back edge). A wrong
/// reading only proposes candidates that Houdini then refutes.
fn through_temporary<'e>(lf: &'e LoopFacts, x: &Name, rhs: &'e Expr) -> &'e Expr {
    let ExprKind::Var(t) = &rhs.kind else { return rhs };
    if t.name == *x {
        return rhs;
    }
    let mut defs = lf.assigns.iter().filter(|(y, _)| *y == t.name);
    match (defs.next(), defs.next()) {
        (Some((_, e)), None) => e,
        _ => rhs,
    }
}

fn strip_spans_eq(a: &Update, b: &Update) -> bool {
    match (a, b) {
        (Update::Additive { step: s1, down: d1 }, Update::Additive { step: s2, down: d2 }) => {
            d1 == d2 && ivl::printer::print_expr(s1) == ivl::printer::print_expr(s2)
        }
        _ => a == b,
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
fn outer_conds(imp: &BlockImpl, cfg: &Cfg, lp: &ivl::cfg::Loop) -> Vec<Expr> {
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

fn contains_old_or_quant(e: &Expr) -> bool {
    struct F(bool);
    impl Visit for F {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.kind, ExprKind::Old(_) | ExprKind::Quant(_)) {
                self.0 = true;
            }
            walk_expr(self, e)
        }
    }
    let mut f = F(false);
    f.visit_expr(e);
    f.0
}

/// Every identifier of a program and the identity attributes (names new declarations must
/// avoid).
pub fn all_names(program: &Program) -> HashSet<Name> {
    let mut names = ivl::visit::all_names(program);
    names.extend(IDENTITY_ATTRS.iter().map(|a| Name::from(*a)));
    names
}

/// Sizes fixed by axioms `c == N` over size constants, by identity attribute.
fn axiom_sizes(program: &Program, identity: &HashMap<Name, &'static str>, arith: &Arith) -> HashMap<&'static str, u64> {
    let mut out = HashMap::new();
    let mut conjuncts = Vec::new();
    for d in &program.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            split_and(&a.expr, &mut conjuncts);
        }
    }
    for c in conjuncts {
        let ExprKind::Binary(BinOp::Eq, a, b) = &c.kind else {
            continue;
        };
        for (x, v) in [(a, b), (b, a)] {
            let ExprKind::Var(id) = &x.kind else { continue };
            let Some(attr) = identity.get(&id.name) else {
                continue;
            };
            if !attr.starts_with("group_size") && !attr.starts_with("num_groups") {
                continue;
            }
            if let Some(n) = arith.lit_value(v).and_then(|n| u64::try_from(n).ok()) {
                out.insert(*attr, n);
            }
        }
    }
    out
}

pub fn split_and<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            split_and(a, out);
            split_and(b, out);
        }
        _ => out.push(e),
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

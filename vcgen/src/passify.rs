//! Passification: turns an acyclic, call-free block body into single-assignment form, in which
//! every statement is an `assume` or an `assert` (Barnett & Leino, "Weakest-precondition of
//! unstructured programs", 2005, §3; Boogie's `Passify`).
//!
//! Why: the linear-size weakest precondition of [`crate::wp`] needs a program without
//! assignments, so that the WP of a block does not depend on the path that reaches it and every
//! block's formula can be shared by all its predecessors.
//!
//! How: each variable gets *incarnations* `x`, `x#1`, `x#2`, … (`x` itself is the value on
//! entry). Blocks are visited in a topological order, each with the map from variables to their
//! current incarnation:
//! - `x := e` becomes `assume x#k == e'` (with `e'` over current incarnations) and `x#k` becomes
//!   current — unless `e'` is a literal or a variable, which then simply becomes `x`'s current
//!   value (copy propagation, as Boogie does: the VC gets fewer variables, and literals reach
//!   the terms that use them, e.g. `x * 1` at a loop entry instead of a multiplier); a map update `m[i][j] := v` is `m := m[i := m[i][j := v]]`; parallel assignments
//!   read every right-hand side before any variable changes;
//! - `havoc x` makes a fresh, unconstrained incarnation current;
//! - `assume e` / `assert e` are renamed (attributes, e.g. `{:check}`, are kept);
//! - `old(e)` reads globals at their entry incarnation;
//! - at a join, a variable whose predecessors disagree gets a fresh incarnation, and each
//!   predecessor ends with `assume x#k == x#j` (its own). A critical edge (from a block with
//!   several successors into a join) first gets an empty block of its own, so that these
//!   equations constrain only that edge;
//! - assignments and havocs of variables that are dead afterwards are dropped, and joins merge
//!   only live variables ([`Liveness`], as Boogie does before passifying).
//!
//! Incarnation names are `x#k` (Boogie writes `x@k`, which is not an identifier), made unique
//! against every name the implementation uses, so that the result — again a [`BlockImpl`],
//! whose new incarnations are declared as locals — prints with [`BlockImpl::to_decl`] as
//! `.kbpl` that parses back.

use crate::{HashMap, HashSet};
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use ivl::visit::{walk_expr_mut, Visit, VisitMut};

/// A passive implementation: blocks in topological order (entry first) holding only `assume`
/// and `assert`.
#[derive(Clone, Debug)]
pub struct Passive {
    pub imp: BlockImpl,
    /// Labels of the blocks that passification inserted on critical edges (not part of the
    /// user's program; error traces skip them).
    pub synthetic: HashSet<Name>,
}

/// The separator between a variable and its incarnation number.
pub const INCARNATION_SEP: char = '#';

struct Vars {
    ids: HashMap<Name, usize>,
    names: Vec<Name>,
    types: Vec<Type>,
    is_global: Vec<bool>,
    /// Next incarnation number per variable.
    next: Vec<u32>,
    /// The values a variable takes, per variable: its own name (entry value), incarnations,
    /// and literals or other variables' values it was assigned (copy propagation, as in
    /// Boogie's passification).
    values: Vec<Vec<Expr>>,
    /// Names in use (the implementation's and those made so far).
    taken: HashSet<Name>,
    /// New incarnations, in order of creation, as declarations.
    new_decls: Vec<TypedIdent>,
}

impl Vars {
    /// Value number `k` of variable `id` (0: the variable itself, its value on entry).
    fn value(&self, id: usize, k: u32) -> &Expr {
        &self.values[id][k as usize]
    }

    /// A value that is a literal or another variable's value: used directly, no incarnation.
    fn copy(&mut self, id: usize, e: Expr) -> u32 {
        self.values[id].push(e);
        (self.values[id].len() - 1) as u32
    }

    /// A fresh incarnation.
    fn fresh(&mut self, id: usize, span: Span) -> u32 {
        self.next[id] += 1;
        let k = self.next[id];
        let base = format!("{}{}{}", self.names[id], INCARNATION_SEP, k);
        let mut name = Name::from(base.as_str());
        let mut j = 0;
        while self.taken.contains(&name) {
            j += 1;
            name = Name::from(format!("{base}_{j}"));
        }
        self.taken.insert(name.clone());
        self.values[id].push(Expr::var(name.clone(), span));
        self.new_decls.push(TypedIdent {
            name: Ident::new(name, span),
            ty: self.types[id].clone(),
            where_clause: None,
            attrs: Vec::new(),
        });
        (self.values[id].len() - 1) as u32
    }
}

/// Every identifier in the implementation (incarnation names avoid them).
fn names_in(imp: &BlockImpl, globals: &[TypedIdent]) -> HashSet<Name> {
    struct Names(HashSet<Name>);
    impl Visit for Names {
        fn visit_ident(&mut self, i: &Ident) {
            self.0.insert(i.name.clone());
        }
    }
    let mut n = Names(globals.iter().map(|g| g.name.name.clone()).collect());
    for v in imp.ins.iter().chain(&imp.outs).chain(&imp.locals) {
        n.0.insert(v.name.name.clone());
    }
    for b in &imp.blocks {
        n.0.insert(b.label.name.clone());
        for s in &b.stmts {
            n.visit_stmt(s);
        }
    }
    n.0
}

/// Renames variables to their current incarnations (globals inside `old` to their entry value),
/// leaving bound variables alone, and removes `old`.
struct Renamer<'a> {
    vars: &'a Vars,
    cur: &'a [u32],
    bound: Vec<Name>,
    in_old: bool,
}

impl VisitMut for Renamer<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Var(x) => {
                if self.bound.contains(&x.name) {
                    return;
                }
                if let Some(&id) = self.vars.ids.get(&x.name) {
                    let k = if self.in_old && self.vars.is_global[id] { 0 } else { self.cur[id] };
                    if k != 0 {
                        let span = e.span;
                        *e = Expr::new(self.vars.value(id, k).kind.clone(), span);
                    }
                }
            }
            ExprKind::Quant(q) => {
                let mark = self.bound.len();
                self.bound.extend(q.vars.iter().map(|v| v.name.name.clone()));
                for t in &mut q.triggers {
                    for te in &mut t.exprs {
                        self.visit_expr(te);
                    }
                }
                self.visit_expr(&mut q.body);
                self.bound.truncate(mark);
            }
            ExprKind::Old(inner) => {
                let saved = self.in_old;
                self.in_old = true;
                self.visit_expr(inner);
                self.in_old = saved;
                let inner = std::mem::replace(&mut **inner, Expr::bool(true));
                *e = inner;
            }
            _ => walk_expr_mut(self, e),
        }
    }
}

fn rename(e: &Expr, vars: &Vars, cur: &[u32]) -> Expr {
    let mut e = e.clone();
    Renamer { vars, cur, bound: Vec::new(), in_old: false }.visit_expr(&mut e);
    e
}

/// The attributes of an assertion with the expressions of its `{:capture "label", e}`
/// attributes renamed like the assertion (the values a counterexample reports, `crate::wp`).
fn rename_captures(attrs: &[Attribute], vars: &Vars, cur: &[u32]) -> Vec<Attribute> {
    let mut attrs = attrs.to_vec();
    for a in attrs.iter_mut().filter(|a| a.name.as_str() == crate::wp::CAPTURE_ATTR) {
        for arg in &mut a.args {
            if let AttrArg::Expr(e) = arg {
                *e = rename(e, vars, cur);
            }
        }
    }
    attrs
}

/// `base[i := base[i][j := v]]` for `base[i][j] := v`.
fn update(base: Expr, indices: &[Vec<Expr>], v: Expr, span: Span) -> Expr {
    match indices.split_first() {
        None => v,
        Some((first, rest)) => {
            let inner = Expr::new(ExprKind::Select(Box::new(base.clone()), first.clone()), span);
            let new_inner = update(inner, rest, v, span);
            Expr::new(ExprKind::Store(Box::new(base), first.clone(), Box::new(new_inner)), span)
        }
    }
}

fn assume(e: Expr, span: Span) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: e }, span)
}

/// Passifies `imp`, whose variables are its parameters, locals and the program's `globals`.
pub fn passify(imp: &BlockImpl, globals: &[TypedIdent]) -> Result<Passive, Vec<Diagnostic>> {
    let cfg = Cfg::new(imp);
    if !cfg.is_acyclic() {
        return Err(vec![Diagnostic::new(
            ivl::diag::ErrorKind::Unsupported,
            format!("implementation `{}` still has loops at passification (internal error)", imp.name.name),
            imp.span,
        )]);
    }
    let vars = Vars::new(imp, globals);
    let order: Vec<usize> = cfg.reverse_postorder().to_vec();
    let live = Liveness::compute(imp, &cfg, &order, &vars);
    let mut p = Passifier {
        imp,
        cfg: &cfg,
        position: order.iter().enumerate().map(|(i, &b)| (b, i)).collect(),
        vars,
        out: Vec::with_capacity(order.len()),
        out_maps: Vec::with_capacity(order.len()),
        edge_blocks: Vec::new(),
        edge_label: HashMap::default(),
        labels: imp.blocks.iter().map(|b| b.label.name.clone()).collect(),
        synthetic: HashSet::default(),
    };
    let mut errors = Vec::new();
    for &b in &order {
        p.block(b, &live, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(p.finish(&order))
}

impl Vars {
    /// The variables of `imp`: the program's `globals`, then its parameters and locals (which
    /// shadow globals of the same name), each with its entry value.
    fn new(imp: &BlockImpl, globals: &[TypedIdent]) -> Vars {
        let mut vars = Vars {
            ids: HashMap::default(),
            names: Vec::new(),
            types: Vec::new(),
            is_global: Vec::new(),
            next: Vec::new(),
            values: Vec::new(),
            taken: names_in(imp, globals),
            new_decls: Vec::new(),
        };
        let locals = imp.ins.iter().chain(&imp.outs).chain(&imp.locals);
        for (v, global) in globals.iter().map(|v| (v, true)).chain(locals.map(|v| (v, false))) {
            // Locals shadow globals of the same name.
            let id = match vars.ids.get(&v.name.name) {
                Some(&id) => id,
                None => {
                    vars.names.push(v.name.name.clone());
                    vars.types.push(v.ty.clone());
                    vars.is_global.push(global);
                    vars.next.push(0);
                    vars.values.push(vec![Expr::var(v.name.name.clone(), v.name.span)]);
                    vars.names.len() - 1
                }
            };
            vars.types[id] = v.ty.clone();
            vars.is_global[id] = global;
            vars.ids.insert(v.name.name.clone(), id);
        }
        vars
    }
}

/// Passification under way: the blocks passified so far, in topological order, with the
/// incarnation map at the end of each, and the blocks inserted on critical edges.
struct Passifier<'a> {
    imp: &'a BlockImpl,
    cfg: &'a Cfg,
    /// Each reachable block's position in the topological order.
    position: HashMap<usize, usize>,
    vars: Vars,
    /// Output blocks, indexed like the order; edge blocks are kept apart and placed at the end.
    out: Vec<Block>,
    out_maps: Vec<Vec<u32>>,
    /// Edge blocks, each with the position of its predecessor.
    edge_blocks: Vec<(usize, Block)>,
    /// (pred block, original succ block) -> label of the edge block between them.
    edge_label: HashMap<(usize, usize), Name>,
    labels: HashSet<Name>,
    synthetic: HashSet<Name>,
}

impl Passifier<'_> {
    /// Passifies block `b`, whose predecessors are done.
    fn block(&mut self, b: usize, live: &Liveness, errors: &mut Vec<Diagnostic>) {
        let block = &self.imp.blocks[b];
        let preds: Vec<usize> =
            self.cfg.predecessors(b).iter().copied().filter(|p| self.position.contains_key(p)).collect();
        let mut cur: Vec<u32> = if preds.is_empty() {
            vec![0; self.vars.names.len()]
        } else if preds.len() == 1 {
            self.out_maps[self.position[&preds[0]]].clone()
        } else {
            self.join(b, &preds, live)
        };
        let mut stmts = Vec::with_capacity(block.stmts.len());
        for (s, keep) in block.stmts.iter().zip(&live.keep[b]) {
            if let Err(e) = passify_stmt(s, keep, &mut self.vars, &mut cur, &mut stmts) {
                errors.push(e);
            }
        }
        self.out.push(Block { label: block.label.clone(), stmts, term: block.term.clone(), span: block.span });
        self.out_maps.push(cur);
    }

    /// The incarnation map at the start of join `b`: a live variable whose predecessors
    /// disagree gets a fresh incarnation, equated to each predecessor's at its end (or on its
    /// edge block).
    fn join(&mut self, b: usize, preds: &[usize], live: &Liveness) -> Vec<u32> {
        let span = self.imp.blocks[b].label.span;
        let pred_pos: Vec<usize> = preds.iter().map(|p| self.position[p]).collect();
        let mut merged = self.out_maps[pred_pos[0]].clone();
        // The block that receives each predecessor's merge equations.
        let targets = self.edge_targets(b, preds, &pred_pos);
        let vars = &mut self.vars;
        // One entry per variable.
        for (id, slot) in merged.iter_mut().enumerate() {
            if !live.live_in[b].contains(id) {
                // Not read before being overwritten on any path from here: no merge.
                continue;
            }
            let first = vars.value(id, self.out_maps[pred_pos[0]][id]);
            if pred_pos.iter().all(|&pp| same_value(vars.value(id, self.out_maps[pp][id]), first)) {
                continue;
            }
            let k = vars.fresh(id, span);
            *slot = k;
            let target = Expr::new(vars.value(id, k).kind.clone(), Span::DUMMY);
            for (i, &pp) in pred_pos.iter().enumerate() {
                let source = Expr::new(vars.value(id, self.out_maps[pp][id]).kind.clone(), Span::DUMMY);
                let stmt = assume(Expr::eq(target.clone(), source), span);
                match targets[i] {
                    Some(eb) => self.edge_blocks[eb].1.stmts.push(stmt),
                    None => self.out[pp].stmts.push(stmt),
                }
            }
        }
        merged
    }

    /// Per predecessor of join `b`: the edge block made for it when it has several successors
    /// (a critical edge), which then receives its merge equations; `None`: the predecessor
    /// itself receives them.
    fn edge_targets(&mut self, b: usize, preds: &[usize], pred_pos: &[usize]) -> Vec<Option<usize>> {
        let block = &self.imp.blocks[b];
        let mut targets: Vec<Option<usize>> = Vec::new();
        for (&p, &pp) in preds.iter().zip(pred_pos) {
            if self.cfg.successors(p).len() > 1 {
                let base = format!("{}_to_{}", self.imp.blocks[p].label.name, block.label.name);
                let label = fresh_label(&base, &self.labels);
                self.labels.insert(label.clone());
                self.synthetic.insert(label.clone());
                self.edge_label.insert((p, b), label.clone());
                self.edge_blocks.push((
                    pp,
                    Block {
                        label: Ident::new(label, block.label.span),
                        stmts: Vec::new(),
                        term: Terminator::Goto(vec![block.label.clone()]),
                        span: block.span,
                    },
                ));
                targets.push(Some(self.edge_blocks.len() - 1));
            } else {
                targets.push(None);
            }
        }
        targets
    }

    /// The passive implementation: the blocks with the edge blocks in place, the new
    /// incarnations declared as locals.
    fn finish(self, order: &[usize]) -> Passive {
        let Passifier { imp, vars, out, edge_blocks, edge_label, synthetic, .. } = self;
        let blocks = place_edge_blocks(imp, order, out, edge_blocks, &edge_label);
        let mut locals = imp.locals.clone();
        locals.extend(vars.new_decls);
        Passive {
            imp: BlockImpl {
                attrs: imp.attrs.clone(),
                name: imp.name.clone(),
                ins: imp.ins.clone(),
                outs: imp.outs.clone(),
                locals,
                blocks,
                span: imp.span,
            },
            synthetic,
        }
    }
}

/// The passive blocks: edges redirected through the edge blocks, each edge block placed right
/// after its predecessor (a topological order is kept: pred < edge block < successor), and
/// edges to unreachable blocks (dropped from `order`) dropped too.
fn place_edge_blocks(
    imp: &BlockImpl,
    order: &[usize],
    mut out: Vec<Block>,
    edge_blocks: Vec<(usize, Block)>,
    edge_label: &HashMap<(usize, usize), Name>,
) -> Vec<Block> {
    let index = imp.label_index();
    for (pos, &b) in order.iter().enumerate() {
        if let Terminator::Goto(ts) = &mut out[pos].term {
            for t in ts.iter_mut() {
                if let Some(l) = index.get(&t.name).and_then(|tb| edge_label.get(&(b, *tb))) {
                    *t = Ident::new(l.clone(), t.span);
                }
            }
        }
    }
    let mut after: Vec<Vec<Block>> = vec![Vec::new(); out.len()];
    for (pp, eb) in edge_blocks {
        after[pp].push(eb);
    }
    let mut blocks = Vec::with_capacity(out.len());
    for (b, extra) in out.into_iter().zip(after) {
        blocks.push(b);
        blocks.extend(extra);
    }
    let kept: HashSet<Name> = blocks.iter().map(|b| b.label.name.clone()).collect();
    for b in &mut blocks {
        if let Terminator::Goto(ts) = &mut b.term {
            ts.retain(|t| kept.contains(&t.name));
        }
    }
    blocks
}

/// A literal or a variable: assigned values of this form are propagated, not named.
fn is_simple(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::BoolLit(_) | ExprKind::IntLit(_) | ExprKind::RealLit(_) | ExprKind::BvLit { .. } | ExprKind::Var(_)
    )
}

/// Whether two simple values are the same (ignoring where they were written).
fn same_value(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Var(x), ExprKind::Var(y)) => x.name == y.name,
        (x, y) => x == y,
    }
}

fn fresh_label(base: &str, taken: &HashSet<Name>) -> Name {
    let base = Name::from(base);
    if !taken.contains(&base) {
        return base;
    }
    (1..).map(|i| Name::from(format!("{base}_{i}"))).find(|n| !taken.contains(n)).expect("infinite")
}

/// A set of variable ids.
#[derive(Clone, Default, PartialEq, Eq)]
struct VarSet(Vec<u64>);

impl VarSet {
    fn contains(&self, id: usize) -> bool {
        self.0.get(id / 64).is_some_and(|w| w & (1 << (id % 64)) != 0)
    }
    fn insert(&mut self, id: usize) {
        if self.0.len() <= id / 64 {
            self.0.resize(id / 64 + 1, 0);
        }
        self.0[id / 64] |= 1 << (id % 64);
    }
    fn remove(&mut self, id: usize) {
        if let Some(w) = self.0.get_mut(id / 64) {
            *w &= !(1 << (id % 64));
        }
    }
    fn union_with(&mut self, other: &VarSet) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// Live variables (Boogie passifies with the same analysis): a variable is live at a point if
/// some path from there reads it (in an `assume`, `assert` or right-hand side) before it is
/// written. Assignments and havocs of variables that are dead afterwards have no effect on any
/// assertion and are dropped; joins merge only live variables. Without this, dead temporaries
/// (frequent after inlining) would still put their — often non-linear bit-vector — defining
/// equations into the VC, and with relevancy 0 Z3 bit-blasts them all.
struct Liveness {
    live_in: Vec<VarSet>,
    /// Per block and statement: for an assignment, whether each target is kept; for a havoc,
    /// whether each variable is kept; empty otherwise.
    keep: Vec<Vec<Vec<bool>>>,
}

impl Liveness {
    fn compute(imp: &BlockImpl, cfg: &Cfg, order: &[usize], vars: &Vars) -> Liveness {
        let n = imp.blocks.len();
        let mut live_in = vec![VarSet::default(); n];
        let mut keep: Vec<Vec<Vec<bool>>> = imp.blocks.iter().map(|b| vec![Vec::new(); b.stmts.len()]).collect();
        let uses = |node: &dyn Fn(&mut Vec<Name>), live: &mut VarSet| {
            let mut names = Vec::new();
            node(&mut names);
            for n in names {
                if let Some(&id) = vars.ids.get(&n) {
                    live.insert(id);
                }
            }
        };
        for &b in order.iter().rev() {
            let mut live = VarSet::default();
            for &s in cfg.successors(b) {
                live.union_with(&live_in[s]);
            }
            for (i, st) in imp.blocks[b].stmts.iter().enumerate().rev() {
                match &st.kind {
                    StmtKind::Assign { lhss, rhss } => {
                        let flags: Vec<bool> = lhss
                            .iter()
                            .map(|l| vars.ids.get(&l.var.name).is_none_or(|&id| live.contains(id)))
                            .collect();
                        for (l, &k) in lhss.iter().zip(&flags) {
                            if k && l.indices.is_empty() {
                                if let Some(&id) = vars.ids.get(&l.var.name) {
                                    live.remove(id);
                                }
                            }
                        }
                        for ((l, r), &k) in lhss.iter().zip(rhss).zip(&flags) {
                            if !k {
                                continue;
                            }
                            uses(&|out: &mut Vec<Name>| out.extend(ivl::visit::free_vars(r)), &mut live);
                            for idx in l.indices.iter().flatten() {
                                uses(&|out: &mut Vec<Name>| out.extend(ivl::visit::free_vars(idx)), &mut live);
                            }
                            if !l.indices.is_empty() {
                                // A map update reads the old map.
                                if let Some(&id) = vars.ids.get(&l.var.name) {
                                    live.insert(id);
                                }
                            }
                        }
                        keep[b][i] = flags;
                    }
                    StmtKind::Havoc(xs) => {
                        let flags: Vec<bool> =
                            xs.iter().map(|x| vars.ids.get(&x.name).is_none_or(|&id| live.contains(id))).collect();
                        for x in xs {
                            if let Some(&id) = vars.ids.get(&x.name) {
                                live.remove(id);
                            }
                        }
                        keep[b][i] = flags;
                    }
                    _ => uses(&|out: &mut Vec<Name>| out.extend(ivl::visit::free_vars(st)), &mut live),
                }
            }
            live_in[b] = live;
        }
        Liveness { live_in, keep }
    }
}

fn passify_stmt(
    s: &Stmt,
    keep: &[bool],
    vars: &mut Vars,
    cur: &mut [u32],
    out: &mut Vec<Stmt>,
) -> Result<(), Diagnostic> {
    match &s.kind {
        StmtKind::Assume { attrs, expr } => {
            out.push(Stmt::new(StmtKind::Assume { attrs: attrs.clone(), expr: rename(expr, vars, cur) }, s.span));
        }
        StmtKind::Assert { attrs, expr } => {
            let attrs = rename_captures(attrs, vars, cur);
            out.push(Stmt::new(StmtKind::Assert { attrs, expr: rename(expr, vars, cur) }, s.span));
        }
        StmtKind::Havoc(xs) => {
            for (i, x) in xs.iter().enumerate() {
                if keep.get(i) == Some(&false) {
                    continue;
                }
                let id = var_id(vars, x)?;
                cur[id] = vars.fresh(id, x.span);
            }
        }
        StmtKind::Assign { lhss, rhss } => {
            if lhss.len() != rhss.len() {
                return Err(Diagnostic::type_error("assignment with different numbers of targets and values", s.span));
            }
            let mut updates = Vec::with_capacity(lhss.len());
            for (i, (l, r)) in lhss.iter().zip(rhss).enumerate() {
                if keep.get(i) == Some(&false) {
                    continue;
                }
                let id = var_id(vars, &l.var)?;
                let value = if l.indices.is_empty() {
                    rename(r, vars, cur)
                } else {
                    let base = Expr::new(vars.value(id, cur[id]).kind.clone(), l.var.span);
                    let indices: Vec<Vec<Expr>> =
                        l.indices.iter().map(|is| is.iter().map(|i| rename(i, vars, cur)).collect()).collect();
                    update(base, &indices, rename(r, vars, cur), l.span)
                };
                updates.push((id, value, l.span));
            }
            for (id, value, span) in updates {
                if is_simple(&value) {
                    cur[id] = vars.copy(id, value);
                    continue;
                }
                let k = vars.fresh(id, span);
                cur[id] = k;
                let target = Expr::new(vars.value(id, k).kind.clone(), span);
                out.push(assume(Expr::eq(target, value), s.span));
            }
        }
        StmtKind::Block(inner) => {
            for t in inner {
                passify_stmt(t, &[], vars, cur, out)?;
            }
        }
        StmtKind::Call { .. } => {
            return Err(Diagnostic::unsupported("calls must be desugared before passification", s.span));
        }
        StmtKind::Barrier { .. } => {
            return Err(Diagnostic::unsupported(
                "`barrier` must be removed by the GPU passes before verification",
                s.span,
            ));
        }
        StmtKind::Atomic(_) => {
            return Err(Diagnostic::unsupported(
                "`atomic` must be removed by the GPU passes before verification",
                s.span,
            ));
        }
        StmtKind::Vector(_) => {
            return Err(Diagnostic::unsupported("lock-step vector statements cannot be verified directly", s.span));
        }
        StmtKind::Label(_)
        | StmtKind::Goto(_)
        | StmtKind::Return
        | StmtKind::Break(_)
        | StmtKind::If { .. }
        | StmtKind::While { .. } => {
            return Err(Diagnostic::unsupported("structured statement inside a basic block (internal error)", s.span));
        }
    }
    Ok(())
}

fn var_id(vars: &Vars, x: &Ident) -> Result<usize, Diagnostic> {
    vars.ids
        .get(&x.name)
        .copied()
        .ok_or_else(|| Diagnostic::type_error(format!("`{}` is not a variable that can be assigned", x.name), x.span))
}

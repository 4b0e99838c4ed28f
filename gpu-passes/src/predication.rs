//! Predication of a single thread, seed 000 §4.1 (Collingbourne et al.), Tables 1 and 2.
//!
//! Why: lock-step execution (§4.2) needs every thread to execute the same sequence of blocks.
//! Predication flattens a reducible CFG: the blocks run in the sort order of §4
//! ([`crate::sort_order`]), a private variable `v_active` holds the block the thread really is
//! in, and every statement of block `B` only has an effect when `v_active = B`. Back edges remain
//! only at the end of each loop, where `B_back` / `B_exit` decide whether to go round again.
//!
//! Exactly as in the paper, for a block `B` with guard `guard(B)` (its leading `assume`):
//!
//! | original                     | predicated (Table 1)                                          |
//! |------------------------------|---------------------------------------------------------------|
//! | `v := e;`                    | `v := (if v_active == B then e else v);`                      |
//! | `havoc v;`                   | `havoc v_havoc; v := (if v_active == B then v_havoc else v);` |
//! | `assert e;`                  | `assert v_active == B ==> e;`                                 |
//! | `barrier;`                   | `barrier {:enabled v_active == B};` (the paper's `barrier e`) |
//!
//! and every block (Table 2) ends with
//! `v_next := {B1, …, Bn}` (written `havoc v_next; assume v_next == B1 || … ;`),
//! `assume v_active == B ==> ((v_next == B1 ==> guard(B1)) && …);` (the successors' guards,
//! moved here), `v_active := (if v_active == B then v_next else v_active);` and `goto next(B);`
//! — or, for the last block of a loop with header `H`, `goto H_back, H_exit;` with
//! `H_back: assume v_active == H; goto H;` and `H_exit: assume v_active != H; goto next(B);`.
//! Step (3): `v_active := Start;` opens the entry block.
//!
//! Choices the paper leaves open, made here:
//! - block ids are integers: a block's position in the sort order plus one; `End` (the
//!   paper's termination label, which `return` jumps to) is one more than the last block;
//! - `m[i] := e` is Boogie's `m := m[i := e]`, predicated as the whole-map assignment;
//! - conjuncts `(v_next == Bi) ==> true` are left out, and the `assume` with them when none
//!   remains (as in the paper's Fig. 5, block `B2`);
//! - a block that is last in several nested loops gets one `H_back` / `H_exit` pair per loop,
//!   innermost first, each exit falling into the next loop's pair;
//! - `assume e` after the guard cannot occur after [`crate::preprocess`]; if it does, it is
//!   predicated as `assume v_active == B ==> e` (as Table 3a treats assumes);
//! - calls (other than to `{:barrier}` procedures) are reported as unsupported: inline them first.
//!
//! The input is preprocessed first ([`crate::preprocess::preprocess`]): guards, a barrier before
//! termination, at most one loop header per `goto`.

use crate::bodies::map_bodies;
use crate::preprocess::{guard, preprocess, Labels};
use crate::sort_order::SortOrder;
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use std::collections::{HashMap, HashSet};

/// A predicated implementation and what the lock-step construction (§4.2) needs to know of it.
#[derive(Clone, Debug)]
pub struct PredicatedImpl {
    pub imp: BlockImpl,
    /// The private variables `v_active` and `v_next` (type `int`).
    pub active: Name,
    pub next: Name,
    /// The id of every predicated block (the `B_back` / `B_exit` blocks have none).
    pub block_ids: HashMap<Name, u64>,
    /// The id of `End`, greater than every block id.
    pub end_id: u64,
    /// One entry per loop, outer loops first.
    pub loops: Vec<LoopLayout>,
    /// The edges of the preprocessed CFG as `(source id, target id)` (`return`: target `End`).
    pub edges: Vec<(u64, u64)>,
    /// The variables predication introduced (`v_active`, `v_next`, the `v_havoc`s), all private.
    pub fresh_locals: Vec<TypedIdent>,
}

/// Where a loop ended up in the predicated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopLayout {
    pub header: Name,
    pub header_id: u64,
    /// The id of the block sorted last in the loop.
    pub last_id: u64,
    /// The labels of `B_back` and `B_exit`.
    pub back: Name,
    pub exit: Name,
}

impl PredicatedImpl {
    /// The loop whose `B_back` block this is.
    pub fn back_of(&self, label: &str) -> Option<&LoopLayout> {
        self.loops.iter().find(|l| l.back == label)
    }
    /// The loop whose `B_exit` block this is.
    pub fn exit_of(&self, label: &str) -> Option<&LoopLayout> {
        self.loops.iter().find(|l| l.exit == label)
    }
    /// Where a thread can be (the `v_active` values) whenever the lock-step program is at the
    /// header of loop `lp`: at the header, at the header of an enclosing loop (a `continue`
    /// taken earlier), or at a block after the loop that a block up to the loop's end jumps to
    /// (an exit taken earlier, or the loop skipped). Every other block before the header has
    /// run and been left: `v_active` only grows, except along back edges. Sorted.
    pub fn header_positions(&self, lp: &LoopLayout) -> Vec<u64> {
        // A `continue` of an enclosing loop: an edge from inside it back to its header.
        let continues = |s: u64, h: u64| {
            self.loops
                .iter()
                .any(|o| o.header_id == h && o.header_id < lp.header_id && o.last_id >= lp.last_id && s >= o.header_id)
        };
        let mut ids: Vec<u64> = self
            .edges
            .iter()
            .filter(|&&(s, t)| s <= lp.last_id && (t > lp.last_id || continues(s, t)))
            .map(|&(_, t)| t)
            .collect();
        ids.push(lp.header_id);
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

pub(crate) fn int_lit(v: u64, span: Span) -> Expr {
    Expr::new(ExprKind::IntLit(v.into()), span)
}

pub(crate) fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt::new(kind, span)
}

pub(crate) fn simple_lhs(name: &Name, span: Span) -> Lhs {
    Lhs { var: Ident::new(name.clone(), span), indices: Vec::new(), span }
}

pub(crate) fn assign1(name: &Name, rhs: Expr, span: Span) -> Stmt {
    stmt(StmtKind::Assign { lhss: vec![simple_lhs(name, span)], rhss: vec![rhs] }, span)
}

pub(crate) fn typed(name: &Name, ty: Type) -> TypedIdent {
    TypedIdent { name: Ident::new(name.clone(), Span::DUMMY), ty, where_clause: None, attrs: Vec::new() }
}

/// Boogie's meaning of `m[i1][i2] := e`: the whole-map value `m[i1 := m[i1][i2 := e]]`.
pub fn map_update(lhs: &Lhs, rhs: Expr) -> Expr {
    fn go(base: Expr, indices: &[Vec<Expr>], rhs: Expr) -> Expr {
        match indices.split_first() {
            None => rhs,
            Some((first, rest)) => {
                let span = base.span;
                let inner = Expr::new(ExprKind::Select(Box::new(base.clone()), first.clone()), span);
                let value = go(inner, rest, rhs);
                Expr::new(ExprKind::Store(Box::new(base), first.clone(), Box::new(value)), span)
            }
        }
    }
    go(Expr::var(lhs.var.name.clone(), lhs.var.span), &lhs.indices, rhs)
}

pub(crate) use ivl::visit::all_names;

/// Fresh variable names: `base` if unused, else the first of `base_1`, `base_2`, … that is
/// unused; reserved once given. The names taken only grow, so the search for a base's next
/// name starts after the last one it gave: starting from `base_1` each time made the passes
/// quadratic on long kernels, which ask for thousands of `$read`s (issue 42).
pub(crate) struct FreshNames {
    taken: HashSet<Name>,
    next: HashMap<Name, usize>,
}

impl FreshNames {
    /// Fresh names avoiding `taken`.
    pub(crate) fn new(taken: HashSet<Name>) -> FreshNames {
        FreshNames { taken, next: HashMap::new() }
    }

    /// Takes these names too.
    pub(crate) fn reserve(&mut self, names: impl IntoIterator<Item = Name>) {
        self.taken.extend(names);
    }

    pub(crate) fn fresh(&mut self, base: &str) -> Name {
        if !self.taken.contains(base) {
            let name = Name::from(base);
            self.taken.insert(name.clone());
            return name;
        }
        let i = self.next.entry(Name::from(base)).or_insert(1);
        loop {
            let name = Name::from(format!("{base}_{i}"));
            *i += 1;
            if self.taken.insert(name.clone()) {
                return name;
            }
        }
    }
}

struct Predicator<'a> {
    src: &'a BlockImpl,
    cfg: Cfg,
    so: SortOrder,
    ids: Vec<u64>,
    end_id: u64,
    active: Name,
    next: Name,
    /// Types of assignable variables (locals, outs, globals).
    types: HashMap<Name, Type>,
    names: &'a mut FreshNames,
    /// Label to block index.
    index: HashMap<Name, usize>,
    havoc_vars: HashMap<Name, Name>,
    fresh_locals: Vec<TypedIdent>,
    diags: Vec<Diagnostic>,
}

impl Predicator<'_> {
    fn active_is(&self, id: u64, span: Span) -> Expr {
        Expr::eq(Expr::var(self.active.clone(), span), int_lit(id, span))
    }

    fn havoc_var(&mut self, x: &Ident) -> Option<Name> {
        if let Some(h) = self.havoc_vars.get(&x.name) {
            return Some(h.clone());
        }
        let Some(ty) = self.types.get(&x.name).cloned() else {
            self.diags.push(Diagnostic::type_error(format!("`havoc` of unknown variable `{}`", x.name), x.span));
            return None;
        };
        let h = self.names.fresh(&format!("{}_havoc", x.name));
        self.fresh_locals.push(typed(&h, ty));
        self.havoc_vars.insert(x.name.clone(), h.clone());
        Some(h)
    }

    /// Table 1: the predicated form of one statement of block `id`.
    fn statement(&mut self, s: &Stmt, id: u64, out: &mut Vec<Stmt>) {
        let sp = s.span;
        let keep = |x: &Name, new: Expr, act: Expr| Expr::ite(act, new, Expr::var(x.clone(), sp));
        match &s.kind {
            StmtKind::Assign { lhss, rhss } => {
                let new_lhss = lhss.iter().map(|l| simple_lhs(&l.var.name, l.span)).collect();
                let new_rhss = lhss
                    .iter()
                    .zip(rhss)
                    .map(|(l, r)| keep(&l.var.name, map_update(l, r.clone()), self.active_is(id, sp)))
                    .collect();
                out.push(stmt(StmtKind::Assign { lhss: new_lhss, rhss: new_rhss }, sp));
            }
            StmtKind::Havoc(xs) => {
                let mut hs = Vec::new();
                for x in xs {
                    if let Some(h) = self.havoc_var(x) {
                        hs.push((x, h));
                    }
                }
                if hs.is_empty() {
                    return;
                }
                out.push(stmt(StmtKind::Havoc(hs.iter().map(|(x, h)| Ident::new(h.clone(), x.span)).collect()), sp));
                let lhss = hs.iter().map(|(x, _)| simple_lhs(&x.name, x.span)).collect();
                let rhss = hs
                    .iter()
                    .map(|(x, h)| keep(&x.name, Expr::var(h.clone(), x.span), self.active_is(id, sp)))
                    .collect();
                out.push(stmt(StmtKind::Assign { lhss, rhss }, sp));
            }
            StmtKind::Assert { attrs, expr } => {
                let e = Expr::implies(self.active_is(id, expr.span), expr.clone());
                out.push(stmt(StmtKind::Assert { attrs: attrs.clone(), expr: e }, sp));
            }
            StmtKind::Assume { attrs, expr } => {
                let e = Expr::implies(self.active_is(id, expr.span), expr.clone());
                out.push(stmt(StmtKind::Assume { attrs: attrs.clone(), expr: e }, sp));
            }
            StmtKind::Barrier { attrs, invariants } => {
                let mut attrs = attrs.clone();
                attrs.insert(0, enabled_attr(self.active_is(id, sp), sp));
                out.push(stmt(StmtKind::Barrier { attrs, invariants: invariants.clone() }, sp));
            }
            StmtKind::Call { proc, .. } => self.diags.push(
                Diagnostic::unsupported(
                    format!("predication of a call to `{}` in a kernel is not supported", proc.name),
                    sp,
                )
                .with_label("this call")
                .with_note("inline the procedure ({:inline 1}) before predication"),
            ),
            StmtKind::Atomic(_) => self.diags.push(
                Diagnostic::unsupported(
                    "atomics are verified by the two-thread reduction only (not with `--lockstep`)",
                    sp,
                )
                .with_label("this atomic"),
            ),
            _ => self.diags.push(Diagnostic::unsupported("this statement cannot be predicated", sp)),
        }
    }

    fn target_ids(&self, b: &Block) -> Vec<(u64, Option<usize>)> {
        let index = &self.index;
        let mut out: Vec<(u64, Option<usize>)> = Vec::new();
        match &b.term {
            Terminator::Return => out.push((self.end_id, None)),
            Terminator::Goto(ts) => {
                for t in ts {
                    if let Some(&i) = index.get(&t.name) {
                        if !out.iter().any(|&(_, j)| j == Some(i)) {
                            out.push((self.ids[i], Some(i)));
                        }
                    }
                }
            }
        }
        out
    }

    /// Table 2: the predicated form of block `bi`, with its `B_back` / `B_exit` blocks.
    fn block(&mut self, bi: usize, labels: &mut Labels, layouts: &mut Vec<LoopLayout>) -> Vec<Block> {
        let src = self.src;
        let b = &src.blocks[bi];
        let id = self.ids[bi];
        let sp = b.span;
        let mut stmts = Vec::new();
        if bi == self.cfg.entry() {
            stmts.push(assign1(&self.active, int_lit(id, b.label.span), b.label.span));
        }
        let body = if guard(b).is_some() { &b.stmts[1..] } else { &b.stmts[..] };
        for s in body {
            self.statement(s, id, &mut stmts);
        }
        // v_next := {B1, ..., Bn}
        let targets = self.target_ids(b);
        let next_var = || Expr::var(self.next.clone(), sp);
        stmts.push(stmt(StmtKind::Havoc(vec![Ident::new(self.next.clone(), sp)]), sp));
        let choice =
            targets.iter().map(|&(t, _)| Expr::eq(next_var(), int_lit(t, sp))).reduce(Expr::or).expect("a target");
        stmts.push(stmt(StmtKind::Assume { attrs: Vec::new(), expr: choice }, sp));
        // assume v_active == B ==> /\ (v_next == Bi ==> guard(Bi))
        let guards = targets
            .iter()
            .filter_map(|&(t, i)| {
                let g = guard(&src.blocks[i?])?;
                (!g.is_true()).then(|| Expr::implies(Expr::eq(next_var(), int_lit(t, g.span)), g.clone()))
            })
            .reduce(Expr::and);
        if let Some(g) = guards {
            let e = Expr::implies(self.active_is(id, sp), g);
            stmts.push(stmt(StmtKind::Assume { attrs: Vec::new(), expr: e }, sp));
        }
        // v_active := v_active == B ? v_next : v_active
        let upd = Expr::ite(self.active_is(id, sp), next_var(), Expr::var(self.active.clone(), sp));
        stmts.push(assign1(&self.active, upd, sp));

        let after = match self.so.next(bi) {
            Some(n) => goto(&src.blocks[n].label.name, sp),
            None => Terminator::Return,
        };
        let ending = self.so.loops_ending_at(&self.cfg, bi);
        let mut out = vec![Block { label: b.label.clone(), stmts, term: after.clone(), span: sp }];
        for l in ending {
            let h = self.cfg.loops()[l].header;
            let header = src.blocks[h].label.clone();
            let back = labels.fresh(&format!("{}_back", header.name));
            let exit = labels.fresh(&format!("{}_exit", header.name));
            let term_of_prev = Terminator::Goto(vec![Ident::new(back.clone(), sp), Ident::new(exit.clone(), sp)]);
            out.last_mut().expect("the block").term = term_of_prev;
            let is_h = self.active_is(self.ids[h], sp);
            let not_h = Expr::binary(BinOp::Neq, Expr::var(self.active.clone(), sp), int_lit(self.ids[h], sp));
            out.push(Block {
                label: Ident::new(back.clone(), sp),
                stmts: vec![stmt(StmtKind::Assume { attrs: Vec::new(), expr: is_h }, sp)],
                term: goto(&header.name, sp),
                span: sp,
            });
            out.push(Block {
                label: Ident::new(exit.clone(), sp),
                stmts: vec![stmt(StmtKind::Assume { attrs: Vec::new(), expr: not_h }, sp)],
                term: after.clone(),
                span: sp,
            });
            layouts.push(LoopLayout { header: header.name.clone(), header_id: self.ids[h], last_id: id, back, exit });
        }
        out
    }
}

fn goto(target: &Name, span: Span) -> Terminator {
    Terminator::Goto(vec![Ident::new(target.clone(), span)])
}

/// The attribute that makes `barrier` the paper's `barrier e` (executed only when `e` holds).
pub fn enabled_attr(e: Expr, span: Span) -> Attribute {
    Attribute { name: Ident::new("enabled", span), args: vec![AttrArg::Expr(e)], span }
}

/// The condition of a predicated barrier (`barrier {:enabled e}`), if it has one.
pub fn barrier_enabled(attrs: &[Attribute]) -> Option<&Expr> {
    match find_attr(attrs, "enabled")?.args.first()? {
        AttrArg::Expr(e) => Some(e),
        AttrArg::String(..) => None,
    }
}

/// Predicates a block body that [`preprocess`] has already been applied to. `globals` gives the
/// types of the global variables; `names` holds every name in use (fresh ones are added).
pub(crate) fn predicate_preprocessed(
    imp: &BlockImpl,
    globals: &HashMap<Name, Type>,
    names: &mut FreshNames,
) -> Result<PredicatedImpl, Vec<Diagnostic>> {
    let cfg = Cfg::new(imp);
    let so = SortOrder::of(&cfg).map_err(|d| vec![d])?;
    let mut ids = vec![0u64; imp.blocks.len()];
    for (p, &b) in so.order.iter().enumerate() {
        ids[b] = p as u64 + 1;
    }
    let end_id = so.order.len() as u64 + 1;
    let mut types: HashMap<Name, Type> = globals.clone();
    for v in imp.locals.iter().chain(&imp.outs) {
        types.insert(v.name.name.clone(), v.ty.clone());
    }
    let active = names.fresh("v_active");
    let next = names.fresh("v_next");
    let fresh_locals = vec![typed(&active, Type::int()), typed(&next, Type::int())];
    let mut pr = Predicator {
        src: imp,
        cfg,
        so,
        ids,
        end_id,
        active,
        next,
        types,
        names,
        index: imp.label_index(),
        havoc_vars: HashMap::new(),
        fresh_locals,
        diags: Vec::new(),
    };
    let mut labels = Labels::of(imp);
    let mut layouts = Vec::new();
    let mut blocks = Vec::with_capacity(imp.blocks.len());
    for p in 0..pr.so.order.len() {
        let bi = pr.so.order[p];
        blocks.extend(pr.block(bi, &mut labels, &mut layouts));
    }
    if !pr.diags.is_empty() {
        return Err(pr.diags);
    }
    // Outer loops first.
    layouts.sort_by_key(|l| (l.header_id, std::cmp::Reverse(l.last_id)));
    let edges = pr
        .so
        .order
        .iter()
        .flat_map(|&b| pr.target_ids(&imp.blocks[b]).into_iter().map(move |(t, _)| (b, t)))
        .map(|(b, t)| (pr.ids[b], t))
        .collect();
    let block_ids = pr.so.order.iter().map(|&b| (imp.blocks[b].label.name.clone(), pr.ids[b])).collect();
    let mut locals = imp.locals.clone();
    locals.extend(pr.fresh_locals.iter().cloned());
    Ok(PredicatedImpl {
        imp: BlockImpl { locals, blocks, ..imp.clone() },
        active: pr.active,
        next: pr.next,
        block_ids,
        end_id,
        loops: layouts,
        edges,
        fresh_locals: pr.fresh_locals,
    })
}

/// Preprocesses ([`preprocess`]) and predicates one block body of `program`.
pub fn predicate_impl(program: &Program, imp: &BlockImpl) -> Result<PredicatedImpl, Vec<Diagnostic>> {
    let mut names = FreshNames::new(all_names(program));
    names.reserve(all_names(&imp.to_body()));
    let pre = preprocess(imp)?;
    predicate_preprocessed(&pre, &global_var_types(program), &mut names)
}

/// The types of the global variables of a program.
pub(crate) fn global_var_types(p: &Program) -> HashMap<Name, Type> {
    p.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(v.vars.iter().map(|x| (x.name.name.clone(), x.ty.clone()))),
            _ => None,
        })
        .flatten()
        .collect()
}

/// `kivl transform --emit predicated`: every kernel (every implementation of a program without
/// kernels) in predicated form, after the preprocessing of [`crate::preprocess`].
pub fn predicate_program(p: &Program) -> Result<Program, Vec<Diagnostic>> {
    let p = crate::preprocess::barrier_calls_to_statements(p);
    let mut names = FreshNames::new(all_names(&p));
    let globals = global_var_types(&p);
    map_bodies(&p, |imp| {
        let pre = preprocess(imp)?;
        Ok(predicate_preprocessed(&pre, &globals, &mut names)?.imp)
    })
}

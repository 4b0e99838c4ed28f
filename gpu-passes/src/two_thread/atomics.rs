//! Atomics in the two-thread reduction, with GPUVerify's meaning (Bugle translates every
//! OpenCL/CUDA atomic to one opaque call; GPUVerify logs it as an *atomic* access of the
//! element and gives the call an arbitrary result):
//!
//! - the value returned to the thread is arbitrary: other threads, modelled or not, may have
//!   updated the element any number of times before, so no value can be assumed;
//! - the element's value afterwards is arbitrary too: nothing in the two-thread program reads
//!   it, because an array that is accessed atomically must be *adversarial*
//!   (`super::abstraction`: every read of it is a fresh arbitrary value). An atomic on an array
//!   whose values a specification mentions (or under `--abstraction equality`) would need the
//!   model of that array to forget the element at every atomic of every other thread, which is
//!   not done: it is a located `unsupported` (in `super::abstraction::abstract_reads`);
//! - the access races with a plain read or write of the same element by another thread with
//!   no barrier in between, and never with another atomic (`super::race_instrumentation` keeps
//!   a third log per array for atomics).
//!
//! [`lower_atomics`] runs on the preprocessed kernel body (every block starts with its guard, so
//! the new `assume`s are never taken for one; predication reads them as `assume v_active == B
//! ==> e`) and turns
//! `atomic x := op(A[i], args);` into plain statements the rest of the reduction knows:
//!
//! ```text
//! t := i;                                   // only for an index that reads shared memory
//! assume args == args;                      // only for arguments that read shared memory
//! assume {:atomic_access} A[t] == A[t];     // the atomic access (crate::lockstep::races::accesses)
//! havoc x;                                  // the arbitrary result
//! ```
//!
//! The operation itself does not matter: every operation is over-approximated by "any old
//! value, any new value", which is sound because the result is never assumed to be anything,
//! with one exception, GPUVerify's refined abstraction of counters (Bardsley and Donaldson,
//! NFM 2014): when every atomic on an array `C` in the kernel adds a positive constant
//! (`inc`, `add(C[i], k)` with a literal `0 < k < 2^(w-1)`), two threads that update the same
//! element get different old values, so `atomic x := inc(C[i]);` is followed by
//!
//! ```text
//! assume (__other(__enabled()) && i == __other(i)) ==> x != __other(x);
//! ```
//!
//! Why this is sound: the two modelled threads execute the statement in the same lock-step
//! step, hence in the same barrier interval; their two increments of `C[i]` are serialised, and
//! between them the element can only grow (every atomic on `C` adds a positive constant) unless
//! some thread writes it plainly, which is a race with one of the two atomics that the pair of
//! that thread is reported for. The fact is not used in the inter-group variant for a
//! group-shared counter (each group has its own copy). Like GPUVerify, it assumes that an
//! element is not incremented 2^w times (a bit-vector counter does not wrap around).
//!
//! The same argument gives more: *every* atomic event on a counter element returns a value
//! no other event on that element returns, whichever thread, statement or barrier interval
//! it belongs to (the element only grows, and a plain write to it would be a race with the
//! atomics around it; this fact is only used for arrays that no statement writes plainly at
//! all, so that no barrier-separated reset can repeat a value). The two-thread program keeps the
//! history it needs as a per-thread ghost set, `C$taken[i][v]`: "this thread's atomics on
//! `C[i]` have returned `v`" (the lock-step construction gives each thread its copy). Each
//! atomic on a counter then assumes its value is in neither thread's set before adding it:
//!
//! ```text
//! assume !C$taken[i][x] && !__other(C$taken)[i][x];
//! C$taken[i][x] := true;
//! ```
//!
//! so `x := inc(C[0]); A[x] := …; y := inc(C[0]); A[y] := …` is race-free across the two
//! statements too (GPUVerify's suite, `refined_atomic_abstraction/many_accesses`). The ghost
//! starts arbitrary, which is sound: the empty set, the real one, is among its values, and an
//! assumption only removes paths whose ghost value is not the real history.

use crate::lockstep::{map_depth, map_levels, SharedVar};
use crate::predication::{typed, FreshNames};
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use std::collections::{HashMap, HashSet};

/// The attribute of the `assume` that stands for an atomic access.
pub(crate) const ATOMIC_ACCESS: &str = "atomic_access";

/// The specification built-in `__taken(A, i, v)`: this thread's atomics on `A[i]` have
/// returned `v` (docs/kbpl.md §5.2; GPUVerify's `__atomic_has_taken_value`).
pub(crate) const TAKEN: &str = "__taken";

/// `e == e` (an assumption that only reads `e`).
fn reads_of(e: &Expr) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: Expr::eq(e.clone(), e.clone()) }, e.span)
}

/// Whether an atomic adds a positive constant to its element (`inc`, `add` of a literal below
/// half the range).
fn increments(a: &AtomicStmt) -> bool {
    match (a.op, a.args.first().map(|e| &e.kind)) {
        (AtomicOp::Inc, _) => true,
        (AtomicOp::Add, Some(ExprKind::IntLit(v))) => *v > 0u32.into(),
        (AtomicOp::Add, Some(ExprKind::BvLit { value, width })) => {
            *value > 0u32.into() && *width >= 2 && value.bits() < u64::from(*width)
        }
        _ => false,
    }
}

/// The arrays whose every atomic in `body` is an increment ([`increments`]): their atomics
/// return values that differ per thread (see the module documentation).
pub(crate) fn counters(body: &BlockImpl) -> HashSet<Name> {
    let mut all: HashMap<Name, bool> = HashMap::new();
    for s in body.blocks.iter().flat_map(|b| &b.stmts) {
        if let StmtKind::Atomic(a) = &s.kind {
            *all.entry(a.target.var.name.clone()).or_insert(true) &= increments(a);
        }
    }
    all.into_iter().filter(|(_, inc)| *inc).map(|(n, _)| n).collect()
}

/// The variables some statement of `body` assigns or havocs (atomics aside): a counter among
/// them may be reset between barrier intervals, so values taken at different statements may
/// repeat.
fn plainly_written(body: &BlockImpl) -> HashSet<Name> {
    let mut written = HashSet::new();
    for s in body.blocks.iter().flat_map(|b| &b.stmts) {
        match &s.kind {
            StmtKind::Assign { lhss, .. } => written.extend(lhss.iter().map(|l| l.var.name.clone())),
            StmtKind::Havoc(xs) => written.extend(xs.iter().map(|x| x.name.clone())),
            _ => {}
        }
    }
    written
}

/// `m[i1]…[in]`, one select per index level, each at `span`.
fn element(m: Expr, levels: &[Vec<Expr>], span: Span) -> Expr {
    levels.iter().fold(m, |m, idx| Expr::new(ExprKind::Select(Box::new(m), idx.clone()), span))
}

/// `f(args)`
fn call(f: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr::new(ExprKind::Call(Ident::new(f, span), args), span)
}

/// `assume (__other(__enabled()) && i == __other(i)) ==> x != __other(x);`
fn distinct(x: &Ident, target: &Lhs, span: Span) -> Stmt {
    let other = |e: Expr| call("__other", vec![e], span);
    let same =
        target.indices.iter().flatten().fold(other(call("__enabled", vec![], span)), |acc, i| {
            Expr::and(acc, Expr::eq(i.clone(), other(i.clone())))
        });
    let xv = Expr::new(ExprKind::Var(x.clone()), span);
    let differ = Expr::new(ExprKind::Binary(BinOp::Neq, Box::new(xv.clone()), Box::new(other(xv))), span);
    Stmt::new(StmtKind::Assume { attrs: vec![], expr: Expr::implies(same, differ) }, span)
}

/// `assume !T[i][x] && !__other(T)[i][x]; T[i][x] := true;` for the ghost set `T` of the
/// values taken from a counter (see the module documentation).
fn taken(ghost: &Name, x: &Ident, target: &Lhs, span: Span) -> [Stmt; 2] {
    let xv = Expr::new(ExprKind::Var(x.clone()), span);
    let mut indices = target.indices.clone();
    indices.push(vec![xv]);
    let mine = Expr::var(ghost.clone(), span);
    let theirs = call("__other", vec![mine.clone()], span);
    let fresh = Expr::and(Expr::not(element(mine, &indices, span)), Expr::not(element(theirs, &indices, span)));
    let lhs = Lhs { var: Ident::new(ghost.clone(), span), indices, span };
    [
        Stmt::new(StmtKind::Assume { attrs: vec![], expr: fresh }, span),
        Stmt::new(StmtKind::Assign { lhss: vec![lhs], rhss: vec![Expr::bool(true)] }, span),
    ]
}

/// The type of a ghost set of taken values: the array's index levels, then the element type,
/// to `bool`.
fn taken_type(levels: &[Vec<Type>], elem: &Type) -> Type {
    let set = Type {
        kind: TypeKind::Map { type_params: vec![], args: vec![elem.clone()], result: Box::new(Type::bool()) },
        span: Span::DUMMY,
    };
    levels.iter().rev().fold(set, |r, args| Type {
        kind: TypeKind::Map { type_params: vec![], args: args.clone(), result: Box::new(r) },
        span: Span::DUMMY,
    })
}

/// The ghost sets of taken values of one kernel body: one local per array whose atomics
/// need one (a counter, or an array a `__taken` names), made on first use.
struct Ghosts<'a> {
    shared: &'a HashMap<Name, SharedVar>,
    sets: HashMap<Name, Name>,
    locals: Vec<TypedIdent>,
}

impl Ghosts<'_> {
    /// The ghost set of `array`, `None` when its type is not a map of scalars.
    fn of(&mut self, array: &Name, names: &mut FreshNames) -> Option<Name> {
        if let Some(g) = self.sets.get(array) {
            return Some(g.clone());
        }
        let sv = self.shared.get(array)?;
        let (levels, elem) = map_levels(&sv.ty, map_depth(&sv.ty))?;
        let g = names.fresh(&format!("{array}$taken"));
        self.locals.push(typed(&g, taken_type(&levels, &elem)));
        self.sets.insert(array.clone(), g.clone());
        Some(g)
    }
}

/// The `__taken(A, i, v)` calls in `node`: the array each names (if a variable), and where.
fn taken_calls<T: ivl::visit::Node + ?Sized>(node: &T, out: &mut Vec<(Option<Name>, Span)>) {
    struct Collect<'a>(&'a mut Vec<(Option<Name>, Span)>);
    impl ivl::visit::Visit for Collect<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call(f, args) = &e.kind {
                if f.as_str() == TAKEN {
                    let array = match args.first().map(|a| &a.kind) {
                        Some(ExprKind::Var(a)) => Some(a.name.clone()),
                        _ => None,
                    };
                    self.0.push((array, e.span));
                }
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    node.accept(&mut Collect(out));
}

/// The arrays that `__taken(A, i, v)` names in `body`.
fn taken_arrays(body: &BlockImpl) -> Vec<Name> {
    let mut calls = Vec::new();
    for s in body.blocks.iter().flat_map(|b| &b.stmts) {
        taken_calls(s, &mut calls);
    }
    let mut arrays: Vec<Name> = calls.into_iter().filter_map(|(a, _)| a).collect();
    arrays.sort();
    arrays.dedup();
    arrays
}

/// `__taken` in a kernel's contract is `unsupported`: the ghost sets start arbitrary, so a
/// precondition about them would assume an arbitrary history.
pub(crate) fn no_taken_in_contracts(contracts: &[Contract]) -> Result<(), Vec<ivl::diag::Diagnostic>> {
    let mut calls = Vec::new();
    for c in contracts {
        taken_calls(&c.expr, &mut calls);
    }
    match calls.first() {
        Some(&(_, span)) => Err(vec![ivl::diag::Diagnostic::unsupported(
            "`__taken` in a kernel's contract: it is meaningful only in the body (assertions, loop invariants)",
            span,
        )]),
        None => Ok(()),
    }
}

/// Replaces `__taken(A, i, v)` by `A$taken[i][v]`, this thread's ghost set of `A`.
fn substitute_taken(body: &mut BlockImpl, sets: &HashMap<Name, Name>) {
    struct Sub<'a>(&'a HashMap<Name, Name>);
    impl ivl::visit::VisitMut for Sub<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            ivl::visit::walk_expr_mut(self, e);
            let ExprKind::Call(f, args) = &e.kind else { return };
            let (true, [a, i, v]) = (f.as_str() == TAKEN, args.as_slice()) else { return };
            let Some(g) = (match &a.kind {
                ExprKind::Var(a) => self.0.get(&a.name),
                _ => None,
            }) else {
                return;
            };
            *e = element(Expr::var(g.clone(), a.span), &[vec![i.clone()], vec![v.clone()]], e.span);
        }
    }
    for s in body.blocks.iter_mut().flat_map(|b| &mut b.stmts) {
        ivl::visit::Node::accept_mut(s, &mut Sub(sets));
    }
}

/// See the module documentation. `counters`: the arrays whose atomics return distinct values
/// to the two modelled threads.
pub(crate) fn lower_atomics(
    body: &mut BlockImpl,
    shared: &HashMap<Name, SharedVar>,
    counters: &HashSet<Name>,
    names: &mut FreshNames,
) {
    let reads_shared = |e: &Expr| ivl::visit::free_vars(e).iter().any(|x| shared.contains_key(x));
    let written = plainly_written(body);
    let mut ghosts = Ghosts { shared, sets: HashMap::new(), locals: Vec::new() };
    for a in taken_arrays(body) {
        ghosts.of(&a, names);
    }
    substitute_taken(body, &ghosts.sets);
    let mut new_locals = Vec::new();
    for b in &mut body.blocks {
        if !b.stmts.iter().any(|s| matches!(s.kind, StmtKind::Atomic(_))) {
            continue;
        }
        let mut out = Vec::with_capacity(b.stmts.len() + 4);
        for s in std::mem::take(&mut b.stmts) {
            let StmtKind::Atomic(a) = s.kind else {
                out.push(s);
                continue;
            };
            let sp = s.span;
            let index_tys: Vec<Type> = shared
                .get(&a.target.var.name)
                .and_then(|sv| map_levels(&sv.ty, map_depth(&sv.ty)))
                .map(|(levels, _)| levels.into_iter().flatten().collect())
                .unwrap_or_default();
            let mut target = a.target.clone();
            // (Without the index types the array's log cannot be declared either, and the
            // kernel is `unsupported` there.)
            for (k, ix) in target.indices.iter_mut().flatten().enumerate() {
                if reads_shared(ix) {
                    if let Some(ty) = index_tys.get(k) {
                        let t = names.fresh(&format!("{}$atomic_index", a.target.var.name));
                        new_locals.push(typed(&t, ty.clone()));
                        out.push(crate::predication::assign1(&t, ix.clone(), ix.span));
                        *ix = Expr::var(t, ix.span);
                    }
                }
            }
            out.extend(a.args.iter().filter(|e| reads_shared(e)).map(reads_of));
            let place = element(Expr::new(ExprKind::Var(target.var.clone()), target.var.span), &target.indices, sp);
            let attrs = vec![Attribute { name: Ident::new(ATOMIC_ACCESS, sp), args: vec![], span: sp }];
            out.push(Stmt::new(StmtKind::Assume { attrs, expr: Expr::eq(place.clone(), place) }, sp));
            let Some(x) = a.out else { continue };
            out.push(Stmt::new(StmtKind::Havoc(vec![x.clone()]), sp));
            // (A result that names its own element says nothing about the element afterwards.)
            if target.indices.iter().flatten().any(|i| ivl::visit::mentions(i, &x.name)) {
                continue;
            }
            let counter = counters.contains(&target.var.name);
            if counter {
                out.push(distinct(&x, &target, sp));
            }
            if counter || ghosts.sets.contains_key(&target.var.name) {
                if let Some(g) = ghosts.of(&target.var.name, names) {
                    let [fresh, record] = taken(&g, &x, &target, sp);
                    if counter && !written.contains(&target.var.name) {
                        out.push(fresh);
                    }
                    out.push(record);
                }
            }
        }
        b.stmts = out;
    }
    body.locals.extend(new_locals);
    body.locals.extend(ghosts.locals);
}

//! Barrier invariants, seed 001 §4.4 (docs/kbpl.md §5.3):
//!
//! ```text
//! barrier invariant {:instantiate e1, e2} φ;
//! ```
//!
//! *Check*: when a modelled thread reaches the barrier, φ must hold for it, where a location
//! that neither modelled thread accessed since the last barrier (an *unknown* location) may
//! hold any value — another thread may have written it. *Assume*: after the barrier the shared
//! state is abstract (havocked, see `super::barriers`), and φ is assumed for the thread named
//! by each instantiation expression, evaluated in each modelled thread (`local_id_x` replaced
//! by `e`; without `{:instantiate}`, for the thread itself). φ was checked only by real threads,
//! so an instantiation is assumed only where `e` is the x id of a thread of the modelled
//! thread's own group (`0 <= e < group_size_x`, unsigned for bit-vectors; the other ids, the
//! group's included, are the modelled thread's own). This holds for global-memory barrier
//! invariants too: the thread named is always in the same group, the one the barrier
//! synchronises with.
//!
//! Known locations are tracked exactly, without quantifiers, for the arrays that barrier
//! invariants mention: a ghost map `ACC` (location → accessed since the last barrier) per
//! *view* of the array — one view for a single copy (both threads' accesses count), one per
//! thread for per-thread copies (only the thread's own accesses: its copy does not see the
//! other thread's writes). In the check every read `A[e]` of a view becomes
//! `if ACC[e] then A[e] else U[e]`, with `U` havocked at the barrier (fresh unknown values).
//! `ACC` is emptied at the barrier with a constant empty map (`const $kivl_empty: [T]bool;
//! axiom (forall i: T :: !$kivl_empty[i]);`, one per location type).

use super::exprs::*;
use crate::lockstep::{map_depth, map_levels, KernelCtx, SharedVar};
use ivl::ast::*;
use std::collections::HashMap;

/// One view of an array mentioned by a barrier invariant.
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The array variable the view reads (`A`, or a thread's copy `A$1`).
    pub name: Name,
    pub acc: Name,
    pub unknown: Name,
    /// The modelled threads whose accesses this view records (0, 1).
    pub threads: Vec<usize>,
    pub depth: usize,
    pub index_tys: Vec<Type>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Views {
    /// Per array, its views.
    pub of: HashMap<Name, Vec<View>>,
}

impl Views {
    /// Views of `array` (type `sv.ty`): `copies` are its per-thread copies, if it has them.
    pub fn add(&mut self, kc: &mut KernelCtx, array: &Name, sv: &SharedVar, copies: Option<&[Name]>) {
        let depth = map_depth(&sv.ty);
        let Some((levels, value_ty)) = map_levels(&sv.ty, depth) else { return };
        let index_tys: Vec<Type> = levels.into_iter().flatten().collect();
        let views: Vec<(Name, Vec<usize>)> = match copies {
            Some(c) => c.iter().enumerate().map(|(t, n)| (n.clone(), vec![t])).collect(),
            None => vec![(array.clone(), vec![0, 1])],
        };
        let list = views
            .into_iter()
            .map(|(name, threads)| View {
                acc: kc.fresh_local(&format!("{name}$accessed"), map_type(&index_tys, Type::bool())),
                unknown: kc.fresh_local(&format!("{name}$unknown"), map_type(&index_tys, value_ty.clone())),
                name,
                threads,
                depth,
                index_tys: index_tys.clone(),
            })
            .collect();
        self.of.insert(array.clone(), list);
    }

    pub fn all(&self) -> impl Iterator<Item = &View> {
        self.of.values().flatten()
    }

    /// Records thread `t`'s access of `array` at `loc` when `pc` holds.
    pub fn record(&self, array: &Name, t: usize, pc: &Expr, loc: &[Expr], span: Span) -> Vec<Stmt> {
        let Some(views) = self.of.get(array) else { return vec![] };
        views
            .iter()
            .filter(|v| v.threads.contains(&t) && v.depth > 0)
            .map(|v| {
                let upd =
                    Expr::new(ExprKind::Store(Box::new(var(&v.acc)), loc.to_vec(), Box::new(Expr::bool(true))), span);
                assign_stmt(vec![(lhs(&v.acc, vec![], span), Expr::ite(pc.clone(), upd, var(&v.acc)))], span)
            })
            .collect()
    }

    /// `e` with every read of a view at an unknown location replaced by an arbitrary value.
    pub fn known_only(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        super::abstraction::map_children(&mut e, &mut |c| self.known_only(c));
        let mut base = &e;
        let mut chain: Vec<&Vec<Expr>> = Vec::new();
        while let ExprKind::Select(m, idx) = &base.kind {
            chain.push(idx);
            base = m;
        }
        chain.reverse();
        if let ExprKind::Var(x) = &base.kind {
            if let Some(v) = self.all().find(|v| v.name == x.name && v.depth == chain.len() && v.depth > 0) {
                let loc: Vec<Expr> = chain.into_iter().flatten().cloned().collect();
                let sp = e.span;
                let known = select(var(&v.acc), loc.clone());
                let unknown = select(var(&v.unknown), loc);
                return Expr::new(ExprKind::IfThenElse(Box::new(known), Box::new(e.clone()), Box::new(unknown)), sp);
            }
        }
        e
    }

    /// Fresh unknown values (before the check at a barrier).
    pub fn havoc_unknown(&self, span: Span) -> Option<Stmt> {
        let names: Vec<Name> = self.all().filter(|v| v.depth > 0).map(|v| v.unknown.clone()).collect();
        (!names.is_empty()).then(|| havoc_stmt(&names, span))
    }

    /// `ACC := if cond then {} else ACC` for the views of `array` that thread `t` records.
    pub fn clear(&self, kc: &mut KernelCtx, array: &Name, cond: &dyn Fn(usize) -> Expr, span: Span) -> Vec<Stmt> {
        let Some(views) = self.of.get(array) else { return vec![] };
        let mut out = Vec::new();
        for v in views.iter().filter(|v| v.depth > 0) {
            let empty = empty_map(kc, &v.index_tys);
            let c = v.threads.iter().map(|&t| cond(t)).reduce(Expr::or).expect("a thread");
            out.push(assign_stmt(vec![(lhs(&v.acc, vec![], span), Expr::ite(c, empty, var(&v.acc)))], span));
        }
        out
    }

    /// Candidate loop invariants at a loop header (kept by Houdini when they hold): "the element
    /// at the thread's own `local_id_x` has been accessed since the last barrier", per view of
    /// a one-index array indexed by `local_id_x`'s type. Without them a loop that accesses the
    /// element and then reaches a barrier in its next iteration would check the barrier
    /// invariant against an unknown value (the loop cut havocs `ACC`). A candidate only
    /// strengthens what is known when it is proved inductive, so this is sound.
    pub fn own_candidates(&self, th: &crate::lockstep::Threads, lid: &Name, lid_ty: &Type, sp: Span) -> Vec<Stmt> {
        let mut out = Vec::new();
        for v in self.all().filter(|v| v.depth == 1 && v.index_tys.as_slice() == std::slice::from_ref(lid_ty)) {
            for &t in &v.threads {
                let e = select(var(&v.acc), vec![th.phi(&Expr::var(lid.clone(), sp), t)]);
                let attrs = vec![Attribute { name: Ident::new("candidate", sp), args: vec![], span: sp }];
                out.push(Stmt::new(StmtKind::Assert { attrs, expr: e }, sp));
            }
        }
        out
    }

    /// `ACC := {}` for every view (kernel entry).
    pub fn init(&self, kc: &mut KernelCtx, span: Span) -> Vec<Stmt> {
        let views: Vec<View> = self.all().filter(|v| v.depth > 0).cloned().collect();
        views
            .iter()
            .map(|v| {
                let empty = empty_map(kc, &v.index_tys);
                assign_stmt(vec![(lhs(&v.acc, vec![], span), empty)], span)
            })
            .collect()
    }
}

/// The constant empty map over `index_tys` (declared once per program).
fn empty_map(kc: &mut KernelCtx, index_tys: &[Type]) -> Expr {
    let ty = map_type(index_tys, Type::bool());
    let key = format!("two-thread empty {}", ivl::printer::print_type(&ty));
    if let Some((_, d)) = kc.new_globals.iter().find(|(k, _)| *k == key) {
        if let DeclKind::Const(c) = &d.kind {
            return var(&c.names[0].name);
        }
    }
    let name = kc.names.fresh("$kivl_empty");
    let vars: Vec<TypedIdent> = index_tys
        .iter()
        .enumerate()
        .map(|(i, t)| crate::predication::typed(&Name::from(format!("i{i}")), t.clone()))
        .collect();
    let body = Expr::not(select(var(&name), vars.iter().map(|v| var(&v.name.name)).collect()));
    let q = Quantifier { kind: QuantKind::Forall, type_params: vec![], vars, attrs: vec![], triggers: vec![], body };
    kc.new_globals.push((key, super::config::const_decl(&name, &ty, None)));
    kc.new_globals.push((
        format!("axiom {name}"),
        Decl {
            kind: DeclKind::Axiom(AxiomDecl {
                attrs: vec![],
                expr: Expr::new(ExprKind::Quant(Box::new(q)), Span::DUMMY),
            }),
            span: Span::DUMMY,
        },
    ));
    var(&name)
}

/// The instantiation expressions of a barrier invariant (`{:instantiate e1, e2}`), `None` for
/// the thread itself.
pub(crate) fn instantiations(inv: &BarrierInvariant) -> Vec<Option<Expr>> {
    let list: Vec<Option<Expr>> = inv
        .attrs
        .iter()
        .filter(|a| a.name.as_str() == "instantiate")
        .flat_map(|a| a.args.iter())
        .filter_map(|a| match a {
            AttrArg::Expr(e) => Some(Some(e.clone())),
            AttrArg::String(..) => None,
        })
        .collect();
    if list.is_empty() {
        vec![None]
    } else {
        list
    }
}

/// The thread pairs of a binary barrier invariant (`{:instantiate_pair e1, e2}`, one attribute
/// per pair; GPUVerify's `__barrier_invariant_binary_N`). A malformed attribute (not two
/// expressions) is no pair.
pub(crate) fn pairs(inv: &BarrierInvariant) -> Vec<(Expr, Expr)> {
    inv.attrs
        .iter()
        .filter(|a| a.name.as_str() == "instantiate_pair")
        .filter_map(|a| match a.args.as_slice() {
            [AttrArg::Expr(x), AttrArg::Expr(y)] => Some((x.clone(), y.clone())),
            _ => None,
        })
        .collect()
}

/// Whether a barrier invariant relates two threads: it has `{:instantiate_pair}` attributes.
/// Such an invariant is checked only for two threads of one group (GPUVerify's binary barrier
/// invariants, `BinaryBarrierInvariantDescriptor`: the check is under "same group").
pub(crate) fn is_binary(inv: &BarrierInvariant) -> bool {
    inv.attrs.iter().any(|a| a.name.as_str() == "instantiate_pair")
}

/// φ of a binary invariant instantiated for the pair (`first`, `second`): `local_id_x` outside
/// `__other` becomes `first`, inside `__other(e)` it becomes `second` (and `__other` goes: the
/// pair is named by the two expressions, every other identity stays the modelled thread's own),
/// `__uniform(e)` compares the two instances of `e`. `None` (nothing can be assumed) when φ
/// mentions what cannot be instantiated: an access-log built-in, `__enabled()` or `old`.
pub(crate) fn instantiate_pair(e: &Expr, lid: &Name, first: &Expr, second: &Expr) -> Option<Expr> {
    let sp = e.span;
    match &e.kind {
        ExprKind::Var(x) if x.name == *lid => {
            let mut v = first.clone();
            v.span = sp;
            Some(v)
        }
        ExprKind::Old(_) => None,
        ExprKind::Call(f, args) if f.as_str() == "__other" && args.len() == 1 => {
            instantiate_pair(&args[0], lid, second, first)
        }
        ExprKind::Call(f, args) if f.as_str() == "__uniform" && args.len() == 1 => {
            let a = instantiate_pair(&args[0], lid, first, second)?;
            let b = instantiate_pair(&args[0], lid, second, first)?;
            Some(Expr::new(ExprKind::Binary(BinOp::Eq, Box::new(a), Box::new(b)), sp))
        }
        ExprKind::Call(f, _) if super::spec_builtins::is_builtin(f.as_str()) => None,
        _ => {
            let mut out = e.clone();
            let mut ok = true;
            super::abstraction::map_children(&mut out, &mut |c| {
                instantiate_pair(c, lid, first, second).unwrap_or_else(|| {
                    ok = false;
                    c.clone()
                })
            });
            ok.then_some(out)
        }
    }
}

/// Whether φ speaks of the other thread of the pair (`__other`, `__uniform`).
pub(crate) fn mentions_other_thread(e: &Expr) -> bool {
    struct Find(bool);
    impl ivl::visit::Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(&e.kind, ExprKind::Call(f, _) if matches!(f.as_str(), "__other" | "__uniform")) {
                self.0 = true;
            }
            ivl::visit::walk_expr(self, e)
        }
    }
    let mut f = Find(false);
    ivl::visit::Visit::visit_expr(&mut f, e);
    f.0
}

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

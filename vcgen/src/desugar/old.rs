//! Elimination of `old(e)`: substitution that treats variables inside `old` differently.
//!
//! `old(e)` denotes `e` evaluated in the pre-state of the enclosing procedure. Desugaring gives
//! every pre-state a name — the snapshot locals `old$g := g` at the entry of a verified
//! implementation, `call$N$old$g := g` before a call, `inline$P$N$old$g := g` at the entry of an
//! inlined body — and then rewrites `old(e)` to `e` with each global replaced by its snapshot
//! (Boogie's `Substituter.ApplyReplacingOldExprs`): inside `old`, a variable in the `old_map`
//! is replaced by its snapshot and any other by its `map` entry (formals: their actuals, which
//! cannot change); outside `old`, only `map` applies. Locals and formals inside `old` are their
//! current values, as in Boogie.
//!
//! Implementation: occurrences inside `old` are first renamed to placeholders (names containing
//! `@`, which no source identifier can), respecting binders, then one capture-avoiding
//! simultaneous [`ivl::visit::substitute_in_place`] replaces placeholders and ordinary names.

use ivl::ast::*;
use ivl::visit::{free_vars, rename_vars, substitute_in_place, Node, Visit, VisitMut};
use std::collections::{HashMap, HashSet};

const MARK: &str = "@old@";

/// Replaces `old(..)` in `node` and substitutes: see the module documentation.
pub fn subst_with_old<T: Node + ?Sized>(node: &mut T, map: &HashMap<Name, Expr>, old_map: &HashMap<Name, Expr>) {
    let mut marker = Marker { bound: Vec::new(), marked: HashSet::new() };
    node.accept_mut(&mut marker);
    if marker.marked.is_empty() {
        substitute_in_place(node, map);
        return;
    }
    let mut full = map.clone();
    for v in marker.marked {
        let replacement =
            old_map.get(&v).or_else(|| map.get(&v)).cloned().unwrap_or_else(|| Expr::var(v.clone(), Span::DUMMY));
        full.insert(Name::from(format!("{MARK}{v}")), replacement);
    }
    substitute_in_place(node, &full);
}

/// [`subst_with_old`] on a clone of an expression.
pub fn subst_expr(e: &Expr, map: &HashMap<Name, Expr>, old_map: &HashMap<Name, Expr>) -> Expr {
    let mut e = e.clone();
    subst_with_old(&mut e, map, old_map);
    e
}

/// Removes `old` wrappers, renaming the free variables inside them to placeholders.
struct Marker {
    bound: Vec<Name>,
    marked: HashSet<Name>,
}

impl VisitMut for Marker {
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Old(inner) = &mut e.kind {
            let mut inner = std::mem::replace(&mut **inner, Expr::bool(true));
            strip_old(&mut inner);
            let renaming: HashMap<Name, Name> = free_vars(&inner)
                .into_iter()
                .filter(|v| !self.bound.contains(v))
                .map(|v| {
                    self.marked.insert(v.clone());
                    let p = Name::from(format!("{MARK}{v}"));
                    (v, p)
                })
                .collect();
            rename_vars(&mut inner, &renaming);
            *e = inner;
            return;
        }
        ivl::visit::walk_expr_mut(self, e)
    }
    fn visit_quantifier(&mut self, q: &mut Quantifier) {
        let depth = self.bound.len();
        self.bound.extend(q.vars.iter().map(|v| v.name.name.clone()));
        ivl::visit::walk_quantifier_mut(self, q);
        self.bound.truncate(depth);
    }
}

/// `old(old(e))` is `old(e)`: removes nested wrappers.
fn strip_old(e: &mut Expr) {
    struct Strip;
    impl VisitMut for Strip {
        fn visit_expr(&mut self, e: &mut Expr) {
            while let ExprKind::Old(inner) = &mut e.kind {
                let inner = std::mem::replace(&mut **inner, Expr::bool(true));
                *e = inner;
            }
            ivl::visit::walk_expr_mut(self, e)
        }
    }
    e.accept_mut(&mut Strip);
}

/// The variables occurring free inside some `old(..)` of a node, in order of first occurrence.
pub fn old_vars<T: Node + ?Sized>(node: &T) -> Vec<Name> {
    struct OldVars {
        bound: Vec<Name>,
        seen: HashSet<Name>,
        out: Vec<Name>,
    }
    impl Visit for OldVars {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Old(inner) = &e.kind {
                for v in free_vars(&**inner) {
                    if !self.bound.contains(&v) && self.seen.insert(v.clone()) {
                        self.out.push(v);
                    }
                }
                return;
            }
            ivl::visit::walk_expr(self, e)
        }
        fn visit_quantifier(&mut self, q: &Quantifier) {
            let depth = self.bound.len();
            self.bound.extend(q.vars.iter().map(|v| v.name.name.clone()));
            ivl::visit::walk_quantifier(self, q);
            self.bound.truncate(depth);
        }
    }
    let mut v = OldVars { bound: Vec::new(), seen: HashSet::new(), out: Vec::new() };
    node.accept(&mut v);
    v.out
}

/// Whether a node contains an `old(..)` expression.
pub fn contains_old<T: Node + ?Sized>(node: &T) -> bool {
    struct HasOld(bool);
    impl Visit for HasOld {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.kind, ExprKind::Old(_)) {
                self.0 = true;
            } else if !self.0 {
                ivl::visit::walk_expr(self, e)
            }
        }
    }
    let mut v = HasOld(false);
    node.accept(&mut v);
    v.0
}

//! Syntactic pieces of monomorphisation: substituting ground types for type variables in a
//! declaration, finding type quantifiers, and naming instances.
//!
//! Monomorphisation works on the syntax tree (`vcgen::mono`): an instance of a polymorphic
//! declaration is its text with the type parameters replaced by written ground types, so that
//! the ordinary checker, desugaring and Z3 encoding take it as any other declaration.

use ivl::ast::*;
use ivl::check::Ty;
use ivl::visit::{walk_expr, walk_type_mut, Node, Visit, VisitMut};
use std::collections::HashMap;

/// Replaces every use of a type variable in `subst` (a written type `a` without arguments) by
/// its ground type, everywhere inside `node`.
pub fn substitute_types<T: Node + ?Sized>(node: &mut T, subst: &HashMap<Name, Type>) {
    struct Sub<'a>(&'a HashMap<Name, Type>);
    impl VisitMut for Sub<'_> {
        fn visit_type(&mut self, t: &mut Type) {
            if let TypeKind::Named(id, args) = &t.kind {
                if args.is_empty() {
                    if let Some(g) = self.0.get(&id.name) {
                        let span = t.span;
                        *t = g.clone();
                        t.span = span;
                        return;
                    }
                }
            }
            walk_type_mut(self, t)
        }
    }
    if !subst.is_empty() {
        node.accept_mut(&mut Sub(subst));
    }
}

/// The substitution of `tys` for the type parameters `params`.
pub fn substitution(params: &[Ident], tys: &[Ty]) -> HashMap<Name, Type> {
    params.iter().zip(tys).map(|(p, t)| (p.name.clone(), t.to_type())).collect()
}

/// The spans of the type parameter lists of the quantifiers inside `node` (a type quantifier).
pub fn type_quantifiers<T: Node + ?Sized>(node: &T) -> Vec<Span> {
    struct Find(Vec<Span>);
    impl Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Quant(q) = &e.kind {
                if let (Some(a), Some(b)) = (q.type_params.first(), q.type_params.last()) {
                    self.0.push(a.span.to(b.span));
                }
            }
            walk_expr(self, e)
        }
    }
    let mut f = Find(Vec::new());
    node.accept(&mut f);
    f.0
}

/// An axiom `forall<a, ...> xs :: body` split into its type parameters and the axiom over one
/// instance (the quantifier without type parameters; its body when it binds no variables).
pub fn split_type_quantifier(e: &Expr) -> Option<(Vec<Ident>, Expr)> {
    let ExprKind::Quant(q) = &e.kind else { return None };
    if q.kind != QuantKind::Forall || q.type_params.is_empty() {
        return None;
    }
    Some((q.type_params.clone(), without_type_params(q, e.span)))
}

/// The quantifier `q` (at `span`) without its type parameters; its body when it binds no
/// variables.
pub fn without_type_params(q: &Quantifier, span: Span) -> Expr {
    if q.vars.is_empty() {
        q.body.clone()
    } else {
        let mut inner = q.clone();
        inner.type_params.clear();
        Expr::new(ExprKind::Quant(Box::new(inner)), span)
    }
}

/// A name for the instance of `base` at `tys`, `base$T1$T2` with the types' letters and digits,
/// not in `taken` (a counter is added on a clash).
pub fn instance_name(base: &str, tys: &[Ty], taken: &dyn Fn(&str) -> bool) -> Name {
    let mut name = String::from(base);
    for t in tys {
        name.push('$');
        let text = t.to_string();
        let mut last_sep = true;
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                name.push(c);
                last_sep = false;
            } else if !last_sep {
                name.push('_');
                last_sep = true;
            }
        }
        while name.ends_with('_') {
            name.pop();
        }
    }
    let mut candidate = name.clone();
    let mut k = 1;
    while taken(&candidate) {
        candidate = format!("{name}${k}");
        k += 1;
    }
    Name::from(candidate.as_str())
}

/// What the type checker recorded at each occurrence of a span, in the order it met them.
///
/// One span may occur several times in a declaration: a type quantifier eliminated into the
/// conjunction of its instances ([`super::type_quant`]) repeats its body, each copy at other
/// types. The checker and the rewriting visitors meet the copies in the same order (left to
/// right), so the k-th lookup of a span gets the k-th record (the last one again after that).
pub struct Occurrences<K, V> {
    records: HashMap<K, (Vec<V>, usize)>,
}

impl<K: std::hash::Hash + Eq, V> Default for Occurrences<K, V> {
    fn default() -> Self {
        Occurrences { records: HashMap::new() }
    }
}

impl<K: std::hash::Hash + Eq, V> Occurrences<K, V> {
    pub fn push(&mut self, key: K, v: V) {
        self.records.entry(key).or_insert_with(|| (Vec::new(), 0)).0.push(v);
    }

    /// The record of the next occurrence of `key`.
    pub fn next(&mut self, key: &K) -> Option<&V> {
        let (vs, k) = self.records.get_mut(key)?;
        let at = (*k).min(vs.len().checked_sub(1)?);
        *k += 1;
        vs.get(at)
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

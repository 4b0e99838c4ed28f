//! `{:inline}` functions whose body holds a type quantifier, expanded where they are applied
//! before monomorphisation (Boogie's `test/monomorphize/issue-1024.bpl`: `function {:inline}
//! closed_under_domains(frame: Frame): bool { (exists<V> o: Ref, f: Field V :: frame[o, f]) }`
//! used in a `free requires`).
//!
//! Boogie reads an `{:inline}` function as a macro: each application is its body with the
//! arguments for the parameters. kivl's SMT encoder expands them the same way, but only after
//! type quantifiers are gone ([`super::type_quant`]), and a type quantifier in a function body
//! is one it cannot place: the body is assumed and proved alike. Expanded first, the quantifier
//! stands where the application stood, whose role (assumed or proved) is known.
//!
//! Only monomorphic functions, and not in triggers (an expanded trigger would be no pattern):
//! a function applied in a trigger keeps its body, and a type quantifier there stays the
//! `unsupported` it was. Expansion goes at most [`MAX_DEPTH`] levels deep (such functions may
//! apply each other); beyond that the applications stay, with the same outcome.

use super::subst::type_quantifiers;
use ivl::ast::*;
use ivl::visit::{substitute, walk_expr_mut, walk_quantifier_mut, Node, VisitMut};
use std::collections::HashMap;

/// Expansion levels at most.
const MAX_DEPTH: usize = 16;

/// The `{:inline}` functions of `decls` to expand: monomorphic, with a body that holds a type
/// quantifier. Their parameters and bodies.
fn candidates(decls: &[Decl]) -> HashMap<Name, (Vec<Name>, Expr)> {
    let mut out = HashMap::new();
    for d in decls {
        let DeclKind::Function(f) = &d.kind else { continue };
        let Some(body) = &f.body else { continue };
        // The same test as the encoder's, which expands the other `{:inline}` functions.
        if !crate::smt::is_inline(&f.attrs) || !f.type_params.is_empty() || type_quantifiers(body).is_empty() {
            continue;
        }
        let Some(params) = f.params.iter().map(|p| p.name.as_ref().map(|n| n.name.clone())).collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        out.insert(f.name.name.clone(), (params, body.clone()));
    }
    out
}

/// `decls` with the applications of those functions expanded (outside triggers), when there
/// are any; `None` otherwise.
pub fn expand(decls: &[Decl]) -> Option<Vec<Decl>> {
    let fns = candidates(decls);
    if fns.is_empty() {
        return None;
    }
    let mut out = decls.to_vec();
    for d in &mut out {
        // The functions' own bodies are left alone: once no application is left, nothing
        // reads them.
        if matches!(&d.kind, DeclKind::Function(f) if fns.contains_key(&f.name.name)) {
            continue;
        }
        let mut x = Expand { fns: &fns, depth: 0, in_trigger: false };
        d.accept_mut(&mut x);
    }
    // A body no application reads any more goes, so that its type quantifier is no longer
    // seen; one still applied somewhere (a trigger) stays.
    let mut still = Still { fns: &fns, found: std::collections::HashSet::new() };
    for d in &out {
        if !matches!(&d.kind, DeclKind::Function(f) if fns.contains_key(&f.name.name)) {
            d.accept(&mut still);
        }
    }
    let found = still.found;
    for d in &mut out {
        if let DeclKind::Function(f) = &mut d.kind {
            if fns.contains_key(&f.name.name) && !found.contains(&f.name.name) {
                f.body = None;
            }
        }
    }
    Some(out)
}

struct Expand<'a> {
    fns: &'a HashMap<Name, (Vec<Name>, Expr)>,
    depth: usize,
    in_trigger: bool,
}

impl VisitMut for Expand<'_> {
    fn visit_quantifier(&mut self, q: &mut Quantifier) {
        // The triggers are visited with `in_trigger` set, the body without.
        let saved = self.in_trigger;
        let mut triggers = std::mem::take(&mut q.triggers);
        self.in_trigger = true;
        for t in &mut triggers {
            self.visit_trigger(t);
        }
        self.in_trigger = saved;
        walk_quantifier_mut(self, q);
        q.triggers = triggers;
    }

    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        if self.in_trigger || self.depth >= MAX_DEPTH {
            return;
        }
        let ExprKind::Call(f, args) = &e.kind else { return };
        let Some((params, body)) = self.fns.get(&f.name) else { return };
        if params.len() != args.len() {
            return;
        }
        let map: HashMap<Name, Expr> = params.iter().cloned().zip(args.iter().cloned()).collect();
        let mut inner = substitute(body, &map);
        self.depth += 1;
        self.visit_expr(&mut inner);
        self.depth -= 1;
        *e = inner;
    }
}

/// Which of the functions are still applied.
struct Still<'a> {
    fns: &'a HashMap<Name, (Vec<Name>, Expr)>,
    found: std::collections::HashSet<Name>,
}

impl ivl::visit::Visit for Still<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::Call(f, _) = &e.kind {
            if self.fns.contains_key(&f.name) {
                self.found.insert(f.name.clone());
            }
        }
        ivl::visit::walk_expr(self, e)
    }
}

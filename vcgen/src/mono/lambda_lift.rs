//! Lambdas with type parameters that are values (`k := (lambda<A> x: A :: x)`, Dafny's
//! `$_Frame := (lambda<alpha> $o: ref, $f: Field alpha :: ...)`), lifted to polymorphic
//! functions with a defining axiom, as Boogie's own lambda lifting does (Boogie 2.4.1,
//! `LambdaHelper`; Leino, "This is Boogie 2", §4.2):
//!
//! ```text
//! (lambda<a> xs: Ts :: body)   becomes   ($lambda$k(cs): M)
//! function $lambda$k<vs>(cs: Cs): M;
//! axiom (forall<vs, a> cs: Cs, xs: Ts :: {$lambda$k(cs)[xs]} $lambda$k(cs)[xs] == body);
//! ```
//!
//! where `cs` are the lambda's free variables other than constants (locals, parameters, global
//! variables, enclosing bound variables), `vs` the type variables in scope that their types or
//! the lambda's type `M` mention, and the coercion fixes the instantiation of `vs` at the use.
//! Monomorphisation then instantiates the function at its uses and the axiom at the program's
//! ground types: assumed at fewer types than Boogie's "all", it constrains the lifted map less,
//! which may cost a proof (an equality of two lambdas is not proved, as in Boogie) but never
//! makes a wrong one; the axiom is a definition (the lambda itself is a model of it).
//!
//! Not lifted (left to monomorphisation's `unsupported`): a lambda whose body mentions `old`
//! (the axiom has no pre-state to read it in).

use ivl::ast::*;
use ivl::check::{build_env, check_decl_instances, InstanceKind, Ty};
use ivl::diag::Diagnostic;
use ivl::visit::{walk_expr, walk_expr_mut, Node, Visit, VisitMut};
use std::collections::HashSet;

use super::lambda_beta::has_old;

/// At most this many lambdas are lifted (each round lifts one per declaration).
const MAX_ROUNDS: usize = 256;

/// Lifts the lambdas with type parameters of `decls`, outermost first; the new functions and
/// axioms are appended.
pub fn lift_poly_lambdas(decls: &mut Vec<Decl>) -> Result<(), Vec<Diagnostic>> {
    let mut taken: HashSet<Name> = decls.iter().flat_map(ivl::resolve::decl_names).cloned().collect();
    for _ in 0..MAX_ROUNDS {
        let todo: Vec<(usize, Span)> =
            decls.iter().enumerate().filter_map(|(k, d)| first_poly_lambda(d).map(|s| (k, s))).collect();
        if todo.is_empty() {
            return Ok(());
        }
        let (env, diags) = build_env(decls);
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut new = Vec::new();
        for (k, span) in todo {
            let (diags, uses) = check_decl_instances(&env, &decls[k]);
            if !diags.is_empty() {
                return Err(diags);
            }
            let Some(u) = uses.iter().find(|u| u.span == span && matches!(u.kind, InstanceKind::PolyLambda { .. }))
            else {
                return Err(vec![Diagnostic::unsupported("internal error: a lambda's captures were not found", span)]);
            };
            let InstanceKind::PolyLambda { captures, tvars } = &u.kind else { unreachable!() };
            let name = fresh(&mut taken);
            let lifted = Lifted { name: &name, captures, tys: &u.tys, tvars };
            let Some(q) = replace_at(&mut decls[k], span, &lifted) else { continue };
            new.extend(lifted.declarations(&q, span));
        }
        decls.extend(new);
    }
    match decls.iter().find_map(first_poly_lambda) {
        Some(span) => {
            Err(vec![Diagnostic::unsupported(format!("more than {MAX_ROUNDS} lambdas with type parameters"), span)])
        }
        None => Ok(()),
    }
}

/// Whether some declaration has a lambda with type parameters that can be lifted.
pub fn has_poly_lambda(decls: &[Decl]) -> bool {
    decls.iter().any(|d| first_poly_lambda(d).is_some())
}

fn fresh(taken: &mut HashSet<Name>) -> Name {
    let mut k = 0;
    loop {
        let n = Name::from(format!("$lambda${k}"));
        if taken.insert(n.clone()) {
            return n;
        }
        k += 1;
    }
}

fn liftable(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Quant(q) if q.kind == QuantKind::Lambda && !q.type_params.is_empty() && !has_old(&q.body))
}

/// The span of the first (outermost, leftmost) liftable lambda in `d`.
fn first_poly_lambda(d: &Decl) -> Option<Span> {
    struct Find(Option<Span>);
    impl Visit for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if self.0.is_none() {
                if liftable(e) {
                    self.0 = Some(e.span);
                } else {
                    walk_expr(self, e)
                }
            }
        }
    }
    let mut f = Find(None);
    d.accept(&mut f);
    f.0
}

/// One lifted lambda: the function's name, the captured variables, the lambda's type then the
/// captures' types, and the type variables in scope.
struct Lifted<'a> {
    name: &'a Name,
    captures: &'a [Name],
    tys: &'a [Ty],
    tvars: &'a [Name],
}

impl Lifted<'_> {
    /// `$lambda$k(cs): M`.
    fn application(&self, span: Span) -> Expr {
        let args = self.captures.iter().map(|c| Expr::var(c.clone(), span)).collect();
        let call = Expr::new(ExprKind::Call(Ident::new(self.name.clone(), span), args), span);
        Expr::new(ExprKind::Coerce(Box::new(call), Box::new(self.tys[0].to_type())), span)
    }

    /// The type variables in scope that the function's signature mentions.
    fn type_params(&self) -> Vec<Ident> {
        let mut used = HashSet::new();
        self.tys.iter().for_each(|t| ctor_names(t, &mut used));
        self.tvars.iter().filter(|v| used.contains(*v)).map(|v| Ident::new(v.clone(), Span::DUMMY)).collect()
    }

    /// The function and its defining axiom, for the lambda `q`.
    fn declarations(&self, q: &Quantifier, span: Span) -> [Decl; 2] {
        let tps = self.type_params();
        let params = self
            .captures
            .iter()
            .zip(&self.tys[1..])
            .map(|(c, t)| FnParam { name: Some(Ident::new(c.clone(), Span::DUMMY)), ty: t.to_type() })
            .collect();
        let f = FunctionDecl {
            attrs: Vec::new(),
            name: Ident::new(self.name.clone(), Span::DUMMY),
            type_params: tps.clone(),
            params,
            result: FnParam { name: None, ty: self.tys[0].to_type() },
            body: None,
        };
        let app = Expr::new(
            ExprKind::Call(
                Ident::new(self.name.clone(), span),
                self.captures.iter().map(|c| Expr::var(c.clone(), span)).collect(),
            ),
            span,
        );
        let vars: Vec<Expr> = q.vars.iter().map(|v| Expr::var(v.name.name.clone(), span)).collect();
        let sel = Expr::new(ExprKind::Select(Box::new(app), vars), span);
        let mut bound: Vec<TypedIdent> = self
            .captures
            .iter()
            .zip(&self.tys[1..])
            .map(|(c, t)| TypedIdent {
                name: Ident::new(c.clone(), Span::DUMMY),
                ty: t.to_type(),
                where_clause: None,
                attrs: Vec::new(),
            })
            .collect();
        bound.extend(q.vars.iter().map(|v| TypedIdent { where_clause: None, ..v.clone() }));
        let axiom = Quantifier {
            kind: QuantKind::Forall,
            type_params: tps.into_iter().chain(q.type_params.iter().cloned()).collect(),
            vars: bound,
            attrs: Vec::new(),
            triggers: vec![Trigger { exprs: vec![sel.clone()], span }],
            body: Expr::eq(sel, q.body.clone()),
        };
        let expr = Expr::new(ExprKind::Quant(Box::new(axiom)), span);
        [
            Decl { kind: DeclKind::Function(f), span: Span::DUMMY },
            Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: Vec::new(), expr }), span },
        ]
    }
}

/// The names of the type constructors without arguments in `t` (type variables among them).
fn ctor_names(t: &Ty, out: &mut HashSet<Name>) {
    match t {
        Ty::Ctor(n, xs) => {
            if xs.is_empty() {
                out.insert(n.clone());
            }
            xs.iter().for_each(|x| ctor_names(x, out));
        }
        Ty::Map(m) => {
            ctor_names(&m.result, out);
            m.args.iter().for_each(|x| ctor_names(x, out));
        }
        _ => {}
    }
}

/// Replaces the liftable lambda at `span` in `d` by the application of the lifted function;
/// the lambda.
fn replace_at(d: &mut Decl, span: Span, lifted: &Lifted) -> Option<Quantifier> {
    struct Replace<'a, 'b>(Span, &'a Lifted<'b>, Option<Quantifier>);
    impl VisitMut for Replace<'_, '_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if self.2.is_some() {
                return;
            }
            if e.span == self.0 && liftable(e) {
                let app = self.1.application(e.span);
                if let ExprKind::Quant(q) = std::mem::replace(e, app).kind {
                    self.2 = Some(*q);
                }
                return;
            }
            walk_expr_mut(self, e)
        }
    }
    let mut r = Replace(span, lifted, None);
    d.accept_mut(&mut r);
    r.2
}

//! Type checking of binders: quantifiers and lambdas, their bound variables, type parameters
//! and triggers, and the recording of polymorphic lambdas for `vcgen::mono`.
//!
//! Separate because binders change the scope (bound variables, type variables) and carry
//! Boogie's rules for triggers and for type parameters that the bound variables must mention.

use super::*;

impl Checker<'_> {
    pub(super) fn quant(&mut self, e: &Expr, q: &Quantifier) -> Ty {
        if self.ctx.trigger {
            self.trigger_error(e.span, "quantifiers");
        }
        let pushed_tvars = q.type_params.len();
        self.tvars.extend(q.type_params.iter().cloned());
        let mark = self.bound.len();
        let tys = self.var_types(q.vars.iter().map(|v| &v.ty));
        for (v, ty) in q.vars.iter().zip(tys) {
            let clash = self.bound.iter().any(|(n, _)| *n == v.name.name)
                || match self.external {
                    Some(ext) => ext(&v.name.name).is_some(),
                    None => self.scope.contains_key(&v.name.name),
                };
            if clash {
                self.type_error(
                    format!("bound variable `{}` redeclares a variable in scope", v.name.name),
                    v.name.span,
                    "Boogie forbids bound variables that shadow parameters, locals or other bound variables",
                );
            }
            if let Some(w) = &v.where_clause {
                self.type_error("`where` clauses are not allowed on bound variables", w.span, "remove this clause");
            }
            self.bound.push((v.name.name.clone(), ty));
        }
        let saved = self.ctx;
        self.ctx.trigger = false;
        self.attrs(&q.attrs);
        if q.kind == QuantKind::Lambda {
            if let Some(t) = q.triggers.first() {
                self.type_error("triggers are not allowed in lambda expressions", t.span, "remove this trigger");
            }
        }
        for t in &q.triggers {
            self.ctx.trigger = true;
            for te in &t.exprs {
                if let ExprKind::Var(id) = &te.kind {
                    self.type_error(
                        format!("a trigger must be more than a variable by itself: `{}`", id.name),
                        te.span,
                        "use a function application or a map selection",
                    );
                }
                self.expr(te);
            }
            self.ctx.trigger = false;
            let bound_here = &self.bound[mark..];
            let mut seen = vec![false; bound_here.len()];
            for te in &t.exprs {
                mentions(te, bound_here, &mut seen);
            }
            if let Some(i) = seen.iter().position(|s| !s) {
                let name = self.bound[mark + i].0.clone();
                self.type_error(
                    format!("trigger does not mention the bound variable `{name}`"),
                    t.span,
                    "a trigger must mention every quantified variable",
                );
            }
        }
        self.ctx.trigger = false;
        let bt = self.expr(&q.body);
        self.ctx = saved;
        let result = match q.kind {
            QuantKind::Forall | QuantKind::Exists => {
                if !bt.compatible(&Ty::Bool) {
                    self.type_error(
                        format!("the body of a quantifier must be `bool`, found `{bt}`"),
                        q.body.span,
                        format!("this has type `{bt}`"),
                    );
                }
                Ty::Bool
            }
            // `lambda<a> x: Field a :: e` is a value of the polymorphic map type `<a>[Field a]T`.
            QuantKind::Lambda => {
                let tps = &q.type_params;
                let args = self.bound[mark..].iter().map(|(_, t)| bind_tvars(t, tps)).collect();
                Ty::poly_map(tps.len() as u32, args, bind_tvars(&bt, tps))
            }
        };
        if q.kind == QuantKind::Lambda && pushed_tvars > 0 {
            self.bound.truncate(mark);
            self.record_poly_lambda(e, &result, pushed_tvars);
        }
        self.bound.truncate(mark);
        let n = self.tvars.len();
        self.tvars.truncate(n - pushed_tvars);
        result
    }

    /// Records a lambda with type parameters ([`InstanceKind::PolyLambda`]) of type `t`, with
    /// its own `own_tvars` type parameters last in scope.
    fn record_poly_lambda(&mut self, e: &Expr, t: &Ty, own_tvars: usize) {
        let mut tys = vec![t.clone()];
        let mut captures = Vec::new();
        for x in crate::visit::free_vars(e) {
            let ty = match self.lookup(&x) {
                Some(VarRef::Bound(t) | VarRef::Local(t, _)) => t,
                Some(VarRef::Global(g)) if !g.is_const() => g.ty.clone(),
                Some(VarRef::Global(_)) => continue,
                None => return,
            };
            captures.push(x);
            tys.push(ty);
        }
        let outer = self.tvars.len() - own_tvars;
        let tvars = self.tvars[..outer].iter().map(|v| v.name.clone()).collect();
        let kind = InstanceKind::PolyLambda { captures, tvars };
        self.instances.push(Instance { span: e.span, name: Name::default(), tys, kind });
    }
}

/// `t` with the type variables `tps` (opaque types of their names in a body) as the
/// [`Ty::Bound`] parameters of a polymorphic map type.
fn bind_tvars(t: &Ty, tps: &[Ident]) -> Ty {
    match t {
        Ty::Ctor(n, xs) if xs.is_empty() => match tps.iter().rposition(|v| v.name == *n) {
            Some(i) => Ty::Bound(i as u32),
            None => t.clone(),
        },
        Ty::Ctor(n, xs) => Ty::Ctor(n.clone(), xs.iter().map(|x| bind_tvars(x, tps)).collect()),
        Ty::Map(m) if m.tparams == 0 => {
            Ty::map(m.args.iter().map(|x| bind_tvars(x, tps)).collect(), bind_tvars(&m.result, tps))
        }
        _ => t.clone(),
    }
}

/// Marks which of `bound` occur free in `e`.
fn mentions(e: &Expr, bound: &[(Name, Ty)], seen: &mut [bool]) {
    match &e.kind {
        ExprKind::Var(id) => {
            if let Some(i) = bound.iter().position(|(n, _)| *n == id.name) {
                seen[i] = true;
            }
        }
        ExprKind::BoolLit(_) | ExprKind::IntLit(_) | ExprKind::RealLit(_) | ExprKind::BvLit { .. } => {}
        ExprKind::Old(a) | ExprKind::Unary(_, a) | ExprKind::Extract(a, _, _) | ExprKind::Coerce(a, _) => {
            mentions(a, bound, seen)
        }
        ExprKind::Binary(_, a, b) => {
            mentions(a, bound, seen);
            mentions(b, bound, seen);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|a| mentions(a, bound, seen)),
        ExprKind::Select(m, idx) => {
            mentions(m, bound, seen);
            idx.iter().for_each(|a| mentions(a, bound, seen));
        }
        ExprKind::Store(m, idx, v) => {
            mentions(m, bound, seen);
            idx.iter().for_each(|a| mentions(a, bound, seen));
            mentions(v, bound, seen);
        }
        ExprKind::IfThenElse(c, a, b) => {
            mentions(c, bound, seen);
            mentions(a, bound, seen);
            mentions(b, bound, seen);
        }
        ExprKind::Quant(q) => mentions(&q.body, bound, seen),
        ExprKind::Let(l) => {
            l.values.iter().for_each(|a| mentions(a, bound, seen));
            mentions(&l.body, bound, seen)
        }
        ExprKind::Code(_) => {
            for n in crate::visit::free_vars(e) {
                if let Some(i) = bound.iter().position(|(b, _)| *b == n) {
                    seen[i] = true;
                }
            }
        }
    }
}

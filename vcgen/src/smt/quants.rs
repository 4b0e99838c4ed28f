//! Quantifiers and lambdas: bound variables, triggers (`{:nopats}`, and which patterns Z3
//! accepts) and the lifting of a `lambda` to a fresh function defined by a triggered axiom.
//!
//! Separate because binders are where the encoding meets Z3's matching: patterns, and the
//! side axioms handed to the caller with the expression.

use super::*;

impl Encoder<'_> {
    pub(super) fn quantifier(&mut self, q: &Quantifier, scope: &mut Scope, span: Span) -> Result<Dynamic, Diagnostic> {
        if !q.type_params.is_empty() {
            return Err(Diagnostic::unsupported("polymorphic quantifiers are not supported", span));
        }
        let mark = scope.bound.len();
        let mut bounds = Vec::new();
        for v in &q.vars {
            let s = match self.sort_of(&v.ty) {
                Ok(s) => s,
                Err(e) => {
                    scope.bound.truncate(mark);
                    return Err(e);
                }
            };
            let c = Dynamic::fresh_const(v.name.name.as_str(), &s);
            scope.bound.push((v.name.name.clone(), c.clone()));
            bounds.push(c);
        }
        let qmark = self.qbound.len();
        self.qbound.extend(bounds.iter().cloned());
        let result = self.quantifier_body(q, scope, &bounds, span);
        self.qbound.truncate(qmark);
        scope.bound.truncate(mark);
        result
    }

    fn quantifier_body(
        &mut self,
        q: &Quantifier,
        scope: &mut Scope,
        bounds: &[Dynamic],
        span: Span,
    ) -> Result<Dynamic, Diagnostic> {
        let body = self.expr(&q.body, scope)?;
        if q.kind == QuantKind::Lambda {
            return Ok(self.lift_lambda(bounds, &body));
        }
        let body = as_bool(&body, q.body.span)?;
        let mut patterns = Vec::new();
        let mut groups = Vec::new();
        for t in &q.triggers {
            let mut terms = Vec::new();
            for te in &t.exprs {
                terms.push(self.expr(te, scope)?);
            }
            if valid_pattern(&terms, bounds) {
                let refs: Vec<&dyn Ast> = terms.iter().map(|t| t as &dyn Ast).collect();
                patterns.push(Pattern::new(&refs));
                groups.push(terms);
            } else {
                self.notes.push(Diagnostic::new(
                    ivl::diag::ErrorKind::Unsupported,
                    "this trigger is not a valid Z3 pattern (it must apply uninterpreted functions or map selects and mention every bound variable); it is ignored",
                    t.span,
                ));
            }
        }
        let no_patterns = self.no_patterns(q, scope);
        if !no_patterns.is_empty() {
            let forall = q.kind == QuantKind::Forall;
            if let Some(b) = crate::no_patterns::quantifier(forall, bounds, &groups, &no_patterns, &body) {
                return Ok(b.into());
            }
        }
        let bound_refs: Vec<&dyn Ast> = bounds.iter().map(|b| b as &dyn Ast).collect();
        let pat_refs: Vec<&Pattern> = patterns.iter().collect();
        let _ = span;
        Ok(match q.kind {
            QuantKind::Forall => z3::ast::forall_const(&bound_refs, &pat_refs, &body),
            _ => z3::ast::exists_const(&bound_refs, &pat_refs, &body),
        }
        .into())
    }

    /// The encoded no-pattern terms of `q` ([`crate::no_patterns::terms`]) that mention one of
    /// its variables (others cannot be triggers anyway); terms that fail to encode are skipped.
    pub(super) fn no_patterns(&mut self, q: &Quantifier, scope: &mut Scope) -> Vec<Dynamic> {
        let names: HashSet<&str> = q.vars.iter().map(|v| v.name.name.as_str()).collect();
        let terms = crate::no_patterns::terms(q, &self.never_pattern);
        let side = self.side.len();
        let out = terms
            .into_iter()
            .filter(|t| ivl::visit::free_vars(*t).iter().any(|n| names.contains(n.as_str())))
            .filter_map(|t| self.expr(t, scope).ok())
            .collect();
        self.side.truncate(side);
        out
    }

    /// `lambda xs :: body` as Boogie encodes it: a fresh function `L` of the variables `fs` of
    /// enclosing binders that the body uses, with the axiom
    /// `forall fs, xs :: {L(fs)[xs]} L(fs)[xs] == body` (E-matching instantiates it at every
    /// read of the map; Z3's own lambdas are not instantiated through nested selects without
    /// MBQI).
    fn lift_lambda(&mut self, bounds: &[Dynamic], body: &Dynamic) -> Dynamic {
        let free: Vec<Dynamic> = self
            .qbound
            .iter()
            .filter(|q| !bounds.iter().any(|b| b.ast_eq(*q)) && mentions(body, q, 0))
            .cloned()
            .collect();
        let mut sort = body.get_sort();
        for b in bounds.iter().rev() {
            sort = Sort::array(&b.get_sort(), &sort);
        }
        self.lambdas += 1;
        let domain: Vec<Sort> = free.iter().map(|f| f.get_sort()).collect();
        let domain_refs: Vec<&Sort> = domain.iter().collect();
        let decl = FuncDecl::new(format!("lambda@{}", self.lambdas), &domain_refs, &sort);
        let free_refs: Vec<&dyn Ast> = free.iter().map(|f| f as &dyn Ast).collect();
        let app = decl.apply(&free_refs);
        let mut read = app.clone();
        for b in bounds {
            read = read.as_array().expect("array sort").select(b);
        }
        let def = read.eq(body);
        let all: Vec<&dyn Ast> = free.iter().chain(bounds).map(|f| f as &dyn Ast).collect();
        let pattern = Pattern::new(&[&read]);
        self.side.push(z3::ast::forall_const(&all, &[&pattern], &def));
        app
    }
}

/// Z3 accepts a multi-pattern whose terms are applications of uninterpreted functions or map
/// selects (not bound variables, not interpreted operators) and that together mention every
/// bound variable.
fn valid_pattern(terms: &[Dynamic], bounds: &[Dynamic]) -> bool {
    if terms.is_empty() {
        return false;
    }
    for t in terms {
        if !t.is_app() || t.num_children() == 0 {
            return false;
        }
        match t.decl().kind() {
            Z3DeclKind::UNINTERPRETED | Z3DeclKind::SELECT => {}
            _ => return false,
        }
    }
    bounds.iter().all(|b| terms.iter().any(|t| mentions(t, b, 0)))
}

fn mentions(t: &Dynamic, b: &Dynamic, depth: usize) -> bool {
    if t.ast_eq(b) {
        return true;
    }
    if depth > 200 || !t.is_app() {
        return false;
    }
    t.children().iter().any(|c| mentions(c, b, depth + 1))
}

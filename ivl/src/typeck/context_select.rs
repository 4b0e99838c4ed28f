//! Selects of polymorphic maps whose type parameters the indices do not determine
//! (`p[]` for `p: <a>[]a`, `q[17]` for `q: <a, b>[int][a]b`), typed from their context as
//! Boogie 2.4.1 does (Leino, "This is Boogie 2", §4; Leino and Rümmer, TACAS 2010, §2).
//!
//! Boogie infers such a type parameter by unification with the type the context expects: the
//! other operand of `==` or of an arithmetic operator, an assignment's target or value, a
//! declared argument or result type, `bool` for a condition or a logical operand, the element
//! type of a store's value, the map type that further indices and an expected element type
//! describe (`q[17][true] == 13` fixes `a := bool, b := int`). A parameter nothing fixes is
//! `int` ("type parameter a is ambiguous, instantiating to int"), except in an operand of `++`,
//! where Boogie takes a bit-vector whose width the other operand and the expected width leave
//! over (`bv0` if none).
//!
//! kivl uses the checker's one-slot expected type ([`Checker::hint`]), which function
//! applications already read: [`Checker::wants_hint`] says which expressions read it, and
//! those that may wait for it are checked after the expressions that give it.

use super::*;

impl Checker<'_> {
    /// Whether the type of `e` may depend on the type its context expects: an application of a
    /// function, a select of a map whose type parameters occur only in its result, and the
    /// expressions built on them that pass the expected type on (`old`, stores, `++`).
    pub(crate) fn wants_hint(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Call(..) => true,
            ExprKind::Old(a) => self.wants_hint(a),
            ExprKind::Select(m, _) if !self.is_poly_call(m) => self.passes_hint(m) || self.open_map(m),
            ExprKind::Store(m, ..) => self.passes_hint(m),
            ExprKind::Binary(BinOp::Concat, a, b) => self.wants_hint(a) || self.wants_hint(b),
            _ => false,
        }
    }

    /// [`Checker::wants_hint`] for the map of a select or store: an application there is
    /// inferred from the indices, as before, not from the context.
    fn passes_hint(&mut self, m: &Expr) -> bool {
        !matches!(m.kind, ExprKind::Call(..)) && self.wants_hint(m)
    }

    /// Whether `m` is a map whose type has a type parameter that occurs only in its result.
    fn open_map(&mut self, m: &Expr) -> bool {
        if self.root_ty(m).is_some_and(|t| !has_open_map(&t)) {
            return false; // the common case, decided without checking `m`
        }
        matches!(self.probe(m), Ty::Map(mt) if mt.has_result_only_params())
    }

    /// The type of the variable or application that the map expression `m` selects from or
    /// updates, if `m` is such a chain.
    fn root_ty(&self, m: &Expr) -> Option<Ty> {
        match &m.kind {
            ExprKind::Var(id) => match self.lookup(&id.name)? {
                VarRef::Bound(t) | VarRef::Local(t, _) => Some(t),
                VarRef::Global(g) => Some(g.ty.clone()),
            },
            ExprKind::Old(a) | ExprKind::Select(a, _) | ExprKind::Store(a, ..) => self.root_ty(a),
            ExprKind::Call(f, _) => self.env.function(&f.name).map(|fi| fi.result.clone()),
            _ => None,
        }
    }

    /// The type of `e`, found without reporting or recording anything.
    fn probe(&mut self, e: &Expr) -> Ty {
        let saved = (self.quiet, self.errors, self.diags.len(), self.instances.len(), self.hint.take());
        self.quiet = true;
        let t = self.expr(e);
        self.quiet = saved.0;
        self.errors = saved.1;
        self.diags.truncate(saved.2);
        self.instances.truncate(saved.3);
        self.hint = saved.4;
        t
    }

    /// Checks `e` expecting type `t` (read by `e` only if it [wants](Checker::wants_hint) it).
    pub(crate) fn expr_expecting(&mut self, e: &Expr, t: &Ty) -> Ty {
        if !t.has_error() && self.wants_hint(e) {
            self.hint = Some(t.clone());
        }
        self.expr(e)
    }

    /// `m[idx]` with `hint` the type the context expects of it.
    pub(super) fn select_expr(&mut self, e: &Expr, m: &Expr, idx: &[Expr], hint: Option<Ty>) -> Ty {
        if !self.passes_hint(m) {
            let mt = self.expr(m);
            return self.select_with(&mt, idx, None, hint.as_ref(), m.span, e.span);
        }
        // `q[17][true]`: the indices and the expected element type describe `q[17]`'s type.
        let its: Vec<Ty> = idx.iter().map(|i| self.expr(i)).collect();
        self.hint = Some(Ty::map(its.clone(), hint.clone().unwrap_or(Ty::Error)));
        let mt = self.expr(m);
        self.select_with(&mt, idx, Some(&its), hint.as_ref(), m.span, e.span)
    }

    /// `m[idx := v]` with `hint` the type the context expects of it (the map's type).
    pub(super) fn store_expr(&mut self, e: &Expr, m: &Expr, idx: &[Expr], v: &Expr, hint: Option<Ty>) -> Ty {
        let (mt, rt, vt) = if self.passes_hint(m) {
            let (its, vt) = match hint {
                Some(h) => (None, h),
                None => {
                    let its: Vec<Ty> = idx.iter().map(|i| self.expr(i)).collect();
                    let vt = self.expr(v);
                    (Some(its), vt)
                }
            };
            match its {
                Some(its) => {
                    self.hint = Some(Ty::map(its.clone(), vt.clone()));
                    let mt = self.expr(m);
                    let rt = self.select_with(&mt, idx, Some(&its), Some(&vt), m.span, e.span);
                    (mt, rt, vt)
                }
                None => {
                    self.hint = Some(vt);
                    self.store_parts(e, m, idx, v)
                }
            }
        } else {
            self.store_parts(e, m, idx, v)
        };
        if !vt.compatible(&rt) {
            self.mismatch(v.span, &rt, &vt, "the value stored must have the map's element type");
        }
        if rt.is_error() && !mt.compatible(&Ty::Error) {
            return Ty::Error;
        }
        mt
    }

    /// The types of a store's map, element and value; the value is checked first when it
    /// fixes the element type, after with that type expected otherwise.
    fn store_parts(&mut self, e: &Expr, m: &Expr, idx: &[Expr], v: &Expr) -> (Ty, Ty, Ty) {
        let mt = self.expr(m);
        if matches!(&mt, Ty::Map(x) if x.has_result_only_params()) {
            let vt = self.expr(v);
            let rt = self.select_with(&mt, idx, None, Some(&vt), m.span, e.span);
            return (mt, rt, vt);
        }
        let rt = self.select_with(&mt, idx, None, None, m.span, e.span);
        let vt = self.expr_expecting(v, &rt);
        (mt, rt, vt)
    }

    /// Binds the type parameters of a select of `m` that the indices left open (`inst`) by
    /// matching the map's result type with the expected type; the rest become `int`.
    pub(super) fn close_from_context(m: &MapTy, hint: Option<&Ty>, inst: &mut Vec<Option<Ty>>) {
        if let Some(h) = hint.filter(|_| inst.iter().any(Option::is_none)) {
            let mut more = inst.clone();
            if m.result.match_bound(h, &mut more) {
                *inst = more;
            }
        }
        for t in inst.iter_mut().filter(|t| t.is_none()) {
            *t = Some(Ty::Int);
        }
    }

    /// The operands of `a ++ b` expected of type `hint`: an operand that waits for its type
    /// gets the width the other one and `hint` leave over, `bv0` if none (Boogie 2.4.1's
    /// choice: `p[] ++ p[] == c` for `c: bv17` instantiates the first `p[]` at `bv17`, the
    /// second at `bv0`).
    pub(super) fn concat_operands(&mut self, a: &Expr, b: &Expr, hint: Option<Ty>) -> (Ty, Ty) {
        let total = hint.as_ref().and_then(Ty::bv_width).unwrap_or(0);
        let (wa, wb) = (self.wants_hint(a), self.wants_hint(b));
        let rest = |t: &Ty| Ty::Bv(total.saturating_sub(t.bv_width().unwrap_or(0)));
        match (wa, wb) {
            (true, false) => {
                let tb = self.expr(b);
                (self.expr_expecting(a, &rest(&tb)), tb)
            }
            (false, true) => {
                let ta = self.expr(a);
                let tb = self.expr_expecting(b, &rest(&ta));
                (ta, tb)
            }
            (true, true) => {
                let ta = self.expr_expecting(a, &Ty::Bv(total));
                (ta, self.expr_expecting(b, &Ty::Bv(0)))
            }
            (false, false) => (self.expr(a), self.expr(b)),
        }
    }

    /// Checks the assignment targets `lhss`, each a type or, for a map element whose type
    /// parameters wait for the value (`p[] := 12`), `None`.
    pub(super) fn lhs_types(&mut self, lhss: &[Lhs]) -> Vec<Option<Ty>> {
        let mut tys = Vec::with_capacity(lhss.len());
        for l in lhss {
            let mut t = self.target(&l.var, "assign to");
            if !l.indices.is_empty() && self.wants_hint(&lhs_expr(l)) {
                tys.push(None);
                continue;
            }
            for (k, idx) in l.indices.iter().enumerate() {
                t = self.select(&t, idx, l.var.span, lhs_level_span(l, k));
            }
            tys.push(Some(t));
        }
        tys
    }

    /// The value `r` assigned to `l`, whose type waits for it: `l`'s type, from `r`'s.
    pub(super) fn assign_to_open(&mut self, l: &Lhs, r: &Expr) {
        let rt = self.expr(r);
        self.hint = (!rt.has_error()).then(|| rt.clone());
        let t = self.expr(&lhs_expr(l));
        if !rt.compatible(&t) {
            self.mismatch(r.span, &t, &rt, format!("assigned to `{}`", l.var.name));
        }
    }
}

/// The target `m[i][j]` as the select expression it updates, each level with the span the
/// checker records its instantiation at ([`lhs_level_span`]).
fn lhs_expr(l: &Lhs) -> Expr {
    let mut e = Expr::var(l.var.name.clone(), l.var.span);
    for (k, idx) in l.indices.iter().enumerate() {
        e = Expr::new(ExprKind::Select(Box::new(e), idx.clone()), lhs_level_span(l, k));
    }
    e
}

/// Whether a map type with a type parameter only in its result occurs in `t`.
fn has_open_map(t: &Ty) -> bool {
    match t {
        Ty::Map(m) => m.has_result_only_params() || has_open_map(&m.result) || m.args.iter().any(has_open_map),
        Ty::Ctor(_, xs) => xs.iter().any(has_open_map),
        _ => false,
    }
}

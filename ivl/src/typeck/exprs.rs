//! Type checking of expressions: variables, literals, operators and conditionals (Boogie 2's
//! typing rules for them, with its restrictions inside triggers), each given a [`Ty`].
//!
//! Separate from the statements and declarations that contain expressions, and from
//! applications and map selects ([`super::calls`]), which infer type parameters.

use super::*;

impl Checker<'_> {
    pub(super) fn var(&mut self, id: &Ident) -> Ty {
        match self.lookup(&id.name) {
            Some(VarRef::Bound(t)) | Some(VarRef::Local(t, _)) => t,
            Some(VarRef::Global(g)) => {
                if let (Some(place), false) = (self.ctx.no_globals, g.is_const()) {
                    return self.type_error(
                        format!("global variable `{}` cannot be used in {place}", id.name),
                        id.span,
                        "only constants and parameters are allowed here",
                    );
                }
                g.ty.clone()
            }
            None if crate::floats::rounding_mode(&id.name).is_some() => crate::floats::rmode_ty(),
            None => {
                let label = if self.env.function(&id.name).is_some() {
                    "this is a function: apply it to arguments"
                } else {
                    "not declared"
                };
                self.type_error(format!("undeclared identifier `{}`", id.name), id.span, label)
            }
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            ExprKind::BoolLit(_) => Ty::Bool,
            ExprKind::IntLit(_) => Ty::Int,
            ExprKind::RealLit(r) => match crate::floats::literal_sizes(r) {
                None => Ty::Real,
                Some(sizes) => {
                    if let Err(why) = crate::floats::literal_value(r) {
                        // Boogie 2.4.1: "incorrectly formatted floating point" (a parse error).
                        self.report(Diagnostic::syntax("incorrectly formatted floating point", e.span).with_label(why));
                    }
                    crate::floats::ty(sizes)
                }
            },
            ExprKind::BvLit { value, width } => self.bv_lit(e, value, *width),
            ExprKind::Var(id) => self.var(id),
            ExprKind::Old(inner) => {
                if let Some(place) = self.ctx.no_old {
                    self.type_error(
                        format!("`old` is not allowed in {place}"),
                        e.span,
                        "`old` needs a two-state context (postconditions and procedure bodies)",
                    );
                }
                self.expr(inner)
            }
            ExprKind::Unary(op, a) => self.unary(e, *op, a),
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Call(f, args) => self.call_expr(e, f, args),
            ExprKind::Select(m, idx) if self.is_poly_call(m) => {
                // `Set#Empty()[o]`: the index types may determine the function's type parameters.
                let its: Vec<Ty> = idx.iter().map(|i| self.expr(i)).collect();
                self.hint = Some(Ty::map(its.clone(), Ty::Error));
                let mt = self.expr(m);
                self.select_with(&mt, idx, Some(&its), None, m.span, e.span)
            }
            ExprKind::Select(m, idx) => {
                let hint = self.hint.take();
                self.select_expr(e, m, idx, hint)
            }
            ExprKind::Store(m, idx, v) => {
                let hint = self.hint.take();
                self.store_expr(e, m, idx, v, hint)
            }
            ExprKind::Extract(a, hi, lo) => self.extract(e, a, *hi, *lo),
            ExprKind::IfThenElse(c, a, b) => self.if_then_else(c, a, b),
            ExprKind::Quant(q) => self.quant(e, q),
            ExprKind::Let(l) => lets::check_let(self, l),
            ExprKind::Code(c) => code_exprs::check_code(self, c),
            ExprKind::Coerce(a, t) => {
                let target = self.ty(t);
                let at = self.expr_expecting(a, &target);
                if !at.compatible(&target) {
                    self.type_error(
                        format!("`{at}` cannot be coerced to `{target}`"),
                        a.span,
                        "a type coercion `e : T` needs `e` to have type `T`",
                    );
                }
                target
            }
        }
    }

    /// A bit-vector literal: a supported width, a value that fits.
    fn bv_lit(&mut self, e: &Expr, value: &BigUint, width: u32) -> Ty {
        if width == 0 {
            self.report(Diagnostic::unsupported("zero-width bit-vectors are not supported", e.span));
            return Ty::Error;
        }
        if value.bits() > width as u64 {
            self.type_error(
                format!("literal `{value}bv{width}` does not fit in {width} bits"),
                e.span,
                format!("the largest `bv{width}` value is 2^{width} - 1"),
            );
        }
        Ty::Bv(width)
    }

    /// `!a` and `-a`.
    fn unary(&mut self, e: &Expr, op: UnOp, a: &Expr) -> Ty {
        let t = if op == UnOp::Not { self.expr_expecting(a, &Ty::Bool) } else { self.expr(a) };
        match op {
            UnOp::Not => {
                if self.ctx.trigger {
                    self.trigger_error(e.span, "boolean operators");
                }
                if !t.compatible(&Ty::Bool) {
                    self.type_error(
                        format!("invalid operand type `{t}` for `!`"),
                        a.span,
                        "`!` needs a `bool` operand",
                    );
                }
                Ty::Bool
            }
            UnOp::Neg => match t {
                Ty::Int | Ty::Real | Ty::Error => t,
                _ if crate::floats::is_float(&t) => t,
                _ => self.type_error(
                    format!("invalid operand type `{t}` for unary `-`"),
                    a.span,
                    "unary `-` needs an `int` or `real` operand",
                ),
            },
        }
    }

    /// `a[hi:lo]`: a bit-vector operand, `lo < hi <= width`.
    fn extract(&mut self, e: &Expr, a: &Expr, hi: u32, lo: u32) -> Ty {
        let t = self.expr(a);
        if t.is_error() {
            return Ty::Error;
        }
        let Some(w) = t.bv_width() else {
            return self.type_error(
                format!("bit extraction `[{hi}:{lo}]` needs a bit-vector operand, found `{t}`"),
                a.span,
                format!("this has type `{t}`"),
            );
        };
        if lo > hi {
            return self.type_error(
                format!("invalid extraction `[{hi}:{lo}]`: the upper bound is below the lower bound"),
                e.span,
                "write `[hi:lo]` with lo <= hi",
            );
        }
        if hi > w {
            return self.type_error(
                format!("extraction `[{hi}:{lo}]` out of range for `bv{w}`"),
                e.span,
                format!("the upper bound must be at most {w}"),
            );
        }
        if hi == lo {
            self.report(Diagnostic::unsupported("zero-width bit extraction is not supported", e.span));
            return Ty::Error;
        }
        Ty::Bv(hi - lo)
    }

    /// `if c then a else b`: a boolean condition, branches of one type.
    fn if_then_else(&mut self, c: &Expr, a: &Expr, b: &Expr) -> Ty {
        if self.ctx.trigger {
            // Boogie allows if-then-else in triggers; its condition is a boolean.
        }
        let ct = self.expr(c);
        if !ct.compatible(&Ty::Bool) {
            self.type_error(
                format!("the condition of `if-then-else` must be `bool`, found `{ct}`"),
                c.span,
                format!("this has type `{ct}`"),
            );
        }
        let ta = self.expr(a);
        let tb = self.expr(b);
        if !ta.compatible(&tb) {
            return self.type_error(
                format!("the branches of `if-then-else` have different types `{ta}` and `{tb}`"),
                b.span,
                format!("expected `{ta}` like the `then` branch"),
            );
        }
        if ta.is_error() {
            tb
        } else {
            ta
        }
    }

    pub(super) fn trigger_error(&mut self, span: Span, what: &str) {
        self.type_error(
            format!("{what} are not allowed in triggers"),
            span,
            "triggers must be function applications or map selections",
        );
    }

    /// The types of a binary operator's operands. Except for `++`, both have one type, so an
    /// application of a polymorphic function on one side is inferred from the other side
    /// (`Empty() == s`): the application is checked second.
    fn operands(&mut self, op: BinOp, a: &Expr, b: &Expr, hint: Option<Ty>) -> (Ty, Ty) {
        use BinOp::*;
        match op {
            Concat => return self.concat_operands(a, b, hint),
            Iff | Implies | Explies | And | Or => {
                return (self.expr_expecting(a, &Ty::Bool), self.expr_expecting(b, &Ty::Bool))
            }
            _ => {}
        }
        if self.wants_hint(a) && !self.wants_hint(b) {
            let tb = self.expr(b);
            (self.expr_expecting(a, &tb), tb)
        } else {
            let ta = self.expr(a);
            (ta.clone(), self.expr_expecting(b, &ta))
        }
    }

    /// Whether a type variable in scope occurs in `t` (in a body, each is the opaque type of its name).
    fn mentions_tvar(&self, t: &Ty) -> bool {
        match t {
            Ty::Ctor(n, args) => {
                (args.is_empty() && self.tvars.iter().any(|v| v.name == *n))
                    || args.iter().any(|a| self.mentions_tvar(a))
            }
            Ty::Map(m) => self.mentions_tvar(&m.result) || m.args.iter().any(|a| self.mentions_tvar(a)),
            _ => false,
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Ty {
        use BinOp::*;
        let hint = self.hint.take();
        if self.ctx.trigger {
            match op {
                Eq => self.trigger_error(e.span, "equalities"),
                Lt | Le | Gt | Ge => self.trigger_error(e.span, "arithmetic comparisons"),
                Iff | Implies | Explies | And | Or => self.trigger_error(e.span, "boolean operators"),
                _ => {}
            }
        }
        let (ta, tb) = self.operands(op, a, b, hint);
        let bad = |this: &mut Self, need: &str| {
            this.report(
                Diagnostic::type_error(
                    format!("invalid operand types `{ta}` and `{tb}` for `{}`", op.symbol()),
                    e.span,
                )
                .with_label(need.to_string()),
            );
        };
        let either_error = ta.is_error() || tb.is_error();
        // Boogie 2.4.1 types `+ - * /` and the comparisons on two floats of one type.
        let floats = crate::floats::is_float(&ta) && ta == tb;
        match op {
            Iff | Implies | Explies | And | Or => {
                if !(ta.compatible(&Ty::Bool) && tb.compatible(&Ty::Bool)) {
                    bad(self, "both operands must be `bool`");
                }
                Ty::Bool
            }
            Eq | Neq => {
                let params = self.mentions_tvar(&ta) || self.mentions_tvar(&tb) || self.env.instances_of_generic;
                let distinct = !ta.compatible(&tb);
                if !either_error && ((distinct && params) || self.env.instances_of_generic) {
                    // Boogie: values of distinct types are never equal. Which types these are
                    // is known at each instance (`vcgen::mono`, which gets every equality).
                    let kind = InstanceKind::DistinctTypeEquality;
                    self.instances.push(Instance {
                        span: e.span,
                        name: Name::default(),
                        tys: vec![ta.clone(), tb.clone()],
                        kind,
                    });
                }
                if distinct && !either_error && params {
                } else if !ta.compatible(&tb) {
                    bad(self, "both sides of an equality must have the same type");
                } else if ta.has_poly_map() {
                    let kind = InstanceKind::PolyMapEquality;
                    self.instances.push(Instance { span: e.span, name: Name::default(), tys: Vec::new(), kind });
                }
                Ty::Bool
            }
            Lt | Le | Gt | Ge => {
                let ok = matches!((&ta, &tb), (Ty::Int, Ty::Int) | (Ty::Real, Ty::Real))
                    || floats
                    || (either_error && numeric_or_error(&ta) && numeric_or_error(&tb));
                if !ok {
                    bad(
                        self,
                        "both operands must be `int` or both `real` (use a `{:bvbuiltin}` function for bit-vectors)",
                    );
                }
                Ty::Bool
            }
            Subtype => {
                self.report(Diagnostic::unsupported("the partial-order operator `<:` is not supported", e.span));
                Ty::Bool
            }
            Concat => match (&ta, &tb) {
                (Ty::Bv(x), Ty::Bv(y)) => Ty::Bv(x + y),
                _ if either_error && bv_or_error(&ta) && bv_or_error(&tb) => Ty::Error,
                _ => {
                    bad(self, "`++` concatenates two bit-vectors");
                    Ty::Error
                }
            },
            Add | Sub | Mul => {
                match (&ta, &tb) {
                    (Ty::Int, Ty::Int) => Ty::Int,
                    (Ty::Real, Ty::Real) => Ty::Real,
                    _ if floats => ta.clone(),
                    (Ty::Error, t) | (t, Ty::Error) if numeric_or_error(t) => t.clone(),
                    _ => {
                        bad(self, "both operands must be `int` or both `real` (use a `{:bvbuiltin}` function for bit-vectors)");
                        Ty::Error
                    }
                }
            }
            Div | Mod => {
                if !(ta.compatible(&Ty::Int) && tb.compatible(&Ty::Int)) {
                    bad(self, "`div` and `mod` need `int` operands (use `/` for reals)");
                    return Ty::Error;
                }
                Ty::Int
            }
            RealDiv if floats => ta.clone(),
            RealDiv => {
                if !(numeric_or_error(&ta) && numeric_or_error(&tb)) {
                    bad(self, "`/` needs `int` or `real` operands");
                }
                Ty::Real
            }
            // Boogie 2.4.1: `real ** real` only (`2 ** 3` is a type error there too).
            Pow => {
                if !(ta.compatible(&Ty::Real) && tb.compatible(&Ty::Real)) {
                    bad(self, "`**` needs two `real` operands (convert with `real(...)`)");
                    return Ty::Error;
                }
                Ty::Real
            }
        }
    }
}

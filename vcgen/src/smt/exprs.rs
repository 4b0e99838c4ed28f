//! The terms of expressions: variables, literals, operators, selects and stores, conditionals
//! and function applications (expanding `{:inline}` functions), with their sorts checked before
//! every Z3 call.
//!
//! Separate from declarations (which it reads) and from quantifiers and lambdas
//! ([`super::quants`]), which bind variables and choose triggers.

use super::*;

impl<'p> Encoder<'p> {
    /// Encodes a boolean expression.
    pub fn bool_expr(&mut self, e: &Expr, scope: &mut Scope) -> Result<Bool, Diagnostic> {
        let d = self.expr(e, scope)?;
        as_bool(&d, e.span)
    }

    /// Encodes an expression.
    pub fn expr(&mut self, e: &Expr, scope: &mut Scope) -> Result<Dynamic, Diagnostic> {
        let span = e.span;
        match &e.kind {
            ExprKind::BoolLit(b) => Ok(Bool::from_bool(*b).into()),
            ExprKind::IntLit(v) => Ok(Int::from_str(&v.to_string())
                .map_err(|_| Diagnostic::type_error("bad integer literal", span))?
                .into()),
            ExprKind::RealLit(s) if ivl::floats::literal_sizes(s).is_some() => crate::fp::literal(s, span),
            ExprKind::RealLit(s) => {
                real_literal(s).map(Dynamic::from).ok_or_else(|| Diagnostic::syntax("bad real literal", span))
            }
            ExprKind::BvLit { value, width } => {
                if *width == 0 {
                    return Err(Diagnostic::unsupported("bit-vectors of width 0 are not supported", span));
                }
                BV::from_str(*width, &value.to_string())
                    .map(Dynamic::from)
                    .ok_or_else(|| Diagnostic::type_error("bad bit-vector literal", span))
            }
            ExprKind::Var(x) => {
                if let Some(d) = scope.lookup(&x.name) {
                    return Ok(d.clone());
                }
                if let Some(d) = self.consts.get(&x.name) {
                    return Ok(d.clone());
                }
                if let Some(rm) = ivl::floats::rounding_mode(&x.name) {
                    return Ok(Dynamic::from_ast(&crate::fp::rounding_mode(rm)));
                }
                Err(Diagnostic::type_error(format!("unknown variable `{}`", x.name), x.span))
            }
            ExprKind::Old(_) => Err(Diagnostic::unsupported("`old` must be removed before VC generation", span)),
            ExprKind::Coerce(inner, _) => self.expr(inner, scope),
            ExprKind::Let(_) => {
                Err(Diagnostic::unsupported("let expressions must be expanded before VC generation", span))
            }
            ExprKind::Code(_) => {
                Err(Diagnostic::unsupported("code expressions must be eliminated before VC generation", span))
            }
            ExprKind::Unary(op, a) => {
                let a = self.expr(a, scope)?;
                match op {
                    UnOp::Not => Ok(as_bool(&a, span)?.not().into()),
                    UnOp::Neg => {
                        if let Some(f) = a.as_float() {
                            Ok(f.unary_neg().into())
                        } else if let Some(i) = a.as_int() {
                            Ok(i.unary_minus().into())
                        } else if let Some(r) = a.as_real() {
                            Ok(r.unary_minus().into())
                        } else {
                            Err(type_mismatch("`-` needs an int or real operand", &a, span))
                        }
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(a, scope)?;
                let b = self.expr(b, scope)?;
                binary(*op, &a, &b, span)
            }
            ExprKind::Call(f, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.expr(a, scope)?);
                }
                self.call(f, &vals, span)
            }
            ExprKind::Select(m, idxs) => {
                let mut m = self.expr(m, scope)?;
                for i in idxs {
                    let i = self.expr(i, scope)?;
                    m = select(&m, &i, span)?;
                }
                Ok(m)
            }
            ExprKind::Store(m, idxs, v) => {
                let m = self.expr(m, scope)?;
                let mut is = Vec::with_capacity(idxs.len());
                for i in idxs {
                    is.push(self.expr(i, scope)?);
                }
                let v = self.expr(v, scope)?;
                store(&m, &is, &v, span)
            }
            ExprKind::Extract(a, hi, lo) => {
                let a = self.expr(a, scope)?;
                let bv = a.as_bv().ok_or_else(|| type_mismatch("extraction needs a bit-vector", &a, span))?;
                if hi <= lo || *hi > bv.get_size() {
                    return Err(Diagnostic::type_error(
                        format!("bad extraction [{hi}:{lo}] from a bv{}", bv.get_size()),
                        span,
                    ));
                }
                Ok(bv.extract(hi - 1, *lo).into())
            }
            ExprKind::IfThenElse(c, a, b) => {
                let c = self.bool_expr(c, scope)?;
                let a = self.expr(a, scope)?;
                let b = self.expr(b, scope)?;
                if a.get_sort() != b.get_sort() {
                    return Err(Diagnostic::type_error(
                        format!("branches of `if` have different types ({} and {})", a.get_sort(), b.get_sort()),
                        span,
                    ));
                }
                Ok(c.ite(&a, &b))
            }
            ExprKind::Quant(q) => self.quantifier(q, scope, span),
        }
    }

    fn call(&mut self, f: &Ident, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
        let Some(entry) = self.funcs.get(&f.name) else {
            return match (f.name.as_str(), args) {
                ("int", [a]) => a
                    .as_real()
                    .map(|r| r.to_int().into())
                    .or_else(|| a.as_int().map(Dynamic::from))
                    .ok_or_else(|| type_mismatch("`int` needs a real argument", a, span)),
                ("real", [a]) => a
                    .as_int()
                    .map(|i| i.to_real().into())
                    .or_else(|| a.as_real().map(Dynamic::from))
                    .ok_or_else(|| type_mismatch("`real` needs an int argument", a, span)),
                _ => Err(Diagnostic::type_error(format!("unknown function `{}`", f.name), f.span)),
            };
        };
        if entry.params.len() != args.len() {
            return Err(Diagnostic::type_error(
                format!("function `{}` takes {} arguments, got {}", f.name, entry.params.len(), args.len()),
                span,
            ));
        }
        for (i, (p, a)) in entry.params.iter().zip(args).enumerate() {
            if *p != a.get_sort() {
                return Err(Diagnostic::type_error(
                    format!("argument {} of `{}` has sort {}, expected {}", i + 1, f.name, a.get_sort(), p),
                    span,
                ));
            }
        }
        let result = entry.result.clone();
        let out = match &entry.imp {
            FnImpl::Uninterpreted(d) => {
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                d.apply(&refs)
            }
            FnImpl::Builtin(b) => {
                let b = b.clone();
                apply_builtin(&b, args, span)
                    .map_err(|e| e.with_note(format!("in the builtin operator of function `{}`", f.name)))?
            }
            FnImpl::Inline(decl) => {
                let decl: &FunctionDecl = decl;
                if self.inline_depth >= MAX_INLINE_DEPTH {
                    return Ok(self.unexpanded(&f.name, args, &result));
                }
                let mut inner = Scope::empty();
                for (p, a) in decl.params.iter().zip(args) {
                    if let Some(n) = &p.name {
                        inner.bound.push((n.name.clone(), a.clone()));
                    }
                }
                self.inline_depth += 1;
                let r = self.expr(decl.body.as_ref().expect("inline functions have bodies"), &mut inner);
                self.inline_depth -= 1;
                r?
            }
        };
        if out.get_sort() != result {
            return Err(Diagnostic::type_error(
                format!("`{}` yields sort {}, but is declared to return {}", f.name, out.get_sort(), result),
                span,
            ));
        }
        Ok(out)
    }

    /// A call of a (recursive) `{:inline}` function past [`MAX_INLINE_DEPTH`] expansions: an
    /// uninterpreted function of the same signature, one per function (Z3 identifies
    /// declarations by name and sorts). Sound: every function that satisfies the definition
    /// is one of its interpretations, so the expansions above it over-approximate. Boogie 2.4.1
    /// accepts such definitions too (inline/expansion3.bpl); a definition that is not
    /// recursive never gets here.
    fn unexpanded(&self, name: &Name, args: &[Dynamic], result: &Sort) -> Dynamic {
        let domain: Vec<Sort> = args.iter().map(|a| a.get_sort()).collect();
        let refs: Vec<&Sort> = domain.iter().collect();
        let decl = FuncDecl::new(format!("{name}@unexpanded"), &refs, result);
        let args: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        decl.apply(&args)
    }

    /// Whether `e` contains no quantifier or lambda, also inside the `{:inline}` functions it
    /// calls (so that a model evaluates it to a literal).
    pub fn is_quantifier_free(&self, e: &Expr) -> bool {
        struct Qf<'a, 'p> {
            enc: &'a Encoder<'p>,
            found: bool,
            depth: usize,
        }
        impl ivl::visit::Visit for Qf<'_, '_> {
            fn visit_expr(&mut self, e: &Expr) {
                if self.found {
                    return;
                }
                match &e.kind {
                    ExprKind::Quant(_) => self.found = true,
                    ExprKind::Call(f, _) => {
                        if let Some(FnEntry { imp: FnImpl::Inline(d), .. }) = self.enc.funcs.get(&f.name) {
                            if self.depth >= MAX_INLINE_DEPTH {
                                self.found = true;
                                return;
                            }
                            self.depth += 1;
                            if let Some(b) = &d.body {
                                self.visit_expr(b);
                            }
                            self.depth -= 1;
                        }
                        ivl::visit::walk_expr(self, e);
                    }
                    _ => ivl::visit::walk_expr(self, e),
                }
            }
        }
        let mut v = Qf { enc: self, found: false, depth: 0 };
        ivl::visit::Visit::visit_expr(&mut v, e);
        !v.found
    }
}

/// A Boogie decimal literal (`1.5`, `2.0e3`, `1e-2`) as an exact rational.
fn real_literal(s: &str) -> Option<Real> {
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], s[i + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (int_part, frac) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    let digits = format!("{int_part}{frac}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let scale = exp - frac.len() as i64;
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    if scale.unsigned_abs() > 10_000 {
        return None;
    }
    let (num, den) = if scale >= 0 {
        (format!("{digits}{}", "0".repeat(scale as usize)), "1".to_string())
    } else {
        (digits.to_string(), format!("1{}", "0".repeat((-scale) as usize)))
    };
    Real::from_rational_str(&num, &den)
}

pub(super) fn same_sort(a: &Dynamic, b: &Dynamic, op: &str, span: Span) -> Result<(), Diagnostic> {
    if a.get_sort() != b.get_sort() {
        return Err(Diagnostic::type_error(
            format!("operands of `{op}` have different types ({} and {})", a.get_sort(), b.get_sort()),
            span,
        ));
    }
    Ok(())
}

/// Int or real arithmetic/comparison on two operands of the same numeric sort.
fn numeric(op: BinOp, a: &Dynamic, b: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
    same_sort(a, b, op.symbol(), span)?;
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Ok(match op {
            BinOp::Add => Int::add(&[&x, &y]).into(),
            BinOp::Sub => Int::sub(&[&x, &y]).into(),
            BinOp::Mul => Int::mul(&[&x, &y]).into(),
            BinOp::Div => x.div(&y).into(),
            BinOp::Mod => x.modulo(&y).into(),
            BinOp::Lt => x.lt(&y).into(),
            BinOp::Le => x.le(&y).into(),
            BinOp::Gt => x.gt(&y).into(),
            BinOp::Ge => x.ge(&y).into(),
            BinOp::RealDiv => x.to_real().div(y.to_real()).into(),
            _ => unreachable!(),
        });
    }
    if let (Some(x), Some(y)) = (a.as_real(), b.as_real()) {
        return Ok(match op {
            BinOp::Add => Real::add(&[&x, &y]).into(),
            BinOp::Sub => Real::sub(&[&x, &y]).into(),
            BinOp::Mul => Real::mul(&[&x, &y]).into(),
            BinOp::RealDiv => x.div(&y).into(),
            BinOp::Lt => x.lt(&y).into(),
            BinOp::Le => x.le(&y).into(),
            BinOp::Gt => x.gt(&y).into(),
            BinOp::Ge => x.ge(&y).into(),
            _ => return Err(type_mismatch(&format!("`{}` needs int operands", op.symbol()), a, span)),
        });
    }
    Err(type_mismatch(&format!("`{}` needs int or real operands", op.symbol()), a, span))
}

pub(super) fn binary(op: BinOp, a: &Dynamic, b: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
    if a.sort_kind() == z3::SortKind::FloatingPoint && !matches!(op, BinOp::Eq | BinOp::Neq) {
        return crate::fp::binary(op, a, b, span);
    }
    match op {
        BinOp::Iff | BinOp::Implies | BinOp::Explies | BinOp::Or | BinOp::And => {
            let x = as_bool(a, span)?;
            let y = as_bool(b, span)?;
            Ok(match op {
                BinOp::Iff => x.iff(&y),
                BinOp::Implies => x.implies(&y),
                BinOp::Explies => y.implies(&x),
                BinOp::Or => Bool::or(&[&x, &y]),
                _ => Bool::and(&[&x, &y]),
            }
            .into())
        }
        BinOp::Eq | BinOp::Neq => {
            same_sort(a, b, op.symbol(), span)?;
            let eq = a.eq(b);
            Ok(if op == BinOp::Eq { eq } else { eq.not() }.into())
        }
        BinOp::Concat => {
            let x = a.as_bv().ok_or_else(|| type_mismatch("`++` needs bit-vectors", a, span))?;
            let y = b.as_bv().ok_or_else(|| type_mismatch("`++` needs bit-vectors", b, span))?;
            Ok(x.concat(&y).into())
        }
        BinOp::RealDiv => {
            let to_real = |d: &Dynamic| d.as_int().map(|i| i.to_real()).or_else(|| d.as_real());
            match (to_real(a), to_real(b)) {
                (Some(x), Some(y)) => Ok(x.div(&y).into()),
                _ => Err(type_mismatch("`/` needs int or real operands", a, span)),
            }
        }
        BinOp::Subtype => Err(Diagnostic::unsupported("`<:` is not supported", span)),
        BinOp::Pow => match (a.as_real(), b.as_real()) {
            (Some(x), Some(y)) => Ok(x.power(&y).into()),
            _ => Err(type_mismatch("`**` needs real operands", a, span)),
        },
        _ => numeric(op, a, b, span),
    }
}

fn select(m: &Dynamic, i: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
    let arr = m.as_array().ok_or_else(|| type_mismatch("only maps can be indexed", m, span))?;
    let dom = m.get_sort().array_domain().expect("array sort");
    if dom != i.get_sort() {
        return Err(Diagnostic::type_error(format!("map index has sort {}, expected {}", i.get_sort(), dom), span));
    }
    Ok(arr.select(i))
}

fn store(m: &Dynamic, idxs: &[Dynamic], v: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
    let Some((i, rest)) = idxs.split_first() else {
        if m.get_sort() != v.get_sort() {
            return Err(Diagnostic::type_error(
                format!("stored value has sort {}, expected {}", v.get_sort(), m.get_sort()),
                span,
            ));
        }
        return Ok(v.clone());
    };
    let inner = select(m, i, span)?;
    let new_inner = store(&inner, rest, v, span)?;
    let arr = m.as_array().expect("checked by select");
    Ok(arr.store(i, &new_inner).into())
}

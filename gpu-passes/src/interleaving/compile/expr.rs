//! Names and expressions: resolution of a variable use to a slot, a global, a constant or a
//! thread-identity constant (capturing into lambdas), and the compiled form of every expression.

use super::{unsupported, Compiler, ConstRef, FrameScope};
use crate::interleaving::bitvec::BvOp;
use crate::interleaving::code::*;
use crate::interleaving::types::{RTy, TyId};
use crate::interleaving::value::{real, Value};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::resolve::IDENTITY_ATTRS;
use ivl::typeck::Ty;
use std::rc::Rc;

impl Compiler<'_> {
    // ----- name resolution -------------------------------------------------------------------

    /// Resolves a variable use in frame `depth` (the innermost frame is `frames.len() - 1`).
    fn resolve_in(&mut self, depth: usize, name: &Name, span: Span) -> Option<Ex> {
        let old = self.in_old;
        if let Some(s) = self.frames[depth].lookup(name, old) {
            return Some(Ex::Local(s));
        }
        if self.frames[depth].captures.is_some() && depth > 0 {
            // A lambda: capture the value from the enclosing frame (constants need no capture).
            let outer = self.resolve_in(depth - 1, name, span)?;
            if matches!(outer, Ex::Const(_)) {
                return Some(outer);
            }
            let frame = &mut self.frames[depth];
            let slot = frame.alloc();
            frame.names.push((name.clone(), old, slot));
            frame.captures.as_mut().unwrap().push((outer, slot));
            return Some(Ex::Local(slot));
        }
        if depth > 0 && self.frames[depth].captures.is_none() {
            // Function bodies see no enclosing frame.
        }
        self.resolve_global(name, span)
    }

    fn resolve_global(&mut self, name: &Name, span: Span) -> Option<Ex> {
        if let Some(&g) = self.global_index.get(name) {
            if self.in_old {
                self.uses_old = true;
                return Some(Ex::OldGlobal(g));
            }
            self.touches_shared = true;
            return Some(Ex::Global(g, span));
        }
        if let Some(c) = self.const_index.get(name) {
            return Some(match *c {
                ConstRef::Uniform(i) => Ex::Const(i),
                ConstRef::Thread(i) => Ex::TConst(i),
            });
        }
        // Undeclared thread-identity names come from the prelude as `int` (docs/kbpl.md §4).
        if self.is_gpu {
            if let Some(attr) = IDENTITY_ATTRS.iter().position(|a| a == name) {
                let int = self.intern(RTy::Int);
                let r = self.add_identity_const(name.clone(), int, attr, span, false);
                return Some(match r {
                    ConstRef::Uniform(i) => Ex::Const(i),
                    ConstRef::Thread(i) => Ex::TConst(i),
                });
            }
        }
        None
    }

    pub(super) fn add_identity_const(
        &mut self,
        name: Name,
        ty: TyId,
        attr: usize,
        span: Span,
        unique: bool,
    ) -> ConstRef {
        let r = if attr < 6 {
            self.tconsts.push(ThreadConst { name: name.clone(), ty, attr });
            ConstRef::Thread(self.tconsts.len() as u32 - 1)
        } else {
            self.consts.push(ConstInfo { name: name.clone(), ty, unique, size_attr: Some(attr), span });
            ConstRef::Uniform(self.consts.len() as u32 - 1)
        };
        self.const_index.insert(name, r);
        r
    }

    fn var(&mut self, id: &Ident) -> Ex {
        let depth = self.frames.len() - 1;
        match self.resolve_in(depth, &id.name, id.span) {
            Some(e) => e,
            None => {
                self.diags.push(
                    Diagnostic::type_error(format!("undeclared identifier `{}`", id.name), id.span)
                        .with_label("not declared"),
                );
                Ex::Lit(Value::Bool(false))
            }
        }
    }

    // ----- expressions -----------------------------------------------------------------------

    /// A specification (assertion, contract, invariant): compiled, and wrapped in an
    /// [`Ex::SpecEnum`] when it reads the access logs.
    pub(super) fn spec(&mut self, e: &Expr) -> Ex {
        let body = self.expr(e);
        let mut pairs: Vec<(u32, bool)> = Vec::new();
        visit_ex(&body, &mut |x| {
            if let Ex::SpecAccess { var, write, .. } = x {
                if !pairs.contains(&(*var, *write)) {
                    pairs.push((*var, *write));
                }
            }
        });
        if pairs.is_empty() {
            body
        } else {
            Ex::SpecEnum(Box::new((pairs, body)))
        }
    }

    pub(super) fn exprs(&mut self, es: &[Expr]) -> Box<[Ex]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn pair(&mut self, a: &Expr, b: &Expr) -> Box<(Ex, Ex)> {
        Box::new((self.expr(a), self.expr(b)))
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Ex {
        match &e.kind {
            ExprKind::BoolLit(b) => Ex::Lit(Value::Bool(*b)),
            ExprKind::IntLit(v) => Ex::Lit(Value::int(v.clone().into())),
            ExprKind::RealLit(text) => match real::parse(text) {
                Some(r) => Ex::Lit(Value::real(r)),
                None => unsupported(format!("real literal `{text}`"), e.span),
            },
            ExprKind::BvLit { value, width } => Ex::Lit(Value::bv_from_biguint(*width, value.clone())),
            ExprKind::Var(id) => self.var(id),
            ExprKind::Old(inner) => {
                let saved = self.in_old;
                self.in_old = true;
                let r = self.expr(inner);
                self.in_old = saved;
                r
            }
            ExprKind::Unary(UnOp::Not, a) => Ex::Not(Box::new(self.expr(a))),
            ExprKind::Unary(UnOp::Neg, a) => Ex::Neg(Box::new(self.expr(a))),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            ExprKind::Call(f, args) => self.call(f, args, e.span),
            ExprKind::Select(m, idx) => self.select(e, m, idx),
            ExprKind::Store(m, idx, v) => {
                let mv = self.expr(m);
                let vv = self.expr(v);
                let idx = self.exprs(idx);
                Ex::Store(Box::new((mv, vv)), idx)
            }
            ExprKind::Extract(a, hi, lo) => Ex::Bv(BvOp::Extract(*hi, *lo), Box::new([self.expr(a)])),
            ExprKind::IfThenElse(c, a, b) => Ex::Ite(Box::new((self.expr(c), self.expr(a), self.expr(b)))),
            ExprKind::Quant(q) => self.quant(q, e.span),
            ExprKind::Coerce(a, _) => self.expr(a),
            ExprKind::Let(_) => unsupported("a let expression (expanded before this stage)".to_string(), e.span),
            ExprKind::Code(_) => unsupported("a code expression (eliminated before this stage)".to_string(), e.span),
        }
    }

    /// The connectives short-circuit (their own variants); every other operator is strict.
    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Ex {
        match op {
            BinOp::Iff => Ex::Iff(self.pair(a, b)),
            BinOp::Implies => Ex::Implies(self.pair(a, b)),
            BinOp::Explies => Ex::Implies(self.pair(b, a)),
            BinOp::Or => Ex::Or(self.pair(a, b)),
            BinOp::And => Ex::And(self.pair(a, b)),
            BinOp::Subtype => unsupported("the partial order `<:`", span),
            BinOp::Pow => unsupported("the power operator `**`", span),
            BinOp::Eq
            | BinOp::Neq
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge
            | BinOp::Concat
            | BinOp::Add
            | BinOp::Sub
            | BinOp::Mul
            | BinOp::Div
            | BinOp::Mod
            | BinOp::RealDiv => Ex::Bin(op, self.pair(a, b)),
        }
    }

    /// `m[i]...`: a chain rooted at a global variable is one shared-memory location.
    fn select(&mut self, e: &Expr, m: &Expr, idx: &[Expr]) -> Ex {
        let mut levels = vec![idx];
        let mut root = m;
        while let ExprKind::Select(inner, i) = &root.kind {
            levels.push(i);
            root = inner;
        }
        if let ExprKind::Var(id) = &root.kind {
            let r = self.var(id);
            if let Ex::Global(g, _) = r {
                levels.reverse();
                let levels = levels.into_iter().map(|l| self.exprs(l)).collect();
                return Ex::SharedSelect(Box::new(SharedSel { var: g, levels, span: e.span }));
            }
        }
        Ex::Select(Box::new(self.expr(m)), self.exprs(idx))
    }

    fn call(&mut self, f: &Ident, args: &[Expr], span: Span) -> Ex {
        let Some(&fid) = self.fn_index.get(&f.name) else {
            return match (f.as_str(), args) {
                ("__enabled", []) => Ex::Lit(Value::Bool(true)),
                (name @ ("__read" | "__write" | "__read_offset" | "__write_offset"), [a]) => {
                    let global = match &a.kind {
                        ExprKind::Var(id) => self.global_index.get(&id.name).copied(),
                        _ => None,
                    };
                    match global {
                        Some(var) => {
                            self.uses_spec_access = true;
                            Ex::SpecAccess { var, write: name.starts_with("__write"), offset: name.ends_with("offset") }
                        }
                        None => unsupported(format!("`{name}` of something other than a shared variable"), span),
                    }
                }
                ("real", [a]) => Ex::Conv(Conv::ToReal, Box::new(self.expr(a))),
                ("int", [a]) => Ex::Conv(Conv::ToInt, Box::new(self.expr(a))),
                (name, _) if name.starts_with("__") => {
                    unsupported(format!("the specification built-in `{name}`"), span)
                }
                (name, _) => {
                    self.diags.push(
                        Diagnostic::type_error(format!("undeclared function `{name}`"), f.span)
                            .with_label("not declared"),
                    );
                    Ex::Lit(Value::Bool(false))
                }
            };
        };
        let decl = self.fn_decls[fid as usize];
        let args_ex = self.exprs(args);
        if let Some(op) = attr_string(&decl.attrs, "bvbuiltin") {
            return match BvOp::from_smt(op) {
                Some(op) if op.arity() == args.len() => Ex::Bv(op, args_ex),
                _ => unsupported(format!("the bit-vector built-in \"{op}\""), span),
            };
        }
        if let Some(op) = attr_string(&decl.attrs, "builtin") {
            return builtin(op, args_ex).unwrap_or_else(|| unsupported(format!("the built-in \"{op}\""), span));
        }
        Ex::Call(fid, args_ex)
    }

    fn quant(&mut self, q: &Quantifier, span: Span) -> Ex {
        if !q.type_params.is_empty() {
            return unsupported("polymorphic quantifiers", span);
        }
        if q.kind == QuantKind::Lambda {
            return self.lambda(q);
        }
        let forall = q.kind == QuantKind::Forall;
        // Bounds of integer variables come from the guard: `lo <= i && i < hi ==> …` (forall) or
        // `lo <= i && i < hi && …` (exists).
        let guard_conjuncts: Vec<&Expr> = match (&q.body.kind, forall) {
            (ExprKind::Binary(BinOp::Implies, g, _), true) => conjuncts(g),
            (_, false) => conjuncts(&q.body),
            _ => Vec::new(),
        };
        let frame = self.frames.len() - 1;
        let saved_names = self.frames[frame].names.len();
        let saved_next = self.frames[frame].next;
        let mut vars = Vec::new();
        let mut result = None;
        for (k, v) in q.vars.iter().enumerate() {
            let ty = self.env.ty(&v.ty);
            let later: Vec<&Name> = q.vars[k..].iter().map(|w| &w.name.name).collect();
            let dom = match ty {
                Ty::Bool => Some(Domain::Bool),
                Ty::Bv(w) if w <= 16 => Some(Domain::Bv(w)),
                Ty::Int => int_bounds(&v.name.name, &later, &guard_conjuncts).map(|(lo, hi)| {
                    let lo = self.expr(&lo);
                    let hi = self.expr(&hi);
                    Domain::Range(lo, hi)
                }),
                _ => None,
            };
            let slot = self.frames[frame].bind(v.name.name.clone());
            match dom {
                Some(dom) => vars.push(QVar { slot, dom }),
                None => {
                    result = Some(unsupported(
                        format!(
                            "a quantifier over `{}` with no bounds that kivl can read off (write `lo <= {} && {} < hi ==> …`)",
                            v.name.name, v.name.name, v.name.name
                        ),
                        span,
                    ));
                    break;
                }
            }
        }
        let out = match result {
            Some(u) => u,
            None => {
                let body = self.expr(&q.body);
                Ex::Quant(Box::new(QuantEx { forall, vars, body }))
            }
        };
        let f = &mut self.frames[frame];
        f.names.truncate(saved_names);
        f.next = saved_next;
        out
    }

    fn lambda(&mut self, q: &Quantifier) -> Ex {
        let mut scope = FrameScope::new(true);
        for v in &q.vars {
            scope.bind(v.name.name.clone());
        }
        let nbound = q.vars.len() as u32;
        self.frames.push(scope);
        let saved_old = std::mem::replace(&mut self.in_old, false);
        let body = self.expr(&q.body);
        self.in_old = saved_old;
        let scope = self.frames.pop().unwrap();
        let (captures, capture_slots) = scope.captures.unwrap_or_default().into_iter().unzip();
        let id = self.lambdas.len() as u32;
        let proto = Rc::new(LambdaProto { id, nbound, frame: scope.max, captures, capture_slots, body });
        self.lambdas.push(proto.clone());
        Ex::Lambda(proto)
    }
}

fn attr_string<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a str> {
    find_attr(attrs, name).and_then(|a| match a.args.first() {
        Some(AttrArg::String(s, _)) => Some(s.as_str()),
        _ => None,
    })
}

/// A `{:builtin "op"}` function applied to compiled arguments.
fn builtin(op: &str, args: Box<[Ex]>) -> Option<Ex> {
    let mut v = args.into_vec();
    let bin = |k: BinOp, v: &mut Vec<Ex>| {
        let b = v.pop()?;
        let a = v.pop()?;
        Some(Ex::Bin(k, Box::new((a, b))))
    };
    match (op, v.len()) {
        ("+", 2) => bin(BinOp::Add, &mut v),
        ("-", 2) => bin(BinOp::Sub, &mut v),
        ("*", 2) => bin(BinOp::Mul, &mut v),
        ("div", 2) => bin(BinOp::Div, &mut v),
        ("mod", 2) => bin(BinOp::Mod, &mut v),
        ("/", 2) => bin(BinOp::RealDiv, &mut v),
        ("<", 2) => bin(BinOp::Lt, &mut v),
        ("<=", 2) => bin(BinOp::Le, &mut v),
        (">", 2) => bin(BinOp::Gt, &mut v),
        (">=", 2) => bin(BinOp::Ge, &mut v),
        ("=", 2) => bin(BinOp::Eq, &mut v),
        ("-", 1) => Some(Ex::Neg(Box::new(v.pop()?))),
        ("not", 1) => Some(Ex::Not(Box::new(v.pop()?))),
        ("to_real", 1) => Some(Ex::Conv(Conv::ToReal, Box::new(v.pop()?))),
        ("to_int", 1) => Some(Ex::Conv(Conv::ToInt, Box::new(v.pop()?))),
        (name, n) => {
            let op = BvOp::from_smt(name)?;
            (op.arity() == n).then(|| Ex::Bv(op, v.into_boxed_slice()))
        }
    }
}

/// The conjuncts of an `&&` tree.
pub(super) fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![e],
    }
}

/// Inclusive integer bounds `(lo, hi)` of bound variable `x` among guard conjuncts; a bound may
/// not mention `x` or the bound variables after it.
fn int_bounds(x: &Name, later: &[&Name], conj: &[&Expr]) -> Option<(Expr, Expr)> {
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(id) if id.name == *x);
    let free = |e: &Expr| later.iter().all(|n| !ivl::visit::mentions(e, n));
    let one = |e: &Expr| Expr::new(ExprKind::IntLit(1u32.into()), e.span);
    let mut lo = None;
    let mut hi = None;
    for c in conj {
        let ExprKind::Binary(op, a, b) = &c.kind else {
            continue;
        };
        // Normalise to `x OP e`.
        let (op, e) = if is_x(a) && free(b) {
            (*op, (**b).clone())
        } else if is_x(b) && free(a) {
            let flipped = match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Le => BinOp::Ge,
                BinOp::Gt => BinOp::Lt,
                BinOp::Ge => BinOp::Le,
                other => *other,
            };
            (flipped, (**a).clone())
        } else {
            continue;
        };
        match op {
            BinOp::Ge => lo = lo.or(Some(e)),
            BinOp::Gt => lo = lo.or_else(|| Some(Expr::binary(BinOp::Add, e.clone(), one(&e)))),
            BinOp::Le => hi = hi.or(Some(e)),
            BinOp::Lt => hi = hi.or_else(|| Some(Expr::binary(BinOp::Sub, e.clone(), one(&e)))),
            BinOp::Eq => {
                lo = lo.or_else(|| Some(e.clone()));
                hi = hi.or(Some(e));
            }
            _ => {}
        }
    }
    Some((lo?, hi?))
}

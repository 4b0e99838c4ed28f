//! Resolution and type checking of expressions, statements and declarations against the item
//! index ([`GlobalEnv`]), following Boogie 2.4.1's resolution and type-checking rules (Leino,
//! "This is Boogie 2", §2–§5) plus the GPU built-ins of docs/kbpl.md §5.2.
//!
//! One walk does both jobs: every identifier is looked up (bound variables, then the
//! procedure's locals and parameters, then globals) and every expression gets a [`Ty`]. An
//! erroneous expression has type [`Ty::Error`], which is compatible with every type, so one
//! mistake is reported once.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::resolve::{GlobalEnv, GlobalInfo, GlobalKind, ProcInfo};
pub use crate::types::{MapTy, Ty};
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::collections::HashSet;

mod context_select;

/// The GPU specification built-ins of docs/kbpl.md §5.2.
pub const SPEC_BUILTINS: [&str; 8] =
    ["__read", "__write", "__read_offset", "__write_offset", "__other", "__uniform", "__enabled", "__taken"];

/// What a local name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalKind {
    In,
    Out,
    Local,
    FnParam,
}

#[derive(Clone, Debug)]
pub(crate) struct Local {
    pub ty: Ty,
    pub kind: LocalKind,
    pub span: Span,
}

/// Where the expression being checked occurs: which of Boogie's context restrictions apply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// `Some(where)`: `old` is not allowed here ("a precondition").
    pub no_old: Option<&'static str>,
    /// `Some(where)`: global variables may not be mentioned here ("an axiom").
    pub no_globals: Option<&'static str>,
    /// The specification built-ins (`__read` …) may be used here.
    pub spec: bool,
    /// Inside a trigger (Boogie's restrictions on matching patterns apply).
    pub trigger: bool,
}

impl Ctx {
    /// Inside a procedure body: two-state, globals allowed, no built-ins.
    pub const BODY: Ctx = Ctx { no_old: None, no_globals: None, spec: false, trigger: false };
    /// Attributes: anything that resolves is fine (Boogie is permissive there).
    pub const ATTR: Ctx = Ctx { no_old: None, no_globals: None, spec: true, trigger: false };
}

enum VarRef<'e> {
    Bound(Ty),
    Local(Ty, LocalKind),
    Global(&'e GlobalInfo),
}

/// Types of locals given by a consumer of [`type_of`].
type LocalTypes<'a> = dyn Fn(&str) -> Option<Ty> + Sync + 'a;

/// The checker state for one declaration (or one expression, for [`type_of`]).
#[derive(Clone)]
pub(crate) struct Checker<'a> {
    pub env: &'a GlobalEnv,
    pub diags: Vec<Diagnostic>,
    /// Errors seen (also counted when `quiet`).
    pub errors: usize,
    quiet: bool,
    /// Parameters and locals of the enclosing function/procedure/implementation.
    /// (Fx-hashed: every identifier of a body is looked up here.)
    pub scope: FxHashMap<Name, Local>,
    external: Option<&'a LocalTypes<'a>>,
    /// Quantifier and lambda bound variables, innermost last.
    pub(crate) bound: Vec<(Name, Ty)>,
    pub ctx: Ctx,
    /// Type variables in scope (each resolves to an opaque type of its name).
    pub tvars: Vec<Ident>,
    /// The type the context expects of the function application checked next (set by
    /// [`Checker::expect`]): Boogie infers a type parameter that occurs only in the result from it.
    hint: Option<Ty>,
    /// The uses of polymorphic functions and procedures and their inferred instantiations.
    pub instances: Vec<Instance>,
    // Statement state.
    /// The globals the enclosing procedure may modify; `None`: not checked (GPU programs, where
    /// modifies clauses are inferred).
    pub modifies: Option<HashSet<Name>>,
    pub proc_name: Name,
    pub(crate) labels: FxHashMap<Name, Span>,
    loop_depth: usize,
    enclosing_labels: Vec<Name>,
}

/// A use of a polymorphic function (the application's span) or procedure (the `call`'s span)
/// and the instantiation of its type parameters inferred there, in their order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub span: Span,
    pub name: Name,
    pub tys: Vec<Ty>,
    pub kind: InstanceKind,
}

/// What an [`Instance`] records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceKind {
    /// A use of the polymorphic function or procedure `name`.
    Use,
    /// A select or update of a value of the polymorphic map type given (`name` empty) at
    /// `span`: the select or store expression's span, or for an assignment `m[i][j] := e` the
    /// span from `m` to the last index of the level ([`lhs_level_span`]). `tys` instantiates
    /// the map's type parameters.
    Select(Ty),
    /// An equality or disequality (at `span`) between values of a type that contains a
    /// polymorphic map type (`name` empty, no `tys`).
    PolyMapEquality,
    /// A lambda with type parameters (at `span`): `tys` are its type and the types of the
    /// variables it `captures` (its free variables other than constants), in that order;
    /// `tvars` are the type variables in scope around it (`vcgen::mono` lifts it to a function).
    PolyLambda { captures: Vec<Name>, tvars: Vec<Name> },
    /// An equality or disequality (at `span`) between values of two types `tys` that differ
    /// where a type parameter stands (Boogie 2 allows `x == C` for `x: a`, `C: int`: false
    /// unless `a` is `int`); `name` empty.
    DistinctTypeEquality,
}

/// The span that identifies level `k` of the left-hand side `l` (`m[i][j]`: `m[i` for level 0,
/// `m[i][j` for level 1), for [`Instance::select`]: no expression has it.
pub fn lhs_level_span(l: &Lhs, k: usize) -> Span {
    match l.indices[..=k].iter().rev().find_map(|idx| idx.last()) {
        Some(last) => l.var.span.to(last.span),
        None => l.var.span,
    }
}

/// Bodies at least this long are checked in parts on several threads ([`Checker::body`]); GPUVerify emits
/// kernels whose body is megabytes long, and small ones do not pay for a thread.
pub const PARALLEL_CHECK_BYTES: u32 = 256 * 1024;

/// Where to cut a large body's top-level statements for checking on several threads: near
/// each `k/parts` of the text, the first statement there that does not follow a label (a label
/// names the structured statement after it, so the two stay together). Empty for bodies
/// shorter than [`PARALLEL_CHECK_BYTES`].
fn parallel_cuts(ss: &[Stmt], parts: usize) -> Vec<usize> {
    let (Some(first), Some(last)) = (ss.first(), ss.last()) else {
        return Vec::new();
    };
    let len = last.span.end.saturating_sub(first.span.start);
    if len < PARALLEL_CHECK_BYTES {
        return Vec::new();
    }
    let mut cuts: Vec<usize> = Vec::new();
    for k in 1..parts {
        let target = first.span.start + (len as u64 * k as u64 / parts as u64) as u32;
        let from = cuts.last().map_or(1, |&c| c + 1);
        if let Some(i) =
            (from..ss.len()).find(|&i| ss[i].span.start >= target && !matches!(ss[i - 1].kind, StmtKind::Label(_)))
        {
            cuts.push(i);
        }
    }
    cuts
}

impl<'a> Checker<'a> {
    pub fn new(env: &'a GlobalEnv) -> Checker<'a> {
        Checker {
            env,
            diags: Vec::new(),
            errors: 0,
            quiet: false,
            scope: FxHashMap::default(),
            external: None,
            bound: Vec::new(),
            ctx: Ctx::BODY,
            tvars: Vec::new(),
            hint: None,
            instances: Vec::new(),
            modifies: None,
            proc_name: Name::default(),
            labels: FxHashMap::default(),
            loop_depth: 0,
            enclosing_labels: Vec::new(),
        }
    }

    pub fn report(&mut self, d: Diagnostic) {
        self.errors += 1;
        if !self.quiet {
            self.diags.push(d);
        }
    }

    fn type_error(&mut self, msg: impl Into<String>, span: Span, label: impl Into<String>) -> Ty {
        self.report(Diagnostic::type_error(msg, span).with_label(label));
        Ty::Error
    }

    fn mismatch(&mut self, span: Span, expected: &Ty, found: &Ty, label: impl Into<String>) {
        self.report(Diagnostic::type_error(format!("expected `{expected}`, found `{found}`"), span).with_label(label));
    }

    /// Resolves a written type, reporting errors.
    pub fn ty(&mut self, t: &Type) -> Ty {
        let mut d = Vec::new();
        let ty = self.env.resolve_type(t, &self.tvars, &mut d);
        for x in d {
            self.report(x);
        }
        ty
    }

    /// Resolves the types of a list of variables: `var x, y, z: T` repeats one written `T`, which
    /// is resolved (and its errors reported) once.
    pub fn var_types<'t>(&mut self, ts: impl Iterator<Item = &'t Type>) -> Vec<Ty> {
        let mut prev: Option<(&Type, Ty)> = None;
        let mut out = Vec::new();
        for t in ts {
            let ty = match &prev {
                Some((pt, pty)) if *pt == t => pty.clone(),
                _ => self.ty(t),
            };
            prev = Some((t, ty.clone()));
            out.push(ty);
        }
        out
    }

    /// Resolves a written type whose errors were already reported by `build_env`.
    pub fn ty_quiet(&self, t: &Type) -> Ty {
        self.env.resolve_type_quiet(t, &self.tvars)
    }

    /// Adds a parameter or local to the scope; a second declaration of the name is an error.
    pub fn declare(&mut self, id: &Ident, ty: Ty, kind: LocalKind) {
        if let Some(prev) = self.scope.get(&id.name) {
            let d = Diagnostic::type_error(format!("duplicate declaration of variable `{}`", id.name), id.span)
                .with_label("declared again here")
                .with_related(prev.span, "first declared here");
            self.report(d);
            return;
        }
        self.scope.insert(id.name.clone(), Local { ty, kind, span: id.span });
    }

    fn lookup(&self, name: &str) -> Option<VarRef<'a>> {
        if let Some((_, t)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return Some(VarRef::Bound(t.clone()));
        }
        if let Some(ext) = self.external {
            if let Some(t) = ext(name) {
                return Some(VarRef::Local(t, LocalKind::Local));
            }
        } else if let Some(l) = self.scope.get(name) {
            return Some(VarRef::Local(l.ty.clone(), l.kind));
        }
        self.env.global(name).map(VarRef::Global)
    }

    // -----------------------------------------------------------------------------------------
    // Expressions
    // -----------------------------------------------------------------------------------------

    /// Checks `e` and requires type `expected`.
    pub fn expect(&mut self, e: &Expr, expected: &Ty, label: impl FnOnce() -> String) -> Ty {
        let t = self.expr_expecting(e, expected);
        if !t.compatible(expected) {
            self.mismatch(e.span, expected, &t, label());
        }
        t
    }

    /// The type the context expects of `e`, for the inference of a polymorphic application.
    pub(crate) fn hint(&mut self, e: &Expr, expected: &Ty) {
        if !expected.has_error() && self.wants_hint(e) {
            self.hint = Some(expected.clone());
        }
    }

    pub fn expect_bool(&mut self, e: &Expr, what: &str) {
        let t = self.expr_expecting(e, &Ty::Bool);
        if !t.compatible(&Ty::Bool) {
            self.report(
                Diagnostic::type_error(format!("{what} must be of type `bool`, found `{t}`"), e.span)
                    .with_label(format!("this has type `{t}`")),
            );
        }
    }

    fn var(&mut self, id: &Ident) -> Ty {
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
            ExprKind::Let(l) => crate::lets::check_let(self, l),
            ExprKind::Code(c) => crate::code_exprs::check_code(self, c),
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

    fn trigger_error(&mut self, span: Span, what: &str) {
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

    /// Whether `e` applies a polymorphic function.
    fn is_poly_call(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Call(f, _) if self.env.function(&f.name).is_some_and(|fi| fi.type_params > 0))
    }

    /// `m[idx]`: the element type of `mt`.
    fn select(&mut self, mt: &Ty, idx: &[Expr], mspan: Span, span: Span) -> Ty {
        self.select_with(mt, idx, None, None, mspan, span)
    }

    /// [`Checker::select`], the index types already found (`given`) or not, `hint` the
    /// element type the context expects.
    fn select_with(
        &mut self,
        mt: &Ty,
        idx: &[Expr],
        given: Option<&[Ty]>,
        hint: Option<&Ty>,
        mspan: Span,
        span: Span,
    ) -> Ty {
        let type_rest = |c: &mut Self| {
            if given.is_none() {
                idx.iter().for_each(|i| _ = c.expr(i));
            }
        };
        let m = match mt {
            Ty::Map(m) => m.clone(),
            Ty::Error => {
                type_rest(self);
                return Ty::Error;
            }
            _ => {
                type_rest(self);
                return self.type_error(
                    format!("cannot index into a value of type `{mt}`"),
                    mspan,
                    "only maps can be indexed",
                );
            }
        };
        if m.args.len() != idx.len() {
            type_rest(self);
            return self.type_error(
                format!("map of type `{mt}` takes {} {}, found {}", m.args.len(), indices(m.args.len()), idx.len()),
                span,
                "wrong number of indices",
            );
        }
        if m.tparams > 0 {
            return self.poly_select(&m, mt, idx, given, hint, span);
        }
        for (k, (i, at)) in idx.iter().zip(&m.args).enumerate() {
            let what = || format!("index {} of a map of type `{mt}`", k + 1);
            match given {
                None => _ = self.expect(i, at, what),
                Some(tys) if !tys[k].compatible(at) => self.mismatch(i.span, at, &tys[k], what()),
                Some(_) => {}
            }
        }
        m.result.clone()
    }

    /// A select or update of a polymorphic map `<a, ..>[args]result` (Leino and Rümmer, TACAS
    /// 2010, §2): its type parameters are instantiated by matching the argument types with the
    /// index types, then the result type with the expected type `hint`
    /// ([`Checker::close_from_context`]); the instantiation is recorded at `span`
    /// ([`Instance::select`]).
    fn poly_select(
        &mut self,
        m: &MapTy,
        mt: &Ty,
        idx: &[Expr],
        given: Option<&[Ty]>,
        hint: Option<&Ty>,
        span: Span,
    ) -> Ty {
        let mut inst = vec![None; m.tparams as usize];
        let (mut ok, mut erroneous) = (true, false);
        for (k, (i, at)) in idx.iter().zip(&m.args).enumerate() {
            let it = match given {
                Some(tys) => tys[k].clone(),
                None if (0..m.tparams).any(|b| at.has_bound(b)) => self.expr(i),
                None => self.expect(i, at, || format!("index {} of a map of type `{mt}`", k + 1)),
            };
            erroneous |= it.has_error();
            if !at.match_bound(&it, &mut inst) {
                let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
                self.mismatch(
                    i.span,
                    &at.instantiate_bound(&partial),
                    &it,
                    format!("index {} of a map of type `{mt}`", k + 1),
                );
                ok = false;
            }
        }
        if !ok || (erroneous && inst.iter().any(Option::is_none)) {
            return Ty::Error;
        }
        Self::close_from_context(m, hint, &mut inst);
        let tys: Vec<Ty> = inst.into_iter().flatten().collect();
        let result = m.result.instantiate_bound(&tys);
        self.instances.push(Instance { span, name: Name::default(), tys, kind: InstanceKind::Select(mt.clone()) });
        result
    }

    fn call_expr(&mut self, e: &Expr, f: &Ident, args: &[Expr]) -> Ty {
        let hint = self.hint.take();
        let env = self.env;
        let Some(fi) = env.function(&f.name) else {
            if let Some(t) = self.builtin_call(e, f, args) {
                return t;
            }
            for a in args {
                self.expr(a);
            }
            let label = if env.procedure(&f.name).is_some() {
                "this is a procedure: procedures are invoked with `call`"
            } else {
                "no function of this name is declared"
            };
            return self.type_error(format!("undeclared function `{}`", f.name), f.span, label);
        };
        if fi.params.len() != args.len() {
            for a in args {
                self.expr(a);
            }
            return self.type_error(
                format!(
                    "function `{}` takes {} argument{}, found {}",
                    f.name,
                    fi.params.len(),
                    plural_s(fi.params.len()),
                    args.len()
                ),
                e.span,
                "wrong number of arguments",
            );
        }
        if fi.type_params > 0 {
            let tys = self.poly_args(fi.type_params, &fi.params, args);
            let spans = args.iter().map(|a| a.span);
            let what = |k: usize| format!("argument {} of `{}`", k + 1, f.name);
            let Some(mut inst) = self.instantiate(fi.type_params, fi.params.iter().zip(&tys).zip(spans), what) else {
                return Ty::Error;
            };
            if let Some(h) = hint.filter(|_| inst.iter().any(Option::is_none)) {
                let mut more = inst.clone();
                if fi.result.match_params(&h, &mut more) {
                    inst = more;
                }
            }
            let open_ok = tys.iter().any(Ty::has_error);
            return self.record_instance(e.span, f, inst, open_ok).map_or(Ty::Error, |tys| fi.result.substitute(&tys));
        }
        for (k, (a, pt)) in args.iter().zip(&fi.params).enumerate() {
            self.expect(a, pt, || format!("argument {} of `{}`", k + 1, f.name));
        }
        fi.result.clone()
    }

    /// The types of the arguments of a polymorphic function: applications last, each with the
    /// type its parameter has under what the other arguments determined (Boogie infers
    /// `Cons(x, Nil())`'s `Nil` from `x`).
    fn poly_args(&mut self, n: u32, params: &[Ty], args: &[Expr]) -> Vec<Ty> {
        let mut tys = vec![Ty::Error; args.len()];
        let mut inst = vec![None; n as usize];
        for (k, a) in args.iter().enumerate().filter(|(_, a)| !matches!(a.kind, ExprKind::Call(..))) {
            tys[k] = self.expr(a);
            params[k].match_params(&tys[k], &mut inst);
        }
        for (k, a) in args.iter().enumerate().filter(|(_, a)| matches!(a.kind, ExprKind::Call(..))) {
            let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
            let expected = params[k].substitute(&partial);
            if !expected.has_error() {
                self.hint = Some(expected);
            }
            tys[k] = self.expr(a);
            params[k].match_params(&tys[k], &mut inst);
        }
        tys
    }

    /// Boogie's type inference at a use of a polymorphic function or procedure with `n` type
    /// parameters: matches each signature type against the type found (at its span); a clash
    /// is a type error (labelled by `what` of its position). The partial instantiation, `None`
    /// after a clash.
    fn instantiate<'t>(
        &mut self,
        n: u32,
        pairs: impl Iterator<Item = ((&'t Ty, &'t Ty), Span)>,
        what: impl Fn(usize) -> String,
    ) -> Option<Vec<Option<Ty>>> {
        let mut inst = vec![None; n as usize];
        let mut ok = true;
        for (k, ((formal, actual), at)) in pairs.enumerate() {
            if !formal.match_params(actual, &mut inst) {
                let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
                self.mismatch(at, &formal.substitute(&partial), actual, what(k));
                ok = false;
            }
        }
        ok.then_some(inst)
    }

    /// Records the instantiation of `f` at `span`. A type parameter left open is `int`, as in
    /// Boogie 2.4.1 ("type parameter a is ambiguous, instantiating to int"), unless `open_ok`:
    /// an erroneous argument, already reported, left it open (then `None`).
    fn record_instance(&mut self, span: Span, f: &Ident, inst: Vec<Option<Ty>>, open_ok: bool) -> Option<Vec<Ty>> {
        if open_ok && inst.iter().any(Option::is_none) {
            return None;
        }
        let tys: Vec<Ty> = inst.into_iter().map(|t| t.unwrap_or(Ty::Int)).collect();
        self.instances.push(Instance { span, name: f.name.clone(), tys: tys.clone(), kind: InstanceKind::Use });
        Some(tys)
    }

    /// `int(e)`, `real(e)` and the GPU specification built-ins; `None` if `f` is none of them.
    fn builtin_call(&mut self, e: &Expr, f: &Ident, args: &[Expr]) -> Option<Ty> {
        let name = f.name.as_str();
        let arity = |this: &mut Self, n: usize| -> bool {
            if args.len() != n {
                for a in args {
                    this.expr(a);
                }
                this.type_error(
                    format!("`{name}` takes {n} argument{}, found {}", plural_s(n), args.len()),
                    e.span,
                    "wrong number of arguments",
                );
                false
            } else {
                true
            }
        };
        match name {
            "int" | "real" => {
                if !arity(self, 1) {
                    return Some(if name == "int" { Ty::Int } else { Ty::Real });
                }
                let (from, to) = if name == "int" { (Ty::Real, Ty::Int) } else { (Ty::Int, Ty::Real) };
                self.expect(&args[0], &from, || format!("`{name}(e)` converts a `{from}` to `{to}`"));
                Some(to)
            }
            _ if SPEC_BUILTINS.contains(&name) => {
                if !self.ctx.spec {
                    self.type_error(
                        format!("the specification built-in `{name}` cannot be used here"),
                        f.span,
                        "allowed only in contracts, loop and barrier invariants, assertions and assumptions",
                    );
                }
                let n = match name {
                    "__enabled" => 0,
                    "__taken" => 3,
                    _ => 1,
                };
                if !arity(self, n) {
                    return Some(Ty::Error);
                }
                Some(match name {
                    "__enabled" => Ty::Bool,
                    "__taken" => self.taken(args),
                    "__other" => self.expr(&args[0]),
                    "__uniform" => {
                        self.expr(&args[0]);
                        Ty::Bool
                    }
                    _ => {
                        let mt = self.shared_array_arg(name, &args[0]);
                        if name.ends_with("_offset") {
                            match mt.as_map() {
                                Some(m) if m.args.len() == 1 => m.args[0].clone(),
                                Some(_) => {
                                    self.report(Diagnostic::unsupported(
                                        format!("`{name}` of a map with several indices is not supported"),
                                        args[0].span,
                                    ));
                                    Ty::Error
                                }
                                None => Ty::Error,
                            }
                        } else {
                            Ty::Bool
                        }
                    }
                })
            }
            _ => None,
        }
    }

    /// `__taken(A, i, v)`: `A` a shared array with one index, `i` of its index type, `v` of its
    /// element type.
    fn taken(&mut self, args: &[Expr]) -> Ty {
        let mt = self.shared_array_arg("__taken", &args[0]);
        match mt.as_map() {
            Some(m) if m.args.len() == 1 => {
                let (index, elem) = (m.args[0].clone(), m.result.clone());
                self.expect(&args[1], &index, || "the index of `__taken(A, i, v)` has `A`'s index type".to_string());
                self.expect(&args[2], &elem, || "the value of `__taken(A, i, v)` has `A`'s element type".to_string());
            }
            Some(_) => self.report(Diagnostic::unsupported(
                "`__taken` of a map with several indices is not supported",
                args[0].span,
            )),
            None => {}
        }
        Ty::Bool
    }

    /// The argument of `__read(A)` and friends: a global variable of map type.
    fn shared_array_arg(&mut self, builtin: &str, a: &Expr) -> Ty {
        let msg = || format!("the argument of `{builtin}` must be a shared array (a global variable of map type)");
        let ExprKind::Var(id) = &a.kind else {
            self.expr(a);
            return self.type_error(msg(), a.span, "not a variable name");
        };
        match self.lookup(&id.name) {
            Some(VarRef::Global(g)) if !g.is_const() && g.ty.as_map().is_some() => g.ty.clone(),
            Some(VarRef::Global(g)) if !g.is_const() && g.ty.is_error() => Ty::Error,
            None => self.var(id),
            Some(_) => self.type_error(msg(), a.span, "not a global variable of map type"),
        }
    }

    fn quant(&mut self, e: &Expr, q: &Quantifier) -> Ty {
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

    /// Resolves and type-checks attribute arguments, and the attributes whose arguments Boogie
    /// checks: `{:verified_under e}` (one `bool`) and `{:nopats e}` (one expression).
    pub fn attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            let one_expr = matches!(a.args.as_slice(), [AttrArg::Expr(_)]);
            match a.name.as_str() {
                "verified_under" if !one_expr => {
                    self.type_error(
                        "attribute `{:verified_under}` takes exactly one argument, of type `bool`",
                        a.span,
                        "write `{:verified_under e}`",
                    );
                }
                "verified_under" => {
                    if let [AttrArg::Expr(e)] = a.args.as_slice() {
                        let saved = self.ctx;
                        self.ctx = Ctx::ATTR;
                        self.expect_bool(e, "the argument of `{:verified_under}`");
                        self.ctx = saved;
                    }
                }
                "minimize" | "maximize" if a.args.len() != 1 => {
                    self.type_error(
                        format!("attribute `{{:{}}}` takes exactly one argument", a.name.name),
                        a.span,
                        "one expression to optimize",
                    );
                }
                "nopats" if !one_expr => {
                    self.type_error(
                        "attribute `{:nopats}` takes exactly one expression",
                        a.span,
                        "write one `{:nopats e}` per excluded pattern",
                    );
                }
                _ => {}
            }
        }
        if attrs
            .iter()
            .all(|a| a.name.as_str() == "verified_under" || a.args.iter().all(|x| matches!(x, AttrArg::String(..))))
        {
            return;
        }
        let saved = self.ctx;
        self.ctx = Ctx { no_old: None, no_globals: None, spec: true, trigger: false };
        for a in attrs.iter().filter(|a| a.name.as_str() != "verified_under") {
            let optimize = matches!(a.name.as_str(), "minimize" | "maximize") && a.args.len() == 1;
            for arg in &a.args {
                if let AttrArg::Expr(x) = arg {
                    let t = self.expr(x);
                    if optimize && !matches!(t, Ty::Int | Ty::Real | Ty::Bv(_) | Ty::Error) {
                        self.type_error(
                            format!(
                                "the argument of `{{:{}}}` must be of type `int`, `real` or `bvN`, found `{t}`",
                                a.name.name
                            ),
                            x.span,
                            "the value to optimize",
                        );
                    }
                }
            }
        }
        self.ctx = saved;
    }

    // -----------------------------------------------------------------------------------------
    // Statements
    // -----------------------------------------------------------------------------------------

    /// Checks a body (`{ var ...; stmts }`) in the current scope (parameters declared).
    pub fn body(&mut self, body: &Body) {
        for decl in &body.locals {
            self.attrs(&decl.attrs);
            let tys = self.var_types(decl.vars.iter().map(|v| &v.ty));
            for (v, ty) in decl.vars.iter().zip(tys) {
                self.declare(&v.name, ty, LocalKind::Local);
                self.attrs(&v.attrs);
            }
        }
        let saved = self.ctx;
        self.ctx = Ctx { no_old: Some("a `where` clause"), no_globals: None, spec: false, trigger: false };
        for decl in &body.locals {
            for v in &decl.vars {
                if let Some(w) = &v.where_clause {
                    self.expect_bool(w, "a `where` clause");
                }
            }
        }
        self.ctx = saved;
        self.labels.clear();
        self.collect_labels(&body.stmts);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cuts =
            if threads < 2 { Vec::new() } else { parallel_cuts(&body.stmts, crate::parallel::parts_for(threads)) };
        if cuts.is_empty() {
            self.stmts(&body.stmts);
        } else {
            self.stmts_in_parts(&body.stmts, &cuts, threads);
        }
    }

    /// Checks the parts of `ss` between `cuts` on `threads` threads, which take the parts in
    /// turn ([`crate::parallel::in_turn`]), then gathers the diagnostics in statement order.
    /// This equals `self.stmts(ss)`: between two top-level statements that are not separated
    /// by a label, the only state the checker carries is read-only (the scope, the labels
    /// collected beforehand, the context), `enclosing_labels` is empty and `loop_depth` is 0,
    /// so every part starts from exactly the state a sequential check would have there,
    /// whichever copy of the checker takes it.
    fn stmts_in_parts(&mut self, ss: &[Stmt], cuts: &[usize], threads: usize) {
        let mut bounds = vec![0];
        bounds.extend(cuts);
        bounds.push(ss.len());
        // Own copies of the types: cloning a map type bumps a reference count, and threads
        // bumping the same counts for every variable they look up made checking a third slower.
        let env = self.env.unshared();
        let mut worker = Checker { diags: Vec::new(), errors: 0, instances: Vec::new(), ..self.clone() };
        worker.env = &env;
        for l in worker.scope.values_mut() {
            l.ty = l.ty.unshared();
        }
        let workers = vec![worker; threads];
        let parts = crate::parallel::in_turn(bounds.len() - 1, workers, |c, k| {
            c.stmts(&ss[bounds[k]..bounds[k + 1]]);
            (std::mem::take(&mut c.diags), std::mem::take(&mut c.errors), std::mem::take(&mut c.instances))
        })
        .unwrap_or_else(|p| std::panic::resume_unwind(p));
        for (diags, errors, instances) in parts {
            self.diags.extend(diags);
            self.errors += errors;
            self.instances.extend(instances);
        }
    }

    fn collect_labels(&mut self, ss: &[Stmt]) {
        for s in ss {
            match &s.kind {
                StmtKind::Label(l) => {
                    if let Some(prev) = self.labels.get(&l.name) {
                        let d = Diagnostic::type_error(format!("duplicate label `{}`", l.name), l.span)
                            .with_label("declared again here")
                            .with_related(*prev, "first declared here");
                        self.report(d);
                    } else {
                        self.labels.insert(l.name.clone(), l.span);
                    }
                }
                StmtKind::If { then, els, .. } => {
                    self.collect_labels(then);
                    let mut e = els.as_ref();
                    while let Some(x) = e {
                        match x {
                            Else::Block(b) => {
                                self.collect_labels(b);
                                e = None;
                            }
                            Else::If(s) => {
                                self.collect_labels(std::slice::from_ref(s));
                                e = None;
                            }
                        }
                    }
                }
                StmtKind::While { body, .. } | StmtKind::Block(body) => self.collect_labels(body),
                _ => {}
            }
        }
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        let mut pending = 0usize;
        for s in ss {
            if let StmtKind::Label(l) = &s.kind {
                self.enclosing_labels.push(l.name.clone());
                pending += 1;
                continue;
            }
            // Labels written right before a structured statement name it (targets of `break L`).
            let structured = matches!(s.kind, StmtKind::If { .. } | StmtKind::While { .. } | StmtKind::Block(_));
            if !structured {
                let n = self.enclosing_labels.len();
                self.enclosing_labels.truncate(n - pending);
                pending = 0;
            }
            self.stmt(s);
            let n = self.enclosing_labels.len();
            self.enclosing_labels.truncate(n - pending);
            pending = 0;
        }
        let n = self.enclosing_labels.len();
        self.enclosing_labels.truncate(n - pending);
    }

    fn with_ctx(&mut self, ctx: Ctx, f: impl FnOnce(&mut Self)) {
        let saved = self.ctx;
        self.ctx = ctx;
        f(self);
        self.ctx = saved;
    }

    fn spec_ctx(&self) -> Ctx {
        Ctx { spec: true, ..self.ctx }
    }

    pub(crate) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Label(_) => {}
            StmtKind::Assign { lhss, rhss } => self.assign(s, lhss, rhss),
            StmtKind::Havoc(ids) => {
                self.distinct_targets(ids.iter(), "havoc");
                for id in ids {
                    self.target(id, "havoc");
                }
            }
            StmtKind::Assert { attrs, expr } | StmtKind::Assume { attrs, expr } => {
                self.attrs(attrs);
                let what = if matches!(s.kind, StmtKind::Assert { .. }) { "an assertion" } else { "an assumption" };
                self.with_ctx(self.spec_ctx(), |c| c.expect_bool(expr, what));
            }
            StmtKind::Call { attrs, outs, proc, args } => {
                self.attrs(attrs);
                self.call_stmt(s, outs, proc, args);
            }
            StmtKind::Goto(targets) => {
                for t in targets {
                    if !self.labels.contains_key(&t.name) {
                        self.type_error(
                            format!("undeclared label `{}`", t.name),
                            t.span,
                            "no statement of this procedure has this label",
                        );
                    }
                }
            }
            StmtKind::Return => {}
            StmtKind::Break(label) => match label {
                None if self.loop_depth == 0 => {
                    self.type_error("`break` outside a loop", s.span, "`break;` must be inside a `while` loop");
                }
                Some(l) if !self.enclosing_labels.contains(&l.name) => {
                    self.type_error(
                        format!("break label `{}` does not name an enclosing statement", l.name),
                        l.span,
                        "`break L;` needs `L:` right before an enclosing `if` or `while`",
                    );
                }
                _ => {}
            },
            StmtKind::If { cond, then, els } => {
                if let Some(c) = cond {
                    self.expect_bool(c, "the condition of `if`");
                }
                self.stmts(then);
                let mut e = els.as_ref();
                while let Some(x) = e {
                    match x {
                        Else::Block(b) => {
                            self.stmts(b);
                            e = None;
                        }
                        Else::If(s) => {
                            self.stmt(s);
                            e = None;
                        }
                    }
                }
            }
            StmtKind::While { cond, invariants, body } => {
                if let Some(c) = cond {
                    self.expect_bool(c, "the condition of `while`");
                }
                for inv in invariants {
                    self.attrs(&inv.attrs);
                    self.with_ctx(self.spec_ctx(), |c| c.expect_bool(&inv.expr, "a loop invariant"));
                }
                self.loop_depth += 1;
                self.stmts(body);
                self.loop_depth -= 1;
            }
            StmtKind::Barrier { attrs, invariants } => {
                self.attrs(attrs);
                for inv in invariants {
                    self.attrs(&inv.attrs);
                    self.with_ctx(self.spec_ctx(), |c| c.expect_bool(&inv.expr, "a barrier invariant"));
                }
            }
            StmtKind::Atomic(a) => self.atomic(a),
            StmtKind::Block(ss) => self.stmts(ss),
            StmtKind::Vector(v) => match v {
                VectorStmt::Assign { lhss, rhss } => self.assign(s, lhss, rhss),
                VectorStmt::Havoc(ids) => {
                    self.distinct_targets(ids.iter(), "havoc");
                    for id in ids {
                        self.target(id, "havoc");
                    }
                }
                VectorStmt::Psi { lhs, rhs } => self.assign(s, std::slice::from_ref(lhs), std::slice::from_ref(rhs)),
                VectorStmt::Assume(e) => self.with_ctx(self.spec_ctx(), |c| c.expect_bool(e, "an assumption")),
                VectorStmt::Assert(e) => self.with_ctx(self.spec_ctx(), |c| c.expect_bool(e, "an assertion")),
            },
        }
    }

    /// Reports a variable named twice among the targets of one statement.
    fn distinct_targets<'i>(&mut self, ids: impl Iterator<Item = &'i Ident>, what: &str) {
        let mut seen: Vec<&Ident> = Vec::new();
        for id in ids {
            if let Some(prev) = seen.iter().find(|p| p.name == id.name) {
                let d =
                    Diagnostic::type_error(format!("variable `{}` is assigned twice by one {what}", id.name), id.span)
                        .with_label("assigned again here")
                        .with_related(prev.span, "first assigned here");
                self.report(d);
            } else {
                seen.push(id);
            }
        }
    }

    /// A variable that a statement writes: must be a mutable variable; a global must be in the
    /// procedure's modifies clause (unless modifies clauses are inferred). Returns its type.
    fn target(&mut self, id: &Ident, what: &str) -> Ty {
        match self.lookup(&id.name) {
            None => self.var(id),
            Some(VarRef::Bound(t)) => {
                self.type_error(
                    format!("cannot {what} bound variable `{}`", id.name),
                    id.span,
                    "bound variables are immutable",
                );
                t
            }
            Some(VarRef::Local(t, LocalKind::In)) => {
                self.type_error(
                    format!("cannot {what} in-parameter `{}`", id.name),
                    id.span,
                    "in-parameters are immutable; copy it into a local variable",
                );
                t
            }
            Some(VarRef::Local(t, _)) => t,
            Some(VarRef::Global(g)) => {
                if let GlobalKind::Const { .. } = g.kind {
                    self.type_error(
                        format!("cannot {what} constant `{}`", id.name),
                        id.span,
                        "constants are immutable",
                    );
                } else if let Some(m) = &self.modifies {
                    if !m.contains(&id.name) {
                        let d = Diagnostic::type_error(
                            format!(
                                "global variable `{}` is modified but not in the modifies clause of `{}`",
                                id.name, self.proc_name
                            ),
                            id.span,
                        )
                        .with_label(format!("add `modifies {};` to procedure `{}`", id.name, self.proc_name));
                        self.report(d);
                    }
                }
                g.ty.clone()
            }
        }
    }

    fn assign(&mut self, s: &Stmt, lhss: &[Lhs], rhss: &[Expr]) {
        self.distinct_targets(lhss.iter().map(|l| &l.var), "parallel assignment");
        let tys = self.lhs_types(lhss);
        if lhss.len() != rhss.len() {
            for r in rhss {
                self.expr(r);
            }
            self.type_error(
                format!(
                    "{} left-hand side{} but {} right-hand side{}",
                    lhss.len(),
                    plural_s(lhss.len()),
                    rhss.len(),
                    plural_s(rhss.len())
                ),
                s.span,
                "a parallel assignment needs as many values as targets",
            );
            return;
        }
        for (k, (r, t)) in rhss.iter().zip(&tys).enumerate() {
            let name = &lhss[k].var.name;
            match t {
                Some(t) => _ = self.expect(r, t, || format!("assigned to `{name}`")),
                None => self.assign_to_open(&lhss[k], r),
            }
        }
    }

    /// `atomic x := op(A[i], args);` (docs/kbpl.md §3.4): `A` is a global variable, `A[i]` an
    /// `int` or a bit-vector (bit-vectors only for the bitwise, unsigned and float operations;
    /// `fadd` on `bv32` or `bv64`), every argument and `x` of the element's type.
    fn atomic(&mut self, a: &AtomicStmt) {
        if !matches!(self.lookup(&a.target.var.name), Some(VarRef::Global(_))) {
            self.type_error(
                format!("the target of an atomic operation must be a global variable, not `{}`", a.target.var.name),
                a.target.var.span,
                "atomics update shared memory",
            );
        }
        let mut t = self.target(&a.target.var, "update atomically");
        for idx in &a.target.indices {
            t = self.select(&t, idx, a.target.var.span, a.target.span);
        }
        let ok = match t {
            Ty::Error => true,
            Ty::Int => !a.op.bv_only(),
            Ty::Bv(w) => a.op != AtomicOp::FAdd || w == 32 || w == 64,
            _ => false,
        };
        if !ok {
            let need = match a.op {
                AtomicOp::FAdd => "a `bv32` or `bv64` element (a float)",
                op if op.bv_only() => "a bit-vector element",
                _ => "an `int` or bit-vector element",
            };
            self.type_error(
                format!("atomic `{}` needs {need}, found `{t}`", a.op.name()),
                a.target.span,
                "the element updated atomically",
            );
        }
        if a.args.len() != a.op.arity() {
            self.type_error(
                format!(
                    "atomic `{}` takes {} argument{} after the element, found {}",
                    a.op.name(),
                    a.op.arity(),
                    plural_s(a.op.arity()),
                    a.args.len()
                ),
                a.target.span,
                "the element",
            );
        }
        for e in &a.args {
            self.expect(e, &t, || format!("an argument of atomic `{}`", a.op.name()));
        }
        if let Some(x) = &a.out {
            if !matches!(self.lookup(&x.name), Some(VarRef::Local(..)) | None) {
                self.type_error(
                    format!(
                        "atomic `{}` returns the old value into `{}`, which is not a local variable",
                        a.op.name(),
                        x.name
                    ),
                    x.span,
                    "use a local variable",
                );
            }
            let xt = self.target(x, "assign to");
            if !xt.compatible(&t) {
                self.mismatch(x.span, &t, &xt, format!("the old value of the element of atomic `{}`", a.op.name()));
            }
        }
    }

    fn call_stmt(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, args: &[Expr]) {
        let env = self.env;
        let Some(pi) = env.procedure(&proc.name) else {
            for a in args {
                self.expr(a);
            }
            for o in outs {
                self.target(o, "assign to");
            }
            let label = if env.function(&proc.name).is_some() {
                "this is a function: use it in an expression"
            } else {
                "no procedure of this name is declared"
            };
            self.type_error(format!("call to undeclared procedure `{}`", proc.name), proc.span, label);
            return;
        };
        if pi.ins.len() != args.len() {
            for a in args {
                self.expr(a);
            }
            self.type_error(
                format!(
                    "procedure `{}` takes {} argument{}, found {}",
                    proc.name,
                    pi.ins.len(),
                    plural_s(pi.ins.len()),
                    args.len()
                ),
                s.span,
                "wrong number of arguments",
            );
        } else if pi.type_params > 0 {
            self.poly_call(s, outs, proc, args, pi);
            return;
        } else {
            for (a, (pn, pt)) in args.iter().zip(&pi.ins) {
                self.expect(a, pt, || format!("argument `{pn}` of `{}`", proc.name));
            }
        }
        self.call_outs(s, outs, proc, pi);
    }

    /// A call of a polymorphic procedure: the instantiation is inferred from the arguments and
    /// the receiving variables together.
    fn poly_call(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, args: &[Expr], pi: &ProcInfo) {
        let mut tys: Vec<Ty> = args.iter().map(|a| self.expr(a)).collect();
        let mut spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        let mut formals: Vec<&Ty> = pi.ins.iter().map(|(_, t)| t).collect();
        if pi.outs.len() == outs.len() {
            tys.extend(outs.iter().map(|o| self.target(o, "assign to")));
            spans.extend(outs.iter().map(|o| o.span));
            formals.extend(pi.outs.iter().map(|(_, t)| t));
        }
        let names: Vec<&Name> = pi.ins.iter().chain(&pi.outs).map(|(n, _)| n).collect();
        let what = |k: usize| format!("parameter `{}` of `{}`", names[k], proc.name);
        if let Some(inst) = self.instantiate(pi.type_params, formals.into_iter().zip(&tys).zip(spans), what) {
            let open_ok = tys.iter().any(Ty::has_error);
            self.record_instance(s.span, proc, inst, open_ok);
        }
        if pi.outs.len() == outs.len() {
            self.distinct_targets(outs.iter(), "call");
            self.call_modifies(s, proc, pi);
        } else {
            self.call_outs(s, outs, proc, pi);
        }
    }

    /// The receiving variables of a call and the call's modifies check.
    fn call_outs(&mut self, s: &Stmt, outs: &[Ident], proc: &Ident, pi: &ProcInfo) {
        self.distinct_targets(outs.iter(), "call");
        if pi.outs.len() != outs.len() {
            for o in outs {
                self.target(o, "assign to");
            }
            self.type_error(
                format!(
                    "procedure `{}` returns {} value{}, but the call receives {}",
                    proc.name,
                    pi.outs.len(),
                    plural_s(pi.outs.len()),
                    outs.len()
                ),
                s.span,
                "wrong number of result variables",
            );
        } else {
            for (o, (pn, pt)) in outs.iter().zip(&pi.outs) {
                let t = self.target(o, "assign to");
                if !t.compatible(pt) {
                    self.mismatch(o.span, pt, &t, format!("receives out-parameter `{pn}` of `{}`", proc.name));
                }
            }
        }
        self.call_modifies(s, proc, pi);
    }

    /// A call's callee may modify only what the caller's modifies clause allows.
    fn call_modifies(&mut self, s: &Stmt, proc: &Ident, pi: &ProcInfo) {
        let env = self.env;
        if let Some(m) = &self.modifies {
            let missing: Vec<&Name> =
                pi.modifies.iter().filter(|g| !m.contains(*g) && env.global_var(g).is_some()).collect();
            if !missing.is_empty() {
                let list = missing.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>().join(", ");
                let d = Diagnostic::type_error(
                    format!(
                        "call to `{}` modifies {list}, which the modifies clause of `{}` does not include",
                        proc.name, self.proc_name
                    ),
                    s.span,
                )
                .with_label(format!("`{}` may modify {list}", proc.name));
                self.report(d);
            }
        }
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

fn numeric_or_error(t: &Ty) -> bool {
    matches!(t, Ty::Int | Ty::Real | Ty::Error)
}

fn bv_or_error(t: &Ty) -> bool {
    matches!(t, Ty::Bv(_) | Ty::Error)
}

fn plural_s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn indices(n: usize) -> &'static str {
    if n == 1 {
        "index"
    } else {
        "indices"
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

/// The type of an expression whose free variables are globals of `env` or given by `locals`
/// (parameters and locals of the enclosing implementation). `None` if the expression does not
/// type-check. All contexts are allowed (`old`, built-ins): this is for passes and the
/// interpreter, which work on checked programs.
pub fn type_of(env: &GlobalEnv, locals: &(impl Fn(&str) -> Option<Ty> + Sync), e: &Expr) -> Option<Ty> {
    let mut c = Checker::new(env);
    c.quiet = true;
    c.external = Some(locals);
    c.ctx = Ctx::ATTR;
    let t = c.expr(e);
    (c.errors == 0).then_some(t)
}

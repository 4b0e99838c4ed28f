//! Resolution and type checking of expressions, statements and declarations against the item
//! index ([`GlobalEnv`]), following Boogie 2.4.1's resolution and type-checking rules (Leino,
//! "This is Boogie 2", §2–§5) plus the GPU built-ins of docs/kbpl.md §5.2.
//!
//! One walk does both jobs: every identifier is looked up (bound variables, then the
//! procedure's locals and parameters, then globals) and every expression gets a [`Ty`]. An
//! erroneous expression has type [`Ty::Error`], which is compatible with every type, so one
//! mistake is reported once.
//!
//! The checker's state and its shared helpers live here; its parts by what they check:
//! [`exprs`] (variables, literals, operators), [`calls`] (applications, built-ins and map
//! selects, with the inference of type parameters), [`quants`] (quantifiers and lambdas),
//! [`attrs`] (attributes), [`stmts`] (statements and bodies), [`context_select`] (selects typed
//! from their context), and the expression forms that the front end eliminates after checking:
//! [`code_exprs`] and [`lets`].

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::resolve::{GlobalEnv, GlobalInfo, GlobalKind, ProcInfo};
pub use crate::types::{MapTy, Ty};
use num_bigint::BigUint;
use rustc_hash::FxHashMap;
use std::collections::HashSet;

mod attrs;
mod calls;
mod code_exprs;
mod context_select;
mod exprs;
mod lets;
mod quants;
mod stmts;

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

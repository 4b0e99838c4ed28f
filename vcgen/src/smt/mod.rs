//! The Z3 encoding of `.kbpl` declarations and expressions (the "prover background" and the
//! terms of the verification condition of [`crate::wp`]).
//!
//! Types become sorts: `bool`, `int`, `real`, `bvN`, Boogie's `floatSeE` the FloatingPoint
//! sort `(_ FloatingPoint E S)` and `rmode` `RoundingMode` (float terms: [`crate::fp`]); a map
//! type `[A, B]R` becomes the curried array sort `(Array A (Array B R))` (so nested maps
//! `[A][B]R` and multi-argument maps share one encoding, and Boogie's extensional map equality
//! is array equality); a named type is resolved through its synonym or becomes an
//! uninterpreted sort (one per instantiation of its arguments). Polymorphic types and
//! functions are reported as unsupported.
//!
//! Declarations: constants become Z3 constants (`unique` ones pairwise `distinct` per type),
//! global variables become constants for their initial value, functions become uninterpreted
//! functions, except that `{:bvbuiltin "op"}` / `{:builtin "op"}` map to the SMT-LIB operator
//! (see [`Builtin`]; an unknown floating-point operator is unsupported; another unknown
//! operator stays uninterpreted, which can only make a program look buggy, never hide a bug,
//! and is noted), `{:inline}` functions are macro-expanded, and other functions with bodies
//! get a defining axiom `forall xs :: {f(xs)} f(xs) == body`. A `lambda` becomes a fresh
//! function of the enclosing bound variables it uses, defined by a triggered axiom (Boogie's
//! lambda lifting), handed to the caller with the expression.
//!
//! Z3 ASTs are built in the calling thread's context (the `z3` crate's thread-local context):
//! an [`Encoder`] must stay in the thread that created it. Sorts are checked before every Z3
//! call, so that ill-typed input yields a [`Diagnostic`] instead of a Z3 error.
//!
//! The parts: [`sorts`] (types and their sorts), [`decls`] (the prover background: constants,
//! functions, axioms), [`exprs`] (the terms of expressions), [`quants`] (quantifiers, triggers,
//! lambdas) and [`builtins`] (the SMT-LIB operators of `{:bvbuiltin}` / `{:builtin}`).

use crate::HashMap;
use crate::HashSet;
use ivl::ast::*;
use ivl::diag::Diagnostic;
use std::rc::Rc;
use std::str::FromStr;
use z3::ast::{Ast, Bool, Dynamic, Int, Real, BV};
use z3::{DeclKind as Z3DeclKind, FuncDecl, Pattern, Sort, Symbol};

mod builtins;
mod decls;
mod exprs;
mod quants;
mod sorts;

pub use builtins::{apply_builtin, Builtin};
pub use decls::is_existential;
pub use sorts::{RType, TypeEnv};

/// How a function application is encoded.
enum FnImpl<'p> {
    Uninterpreted(Rc<FuncDecl>),
    Builtin(Builtin),
    /// `{:inline}` with a body: expanded at each use.
    Inline(&'p FunctionDecl),
}

struct FnEntry<'p> {
    params: Vec<Sort>,
    result: Sort,
    imp: FnImpl<'p>,
}

/// Variables in scope while encoding: the implementation's variables and incarnations, then
/// bound variables (innermost last), which shadow them.
#[derive(Default)]
pub struct Scope<'a> {
    pub vars: Option<&'a HashMap<Name, Dynamic>>,
    bound: Vec<(Name, Dynamic)>,
}

impl<'a> Scope<'a> {
    pub fn new(vars: &'a HashMap<Name, Dynamic>) -> Scope<'a> {
        Scope { vars: Some(vars), bound: Vec::new() }
    }
    pub fn empty() -> Scope<'a> {
        Scope { vars: None, bound: Vec::new() }
    }
    fn lookup(&self, name: &str) -> Option<&Dynamic> {
        if let Some((_, d)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return Some(d);
        }
        self.vars.and_then(|v| v.get(name))
    }
}

/// The program-level part of the encoding, living in the current thread's Z3 context.
pub struct Encoder<'p> {
    pub types: TypeEnv,
    sorts: HashMap<RType, Sort>,
    /// Constants and global variables (the latter's initial values).
    consts: HashMap<Name, Dynamic>,
    /// Declared types of constants and globals.
    const_types: HashMap<Name, RType>,
    funcs: HashMap<Name, FnEntry<'p>>,
    /// Axioms, `unique` distinctness and function definitions.
    pub background: Vec<Bool>,
    /// Notes for the user (unknown builtins treated as uninterpreted, dropped triggers).
    pub notes: Vec<Diagnostic>,
    inline_depth: usize,
    /// Z3 constants standing for the variables of the enclosing quantifiers and lambdas.
    qbound: Vec<Dynamic>,
    /// Axioms made while encoding (lambda definitions), not yet handed out: see
    /// [`Encoder::take_side_axioms`].
    side: Vec<Bool>,
    lambdas: usize,
    /// Functions declared `{:never_pattern}` ([`crate::no_patterns`]).
    never_pattern: HashSet<Name>,
}

/// Largest number of nested `{:inline}` function expansions (guards against recursion).
const MAX_INLINE_DEPTH: usize = 64;

/// Whether a function is `{:inline}` (and not `{:inline false}`): its applications are its body.
pub(crate) fn is_inline(attrs: &[Attribute]) -> bool {
    match find_attr(attrs, "inline") {
        None => false,
        Some(a) => !matches!(a.args.first(), Some(AttrArg::Expr(Expr { kind: ExprKind::BoolLit(false), .. }))),
    }
}

fn string_attr<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a str> {
    match find_attr(attrs, name)?.args.first() {
        Some(AttrArg::String(s, _)) => Some(s.as_str()),
        _ => None,
    }
}

fn type_mismatch(what: &str, got: &Dynamic, span: Span) -> Diagnostic {
    Diagnostic::type_error(format!("{what} (got sort {})", got.get_sort()), span)
}

pub fn as_bool(d: &Dynamic, span: Span) -> Result<Bool, Diagnostic> {
    d.as_bool().ok_or_else(|| type_mismatch("expected a boolean", d, span))
}

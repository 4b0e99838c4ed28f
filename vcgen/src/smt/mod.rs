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

use crate::HashMap;
use crate::HashSet;
use ivl::ast::*;
use ivl::diag::Diagnostic;
use std::rc::Rc;
use std::str::FromStr;
use z3::ast::{Ast, Bool, Dynamic, Int, Real, BV};
use z3::{DeclKind as Z3DeclKind, FuncDecl, Pattern, Sort, Symbol};

/// A type with synonyms expanded: the key of the sort cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RType {
    Bool,
    Int,
    Real,
    Bv(u32),
    /// Boogie's `floatSeE`: significand bits `S` (with the hidden bit), exponent bits `E`.
    Float(u32, u32),
    /// Boogie's `rmode`: SMT-LIB's `RoundingMode`.
    RMode,
    /// An uninterpreted type applied to arguments.
    Named(Name, Vec<RType>),
    Map(Vec<RType>, Box<RType>),
}

impl RType {
    /// The name of the uninterpreted sort of a named type instance: `T`, `T<int,bool>`.
    fn sort_name(name: &str, args: &[RType]) -> String {
        if args.is_empty() {
            name.to_string()
        } else {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{}<{}>", name, args.join(","))
        }
    }
}

impl std::fmt::Display for RType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RType::Bool => write!(f, "bool"),
            RType::Int => write!(f, "int"),
            RType::Real => write!(f, "real"),
            RType::Bv(n) => write!(f, "bv{n}"),
            RType::Float(s, e) => write!(f, "float{s}e{e}"),
            RType::RMode => write!(f, "rmode"),
            RType::Named(n, args) => write!(f, "{}", RType::sort_name(n, args)),
            RType::Map(args, r) => {
                let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                write!(f, "[{}]{}", args.join(","), r)
            }
        }
    }
}

/// Type declarations of a program: synonyms and uninterpreted types.
#[derive(Default)]
pub struct TypeEnv {
    synonyms: HashMap<Name, (Vec<Name>, Type)>,
    arities: HashMap<Name, usize>,
}

impl TypeEnv {
    pub fn new(program: &Program) -> TypeEnv {
        let mut env = TypeEnv::default();
        for d in &program.decls {
            if let DeclKind::Type(t) = &d.kind {
                let params = t.params.iter().map(|p| p.name.clone()).collect();
                match &t.synonym {
                    Some(s) => {
                        env.synonyms.insert(t.name.name.clone(), (params, s.clone()));
                    }
                    None => {
                        env.arities.insert(t.name.name.clone(), t.params.len());
                    }
                }
            }
        }
        env
    }

    pub fn resolve(&self, t: &Type) -> Result<RType, Diagnostic> {
        self.resolve_in(t, &HashMap::default(), 0)
    }

    fn resolve_in(&self, t: &Type, subst: &HashMap<Name, RType>, depth: usize) -> Result<RType, Diagnostic> {
        if depth > 64 {
            return Err(Diagnostic::type_error("type synonym expands without end", t.span));
        }
        Ok(match &t.kind {
            TypeKind::Bool => RType::Bool,
            TypeKind::Int => RType::Int,
            TypeKind::Real => RType::Real,
            TypeKind::Bv(n) => {
                if *n == 0 {
                    return Err(Diagnostic::unsupported("bit-vectors of width 0 are not supported", t.span));
                }
                RType::Bv(*n)
            }
            TypeKind::Map { type_params, args, result } => {
                if !type_params.is_empty() {
                    return Err(Diagnostic::unsupported("polymorphic map types are not supported", t.span));
                }
                let args = args.iter().map(|a| self.resolve_in(a, subst, depth + 1)).collect::<Result<_, _>>()?;
                RType::Map(args, Box::new(self.resolve_in(result, subst, depth + 1)?))
            }
            TypeKind::Named(name, args) => {
                if let Some(r) = subst.get(&name.name) {
                    if !args.is_empty() {
                        return Err(Diagnostic::type_error("a type parameter takes no arguments", t.span));
                    }
                    return Ok(r.clone());
                }
                let args: Vec<RType> =
                    args.iter().map(|a| self.resolve_in(a, subst, depth + 1)).collect::<Result<_, _>>()?;
                if let Some((params, body)) = self.synonyms.get(&name.name) {
                    if params.len() != args.len() {
                        return Err(Diagnostic::type_error(
                            format!("type `{}` expects {} arguments, got {}", name.name, params.len(), args.len()),
                            t.span,
                        ));
                    }
                    let inner: HashMap<Name, RType> = params.iter().cloned().zip(args).collect();
                    return self.resolve_in(body, &inner, depth + 1);
                }
                match self.arities.get(&name.name) {
                    Some(&n) if n == args.len() => RType::Named(name.name.clone(), args),
                    Some(&n) => {
                        return Err(Diagnostic::type_error(
                            format!("type `{}` expects {} arguments, got {}", name.name, n, args.len()),
                            t.span,
                        ))
                    }
                    // Boogie's `floatSeE` and `rmode` ([`ivl::floats`]).
                    None if args.is_empty() && name.name == "rmode" => RType::RMode,
                    None if args.is_empty() && ivl::floats::type_sizes(&name.name).is_some() => {
                        let (s, e) = ivl::floats::type_sizes(&name.name).expect("checked");
                        if !(2..=64).contains(&e) || !(2..=1 << 20).contains(&s) {
                            return Err(Diagnostic::unsupported(
                                format!("the float type `{}` has no SMT-LIB sort (sizes 2 to 64 exponent bits, at least 2 significand bits)", name.name),
                                t.span,
                            ));
                        }
                        RType::Float(s, e)
                    }
                    None => return Err(Diagnostic::type_error(format!("unknown type `{}`", name.name), name.span)),
                }
            }
        })
    }
}

/// An SMT-LIB operator named by `{:bvbuiltin}` / `{:builtin}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A bit-vector operator with only bit-vector operands of one width, by SMT-LIB name.
    Bv(&'static str),
    ZeroExtend(u32),
    SignExtend(u32),
    /// `extract i j`: bits `i` down to `j`.
    Extract(u32, u32),
    RotateLeft(u32),
    RotateRight(u32),
    /// `concat`
    Concat,
    /// An integer/real/boolean operator by SMT-LIB name.
    Arith(&'static str),
    /// A floating-point operator, with the arguments written after it ([`crate::fp`]).
    Fp(crate::fp::FpBuiltin),
}

const BV_OPS: &[&str] = &[
    "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvneg", "bvand", "bvor", "bvxor",
    "bvnot", "bvnand", "bvnor", "bvxnor", "bvshl", "bvlshr", "bvashr", "bvult", "bvule", "bvugt", "bvuge", "bvslt",
    "bvsle", "bvsgt", "bvsge", "bvcomp",
];

const ARITH_OPS: &[&str] = &[
    "+", "-", "*", "div", "mod", "rem", "/", "<", "<=", ">", ">=", "to_real", "to_int", "is_int", "abs", "=", "not",
    "and", "or", "=>", "xor", "ite",
];

impl Builtin {
    /// Parses the attribute argument (`"bvadd"`, `"zero_extend 24"`, `"(_ extract 7 0)"`).
    pub fn parse(op: &str) -> Option<Builtin> {
        if let Some(fp) = crate::fp::FpBuiltin::parse(op) {
            return Some(Builtin::Fp(fp));
        }
        let cleaned = op.trim().trim_start_matches('(').trim_end_matches(')').trim();
        let cleaned = cleaned.strip_prefix('_').map(str::trim).unwrap_or(cleaned);
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u32>().ok());
        match words.as_slice() {
            [w] => {
                if let Some(o) = BV_OPS.iter().find(|o| **o == *w) {
                    Some(Builtin::Bv(o))
                } else if *w == "concat" {
                    Some(Builtin::Concat)
                } else {
                    ARITH_OPS.iter().find(|o| **o == *w).map(|o| Builtin::Arith(o))
                }
            }
            ["zero_extend", _] => num(1).map(Builtin::ZeroExtend),
            ["sign_extend", _] => num(1).map(Builtin::SignExtend),
            ["rotate_left", _] => num(1).map(Builtin::RotateLeft),
            ["rotate_right", _] => num(1).map(Builtin::RotateRight),
            ["extract", _, _] => Some(Builtin::Extract(num(1)?, num(2)?)),
            _ => None,
        }
    }
}

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

impl<'p> Encoder<'p> {
    /// Declares everything in `program` except procedures and implementations. Errors are
    /// collected; the encoder is usable for the declarations that succeeded.
    pub fn new(program: &'p Program) -> Result<Encoder<'p>, Vec<Diagnostic>> {
        let mut enc = Encoder {
            types: TypeEnv::new(program),
            sorts: HashMap::default(),
            consts: HashMap::default(),
            const_types: HashMap::default(),
            funcs: HashMap::default(),
            background: Vec::new(),
            notes: Vec::new(),
            inline_depth: 0,
            qbound: Vec::new(),
            side: Vec::new(),
            lambdas: 0,
            never_pattern: crate::no_patterns::never_pattern_functions(program),
        };
        let mut errors = Vec::new();
        let mut uniques: Vec<(RType, Vec<Dynamic>)> = Vec::new();
        // Constants, globals and function signatures first: axioms and bodies refer to them.
        for d in &program.decls {
            match &d.kind {
                DeclKind::Const(c) => match enc.types.resolve(&c.ty) {
                    Ok(rt) => {
                        if c.order_spec.is_some() {
                            errors.push(Diagnostic::unsupported("`extends` (partial orders) is not supported", d.span));
                        }
                        let sort = enc.sort(&rt);
                        for n in &c.names {
                            let k = Dynamic::new_const(n.name.as_str(), &sort);
                            if c.unique {
                                match uniques.iter_mut().find(|(t, _)| *t == rt) {
                                    Some((_, v)) => v.push(k.clone()),
                                    None => uniques.push((rt.clone(), vec![k.clone()])),
                                }
                            }
                            enc.consts.insert(n.name.clone(), k);
                            enc.const_types.insert(n.name.clone(), rt.clone());
                        }
                    }
                    Err(e) => errors.push(e),
                },
                DeclKind::Var(v) => {
                    for x in &v.vars {
                        match enc.types.resolve(&x.ty) {
                            Ok(rt) => {
                                let sort = enc.sort(&rt);
                                enc.consts.insert(x.name.name.clone(), Dynamic::new_const(x.name.name.as_str(), &sort));
                                enc.const_types.insert(x.name.name.clone(), rt);
                            }
                            Err(e) => errors.push(e),
                        }
                    }
                }
                DeclKind::Function(f) => {
                    if let Err(e) = enc.declare_function(f) {
                        errors.push(e);
                    }
                }
                _ => {}
            }
        }
        for (_, ks) in &uniques {
            if ks.len() > 1 {
                enc.background.push(Dynamic::distinct(ks));
            }
        }
        for d in &program.decls {
            match &d.kind {
                DeclKind::Axiom(a) => {
                    match enc.constant_map_axiom(&a.expr).unwrap_or_else(|| enc.bool_expr(&a.expr, &mut Scope::empty()))
                    {
                        Ok(b) => enc.background.push(b),
                        Err(e) => errors.push(e),
                    }
                }
                DeclKind::Function(f) => {
                    if let Err(e) = enc.define_function(f) {
                        errors.push(e);
                    }
                }
                _ => {}
            }
        }
        let side = enc.take_side_axioms();
        enc.background.extend(side);
        if errors.is_empty() {
            Ok(enc)
        } else {
            Err(errors)
        }
    }

    /// `forall x1, …, xn :: C[x1, …, xn] == k` with `C` a constant map and `k` free of the `xi`
    /// (how instrumentations declare an all-zero map) as `C == K(k)`, Z3's constant array. The
    /// two are equivalent under extensionality, but the quantifier would make every satisfiable
    /// query end in "unknown (incomplete quantifiers)" instead of a counterexample.
    fn constant_map_axiom(&mut self, e: &Expr) -> Option<Result<Bool, Diagnostic>> {
        let ExprKind::Quant(q) = &e.kind else { return None };
        if q.kind != QuantKind::Forall || !q.type_params.is_empty() {
            return None;
        }
        let ExprKind::Binary(BinOp::Eq, l, r) = &q.body.kind else { return None };
        let bound: Vec<&Name> = q.vars.iter().map(|v| &v.name.name).collect();
        let is_cell = |x: &Expr| match &x.kind {
            ExprKind::Select(m, args) => {
                matches!(&m.kind, ExprKind::Var(c) if !bound.contains(&&c.name))
                    && args.len() == bound.len()
                    && args.iter().zip(&bound).all(|(a, b)| matches!(&a.kind, ExprKind::Var(v) if &v.name == *b))
            }
            _ => false,
        };
        let (cell, value) = if is_cell(l) {
            (l, r)
        } else if is_cell(r) {
            (r, l)
        } else {
            return None;
        };
        if ivl::visit::free_vars(&**value).iter().any(|v| bound.contains(&v)) {
            return None;
        }
        let ExprKind::Select(m, _) = &cell.kind else { return None };
        let ExprKind::Var(c) = &m.kind else { return None };
        let RType::Map(dom, _) = self.const_types.get(&c.name)?.clone() else { return None };
        if dom.len() != bound.len() {
            return None;
        }
        let array = self.consts.get(&c.name)?.clone();
        Some(self.expr(value, &mut Scope::empty()).map(|k| {
            let filled = dom.iter().rev().fold(k, |v, d| {
                let sort = self.sort(d);
                Dynamic::from_ast(&z3::ast::Array::const_array(&sort, &v))
            });
            array.eq(&filled)
        }))
    }

    /// Axioms that the expressions encoded since the last call need (the definitions of their
    /// lambdas); the caller asserts them with the expressions.
    pub fn take_side_axioms(&mut self) -> Vec<Bool> {
        std::mem::take(&mut self.side)
    }

    /// The sort of a resolved type (cached).
    pub fn sort(&mut self, t: &RType) -> Sort {
        if let Some(s) = self.sorts.get(t) {
            return s.clone();
        }
        let s = match t {
            RType::Bool => Sort::bool(),
            RType::Int => Sort::int(),
            RType::Real => Sort::real(),
            RType::Bv(n) => Sort::bitvector(*n),
            RType::Float(s, e) => Sort::float(*e, *s),
            RType::RMode => z3::ast::RoundingMode::round_nearest_ties_to_even().get_sort(),
            RType::Named(n, args) => Sort::uninterpreted(Symbol::String(RType::sort_name(n, args))),
            RType::Map(args, r) => {
                let mut s = self.sort(r);
                for a in args.iter().rev() {
                    let d = self.sort(a);
                    s = Sort::array(&d, &s);
                }
                s
            }
        };
        self.sorts.insert(t.clone(), s.clone());
        s
    }

    /// The sort of a declared type.
    pub fn sort_of(&mut self, t: &Type) -> Result<Sort, Diagnostic> {
        let r = self.types.resolve(t)?;
        Ok(self.sort(&r))
    }

    /// The Z3 constant of a program constant or global (initial value).
    pub fn constant(&self, name: &str) -> Option<&Dynamic> {
        self.consts.get(name)
    }

    /// Whether `name` is a program-level constant, global or function (so that local variables
    /// of the same name need a distinct Z3 symbol).
    pub fn is_global_name(&self, name: &str) -> bool {
        self.consts.contains_key(name) || self.funcs.contains_key(name)
    }

    fn declare_function(&mut self, f: &'p FunctionDecl) -> Result<(), Diagnostic> {
        if !f.type_params.is_empty() {
            return Err(Diagnostic::unsupported("polymorphic functions are not supported", f.name.span));
        }
        let mut params = Vec::new();
        for p in &f.params {
            params.push(self.sort_of(&p.ty)?);
        }
        let result = self.sort_of(&f.result.ty)?;
        let builtin = string_attr(&f.attrs, "bvbuiltin").or_else(|| string_attr(&f.attrs, "builtin"));
        let imp = if let Some(op) = builtin {
            match Builtin::parse(op) {
                Some(b) => FnImpl::Builtin(b),
                // An unknown operator on floats or rounding modes: refused, not approximated.
                None if params.iter().chain([&result]).any(crate::fp::is_fp_sort) => {
                    return Err(Diagnostic::unsupported(
                        format!("the floating-point builtin `{op}` of function `{}` is not supported", f.name.name),
                        f.name.span,
                    ));
                }
                None => {
                    self.notes.push(
                        Diagnostic::new(
                            ivl::diag::ErrorKind::Unsupported,
                            format!("unknown builtin `{op}`: function `{}` is treated as uninterpreted", f.name.name),
                            f.name.span,
                        )
                        .with_note("an uninterpreted function can make a program look buggy, but never hides a bug"),
                    );
                    FnImpl::Uninterpreted(Rc::new(self.func_decl(f, &params, &result)))
                }
            }
        } else if f.body.is_some() && is_inline(&f.attrs) {
            FnImpl::Inline(f)
        } else {
            FnImpl::Uninterpreted(Rc::new(self.func_decl(f, &params, &result)))
        };
        self.funcs.insert(f.name.name.clone(), FnEntry { params, result, imp });
        Ok(())
    }

    fn func_decl(&self, f: &FunctionDecl, params: &[Sort], result: &Sort) -> FuncDecl {
        let refs: Vec<&Sort> = params.iter().collect();
        FuncDecl::new(f.name.name.as_str(), &refs, result)
    }

    /// The defining axiom of a non-inline function with a body.
    fn define_function(&mut self, f: &'p FunctionDecl) -> Result<(), Diagnostic> {
        let Some(body) = &f.body else { return Ok(()) };
        let Some(entry) = self.funcs.get(&f.name.name) else { return Ok(()) };
        let FnImpl::Uninterpreted(decl) = &entry.imp else { return Ok(()) };
        let decl = decl.clone();
        let params = entry.params.clone();
        let mut scope = Scope::empty();
        let mut bounds = Vec::new();
        for (p, s) in f.params.iter().zip(&params) {
            let name = p.name.as_ref().map(|n| n.name.as_str()).unwrap_or("_");
            let c = Dynamic::fresh_const(name, s);
            if let Some(n) = &p.name {
                scope.bound.push((n.name.clone(), c.clone()));
            }
            bounds.push(c);
        }
        let mark = self.qbound.len();
        self.qbound.extend(bounds.iter().cloned());
        let b = self.expr(body, &mut scope);
        self.qbound.truncate(mark);
        let b = b?;
        let arg_refs: Vec<&dyn Ast> = bounds.iter().map(|c| c as &dyn Ast).collect();
        let app = decl.apply(&arg_refs);
        if app.get_sort() != b.get_sort() {
            return Err(Diagnostic::type_error(
                format!("the body of `{}` does not have the function's result type", f.name.name),
                body.span,
            ));
        }
        let eq = app.eq(&b);
        let axiom = if bounds.is_empty() {
            eq
        } else {
            let pat = Pattern::new(&[&app]);
            z3::ast::forall_const(&arg_refs, &[&pat], &eq)
        };
        self.background.push(axiom);
        Ok(())
    }

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

    fn quantifier(&mut self, q: &Quantifier, scope: &mut Scope, span: Span) -> Result<Dynamic, Diagnostic> {
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
    fn no_patterns(&mut self, q: &Quantifier, scope: &mut Scope) -> Vec<Dynamic> {
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

    /// The declared type of a constant or global.
    pub fn const_type(&self, name: &str) -> Option<&RType> {
        self.const_types.get(name)
    }

    /// Names of constants marked `{:existential true}` (Houdini candidates), in program order.
    pub fn existentials(program: &Program) -> Vec<Name> {
        let mut out = Vec::new();
        for d in &program.decls {
            if let DeclKind::Const(c) = &d.kind {
                if is_existential(&c.attrs) {
                    out.extend(c.names.iter().map(|n| n.name.clone()));
                }
            }
        }
        out
    }
}

/// `{:existential true}` (or `{:existential}`).
pub fn is_existential(attrs: &[Attribute]) -> bool {
    match find_attr(attrs, "existential") {
        None => false,
        Some(a) => !matches!(a.args.first(), Some(AttrArg::Expr(Expr { kind: ExprKind::BoolLit(false), .. }))),
    }
}

fn type_mismatch(what: &str, got: &Dynamic, span: Span) -> Diagnostic {
    Diagnostic::type_error(format!("{what} (got sort {})", got.get_sort()), span)
}

pub fn as_bool(d: &Dynamic, span: Span) -> Result<Bool, Diagnostic> {
    d.as_bool().ok_or_else(|| type_mismatch("expected a boolean", d, span))
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

fn same_sort(a: &Dynamic, b: &Dynamic, op: &str, span: Span) -> Result<(), Diagnostic> {
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

fn binary(op: BinOp, a: &Dynamic, b: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
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

fn bv_args(args: &[Dynamic], n: usize, span: Span) -> Result<Vec<BV>, Diagnostic> {
    if args.len() != n {
        return Err(Diagnostic::type_error(format!("builtin expects {n} arguments, got {}", args.len()), span));
    }
    args.iter().map(|a| a.as_bv().ok_or_else(|| type_mismatch("builtin expects bit-vectors", a, span))).collect()
}

/// Applies an SMT-LIB operator to already-encoded arguments.
pub fn apply_builtin(b: &Builtin, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
    match b {
        Builtin::Bv(op) => {
            let unary = matches!(*op, "bvneg" | "bvnot");
            let v = bv_args(args, if unary { 1 } else { 2 }, span)?;
            if unary {
                return Ok(if *op == "bvneg" { v[0].bvneg() } else { v[0].bvnot() }.into());
            }
            let (x, y) = (&v[0], &v[1]);
            if x.get_size() != y.get_size() {
                return Err(Diagnostic::type_error(
                    format!("`{op}` on bit-vectors of different widths ({} and {})", x.get_size(), y.get_size()),
                    span,
                ));
            }
            Ok(match *op {
                "bvadd" => x.bvadd(y).into(),
                "bvsub" => x.bvsub(y).into(),
                "bvmul" => x.bvmul(y).into(),
                "bvudiv" => x.bvudiv(y).into(),
                "bvurem" => x.bvurem(y).into(),
                "bvsdiv" => x.bvsdiv(y).into(),
                "bvsrem" => x.bvsrem(y).into(),
                "bvsmod" => x.bvsmod(y).into(),
                "bvand" => x.bvand(y).into(),
                "bvor" => x.bvor(y).into(),
                "bvxor" => x.bvxor(y).into(),
                "bvnand" => x.bvnand(y).into(),
                "bvnor" => x.bvnor(y).into(),
                "bvxnor" => x.bvxnor(y).into(),
                "bvshl" => x.bvshl(y).into(),
                "bvlshr" => x.bvlshr(y).into(),
                "bvashr" => x.bvashr(y).into(),
                "bvult" => x.bvult(y).into(),
                "bvule" => x.bvule(y).into(),
                "bvugt" => x.bvugt(y).into(),
                "bvuge" => x.bvuge(y).into(),
                "bvslt" => x.bvslt(y).into(),
                "bvsle" => x.bvsle(y).into(),
                "bvsgt" => x.bvsgt(y).into(),
                "bvsge" => x.bvsge(y).into(),
                "bvcomp" => x.eq(y).ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)).into(),
                _ => unreachable!("BV_OPS and this match agree"),
            })
        }
        Builtin::ZeroExtend(n) => Ok(bv_args(args, 1, span)?[0].zero_ext(*n).into()),
        Builtin::SignExtend(n) => Ok(bv_args(args, 1, span)?[0].sign_ext(*n).into()),
        Builtin::RotateLeft(n) | Builtin::RotateRight(n) => {
            let v = &bv_args(args, 1, span)?[0];
            let amount = BV::from_u64(*n as u64 % v.get_size() as u64, v.get_size());
            Ok(if matches!(b, Builtin::RotateLeft(_)) { v.bvrotl(&amount) } else { v.bvrotr(&amount) }.into())
        }
        Builtin::Extract(hi, lo) => {
            let v = &bv_args(args, 1, span)?[0];
            if hi < lo || *hi >= v.get_size() {
                return Err(Diagnostic::type_error(format!("bad `extract {hi} {lo}` on bv{}", v.get_size()), span));
            }
            Ok(v.extract(*hi, *lo).into())
        }
        Builtin::Concat => {
            let v = bv_args(args, 2, span)?;
            Ok(v[0].concat(&v[1]).into())
        }
        Builtin::Arith(op) => arith_builtin(op, args, span),
        Builtin::Fp(fp) => fp.apply(args, span),
    }
}

fn arith_builtin(op: &str, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
    let bin = |o: BinOp| -> Result<Dynamic, Diagnostic> {
        match args {
            [a, b] => binary(o, a, b, span),
            _ => Err(Diagnostic::type_error(format!("`{op}` expects 2 arguments"), span)),
        }
    };
    match (op, args) {
        ("+", _) => bin(BinOp::Add),
        ("-", [a]) => {
            if let Some(i) = a.as_int() {
                Ok(i.unary_minus().into())
            } else {
                a.as_real().map(|r| r.unary_minus().into()).ok_or_else(|| type_mismatch("`-` needs a number", a, span))
            }
        }
        ("-", _) => bin(BinOp::Sub),
        ("*", _) => bin(BinOp::Mul),
        ("div", _) => bin(BinOp::Div),
        ("mod", _) => bin(BinOp::Mod),
        ("/", _) => bin(BinOp::RealDiv),
        ("<", _) => bin(BinOp::Lt),
        ("<=", _) => bin(BinOp::Le),
        (">", _) => bin(BinOp::Gt),
        (">=", _) => bin(BinOp::Ge),
        ("=", _) => bin(BinOp::Eq),
        ("=>", _) => bin(BinOp::Implies),
        ("and", _) => bin(BinOp::And),
        ("or", _) => bin(BinOp::Or),
        ("xor", [a, b]) => Ok(as_bool(a, span)?.xor(&as_bool(b, span)?).into()),
        ("not", [a]) => Ok(as_bool(a, span)?.not().into()),
        ("rem", [a, b]) => match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Ok(x.rem(&y).into()),
            _ => Err(type_mismatch("`rem` needs ints", a, span)),
        },
        ("to_real", [a]) => {
            a.as_int().map(|i| i.to_real().into()).ok_or_else(|| type_mismatch("`to_real` needs an int", a, span))
        }
        ("to_int", [a]) => {
            a.as_real().map(|r| r.to_int().into()).ok_or_else(|| type_mismatch("`to_int` needs a real", a, span))
        }
        ("is_int", [a]) => {
            a.as_real().map(|r| r.is_int().into()).ok_or_else(|| type_mismatch("`is_int` needs a real", a, span))
        }
        ("abs", [a]) => {
            if let Some(i) = a.as_int() {
                Ok(i.ge(Int::from_i64(0)).ite(&i, &i.unary_minus()).into())
            } else if let Some(r) = a.as_real() {
                Ok(r.ge(Real::from_rational_str("0", "1").expect("zero")).ite(&r, &r.unary_minus()).into())
            } else {
                Err(type_mismatch("`abs` needs a number", a, span))
            }
        }
        ("ite", [c, a, b]) => {
            same_sort(a, b, "ite", span)?;
            Ok(as_bool(c, span)?.ite(a, b))
        }
        _ => Err(Diagnostic::type_error(format!("builtin `{op}` applied to {} arguments", args.len()), span)),
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

//! The front end's checking entry points: build the item index, resolve and type-check every
//! declaration (Boogie 2.4.1 rules, see [`crate::typeck`]), then the whole-program rules — an
//! implementation matches its procedure, `barrier` and the specification built-ins only in kernels
//! and the procedures they call (docs/kbpl.md §3.3, §5.2), the GPU attribute rules (memory spaces, thread
//! identity), and unique `{:id}` labels.
//!
//! The incremental database calls [`build_env`] once per program, [`check_decl`] per declaration
//! and [`check_program_rules`] once; [`check_program`] runs all three.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::modifies::walk_stmts;
use crate::resolve::{decl_attrs, identity_attr, MemSpace};
use crate::typeck::{Checker, Ctx, LocalKind, SPEC_BUILTINS};
use std::collections::{HashMap, HashSet};

pub use crate::resolve::{
    build_env, drop_shadowed_externs, shadowed_externs, FunctionInfo, GlobalEnv, GlobalInfo, GlobalKind, NameMap,
    ProcInfo, TypeInfo, IDENTITY_ATTRS,
};
pub use crate::typeck::{lhs_level_span, type_of, Instance, InstanceKind, MapTy, Ty};

/// Resolves and type-checks a whole program: [`build_env`], [`check_decl`] for every
/// declaration, and [`check_program_rules`]. Diagnostics come in source order.
pub fn check_program(p: &Program) -> Vec<Diagnostic> {
    let (env, mut diags) = build_env(&p.decls);
    for d in &p.decls {
        diags.extend(check_decl(&env, d));
    }
    diags.extend(check_program_rules(&env, p));
    diags.sort_by_key(|d| d.primary.span.start);
    diags
}

const WHERE: &str = "a `where` clause";

/// Resolves and type-checks one declaration against the item index. Errors in the types of
/// global signatures and duplicate names are [`build_env`]'s; everything else is reported here.
pub fn check_decl(env: &GlobalEnv, decl: &Decl) -> Vec<Diagnostic> {
    check_decl_instances(env, decl).0
}

/// [`check_decl`], and the uses of polymorphic functions and procedures in `decl` with their
/// inferred instantiations (what monomorphisation, `vcgen::mono`, specialises).
pub fn check_decl_instances(env: &GlobalEnv, decl: &Decl) -> (Vec<Diagnostic>, Vec<Instance>) {
    let mut c = Checker::new(env);
    match &decl.kind {
        DeclKind::Type(td) => c.attrs(&td.attrs),
        DeclKind::Const(cd) => {
            c.attrs(&cd.attrs);
            if let Some(span) = cd.order_spec {
                c.report(Diagnostic::unsupported(
                    "partial-order specifications (`extends`, `complete`) are not supported",
                    span,
                ));
            }
        }
        DeclKind::Function(f) => check_function(&mut c, f),
        DeclKind::Axiom(a) => {
            c.attrs(&a.attrs);
            c.ctx = Ctx { no_old: Some("an axiom"), no_globals: Some("an axiom"), spec: false, trigger: false };
            c.expect_bool(&a.expr, "an axiom");
        }
        DeclKind::Var(v) => {
            c.attrs(&v.attrs);
            c.ctx = Ctx { no_old: Some(WHERE), no_globals: None, spec: false, trigger: false };
            for tv in &v.vars {
                c.attrs(&tv.attrs);
                if let Some(w) = &tv.where_clause {
                    c.expect_bool(w, WHERE);
                }
            }
        }
        DeclKind::Procedure(p) => check_procedure(&mut c, p),
        DeclKind::Implementation(i) => check_implementation(&mut c, i),
    }
    gpu_attribute_rules(&mut c, decl);
    c.diags.extend(wide_bit_vectors(decl));
    if env.has_kernel {
        c.diags.extend(poly_map_types(decl));
    }
    (c.diags, c.instances)
}

/// The widest bit-vector kivl accepts. Z3 bit-blasts bit-vectors: an equality of two `bv1000000`
/// values took 92 s and 6.9 GB, `bv100000000` did not finish. GPU programs use at most `bv128`
/// (vectors of four 32-bit words), Boogie's own tests `bv64`.
pub const MAX_BV_WIDTH: u32 = 4096;

/// An `unsupported` diagnostic for each polymorphic map type written in `decl`, in a GPU
/// program: the GPU passes, like their polymorphic functions, know none.
fn poly_map_types(decl: &Decl) -> Vec<Diagnostic> {
    use crate::visit::Visit;
    struct Find(Vec<Diagnostic>);
    impl Visit for Find {
        fn visit_type(&mut self, t: &Type) {
            if let TypeKind::Map { type_params, .. } = &t.kind {
                if let (Some(a), Some(b)) = (type_params.first(), type_params.last()) {
                    self.0.push(
                        Diagnostic::unsupported(
                            "polymorphic map types are not supported in GPU programs",
                            a.span.to(b.span),
                        )
                        .with_label("type parameters"),
                    );
                }
            }
            crate::visit::walk_type(self, t)
        }
    }
    let mut f = Find(Vec::new());
    f.visit_decl(decl);
    f.0
}

/// An `unsupported` diagnostic for each bit-vector type or literal of `decl` wider than
/// [`MAX_BV_WIDTH`].
fn wide_bit_vectors(decl: &Decl) -> Vec<Diagnostic> {
    use crate::visit::Visit;
    struct Wide(Vec<Diagnostic>);
    impl Wide {
        fn width(&mut self, w: u32, span: Span) {
            if w > MAX_BV_WIDTH {
                self.0.push(Diagnostic::unsupported(
                    format!("`bv{w}` is wider than the {MAX_BV_WIDTH} bits kivl supports"),
                    span,
                ));
            }
        }
    }
    impl Visit for Wide {
        fn visit_type(&mut self, t: &Type) {
            if let TypeKind::Bv(w) = t.kind {
                self.width(w, t.span);
            }
            crate::visit::walk_type(self, t)
        }
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::BvLit { width, .. } = e.kind {
                self.width(width, e.span);
            }
            crate::visit::walk_expr(self, e)
        }
    }
    let mut w = Wide(Vec::new());
    w.visit_decl(decl);
    w.0
}

/// Puts the type parameters of a function, procedure or implementation in scope: in its body
/// each is an opaque type of its own name (uses instantiate them, `vcgen::mono`). The GPU
/// passes know no polymorphism: in a kernel program they are unsupported.
fn type_params(c: &mut Checker, tps: &[Ident], what: &str) {
    if let (Some(first), Some(last), true) = (tps.first(), tps.last(), c.env.has_kernel) {
        c.report(
            Diagnostic::unsupported(
                format!("polymorphic {what}s are not supported in GPU programs"),
                first.span.to(last.span),
            )
            .with_label("type parameters"),
        );
    }
    c.tvars = tps.to_vec();
}

fn check_function(c: &mut Checker, f: &FunctionDecl) {
    type_params(c, &f.type_params, "function");
    c.attrs(&f.attrs);
    let params: Vec<Ty> = f.params.iter().map(|p| c.ty_quiet(&p.ty)).collect();
    for (p, t) in f.params.iter().zip(&params) {
        if let Some(n) = &p.name {
            c.declare(n, t.clone(), LocalKind::FnParam);
        }
    }
    let result = c.ty_quiet(&f.result.ty);
    if let Some(n) = &f.result.name {
        if let Some(prev) = c.scope.get(&n.name) {
            let d = Diagnostic::type_error(format!("duplicate declaration of variable `{}`", n.name), n.span)
                .with_label("the result is named like a parameter")
                .with_related(prev.span, "parameter declared here");
            c.report(d);
        }
    }
    check_bvbuiltin(c, f, &params, &result);
    if let Some(body) = &f.body {
        c.ctx =
            Ctx { no_old: Some("a function body"), no_globals: Some("a function body"), spec: false, trigger: false };
        c.hint(body, &result);
        let bt = c.expr(body);
        if !bt.compatible(&result) {
            c.report(
                Diagnostic::type_error(format!("expected `{result}`, found `{bt}`"), body.span)
                    .with_label(format!("the body of `{}` must have its result type `{result}`", f.name.name)),
            );
        }
    }
}

/// `{:bvbuiltin "op"}`: one string argument; for the SMT-LIB bit-vector operators we know, the
/// function's signature must fit the operator (a wrong one would only fail inside the solver).
fn check_bvbuiltin(c: &mut Checker, f: &FunctionDecl, params: &[Ty], result: &Ty) {
    let Some(attr) = find_attr(&f.attrs, "bvbuiltin") else {
        return;
    };
    let op = match attr.args.as_slice() {
        [AttrArg::String(s, _)] => s.clone(),
        _ => {
            c.report(
                Diagnostic::type_error("`{:bvbuiltin}` takes one string argument, the operator", attr.span)
                    .with_label("write `{:bvbuiltin \"bvadd\"}`"),
            );
            return;
        }
    };
    let Some(sig) = bv_operator(&op) else { return };
    let fail = |c: &mut Checker, why: String| {
        c.report(
            Diagnostic::type_error(
                format!("the signature of `{}` does not fit the bit-vector operator `{op}`", f.name.name),
                f.name.span,
            )
            .with_label(why)
            .with_related(attr.span, "operator named here"),
        );
    };
    if params.len() != sig.arity {
        let plural = if sig.arity == 1 { "" } else { "s" };
        return fail(
            c,
            format!("`{op}` takes {} argument{plural}, `{}` declares {}", sig.arity, f.name.name, params.len()),
        );
    }
    if params.iter().chain(std::iter::once(result)).any(Ty::has_error) {
        return;
    }
    let Some(w) = params[0].bv_width() else {
        return fail(c, format!("`{op}` works on bit-vectors, found `{}`", params[0]));
    };
    if params.iter().any(|p| p != &Ty::Bv(w)) {
        return fail(c, format!("the arguments of `{op}` must all be `bv{w}`"));
    }
    let expected = match sig.result {
        BvResult::Same => Ty::Bv(w),
        BvResult::Bool => Ty::Bool,
        BvResult::Bv1 => Ty::Bv(1),
        BvResult::Extend(k) => Ty::Bv(w + k),
    };
    if *result != expected {
        fail(c, format!("`{op}` on `bv{w}` gives `{expected}`, the function returns `{result}`"));
    }
}

#[derive(Clone, Copy)]
enum BvResult {
    Same,
    Bool,
    Bv1,
    Extend(u32),
}

struct BvSig {
    arity: usize,
    result: BvResult,
}

/// The signatures of the SMT-LIB bit-vector operators (`None`: not one we know).
fn bv_operator(op: &str) -> Option<BvSig> {
    let sig = |arity, result| Some(BvSig { arity, result });
    match op {
        "bvadd" | "bvsub" | "bvmul" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod" | "bvshl" | "bvlshr"
        | "bvashr" | "bvand" | "bvor" | "bvxor" | "bvnand" | "bvnor" | "bvxnor" => sig(2, BvResult::Same),
        "bvnot" | "bvneg" => sig(1, BvResult::Same),
        "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => sig(2, BvResult::Bool),
        "bvcomp" => sig(2, BvResult::Bv1),
        _ => {
            let (kind, k) = op.split_once(' ')?;
            let k: u32 = k.trim().parse().ok()?;
            match kind {
                "zero_extend" | "sign_extend" => sig(1, BvResult::Extend(k)),
                _ => None,
            }
        }
    }
}

/// Declares the formals of a procedure or implementation; returns their types.
fn declare_formals(c: &mut Checker, formals: &[TypedIdent], kind: LocalKind, report_types: bool) -> Vec<Ty> {
    let tys = if report_types {
        c.var_types(formals.iter().map(|x| &x.ty))
    } else {
        formals.iter().map(|x| c.ty_quiet(&x.ty)).collect()
    };
    for (x, t) in formals.iter().zip(&tys) {
        c.declare(&x.name, t.clone(), kind);
        c.attrs(&x.attrs);
    }
    tys
}

fn check_where_clauses(c: &mut Checker, formals: &[TypedIdent]) {
    let saved = c.ctx;
    c.ctx = Ctx { no_old: Some(WHERE), no_globals: None, spec: false, trigger: false };
    for x in formals {
        if let Some(w) = &x.where_clause {
            c.expect_bool(w, WHERE);
        }
    }
    c.ctx = saved;
}

fn check_procedure(c: &mut Checker, p: &ProcedureDecl) {
    type_params(c, &p.type_params, "procedure");
    declare_formals(c, &p.ins, LocalKind::In, false);
    check_where_clauses(c, &p.ins);
    // Preconditions see the in-parameters only.
    for ct in p.contracts.iter().filter(|ct| ct.kind == SpecKind::Requires) {
        c.attrs(&ct.attrs);
        c.ctx = Ctx { no_old: Some("a precondition"), no_globals: None, spec: true, trigger: false };
        c.expect_bool(&ct.expr, "a precondition");
    }
    declare_formals(c, &p.outs, LocalKind::Out, false);
    check_where_clauses(c, &p.outs);
    // The procedure's attributes see its parameters (Dafny's `{:_induction s#0}`).
    c.attrs(&p.attrs);
    for ct in p.contracts.iter().filter(|ct| ct.kind == SpecKind::Ensures) {
        c.attrs(&ct.attrs);
        c.ctx = Ctx { no_old: None, no_globals: None, spec: true, trigger: false };
        c.expect_bool(&ct.expr, "a postcondition");
    }
    for m in &p.modifies {
        match c.env.globals.get(&m.name) {
            Some(g) if g.is_const() => {
                c.report(
                    Diagnostic::type_error(format!("modifies clause names constant `{}`", m.name), m.span)
                        .with_label("constants cannot be modified"),
                );
            }
            Some(_) => {}
            None => {
                let label = if c.env.global(&m.name).is_some() {
                    "thread-identity constants cannot be modified"
                } else {
                    "a modifies clause lists global variables"
                };
                c.report(
                    Diagnostic::type_error(
                        format!("undeclared global variable `{}` in modifies clause", m.name),
                        m.span,
                    )
                    .with_label(label),
                );
            }
        }
    }
    if let Some(body) = &p.body {
        c.ctx = Ctx::BODY;
        c.proc_name = p.name.name.clone();
        if !c.env.has_kernel {
            c.modifies = Some(p.modifies.iter().map(|m| m.name.clone()).collect());
        }
        c.body(body);
    }
}

fn check_implementation(c: &mut Checker, i: &ImplementationDecl) {
    type_params(c, &i.type_params, "implementation");
    let ins = declare_formals(c, &i.ins, LocalKind::In, true);
    let outs = declare_formals(c, &i.outs, LocalKind::Out, true);
    c.attrs(&i.attrs);
    for x in i.ins.iter().chain(&i.outs) {
        if let Some(w) = &x.where_clause {
            c.report(
                Diagnostic::type_error(
                    "`where` clauses are not allowed on the parameters of an implementation",
                    w.span,
                )
                .with_label("put it on the procedure declaration"),
            );
        }
    }
    let env = c.env;
    let Some(pi) = env.procedure(&i.name.name) else {
        c.report(
            Diagnostic::type_error(format!("implementation of undeclared procedure `{}`", i.name.name), i.name.span)
                .with_label("no procedure of this name is declared"),
        );
        c.ctx = Ctx::BODY;
        c.body(&i.body);
        return;
    };
    if i.type_params.len() != pi.type_params as usize {
        c.report(
            Diagnostic::type_error(
                format!(
                    "implementation of `{}` has {} type parameter(s), but the procedure declares {}",
                    i.name.name,
                    i.type_params.len(),
                    pi.type_params
                ),
                i.name.span,
            )
            .with_label("the signature must match the procedure's"),
        );
    }
    // The procedure's type parameters are the implementation's, in order.
    let own: Vec<Ty> = i.type_params.iter().map(|p| Ty::Ctor(p.name.clone(), std::sync::Arc::from([]))).collect();
    let (pins, pouts): (Vec<_>, Vec<_>) = (
        pi.ins.iter().map(|(n, t)| (n.clone(), t.substitute(&own))).collect(),
        pi.outs.iter().map(|(n, t)| (n.clone(), t.substitute(&own))).collect(),
    );
    for (what, formals, tys, declared) in [("in", &i.ins, &ins, &pins), ("out", &i.outs, &outs, &pouts)] {
        if formals.len() != declared.len() {
            c.report(
                Diagnostic::type_error(
                    format!(
                        "implementation of `{}` has {} {what}-parameter{}, but the procedure declares {}",
                        i.name.name,
                        formals.len(),
                        if formals.len() == 1 { "" } else { "s" },
                        declared.len()
                    ),
                    i.name.span,
                )
                .with_label("the signature must match the procedure's"),
            );
            continue;
        }
        for ((x, t), (pn, pt)) in formals.iter().zip(tys).zip(declared) {
            if !t.compatible(pt) {
                c.report(
                    Diagnostic::type_error(
                        format!(
                            "{what}-parameter `{}` of implementation `{}` has type `{t}`, but the procedure declares `{pt}`",
                            x.name.name, i.name.name
                        ),
                        x.ty.span,
                    )
                    .with_label(format!("`{pn}` has type `{pt}` in the procedure")),
                );
            }
        }
    }
    c.ctx = Ctx::BODY;
    c.proc_name = i.name.name.clone();
    if !env.has_kernel {
        c.modifies = Some(pi.modifies.iter().cloned().collect());
    }
    c.body(&i.body);
}

// ---------------------------------------------------------------------------------------------
// GPU attribute rules (docs/kbpl.md §2.3, §4)
// ---------------------------------------------------------------------------------------------

const MEM_ATTRS: [&str; 2] = ["group_shared", "global"];

fn mem_attr(attrs: &[Attribute]) -> Option<&Attribute> {
    attrs.iter().find(|a| MEM_ATTRS.contains(&a.name.as_str()))
}

fn misplaced_mem_attr(c: &mut Checker, a: &Attribute, what: &str) {
    c.report(
        Diagnostic::type_error(
            format!("memory-space attribute `{{:{}}}` is not allowed on {what}", a.name.name),
            a.span,
        )
        .with_label("memory spaces belong to global variables of map type"),
    );
}

fn misplaced_identity_attr(c: &mut Checker, a: &Attribute, what: &str) {
    c.report(
        Diagnostic::type_error(
            format!("thread-identity attribute `{{:{}}}` is not allowed on {what}", a.name.name),
            a.span,
        )
        .with_label("thread identities are constants of type `int` or `bvN`"),
    );
}

/// Memory spaces on global variables of map type only (and, as GPUVerify emits them, on axioms
/// and on `bool` variables marked `{:race_checking}`); thread-identity attributes on constants of
/// type `int` or `bvN` only.
fn gpu_attribute_rules(c: &mut Checker, decl: &Decl) {
    let what = decl_description(decl);
    let attrs = decl_attrs(decl);
    match &decl.kind {
        DeclKind::Axiom(_) => {}
        DeclKind::Var(v) => var_memory_spaces(c, v),
        _ => {
            if let Some(a) = mem_attr(attrs) {
                misplaced_mem_attr(c, a, what);
            }
        }
    }
    match &decl.kind {
        DeclKind::Const(cd) => constant_attributes(c, cd),
        _ => {
            if let Some((_, a)) = identity_attr(attrs) {
                misplaced_identity_attr(c, a, what);
            }
        }
    }
    local_attributes(c, decl);
}

/// "a constant", "a procedure" …: a declaration's kind, for messages.
fn decl_description(decl: &Decl) -> &'static str {
    match &decl.kind {
        DeclKind::Type(_) => "a type declaration",
        DeclKind::Const(_) => "a constant",
        DeclKind::Function(_) => "a function",
        DeclKind::Axiom(_) => "an axiom",
        DeclKind::Var(_) => "a variable",
        DeclKind::Procedure(_) => "a procedure",
        DeclKind::Implementation(_) => "an implementation",
    }
}

/// Memory spaces of a global variable declaration: one space, on variables of map type (or
/// `bool` variables marked `{:race_checking}`).
fn var_memory_spaces(c: &mut Checker, v: &VarDecl) {
    for tv in &v.vars {
        let a = mem_attr(&tv.attrs).or_else(|| mem_attr(&v.attrs));
        let Some(a) = a else { continue };
        if has_attr(&v.attrs, "group_shared") && has_attr(&v.attrs, "global") {
            c.report(
                Diagnostic::type_error(
                    format!("variable `{}` is marked both `{{:group_shared}}` and `{{:global}}`", tv.name.name),
                    tv.name.span,
                )
                .with_label("choose one memory space"),
            );
            continue;
        }
        let ty = c.ty_quiet(&tv.ty);
        let race_flag = ty == Ty::Bool && (has_attr(&v.attrs, "race_checking") || has_attr(&tv.attrs, "race_checking"));
        if ty.as_map().is_none() && !ty.is_error() && !race_flag {
            c.report(
                Diagnostic::type_error(
                    format!("`{{:{}}}` variable `{}` must have a map type, found `{ty}`", a.name.name, tv.name.name),
                    tv.ty.span,
                )
                .with_label("shared memory is an array: give it a map type such as `[bv32]bv32`")
                .with_related(a.span, "memory space given here"),
            );
        }
    }
}

/// A constant's thread identity (type `int` or `bvN`) and `{:existential}` flag (type `bool`).
fn constant_attributes(c: &mut Checker, cd: &ConstDecl) {
    if let Some((_, a)) = identity_attr(&cd.attrs) {
        let ty = c.ty_quiet(&cd.ty);
        if !matches!(ty, Ty::Int | Ty::Bv(_) | Ty::Error) {
            c.report(
                Diagnostic::type_error(
                    format!("thread-identity constant must have type `int` or `bvN`, found `{ty}`"),
                    cd.ty.span,
                )
                .with_related(a.span, "thread identity given here"),
            );
        }
    }
    if has_attr(&cd.attrs, "existential") {
        let ty = c.ty_quiet(&cd.ty);
        if !ty.compatible(&Ty::Bool) {
            c.report(
                Diagnostic::type_error(format!("existential constant must have type `bool`, found `{ty}`"), cd.ty.span)
                    .with_label("Houdini candidates are boolean constants"),
            );
        }
    }
}

/// Locals: no memory spaces, no identities.
fn local_attributes(c: &mut Checker, decl: &Decl) {
    let body = match &decl.kind {
        DeclKind::Procedure(p) => p.body.as_ref(),
        DeclKind::Implementation(i) => Some(&i.body),
        _ => None,
    };
    for v in body.into_iter().flat_map(|b| &b.locals) {
        for attrs in std::iter::once(&v.attrs).chain(v.vars.iter().map(|tv| &tv.attrs)) {
            if let Some(a) = mem_attr(attrs) {
                misplaced_mem_attr(c, a, "a local variable");
            }
            if let Some((_, a)) = identity_attr(attrs) {
                misplaced_identity_attr(c, a, "a local variable");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Whole-program rules
// ---------------------------------------------------------------------------------------------

/// The rules that need more than one declaration: `barrier` and the specification built-ins only
/// in kernels and the procedures they call (transitively), and `{:id}` labels unique in the
/// program.
pub fn check_program_rules(env: &GlobalEnv, p: &Program) -> Vec<Diagnostic> {
    let decls: Vec<(&Decl, u32)> = p.decls.iter().map(|d| (d, 0)).collect();
    check_program_rules_at(env, &decls)
}

/// [`check_program_rules`] on declarations whose spans are relative to their own offsets (as
/// the incremental database keeps them): diagnostics come with absolute spans. This spares
/// copying every body just to shift its spans.
pub fn check_program_rules_at(env: &GlobalEnv, decls: &[(&Decl, u32)]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let reachable = kernel_reachable(decls.iter().map(|&(d, _)| d));
    for &(d, off) in decls {
        let before = diags.len();
        let (name, contracts, body): (&Ident, &[Contract], Option<&Body>) = match &d.kind {
            DeclKind::Procedure(p) => (&p.name, &p.contracts, p.body.as_ref()),
            DeclKind::Implementation(i) => (&i.name, &[], Some(&i.body)),
            _ => continue,
        };
        if reachable.contains(&name.name) {
            continue;
        }
        let why = if env.has_kernel {
            format!("`{}` is not a `{{:kernel}}` and no kernel calls it", name.name)
        } else {
            "the program has no `{:kernel}` procedure".to_string()
        };
        for ct in contracts {
            if let Some(f) = find_spec_builtin(&ct.expr) {
                diags.push(spec_outside_kernel(f, &why));
            }
        }
        if let Some(b) = body {
            walk_stmts(&b.stmts, &mut |s| {
                let gpu_stmt = match s.kind {
                    StmtKind::Barrier { .. } => Some("barrier"),
                    StmtKind::Atomic(_) => Some("atomic"),
                    _ => None,
                };
                if let Some(kw) = gpu_stmt {
                    diags.push(
                        Diagnostic::type_error(format!("`{kw}` outside a kernel"), s.span)
                            .with_label(why.clone())
                            .with_related(name.span, "in this procedure"),
                    );
                }
                for e in stmt_spec_exprs(s) {
                    if let Some(f) = find_spec_builtin(e) {
                        diags.push(spec_outside_kernel(f, &why));
                    }
                }
            });
        }
        if off != 0 {
            let shifted: Vec<Diagnostic> = diags.drain(before..).map(|x| x.shifted(off)).collect();
            diags.extend(shifted);
        }
    }
    unique_ids(decls, &mut diags);
    crate::assumption_vars::check(decls, &mut diags);
    diags
}

fn spec_outside_kernel(f: &Ident, why: &str) -> Diagnostic {
    Diagnostic::type_error(format!("specification built-in `{}` used outside a kernel", f.name), f.span)
        .with_label(why.to_string())
}

/// The procedures that kernels call, transitively (kernels included).
fn kernel_reachable<'d>(decls: impl Iterator<Item = &'d Decl>) -> HashSet<Name> {
    let mut calls: HashMap<&Name, Vec<&Name>> = HashMap::new();
    let mut work: Vec<&Name> = Vec::new();
    for d in decls {
        let (name, attrs, body) = match &d.kind {
            DeclKind::Procedure(p) => (&p.name.name, &p.attrs, p.body.as_ref()),
            DeclKind::Implementation(i) => (&i.name.name, &i.attrs, Some(&i.body)),
            _ => continue,
        };
        if has_attr(attrs, "kernel") {
            work.push(name);
        }
        if let Some(b) = body {
            let out = calls.entry(name).or_default();
            walk_stmts(&b.stmts, &mut |s| {
                if let StmtKind::Call { proc, .. } = &s.kind {
                    out.push(&proc.name);
                }
            });
        }
    }
    let mut seen: HashSet<Name> = HashSet::new();
    while let Some(n) = work.pop() {
        if seen.insert(n.clone()) {
            if let Some(cs) = calls.get(n) {
                work.extend(cs.iter().copied());
            }
        }
    }
    seen
}

/// The expressions of a statement where specification built-ins may occur.
fn stmt_spec_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Assert { expr, .. } | StmtKind::Assume { expr, .. } => vec![expr],
        StmtKind::While { invariants, .. } => invariants.iter().map(|i| &i.expr).collect(),
        StmtKind::Barrier { invariants, .. } => invariants.iter().map(|i| &i.expr).collect(),
        StmtKind::Vector(VectorStmt::Assume(e)) | StmtKind::Vector(VectorStmt::Assert(e)) => vec![e],
        _ => Vec::new(),
    }
}

/// The first specification built-in applied in `e`.
fn find_spec_builtin(e: &Expr) -> Option<&Ident> {
    match &e.kind {
        ExprKind::Call(f, args) => {
            if SPEC_BUILTINS.contains(&f.as_str()) {
                return Some(f);
            }
            args.iter().find_map(find_spec_builtin)
        }
        ExprKind::BoolLit(_)
        | ExprKind::IntLit(_)
        | ExprKind::RealLit(_)
        | ExprKind::BvLit { .. }
        | ExprKind::Var(_) => None,
        ExprKind::Old(a) | ExprKind::Unary(_, a) | ExprKind::Extract(a, _, _) | ExprKind::Coerce(a, _) => {
            find_spec_builtin(a)
        }
        ExprKind::Binary(_, a, b) => find_spec_builtin(a).or_else(|| find_spec_builtin(b)),
        ExprKind::Select(m, idx) => find_spec_builtin(m).or_else(|| idx.iter().find_map(find_spec_builtin)),
        ExprKind::Store(m, idx, v) => {
            find_spec_builtin(m).or_else(|| idx.iter().find_map(find_spec_builtin)).or_else(|| find_spec_builtin(v))
        }
        ExprKind::IfThenElse(c, a, b) => {
            find_spec_builtin(c).or_else(|| find_spec_builtin(a)).or_else(|| find_spec_builtin(b))
        }
        ExprKind::Quant(q) => find_spec_builtin(&q.body),
        ExprKind::Let(l) => l.values.iter().find_map(find_spec_builtin).or_else(|| find_spec_builtin(&l.body)),
        ExprKind::Code(_) => None,
    }
}

/// Boogie's rule: `{:id "s"}` labels of statements are unique in the program.
fn unique_ids(decls: &[(&Decl, u32)], diags: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<Name, Span> = HashMap::new();
    let mut check = |attrs: &[Attribute], off: u32, diags: &mut Vec<Diagnostic>| {
        if let Some(a) = find_attr(attrs, "id") {
            if let Some(AttrArg::String(s, _)) = a.args.first() {
                let span = a.span.shifted(off);
                if let Some(prev) = seen.get(s) {
                    diags.push(
                        Diagnostic::type_error(format!("duplicate statement id `{s}`"), span)
                            .with_related(*prev, "first used here"),
                    );
                } else {
                    seen.insert(s.clone(), span);
                }
            }
        }
    };
    for &(d, off) in decls {
        let body = match &d.kind {
            DeclKind::Procedure(p) => p.body.as_ref(),
            DeclKind::Implementation(i) => Some(&i.body),
            _ => None,
        };
        let Some(b) = body else { continue };
        walk_stmts(&b.stmts, &mut |s| match &s.kind {
            StmtKind::Assert { attrs, .. } | StmtKind::Assume { attrs, .. } | StmtKind::Call { attrs, .. } => {
                check(attrs, off, diags)
            }
            StmtKind::While { invariants, .. } => invariants.iter().for_each(|i| check(&i.attrs, off, diags)),
            _ => {}
        });
    }
}

/// The memory space of a global variable (`None` if `name` is not a global variable).
pub fn memory_space(env: &GlobalEnv, name: &str) -> Option<MemSpace> {
    match env.global_var(name)?.kind {
        GlobalKind::Var { space } => Some(space),
        GlobalKind::Const { .. } => None,
    }
}

/// The parameters and locals of an implementation (or of a procedure with a body) with their
/// types, for consumers that need [`type_of`] inside a body.
pub fn locals_of(env: &GlobalEnv, ins: &[TypedIdent], outs: &[TypedIdent], body: Option<&Body>) -> HashMap<Name, Ty> {
    let mut m = HashMap::new();
    for x in ins.iter().chain(outs) {
        m.insert(x.name.name.clone(), env.ty(&x.ty));
    }
    for v in body.into_iter().flat_map(|b| &b.locals).flat_map(|d| &d.vars) {
        m.insert(v.name.name.clone(), env.ty(&v.ty));
    }
    m
}

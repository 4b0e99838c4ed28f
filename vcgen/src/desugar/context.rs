//! What the passes need to know about the program ([`Context`]): its procedures, the body of
//! each (its first implementation, or the procedure's own), its globals and every top-level
//! name (generated names avoid them); which implementations are verified
//! ([`Context::to_verify`]: not those only inlined or marked `{:verify false}`) and how deep
//! calls of each procedure are inlined (`{:inline N}`, with the bodies lowered once).

use super::names::Fresh;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use std::collections::{HashMap, HashSet};

/// What the passes need to know about the program.
pub struct Context<'p> {
    pub program: &'p Program,
    procs: HashMap<Name, &'p ProcedureDecl>,
    /// The body used when a procedure is inlined or verified: its first implementation, or
    /// the procedure's own body.
    bodies: HashMap<Name, BodySource<'p>>,
    /// Global variables (type and `where` clause).
    globals: HashMap<Name, &'p TypedIdent>,
    /// Every top-level name: generated names avoid them.
    top_names: HashSet<Name>,
    /// Names of global variables and constants (locals must not shadow them).
    pub(super) global_values: HashSet<Name>,
    /// Inlinable procedures (positive or zero depth) lowered once.
    inline_bodies: HashMap<Name, BlockImpl>,
    /// `--inline-depth N` (Boogie's `/inlineDepth:N`): calls of every procedure with a body
    /// and no `{:inline}` are inlined N levels deep too (see [`Context::with_inline_depth`]).
    default_depth: Option<u64>,
}

#[derive(Clone, Copy)]
pub enum BodySource<'p> {
    Implementation(&'p ImplementationDecl),
    Procedure(&'p ProcedureDecl),
}

impl<'p> Context<'p> {
    pub fn new(program: &'p Program) -> Result<Context<'p>, Vec<Diagnostic>> {
        Context::with_inline_depth(program, None)
    }

    /// Like [`Context::new`], with Boogie's `/inlineDepth:N` when `depth` is `Some(N)`, as
    /// Boogie 2.4.1's Houdini applies it (`Houdini.Inline`): every call of a procedure with a
    /// body is inlined N levels deep (`{:inline N}` on a procedure still wins); the callee's
    /// postconditions are assumed where its copy returns (Boogie marks them `{:assume}`, since
    /// the callee's own verification checks them), and past the depth a call keeps its
    /// contract (Boogie's `/inline:spec`) instead of cutting the path. Every implementation is
    /// still verified on its own.
    pub fn with_inline_depth(program: &'p Program, depth: Option<u64>) -> Result<Context<'p>, Vec<Diagnostic>> {
        let mut procs = HashMap::new();
        let mut bodies = HashMap::new();
        let mut globals = HashMap::new();
        let mut top_names = HashSet::new();
        let mut global_values = HashSet::new();
        let mut diags = Vec::new();
        for d in &program.decls {
            match &d.kind {
                DeclKind::Procedure(p) => {
                    procs.insert(p.name.name.clone(), p);
                    if p.body.is_some() {
                        bodies.entry(p.name.name.clone()).or_insert(BodySource::Procedure(p));
                    }
                    top_names.insert(p.name.name.clone());
                }
                DeclKind::Implementation(i) => {
                    bodies.entry(i.name.name.clone()).or_insert(BodySource::Implementation(i));
                }
                DeclKind::Var(v) => {
                    for x in &v.vars {
                        globals.insert(x.name.name.clone(), x);
                        top_names.insert(x.name.name.clone());
                        global_values.insert(x.name.name.clone());
                    }
                }
                DeclKind::Const(c) => {
                    top_names.extend(c.names.iter().map(|n| n.name.clone()));
                    global_values.extend(c.names.iter().map(|n| n.name.clone()));
                }
                DeclKind::Function(f) => {
                    top_names.insert(f.name.name.clone());
                }
                DeclKind::Type(t) => {
                    top_names.insert(t.name.name.clone());
                }
                DeclKind::Axiom(_) => {}
            }
        }
        for imp in program.implementations() {
            if !procs.contains_key(&imp.name.name) {
                diags.push(Diagnostic::type_error(
                    format!("implementation of undeclared procedure `{}`", imp.name.name),
                    imp.name.span,
                ));
            }
        }
        let mut ctx = Context {
            program,
            procs,
            bodies,
            globals,
            top_names,
            global_values,
            inline_bodies: HashMap::new(),
            default_depth: depth,
        };
        let inlinable: Vec<Name> = ctx.bodies.keys().filter(|n| ctx.inline_depth(n).is_some()).cloned().collect();
        for name in inlinable {
            match ctx.lower_source(ctx.bodies[&name]) {
                Ok(b) => {
                    ctx.inline_bodies.insert(name, b);
                }
                Err(mut d) => diags.append(&mut d),
            }
        }
        if diags.is_empty() {
            Ok(ctx)
        } else {
            Err(diags)
        }
    }

    pub fn procedure(&self, name: &str) -> Option<&'p ProcedureDecl> {
        self.procs.get(name).copied()
    }

    pub fn global(&self, name: &str) -> Option<&'p TypedIdent> {
        self.globals.get(name).copied()
    }

    /// Global variables in declaration order.
    pub fn global_names(&self) -> Vec<Name> {
        let mut out = Vec::new();
        for d in &self.program.decls {
            if let DeclKind::Var(v) = &d.kind {
                out.extend(v.vars.iter().map(|x| x.name.name.clone()));
            }
        }
        out
    }

    pub fn fresh(&self) -> Fresh<'_> {
        Fresh::new(&self.top_names)
    }

    /// `Some(N)` when calls of `proc` are inlined N levels deep: the procedure has a body and
    /// an integer `{:inline N}` on the procedure (which wins, as in Boogie) or on its
    /// implementation.
    pub fn inline_depth(&self, proc: &str) -> Option<u64> {
        let body = self.bodies.get(proc)?;
        let p = self.procs.get(proc)?;
        let from_impl = match body {
            BodySource::Implementation(i) => inline_attr(&i.attrs),
            BodySource::Procedure(_) => None,
        };
        inline_attr(&p.attrs).or(from_impl).or(self.default_depth)
    }

    /// Whether calls of `proc` are inlined only because of `--inline-depth` (no `{:inline N}`):
    /// then a call past the depth keeps its contract, and the procedure is verified on its own.
    pub fn inlined_by_depth(&self, proc: &str) -> bool {
        self.default_depth.is_some()
            && self.bodies.get(proc).is_some_and(|b| match b {
                BodySource::Implementation(i) => inline_attr(&i.attrs).is_none(),
                BodySource::Procedure(_) => true,
            })
            && self.procs.get(proc).is_some_and(|p| inline_attr(&p.attrs).is_none())
    }

    /// Whether the postconditions of an inlined copy are assumed where it returns (under
    /// `--inline-depth`, Boogie's `InlineEnsuresVisitor`) rather than checked.
    pub fn assume_inlined_ensures(&self) -> bool {
        self.default_depth.is_some()
    }

    /// The lowered body of an inlinable procedure.
    pub fn inline_body(&self, proc: &str) -> Option<&BlockImpl> {
        self.inline_bodies.get(proc)
    }

    pub(super) fn lower_source(&self, src: BodySource<'p>) -> Result<BlockImpl, Vec<Diagnostic>> {
        match src {
            BodySource::Implementation(i) => ivl::lower::lower_body(i),
            BodySource::Procedure(p) => ivl::lower::lower_procedure_body(p),
        }
    }

    /// The implementations to verify, with their procedures, in program order.
    pub fn to_verify(&self) -> Vec<(&'p ProcedureDecl, BodySource<'p>)> {
        let mut out = Vec::new();
        for d in &self.program.decls {
            let (name, attrs, src) = match &d.kind {
                DeclKind::Implementation(i) => (&i.name.name, &i.attrs, BodySource::Implementation(i)),
                DeclKind::Procedure(p) if p.body.is_some() => (&p.name.name, &p.attrs, BodySource::Procedure(p)),
                _ => continue,
            };
            let Some(proc) = self.procedure(name) else {
                continue;
            };
            // Only inlined, as under Boogie's /inline:assume.
            if inline_attr(attrs).is_some() || inline_attr(&proc.attrs).is_some() {
                continue;
            }
            if verify_false(attrs) || verify_false(&proc.attrs) {
                continue;
            }
            out.push((proc, src));
        }
        out
    }
}

/// The depth N of an integer `{:inline N}` attribute.
fn inline_attr(attrs: &[Attribute]) -> Option<u64> {
    match find_attr(attrs, "inline").and_then(|a| a.args.first()) {
        Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. })) => u64::try_from(v).ok(),
        _ => None,
    }
}

/// `{:verify false}`.
fn verify_false(attrs: &[Attribute]) -> bool {
    matches!(
        find_attr(attrs, "verify").and_then(|a| a.args.first()),
        Some(AttrArg::Expr(Expr { kind: ExprKind::BoolLit(false), .. }))
    )
}

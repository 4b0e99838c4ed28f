//! Compilation of a checked program to the interpreter's compact form.
//!
//! Why: the interpreter must run ≥ 10 million simple statements per second, so the hot loop
//! must not look names up, clone syntax trees or walk nested statements. Every variable becomes
//! a slot (a frame index for locals and bound variables, a global number for `var`s and
//! constants, a per-thread index for the thread-identity constants of docs/kbpl.md §4), every body
//! becomes a flat instruction array over the basic blocks of [`ivl::lower`] with jumps resolved
//! to instruction indices, and each block-to-block edge carries the loop-counter updates that
//! the barrier rules B1/B2 of seed 000 §3 (Fig. 4d) need.
//!
//! Conditional control flow arrives as `goto A, B;` with `assume c; … / assume !c; …` leading
//! the targets (Boogie's encoding). Such a pair is compiled to one conditional branch; any other
//! `goto` evaluates the leading `assume`s of its targets and picks among the feasible ones, so
//! that a random choice does not end a run as infeasible at every branch.

mod body;
mod expr;

use super::code::*;
use super::types::{RTy, TyId};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::resolve::{build_env, identity_attr, mem_space, GlobalEnv, MemSpace, IDENTITY_ATTRS};
use ivl::typeck::Ty;
use std::collections::HashMap;
use std::rc::Rc;

/// The variables of one frame: a procedure body, a function body, or a lambda.
struct FrameScope {
    /// Bound names, innermost last; the flag marks names captured under `old`.
    names: Vec<(Name, bool, u32)>,
    next: u32,
    max: u32,
    /// `Some` for a lambda: the expressions (in the enclosing frame) of captured values.
    captures: Option<Vec<(Ex, u32)>>,
}

impl FrameScope {
    fn new(captures: bool) -> FrameScope {
        FrameScope { names: Vec::new(), next: 0, max: 0, captures: captures.then(Vec::new) }
    }
    fn alloc(&mut self) -> u32 {
        let s = self.next;
        self.next += 1;
        self.max = self.max.max(self.next);
        s
    }
    fn bind(&mut self, name: Name) -> u32 {
        let s = self.alloc();
        self.names.push((name, false, s));
        s
    }
    fn lookup(&self, name: &str, old: bool) -> Option<u32> {
        self.names.iter().rev().find(|(n, o, _)| n == name && (!*o || old)).map(|(_, _, s)| *s)
    }
}

#[derive(Clone, Copy)]
enum ConstRef {
    Uniform(u32),
    Thread(u32),
}

struct Compiler<'p> {
    env: GlobalEnv,
    types: Vec<RTy>,
    type_index: HashMap<RTy, TyId>,
    opaque_names: Vec<Name>,
    opaque_index: HashMap<Ty, u32>,
    globals: Vec<GlobalVar>,
    global_index: HashMap<Name, u32>,
    consts: Vec<ConstInfo>,
    tconsts: Vec<ThreadConst>,
    const_index: HashMap<Name, ConstRef>,
    fn_index: HashMap<Name, u32>,
    fn_decls: Vec<&'p FunctionDecl>,
    functions: Vec<FnInfo>,
    proc_index: HashMap<Name, u32>,
    /// Every `lambda` compiled so far (`Compiled::lambdas`).
    lambdas: Vec<Rc<LambdaProto>>,
    is_gpu: bool,
    uses_spec_access: bool,
    uniform_sites: u32,
    diags: Vec<Diagnostic>,
    // Per-expression state.
    frames: Vec<FrameScope>,
    in_old: bool,
    touches_shared: bool,
    uses_old: bool,
}

fn unsupported(msg: impl Into<String>, span: Span) -> Ex {
    Ex::Unsupported(Rc::new(
        Diagnostic::unsupported(format!("{} (not supported by `kivl run`)", msg.into()), span)
            .with_label("cannot be executed"),
    ))
}

impl<'p> Compiler<'p> {
    fn intern(&mut self, t: RTy) -> TyId {
        if let Some(&id) = self.type_index.get(&t) {
            return id;
        }
        let id = self.types.len() as TyId;
        self.types.push(t.clone());
        self.type_index.insert(t, id);
        id
    }

    fn rty(&mut self, ty: &Ty, span: Span) -> TyId {
        let r = match ty {
            Ty::Bool => RTy::Bool,
            Ty::Int => RTy::Int,
            Ty::Real => RTy::Real,
            Ty::Bv(w) => RTy::Bv(*w),
            Ty::Map(m) => {
                let args = m.args.iter().map(|a| self.rty(a, span)).collect();
                let result = self.rty(&m.result, span);
                RTy::Map { args, result }
            }
            Ty::Ctor(..) => {
                let n = match self.opaque_index.get(ty) {
                    Some(n) => *n,
                    None => {
                        let n = self.opaque_names.len() as u32;
                        self.opaque_names.push(Name::from(ty.to_string()));
                        self.opaque_index.insert(ty.clone(), n);
                        n
                    }
                };
                RTy::Opaque(n)
            }
            Ty::Param(_) | Ty::Bound(_) | Ty::Error => {
                self.diags.push(Diagnostic::unsupported(
                    "polymorphic or ill-formed types are not supported by `kivl run`",
                    span,
                ));
                RTy::Bool
            }
        };
        self.intern(r)
    }

    fn ty_of(&mut self, t: &Type) -> TyId {
        let ty = self.env.ty(t);
        self.rty(&ty, t.span)
    }
}

// ---------------------------------------------------------------------------------------------
// The program
// ---------------------------------------------------------------------------------------------

/// Compiles a checked program (with or without the GPU prelude). Errors are input errors:
/// unknown names (when the program was not checked), bodies that cannot be lowered,
/// polymorphism.
pub fn compile(program: &Program) -> Result<Compiled, Vec<Diagnostic>> {
    let mut c = Compiler::new(program);
    let bool_ty = c.intern(RTy::Bool);
    let int_ty = c.intern(RTy::Int);
    c.signatures(program);
    c.function_bodies(bool_ty);
    let axioms = c.axioms(program);
    let procs = c.procedures(program);
    if !c.diags.is_empty() {
        return Err(c.diags);
    }
    Ok(Compiled {
        types: c.types,
        opaque_names: c.opaque_names,
        globals: c.globals,
        consts: c.consts,
        tconsts: c.tconsts,
        functions: c.functions,
        procs,
        axioms,
        lambdas: c.lambdas,
        bool_ty,
        int_ty,
        uses_spec_access: c.uses_spec_access,
    })
}

impl<'p> Compiler<'p> {
    fn new(program: &Program) -> Compiler<'p> {
        let (env, _) = build_env(&program.decls);
        let is_gpu = env.has_kernel
            || program.decls.iter().any(|d| match &d.kind {
                DeclKind::Procedure(p) => has_attr(&p.attrs, "kernel"),
                DeclKind::Implementation(i) => has_attr(&i.attrs, "kernel"),
                _ => false,
            });
        Compiler {
            env,
            types: Vec::new(),
            type_index: HashMap::new(),
            opaque_names: Vec::new(),
            opaque_index: HashMap::new(),
            globals: Vec::new(),
            global_index: HashMap::new(),
            consts: Vec::new(),
            tconsts: Vec::new(),
            const_index: HashMap::new(),
            fn_index: HashMap::new(),
            fn_decls: Vec::new(),
            functions: Vec::new(),
            proc_index: HashMap::new(),
            lambdas: Vec::new(),
            is_gpu,
            diags: Vec::new(),
            frames: Vec::new(),
            in_old: false,
            touches_shared: false,
            uses_old: false,
            uses_spec_access: false,
            uniform_sites: 0,
        }
    }

    /// Signatures: variables, constants, functions.
    fn signatures(&mut self, program: &'p Program) {
        for d in &program.decls {
            match &d.kind {
                DeclKind::Var(v) => self.global_vars(v),
                DeclKind::Const(k) => self.constants(k),
                DeclKind::Function(f) => {
                    if self.fn_index.contains_key(&f.name.name) {
                        continue;
                    }
                    self.fn_index.insert(f.name.name.clone(), self.fn_decls.len() as u32);
                    self.fn_decls.push(f);
                }
                _ => {}
            }
        }
    }

    fn global_vars(&mut self, v: &VarDecl) {
        for tv in &v.vars {
            let mut attrs = v.attrs.clone();
            attrs.extend(tv.attrs.iter().cloned());
            let ty = self.ty_of(&tv.ty);
            let is_map = matches!(self.types[ty as usize], RTy::Map { .. });
            self.global_index.insert(tv.name.name.clone(), self.globals.len() as u32);
            self.globals.push(GlobalVar {
                name: tv.name.name.clone(),
                ty,
                group_shared: mem_space(&attrs) == MemSpace::GroupShared,
                is_map,
                span: tv.name.span,
            });
        }
    }

    fn constants(&mut self, k: &ConstDecl) {
        let ty = self.ty_of(&k.ty);
        for n in &k.names {
            match identity_attr(&k.attrs).and_then(|(a, _)| IDENTITY_ATTRS.iter().position(|x| *x == a)) {
                Some(attr) => {
                    self.add_identity_const(n.name.clone(), ty, attr, n.span, k.unique);
                }
                None => {
                    self.const_index.insert(n.name.clone(), ConstRef::Uniform(self.consts.len() as u32));
                    self.consts.push(ConstInfo {
                        name: n.name.clone(),
                        ty,
                        unique: k.unique,
                        size_attr: None,
                        span: n.span,
                    });
                }
            }
        }
    }

    /// Function bodies (a function without one is uninterpreted).
    fn function_bodies(&mut self, bool_ty: TyId) {
        let fn_decls = self.fn_decls.clone();
        for f in fn_decls {
            let result = if f.type_params.is_empty() {
                self.ty_of(&f.result.ty)
            } else {
                self.diags.push(
                    Diagnostic::unsupported("polymorphic functions are not supported by `kivl run`", f.name.span)
                        .with_label("has type parameters"),
                );
                bool_ty
            };
            let imp = match &f.body {
                Some(body) => {
                    let mut scope = FrameScope::new(false);
                    for (i, p) in f.params.iter().enumerate() {
                        let name = p.name.as_ref().map_or_else(|| Name::from(format!("#{i}")), |n| n.name.clone());
                        scope.bind(name);
                    }
                    self.frames = vec![scope];
                    let body = self.expr(body);
                    let frame = self.frames.pop().unwrap().max;
                    FnImpl::Body { body, frame }
                }
                None => FnImpl::Uninterpreted,
            };
            self.functions.push(FnInfo { name: f.name.name.clone(), result, imp });
        }
    }

    fn axioms(&mut self, program: &Program) -> Vec<Axiom> {
        let mut axioms = Vec::new();
        for d in &program.decls {
            if let DeclKind::Axiom(a) = &d.kind {
                self.frames = vec![FrameScope::new(false)];
                let n_tconsts = self.tconsts.len();
                let e = self.expr(&a.expr);
                let per_thread = self.tconsts.len() > n_tconsts || mentions_tconst(&e);
                axioms.push(Axiom { e, span: a.expr.span, per_thread });
            }
        }
        axioms
    }

    /// Procedures: signatures first (bodies call each other), then contracts and bodies.
    fn procedures(&mut self, program: &Program) -> Vec<ProcInfo> {
        let procs: Vec<&ProcedureDecl> = program.procedures().collect();
        for (i, p) in procs.iter().enumerate() {
            self.proc_index.entry(p.name.name.clone()).or_insert(i as u32);
        }
        let mut infos = Vec::new();
        for p in &procs {
            let imp = program.implementations().find(|i| i.name.name == p.name.name);
            infos.push(self.procedure(p, imp));
        }
        infos
    }
}

fn mentions_tconst(e: &Ex) -> bool {
    let mut found = false;
    visit_ex(e, &mut |x| found |= matches!(x, Ex::TConst(_)));
    found
}

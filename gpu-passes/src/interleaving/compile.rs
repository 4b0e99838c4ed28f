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

use super::value::{real, BvOp, Value};
use ivl::ast::*;
use ivl::blocks::{check_kind, related_span, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::{Diagnostic, ErrorKind};
use ivl::resolve::{build_env, identity_attr, mem_space, GlobalEnv, MemSpace, IDENTITY_ATTRS};
use ivl::typeck::Ty;
use std::collections::HashMap;
use std::rc::Rc;

pub type TyId = u32;

/// A run-time type (for generating arbitrary values).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RTy {
    Bool,
    Int,
    Real,
    Bv(u32),
    Map {
        args: Vec<TyId>,
        result: TyId,
    },
    /// An uninterpreted type (its number).
    Opaque(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinK {
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    RealDiv,
    Concat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    ToReal,
    ToInt,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Ex {
    Lit(Value),
    Local(u32),
    /// A read of a global variable as a whole (a scalar, or a map passed around whole).
    Global(u32, Span),
    /// `old(g)`: not a shared-memory access.
    OldGlobal(u32),
    Const(u32),
    /// A per-thread identity constant (index into the thread's identity values).
    TConst(u32),
    Not(Box<Ex>),
    Neg(Box<Ex>),
    Bin(BinK, Box<(Ex, Ex)>),
    And(Box<(Ex, Ex)>),
    Or(Box<(Ex, Ex)>),
    Implies(Box<(Ex, Ex)>),
    Iff(Box<(Ex, Ex)>),
    Ite(Box<(Ex, Ex, Ex)>),
    Select(Box<Ex>, Box<[Ex]>),
    /// `g[i][j, k]`: a read of one location of global map `g` (one index list per level).
    SharedSelect(Box<SharedSel>),
    Store(Box<(Ex, Ex)>, Box<[Ex]>),
    Bv(BvOp, Box<[Ex]>),
    Call(u32, Box<[Ex]>),
    Conv(Conv, Box<Ex>),
    Lambda(Rc<LambdaProto>),
    Quant(Box<QuantEx>),
    /// `__read(A)`, `__write(A)` (`offset: false`) and `__read_offset(A)`, `__write_offset(A)`:
    /// the access the enclosing [`Ex::SpecEnum`] chose from the thread's log.
    SpecAccess {
        var: u32,
        write: bool,
        offset: bool,
    },
    /// A specification over logged accesses: holds if the body holds for every choice of logged
    /// access (or none) for each `(variable, write)` pair it mentions.
    SpecEnum(Box<(Vec<(u32, bool)>, Ex)>),
    /// Evaluating this is an "unsupported in kivl run" error.
    Unsupported(Rc<Diagnostic>),
}

#[derive(Clone, Debug)]
pub struct SharedSel {
    pub var: u32,
    pub levels: Box<[Box<[Ex]>]>,
    pub span: Span,
}

/// A `lambda`: its body runs in a frame of `frame` slots holding the bound variables
/// (`0..nbound`), the values captured from the enclosing scope at creation (`capture_slots`) and
/// its own quantifier variables.
#[derive(Debug)]
pub struct LambdaProto {
    pub nbound: u32,
    pub frame: u32,
    pub captures: Vec<Ex>,
    pub capture_slots: Vec<u32>,
    pub body: Ex,
}

/// A lambda value: its code and the captured values.
#[derive(Debug)]
pub struct Closure {
    pub proto: Rc<LambdaProto>,
    pub captured: Box<[Value]>,
}

#[derive(Clone, Debug)]
pub struct QuantEx {
    pub forall: bool,
    pub vars: Vec<QVar>,
    pub body: Ex,
}

#[derive(Clone, Debug)]
pub struct QVar {
    pub slot: u32,
    pub dom: Domain,
}

#[derive(Clone, Debug)]
pub enum Domain {
    Bool,
    Bv(u32),
    /// Integers `lo..=hi` (bounds read off the quantifier's guard).
    Range(Ex, Ex),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Local(u32),
    Global(u32),
}

#[derive(Clone, Debug)]
pub struct Lhs {
    pub place: Place,
    /// One index list per `[...]`, outermost first; empty for a whole-variable assignment.
    pub levels: Box<[Box<[Ex]>]>,
    pub span: Span,
}

/// Which check an `assert` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    Fixed(ErrorKind),
    /// A loop invariant (a leading assert of the header of loop `.0`): `invariant-entry` on the
    /// first arrival, `invariant-maintained` after a back edge.
    LoopInvariant(u32),
}

/// A jump: the target instruction and the loop-counter actions of the edge (index into
/// [`Code::actions`]; 0 = none).
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub target: u32,
    pub act: u32,
}

#[derive(Clone, Debug)]
pub struct GuardedEdge {
    pub edge: Edge,
    pub guards: Box<[Ex]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopAct {
    Reset(u32),
    Inc(u32),
}

#[derive(Clone, Debug)]
pub enum Fence {
    Yes,
    No,
    /// Decided by a barrier procedure's argument (nonzero / true: fence).
    Arg(Ex),
}

#[derive(Clone, Debug)]
pub struct BarrierSite {
    pub local: Fence,
    pub global: Fence,
    pub invariants: Vec<(Ex, Span)>,
}

#[derive(Clone, Debug)]
pub struct CallSite {
    pub proc: u32,
    pub args: Box<[Ex]>,
    pub outs: Box<[Lhs]>,
}

/// `atomic x := op(A[i], args);`
#[derive(Clone, Debug)]
pub struct AtomicSite {
    pub op: AtomicOp,
    pub target: Lhs,
    pub args: Box<[Ex]>,
    pub out: Option<Lhs>,
}

#[derive(Clone, Debug)]
pub enum Instr {
    /// `x := e` for a local `x` (the fast path).
    SetLocal(u32, Ex),
    /// Parallel assignment: all right-hand sides and indices are evaluated first.
    Assign(Box<[Lhs]>, Box<[Ex]>),
    /// `havoc xs;` fused with the `assume`s that follow it, which constrain the new values.
    Havoc(Box<[Lhs]>, Box<[Ex]>),
    Assert {
        e: Ex,
        kind: CheckKind,
        related: Option<Span>,
    },
    Assume(Ex),
    Call(Box<CallSite>),
    Barrier(Box<BarrierSite>),
    /// Reads, updates and writes one element in one step (`super::atomic`).
    Atomic(Box<AtomicSite>),
    Jump(Edge),
    Branch(Ex, Edge, Edge),
    Goto(Box<[GuardedEdge]>),
    Return,
    /// `assert __uniform(e)` (docs/kbpl.md §5.2): `e` has the same value in every thread that reaches
    /// this point with the same call stack and loop iterations. `site` numbers the check.
    Uniform {
        e: Ex,
        kind: CheckKind,
        site: u32,
    },
    Unsupported(Rc<Diagnostic>),
}

/// A compiled body.
#[derive(Clone, Debug, Default)]
pub struct Code {
    pub instrs: Vec<Instr>,
    pub spans: Vec<Span>,
    /// Whether executing the instruction may touch shared memory or synchronise (a scheduling
    /// point).
    pub visible: Vec<bool>,
    pub block_of: Vec<u32>,
    pub block_names: Vec<Name>,
    /// Per block: the loops containing it, outermost first.
    pub block_loops: Vec<Box<[u32]>>,
    pub n_loops: u32,
    /// Loops whose header is the entry block (their counter starts at 1).
    pub entry_loops: Vec<u32>,
    pub actions: Vec<Box<[LoopAct]>>,
}

#[derive(Clone, Debug)]
pub struct Spec {
    pub e: Ex,
    pub free: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ProcInfo {
    pub name: Name,
    pub span: Span,
    pub kernel: bool,
    pub barrier: bool,
    pub in_names: Vec<Name>,
    pub out_names: Vec<Name>,
    /// Types of every frame slot that holds a formal or local (ins, outs, locals).
    pub slot_tys: Vec<TyId>,
    pub frame_size: u32,
    pub requires: Vec<Spec>,
    pub ensures: Vec<Spec>,
    pub modifies: Vec<u32>,
    pub body: Option<Code>,
    pub uses_old: bool,
}

impl ProcInfo {
    pub fn n_ins(&self) -> usize {
        self.in_names.len()
    }
    pub fn n_outs(&self) -> usize {
        self.out_names.len()
    }
}

#[derive(Clone, Debug)]
pub enum FnImpl {
    Body { body: Ex, frame: u32 },
    Uninterpreted,
}

#[derive(Clone, Debug)]
pub struct FnInfo {
    pub name: Name,
    pub result: TyId,
    pub imp: FnImpl,
}

#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: Name,
    pub ty: TyId,
    pub group_shared: bool,
    pub is_map: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ConstInfo {
    pub name: Name,
    pub ty: TyId,
    pub unique: bool,
    /// Index into [`IDENTITY_ATTRS`] for `group_size_*` / `num_groups_*` constants.
    pub size_attr: Option<usize>,
    pub span: Span,
}

/// A per-thread identity constant (`local_id_*`, `group_id_*`).
#[derive(Clone, Debug)]
pub struct ThreadConst {
    pub name: Name,
    pub ty: TyId,
    /// Index into [`IDENTITY_ATTRS`] (0..6).
    pub attr: usize,
}

#[derive(Clone, Debug)]
pub struct Axiom {
    pub e: Ex,
    pub span: Span,
    /// Mentions a per-thread constant: checked in every thread.
    pub per_thread: bool,
}

/// A compiled program.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    pub types: Vec<RTy>,
    pub opaque_names: Vec<Name>,
    pub globals: Vec<GlobalVar>,
    pub consts: Vec<ConstInfo>,
    pub tconsts: Vec<ThreadConst>,
    pub functions: Vec<FnInfo>,
    pub procs: Vec<ProcInfo>,
    pub axioms: Vec<Axiom>,
    pub bool_ty: TyId,
    pub int_ty: TyId,
    /// Some specification reads the access logs (`__read(A)`, …).
    pub uses_spec_access: bool,
}

impl Compiled {
    pub fn proc_named(&self, name: &str) -> Option<usize> {
        self.procs.iter().position(|p| p.name == name)
    }
    pub fn kernel(&self) -> Option<usize> {
        self.procs.iter().position(|p| p.kernel && p.body.is_some())
    }
    pub fn global_named(&self, name: &str) -> Option<usize> {
        self.globals.iter().position(|g| g.name == name)
    }
    pub fn const_named(&self, name: &str) -> Option<usize> {
        self.consts.iter().position(|c| c.name == name)
    }
}

// ---------------------------------------------------------------------------------------------
// Scopes
// ---------------------------------------------------------------------------------------------

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
            Ty::Param(_) | Ty::Error => {
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

    fn add_identity_const(&mut self, name: Name, ty: TyId, attr: usize, span: Span, unique: bool) -> ConstRef {
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
    fn spec(&mut self, e: &Expr) -> Ex {
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

    fn exprs(&mut self, es: &[Expr]) -> Box<[Ex]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn pair(&mut self, a: &Expr, b: &Expr) -> Box<(Ex, Ex)> {
        Box::new((self.expr(a), self.expr(b)))
    }

    fn expr(&mut self, e: &Expr) -> Ex {
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
            ExprKind::Binary(op, a, b) => {
                let k = match op {
                    BinOp::Iff => return Ex::Iff(self.pair(a, b)),
                    BinOp::Implies => return Ex::Implies(self.pair(a, b)),
                    BinOp::Explies => return Ex::Implies(self.pair(b, a)),
                    BinOp::Or => return Ex::Or(self.pair(a, b)),
                    BinOp::And => return Ex::And(self.pair(a, b)),
                    BinOp::Subtype => return unsupported("the partial order `<:`", e.span),
                    BinOp::Pow => return unsupported("the power operator `**`", e.span),
                    BinOp::Eq => BinK::Eq,
                    BinOp::Neq => BinK::Neq,
                    BinOp::Lt => BinK::Lt,
                    BinOp::Le => BinK::Le,
                    BinOp::Gt => BinK::Gt,
                    BinOp::Ge => BinK::Ge,
                    BinOp::Concat => BinK::Concat,
                    BinOp::Add => BinK::Add,
                    BinOp::Sub => BinK::Sub,
                    BinOp::Mul => BinK::Mul,
                    BinOp::Div => BinK::Div,
                    BinOp::Mod => BinK::Mod,
                    BinOp::RealDiv => BinK::RealDiv,
                };
                Ex::Bin(k, self.pair(a, b))
            }
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
        Ex::Lambda(Rc::new(LambdaProto { nbound, frame: scope.max, captures, capture_slots, body }))
    }

    // ----- statements ------------------------------------------------------------------------

    fn place(&mut self, id: &Ident) -> Place {
        let depth = self.frames.len() - 1;
        if let Some(s) = self.frames[depth].lookup(&id.name, false) {
            return Place::Local(s);
        }
        if let Some(&g) = self.global_index.get(&id.name) {
            self.touches_shared = true;
            return Place::Global(g);
        }
        self.diags.push(
            Diagnostic::type_error(format!("`{}` is not a variable that can be assigned", id.name), id.span)
                .with_label("not assignable"),
        );
        Place::Local(0)
    }

    fn lhs(&mut self, l: &Lhs0) -> Lhs {
        let place = self.place(l.var);
        let levels = l.indices.iter().map(|i| self.exprs(i)).collect();
        Lhs { place, levels, span: l.span }
    }
}

/// An assignment target as written (borrowed from the AST).
struct Lhs0<'a> {
    var: &'a Ident,
    indices: &'a [Vec<Expr>],
    span: Span,
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
    let bin = |k: BinK, v: &mut Vec<Ex>| {
        let b = v.pop()?;
        let a = v.pop()?;
        Some(Ex::Bin(k, Box::new((a, b))))
    };
    match (op, v.len()) {
        ("+", 2) => bin(BinK::Add, &mut v),
        ("-", 2) => bin(BinK::Sub, &mut v),
        ("*", 2) => bin(BinK::Mul, &mut v),
        ("div", 2) => bin(BinK::Div, &mut v),
        ("mod", 2) => bin(BinK::Mod, &mut v),
        ("/", 2) => bin(BinK::RealDiv, &mut v),
        ("<", 2) => bin(BinK::Lt, &mut v),
        ("<=", 2) => bin(BinK::Le, &mut v),
        (">", 2) => bin(BinK::Gt, &mut v),
        (">=", 2) => bin(BinK::Ge, &mut v),
        ("=", 2) => bin(BinK::Eq, &mut v),
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
fn conjuncts(e: &Expr) -> Vec<&Expr> {
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

// ---------------------------------------------------------------------------------------------
// The program
// ---------------------------------------------------------------------------------------------

/// Compiles a checked program (with or without the GPU prelude). Errors are input errors:
/// unknown names (when the program was not checked), bodies that cannot be lowered,
/// polymorphism.
pub fn compile(program: &Program) -> Result<Compiled, Vec<Diagnostic>> {
    let (env, _) = build_env(&program.decls);
    let is_gpu = env.has_kernel
        || program.decls.iter().any(|d| match &d.kind {
            DeclKind::Procedure(p) => has_attr(&p.attrs, "kernel"),
            DeclKind::Implementation(i) => has_attr(&i.attrs, "kernel"),
            _ => false,
        });
    let mut c = Compiler {
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
        is_gpu,
        diags: Vec::new(),
        frames: Vec::new(),
        in_old: false,
        touches_shared: false,
        uses_old: false,
        uses_spec_access: false,
        uniform_sites: 0,
    };
    let bool_ty = c.intern(RTy::Bool);
    let int_ty = c.intern(RTy::Int);

    // Signatures: variables, constants, functions.
    for d in &program.decls {
        match &d.kind {
            DeclKind::Var(v) => {
                for tv in &v.vars {
                    let mut attrs = v.attrs.clone();
                    attrs.extend(tv.attrs.iter().cloned());
                    let ty = c.ty_of(&tv.ty);
                    let is_map = matches!(c.types[ty as usize], RTy::Map { .. });
                    c.global_index.insert(tv.name.name.clone(), c.globals.len() as u32);
                    c.globals.push(GlobalVar {
                        name: tv.name.name.clone(),
                        ty,
                        group_shared: mem_space(&attrs) == MemSpace::GroupShared,
                        is_map,
                        span: tv.name.span,
                    });
                }
            }
            DeclKind::Const(k) => {
                let ty = c.ty_of(&k.ty);
                for n in &k.names {
                    match identity_attr(&k.attrs).and_then(|(a, _)| IDENTITY_ATTRS.iter().position(|x| *x == a)) {
                        Some(attr) => {
                            c.add_identity_const(n.name.clone(), ty, attr, n.span, k.unique);
                        }
                        None => {
                            c.const_index.insert(n.name.clone(), ConstRef::Uniform(c.consts.len() as u32));
                            c.consts.push(ConstInfo {
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
            DeclKind::Function(f) => {
                if c.fn_index.contains_key(&f.name.name) {
                    continue;
                }
                c.fn_index.insert(f.name.name.clone(), c.fn_decls.len() as u32);
                c.fn_decls.push(f);
            }
            _ => {}
        }
    }

    // Function bodies.
    let fn_decls = c.fn_decls.clone();
    for f in fn_decls {
        let result = if f.type_params.is_empty() {
            c.ty_of(&f.result.ty)
        } else {
            c.diags.push(
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
                c.frames = vec![scope];
                let body = c.expr(body);
                let frame = c.frames.pop().unwrap().max;
                FnImpl::Body { body, frame }
            }
            None => FnImpl::Uninterpreted,
        };
        c.functions.push(FnInfo { name: f.name.name.clone(), result, imp });
    }

    // Axioms.
    let mut axioms = Vec::new();
    for d in &program.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            c.frames = vec![FrameScope::new(false)];
            let n_tconsts = c.tconsts.len();
            let e = c.expr(&a.expr);
            let per_thread = c.tconsts.len() > n_tconsts || mentions_tconst(&e);
            axioms.push(Axiom { e, span: a.expr.span, per_thread });
        }
    }

    // Procedures: signatures first (bodies call each other), then contracts and bodies.
    let procs: Vec<&ProcedureDecl> = program.procedures().collect();
    for (i, p) in procs.iter().enumerate() {
        c.proc_index.entry(p.name.name.clone()).or_insert(i as u32);
    }
    let mut infos = Vec::new();
    for p in &procs {
        let imp = program.implementations().find(|i| i.name.name == p.name.name);
        infos.push(c.procedure(p, imp));
    }
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
        procs: infos,
        axioms,
        bool_ty,
        int_ty,
        uses_spec_access: c.uses_spec_access,
    })
}

fn mentions_tconst(e: &Ex) -> bool {
    let mut found = false;
    visit_ex(e, &mut |x| found |= matches!(x, Ex::TConst(_)));
    found
}

/// Calls `f` on every sub-expression (not entering lambdas' captured code twice).
pub fn visit_ex(e: &Ex, f: &mut dyn FnMut(&Ex)) {
    f(e);
    match e {
        Ex::Lit(_) | Ex::Local(_) | Ex::Global(..) | Ex::OldGlobal(_) | Ex::Const(_) | Ex::TConst(_) => {}
        Ex::Unsupported(_) | Ex::SpecAccess { .. } => {}
        Ex::SpecEnum(p) => visit_ex(&p.1, f),
        Ex::Not(a) | Ex::Neg(a) | Ex::Conv(_, a) => visit_ex(a, f),
        Ex::Bin(_, p) | Ex::And(p) | Ex::Or(p) | Ex::Implies(p) | Ex::Iff(p) => {
            visit_ex(&p.0, f);
            visit_ex(&p.1, f);
        }
        Ex::Ite(t) => {
            visit_ex(&t.0, f);
            visit_ex(&t.1, f);
            visit_ex(&t.2, f);
        }
        Ex::Select(m, idx) => {
            visit_ex(m, f);
            idx.iter().for_each(|i| visit_ex(i, f));
        }
        Ex::SharedSelect(s) => s.levels.iter().flat_map(|l| l.iter()).for_each(|i| visit_ex(i, f)),
        Ex::Store(p, idx) => {
            visit_ex(&p.0, f);
            visit_ex(&p.1, f);
            idx.iter().for_each(|i| visit_ex(i, f));
        }
        Ex::Bv(_, args) | Ex::Call(_, args) => args.iter().for_each(|a| visit_ex(a, f)),
        Ex::Lambda(l) => {
            l.captures.iter().for_each(|a| visit_ex(a, f));
            visit_ex(&l.body, f);
        }
        Ex::Quant(q) => {
            for v in &q.vars {
                if let Domain::Range(lo, hi) = &v.dom {
                    visit_ex(lo, f);
                    visit_ex(hi, f);
                }
            }
            visit_ex(&q.body, f);
        }
    }
}

impl Compiler<'_> {
    fn procedure(&mut self, p: &ProcedureDecl, imp: Option<&ImplementationDecl>) -> ProcInfo {
        let kernel = has_attr(&p.attrs, "kernel") || imp.is_some_and(|i| has_attr(&i.attrs, "kernel"));
        let barrier = has_attr(&p.attrs, "barrier");
        let mut slot_tys: Vec<TyId> = Vec::new();
        for v in p.ins.iter().chain(&p.outs) {
            let t = self.ty_of(&v.ty);
            slot_tys.push(t);
        }
        self.uses_old = false;
        // Contracts, over the declaration's formals.
        let mut scope = FrameScope::new(false);
        for v in p.ins.iter().chain(&p.outs) {
            scope.bind(v.name.name.clone());
        }
        self.frames = vec![scope];
        let mut requires = Vec::new();
        let mut ensures = Vec::new();
        for ct in &p.contracts {
            let e = self.spec(&ct.expr);
            let spec = Spec { e, free: ct.free, span: ct.expr.span };
            match ct.kind {
                SpecKind::Requires => requires.push(spec),
                SpecKind::Ensures => ensures.push(spec),
            }
        }
        let mut frame_size = self.frames[0].max;
        let modifies = p.modifies.iter().filter_map(|m| self.global_index.get(&m.name).copied()).collect();

        // The body: an implementation, or a body written in the procedure declaration.
        let lowered = match (imp, &p.body) {
            (Some(i), _) => Some(ivl::lower::lower_body(i)),
            (None, Some(_)) => Some(ivl::lower::lower_procedure_body(p)),
            (None, None) => None,
        };
        let body = match lowered {
            None => None,
            Some(Err(ds)) => {
                self.diags.extend(ds);
                None
            }
            Some(Ok(bi)) => {
                let mut scope = FrameScope::new(false);
                for v in bi.ins.iter().chain(&bi.outs) {
                    scope.bind(v.name.name.clone());
                }
                for v in &bi.locals {
                    scope.bind(v.name.name.clone());
                    let t = self.ty_of(&v.ty);
                    slot_tys.push(t);
                }
                self.frames = vec![scope];
                let code = self.code(&bi);
                frame_size = frame_size.max(self.frames[0].max);
                Some(code)
            }
        };
        self.frames.clear();
        ProcInfo {
            name: p.name.name.clone(),
            span: p.name.span,
            kernel,
            barrier,
            in_names: p.ins.iter().map(|v| v.name.name.clone()).collect(),
            out_names: p.outs.iter().map(|v| v.name.name.clone()).collect(),
            slot_tys,
            frame_size,
            requires,
            ensures,
            modifies,
            body,
            uses_old: self.uses_old,
        }
    }

    /// Compiles a block body: blocks laid out in order, each `[guards][statements][jump]`.
    fn code(&mut self, bi: &BlockImpl) -> Code {
        let cfg = Cfg::new(bi);
        let index = bi.label_index();
        let nblocks = bi.blocks.len();
        let loops = cfg.loops();
        let mut code = Code {
            n_loops: loops.len() as u32,
            block_names: bi.blocks.iter().map(|b| b.label.name.clone()).collect(),
            block_loops: (0..nblocks)
                .map(|b| (0..loops.len() as u32).filter(|&l| loops[l as usize].contains(b)).collect())
                .collect(),
            entry_loops: (0..loops.len() as u32).filter(|&l| loops[l as usize].header == 0).collect(),
            actions: vec![Box::new([])],
            ..Code::default()
        };
        // Leading assumes of each block: its guards.
        let guard_count: Vec<usize> = bi
            .blocks
            .iter()
            .map(|b| b.stmts.iter().take_while(|s| matches!(s.kind, StmtKind::Assume { .. })).count())
            .collect();
        let mut block_start = vec![0u32; nblocks];
        let mut guard_end = vec![0u32; nblocks];
        let mut fixups: Vec<(usize, usize)> = Vec::new();
        for (bidx, b) in bi.blocks.iter().enumerate() {
            block_start[bidx] = code.instrs.len() as u32;
            let header_loop = cfg.loop_with_header(bidx).map(|l| l as u32);
            let mut i = 0;
            let mut leading = true;
            while i < b.stmts.len() {
                if i == guard_count[bidx] {
                    guard_end[bidx] = code.instrs.len() as u32;
                }
                let s = &b.stmts[i];
                leading &= matches!(s.kind, StmtKind::Assert { .. } | StmtKind::Assume { .. });
                let inv_loop = if leading { header_loop } else { None };
                i += self.stmt(&b.stmts[i..], inv_loop, &mut code, bidx as u32);
            }
            if guard_count[bidx] == b.stmts.len() {
                guard_end[bidx] = code.instrs.len() as u32;
            }
            fixups.push((code.instrs.len(), bidx));
            self.emit(&mut code, Instr::Return, b.span, bidx as u32, false);
        }
        // Terminators.
        for (pc, bidx) in fixups {
            let b = &bi.blocks[bidx];
            let targets: Vec<usize> = match &b.term {
                Terminator::Return => {
                    code.instrs[pc] = Instr::Return;
                    code.visible[pc] = true;
                    continue;
                }
                Terminator::Goto(ts) => ts.iter().filter_map(|t| index.get(&t.name).copied()).collect(),
            };
            let edge = |code: &mut Code, to: usize, guarded: bool| {
                let acts = edge_actions(&cfg, &code.block_loops, bidx, to);
                let act = if acts.is_empty() {
                    0
                } else {
                    code.actions.push(acts.into_boxed_slice());
                    code.actions.len() as u32 - 1
                };
                Edge { target: if guarded { guard_end[to] } else { block_start[to] }, act }
            };
            let guards_of = |t: usize| &bi.blocks[t].stmts[..guard_count[t]];
            self.touches_shared = false;
            let instr = match targets.as_slice() {
                [t] if guard_count[*t] == 0 => Instr::Jump(edge(&mut code, *t, false)),
                [a, b2] if is_branch_pair(guards_of(*a), guards_of(*b2)) => {
                    let StmtKind::Assume { expr, .. } = &guards_of(*a)[0].kind else { unreachable!() };
                    let cond = self.expr(expr);
                    let ea = edge(&mut code, *a, true);
                    let eb = edge(&mut code, *b2, true);
                    Instr::Branch(cond, ea, eb)
                }
                _ => {
                    let mut es = Vec::new();
                    for &t in &targets {
                        let guards = guards_of(t)
                            .iter()
                            .map(|s| match &s.kind {
                                StmtKind::Assume { expr, .. } => self.expr(expr),
                                _ => unreachable!(),
                            })
                            .collect();
                        es.push(GuardedEdge { edge: edge(&mut code, t, true), guards });
                    }
                    Instr::Goto(es.into_boxed_slice())
                }
            };
            code.instrs[pc] = instr;
            code.visible[pc] = self.touches_shared;
        }
        code
    }

    fn emit(&mut self, code: &mut Code, instr: Instr, span: Span, block: u32, visible: bool) {
        code.instrs.push(instr);
        code.spans.push(span);
        code.visible.push(visible);
        code.block_of.push(block);
    }

    /// Compiles the statement at the head of `stmts`; returns how many statements it consumed
    /// (a `havoc` swallows the `assume`s after it).
    fn stmt(&mut self, stmts: &[Stmt], inv_loop: Option<u32>, code: &mut Code, block: u32) -> usize {
        let s = &stmts[0];
        self.touches_shared = false;
        let mut consumed = 1;
        let mut visible = false;
        let instr = match &s.kind {
            StmtKind::Assign { lhss, rhss } => {
                let rhs = self.exprs(rhss);
                let lhs: Vec<Lhs> =
                    lhss.iter().map(|l| self.lhs(&Lhs0 { var: &l.var, indices: &l.indices, span: l.span })).collect();
                match (lhs.as_slice(), rhs.len()) {
                    ([Lhs { place: Place::Local(s), levels, .. }], 1) if levels.is_empty() => {
                        Instr::SetLocal(*s, rhs.into_vec().pop().unwrap())
                    }
                    _ => Instr::Assign(lhs.into_boxed_slice(), rhs),
                }
            }
            StmtKind::Havoc(ids) => {
                let lhs: Vec<Lhs> =
                    ids.iter().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span })).collect();
                let mut cons = Vec::new();
                while let Some(StmtKind::Assume { expr, .. }) = stmts.get(consumed).map(|s| &s.kind) {
                    cons.push(self.expr(expr));
                    consumed += 1;
                }
                Instr::Havoc(lhs.into_boxed_slice(), cons.into_boxed_slice())
            }
            StmtKind::Assert { attrs, expr } => {
                let named = check_kind(attrs);
                let kind = match (named, inv_loop) {
                    ("invariant" | "assertion", Some(l)) => CheckKind::LoopInvariant(l),
                    ("invariant", None) => CheckKind::Fixed(ErrorKind::InvariantMaintained),
                    (k, _) => CheckKind::Fixed(vcgen::report::error_kind(k)),
                };
                // `__uniform(e)` conjuncts become cross-thread checks of their own.
                let (uniform, rest): (Vec<&Expr>, Vec<&Expr>) = conjuncts(expr).into_iter().partition(
                    |c| matches!(&c.kind, ExprKind::Call(f, a) if f.as_str() == "__uniform" && a.len() == 1),
                );
                let mut instrs: Vec<Instr> = Vec::new();
                for u in uniform {
                    let ExprKind::Call(_, a) = &u.kind else { unreachable!() };
                    let e = self.expr(&a[0]);
                    self.uniform_sites += 1;
                    instrs.push(Instr::Uniform { e, kind, site: self.uniform_sites - 1 });
                }
                if !rest.is_empty() || instrs.is_empty() {
                    let mut it = rest.into_iter().cloned();
                    let first = it.next().unwrap_or_else(|| Expr::bool(true));
                    let e = self.spec(&it.fold(first, Expr::and));
                    instrs.push(Instr::Assert { e, kind, related: related_span(attrs) });
                }
                let last = instrs.pop().unwrap();
                for i in instrs {
                    self.emit(code, i, s.span, block, false);
                }
                last
            }
            StmtKind::Assume { expr, .. } => Instr::Assume(self.spec(expr)),
            StmtKind::Call { outs, proc, args, .. } => {
                visible = true;
                let args = self.exprs(args);
                match self.proc_index.get(&proc.name) {
                    None => Instr::Unsupported(Rc::new(
                        Diagnostic::type_error(format!("undeclared procedure `{}`", proc.name), proc.span)
                            .with_label("not declared"),
                    )),
                    Some(&pid) => {
                        let outs: Vec<Lhs> =
                            outs.iter().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span })).collect();
                        if self.proc_is_barrier(&proc.name) {
                            let mut a = args.into_vec().into_iter();
                            let local = a.next().map_or(Fence::Yes, Fence::Arg);
                            let global = a.next().map_or(Fence::Yes, Fence::Arg);
                            Instr::Barrier(Box::new(BarrierSite { local, global, invariants: Vec::new() }))
                        } else {
                            Instr::Call(Box::new(CallSite { proc: pid, args, outs: outs.into_boxed_slice() }))
                        }
                    }
                }
            }
            StmtKind::Barrier { attrs, invariants } => {
                visible = true;
                let (l, g) = (has_attr(attrs, "local"), has_attr(attrs, "global"));
                let both = !l && !g;
                let fence = |b: bool| if b || both { Fence::Yes } else { Fence::No };
                let invariants = invariants.iter().map(|i| (self.spec(&i.expr), i.span)).collect();
                Instr::Barrier(Box::new(BarrierSite { local: fence(l), global: fence(g), invariants }))
            }
            StmtKind::Atomic(a) => {
                visible = true;
                let args = self.exprs(&a.args);
                let t = &a.target;
                let target = self.lhs(&Lhs0 { var: &t.var, indices: &t.indices, span: t.span });
                let out = a.out.as_ref().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span }));
                Instr::Atomic(Box::new(AtomicSite { op: a.op, target, args, out }))
            }
            StmtKind::Vector(_) => Instr::Unsupported(Rc::new(Diagnostic::unsupported(
                "lock-step vector statements cannot be run by `kivl run` (run the kernel before the lock-step pass)",
                s.span,
            ))),
            _ => Instr::Unsupported(Rc::new(Diagnostic::unsupported(
                "a structured statement inside a basic block (internal: lowering left it)",
                s.span,
            ))),
        };
        // Checks other than plain assertions (invariants, contracts) are specifications: their
        // reads are not accesses of the program (and need no scheduling point).
        let spec = match &instr {
            Instr::Assert { kind, e, .. } => {
                *kind != CheckKind::Fixed(ErrorKind::Assertion) || matches!(e, Ex::SpecEnum(_))
            }
            Instr::Uniform { .. } => true,
            _ => false,
        };
        let visible = visible || (self.touches_shared && !spec);
        let span = match &s.kind {
            StmtKind::Havoc(_) if consumed > 1 => s.span.to(stmts[consumed - 1].span),
            _ => s.span,
        };
        self.emit(code, instr, span, block, visible);
        consumed
    }

    fn proc_is_barrier(&self, name: &str) -> bool {
        self.env.procedure(name).is_some_and(|p| p.barrier)
    }
}

/// `assume c` / `assume !c` leading two targets: an if-then-else.
fn is_branch_pair(a: &[Stmt], b: &[Stmt]) -> bool {
    match (a, b) {
        ([sa], [sb]) => match (&sa.kind, &sb.kind) {
            (StmtKind::Assume { expr: c, attrs: a1 }, StmtKind::Assume { expr: nc, attrs: a2 }) => {
                a1.is_empty() && a2.is_empty() && matches!(&nc.kind, ExprKind::Unary(UnOp::Not, inner) if **inner == *c)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Loop-counter actions of edge `from -> to` (seed 000 §3: a loop's counter is incremented each
/// time its header is reached and reset on exit from the loop).
fn edge_actions(cfg: &Cfg, block_loops: &[Box<[u32]>], from: usize, to: usize) -> Vec<LoopAct> {
    let mut acts = Vec::new();
    for &l in block_loops[from].iter() {
        if !block_loops[to].contains(&l) {
            acts.push(LoopAct::Reset(l));
        }
    }
    if let Some(l) = cfg.loop_with_header(to) {
        acts.push(LoopAct::Inc(l as u32));
    }
    acts
}

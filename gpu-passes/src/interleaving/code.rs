//! The interpreter's compact form of a program, produced by [`super::compile`].
//!
//! Why: the interpreter must run ≥ 10 million simple statements per second, so the hot loop
//! must not look names up, clone syntax trees or walk nested statements. Every variable becomes
//! a slot (a frame index for locals and bound variables, a global number for `var`s and
//! constants, a per-thread index for the thread-identity constants of docs/kbpl.md §4), every body
//! becomes a flat instruction array over the basic blocks of [`ivl::lower`] with jumps resolved
//! to instruction indices, and each block-to-block edge carries the loop-counter updates that
//! the barrier rules B1/B2 of seed 000 §3 (Fig. 4d) need.

use super::bitvec::BvOp;
use super::types::{RTy, TyId};
use super::value::Value;
use ivl::ast::{AtomicOp, BinOp, Name, Span};
use ivl::diag::{Diagnostic, ErrorKind};
use std::rc::Rc;

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
    /// A strict binary operator (comparison, arithmetic, `++`): both operands are evaluated.
    /// The short-circuit connectives have variants of their own ([`Ex::And`], [`Ex::Or`],
    /// [`Ex::Implies`], [`Ex::Iff`]; `<==` becomes an `Implies`), and `<:` and `**` are compiled to
    /// [`Ex::Unsupported`], so those operators of [`BinOp`] never appear here.
    Bin(BinOp, Box<(Ex, Ex)>),
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
    /// Its number in [`Compiled::lambdas`] (what a lambda value refers to).
    pub id: u32,
    pub nbound: u32,
    pub frame: u32,
    pub captures: Vec<Ex>,
    pub capture_slots: Vec<u32>,
    pub body: Ex,
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
    /// Every `lambda` of the program, by [`LambdaProto::id`].
    pub lambdas: Vec<Rc<LambdaProto>>,
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

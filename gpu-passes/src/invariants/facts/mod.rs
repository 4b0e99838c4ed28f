//! What the candidate rules need to know about a kernel and its loops.
//!
//! Why: the rules of seed 001 §4.3 are stated over source patterns ("`A[lid + C]` occurs in the
//! loop", "`i = i * 2` occurs in the loop", "`i = lid` appears before the loop"). Reading those
//! off the syntax tree directly would have to be done twice, once for structured `while` loops
//! and once for Bugle-style `goto` loops. Instead every body is lowered to blocks
//! ([`ivl::lower`]) and its natural loops are found on the CFG ([`ivl::cfg`]); a loop's facts —
//! the variables it modifies and how, the values they have on entry (reaching definitions), its
//! guard, whether it contains a barrier, its shared-memory accesses with the conditions that
//! guard them — are then the same for both forms. Each loop remembers where its invariants go
//! in the source ([`Site`]): the `k`-th `while` of the body in pre-order, or the user label of a
//! goto loop's header block.
//!
//! The parts: [`loops`] (lowering, natural loops, their effects, guards and entry values),
//! [`procedures`] (what each procedure does: barriers, writes, shared accesses) and
//! [`classify`] (what a loop's expressions depend on and how its variables change); here the
//! facts themselves and what is known of the whole program.

use super::arith::{Arith, Num, Op, Term, View};
pub use crate::sizes::Sizes;
pub use crate::uniformity::Class;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::cfg::Cfg;
use ivl::check::{build_env, locals_of, type_of, GlobalEnv, GlobalKind, Ty, IDENTITY_ATTRS};
use ivl::resolve::identity_attr;
use ivl::visit::free_vars;
use std::collections::{BTreeSet, HashMap, HashSet};

mod classify;
mod loops;
mod procedures;
mod syntax;

pub use loops::{for_each_while, user_labels};
use syntax::body_of;

/// The attribute that tags `while` loops before lowering (never in an output program).
const LOOP_TAG: &str = "kivl_loop_tag";

/// Where a loop's invariants go.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    /// The `k`-th `while` statement of the body, in pre-order (see [`for_each_while`]).
    While(usize),
    /// The header block of a goto loop, by its label.
    Label(Name),
}

/// A shared-memory access made in a loop (directly or by a called procedure), as a source
/// pattern for the candidate rules: the array, the index of its outermost level and the
/// conditions that dominate it. Not the exact per-step access of the race instrumentation
/// (`crate::lockstep::accesses::Access`, whole location and evaluation condition): the rules
/// match patterns such as `A[lid + C]` before predication, when no such step exists yet.
#[derive(Clone, Debug)]
pub struct LoopAccess {
    pub array: Name,
    /// The index of the outermost map level.
    pub index: Expr,
    /// Number of index levels (`A[i][j]` has 2).
    pub levels: usize,
    pub write: bool,
    /// The written value.
    pub value: Option<Expr>,
    /// Conditions that hold when the access happens (the `assume`s of the blocks dominating it
    /// inside the loop).
    pub conds: Vec<Expr>,
}

/// How a loop updates a variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// `x := x + step` (or `x - step`: `down`), `step` uniform and loop-invariant.
    Additive { step: Expr, down: bool },
    /// `x := x * 2`, `x := x + x`, `x := x << 1`.
    Double,
    /// `x := x div 2`, `x := x >> 1`.
    Half,
    /// Anything else.
    Other,
}

/// What a procedure does when called: its shared accesses (over its formals) and barriers.
#[derive(Clone, Debug, Default)]
pub struct ProcSummary {
    pub ins: Vec<Name>,
    pub accesses: Vec<LoopAccess>,
    pub has_barrier: bool,
}

/// Facts about one loop.
#[derive(Clone, Debug)]
pub struct LoopFacts {
    pub proc: Name,
    pub site: Site,
    /// The `while` statement, or the header label.
    pub span: Span,
    pub depth: usize,
    /// Local variables (and out-parameters) the loop assigns, havocs or receives from calls.
    pub modified: Vec<Name>,
    /// `x := e` assignments of the loop, in block order.
    pub assigns: Vec<(Name, Expr)>,
    /// The value of a variable on entry to the loop: the single definition that reaches the
    /// header from outside the loop, when its right-hand side is unchanged by the loop.
    pub init: HashMap<Name, Expr>,
    /// Conditions under which the loop is iterated (`while (c)`, or the `assume c` leading a
    /// block inside the loop that is a sibling of an exit).
    pub guards: Vec<Expr>,
    pub has_barrier: bool,
    pub accesses: Vec<LoopAccess>,
    /// `assume`s of the blocks that dominate the loop (enclosing conditions).
    pub outer_conds: Vec<Expr>,
    /// Parameters and locals of the enclosing body, with their types.
    pub locals: HashMap<Name, Ty>,
    pub kernel: bool,
}

/// A procedure or implementation with a body that a kernel reaches.
#[derive(Clone, Debug)]
pub struct BodyOwner {
    pub decl: usize,
    pub name: Name,
    pub kernel: bool,
}

/// Program-wide facts.
pub struct ProgramFacts<'p> {
    pub program: &'p Program,
    pub env: GlobalEnv,
    pub arith: Arith,
    pub sizes: Sizes,
    /// Thread-identity attribute of each identity constant name.
    identity: HashMap<Name, &'static str>,
    /// Identity constant names by attribute (declared, else the prelude name).
    pub id_names: HashMap<&'static str, Name>,
    /// Procedures whose call is (or contains) a barrier.
    pub barrier_procs: HashSet<Name>,
    pub summaries: HashMap<Name, ProcSummary>,
    pub owners: Vec<BodyOwner>,
    /// Kernel parameters are uniform; so are these (kernel names).
    pub kernels: HashSet<Name>,
    written_arrays: Vec<Name>,
    /// Sizes fixed exactly, by identity attribute.
    fixed: HashMap<&'static str, u64>,
    /// The values the uniform loop variables take at each `while` head, by procedure and
    /// pre-order number ([`super::values`]).
    pub loop_values: HashMap<(Name, usize), Vec<super::values::Tuple>>,
}

impl<'p> ProgramFacts<'p> {
    pub fn new(program: &'p Program, sizes: Sizes) -> ProgramFacts<'p> {
        let (env, _) = build_env(&program.decls);
        let mut identity = HashMap::new();
        let mut id_names: HashMap<&'static str, Name> = HashMap::new();
        let mut declared: HashSet<Name> = HashSet::new();
        for d in &program.decls {
            match &d.kind {
                DeclKind::Const(c) => {
                    for n in &c.names {
                        declared.insert(n.name.clone());
                        if let Some((attr, _)) = identity_attr(&c.attrs) {
                            identity.insert(n.name.clone(), attr);
                            id_names.entry(attr).or_insert_with(|| n.name.clone());
                        }
                    }
                }
                DeclKind::Var(v) => declared.extend(v.vars.iter().map(|v| v.name.name.clone())),
                _ => {}
            }
        }
        for attr in IDENTITY_ATTRS {
            if !declared.contains(attr) && env.has_kernel {
                identity.insert(Name::from(attr), attr);
                id_names.entry(attr).or_insert_with(|| Name::from(attr));
            }
        }
        let taken = all_names(program);
        let arith = Arith::new(program, &env, taken);
        // Sizes fixed exactly: given ones (all dimensions), and single ones axioms fix.
        let mut fixed = axiom_sizes(program, &identity, &arith);
        for (base, dims) in [(6usize, sizes.local), (9, sizes.groups)] {
            for (d, v) in dims.iter().flatten().enumerate() {
                fixed.insert(IDENTITY_ATTRS[base + d], *v);
            }
        }
        // For the heuristics (bounds of power-of-two families), unknown y and z count as 1.
        let guess = |base: usize| {
            let x = *fixed.get(IDENTITY_ATTRS[base])?;
            let dim = |d: usize| fixed.get(IDENTITY_ATTRS[base + d]).copied().unwrap_or(1);
            Some([x, dim(1), dim(2)])
        };
        let sizes = Sizes { local: sizes.local.or_else(|| guess(6)), groups: sizes.groups.or_else(|| guess(9)) };
        let kernels: HashSet<Name> = program
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Procedure(p) if has_attr(&p.attrs, "kernel") => Some(p.name.name.clone()),
                DeclKind::Implementation(i) if has_attr(&i.attrs, "kernel") => Some(i.name.name.clone()),
                _ => None,
            })
            .collect();
        let mut facts = ProgramFacts {
            program,
            env,
            arith,
            sizes,
            identity,
            id_names,
            barrier_procs: HashSet::new(),
            summaries: HashMap::new(),
            owners: Vec::new(),
            kernels,
            written_arrays: Vec::new(),
            fixed,
            loop_values: HashMap::new(),
        };
        facts.summarise_procedures();
        facts.written_arrays = facts.compute_written_arrays();
        facts.loop_values = facts.simulate_uniform_values();
        facts
    }

    /// The shared arrays (global variables of map type) that bodies reachable from kernels
    /// write, in declaration order. Only they can race: an array nobody writes needs no
    /// access-log invariant.
    pub fn shared_arrays(&self) -> Vec<Name> {
        self.written_arrays.clone()
    }

    fn compute_written_arrays(&self) -> Vec<Name> {
        let mut used: HashSet<Name> = HashSet::new();
        for o in &self.owners {
            if let Some((.., body)) = body_of(&self.program.decls[o.decl]) {
                ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
                    for x in ivl::modifies::written_vars(s) {
                        used.insert(x.name.clone());
                    }
                });
            }
        }
        let mut out = Vec::new();
        for d in &self.program.decls {
            if let DeclKind::Var(v) = &d.kind {
                for x in &v.vars {
                    let is_map = self.env.global_var(&x.name.name).is_some_and(|g| g.ty.as_map().is_some());
                    if is_map && used.contains(&x.name.name) {
                        out.push(x.name.name.clone());
                    }
                }
            }
        }
        out
    }

    fn simulate_uniform_values(&self) -> HashMap<(Name, usize), Vec<super::values::Tuple>> {
        use super::values::Val;
        let consts: HashMap<Name, Val> = self
            .size_literals()
            .into_iter()
            .filter_map(|(n, e)| match &e.kind {
                ExprKind::IntLit(v) => Some((n, Val::Int(v.clone().into()))),
                ExprKind::BvLit { value, width } => Some((n, Val::Bv(value.clone().into(), *width))),
                _ => None,
            })
            .collect();
        let mut out = HashMap::new();
        for o in &self.owners {
            let Some((name, _, ins, outs, body)) = body_of(&self.program.decls[o.decl]) else {
                continue;
            };
            let locals = locals_of(&self.env, ins, outs, Some(body));
            for (k, tuples) in super::values::simulate(body, &locals, &consts, &self.arith) {
                if let Some(t) = tuples {
                    out.insert((name.clone(), k), t);
                }
            }
        }
        out
    }

    /// The known sizes as literals, by the names of their constants (`group_size_x` -> `64`):
    /// candidates state them so, which keeps `mod group_size_x` linear for the solver.
    ///
    /// Only sizes fixed exactly count: those given (every dimension; missing ones are 1) and
    /// those an axiom `c == N` fixes, one by one.
    pub fn size_literals(&self) -> HashMap<Name, Expr> {
        let mut out = HashMap::new();
        for (name, attr) in &self.identity {
            let Some(v) = self.fixed.get(attr) else { continue };
            let ty = self.env.global(name).map(|g| g.ty.clone());
            let Some(num) = ty.as_ref().and_then(Num::of) else {
                continue;
            };
            out.insert(name.clone(), self.arith.lit(num, *v as i64));
        }
        out
    }

    /// The thread-identity attribute of a name (`"local_id_x"` …).
    pub fn identity(&self, name: &str) -> Option<&'static str> {
        self.identity.get(name).copied()
    }

    pub fn num_of(&self, locals: &HashMap<Name, Ty>, e: &Expr) -> Option<Num> {
        type_of(&self.env, &|n: &str| locals.get(n).cloned(), e).as_ref().and_then(Num::of)
    }

    pub fn type_of(&self, locals: &HashMap<Name, Ty>, e: &Expr) -> Option<Ty> {
        type_of(&self.env, &|n: &str| locals.get(n).cloned(), e)
    }
}

/// Every identifier of a program and the identity attributes (names new declarations must
/// avoid).
pub fn all_names(program: &Program) -> HashSet<Name> {
    let mut names = ivl::visit::all_names(program);
    names.extend(IDENTITY_ATTRS.iter().map(|a| Name::from(*a)));
    names
}

/// Sizes fixed by axioms `c == N` over size constants, by identity attribute.
fn axiom_sizes(program: &Program, identity: &HashMap<Name, &'static str>, arith: &Arith) -> HashMap<&'static str, u64> {
    let mut out = HashMap::new();
    let mut conjuncts = Vec::new();
    for d in &program.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            split_and(&a.expr, &mut conjuncts);
        }
    }
    for c in conjuncts {
        let ExprKind::Binary(BinOp::Eq, a, b) = &c.kind else {
            continue;
        };
        for (x, v) in [(a, b), (b, a)] {
            let ExprKind::Var(id) = &x.kind else { continue };
            let Some(attr) = identity.get(&id.name) else {
                continue;
            };
            if !attr.starts_with("group_size") && !attr.starts_with("num_groups") {
                continue;
            }
            if let Some(n) = arith.lit_value(v).and_then(|n| u64::try_from(n).ok()) {
                out.insert(*attr, n);
            }
        }
    }
    out
}

pub fn split_and<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            split_and(a, out);
            split_and(b, out);
        }
        _ => out.push(e),
    }
}

//! Uniformity: which values are equal in the two modelled threads, and which blocks
//! both threads execute together — the main optimisation of the two-thread reduction (seed 001
//! §4.1.5: predicates are only needed where threads can disagree; GPUVerify keeps one copy of
//! every uniform variable).
//!
//! Runs on a preprocessed kernel body (`crate::preprocess`: guards lead every block, one exit
//! block). Definitions:
//! - a *branch* of block `X` is uniform when `X` is a uniform block and `X` has at most one
//!   successor, or two successors whose guards are uniform and complementary (`c` / `!c`,
//!   `a < b` / `a >= b`, …). A single successor is uniform whatever its guard: a thread whose
//!   guard fails makes the whole execution infeasible. Nondeterministic branches (`if (*)`)
//!   are not uniform: each thread chooses;
//! - a block `Y` is *uniform* when every branch it is control-dependent on (Ferrante et al.,
//!   via post-dominators) is uniform. In the lock-step program both threads are then at `Y`
//!   when the program runs `Y`, or neither is;
//! - a local is *uniform* when it is not live at the entry (uninitialised values differ per
//!   thread), never havocked while live, and only assigned in uniform blocks from uniform
//!   expressions. Sources of non-uniformity: per-thread identity constants, reads of shared
//!   memory (abstracted per thread), havoc.
//!
//! Everything is a greatest fixpoint from "all uniform", decreasing; a body with a block that
//! cannot reach the exit is treated as entirely non-uniform.
//!
//! The same concept has a second, expression-level view: [`Class`], which kinds of values an
//! expression depends on at a loop head (a local id, a group id, a variable the loop modifies,
//! shared memory). Candidate invariant generation (`crate::invariants::facts`,
//! `ProgramFacts::classify`) uses it; "uniform" there is [`Class::is_uniform_invariant`]. The two
//! differ on purpose: [`analyse`] is flow-sensitive over a whole body (control dependence,
//! liveness) and answers "equal in both threads"; [`Class`] is read off an expression and the
//! loop's entry values, keeps apart the thread-identity sources (local vs group id, which the
//! candidate rules of seed 001 §4.3 need), and adds loop variance.

use crate::preprocess::guard;
use ivl::ast::*;
use ivl::blocks::{BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::visit::{free_vars, strip_spans};
use std::collections::HashSet;

#[derive(Clone, Debug, Default)]
pub(crate) struct Uniformity {
    /// Labels of the uniform blocks.
    pub blocks: HashSet<Name>,
    /// Uniform locals and out-parameters.
    pub vars: HashSet<Name>,
    /// Every block is uniform: the threads never disagree on control flow.
    pub all_blocks: bool,
}

/// Which kinds of values an expression depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Class {
    /// A local id (`local_id_x` …).
    pub lid: bool,
    /// A group id.
    pub group: bool,
    /// A variable the loop modifies.
    pub varying: bool,
    /// Shared memory, or something the analysis cannot follow.
    pub other: bool,
}

impl Class {
    /// The class of a thread-identity constant, by its attribute (`"local_id_x"` …): a local or
    /// group id; sizes are the same in every thread.
    pub fn of_identity(attr: &str) -> Class {
        Class { lid: attr.starts_with("local_id"), group: attr.starts_with("group_id"), ..Class::default() }
    }

    pub fn join(self, o: Class) -> Class {
        Class {
            lid: self.lid || o.lid,
            group: self.group || o.group,
            varying: self.varying || o.varying,
            other: self.other || o.other,
        }
    }
    /// Uniform across threads and unchanged by the loop.
    pub fn is_uniform_invariant(self) -> bool {
        self == Class::default()
    }
    /// Depends on thread identity but is unchanged by the loop.
    pub fn is_thread_invariant(self) -> bool {
        (self.lid || self.group) && !self.varying && !self.other
    }
}

/// Guard normal form: the base relation and its polarity.
fn normal(e: &Expr) -> (Expr, bool) {
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => {
            let (b, p) = normal(a);
            (b, !p)
        }
        ExprKind::Binary(op @ (BinOp::Ge | BinOp::Gt | BinOp::Neq), a, b) => {
            let base = match op {
                BinOp::Ge => BinOp::Lt,
                BinOp::Gt => BinOp::Le,
                _ => BinOp::Eq,
            };
            let mut e = Expr::binary(base, (**a).clone(), (**b).clone());
            strip_spans(&mut e);
            (e, false)
        }
        _ => {
            let mut e = e.clone();
            strip_spans(&mut e);
            (e, true)
        }
    }
}

/// Whether exactly one of two guards holds, syntactically.
pub(crate) fn complementary(a: &Expr, b: &Expr) -> bool {
    let (x, p) = normal(a);
    let (y, q) = normal(b);
    p != q && x == y
}

/// Post-dominator sets (`None` for blocks that cannot reach the exit).
fn post_dominators(cfg: &Cfg, exits: &[usize]) -> Vec<Option<Vec<bool>>> {
    let n = cfg.len();
    let mut reach = vec![false; n];
    let mut stack: Vec<usize> = exits.to_vec();
    for &e in exits {
        reach[e] = true;
    }
    while let Some(b) = stack.pop() {
        for &p in cfg.predecessors(b) {
            if !reach[p] {
                reach[p] = true;
                stack.push(p);
            }
        }
    }
    let mut pdom: Vec<Vec<bool>> = (0..n).map(|_| vec![true; n]).collect();
    for &e in exits {
        pdom[e] = vec![false; n];
        pdom[e][e] = true;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            if !reach[b] || exits.contains(&b) {
                continue;
            }
            let mut s = vec![true; n];
            for &c in cfg.successors(b) {
                if reach[c] {
                    for i in 0..n {
                        s[i] &= pdom[c][i];
                    }
                }
            }
            s[b] = true;
            if s != pdom[b] {
                pdom[b] = s;
                changed = true;
            }
        }
    }
    (0..n).map(|b| reach[b].then(|| pdom[b].clone())).collect()
}

/// Uses and full definitions of a statement (in evaluation order: uses first).
fn uses_defs(s: &Stmt) -> (Vec<Name>, Vec<Name>) {
    match &s.kind {
        StmtKind::Assign { lhss, rhss } => {
            let mut uses = free_vars(rhss);
            let mut defs = Vec::new();
            for l in lhss {
                uses.extend(free_vars(&l.indices));
                if l.indices.is_empty() {
                    defs.push(l.var.name.clone());
                } else {
                    uses.push(l.var.name.clone());
                }
            }
            (uses, defs)
        }
        StmtKind::Havoc(xs) => (vec![], xs.iter().map(|x| x.name.clone()).collect()),
        _ => (free_vars(s), vec![]),
    }
}

/// Live variables (among `vars`) at the start of every block, and at its end. Out-parameters
/// are live at the exit (their final values are the results).
fn liveness(imp: &BlockImpl, cfg: &Cfg, vars: &HashSet<Name>) -> (Vec<HashSet<Name>>, Vec<HashSet<Name>>) {
    let outs: HashSet<Name> = imp.outs.iter().map(|v| v.name.name.clone()).collect();
    let n = imp.blocks.len();
    let mut live_in: Vec<HashSet<Name>> = vec![HashSet::new(); n];
    let mut live_out: Vec<HashSet<Name>> = vec![HashSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut out: HashSet<Name> = cfg.successors(b).iter().flat_map(|&s| live_in[s].iter().cloned()).collect();
            if imp.blocks[b].term == Terminator::Return {
                out.extend(outs.iter().cloned());
            }
            let mut live = out.clone();
            for s in imp.blocks[b].stmts.iter().rev() {
                let (uses, defs) = uses_defs(s);
                for d in defs {
                    live.remove(&d);
                }
                live.extend(uses.into_iter().filter(|u| vars.contains(u)));
            }
            if live != live_in[b] || out != live_out[b] {
                live_in[b] = live;
                live_out[b] = out;
                changed = true;
            }
        }
    }
    (live_in, live_out)
}

/// Whether `x` is live right after statement `i` of block `b`.
fn live_after(imp: &BlockImpl, live_out: &[HashSet<Name>], b: usize, i: usize, x: &Name) -> bool {
    for s in &imp.blocks[b].stmts[i + 1..] {
        let (uses, defs) = uses_defs(s);
        if uses.contains(x) {
            return true;
        }
        if defs.contains(x) {
            return false;
        }
    }
    live_out[b].contains(x)
}

/// The analysis. `per_thread` are names whose value differs between the threads (per-thread
/// identity constants, shared variables); every other name that is not a local or out of the
/// body (parameters, constants) is uniform.
pub(crate) fn analyse(imp: &BlockImpl, per_thread: &HashSet<Name>) -> Uniformity {
    let cfg = Cfg::new(imp);
    let n = imp.blocks.len();
    let locals: HashSet<Name> = imp.locals.iter().chain(&imp.outs).map(|v| v.name.name.clone()).collect();
    let exits: Vec<usize> = (0..n).filter(|&b| imp.blocks[b].term == Terminator::Return).collect();
    let pdom = post_dominators(&cfg, &exits);
    let reachable: Vec<usize> = (0..n).filter(|&b| cfg.is_reachable(b)).collect();
    if reachable.iter().any(|&b| pdom[b].is_none()) {
        return Uniformity::default();
    }
    // cd[y]: the blocks whose branch y is control-dependent on.
    let mut cd: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &x in &reachable {
        let px = pdom[x].as_ref().expect("reaches the exit");
        for &s in cfg.successors(x) {
            let ps = pdom[s].as_ref().expect("reaches the exit");
            for y in 0..n {
                if ps[y] && (y == x || !px[y]) && !cd[y].contains(&x) {
                    cd[y].push(x);
                }
            }
        }
    }
    let (live_in, live_out) = liveness(imp, &cfg, &locals);
    let mut nonuni: HashSet<Name> = per_thread.clone();
    nonuni.extend(live_in[cfg.entry()].iter().cloned());
    for &b in &reachable {
        for (i, s) in imp.blocks[b].stmts.iter().enumerate() {
            if let StmtKind::Havoc(xs) = &s.kind {
                for x in xs {
                    if live_after(imp, &live_out, b, i, &x.name) {
                        nonuni.insert(x.name.clone());
                    }
                }
            }
        }
    }
    let mut uniform_block = vec![true; n];
    loop {
        let mut changed = false;
        let branch_uniform = |x: usize, ub: &[bool], nonuni: &HashSet<Name>| -> bool {
            if !ub[x] {
                return false;
            }
            let succs = cfg.successors(x);
            if succs.len() <= 1 {
                return true;
            }
            if succs.len() != 2 {
                return false;
            }
            let g: Vec<Expr> =
                succs.iter().map(|&s| guard(&imp.blocks[s]).cloned().unwrap_or_else(|| Expr::bool(true))).collect();
            g.iter().all(|e| free_vars(e).iter().all(|v| !nonuni.contains(v))) && complementary(&g[0], &g[1])
        };
        for &y in &reachable {
            if uniform_block[y] && cd[y].iter().any(|&x| !branch_uniform(x, &uniform_block, &nonuni)) {
                uniform_block[y] = false;
                changed = true;
            }
        }
        for &b in &reachable {
            for s in &imp.blocks[b].stmts {
                if let StmtKind::Assign { lhss, rhss } = &s.kind {
                    let rhs_nonuni = free_vars(rhss).iter().any(|v| nonuni.contains(v));
                    for l in lhss {
                        let idx_nonuni = free_vars(&l.indices).iter().any(|v| nonuni.contains(v));
                        if (!uniform_block[b] || rhs_nonuni || idx_nonuni) && nonuni.insert(l.var.name.clone()) {
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let blocks: HashSet<Name> =
        reachable.iter().filter(|&&b| uniform_block[b]).map(|&b| imp.blocks[b].label.name.clone()).collect();
    let all_blocks = reachable.iter().all(|&b| uniform_block[b]);
    let vars = locals.into_iter().filter(|v| !nonuni.contains(v)).collect();
    Uniformity { blocks, vars, all_blocks }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_body(src: &str) -> BlockImpl {
        let (p, d) = ivl::parser::parse_program(src);
        assert!(d.is_empty(), "{d:?}");
        let pr = p.procedures().next().unwrap();
        let b = ivl::lower::lower_procedure_body(pr).unwrap();
        crate::preprocess::preprocess(&b).unwrap()
    }

    fn run(src: &str) -> Uniformity {
        let imp = parse_body(src);
        analyse(&imp, &["tid".into(), "A".into()].into_iter().collect())
    }

    #[test]
    fn loop_counter_is_uniform_and_guarded_value_is_not() {
        let u = run("procedure k(n: int) { var i, x, y: int; i := 0; while (i < n) { if (tid < i) { x := 1; } y := i; i := i + 1; } }");
        assert!(u.vars.contains("i"));
        assert!(u.vars.contains("y"));
        assert!(!u.vars.contains("x"), "assigned under a thread-dependent branch");
        assert!(!u.all_blocks);
    }

    #[test]
    fn shared_reads_and_uninitialised_values_are_not_uniform() {
        let u = run("procedure k() { var a, b, c: int; a := A[0]; c := b + 1; }");
        assert!(!u.vars.contains("a"));
        assert!(!u.vars.contains("c"), "b is uninitialised");
        assert!(u.all_blocks);
    }

    #[test]
    fn thread_dependent_loop_makes_its_body_non_uniform() {
        let u = run("procedure k() { var i: int; i := 0; while (i < tid) { i := i + 1; } }");
        assert!(!u.vars.contains("i"));
        assert!(!u.all_blocks);
    }

    #[test]
    fn nondeterministic_branch_is_not_uniform() {
        let u = run("procedure k() { var x: int; x := 0; if (*) { x := 1; } }");
        assert!(!u.vars.contains("x"));
        let u = run("procedure k(n: int) { var x: int; x := 0; if (n > 0) { x := 1; } else { x := 2; } }");
        assert!(u.vars.contains("x"));
        assert!(u.all_blocks);
    }

    #[test]
    fn unassigned_results_are_not_uniform() {
        let (p, d) = ivl::parser::parse_program("procedure k() returns (r: int, s: int) { s := 1; }");
        assert!(d.is_empty());
        let pr = p.procedures().next().unwrap();
        let imp = crate::preprocess::preprocess(&ivl::lower::lower_procedure_body(pr).unwrap()).unwrap();
        let u = analyse(&imp, &HashSet::new());
        assert!(!u.vars.contains("r"), "an unassigned result differs per thread");
        assert!(u.vars.contains("s"));
    }

    #[test]
    fn complementary_guards() {
        let e = |s: &str| {
            let (p, d) = ivl::parser::parse_program(&format!("procedure p(a: int, b: int) {{ assume {s}; }}"));
            assert!(d.is_empty());
            let pr = p.procedures().next().unwrap().clone();
            match &pr.body.unwrap().stmts[0].kind {
                StmtKind::Assume { expr, .. } => expr.clone(),
                _ => unreachable!(),
            }
        };
        assert!(complementary(&e("a < b"), &e("!(a < b)")));
        assert!(complementary(&e("a < b"), &e("a >= b")));
        assert!(complementary(&e("a == b"), &e("a != b")));
        assert!(!complementary(&e("a < b"), &e("a > b")));
        assert!(!complementary(&e("true"), &e("true")));
    }
}

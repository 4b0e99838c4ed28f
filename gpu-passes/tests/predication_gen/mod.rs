//! Random reducible CFG programs for the property tests of the sort order and of predication,
//! and a tiny evaluator of block bodies (the concrete semantics of seed 000 §3, one thread).
//!
//! Programs are built from structured shapes that compilers produce — sequences, `if`,
//! `if (*)`, short-circuit `&&` / `||` conditions, `switch` with fall-through, `while` and
//! `do-while` loops, nested loops, `break` out of one or two loops (multi-exit loops),
//! `continue` (several latches), early `return` — directly as blocks, `assume`-guarded like
//! Boogie's lowering. Every shape is reducible; loops are bounded by counters so that every
//! program terminates.
#![allow(dead_code)]

use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use std::collections::{BTreeMap, HashMap};

/// A small deterministic generator (xorshift64*), so that a failing case is reproduced by its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

pub const VARS: [&str; 3] = ["x", "y", "z"];

fn int(v: i64) -> Expr {
    if v < 0 {
        Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(int(-v))), Span::DUMMY)
    } else {
        Expr::new(ExprKind::IntLit((v as u64).into()), Span::DUMMY)
    }
}

fn var(n: &str) -> Expr {
    Expr::var(n, Span::DUMMY)
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt::new(kind, Span::DUMMY)
}

fn assign(x: &str, e: Expr) -> Stmt {
    let lhs = Lhs { var: Ident::new(x, Span::DUMMY), indices: vec![], span: Span::DUMMY };
    stmt(StmtKind::Assign { lhss: vec![lhs], rhss: vec![e] })
}

fn assume(e: Expr) -> Stmt {
    stmt(StmtKind::Assume { attrs: vec![], expr: e })
}

struct Gen<'a> {
    rng: &'a mut Rng,
    blocks: Vec<Block>,
    counter: usize,
    /// Per enclosing loop (innermost last): where `continue` goes (the header of a `while`, the
    /// condition of a `do-while`) and the block after the loop (`break`).
    loops: Vec<(Name, Name)>,
    end: Name,
    budget: usize,
    counters: usize,
    switch_vars: usize,
}

impl Gen<'_> {
    fn label(&mut self, base: &str) -> Name {
        self.counter += 1;
        Name::from(format!("{base}{}", self.counter))
    }

    fn push(&mut self, label: &Name, stmts: Vec<Stmt>, targets: Vec<Name>) {
        let term = if targets.is_empty() {
            Terminator::Return
        } else {
            Terminator::Goto(targets.into_iter().map(|t| Ident::new(t, Span::DUMMY)).collect())
        };
        self.blocks.push(Block { label: Ident::new(label.clone(), Span::DUMMY), stmts, term, span: Span::DUMMY });
    }

    fn atom(&mut self) -> Expr {
        if self.rng.chance(70) {
            var(VARS[self.rng.below(3) as usize])
        } else {
            int(self.rng.below(4) as i64 - 1)
        }
    }

    fn cond(&mut self) -> Expr {
        let op = [BinOp::Lt, BinOp::Le, BinOp::Eq, BinOp::Neq, BinOp::Gt][self.rng.below(5) as usize];
        Expr::binary(op, self.atom(), self.atom())
    }

    fn simple_stmts(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        for _ in 0..self.rng.below(3) {
            let x = VARS[self.rng.below(3) as usize];
            match self.rng.below(20) {
                0 => out.push(stmt(StmtKind::Havoc(vec![Ident::new(x, Span::DUMMY)]))),
                1 => out.push(stmt(StmtKind::Assert { attrs: vec![], expr: Expr::binary(BinOp::Neq, var(x), int(2)) })),
                2 => out.push(stmt(StmtKind::Barrier { attrs: vec![], invariants: vec![] })),
                3 => out.push(assume(Expr::binary(BinOp::Ge, var(x), int(-1)))),
                4 => {
                    // A parallel assignment (swap).
                    let lhs = |n: &str| Lhs { var: Ident::new(n, Span::DUMMY), indices: vec![], span: Span::DUMMY };
                    out.push(stmt(StmtKind::Assign { lhss: vec![lhs("x"), lhs("y")], rhss: vec![var("y"), var("x")] }))
                }
                _ => {
                    let op = [BinOp::Add, BinOp::Sub][self.rng.below(2) as usize];
                    let e = if self.rng.chance(50) { Expr::binary(op, self.atom(), self.atom()) } else { self.atom() };
                    out.push(assign(x, e));
                }
            }
        }
        out
    }

    /// Emits code that starts at block `entry` (whose first statement is `guard`, if any) and
    /// continues at `cont`.
    fn region(&mut self, entry: Name, guard: Option<Expr>, cont: Name, depth: usize) {
        let mut stmts: Vec<Stmt> = guard.into_iter().map(assume).collect();
        stmts.extend(self.simple_stmts());
        if self.budget == 0 || depth > 4 {
            self.push(&entry, stmts, vec![cont]);
            return;
        }
        self.budget -= 1;
        match self.rng.below(13) {
            0 | 1 => {
                // Sequence.
                let mid = self.label("s");
                self.push(&entry, stmts, vec![mid.clone()]);
                let mid2 = self.label("s");
                self.region(mid, None, mid2.clone(), depth + 1);
                self.region(mid2, None, cont, depth + 1);
            }
            2 | 3 => {
                // if (c) .. else ..
                let (t, e) = (self.label("then"), self.label("else"));
                self.push(&entry, stmts, vec![t.clone(), e.clone()]);
                let c = self.cond();
                self.region(t, Some(c.clone()), cont.clone(), depth + 1);
                self.region(e, Some(Expr::not(c)), cont, depth + 1);
            }
            4 => {
                // if (*) .. else ..
                let (t, e) = (self.label("any"), self.label("other"));
                self.push(&entry, stmts, vec![t.clone(), e.clone()]);
                self.region(t, None, cont.clone(), depth + 1);
                self.region(e, None, cont, depth + 1);
            }
            5 => {
                // if (a && b) / if (a || b), short-circuit.
                let (a, b) = (self.cond(), self.cond());
                let and = self.rng.chance(50);
                let (a1, a2, b1) = (self.label("a"), self.label("na"), self.label("b"));
                let (then, els) = (self.label("sct"), self.label("sce"));
                self.push(&entry, stmts, vec![a1.clone(), a2.clone()]);
                let (on_a, on_na) = if and { (b1.clone(), els.clone()) } else { (then.clone(), b1.clone()) };
                self.push(&a1, vec![assume(a.clone())], vec![on_a]);
                self.push(&a2, vec![assume(Expr::not(a))], vec![on_na]);
                // b1 is the block evaluating `b`; it branches to b-true / b-false.
                let (bt, bf) = (self.label("bt"), self.label("bf"));
                self.push(&b1, vec![], vec![bt.clone(), bf.clone()]);
                self.push(&bt, vec![assume(b.clone())], vec![then.clone()]);
                self.push(&bf, vec![assume(Expr::not(b))], vec![els.clone()]);
                self.region(then, None, cont.clone(), depth + 1);
                self.region(els, None, cont, depth + 1);
            }
            6 => {
                // switch (v) with cases 0, 1, 2 and default; case bodies may fall through.
                let v = VARS[self.rng.below(3) as usize];
                let n = 2 + self.rng.below(3) as i64;
                let cases: Vec<Name> = (0..=n).map(|_| self.label("case")).collect();
                let bodies: Vec<Name> = (0..=n).map(|_| self.label("body")).collect();
                self.push(&entry, stmts, cases.clone());
                for i in 0..=n as usize {
                    let guard = if (i as i64) < n {
                        Expr::eq(var(v), int(i as i64))
                    } else {
                        (0..n).map(|k| Expr::binary(BinOp::Neq, var(v), int(k))).reduce(Expr::and).unwrap()
                    };
                    self.push(&cases[i], vec![assume(guard)], vec![bodies[i].clone()]);
                }
                for i in 0..=n as usize {
                    let next = if i < n as usize && self.rng.chance(30) { bodies[i + 1].clone() } else { cont.clone() };
                    self.region(bodies[i].clone(), None, next, depth + 1);
                }
            }
            7 | 8 => {
                // while (i < bound) { i := i + 1; body }  — body may break / continue.
                self.counters += 1;
                let i = format!("i{}", self.counters);
                let bound = self.rng.below(3) as i64;
                let (head, body, exit, after) =
                    (self.label("head"), self.label("body"), self.label("exit"), self.label("after"));
                stmts.push(assign(&i, int(0)));
                self.push(&entry, stmts, vec![head.clone()]);
                let head_stmts = self.simple_stmts();
                self.push(&head, head_stmts, vec![body.clone(), exit.clone()]);
                self.loops.push((head.clone(), after.clone()));
                let inner = self.label("in");
                let lt = Expr::binary(BinOp::Lt, var(&i), int(bound));
                self.push(
                    &body,
                    vec![assume(lt.clone()), assign(&i, Expr::binary(BinOp::Add, var(&i), int(1)))],
                    vec![inner.clone()],
                );
                self.region(inner, None, head, depth + 1);
                self.loops.pop();
                self.push(&exit, vec![assume(Expr::not(lt))], vec![after.clone()]);
                self.region(after, None, cont, depth + 1);
            }
            9 => {
                // do { i := i + 1; body } while (i < bound)
                self.counters += 1;
                let i = format!("i{}", self.counters);
                let bound = 1 + self.rng.below(2) as i64;
                let (head, latch, back, exit, after) = (
                    self.label("dohead"),
                    self.label("latch"),
                    self.label("back"),
                    self.label("doexit"),
                    self.label("after"),
                );
                stmts.push(assign(&i, int(0)));
                self.push(&entry, stmts, vec![head.clone()]);
                let inner = self.label("in");
                self.push(&head, vec![assign(&i, Expr::binary(BinOp::Add, var(&i), int(1)))], vec![inner.clone()]);
                // `continue` in a do-while goes to the condition.
                self.loops.push((latch.clone(), after.clone()));
                self.region(inner, None, latch.clone(), depth + 1);
                self.loops.pop();
                let lt = Expr::binary(BinOp::Lt, var(&i), int(bound));
                self.push(&latch, vec![], vec![back.clone(), exit.clone()]);
                self.push(&back, vec![assume(lt.clone())], vec![head]);
                self.push(&exit, vec![assume(Expr::not(lt))], vec![after.clone()]);
                self.region(after, None, cont, depth + 1);
            }
            10 | 11 if !self.loops.is_empty() => {
                // if (c) break [outer] / continue; else ..
                let c = self.cond();
                let (t, e) = (self.label("jump"), self.label("stay"));
                self.push(&entry, stmts, vec![t.clone(), e.clone()]);
                let k = self.loops.len() - 1 - (self.rng.below(self.loops.len().min(2) as u64) as usize);
                let target = if self.rng.chance(60) { self.loops[k].1.clone() } else { self.loops[k].0.clone() };
                self.push(&t, vec![assume(c.clone())], vec![target]);
                self.region(e, Some(Expr::not(c)), cont, depth + 1);
            }
            _ => {
                // if (c) return; else ..
                let c = self.cond();
                let (t, e) = (self.label("ret"), self.label("go"));
                self.push(&entry, stmts, vec![t.clone(), e.clone()]);
                let end = self.end.clone();
                let mut rs = vec![assume(c.clone())];
                rs.extend(self.simple_stmts());
                self.push(&t, rs, vec![end]);
                self.region(e, Some(Expr::not(c)), cont, depth + 1);
            }
        }
    }
}

/// A random reducible program of at least `blocks` blocks: a sequence of random regions of
/// about 15 shapes each (for benchmarks).
pub fn random_large_impl(seed: u64, blocks: usize) -> BlockImpl {
    let mut imp = random_impl(seed, 0);
    let mut rng = Rng::new(seed);
    let mut g = Gen {
        rng: &mut rng,
        blocks: Vec::new(),
        counter: 0,
        loops: Vec::new(),
        end: Name::from("End"),
        budget: 0,
        counters: 0,
        switch_vars: 0,
    };
    let mut entry = Name::from("Start");
    while g.blocks.len() < blocks {
        let next = g.label("chunk");
        g.budget = 15;
        g.region(entry, None, next.clone(), 0);
        entry = next;
    }
    g.push(&entry, vec![], vec![Name::from("End")]);
    g.push(&Name::from("End"), vec![], vec![]);
    let start = g.blocks.iter().position(|b| b.label.name == "Start").unwrap();
    let b = g.blocks.remove(start);
    g.blocks.insert(0, b);
    let typed =
        |n: &str| TypedIdent { name: Ident::new(n, Span::DUMMY), ty: Type::int(), where_clause: None, attrs: vec![] };
    imp.locals.extend((1..=g.counters).map(|i| typed(&format!("i{i}"))));
    imp.blocks = g.blocks;
    imp
}

/// A random reducible program with about `budget` shapes. Inputs `x`, `y`, `z` are the
/// implementation's in-parameters copied into locals of the same names plus `0`; the block `End`
/// returns.
pub fn random_impl(seed: u64, budget: usize) -> BlockImpl {
    let mut rng = Rng::new(seed);
    let mut g = Gen {
        rng: &mut rng,
        blocks: Vec::new(),
        counter: 0,
        loops: Vec::new(),
        end: Name::from("End"),
        budget,
        counters: 0,
        switch_vars: 0,
    };
    let start = Name::from("Start");
    g.region(start, None, Name::from("End"), 0);
    g.push(&Name::from("End"), vec![], vec![]);
    // Entry first.
    let entry = g.blocks.iter().position(|b| b.label.name == "Start").unwrap();
    let b = g.blocks.remove(entry);
    g.blocks.insert(0, b);
    let typed =
        |n: &str| TypedIdent { name: Ident::new(n, Span::DUMMY), ty: Type::int(), where_clause: None, attrs: vec![] };
    let mut locals: Vec<TypedIdent> = VARS.iter().map(|v| typed(v)).collect();
    locals.extend((1..=g.counters).map(|i| typed(&format!("i{i}"))));
    BlockImpl {
        attrs: vec![],
        name: Ident::new("P", Span::DUMMY),
        ins: vec![],
        outs: vec![],
        locals,
        blocks: g.blocks,
        span: Span::DUMMY,
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluator
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Val {
    Int(i128),
    Bool(bool),
}

/// How an execution ends.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Normal termination, with the final values of the observed variables.
    Done(Vec<(Name, Val)>),
    /// An assertion failed.
    Error,
}

pub type Store = BTreeMap<Name, Val>;

pub fn eval(e: &Expr, s: &Store) -> Val {
    match &e.kind {
        ExprKind::BoolLit(b) => Val::Bool(*b),
        ExprKind::IntLit(v) => Val::Int(u64::try_from(v).unwrap() as i128),
        ExprKind::Var(x) => s.get(&x.name).cloned().unwrap_or_else(|| panic!("unbound {}", x.name)),
        ExprKind::Unary(UnOp::Not, a) => Val::Bool(!as_bool(eval(a, s))),
        ExprKind::Unary(UnOp::Neg, a) => Val::Int(-as_int(eval(a, s))),
        ExprKind::Binary(op, a, b) => {
            let va = eval(a, s);
            match op {
                BinOp::And => Val::Bool(as_bool(va) && as_bool(eval(b, s))),
                BinOp::Or => Val::Bool(as_bool(va) || as_bool(eval(b, s))),
                BinOp::Implies => Val::Bool(!as_bool(va) || as_bool(eval(b, s))),
                BinOp::Iff => Val::Bool(as_bool(va) == as_bool(eval(b, s))),
                BinOp::Eq => Val::Bool(va == eval(b, s)),
                BinOp::Neq => Val::Bool(va != eval(b, s)),
                _ => {
                    let (x, y) = (as_int(va), as_int(eval(b, s)));
                    match op {
                        BinOp::Lt => Val::Bool(x < y),
                        BinOp::Le => Val::Bool(x <= y),
                        BinOp::Gt => Val::Bool(x > y),
                        BinOp::Ge => Val::Bool(x >= y),
                        BinOp::Add => Val::Int(x + y),
                        BinOp::Sub => Val::Int(x - y),
                        BinOp::Mul => Val::Int(x * y),
                        other => panic!("operator {other:?} not supported by the test evaluator"),
                    }
                }
            }
        }
        ExprKind::IfThenElse(c, a, b) => {
            if as_bool(eval(c, s)) {
                eval(a, s)
            } else {
                eval(b, s)
            }
        }
        other => panic!("expression {other:?} not supported by the test evaluator"),
    }
}

fn as_bool(v: Val) -> bool {
    match v {
        Val::Bool(b) => b,
        Val::Int(_) => panic!("expected a boolean"),
    }
}

fn as_int(v: Val) -> i128 {
    match v {
        Val::Int(i) => i,
        Val::Bool(_) => panic!("expected an integer"),
    }
}

/// Integer constants `c` in `x == c` comparisons of an expression: the values a `havoc x` followed
/// by this `assume` can usefully take (how `v_next := {B1, ..., Bn}` is written).
fn eq_constants(x: &Name, e: &Expr, out: &mut Vec<i128>) {
    match &e.kind {
        ExprKind::Binary(BinOp::Eq, a, b) => {
            if let (ExprKind::Var(v), ExprKind::IntLit(c)) = (&a.kind, &b.kind) {
                if &v.name == x {
                    out.push(u64::try_from(c).unwrap() as i128);
                }
            }
        }
        ExprKind::Binary(_, a, b) => {
            eq_constants(x, a, out);
            eq_constants(x, b, out);
        }
        _ => {}
    }
}

/// The values `havoc x` may give: -1..=2, plus the constants the next `assume` compares `x` with.
fn havoc_domain(x: &Name, next: Option<&Stmt>, ty_bool: bool) -> Vec<Val> {
    if ty_bool {
        return vec![Val::Bool(false), Val::Bool(true)];
    }
    let mut vals: Vec<i128> = (-1..=2).collect();
    if let Some(Stmt { kind: StmtKind::Assume { expr, .. }, .. }) = next {
        eq_constants(x, expr, &mut vals);
    }
    vals.sort();
    vals.dedup();
    vals.into_iter().map(Val::Int).collect()
}

/// Every outcome of running the body from `init` (all nondeterminism explored: `goto` choices and
/// `havoc` values from [`havoc_domain`]); paths ending in a false `assume` are infeasible and
/// dropped. `observe` lists the variables whose final values are compared. Panics after `fuel`
/// executed blocks (a generated program that does not terminate).
pub fn outcomes(imp: &BlockImpl, init: &Store, observe: &[Name], bools: &[Name], fuel: usize) -> Vec<Outcome> {
    let index: HashMap<&str, usize> = imp.blocks.iter().enumerate().map(|(i, b)| (b.label.as_str(), i)).collect();
    let mut result = std::collections::BTreeSet::new();
    // (block, statement index, store)
    let mut stack: Vec<(usize, usize, Store)> = vec![(0, 0, init.clone())];
    let mut steps = 0usize;
    // Configurations already explored: the same configuration has the same outcomes.
    let mut seen: std::collections::HashSet<(usize, usize, Store)> = std::collections::HashSet::new();
    while let Some((b, mut i, mut s)) = stack.pop() {
        if !seen.insert((b, i, s.clone())) {
            continue;
        }
        steps += 1;
        assert!(steps < fuel, "out of fuel: the program does not terminate?");
        let block = &imp.blocks[b];
        let mut dead = false;
        while i < block.stmts.len() {
            let st = &block.stmts[i];
            match &st.kind {
                StmtKind::Assign { lhss, rhss } => {
                    let vals: Vec<Val> = rhss.iter().map(|e| eval(e, &s)).collect();
                    for (l, v) in lhss.iter().zip(vals) {
                        assert!(l.indices.is_empty());
                        s.insert(l.var.name.clone(), v);
                    }
                }
                StmtKind::Havoc(xs) => {
                    // Branch on every combination of values.
                    let mut stores = vec![s.clone()];
                    for x in xs {
                        let dom = havoc_domain(&x.name, block.stmts.get(i + 1), bools.contains(&x.name));
                        stores = stores
                            .into_iter()
                            .flat_map(|st| {
                                dom.iter().map(move |v| {
                                    let mut st = st.clone();
                                    st.insert(x.name.clone(), v.clone());
                                    st
                                })
                            })
                            .collect();
                    }
                    for s2 in stores {
                        stack.push((b, i + 1, s2));
                    }
                    dead = true;
                    break;
                }
                StmtKind::Assert { expr, .. } => {
                    if !as_bool(eval(expr, &s)) {
                        result.insert(Outcome::Error);
                        dead = true;
                        break;
                    }
                }
                StmtKind::Assume { expr, .. } => {
                    if !as_bool(eval(expr, &s)) {
                        dead = true;
                        break;
                    }
                }
                StmtKind::Barrier { .. } => {}
                other => panic!("statement {other:?} not supported by the test evaluator"),
            }
            i += 1;
        }
        if dead {
            continue;
        }
        match &block.term {
            Terminator::Return => {
                result.insert(Outcome::Done(
                    observe.iter().map(|x| (x.clone(), s.get(x).cloned().expect("observed variable"))).collect(),
                ));
            }
            Terminator::Goto(ts) => {
                for t in ts.iter().rev() {
                    stack.push((index[t.as_str()], 0, s.clone()));
                }
            }
        }
    }
    result.into_iter().collect()
}

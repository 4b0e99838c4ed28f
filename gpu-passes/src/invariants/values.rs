//! Rule family "uniform values" (added for the corpus: the Blelloch scan's down-sweep needs
//! `(offset == 16 && d == 1) || (offset == 8 && d == 2) || …`, a relation between two counters
//! that no seed 001 rule states). When the sizes are fixed, the loop variables that depend only
//! on literals and sizes take the same values in every thread and every run; simulating the
//! kernel's uniform part gives exactly those values, and the disjunction of the tuples seen at
//! a loop head is a candidate invariant.
//!
//! The simulation follows the structured statements of a body with an environment of known
//! scalar values (integers, bit-vectors with their `{:bvbuiltin}` operators): an assignment
//! whose right-hand side is known sets the variable, anything else forgets it; a branch with a
//! known condition is followed, one with an unknown condition (it depends on the thread or on
//! memory) is followed both ways and the environments are joined; a loop with a known guard is
//! iterated (at most [`MAX_VISITS`] head visits), recording the known values of the variables
//! it modifies at each visit. A loop whose guard becomes unknown, or a body with `goto` or
//! `break`, gives no candidate.

use super::arith::{Arith, Num, Op, Rel, View};
use ivl::ast::*;
use ivl::check::Ty;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::collections::{BTreeMap, HashMap};

pub const UNIFORM_VALUES: &str = "uniform-values";

/// Head visits simulated per loop (over all entries of the loop).
pub const MAX_VISITS: usize = 64;
/// Distinct tuples a candidate may list.
pub const MAX_TUPLES: usize = 16;

/// A known value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Int(BigInt),
    Bv(BigInt, u32),
    Bool(bool),
}

type Env = BTreeMap<Name, Val>;

/// The known values of a loop's variables at one head visit.
pub type Tuple = Vec<(Name, Val)>;

/// The tuples seen at the head of each `while` (by pre-order number), or `None` when the loop
/// could not be simulated.
pub type LoopValues = HashMap<usize, Option<Vec<Tuple>>>;

struct Sim<'a> {
    arith: &'a Arith,
    /// Known constants (sizes).
    consts: &'a HashMap<Name, Val>,
    locals: &'a HashMap<Name, Ty>,
    numbers: HashMap<*const Stmt, usize>,
    out: LoopValues,
    visits: HashMap<usize, usize>,
}

/// Numbers the `while` statements of `stmts` in pre-order (the order of
/// [`super::facts::for_each_while`]).
fn number_whiles(stmts: &[Stmt], k: &mut usize, out: &mut HashMap<*const Stmt, usize>) {
    for s in stmts {
        if matches!(s.kind, StmtKind::While { .. }) {
            out.insert(s as *const Stmt, *k);
            *k += 1;
        }
        match &s.kind {
            StmtKind::While { body, .. } | StmtKind::Block(body) => number_whiles(body, k, out),
            StmtKind::If { then, els, .. } => {
                number_whiles(then, k, out);
                match els {
                    Some(Else::Block(b)) => number_whiles(b, k, out),
                    Some(Else::If(s)) => number_whiles(std::slice::from_ref(&**s), k, out),
                    None => {}
                }
            }
            _ => {}
        }
    }
}

/// Simulates the uniform part of a body; `consts` are the known constants (sizes).
pub fn simulate(body: &Body, locals: &HashMap<Name, Ty>, consts: &HashMap<Name, Val>, arith: &Arith) -> LoopValues {
    let mut numbers = HashMap::new();
    number_whiles(&body.stmts, &mut 0, &mut numbers);
    let mut unstructured = false;
    ivl::modifies::walk_stmts(&body.stmts, &mut |s| {
        if matches!(s.kind, StmtKind::Goto(_) | StmtKind::Label(_) | StmtKind::Break(_) | StmtKind::Return) {
            unstructured = true;
        }
    });
    if unstructured {
        return LoopValues::new();
    }
    let mut sim = Sim { arith, consts, locals, numbers, out: LoopValues::new(), visits: HashMap::new() };
    let mut env = Env::new();
    sim.stmts(&body.stmts, &mut env);
    sim.out
}

fn join(a: &Env, b: &Env) -> Env {
    a.iter().filter(|(k, v)| b.get(*k) == Some(*v)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

impl Sim<'_> {
    fn stmts(&mut self, stmts: &[Stmt], env: &mut Env) {
        for s in stmts {
            self.stmt(s, env);
        }
    }

    fn forget_modified(&self, s: &Stmt, env: &mut Env) {
        for x in ivl::visit::modified_vars(s) {
            env.remove(&x);
        }
    }

    fn give_up_loops(&mut self, stmts: &[Stmt]) {
        let mut k = Vec::new();
        for s in stmts {
            ivl::modifies::walk_stmts(std::slice::from_ref(s), &mut |x| {
                if let Some(n) = self.numbers.get(&(x as *const Stmt)) {
                    k.push(*n);
                }
            });
        }
        for n in k {
            self.out.insert(n, None);
        }
    }

    fn stmt(&mut self, s: &Stmt, env: &mut Env) {
        match &s.kind {
            StmtKind::Assign { lhss, rhss } => {
                let vals: Vec<Option<Val>> = rhss.iter().map(|e| self.eval(e, env)).collect();
                for (l, v) in lhss.iter().zip(vals) {
                    match v {
                        Some(v) if l.indices.is_empty() && self.locals.contains_key(&l.var.name) => {
                            env.insert(l.var.name.clone(), v);
                        }
                        _ => {
                            env.remove(&l.var.name);
                        }
                    }
                }
            }
            StmtKind::Havoc(_) | StmtKind::Call { .. } | StmtKind::Atomic(_) => self.forget_modified(s, env),
            StmtKind::If { cond, then, els } => {
                let c = cond.as_ref().and_then(|c| self.eval(c, env));
                let els_stmts: Vec<Stmt> = match els {
                    Some(Else::Block(b)) => b.clone(),
                    Some(Else::If(s)) => vec![(**s).clone()],
                    None => vec![],
                };
                match c {
                    Some(Val::Bool(true)) => {
                        self.stmts(then, env);
                        self.give_up_loops(&els_stmts);
                    }
                    Some(Val::Bool(false)) => {
                        self.stmts(&els_stmts, env);
                        self.give_up_loops(then);
                    }
                    _ => {
                        let mut a = env.clone();
                        self.stmts(then, &mut a);
                        self.stmts(&els_stmts, env);
                        *env = join(&a, env);
                    }
                }
            }
            StmtKind::While { cond, body, .. } => self.while_loop(s, cond.as_ref(), body, env),
            StmtKind::Block(b) => self.stmts(b, env),
            _ => {}
        }
    }

    fn while_loop(&mut self, s: &Stmt, cond: Option<&Expr>, body: &[Stmt], env: &mut Env) {
        let k = self.numbers.get(&(s as *const Stmt)).copied();
        let modified: Vec<Name> = ivl::visit::modified_vars(&body.to_vec());
        loop {
            let visits = k.map(|k| *self.visits.entry(k).or_default()).unwrap_or(0);
            let c = cond.and_then(|c| self.eval(c, env));
            let Some(Val::Bool(go)) = c.filter(|_| visits < MAX_VISITS) else {
                // Unknown guard (or too many iterations): the loop's values are not known.
                if let Some(k) = k {
                    self.out.insert(k, None);
                }
                self.give_up_loops(body);
                for x in &modified {
                    env.remove(x);
                }
                return;
            };
            if let Some(k) = k {
                *self.visits.entry(k).or_default() += 1;
                let tuple: Tuple = modified.iter().filter_map(|x| env.get(x).map(|v| (x.clone(), v.clone()))).collect();
                if let Some(tuples) = self.out.entry(k).or_insert_with(|| Some(Vec::new())) {
                    if !tuples.contains(&tuple) {
                        tuples.push(tuple);
                    }
                }
            }
            if !go {
                return;
            }
            self.stmts(body, env);
        }
    }

    fn eval(&self, e: &Expr, env: &Env) -> Option<Val> {
        match &e.kind {
            ExprKind::BoolLit(b) => return Some(Val::Bool(*b)),
            ExprKind::Var(x) => {
                return env.get(&x.name).cloned().or_else(|| {
                    (!self.locals.contains_key(&x.name)).then(|| self.consts.get(&x.name).cloned()).flatten()
                })
            }
            ExprKind::Unary(UnOp::Not, a) => {
                return match self.eval(a, env)? {
                    Val::Bool(b) => Some(Val::Bool(!b)),
                    _ => None,
                }
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff), a, b) => {
                let (Val::Bool(x), Val::Bool(y)) = (self.eval(a, env)?, self.eval(b, env)?) else {
                    return None;
                };
                return Some(Val::Bool(match op {
                    BinOp::And => x && y,
                    BinOp::Or => x || y,
                    BinOp::Implies => !x || y,
                    _ => x == y,
                }));
            }
            ExprKind::IfThenElse(c, a, b) => {
                return match self.eval(c, env)? {
                    Val::Bool(true) => self.eval(a, env),
                    Val::Bool(false) => self.eval(b, env),
                    _ => None,
                }
            }
            _ => {}
        }
        match self.arith.view(e) {
            View::Lit(v) => Some(match &e.kind {
                ExprKind::BvLit { width, .. } => Val::Bv(v, *width),
                _ => Val::Int(v),
            }),
            View::Arith(op, a, b) => {
                let (x, y) = (self.eval(a, env)?, self.eval(b, env)?);
                arith(op, x, y)
            }
            View::Cmp(rel, signed, a, b) => {
                let (x, y) = (self.eval(a, env)?, self.eval(b, env)?);
                compare(rel, signed, x, y)
            }
            _ => None,
        }
    }
}

fn wrap(v: BigInt, w: u32) -> BigInt {
    let m = BigInt::one() << w;
    v.mod_floor(&m)
}

fn signed(v: &BigInt, w: u32) -> BigInt {
    if w > 0 && v.bit((w - 1) as u64) {
        v - (BigInt::one() << w)
    } else {
        v.clone()
    }
}

fn arith(op: Op, x: Val, y: Val) -> Option<Val> {
    match (x, y) {
        (Val::Int(a), Val::Int(b)) => Some(Val::Int(match op {
            Op::Add => a + b,
            Op::Sub => a - b,
            Op::Mul => a * b,
            // Boogie's `div` and `mod` are Euclidean (SMT-LIB).
            Op::Div | Op::Mod if b.is_zero() => return None,
            Op::Div => {
                let r = a.mod_floor(&b.abs());
                (a - r) / b
            }
            Op::Mod => a.mod_floor(&b.abs()),
            _ => return None,
        })),
        (Val::Bv(a, w), Val::Bv(b, w2)) if w == w2 => {
            let v = match op {
                Op::Add => a + b,
                Op::Sub => a - b,
                Op::Mul => a * b,
                Op::Div if b.is_zero() => (BigInt::one() << w) - 1,
                Op::Div => a / b,
                Op::Mod if b.is_zero() => a,
                Op::Mod => a % b,
                Op::Shl => match usize::try_from(&b) {
                    Ok(s) if s < w as usize => a << s,
                    _ => BigInt::zero(),
                },
                Op::LShr => match usize::try_from(&b) {
                    Ok(s) if s < w as usize => a >> s,
                    _ => BigInt::zero(),
                },
                Op::BitAnd => a & b,
            };
            Some(Val::Bv(wrap(v, w), w))
        }
        _ => None,
    }
}

fn compare(rel: Rel, is_signed: bool, x: Val, y: Val) -> Option<Val> {
    let (a, b) = match (x, y) {
        (Val::Int(a), Val::Int(b)) => (a, b),
        (Val::Bv(a, w), Val::Bv(b, _)) if is_signed => (signed(&a, w), signed(&b, w)),
        (Val::Bv(a, _), Val::Bv(b, _)) => (a, b),
        (Val::Bool(a), Val::Bool(b)) => {
            return match rel {
                Rel::Eq => Some(Val::Bool(a == b)),
                Rel::Neq => Some(Val::Bool(a != b)),
                _ => None,
            }
        }
        _ => return None,
    };
    Some(Val::Bool(match rel {
        Rel::Lt => a < b,
        Rel::Le => a <= b,
        Rel::Gt => a > b,
        Rel::Ge => a >= b,
        Rel::Eq => a == b,
        Rel::Neq => a != b,
    }))
}

/// The candidate for one loop: the disjunction of the tuples seen at its head.
pub fn candidate(tuples: &[Tuple], arith: &Arith) -> Option<Expr> {
    if tuples.is_empty() || tuples.len() > MAX_TUPLES || tuples.iter().all(|t| t.is_empty()) {
        return None;
    }
    // Only variables known at every visit.
    let names: Vec<Name> = tuples[0]
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| tuples.iter().all(|t| t.iter().any(|(m, _)| m == n)))
        .collect();
    if names.is_empty() {
        return None;
    }
    let mut disjuncts: Vec<Expr> = Vec::new();
    for t in tuples {
        let conj = names
            .iter()
            .filter_map(|n| {
                let (_, v) = t.iter().find(|(m, _)| m == n)?;
                let lit = match v {
                    Val::Int(i) => arith.big_lit(Num::Int, i),
                    Val::Bv(i, w) => arith.big_lit(Num::Bv(*w), i),
                    Val::Bool(b) => Expr::bool(*b),
                };
                Some(Expr::eq(Expr::var(n.clone(), Span::DUMMY), lit))
            })
            .reduce(Expr::and)?;
        let text = ivl::printer::print_expr(&conj);
        if !disjuncts.iter().any(|d| ivl::printer::print_expr(d) == text) {
            disjuncts.push(conj);
        }
    }
    disjuncts.into_iter().reduce(Expr::or)
}

//! Reading and building the integer and bit-vector arithmetic of candidate invariants.
//!
//! Why: the rules of seed 001 §4.3 are stated over `+`, `*`, `%` and `<`; kernels write them as
//! Boogie `int` operators or, in bit-vector kernels (GPUVerify's output, Bugle), as calls of
//! `{:bvbuiltin "bvadd"}` functions. [`Arith`] gives both a single view: [`Arith::view`] reads an
//! expression as an operation, [`Arith::terms`] flattens a sum into signed terms (so that a rule
//! is insensitive to operand order, as GPUVerify's implementation is), and the builders write
//! candidates in the kernel's own vocabulary — reusing the kernel's `{:bvbuiltin}` functions and
//! declaring new ones (`function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;`) only when a
//! candidate needs an operator the kernel does not declare.

use ivl::ast::*;
use ivl::check::{GlobalEnv, Ty};
use ivl::visit::fresh_name;
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The numeric type of an expression: mathematical integers or bit-vectors of a width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    Int,
    Bv(u32),
}

impl Num {
    pub fn of(ty: &Ty) -> Option<Num> {
        match ty {
            Ty::Int => Some(Num::Int),
            Ty::Bv(w) => Some(Num::Bv(*w)),
            _ => None,
        }
    }
}

/// Arithmetic operations (bit-vector division and remainder are the unsigned ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    LShr,
    BitAnd,
}

/// Comparisons; `signed` matters for bit-vectors only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Neq,
}

/// One reading of an expression.
#[derive(Clone, Debug)]
pub enum View<'e> {
    Arith(Op, &'e Expr, &'e Expr),
    Cmp(Rel, bool, &'e Expr, &'e Expr),
    Lit(BigInt),
    Var(&'e Name),
    Other,
}

/// A summand of a flattened sum: `+expr` or `-expr`.
#[derive(Clone, Debug)]
pub struct Term {
    pub neg: bool,
    pub expr: Expr,
}

const BV_OPS: [(&str, Op); 9] = [
    ("bvadd", Op::Add),
    ("bvsub", Op::Sub),
    ("bvmul", Op::Mul),
    ("bvudiv", Op::Div),
    ("bvurem", Op::Mod),
    ("bvshl", Op::Shl),
    ("bvlshr", Op::LShr),
    ("bvand", Op::BitAnd),
    ("bvsdiv", Op::Div),
];

const BV_RELS: [(&str, Rel, bool); 8] = [
    ("bvult", Rel::Lt, false),
    ("bvule", Rel::Le, false),
    ("bvugt", Rel::Gt, false),
    ("bvuge", Rel::Ge, false),
    ("bvslt", Rel::Lt, true),
    ("bvsle", Rel::Le, true),
    ("bvsgt", Rel::Gt, true),
    ("bvsge", Rel::Ge, true),
];

fn builtin_name(op: Op) -> &'static str {
    match op {
        Op::Add => "bvadd",
        Op::Sub => "bvsub",
        Op::Mul => "bvmul",
        Op::Div => "bvudiv",
        Op::Mod => "bvurem",
        Op::Shl => "bvshl",
        Op::LShr => "bvlshr",
        Op::BitAnd => "bvand",
    }
}

fn rel_builtin(rel: Rel, signed: bool) -> &'static str {
    BV_RELS.iter().find(|(_, r, s)| *r == rel && *s == signed).map(|(n, _, _)| *n).unwrap_or("bvule")
}

/// The bit-vector functions of a program by operator and width, and those added for candidates.
#[derive(Default)]
struct Builtins {
    /// `(operator, width) -> function name`.
    by_op: HashMap<(String, u32), Name>,
    /// `function name -> (operator, width)`.
    by_name: HashMap<Name, (String, u32)>,
    taken: HashSet<Name>,
    added: Vec<Decl>,
}

/// Reads and writes int and bit-vector arithmetic for one program.
pub struct Arith {
    builtins: RefCell<Builtins>,
}

impl Arith {
    /// Indexes the `{:bvbuiltin}` functions of `program` (binary, on one width); `taken` are the
    /// names new declarations must avoid.
    pub fn new(program: &Program, env: &GlobalEnv, taken: HashSet<Name>) -> Arith {
        let mut b = Builtins { taken, ..Default::default() };
        for d in &program.decls {
            let DeclKind::Function(f) = &d.kind else { continue };
            let Some(info) = env.function(&f.name.name) else {
                continue;
            };
            let Some(op) = &info.bvbuiltin else { continue };
            let [Ty::Bv(w1), Ty::Bv(w2)] = info.params.as_slice() else {
                continue;
            };
            let ok_result = matches!(info.result, Ty::Bool) || info.result == Ty::Bv(*w1);
            if w1 != w2 || !ok_result {
                continue;
            }
            b.by_op.entry((op.to_string(), *w1)).or_insert_with(|| f.name.name.clone());
            b.by_name.insert(f.name.name.clone(), (op.to_string(), *w1));
        }
        Arith { builtins: RefCell::new(b) }
    }

    /// The function declarations added for candidates so far.
    pub fn added_decls(&self) -> Vec<Decl> {
        self.builtins.borrow().added.clone()
    }

    fn bv_fn(&self, op: &str, width: u32) -> Name {
        let mut b = self.builtins.borrow_mut();
        if let Some(n) = b.by_op.get(&(op.to_string(), width)) {
            return n.clone();
        }
        let base = format!("BV{}_{}", width, op.trim_start_matches("bv").to_uppercase());
        let name = if b.taken.contains(base.as_str()) { fresh_name(&base, &b.taken) } else { Name::from(base) };
        b.taken.insert(name.clone());
        let bv = || FnParam { name: None, ty: Type::bv(width) };
        let result_ty = if BV_RELS.iter().any(|(n, _, _)| *n == op) { Type::bool() } else { Type::bv(width) };
        let decl = Decl {
            kind: DeclKind::Function(FunctionDecl {
                attrs: vec![Attribute {
                    name: Ident::new("bvbuiltin", Span::DUMMY),
                    args: vec![AttrArg::String(Name::from(op), Span::DUMMY)],
                    span: Span::DUMMY,
                }],
                name: Ident::new(name.clone(), Span::DUMMY),
                type_params: vec![],
                params: vec![bv(), bv()],
                result: FnParam { name: None, ty: result_ty },
                body: None,
            }),
            span: Span::DUMMY,
        };
        b.added.push(decl);
        b.by_op.insert((op.to_string(), width), name.clone());
        b.by_name.insert(name.clone(), (op.to_string(), width));
        name
    }

    fn builtin_of(&self, f: &str) -> Option<(String, u32)> {
        self.builtins.borrow().by_name.get(f).cloned()
    }

    // ----- reading -------------------------------------------------------------------------

    /// Reads `e` as an operation, a comparison, a literal or a variable.
    pub fn view<'e>(&self, e: &'e Expr) -> View<'e> {
        match &e.kind {
            ExprKind::IntLit(v) => View::Lit(BigInt::from(v.clone())),
            ExprKind::BvLit { value, .. } => View::Lit(BigInt::from(value.clone())),
            ExprKind::Unary(UnOp::Neg, a) => match &a.kind {
                ExprKind::IntLit(v) => View::Lit(-BigInt::from(v.clone())),
                _ => View::Other,
            },
            ExprKind::Var(x) => View::Var(&x.name),
            ExprKind::Binary(op, a, b) => {
                let arith = match op {
                    BinOp::Add => Some(Op::Add),
                    BinOp::Sub => Some(Op::Sub),
                    BinOp::Mul => Some(Op::Mul),
                    BinOp::Div => Some(Op::Div),
                    BinOp::Mod => Some(Op::Mod),
                    _ => None,
                };
                if let Some(o) = arith {
                    return View::Arith(o, a, b);
                }
                let rel = match op {
                    BinOp::Lt => Rel::Lt,
                    BinOp::Le => Rel::Le,
                    BinOp::Gt => Rel::Gt,
                    BinOp::Ge => Rel::Ge,
                    BinOp::Eq => Rel::Eq,
                    BinOp::Neq => Rel::Neq,
                    _ => return View::Other,
                };
                View::Cmp(rel, true, a, b)
            }
            ExprKind::Call(f, args) if args.len() == 2 => {
                let Some((op, _)) = self.builtin_of(&f.name) else {
                    return View::Other;
                };
                if let Some((_, o)) = BV_OPS.iter().find(|(n, _)| *n == op) {
                    return View::Arith(*o, &args[0], &args[1]);
                }
                if let Some((_, r, s)) = BV_RELS.iter().find(|(n, _, _)| *n == op) {
                    return View::Cmp(*r, *s, &args[0], &args[1]);
                }
                View::Other
            }
            _ => View::Other,
        }
    }

    /// The value of a literal.
    pub fn lit_value(&self, e: &Expr) -> Option<BigInt> {
        match self.view(e) {
            View::Lit(v) => Some(v),
            _ => None,
        }
    }

    /// `e` as a sum of signed terms (`a - (b + c)` is `+a -b -c`).
    pub fn terms(&self, e: &Expr) -> Vec<Term> {
        let mut out = Vec::new();
        self.collect_terms(e, false, &mut out);
        out
    }

    fn collect_terms(&self, e: &Expr, neg: bool, out: &mut Vec<Term>) {
        match self.view(e) {
            View::Arith(Op::Add, a, b) => {
                self.collect_terms(a, neg, out);
                self.collect_terms(b, neg, out);
            }
            View::Arith(Op::Sub, a, b) => {
                self.collect_terms(a, neg, out);
                self.collect_terms(b, !neg, out);
            }
            _ => out.push(Term { neg, expr: e.clone() }),
        }
    }

    /// `a * b` as its two factors.
    pub fn factors<'e>(&self, e: &'e Expr) -> Option<(&'e Expr, &'e Expr)> {
        match self.view(e) {
            View::Arith(Op::Mul, a, b) => Some((a, b)),
            _ => None,
        }
    }

    // ----- building ------------------------------------------------------------------------

    pub fn lit(&self, num: Num, v: i64) -> Expr {
        self.big_lit(num, &BigInt::from(v))
    }

    pub fn big_lit(&self, num: Num, v: &BigInt) -> Expr {
        match num {
            Num::Int => {
                let e = Expr::new(ExprKind::IntLit(v.magnitude().clone()), Span::DUMMY);
                if v.is_negative() {
                    Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), Span::DUMMY)
                } else {
                    e
                }
            }
            Num::Bv(w) => {
                let modulus = BigInt::one() << w;
                let mut r = v % &modulus;
                if r.is_negative() {
                    r += &modulus;
                }
                let value = r.to_biguint().unwrap_or_else(BigUint::zero);
                Expr::new(ExprKind::BvLit { value, width: w }, Span::DUMMY)
            }
        }
    }

    fn is_lit(&self, e: &Expr, v: i64) -> bool {
        self.lit_value(e).is_some_and(|x| x == BigInt::from(v))
    }

    pub fn op(&self, num: Num, op: Op, a: Expr, b: Expr) -> Expr {
        match (op, num) {
            (Op::Add, _) if self.is_lit(&b, 0) => return a,
            (Op::Add, _) if self.is_lit(&a, 0) => return b,
            (Op::Sub, _) if self.is_lit(&b, 0) => return a,
            (Op::Mul, _) if self.is_lit(&a, 1) => return b,
            (Op::Mul, _) if self.is_lit(&b, 1) => return a,
            _ => {}
        }
        match num {
            Num::Int => {
                let bop = match op {
                    Op::Add => BinOp::Add,
                    Op::Sub => BinOp::Sub,
                    Op::Mul => BinOp::Mul,
                    Op::Div => BinOp::Div,
                    Op::Mod => BinOp::Mod,
                    // Not used for integers; keep the expression well-typed anyway.
                    Op::Shl | Op::LShr | Op::BitAnd => BinOp::Add,
                };
                Expr::new(ExprKind::Binary(bop, Box::new(a), Box::new(b)), Span::DUMMY)
            }
            Num::Bv(w) => {
                let f = self.bv_fn(builtin_name(op), w);
                Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), vec![a, b]), Span::DUMMY)
            }
        }
    }

    pub fn add(&self, num: Num, a: Expr, b: Expr) -> Expr {
        self.op(num, Op::Add, a, b)
    }
    pub fn sub(&self, num: Num, a: Expr, b: Expr) -> Expr {
        self.op(num, Op::Sub, a, b)
    }
    pub fn mul(&self, num: Num, a: Expr, b: Expr) -> Expr {
        self.op(num, Op::Mul, a, b)
    }
    /// `a mod b` (integers) or `bvurem(a, b)`.
    pub fn rem(&self, num: Num, a: Expr, b: Expr) -> Expr {
        self.op(num, Op::Mod, a, b)
    }

    /// A comparison; `signed` selects the signed bit-vector operator (ignored for integers).
    pub fn cmp(&self, num: Num, rel: Rel, signed: bool, a: Expr, b: Expr) -> Expr {
        match (num, rel) {
            (_, Rel::Eq) => Expr::eq(a, b),
            (_, Rel::Neq) => Expr::binary(BinOp::Neq, a, b),
            (Num::Int, _) => {
                let op = match rel {
                    Rel::Lt => BinOp::Lt,
                    Rel::Le => BinOp::Le,
                    Rel::Gt => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                Expr::binary(op, a, b)
            }
            (Num::Bv(w), _) => {
                let f = self.bv_fn(rel_builtin(rel, signed), w);
                Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), vec![a, b]), Span::DUMMY)
            }
        }
    }

    /// The sum of terms (`0` when empty).
    pub fn sum(&self, num: Num, terms: &[Term]) -> Expr {
        let mut acc: Option<Expr> = None;
        for t in terms {
            acc = Some(match (acc, t.neg) {
                (None, false) => t.expr.clone(),
                (None, true) => self.sub(num, self.lit(num, 0), t.expr.clone()),
                (Some(a), false) => self.add(num, a, t.expr.clone()),
                (Some(a), true) => self.sub(num, a, t.expr.clone()),
            });
        }
        acc.unwrap_or_else(|| self.lit(num, 0))
    }

    /// `e - sum(terms)`, subtracting term by term.
    pub fn minus_terms(&self, num: Num, e: Expr, terms: &[Term]) -> Expr {
        terms.iter().fold(e, |acc, t| {
            if t.neg {
                self.add(num, acc, t.expr.clone())
            } else {
                self.sub(num, acc, t.expr.clone())
            }
        })
    }
}

/// `2^k` for small `k`.
pub fn pow2(k: u32) -> i64 {
    1i64 << k.min(62)
}

/// The smallest `k` with `2^k >= n`.
pub fn ceil_log2(n: u64) -> u32 {
    let mut k = 0;
    while (1u64 << k) < n && k < 62 {
        k += 1;
    }
    k
}

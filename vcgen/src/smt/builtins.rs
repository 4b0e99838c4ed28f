//! The SMT-LIB operators that `{:bvbuiltin "op"}` / `{:builtin "op"}` name: which ones kivl
//! knows ([`Builtin::parse`]) and their application to encoded arguments ([`apply_builtin`]).
//!
//! Separate because it is a table of operators, independent of how declarations and
//! expressions are walked.

use super::exprs::{binary, same_sort};
use super::*;

/// An SMT-LIB operator named by `{:bvbuiltin}` / `{:builtin}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A bit-vector operator with only bit-vector operands of one width, by SMT-LIB name.
    Bv(&'static str),
    ZeroExtend(u32),
    SignExtend(u32),
    /// `extract i j`: bits `i` down to `j`.
    Extract(u32, u32),
    RotateLeft(u32),
    RotateRight(u32),
    /// `concat`
    Concat,
    /// An integer/real/boolean operator by SMT-LIB name.
    Arith(&'static str),
    /// A floating-point operator, with the arguments written after it ([`crate::fp`]).
    Fp(crate::fp::FpBuiltin),
}

const BV_OPS: &[&str] = &[
    "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvneg", "bvand", "bvor", "bvxor",
    "bvnot", "bvnand", "bvnor", "bvxnor", "bvshl", "bvlshr", "bvashr", "bvult", "bvule", "bvugt", "bvuge", "bvslt",
    "bvsle", "bvsgt", "bvsge", "bvcomp",
];

const ARITH_OPS: &[&str] = &[
    "+", "-", "*", "div", "mod", "rem", "/", "<", "<=", ">", ">=", "to_real", "to_int", "is_int", "abs", "=", "not",
    "and", "or", "=>", "xor", "ite",
];

impl Builtin {
    /// Parses the attribute argument (`"bvadd"`, `"zero_extend 24"`, `"(_ extract 7 0)"`).
    pub fn parse(op: &str) -> Option<Builtin> {
        if let Some(fp) = crate::fp::FpBuiltin::parse(op) {
            return Some(Builtin::Fp(fp));
        }
        let cleaned = op.trim().trim_start_matches('(').trim_end_matches(')').trim();
        let cleaned = cleaned.strip_prefix('_').map(str::trim).unwrap_or(cleaned);
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u32>().ok());
        match words.as_slice() {
            [w] => {
                if let Some(o) = BV_OPS.iter().find(|o| **o == *w) {
                    Some(Builtin::Bv(o))
                } else if *w == "concat" {
                    Some(Builtin::Concat)
                } else {
                    ARITH_OPS.iter().find(|o| **o == *w).map(|o| Builtin::Arith(o))
                }
            }
            ["zero_extend", _] => num(1).map(Builtin::ZeroExtend),
            ["sign_extend", _] => num(1).map(Builtin::SignExtend),
            ["rotate_left", _] => num(1).map(Builtin::RotateLeft),
            ["rotate_right", _] => num(1).map(Builtin::RotateRight),
            ["extract", _, _] => Some(Builtin::Extract(num(1)?, num(2)?)),
            _ => None,
        }
    }
}

fn bv_args(args: &[Dynamic], n: usize, span: Span) -> Result<Vec<BV>, Diagnostic> {
    if args.len() != n {
        return Err(Diagnostic::type_error(format!("builtin expects {n} arguments, got {}", args.len()), span));
    }
    args.iter().map(|a| a.as_bv().ok_or_else(|| type_mismatch("builtin expects bit-vectors", a, span))).collect()
}

/// Applies an SMT-LIB operator to already-encoded arguments.
pub fn apply_builtin(b: &Builtin, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
    match b {
        Builtin::Bv(op) => {
            let unary = matches!(*op, "bvneg" | "bvnot");
            let v = bv_args(args, if unary { 1 } else { 2 }, span)?;
            if unary {
                return Ok(if *op == "bvneg" { v[0].bvneg() } else { v[0].bvnot() }.into());
            }
            let (x, y) = (&v[0], &v[1]);
            if x.get_size() != y.get_size() {
                return Err(Diagnostic::type_error(
                    format!("`{op}` on bit-vectors of different widths ({} and {})", x.get_size(), y.get_size()),
                    span,
                ));
            }
            Ok(match *op {
                "bvadd" => x.bvadd(y).into(),
                "bvsub" => x.bvsub(y).into(),
                "bvmul" => x.bvmul(y).into(),
                "bvudiv" => x.bvudiv(y).into(),
                "bvurem" => x.bvurem(y).into(),
                "bvsdiv" => x.bvsdiv(y).into(),
                "bvsrem" => x.bvsrem(y).into(),
                "bvsmod" => x.bvsmod(y).into(),
                "bvand" => x.bvand(y).into(),
                "bvor" => x.bvor(y).into(),
                "bvxor" => x.bvxor(y).into(),
                "bvnand" => x.bvnand(y).into(),
                "bvnor" => x.bvnor(y).into(),
                "bvxnor" => x.bvxnor(y).into(),
                "bvshl" => x.bvshl(y).into(),
                "bvlshr" => x.bvlshr(y).into(),
                "bvashr" => x.bvashr(y).into(),
                "bvult" => x.bvult(y).into(),
                "bvule" => x.bvule(y).into(),
                "bvugt" => x.bvugt(y).into(),
                "bvuge" => x.bvuge(y).into(),
                "bvslt" => x.bvslt(y).into(),
                "bvsle" => x.bvsle(y).into(),
                "bvsgt" => x.bvsgt(y).into(),
                "bvsge" => x.bvsge(y).into(),
                "bvcomp" => x.eq(y).ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)).into(),
                _ => unreachable!("BV_OPS and this match agree"),
            })
        }
        Builtin::ZeroExtend(n) => Ok(bv_args(args, 1, span)?[0].zero_ext(*n).into()),
        Builtin::SignExtend(n) => Ok(bv_args(args, 1, span)?[0].sign_ext(*n).into()),
        Builtin::RotateLeft(n) | Builtin::RotateRight(n) => {
            let v = &bv_args(args, 1, span)?[0];
            let amount = BV::from_u64(*n as u64 % v.get_size() as u64, v.get_size());
            Ok(if matches!(b, Builtin::RotateLeft(_)) { v.bvrotl(&amount) } else { v.bvrotr(&amount) }.into())
        }
        Builtin::Extract(hi, lo) => {
            let v = &bv_args(args, 1, span)?[0];
            if hi < lo || *hi >= v.get_size() {
                return Err(Diagnostic::type_error(format!("bad `extract {hi} {lo}` on bv{}", v.get_size()), span));
            }
            Ok(v.extract(*hi, *lo).into())
        }
        Builtin::Concat => {
            let v = bv_args(args, 2, span)?;
            Ok(v[0].concat(&v[1]).into())
        }
        Builtin::Arith(op) => arith_builtin(op, args, span),
        Builtin::Fp(fp) => fp.apply(args, span),
    }
}

fn arith_builtin(op: &str, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
    let bin = |o: BinOp| -> Result<Dynamic, Diagnostic> {
        match args {
            [a, b] => binary(o, a, b, span),
            _ => Err(Diagnostic::type_error(format!("`{op}` expects 2 arguments"), span)),
        }
    };
    match (op, args) {
        ("+", _) => bin(BinOp::Add),
        ("-", [a]) => {
            if let Some(i) = a.as_int() {
                Ok(i.unary_minus().into())
            } else {
                a.as_real().map(|r| r.unary_minus().into()).ok_or_else(|| type_mismatch("`-` needs a number", a, span))
            }
        }
        ("-", _) => bin(BinOp::Sub),
        ("*", _) => bin(BinOp::Mul),
        ("div", _) => bin(BinOp::Div),
        ("mod", _) => bin(BinOp::Mod),
        ("/", _) => bin(BinOp::RealDiv),
        ("<", _) => bin(BinOp::Lt),
        ("<=", _) => bin(BinOp::Le),
        (">", _) => bin(BinOp::Gt),
        (">=", _) => bin(BinOp::Ge),
        ("=", _) => bin(BinOp::Eq),
        ("=>", _) => bin(BinOp::Implies),
        ("and", _) => bin(BinOp::And),
        ("or", _) => bin(BinOp::Or),
        ("xor", [a, b]) => Ok(as_bool(a, span)?.xor(&as_bool(b, span)?).into()),
        ("not", [a]) => Ok(as_bool(a, span)?.not().into()),
        ("rem", [a, b]) => match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Ok(x.rem(&y).into()),
            _ => Err(type_mismatch("`rem` needs ints", a, span)),
        },
        ("to_real", [a]) => {
            a.as_int().map(|i| i.to_real().into()).ok_or_else(|| type_mismatch("`to_real` needs an int", a, span))
        }
        ("to_int", [a]) => {
            a.as_real().map(|r| r.to_int().into()).ok_or_else(|| type_mismatch("`to_int` needs a real", a, span))
        }
        ("is_int", [a]) => {
            a.as_real().map(|r| r.is_int().into()).ok_or_else(|| type_mismatch("`is_int` needs a real", a, span))
        }
        ("abs", [a]) => {
            if let Some(i) = a.as_int() {
                Ok(i.ge(Int::from_i64(0)).ite(&i, &i.unary_minus()).into())
            } else if let Some(r) = a.as_real() {
                Ok(r.ge(Real::from_rational_str("0", "1").expect("zero")).ite(&r, &r.unary_minus()).into())
            } else {
                Err(type_mismatch("`abs` needs a number", a, span))
            }
        }
        ("ite", [c, a, b]) => {
            same_sort(a, b, "ite", span)?;
            Ok(as_bool(c, span)?.ite(a, b))
        }
        _ => Err(Diagnostic::type_error(format!("builtin `{op}` applied to {} arguments", args.len()), span)),
    }
}

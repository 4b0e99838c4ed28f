//! The Z3 encoding of Boogie's floating-point values and rounding modes (SMT-LIB's
//! FloatingPoint theory), as Boogie 2.4.1 writes them for Z3 (see [`ivl::floats`]).
//!
//! - A float literal is its exact IEEE value (`(fp s e m)`, `(_ NaN E S)`, `(_ ±oo E S)`).
//! - `+ - * /` on floats are `fp.add`, `fp.sub`, `fp.mul`, `fp.div` rounding with `RNE`, the
//!   comparisons are `fp.lt`, `fp.leq`, `fp.gt`, `fp.geq`; `==` stays SMT equality (not
//!   `fp.eq`: `NaN == NaN` holds, `0.0 == -0.0` does not), and unary `-` is `fp.neg`.
//! - The rounding-mode constants are SMT-LIB's rounding-mode values.
//! - `{:builtin "op"}` names an SMT-LIB floating-point operation ([`FpBuiltin`]): Boogie writes
//!   the attribute text as the head of the application, followed by the arguments, so a
//!   rounding mode written in the text (`"fp.add RNA"`, `"(_ to_fp 8 24) RNE"`) is the first
//!   argument and a function without one takes it as its first parameter (`rmode`). Which
//!   `to_fp` conversion is meant follows from the argument sorts, as in SMT-LIB: one
//!   bit-vector is reinterpreted as IEEE bits, a rounding mode with a float, a real (or an
//!   int, which Z3 reads as a real) or a bit-vector (signed) rounds the value.
//!
//! Operations the z3 crate lacks are made with z3-sys's `Z3_mk_fpa_*` calls in the calling
//! thread's context (the context every other term of [`crate::smt`] lives in).

use ivl::ast::{BinOp, Span};
use ivl::diag::Diagnostic;
use ivl::floats::FloatValue;
use z3::ast::{Ast, Dynamic, Float, RoundingMode, BV};
use z3::{Context, Sort, SortKind};

/// A `{:builtin}` floating-point operation: the operator and the rounding mode written after
/// it, if any (its SMT-LIB short name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FpBuiltin {
    pub op: FpOp,
    pub rounding: Option<&'static str>,
}

/// The SMT-LIB floating-point operators kivl encodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FpOp {
    /// `fp.add`, `fp.isNaN`, `fp.to_real`, … (see [`SIMPLE`]).
    Simple(&'static str),
    /// `(_ to_fp E S)` (sizes in SMT-LIB order: exponent, then significand).
    ToFp(u32, u32),
    /// `(_ to_fp_unsigned E S)`.
    ToFpUnsigned(u32, u32),
    /// `(_ fp.to_sbv N)`.
    ToSbv(u32),
    /// `(_ fp.to_ubv N)`.
    ToUbv(u32),
}

const SIMPLE: &[&str] = &[
    "fp.abs",
    "fp.neg",
    "fp.add",
    "fp.sub",
    "fp.mul",
    "fp.div",
    "fp.fma",
    "fp.sqrt",
    "fp.rem",
    "fp.roundToIntegral",
    "fp.min",
    "fp.max",
    "fp.leq",
    "fp.lt",
    "fp.geq",
    "fp.gt",
    "fp.eq",
    "fp.isNormal",
    "fp.isSubnormal",
    "fp.isZero",
    "fp.isInfinite",
    "fp.isNaN",
    "fp.isNegative",
    "fp.isPositive",
    "fp.to_real",
];

impl FpBuiltin {
    /// Parses `"fp.add"`, `"fp.mul RNA"`, `"(_ to_fp 11 53) RNE"`, `"(_ fp.to_sbv 64)"`.
    pub fn parse(text: &str) -> Option<FpBuiltin> {
        let text = text.trim();
        let (op, rest) = if let Some(inner) = text.strip_prefix('(') {
            let close = inner.find(')')?;
            let words: Vec<&str> = inner[..close].split_whitespace().collect();
            let num = |i: usize| words.get(i).and_then(|w| w.parse::<u32>().ok());
            let op = match words.as_slice() {
                ["_", "to_fp", _, _] => FpOp::ToFp(num(2)?, num(3)?),
                ["_", "to_fp_unsigned", _, _] => FpOp::ToFpUnsigned(num(2)?, num(3)?),
                ["_", "fp.to_sbv", _] => FpOp::ToSbv(num(2)?),
                ["_", "fp.to_ubv", _] => FpOp::ToUbv(num(2)?),
                _ => return None,
            };
            (op, &inner[close + 1..])
        } else {
            let (head, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
            (FpOp::Simple(SIMPLE.iter().find(|o| **o == head)?), rest)
        };
        let rest: Vec<&str> = rest.split_whitespace().collect();
        let rounding = match rest.as_slice() {
            [] => None,
            [rm] => Some(ivl::floats::rounding_mode(rm)?),
            _ => return None,
        };
        Some(FpBuiltin { op, rounding })
    }

    /// Applies the operation to `args` (after the rounding mode of the attribute text).
    pub fn apply(&self, args: &[Dynamic], span: Span) -> Result<Dynamic, Diagnostic> {
        let mut all = Vec::with_capacity(args.len() + 1);
        if let Some(rm) = self.rounding {
            all.push(Dynamic::from_ast(&rounding_mode(rm)));
        }
        all.extend(args.iter().cloned());
        let name = match &self.op {
            FpOp::Simple(o) => o.to_string(),
            FpOp::ToFp(e, s) => format!("(_ to_fp {e} {s})"),
            FpOp::ToFpUnsigned(e, s) => format!("(_ to_fp_unsigned {e} {s})"),
            FpOp::ToSbv(n) => format!("(_ fp.to_sbv {n})"),
            FpOp::ToUbv(n) => format!("(_ fp.to_ubv {n})"),
        };
        let bad = || {
            let sorts: Vec<String> = all.iter().map(|a| a.get_sort().to_string()).collect();
            Diagnostic::type_error(format!("`{name}` cannot be applied to ({})", sorts.join(", ")), span)
        };
        let floats = |from: usize, n: usize| -> Option<Vec<Float>> {
            if all.len() != from + n {
                return None;
            }
            let fs: Vec<Float> = all[from..].iter().map(|a| a.as_float()).collect::<Option<_>>()?;
            fs.iter().all(|f| f.get_sort() == fs[0].get_sort()).then_some(fs)
        };
        let rm = || all.first().and_then(as_rounding_mode);
        let out: Option<Dynamic> = match &self.op {
            FpOp::Simple(o) => match *o {
                "fp.add" | "fp.sub" | "fp.mul" | "fp.div" => (|| {
                    let (r, f) = (rm()?, floats(1, 2)?);
                    let y = f[1].clone();
                    Some(match *o {
                        "fp.add" => f[0].add_with_rounding_mode(y, &r),
                        "fp.sub" => f[0].sub_with_rounding_mode(y, &r),
                        "fp.mul" => f[0].mul_with_rounding_mode(y, &r),
                        _ => f[0].div_with_rounding_mode(y, &r),
                    })
                })()
                .map(Dynamic::from),
                "fp.fma" => (|| {
                    let (r, f) = (rm()?, floats(1, 3)?);
                    Some(f[0].fma_with_rounding_mode(f[1].clone(), f[2].clone(), &r).into())
                })(),
                "fp.sqrt" | "fp.roundToIntegral" => (|| {
                    let (r, f) = (rm()?, floats(1, 1)?);
                    Some(
                        if *o == "fp.sqrt" {
                            f[0].sqrt_with_rounding_mode(&r)
                        } else {
                            f[0].round_to_integral_with_rounding_mode(&r)
                        }
                        .into(),
                    )
                })(),
                "fp.rem" | "fp.min" | "fp.max" | "fp.leq" | "fp.lt" | "fp.geq" | "fp.gt" | "fp.eq" => {
                    floats(0, 2).map(|f| {
                        let y = f[1].clone();
                        match *o {
                            "fp.rem" => f[0].rem(y).into(),
                            "fp.min" => f[0].min(y).into(),
                            "fp.max" => f[0].max(y).into(),
                            "fp.leq" => f[0].le(y).into(),
                            "fp.lt" => f[0].lt(y).into(),
                            "fp.geq" => f[0].ge(y).into(),
                            "fp.gt" => f[0].gt(y).into(),
                            _ => f[0].eq_fpa(y).into(),
                        }
                    })
                }
                _ => floats(0, 1).map(|f| {
                    let x = &f[0];
                    match *o {
                        "fp.abs" => x.unary_abs().into(),
                        "fp.neg" => x.unary_neg().into(),
                        "fp.isNormal" => x.is_normal().into(),
                        "fp.isSubnormal" => x.is_subnormal().into(),
                        "fp.isZero" => x.is_zero().into(),
                        "fp.isInfinite" => x.is_infinite().into(),
                        "fp.isNaN" => x.is_nan().into(),
                        "fp.isNegative" => x.is_negative().into(),
                        "fp.isPositive" => x.is_positive().into(),
                        _ => x.to_real().into(),
                    }
                }),
            },
            FpOp::ToSbv(n) | FpOp::ToUbv(n) => (|| {
                let (r, f) = (rm()?, floats(1, 1)?);
                if *n == 0 {
                    return None;
                }
                Some(
                    if matches!(self.op, FpOp::ToSbv(_)) {
                        f[0].to_sbv_with_rounding_mode(&r, *n)
                    } else {
                        f[0].to_ubv_with_rounding_mode(&r, *n)
                    }
                    .into(),
                )
            })(),
            FpOp::ToFp(e, s) | FpOp::ToFpUnsigned(e, s) => {
                let sort = float_sort(*s, *e).ok_or_else(|| bad().with_note("no such float sort"))?;
                let unsigned = matches!(self.op, FpOp::ToFpUnsigned(..));
                to_fp(&all, &sort, unsigned).map(Dynamic::from)
            }
        };
        out.ok_or_else(bad)
    }
}

/// Whether `s` is a float or rounding-mode sort (an unknown `{:builtin}` operator with such a
/// parameter or result is reported as unsupported rather than made uninterpreted).
pub fn is_fp_sort(s: &Sort) -> bool {
    matches!(s.kind(), SortKind::FloatingPoint | SortKind::RoundingMode)
}

/// The sort `(_ FloatingPoint e s)`, when Z3 has it (both sizes at least 2).
fn float_sort(s: u32, e: u32) -> Option<Sort> {
    (s >= 2 && (2..=64).contains(&e)).then(|| Sort::float(e, s))
}

/// `((_ to_fp E S) args…)` and `((_ to_fp_unsigned E S) rm bv)`, by argument sorts.
fn to_fp(all: &[Dynamic], sort: &Sort, unsigned: bool) -> Option<Float> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let ast = match all {
        [bv] if !unsigned => {
            let bv = bv.as_bv()?;
            let width = sort.float_exponent_size()? + sort.float_significand_size()?;
            if bv.get_size() != width {
                return None;
            }
            unsafe { z3_sys::Z3_mk_fpa_to_fp_bv(raw, bv.get_z3_ast(), sort.get_z3_sort()) }
        }
        [r, x] => {
            let r = as_rounding_mode(r)?;
            if unsigned {
                let bv = x.as_bv()?;
                unsafe { z3_sys::Z3_mk_fpa_to_fp_unsigned(raw, r.get_z3_ast(), bv.get_z3_ast(), sort.get_z3_sort()) }
            } else if let Some(f) = x.as_float() {
                return Some(f.to_fp_with_rounding_mode(&r, sort));
            } else if let Some(bv) = x.as_bv() {
                unsafe { z3_sys::Z3_mk_fpa_to_fp_signed(raw, r.get_z3_ast(), bv.get_z3_ast(), sort.get_z3_sort()) }
            } else {
                let real = x.as_real().or_else(|| x.as_int().map(|i| i.to_real()))?;
                unsafe { z3_sys::Z3_mk_fpa_to_fp_real(raw, r.get_z3_ast(), real.get_z3_ast(), sort.get_z3_sort()) }
            }
        }
        _ => return None,
    };
    Some(unsafe { Float::wrap(&ctx, ast?) })
}

/// `d` as a rounding mode, if it has that sort.
fn as_rounding_mode(d: &Dynamic) -> Option<RoundingMode> {
    (d.sort_kind() == SortKind::RoundingMode)
        .then(|| unsafe { RoundingMode::wrap(&Context::thread_local(), d.get_z3_ast()) })
}

/// The rounding-mode value of SMT-LIB short name `rm` (`RNE`, `RNA`, `RTP`, `RTN`, `RTZ`).
pub fn rounding_mode(rm: &str) -> RoundingMode {
    match rm {
        "RNA" => RoundingMode::round_nearest_ties_to_away(),
        "RTP" => RoundingMode::round_towards_positive(),
        "RTN" => RoundingMode::round_towards_negative(),
        "RTZ" => RoundingMode::round_towards_zero(),
        _ => RoundingMode::round_nearest_ties_to_even(),
    }
}

/// A float literal as its exact value ([`ivl::floats::literal_value`]).
pub fn literal(text: &str, span: Span) -> Result<Dynamic, Diagnostic> {
    let ((s, e), value) = ivl::floats::literal_value(text)
        .map_err(|why| Diagnostic::syntax("incorrectly formatted floating point", span).with_label(why))?;
    let sort =
        float_sort(s, e).ok_or_else(|| Diagnostic::unsupported(format!("float{s}e{e} has no SMT-LIB sort"), span))?;
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let ast = match value {
        FloatValue::NaN => return Ok(Float::nan(&sort).into()),
        FloatValue::Infinity { negative } => unsafe { z3_sys::Z3_mk_fpa_inf(raw, sort.get_z3_sort(), negative) },
        FloatValue::Finite { negative, exponent, significand } => {
            let bv = |v: &num_bigint::BigUint, w: u32| {
                BV::from_str(w, &v.to_string()).ok_or_else(|| Diagnostic::syntax("bad float literal", span))
            };
            let sign = BV::from_u64(negative as u64, 1);
            let exponent = bv(&exponent, e)?;
            let significand = bv(&significand, s - 1)?;
            unsafe { z3_sys::Z3_mk_fpa_fp(raw, sign.get_z3_ast(), exponent.get_z3_ast(), significand.get_z3_ast()) }
        }
    };
    let ast = ast.ok_or_else(|| Diagnostic::syntax("bad float literal", span))?;
    Ok(unsafe { Float::wrap(&ctx, ast) }.into())
}

/// Boogie's float operators: `+ - * /` with `RNE`, the comparisons as `fp.lt` and so on.
pub fn binary(op: BinOp, a: &Dynamic, b: &Dynamic, span: Span) -> Result<Dynamic, Diagnostic> {
    let (Some(x), Some(y)) = (a.as_float(), b.as_float()) else {
        return Err(Diagnostic::type_error(format!("`{}` needs two floats", op.symbol()), span));
    };
    if x.get_sort() != y.get_sort() {
        return Err(Diagnostic::type_error(
            format!("operands of `{}` have different types ({} and {})", op.symbol(), x.get_sort(), y.get_sort()),
            span,
        ));
    }
    let rne = RoundingMode::round_nearest_ties_to_even();
    Ok(match op {
        BinOp::Add => x.add_with_rounding_mode(y, &rne).into(),
        BinOp::Sub => x.sub_with_rounding_mode(y, &rne).into(),
        BinOp::Mul => x.mul_with_rounding_mode(y, &rne).into(),
        BinOp::RealDiv => x.div_with_rounding_mode(y, &rne).into(),
        BinOp::Lt => x.lt(y).into(),
        BinOp::Le => x.le(y).into(),
        BinOp::Gt => x.gt(y).into(),
        BinOp::Ge => x.ge(y).into(),
        _ => return Err(Diagnostic::type_error(format!("`{}` is not a float operator", op.symbol()), span)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_builtin_texts() {
        let p = |t: &str| FpBuiltin::parse(t);
        assert_eq!(p("fp.add"), Some(FpBuiltin { op: FpOp::Simple("fp.add"), rounding: None }));
        assert_eq!(p("fp.mul RNA"), Some(FpBuiltin { op: FpOp::Simple("fp.mul"), rounding: Some("RNA") }));
        assert_eq!(p("(_ to_fp 11 53) RNE"), Some(FpBuiltin { op: FpOp::ToFp(11, 53), rounding: Some("RNE") }));
        assert_eq!(p("(_ fp.to_sbv 64)"), Some(FpBuiltin { op: FpOp::ToSbv(64), rounding: None }));
        assert_eq!(p("fp.sub roundTowardZero"), Some(FpBuiltin { op: FpOp::Simple("fp.sub"), rounding: Some("RTZ") }));
        assert_eq!(p("fp.frobnicate"), None);
        assert_eq!(p("fp.add RNA RNE"), None);
        assert_eq!(p("bvadd"), None);
    }

    #[test]
    fn literals_and_model_values() {
        let one = literal("0x1.0e0f24e8", Span::default()).unwrap();
        let bits = FpBuiltin::parse("(_ to_fp 8 24)").unwrap();
        let from_bits = bits.apply(&[BV::from_u64(0x3f80_0000, 32).into()], Span::default()).unwrap();
        let solver = z3::Solver::new();
        solver.assert(one.eq(&from_bits).not());
        assert_eq!(solver.check(), z3::SatResult::Unsat);
        // A model with float and rounding-mode values prints them (no panic).
        let x = Float::new_const("x", 8, 24);
        let m = Dynamic::new_const("m", &rounding_mode("RNE").get_sort());
        let solver = z3::Solver::new();
        solver.assert(x.gt(one.as_float().unwrap()));
        assert_eq!(solver.check(), z3::SatResult::Sat);
        let model = solver.get_model().unwrap();
        for v in [Dynamic::from_ast(&x), m] {
            let shown = crate::wp::model_value(&model.eval(&v, true).unwrap());
            assert!(!shown.is_empty());
        }
    }
}

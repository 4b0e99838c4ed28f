//! Boogie's floating-point types, literals and rounding modes.
//!
//! Boogie 2.4.1 has IEEE types `floatSeE` (`float24e8` is binary32: 24 significand bits
//! including the hidden one, 8 exponent bits), literals `0x1.8e3f24e8` (hexadecimal
//! significand, decimal exponent of 16, then the sizes), `0NaN24e8`, `0nan24e8`, `0+oo24e8`,
//! `0-oo24e8`, a leading `-` of a literal setting its sign bit, and types `+ - * /` and the
//! comparisons on two operands of one float type (test0/PrintAssoc.bpl). It gives them to Z3
//! as the SMT-LIB FloatingPoint theory: the type is `(_ FloatingPoint E S)`, a literal is the
//! exact value `(fp sign exponent significand)` (Boogie rejects a literal that is not exactly
//! representable: "incorrectly formatted floating point"), `+ - * /` are `fp.add`, `fp.sub`,
//! `fp.mul`, `fp.div` with the fixed rounding mode `RNE`, `< <= > >=` are `fp.lt`, `fp.leq`,
//! `fp.gt`, `fp.geq`, and `==` is SMT equality `=` (so `NaN == NaN` holds and `0.0 != -0.0`;
//! IEEE equality is the builtin `fp.eq`, floats/Equal2.bpl). The type `rmode` is SMT-LIB's
//! `RoundingMode`, with the constants `RNE RNA RTP RTN RTZ` and their long names
//! (`roundNearestTiesToEven`, …), and `{:builtin "fp.add"}`-style functions name any other
//! operation: the attribute text is the head of the SMT-LIB application and the arguments
//! follow it (`{:builtin "(_ to_fp 8 24) RNE"} F(real)` is `((_ to_fp 8 24) RNE x)`).
//!
//! kivl checks all of that here and in the type checker: a float type is the [`Ty::Ctor`]
//! named after it (so two float types with different sizes are different types), `rmode` the
//! constructor `rmode`, and a float literal is kept as written in
//! [`ExprKind::RealLit`](crate::ast::ExprKind::RealLit), typed by its suffix, its exact value
//! given by [`literal_value`]. The VC encoder (`vcgen::fp`, `vcgen::smt`) encodes them as Boogie
//! does.

use crate::ast::Name;
use crate::types::Ty;
use num_bigint::BigUint;

/// The significand and exponent sizes of the float type named `name` (`float24e8` →
/// `(24, 8)`), when `name` has Boogie's `floatSeE` form.
pub fn type_sizes(name: &str) -> Option<(u32, u32)> {
    sizes(name.strip_prefix("float")?)
}

/// `SeE` (decimal sizes, both non-empty).
fn sizes(text: &str) -> Option<(u32, u32)> {
    let (s, e) = text.split_once('e')?;
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if !(digits(s) && digits(e)) {
        return None;
    }
    Some((s.parse().ok()?, e.parse().ok()?))
}

/// The float type of a literal as the lexer keeps it (`0x1.8e3f24e8`, `0NaN24e8`, `0+oo11e53`),
/// or `None` for a decimal real literal.
pub fn literal_sizes(text: &str) -> Option<(u32, u32)> {
    let rest = text.strip_prefix('-').unwrap_or(text).strip_prefix('0')?;
    for special in ["NaN", "nan", "+oo", "-oo"] {
        if let Some(s) = rest.strip_prefix(special) {
            return sizes(s);
        }
    }
    let hex = rest.strip_prefix('x')?;
    sizes(&hex[hex.rfind('f')? + 1..])
}

/// The type of float type name `floatSeE`.
pub fn ty(sizes: (u32, u32)) -> Ty {
    Ty::Ctor(Name::new(format!("float{}e{}", sizes.0, sizes.1)), Vec::new().into())
}

/// Whether `t` is a float type.
pub fn is_float(t: &Ty) -> bool {
    matches!(t, Ty::Ctor(n, args) if args.is_empty() && type_sizes(n).is_some())
}

/// The names of Boogie's rounding-mode constants (type `rmode`), short and long, and the
/// SMT-LIB short name each stands for.
pub const ROUNDING_MODES: [(&str, &str); 10] = [
    ("RNE", "RNE"),
    ("RNA", "RNA"),
    ("RTP", "RTP"),
    ("RTN", "RTN"),
    ("RTZ", "RTZ"),
    ("roundNearestTiesToEven", "RNE"),
    ("roundNearestTiesToAway", "RNA"),
    ("roundTowardPositive", "RTP"),
    ("roundTowardNegative", "RTN"),
    ("roundTowardZero", "RTZ"),
];

/// The SMT-LIB short name (`RNE`, …) of rounding-mode constant `name`, if it is one.
pub fn rounding_mode(name: &str) -> Option<&'static str> {
    ROUNDING_MODES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The rounding-mode type `rmode`.
pub fn rmode_ty() -> Ty {
    Ty::Ctor(Name::new("rmode"), Vec::new().into())
}

/// The value of a float literal, as IEEE fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FloatValue {
    NaN,
    Infinity {
        negative: bool,
    },
    /// A finite value: sign bit, biased exponent field (`E` bits) and significand field
    /// (`S - 1` bits, without the hidden bit).
    Finite {
        negative: bool,
        exponent: BigUint,
        significand: BigUint,
    },
}

/// The exact value of float literal `text` (`0x1.8e3f24e8`, `-0x0.0e0f53e11`, `0NaN24e8`) and
/// its sizes `(S, E)`; an error (Boogie's "incorrectly formatted floating point") when the
/// sizes are below 2, or the value is not exactly representable in the type (too many
/// significand bits, overflow to infinity, underflow below the least subnormal).
pub fn literal_value(text: &str) -> Result<((u32, u32), FloatValue), String> {
    let sizes = literal_sizes(text).ok_or("not a float literal")?;
    let (s, e) = sizes;
    if s < 2 || e < 2 {
        return Err(format!("float{s}e{e} needs at least 2 significand and 2 exponent bits"));
    }
    if e > 64 {
        return Err(format!("exponents of more than 64 bits (float{s}e{e}) are not supported"));
    }
    let (negative, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let rest = &body[1..];
    if rest.starts_with("NaN") || rest.starts_with("nan") {
        return Ok((sizes, FloatValue::NaN));
    }
    if rest.starts_with("+oo") || rest.starts_with("-oo") {
        return Ok((sizes, FloatValue::Infinity { negative: negative != rest.starts_with("-oo") }));
    }
    let hex = &rest[1..];
    let hex = &hex[..hex.rfind('f').ok_or("no size suffix")?];
    let (digits, exp) = hex.rsplit_once('e').ok_or("no exponent")?;
    let (int, frac) = digits.split_once('.').ok_or("no hexadecimal point")?;
    let exp: i128 = exp.parse().map_err(|_| "exponent out of range".to_string())?;
    let m = BigUint::parse_bytes(format!("{int}{frac}").as_bytes(), 16).ok_or("bad hexadecimal digits")?;
    let zero = || FloatValue::Finite { negative, exponent: BigUint::from(0u8), significand: BigUint::from(0u8) };
    if m == BigUint::from(0u8) {
        return Ok((sizes, zero()));
    }
    // value = m * 2^k, highest bit at 2^p.
    let k = 4 * (exp - frac.len() as i128);
    let len = m.bits() as i128;
    let p = len - 1 + k;
    let bias: i128 = (1i128 << (e - 1)) - 1;
    let (emin, emax) = (1 - bias, bias);
    let s = s as i128;
    let trailing = m.trailing_zeros().unwrap_or(0) as i128;
    let shifted = |by: i128| if by >= 0 { &m << (by as u64) } else { &m >> ((-by) as u64) };
    if p > emax {
        return Err("the value overflows the float type".into());
    }
    if p >= emin {
        // Normal: the lowest significand bit has weight 2^(p - s + 1).
        if trailing + k < p - s + 1 {
            return Err("the value has more significand bits than the float type".into());
        }
        let significand = shifted(s - len) - (BigUint::from(1u8) << ((s - 1) as u64));
        let exponent = BigUint::from((p + bias) as u128);
        return Ok((sizes, FloatValue::Finite { negative, exponent, significand }));
    }
    // Subnormal: the lowest significand bit has weight 2^(emin - s + 1).
    let low = emin - s + 1;
    if trailing + k < low {
        return Err("the value is below the least subnormal or has too many significand bits".into());
    }
    Ok((sizes, FloatValue::Finite { negative, exponent: BigUint::from(0u8), significand: shifted(k - low) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finite(neg: bool, exp: u64, sig: u64) -> FloatValue {
        FloatValue::Finite { negative: neg, exponent: BigUint::from(exp), significand: BigUint::from(sig) }
    }

    #[test]
    fn literal_values_are_exact_ieee_fields() {
        // As Boogie 2.4.1 writes them to Z3 (`/proverLog`).
        assert_eq!(literal_value("0x1.8e3f24e8").unwrap().1, finite(false, 139, 4194304));
        assert_eq!(literal_value("0x0.8e-1f24e8").unwrap().1, finite(false, 122, 0));
        assert_eq!(literal_value("-0x0.0e0f24e8").unwrap().1, finite(true, 0, 0));
        assert_eq!(literal_value("0NaN24e8").unwrap().1, FloatValue::NaN);
        assert_eq!(literal_value("0-oo24e8").unwrap().1, FloatValue::Infinity { negative: true });
        // floats/ConstSyntax3.bpl: the least subnormal, the largest binade, 24 bits.
        assert_eq!(literal_value("0x0.000008e-32f24e8").unwrap().1, finite(false, 0, 1));
        assert!(literal_value("0x0.000004e-32f24e8").is_err());
        assert!(literal_value("0x0.8e32f24e8").is_ok());
        assert!(literal_value("0x1.0e32f24e8").is_err());
        assert!(literal_value("0x0.ffffffe0f24e8").is_ok());
        assert!(literal_value("0x1.ffffffe0f24e8").is_err());
        assert!(literal_value("0x0.0e0f2e1").is_err());
        assert!(literal_value("0x0.0e0f1e2").is_err());
        assert!(literal_value("0x0.0e0f2e2").is_ok());
        assert!(literal_value("0x0.0000000000004e-256f53e11").is_ok());
        assert!(literal_value("0x0.0000000000002e-256f53e11").is_err());
        assert!(literal_value("0x1.fffffffffffffe0f53e11").is_ok());
        assert!(literal_value("0x3.fffffffffffffe0f53e11").is_err());
        assert!(literal_value("0x1.0e536870911f24e32").is_ok());
    }

    #[test]
    fn sizes_of_types_and_literals() {
        assert_eq!(type_sizes("float24e8"), Some((24, 8)));
        assert_eq!(type_sizes("float53e11"), Some((53, 11)));
        assert_eq!(type_sizes("float24"), None);
        assert_eq!(type_sizes("floate8"), None);
        assert_eq!(type_sizes("float24e8x"), None);
        assert_eq!(literal_sizes("0x1.8e3f24e8"), Some((24, 8)));
        assert_eq!(literal_sizes("0x1.0e-2f53e11"), Some((53, 11)));
        assert_eq!(literal_sizes("0NaN24e8"), Some((24, 8)));
        assert_eq!(literal_sizes("0-oo11e5"), Some((11, 5)));
        assert_eq!(literal_sizes("1.5e3"), None);
        assert_eq!(literal_sizes("0.5"), None);
    }

    #[test]
    fn float_types_are_distinct_constructors() {
        assert!(is_float(&ty((24, 8))));
        assert_ne!(ty((24, 8)), ty((53, 11)));
        assert!(!is_float(&Ty::Real));
    }
}

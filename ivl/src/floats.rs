//! Boogie's floating-point types and literals, as far as kivl checks them.
//!
//! Boogie 2.4.1 has IEEE types `floatSeE` (`float24e8` is binary32: 24 significand bits
//! including the hidden one, 8 exponent bits), literals `0x1.8e3f24e8` (hexadecimal
//! significand, decimal exponent of 16, then the sizes), `0NaN24e8`, `0nan24e8`, `0+oo24e8`,
//! `0-oo24e8`, and types `+ - * /`, unary `-`, the comparisons and `==` on two operands of one
//! float type (test0/PrintAssoc.bpl). kivl type-checks all of that: a float type is the
//! uninterpreted [`Ty::Ctor`] named after it (so two float types with different sizes are
//! different types), and a float literal is kept as written in
//! [`ExprKind::RealLit`](crate::ast::ExprKind::RealLit), typed by its suffix.
//!
//! Verification does not interpret floats: the VC encoder reports every float literal and
//! float operation (arithmetic, comparison, equality) as `unsupported` where it occurs. Float
//! values that are only copied, havocked or passed to uninterpreted functions verify as values
//! of an uninterpreted sort, which over-approximates IEEE semantics.

use crate::ast::Name;
use crate::types::Ty;

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

#[cfg(test)]
mod tests {
    use super::*;

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

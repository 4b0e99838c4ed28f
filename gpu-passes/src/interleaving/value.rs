//! Run-time values of `.kbpl` programs: unbounded integers (an `i128` fast path that overflows
//! into `BigInt`, never wrapping), rationals, bit-vectors of any width (`u128` up to 128 bits,
//! `BigUint` beyond), Booleans, maps with a default, and values of uninterpreted types.
//!
//! Maps hold their explicitly written entries plus a [`MapDefault`] that says what every other
//! key maps to: an *arbitrary but fixed* value derived from the map's origin and the key (so an
//! uninitialised array reads the same value every time in a run, seed 000 §3's "some initial
//! store σ"), a constant, or a `lambda` body.

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rustc_hash::FxHashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use super::types::TyId;

#[derive(Clone, Debug)]
pub enum Value {
    Bool(bool),
    /// An integer that fits in `i128`.
    Int(i128),
    /// An integer outside `i128` (never holds a value that fits: see [`Value::int`]).
    BigInt(Rc<BigInt>),
    Real(Rc<BigRational>),
    /// A bit-vector of width 1..=128; bits above the width are zero.
    Bv(u32, u128),
    /// A bit-vector wider than 128 bits, reduced modulo 2^width.
    BigBv(u32, Rc<BigUint>),
    Map(Rc<MapValue>),
    /// A value of uninterpreted type number `.0`.
    Opaque(u32, u64),
}

/// A map: written entries over a default.
#[derive(Clone, Debug)]
pub struct MapValue {
    pub entries: FxHashMap<MapKey, Value>,
    pub default: MapDefault,
}

#[derive(Clone, Debug)]
pub enum MapDefault {
    /// Unwritten keys map to arbitrary values fixed by `origin` (and the run's seed).
    Arbitrary {
        origin: u64,
        elem: TyId,
    },
    Const(Value),
    Lambda(Rc<Closure>),
}

/// A lambda value: its code (a number into [`super::code::Compiled::lambdas`], so that values
/// do not depend on the compiled form, which holds values itself) and the captured values.
#[derive(Debug)]
pub struct Closure {
    pub lambda: u32,
    pub captured: Box<[Value]>,
}

/// The index of a map entry (one value per index of a multi-dimensional select `m[i, j]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MapKey {
    One(Value),
    Many(Box<[Value]>),
}

impl MapKey {
    pub fn from_vec(mut v: Vec<Value>) -> MapKey {
        if v.len() == 1 {
            MapKey::One(v.pop().unwrap())
        } else {
            MapKey::Many(v.into_boxed_slice())
        }
    }
    pub fn values(&self) -> &[Value] {
        match self {
            MapKey::One(v) => std::slice::from_ref(v),
            MapKey::Many(vs) => vs,
        }
    }
}

impl fmt::Display for MapKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.values().iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl MapValue {
    pub fn new(default: MapDefault) -> MapValue {
        MapValue { entries: FxHashMap::default(), default }
    }
}

pub fn bv_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

pub(super) fn big_mask(width: u32) -> BigUint {
    (BigUint::one() << width as usize) - BigUint::one()
}

impl Value {
    /// An integer, normalised to the `i128` fast path when it fits.
    pub fn int(v: BigInt) -> Value {
        match v.to_i128() {
            Some(i) => Value::Int(i),
            None => Value::BigInt(Rc::new(v)),
        }
    }

    pub fn real(v: BigRational) -> Value {
        Value::Real(Rc::new(v))
    }

    /// A bit-vector from an unbounded integer, taken modulo 2^width.
    pub fn bv_from_bigint(width: u32, v: &BigInt) -> Value {
        let modulus = BigInt::one() << width as usize;
        let mut r = v % &modulus;
        if r.sign() == Sign::Minus {
            r += &modulus;
        }
        Value::bv_from_biguint(width, r.to_biguint().unwrap_or_default())
    }

    /// A bit-vector from an unsigned value (reduced modulo 2^width).
    pub fn bv_from_biguint(width: u32, v: BigUint) -> Value {
        if width <= 128 {
            let v = v & BigUint::from(bv_mask(width));
            Value::Bv(width, v.to_u128().unwrap_or(0))
        } else {
            Value::BigBv(width, Rc::new(v & big_mask(width)))
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer value of an `int`.
    pub fn to_bigint(&self) -> Option<BigInt> {
        match self {
            Value::Int(i) => Some(BigInt::from(*i)),
            Value::BigInt(b) => Some((**b).clone()),
            _ => None,
        }
    }

    /// The unsigned value of a bit-vector, or the value of an integer (used for sizes, ids and
    /// fence arguments, which frontends give as `int`, `bvN` or `bool`).
    pub fn to_u64_lossy(&self) -> Option<u64> {
        match self {
            Value::Int(i) => u64::try_from(*i).ok(),
            Value::Bv(_, b) => u64::try_from(*b).ok(),
            Value::Bool(b) => Some(*b as u64),
            Value::BigBv(_, b) => b.to_u64(),
            _ => None,
        }
    }

    pub fn bv_width(&self) -> Option<u32> {
        match self {
            Value::Bv(w, _) | Value::BigBv(w, _) => Some(*w),
            _ => None,
        }
    }

    /// The bits of a bit-vector as an unbounded unsigned integer.
    pub fn bv_biguint(&self) -> Option<BigUint> {
        match self {
            Value::Bv(_, b) => Some(BigUint::from(*b)),
            Value::BigBv(_, b) => Some((**b).clone()),
            _ => None,
        }
    }

    /// A short name of the value's sort, for error messages.
    pub fn sort_name(&self) -> String {
        match self {
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::BigInt(_) => "int".into(),
            Value::Real(_) => "real".into(),
            Value::Bv(w, _) | Value::BigBv(w, _) => format!("bv{w}"),
            Value::Map(_) => "map".into(),
            Value::Opaque(..) => "uninterpreted".into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Structural equality and hashing (map keys, benign-write comparison). Boogie's `==` on maps is
// extensional and needs the evaluator for defaults: see `eval::values_equal`.
// ---------------------------------------------------------------------------------------------

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::BigInt(a), Value::BigInt(b)) => a == b,
            (Value::Real(a), Value::Real(b)) => a == b,
            (Value::Bv(w1, a), Value::Bv(w2, b)) => w1 == w2 && a == b,
            (Value::BigBv(w1, a), Value::BigBv(w2, b)) => w1 == w2 && a == b,
            (Value::Opaque(t1, a), Value::Opaque(t2, b)) => t1 == t2 && a == b,
            (Value::Map(a), Value::Map(b)) => {
                Rc::ptr_eq(a, b) || (a.default.same_as(&b.default) && a.entries == b.entries)
            }
            _ => false,
        }
    }
}

impl Eq for Value {}

impl MapDefault {
    /// Whether two defaults denote the same function (conservatively: same origin, equal
    /// constant, or the same closure).
    pub fn same_as(&self, other: &MapDefault) -> bool {
        match (self, other) {
            (MapDefault::Arbitrary { origin: a, .. }, MapDefault::Arbitrary { origin: b, .. }) => a == b,
            (MapDefault::Const(a), MapDefault::Const(b)) => a == b,
            (MapDefault::Lambda(a), MapDefault::Lambda(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Value::Bool(b) => {
                state.write_u8(0);
                b.hash(state)
            }
            Value::Int(i) => {
                state.write_u8(1);
                i.hash(state)
            }
            Value::BigInt(b) => {
                state.write_u8(2);
                b.hash(state)
            }
            Value::Real(r) => {
                state.write_u8(3);
                r.hash(state)
            }
            Value::Bv(w, b) => {
                state.write_u8(4);
                w.hash(state);
                b.hash(state)
            }
            Value::BigBv(w, b) => {
                state.write_u8(5);
                w.hash(state);
                b.hash(state)
            }
            Value::Map(m) => {
                // Order-independent: entries are a hash map.
                state.write_u8(6);
                state.write_usize(m.entries.len());
                if let MapDefault::Arbitrary { origin, .. } = m.default {
                    state.write_u64(origin);
                }
            }
            Value::Opaque(t, v) => {
                state.write_u8(7);
                t.hash(state);
                v.hash(state)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Integer and real arithmetic
// ---------------------------------------------------------------------------------------------

/// Integer operations with the `i128` fast path; results that leave `i128` become `BigInt`.
pub mod int {
    use super::*;

    fn big(a: &Value) -> BigInt {
        a.to_bigint().expect("integer operand")
    }

    pub fn add(a: &Value, b: &Value) -> Value {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            if let Some(r) = x.checked_add(*y) {
                return Value::Int(r);
            }
        }
        Value::int(big(a) + big(b))
    }
    pub fn sub(a: &Value, b: &Value) -> Value {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            if let Some(r) = x.checked_sub(*y) {
                return Value::Int(r);
            }
        }
        Value::int(big(a) - big(b))
    }
    pub fn mul(a: &Value, b: &Value) -> Value {
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            if let Some(r) = x.checked_mul(*y) {
                return Value::Int(r);
            }
        }
        Value::int(big(a) * big(b))
    }
    pub fn neg(a: &Value) -> Value {
        if let Value::Int(x) = a {
            if let Some(r) = x.checked_neg() {
                return Value::Int(r);
            }
        }
        Value::int(-big(a))
    }
    pub fn is_zero(a: &Value) -> bool {
        matches!(a, Value::Int(0))
    }
    /// SMT-LIB `div`/`mod` (Euclidean: `0 <= a mod b < |b|`); `None` when `b == 0` (the result
    /// is then an arbitrary function of `a`, chosen by the caller).
    pub fn div_mod(a: &Value, b: &Value) -> Option<(Value, Value)> {
        if is_zero(b) {
            return None;
        }
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            if let (Some(q), Some(r)) = (x.checked_div_euclid(*y), x.checked_rem_euclid(*y)) {
                return Some((Value::Int(q), Value::Int(r)));
            }
        }
        let (x, y) = (big(a), big(b));
        let m = y.abs();
        let mut r = &x % &m;
        if r.is_negative() {
            r += &m;
        }
        let q = (&x - &r) / &y;
        Some((Value::int(q), Value::int(r)))
    }
    pub fn cmp(a: &Value, b: &Value) -> std::cmp::Ordering {
        match (a, b) {
            (Value::Int(x), Value::Int(y)) => x.cmp(y),
            _ => big(a).cmp(&big(b)),
        }
    }
}

/// Real arithmetic on exact rationals.
pub mod real {
    use super::*;

    pub fn get(a: &Value) -> BigRational {
        match a {
            Value::Real(r) => (**r).clone(),
            Value::Int(i) => BigRational::from_integer(BigInt::from(*i)),
            Value::BigInt(b) => BigRational::from_integer((**b).clone()),
            _ => BigRational::zero(),
        }
    }
    /// Parses a decimal literal such as `1.5`, `2.0e3` or `1e-2`.
    pub fn parse(text: &str) -> Option<BigRational> {
        let (mant, exp) = match text.find(['e', 'E']) {
            Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
            None => (text, 0),
        };
        let (int_part, frac_part) = match mant.find('.') {
            Some(i) => (&mant[..i], &mant[i + 1..]),
            None => (mant, ""),
        };
        let digits: String = format!("{int_part}{frac_part}");
        let n: BigInt = if digits.is_empty() { BigInt::zero() } else { digits.parse().ok()? };
        let scale = exp - frac_part.len() as i64;
        let ten = BigInt::from(10);
        let p = num_traits::pow(ten, scale.unsigned_abs() as usize);
        Some(if scale >= 0 { BigRational::from_integer(n * p) } else { BigRational::new(n, p) })
    }
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::BigInt(b) => write!(f, "{b}"),
            Value::Real(r) => {
                if r.is_integer() {
                    write!(f, "{}.0", r.numer())
                } else {
                    write!(f, "{}/{}", r.numer(), r.denom())
                }
            }
            Value::Bv(w, b) => write!(f, "{b}bv{w}"),
            Value::BigBv(w, b) => write!(f, "{b}bv{w}"),
            Value::Opaque(t, v) => write!(f, "T{t}!{v}"),
            Value::Map(m) => {
                let mut entries: Vec<String> = m.entries.iter().map(|(k, v)| format!("{k} := {v}")).collect();
                entries.sort();
                write!(f, "[{}", entries.join(", "))?;
                match &m.default {
                    MapDefault::Const(v) => {
                        write!(f, "{}else {v}]", if entries.is_empty() { "" } else { ", " })
                    }
                    _ => write!(f, "{}...]", if entries.is_empty() { "" } else { ", " }),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_overflow_into_bigint_and_back() {
        let max = Value::Int(i128::MAX);
        let s = int::add(&max, &Value::Int(1));
        assert!(matches!(s, Value::BigInt(_)));
        assert_eq!(int::sub(&s, &Value::Int(1)), max);
        assert_eq!(int::div_mod(&Value::Int(-7), &Value::Int(2)), Some((Value::Int(-4), Value::Int(1))));
        assert_eq!(int::div_mod(&Value::Int(-7), &Value::Int(-2)), Some((Value::Int(4), Value::Int(1))));
        assert_eq!(int::div_mod(&Value::Int(7), &Value::Int(0)), None);
        let big = int::mul(&max, &Value::Int(-3));
        let (q, r) = int::div_mod(&big, &Value::Int(-7)).unwrap();
        assert_eq!(int::add(&int::mul(&q, &Value::Int(-7)), &r), big);
    }

    #[test]
    fn real_literals() {
        assert_eq!(real::parse("1.5"), Some(BigRational::new(3.into(), 2.into())));
        assert_eq!(real::parse("2.0e3"), Some(BigRational::from_integer(2000.into())));
        assert_eq!(real::parse("1e-2"), Some(BigRational::new(1.into(), 100.into())));
    }
}

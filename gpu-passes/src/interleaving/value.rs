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

use super::compile::{Closure, TyId};

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

fn big_mask(width: u32) -> BigUint {
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
// Bit-vector operations (the `{:bvbuiltin}` operators of SMT-LIB's QF_BV)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    UDiv,
    URem,
    SDiv,
    SRem,
    SMod,
    Neg,
    And,
    Or,
    Xor,
    Not,
    Nand,
    Nor,
    Xnor,
    Shl,
    LShr,
    AShr,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
    Comp,
    Concat,
    ZeroExt(u32),
    SignExt(u32),
    Extract(u32, u32),
    RotL(u32),
    RotR(u32),
    Repeat(u32),
}

impl BvOp {
    /// The operator an SMT-LIB name denotes (`"bvadd"`, `"zero_extend 16"`, `"extract 7 0"`).
    pub fn from_smt(name: &str) -> Option<BvOp> {
        let mut words = name.split_whitespace();
        let head = words.next()?;
        let nums: Vec<u32> = words.map(|w| w.parse().ok()).collect::<Option<_>>()?;
        let op = match (head, nums.as_slice()) {
            ("bvadd", []) => BvOp::Add,
            ("bvsub", []) => BvOp::Sub,
            ("bvmul", []) => BvOp::Mul,
            ("bvudiv", []) => BvOp::UDiv,
            ("bvurem", []) => BvOp::URem,
            ("bvsdiv", []) => BvOp::SDiv,
            ("bvsrem", []) => BvOp::SRem,
            ("bvsmod", []) => BvOp::SMod,
            ("bvneg", []) => BvOp::Neg,
            ("bvand", []) => BvOp::And,
            ("bvor", []) => BvOp::Or,
            ("bvxor", []) => BvOp::Xor,
            ("bvnot", []) => BvOp::Not,
            ("bvnand", []) => BvOp::Nand,
            ("bvnor", []) => BvOp::Nor,
            ("bvxnor", []) => BvOp::Xnor,
            ("bvshl", []) => BvOp::Shl,
            ("bvlshr", []) => BvOp::LShr,
            ("bvashr", []) => BvOp::AShr,
            ("bvult", []) => BvOp::Ult,
            ("bvule", []) => BvOp::Ule,
            ("bvugt", []) => BvOp::Ugt,
            ("bvuge", []) => BvOp::Uge,
            ("bvslt", []) => BvOp::Slt,
            ("bvsle", []) => BvOp::Sle,
            ("bvsgt", []) => BvOp::Sgt,
            ("bvsge", []) => BvOp::Sge,
            ("bvcomp", []) => BvOp::Comp,
            ("concat", []) => BvOp::Concat,
            ("zero_extend", [n]) => BvOp::ZeroExt(*n),
            ("sign_extend", [n]) => BvOp::SignExt(*n),
            ("extract", [hi, lo]) if hi >= lo => BvOp::Extract(*hi + 1, *lo),
            ("rotate_left", [n]) => BvOp::RotL(*n),
            ("rotate_right", [n]) => BvOp::RotR(*n),
            ("repeat", [n]) if *n >= 1 => BvOp::Repeat(*n),
            _ => return None,
        };
        Some(op)
    }

    pub fn arity(self) -> usize {
        match self {
            BvOp::Neg
            | BvOp::Not
            | BvOp::ZeroExt(_)
            | BvOp::SignExt(_)
            | BvOp::Extract(..)
            | BvOp::RotL(_)
            | BvOp::RotR(_)
            | BvOp::Repeat(_) => 1,
            _ => 2,
        }
    }
}

/// Applies a bit-vector operator. `None` when the operands are not bit-vectors of the widths
/// the operator needs (the type checker rules that out for checked programs).
pub fn bv_apply(op: BvOp, args: &[Value]) -> Option<Value> {
    match args {
        [Value::Bv(w, a)] => bv_unary_small(op, *w, *a).or_else(|| bv_apply_big(op, args)),
        [Value::Bv(w1, a), Value::Bv(w2, b)] if w1 == w2 || op == BvOp::Concat => {
            bv_binary_small(op, *w1, *a, *w2, *b).or_else(|| bv_apply_big(op, args))
        }
        _ => bv_apply_big(op, args),
    }
}

fn sign_bit(w: u32) -> u128 {
    1u128 << (w - 1)
}

fn bool_v(b: bool) -> Value {
    Value::Bool(b)
}

fn bv_unary_small(op: BvOp, w: u32, a: u128) -> Option<Value> {
    let m = bv_mask(w);
    let r = match op {
        BvOp::Neg => Value::Bv(w, a.wrapping_neg() & m),
        BvOp::Not => Value::Bv(w, !a & m),
        BvOp::ZeroExt(n) if w + n <= 128 => Value::Bv(w + n, a),
        BvOp::SignExt(n) if w + n <= 128 => {
            let ext = if a & sign_bit(w) != 0 { bv_mask(w + n) & !m } else { 0 };
            Value::Bv(w + n, a | ext)
        }
        BvOp::Extract(hi, lo) if hi <= w && lo < hi => Value::Bv(hi - lo, (a >> lo) & bv_mask(hi - lo)),
        BvOp::RotL(n) => {
            let n = n % w;
            Value::Bv(w, if n == 0 { a } else { ((a << n) | (a >> (w - n))) & m })
        }
        BvOp::RotR(n) => {
            let n = n % w;
            Value::Bv(w, if n == 0 { a } else { ((a >> n) | (a << (w - n))) & m })
        }
        _ => return None,
    };
    Some(r)
}

fn udiv(w: u32, a: u128, b: u128) -> u128 {
    a.checked_div(b).unwrap_or(bv_mask(w))
}

fn urem(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        a % b
    }
}

fn bv_binary_small(op: BvOp, w: u32, a: u128, w2: u32, b: u128) -> Option<Value> {
    let m = bv_mask(w);
    let neg = |x: u128| x.wrapping_neg() & m;
    let sa = a & sign_bit(w) != 0;
    let sb = b & sign_bit(w) != 0;
    // Signed order by flipping the sign bit.
    let flip = |x: u128| x ^ sign_bit(w);
    let bv = |x: u128| Value::Bv(w, x & m);
    let r = match op {
        BvOp::Add => bv(a.wrapping_add(b)),
        BvOp::Sub => bv(a.wrapping_sub(b)),
        BvOp::Mul => bv(a.wrapping_mul(b)),
        BvOp::UDiv => bv(udiv(w, a, b)),
        BvOp::URem => bv(urem(a, b)),
        BvOp::SDiv => bv(match (sa, sb) {
            (false, false) => udiv(w, a, b),
            (true, false) => neg(udiv(w, neg(a), b)),
            (false, true) => neg(udiv(w, a, neg(b))),
            (true, true) => udiv(w, neg(a), neg(b)),
        }),
        BvOp::SRem => bv(match (sa, sb) {
            (false, false) => urem(a, b),
            (true, false) => neg(urem(neg(a), b)),
            (false, true) => urem(a, neg(b)),
            (true, true) => neg(urem(neg(a), neg(b))),
        }),
        BvOp::SMod => {
            let abs_a = if sa { neg(a) } else { a };
            let abs_b = if sb { neg(b) } else { b };
            let u = urem(abs_a, abs_b);
            bv(if u == 0 {
                u
            } else {
                match (sa, sb) {
                    (false, false) => u,
                    (true, false) => neg(u).wrapping_add(b),
                    (false, true) => u.wrapping_add(b),
                    (true, true) => neg(u),
                }
            })
        }
        BvOp::And => bv(a & b),
        BvOp::Or => bv(a | b),
        BvOp::Xor => bv(a ^ b),
        BvOp::Nand => bv(!(a & b)),
        BvOp::Nor => bv(!(a | b)),
        BvOp::Xnor => bv(!(a ^ b)),
        BvOp::Shl => bv(if b >= w as u128 { 0 } else { a << b }),
        BvOp::LShr => bv(if b >= w as u128 { 0 } else { a >> b }),
        BvOp::AShr => {
            if b >= w as u128 {
                bv(if sa { m } else { 0 })
            } else {
                let shifted = a >> b;
                let fill = if sa { m & !(m >> b) } else { 0 };
                bv(shifted | fill)
            }
        }
        BvOp::Ult => bool_v(a < b),
        BvOp::Ule => bool_v(a <= b),
        BvOp::Ugt => bool_v(a > b),
        BvOp::Uge => bool_v(a >= b),
        BvOp::Slt => bool_v(flip(a) < flip(b)),
        BvOp::Sle => bool_v(flip(a) <= flip(b)),
        BvOp::Sgt => bool_v(flip(a) > flip(b)),
        BvOp::Sge => bool_v(flip(a) >= flip(b)),
        BvOp::Comp => Value::Bv(1, (a == b) as u128),
        BvOp::Concat if w + w2 <= 128 => Value::Bv(w + w2, (a << w2) | b),
        _ => return None,
    };
    Some(r)
}

/// The general path: any width, via unbounded integers.
fn bv_apply_big(op: BvOp, args: &[Value]) -> Option<Value> {
    let w = args.first()?.bv_width()?;
    let a = args[0].bv_biguint()?;
    let modulus = BigUint::one() << w as usize;
    let mask = big_mask(w);
    let signed = |x: &BigUint| -> BigInt {
        if x.bit(w as u64 - 1) {
            BigInt::from(x.clone()) - BigInt::from(modulus.clone())
        } else {
            BigInt::from(x.clone())
        }
    };
    let from_int = |x: BigInt| Value::bv_from_bigint(w, &x);
    let from_uint = |x: BigUint| Value::bv_from_biguint(w, x);
    let neg = |x: &BigUint| (&modulus - (x % &modulus)) % &modulus;
    if op.arity() == 1 {
        if args.len() != 1 {
            return None;
        }
        return Some(match op {
            BvOp::Neg => from_uint(neg(&a)),
            BvOp::Not => from_uint(&mask ^ &a),
            BvOp::ZeroExt(n) => Value::bv_from_biguint(w + n, a),
            BvOp::SignExt(n) => Value::bv_from_bigint(w + n, &signed(&a)),
            BvOp::Extract(hi, lo) if hi <= w && lo < hi => Value::bv_from_biguint(hi - lo, a >> lo as usize),
            BvOp::RotL(n) | BvOp::RotR(n) => {
                let n = n % w;
                let n = if matches!(op, BvOp::RotL(_)) { n } else { (w - n) % w };
                from_uint(((&a << n as usize) | (&a >> (w - n) as usize)) & &mask)
            }
            BvOp::Repeat(n) => {
                let mut r = BigUint::zero();
                for _ in 0..n {
                    r = (r << w as usize) | &a;
                }
                Value::bv_from_biguint(w * n, r)
            }
            _ => return None,
        });
    }
    let [_, bval] = args else { return None };
    let w2 = bval.bv_width()?;
    let b = bval.bv_biguint()?;
    if op == BvOp::Concat {
        return Some(Value::bv_from_biguint(w + w2, (a << w2 as usize) | b));
    }
    if w != w2 {
        return None;
    }
    let (sa, sb) = (signed(&a), signed(&b));
    let udiv = |x: &BigUint, y: &BigUint| if y.is_zero() { mask.clone() } else { x / y };
    let urem = |x: &BigUint, y: &BigUint| if y.is_zero() { x.clone() } else { x % y };
    let shift = b.to_usize().filter(|s| *s < w as usize);
    Some(match op {
        BvOp::Add => from_uint(a + b),
        BvOp::Sub => from_uint(a + neg(&b)),
        BvOp::Mul => from_uint(a * b),
        BvOp::UDiv => from_uint(udiv(&a, &b)),
        BvOp::URem => from_uint(urem(&a, &b)),
        BvOp::SDiv => {
            if sb.is_zero() {
                from_uint(if sa.is_negative() { BigUint::one() } else { mask.clone() })
            } else {
                // Truncating division, as bvsdiv.
                from_int(&sa / &sb)
            }
        }
        BvOp::SRem => {
            if sb.is_zero() {
                from_uint(a)
            } else {
                from_int(&sa % &sb)
            }
        }
        BvOp::SMod => {
            if sb.is_zero() {
                from_uint(a)
            } else {
                let r = &sa % &sb;
                if !r.is_zero() && (r.is_negative() != sb.is_negative()) {
                    from_int(r + &sb)
                } else {
                    from_int(r)
                }
            }
        }
        BvOp::And => from_uint(a & b),
        BvOp::Or => from_uint(a | b),
        BvOp::Xor => from_uint(a ^ b),
        BvOp::Nand => from_uint(&mask ^ (a & b)),
        BvOp::Nor => from_uint(&mask ^ (a | b)),
        BvOp::Xnor => from_uint(&mask ^ (a ^ b)),
        BvOp::Shl => from_uint(shift.map_or(BigUint::zero(), |s| a << s)),
        BvOp::LShr => from_uint(shift.map_or(BigUint::zero(), |s| a >> s)),
        BvOp::AShr => match shift {
            Some(s) => from_int(sa >> s),
            None => from_uint(if sa.is_negative() { mask.clone() } else { BigUint::zero() }),
        },
        BvOp::Ult => bool_v(a < b),
        BvOp::Ule => bool_v(a <= b),
        BvOp::Ugt => bool_v(a > b),
        BvOp::Uge => bool_v(a >= b),
        BvOp::Slt => bool_v(sa < sb),
        BvOp::Sle => bool_v(sa <= sb),
        BvOp::Sgt => bool_v(sa > sb),
        BvOp::Sge => bool_v(sa >= sb),
        BvOp::Comp => Value::Bv(1, (a == b) as u128),
        _ => return None,
    })
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

    fn bv(w: u32, v: u128) -> Value {
        Value::Bv(w, v)
    }

    #[test]
    fn small_and_big_paths_agree() {
        let ops = [
            BvOp::Add,
            BvOp::Sub,
            BvOp::Mul,
            BvOp::UDiv,
            BvOp::URem,
            BvOp::SDiv,
            BvOp::SRem,
            BvOp::SMod,
            BvOp::Shl,
            BvOp::LShr,
            BvOp::AShr,
            BvOp::Slt,
            BvOp::Sge,
            BvOp::Ult,
        ];
        let samples = [0u128, 1, 2, 3, 5, 7, 8, 9, 0x7f, 0x80, 0xfe, 0xff];
        for op in ops {
            for &a in &samples {
                for &b in &samples {
                    let small = bv_binary_small(op, 8, a, 8, b).unwrap();
                    let big = bv_apply_big(op, &[bv(8, a), bv(8, b)]).unwrap();
                    assert_eq!(small, big, "{op:?} {a} {b}");
                }
            }
        }
        for op in [BvOp::Neg, BvOp::Not, BvOp::SignExt(4), BvOp::ZeroExt(4), BvOp::Extract(6, 2), BvOp::RotL(3)] {
            for &a in &samples {
                assert_eq!(bv_unary_small(op, 8, a).unwrap(), bv_apply_big(op, &[bv(8, a)]).unwrap(), "{op:?} {a}");
            }
        }
    }

    #[test]
    fn signed_division_follows_smtlib() {
        // -7 / 2 = -3 (truncating), -7 rem 2 = -1, -7 smod 2 = 1 (sign of divisor).
        let m7 = 256 - 7;
        assert_eq!(bv_apply(BvOp::SDiv, &[bv(8, m7), bv(8, 2)]), Some(bv(8, 256 - 3)));
        assert_eq!(bv_apply(BvOp::SRem, &[bv(8, m7), bv(8, 2)]), Some(bv(8, 255)));
        assert_eq!(bv_apply(BvOp::SMod, &[bv(8, m7), bv(8, 2)]), Some(bv(8, 1)));
        assert_eq!(bv_apply(BvOp::UDiv, &[bv(8, 5), bv(8, 0)]), Some(bv(8, 255)));
        assert_eq!(bv_apply(BvOp::URem, &[bv(8, 5), bv(8, 0)]), Some(bv(8, 5)));
        assert_eq!(bv_apply(BvOp::AShr, &[bv(8, 0x80), bv(8, 3)]), Some(bv(8, 0xf0)));
    }

    #[test]
    fn wide_bitvectors() {
        let a = Value::bv_from_biguint(200, BigUint::one() << 199usize);
        let b = Value::bv_from_biguint(200, BigUint::one() << 199usize);
        assert_eq!(bv_apply(BvOp::Add, &[a.clone(), b]), Some(Value::bv_from_biguint(200, BigUint::zero())));
        assert_eq!(bv_apply(BvOp::Extract(200, 199), std::slice::from_ref(&a)), Some(bv(1, 1)));
        let c = bv_apply(BvOp::Concat, &[bv(100, 1), bv(100, 0)]).unwrap();
        assert_eq!(c, Value::bv_from_biguint(200, BigUint::one() << 100usize));
        assert_eq!(bv_apply(BvOp::Concat, &[bv(4, 0xa), bv(4, 0x5)]), Some(bv(8, 0xa5)));
    }

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

//! Bit-vector operations: the `{:bvbuiltin}` operators of SMT-LIB's QF_BV on run-time values, a
//! `u128` fast path for widths up to 128 and a general path over unbounded integers.

use super::value::{big_mask, bv_mask, Value};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};

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
    let ring = Ring::new(w);
    if op.arity() == 1 {
        if args.len() != 1 {
            return None;
        }
        return bv_unary_big(op, &ring, a);
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
    bv_binary_big(op, &ring, a, b)
}

/// Arithmetic modulo 2^w on unbounded integers.
struct Ring {
    w: u32,
    modulus: BigUint,
    mask: BigUint,
}

impl Ring {
    fn new(w: u32) -> Ring {
        Ring { w, modulus: BigUint::one() << w as usize, mask: big_mask(w) }
    }
    /// The two's-complement value of `x`.
    fn signed(&self, x: &BigUint) -> BigInt {
        if x.bit(self.w as u64 - 1) {
            BigInt::from(x.clone()) - BigInt::from(self.modulus.clone())
        } else {
            BigInt::from(x.clone())
        }
    }
    fn neg(&self, x: &BigUint) -> BigUint {
        (&self.modulus - (x % &self.modulus)) % &self.modulus
    }
    fn bv_of_int(&self, x: BigInt) -> Value {
        Value::bv_from_bigint(self.w, &x)
    }
    fn bv_of_uint(&self, x: BigUint) -> Value {
        Value::bv_from_biguint(self.w, x)
    }
}

fn bv_unary_big(op: BvOp, r: &Ring, a: BigUint) -> Option<Value> {
    let w = r.w;
    Some(match op {
        BvOp::Neg => r.bv_of_uint(r.neg(&a)),
        BvOp::Not => r.bv_of_uint(&r.mask ^ &a),
        BvOp::ZeroExt(n) => Value::bv_from_biguint(w + n, a),
        BvOp::SignExt(n) => Value::bv_from_bigint(w + n, &r.signed(&a)),
        BvOp::Extract(hi, lo) if hi <= w && lo < hi => Value::bv_from_biguint(hi - lo, a >> lo as usize),
        BvOp::RotL(n) | BvOp::RotR(n) => {
            let n = n % w;
            let n = if matches!(op, BvOp::RotL(_)) { n } else { (w - n) % w };
            r.bv_of_uint(((&a << n as usize) | (&a >> (w - n) as usize)) & &r.mask)
        }
        BvOp::Repeat(n) => {
            let mut v = BigUint::zero();
            for _ in 0..n {
                v = (v << w as usize) | &a;
            }
            Value::bv_from_biguint(w * n, v)
        }
        _ => return None,
    })
}

fn bv_binary_big(op: BvOp, r: &Ring, a: BigUint, b: BigUint) -> Option<Value> {
    let mask = &r.mask;
    let (sa, sb) = (r.signed(&a), r.signed(&b));
    let udiv = |x: &BigUint, y: &BigUint| if y.is_zero() { mask.clone() } else { x / y };
    let urem = |x: &BigUint, y: &BigUint| if y.is_zero() { x.clone() } else { x % y };
    let shift = b.to_usize().filter(|s| *s < r.w as usize);
    Some(match op {
        BvOp::Add => r.bv_of_uint(a + b),
        BvOp::Sub => r.bv_of_uint(a + r.neg(&b)),
        BvOp::Mul => r.bv_of_uint(a * b),
        BvOp::UDiv => r.bv_of_uint(udiv(&a, &b)),
        BvOp::URem => r.bv_of_uint(urem(&a, &b)),
        BvOp::SDiv => {
            if sb.is_zero() {
                r.bv_of_uint(if sa.is_negative() { BigUint::one() } else { mask.clone() })
            } else {
                // Truncating division, as bvsdiv.
                r.bv_of_int(&sa / &sb)
            }
        }
        BvOp::SRem => {
            if sb.is_zero() {
                r.bv_of_uint(a)
            } else {
                r.bv_of_int(&sa % &sb)
            }
        }
        BvOp::SMod => {
            if sb.is_zero() {
                r.bv_of_uint(a)
            } else {
                let m = &sa % &sb;
                if !m.is_zero() && (m.is_negative() != sb.is_negative()) {
                    r.bv_of_int(m + &sb)
                } else {
                    r.bv_of_int(m)
                }
            }
        }
        BvOp::And => r.bv_of_uint(a & b),
        BvOp::Or => r.bv_of_uint(a | b),
        BvOp::Xor => r.bv_of_uint(a ^ b),
        BvOp::Nand => r.bv_of_uint(mask ^ (a & b)),
        BvOp::Nor => r.bv_of_uint(mask ^ (a | b)),
        BvOp::Xnor => r.bv_of_uint(mask ^ (a ^ b)),
        BvOp::Shl => r.bv_of_uint(shift.map_or(BigUint::zero(), |s| a << s)),
        BvOp::LShr => r.bv_of_uint(shift.map_or(BigUint::zero(), |s| a >> s)),
        BvOp::AShr => match shift {
            Some(s) => r.bv_of_int(sa >> s),
            None => r.bv_of_uint(if sa.is_negative() { mask.clone() } else { BigUint::zero() }),
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
}

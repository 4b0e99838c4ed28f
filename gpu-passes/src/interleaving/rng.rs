//! Seeded randomness: the scheduler's choices, `havoc`, initial memory, and the "arbitrary but
//! fixed" parts of a run (unwritten map entries, uninterpreted functions, division by zero).
//!
//! Everything a run does is a function of its seed, so `--seed S --runs 1` replays run S.
//! Fixed-but-arbitrary values are not drawn from the stream but *derived* by hashing (seed,
//! origin, key), so reading them never changes the stream and always gives the same answer.

use super::types::{RTy, TyId};
use super::value::{bv_mask, MapDefault, MapValue, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// SplitMix64: tiny, fast, and good enough for schedules and test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        finalize(self.0)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Mixes two words into one (order matters).
pub fn mix(a: u64, b: u64) -> u64 {
    finalize(a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ finalize(b))
}

/// A deterministic hash of anything hashable (FxHash, then finalised).
pub fn hash_of<T: Hash + ?Sized>(x: &T) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    x.hash(&mut h);
    finalize(h.finish())
}

/// Integers are drawn mostly small (so that guards like `n < 100` hold often and indices
/// collide), sometimes large, occasionally huge.
fn gen_int(rng: &mut Rng) -> Value {
    let r = rng.below(100);
    let sign = |rng: &mut Rng| if rng.coin() { 1 } else { -1 };
    let v: i128 = if r < 50 {
        rng.below(8) as i128
    } else if r < 65 {
        -(rng.below(8) as i128) - 1
    } else if r < 90 {
        rng.below(300) as i128 - 40
    } else if r < 97 {
        rng.below(1 << 16) as i128 * sign(rng)
    } else {
        (rng.next_u64() >> 24) as i128 * sign(rng)
    };
    Value::Int(v)
}

/// Bit-vectors: small values, boundary values (all ones, the sign bit and its neighbours), or
/// uniform.
fn gen_bv(w: u32, rng: &mut Rng) -> Value {
    let m = bv_mask(w);
    let r = rng.below(100);
    if w > 128 {
        let v = if r < 50 {
            num_bigint::BigUint::from(rng.below(8))
        } else {
            num_bigint::BigUint::from_slice(&(0..w.div_ceil(32)).map(|_| rng.next_u64() as u32).collect::<Vec<_>>())
        };
        return Value::bv_from_biguint(w, v);
    }
    let sign = 1u128 << (w - 1);
    let v = if r < 45 {
        rng.below(8) as u128
    } else if r < 60 {
        match rng.below(4) {
            0 => m,
            1 => sign,
            2 => sign.wrapping_sub(1),
            _ => m.wrapping_sub(rng.below(4) as u128),
        }
    } else if r < 75 {
        rng.below(1024) as u128
    } else {
        (rng.next_u64() as u128) | ((rng.next_u64() as u128) << 64)
    };
    Value::Bv(w, v & m)
}

/// An arbitrary value of a type.
pub fn gen_value(types: &[RTy], ty: TyId, rng: &mut Rng) -> Value {
    match &types[ty as usize] {
        RTy::Bool => Value::Bool(rng.coin()),
        RTy::Int => gen_int(rng),
        RTy::Real => {
            let n = BigInt::from(rng.below(64) as i64 - 16);
            let d = BigInt::from(rng.below(4) as i64 + 1);
            Value::real(BigRational::new(n, d))
        }
        RTy::Bv(w) => gen_bv(*w, rng),
        RTy::Map { result, .. } => {
            Value::Map(Rc::new(MapValue::new(MapDefault::Arbitrary { origin: rng.next_u64(), elem: *result })))
        }
        // Values of an uninterpreted type come from a small pool so that equalities happen.
        RTy::Opaque(t) => Value::Opaque(*t, rng.below(6)),
    }
}

/// The fixed-but-arbitrary value at `key` of something identified by `origin`.
pub fn derived_value<K: Hash + ?Sized>(types: &[RTy], ty: TyId, origin: u64, key: &K) -> Value {
    let mut rng = Rng::new(mix(origin, hash_of(key)));
    gen_value(types, ty, &mut rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_below_is_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            let x = a.below(13);
            assert_eq!(x, b.below(13));
            assert!(x < 13);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn generated_values_have_their_type() {
        let types = vec![RTy::Bv(5), RTy::Bv(200), RTy::Int, RTy::Map { args: vec![2], result: 0 }];
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            assert!(matches!(gen_value(&types, 0, &mut rng), Value::Bv(5, v) if v < 32));
            assert!(matches!(gen_value(&types, 1, &mut rng), Value::BigBv(200, _)));
            assert!(matches!(gen_value(&types, 2, &mut rng), Value::Int(_)));
            assert!(matches!(gen_value(&types, 3, &mut rng), Value::Map(_)));
        }
        assert_eq!(derived_value(&types, 2, 5, &Value::Int(3)), derived_value(&types, 2, 5, &Value::Int(3)));
    }
}

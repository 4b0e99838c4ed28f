//! The concrete meaning of the atomic operations (docs/kbpl.md §3.4) for `kivl run`: the value an
//! atomic writes back, given the element's old value and the arguments. The scheduler
//! (`super::machine`) reads, computes and writes in one step, so no other thread runs in between:
//! that is what makes the operation atomic. Follows OpenCL 1.2 §6.12.11 and CUDA's
//! `atomic*` functions: `min`/`max` are signed on bit-vectors, `umin`/`umax` unsigned,
//! `inc_wrap`/`dec_wrap` CUDA's `atomicInc`/`atomicDec`, `fadd` IEEE addition (round to nearest).

use super::bitvec::{bv_apply, BvOp};
use super::value::{int, Value};
use ivl::ast::AtomicOp;

fn bv(op: BvOp, a: &Value, b: &Value) -> Option<Value> {
    bv_apply(op, &[a.clone(), b.clone()])
}

fn holds(v: Option<Value>) -> Option<bool> {
    v?.as_bool()
}

/// The new value of the element, or `None` for operands of the wrong sort.
pub fn apply(op: AtomicOp, old: &Value, args: &[Value]) -> Option<Value> {
    let arg = |k: usize| args.get(k);
    if let Value::Bv(w, _) | Value::BigBv(w, _) = old {
        let w = *w;
        let one = Value::Bv(w, 1);
        let zero = Value::Bv(w, 0);
        let pick = |op: BvOp, a: &Value| -> Option<Value> {
            Some(if holds(bv(op, old, a))? { old.clone() } else { a.clone() })
        };
        return match op {
            AtomicOp::Add => bv(BvOp::Add, old, arg(0)?),
            AtomicOp::Sub => bv(BvOp::Sub, old, arg(0)?),
            AtomicOp::Xchg => arg(0).cloned(),
            AtomicOp::CmpXchg => Some(if old == arg(0)? { arg(1)?.clone() } else { old.clone() }),
            AtomicOp::Min => pick(BvOp::Slt, arg(0)?),
            AtomicOp::Max => pick(BvOp::Sgt, arg(0)?),
            AtomicOp::UMin => pick(BvOp::Ult, arg(0)?),
            AtomicOp::UMax => pick(BvOp::Ugt, arg(0)?),
            AtomicOp::And => bv(BvOp::And, old, arg(0)?),
            AtomicOp::Or => bv(BvOp::Or, old, arg(0)?),
            AtomicOp::Xor => bv(BvOp::Xor, old, arg(0)?),
            AtomicOp::Inc => bv(BvOp::Add, old, &one),
            AtomicOp::Dec => bv(BvOp::Sub, old, &one),
            AtomicOp::IncWrap => {
                if holds(bv(BvOp::Uge, old, arg(0)?))? {
                    Some(zero)
                } else {
                    bv(BvOp::Add, old, &one)
                }
            }
            AtomicOp::DecWrap => {
                if *old == zero || holds(bv(BvOp::Ugt, old, arg(0)?))? {
                    arg(0).cloned()
                } else {
                    bv(BvOp::Sub, old, &one)
                }
            }
            AtomicOp::FAdd => fadd(w, old, arg(0)?),
        };
    }
    let one = Value::Int(1);
    let lt = |a: &Value, b: &Value| int::cmp(a, b) == std::cmp::Ordering::Less;
    match op {
        AtomicOp::Add => Some(int::add(old, arg(0)?)),
        AtomicOp::Sub => Some(int::sub(old, arg(0)?)),
        AtomicOp::Xchg => arg(0).cloned(),
        AtomicOp::CmpXchg => Some(if old == arg(0)? { arg(1)?.clone() } else { old.clone() }),
        AtomicOp::Min => Some(if lt(arg(0)?, old) { arg(0)?.clone() } else { old.clone() }),
        AtomicOp::Max => Some(if lt(old, arg(0)?) { arg(0)?.clone() } else { old.clone() }),
        AtomicOp::Inc => Some(int::add(old, &one)),
        AtomicOp::Dec => Some(int::sub(old, &one)),
        _ => None,
    }
}

/// IEEE addition of two bit patterns of width 32 or 64.
fn fadd(w: u32, a: &Value, b: &Value) -> Option<Value> {
    let (Value::Bv(_, x), Value::Bv(_, y)) = (a, b) else { return None };
    match w {
        32 => Some(Value::Bv(32, (f32::from_bits(*x as u32) + f32::from_bits(*y as u32)).to_bits() as u128)),
        64 => Some(Value::Bv(64, (f64::from_bits(*x as u64) + f64::from_bits(*y as u64)).to_bits() as u128)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: u128) -> Value {
        Value::Bv(32, v)
    }

    #[test]
    fn bit_vector_operations() {
        assert_eq!(apply(AtomicOp::Add, &b(0xffff_ffff), &[b(2)]), Some(b(1)));
        assert_eq!(apply(AtomicOp::Min, &b(0xffff_ffff), &[b(3)]), Some(b(0xffff_ffff)));
        assert_eq!(apply(AtomicOp::UMin, &b(0xffff_ffff), &[b(3)]), Some(b(3)));
        assert_eq!(apply(AtomicOp::Max, &b(0xffff_ffff), &[b(3)]), Some(b(3)));
        assert_eq!(apply(AtomicOp::CmpXchg, &b(5), &[b(5), b(9)]), Some(b(9)));
        assert_eq!(apply(AtomicOp::CmpXchg, &b(4), &[b(5), b(9)]), Some(b(4)));
        assert_eq!(apply(AtomicOp::IncWrap, &b(7), &[b(7)]), Some(b(0)));
        assert_eq!(apply(AtomicOp::IncWrap, &b(6), &[b(7)]), Some(b(7)));
        assert_eq!(apply(AtomicOp::DecWrap, &b(0), &[b(7)]), Some(b(7)));
        assert_eq!(apply(AtomicOp::DecWrap, &b(9), &[b(7)]), Some(b(7)));
        assert_eq!(apply(AtomicOp::DecWrap, &b(3), &[b(7)]), Some(b(2)));
        assert_eq!(
            apply(AtomicOp::FAdd, &b(1.5f32.to_bits() as u128), &[b(2.25f32.to_bits() as u128)]),
            Some(b(3.75f32.to_bits() as u128))
        );
    }

    #[test]
    fn integer_operations() {
        assert_eq!(apply(AtomicOp::Inc, &Value::Int(4), &[]), Some(Value::Int(5)));
        assert_eq!(apply(AtomicOp::Min, &Value::Int(4), &[Value::Int(-2)]), Some(Value::Int(-2)));
        assert_eq!(apply(AtomicOp::And, &Value::Int(4), &[Value::Int(1)]), None);
    }
}

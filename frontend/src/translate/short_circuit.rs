//! `&&` and `||` inside a specification (`__requires(a <= 100 && b <= 100)`, issue 41). clang
//! compiles them to branches that meet in a `phi` of `i1`: every incoming value but one is the
//! constant that decided the result early (`false` for `&&`, `true` for `||`), each from a
//! block whose conditional branch jumps to the `phi` on that outcome, and the last one is the
//! right-hand operand. Folded back, the clause is one expression, `c1 && … && v` or
//! `c1 || … || v`, each condition read in the block that tests it; a `phi` of another shape
//! is not folded (the clause then names its variable, as before).
//!
//! The fold is exact only if the right-hand operand's block is reached through every test's
//! continuing edge: then arriving from it means every condition continued, and arriving on a
//! deciding edge means the condition that decided (which is among the conjuncts or disjuncts)
//! gave the early value. [`only_through`] checks that on the function's control flow.

use super::frame::{successors, Frame};
use super::values::{bool_ex, int_constant, Ex, Ty, Val};
use super::Tr;
use crate::Loc;
use llvm_ir::instruction::Phi;
use llvm_ir::terminator::Terminator;
use llvm_ir::types::Type;
use llvm_ir::{Name, Operand};
use std::collections::HashMap;

impl<'m> Tr<'m> {
    /// The value of a short-circuit `phi` as one boolean expression, if it is one.
    pub(super) fn short_circuit(&mut self, f: &Frame<'m>, p: &Phi, spec: usize, loc: Option<Loc>) -> Option<Val> {
        if !matches!(p.to_type.as_ref(), Type::IntegerType { bits: 1 }) || p.incoming_values.len() < 2 {
            return None;
        }
        let here = &f.func.basic_blocks[spec].name;
        let index = |n: &Name| f.func.basic_blocks.iter().position(|b| b.name == *n);
        let decided: Vec<(u64, &Name)> =
            p.incoming_values.iter().filter_map(|(v, b)| Some((int_constant(v)?, b))).collect();
        let rest: Vec<&(Operand, Name)> = p.incoming_values.iter().filter(|(v, _)| int_constant(v).is_none()).collect();
        let ([(value, from)], Some(&(early, _))) = (rest.as_slice(), decided.first()) else { return None };
        if decided.iter().any(|(k, _)| *k != early) {
            return None;
        }
        let and = early == 0;
        let from_index = index(from)?;
        let mut parts = Vec::new();
        for (_, b) in &decided {
            let bi = index(b)?;
            let Terminator::CondBr(br) = &f.func.basic_blocks[bi].term else { return None };
            // `&&` leaves early when its condition is false, `||` when it is true.
            let (taken, other) = if and { (&br.false_dest, &br.true_dest) } else { (&br.true_dest, &br.false_dest) };
            if taken != here || other == here || !only_through(f, bi, index(other)?, from_index) {
                return None;
            }
            let c = self.arg(f, &br.condition, Some(bi), loc)?;
            parts.push(bool_ex(&self.scalar(Some(c), loc)?));
        }
        let v = self.arg(f, value, Some(from_index), loc)?;
        parts.push(bool_ex(&self.scalar(Some(v), loc)?));
        let op = if and { " && " } else { " || " };
        Some(Val::Scalar(Ex::new(format!("({})", parts.join(op)), Ty::Bool)))
    }
}

/// Whether block `to` is reached only through block `gate`, and `gate` only from block `from`
/// (by index): `gate`'s one predecessor is `from`, and no path from the entry reaches `to`
/// without passing `gate`.
fn only_through(f: &Frame, from: usize, gate: usize, to: usize) -> bool {
    let blocks = &f.func.basic_blocks;
    let at: HashMap<&Name, usize> = blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
    let mut preds = vec![Vec::new(); blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        for s in successors(&b.term) {
            if let Some(&j) = at.get(&s) {
                preds[j].push(i);
            }
        }
    }
    if preds[gate] != [from] {
        return false;
    }
    // Backwards from `to`, stopping at `gate`: the entry must not be reached.
    let mut seen = vec![false; blocks.len()];
    let mut stack = vec![to];
    while let Some(k) = stack.pop() {
        if k == gate || std::mem::replace(&mut seen[k], true) {
            continue;
        }
        if k == 0 {
            return false;
        }
        stack.extend(&preds[k]);
    }
    true
}

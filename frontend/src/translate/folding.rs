//! A clause's or a guard's operands folded into one expression: the computations of the
//! clause's block that it depends on are recomputed in the expression (within a budget) rather
//! than named, so that `__assert(!__read(p))` reaches the assertion and a loop's guard names
//! the variables the loop changes, which invariant inference reads.
//!
//! Apart from the instruction lowering because folding is a second way to translate the same
//! instructions: values are recomputed, not bound to variables, and memory read there is not
//! an access. Which values fold is decided with the frame (`frame.rs`).

use super::frame::Frame;
use super::names::call_name;
use super::values::{Ex, Val};
use super::{atomics, collectives, images, Tr};
use crate::{builtins, Loc};
use llvm_ir::instruction::Instruction;
use llvm_ir::Operand;

impl<'m> Tr<'m> {
    /// An operand inside a specification clause of block `bi`: the block's computations
    /// folded in (they run before the clause's place at the head of the block).
    pub(super) fn arg(&mut self, f: &Frame<'m>, op: &Operand, spec: Option<usize>, loc: Option<Loc>) -> Option<Val> {
        if let (Some(bi), Operand::LocalOperand { name, .. }) = (spec, op) {
            if let Some(&(i, dbi)) = f.defs.get(name) {
                // Computations without effects are recomputed; a load only when it is not run
                // (it feeds only clauses), so that it reads what the clause's place sees.
                // A short-circuit `&&`/`||` meeting in this block is one expression.
                if let (Instruction::Phi(p), true) = (i, dbi == bi) {
                    if let Some(v) = self.short_circuit(f, p, bi, loc) {
                        return Some(v);
                    }
                }
                let foldable = match i {
                    Instruction::Phi(_) | Instruction::Store(_) | Instruction::Alloca(_) => false,
                    Instruction::Load(_) => f.spec_only.contains(name),
                    // Not a call with an effect (an atomic, an image access, a collective), whose value is the
                    // variable it was given when the call ran.
                    Instruction::Call(c) => {
                        call_name(c).is_some_and(|n| {
                            self.module.get_func_by_name(n).is_none()
                                && !atomics::is_atomic_function(n)
                                && !images::is_image_function(n)
                                && !collectives::is_collective(builtins::demangle(n))
                        }) && !self.is_bodiless(c)
                    }
                    _ => true,
                };
                // Shared subterms are copied when folded: a budget keeps the text linear in
                // the block's size (past it, the computed variable is named instead).
                if dbi == bi && foldable && self.clauses.take_fold() {
                    return self.value_of(f, i, spec, loc);
                }
            }
        }
        self.operand(f, op, loc)
    }

    /// A specification clause's or a branch's operand folded with the computations of block
    /// `bi` that it depends on.
    pub(super) fn spec_expr(&mut self, f: &Frame<'m>, op: &Operand, bi: usize, loc: Option<Loc>) -> Option<Ex> {
        let outer = self.clauses.begin_fold();
        let v = self.arg(f, op, Some(bi), loc);
        self.clauses.end_fold(outer);
        self.scalar(v, loc)
    }
}

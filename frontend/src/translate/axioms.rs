//! GPUVerify's `__axiom(e)` (CUDA/annotation_tests/test_axiom): a fact about the launch, such as
//! `blockIdx.x == 16`, stated once at file scope and assumed by every kernel.
//!
//! C has no statement at file scope, so kivl's header makes each `__axiom(e)` a function of its
//! own, `__kivl_axiom_N`, whose body is `__requires(e)` (kept by `__attribute__((used))`, never
//! called). The condition is folded into one expression as any clause is and becomes a
//! `requires` of every procedure the front end emits: it holds for each thread, as a kernel's
//! precondition does (docs/kbpl.md §5.1), which is GPUVerify's reading of an axiom over the
//! thread and group ids. An axiom is not a function to check on its own (`entry_points` leaves
//! it out), and anything in it other than one clause over constants is `unsupported`.

use super::names::call_name;
use super::values::bool_ex;
use super::Tr;
use crate::builtins::{self, Builtin, Spec};
use crate::Loc;
use llvm_ir::instruction::Instruction;
use llvm_ir::Function;

/// The prefix of the functions kivl's header makes of `__axiom(e)`.
pub(super) const AXIOM_PREFIX: &str = "__kivl_axiom_";

/// Whether `f` is one of the header's axiom functions.
pub(super) fn is_axiom(f: &Function) -> bool {
    f.name.starts_with(AXIOM_PREFIX)
}

impl<'m> Tr<'m> {
    /// The module's axioms as preconditions of the procedure being translated.
    pub(super) fn axioms(&mut self, kloc: Option<Loc>) {
        let module = self.module;
        for (k, g) in module.functions.iter().filter(|g| is_axiom(g)).enumerate() {
            let frame = self.frame(g, format!("ax{k}."), None, kloc);
            let mut clauses = 0;
            for (bi, b) in g.basic_blocks.iter().enumerate() {
                for i in &b.instrs {
                    let Instruction::Call(c) = i else { continue };
                    let loc = self.loc(&c.debugloc, &frame);
                    let requires = call_name(c).and_then(builtins::classify) == Some(Builtin::Spec(Spec::Requires));
                    match (requires, c.arguments.first()) {
                        (true, Some((a, _))) if bi == 0 => {
                            if let Some(e) = self.spec_expr(&frame, a, bi, loc) {
                                self.clauses.require(bool_ex(&e), loc);
                            }
                            clauses += 1;
                        }
                        _ => {}
                    }
                }
            }
            if clauses != 1 || g.basic_blocks.len() != 1 {
                let loc = g.debugloc.as_ref().map(|d| Loc { line: d.line, col: d.col.unwrap_or(1) });
                self.err(loc.or(kloc), "an `__axiom` that is not one condition computed in one block");
            }
        }
    }
}

//! `kivl transform --emit desugared|passified|vc`: a program after a stage of VC generation,
//! the desugared or the passive program as `.kbpl` or each implementation's verification
//! condition as SMT-LIB, for reading and for running other solvers on the same query. Each
//! starts from [`super::prepare`], the preparation `verify_program` runs, with the same options.

use super::context::z3_config;
use super::unit::global_vars;
use super::{Prepared, VerifyOptions};
use crate::desugar;
use crate::passify::{passify, Passive};
use crate::smt::Encoder;
use crate::solver::{configure_z3, VcSolver};
use crate::wp;
use crate::HashSet;
use ivl::ast::*;
use ivl::diag::Diagnostic;

/// The stages [`emit_stage`] prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitStage {
    /// The acyclic, call-free block form (`.kbpl`) the passive program is made from.
    Desugared,
    /// The passive program (`.kbpl`): only `assume` and `assert`, single assignment.
    Passified,
    /// The verification conditions as SMT-LIB, one benchmark per implementation.
    Vc,
}

impl EmitStage {
    pub fn parse(s: &str) -> Option<EmitStage> {
        match s {
            "desugared" => Some(EmitStage::Desugared),
            "passified" | "passive" => Some(EmitStage::Passified),
            "vc" | "smt" | "smt2" => Some(EmitStage::Vc),
            _ => None,
        }
    }
}

/// Prints `program` after a stage of VC generation, prepared as [`super::verify_program`]
/// prepares it with `opts` ([`super::prepare`]).
pub fn emit_stage(program: &Program, stage: EmitStage, opts: &VerifyOptions) -> Result<String, Vec<Diagnostic>> {
    let prepared = super::prepare(program, opts)?;
    match stage {
        EmitStage::Desugared => Ok(ivl::printer::print_program(&prepared.desugared_program())),
        EmitStage::Passified => {
            Ok(ivl::printer::print_program(&passified_program(&prepared, &passify_all(&prepared)?)))
        }
        EmitStage::Vc => vc_text(&prepared, &passify_all(&prepared)?),
    }
}

/// Every prepared implementation in single-assignment form (the workers passify their own
/// copies when verifying; this is the same function on the same input).
pub fn passify_all(prepared: &Prepared<'_>) -> Result<Vec<Passive>, Vec<Diagnostic>> {
    let globals = global_vars(&prepared.program);
    let mut passives = Vec::new();
    let mut errors = Vec::new();
    for v in &prepared.inputs {
        match passify(&v.imp, &globals) {
            Ok(p) => passives.push(p),
            Err(mut d) => errors.append(&mut d),
        }
    }
    if errors.is_empty() {
        Ok(passives)
    } else {
        Err(errors)
    }
}

/// The passive program: the declarations without bodies and the passive implementations.
pub fn passified_program(prepared: &Prepared<'_>, passives: &[Passive]) -> Program {
    let mut decls = desugar::declarations(&prepared.program);
    decls.extend(passives.iter().map(|p| p.imp.to_decl()));
    Program { decls }
}

/// The verification condition of each passive implementation as an SMT-LIB benchmark.
pub fn vc_text(prepared: &Prepared<'_>, passives: &[Passive]) -> Result<String, Vec<Diagnostic>> {
    let program = &*prepared.program;
    configure_z3();
    z3::with_z3_config(&z3_config(), || {
        let mut enc = Encoder::new(program)?;
        let candidates: HashSet<Name> = Encoder::existentials(program).into_iter().collect();
        let mut out = String::new();
        for p in passives {
            let env = wp::impl_env(&mut enc, &p.imp)?;
            let vc = wp::generate(&mut enc, &p.imp, &env, &candidates)?;
            let s = VcSolver::new(&enc.background, vc, None, 0);
            out.push_str(&format!("; verification condition of implementation {}\n", p.imp.name.name));
            out.push_str(&s.solver.to_smt2());
            out.push('\n');
        }
        Ok(out)
    })
}

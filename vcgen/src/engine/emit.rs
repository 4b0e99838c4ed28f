//! `kivl transform --emit passified|vc`: a program after a stage of VC generation, the passive
//! program as `.kbpl` or each implementation's verification condition as SMT-LIB, for reading
//! and for running other solvers on the same query.

use super::unit::{global_vars, z3_config};
use crate::desugar;
use crate::passify::passify;
use crate::smt::Encoder;
use crate::solver::{configure_z3, VcSolver};
use crate::wp;
use crate::HashSet;
use ivl::ast::*;
use ivl::diag::Diagnostic;

/// The stages [`emit_stage`] prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitStage {
    /// The passive program (`.kbpl`): only `assume` and `assert`, single assignment.
    Passified,
    /// The verification conditions as SMT-LIB, one benchmark per implementation.
    Vc,
}

impl EmitStage {
    pub fn parse(s: &str) -> Option<EmitStage> {
        match s {
            "passified" | "passive" => Some(EmitStage::Passified),
            "vc" | "smt" | "smt2" => Some(EmitStage::Vc),
            _ => None,
        }
    }
}

/// Prints `program` after a stage of VC generation.
pub fn emit_stage(program: &Program, stage: EmitStage) -> Result<String, Vec<Diagnostic>> {
    let program = &*crate::mono::monomorphise(program)?;
    let inputs = desugar::prepare(program)?;
    let globals = global_vars(program);
    let mut passives = Vec::new();
    let mut errors = Vec::new();
    for v in &inputs {
        match passify(&v.imp, &globals) {
            Ok(p) => passives.push(p),
            Err(mut d) => errors.append(&mut d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    match stage {
        EmitStage::Passified => {
            let mut decls = crate::desugar::declarations(program);
            decls.extend(passives.iter().map(|p| p.imp.to_decl()));
            Ok(ivl::printer::print_program(&Program { decls }))
        }
        EmitStage::Vc => {
            configure_z3();
            z3::with_z3_config(&z3_config(), || {
                let mut enc = Encoder::new(program)?;
                let candidates: HashSet<Name> = Encoder::existentials(program).into_iter().collect();
                let mut out = String::new();
                for p in &passives {
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
    }
}

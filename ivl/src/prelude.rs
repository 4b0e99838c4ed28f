//! The standard GPU prelude (docs/kbpl.md §4, "Thread identity"): a kernel may use `local_id_x`,
//! `group_size_x`, … without declaring them; they then come from `stdlib/prelude/gpu.kbpl` as
//! `int` constants carrying their identity attribute, together with the basic facts (sizes are
//! positive, ids lie within them).
//!
//! [`with_prelude`] adds to a GPU program (one with a `{:kernel}` procedure or implementation)
//! exactly the prelude declarations it uses but does not declare, plus the constants and axioms
//! those bring along: the axiom `0 <= local_id_x && local_id_x < group_size_x` comes with
//! `local_id_x`, and brings `group_size_x`. An axiom is added only if every name it mentions
//! is supplied by the prelude, so a frontend that declares `local_id_x: bv32` never gets an
//! ill-typed `int` fact about it.
//!
//! Axioms that mention a per-thread constant (`local_id_*`, `group_id_*`;
//! [`stdlib::PER_THREAD_IDENTITY`]) are facts about each thread: the two-thread reduction must
//! instantiate them once per modelled thread.

use crate::ast::*;
use crate::visit::{free_vars, strip_spans};
use std::collections::HashSet;
use std::sync::OnceLock;

/// The declarations of the GPU prelude, parsed once, with dummy spans (they have no place in
/// the user's file).
pub fn prelude_decls() -> &'static [Decl] {
    static DECLS: OnceLock<Vec<Decl>> = OnceLock::new();
    DECLS.get_or_init(|| {
        let (mut program, diags) = crate::parser::parse_program(stdlib::GPU_PRELUDE);
        assert!(diags.is_empty(), "the bundled GPU prelude does not parse: {diags:?}");
        strip_spans(&mut program);
        program.decls
    })
}

/// Whether a program is a GPU program: some procedure or implementation is a `{:kernel}`.
pub fn is_gpu_program(program: &Program) -> bool {
    program.decls.iter().any(|d| match &d.kind {
        DeclKind::Procedure(p) => has_attr(&p.attrs, "kernel"),
        DeclKind::Implementation(i) => has_attr(&i.attrs, "kernel"),
        _ => false,
    })
}

/// Names of constants, variables and functions that a program declares at top level.
fn declared_names(program: &Program) -> HashSet<Name> {
    let mut names = HashSet::new();
    for d in &program.decls {
        match &d.kind {
            DeclKind::Const(c) => names.extend(c.names.iter().map(|n| n.name.clone())),
            DeclKind::Var(v) => names.extend(v.vars.iter().map(|v| v.name.name.clone())),
            DeclKind::Function(f) => {
                names.insert(f.name.name.clone());
            }
            _ => {}
        }
    }
    names
}

/// The prelude declarations a GPU program needs (empty for other programs), in prelude order.
pub fn prelude_additions(program: &Program) -> Vec<Decl> {
    if !is_gpu_program(program) {
        return Vec::new();
    }
    let declared = declared_names(program);
    let prelude = prelude_decls();
    let provided: HashSet<Name> = prelude
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Const(c) => Some(c.names.iter().map(|n| n.name.clone())),
            _ => None,
        })
        .flatten()
        .filter(|n| !declared.contains(n))
        .collect();
    let used: HashSet<Name> = free_vars(&program.decls).into_iter().collect();
    let mut needed: HashSet<Name> = provided.intersection(&used).cloned().collect();
    // Axioms about needed names bring the other names they mention (if the prelude may
    // supply them all), until nothing changes.
    let axioms: Vec<(&Decl, Vec<Name>)> = prelude
        .iter()
        .filter(|d| matches!(d.kind, DeclKind::Axiom(_)))
        .map(|d| (d, free_vars(d)))
        .filter(|(_, fv)| fv.iter().all(|n| provided.contains(n)))
        .collect();
    loop {
        let before = needed.len();
        for (_, fv) in &axioms {
            if fv.iter().any(|n| needed.contains(n)) {
                needed.extend(fv.iter().cloned());
            }
        }
        if needed.len() == before {
            break;
        }
    }
    prelude
        .iter()
        .filter(|d| match &d.kind {
            DeclKind::Const(c) => c.names.iter().any(|n| needed.contains(&n.name)),
            DeclKind::Axiom(_) => {
                axioms.iter().any(|(a, fv)| std::ptr::eq(*a, *d) && fv.iter().all(|n| needed.contains(n)))
            }
            _ => false,
        })
        .cloned()
        .collect()
}

/// The program with the prelude declarations it needs prepended (see the module doc).
pub fn with_prelude(mut program: Program) -> Program {
    let mut decls = prelude_additions(&program);
    if !decls.is_empty() {
        decls.append(&mut program.decls);
        program.decls = decls;
    }
    program
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_program;
    use crate::parser::parse_program;
    use crate::printer::print_program;

    fn parse(text: &str) -> Program {
        let (p, d) = parse_program(text);
        assert!(d.is_empty(), "{d:?}");
        p
    }

    /// The printed additions, one declaration per line.
    fn added(text: &str) -> Vec<String> {
        let p = parse(text);
        let q = with_prelude(p.clone());
        assert_eq!(q.decls[q.decls.len() - p.decls.len()..], p.decls[..], "the program follows the prelude");
        let additions = Program { decls: q.decls[..q.decls.len() - p.decls.len()].to_vec() };
        assert!(check_program(&q).is_empty(), "{:?}", check_program(&q));
        print_program(&additions).lines().filter(|l| !l.is_empty()).map(str::to_string).collect()
    }

    #[test]
    fn prelude_parses_and_checks() {
        let mut p = Program { decls: prelude_decls().to_vec() };
        p.decls.extend(parse("procedure {:kernel} k();").decls);
        assert_eq!(check_program(&p), vec![]);
        assert_eq!(prelude_decls().iter().filter(|d| matches!(d.kind, DeclKind::Const(_))).count(), 12);
    }

    #[test]
    fn only_gpu_programs_get_the_prelude() {
        let p = parse("procedure p() { assert local_id_x >= 0; }");
        assert!(!is_gpu_program(&p));
        assert_eq!(with_prelude(p.clone()), p);
    }

    #[test]
    fn a_used_id_brings_its_size_and_facts() {
        let text = "var {:group_shared} A: [int]int;\n\
                    procedure {:kernel} k() modifies A; { A[local_id_x] := 0; }";
        assert_eq!(
            added(text),
            [
                "const {:local_id_x} local_id_x: int;",
                "const {:group_size_x} group_size_x: int;",
                "axiom group_size_x > 0;",
                "axiom 0 <= local_id_x && local_id_x < group_size_x;",
            ]
        );
    }

    #[test]
    fn user_declarations_win_and_their_facts_are_not_added() {
        let text = "const {:local_id_x} local_id_x: bv32;\n\
                    procedure {:kernel} k() { assert local_id_x == 0bv32 || group_size_x > 0; }";
        assert_eq!(added(text), ["const {:group_size_x} group_size_x: int;", "axiom group_size_x > 0;"]);
    }

    #[test]
    fn unused_names_are_not_added() {
        assert!(added("procedure {:kernel} k(x: int) { assert x > 0; }").is_empty());
    }
}

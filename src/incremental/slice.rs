//! The slice of one implementation: the part of a checked program its verification reads.
//!
//! The VC engine verifies an implementation on its own (Boogie's modular verification): a call
//! is replaced by the callee's contract, unless the callee is `{:inline N}`, whose body is
//! inlined (`vcgen/src/desugar`). So an implementation's verdict depends on
//!
//! - its own text, and its procedure's declaration (signature, contract, `modifies`);
//! - the declarations (signatures and contracts, bodies left out) of the procedures it calls;
//! - the bodies of the procedures it inlines, and transitively what those call and inline;
//! - every type, constant, function, axiom and global variable of the file (axioms constrain
//!   every implementation, so they are not sliced).
//!
//! The slice is exactly that, in program order. The inlined bodies are marked
//! `{:verify false}` in the slice: they are verified in their own unit, not again here.

use ivl::ast::*;
use std::collections::{HashMap, HashSet};
use vcgen::houdini::callees;

/// Which implementation: its procedure's name and how many implementations of the same
/// procedure come before it in the file (a procedure with a body counts as one).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImplKey {
    pub name: String,
    pub occurrence: u32,
}

/// The name of the procedure that `d` implements, if `d` has a body to verify.
fn implemented(d: &Decl) -> Option<&Name> {
    match &d.kind {
        DeclKind::Implementation(i) => Some(&i.name.name),
        DeclKind::Procedure(p) if p.body.is_some() => Some(&p.name.name),
        _ => None,
    }
}

/// The implementations of a program, in program order.
pub fn implementations(program: &Program) -> Vec<ImplKey> {
    let mut seen: HashMap<&Name, u32> = HashMap::new();
    program
        .decls
        .iter()
        .filter_map(implemented)
        .map(|name| {
            let n = seen.entry(name).or_insert(0);
            *n += 1;
            ImplKey { name: name.to_string(), occurrence: *n - 1 }
        })
        .collect()
}

/// The index of the declaration that `key` names.
fn position(program: &Program, key: &ImplKey) -> Option<usize> {
    program
        .decls
        .iter()
        .enumerate()
        .filter(|(_, d)| implemented(d).is_some_and(|n| n.as_str() == key.name))
        .nth(key.occurrence as usize)
        .map(|(i, _)| i)
}

/// Whether calls of `name` are inlined: `{:inline N}` on the procedure or on an implementation
/// (the desugaring's rule, `vcgen::desugar::context`).
fn inlined(program: &Program, name: &str) -> bool {
    let inline = |attrs: &[Attribute]| has_attr(attrs, "inline");
    program.decls.iter().any(|d| match &d.kind {
        DeclKind::Procedure(p) => p.name.name == name && inline(&p.attrs),
        DeclKind::Implementation(i) => i.name.name == name && inline(&i.attrs),
        _ => false,
    })
}

/// The slice of the implementation `key` (absolute spans), or `None` if there is no such
/// implementation.
pub fn slice(program: &Program, key: &ImplKey) -> Option<Program> {
    let own = position(program, key)?;
    // Procedures whose declaration is needed, and those whose bodies are (inlined).
    let mut declared: HashSet<Name> = HashSet::from([Name::from(key.name.as_str())]);
    let mut bodies: HashSet<Name> = HashSet::new();
    let mut work = callees(&program.decls[own]);
    while let Some(callee) = work.pop() {
        declared.insert(callee.clone());
        if inlined(program, &callee) && bodies.insert(callee.clone()) {
            for d in program.decls.iter().filter(|d| implemented(d) == Some(&callee)) {
                work.extend(callees(d));
            }
        }
    }
    let decls =
        program.decls.iter().enumerate().filter_map(|(i, d)| sliced_decl(d, i == own, &declared, &bodies)).collect();
    Some(Program { decls })
}

/// The kernels of a kernel program that is verified one kernel at a time: two kernels or more,
/// no procedure with a body that is not a kernel (such a procedure is inlined into the kernels
/// that call it; a program with one is one unit), and no call of a kernel. Keys in program
/// order.
pub fn kernels(program: &Program) -> Option<Vec<ImplKey>> {
    let names = kernel_names(program);
    let keys = implementations(program);
    let split = names.len() >= 2 && keys.iter().all(|k| names.contains(k.name.as_str()) && k.occurrence == 0);
    // A kernel called by another would be missing from the caller's slice.
    let calls_kernel = program.decls.iter().flat_map(callees).any(|c| names.contains(c.as_str()));
    (split && !calls_kernel).then_some(keys)
}

/// The `{:kernel}` procedures.
fn kernel_names(program: &Program) -> HashSet<&str> {
    program.procedures().filter(|p| has_attr(&p.attrs, "kernel")).map(|p| p.name.name.as_str()).collect()
}

/// The slice of kernel `key`: the program without the other kernels. The two-thread reduction
/// verifies each kernel on its own (its variants, races between two threads of that kernel);
/// what the kernels share (globals, axioms, the sizes) stays. One difference, which changes no
/// verdict: the whole program has an inter-group variant of every kernel as soon as one kernel
/// writes global memory, the slice only if its kernel does (a kernel that writes no global
/// memory has no inter-group race).
pub fn kernel_slice(program: &Program, key: &ImplKey) -> Option<Program> {
    let kernels = kernel_names(program);
    kernels.contains(key.name.as_str()).then_some(())?;
    let other = |d: &Decl| match &d.kind {
        DeclKind::Procedure(p) => p.name.name != key.name && kernels.contains(p.name.name.as_str()),
        DeclKind::Implementation(i) => i.name.name != key.name && kernels.contains(i.name.name.as_str()),
        _ => false,
    };
    Some(Program { decls: program.decls.iter().filter(|d| !other(d)).cloned().collect() })
}

/// What the slice keeps of `d`.
fn sliced_decl(d: &Decl, own: bool, declared: &HashSet<Name>, bodies: &HashSet<Name>) -> Option<Decl> {
    if own {
        return Some(d.clone());
    }
    match &d.kind {
        DeclKind::Procedure(p) if bodies.contains(&p.name.name) && p.body.is_some() => Some(not_verified(d)),
        DeclKind::Procedure(p) if declared.contains(&p.name.name) => {
            let mut d = d.clone();
            if let DeclKind::Procedure(p) = &mut d.kind {
                p.body = None;
            }
            Some(d)
        }
        DeclKind::Procedure(_) => None,
        DeclKind::Implementation(i) if bodies.contains(&i.name.name) => Some(not_verified(d)),
        DeclKind::Implementation(_) => None,
        _ => Some(d.clone()),
    }
}

/// `d` with `{:verify false}`: its body is there to be inlined, not verified.
fn not_verified(d: &Decl) -> Decl {
    let mut d = d.clone();
    let attr = Attribute {
        name: Ident::new("verify", Span::DUMMY),
        args: vec![AttrArg::Expr(Expr::bool(false))],
        span: Span::DUMMY,
    };
    match &mut d.kind {
        DeclKind::Procedure(p) => p.attrs.push(attr),
        DeclKind::Implementation(i) => i.attrs.push(attr),
        _ => {}
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        let (p, d) = ivl::parser::parse_program(text);
        assert!(d.is_empty(), "{d:?}");
        p
    }

    fn names(p: &Program) -> Vec<String> {
        p.decls.iter().map(|d| ivl::printer::print_decl(d).lines().next().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn kernels_split_unless_a_helper_has_a_body() {
        let two = "procedure {:kernel} K() { }\nprocedure {:kernel} L() { }\nprocedure H();\n";
        let keys = kernels(&program(two)).expect("two kernels, H has no body");
        assert_eq!(keys.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["K", "L"]);
        let s = ivl::printer::print_program(&kernel_slice(&program(two), &keys[1]).expect("L"));
        assert!(!s.contains("procedure {:kernel} K") && s.contains("procedure {:kernel} L") && s.contains("H"), "{s}");
        assert_eq!(kernels(&program(&format!("{two}procedure G() {{ }}\n"))), None, "G is inlined");
        assert_eq!(kernels(&program("procedure {:kernel} K() { }\n")), None, "one kernel");
        assert_eq!(kernels(&program(&two.replace("K() { }", "K() { call L(); }"))), None, "L is called");
    }

    #[test]
    fn slice_keeps_callee_contracts_and_inlined_bodies() {
        let p = program(
            "var g: int;\n\
             procedure A() modifies g; { call B(); call C(); }\n\
             procedure B() ensures g > 0; modifies g; { g := 1; }\n\
             procedure {:inline 1} C() { call D(); }\n\
             procedure D();\n\
             procedure E() { }\n",
        );
        let keys = implementations(&p);
        assert_eq!(keys.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["A", "B", "C", "E"]);
        let s = slice(&p, &keys[0]).expect("A has a body");
        let printed = ivl::printer::print_program(&s);
        assert!(!printed.contains("g := 1"), "B's body is not in A's slice:\n{printed}");
        assert!(printed.contains("call D()"), "C's body is inlined into A:\n{printed}");
        assert!(printed.contains("{:verify false}"), "C is not verified again in A's unit:\n{printed}");
        assert!(!printed.contains("procedure E"), "E is not called:\n{printed}");
        assert_eq!(names(&s).len(), 5, "{printed}");
    }
}

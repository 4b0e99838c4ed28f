//! GPU rules of docs/kbpl.md §2.3-§5: memory spaces, thread identities, `barrier`, specification
//! built-ins, and inferred modifies clauses.

#[path = "typeck_common.rs"]
mod common;
use common::*;
use ivl::ast::DeclKind;
use ivl::check::{build_env, type_of, Ty};
use ivl::diag::ErrorKind;
use ivl::modifies::infer_modifies;

const KERNEL: &str = "procedure {:kernel} k();\n";

#[test]
fn memory_spaces_on_map_variables() {
    accepts("var {:group_shared} A: [bv32]bv32; var {:global} B: [bv32][bv1]bv8;");
    // As GPUVerify emits them: on axioms and on boolean race-checking flags.
    accepts("axiom {:array_info \"$$A\"} {:global} {:elem_width 32} true;\nvar {:race_checking} {:group_shared} _READ_HAS_OCCURRED_$$A: bool;");
    type_err(
        "var {:group_shared} x: bv32;",
        "`{:group_shared}` variable `x` must have a map type, found `bv32`",
        1,
        24,
    );
    type_err("var {:global} x: bool;", "must have a map type", 1, 18);
    type_err("const {:global} c: [int]int;", "memory-space attribute `{:global}` is not allowed on a constant", 1, 7);
    type_err("procedure {:group_shared} p();", "not allowed on a procedure", 1, 11);
    type_err("procedure p() { var {:global} m: [int]int; }", "not allowed on a local variable", 1, 21);
    type_err("var {:global} {:group_shared} m: [int]int;", "marked both", 1, 31);
}

#[test]
fn thread_identity_constants() {
    accepts("const {:local_id_x} tid: bv32; const {:group_size_x} gs: int;");
    type_err(
        "const {:local_id_x} tid: bool;",
        "thread-identity constant must have type `int` or `bvN`, found `bool`",
        1,
        26,
    );
    type_err(
        "var {:local_id_x} tid: int;",
        "thread-identity attribute `{:local_id_x}` is not allowed on a variable",
        1,
        5,
    );
    // Undeclared identity names are prelude constants of type int in GPU programs ...
    accepts(&format!("{KERNEL}procedure p(); requires local_id_x >= 0 && group_size_y > 0 && num_groups_z > 0;"));
    // ... and undeclared elsewhere.
    type_err("procedure p(); requires local_id_x >= 0;", "undeclared identifier `local_id_x`", 1, 25);
    // They are constants.
    type_err(&format!("{KERNEL}procedure p() {{ local_id_x := 1; }}"), "cannot assign to constant `local_id_x`", 2, 17);
}

#[test]
fn barrier_only_in_kernels_and_their_callees() {
    accepts("procedure {:kernel} k() { barrier; call p(); }\nprocedure p() { barrier; call q(); }\nprocedure q() { barrier; }");
    accepts("procedure {:kernel} k(); implementation k() { barrier {:local}; }");
    rejects(
        "procedure {:kernel} k() { }\nprocedure p() { barrier; }",
        ErrorKind::Type,
        "`barrier` outside a kernel",
        2,
        17,
    );
    rejects("procedure p() { barrier; }", ErrorKind::Type, "`barrier` outside a kernel", 1, 17);
}

#[test]
fn barrier_invariants() {
    let src = "var {:group_shared} A: [bv32]bv32;\nconst {:local_id_x} tid: bv32;\n\
               procedure {:kernel} k() {\n  barrier\n    invariant A[tid] == 0bv32;\n    invariant {:instantiate tid} A[tid] == 0bv32;\n}";
    accepts(src);
    type_err(
        "procedure {:kernel} k() {\n  barrier\n    invariant 1;\n}",
        "a barrier invariant must be of type `bool`, found `int`",
        3,
        15,
    );
    type_err(
        "procedure {:kernel} k() {\n  barrier invariant {:instantiate nope} true;\n}",
        "undeclared identifier `nope`",
        2,
        35,
    );
}

#[test]
fn specification_builtins() {
    let decls = "var {:group_shared} A: [bv32]bv32;\nvar g: int;\n";
    accepts(&format!(
        "{decls}procedure {{:kernel}} k();\n  requires !__read(A) && !__write(A) && __read_offset(A) == 0bv32 && __write_offset(A) == 0bv32;\n  requires __uniform(g) && __other(g) == g && __enabled();"
    ));
    // In loop invariants and barrier invariants of kernels and of procedures they call.
    accepts(&format!(
        "{decls}procedure {{:kernel}} k() {{ call p(); }}\nprocedure p() {{ while (*) invariant __write(A) ==> __write_offset(A) == 1bv32; {{ }} barrier invariant __enabled(); }}"
    ));
    type_err(
        &format!("{decls}procedure {{:kernel}} k();\n  requires __read_offset(A) == 0;"),
        "invalid operand types `bv32` and `int`",
        4,
        12,
    );
    type_err(
        &format!("{decls}procedure {{:kernel}} k();\n  requires __read(g);"),
        "the argument of `__read` must be a shared array",
        4,
        19,
    );
    type_err(
        &format!("{decls}procedure {{:kernel}} k();\n  requires __enabled(1);"),
        "`__enabled` takes 0 arguments, found 1",
        4,
        12,
    );
    // Not in code, axioms or functions.
    type_err(
        &format!("{decls}procedure {{:kernel}} k() {{ var b: bool; b := __read(A); }}"),
        "the specification built-in `__read` cannot be used here",
        3,
        45,
    );
    type_err(&format!("{decls}axiom __enabled();"), "the specification built-in `__enabled` cannot be used here", 3, 7);
    // Not outside kernels.
    rejects(
        &format!("{decls}procedure {{:kernel}} k();\nprocedure p();\n  requires __read(A);"),
        ErrorKind::Type,
        "specification built-in `__read` used outside a kernel",
        5,
        12,
    );
}

#[test]
fn kernel_programs_infer_modifies() {
    // Plain Boogie: an error; with a kernel in the program: modifies clauses are inferred.
    type_err("var g: int; procedure p() { g := 1; }", "not in the modifies clause", 1, 29);
    accepts("var g: int; procedure {:kernel} k() { g := 1; call p(); }\nprocedure p() { g := 2; }");
}

fn modifies_of(p: &ivl::ast::Program, name: &str) -> Vec<String> {
    p.procedures().find(|d| d.name.as_str() == name).unwrap().modifies.iter().map(|m| m.name.to_string()).collect()
}

#[test]
fn infer_modifies_fixpoint() {
    let src = "var a: int; var b: int; var c: [int]int; var d: int;\n\
               procedure top(); modifies d;\n\
               implementation top() { call mid(); }\n\
               procedure mid() { var a: int; a := 1; call low(); call mid(); }\n\
               procedure low() { var r: int; havoc b; c[1] := 2; call r := ext(); }\n\
               procedure ext() returns (r: int); modifies d;";
    let (p, d) = ivl::parser::parse_program(src);
    assert!(d.is_empty());
    let q = infer_modifies(&p);
    assert_eq!(modifies_of(&q, "low"), ["b", "c", "d"]);
    // `a` is a local of `mid`, so `mid` does not modify the global `a`.
    assert_eq!(modifies_of(&q, "mid"), ["b", "c", "d"]);
    assert_eq!(modifies_of(&q, "top"), ["d", "b", "c"]);
    assert_eq!(modifies_of(&q, "ext"), ["d"]);
    // The result checks as plain Boogie.
    let ds = ivl::check::check_program(&q);
    assert!(ds.is_empty(), "{ds:#?}");
}

#[test]
fn type_of_expressions() {
    let src = "type T = bv32; var {:group_shared} A: [T]bv8; function f(x: T): bool;";
    let (p, d) = ivl::parser::parse_program(src);
    assert!(d.is_empty());
    let (env, diags) = build_env(&p.decls);
    assert!(diags.is_empty());
    let (e, _) = ivl::parser::parse_program("axiom f(i) && A[i] == 0bv8 && (i ++ A[i])[40:8] == i;");
    let DeclKind::Axiom(ax) = &e.decls[0].kind else { panic!() };
    let locals = |n: &str| if n == "i" { Some(Ty::Bv(32)) } else { None };
    assert_eq!(type_of(&env, &locals, &ax.expr), Some(Ty::Bool));
    let ivl::ast::ExprKind::Binary(_, lhs, _) = &ax.expr.kind else { panic!() };
    assert_eq!(type_of(&env, &locals, lhs), Some(Ty::Bool));
    let none = |_: &str| None;
    assert_eq!(type_of(&env, &none, &ax.expr), None);
    // Synonyms expand.
    let ty = &p.decls[1];
    let DeclKind::Var(v) = &ty.kind else { panic!() };
    assert_eq!(env.ty(&v.vars[0].ty), Ty::map(vec![Ty::Bv(32)], Ty::Bv(8)));
    assert_eq!(ivl::printer::print_type(&env.expand(&v.vars[0].ty)), "[bv32]bv8");
}

#[test]
fn atomics() {
    let decls = "var {:global} A: [bv32]bv32; var {:group_shared} N: [int]int; var {:global} F: [bv32]bv16;\n";
    accepts(&format!(
        "{decls}procedure {{:kernel}} k() {{ var x: bv32; var n: int;\n\
         atomic x := add(A[0bv32], 1bv32); atomic inc(A[x]); atomic x := cmpxchg(A[1bv32], 0bv32, 1bv32);\n\
         atomic umax(A[2bv32], x); atomic x := fadd(A[3bv32], x); atomic n := min(N[n], 3); atomic dec(N[0]); }}"
    ));
    let k = |body: &str| format!("{decls}procedure {{:kernel}} k() {{ var x: bv32; var n: int;\n{body} }}");
    type_err(&k("atomic n := and(N[0], 1);"), "atomic `and` needs a bit-vector element, found `int`", 3, 17);
    type_err(&k("atomic fadd(F[0bv32], 1bv16);"), "atomic `fadd` needs a `bv32` or `bv64` element", 3, 13);
    type_err(
        &k("atomic cmpxchg(A[0bv32], 1bv32);"),
        "atomic `cmpxchg` takes 2 arguments after the element, found 1",
        3,
        16,
    );
    type_err(&k("atomic add(A[0bv32], 1);"), "expected `bv32`, found `int`", 3, 22);
    type_err(&k("atomic n := inc(A[0bv32]);"), "expected `bv32`, found `int`", 3, 8);
    type_err(&k("atomic inc(x);"), "the target of an atomic operation must be a global variable", 3, 12);
    type_err(
        &format!("{decls}var g: bv32;\nprocedure {{:kernel}} k() {{ atomic g := inc(A[0bv32]); }}"),
        "which is not a local variable",
        3,
        34,
    );
    rejects(
        &format!("{decls}procedure {{:kernel}} k() {{ }}\nprocedure p() {{ atomic inc(N[0]); }}"),
        ErrorKind::Type,
        "`atomic` outside a kernel",
        3,
        17,
    );
}

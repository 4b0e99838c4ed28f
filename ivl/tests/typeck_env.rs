//! The item index (`GlobalEnv`): its contents, and its stability under edits of bodies (the
//! incremental database relies on it being equal after such edits).

use ivl::check::{build_env, GlobalEnv, GlobalKind, Ty};
use ivl::resolve::MemSpace;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

fn env(src: &str) -> GlobalEnv {
    let (p, d) = ivl::parser::parse_program(src);
    assert!(d.is_empty(), "{d:?}");
    let (env, diags) = build_env(&p.decls);
    assert!(diags.is_empty(), "{diags:?}");
    env
}

fn hash(e: &GlobalEnv) -> u64 {
    let mut h = DefaultHasher::new();
    e.hash(&mut h);
    h.finish()
}

const PROGRAM: &str = "type T = bv32;\ntype U a;\nconst {:local_id_x} tid: T;\nvar {:group_shared} A: [T]bv8;\n\
var g: int;\nfunction {:bvbuiltin \"bvadd\"} ADD(T, T): T;\nprocedure {:kernel} k(x: T) returns (r: U int);\n  modifies A, A;\n\
implementation k(x: T) returns (r: U int) {\n  A[x] := 1bv8;\n}\n";

#[test]
fn contents() {
    let e = env(PROGRAM);
    assert!(e.has_kernel);
    assert_eq!(e.types["U"].arity, 1);
    assert_eq!(e.types["T"].synonym, Some(Ty::Bv(32)));
    let tid = e.global("tid").unwrap();
    assert_eq!(tid.ty, Ty::Bv(32));
    assert!(matches!(tid.kind, GlobalKind::Const { identity: Some("local_id_x"), .. }));
    assert_eq!(ivl::check::memory_space(&e, "A"), Some(MemSpace::GroupShared));
    assert_eq!(ivl::check::memory_space(&e, "g"), Some(MemSpace::Unmarked));
    assert_eq!(e.function("ADD").unwrap().bvbuiltin.as_deref(), Some("bvadd"));
    let k = e.procedure("k").unwrap();
    assert!(k.kernel);
    assert_eq!(k.modifies, ["A"]);
    assert_eq!(k.outs[0].1, Ty::Ctor("U".into(), vec![Ty::Int].into()));
    // Implicit thread identities of GPU programs.
    assert_eq!(e.global("group_size_y").unwrap().ty, Ty::Int);
    assert!(e.global("local_id_w").is_none());
}

#[test]
fn unchanged_by_body_edits() {
    let a = env(PROGRAM);
    let edited =
        PROGRAM.replace("  A[x] := 1bv8;\n", "  var y: T;\n  y := ADD(x, x);\n  A[y] := 2bv8;\n  A[x] := 1bv8;\n");
    // Moving declarations (spans shift) changes nothing either.
    let moved = format!("\n\n// comment\n{edited}");
    let b = env(&moved);
    assert_eq!(a, b);
    assert_eq!(hash(&a), hash(&b));
    let c = env(&PROGRAM.replace("var g: int;", "var g: bool;"));
    assert_ne!(a, c);
}

//! The program's declarations made on demand: the `{:bvbuiltin}` functions of the bit-vector
//! operations the kernels use, the uninterpreted functions of floats and unknown externals,
//! and the axioms of constant memory.
//!
//! Apart from the translator because they outlive it: the declarations of one kernel are
//! handed to the next, and the program's text lists them once, sorted by name, before the
//! procedures. Nothing here knows of LLVM.

use super::values::Ty;
use std::collections::BTreeMap;

/// The declarations by key (a function's name; `~axiom NAME` for the axiom of object `NAME`,
/// sorted after the functions).
#[derive(Default)]
pub(super) struct Decls {
    texts: BTreeMap<String, String>,
}

impl Decls {
    /// The declarations' texts, in key order.
    pub(super) fn texts(&self) -> impl Iterator<Item = &String> {
        self.texts.values()
    }

    /// Declares a bit-vector operation `BVw_OP` on demand; its name.
    pub(super) fn bvop(&mut self, op: &str, w: u32) -> String {
        let (smt, result) = match op {
            "ADD" => ("bvadd", None),
            "SUB" => ("bvsub", None),
            "MUL" => ("bvmul", None),
            "UDIV" => ("bvudiv", None),
            "SDIV" => ("bvsdiv", None),
            "UREM" => ("bvurem", None),
            "SREM" => ("bvsrem", None),
            "AND" => ("bvand", None),
            "OR" => ("bvor", None),
            "XOR" => ("bvxor", None),
            "SHL" => ("bvshl", None),
            "LSHR" => ("bvlshr", None),
            "ASHR" => ("bvashr", None),
            "ULT" => ("bvult", Some("bool")),
            "ULE" => ("bvule", Some("bool")),
            "UGT" => ("bvugt", Some("bool")),
            "UGE" => ("bvuge", Some("bool")),
            "SLT" => ("bvslt", Some("bool")),
            "SLE" => ("bvsle", Some("bool")),
            "SGT" => ("bvsgt", Some("bool")),
            _ => ("bvsge", Some("bool")),
        };
        let name = format!("BV{w}_{op}");
        let res = result.map_or(format!("bv{w}"), str::to_string);
        self.texts
            .entry(name.clone())
            .or_insert_with(|| format!("function {{:bvbuiltin \"{smt}\"}} {name}(bv{w}, bv{w}): {res};"));
        name
    }

    /// Declares an uninterpreted function (float operations, unknown pure externals); its name.
    pub(super) fn uninterpreted(&mut self, name: &str, args: &[Ty], result: Ty) -> String {
        let args: Vec<String> = args.iter().map(|t| t.kbpl()).collect();
        self.texts
            .entry(name.to_string())
            .or_insert_with(|| format!("function {name}({}): {};", args.join(", "), result.kbpl()));
        name.to_string()
    }

    /// `x` (of `from` bits) sign-extended to `to` bits, declaring the extension.
    pub(super) fn sext(&mut self, x: &str, from: u32, to: u32) -> String {
        let name = format!("BV{from}_SEXT{to}");
        let d = format!("function {{:bvbuiltin \"sign_extend {}\"}} {name}(bv{from}): bv{to};", to - from);
        self.texts.entry(name.clone()).or_insert(d);
        format!("{name}({x})")
    }

    /// The axiom `text` about the contents of the object `object` (the last one given wins).
    pub(super) fn axiom(&mut self, object: &str, text: String) {
        self.texts.insert(format!("~axiom {object}"), text);
    }

    /// What the offsets of [`crate::memory::Lin`] call for the 32-bit operations they use.
    pub(super) fn needs_fn(&mut self) -> impl FnMut(&'static str) + use<'_> {
        |name: &'static str| {
            let op = name.strip_prefix("BV32_").unwrap_or("ADD");
            let _ = self.bvop(op, 32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Decls, Ty};

    #[test]
    fn each_operation_is_declared_once_with_its_smt_name() {
        let mut d = Decls::default();
        assert_eq!(d.bvop("ADD", 32), "BV32_ADD");
        assert_eq!(d.bvop("ADD", 32), "BV32_ADD");
        assert_eq!(d.bvop("ULT", 8), "BV8_ULT");
        // An unknown name is the last comparison (the callers handle equalities before).
        assert_eq!(d.bvop("SGE", 16), "BV16_SGE");
        let texts: Vec<&String> = d.texts().collect();
        assert_eq!(
            texts,
            [
                "function {:bvbuiltin \"bvsge\"} BV16_SGE(bv16, bv16): bool;",
                "function {:bvbuiltin \"bvadd\"} BV32_ADD(bv32, bv32): bv32;",
                "function {:bvbuiltin \"bvult\"} BV8_ULT(bv8, bv8): bool;",
            ]
        );
    }

    #[test]
    fn uninterpreted_functions_sign_extensions_and_axioms() {
        let mut d = Decls::default();
        assert_eq!(d.uninterpreted("FADD32", &[Ty::Float(32), Ty::Float(32)], Ty::Float(32)), "FADD32");
        assert_eq!(d.uninterpreted("FCMP_OLT64", &[Ty::Float(64), Ty::Float(64)], Ty::Bool), "FCMP_OLT64");
        assert_eq!(d.sext("$x", 8, 32), "BV8_SEXT32($x)");
        d.axiom("$$c", "axiom $$c[0bv32] == 1bv32;".into());
        d.axiom("$$c", "axiom (forall i: bv32 :: $$c[i] == 0bv32);".into());
        let texts: Vec<&String> = d.texts().collect();
        assert_eq!(
            texts,
            [
                "function {:bvbuiltin \"sign_extend 24\"} BV8_SEXT32(bv8): bv32;",
                "function FADD32(bv32, bv32): bv32;",
                "function FCMP_OLT64(bv64, bv64): bool;",
                "axiom (forall i: bv32 :: $$c[i] == 0bv32);",
            ]
        );
    }

    #[test]
    fn offsets_declare_what_they_use() {
        let mut d = Decls::default();
        let mut needs = d.needs_fn();
        needs("BV32_MUL");
        needs("BV32_ADD");
        drop(needs);
        let texts: Vec<&String> = d.texts().collect();
        assert_eq!(
            texts,
            [
                "function {:bvbuiltin \"bvadd\"} BV32_ADD(bv32, bv32): bv32;",
                "function {:bvbuiltin \"bvmul\"} BV32_MUL(bv32, bv32): bv32;",
            ]
        );
    }
}

//! OpenCL's integer `min` and `max` (OpenCL 1.2 §6.12.3), interpreted lane by lane.
//!
//! Other external built-ins stay uninterpreted functions (`calls.rs`, `vectors.rs`), but an
//! uninterpreted `min` cannot prove what every kernel expects of it, such as
//! `min((int4)(1, 2, 3, 0), (int4)(2, 3, 4, 1)).x == 1` (GPUVerify's
//! `OpenCL/misc/pass/misc5`, where libclc's definition of `min` is verified through). The
//! meaning is exact and cheap: `min(a, b)` is `a < b ? a : b` per lane, the comparison signed
//! or unsigned as the argument's C type (the Itanium mangling's letter: `c`, `a`, `s`, `i`,
//! `l` signed, `h`, `t`, `j`, `m` unsigned; OpenCL's `char` is signed). The forms are
//! `min(gentype, gentype)` and `min(vector, scalar)`, the scalar applying to every lane.
//! Floating-point `min`/`max` (and `fmin`) are not touched: their NaN rules stay abstract.

use super::values::{Ex, Ty};
use super::Tr;

/// `Some((is_min, signed))` when the mangled name is OpenCL's integer `min` or `max`.
fn int_min_max(mangled: &str) -> Option<(bool, bool)> {
    let (is_min, args) =
        if let Some(a) = mangled.strip_prefix("_Z3min") { (true, a) } else { (false, mangled.strip_prefix("_Z3max")?) };
    // The first argument's type: `Dv4_i` (a vector of `int`) or `i`.
    let elem = match args.strip_prefix("Dv") {
        Some(v) => v.trim_start_matches(|c: char| c.is_ascii_digit()).strip_prefix('_')?.chars().next()?,
        None => args.chars().next()?,
    };
    let signed = match elem {
        'c' | 'a' | 's' | 'i' | 'l' => true,
        'h' | 't' | 'j' | 'm' => false,
        _ => return None,
    };
    Some((is_min, signed))
}

impl<'m> Tr<'m> {
    /// The `n` result lanes of a call of OpenCL's integer `min`/`max` whose scalar arguments,
    /// lane by lane, are `args`; `None` for any other function (or an unexpected shape).
    pub(super) fn int_min_max_lanes(&mut self, mangled: &str, args: &[Ex], n: usize) -> Option<Vec<Ex>> {
        let (is_min, signed) = int_min_max(mangled)?;
        let second = |k: usize| match args.len() {
            l if l == 2 * n => Some(&args[n + k]),
            l if l == n + 1 => Some(&args[n]),
            _ => None,
        };
        let mut lanes = Vec::with_capacity(n);
        for (k, a) in args.iter().take(n).enumerate() {
            let b = second(k)?;
            let Ty::Bv(w) = a.ty else { return None };
            if b.ty != a.ty {
                return None;
            }
            let op = match (is_min, signed) {
                (true, true) => "SLT",
                (true, false) => "ULT",
                (false, true) => "SGT",
                (false, false) => "UGT",
            };
            let cmp = self.decls.bvop(op, w);
            lanes.push(Ex::new(format!("(if {cmp}({}, {}) then {} else {})", a.text, b.text, a.text, b.text), a.ty));
        }
        Some(lanes)
    }
}

#[cfg(test)]
mod tests {
    use super::int_min_max;

    #[test]
    fn reads_the_mangled_names() {
        assert_eq!(int_min_max("_Z3minDv4_iS_"), Some((true, true)));
        assert_eq!(int_min_max("_Z3maxjj"), Some((false, false)));
        assert_eq!(int_min_max("_Z3minDv2_hh"), Some((true, false)));
        assert_eq!(int_min_max("_Z3minDv4_fS_"), None);
        assert_eq!(int_min_max("_Z3minff"), None);
        assert_eq!(int_min_max("_Z4fminff"), None);
    }
}

//! GPUVerify's `--global_size` with a symbolic local size (`--local_size=* --global_size=1024`):
//! the number of groups is then not a number the command line can fix, but a function of the
//! group size. The translation gets GPUVerify's facts about it (bugle's `opencl.h`), per
//! dimension given: the group size is at most the global size and divides it, and the number
//! of groups is the quotient. Unsigned and without overflow, so exactly what a real launch
//! satisfies: assuming them cannot make a verdict unsound.

use crate::builtins::DIMS;
use crate::Translation;

/// The 32-bit operations the facts use, under names no translation uses.
const OPS: [(&str, &str, &str); 3] = [
    ("$kivl.global_size.ule", "bvule", "bool"),
    ("$kivl.global_size.urem", "bvurem", "bv32"),
    ("$kivl.global_size.udiv", "bvudiv", "bv32"),
];

/// Appends to `tr` the facts of the global size `global` (one entry per dimension given;
/// nothing when empty).
pub fn append_facts(tr: &mut Translation, global: &[u64]) {
    if global.is_empty() {
        return;
    }
    let mut text = String::new();
    for (name, op, ret) in OPS {
        text.push_str(&format!("function {{:bvbuiltin \"{op}\"}} {name}(bv32, bv32): {ret};\n"));
    }
    for (g, d) in global.iter().zip(DIMS) {
        let (size, groups) = (format!("group_size_{d}"), format!("num_groups_{d}"));
        text.push_str(&format!(
            "axiom {u}({size}, {g}bv32) && {r}({g}bv32, {size}) == 0bv32 && {groups} == {q}({g}bv32, {size});\n",
            u = OPS[0].0,
            r = OPS[1].0,
            q = OPS[2].0,
        ));
    }
    if !tr.kbpl.ends_with('\n') {
        tr.kbpl.push('\n');
        tr.origins.push(None);
    }
    tr.origins.extend(std::iter::repeat_n(None, text.matches('\n').count()));
    tr.kbpl.push_str(&text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_per_dimension_given() {
        let mut tr = Translation {
            kbpl: "const {:group_size_x} group_size_x: bv32;".into(),
            origins: vec![None],
            fallback: crate::Loc { line: 1, col: 1 },
            clang_secs: 0.0,
            translate_secs: 0.0,
        };
        append_facts(&mut tr, &[]);
        assert_eq!(tr.origins.len(), 1);
        append_facts(&mut tr, &[1024, 8]);
        assert!(tr.kbpl.contains("axiom $kivl.global_size.ule(group_size_x, 1024bv32) && $kivl.global_size.urem(1024bv32, group_size_x) == 0bv32 && num_groups_x == $kivl.global_size.udiv(1024bv32, group_size_x);\n"), "{}", tr.kbpl);
        assert!(tr.kbpl.contains("num_groups_y == $kivl.global_size.udiv(8bv32, group_size_y)"));
        assert!(!tr.kbpl.contains("_z"));
        assert_eq!(tr.origins.len(), tr.kbpl.matches('\n').count() + 1);
    }
}

//! Each rule family fires on its kernel of `tests/kernels/` and its candidate survives Houdini
//! on the two-thread program (the kernels' own loop invariants removed), as the inference
//! report ([`gpu_passes::invariants::InferenceReport`]) shows.

mod invariants_common;

use gpu_passes::driver::verify_with_inference;
use gpu_passes::invariants::report::Status;
use gpu_passes::invariants::*;
use invariants_common::*;

/// (kernel, rule, candidate as printed; sizes given in the kernel's `//args:` are literals).
const EXPECTED: &[(&str, &str, &str)] = &[
    // bounds
    ("infer_counter_range", "counter-bound", "i <= 4 * local_id_x + 3"),
    ("infer_bound_bv", "counter-bound", "BV32_ULE(BV32_MUL(tid, 4bv32), i)"),
    ("reduce_tree_infer", "guard-nonneg", "0 <= s"),
    ("reduce_pow2_bv_infer", "guard-bound", "BV32_ULE(i, 64bv32)"),
    // uniformity
    ("reduce_tree_infer", "uniform-counter", "__uniform(s)"),
    ("reduce_tree_infer", "uniform-guard", "__uniform(s > 0)"),
    ("reduce_tree_infer", "uniform-enabled", "__uniform(__enabled())"),
    ("infer_uniform_delta", "uniform-counter-delta", "__uniform(i - local_id_x)"),
    ("infer_equal", "equal-when-enabled", "__enabled() && __other(__enabled()) ==> __uniform(i)"),
    // access patterns
    ("access_offset_infer", "access-offset", "__write(A) ==> __write_offset(A) - 1 == local_id_x"),
    ("access_strided_infer", "access-strided", "__write(A) ==> __write_offset(A) mod 64 == local_id_x"),
    ("access_temporary_infer", "access-strided", "__write(A) ==> __write_offset(A) mod 64 == local_id_x"),
    ("infer_offset2d", "access-strided", "__write(A) ==> __write_offset(A) mod 64 == local_id_y * 8 + local_id_x"),
    ("access_strength_reduced_infer", "strength-reduced", "i mod 64 == local_id_x"),
    ("grid_stride", "grid-stride", "i mod (16 * 4) == group_id_x * 16 + local_id_x"),
    ("grid_stride", "grid-stride", "__write(A) ==> __write_offset(A) mod (16 * 4) == group_id_x * 16 + local_id_x"),
    ("access_contiguous_infer", "access-contiguous", "__write(A) ==> __write_offset(A) < local_id_x * 8 + 8"),
    ("infer_contiguous_group", "access-contiguous-group", "__write(out) ==> group_id_x * 16 <= __write_offset(out)"),
    ("infer_group_block", "access-group-block", "__write(out) ==> __write_offset(out) < group_id_x * 16 + 16"),
    ("infer_counter_range", "access-counter-range", "__write(A) ==> 4 * local_id_x <= __write_offset(A)"),
    ("infer_digits", "access-digit", "__write(A) ==> BV32_UREM(__write_offset(A), 8bv32) == lx"),
    ("infer_digits", "access-digit", "__write(A) ==> BV32_UDIV(BV32_UREM(__write_offset(A), 32bv32), 8bv32) == gx"),
    (
        "infer_digits",
        "access-digit",
        "__write(A) ==> BV32_UREM(BV32_UDIV(__write_offset(A), BV32_MUL(8bv32, 32bv32)), 4bv32) == ly",
    ),
    ("infer_guarded", "access-offset-any", "__read(A) ==> __read_offset(A) == local_id_x || __read_offset(A) - s == local_id_x"),
    ("infer_aligned", "aligned-counter", "BV32_UREM(off, 4bv32) == 0bv32"),
    // zero or a power of two
    ("reduce_pow2_bv_infer", "pow2", "BV32_AND(i, BV32_SUB(i, 1bv32)) == 0bv32"),
    ("reduce_pow2_bv_infer", "pow2-nonzero", "i != 0bv32"),
    ("reduce_pow2_bv_infer", "pow2-bound", "BV32_ULT(i, 128bv32)"),
    ("infer_pow2", "pow2", "i == 1 || i == 2 || i == 4 || i == 8 || i == 16 || i == 32 || i == 64 || i == 128"),
    // no access at the head of a barrier loop
    ("reduce_tree_infer", "no-access-at-barrier-loop", "!__write(sdata)"),
    ("reduce_tree_infer", "no-access-at-barrier-loop", "!__read(sdata)"),
    // accesses under their conditions
    ("infer_guarded", "access-guarded", "__write(A) ==> local_id_x < s"),
    // enabledness
    ("reduce_tree_infer", "guard-implies-enabled", "s > 0 ==> __enabled()"),
    ("reduce_chunked", "enabled-implies-condition", "__enabled() ==> local_id_x == 0"),
    // uniform values (the Blelloch scan's down-sweep)
    (
        "scan_blelloch",
        "uniform-values",
        "(offset == 16 && d == 1) || (offset == 8 && d == 2) || (offset == 4 && d == 4) || (offset == 2 && d == 8) || (offset == 1 && d == 16)",
    ),
    // relations
    ("infer_linear", "linear-counters", "i - local_id_x == k * 32"),
];

#[test]
fn each_rule_fires_on_its_kernel_and_survives() {
    let mut kernels: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    kernels.sort();
    kernels.dedup();
    let mut problems = Vec::new();
    for name in kernels {
        let (_, args) = header(name);
        let p = strip_loop_invariants(&load(name));
        let (r, report) = verify_with_inference(&p, &kernel_options(&args), &verify_options(), true);
        let report = report.expect("asked for the report");
        for (_, rule, text) in EXPECTED.iter().filter(|e| e.0 == name) {
            match report.candidates.iter().find(|c| c.rule == *rule && c.text == *text) {
                None => problems.push(format!("{name}: `{rule}` did not propose `{text}`")),
                Some(c) if !matches!(c.status, Status::Kept | Status::PartlyKept) => {
                    problems.push(format!("{name}: `{text}` ({rule}) was {} ({})", c.status.as_str(), describe(&r)))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn every_rule_family_has_a_kernel() {
    // The contract rules are covered by `invariants_gen` (generation) only: kivl inlines calls,
    // so no kernel needs a callee's contract.
    let covered: Vec<&str> = EXPECTED.iter().map(|e| e.1).collect();
    let missing: Vec<&&str> = RULES.iter().filter(|r| !covered.contains(r)).collect();
    assert!(
        missing.iter().all(|r| ["callee-output", "callee-uniform-param"].contains(r)),
        "rules without a kernel: {missing:?}"
    );
}

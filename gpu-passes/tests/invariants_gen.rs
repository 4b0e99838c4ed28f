//! Candidate generation (`gpu_passes::invariants::add_candidates`): the output type-checks and
//! round-trips through the printer, candidates go where loop invariants go (structured and goto
//! loops), and each rule family proposes its candidate on the kernels it is meant for.

mod invariants_common;

use gpu_passes::invariants::*;
use invariants_common::*;

/// A tool, not a test: `KIVL_DUMP=name cargo test --test invariants_gen dump -- --ignored
/// --nocapture` prints a corpus kernel with its candidates.
#[test]
#[ignore]
fn dump_for_inspection() {
    let Ok(name) = std::env::var("KIVL_DUMP") else {
        return;
    };
    let p = strip_loop_invariants(&load(&name));
    let (q, info) = add_candidates(&p);
    println!("{}", ivl::printer::print_program(&q));
    println!("{:?}", info.per_rule());
}

/// The candidates of a kernel (its loop invariants removed) as `(rule, printed clause)`.
fn candidates_of(name: &str, sizes: Option<[u64; 3]>) -> Vec<(&'static str, String)> {
    let p = strip_loop_invariants(&load(name));
    let opts = GenOptions { sizes: Sizes { local: sizes, groups: None } };
    let (_, info) = add_candidates_with(&p, &opts);
    info.candidates.iter().map(|c| (c.rule, c.text.clone())).collect()
}

fn assert_has(name: &str, sizes: Option<[u64; 3]>, rule: &str, text: &str) {
    let cs = candidates_of(name, sizes);
    assert!(cs.iter().any(|(r, t)| *r == rule && t == text), "{name}: no `{rule}` candidate `{text}` among {cs:#?}");
}

#[test]
fn output_type_checks_and_round_trips_on_every_corpus_kernel() {
    let mut checked = 0;
    for name in corpus() {
        let Ok(original) = try_load(&name) else { continue };
        for p in [original.clone(), strip_loop_invariants(&original)] {
            let (q, info) = add_candidates(&p);
            let diags = ivl::check::check_program(&q);
            assert!(diags.is_empty(), "{name}: {diags:?}\n{}", ivl::printer::print_program(&q));
            // Printed and parsed again, the program is the same and still checks.
            let text = ivl::printer::print_program(&q);
            let (mut r, d) = ivl::parser::parse_program(&text);
            assert!(d.is_empty(), "{name}: {d:?}\n{text}");
            assert!(ivl::check::check_program(&r).is_empty(), "{name}");
            let mut q2 = q.clone();
            ivl::visit::strip_spans(&mut q2);
            ivl::visit::strip_spans(&mut r);
            assert_eq!(q2, r, "{name}: printing loses something");
            // Every candidate is in the output exactly once, with its id.
            for c in &info.candidates {
                let tag = format!("{{:rule \"{}\", {}}}", c.rule, c.id);
                assert_eq!(text.matches(&tag).count(), 1, "{name}: {tag}");
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn loop_kernels_get_candidates_and_loop_free_kernels_none() {
    let (_, info) = add_candidates(&load("access_offset_infer"));
    assert_eq!(info.loops.len(), 1);
    assert!(!info.candidates.is_empty());
    let (q, info) = add_candidates(&load("seed002_ww"));
    assert!(info.loops.is_empty() && info.candidates.is_empty());
    assert_eq!(q, load("seed002_ww"));
}

#[test]
fn rule_access_offset() {
    assert_has("access_offset_infer", None, "access-offset", "__write(A) ==> __write_offset(A) - 1 == local_id_x");
    assert_has("access_offset_infer", None, "access-offset", "__read(A) ==> __read_offset(A) - 1 == local_id_x");
}

#[test]
fn rule_access_strided_with_linearised_id() {
    assert_has(
        "access_strided_infer",
        None,
        "access-strided",
        "__write(A) ==> __write_offset(A) mod group_size_x == local_id_x",
    );
    assert_has(
        "infer_offset2d",
        None,
        "access-strided",
        "__write(A) ==> __write_offset(A) mod 64 == local_id_y * 8 + local_id_x",
    );
}

#[test]
fn rule_strength_reduced() {
    assert_has("access_strength_reduced_infer", None, "strength-reduced", "i mod group_size_x == local_id_x");
    assert_has(
        "access_strength_reduced_infer",
        None,
        "access-strided",
        "__write(A) ==> __write_offset(A) mod group_size_x == local_id_x",
    );
    // A grid-stride counter (its step is the grid's size): the residue is the thread's global
    // id, i = gid * gsz + lid + k * gsz * ngroups.
    assert_has(
        "histogram",
        None,
        "grid-stride",
        "i mod (group_size_x * num_groups_x) == group_id_x * group_size_x + local_id_x",
    );
}

#[test]
fn rule_access_contiguous_with_local_and_group_ids() {
    assert_has(
        "access_contiguous_infer",
        None,
        "access-contiguous",
        "__write(A) ==> local_id_x * 8 <= __write_offset(A)",
    );
    assert_has(
        "access_contiguous_infer",
        None,
        "access-contiguous",
        "__write(A) ==> __write_offset(A) < local_id_x * 8 + 8",
    );
    assert_has(
        "infer_contiguous_group",
        None,
        "access-contiguous-group",
        "__write(out) ==> group_id_x * 16 <= __write_offset(out)",
    );
    assert_has(
        "infer_contiguous_group",
        None,
        "access-contiguous-group",
        "__write(out) ==> __write_offset(out) < group_id_x * 16 + 16",
    );
}

#[test]
fn rule_bounds_int_and_bit_vector() {
    assert_has("infer_counter_range", None, "counter-bound", "i <= 4 * local_id_x + 3");
    assert_has(
        "infer_counter_range",
        None,
        "access-counter-range",
        "__write(A) ==> 4 * local_id_x <= __write_offset(A)",
    );
    assert_has(
        "infer_counter_range",
        None,
        "access-counter-range",
        "__write(A) ==> __write_offset(A) <= 4 * local_id_x + 3",
    );
    assert_has("reduce_tree_infer", None, "guard-nonneg", "0 <= s");
    assert_has("access_offset_infer", None, "guard-bound", "i <= n");
    // Bit-vectors: both signednesses, with the kernel's own functions where it has them.
    assert_has("infer_bound_bv", None, "counter-bound", "BV32_ULE(BV32_MUL(tid, 4bv32), i)");
    assert_has("infer_bound_bv", None, "counter-bound", "BV32_SLE(BV32_MUL(tid, 4bv32), i)");
    assert_has("reduce_pow2_bv_infer", None, "guard-bound", "BV32_ULE(i, gsz)");
}

#[test]
fn rule_uniformity() {
    assert_has("reduce_tree_infer", None, "uniform-counter", "__uniform(s)");
    assert_has("reduce_tree_infer", None, "uniform-guard", "__uniform(s > 0)");
    assert_has("reduce_tree_infer", None, "uniform-enabled", "__uniform(__enabled())");
    assert_has("infer_uniform_delta", None, "uniform-counter-delta", "__uniform(i - local_id_x)");
    assert_has("infer_equal", None, "equal-when-enabled", "__enabled() && __other(__enabled()) ==> __uniform(i)");
}

#[test]
fn rule_pow2_bit_vector_and_int() {
    let sz = Some([64, 1, 1]);
    assert_has("reduce_pow2_bv_infer", sz, "pow2", "BV32_AND(i, BV32_SUB(i, 1bv32)) == 0bv32");
    assert_has("reduce_pow2_bv_infer", sz, "pow2-nonzero", "i != 0bv32");
    for k in 0..=7 {
        assert_has("reduce_pow2_bv_infer", sz, "pow2-bound", &format!("BV32_ULT(i, {}bv32)", 1u64 << k));
    }
    assert_has(
        "infer_pow2",
        sz,
        "pow2",
        "i == 0 || i == 1 || i == 2 || i == 4 || i == 8 || i == 16 || i == 32 || i == 64 || i == 128",
    );
    assert_has("infer_pow2", sz, "pow2-bound", "i < 128");
    // Without a known group size there is no bound family (and no disjunction for integers).
    let cs = candidates_of("infer_pow2", None);
    assert!(cs.iter().all(|(r, _)| *r != "pow2-bound" && *r != "pow2"), "{cs:?}");
}

#[test]
fn rule_no_access_only_for_written_arrays_in_barrier_loops() {
    assert_has("reduce_tree_infer", None, "no-access-at-barrier-loop", "!__read(sdata)");
    assert_has("reduce_tree_infer", None, "no-access-at-barrier-loop", "!__write(sdata)");
    let cs = candidates_of("reduce_tree_infer", None);
    // `input` is never written: it cannot race.
    assert!(cs.iter().all(|(_, t)| !t.contains("input")), "{cs:?}");
    let cs = candidates_of("access_offset_infer", None);
    assert!(cs.iter().all(|(r, _)| *r != "no-access-at-barrier-loop"), "{cs:?}");
}

#[test]
fn rule_access_guarded_and_several_offsets() {
    assert_has("infer_guarded", None, "access-guarded", "__write(A) ==> local_id_x < s");
    assert_has(
        "infer_guarded",
        None,
        "access-offset-any",
        "__read(A) ==> __read_offset(A) == local_id_x || __read_offset(A) - s == local_id_x",
    );
}

#[test]
fn rule_enabledness() {
    let cs = candidates_of("reduce_tree_infer", None);
    assert!(!cs.iter().any(|(_, t)| t == "__enabled() ==> s > 0"), "{cs:?}");
    assert_has("reduce_chunked", None, "enabled-implies-condition", "__enabled() ==> local_id_x == 0");
    assert_has("reduce_tree_infer", None, "guard-implies-enabled", "s > 0 ==> __enabled()");
}

#[test]
fn rule_uniform_values() {
    assert_has(
        "scan_blelloch",
        None,
        "uniform-values",
        "(offset == 16 && d == 1) || (offset == 8 && d == 2) || (offset == 4 && d == 4) || (offset == 2 && d == 8) || (offset == 1 && d == 16)",
    );
    // With the group size known, bounds that depend on it are simulated too.
    assert_has(
        "infer_pow2",
        Some([64, 1, 1]),
        "uniform-values",
        "i == 1 || i == 2 || i == 4 || i == 8 || i == 16 || i == 32 || i == 64",
    );
    let cs = candidates_of("infer_pow2", None);
    assert!(cs.iter().all(|(r, _)| *r != "uniform-values"), "{cs:?}");
    // A parameter bound is not known: no candidate.
    let cs = candidates_of("access_offset_infer", None);
    assert!(cs.iter().all(|(r, _)| *r != "uniform-values"), "{cs:?}");
}

#[test]
fn rule_linear_counters() {
    assert_has("infer_linear", None, "linear-counters", "i - local_id_x == k * 32");
}

#[test]
fn rule_callee_contracts() {
    let p = parse_checked(
        "var {:global} out: [int]int;\n\
         procedure index(g: int, l: int) returns (r: int) { r := g * 64 + l; }\n\
         procedure {:barrier} sync();\n\
         procedure step(k: int) { call sync(); }\n\
         procedure {:kernel} k() { var i: int; call i := index(group_id_x, local_id_x); out[i] := 0; call step(1); }",
    );
    let (q, info) = add_candidates(&p);
    let got: Vec<(&str, &str, bool)> =
        info.candidates.iter().map(|c| (c.rule, c.text.as_str(), c.site == CandidateSite::Requires)).collect();
    assert!(got.contains(&("callee-output", "r == g * 64 + l", false)), "{got:?}");
    assert!(got.contains(&("callee-uniform-param", "__uniform(k)", true)), "{got:?}");
    assert!(got.contains(&("callee-uniform-param", "__uniform(__enabled())", true)), "{got:?}");
    assert!(ivl::check::check_program(&q).is_empty());
}

#[test]
fn goto_loops_get_leading_asserts_at_their_header() {
    let p = strip_loop_invariants(&load("strided_goto"));
    let text = ivl::printer::print_program(&p);
    assert!(!text.contains("assert i mod"), "the user's invariants are gone:\n{text}");
    let (q, info) = add_candidates(&p);
    assert_eq!(info.loops.len(), 1);
    let text = ivl::printer::print_program(&q);
    let head = text.find("head:").expect("the header label");
    let after: Vec<&str> = text[head..].lines().skip(1).take_while(|l| l.trim_start().starts_with("assert")).collect();
    assert_eq!(after.len(), info.candidates.len(), "{text}");
    assert!(after.iter().all(|l| l.contains("{:candidate}")));
    assert!(after.iter().any(|l| l.contains("i mod group_size_x == local_id_x")), "{after:?}");
    // The goto loop of a Bugle-style kernel, with `$` names.
    let (_, info) = add_candidates(&strip_loop_invariants(&load("reduce_tree_goto")));
    let texts: Vec<&str> = info.candidates.iter().map(|c| c.text.as_str()).collect();
    assert!(texts.contains(&"__uniform($s)") && texts.contains(&"!__write($$sdata)"), "{texts:?}");
}

#[test]
fn strip_keeps_free_invariants_and_other_asserts() {
    let p = parse_checked(
        "procedure {:kernel} k(n: int) { var i: int; i := 0; assert i == 0;\n\
         while (i < n) invariant i >= 0; free invariant i <= n || n < 0; { i := i + 1; } }",
    );
    let text = ivl::printer::print_program(&strip_loop_invariants(&p));
    assert!(
        text.contains("free invariant") && text.contains("assert i == 0;") && !text.contains("invariant i >= 0"),
        "{text}"
    );
}

#[test]
fn candidate_spans_are_unique_and_map_back() {
    let (_, info) = add_candidates(&strip_loop_invariants(&load("histogram")));
    for c in &info.candidates {
        assert_eq!(candidate_of_span(c.span), Some(c.id));
        assert_eq!(c.span.start, c.at.start, "a candidate's location is its loop's");
    }
    let ids: std::collections::BTreeSet<usize> = info.candidates.iter().map(|c| c.id).collect();
    assert_eq!(ids.len(), info.candidates.len());
}

#[test]
fn removing_candidates_by_id() {
    let p = strip_loop_invariants(&load("access_strength_reduced_infer"));
    let (q, info) = add_candidates(&p);
    let gone: std::collections::BTreeSet<usize> =
        info.candidates.iter().filter(|c| c.rule == "counter-bound").map(|c| c.id).collect();
    assert!(!gone.is_empty());
    let r = remove_candidates(&q, &gone);
    let text = ivl::printer::print_program(&r);
    assert!(!text.contains("counter-bound") && text.contains("strength-reduced"), "{text}");
    let all: std::collections::BTreeSet<usize> = info.candidates.iter().map(|c| c.id).collect();
    let mut stripped = remove_candidates(&q, &all);
    let mut orig = p.clone();
    ivl::visit::strip_spans(&mut stripped);
    ivl::visit::strip_spans(&mut orig);
    assert_eq!(stripped, orig);
}

#[test]
fn missing_bit_vector_operators_are_declared() {
    // The kernel declares no comparison: the bounds need `bvule`/`bvsle`, declared once each.
    let p = parse_checked(
        "const {:local_id_x} tid: bv32;\n\
         function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32): bv32;\n\
         var {:group_shared} A: [bv32]bv32;\n\
         procedure {:kernel} k(n: bv32) { var i: bv32; i := tid; while (i != n) { A[i] := 0bv32; i := ADD(i, 16bv32); } }",
    );
    let (q, _) = add_candidates(&p);
    let text = ivl::printer::print_program(&q);
    assert_eq!(text.matches("{:bvbuiltin \"bvule\"}").count(), 1, "{text}");
    assert_eq!(text.matches("{:bvbuiltin \"bvsle\"}").count(), 1, "{text}");
    assert!(text.contains("BV32_UREM(i, 16bv32) == tid"), "{text}");
    assert!(ivl::check::check_program(&q).is_empty());
}

#[test]
fn candidates_in_loops_of_called_procedures() {
    let p = parse_checked(
        "var {:group_shared} A: [int]int;\n\
         procedure fill(base: int, n: int) { var i: int; i := 0; while (i < n) { A[base + i * 32] := i; i := i + 1; } }\n\
         procedure {:kernel} k() { call fill(local_id_x, 4); }",
    );
    let (q, info) = add_candidates(&p);
    assert_eq!(info.loops.len(), 1);
    assert_eq!(info.loops[0].proc.as_str(), "fill");
    assert!(info.candidates.iter().any(|c| c.rule == "counter-bound" && c.text == "0 <= i"));
    assert!(ivl::check::check_program(&q).is_empty());
}

#[test]
fn literal_sizes_only_for_fixed_dimensions() {
    let p = parse_checked(
        "axiom group_size_x == 16;\n\
         var {:group_shared} A: [int]int;\n\
         procedure {:kernel} k(group_size_z: int) { A[local_id_y * group_size_x + local_id_x] := group_size_y + group_size_z; }",
    );
    // The axiom fixes x only: y stays symbolic.
    let text = ivl::printer::print_program(&literal_sizes(&p, &Sizes::default()));
    assert!(text.contains("A[local_id_y * 16 + local_id_x] := group_size_y + group_size_z;"), "{text}");
    // Given sizes fix every dimension; a parameter named like a size constant shadows it.
    let given = Sizes { local: Some([16, 2, 1]), groups: None };
    let q = literal_sizes(&p, &given);
    let text = ivl::printer::print_program(&q);
    assert!(text.contains(":= 2 + group_size_z;"), "{text}");
    assert!(ivl::check::check_program(&q).is_empty());
}

//! The lock-step program (seed 000 §4.2, Table 3) of the kernel of Fig. 3 for two threads,
//! checked against Fig. 7 (`tests/golden/fig3.lockstep2.kbpl`, a golden file; regenerate with
//! `UPDATE_GOLDEN=1`) and statement by statement for the blocks Fig. 7 shows.

use gpu_passes::lockstep::lockstep_program;
use ivl::ast::*;
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

fn parse_file(path: &PathBuf) -> Program {
    let text = std::fs::read_to_string(path).unwrap();
    let (p, diags) = ivl::parser::parse_program(&text);
    assert!(diags.is_empty(), "{}: {diags:?}", path.display());
    p
}

fn check_golden(name: &str, text: &str) {
    let path = golden(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(expected == text, "{} differs from the output:\n{text}", path.display());
}

fn lockstep(ts: usize) -> Program {
    lockstep_program(&parse_file(&golden("fig3.kbpl")), ts).expect("lock-step construction succeeds")
}

fn block_text(p: &Program, label: &str) -> Vec<String> {
    let stmts = &p.implementations().next().unwrap().body.stmts;
    let start = stmts.iter().position(|s| matches!(&s.kind, StmtKind::Label(l) if l.name == label)).unwrap();
    stmts[start + 1..]
        .iter()
        .take_while(|s| !matches!(s.kind, StmtKind::Label(_)))
        .map(|s| ivl::printer::print_stmt(s).trim().to_string())
        .collect()
}

#[test]
fn fig3_lockstep_matches_golden() {
    let text = ivl::printer::print_program(&lockstep(2));
    check_golden("fig3.lockstep2.kbpl", &text);
    let (_, diags) = ivl::parser::parse_program(&text);
    assert!(diags.is_empty(), "{diags:?}");
}

/// Fig. 7 for TS = 2 (block ids as in the predicated program: B2 8, Wlast 9, W 2, Wend 10).
#[test]
fn fig3_lockstep_blocks_are_figure_7() {
    let p = lockstep(2);
    assert_eq!(
        block_text(&p, "B2"),
        [
            "assert {:check \"divergence\"} {:msg \"possible barrier divergence: not every thread reaches this barrier\"} v_active$1 == 8 || v_active$2 == 8 ==> v_active$1 == 8 && v_active$2 == 8;",
            "havoc v_next$1, v_next$2;",
            "assume v_next$1 == 9 && v_next$2 == 9;",
            "v_active$1, v_active$2 := if v_active$1 == 8 then v_next$1 else v_active$1, if v_active$2 == 8 then v_next$2 else v_active$2;",
            "goto Wlast;",
        ]
    );
    assert_eq!(
        block_text(&p, "Wlast"),
        [
            "offset$1, offset$2 := if v_active$1 == 9 then 2 * offset$1 else offset$1, if v_active$2 == 9 then 2 * offset$2 else offset$2;",
            "havoc v_next$1, v_next$2;",
            "assume (v_next$1 == 2 || v_next$1 == 10) && (v_next$2 == 2 || v_next$2 == 10);",
            "assume (v_active$1 == 9 ==> (v_next$1 == 2 ==> offset$1 < TS) && (v_next$1 == 10 ==> offset$1 >= TS)) && (v_active$2 == 9 ==> (v_next$2 == 2 ==> offset$2 < TS) && (v_next$2 == 10 ==> offset$2 >= TS));",
            "v_active$1, v_active$2 := if v_active$1 == 9 then v_next$1 else v_active$1, if v_active$2 == 9 then v_next$2 else v_active$2;",
            "goto W_back, W_exit;",
        ]
    );
    assert_eq!(block_text(&p, "W_back"), ["assume v_active$1 == 2 || v_active$2 == 2;", "goto W;"]);
    assert_eq!(block_text(&p, "W_exit"), ["assume v_active$1 != 2 && v_active$2 != 2;", "goto Wend;"]);
}

/// The ψ-assignment of the shared write in I2 and the per-thread copies of `tid`.
#[test]
fn fig3_lockstep_shared_write_is_a_psi_assignment() {
    let p = lockstep(2);
    let i2 = block_text(&p, "I2");
    assert!(i2[0].starts_with("sum$psi_g1, sum$psi_i0_1, sum$psi_v1, sum$psi_g2, sum$psi_i0_2, sum$psi_v2 := v_active$1 == 7, tid$1, sum[tid$1] + temp$1,"), "{i2:?}");
    assert_eq!(i2[1], "havoc psi$prio1, psi$prio2;");
    assert_eq!(i2[2], "sum[sum$psi_i0_1] := if sum$psi_g1 && !(sum$psi_g2 && psi$prio2 > psi$prio1 && sum$psi_i0_2 == sum$psi_i0_1) then sum$psi_v1 else sum[sum$psi_i0_1];");
    let text = ivl::printer::print_program(&p);
    assert!(
        text.contains("axiom tid$1 == 0;") && text.contains("axiom tid$2 == 1;") && text.contains("axiom TS == 2;")
    );
}

/// One thread: the lock-step program is the predicated program with renamed variables.
#[test]
fn one_thread_lockstep_has_single_copies() {
    let p = lockstep(1);
    assert_eq!(block_text(&p, "W_back"), ["assume v_active$1 == 2;", "goto W;"]);
    assert_eq!(block_text(&p, "I2")[1], "sum[sum$psi_i0_1] := if sum$psi_g1 then sum$psi_v1 else sum[sum$psi_i0_1];");
}

//! The paper's running example: the kernel of seed 000 Fig. 3 (`tests/golden/fig3.kbpl`), its
//! predicated form checked against Fig. 5 (`tests/golden/fig3.predicated.kbpl`, a golden file;
//! regenerate with `UPDATE_GOLDEN=1`), and the predicated program's blocks checked statement
//! by statement against Table 2 / Fig. 5.

use gpu_passes::predication::predicate_program;
use ivl::ast::*;
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

fn parse(path: &PathBuf) -> Program {
    let text = std::fs::read_to_string(path).unwrap();
    let (p, diags) = ivl::parser::parse_program(&text);
    assert!(diags.is_empty(), "{}: {diags:?}", path.display());
    p
}

/// Compares `text` with the golden file, or rewrites it under `UPDATE_GOLDEN=1`.
pub fn check_golden(name: &str, text: &str) {
    let path = golden(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(expected == text, "{} differs from the output:\n{text}", path.display());
}

fn predicated() -> Program {
    predicate_program(&parse(&golden("fig3.kbpl"))).expect("predication succeeds")
}

fn body_of(p: &Program) -> &Body {
    &p.implementations().next().unwrap().body
}

/// The printed statements of block `label` (up to the next label), one per line.
fn block_text(p: &Program, label: &str) -> Vec<String> {
    let stmts = &body_of(p).stmts;
    let start = stmts.iter().position(|s| matches!(&s.kind, StmtKind::Label(l) if l.name == label)).unwrap();
    stmts[start + 1..]
        .iter()
        .take_while(|s| !matches!(s.kind, StmtKind::Label(_)))
        .map(|s| ivl::printer::print_stmt(s).trim().to_string())
        .collect()
}

#[test]
fn fig3_predicated_matches_golden() {
    let text = ivl::printer::print_program(&predicated());
    check_golden("fig3.predicated.kbpl", &text);
    // The golden file is itself a program.
    let (_, diags) = ivl::parser::parse_program(&text);
    assert!(diags.is_empty(), "{diags:?}");
}

/// Fig. 5: the blocks B2, Wlast, Wback, Wexit and Wend (block ids are sort-order positions:
/// Start 1, W 2, I1n 3, I1 4, B1 5, I2n 6, I2 7, B2 8, Wlast 9, Wend 10 — the order with I1/I1'
/// and I2/I2' swapped, which §4 allows; End is 12, after the final barrier block 11).
#[test]
fn fig3_predicated_blocks_are_figure_5() {
    let p = predicated();
    assert_eq!(
        block_text(&p, "B2"),
        [
            "barrier {:enabled v_active == 8};",
            "havoc v_next;",
            "assume v_next == 9;",
            "v_active := if v_active == 8 then v_next else v_active;",
            "goto Wlast;",
        ]
    );
    assert_eq!(
        block_text(&p, "Wlast"),
        [
            "offset := if v_active == 9 then 2 * offset else offset;",
            "havoc v_next;",
            "assume v_next == 2 || v_next == 10;",
            "assume v_active == 9 ==> (v_next == 2 ==> offset < TS) && (v_next == 10 ==> offset >= TS);",
            "v_active := if v_active == 9 then v_next else v_active;",
            "goto W_back, W_exit;",
        ]
    );
    assert_eq!(block_text(&p, "W_back"), ["assume v_active == 2;", "goto W;"]);
    assert_eq!(block_text(&p, "W_exit"), ["assume v_active != 2;", "goto Wend;"]);
    // Wend's guard moved into Start and Wlast; the final barrier of §4 follows it.
    assert_eq!(
        block_text(&p, "Wend"),
        [
            "havoc v_next;",
            "assume v_next == 11;",
            "v_active := if v_active == 10 then v_next else v_active;",
            "goto End;"
        ]
    );
    let start = block_text(&p, "Start");
    assert_eq!(start[0], "v_active := 1;", "step (3): v_active := Start first");
}

/// Table 1 on the other statement forms: the guarded read, the map write, the guards of I1/I1n
/// moved into W.
#[test]
fn fig3_predicated_statements_follow_table_1() {
    let p = predicated();
    assert_eq!(block_text(&p, "I1")[0], "temp := if v_active == 4 then sum[tid - offset] else temp;");
    assert_eq!(block_text(&p, "I2")[0], "sum := if v_active == 7 then sum[tid := sum[tid] + temp] else sum;");
    assert!(block_text(&p, "W").contains(
        &"assume v_active == 2 ==> (v_next == 4 ==> tid >= offset) && (v_next == 3 ==> tid < offset);".to_string()
    ));
}

//! Every GPUVerify-generated file of the corpus (goto-form loops whose headers lead with
//! `assert {:tag ..} _bN ==> inv` candidate invariants, `{:inline 1}` procedures, calls of
//! contract-only procedures) desugars without diagnostics into acyclic, call-free, old-free
//! bodies, and every candidate invariant stays an invariant check.

use ivl::ast::StmtKind;
use ivl::blocks::check_kind;
use std::path::Path;

/// Seed 000 §4.1 on real CFGs: the sort order lists each reachable block once, edges other than
/// back edges go forward, and every loop is contiguous with its header first.
fn check_sort_order(imp: &ivl::blocks::BlockImpl, f: &Path) {
    let cfg = ivl::cfg::Cfg::new(imp);
    assert!(cfg.is_reducible(), "{}: irreducible", f.display());
    let order = cfg.sort_order();
    assert_eq!(order.len(), cfg.reverse_postorder().len(), "{}", f.display());
    let mut pos = vec![usize::MAX; imp.blocks.len()];
    for (i, &b) in order.iter().enumerate() {
        pos[b] = i;
    }
    for &u in &order {
        for &v in cfg.successors(u) {
            assert!(cfg.is_back_edge(u, v) || pos[u] < pos[v], "{}: edge goes backwards", f.display());
        }
    }
    for l in cfg.loops() {
        let ps: Vec<usize> = l.body.iter().map(|&b| pos[b]).collect();
        let lo = *ps.iter().min().unwrap();
        assert_eq!(ps.iter().max().unwrap() - lo + 1, l.body.len(), "{}: loop not contiguous", f.display());
        assert_eq!(order[lo], l.header, "{}", f.display());
    }
}

#[test]
fn gpuverify_corpus_prepares_without_diagnostics() {
    let Some(root) = ivl::corpus::gpu() else { return };
    let files = ivl::corpus::bpl_files(&root.join("gpuverify"));
    assert!(!files.is_empty(), "no .bpl files under {}/gpuverify", root.display());
    let mut failures = Vec::new();
    let (mut impls, mut candidate_checks) = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let (program, d) = ivl::parser::parse_program(&text);
        if !d.is_empty() {
            // The parser's own tests cover this; desugaring needs a parsed program.
            failures.push(format!("{}: parse: {}", f.display(), d[0].message));
            continue;
        }
        for imp in program.implementations() {
            check_sort_order(&ivl::lower::lower_body(imp).unwrap(), f);
        }
        let inputs = match vcgen::desugar::prepare(&program) {
            Ok(v) => v,
            Err(d) => {
                failures.push(format!("{}: {}", f.display(), d[0].message));
                continue;
            }
        };
        assert!(!inputs.is_empty(), "{}: nothing to verify", f.display());
        for v in &inputs {
            impls += 1;
            let cfg = ivl::cfg::Cfg::new(&v.imp);
            assert!(cfg.is_acyclic(), "{}: {} is cyclic", f.display(), v.imp.name.name);
            assert_eq!(cfg.reverse_postorder().len(), v.imp.blocks.len(), "unreachable blocks left");
            for b in &v.imp.blocks {
                assert!(!vcgen::desugar::old::contains_old(&b.stmts), "{}: old left", f.display());
                for s in &b.stmts {
                    match &s.kind {
                        StmtKind::Assert { attrs, expr } => {
                            let kind = check_kind(attrs);
                            let candidate = ivl::visit::free_vars(expr).iter().any(|n| n.starts_with("_b"));
                            if candidate && ivl::ast::has_attr(attrs, "tag") {
                                assert!(kind.starts_with("invariant-"), "{}: candidate checked as {kind}", f.display());
                                candidate_checks += 1;
                            }
                        }
                        StmtKind::Assume { .. } | StmtKind::Assign { .. } | StmtKind::Havoc(_) => {}
                        _ => panic!("{}: unexpected statement {:?}", f.display(), s.kind),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} files failed:\n{}", failures.len(), files.len(), failures.join("\n"));
    eprintln!("{} files, {impls} implementations, {candidate_checks} candidate invariant checks", files.len());
    assert!(candidate_checks > 0);
}

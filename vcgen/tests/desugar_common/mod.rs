//! Helpers shared by the desugaring tests.
#![allow(dead_code)]

use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use vcgen::desugar::{prepare_with_options, DesugarOptions, Stage, VcInput};

pub fn parse(text: &str) -> Program {
    let (p, d) = ivl::parser::parse_program(text);
    assert!(d.is_empty(), "parse errors: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
    let d = ivl::check::check_program(&p);
    assert!(d.is_empty(), "check errors: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
    p
}

pub fn prepare_at(text: &str, stage: Stage) -> Vec<VcInput> {
    let p = parse(text);
    let opts = DesugarOptions { stop_after: stage, ..Default::default() };
    match prepare_with_options(&p, &opts) {
        Ok(v) => v,
        Err(d) => panic!("desugaring failed: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()),
    }
}

/// The fully desugared implementation of procedure `name`.
pub fn vc(text: &str, name: &str) -> BlockImpl {
    vc_at(text, name, Stage::Calls)
}

pub fn vc_at(text: &str, name: &str, stage: Stage) -> BlockImpl {
    let vs = prepare_at(text, stage);
    let v = vs.into_iter().find(|v| v.imp.name.name == name).unwrap_or_else(|| panic!("no implementation {name}"));
    if stage == Stage::Calls {
        check_output_invariants(&v.imp);
    }
    v.imp
}

/// What every VC input must satisfy: acyclic, no call, no old, no structured statement.
pub fn check_output_invariants(imp: &BlockImpl) {
    assert!(ivl::cfg::is_acyclic(imp), "not acyclic:\n{}", show(imp));
    let text = show(imp);
    assert!(!text.contains("old("), "old remains:\n{text}");
    for b in &imp.blocks {
        for s in &b.stmts {
            assert!(
                matches!(
                    s.kind,
                    StmtKind::Assign { .. } | StmtKind::Havoc(_) | StmtKind::Assert { .. } | StmtKind::Assume { .. }
                ),
                "unexpected statement in {}: {}",
                b.label.name,
                ivl::printer::print_stmt(s)
            );
        }
    }
    let labels: std::collections::HashSet<&str> = imp.blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels.len(), imp.blocks.len(), "duplicate labels");
    for b in &imp.blocks {
        if let Terminator::Goto(ts) = &b.term {
            for t in ts {
                assert!(labels.contains(t.as_str()), "goto to missing block {}", t.name);
            }
        }
    }
}

pub fn show(imp: &BlockImpl) -> String {
    ivl::printer::print_decl(&imp.to_decl())
}

pub fn block<'a>(imp: &'a BlockImpl, label: &str) -> &'a Block {
    imp.blocks.iter().find(|b| b.label.name == label).unwrap_or_else(|| panic!("no block {label} in\n{}", show(imp)))
}

/// The statements of a block, printed one per entry.
pub fn lines(b: &Block) -> Vec<String> {
    b.stmts.iter().map(|s| ivl::printer::print_stmt(s).trim().to_string()).collect()
}

pub fn succs(b: &Block) -> Vec<String> {
    match &b.term {
        Terminator::Goto(ts) => ts.iter().map(|t| t.name.to_string()).collect(),
        Terminator::Return => vec![],
    }
}

/// The span of the first occurrence of `needle` in `text`.
pub fn span_of(text: &str, needle: &str) -> Span {
    let start = text.find(needle).unwrap_or_else(|| panic!("{needle} not in text"));
    Span::new(start, start + needle.len())
}

/// Every statement of the body, printed.
pub fn all_lines(imp: &BlockImpl) -> Vec<String> {
    imp.blocks.iter().flat_map(lines).collect()
}

/// Asserts with their check kind and related span.
pub fn checks(imp: &BlockImpl) -> Vec<(String, Option<Span>, Span, String)> {
    let mut out = Vec::new();
    for b in &imp.blocks {
        for s in &b.stmts {
            if let StmtKind::Assert { attrs, expr } = &s.kind {
                out.push((
                    ivl::blocks::check_kind(attrs).to_string(),
                    ivl::blocks::related_span(attrs),
                    s.span,
                    ivl::printer::print_expr(expr),
                ));
            }
        }
    }
    out
}

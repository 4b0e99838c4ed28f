//! Loop unwinding: bounded checking instead of loop cutting (`kivl verify --loop-unwind N`,
//! `--findbugs`; GPUVerify's `--loop-unwind=N` / `--findbugs`, Boogie's `/loopUnroll:N`).
//!
//! Every natural loop ([`ivl::cfg`]) is replaced, innermost first, by N copies of its body:
//! copy `k` is entered from copy `k-1`'s back edges (copy 0 keeps the original labels, so the
//! loop's entry edges need no change) and its exits leave to the loop's exits. The back edges
//! of the last copy go to a last copy of the header alone, whose edges into the loop go to a
//! block `assume false`: a loop may still exit after its N-th iteration (a `for` loop of N
//! iterations is run to its end), but executions that would start iteration N+1 are cut off.
//! What remains is acyclic and contains exactly the executions of the program that run every
//! loop at most N times in a row, each checked as straight-line code, so every error reachable
//! within N iterations is found and nothing beyond is proven (the caller must never report
//! "verified"). Blocks of an inner loop that cannot lead back to the outer loop's latch (its
//! cut-off copies) are outside the outer loop and shared by the outer loop's copies; as they
//! never rejoin the loop, this does not change the executions.
//!
//! Invariants are neither cut nor havocked over: the leading asserts of a header stay asserts
//! of each copy (checked at the start of iteration k+1, tagged `invariant-entry` in copy 0 and
//! `invariant-maintained` after), free invariants stay assumes. An invariant that fails there
//! fails in a real execution, so it is a real error of the program.

use super::loops::{check, leading_predicates};
use super::names::Fresh;
use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use std::collections::{HashMap, HashSet};

/// Unwinds every loop of `imp` `depth` times (at least once); see the module documentation.
pub fn unroll_loops(imp: &mut BlockImpl, depth: u64, fresh: &mut Fresh) -> Result<(), Diagnostic> {
    let depth = depth.max(1) as usize;
    loop {
        let cfg = Cfg::new(imp);
        cfg.check_reducible()?;
        let Some(l) = cfg.loops().iter().find(|l| l.children.is_empty()) else { return Ok(()) };
        let (header, body) = (l.header, l.body.clone());
        unroll_one(imp, header, &body, depth, fresh);
        ivl::cfg::remove_unreachable(imp);
    }
}

/// Replaces the loop with header `h` and blocks `body` (no inner loop) by `depth` copies and
/// a last copy of the header alone, which may only leave the loop.
fn unroll_one(imp: &mut BlockImpl, h: usize, body: &[usize], depth: usize, fresh: &mut Fresh) {
    let in_body: HashSet<usize> = body.iter().copied().collect();
    let index = imp.label_index();
    let label = |b: usize| imp.blocks[b].label.name.clone();
    let mut names: Vec<HashMap<usize, Name>> = vec![body.iter().map(|&b| (b, label(b))).collect()];
    for k in 1..=depth {
        let copied = body.iter().filter(|&&b| k < depth || b == h);
        names.push(copied.map(|&b| (b, fresh.make(&format!("{}$unroll{k}", label(b))))).collect());
    }
    let span = imp.blocks[h].span;
    let cut = fresh.make(&format!("{}$unroll$cut", label(h)));
    let mut copies = Vec::new();
    for (k, copy_names) in names.iter().enumerate() {
        for &b in body.iter().filter(|&&b| copy_names.contains_key(&b)) {
            let mut block = imp.blocks[b].clone();
            block.label.name = copy_names[&b].clone();
            if let Terminator::Goto(ts) = &mut block.term {
                for t in ts.iter_mut() {
                    let target = index[&t.name];
                    if k == depth && in_body.contains(&target) {
                        // The (depth+1)-th iteration would start: cut off.
                        t.name = cut.clone();
                    } else if target == h {
                        // A back edge (h dominates the body): on to the next copy.
                        t.name = names[k + 1][&h].clone();
                    } else if in_body.contains(&target) {
                        t.name = copy_names[&target].clone();
                    }
                }
            }
            if b == h {
                retag_invariants(&mut block, if k == 0 { "invariant-entry" } else { "invariant-maintained" });
            }
            copies.push((b, k, block));
        }
    }
    for (b, k, block) in copies {
        if k == 0 {
            imp.blocks[b] = block;
        } else {
            imp.blocks.push(block);
        }
    }
    let assume_false = Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: Expr::bool(false) }, span);
    imp.blocks.push(Block { label: Ident::new(cut, span), stmts: vec![assume_false], term: Terminator::Return, span });
}

/// The leading asserts of a header copy (its invariants) check `kind`.
fn retag_invariants(block: &mut Block, kind: &str) {
    let lead = leading_predicates(&block.stmts);
    for s in &mut block.stmts[..lead] {
        if matches!(s.kind, StmtKind::Assert { .. }) {
            *s = check(s, kind);
        }
    }
}

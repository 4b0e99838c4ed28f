//! CFG analyses on hand-made graphs: dominators, back edges, natural loops and their nesting,
//! reducibility diagnostics, orders, unreachable-block removal.

use ivl::ast::{Ident, Span};
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::cfg::{remove_unreachable, Cfg};

fn cfg(edges: &[&[usize]]) -> Cfg {
    Cfg::from_successors(edges.iter().map(|e| e.to_vec()).collect(), None)
}

/// Every non-back edge between reachable blocks goes forward in `order`.
fn assert_topological(c: &Cfg, order: &[usize]) {
    let pos: std::collections::HashMap<usize, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    for &u in order {
        for &v in c.successors(u) {
            if !c.is_back_edge(u, v) {
                assert!(pos[&u] < pos[&v], "edge {u}->{v} goes backwards in {order:?}");
            }
        }
    }
}

/// Seed 000 §4.1: the blocks of each loop are contiguous and the header is first.
fn assert_loops_contiguous(c: &Cfg, order: &[usize]) {
    for l in c.loops() {
        let positions: Vec<usize> = l.body.iter().map(|b| order.iter().position(|x| x == b).unwrap()).collect();
        let (lo, hi) = (*positions.iter().min().unwrap(), *positions.iter().max().unwrap());
        assert_eq!(hi - lo + 1, l.body.len(), "loop at {} is not contiguous in {order:?}", l.header);
        assert_eq!(order[lo], l.header, "loop header {} is not first in {order:?}", l.header);
    }
}

#[test]
fn diamond_has_no_loops_and_join_is_dominated_by_entry_only() {
    let c = cfg(&[&[1, 2], &[3], &[3], &[]]);
    assert!(c.is_reducible() && c.is_acyclic());
    assert!(c.loops().is_empty());
    assert_eq!(c.idom(3), Some(0));
    assert_eq!(c.idom(1), Some(0));
    assert!(c.dominates(0, 3) && !c.dominates(1, 3) && c.dominates(3, 3));
    assert_eq!(c.dominators_of(3), vec![3, 0]);
    assert_eq!(c.reverse_postorder()[0], 0);
    assert_eq!(*c.reverse_postorder().last().unwrap(), 3);
    assert_topological(&c, c.reverse_postorder());
}

#[test]
fn while_loop_shape() {
    // 0 -> head(1) -> body(2) -> head ; head -> done(3)
    let c = cfg(&[&[1], &[2, 3], &[1], &[]]);
    assert_eq!(c.back_edges(), &[(2, 1)]);
    assert_eq!(c.loops().len(), 1);
    let l = &c.loops()[0];
    assert_eq!(l.header, 1);
    assert_eq!(l.body, vec![1, 2]);
    assert_eq!(l.latches, vec![2]);
    assert_eq!(l.exits, vec![(1, 3)]);
    assert_eq!(l.depth, 1);
    assert!(c.is_loop_header(1) && !c.is_loop_header(2));
    assert_eq!(c.loop_depth(2), 1);
    assert_eq!(c.loop_depth(3), 0);
    assert!(!c.is_acyclic() && c.is_reducible());
}

#[test]
fn nested_loops_form_a_forest() {
    // 0 -> 1 (outer head) -> 2 (inner head) -> 3 -> 2 ; 2 -> 4 -> 1 ; 1 -> 5 ; 0 -> 6 -> 7 -> 6, 7 -> 8
    let c = cfg(&[&[1, 6], &[2, 5], &[3, 4], &[2], &[1], &[], &[7], &[6, 8], &[]]);
    assert!(c.is_reducible());
    assert_eq!(c.loops().len(), 3);
    let outer = c.loop_with_header(1).unwrap();
    let inner = c.loop_with_header(2).unwrap();
    let other = c.loop_with_header(6).unwrap();
    assert_eq!(c.loops()[outer].body, vec![1, 2, 3, 4]);
    assert_eq!(c.loops()[inner].body, vec![2, 3]);
    assert_eq!(c.loops()[inner].parent, Some(outer));
    assert_eq!(c.loops()[outer].children, vec![inner]);
    assert_eq!(c.loops()[inner].depth, 2);
    assert_eq!(c.loops()[other].parent, None);
    assert_eq!(c.loops()[other].latches, vec![7]);
    assert_eq!(c.loop_depth(3), 2);
    assert_eq!(c.loop_depth(4), 1);
    assert_eq!(c.innermost_loop(3), Some(inner));
    let mut roots = c.root_loops();
    roots.sort();
    let mut expect = vec![outer, other];
    expect.sort();
    assert_eq!(roots, expect);
    // Outer loops come before the loops nested in them.
    assert!(outer < inner);
    let order = c.sort_order();
    assert_eq!(order.len(), 9);
    assert_topological(&c, &order);
    assert_loops_contiguous(&c, &order);
}

#[test]
fn multi_exit_loop_lists_every_exit() {
    // head 1 exits to 4, body 2 breaks to 5, latch 3.
    let c = cfg(&[&[1], &[2, 4], &[3, 5], &[1], &[6], &[6], &[]]);
    let l = &c.loops()[0];
    assert_eq!(l.body, vec![1, 2, 3]);
    assert_eq!(l.exits, vec![(1, 4), (2, 5)]);
}

#[test]
fn two_back_edges_into_one_header_are_one_loop() {
    let c = cfg(&[&[1], &[2, 3, 4], &[1], &[1], &[]]);
    assert_eq!(c.loops().len(), 1);
    let mut latches = c.loops()[0].latches.clone();
    latches.sort();
    assert_eq!(latches, vec![2, 3]);
    assert_eq!(c.loops()[0].body, vec![1, 2, 3]);
}

#[test]
fn self_loop() {
    let c = cfg(&[&[1], &[1, 2], &[]]);
    assert_eq!(c.back_edges(), &[(1, 1)]);
    assert_eq!(c.loops()[0].body, vec![1]);
    assert_eq!(c.loops()[0].latches, vec![1]);
}

#[test]
fn loop_at_entry() {
    let c = cfg(&[&[1], &[0, 2], &[]]);
    assert_eq!(c.back_edges(), &[(1, 0)]);
    assert_eq!(c.loops()[0].header, 0);
    assert!(c.is_reducible());
}

#[test]
fn irreducible_cycle_is_diagnosed_with_its_blocks() {
    // Entry jumps into the middle of the cycle 1 <-> 2 from both sides.
    let labels = vec!["start".into(), "left".into(), "right".into(), "end".into()];
    let c = Cfg::from_successors(vec![vec![1, 2], vec![2, 3], vec![1], vec![]], Some(labels));
    assert!(!c.is_reducible());
    assert_eq!(c.irreducible_edges().len(), 1);
    let d = c.check_reducible().unwrap_err();
    assert_eq!(d.kind, ivl::diag::ErrorKind::Unsupported);
    assert!(d.message.contains("irreducible"), "{}", d.message);
    assert!(d.message.contains("`left`") && d.message.contains("`right`"), "{}", d.message);
    assert_eq!(d.related.len(), 2, "both entries of the cycle are named: {:?}", d.related);
    // The analyses still answer and the sort order still lists every block once.
    let mut order = c.sort_order();
    order.sort();
    assert_eq!(order, vec![0, 1, 2, 3]);
}

#[test]
fn unreachable_blocks_are_ignored_by_analyses() {
    let c = cfg(&[&[1], &[], &[1, 2]]);
    assert!(!c.is_reachable(2));
    assert!(c.loops().is_empty(), "the self loop on an unreachable block is not a loop");
    assert_eq!(c.reverse_postorder(), &[0, 1]);
    assert_eq!(c.idom(2), None);
    assert!(!c.dominates(0, 2));
}

#[test]
fn sort_order_keeps_loops_contiguous_where_rpo_may_not() {
    // 0 -> 1 (head) ; 1 -> 2 -> 1 ; 1 -> 3 ; 0 -> 4 -> 3.  Any order must not put 4 inside [1, 2].
    let c = cfg(&[&[1, 4], &[2, 3], &[1], &[], &[3]]);
    // Reverse postorder puts the exit block 3 between the header 1 and the latch 2.
    assert_eq!(c.reverse_postorder(), &[0, 4, 1, 3, 2]);
    let order = c.sort_order();
    assert_eq!(order, vec![0, 4, 1, 2, 3]);
    assert_eq!(order.len(), 5);
    assert_topological(&c, &order);
    assert_loops_contiguous(&c, &order);
    assert_topological(&c, c.reverse_postorder());
}

#[test]
fn sort_order_on_deep_nesting_and_sequential_loops() {
    // Three nested loops followed by a second top-level loop.
    // 0->1 ; 1(h1)->2,9 ; 2(h2)->3,8 ; 3(h3)->4,7 ; 4->5,6 ; 5->3 ; 6->3 ; 7->2 ; 8->1 ;
    // 9(h4)->10,11 ; 10->9 ; 11
    let c = cfg(&[&[1], &[2, 9], &[3, 8], &[4, 7], &[5, 6], &[3], &[3], &[2], &[1], &[10, 11], &[9], &[]]);
    assert_eq!(c.loops().len(), 4);
    let h3 = c.loop_with_header(3).unwrap();
    assert_eq!(c.loops()[h3].depth, 3);
    assert_eq!(c.loops()[h3].latches.len(), 2);
    let order = c.sort_order();
    assert_topological(&c, &order);
    assert_loops_contiguous(&c, &order);
}

fn block(label: &str, targets: &[&str]) -> Block {
    Block {
        label: Ident::new(label, Span::DUMMY),
        stmts: vec![],
        term: if targets.is_empty() {
            Terminator::Return
        } else {
            Terminator::Goto(targets.iter().map(|t| Ident::new(*t, Span::DUMMY)).collect())
        },
        span: Span::DUMMY,
    }
}

fn block_impl(blocks: Vec<Block>) -> BlockImpl {
    BlockImpl {
        attrs: vec![],
        name: Ident::new("P", Span::DUMMY),
        ins: vec![],
        outs: vec![],
        locals: vec![],
        blocks,
        span: Span::DUMMY,
    }
}

#[test]
fn cfg_of_block_impl_uses_labels() {
    let imp = block_impl(vec![block("A", &["B"]), block("B", &["B", "C"]), block("C", &[]), block("D", &["A"])]);
    let c = Cfg::new(&imp);
    assert_eq!(c.label(1), "B");
    assert_eq!(c.loops()[0].header, 1);
    assert!(!c.is_reachable(3));
}

#[test]
fn remove_unreachable_keeps_order_and_entry() {
    let mut imp = block_impl(vec![
        block("A", &["C"]),
        block("B", &["C"]),
        block("C", &["E"]),
        block("D", &["D"]),
        block("E", &[]),
    ]);
    remove_unreachable(&mut imp);
    let labels: Vec<&str> = imp.blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, vec!["A", "C", "E"]);
}

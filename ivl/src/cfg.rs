//! Control-flow analysis of block bodies: reachability, depth-first orders, dominators, back
//! edges, natural loops and their nesting forest, reducibility, and the loop-contiguous
//! topological "sort order" of seed 000 §4.1.
//!
//! Why: Boogie's reading of unstructured code (docs/kbpl.md §3.1) needs natural loops — the leading
//! asserts of a loop header are the loop's invariants, and loop cutting removes exactly the back
//! edges — and the GPU passes need the same facts: predication of arbitrary reducible CFGs (seed
//! 000 §4.1, Table 2) executes blocks in a sort order in which every loop is contiguous and
//! starts with its header, and treats the last block of each loop specially. Irreducible control
//! flow has no natural loops (seed 000 footnote 3); it is reported with the blocks of an
//! offending cycle.
//!
//! Definitions (Aho, Sethi, Ullman, "Compilers", §10.4; seed 000 §3):
//! - `d` *dominates* `n` if every path from the entry to `n` passes through `d`;
//! - a *back edge* is an edge `u -> h` whose target dominates its source; `h` is a loop header;
//! - the *natural loop* of header `h` is `h` plus every block that reaches a back-edge source
//!   `u -> h` without passing through `h` (all back edges into `h` form one loop); its
//!   *latches* are those sources and its *exits* the edges leaving the body;
//! - a CFG is *reducible* iff every retreating edge of a depth-first search (an edge to a block
//!   still on the DFS stack) is a back edge. Then removing the back edges leaves an acyclic graph,
//!   and the reverse postorder is a topological order of it.
//!
//! Blocks are identified by their index in [`BlockImpl::blocks`]; node `i` of [`Cfg::graph`] is
//! block `i`. Analyses only look at blocks reachable from the entry (block 0): unreachable
//! blocks have no dominator, no loop, and are absent from every order.

use crate::ast::{Name, Span};
use crate::blocks::BlockImpl;
use crate::diag::Diagnostic;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashSet;

/// A natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// Every block of the loop, including the header and nested loops, in ascending index order.
    pub body: Vec<usize>,
    /// Sources of the back edges into the header.
    pub latches: Vec<usize>,
    /// Edges `(from, to)` with `from` in the loop and `to` outside it.
    pub exits: Vec<(usize, usize)>,
    /// The innermost loop strictly containing this one (an index into [`Cfg::loops`]).
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// 1 for an outermost loop, 2 for a loop nested in it, …
    pub depth: usize,
}

impl Loop {
    pub fn contains(&self, block: usize) -> bool {
        self.body.binary_search(&block).is_ok()
    }
}

/// The control-flow graph of a block body with its analyses, computed once by [`Cfg::new`].
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Node `i` is block `i`; one edge per distinct (source, target) pair.
    pub graph: DiGraph<(), ()>,
    labels: Vec<Name>,
    label_spans: Vec<Span>,
    term_spans: Vec<Span>,
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    reachable: Vec<bool>,
    rpo: Vec<usize>,
    rpo_index: Vec<usize>,
    dfs_parent: Vec<Option<usize>>,
    idom: Vec<Option<usize>>,
    /// Pre/post numbers in the dominator tree: `a` dominates `b` iff `a`'s interval contains `b`'s.
    dom_pre: Vec<usize>,
    dom_post: Vec<usize>,
    back_edges: Vec<(usize, usize)>,
    irreducible_edges: Vec<(usize, usize)>,
    loops: Vec<Loop>,
    innermost: Vec<Option<usize>>,
}

const NONE: usize = usize::MAX;

impl Cfg {
    /// Builds the CFG of a block body (entry: block 0). Goto targets that name no block are
    /// ignored (lowering and resolution report them).
    pub fn new(imp: &BlockImpl) -> Cfg {
        let succs = imp.successors();
        let labels = imp.blocks.iter().map(|b| b.label.name.clone()).collect();
        let label_spans = imp.blocks.iter().map(|b| b.label.span).collect();
        let term_spans = imp.blocks.iter().map(|b| b.span).collect();
        Cfg::build(succs, labels, label_spans, term_spans)
    }

    /// A CFG from successor lists (entry: node 0), for hand-made graphs and for passes that
    /// keep their own block representation. Blocks are named `b0`, `b1`, … unless `labels` is
    /// given.
    pub fn from_successors(succs: Vec<Vec<usize>>, labels: Option<Vec<Name>>) -> Cfg {
        let n = succs.len();
        let labels = labels.unwrap_or_else(|| (0..n).map(|i| Name::from(format!("b{i}"))).collect());
        Cfg::build(succs, labels, vec![Span::DUMMY; n], vec![Span::DUMMY; n])
    }

    fn build(mut succs: Vec<Vec<usize>>, labels: Vec<Name>, label_spans: Vec<Span>, term_spans: Vec<Span>) -> Cfg {
        let n = succs.len();
        for s in &mut succs {
            let mut seen = HashSet::new();
            s.retain(|&t| t < n && seen.insert(t));
        }
        let mut preds = vec![Vec::new(); n];
        let mut graph = DiGraph::with_capacity(n, succs.iter().map(Vec::len).sum());
        for _ in 0..n {
            graph.add_node(());
        }
        for (u, ss) in succs.iter().enumerate() {
            for &v in ss {
                preds[v].push(u);
                graph.add_edge(NodeIndex::new(u), NodeIndex::new(v), ());
            }
        }
        let mut cfg = Cfg {
            graph,
            labels,
            label_spans,
            term_spans,
            succs,
            preds,
            reachable: vec![false; n],
            rpo: Vec::new(),
            rpo_index: vec![NONE; n],
            dfs_parent: vec![None; n],
            idom: vec![None; n],
            dom_pre: vec![NONE; n],
            dom_post: vec![NONE; n],
            back_edges: Vec::new(),
            irreducible_edges: Vec::new(),
            loops: Vec::new(),
            innermost: vec![None; n],
        };
        if n > 0 {
            let retreating = cfg.dfs();
            cfg.dominators();
            for (u, h) in retreating {
                if cfg.dominates(h, u) {
                    cfg.back_edges.push((u, h));
                } else {
                    cfg.irreducible_edges.push((u, h));
                }
            }
            cfg.natural_loops();
        }
        cfg
    }

    /// Iterative DFS from the entry: reachability, DFS tree, reverse postorder. Returns the
    /// retreating edges (target on the stack when the edge is explored).
    fn dfs(&mut self) -> Vec<(usize, usize)> {
        let n = self.succs.len();
        let mut on_stack = vec![false; n];
        let mut post = Vec::with_capacity(n);
        let mut retreating = Vec::new();
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        self.reachable[0] = true;
        on_stack[0] = true;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if let Some(&v) = self.succs[u].get(*i) {
                *i += 1;
                if !self.reachable[v] {
                    self.reachable[v] = true;
                    on_stack[v] = true;
                    self.dfs_parent[v] = Some(u);
                    stack.push((v, 0));
                } else if on_stack[v] {
                    retreating.push((u, v));
                }
            } else {
                on_stack[u] = false;
                post.push(u);
                stack.pop();
            }
        }
        post.reverse();
        for (i, &b) in post.iter().enumerate() {
            self.rpo_index[b] = i;
        }
        self.rpo = post;
        retreating
    }

    fn dominators(&mut self) {
        let doms = petgraph::algo::dominators::simple_fast(&self.graph, NodeIndex::new(0));
        let n = self.succs.len();
        let mut children = vec![Vec::new(); n];
        for &b in &self.rpo {
            if b != 0 {
                let d = doms.immediate_dominator(NodeIndex::new(b)).map(|d| d.index());
                self.idom[b] = d;
                if let Some(d) = d {
                    children[d].push(b);
                }
            }
        }
        let mut counter = 0;
        let mut stack = vec![(0usize, 0usize)];
        self.dom_pre[0] = counter;
        counter += 1;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if let Some(&c) = children[u].get(*i) {
                *i += 1;
                self.dom_pre[c] = counter;
                counter += 1;
                stack.push((c, 0));
            } else {
                self.dom_post[u] = counter;
                counter += 1;
                stack.pop();
            }
        }
    }

    fn natural_loops(&mut self) {
        let mut headers: Vec<usize> = self.back_edges.iter().map(|&(_, h)| h).collect();
        headers.sort_by_key(|&h| self.rpo_index[h]);
        headers.dedup();
        let n = self.succs.len();
        let mut mark = vec![NONE; n];
        for (li, &h) in headers.iter().enumerate() {
            let latches: Vec<usize> = self.back_edges.iter().filter(|&&(_, t)| t == h).map(|&(u, _)| u).collect();
            mark[h] = li;
            let mut body = vec![h];
            let mut work: Vec<usize> = Vec::new();
            for &u in &latches {
                if mark[u] != li {
                    mark[u] = li;
                    body.push(u);
                    work.push(u);
                }
            }
            while let Some(b) = work.pop() {
                for &p in &self.preds[b] {
                    if self.reachable[p] && mark[p] != li {
                        mark[p] = li;
                        body.push(p);
                        work.push(p);
                    }
                }
            }
            body.sort_unstable();
            let mut exits = Vec::new();
            for &b in &body {
                for &s in &self.succs[b] {
                    if body.binary_search(&s).is_err() {
                        exits.push((b, s));
                    }
                }
            }
            self.loops.push(Loop { header: h, body, latches, exits, parent: None, children: Vec::new(), depth: 0 });
        }
        // Nesting: visit loops from largest to smallest; a loop's parent is the innermost loop
        // seen so far that contains its header.
        let mut order: Vec<usize> = (0..self.loops.len()).collect();
        order.sort_by_key(|&l| (std::cmp::Reverse(self.loops[l].body.len()), self.rpo_index[self.loops[l].header]));
        for &l in &order {
            let parent = self.innermost[self.loops[l].header];
            self.loops[l].parent = parent;
            self.loops[l].depth = parent.map_or(1, |p| self.loops[p].depth + 1);
            if let Some(p) = parent {
                self.loops[p].children.push(l);
            }
            for i in 0..self.loops[l].body.len() {
                let b = self.loops[l].body[i];
                self.innermost[b] = Some(l);
            }
        }
        for l in 0..self.loops.len() {
            let mut ch = std::mem::take(&mut self.loops[l].children);
            ch.sort_by_key(|&c| self.rpo_index[self.loops[c].header]);
            self.loops[l].children = ch;
        }
    }

    // ----- basic queries ---------------------------------------------------------------------

    pub fn len(&self) -> usize {
        self.succs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.succs.is_empty()
    }
    pub fn entry(&self) -> usize {
        0
    }
    pub fn label(&self, b: usize) -> &Name {
        &self.labels[b]
    }
    /// Distinct successors, in `goto` order.
    pub fn successors(&self, b: usize) -> &[usize] {
        &self.succs[b]
    }
    /// Distinct predecessors (reachable or not).
    pub fn predecessors(&self, b: usize) -> &[usize] {
        &self.preds[b]
    }
    pub fn is_reachable(&self, b: usize) -> bool {
        self.reachable[b]
    }

    // ----- orders ----------------------------------------------------------------------------

    /// Reverse postorder of a DFS from the entry (reachable blocks only, entry first). Every
    /// edge that is not retreating goes forward in it; for a reducible CFG this is a topological
    /// order of the graph without its back edges.
    pub fn reverse_postorder(&self) -> &[usize] {
        &self.rpo
    }

    /// Position of a block in [`Cfg::reverse_postorder`] (`None` when unreachable).
    pub fn rpo_position(&self, b: usize) -> Option<usize> {
        (self.rpo_index[b] != NONE).then_some(self.rpo_index[b])
    }

    /// Alias of [`Cfg::reverse_postorder`]: the topological order of the acyclic part.
    pub fn topological_order(&self) -> &[usize] {
        &self.rpo
    }

    /// The sort order of seed 000 §4.1 over the reachable blocks: a topological order of the
    /// graph without back edges in which the blocks of every loop are contiguous and its header
    /// comes first. Built as in the paper: topologically sort each innermost loop body, collapse
    /// it into one node, repeat outwards. Ties are broken by reverse postorder, so the order is
    /// deterministic and close to the source layout. Meaningful for reducible CFGs; for an
    /// irreducible one it still returns every reachable block once.
    pub fn sort_order(&self) -> Vec<usize> {
        let top: Vec<usize> = self.rpo.clone();
        let mut out = Vec::with_capacity(top.len());
        self.order_region(&top, None, &mut out);
        out
    }

    /// Sorts the blocks `region` (all blocks of loop `lp`, or the whole body when `None`):
    /// child loops of the region are single items, edges into the region's header are ignored.
    fn order_region(&self, region: &[usize], lp: Option<usize>, out: &mut Vec<usize>) {
        let children: &[usize] = match lp {
            Some(l) => &self.loops[l].children,
            None => &[],
        };
        let top_children: Vec<usize>;
        let children = if lp.is_none() {
            top_children = (0..self.loops.len()).filter(|&l| self.loops[l].parent.is_none()).collect();
            &top_children[..]
        } else {
            children
        };
        let header = lp.map(|l| self.loops[l].header);
        // Item of each block of the region: itself, or the child loop that contains it.
        let mut item_of = std::collections::HashMap::with_capacity(region.len());
        for &b in region {
            item_of.insert(b, Item::Block(b));
        }
        for &c in children {
            for &b in &self.loops[c].body {
                if let Some(it) = item_of.get_mut(&b) {
                    *it = Item::Loop(c);
                }
            }
        }
        let mut items: Vec<Item> = Vec::new();
        let mut item_index = std::collections::HashMap::new();
        for &b in region {
            let it = item_of[&b];
            if let std::collections::hash_map::Entry::Vacant(e) = item_index.entry(it) {
                e.insert(items.len());
                items.push(it);
            }
        }
        let key = |it: &Item| match *it {
            Item::Block(b) => self.rpo_index[b],
            Item::Loop(l) => self.rpo_index[self.loops[l].header],
        };
        let m = items.len();
        let mut indeg = vec![0usize; m];
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); m];
        let mut seen = HashSet::new();
        for &b in region {
            let from = item_index[&item_of[&b]];
            for &s in &self.succs[b] {
                if Some(s) == header {
                    continue;
                }
                if let Some(it) = item_of.get(&s) {
                    let to = item_index[it];
                    if to != from && seen.insert((from, to)) {
                        edges[from].push(to);
                        indeg[to] += 1;
                    }
                }
            }
        }
        // Kahn's algorithm, smallest reverse-postorder position first.
        let mut ready = std::collections::BinaryHeap::new();
        for (i, it) in items.iter().enumerate() {
            if indeg[i] == 0 {
                ready.push(std::cmp::Reverse((key(it), i)));
            }
        }
        let mut done = vec![false; m];
        let mut emitted = 0;
        loop {
            let next = match ready.pop() {
                Some(std::cmp::Reverse((_, i))) => i,
                None => {
                    // Only with irreducible cycles: release the earliest remaining item.
                    match (0..m).filter(|&i| !done[i]).min_by_key(|&i| key(&items[i])) {
                        Some(i) => i,
                        None => break,
                    }
                }
            };
            if done[next] {
                continue;
            }
            done[next] = true;
            emitted += 1;
            match items[next] {
                Item::Block(b) => out.push(b),
                Item::Loop(c) => {
                    let body: Vec<usize> = self.loops[c].body.iter().copied().filter(|&b| self.reachable[b]).collect();
                    self.order_region(&body, Some(c), out);
                }
            }
            for &t in &edges[next] {
                indeg[t] = indeg[t].saturating_sub(1);
                if indeg[t] == 0 && !done[t] {
                    ready.push(std::cmp::Reverse((key(&items[t]), t)));
                }
            }
            if emitted == m {
                break;
            }
        }
    }

    // ----- dominators ------------------------------------------------------------------------

    /// The immediate dominator (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: usize) -> Option<usize> {
        self.idom[b]
    }

    /// Whether `a` dominates `b` (reflexive). False when either is unreachable.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.reachable[a]
            && self.reachable[b]
            && self.dom_pre[a] <= self.dom_pre[b]
            && self.dom_post[b] <= self.dom_post[a]
    }

    /// The dominators of `b`, from `b` up to the entry (empty when unreachable).
    pub fn dominators_of(&self, b: usize) -> Vec<usize> {
        if !self.reachable[b] {
            return Vec::new();
        }
        let mut out = vec![b];
        let mut cur = b;
        while let Some(d) = self.idom[cur] {
            out.push(d);
            cur = d;
        }
        out
    }

    // ----- loops -----------------------------------------------------------------------------

    /// Back edges `(latch, header)`, in DFS discovery order.
    pub fn back_edges(&self) -> &[(usize, usize)] {
        &self.back_edges
    }

    pub fn is_back_edge(&self, from: usize, to: usize) -> bool {
        self.back_edges.contains(&(from, to))
    }

    /// The natural loops, outer loops before the loops nested in them (ordered by header
    /// reverse-postorder position).
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// The loop whose header is `b`.
    pub fn loop_with_header(&self, b: usize) -> Option<usize> {
        self.loops.iter().position(|l| l.header == b)
    }

    pub fn is_loop_header(&self, b: usize) -> bool {
        self.innermost[b].is_some_and(|l| self.loops[l].header == b)
    }

    /// The innermost loop containing block `b`.
    pub fn innermost_loop(&self, b: usize) -> Option<usize> {
        self.innermost[b]
    }

    /// Number of loops containing `b` (0 outside every loop).
    pub fn loop_depth(&self, b: usize) -> usize {
        self.innermost[b].map_or(0, |l| self.loops[l].depth)
    }

    /// Outermost loops, in header reverse-postorder.
    pub fn root_loops(&self) -> Vec<usize> {
        (0..self.loops.len()).filter(|&l| self.loops[l].parent.is_none()).collect()
    }

    // ----- reducibility and acyclicity ---------------------------------------------------------

    /// Whether every retreating edge is a back edge (every cycle is a natural loop).
    pub fn is_reducible(&self) -> bool {
        self.irreducible_edges.is_empty()
    }

    /// Retreating edges whose target does not dominate their source.
    pub fn irreducible_edges(&self) -> &[(usize, usize)] {
        &self.irreducible_edges
    }

    /// Whether the reachable part has no cycle.
    pub fn is_acyclic(&self) -> bool {
        self.back_edges.is_empty() && self.irreducible_edges.is_empty()
    }

    /// `Ok` for a reducible CFG; otherwise an `unsupported` diagnostic naming the blocks of a
    /// cycle that can be entered at more than one block (so it has no header), pointing at the
    /// jump that closes the cycle, with the other entries as related locations.
    pub fn check_reducible(&self) -> Result<(), Diagnostic> {
        let Some(&(u, v)) = self.irreducible_edges.first() else {
            return Ok(());
        };
        // The cycle: the DFS tree path v -> … -> u, closed by the edge u -> v.
        let mut cycle = vec![u];
        let mut cur = u;
        while cur != v {
            match self.dfs_parent[cur] {
                Some(p) => {
                    cycle.push(p);
                    cur = p;
                }
                None => break,
            }
        }
        cycle.reverse();
        let on_cycle: HashSet<usize> = cycle.iter().copied().collect();
        let mut entries = vec![v];
        for &b in &cycle {
            if b != v && self.preds[b].iter().any(|p| self.reachable[*p] && !on_cycle.contains(p)) {
                entries.push(b);
            }
        }
        let names = |bs: &[usize]| bs.iter().map(|&b| format!("`{}`", self.labels[b])).collect::<Vec<_>>();
        let mut path = names(&cycle);
        path.push(format!("`{}`", self.labels[v]));
        let entry_names = names(&entries);
        let message = format!(
            "irreducible control flow: the cycle {} can be entered at {}, so it is not a loop with a single header",
            path.join(" -> "),
            entry_names.join(" and ")
        );
        let mut d = Diagnostic::unsupported(message, self.term_spans[u])
            .with_label(format!("this jump to `{}` closes the cycle", self.labels[v]));
        for &e in &entries {
            d = d.with_related(self.label_spans[e], format!("the cycle can be entered at `{}`", self.labels[e]));
        }
        Err(d.with_note("kivl requires reducible control flow: every cycle must be a natural loop"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Item {
    Block(usize),
    Loop(usize),
}

/// The indices of the blocks reachable from the entry, ascending.
pub fn reachable_blocks(imp: &BlockImpl) -> Vec<usize> {
    let succs = imp.successors();
    let mut seen = vec![false; imp.blocks.len()];
    if imp.blocks.is_empty() {
        return Vec::new();
    }
    let mut work = vec![0];
    seen[0] = true;
    while let Some(b) = work.pop() {
        for &s in &succs[b] {
            if !seen[s] {
                seen[s] = true;
                work.push(s);
            }
        }
    }
    (0..imp.blocks.len()).filter(|&b| seen[b]).collect()
}

/// Removes the blocks not reachable from the entry, keeping the order of the others.
pub fn remove_unreachable(imp: &mut BlockImpl) {
    let keep = reachable_blocks(imp);
    if keep.len() == imp.blocks.len() {
        return;
    }
    let mut keep_flag = vec![false; imp.blocks.len()];
    for &b in &keep {
        keep_flag[b] = true;
    }
    let mut i = 0;
    imp.blocks.retain(|_| {
        let k = keep_flag[i];
        i += 1;
        k
    });
}

/// Whether a block body has no cycle reachable from its entry.
pub fn is_acyclic(imp: &BlockImpl) -> bool {
    Cfg::new(imp).is_acyclic()
}

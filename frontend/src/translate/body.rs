//! The body of the procedure being built: its locals, its blocks in the order they are
//! started, the edge blocks placed after them, the counter that makes generated names unique,
//! and the functions being inlined.
//!
//! Apart from the translator because it is the one state every lowering writes to and none
//! reads back: statements go to the last block started, and names, labels and locals are
//! made here only, so that two lowerings never pick the same name. Nothing here knows of
//! LLVM.

use crate::Loc;
use std::collections::BTreeMap;

/// One generated block: a label and its statements with their source locations.
pub(super) struct Block {
    pub(super) label: String,
    pub(super) stmts: Vec<(String, Option<Loc>)>,
}

#[derive(Default)]
pub(super) struct Body {
    /// The procedure's locals and their types, declared in name order.
    locals: BTreeMap<String, String>,
    blocks: Vec<Block>,
    /// Edge blocks, placed after the function's blocks.
    edge_blocks: Vec<Block>,
    /// The last number given to a generated name or label.
    fresh: usize,
    /// Inlined calls so far (their prefixes `cK.`).
    calls: usize,
    /// The functions being translated, outermost first (recursion is unsupported).
    stack: Vec<String>,
}

impl Body {
    /// Declares the local `v` of type `ty` (again: the last type wins).
    pub(super) fn declare(&mut self, v: String, ty: String) {
        self.locals.insert(v, ty);
    }

    /// A new local `$BASE$N` of type `ty`.
    pub(super) fn fresh_var(&mut self, base: &str, ty: &str) -> String {
        let v = format!("${base}${}", self.next_number());
        self.declare(v.clone(), ty.to_string());
        v
    }

    /// A number no generated name has yet.
    pub(super) fn next_number(&mut self) -> usize {
        self.fresh += 1;
        self.fresh
    }

    /// The number the last generated name got.
    pub(super) fn last_number(&self) -> usize {
        self.fresh
    }

    /// The number of a new inlined call.
    pub(super) fn next_call(&mut self) -> usize {
        self.calls += 1;
        self.calls
    }

    /// Starts a block: later statements go there.
    pub(super) fn start_block(&mut self, label: String) {
        self.blocks.push(Block { label, stmts: Vec::new() });
    }

    /// Appends a statement to the current block (before any block, it is dropped).
    pub(super) fn emit(&mut self, s: String, loc: Option<Loc>) {
        if let Some(b) = self.blocks.last_mut() {
            b.stmts.push((s, loc));
        }
    }

    /// The current block's label (`$bb` before any), which labels made from it extend.
    pub(super) fn current_label(&self) -> &str {
        self.blocks.last().map_or("$bb", |b| b.label.as_str())
    }

    /// Adds a block after all the function's blocks (an edge or a case of a branch).
    pub(super) fn add_edge_block(&mut self, label: String, stmts: Vec<(String, Option<Loc>)>) {
        self.edge_blocks.push(Block { label, stmts });
    }

    /// Drops the current block when it has no statement; whether it did.
    pub(super) fn drop_empty_block(&mut self) -> bool {
        if self.blocks.last().is_some_and(|b| b.stmts.is_empty()) {
            self.blocks.pop();
            return true;
        }
        false
    }

    /// Puts a statement first in the procedure's first block.
    pub(super) fn prepend(&mut self, s: String, loc: Option<Loc>) {
        if let Some(b) = self.blocks.first_mut() {
            b.stmts.insert(0, (s, loc));
        }
    }

    /// Every statement's text, the function's blocks first.
    pub(super) fn statements(&self) -> impl Iterator<Item = &(String, Option<Loc>)> {
        self.blocks.iter().chain(&self.edge_blocks).flat_map(|b| &b.stmts)
    }

    /// Rewrites every local's type and every statement.
    pub(super) fn rewrite(&mut self, mut fix: impl FnMut(&mut String)) {
        for ty in self.locals.values_mut() {
            fix(ty);
        }
        for b in self.blocks.iter_mut().chain(self.edge_blocks.iter_mut()) {
            for st in &mut b.stmts {
                fix(&mut st.0);
            }
        }
    }

    /// Whether `function` is being translated (a call of it would recurse).
    pub(super) fn is_active(&self, function: &str) -> bool {
        self.stack.iter().any(|f| f == function)
    }

    /// Marks `function` as being translated until [`Body::leave`].
    pub(super) fn enter(&mut self, function: String) {
        self.stack.push(function);
    }

    pub(super) fn leave(&mut self) {
        self.stack.pop();
    }

    /// The locals, in name order, leaving none.
    pub(super) fn take_locals(&mut self) -> BTreeMap<String, String> {
        std::mem::take(&mut self.locals)
    }

    /// The blocks, the edge blocks last, leaving none.
    pub(super) fn take_blocks(&mut self) -> Vec<Block> {
        let mut blocks = std::mem::take(&mut self.blocks);
        blocks.append(&mut self.edge_blocks);
        blocks
    }
}

#[cfg(test)]
mod tests {
    use super::Body;
    use crate::Loc;

    fn labels(body: &mut Body) -> Vec<String> {
        body.take_blocks().into_iter().map(|b| b.label).collect()
    }

    #[test]
    fn fresh_names_are_numbered_once_across_locals_and_labels() {
        let mut b = Body::default();
        assert_eq!(b.fresh_var("undef", "bv32"), "$undef$1");
        assert_eq!(b.next_number(), 2);
        assert_eq!(b.fresh_var("old", "bool"), "$old$3");
        assert_eq!(b.last_number(), 3);
        // Calls have their own count.
        assert_eq!(b.next_call(), 1);
        assert_eq!(b.next_call(), 2);
        b.declare("$x".into(), "bv8".into());
        let locals: Vec<(String, String)> = b.take_locals().into_iter().collect();
        assert_eq!(
            locals,
            [("$old$3".into(), "bool".into()), ("$undef$1".into(), "bv32".into()), ("$x".into(), "bv8".into())]
        );
        assert!(b.take_locals().is_empty());
    }

    #[test]
    fn statements_go_to_the_last_block_and_edge_blocks_come_after() {
        let mut b = Body::default();
        let at = Some(Loc { line: 3, col: 1 });
        b.emit("dropped;".into(), at);
        assert_eq!(b.current_label(), "$bb");
        b.start_block("$bb.entry".into());
        b.emit("x := 1bv32;".into(), at);
        b.add_edge_block("$bb.entry$e1".into(), vec![("assume c;".into(), None)]);
        b.start_block("$bb.next".into());
        assert_eq!(b.current_label(), "$bb.next");
        b.emit("return;".into(), None);
        b.prepend("p := 0bv32;".into(), None);
        let texts: Vec<&str> = b.statements().map(|s| s.0.as_str()).collect();
        assert_eq!(texts, ["p := 0bv32;", "x := 1bv32;", "return;", "assume c;"]);
        assert_eq!(labels(&mut b), ["$bb.entry", "$bb.next", "$bb.entry$e1"]);
        assert_eq!(b.statements().count(), 0);
    }

    #[test]
    fn an_empty_block_can_be_dropped_and_everything_rewritten() {
        let mut b = Body::default();
        b.start_block("$entry".into());
        assert!(b.drop_empty_block());
        b.start_block("$bb.0".into());
        b.emit("y := @w;".into(), None);
        assert!(!b.drop_empty_block());
        b.declare("$y".into(), "bv@w".into());
        b.rewrite(|s| *s = s.replace("@w", "32"));
        assert_eq!(b.statements().next().map(|s| s.0.as_str()), Some("y := 32;"));
        assert_eq!(b.take_locals().get("$y").map(String::as_str), Some("bv32"));
        assert_eq!(labels(&mut b), ["$bb.0"]);
    }

    #[test]
    fn the_call_stack_finds_recursion() {
        let mut b = Body::default();
        b.enter("k".into());
        b.enter("f".into());
        assert!(b.is_active("k") && b.is_active("f"));
        b.leave();
        assert!(!b.is_active("f"));
        assert!(b.is_active("k"));
    }
}

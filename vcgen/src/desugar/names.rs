//! Fresh names for the variables and labels that desugaring introduces.
//!
//! Generated names use `$` as a separator (`old$g`, `inline$P$0$x`, `call$3$old$g`), which is a
//! legal identifier character, so the desugared program prints as `.kbpl` and parses again; a
//! name that is already taken — by any top-level declaration, by a formal, local or label of the
//! implementation, or by an earlier generated name — gets a `_N` suffix.

use ivl::ast::Name;
use std::collections::HashSet;

/// The names in use in one implementation: the program's top-level names (shared) plus the
/// implementation's own and the generated ones.
pub struct Fresh<'g> {
    global: &'g HashSet<Name>,
    local: HashSet<Name>,
}

impl<'g> Fresh<'g> {
    pub fn new(global: &'g HashSet<Name>) -> Fresh<'g> {
        Fresh { global, local: HashSet::new() }
    }

    pub fn is_used(&self, n: &str) -> bool {
        self.global.contains(n) || self.local.contains(n)
    }

    /// Marks a name as used.
    pub fn reserve(&mut self, n: &Name) {
        self.local.insert(n.clone());
    }

    /// `base` itself when unused, else the first unused `base_N`; marked used.
    pub fn make(&mut self, base: &str) -> Name {
        let name = if !self.is_used(base) {
            Name::from(base)
        } else {
            (1..).map(|i| Name::from(format!("{base}_{i}"))).find(|n| !self.is_used(n)).expect("unbounded")
        };
        self.local.insert(name.clone());
        name
    }
}

//! The memory objects of the translation and what is known of them: the table of objects
//! (one KBPL map each, numbered by their place in it), the program-scope names they are found
//! by, which of them hold bytes (`bytes.rs`) or pointers (`pointers.rs`), and the by-value
//! struct parameters.
//!
//! Apart from the translator because this state outlives one kernel and one translation:
//! the objects of program scope are handed from each kernel to the next (a global shared
//! between kernels keeps one map), and what one translation of the module learns (width
//! conflicts, pointers in memory) is the input of the next one (`translate_module`). Nothing
//! here knows of LLVM.

use super::pointers::PtrFacts;
use crate::memory::{Base, Space};
use std::collections::{HashMap, HashSet};

pub(super) struct Objects {
    /// The objects; a pointer's candidates are indices here (other numbers are the null
    /// object and functions, which hold no data).
    pub(super) bases: Vec<Base>,
    /// The objects of program scope (globals, pointer parameters) by map name.
    global_bases: HashMap<String, usize>,
    /// The objects whose maps hold bytes (`bytes.rs`), and those found accessed with
    /// different widths while translating.
    byte_level: HashSet<String>,
    width_conflicts: Vec<String>,
    /// What the previous translation learnt about pointers in memory, and what this one
    /// learns (`pointers.rs`).
    pub(super) ptr_known: PtrFacts,
    pub(super) ptr_found: PtrFacts,
    /// The objects of by-value struct parameters.
    byval_params: HashSet<usize>,
}

impl Objects {
    /// The objects of the kernels translated before (globals shared between kernels keep one
    /// map: they are found again by name), with the byte-level objects and the pointer facts
    /// of the previous translations.
    pub(super) fn new(bases: Vec<Base>, byte_level: HashSet<String>, ptr_known: PtrFacts) -> Self {
        let global_bases = bases
            .iter()
            .enumerate()
            .filter(|(_, b)| b.space != Space::Private)
            .map(|(i, b)| (b.name.clone(), i))
            .collect();
        Objects {
            bases,
            global_bases,
            byte_level,
            width_conflicts: Vec::new(),
            ptr_known,
            ptr_found: PtrFacts::default(),
            byval_params: HashSet::new(),
        }
    }

    /// The objects for the next kernel (those of program scope: private maps are locals of
    /// one kernel), the objects found accessed with different widths, and what was learnt of
    /// pointers in memory.
    pub(super) fn finish(self) -> (Vec<Base>, Vec<String>, PtrFacts) {
        let mut bases = self.bases;
        bases.retain(|b| b.space != Space::Private);
        (bases, self.width_conflicts, self.ptr_found)
    }

    /// A new object `name` in `space`; its number.
    pub(super) fn new_base(&mut self, name: String, space: Space) -> usize {
        self.bases.push(Base { name, space, width: None, size: None });
        self.bases.len() - 1
    }

    /// The map of a pointer parameter: shared with other kernels' parameters of the same name
    /// and memory, renamed when the memory differs.
    pub(super) fn param_base(&mut self, name: &str, space: Space) -> usize {
        let mut map = format!("$${name}");
        let mut k = 0;
        while let Some(&b) = self.global_bases.get(&map) {
            if self.bases[b].space == space && space != Space::Private {
                return b;
            }
            k += 1;
            map = format!("$${name}.{k}");
        }
        let b = self.new_base(map.clone(), space);
        if space != Space::Private {
            self.global_bases.insert(map, b);
        }
        b
    }

    /// The object of program scope known as `name`.
    pub(super) fn global(&self, name: &str) -> Option<usize> {
        self.global_bases.get(name).copied()
    }

    /// Makes `name` a name of object `b`.
    pub(super) fn name_global(&mut self, name: String, b: usize) {
        self.global_bases.insert(name, b);
    }

    /// The last object whose map is `name`.
    pub(super) fn last_named(&self, name: &str) -> Option<usize> {
        self.bases.iter().rposition(|b| b.name == name)
    }

    /// The memory space of a candidate object; `None` for the null pointer and for functions
    /// (`funcptr.rs`), which hold no data.
    pub(super) fn space_of(&self, object: usize) -> Option<Space> {
        self.bases.get(object).map(|b| b.space)
    }

    /// Whether object `b` is byte-level.
    pub(super) fn is_byte_level(&self, b: usize) -> bool {
        self.bases.get(b).is_some_and(|base| self.byte_level.contains(&base.name))
    }

    /// Records that object `b` is accessed with different widths (`bytes.rs`).
    pub(super) fn width_conflict(&mut self, b: usize) {
        if let Some(base) = self.bases.get(b) {
            if !self.width_conflicts.contains(&base.name) {
                self.width_conflicts.push(base.name.clone());
            }
        }
    }

    /// Whether object `b` holds pointers (and so has a companion map).
    pub(super) fn holds_pointers(&self, b: usize) -> bool {
        self.space_of(b).is_some() && self.ptr_known.holds(&self.bases[b].name)
    }

    /// Whether a clause reads a private memory object's map (`$$q[…]`).
    pub(super) fn mentions_private(&self, clause: &str) -> bool {
        self.bases.iter().any(|b| b.space == Space::Private && clause.contains(&format!("{}[", b.name)))
    }

    /// Marks object `b` as a by-value struct parameter's.
    pub(super) fn mark_byval(&mut self, b: usize) {
        self.byval_params.insert(b);
    }

    /// Whether object `b` is a by-value struct parameter's.
    pub(super) fn is_byval(&self, b: usize) -> bool {
        self.byval_params.contains(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::{Objects, PtrFacts};
    use crate::memory::{Base, Space, NULL_OBJECT};
    use std::collections::HashSet;

    fn base(name: &str, space: Space) -> Base {
        Base { name: name.into(), space, width: None, size: None }
    }

    #[test]
    fn parameters_share_a_map_by_name_and_space() {
        let mut o = Objects::new(Vec::new(), HashSet::new(), PtrFacts::default());
        let a = o.param_base("A", Space::Global);
        assert_eq!(o.param_base("A", Space::Global), a);
        // Another memory: another map, renamed.
        let shared = o.param_base("A", Space::GroupShared);
        assert_ne!(shared, a);
        assert_eq!(o.bases[shared].name, "$$A.1");
        // Private maps are never shared, nor found by name.
        let p = o.param_base("s", Space::Private);
        assert_ne!(o.param_base("s", Space::Private), p);
        assert_eq!(o.global("$$s"), None);
        assert_eq!(o.global("$$A.1"), Some(shared));
    }

    #[test]
    fn the_next_kernel_keeps_the_objects_of_program_scope() {
        let mut o = Objects::new(Vec::new(), HashSet::new(), PtrFacts::default());
        let g = o.param_base("A", Space::Global);
        o.new_base("$$p.x".into(), Space::Private);
        let t = o.new_base("$$tile".into(), Space::GroupShared);
        o.name_global("$$tile".into(), t);
        let (bases, conflicts, _) = o.finish();
        let names: Vec<&str> = bases.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["$$A", "$$tile"]);
        assert!(conflicts.is_empty());
        let next = Objects::new(bases, HashSet::new(), PtrFacts::default());
        assert_eq!(next.global("$$A"), Some(g));
        assert_eq!(next.global("$$tile"), Some(1));
    }

    #[test]
    fn spaces_bytes_and_conflicts() {
        let bytes: HashSet<String> = ["$$B".to_string()].into();
        let mut o = Objects::new(
            vec![base("$$A", Space::Global), base("$$B", Space::Constant), base("$$q", Space::Private)],
            bytes,
            PtrFacts::default(),
        );
        assert_eq!(o.space_of(1), Some(Space::Constant));
        assert_eq!(o.space_of(NULL_OBJECT), None);
        assert!(o.is_byte_level(1) && !o.is_byte_level(0) && !o.is_byte_level(NULL_OBJECT));
        assert!(!o.holds_pointers(0) && !o.holds_pointers(NULL_OBJECT));
        o.width_conflict(0);
        o.width_conflict(0);
        o.width_conflict(NULL_OBJECT);
        assert!(o.mentions_private("$$q[0bv32] == 1bv32"));
        assert!(!o.mentions_private("$$A[0bv32] == $$q"));
        assert_eq!(o.last_named("$$q"), Some(2));
        o.mark_byval(2);
        assert!(o.is_byval(2) && !o.is_byval(0));
        let (bases, conflicts, _) = o.finish();
        assert_eq!(conflicts, ["$$A"]);
        assert_eq!(bases.len(), 2);
    }
}

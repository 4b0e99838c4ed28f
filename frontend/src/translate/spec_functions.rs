//! GPUVerify's specification functions: a function named `__spec_NAME` stands for code kivl
//! does not see, described by its annotations (GPUVerify's bodiless procedures with a
//! contract). `__requires` is checked at the call, as for any inlined function;
//! `__reads_from(p)`/`__writes_to(p)` say that the call may read/write elements of the object
//! `p` points into, and the `__ensures` clauses about `__read(p)`, `__write(p)` and their
//! offsets say which.
//!
//! A call never "accesses nothing": it becomes a loop that runs any number of times, each
//! iteration one read (or write) of an arbitrary element of the object that satisfies the
//! clauses read for that access alone (`__write(p)` true, `__write_offset_bytes(p)` its offset,
//! `__read(p)` false; every logged access of the call is one of these). The accesses are
//! ordinary KBPL accesses, so the two-thread reduction logs and checks them like any other
//! (seed 001 §4.2); the loop's cut havocs the object, so its values after the call are
//! arbitrary. At the loop head the clauses are candidate invariants about the access logs, so
//! that Houdini can keep what the logs satisfy after the call. A clause about other memory or
//! other threads is not used for the accesses (using less is sound); a clause without access
//! annotations (about a returned value) is assumed, as GPUVerify assumes a bodiless
//! procedure's postcondition.

use super::frame::Frame;
use super::values::Val;
use super::Tr;
use crate::memory::{Ptr, Space};
use crate::Loc;
use llvm_ir::instruction as inst;

/// The bit width of an object's elements in a statement or declaration, known once all the
/// object's accesses are translated (resolved with the byte widths, `resolve_width_marks`).
pub(super) const BITS_MARK: &str = "@bits_of_object_";

/// The access annotations a clause may use, per object name.
fn annotations(name: &str) -> [String; 4] {
    ["__read", "__write", "__read_offset", "__write_offset"].map(|k| format!("{k}({name})"))
}

/// `clause` read for one access of the object `name` at element `idx`, or `None` when it
/// mentions other access annotations or other threads.
fn for_access(clause: &str, name: &str, write: bool, idx: &str) -> Option<String> {
    let [read, wrote, read_off, write_off] = annotations(name);
    let (yes, no, off) = if write { (&wrote, &read, &write_off) } else { (&read, &wrote, &read_off) };
    let text = clause.replace(off.as_str(), idx).replace(yes.as_str(), "true").replace(no.as_str(), "false");
    let foreign = ["__read", "__write", "__other", "__uniform", "__enabled"];
    (!foreign.iter().any(|k| text.contains(k))).then_some(text)
}

impl<'m> Tr<'m> {
    /// `__reads_from(p)`/`__writes_to(p)` in a specification function: recorded for the end
    /// of the call.
    pub(super) fn spec_access(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, write: bool, loc: Option<Loc>) {
        let what = if write { "__writes_to" } else { "__reads_from" };
        if !f.spec {
            self.err(loc, format!("`{what}` outside a `__spec_` function called by a kernel"));
            return;
        }
        let p = c.arguments.first().and_then(|a| self.operand(f, &a.0, loc));
        let base = match p {
            Some(Val::Ptr(Ptr { base, alt: None, .. }))
                if matches!(self.objects.space_of(base), Some(Space::Global | Space::GroupShared)) =>
            {
                base
            }
            _ => {
                self.err(
                    loc,
                    format!("`{what}` of something that is not a pointer into one global or group-shared object"),
                );
                return;
            }
        };
        f.spec_accesses.push((write, base, loc));
    }

    /// The end of a specification function's call: its accesses (a loop each, see the module
    /// comment) and its clauses without access annotations (assumed).
    pub(super) fn spec_function_end(&mut self, f: &Frame<'m>, clauses: &[(String, Option<Loc>)], loc: Option<Loc>) {
        for &(write, base, aloc) in &f.spec_accesses {
            let name = self.objects.bases[base].name.clone();
            let idx = self.body.fresh_var("spec_idx", "bv32");
            let k = self.body.last_number();
            let (head, body, exit) = (format!("$spec{k}.head"), format!("$spec{k}.body"), format!("$spec{k}.done"));
            let mine: Vec<(String, Option<Loc>)> = clauses
                .iter()
                .filter(|(e, _)| annotations(&name).iter().any(|a| e.contains(a.as_str())))
                .filter_map(|(e, l)| for_access(e, &name, write, &idx).map(|_| (e.clone(), *l)))
                .collect();
            self.body.emit(format!("goto {head};"), aloc.or(loc));
            self.body.start_block(head.clone());
            for (e, l) in &mine {
                self.body.emit(format!("assert {{:candidate}} {e};"), l.or(loc));
            }
            self.body.emit(format!("goto {body}, {exit};"), aloc.or(loc));
            self.body.start_block(body);
            self.body.emit(format!("havoc {idx};"), aloc.or(loc));
            for (e, l) in &mine {
                let one = for_access(e, &name, write, &idx).expect("filtered");
                self.body.emit(format!("assume {one};"), l.or(loc));
            }
            if write {
                self.body.emit(format!("{name}[{idx}] := 0bv{BITS_MARK}{base};"), aloc.or(loc));
            } else {
                let v = self.body.fresh_var("spec_read", &format!("bv{BITS_MARK}{base}"));
                self.body.emit(format!("{v} := {name}[{idx}];"), aloc.or(loc));
            }
            self.body.emit(format!("goto {head};"), aloc.or(loc));
            self.body.start_block(exit);
        }
        for (e, l) in clauses {
            if !(e.contains("__read") || e.contains("__write")) {
                self.body.emit(format!("assume {e};"), l.or(loc));
            }
        }
    }
}

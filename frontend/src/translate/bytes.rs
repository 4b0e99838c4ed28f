//! Byte-level memory for the objects that are accessed with different widths (a `float` array
//! also read as `char`s, an `int` stored into a `long` slot, a struct's fields through casts),
//! as GPUVerify does: such an object's map holds bytes (`[bv32]bv8`), and an access of `w` bits
//! at byte offset `o` is `w/8` byte accesses at `o`, `o+1`, …, little-endian (the byte at `o`
//! is the least significant), each race-checked on its own. Every other object keeps one
//! element per map entry, which keeps their verification conditions small.
//!
//! Which objects need bytes is known only once all their accesses are seen: the translation
//! records the objects whose widths conflict (`Objects::width_conflict`, `objects.rs`), and
//! `translate_module` translates the module again with those objects byte-level.

use super::values::Ty;
use super::Tr;
use crate::memory::{Lin, Ptr};
use crate::Loc;

impl<'m> Tr<'m> {
    /// The byte places of a `w`-bit access at `p` into a byte-level object, least significant
    /// first.
    fn byte_places(&mut self, p: &Ptr, w: u32) -> Vec<String> {
        let name = self.objects.bases[p.base].name.clone();
        (0..u64::from(w / 8))
            .map(|j| {
                let off = p.off.clone().plus(&Lin::constant(j));
                format!("{name}[{}]", off.index(1, &mut self.decls.needs_fn()))
            })
            .collect()
    }

    /// The value a `w`-bit read at `p` of a byte-level object yields: its bytes concatenated,
    /// most significant first.
    pub(super) fn byte_read(&mut self, p: &Ptr, w: u32) -> String {
        let mut places = self.byte_places(p, w);
        if places.len() == 1 {
            return places.remove(0);
        }
        places.reverse();
        format!("({})", places.join(" ++ "))
    }

    /// The statement(s) that write the number `value` (of type `ty`) at `p`: [`Tr::write_number`],
    /// and no pointer is stored there any more (`pointers.rs`).
    pub(super) fn write(&mut self, p: &Ptr, ty: Ty, value: &str, loc: Option<Loc>) -> Option<String> {
        let mut s = self.write_number(p, ty, value, loc)?;
        s.push_str(&self.clear_pointers(p, ty.width()));
        Some(s)
    }

    /// The statement(s) that write `value` (of type `ty`) at `p`: one assignment, or for a
    /// byte-level object one per byte (the value is put in a temporary first).
    pub(super) fn write_number(&mut self, p: &Ptr, ty: Ty, value: &str, loc: Option<Loc>) -> Option<String> {
        let place = self.access(p, ty, loc)?;
        if self.objects.space_of(p.base).is_none() || !self.objects.is_byte_level(p.base) || ty.width() == 8 {
            return Some(format!("{place} := {value};"));
        }
        let tmp = self.body.fresh_var("bytes", &ty.kbpl());
        let mut out = format!("{tmp} := {value};");
        for (j, b) in self.byte_places(p, ty.width()).into_iter().enumerate() {
            out.push_str(&format!(" {b} := {tmp}[{}:{}];", 8 * (j + 1), 8 * j));
        }
        Some(out)
    }
}

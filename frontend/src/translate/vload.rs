//! OpenCL's `vloadN(offset, p)` and `vstoreN(data, offset, p)` (OpenCL C 1.2 §6.12.7, N = 2, 3,
//! 4, 8, 16): the N consecutive elements at `p + offset * N` read into a vector, or a vector
//! written there. Each lane is one access of its element (as a vector load or store through a
//! pointer, `vectors.rs`), so races are checked per element; the pointer may point into
//! several objects (one branch per object). Unlike a `float3` in memory, `vload3` reads 3
//! elements, at `offset * 3`. The half-precision forms (`vload_half`, `vstore_half`) are not
//! these, and stay a located `unsupported` error.

use super::frame::Frame;
use super::values::{scalar_ty, vector_shape, Ex, Ty, Val};
use super::vectors::lane_pointers;
use super::Tr;
use crate::memory::Lin;
use crate::memory::Ptr;
use crate::{builtins, layout, Loc};
use llvm_ir::instruction as inst;
use llvm_ir::Operand;

/// The lane count of `vloadN`/`vstoreN` (by source name), and whether it stores.
fn shape(plain: &str) -> Option<(u64, bool)> {
    let (n, store) = match (plain.strip_prefix("vload"), plain.strip_prefix("vstore")) {
        (Some(n), _) => (n, false),
        (_, Some(n)) => (n, true),
        _ => return None,
    };
    let n: u64 = n.parse().ok()?;
    [2, 3, 4, 8, 16].contains(&n).then_some((n, store))
}

impl<'m> Tr<'m> {
    /// Translates `c` if it calls `vloadN` or `vstoreN`.
    pub(super) fn vload_vstore_call(
        &mut self,
        f: &mut Frame<'m>,
        c: &'m inst::Call,
        name: &str,
        loc: Option<Loc>,
    ) -> bool {
        let plain = builtins::demangle(name);
        let Some((n, store)) = shape(plain) else { return false };
        let args: Vec<&Operand> = c.arguments.iter().map(|(a, _)| a).collect();
        let (data, offset, pointer) = match (store, args.as_slice()) {
            (false, [o, p]) => (None, *o, *p),
            (true, [d, o, p]) => (Some(*d), *o, *p),
            _ => {
                self.err(loc, format!("`{plain}` with {} arguments", args.len()));
                return true;
            }
        };
        let vector = match data {
            Some(d) => self.module.type_of(d),
            None => self.module.type_of(c),
        };
        let Some((lanes, elem)) = vector_shape(&vector).filter(|(l, _)| *l as u64 == n) else {
            self.err(loc, format!("`{plain}` on a value that is not a vector of {n} lanes"));
            return true;
        };
        let (Some(ty), Some((size, _))) = (scalar_ty(&elem), layout::size_align(&elem, &self.module.types)) else {
            self.err(loc, format!("`{plain}` on a vector of pointers or booleans"));
            return true;
        };
        let off = self.operand(f, offset, loc);
        let Some(off) = self.scalar(off, loc) else { return true };
        if off.ty != Ty::Bv(32) {
            self.err(loc, format!("`{plain}` with an offset that is not 32 bits wide"));
            return true;
        }
        let p = self.operand(f, pointer, loc);
        let Some(p) = self.ptr(p, loc) else { return true };
        let start = Ptr { base: p.base, off: p.off.clone().plus(&Lin::term(off.text, n * size)), alt: p.alt.clone() };
        match data {
            Some(d) => {
                let v = self.operand(f, d, loc);
                let Some(Val::Vector(values)) = v else {
                    self.err(loc, format!("`{plain}` of a value kivl cannot split into lanes"));
                    return true;
                };
                let offsets: Vec<u64> = (0..lanes as u64).map(|k| k * size).collect();
                self.write_leaves(&start, &offsets, &values, loc);
            }
            None => {
                let Some(d) = &c.dest else { return true };
                let base = f.var(d);
                let mut values = Vec::with_capacity(lanes);
                for (k, q) in lane_pointers(&start, lanes, size).iter().enumerate() {
                    let v = format!("{base}.{k}");
                    self.body.declare(v.clone(), ty.kbpl());
                    self.on_each_object(q, loc, |tr, q| tr.access(q, ty, loc).map(|place| format!("{v} := {place};")));
                    values.push(Ex::new(v, ty));
                }
                f.vals.insert(d.clone(), Val::Vector(values));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn names() {
        assert_eq!(shape("vload4"), Some((4, false)));
        assert_eq!(shape("vstore16"), Some((16, true)));
        assert_eq!(shape("vload_half"), None);
        assert_eq!(shape("vload5"), None);
    }
}

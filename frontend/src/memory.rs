//! The memory model: one map per memory object (a kernel pointer parameter, a `__local` or
//! `__constant` variable, a private array), indexed by element. Pointers are resolved
//! statically to an object and a byte offset; the offset is kept as a linear form so that
//! `base + 4*i` becomes the element index `i` without a division.

/// Where a memory object lives, which decides its KBPL attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Kernel pointer parameters and `__global`/`__device__` variables: `{:global}`.
    Global,
    /// `__local` / `__shared__`: `{:group_shared}`.
    GroupShared,
    /// `__constant` / `__constant__`: read-only, a constant map (it is never written, so it
    /// never races).
    Constant,
    /// A private array or an address-taken local: a map local to the kernel procedure.
    Private,
}

/// A memory object and the element width its accesses agree on.
#[derive(Clone, Debug)]
pub struct Base {
    pub name: String,
    pub space: Space,
    pub width: Option<u32>,
    /// Its size in bytes, where the program states it (arrays, not pointer parameters).
    pub size: Option<u64>,
}

/// A byte offset: `konst + Σ coeff·term` modulo 2³², each term a bv32 expression.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lin {
    pub terms: Vec<(String, u64)>,
    pub konst: u64,
}

const MASK: u64 = 0xffff_ffff;

impl Lin {
    pub fn constant(c: u64) -> Lin {
        Lin { terms: Vec::new(), konst: c & MASK }
    }
    pub fn term(e: String, coeff: u64) -> Lin {
        let mut l = Lin::default();
        l.add_term(e, coeff);
        l
    }
    fn add_term(&mut self, e: String, coeff: u64) {
        let coeff = coeff & MASK;
        if coeff == 0 {
            return;
        }
        if let Some(t) = self.terms.iter_mut().find(|t| t.0 == e) {
            t.1 = (t.1 + coeff) & MASK;
        } else {
            self.terms.push((e, coeff));
        }
        self.terms.retain(|t| t.1 != 0);
    }
    pub fn plus(mut self, other: &Lin) -> Lin {
        self.konst = (self.konst + other.konst) & MASK;
        for (e, c) in &other.terms {
            self.add_term(e.clone(), *c);
        }
        self
    }

    /// The bv32 expression of `self / unit` (unit = the element size). Exact without a
    /// division when every coefficient is a multiple of the unit; otherwise the byte offset
    /// is divided (C's alignment rules make the division exact for valid accesses).
    pub fn index(&self, unit: u64, needs: &mut dyn FnMut(&'static str)) -> String {
        if unit > 0 && self.konst.is_multiple_of(unit) && self.terms.iter().all(|t| t.1.is_multiple_of(unit)) {
            let scaled = Lin {
                terms: self.terms.iter().map(|(e, c)| (e.clone(), c / unit)).collect(),
                konst: self.konst / unit,
            };
            return scaled.expr(needs);
        }
        needs("BV32_UDIV");
        format!("BV32_UDIV({}, {}bv32)", self.expr(needs), unit)
    }

    /// The bv32 expression of the byte offset.
    pub fn expr(&self, needs: &mut dyn FnMut(&'static str)) -> String {
        let mut parts: Vec<String> = self
            .terms
            .iter()
            .map(|(e, c)| {
                if *c == 1 {
                    e.clone()
                } else {
                    needs("BV32_MUL");
                    format!("BV32_MUL({e}, {c}bv32)")
                }
            })
            .collect();
        if self.konst != 0 || parts.is_empty() {
            parts.push(format!("{}bv32", self.konst));
        }
        let mut it = parts.into_iter();
        let first = it.next().unwrap_or_else(|| "0bv32".into());
        it.fold(first, |acc, p| {
            needs("BV32_ADD");
            format!("BV32_ADD({acc}, {p})")
        })
    }
}

/// The object number of the null pointer (and of undefined pointers): no memory object has it.
/// A pointer that may be null carries it among its candidates; an access on that branch is an
/// error ("possible access through a null or undefined pointer", GPUVerify's null-pointer check),
/// and comparisons with null compare the selector and the offset like any other pointer.
pub const NULL_OBJECT: usize = u32::MAX as usize;

/// The message of the assertion that guards an access through a pointer that may be null.
pub const NULL_ACCESS: &str = "possible access through a null or undefined pointer";

/// A pointer value: a memory object and a byte offset into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptr {
    pub base: usize,
    pub off: Lin,
    /// A pointer that may point into one of several objects (a phi or select of pointers):
    /// which one is the value of a bv32 selector expression (the object's number).
    pub alt: Option<Alt>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alt {
    pub sel: String,
    pub cands: Vec<usize>,
}

impl Ptr {
    pub fn to(base: usize, off: Lin) -> Ptr {
        Ptr { base, off, alt: None }
    }

    /// The null pointer plus a byte offset (an undefined pointer has an arbitrary one).
    pub fn null(off: Lin) -> Ptr {
        Ptr::to(NULL_OBJECT, off)
    }

    /// Whether it is the null pointer itself (no other candidate, offset 0).
    pub fn is_null_constant(&self) -> bool {
        self.base == NULL_OBJECT && self.alt.is_none() && self.off == Lin::default()
    }

    /// The objects it may point into.
    pub fn cands(&self) -> Vec<usize> {
        self.alt.as_ref().map_or_else(|| vec![self.base], |a| a.cands.clone())
    }

    /// The bv32 number of the object it points into.
    pub fn sel(&self) -> String {
        self.alt.as_ref().map_or_else(|| format!("{}bv32", self.base), |a| a.sel.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::Lin;

    fn index(l: &Lin, unit: u64) -> String {
        l.index(unit, &mut |_| {})
    }

    #[test]
    fn strides_that_agree_need_no_division() {
        // A[4*i + 8] as int: element i + 2.
        let l = Lin::term("i".into(), 4).plus(&Lin::constant(8));
        assert_eq!(index(&l, 4), "BV32_ADD(i, 2bv32)");
        // The same bytes read as shorts: element 2*i + 4.
        assert_eq!(index(&l, 2), "BV32_ADD(BV32_MUL(i, 2bv32), 4bv32)");
    }

    #[test]
    fn strides_that_disagree_divide_the_byte_offset() {
        let l = Lin::term("p".into(), 1);
        assert_eq!(index(&l, 4), "BV32_UDIV(p, 4bv32)");
    }

    #[test]
    fn offsets_wrap_at_32_bits_and_cancel() {
        let minus4 = Lin::constant(u64::MAX - 3);
        assert_eq!(index(&Lin::constant(4).plus(&minus4), 4), "0bv32");
        let back = Lin::term("i".into(), 4).plus(&Lin::term("i".into(), 0xffff_fffc));
        assert!(back.terms.is_empty());
    }
}

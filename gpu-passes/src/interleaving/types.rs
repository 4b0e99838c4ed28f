//! Run-time types: what the interpreter needs to know about a type to generate arbitrary values
//! of it (`super::rng`), convert inputs to it (`super::inputs`) and compare with it. Types are
//! interned by the compiler (`super::compile`) and referred to by number.

pub type TyId = u32;

/// A run-time type (for generating arbitrary values).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RTy {
    Bool,
    Int,
    Real,
    Bv(u32),
    Map {
        args: Vec<TyId>,
        result: TyId,
    },
    /// An uninterpreted type (its number).
    Opaque(u32),
}

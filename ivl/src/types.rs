//! The semantic types of Boogie 2 (Leino, "This is Boogie 2", §2): [`Ty`] is a written type
//! with synonyms expanded and no spans, [`MapTy`] a map type `[args]result`.
//!
//! Why a module of its own: the item index ([`crate::resolve`]) records the types of globals
//! and the type checker ([`crate::typeck`]) computes the types of expressions; both use this
//! representation, which depends on neither. [`crate::typeck`] re-exports it.

use crate::ast::*;
use std::fmt;
use std::sync::Arc;

/// A semantic type: synonyms expanded, no spans. Cheap to clone (maps are shared).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Int,
    Real,
    Bv(u32),
    /// An uninterpreted type constructor applied to arguments (`type T a;` used as `T int`).
    Ctor(Name, Arc<[Ty]>),
    Map(Arc<MapTy>),
    /// Parameter `i` of a type synonym's body, or type parameter `i` of a polymorphic function's
    /// or procedure's signature; substituted away at every use (of the synonym; of the function
    /// or procedure, by the instantiation [`Ty::match_params`] infers).
    Param(u32),
    /// Type parameter `i` of the innermost enclosing polymorphic map type `<a0, a1, ...>[..]..`
    /// ([`MapTy::tparams`]); each select and update instantiates it.
    Bound(u32),
    /// The type of an erroneous or unsupported construct: compatible with every type.
    Error,
}

/// `<a0, ..>[args]result`: `tparams` type parameters, [`Ty::Bound`] in `args` and `result`.
/// Two polymorphic map types are the same type when they differ only in the names of their
/// type parameters (numbered in the order written).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapTy {
    pub tparams: u32,
    pub args: Vec<Ty>,
    pub result: Ty,
}

impl MapTy {
    /// Whether a type parameter occurs in no argument type (`<a>[int]a`, `<a>[]a`): the
    /// indices of a select do not determine it, the context must (Boogie 2.4.1's inference).
    pub fn has_result_only_params(&self) -> bool {
        (0..self.tparams).any(|i| !self.args.iter().any(|a| a.has_bound(i)))
    }
}

/// Which type variables [`Ty::match_holes`] binds.
#[derive(Clone, Copy)]
enum Matching {
    Params,
    Bound,
}

impl Ty {
    pub fn map(args: Vec<Ty>, result: Ty) -> Ty {
        Ty::Map(Arc::new(MapTy { tparams: 0, args, result }))
    }

    /// A map type with `tparams` type parameters ([`Ty::Bound`] inside).
    pub fn poly_map(tparams: u32, args: Vec<Ty>, result: Ty) -> Ty {
        Ty::Map(Arc::new(MapTy { tparams, args, result }))
    }

    /// Whether a polymorphic map type occurs anywhere inside.
    pub fn has_poly_map(&self) -> bool {
        match self {
            Ty::Ctor(_, args) => args.iter().any(Ty::has_poly_map),
            Ty::Map(m) => m.tparams > 0 || m.result.has_poly_map() || m.args.iter().any(Ty::has_poly_map),
            _ => false,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    /// Whether an error type occurs anywhere inside.
    pub fn has_error(&self) -> bool {
        match self {
            Ty::Error => true,
            Ty::Ctor(_, args) => args.iter().any(Ty::has_error),
            Ty::Map(m) => m.result.has_error() || m.args.iter().any(Ty::has_error),
            _ => false,
        }
    }

    pub fn bv_width(&self) -> Option<u32> {
        match self {
            Ty::Bv(w) => Some(*w),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&MapTy> {
        match self {
            Ty::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Type equality where [`Ty::Error`] matches anything.
    pub fn compatible(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Ctor(a, xs), Ty::Ctor(b, ys)) => {
                a == b && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| x.compatible(y))
            }
            (Ty::Map(a), Ty::Map(b)) => {
                Arc::ptr_eq(a, b)
                    || (a.args.len() == b.args.len()
                        && a.tparams == b.tparams
                        && a.result.compatible(&b.result)
                        && a.args.iter().zip(&b.args).all(|(x, y)| x.compatible(y)))
            }
            _ => self == other,
        }
    }

    /// A copy that shares no allocation with `self`, so that cloning it on another thread does
    /// not contend for the same reference counts.
    pub fn unshared(&self) -> Ty {
        match self {
            Ty::Ctor(n, xs) => Ty::Ctor(Name::new(n.as_str()), xs.iter().map(Ty::unshared).collect()),
            Ty::Map(m) => Ty::poly_map(m.tparams, m.args.iter().map(Ty::unshared).collect(), m.result.unshared()),
            _ => self.clone(),
        }
    }

    /// Replaces synonym parameters by `args`.
    pub fn substitute(&self, args: &[Ty]) -> Ty {
        match self {
            Ty::Param(i) => args.get(*i as usize).cloned().unwrap_or(Ty::Error),
            Ty::Ctor(n, xs) => Ty::Ctor(n.clone(), xs.iter().map(|x| x.substitute(args)).collect()),
            Ty::Map(m) => {
                Ty::poly_map(m.tparams, m.args.iter().map(|x| x.substitute(args)).collect(), m.result.substitute(args))
            }
            _ => self.clone(),
        }
    }

    /// Replaces the type parameters of a polymorphic map ([`Ty::Bound`], not those of polymorphic
    /// maps nested inside) by `args`: the types of one select or update.
    pub fn instantiate_bound(&self, args: &[Ty]) -> Ty {
        match self {
            Ty::Bound(i) => args.get(*i as usize).cloned().unwrap_or(Ty::Error),
            Ty::Ctor(n, xs) => Ty::Ctor(n.clone(), xs.iter().map(|x| x.instantiate_bound(args)).collect()),
            Ty::Map(m) if m.tparams == 0 => {
                Ty::map(m.args.iter().map(|x| x.instantiate_bound(args)).collect(), m.result.instantiate_bound(args))
            }
            _ => self.clone(),
        }
    }

    /// Whether [`Ty::Bound`]`(i)` of the enclosing polymorphic map occurs (not inside a nested
    /// polymorphic map, whose own parameters they would be).
    pub fn has_bound(&self, i: u32) -> bool {
        match self {
            Ty::Bound(j) => *j == i,
            Ty::Ctor(_, args) => args.iter().any(|a| a.has_bound(i)),
            Ty::Map(m) => m.tparams == 0 && (m.result.has_bound(i) || m.args.iter().any(|a| a.has_bound(i))),
            _ => false,
        }
    }

    /// The match of [`Ty::match_params`] for a select: binds the [`Ty::Bound`]s of `self` (an
    /// index type of a polymorphic map) to the parts of `actual`. Maps inside match only when
    /// neither is polymorphic (their own bound variables would be other [`Ty::Bound`]s).
    pub fn match_bound(&self, actual: &Ty, inst: &mut [Option<Ty>]) -> bool {
        self.match_holes(actual, inst, Matching::Bound)
    }

    /// Whether a [`Ty::Param`] occurs inside.
    pub fn has_param(&self) -> bool {
        match self {
            Ty::Param(_) => true,
            Ty::Ctor(_, args) => args.iter().any(Ty::has_param),
            Ty::Map(m) => m.result.has_param() || m.args.iter().any(Ty::has_param),
            _ => false,
        }
    }

    /// Boogie's type inference at a use of a polymorphic function or procedure: matches the
    /// signature type `self`, whose [`Ty::Param`]s are the type parameters, against the type
    /// `actual` found at the use, and records in `inst` what each parameter must be. False on a
    /// clash (with the type constructors or with an earlier binding). [`Ty::Error`] in `actual`
    /// binds nothing and clashes with nothing.
    pub fn match_params(&self, actual: &Ty, inst: &mut [Option<Ty>]) -> bool {
        self.match_holes(actual, inst, Matching::Params)
    }

    /// [`Ty::match_params`] and [`Ty::match_bound`]: the holes are the [`Ty::Param`]s or the
    /// [`Ty::Bound`]s of `self`.
    fn match_holes(&self, actual: &Ty, inst: &mut [Option<Ty>], how: Matching) -> bool {
        let hole = match (how, self) {
            (Matching::Params, Ty::Param(i)) | (Matching::Bound, Ty::Bound(i)) => Some(*i),
            _ => None,
        };
        match (self, actual) {
            (_, Ty::Error) => true,
            _ if hole.is_some() => match inst.get_mut(hole.unwrap_or_default() as usize) {
                Some(slot @ None) if !actual.has_error() => {
                    *slot = Some(actual.clone());
                    true
                }
                Some(None) => true,
                Some(Some(bound)) => bound.compatible(actual),
                None => false,
            },
            (Ty::Ctor(a, xs), Ty::Ctor(b, ys)) => {
                a == b && xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| x.match_holes(y, inst, how))
            }
            (Ty::Map(a), Ty::Map(b)) if matches!(how, Matching::Params) || a.tparams == 0 => {
                let tparams_match = match how {
                    Matching::Params => a.tparams == b.tparams,
                    Matching::Bound => b.tparams == 0,
                };
                a.args.len() == b.args.len()
                    && tparams_match
                    && a.result.match_holes(&b.result, inst, how)
                    && a.args.iter().zip(&b.args).all(|(x, y)| x.match_holes(y, inst, how))
            }
            _ => self.compatible(actual),
        }
    }

    /// The written form (dummy spans). [`Ty::Error`] and [`Ty::Param`] become a named type `?`.
    pub fn to_type(&self) -> Type {
        let kind = match self {
            Ty::Bool => TypeKind::Bool,
            Ty::Int => TypeKind::Int,
            Ty::Real => TypeKind::Real,
            Ty::Bv(w) => TypeKind::Bv(*w),
            Ty::Ctor(n, xs) => {
                TypeKind::Named(Ident::new(n.clone(), Span::DUMMY), xs.iter().map(Ty::to_type).collect())
            }
            Ty::Map(m) => TypeKind::Map {
                type_params: (0..m.tparams).map(|i| Ident::new(bound_name(i), Span::DUMMY)).collect(),
                args: m.args.iter().map(Ty::to_type).collect(),
                result: Box::new(m.result.to_type()),
            },
            Ty::Bound(i) => TypeKind::Named(Ident::new(bound_name(*i), Span::DUMMY), Vec::new()),
            Ty::Param(_) | Ty::Error => TypeKind::Named(Ident::new("?", Span::DUMMY), Vec::new()),
        };
        Type::new(kind, Span::DUMMY)
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "bool"),
            Ty::Int => write!(f, "int"),
            Ty::Real => write!(f, "real"),
            Ty::Bv(w) => write!(f, "bv{w}"),
            Ty::Ctor(n, xs) => {
                write!(f, "{n}")?;
                for x in xs.iter() {
                    match x {
                        Ty::Ctor(_, ys) if !ys.is_empty() => write!(f, " ({x})")?,
                        Ty::Map(_) => write!(f, " ({x})")?,
                        _ => write!(f, " {x}")?,
                    }
                }
                Ok(())
            }
            Ty::Map(m) => {
                if m.tparams > 0 {
                    write!(f, "<")?;
                    for i in 0..m.tparams {
                        write!(f, "{}{}", if i > 0 { ", " } else { "" }, bound_name(i))?;
                    }
                    write!(f, ">")?;
                }
                write!(f, "[")?;
                for (i, a) in m.args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, "]{}", m.result)
            }
            Ty::Param(i) => write!(f, "?{i}"),
            Ty::Bound(i) => write!(f, "{}", bound_name(*i)),
            Ty::Error => write!(f, "?"),
        }
    }
}

/// The written name of a polymorphic map's type parameter `i` ([`Ty::to_type`], display):
/// `$a0`, which no type of a Boogie program shadows inside the map (Boogie names may contain `$`,
/// but the map's own parameter list binds it there).
fn bound_name(i: u32) -> String {
    format!("$a{i}")
}

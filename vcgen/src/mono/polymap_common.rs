//! What both encodings of polymorphic maps ([`super::polymap`], boxes; [`super::polymap_uf`],
//! uninterpreted values) share: the attribute of the types that stand for arbitrary ones
//! ([`ARBITRARY`]), the selects and updates recorded per declaration ([`Selects`]), which type
//! synonyms both drop, and the declarations they make ([`Made`]).
//!
//! Separate so that each encoding stands on it and neither on the other: the box encoding
//! hands the programs it cannot take exactly to the other one.

use super::subst::{instance_name, Occurrences};
use ivl::ast::*;
use ivl::check::{GlobalEnv, MapTy, Ty};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The attribute of the uninterpreted types that monomorphisation makes to stand for an
/// arbitrary type (a polymorphic procedure's type parameter, the fresh type of a `forall<t>`
/// to prove): such a type may be `int` or any other, so its boxes and keys get no tag that
/// would make them distinct from those of the program's types. With a tag, `m[17] := !m[17]`
/// would leave `m[y]` unchanged for `y: T`, and a procedure `P<T>(y: T)` ensuring `m[y] ==
/// old(m)[y]` would verify although it fails at `T := int`.
pub const ARBITRARY: &str = "kivl_arbitrary_type";

/// The selects and updates of one declaration: the map type and its instantiation, by span.
pub(super) type Selects = Occurrences<Span, (Arc<MapTy>, Vec<Ty>)>;

/// Whether `d` is a type synonym of a polymorphic map type: both encodings drop it, every use
/// being rewritten.
pub(super) fn is_poly_map_synonym(env: &GlobalEnv, d: &Decl) -> bool {
    matches!(&d.kind, DeclKind::Type(td)
        if td.params.is_empty() && td.synonym.as_ref().is_some_and(|t| env.ty(t).has_poly_map()))
}

/// What both encodings of polymorphic maps keep while
/// they add declarations: the names taken, the sort made for each map type, the types that
/// stand for arbitrary ones ([`ARBITRARY`]), and the declarations made so far.
pub(super) struct Made {
    taken: HashSet<Name>,
    sorts: HashMap<Ty, Ty>,
    arbitrary: HashSet<Name>,
    pub decls: Vec<Decl>,
}

impl Made {
    pub fn new(decls: &[Decl]) -> Made {
        Made {
            taken: decls.iter().flat_map(ivl::resolve::decl_names).cloned().collect(),
            sorts: HashMap::new(),
            arbitrary: decls
                .iter()
                .filter_map(|d| match &d.kind {
                    DeclKind::Type(td) if td.attrs.iter().any(|a| a.name.name == ARBITRARY) => {
                        Some(td.name.name.clone())
                    }
                    _ => None,
                })
                .collect(),
            decls: Vec::new(),
        }
    }

    /// A name not taken yet, from `base` and the types `tys`.
    pub fn fresh(&mut self, base: &str, tys: &[Ty]) -> Name {
        let name = instance_name(base, tys, &|n| self.taken.contains(n));
        self.taken.insert(name.clone());
        name
    }

    /// Takes `name` as it is; false when it was taken already.
    pub fn take(&mut self, name: &Name) -> bool {
        self.taken.insert(name.clone())
    }

    /// The uninterpreted sort `{prefix}k` made for map type `m`, declared on first use.
    pub fn sort(&mut self, m: &Ty, prefix: &str) -> Ty {
        if let Some(u) = self.sorts.get(m) {
            return u.clone();
        }
        let name = self.fresh(&format!("{prefix}{}", self.sorts.len()), &[]);
        let td = TypeDecl {
            attrs: Vec::new(),
            finite: false,
            name: Ident::new(name.clone(), Span::DUMMY),
            params: Vec::new(),
            synonym: None,
        };
        self.decls.push(Decl { kind: DeclKind::Type(td), span: Span::DUMMY });
        let u = Ty::Ctor(name, Arc::from([]));
        self.sorts.insert(m.clone(), u.clone());
        u
    }

    /// Whether `t` mentions a type that stands for an arbitrary type ([`ARBITRARY`]).
    pub fn mentions_arbitrary(&self, t: &Ty) -> bool {
        match t {
            Ty::Ctor(n, xs) => self.arbitrary.contains(n) || xs.iter().any(|x| self.mentions_arbitrary(x)),
            Ty::Map(m) => self.mentions_arbitrary(&m.result) || m.args.iter().any(|x| self.mentions_arbitrary(x)),
            _ => false,
        }
    }

    pub fn axiom(&mut self, expr: Expr) {
        self.decls.push(Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: Vec::new(), expr }), span: Span::DUMMY });
    }
}

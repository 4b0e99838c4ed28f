//! Name resolution: the global item index ([`GlobalEnv`]) and the resolution of written types
//! into semantic types ([`Ty`]).
//!
//! Boogie 2 (Leino, "This is Boogie 2", §1–§3; Boogie 2.4.1's `ResolutionContext`) has three
//! global namespaces: types; variables and constants; functions and procedures. Declarations are
//! order-independent. Type synonyms (`type T a = U;`) are expanded away here, so every [`Ty`] that
//! leaves this module is synonym-free; cycles among synonyms are errors.
//!
//! [`GlobalEnv`] holds signatures only — no spans, no bodies — so that the incremental database
//! can cache it and editing one implementation body leaves it unchanged.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::types::Ty;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A hash map keyed by [`Name`] that is itself hashable (order-independently), so that
/// [`GlobalEnv`] can be a salsa value. It uses the Fx hash: the type checker looks up every
/// global a kernel body mentions here, and SipHash made that a tenth of checking time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameMap<V>(pub rustc_hash::FxHashMap<Name, V>);

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap(rustc_hash::FxHashMap::default())
    }
}

impl<V: Hash> Hash for NameMap<V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Sum of per-entry hashes: independent of the map's iteration order.
        let mut sum: u64 = 0;
        for (k, v) in &self.0 {
            #[allow(deprecated)]
            let mut h = std::hash::SipHasher::new();
            k.hash(&mut h);
            v.hash(&mut h);
            sum = sum.wrapping_add(h.finish());
        }
        self.0.len().hash(state);
        sum.hash(state);
    }
}

impl<V> std::ops::Deref for NameMap<V> {
    type Target = rustc_hash::FxHashMap<Name, V>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// A declared type: `type T a b;` (uninterpreted, arity 2) or `type T a = U;` (a synonym whose
/// body refers to its parameters as [`Ty::Param`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeInfo {
    pub arity: usize,
    pub synonym: Option<Ty>,
    pub finite: bool,
}

/// The GPU thread-identity attributes of docs/kbpl.md §4.
pub const IDENTITY_ATTRS: [&str; 12] = [
    "local_id_x",
    "local_id_y",
    "local_id_z",
    "group_id_x",
    "group_id_y",
    "group_id_z",
    "group_size_x",
    "group_size_y",
    "group_size_z",
    "num_groups_x",
    "num_groups_y",
    "num_groups_z",
];

/// The memory space of a global variable (docs/kbpl.md §2.3). Unmarked variables count as global memory
/// when a kernel uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    Unmarked,
    Global,
    GroupShared,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalKind {
    /// `const [unique] c: T;`. `identity` is the thread-identity attribute (`"local_id_x"` …),
    /// if any; `existential` marks a Houdini candidate.
    Const { unique: bool, identity: Option<&'static str>, existential: bool },
    /// `var g: T;`
    Var { space: MemSpace },
}

/// A global constant or variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobalInfo {
    pub ty: Ty,
    pub kind: GlobalKind,
}

impl GlobalInfo {
    pub fn is_const(&self) -> bool {
        matches!(self.kind, GlobalKind::Const { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionInfo {
    pub params: Vec<Ty>,
    pub result: Ty,
    /// The operator of `{:bvbuiltin "..."}`.
    pub bvbuiltin: Option<Name>,
    /// The operator of `{:builtin "..."}`.
    pub builtin: Option<Name>,
    pub has_body: bool,
    /// The number of type parameters; parameter `i` is [`Ty::Param`]`(i)` in the signature.
    pub type_params: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProcInfo {
    pub ins: Vec<(Name, Ty)>,
    pub outs: Vec<(Name, Ty)>,
    /// The declared `modifies` clause (names as written; duplicates removed).
    pub modifies: Vec<Name>,
    pub kernel: bool,
    /// `{:barrier}`: a call to it is a barrier (docs/kbpl.md §3.3).
    pub barrier: bool,
    /// The number of type parameters; parameter `i` is [`Ty::Param`]`(i)` in the signature.
    pub type_params: u32,
}

/// The item index: every global name and its signature.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GlobalEnv {
    pub types: NameMap<TypeInfo>,
    /// Constants and global variables (one namespace).
    pub globals: NameMap<GlobalInfo>,
    pub functions: NameMap<FunctionInfo>,
    pub procedures: NameMap<ProcInfo>,
    /// Some procedure or implementation carries `{:kernel}`: the program is a GPU program
    /// (modifies clauses are inferred; undeclared thread-identity constants are `int`).
    pub has_kernel: bool,
    /// The declarations checked are instances of polymorphic ones (`vcgen::mono`): an equality
    /// between distinct types is recorded ([`crate::check::InstanceKind::DistinctTypeEquality`]),
    /// not an error (the generic declaration was checked before).
    pub instances_of_generic: bool,
}

impl GlobalEnv {
    /// A copy whose types share no allocation with `self` (see [`Ty::unshared`]): for a second
    /// thread that checks half of a large body, so that the two threads do not contend for the
    /// reference counts of the same map types.
    pub fn unshared(&self) -> GlobalEnv {
        let mut e = self.clone();
        for g in e.globals.0.values_mut() {
            g.ty = g.ty.unshared();
        }
        for f in e.functions.0.values_mut() {
            f.result = f.result.unshared();
            for p in &mut f.params {
                *p = p.unshared();
            }
        }
        for p in e.procedures.0.values_mut() {
            for (_, t) in p.ins.iter_mut().chain(p.outs.iter_mut()) {
                *t = t.unshared();
            }
        }
        e
    }
}

/// The implicit declaration of an undeclared thread-identity name (`local_id_x` …) in a GPU
/// program: an `int` constant provided by the prelude.
static IMPLICIT_IDENTITY: std::sync::OnceLock<Vec<GlobalInfo>> = std::sync::OnceLock::new();

fn implicit_identity(i: usize) -> &'static GlobalInfo {
    &IMPLICIT_IDENTITY.get_or_init(|| {
        IDENTITY_ATTRS
            .iter()
            .map(|a| GlobalInfo {
                ty: Ty::Int,
                kind: GlobalKind::Const { unique: false, identity: Some(a), existential: false },
            })
            .collect()
    })[i]
}

impl GlobalEnv {
    /// A constant or global variable, including the implicit thread-identity constants of GPU
    /// programs.
    pub fn global(&self, name: &str) -> Option<&GlobalInfo> {
        match self.globals.get(name) {
            Some(g) => Some(g),
            None if self.has_kernel => IDENTITY_ATTRS.iter().position(|a| *a == name).map(implicit_identity),
            None => None,
        }
    }

    pub fn global_var(&self, name: &str) -> Option<&GlobalInfo> {
        self.globals.get(name).filter(|g| !g.is_const())
    }

    pub fn function(&self, name: &str) -> Option<&FunctionInfo> {
        self.functions.get(name)
    }

    pub fn procedure(&self, name: &str) -> Option<&ProcInfo> {
        self.procedures.get(name)
    }

    /// The semantic type of a written type, synonyms expanded; errors give [`Ty::Error`].
    pub fn ty(&self, t: &Type) -> Ty {
        TypeResolver { env: self, tvars: &[], signature: false, diags: None, binders: MapBinders::default() }.resolve(t)
    }

    /// A written type with its synonyms expanded (spans are dummies). Unresolvable types are
    /// returned unchanged.
    pub fn expand(&self, t: &Type) -> Type {
        let ty = self.ty(t);
        if ty.has_error() {
            t.clone()
        } else {
            ty.to_type()
        }
    }

    /// Resolves a type, reporting errors; `tvars` are type variables in scope (polymorphism is
    /// unsupported: they resolve to [`Ty::Error`]).
    pub(crate) fn resolve_type(&self, t: &Type, tvars: &[Ident], diags: &mut Vec<Diagnostic>) -> Ty {
        TypeResolver { env: self, tvars, signature: false, diags: Some(diags), binders: MapBinders::default() }
            .resolve(t)
    }

    pub(crate) fn resolve_type_quiet(&self, t: &Type, tvars: &[Ident]) -> Ty {
        TypeResolver { env: self, tvars, signature: false, diags: None, binders: MapBinders::default() }.resolve(t)
    }

    /// A type in the signature of a function or procedure with type parameters `tvars`: the
    /// `i`th becomes [`Ty::Param`]`(i)`, which each use instantiates.
    pub(crate) fn resolve_signature(&self, t: &Type, tvars: &[Ident], diags: &mut Vec<Diagnostic>) -> Ty {
        TypeResolver { env: self, tvars, signature: true, diags: Some(diags), binders: MapBinders::default() }
            .resolve(t)
    }
}

/// Applies a declared type name to (resolved) arguments: checks the arity, expands a synonym.
fn apply_named(env: &GlobalEnv, id: &Ident, span: Span, args: Vec<Ty>) -> Result<Ty, Diagnostic> {
    match env.types.get(&id.name) {
        None if id.name == "rmode" && args.is_empty() => Ok(crate::floats::rmode_ty()),
        None if args.is_empty() && crate::floats::type_sizes(&id.name).is_some() => {
            Ok(Ty::Ctor(id.name.clone(), args.into()))
        }
        None => Err(Diagnostic::type_error(format!("undeclared type `{}`", id.name), id.span)
            .with_label("no type of this name is declared")),
        Some(info) if info.arity != args.len() => {
            let what = if info.synonym.is_some() { "type synonym" } else { "type constructor" };
            let plural = if info.arity == 1 { "" } else { "s" };
            Err(Diagnostic::type_error(
                format!("{what} `{}` expects {} argument{plural}, found {}", id.name, info.arity, args.len()),
                span,
            )
            .with_label("wrong number of type arguments"))
        }
        Some(TypeInfo { synonym: Some(body), .. }) => Ok(body.substitute(&args)),
        Some(_) => Ok(Ty::Ctor(id.name.clone(), args.into())),
    }
}

/// `bvN`: the name of a bit-vector type.
fn is_bv_name(name: &str) -> bool {
    name.strip_prefix("bv").is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
}

/// The namespace of a declaration's names: types; constants and variables; functions and
/// procedures.
fn namespace(d: &Decl) -> u8 {
    match d.kind {
        DeclKind::Type(_) => 0,
        DeclKind::Const(_) | DeclKind::Var(_) => 1,
        _ => 2,
    }
}

/// A declaration's attributes.
pub(crate) fn decl_attrs(d: &Decl) -> &[Attribute] {
    match &d.kind {
        DeclKind::Type(x) => &x.attrs,
        DeclKind::Const(x) => &x.attrs,
        DeclKind::Function(x) => &x.attrs,
        DeclKind::Axiom(x) => &x.attrs,
        DeclKind::Var(x) => &x.attrs,
        DeclKind::Procedure(x) => &x.attrs,
        DeclKind::Implementation(x) => &x.attrs,
    }
}

pub fn decl_names(d: &Decl) -> Vec<&Name> {
    match &d.kind {
        DeclKind::Type(x) => vec![&x.name.name],
        DeclKind::Const(x) => x.names.iter().map(|n| &n.name).collect(),
        DeclKind::Function(x) => vec![&x.name.name],
        DeclKind::Var(x) => x.vars.iter().map(|v| &v.name.name).collect(),
        DeclKind::Procedure(x) => vec![&x.name.name],
        DeclKind::Axiom(_) | DeclKind::Implementation(_) => Vec::new(),
    }
}

/// Boogie's rule for `{:extern}`: an extern declaration gives way to another declaration of the
/// same name (a non-extern one, or an earlier extern one). Returns the indices of the
/// declarations that give way; [`build_env`] ignores them.
pub fn shadowed_externs(decls: &[Decl]) -> HashSet<usize> {
    let mut out = HashSet::new();
    if !decls.iter().any(|d| has_attr(decl_attrs(d), "extern")) {
        return out;
    }
    let mut owners: HashMap<(u8, &Name), Vec<(usize, bool)>> = HashMap::new();
    for (i, d) in decls.iter().enumerate() {
        let ext = has_attr(decl_attrs(d), "extern");
        for n in decl_names(d) {
            owners.entry((namespace(d), n)).or_default().push((i, ext));
        }
    }
    for group in owners.values().filter(|g| g.len() > 1) {
        let keep = group.iter().find(|(_, ext)| !ext).unwrap_or(&group[0]).0;
        out.extend(group.iter().filter(|(i, ext)| *ext && *i != keep).map(|(i, _)| *i));
    }
    out
}

/// The program without the `{:extern}` declarations that give way to others
/// ([`shadowed_externs`]), for the passes after checking.
pub fn drop_shadowed_externs(p: &Program) -> Program {
    let shadowed = shadowed_externs(&p.decls);
    if shadowed.is_empty() {
        return p.clone();
    }
    let decls = p.decls.iter().enumerate().filter(|(i, _)| !shadowed.contains(i)).map(|(_, d)| d.clone()).collect();
    Program { decls }
}

struct TypeResolver<'a, 'd> {
    env: &'a GlobalEnv,
    /// Type variables in scope: [`Ty::Error`] (compatible with everything), or in a signature
    /// (`signature`) the [`Ty::Param`] of their position.
    tvars: &'a [Ident],
    signature: bool,
    diags: Option<&'d mut Vec<Diagnostic>>,
    binders: MapBinders,
}

/// The type parameters of the polymorphic map types around the type being resolved, innermost
/// last (Boogie 2's `<a>[Field a]a`; Leino, "This is Boogie 2", §2).
#[derive(Default)]
struct MapBinders(Vec<Vec<Ident>>);

impl MapBinders {
    fn binds(&self, id: &Ident) -> bool {
        self.0.iter().any(|s| s.iter().any(|v| v.name == id.name))
    }

    /// `id` as a type parameter of an enclosing polymorphic map type: [`Ty::Bound`] of the
    /// innermost polymorphic one (the maps without type parameters in between are transparent:
    /// `<a, b>[int][a]b`, test21/MapOutputTypeParams.bpl); one of an outer polymorphic map
    /// (`<a>[Field a]<b>[b]a`) is unsupported.
    fn lookup(&self, id: &Ident) -> Result<Ty, Diagnostic> {
        let inner = self.0.iter().rev().find(|s| !s.is_empty()).map(Vec::as_slice).unwrap_or_default();
        match inner.iter().rposition(|v| v.name == id.name) {
            Some(i) => Ok(Ty::Bound(i as u32)),
            None => Err(Diagnostic::unsupported(
                format!("type parameter `{}` of an enclosing polymorphic map type", id.name),
                id.span,
            )
            .with_label("polymorphic map types nested in one another must not share type parameters")),
        }
    }

    /// The map type of the innermost binder (popped): Boogie's rule that each type parameter
    /// occurs in the map's argument or result types is a type error otherwise.
    fn close(&mut self, args: Vec<Ty>, result: Ty, diags: &mut Vec<Diagnostic>) -> Ty {
        let params = self.0.pop().unwrap_or_default();
        for (i, p) in params.iter().enumerate() {
            let i = i as u32;
            if !result.has_bound(i) && !args.iter().any(|a| a.has_bound(i)) {
                diags.push(
                    Diagnostic::type_error(format!("type variable must occur in map arguments: {}", p.name), p.span)
                        .with_label("not used in the map's types"),
                );
            }
        }
        Ty::poly_map(params.len() as u32, args, result)
    }
}

impl TypeResolver<'_, '_> {
    fn error(&mut self, d: Diagnostic) -> Ty {
        if let Some(diags) = self.diags.as_deref_mut() {
            diags.push(d);
        }
        Ty::Error
    }

    fn resolve(&mut self, t: &Type) -> Ty {
        match &t.kind {
            TypeKind::Bool => Ty::Bool,
            TypeKind::Int => Ty::Int,
            TypeKind::Real => Ty::Real,
            TypeKind::Bv(0) => self.error(
                Diagnostic::unsupported("zero-width bit-vector type `bv0` is not supported", t.span)
                    .with_label("bit-vectors must have at least one bit"),
            ),
            TypeKind::Bv(w) => Ty::Bv(*w),
            TypeKind::Named(id, args) if args.is_empty() && self.binders.binds(id) => {
                let found = self.binders.lookup(id);
                found.unwrap_or_else(|d| self.error(d))
            }
            TypeKind::Named(id, args) => {
                if let Some(i) = self.tvars.iter().rposition(|v| v.name == id.name) {
                    // In a body a type variable is rigid: an opaque type of its own name.
                    return match (self.signature, args.is_empty()) {
                        (true, true) => Ty::Param(i as u32),
                        (false, true) => Ty::Ctor(id.name.clone(), Arc::from([])),
                        _ => Ty::Error,
                    };
                }
                let args: Vec<Ty> = args.iter().map(|a| self.resolve(a)).collect();
                match apply_named(self.env, id, t.span, args) {
                    Ok(ty) => ty,
                    Err(d) => self.error(d),
                }
            }
            TypeKind::Map { type_params, args, result } => {
                self.binders.0.push(type_params.clone());
                let args = args.iter().map(|a| self.resolve(a)).collect();
                let result = self.resolve(result);
                let mut diags = Vec::new();
                let ty = self.binders.close(args, result, &mut diags);
                diags.into_iter().for_each(|d| _ = self.error(d));
                ty
            }
        }
    }
}

/// Reads `{:name "string"}` (the first argument, if it is a string).
pub(crate) fn attr_string<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a Name> {
    find_attr(attrs, name).and_then(|a| match a.args.first() {
        Some(AttrArg::String(s, _)) => Some(s),
        _ => None,
    })
}

/// The thread-identity attribute among `attrs`, if any.
pub fn identity_attr(attrs: &[Attribute]) -> Option<(&'static str, &Attribute)> {
    attrs.iter().find_map(|a| IDENTITY_ATTRS.iter().find(|n| **n == a.name.as_str()).map(|n| (*n, a)))
}

/// The memory space named by the attributes of a global variable.
pub fn mem_space(attrs: &[Attribute]) -> MemSpace {
    if has_attr(attrs, "group_shared") {
        MemSpace::GroupShared
    } else if has_attr(attrs, "global") {
        MemSpace::Global
    } else {
        MemSpace::Unmarked
    }
}

fn dedup_names(ids: &[Ident]) -> Vec<Name> {
    let mut out: Vec<Name> = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(&id.name) {
            out.push(id.name.clone());
        }
    }
    out
}

/// Builds the item index. Reports duplicate declarations, errors in type declarations (unknown
/// types, wrong arities, synonym cycles) and errors in the types of global signatures (constants,
/// variables, functions, procedures). Everything else about a declaration is
/// [`crate::check::check_decl`]'s job.
pub fn build_env(decls: &[Decl]) -> (GlobalEnv, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut env = GlobalEnv::default();
    let shadowed = shadowed_externs(decls);
    let decls = decls.iter().enumerate().filter(|(i, _)| !shadowed.contains(i)).map(|(_, d)| d);

    // Pass 1: type declarations (names and arities), so that signatures can refer to any of them.
    let type_decls = declare_types(decls.clone(), &mut env, &mut diags);
    // Pass 2: expand synonyms in dependency order, detecting cycles.
    let mut synonyms = SynonymExpander {
        decls: &type_decls,
        state: HashMap::new(),
        diags: &mut diags,
        binders: MapBinders::default(),
    };
    let mut names: Vec<&Name> = type_decls.iter().filter(|(_, td)| td.synonym.is_some()).map(|(n, _)| n).collect();
    names.sort_by_key(|n| type_decls[*n].name.span.start);
    for n in names {
        synonyms.expand(n, &mut env);
    }

    // Pass 3: constants, variables, functions, procedures.
    declare_items(decls, &mut env, &mut diags);
    (env, diags)
}

/// Pass 1 of [`build_env`]: the type declarations' names, arities and finiteness (reserved
/// and duplicate names, duplicate parameters reported); the declarations by name.
fn declare_types<'d>(
    decls: impl Iterator<Item = &'d Decl>,
    env: &mut GlobalEnv,
    diags: &mut Vec<Diagnostic>,
) -> HashMap<Name, &'d TypeDecl> {
    let mut type_decls: HashMap<Name, &TypeDecl> = HashMap::new();
    for d in decls {
        if let DeclKind::Type(td) = &d.kind {
            if is_bv_name(&td.name.name) {
                diags.push(
                    Diagnostic::type_error(
                        format!("type name `{}` is reserved for bit-vectors", td.name.name),
                        td.name.span,
                    )
                    .with_label("choose another name"),
                );
                continue;
            }
            match type_decls.entry(td.name.name.clone()) {
                Entry::Occupied(prev) => diags.push(
                    Diagnostic::type_error(format!("duplicate declaration of type `{}`", td.name.name), td.name.span)
                        .with_label("declared again here")
                        .with_related(prev.get().name.span, "first declared here"),
                ),
                Entry::Vacant(v) => {
                    v.insert(td);
                    let mut seen: Vec<&Ident> = Vec::new();
                    for p in td.params.iter().filter(|p| p.name != "_") {
                        if let Some(prev) = seen.iter().find(|q| q.name == p.name) {
                            diags.push(
                                Diagnostic::type_error(format!("duplicate type parameter `{}`", p.name), p.span)
                                    .with_related(prev.span, "first declared here"),
                            );
                        }
                        seen.push(p);
                    }
                    env.types.0.insert(
                        td.name.name.clone(),
                        TypeInfo { arity: td.params.len(), synonym: None, finite: td.finite },
                    );
                }
            }
        }
    }
    type_decls
}

/// Pass 3 of [`build_env`]: constants, variables, functions and procedures (duplicates
/// reported), their types resolved against the types of passes 1 and 2.
fn declare_items<'d>(decls: impl Iterator<Item = &'d Decl>, env: &mut GlobalEnv, diags: &mut Vec<Diagnostic>) {
    let mut var_spans: HashMap<Name, Span> = HashMap::new();
    let mut callable_spans: HashMap<Name, Span> = HashMap::new();
    let dup = |map: &mut HashMap<Name, Span>, id: &Ident, what: &str, diags: &mut Vec<Diagnostic>| -> bool {
        match map.entry(id.name.clone()) {
            Entry::Occupied(prev) => {
                diags.push(
                    Diagnostic::type_error(format!("duplicate declaration of {what} `{}`", id.name), id.span)
                        .with_label("declared again here")
                        .with_related(*prev.get(), "first declared here"),
                );
                true
            }
            Entry::Vacant(v) => {
                v.insert(id.span);
                false
            }
        }
    };
    for d in decls {
        match &d.kind {
            DeclKind::Const(c) => {
                let ty = env.resolve_type(&c.ty, &[], diags);
                let identity = identity_attr(&c.attrs).map(|(n, _)| n);
                let existential = has_attr(&c.attrs, "existential");
                for id in &c.names {
                    if !dup(&mut var_spans, id, "variable or constant", diags) {
                        let kind = GlobalKind::Const { unique: c.unique, identity, existential };
                        env.globals.0.insert(id.name.clone(), GlobalInfo { ty: ty.clone(), kind });
                    }
                }
            }
            DeclKind::Var(v) => {
                let space = mem_space(&v.attrs);
                let mut prev: Option<(&Type, Ty)> = None;
                for tv in &v.vars {
                    let ty = match &prev {
                        Some((pt, pty)) if *pt == &tv.ty => pty.clone(),
                        _ => env.resolve_type(&tv.ty, &[], diags),
                    };
                    prev = Some((&tv.ty, ty.clone()));
                    let space = if tv.attrs.is_empty() { space } else { mem_space(&tv.attrs).max_with(space) };
                    if !dup(&mut var_spans, &tv.name, "variable or constant", diags) {
                        env.globals.0.insert(tv.name.name.clone(), GlobalInfo { ty, kind: GlobalKind::Var { space } });
                    }
                }
            }
            DeclKind::Function(f) => {
                let params = f.params.iter().map(|p| env.resolve_signature(&p.ty, &f.type_params, diags)).collect();
                let result = env.resolve_signature(&f.result.ty, &f.type_params, diags);
                if !dup(&mut callable_spans, &f.name, "function or procedure", diags) {
                    let info = FunctionInfo {
                        params,
                        result,
                        bvbuiltin: attr_string(&f.attrs, "bvbuiltin").cloned(),
                        builtin: attr_string(&f.attrs, "builtin").cloned(),
                        has_body: f.body.is_some(),
                        type_params: f.type_params.len() as u32,
                    };
                    env.functions.0.insert(f.name.name.clone(), info);
                }
            }
            DeclKind::Procedure(p) => {
                let ins: Vec<(Name, Ty)> = p
                    .ins
                    .iter()
                    .map(|x| (x.name.name.clone(), env.resolve_signature(&x.ty, &p.type_params, diags)))
                    .collect();
                let outs: Vec<(Name, Ty)> = p
                    .outs
                    .iter()
                    .map(|x| (x.name.name.clone(), env.resolve_signature(&x.ty, &p.type_params, diags)))
                    .collect();
                let kernel = has_attr(&p.attrs, "kernel");
                env.has_kernel |= kernel;
                if !dup(&mut callable_spans, &p.name, "function or procedure", diags) {
                    let info = ProcInfo {
                        ins,
                        outs,
                        modifies: dedup_names(&p.modifies),
                        kernel,
                        barrier: has_attr(&p.attrs, "barrier"),
                        type_params: p.type_params.len() as u32,
                    };
                    env.procedures.0.insert(p.name.name.clone(), info);
                }
            }
            DeclKind::Implementation(i) => env.has_kernel |= has_attr(&i.attrs, "kernel"),
            DeclKind::Type(_) | DeclKind::Axiom(_) => {}
        }
    }
}

impl MemSpace {
    fn max_with(self, other: MemSpace) -> MemSpace {
        match (self, other) {
            (MemSpace::Unmarked, o) => o,
            (s, _) => s,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SynState {
    InProgress,
    Done,
}

struct SynonymExpander<'a, 'd> {
    decls: &'a HashMap<Name, &'a TypeDecl>,
    state: HashMap<Name, SynState>,
    diags: &'d mut Vec<Diagnostic>,
    binders: MapBinders,
}

impl SynonymExpander<'_, '_> {
    /// Expands synonym `name` (whose dependencies are expanded first) and stores its body.
    fn expand(&mut self, name: &Name, env: &mut GlobalEnv) {
        match self.state.get(name) {
            Some(SynState::Done) => return,
            Some(SynState::InProgress) => return, // reported by the caller that found the cycle
            None => {}
        }
        let td = self.decls[name];
        let Some(body) = &td.synonym else { return };
        self.state.insert(name.clone(), SynState::InProgress);
        let ty = self.expand_type(body, td, env);
        env.types.0.get_mut(name).expect("declared in pass 1").synonym = Some(ty);
        self.state.insert(name.clone(), SynState::Done);
    }

    fn expand_type(&mut self, t: &Type, owner: &TypeDecl, env: &mut GlobalEnv) -> Ty {
        match &t.kind {
            TypeKind::Named(id, args) if args.is_empty() && self.binders.binds(id) => {
                self.binders.lookup(id).unwrap_or_else(|d| {
                    self.diags.push(d);
                    Ty::Error
                })
            }
            TypeKind::Named(id, args) if args.is_empty() && owner.params.iter().any(|p| p.name == id.name) => {
                Ty::Param(owner.params.iter().position(|p| p.name == id.name).unwrap() as u32)
            }
            TypeKind::Named(id, args) => {
                let targs: Vec<Ty> = args.iter().map(|a| self.expand_type(a, owner, env)).collect();
                if let Some(dep) = self.decls.get(&id.name) {
                    if dep.synonym.is_some() {
                        if self.state.get(&id.name) == Some(&SynState::InProgress) {
                            self.diags.push(
                                Diagnostic::type_error(
                                    format!("cyclic type synonym: `{}` is used in its own definition", id.name),
                                    id.span,
                                )
                                .with_label(format!(
                                    "the definition of `{}` refers to `{}` here",
                                    owner.name.name, id.name
                                ))
                                .with_related(dep.name.span, "the cycle goes through this synonym"),
                            );
                            return Ty::Error;
                        }
                        self.expand(&id.name, env);
                    }
                }
                match apply_named(env, id, t.span, targs) {
                    Ok(ty) => ty,
                    Err(d) => {
                        self.diags.push(d);
                        Ty::Error
                    }
                }
            }
            TypeKind::Map { type_params, args, result } => {
                self.binders.0.push(type_params.clone());
                let args = args.iter().map(|a| self.expand_type(a, owner, env)).collect();
                let result = self.expand_type(result, owner, env);
                self.binders.close(args, result, self.diags)
            }
            _ => TypeResolver {
                env,
                tvars: &[],
                signature: false,
                diags: Some(self.diags),
                binders: MapBinders::default(),
            }
            .resolve(t),
        }
    }
}

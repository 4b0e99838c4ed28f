//! Types as Z3 sorts: synonyms expanded ([`TypeEnv`], [`RType`]) and the sort of each resolved
//! type, cached by the [`Encoder`].
//!
//! Separate because sorts are the vocabulary of every other part: declarations, terms and
//! quantifiers all ask for them.

use super::*;

/// A type with synonyms expanded: the key of the sort cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RType {
    Bool,
    Int,
    Real,
    Bv(u32),
    /// Boogie's `floatSeE`: significand bits `S` (with the hidden bit), exponent bits `E`.
    Float(u32, u32),
    /// Boogie's `rmode`: SMT-LIB's `RoundingMode`.
    RMode,
    /// An uninterpreted type applied to arguments.
    Named(Name, Vec<RType>),
    Map(Vec<RType>, Box<RType>),
}

impl RType {
    /// The name of the uninterpreted sort of a named type instance: `T`, `T<int,bool>`.
    fn sort_name(name: &str, args: &[RType]) -> String {
        if args.is_empty() {
            name.to_string()
        } else {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            format!("{}<{}>", name, args.join(","))
        }
    }
}

impl std::fmt::Display for RType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RType::Bool => write!(f, "bool"),
            RType::Int => write!(f, "int"),
            RType::Real => write!(f, "real"),
            RType::Bv(n) => write!(f, "bv{n}"),
            RType::Float(s, e) => write!(f, "float{s}e{e}"),
            RType::RMode => write!(f, "rmode"),
            RType::Named(n, args) => write!(f, "{}", RType::sort_name(n, args)),
            RType::Map(args, r) => {
                let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                write!(f, "[{}]{}", args.join(","), r)
            }
        }
    }
}

/// Type declarations of a program: synonyms and uninterpreted types.
#[derive(Default)]
pub struct TypeEnv {
    synonyms: HashMap<Name, (Vec<Name>, Type)>,
    arities: HashMap<Name, usize>,
}

impl TypeEnv {
    pub fn new(program: &Program) -> TypeEnv {
        let mut env = TypeEnv::default();
        for d in &program.decls {
            if let DeclKind::Type(t) = &d.kind {
                let params = t.params.iter().map(|p| p.name.clone()).collect();
                match &t.synonym {
                    Some(s) => {
                        env.synonyms.insert(t.name.name.clone(), (params, s.clone()));
                    }
                    None => {
                        env.arities.insert(t.name.name.clone(), t.params.len());
                    }
                }
            }
        }
        env
    }

    pub fn resolve(&self, t: &Type) -> Result<RType, Diagnostic> {
        self.resolve_in(t, &HashMap::default(), 0)
    }

    fn resolve_in(&self, t: &Type, subst: &HashMap<Name, RType>, depth: usize) -> Result<RType, Diagnostic> {
        if depth > 64 {
            return Err(Diagnostic::type_error("type synonym expands without end", t.span));
        }
        Ok(match &t.kind {
            TypeKind::Bool => RType::Bool,
            TypeKind::Int => RType::Int,
            TypeKind::Real => RType::Real,
            TypeKind::Bv(n) => {
                if *n == 0 {
                    return Err(Diagnostic::unsupported("bit-vectors of width 0 are not supported", t.span));
                }
                RType::Bv(*n)
            }
            TypeKind::Map { type_params, args, result } => {
                if !type_params.is_empty() {
                    return Err(Diagnostic::unsupported("polymorphic map types are not supported", t.span));
                }
                let args = args.iter().map(|a| self.resolve_in(a, subst, depth + 1)).collect::<Result<_, _>>()?;
                RType::Map(args, Box::new(self.resolve_in(result, subst, depth + 1)?))
            }
            TypeKind::Named(name, args) => {
                if let Some(r) = subst.get(&name.name) {
                    if !args.is_empty() {
                        return Err(Diagnostic::type_error("a type parameter takes no arguments", t.span));
                    }
                    return Ok(r.clone());
                }
                let args: Vec<RType> =
                    args.iter().map(|a| self.resolve_in(a, subst, depth + 1)).collect::<Result<_, _>>()?;
                if let Some((params, body)) = self.synonyms.get(&name.name) {
                    if params.len() != args.len() {
                        return Err(Diagnostic::type_error(
                            format!("type `{}` expects {} arguments, got {}", name.name, params.len(), args.len()),
                            t.span,
                        ));
                    }
                    let inner: HashMap<Name, RType> = params.iter().cloned().zip(args).collect();
                    return self.resolve_in(body, &inner, depth + 1);
                }
                match self.arities.get(&name.name) {
                    Some(&n) if n == args.len() => RType::Named(name.name.clone(), args),
                    Some(&n) => {
                        return Err(Diagnostic::type_error(
                            format!("type `{}` expects {} arguments, got {}", name.name, n, args.len()),
                            t.span,
                        ))
                    }
                    // Boogie's `floatSeE` and `rmode` ([`ivl::floats`]).
                    None if args.is_empty() && name.name == "rmode" => RType::RMode,
                    None if args.is_empty() && ivl::floats::type_sizes(&name.name).is_some() => {
                        let (s, e) = ivl::floats::type_sizes(&name.name).expect("checked");
                        if !(2..=64).contains(&e) || !(2..=1 << 20).contains(&s) {
                            return Err(Diagnostic::unsupported(
                                format!("the float type `{}` has no SMT-LIB sort (sizes 2 to 64 exponent bits, at least 2 significand bits)", name.name),
                                t.span,
                            ));
                        }
                        RType::Float(s, e)
                    }
                    None => return Err(Diagnostic::type_error(format!("unknown type `{}`", name.name), name.span)),
                }
            }
        })
    }
}

impl Encoder<'_> {
    /// The sort of a resolved type (cached).
    pub fn sort(&mut self, t: &RType) -> Sort {
        if let Some(s) = self.sorts.get(t) {
            return s.clone();
        }
        let s = match t {
            RType::Bool => Sort::bool(),
            RType::Int => Sort::int(),
            RType::Real => Sort::real(),
            RType::Bv(n) => Sort::bitvector(*n),
            RType::Float(s, e) => Sort::float(*e, *s),
            RType::RMode => z3::ast::RoundingMode::round_nearest_ties_to_even().get_sort(),
            RType::Named(n, args) => Sort::uninterpreted(Symbol::String(RType::sort_name(n, args))),
            RType::Map(args, r) => {
                let mut s = self.sort(r);
                for a in args.iter().rev() {
                    let d = self.sort(a);
                    s = Sort::array(&d, &s);
                }
                s
            }
        };
        self.sorts.insert(t.clone(), s.clone());
        s
    }

    /// The sort of a declared type.
    pub fn sort_of(&mut self, t: &Type) -> Result<Sort, Diagnostic> {
        let r = self.types.resolve(t)?;
        Ok(self.sort(&r))
    }
}

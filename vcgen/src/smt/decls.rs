//! The prover background: constants (with `unique`), global variables, functions (uninterpreted,
//! SMT-LIB built-ins, `{:inline}` macros, definitions by axiom) and axioms, declared once per
//! program by [`Encoder::new`].
//!
//! Separate from the encoding of expressions, which reads what is declared here.

use super::*;

impl<'p> Encoder<'p> {
    /// Declares everything in `program` except procedures and implementations. Errors are
    /// collected; the encoder is usable for the declarations that succeeded.
    pub fn new(program: &'p Program) -> Result<Encoder<'p>, Vec<Diagnostic>> {
        let mut enc = Encoder {
            types: TypeEnv::new(program),
            sorts: HashMap::default(),
            consts: HashMap::default(),
            const_types: HashMap::default(),
            funcs: HashMap::default(),
            background: Vec::new(),
            notes: Vec::new(),
            inline_depth: 0,
            qbound: Vec::new(),
            side: Vec::new(),
            lambdas: 0,
            never_pattern: crate::no_patterns::never_pattern_functions(program),
        };
        let mut errors = Vec::new();
        let mut uniques: Vec<(RType, Vec<Dynamic>)> = Vec::new();
        // Constants, globals and function signatures first: axioms and bodies refer to them.
        for d in &program.decls {
            match &d.kind {
                DeclKind::Const(c) => match enc.types.resolve(&c.ty) {
                    Ok(rt) => {
                        if c.order_spec.is_some() {
                            errors.push(Diagnostic::unsupported("`extends` (partial orders) is not supported", d.span));
                        }
                        let sort = enc.sort(&rt);
                        for n in &c.names {
                            let k = Dynamic::new_const(n.name.as_str(), &sort);
                            if c.unique {
                                match uniques.iter_mut().find(|(t, _)| *t == rt) {
                                    Some((_, v)) => v.push(k.clone()),
                                    None => uniques.push((rt.clone(), vec![k.clone()])),
                                }
                            }
                            enc.consts.insert(n.name.clone(), k);
                            enc.const_types.insert(n.name.clone(), rt.clone());
                        }
                    }
                    Err(e) => errors.push(e),
                },
                DeclKind::Var(v) => {
                    for x in &v.vars {
                        match enc.types.resolve(&x.ty) {
                            Ok(rt) => {
                                let sort = enc.sort(&rt);
                                enc.consts.insert(x.name.name.clone(), Dynamic::new_const(x.name.name.as_str(), &sort));
                                enc.const_types.insert(x.name.name.clone(), rt);
                            }
                            Err(e) => errors.push(e),
                        }
                    }
                }
                DeclKind::Function(f) => {
                    if let Err(e) = enc.declare_function(f) {
                        errors.push(e);
                    }
                }
                _ => {}
            }
        }
        for (_, ks) in &uniques {
            if ks.len() > 1 {
                enc.background.push(Dynamic::distinct(ks));
            }
        }
        for d in &program.decls {
            match &d.kind {
                DeclKind::Axiom(a) => {
                    match enc.constant_map_axiom(&a.expr).unwrap_or_else(|| enc.bool_expr(&a.expr, &mut Scope::empty()))
                    {
                        Ok(b) => enc.background.push(b),
                        Err(e) => errors.push(e),
                    }
                }
                DeclKind::Function(f) => {
                    if let Err(e) = enc.define_function(f) {
                        errors.push(e);
                    }
                }
                _ => {}
            }
        }
        let side = enc.take_side_axioms();
        enc.background.extend(side);
        if errors.is_empty() {
            Ok(enc)
        } else {
            Err(errors)
        }
    }

    /// `forall x1, …, xn :: C[x1, …, xn] == k` with `C` a constant map and `k` free of the `xi`
    /// (how instrumentations declare an all-zero map) as `C == K(k)`, Z3's constant array. The
    /// two are equivalent under extensionality, but the quantifier would make every satisfiable
    /// query end in "unknown (incomplete quantifiers)" instead of a counterexample.
    fn constant_map_axiom(&mut self, e: &Expr) -> Option<Result<Bool, Diagnostic>> {
        let ExprKind::Quant(q) = &e.kind else { return None };
        if q.kind != QuantKind::Forall || !q.type_params.is_empty() {
            return None;
        }
        let ExprKind::Binary(BinOp::Eq, l, r) = &q.body.kind else { return None };
        let bound: Vec<&Name> = q.vars.iter().map(|v| &v.name.name).collect();
        let is_cell = |x: &Expr| match &x.kind {
            ExprKind::Select(m, args) => {
                matches!(&m.kind, ExprKind::Var(c) if !bound.contains(&&c.name))
                    && args.len() == bound.len()
                    && args.iter().zip(&bound).all(|(a, b)| matches!(&a.kind, ExprKind::Var(v) if &v.name == *b))
            }
            _ => false,
        };
        let (cell, value) = if is_cell(l) {
            (l, r)
        } else if is_cell(r) {
            (r, l)
        } else {
            return None;
        };
        if ivl::visit::free_vars(&**value).iter().any(|v| bound.contains(&v)) {
            return None;
        }
        let ExprKind::Select(m, _) = &cell.kind else { return None };
        let ExprKind::Var(c) = &m.kind else { return None };
        let RType::Map(dom, _) = self.const_types.get(&c.name)?.clone() else { return None };
        if dom.len() != bound.len() {
            return None;
        }
        let array = self.consts.get(&c.name)?.clone();
        Some(self.expr(value, &mut Scope::empty()).map(|k| {
            let filled = dom.iter().rev().fold(k, |v, d| {
                let sort = self.sort(d);
                Dynamic::from_ast(&z3::ast::Array::const_array(&sort, &v))
            });
            array.eq(&filled)
        }))
    }

    /// Axioms that the expressions encoded since the last call need (the definitions of their
    /// lambdas); the caller asserts them with the expressions.
    pub fn take_side_axioms(&mut self) -> Vec<Bool> {
        std::mem::take(&mut self.side)
    }

    /// The Z3 constant of a program constant or global (initial value).
    pub fn constant(&self, name: &str) -> Option<&Dynamic> {
        self.consts.get(name)
    }

    /// Whether `name` is a program-level constant, global or function (so that local variables
    /// of the same name need a distinct Z3 symbol).
    pub fn is_global_name(&self, name: &str) -> bool {
        self.consts.contains_key(name) || self.funcs.contains_key(name)
    }

    fn declare_function(&mut self, f: &'p FunctionDecl) -> Result<(), Diagnostic> {
        if !f.type_params.is_empty() {
            return Err(Diagnostic::unsupported("polymorphic functions are not supported", f.name.span));
        }
        let mut params = Vec::new();
        for p in &f.params {
            params.push(self.sort_of(&p.ty)?);
        }
        let result = self.sort_of(&f.result.ty)?;
        let builtin = string_attr(&f.attrs, "bvbuiltin").or_else(|| string_attr(&f.attrs, "builtin"));
        let imp = if let Some(op) = builtin {
            match Builtin::parse(op) {
                Some(b) => FnImpl::Builtin(b),
                // An unknown operator on floats or rounding modes: refused, not approximated.
                None if params.iter().chain([&result]).any(crate::fp::is_fp_sort) => {
                    return Err(Diagnostic::unsupported(
                        format!("the floating-point builtin `{op}` of function `{}` is not supported", f.name.name),
                        f.name.span,
                    ));
                }
                None => {
                    self.notes.push(
                        Diagnostic::new(
                            ivl::diag::ErrorKind::Unsupported,
                            format!("unknown builtin `{op}`: function `{}` is treated as uninterpreted", f.name.name),
                            f.name.span,
                        )
                        .with_note("an uninterpreted function can make a program look buggy, but never hides a bug"),
                    );
                    FnImpl::Uninterpreted(Rc::new(self.func_decl(f, &params, &result)))
                }
            }
        } else if f.body.is_some() && is_inline(&f.attrs) {
            FnImpl::Inline(f)
        } else {
            FnImpl::Uninterpreted(Rc::new(self.func_decl(f, &params, &result)))
        };
        self.funcs.insert(f.name.name.clone(), FnEntry { params, result, imp });
        Ok(())
    }

    fn func_decl(&self, f: &FunctionDecl, params: &[Sort], result: &Sort) -> FuncDecl {
        let refs: Vec<&Sort> = params.iter().collect();
        FuncDecl::new(f.name.name.as_str(), &refs, result)
    }

    /// The defining axiom of a non-inline function with a body.
    fn define_function(&mut self, f: &'p FunctionDecl) -> Result<(), Diagnostic> {
        let Some(body) = &f.body else { return Ok(()) };
        let Some(entry) = self.funcs.get(&f.name.name) else { return Ok(()) };
        let FnImpl::Uninterpreted(decl) = &entry.imp else { return Ok(()) };
        let decl = decl.clone();
        let params = entry.params.clone();
        let mut scope = Scope::empty();
        let mut bounds = Vec::new();
        for (p, s) in f.params.iter().zip(&params) {
            let name = p.name.as_ref().map(|n| n.name.as_str()).unwrap_or("_");
            let c = Dynamic::fresh_const(name, s);
            if let Some(n) = &p.name {
                scope.bound.push((n.name.clone(), c.clone()));
            }
            bounds.push(c);
        }
        let mark = self.qbound.len();
        self.qbound.extend(bounds.iter().cloned());
        let b = self.expr(body, &mut scope);
        self.qbound.truncate(mark);
        let b = b?;
        let arg_refs: Vec<&dyn Ast> = bounds.iter().map(|c| c as &dyn Ast).collect();
        let app = decl.apply(&arg_refs);
        if app.get_sort() != b.get_sort() {
            return Err(Diagnostic::type_error(
                format!("the body of `{}` does not have the function's result type", f.name.name),
                body.span,
            ));
        }
        let eq = app.eq(&b);
        let axiom = if bounds.is_empty() {
            eq
        } else {
            let pat = Pattern::new(&[&app]);
            z3::ast::forall_const(&arg_refs, &[&pat], &eq)
        };
        self.background.push(axiom);
        Ok(())
    }

    /// The declared type of a constant or global.
    pub fn const_type(&self, name: &str) -> Option<&RType> {
        self.const_types.get(name)
    }

    /// Names of constants marked `{:existential true}` (Houdini candidates), in program order.
    pub fn existentials(program: &Program) -> Vec<Name> {
        let mut out = Vec::new();
        for d in &program.decls {
            if let DeclKind::Const(c) = &d.kind {
                if is_existential(&c.attrs) {
                    out.extend(c.names.iter().map(|n| n.name.clone()));
                }
            }
        }
        out
    }
}

/// `{:existential true}` (or `{:existential}`).
pub fn is_existential(attrs: &[Attribute]) -> bool {
    match find_attr(attrs, "existential") {
        None => false,
        Some(a) => !matches!(a.args.first(), Some(AttrArg::Expr(Expr { kind: ExprKind::BoolLit(false), .. }))),
    }
}

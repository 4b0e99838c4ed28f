//! Type checking of applications and map selects: function calls, built-in calls (the GPU
//! specification built-ins of docs/kbpl.md §5.2, floating-point and bit-vector built-ins),
//! selects and stores, with the inference of polymorphic type parameters they need (recorded as
//! [`Instance`]s for `vcgen::mono`).
//!
//! Separate from the other expressions because of that inference: unification against the
//! declared parameter types and the type the context expects.

use super::*;

impl Checker<'_> {
    /// Whether `e` applies a polymorphic function.
    pub(super) fn is_poly_call(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Call(f, _) if self.env.function(&f.name).is_some_and(|fi| fi.type_params > 0))
    }

    /// `m[idx]`: the element type of `mt`.
    pub(super) fn select(&mut self, mt: &Ty, idx: &[Expr], mspan: Span, span: Span) -> Ty {
        self.select_with(mt, idx, None, None, mspan, span)
    }

    /// [`Checker::select`], the index types already found (`given`) or not, `hint` the
    /// element type the context expects.
    pub(super) fn select_with(
        &mut self,
        mt: &Ty,
        idx: &[Expr],
        given: Option<&[Ty]>,
        hint: Option<&Ty>,
        mspan: Span,
        span: Span,
    ) -> Ty {
        let type_rest = |c: &mut Self| {
            if given.is_none() {
                idx.iter().for_each(|i| _ = c.expr(i));
            }
        };
        let m = match mt {
            Ty::Map(m) => m.clone(),
            Ty::Error => {
                type_rest(self);
                return Ty::Error;
            }
            _ => {
                type_rest(self);
                return self.type_error(
                    format!("cannot index into a value of type `{mt}`"),
                    mspan,
                    "only maps can be indexed",
                );
            }
        };
        if m.args.len() != idx.len() {
            type_rest(self);
            return self.type_error(
                format!("map of type `{mt}` takes {} {}, found {}", m.args.len(), indices(m.args.len()), idx.len()),
                span,
                "wrong number of indices",
            );
        }
        if m.tparams > 0 {
            return self.poly_select(&m, mt, idx, given, hint, span);
        }
        for (k, (i, at)) in idx.iter().zip(&m.args).enumerate() {
            let what = || format!("index {} of a map of type `{mt}`", k + 1);
            match given {
                None => _ = self.expect(i, at, what),
                Some(tys) if !tys[k].compatible(at) => self.mismatch(i.span, at, &tys[k], what()),
                Some(_) => {}
            }
        }
        m.result.clone()
    }

    /// A select or update of a polymorphic map `<a, ..>[args]result` (Leino and Rümmer, TACAS
    /// 2010, §2): its type parameters are instantiated by matching the argument types with the
    /// index types, then the result type with the expected type `hint`
    /// ([`Checker::close_from_context`]); the instantiation is recorded at `span`
    /// ([`Instance::select`]).
    fn poly_select(
        &mut self,
        m: &MapTy,
        mt: &Ty,
        idx: &[Expr],
        given: Option<&[Ty]>,
        hint: Option<&Ty>,
        span: Span,
    ) -> Ty {
        let mut inst = vec![None; m.tparams as usize];
        let (mut ok, mut erroneous) = (true, false);
        for (k, (i, at)) in idx.iter().zip(&m.args).enumerate() {
            let it = match given {
                Some(tys) => tys[k].clone(),
                None if (0..m.tparams).any(|b| at.has_bound(b)) => self.expr(i),
                None => self.expect(i, at, || format!("index {} of a map of type `{mt}`", k + 1)),
            };
            erroneous |= it.has_error();
            if !at.match_bound(&it, &mut inst) {
                let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
                self.mismatch(
                    i.span,
                    &at.instantiate_bound(&partial),
                    &it,
                    format!("index {} of a map of type `{mt}`", k + 1),
                );
                ok = false;
            }
        }
        if !ok || (erroneous && inst.iter().any(Option::is_none)) {
            return Ty::Error;
        }
        Self::close_from_context(m, hint, &mut inst);
        let tys: Vec<Ty> = inst.into_iter().flatten().collect();
        let result = m.result.instantiate_bound(&tys);
        self.instances.push(Instance { span, name: Name::default(), tys, kind: InstanceKind::Select(mt.clone()) });
        result
    }

    pub(super) fn call_expr(&mut self, e: &Expr, f: &Ident, args: &[Expr]) -> Ty {
        let hint = self.hint.take();
        let env = self.env;
        let Some(fi) = env.function(&f.name) else {
            if let Some(t) = self.builtin_call(e, f, args) {
                return t;
            }
            for a in args {
                self.expr(a);
            }
            let label = if env.procedure(&f.name).is_some() {
                "this is a procedure: procedures are invoked with `call`"
            } else {
                "no function of this name is declared"
            };
            return self.type_error(format!("undeclared function `{}`", f.name), f.span, label);
        };
        if fi.params.len() != args.len() {
            for a in args {
                self.expr(a);
            }
            return self.type_error(
                format!(
                    "function `{}` takes {} argument{}, found {}",
                    f.name,
                    fi.params.len(),
                    plural_s(fi.params.len()),
                    args.len()
                ),
                e.span,
                "wrong number of arguments",
            );
        }
        if fi.type_params > 0 {
            let tys = self.poly_args(fi.type_params, &fi.params, args);
            let spans = args.iter().map(|a| a.span);
            let what = |k: usize| format!("argument {} of `{}`", k + 1, f.name);
            let Some(mut inst) = self.instantiate(fi.type_params, fi.params.iter().zip(&tys).zip(spans), what) else {
                return Ty::Error;
            };
            if let Some(h) = hint.filter(|_| inst.iter().any(Option::is_none)) {
                let mut more = inst.clone();
                if fi.result.match_params(&h, &mut more) {
                    inst = more;
                }
            }
            let open_ok = tys.iter().any(Ty::has_error);
            return self.record_instance(e.span, f, inst, open_ok).map_or(Ty::Error, |tys| fi.result.substitute(&tys));
        }
        for (k, (a, pt)) in args.iter().zip(&fi.params).enumerate() {
            self.expect(a, pt, || format!("argument {} of `{}`", k + 1, f.name));
        }
        fi.result.clone()
    }

    /// The types of the arguments of a polymorphic function: applications last, each with the
    /// type its parameter has under what the other arguments determined (Boogie infers
    /// `Cons(x, Nil())`'s `Nil` from `x`).
    fn poly_args(&mut self, n: u32, params: &[Ty], args: &[Expr]) -> Vec<Ty> {
        let mut tys = vec![Ty::Error; args.len()];
        let mut inst = vec![None; n as usize];
        for (k, a) in args.iter().enumerate().filter(|(_, a)| !matches!(a.kind, ExprKind::Call(..))) {
            tys[k] = self.expr(a);
            params[k].match_params(&tys[k], &mut inst);
        }
        for (k, a) in args.iter().enumerate().filter(|(_, a)| matches!(a.kind, ExprKind::Call(..))) {
            let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
            let expected = params[k].substitute(&partial);
            if !expected.has_error() {
                self.hint = Some(expected);
            }
            tys[k] = self.expr(a);
            params[k].match_params(&tys[k], &mut inst);
        }
        tys
    }

    /// Boogie's type inference at a use of a polymorphic function or procedure with `n` type
    /// parameters: matches each signature type against the type found (at its span); a clash
    /// is a type error (labelled by `what` of its position). The partial instantiation, `None`
    /// after a clash.
    pub(super) fn instantiate<'t>(
        &mut self,
        n: u32,
        pairs: impl Iterator<Item = ((&'t Ty, &'t Ty), Span)>,
        what: impl Fn(usize) -> String,
    ) -> Option<Vec<Option<Ty>>> {
        let mut inst = vec![None; n as usize];
        let mut ok = true;
        for (k, ((formal, actual), at)) in pairs.enumerate() {
            if !formal.match_params(actual, &mut inst) {
                let partial: Vec<Ty> = inst.iter().map(|t| t.clone().unwrap_or(Ty::Error)).collect();
                self.mismatch(at, &formal.substitute(&partial), actual, what(k));
                ok = false;
            }
        }
        ok.then_some(inst)
    }

    /// Records the instantiation of `f` at `span`. A type parameter left open is `int`, as in
    /// Boogie 2.4.1 ("type parameter a is ambiguous, instantiating to int"), unless `open_ok`:
    /// an erroneous argument, already reported, left it open (then `None`).
    pub(super) fn record_instance(
        &mut self,
        span: Span,
        f: &Ident,
        inst: Vec<Option<Ty>>,
        open_ok: bool,
    ) -> Option<Vec<Ty>> {
        if open_ok && inst.iter().any(Option::is_none) {
            return None;
        }
        let tys: Vec<Ty> = inst.into_iter().map(|t| t.unwrap_or(Ty::Int)).collect();
        self.instances.push(Instance { span, name: f.name.clone(), tys: tys.clone(), kind: InstanceKind::Use });
        Some(tys)
    }

    /// `int(e)`, `real(e)` and the GPU specification built-ins; `None` if `f` is none of them.
    fn builtin_call(&mut self, e: &Expr, f: &Ident, args: &[Expr]) -> Option<Ty> {
        let name = f.name.as_str();
        let arity = |this: &mut Self, n: usize| -> bool {
            if args.len() != n {
                for a in args {
                    this.expr(a);
                }
                this.type_error(
                    format!("`{name}` takes {n} argument{}, found {}", plural_s(n), args.len()),
                    e.span,
                    "wrong number of arguments",
                );
                false
            } else {
                true
            }
        };
        match name {
            "int" | "real" => {
                if !arity(self, 1) {
                    return Some(if name == "int" { Ty::Int } else { Ty::Real });
                }
                let (from, to) = if name == "int" { (Ty::Real, Ty::Int) } else { (Ty::Int, Ty::Real) };
                self.expect(&args[0], &from, || format!("`{name}(e)` converts a `{from}` to `{to}`"));
                Some(to)
            }
            _ if SPEC_BUILTINS.contains(&name) => {
                if !self.ctx.spec {
                    self.type_error(
                        format!("the specification built-in `{name}` cannot be used here"),
                        f.span,
                        "allowed only in contracts, loop and barrier invariants, assertions and assumptions",
                    );
                }
                let n = match name {
                    "__enabled" => 0,
                    "__taken" => 3,
                    _ => 1,
                };
                if !arity(self, n) {
                    return Some(Ty::Error);
                }
                Some(match name {
                    "__enabled" => Ty::Bool,
                    "__taken" => self.taken(args),
                    "__other" => self.expr(&args[0]),
                    "__uniform" => {
                        self.expr(&args[0]);
                        Ty::Bool
                    }
                    _ => {
                        let mt = self.shared_array_arg(name, &args[0]);
                        if name.ends_with("_offset") {
                            match mt.as_map() {
                                Some(m) if m.args.len() == 1 => m.args[0].clone(),
                                Some(_) => {
                                    self.report(Diagnostic::unsupported(
                                        format!("`{name}` of a map with several indices is not supported"),
                                        args[0].span,
                                    ));
                                    Ty::Error
                                }
                                None => Ty::Error,
                            }
                        } else {
                            Ty::Bool
                        }
                    }
                })
            }
            _ => None,
        }
    }

    /// `__taken(A, i, v)`: `A` a shared array with one index, `i` of its index type, `v` of its
    /// element type.
    fn taken(&mut self, args: &[Expr]) -> Ty {
        let mt = self.shared_array_arg("__taken", &args[0]);
        match mt.as_map() {
            Some(m) if m.args.len() == 1 => {
                let (index, elem) = (m.args[0].clone(), m.result.clone());
                self.expect(&args[1], &index, || "the index of `__taken(A, i, v)` has `A`'s index type".to_string());
                self.expect(&args[2], &elem, || "the value of `__taken(A, i, v)` has `A`'s element type".to_string());
            }
            Some(_) => self.report(Diagnostic::unsupported(
                "`__taken` of a map with several indices is not supported",
                args[0].span,
            )),
            None => {}
        }
        Ty::Bool
    }

    /// The argument of `__read(A)` and friends: a global variable of map type.
    fn shared_array_arg(&mut self, builtin: &str, a: &Expr) -> Ty {
        let msg = || format!("the argument of `{builtin}` must be a shared array (a global variable of map type)");
        let ExprKind::Var(id) = &a.kind else {
            self.expr(a);
            return self.type_error(msg(), a.span, "not a variable name");
        };
        match self.lookup(&id.name) {
            Some(VarRef::Global(g)) if !g.is_const() && g.ty.as_map().is_some() => g.ty.clone(),
            Some(VarRef::Global(g)) if !g.is_const() && g.ty.is_error() => Ty::Error,
            None => self.var(id),
            Some(_) => self.type_error(msg(), a.span, "not a global variable of map type"),
        }
    }
}

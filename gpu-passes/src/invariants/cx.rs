//! The context a rule family works in: one loop's facts, the program's facts, and the list of
//! candidates the rules propose (deduplicated by their printed form).

use super::arith::{Arith, Num};
use super::facts::{Class, LoopAccess, LoopFacts, ProgramFacts, Update};
use ivl::ast::*;
use ivl::check::Ty;
use std::collections::{HashMap, HashSet};

/// A candidate as a rule proposes it.
#[derive(Clone, Debug)]
pub struct Proposal {
    pub rule: &'static str,
    pub expr: Expr,
}

/// A loop with its facts, collecting proposals.
pub struct LoopCx<'a, 'p> {
    pub facts: &'a ProgramFacts<'p>,
    pub lf: &'a LoopFacts,
    pub out: Vec<Proposal>,
    seen: HashSet<String>,
    /// Shared arrays written somewhere in the kernel.
    pub written: Vec<Name>,
    /// Known sizes as literals ([`ProgramFacts::size_literals`]), and the parameters the
    /// procedure's precondition fixes ([`super::params`]).
    sizes: HashMap<Name, Expr>,
}

impl<'a, 'p> LoopCx<'a, 'p> {
    pub fn new(facts: &'a ProgramFacts<'p>, lf: &'a LoopFacts) -> LoopCx<'a, 'p> {
        let written = facts.shared_arrays();
        let mut sizes = facts.size_literals();
        for (x, v) in super::params::fixed_params(facts.program, &lf.proc) {
            sizes.entry(x).or_insert(v);
        }
        LoopCx { facts, lf, out: Vec::new(), seen: HashSet::new(), written, sizes }
    }

    /// The loop's accesses to arrays that some thread writes (the others cannot race), their
    /// indices read through the loop's temporaries ([`Self::through_temporaries`]).
    pub fn accesses(&self) -> Vec<LoopAccess> {
        self.lf
            .accesses
            .iter()
            .filter(|a| self.written.contains(&a.array))
            .map(|a| LoopAccess { index: self.through_temporaries(&a.index), ..a.clone() })
            .collect()
    }

    /// `e` with each temporary of the loop replaced by its definition: a variable the loop
    /// assigns exactly once, `t := d`, that is no counter (`d` does not mention `t`) and
    /// reads no shared memory. The front end binds every computed
    /// index to such a temporary (`$add4 := i + gid * 256; A[$add4] := …`, CUDA/ctimesgid),
    /// and the access rules need the sum. A misreading (a temporary assigned after the access)
    /// only proposes candidates that Houdini refutes.
    pub fn through_temporaries(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        for _ in 0..6 {
            let mut map: HashMap<Name, Expr> = HashMap::new();
            for v in ivl::visit::free_vars(&e) {
                if let Some(d) = self.temporary(&v) {
                    map.insert(v, d.clone());
                }
            }
            if map.is_empty() {
                break;
            }
            e = ivl::visit::substitute(&e, &map);
        }
        e
    }

    /// The one definition of a temporary `t` of the loop (see [`Self::through_temporaries`]).
    fn temporary(&self, t: &Name) -> Option<&'a Expr> {
        if !self.lf.modified.contains(t) || self.update(t) != Update::Other {
            return None;
        }
        let mut defs = self.lf.assigns.iter().filter(|(y, _)| y == t);
        let (Some((_, d)), None) = (defs.next(), defs.next()) else {
            return None;
        };
        // Index arithmetic only: a definition that reads shared memory (`b := data[i] mod 16`)
        // would put a shared read into candidates.
        (!ivl::visit::free_vars(d).contains(t) && !self.class(d).other).then_some(d)
    }

    pub fn arith(&self) -> &'a Arith {
        &self.facts.arith
    }

    /// Proposes `e` under `rule` (once per printed form and loop), with known sizes written as
    /// literals.
    pub fn push(&mut self, rule: &'static str, e: Expr) {
        let e = ivl::visit::substitute(&e, &self.sizes);
        let text = ivl::printer::print_expr(&e);
        if self.seen.insert(text) {
            self.out.push(Proposal { rule, expr: e });
        }
    }

    pub fn var(&self, x: &Name) -> Expr {
        Expr::var(x.clone(), Span::DUMMY)
    }

    pub fn num(&self, e: &Expr) -> Option<Num> {
        self.facts.num_of(&self.lf.locals, e)
    }

    pub fn var_num(&self, x: &Name) -> Option<Num> {
        self.lf.locals.get(x).and_then(Num::of)
    }

    pub fn var_ty(&self, x: &Name) -> Option<&Ty> {
        self.lf.locals.get(x)
    }

    pub fn class(&self, e: &Expr) -> Class {
        self.facts.classify(self.lf, e)
    }

    pub fn update(&self, x: &Name) -> Update {
        self.facts.update_of(self.lf, x)
    }

    /// Numeric variables the loop updates regularly (`x := x + c`, `x := x * 2`, …).
    pub fn counters(&self) -> Vec<(Name, Num, Update)> {
        self.lf
            .modified
            .iter()
            .filter_map(|x| {
                let num = self.var_num(x)?;
                let u = self.update(x);
                (u != Update::Other).then(|| (x.clone(), num, u))
            })
            .collect()
    }

    /// Variables of the loop guards that the loop modifies.
    pub fn guard_vars(&self) -> Vec<Name> {
        let mut out: Vec<Name> = Vec::new();
        for g in &self.lf.guards {
            for v in ivl::visit::free_vars(g) {
                if self.lf.modified.contains(&v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// A call of a specification built-in.
    pub fn builtin(&self, f: &str, args: Vec<Expr>) -> Expr {
        Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), args), Span::DUMMY)
    }

    /// `__write(A)` / `__read(A)`.
    pub fn logged(&self, array: &Name, write: bool) -> Expr {
        self.builtin(if write { "__write" } else { "__read" }, vec![self.var(array)])
    }

    /// `__write_offset(A)` / `__read_offset(A)`.
    pub fn offset(&self, array: &Name, write: bool) -> Expr {
        self.builtin(if write { "__write_offset" } else { "__read_offset" }, vec![self.var(array)])
    }

    pub fn uniform(&self, e: Expr) -> Expr {
        self.builtin("__uniform", vec![e])
    }

    pub fn enabled(&self) -> Expr {
        self.builtin("__enabled", vec![])
    }
}

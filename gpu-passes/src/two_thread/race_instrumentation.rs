//! Quantifier-free race instrumentation, seed 001 §4.2.
//!
//! Per shared array `A` the program keeps thread 1's access log: one tracked read and one
//! tracked write, each an *access site* number (`0`: nothing tracked — the paper's
//! `READ_HAS_OCCURRED_A` is `R_SITE_A != 0`) and the offset, plus the value of the tracked
//! write (for benign writes, seed 003). At every access thread 1 may start tracking it
//! (`LOG_READ_A` / `LOG_WRITE_A`: `if (E$1 && *) { R_SITE_A := s; R_OFF_A := e$1 }`), and
//! thread 2 checks its own access against the log (`CHECK_READ_A` / `CHECK_WRITE_A`):
//!
//! ```text
//! assert {:check "race"} !(E$2 && W_SITE_A == w && W_OFF_A == e$2
//!                          && W_CHANGED_A);                                // write-read
//! assert {:check "race"} !(E$2 && R_SITE_A == r && R_OFF_A == e$2
//!                          && R_VAL_A != v$2);                             // read-write
//! assert {:check "race"} !(E$2 && W_SITE_A == w && W_OFF_A == e$2
//!                          && W_VAL_A != v$2);                             // write-write
//! ```
//!
//! one assertion per logged site `w` / `r` of the array, so that a failure names both
//! accesses: the checking one (primary location) and the logged one (related location). The
//! race kind is "logged access – checking access". Thread 1 logs all accesses of a statement
//! before thread 2 checks any, so every pair of accesses is checked in the order in which the
//! thread doing the earlier one is thread 1; as the two threads are arbitrary, both orders of
//! every pair of threads are covered (§4.2, "Asymmetry of race checking").
//!
//! **Benign pairs** (`KernelOptions::benign_tolerance`, on unless `--no-benign-tolerance`),
//! GPUVerify's default rules (its `RaceInstrumenter`: the `_value` arguments of `_LOG_` and
//! `_CHECK_` and the `_WRITE_READ_BENIGN_FLAG`):
//!
//! - write-write: two writes of the same value (seed 003, above);
//! - read-write: thread 2 writes the value that thread 1's logged read returned;
//! - write-read: thread 1's logged write did not change the element (it wrote the value that
//!   was there), or thread 2 has itself written the logged element since that write (a
//!   different value would be a write-write race, reported there).
//!
//! The last two need the values of the array, so they apply to arrays that the two-thread
//! program models (`super::abstraction`: single or per-thread copies): the log keeps the value
//! of the tracked read (`R_VAL_A`) and whether the tracked write changed its element
//! (`W_CHANGED_A`), and every write of thread 2 clears that flag when it hits the logged
//! element. For an adversarial array the value read and the value overwritten are arbitrary,
//! so both pairs race, as in GPUVerify, whose adversarial reads are arbitrary values too.
//!
//! Atomics (`super::atomics`) have a third log, `A_SITE_A` / `A_OFF_A` (GPUVerify's
//! `_ATOMIC_HAS_OCCURRED`): an atomic is checked against logged reads and writes, a read or a
//! write against logged atomics, and two atomics never race.
//!
//! Barriers empty the logs with the assume-based encoding of §4.2: `assume !R_HAS_OCCURRED`
//! restricts the execution to the one that tracked nothing, which avoids modifying the logs
//! (see `super::barriers`). The log variables are globals marked `{:race_checking}`, so that
//! contracts may talk about them through `__read(A)` and friends.

use super::exprs::*;
use crate::lockstep::SharedVar;
use ivl::ast::*;
use ivl::resolve::MemSpace;

/// What an access does to its element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AccessKind {
    Read,
    Write,
    Atomic,
}

impl AccessKind {
    pub fn of(a: &crate::lockstep::Access) -> AccessKind {
        if a.atomic {
            AccessKind::Atomic
        } else if a.write {
            AccessKind::Write
        } else {
            AccessKind::Read
        }
    }

    fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        }
    }

    /// How the access is named in a message ("plain" next to an atomic).
    fn describe(self, other: AccessKind) -> &'static str {
        match (self, other) {
            (AccessKind::Read, AccessKind::Atomic) => "plain read",
            (AccessKind::Write, AccessKind::Atomic) => "plain write",
            (AccessKind::Atomic, _) => "atomic access",
            (k, _) => k.name(),
        }
    }

    /// Whether an access of this kind by one thread and of kind `other` by another race
    /// (one writes, and they are not both atomic).
    fn conflicts(self, other: AccessKind) -> bool {
        !matches!((self, other), (AccessKind::Read, AccessKind::Read) | (AccessKind::Atomic, AccessKind::Atomic))
    }
}

/// `--warp-sync`: the two threads may be in the same warp (`same_warp`), and the checking
/// access belongs to the statement whose accesses have the source locations `statement`.
pub(crate) struct WarpSync<'a> {
    pub same_warp: &'a Expr,
    pub statement: &'a [Span],
}

/// What restricts the race checks of one access.
pub(crate) struct CheckScope<'a> {
    /// Writes of the same value do not race (`KernelOptions::benign_tolerance`).
    pub benign: bool,
    /// Restricts the checks to distinct threads, when the two modelled threads may be one.
    pub guard: Option<&'a Expr>,
    pub warp: Option<&'a WarpSync<'a>>,
    /// Ends the message.
    pub note: &'a str,
}

/// Thread 1's access log of one shared array.
#[derive(Clone, Debug)]
pub(crate) struct Logs {
    pub array: Name,
    pub space: MemSpace,
    pub r_site: Name,
    pub w_site: Name,
    /// One offset variable per index of the (flattened) location.
    pub r_off: Vec<Name>,
    pub w_off: Vec<Name>,
    pub w_val: Name,
    /// The atomic log, only for an array that is accessed atomically.
    pub a_site: Option<Name>,
    pub a_off: Vec<Name>,
    /// Registered access sites: (number, kind, source location).
    pub sites: Vec<(u64, AccessKind, Span)>,
    /// The values of the tracked accesses, for the benign read-write and write-read pairs
    /// (only for a modelled array, with benign tolerance).
    pub values: Option<ValueLog>,
}

/// What the log keeps of the values of a modelled array (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct ValueLog {
    /// The value the tracked read returned.
    pub r_val: Name,
    /// The tracked write changed its element.
    pub w_changed: Name,
    /// The number of indices of each map level (to rebuild an element from a location).
    pub arity: Vec<usize>,
}

/// One access of one thread: when it happens, where, and the value written.
pub(crate) struct ThreadAccess {
    pub pc: Expr,
    pub loc: Vec<Expr>,
    pub value: Option<Expr>,
    /// The element's value before the access, as the thread sees it (a modelled array only).
    pub old: Option<Expr>,
}

fn race_checking() -> Attribute {
    attr("race_checking", vec![], Span::DUMMY)
}

impl Logs {
    /// The log of `array` and the declarations of its variables (with an atomic log when
    /// `atomics`, with a [`ValueLog`] when `values`).
    pub fn declare(
        array: &Name,
        sv: &SharedVar,
        atomics: bool,
        values: bool,
        names: &mut crate::predication::FreshNames,
    ) -> Option<(Logs, Vec<Decl>)> {
        let depth = crate::lockstep::map_depth(&sv.ty);
        let (levels, value_ty) = crate::lockstep::map_levels(&sv.ty, depth)?;
        let arity: Vec<usize> = levels.iter().map(Vec::len).collect();
        let index_tys: Vec<Type> = levels.into_iter().flatten().collect();
        let mut decls = Vec::new();
        let mut mk = |base: String, ty: Type| {
            let n = names.fresh(&base);
            decls.push(var_decl(&n, ty, vec![race_checking()]));
            n
        };
        let r_site = mk(format!("_R_SITE_{array}"), Type::int());
        let w_site = mk(format!("_W_SITE_{array}"), Type::int());
        let r_off = index_tys.iter().enumerate().map(|(k, t)| mk(format!("_R_OFFSET{k}_{array}"), t.clone())).collect();
        let w_off = index_tys.iter().enumerate().map(|(k, t)| mk(format!("_W_OFFSET{k}_{array}"), t.clone())).collect();
        let w_val = mk(format!("_W_VALUE_{array}"), value_ty.clone());
        let values = values.then(|| ValueLog {
            r_val: mk(format!("_R_VALUE_{array}"), value_ty),
            w_changed: mk(format!("_W_CHANGED_{array}"), Type::bool()),
            arity,
        });
        let (a_site, a_off) = if atomics {
            let site = mk(format!("_A_SITE_{array}"), Type::int());
            let offs =
                index_tys.iter().enumerate().map(|(k, t)| mk(format!("_A_OFFSET{k}_{array}"), t.clone())).collect();
            (Some(site), offs)
        } else {
            (None, Vec::new())
        };
        let logs = Logs {
            array: array.clone(),
            space: sv.space,
            r_site,
            w_site,
            r_off,
            w_off,
            w_val,
            a_site,
            a_off,
            sites: vec![],
            values,
        };
        Some((logs, decls))
    }

    /// The number of an access site (registered on first use).
    pub fn site(&mut self, kind: AccessKind, span: Span) -> u64 {
        if let Some(&(n, _, _)) = self.sites.iter().find(|(_, k, s)| *k == kind && *s == span) {
            return n;
        }
        let n = self.sites.len() as u64 + 1;
        self.sites.push((n, kind, span));
        n
    }

    fn site_vars(&self, kind: AccessKind) -> (&Name, &[Name]) {
        match kind {
            AccessKind::Read => (&self.r_site, &self.r_off),
            AccessKind::Write => (&self.w_site, &self.w_off),
            AccessKind::Atomic => (self.a_site.as_ref().expect("an atomic site has an atomic log"), &self.a_off),
        }
    }

    fn site_names(&self) -> impl Iterator<Item = &Name> {
        [&self.r_site, &self.w_site].into_iter().chain(&self.a_site)
    }

    /// `R_SITE, W_SITE, A_SITE := 0, 0, 0` (kernel entry).
    pub fn init(&self, span: Span) -> Stmt {
        assign_stmt(self.site_names().map(|x| (lhs(x, vec![], span), int(0))).collect(), span)
    }

    /// `assume cond ==> !R_HAS_OCCURRED && !W_HAS_OCCURRED && !A_HAS_OCCURRED` (a barrier, §4.2).
    pub fn clear(&self, cond: Expr, span: Span) -> Stmt {
        let empty = all(self.site_names().map(|x| Expr::eq(var(x), int(0))));
        assume_stmt(implies(cond, empty), span)
    }

    /// `__read(A)`, `__write(A)`, `__read_offset(A)`, `__write_offset(A)` of thread 1.
    pub fn builtin(&self, name: &str) -> Option<Expr> {
        match name {
            "__read" => Some(neq(var(&self.r_site), int(0))),
            "__write" => Some(neq(var(&self.w_site), int(0))),
            "__read_offset" => self.r_off.first().map(var),
            "__write_offset" => self.w_off.first().map(var),
            _ => None,
        }
    }

    /// `LOG_READ_A` / `LOG_WRITE_A` for thread 1's access `a` at `site`: tracked when the
    /// access happens and the (havocked) `track` flag is set.
    pub fn log(&self, kind: AccessKind, site: u64, a: &ThreadAccess, track: &Name, span: Span) -> Vec<Stmt> {
        let cond = and(a.pc.clone(), var(track));
        let keep = |x: &Name, new: Expr| (lhs(x, vec![], span), Expr::ite(cond.clone(), new, var(x)));
        let (site_var, offs) = self.site_vars(kind);
        let mut pairs = vec![keep(site_var, int(site))];
        pairs.extend(offs.iter().zip(&a.loc).map(|(o, l)| keep(o, l.clone())));
        if kind == AccessKind::Write {
            if let Some(v) = &a.value {
                pairs.push(keep(&self.w_val, v.clone()));
            }
        }
        if let (Some(vl), Some(old)) = (&self.values, &a.old) {
            match (kind, &a.value) {
                (AccessKind::Read, _) => pairs.push(keep(&vl.r_val, old.clone())),
                (AccessKind::Write, Some(v)) => pairs.push(keep(&vl.w_changed, neq(v.clone(), old.clone()))),
                _ => {}
            }
        }
        vec![havoc_stmt(std::slice::from_ref(track), span), assign_stmt(pairs, span)]
    }

    /// The element of the array at a (flattened) location: `A[l0][l1]` for the unrenamed `A`.
    pub fn element(&self, loc: &[Expr]) -> Option<Expr> {
        let vl = self.values.as_ref()?;
        let mut e = var(&self.array);
        let mut rest = loc;
        for &n in &vl.arity {
            let (now, later) = rest.split_at(n.min(rest.len()));
            e = Expr::new(ExprKind::Select(Box::new(e), now.to_vec()), Span::DUMMY);
            rest = later;
        }
        Some(e)
    }

    /// `W_SITE_A == w ==> W_VAL_A == v` for every write site `w` whose accesses (in `groups`)
    /// all write one value `v` for which `fixed` holds (the same for both threads, and it reads
    /// nothing that changes during the kernel), read in thread 1 by `phi1`. It holds everywhere: the log sets `W_SITE_A` and
    /// `W_VAL_A` together. Loop headers get it as a checked invariant, so that a loop that
    /// writes a constant keeps knowing the logged value (benign write-write pairs in loops).
    pub fn fixed_write_values(
        &self,
        groups: &[Vec<crate::lockstep::Access>],
        fixed: &dyn Fn(&Expr) -> bool,
        phi1: &dyn Fn(&Expr) -> Expr,
    ) -> Vec<Expr> {
        let mut out = Vec::new();
        for &(site, kind, span) in &self.sites {
            if kind != AccessKind::Write {
                continue;
            }
            let mut values = groups.iter().flatten().filter(|a| a.var == self.array && a.span == span && a.write);
            let Some(first) = values.next().and_then(|a| a.value.clone()) else { continue };
            let key = |e: &Expr| {
                let mut k = e.clone();
                ivl::visit::strip_spans(&mut k);
                k
            };
            let same = values.all(|a| !a.atomic && a.value.as_ref().is_some_and(|v| key(v) == key(&first)));
            if same && fixed(&first) {
                out.push(implies(Expr::eq(var(&self.w_site), int(site)), Expr::eq(var(&self.w_val), phi1(&first))));
            }
        }
        out
    }

    /// Thread 2's write `a` clears `W_CHANGED_A` when it hits the logged write's element
    /// (`_UPDATE_WRITE_READ_BENIGN_FLAG` in GPUVerify); after the checks of its statement.
    pub fn update(&self, kind: AccessKind, a: &ThreadAccess, span: Span) -> Vec<Stmt> {
        let Some(vl) = self.values.as_ref().filter(|_| kind == AccessKind::Write) else { return vec![] };
        let same = all(self.w_off.iter().zip(&a.loc).map(|(o, l)| Expr::eq(var(o), l.clone())));
        let hit = and(a.pc.clone(), and(neq(var(&self.w_site), int(0)), same));
        let changed = Expr::ite(hit, Expr::bool(false), var(&vl.w_changed));
        vec![assign_stmt(vec![(lhs(&vl.w_changed, vec![], span), changed)], span)]
    }

    /// What makes a conflict of a logged `site_kind` access and thread 2's access `a` of kind
    /// `kind` a race under benign tolerance (none: every conflict is one).
    fn harmful(&self, site_kind: AccessKind, kind: AccessKind, a: &ThreadAccess) -> Option<Expr> {
        match (site_kind, kind) {
            (AccessKind::Write, AccessKind::Write) => a.value.as_ref().map(|v| neq(var(&self.w_val), v.clone())),
            (AccessKind::Read, AccessKind::Write) => {
                let vl = self.values.as_ref()?;
                a.value.as_ref().map(|v| neq(var(&vl.r_val), v.clone()))
            }
            (AccessKind::Write, AccessKind::Read) => self.values.as_ref().map(|vl| var(&vl.w_changed)),
            _ => None,
        }
    }

    /// `CHECK_READ_A` / `CHECK_WRITE_A` for thread 2's access `a` at `span`: one assertion per
    /// conflicting logged site, restricted by `scope`.
    pub fn checks(&self, kind: AccessKind, a: &ThreadAccess, span: Span, scope: &CheckScope) -> Vec<Stmt> {
        let mut out = Vec::new();
        let same = |offs: &[Name]| all(offs.iter().zip(&a.loc).map(|(o, l)| Expr::eq(var(o), l.clone())));
        for &(site, site_kind, site_span) in &self.sites {
            if !site_kind.conflicts(kind) {
                continue;
            }
            let (site_var, offs) = self.site_vars(site_kind);
            let mut conflict = and(a.pc.clone(), and(Expr::eq(var(site_var), int(site)), same(offs)));
            if scope.benign {
                if let Some(harmful) = self.harmful(site_kind, kind, a) {
                    conflict = and(conflict, harmful);
                }
            }
            if let Some(w) = scope.warp.filter(|w| !w.statement.contains(&site_span)) {
                conflict = and(Expr::not(w.same_warp.clone()), conflict);
            }
            if let Some(g) = scope.guard {
                conflict = and(g.clone(), conflict);
            }
            let race = format!("{}-{}", site_kind.name(), kind.name());
            let words = (site_kind.describe(kind), kind.describe(site_kind));
            let msg = super::counterexample::race_message(&race, &self.array, words, scope.note);
            out.push(assert_stmt(check_attrs_msg("race", Some(site_span), &msg, span), Expr::not(conflict), span));
        }
        out
    }
}

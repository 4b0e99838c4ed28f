//! Houdini's warm start (issue 20): a re-verification after an edit starts with the candidates
//! that the previous run refuted already false, where nothing they depend on changed, instead
//! of all true.
//!
//! Candidates' names are not stable across edits (`kivl$candidateN` is numbered over the file,
//! the GPU passes number theirs per program), so a candidate is known by a [`CandidateId`]:
//! - `clause`: where it occurs — per occurrence the enclosing procedure's name and the guarded
//!   clause (contract, invariant, `assert`, `assume`) printed with every candidate's name
//!   replaced by one placeholder; an index tells apart candidates with equal occurrences;
//! - `context`: a hash of what its refutation depends on — the procedure (declaration and
//!   implementations) in which it occurs, the procedures that call it (a contract's candidate
//!   is checked at the call sites), and the contracts of their callees, all printed with the
//!   same placeholder and without the attributes of checks (locations, values to capture).
//!   Global declarations and axioms are not part of it: after an edit of those, the refuted
//!   candidates start false (a cold re-run follows if that loses the proof).
//!
//! A candidate whose id was refuted last time starts false ([`start_false`]): its procedure,
//! callers and callees' contracts are textually the same as then. This is Boogie's
//! `/verifySnapshots` idea applied to the assignment; unlike Boogie, nothing is trusted: the
//! search still checks every implementation under the assignment it ends with, so starting
//! from fewer candidates yields an assignment that is still inductive (refutation only removes
//! candidates, and each implementation's last check assumes and asserts the final ones). A
//! candidate started false that a cold run would keep costs precision only (its refutation may
//! have depended on candidates elsewhere that now survive): callers that want the cold verdict
//! re-run cold when a warm run does not verify (`HoudiniStats::warm` says whether anything
//! started false).

use crate::HashMap;
use crate::HashSet;
use ivl::ast::*;
use ivl::visit::{free_vars, rename_vars, walk_stmt, walk_stmt_mut, Node as _, Visit, VisitMut};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

/// What identifies a candidate across edits (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CandidateId {
    pub clause: String,
    pub context: u64,
}

/// The candidates refuted by an earlier run, by identity.
pub type WarmStart = BTreeSet<CandidateId>;

/// The placeholder every candidate's name is printed as.
const PLACEHOLDER: &str = "kivl$houdini$candidate";

/// The id of every candidate of `program` (the program the engine verifies, candidates as
/// `{:existential}` guards).
pub fn identities(program: &Program, candidates: &[Name]) -> BTreeMap<Name, CandidateId> {
    let set: HashSet<Name> = candidates.iter().cloned().collect();
    let procs = Procedures::of(program, &set);
    let mut taken: HashMap<String, usize> = HashMap::default();
    let mut ids = BTreeMap::new();
    for c in candidates {
        let occurs: Vec<&(Name, String)> =
            procs.clauses.iter().filter(|(_, cs)| cs.contains(c)).map(|(o, _)| o).collect();
        let mut clause: String = occurs.iter().map(|(p, text)| format!("{p}: {text}\n")).collect();
        let n = taken.entry(clause.clone()).or_insert(0);
        clause.push_str(&format!("#{n}"));
        *n += 1;
        let homes: BTreeSet<&Name> = occurs.iter().map(|(p, _)| p).collect();
        ids.insert(c.clone(), CandidateId { clause, context: procs.context(&homes) });
    }
    ids
}

/// The candidates (by name) to start false: those whose id is in `warm`.
pub fn start_false(ids: &BTreeMap<Name, CandidateId>, warm: &WarmStart) -> HashSet<Name> {
    ids.iter().filter(|(_, id)| warm.contains(id)).map(|(n, _)| n.clone()).collect()
}

/// The procedures of a program as the ids need them: per procedure the hash of its text and of
/// its contract, its callees, and each clause that mentions candidates.
struct Procedures {
    text: HashMap<Name, u64>,
    contract: HashMap<Name, u64>,
    callees: HashMap<Name, BTreeSet<Name>>,
    /// (procedure, printed clause) and the candidates it mentions, in program order.
    clauses: Vec<((Name, String), Vec<Name>)>,
}

impl Procedures {
    fn of(program: &Program, candidates: &HashSet<Name>) -> Procedures {
        let renaming: std::collections::HashMap<Name, Name> =
            candidates.iter().map(|c| (c.clone(), Name::from(PLACEHOLDER))).collect();
        let mut texts: HashMap<Name, Vec<String>> = HashMap::default();
        let mut p = Procedures {
            text: HashMap::default(),
            contract: HashMap::default(),
            callees: HashMap::default(),
            clauses: Vec::new(),
        };
        for d in &program.decls {
            let Some(name) = procedure_of(d) else { continue };
            let mut clauses = Clauses { candidates, out: Vec::new(), renaming: &renaming };
            clauses.visit_decl(d);
            p.clauses.extend(clauses.out.into_iter().map(|(text, cs)| ((name.clone(), text), cs)));
            p.callees.entry(name.clone()).or_default().extend(callees(d));
            let mut plain = d.clone();
            rename_vars(&mut plain, &renaming);
            plain.accept_mut(&mut WithoutClauseAttributes);
            texts.entry(name.clone()).or_default().push(ivl::printer::print_decl(&plain));
            if let DeclKind::Procedure(pr) = &mut plain.kind {
                pr.body = None;
                p.contract.insert(name.clone(), hash(&ivl::printer::print_decl(&plain)));
            }
        }
        p.text = texts.into_iter().map(|(n, t)| (n, hash(&t))).collect();
        p
    }

    /// The hash of what a candidate occurring in `homes` depends on: their texts, their
    /// callers' texts, and the contracts of all their callees.
    fn context(&self, homes: &BTreeSet<&Name>) -> u64 {
        let callers = self.callees.iter().filter(|(_, cs)| homes.iter().any(|h| cs.contains(*h))).map(|(n, _)| n);
        let around: BTreeSet<&Name> = homes.iter().copied().chain(callers).collect();
        let mut h = std::hash::DefaultHasher::new();
        for n in &around {
            (n, self.text.get(*n)).hash(&mut h);
            for c in self.callees.get(*n).into_iter().flatten() {
                (c, self.contract.get(c)).hash(&mut h);
            }
        }
        h.finish()
    }
}

fn hash<T: Hash>(t: &T) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// The procedure a declaration declares or implements.
fn procedure_of(d: &Decl) -> Option<&Name> {
    match &d.kind {
        DeclKind::Procedure(p) => Some(&p.name.name),
        DeclKind::Implementation(i) => Some(&i.name.name),
        _ => None,
    }
}

/// The procedures called in a declaration (in order, with repeats).
pub fn callees(d: &Decl) -> Vec<Name> {
    struct Calls(Vec<Name>);
    impl Visit for Calls {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Call { proc, .. } = &s.kind {
                self.0.push(proc.name.clone());
            }
            walk_stmt(self, s)
        }
    }
    let mut calls = Calls(Vec::new());
    calls.visit_decl(d);
    calls.0
}

/// Removes the attributes of clauses and checks but `verified_under`: they name places and
/// model values to capture (`{:related_source "file:line:col"}`, `{:capture …}` of every
/// constant), which an edit elsewhere changes, not what the check means.
struct WithoutClauseAttributes;

impl WithoutClauseAttributes {
    fn strip(attrs: &mut Vec<Attribute>) {
        attrs.retain(|a| a.name.as_str() == "verified_under");
    }
}

impl VisitMut for WithoutClauseAttributes {
    fn visit_contract(&mut self, c: &mut Contract) {
        Self::strip(&mut c.attrs);
    }
    fn visit_invariant(&mut self, i: &mut Invariant) {
        Self::strip(&mut i.attrs);
    }
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Assert { attrs, .. } | StmtKind::Assume { attrs, .. } = &mut s.kind {
            Self::strip(attrs);
        }
        walk_stmt_mut(self, s)
    }
    fn visit_expr(&mut self, _e: &mut Expr) {}
}

/// The clauses of a declaration that mention candidates: printed with the placeholder, and
/// the candidates they mention.
struct Clauses<'a> {
    candidates: &'a HashSet<Name>,
    renaming: &'a std::collections::HashMap<Name, Name>,
    out: Vec<(String, Vec<Name>)>,
}

impl Clauses<'_> {
    fn clause(&mut self, kind: &str, e: &Expr) {
        let cs: Vec<Name> = free_vars(e).into_iter().filter(|n| self.candidates.contains(n)).collect();
        if cs.is_empty() {
            return;
        }
        let mut plain = e.clone();
        rename_vars(&mut plain, self.renaming);
        self.out.push((format!("{kind} {}", ivl::printer::print_expr(&plain)), cs));
    }
}

impl Visit for Clauses<'_> {
    fn visit_contract(&mut self, c: &Contract) {
        self.clause("contract", &c.expr);
    }
    fn visit_invariant(&mut self, i: &Invariant) {
        self.clause("invariant", &i.expr);
    }
    fn visit_stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assert { expr, .. } => self.clause("assert", expr),
            StmtKind::Assume { expr, .. } => self.clause("assume", expr),
            _ => {}
        }
        walk_stmt(self, s)
    }
    fn visit_expr(&mut self, _e: &Expr) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> BTreeMap<Name, CandidateId> {
        let (p, d) = ivl::parser::parse_program(text);
        assert!(d.is_empty(), "{d:?}");
        let cands = crate::smt::Encoder::existentials(&p);
        identities(&p, &cands)
    }

    const TWO: &str = "\
const {:existential true} b1: bool;
const {:existential true} b2: bool;
procedure P(n: int) { var i: int; i := 0; while (i < n) invariant b1 ==> i >= 0; { i := i + 1; } }
procedure Q(n: int) { var i: int; i := 0; while (i < n) invariant b2 ==> i <= n; { i := i + 1; } }
";

    #[test]
    fn an_id_survives_renaming_and_an_edit_elsewhere() {
        let before = ids(TWO);
        let renamed = ids(&TWO.replace("b1", "c7").replace("b2", "b1").replace("c7", "b2"));
        assert_eq!(before["b1"], renamed["b2"], "the names do not matter");
        let edited =
            ids(&TWO.replace("invariant b2 ==> i <= n; { i := i + 1; }", "invariant b2 ==> i <= n; { i := i + 2; }"));
        assert_eq!(before["b1"], edited["b1"], "Q's body is not P's context");
        assert_ne!(before["b2"], edited["b2"], "Q's body is Q's invariant's context");
        assert_eq!(start_false(&edited, &before.values().cloned().collect()), HashSet::from_iter([Name::from("b1")]));
    }

    #[test]
    fn a_contract_candidate_depends_on_its_callers() {
        let text = "\
const {:existential true} b: bool;
procedure Callee(x: int) requires b ==> x > 0; { }
procedure Caller() { call Callee(1); }
";
        let edited = ids(&text.replace("Callee(1)", "Callee(0)"));
        assert_ne!(ids(text)["b"], edited["b"]);
    }
}

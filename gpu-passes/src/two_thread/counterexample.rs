//! Counterexamples in the kernel's terms (issue 5): which two threads, which array element,
//! which parameters and sizes make a reported race, divergence or assertion failure happen.
//!
//! Why: "possible race between thread 1 and thread 2" names the two *modelled* threads of the
//! reduction (seed 001 §4.1), not threads of the grid. The solver's model fixes them: it gives
//! the identity constants of both copies (`local_id_x$1`, `group_id_x$2`, …), the uniform sizes
//! and parameters, and the race log's offset (seed 001 §4.2: at a failing check the logged
//! offset equals the checking thread's, so it *is* the index both access). Every assertion of
//! a two-thread procedure asks for these values with `{:capture "label", e}` (see
//! `vcgen::wp::CAPTURE_ATTR`); the engine puts them on the diagnostic
//! ([`ivl::diag::Diagnostic::values`]); [`explain`] rewrites the message with them, and
//! [`Counterexample`] reads them back for the JSON output and for replaying the error
//! concretely (`crate::replay`).
//!
//! Capture labels: `t1.local_id_x` … `t2.group_id_z` for the two threads' copies, the attribute
//! name (`group_id_x`, `group_size_y`, `num_groups_z`) for uniform identity constants,
//! `offsetK` for the K-th index of the logged access, `param.NAME` for the kernel's parameters
//! and `const.NAME` for the file's plain scalar constants.

use super::VariantInfo;
use crate::sizes::DIMS;
use ivl::ast::*;
use ivl::diag::{Diagnostic, ErrorKind};
use ivl::visit::{walk_stmt_mut, VisitMut};
use std::collections::{HashMap, HashSet};

/// The identity attributes (docs/kbpl.md §4), per dimension.
const ID_KINDS: [&str; 4] = ["local_id", "group_id", "group_size", "num_groups"];

fn identity_attr(attrs: &[Attribute]) -> Option<String> {
    ID_KINDS.iter().flat_map(|k| DIMS.iter().map(move |d| format!("{k}_{d}"))).find(|a| has_attr(attrs, a))
}

pub(crate) fn capture(label: &str, e: Expr) -> Attribute {
    Attribute {
        name: Ident::new(vcgen::wp::CAPTURE_ATTR, Span::DUMMY),
        args: vec![AttrArg::String(label.into(), Span::DUMMY), AttrArg::Expr(e)],
        span: Span::DUMMY,
    }
}

fn var(n: &Name) -> Expr {
    Expr::new(ExprKind::Var(Ident::new(n.clone(), Span::DUMMY)), Span::DUMMY)
}

fn scalar(t: &Type) -> bool {
    matches!(t.kind, TypeKind::Int | TypeKind::Bool | TypeKind::Bv(_))
}

/// The `offsetK` index of a race log offset variable (`_W_OFFSET0_A`, `_R_OFFSET1_B`).
fn offset_index(name: &str) -> Option<usize> {
    let rest = ["_W_OFFSET", "_R_OFFSET", "_A_OFFSET"].iter().find_map(|p| name.strip_prefix(p))?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    rest[digits.len()..].starts_with('_').then(|| digits.parse().ok()).flatten()
}

/// Adds `{:capture}` attributes to every assertion of the variants' procedures in `program`:
/// the identity constants of the variant, its parameters, the `source` file's scalar
/// constants and, on race checks, the offsets of the logged access.
pub(crate) fn add_captures(program: &mut Program, variants: &[VariantInfo], source: &Program) {
    let mut id_consts: HashMap<Name, String> = HashMap::new();
    let mut order: Vec<Name> = Vec::new();
    let mut offsets: HashSet<Name> = HashSet::new();
    for d in &program.decls {
        match &d.kind {
            DeclKind::Const(c) => {
                if let Some(a) = identity_attr(&c.attrs) {
                    for n in &c.names {
                        id_consts.insert(n.name.clone(), a.clone());
                        order.push(n.name.clone());
                    }
                }
            }
            DeclKind::Var(v) if has_attr(&v.attrs, "race_checking") => {
                offsets.extend(v.vars.iter().map(|x| x.name.name.clone()).filter(|n| offset_index(n).is_some()));
            }
            _ => {}
        }
    }
    let plain_consts: Vec<Name> = source
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Const(c) if c.attrs.is_empty() && scalar(&c.ty) => Some(c.names.iter().map(|n| n.name.clone())),
            _ => None,
        })
        .flatten()
        .take(16)
        .collect();
    for v in variants {
        let mentioned: HashSet<Name> = v.requires.iter().flat_map(|c| ivl::visit::free_vars(&c.expr)).collect();
        let mut by_attr: HashMap<&str, Vec<&Name>> = HashMap::new();
        for n in order.iter().filter(|n| mentioned.contains(*n)) {
            by_attr.entry(id_consts[n].as_str()).or_default().push(n);
        }
        let mut caps = Vec::new();
        for (attr, names) in &by_attr {
            let copies: Vec<&&Name> = names.iter().filter(|n| n.contains('$')).collect();
            if copies.len() == 2 {
                caps.push(capture(&format!("t1.{attr}"), var(copies[0])));
                caps.push(capture(&format!("t2.{attr}"), var(copies[1])));
            } else if let Some(n) = names.iter().find(|n| !n.contains('$')) {
                caps.push(capture(attr, var(n)));
            }
        }
        caps.sort_by_key(|a| format!("{:?}", a.args.first()));
        for p in &v.ins {
            caps.push(capture(&format!("param.{}", p.name.name), var(&p.name.name)));
        }
        for c in &plain_consts {
            caps.push(capture(&format!("const.{c}"), var(c)));
        }
        for d in &mut program.decls {
            if let DeclKind::Procedure(pr) = &mut d.kind {
                if pr.name.name == v.name {
                    if let Some(body) = &mut pr.body {
                        let mut add = AddCaptures { caps: &caps, offsets: &offsets };
                        add.visit_body(body);
                    }
                }
            }
        }
    }
}

struct AddCaptures<'a> {
    caps: &'a [Attribute],
    offsets: &'a HashSet<Name>,
}

impl VisitMut for AddCaptures<'_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Assert { attrs, expr } = &mut s.kind {
            attrs.extend(self.caps.iter().cloned());
            if ivl::blocks::check_kind(attrs) == "race" {
                for n in ivl::visit::free_vars(&*expr).into_iter().filter(|n| self.offsets.contains(n)) {
                    if let Some(k) = offset_index(&n) {
                        attrs.push(capture(&format!("{}{k}", vcgen::wp::INDEX_CAPTURE), var(&n)));
                    }
                }
            }
        }
        walk_stmt_mut(self, s)
    }
}

/// A thread of the grid as the model gives it (ids may exceed `u32` in a symbolic model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelThread {
    pub local: [u64; 3],
    pub group: [u64; 3],
}

impl std::fmt::Display for ModelThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.local[1..] == [0, 0] && self.group[1..] == [0, 0] {
            write!(f, "thread {} of group {}", self.local[0], self.group[0])
        } else {
            let [a, b, c] = self.local;
            let [x, y, z] = self.group;
            write!(f, "thread ({a},{b},{c}) of group ({x},{y},{z})")
        }
    }
}

impl ModelThread {
    pub fn thread_id(&self) -> Option<crate::interleaving::ThreadId> {
        let c = |v: [u64; 3]| -> Option<[u32; 3]> {
            Some([u32::try_from(v[0]).ok()?, u32::try_from(v[1]).ok()?, u32::try_from(v[2]).ok()?])
        };
        Some(crate::interleaving::ThreadId { local: c(self.local)?, group: c(self.group)? })
    }
}

/// A race as the model shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceFacts {
    /// `write-write`, `read-write` or `write-read` (logged access first).
    pub kind: String,
    pub array: String,
    /// The element both threads access, one value per index (empty when not captured).
    pub index: Vec<String>,
}

/// A counterexample of a two-thread check, in the kernel's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Thread 1 (the logged access of a race) and thread 2 (the checking access).
    pub threads: [ModelThread; 2],
    /// The thread an assertion fails in (0 or 1), when the check is about one thread.
    pub failing: Option<usize>,
    pub race: Option<RaceFacts>,
    /// `group_size_x/y/z` and `num_groups_x/y/z` as the model has them.
    pub local_size: Option<[u64; 3]>,
    pub num_groups: Option<[u64; 3]>,
    /// Kernel parameters and plain constants: name, value.
    pub params: Vec<(String, String)>,
    pub consts: Vec<(String, String)>,
}

/// The label of the failing thread (0 or 1), recorded by [`explain`] before it renames the
/// threads in the message.
const FAILING: &str = "failing";

fn lookup<'a>(values: &'a [(String, String)], label: &str) -> Option<&'a str> {
    values.iter().find(|(l, _)| l == label).map(|(_, v)| v.as_str())
}

/// The text between the first pair of backquotes after `after` in `s`.
fn quoted_after<'a>(s: &'a str, after: &str) -> Option<&'a str> {
    let rest = &s[s.find(after)? + after.len()..];
    let start = rest.find('`')? + 1;
    let len = rest[start..].find('`')?;
    Some(&rest[start..start + len])
}

/// The two-thread counterexample a diagnostic carries, if it has one (errors found by the
/// solver on a two-thread program).
pub fn counterexample(d: &Diagnostic) -> Option<Counterexample> {
    let v = &d.values;
    let num = |label: &str| lookup(v, label).and_then(|s| s.parse::<u64>().ok());
    // An id of a thread: its own copy, else the uniform constant, else 0 (an absent dimension).
    let id = |t: usize, kind: &str, dim: &str| -> (u64, bool) {
        match num(&format!("t{t}.{kind}_{dim}")) {
            Some(x) => (x, true),
            None => (num(&format!("{kind}_{dim}")).unwrap_or(0), false),
        }
    };
    let mut threads = [ModelThread::default(); 2];
    let mut any = false;
    for (t, th) in threads.iter_mut().enumerate() {
        for (k, dim) in DIMS.iter().enumerate() {
            let (l, a) = id(t + 1, "local_id", dim);
            let (g, _) = id(t + 1, "group_id", dim);
            th.local[k] = l;
            th.group[k] = g;
            any |= a;
        }
    }
    if !any {
        return None;
    }
    let dims3 = |kind: &str| -> Option<[u64; 3]> {
        Some([num(&format!("{kind}_x"))?, num(&format!("{kind}_y"))?, num(&format!("{kind}_z"))?])
    };
    let prefixed = |p: &str| -> Vec<(String, String)> {
        v.iter().filter_map(|(l, x)| l.strip_prefix(p).map(|n| (n.to_string(), x.clone()))).collect()
    };
    let race = (d.kind == ErrorKind::Race).then(|| {
        let kind = ["write-write", "read-write", "write-read"]
            .into_iter()
            .find(|k| d.message.contains(k))
            .unwrap_or("")
            .to_string();
        let array = quoted_after(&d.message, "race on ").unwrap_or("").to_string();
        let array = array.split('[').next().unwrap_or("").to_string();
        let mut index = Vec::new();
        while let Some(x) = lookup(v, &format!("{}{}", vcgen::wp::INDEX_CAPTURE, index.len())) {
            index.push(x.to_string());
        }
        RaceFacts { kind, array, index }
    });
    let failing = match lookup(v, FAILING) {
        Some(t) => t.parse::<usize>().ok().filter(|&t| t < 2),
        None if d.kind == ErrorKind::Race || d.kind == ErrorKind::Divergence => None,
        None if d.message.contains("thread 1") => Some(0),
        None if d.message.contains("thread 2") => Some(1),
        None => None,
    };
    Some(Counterexample {
        threads,
        failing,
        race,
        local_size: dims3("group_size"),
        num_groups: dims3("num_groups"),
        params: prefixed("param."),
        consts: prefixed("const."),
    })
}

impl Counterexample {
    /// `A[4]` or `A[4, 2]` (`A[?]` when the index was not captured).
    pub fn element(&self) -> Option<String> {
        let r = self.race.as_ref()?;
        let idx = if r.index.is_empty() { "?".to_string() } else { r.index.join(", ") };
        Some(format!("{}[{idx}]", r.array))
    }

    /// "thread 3 of group 0 writes A[4]; thread 4 of group 0 writes A[4]" for a race, the
    /// failing thread or both threads otherwise.
    pub fn summary(&self) -> String {
        let [t1, t2] = &self.threads;
        match (&self.race, self.failing) {
            (Some(r), _) => {
                let el = self.element().unwrap_or_default();
                let (first, second) = r.kind.split_once('-').unwrap_or(("accesses", "accesses"));
                format!("{t1} {first}s {el}; {t2} {second}s {el}")
            }
            (None, Some(t)) => format!("fails in {}", self.threads[t]),
            (None, None) => format!("{t1} and {t2}"),
        }
    }

    /// "group size (8,1,1), 1 group; n = 3".
    pub fn setting(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some([x, y, z]) = self.local_size {
            parts.push(format!("group size ({x},{y},{z})"));
        }
        if let Some([x, y, z]) = self.num_groups {
            parts.push(format!("groups ({x},{y},{z})"));
        }
        for (n, v) in self.params.iter().chain(&self.consts) {
            parts.push(format!("{n} = {v}"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The JSON fields of this counterexample (added to the error's object).
    pub fn json(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::json;
        let mut m = serde_json::Map::new();
        let threads: Vec<serde_json::Value> = self
            .threads
            .iter()
            .enumerate()
            .map(|(t, th)| {
                let mut o = json!({ "local_id": th.local, "group_id": th.group });
                if let Some(r) = &self.race {
                    let (first, second) = r.kind.split_once('-').unwrap_or(("", ""));
                    o["access"] = if t == 0 { first } else { second }.into();
                }
                o
            })
            .collect();
        m.insert("threads".into(), threads.into());
        if let Some(t) = self.failing {
            m.insert("failing_thread".into(), t.into());
        }
        if let Some(r) = &self.race {
            m.insert("race_kind".into(), r.kind.clone().into());
            m.insert("array".into(), r.array.clone().into());
            let idx: Vec<serde_json::Value> = r
                .index
                .iter()
                .map(|x| x.parse::<i64>().map_or_else(|_| serde_json::Value::from(x.clone()), serde_json::Value::from))
                .collect();
            m.insert("index".into(), if idx.len() == 1 { idx[0].clone() } else { idx.into() });
        }
        if let Some(s) = self.local_size {
            m.insert("local_size".into(), json!(s));
        }
        if let Some(s) = self.num_groups {
            m.insert("num_groups".into(), json!(s));
        }
        if !self.params.is_empty() {
            let o: serde_json::Map<String, serde_json::Value> =
                self.params.iter().map(|(n, v)| (n.clone(), v.clone().into())).collect();
            m.insert("params".into(), o.into());
        }
        m
    }
}

/// The placeholder of a race message that [`explain`] replaces with the element.
const SAME_ELEMENT: &str = "may access the same element";

/// A race check's message, with the modelled threads ("thread 1": the other access at the
/// related location, "thread 2": this one) and the element left for [`explain`] to fill in
/// from the counterexample. `race` is `first-second` in the checks' words, `first` and
/// `second` how the two accesses are named; `note` ends the message.
pub(crate) fn race_message(race: &str, array: &str, (first, second): (&str, &str), note: &str) -> String {
    format!(
        "possible {race} race on `{array}`: this {second} (thread 2) and the {first} at the related location \
         (thread 1) {SAME_ELEMENT}, with no barrier in between{note}"
    )
}

/// [`explain`] on every error of `result`.
pub fn explain_all(result: &mut vcgen::engine::ProgramResult) {
    for r in &mut result.impls {
        if let vcgen::engine::Outcome::Errors(ds) = &mut r.outcome {
            ds.iter_mut().for_each(explain);
        }
    }
}

/// Rewrites a two-thread error with its counterexample: the modelled threads "thread 1" and
/// "thread 2" become grid threads, a race names the element, and a note sums it up.
pub fn explain(d: &mut Diagnostic) {
    let Some(cx) = counterexample(d) else { return };
    if let Some(t) = cx.failing {
        d.values.push((FAILING.into(), t.to_string()));
    }
    let [t1, t2] = cx.threads.map(|t| t.to_string());
    d.message = d.message.replace("thread 1", "\u{0}1").replace("thread 2", "\u{0}2");
    d.message = d.message.replace("\u{0}1", &t1).replace("\u{0}2", &t2);
    if let Some(r) = &cx.race {
        let el = cx.element().unwrap_or_default();
        d.message = d.message.replace(SAME_ELEMENT, &format!("both access `{el}`"));
        let (first, second) = r.kind.split_once('-').unwrap_or(("access", "access"));
        d.primary.message = format!("{second} of {el} by {t2}");
        if let Some(rel) = d.related.first_mut() {
            rel.message = format!("{first} of {el} by {t1}");
        }
    } else if d.kind == ErrorKind::Divergence {
        d.message = format!("{} ({t1} and {t2})", d.message);
    }
    let mut note = format!("counterexample: {}", cx.summary());
    if let Some(s) = cx.setting() {
        note.push_str(&format!(" ({s})"));
    }
    d.notes.insert(0, note);
}

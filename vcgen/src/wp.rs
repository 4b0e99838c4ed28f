//! The linear-size weakest precondition of a passive program (Barnett & Leino,
//! "Weakest-precondition of unstructured programs", PASTE 2005, §4).
//!
//! Why: the textbook WP of an unstructured program duplicates the WP of a join block for each
//! path into it, which is exponential. Barnett & Leino give every block `B` a boolean `B_ok`
//! meaning "every execution from the start of `B` is correct", defined once:
//!
//! ```text
//!   B_ok  <==  wp(S_B, AND { C_ok | C a successor of B })
//! ```
//!
//! (only this direction is needed: `¬entry_ok` forces a failing path), and the verification
//! condition is `entry_ok`. The formula is linear in the size of the passive program.
//!
//! Error reporting: assert number `k` is encoded as `(skip_k || holds_k) && (holds_k ==> Q)`
//! where `holds_k` is `e_k` itself, or for a quantified `e_k` a fresh boolean defined equal to
//! it (a model need not decide a quantified formula). `skip_k` is the switch the
//! solver layer uses to turn the assertion into an assumption (to find the *next* failure after
//! one is reported, and in Houdini); `holds_k` evaluated in a model says whether the assertion
//! held. In a
//! counterexample, following blocks whose `B_ok` is false from the entry, the first assertion
//! with `!skip_k && !holds_k` on the way is the one that failed ([`Vc::failure`]), and the blocks
//! visited are the execution trace.

use crate::smt::{Encoder, Scope};
use crate::{HashMap, HashSet};
use ivl::ast::*;
use ivl::blocks::{BlockImpl, Terminator};
use ivl::diag::Diagnostic;
use z3::ast::{Bool, Dynamic};
use z3::Model;

/// Statements of a block encoded into one formula before the rest of the block continues from a
/// fresh boolean `part_ok` (defined like a block's `B_ok`: `wp(part) ==> part_ok`).
///
/// Why: Z3 flattens a chain `e1 ==> (e2 ==> ... Q)` into `(e1 && ... && ek) ==> Q` at every
/// level, so one block of n assumptions (10,000 straight-line assignments) became a formula of
/// size n² that neither printed nor solved within minutes. Cutting the chain every `CHUNK`
/// statements keeps each formula small and the whole VC linear (`scripts/vc-scaling.sh`).
const CHUNK: usize = 64;

/// One `assert` of the passive program.
#[derive(Debug)]
pub struct AssertSite {
    pub block: usize,
    pub span: Span,
    pub attrs: Vec<Attribute>,
    /// When true (as an assumption), the assertion is assumed instead of checked. (This
    /// polarity, like Boogie's `lblneg` labels, makes "checked" Z3's default phase.)
    pub skip: Bool,
    /// The asserted condition: the encoded expression itself when it is quantifier-free, else
    /// a fresh boolean defined equal to it.
    pub holds: Bool,
    /// The Houdini candidate `b` when the assertion reads `b ==> e`.
    pub guard: Option<Name>,
    /// The assertion's `{:capture "label", e}` expressions, encoded at the assertion: their
    /// values in a counterexample are reported with the failure ([`Failure::values`]).
    pub captures: Vec<(String, Dynamic)>,
    /// Asserts of one block with the same `segment` have no `assume` between them: an
    /// execution that reaches one reaches the others in the same state (see [`Failure::also`]).
    pub segment: usize,
}

/// The attribute that asks for counterexample values: `assert {:capture "label", e} ...;`
/// (several may be given). Passification renames `e` like the assertion, so the value is the
/// one at the assertion; an expression that cannot be encoded is left out, never an error.
pub const CAPTURE_ATTR: &str = "capture";

/// A capture whose label starts with this shows an index of an access (`offset0`, …): the
/// value abstraction ([`crate::abstract_values`]) keeps its bits, so the counterexample can
/// name the element.
pub const INDEX_CAPTURE: &str = "offset";

/// Whether a checked assertion is assumed after it: yes, unless `{:subsumption 0}`.
fn subsumed(attrs: &[Attribute]) -> bool {
    !attrs.iter().any(|a| {
        a.name.name.as_str() == "subsumption"
            && matches!(a.args.first(), Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(n), .. })) if *n == 0u32.into())
    })
}

/// The verification condition of one implementation.
#[derive(Debug)]
pub struct Vc {
    /// `B_ok` per passive block (entry first).
    pub ok: Vec<Bool>,
    pub succs: Vec<Vec<usize>>,
    pub labels: Vec<Name>,
    /// Definitions to assert: `wp_B ==> B_ok` and `holds_k == e_k`.
    pub defs: Vec<Bool>,
    pub asserts: Vec<AssertSite>,
    /// Per block, the indices of its asserts in order.
    block_asserts: Vec<Vec<usize>>,
    /// Existential constants (candidates) that the implementation mentions.
    pub mentioned_candidates: HashSet<Name>,
}

/// A failing assertion found in a model, with the blocks executed to reach it.
#[derive(Clone, Debug)]
pub struct Failure {
    pub assert: usize,
    pub trace: Vec<usize>,
    /// The values of the failing assertion's captures in the model, label -> value
    /// ([`model_value`] syntax).
    pub values: Vec<(String, String)>,
    /// The asserts after `assert` in the same block and segment (nothing but asserts between
    /// them) that are checked and false in the same model, in order. The execution that fails
    /// at `assert` fails at each of these too once the asserts before it are made assumptions
    /// or removed, which lets Houdini refute their candidates without a check each.
    pub also: Vec<usize>,
}

/// A model value as text: integers and bit-vectors in decimal (bit-vectors unsigned, without
/// the `bvN` suffix), booleans as `true`/`false`, abstracted values as
/// [`crate::abstract_values::ANY_VALUE`], anything else as Z3 prints it.
pub fn model_value(v: &Dynamic) -> String {
    if let Some(b) = v.as_bool().and_then(|b| b.as_bool()) {
        return b.to_string();
    }
    if let Some(i) = v.as_int() {
        if let Some(n) = i.as_i64() {
            return n.to_string();
        }
        // Big or negative literals print as `(- 123)`.
        let t = i.to_string();
        return t.trim_start_matches("(- ").trim_end_matches(')').parse::<num_bigint::BigInt>().map_or(
            t.clone(),
            |n| {
                if t.starts_with("(-") {
                    (-n).to_string()
                } else {
                    n.to_string()
                }
            },
        );
    }
    if let Some(b) = v.as_bv() {
        if let Some(n) = b.as_u64() {
            return n.to_string();
        }
        let t = b.to_string();
        let parsed = if let Some(h) = t.strip_prefix("#x") {
            num_bigint::BigInt::parse_bytes(h.as_bytes(), 16)
        } else if let Some(bits) = t.strip_prefix("#b") {
            num_bigint::BigInt::parse_bytes(bits.as_bytes(), 2)
        } else {
            None
        };
        return parsed.map_or(t, |n| n.to_string());
    }
    // A value of an abstracted class (`crate::abstract_values`): the proof did not depend on
    // its bits, and Z3's name for it (`$value_bv32!val!0`) means nothing to a reader.
    let sort = z3::ast::Ast::get_sort(v);
    if sort.kind() == z3::SortKind::Uninterpreted && crate::abstract_values::is_abstract_sort(&sort.to_string()) {
        return crate::abstract_values::ANY_VALUE.to_string();
    }
    v.to_string()
}

/// The `{:capture "label", e}` pairs of an assertion's attributes.
fn capture_args(attrs: &[Attribute]) -> Vec<(String, &Expr)> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.name.as_str() == CAPTURE_ATTR) {
        if let [AttrArg::String(label, _), AttrArg::Expr(e)] = a.args.as_slice() {
            out.push((label.to_string(), e));
        }
    }
    out
}

/// Z3 constants for the parameters, locals and incarnations of a passive implementation.
/// Names that clash with program-level names get a fresh Z3 symbol.
pub fn impl_env(enc: &mut Encoder, imp: &BlockImpl) -> Result<HashMap<Name, Dynamic>, Vec<Diagnostic>> {
    let mut env = HashMap::default();
    let mut errors = Vec::new();
    for v in imp.ins.iter().chain(&imp.outs).chain(&imp.locals) {
        match enc.sort_of(&v.ty) {
            Ok(s) => {
                let c = if enc.is_global_name(&v.name.name) || env.contains_key(&v.name.name) {
                    Dynamic::fresh_const(v.name.name.as_str(), &s)
                } else {
                    Dynamic::new_const(v.name.name.as_str(), &s)
                };
                env.insert(v.name.name.clone(), c);
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(env)
    } else {
        Err(errors)
    }
}

/// The candidate guarding an assertion `b ==> e`, if `b` is one of `candidates`; as in Boogie's
/// Houdini, the guard may also sit in the consequent of other implications (`p ==> b ==> e`,
/// GPUVerify's predicated loop invariants).
pub fn candidate_guard(e: &Expr, candidates: &HashSet<Name>) -> Option<Name> {
    match &e.kind {
        ExprKind::Binary(BinOp::Implies, g, rest) => match &g.kind {
            ExprKind::Var(x) if candidates.contains(&x.name) => Some(x.name.clone()),
            _ => candidate_guard(rest, candidates),
        },
        _ => None,
    }
}

/// Builds the VC of a passive implementation (blocks in topological order, entry first).
pub fn generate(
    enc: &mut Encoder,
    passive: &BlockImpl,
    env: &HashMap<Name, Dynamic>,
    candidates: &HashSet<Name>,
) -> Result<Vc, Vec<Diagnostic>> {
    let n = passive.blocks.len();
    let succs = successors(passive);
    let ok: Vec<Bool> = passive.blocks.iter().map(|b| Bool::fresh_const(&format!("{}_ok", b.label.name))).collect();
    let mut g = Generator {
        enc,
        candidates,
        defs: Vec::with_capacity(n),
        asserts: Vec::new(),
        errors: Vec::new(),
        mentioned: HashSet::default(),
        scope: Scope::new(env),
    };
    let mut block_asserts = vec![Vec::new(); n];
    for (bi, block) in passive.blocks.iter().enumerate().rev() {
        if succs[bi].iter().any(|&s| s <= bi) {
            return Err(vec![Diagnostic::new(
                ivl::diag::ErrorKind::Unsupported,
                "passive blocks are not in topological order (internal error)",
                block.span,
            )]);
        }
        let succ_ok: Vec<&Bool> = succs[bi].iter().map(|&s| &ok[s]).collect();
        let mut q = match succ_ok.len() {
            0 => Bool::from_bool(true),
            1 => succ_ok[0].clone(),
            _ => Bool::and(&succ_ok),
        };
        block_asserts[bi] = g.block(bi, block, &mut q);
        g.defs.push(q.implies(&ok[bi]));
    }
    if !g.errors.is_empty() {
        return Err(g.errors);
    }
    let Generator { enc, mut defs, asserts, mentioned, mut scope, .. } = g;
    defs.extend(entry_facts(enc, passive, &succs, &mut scope));
    defs.extend(enc.take_side_axioms());
    Ok(Vc {
        ok,
        succs,
        labels: passive.blocks.iter().map(|b| b.label.name.clone()).collect(),
        defs,
        asserts,
        block_asserts,
        mentioned_candidates: mentioned,
    })
}

/// Each passive block's successors, as block indices.
fn successors(passive: &BlockImpl) -> Vec<Vec<usize>> {
    let index = passive.label_index();
    passive
        .blocks
        .iter()
        .map(|b| match &b.term {
            Terminator::Goto(ts) => ts.iter().filter_map(|t| index.get(&t.name).copied()).collect(),
            Terminator::Return => Vec::new(),
        })
        .collect()
}

/// [`generate`] under way: what the blocks encoded so far contributed to the VC.
struct Generator<'a, 'p, 'e> {
    enc: &'a mut Encoder<'p>,
    candidates: &'a HashSet<Name>,
    defs: Vec<Bool>,
    asserts: Vec<AssertSite>,
    errors: Vec<Diagnostic>,
    mentioned: HashSet<Name>,
    scope: Scope<'e>,
}

impl Generator<'_, '_, '_> {
    /// Encodes the statements of block `bi` backwards into `q` (on entry, the conjunction of
    /// its successors' `B_ok`), the block's WP; returns the indices of its asserts in order.
    fn block(&mut self, bi: usize, block: &ivl::blocks::Block, q: &mut Bool) -> Vec<usize> {
        // Asserts of this block, collected backwards; an `assume` starts a new segment.
        let mut here = Vec::new();
        let mut segment = 0;
        for (k, s) in block.stmts.iter().rev().enumerate() {
            if k > 0 && k % CHUNK == 0 {
                let c = Bool::fresh_const("part_ok");
                self.defs.push(q.implies(&c));
                *q = c;
            }
            match &s.kind {
                StmtKind::Assume { expr, .. } => {
                    if expr.is_true() {
                        continue;
                    }
                    segment += 1;
                    note_candidates(expr, self.candidates, &mut self.mentioned);
                    match self.enc.bool_expr(expr, &mut self.scope) {
                        Ok(e) => *q = e.implies(&*q),
                        Err(d) => self.errors.push(d),
                    }
                }
                StmtKind::Assert { attrs, expr } => {
                    if expr.is_true() {
                        continue;
                    }
                    note_candidates(expr, self.candidates, &mut self.mentioned);
                    if let Some(k) = self.assert(bi, s, attrs, expr, segment, q) {
                        here.push(k);
                    }
                }
                _ => self.errors.push(Diagnostic::new(
                    ivl::diag::ErrorKind::Unsupported,
                    "only assume and assert may remain after passification (internal error)",
                    s.span,
                )),
            }
        }
        here.reverse();
        here
    }

    /// Encodes `assert expr` (statement `s` of block `bi`) in front of `q`, as
    /// `(skip_k || holds_k) && (holds_k ==> q)`; returns its index `k`.
    fn assert(
        &mut self,
        bi: usize,
        s: &Stmt,
        attrs: &[Attribute],
        expr: &Expr,
        segment: usize,
        q: &mut Bool,
    ) -> Option<usize> {
        match self.enc.bool_expr(expr, &mut self.scope) {
            Ok(e) => {
                let skip = Bool::fresh_const("skip");
                // A quantifier-free condition is read from the model directly; a quantified
                // one gets a name, since a model need not decide it.
                let holds = if self.enc.is_quantifier_free(expr) {
                    e
                } else {
                    let h = Bool::fresh_const("holds");
                    self.defs.push(h.iff(&e));
                    h
                };
                // Boogie assumes a checked assertion afterwards unless it says
                // `{:subsumption 0}` (Boogie's `/subsumption`; test2/Implies.bpl): then the
                // assertions after it are checked in states where it fails too.
                let rest = if subsumed(attrs) { holds.implies(&*q) } else { q.clone() };
                *q = Bool::and(&[&Bool::or(&[&skip, &holds]), &rest]);
                let k = self.asserts.len();
                let captures = capture_args(attrs)
                    .into_iter()
                    .filter_map(|(label, e)| self.enc.expr(e, &mut self.scope).ok().map(|d| (label, d)))
                    .collect();
                self.asserts.push(AssertSite {
                    captures,
                    block: bi,
                    span: s.span,
                    attrs: attrs.to_vec(),
                    skip,
                    holds,
                    guard: candidate_guard(expr, self.candidates),
                    segment,
                });
                Some(k)
            }
            Err(d) => {
                self.errors.push(d);
                None
            }
        }
    }
}

/// The assumptions every execution makes before its first assertion: those of the entry block
/// and of the chain of single successors after it, up to the first `assert`. They hold in every
/// counterexample, so they are also asserted on their own (the chain keeps them too).
///
/// Why: inside `wp ==> B_ok` an assumption is an atom of a clause, which Z3's incremental core
/// only learns by search; as a top-level fact it is propagated at once. A straight-line program
/// of 2,000 assignments took 13.8 s as clauses and 0.5 s with the facts (`scripts/vc-scaling.sh`).
/// Only a long prefix (at least `CHUNK` assumptions) is repeated: on short ones the facts buy
/// nothing and change Z3's search, which cost `tests/boogie/nested_loops.bpl` (nonlinear) its
/// proof.
fn entry_facts(enc: &mut Encoder, passive: &BlockImpl, succs: &[Vec<usize>], scope: &mut Scope) -> Vec<Bool> {
    let mut prefix = Vec::new();
    // Successors come later in the passive order (`generate` has checked it), so the chain
    // ends.
    let mut b = 0;
    'chain: while b < passive.blocks.len() {
        for s in &passive.blocks[b].stmts {
            match &s.kind {
                // Quantified facts are left in the chain only: at the top level they make
                // Z3 (without MBQI) answer "incomplete quantifiers" where a search through the
                // chain finds a counterexample (the lock-step program of reduce_tree_race).
                StmtKind::Assume { expr, .. } if !expr.is_true() && enc.is_quantifier_free(expr) => prefix.push(expr),
                StmtKind::Assume { .. } => {}
                _ => break 'chain,
            }
        }
        match succs[b].as_slice() {
            [next] => b = *next,
            _ => break,
        }
    }
    if prefix.len() < CHUNK {
        return Vec::new();
    }
    prefix.into_iter().filter_map(|e| enc.bool_expr(e, scope).ok()).collect()
}

fn note_candidates(e: &Expr, candidates: &HashSet<Name>, out: &mut HashSet<Name>) {
    if candidates.is_empty() {
        return;
    }
    for v in ivl::visit::free_vars(e) {
        if candidates.contains(&v) {
            out.insert(v);
        }
    }
}

impl Vc {
    /// The formula whose satisfiability means "some assertion can fail".
    pub fn negated(&self) -> Bool {
        self.ok[0].not()
    }

    /// Follows a counterexample from the entry: the first assertion that is checked and does not
    /// hold on the path of blocks whose `B_ok` is false. `None` when the model does not exhibit
    /// a failure (possible for models of "unknown" results).
    pub fn failure(&self, model: &Model) -> Option<Failure> {
        let val = |b: &Bool| model.eval(b, true).and_then(|v| v.as_bool());
        let mut trace = Vec::new();
        let mut b = 0usize;
        if val(&self.ok[0]) != Some(false) {
            return None;
        }
        loop {
            trace.push(b);
            let here = &self.block_asserts[b];
            let fails =
                |k: usize| val(&self.asserts[k].skip) != Some(true) && val(&self.asserts[k].holds) == Some(false);
            if let Some(pos) = here.iter().position(|&k| fails(k)) {
                let k = here[pos];
                let a = &self.asserts[k];
                let values = a
                    .captures
                    .iter()
                    .filter_map(|(label, e)| model.eval(e, true).map(|v| (label.clone(), model_value(&v))))
                    .collect();
                let also = here[pos + 1..]
                    .iter()
                    .copied()
                    .take_while(|&j| self.asserts[j].segment == a.segment)
                    .filter(|&j| fails(j))
                    .collect();
                return Some(Failure { assert: k, trace, values, also });
            }
            let next = self.succs[b].iter().copied().find(|&s| val(&self.ok[s]) == Some(false))?;
            b = next;
        }
    }
}

//! One function being translated, the kernel or an inlined call: its values so far, where its
//! values are defined, its loop heads, the values only its clauses use, and where its `ret`
//! goes; with the analyses of the function that decide those once, when the frame is made.
//!
//! Apart from the translator because a frame is the state of one function (an inlined call
//! has its own, next to its caller's), and because the analyses are functions of the IR
//! alone: which blocks head loops (the invariants' places) and which values are folded into
//! clauses and guards rather than run (`folding.rs` folds them).

use super::names::{call_name, ident, is_spec_function};
use super::values::Val;
use crate::builtins::{self, Builtin, Spec};
use crate::Loc;
use llvm_ir::instruction::Instruction;
use llvm_ir::terminator::Terminator;
use llvm_ir::{Function, Name, Operand};
use std::collections::{HashMap, HashSet};

/// One function being translated: the kernel, or an inlined call.
pub(super) struct Frame<'m> {
    pub(super) func: &'m Function,
    pub(super) prefix: String,
    pub(super) vals: HashMap<Name, Val>,
    pub(super) defs: HashMap<Name, (&'m Instruction, usize)>,
    /// Values only used to compute specification clauses (not run).
    pub(super) spec_only: HashSet<Name>,
    /// Loop heads: their `__assert`s are loop invariants (Boogie's leading asserts).
    pub(super) headers: HashSet<Name>,
    /// Where a `ret` goes: the continuation label and the caller's result variable.
    pub(super) ret: Option<(String, Option<String>)>,
    /// Where code of this function that is not in the kernel file is reported.
    pub(super) call_loc: Option<Loc>,
    /// `__ensures` of an inlined function, checked at its returns (reported at the clause).
    pub(super) ensures: Vec<(String, Option<Loc>)>,
    /// The memory objects the pointers this function returns point into (null included).
    pub(super) ret_cands: Vec<usize>,
    /// A `__spec_` function called by a kernel (`spec_functions.rs`), and its `__reads_from`
    /// (false) and `__writes_to` (true) objects.
    pub(super) spec: bool,
    pub(super) spec_accesses: Vec<(bool, usize, Option<Loc>)>,
}

impl<'m> Frame<'m> {
    /// The frame of `f` with the values `vals` known at its entry (its stack objects); its
    /// names get `prefix`; `ret` is where its returns go (none for a kernel) and `call_loc`
    /// where what is not in the kernel file is reported.
    pub(super) fn new(
        f: &'m Function,
        prefix: String,
        vals: HashMap<Name, Val>,
        ret: Option<(String, Option<String>)>,
        call_loc: Option<Loc>,
    ) -> Self {
        let mut defs = HashMap::new();
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            for i in &b.instrs {
                if let Some(d) = i.try_get_result() {
                    defs.insert(d.clone(), (i, bi));
                }
            }
        }
        let headers = loop_headers(f);
        let spec_only = spec_only_values(f, &defs, &headers);
        Frame {
            func: f,
            prefix,
            vals,
            defs,
            spec_only,
            headers,
            spec: ret.is_some() && is_spec_function(&f.name),
            ret,
            call_loc,
            ensures: Vec::new(),
            ret_cands: Vec::new(),
            spec_accesses: Vec::new(),
        }
    }

    /// The label of block `b` of this function.
    pub(super) fn label(&self, b: &Name) -> String {
        format!("$bb.{}{}", self.prefix, ident(b))
    }

    /// The variable of register `n` of this function.
    pub(super) fn var(&self, n: &Name) -> String {
        format!("${}{}", self.prefix, ident(n))
    }
}

/// Headers of natural loops: targets of back edges of a depth-first search (the control
/// flow of structured C is reducible; the verifier rejects what is not).
pub(super) fn loop_headers(f: &Function) -> HashSet<Name> {
    let index: HashMap<&Name, usize> = f.basic_blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
    let succs: Vec<Vec<usize>> = f
        .basic_blocks
        .iter()
        .map(|b| successors(&b.term).iter().filter_map(|n| index.get(n).copied()).collect())
        .collect();
    let mut state = vec![0u8; succs.len()];
    let mut headers = HashSet::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    if succs.is_empty() {
        return headers;
    }
    state[0] = 1;
    while let Some(&mut (n, ref mut k)) = stack.last_mut() {
        if let Some(&s) = succs[n].get(*k) {
            *k += 1;
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 => {
                    headers.insert(f.basic_blocks[s].name.clone());
                }
                _ => {}
            }
        } else {
            state[n] = 2;
            stack.pop();
        }
    }
    headers
}

pub(super) fn successors(t: &Terminator) -> Vec<Name> {
    match t {
        Terminator::Br(b) => vec![b.dest.clone()],
        Terminator::CondBr(c) => vec![c.true_dest.clone(), c.false_dest.clone()],
        Terminator::Switch(s) => {
            let mut v: Vec<Name> = s.dests.iter().map(|d| d.1.clone()).collect();
            v.push(s.default_dest.clone());
            v
        }
        _ => Vec::new(),
    }
}

/// How a value is used.
enum Use {
    /// An argument of a specification clause.
    Clause,
    /// An argument of an assertion or assumption in the body.
    Assert,
    /// The condition of a branch or switch.
    Branch,
    /// An operand of the instruction defining this value.
    Inst(Name),
    /// Anything else (a store, a call, a return).
    Other,
}

/// Values that only feed specification clauses or branch conditions of their own block,
/// computed without effects: they are folded into the clause or guard and not run. A load
/// may feed only clauses (a branch reads memory when it runs, which is a checked access; an
/// assertion later in the block may see memory that a store in between changed). Folding is
/// what lets `__assert(!__read(p))` reach the assertion: the built-ins of specifications are
/// not values a statement may compute.
pub(super) fn spec_only_values<'m>(
    f: &'m Function,
    defs: &HashMap<Name, (&'m Instruction, usize)>,
    headers: &HashSet<Name>,
) -> HashSet<Name> {
    let mut users: HashMap<Name, Vec<(Use, usize)>> = HashMap::new();
    let mut note = |op: &Operand, u: Use, bi: usize| {
        if let Operand::LocalOperand { name, .. } = op {
            users.entry(name.clone()).or_default().push((u, bi));
        }
    };
    for (bi, b) in f.basic_blocks.iter().enumerate() {
        for i in &b.instrs {
            let header = headers.contains(&b.name);
            let spec = match i {
                Instruction::Call(c) => match call_name(c).and_then(builtins::classify) {
                    Some(Builtin::Spec(s)) => Some(s),
                    _ => None,
                },
                _ => None,
            };
            let clause = spec.is_some_and(|s| s.is_clause() || (header && s == Spec::Assert));
            let assertion = spec.is_some_and(Spec::is_assertion);
            for op in operands(i) {
                let u = match (clause, assertion, i.try_get_result()) {
                    (true, _, _) => Use::Clause,
                    (false, true, _) => Use::Assert,
                    (false, false, Some(d)) => Use::Inst(d.clone()),
                    (false, false, None) => Use::Other,
                };
                note(op, u, bi);
            }
        }
        let branch = matches!(b.term, Terminator::CondBr(_) | Terminator::Switch(_));
        for op in term_operands(&b.term) {
            note(op, if branch { Use::Branch } else { Use::Other }, bi);
        }
    }
    let mut spec: HashSet<Name> = HashSet::new();
    loop {
        let mut changed = false;
        for (name, (i, bi)) in defs {
            if spec.contains(name) || !is_pure(i) {
                continue;
            }
            let Some(us) = users.get(name) else { continue };
            let load = matches!(i, Instruction::Load(_));
            let all = us.iter().all(|(u, ubi)| {
                *ubi == *bi
                    && match u {
                        Use::Clause => true,
                        Use::Branch | Use::Assert => !load,
                        Use::Inst(d) => spec.contains(d),
                        Use::Other => false,
                    }
            });
            if all {
                spec.insert(name.clone());
                changed = true;
            }
        }
        if !changed {
            return spec;
        }
    }
}

/// Instructions without effects that can be folded into an expression.
pub(super) fn is_pure(i: &Instruction) -> bool {
    match i {
        Instruction::Call(c)
            if call_name(c)
                .and_then(builtins::classify)
                .is_some_and(|b| matches!(b, Builtin::Spec(s) if s.is_clause() || s.is_assertion())) =>
        {
            false
        }
        Instruction::Call(c) => call_name(c).and_then(builtins::classify).is_some_and(|b| {
            matches!(
                b,
                Builtin::Identity(..)
                    | Builtin::GlobalId
                    | Builtin::GlobalSize
                    | Builtin::GlobalOffset
                    | Builtin::WorkDim
                    | Builtin::Spec(_)
            )
        }),
        Instruction::Phi(_)
        | Instruction::Store(_)
        | Instruction::Alloca(_)
        | Instruction::Fence(_)
        | Instruction::AtomicRMW(_)
        | Instruction::CmpXchg(_) => false,
        _ => true,
    }
}

pub(super) fn operands(i: &Instruction) -> Vec<&Operand> {
    use Instruction as I;
    match i {
        I::Add(x) => vec![&x.operand0, &x.operand1],
        I::Sub(x) => vec![&x.operand0, &x.operand1],
        I::Mul(x) => vec![&x.operand0, &x.operand1],
        I::UDiv(x) => vec![&x.operand0, &x.operand1],
        I::SDiv(x) => vec![&x.operand0, &x.operand1],
        I::URem(x) => vec![&x.operand0, &x.operand1],
        I::SRem(x) => vec![&x.operand0, &x.operand1],
        I::And(x) => vec![&x.operand0, &x.operand1],
        I::Or(x) => vec![&x.operand0, &x.operand1],
        I::Xor(x) => vec![&x.operand0, &x.operand1],
        I::Shl(x) => vec![&x.operand0, &x.operand1],
        I::LShr(x) => vec![&x.operand0, &x.operand1],
        I::AShr(x) => vec![&x.operand0, &x.operand1],
        I::FAdd(x) => vec![&x.operand0, &x.operand1],
        I::FSub(x) => vec![&x.operand0, &x.operand1],
        I::FMul(x) => vec![&x.operand0, &x.operand1],
        I::FDiv(x) => vec![&x.operand0, &x.operand1],
        I::FRem(x) => vec![&x.operand0, &x.operand1],
        I::FNeg(x) => vec![&x.operand],
        I::ICmp(x) => vec![&x.operand0, &x.operand1],
        I::FCmp(x) => vec![&x.operand0, &x.operand1],
        I::Load(x) => vec![&x.address],
        I::Store(x) => vec![&x.address, &x.value],
        I::GetElementPtr(x) => std::iter::once(&x.address).chain(x.indices.iter()).collect(),
        I::Trunc(x) => vec![&x.operand],
        I::ZExt(x) => vec![&x.operand],
        I::SExt(x) => vec![&x.operand],
        I::FPTrunc(x) => vec![&x.operand],
        I::FPExt(x) => vec![&x.operand],
        I::FPToUI(x) => vec![&x.operand],
        I::FPToSI(x) => vec![&x.operand],
        I::UIToFP(x) => vec![&x.operand],
        I::SIToFP(x) => vec![&x.operand],
        I::PtrToInt(x) => vec![&x.operand],
        I::IntToPtr(x) => vec![&x.operand],
        I::BitCast(x) => vec![&x.operand],
        I::AddrSpaceCast(x) => vec![&x.operand],
        I::Freeze(x) => vec![&x.operand],
        I::Select(x) => vec![&x.condition, &x.true_value, &x.false_value],
        I::Phi(x) => x.incoming_values.iter().map(|v| &v.0).collect(),
        I::Call(x) => x.arguments.iter().map(|a| &a.0).collect(),
        I::ExtractElement(x) => vec![&x.vector, &x.index],
        I::InsertElement(x) => vec![&x.vector, &x.element, &x.index],
        I::ShuffleVector(x) => vec![&x.operand0, &x.operand1],
        _ => Vec::new(),
    }
}

pub(super) fn term_operands(t: &Terminator) -> Vec<&Operand> {
    match t {
        Terminator::Ret(r) => r.return_operand.iter().collect(),
        Terminator::CondBr(c) => vec![&c.condition],
        Terminator::Switch(s) => vec![&s.operand],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{loop_headers, Frame};
    use llvm_ir::instruction::{Add, Instruction, Load, Store};
    use llvm_ir::terminator::{Br, CondBr, Ret, Terminator};
    use llvm_ir::types::Types;
    use llvm_ir::{BasicBlock, Constant, ConstantRef, Function, Name, Operand};
    use std::collections::{HashMap, HashSet};

    fn block(name: &str, instrs: Vec<Instruction>, term: Terminator) -> BasicBlock {
        let mut b = BasicBlock::new(Name::from(name));
        b.instrs = instrs;
        b.term = term;
        b
    }

    fn br(to: &str) -> Terminator {
        Terminator::Br(Br { dest: Name::from(to), debugloc: None })
    }

    fn cond_br(c: Operand, t: &str, e: &str) -> Terminator {
        Terminator::CondBr(CondBr { condition: c, true_dest: Name::from(t), false_dest: Name::from(e), debugloc: None })
    }

    fn ret() -> Terminator {
        Terminator::Ret(Ret { return_operand: None, debugloc: None })
    }

    fn local(name: &str) -> Operand {
        Operand::LocalOperand { name: Name::from(name), ty: Types::blank_for_testing().i32() }
    }

    fn add(dest: &str, x: Operand, k: u64) -> Instruction {
        let k = Operand::ConstantOperand(ConstantRef::new(Constant::Int { bits: 32, value: k }));
        Instruction::Add(Add { operand0: x, operand1: k, dest: Name::from(dest), debugloc: None })
    }

    fn function(blocks: Vec<BasicBlock>) -> Function {
        let mut f = Function::new("k");
        f.basic_blocks = blocks;
        f
    }

    fn names(set: &HashSet<Name>) -> Vec<String> {
        let mut v: Vec<String> = set.iter().map(|n| n.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn loop_heads_are_the_targets_of_back_edges() {
        // entry → head ⇄ body, head → inner ⇄ inner (a self loop), inner → exit.
        let f = function(vec![
            block("entry", vec![], br("head")),
            block("head", vec![], cond_br(local("c"), "body", "inner")),
            block("body", vec![], br("head")),
            block("inner", vec![], cond_br(local("d"), "inner", "exit")),
            block("exit", vec![], ret()),
        ]);
        assert_eq!(names(&loop_headers(&f)), ["%head", "%inner"]);
        assert!(loop_headers(&function(vec![block("entry", vec![], ret())])).is_empty());
        assert!(loop_headers(&function(vec![])).is_empty());
    }

    #[test]
    fn values_that_only_a_guard_of_their_block_reads_are_folded() {
        let store = |v: Operand| {
            Instruction::Store(Store {
                address: local("p"),
                value: v,
                volatile: false,
                atomicity: None,
                alignment: 4,
                debugloc: None,
            })
        };
        let load = Instruction::Load(Load {
            address: local("p"),
            dest: Name::from("l"),
            volatile: false,
            atomicity: None,
            alignment: 4,
            debugloc: None,
        });
        let f = function(vec![
            block(
                "entry",
                vec![
                    // `a` feeds `b`, which only the branch reads: both fold.
                    add("a", local("x"), 1),
                    add("b", local("a"), 2),
                    // Stored: run.
                    add("s", local("x"), 3),
                    store(local("s")),
                    // Read in another block: run.
                    add("o", local("x"), 4),
                    // A load the branch reads is an access when the branch runs: run.
                    load,
                ],
                cond_br(local("b"), "next", "next"),
            ),
            block("next", vec![add("u", local("o"), 5), add("m", local("l"), 1)], cond_br(local("m"), "done", "done")),
            block("done", vec![], ret()),
        ]);
        let frame = Frame::new(&f, "c1.".into(), HashMap::new(), None, None);
        assert_eq!(names(&frame.spec_only), ["%a", "%b", "%m"]);
        assert!(frame.headers.is_empty());
        assert_eq!(frame.defs.get(&Name::from("u")).map(|d| d.1), Some(1));
        // Names in the frame carry the call's prefix.
        assert_eq!(frame.label(&Name::from("next")), "$bb.c1.next");
        assert_eq!(frame.var(&Name::Number(3)), "$c1.3");
        assert!(!frame.spec && frame.ret.is_none());
    }
}

//! The kernel launches of a whole CUDA program (issue 39): `kernel<<<grid, block, shmem,
//! stream>>>(args)` in its host code, read from the host side's LLVM IR.
//!
//! The host side is compiled on its own (`clang::compile_host`: `--cuda-host-only -O1
//! -fno-inline`), so that constants are folded (`int n = 1 << 20; … <<<(n + 255) / 256, 256>>>`
//! becomes `4096`) while every launch stays a call of `cudaConfigureCall(grid, block, shmem,
//! stream)` followed by a call of the kernel's host stub (`__device_stub__NAME`) with the
//! kernel's arguments. A `dim3` is passed as `{i64, i32}` on x86-64 (x in the low and y in the
//! high half of the first), so each size is read back per dimension:
//!
//! - a constant is a number;
//! - an expression of the stub's own arguments (`(m + 127) / 128` where `m` is also passed to
//!   the kernel) is a [`Term`] over the kernel's parameters, so the kernel is verified for that
//!   relation between its sizes and its argument;
//! - anything else (a value read from memory, a call) is unknown: that size stays symbolic.
//!
//! Nothing here can make kivl verify more than the program runs: a launch that is not found,
//! or a size that is not understood, leaves the size symbolic (within the hardware's limits,
//! `translate/grid.rs`).

use crate::translate::names::call_name;
use llvm_ir::instruction::Instruction;
use llvm_ir::{Constant, Module, Name, Operand};
use std::collections::HashMap;

/// A 32-bit value computed from constants and the kernel's parameters (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Const(u32),
    Param(usize),
    /// A bit-vector operation by its `BV32_…` name (`ADD`, `SDIV`, …) and two operands.
    Bin(&'static str, Box<Term>, Box<Term>),
}

/// One launch of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The line of the launch in the program.
    pub line: u32,
    /// The device-side (mangled) name of the kernel launched.
    pub kernel: String,
    /// Grid and block sizes per dimension, where known.
    pub grid: [Option<Term>; 3],
    pub block: [Option<Term>; 3],
}

/// The launches in the host IR of a program.
pub fn find(module: &Module) -> Vec<Launch> {
    let mut out = Vec::new();
    for f in &module.functions {
        let instrs: Vec<&Instruction> = f.basic_blocks.iter().flat_map(|b| &b.instrs).collect();
        let defs: HashMap<&Name, &Instruction> =
            instrs.iter().filter_map(|i| Some((i.try_get_result()?, *i))).collect();
        for (at, i) in instrs.iter().enumerate() {
            let Instruction::Call(config) = i else { continue };
            if call_name(config) != Some("cudaConfigureCall") || config.arguments.len() < 4 {
                continue;
            }
            // The stub call this configuration is for: the next one, before any other launch.
            let stub = instrs[at + 1..]
                .iter()
                .filter_map(|i| match i {
                    Instruction::Call(c) => Some(c),
                    _ => None,
                })
                .take_while(|c| call_name(c) != Some("cudaConfigureCall"))
                .find_map(|c| Some((c, device_name(call_name(c)?)?)));
            let Some((stub, kernel)) = stub else { continue };
            let ev = Eval { defs: &defs, args: &stub.arguments };
            let a = |k: usize| &config.arguments[k].0;
            let (gx, gy) = ev.halves(a(0));
            let (bx, by) = ev.halves(a(2));
            let line = config.debugloc.as_ref().or(stub.debugloc.as_ref()).map_or(0, |d| d.line);
            out.push(Launch { line, kernel, grid: [gx, gy, ev.term(a(1))], block: [bx, by, ev.term(a(3))] });
        }
    }
    out
}

/// The device-side name of a host stub: `_Z20__device_stub__scalePffi` → `_Z5scalePffi`
/// (the length before the identifier shrinks by the prefix's), `__device_stub__k` → `k`.
pub fn device_name(stub: &str) -> Option<String> {
    const PREFIX: &str = "__device_stub__";
    let at = stub.find(PREFIX)?;
    let digits = stub[..at].chars().rev().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return Some(format!("{}{}", &stub[..at], &stub[at + PREFIX.len()..]));
    }
    let len: usize = stub[at - digits..at].parse().ok()?;
    let rest = len.checked_sub(PREFIX.len()).filter(|&n| n > 0)?;
    Some(format!("{}{rest}{}", &stub[..at - digits], &stub[at + PREFIX.len()..]))
}

/// Reads operands of one host function as terms over a stub call's arguments.
struct Eval<'a> {
    defs: &'a HashMap<&'a Name, &'a Instruction>,
    args: &'a [(Operand, Vec<llvm_ir::function::ParameterAttribute>)],
}

impl Eval<'_> {
    /// The low and high 32 bits of an `i64` that packs two `dim3` fields.
    fn halves(&self, op: &Operand) -> (Option<Term>, Option<Term>) {
        match self.split(op, 0) {
            Some((lo, hi)) => (lo, hi),
            None => (None, None),
        }
    }

    /// An `i64` as its two halves: `zext x`, `shl (zext y), 32`, their `or`, a constant.
    #[allow(clippy::type_complexity)]
    fn split(&self, op: &Operand, depth: usize) -> Option<(Option<Term>, Option<Term>)> {
        if depth > 8 {
            return None;
        }
        if let Some(v) = int_constant(op, 64) {
            return Some((Some(Term::Const(v as u32)), Some(Term::Const((v >> 32) as u32))));
        }
        let zero = || Some(Term::Const(0));
        match self.def(op)? {
            Instruction::ZExt(z) => Some((self.term(&z.operand), zero())),
            Instruction::Shl(s) if int_constant(&s.operand1, 64) == Some(32) => {
                let (lo, _) = self.split(&s.operand0, depth + 1)?;
                Some((zero(), lo))
            }
            Instruction::Or(o) => {
                let (a, b) = (self.split(&o.operand0, depth + 1)?, self.split(&o.operand1, depth + 1)?);
                let pick = |x: Option<Term>, y: Option<Term>| match (x, y) {
                    (Some(Term::Const(0)), y) => y,
                    (x, Some(Term::Const(0))) => x,
                    _ => None,
                };
                Some((pick(a.0, b.0), pick(a.1, b.1)))
            }
            _ => None,
        }
    }

    /// A 32-bit operand as a term, if it is built of constants, the stub's arguments and
    /// integer arithmetic.
    fn term(&self, op: &Operand) -> Option<Term> {
        self.term_at(op, 0)
    }

    fn term_at(&self, op: &Operand, depth: usize) -> Option<Term> {
        if depth > 32 {
            return None;
        }
        if let Some(v) = int_constant(op, 32) {
            return Some(Term::Const(v as u32));
        }
        if let Some(k) = self.args.iter().position(|(a, _)| a == op) {
            return is_i32(op).then_some(Term::Param(k));
        }
        let bin = |name: &'static str, a: &Operand, b: &Operand| {
            Some(Term::Bin(name, Box::new(self.term_at(a, depth + 1)?), Box::new(self.term_at(b, depth + 1)?)))
        };
        match self.def(op)? {
            Instruction::Add(x) => bin("ADD", &x.operand0, &x.operand1),
            Instruction::Sub(x) => bin("SUB", &x.operand0, &x.operand1),
            Instruction::Mul(x) => bin("MUL", &x.operand0, &x.operand1),
            Instruction::UDiv(x) => bin("UDIV", &x.operand0, &x.operand1),
            Instruction::SDiv(x) => bin("SDIV", &x.operand0, &x.operand1),
            Instruction::URem(x) => bin("UREM", &x.operand0, &x.operand1),
            Instruction::SRem(x) => bin("SREM", &x.operand0, &x.operand1),
            Instruction::And(x) => bin("AND", &x.operand0, &x.operand1),
            Instruction::Or(x) => bin("OR", &x.operand0, &x.operand1),
            Instruction::Xor(x) => bin("XOR", &x.operand0, &x.operand1),
            Instruction::Shl(x) => bin("SHL", &x.operand0, &x.operand1),
            Instruction::LShr(x) => bin("LSHR", &x.operand0, &x.operand1),
            Instruction::AShr(x) => bin("ASHR", &x.operand0, &x.operand1),
            _ => None,
        }
        .filter(|_| is_i32(op))
    }

    fn def(&self, op: &Operand) -> Option<&Instruction> {
        match op {
            Operand::LocalOperand { name, .. } => self.defs.get(name).copied(),
            _ => None,
        }
    }
}

fn is_i32(op: &Operand) -> bool {
    match op {
        Operand::LocalOperand { ty, .. } => matches!(ty.as_ref(), llvm_ir::Type::IntegerType { bits: 32 }),
        Operand::ConstantOperand(k) => matches!(k.as_ref(), Constant::Int { bits: 32, .. }),
        Operand::MetadataOperand => false,
    }
}

/// An integer constant of `bits` bits.
fn int_constant(op: &Operand, bits: u32) -> Option<u64> {
    match op {
        Operand::ConstantOperand(k) => match k.as_ref() {
            Constant::Int { bits: b, value } if *b == bits => Some(*value),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::device_name;

    #[test]
    fn stub_names() {
        assert_eq!(device_name("_Z20__device_stub__scalePffi").as_deref(), Some("_Z5scalePffi"));
        assert_eq!(device_name("_Z18__device_stub__redILi256EEvPfi").as_deref(), Some("_Z3redILi256EEvPfi"));
        assert_eq!(device_name("_ZN2ns16__device_stub__kEv").as_deref(), Some("_ZN2ns1kEv"));
        assert_eq!(device_name("__device_stub__scale").as_deref(), Some("scale"));
        assert_eq!(device_name("main"), None);
    }
}

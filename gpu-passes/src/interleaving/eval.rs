//! Expression evaluation over one thread's view of the state (seed 000 §3: "(σ, σ_t)(e)"): its
//! private frame, its identity constants, the shared store of its group and of the device, and
//! the run's fixed interpretation of everything arbitrary (unwritten map entries, uninterpreted
//! functions, division by zero).
//!
//! Every read of shared memory is reported to the race log (Definition 3.1: "the value of v is
//! used to evaluate an expression"), except in lookahead and specification contexts where the
//! log is switched off.

use super::bitvec::{bv_apply, BvOp};
use super::code::{Compiled, Conv, Domain, Ex, FnImpl, LambdaProto, QuantEx, SharedSel};
use super::race::{Access, RaceLog};
use super::rng::{derived_value, mix};
use super::types::RTy;
use super::value::{int, real, Closure, MapDefault, MapKey, MapValue, Value};
use ivl::ast::{BinOp, Span};
use ivl::diag::Diagnostic;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Why evaluation (or a step) stopped early.
#[derive(Debug)]
pub enum Stop {
    /// An `assert` (or contract, invariant, barrier rule) failed.
    Fail(Box<Failure>),
    /// `assume false`: the run is infeasible.
    Infeasible(String),
    Unsupported(Rc<Diagnostic>),
    /// Step, depth or size limits.
    Limit(String),
    /// A value of the wrong sort reached an operator: a bug in kivl or an unchecked program.
    Internal(String),
}

#[derive(Debug, Clone)]
pub struct Failure {
    pub kind: ivl::diag::ErrorKind,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub related: Vec<(Span, String)>,
    pub threads: Vec<u32>,
}

/// Values fixed by axioms for applications of uninterpreted functions.
pub type UfTable = FxHashMap<(u32, MapKey), Value>;

/// Quantifier enumeration budget per evaluation.
const QUANT_BUDGET: u64 = 5_000_000;
const MAX_CALL_DEPTH: u32 = 2_000;

pub struct Ctx<'a> {
    pub prog: &'a Compiled,
    pub seed: u64,
    pub consts: &'a [Value],
    pub tconsts: &'a [Value],
    pub globals: &'a [Value],
    /// Global variable number to storage slot, for this thread's group.
    pub slots: &'a [u32],
    /// The storage at entry of the current procedure (for `old`).
    pub old: &'a [Value],
    pub uf: &'a UfTable,
    pub log: Option<&'a mut RaceLog>,
    pub tid: u32,
    /// The source span reported for accesses that have no span of their own.
    pub span: Span,
    pub depth: u32,
    /// The access logs that specifications read (`__read(A)`, …), when evaluating one.
    pub spec_log: Option<&'a RaceLog>,
    /// The logged access chosen for each `(variable, write)` while evaluating a specification.
    pub spec_choice: Vec<(u32, bool, Option<Value>)>,
}

fn internal(what: &str, v: &Value) -> Stop {
    Stop::Internal(format!("{what}: unexpected value {v} of sort {}", v.sort_name()))
}

impl Ctx<'_> {
    pub fn eval_bool(&mut self, e: &Ex, frame: &mut [Value]) -> Result<bool, Stop> {
        match self.eval(e, frame)? {
            Value::Bool(b) => Ok(b),
            v => Err(internal("expected a Boolean", &v)),
        }
    }

    pub fn eval(&mut self, e: &Ex, frame: &mut [Value]) -> Result<Value, Stop> {
        Ok(match e {
            Ex::Lit(v) => v.clone(),
            Ex::Local(s) => frame[*s as usize].clone(),
            Ex::Const(i) => self.consts[*i as usize].clone(),
            Ex::TConst(i) => self.tconsts[*i as usize].clone(),
            Ex::Global(g, span) => self.read_global(*g, *span)?,
            Ex::OldGlobal(g) => {
                let slot = self.slots[*g as usize] as usize;
                match self.old.get(slot) {
                    Some(v) => v.clone(),
                    None => self.globals[slot].clone(),
                }
            }
            Ex::Not(a) => Value::Bool(!self.eval_bool(a, frame)?),
            Ex::Neg(a) => {
                let v = self.eval(a, frame)?;
                negate(v)?
            }
            Ex::And(p) => Value::Bool(self.eval_bool(&p.0, frame)? && self.eval_bool(&p.1, frame)?),
            Ex::Or(p) => Value::Bool(self.eval_bool(&p.0, frame)? || self.eval_bool(&p.1, frame)?),
            Ex::Implies(p) => Value::Bool(!self.eval_bool(&p.0, frame)? || self.eval_bool(&p.1, frame)?),
            Ex::Iff(p) => Value::Bool(self.eval_bool(&p.0, frame)? == self.eval_bool(&p.1, frame)?),
            Ex::Ite(t) => {
                if self.eval_bool(&t.0, frame)? {
                    self.eval(&t.1, frame)?
                } else {
                    self.eval(&t.2, frame)?
                }
            }
            Ex::Bin(k, p) => {
                let a = self.eval(&p.0, frame)?;
                let b = self.eval(&p.1, frame)?;
                self.binary(*k, a, b)?
            }
            Ex::Select(m, idx) => {
                let mv = self.eval(m, frame)?;
                let key = self.key(idx, frame)?;
                self.select(&mv, &key)?
            }
            Ex::SharedSelect(s) => self.read_shared(s, frame)?,
            Ex::Store(p, idx) => {
                let m = self.eval(&p.0, frame)?;
                let v = self.eval(&p.1, frame)?;
                let key = self.key(idx, frame)?;
                map_store(m, key, v)?
            }
            Ex::Bv(op, args) => {
                let vals = args.iter().map(|a| self.eval(a, frame)).collect::<Result<Vec<_>, _>>()?;
                bit_vector(*op, &vals)?
            }
            Ex::Call(f, args) => {
                let vals = args.iter().map(|a| self.eval(a, frame)).collect::<Result<Vec<_>, _>>()?;
                self.apply_function(*f, vals)?
            }
            Ex::Conv(c, a) => {
                let v = self.eval(a, frame)?;
                convert(*c, v)?
            }
            Ex::Lambda(proto) => {
                let captured = proto.captures.iter().map(|c| self.eval(c, frame)).collect::<Result<Vec<_>, _>>()?;
                let closure = Closure { lambda: proto.id, captured: captured.into_boxed_slice() };
                Value::Map(Rc::new(MapValue::new(MapDefault::Lambda(Rc::new(closure)))))
            }
            Ex::Quant(q) => {
                let mut budget = QUANT_BUDGET;
                Value::Bool(self.quant(q, 0, frame, &mut budget)?)
            }
            Ex::SpecAccess { var, write, offset } => self.spec_access(*var, *write, *offset)?,
            Ex::SpecEnum(p) => Value::Bool(self.spec_enum(&p.0, &p.1, frame)?),
            Ex::Unsupported(d) => return Err(Stop::Unsupported(d.clone())),
        })
    }

    /// A read of global `g` as a whole (logged).
    fn read_global(&mut self, g: u32, span: Span) -> Result<Value, Stop> {
        let slot = self.slots[g as usize];
        self.access(slot, None, Access::Read, span)?;
        Ok(self.globals[slot as usize].clone())
    }

    /// A read of one location of a global map (logged with all its indices).
    fn read_shared(&mut self, s: &SharedSel, frame: &mut [Value]) -> Result<Value, Stop> {
        let slot = self.slots[s.var as usize];
        let keys = self.keys(&s.levels, frame)?;
        self.access(slot, Some(flatten_keys(&keys)), Access::Read, s.span)?;
        let globals = self.globals;
        let mut cur = self.select(&globals[slot as usize], &keys[0])?;
        for k in &keys[1..] {
            cur = self.select(&cur, k)?;
        }
        Ok(cur)
    }

    /// `__read(A)` … `__write_offset(A)`: the access the enclosing specification chose.
    fn spec_access(&self, var: u32, write: bool, offset: bool) -> Result<Value, Stop> {
        let choice = self.spec_choice.iter().find(|(v, w, _)| *v == var && *w == write);
        Ok(match (choice, offset) {
            (Some((_, _, c)), false) => Value::Bool(c.is_some()),
            (Some((_, _, Some(o))), true) => o.clone(),
            // `__write_offset(A)` when nothing is logged: an arbitrary offset.
            (Some((_, _, None)), true) => Value::Int(0),
            (None, _) => {
                return Err(Stop::Unsupported(Rc::new(Diagnostic::unsupported(
                    "`__read`/`__write` outside a specification (not supported by `kivl run`)",
                    self.span,
                ))))
            }
        })
    }

    /// A specification over the access logs, evaluated with the thread's logged accesses.
    fn spec_enum(&mut self, pairs: &[(u32, bool)], body: &Ex, frame: &mut [Value]) -> Result<bool, Stop> {
        let choice = pairs
            .iter()
            .map(|&(var, write)| (var, write, self.spec_log.and_then(|l| l.logged(self.tid, var, write)).cloned()))
            .collect();
        let saved = std::mem::replace(&mut self.spec_choice, choice);
        let r = self.eval_bool(body, frame);
        self.spec_choice = saved;
        r
    }

    fn key(&mut self, idx: &[Ex], frame: &mut [Value]) -> Result<MapKey, Stop> {
        if idx.len() == 1 {
            return Ok(MapKey::One(self.eval(&idx[0], frame)?));
        }
        let vals = idx.iter().map(|i| self.eval(i, frame)).collect::<Result<Vec<_>, _>>()?;
        Ok(MapKey::Many(vals.into_boxed_slice()))
    }

    /// The keys of a multi-level select `g[i][j, k]`, one per level, outermost first.
    pub fn keys(&mut self, levels: &[Box<[Ex]>], frame: &mut [Value]) -> Result<Vec<MapKey>, Stop> {
        levels.iter().map(|l| self.key(l, frame)).collect()
    }

    pub fn access(&mut self, slot: u32, key: Option<MapKey>, kind: Access, span: Span) -> Result<(), Stop> {
        match self.log.as_deref_mut() {
            Some(log) => {
                log.record(slot, key, self.tid, kind, span);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// `m[key]`, generating unwritten entries from the map's default.
    pub fn select(&mut self, m: &Value, key: &MapKey) -> Result<Value, Stop> {
        let Value::Map(map) = m else {
            return Err(internal("map select", m));
        };
        if let Some(v) = map.entries.get(key) {
            return Ok(v.clone());
        }
        match &map.default {
            MapDefault::Arbitrary { origin, elem } => Ok(derived_value(&self.prog.types, *elem, *origin, key)),
            MapDefault::Const(v) => Ok(v.clone()),
            MapDefault::Lambda(c) => self.apply_closure(c, key),
        }
    }

    fn apply_closure(&mut self, c: &Closure, key: &MapKey) -> Result<Value, Stop> {
        let prog = self.prog;
        let LambdaProto { nbound, frame, capture_slots, body, .. } = &*prog.lambdas[c.lambda as usize];
        let mut f = vec![Value::Bool(false); *frame as usize];
        let vals = key.values();
        if vals.len() != *nbound as usize {
            return Err(Stop::Internal("lambda applied to the wrong number of indices".into()));
        }
        f[..vals.len()].clone_from_slice(vals);
        for (slot, v) in capture_slots.iter().zip(c.captured.iter()) {
            f[*slot as usize] = v.clone();
        }
        self.nested(|cx| cx.eval(body, &mut f))
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Stop>) -> Result<T, Stop> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Stop::Limit(format!("function calls nested more than {MAX_CALL_DEPTH} deep")));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    pub fn apply_function(&mut self, f: u32, args: Vec<Value>) -> Result<Value, Stop> {
        let info = &self.prog.functions[f as usize];
        match &info.imp {
            FnImpl::Body { body, frame } => {
                let mut fr = args;
                fr.resize(*frame as usize, Value::Bool(false));
                self.nested(|cx| cx.eval(body, &mut fr))
            }
            FnImpl::Uninterpreted => {
                let key = (f, MapKey::from_vec(args));
                if let Some(v) = self.uf.get(&key) {
                    return Ok(v.clone());
                }
                Ok(derived_value(&self.prog.types, info.result, mix(self.seed, 0xf00d ^ f as u64), &key.1))
            }
        }
    }

    fn quant(&mut self, q: &QuantEx, i: usize, frame: &mut [Value], budget: &mut u64) -> Result<bool, Stop> {
        let Some(v) = q.vars.get(i) else {
            if *budget == 0 {
                return Err(Stop::Limit("a quantifier's range is too large to enumerate".into()));
            }
            *budget -= 1;
            return self.eval_bool(&q.body, frame);
        };
        let slot = v.slot as usize;
        // forall: stop at the first false; exists: at the first true.
        let each = |cx: &mut Self, val: Value, frame: &mut [Value], budget: &mut u64| -> Result<bool, Stop> {
            frame[slot] = val;
            let r = cx.quant(q, i + 1, frame, budget)?;
            Ok(r != q.forall)
        };
        match &v.dom {
            Domain::Bool => {
                for b in [false, true] {
                    if each(self, Value::Bool(b), frame, budget)? {
                        return Ok(!q.forall);
                    }
                }
            }
            Domain::Bv(w) => {
                for x in 0..(1u128 << w) {
                    if each(self, Value::Bv(*w, x), frame, budget)? {
                        return Ok(!q.forall);
                    }
                }
            }
            Domain::Range(lo, hi) => {
                let (lo, hi) = (self.eval(lo, frame)?, self.eval(hi, frame)?);
                let (Value::Int(lo), Value::Int(hi)) = (lo, hi) else {
                    return Err(Stop::Limit("a quantifier's range is too large to enumerate".into()));
                };
                if hi >= lo && (hi - lo) as u128 >= *budget as u128 {
                    return Err(Stop::Limit("a quantifier's range is too large to enumerate".into()));
                }
                let mut x = lo;
                while x <= hi {
                    if each(self, Value::Int(x), frame, budget)? {
                        return Ok(!q.forall);
                    }
                    x += 1;
                }
            }
        }
        Ok(q.forall)
    }

    #[inline]
    pub fn binary(&mut self, k: BinOp, a: Value, b: Value) -> Result<Value, Stop> {
        use std::cmp::Ordering;
        // The fast path: small integers.
        if let (Value::Int(x), Value::Int(y)) = (&a, &b) {
            let (x, y) = (*x, *y);
            let r = match k {
                BinOp::Add => x.checked_add(y).map(Value::Int),
                BinOp::Sub => x.checked_sub(y).map(Value::Int),
                BinOp::Mul => x.checked_mul(y).map(Value::Int),
                BinOp::Lt => Some(Value::Bool(x < y)),
                BinOp::Le => Some(Value::Bool(x <= y)),
                BinOp::Gt => Some(Value::Bool(x > y)),
                BinOp::Ge => Some(Value::Bool(x >= y)),
                BinOp::Eq => Some(Value::Bool(x == y)),
                BinOp::Neq => Some(Value::Bool(x != y)),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(r);
            }
        }
        let ord = |a: &Value, b: &Value| -> Result<Ordering, Stop> {
            match (a, b) {
                (Value::Int(x), Value::Int(y)) => Ok(x.cmp(y)),
                (Value::Int(_) | Value::BigInt(_), Value::Int(_) | Value::BigInt(_)) => Ok(int::cmp(a, b)),
                (Value::Real(x), Value::Real(y)) => Ok(x.cmp(y)),
                _ => Err(internal("comparison", a)),
            }
        };
        let is_int = |v: &Value| matches!(v, Value::Int(_) | Value::BigInt(_));
        Ok(match k {
            BinOp::Eq => Value::Bool(self.values_equal(&a, &b)?),
            BinOp::Neq => Value::Bool(!self.values_equal(&a, &b)?),
            BinOp::Lt => Value::Bool(ord(&a, &b)? == Ordering::Less),
            BinOp::Le => Value::Bool(ord(&a, &b)? != Ordering::Greater),
            BinOp::Gt => Value::Bool(ord(&a, &b)? == Ordering::Greater),
            BinOp::Ge => Value::Bool(ord(&a, &b)? != Ordering::Less),
            BinOp::Add | BinOp::Sub | BinOp::Mul if is_int(&a) && is_int(&b) => match k {
                BinOp::Add => int::add(&a, &b),
                BinOp::Sub => int::sub(&a, &b),
                _ => int::mul(&a, &b),
            },
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let (Value::Real(x), Value::Real(y)) = (&a, &b) else {
                    return Err(internal("arithmetic", &a));
                };
                Value::real(match k {
                    BinOp::Add => &**x + &**y,
                    BinOp::Sub => &**x - &**y,
                    _ => &**x * &**y,
                })
            }
            BinOp::Div | BinOp::Mod => {
                if !is_int(&a) || !is_int(&b) {
                    return Err(internal("div/mod", &a));
                }
                match int::div_mod(&a, &b) {
                    Some((q, r)) => {
                        if k == BinOp::Div {
                            q
                        } else {
                            r
                        }
                    }
                    // `x div 0` and `x mod 0` are unspecified: a fixed arbitrary function of x.
                    None => derived_value(
                        &self.prog.types,
                        self.prog.int_ty,
                        mix(self.seed, if k == BinOp::Div { 0xd1 } else { 0x30d }),
                        &a,
                    ),
                }
            }
            BinOp::RealDiv => {
                let (x, y) = (real::get(&a), real::get(&b));
                if y.is_zero() {
                    let n = derived_value(&self.prog.types, self.prog.int_ty, mix(self.seed, 0x4ea1), &a);
                    Value::real(BigRational::from_integer(n.to_bigint().unwrap_or_default()))
                } else {
                    Value::real(x / y)
                }
            }
            BinOp::Concat => bv_apply(BvOp::Concat, &[a, b]).ok_or_else(|| Stop::Internal("concat".into()))?,
            BinOp::Iff | BinOp::Implies | BinOp::Explies | BinOp::Or | BinOp::And | BinOp::Subtype | BinOp::Pow => {
                return Err(Stop::Internal(format!("`{}` is not a strict operator", k.symbol())))
            }
        })
    }

    /// Boogie's `==`: structural on scalars, extensional on maps.
    pub fn values_equal(&mut self, a: &Value, b: &Value) -> Result<bool, Stop> {
        match (a, b) {
            (Value::Map(x), Value::Map(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let same_default = x.default.same_as(&y.default);
                if !same_default {
                    // Different defaults denote different functions over an infinite key space
                    // (the arbitrary values are chosen to differ at some unwritten key).
                    return Ok(false);
                }
                for (k, v) in x.entries.iter() {
                    let w = self.select(b, k)?;
                    if !self.values_equal(v, &w)? {
                        return Ok(false);
                    }
                }
                for (k, w) in y.entries.iter() {
                    if !x.entries.contains_key(k) {
                        let v = self.select(a, k)?;
                        if !self.values_equal(&v, w)? {
                            return Ok(false);
                        }
                    }
                }
                Ok(true)
            }
            _ => Ok(a == b),
        }
    }
}

/// `-v` on integers and reals.
fn negate(v: Value) -> Result<Value, Stop> {
    Ok(match v {
        Value::Int(_) | Value::BigInt(_) => int::neg(&v),
        Value::Real(r) => Value::real(-(*r).clone()),
        v => return Err(internal("negation", &v)),
    })
}

/// `real(v)` and `int(v)` (`int` rounds down).
fn convert(c: Conv, v: Value) -> Result<Value, Stop> {
    Ok(match (c, &v) {
        (Conv::ToReal, Value::Int(_) | Value::BigInt(_)) => Value::real(real::get(&v)),
        (Conv::ToInt, Value::Real(r)) => Value::int(r.floor().to_integer()),
        (_, Value::Real(_)) | (Conv::ToInt, _) => v,
        _ => return Err(internal("conversion", &v)),
    })
}

/// A bit-vector operator applied to evaluated operands.
fn bit_vector(op: BvOp, vals: &[Value]) -> Result<Value, Stop> {
    bv_apply(op, vals).ok_or_else(|| {
        Stop::Internal(format!(
            "bit-vector operator {op:?} applied to {}",
            vals.iter().map(|v| v.sort_name()).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// `m[key := v]` (copy-on-write: in place when the map is not shared).
pub fn map_store(m: Value, key: MapKey, v: Value) -> Result<Value, Stop> {
    let Value::Map(mut rc) = m else {
        return Err(internal("map store", &m));
    };
    Rc::make_mut(&mut rc).entries.insert(key, v);
    Ok(Value::Map(rc))
}

/// The location of a multi-level select `g[i][j]`: all indices in order.
pub fn flatten_keys(keys: &[MapKey]) -> MapKey {
    if keys.len() == 1 {
        return keys[0].clone();
    }
    MapKey::Many(keys.iter().flat_map(|k| k.values().iter().cloned()).collect())
}

/// Integer value helpers used by the scheduler for sizes and identity constants.
pub fn int_value_of_type(types: &[RTy], ty: u32, v: u64) -> Value {
    match types[ty as usize] {
        RTy::Bv(w) => Value::bv_from_bigint(w, &BigInt::from(v)),
        RTy::Bool => Value::Bool(v != 0),
        _ => Value::Int(v as i128),
    }
}

/// Whether a fence argument asks for a fence (`true`, nonzero).
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::BigInt(b) => !b.is_zero(),
        Value::Bv(_, b) => *b != 0,
        Value::BigBv(_, b) => !b.is_zero(),
        Value::Real(r) => !r.is_zero(),
        _ => true,
    }
}

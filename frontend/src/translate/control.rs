//! Control flow: phi nodes as assignments on the edges into their block, edges through edge
//! blocks that `assume` the branch's guard (GPUVerify's form, which predication reads), and
//! the terminators (returns with their postconditions and returned values, branches,
//! switches, `unreachable`).
//!
//! Apart from the instruction lowering because these translate the edges between blocks, not
//! what happens in one: a phi's value is assigned by the block it comes from.

use super::annotations::RETURN_VAL;
use super::frame::Frame;
use super::values::{bool_ex, is_event, is_pointer, memory_scalar_ty, Ex, Val};
use super::Tr;
use crate::memory::{Alt, Lin, Ptr};
use crate::Loc;
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::terminator::Terminator;
use llvm_ir::{BasicBlock, Name};

impl<'m> Tr<'m> {
    pub(super) fn declare_phi(&mut self, f: &mut Frame<'m>, p: &inst::Phi) {
        let loc = self.loc(&p.debugloc, f);
        if is_pointer(&p.to_type) && !is_event(&p.to_type) {
            // A pointer phi gets a variable for the byte offset, and one for the object when
            // its incoming pointers point into different ones.
            let mut cands: Vec<usize> = Vec::new();
            for (op, _) in &p.incoming_values {
                for c in self.static_objects(f, op, 0, loc).unwrap_or_default() {
                    if !cands.contains(&c) {
                        cands.push(c);
                    }
                }
            }
            let Some(&base) = cands.first() else {
                self.err(loc, "a pointer whose memory object cannot be determined statically");
                return;
            };
            let v = format!("{}.off", f.var(&p.dest));
            self.body.declare(v.clone(), "bv32".into());
            let alt = (cands.len() > 1).then(|| {
                let sel = format!("{}.obj", f.var(&p.dest));
                self.body.declare(sel.clone(), "bv32".into());
                Alt { sel, cands }
            });
            f.vals.insert(p.dest.clone(), Val::Ptr(Ptr { base, off: Lin::term(v, 1), alt }));
        } else if let Some(t) = memory_scalar_ty(&p.to_type) {
            let v = f.var(&p.dest);
            self.body.declare(v.clone(), t.kbpl());
            f.vals.insert(p.dest.clone(), Val::Scalar(Ex::new(v, t)));
        } else if let Some(lanes) = self.lane_vars(&f.var(&p.dest), &p.to_type) {
            f.vals.insert(p.dest.clone(), Val::Vector(lanes));
        } else {
            self.err(loc, "a value of an aggregate type");
        }
    }

    /// The assignments of the phi nodes of `to` for the edge from `from`.
    fn phi_moves(&mut self, f: &mut Frame<'m>, from: &Name, to: &Name, loc: Option<Loc>) -> Option<String> {
        let target = f.func.basic_blocks.iter().find(|b| b.name == *to)?;
        let mut lhs = Vec::new();
        let mut rhs = Vec::new();
        for i in &target.instrs {
            let Instruction::Phi(p) = i else { continue };
            let Some((op, _)) = p.incoming_values.iter().find(|(_, b)| b == from) else { continue };
            // The target may come later in the layout: its phi variables are declared now.
            if !f.vals.contains_key(&p.dest) {
                self.declare_phi(f, p);
            }
            let val = self.operand(f, op, loc);
            match (f.vals.get(&p.dest).cloned(), val) {
                (Some(Val::Scalar(d)), Some(Val::Scalar(e))) => {
                    lhs.push(d.text);
                    rhs.push(e.text);
                }
                (Some(Val::Ptr(d)), Some(Val::Ptr(e))) if e.cands().iter().all(|c| d.cands().contains(c)) => {
                    lhs.push(d.off.terms[0].0.clone());
                    rhs.push(e.off.expr(&mut self.decls.needs_fn()));
                    if let Some(alt) = &d.alt {
                        lhs.push(alt.sel.clone());
                        rhs.push(e.sel());
                    }
                }
                (Some(Val::Ptr(_)), Some(Val::Ptr(_))) => {
                    self.err(loc, "a pointer that may point into memory objects the front end did not foresee");
                }
                (Some(Val::Vector(d)), Some(Val::Vector(e))) if d.len() == e.len() => {
                    lhs.extend(d.into_iter().map(|x| x.text));
                    rhs.extend(e.into_iter().map(|x| x.text));
                }
                (None, _) | (_, None) => {} // reported where it was found
                _ => self.err(loc, "a phi node mixing pointers and numbers"),
            }
        }
        (!lhs.is_empty()).then(|| format!("{} := {};", lhs.join(", "), rhs.join(", ")))
    }

    /// Jumps along the edge `from → to`, through an edge block when there is a guard or a phi.
    fn edge(&mut self, f: &mut Frame<'m>, from: &Name, to: &Name, guard: Option<String>, loc: Option<Loc>) -> String {
        let moves = self.phi_moves(f, from, to, loc);
        if guard.is_none() && moves.is_none() {
            return f.label(to);
        }
        let label = format!("{}$e{}", f.label(from), self.body.next_number());
        let mut stmts = Vec::new();
        if let Some(g) = guard {
            stmts.push((format!("assume {g};"), loc));
        }
        if let Some(m) = moves {
            stmts.push((m, loc));
        }
        stmts.push((format!("goto {};", f.label(to)), loc));
        self.body.add_edge_block(label.clone(), stmts);
        label
    }

    pub(super) fn terminator(&mut self, f: &mut Frame<'m>, b: &'m BasicBlock, bi: usize) {
        let from = &b.name;
        match &b.term {
            Terminator::Ret(r) => {
                let loc = self.loc(&r.debugloc, f);
                // The returned value, for the postconditions and for the caller.
                let value = r.return_operand.as_ref().and_then(|op| self.operand(f, op, loc));
                let mut spec_clauses = Vec::new();
                for (e, eloc) in f.ensures.clone() {
                    let Some(e) = with_return_value(&e, value.as_ref()) else {
                        self.err(eloc, "`__return_val_*()` in a function that returns no number (or no vector)");
                        continue;
                    };
                    if f.spec {
                        spec_clauses.push((e, eloc));
                    } else {
                        self.body.emit(format!("assert {{:check \"postcondition\"}} {e};"), eloc.or(loc));
                    }
                }
                if f.spec {
                    self.spec_function_end(f, &spec_clauses, loc);
                }
                match f.ret.clone() {
                    None => self.body.emit("return;".into(), loc),
                    Some((cont, result)) => {
                        if let Some(res) = result {
                            match value {
                                Some(Val::Scalar(e)) => self.body.emit(format!("{res} := {};", e.text), loc),
                                Some(Val::Vector(lanes)) => self.vector_return(&res, &lanes, loc),
                                Some(Val::Ptr(p)) => {
                                    // The byte offset and the object's number: returns may
                                    // point into different objects (one may be null).
                                    for c in p.cands() {
                                        if !f.ret_cands.contains(&c) {
                                            f.ret_cands.push(c);
                                        }
                                    }
                                    let off = p.off.expr(&mut self.decls.needs_fn());
                                    let sel = ret_selector(&res);
                                    self.body.declare(sel.clone(), "bv32".into());
                                    self.body.emit(format!("{res}, {sel} := {off}, {};", p.sel()), loc);
                                }
                                None => {}
                            }
                        }
                        self.body.emit(format!("goto {cont};"), loc);
                    }
                }
            }
            Terminator::Br(br) => {
                let loc = self.loc(&br.debugloc, f);
                let l = self.edge(f, from, &br.dest, None, loc);
                self.body.emit(format!("goto {l};"), loc);
            }
            Terminator::CondBr(c) => {
                let loc = self.loc(&c.debugloc, f);
                // The condition is folded into the guards, so that they name the variables
                // the loop changes (what invariant inference looks at), not a temporary.
                let Some(cond) = self.spec_expr(f, &c.condition, bi, loc) else { return };
                let cond = bool_ex(&cond);
                let t = self.edge(f, from, &c.true_dest, Some(cond.clone()), loc);
                let e = self.edge(f, from, &c.false_dest, Some(format!("!{cond}")), loc);
                self.body.emit(format!("goto {t}, {e};"), loc);
            }
            Terminator::Switch(s) => {
                let loc = self.loc(&s.debugloc, f);
                let Some(v) = self.spec_expr(f, &s.operand, bi, loc) else { return };
                let mut targets = Vec::new();
                let mut cases = Vec::new();
                for (c, dest) in &s.dests {
                    let Some(Val::Scalar(c)) = self.constant(f, c, loc) else { return };
                    let guard = format!("{} == {}", v.text, c.text);
                    cases.push(format!("{} != {}", v.text, c.text));
                    targets.push(self.edge(f, from, dest, Some(guard), loc));
                }
                let default = if cases.is_empty() { "true".to_string() } else { cases.join(" && ") };
                targets.push(self.edge(f, from, &s.default_dest, Some(format!("({default})")), loc));
                self.body.emit(format!("goto {};", targets.join(", ")), loc);
            }
            Terminator::Unreachable(u) => {
                // Reaching it is undefined behaviour (after a call of a `noreturn` function,
                // `__builtin_unreachable()`, the end of a C++ function that returns a value):
                // an error, as GPUVerify reports it, never an assumption.
                let last = b.instrs.last().map(llvm_ir::HasDebugLoc::get_debug_loc);
                let loc = self.loc(&u.debugloc, f).or_else(|| last.and_then(|d| self.loc(d, f)));
                self.body.emit(format!("assert {{:msg \"{UNREACHABLE}\"}} false;"), loc);
                self.body.emit("return;".into(), loc);
            }
            other => {
                let loc = self.loc(llvm_ir::HasDebugLoc::get_debug_loc(other), f);
                self.err(loc, "an unsupported control transfer (exceptions, indirect branches)");
            }
        }
    }
}

/// The message of the failing assertion that `unreachable` becomes.
const UNREACHABLE: &str = "possible execution of unreachable code (after a call of a function that never returns)";

/// A postcondition with the function's returned value for [`RETURN_VAL`] (a number) or for its
/// lanes `RETURN_VAL.k` (a vector, `__return_val_int4()`); `None` when the clause names a result
/// the function does not return.
fn with_return_value(clause: &str, value: Option<&Val>) -> Option<String> {
    let lane_mark = format!("{RETURN_VAL}.");
    let e = match value {
        Some(Val::Vector(lanes)) => lanes
            .iter()
            .enumerate()
            .rev()
            .fold(clause.to_string(), |e, (k, lane)| e.replace(&format!("{RETURN_VAL}.{k}"), &lane.text)),
        Some(Val::Scalar(v)) if !clause.contains(&lane_mark) => clause.replace(RETURN_VAL, &v.text),
        _ => clause.to_string(),
    };
    (!e.contains(RETURN_VAL)).then_some(e)
}

/// The selector variable of a returned pointer whose offset variable is `off` (`X.off`).
pub(super) fn ret_selector(off: &str) -> String {
    format!("{}.obj", off.strip_suffix(".off").unwrap_or(off))
}

#[cfg(test)]
mod tests {
    use super::{ret_selector, with_return_value, RETURN_VAL};
    use crate::translate::values::{Ex, Ty, Val};

    #[test]
    fn postconditions_get_the_returned_value() {
        let clause = format!("BV32_ULT({RETURN_VAL}, $n)");
        let v = Val::Scalar(Ex::new("$r".into(), Ty::Bv(32)));
        assert_eq!(with_return_value(&clause, Some(&v)).as_deref(), Some("BV32_ULT($r, $n)"));
        // A function that returns nothing, or a vector for a number.
        assert_eq!(with_return_value(&clause, None), None);
        let lanes = Val::Vector((0..12).map(|k| Ex::new(format!("$r{k}"), Ty::Bv(32))).collect());
        assert_eq!(with_return_value(&clause, Some(&lanes)), None);
        // Lane 10 is not lane 1 followed by a 0.
        let vector_clause = format!("{RETURN_VAL}.1 == {RETURN_VAL}.10");
        assert_eq!(with_return_value(&vector_clause, Some(&lanes)).as_deref(), Some("$r1 == $r10"));
        assert_eq!(with_return_value(&vector_clause, Some(&v)), None);
        assert_eq!(with_return_value("true", None).as_deref(), Some("true"));
    }

    #[test]
    fn a_returned_pointer_has_its_selector_next_to_its_offset() {
        assert_eq!(ret_selector("$c1.p.off"), "$c1.p.obj");
        assert_eq!(ret_selector("$q"), "$q.obj");
    }
}

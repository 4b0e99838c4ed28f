//! Kernel procedures and function bodies: a kernel's parameters (pointers as objects, numbers
//! as uniform parameters), its body with the functions it calls inlined, and the procedure's
//! text once the body is known (clauses, locals, private maps, blocks).
//!
//! Apart from the module-level driver (`mod.rs`, which decides what to translate and joins
//! the procedures) and from the instruction lowering (which fills the blocks): this is the
//! order in which one procedure is built.

use super::annotations::WIDTH_MARK;
use super::frame::Frame;
use super::names::{ident, kernel_name};
use super::values::{addr_space, int_constant, is_pointer, scalar_ty, Ex, Ty, Val};
use super::{async_copy, pointers, spec_functions, Out, Tr};
use crate::memory::{Lin, Ptr, Space};
use crate::{layout, Loc};
use llvm_ir::instruction::Instruction;
use llvm_ir::types::Type;
use llvm_ir::{Function, Name};
use std::collections::HashMap;

impl<'m> Tr<'m> {
    /// A kernel procedure for `k`; `extra` for a function no one calls (its numbers are
    /// per-thread, not uniform parameters).
    pub(super) fn kernel(&mut self, k: &'m Function, kloc: Option<Loc>, extra: bool, opencl: bool) -> Out {
        self.facts.uncalled = extra;
        let mut frame = self.frame(k, String::new(), None, kloc);
        let mut params = Vec::new();
        // Per parameter, its KBPL name when it is a 32-bit integer (launch sizes may use it).
        let mut ints = Vec::new();
        let (mut byvals, mut pointer_params) = (Vec::new(), Vec::new());
        for p in &k.parameters {
            let name = ident(&p.name);
            ints.push((scalar_ty(&p.ty) == Some(Ty::Bv(32))).then(|| format!("${name}")));
            if let Some(v) = self.function_pointer_param(&name, &p.ty, extra, &mut params) {
                frame.vals.insert(p.name.clone(), v);
            } else if is_pointer(&p.ty) {
                // A struct passed by value is the thread's own copy.
                let byval = p.attributes.iter().any(|a| matches!(a, llvm_ir::function::ParameterAttribute::ByVal(_)));
                let space = match addr_space(&p.ty) {
                    _ if byval => Space::Private,
                    3 => Space::GroupShared,
                    2 | 4 => Space::Constant,
                    0 if extra && opencl => Space::Private,
                    _ => Space::Global,
                };
                let b = self.objects.param_base(&name, space);
                if byval {
                    self.objects.mark_byval(b);
                    if let Type::PointerType { pointee_type, .. } = p.ty.as_ref() {
                        byvals.push((b, name.clone(), pointee_type.clone()));
                    }
                } else {
                    pointer_params.push(b);
                }
                frame.vals.insert(p.name.clone(), Val::Ptr(Ptr::to(b, Lin::default())));
            } else if let Some(t) = scalar_ty(&p.ty) {
                if extra {
                    let v = format!("${name}");
                    self.body.declare(v.clone(), t.kbpl());
                    frame.vals.insert(p.name.clone(), Val::Scalar(Ex::new(v, t)));
                    continue;
                }
                params.push(format!("${name}: {}", t.kbpl()));
                self.facts.fix(format!("${name}"));
                frame.vals.insert(p.name.clone(), Val::Scalar(Ex::new(format!("${name}"), t)));
            } else if let Some(v) = self.vector_param(&name, &p.ty, extra, &mut params) {
                frame.vals.insert(p.name.clone(), v);
            } else {
                self.err(
                    kloc,
                    format!("kernel parameter `{name}` has a type the front end does not support (structs, vectors)"),
                );
            }
        }
        self.entry_block(&frame, &byvals, &pointer_params, kloc);
        self.axioms(kloc);
        self.body.enter(k.name.clone());
        self.function_body(&mut frame);
        self.body.leave();
        // After the body: which dimensions the kernel reads decides what is assumed of the others.
        if !extra {
            self.grid_requires(k, &ints, kloc);
        }
        if self.facts.uses_async {
            self.body.declare(async_copy::PENDING.into(), "bv32".into());
            self.body.prepend(format!("{} := 0bv32;", async_copy::PENDING), kloc);
        }
        for loc in self.clauses.unmatched_barrier_invariants() {
            self.err(loc, "a barrier invariant that no barrier follows");
        }
        self.resolve_width_marks();
        let mut out = Out::default();
        out.line(&format!("procedure {{:kernel}} {}({})", kernel_name(&k.name), params.join(", ")), kloc);
        for (r, loc) in self.clauses.take_requires() {
            out.line(&format!("  requires {r};"), loc);
        }
        for (e, loc) in self.clauses.take_ensures() {
            out.line(&format!("  ensures {e};"), loc);
        }
        out.line("{", kloc);
        for (v, t) in self.body.take_locals() {
            out.line(&format!("  var {v}: {t};"), kloc);
        }
        for b in &self.objects.bases {
            if b.space == Space::Private {
                out.line(&format!("  var {}: [bv32]bv{};", b.name, b.width.unwrap_or(8)), kloc);
                if self.objects.ptr_known.holds(&b.name) {
                    out.line(&format!("  var {}: [bv32]bv32;", pointers::companion(&b.name)), kloc);
                }
            }
        }
        for b in self.body.take_blocks() {
            // A label stands where its first statement is (loops are reported at their head).
            out.line(&format!("{}:", b.label), b.stmts.first().and_then(|s| s.1));
            for (s, loc) in b.stmts {
                out.line(&format!("  {s}"), loc.or(kloc));
            }
        }
        out.line("}", None);
        out
    }

    /// Byte offsets in annotations (`__write_offset_bytes`) need the element size of their
    /// object, known only once all its accesses are translated: the text carries a mark.
    fn resolve_width_marks(&mut self) {
        let bits: Vec<u32> = self.objects.bases.iter().map(|b| b.width.unwrap_or(8)).collect();
        let mut fix = |s: &mut String| {
            for (mark, unit) in [(WIDTH_MARK, 8), (spec_functions::BITS_MARK, 1)] {
                while let Some(at) = s.find(mark) {
                    let digits: String = s[at + mark.len()..].chars().take_while(|c| c.is_ascii_digit()).collect();
                    let base: usize = digits.parse().unwrap_or(0);
                    let size = bits.get(base).map_or(8 / unit, |b| b / unit);
                    s.replace_range(at..at + mark.len() + digits.len(), &size.to_string());
                }
            }
        };
        self.body.rewrite(&mut fix);
        self.clauses.rewrite(&mut fix);
    }

    /// The frame of `f` (the kernel, or a call), with a private map for each of its stack
    /// allocations.
    pub(super) fn frame(
        &mut self,
        f: &'m Function,
        prefix: String,
        ret: Option<(String, Option<String>)>,
        call_loc: Option<Loc>,
    ) -> Frame<'m> {
        let mut vals = HashMap::new();
        self.objects_of_allocas(f, &prefix, &mut vals);
        Frame::new(f, prefix, vals, ret, call_loc)
    }

    /// A private map for each stack allocation of `f` (arrays, address-taken locals).
    fn objects_of_allocas(&mut self, f: &Function, prefix: &str, vals: &mut HashMap<Name, Val>) {
        for i in f.basic_blocks.iter().flat_map(|b| b.instrs.iter()) {
            if let Instruction::Alloca(a) = i {
                let b = self.objects.new_base(format!("$$p.{prefix}{}", ident(&a.dest)), Space::Private);
                let count = int_constant(&a.num_elements);
                let size = layout::size_align(&a.allocated_type, &self.module.types).map(|s| s.0);
                self.objects.bases[b].size = size.zip(count).map(|(s, n)| s * n);
                vals.insert(a.dest.clone(), Val::Ptr(Ptr::to(b, Lin::default())));
            }
        }
    }

    pub(super) fn function_body(&mut self, f: &mut Frame<'m>) {
        for (bi, b) in f.func.basic_blocks.iter().enumerate() {
            self.body.start_block(f.label(&b.name));
            // Phi nodes are assigned on the edges; their variables are declared here.
            for i in &b.instrs {
                if let Instruction::Phi(p) = i {
                    if !f.vals.contains_key(&p.dest) {
                        self.declare_phi(f, p);
                    }
                }
            }
            self.invariants(f, b, bi, f.headers.contains(&b.name));
            for i in &b.instrs {
                if matches!(i, Instruction::Phi(_)) {
                    continue;
                }
                if let Some(d) = i.try_get_result() {
                    if f.spec_only.contains(d) {
                        continue;
                    }
                }
                self.instruction(f, i, bi);
            }
            self.terminator(f, b, bi);
        }
    }
}

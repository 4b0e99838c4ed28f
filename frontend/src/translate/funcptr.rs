//! Function pointers (GPUVerify's CUDA tests `function_pointers/`): a function is one more
//! object a pointer may point to, numbered [`FUNCTION_OBJECTS`] + its index in the module, so
//! that function pointers are selectors like data pointers (`memory.rs`): phi nodes, `select`,
//! comparisons (`f == g`), pointers stored in memory (`pointers.rs`) work unchanged.
//!
//! - A call through a pointer is a case split, as GPUVerify's: one branch per defined function
//!   of the call's signature that the pointer may point to, each assuming the selector names it
//!   and inlining that function; a last branch, where it names none of them (null, a number
//!   cast to a pointer, a function of another type), is a failing assertion at the call ("possible
//!   call through a null or invalid function pointer").
//! - A kernel parameter of function pointer type may point to any defined function of its type
//!   or be invalid: its selector is a parameter `$f.obj` (the same for every thread), so a
//!   `__requires(f == g | f == h)` limits the cases.
//! - Reading or writing data through a function pointer is an access through an invalid pointer
//!   (`null.rs`): such an object has no memory space.

use super::frame::Frame;
use super::values::{scalar_ty, Ex, Val};
use super::Tr;
use crate::memory::{Alt, Lin, Ptr};
use crate::Loc;
use llvm_ir::instruction as inst;
use llvm_ir::types::Type;
use llvm_ir::{Function, TypeRef};

/// The object number of the module's first function (data objects and [`NULL_OBJECT`] never
/// reach it).
///
/// [`NULL_OBJECT`]: crate::memory::NULL_OBJECT
pub(super) const FUNCTION_OBJECTS: usize = 0x4000_0000;

/// The prefix of a function's name in the facts of `pointers.rs`.
const FUNCTION_PREFIX: &str = "fn:";

/// The message of the assertion of a call through an invalid function pointer.
const BAD_CALL: &str = "possible call through a null or invalid function pointer";

impl<'m> Tr<'m> {
    /// The object of the function defined in the module as `name`.
    pub(super) fn function_object(&self, name: &str) -> Option<usize> {
        self.module.functions.iter().position(|g| g.name == name).map(|k| FUNCTION_OBJECTS + k)
    }

    /// The function that object `o` stands for.
    fn function_of(&self, o: usize) -> Option<&'m Function> {
        o.checked_sub(FUNCTION_OBJECTS).and_then(|k| self.module.functions.get(k))
    }

    /// The name of object `o` in the facts of `pointers.rs` (none for the null object).
    pub(super) fn object_name(&self, o: usize) -> Option<String> {
        match self.function_of(o) {
            Some(g) => Some(format!("{FUNCTION_PREFIX}{}", g.name)),
            None => self.objects.bases.get(o).map(|b| b.name.clone()),
        }
    }

    /// The function object a name of the facts stands for.
    pub(super) fn function_named(&self, n: &str) -> Option<usize> {
        n.strip_prefix(FUNCTION_PREFIX).and_then(|g| self.function_object(g))
    }

    /// The defined functions whose parameters have the types `params` (and no more).
    fn functions_taking(&self, params: &[TypeRef]) -> Vec<usize> {
        let fits = |g: &Function| {
            !g.is_var_arg
                && g.parameters.len() == params.len()
                && g.parameters.iter().zip(params).all(|(p, t)| &p.ty == t)
        };
        self.module.functions.iter().enumerate().filter(|(_, g)| fits(g)).map(|(k, _)| FUNCTION_OBJECTS + k).collect()
    }

    /// A kernel parameter `name` of type `ty` when it is a function pointer: its selector is a
    /// parameter of the procedure (a local for a function checked on its own).
    pub(super) fn function_pointer_param(
        &mut self,
        name: &str,
        ty: &TypeRef,
        extra: bool,
        params: &mut Vec<String>,
    ) -> Option<Val> {
        let Type::PointerType { pointee_type, .. } = ty.as_ref() else { return None };
        let Type::FuncType { param_types, .. } = pointee_type.as_ref() else { return None };
        let mut cands = self.functions_taking(param_types);
        cands.push(crate::memory::NULL_OBJECT);
        let sel = format!("${name}.obj");
        if extra {
            self.body.declare(sel.clone(), "bv32".into());
        } else {
            params.push(format!("{sel}: bv32"));
            self.facts.fix(sel.clone());
        }
        Some(Val::Ptr(Ptr { base: cands[0], off: Lin::default(), alt: Some(Alt { sel, cands }) }))
    }

    /// A call through a function pointer (see the module documentation).
    pub(super) fn call_through_pointer(&mut self, f: &mut Frame<'m>, c: &'m inst::Call, loc: Option<Loc>) {
        let Some(op) = c.function.as_ref().right() else { return };
        let v = self.operand(f, op, loc);
        let Some(p) = self.ptr(v, loc) else { return };
        let ret = self.module.type_of(c);
        let result_ty = scalar_ty(&ret);
        if c.dest.is_some() && result_ty.is_none() {
            self.err(loc, "a call through a function pointer of a function that returns a pointer or an aggregate");
            return;
        }
        let arg_tys: Vec<TypeRef> = c.arguments.iter().map(|a| self.module.type_of(&a.0)).collect();
        let fitting = self.functions_taking(&arg_tys);
        let targets: Vec<usize> = p.cands().into_iter().filter(|o| fitting.contains(o)).collect();
        let result = c.dest.as_ref().zip(result_ty).map(|(d, t)| {
            let v = f.var(d);
            self.body.declare(v.clone(), t.kbpl());
            f.vals.insert(d.clone(), Val::Scalar(Ex::new(v.clone(), t)));
            v
        });
        let (sel, off) = (p.sel(), p.off.expr(&mut self.decls.needs_fn()));
        let is = |o: usize| format!("({sel} == {o}bv32 && {off} == 0bv32)");
        let k = self.body.next_number();
        let join = format!("{}$fp{k}", self.body.current_label());
        let mut labels: Vec<String> = (0..targets.len()).map(|j| format!("{join}$fn{j}")).collect();
        labels.push(format!("{join}$none"));
        self.body.emit(format!("goto {};", labels.join(", ")), loc);
        for (&o, label) in targets.iter().zip(&labels) {
            let Some(g) = self.function_of(o) else { continue };
            self.body.start_block(label.clone());
            self.body.emit(format!("assume {};", is(o)), loc);
            self.inline(f, c, g, loc);
            self.body.emit(format!("goto {join};"), loc);
        }
        self.body.start_block(format!("{join}$none"));
        let none: Vec<String> = targets.iter().map(|&o| format!("!{}", is(o))).collect();
        if !none.is_empty() {
            self.body.emit(format!("assume {};", none.join(" && ")), loc);
        }
        self.body.emit(format!("assert {{:msg \"{BAD_CALL}\"}} false;"), loc);
        if let Some(v) = &result {
            self.body.emit(format!("havoc {v};"), loc);
        }
        self.body.emit(format!("goto {join};"), loc);
        self.body.start_block(join);
    }
}

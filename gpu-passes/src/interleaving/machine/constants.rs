//! Constants and sizes: the work-group size and number of groups from the configuration, the
//! definitions the axioms make (`axiom c == e;`, `axiom f(1) == 2;`), arbitrary values for the
//! rest, and the search for values that satisfy the axioms.

use super::{definitions, fail, Machine, SOLVE_TRIES};
use crate::interleaving::code::*;
use crate::interleaving::config::RunConfig;
use crate::interleaving::eval::{int_value_of_type, Ctx, Stop, UfTable};
use crate::interleaving::inputs::{to_value, Inputs};
use crate::interleaving::rng::gen_value;
use crate::interleaving::types::RTy;
use crate::interleaving::value::{MapKey, Value};
use ivl::ast::Span;
use ivl::diag::ErrorKind;

impl Machine<'_> {
    /// Constants: sizes from the configuration, then the definitions axioms make
    /// (`axiom c == e;`, `axiom f(1) == 2;`), then arbitrary values; uniform axioms must hold.
    pub(super) fn setup_constants(
        &mut self,
        cfg: &RunConfig,
        inputs: &Inputs,
        kernel: bool,
    ) -> Result<([u64; 3], [u64; 3]), Stop> {
        let prog = self.prog;
        let n = prog.consts.len();
        let mut last_failure = None;
        for _attempt in 0..SOLVE_TRIES {
            let mut vals: Vec<Option<Value>> = vec![None; n];
            let (cfg_local, cfg_groups) =
                if kernel { (dims3(&cfg.local_size), dims3(&cfg.num_groups)) } else { (Some([1; 3]), Some([1; 3])) };
            for (i, c) in prog.consts.iter().enumerate() {
                if let Some(attr) = c.size_attr {
                    let dims = if attr < 9 { cfg_local } else { cfg_groups };
                    if let Some(d) = dims {
                        vals[i] = Some(int_value_of_type(&prog.types, c.ty, d[attr % 3]));
                    }
                }
                if let Some(v) = inputs.constant(&c.name) {
                    vals[i] = Some(
                        to_value(&prog.types, c.ty, v, &mut self.rng)
                            .map_err(|e| Self::invalid(format!("input constant `{}`: {e}", c.name), c.span))?,
                    );
                }
            }
            self.mem.uf.clear();
            self.define_from_axioms(&mut vals)?;
            // Sizes nobody fixed: the number of groups defaults to 1; the group size must be given.
            for (i, c) in prog.consts.iter().enumerate() {
                if let (Some(attr), None) = (c.size_attr, &vals[i]) {
                    if attr < 9 {
                        let span = if c.span == Span::DUMMY { prog.procs[self.root as usize].span } else { c.span };
                        return Err(Self::invalid(
                            format!(
                                "`kivl run` needs a concrete work-group size: pass --local-size (nothing fixes `{}`)",
                                c.name
                            ),
                            span,
                        ));
                    }
                    vals[i] = Some(int_value_of_type(&prog.types, c.ty, 1));
                }
            }
            self.fill_arbitrary(&mut vals);
            self.mem.consts = vals.into_iter().map(|v| v.unwrap()).collect();
            // Sizes, as the run will use them.
            let read = |attr: usize, given: Option<[u64; 3]>| -> Option<u64> {
                if let Some(d) = given {
                    return Some(d[attr % 3]);
                }
                let i = prog.consts.iter().position(|c| c.size_attr == Some(attr))?;
                self.mem.consts[i].to_u64_lossy()
            };
            let mut local = [1u64; 3];
            let mut groups = [1u64; 3];
            for d in 0..3 {
                local[d] = read(6 + d, cfg_local).unwrap_or(1);
                groups[d] = read(9 + d, cfg_groups).unwrap_or(1);
            }
            if kernel && cfg_local.is_none() && !prog.consts.iter().any(|c| c.size_attr == Some(6)) {
                return Err(Self::invalid(
                    "`kivl run` needs a concrete work-group size: pass --local-size".into(),
                    prog.procs[self.root as usize].span,
                ));
            }
            match self.check_axioms(false) {
                Ok(()) => return Ok((local, groups)),
                Err(Stop::Fail(f)) => last_failure = Some(f),
                Err(e) => return Err(e),
            }
        }
        let f = last_failure.unwrap();
        let hint = if kernel && (cfg.local_size.is_some() || cfg.num_groups.is_some()) {
            " (do --local-size and --num-groups agree with it?)"
        } else {
            ""
        };
        Err(Self::invalid(
            format!("`kivl run` could not find constants that satisfy this axiom in {SOLVE_TRIES} tries{hint}"),
            f.span,
        ))
    }

    pub(super) fn define_from_axioms(&mut self, vals: &mut [Option<Value>]) -> Result<(), Stop> {
        let prog = self.prog;
        loop {
            let mut progress = false;
            for ax in prog.axioms.iter().filter(|a| !a.per_thread) {
                for (target, rhs) in definitions(&ax.e) {
                    let settable = match target {
                        Ex::Const(i) => vals[*i as usize].is_none(),
                        Ex::Call(f, args) => {
                            matches!(prog.functions[*f as usize].imp, FnImpl::Uninterpreted)
                                && args.iter().all(|a| ready(a, vals))
                        }
                        _ => false,
                    };
                    if !settable || !ready(rhs, vals) {
                        continue;
                    }
                    let consts: Vec<Value> = vals.iter().map(|v| v.clone().unwrap_or(Value::Bool(false))).collect();
                    let mut cx = axiom_ctx(prog, self.seed, &consts, &[], &self.mem.uf, ax.span);
                    let v = cx.eval(rhs, &mut [])?;
                    match target {
                        Ex::Const(i) => vals[*i as usize] = Some(v),
                        Ex::Call(f, args) => {
                            let a = args.iter().map(|a| cx.eval(a, &mut [])).collect::<Result<Vec<_>, _>>()?;
                            let key = (*f, MapKey::from_vec(a));
                            if self.mem.uf.contains_key(&key) {
                                continue;
                            }
                            self.mem.uf.insert(key, v);
                        }
                        _ => unreachable!(),
                    }
                    progress = true;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    pub(super) fn fill_arbitrary(&mut self, vals: &mut [Option<Value>]) {
        let prog = self.prog;
        let mut unique_seen: Vec<(u32, Value)> = Vec::new();
        for (i, c) in prog.consts.iter().enumerate() {
            if vals[i].is_none() {
                let mut v = gen_value(&prog.types, c.ty, &mut self.rng);
                if c.unique {
                    let mut k = 0u64;
                    while unique_seen.iter().any(|(t, u)| *t == c.ty && *u == v) && k < 1000 {
                        v = match (&prog.types[c.ty as usize], k) {
                            (RTy::Opaque(t), _) => Value::Opaque(*t, 1000 + k),
                            _ => gen_value(&prog.types, c.ty, &mut self.rng),
                        };
                        k += 1;
                    }
                }
                vals[i] = Some(v);
            }
            if c.unique {
                unique_seen.push((c.ty, vals[i].clone().unwrap()));
            }
        }
    }

    /// Checks the axioms (uniform ones, or per-thread ones in every thread).
    pub(super) fn check_axioms(&mut self, per_thread: bool) -> Result<(), Stop> {
        let prog = self.prog;
        let threads: Vec<usize> = if per_thread { (0..self.infos.len()).collect() } else { vec![usize::MAX] };
        let empty_t: Box<[Value]> = Box::new([]);
        for ax in prog.axioms.iter().filter(|a| a.per_thread == per_thread) {
            for &t in &threads {
                let tconsts = if t == usize::MAX { &empty_t } else { &self.infos[t].tconsts };
                let mut cx = axiom_ctx(prog, self.seed, &self.mem.consts, tconsts, &self.mem.uf, ax.span);
                if !cx.eval_bool(&ax.e, &mut [])? {
                    return Err(fail(ErrorKind::Assertion, "axiom does not hold".into(), ax.span, "", vec![]));
                }
            }
        }
        Ok(())
    }
}

fn dims3(v: &Option<Vec<u64>>) -> Option<[u64; 3]> {
    v.as_ref()
        .map(|d| [d.first().copied().unwrap_or(1), d.get(1).copied().unwrap_or(1), d.get(2).copied().unwrap_or(1)])
}

/// Whether an expression only uses constants that are already defined.
fn ready(e: &Ex, vals: &[Option<Value>]) -> bool {
    let mut ok = true;
    visit_ex(e, &mut |x| match x {
        Ex::Const(i) => ok &= vals[*i as usize].is_some(),
        Ex::TConst(_) | Ex::Local(_) | Ex::Global(..) | Ex::OldGlobal(_) | Ex::SharedSelect(_) => ok = false,
        _ => {}
    });
    ok
}

/// The view an axiom is evaluated in: constants (and a thread's identity constants), no memory.
fn axiom_ctx<'a>(
    prog: &'a Compiled,
    seed: u64,
    consts: &'a [Value],
    tconsts: &'a [Value],
    uf: &'a UfTable,
    span: Span,
) -> Ctx<'a> {
    Ctx {
        prog,
        seed,
        consts,
        tconsts,
        globals: &[],
        slots: &[],
        old: &[],
        uf,
        log: None,
        tid: 0,
        span,
        depth: 0,
        spec_log: None,
        spec_choice: Vec::new(),
    }
}

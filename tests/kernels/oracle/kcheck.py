#!/usr/bin/env python3
"""Cross-check oracle for tests/kernels (independent of kivl).

Translates a *structured* .kbpl kernel (no goto/return/break) into a GPUVerify-style sequential
Boogie program -- two arbitrary threads (same or different groups), lock-step predicated
execution (seed 001 Tables 4.2/4.3, calls inlined), quantifier-free race logging for thread 1 and
checking for thread 2 with benign-write tolerance (seed 001 §4.2, seed 003), divergence checks at
barriers, adversarial shared state at barriers with barrier invariants checked over accessed
locations and assumed per instantiation (seed 001 §4.4) -- and runs Boogie 2.4.1 on it. Every
assertion is tagged with the kernel check it implements (race lines, barrier line, ...).

Extra, sound loop facts are added automatically: the loop predicate implies the enclosing
predicate and the condition, an exited thread's condition is false (for conditions over private
state), and the source line of a logged access lies inside the outermost enclosing loop.

Usage: kcheck.py FILE.kbpl [--keep]     (--keep writes FILE.kbpl.kc.bpl)"""
import sys, re, subprocess, os, itertools
sys.path.insert(0, os.path.dirname(__file__))
from parse import Parser, tokens_text

ID_ATTRS = ['local_id_x', 'local_id_y', 'local_id_z', 'group_id_x', 'group_id_y', 'group_id_z',
            'group_size_x', 'group_size_y', 'group_size_z', 'num_groups_x', 'num_groups_y', 'num_groups_z']
PER_THREAD = {'local_id_x', 'local_id_y', 'local_id_z', 'group_id_x', 'group_id_y', 'group_id_z'}
SPEC_BUILTINS = {'__read', '__write', '__read_offset', '__write_offset', '__other', '__uniform', '__enabled'}

class Unsupported(Exception): pass

def paren(s): return '(' + s + ')'

class Kernel:
    def __init__(self, src, args):
        self.src = src
        self.decls = Parser(src).program()
        self.args = args
        self.out = []          # generated lines
        self.tags = {}         # generated line number -> description
        self.fresh_n = itertools.count()
        self.ids = {}          # user name -> (attr, type)
        self.shared = {}       # name -> dict(space, idx, val, scalar)
        self.procs = {}
        self.uniform_names = set()
        self.kernel = None
        self.has_binv = bool(re.search(r'barrier[^;]*invariant', src))
        self.strict = '--no-benign-tolerance' in args
        self.write_lines = {}  # array -> set of lines
        self.read_lines = {}
        self.extra_decls = []
        self.bvfuns = set()
        self.verbatim = []
        for d in self.decls:
            if d['k'] == 'const':
                attrnames = [a[0] for a in d['attrs']]
                idattr = [a for a in attrnames if a in ID_ATTRS]
                for (n, ty, _) in d['vars']:
                    if idattr: self.ids[n] = (idattr[0], ty)
                    else: self.verbatim.append(f"const {'unique ' if d['unique'] else ''}{n}: {ty};")
            elif d['k'] == 'var':
                attrnames = [a[0] for a in d['attrs']]
                space = 'group' if 'group_shared' in attrnames else 'global'
                for (n, ty, a2) in d['vars']:
                    m = re.match(r'^\[(.*)\](.*)$', ty)
                    if m:
                        idx = [x.strip() for x in m.group(1).split(',')]
                        if len(idx) != 1 or m.group(2).startswith('['): raise Unsupported('multi-dim shared map ' + n)
                        self.shared[n] = dict(space=space, idx=idx[0], val=m.group(2), scalar=False)
                    else:
                        self.shared[n] = dict(space=space, idx='int', val=ty, scalar=True)
            elif d['k'] == 'verbatim':
                self.verbatim.append(tokens_text(d['toks']))
            elif d['k'] == 'proc':
                if any(a[0] == 'kernel' for a in d['attrs']): self.kernel = d
                else: self.procs[d['name']] = d
        # prelude names
        for a in ID_ATTRS:
            if not any(v[0] == a for v in self.ids.values()):
                self.ids[a] = (a, 'int')
        self.attr_to_name = {v[0]: (n, v[1]) for n, v in self.ids.items()}

    # ------------------------------------------------------------------ helpers
    def fresh(self, base): return f'{base}_{next(self.fresh_n)}'
    def emit(self, s, tag=None):
        self.out.append(s)
        if tag: self.tags[len(self.out)] = tag
    def idname(self, attr, t=None):
        n, _ = self.attr_to_name[attr]
        return f'{n}${t}' if attr in PER_THREAD else n
    def same_group(self):
        return paren(' && '.join(f"{self.idname(a, 1)} == {self.idname(a, 2)}" for a in ('group_id_x', 'group_id_y', 'group_id_z')))

    # ------------------------------------------------------------------ expressions
    # ctx: dict(t, priv: rename map (name -> base), reads: list or None, enabled: (e1, e2),
    #           bound: set, mapsub: dict shared name -> expression string per thread, idsub)
    def tr(self, e, ctx):
        k = e[0]; t = ctx['t']
        if k == 'lit': return e[1]
        if k == 'var':
            n = e[1]
            if n in ctx['bound']: return n
            if n in ctx.get('idsub', {}): return ctx['idsub'][n]
            if n in ctx['priv']: return f"{ctx['priv'][n]}${t}"
            if n in self.ids:
                return self.idname(self.ids[n][0], t)
            if n in self.shared:
                sh = self.shared[n]
                if sh['scalar']:
                    return self.read_shared(n, '0', ctx)
                return self.shared_ref(n, ctx)
            return n
        if k == 'un': return paren(e[1] + self.tr(e[2], ctx))
        if k == 'bin':
            return paren(self.tr(e[2], ctx) + f' {e[1]} ' + self.tr(e[3], ctx))
        if k == 'ite':
            return paren(f'if {self.tr(e[1], ctx)} then {self.tr(e[2], ctx)} else {self.tr(e[3], ctx)}')
        if k == 'old':
            c2 = dict(ctx); c2['old'] = True
            return self.tr(e[1], c2)
        if k == 'extract': return f'{self.tr(e[1], ctx)}[{e[2]}:{e[3]}]'
        if k == 'quant':
            c2 = dict(ctx); c2['bound'] = ctx['bound'] | {v for v, _ in e[2]}
            vs = ', '.join(f'{v}: {ty}' for v, ty in e[2])
            trig = ''.join('{' + ', '.join(self.tr(x, c2) for x in tg) + '} ' for tg in e[3])
            return paren(f'{e[1]} {vs} :: {trig}{self.tr(e[4], c2)}')
        if k == 'call':
            f = e[1]
            if f in SPEC_BUILTINS:
                if f == '__enabled': return ctx['enabled'][t - 1]
                if f == '__other':
                    c2 = dict(ctx); c2['t'] = 3 - t; return self.tr(e[2][0], c2)
                if f == '__uniform':
                    c1 = dict(ctx); c1['t'] = 1; c2 = dict(ctx); c2['t'] = 2
                    return paren(self.tr(e[2][0], c1) + ' == ' + self.tr(e[2][0], c2))
                arr = e[2][0][1]
                if t != 1: raise Unsupported('access-log built-in used for thread 2')
                return {'__read': 'R_', '__write': 'W_', '__read_offset': 'RO_', '__write_offset': 'WO_'}[f] + arr
            if f in ('int', 'real'):
                return f'{f}({self.tr(e[2][0], ctx)})'
            return f + '(' + ', '.join(self.tr(a, ctx) for a in e[2]) + ')'
        if k == 'sel':
            base = e[1]
            if base[0] == 'var' and base[1] in self.shared and base[1] not in ctx['bound']:
                idx = self.tr(e[2][0], ctx)
                return self.read_shared(base[1], idx, ctx)
            return f"{self.tr(base, ctx)}[{', '.join(self.tr(x, ctx) for x in e[2])}]"
        if k == 'store':
            return f"{self.tr(e[1], ctx)}[{', '.join(self.tr(x, ctx) for x in e[2])} := {self.tr(e[3], ctx)}]"
        raise Unsupported(str(k))

    def shared_ref(self, n, ctx):
        t = ctx['t']
        if 'mapsub' in ctx and n in ctx['mapsub']: return ctx['mapsub'][n][t - 1]
        base = n + (f'${t}' if self.shared[n]['space'] == 'group' else '')
        if ctx.get('old'): return ctx['oldmap'][n][t - 1]
        return base

    def read_shared(self, n, idx, ctx):
        if ctx['reads'] is not None:
            ctx['reads'].append((n, idx))
        return f"{self.shared_ref(n, ctx)}[{idx}]"

    def ctx(self, t, env, reads=None, **kw):
        c = dict(t=t, priv=env['priv'], reads=reads, enabled=env['E'], bound=set(), oldmap=env.get('oldmap', {}))
        c.update(kw); return c

    # translate expression for both threads, emitting read logs/checks
    def both(self, exprs, env, line):
        r1, r2 = [], []
        v1 = [self.tr(x, self.ctx(1, env, r1)) for x in exprs]
        v2 = [self.tr(x, self.ctx(2, env, r2)) for x in exprs]
        for (a, i1), (_, i2) in zip(r1, r2):
            self.log_check(a, 'read', i1, i2, None, None, env, line)
        return v1, v2

    # ------------------------------------------------------------------ race instrumentation
    def log_check(self, a, kind, i1, i2, v1, v2, env, line):
        E1, E2 = env['E']
        sh = self.shared[a]
        sg = self.same_group() if sh['space'] == 'group' else 'true'
        (self.read_lines if kind == 'read' else self.write_lines).setdefault(a, set()).add(line)
        if kind == 'read':
            self.emit(f'if ({E1}) {{ havoc kc_nd; if (kc_nd) {{ R_{a} := true; RO_{a} := {i1}; RL_{a} := {line}; }} }}')
            for lw in sorted(self.all_lines('write', a)):
                self.emit(f'assert !({E2} && {sg} && W_{a} && WO_{a} == {i2} && WL_{a} == {lw});', ('race', 'write-read', a, lw, line))
        else:
            self.emit(f'if ({E1}) {{ havoc kc_nd; if (kc_nd) {{ W_{a} := true; WO_{a} := {i1}; WV_{a} := {v1}; WL_{a} := {line}; }} }}')
            for lr in sorted(self.all_lines('read', a)):
                self.emit(f'assert !({E2} && {sg} && R_{a} && RO_{a} == {i2} && RL_{a} == {lr});', ('race', 'read-write', a, lr, line))
            ben = '' if self.strict else f' && WV_{a} != {v2}'
            for lw in sorted(self.all_lines('write', a)):
                self.emit(f'assert !({E2} && {sg} && W_{a} && WO_{a} == {i2}{ben} && WL_{a} == {lw});', ('race', 'write-write', a, lw, line))
        # accessed-location sets for barrier invariants
        if not self.has_binv: return
        for t, (Et, it) in enumerate(((E1, i1), (E2, i2)), 1):
            if sh['space'] == 'group':
                self.emit(f'if ({Et}) {{ ACC{t}_{a}[{it}] := true; if ({self.same_group()}) {{ ACC{3-t}_{a}[{it}] := true; }} }}')
            else:
                self.emit(f'if ({Et}) {{ ACC_{a}[{it}] := true; }}')

    # ------------------------------------------------------------------ statements
    def stmts(self, ss, env):
        for s in ss: self.stmt(s, env)

    def stmt(self, s, env):
        E1, E2 = env['E']
        k = s['k']; line = s['line']
        if k == 'assign':
            sh_lhs = [(v, idx) for v, idx in s['lhss'] if v in self.shared]
            if sh_lhs:
                if len(s['lhss']) != 1: raise Unsupported('parallel shared assign')
                v, idx = s['lhss'][0]
                if self.shared[v]['scalar']: idxe = [('lit', '0')]
                else:
                    if len(idx) != 1: raise Unsupported('nested shared index')
                    idxe = idx[0]
                (i1, r1), (i2, r2) = self.both([idxe[0], s['rhss'][0]], env, line)
                ti = [self.fresh('kc_i') for _ in (1, 2)]; tv = [self.fresh('kc_v') for _ in (1, 2)]
                self.declare(ti[0], self.shared[v]['idx']); self.declare(ti[1], self.shared[v]['idx'])
                self.declare(tv[0], self.shared[v]['val']); self.declare(tv[1], self.shared[v]['val'])
                self.emit(f'{ti[0]}, {tv[0]}, {ti[1]}, {tv[1]} := {i1}, {r1}, {i2}, {r2};')
                self.log_check(v, 'write', ti[0], ti[1], tv[0], tv[1], env, line)
                for t, Et in ((1, E1), (2, E2)):
                    if self.shared[v]['space'] == 'group':
                        self.emit(f'if ({Et}) {{ {v}${t}[{ti[t-1]}] := {tv[t-1]}; if ({self.same_group()}) {{ {v}${3-t}[{ti[t-1]}] := {tv[t-1]}; }} }}')
                    else:
                        self.emit(f'if ({Et}) {{ {v}[{ti[t-1]}] := {tv[t-1]}; }}')
                return
            for v, idx in s['lhss']:
                if idx: raise Unsupported('private map update')
            v1, v2 = self.both(s['rhss'], env, line)
            lh = [v for v, _ in s['lhss']]
            for t, Et, vals in ((1, E1, v1), (2, E2, v2)):
                self.emit(f"if ({Et}) {{ {', '.join(env['priv'][x] + f'${t}' for x in lh)} := {', '.join(vals)}; }}")
            return
        if k == 'havoc':
            for v in s['vars']:
                if v in self.shared: raise Unsupported('havoc shared')
                for t, Et in ((1, E1), (2, E2)):
                    tmp = self.fresh('kc_h'); self.declare(tmp, env['types'][v])
                    self.emit(f"havoc {tmp}; if ({Et}) {{ {env['priv'][v]}${t} := {tmp}; }}")
            return
        if k in ('assert', 'assume'):
            for t, Et in ((1, E1), (2, E2)):
                e = self.tr(s['e'], self.ctx(t, env))
                if k == 'assert':
                    self.emit(f'assert {Et} ==> {e};', ('assertion', line))
                else:
                    self.emit(f'assume {Et} ==> {e};')
            return
        if k == 'if':
            if s['c'] is None:
                q1, q2 = self.fresh('kc_nd'), self.fresh('kc_nd')
                self.declare(q1, 'bool'); self.declare(q2, 'bool'); self.emit(f'havoc {q1}, {q2};')
                c1, c2 = q1, q2
            else:
                (c1,), (c2,) = self.both([s['c']], env, line)
            P = [self.fresh('kc_p') for _ in (1, 2)]; Q = [self.fresh('kc_q') for _ in (1, 2)]
            for n in P + Q: self.declare(n, 'bool')
            self.emit(f'{P[0]}, {P[1]} := {E1} && {c1}, {E2} && {c2};')
            self.emit(f'{Q[0]}, {Q[1]} := {E1} && !{c1}, {E2} && !{c2};')
            self.stmts(s['then'], dict(env, E=(P[0], P[1])))
            if s['else']: self.stmts(s['else'], dict(env, E=(Q[0], Q[1])))
            return
        if k == 'while':
            if s['c'] is None: raise Unsupported('while (*)')
            P = [self.fresh('kc_lp') for _ in (1, 2)]
            for n in P: self.declare(n, 'bool')
            (c1,), (c2,) = self.both([s['c']], env, line)
            self.emit(f'{P[0]}, {P[1]} := {E1} && {c1}, {E2} && {c2};')
            lenv = dict(env, E=(P[0], P[1]))
            self.emit(f'while ({P[0]} || {P[1]})')
            # automatic facts about the loop predicates (sound for this encoding)
            pure_c = not self.has_shared_read(s['c'])
            for t, Et in ((1, E1), (2, E2)):
                ct = self.tr(s['c'], self.ctx(t, env))
                self.emit(f'  invariant {P[t-1]} ==> {Et};')
                if pure_c:
                    self.emit(f'  invariant {P[t-1]} ==> {ct};')
                    self.emit(f'  invariant {Et} && !{P[t-1]} ==> !{ct};')
            if env.get('in_call') is None:
                mx = env['outer_max'] if env.get('loop_depth', 0) > 0 else self.max_line(s)
                lenv['outer_max'] = mx
                for a in self.shared:
                    self.emit(f'  invariant R_{a} ==> RL_{a} <= {mx};')
                    self.emit(f'  invariant W_{a} ==> WL_{a} <= {mx};')
            lenv['loop_depth'] = env.get('loop_depth', 0) + 1
            for inv in s['invs']:
                kw = 'free invariant' if inv['free'] else 'invariant'
                if self.mentions_log(inv['e']) or self.mentions(inv['e'], '__other') or self.mentions(inv['e'], '__uniform'):
                    e = self.tr(inv['e'], self.ctx(1, lenv))
                    self.emit(f'  {kw} {e};', ('invariant', inv['line']))
                else:
                    for t, Et in ((1, E1), (2, E2)):
                        e = self.tr(inv['e'], self.ctx(t, lenv))
                        self.emit(f'  {kw} {Et} ==> {e};', ('invariant', inv['line']))
            self.emit('{')
            self.stmts(s['body'], lenv)
            (c1,), (c2,) = self.both([s['c']], lenv, line)
            self.emit(f'{P[0]}, {P[1]} := {P[0]} && {c1}, {P[1]} && {c2};')
            self.emit('}')
            return
        if k == 'barrier':
            attrs = [a[0] for a in s['attrs']]
            local = 'global' not in attrs or 'local' in attrs
            glob = 'local' not in attrs or 'global' in attrs
            self.barrier(env, line, local, glob, s['invs'])
            return
        if k == 'call':
            self.call(s, env)
            return
        raise Unsupported(k)

    def all_lines(self, kind, a):
        return self.access_lines[kind].get(a, set()) or {0}

    def max_line(self, s):
        m = s.get('line', 0)
        for k in ('body', 'then', 'else'):
            if s.get(k):
                for x in s[k]: m = max(m, self.max_line(x))
        return m

    def has_shared_read(self, e):
        found = []
        def walk(x):
            if isinstance(x, tuple):
                if x[0] == 'sel' and x[1][0] == 'var' and x[1][1] in self.shared: found.append(1)
                if x[0] == 'var' and x[1] in self.shared and self.shared[x[1]]['scalar']: found.append(1)
                for y in x[1:]: walk(y)
            elif isinstance(x, list):
                for y in x: walk(y)
        walk(e); return bool(found)
    def mentions(self, e, name):
        return name in repr(e)
    def mentions_log(self, e):
        return any(f"'{b}'" in repr(e) for b in ('__read', '__write', '__read_offset', '__write_offset'))

    def barrier(self, env, line, local, glob, invs):
        E1, E2 = env['E']; sg = self.same_group()
        self.emit(f'assert {sg} ==> ({E1} <==> {E2});', ('divergence', line))
        # barrier invariants: check for each thread that reaches the barrier
        for (ia, phi, iline) in invs:
            for t, Et in ((1, E1), (2, E2)):
                chk = {}
                for a, sh in self.shared.items():
                    if sh['scalar']: continue
                    h = self.fresh('kc_bh'); self.declare(h, f"[{sh['idx']}]{sh['val']}")
                    c = self.fresh('kc_bc'); self.declare(c, f"[{sh['idx']}]{sh['val']}")
                    acc = f'ACC{t}_{a}' if sh['space'] == 'group' else f'ACC_{a}'
                    cur = f'{a}${t}' if sh['space'] == 'group' else a
                    self.emit(f"havoc {h}; {c} := (lambda kc_k: {sh['idx']} :: if {acc}[kc_k] then {cur}[kc_k] else {h}[kc_k]);")
                    chk[a] = (c, c)
                e = self.tr(phi, self.ctx(t, env, mapsub=chk))
                self.emit(f'assert {Et} ==> {e};', ('barrier-invariant', iline))
        # effects
        for a, sh in self.shared.items():
            fenced = local if sh['space'] == 'group' else glob
            if fenced:
                if sh['space'] == 'group':
                    self.emit(f'if ({E1}) {{ assume !R_{a} && !W_{a}; }}')
                else:
                    self.emit(f'if ({E1} && {sg}) {{ assume !R_{a} && !W_{a}; }}')
            if sh['space'] == 'group':
                self.emit(f'if ({E1}) {{ havoc {a}$1; }} if ({E2}) {{ havoc {a}$2; }} assume {sg} ==> {a}$1 == {a}$2;')
                self.emit(f'if ({E1}) {{ ACC1_{a} := (lambda kc_k: {sh["idx"]} :: false); }} if ({E2}) {{ ACC2_{a} := (lambda kc_k: {sh["idx"]} :: false); }}')
            else:
                self.emit(f'if ({E1} || {E2}) {{ havoc {a}; ACC_{a} := (lambda kc_k: {sh["idx"]} :: false); }}')
        for (ia, phi, iline) in invs:
            insts = [x for (n, args) in ia if n == 'instantiate' for x in args] or [None]
            for t, Et in ((1, E1), (2, E2)):
                for inst in insts:
                    c = self.ctx(t, env)
                    if inst is not None:
                        lx = self.attr_to_name['local_id_x'][0]
                        c['idsub'] = {lx: paren(self.tr(inst, self.ctx(t, env)))}
                    self.emit(f'assume {Et} ==> {self.tr(phi, c)};')

    def call(self, s, env):
        p = self.procs.get(s['proc'])
        if p is None: raise Unsupported('unknown procedure ' + s['proc'])
        E1, E2 = env['E']; line = s['line']
        if any(a[0] == 'barrier' for a in p['attrs']):
            vals = [a[1] for a in s['args']]
            self.barrier(env, line, vals[0].startswith('1'), vals[1].startswith('1'), [])
            return
        # inline with fresh names
        ren = dict(env['priv']); types = dict(env['types'])
        for (n, ty, _) in p['ins'] + p['outs'] + (p['body']['locals'] if p['body'] else []):
            ren[n] = self.fresh('kc_' + n); types[n] = ty
            self.declare(ren[n] + '$1', ty); self.declare(ren[n] + '$2', ty)
        argv1, argv2 = self.both(s['args'], env, line)
        for t, Et, vals in ((1, E1, argv1), (2, E2, argv2)):
            if p['ins']:
                self.emit(f"if ({Et}) {{ {', '.join(ren[n] + f'${t}' for n, _, _ in p['ins'])} := {', '.join(vals)}; }}")
        penv = dict(env, priv=ren, types=types, in_call=p['name'])
        # snapshots for old()
        oldmap = {}
        for a, sh in self.shared.items():
            if sh['scalar']: continue
            o1, o2 = self.fresh('kc_old'), self.fresh('kc_old')
            self.declare(o1, f"[{sh['idx']}]{sh['val']}"); self.declare(o2, f"[{sh['idx']}]{sh['val']}")
            if sh['space'] == 'group': self.emit(f'{o1}, {o2} := {a}$1, {a}$2;')
            else: self.emit(f'{o1}, {o2} := {a}, {a};')
            oldmap[a] = (o1, o2)
        penv['oldmap'] = oldmap
        for (k, e, sl, free) in p['specs']:
            if k == 'requires':
                for t, Et in ((1, E1), (2, E2)):
                    x = self.tr(e, self.ctx(t, penv))
                    if free: self.emit(f'assume {Et} ==> {x};')
                    else: self.emit(f'assert {Et} ==> {x};', ('precondition', line))
        if p['body'] is None:
            for (n, ty, _) in p['outs']:
                for t, Et in ((1, E1), (2, E2)):
                    tmp = self.fresh('kc_h'); self.declare(tmp, ty)
                    self.emit(f"havoc {tmp}; if ({Et}) {{ {ren[n]}${t} := {tmp}; }}")
        else:
            self.stmts(p['body']['stmts'], penv)
        for (k, e, sl, free) in p['specs']:
            if k == 'ensures':
                for t, Et in ((1, E1), (2, E2)):
                    x = self.tr(e, self.ctx(t, penv))
                    if free or p['body'] is None: self.emit(f'assume {Et} ==> {x};')
                    else: self.emit(f'assert {Et} ==> {x};', ('postcondition', sl))
        for t, Et in ((1, E1), (2, E2)):
            if s['outs']:
                self.emit(f"if ({Et}) {{ {', '.join(env['priv'][o] + f'${t}' for o in s['outs'])} := {', '.join(ren[n] + f'${t}' for n, _, _ in p['outs'])}; }}")

    def declare(self, n, ty):
        self.locals.append(f'var {n}: {ty};')

    # ------------------------------------------------------------------ top level
    def sizes(self):
        ax = []
        def dims(flag):
            if flag in self.args:
                v = self.args[self.args.index(flag) + 1].split(',')
                return [v[i] if i < len(v) else '1' for i in range(3)]
            return None
        ls, ng = dims('--local-size'), dims('--num-groups')
        for base, vals in (('group_size', ls), ('num_groups', ng)):
            for i, d in enumerate('xyz'):
                n, ty = self.attr_to_name[f'{base}_{d}']
                lit = (lambda v: v + ('' if ty == 'int' else ty)) 
                if vals: ax.append(f'axiom {n} == {lit(vals[i])};')
                else:
                    ax.append(f'axiom {n} > 0;' if ty == 'int' else f'axiom {n} != 0{ty};')
        return ax

    def translate(self):
        k = self.kernel
        if k is None: raise Unsupported('no kernel')
        self.access_lines = {'read': {}, 'write': {}}
        # pre-scan accesses (run translation twice: first to collect lines)
        for phase in (0, 1):
            self.out = []; self.tags = {}; self.locals = []
            self.fresh_n = itertools.count()
            self.read_lines, self.write_lines = {}, {}
            self.translate_once(k)
            self.access_lines = {'read': dict(self.read_lines), 'write': dict(self.write_lines)}
        return self.out, self.tags

    def translate_once(self, k):
        privtypes = {}
        ren = {}
        for (n, ty, _) in k['body']['locals']:
            ren[n] = n; privtypes[n] = ty
            self.declare(n + '$1', ty); self.declare(n + '$2', ty)
        env = dict(E=('true', 'true'), priv=ren, types=privtypes)
        for (kk, e, line, free) in k['specs']:
            if kk == 'requires':
                for t in (1, 2): self.emit(f'assume {self.tr(e, self.ctx(t, env))};')
        self.stmts(k['body']['stmts'], env)
        for (kk, e, line, free) in k['specs']:
            if kk == 'ensures':
                for t in (1, 2): self.emit(f'assert {self.tr(e, self.ctx(t, env))};', ('postcondition', line))
        self.kparams = k['ins']

    def program(self):
        body, tags = self.translate()
        lines = []
        lines.append('// generated by kcheck')
        lines += self.verbatim
        for n, (attr, ty) in self.ids.items():
            if attr in PER_THREAD: lines.append(f'const {n}$1: {ty}; const {n}$2: {ty};')
            else: lines.append(f'const {n}: {ty};')
        lines += self.sizes()
        widths = set(re.findall(r'bv(\d+)', ' '.join(ty for _, ty in self.ids.values())))
        for w in widths:
            lines.append(f'function {{:bvbuiltin "bvult"}} KC_ULT{w}(bv{w}, bv{w}): bool;')
        for a, sh in self.shared.items():
            idx, val = sh['idx'], sh['val']
            if sh['space'] == 'group': lines.append(f'var {a}$1: [{idx}]{val}; var {a}$2: [{idx}]{val};')
            else: lines.append(f'var {a}: [{idx}]{val};')
            lines.append(f'var R_{a}: bool; var W_{a}: bool; var RO_{a}: {idx}; var WO_{a}: {idx}; var WV_{a}: {val}; var RL_{a}: int; var WL_{a}: int;')
            if sh['space'] == 'group': lines.append(f'var ACC1_{a}: [{idx}]bool; var ACC2_{a}: [{idx}]bool;')
            else: lines.append(f'var ACC_{a}: [{idx}]bool;')
        params = ', '.join(f'{n}: {ty}' for n, ty, _ in self.kparams)
        lines.append(f'procedure KC_kernel({params})')
        lines.append('  modifies ' + ', '.join(
            v for a, sh in self.shared.items() for v in
            ([f'{a}$1', f'{a}$2', f'ACC1_{a}', f'ACC2_{a}'] if sh['space'] == 'group' else [a, f'ACC_{a}']) +
            [f'R_{a}', f'W_{a}', f'RO_{a}', f'WO_{a}', f'WV_{a}', f'RL_{a}', f'WL_{a}']) + ';' if self.shared else '')
        # thread constraints
        reqs = []
        for t in (1, 2):
            for d in 'xyz':
                lid = self.idname(f'local_id_{d}', t); gsz = self.idname(f'group_size_{d}')
                gid = self.idname(f'group_id_{d}', t); ng = self.idname(f'num_groups_{d}')
                for (a, b, ty) in ((lid, gsz, self.attr_to_name[f'local_id_{d}'][1]), (gid, ng, self.attr_to_name[f'group_id_{d}'][1])):
                    if ty == 'int': reqs.append(f'0 <= {a} && {a} < {b}')
                    else: reqs.append(f'KC_ULT{ty[2:]}({a}, {b})')
        reqs.append(f"{self.same_group()} ==> ({self.idname('local_id_x',1)} != {self.idname('local_id_x',2)} || {self.idname('local_id_y',1)} != {self.idname('local_id_y',2)} || {self.idname('local_id_z',1)} != {self.idname('local_id_z',2)})")
        for a in self.shared:
            reqs.append(f'!R_{a} && !W_{a}')
            if self.shared[a]['space'] == 'group':
                reqs.append(f'ACC1_{a} == (lambda kc_k: {self.shared[a]["idx"]} :: false) && ACC2_{a} == ACC1_{a}')
                reqs.append(f'{self.same_group()} ==> {a}$1 == {a}$2')
            else:
                reqs.append(f'ACC_{a} == (lambda kc_k: {self.shared[a]["idx"]} :: false)')
        for r in reqs: lines.append(f'  requires {r};')
        lines.append('{')
        lines.append('  var kc_nd: bool;')
        lines += ['  ' + l for l in sorted(set(self.locals))]
        base = len(lines)
        gtags = {}
        for i, l in enumerate(body):
            lines.append('  ' + l)
            if (i + 1) in tags: gtags[len(lines)] = tags[i + 1]
        lines.append('}')
        return '\n'.join(lines) + '\n', gtags


def z3_wrapper():
    """Boogie 2.4.1 sends `model_compress` to z3, which z3 4.8.12 rejects: filter it out."""
    w = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'kcheck-z3wrap.sh')
    if not os.path.exists(w):
        open(w, 'w').write('#!/bin/sh\ngrep -v --line-buffered model_compress | %s "$@"\n' % os.environ.get('Z3', '/usr/bin/z3'))
        os.chmod(w, 0o755)
    return w


def run(path, keep=False):
    src = open(path).read()
    hdr = src.split('\n')
    # `//args: ...` in the header (tests/README.md).
    args = next((l[len('//args:'):].split() for l in hdr[:8] if l.startswith('//args:')), [])
    k = Kernel(src, args)
    prog, tags = k.program()
    out = path + '.kc.bpl' if keep else os.path.join(os.environ.get('TMPDIR', '/tmp'), 'kcheck-last.bpl')
    open(out, 'w').write(prog)
    flags = ['/contractInfer'] if '--houdini' in args else []
    r = subprocess.run([os.environ.get('BOOGIE', 'boogie'), '/z3exe:' + z3_wrapper(), '/timeLimit:60', '/subsumption:0', '/errorLimit:100', *flags, out], capture_output=True, text=True)
    errs = set()
    bad = []
    for l in r.stdout.split('\n'):
        m = re.match(r'^.*\.bpl\((\d+),(\d+)\): Error', l)
        if m:
            ln = int(m.group(1))
            if ln in tags:
                tg = tags[ln]
                if tg[0] == 'invariant':
                    tg = ('invariant-entry' if 'on entry' in l else 'invariant-maintained',) + tg[1:]
                errs.add(tg)
            else: bad.append(l)
        elif '): error' in l or 'errors detected' in l:
            bad.append(l)
    if 'finished with' not in r.stdout: bad.append(r.stdout[-2000:])
    if re.search(r'time out|timed out|inconclusive|out of memory|out of resource', r.stdout): bad.append('TIMEOUT/INCONCLUSIVE')
    return errs, bad, r.stdout

if __name__ == '__main__':
    errs, bad, raw = run(sys.argv[1], keep='--keep' in sys.argv)
    for e in sorted(map(str, errs)): print('ERR', e)
    for b in bad: print('BAD', b)
    if not errs and not bad: print('VERIFIED')

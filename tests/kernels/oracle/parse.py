"""Small Boogie/KBPL parser for the kernel-corpus oracle (kcheck.py)."""
import re

TOKEN_RE = re.compile(r'''
 (?P<ws>\s+)|(?P<lc>//[^\n]*)|(?P<bc>/\*.*?\*/)
|(?P<bv>\d+bv\d+)
|(?P<real>\d+\.\d+(?:e-?\d+)?)
|(?P<int>\d+)
|(?P<str>"[^"]*")
|(?P<attr>\{:)
|(?P<op><==>|==>|<==|\|\||&&|==|!=|<=|>=|<:|:=|::|\+\+|[<>+\-*/!:;,()\[\]{}])
|(?P<id>[A-Za-z_$.#'`~^\\?][A-Za-z0-9_$.#'`~^\\?]*)
''', re.X | re.S)

class Tok:
    def __init__(s, kind, text, line): s.kind, s.text, s.line = kind, text, line
    def __repr__(s): return f'{s.kind}:{s.text}@{s.line}'

def lex(src):
    toks, pos, line = [], 0, 1
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if not m: raise SyntaxError(f'lex error at line {line}: {src[pos:pos+20]!r}')
        k = m.lastgroup; t = m.group()
        if k not in ('ws', 'lc', 'bc'):
            toks.append(Tok(k, t, line))
        line += t.count('\n'); pos = m.end()
    toks.append(Tok('eof', '', line))
    return toks

# Expressions are tuples:
# ('lit', text) ('var', name) ('un', op, e) ('bin', op, a, b) ('call', f, [args])
# ('sel', m, [idx]) ('store', m, [idx], v) ('extract', e, hi, lo) ('ite', c, a, b)
# ('quant', kind, [(name, typetext)], triggers_text_exprs, body) ('old', e)

class Parser:
    def __init__(s, src):
        s.toks = lex(src); s.i = 0
    def peek(s, k=0): return s.toks[s.i + k]
    def at(s, *texts): return s.peek().text in texts and s.peek().kind in ('op', 'id', 'attr')
    def next(s):
        t = s.toks[s.i]; s.i += 1; return t
    def expect(s, text):
        t = s.next()
        if t.text != text: raise SyntaxError(f'line {t.line}: expected {text!r}, got {t.text!r}')
        return t
    def ident(s):
        t = s.next()
        if t.kind != 'id': raise SyntaxError(f'line {t.line}: expected identifier, got {t.text!r}')
        return t.text

    # attributes: list of (name, [args as expr or string])
    def attrs(s):
        res = []
        while s.peek().kind == 'attr':
            s.next(); name = s.ident(); args = []
            while not s.at('}'):
                if s.peek().kind == 'str': args.append(('str', s.next().text))
                else: args.append(s.expr())
                if s.at(','): s.next()
            s.expect('}'); res.append((name, args))
        return res

    def type_(s):
        # returns text
        if s.at('['):
            s.next(); args = [s.type_()]
            while s.at(','): s.next(); args.append(s.type_())
            s.expect(']'); r = s.type_()
            return '[' + ', '.join(args) + ']' + r
        t = s.ident()
        return t

    # ---------------- expressions
    def expr(s):
        a = s.implies()
        while s.at('<==>'):
            s.next(); a = ('bin', '<==>', a, s.implies())
        return a
    def implies(s):
        a = s.logical()
        if s.at('==>'):
            s.next(); return ('bin', '==>', a, s.implies())
        while s.at('<=='):
            s.next(); a = ('bin', '<==', a, s.logical())
        return a
    def logical(s):
        a = s.relation()
        if s.at('&&'):
            while s.at('&&'): s.next(); a = ('bin', '&&', a, s.relation())
        elif s.at('||'):
            while s.at('||'): s.next(); a = ('bin', '||', a, s.relation())
        return a
    def relation(s):
        a = s.bvterm()
        if s.at('==', '!=', '<', '<=', '>', '>='):
            op = s.next().text; a = ('bin', op, a, s.bvterm())
        return a
    def bvterm(s):
        a = s.term()
        while s.at('++'): s.next(); a = ('bin', '++', a, s.term())
        return a
    def term(s):
        a = s.factor()
        while s.at('+', '-'):
            op = s.next().text; a = ('bin', op, a, s.factor())
        return a
    def factor(s):
        a = s.unary()
        while s.at('*', '/', 'div', 'mod'):
            op = s.next().text; a = ('bin', op, a, s.unary())
        return a
    def unary(s):
        if s.at('-'): s.next(); return ('un', '-', s.unary())
        if s.at('!'): s.next(); return ('un', '!', s.unary())
        return s.postfix()
    def postfix(s):
        a = s.atom()
        while s.at('['):
            s.next()
            if s.peek().kind == 'int' and s.peek(1).text == ':' and s.peek(2).kind == 'int':
                hi = int(s.next().text); s.next(); lo = int(s.next().text); s.expect(']')
                a = ('extract', a, hi, lo); continue
            idx = [s.expr()]
            while s.at(','): s.next(); idx.append(s.expr())
            if s.at(':='):
                s.next(); v = s.expr(); s.expect(']'); a = ('store', a, idx, v)
            else:
                s.expect(']'); a = ('sel', a, idx)
        return a
    def atom(s):
        t = s.peek()
        if t.kind in ('int', 'bv', 'real'): s.next(); return ('lit', t.text)
        if t.text in ('true', 'false') and t.kind == 'id': s.next(); return ('lit', t.text)
        if t.text == 'old' and s.peek(1).text == '(':
            s.next(); s.next(); e = s.expr(); s.expect(')'); return ('old', e)
        if t.text == 'if' and t.kind == 'id':
            s.next(); c = s.expr(); s.expect('then'); a = s.expr(); s.expect('else'); b = s.expr()
            return ('ite', c, a, b)
        if t.text == '(':
            s.next()
            if s.at('forall', 'exists', 'lambda'):
                kind = s.next().text; vs = []
                while True:
                    names = [s.ident()]
                    while s.at(','): s.next(); names.append(s.ident())
                    s.expect(':'); ty = s.type_()
                    vs += [(n, ty) for n in names]
                    if s.at(','): s.next(); continue
                    break
                s.expect('::')
                trig = []
                while s.peek().kind in ('attr',) or s.at('{'):
                    if s.peek().kind == 'attr': s.attrs(); continue
                    s.next(); es = [s.expr()]
                    while s.at(','): s.next(); es.append(s.expr())
                    s.expect('}'); trig.append(es)
                body = s.expr(); s.expect(')')
                return ('quant', kind, vs, trig, body)
            e = s.expr(); s.expect(')'); return e
        if t.kind == 'id':
            s.next()
            if s.at('('):
                s.next(); args = []
                if not s.at(')'):
                    args.append(s.expr())
                    while s.at(','): s.next(); args.append(s.expr())
                s.expect(')'); return ('call', t.text, args)
            return ('var', t.text)
        raise SyntaxError(f'line {t.line}: unexpected {t.text!r} in expression')

    # ---------------- statements: dicts with 'k' kind and 'line'
    def block(s):
        s.expect('{'); stmts = []
        while not s.at('}'): stmts.append(s.stmt())
        s.expect('}'); return stmts
    def stmt(s):
        t = s.peek(); line = t.line
        if t.kind == 'id' and s.peek(1).text == ':' and s.peek(1).kind == 'op':
            s.next(); s.next(); return {'k': 'label', 'name': t.text, 'line': line}
        kw = t.text
        if kw in ('assert', 'assume'):
            s.next(); a = s.attrs(); e = s.expr(); s.expect(';')
            return {'k': kw, 'e': e, 'attrs': a, 'line': line}
        if kw == 'havoc':
            s.next(); vs = [s.ident()]
            while s.at(','): s.next(); vs.append(s.ident())
            s.expect(';'); return {'k': 'havoc', 'vars': vs, 'line': line}
        if kw == 'barrier':
            s.next(); a = s.attrs(); invs = []
            if s.at(';'): s.next()
            else:
                while s.at('invariant'):
                    s.next(); ia = s.attrs(); e = s.expr(); s.expect(';'); invs.append((ia, e, s.toks[s.i-1].line))
            return {'k': 'barrier', 'attrs': a, 'invs': invs, 'line': line}
        if kw == 'call':
            s.next(); a = s.attrs(); outs = []
            if s.peek(1).text in (',', ':='):
                outs.append(s.ident())
                while s.at(','): s.next(); outs.append(s.ident())
                s.expect(':=')
            p = s.ident(); s.expect('('); args = []
            if not s.at(')'):
                args.append(s.expr())
                while s.at(','): s.next(); args.append(s.expr())
            s.expect(')'); s.expect(';')
            return {'k': 'call', 'outs': outs, 'proc': p, 'args': args, 'attrs': a, 'line': line}
        if kw == 'if':
            s.next(); s.expect('(')
            if s.at('*'): s.next(); c = None
            else: c = s.expr()
            s.expect(')'); th = s.block(); el = None
            if s.at('else'):
                s.next()
                el = [s.stmt()] if s.at('if') else s.block()
            return {'k': 'if', 'c': c, 'then': th, 'else': el, 'line': line}
        if kw == 'while':
            s.next(); s.expect('(')
            if s.at('*'): s.next(); c = None
            else: c = s.expr()
            s.expect(')'); invs = []
            while s.at('invariant', 'free'):
                free = False
                if s.at('free'): s.next(); free = True
                il = s.peek().line
                s.expect('invariant'); ia = s.attrs(); e = s.expr(); s.expect(';')
                invs.append({'free': free, 'attrs': ia, 'e': e, 'line': il})
            body = s.block()
            return {'k': 'while', 'c': c, 'invs': invs, 'body': body, 'line': line}
        if kw == 'goto':
            s.next(); ls = [s.ident()]
            while s.at(','): s.next(); ls.append(s.ident())
            s.expect(';'); return {'k': 'goto', 'targets': ls, 'line': line}
        if kw == 'return': s.next(); s.expect(';'); return {'k': 'return', 'line': line}
        if kw == 'break':
            s.next(); lab = None
            if not s.at(';'): lab = s.ident()
            s.expect(';'); return {'k': 'break', 'label': lab, 'line': line}
        # assignment
        lhss = [s.lhs()]
        while s.at(','): s.next(); lhss.append(s.lhs())
        s.expect(':='); rhss = [s.expr()]
        while s.at(','): s.next(); rhss.append(s.expr())
        s.expect(';')
        return {'k': 'assign', 'lhss': lhss, 'rhss': rhss, 'line': line}
    def lhs(s):
        v = s.ident(); idx = []
        while s.at('['):
            s.next(); i = [s.expr()]
            while s.at(','): s.next(); i.append(s.expr())
            s.expect(']'); idx.append(i)
        return (v, idx)

    # ---------------- declarations
    def program(s):
        decls = []
        while s.peek().kind != 'eof':
            decls.append(s.decl())
        return decls
    def typed_idents(s):
        res = []
        while True:
            a = s.attrs()
            names = [s.ident()]
            while s.at(','): s.next(); names.append(s.ident())
            s.expect(':'); ty = s.type_()
            res += [(n, ty, a) for n in names]
            if s.at(','): s.next(); continue
            return res
    def decl(s):
        t = s.peek(); start = s.i
        kw = t.text
        if kw == 'var':
            s.next(); a = s.attrs(); vs = s.typed_idents(); s.expect(';')
            return {'k': 'var', 'attrs': a, 'vars': vs}
        if kw == 'const':
            s.next(); a = s.attrs(); uniq = False
            if s.at('unique'): s.next(); uniq = True
            vs = s.typed_idents(); s.expect(';')
            return {'k': 'const', 'attrs': a, 'vars': vs, 'unique': uniq}
        if kw in ('type', 'function', 'axiom'):
            # copy verbatim up to the end of the declaration
            s.next(); depth = 0
            if kw == 'function':
                s.attrs(); name = s.ident()
            while True:
                tt = s.next()
                if tt.text == '{' or tt.kind == 'attr': depth += 1
                elif tt.text == '}':
                    depth -= 1
                    if depth == 0 and kw == 'function' and not s.at(';'): break
                elif tt.text == ';' and depth == 0: break
            return {'k': 'verbatim', 'toks': s.toks[start:s.i]}
        if kw == 'procedure':
            s.next(); a = s.attrs(); name = s.ident(); s.expect('(')
            ins = [] if s.at(')') else s.typed_idents()
            s.expect(')'); outs = []
            if s.at('returns'):
                s.next(); s.expect('('); outs = s.typed_idents(); s.expect(')')
            specs = []; body = None
            if s.at(';'): s.next()
            while s.at('requires', 'ensures', 'modifies', 'free'):
                free = False
                if s.at('free'): s.next(); free = True
                k = s.next().text; line = s.toks[s.i-1].line
                if k == 'modifies':
                    vs = [s.ident()]
                    while s.at(','): s.next(); vs.append(s.ident())
                    s.expect(';'); specs.append(('modifies', vs, line, free)); continue
                sa = s.attrs(); e = s.expr(); s.expect(';')
                specs.append((k, e, line, free))
            if s.at('{'):
                body = s.body()
            return {'k': 'proc', 'attrs': a, 'name': name, 'ins': ins, 'outs': outs, 'specs': specs, 'body': body, 'line': t.line}
        if kw == 'implementation':
            raise SyntaxError('implementation decls not supported by the oracle')
        raise SyntaxError(f'line {t.line}: unexpected {t.text!r}')
    def body(s):
        s.expect('{'); locs = []
        while s.at('var'):
            s.next(); s.attrs(); locs += s.typed_idents(); s.expect(';')
        stmts = []
        while not s.at('}'): stmts.append(s.stmt())
        s.expect('}')
        return {'locals': locs, 'stmts': stmts}

def tokens_text(toks):
    out = []
    for t in toks:
        out.append(t.text)
    return ' '.join(out)

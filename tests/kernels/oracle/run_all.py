#!/usr/bin/env python3
"""Runs the kcheck oracle on tests/kernels/*.kbpl (or the files given) and compares its findings
with each file's header. Goto-shaped kernels are reported as SKIP. Kernels marked
//needs-inference are expected to fail here (the oracle does no invariant inference)."""
import sys, os, re, glob
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcheck
from parse import Parser

def header(path):
    L = open(path).read().split('\n')
    # The header (tests/README.md): line 1 `//pass` or `//xfail:KIND`, then `//args: ...`.
    h = {'expect': L[0][2:].replace(': ', ':'), 'args': [], 'lines': None, 'infer': False}
    for l in L[:8]:
        if l.startswith('//args:'): h['args'] = l[len('//args:'):].split()
        m = re.match(r'^//error-lines?:\s*(.*)$', l)
        if m: h['lines'] = sorted(int(x) for x in m.group(1).replace(' ', '').split(',') if x)
        if l.strip() == '//needs-inference': h['infer'] = True
    return h

def main(files):
    bad = 0
    for f in files:
        h = header(f)
        name = os.path.basename(f)
        try:
            errs, junk, raw = kcheck.run(f)
        except kcheck.Unsupported as e:
            print(f'{name:40} {h["expect"]:28} SKIP ({e})'); continue
        except Exception as e:
            print(f'{name:40} {h["expect"]:28} CRASH {type(e).__name__}: {e}'); bad += 1; continue
        if junk:
            print(f'{name:40} {h["expect"]:28} BOOGIE-PROBLEM {junk[:2]}'); bad += 1; continue
        got = sorted(set((e[0],) + tuple(e[1:]) for e in errs))
        if h['expect'] == 'pass':
            ok = not errs
            desc = 'verified' if ok else str(got)
        else:
            kind = h['expect'].split(':', 1)[1]
            same = [e for e in errs if e[0] == kind]
            if kind == 'race':
                pairs = sorted(set(tuple(sorted((e[3], e[4]))) for e in same))
                ok = bool(same) and (h['lines'] is None or tuple(h['lines']) in pairs)
                desc = f'race pairs {pairs}' + ('' if len(pairs) <= 1 else ' (SEVERAL)')
                others = [e for e in errs if e[0] != kind]
                if others: desc += f' +others {sorted(set(others))}'
            else:
                lines = sorted(set(e[1] for e in same))
                ok = bool(same) and (h['lines'] is None or h['lines'][0] in lines)
                desc = f'{kind} at {lines}'
                others = [e for e in errs if e[0] != kind]
                if others: desc += f' +others {sorted(set(map(str, others)))}'
        st = 'ok' if ok else 'MISMATCH'
        if not ok and h['infer']:
            st = 'INFER'   # needs invariant inference, which this oracle does not do
        elif not ok:
            bad += 1
        print(f'{name:40} {h["expect"]:28} {st:8} {desc}')
    print(f'{len(files)} files, {bad} problems')

if __name__ == '__main__':
    args = sys.argv[1:] or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '*.kbpl')))
    main(args)

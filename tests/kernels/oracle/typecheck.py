#!/usr/bin/env python3
"""Parses and type-checks .kbpl kernels with Boogie 2.4.1 (/noVerify /doModSetAnalysis):
`barrier` statements become calls of a dummy procedure (barrier invariants become asserts), and
the int prelude names and the spec built-ins (__read, __other, ...) are declared.

    python3 tests/kernels/oracle/typecheck.py tests/kernels/*.kbpl"""
import sys, re, subprocess, os
PRELUDE = '''
const local_id_x, local_id_y, local_id_z, group_id_x, group_id_y, group_id_z: int;
const group_size_x, group_size_y, group_size_z, num_groups_x, num_groups_y, num_groups_z: int;
function __read<T>(x: T): bool;
function __write<T>(x: T): bool;
function __read_offset<T,U>(x: T): U;
function __write_offset<T,U>(x: T): U;
function __other<T>(x: T): T;
function __uniform<T>(x: T): bool;
function __enabled(): bool;
procedure __barrier();
'''
bad = 0
for f in sys.argv[1:]:
    src = open(f).read()
    names = set(re.findall(r'\b(local_id_[xyz]|group_id_[xyz]|group_size_[xyz]|num_groups_[xyz])\b', src))
    declared = set(re.findall(r'const\s+\{:[a-z_]+\}\s+(\w+)', src))
    pre = PRELUDE
    # barrier statements (possibly with invariants, possibly several lines up to the ';' list)
    def conv(m):
        attrs, rest = m.group(1) or '', m.group(2)
        if rest.strip() == ';':
            return f'call {attrs} __barrier();'
        invs = re.findall(r'invariant\s*((?:\{:[^}]*\}\s*)*)([^;]*);', rest)
        return f'call {attrs} __barrier(); ' + ' '.join(f'assert {a} {e};' for a, e in invs)
    out = re.sub(r'\bbarrier\s*((?:\{:[^}]*\}\s*)*)(;|(?:\s*invariant[^;]*;)+)', conv, src)
    # offsets: give them the map's index type via a typed wrapper is hard; use int-typed helper
    out = out.replace('__read_offset(', '__read_offset_i(').replace('__write_offset(', '__write_offset_i(')
    pre += 'function __read_offset_i<T>(x: T): int;\nfunction __write_offset_i<T>(x: T): int;\n'
    tmp = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'kcheck-typecheck.bpl')
    open(tmp, 'w').write(pre + out)
    r = subprocess.run([os.environ.get('BOOGIE', 'boogie'), '/noVerify', '/doModSetAnalysis', tmp], capture_output=True, text=True)
    msgs = [l for l in r.stdout.split('\n') if 'error' in l.lower() and 'finished' not in l]
    if msgs:
        bad += 1
        print(os.path.basename(f), msgs[:3])
print(len(sys.argv) - 1, 'files,', bad, 'with Boogie parse/type errors')

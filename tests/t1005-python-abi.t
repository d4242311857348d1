#!/usr/bin/env python3
# t1005-python-abi: the package's ctypes declarations (python/ptxpose/_lib.py)
# against include/ptxpose.h as the C compiler reads it: each struct's size and
# every field's offset and size (a C program compiled here prints them); each
# PTXPOSE_API function either declared, with as many arguments as its
# prototype, each argument and the result of the C type's size and pointer-ness
# (no 64-bit pointer or size passed through a 32-bit int), or one the package
# deliberately leaves out. No library call, no GPU.
import ctypes
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok  # noqa: E402

from ptxpose import _lib  # noqa: E402

STRUCTS = {'ptxpose_desc': _lib.Desc, 'ptxpose_kernel_info': _lib.KernelInfo, 'ptxpose_plan_info': _lib.PlanInfo,
           'ptxpose_device_info': _lib.DeviceInfo}
UNBOUND = {'ptxpose_set_log': 'a C callback on any thread: tools only',
           'ptxpose_register_ptx': 'PTX is added through $PTXPOSE_PTX'}
POINTERS = (ctypes.c_void_p, ctypes.c_char_p, ctypes._Pointer)

header = open(os.path.join(ROOT, 'include', 'ptxpose.h')).read()
protos = {m.group(2): (m.group(1).strip(), [a.strip() for a in m.group(3).split(',') if a.strip() != 'void'])
          for m in re.finditer(r'^PTXPOSE_API ([^(]*?[\s*])(ptxpose_\w+)\((.*?)\);', header, re.M | re.S)}


def ctype_of(arg):
    """The type of a C parameter: its declaration without the parameter's name."""
    return re.sub(r'\b\w+$', '', arg).strip() if re.search(r'[\w*]\s+\**\w+$', arg) else arg


# the C side: sizes and offsets of the structs, sizes of every parameter and result type
lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "include/ptxpose.h"', 'int main(void) {']
for cname, cls in STRUCTS.items():
    lines.append(f'printf("{cname} %zu\\n", sizeof({cname}));')
    for f, t in cls._fields_:
        lines.append(f'printf("{cname}.{f} %zu %zu\\n", offsetof({cname}, {f}), sizeof((({cname} *)0)->{f}));')
types = sorted({ctype_of(a) for res, args in protos.values() for a in args} | {res for res, _ in protos.values()})
for t in types:
    lines.append(f'printf("type %s %zu\\n", "{t}", sizeof({t}));')
lines.append('return 0; }')
tmp = tempfile.mkdtemp()
src, exe = os.path.join(tmp, 'abi.c'), os.path.join(tmp, 'abi')
with open(src, 'w') as f:
    f.write('\n'.join(lines) + '\n')
cc = subprocess.run(['cc', '-std=c11', '-I', ROOT, src, '-o', exe], capture_output=True, text=True)
if not ok(cc.returncode == 0, 'a C program of the structs and types compiles', cc.stderr):
    finish()
c = {}
for line in subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines():
    key, _, rest = line[5:].rpartition(' ') if line.startswith('type ') else line.partition(' ')
    c[key] = rest

# ---- structs
for cname, cls in STRUCTS.items():
    bad = [f'sizeof {ctypes.sizeof(cls)}, C {c[cname]}'] if ctypes.sizeof(cls) != int(c[cname]) else []
    for f, t in cls._fields_:
        py = f'{getattr(cls, f).offset} {getattr(cls, f).size}'
        if py != c[f'{cname}.{f}']:
            bad.append(f'{f}: offset, size {py}; C {c[cname + "." + f]}')
    ok(not bad, f'{cls.__name__}: sizeof {c[cname]} and every field\'s offset and size as {cname}', '\n'.join(bad))

# ---- functions
missing = sorted(set(protos) - set(_lib.SIGNATURES) - set(UNBOUND))
ok(not missing and len(protos) >= 15, f'every PTXPOSE_API function of the header ({len(protos)}) declared, or left '
   f'out on purpose ({", ".join(UNBOUND)})', f'undeclared: {missing}')
extra = sorted(set(_lib.SIGNATURES) - set(protos))
ok(not extra, 'no declaration of a function the header lacks', f'extra: {extra}')


def same(py, ctype):
    """A ctypes type and a C type agree in size and pointer-ness."""
    if py is None:
        return ctype == 'void'
    ptr = '*' in ctype or ctype in ('ptxpose_handle', 'ptxpose_plan', 'ptxpose_stream', 'ptxpose_log_fn')
    return ctypes.sizeof(py) == int(c[ctype]) and issubclass(py, POINTERS) == ptr


bad = []
for name, (res, args) in _lib.SIGNATURES.items():
    cres, cargs = protos[name]
    if not same(res, cres):
        bad.append(f'{name}: result {res.__name__}, C {cres}')
    if len(args) != len(cargs):
        bad.append(f'{name}: {len(args)} arguments, C {len(cargs)}')
    for i, (a, ca) in enumerate(zip(args, cargs)):
        if not same(a, ctype_of(ca)):
            bad.append(f'{name}: argument {i} {a.__name__}, C {ctype_of(ca)}')
ok(not bad, f'{len(_lib.SIGNATURES)} functions: every argument and result of the C type\'s size and pointer-ness',
   '\n'.join(bad))
finish()

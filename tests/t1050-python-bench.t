#!/usr/bin/env python3
# t1050-python-bench: bench/peers.py times ptxpose through the Python package,
# checked here on the fake driver without torch: the --ptx files reach the
# library as $PTXPOSE_PTX (their kernels replace the built-in ones of the
# same name, and only they are timed by name, per width); the results say
# which library and which path; each ptxpose implementation (the heuristic
# plan, a measured plan, a kernel by name) is a Plan whose execute runs on
# the harness's stream (captured there: nothing runs until the graph does)
# and transposes correctly, with the chosen kernel and the plan's launch in
# its note.
import ctypes
import glob
import os
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok  # noqa: E402
from fakearrays import Arr, cu, transposed  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'bench'))
import peers_cases  # noqa: E402
import peers_impls  # noqa: E402
import peers_ptx  # noqa: E402
import peers_run  # noqa: E402

VP = ctypes.c_void_p
env = peers_run.Env(quick=True)
ok('ptxpose' in env.mods and env.mods['ptxpose'].__file__.startswith(os.path.join(ROOT, 'python')),
   "the harness imports the package of this tree", env.missing)
files = peers_ptx.load([os.path.join(ROOT, 'ptx', 'fast_b32.ptx'), os.path.join(ROOT, 'ptx', 'fast_v8_b8.ptx')],
                       glob.glob)
by_width, info = peers_run.ptxpose_kernels(env, files)
ok(by_width == {4: ['fast_b32'], 1: ['fast_v8_b8']}, f'--ptx: only its kernels are timed by name, per width: {by_width}')
px = env.mods['ptxpose']
src = {k.name: k.source for k in px.kernels()}
ok(src['fast_b32'].startswith('PTXPOSE_PTX: ') and src['fast_b32'].endswith('fast_b32.ptx')
   and src.get('fast_b16') == 'built in', "... given to the library as $PTXPOSE_PTX, replacing the built-in ones")
ok(info['library_source'] == 'build folder' and info['version'] == px.version() and 'Plan.execute' in info['timed']
   and info['ptxpose_ptx'] == peers_ptx.ptx_path(files), f"the results say which library and path: {info['library']}")
s, g, ge = VP(), VP(), VP()
cu('cuStreamCreate', ctypes.byref(s), 1)
env.stream = s.value
case = peers_cases.parse_case('67x129:f32')
for label, args in (('ptxpose-heuristic', {}), ('ptxpose-measured', {'mode': 'measure', 'measure_budget_ms': 20}),
                    ('ptxpose:fast_b32', {'kernel': 'fast_b32'})):
    buf = types.SimpleNamespace(x=Arr((67, 129)), y=Arr((129, 67)))
    buf.x.fill(1)
    buf.y.clear()
    chosen = {}
    cands = peers_impls.setup_ptxpose(env, case, buf, label, chosen, **args)
    (lab, fn, note), = cands
    cu('cuStreamBeginCapture_v2', s, 0)
    try:
        fn()
    except px.Error as e:  # on another stream, the capture refuses it
        print(f'# {e}')
        cu('cuStreamEndCapture', s, ctypes.byref(g), check=False)
        ok(False, f"{label}: Plan.execute on the harness's stream, captured")
        continue
    cu('cuStreamEndCapture', s, ctypes.byref(g))
    before = buf.y.elements() != transposed(buf.x)
    cu('cuGraphInstantiateWithFlags', ctypes.byref(ge), g, 0)
    cu('cuGraphLaunch', ge, s)
    cu('cuStreamSynchronize', s)
    ok(lab == label and before and buf.y.elements() == transposed(buf.x),
       f"{label}: Plan.execute on the harness's stream, captured, correct")
    want = 'fast_b32' if 'kernel' in args else chosen.get('kernel')
    ok(chosen.get('kernel') == want and note.startswith(f'{want}: grid ') and note.endswith('through the ptxpose package')
       and (('measured plan' in note) == (args.get('mode') == 'measure')), f'... its note: {note}')
finish()

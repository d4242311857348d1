#!/usr/bin/env python3
# t1019-python-jax-jit: ptxpose.jax without a GPU, on JAX's CPU backend (jax and jaxlib from
# .deps/py, which build.sh installs, or the interpreter's own): the XLA FFI handler is built and
# exports its symbol; jax.jit lowers ptxpose.jax.permute to one custom call "ptxpose_permute"
# with its perm, of the result's shape; NumPy's axes (None reverses, negative ones); the identity
# is x itself; vmap batches the operand (the perm still names the last dims: the handler keeps
# the leading ones in place); grad's backward is the same target with the inverse permutation;
# on a backend without the handler the program fails naming the target. The results on a GPU,
# bit-exact against jnp.transpose, are t1035's.
import ctypes
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, raises, skip_all  # noqa: E402

deps = os.path.join(ROOT, '.deps', 'py')
if os.path.isdir(deps):
    sys.path.append(deps)
os.environ.setdefault('JAX_PLATFORMS', 'cpu')
try:
    import jax  # noqa: E402
    import jax.extend  # noqa: E402
    import jax.numpy as jnp  # noqa: E402
except ImportError as e:
    skip_all(f'jax is not installed ({e}): ./build.sh test puts it in .deps/py')

import ptxpose  # noqa: E402
import ptxpose.jax as pj  # noqa: E402

so = os.path.join(ROOT, 'build', 'libptxpose_xla.so')
ok(pj.handler_path() == so and hasattr(ctypes.CDLL(so), 'ptxpose_xla_permute'),
   'the handler build/libptxpose_xla.so is found beside the library and exports ptxpose_xla_permute')

x = jnp.arange(2 * 3 * 4, dtype=jnp.float32).reshape(2, 3, 4)
text = jax.jit(lambda a: pj.permute(a, (2, 0, 1))).lower(x).as_text()
calls = re.findall(r'stablehlo\.custom_call @ptxpose_permute\(.*', text)
ok(len(calls) == 1 and 'perm = dense<[2, 0, 1]> : tensor<3xi64>' in calls[0] and '-> tensor<4x2x3xf32>' in calls[0],
   'jit: one custom call @ptxpose_permute, perm (2, 0, 1), result 4x2x3', text[-600:])


def ffi_calls(jaxpr):
    """(perm, operand shape, result shape) of every ffi_call of a jaxpr, nested ones included."""
    out = []
    for e in jaxpr.eqns:
        if e.primitive.name == 'ffi_call' and e.params['target_name'] == 'ptxpose_permute':
            out.append((tuple(int(v) for v in dict(e.params['attributes'])['perm'].val),
                        tuple(e.invars[0].aval.shape), tuple(e.outvars[0].aval.shape)))
        for sub in jax.extend.core.jaxprs_in_params(e.params):
            out += ffi_calls(sub)
    return out


for axes, want in ((None, (2, 1, 0)), ((-1, 0, -2), (2, 0, 1)), ((0, 2, 1), (0, 2, 1))):
    got = ffi_calls(jax.make_jaxpr(lambda a: pj.permute(a, axes))(x).jaxpr)
    shape = tuple(x.shape[p] for p in want)
    ok(got == [(want, (2, 3, 4), shape)] and jax.eval_shape(lambda a: pj.permute(a, axes), x).shape == shape,
       f'permute(x, {axes}): perm {want}, shape {shape}', got)
ok(pj.permute(x, (0, 1, 2)) is x and pj.permute(x, (-3, -2, -1)) is x, 'the identity permutation is x itself')
got = ffi_calls(jax.make_jaxpr(lambda a: pj.transpose(a, 0, 2))(x).jaxpr)
ok(got == [((2, 1, 0), (2, 3, 4), (4, 3, 2))], 'transpose(x, 0, 2): perm (2, 1, 0)', got)
got = ffi_calls(jax.make_jaxpr(jax.vmap(lambda a: pj.transpose(a)))(jnp.zeros((5, 3, 4))).jaxpr)
ok(got == [((1, 0), (5, 3, 4), (5, 4, 3))], 'vmap: the operand batched (5, 3, 4), the perm of the last two', got)
got = ffi_calls(jax.make_jaxpr(jax.grad(lambda a: (pj.permute(a, (1, 2, 0)) ** 2).sum()))(x).jaxpr)
ok(got == [((1, 2, 0), (2, 3, 4), (3, 4, 2)), ((2, 0, 1), (3, 4, 2), (2, 3, 4))],
   'grad: the forward (1, 2, 0), the backward its inverse (2, 0, 1) through the same target', got)
raises(lambda: pj.permute(x, (0, 1)), ptxpose.InvalidArgument, r'axes: \(0, 1\) has 2 entries', 'a bad axes, named')
raises(lambda: jax.block_until_ready(jax.jit(lambda a: pj.permute(a, (1, 0, 2)))(x)), Exception,
       'No FFI handler registered for ptxpose_permute', 'on the CPU backend: the program fails naming the target')

# ---- typing: mypy --strict on a user's example, where mypy is installed
try:
    import mypy.api  # noqa: E402
except ImportError:
    print('# SKIP mypy --strict: mypy is not installed here (pip install mypy)')
else:
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        ex = os.path.join(d, 'example.py')
        with open(ex, 'w') as f:
            f.write('from typing import Sequence\n\nimport ptxpose\n\n\nclass A:  # an array of the caller\n'
                    '    __cuda_array_interface__: dict[str, object]\n\n\n'
                    'def f(x: A, p: Sequence[int], s: int) -> A:\n'
                    '    y: A = ptxpose.permute(x, p, stream=s)\n'
                    '    z: A = ptxpose.ascontiguousarray(y)\n'
                    '    return ptxpose.transpose(y, 0, 1, out=z)\n\n\n'
                    'def g(x: A) -> list[str]:\n'
                    '    return [k.name for k in ptxpose.kernels()] + [ptxpose.version(), str(ptxpose.library_path())]\n')
        os.environ['MYPYPATH'] = os.path.join(ROOT, 'python')
        out, err, rc = mypy.api.run(['--strict', '--follow-imports=silent', '--no-incremental', '--cache-dir', os.devnull, ex])
        ok(rc == 0, 'mypy --strict accepts an example of the package\'s calls (its signatures typed)', out + err)
finish()

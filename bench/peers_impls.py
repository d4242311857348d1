"""The implementations bench/peers.py times, each on the same buffers and stream.

Each `setup_*` returns a list of (label, fn, note) candidates, or raises
NotApplicable (the implementation does not do this case: its note says why)
or any other exception (an error, reported for that implementation only).
A list with several candidates is a sweep: the fastest correct one counts.
"""
import inspect


class NotApplicable(Exception):
    """The implementation cannot do this case; str() says why."""


def setup_torch(env, case, buf):
    x, y, p = buf.x, buf.y, buf.perm
    if case.nd:
        return [('torch', lambda: y.copy_(x.permute(p)), f'y.copy_(x.permute({p}))')]
    return [('torch', lambda: y.copy_(x.transpose(-1, -2)), 'y.copy_(x.transpose(-1, -2))')]


def setup_cupy(env, case, buf):
    cp = env.need('cupy')
    if not case.cupy:
        raise NotApplicable(f'CuPy has no {case.torch_dtype}')
    xc, yc, p = cp.asarray(buf.x), cp.asarray(buf.y), buf.perm
    if case.nd:
        return [('cupy', lambda: yc.__setitem__(Ellipsis, xc.transpose(p)), f'y[...] = x.transpose({p})')]
    return [('cupy', lambda: yc.__setitem__(Ellipsis, xc.swapaxes(-1, -2)), 'y[...] = x.swapaxes(-1, -2)')]


def setup_cublas_geam(env, case, buf):
    import peers_cublas
    args, why = peers_cublas.geam_args(case)
    if args is None:
        raise NotApplicable(why)
    if env.cublas is None:  # our own handle, on the one stream, scalars on the host
        try:
            lib = peers_cublas.load_library()
        except OSError as e:
            raise NotApplicable(str(e)) from None
        env.cublas = peers_cublas.Handle(lib, env.stream)
    fn = env.cublas.geam(case, buf.x.data_ptr(), buf.y.data_ptr())
    return [('cublas_geam', fn, f'{case.geam} through ctypes on the bits of {case.dtype} '
             '(finite values: 1*x + 0*y is exact)')]


def setup_triton(env, case, buf):
    if case.nd:
        raise NotApplicable('the Triton peer is a 2-D (batched) transpose kernel')
    env.need('triton')
    import peers_triton
    from peers_gpu import bits
    limit = peers_triton.smem_limit()
    dropped = peers_triton.left_out(case.rows, case.cols, env.quick, case.eb, limit) if limit else []
    extra = f'; left out, too large for shared memory: {", ".join(dropped)}' if dropped else ''
    return [(f'triton {label}', fn, label + extra)
            for label, fn in peers_triton.launchers(bits(buf.x), bits(buf.y), case, env.quick, limit)]


def setup_cutensor(env, case, buf):
    import peers_cutensor
    args, why = peers_cutensor.permute_args(case)
    if args is None:
        raise NotApplicable(why)
    if env.cutensor is None:  # one handle for the run, on the harness's stream
        try:
            env.cutensor = peers_cutensor.Handle(peers_cutensor.load_library())
        except OSError as e:
            raise NotApplicable(str(e)) from None
    try:
        fn = env.cutensor.permute(args, buf.x.data_ptr(), buf.y.data_ptr(), env.stream)
    except peers_cutensor.CutensorError as e:
        if e.status != peers_cutensor.STATUS_NOT_SUPPORTED:
            raise
        raise NotApplicable(str(e)) from None  # cuTENSOR does not do this case
    return [('cutensor', fn, f'cutensorPermute through ctypes, libcutensor {env.cutensor.version}: '
             f'{args.describe(fn.compute)} (alpha 1 on finite values: exact)')]


PTXPOSE_PATH = ("the ptxpose package (python/): Plan(x, y[, mode=... | kernel=...]) made once, then "
                "Plan.execute(x, y, stream) on the harness's stream, captured in its graph")


def setup_ptxpose(env, case, buf, label, chosen, **plan_args):
    """ptxpose through its Python package, as a user calls it: a Plan for the case's buffers
    (the heuristic's, a measured one, or a kernel by name), executed on the harness's stream.
    The kernel the plan chose goes into `chosen`."""
    px = env.need('ptxpose')
    plan = px.Plan(buf.x, buf.y, **plan_args)
    i = plan.info
    chosen['kernel'] = i.kernel
    x, y, stream = buf.x, buf.y, env.stream
    note = f'{i.kernel}: grid {"x".join(map(str, i.grid))} block {"x".join(map(str, i.block))}'
    if plan_args.get('mode') == 'measure':
        note += (f'; measured plan from the cache ({i.timed} timed then)' if i.from_cache else
                 f'; measured plan: {i.timed} candidates timed in {i.measure_ms:.1f} ms')
    return [(label, lambda: plan.execute(x, y, stream), note + '; through the ptxpose package')]


def setup_ptxpose_permute(env, case, buf, label, chosen, **plan_args):
    """ptxpose on an N-d case, once the package has ptxpose.permute: a Plan for the permutation
    where Plan takes perm=, else the one call ptxpose.permute(x, perm, out=, stream=...) (its plan
    cache), on the harness's stream."""
    px = env.need('ptxpose')
    if not hasattr(px, 'permute'):
        raise NotApplicable('ptxpose.permute is not in this build')
    x, y, stream, perm = buf.x, buf.y, env.stream, list(buf.perm)
    if 'perm' in inspect.signature(px.Plan).parameters:
        return setup_ptxpose(env, case, buf, label, chosen, perm=perm, **plan_args)
    if plan_args:
        raise NotApplicable('ptxpose.Plan takes no perm=, so only the one-call ptxpose.permute runs')
    return [(label, lambda: px.permute(x, perm, out=y, stream=stream),
             'ptxpose.permute(x, perm, out, stream) (its plan cache); through the ptxpose package')]


PEERS = (('torch', setup_torch), ('cupy', setup_cupy), ('cublas_geam', setup_cublas_geam),
         ('triton', setup_triton), ('cutensor', setup_cutensor))


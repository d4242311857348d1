"""The implementations bench/peers.py times, each on the same buffers and stream.

Each `setup_*` returns a list of (label, fn, note) candidates, or raises
NotApplicable (the implementation does not do this case: its note says why)
or any other exception (an error, reported for that implementation only).
A list with several candidates is a sweep: the fastest correct one counts.
"""


class NotApplicable(Exception):
    """The implementation cannot do this case; str() says why."""


def setup_torch(env, case, buf):
    x, y = buf.x, buf.y
    return [('torch', lambda: y.copy_(x.transpose(-1, -2)), 'y.copy_(x.transpose(-1, -2))')]


def setup_cupy(env, case, buf):
    cp = env.need('cupy')
    if not case.cupy:
        raise NotApplicable(f'CuPy has no {case.torch_dtype}')
    xc, yc = cp.asarray(buf.x), cp.asarray(buf.y)
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
    env.need('triton')
    import peers_triton
    from peers_gpu import bits
    limit = peers_triton.smem_limit()
    dropped = peers_triton.left_out(case.rows, case.cols, env.quick, case.eb, limit) if limit else []
    extra = f'; left out, too large for shared memory: {", ".join(dropped)}' if dropped else ''
    return [(f'triton {label}', fn, label + extra)
            for label, fn in peers_triton.launchers(bits(buf.x), bits(buf.y), case, env.quick, limit)]


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


PEERS = (('torch', setup_torch), ('cupy', setup_cupy), ('cublas_geam', setup_cublas_geam),
         ('triton', setup_triton))


"""The Triton peer of bench/peers.py: a plain `tl.trans` kernel and its config sweep.

Indexing is in 64 bits, so any shape of kernel ABI v2 works. One matrix
whose grid fits the hardware's limits runs the plain kernel (tl_transpose_2d,
no loops); batches, 16-byte elements and larger grids run tl_transpose. Grid: x covers
the row tiles (at most 2^31-1 blocks, which any rows up to 2^31-1 fit); y and
z are clamped to the hardware's 65535 and the kernel loops over the column
tiles and the matrices a clamped grid leaves out (the loops run once unless a
shape needs more). 16-byte elements move as pairs of int64 (LANES=2).
tl.trans stages the whole BM x BN tile through shared memory, so a config
needs BM*BN*element bytes of it (128x128 of 16-byte elements: 262144 B, over
the 232448 B an H100 or H200 allows): configs that do not fit the device are
left out before launch, and smaller tiles take their place. Imported only
where Triton is installed.
"""
import os
import sys

import triton
import triton.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'python'))
from ptxpose._abi import NAMES as ABI_NAMES  # noqa: E402  the arguments of ptxpose's kernels (loader/abi.h)

try:
    from triton.runtime.errors import OutOfResources
except ImportError:  # an older or a stand-in Triton: no launch is refused this way
    OutOfResources = ()

YZ_MAX = 65535


@triton.jit
def tl_transpose(src, dst, rows, cols, ld_in, ld_out, batch, stride_in, stride_out,
                 BM: tl.constexpr, BN: tl.constexpr, LANES: tl.constexpr):
    rm = tl.program_id(0).to(tl.int64) * BM + tl.arange(0, BM)
    for tn in range(tl.program_id(1), tl.cdiv(cols, BN), tl.num_programs(1)):
        rn = tn.to(tl.int64) * BN + tl.arange(0, BN)
        m = (rm[:, None] < rows) & (rn[None, :] < cols)
        src_off = rm[:, None] * ld_in + rn[None, :]
        dst_off = rn[:, None] * ld_out + rm[None, :]
        for b in range(tl.program_id(2), batch, tl.num_programs(2)):
            s = src + b.to(tl.int64) * stride_in * LANES
            d = dst + b.to(tl.int64) * stride_out * LANES
            if LANES == 1:
                t = tl.load(s + src_off, mask=m)
                tl.store(d + dst_off, tl.trans(t), mask=tl.trans(m))
            else:
                lane = tl.arange(0, LANES)
                t = tl.load(s + src_off[:, :, None] * LANES + lane, mask=m[:, :, None])
                tl.store(d + dst_off[:, :, None] * LANES + lane, tl.permute(t, (1, 0, 2)),
                         mask=tl.trans(m)[:, :, None])


@triton.jit
def tl_transpose_2d(src, dst, rows, cols, ld_in, ld_out, BM: tl.constexpr, BN: tl.constexpr):
    """The plain kernel a user writes for one matrix whose grid fits: no loops."""
    rm = tl.program_id(0).to(tl.int64) * BM + tl.arange(0, BM)
    rn = tl.program_id(1).to(tl.int64) * BN + tl.arange(0, BN)
    m = (rm[:, None] < rows) & (rn[None, :] < cols)
    t = tl.load(src + rm[:, None] * ld_in + rn[None, :], mask=m)
    tl.store(dst + rn[:, None] * ld_out + rm[None, :], tl.trans(t), mask=tl.trans(m))


BASE = ((32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 64, 8), (64, 128, 8), (128, 128, 8))
QUICK = ((64, 64, 4), (128, 128, 8))
SMALLER = ((32, 64, 4), (64, 32, 4), (32, 128, 4), (128, 32, 4))  # in the place of those that do not fit


def smem_bytes(bm, bn, eb):
    """Shared memory a config needs: tl.trans stages the whole tile."""
    return bm * bn * eb


def smem_limit():
    """The device's shared memory per block (opt-in), as Triton checks it; None if unknown."""
    try:
        drv = triton.runtime.driver.active
        return drv.utils.get_device_properties(drv.get_current_device())['max_shared_mem']
    except Exception:
        return None


def configs(rows, cols, quick, eb=4, limit=None):
    """(BM, BN, warps) to sweep: the base tiles (with skinny tiles for a side under 32), those
    that fit `limit` bytes of shared memory at eb bytes an element, as many as the base
    has, smaller tiles taking the place of those left out."""
    p2 = triton.next_power_of_2
    base = list(QUICK if quick else BASE)
    out = base
    if rows < 32 or cols < 32:
        out = []
        for n, w in ((256, 4), (1024, 4), (4096, 8))[:2 if quick else 3]:
            bm = p2(rows) if rows < 32 else max(n // p2(cols), 32)
            bn = p2(cols) if cols < 32 else max(n // bm, 32)
            out.append((bm, bn, w if bm * bn >= 32 * w else 1))
    spare = list(SMALLER) if out is base else []
    out = sorted(set(out), key=out.index)
    if limit is None:
        return out
    return [c for c in out + spare if smem_bytes(c[0], c[1], eb) <= limit][:len(out)]


def left_out(rows, cols, quick, eb, limit):
    """Labels of the configs left out for shared memory, with why (for the note)."""
    kept = set(configs(rows, cols, quick, eb, limit))
    return [f'{bm}x{bn}/w{w} ({smem_bytes(bm, bn, eb)} B of shared memory, over {limit})'
            for bm, bn, w in configs(rows, cols, quick, eb) if (bm, bn, w) not in kept]


def refused_as_not_applicable(fn, label):
    """fn, with Triton's refusal of a config the device cannot hold (OutOfResources, should
    the estimate of smem_bytes fall short) turned into NotApplicable: not a failure."""
    from peers_impls import NotApplicable

    def call():
        try:
            fn()
        except OutOfResources as e:
            raise NotApplicable(f'{label}: {str(e).splitlines()[0] if str(e) else "out of resources"}') from None
    return call


def launchers(x, y, case, quick, limit=None):
    """[(config label, fn)] for the sweep of configs that fit `limit` bytes of shared memory;
    x and y are bit views (int of the element's width, int64 pairs for 16 bytes) of the
    case's strided input and output."""
    lanes = 2 if case.eb == 16 else 1
    out = []
    for bm, bn, w in configs(case.rows, case.cols, quick, case.eb, limit):
        grid = (triton.cdiv(case.rows, bm), min(triton.cdiv(case.cols, bn), YZ_MAX), min(case.batch, YZ_MAX))
        if case.batch == 1 and lanes == 1 and triton.cdiv(case.cols, bn) <= YZ_MAX:
            # one matrix whose grid fits: the plain kernel, without the loops
            # that batches and 16-byte lanes need (they cost it registers)
            args = (x, y) + tuple(getattr(case, n) for n in ABI_NAMES[2:6])  # rows .. ld_out

            def fn(grid=grid, args=args, bm=bm, bn=bn, w=w):
                tl_transpose_2d[grid](*args, BM=bm, BN=bn, num_warps=w)
        else:
            args = (x, y) + tuple(getattr(case, n) for n in ABI_NAMES[2:])

            def fn(grid=grid, args=args, bm=bm, bn=bn, w=w):
                tl_transpose[grid](*args, BM=bm, BN=bn, LANES=lanes, num_warps=w)
        label = f'{bm}x{bn}/w{w}'
        out.append((label, refused_as_not_applicable(fn, label)))
    return out

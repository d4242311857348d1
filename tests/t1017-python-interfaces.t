#!/usr/bin/env python3
# t1017-python-interfaces: a property test of the package's array parsing, on the fake
# driver. Thousands of __cuda_array_interface__ dictionaries and DLPack capsules, made
# from valid layouts of random shapes, strides, widths and offsets inside two pools of
# fake device memory, then broken one or two entries at a time (wrong types, negative,
# huge and past-2^64 values, int and str subclasses, a mapping that is not a dict, an
# interface that raises, one that changes at every read), go through transpose(),
# permute() and Plan. Every call must end one of two ways: a ptxpose.Error with a
# one-line message (never another exception, never the driver's fault), or a result
# equal, byte for byte, to the transposition of what the interface said at its one read,
# with no byte of out's pool written outside out's elements (out is poisoned before
# every call). Each interface is read at most once a call. The seed is fixed (each
# case's seed is printed with its failure); PTXPOSE_FUZZ_SEED picks another.
import collections.abc
import ctypes
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok  # noqa: E402

import fakearrays  # noqa: E402
from fakearrays import U64, Dev, cu  # noqa: E402
import ptxpose  # noqa: E402
from ptxpose._arrays import _DLTensor  # noqa: E402

SEED = int(os.environ.get('PTXPOSE_FUZZ_SEED', '20261207'))
POOL = 1 << 15
XMEM, OMEM = Dev(POOL), Dev(POOL)
_src = random.Random(SEED)
ctypes.memmove(XMEM.ptr, bytes(_src.getrandbits(8) for _ in range(POOL)), POOL)
TYPESTR = {1: '|u1', 2: '<f2', 4: '<f4', 8: '<f8', 16: '<c16'}
POISON = 0xA5


def poison():
    cu('cuMemsetD8_v2', U64(OMEM.ptr), POISON, POOL)  # through the driver: the fake sees a write


def sync():
    cu('cuStreamSynchronize', None)


# ---- layouts: what a valid interface describes, and the reference result

def layout(rng, mem, shape, w, order=None, pad=0):
    """A dict for an array of `shape` in `mem`: its dims laid out in `order` (slowest first),
    rows padded by `pad` elements, at a random element-aligned offset; None if it does not fit."""
    rank = len(shape)
    order = list(range(rank)) if order is None else order
    strides, step = [0] * rank, w
    for k in reversed(order):
        strides[k] = step
        step *= shape[k] + (pad if k == order[-1] else 0)
    span = sum((n - 1) * s for n, s in zip(shape, strides)) + w if all(shape) else 0
    if span > POOL:
        return None
    off = rng.randrange(0, (POOL - span) // w + 1) * w
    if w == 16:
        off -= off % 16
    return dict(shape=tuple(shape), typestr=TYPESTR[w], data=(mem.ptr + off, False),
                strides=tuple(strides), version=3)


def offsets(d, w):
    """Byte offsets from the pointer of every element, in C order (strides None: packed)."""
    shape = d['shape']
    strides = d.get('strides')
    if strides is None:
        strides, step = [], w
        for n in reversed(shape):
            strides.insert(0, step)
            step *= n
    out = [0]
    for n, s in zip(shape, strides):
        out = [o + i * s for o in out for i in range(n)]
    return out


def elements(d, w):
    p = d['data'][0]
    return [ctypes.string_at(p + o, w) for o in offsets(d, w)]


def permuted(dx, w, perm):
    """x's elements in the C order of x.transpose(perm)."""
    e, shape = elements(dx, w), dx['shape']
    idx = {}
    for flat, i in enumerate(_indices(shape)):
        idx[i] = e[flat]
    return [idx[tuple(j[perm.index(k)] for k in range(len(shape)))] for j in _indices(tuple(shape[p] for p in perm))]


def _indices(shape):
    out = [()]
    for n in shape:
        out = [i + (k,) for i in out for k in range(n)]
    return out


def untouched(do, w):
    """out's pool holds POISON everywhere but out's elements."""
    mine = set()
    base = do['data'][0] - OMEM.ptr
    for o in offsets(do, w):
        mine.update(range(base + o, base + o + w))
    data = ctypes.string_at(OMEM.ptr, POOL)
    return all(b == POISON for i, b in enumerate(data) if i not in mine)


# ---- objects that present an interface

class Iface:
    """An object whose __cuda_array_interface__ is the next of `seq` at each read (cycling);
    `reads` counts them."""

    def __init__(self, *seq):
        self.seq, self.reads = seq, 0

    @property
    def __cuda_array_interface__(self):
        d = self.seq[self.reads % len(self.seq)]
        self.reads += 1
        if isinstance(d, BaseException):
            raise d
        return d


def empty(shape, dtype):  # what the package calls (this module's empty) for a result like an Iface
    return fakearrays.Arr(shape, dtype)


class Sly(int):
    """An int whose __index__ says another value than it holds."""

    def __index__(self):
        return int(self) + 1


class Odd(str):
    """A str that equals every str."""

    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class Mapping(collections.abc.Mapping):
    """A read-only mapping (not a dict) over d."""

    def __init__(self, d):
        self.d = d

    def __getitem__(self, k):
        return self.d[k]

    def __iter__(self):
        return iter(self.d)

    def __len__(self):
        return len(self.d)


class Liar(dict):
    """A dict whose [] and get() answer with another layout than it holds."""

    def __init__(self, d, other):
        super().__init__(d)
        self.other = other

    def __getitem__(self, k):
        return self.other[k]

    def get(self, k, default=None):
        return self.other.get(k, default)


# Values an entry may be given, each of which must be refused (where it is read: a v2 array's stream is
# not), but for the harmless ones the mutation itself names.
JUNK = {
    'shape': [None, 4, '4x4', (4.0, 4), (4, -1), (-3, 4), (2**63, 2), (2, 2**64), (2**31, 2**31), [4, 'a'],
              {'a': 1}, (4, None), (True, 4), b'44'],
    'typestr': [None, 5, 'f4', '>f4', '>f8', '<f3', '<V12', '<x4', '', b'<f4', '<f', '<b9', Odd('<u1')],
    'data': [None, 5, (5,), (1, 2, 3), 'ab', (None, False), (-1, False), (2**64, False), (2**64 + 256, False),
             (4.0, False), ('0x10', False), [0, False]],
    'version': [None, '3', 3.0, True, object(), 1.0, b'4', [4], (), -1, 2**64, 2**100, -2**63, Sly(2)],
    'stream': [0, -1, 2**64, 2**100, 'a', 1.5, True, object(), None],
    'mask': [object(), 0, False, ''],
    'strides': [5, 'x', (4,) * 9, ()],
}


def mutate(rng, d, w):
    """d with one or two entries made junk or removed, and whether it must be refused."""
    base, d, refuse = d, dict(d), False
    for _ in range(rng.choice((1, 1, 2))):
        k = rng.choice(sorted(JUNK))
        if rng.random() < 0.1:
            d.pop(k, None)  # strides: packed, harmless; version, stream, mask: harmless
            refuse |= k in ('shape', 'typestr', 'data')
            continue
        if k == 'strides' and rng.random() < 0.7:  # one entry of a dimension of 2 or more elements broken
            big = [i for i, n in enumerate(base['shape']) if n > 1]
            if big:
                s = list(base['strides'])
                s[rng.choice(big)] = rng.choice((-w, 0, 2**63 * w, 2**64, 2**70, 4.5, 'a', None)
                                                + ((w + 1,) if w > 1 else ()))
                d['strides'] = tuple(s)
                refuse = True
                continue
        v = rng.choice(JUNK[k])
        d[k] = v
        harmless = ((k == 'version' and isinstance(v, int) and not isinstance(v, bool)) or (k == 'stream' and v is None)
                    or (k == 'typestr' and v == TYPESTR[1] and w == 1))
        refuse |= not harmless
    return d, refuse


def one_line(e):
    return isinstance(e, ptxpose.Error) and e.message and '\n' not in e.message and len(e.message) < 600


# ---- the property

failures = []
counts = {'exact': 0, 'refused': 0}


def fail(seed, what, diag):
    if len(failures) < 8:
        failures.append(f'case {seed}: {what}: {diag}')


def check_call(seed, call, objs, truth):
    """Run call(); truth() -> (expected elements, out's dict, width), or None where the call must
    be refused. Every Iface is read at most once (call resets the counts where it makes two)."""
    for o in objs:
        if isinstance(o, Iface):
            o.reads = 0
    poison()
    try:
        call()
        sync()
    except ptxpose.CudaError as e:  # the driver saw an access outside memory: the checks let it through
        fail(seed, 'the driver refused a launch the checks passed', e)
        return
    except ptxpose.Error as e:
        if not one_line(e):
            fail(seed, 'a message not of one line', repr(e.message))
        counts['refused'] += 1
        return
    except Exception as e:
        fail(seed, f'{type(e).__name__} (not a ptxpose.Error)', e)
        return
    finally:
        for o in objs:
            if isinstance(o, Iface) and o.reads > 1:
                fail(seed, f'an interface read {o.reads} times in one call', o.seq)
    want = truth()
    if want is None:
        fail(seed, 'accepted, and should not have been', [getattr(o, 'seq', o) for o in objs])
        return
    expect, do, w = want
    if elements(do, w) != expect:
        fail(seed, 'a wrong result', do)
    elif not untouched(do, w):
        fail(seed, "a byte of out's pool written outside out", do)
    else:
        counts['exact'] += 1


def read_of(o):
    """The dict an Iface gave at its last read (a mapping's or a Liar's entries as held)."""
    if not o.reads:
        return None
    d = o.seq[(o.reads - 1) % len(o.seq)]
    return dict(d) if isinstance(d, (Mapping, Liar)) else d


def case(seed):
    rng = random.Random(seed)
    w = rng.choice((1, 2, 4, 8, 16))
    rank = rng.choice((2, 2, 3, 4))
    shape = [rng.choice((1, 2, 3, 5, 8, 13, 17)) for _ in range(rank)]
    perm = list(range(rank))
    if rng.random() < 0.5:
        perm[-1], perm[-2] = perm[-2], perm[-1]
    else:
        rng.shuffle(perm)
    dx = layout(rng, XMEM, shape, w, pad=rng.choice((0, 0, 1, 3)))
    order = list(range(rank))
    if rng.random() < 0.3:
        rng.shuffle(order)
    do = layout(rng, OMEM, [shape[p] for p in perm], w, order, pad=rng.choice((0, 0, 2)))
    if dx is None or do is None:
        return False
    bx, bo, refuse = dx, do, False
    kind = rng.random()
    if kind < 0.5:  # one entry or two broken, on x or on out
        if rng.random() < 0.5:
            bx, refuse = mutate(rng, dx, w)
        else:
            bo, refuse = mutate(rng, do, w)
    elif kind < 0.6:  # wrapped: a mapping, a lying dict, an interface that raises, a list
        wrap = rng.choice(('mapping', 'liar', 'raises', 'list'))
        bx = {'mapping': Mapping(dx), 'liar': Liar(dx, layout(rng, XMEM, [1] * rank, w)),
              'raises': RuntimeError('device lost'), 'list': [dx]}[wrap]
        refuse = wrap in ('raises', 'list')
    x = Iface(bx)
    flips = not refuse and rng.random() < 0.15
    if flips:  # an interface that changes at every read
        x = Iface(bx, layout(rng, XMEM, [2] * rank, w))
    y = Iface(bo)

    def truth():
        rx, ro = read_of(x), read_of(y)
        if refuse or rx is None or ro is None or tuple(rx['shape'][p] for p in perm) != tuple(ro['shape']):
            return None
        return permuted(rx, w, perm), ro, w

    def plan_then_execute():
        p = ptxpose.Plan(x, y)
        x.reads = y.reads = 0
        p.execute(x, y)

    how = rng.random()
    if perm == list(range(rank - 2)) + [rank - 1, rank - 2] and how < 0.5:
        call = (lambda: ptxpose.transpose(x, out=y)) if how < 0.4 or flips else plan_then_execute
    else:
        call = lambda: ptxpose.permute(x, perm, out=y)  # noqa: E731
    check_call(seed, call, (x, y), truth)
    return True


t0 = time.monotonic()
n = sum(case(seed) for seed in range(SEED, SEED + 600))
spent = time.monotonic() - t0
ok(not failures, f'{n} random interfaces through transpose, permute and Plan: {counts["exact"]} exact, '
   f'{counts["refused"]} refused by a one-line ptxpose.Error, none other ({spent:.1f} s)', '\n'.join(failures))
ok(counts['exact'] > 200 and counts['refused'] > 200, '... both outcomes reached often', counts)


# ---- the warm path, poisoned: an interface that says a big layout, then a small one (so that a
# second read after planning would file the big plan under the small layout's key)
failures.clear()
big = layout(random.Random(1), XMEM, (64, 64), 4)
small = dict(big, shape=(4, 4), strides=(16, 4))
obig = layout(random.Random(2), OMEM, (64, 64), 4)
osmall = dict(obig, shape=(4, 4), strides=(16, 4))
for k in range(3):
    for first, second, ofirst in ((big, small, obig), (small, big, osmall)):
        flip, out = Iface(first, second), Iface(ofirst)
        check_call(k, lambda: ptxpose.transpose(flip, out=out), (flip, out),
                   lambda: (permuted(first, 4, [1, 0]), ofirst, 4))
        honest, out = Iface(small), Iface(osmall)
        check_call(10 + k, lambda: ptxpose.transpose(honest, out=out), (honest, out),
                   lambda: (permuted(small, 4, [1, 0]), osmall, 4))
ok(not failures, 'an interface that changes between reads never files a plan under another layout: each call '
   'exact by its one read, and honest 4x4 transposes after it stay exact', '\n'.join(failures))


# ---- DLPack capsules that lie
class _Managed(ctypes.Structure):
    _fields_ = [('dl_tensor', _DLTensor), ('manager_ctx', ctypes.c_void_p), ('deleter', ctypes.c_void_p)]


_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
    ('PyCapsule_New', ctypes.pythonapi))


class DL:
    """A DLPack producer of one capsule, its fields as given."""

    def __init__(self, device, **f):
        self.device, self.f, self.keep = device, f, []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        m = _Managed()
        t, f = m.dl_tensor, self.f
        shape = f.get('shape')
        strides = f.get('strides')
        t.ndim = f.get('ndim', len(shape) if shape is not None else 0)
        if shape is not None:
            arr = (ctypes.c_int64 * max(len(shape), 1))(*shape)
            t.shape = ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64))
            self.keep.append(arr)
        if strides is not None:
            arr = (ctypes.c_int64 * max(len(strides), 1))(*strides)
            t.strides = ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64))
            self.keep.append(arr)
        t.data = f.get('data')
        t.byte_offset = f.get('byte_offset', 0)
        t.device.device_type, t.device.device_id = 2, 0
        t.dtype.code, t.dtype.bits, t.dtype.lanes = f.get('dtype', (2, 32, 1))
        self.keep.append(m)
        return _new(ctypes.addressof(m), b'dltensor', None)


# ---- the reproducers, one by one
from pytap import raises  # noqa: E402

one = Dev(4)
zeros = Iface(dict(shape=(4, 3), typestr='<f4', data=(one.ptr, False), strides=(0, 0), version=3))
x43 = Iface(layout(random.Random(3), XMEM, (3, 4), 4))
raises(lambda: ptxpose.permute(x43, (1, 0), out=zeros), ptxpose.InvalidArgument, r'out: its elements are not distinct',
       'permute: an out of shape (4, 3) with strides (0, 0) over one element is refused by name')
ob = Iface(dict(shape=(2, 4, 3), typestr='<f4', data=(OMEM.ptr, False), strides=(4, 12, 4), version=3))
raises(lambda: ptxpose.transpose(Iface(layout(random.Random(4), XMEM, (2, 3, 4), 4)), out=ob), ptxpose.InvalidArgument,
       r'out: its elements are not distinct: matrices 1 elements apart',
       "transpose: an out whose matrices overlap (batch stride 1 element) is refused by name")
raises(lambda: ptxpose.transpose(x43, out=Iface(dict(layout(random.Random(5), OMEM, (4, 3), 4), typestr=">f4"))),
       ptxpose.Unsupported, r"out: __cuda_array_interface__: typestr '>f4' is big-endian float32",
       'a big-endian out of a little-endian x is refused by name')
raises(lambda: ptxpose.transpose(Iface(dict(shape=(4, 4), typestr='<f4', data=XMEM.ptr, version=3))),
       ptxpose.InvalidType, r'x: __cuda_array_interface__ of __main__.Iface: data \d+ is not \(pointer, read-only\)',
       'a malformed interface (data not a pair) is named')
e = raises(lambda: ptxpose.transpose([[1, 2], [3, 4]]), TypeError, 'builtins.list is not an array',
           'a list is a TypeError')
ok(isinstance(e, ptxpose.InvalidArgument), '... and a ptxpose.Error (InvalidArgument)', type(e).__mro__)
raises(lambda: ptxpose.Plan(x43, kernel='fast\udcff'), ptxpose.InvalidArgument, 'no UTF-8 encoding',
       'a kernel name that cannot be encoded is named')
raises(lambda: ptxpose.permute(Iface(dict(layout(random.Random(6), XMEM, (4, 4), 4), strides=(2**62, 4))), (1, 0),
                               out=Iface(layout(random.Random(7), OMEM, (4, 4), 4))),
       ptxpose.SizeOverflow, r'x: shape \(4, 4\) with strides \(1152921504606846976, 1\) spans \d+ bytes, past 2\^63',
       'a span past 2^63 is named as such, not as an overlap')
raises(lambda: ptxpose.permute(DL((2, 0), shape=None, ndim=2, data=XMEM.ptr), (1, 0)), ptxpose.InvalidArgument,
       'a 2-d tensor with a null shape', 'a DLPack capsule with a NULL shape is named')


failures.clear()
counts.update(exact=0, refused=0)
rng = random.Random(SEED)
dl_cases = 0
for seed in range(300):
    r = random.Random(seed)
    shape = [r.choice((1, 3, 4, 7)) for _ in range(2)]
    f = dict(shape=shape, strides=None, data=XMEM.ptr, dtype=(2, 32, 1))
    k = r.choice(('ndim', 'shape', 'strides', 'data', 'byte_offset', 'dtype', 'device', 'none'))
    device = (2, 0)
    if k == 'ndim':
        f['ndim'] = r.choice((-1, 65, 2**31 - 1, 3))
    elif k == 'shape':
        f['shape'] = r.choice(([-1, 4], [2**62, 4], [0, 4], None, [4, -2**63]))
        if f['shape'] is None:
            f['ndim'] = 2  # a NULL shape with 2 dimensions
    elif k == 'strides':
        f['strides'] = r.choice(([-1, 1], [0, 1], [2**62, 1], [1, 2], [shape[1], 1], [2**63 - 1, 1]))
    elif k == 'data':
        f['data'] = r.choice((None, XMEM.ptr + 1, XMEM.ptr + 2))
    elif k == 'byte_offset':
        f['byte_offset'] = r.choice((2**64 - 4, 2**64 - XMEM.ptr, 8))
    elif k == 'dtype':
        f['dtype'] = r.choice(((2, 12, 1), (2, 0, 1), (9, 32, 1), (2, 32, 0), (2, 32, 4), (2, 32, 5), (5, 128, 1)))
    elif k == 'device':
        device = r.choice(((1, 0), (2, -1), ('a', 0), (2,), None, (2, 2**40)))
    x = DL(device, **f)
    do = layout(r, OMEM, shape[::-1], 4, pad=r.choice((0, 1)))
    y = Iface(do)
    dl_cases += 1

    def truth(f=f, k=k, shape=shape, do=do):
        """The result a valid capsule means; None where it must be refused. Strides: taken as
        given where every dimension of two or more elements has a positive one in range (a
        refusal is fine too: a non-unit fastest stride is not served)."""
        strides = f['strides']
        if k not in ('none', 'strides', 'byte_offset') or (k == 'byte_offset' and f['byte_offset'] != 8):
            return None
        if strides is not None and any(n > 1 and not 0 < st < 2**40 for n, st in zip(shape, strides)):
            return None
        dx = dict(shape=tuple(shape), typestr='<f4', data=(XMEM.ptr + f.get('byte_offset', 0), False),
                  strides=None if strides is None else tuple(4 * st for st in strides), version=3)
        return permuted(dx, 4, [1, 0]), do, 4

    check_call(seed, lambda: ptxpose.permute(x, (1, 0), out=y), (y,), truth)
ok(not failures, f'{dl_cases} DLPack capsules (bad ndim, NULL or negative shapes, strides, pointers, offsets, '
   f'dtypes, devices): {counts["exact"]} exact, {counts["refused"]} refused by a one-line ptxpose.Error',
   '\n'.join(failures))
finish()

"""The GPU side of bench/peers.py: one stream, the buffers of a case, the check, the timing.

Everything runs on one torch stream that CuPy also uses (an ExternalStream on
the same handle), so every implementation is captured in the same kind of
graph. Imported only on a machine with torch and a GPU.
"""
import contextlib
import math
import statistics

import torch

POISON = 0xA5
INT = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def bits(t):
    """A view whose equality is bit equality: ints of the element's width, 16 bytes as two int64."""
    if t.element_size() == 16:
        return torch.view_as_real(t).view(torch.int64)
    return t.view(INT[t.element_size()])


class Buffers:
    """A case's input and output: byte allocations and the strided views into them (the
    case's layout: a 2-D transpose, a batch of them, or an N-d permutation), and the expected
    output, the input permuted by PyTorch on integer views."""

    def __init__(self, case, seed):
        eb = case.eb
        dt = getattr(torch, case.torch_dtype)
        # each buffer to its last row's end, as a padded view of a larger tensor has
        self.xbuf = torch.empty(case.span('in', whole_rows=True) * eb, dtype=torch.uint8, device='cuda')
        self.ybuf = torch.empty(case.span('out', whole_rows=True) * eb, dtype=torch.uint8, device='cuda')
        g = torch.Generator(device='cuda').manual_seed(seed)
        if case.fill_dtype:
            self.xbuf.view(getattr(torch, case.fill_dtype)).normal_(generator=g)
        else:
            self.xbuf.random_(0, 256, generator=g)
        xs, xt, self.perm, ys, yt = case.layout()
        self.x = self.xbuf.view(dt).as_strided(xs, xt, case.offset)
        self.y = self.ybuf.view(dt).as_strided(ys, yt, case.offset)
        # the reference: the input's bits permuted (16-byte elements: the pair of int64 stays last)
        self.ref = bits(self.x).permute(*self.perm, *((len(xs),) if eb == 16 else ())).contiguous()
        n = case.elements * eb
        self.copy_src, self.copy_dst = self.xbuf[:n], self.ybuf[:n]
        self.padded = self.ybuf.numel() > n

    def poison(self):
        self.ybuf.fill_(POISON)

    def verdict(self):
        """None when the output is the transpose and nothing else was written, else why not."""
        got = bits(self.y)
        if not torch.equal(got, self.ref):
            bad = got != self.ref
            if self.y.element_size() == 16:
                bad = bad.any(-1)  # the two int64 halves of one element
            flat = int(bad.reshape(-1).to(torch.uint8).argmax())
            where = []
            for d in reversed(bad.shape):
                where.insert(0, flat % d)
                flat //= d
            return (f'{int(bad.sum())} of {bad.numel()} elements differ, first at output '
                    f'[{", ".join(map(str, where))}]')
        if self.padded:
            self.y.view(torch.uint8).fill_(POISON)
            n = int((self.ybuf != POISON).sum())
            if n:
                return f'{n} bytes written outside the output matrix'
        return None


class Timer:
    """CUDA-graph and back-to-back timing on one stream shared by torch and CuPy."""

    def __init__(self, cupy, replays, target_ms, max_calls):
        self.stream = torch.cuda.Stream()
        self.cp_stream = cupy.cuda.ExternalStream(self.stream.cuda_stream) if cupy else None
        self.replays, self.target_ms, self.max_calls = replays, target_ms, max_calls

    @contextlib.contextmanager
    def _cupy(self):
        if self.cp_stream is None:
            yield
        else:
            with self.cp_stream:
                yield

    @contextlib.contextmanager
    def on_stream(self):
        with torch.cuda.stream(self.stream), self._cupy():
            yield

    def run_once(self, fn):
        with self.on_stream():
            fn()
        self.stream.synchronize()

    def _warm(self, fn):
        self.run_once(fn)
        self.run_once(fn)

    def _median_ms(self, launch, calls, replays):
        ts = []
        with self.on_stream():
            for _ in range(replays):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                launch()
                b.record()
                b.synchronize()
                ts.append(a.elapsed_time(b) / calls)
        return statistics.median(ts)

    def _capture(self, fn, calls):
        """A graph of `calls` calls, captured on our stream (torch.cuda.graph would also
        collect garbage and empty the allocator's cache every time)."""
        g = torch.cuda.CUDAGraph()
        with self.on_stream():
            g.capture_begin()
            try:
                for _ in range(calls):
                    fn()
            except BaseException:
                try:
                    g.capture_end()
                except Exception:
                    pass  # the capture was already invalid; the first exception says why
                raise
            g.capture_end()
        return g

    def _replay_ms(self, g, calls, replays):
        with self.on_stream():
            g.replay()  # warm-up
        self.stream.synchronize()
        return self._median_ms(g.replay, calls, replays)

    def graph_ms(self, fn, calls, replays=None):
        """Median over replays of a graph of `calls` back-to-back calls, per call."""
        self._warm(fn)
        return self._replay_ms(self._capture(fn, calls), calls, replays or self.replays)

    def back_to_back_ms(self, fn, calls):
        """Median over replays of `calls` calls between two events, per call."""
        self._warm(fn)

        def launch():
            for _ in range(calls):
                fn()
        return self._median_ms(launch, calls, self.replays)

    def calls_for(self, fn):
        """K: enough calls that one replay lasts target_ms, at most max_calls."""
        per_call = self.graph_ms(fn, 8, 3)
        return max(1, min(self.max_calls, math.ceil(self.target_ms / max(per_call, 1e-6))))

    def best_ms(self, fn, calls):
        """(ms per call, how): graph-timed, or back-to-back where capture is refused."""
        self._warm(fn)
        try:
            g = self._capture(fn, calls)
        except Exception as e:  # capture refused: say so, time it outside a graph
            torch.cuda.synchronize()
            why = f'{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ""}'
            return (self.back_to_back_ms(fn, calls),
                    f'graph capture refused ({why[:120]}); {calls} back-to-back calls between two events')
        return self._replay_ms(g, calls, self.replays), 'graph'

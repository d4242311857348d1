"""The measuring loop of bench/peers.py: per case, the copy, every peer and every kernel.

One implementation's failure (an exception, a wrong result) is reported with
the case and the implementation and does not stop the others; a lost CUDA
context stops the run with the results so far written.
"""
import datetime
import gc
import json
import os
import platform
import re
import subprocess
import sys
import time
import traceback

import peers_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ContextLost(Exception):
    """The CUDA context is unusable (a sticky error): nothing more can be measured."""


def _out(args, root):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=20, cwd=root)
        return p.stdout if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def ptxpose_commit(root=ROOT):
    """(commit, how it was found) of the tree that is measured: $PTXPOSE_COMMIT where the
    caller states it (bench/gpu-session.sh does, from the carried build/ptxpose: a lent
    machine's copy of the tree may hold a stale git checkout); else `git rev-parse --short
    HEAD`, with "-dirty" where ptx/ or bench/ differ from HEAD (changed or untracked files:
    the kernels timed and the harness that times them); without git, the commit
    build/ptxpose was built from (its --version, "-dirty" kept); else "unknown"."""
    if os.environ.get('PTXPOSE_COMMIT'):
        return os.environ['PTXPOSE_COMMIT'], '$PTXPOSE_COMMIT (set by the caller)'
    head = _out(['git', 'rev-parse', '--short', 'HEAD'], root)
    if head and head.strip():
        changed = _out(['git', 'status', '--porcelain', '--', 'ptx', 'bench'], root)
        if changed is None:
            return f'{head.strip()}-unknown', 'git rev-parse HEAD; git status failed, so ptx/ and bench/ may differ'
        if changed.strip():
            return f'{head.strip()}-dirty', 'git rev-parse HEAD; ptx/ or bench/ differ from it (git status)'
        return head.strip(), 'git rev-parse HEAD; ptx/ and bench/ as committed (git status)'
    line = _out([os.path.join(root, 'build', 'ptxpose'), '--version'], root) or ''
    m = re.search(r'\b[0-9a-f]{7,40}(-dirty)?\b', line)
    if m:
        return m.group(0), f'build/ptxpose --version ({line.strip().splitlines()[0]}); no git checkout'
    return 'unknown', 'none: no $PTXPOSE_COMMIT, no git checkout, no build/ptxpose commit'


def write_json(path, results):
    tmp = f'{path}.tmp.{os.getpid()}'
    with open(tmp, 'w') as f:
        json.dump(results, f, indent=1)
        f.write('\n')
    os.replace(tmp, path)


class Env:
    """What the implementations share: the optional modules, the cuBLAS and cuTENSOR handles
    (peers_cublas, peers_cutensor), the mode."""

    def __init__(self, quick, peers=True):
        self.quick, self.cublas, self.cutensor, self.stream, self.mods, self.missing = quick, None, None, None, {}, {}
        self.peers = peers  # False: the copy and ptxpose's kernels only (model training sweeps)
        self.flat_chunk = {}  # the flat kernels timed by name: their chunks (per_block elements)
        self.kernel_errors = {}  # a kernel whose PTX did not link: its entry, for the other cases
        sys.path.insert(0, os.path.join(ROOT, 'python'))  # the package of this tree, over this tree's build/
        for name in ('cupy', 'triton', 'numpy', 'ptxpose'):
            try:
                self.mods[name] = __import__(name)
            except Exception as e:
                self.missing[name] = f'{type(e).__name__}: {e}'

    def need(self, name):
        from peers_impls import NotApplicable
        if name not in self.mods:
            raise NotApplicable(f'{name} is not installed ({self.missing[name]})')
        return self.mods[name]


def device_info(torch, env):
    p = torch.cuda.get_device_properties(0)
    l2 = getattr(p, 'L2_cache_size', None)
    if l2 is None and 'cupy' in env.mods:
        l2 = env.mods['cupy'].cuda.runtime.getDeviceProperties(0)['l2CacheSize']
    try:
        drv = subprocess.run(['nvidia-smi', '--query-gpu=driver_version', '--format=csv,noheader', '-i', '0'],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        drv = ''
    return {'name': p.name, 'sms': p.multi_processor_count, 'l2_bytes': l2, 'memory_bytes': p.total_memory,
            'cc': f'{p.major}.{p.minor}', 'driver': drv or 'unknown', 'cuda_runtime': torch.version.cuda}


def exc_line(e):
    text = str(e).strip().splitlines()
    return f'{type(e).__name__}: {text[0] if text else ""}'[:300]


class CaseRun:
    """Measures one case: its buffers, its K, an entry per implementation."""

    def __init__(self, torch, timer, env, case, seed):
        import peers_gpu
        self.torch, self.timer, self.env, self.case = torch, timer, env, case
        self.failures = 0
        with timer.on_stream():  # made, used and freed on the one stream
            self.buf = peers_gpu.Buffers(case, seed)
        timer.stream.synchronize()

    def say_failure(self, label, text, exc=None):
        self.failures += 1
        print(f'peers: {self.case.name}: {label}: {text}', flush=True)
        if exc is not None:
            traceback.print_exception(exc, file=sys.stderr)
            sys.stderr.flush()
        try:
            self.torch.cuda.synchronize()
        except Exception as e:
            raise ContextLost(f'{self.case.name}: {label}: {exc_line(e)}') from None

    def entry(self, ms, timing, note):
        return {'status': 'ok', 'us': round(ms * 1000, 3),
                'GBps': round(self.case.moved_bytes / (ms * 1e-3) / 1e9, 1), 'timing': timing, 'note': note}

    def copy(self):
        buf, t = self.buf, self.timer
        fn = lambda: buf.copy_dst.copy_(buf.copy_src)  # noqa: E731
        self.calls = t.calls_for(fn)
        g, b = t.graph_ms(fn, self.calls), t.back_to_back_ms(fn, self.calls)
        return self.entry(min(g, b), 'graph' if g <= b else 'back-to-back',
                          f'faster of graph {g * 1000:.3f} us and back-to-back {b * 1000:.3f} us per copy')

    def attempt(self, name, make):
        """The entry of one implementation: its candidates checked, the correct ones timed, the fastest
        kept, with the wall-clock seconds it all took (compiles included) in `secs`."""
        t0 = time.monotonic()
        entry = self._attempt(name, make)
        entry['secs'] = round(time.monotonic() - t0, 3)
        return entry

    def _attempt(self, name, make):
        from peers_impls import NotApplicable
        try:
            cands = make()
        except NotApplicable as e:
            return {'status': 'n/a', 'note': str(e)}
        except Exception as e:
            self.say_failure(name, exc_line(e), e)
            return {'status': 'error', 'note': exc_line(e)}
        best, problems, skipped = None, [], []
        for label, fn, note in cands:
            tag = '' if label == name else f'{label}: '  # a sweep names the candidate that failed
            try:
                with self.timer.on_stream():
                    self.buf.poison()
                    fn()
                    why = self.buf.verdict()
                if why:
                    problems.append(f'{tag}WRONG: {why}')
                    self.say_failure(label, f'WRONG: {why}')
                    continue
                # K for this implementation: the case's K (from the copy), fewer
                # where its calls are slower, so that a slow one (a kernel made for
                # another shape) costs a replay of target_ms, not K of its calls
                try:
                    calls = min(self.calls, self.timer.calls_for(fn))
                except Exception:  # capture refused: best_ms says so and times it back to back
                    self.torch.cuda.synchronize()
                    calls = self.calls
                ms, how = self.timer.best_ms(fn, calls)
            except ContextLost:
                raise
            except NotApplicable as e:  # a candidate this device cannot run (a Triton tile too large)
                skipped.append(f'n/a: {e}')
                continue
            except Exception as e:
                problems.append(f'{tag}{exc_line(e)}')
                self.say_failure(label, exc_line(e), e)
                continue
            if best is None or ms < best[0]:
                best = (ms, how, note)
        if best is None:
            if not problems:
                return {'status': 'n/a', 'note': '; '.join(skipped)}
            wrong = any('WRONG: ' in p for p in problems)
            return {'status': 'WRONG' if wrong else 'error', 'note': '; '.join(problems + skipped)}
        ms, how, note = best
        if len(cands) > 1:
            note = f'best of {len(cands) - len(skipped)}: {note}'
        if how != 'graph':
            note += f'; {how}'
        return self.entry(ms, 'graph' if how == 'graph' else 'back-to-back', '; '.join([note] + problems + skipped))

    def measure(self, kernels):
        """Every implementation on this case; `kernels`: the ptxpose kernel names per width."""
        import peers_impls
        rec = self.case.record()
        impls = rec['impls'] = {}
        try:
            impls['copy'] = self.copy()
        except Exception as e:
            self.say_failure('copy', exc_line(e), e)
            rec['error'] = f'copy: {exc_line(e)}'
            return rec
        rec['calls'], rec['replays'] = self.calls, self.timer.replays
        env, case, buf = self.env, self.case, self.buf
        for name, setup in peers_impls.PEERS if env.peers else ():
            impls[name] = self.attempt(name, lambda: setup(env, case, buf))
        plans = [('ptxpose-heuristic', {}), ('ptxpose-measured', {'mode': 'measure'})]
        setup = peers_impls.setup_ptxpose_permute if case.nd else peers_impls.setup_ptxpose
        if not case.nd:  # the kernels by name are 2-D ones (kernel ABI v2)
            plans += [(peers_model.KERNEL_PREFIX + k, {'kernel': k}) for k in kernels.get(case.eb, ())]
        for label, args in plans:
            chunk = env.flat_chunk.get(args.get('kernel'))
            if chunk is not None and not flat_ranked(case, chunk):
                impls[label] = {'status': 'n/a', 'note': 'a flat kernel the library does not rank here '
                                '(not packed, or fewer than 2 matrices fill its chunk): not timed'}
                continue
            if args.get('kernel') in env.kernel_errors:  # it did not link in an earlier case: said then
                impls[label] = dict(env.kernel_errors[args['kernel']])
                continue
            chosen = {}
            impls[label] = e = self.attempt(label, lambda: setup(env, case, buf, label, chosen, **args))
            e['path'] = 'package'
            if 'kernel' in args and e['status'] == 'error' and e['note'].startswith(('JitError', 'BadPtx')):
                env.kernel_errors[args['kernel']] = {'status': 'error', 'note': e['note'], 'path': 'package'}
            elif chosen and not label.startswith(peers_model.KERNEL_PREFIX):
                e['kernel'] = chosen['kernel']
        peers_model.fill_derived(impls)
        return rec


def line(rec, seconds):
    """One short line per case for the log."""
    impls = rec['impls']
    if 'error' in rec:
        return f"{rec['case']:>32}  FAILED: {rec['error']}"

    def pct(n):
        e = impls.get(n, {})
        return f"{e['pct_copy']:.1f}" if e.get('status') == 'ok' else e.get('status', '-')
    s = peers_model.summarize(impls)
    ptx = '-'
    if s['name']:
        ratio = f" {s['ratio']:.2f}x" if s['ratio'] else ''
        ptx = f"{pct(s['name'])} {peers_model.kernel_of(s['name'], None)}{ratio}"
    return (f"{rec['case']:>32}  copy {impls['copy']['GBps']:7.1f} GB/s K={rec['calls']:<4} | "
            + ' '.join(f'{n} {pct(n)}' for n in peers_model.PEERS) + f' | ptxpose {ptx} | {seconds:.1f} s')


def ptxpose_kernels(env, files):
    """The kernels timed by name, per element width in bytes: those of the --ptx files (given to
    the library as $PTXPOSE_PTX, before its first handle), else every kernel built into the
    library; and what the results say of the library. Notes the flat kernels' chunks in
    env.flat_chunk. Raises the package's Error."""
    import peers_impls
    import peers_ptx
    px = env.need('ptxpose')
    if files:
        os.environ['PTXPOSE_PTX'] = peers_ptx.ptx_path(files)
    where = px.library_path()
    info = {'version': px.version(), 'library': str(where), 'library_source': where.source,
            'ptxpose_ptx': os.environ.get('PTXPOSE_PTX', ''), 'timed': peers_impls.PTXPOSE_PATH}
    names, flat = {}, {}
    for k in px.kernels():
        if not files or k.name in {f.name for f in files}:
            names.setdefault(k.elem_bytes, []).append(k.name)
            if 'grid=flat' in k.meta.split():
                flat[k.name] = k.per_block
    env.flat_chunk = flat
    return {eb: sorted(n) for eb, n in names.items()}, info


FLAT_MIN = 2  # lib/pick.h's PICK_FLAT_MIN


def flat_ranked(case, chunk):
    """Whether the library ranks a flat kernel of this chunk for the case (lib/pick.c's
    flat_unfit): packed matrices, FLAT_MIN of which fit a chunk. A flat kernel is correct
    on every problem, but where it is not ranked no plan takes it, and timing it by name
    on a large matrix costs seconds a case."""
    rc = case.rows * case.cols
    packed = case.ld_in == case.cols and case.ld_out == case.rows and (
        case.batch <= 1 or (case.stride_in == rc and case.stride_out == rc))
    return packed and rc * FLAT_MIN <= chunk


def note_library(results, info, commit, resumed):
    """Record the library a run timed: `ptxpose` is the first run's; a resumed run whose library
    differs adds its own to `ptxpose_resumed` (with its commit), as its cases carry their commit."""
    if resumed and results.get('ptxpose') and results['ptxpose'] != info:
        later = results.setdefault('ptxpose_resumed', [])
        entry = {**info, 'commit': commit}
        if entry not in later:
            later.append(entry)
    else:
        results['ptxpose'] = info


def run(a, cases, kernels, old, torch, method, fmt):
    import peers_gpu
    env = Env(a.quick, peers=not a.no_peers)
    for name, why in env.missing.items():
        print(f'peers: {name} is not installed ({why}); its implementations are n/a', flush=True)
    dev = device_info(torch, env)
    if old and old.get('device', {}).get('name') != dev['name']:
        print(f"peers.py: --resume: {a.out} was measured on {old.get('device', {}).get('name')}, "
              f"this is {dev['name']}", file=sys.stderr)
        return 2
    if old and old.get('method') != method:
        print(f'peers.py: --resume: {a.out} was measured with another method (replays, target or calls): '
              f"{old.get('method')}", file=sys.stderr)
        return 2
    commit, source = ptxpose_commit()
    results = old or {
        'format': fmt, 'device': dev, 'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        'commit': commit, 'commit_source': source, 'method': method,
        'versions': {'python': platform.python_version(), 'torch': torch.__version__,
                     **{n: getattr(m, '__version__', '?') for n, m in env.mods.items() if n != 'ptxpose'}},
        'args': {'replays': a.replays, 'target_ms': a.target_ms, 'max_calls': a.max_calls, 'quick': a.quick,
                 'no_peers': a.no_peers,
                 'ptx': a.ptx, 'sets': a.set},
        'cases': []}
    print(f"{dev['name']}, {dev['sms']} SMs, L2 {dev['l2_bytes']} bytes, driver {dev['driver']}; "
          f"ptxpose {commit}; {len(cases)} cases, {len(kernels)} --ptx files", flush=True)
    try:
        by_width, info = ptxpose_kernels(env, kernels)
    except Exception as e:
        print(f'peers.py: the ptxpose package cannot run: {exc_line(e)}', file=sys.stderr)
        return 3
    note_library(results, info, commit, bool(old))
    print(f"ptxpose {info['version']}: {info['library']} "
          f"({info['library_source']}), {sum(map(len, by_width.values()))} kernels by name", flush=True)
    failures = 0
    done = {c['case']: c for c in results['cases']}
    timer = peers_gpu.Timer(env.mods.get('cupy'), a.replays, a.target_ms, a.max_calls)
    env.stream = timer.stream.cuda_stream
    for i, case in enumerate(cases):
        if case.name in done:  # measured by an earlier run: only note this run's sets
            kept = done[case.name]
            kept['sets'] += [s for s in case.sets if s not in kept['sets']]
            print(f'{case.name:>32}  (kept from {a.out})', flush=True)
            continue
        t0 = time.time()
        try:
            one = CaseRun(torch, timer, env, case, a.seed + i)
            rec = one.measure(by_width)
            failures += one.failures
        except ContextLost as e:
            print(f'peers: CUDA context lost ({e}); stopping, the results so far are in {a.out}', flush=True)
            return 5
        except Exception as e:  # the buffers could not be made (out of memory, say)
            rec = case.record()
            rec['impls'], rec['error'] = {}, exc_line(e)
            failures += 1
            print(f'peers: {case.name}: {exc_line(e)}', flush=True)
            traceback.print_exception(e, file=sys.stderr)
            try:
                torch.cuda.synchronize()
            except Exception as e2:
                print(f'peers: CUDA context lost ({exc_line(e2)}); stopping', flush=True)
                return 5
        if old:  # a resumed file: each case this run adds says when and from which commit
            rec['commit'] = commit
            rec['date'] = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
        results['cases'].append(rec)
        print(line(rec, time.time() - t0), flush=True)
        one = None
        gc.collect()
        torch.cuda.empty_cache()
        if a.out:
            write_json(a.out, results)
    if env.cublas is not None:
        env.cublas.close()
    if env.cutensor is not None:
        results['versions']['cutensor'] = env.cutensor.version
        env.cutensor.close()
    if a.out:
        write_json(a.out, results)
    print(f'peers: {len(results["cases"])} cases, {failures} failures' + (f' -> {a.out}' if a.out else ''), flush=True)
    return 1 if failures else 0

"""TAP for the Python tests (tests/t08*-bench-*.t, tests/t10*-python-*.t): ok, raises,
skip_all, finish, cuda_torch and gpu_jax (what a GPU test needs, or its skip); scratch and bench_script for the bench and lab scripts' tests. Imported with
tests/lib on sys.path; the package under test is python/ of this tree."""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no __pycache__ left in the tree
sys.path.insert(0, os.path.join(ROOT, 'python'))
n = fails = 0


def ok(cond, desc, diag=''):
    global n, fails
    n += 1
    if not cond:
        fails += 1
    print(f"{'ok' if cond else 'not ok'} {n} - {desc}", flush=True)
    if not cond and diag:
        print(''.join(f'# {line}\n' for line in str(diag).splitlines()), end='', flush=True)
    return cond


def raises(fn, cls, pattern, desc):
    """ok when fn() raises cls whose str() matches pattern; the error is returned."""
    try:
        fn()
    except cls as e:
        ok(re.search(pattern, str(e)) is not None, f'{desc}: {e}', f'want /{pattern}/')
        return e
    except Exception as e:  # the wrong kind of failure
        ok(False, desc, f'{type(e).__name__}: {e}; want {cls.__name__}')
        return None
    ok(False, desc, f'no exception; want {cls.__name__}')
    return None


def skip_all(why):
    print(f'1..0 # SKIP {why}')
    sys.exit(0)


def cuda_torch():
    """torch where it has a CUDA device; else the whole test skips, saying why."""
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError('torch.cuda.is_available() is False')
    except Exception as e:  # noqa: BLE001
        skip_all(f'no CUDA device ({type(e).__name__}: {e})')
    return torch


def gpu_jax(what):
    """jax where it sees a GPU; else None, and a '# SKIP WHAT' line saying why."""
    try:
        import jax
        if not any(d.platform == 'gpu' for d in jax.devices()):
            raise RuntimeError('no GPU device in jax.devices()')
    except Exception as e:  # noqa: BLE001
        print(f'# SKIP {what}: {type(e).__name__}: {e}')
        return None
    return jax


def finish():
    print(f'1..{n}')
    sys.exit(1 if fails else 0)


def scratch(test):
    """A temporary folder for TEST (its name prefixes the folder's), removed when it ends."""
    d = tempfile.mkdtemp(prefix=test + '.')
    atexit.register(shutil.rmtree, d, True)
    return d


def bench_script(name, folder='bench'):
    """run(*args) -> (exit status, stdout, stderr) of `python3 -B FOLDER/NAME ARGS` in the tree
    (bench/ by default; lab/ for the lab's scripts)."""
    def run(*args):
        p = subprocess.run([sys.executable, '-B', os.path.join(ROOT, folder, name), *args],
                           capture_output=True, text=True, cwd=ROOT)
        return p.returncode, p.stdout, p.stderr
    return run

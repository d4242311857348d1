"""TAP for the Python tests (tests/t10*-python-*.t): ok, raises, skip_all, finish.
Imported with tests/lib on sys.path; the package under test is python/ of this tree."""
import os
import re
import sys

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


def finish():
    print(f'1..{n}')
    sys.exit(1 if fails else 0)

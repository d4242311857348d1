"""Measured kernel times for bench/fit_model.py: peers.py results, the older shared
harness's JSON and `ptxpose bench` CSVs, as cases (a problem and its kernels' times)."""
import csv
import json
import lzma
import os

import peers_cases
import peers_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FitError(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code


def shown(path):
    """A path for the file's header: relative to the repository, else the bare name."""
    ap = os.path.abspath(path)
    return os.path.relpath(ap, ROOT) if ap.startswith(ROOT + os.sep) else os.path.basename(ap)


class Case:
    def __init__(self, device, spec, rows, cols, eb, ld_in, ld_out, batch=1, stride_in=0,
                 stride_out=0, offset=0):
        self.device, self.spec = device, spec
        self.rows, self.cols, self.eb = rows, cols, eb
        self.ld_in, self.ld_out, self.batch = ld_in, ld_out, batch
        self.stride_in, self.stride_out, self.offset = stride_in, stride_out, offset
        self.times = {}  # kernel -> us

    def flags(self):
        f = (f'--elem {8 * self.eb} --rows {self.rows} --cols {self.cols} --ld-in {self.ld_in} '
             f'--ld-out {self.ld_out} --offset {self.offset}')
        if self.batch > 1:
            f += f' --batch {self.batch} --stride-in {self.stride_in} --stride-out {self.stride_out}'
        return f


def from_spec(device, spec):
    """The case of a spec, or None for an N-d permutation (the model fits the 2-D kernels)."""
    c = peers_cases.parse_case(spec)
    if c.nd:
        return None
    return Case(device, c.name, c.rows, c.cols, c.eb, c.ld_in, c.ld_out, c.batch,
                c.stride_in if c.batch > 1 else 0, c.stride_out if c.batch > 1 else 0, c.offset)


def load_json(path, d):
    cases = []
    if d.get('format') == 'ptxpose-peers 1':
        dev = d['device']['name']
        for rec in d['cases']:
            c = from_spec(dev, rec['case'])
            if c is None:
                continue
            for name, e in rec['impls'].items():
                if name.startswith('ptxpose:') and e.get('status') == 'ok' and e.get('us'):
                    c.times[name[8:]] = float(e['us'])
            cases.append(c)
        return cases, 'CUDA graphs'
    if isinstance(d.get('cases'), dict) and isinstance(d.get('device'), str):
        for spec, impls in d['cases'].items():
            c = from_spec(d['device'], spec)
            if c is None:
                continue
            for name, e in impls.items():
                if name.startswith('ptxpose:') and isinstance(e, dict) and e.get('us'):
                    c.times[name[8:]] = float(e['us'])
            cases.append(c)
        return cases, 'CUDA graphs'
    raise FitError(f'{path}: not a peers.py results file (format "ptxpose-peers 1") nor the shared harness\'s', 3)


def load_csv(path, text, min_copy_us):
    device = None
    rows = []
    for line in text.splitlines():
        if line.startswith('# device:'):
            device = line.split(':', 1)[1].strip()
        elif line and not line.startswith('#'):
            rows.append(line)
    if device is None or not rows or not rows[0].startswith('variant,elem,rows,cols'):
        raise FitError(f'{path}: not a `ptxpose bench` CSV (no "# device:" line or header)', 3)
    by = {}
    for r in csv.DictReader(rows):
        if r['status'] != 'ok':
            continue
        eb = int(r['elem']) // 8
        key = (eb, int(r['rows']), int(r['cols']), int(r['ld_in']), int(r['ld_out']))
        c = by.get(key)
        if c is None:
            spec = f'{key[1]}x{key[2]}:{peers_cases.BY_WIDTH[eb]}'
            if key[3] != key[2] or key[4] != key[1]:
                spec += f':ld_in={key[3]}:ld_out={key[4]}'
            c = by[key] = Case(device, spec, key[1], key[2], eb, key[3], key[4])
            c.copy = None
        if r['variant'] == 'copy':
            c.copy = float(r['us'])
        elif r['variant'] != 'cublas_geam':
            c.times[r['variant']] = float(r['us'])
    kept = [c for c in by.values() if c.copy is not None and c.copy >= min_copy_us]
    return kept, f'per-call CUDA events, cases with a copy of {min_copy_us:g} us or more'


def load(path, min_copy_us):
    try:
        with peers_model.open_results(path) as f:  # .xz and .gz too
            text = f.read()
    except OSError as e:
        raise FitError(f'{path}: {e.strerror or e}', 3)
    except (EOFError, lzma.LZMAError, UnicodeDecodeError) as e:
        raise FitError(f'{path}: not readable ({e})', 3)
    if path.endswith(('.csv', '.csv.xz', '.csv.gz')):
        return load_csv(path, text, min_copy_us)
    try:
        d = json.loads(text)
    except ValueError as e:
        raise FitError(f'{path}: not JSON ({e})', 3)
    try:
        return load_json(path, d)
    except (KeyError, TypeError, peers_cases.CaseError) as e:
        raise FitError(f'{path}: malformed results ({type(e).__name__}: {e})', 3)

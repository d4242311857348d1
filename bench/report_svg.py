"""The side-by-side chart of bench/report.py: horizontal bars, plain SVG, no plotting library.

One group of bars per case, one bar per column (the same names as the
report's table), each value printed beside its bar. Bars are scaled to the
largest value of the chart (at least 100%), so none is clipped; a value that
is not a number (n/a, WRONG, error) is printed in place of its bar.
Sized to be read at 900 px, the width the README shows it.
"""
from xml.sax.saxutils import escape

WIDTH = 900
LEFT = 190          # case labels
RIGHT = 60          # value labels beside the longest bar
BAR, STEP, GAP = 9, 11, 12
HEAD = 78           # title, legend, axis labels
FOOT = 44           # axis labels, note
COLORS = ('#b2182b', '#ef8a62', '#2166ac', '#762a83', '#1b7837', '#5aae61', '#a6dba0')
TICK = 20


def plot_box():
    """(x, width) of the area bars may occupy."""
    return LEFT, WIDTH - LEFT - RIGHT


def scale_max(rows):
    vals = [v for _, cells, _ in rows for _, v, _ in cells if v is not None]
    top = max([100.0] + vals)
    return TICK * -(-top // TICK)


def _label_lines(name):
    """A case name in at most two lines: shape and type, then the options."""
    parts = name.split(':')
    head, rest = ':'.join(parts[:2]), ':'.join(parts[2:])
    return [head, rest] if rest else [head]


def chart(title, columns, rows, note):
    """rows: [(case name, [(column, value in % or None, text shown when None)], why the case failed or None)];
    returns the SVG text."""
    px, pw = plot_box()
    vmax = scale_max(rows)
    group = len(columns) * STEP + GAP
    height = HEAD + len(rows) * group + FOOT
    x_of = lambda v: px + pw * v / vmax  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="8" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
           f'<rect class="plot" x="{px}" y="{HEAD - 8}" width="{pw}" height="{len(rows) * group}" fill="none"/>']
    lx = 8
    for i, c in enumerate(columns):  # legend: the table's column names
        out.append(f'<rect x="{lx}" y="31" width="10" height="10" fill="{COLORS[i % len(COLORS)]}"/>'
                   f'<text class="legend" x="{lx + 14}" y="40">{escape(c)}</text>')
        lx += 24 + 7 * len(c)
    bottom = HEAD - 8 + len(rows) * group
    for t in range(0, int(vmax) + 1, TICK):
        x = x_of(t)
        dash = ' stroke-dasharray="4 3"' if t == 100 else ''
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{HEAD - 8}" y2="{bottom}" '
                   f'stroke="{"#555" if t == 100 else "#ddd"}"{dash}/>')
        for y in (HEAD - 12, bottom + 13):
            out.append(f'<text x="{x:.1f}" y="{y}" text-anchor="middle" fill="#555">{t}%</text>')
    out.append(f'<text x="{x_of(100) + 3:.1f}" y="{HEAD - 24}" fill="#555">copy</text>')
    y = HEAD - 4
    for name, cells, failed in rows:
        lines = _label_lines(name)
        cy = y + len(columns) * STEP / 2 - 6 * (len(lines) - 1)
        for j, text in enumerate(lines):
            out.append(f'<text class="case" x="{px - 6}" y="{cy + 12 * j + 4:.1f}" text-anchor="end">'
                       f'{escape(text)}</text>')
        if failed:
            out.append(f'<text class="missing" x="{px + 3}" y="{cy + 4:.1f}" fill="#b00">'
                       f'case failed: {escape(failed)}</text>')
        for i, (col, v, text) in enumerate(cells):
            by = y + i * STEP
            if v is None:
                out.append(f'<text class="missing" x="{px + 3}" y="{by + BAR - 1}" font-size="10" '
                           f'fill="{"#b00" if text in ("WRONG", "error") else "#777"}">{escape(col)}: {text}</text>')
                continue
            w = x_of(v) - px
            out.append(f'<rect class="bar" x="{px}" y="{by}" width="{w:.1f}" height="{BAR}" '
                       f'fill="{COLORS[columns.index(col) % len(COLORS)]}"/>'
                       f'<text class="val" x="{px + w + 3:.1f}" y="{by + BAR - 0.5}" font-size="10">{v:.1f}%</text>')
        y += group
    out.append(f'<text x="8" y="{height - 10}" fill="#333">{escape(note)}</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'

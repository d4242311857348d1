#!/usr/bin/env python3
"""The gathering flat kernels (flat_g*) against the other flat kernels, per width.

    python3 lab/flat_gather_table.py RESULTS.json

Reads bench/peers.py results (the `tiny` set with flat kernels timed by name:
`bash bench/gpu-session.sh tinyg`, or any run with peers) and prints, per
element width, over the cases flat_g_b<w> ran: its speed against the faster
of flat_b<w> and flat_s<w> (geometric mean and range), against naive_1d_b<w>
and the best peer where the file has them, the cases where a flat_g kernel
is the best ptxpose kernel timed, and each other flat_g kernel of the width
(unit variants, flat_g4s/g8s) against flat_g_b<w>. Speeds are % of the same
run's copy. Needs no GPU. Exit status: 0, 2 usage, 3 an unreadable input.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'bench'))
from peers_model import KERNEL_PREFIX, PEERS, geomean, open_results  # noqa: E402


def pct(case, name):
    v = case["impls"].get(name)
    return v["pct_copy"] if v and v.get("status") == "ok" and v.get("pct_copy") else None


def spread(xs):
    if not xs:
        return "-"
    return "%.2f (%.2f-%.2f)" % (geomean(xs), min(xs), max(xs))


def width_row(cases, w):
    g = KERNEL_PREFIX + "flat_g_b%d" % w
    mine = [c for c in cases if c["elem_bits"] == w and pct(c, g)]
    flat, naive, peer, best = [], [], [], []
    others = {}
    for c in mine:
        x = pct(c, g)
        f = max(filter(None, (pct(c, KERNEL_PREFIX + "flat_b%d" % w), pct(c, KERNEL_PREFIX + "flat_s_b%d" % w))),
                default=None)
        if f:
            flat.append(x / f)
        n = pct(c, KERNEL_PREFIX + "naive_1d_b%d" % w)
        if n:
            naive.append(x / n)
        p = max(filter(None, (pct(c, k) for k in PEERS)), default=None)
        if p:
            peer.append(x / p)
        timed = [(v["pct_copy"], k[len(KERNEL_PREFIX):]) for k, v in c["impls"].items()
                 if k.startswith(KERNEL_PREFIX) and pct(c, k)]
        top = max(timed)
        if top[1].startswith("flat_g"):
            best.append("%s %s %.0f%%" % (c["case"], top[1], top[0]))
        for k in c["impls"]:
            if k.startswith(KERNEL_PREFIX + "flat_g") and k != g and k.endswith("_b%d" % w) and pct(c, k):
                others.setdefault(k[len(KERNEL_PREFIX):], []).append(pct(c, k) / x)
    return mine, flat, naive, peer, best, others


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: flat_gather_table.py RESULTS.json\n")
        return 2
    try:
        with open_results(argv[1]) as f:
            d = json.load(f)
        cases = [c for c in d["cases"] if "elem_bits" in c and "impls" in c]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write("flat_gather_table.py: %s: %s\n" % (argv[1], e))
        return 3
    print("# flat_g* on %s, %s, ptxpose %s (%% of the copy, ratios: geomean (range))\n"
          % ((d.get("device") or {}).get("name", "?"), d.get("date", "?"), d.get("commit", "?")))
    print("| width | cases | flat_g_b / best of flat_b, flat_s | / naive_1d | / best peer | best kernel on | others / flat_g_b |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    wins = []
    for w in (8, 16, 32, 64, 128):
        mine, flat, naive, peer, best, others = width_row(cases, w)
        if not mine:
            continue
        wins += best
        o = ", ".join("%s %s" % (k, spread(v)) for k, v in sorted(others.items())) or "-"
        print("| %d B | %d | %s | %s | %s | %d | %s |" % (w // 8, len(mine), spread(flat), spread(naive),
                                                        spread(peer), len(best), o))
    print("\nCases a flat_g kernel leads: " + ("; ".join(wins) if wins else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

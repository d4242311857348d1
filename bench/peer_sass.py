#!/usr/bin/env python3
"""The Triton peer's code for one case and config, for comparison with ours:
its PTX, cubin and SASS (cuobjdump), and a launch loop for ncu.

    bench/peer_sass.py --case 8191x8193:f16 --config 64x64/w8 --out DIR
        writes DIR/triton-<case>-<config>.{ptx,cubin,sass}
    bench/peer_sass.py --case 8191x8193:f16 --config 64x64/w8 --launch 5
        launches the kernel 5 times (under ncu: ncu -k regex:tl_transpose ...)

Then, anywhere with ptxas: `ptxpose sass DIR/triton-*.ptx` summarizes it as
it does our kernels. Needs a GPU, torch and triton (the GPU machine's)."""
import argparse
import os
import subprocess
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers_triton import tl_transpose_2d  # noqa: E402

DTYPES = {'u8': torch.uint8, 'i8': torch.int8, 'f16': torch.float16, 'bf16': torch.bfloat16,
          'f32': torch.float32, 'f64': torch.float64}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--case', required=True, help='RxC:dtype, one matrix')
    ap.add_argument('--config', required=True, help='BMxBN/wW, as peers.json names it')
    ap.add_argument('--out', help='folder for the PTX, cubin and SASS')
    ap.add_argument('--launch', type=int, default=0, help='launch the kernel N times')
    a = ap.parse_args()
    shape, dt = a.case.split(':')
    rows, cols = (int(v) for v in shape.split('x'))
    tile, w = a.config.split('/w')
    bm, bn = (int(v) for v in tile.split('x'))
    bits = torch.tensor([], dtype=DTYPES[dt]).element_size() * 8
    view = {8: torch.uint8, 16: torch.int16, 32: torch.int32, 64: torch.int64}[bits]
    x = torch.randint(-2**7, 2**7, (rows, cols), device='cuda', dtype=torch.int16).to(view)
    y = torch.empty((cols, rows), device='cuda', dtype=view)
    grid = (triton.cdiv(rows, bm), triton.cdiv(cols, bn))
    k = tl_transpose_2d[grid](x, y, rows, cols, cols, rows, BM=bm, BN=bn, num_warps=int(w))
    torch.cuda.synchronize()
    if not torch.equal(y, x.t()):
        sys.exit('peer_sass: the Triton kernel transposed wrongly')
    for _ in range(a.launch):
        tl_transpose_2d[grid](x, y, rows, cols, cols, rows, BM=bm, BN=bn, num_warps=int(w))
    torch.cuda.synchronize()
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        stem = os.path.join(a.out, f'triton-{shape}-{dt}-{bm}x{bn}w{w}')
        cubin = stem + '.cubin.tmp'
        with open(cubin, 'wb') as f:
            f.write(k.asm['cubin'])
        sass = subprocess.run(['cuobjdump', '-sass', cubin], capture_output=True, text=True)
        if sass.returncode != 0 or not sass.stdout:
            os.unlink(cubin)
            first = (sass.stderr or 'no output').strip().splitlines()
            sys.exit(f'peer_sass: cuobjdump -sass failed (exit {sass.returncode}): {first[0] if first else ""}')
        # all three or none: each written whole under a temporary name, then renamed
        for ext, text in (('.ptx', k.asm['ptx']), ('.sass', sass.stdout)):
            with open(stem + ext + '.tmp', 'w') as f:
                f.write(text)
        for ext in ('.ptx', '.cubin', '.sass'):
            os.replace(stem + ext + '.tmp', stem + ext)
        print(f'peer_sass: {stem}.{{ptx,cubin,sass}}; registers {k.n_regs}, shared {k.metadata.shared} B')

if __name__ == '__main__':
    main()

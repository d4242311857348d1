#!/bin/sh
# On a CUDA GPU: every committed kernel, bit-exact, on the shapes that kernel
# ABI v2 exists for. 4194304x3 has 131072 tile rows of 32 (more than the
# 65535 blocks a grid has along y), 3x4194304 as many tile columns,
# 2200000x1 a column, 40000000x8 of 16-byte elements 5 GB a side,
# 46341x46341 bytes over 2^31 elements (offsets past 32 bits); batches:
# 70001 one-row matrices and 10^6 3x3 ones (more than 65535 blocks along z),
# a batch of one whose strides must be ignored, and 3 matrices with gaps
# off alignment. Then a few of them again on a grid capped by
# PTXPOSE_GRID_MAX, so that every block walks. Without a device:
# `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
# The plain build: ASan's shadow memory and the CUDA driver do not mix.
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
need_ptx ptx/*.ptx

SHAPES="4194304x3,3x4194304,2200000x1,40000000x8:elem=128,46341x46341:elem=8"
SHAPES="$SHAPES,1x777:batch=70001,3x3:batch=1000000,1000x999:batch=1:stride_in=5:stride_out=7"
SHAPES="$SHAPES,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1"
$PX check --shapes "$SHAPES" ptx/*.ptx >"$tmp/tap" 2>"$tmp/err"
rc=$?
passthrough "$tmp/tap"
[ $rc -eq 0 ] && ok "check: the large and batched shapes, exit 0" || { nok "check: exit $rc"; diag <"$tmp/err"; }

PTXPOSE_GRID_MAX=7x5x3 $PX check --shapes 4097x4095:ld_in=4100:offset=1,67x129:batch=9:stride_in=9000:stride_out=9100 \
	ptx/*.ptx >"$tmp/tap" 2>"$tmp/err"
rc=$?
passthrough "$tmp/tap"
[ $rc -eq 0 ] && ok "check on a grid capped at 7x5x3: exit 0" || { nok "check capped: exit $rc"; diag <"$tmp/err"; }
finish

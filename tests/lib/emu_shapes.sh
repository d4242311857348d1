# The shapes of the emulation tests, written once: tests/t0711 and t0713
# emulate every kernel on them, bench/emu_speed.sh times that work.
# Sourced (sh).

# t0711: batches with gaps between the matrices (kernel ABI v2)
EMU_BATCH_SHAPES="33x31:batch=3:stride_in=1100:stride_out=1200,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1"
EMU_BATCH_SHAPES="$EMU_BATCH_SHAPES,1x7:batch=1000,3x3:batch=5:offset=3,67x129:ld_in=132:ld_out=72:batch=2:stride_in=9001:stride_out=9402"

# t0713: the small-dimension family, both ways, then each in its direction
EMU_SKINNY_SHAPES="1x5000,5000x1,3x1000,1000x3,7x999,64x2000,2000x64"
EMU_SKINNY_WIDE="3x9000,3x9000:offset=1,7x5001:ld_in=5003:ld_out=9:offset=2,33x5000"
EMU_SKINNY_TALL="9000x3,9000x3:offset=3,5001x7:ld_in=9:ld_out=5003:offset=1,5000x33"
# the packed skinny kernels' packed path (K a multiple of 4, every line equally
# misaligned: aligned, an offset pointer, batches), then where it falls back
# (odd K, a leading dimension that misaligns the lines one by one)
EMU_SKINNY_PACK_WIDE="24x4096,24x4096:offset=1,36x2048:batch=3,40x4100:offset=3,17x4096,20x4000:ld_in=4001"
EMU_SKINNY_PACK_TALL="4096x24,4096x24:offset=3,2048x36:batch=3,4100x40:offset=1,4096x17,4000x20:ld_out=4001"

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
# t0724: the register skinny kernels (skinny_*_reg_*): K x N (wide) and N x K
# (tall) for K = 1 .. 64 (K x es a multiple of 4 takes the register path:
# runs whole, in 8-byte halves (such as 24 bytes) or words (20 bytes); past
# 16, 32 or 64 more tiles; odd K the element path) and N = 1, 33, 1000, 4097 (the
# last tile of the long side the element path); then the register path's
# cases: batches, leading dimensions past the extent (a run side only
# word-aligned: words), an offset pointer (the element path), 64 x 8192
EMU_SKINNY_REG_WIDE="" EMU_SKINNY_REG_TALL=""
for emu_k in 1 4 6 7 8 9 12 16 17 18 20 24 31 32 33 48 64; do
	for emu_n in 1 33 1000 4097; do
		EMU_SKINNY_REG_WIDE="$EMU_SKINNY_REG_WIDE${emu_k}x$emu_n,"
		EMU_SKINNY_REG_TALL="$EMU_SKINNY_REG_TALL${emu_n}x$emu_k,"
	done
done
EMU_SKINNY_REG_WIDE="${EMU_SKINNY_REG_WIDE}24x4096:batch=3,32x2048:ld_in=2064:ld_out=48,20x4096:offset=1,16x4096:ld_out=20"
EMU_SKINNY_REG_WIDE="$EMU_SKINNY_REG_WIDE,40x4096:ld_in=4112,12x4096:batch=2:stride_in=50000:stride_out=50004,64x8192"
EMU_SKINNY_REG_TALL="${EMU_SKINNY_REG_TALL}4096x24:batch=3,2048x32:ld_in=48:ld_out=2064,4096x20:offset=1,4096x16:ld_in=20"
EMU_SKINNY_REG_TALL="$EMU_SKINNY_REG_TALL,4096x40:ld_out=4112,4096x12:batch=2:stride_in=50004:stride_out=50000,8192x64"

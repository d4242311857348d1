# fakecuda.sh: build the fake driver and cuBLAS (tests/fakecuda) into $tmp
# and put them first on LD_LIBRARY_PATH; sourced after tap.sh. Fails out
# loud (and finishes) when they cannot be built.
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -shared -fPIC -fvisibility=hidden -I/usr/local/cuda/include"
if ! cc $cflags tests/fakecuda/libcuda.c -o "$tmp/libcuda.so.1" 2>"$tmp/err" ||
	! cc $cflags tests/fakecuda/libcublas.c -o "$tmp/libcublas.so.13" -ldl 2>>"$tmp/err"; then
	nok "cannot build the fake driver"
	diag <"$tmp/err"
	finish
fi
export LD_LIBRARY_PATH="$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset PTXPOSE_LIBCUDA

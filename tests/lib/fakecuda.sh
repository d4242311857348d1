# fakecuda.sh: put the fake driver and cuBLAS (tests/fakecuda, built by ninja
# into build/fakecuda) first on LD_LIBRARY_PATH; sourced after tap.sh. Fails
# out loud (and finishes) when they are not built.
fakes=build/fakecuda
if [ ! -f "$fakes/libcuda.so.1" ] || [ ! -f "$fakes/libcublas.so.13" ]; then
	nok "the fake driver is not built ($fakes/libcuda.so.1, $fakes/libcublas.so.13): run ninja"
	finish
fi
export LD_LIBRARY_PATH="$PWD/$fakes${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset PTXPOSE_LIBCUDA FAKECUDA_NAME FAKECUDA_FAIL FAKECUDA_HICCUP FAKECUDA_LAUNCH_US FAKECUDA_COPY_NODE_GBPS FAKECUBLAS_ALLOC

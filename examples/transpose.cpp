// transpose.cpp: examples/transpose.c in C++: plan once, execute on a
// stream of the program's own, copy back, check; the library's handle,
// plan and the device buffers owned by std::unique_ptr.
//
//   c++ transpose.cpp -I/usr/local/cuda/include $(pkg-config --cflags --libs ptxpose) -o transpose
//
// It links nothing but ptxpose (include/ptxpose.h is extern "C"); the
// driver's functions come from the driver the library opened. Exit status
// as transpose.c's: 0 bit-exact; the ptxpose_status of a failed call (4
// without a driver); 90 a driver call failed; 91 a wrong result.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include <ptxpose.h>

namespace {

struct failure {
	int code;
};

void check(ptxpose_status st, const char *call)
{
	if (st != PTXPOSE_OK) {
		std::fprintf(stderr, "transpose: %s: %s (%s)\n", call, ptxpose_last_error(), ptxpose_status_string(st));
		throw failure{static_cast<int>(st)};
	}
}

void check(CUresult rc, const char *call)
{
	if (rc != CUDA_SUCCESS) {
		std::fprintf(stderr, "transpose: %s: CUresult %d\n", call, static_cast<int>(rc));
		throw failure{90};
	}
}

// A driver function from the library's driver, typed as cuda.h declares it.
template <typename F> F driver(const char *name)
{
	void *fn = nullptr;
	check(ptxpose_driver_symbol(name, &fn), "ptxpose_driver_symbol");
	return reinterpret_cast<F>(fn);
}

struct handle_del {
	void operator()(ptxpose_handle h) const { ptxpose_destroy(h); }
};
struct plan_del {
	void operator()(ptxpose_plan p) const { ptxpose_plan_destroy(p); }
};
using handle_ptr = std::unique_ptr<ptxpose_handle_s, handle_del>;
using plan_ptr = std::unique_ptr<ptxpose_plan_s, plan_del>;

int run()
{
	const std::uint64_t rows = 777, cols = 1025;
	std::vector<double> in(rows * cols), out(rows * cols);
	for (std::size_t k = 0; k < in.size(); k++)
		in[k] = 1.0 / double(k + 1);

	ptxpose_handle raw_h = nullptr;
	check(ptxpose_create(&raw_h, 0), "ptxpose_create");
	handle_ptr h(raw_h);

	auto mem_alloc = driver<CUresult (*)(CUdeviceptr *, std::size_t)>("cuMemAlloc_v2");
	auto mem_free = driver<CUresult (*)(CUdeviceptr)>("cuMemFree_v2");
	auto htod = driver<CUresult (*)(CUdeviceptr, const void *, std::size_t)>("cuMemcpyHtoD_v2");
	auto dtoh = driver<CUresult (*)(void *, CUdeviceptr, std::size_t)>("cuMemcpyDtoH_v2");
	auto stream_create = driver<CUresult (*)(CUstream *, unsigned)>("cuStreamCreate");
	auto stream_sync = driver<CUresult (*)(CUstream)>("cuStreamSynchronize");
	auto stream_destroy = driver<CUresult (*)(CUstream)>("cuStreamDestroy_v2");

	const std::size_t bytes = in.size() * sizeof(double);
	auto buffer = [&](const char *what) {
		CUdeviceptr p = 0;
		check(mem_alloc(&p, bytes), what);
		return std::unique_ptr<void, std::function<void(void *)>>(
			reinterpret_cast<void *>(p), [=](void *q) { mem_free(reinterpret_cast<CUdeviceptr>(q)); });
	};
	auto d_in = buffer("cuMemAlloc"), d_out = buffer("cuMemAlloc");
	CUstream stream = nullptr;
	check(stream_create(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
	std::unique_ptr<CUstream_st, std::function<void(CUstream)>> own_stream(stream, stream_destroy);
	check(htod(reinterpret_cast<CUdeviceptr>(d_in.get()), in.data(), bytes), "cuMemcpyHtoD");

	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = sizeof(double);
	d.rows = rows;
	d.cols = cols;
	ptxpose_plan raw_p = nullptr;
	check(ptxpose_plan_create(h.get(), &raw_p, &d), "ptxpose_plan_create");
	plan_ptr plan(raw_p);

	check(ptxpose_execute(plan.get(), d_in.get(), d_out.get(), stream), "ptxpose_execute");
	check(stream_sync(stream), "cuStreamSynchronize");
	check(dtoh(out.data(), reinterpret_cast<CUdeviceptr>(d_out.get()), bytes), "cuMemcpyDtoH");

	std::size_t wrong = 0;
	for (std::uint64_t i = 0; i < rows; i++)
		for (std::uint64_t j = 0; j < cols; j++)
			wrong += std::memcmp(&out[j * rows + i], &in[i * cols + j], sizeof(double)) != 0;
	ptxpose_plan_info info;
	ptxpose_device_info dev;
	ptxpose_plan_get(plan.get(), &info);
	ptxpose_device_get(h.get(), &dev);
	std::printf("transpose: %llux%llu doubles by %s on %s: %s\n", static_cast<unsigned long long>(rows),
		    static_cast<unsigned long long>(cols), info.kernel, dev.name, wrong ? "WRONG" : "bit-exact");
	return wrong ? 91 : 0;
}

} // namespace

int main()
{
	try {
		return run();
	} catch (const failure &f) {
		return f.code;
	}
}

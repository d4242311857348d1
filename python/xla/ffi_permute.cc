// ffi_permute: the XLA FFI handler that runs ptxpose_permute inside a jitted JAX program
// (ptxpose/jax.py registers it as the custom call target "ptxpose_permute", platform CUDA).
//
// One argument (a dense row-major buffer of rank 1 to 8), one result, one attribute: `perm`
// (int64s, a permutation of 0..len(perm)-1). The argument may have more dimensions than perm
// names: the leading ones are a batch that stays in place (what vmap adds). The permutation
// is enqueued on XLA's CUDA stream for the call, from the FFI context; no synchronization.
// A library handle is made once per CUDA context (the one current when XLA calls), and the
// library's plan cache makes each problem's plan once. Built by configure.py's rule against
// jaxlib's FFI headers (jax.ffi.include_dir()) and the library, as build/libptxpose_xla.so.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "include/ptxpose.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

constexpr int kContexts = 64;  // CUDA contexts a process calls the handler from: one a device

std::mutex handles_lock;
void *contexts[kContexts];
ptxpose_handle handles[kContexts];
int handle_count;

using CtxGetCurrent = int (*)(void **);

// The handle of the calling thread's current context, made on first use; nullptr with a message.
ptxpose_handle handle_for_current(std::string *why)
{
	static CtxGetCurrent get_current;
	std::lock_guard<std::mutex> hold(handles_lock);
	if (!get_current) {
		void *fn = nullptr;
		if (ptxpose_driver_symbol("cuCtxGetCurrent", &fn) || !fn) {
			*why = std::string("ptxpose_permute: ") + ptxpose_last_error();
			return nullptr;
		}
		get_current = reinterpret_cast<CtxGetCurrent>(fn);
	}
	void *ctx = nullptr;
	if (get_current(&ctx) || !ctx) {
		*why = "ptxpose_permute: no current CUDA context on XLA's thread";
		return nullptr;
	}
	for (int i = 0; i < handle_count; i++)
		if (contexts[i] == ctx)
			return handles[i];
	if (handle_count == kContexts) {
		*why = "ptxpose_permute: more than 64 CUDA contexts";
		return nullptr;
	}
	ptxpose_handle h = nullptr;
	if (ptxpose_create(&h, 0)) {
		*why = std::string("ptxpose_permute: ") + ptxpose_last_error();
		return nullptr;
	}
	contexts[handle_count] = ctx, handles[handle_count++] = h;
	return h;
}

ffi::Error permute(struct CUstream_st *stream, ffi::AnyBuffer x, ffi::Result<ffi::AnyBuffer> y,
		   ffi::Span<const int64_t> perm)
{
	auto dims = x.dimensions();
	size_t rank = dims.size(), n = perm.size(), batch = rank - n;
	if (n == 0 || rank > PTXPOSE_MAX_RANK || n > rank)
		return ffi::Error::InvalidArgument("ptxpose_permute: a rank-" + std::to_string(rank) +
						   " argument with a perm of " + std::to_string(n) +
						   " entries (1 to 8 dimensions, perm naming the last ones)");
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = static_cast<uint32_t>(ffi::ByteWidth(x.element_type()));
	d.rank = static_cast<uint32_t>(rank);
	bool seen[PTXPOSE_MAX_RANK] = {false};
	for (size_t k = 0; k < rank; k++) {
		if (dims[k] == 0)
			return ffi::Error::Success();  // no element: nothing to move
		d.extents[k] = static_cast<uint64_t>(dims[k]);
		int64_t p = k < batch ? static_cast<int64_t>(k) : perm[k - batch] + static_cast<int64_t>(batch);
		if (p < static_cast<int64_t>(batch) || p >= static_cast<int64_t>(rank) || seen[p])
			return ffi::Error::InvalidArgument("ptxpose_permute: perm is not a permutation of 0 to " +
							   std::to_string(n - 1));
		seen[p] = true;
		d.perm[k] = static_cast<uint32_t>(p);
	}
	auto out = y->dimensions();
	for (size_t k = 0; k < rank; k++)
		if (out.size() != rank || out[k] != dims[d.perm[k]])
			return ffi::Error::InvalidArgument("ptxpose_permute: the result's shape is not the argument's "
							   "permuted");
	std::string why;
	ptxpose_handle h = handle_for_current(&why);
	if (!h)
		return ffi::Error::Internal(why);
	if (ptxpose_permute(h, &d, x.untyped_data(), y->untyped_data(), stream))
		return ffi::Error::Internal(std::string("ptxpose_permute: ") + ptxpose_last_error());
	return ffi::Error::Success();
}

}  // namespace

// the one symbol the shared object exports (built with hidden visibility): what jax.ffi.pycapsule wraps
extern "C" __attribute__((visibility("default"))) XLA_FFI_Error *ptxpose_xla_permute(XLA_FFI_CallFrame *call);

XLA_FFI_DEFINE_HANDLER_SYMBOL(ptxpose_xla_permute, permute,
			      ffi::Ffi::Bind()
				      .Ctx<ffi::PlatformStream<struct CUstream_st *>>()
				      .Arg<ffi::AnyBuffer>()
				      .Ret<ffi::AnyBuffer>()
				      .Attr<ffi::Span<const int64_t>>("perm"));

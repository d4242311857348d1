/* fake.h: what the fake driver's two files share (tests/fakecuda/). libcuda.c
 * holds init, devices, memory, the JIT and kernels; stream.c holds streams,
 * capture, graphs, events and the model clock. */
#ifndef FAKECUDA_FAKE_H
#define FAKECUDA_FAKE_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* Every entry point runs under one recursive lock (fake_lock.c's), so that
 * a program's threads may call the fake at once (the library's thread-safety
 * test): FAKE_LOCKED; as the first statement of an exported function. */
void fake_lock(void);
void fake_unlock_at(int *unused);
#define FAKE_LOCKED int fake_locked_ __attribute__((cleanup(fake_unlock_at), unused)) = (fake_lock(), 0)

/* ---- libcuda.c ---- */

/* The context current on the calling thread (NULL: none). */
CUcontext fake_current(void);

/* Initialized, a current context, no sticky error: CUDA_SUCCESS, else why not. */
CUresult fake_ready(void);
/* 1 when [p, p+bytes) lies inside one device allocation. */
int fake_mapped(CUdeviceptr p, size_t bytes);
/* A sticky CUDA_ERROR_ILLEGAL_ADDRESS, reported by the next call. */
void fake_fault(void);

/* A kernel launch, decoded from cuLaunchKernel's arguments per the kernel
 * ABI; a graph keeps it whole. Zeroed before it is filled: launches compare
 * with memcmp. */
typedef struct {
	void *module;          /* the module of the CUfunction */
	unsigned grid[3], block[3], smem;
	CUdeviceptr in, out;
	uint32_t rows, cols, batch;
	uint64_t ld_in, ld_out, stride_in, stride_out;
	int v3;                /* kernel ABI v3 or v4: the batch's dimensions in bdims */
	uint8_t bdims[192];
	int v4;                /* kernel ABI v4 (the pack family): the tile's dimensions in tdims */
	uint8_t tdims[224];
} fake_launch;

/* Check the launch's buffers (a fault when out of range), transpose on the
 * CPU when `work` (a repeat of the same launch may skip it), and return the
 * microseconds the model gives the kernel's memory traffic; -1 after a fault. */
double fake_launch_run(const fake_launch *l, int work);

/* ---- stream.c ---- */

/* Read the model's environment (cuInit) and forget every stream, graph and
 * event handle's work on a context reset. */
void fake_stream_init(void);
void fake_stream_reset(void);

/* The model clock: overhead_us + bytes at gbps GB/s. */
void fake_advance(double overhead_us, double bytes, double gbps);
/* The launch overhead outside a graph (FAKECUDA_LAUNCH_US, default 2 us). */
double fake_launch_us(void);

/* Device memory was written by something that is not a repeatable call
 * (an upload, a memset): the next call does its work even if it repeats. */
void fake_forget(void);

/* A call that is unsafe while a stream is being captured (an allocation, a
 * context-wide synchronization, the legacy stream): CUDA_SUCCESS when no
 * capture is under way, else `code`, and every capture is invalidated. */
CUresult fake_unsafe_in_capture(CUresult code);

/* A kernel launch on stream s: recorded into the capture when s is being
 * captured, else run now. */
CUresult fake_submit_launch(CUstream s, const fake_launch *l);

#endif

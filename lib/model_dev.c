/* model_dev: the built-in device descriptions, for planning without a GPU.
 * The library passes the real device's properties instead. */
#include "lib/model.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* From NVIDIA's Hopper tuning guide and data sheets: 228 KB of shared
 * memory per SM (1 KB of it reserved per block), 64K registers, 2048
 * threads and 32 blocks per SM; bandwidth = memory clock x bus width x 2. */
static const struct {
	const char *id;
	model_device d;
} builtin[] = {
	{"h100", {"NVIDIA H100 80GB HBM3", 9, 0, 132, 50u << 20, 233472, 1024, 65536, 2048, 32, 3352.3}},
	{"h200", {"NVIDIA H200", 9, 0, 132, 60u << 20, 233472, 1024, 65536, 2048, 32, 4800.0}},
};
#define NBUILTIN (sizeof builtin / sizeof builtin[0])

int model_device_builtin(const char *name, model_device *d, char *err, size_t errlen)
{
	for (size_t i = 0; i < NBUILTIN; i++)
		if (!strcasecmp(name, builtin[i].id) || !strcasecmp(name, builtin[i].d.name)) {
			*d = builtin[i].d;
			return 0;
		}
	snprintf(err, errlen, "unknown device '%s' (built in: h100 \"%s\", h200 \"%s\")", name,
		 builtin[0].d.name, builtin[1].d.name);
	return -1;
}

int model_device_check(const model_device *d, char *err, size_t errlen)
{
	const char *bad = !d->sm_count ? "sm_count" : !d->threads_per_sm ? "threads_per_sm"
		: !d->blocks_per_sm ? "blocks_per_sm" : !d->regs_per_sm ? "regs_per_sm"
		: !d->smem_per_sm ? "smem_per_sm" : !(d->bw_gbps > 0) ? "bandwidth" : NULL;
	if (bad) {
		snprintf(err, errlen, "device %s: %s must be positive", d->name, bad);
		return -1;
	}
	return 0;
}

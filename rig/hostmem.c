/* hostmem: what this machine's memory can spare, asked before every host
 * buffer the rig or the emulator path allocates (rig_host_fits). */
#include "rig/rig.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* A number from a one-line file such as /sys/fs/cgroup/memory.max, or
 * UINT64_MAX ("max", no file). */
static uint64_t file_num(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v;
	int got = f && fscanf(f, "%llu", &v) == 1;
	if (f)
		fclose(f);
	return got ? v : UINT64_MAX;
}

/* MemAvailable from /proc/meminfo, else the physical memory; UINT64_MAX when unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kb;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1 && kb < UINT64_MAX / 1024) {
			fclose(f);
			return kb * 1024;
		}
	if (f)
		fclose(f);
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

/* What is left of a limit that `used` bytes already take from it. */
static uint64_t left(uint64_t limit, uint64_t used)
{
	return limit == UINT64_MAX ? UINT64_MAX : limit > used ? limit - used : 0;
}

/* The host memory the machine can spare: the least of what is available,
 * what this cgroup's limit leaves and what the address-space and data limits
 * (ulimit -v, -d) leave; `from` says which. UINT64_MAX when nothing is known. */
static uint64_t host_avail(const char **from)
{
	struct {
		uint64_t bytes;
		const char *what;
	} b[5] = {
		{mem_available(), "available on this machine"},
		{left(file_num("/sys/fs/cgroup/memory.max"), file_num("/sys/fs/cgroup/memory.current")),
		 "this cgroup's memory limit leaves"},
		{left(file_num("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
		      file_num("/sys/fs/cgroup/memory/memory.usage_in_bytes")), "this cgroup's memory limit leaves"},
	};
	struct rlimit rl;
	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
		long page = sysconf(_SC_PAGE_SIZE);
		uint64_t vm = file_num("/proc/self/statm");
		vm = vm == UINT64_MAX || page <= 0 ? 0 : vm * (uint64_t)page;
		b[3].bytes = left(rl.rlim_cur, vm);
		b[3].what = "the address-space limit (ulimit -v) leaves";
	} else {
		b[3].bytes = UINT64_MAX;
	}
	b[4].bytes = !getrlimit(RLIMIT_DATA, &rl) && rl.rlim_cur != RLIM_INFINITY ? rl.rlim_cur : UINT64_MAX;
	b[4].what = "the data limit (ulimit -d) allows";
	uint64_t least = UINT64_MAX;
	*from = "";
	for (int k = 0; k < 5; k++)
		if (b[k].bytes < least)
			least = b[k].bytes, *from = b[k].what;
	return least;
}

px_status rig_host_fits(uint64_t bytes, const char *what, char *err, size_t errlen)
{
	const char *from;
	uint64_t avail = host_avail(&from);
	if (avail == UINT64_MAX || bytes <= avail / 2)
		return PX_OK; /* unknown: let the allocation decide */
	char a[32], b[32];
	snprintf(err, errlen, "too large: %s: %s of host memory needed, more than half of the %s %s",
		 what, px_bytes_str(bytes, a, sizeof a), px_bytes_str(avail, b, sizeof b), from);
	return PX_EUSAGE;
}

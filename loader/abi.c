/* abi: kernel ABI v2's parameter list (abi.h), as tables and as text. */
#include "loader/abi.h"

#include <stdio.h>
#include <string.h>

#define ABI_BYTES_(name, ptx, bytes, what) bytes,
const unsigned abi_bytes[ABI_NPARAMS] = {ABI_PARAMS(ABI_BYTES_)};
#define ABI_NAME_(name, ptx, bytes, what) #name,
const char *const abi_names[ABI_NPARAMS] = {ABI_PARAMS(ABI_NAME_)};
#define ABI_PTX_(name, ptx, bytes, what) #ptx,
static const char *const abi_ptx[ABI_NPARAMS] = {ABI_PARAMS(ABI_PTX_)};

/* abi_args has a field of the right width for each entry */
#define ABI_CHECK_(name, ptx, bytes, what) _Static_assert(sizeof(((abi_args *)0)->name) == bytes, #name);
ABI_PARAMS(ABI_CHECK_)

void abi_pointers(abi_args *a, void *ptrs[ABI_NPARAMS])
{
	int k = 0;
#define ABI_PTR_(name, ptx, bytes, what) ptrs[k++] = &a->name;
	ABI_PARAMS(ABI_PTR_)
}

void abi_values(const abi_args *a, uint64_t vals[ABI_NPARAMS])
{
	int k = 0;
#define ABI_VAL_(name, ptx, bytes, what) vals[k++] = a->name;
	ABI_PARAMS(ABI_VAL_)
}

const char *abi_ptx_params(char *buf, size_t n)
{
	size_t used = 0;
	for (int k = 0; k < ABI_NPARAMS; k++) {
		int w = snprintf(buf + used, n - used, "\t.param .%s param_%s%s\n", abi_ptx[k], abi_names[k],
				 k + 1 < ABI_NPARAMS ? "," : "");
		if (w < 0 || (size_t)w >= n - used)
			return NULL;
		used += (size_t)w;
	}
	return buf;
}

const char *abi_describe(char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < ABI_NPARAMS && used < n; k++) {
		int w = snprintf(buf + used, n - used, "%s.%s %s%s", k ? "" : "(", abi_ptx[k], abi_names[k],
				 k + 1 < ABI_NPARAMS ? ", " : ")");
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

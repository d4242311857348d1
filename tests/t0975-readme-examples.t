#!/bin/sh
# t0975-readme-examples: README.md's C and Python examples work as written.
# The C one (its first ```c block) is compiled with -Wall -Wextra -Werror
# against include/ and build/libptxpose.a and called by a small program that
# allocates through the fake driver, fills the input at random, poisons the
# output and compares every byte, for three shapes (odd, a row, a tall one);
# the Python one (its first ```python block) is compiled, every ptxpose name
# it calls must exist in the package, and it runs where torch sees a CUDA
# device (else that run is a visible skip).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
. tests/lib/fakecuda.sh
# block LANG: the first fenced LANG block of README.md
block() { awk -v f="\`\`\`$1" '$0 == f { on = 1; next } on && /^```/ { exit } on' README.md; }

block c >"$tmp/readme.c"
[ -s "$tmp/readme.c" ] && ok "README.md has a C example ($(wc -l <"$tmp/readme.c") lines)" || nok "README.md has a C example"
cat >"$tmp/main.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptxpose.h>

int transpose_floats(ptxpose_handle h, const void *in, void *out, size_t rows, size_t cols,
		     ptxpose_stream stream);

typedef int (*alloc_fn)(unsigned long long *, size_t);
typedef int (*htod_fn)(unsigned long long, const void *, size_t);
typedef int (*dtoh_fn)(void *, unsigned long long, size_t);
typedef int (*sync_fn)(void);

static void *sym(const char *name)
{
	void *fn = NULL;
	if (ptxpose_driver_symbol(name, &fn))
		fprintf(stderr, "%s: %s\n", name, ptxpose_last_error());
	return fn;
}

/* rows x cols through the README's function: 0 when every byte is the transpose's */
static int one(ptxpose_handle h, size_t rows, size_t cols)
{
	alloc_fn mem_alloc = (alloc_fn)sym("cuMemAlloc_v2");
	htod_fn htod = (htod_fn)sym("cuMemcpyHtoD_v2");
	dtoh_fn dtoh = (dtoh_fn)sym("cuMemcpyDtoH_v2");
	sync_fn sync = (sync_fn)sym("cuCtxSynchronize");
	size_t n = rows * cols, bytes = n * sizeof(uint32_t);
	uint32_t *in = malloc(bytes), *out = malloc(bytes);
	unsigned long long d_in, d_out;
	if (!mem_alloc || !htod || !dtoh || !sync || !in || !out)
		return 90;
	for (size_t k = 0; k < n; k++)
		in[k] = (uint32_t)rand() << 16 ^ (uint32_t)rand();
	memset(out, 0xa5, bytes);
	if (mem_alloc(&d_in, bytes) || mem_alloc(&d_out, bytes) || htod(d_in, in, bytes) || htod(d_out, out, bytes))
		return 90;
	int rc = transpose_floats(h, (const void *)(uintptr_t)d_in, (void *)(uintptr_t)d_out, rows, cols, NULL);
	if (rc)
		return rc;
	if (sync() || dtoh(out, d_out, bytes))
		return 90;
	size_t wrong = 0;
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++)
			wrong += out[j * rows + i] != in[i * cols + j];
	printf("%zux%zu: %zu of %zu elements wrong\n", rows, cols, wrong, n);
	free(in);
	free(out);
	return wrong ? 91 : 0;
}

int main(void)
{
	ptxpose_handle h;
	if (ptxpose_create(&h, 0)) {
		fprintf(stderr, "ptxpose_create: %s\n", ptxpose_last_error());
		return 4;
	}
	srand(975);
	int rc = one(h, 33, 31);
	if (!rc)
		rc = one(h, 1, 4097);
	if (!rc)
		rc = one(h, 1000, 3);
	ptxpose_destroy(h);
	return rc;
}
EOF
if cc -std=c11 -Wall -Wextra -Werror -Iinclude "$tmp/readme.c" "$tmp/main.c" build/libptxpose.a -ldl -lm -lpthread \
	-o "$tmp/readme" 2>"$tmp/cc.err"; then
	ok "the C example compiles with -Wall -Wextra -Werror"
else
	nok "the C example compiles with -Wall -Wextra -Werror"; diag <"$tmp/cc.err"
fi
if "$tmp/readme" >"$tmp/run.out" 2>"$tmp/run.err"; then
	ok "... and transposes bit-exactly on the fake driver: $(tr '\n' ';' <"$tmp/run.out")"
else
	nok "... and transposes bit-exactly on the fake driver (exit $?)"; diag <"$tmp/run.out"; diag <"$tmp/run.err"
fi

block python >"$tmp/readme.py"
[ -s "$tmp/readme.py" ] && ok "README.md has a Python example ($(wc -l <"$tmp/readme.py") lines)" ||
	nok "README.md has a Python example"
# what it calls of ptxpose exists (importing the package needs no driver)
names=$(grep -o 'ptxpose\.[A-Za-z_][A-Za-z_0-9]*' "$tmp/readme.py" | sort -u | sed 's/^ptxpose\.//')
if PYTHONPATH=python python3 -B -c '
import sys, ptxpose
compile(open(sys.argv[1]).read(), "README.md", "exec")
missing = [n for n in sys.argv[2:] if not callable(getattr(ptxpose, n, None))]
sys.exit("not in the package: " + " ".join(missing) if missing else 0)' "$tmp/readme.py" $names 2>"$tmp/py.err"; then
	ok "the Python example compiles, and the package has what it calls: $(echo $names)"
else
	nok "the Python example compiles, and the package has what it calls"; diag <"$tmp/py.err"
fi
if env -u LD_LIBRARY_PATH python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
	env -u LD_LIBRARY_PATH PYTHONPATH=python python3 -B "$tmp/readme.py" >"$tmp/gpu.out" 2>&1 &&
		ok "the Python example runs on the GPU" || { nok "the Python example runs on the GPU"; diag <"$tmp/gpu.out"; }
else
	ok "the Python example's run # SKIP no torch with a CUDA device"
fi
finish

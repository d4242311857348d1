/* tool: where ptxas and cuobjdump live, wherever ptxpose is installed. The
 * search order is the same for both: an environment variable, PATH, the CUDA
 * toolkit, the folder of the running binary (a tool installed beside it),
 * ../libexec/ptxpose from it (what build-aux/install.sh installs),
 * .deps/nvidia/STAR/bin beside the binary or up to three folders above it
 * (what ./build.sh installs with pip --target into a checkout), then the
 * Python nvidia packages (pip install into an interpreter). */
#include "inspect/inspect.h"

#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect/proc.h"

#define CUDA_BIN "/usr/local/cuda/bin"

static int is_exec(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

/* snprintf that reports truncation as failure (a cut path names another file) */
static int fmt(char *out, size_t outlen, const char *f, ...) __attribute__((format(printf, 3, 4)));

static int fmt(char *out, size_t outlen, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(out, outlen, f, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < outlen;
}

static int put(char *out, size_t outlen, const char *s)
{
	if (strlen(s) >= outlen)
		return 0;
	memcpy(out, s, strlen(s) + 1);
	return 1;
}

static int in_path(const char *name, char *out, size_t outlen)
{
	const char *path = getenv("PATH");
	if (!path)
		return 0;
	char cand[INS_PATH_MAX];
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		int ok = n ? fmt(cand, sizeof cand, "%.*s/%s", (int)n, p, name)
			   : fmt(cand, sizeof cand, "./%s", name);
		if (ok && is_exec(cand) && put(out, outlen, cand))
			return 1;
		if (!colon)
			return 0;
		p = colon + 1;
	}
}

/* The last (highest-sorting) executable match of a glob pattern: with
 * nvidia/cu12 and nvidia/cu13 both present, the newer wins. */
static int from_glob(const char *pattern, char *out, size_t outlen)
{
	glob_t g;
	int found = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = g.gl_pathc; i-- > 0 && !found;)
			found = is_exec(g.gl_pathv[i]) && put(out, outlen, g.gl_pathv[i]);
	}
	globfree(&g);
	return found;
}

/* pip packages put the binaries in nvidia/cu13/bin (CUDA 13 wheels) or
 * nvidia/cuda_<tool>/bin (CUDA 12 wheels): nvidia/STAR/bin/NAME covers both. */
static int in_nvidia_dir(const char *nvidia, const char *name, char *out, size_t outlen)
{
	char pat[INS_PATH_MAX];
	return fmt(pat, sizeof pat, "%s/*/bin/%s", nvidia, name) && from_glob(pat, out, outlen);
}

int ins_exe_dir(char *out, size_t outlen)
{
	char buf[INS_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return put(out, outlen, buf) ? 0 : -1;
}

/* NAME in the folder of the running binary. */
static int beside_binary(const char *name, char *out, size_t outlen)
{
	char dir[INS_PATH_MAX];
	return !ins_exe_dir(dir, sizeof dir) && fmt(out, outlen, "%s/%s", dir, name) && is_exec(out);
}

/* PREFIX/libexec/ptxpose/NAME for PREFIX/bin/ptxpose: where
 * build-aux/install.sh puts the tools it took from a checkout's .deps/. */
static int in_libexec(const char *name, char *out, size_t outlen)
{
	char dir[INS_PATH_MAX];
	return !ins_exe_dir(dir, sizeof dir) && fmt(out, outlen, "%s/../libexec/ptxpose/%s", dir, name) && is_exec(out);
}

/* .deps/ in the folder of the binary or up to three levels above it:
 * build/ptxpose and build/asan/ptxpose both reach the repository's. */
static int in_deps(const char *name, char *out, size_t outlen)
{
	char dir[INS_PATH_MAX], nv[INS_PATH_MAX];
	if (ins_exe_dir(dir, sizeof dir))
		return 0;
	for (int up = 0; up <= 3; up++) {
		if (fmt(nv, sizeof nv, "%s/.deps/nvidia", dir) && in_nvidia_dir(nv, name, out, outlen))
			return 1;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return 0;
		*slash = '\0';
	}
	return 0;
}

/* Ask python3 (from PATH) where the nvidia namespace package is. */
static int in_python(const char *name, char *out, size_t outlen)
{
	char *argv[] = {"python3", "-c",
			"import nvidia\nfor p in nvidia.__path__: print(p)", NULL};
	strbuf so;
	sb_init(&so);
	char err[256];
	int found = 0;
	if (ins_proc_run(argv, &so, NULL, err, sizeof err) == 0) {
		char *save = NULL;
		for (char *l = strtok_r(so.data, "\n", &save); l && !found; l = strtok_r(NULL, "\n", &save))
			found = in_nvidia_dir(l, name, out, outlen);
	}
	sb_free(&so);
	return found;
}

/* Site-packages folders a pip install may use without python3 on PATH. */
static int in_site_packages(const char *name, char *out, size_t outlen)
{
	char pat[INS_PATH_MAX];
	const char *home = getenv("HOME");
	if (home && *home) {
		if (fmt(pat, sizeof pat, "%s/.local/lib/python3*/site-packages/nvidia/*/bin/%s", home, name) &&
		    from_glob(pat, out, outlen))
			return 1;
	}
	static const char *const roots[] = {
		"/usr/local/lib/python3*/dist-packages",
		"/usr/local/lib/python3*/site-packages",
		"/usr/lib/python3/dist-packages",
	};
	for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
		if (fmt(pat, sizeof pat, "%s/nvidia/*/bin/%s", roots[i], name) && from_glob(pat, out, outlen))
			return 1;
	}
	return 0;
}

static int find(const char *name, const char *env, const char *install,
		char *out, size_t outlen, char *err, size_t errlen)
{
	const char *v = getenv(env);
	if (v && *v) {
		if (is_exec(v) && put(out, outlen, v))
			return INS_OK;
		snprintf(err, errlen, "%s=%s is not an executable file; unset it, or install %s with: %s",
			 env, v, name, install);
		return INS_ENOTOOL;
	}
	if (in_path(name, out, outlen) ||
	    (fmt(out, outlen, "%s/%s", CUDA_BIN, name) && is_exec(out)) ||
	    beside_binary(name, out, outlen) || in_libexec(name, out, outlen) || in_deps(name, out, outlen) ||
	    in_python(name, out, outlen) ||
	    in_site_packages(name, out, outlen))
		return INS_OK;
	out[0] = '\0';
	snprintf(err, errlen, "%s not found (looked at $%s, PATH, %s, the binary's folder, ../libexec/ptxpose and "
		 ".deps/ beside it, Python packages); install it with: %s", name, env, CUDA_BIN, install);
	return INS_ENOTOOL;
}

int ins_find_ptxas(char *out, size_t outlen, char *err, size_t errlen)
{
	return find("ptxas", "PTXPOSE_PTXAS",
		    "apt-get install nvidia-cuda-toolkit (or pip install nvidia-cuda-nvcc)",
		    out, outlen, err, errlen);
}

int ins_find_cuobjdump(char *out, size_t outlen, char *err, size_t errlen)
{
	return find("cuobjdump", "PTXPOSE_CUOBJDUMP", INS_CUOBJDUMP_INSTALL,
		    out, outlen, err, errlen);
}

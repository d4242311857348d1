#include "inspect/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

static int cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);
	return fl < 0 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

/* In the child: wire up the descriptors and exec; on failure write errno
 * into the status pipe and leave. Only async-signal-safe calls here. */
static void child(char *const argv[], int out[2], int errp[2], int status[2])
{
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(out[1], 1);
	dup2(errp[1], 2);
	close(out[0]);
	close(out[1]);
	close(errp[0]);
	close(errp[1]);
	close(status[0]);
	setpgid(0, 0); /* its own group, so that a timeout ends its children too */
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	int e = errno;
	ssize_t w = write(status[1], &e, sizeof e);
	(void)w;
	_exit(127);
}

int ins_proc_timeout(unsigned *seconds, char *err, size_t errlen)
{
	const char *v = getenv("PTXPOSE_TOOL_TIMEOUT");
	*seconds = INS_TOOL_TIMEOUT_DEFAULT;
	if (!v || !*v)
		return 0;
	char *end;
	errno = 0;
	unsigned long n = strtoul(v, &end, 10);
	if (*end || errno || n < 1 || n > INS_TOOL_TIMEOUT_MAX || !(*v >= '0' && *v <= '9')) {
		snprintf(err, errlen, "PTXPOSE_TOOL_TIMEOUT=%.40s: expected seconds from 1 to %u", v,
			 INS_TOOL_TIMEOUT_MAX);
		return -1;
	}
	*seconds = (unsigned)n;
	return 0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Read both pipes until they close, so neither can fill up and stall; 0, or
 * ETIMEDOUT when the deadline passed, EFBIG when more than INS_TOOL_OUTPUT_MAX
 * bytes came (the caller kills the tool). */
static int drain(int fdout, int fderr, strbuf *out, strbuf *errout, double deadline)
{
	struct pollfd pf[2] = {{fdout, POLLIN, 0}, {fderr, POLLIN, 0}};
	strbuf *dst[2] = {out, errout};
	int open_fds = 2;
	size_t total = 0;
	char buf[65536];
	while (open_fds > 0) {
		double left = deadline - now();
		if (left <= 0)
			return ETIMEDOUT;
		if (poll(pf, 2, left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			ssize_t n = read(pf[i].fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			if ((total += (size_t)n) > INS_TOOL_OUTPUT_MAX)
				return EFBIG;
			if (dst[i])
				sb_addn(dst[i], buf, (size_t)n);
		}
	}
	return 0;
}

/* Wait for the child; with a deadline (not 0), kill its group when the
 * deadline passes (a tool that closed its output but runs on) and set
 * *limit to ETIMEDOUT. 0, or -1 with errno. */
static int reap(pid_t pid, int *st, double deadline, int *limit)
{
	for (;;) {
		pid_t w = waitpid(pid, st, deadline ? WNOHANG : 0);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -1;
		if (w == 0 && now() >= deadline) {
			kill(-pid, SIGKILL);
			*limit = ETIMEDOUT;
			deadline = 0;
		} else if (w == 0) {
			struct timespec t = {0, 2000000};
			nanosleep(&t, NULL);
		}
	}
}

/* The tool's name for messages: the last part of its path. */
static const char *tool_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Held from making the pipes until fork, so that no other thread's child
 * inherits a descriptor before it is marked close-on-exec (a child holding
 * our write end would keep us waiting until it exits). */
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;

static int make_pipes(int po[2], int pe[2], int ps[2])
{
	if (pipe(po) || pipe(pe) || pipe(ps))
		return -1;
	for (int i = 0; i < 2; i++)
		if (cloexec(po[i]) || cloexec(pe[i]) || cloexec(ps[i]))
			return -1;
	return 0;
}

/* Close what was made and report why the program could not be started. */
static int setup_failed(char *const argv[], const char *what, int p[3][2], char *err, size_t errlen)
{
	int e = errno;
	snprintf(err, errlen, "cannot run %s: %s: %s", argv[0], what, strerror(e));
	for (int i = 0; i < 3; i++)
		close_pair(p[i]);
	errno = e;
	return -1;
}

int ins_proc_run(char *const argv[], strbuf *out, strbuf *errout,
		 char *err, size_t errlen)
{
	unsigned timeout;
	if (ins_proc_timeout(&timeout, err, errlen)) {
		errno = EINVAL;
		return -1;
	}
	double deadline = now() + timeout;
	int p[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
	int *po = p[0], *pe = p[1], *ps = p[2];
	pthread_mutex_lock(&fork_lock);
	if (make_pipes(po, pe, ps)) {
		int e = errno;
		pthread_mutex_unlock(&fork_lock);
		errno = e;
		return setup_failed(argv, "pipe", p, err, errlen);
	}
	pid_t pid = fork();
	if (pid != 0) {
		int e = errno;
		pthread_mutex_unlock(&fork_lock);
		errno = e;
	}
	if (pid < 0)
		return setup_failed(argv, "fork", p, err, errlen);
	if (pid == 0)
		child(argv, po, pe, ps);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	close(po[1]);
	close(pe[1]);
	close(ps[1]);
	po[1] = pe[1] = ps[1] = -1;

	int exec_errno = 0, limit = 0;
	ssize_t n;
	do
		n = read(ps[0], &exec_errno, sizeof exec_errno);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof exec_errno)
		exec_errno = 0;
	close_pair(ps);
	if (!exec_errno && (limit = drain(po[0], pe[0], out, errout, deadline)))
		kill(-pid, SIGKILL);
	close_pair(po);
	close_pair(pe);

	int st;
	if (reap(pid, &st, limit || exec_errno ? 0 : deadline, &limit)) {
		int e = errno;
		snprintf(err, errlen, "cannot run %s: waitpid: %s", argv[0], strerror(e));
		errno = e;
		return -1;
	}
	if (exec_errno) {
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(exec_errno));
		errno = exec_errno;
		return -1;
	}
	if (limit == ETIMEDOUT)
		snprintf(err, errlen, "%s (%s) did not finish within %u s, stopped (PTXPOSE_TOOL_TIMEOUT=SECONDS allows more)",
			 tool_name(argv[0]), argv[0], timeout);
	else if (limit == EFBIG)
		snprintf(err, errlen, "%s (%s) printed more than %u MiB, stopped (a tool that floods its output)",
			 tool_name(argv[0]), argv[0], (unsigned)(INS_TOOL_OUTPUT_MAX >> 20));
	if (limit) {
		errno = limit;
		return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int ins_tmpdir_make(char *dir, size_t dirlen, char *err, size_t errlen)
{
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = "/tmp";
	int n = snprintf(dir, dirlen, "%s/ptxpose.XXXXXX", t);
	if (n < 0 || (size_t)n >= dirlen) {
		snprintf(err, errlen, "TMPDIR is too long");
		return -1;
	}
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a temporary folder in %s: %s", t, strerror(errno));
		return -1;
	}
	return 0;
}

void ins_tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char path[4096];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* lsbx_fork: a script's run in a child process with a hard deadline
 * (lsbx.h). The count hook cannot stop a loop inside a C function, nor a
 * message handler that Lua runs with hooks off; a child killed at the
 * deadline always stops. The child hands its result back through a pipe,
 * so whatever it was doing when killed, the parent has written nothing. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "gen/lsbx.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void child(int fd, lsbx_child_fn fn, void *ud, volatile int *line)
{
	strbuf out;
	sb_init(&out);
	fn(ud, line, &out);
	for (size_t off = 0; off < out.len && !out.oom;) {
		ssize_t w = write(fd, out.data + off, out.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			_exit(2);
		off += (size_t)w;
	}
	_exit(out.oom ? 3 : 0); /* no atexit handlers, no stdio flushed twice */
}

/* Read fd into res until EOF or the deadline; 1 at EOF, 0 past the
 * deadline, -1 with errno. */
static int collect(int fd, long long deadline, strbuf *res)
{
	char buf[65536];
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			continue;
		ssize_t got = read(fd, buf, sizeof buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			return 1;
		sb_addn(res, buf, (size_t)got);
		if (res->oom) {
			errno = ENOMEM;
			return -1;
		}
	}
}

int lsbx_fork(unsigned time_ms, lsbx_child_fn fn, void *ud, strbuf *res, int *line, strbuf *err)
{
	*line = 0;
	volatile int *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fds[2] = {-1, -1};
	if (shared == MAP_FAILED || pipe(fds) != 0) {
		sb_printf(err, "cannot start the script's process: %s", strerror(errno));
		if (shared != MAP_FAILED)
			munmap((void *)shared, sizeof *shared);
		return -1;
	}
	*shared = 0;
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	long long deadline = now_ms() + time_ms + LSBX_FORK_GRACE_MS + time_ms / 10;
	fflush(NULL); /* nothing buffered here is written twice by the child */
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], fn, ud, shared);
	}
	int e = errno;
	close(fds[1]);
	int done = pid < 0 ? -1 : collect(fds[0], deadline, res);
	e = done < 0 ? errno : e;
	close(fds[0]);
	int rc = -1, status = 0;
	if (pid < 0) {
		sb_printf(err, "cannot start the script's process: %s", strerror(e));
		goto out;
	}
	if (done <= 0)
		kill(pid, SIGKILL); /* past the deadline, or the parent cannot listen */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!done) {
		*line = *shared;
		rc = LSBX_FORK_LATE;
	} else if (done < 0) {
		sb_printf(err, "cannot read the script's result: %s", strerror(e));
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		rc = 0;
	} else if (WIFSIGNALED(status)) {
		sb_printf(err, "the script's process was ended by signal %d (%s)", WTERMSIG(status),
			  strsignal(WTERMSIG(status)));
		rc = LSBX_FORK_DIED;
	} else {
		sb_printf(err, "the script's process could not hand back its result (exit %d)", WEXITSTATUS(status));
		rc = LSBX_FORK_DIED;
	}
out:
	munmap((void *)shared, sizeof *shared);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lb-memcg-fault CGROUP FILE LIMIT_MB SECS
 *
 * Page faults at a memory cgroup's limit. CGROUP (a cgroup v2 directory
 * with the memory controller) is set to LIMIT_MB and no swap; a first task,
 * the hog (oom_score_adj 1000), fills it with anonymous memory to 1 MiB
 * under the limit and sleeps; a second task maps FILE (cold, every byte
 * 0x5a) shared, locked on fault (mlockall MCL_ONFAULT, so that reclaim
 * cannot take its own folios back), and reads one byte of every page.
 * Past that 1 MiB every charge of the faults needs the cgroup's OOM
 * killer, which kills the hog, and the faults complete. Without it (a
 * charge above PAGE_ALLOC_COSTLY_ORDER skips the OOM killer), the fault
 * is retried until the SECS limit kills the reader.
 *
 * Prints one line:
 *   faulter=done|timeout|signal-N|exit-N hog=killed|alive oom_kill=N ms=T data=ok|bad|-
 * (oom_kill: how much memory.events' oom_kill moved). Exits 0 when the
 * reader read the whole file with the right bytes, 1 when not, 2 when the
 * test could not be set up (what is wrong on stderr).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "lb-util.h"

static const char *cg;

static int cg_write(const char *file, const char *val)
{
	char path[512];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	close(fd);
	return ret;
}

/* A number from CGROUP/FILE, or of its line "KEY N" when KEY is given. */
static long long cg_read(const char *file, const char *key)
{
	char path[512], k[64];
	long long v, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cg, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!key) {
		if (fscanf(f, "%lld", &v) == 1)
			ret = v;
	} else {
		while (fscanf(f, "%63s %lld", k, &v) == 2)
			if (!strcmp(k, key)) {
				ret = v;
				break;
			}
	}
	fclose(f);
	return ret;
}

static int join(int score)
{
	char buf[32];
	int fd;

	snprintf(buf, sizeof(buf), "%d\n", getpid());
	if (cg_write("cgroup.procs", buf))
		return -1;
	fd = open("/proc/self/oom_score_adj", O_WRONLY);
	if (fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%d\n", score);
	if (write(fd, buf, strlen(buf)) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void hog(int ready, long long max)
{
	const size_t chunk = 64 << 10;

	if (join(1000)) {
		perror("hog: join the cgroup");
		_exit(2);
	}
	for (;;) {
		long long cur = cg_read("memory.current", NULL);
		char *p;

		if (cur < 0)
			_exit(2);
		if (cur + (1 << 20) >= max)
			break;
		p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(2);
		memset(p, 0x11, chunk);
	}
	if (write(ready, "r", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

static void reader(const char *file)
{
	struct stat st;
	unsigned char *p;
	off_t off;
	int fd;

	if (join(0) || mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) {
		perror("reader: join the cgroup, mlockall");
		_exit(2);
	}
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size)
		_exit(2);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		_exit(2);
	for (off = 0; off < st.st_size; off += 4096)
		if (p[off] != 0x5a)
			_exit(3);
	_exit(0);
}

int main(int argc, char **argv)
{
	long long max, oom0, oom1;
	int ready[2], status;
	pid_t h, r, w;
	double t0, ms;
	char buf[32], c;
	const char *st, *hs, *data;
	char stbuf[32];
	int secs, timed_out = 0;

	if (argc != 5 || atoi(argv[3]) < 8 || atoi(argv[4]) < 1) {
		fprintf(stderr, "usage: %s CGROUP FILE LIMIT_MB SECS (LIMIT_MB >= 8)\n", argv[0]);
		return 2;
	}
	cg = argv[1];
	max = (long long)atoi(argv[3]) << 20;
	secs = atoi(argv[4]);
	snprintf(buf, sizeof(buf), "%lld\n", max);
	if (access(argv[2], R_OK) || cg_write("memory.max", buf)) {
		fprintf(stderr, "%s: cannot read %s or set %s/memory.max (memory controller on?)\n",
			argv[0], argv[2], cg);
		return 2;
	}
	cg_write("memory.swap.max", "0\n");
	oom0 = cg_read("memory.events", "oom_kill");
	if (pipe(ready))
		return 2;
	h = fork();
	if (h < 0)
		return 2;
	if (!h)
		hog(ready[1], max);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "%s: the hog died before it filled the cgroup\n", argv[0]);
		waitpid(h, NULL, 0);
		return 2;
	}

	t0 = now_ms();
	r = fork();
	if (r < 0) {
		kill(h, SIGKILL);
		return 2;
	}
	if (!r)
		reader(argv[2]);
	for (;;) {
		w = waitpid(r, &status, WNOHANG);
		if (w == r)
			break;
		if (now_ms() - t0 > secs * 1000.0) {
			kill(r, SIGKILL);
			waitpid(r, &status, 0);
			timed_out = 1;
			break;
		}
		usleep(20000);
	}
	ms = now_ms() - t0;
	if (timed_out) {
		st = "timeout";
		data = "-";
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		st = "done";
		data = "ok";
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		st = "done";
		data = "bad";
	} else {
		if (WIFSIGNALED(status))
			snprintf(stbuf, sizeof(stbuf), "signal-%d", WTERMSIG(status));
		else
			snprintf(stbuf, sizeof(stbuf), "exit-%d", WEXITSTATUS(status));
		st = stbuf;
		data = "-";
	}
	if (waitpid(h, &status, WNOHANG) == h) {
		hs = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? "killed" : "exited";
	} else {
		hs = "alive";
		kill(h, SIGKILL);
		waitpid(h, NULL, 0);
	}
	oom1 = cg_read("memory.events", "oom_kill");
	printf("faulter=%s hog=%s oom_kill=%lld ms=%.0f data=%s\n", st, hs,
	       oom1 - oom0, ms, data);
	return strcmp(data, "ok") ? 1 : 0;
}

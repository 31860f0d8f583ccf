/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the large-block guest tools (lb-*.c), built statically by
 * qemu/mkinitramfs.sh with the tools.
 */
#ifndef VF_LB_UTIL_H
#define VF_LB_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

/* now_ms(): CLOCK_MONOTONIC in milliseconds. */
static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * set_fail(ON): set this thread's make-it-fail, so that fail_page_alloc
 * (task-filter Y, as stage3.sh sets it up) fails its large-block folio
 * allocations. Returns 0, or -1 when the file is missing or unwritable.
 */
static inline int set_fail(int on)
{
	int f = open("/proc/thread-self/make-it-fail", O_WRONLY);
	char c = on ? '1' : '0';
	int ret = 0;

	if (f < 0)
		return -1;
	if (write(f, &c, 1) != 1)
		ret = -1;
	close(f);
	return ret;
}

/* vmstat(NAME): one counter of /proc/vmstat, or -1 when it is absent. */
static inline long vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2) {
		if (!strcmp(key, name)) {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

/*
 * open_prepare_run(ARGC, ARGV, NAME, PREPARE, BS): the command line of the
 * tools run as "NAME prepare FILE" (on a fresh file system, before its
 * device is made to fail) and "NAME run FILE". Opens FILE, created and
 * truncated for prepare, and sets *PREPARE and *BS (the file system's
 * block size, which must be larger than a page). Returns the descriptor,
 * or -1 after saying what is wrong.
 */
static inline int open_prepare_run(int argc, char **argv, const char *name,
				   int *prepare, size_t *bs)
{
	struct statfs sfs;
	int fd;

	if (argc != 3 || (strcmp(argv[1], "prepare") && strcmp(argv[1], "run"))) {
		fprintf(stderr, "usage: %s prepare|run FILE\n", name);
		return -1;
	}
	*prepare = !strcmp(argv[1], "prepare");
	fd = open(argv[2], O_RDWR | (*prepare ? O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		fprintf(stderr, "%s: open %s: %s\n", name, argv[2], strerror(errno));
		return -1;
	}
	*bs = sfs.f_bsize;
	if (*bs <= 4096) {
		fprintf(stderr, "%s: block size %zu: needs blocks larger than a page\n",
			name, *bs);
		return -1;
	}
	return fd;
}

#endif

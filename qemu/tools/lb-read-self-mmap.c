// SPDX-License-Identifier: GPL-2.0
/*
 * lb-read-self-mmap FILE [SECONDS]:
 * read() into a shared mapping of the very block it reads must return.
 *
 * FILE (on XFS with blocks larger than a page) gets two blocks of a
 * pattern on the disk, nothing cached. Block 0 is mapped MAP_SHARED,
 * PROT_READ | PROT_WRITE, and a child with make-it-fail set (fail_page_alloc
 * as lbrace.sh's fail_folios: min-order 4, task-filter) reads block 0 into
 * that mapping with one pread(). filemap_read() cannot allocate the block's
 * folio and fails with -ENOMEM; iomap_read_block_fallback() faults the
 * destination in for writing: that fault (FGP_FOR_MMAP) takes the block's
 * folio from the large-block reserve and page_mkwrite() dirties it. The
 * fallback's direct read then writes the folio back first
 * (iomap_fallback_flush()), which write-protects the destination's PTEs,
 * and its copy with page faults disabled copies nothing. Before the fix it
 * went back to the fault-in, which dirtied the folio again, and so on
 * forever (a fatal signal ends it); plain 6.12 fails with ENOMEM at once;
 * with the fix the read goes back to filemap_read(), which finds the folio
 * and copies from it.
 *
 * The child runs under alarm(SECONDS) with SIGALRM's default action, which
 * is fatal: the livelock sees fatal_signal_pending() and the child dies of
 * SIGALRM.
 *
 * Exit 0: the read returned the whole block with the file's data; 1: it did
 * not return in SECONDS (the livelock), failed (ENOMEM included) or
 * returned wrong data; 2: setup error, the fallback was not entered
 * (filemap_minorder_fail did not move) or the fault-in got no folio (EFAULT:
 * the reserve had no block).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lb-util.h"

static unsigned char pat(long long pos)
{
	return (unsigned char)(pos / 4096 * 29 + pos % 251 + 7);
}

int main(int argc, char **argv)
{
	int secs = argc > 2 ? atoi(argv[2]) : 20, status = 0, fd, i, done = 0;
	long f0, r0, v0, f, r, v;
	unsigned char *buf, *map;
	struct statfs sfs;
	double t0, t;
	pid_t pid;
	size_t bs, j;

	if (argc < 2 || secs <= 0) {
		fprintf(stderr, "usage: lb-read-self-mmap FILE [SECONDS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		perror("lb-read-self-mmap: open");
		return 2;
	}
	bs = sfs.f_bsize;
	buf = malloc(2 * bs);
	if (bs <= 4096 || !buf) {
		fprintf(stderr, "lb-read-self-mmap: block size %zu: needs blocks larger than a page\n", bs);
		return 2;
	}
	for (j = 0; j < 2 * bs; j++)
		buf[j] = pat(j);
	if (pwrite(fd, buf, 2 * bs, 0) != (ssize_t)(2 * bs) || fsync(fd)) {
		perror("lb-read-self-mmap: fill");
		return 2;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	map = mmap(NULL, bs, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("lb-read-self-mmap: mmap");
		return 2;
	}

	f0 = vmstat("filemap_minorder_fail");
	r0 = vmstat("minorder_alloc_reserve");
	v0 = vmstat("vfallback_io_read");
	if (f0 < 0 || r0 < 0 || v0 < 0) {
		fprintf(stderr, "lb-read-self-mmap: counters missing from /proc/vmstat\n");
		return 2;
	}
	fflush(stdout);
	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("lb-read-self-mmap: fork");
		return 2;
	}
	if (!pid) {
		ssize_t n;

		signal(SIGALRM, SIG_DFL);
		if (set_fail(1))
			_exit(2);
		alarm(secs);
		n = pread(fd, map, bs, 0);
		alarm(0);
		set_fail(0);
		if (n < 0) {
			printf("lb-read-self-mmap: pread: %s\n", strerror(errno));
			_exit(errno == EFAULT ? 5 : errno == ENOMEM ? 6 : 3);
		}
		if (n != (ssize_t)bs) {
			printf("lb-read-self-mmap: pread returned %zd of %zu\n", n, bs);
			_exit(3);
		}
		for (j = 0; j < bs; j++) {
			if (map[j] != pat(j)) {
				printf("lb-read-self-mmap: byte %zu is 0x%02x, expected 0x%02x\n",
				       j, map[j], pat(j));
				_exit(4);
			}
		}
		_exit(0);
	}
	/* The child dies of SIGALRM; the parent's bound is a backstop. */
	for (i = 0; i < (secs + 30) * 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			done = 1;
			break;
		}
		usleep(100000);
	}
	t = now_ms() - t0;
	f = vmstat("filemap_minorder_fail") - f0;
	r = vmstat("minorder_alloc_reserve") - r0;
	v = vmstat("vfallback_io_read") - v0;
	printf("lb-read-self-mmap: %.0f ms, filemap_minorder_fail +%ld, minorder_alloc_reserve +%ld, vfallback_io_read +%ld\n",
	       t, f, r, v);
	if (!done) {
		/* Not even SIGALRM ended it: not waited for (it may not die). */
		kill(pid, SIGKILL);
		printf("lb-read-self-mmap: read() did not return in %d s, nor end with SIGALRM\n",
		       secs + 30);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		if (WTERMSIG(status) == SIGALRM) {
			printf("lb-read-self-mmap: read() did not return in %d s: the fallback retries from the fault-in forever\n",
			       secs);
			return f ? 1 : 2;
		}
		printf("lb-read-self-mmap: the reader died of signal %d\n",
		       WTERMSIG(status));
		return 1;
	}
	if (!f) {
		printf("lb-read-self-mmap: inconclusive: no min-order folio allocation failed (is fail_page_alloc set up?)\n");
		return 2;
	}
	switch (WEXITSTATUS(status)) {
	case 0:
		return 0;
	case 5:
		printf("lb-read-self-mmap: inconclusive: the fault-in got no folio (the reserve had no block?)\n");
		return 2;
	case 6:
		printf("lb-read-self-mmap: ENOMEM, as without the fallback\n");
		return 1;
	case 2:
		return 2;
	default:
		return 1;
	}
}

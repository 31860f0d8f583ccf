// SPDX-License-Identifier: GPL-2.0
/*
 * lb-write-efault FILE [ROUNDS]: issue 16 item 3. A fallback write() from a valid
 * buffer must not fail with EFAULT because the buffer's page was unmapped
 * between the fault-in and the copy with page faults disabled.
 *
 * FILE (on XFS with blocks larger than a page) gets 16 blocks of 0x11 on
 * the disk. The source buffer is one page of a memfd, mapped shared and
 * filled with 0x77; another thread zaps its page table entry all the time
 * with madvise(MADV_DONTNEED) at random moments: the data stays in the
 * memfd, and any access faults it back in. The main thread, with make-it-fail set
 * (fail_page_alloc as in stage3.sh: min-order 4, task-filter), writes the
 * page into the middle of a block ROUNDS times: each write goes through
 * iomap_write_block_fallback(), whose direct read of the block lies
 * between fault_in_iov_iter_readable() and the copy. Before the fix the
 * write then fails with EFAULT; after it, the write faults the page in
 * again and succeeds.
 *
 * Exit 0: every write succeeded and the file holds the right data;
 * 1: a write failed or came back short, or wrong data; 2: setup error or
 * the fallback did not run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lb-util.h"

#define NBLK	16

static volatile int stop;
static unsigned char *src;

/*
 * Zap the source page now and then, at random: often enough to hit the
 * window of many writes, not so often that every retry is hit again (each
 * retry reads the block again, and a zap in every read would never end).
 */
static void *zapper(void *arg)
{
	unsigned int seed = 1;

	while (!stop) {
		usleep(rand_r(&seed) % 4000);
		madvise(src, 4096, MADV_DONTNEED);
	}
	return arg;
}

int main(int argc, char **argv)
{
	long rounds = argc > 2 ? atol(argv[2]) : 200, i, efault = 0, other = 0;
	unsigned char *buf;
	struct statfs sfs;
	long w0, w;
	pthread_t tid;
	int fd, mfd, bad = 0;
	ssize_t n;
	size_t bs, j;

	if (argc < 2 || rounds <= 0) {
		fprintf(stderr, "usage: lb-write-efault FILE [ROUNDS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		perror("lb-write-efault: open");
		return 2;
	}
	bs = sfs.f_bsize;
	buf = malloc(NBLK * bs);
	if (bs < 16384 || !buf) {
		fprintf(stderr, "lb-write-efault: block size %zu: needs blocks of 16 KiB or more\n", bs);
		return 2;
	}
	memset(buf, 0x11, NBLK * bs);
	if (pwrite(fd, buf, NBLK * bs, 0) != (ssize_t)(NBLK * bs) || fsync(fd)) {
		perror("lb-write-efault: fill");
		return 2;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	mfd = memfd_create("lb-write-efault-src", 0);
	if (mfd < 0 || ftruncate(mfd, 4096)) {
		perror("lb-write-efault: memfd");
		return 2;
	}
	src = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (src == MAP_FAILED) {
		perror("lb-write-efault: mmap");
		return 2;
	}
	memset(src, 0x77, 4096);
	if (pthread_create(&tid, NULL, zapper, NULL)) {
		fprintf(stderr, "lb-write-efault: pthread_create failed\n");
		return 2;
	}

	w0 = vmstat("vfallback_io_write");
	if (set_fail(1))
		return 2;
	for (i = 0; i < rounds; i++) {
		/* Bytes 4096-8191 of a block: a read-modify-write. */
		n = pwrite(fd, src, 4096, (i % NBLK) * bs + 4096);
		if (n == 4096)
			continue;
		if (n < 0 && errno == EFAULT) {
			if (!efault)
				printf("lb-write-efault: write %ld: EFAULT from a valid buffer\n", i);
			efault++;
		} else {
			if (!other)
				printf("lb-write-efault: write %ld: %zd (%s)\n", i, n,
				       n < 0 ? strerror(errno) : "short");
			other++;
		}
	}
	set_fail(0);
	w = vmstat("vfallback_io_write") - w0;
	stop = 1;
	pthread_join(tid, NULL);

	/* Whatever was written is 0x77 at 4096-8191 of its block. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (pread(fd, buf, NBLK * bs, 0) != (ssize_t)(NBLK * bs)) {
		perror("lb-write-efault: read back");
		return 2;
	}
	for (j = 0; j < NBLK * bs; j++) {
		size_t o = j % bs;
		unsigned char want = o >= 4096 && o < 8192 ? 0x77 : 0x11;

		/* A block whose every write failed keeps 0x11. */
		if (buf[j] != want && !(want == 0x77 && buf[j] == 0x11 &&
					(efault || other))) {
			printf("lb-write-efault: byte %zu of the file is 0x%02x, expected 0x%02x\n",
			       j, buf[j], want);
			bad = 1;
			break;
		}
	}
	printf("lb-write-efault: %ld writes through the fallback (%ld counted): %ld EFAULT, %ld other failures\n",
	       rounds, w, efault, other);
	if (efault || other || bad)
		return 1;
	if (w0 < 0 || w < rounds / 2) {
		printf("lb-write-efault: inconclusive: the fallback did not run\n");
		return 2;
	}
	return 0;
}

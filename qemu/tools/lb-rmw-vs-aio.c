// SPDX-License-Identifier: GPL-2.0
/*
 * lb-rmw-vs-aio FILE [BLOCKS] [FORCE]: issue 16 item 4. A fallback write (a
 * read-modify-write of its block) must not put back old data over an AIO
 * O_DIRECT write to the same block that is still in flight.
 *
 * FILE (on XFS with blocks larger than a page) gets BLOCKS preallocated,
 * unwritten blocks. For each block: an AIO O_DIRECT write of the whole
 * block (0xa0 + block % 16) is submitted with io_submit(); without waiting
 * for it, a buffered pwrite() of 4 KiB of 0x5b at offset 8 KiB of the same
 * block runs with make-it-fail set (FORCE=1, the default: fail_page_alloc
 * as in stage3.sh, min-order 4, task-filter), so it goes through
 * iomap_write_block_fallback(); then the AIO is reaped. The direct write's
 * unwritten extent conversion runs at its completion, in a workqueue:
 * before the fix, the fallback's direct read of the block finds the
 * extent still unwritten (zeroes), and its direct write of the whole block
 * lands after the AIO's, so the AIO's data is replaced by zeroes.
 *
 * Every serial order leaves the AIO's bytes outside 8-12 KiB, and 0x5b or
 * the AIO's bytes inside: anything else is a lost write.
 *
 * FORCE=0 runs the same without the fallback (the page cache path of
 * 6.12), for comparison: mixing buffered and direct I/O to one block is
 * not safe there either (see the README).
 *
 * Exit 0: no write lost; 1: lost data; 2: setup error or the fallback did
 * not run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lb-util.h"

int main(int argc, char **argv)
{
	long nblk = argc > 2 ? atol(argv[2]) : 32, i, lost = 0, errors = 0;
	int force = argc > 3 ? atoi(argv[3]) : 1;
	unsigned char small[4096], *abuf, *rbuf;
	void *p1 = NULL, *p2 = NULL;
	aio_context_t ctx = 0;
	struct io_event ev;
	struct iocb cb, *cbs[1] = { &cb };
	struct statfs sfs;
	long w0, w;
	int fd, dfd;
	ssize_t n;
	size_t bs, j;

	if (argc < 2 || nblk <= 0) {
		fprintf(stderr, "usage: lb-rmw-vs-aio FILE [BLOCKS] [FORCE]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		perror("lb-rmw-vs-aio: open");
		return 2;
	}
	bs = sfs.f_bsize;
	if (bs < 16384) {
		fprintf(stderr, "lb-rmw-vs-aio: block size %zu: needs blocks of 16 KiB or more\n", bs);
		return 2;
	}
	if (fallocate(fd, 0, 0, nblk * bs) || fsync(fd)) {
		perror("lb-rmw-vs-aio: fallocate");
		return 2;
	}
	dfd = open(argv[1], O_RDWR | O_DIRECT);
	if (dfd < 0 || posix_memalign(&p1, 4096, bs) ||
	    posix_memalign(&p2, 4096, bs) || syscall(__NR_io_setup, 1, &ctx)) {
		perror("lb-rmw-vs-aio: O_DIRECT/AIO setup");
		return 2;
	}
	abuf = p1;
	rbuf = p2;
	memset(small, 0x5b, sizeof(small));

	w0 = vmstat("vfallback_io_write");
	/* Only allocations of order 4 and up fail: AIO itself is not hit. */
	if (force && set_fail(1))
		return 2;
	for (i = 0; i < nblk; i++) {
		memset(abuf, 0xa0 + (i & 15), bs);
		memset(&cb, 0, sizeof(cb));
		cb.aio_lio_opcode = IOCB_CMD_PWRITE;
		cb.aio_fildes = dfd;
		cb.aio_buf = (unsigned long)abuf;
		cb.aio_nbytes = bs;
		cb.aio_offset = i * bs;
		if (syscall(__NR_io_submit, ctx, 1, cbs) != 1) {
			perror("lb-rmw-vs-aio: io_submit");
			return 2;
		}
		n = pwrite(fd, small, sizeof(small), i * bs + 8192);
		if (syscall(__NR_io_getevents, ctx, 1, 1, &ev, NULL) != 1) {
			perror("lb-rmw-vs-aio: io_getevents");
			return 2;
		}
		if (n != (ssize_t)sizeof(small) || ev.res != (long long)bs) {
			printf("lb-rmw-vs-aio: block %ld: pwrite %zd, AIO write %lld\n",
			       i, n, (long long)ev.res);
			errors++;
		}
	}
	set_fail(0);
	w = vmstat("vfallback_io_write") - w0;
	if (fsync(fd)) {
		perror("lb-rmw-vs-aio: fsync");
		return 2;
	}

	for (i = 0; i < nblk; i++) {
		unsigned char a = 0xa0 + (i & 15);

		if (pread(dfd, rbuf, bs, i * bs) != (ssize_t)bs) {
			perror("lb-rmw-vs-aio: O_DIRECT read back");
			return 2;
		}
		for (j = 0; j < bs; j++) {
			int inside = j >= 8192 && j < 8192 + sizeof(small);

			if (rbuf[j] == a || (inside && rbuf[j] == 0x5b))
				continue;
			if (!lost)
				printf("lb-rmw-vs-aio: block %ld byte %zu is 0x%02x: the AIO write (0x%02x) was lost\n",
				       i, j, rbuf[j], a);
			lost++;
			break;
		}
	}
	printf("lb-rmw-vs-aio: %ld blocks, %ld with a lost AIO write, %ld I/O errors; fallback writes %ld (force=%d)\n",
	       nblk, lost, errors, w, force);
	if (lost)
		return 1;
	if (errors)
		return 2;
	if (force && (w0 < 0 || w < nblk)) {
		printf("lb-rmw-vs-aio: inconclusive: the fallback did not run\n");
		return 2;
	}
	return 0;
}

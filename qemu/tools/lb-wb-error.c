// SPDX-License-Identifier: GPL-2.0
/*
 * lb-wb-error prepare FILE | lb-wb-error run FILE: issue 16 item 2. A writeback error
 * of other data of the file must not make a fallback read() or write()
 * fail, and fsync() must still report it.
 *
 * "prepare" (a fresh XFS with blocks larger than a page, before the
 * device is made to fail): blocks 0 and 1 hold 0x11 on the disk, blocks
 * 4-7 are preallocated (unwritten) and have never been written to the
 * device. The caller then remounts (all metadata on the disk) and makes
 * every write to a new part of the device fail: the lbrace scenario puts the loop
 * device's backing file on a tmpfs that it fills, with the log on an
 * external, fully written device.
 *
 * "run": buffered writes to blocks 4-7 and syncfs() make their writeback
 * fail (AS_EIO or AS_ENOSPC and the errseq of the mapping are set). Then,
 * with make-it-fail set (fail_page_alloc as in stage3.sh: min-order 4,
 * task-filter), a pread() of block 0 and a partial pwrite() to block 1 go
 * through the fallback: before the fix, the writeback and wait inside
 * __iomap_dio_rw() (filemap_check_errors()) return and clear the other
 * blocks' error and the read or write fails with it. Last, fsync() must
 * return the error once (errseq), then succeed.
 *
 * Exit 0: correct; 1: the fallback returned another I/O's error, fsync()
 * lost it, or wrong data; 2: setup error (no writeback error injected,
 * fallback not exercised).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lb-util.h"

static size_t bs;

static int is_wb_error(int err)
{
	return err == EIO || err == ENOSPC;
}

/* Dirty blocks 4-7 and make their writeback fail: 0 if it did. */
static int inject(int fd, unsigned char *buf, int fill)
{
	memset(buf, fill, 4 * bs);
	if (pwrite(fd, buf, 4 * bs, 4 * bs) != (ssize_t)(4 * bs)) {
		perror("lb-wb-error: pwrite of blocks 4-7");
		return -1;
	}
	if (!syncfs(fd)) {
		fprintf(stderr, "lb-wb-error: syncfs succeeded: no writeback error was injected\n");
		return -1;
	}
	printf("lb-wb-error: writeback of blocks 4-7 failed as arranged (syncfs: %s)\n",
	       strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *buf, *one;
	long r0, w0, r, w;
	int fd, prepare, bad = 0;
	ssize_t n;
	size_t i;

	fd = open_prepare_run(argc, argv, "lb-wb-error", &prepare, &bs);
	if (fd < 0)
		return 2;
	buf = malloc(4 * bs);
	one = malloc(4096);
	if (!buf || !one) {
		perror("lb-wb-error: malloc");
		return 2;
	}

	if (prepare) {
		memset(buf, 0x11, 2 * bs);
		if (pwrite(fd, buf, 2 * bs, 0) != (ssize_t)(2 * bs) ||
		    fallocate(fd, 0, 4 * bs, 4 * bs) || fsync(fd)) {
			perror("lb-wb-error: prepare");
			return 2;
		}
		return 0;
	}

	if (inject(fd, buf, 0x22))
		return 2;

	/* Block 0 through the fallback: must read the 0x11 of the disk. */
	posix_fadvise(fd, 0, 2 * bs, POSIX_FADV_DONTNEED);
	r0 = vmstat("vfallback_io_read");
	if (set_fail(1))
		return 2;
	n = pread(fd, buf, bs, 0);
	set_fail(0);
	r = vmstat("vfallback_io_read") - r0;
	if (n < 0) {
		printf("lb-wb-error: FAIL: fallback read() of block 0: %s (another I/O's writeback error)\n",
		       strerror(errno));
		bad = 1;
	} else if (n != (ssize_t)bs) {
		printf("lb-wb-error: FAIL: fallback read() of block 0 returned %zd\n", n);
		bad = 1;
	} else {
		for (i = 0; i < bs; i++) {
			if (buf[i] != 0x11) {
				printf("lb-wb-error: FAIL: block 0 byte %zu is 0x%02x\n", i, buf[i]);
				bad = 1;
				break;
			}
		}
	}

	/* Again for a partial write of block 1 (read-modify-write). */
	if (inject(fd, buf, 0x33))
		return 2;
	memset(one, 0x44, 4096);
	w0 = vmstat("vfallback_io_write");
	if (set_fail(1))
		return 2;
	n = pwrite(fd, one, 4096, bs + 4096);
	set_fail(0);
	w = vmstat("vfallback_io_write") - w0;
	if (n != 4096) {
		printf("lb-wb-error: FAIL: fallback write() to block 1: %zd (%s)\n", n,
		       n < 0 ? strerror(errno) : "short");
		bad = 1;
	}

	/* fsync() reports the writeback errors since open, once. */
	if (!fsync(fd)) {
		printf("lb-wb-error: FAIL: fsync() did not report the writeback error\n");
		bad = 1;
	} else if (!is_wb_error(errno)) {
		printf("lb-wb-error: fsync(): unexpected %s\n", strerror(errno));
		bad = 1;
	} else {
		printf("lb-wb-error: fsync() reports the writeback error (%s)\n", strerror(errno));
	}
	if (fsync(fd))
		printf("lb-wb-error: second fsync(): %s (expected success)\n", strerror(errno));

	/* Block 1 on the disk: 0x44 where written, 0x11 elsewhere. */
	posix_fadvise(fd, 0, 2 * bs, POSIX_FADV_DONTNEED);
	if (n == 4096 && pread(fd, buf, bs, bs) == (ssize_t)bs) {
		for (i = 0; i < bs; i++) {
			unsigned char want = i >= 4096 && i < 8192 ? 0x44 : 0x11;

			if (buf[i] != want) {
				printf("lb-wb-error: FAIL: block 1 byte %zu is 0x%02x, expected 0x%02x\n",
				       i, buf[i], want);
				bad = 1;
				break;
			}
		}
	}
	printf("lb-wb-error: fallback reads %ld, writes %ld\n", r, w);
	if (bad)
		return 1;
	if (r <= 0 || w <= 0) {
		printf("lb-wb-error: inconclusive: the fallback did not run\n");
		return 2;
	}
	printf("lb-wb-error: PASS\n");
	return 0;
}

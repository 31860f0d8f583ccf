// SPDX-License-Identifier: GPL-2.0
/*
 * lb-batch-error prepare FILE | lb-batch-error run FILE: issue 16 item 7.
 * A fallback write() whose batched direct I/O (several blocks in one I/O)
 * fails must come back short with the blocks that could be written, as a
 * page-cache write would, not fail as a whole.
 *
 * "prepare" (a fresh XFS with blocks larger than a page, before the
 * device is made to fail): block 0 holds 0x11 on the disk, blocks 1-7
 * are preallocated (unwritten) and have never been written to the device.
 * The caller then remounts (all metadata on the disk) and makes every
 * write to a new part of the device fail: the lbrace scenario puts the
 * loop device's backing file on a tmpfs that it fills, with the log on an
 * external, fully written device (as for lb-wb-error).
 *
 * "run": with make-it-fail set (fail_page_alloc: min-order 4,
 * task-filter), one pwrite() of blocks 0-7 goes through the fallback,
 * which moves the 8 blocks in one direct I/O. That I/O fails (blocks 1-7
 * cannot be written), block 0 alone can: the write must return exactly
 * one block, the next write() of blocks 1-7 must fail with EIO or ENOSPC,
 * and block 0 must then read back as written, blocks 1-7 as zeroes.
 *
 * Exit 0: correct; 1: the write failed as a whole, claimed blocks it did
 * not write, or wrong data; 2: setup error (the device did not fail, the
 * fallback did not run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lb-util.h"

#define NR_BLOCKS	8

/* First byte of @buf[@from, @to) that is not @want, or -1. */
static long first_not(const unsigned char *buf, size_t from, size_t to,
		      unsigned char want)
{
	size_t i;

	for (i = from; i < to; i++)
		if (buf[i] != want)
			return i;
	return -1;
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	ssize_t n, n2;
	int fd, prepare, e1 = 0, e2 = 0, bad = 0;
	long w0, w, at;
	size_t bs;

	fd = open_prepare_run(argc, argv, "lb-batch-error", &prepare, &bs);
	if (fd < 0)
		return 2;
	buf = malloc(NR_BLOCKS * bs);
	if (!buf) {
		perror("lb-batch-error: malloc");
		return 2;
	}

	if (prepare) {
		memset(buf, 0x11, bs);
		if (pwrite(fd, buf, bs, 0) != (ssize_t)bs ||
		    fallocate(fd, 0, bs, (NR_BLOCKS - 1) * bs) || fsync(fd)) {
			perror("lb-batch-error: prepare");
			return 2;
		}
		return 0;
	}

	/* No folio in the range: the fallback batches all 8 blocks. */
	posix_fadvise(fd, 0, NR_BLOCKS * bs, POSIX_FADV_DONTNEED);
	memset(buf, 0x55, NR_BLOCKS * bs);
	w0 = vmstat("vfallback_io_write");
	if (set_fail(1))
		return 2;
	n = pwrite(fd, buf, NR_BLOCKS * bs, 0);
	e1 = errno;
	n2 = n == (ssize_t)bs ? pwrite(fd, buf + bs, (NR_BLOCKS - 1) * bs, bs) : 0;
	e2 = errno;
	set_fail(0);
	w = vmstat("vfallback_io_write") - w0;
	printf("lb-batch-error: write of %d blocks: %zd (%s); fallback blocks written %ld\n",
	       NR_BLOCKS, n, n < 0 ? strerror(e1) : "bytes", w);
	if (n == (ssize_t)bs)
		printf("lb-batch-error: then the write of blocks 1-%d: %zd (%s)\n",
		       NR_BLOCKS - 1, n2, n2 < 0 ? strerror(e2) : "bytes");

	if (n == (ssize_t)(NR_BLOCKS * bs) || n2 > 0) {
		printf("lb-batch-error: inconclusive: the device did not fail\n");
		return 2;
	}
	if (n < 0) {
		printf("lb-batch-error: FAIL: the write failed as a whole (%s), though block 0 could be written\n",
		       strerror(e1));
		bad = 1;
	} else if (n != (ssize_t)bs) {
		printf("lb-batch-error: FAIL: the write returned %zd, expected one block (%zu)\n",
		       n, bs);
		bad = 1;
	} else if (n2 == 0 || (e2 != EIO && e2 != ENOSPC)) {
		printf("lb-batch-error: FAIL: the write of blocks 1-%d: %zd (%s), expected EIO or ENOSPC\n",
		       NR_BLOCKS - 1, n2, strerror(e2));
		bad = 1;
	}

	/* From the disk: block 0 as written, the rest still unwritten. */
	posix_fadvise(fd, 0, NR_BLOCKS * bs, POSIX_FADV_DONTNEED);
	memset(buf, 0xee, NR_BLOCKS * bs);
	if (pread(fd, buf, NR_BLOCKS * bs, 0) != (ssize_t)(NR_BLOCKS * bs)) {
		perror("lb-batch-error: read back");
		return 2;
	}
	at = n == (ssize_t)bs ? first_not(buf, 0, bs, 0x55) : -1;
	if (at >= 0) {
		printf("lb-batch-error: FAIL: block 0 byte %ld is 0x%02x\n", at, buf[at]);
		bad = 1;
	}
	at = first_not(buf, bs, NR_BLOCKS * bs, 0);
	if (at >= 0) {
		printf("lb-batch-error: FAIL: byte %ld (block %ld) is 0x%02x, expected 0 (never written)\n",
		       at, at / (long)bs, buf[at]);
		bad = 1;
	}
	if (bad)
		return 1;
	if (w != 1) {
		printf("lb-batch-error: inconclusive: %ld fallback blocks written, expected 1\n", w);
		return 2;
	}
	printf("lb-batch-error: PASS\n");
	return 0;
}

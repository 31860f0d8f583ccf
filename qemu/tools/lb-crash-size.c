// SPDX-License-Identifier: GPL-2.0
/*
 * lb-crash-size FILE DEV MNT: issue 16 item 5. After a crash, the size of a file
 * written only by buffered writes must not cover data that never reached
 * the disk (no zeroes inside i_size: XFS updates the on-disk size at I/O
 * completion only).
 *
 * MNT is an XFS with blocks larger than a page (64 KiB) on DEV with an
 * internal log, FILE a new file on it. Four blocks of 0x61 are written
 * through the page cache (delalloc, nothing on the disk, on-disk size 0);
 * a fifth block of 0x62 is written with make-it-fail set (fail_page_alloc
 * as in stage3.sh: min-order 4, task-filter), so it goes through the
 * fallback's direct write, whose completion sets the on-disk size to five
 * blocks. Then the file system is shut down with the log flushed and no
 * data written (XFS_IOC_GOINGDOWN, LOGFLUSH: xfs_io "shutdown -f"), and
 * mounted again (log recovery). Before the fix, the file is five blocks
 * long and its first four blocks read as zeroes; after it, the first four
 * blocks were written back before the fallback's write, and all the data
 * within the recovered size is there.
 *
 * Exit 0: every byte within the recovered size is data that was written;
 * 1: zeroes (or other bytes) inside the size; 2: setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lb-util.h"

#define XFS_IOC_GOINGDOWN		_IOR('X', 125, uint32_t)
#define XFS_FSOP_GOING_FLAGS_LOGFLUSH	0x1	/* flush log but not data */

int main(int argc, char **argv)
{
	uint32_t how = XFS_FSOP_GOING_FLAGS_LOGFLUSH;
	unsigned char *buf;
	char *dir;
	struct statfs sfs;
	struct stat st;
	long w0, w;
	int fd, dfd;
	ssize_t n;
	size_t bs;
	off_t j;

	if (argc != 4) {
		fprintf(stderr, "usage: lb-crash-size FILE DEV MNT\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	dir = strdup(argv[1]);
	if (fd < 0 || !dir || fstatfs(fd, &sfs)) {
		perror("lb-crash-size: open");
		return 2;
	}
	bs = sfs.f_bsize;
	buf = malloc(5 * bs);
	if (bs <= 4096 || !buf) {
		fprintf(stderr, "lb-crash-size: block size %zu: needs blocks larger than a page\n", bs);
		return 2;
	}
	/* The empty file survives the crash. */
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || fsync(fd) || fsync(dfd)) {
		perror("lb-crash-size: fsync of the new file");
		return 2;
	}
	close(dfd);

	memset(buf, 0x61, 4 * bs);
	if (pwrite(fd, buf, 4 * bs, 0) != (ssize_t)(4 * bs)) {
		perror("lb-crash-size: buffered write of blocks 0-3");
		return 2;
	}
	memset(buf, 0x62, bs);
	w0 = vmstat("vfallback_io_write");
	if (set_fail(1))
		return 2;
	n = pwrite(fd, buf, bs, 4 * bs);
	set_fail(0);
	w = vmstat("vfallback_io_write") - w0;
	if (n != (ssize_t)bs || w0 < 0 || w <= 0) {
		printf("lb-crash-size: write of block 4: %zd, fallback writes %ld: not exercised\n",
		       n, w);
		return 2;
	}

	/* Crash: the log (with the size update) is on the disk, data is not. */
	if (ioctl(fd, XFS_IOC_GOINGDOWN, &how)) {
		perror("lb-crash-size: XFS_IOC_GOINGDOWN");
		return 2;
	}
	close(fd);
	if (umount2(argv[3], 0) || mount(argv[2], argv[3], "xfs", 0, NULL)) {
		perror("lb-crash-size: umount/mount (log recovery)");
		return 2;
	}

	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror("lb-crash-size: open after recovery");
		return 2;
	}
	if (st.st_size > (off_t)(5 * bs)) {
		printf("lb-crash-size: size %lld after recovery, more than written\n",
		       (long long)st.st_size);
		return 1;
	}
	n = st.st_size ? pread(fd, buf, st.st_size, 0) : 0;
	if (n != st.st_size) {
		perror("lb-crash-size: read after recovery");
		return 2;
	}
	for (j = 0; j < st.st_size; j++) {
		unsigned char want = j < (off_t)(4 * bs) ? 0x61 : 0x62;

		if (buf[j] != want) {
			printf("lb-crash-size: FAIL: size %lld after recovery, byte %lld is 0x%02x, expected 0x%02x: the on-disk size got ahead of the data\n",
			       (long long)st.st_size, (long long)j, buf[j], want);
			return 1;
		}
	}
	printf("lb-crash-size: PASS: size %lld after recovery, all data within it present\n",
	       (long long)st.st_size);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * shortwrite FILE BLOCKSIZE: a write(2) of one whole block from a buffer
 * whose second half is not mapped must not put anything but the caller's
 * bytes and the block's old bytes into the file.
 *
 * Fills block 1 of FILE with 0xaa (fsync), then writes it again from a
 * buffer of 0x55 whose second half is unmapped: the write may come back
 * short or fail with EFAULT, but reading the block back must give 0x55
 * for the bytes the write reported and 0xaa for all others. Built
 * statically by qemu/mkinitramfs.sh; run in the guest.
 * Exit 0: correct; 1: wrong data (printed); 2: setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t bs, i;
	unsigned char *buf, *back;
	ssize_t n;
	off_t pos;
	int fd;

	if (argc != 3 || (bs = strtoul(argv[2], NULL, 0)) < 8192 || bs % 4096) {
		fprintf(stderr, "usage: shortwrite FILE BLOCKSIZE (>= 8192, multiple of 4096)\n");
		return 2;
	}
	pos = bs;
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	buf = mmap(NULL, bs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	back = malloc(bs);
	if (fd < 0 || buf == MAP_FAILED || !back) {
		perror("shortwrite: setup");
		return 2;
	}
	memset(buf, 0xaa, bs);
	if (pwrite(fd, buf, bs, pos) != (ssize_t)bs || pwrite(fd, buf, bs, 2 * pos) != (ssize_t)bs ||
	    fsync(fd)) {
		perror("shortwrite: fill");
		return 2;
	}
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		fprintf(stderr, "shortwrite: fadvise failed (page cache kept)\n");
	memset(buf, 0x55, bs);
	if (munmap(buf + bs / 2, bs / 2)) {
		perror("shortwrite: munmap");
		return 2;
	}
	n = pwrite(fd, buf, bs, pos);
	printf("shortwrite: pwrite of %zu bytes from a half-mapped buffer: %zd (%s)\n",
	       bs, n, n < 0 ? strerror(errno) : "ok");
	if (n < 0)
		n = 0;
	if (fsync(fd) || pread(fd, back, bs, pos) != (ssize_t)bs) {
		perror("shortwrite: read back");
		return 2;
	}
	for (i = 0; i < bs; i++) {
		unsigned char want = i < (size_t)n ? 0x55 : 0xaa;

		if (back[i] != want) {
			printf("shortwrite: byte %zu of the block is 0x%02x, expected 0x%02x\n",
			       i, back[i], want);
			return 1;
		}
	}
	printf("shortwrite: block holds %zd new bytes and %zu old ones\n", n, bs - (size_t)n);
	return 0;
}

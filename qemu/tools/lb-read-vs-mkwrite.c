// SPDX-License-Identifier: GPL-2.0
/*
 * lb-read-vs-mkwrite FILE [SECONDS] [PAIRS]: issue 16 item 1. A fallback read() of a
 * hole must not fail with EIO while the hole is written through mmap.
 *
 * FILE is created on a file system with blocks larger than a page (XFS,
 * -b size=65536) as PAIRS holes of one block each. Per block, a reader
 * thread with make-it-fail set (fail_page_alloc configured as in
 * stage3.sh: min-order 4, task-filter, probability 100, times -1) reads
 * the block in a loop: its page cache folio cannot be allocated, so each
 * read goes through iomap_read_block_fallback() (direct I/O under the
 * invalidate_lock). A writer thread without make-it-fail punches the block
 * back into a hole (which drops its folio), waits a random moment and
 * stores one byte into it through a MAP_SHARED mapping: the fault creates
 * the folio and page_mkwrite() reserves delalloc blocks over the hole.
 * When that reservation lands between the direct read's writeback and its
 * iomap_iter(), iomap_dio_iter() finds IOMAP_DELALLOC and the read fails
 * with EIO ("Direct I/O collision with buffered writes!" in dmesg).
 *
 * The race is timing dependent: run it for 30 s or more. Exit 0: no EIO
 * and the fallback ran; 1: a read failed with EIO or returned data that
 * was never written; 2: setup error, or the fallback never ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lb-util.h"

static volatile int stop;
static int fd;
static size_t bs;
static unsigned char *map;
static long eio_count, bad_data, other_err, reads, rounds;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* make-it-fail of the calling thread only (fail_page_alloc task filter). */
static void *reader(void *arg)
{
	long blk = (long)arg;
	unsigned char *buf = malloc(bs);
	size_t i;
	ssize_t n;
	int err;

	if (!buf || set_fail(1)) {
		fprintf(stderr, "lb-read-vs-mkwrite: reader setup failed\n");
		pthread_mutex_lock(&lock);
		other_err++;
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	while (!stop) {
		n = pread(fd, buf, bs, blk * bs);
		err = errno;
		pthread_mutex_lock(&lock);
		reads++;
		if (n < 0 && err == EIO) {
			if (!eio_count)
				printf("lb-read-vs-mkwrite: pread of block %ld: EIO\n", blk);
			eio_count++;
		} else if (n < 0) {
			if (!other_err)
				printf("lb-read-vs-mkwrite: pread of block %ld: %s\n", blk,
				       strerror(err));
			other_err++;
		} else {
			for (i = 0; i < (size_t)n; i++) {
				if (buf[i] && buf[i] != 0x5a) {
					if (!bad_data)
						printf("lb-read-vs-mkwrite: block %ld byte %zu is 0x%02x\n",
						       blk, i, buf[i]);
					bad_data++;
					break;
				}
			}
		}
		pthread_mutex_unlock(&lock);
	}
	free(buf);
	return NULL;
}

static void *writer(void *arg)
{
	long blk = (long)arg;
	unsigned int seed = (unsigned int)blk * 7919 + 1;
	volatile unsigned long spin;
	unsigned long n, k = 0;

	while (!stop) {
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      blk * bs, bs)) {
			perror("lb-read-vs-mkwrite: punch hole");
			stop = 1;
			break;
		}
		/* Let the reader run a few fallback reads, a random while. */
		n = rand_r(&seed) % 200000;
		for (spin = 0; spin < n; spin++)
			;
		map[blk * bs + (k++ % bs)] = 0x5a;
		pthread_mutex_lock(&lock);
		rounds++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int seconds = argc > 2 ? atoi(argv[2]) : 30;
	long pairs = argc > 3 ? atol(argv[3]) : 2, i;
	pthread_t *tids;
	struct statfs sfs;
	long r0, r;

	if (argc < 2 || seconds <= 0 || pairs <= 0 || pairs > 64) {
		fprintf(stderr, "usage: lb-read-vs-mkwrite FILE [SECONDS] [PAIRS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		perror("lb-read-vs-mkwrite: open");
		return 2;
	}
	bs = sfs.f_bsize;
	if (bs <= 4096) {
		fprintf(stderr, "lb-read-vs-mkwrite: block size %zu: needs blocks larger than a page\n", bs);
		return 2;
	}
	if (ftruncate(fd, pairs * bs)) {
		perror("lb-read-vs-mkwrite: ftruncate");
		return 2;
	}
	map = mmap(NULL, pairs * bs, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	tids = calloc(2 * pairs, sizeof(*tids));
	if (map == MAP_FAILED || !tids) {
		perror("lb-read-vs-mkwrite: mmap");
		return 2;
	}
	r0 = vmstat("vfallback_io_read");
	for (i = 0; i < pairs; i++) {
		if (pthread_create(&tids[2 * i], NULL, reader, (void *)i) ||
		    pthread_create(&tids[2 * i + 1], NULL, writer, (void *)i)) {
			fprintf(stderr, "lb-read-vs-mkwrite: pthread_create failed\n");
			return 2;
		}
	}
	sleep(seconds);
	stop = 1;
	for (i = 0; i < 2 * pairs; i++)
		pthread_join(tids[i], NULL);
	r = vmstat("vfallback_io_read") - r0;
	printf("lb-read-vs-mkwrite: %ld reads (%ld through the fallback), %ld mmap rounds: %ld EIO, %ld bad data, %ld other errors\n",
	       reads, r, rounds, eio_count, bad_data, other_err);
	if (eio_count || bad_data)
		return 1;
	if (other_err || r0 < 0 || r <= 0) {
		printf("lb-read-vs-mkwrite: inconclusive (fallback not exercised or setup error)\n");
		return 2;
	}
	return 0;
}

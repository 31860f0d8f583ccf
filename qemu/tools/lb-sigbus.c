// SPDX-License-Identifier: GPL-2.0
/*
 * lb-sigbus FILE BYTES DIRECTFILE: the defined failure of a page fault on a
 * large-block file (issue 17). Maps BYTES of FILE shared, locks the
 * mapping on fault (mlock2(MLOCK_ONFAULT): the folios cannot be evicted
 * to refill the large-block reserve) and reads one byte of every 64 KiB
 * block in order, with every block of at least 64 KiB forced to fail in
 * the allocator (fail_page_alloc): once the reserve is spent, a fault
 * must end with SIGBUS in bounded time, not be retried forever.
 * Then an O_DIRECT write to DIRECTFILE from the block that failed (get_user_pages()
 * on it) must fail with EFAULT.
 *
 * Prints "blocks=N sigbus=0|1 sigbus_ms=T max_ok_ms=T direct_errno=E"
 * and exits 0; 1 on a setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lb-util.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#define BLOCK 65536UL

static sigjmp_buf env;

static void on_sigbus(int sig)
{
	siglongjmp(env, 1);
}

int main(int argc, char **argv)
{
	volatile unsigned long i = 0;
	volatile double max_ok = 0, t0 = 0;
	volatile int got = 0;
	unsigned long bytes, nblocks;
	struct sigaction sa;
	char *map;
	int fd, dfd, derr = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: lb-sigbus FILE BYTES DIRECTFILE\n");
		return 1;
	}
	bytes = strtoul(argv[2], NULL, 0);
	nblocks = bytes / BLOCK;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || !nblocks) {
		perror("lb-sigbus: open");
		return 1;
	}
	map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("lb-sigbus: mmap");
		return 1;
	}
	if (syscall(SYS_mlock2, map, bytes, MLOCK_ONFAULT)) {
		perror("lb-sigbus: mlock2(MLOCK_ONFAULT)");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);

	if (sigsetjmp(env, 1) == 0) {
		for (i = 0; i < nblocks; i++) {
			double d;

			t0 = now_ms();
			(void)*(volatile char *)(map + i * BLOCK);
			d = now_ms() - t0;
			if (d > max_ok)
				max_ok = d;
		}
	} else {
		got = 1;
	}
	printf("blocks=%lu sigbus=%d sigbus_ms=%.0f max_ok_ms=%.0f", i, got,
	       got ? now_ms() - t0 : 0.0, max_ok);

	/* get_user_pages() on the block that failed: EFAULT, not a hang. */
	dfd = open(argv[3], O_WRONLY | O_CREAT | O_DIRECT, 0644);
	if (got && dfd >= 0 && write(dfd, map + i * BLOCK, 4096) < 0)
		derr = errno;
	printf(" direct_errno=%d\n", derr);
	return 0;
}

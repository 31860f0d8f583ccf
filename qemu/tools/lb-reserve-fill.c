// SPDX-License-Identifier: GPL-2.0
/*
 * lb-reserve-fill FILE BLOCKS:
 * The large-block reserve fills from the page allocator when memory has a
 * ZONE_MOVABLE (a boot with movablecore= or kernelcore=).
 *
 * lb_reserve_fill() allocates blocks and frees them at once for
 * __lb_reserve_catch() to keep; the catch refuses blocks of ZONE_MOVABLE.
 * Allocated with GFP_HIGHUSER_MOVABLE, the zonelist tries ZONE_MOVABLE
 * first: the first block comes from there, is refused, and the fill stops
 * ("not caught: stop here"), at boot (lb_reserve=, or the first large-block
 * mount) and in the refill worker after every take.
 *
 *  1. The reserve must be full (pages == target in
 *     /sys/kernel/debug/lb_reserve) within 10 s: the fill at boot or mount.
 *  2. BLOCKS blocks of FILE (cold, on XFS with 64 KiB blocks) are read
 *     through a shared mapping by this task with make-it-fail set
 *     (fail_page_alloc: min-order 4, task-filter): the allocator fails the
 *     faults, the reserve serves them (lb_reserve_take), and every take
 *     starts the refill worker, which does not fail.
 *  3. The reserve must be full again within 15 s.
 *
 * Exit 0: full at the start and refilled; 1: it did not fill, or did not
 * refill, from the allocator; 2: setup error: no ZONE_MOVABLE with present
 * pages (boot with movablecore=), no reserve, or the faults did not take
 * the reserve.
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
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lb-util.h"

static sigjmp_buf env;

static void on_sigbus(int sig)
{
	siglongjmp(env, 1);
}

/* Present and free pages of ZONE_MOVABLE, all nodes. */
static void movable_zone(long *present, long *nfree)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256], zone[32];
	int movable = 0, nid;
	long v;

	*present = *nfree = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &nid, zone) == 2) {
			movable = !strcmp(zone, "Movable");
			continue;
		}
		if (!movable)
			continue;
		if (sscanf(line, " pages free %ld", &v) == 1)
			*nfree += v;
		else if (sscanf(line, " present %ld", &v) == 1)
			*present += v;
	}
	fclose(f);
}

/* The reserve's target and pages, over all nodes; 0 when it is off. */
static int reserve(long *target, long *pages)
{
	FILE *f = fopen("/sys/kernel/debug/lb_reserve", "r");
	unsigned long t, p;
	char line[512];
	int nid, nodes = 0;

	*target = *pages = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "node %d target %lu pages %lu", &nid, &t, &p) == 3) {
			*target += t;
			*pages += p;
			nodes++;
		}
	}
	fclose(f);
	return nodes;
}

/* Wait up to SECS for the reserve to be full; returns 1 if it is. */
static int wait_full(int secs, long *target, long *pages)
{
	int i;

	for (i = 0; i <= secs * 10; i++) {
		if (!reserve(target, pages))
			return 0;
		if (*target && *pages >= *target)
			return 1;
		usleep(100000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long nblk = argc > 2 ? atol(argv[2]) : 32, present, nfree, target, pages;
	long take0, catch0, rfail0, takes;
	volatile long i = 0;
	struct sigaction sa;
	struct statfs sfs;
	struct stat st;
	size_t bs;
	char *map;
	int fd;

	if (argc < 2 || nblk <= 0) {
		fprintf(stderr, "usage: lb-reserve-fill FILE [BLOCKS]\n");
		return 2;
	}
	movable_zone(&present, &nfree);
	if (!present) {
		printf("lb-reserve-fill: inconclusive: no ZONE_MOVABLE with present pages (boot with movablecore=)\n");
		return 2;
	}
	if (!reserve(&target, &pages) || !target) {
		printf("lb-reserve-fill: inconclusive: the large-block reserve is off\n");
		return 2;
	}

	/* 1. Filled at boot or at the mount. */
	if (!wait_full(10, &target, &pages)) {
		printf("lb-reserve-fill: the reserve holds %ld of %ld pages: it did not fill from the allocator (ZONE_MOVABLE: %ld pages present, %ld free)\n",
		       pages, target, present, nfree);
		return 1;
	}

	/* 2. Takes: faults that the allocator fails for this task. */
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || fstatfs(fd, &sfs)) {
		perror("lb-reserve-fill: open");
		return 2;
	}
	bs = sfs.f_bsize;
	if (bs <= 4096 || st.st_size < (off_t)(nblk * bs) ||
	    nblk * (long)(bs / 4096) > target) {
		fprintf(stderr, "lb-reserve-fill: needs large blocks and a file of %ld blocks, no more than the reserve\n",
			nblk);
		return 2;
	}
	map = mmap(NULL, nblk * bs, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("lb-reserve-fill: mmap");
		return 2;
	}
	madvise(map, nblk * bs, MADV_RANDOM);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);
	take0 = vmstat("lb_reserve_take");
	catch0 = vmstat("lb_reserve_catch");
	rfail0 = vmstat("lb_reserve_refill_fail");
	if (set_fail(1))
		return 2;
	if (sigsetjmp(env, 1) == 0) {
		for (i = 0; i < nblk; i++)
			(void)*(volatile char *)(map + i * bs);
	}
	set_fail(0);
	takes = vmstat("lb_reserve_take") - take0;
	if (i < nblk || takes < nblk) {
		printf("lb-reserve-fill: inconclusive: %ld of %ld faults, %ld takes from the reserve\n",
		       i, nblk, takes);
		return 2;
	}

	/* 3. Refilled by the worker, from the allocator. */
	if (!wait_full(15, &target, &pages)) {
		printf("lb-reserve-fill: after %ld takes the reserve holds %ld of %ld pages 15 s later: the refill stopped (lb_reserve_catch +%ld, lb_reserve_refill_fail +%ld; ZONE_MOVABLE %ld pages present, %ld free)\n",
		       takes, pages, target, vmstat("lb_reserve_catch") - catch0,
		       vmstat("lb_reserve_refill_fail") - rfail0, present, nfree);
		return 1;
	}
	printf("lb-reserve-fill: full at the start and again after %ld takes (lb_reserve_catch +%ld; ZONE_MOVABLE %ld pages present)\n",
	       takes, vmstat("lb_reserve_catch") - catch0, present);
	munmap(map, nblk * bs);
	close(fd);
	return 0;
}

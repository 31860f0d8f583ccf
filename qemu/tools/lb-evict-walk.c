// SPDX-License-Identifier: GPL-2.0
/*
 * lb-evict-walk DIR NFILES: a
 * page fault that finds the large-block reserve empty and nothing to evict
 * in its own file evicts clean large-block folios of other files of the
 * file system (filemap_evict_minorder_sb()), wherever their inodes are in
 * the super block's list: new inodes go to its head (inode_sb_list_add()).
 *
 * Run with every allocation of order >= 4 failing (lbfault.sh's force 1),
 * so that the reserve is the only source of blocks. DIR, on XFS with
 * 64 KiB blocks freshly mounted, holds two cold files that the scenario
 * wrote, "cached" and "target", each at least as large as the reserve.
 * With B the reserve's blocks when the tool starts:
 *  1. B/2 blocks of "cached" are read through a shared mapping: the faults
 *     take them from the reserve; after munmap() they stay in the page
 *     cache, clean and unmapped (evictable);
 *  2. NFILES empty files are created in DIR/empty: their inodes go to the
 *     head of s_inodes, ahead of "cached", and none has a cached page;
 *  3. 3B/4 blocks of "target" are read through a mapping locked on fault
 *     (MLOCK_ONFAULT: its own folios cannot be evicted): the first B/2
 *     come from the reserve, the last B/4 need "cached" to be evicted.
 * Before the fix the walk of the other files stops after 1024 inodes, all
 * of them the empty files, and the first fault that needs eviction ends
 * with SIGBUS after its wait (about 1 s per attempt).
 *
 * Exit 0: every block of step 3 faulted in; 1: SIGBUS in step 3; 2: setup
 * error (no reserve, files too small, SIGBUS already in step 1).
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
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "lb-util.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

static sigjmp_buf env;

static void on_sigbus(int sig)
{
	siglongjmp(env, 1);
}

/* The reserve's pages now, over all nodes; -1 when it is off or absent. */
static long reserve_pages(void)
{
	FILE *f = fopen("/sys/kernel/debug/lb_reserve", "r");
	unsigned long target, pages;
	long sum = -1;
	char line[512];
	int nid;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "node %d target %lu pages %lu", &nid, &target,
			   &pages) == 3)
			sum = (sum < 0 ? 0 : sum) + pages;
	fclose(f);
	return sum;
}

/*
 * Read one byte of each of NBLK blocks of FILE through a shared mapping
 * (locked on fault if LOCK). Returns the blocks read before a SIGBUS, or
 * NBLK; *MS: the time of the fault that ended with SIGBUS.
 */
static long fault_blocks(const char *file, size_t bs, long nblk, int lock,
			 double *ms)
{
	volatile long i = 0;
	volatile double t0 = 0;
	struct stat st;
	char *map;
	int fd;

	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)(nblk * bs)) {
		fprintf(stderr, "lb-evict-walk: %s: missing or smaller than %ld blocks\n",
			file, nblk);
		exit(2);
	}
	map = mmap(NULL, nblk * bs, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("lb-evict-walk: mmap");
		exit(2);
	}
	madvise(map, nblk * bs, MADV_RANDOM);	/* one block per fault */
	if (lock && syscall(SYS_mlock2, map, nblk * bs, MLOCK_ONFAULT)) {
		perror("lb-evict-walk: mlock2(MLOCK_ONFAULT)");
		exit(2);
	}
	*ms = 0;
	if (sigsetjmp(env, 1) == 0) {
		for (i = 0; i < nblk; i++) {
			t0 = now_ms();
			(void)*(volatile char *)(map + i * bs);
		}
	} else {
		*ms = now_ms() - t0;
	}
	if (lock)
		munlock(map, nblk * bs);
	munmap(map, nblk * bs);
	close(fd);
	return i;
}

int main(int argc, char **argv)
{
	long nfiles = argc > 2 ? atol(argv[2]) : 3000, pages, blocks, c, t, got, n;
	long e0, k0, s0;
	char path[4096];
	struct sigaction sa;
	struct statfs sfs;
	double ms, t0;
	size_t bs;

	if (argc < 2 || nfiles < 0) {
		fprintf(stderr, "usage: lb-evict-walk DIR [NFILES]\n");
		return 2;
	}
	if (statfs(argv[1], &sfs)) {
		perror("lb-evict-walk: statfs");
		return 2;
	}
	bs = sfs.f_bsize;
	pages = reserve_pages();
	if (bs <= 4096 || pages <= 0) {
		fprintf(stderr, "lb-evict-walk: block size %zu, reserve %ld pages: needs large blocks and a reserve\n",
			bs, pages);
		return 2;
	}
	blocks = pages / (bs / 4096);
	c = blocks / 2;
	t = c + c / 2;
	if (c < 8) {
		fprintf(stderr, "lb-evict-walk: the reserve holds %ld blocks: too few\n", blocks);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);
	alarm(290);	/* under lbfault.sh's timeout -s KILL 300 */

	/* 1. Cached, clean, unmapped folios of another file. */
	snprintf(path, sizeof(path), "%s/cached", argv[1]);
	got = fault_blocks(path, bs, c, 0, &ms);
	if (got < c) {
		printf("lb-evict-walk: inconclusive: SIGBUS at block %ld of %ld of 'cached' (the reserve had %ld blocks)\n",
		       got, c, blocks);
		return 2;
	}

	/* 2. Inodes ahead of it in s_inodes, none of them a candidate. */
	snprintf(path, sizeof(path), "%s/empty", argv[1]);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror("lb-evict-walk: mkdir");
		return 2;
	}
	t0 = now_ms();
	for (n = 0; n < nfiles; n++) {
		int f;

		snprintf(path, sizeof(path), "%s/empty/e%06ld", argv[1], n);
		f = open(path, O_CREAT | O_WRONLY, 0644);
		if (f < 0) {
			fprintf(stderr, "lb-evict-walk: create %s: %s\n", path, strerror(errno));
			return 2;
		}
		close(f);
	}
	printf("lb-evict-walk: %ld empty files created in %.0f ms; reserve now %ld pages\n",
	       nfiles, now_ms() - t0, reserve_pages());

	/* 3. Faults that need the folios of "cached" once the reserve is out. */
	e0 = vmstat("minorder_alloc_evict");
	k0 = vmstat("lb_reserve_catch");
	s0 = vmstat("minorder_fault_sigbus");
	snprintf(path, sizeof(path), "%s/target", argv[1]);
	got = fault_blocks(path, bs, t, 1, &ms);
	printf("lb-evict-walk: target: %ld of %ld blocks faulted in%s (reserve %ld blocks at the start, 'cached' %ld); minorder_alloc_evict +%ld, lb_reserve_catch +%ld, minorder_fault_sigbus +%ld\n",
	       got, t, got < t ? ", then SIGBUS" : "", blocks, c,
	       vmstat("minorder_alloc_evict") - e0, vmstat("lb_reserve_catch") - k0,
	       vmstat("minorder_fault_sigbus") - s0);
	if (got < t) {
		printf("lb-evict-walk: the fault of block %ld ended with SIGBUS after %.0f ms although 'cached' holds clean folios behind %ld newer inodes\n",
		       got, ms, nfiles);
		return 1;
	}
	return 0;
}

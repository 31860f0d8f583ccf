// SPDX-License-Identifier: GPL-2.0
/*
 * lb-pageout FILE BLOCK: madvise(MADV_PAGEOUT) over one block of a page
 * cache folio that spans several blocks of a large-block file.
 *
 * FILE must be cached already (read it first, so that readahead made
 * folios larger than a block). The file is mapped shared and read through
 * the mapping; /proc/self/pagemap and /proc/kpageflags find folios that
 * start at a multiple of 2*BLOCK and go on past BLOCK (a compound head at
 * the offset, a tail of the same compound one block further). For each,
 * the first block is paged out; kpageflags then tells whether the folio was
 * split to the block size (the second block is a compound head of its
 * own) or left whole (still a tail: the split to order 0 was refused, as
 * on a kernel whose split_folio() ignores the mapping's minimum order),
 * and mincore() whether the first block was paged out (counted, not
 * required: reclaim may keep it). The data is compared with a read() of
 * the file afterwards.
 *
 * Prints "large N split M whole W paged P"; exit 0 if N > 0 and M == N
 * and the data matches, 1 otherwise, 2 on a setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define PM_PRESENT		(1ULL << 63)
#define PM_PFN			((1ULL << 55) - 1)

static int pagemap_fd, kflags_fd;

static uint64_t pfn_of(void *addr)
{
	uint64_t e;
	off_t off = (uintptr_t)addr / 4096 * 8;

	if (pread(pagemap_fd, &e, 8, off) != 8 || !(e & PM_PRESENT))
		return 0;
	return e & PM_PFN;
}

static uint64_t kflags(uint64_t pfn)
{
	uint64_t f;

	if (pread(kflags_fd, &f, 8, pfn * 8) != 8)
		return 0;
	return f;
}

int main(int argc, char **argv)
{
	long bs, pages, i;
	long large = 0, split = 0, whole = 0, paged = 0;
	unsigned char *vec, *buf;
	volatile unsigned char sink = 0;
	struct stat st;
	char *map;
	int fd;
	off_t o;

	if (argc != 3) {
		fprintf(stderr, "usage: lb-pageout FILE BLOCK\n");
		return 2;
	}
	bs = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	kflags_fd = open("/proc/kpageflags", O_RDONLY);
	if (fd < 0 || pagemap_fd < 0 || kflags_fd < 0 || fstat(fd, &st) ||
	    bs < 8192 || st.st_size < 2 * bs) {
		fprintf(stderr, "lb-pageout: cannot set up (%s): file, /proc/self/pagemap, /proc/kpageflags (CONFIG_PROC_PAGE_MONITOR), block >= 8192, file >= 2 blocks\n",
			strerror(errno));
		return 2;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("lb-pageout: mmap");
		return 2;
	}
	for (o = 0; o < st.st_size; o += 4096)
		sink += map[o];
	pages = st.st_size / 4096;
	vec = malloc(pages);
	buf = malloc(bs);
	if (!vec || !buf)
		return 2;
	for (o = 0; o + 2 * bs <= st.st_size; o += 2 * bs) {
		uint64_t p0 = pfn_of(map + o), p1 = pfn_of(map + o + bs);
		long first = 0, second = 0;

		if (!p0 || !p1 || p1 != p0 + bs / 4096 ||
		    !(kflags(p0) & (1ULL << KPF_COMPOUND_HEAD)) ||
		    !(kflags(p1) & (1ULL << KPF_COMPOUND_TAIL)))
			continue;
		large++;
		if (madvise(map + o, bs, MADV_PAGEOUT)) {
			perror("lb-pageout: madvise(MADV_PAGEOUT)");
			return 2;
		}
		if (mincore(map + o, 2 * bs, vec)) {
			perror("lb-pageout: mincore");
			return 2;
		}
		for (i = 0; i < bs / 4096; i++) {
			first += vec[i] & 1;
			second += vec[bs / 4096 + i] & 1;
		}
		/*
		 * Split: the second block is a folio of its own now (a
		 * compound head), or the first went away while the second
		 * stayed. Whole: still a tail of the same folio.
		 */
		if (first == 0 && second == bs / 4096)
			paged++;
		if ((kflags(p1) & (1ULL << KPF_COMPOUND_HEAD)) ||
		    (first == 0 && second == bs / 4096))
			split++;
		else if (kflags(p1) & (1ULL << KPF_COMPOUND_TAIL))
			whole++;
	}
	/* The data, through the mapping (faulted back in) and read(). */
	for (o = 0; o < st.st_size; o += bs) {
		if (pread(fd, buf, bs, o) != bs || memcmp(buf, map + o, bs)) {
			printf("large %ld split %ld whole %ld paged %ld: data differs at %lld\n",
			       large, split, whole, paged, (long long)o);
			return 1;
		}
	}
	printf("large %ld split %ld whole %ld paged %ld\n", large, split,
	       whole, paged);
	(void)sink;
	return large > 0 && split == large ? 0 : 1;
}

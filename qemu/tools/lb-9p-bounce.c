// SPDX-License-Identifier: GPL-2.0
/*
 * lb-9p-bounce phys|virt FILE [BLOCKS]:
 *
 * The large-block fallback hands every page of its bounce buffer to its
 * direct I/O as a bio_vec of its own. A layer below that takes references
 * on the pages it is handed must find them referenceable. FILE is on XFS
 * with 64 KiB blocks on a loop device whose backing file lives on the 9p
 * share (/results: trans=virtio, no cache= option, so cache=none and every
 * fid P9L_DIRECT): loop passes the request's bio_vecs to 9p's
 * read_iter/write_iter (lo_rw_aio()), netfs' unbuffered path keeps the
 * bvec iterator (not user-backed), and trans_virtio's zero-copy path
 * (p9_client_read_once()/p9_client_write*(), more than 1024 bytes) calls
 * iov_iter_get_pages_alloc2(), which does get_page() on every page, and
 * put_page() when the request is done (p9_release_pages()).
 *
 * phys: the scenario fails the task's page cache folios (fail_minorder_folio)
 *   and its bounce buffers (fail_fallback_bounce), both with task-filter:
 *   every fallback takes a block of the mount's pool, a physical block
 *   allocated at mount. Before the fix it is not compound: its tail pages
 *   have a reference count of 0. get_page() on one is a VM_BUG_ON under
 *   CONFIG_DEBUG_VM (the loop worker dies, the I/O never completes), else
 *   0 -> 1, and 9p's put_page() then frees the tail page to the allocator
 *   while the pool still holds the block.
 * virt: the scenario fails every allocation of order >= 4 of the task
 *   (fail_page_alloc, task-filter, as fail_folios in lbrace.sh): the bounce
 *   buffer is a virtual compound, whose tail pages are frozen at 0:
 *   VM_BUG_ON again, or vfallback_release()'s warning when 9p drops its
 *   reference (WARN_ON_ONCE: the first such put of the boot).
 *
 * Each fallback I/O runs in a child process with make-it-fail set, bounded
 * in time. After each, a trace instance is read: mm_page_free (order 0)
 * and 9p's TREAD/TWRITE requests are recorded with their stacks (option
 * stacktrace). A page freed by a put_page() in 9p's call chain (frames
 * __folio_put and p9_*; not a slab page that 9p's kfree() released) is a
 * page 9p only borrowed and that nobody else held: the defect. /dev/kmsg must show no new BUG,
 * WARNING, "Bad page state"; the data read must be the file's and the data
 * written must read back. For the test to count, the I/O must have taken
 * the fallback with a buffer of the mode's kind (iomap:iomap_fallback_io,
 * "physical buffer" or "virtual buffer") and 9p's zero-copy path from the
 * loop worker (9p:9p_client_req with p9_client_zc_rpc and a loop frame).
 *
 * Exit 0: right; 1: the defect showed (a page freed by 9p, a kernel report,
 * wrong data, an I/O error or an I/O that did not return in IO_SECS);
 * 2: setup failed, or the fallback or 9p's zero-copy path was not taken.
 * After exit 1 the scenario must not unmount the file system: in mode phys
 * the pool still holds pages that are free, and a debug kernel leaves the
 * loop worker dead with the I/O in flight.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lb-util.h"

#define IO_SECS		60	/* one 64 KiB fallback I/O over 9p, under TCG */
#define INSTANCE	"lb9p"

static char ti[256];		/* the trace instance's directory */
static int kmsg = -1;
static int fd;
static size_t bs;
static int virt;

struct counts {
	long p9_frees;		/* order-0 pages freed from 9p's zero-copy path */
	long zc_loop;		/* 9p zero-copy requests from the loop worker */
	long fb_phys, fb_virt;	/* fallback direct I/Os, by bounce buffer kind */
};

static unsigned char pat(long long pos, int seed)
{
	/* Every page of a block differs: a tail page read wrong shows. */
	return (unsigned char)(pos / 4096 * 37 + pos % 253 + seed * 101);
}

static int wr(const char *dir, const char *file, const char *val)
{
	char path[512];
	int f, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = open(path, O_WRONLY | O_TRUNC);
	if (f < 0) {
		fprintf(stderr, "lb-9p-bounce: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (write(f, val, strlen(val)) != (ssize_t)strlen(val)) {
		fprintf(stderr, "lb-9p-bounce: write '%s' to %s: %s\n", val, path,
			strerror(errno));
		ret = -1;
	}
	close(f);
	return ret;
}

static int trace_setup(void)
{
	const char *tr = "/sys/kernel/tracing";
	char path[300];

	if (access("/sys/kernel/tracing/instances", F_OK))
		tr = "/sys/kernel/debug/tracing";
	snprintf(ti, sizeof(ti), "%s/instances/%s", tr, INSTANCE);
	rmdir(ti);	/* left over by an earlier run */
	if (mkdir(ti, 0755)) {
		fprintf(stderr, "lb-9p-bounce: mkdir %s: %s\n", ti, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/9p/9p_client_req", ti);
	if (access(path, F_OK)) {
		fprintf(stderr, "lb-9p-bounce: no event 9p:9p_client_req\n");
		return -1;
	}
	if (wr(ti, "buffer_size_kb", "4096") ||
	    wr(ti, "options/stacktrace", "1") ||
	    wr(ti, "events/kmem/mm_page_free/filter", "order == 0") ||
	    wr(ti, "events/kmem/mm_page_free/enable", "1") ||
	    wr(ti, "events/9p/9p_client_req/filter", "type == 116 || type == 118") ||
	    wr(ti, "events/9p/9p_client_req/enable", "1") ||
	    wr(ti, "events/iomap/iomap_fallback_io/enable", "1") ||
	    wr(ti, "trace", "") || wr(ti, "tracing_on", "1"))
		return -1;
	return 0;
}

static void trace_teardown(void)
{
	wr(ti, "tracing_on", "0");
	wr(ti, "events/enable", "0");
	wr(ti, "options/stacktrace", "0");
	rmdir(ti);
}

enum ev { EV_NONE, EV_FREE, EV_REQ };

/* One per-CPU buffer: each event's stack follows it there, uninterleaved. */
static void scan_cpu(const char *path, struct counts *c)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	enum ev ev = EV_NONE;
	int p9 = 0, put = 0, zc = 0, loop = 0, stack = 0;

	if (!f)
		return;
	for (;;) {
		char *l = fgets(line, sizeof(line), f);

		if (l && line[0] == '#')
			continue;
		if (l && strstr(line, "<stack trace>")) {
			stack = 1;
			continue;
		}
		if (l && stack && !strncmp(line, " => ", 4)) {
			if (strstr(line, "p9_"))
				p9 = 1;
			if (strstr(line, "__folio_put"))
				put = 1;
			if (strstr(line, "p9_client_zc_rpc"))
				zc = 1;
			if (strstr(line, "lo_rw_aio") || strstr(line, "loop_"))
				loop = 1;
			continue;
		}
		/* An event line, or the end: the previous event is complete. */
		if (ev == EV_FREE && p9 && put)
			c->p9_frees++;
		if (ev == EV_REQ && zc && loop)
			c->zc_loop++;
		if (!l)
			break;
		ev = EV_NONE;
		p9 = put = zc = loop = stack = 0;
		if (strstr(line, "mm_page_free:"))
			ev = EV_FREE;
		else if (strstr(line, "9p_client_req:"))
			ev = EV_REQ;
		else if (strstr(line, "iomap_fallback_io:")) {
			if (strstr(line, "physical buffer"))
				c->fb_phys++;
			else if (strstr(line, "virtual buffer"))
				c->fb_virt++;
		}
	}
	fclose(f);
}

static void trace_scan(struct counts *c)
{
	char dir[300], path[600];
	struct dirent *de;
	DIR *d;

	memset(c, 0, sizeof(*c));
	snprintf(dir, sizeof(dir), "%s/per_cpu", ti);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/trace", dir, de->d_name);
		scan_cpu(path, c);
	}
	closedir(d);
}

/* New kernel reports since the start: count them, print the first ones. */
static int kmsg_scan(void)
{
	static const char *const bad[] = {
		"BUG:", "kernel BUG", "WARNING:", "Bad page state",
		"VM_BUG_ON", "page dumped because", "vfallback: ",
	};
	char rec[8192];
	int found = 0;
	ssize_t n;
	size_t i;

	if (kmsg < 0)
		return 0;
	for (;;) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *msg = strchr(rec, ';');

			if (msg && strstr(msg, bad[i])) {
				if (found++ < 3)
					printf("lb-9p-bounce: kernel: %s", msg + 1);
				break;
			}
		}
	}
	return found;
}

/*
 * One fallback I/O of block BLK in a child with make-it-fail set: a read
 * (checked against SEED) or a write (of SEED). Returns the child's status
 * (0 right, 2 setup, 3 I/O error, 4 wrong data), or -1 if it did not
 * return within IO_SECS (it is left behind: it may sleep uninterruptibly).
 */
static int run_io(int write_, long blk, int seed)
{
	int status, i;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		unsigned char *buf = malloc(bs);
		long long pos = (long long)blk * bs;
		ssize_t n;
		size_t j;

		if (!buf || set_fail(1))
			_exit(2);
		if (write_) {
			for (j = 0; j < bs; j++)
				buf[j] = pat(pos + j, seed);
			n = pwrite(fd, buf, bs, pos);
		} else {
			n = pread(fd, buf, bs, pos);
		}
		set_fail(0);
		if (n != (ssize_t)bs) {
			printf("lb-9p-bounce: %s of block %ld: %zd (%s)\n",
			       write_ ? "pwrite" : "pread", blk, n,
			       n < 0 ? strerror(errno) : "short");
			_exit(3);
		}
		for (j = 0; !write_ && j < bs; j++) {
			if (buf[j] != pat(pos + j, seed)) {
				printf("lb-9p-bounce: block %ld byte %zu (page %zu) is 0x%02x, expected 0x%02x\n",
				       blk, j, j / 4096, buf[j], pat(pos + j, seed));
				_exit(4);
			}
		}
		_exit(0);
	}
	for (i = 0; i < IO_SECS * 20; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
		usleep(50000);
	}
	printf("lb-9p-bounce: the %s of block %ld did not return in %d s (a kernel BUG in the loop worker? see the console)\n",
	       write_ ? "write" : "read", blk, IO_SECS);
	return -1;
}

/* After each I/O: 1 if the defect showed, 0 if not. */
static int judge(const char *what, int rc)
{
	struct counts c;
	int splats = kmsg_scan();

	trace_scan(&c);
	if (rc < 0)
		return 1;
	if (c.p9_frees) {
		printf("lb-9p-bounce: %s: 9p's zero-copy path freed %ld order-0 pages: tail pages of the bounce buffer it had borrowed\n",
		       what, c.p9_frees);
		return 1;
	}
	if (splats) {
		printf("lb-9p-bounce: %s: %d kernel report(s)\n", what, splats);
		return 1;
	}
	if (rc == 3 || rc == 4)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	long nblk = argc > 3 ? atol(argv[3]) : 4, b;
	unsigned char *buf;
	struct statfs sfs;
	struct counts c;
	char what[64];
	size_t j;
	int rc;

	if (argc < 3 || (strcmp(argv[1], "phys") && strcmp(argv[1], "virt")) ||
	    nblk < 1 || nblk > 16) {
		fprintf(stderr, "usage: lb-9p-bounce phys|virt FILE [BLOCKS (1-16)]\n");
		return 2;
	}
	virt = !strcmp(argv[1], "virt");
	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC | O_NOATIME, 0644);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		perror("lb-9p-bounce: open");
		return 2;
	}
	bs = sfs.f_bsize;
	buf = malloc(nblk * bs);
	if (bs <= 4096 || !buf) {
		fprintf(stderr, "lb-9p-bounce: block size %zu: needs blocks larger than a page\n", bs);
		return 2;
	}
	/* The file's data on the disk (over 9p), nothing cached. */
	for (j = 0; j < nblk * bs; j++)
		buf[j] = pat(j, 1);
	if (pwrite(fd, buf, nblk * bs, 0) != (ssize_t)(nblk * bs) || fsync(fd)) {
		perror("lb-9p-bounce: fill");
		return 2;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	if (trace_setup()) {
		trace_teardown();
		return 2;
	}

	/* Reads, block by block: each one fallback direct read. */
	for (b = 0; b < nblk; b++) {
		snprintf(what, sizeof(what), "read of block %ld", b);
		rc = run_io(0, b, 1);
		if (rc == 2)
			goto setup;
		if (judge(what, rc))
			return 1;	/* no more I/O through this pool */
	}
	/* A whole-block write: one fallback direct write. */
	rc = run_io(1, 0, 2);
	if (rc == 2)
		goto setup;
	if (judge("write of block 0", rc))
		return 1;
	/* What it wrote, read back through the page cache. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (pread(fd, buf, bs, 0) != (ssize_t)bs) {
		perror("lb-9p-bounce: read back");
		return 1;
	}
	for (j = 0; j < bs; j++) {
		if (buf[j] != pat(j, 2)) {
			printf("lb-9p-bounce: written block 0 byte %zu (page %zu) reads back 0x%02x, expected 0x%02x\n",
			       j, j / 4096, buf[j], pat(j, 2));
			return 1;
		}
	}

	trace_scan(&c);
	printf("lb-9p-bounce %s: %ld fallback I/Os (%ld physical, %ld virtual buffers), %ld 9p zero-copy requests from loop, %ld pages freed by 9p\n",
	       argv[1], c.fb_phys + c.fb_virt, c.fb_phys, c.fb_virt, c.zc_loop,
	       c.p9_frees);
	trace_teardown();
	if (c.fb_phys + c.fb_virt < nblk + 1) {
		printf("lb-9p-bounce: inconclusive: the fallback did not run for every I/O\n");
		return 2;
	}
	if (virt ? c.fb_phys : c.fb_virt) {
		printf("lb-9p-bounce: inconclusive: %s bounce buffers in mode %s\n",
		       virt ? "physical" : "virtual", argv[1]);
		return 2;
	}
	if (!c.zc_loop) {
		printf("lb-9p-bounce: inconclusive: no 9p zero-copy request from the loop worker (is the loop device backed by a file on 9p?)\n");
		return 2;
	}
	return 0;
setup:
	fprintf(stderr, "lb-9p-bounce: make-it-fail could not be set\n");
	trace_teardown();
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * vfbench: higher-order allocation benchmark for vfallback.
 *
 * debugfs /sys/kernel/debug/vfbench/run:
 *   write "METHOD ORDER ITERS [noaccess] [hold=N]"
 *	ITERS allocate / touch (one word per page) / free cycles of
 *	PAGE_SIZE << ORDER bytes, then (unless "noaccess") the cost of
 *	using one held allocation of that size.
 *	hold=N keeps up to N allocations before freeing them (in batches of
 *	N attempts): each attempt then needs a block of its own, where a
 *	cycle frees its block and the next attempt usually gets the same
 *	one back. N << ORDER pages may not exceed a quarter of RAM.
 *   read
 *	one line of key=value for the last run.
 * debugfs /sys/kernel/debug/vfbench/pair:
 *   write "METHOD_A METHOD_B ORDER ITERS"
 *	the two methods side by side in one loop (see vfb_pair()); read:
 *	one line of key=value (a_* and b_*) for the last pair.
 * debugfs /sys/kernel/debug/vfbench/par:
 *   write "METHOD ORDER THREADS MS [hold=N]"
 *	THREADS kthreads on the online CPUs allocate and free at once for
 *	MS ms (see vfb_par()); read: one line of key=value.
 * debugfs /sys/kernel/debug/vfbench/methods: the methods this kernel has.
 *
 * Latency is per attempt, allocation plus free (the touch is not timed;
 * with hold=N the free is timed when the batch is released and added to
 * the attempt that allocated it), from ktime_get_ns(); a failed attempt counts with the time it took to
 * fail, which is what a caller waits for. Sorted, nearest rank.
 *
 * Clock: ktime_get_ns() when the clocksource resolves better than
 * VFB_FINE_CLOCK_NS. A guest whose only clocksource is jiffies (no HPET or
 * PM timer, TSC marked unstable: TCG without ACPI) gets the TSC instead,
 * calibrated against ktime over one second at load (clock=tsc in the
 * output). Ratios within one run do not depend on that calibration.
 *
 * Access cost: seq_ns_per_page writes then reads every 8-byte word of the
 * range in order; rand_ns_per_page does nr_pages * 16 read-modify-writes
 * of 8-byte words at fixed-seed prandom offsets (indices drawn before
 * timing). Both repeat the pass until at least VFB_ACCESS_MIN_PAGES pages
 * were covered, take the fastest of VFB_ACCESS_ROUNDS rounds, and report
 * ns per page of the range. -1 when the allocation failed. The same is
 * measured, in alternate rounds, on a physically contiguous reference
 * (ref_seq_ns_per_page, ref_rand_ns_per_page; -1 when no order-ORDER
 * block was free), so that ratios compare like with like.
 *
 * A run stops early (attempts < ITERS, budget_hit=1) after budget_ms, so
 * that a stalling method cannot hang a benchmark boot.
 *
 * OOM assistance: vfbench registers an OOM notifier of its own that only
 * counts. An attempt during which out_of_memory() ran for the measuring
 * task (where a real system kills a task, and the fragmenter vffrag
 * releases pinned pages instead) is OOM-assisted: oom_attempts counts
 * them, oom_assisted the successes among them, oom_notifier_calls the
 * calls. Percentiles are also reported apart:
 * unassisted successes (ok_*), assisted successes (assisted_*) and failures
 * (fail_*, the time to fail), so that success latency is never mixed with
 * the time a failure or an OOM rescue took. -1: no attempt of that kind.
 * Method plain_mayfail is plain with __GFP_RETRY_MAYFAIL: it fails where
 * plain would call the OOM killer, for the strict fragmenter mode, which
 * releases nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/prandom.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef GFP_VFALLBACK	/* stage kernels: PageVcompound(), vfallback_address() */
#include <linux/vfallback.h>
#endif

#define VFB_MAX_ITERS		100000
#define VFB_ACCESS_MIN_PAGES	4096
#define VFB_ACCESS_ROUNDS	5
#define VFB_RAND_PER_PAGE	16
#define VFB_SEED		0x76666265ULL	/* "vfbe" */
#define VFB_FINE_CLOCK_NS	10000
#define VFB_HOLD_RAM_SHIFT	2	/* hold at most RAM >> 2 */

static unsigned int budget_ms = 60000;
module_param(budget_ms, uint, 0644);
MODULE_PARM_DESC(budget_ms, "stop a run after this many ms of allocating (default 60000)");

static u64 vfb_tsc_khz;	/* 0: ktime_get_ns() is the clock */
static u64 vfb_clock_res_ns;

/* Timestamps: ticks of the chosen clock; vfb_ns() turns a difference into ns. */
static u64 vfb_now(void)
{
	return vfb_tsc_khz ? (u64)get_cycles() : ktime_get_ns();
}

static u64 vfb_ns(u64 delta)
{
	return vfb_tsc_khz ? div64_u64(delta * 1000000ULL, vfb_tsc_khz) : delta;
}

/* Wait for the next change of ktime_get_ns(); returns the new value. */
static u64 vfb_ktime_edge(void)
{
	u64 t0 = ktime_get_ns(), t;

	while ((t = ktime_get_ns()) == t0)
		cpu_relax();
	return t;
}

static void vfb_clock_init(void)
{
	u64 e0, e1, c0, c1;

	e0 = vfb_ktime_edge();
	vfb_clock_res_ns = vfb_ktime_edge() - e0;
	if (vfb_clock_res_ns <= VFB_FINE_CLOCK_NS || !get_cycles())
		return;

	e0 = vfb_ktime_edge();
	c0 = get_cycles();
	msleep(1000);
	e1 = vfb_ktime_edge();
	c1 = get_cycles();
	vfb_tsc_khz = div64_u64((c1 - c0) * 1000000ULL, e1 - e0);
}

/* One allocation of any method. */
struct vfb_buf {
	struct page *page;	/* alloc_pages() methods */
	void *addr;		/* usable address of the whole range */
	bool virtual;		/* mapped in vmalloc space */
};

struct vfb_method {
	const char *name;
	bool (*alloc)(struct vfb_buf *b, unsigned int order);
	void (*free)(struct vfb_buf *b, unsigned int order);
	/*
	 * The usable address of a successful alloc(), found after the timed
	 * part (NULL: alloc() set it, as vmalloc() returns it): the caller's
	 * own page_address() or vfallback_address() is not the allocator's
	 * cost, and the two differ by a page-type test.
	 */
	void (*resolve)(struct vfb_buf *b);
	bool has_path;		/* report physical/virtual results */
};

static bool vfb_alloc_pages(struct vfb_buf *b, unsigned int order, gfp_t gfp)
{
	b->page = alloc_pages(gfp, order);
	return b->page;
}

static void vfb_resolve_pages(struct vfb_buf *b)
{
	b->addr = page_address(b->page);
	b->virtual = false;
}

static void vfb_free_pages(struct vfb_buf *b, unsigned int order)
{
	__free_pages(b->page, order);
}

static bool vfb_alloc_plain_noretry(struct vfb_buf *b, unsigned int order)
{
	return vfb_alloc_pages(b, order,
			       GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
}

static bool vfb_alloc_plain(struct vfb_buf *b, unsigned int order)
{
	return vfb_alloc_pages(b, order, GFP_KERNEL | __GFP_NOWARN);
}

/*
 * plain with the flags of vfallback's physical attempt (no reclaim, no
 * kswapd wake-up): the same page allocator work, without the dispatch.
 */
static bool vfb_alloc_plain_noreclaim(struct vfb_buf *b, unsigned int order)
{
	return vfb_alloc_pages(b, order,
			       (GFP_KERNEL & ~__GFP_RECLAIM) | __GFP_NOWARN);
}

/* plain without the OOM killer: fails where plain would need it. */
static bool vfb_alloc_plain_mayfail(struct vfb_buf *b, unsigned int order)
{
	return vfb_alloc_pages(b, order,
			       GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
}

#ifdef GFP_VFALLBACK
/*
 * __GFP_NOWARN only silences the allocation-failure report (a console
 * splat would fail the boot); a failure is data here, counted in
 * successes and in vfallback_fail.
 */
static bool vfb_alloc_vfallback(struct vfb_buf *b, unsigned int order)
{
	b->page = alloc_pages(GFP_VFALLBACK | __GFP_NOWARN, order);
	return b->page;
}

static void vfb_resolve_vfallback(struct vfb_buf *b)
{
	/* page_address() is the linear map: wrong for a virtual compound. */
	b->addr = vfallback_address(b->page);
	b->virtual = PageVcompound(b->page);
}
#endif

static bool vfb_alloc_vmalloc(struct vfb_buf *b, unsigned int order)
{
	b->addr = vmalloc(PAGE_SIZE << order);
	b->virtual = true;
	return b->addr;
}

static void vfb_free_vmalloc(struct vfb_buf *b, unsigned int order)
{
	vfree(b->addr);
}

static bool vfb_alloc_kvmalloc(struct vfb_buf *b, unsigned int order)
{
	b->addr = kvmalloc(PAGE_SIZE << order, GFP_KERNEL);
	b->virtual = is_vmalloc_addr(b->addr);
	return b->addr;
}

static void vfb_free_kvmalloc(struct vfb_buf *b, unsigned int order)
{
	kvfree(b->addr);
}

/*
 * kvmalloc() as mainline has had it since 2025: the kmalloc attempt of a
 * request larger than a page makes no direct reclaim or compaction
 * (kswapd and kcompactd are still woken) before the vmalloc fallback;
 * 6.12's makes one light pass (__GFP_NORETRY). Written out here so that
 * a 6.12 kernel can measure it.
 */
static bool vfb_alloc_kvmalloc_2025(struct vfb_buf *b, unsigned int order)
{
	size_t size = PAGE_SIZE << order;

	b->addr = kmalloc(size, (GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) |
			  __GFP_NOWARN);
	if (!b->addr)
		b->addr = vmalloc(size);
	b->virtual = is_vmalloc_addr(b->addr);
	return b->addr;
}

static const struct vfb_method vfb_methods[] = {
	{ "plain_noretry", vfb_alloc_plain_noretry, vfb_free_pages,
	  vfb_resolve_pages, false },
	{ "plain", vfb_alloc_plain, vfb_free_pages, vfb_resolve_pages, false },
	{ "plain_mayfail", vfb_alloc_plain_mayfail, vfb_free_pages,
	  vfb_resolve_pages, false },
	{ "plain_noreclaim", vfb_alloc_plain_noreclaim, vfb_free_pages,
	  vfb_resolve_pages, false },
#ifdef GFP_VFALLBACK
	{ "vfallback", vfb_alloc_vfallback, vfb_free_pages,
	  vfb_resolve_vfallback, true },
#endif
	{ "vmalloc", vfb_alloc_vmalloc, vfb_free_vmalloc, NULL, false },
	{ "kvmalloc", vfb_alloc_kvmalloc, vfb_free_kvmalloc, NULL, true },
	{ "kvmalloc_2025", vfb_alloc_kvmalloc_2025, vfb_free_kvmalloc, NULL,
	  true },
};

/* An allocation outside the timed parts: alloc() and its address. */
static bool vfb_alloc(const struct vfb_method *m, struct vfb_buf *b,
		      unsigned int order)
{
	if (!m->alloc(b, order))
		return false;
	if (m->resolve)
		m->resolve(b);
	return true;
}

static const struct vfb_method *vfb_find_method(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(vfb_methods); i++)
		if (!strcmp(vfb_methods[i].name, name))
			return &vfb_methods[i];
	return NULL;
}

/* What happened to one attempt, for the split percentiles. */
enum vfb_kind { VFB_OK, VFB_ASSISTED, VFB_FAILED, VFB_NR_KINDS };

struct vfb_pct {
	unsigned long n;
	s64 p50, p99, max;	/* -1 when n == 0 */
};

struct vfb_result {
	unsigned long attempts, successes, physical, virtual;
	unsigned long oom_attempts, oom_assisted, oom_calls;
	struct vfb_pct kind[VFB_NR_KINDS];
	u64 p50, p99, max, elapsed_ms;
	s64 seq_ns_per_page, rand_ns_per_page;
	s64 ref_seq_ns_per_page, ref_rand_ns_per_page;
	int access_virtual;	/* -1: no held allocation */
	bool budget_hit;
};

static DEFINE_MUTEX(vfb_lock);
static char vfb_last[1024] = "status=none\n";

/*
 * Calls of out_of_memory() made by the task that runs the measurement
 * (vfb_task), since load; only counted here. Another task's OOM during
 * an attempt (a kernel thread's) is not the attempt's.
 */
static atomic_long_t vfb_oom_calls = ATOMIC_LONG_INIT(0);
static struct task_struct *vfb_task;

static int vfb_oom_notify(struct notifier_block *nb, unsigned long unused,
			  void *freed)
{
	if (current == READ_ONCE(vfb_task))
		atomic_long_inc(&vfb_oom_calls);
	return NOTIFY_OK;
}

static struct notifier_block vfb_oom_nb = {
	.notifier_call = vfb_oom_notify,
};

static int vfb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array of n >= 1 values. */
static u64 vfb_percentile(const u64 *v, unsigned long n, unsigned int pct)
{
	unsigned long rank = DIV_ROUND_UP(n * pct, 100);

	return v[clamp(rank, 1UL, n) - 1];
}

/* Percentiles of the attempts of one kind; @tmp has room for all. */
static void vfb_kind_pct(const u64 *lat, const u8 *kind, unsigned long n,
			 enum vfb_kind k, u64 *tmp, struct vfb_pct *out)
{
	unsigned long i, m = 0;

	for (i = 0; i < n; i++)
		if (kind[i] == k)
			tmp[m++] = lat[i];
	out->n = m;
	if (!m) {
		out->p50 = out->p99 = out->max = -1;
		return;
	}
	sort(tmp, m, sizeof(*tmp), vfb_cmp_u64, NULL);
	out->p50 = vfb_percentile(tmp, m, 50);
	out->p99 = vfb_percentile(tmp, m, 99);
	out->max = tmp[m - 1];
}

static void vfb_touch(void *addr, unsigned long nr_pages)
{
	unsigned long i;

	for (i = 0; i < nr_pages; i++)
		WRITE_ONCE(*(u64 *)(addr + i * PAGE_SIZE), i);
}

/* ns for @passes sequential write+read passes over @words words. */
static u64 vfb_seq_pass(u64 *p, unsigned long words, unsigned long passes)
{
	unsigned long i, n;
	u64 t0, sum = 0;

	t0 = vfb_now();
	for (n = 0; n < passes; n++) {
		for (i = 0; i < words; i++)
			WRITE_ONCE(p[i], i + n);
		for (i = 0; i < words; i++)
			sum += READ_ONCE(p[i]);
	}
	t0 = vfb_ns(vfb_now() - t0);
	/* Keep the reads: the sum is written back where it cannot be elided. */
	WRITE_ONCE(p[0], sum);
	return t0;
}

static u64 vfb_rand_pass(u64 *p, const u32 *idx, unsigned long nr,
			 unsigned long passes)
{
	unsigned long i, n;
	u64 t0;

	t0 = vfb_now();
	for (n = 0; n < passes; n++)
		for (i = 0; i < nr; i++)
			WRITE_ONCE(p[idx[i]], READ_ONCE(p[idx[i]]) + 1);
	return vfb_ns(vfb_now() - t0);
}

/*
 * Access cost of one held allocation, and of a physically contiguous
 * reference of the same order (plain_noretry, linear map) measured in
 * alternate rounds, so that the ratio of the two is taken under the same
 * emulator and host conditions. -1 where an allocation failed.
 */
static void vfb_access(const struct vfb_method *m, unsigned int order,
		       struct vfb_result *r)
{
	unsigned long nr_pages = 1UL << order;
	unsigned long words = nr_pages * (PAGE_SIZE / sizeof(u64));
	unsigned long nr_rand = nr_pages * VFB_RAND_PER_PAGE;
	unsigned long passes = max(1UL, VFB_ACCESS_MIN_PAGES / nr_pages);
	u64 seq = U64_MAX, rand = U64_MAX, ref_seq = U64_MAX, ref_rand = U64_MAX;
	struct vfb_buf b = {}, ref = {};
	struct rnd_state rnd;
	bool have_ref;
	unsigned long i;
	u32 *idx;
	int round;

	r->seq_ns_per_page = -1;
	r->rand_ns_per_page = -1;
	r->ref_seq_ns_per_page = -1;
	r->ref_rand_ns_per_page = -1;
	r->access_virtual = -1;

	idx = kvmalloc_array(nr_rand, sizeof(*idx), GFP_KERNEL);
	if (!idx)
		return;
	prandom_seed_state(&rnd, VFB_SEED);
	for (i = 0; i < nr_rand; i++)
		idx[i] = prandom_u32_state(&rnd) % words;

	if (!vfb_alloc(m, &b, order))
		goto out;
	r->access_virtual = b.virtual;
	have_ref = vfb_alloc(&vfb_methods[0], &ref, order);
	/* Fault nothing in the timed part. */
	vfb_touch(b.addr, nr_pages);
	if (have_ref)
		vfb_touch(ref.addr, nr_pages);
	/*
	 * Each timed pass follows an untimed one over the same buffer, so
	 * that neither buffer is measured in the cache and TLB state the
	 * other left behind.
	 */
	for (round = 0; round < VFB_ACCESS_ROUNDS; round++) {
		vfb_seq_pass(b.addr, words, passes);
		seq = min(seq, vfb_seq_pass(b.addr, words, passes));
		if (have_ref) {
			vfb_seq_pass(ref.addr, words, passes);
			ref_seq = min(ref_seq, vfb_seq_pass(ref.addr, words, passes));
		}
		cond_resched();
		vfb_rand_pass(b.addr, idx, nr_rand, passes);
		rand = min(rand, vfb_rand_pass(b.addr, idx, nr_rand, passes));
		if (have_ref) {
			vfb_rand_pass(ref.addr, idx, nr_rand, passes);
			ref_rand = min(ref_rand, vfb_rand_pass(ref.addr, idx, nr_rand, passes));
		}
		cond_resched();
	}
	r->seq_ns_per_page = div64_u64(seq, nr_pages * passes);
	r->rand_ns_per_page = div64_u64(rand, nr_pages * passes);
	if (have_ref) {
		r->ref_seq_ns_per_page = div64_u64(ref_seq, nr_pages * passes);
		r->ref_rand_ns_per_page = div64_u64(ref_rand, nr_pages * passes);
		vfb_free_pages(&ref, order);
	}
	m->free(&b, order);
out:
	kvfree(idx);
}

/* An allocation held until its batch is released, and its attempt. */
struct vfb_held {
	struct vfb_buf b;
	unsigned long i;
};

/* Free the held allocations, adding each free's time to its attempt. */
static void vfb_release(const struct vfb_method *m, unsigned int order,
			struct vfb_held *held, unsigned long nr, u64 *lat)
{
	unsigned long j;
	u64 t0;

	for (j = 0; j < nr; j++) {
		t0 = vfb_now();
		m->free(&held[j].b, order);
		lat[held[j].i] += vfb_ns(vfb_now() - t0);
		cond_resched();
	}
}

static int vfb_run(const struct vfb_method *m, unsigned int order,
		   unsigned long iters, unsigned long hold, bool access,
		   struct vfb_result *r)
{
	unsigned long nr_pages = 1UL << order, nr_held = 0;
	u64 *lat, *tmp, t0, t1, start, budget_ns = (u64)budget_ms * NSEC_PER_MSEC;
	struct vfb_held *held = NULL;
	long oom0, oom1;
	struct vfb_buf b;
	unsigned long i;
	u8 *kind;
	int k;
	bool ok;

	memset(r, 0, sizeof(*r));
	lat = kvmalloc_array(iters, sizeof(*lat), GFP_KERNEL);
	tmp = kvmalloc_array(iters, sizeof(*tmp), GFP_KERNEL);
	kind = kvmalloc_array(iters, sizeof(*kind), GFP_KERNEL);
	if (hold)
		held = kvmalloc_array(min(hold, iters), sizeof(*held), GFP_KERNEL);
	if (!lat || !tmp || !kind || (hold && !held)) {
		kvfree(held);
		kvfree(kind);
		kvfree(tmp);
		kvfree(lat);
		return -ENOMEM;
	}

	start = vfb_now();
	for (i = 0; i < iters; i++) {
		memset(&b, 0, sizeof(b));
		oom0 = atomic_long_read(&vfb_oom_calls);
		t0 = vfb_now();
		ok = m->alloc(&b, order);
		t1 = vfb_now();
		if (ok && m->resolve)
			m->resolve(&b);
		oom1 = atomic_long_read(&vfb_oom_calls);
		lat[i] = vfb_ns(t1 - t0);
		kind[i] = ok ? VFB_OK : VFB_FAILED;
		if (oom1 != oom0) {
			r->oom_attempts++;
			r->oom_calls += oom1 - oom0;
			if (ok) {
				r->oom_assisted++;
				kind[i] = VFB_ASSISTED;
			}
		}
		if (ok) {
			r->successes++;
			if (b.virtual)
				r->virtual++;
			else
				r->physical++;
			vfb_touch(b.addr, nr_pages);
			if (held) {
				held[nr_held].b = b;
				held[nr_held++].i = i;
			} else {
				t0 = vfb_now();
				m->free(&b, order);
				lat[i] += vfb_ns(vfb_now() - t0);
			}
		}
		r->attempts++;
		if (held && r->attempts % hold == 0) {
			vfb_release(m, order, held, nr_held, lat);
			nr_held = 0;
		}
		cond_resched();
		if (fatal_signal_pending(current))
			break;
		if (vfb_ns(vfb_now() - start) > budget_ns) {
			r->budget_hit = r->attempts < iters;
			break;
		}
	}
	if (held) {
		vfb_release(m, order, held, nr_held, lat);
		kvfree(held);
	}
	r->elapsed_ms = div64_u64(vfb_ns(vfb_now() - start), NSEC_PER_MSEC);
	for (k = 0; k < VFB_NR_KINDS; k++)
		vfb_kind_pct(lat, kind, r->attempts, k, tmp, &r->kind[k]);
	kvfree(kind);
	kvfree(tmp);
	sort(lat, r->attempts, sizeof(*lat), vfb_cmp_u64, NULL);
	r->p50 = vfb_percentile(lat, r->attempts, 50);
	r->p99 = vfb_percentile(lat, r->attempts, 99);
	r->max = lat[r->attempts - 1];
	kvfree(lat);

	if (access) {
		vfb_access(m, order, r);
	} else {
		r->seq_ns_per_page = -1;
		r->rand_ns_per_page = -1;
		r->ref_seq_ns_per_page = -1;
		r->ref_rand_ns_per_page = -1;
		r->access_virtual = -1;
	}
	return 0;
}

static const char *vfb_path(const struct vfb_method *m,
			    const struct vfb_result *r)
{
	if (!m->has_path || !r->successes)
		return "n/a";
	if (!r->virtual)
		return "physical";
	if (!r->physical)
		return "virtual";
	return "mixed";
}

static const char *vfb_access_path(int access_virtual)
{
	if (access_virtual < 0)
		return "n/a";
	return access_virtual ? "virtual" : "physical";
}

/* Parse "METHOD ORDER ITERS [noaccess] [hold=N]"; -EINVAL with the reason logged. */
static int vfb_parse(char *line, const struct vfb_method **m,
		     unsigned int *order, unsigned long *iters, bool *access,
		     unsigned long *hold)
{
	char *name, *tok;
	unsigned long v;

	line = strim(line);
	name = strsep(&line, " \t");
	if (!name || !*name) {
		pr_warn("run: empty line; expected 'METHOD ORDER ITERS [noaccess] [hold=N]'\n");
		return -EINVAL;
	}
	*m = vfb_find_method(name);
	if (!*m) {
		pr_warn("run: unknown method '%s' (see the methods file)\n", name);
		return -EINVAL;
	}

	tok = strsep(&line, " \t");
	if (!tok || kstrtoul(tok, 10, &v)) {
		pr_warn("run: missing or malformed ORDER; expected 'METHOD ORDER ITERS [noaccess] [hold=N]'\n");
		return -EINVAL;
	}
	if (v < 1 || v > MAX_PAGE_ORDER) {
		pr_warn("run: order %lu out of range 1..%d\n", v, MAX_PAGE_ORDER);
		return -EINVAL;
	}
	*order = v;

	tok = strsep(&line, " \t");
	if (!tok || kstrtoul(tok, 10, &v)) {
		pr_warn("run: missing or malformed ITERS; expected 'METHOD ORDER ITERS [noaccess] [hold=N]'\n");
		return -EINVAL;
	}
	if (v < 1 || v > VFB_MAX_ITERS) {
		pr_warn("run: iters %lu out of range 1..%d\n", v, VFB_MAX_ITERS);
		return -EINVAL;
	}
	*iters = v;

	*access = true;
	tok = strsep(&line, " \t");
	if (tok && !strcmp(tok, "noaccess")) {
		*access = false;
		tok = strsep(&line, " \t");
	}
	*hold = 0;
	if (tok && !strncmp(tok, "hold=", 5)) {
		if (kstrtoul(tok + 5, 10, &v) || v < 1 || v > VFB_MAX_ITERS) {
			pr_warn("run: malformed '%s'; expected hold=N, N in 1..%d\n",
				tok, VFB_MAX_ITERS);
			return -EINVAL;
		}
		if ((v << *order) > (totalram_pages() >> VFB_HOLD_RAM_SHIFT)) {
			pr_warn("run: hold=%lu of order %u would pin %lu MiB, more than a quarter of RAM\n",
				v, *order, (v << *order) >> (20 - PAGE_SHIFT));
			return -EINVAL;
		}
		*hold = v;
		tok = strsep(&line, " \t");
	}
	if (tok) {
		pr_warn("run: unexpected '%s' after ITERS\n", tok);
		return -EINVAL;
	}
	return 0;
}

static ssize_t vfb_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct vfb_method *m;
	struct vfb_result r;
	unsigned long iters, hold;
	unsigned int order;
	char buf[64];
	bool access;
	int ret;

	if (count >= sizeof(buf)) {
		pr_warn("run: line too long (%zu bytes)\n", count);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = vfb_parse(buf, &m, &order, &iters, &access, &hold);
	if (ret)
		return ret;

	mutex_lock(&vfb_lock);
	WRITE_ONCE(vfb_task, current);
	ret = vfb_run(m, order, iters, hold, access, &r);
	WRITE_ONCE(vfb_task, NULL);
	if (!ret)
		scnprintf(vfb_last, sizeof(vfb_last),
			  "method=%s order=%u iters=%lu hold=%lu attempts=%lu successes=%lu p50_ns=%llu p99_ns=%llu max_ns=%llu seq_ns_per_page=%lld rand_ns_per_page=%lld ref_seq_ns_per_page=%lld ref_rand_ns_per_page=%lld path=%s physical=%lu virtual=%lu access_path=%s elapsed_ms=%llu budget_hit=%d clock=%s"
			  " oom_attempts=%lu oom_assisted=%lu oom_notifier_calls=%lu ok_n=%lu ok_p50_ns=%lld ok_p99_ns=%lld ok_max_ns=%lld assisted_n=%lu assisted_p50_ns=%lld assisted_p99_ns=%lld assisted_max_ns=%lld fail_n=%lu fail_p50_ns=%lld fail_p99_ns=%lld fail_max_ns=%lld\n",
			  m->name, order, iters, hold, r.attempts, r.successes,
			  r.p50, r.p99, r.max, r.seq_ns_per_page,
			  r.rand_ns_per_page, r.ref_seq_ns_per_page,
			  r.ref_rand_ns_per_page, vfb_path(m, &r),
			  m->has_path ? r.physical : 0,
			  m->has_path ? r.virtual : 0,
			  vfb_access_path(r.access_virtual), r.elapsed_ms,
			  r.budget_hit, vfb_tsc_khz ? "tsc" : "ktime",
			  r.oom_attempts, r.oom_assisted, r.oom_calls,
			  r.kind[VFB_OK].n, r.kind[VFB_OK].p50,
			  r.kind[VFB_OK].p99, r.kind[VFB_OK].max,
			  r.kind[VFB_ASSISTED].n, r.kind[VFB_ASSISTED].p50,
			  r.kind[VFB_ASSISTED].p99, r.kind[VFB_ASSISTED].max,
			  r.kind[VFB_FAILED].n, r.kind[VFB_FAILED].p50,
			  r.kind[VFB_FAILED].p99, r.kind[VFB_FAILED].max);
	mutex_unlock(&vfb_lock);
	return ret ? ret : count;
}

/*
 * The key=value line of the last run of a file, read under vfb_lock (a run
 * holds it while it measures and writes the line).
 */
static ssize_t vfb_read_last(const char *last, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&vfb_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, last, strlen(last));
	mutex_unlock(&vfb_lock);
	return ret;
}

static ssize_t vfb_run_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return vfb_read_last(vfb_last, ubuf, count, ppos);
}

static const struct file_operations vfb_run_fops = {
	.owner = THIS_MODULE,
	.write = vfb_run_write,
	.read = vfb_run_read,
	.llseek = default_llseek,
};

/*
 * Paired runs (debugfs "pair"): two methods measured side by side in one
 * loop, so that a ratio between them does not carry the drift of the
 * emulator, the host or the allocator's state between two separate runs.
 * Round i allocates, touches (one word per page, untimed) and frees one
 * block of each method, A before B on even rounds and B before A on odd
 * ones. Timed per attempt: the allocation and the free. VFB_PAIR_WARMUP
 * rounds run first, untimed. A failed attempt is counted (fail) and not
 * timed: the pairs are for the success path; the plain runs time failures.
 * Naming the same method twice gives the noise floor of a ratio (A/A).
 */
#define VFB_PAIR_WARMUP	32

struct vfb_side {
	unsigned long n, fail, physical, virtual;
	u64 p50, p90, p99;
};

static int vfb_pair(const struct vfb_method *m[2], unsigned int order,
		    unsigned long iters, struct vfb_side side[2],
		    bool *budget_hit, u64 *elapsed_ms)
{
	unsigned long nr_pages = 1UL << order, i;
	u64 *lat[2], t0, t1, t2, start, budget_ns = (u64)budget_ms * NSEC_PER_MSEC;
	struct vfb_buf b;
	int j, k;

	memset(side, 0, 2 * sizeof(*side));
	*budget_hit = false;
	lat[0] = kvmalloc_array(iters, sizeof(u64), GFP_KERNEL);
	lat[1] = kvmalloc_array(iters, sizeof(u64), GFP_KERNEL);
	if (!lat[0] || !lat[1]) {
		kvfree(lat[1]);
		kvfree(lat[0]);
		return -ENOMEM;
	}
	for (i = 0; i < VFB_PAIR_WARMUP; i++) {
		for (k = 0; k < 2; k++) {
			memset(&b, 0, sizeof(b));
			if (vfb_alloc(m[k], &b, order)) {
				vfb_touch(b.addr, nr_pages);
				m[k]->free(&b, order);
			}
		}
	}
	start = vfb_now();
	for (i = 0; i < iters; i++) {
		for (j = 0; j < 2; j++) {
			k = (i & 1) ? 1 - j : j;
			memset(&b, 0, sizeof(b));
			t0 = vfb_now();
			if (!m[k]->alloc(&b, order)) {
				side[k].fail++;
				continue;
			}
			t1 = vfb_now();
			if (m[k]->resolve)
				m[k]->resolve(&b);
			vfb_touch(b.addr, nr_pages);
			if (b.virtual)
				side[k].virtual++;
			else
				side[k].physical++;
			t2 = vfb_now();
			m[k]->free(&b, order);
			lat[k][side[k].n++] = vfb_ns(t1 - t0) +
					      vfb_ns(vfb_now() - t2);
		}
		cond_resched();
		if (fatal_signal_pending(current))
			break;
		if (vfb_ns(vfb_now() - start) > budget_ns) {
			*budget_hit = i + 1 < iters;
			break;
		}
	}
	*elapsed_ms = div64_u64(vfb_ns(vfb_now() - start), NSEC_PER_MSEC);
	for (k = 0; k < 2; k++) {
		if (!side[k].n)
			continue;
		sort(lat[k], side[k].n, sizeof(u64), vfb_cmp_u64, NULL);
		side[k].p50 = vfb_percentile(lat[k], side[k].n, 50);
		side[k].p90 = vfb_percentile(lat[k], side[k].n, 90);
		side[k].p99 = vfb_percentile(lat[k], side[k].n, 99);
	}
	kvfree(lat[1]);
	kvfree(lat[0]);
	return 0;
}

static char vfb_pair_last[512] = "status=none\n";

/* "A B ORDER ITERS" for the pair file; -EINVAL with the reason logged. */
static int vfb_pair_parse(char *line, const struct vfb_method *m[2],
			  unsigned int *order, unsigned long *iters)
{
	static const char usage[] = "expected 'METHOD_A METHOD_B ORDER ITERS'";
	char *tok;
	unsigned long v;
	int k;

	line = strim(line);
	for (k = 0; k < 2; k++) {
		tok = strsep(&line, " \t");
		if (!tok || !*tok) {
			pr_warn("pair: missing method; %s\n", usage);
			return -EINVAL;
		}
		m[k] = vfb_find_method(tok);
		if (!m[k]) {
			pr_warn("pair: unknown method '%s' (see the methods file)\n", tok);
			return -EINVAL;
		}
	}
	tok = strsep(&line, " \t");
	if (!tok || kstrtoul(tok, 10, &v) || v < 1 || v > MAX_PAGE_ORDER) {
		pr_warn("pair: ORDER missing, malformed or out of range 1..%d; %s\n",
			MAX_PAGE_ORDER, usage);
		return -EINVAL;
	}
	*order = v;
	tok = strsep(&line, " \t");
	if (!tok || kstrtoul(tok, 10, &v) || v < 1 || v > VFB_MAX_ITERS) {
		pr_warn("pair: ITERS missing, malformed or out of range 1..%d; %s\n",
			VFB_MAX_ITERS, usage);
		return -EINVAL;
	}
	*iters = v;
	tok = strsep(&line, " \t");
	if (tok) {
		pr_warn("pair: unexpected '%s' after ITERS; %s\n", tok, usage);
		return -EINVAL;
	}
	return 0;
}

static ssize_t vfb_pair_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct vfb_method *m[2];
	struct vfb_side side[2];
	unsigned long iters;
	unsigned int order;
	bool budget_hit;
	u64 elapsed_ms;
	char buf[96];
	int ret;

	if (count >= sizeof(buf)) {
		pr_warn("pair: line too long (%zu bytes)\n", count);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = vfb_pair_parse(buf, m, &order, &iters);
	if (ret)
		return ret;

	mutex_lock(&vfb_lock);
	ret = vfb_pair(m, order, iters, side, &budget_hit, &elapsed_ms);
	if (!ret)
		scnprintf(vfb_pair_last, sizeof(vfb_pair_last),
			  "a=%s b=%s order=%u iters=%lu a_n=%lu a_fail=%lu a_p50_ns=%llu a_p90_ns=%llu a_p99_ns=%llu a_physical=%lu a_virtual=%lu b_n=%lu b_fail=%lu b_p50_ns=%llu b_p90_ns=%llu b_p99_ns=%llu b_physical=%lu b_virtual=%lu elapsed_ms=%llu budget_hit=%d clock=%s\n",
			  m[0]->name, m[1]->name, order, iters,
			  side[0].n, side[0].fail, side[0].p50, side[0].p90,
			  side[0].p99, side[0].physical, side[0].virtual,
			  side[1].n, side[1].fail, side[1].p50, side[1].p90,
			  side[1].p99, side[1].physical, side[1].virtual,
			  elapsed_ms, budget_hit, vfb_tsc_khz ? "tsc" : "ktime");
	mutex_unlock(&vfb_lock);
	return ret ? ret : count;
}

static ssize_t vfb_pair_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	return vfb_read_last(vfb_pair_last, ubuf, count, ppos);
}

static const struct file_operations vfb_pair_fops = {
	.owner = THIS_MODULE,
	.write = vfb_pair_write,
	.read = vfb_pair_read,
	.llseek = default_llseek,
};

/*
 * par: one method from several CPUs at once, for the scaling of the
 * virtual path's shared structures (the window's areas, vmalloc's lock).
 * THREADS kthreads, thread i bound to online CPU i % nr_online, start
 * together; each keeps HOLD allocations in a ring and, until MS ms have
 * passed, allocates one and frees the oldest (one op). Reported: ops in
 * total and per second, failures, and how many ops were virtual.
 */
#define VFB_PAR_MAX_THREADS	16
#define VFB_PAR_MAX_HOLD	64

struct vfb_par_thread {
	const struct vfb_method *m;
	unsigned int order, hold;
	u64 deadline_ns;
	unsigned long ops, fail, virtual;
	struct task_struct *task;
	struct completion done;
};

static atomic_t vfb_par_waiting;
static DECLARE_COMPLETION(vfb_par_go);
static char vfb_par_last[320] = "status=none\n";

static int vfb_par_fn(void *arg)
{
	struct vfb_par_thread *t = arg;
	struct vfb_buf ring[VFB_PAR_MAX_HOLD];
	bool held[VFB_PAR_MAX_HOLD] = { };
	unsigned int i = 0, j;
	u64 t0;

	atomic_dec(&vfb_par_waiting);
	wait_for_completion(&vfb_par_go);
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < t->deadline_ns) {
		if (held[i]) {
			t->m->free(&ring[i], t->order);
			held[i] = false;
		}
		if (vfb_alloc(t->m, &ring[i], t->order)) {
			held[i] = true;
			if (ring[i].virtual)
				t->virtual++;
		} else {
			t->fail++;
		}
		t->ops++;
		i = (i + 1) % t->hold;
		cond_resched();
	}
	for (j = 0; j < t->hold; j++)
		if (held[j])
			t->m->free(&ring[j], t->order);
	complete(&t->done);
	return 0;
}

static int vfb_par(const struct vfb_method *m, unsigned int order,
		   unsigned int threads, unsigned int ms, unsigned int hold,
		   char *out, size_t len)
{
	struct vfb_par_thread *t;
	unsigned long ops = 0, fail = 0, virt = 0, lo = ULONG_MAX, hi = 0;
	unsigned int i, cpu, nr_cpus = num_online_cpus();
	u64 start, elapsed;
	int ret = 0;

	t = kcalloc(threads, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	reinit_completion(&vfb_par_go);
	atomic_set(&vfb_par_waiting, threads);
	for (i = 0; i < threads; i++) {
		t[i].m = m;
		t[i].order = order;
		t[i].hold = hold;
		t[i].deadline_ns = (u64)ms * NSEC_PER_MSEC;
		init_completion(&t[i].done);
		cpu = cpumask_nth(i % nr_cpus, cpu_online_mask);
		t[i].task = kthread_create_on_node(vfb_par_fn, &t[i],
						   cpu_to_node(cpu),
						   "vfbench-par/%u", i);
		if (IS_ERR(t[i].task)) {
			ret = PTR_ERR(t[i].task);
			pr_warn("par: thread %u not created (%d)\n", i, ret);
			break;
		}
		kthread_bind(t[i].task, cpu);
		wake_up_process(t[i].task);
	}
	if (ret) {
		/* Threads that exist run an empty round and end. */
		for (; i < threads; i++)
			atomic_dec(&vfb_par_waiting);
		for (i = 0; i < threads && !IS_ERR_OR_NULL(t[i].task); i++)
			t[i].deadline_ns = 0;
	}
	while (atomic_read(&vfb_par_waiting) > 0)
		msleep(1);
	start = ktime_get_ns();
	complete_all(&vfb_par_go);
	for (i = 0; i < threads && !IS_ERR_OR_NULL(t[i].task); i++)
		wait_for_completion(&t[i].done);
	elapsed = ktime_get_ns() - start;
	if (!ret) {
		for (i = 0; i < threads; i++) {
			ops += t[i].ops;
			fail += t[i].fail;
			virt += t[i].virtual;
			lo = min(lo, t[i].ops);
			hi = max(hi, t[i].ops);
		}
		scnprintf(out, len,
			  "method=%s order=%u threads=%u cpus=%u ms=%u hold=%u ops=%lu ops_per_s=%llu fail=%lu virtual=%lu thread_min_ops=%lu thread_max_ops=%lu elapsed_ms=%llu\n",
			  m->name, order, threads, nr_cpus, ms, hold, ops,
			  div64_u64((u64)ops * NSEC_PER_SEC, max_t(u64, elapsed, 1)),
			  fail, virt, lo, hi, div_u64(elapsed, NSEC_PER_MSEC));
	}
	kfree(t);
	return ret;
}

static ssize_t vfb_par_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	static const char usage[] = "usage: METHOD ORDER THREADS MS [hold=N]";
	unsigned int order, threads, ms, hold = 4;
	const struct vfb_method *m;
	char buf[96], *line = buf, *tok;
	int ret;

	if (count >= sizeof(buf)) {
		pr_warn("par: line too long (%zu bytes); %s\n", count, usage);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	tok = strsep(&line, " \t");
	m = tok ? vfb_find_method(tok) : NULL;
	if (!m) {
		pr_warn("par: unknown method '%s'; %s\n", tok ? tok : "", usage);
		return -EINVAL;
	}
	tok = strsep(&line, " \t");
	if (!tok || kstrtouint(tok, 10, &order) || order > MAX_PAGE_ORDER) {
		pr_warn("par: ORDER must be 0..%d; %s\n", MAX_PAGE_ORDER, usage);
		return -EINVAL;
	}
	tok = strsep(&line, " \t");
	if (!tok || kstrtouint(tok, 10, &threads) || !threads ||
	    threads > VFB_PAR_MAX_THREADS) {
		pr_warn("par: THREADS must be 1..%d; %s\n", VFB_PAR_MAX_THREADS,
			usage);
		return -EINVAL;
	}
	tok = strsep(&line, " \t");
	if (!tok || kstrtouint(tok, 10, &ms) || !ms || ms > budget_ms) {
		pr_warn("par: MS must be 1..%u (budget_ms); %s\n", budget_ms,
			usage);
		return -EINVAL;
	}
	tok = strsep(&line, " \t");
	if (tok && (strncmp(tok, "hold=", 5) || kstrtouint(tok + 5, 10, &hold) ||
		    !hold || hold > VFB_PAR_MAX_HOLD ||
		    ((unsigned long)hold * threads << order) >
		    totalram_pages() / 4)) {
		pr_warn("par: hold=N must be 1..%d and THREADS * N << ORDER pages at most a quarter of RAM; %s\n",
			VFB_PAR_MAX_HOLD, usage);
		return -EINVAL;
	}
	if (tok && (tok = strsep(&line, " \t"))) {
		pr_warn("par: unexpected '%s'; %s\n", tok, usage);
		return -EINVAL;
	}

	mutex_lock(&vfb_lock);
	ret = vfb_par(m, order, threads, ms, hold, vfb_par_last,
		      sizeof(vfb_par_last));
	mutex_unlock(&vfb_lock);
	return ret ? ret : count;
}

static ssize_t vfb_par_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	return vfb_read_last(vfb_par_last, ubuf, count, ppos);
}

static const struct file_operations vfb_par_fops = {
	.owner = THIS_MODULE,
	.write = vfb_par_write,
	.read = vfb_par_read,
	.llseek = default_llseek,
};

static ssize_t vfb_methods_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[128] = "";
	int i;

	for (i = 0; i < ARRAY_SIZE(vfb_methods); i++) {
		strlcat(buf, vfb_methods[i].name, sizeof(buf));
		strlcat(buf, i + 1 < ARRAY_SIZE(vfb_methods) ? " " : "\n",
			sizeof(buf));
	}
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations vfb_methods_fops = {
	.owner = THIS_MODULE,
	.read = vfb_methods_read,
	.llseek = default_llseek,
};

static struct dentry *vfb_dir;

static int __init vfb_init(void)
{
	vfb_clock_init();
	if (vfb_tsc_khz)
		pr_info("ktime resolution %llu ns: timing with the TSC, %llu kHz against ktime\n",
			vfb_clock_res_ns, vfb_tsc_khz);
	else
		pr_info("timing with ktime_get_ns(), resolution %llu ns\n",
			vfb_clock_res_ns);
	vfb_dir = debugfs_create_dir("vfbench", NULL);
	if (IS_ERR(vfb_dir))
		return PTR_ERR(vfb_dir);
	register_oom_notifier(&vfb_oom_nb);
	debugfs_create_file("run", 0600, vfb_dir, NULL, &vfb_run_fops);
	debugfs_create_file("methods", 0400, vfb_dir, NULL, &vfb_methods_fops);
	debugfs_create_file("pair", 0600, vfb_dir, NULL, &vfb_pair_fops);
	debugfs_create_file("par", 0600, vfb_dir, NULL, &vfb_par_fops);
	pr_info("loaded; methods: %s%s\n",
		"plain_noretry plain plain_mayfail plain_noreclaim vmalloc kvmalloc kvmalloc_2025",
#ifdef GFP_VFALLBACK
		" vfallback"
#else
		" (no GFP_VFALLBACK in this kernel)"
#endif
		);
	return 0;
}

static void __exit vfb_exit(void)
{
	unregister_oom_notifier(&vfb_oom_nb);
	debugfs_remove(vfb_dir);
}

module_init(vfb_init);
module_exit(vfb_exit);
MODULE_DESCRIPTION("vfallback higher-order allocation benchmark");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * vffrag: pin memory so that no free block of order >= 1 is left, in a way
 * compaction cannot repair.
 *
 * On load it takes order-0 pages (GFP_KERNEL | __GFP_NORETRY, unmovable,
 * no OOM killer) until an allocation fails or free memory is down to
 * keep_mb, then frees every page with an odd PFN. The even-PFN pages it
 * keeps are unmovable, so the buddy of every page it freed is pinned:
 * about half of memory is free, as order-0 blocks.
 *
 * That is not yet the end: memory the allocator kept back (below the min
 * watermark, per-cpu lists of every migratetype) and memory freed by
 * others later can still form order >= 1 blocks, and compaction can make
 * one wherever a free page's buddy is someone else's movable page. A
 * "mop-up" therefore takes every free page and block it can get without
 * reclaim (GFP_KERNEL minus reclaim: the zones of the benchmark's plain
 * allocations; all three migratetypes), splits blocks, and frees a page
 * again only if its buddy is one of ours (marked in page->private);
 * otherwise it keeps the page. Afterwards every buddy pair has a pinned
 * page or is wholly someone else's. It runs on each CPU (to reach the
 * per-cpu lists) at load and on every write of "refrag" to debugfs
 * vffrag/control.
 *
 * Pairs that are wholly someone else's and movable (tmpfs, anon pages)
 * can still be compacted away. The benchmark scenario therefore drops
 * caches, runs /proc/sys/vm/compact_memory and "refrag" in rounds after
 * loading until a round makes no new block, and again before every
 * measurement.
 *
 * In that state a plain GFP_KERNEL allocation of order <= 3
 * (PAGE_ALLOC_COSTLY_ORDER) would invoke the OOM killer, whose report
 * fails the boot and whose kills would distort the result. An OOM
 * notifier releases held pages instead, oom_batch at a time, and counts
 * them (oom_released, oom_calls): an allocation that succeeded only
 * because of such a release is visible in those counters, like a kill
 * would be. The default batch is small (16 held pages, so at most 32
 * pages become free per call) so that a release does not undo the
 * scenario: 512 pages per call gave hundreds of order-1 to order-3 blocks
 * at once. Even so the release is far cheaper than a kill: plain
 * allocations of those orders measure a cheap OOM path here.
 *
 * Strict mode ("strict on" to debugfs vffrag/control, "strict off" to
 * end it; "strict tree on" includes the descendants of that process, for
 * a workload of several processes such as fio's) releases nothing for the
 * process that turned it on (the
 * benchmark's measurement loop, whose allocations run in its write()
 * calls): the notifier only counts the call, and the OOM killer then does
 * what it would do on a real system. Nothing in that loop is meant to need
 * the OOM killer (plain is measured as plain_mayfail,
 * __GFP_RETRY_MAYFAIL), so no method is rescued. Every other task keeps
 * the rescue (counted apart as strict_rescued): the kernel's own
 * allocations during the loop, such as kthreadd's order-2 task_struct
 * for a new worker, would otherwise meet the OOM killer, which kills the
 * benchmark's shell and then panics ("System is deadlocked on memory";
 * seen in 1 of 7 strict boots before this was scoped).
 *
 * Everything held is freed on rmmod. Counters: pr_info and debugfs
 * vffrag/status (one line of key=value).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#define VFF_SWEEP_RECLAIMS	64
#define VFF_OOM_BATCH_MAX	65536

static unsigned int keep_mb;
module_param(keep_mb, uint, 0444);
MODULE_PARM_DESC(keep_mb, "stop taking pages when free memory is down to this many MiB (default 0: until allocation fails)");

static unsigned int oom_batch = 16;
module_param(oom_batch, uint, 0444);
MODULE_PARM_DESC(oom_batch, "held pages released per OOM notification, 1-65536 (default 16)");

static DEFINE_SPINLOCK(vff_lock);	/* vff_held and vff_nr_held */
static LIST_HEAD(vff_held);
static unsigned long vff_nr_held;

static DEFINE_MUTEX(vff_mop_lock);	/* one mop-up at a time */

static unsigned long vff_taken;		/* pages taken at load */
static unsigned long vff_odd_freed;	/* odd-PFN pages given back at load */
static atomic_long_t vff_mop_swept;	/* order-0 pages the mop-ups went through */
static atomic_long_t vff_mop_blocks;	/* order >= 1 blocks split by mop-ups */
static atomic_long_t vff_mop_kept;	/* pages the mop-ups kept */
static atomic_long_t vff_refrags;
static bool vff_strict;	/* release nothing on OOM for vff_strict_tgid */
static bool vff_strict_tree;	/* ... and for its descendants */
static pid_t vff_strict_tgid;
static atomic_long_t vff_strict_rescued = ATOMIC_LONG_INIT(0);
static atomic_long_t vff_oom_calls;
static atomic_long_t vff_oom_released;

/*
 * Held pages are marked in page->private (ours while we own the page), so
 * that a sweep can tell whether the buddy of a free page is pinned.
 */
#define VFF_MARK	((unsigned long)&vff_held)

static bool vff_buddy_held(struct page *page)
{
	return page_private(pfn_to_page(page_to_pfn(page) ^ 1)) == VFF_MARK;
}

static void vff_release_page(struct page *page)
{
	set_page_private(page, 0);
	__free_page(page);
}

static void vff_hold(struct page *page)
{
	set_page_private(page, VFF_MARK);
	spin_lock(&vff_lock);
	list_add_tail(&page->lru, &vff_held);
	vff_nr_held++;
	spin_unlock(&vff_lock);
}

/* Take up to @nr held pages off the list into @out; returns how many. */
static unsigned long vff_unhold(struct list_head *out, unsigned long nr)
{
	unsigned long n = 0;
	struct page *page;

	spin_lock(&vff_lock);
	while (n < nr && !list_empty(&vff_held)) {
		page = list_first_entry(&vff_held, struct page, lru);
		list_move_tail(&page->lru, out);
		vff_nr_held--;
		n++;
	}
	spin_unlock(&vff_lock);
	return n;
}

static void vff_free_list(struct list_head *list)
{
	struct page *page, *next;
	unsigned long n = 0;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		vff_release_page(page);
		if (!(++n % 1024))
			cond_resched();
	}
}

static bool vff_free_enough(void)
{
	unsigned long keep = (unsigned long)keep_mb << (20 - PAGE_SHIFT);

	return keep && global_zone_page_state(NR_FREE_PAGES) <= keep;
}

/* Load: take order-0 pages until allocation fails (or keep_mb is reached). */
static void vff_take_all(void)
{
	struct page *page;

	while (!vff_free_enough()) {
		page = alloc_page(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		if (!page)
			break;
		vff_hold(page);
		vff_taken++;
		cond_resched();
	}
}

/*
 * Load: give back every held page with an odd PFN, in batches, so that the
 * OOM notifier always finds held pages. Even pages go back to the tail of
 * the list; the pass stops after as many pages as were held at its start.
 */
static void vff_free_odd(void)
{
	unsigned long total, done = 0, n;
	struct page *page, *next;
	LIST_HEAD(batch);

	spin_lock(&vff_lock);
	total = vff_nr_held;
	spin_unlock(&vff_lock);

	while (done < total) {
		n = vff_unhold(&batch, min(4096UL, total - done));
		if (!n)
			break;
		done += n;
		list_for_each_entry_safe(page, next, &batch, lru) {
			list_del(&page->lru);
			if (page_to_pfn(page) & 1) {
				vff_release_page(page);
				vff_odd_freed++;
			} else {
				vff_hold(page);
			}
		}
		cond_resched();
	}
}

/*
 * A free page may stay free only when its buddy is pinned: then no block
 * of order >= 1 can include it, whatever compaction moves. Queue such a
 * page for freeing, keep any other (its buddy is free too, and will then
 * be freed, or belongs to someone else, maybe movable).
 */
static void vff_sort_page(struct page *page, struct list_head *to_free)
{
	if (vff_buddy_held(page)) {
		list_add(&page->lru, to_free);
	} else {
		vff_hold(page);
		atomic_long_inc(&vff_mop_kept);
	}
}

/*
 * The per-cpu lists are per migratetype, and pages freed by others (user
 * pages: movable) wait on their lists unmerged until a drain: a mop-up
 * goes through all three types.
 */
static const gfp_t vff_mop_types[] = { 0, __GFP_RECLAIMABLE, __GFP_MOVABLE };

/*
 * GFP_KERNEL may use ZONE_DMA too when its free pages exceed the lowmem
 * reserve, which a per-cpu drain can bring about: __GFP_DMA reaches it
 * without the reserve.
 */
static const gfp_t vff_mop_zones[] = { 0, __GFP_DMA };

/* Pages on this CPU's per-cpu lists, all zones of this node. */
static unsigned long vff_pcp_count(void)
{
	struct pglist_data *pgdat = NODE_DATA(numa_node_id());
	unsigned long n = 0;
	int i;

	for (i = 0; i < MAX_NR_ZONES; i++)
		if (populated_zone(&pgdat->node_zones[i]))
			n += READ_ONCE(this_cpu_ptr(pgdat->node_zones[i].per_cpu_pageset)->count);
	return n;
}

/*
 * Split every free block of order >= 1 that @gfp can get, and sort it.
 * __GFP_MEMALLOC (no watermarks): a block on a per-cpu list is invisible
 * to the watermark check of an order >= 1 allocation, which counts buddy
 * blocks only, until a drain puts it back; this takes it now. Every block
 * taken is mostly freed again at once, as order-0 pages.
 */
static void vff_mop_blocks_of(gfp_t gfp, struct list_head *to_free)
{
	unsigned long i, nr;
	struct page *page;
	int order;

	for (order = MAX_PAGE_ORDER; order >= 1; order--) {
		while ((page = alloc_pages(gfp | __GFP_MEMALLOC, order))) {
			nr = 1UL << order;
			split_page(page, order);
			for (i = 0; i < nr; i++)
				vff_sort_page(page + i, to_free);
			vff_free_list(to_free);
			atomic_long_inc(&vff_mop_blocks);
			cond_resched();
		}
	}
}

/*
 * One CPU's part of a mop-up. First every free order-0 page that a
 * GFP_KERNEL allocation could get without reclaim, this CPU's per-cpu
 * lists of every migratetype first, sorted by vff_sort_page() and the
 * ones to free freed when the sweep is over. At the
 * watermark, a bounded number of NORETRY attempts with reclaim, whose slow
 * path drains every per-cpu list before it gives up (no OOM killer). Then
 * every free block of order >= 1 (the reserve below the min watermark,
 * high-order per-cpu lists: see vff_mop_blocks_of()), split and treated
 * alike. Each step for the
 * normal zones and for ZONE_DMA. Memory sits at the min watermark only for
 * the duration of the sweep.
 */
static long vff_mop_up_cpu(void *unused)
{
	const gfp_t gfp = (GFP_KERNEL & ~__GFP_RECLAIM) | __GFP_NOWARN;
	unsigned int reclaims = 0, t, z;
	unsigned long i, pcp, n = 0;
	struct page *page;
	LIST_HEAD(to_free);

	/*
	 * Empty each migratetype's per-cpu list while memory is plentiful
	 * (at the watermark no list is reachable): a list is served first,
	 * so taking as many pages as the lists hold in all empties it.
	 */
	pcp = vff_pcp_count();
	for (z = 0; z < ARRAY_SIZE(vff_mop_zones); z++) {
		for (t = 0; t < ARRAY_SIZE(vff_mop_types); t++) {
			for (i = 0; i <= pcp; i++) {
				page = alloc_page(gfp | vff_mop_zones[z] |
						  vff_mop_types[t]);
				if (!page)
					break;
				vff_sort_page(page, &to_free);
				if (!(++n % 1024))
					cond_resched();
			}
		}
	}
	/* Then everything else, down to the watermark. */
	for (z = 0; z < ARRAY_SIZE(vff_mop_zones); z++) {
		for (;;) {
			page = alloc_page(gfp | vff_mop_zones[z]);
			if (!page && !z && reclaims++ < VFF_SWEEP_RECLAIMS)
				page = alloc_page(GFP_KERNEL | __GFP_NORETRY |
						  __GFP_NOWARN);
			if (!page)
				break;
			vff_sort_page(page, &to_free);
			if (!(++n % 1024))
				cond_resched();
		}
	}
	vff_free_list(&to_free);
	atomic_long_add(n, &vff_mop_swept);

	for (z = 0; z < ARRAY_SIZE(vff_mop_zones); z++)
		for (t = 0; t < ARRAY_SIZE(vff_mop_types); t++)
			vff_mop_blocks_of(gfp | vff_mop_zones[z] |
					  vff_mop_types[t], &to_free);
	return 0;
}

static void vff_mop_up(void)
{
	int cpu;

	mutex_lock(&vff_mop_lock);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, vff_mop_up_cpu, NULL);
	cpus_read_unlock();
	mutex_unlock(&vff_mop_lock);
}

/* Is current the strict process, or (strict tree) one of its descendants? */
static bool vff_strict_current(void)
{
	pid_t tgid = READ_ONCE(vff_strict_tgid);
	struct task_struct *t;
	bool ret = false;

	if (current->tgid == tgid)
		return true;
	if (!READ_ONCE(vff_strict_tree))
		return false;
	rcu_read_lock();
	for (t = current; t->pid > 1; t = rcu_dereference(t->real_parent)) {
		if (t->tgid == tgid) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}

/* Instead of a kill: give back a batch of held pages, and count it. */
static int vff_oom_notify(struct notifier_block *nb, unsigned long action,
			  void *parm)
{
	unsigned long *freed = parm, n;
	LIST_HEAD(list);

	if (READ_ONCE(vff_strict)) {
		if (vff_strict_current()) {
			atomic_long_inc(&vff_oom_calls);
			pr_info_ratelimited("out of memory in strict mode: nothing released\n");
			return NOTIFY_OK;
		}
		atomic_long_inc(&vff_strict_rescued);
	}
	n = vff_unhold(&list, oom_batch);
	vff_free_list(&list);
	*freed += n;
	atomic_long_inc(&vff_oom_calls);
	atomic_long_add(n, &vff_oom_released);
	pr_info_ratelimited("out of memory: released %lu held pages instead of a kill (%ld so far)\n",
			    n, atomic_long_read(&vff_oom_released));
	return NOTIFY_OK;
}

static struct notifier_block vff_oom_nb = {
	.notifier_call = vff_oom_notify,
};

static int vff_status_show(struct seq_file *m, void *v)
{
	unsigned long held;

	spin_lock(&vff_lock);
	held = vff_nr_held;
	spin_unlock(&vff_lock);
	seq_printf(m, "held_pages=%lu taken_pages=%lu odd_freed=%lu mop_swept=%ld mop_blocks=%ld mop_kept=%ld refrags=%ld oom_calls=%ld oom_released=%ld free_pages=%lu keep_mb=%u oom_batch=%u strict=%d strict_rescued=%ld\n",
		   held, vff_taken, vff_odd_freed,
		   atomic_long_read(&vff_mop_swept),
		   atomic_long_read(&vff_mop_blocks),
		   atomic_long_read(&vff_mop_kept),
		   atomic_long_read(&vff_refrags),
		   atomic_long_read(&vff_oom_calls),
		   atomic_long_read(&vff_oom_released),
		   global_zone_page_state(NR_FREE_PAGES), keep_mb, oom_batch,
		   READ_ONCE(vff_strict), atomic_long_read(&vff_strict_rescued));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vff_status);

static ssize_t vff_control_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[24], *cmd;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count)) {
		pr_warn("control: expected 'refrag', 'strict on', 'strict tree on' or 'strict off'\n");
		return -EINVAL;
	}
	buf[count] = '\0';
	cmd = strim(buf);
	if (!strcmp(cmd, "strict on") || !strcmp(cmd, "strict off") ||
	    !strcmp(cmd, "strict tree on")) {
		WRITE_ONCE(vff_strict_tgid, current->tgid);
		WRITE_ONCE(vff_strict_tree, !strcmp(cmd, "strict tree on"));
		WRITE_ONCE(vff_strict, strcmp(cmd, "strict off") != 0);
		if (vff_strict)
			pr_info("strict mode on: OOM releases nothing for %s (%d)%s\n",
				current->comm, current->tgid,
				vff_strict_tree ? " and its descendants" : "");
		else
			pr_info("strict mode off\n");
		return count;
	}
	if (strcmp(cmd, "refrag")) {
		pr_warn("control: unknown command '%s' (expected 'refrag', 'strict on', 'strict tree on' or 'strict off')\n",
			cmd);
		return -EINVAL;
	}
	vff_mop_up();
	atomic_long_inc(&vff_refrags);
	return count;
}

static const struct file_operations vff_control_fops = {
	.owner = THIS_MODULE,
	.write = vff_control_write,
	.llseek = noop_llseek,
};

static struct dentry *vff_dir;

static void vff_release_all(void)
{
	LIST_HEAD(list);

	while (vff_unhold(&list, 4096)) {
		vff_free_list(&list);
		cond_resched();
	}
}

static int __init vff_init(void)
{
	unsigned long free0 = global_zone_page_state(NR_FREE_PAGES);
	int ret;

	if (!oom_batch || oom_batch > VFF_OOM_BATCH_MAX) {
		pr_err("oom_batch=%u: must be 1-%u held pages per OOM notification\n",
		       oom_batch, VFF_OOM_BATCH_MAX);
		return -EINVAL;
	}
	/* Before taking anything: an OOM during the fill must not kill. */
	ret = register_oom_notifier(&vff_oom_nb);
	if (ret)
		return ret;

	vff_take_all();
	vff_free_odd();
	vff_mop_up();

	vff_dir = debugfs_create_dir("vffrag", NULL);
	debugfs_create_file("status", 0444, vff_dir, NULL, &vff_status_fops);
	debugfs_create_file("control", 0200, vff_dir, NULL, &vff_control_fops);

	pr_info("free pages %lu before; took %lu order-0 pages, gave back %lu odd-PFN pages, mop-up split %ld blocks; holding %lu pages, %lu free\n",
		free0, vff_taken, vff_odd_freed,
		atomic_long_read(&vff_mop_blocks), vff_nr_held,
		global_zone_page_state(NR_FREE_PAGES));
	return 0;
}

static void __exit vff_exit(void)
{
	unregister_oom_notifier(&vff_oom_nb);
	debugfs_remove(vff_dir);
	pr_info("releasing %lu held pages (oom_released=%ld over %ld OOM calls, %ld refrags)\n",
		vff_nr_held, atomic_long_read(&vff_oom_released),
		atomic_long_read(&vff_oom_calls),
		atomic_long_read(&vff_refrags));
	vff_release_all();
}

module_init(vff_init);
module_exit(vff_exit);
MODULE_DESCRIPTION("unmovable fragmenter for the vfallback benchmarks");
MODULE_LICENSE("GPL");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the large-block guest tools (lb-*.c), built statically by
 * qemu/mkinitramfs.sh with the tools.
 */
#ifndef VF_LB_UTIL_H
#define VF_LB_UTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * set_fail(ON): set this thread's make-it-fail, so that fail_page_alloc
 * (task-filter Y, as stage3.sh sets it up) fails its large-block folio
 * allocations. Returns 0, or -1 when the file is missing or unwritable.
 */
static inline int set_fail(int on)
{
	int f = open("/proc/thread-self/make-it-fail", O_WRONLY);
	char c = on ? '1' : '0';
	int ret = 0;

	if (f < 0)
		return -1;
	if (write(f, &c, 1) != 1)
		ret = -1;
	close(f);
	return ret;
}

/* vmstat(NAME): one counter of /proc/vmstat, or -1 when it is absent. */
static inline long vmstat(const char *name)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char key[64];
	long v, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2) {
		if (!strcmp(key, name)) {
			ret = v;
			break;
		}
	}
	fclose(f);
	return ret;
}

#endif

# Large blocks that never livelock (issue 17): page faults and the paths
# that need a large-block folio with no way around it (EOF zeroing,
# truncate, punch/zero inside a block) on XFS with 64 KiB (and in full
# mode 16 and 32 KiB) blocks, while every allocation of order >= 4 (64 KiB)
# fails in the page allocator from before the mount (fail_page_alloc,
# no task filter), so that only the large-block reserve (lb_reserve=, set
# up at boot), the eviction of other large-block folios into it, and the
# defined failure are left:
#  1. fio ioengine=mmap, random 16 KiB writes to a file twice the size of
#     the reserve, shared mapping, crc32c verify through the mapping;
#     stress-ng's file-backed mmap stressor with --verify;
#  2. a program run from the file system (busybox copied there, caches
#     dropped): its text and data come in by page faults;
#  3. pwrite past a cold EOF block, truncate inside a cold block and
#     extend, fpunch and fzero inside cold blocks, sendfile and cp of a
#     cold file: each succeeds (no ENOMEM) and the file is byte for byte
#     what the same commands give on tmpfs; FIDEDUPERANGE of two cold
#     files with the same bytes links them;
#  4. (64 KiB) the reserve spent by design: a mapping locked on fault
#     (mlock2 MLOCK_ONFAULT) larger than the reserve is read block by
#     block: the first fault the reserve cannot serve ends with SIGBUS
#     within the stated bound (1 s of waiting), get_user_pages() on that
#     block with EFAULT; after munlock and a cache drop the evicted blocks
#     refill the reserve (the allocator still fails everything);
#  5. (full mode) no forced failure but unmovable fragmentation (vffrag)
#     with its OOM rescue off for the workload ("strict tree on"): fio mmap
#     verify and a program run, on 16, 32 and 64 KiB blocks;
#  6. no forced failure, a memory cgroup at its limit: faults of a reader
#     that locks its mapping get the cgroup's OOM killer on 64 KiB blocks
#     as on a 4 KiB-block control (lb-memcg-fault).
#  7. the reserve in the memory accounting: /proc/meminfo LbReserve, and
#     pgfree/pgalloc over a refill of the whole reserve.
# The hung-task detector is armed (30 s) and must stay silent, and the
# kernel must not print "Retrying PF". On a kernel without the reserve
# (plain 6.12) the same steps run under time limits and what they do is
# recorded (vf.lbfault_record=1), not asserted.
. /results/scenarios/common.lib
FP=/sys/kernel/debug/fail_page_alloc
DEV=/dev/loop2
MNT=/mnt/xfs
mode=$(vf_arg lbfault short)
record=$(vf_arg lbfault_record 0)
T=$(vf_arg lbfault_limit 240)	# the time limit of each workload (a livelock ends there)
bss=65536
[ "$mode" = full ] && bss="16384 32768 65536"
RES=/sys/kernel/debug/lb_reserve
OUTF=$VF_OUT/lbfault.txt
: >"$OUTF"

# On a kernel without the mechanism, record instead of asserting.
expect() { # expect NAME COMMAND...
	name=$1
	shift
	if "$@"; then
		pass "$name"
	elif [ "$record" = 1 ]; then
		echo "RECORDED (not asserted): $name: no"
	else
		fail "$name"
	fi
}
force() { # force 1|0 [task]: every allocation of order >= 4 fails (of the tasks with make-it-fail only, with "task"), or none
	echo 0 >$FP/probability
	echo 0 >$FP/verbose
	if [ "${2:-}" = task ]; then echo Y >$FP/task-filter; else echo N >$FP/task-filter; fi
	echo 4 >$FP/min-order
	echo 0 >$FP/space
	echo 1 >$FP/interval
	echo -1 >$FP/times
	echo N >$FP/ignore-gfp-wait
	echo N >$FP/ignore-gfp-highmem
	echo $((100 * $1)) >$FP/probability
}
CTRS="minorder_alloc_nostall minorder_alloc_reserve minorder_alloc_direct minorder_alloc_evict minorder_alloc_fail minorder_fault_sigbus lb_reserve_catch lb_reserve_take filemap_minorder_fail vfallback_io_read vfallback_io_write"
c_snap() { for c in $CTRS; do eval "c0_$c=$(vmstat $c)"; done; }
# c_show: the counters that moved since c_snap; sets d_NAME for each
# (call it directly, not in $(...), or the d_ values are lost)
c_show() {
	cs=
	for c in $CTRS; do
		eval "d=\$(( \$(vmstat $c) - c0_$c ))"
		eval "d_$c=$d"
		[ "$d" != 0 ] && cs="$cs $c=$d"
	done
	cs=${cs# }
}
# What a time limit left behind (stress-ng's workers): killed before umount.
reap() { killall -9 stress-ng fio 2>/dev/null; sleep 1; }
res_pages() { awk '/^node 0 /{ print $6 }' $RES 2>/dev/null; }
res_target() { awk '/^node 0 /{ print $4 }' $RES 2>/dev/null; }

[ -d $FP ] || { fail "fail_page_alloc in debugfs"; finish; exit; }
echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null ||
	echo "note: no hung-task detector"
dmesg -c >/dev/null
if [ -f $RES ]; then
	echo "lb_reserve at boot: $(cat $RES)"
	check "the reserve was filled at boot (lb_reserve=)" test "$(res_pages)" = "$(res_target)" -a "$(res_pages)" -gt 0
fi

truncate -s 3G /tmp/lb.img
losetup $DEV /tmp/lb.img
mkdir -p $MNT /tmp/ref

for bs in $bss; do
	echo "==== ${bs}-byte blocks, every allocation of order >= 4 failing"
	force 0
	if ! mkfs.xfs -q -f -b size=$bs $DEV || ! mount -t xfs $DEV $MNT; then
		fail "mkfs.xfs -b size=$bs and mount"
		continue
	fi
	mov=$(awk '/^Node/ { m = ($4 == "Movable") } m && $1 == "present" { p += $2 } END { print p + 0 }' /proc/zoneinfo)
	if [ "$bs" = 65536 ] && [ "$mov" -gt 0 ] && [ -f $RES ]; then
		# ---- 0. the reserve fills and refills from the
		# allocator although most memory is ZONE_MOVABLE
		echo "lb_reserve with ZONE_MOVABLE ($mov pages present): $(cat $RES)" | tee -a "$OUTF"
		xfs_io -f -c "pwrite -q -b 1m 0 4m" $MNT/rf && sync && echo 1 >/proc/sys/vm/drop_caches
		# the tool's faults fail in the allocator, nothing else does
		force 1 task
		c_snap
		out=$(timeout -s KILL 90 lb-reserve-fill $MNT/rf 32)
		rc=$?
		force 0
		c_show
		echo "bs=$bs lb-reserve-fill rc=$rc $out $cs" | tee -a "$OUTF"
		check "with ZONE_MOVABLE, the reserve fills from the allocator and refills after takes" test $rc = 0
		rm -f $MNT/rf
	fi
	res=$(res_target)
	res=${res:-4096}
	size=$((res * 4096 * 2))
	# The files are written before the failures start: cold on disk.
	xfs_io -f -c "pwrite -q -b 1m -S 0x5a 0 $size" $MNT/fio
	cp /bin/busybox $MNT/busybox
	for op in eof truncate fpunch fzero sendfile cp; do
		for x in $MNT/p-$op /tmp/ref/p-$op; do
			rm -f $x
			xfs_io -f -c "pwrite -q -S 0x11 0 100000" -c "pwrite -q -S 0x33 131072 100000" $x
		done
	done
	# two files with the same bytes, for FIDEDUPERANGE on cold blocks
	for x in d1 d2; do xfs_io -f -c "pwrite -q -S 0x44 0 262144" $MNT/$x; done
	[ "$bs" = 65536 ] && xfs_io -f -c "pwrite -q -b 1m 0 $((size / 2 + 4194304))" $MNT/locked
	umount $MNT
	force 1
	if ! mount -t xfs $DEV $MNT; then
		force 0
		fail "mount of $bs-byte-block XFS with order >= 4 failing"
		continue
	fi

	# ---- 1. fio mmap random writes, verified through the mapping
	c_snap
	t0=$(date +%s)
	timeout -s KILL $T fio --thread --name=mmapw --filename=$MNT/fio --size=$size --ioengine=mmap \
		--rw=randwrite --bs=16k --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--randrepeat=1 --output=/tmp/fio.out >/dev/null 2>&1
	rc=$?
	t=$(( $(date +%s) - t0 ))
	errs=$(grep -o 'err= *[0-9]*' /tmp/fio.out | head -1)
	c_show
	ctr=$cs
	echo "bs=$bs fio-mmap rc=$rc secs=$t $errs $ctr" | tee -a "$OUTF"
	[ $rc = 137 ] && echo "bs=$bs fio-mmap: killed by SIGKILL after $t s ($( [ $t -ge $T ] && echo "the time limit: livelock" || echo "OOM killer"))" | tee -a "$OUTF"
	expect "bs=$bs: fio mmap write+verify of $((size >> 20)) MiB completes with verified data" test $rc = 0
	if [ "$bs" = 65536 ] && [ "$record" != 1 ]; then
		check "bs=$bs: the faults were served by the reserve and by eviction into it" \
			test $((d_minorder_alloc_reserve + d_minorder_alloc_evict)) -gt 0 -a "$d_minorder_fault_sigbus" = 0
	fi

	# ---- 1b. stress-ng's file-backed mmap stressor, verified
	c_snap
	t0=$(date +%s)
	timeout -s KILL $((T + 60)) stress-ng --mmap 2 --mmap-file --mmap-bytes 8m --verify \
		--temp-path $MNT --timeout 20 --metrics-brief >/tmp/sng.out 2>&1
	rc=$?
	t=$(( $(date +%s) - t0 ))
	c_show
	echo "bs=$bs stress-ng-mmap rc=$rc secs=$t $(grep -E 'fail|error|SIGBUS' /tmp/sng.out | head -2 | tr '\n' ' ') $cs" | tee -a "$OUTF"
	expect "bs=$bs: stress-ng --mmap --mmap-file --verify completes" test $rc = 0

	# ---- 2. a program run from the large-block file system
	echo 3 >/proc/sys/vm/drop_caches
	c_snap
	want=$(busybox sha256sum /bin/busybox | cut -d' ' -f1)
	t0=$(date +%s)
	got=$(timeout -s KILL $T $MNT/busybox sha256sum $MNT/busybox 2>/tmp/exec.err | cut -d' ' -f1)
	c_show
	echo "bs=$bs exec secs=$(( $(date +%s) - t0 )) $( [ "$got" = "$want" ] && echo same-sha256 || echo "wrong: '$got' $(head -c 100 /tmp/exec.err)") $cs" | tee -a "$OUTF"
	expect "bs=$bs: a program run from the file system works" test "$got" = "$want"

	# ---- 3. the paths with no way around a folio, each on cold blocks
	c_snap
	bad=0
	for op in eof truncate fpunch fzero sendfile cp; do
		f=$MNT/p-$op r=/tmp/ref/p-$op
		echo 3 >/proc/sys/vm/drop_caches
		rcmd=
		case $op in
		eof) cmd="pwrite -q -S 0x22 300000 1000" ;;
		truncate) cmd="truncate 150000" ;;
		fpunch) cmd="fpunch 70000 8192" ;;
		# tmpfs has no FALLOC_FL_ZERO_RANGE: zeros written instead
		fzero) cmd="fzero 140000 5000" rcmd="pwrite -q -S 0 140000 5000" ;;
		esac
		case $op in
		sendfile)
			out=$(timeout -s KILL 120 xfs_io -f -c "sendfile -q -i $f 0 262144" $f.copy 2>&1)
			rc=$?; f=$f.copy ;;
		cp)
			out=$(timeout -s KILL 120 cp $f $f.copy 2>&1)
			rc=$?; f=$f.copy ;;
		*)
			out=$(timeout -s KILL 120 xfs_io -c "$cmd" $f 2>&1)
			rc=$?
			xfs_io -c "${rcmd:-$cmd}" $r
			if [ $op = truncate ]; then
				xfs_io -c "truncate 200000" $f
				xfs_io -c "truncate 200000" $r
			fi ;;
		esac
		[ -n "$out" ] && rc=$((rc + 1000))
		sync
		echo 3 >/proc/sys/vm/drop_caches
		if [ $rc != 0 ] || ! cmp -s $f $r; then
			bad=$((bad + 1))
			echo "bs=$bs $op: rc=$rc '$out' $(cmp $f $r 2>&1 | head -1)" | tee -a "$OUTF"
		fi
	done
	c_show
	echo "bs=$bs item-3 paths: $bad of 6 wrong $cs" | tee -a "$OUTF"
	expect "bs=$bs: EOF zeroing, truncate, fpunch, fzero, sendfile, cp on cold blocks: no error, same bytes as tmpfs" test $bad = 0

	# ---- 3b. FIDEDUPERANGE of two cold files (remap_range.c reads both
	# blocks into the page cache, read_mapping_folio(): no way around them)
	echo 3 >/proc/sys/vm/drop_caches
	c_snap
	t0=$(date +%s)
	out=$(timeout -s KILL 120 xfs_io -c "dedupe $MNT/d2 0 0 262144" $MNT/d1 2>&1)
	rc=$?
	t=$(( $(date +%s) - t0 ))
	c_show
	same=$(xfs_io -f -c "pwrite -q -S 0x44 0 262144" /tmp/ref/d 2>/dev/null; cmp -s $MNT/d1 /tmp/ref/d && cmp -s $MNT/d2 /tmp/ref/d && echo same || echo changed)
	echo "bs=$bs dedupe rc=$rc secs=$t $(echo "$out" | head -1) $same $cs" | tee -a "$OUTF"
	expect "bs=$bs: FIDEDUPERANGE of 256 KiB of two cold files links them, bytes unchanged" \
		sh -c "[ $rc = 0 ] && [ $same = same ] && echo \"\$1\" | grep -q 'deduped 262144/262144'" - "$out"

	# ---- 4. the reserve spent by design: SIGBUS in bounded time
	if [ "$bs" = 65536 ] && [ -f $RES ]; then
		rm -f $MNT/fio $MNT/p-* $MNT/busybox $MNT/d1 $MNT/d2
		sync
		echo 3 >/proc/sys/vm/drop_caches
		c_snap
		before=$(res_pages)
		out=$(timeout -s KILL 120 lb-sigbus $MNT/locked $((size / 2 + 4194304)) $MNT/direct)
		rc=$?
		c_show
		echo "bs=$bs lb-sigbus rc=$rc $out (reserve pages before: $before) $cs" | tee -a "$OUTF"
		ms=$(echo "$out" | sed -n 's/.*sigbus_ms=\([0-9]*\).*/\1/p')
		check "a fault the reserve cannot serve ends with SIGBUS (not a retry loop)" \
			test $rc = 0 -a -n "$ms" -a "$(echo "$out" | sed -n 's/.*sigbus=\([01]\).*/\1/p')" = 1
		check "... within 5 s (two attempts of the fault, 1 s of waiting each)" test "${ms:-99999}" -le 5000
		check "... and counted (minorder_fault_sigbus)" test "$d_minorder_fault_sigbus" -ge 1
		check "get_user_pages() on that block fails with EFAULT" \
			test "$(echo "$out" | sed -n 's/.*direct_errno=\([0-9]*\).*/\1/p')" = 14
		rm -f $MNT/locked $MNT/direct
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 1
		echo "reserve after munlock and drop_caches: $(cat $RES)" | tee -a "$OUTF"
		check "evicted large-block folios refill the reserve (the allocator failing everything)" \
			test "$(res_pages)" = "$(res_target)"
		# ---- 4b. eviction reaches clean folios of another file behind
		# thousands of newer inodes (inode_sb_list_add() adds at the head)
		force 0
		mkdir -p $MNT/ew
		xfs_io -f -c "pwrite -q -b 1m 0 $((res * 4096))" $MNT/ew/cached
		xfs_io -f -c "pwrite -q -b 1m 0 $((res * 4096))" $MNT/ew/target
		# cold files, and s_inodes rebuilt in the order the tool looks them up
		if umount $MNT && mount -t xfs $DEV $MNT; then
			sleep 1	# the reserve back at its size (nothing fails now)
			force 1
			c_snap
			out=$(timeout -s KILL 300 lb-evict-walk $MNT/ew 3000)
			rc=$?
			c_show
			echo "bs=$bs lb-evict-walk rc=$rc $out $cs" | tee -a "$OUTF"
			check "a fault evicts clean folios of another file behind 3000 newer inodes: no SIGBUS" test $rc = 0
			check "... served by eviction into the reserve (minorder_alloc_evict)" \
				test "${d_minorder_alloc_evict:-0}" -ge 1
			force 0
		else
			fail "bs=$bs: remount for the eviction walk"
		fi
		rm -rf $MNT/ew
		sync
	fi
	force 0
	reap
	umount $MNT || fail "bs=$bs: umount"
	check "bs=$bs: xfs_repair -n clean" xfs_repair -n $DEV >/dev/null 2>&1
done

# ---- 5. (full mode) under unmovable fragmentation, without OOM rescue
# for the workload: vffrag pins every other page; "strict tree on" makes
# its OOM notifier release nothing for the shell below and its children.
FRAG=/sys/kernel/debug/vffrag
if [ "$mode" = full ] && [ -f "$VF_IN/vffrag.ko" ]; then
	force 0
	if insmod "$VF_IN/vffrag.ko" keep_mb=384 && [ -f $FRAG/status ]; then
		echo 3 >/proc/sys/vm/drop_caches
		echo 1 >/proc/sys/vm/compact_memory
		echo refrag >$FRAG/control
		for bs in 16384 32768 65536; do
			echo "==== ${bs}-byte blocks under unmovable fragmentation, no OOM rescue"
			mkfs.xfs -q -f -b size=$bs $DEV && mount -t xfs $DEV $MNT ||
				{ fail "unmovable: mkfs and mount, bs=$bs"; continue; }
			echo refrag >$FRAG/control
			cat /proc/buddyinfo | head -3
			oc0=$(sed -n 's/.*oom_calls=\([0-9]*\).*/\1/p' $FRAG/status)
			c_snap
			t0=$(date +%s)
			(
				echo "strict tree on" >$FRAG/control
				timeout -s KILL $T fio --thread --name=mmapw --filename=$MNT/fio --size=32m --ioengine=mmap \
					--rw=randwrite --bs=16k --verify=crc32c --do_verify=1 --verify_fatal=1 \
					--randrepeat=1 --output=/tmp/fio.out >/dev/null 2>&1 || exit $?
				cp /bin/busybox $MNT/busybox && sync && echo 3 >/proc/sys/vm/drop_caches &&
					timeout -s KILL $T $MNT/busybox true || exit 200
			)
			rc=$?
			echo "strict off" >$FRAG/control
			t=$(( $(date +%s) - t0 ))
			oc=$(( $(sed -n 's/.*oom_calls=\([0-9]*\).*/\1/p' $FRAG/status) - oc0 ))
			kills=$(dmesg | grep -c 'Killed process' || true)
			c_show
			echo "bs=$bs unmovable fio-mmap+exec rc=$rc secs=$t oom_calls=$oc oom_kills_so_far=$kills $cs" | tee -a "$OUTF"
			[ $rc = 137 ] && echo "bs=$bs unmovable: killed by SIGKILL after $t s ($( [ $t -ge $T ] && echo "the time limit: livelock" || echo "OOM killer"))" | tee -a "$OUTF"
			expect "bs=$bs, unmovable, no OOM rescue: fio mmap write+verify and a program from the file system complete" test $rc = 0
			reap
			umount $MNT || fail "unmovable: umount, bs=$bs"
		done
		rmmod vffrag
	else
		fail "insmod vffrag.ko"
	fi
fi
# ---- 6. page faults at a memory cgroup's limit (no forced failure): a
# reader locks its mapping on fault while a hog (oom_score_adj 1000) holds
# the rest of the cgroup in anonymous memory, no swap. The charge of a
# fault must get the cgroup's OOM killer (which kills the hog) on the
# 64 KiB-block XFS as on the 4 KiB-block control, not a retried fault
# ("Retrying PF") until the time limit.
force 0
CG=/sys/fs/cgroup
[ -f $CG/cgroup.controllers ] || mount -t cgroup2 none $CG
echo +memory >$CG/cgroup.subtree_control
ooms_pre=$(dmesg | grep -c 'invoked oom-killer' || true)
for bs in 4096 65536; do
	if ! mkfs.xfs -q -f -b size=$bs $DEV || ! mount -t xfs $DEV $MNT; then
		fail "memcg: mkfs.xfs -b size=$bs and mount"
		continue
	fi
	xfs_io -f -c "pwrite -q -b 1m -S 0x5a 0 8m" $MNT/m
	sync
	echo 3 >/proc/sys/vm/drop_caches
	mkdir -p $CG/lbm
	c_snap
	# the cgroup's OOM kill prints its report with a call trace
	echo "VF-EXPECT-SPLAT-BEGIN memcg OOM kill at the cgroup's limit, bs=$bs" >/dev/kmsg
	out=$(timeout -s KILL 120 lb-memcg-fault $CG/lbm $MNT/m 32 20)
	rc=$?
	echo "VF-EXPECT-SPLAT-END memcg OOM kill, bs=$bs" >/dev/kmsg
	c_show
	echo "bs=$bs memcg-fault rc=$rc $out $cs" | tee -a "$OUTF"
	# A bounded answer, as at order 0: the cgroup's OOM killer acted, and
	# the reader either read the file whole and correct or was killed
	# itself (on the always kernel the 4 KiB control killed both once:
	# the hog's memory was not yet uncharged at the reader's next charge).
	# A retried fault is the time limit: faulter=timeout, oom_kill=0.
	what="bs=$bs: faults at the cgroup's limit get its OOM killer (the file read whole and correct, or the reader OOM-killed), no retry loop"
	ok() {
		test "$(echo "$out" | sed -n 's/.*oom_kill=\([0-9]*\).*/\1/p')" -ge 1 2>/dev/null || return 1
		case "$out" in
		*"faulter=done"*"data=ok"*) return 0 ;;
		*"faulter=signal-9"*) return 0 ;;
		*) return 1 ;;
		esac
	}
	if [ $bs = 4096 ]; then check "$what (control)" ok; else expect "$what" ok; fi
	rmdir $CG/lbm 2>/dev/null || true
	umount $MNT || fail "memcg: umount, bs=$bs"
done
ooms_memcg=$(( $(dmesg | grep -c 'invoked oom-killer' || true) - ooms_pre ))

# ---- 7. the reserve in the kernel's memory accounting (no forced
# failure, nothing mounted): /proc/meminfo's LbReserve is what the reserve
# holds; a caught block counts as freed (pgfree), as a take counts as
# allocated, so that over a refill of the whole reserve (lb_progress off,
# then on: the worker allocates blocks and frees them into the catch)
# pgfree - pgalloc matches the change of the free pages counted anywhere:
# MemFree, the per-cpu lists (zoneinfo's "count:") and the reserve.
# Without the catch's pgfree the two differ by the whole refill.
SW=/sys/kernel/debug/lb_progress
res_all() { awk '/^node / { s += $6 } END { print s + 0 }' $RES 2>/dev/null; }
if [ -f $RES ] && [ -f $SW ]; then
	force 0
	sync
	sleep 1
	mi= rp=
	for i in 1 2 3; do
		rp=$(res_all)
		mi=$(awk '/^LbReserve:/ { print $2 }' /proc/meminfo)
		[ "$rp" = "$(res_all)" ] && break
	done
	echo "meminfo LbReserve: ${mi:-absent} kB; the reserve: $rp pages" | tee -a "$OUTF"
	expect "/proc/meminfo LbReserve is what the reserve holds (${mi:-absent} kB, $rp pages)" \
		test "${mi:-x}" = $((rp * 4))
	acct() { # acct PREFIX: pgfree, pgalloc (all zones), MemFree, per-cpu and reserve pages
		eval "${1}pf=$(vmstat pgfree)"
		eval "${1}pa=$(awk '/^pgalloc_/ { s += $2 } END { print s + 0 }' /proc/vmstat)"
		eval "${1}mf=$(awk '/^MemFree:/ { print int($2 / 4) }' /proc/meminfo)"
		eval "${1}pcp=$(awk '$1 == "count:" { s += $2 } END { print s + 0 }' /proc/zoneinfo)"
		eval "${1}rp=$(res_all)"
	}
	echo 0 >$SW
	sleep 1
	acct a_
	echo 1 >$SW
	tgt=$(awk '/^node / { s += $4 } END { print s + 0 }' $RES)
	for i in $(seq 140); do	# the refill worker may back off up to 64 s
		[ "$(res_all)" -ge "$tgt" ] && break
		sleep 0.5
	done
	sleep 1
	acct b_
	drp=$((b_rp - a_rp))
	dacct=$(( (b_pf - a_pf) - (b_pa - a_pa) ))
	dseen=$(( (b_mf - a_mf) + (b_pcp - a_pcp) + drp ))
	diff=$((dacct - dseen))
	echo "refill of $drp pages: pgfree-pgalloc $dacct, free+pcp+reserve $dseen, difference $diff" | tee -a "$OUTF"
	check "lb_progress off then on refills the reserve ($drp of $tgt pages)" test "$drp" -ge 1024
	expect "the refill's caught blocks count as freed: pgfree - pgalloc ($dacct) within $((drp / 4)) pages of the free pages' change ($dseen)" \
		test "${diff#-}" -le $((drp / 4))
fi

losetup -d $DEV

ooms=$(( $(dmesg | grep -c 'invoked oom-killer' || true) - ooms_memcg ))
echo "kernel: OOM killer invocations $ooms (besides $ooms_memcg of the cgroup test)" | tee -a "$OUTF"
expect "no OOM kill" test "$ooms" = 0
hung=$(dmesg | grep -c 'blocked for more than' || true)
retry=$(dmesg | grep -c 'Retrying PF' || true)
msgs=$(dmesg | grep -c 'KiB folio for' || true)
echo "kernel: hung-task reports $hung, 'Retrying PF' $retry, failure messages $msgs" | tee -a "$OUTF"
dmesg | grep -E 'blocked for more than|Retrying PF|KiB folio for' | head -5
expect "no hung-task report" test "$hung" = 0
expect "no 'VM_FAULT_OOM leaked out ... Retrying PF'" test "$retry" = 0
finish

# Physical fast path of GFP_VFALLBACK against plain alloc_pages(), side by
# side (guest side of bench/fastpath.sh; issue 19, goal 1). Unfragmented.
# For each order, vfbench's pair file runs, in one loop each:
#   plain plain            the noise floor of a ratio (A/A)
#   plain vfallback        what a caller sees
#   plain_noreclaim vfallback
#                          the same page-allocator flags as vfallback's
#                          physical attempt: what the dispatch itself costs
# With vf.frag=1, then (issue 19, goal 3): the unmovable fragmenter
# (vffrag.ko, as in bench.sh's "strict": caches dropped, compaction, the
# blocks it made pinned again before every cell, no OOM rescue for the
# measuring shell), and for each order of vf.frag_orders (1,2,3) and
# vf.frag_rounds rounds: vfallback in mode "auto" and in mode "always",
# alternating which runs first, vf.frag_iters allocations each. Only
# builtins in that part: nothing forks while memory is fragmented.
# vf.pairs=A:B,C:D replaces the three pairs above (e.g. the fallback
# against kvmalloc); with vf.frag_pairs=1 the fragmented part runs those
# pairs (vf.frag_iters rounds, re-pinned before each) instead of the modes,
# as "pairfrag" lines.
# vf.pressure=reclaim runs the unfragmented pairs under ordinary memory
# pressure instead of on idle memory: an ext4 file of 5/4 of the RAM on
# the boot's first disk (/dev/vda) is read before each order, so that
# clean page cache fills memory and free memory is near the watermarks:
# reclaim and compaction can make any block, and a fallback that fires
# there fires where plain succeeds (a "pressure" line per order: MemFree
# and Cached before its pairs); then, per method of vf.hold_methods
# (plain,vfallback), a cell that holds 256 MiB of blocks of the order
# until its end, beyond free memory: reclaim must make the blocks, and a
# "hold" line gives each method's physical and virtual results.
# Parameters (kernel command line): vf.orders=1,2,... vf.iters=N vf.frag=0|1
# vf.frag_orders=1,2,3 vf.frag_rounds=N vf.frag_iters=N vf.pairs vf.frag_pairs
# vf.pressure=none|reclaim
# Output: $VF_OUT/fastpath.txt, one "pair ..." line of key=value per pair
# and one "frag ..." line per fragmented cell.
. /results/scenarios/common.lib

orders=$(vf_arg orders 1,2,3,4,5,6,7,8,9,10 | tr , ' ') iters=$(vf_arg iters 20000)
frag=$(vf_arg frag 0) frag_orders=$(vf_arg frag_orders 1,2,3 | tr , ' ')
frag_rounds=$(vf_arg frag_rounds 5) frag_iters=$(vf_arg frag_iters 2000)
pairs=$(vf_arg pairs plain:plain,plain:vfallback,plain_noreclaim:vfallback | tr ',' ' ')
frag_pairs=$(vf_arg frag_pairs 0) pressure=$(vf_arg pressure none)
hold_methods=$(vf_arg hold_methods plain,vfallback | tr , ' ')
OUTF=$VF_OUT/fastpath.txt
: >"$OUTF"
P=/sys/kernel/debug/vfbench/pair
case "$pressure" in
none) ;;
reclaim)
	if [ ! -b /dev/vda ] || ! mkfs.ext4 -q -F /dev/vda || ! mkdir -p /mnt/p || ! mount /dev/vda /mnt/p; then
		fail "fastpath: vf.pressure=reclaim needs a disk (run.sh --disk) for an ext4 file system"
		finish
		exit
	fi
	mb=$(awk '/^MemTotal:/ { print int($2 * 5 / 4 / 1024) }' /proc/meminfo)
	echo "pressure: writing a $mb MiB file (5/4 of the RAM) on /dev/vda"
	dd if=/dev/zero of=/mnt/p/cache bs=1M count="$mb" 2>/dev/null && sync ||
		fail "fastpath: writing the page-cache file"
	;;
*) fail "fastpath: unknown vf.pressure='$pressure' (none or reclaim)"; finish; exit ;;
esac

if ! insmod "$VF_IN/vfbench.ko"; then
	fail "fastpath: insmod vfbench.ko"
	finish
	exit
fi
grep -qw vfallback /sys/kernel/debug/vfbench/methods ||
	fail "fastpath: this kernel has no GFP_VFALLBACK (a stage kernel is needed)"
# Bad input is refused, not measured.
if echo "plain nosuch 1 10" >$P 2>/dev/null; then fail "fastpath: an unknown method was accepted"; fi
if echo "plain plain 0 10" >$P 2>/dev/null; then fail "fastpath: order 0 was accepted"; fi
echo "mode: $(cat /sys/kernel/mm/vfallback/mode 2>/dev/null || echo unknown)" | tee -a "$OUTF"
for o in $orders; do
	if [ "$pressure" = reclaim ]; then
		cat /mnt/p/cache >/dev/null
		echo "pressure order=$o $(awk '/^MemFree:/ { f = $2 } /^Cached:/ { c = $2 } END { print "memfree_kb=" f " cached_kb=" c }' /proc/meminfo)" | tee -a "$OUTF"
	fi
	for pp in $pairs; do
		pr="${pp%%:*} ${pp#*:}"
		if echo "$pr $o $iters" >$P; then
			echo "pair $(cat $P)" >>"$OUTF"
		else
			fail "fastpath: pair $pr order $o refused"
		fi
	done
	if [ "$pressure" = reclaim ]; then
		# Held allocations: 256 MiB of blocks of this order kept until
		# the end of the cell, far beyond free memory, so that the
		# page cache must be reclaimed (or compacted) for the blocks.
		n=$((65536 >> o))
		for m in $hold_methods; do
			cat /mnt/p/cache >/dev/null
			if echo "$m $o $n noaccess hold=$n" >/sys/kernel/debug/vfbench/run; then
				read -r res </sys/kernel/debug/vfbench/run
				echo "hold $res $(awk '/^MemFree:/ { f = $2 } /^Cached:/ { c = $2 } END { print "memfree_kb=" f " cached_kb=" c }' /proc/meminfo)" >>"$OUTF"
			else
				fail "fastpath: hold cell $m order $o refused"
			fi
		done
	fi
	echo "order $o done"
done
grep -c '^pair ' "$OUTF" | sed 's/^/pairs measured: /'

[ "$frag" = 1 ] || { finish; exit; }
FRAG=/sys/kernel/debug/vffrag M=/sys/kernel/mm/vfallback/mode
SK=/sys/kernel/mm/vfallback/physical_skips R=/sys/kernel/debug/vfbench/run
if ! insmod "$VF_IN/vffrag.ko" || [ ! -f $FRAG/status ]; then
	fail "fastpath: insmod vffrag.ko"
	finish
	exit
fi
mop_blocks() { read -r st <$FRAG/status; st=${st#*mop_blocks=}; mb=${st%% *}; }
for round in 1 2 3 4 5 6; do
	mop_blocks; b0=$mb
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
	echo refrag >$FRAG/control
	mop_blocks; b1=$mb
	[ "$b1" = "$b0" ] && break
done
read -r st <$FRAG/status
echo "fragmented: $st"
if echo "strict on" >$FRAG/control; then strict=on; else strict=refused; fi
for o in $frag_orders; do
	if [ "$frag_pairs" = 1 ]; then
		# builtins only: nothing forks while memory is fragmented
		for pp in $pairs; do
			pr="${pp%%:*} ${pp#*:}"
			echo 3 >/proc/sys/vm/drop_caches
			echo 1 >/proc/sys/vm/compact_memory
			echo refrag >$FRAG/control
			if echo "$pr $o $frag_iters" >$P; then
				read -r res <$P
				echo "pairfrag $res" >>"$OUTF"
			else
				fail "fastpath: fragmented pair $pr order $o refused"
			fi
		done
		echo "fragmented order $o done"
		continue
	fi
	r=1
	while [ $r -le "$frag_rounds" ]; do
		if [ $((r % 2)) = 1 ]; then modes="auto always"; else modes="always auto"; fi
		for mode in $modes; do
			echo $mode >$M
			echo 3 >/proc/sys/vm/drop_caches
			echo 1 >/proc/sys/vm/compact_memory
			echo refrag >$FRAG/control
			sk0=0 sk1=0
			[ -f $SK ] && read -r sk0 <$SK
			if echo "vfallback $o $frag_iters noaccess" >$R; then
				read -r res <$R
				[ -f $SK ] && read -r sk1 <$SK
				echo "frag order=$o round=$r mode=$mode skips=$((sk1 - sk0)) $res" >>"$OUTF"
			else
				fail "fastpath: fragmented cell order $o mode $mode refused"
			fi
		done
		r=$((r + 1))
	done
	echo "fragmented order $o done"
done
echo "strict off" >$FRAG/control
echo auto >$M
echo "strict mode: $strict"
[ $strict = on ] || fail "fastpath: vffrag refused strict mode"
finish

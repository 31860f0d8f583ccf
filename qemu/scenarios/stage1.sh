# Stage-1 scenario: the knobs and counters, and the converted in-tree users
# (swap cluster arrays via swapon/swapoff of a 1 GiB swap device, seq_file
# buffers via large /proc reads) at work under a stress-ng load, with the
# path checked in /proc/vmstat. The expected mode comes from the kernel
# command line (vf.expect=auto|always).
. /results/scenarios/common.lib
expect=$(sed -n 's/.*vf\.expect=\([a-z]*\).*/\1/p' /proc/cmdline)
mode=/sys/kernel/mm/vfallback/mode

check "mode file exists" test -f $mode
echo "mode: $(cat $mode)"
check "mode shows [$expect]" grep -q "\[$expect\]" $mode
if echo bogus >$mode 2>/dev/null; then fail "invalid mode write rejected"; else pass "invalid mode write rejected (EINVAL)"; fi
check "mode unchanged after invalid write" grep -q "\[$expect\]" $mode
for c in vfallback_physical vfallback_virtual vfallback_fail vfallback_free; do
	check "counter $c in /proc/vmstat" grep -q "^$c " /proc/vmstat
done

snapshot before
p0=$(vmstat vfallback_physical) v0=$(vmstat vfallback_virtual) f0=$(vmstat vfallback_free)
s0=$(slabs_virtual)

stress-ng --vm 1 --vm-bytes 64M --vm-keep --timeout 30s --quiet &
load=$!

# swapon/swapoff: zeromap (32 KiB) and cluster_info (order >= 1) for 1 GiB.
truncate -s 1G /tmp/swapfile
losetup /dev/loop0 /tmp/swapfile
check "mkswap 1 GiB" mkswap /dev/loop0
check "swapon" swapon /dev/loop0
check "swap is active" grep -q loop0 /proc/swaps
vc=$(grep -c ' vcompound' /proc/vmallocinfo || true)
echo "vcompound areas in /proc/vmallocinfo while swap is on: $vc"
if [ "$expect" = always ]; then
	check "always: swap arrays are vcompound areas in /proc/vmallocinfo" test "$vc" -ge 2
fi
p1=$(vmstat vfallback_physical) v1=$(vmstat vfallback_virtual)
check "swapoff" swapoff /dev/loop0
losetup -d /dev/loop0
swap_allocs=$(( (p1 - p0) + (v1 - v0) ))
echo "swapon: physical +$((p1 - p0)) virtual +$((v1 - v0))"
check "swapon allocated its 2 cluster arrays with GFP_VFALLBACK" test "$swap_allocs" -ge 2

# seq_file: a record larger than a page makes the buffer grow (order >= 1).
# A tmpfs mounted with a ~4 KiB source name on a ~2.4 KiB path gives a
# /proc/self/mountinfo line of more than 6 KiB.
src=$(head -c 3900 /dev/zero | tr '\0' s)
dir=/tmp
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do dir=$dir/$(head -c 200 /dev/zero | tr '\0' d); done
mkdir -p "$dir"
check "tmpfs with a 3900-byte source mounted" mount -t tmpfs "$src" "$dir"
p2=$(vmstat vfallback_physical) v2=$(vmstat vfallback_virtual)
for i in 1 2 3; do
	cat /proc/self/mountinfo >/dev/null
done
p3=$(vmstat vfallback_physical) v3=$(vmstat vfallback_virtual)
umount "$dir"
echo "seq_file reads: physical +$((p3 - p2)) virtual +$((v3 - v2))"
check "large seq_file reads grew their buffer with GFP_VFALLBACK" test $(( (p3 - p2) + (v3 - v2) )) -ge 1

wait $load || true
settle_deferred
snapshot after
p9=$(vmstat vfallback_physical) v9=$(vmstat vfallback_virtual) f9=$(vmstat vfallback_free)
s9=$(slabs_virtual)
echo "scenario totals: physical +$((p9 - p0)) virtual +$((v9 - v0)) free +$((f9 - f0))" \
	"virtual slabs +$((s9 - s0))"
if [ "$expect" = always ]; then
	check "always: no physical GFP_VFALLBACK allocation" test "$p9" -eq "$p0"
	check "always: virtual path taken" test $((v9 - v0)) -ge 3
	if [ -n "$(ls /sys/kernel/slab/*/slabs_virtual 2>/dev/null)" ]; then
		# Stage 2 on: compounds that became slabs (dentries...) stay in
		# use, and other tasks allocate meanwhile: count what is alive.
		areas=$(grep ' vcompound' /proc/vmallocinfo | grep -vc 'vcompound-reserve' || true)
		echo "vcompound areas alive: $areas, virtual slabs: $s9"
		check "always: every live virtual compound is a slab (none leaked)" test "$areas" -le "$s9"
	else
		check "always: every virtual compound of the scenario freed" test $((f9 - f0)) -ge $((v9 - v0))
	fi
else
	check "auto (unfragmented): physical path taken" test $((p9 - p0)) -ge 3
	check "auto (unfragmented): no virtual fallback needed" test "$v9" -eq "$v0"
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak; sleep 5; echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak || true)
	check "kmemleak: no leaks ($leaks)" test "$leaks" -eq 0
fi
finish

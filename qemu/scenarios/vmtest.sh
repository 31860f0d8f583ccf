# The kernel's own vmalloc benchmark (lib/test_vmalloc.c, issue 19 goal 4):
# load /results/in/test_vmalloc*.ko vf.vm_runs= times (default 3) with its
# standard test mask, one worker per CPU and vf.vm_loops= loops per test
# (default 20000; the module's default of 1000000 takes hours under TCG),
# and write each "Summary:" line (test, passed, failed, avg usec per
# worker) to vmtest.txt as "vmtest run=R worker=W test=T usec=U failed=F".
# The module always returns -EAGAIN after its run (it unloads itself).
# vf.vm_mask=N: the module's run_test_mask (default 2047: its 11 tests).
# vf.vm_perf=1: each load under perf record -a -e cpu-clock, the top
# symbols to vmtest-perf-R.txt (bench/perf.sh profiles one test so).
. /results/scenarios/common.lib
runs=$(vf_arg vm_runs 3)
loops=$(vf_arg vm_loops 20000)
mask=$(vf_arg vm_mask)
vperf=$(vf_arg vm_perf 0)
case "$mask$vperf" in *[!0-9]*) fail "vmtest: vf.vm_mask='$mask' vf.vm_perf='$vperf': numbers"; finish; exit ;; esac
OUTF=$VF_OUT/vmtest.txt
: >"$OUTF"
# bench/test-vmalloc.sh gives build/kernels/test_vmalloc-STAGE-VARIANT.ko.
ko=
for f in "$VF_IN"/test_vmalloc*.ko; do [ -f "$f" ] && ko=$f; done
if [ -z "$ko" ]; then
	fail "a test_vmalloc*.ko given in /results/in (CONFIG_TEST_VMALLOC=m)"
	finish
	exit
fi
# align_shift_alloc_test (mask bit 64) fails by design ("This test case is
# supposed to be failed", lib/test_vmalloc.c: it asks for alignments up
# to 1 << 63) and warns with a backtrace each time: it runs in a load of
# its own after the others, inside an expected-splat window, so that a
# warning from any other test still fails the boot. Any other failed test
# fails the scenario.
mask=${mask:-2047}	# the module's 11 tests
rest=$((mask & ~64))
nfail=0
for r in $(seq "$runs"); do
	dmesg -c >/dev/null	# busybox: -c clears (there is no -C)
	if [ "$rest" = 0 ]; then
		:
	elif [ "$vperf" = 1 ]; then
		perf record -a -q -e cpu-clock -o /tmp/vm.data -- \
			insmod "$ko" test_loop_count="$loops" run_test_mask="$rest" 2>/dev/null || true
		{
			echo "# perf record -a -e cpu-clock: test_vmalloc run_test_mask=$rest test_loop_count=$loops, load $r"
			perf report -i /tmp/vm.data --stdio --sort symbol 2>/dev/null | grep -v '^#' | grep -v '^$' | head -30
		} >"$VF_OUT/vmtest-perf-$r.txt"
		rm -f /tmp/vm.data
	else
		insmod "$ko" test_loop_count="$loops" run_test_mask="$rest" 2>/dev/null || true
	fi
	if [ $((mask & 64)) != 0 ]; then
		echo "VF-EXPECT-SPLAT-BEGIN test_vmalloc run $r: align_shift_alloc_test's vmalloc errors expected" >/dev/kmsg
		insmod "$ko" test_loop_count="$loops" run_test_mask=64 2>/dev/null || true
		echo "VF-EXPECT-SPLAT-END test_vmalloc run $r" >/dev/kmsg
	fi
	# Summary: fix_size_alloc_test passed: 1 failed: 0 repeat: 1 loops: 20000 avg: 1234 usec
	dmesg | awk -v r="$r" '
		/Summary: / { for (i = 1; i <= NF; i++) if ($i == "Summary:") break
			test = $(i + 1); pass = $(i + 3); failed = $(i + 5); usec = $(i + 11)
			w[test]++
			printf "vmtest run=%d worker=%d test=%s usec=%s failed=%s\n", r, w[test] - 1, test, usec, failed }' |
		tee -a "$OUTF"
	n=$(grep -c "^vmtest run=$r " "$OUTF" || true)
	f=$(grep "^vmtest run=$r " "$OUTF" | grep -v " test=align_shift_alloc_test " | grep -vc "failed=0$" || true)
	t1=$(grep "^vmtest run=$r " "$OUTF" | head -n 1 | sed 's/.* test=\([^ ]*\) .*/\1/')
	w=$(grep "^vmtest run=$r " "$OUTF" | grep -c " test=$t1 " || true)
	echo "run $r: $n summaries from $w workers, $f unexpected failures"
	[ "$n" -gt 0 ] && [ "$f" = 0 ] && [ "$w" -ge "$(nproc)" ] || nfail=$((nfail + 1))
done
check "test_vmalloc: every run printed a summary per test from at least one worker per CPU, and no test failed but align_shift_alloc_test ($nfail runs otherwise)" test "$nfail" = 0
finish

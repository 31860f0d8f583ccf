# Scaling of the virtual path's shared structures (guest side of
# bench/window-scaling.sh; issue 15 item 7): vfbench's par file runs one
# method from 1..N kthreads at once (one per CPU), each allocating and
# freeing order-ORDER blocks for vf.ms milliseconds, and reports the ops.
# vfallback on an "always" kernel is the virtual path alone (the window's
# areas); vmalloc, whose areas come from its own per-node pools, is the
# reference. The method that runs first alternates from cell to cell.
# Parameters: vf.orders=1,3 vf.threads=1,2 vf.ms=2000 vf.hold=4
# vf.methods=vfallback,vmalloc vf.reps=2 vf.perf=0|1
# Output: $VF_OUT/winscale.txt, one "par ..." line of key=value per cell.
# With vf.perf=1, after the measured cells: one more cell per method (the
# first order, the most threads) under perf record -a -e cpu-clock, its
# top symbols in $VF_OUT/perf-par-METHOD.txt.
. /results/scenarios/common.lib

orders=$(vf_arg orders 1,3 | tr , ' ') threads=$(vf_arg threads 1,2 | tr , ' ')
ms=$(vf_arg ms 2000) hold=$(vf_arg hold 4) reps=$(vf_arg reps 2)
methods=$(vf_arg methods vfallback,vmalloc | tr , ' ') perf=$(vf_arg perf 0)
OUTF=$VF_OUT/winscale.txt
: >"$OUTF"
P=/sys/kernel/debug/vfbench/par

if ! insmod "$VF_IN/vfbench.ko"; then
	fail "winscale: insmod vfbench.ko"
	finish
	exit
fi
for m in $methods; do
	grep -qw "$m" /sys/kernel/debug/vfbench/methods ||
		fail "winscale: this kernel has no method $m"
done
# Bad input is refused, not measured.
if echo "vmalloc 1 0 10" >$P 2>/dev/null; then fail "winscale: 0 threads were accepted"; fi
if echo "vmalloc 1 1 10 hold=0" >$P 2>/dev/null; then fail "winscale: hold=0 was accepted"; fi
echo "mode: $(cat /sys/kernel/mm/vfallback/mode 2>/dev/null || echo none)" | tee -a "$OUTF"
echo "cpus: $(grep -c ^processor /proc/cpuinfo)" | tee -a "$OUTF"
cell=0
for rep in $(seq "$reps"); do
	for o in $orders; do
		for t in $threads; do
			list=$methods
			[ $((cell % 2)) = 1 ] && list=$(echo "$methods" | tr ' ' '\n' | sed -n '1!G;h;$p' | tr '\n' ' ')
			cell=$((cell + 1))
			for m in $list; do
				if echo "$m $o $t $ms hold=$hold" >$P; then
					echo "par rep=$rep $(cat $P)" >>"$OUTF"
				else
					fail "winscale: par $m order $o threads $t refused"
				fi
			done
		done
	done
	echo "rep $rep done"
done
grep -c '^par ' "$OUTF" | sed 's/^/cells measured: /'
if [ "$perf" = 1 ]; then
	po=${orders%% *} pt=$(echo "$threads" | tr ' ' '\n' | sort -n | tail -1)
	for m in $methods; do
		if perf record -q -a -e cpu-clock -o "/tmp/par-$m.data" -- \
			sh -c 'echo "$1" >"$2"' _ "$m $po $pt $ms hold=$hold" "$P" >/dev/null 2>"$VF_OUT/perf-par-$m.err"; then
			{
				echo "# perf record -a -e cpu-clock: $(cat $P)"
				echo "# top symbols, whole guest"
				perf report -i "/tmp/par-$m.data" --stdio --sort symbol 2>/dev/null |
					grep -v '^#' | grep -v '^$' | head -40
			} >"$VF_OUT/perf-par-$m.txt"
			echo "perf profile of par $m order $po, $pt threads:"
			head -15 "$VF_OUT/perf-par-$m.txt" | sed 's/^/    /'
		else
			fail "winscale: perf record of par $m (see perf-par-$m.err)"
		fi
	done
fi
grep '^par ' "$OUTF" | grep -v ' fail=0 ' | sed 's/^/failures in: /' || true
finish

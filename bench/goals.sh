#!/bin/bash
# Benchmark (make bench-goals): issue 19's five goals from one run. Runs,
# one after the other and with one RESULTS directory,
#   1. bench/fastpath.sh      goals 1 and 3 (REPEAT boots of the top stage's
#                             default kernel)
#   2. bench/deferred.sh      goal 2 (SCENARIOS="none unmovable",
#                             SETTINGS=always:default, orders 1-10, REPEAT
#                             boots per scenario)
#   3. bench/test-vmalloc.sh  goal 4 (REPEAT boot pairs, plain and stage)
#   4. bench/workloads.sh     goal 5 (REPEAT rounds: plain, stage and a
#                             second plain boot, the A/A floor)
#   5. bench/perf.sh          the profiles of every goal, and perf.md
# into build/bench/goals-TIME/results, then copies that directory's files
# to results/ with perf-run.txt (the commit, each step's time and exit
# status, the ACCEL setting, the sha256 of every CSV and profile), which bench/perf-report.py names as the run every goal
# comes from. A step that fails is recorded in perf-run.txt and the run
# goes on; results/ is then left as it was and the script exits 1.
# Every step runs with its defaults: the benchmarks' own settings (ITERS,
# ORDERS, ...) in the caller's environment are not passed on, so that one
# meant for one step cannot change another; goals.sh sets what it needs.
# Environment: REPEAT (default 5), MEM, CPUS, ACCEL, MAX_LOAD.
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"
vf_bench_env bench/goals.sh
repeat=${REPEAT-5}
vf_counts REPEAT="$repeat"
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "bench/goals.sh: needs a stage kernel (no stage has patches)"
run=$VF_BUILD/bench/goals-$(date -u +%Y%m%dT%H%M%SZ)
res=$run/results
mkdir -p "$res"
rev=$(git -C "$VF_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$VF_TOP" status --porcelain 2>/dev/null | grep -c . || true)
{
	echo "run: bench/goals.sh, commit $rev ($dirty files changed in the work tree), stage $top vs plain"
	echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ); REPEAT=$repeat; guests ${mem} / $cpus CPUs;" \
		"ACCEL setting $accel (each CSV and profile names the accelerator its boots had)"
} >"$res/perf-run.txt"
# perf.md carries the hand-written notes of results/ (what was tried).
[ -f "$results/perf-notes.md" ] && cp "$results/perf-notes.md" "$res/"
failed=0
step() { # NAME COMMAND...: one benchmark into $res, timed, its rc recorded
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	say "goals: $name ($(date -u +%H:%M))"
	env -u ITERS -u ORDER -u ORDERS -u REPS -u VREPS -u LOOPS -u RUNS -u SCENARIOS -u SETTINGS \
		-u FRAG -u FRAG_ITERS -u FRAG_ORDERS -u FRAG_ROUNDS -u BEFORE -u AA -u LBS_BS -u VM_MASK \
		-u VM_LOOPS RESULTS="$res" REPEAT="$repeat" "$@" &
	wait $! || rc=$?
	echo "step $name: rc=$rc, $(( $(date +%s) - t0 )) s" >>"$res/perf-run.txt"
	if [ "$rc" != 0 ]; then
		echo "bench/goals.sh: $name exited $rc (see its output above); the run goes on" >&2
		failed=$((failed + 1))
	fi
}
vf_timer_start
step fastpath "$VF_TOP/bench/fastpath.sh"
step deferred env SCENARIOS="none unmovable" SETTINGS=always:default ORDERS=1,2,3,4,5,6,7,8,9,10 \
	"$VF_TOP/bench/deferred.sh"
step test-vmalloc "$VF_TOP/bench/test-vmalloc.sh"
step workloads "$VF_TOP/bench/workloads.sh"
step perf "$VF_TOP/bench/perf.sh"
echo "ended: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$res/perf-run.txt"
vf_timer_end "goals"
if [ "$failed" != 0 ]; then
	die "$failed of 5 steps failed: results/ left as it was; this run's files are in $res"
fi
(cd "$res" && sha256sum -- *.csv perf-profile-*.txt) | sed 's/^/sha256 /; s/  / /' >>"$res/perf-run.txt"
python3 "$VF_TOP/bench/perf-report.py" "$res" >"$res/perf.md"
mkdir -p "$results"
rm -f "$results"/perf-profile-*.txt
cp "$res"/* "$results/"
say "results/ updated from $res; results/perf.md:"
sed -n '/^| goal/,/^$/p' "$results/perf.md"

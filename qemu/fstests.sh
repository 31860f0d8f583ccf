#!/bin/bash
# fstests on a 64 KiB-block XFS in the project's QEMU guests
# (make test-fstests).
#
#   FSTESTS=DIR [SETTINGS="plain 3 3-inject20 3-always"] [TESTS="generic/001 ..."]
#   qemu/fstests.sh
#
# DIR is an fstests checkout outside the project (git clone of xfstests);
# built in place with its own make when it is not built yet. TESTS
# defaults to configs/fstests-lbs.list (FSTESTS_LIST: another list).
# A setting is a kernel and its command line:
#   plain        build/kernels/bzImage-plain-default
#   3            build/kernels/bzImage-3-default
#   3-always     build/kernels/bzImage-3-always
#   3-injectN    bzImage-3-default booted with fail_minorder_folio=1,N,0,-1
#                (N % of the min-order page-cache folio allocations fail)
# (generally STAGE[-VARIANT][-injectN]). The guest runs the host's root
# read-only as a chroot (qemu/scenarios/fstests.sh): TEST_DEV and
# SCRATCH_DEV are fresh virtio disks of FSTESTS_DISK (4G) per boot, one
# ./check per test, several tests per boot.
#
# Results: results/fstests-lbs/SETTING.tsv, one line per test appended as
# the test finishes: KEY TEST pass|fail|notrun REASON SECONDS, KEY being
# the last commit that changed what the setting's kernel is built from:
# the kernel configs (configs/*.config) for plain, the stacks and the
# configs for a stage. A row counts for the current kernel when its key
# names the same last commit of those files (so plain's results survive
# a change of the stacks). A test that the setting already has a row
# for that counts is skipped,
# so a matrix can be spread over several sessions (delete its lines to run
# it again). A test that hangs the guest (no result FSTESTS_TIMEOUT + 300 s
# after it started; the guest itself kills a test at FSTESTS_TIMEOUT, 1800)
# or crashes it is recorded as a fail with the reason, and the remaining
# tests go on in a new boot. Then results/fstests-lbs.txt is written
# (qemu/fstests-report.py). Ctrl-C or TERM stops the guest and keeps the
# results of the tests that finished.
#
# Environment: MEM (2G), CPUS (2), ACCEL (auto), FSTESTS_SOAK (90:
# SOAK_DURATION of the soak tests), FSTESTS_TIMEOUT, FSTESTS_DISK,
# FSTESTS_RESULTS (results/fstests-lbs), FSTESTS_REPORT.
set -uo pipefail
. "$(dirname "$0")/../configs/common.sh"

fst=${FSTESTS:-}
settings=${SETTINGS:-plain 3 3-inject20 3-always}
list=${FSTESTS_LIST:-$VF_TOP/configs/fstests-lbs.list}
tmo=${FSTESTS_TIMEOUT:-1800}
soak=${FSTESTS_SOAK:-90}
disk=${FSTESTS_DISK:-4G}
mem=${MEM:-2G} cpus=${CPUS:-2} accel=${ACCEL:-auto}
out=${FSTESTS_RESULTS:-$VF_TOP/results/fstests-lbs}
report=${FSTESTS_REPORT:-$VF_TOP/results/fstests-lbs.txt}
child= boot_pid=

stop_all() {
	trap - INT TERM
	echo "interrupted: stopping the guest and everything started here" >&2
	[ -n "$boot_pid" ] && kill -TERM "$boot_pid" 2>/dev/null && wait "$boot_pid" 2>/dev/null
	[ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
	[ -n "$boot_pid" ] && harvest
	exit 130
}
trap stop_all INT TERM

for kv in "FSTESTS_TIMEOUT=$tmo" "FSTESTS_SOAK=$soak"; do
	case "${kv#*=}" in '' | *[!0-9]* | 0*) die "fstests: $kv: a whole number of seconds >= 1" ;; esac
done

# --- the checkout, built in place if needed
[ -n "$fst" ] || die "fstests: give FSTESTS=DIR, an fstests checkout outside the project (e.g. git clone of kdave/xfstests into /work/fstests-work)"
[ -x "$fst/check" ] && [ -d "$fst/tests" ] || die "fstests: $fst is not an fstests checkout (no check script, no tests/)"
fst=$(cd "$fst" && pwd -P)
case "$fst" in *[!A-Za-z0-9/._+-]*) die "fstests: the path $fst has characters the guest's command line cannot carry: use a plain path" ;; esac
case "$fst/" in "$VF_TOP"/*) die "fstests: $fst is inside the project; keep fstests' code and binaries outside it (e.g. /work/fstests-work)" ;; esac
# Built: the programs are there, and every tests/DIR has a group list no
# older than its tests (check runs no test that its group list lacks).
built() {
	local d
	[ -x "$fst/ltp/fsx" ] && [ -x "$fst/ltp/fsstress" ] && [ -x "$fst/src/feature" ] || return 1
	for d in "$fst"/tests/*/; do
		[ -f "$d/Makefile" ] || continue
		[ -f "$d/group.list" ] || return 1
		[ -z "$(find "$d" -maxdepth 1 -name '[0-9]*' -newer "$d/group.list" -print -quit)" ] || return 1
	done
}
if ! built; then
	blog=$VF_LOGS/fstests-build.log
	say "fstests: $fst is not built (or a group list is older than its tests): make -j$(nproc) there (log: $blog)"
	(cd "$fst" && make -j"$(nproc)") >"$blog" 2>&1 &
	child=$!
	brc=0
	wait "$child" || brc=$?
	child=
	if [ "$brc" != 0 ] || ! built; then
		echo "fstests: the build failed (exit $brc); what it reported missing:" >&2
		grep -E 'FATAL ERROR|configure: error|fatal error:|cannot find -l|command not found|No such file or directory' "$blog" |
			sort -u | head -15 | sed 's/^/    /' >&2
		missing=()
		for p in $("$VF_TOP/configs/deps.sh" --fstests-packages); do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
		done
		if [ ${#missing[@]} -gt 0 ]; then
			echo "    Debian packages fstests needs that are not installed: ${missing[*]} (make deps installs them)" >&2
		fi
		die "fstests build in $fst failed: see $blog"
	fi
	echo "    built"
fi

# --- the tests
if [ -n "${TESTS:-}" ]; then
	read -r -a tests <<<"$TESTS"
else
	[ -f "$list" ] || die "fstests: no list $list"
	mapfile -t tests < <(sed 's/#.*//' "$list" | awk 'NF { print $1 }')
fi
[ ${#tests[@]} -gt 0 ] || die "fstests: no tests to run"
bad=()
for t in "${tests[@]}"; do
	case "$t" in [a-z]*/[0-9]*) ;; *) bad+=("$t"); continue ;; esac
	[ -f "$fst/tests/$t" ] || bad+=("$t")
done
[ ${#bad[@]} = 0 ] || die "fstests: not tests of $fst: ${bad[*]}"

# --- the commit keys: what each setting's kernel is built from
stack_paths=(stage1-vfallback stage2-irq-slub stage3-largeblock 'configs/*.config')
plain_paths=('configs/*.config')
# kernel_key REV PLAIN|STAGE: the last commit at REV of the files that kernel is built from.
kernel_key() {
	if [ "$2" = plain ]; then
		git -C "$VF_TOP" log -1 --format=%h "$1" -- "${plain_paths[@]}" 2>/dev/null
	else
		git -C "$VF_TOP" log -1 --format=%h "$1" -- "${stack_paths[@]}" 2>/dev/null
	fi
}
key_stage=$(kernel_key HEAD stage) key_plain=$(kernel_key HEAD plain)
[ -n "$key_stage" ] && [ -n "$key_plain" ] ||
	die "fstests: no commit key (git log of the stacks and configs/*.config in $VF_TOP failed): run it in a git clone of the project"
if [ -n "$(git -C "$VF_TOP" status --porcelain -- "${stack_paths[@]}" 2>/dev/null)" ]; then
	echo "WARNING: the stacks or kernel configs have uncommitted changes; results are recorded under the last commit of them ($key_stage, plain $key_plain)" >&2
fi

# --- the settings: kernel and command line; every kernel must exist
declare -A kfile kappend
for s in $settings; do
	base=$s app=
	case "$s" in
	*-inject*)
		pct=${s##*-inject} base=${s%-inject*}
		case "$pct" in [1-9] | [1-9][0-9] | 100) ;; *) die "fstests: setting $s: injectN needs N in 1..100" ;; esac
		app="fail_minorder_folio=1,$pct,0,-1" ;;
	esac
	stage=${base%%-*} variant=default
	[ "$base" != "$stage" ] && variant=${base#*-}
	case "$stage" in plain | 1 | 2 | 3) ;; *) die "fstests: unknown setting '$s': use plain, 3, 3-always, 3-injectN (STAGE[-VARIANT][-injectN])" ;; esac
	case "$variant" in default | always | debug) ;; *) die "fstests: setting $s: unknown variant '$variant'" ;; esac
	if [ -n "$app" ] && [ "$stage" = plain ]; then die "fstests: setting $s: plain has no fail_minorder_folio"; fi
	k=$VF_BUILD/kernels/bzImage-$stage-$variant
	[ -f "$k" ] || die "fstests: setting $s needs $k, which is not built: make kernel STAGE=$stage VARIANT=$variant"
	kfile[$s]=$k kappend[$s]=$app
done

# The guest sees the checkout at its host path, unless its own mounts hide it.
case "$fst/" in /tmp/* | /var/tmp/* | /run/* | /mnt/* | /home/* | /root/* | /dev/* | /proc/* | /sys/*)
	die "fstests: $fst is under a directory the guest covers with its own (tmpfs, /dev, /proc, /sys: /tmp /var/tmp /run /mnt /home /root): put the checkout elsewhere, e.g. /work/fstests-work" ;;
esac
mkdir -p "$out" "$VF_BUILD/fstests"
say "fstests: ${#tests[@]} tests x settings '$settings', keys: stage $key_stage, plain $key_plain, $fst, limit ${tmo}s per test, SOAK_DURATION=$soak, TCG guests $mem / $cpus CPUs"

# valid_keys TSV: the keys of the file's rows that count for the current
# kernel of the setting (kernel_key of the row's key equals $key).
valid_keys() {
	local k kind=stage
	[ "${setting%%-*}" = plain ] && kind=plain
	for k in $(awk -F'\t' '!/^#/ && NF { print $1 }' "$1" | sort -u); do
		[ "$k" = "$key" ] || [ "$(kernel_key "$k" "$kind")" = "$key" ] && echo "$k"
	done
}
# done_tests TSV: the tests the file has a counting row for.
done_tests() {
	awk -F'\t' -v ks=" $(valid_keys "$1" | tr '\n' ' ') " 'index(ks, " " $1 " ") { print $2 }' "$1"
}

# harvest: rows and starts the running (or ended) boot wrote so far; new
# rows go into the setting's TSV (error rows only printed). Sets cur to
# the test that started and has no row yet.
harvest() {
	local f=$rundir/out/fstests.tsv p=$rundir/out/progress n line t st rs secs
	if [ -f "$f" ]; then
		n=$(wc -l <"$f")
		while [ "$rows" -lt "$n" ]; do
			rows=$((rows + 1))
			line=$(sed -n "${rows}p" "$f")
			# (not read with IFS=tab: it would merge the tabs around an empty reason)
			t=${line%%$'\t'*} line=${line#*$'\t'}
			st=${line%%$'\t'*} line=${line#*$'\t'}
			rs=${line%%$'\t'*} secs=${line#*$'\t'}
			if [ "$st" = error ]; then
				errors=$((errors + 1))
				echo "    [$setting] $t: harness error, not recorded: $rs"
				continue
			fi
			errors=0
			printf '%s\t%s\t%s\t%s\t%s\n' "$key" "$t" "$st" "$rs" "$secs" >>"$tsv"
			ndone=$((ndone + 1))
			echo "    [$setting $ndone/${#tests[@]}] $t $st ${secs}s${rs:+  $rs}"
		done
	fi
	cur=
	if [ -f "$p" ]; then
		grep -q '^setup-failed' "$p" && setup_msg=$(sed -n 's/^setup-failed //p' "$p" | head -1)
		if [ "$(grep -c '^start ' "$p")" -gt "$rows" ]; then
			cur=$(grep '^start ' "$p" | tail -n 1 | cut -d' ' -f2)
		fi
	fi
	if [ -n "$cur" ] && [ "$cur" != "$cur_seen" ]; then
		cur_seen=$cur cur_since=$(date +%s)
	fi
}

# record_lost TEST REASON: a fail row for a test the guest did not report.
record_lost() {
	local secs=$(( $(date +%s) - cur_since ))
	printf '%s\t%s\t%s\t%s\t%s\n' "$key" "$1" fail "$2" "$secs" >>"$tsv"
	ndone=$((ndone + 1))
	echo "    [$setting $ndone/${#tests[@]}] $1 fail ${secs}s  $2"
}

# console_cause LOG TEST: the first sign of a crash after TEST started.
console_cause() {
	awk -v t="run fstests $2 " 'index($0, t) { on = 1 } on' "$1" 2>/dev/null |
		grep -m1 -E 'Kernel panic|BUG:|Oops|general protection|Unable to handle|watchdog: |rcu: INFO|Out of memory' |
		sed 's/^\[[ 0-9.]*\] *//' | tr '\t' ' ' | cut -c1-160
}

# write_report: results/fstests-lbs.txt from the TSVs (after every boot).
write_report() {
	local s keyargs=() setting key
	for s in $settings; do
		setting=$s key=$key_stage
		[ "${s%%-*}" = plain ] && key=$key_plain
		[ -f "$out/$s.tsv" ] && keyargs+=(--keys "$s=$(valid_keys "$out/$s.tsv" | { echo "$key"; grep -vx "$key"; } | paste -sd,)")
	done
	python3 "$VF_TOP/qemu/fstests-report.py" "${keyargs[@]}" --list "$list" "$out" >"$report.tmp" &&
		mv "$report.tmp" "$report" && echo "    report: $report"
}

for setting in $settings; do
	key=$key_stage
	[ "${setting%%-*}" = plain ] && key=$key_plain
	tsv=$out/$setting.tsv
	[ -f "$tsv" ] || printf '# key\ttest\tstatus\treason\tseconds\n' >"$tsv"
	nboot=0 errors=0 empty=0
	while :; do
		mapfile -t have < <(done_tests "$tsv")
		declare -A hv=()
		for t in "${have[@]}"; do hv[$t]=1; done
		todo=()
		for t in "${tests[@]}"; do [ -n "${hv[$t]:-}" ] || todo+=("$t"); done
		unset hv
		ndone=$(( ${#tests[@]} - ${#todo[@]} ))
		if [ ${#todo[@]} = 0 ]; then
			say "fstests: $setting: all ${#tests[@]} tests have results for key $key ($tsv)"
			break
		fi
		[ "$errors" -ge 3 ] && die "fstests: $setting: 3 tests in a row ended without a verdict (harness problem): see $rundir/out/check/"
		[ "$empty" -ge 2 ] && die "fstests: $setting: 2 boots in a row ran no test${setup_msg:+ ($setup_msg)}: see $bootlog and $VF_LOGS/$name.console.log"
		nboot=$((nboot + 1))
		name=fstests-$setting-$(date +%Y%m%d-%H%M%S)
		bdir=$VF_BUILD/fstests/$name
		rundir=$VF_BUILD/runs/$name
		bootlog=$bdir/run.log
		mkdir -p "$bdir"
		printf '%s\n' "${todo[@]}" >"$bdir/tests"
		rm -f "$bdir"/*.img
		truncate -s "$disk" "$bdir/test.img" "$bdir/scratch.img" || die "fstests: cannot make the disk images in $bdir"
		say "fstests: $setting: boot $nboot, ${#todo[@]} tests to go ($ndone done for key $key), $(basename "${kfile[$setting]}")${kappend[$setting]:+ ${kappend[$setting]}}"
		rows=0 cur= cur_seen= cur_since=$(date +%s) hung= setup_msg=
		"$VF_TOP/qemu/run.sh" --kernel "${kfile[$setting]}" --name "$name" --scenario fstests \
			--timeout $(( ${#todo[@]} * (tmo + 120) + 900 )) --mem "$mem" --cpus "$cpus" --accel "$accel" \
			--append "vf.fstests_dir=$fst vf.fstests_timeout=$tmo vf.fstests_soak=$soak ${kappend[$setting]}" \
			--in "$bdir/tests" --disk "$bdir/test.img" --disk "$bdir/scratch.img" \
			--share-ro hostroot=/ --no-splat-check >"$bootlog" 2>&1 &
		boot_pid=$!
		before=$ndone
		while kill -0 "$boot_pid" 2>/dev/null; do
			harvest
			if [ -n "$cur" ] && [ $(( $(date +%s) - cur_since )) -gt $((tmo + 300)) ]; then
				hung=$cur
				echo "    [$setting] $cur: no result $((tmo + 300))s after it started: stopping the guest"
				kill -TERM "$boot_pid" 2>/dev/null
				break
			fi
			vf_nap 5
		done
		wait "$boot_pid" 2>/dev/null
		boot_pid=
		harvest
		if [ -n "$cur" ]; then
			if [ -n "$hung" ]; then
				record_lost "$cur" "guest hung: no result within $((tmo + 300))s, guest stopped"
			else
				cause=$(console_cause "$VF_LOGS/$name.console.log" "$cur")
				[ -n "$cause" ] || cause=$(grep -m1 -E 'did not power off|never reached|did not finish' "$bootlog" | sed 's/^FAIL: boot [^:]*: //' | cut -c1-160)
				record_lost "$cur" "guest died during the test: ${cause:-no result, see $VF_LOGS/$name.console.log}"
			fi
		fi
		[ -f "$rundir/out/counters" ] && sed 's/^/    guest counters: /' "$rundir/out/counters"
		if [ "$ndone" = "$before" ] && [ -z "$cur" ]; then
			empty=$((empty + 1))
			echo "    [$setting] boot $nboot ran no test${setup_msg:+: $setup_msg}; the end of $bootlog:"
			tail -n 5 "$bootlog" | sed 's/^/    | /'
		else
			empty=0
		fi
		rm -f "$bdir"/*.img
		write_report >/dev/null
	done
	write_report
done
say "fstests: done ($settings)"

# Shared settings for the project's scripts (sourced, not run).
# shellcheck shell=bash
VF_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VF_BUILD=${VF_BUILD:-$VF_TOP/build}
VF_SRC=$VF_BUILD/src
VF_LOGS=$VF_BUILD/logs
VF_TARBALL=${VF_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
VF_STACKS=(stage1-vfallback stage2-irq-slub stage3-largeblock)
VF_VARIANTS=(default always debug)
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/vfallback-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}
export CCACHE_COMPILERCHECK=content
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=vfallback
export KBUILD_BUILD_HOST=vfallback
export KBUILD_BUILD_VERSION=1
mkdir -p "$VF_LOGS"

die() { echo "ERROR: $*" >&2; exit 1; }
say() { echo "==> $*"; }

# vf_stage_ok STAGE: plain, or a stage number whose stack exists.
vf_check_stage() {
	case "$1" in
	plain) ;;
	1|2|3) [ -f "$VF_TOP/${VF_STACKS[$(($1 - 1))]}/series" ] ||
		die "stage $1 has no series file (${VF_STACKS[$(($1 - 1))]}/series)" ;;
	*) die "unknown STAGE '$1': use plain, 1, 2 or 3" ;;
	esac
}

vf_check_variant() {
	local v
	for v in "${VF_VARIANTS[@]}"; do [ "$v" = "$1" ] && return 0; done
	die "unknown VARIANT '$1': use one of ${VF_VARIANTS[*]}"
}

# Highest stage whose series lists at least one patch (0 if none).
vf_top_stage() {
	local n=0 i
	for i in 1 2 3; do
		grep -qv '^\s*\(#\|$\)' "$VF_TOP/${VF_STACKS[$((i - 1))]}/series" 2>/dev/null && n=$i
	done
	echo "$n"
}

# Source tree of a stage: the pristine tree for plain, else a patched copy.
vf_tree() {
	if [ "$1" = plain ]; then echo "$VF_SRC/pristine"; else echo "$VF_SRC/stage$1"; fi
}

# Out-of-tree build dir. It is a direct subdirectory of the source tree so
# that kbuild uses a relative srctree (".."): compiler command lines are
# then the same in every clone and ccache hits across them.
vf_objdir() { echo "$(vf_tree "$1")/o-$2"; }

# vf_build_modules STAGE VARIANT: bench/vfbench.ko and bench/vffrag.ko,
# built in their own dir against the kernel's O= dir (never loaded here:
# the guests insmod them). Prints the directory.
vf_build_modules() {
	local stage=$1 variant=$2 obj dir
	obj=$(vf_objdir "$stage" "$variant")
	[ -f "$obj/Module.symvers" ] ||
		die "$obj has no Module.symvers: the $stage-$variant kernel tree is not built (make kernel STAGE=$stage VARIANT=$variant)"
	dir=$VF_BUILD/bench/mod-$stage-$variant
	mkdir -p "$dir"
	cp "$VF_TOP"/bench/vfbench.c "$VF_TOP"/bench/vffrag.c "$VF_TOP"/bench/Kbuild "$dir/"
	if ! make -C "$obj" M="$dir" CC="ccache gcc" modules >"$dir/build.log" 2>&1; then
		tail -20 "$dir/build.log" >&2
		die "module build against $obj failed (log: $dir/build.log)"
	fi
	echo "$dir"
}

# vf_quilt ARGS...: quilt, independent of the user's ~/.quiltrc and of
# Debian's /etc/quilt.quiltrc (whose QUILT_PATCHES_PREFIX=yes changes what
# 'quilt next' prints): no rc file is read, every option it needs is set
# here. Refreshing with these options writes patches the way the stacks
# keep them (no timestamps, no index lines, empty context lines empty).
vf_quilt() {
	env -u QUILT_PUSH_ARGS -u QUILT_PATCH_OPTS -u QUILT_SERIES_ARGS -u QUILT_PATCHES_ARGS \
		-u QUILT_PC -u QUILT_SERIES \
		QUILT_PATCHES=patches QUILT_PATCHES_PREFIX= QUILT_NO_DIFF_INDEX=1 \
		QUILT_NO_DIFF_TIMESTAMPS=1 QUILT_DIFF_ARGS="--no-timestamps" \
		QUILT_REFRESH_ARGS="--no-timestamps --no-index -p ab" \
		QUILT_DIFF_OPTS="--show-c-function --suppress-blank-empty" \
		quilt --quiltrc=- "$@"
}

# vf_group_start CMD...: start CMD in a process group of its own (setsid)
# and make INT and TERM stop that whole group (QEMU under timeout, make
# and its compilers) before this script exits with 130. Sets VF_GROUP.
# vf_group_wait: wait for it, return its status, drop the trap.
# vf_nap SECS: an interruptible sleep for progress loops (a trap runs
# while 'wait' waits, not while a foreground sleep does).
vf_group_start() {
	setsid -w "$@" &
	VF_GROUP=$!
	trap 'vf_group_stop' INT TERM
}
vf_group_stop() {
	trap - INT TERM
	[ -n "${VF_NAP:-}" ] && kill "$VF_NAP" 2>/dev/null
	kill -TERM -- "-$VF_GROUP" 2>/dev/null
	sleep 1
	kill -KILL -- "-$VF_GROUP" 2>/dev/null
	wait "$VF_GROUP" 2>/dev/null
	echo "interrupted: stopped process group $VF_GROUP and everything in it" >&2
	exit 130
}
vf_group_wait() {
	local rc=0
	wait "$VF_GROUP" || rc=$?
	trap - INT TERM
	return $rc
}
vf_nap() {
	sleep "$1" &
	VF_NAP=$!
	wait "$VF_NAP" 2>/dev/null || true
	VF_NAP=
}

# vf_fg CMD...: run CMD (a script with its own INT/TERM traps, such as
# qemu/run.sh) and wait for it, returning its status. bash runs this
# shell's traps only when a foreground child has returned, so a TERM to
# a driver that runs QEMU boots in the foreground would wait for the
# boot; 'wait' is interrupted at once, and the driver's trap (kill -TERM
# 0) then stops CMD, which stops its own process group.
vf_fg() {
	"$@" &
	wait "$!"
}

# wait_for_load: refuse to measure on a busy host. Waits (up to 10 min)
# until the 1-minute load is below $max_load (set by the caller), then
# prints the load it started at; stops with a message otherwise.
wait_for_load() {
	local i l
	for i in $(seq 60); do
		l=$(cut -d' ' -f1 /proc/loadavg)
		if awk -v l="$l" -v m="$max_load" 'BEGIN { exit !(l < m) }'; then
			echo "$l"
			return 0
		fi
		[ "$i" = 1 ] && echo "    host load $l >= MAX_LOAD $max_load: waiting for it to drop (a build running?)" >&2
		vf_nap 10
	done
	die "host load stayed >= $max_load for 10 minutes: stop what is running (ps aux --sort=-%cpu | head), or set MAX_LOAD"
}

# Elapsed-time printer for long steps.
vf_timer_start() { VF_T0=$(date +%s); }
vf_timer_end() { echo "==> $1 took $(( $(date +%s) - VF_T0 ))s"; }

# Side-by-side benchmarks (bench/*.sh) share these.
#
# vf_bench_env NAME: the environment every benchmark takes (MEM, CPUS,
# ACCEL, RESULTS, MAX_LOAD) into mem, cpus, accel, results and max_load;
# NAME (e.g. bench/workloads.sh) prefixes its messages. Ctrl-C or a TERM
# stops every guest the benchmark started.
vf_bench_env() {
	VF_BENCH=$1
	mem=${MEM:-2G} cpus=${CPUS:-2} accel=${ACCEL:-auto}
	results=${RESULTS:-$VF_TOP/results}
	max_load=${MAX_LOAD:-$(awk -v n="$(nproc)" 'BEGIN { printf "%.2f", n * 0.5 }')}
	case "$max_load" in
	*[!0-9.]* | *.*.*) die "$VF_BENCH: MAX_LOAD='$max_load' is not a number (e.g. MAX_LOAD=1.0)" ;;
	esac
	trap 'trap - INT TERM; echo "interrupted: stopping everything started here" >&2; kill -TERM 0; exit 130' INT TERM
}

# vf_counts NAME=VALUE...: each VALUE must be a whole number >= 1; the
# first that is not stops the benchmark and names it.
vf_counts() {
	local kv
	for kv in "$@"; do
		case "${kv#*=}" in
		'' | *[!0-9]* | 0 | 0*) die "$VF_BENCH: ${kv%%=*}='${kv#*=}': a whole number >= 1" ;;
		esac
	done
}

# vf_boot_order ROUND K1 K2 ...: the kernels rotated by ROUND - 1 ("A B"
# in odd rounds and "B A" in even ones for two), so that each boots in
# each position and drift of the host over a run cancels between them.
vf_boot_order() {
	local r=$1 i out=''
	shift
	local -a k=("$@")
	for ((i = 0; i < ${#k[@]}; i++)); do
		out+=" ${k[$(((r - 1 + i) % ${#k[@]}))]}"
	done
	echo "${out# }"
}

# vf_bench_kernels SPEC HINT: parse a KERNELS list ("LABEL=BZIMAGE ...")
# into the arrays labels (in order) and kpath (label -> bzImage). A bad
# entry, a label given twice or a missing file stops the benchmark; HINT
# says how to build the missing kernel.
vf_bench_kernels() {
	local spec=$1 hint=$2 kv l p
	labels=()
	declare -gA kpath=()
	for kv in $spec; do
		l=${kv%%=*} p=${kv#*=}
		case "$kv" in *=*) ;; *) die "$VF_BENCH: KERNELS: '$kv' is not LABEL=BZIMAGE" ;; esac
		case "$l" in '' | *[!a-z0-9_-]*) die "$VF_BENCH: KERNELS: label '$l': letters, digits, _ and - only" ;; esac
		[ -z "${kpath[$l]:-}" ] || die "$VF_BENCH: KERNELS: label '$l' given twice"
		[ -f "$p" ] || die "$VF_BENCH: KERNELS: $p not found ($hint)"
		labels+=("$l")
		kpath[$l]=$p
	done
	[ "${#labels[@]}" -ge 1 ] || die "$VF_BENCH: KERNELS is empty: give LABEL=BZIMAGE ..."
}

# vf_bench_boot DIR NAME KERNEL SCENARIO TIMEOUT APPEND [run.sh option...]:
# one measured boot. Waits for a quiet host (VF_LOAD: the load it started
# at), boots KERNEL with the benchmark's mem/cpus/accel, logs to
# DIR/NAME.log and sets VF_ACCEL to the accelerator it ran under. On
# failure prints the log's tail and returns 1, so the caller records the
# failed boot and goes on.
vf_bench_boot() {
	local dir=$1 name=$2 kernel=$3 scenario=$4 timeout=$5 append=$6
	shift 6
	VF_LOAD=$(wait_for_load) || exit 1
	VF_ACCEL=
	if vf_fg "$VF_TOP/qemu/run.sh" --kernel "$kernel" --name "$name" --scenario "$scenario" \
		--timeout "$timeout" --mem "$mem" --cpus "$cpus" --accel "$accel" \
		--append "$append" "$@" >"$dir/$name.log" 2>&1; then
		VF_ACCEL=$(cat "$VF_BUILD/runs/$name/accel")
		return 0
	fi
	echo "$VF_BENCH: boot $name failed; the end of $dir/$name.log:" >&2
	tail -5 "$dir/$name.log" >&2
	return 1
}

# vf_kv_rows TAG FIELDS FILE: the lines "TAG k1=v1 k2=v2 ..." of FILE as
# CSV rows of the values of FIELDS (comma-separated names, in that order);
# a line that lacks one of them, or has it empty, is left out.
vf_kv_rows() {
	awk -v tag="$1" -v fields="$2" '
		BEGIN { n = split(fields, f, ",") }
		$1 == tag {
			delete v
			for (i = 2; i <= NF; i++) {
				p = index($i, "=")
				if (p > 1)
					v[substr($i, 1, p - 1)] = substr($i, p + 1)
			}
			row = ""
			for (i = 1; i <= n; i++) {
				if (!(f[i] in v) || v[f[i]] == "")
					next
				row = row (i > 1 ? "," : "") v[f[i]]
			}
			print row
		}' "$3"
}

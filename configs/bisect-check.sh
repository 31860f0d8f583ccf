#!/bin/bash
# bisect-check.sh [VARIANT]: build every patch of every stack in turn
# (pristine + patches 1..i for each i), so that each patch is known to
# compile on its own. Slow: patches that touch widely included headers
# rebuild most of the kernel. Writes results/bisect-check.txt.
#
# Resumable: a patch that built is remembered in build/bisect-cache.txt
# under a hash of everything its build depended on (the variant, the
# config fragments, the patches up to and including it, the gcc version);
# a later run applies it without building it again and says "cached".
# A run stopped half-way therefore continues where it stopped, and a
# change to patch i rebuilds i and every patch after it.
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=${1:-default}
vf_check_variant "$variant"
"$VF_TOP/configs/mktree.sh" plain >/dev/null
top=$(vf_top_stage)
[ "$top" -ge 1 ] || die "no stage has patches yet"
tree=$VF_SRC/bisect
obj=$tree/o-$variant
rm -rf "$tree"
mkdir -p "$tree/patches" "$obj"
(cd "$VF_SRC/pristine" && find . -mindepth 1 -maxdepth 1 ! -name 'o-*' ! -name '.vf-*' -exec cp -al {} "$tree/" \;)
: >"$tree/patches/series"
frags=("$VF_TOP/configs/base.config")
for ((i = 0; i < top; i++)); do
	s=${VF_STACKS[$i]}
	ln -s "$VF_TOP/$s" "$tree/patches/$s"
	grep -v '^\s*\(#\|$\)' "$VF_TOP/$s/series" | sed "s|^|$s/|" >>"$tree/patches/series"
	[ -f "$VF_TOP/configs/stage$((i + 1)).config" ] && frags+=("$VF_TOP/configs/stage$((i + 1)).config")
done
frags+=("$VF_TOP/configs/variant-$variant.config")
final=$VF_TOP/results/bisect-check.txt
out=$VF_LOGS/bisect-check.txt.partial	# moved to results/ when complete
{
	echo "# bisect-check: each patch built in turn, variant $variant"
	echo "# linux $(cat "$VF_SRC/pristine/.vf-version"), $(date -u +%FT%TZ), gcc $(gcc -dumpversion)"
} >"$out"
cache=$VF_BUILD/bisect-cache.txt
touch "$cache"
# The hash chain starts from what every build shares.
key=$( { echo "$variant"; gcc --version | head -1; cat "${frags[@]}"; } | sha256sum | cut -c1-64)
rc=0
n=$(wc -l <"$tree/patches/series")
for ((i = 1; i <= n; i++)); do
	p=$(sed -n "${i}p" "$tree/patches/series")
	(cd "$tree" && vf_quilt push -q >/dev/null) || die "$p does not apply"
	key=$( { echo "$key"; cat "$tree/patches/$p"; } | sha256sum | cut -c1-64)
	if hit=$(grep "^$key " "$cache" | tail -1) && [ -n "$hit" ]; then
		echo "PASS: $p builds (cached: ${hit#* })" | tee -a "$out"
		continue
	fi
	# Options of later patches do not exist yet: no verification here.
	(cd "$tree" && KCONFIG_CONFIG="$obj/.config" ARCH=x86_64 \
		scripts/kconfig/merge_config.sh -n -O "$obj" "${frags[@]}") >"$VF_LOGS/bisect-config.log" 2>&1
	t0=$(date +%s)
	say "[$i/$n] building with $p"
	if make -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" all \
		>"$VF_LOGS/bisect-$i.log" 2>&1; then
		w=$(grep -c 'warning:' "$VF_LOGS/bisect-$i.log" || true)
		echo "PASS: $p builds ($(( $(date +%s) - t0 ))s, $w compiler warnings)" | tee -a "$out"
		echo "$key built $(date -u +%FT%TZ) in $(( $(date +%s) - t0 ))s, $w compiler warnings" >>"$cache"
	else
		echo "FAIL: $p does not build (log: $VF_LOGS/bisect-$i.log)" | tee -a "$out"
		grep -E 'error' "$VF_LOGS/bisect-$i.log" | head -5
		rc=1
	fi
done
mv "$out" "$final"
echo "results: $final"
exit $rc

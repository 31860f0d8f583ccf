#!/bin/bash
# Prepare the kernel source tree of a stage.
#   mktree.sh plain   the pristine tree from linux-source-6.12
#   mktree.sh N       pristine + stage1..N applied with quilt
# A tree is used only if its stamp (written last) matches its inputs;
# anything else is deleted and recreated, so a half-made tree is never
# trusted.
set -euo pipefail
. "$(dirname "$0")/common.sh"

stage=${1:?usage: mktree.sh plain|1|2|3}
vf_check_stage "$stage"

make_pristine() {
	local dir=$VF_SRC/pristine stamp id
	[ -f "$VF_TARBALL" ] || die "$VF_TARBALL missing: run 'make deps' (package linux-source-6.12)"
	id=$(stat -c '%s %Y' "$VF_TARBALL")
	stamp=$dir/.vf-pristine
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ]; then
		return 0
	fi
	if [ -e "$dir" ]; then
		say "pristine tree is stale or incomplete: removing $dir"
		rm -rf "$dir"
	fi
	say "unpacking $VF_TARBALL"
	vf_timer_start
	rm -rf "$VF_SRC/.unpack"
	mkdir -p "$VF_SRC/.unpack"
	tar -C "$VF_SRC/.unpack" -xf "$VF_TARBALL" ||
		die "unpacking $VF_TARBALL failed (disk full? corrupt package: reinstall linux-source-6.12)"
	mv "$VF_SRC/.unpack/linux-source-6.12" "$dir"
	rmdir "$VF_SRC/.unpack"
	make -s -C "$dir" kernelversion >"$dir/.vf-version"
	echo "$id" >"$stamp"
	vf_timer_end "unpack"
}

stack_hash() {
	local i s
	for ((i = 0; i < $1; i++)); do
		s=$VF_TOP/${VF_STACKS[$i]}
		cat "$s/series"
		while read -r p _; do
			case "$p" in "" | \#*) continue ;; esac
			cat "$s/$p" 2>/dev/null || echo "missing $p"
		done <"$s/series"
	done | sha256sum | cut -d' ' -f1
}

make_stage() {
	local n=$1 dir=$VF_SRC/stage$1 h i s series out
	h=$(stack_hash "$n")
	if [ -f "$dir/.vf-stack" ] && [ "$(cat "$dir/.vf-stack")" = "$h" ]; then
		return 0
	fi
	[ -e "$dir" ] && { say "stage $n tree is stale or incomplete: recreating"; rm -rf "$dir"; }
	say "creating stage $n tree (hard-linked copy of pristine + quilt)"
	mkdir -p "$dir"
	# Hard links: quilt/patch replace files instead of editing in place.
	(cd "$VF_SRC/pristine" && find . -mindepth 1 -maxdepth 1 ! -name 'o-*' ! -name '.vf-pristine' \
		-exec cp -al {} "$dir/" \;)
	mkdir -p "$dir/patches"
	series=$dir/patches/series
	: >"$series"
	for ((i = 0; i < n; i++)); do
		s=${VF_STACKS[$i]}
		ln -s "$VF_TOP/$s" "$dir/patches/$s"
		while read -r p rest; do
			case "$p" in "" | \#*) continue ;; esac
			[ -f "$VF_TOP/$s/$p" ] || die "$s/series lists $p but $s/$p does not exist"
			echo "$s/$p $rest" >>"$series"
		done <"$VF_TOP/$s/series"
	done
	if [ -s "$series" ]; then
		if ! out=$(cd "$dir" && vf_quilt push -a 2>&1); then
			echo "$out" | tail -20 >&2
			bad=$(cd "$dir" && vf_quilt next 2>/dev/null || true)
			rm -rf "$dir"
			die "patch ${bad:-?} does not apply to $(cat "$VF_SRC/pristine/.vf-version") (quilt output above); tree removed"
		fi
		echo "$out" | grep '^Applying patch' | sed 's/^/    /'
	fi
	echo "$h" >"$dir/.vf-stack"
}

make_pristine
echo "kernel source: linux $(cat "$VF_SRC/pristine/.vf-version") from $VF_TARBALL"
[ "$stage" = plain ] || make_stage "$stage"
echo "tree: $(vf_tree "$stage")"

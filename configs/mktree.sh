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

# update_stage DIR: pop every applied patch of a complete tree (from
# quilt's backups: the patch files may have changed) and note the files
# they touched in DIR/.vf-touched. Fails, leaving DIR to be recreated, if
# quilt cannot.
update_stage() {
	local dir=$1
	rm -f "$dir/.vf-stack"
	# "sha256 mtime path" of every file the applied patches touch.
	(cd "$dir" && vf_quilt files -a 2>/dev/null | sort -u | while read -r f; do
		if [ -f "$f" ]; then echo "$(sha256sum <"$f" | cut -d' ' -f1) $(stat -c %Y "$f") $f"; fi
	done >.vf-touched) || return 1
	(cd "$dir" && vf_quilt pop -a -f -q >/dev/null 2>&1) || return 1
	[ ! -s "$dir/.pc/applied-patches" ] || return 1
}

make_stage() {
	local n=$1 dir=$VF_SRC/stage$1 h i s series out
	h=$(stack_hash "$n")
	if [ -f "$dir/.vf-stack" ] && [ "$(cat "$dir/.vf-stack")" = "$h" ]; then
		return 0
	fi
	# A complete tree of other patches is updated in place (its build dirs
	# stay, so only what the change touches is rebuilt): every patch
	# popped from quilt's backups, the new series pushed, and every file
	# the old patches had touched given a fresh copy and mtime, so that
	# make rebuilds what went back to pristine. Anything else, or a failed
	# step, recreates the tree.
	if [ -f "$dir/.vf-stack" ] && [ -d "$dir/.pc" ] && update_stage "$dir"; then
		say "stage $n tree updated in place (patches popped and pushed again; build dirs kept)"
	else
		[ -e "$dir" ] && { say "stage $n tree is stale or incomplete: recreating"; rm -rf "$dir"; }
		say "creating stage $n tree (hard-linked copy of pristine + quilt)"
		mkdir -p "$dir"
		# Hard links: quilt/patch replace files instead of editing in place.
		(cd "$VF_SRC/pristine" && find . -mindepth 1 -maxdepth 1 ! -name 'o-*' ! -name '.vf-pristine' \
			-exec cp -al {} "$dir/" \;)
	fi
	mkdir -p "$dir/patches"
	series=$dir/patches/series
	: >"$series"
	for ((i = 0; i < n; i++)); do
		s=${VF_STACKS[$i]}
		ln -sfn "$VF_TOP/$s" "$dir/patches/$s"
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
	if [ -s "$dir/.vf-touched" ]; then
		# Files the old patches had touched: one whose content is what it
		# was before the update gets its old mtime back (nothing to
		# rebuild); any other a new inode (never the pristine tree's
		# hard-linked one) with a fresh mtime, so that make rebuilds it.
		while read -r sum mtime f; do
			[ -f "$dir/$f" ] || continue
			if [ "$(sha256sum <"$dir/$f" | cut -d' ' -f1)" = "$sum" ]; then
				touch -d "@$mtime" "$dir/$f"
			else
				cp -p "$dir/$f" "$dir/$f.vf-tmp" && mv -f "$dir/$f.vf-tmp" "$dir/$f" && touch "$dir/$f"
			fi
		done <"$dir/.vf-touched"
	fi
	rm -f "$dir/.vf-touched"
	echo "$h" >"$dir/.vf-stack"
}

make_pristine
echo "kernel source: linux $(cat "$VF_SRC/pristine/.vf-version") from $VF_TARBALL"
[ "$stage" = plain ] || make_stage "$stage"
echo "tree: $(vf_tree "$stage")"

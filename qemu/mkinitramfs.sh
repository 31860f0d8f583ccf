#!/bin/bash
# Build the guest initramfs from Debian's binaries: busybox-static,
# stress-ng, perf, fio, mkfs.ext4, mkfs.xfs, xfs_io, xfs_repair and their
# shared libraries.
# Output: build/initramfs.cpio.gz (rebuilt when this script, the init or
# a binary changes).
set -euo pipefail
. "$(dirname "$0")/../configs/common.sh"

out=$VF_BUILD/initramfs.cpio.gz
bins=(/bin/busybox /usr/bin/stress-ng /usr/bin/perf /usr/bin/fio /sbin/mke2fs
      /sbin/mkfs.xfs /usr/sbin/xfs_io /usr/sbin/xfs_repair /usr/bin/bash)
for b in "${bins[@]}"; do
	[ -x "$b" ] || die "$b missing: run 'make deps'"
done
[ -x /bin/busybox ] && file -L /bin/busybox | grep -q 'statically linked' ||
	die "/bin/busybox is not the static busybox: run 'make deps' (busybox-static)"

key=$( (sha256sum "$0" "$VF_TOP/qemu/init" "$VF_TOP"/qemu/tools/*.c "$VF_TOP"/qemu/tools/*.h; for b in "${bins[@]}"; do stat -L -c '%n %s %Y' "$b"; done) | sha256sum)
if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
	echo "initramfs: $out (up to date)"
	exit 0
fi
say "building guest initramfs"
root=$VF_BUILD/initramfs.root
rm -rf "$root" "$out" "$out.key"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,proc,sys,dev,tmp,results,mnt,etc,root}
copy_with_libs() {
	local f=$1 lib
	mkdir -p "$root$(dirname "$f")"
	cp -L "$f" "$root$f"
	for lib in $( (ldd "$f" 2>/dev/null || true) | grep -o '/[^ ]*' || true); do
		if [ ! -e "$root$lib" ]; then
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		fi
	done
}
for b in "${bins[@]}"; do copy_with_libs "$b"; done
ln -sf mke2fs "$root/sbin/mkfs.ext4"
ln -sf busybox "$root/bin/sh"
# The project's own guest tools (static, no libraries to copy).
for src in "$VF_TOP"/qemu/tools/*.c; do
	tool=$(basename "$src" .c)
	gcc -static -O2 -Wall -Werror -o "$root/usr/bin/$tool" "$src" ||
		die "building guest tool $tool from $src failed: is build-essential installed? ('make deps')"
done
cp "$VF_TOP/qemu/init" "$root/init"
chmod +x "$root/init"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 --reproducible | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
echo "$key" >"$out.key"
echo "initramfs: $out ($(du -h "$out" | cut -f1))"

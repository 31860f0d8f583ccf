#!/bin/bash
# Install, idempotently and only what is missing, every Debian package the
# project needs. Runs 'apt-get update' once per machine (stamp in
# build/.apt-updated) when something has to be installed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# fstests (make test-fstests): what its build needs (configure: xfs, uuid,
# acl, attr, aio, io_uring, libcap, gdbm), and what its tests run from the
# host root shared into the guest (dm, quota, attr/acl tools, dbench, fio).
fstests_pkgs=(automake autoconf libtool libtool-bin make gcc pkg-config xfslibs-dev uuid-dev
      libuuid1 uuid-runtime libacl1-dev libattr1-dev libaio-dev liburing-dev libcap-dev
      libgdbm-dev libgdbm-compat-dev acl attr quota dbench psmisc bc dmsetup xfsprogs)
# deps.sh --fstests-packages: print that list (qemu/fstests.sh names the
# missing ones when an fstests build fails).
if [ "${1:-}" = --fstests-packages ]; then
	echo "${fstests_pkgs[*]}"
	exit 0
fi

pkgs=(linux-source-6.12 quilt qemu-system-x86 stress-ng linux-perf busybox-static
      fio xfsprogs e2fsprogs build-essential flex bison bc libelf-dev libssl-dev
      ccache cpio kmod xz-utils python3 python3-matplotlib perl file util-linux
      coreutils gawk "${fstests_pkgs[@]}")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#pkgs[@]} packages installed"
	exit 0
fi
say "installing missing packages: ${missing[*]}"
[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]} (run 'sudo make deps')"
mkdir -p "$VF_BUILD"
if [ ! -f "$VF_BUILD/.apt-updated" ] || ! apt-cache policy "${missing[0]}" | grep -q Candidate; then
	apt-get update -q || die "apt-get update failed: check the network and /etc/apt/sources.list"
	touch "$VF_BUILD/.apt-updated"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >"$VF_LOGS/apt.log" 2>&1 ||
	die "apt-get install failed for: ${missing[*]}"
echo "deps: installed ${missing[*]}"

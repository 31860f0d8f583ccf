# Smoke scenario: the guest userland works, stress-ng runs, and the memory
# state files are readable and copied back to the host.
. /results/scenarios/common.lib
uname -a
snapshot before
check "stress-ng vm stressor runs" stress-ng --vm 2 --vm-bytes 64M --vm-keep --timeout 8s --metrics-brief
check "stress-ng page-allocating stressor runs" stress-ng --mmapmany 1 --timeout 4s
snapshot after
check "buddyinfo lists the zones (DMA32)" grep -q 'zone    DMA32' /proc/buddyinfo
check "extfrag unusable_index readable (debugfs)" test -s "$VF_OUT/unusable-after"
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Conformance and robustness checks of irdma_sim with the stand-in driver
# tests/sim/check/irdma_sim_check.ko (tools/vm/tests.sh builds it; by hand:
#   make -C /lib/modules/$KVER/build M=$PWD/tests/sim/check modules).
# Runs the checks twice, once with a careful and once with a sloppy
# driver teardown, and looks for kernel warnings.
# Run as root in the test VM: tests/vm/50-sim-selftests.sh runs it, or by
# hand tools/vm/run.sh -- tests/sim/check.sh
# Exit: 0 pass, 1 fail, 4 skipped.

set -u

# shellcheck source=tests/sim/lib.sh
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
ko=$here/check/irdma_sim_check.ko

sim_require irdma_sim
[ -f "$ko" ] || { fail "$ko is not built (tools/vm/tests.sh builds it)"; exit 1; }

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	ip link del cva 2>/dev/null
	rmmod irdma_sim_check irdma_sim 2>/dev/null
	rm -f /etc/modprobe.d/irdma-sim-check.conf
}
trap cleanup EXIT
mkdir -p /etc/modprobe.d
echo "install irdma /bin/false" >/etc/modprobe.d/irdma-sim-check.conf
rmmod irdma 2>/dev/null
load irdma_sim || exit 1
ip link add cva type veth peer name cvb
dmesg -C

for sloppy in 0 1; do
	insmod "$ko" sloppy=$sloppy || { fail "insmod"; continue; }
	out=$(rdma link add chk0 type irdma_sim netdev cva 2>&1) &&
		fail "rdma link add succeeded" ||
		grep -qi "no such device" <<<"$out" || fail "rdma link add: $out"
	res=$(dmesg | grep "irdma_sim_check: [0-9]* passed" | tail -1)
	echo "sloppy=$sloppy: ${res#*] }"
	grep -q ", 0 failed" <<<"$res" || fail "checks failed (sloppy=$sloppy)"
	rmmod irdma_sim_check || fail "rmmod irdma_sim_check"
	[ -z "$(ls /sys/bus/irdma_sim/devices)" ] || fail "instance left"
done
rmmod irdma_sim || fail "rmmod irdma_sim"
dmesg | grep "irdma_sim_check: FAIL" | head -20
if dmesg | grep -E "WARNING:|BUG:|Oops|KASAN|possible .*lock|refcount_t|UBSAN|list_del corruption|kmemleak"; then
	fail "kernel warnings"
fi
sim_exit

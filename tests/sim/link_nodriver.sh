#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irdma_sim without the driver: bad input is rejected with the right errno
# and leaves nothing behind; "rdma link add" with no driver to bind fails
# with ENODEV and cleans up; load/unload cycles leak nothing.
# Run as root in the test VM: tools/vm/run.sh -- tests/sim/link_nodriver.sh
# Exit: 0 pass, 1 fail, 4 skipped.

set -u

# shellcheck source=tests/sim/lib.sh
. "$(dirname "$0")/lib.sh"
sim_require rdma irdma_sim

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	ip link del va 2>/dev/null
	rdma link del s0 2>/dev/null
	rmmod irdma_sim 2>/dev/null
	rm -f /etc/modprobe.d/irdma-sim-selftest.conf
}
trap cleanup EXIT

# keep irdma from loading: request_module("irdma") must fail
mkdir -p /etc/modprobe.d
echo "install irdma /bin/false" >/etc/modprobe.d/irdma-sim-selftest.conf
rmmod irdma 2>/dev/null

ip link add va type veth peer name vb || exit 1
dmesg -C

# expect_err ERRTEXT CMD...: the command fails and its message has ERRTEXT
expect_err() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		fail "'$*' succeeded"
	elif ! grep -qi -- "$want" <<<"$out"; then
		fail "'$*': '$out', expected '$want'"
	else
		pass "'$*' -> $want"
	fi
}

# nothing of an instance is left: bus devices, aux devices, IRQs, debugfs
leftovers() {
	local n
	n=$(entries /sys/bus/irdma_sim/devices)
	[ "$n" = 0 ] || fail "$n irdma_sim bus devices left"
	n=$(entries /sys/bus/auxiliary/devices irdma_sim)
	[ "$n" = 0 ] || fail "$n irdma_sim auxiliary devices left"
	n=$(grep -c irdma_sim /proc/interrupts)
	[ "$n" = 0 ] || fail "$n irdma_sim IRQs left"
	n=$(entries /sys/kernel/debug/irdma_sim . defaults)
	[ "$n" = 0 ] || fail "$n debugfs directories left"
}

load irdma_sim || { fail "load irdma_sim"; exit 1; }

expect_err "invalid argument" rdma link add x0 type irdma_sim netdev lo
expect_err "no such device" rdma link add x0 type irdma_sim netdev nonexistent
expect_err "no such device" rdma link add x0 type irdma_sim netdev va
if dmesg | grep -q "irdma did not bind to x0"; then
	pass "message names the device"
else
	fail "no 'irdma did not bind' message"
fi
leftovers

modprobe siw 2>/dev/null || insmod "${IRDMA_SIW_KO:-/nonexistent}" 2>/dev/null
if rdma link add s0 type siw netdev vb 2>/dev/null; then
	expect_err "file exists" rdma link add s0 type irdma_sim netdev va
	rdma link del s0
	leftovers
else
	fail "cannot add a siw device for the name clash test (the VM has siw)"
fi

# namespaces: the netdev lives in another netns
ip netns add simtest
ip link set va netns simtest
expect_err "no such device" ip netns exec simtest rdma link add x1 type irdma_sim netdev va
ip netns exec simtest ip link set va netns 1
ip netns del simtest
leftovers

# 20 load/add/fail/unload cycles; module refcount must drop to 0 each time
slab_before=$(awk '/^kmalloc-/ { s += $2 } END { print s }' /proc/slabinfo)
for i in $(seq 20); do
	load irdma_sim || fail "load $i"
	rdma link add "x$i" type irdma_sim netdev va 2>/dev/null &&
		fail "add $i succeeded"
	rc=$(awk '$1 == "irdma_sim" { print $3 }' /proc/modules)
	[ "$rc" = 0 ] || fail "refcount $rc after cycle $i"
	rmmod irdma_sim || fail "rmmod $i"
done
leftovers
slab_after=$(awk '/^kmalloc-/ { s += $2 } END { print s }' /proc/slabinfo)
echo "kmalloc objects before $slab_before after $slab_after"
dmesg | grep -E "WARNING|BUG|Oops|leak|refcount" && fail "kernel warnings"
sim_exit

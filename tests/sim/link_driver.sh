#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irdma_sim with the irdma driver: bring-up in a network namespace, the
# three ways an instance goes away (rdma link delete, netdev unregister,
# rmmod), irdma unloading under a live instance, fault injection into the
# driver's probe and at run time.  Nothing may be left behind and the
# kernel log must stay free of warnings.
# Run as root in the test VM: tools/vm/run.sh -- tests/sim/link_driver.sh
# Exit: 0 pass, 1 fail, 4 skipped.

set -u

# shellcheck source=tests/sim/lib.sh
. "$(dirname "$0")/lib.sh"
D=/sys/kernel/debug/irdma_sim

sim_require rdma irdma_sim irdma

# shellcheck disable=SC2317 # called by the trap
cleanup() {
	for ns in a b; do ip netns del "$ns" 2>/dev/null; done
	ip link del va 2>/dev/null
	rmmod irdma_sim 2>/dev/null
	rmmod irdma 2>/dev/null
}
trap cleanup EXIT

# wait_gone: queued deletions finish and nothing of any instance is left
wait_gone() {
	local i n
	for i in $(seq 100); do
		n=$(entries /sys/bus/irdma_sim/devices)
		[ "$n" = 0 ] && break
		sleep 0.1
	done
	[ "$n" = 0 ] || fail "$1: $n irdma_sim bus devices left"
	n=$(entries /sys/bus/auxiliary/devices irdma_sim)
	[ "$n" = 0 ] || fail "$1: $n auxiliary devices left"
	n=$(grep -c irdma /proc/interrupts)
	[ "$n" = 0 ] || fail "$1: $n IRQs left"
	n=$(entries "$D" . defaults)
	[ "$n" = 0 ] || fail "$1: $n debugfs directories left"
	n=$(rdma link show 2>/dev/null | wc -l)
	[ "$n" = 0 ] || fail "$1: $n RDMA links left"
	[ $ret = 0 ] && pass "$1: nothing left"
}

# setup NS DEV: a veth end DEV in namespace NS, up, with an address
setup() {
	ip netns add "$1"
	ip link add "$2" type veth peer name "$2p"
	ip link set "$2" netns "$1"
	ip -n "$1" link set "$2" up
	ip link set "$2p" up
}

# add NS DEV NAME: rdma link add in the namespace, then check the device
add() {
	if ! ip netns exec "$1" rdma link add "$3" type irdma_sim netdev "$2"; then
		fail "rdma link add $3 on $2 in $1"
		return 1
	fi
	ip netns exec "$1" ibv_devinfo -d "$3" | grep -q "transport:.*iWARP" ||
		fail "ibv_devinfo -d $3"
	return 0
}

dmesg -C
rmmod irdma_sim 2>/dev/null
rmmod irdma 2>/dev/null

# creating a device loads irdma
setup a va
load irdma_sim
add a va irdma0 && pass "bring-up in a netns, irdma loaded: $(grep -c '^irdma ' /proc/modules)"
for f in info regs cqp hmc queues objects irq stats; do
	cat $D/irdma_sim*/$f >/dev/null || fail "debugfs $f"
done
grep -q "^CQ 0 " $D/irdma_sim*/queues || fail "no CCQ"
grep -q "errors 0" $D/irdma_sim*/cqp || fail "CQP errors during bring-up"

# duplicate netdev
out=$(ip netns exec a rdma link add irdma1 type irdma_sim netdev va 2>&1) &&
	fail "second instance on va" || grep -qi "file exists" <<<"$out" ||
	fail "second instance on va: $out"

# (a) rdma link delete, then at once add again on the same netdev
ip netns exec a rdma link delete irdma0 || fail "rdma link delete"
add a va irdma0 && pass "delete then add at once"
ip netns exec a rdma link delete irdma0
wait_gone "rdma link delete"

# (b) netdev unregister: delete the veth, then delete a namespace
add a va irdma0
ip -n a link del va
wait_gone "veth deleted"
ip netns del a
setup a va
add a va irdma0
ip netns del a
wait_gone "netns deleted"

# (c) rmmod with two live instances
setup a va
setup b vb
add a va irdma0
add b vb irdma1
rmmod irdma_sim || fail "rmmod irdma_sim"
wait_gone "rmmod irdma_sim"
grep -q '^irdma ' /proc/modules || fail "irdma gone with irdma_sim"

# irdma unloaded under a live instance: the instance goes too
load irdma_sim
add a va irdma0
rmmod irdma || fail "rmmod irdma"
wait_gone "rmmod irdma"

# 10 add/delete cycles
for i in $(seq 10); do
	add a va "irdma$i" || break
	ip netns exec a rdma link delete "irdma$i"
done
wait_gone "10 add/delete cycles"

# run-time faults: a failing command (when the driver issues any yet)
add a va irdma0
dir=$(ls -d $D/irdma_sim*)
before=$(awk '/^wqes/ { print $2 }' "$dir/cqp")
echo 0x03 >"$dir/fail_opcode"	# the next CREATE_CQ
ip netns exec a timeout 5 ibv_rc_pingpong -d irdma0 -g 0 >/dev/null 2>&1 &&
	fail "ibv_rc_pingpong with a failing CREATE_CQ"
after=$(awk '/^wqes/ { print $2 }' "$dir/cqp")
if [ "$before" = "$after" ]; then
	fail "the driver issued no CQP command for ibv_rc_pingpong: the fault was not injected"
else
	if grep -q "injected 1" "$dir/cqp"; then
		pass "CREATE_CQ failure injected"
	else
		fail "fail_opcode not used: $(head -3 "$dir/cqp")"
	fi
fi
echo 0xffffffff >"$dir/fail_opcode"
ip netns exec a rdma link delete irdma0
wait_gone "after run-time faults"

# lost interrupts: the driver must complete bring-up by polling
echo 1 >$D/defaults/drop_interrupts
add a va irdma0 && pass "bring-up with every interrupt dropped: $(grep -o 'dropped [0-9]*' $D/irdma_sim*/irq | tr '\n' ' ')"
echo 0 >$D/defaults/drop_interrupts
ip netns exec a rdma link delete irdma0
wait_gone "after lost interrupts"

# probe-time faults: the driver fails its probe, rdma link add says ENODEV
for knob in fail_cqp_create "fail_opcode 0x21" "fail_opcode 0x03" fw_not_ready; do
	read -r knob_name knob_value <<<"$knob"
	echo "${knob_value:-1}" >"$D/defaults/$knob_name"
	out=$(ip netns exec a rdma link add irdma0 type irdma_sim netdev va 2>&1) &&
		fail "add with $knob succeeded" ||
		{ grep -qi "no such device" <<<"$out" && pass "probe fails with $knob"; } ||
		fail "add with $knob: $out"
	case $knob_name in
	fail_opcode) echo 0xffffffff >$D/defaults/fail_opcode ;;
	*) echo 0 >"$D/defaults/$knob_name" ;;
	esac
	wait_gone "after $knob"
done
add a va irdma0 && pass "bring-up after the faults"
ip netns exec a rdma link delete irdma0
wait_gone "final"

if dmesg | grep -E "WARNING:|BUG:|Oops|refcount_t|UBSAN|list_del corruption|unregister_netdevice: waiting"; then
	fail "kernel warnings"
fi
sim_exit

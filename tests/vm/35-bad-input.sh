#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation: bad "rdma link add" requests fail with an errno and change
# nothing: a netdev that does not exist, a second device on a netdev that
# has one, a name already in use.  After each, "rdma link", the auxiliary
# devices and the netdevs' state are as before, and the netdev the failed
# request named still takes a device.
# timeout: 240
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P='bad-input'

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
# a second veth pair: the netdev for the "name in use" case
if ! { ip -n "$T_NS_A" link add va2 type veth peer name vb2 netns "$T_NS_B" &&
	ip -n "$T_NS_A" link set va2 up && ip -n "$T_NS_B" link set vb2 up; }; then
	t_fail "$P/hosts" "cannot create va2/vb2"
	t_exit
fi
t_dmesg_mark "$P"

# state: what a failed request must not change
state() {
	t_in "$T_NS_A" rdma link show 2>&1
	rdma dev show 2>&1
	ls /sys/bus/auxiliary/devices/ 2>&1
	ls /sys/class/infiniband/ 2>&1
}

# refuse NAME CMD...: CMD must fail and leave state() unchanged
refuse() {
	local name=$1 before after out rc=0
	shift
	before=$(state)
	out=$(t_timeout 30 "$@" 2>&1) || rc=$?
	after=$(state)
	t_log "'$*': exit $rc: $out"
	if [ "$rc" -eq 0 ]; then
		t_fail "$name" "'$*' succeeded"
	elif [ "$rc" -ge 124 ]; then
		t_fail "$name" "'$*' timed out or crashed (exit $rc)"
	elif [ "$before" != "$after" ]; then
		diff <(echo "$before") <(echo "$after") | t_indent
		t_fail "$name" "'$*' failed but changed the state"
	else
		t_pass "$name"
	fi
}

refuse "$P/no-such-netdev" t_in "$T_NS_A" rdma link add x type irdma_sim netdev nosuchdev

if ! t_check "$P/add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_exit
fi
t_defer rdma link delete irdma0
t_wait 10 t_rdma_dev_exists irdma0

refuse "$P/netdev-taken" t_in "$T_NS_A" rdma link add irdma1 type irdma_sim netdev "$T_IF_A"
refuse "$P/name-in-use" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev va2

# the refused requests left nothing behind on va2: it takes a device
if t_check "$P/netdev-still-free" t_in "$T_NS_A" rdma link add irdma2 type irdma_sim netdev va2; then
	t_wait 10 t_rdma_dev_exists irdma2
	t_check "$P/delete-irdma2" rdma link delete irdma2
fi
t_check "$P/delete" rdma link delete irdma0
t_dmesg_check "$P/dmesg"
t_exit

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation: each way a device goes away removes it cleanly: "rdma link
# delete", deleting its netdev, "modprobe -r irdma_sim" (with two devices),
# and 10 add/delete cycles on one netdev.  Each time the ib_device and the
# auxiliary device are gone, the kernel log is clean and, at the end, the
# modules unload with no slab growth.
# timeout: 360
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=remove

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
modprobe -r irdma_sim irdma 2>/dev/null

add() { # add NAME NS NETDEV
	t_in "$2" timeout 30 rdma link add "$1" type irdma_sim netdev "$3" &&
		t_wait 10 t_rdma_dev_exists "$1"
}
# shellcheck disable=SC2317 # called through t_wait
no_aux() {
	local d
	for d in /sys/bus/auxiliary/devices/irdma_sim.iwarp.*; do
		[ ! -e "$d" ] || return 1
	done
}

# gone NAME DEV...: the ib_devices and every irdma_sim aux device are gone
gone() {
	local name=$1 d left=
	shift
	for d in "$@"; do
		t_wait 10 eval "! t_rdma_dev_exists $d" || left+=" $d"
	done
	t_wait 10 no_aux || left+=" $(cd /sys/bus/auxiliary/devices && echo irdma_sim.iwarp.*)"
	if [ -z "$left" ]; then
		t_pass "$name"
	else
		t_fail "$name" "still there:$left"
	fi
}

if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
# warm up: the modules and ib_core stay loaded for the slab baseline
modprobe -a rdma_ucm ib_uverbs
add irdma0 "$T_NS_A" "$T_IF_A" && rdma link delete irdma0
slab_before=$(mktemp)
t_slab_snap "$slab_before"

# --- rdma link delete ---------------------------------------------------------
t_dmesg_mark "$P/link-delete"
if add irdma0 "$T_NS_A" "$T_IF_A"; then
	t_check "$P/link-delete" rdma link delete irdma0
	gone "$P/link-delete-gone" irdma0
else
	t_fail "$P/link-delete" "rdma link add failed"
fi
t_dmesg_check "$P/link-delete-dmesg"

# --- 10 add/delete cycles on one netdev -------------------------------------------
t_dmesg_mark "$P/cycles"
ok=1
for i in $(seq 10); do
	if ! add irdma0 "$T_NS_A" "$T_IF_A"; then
		t_fail "$P/cycles" "cycle $i: add failed"
		ok=0
		break
	fi
	if ! out=$(timeout 30 rdma link delete irdma0 2>&1); then
		t_fail "$P/cycles" "cycle $i: delete: $out"
		ok=0
		break
	fi
done
[ "$ok" = 0 ] || t_pass "$P/cycles"
gone "$P/cycles-gone" irdma0
t_dmesg_check "$P/cycles-dmesg"

# --- netdev deletion ---------------------------------------------------------------
t_dmesg_mark "$P/netdev-delete"
if add irdma0 "$T_NS_A" "$T_IF_A"; then
	t_check "$P/netdev-delete" ip -n "$T_NS_A" link del "$T_IF_A"
	gone "$P/netdev-delete-gone" irdma0
else
	t_fail "$P/netdev-delete" "rdma link add failed"
fi
t_dmesg_check "$P/netdev-delete-dmesg"

# --- modprobe -r irdma_sim with two devices ---------------------------------------------
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot recreate netns a/b"
	t_exit
fi
t_dmesg_mark "$P/modprobe-r"
if add irdma0 "$T_NS_A" "$T_IF_A" && add irdma1 "$T_NS_B" "$T_IF_B"; then
	t_check "$P/modprobe-r" modprobe -r irdma_sim
	gone "$P/modprobe-r-gone" irdma0 irdma1
	if t_mod_loaded irdma_sim; then
		t_fail "$P/modprobe-r-unloaded" "irdma_sim still loaded"
	else
		t_pass "$P/modprobe-r-unloaded"
	fi
else
	t_fail "$P/modprobe-r" "rdma link add failed"
fi
t_dmesg_check "$P/modprobe-r-dmesg"

t_check "$P/unload" modprobe -r irdma_sim irdma
# the hosts are up, as at the baseline: what their namespaces and veth
# pair hold is in both snapshots (deleting them after the baseline would
# free objects that hide a leak of as many)
slab_after=$(mktemp)
t_slab_snap "$slab_after"
# the modules are gone: only generic caches can hold a leak
t_slab_cmp "$P/slab" "$slab_before" "$slab_after" '^kmalloc-'
rm -f "$slab_before" "$slab_after"
t_hosts_down
t_exit

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Foundation: "rdma link add irdma0 type irdma_sim netdev va" with irdma not
# loaded loads irdma_sim and irdma, publishes irdma_sim.iwarp.N, and gives
# an iWARP device with the E810's limits whose port follows the netdev's
# link state; rdma link, rdma dev and ibv_devices list it.  Its
# vendor_part_id is the function's PCI device ID: the model's default
# (0x1592, an E810-C for QSFP), and another one set in the model's debugfs
# defaults before the link is added (0x159b, an E810-XXV for SFP).  With
# max_qp=16384 the device has no more QPs than the model's Read Response
# space (Q1) serves.
# timeout: 240
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P='link'

t_require "$P/tools" rdma ibv_devinfo ibv_devices || t_exit
t_need_ours "$P" irdma irdma_sim
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r irdma_sim irdma 2>/dev/null
t_dmesg_mark "$P"

# --- autoload -------------------------------------------------------------
if t_mod_loaded irdma || t_mod_loaded irdma_sim; then
	t_fail "$P/autoload" "irdma/irdma_sim still loaded before the test"
fi
if ! t_check "$P/add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_dmesg_since | tail -n 30 | t_indent
	t_exit
fi
t_defer rdma link delete irdma0
if t_mod_loaded irdma && t_mod_loaded irdma_sim; then
	t_pass "$P/autoload"
else
	t_fail "$P/autoload" "after rdma link add: irdma $(t_modref irdma), irdma_sim $(t_modref irdma_sim)"
fi
adev=
for d in /sys/bus/auxiliary/devices/irdma_sim.iwarp.*; do
	[ -e "$d" ] && adev=$d && break
done
drv=
[ -z "$adev" ] || drv=$(readlink "$adev/driver" 2>/dev/null)
drv=${drv##*/}
# an auxiliary driver is named MODULE.NAME
if [ -n "$adev" ] && [[ "$drv" = irdma.* ]]; then
	t_pass "$P/aux-device"
else
	t_fail "$P/aux-device" "aux device '${adev##*/}' bound to '$drv' (want irdma_sim.iwarp.N bound to irdma)"
fi
t_log "aux device: ${adev##*/} driver: $drv"
if t_wait 10 t_rdma_dev_exists irdma0; then
	t_pass "$P/ib-device"
else
	t_fail "$P/ib-device" "no /sys/class/infiniband/irdma0"
	t_dmesg_since | tail -n 30 | t_indent
	t_exit
fi

# --- attributes -----------------------------------------------------------
info=$(timeout 10 ibv_devinfo -v -d irdma0 2>&1)
t_indent <<<"$info"
field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*//p" <<<"$info" | head -n1; }
expect() {
	local f=$1 want=$2 got
	got=$(field "$f")
	if [ "$got" = "$want" ]; then
		t_pass "$P/attr-$f"
	else
		t_fail "$P/attr-$f" "ibv_devinfo $f: '$got', want '$want'"
	fi
}
expect transport 'iWARP (1)'
expect vendor_id 0x8086
# the function's PCI device ID, which ibv_devinfo prints in decimal
expect vendor_part_id $((0x1592))
expect max_sge 13
# a kernel CQ's ring is one 4 MiB buddy block at most: 2 * (65533 + 1)
# entries of 32 bytes and the shadow area
expect max_cqe 65533
expect max_qp_rd_atom 127
expect max_qp_init_rd_atom 255
# no memory windows yet: none advertised
expect max_mw 0
for f in fw_ver max_qp max_qp_wr max_cq max_mr max_mr_size max_pd \
	page_size_cap max_sge_rd; do
	t_log "$f: $(field "$f")"
done

# --- port state follows the link --------------------------------------------
state=$(t_port_state irdma0)
if [ "$state" = PORT_ACTIVE ]; then
	t_pass "$P/port-active"
else
	t_fail "$P/port-active" "port 1 state '$state'"
fi
t_in "$T_NS_A" ip link set "$T_IF_A" down
if t_wait 5 t_port_state_is irdma0 PORT_DOWN; then
	t_pass "$P/port-down"
else
	t_fail "$P/port-down" "after 'ip link set va down': port state '$(t_port_state irdma0)' after 5 s"
fi
t_in "$T_NS_A" ip link set "$T_IF_A" up
if t_wait 5 t_port_state_is irdma0 PORT_ACTIVE; then
	t_pass "$P/port-up"
else
	t_fail "$P/port-up" "after 'ip link set va up': port state '$(t_port_state irdma0)' after 5 s"
fi

# --- listings ---------------------------------------------------------------
# rdma link names the netdev only inside the netdev's netns
links=$(t_in "$T_NS_A" rdma link show 2>&1)
t_indent <<<"$links"
if grep -q "^link irdma0/1 .*netdev $T_IF_A" <<<"$links"; then
	t_pass "$P/rdma-link"
else
	t_fail "$P/rdma-link" "'rdma link' in netns a does not show irdma0/1 on $T_IF_A"
fi
devs=$(rdma dev show 2>&1)
t_indent <<<"$devs"
if grep -q "^[0-9]*: irdma0: node_type rnic" <<<"$devs"; then
	t_pass "$P/rdma-dev"
else
	t_fail "$P/rdma-dev" "'rdma dev' does not list irdma0 as an rnic"
fi
if timeout 10 ibv_devices 2>&1 | grep -qw irdma0; then
	t_pass "$P/ibv_devices"
else
	t_fail "$P/ibv_devices" "ibv_devices does not list irdma0"
fi
t_log "rdma system: $(rdma system show 2>&1)"

t_check "$P/delete" rdma link delete irdma0

# --- the part ID is the function's --------------------------------------------
defaults=/sys/kernel/debug/irdma_sim/defaults
if [ ! -w "$defaults/device_id" ]; then
	t_fail "$P/part-id" "the model has no $defaults/device_id"
elif echo 0x159b >"$defaults/device_id" &&
	t_check "$P/part-id-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	echo 0x1592 >"$defaults/device_id"
	got=$(timeout 10 ibv_devinfo -v -d irdma0 2>&1 |
		sed -n 's/^[[:space:]]*vendor_part_id:[[:space:]]*//p')
	if [ "$got" = $((0x159b)) ]; then
		t_pass "$P/part-id"
	else
		t_fail "$P/part-id" "with the model's device_id 0x159b: vendor_part_id '$got', want $((0x159b))"
	fi
	rdma link delete irdma0
fi
echo 0x1592 >"$defaults/device_id" 2>/dev/null

# --- max_qp is bounded by the Read Response space ---------------------------
# each QP needs Q1 room for its full IRD; the model's Q1 serves 8192 QPs, so
# max_qp=16384 gives at most 8192 (less the reserved ones)
modprobe -r irdma_sim irdma 2>/dev/null
if t_check "$P/max-qp-param" modprobe irdma max_qp=16384 &&
	t_check "$P/max-qp-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	n=$(timeout 10 ibv_devinfo -v -d irdma0 2>&1 | sed -n 's/^[[:space:]]*max_qp:[[:space:]]*//p')
	if [ -n "$n" ] && [ "$n" -le 8192 ] && [ "$n" -gt 4096 ]; then
		t_pass "$P/max-qp-q1"
	else
		t_fail "$P/max-qp-q1" "max_qp=16384: the device has '$n' QPs, want 4097..8192"
	fi
	rdma link delete irdma0
fi
modprobe -r irdma_sim irdma 2>/dev/null
t_dmesg_check "$P/dmesg"
t_exit

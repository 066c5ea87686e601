#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# Priority-tagged frames (VLAN id 0, what DCB hardware or a VLAN device's
# egress-qos-map sends) belong to the untagged network.  A tc action on
# vb tags every frame netns b sends with VLAN id 0 and priority 3, as a
# DCB NIC does; siw0 sits on vb, irdma0 on va stays untagged.  rping both
# ways, IPv4 and IPv6: the connection is made and the data verified.  A
# capture on va checks that the peer's frames carried the priority tag
# and ours none: the CM answers a priority-tagged SYN untagged.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=vlan-prio

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
if ! t_check "$P/prio-tag" t_in "$T_NS_B" sh -c "
	tc qdisc add dev $T_IF_B clsact &&
	tc filter add dev $T_IF_B egress matchall action vlan push id 0 priority 3"; then
	t_exit
fi
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0

cap=$work/va.pcap
have_cap=1
t_cap_start "$T_NS_A" "$T_IF_A" "$cap" || { t_cap_fail "$P/wire" "$cap" $?; have_cap=0; }

# irdma active: the peer's SYN-ACK arrives priority-tagged
t_rping "$P/irdma-client-siw-ipv4" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7301
t_rping "$P/irdma-client-siw-ipv6" "$T_NS_B" "$T_NS_A" "$T_IP6_B" 7302
# irdma passive: the SYN arrives priority-tagged, the child answers
t_rping "$P/siw-client-irdma-ipv4" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7303
t_rping "$P/siw-client-irdma-ipv6" "$T_NS_A" "$T_NS_B" "$T_IP6_A" 7304

if [ "$have_cap" = 1 ]; then
	t_cap_stop
	count() { tshark -r "$cap" -Y "$1" 2>>"$work/tshark.err" | wc -l; }
	peer="(ip.src == $T_IP_B || ipv6.src == $T_IP6_B)"
	us="(ip.src == $T_IP_A || ipv6.src == $T_IP6_A)"
	peer_tagged=$(count "$peer && vlan.id == 0 && vlan.priority == 3")
	peer_plain=$(count "$peer && !vlan")
	ours_tagged=$(count "$us && vlan")
	ours=$(count "$us")
	t_log "on va: $peer_tagged priority-tagged frames from the peer ($peer_plain untagged), $ours from irdma0 ($ours_tagged tagged)"
	if [ "$peer_tagged" -gt 0 ] && [ "$peer_plain" -eq 0 ] &&
	   [ "$ours" -gt 0 ] && [ "$ours_tagged" -eq 0 ]; then
		t_pass "$P/wire"
	else
		t_indent <"$work/tshark.err"
		t_fail "$P/wire" "peer tagged $peer_tagged untagged $peer_plain; ours $ours, tagged $ours_tagged"
	fi
fi

t_check "$P/link-delete-siw" rdma link delete siw0
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit

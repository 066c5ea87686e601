#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# iWARP traffic through the model's QP engine and TCP offload: rping
# (Send/Recv, RDMA Read and Write, completion events, graceful close) with
# verified data, 10 pings per run, over IPv4 and IPv6:
#   - irdma0 (irdma_sim on va, netns a) as client of siw0 (vb, netns b);
#   - siw0 as client of irdma0 (siw's MPA v2 request lacks the
#     peer-to-peer flag: the client-server model, no RTR);
#   - irdma0 to itself (loopback: both ends on one device);
#   - irdma0 <-> irdma1 (a second model instance on vb), both directions.
# Then the devices go, the modules unload, and the kernel log is clean.
# A capture on vb, decoded by tshark's iWARP dissectors, checks the
# model's FPDUs: MPA CRC good, DDP/RDMAP versions, no malformed frames.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=rping

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0

cap=$work/vb.pcap
have_cap=1
t_cap_start "$T_NS_B" "$T_IF_B" "$cap" || { t_cap_fail "$P/wire" "$cap" $?; have_cap=0; }

t_rping "$P/irdma-client-siw-ipv4" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7201
t_rping "$P/irdma-client-siw-ipv6" "$T_NS_B" "$T_NS_A" "$T_IP6_B" 7202
# siw asks for MPA v2 without the peer-to-peer flag: no RTR, it sends first
t_rping "$P/siw-client-irdma-ipv4" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7207
t_rping "$P/siw-client-irdma-ipv6" "$T_NS_A" "$T_NS_B" "$T_IP6_A" 7208
# both ends on irdma0: the CM joins the nodes without the wire, the
# adapter loops the QPs' traffic back
t_rping "$P/irdma-loopback-ipv4" "$T_NS_A" "$T_NS_A" "$T_IP_A" 7209
t_rping "$P/irdma-loopback-ipv6" "$T_NS_A" "$T_NS_A" "$T_IP6_A" 7210

t_check "$P/link-delete-siw" rdma link delete siw0
if t_check "$P/link-add-irdma1" t_in "$T_NS_B" rdma link add irdma1 type irdma_sim netdev "$T_IF_B"; then
	t_defer rdma link delete irdma1
	t_rping "$P/irdma-irdma-ipv4" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7203
	t_rping "$P/irdma-irdma-ipv6" "$T_NS_B" "$T_NS_A" "$T_IP6_B" 7204
	t_rping "$P/irdma-irdma-rev-ipv4" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7205
	t_rping "$P/irdma-irdma-rev-ipv6" "$T_NS_A" "$T_NS_B" "$T_IP6_A" 7206
	t_check "$P/link-delete-irdma1" rdma link delete irdma1
fi

if [ "$have_cap" = 1 ]; then
	t_cap_stop
	tshark -r "$cap" -Y iwarp_ddp -O iwarp_mpa,iwarp_ddp_rdmap >"$work/fpdus" 2>"$work/tshark.err"
	n=$(grep -c '^Frame ' "$work/fpdus")
	good=$(grep -c 'Good CRC32' "$work/fpdus")
	bad=$(grep -E -m 3 'Bad CRC32|Malformed|protocol version: [02-9]|= Version: [02-9]' "$work/fpdus")
	if [ "$n" -gt 0 ] && [ "$good" -ge "$n" ] && [ -z "$bad" ]; then
		t_pass "$P/wire"
		t_log "$n frames with FPDUs decoded on vb, $good MPA CRCs good"
	else
		t_indent <"$work/tshark.err"
		t_indent <<<"$bad"
		t_fail "$P/wire" "$n frames with FPDUs, $good good CRCs; bad: $bad"
	fi
fi

t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit

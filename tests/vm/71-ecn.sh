#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# ECN (RFC 3168) is negotiated in the handshake, as the namespace's TCP
# sockets do it (net.ipv4.tcp_ecn: 1 asks and accepts, 2 accepts when
# asked), and only a connection that negotiated it carries ECT on its
# data.  rping between irdma0 (va) and siw0 (vb, whose kernel socket
# follows netns b's tcp_ecn), each case on its own port, a capture on va:
#   asked:      netns a tcp_ecn=1, irdma0 connects to siw0 (IPv4 and
#               IPv6): our SYN has ECE and CWR, the SYN-ACK ECE, our data
#               segments ECT(0);
#   granted:    netns b tcp_ecn=1, siw0 connects to irdma0: our SYN-ACK
#               has ECE, our data ECT(0);
#   not asked:  both at the default (2): no ECE anywhere, our data not
#               ECT.
# Before, the CM never asked nor granted ECN, and the QP context still
# enabled ECN with ECT(0).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=ecn

t_require "$P/tools" rdma rping tshark dumpcap || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP6_B" >/dev/null 2>&1
t_defer ip netns exec "$T_NS_A" sysctl -qw net.ipv4.tcp_ecn=2
t_defer ip netns exec "$T_NS_B" sysctl -qw net.ipv4.tcp_ecn=2

cap=$work/va.pcap
t_cap_start "$T_NS_A" "$T_IF_A" "$cap"
rc=$?
if [ "$rc" -ne 0 ]; then
	t_cap_fail "$P/capture" "$cap" "$rc"
	t_exit
fi
t_in "$T_NS_A" sysctl -qw net.ipv4.tcp_ecn=1
t_rping "$P/asked-ipv4" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7101
t_rping "$P/asked-ipv6" "$T_NS_B" "$T_NS_A" "$T_IP6_B" 7102
t_in "$T_NS_A" sysctl -qw net.ipv4.tcp_ecn=2
t_in "$T_NS_B" sysctl -qw net.ipv4.tcp_ecn=1
t_rping "$P/granted-ipv4" "$T_NS_A" "$T_NS_B" "$T_IP_A" 7103
t_in "$T_NS_B" sysctl -qw net.ipv4.tcp_ecn=2
t_rping "$P/not-asked-ipv4" "$T_NS_B" "$T_NS_A" "$T_IP_B" 7104
t_cap_stop

# one line per TCP frame: addresses, ports, SYN, ACK, ECE, CWR, payload
# length, ECN field (IPv4 or IPv6), and whether it is an MPA request or
# reply (sent by the CM before the offload, not by the connection)
tshark -r "$cap" -Y tcp -T fields -E separator='|' -E occurrence=f \
	-e ip.src -e ipv6.src -e tcp.srcport -e tcp.dstport \
	-e tcp.flags.syn -e tcp.flags.ack -e tcp.flags.ece -e tcp.flags.cwr \
	-e tcp.len -e ip.dsfield.ecn -e ipv6.tclass.ecn \
	-e iwarp_mpa.key.req -e iwarp_mpa.key.rep >"$work/frames" 2>"$work/tshark.err"
t_log "capture: $(wc -l <"$work/frames") TCP frames"

# sum PORT: "SYN-ECE,SYN-CWR,SYNACK-ECE,SYNACK-CWR data ect" of the
# connection on PORT: the flags of its SYN and SYN-ACK, and how many of
# our data segments (MPA frames aside) there are and carry ECT(0)
sum() {
	awk -F'|' -v p="$1" -v a="$T_IP_A" -v a6="$T_IP6_A" '
	function b(x) { return x == "1" || x == "True" }
	$3 != p && $4 != p { next }
	b($5) && !b($6) && syn == "" { syn = b($7) "," b($8) }
	b($5) && b($6) && synack == "" { synack = b($7) "," b($8) }
	($1 == a || $2 == a6) && $9 > 0 && $12 == "" && $13 == "" {
		n++; e = $10 != "" ? $10 : $11; if (e == 2) ect++
	}
	END { print syn "," synack, n + 0, ect + 0 }' "$work/frames"
}

# check NAME PORT FLAGS all|none: the handshake's ECE/CWR flags are FLAGS,
# and all (a retransmission aside) or none of our data segments are ECT(0)
check() {
	local name=$1 flags n ect
	read -r flags n ect <<<"$(sum "$2")"
	t_log "$name: SYN ECE,CWR and SYN-ACK ECE,CWR = $flags; our data: $n segments, $ect ECT(0)"
	if [ "$flags" = "$3" ] && [ "$n" -gt 0 ] &&
	   { { [ "$4" = all ] && [ "$ect" -ge $((n - 1)) ]; } ||
	     { [ "$4" = none ] && [ "$ect" -eq 0 ]; }; }; then
		t_pass "$name"
	else
		t_indent <"$work/tshark.err"
		t_fail "$name" "want flags $3 and $4 of our data ECT(0)"
	fi
}
check "$P/wire-asked-ipv4" 7101 1,1,1,0 all
check "$P/wire-asked-ipv6" 7102 1,1,1,0 all
check "$P/wire-granted-ipv4" 7103 1,1,1,0 all
check "$P/wire-not-asked-ipv4" 7104 0,0,0,0 none

t_check "$P/link-delete-siw" rdma link delete siw0
t_dmesg_check "$P/dmesg"
t_exit

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# The model's ILQ data path on the wire: irdma0 (irdma_sim on va, netns a)
# listens through rdma_cm (tests/progs/cm_reject -s, which refuses
# each request with private data); peers in netns b connect over vb:
#   - siw (cm_reject -c): SYN, SYN-ACK, MPA request, MPA reply with the R
#     flag.  siw in 6.1 always sends an MPA v2 request without the
#     peer-to-peer flag, which the CM refuses by itself (as upstream irdma
#     does), so the listener never sees it and the reply has no private
#     data;
#   - the kernel's TCP with a hand-made MPA v2 request (mpa_peer -c, P2P +
#     Read RTR): the listener gets the request's private data and its
#     rdma_reject() private data comes back in an MPA reply with R set;
# over IPv4 and IPv6, untagged and on an 802.1Q device (va.100).  A capture on vb (dumpcap, decoded by tshark's iWARP
# dissector) checks the frames the model built: IP and TCP checksums, TTL,
# DF, the MPA reply's R flag and private data.  Other traffic on va (ping,
# plain TCP to other ports) is untouched; a segment too large for the ILQ
# buffer is dropped and counted; a bridge port is refused (rx_handler
# slot taken); deleting va detaches the model.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=ilq

t_require "$P/tools" rdma ibv_devinfo || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" cm_reject mpa_peer
if ! t_hosts_up; then
	t_fail "$P/hosts" "cannot create netns a/b joined by va/vb"
	t_exit
fi
modprobe -r irdma_sim irdma 2>/dev/null
if ! modprobe siw || ! modprobe -a rdma_ucm ib_uverbs; then
	t_fail "$P/modprobe" "cannot load siw, rdma_ucm, ib_uverbs"
	t_exit
fi
t_dmesg_mark "$P"
work=$(mktemp -d)
t_defer rm -rf "$work"

if ! t_check "$P/link-add" t_in "$T_NS_A" rdma link add irdma0 type irdma_sim netdev "$T_IF_A"; then
	t_dmesg_since | tail -n 30 | t_indent
	t_exit
fi
t_defer rdma link delete irdma0
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
dbg=$(t_sim_dbg)
# net_field NAME: a counter of the model's "net" debugfs file
net_field() { t_sim_net "$dbg" "$1"; }
if [ -n "$dbg" ] && [ "$(net_field attached)" = 1 ]; then
	t_pass "$P/attached"
else
	t_fail "$P/attached" "no irdma_sim debugfs 'net' file saying attached 1 (${dbg:-none})"
	t_exit
fi

# the capture: dumpcap starts in a few seconds, tshark decodes at the end.
# The host stack in a answers a late segment of a closed connection with a
# RST from the same address and port as the model's frames; with transmit
# checksum offload on veth its checksum is still partial when captured on
# vb: turn the offload off, so every frame checked below must be good.
t_in "$T_NS_A" ethtool -K "$T_IF_A" tx off >/dev/null 2>&1 ||
	t_log "cannot turn checksum offload off on $T_IF_A"
cap=$work/vb.pcap
have_cap=0
t_cap_start "$T_NS_B" "$T_IF_B" "$cap"
case $? in
0)	have_cap=1 ;;
1)	t_skip "$P/capture" "dumpcap/tshark not installed" ;;
*)	t_indent <"$cap.log"
	t_fail "$P/capture" "dumpcap did not start" ;;
esac

# --- traffic that is not the ILQ's passes to the stack ---------------------
t_check "$P/ping-ipv4" t_in "$T_NS_B" ping -c 2 -i 0.2 -W 2 "$T_IP_A"
t_check "$P/ping-ipv6" t_in "$T_NS_B" ping -c 2 -i 0.2 -W 2 "$T_IP6_A"
# echo_pair NAME ADDR PORT: a plain TCP echo server in a, a client in b
echo_pair() {
	local name=$1 addr=$2 port=$3 spid
	ip netns exec "$T_NS_A" "$T_PROGS/mpa_peer" -l -a "$addr" -p "$port" -t 20 >"$work/echo.$port" 2>&1 &
	spid=$!
	t_wait 10 grep -q 'echo server' "$work/echo.$port"
	t_check "$name" t_in "$T_NS_B" "$T_PROGS/mpa_peer" -s -a "$addr" -p "$port" -t 10
	wait "$spid" || t_indent <"$work/echo.$port"
}
echo_pair "$P/plain-tcp-ipv4" "$T_IP_A" 7100
echo_pair "$P/plain-tcp-ipv6" "$T_IP6_A" 7101

# --- siw connects; the listener sees its request and rejects it -----------
# soft-iWARP asks for MPA v2 without flag A (the client-server model): the
# CM hands the request with its private data to the listener, which
# refuses with private data of its own.
# siw_pair NAME ADDR PORT
siw_pair() {
	local name=$1 addr=$2 port=$3 spid out rc=0 src=0
	ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$addr" -p "$port" -t 30 >"$work/srv.$port" 2>&1 &
	spid=$!
	if ! t_wait 20 t_rdma_listening "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv.$port"
		t_fail "$name" "the irdma0 listener does not listen"
		return
	fi
	out=$(t_in "$T_NS_B" timeout 30 "$T_PROGS/cm_reject" -c -a "$addr" -p "$port" -t 20 2>&1) || rc=$?
	wait "$spid" || src=$?
	t_indent <<<"$out"
	if [ "$rc" -eq 0 ] && [ "$src" -eq 0 ] &&
		grep -q "request private data (21 bytes): 'hello from the client'" "$work/srv.$port"; then
		t_pass "$name"
		t_log "siw client: $(grep -o 'REJECTED.*' <<<"$out")"
	else
		t_indent <"$work/srv.$port"
		t_fail "$name" "siw client exited $rc (want RDMA_CM_EVENT_REJECTED with the listener's private data), listener $src"
	fi
}
siw_pair "$P/siw-reject-ipv4" "$T_IP_A" 7000
siw_pair "$P/siw-reject-ipv6" "$T_IP6_A" 7002

# --- a P2P MPA v2 request reaches the listener, its reject comes back ------
diag() {
	t_log "DIAG queues"; t_indent <"$dbg/queues"
	t_log "DIAG cqp"; head -3 "$dbg/cqp" | t_indent
	t_log "DIAG irq"; t_indent <"$dbg/irq"
	grep -E 'QP|QHASH|ARP|AH' "$dbg/objects" | t_indent
	local t
	for t in /proc/[0-9]*/task/[0-9]*; do
		case "$(cat "$t/comm" 2>/dev/null)" in
		irq/*irdma* | kworker* | cm_reject | mpa_peer) ;;
		*) continue ;;
		esac
		grep -q -E 'irdma|mutex|wait_for|schedule_timeout' "$t/stack" 2>/dev/null || continue
		t_log "task $(cat "$t/comm") $(awk '{print $3}' "$t/stat")"
		t_indent <"$t/stack"
	done
}
# mpa_pair NAME ADDR PORT [LISTEN_ADDR]: the listener binds LISTEN_ADDR
# (default ADDR), the client connects to ADDR
mpa_pair() {
	local name=$1 addr=$2 port=$3 laddr=${4:-$2} spid out rc=0 src=0
	ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$laddr" -p "$port" -d "irdma says no" -t 30 >"$work/srv.$port" 2>&1 &
	spid=$!
	if ! t_wait 20 t_rdma_listening "$port"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv.$port"
		t_fail "$name" "the irdma0 listener does not listen"
		return
	fi
	out=$(t_in "$T_NS_B" timeout 30 "$T_PROGS/mpa_peer" -c -a "$addr" -p "$port" -d "hello from mpa_peer" -e "irdma says no" -t 20 2>&1) || rc=$?
	wait "$spid" || src=$?
	t_indent <<<"$out"
	t_indent <"$work/srv.$port"
	if [ "$rc" -eq 0 ] && [ "$src" -eq 0 ] &&
		grep -q "request private data (19 bytes): 'hello from mpa_peer'" "$work/srv.$port"; then
		t_pass "$name"
		t_log "timing: $(grep -o 'reply after.*' <<<"$out")"
	else
		t_fail "$name" "MPA client exited $rc, listener $src"
		diag
	fi
}
mpa_pair "$P/mpa-reject-ipv4" "$T_IP_A" 7001
mpa_pair "$P/mpa-reject-ipv6" "$T_IP6_A" 7003

# --- the same on VLAN 100: va.100 / vb.100 -------------------------------------
VIP_A=203.0.113.1 VIP_B=203.0.113.2 VIP6_A=2001:db8:100::1 VIP6_B=2001:db8:100::2
vlan_up() {
	local ns=$1 dev=$2 ip=$3 ip6=$4
	# a VLAN MTU below the netdev's: the MSS on VLAN 100 must follow it
	t_in "$ns" ip link add link "$dev" name "$dev.100" mtu 1400 type vlan id 100 &&
		t_in "$ns" ip addr add "$ip/24" dev "$dev.100" &&
		t_in "$ns" ip addr add "$ip6/64" dev "$dev.100" nodad &&
		t_in "$ns" ip link set "$dev.100" up &&
		{ t_in "$ns" ethtool -K "$dev.100" tx off >/dev/null 2>&1 || true; }
}
if vlan_up "$T_NS_A" "$T_IF_A" "$VIP_A" "$VIP6_A" && vlan_up "$T_NS_B" "$T_IF_B" "$VIP_B" "$VIP6_B"; then
	if grep -q "^vlan_dev $T_IF_A.100 id 100" "$dbg/net"; then
		t_pass "$P/vlan-attached"
	else
		t_indent <"$dbg/net"
		t_fail "$P/vlan-attached" "the model did not attach to $T_IF_A.100"
	fi
	t_check "$P/vlan-ping" t_in "$T_NS_B" ping -c 2 -i 0.2 -W 2 "$VIP_A"
	# wildcard listeners: the CM adds a SYN entry per address, with the
	# VLAN of the address's device (a wildcard listen would reach siw0 too)
	rdma link delete siw0
	mpa_pair "$P/mpa-reject-vlan-ipv4" "$VIP_A" 7005 0.0.0.0
	mpa_pair "$P/mpa-reject-vlan-ipv6" "$VIP6_A" 7006 ::
	# a listener on the VLAN address itself
	ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$VIP_A" -p 7007 -t 20 >"$work/srv.7007" 2>&1 &
	spid=$!
	if ! t_wait 20 t_rdma_listening 7007; then
		t_fail "$P/vlan-specific-entry" "the listener on $VIP_A does not listen"
	elif grep -q "^QHASH syn $VIP_A:7007 .* vlan 100$" "$dbg/objects"; then
		t_pass "$P/vlan-specific-entry"
	else
		t_fail "$P/vlan-specific-entry" "the SYN entry for $VIP_A has no VLAN 100: $(grep "^QHASH syn $VIP_A:7007" "$dbg/objects")"
	fi
	kill "$spid" 2>/dev/null
	wait "$spid"
	mpa_pair "$P/mpa-reject-vlan-specific" "$VIP_A" 7007
else
	t_fail "$P/vlan" "cannot set up VLAN 100 on $T_IF_A/$T_IF_B"
fi

# --- a segment larger than the ILQ buffer is dropped and counted ----------
big0=$(net_field rx_too_big)
ip netns exec "$T_NS_A" "$T_PROGS/cm_reject" -s -a "$T_IP_A" -p 7004 -t 20 >"$work/srv.7004" 2>&1 &
spid=$!
if t_wait 20 t_rdma_listening 7004; then
	t_in "$T_NS_B" timeout 20 "$T_PROGS/mpa_peer" -z 1200 -a "$T_IP_A" -p 7004 -t 2 >/dev/null 2>&1
	if [ "$(net_field rx_too_big)" -gt "${big0:-0}" ]; then
		t_pass "$P/too-big-dropped"
	else
		t_fail "$P/too-big-dropped" "rx_too_big $(net_field rx_too_big) (was $big0) after a 1200-byte segment"
	fi
else
	t_fail "$P/too-big-dropped" "the irdma0 listener does not listen"
fi
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null

# --- counters ----------------------------------------------------------------
t_log "model counters:"
t_indent <"$dbg/net"
bad=$(t_sim_net_errors "$dbg")
if [ -z "$bad" ] && [ "$(net_field rx_syn)" -ge 7 ] && [ "$(net_field tx_sent)" -ge 14 ]; then
	t_pass "$P/counters"
else
	t_fail "$P/counters" "errors:${bad:- none}; rx_syn $(net_field rx_syn) (want >= 7), tx_sent $(net_field tx_sent) (want >= 14)"
fi
t_check "$P/ping-after" t_in "$T_NS_B" ping -c 1 -W 2 "$T_IP_A"

# --- the capture ---------------------------------------------------------------
if [ "$have_cap" = 1 ]; then
	t_cap_stop
	# one tshark run (seconds to start in the VM): one line per TCP frame
	tshark -r "$cap" -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE \
		-Y tcp -T fields -E separator='|' -E occurrence=f \
		-e ip.src -e ipv6.src -e tcp.srcport -e tcp.dstport -e tcp.flags.str \
		-e tcp.checksum.status -e ip.checksum.status -e ip.ttl -e ip.flags.df \
		-e ipv6.hlim -e tcp.options.mss_val -e tcp.options.wscale.shift \
		-e iwarp_mpa.key.rep -e iwarp_mpa.rej_flag -e iwarp_mpa.privatedata \
		-e vlan.id >"$work/frames" 2>"$work/tshark.err"
	# frames the model built: from a's addresses and the ILQ's ports 7000-7009
	awk -F'|' -v a="$T_IP_A" -v a6="$T_IP6_A" -v va="$VIP_A" -v va6="$VIP6_A" \
		'($1 == a || $1 == va || $2 == a6 || $2 == va6) && $3 >= 7000 && $3 <= 7009' \
		"$work/frames" >"$work/model"
	t_log "capture: $(wc -l <"$work/frames") TCP frames, $(wc -l <"$work/model") built by the model"
	t_indent <"$work/model"
	if [ -s "$work/model" ] && ! awk -F'|' '$6 != 1 || ($1 != "" && $7 != 1)' "$work/model" | grep -q .; then
		t_pass "$P/wire-checksums"
	else
		t_fail "$P/wire-checksums" "frames from the model without good IP and TCP checksums (status 1 = good)"
	fi
	if awk -F'|' '$1 != "" && ($8 != 64 || $9 != 1)' "$work/model" | grep -q . ||
		awk -F'|' '$2 != "" && $10 != 64' "$work/model" | grep -q .; then
		t_fail "$P/wire-ip-fields" "a model frame without TTL/hop limit 64 or (IPv4) DF"
	else
		t_pass "$P/wire-ip-fields"
	fi
	if awk -F'|' '$5 ~ /S/ && $5 ~ /A/ && $11 != ""' "$work/model" | grep -q .; then
		t_pass "$P/wire-synack"
		t_log "SYN-ACK: $(awk -F'|' '$5 ~ /S/ && $5 ~ /A/ { print "flags " $5 ", MSS " $11 ", wscale " $12; exit }' "$work/model")"
	else
		t_fail "$P/wire-synack" "no SYN-ACK with an MSS option from the model"
	fi
	# SYN-ACKs from the VLAN 100 addresses: MSS from va.100's MTU (1400)
	vmss=$(awk -F'|' -v va="$VIP_A" -v va6="$VIP6_A" '$5 ~ /S/ && $5 ~ /A/ &&
		($1 == va || $2 == va6) { printf "%s%s ", ($1 == va ? "v4:" : "v6:"), $11 }' "$work/model")
	t_log "SYN-ACK MSS on VLAN 100: ${vmss:-none}"
	if [ -n "$vmss" ] && ! tr ' ' '\n' <<<"$vmss" | grep -v -e '^$' -e '^v4:1360$' -e '^v6:1340$' | grep -q .; then
		t_pass "$P/wire-vlan-mss"
	else
		t_fail "$P/wire-vlan-mss" "want MSS 1360 (IPv4) and 1340 (IPv6) on a VLAN device of MTU 1400"
	fi
	# MPA replies with R set carrying "irdma says no", over IPv4 and IPv6,
	# untagged and tagged
	pd=$(printf 'irdma says no' | od -An -tx1 | tr -d ' \n')
	for fam in 1 2; do
		for vid in "" 100; do
			name=ipv$((fam * 2 + 2))${vid:+-vlan}
			if awk -F'|' -v f="$fam" -v pd="$pd" -v vid="$vid" '{ d = tolower($15); gsub(":", "", d) }
				$f != "" && $13 != "" && ($14 == 1 || $14 == "True") && index(d, pd) &&
				$16 == vid' "$work/model" | grep -q .; then
				t_pass "$P/wire-mpa-reject-$name"
			else
				t_indent <"$work/tshark.err"
				t_fail "$P/wire-mpa-reject-$name" "no 'MPA ID Rep Frame' with R set and the private data from the model"
			fi
		done
	done
	if awk -F'|' -v va="$VIP_A" -v va6="$VIP6_A" '($1 == va || $2 == va6) && $16 != 100' \
		"$work/model" | grep -q .; then
		t_fail "$P/wire-vlan-tag" "a model frame from a VLAN 100 address without the tag"
	else
		t_pass "$P/wire-vlan-tag"
	fi
fi

# --- a bridge port: the rx_handler slot is taken ---------------------------
t_in "$T_NS_A" ip link add br9 type bridge &&
	t_in "$T_NS_A" ip link add vx9 type veth peer name vy9 &&
	t_in "$T_NS_A" ip link set vx9 master br9
if t_in "$T_NS_A" timeout 30 rdma link add irdma9 type irdma_sim netdev vx9 2>/dev/null; then
	rdma link delete irdma9
	t_fail "$P/bridge-port-refused" "rdma link add on a bridge port succeeded"
elif t_dmesg_since | grep -q 'already has a receive handler'; then
	t_pass "$P/bridge-port-refused"
else
	t_dmesg_since | tail -n 5 | t_indent
	t_fail "$P/bridge-port-refused" "refused without the rx_handler message"
fi
t_in "$T_NS_A" ip link del vx9 2>/dev/null
t_in "$T_NS_A" ip link del br9 2>/dev/null

# --- the netdev goes: the model lets go of it ---------------------------------
t_check "$P/netdev-delete" t_in "$T_NS_A" ip link del "$T_IF_A"
if t_wait 15 eval '! t_rdma_dev_exists irdma0'; then
	t_pass "$P/netdev-delete-gone"
else
	t_fail "$P/netdev-delete-gone" "irdma0 still exists 15 s after va was deleted"
fi
t_dmesg_check "$P/dmesg"
t_exit

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# A carrier blip must not end connections: TCP (the adapter's offload
# included) retransmits through it.  The two hosts are joined through a
# switch, a bridge in a third netns (sw): va2 (netns a) - ca=[br0]=cb -
# vb2 (netns b).  irdma2 (irdma_sim) sits on va2, siw2 on vb2.  Taking
# the switch port ca down for a second takes va2's carrier away (va2
# stays administratively up) and brings it back; the peer sees nothing,
# as with a cable or switch-port blip.
#   - ib_write_bw, 10 s, irdma2 client -> siw2, IPv4 (perftest's rdma_cm
#     mode has no IPv6), the blip after 3 s: the run finishes and reports
#     its bandwidth;
#   - rping, irdma2 client -> siw2, IPv6, 4000 verified pings, the blip
#     while it runs: every ping arrives.
# Before, irdma treated the carrier loss as a link down and reset every
# connection of the port.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=carrier-blip
NS_SW=sw
IP_A=198.51.100.1 IP_B=198.51.100.2
IP6_A=2001:db8:51::1 IP6_B=2001:db8:51::2

t_require "$P/tools" rdma ib_write_bw rping || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
if ! t_check "$P/switch" sh -c "
	ip netns add $NS_SW &&
	ip -n $NS_SW link add br0 type bridge &&
	ip -n $NS_SW link set br0 up &&
	ip link add va2 netns $T_NS_A type veth peer name ca netns $NS_SW &&
	ip link add vb2 netns $T_NS_B type veth peer name cb netns $NS_SW &&
	ip -n $NS_SW link set ca master br0 && ip -n $NS_SW link set cb master br0 &&
	ip -n $NS_SW link set ca up && ip -n $NS_SW link set cb up &&
	ip -n $T_NS_A addr add $IP_A/24 dev va2 && ip -n $T_NS_B addr add $IP_B/24 dev vb2 &&
	ip -n $T_NS_A addr add $IP6_A/64 dev va2 nodad &&
	ip -n $T_NS_B addr add $IP6_B/64 dev vb2 nodad &&
	ip -n $T_NS_A link set va2 up && ip -n $T_NS_B link set vb2 up"; then
	ip netns del "$NS_SW" 2>/dev/null
	t_exit
fi
t_defer ip netns del "$NS_SW"
t_wait 5 t_carrier "$T_NS_A" va2
t_check "$P/link-add-irdma2" t_in "$T_NS_A" rdma link add irdma2 type irdma_sim netdev va2
t_defer rdma link delete irdma2
t_check "$P/link-add-siw2" t_in "$T_NS_B" rdma link add siw2 type siw netdev vb2
t_defer rdma link delete siw2
# the neighbours, resolved before the connects (the bridge may take a
# moment to forward)
t_wait 10 t_in "$T_NS_A" ping -c 1 -W 1 "$IP_B"
t_wait 10 t_in "$T_NS_A" ping -c 1 -W 1 "$IP6_B"

# blip_now: take the switch port of va2 down for a second; prints va2's
# carrier seen while it is down
blip_now() {
	ip -n "$NS_SW" link set ca down
	t_wait 5 eval "! t_carrier $T_NS_A va2"
	t_in "$T_NS_A" cat /sys/class/net/va2/carrier
	sleep 1
	ip -n "$NS_SW" link set ca up
	t_wait 5 t_carrier "$T_NS_A" va2
}

# --- ib_write_bw, IPv4 ---------------------------------------------------
name=$P/write-bw-ipv4
ip netns exec "$T_NS_B" timeout 90 ib_write_bw -R -F -d siw2 -s 65536 -D 10 >"$work/srv" 2>&1 &
spid=$!
if t_wait 10 t_rdma_listening 18515; then
	rc=0 src=0
	ip netns exec "$T_NS_A" timeout 80 ib_write_bw -R -F -d irdma2 -s 65536 -D 10 "$IP_B" >"$work/cli" 2>&1 &
	cpid=$!
	sleep 3
	off=$(blip_now)
	wait "$cpid" || rc=$?
	wait "$spid" || src=$?
	res=$(awk '$1 == 65536 && NF >= 5 { print $4 " MB/s average" }' "$work/cli" | tail -n1)
	t_log "$name: va2's carrier during the blip: $off; ${res:-no result}"
	if [ "$off" != 0 ]; then
		t_fail "$name" "va2 kept its carrier: the blip did not happen"
	elif [ "$rc" -eq 0 ] && [ "$src" -eq 0 ] && [ -n "$res" ]; then
		t_pass "$name"
	else
		t_log "client:"
		t_indent <"$work/cli"
		t_log "server:"
		t_indent <"$work/srv"
		t_iw_diag
		t_fail "$name" "ib_write_bw client exited $rc, server $src"
	fi
else
	kill "$spid" 2>/dev/null
	wait "$spid"
	t_indent <"$work/srv"
	t_fail "$name" "the ib_write_bw server does not listen"
fi

# --- rping, IPv6 ---------------------------------------------------------
name=$P/rping-ipv6
N=4000
ip netns exec "$T_NS_B" timeout 120 rping -s -a "$IP6_B" -p 7601 -C "$N" >"$work/srv" 2>&1 &
spid=$!
if t_wait 10 t_rdma_listening 7601; then
	rc=0
	# line-buffered: the pings so far can be counted while it runs
	ip netns exec "$T_NS_A" timeout 110 stdbuf -oL rping -c -a "$IP6_B" -p 7601 -C "$N" -V -v >"$work/cli" 2>&1 &
	cpid=$!
	t_wait 30 grep -q 'ping data' "$work/cli"
	before=$(grep -c 'ping data' "$work/cli")
	off=$(blip_now)
	wait "$cpid" || rc=$?
	kill "$spid" 2>/dev/null
	wait "$spid"
	got=$(grep -c 'ping data' "$work/cli")
	t_log "$name: $before pings before the blip, $got of $N in all; va2's carrier during the blip: $off"
	if [ "$off" != 0 ]; then
		t_fail "$name" "va2 kept its carrier: the blip did not happen"
	elif [ "$before" -eq 0 ] || [ "$before" -ge "$N" ]; then
		t_fail "$name" "the blip was not during the pings ($before before it): the case did not run"
	elif [ "$got" -ge "$N" ] && [ "$rc" -eq 0 ]; then
		t_pass "$name"
	else
		tail -n 20 "$work/cli" | t_indent
		t_iw_diag
		t_fail "$name" "rping client exited $rc after $got pings"
	fi
else
	kill "$spid" 2>/dev/null
	wait "$spid"
	t_indent <"$work/srv"
	t_fail "$name" "the rping server does not listen"
fi

t_dmesg_check "$P/dmesg"
t_exit

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# irdma_sim's ILQ data path: qhash steering of received TCP frames into
# the ILQ and transmission of the ILQ's segments, driven by the irdma
# connection manager.  An rdma_cm listener on irdma0 (va, netns a) refuses
# connection requests with private data; peers in netns b (veth vb): the
# kernel's TCP with a hand-made MPA v2 request (tests/progs/mpa_peer),
# siw, plain TCP to another port, a segment too large for the ILQ, and
# bursts of parallel connections; then teardown while connections come and
# go, and by deleting the netdev.  Meant for the debug kernel
# (tests/sim/debug-kernel.sh ilq_wire: lockdep, KASAN, kmemleak) as
# well as the test VM (tools/vm/run.sh -- tests/sim/ilq_wire.sh).
# Needs the test programs built (tools/vm/tests.sh builds them, or
# gcc -o tests/progs/build/X tests/progs/X.c -libverbs -lrdmacm).
# Exit: 0 pass, 1 fail, 4 skipped.

set -u

# load MODULE: modprobe, or insmod from IRDMA_KO_DIR (the debug kernel of
# debug-kernel.sh has no /lib/modules for them)
load() {
	[ -z "$(awk -v m="$1" '$1 == m' /proc/modules)" ] || return 0
	case "${IRDMA_KO_DIR:+set}:$1" in
	set:irdma_sim) insmod "$IRDMA_KO_DIR/sim/irdma_sim.ko" ;;
	set:irdma) insmod "$IRDMA_KO_DIR/irdma.ko" ;;
	*) modprobe "$1" ;;
	esac
}
ret=0
fail() { echo "FAIL: $*"; ret=1; }
pass() { echo "ok: $*"; }
here=$(cd "$(dirname "$0")" && pwd)
progs=${T_PROGS:-$here/../progs/build}
A=192.0.2.1 B=192.0.2.2 A6=2001:db8::1 B6=2001:db8::2

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 4; }
command -v rdma >/dev/null || { echo "SKIP: no rdma tool"; exit 4; }
for p in cm_reject mpa_peer; do
	[ -x "$progs/$p" ] || { echo "SKIP: $progs/$p not built"; exit 4; }
done
[ -n "${IRDMA_KO_DIR:-}" ] || modinfo irdma_sim >/dev/null 2>&1 ||
	{ echo "SKIP: irdma_sim not installed"; exit 4; }

work=$(mktemp -d)
cleanup() {
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	rdma link delete irdma0 2>/dev/null
	rdma link delete siw0 2>/dev/null
	for ns in a b; do ip netns del $ns 2>/dev/null; done
	rmmod irdma_sim 2>/dev/null
	rmmod irdma 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# wait_for SEC CMD...: poll CMD every 0.1 s
wait_for() {
	local i n=$(($1 * 10))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
listening() { rdma res show cm_id 2>/dev/null | grep -q "state LISTEN .*:$1 "; }
in_a() { ip netns exec a "$@"; }
in_b() { ip netns exec b "$@"; }
counter() { sed -n "s/^$1 //p" "$dbg/net" 2>/dev/null; }

# hosts a and b
ip netns add a && ip netns add b &&
	ip link add va netns a type veth peer name vb netns b &&
	in_a ip link set lo up && in_b ip link set lo up &&
	in_a ip addr add $A/24 dev va && in_b ip addr add $B/24 dev vb &&
	in_a ip addr add $A6/64 dev va nodad && in_b ip addr add $B6/64 dev vb nodad &&
	in_a ip link set va up && in_b ip link set vb up ||
	{ echo "FAIL: cannot set up netns a/b"; exit 1; }
load irdma_sim && load irdma || { echo "FAIL: cannot load the modules"; exit 1; }
modprobe -q siw 2>/dev/null
modprobe -q rdma_ucm 2>/dev/null

# start: rdma link add irdma0 (and siw0 when siw exists)
start() {
	in_a rdma link add irdma0 type irdma_sim netdev va || { fail "rdma link add irdma0"; return 1; }
	dbg=
	for d in /sys/kernel/debug/irdma_sim/irdma_sim*; do
		[ -f "$d/net" ] && dbg=$d
	done
	[ "$(counter attached)" = 1 ] || fail "irdma0 is not attached to va"
}
start || exit 1
have_siw=0
in_b rdma link add siw0 type siw netdev vb 2>/dev/null && have_siw=1
wait_for 10 in_b ping -c 1 -W 1 $A || fail "ping $A"

# mpa ADDR PORT N: N MPA v2 requests in parallel, each refused with
# private data by a listener serving N requests
mpa() {
	local addr=$1 port=$2 n=$3 i spid ok=0
	in_a "$progs/cm_reject" -s -a "$addr" -p "$port" -n "$n" -t 60 >"$work/srv" 2>&1 &
	spid=$!
	wait_for 30 listening "$port" || { fail "listener on $addr port $port"; kill $spid; return; }
	for ((i = 0; i < n; i++)); do
		in_b "$progs/mpa_peer" -c -a "$addr" -p "$port" -t 40 >"$work/cli.$i" 2>&1 &
	done
	for ((i = 0; i < n; i++)); do
		wait %$((i + 2)) 2>/dev/null
	done
	wait
	ok=$(grep -l "R=1 .*'irdma says no'" "$work"/cli.* | wc -l)
	if [ "$ok" = "$n" ]; then
		pass "$n MPA request(s) to $addr port $port refused with private data"
	else
		cat "$work"/cli.* "$work/srv"
		fail "$ok of $n MPA clients to $addr port $port got the reject"
	fi
	rm -f "$work"/cli.*
}
mpa $A 7001 1
mpa $A6 7002 1
mpa $A 7003 8
mpa $A6 7004 8

if [ $have_siw = 1 ]; then
	in_a "$progs/cm_reject" -s -a $A -p 7005 -t 30 >"$work/srv" 2>&1 &
	spid=$!
	if wait_for 30 listening 7005 &&
		in_b "$progs/cm_reject" -c -a $A -p 7005 -e '' -t 20 | grep -q REJECTED; then
		pass "siw: MPA reject"
	else
		fail "siw client not rejected"
	fi
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
else
	echo "skip: siw not available"
fi

# plain TCP to another port passes to the stack
in_a "$progs/mpa_peer" -l -a $A -p 7100 -t 20 >/dev/null 2>&1 &
wait_for 10 in_a ss -ltn sport = :7100 | grep -q 7100
if in_b "$progs/mpa_peer" -s -a $A -p 7100 -t 10 >/dev/null; then
	pass "plain TCP echo on another port"
else
	fail "plain TCP echo on another port"
fi
wait

# a segment larger than the ILQ buffer
big=$(counter rx_too_big)
in_a "$progs/cm_reject" -s -a $A -p 7006 -t 20 >/dev/null 2>&1 &
spid=$!
wait_for 30 listening 7006
in_b "$progs/mpa_peer" -z 1200 -a $A -p 7006 -t 1 >/dev/null 2>&1
if [ "$(counter rx_too_big)" -gt "$big" ]; then
	pass "oversized segment dropped and counted"
else
	fail "rx_too_big did not move"
fi
kill $spid 2>/dev/null
wait $spid 2>/dev/null

bad=
for c in rx_no_qp rx_no_wqe rx_bad_hdr rx_bad_csum rx_bad_buf rx_cq_full \
	tx_bad_op tx_bad_len tx_bad_buf tx_bad_ah tx_bad_arp tx_dropped tx_cq_full; do
	[ "$(counter $c)" = 0 ] || bad+=" $c=$(counter $c)"
done
[ -z "$bad" ] && pass "no error counted ($(counter rx_steered) frames steered, $(counter tx_sent) sent)" ||
	fail "error counters:$bad"

# teardown while connections come and go
in_a "$progs/cm_reject" -s -a $A -p 7007 -n 1000 -t 30 >/dev/null 2>&1 &
wait_for 30 listening 7007
(for i in $(seq 200); do in_b "$progs/mpa_peer" -c -a $A -p 7007 -t 2 >/dev/null 2>&1; done) &
sleep 2
rdma link delete irdma0 || fail "rdma link delete irdma0 under traffic"
wait_for 10 eval '! rdma link show irdma0' || fail "irdma0 still there"
jobs -p | xargs -r kill 2>/dev/null
wait 2>/dev/null
in_b ping -c 1 -W 2 $A >/dev/null && pass "delete under traffic; ping after" ||
	fail "ping after rdma link delete"

# the netdev goes with an instance on it
start
mpa $A 7008 1
in_a ip link del va
wait_for 15 eval '! rdma link show irdma0' && pass "netdev deleted: instance gone" ||
	fail "irdma0 still there after va was deleted"
exit $ret

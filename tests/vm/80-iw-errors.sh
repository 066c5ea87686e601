#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# Error paths of the model's QP engine against a misbehaving peer
# (tests/progs/iw_peer, a plain socket that speaks MPA): after the
# MPA exchange with an rping server on irdma0, the peer sends an FPDU with
# a bad CRC, a Write to an STag that does not exist, a Send with the
# wrong MSN, 300 Read Requests at once (more than the inbound read queue
# holds), a Read Request from an STag that does not exist, or 64 KiB of
# garbage.  Each time the model must answer with a TERMINATE (with a good
# CRC) whose RFC 5040 layer, type, code, header bits (M, D, and R for a
# Read Request) and DDP segment length match the error, and end the
# connection; the rping server must get its error and exit, and nothing
# may crash.  The same offences against siw (rping on siw0), but the bad
# CRC, must get siw's TERMINATE.  The offence follows the RTR by half a
# second, once the listener has the connection.  A good Send whose FPDU
# runs past its first TCP segment must be taken, by both stacks.  Also: the rping
# client killed in the middle of a run (the model sees the reset) and the
# server killed (the model resets the connection).  The driver's AE
# counters show the CRC errors.  Then the module unloads with a clean
# kernel log.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=iw-errors

t_require "$P/tools" rdma rping || t_exit
t_need_ours "$P" irdma irdma_sim
if [ ! -x "$T_PROGS/iw_peer" ]; then
	t_fail "$P/progs" "$T_PROGS/iw_peer is not built"
	t_exit
fi
t_iw_setup "$P"
work=$T_WORK


# rping_server NAME NS IP PORT: a one-ping rping server in NS on IP:PORT,
# its pid in $spid; fails NAME (and returns 1) when it does not listen
rping_server() {
	local name=$1 ns=$2 ip=$3 port=$4
	ip netns exec "$ns" timeout 60 rping -s -a "$ip" -p "$port" -C 1 \
		>"$work/srv.$port" 2>&1 &
	spid=$!
	t_wait 10 t_rdma_listening "$port" && return 0
	kill "$spid" 2>/dev/null
	wait "$spid"
	t_indent <"$work/srv.$port"
	t_fail "$name" "the rping server on $ip does not listen"
	return 1
}

# peer NAME MODE PORT [WANT]: rping server on irdma0, iw_peer in b; WANT,
# when given, is the TERMINATE the model must send: "layer/type code
# hdrct seglen" as iw_peer prints them (seglen -1 without M)
peer() {
	local name=$1 mode=$2 port=$3 want=${4:-} spid out rc=0 got
	rping_server "$name" "$T_NS_A" "$T_IP_A" "$port" || return
	out=$(t_in "$T_NS_B" "$T_PROGS/iw_peer" -m "$mode" -a "$T_IP_A" -p "$port" -t 15 2>&1) || rc=$?
	t_indent <<<"$out"
	if ! t_wait 15 eval "! kill -0 $spid"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$work/srv.$port"
		t_iw_diag
		t_fail "$name" "the rping server did not see the error"
		return
	fi
	wait "$spid"
	got=$(sed -n 's/^iw_peer: TERMINATE layer\/type \(.*\) code \(.*\) hdrct \(.*\) seglen \(.*\) crc good$/\1 \2 \3 \4/p' <<<"$out")
	if [ "$rc" -ne 0 ] || [ -z "$got" ]; then
		t_indent <"$work/srv.$port"
		t_iw_diag
		t_fail "$name" "iw_peer exited $rc, want a TERMINATE (good CRC) and the end of the connection"
	elif [ -n "$want" ] && [ "$got" != "$want" ]; then
		t_fail "$name" "TERMINATE '$got', want '$want'"
	else
		t_pass "$name"
	fi
}

# siw_peer NAME MODE PORT: the same offender against an rping server on
# siw0 (netns b), iw_peer in a: siw must answer with a TERMINATE too (its
# fields are shown, not judged: siw writes them in its own bit order).
# One exception, siw's own: it sends no TERMINATE while one of its Read
# Responses is in flight, which the burst of 300 Read Requests makes
# likely; for "reads" siw must then have logged the overflow of its
# inbound read queue and ended the connection.
siw_peer() {
	local name=$1 mode=$2 port=$3 spid out rc=0 ovf
	ovf=$(dmesg | grep -c 'siw: .*IRQ exceeded')
	rping_server "$name" "$T_NS_B" "$T_IP_B" "$port" || return
	out=$(t_in "$T_NS_A" "$T_PROGS/iw_peer" -m "$mode" -a "$T_IP_B" -p "$port" -t 15 2>&1) || rc=$?
	t_indent <<<"$out"
	t_wait 15 eval "! kill -0 $spid" || kill "$spid" 2>/dev/null
	wait "$spid"
	if [ "$rc" -eq 0 ] && grep -q 'TERMINATE .*crc good' <<<"$out"; then
		t_pass "$name"
	elif [ "$mode" = reads ] && ! grep -q TERMINATE <<<"$out" &&
		grep -qx 'iw_peer: connection ended' <<<"$out" &&
		[ "$(dmesg | grep -c 'siw: .*IRQ exceeded')" -gt "$ovf" ]; then
		t_log "siw logged its inbound read queue overflow and closed without a TERMINATE (a Read Response was in flight)"
		t_pass "$name"
	else
		t_indent <"$work/srv.$port"
		t_fail "$name" "iw_peer exited $rc, want siw's TERMINATE and the end of the connection"
	fi
}

# RFC 5040 layer/type, code, header bits, DDP segment length of the
# offending FPDU (the Write: 14 + 32 bytes; the Send: 18 + 16; a Read
# Request: 18 + 28, with R)
peer "$P/bad-crc" badcrc 7301 "0x20 0x02 0x00 -1"
peer "$P/bad-stag" badstag 7302 "0x11 0x00 0xc0 46"
peer "$P/bad-msn" msn 7303 "0x12 0x03 0xc0 34"
peer "$P/garbage" garbage 7304
peer "$P/too-many-reads" reads 7307 "0x12 0x02 0xe0 46"
peer "$P/read-bad-stag" rreqstag 7308 "0x01 0x00 0xe0 46"

# split NAME PORT NS_SRV IP_SRV NS_PEER: a good Send whose FPDU runs past
# its first TCP segment (the rest 300 ms later) must be taken: the rping
# server on IP_SRV answers with its RDMA Read, no TERMINATE
split() {
	local name=$1 port=$2 ns_srv=$3 ip=$4 ns_peer=$5 spid out rc=0
	rping_server "$name" "$ns_srv" "$ip" "$port" || return
	out=$(t_in "$ns_peer" "$T_PROGS/iw_peer" -m split -a "$ip" -p "$port" -t 15 2>&1) || rc=$?
	t_indent <<<"$out"
	t_wait 15 eval "! kill -0 $spid" || kill "$spid" 2>/dev/null
	wait "$spid"
	if [ "$rc" -eq 0 ] && grep -q 'Read Request after the split Send' <<<"$out"; then
		t_pass "$name"
	else
		t_indent <"$work/srv.$port"
		t_iw_diag
		t_fail "$name" "iw_peer exited $rc, want the Send taken and a Read Request"
	fi
}
split "$P/split-fpdu" 7309 "$T_NS_A" "$T_IP_A" "$T_NS_B"

# the driver counted the AEs of those errors: two MPA CRC errors (the bad
# CRC, and the garbage's first FPDU, whose last four bytes are random);
# irdma0 is new, its counters started at zero
hc=/sys/class/infiniband/irdma0/ports/1/hw_counters
crc=$(cat "$hc/aeMpaCrcErrors" 2>&1) aes=$(cat "$hc/aeEvents" 2>&1)
if [ "$crc" = 2 ] && [ "$aes" -ge 4 ] 2>/dev/null; then
	t_pass "$P/ae-counters"
else
	t_fail "$P/ae-counters" "aeMpaCrcErrors $crc (want 2), aeEvents $aes (want >= 4)"
fi

# killed NAME client|server PORT: siw server in b, irdma client in a;
# one side is killed while pings flow, the other must see the end
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0
# (not the bad CRC: siw 6.1 then reports the connection closed before it
# was established, and iw_cm's close handler stops the kernel with BUG())
sport=7310
for m in badstag msn reads rreqstag; do
	siw_peer "$P/siw-$m" "$m" $((sport += 1))
done
split "$P/siw-split-fpdu" $((sport += 1)) "$T_NS_B" "$T_IP_B" "$T_NS_A"
killed() {
	local name=$1 who=$2 port=$3 spid cpid
	ip netns exec "$T_NS_B" timeout 60 rping -s -a "$T_IP_B" -p "$port" -C 100000 -S 4096 >"$work/srv.$port" 2>&1 &
	spid=$!
	t_wait 10 t_rdma_listening "$port"
	ip netns exec "$T_NS_A" timeout 60 rping -c -a "$T_IP_B" -p "$port" -C 100000 -S 4096 >"$work/cli.$port" 2>&1 &
	cpid=$!
	sleep 3
	# rping itself, the child of timeout(1)
	if [ "$who" = client ]; then
		pkill -9 -P "$cpid" rping
	else
		pkill -9 -P "$spid" rping
	fi
	if t_wait 20 eval "! kill -0 $spid && ! kill -0 $cpid"; then
		t_pass "$name"
	else
		kill -9 "$spid" "$cpid" 2>/dev/null
		t_iw_diag
		t_fail "$name" "rping did not end after its peer was killed"
	fi
	wait "$spid" "$cpid" 2>/dev/null
}
killed "$P/client-killed" client 7305
killed "$P/server-killed" server 7306

t_check "$P/link-delete-siw" rdma link delete siw0
t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit

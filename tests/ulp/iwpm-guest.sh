#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One guest of an iWARP port mapper pair (tests/ulp/run.sh runs two of
# them, see tests/ulp/lib.sh).  iw_cm asks the port mapper daemon (iwpmd,
# rdma-core) for the addresses a connection uses on the wire; it talks to
# it over netlink in the initial network namespace only, so each end is a
# guest of its own.  rping runs three times, each time on a new port:
#
#   mapped      iwpmd runs in both guests: the server's listener sits on
#               the port iwpmd chose (an ephemeral one; siw keeps its port,
#               it asks for no port mapping) and the client connects to
#               that port, learnt from the server's iwpmd;
#   stopped     iwpmd stopped in both guests: iw_cm falls back to the
#               ports rdma_cm chose, without a delay;
#   restarted   iwpmd started again in both guests: mapped again.
#
#   iwpm-guest.sh server STACK   rping servers on demand, iwpmd
#   iwpm-guest.sh client STACK   the three rping runs, verified (-V), for
#                                each pair of IWPM_PAIRS (the guest's
#                                environment)
#
# The guests boot once: for each SERVER-CLIENT pair of IWPM_PAIRS
# (default irdma-irdma irdma-siw siw-irdma) the server is told to bring up
# SERVER's device instead of its current one, the client does the same
# with CLIENT's, and the three runs follow, named iwpm/PAIR/client/...;
# iwpmd keeps running across the switch.
#
# STACK is irdma (irdma_sim + irdma) or siw.  Where this project's driver
# runs, its own trace events (irdma_cm_state: the connection's addresses
# on the wire) show which ports the connection used: the server's must be
# the one iwpmd chose for an irdma listener, the client's the local port
# iwpmd gave it (iw_cm's debug lines name it).  Prints PASS:/FAIL:
# lines named iwpm/<pair>/<what>; the last check of each guest is its
# kernel log.
set -u

role=$1 stack=$2
pair=${IRDMA_ULP_PAIR:-$stack-$stack}
srv_stack=${pair%-*}
P=iwpm/$pair/$role
TR=/sys/kernel/tracing
# shellcheck source=tests/ulp/lib.sh
. "$(dirname "$0")/lib.sh"

# iwpm_start: iwpmd in the foreground of a background job; true once its
# UDP port (3935, where port mapper daemons talk to each other) is open
iwpm_start() {
	local _
	/usr/sbin/iwpmd -s >>/tmp/iwpmd.log 2>&1 &
	echo $! >/tmp/iwpmd.pid
	for _ in $(seq 100); do
		ss -uln | grep -q ':3935 ' && return 0
		sleep 0.1
	done
	log "iwpmd did not open UDP port 3935: $(cat /tmp/iwpmd.log)"
	return 1
}

# iwpm_stop: stop iwpmd as its init script would (SIGTERM); true once gone
iwpm_stop() {
	local pid _
	pid=$(cat /tmp/iwpmd.pid 2>/dev/null) || return 1
	kill "$pid" 2>/dev/null || return 1
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# trace_reset: start the driver's connection trace afresh (irdma only)
trace_reset() {
	[ "$stack" = irdma ] || return 0
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$TR/events/irdma/irdma_cm_state/enable"
	echo 1 >"$TR/tracing_on"
}

# srv_ports: the server-side ports of the connections in the trace, on
# the wire
srv_ports() {
	grep -v '^#' "$TR/trace" | grep irdma_cm_state |
		grep -o "$SRV4:[0-9]*" | cut -d: -f2 | sort -u | tr '\n' ' '
}

# check_port PORT mapped|unmapped: the connections of the trace used a
# server port other than PORT (mapped) or PORT itself (unmapped)
check_port() {
	local ports
	ports=$(srv_ports)
	log "rdma_cm port $1, server port on the wire: ${ports:-none}"
	[ -n "$ports" ] || return 1
	case "$2" in
	mapped) ! grep -qw "$1" <<<"$ports" ;;
	unmapped) [ "$ports" = "$1 " ] ;;
	esac
}

# ------------------------------------------------------------- server ---

# the server's device: the actions run in child shells, so the stack
# they act on is kept in a file
STACK_FILE=/tmp/iwpm-stack

server_setup() {
	echo "$stack" >"$STACK_FILE"
	trace_reset
	iwpm_start
}

# ctl_stack NEW: the server's device becomes NEW's (irdma or siw)
ctl_stack() {
	stack=$(cat "$STACK_FILE")
	[ "$stack" = "$1" ] && return 0
	rdma_down || return 1
	stack=$1
	rdma_up || return 1
	echo "$stack" >"$STACK_FILE"
	log "the server's device is now $stack's"
}

# listen PORT: an rping server on PORT for one connection, in the
# background; true once rdma_cm lists its listener
listen() {
	local _
	stack=$(cat "$STACK_FILE")
	trace_reset
	rm -f "/tmp/rping-$1.rc"
	( timeout 120 rping -s -a "$SRV4" -p "$1" -C 20 -S 64 -V >"/tmp/rping-$1.log" 2>&1
	  echo $? >"/tmp/rping-$1.rc" ) &
	for _ in $(seq 100); do
		rdma resource show cm_id 2>/dev/null | grep -q "src-addr $SRV4:$1 " && return 0
		sleep 0.1
	done
	log "rping -s on port $1 does not listen: $(cat "/tmp/rping-$1.log")"
	return 1
}

# served PORT mapped|unmapped: the rping server on PORT ended well, and
# (irdma) its connection used the port it should have
served() {
	local _
	stack=$(cat "$STACK_FILE")
	for _ in $(seq 300); do
		[ -f "/tmp/rping-$1.rc" ] && break
		sleep 0.1
	done
	if [ "$(cat "/tmp/rping-$1.rc" 2>/dev/null)" != 0 ]; then
		log "rping -s on port $1: exit $(cat "/tmp/rping-$1.rc" 2>/dev/null): $(tail -n 3 "/tmp/rping-$1.log")"
		return 1
	fi
	[ "$stack" = irdma ] || return 0
	check_port "$1" "$2"
}

ctl_listen() { listen "$1"; }
ctl_served() { served "$1" "$2"; }
ctl_iwpm_stop() { iwpm_stop; }
ctl_iwpm_start() { iwpm_start; }

server_main() {
	ulp_server_start "iwpmd did not start" || return 1
	export TR STACK_FILE
	ulp_server_run
	iwpm_stop
	stack=$(cat "$STACK_FILE")
	ulp_unload
	dmesg_check
}

# ------------------------------------------------------------- client ---

CLI4=198.51.100.2

# check_local mapped|unmapped: this end's port on the wire.  iw_cm's own
# debug lines (dynamic debug) say which local port the port mapper gave
# the connection: mapped, the driver must have used that port and it must
# differ from rdma_cm's; unmapped, the port mapper was not asked.
check_local() {
	local dm loc map wire
	dm=$(dmesg | tail -n "+$dmesg_mark")
	loc=$(grep -o "query_mapping: Local sockaddr: IPV4 $CLI4: [0-9]*" <<<"$dm" |
		tail -n 1 | awk '{ print $NF }')
	map=$(grep -o "query_mapping: Mapped local sockaddr: IPV4 $CLI4: [0-9]*" <<<"$dm" |
		tail -n 1 | awk '{ print $NF }')
	wire=$(grep -v '^#' "$TR/trace" | grep irdma_cm_state |
		grep -o "$CLI4:[0-9]*" | cut -d: -f2 | sort -u | tr '\n' ' ')
	log "client port: rdma_cm ${loc:-?}, port mapper ${map:-none}, on the wire ${wire:-none}"
	case "$1" in
	mapped) [ -n "$map" ] && [ "$map" != "$loc" ] && [ "$wire" = "$map " ] ;;
	unmapped) [ -z "$map" ] && [ -n "$wire" ] ;;
	esac
}

# connect PHASE PORT: one verified rping to the server's listener on PORT,
# asked for first; PHASE names the results
connect() {
	local phase=$1 port=$2 out t0
	trace_reset
	dmesg_mark=$(($(dmesg | wc -l) + 1))
	if ! ctl "listen $port"; then
		fail "$phase-listen" "the server's rping does not listen on $port"
		return 1
	fi
	t0=$SECONDS
	if out=$(timeout 90 rping -c -a "$SRV4" -p "$port" -C 20 -S 64 -V 2>&1); then
		pass "$phase-rping"
		log "$phase: rping of 20 verified pings in $((SECONDS - t0)) s"
	else
		fail "$phase-rping" "rping to port $port failed: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
	fi
}

# phase PHASE PORT mapped|unmapped: connect, then the port checks of both
# ends: the server's when it runs irdma (where the listener sits), the
# client's when it runs irdma and the server does too (siw's listener
# keeps its port: it asks for no port mapping)
phase() {
	local want=$3
	connect "$1" "$2" || return 1
	if ctl "served $2 $want"; then
		pass "$1-server"
	else
		fail "$1-server" "the server's rping failed or its connection used the wrong port (server log)"
	fi
	[ "$stack" = irdma ] || return 0
	if [ "$srv_stack" = irdma ]; then
		if check_port "$2" "$want"; then
			pass "$1-$want-port"
		else
			fail "$1-$want-port" "the connection's server port on the wire: $(srv_ports)"
		fi
	fi
	if check_local "$want"; then
		pass "$1-$want-local-port"
	else
		fail "$1-$want-local-port" "this end's port on the wire is not the port mapper's (log)"
	fi
}

client_main() {
	local p port=7001
	P0=$P
	if ! rdma_up; then
		fail rdma "cannot bring up $stack on peer0"
		return 1
	fi
	# iw_cm's port mapper requests and answers, in the kernel log (the
	# module must be loaded for its debug lines to be switched on)
	if ! modprobe rdma_ucm || ! modprobe iw_cm ||
		! echo 'module iw_cm +p' >/sys/kernel/debug/dynamic_debug/control; then
		fail iw_cm-debug "cannot load rdma_ucm and iw_cm, or switch on iw_cm's debug lines"
		return 1
	fi
	if ! iwpm_start; then
		fail iwpmd "iwpmd did not start"
		return 1
	fi
	ulp_wait_server || return 1
	for p in ${IWPM_PAIRS:-irdma-irdma irdma-siw siw-irdma}; do
		pair_run "$p" "$port"
		port=$((port + 10))
	done
	iwpm_stop
	P=$P0
	ulp_client_end
	ulp_unload
	dmesg_check
}

# pair_run SERVER-CLIENT PORT: both devices switched to the pair's, then
# the three runs on ports PORT, PORT + 1 and PORT + 2
pair_run() {
	local p=$1 port=$2
	srv_stack=${p%-*}
	P=iwpm/$p/client
	if ! ctl "stack $srv_stack"; then
		fail stack "the server cannot bring up $srv_stack's device"
		return 1
	fi
	if [ "${p#*-}" != "$stack" ]; then
		if ! rdma_down; then
			fail stack "cannot take $stack's device down"
			return 1
		fi
		stack=${p#*-}
		if ! rdma_up; then
			fail stack "cannot bring up $stack's device"
			return 1
		fi
	fi
	phase mapped "$port" mapped
	if iwpm_stop && ctl iwpm-stop; then
		phase stopped "$((port + 1))" unmapped
	else
		fail stopped "cannot stop iwpmd in both guests"
	fi
	if iwpm_start && ctl iwpm-start; then
		phase restarted "$((port + 2))" mapped
	else
		fail restarted "cannot start iwpmd again in both guests"
	fi
}

ulp_main server_main client_main "$@"

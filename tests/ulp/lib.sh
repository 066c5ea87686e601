#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the guest scripts of tests/ulp: one guest of a pair
# joined by a QEMU socket link, "peer0" (198.51.100.1 is the server, which
# QEMU calls "listen"; .2 the client).  The client drives: it asks the
# server for actions over TCP port 5000 ("ctl ACTION" runs the server's
# shell function ctl_ACTION, dashes as underscores) and ends with "done"
# (or "done-failed", after which the server shows its kernel log too).
#
# The sourcing script sets P (the prefix of its result names) and stack
# (irdma or siw).

SRV4=198.51.100.1
CTL_PORT=5000

failed=0
pass() { echo "PASS: $P/$1"; }
fail() { echo "FAIL: $P/$1: $2"; failed=1; }
skip() { echo "SKIP: $P/$1: $2"; }
log() { echo "# $P: $*"; }

# dmesg_show: what the kernel said, for a failure's diagnosis (once): the
# drivers' own messages, the end of the log, the stacks of a hung action,
# and the TCP sockets (siw's among them: retransmits, RTO, unacked data)
dmesg_show() {
	[ -z "${dmesg_shown:-}" ] || return 0
	dmesg_shown=1
	ss -tnio | head -n 40 | sed "s|^|# $P: ss: |"
	# the whole boot's TCP troubles (losses, timeouts, zero windows) and
	# the link's drops
	nstat -asz | grep -E '^(TcpRetransSegs|TcpExt(TCPTimeouts|TCPLossProbes|TCPLostRetransmit|TCP(To|From|Want)ZeroWindowAdv|PruneCalled|RcvPruned|TCPRcvQDrop|TCPBacklogDrop|TCPOFOQueue|TCPSackRecovery|TCPRenoRecovery|TCPAbortOn[A-Za-z]+))[[:space:]]' |
		awk '{ printf "%s=%s ", $1, $2 } END { print "" }' | sed "s|^|# $P: tcp: |"
	ip -s link show peer0 | sed "s|^|# $P: link: |"
	dmesg | grep -E 'irdma|siw|AE 0x' | tail -n 15 | sed "s|^|# $P: dmesg: |"
	dmesg | tail -n 25 | sed "s|^|# $P: dmesg: |"
	dmesg | sed -n '/sysrq: Show Blocked State/,$p' | head -n 120 |
		sed "s|^|# $P: blocked: |"
}

dmesg_check() {
	local bad l
	[ "$failed" = 0 ] || dmesg_show
	bad=$(dmesg | grep -E 'WARNING:|BUG:|kernel BUG|Oops|INFO: task .* blocked|refcount_t:|possible circular locking|general protection|BUG [^ :]+ \(|Poison overwritten|pagealloc: memory corruption' | head -5)
	if [ -z "$bad" ]; then
		pass dmesg
	else
		while IFS= read -r l; do echo "# $P: $l"; done <<<"$bad"
		fail dmesg "kernel reports in the log"
	fi
}

# the RDMA device of this guest on peer0
rdma_up() {
	case "$stack" in
	irdma) modprobe irdma_sim && rdma link add irdma0 type irdma_sim netdev peer0 ;;
	siw) modprobe siw && rdma link add siw0 type siw netdev peer0 ;;
	*) return 1 ;;
	esac
}

rdma_down() {
	case "$stack" in
	irdma) rdma link delete irdma0 && modprobe -r irdma_sim irdma ;;
	siw) rdma link delete siw0 && modprobe -r siw ;;
	esac
}

# rdma_reset KIND: a function reset of irdma0 (the model's debugfs
# "reset", KIND pfr or lost, as ice makes one); true once the new irdma0
# is up with its port active, within 90 s
rdma_reset() {
	local f n i
	[ "$stack" = irdma ] || return 1
	f=$(grep -l '^ibdev: irdma0$' /sys/kernel/debug/irdma_sim/irdma_sim*/info 2>/dev/null | head -n 1)
	[ -n "$f" ] || return 1
	n=$(dmesg | grep -c 'irdma0 on peer0, ')
	echo "$1" >"${f%/info}/reset" || return 1
	for i in $(seq 900); do
		if [ "$(dmesg | grep -c 'irdma0 on peer0, ')" -gt "$n" ] &&
			ibv_devinfo -d irdma0 2>/dev/null | grep -q PORT_ACTIVE; then
			log "irdma0 back after its reset ($1) in $((i / 10)) s"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# serve the client's commands, one a connection: a line in, "ok"/"err" out;
# an action that takes over 50 s (the client gives up at 60) is left
# running, answered "err", and the blocked tasks' stacks go to the kernel
# log for dmesg_check to show
ulp_serve() {
	python3 -u - "$CTL_PORT" <<'PY'
import socket, subprocess, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('0.0.0.0', int(sys.argv[1])))
s.listen(1)
s.settimeout(900)
while True:
    try:
        c, _ = s.accept()
    except socket.timeout:
        print('CTL timeout')
        break
    # a client that connects and says nothing must not hold the loop
    c.settimeout(60)
    try:
        cmd = c.makefile().readline().strip()
    except OSError as e:
        print('CTL no command: %s' % e)
        c.close()
        continue
    if cmd.startswith('done'):
        try:
            c.sendall(b'ok\n')
            c.close()
        except OSError:
            pass
        print('CTL ' + cmd)
        break
    p = subprocess.Popen(['bash', '-c', 'ctl_' + cmd.replace('-', '_')])
    try:
        rc = p.wait(timeout=50)
    except subprocess.TimeoutExpired:
        rc = 'timeout'
    # the answer first: the client gives up at 55 s, and a client that
    # went away must not end this loop
    try:
        c.sendall(b'ok\n' if rc == 0 else b'err\n')
        c.close()
    except OSError as e:
        print('CTL %s: the answer was lost: %s' % (cmd, e))
    if rc == 'timeout':
        # a hung action: the kernel log gets every blocked task's stack
        with open('/proc/sysrq-trigger', 'w') as t:
            t.write('w')
    print('CTL %s -> %s' % (cmd, rc))
PY
}

# ctl ACTION: ask the server for ACTION; true if it answered "ok"
ctl() {
	local reply
	reply=$(timeout 60 python3 - "$1" "$SRV4" "$CTL_PORT" 2>/dev/null <<'PY'
import socket, sys
c = socket.create_connection((sys.argv[2], int(sys.argv[3])), timeout=55)
c.sendall((sys.argv[1] + '\n').encode())
print(c.makefile().readline().strip())
PY
)
	[ "$reply" = ok ]
}


# ulp_server_run: serve the client until it is done; its ctl_* functions
# (and everything they call) are this shell's functions.  Shows this side's
# kernel log if the client failed, before the teardown.
ulp_server_run() {
	local f
	# the server runs each action in a child bash: give it our functions
	for f in $(compgen -A function); do
		export -f "${f?}"
	done
	export P stack SRV4 CTL_PORT
	ulp_serve >/tmp/ulp-ctl.log
	sed "s|^|# $P: |" /tmp/ulp-ctl.log
	if grep -q '^CTL done-failed' /tmp/ulp-ctl.log; then
		failed=1
	elif ! grep -q '^CTL done' /tmp/ulp-ctl.log; then
		fail client "the client never said it was done"
	fi
	# now, before a teardown that may hang too
	[ "$failed" = 0 ] || dmesg_show
}

# ulp_wait_server: the server answers within two minutes
ulp_wait_server() {
	local _
	for _ in $(seq 120); do
		ctl ping && return 0
		sleep 1
	done
	fail server "the server at $SRV4 does not answer"
	return 1
}

# ulp_client_end: tell the server we are done, and how it went; after a
# failure, show this side's kernel log now, before an unload that may hang
ulp_client_end() {
	if [ "$failed" = 0 ]; then ctl "done"; else ctl done-failed; fi
	[ "$failed" = 0 ] || dmesg_show
}

ctl_ping() { :; }

# ulp_unload [MODULE...]: the ULP's modules, then our device and its modules
ulp_unload() {
	[ $# = 0 ] || modprobe -r "$@" 2>/dev/null
	if rdma_down; then
		pass unload
	else
		fail unload "cannot delete the device or unload $stack"
	fi
}

# link_watch: every 20 s, one line about the peer link: its packet
# counters (received, sent, dropped; sends dropped, send errors), its
# operstate, carrier and carrier changes, its qdisc's backlog
# (bytes/frames), drops and requeues, and with irdma the model's counters
# (frames steered to QPs, SYNs to listeners, frames for no QP, for no
# receive WQE, frames sent, send drops).  When a pair stalls, the last
# lines of each guest tell whether frames still arrived and whether the
# model took them.  "#~" keeps the lines out of the results
# (tests/ulp/run.sh shows the last two of a guest whose part failed).
link_watch() {
	local d dev=/sys/class/net/peer0 line
	local n=$dev/statistics
	while sleep 20; do
		line="rx/tx/drop $(cat $n/rx_packets)/$(cat $n/tx_packets)/$(cat $n/rx_dropped)"
		# frames the driver refused (virtio_net counts them quietly)
		line+=" tx_dropped/errors $(cat $n/tx_dropped)/$(cat $n/tx_errors)"
		# without carrier the qdisc drops every frame, and the stack's
		# watchdog of a stuck queue does not look
		line+=" $(cat $dev/operstate) carrier $(cat $dev/carrier 2>/dev/null)/$(cat $dev/carrier_changes)"
		# frames the qdisc holds, and how often the driver refused one
		line+=" qdisc $(tc -s qdisc show dev peer0 | awk '/dropped/ { d = $7; sub(",", "", d) } /^ backlog/ { printf "%s/%s drop %s requeues %s", $2, $3, d, $5; exit }')"
		for d in /sys/kernel/debug/irdma_sim/irdma_sim*; do
			[ -f "$d/net" ] || continue
			# steered/syn/no_qp/no_wqe/tx_sent/tx_dropped
			line+=" model $(awk '$1 ~ /^(rx_steered|rx_syn|rx_no_qp|rx_no_wqe|tx_sent|tx_dropped)$/ { v = v s $2; s = "/" } END { print v }' "$d/net")"
		done
		echo "#~ $P: link-watch: $line"
	done
}

# ulp_main SERVER_FN CLIENT_FN ROLE STACK [MB CYCLES]: run this guest's part
ulp_main() {
	link_watch &
	# shellcheck disable=SC2064 # the pid now
	trap "kill $! 2>/dev/null" EXIT
	case "$3" in
	server) "$1" ;;
	client) "$2" "${5:-64}" "${6:-20}" ;;
	*) echo "usage: $0 server|client STACK [MB CYCLES]" >&2; exit 2 ;;
	esac
}

# ulp_server_start WHAT: our device, then this guest's server_setup; WHAT
# says what failed if the setup did
ulp_server_start() {
	if ! rdma_up; then
		fail rdma "cannot bring up $stack on peer0"
		return 1
	fi
	if ! server_setup; then
		fail setup "$1"
		return 1
	fi
	pass setup
}

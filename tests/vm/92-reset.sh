#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# A function reset under its users, as ice makes one: the auxiliary device
# goes away, the function's state is lost, and a new function comes up on
# the same netdev as the same RDMA device (the model's debugfs "reset").
# Three kinds, one round each, irdma0 (netns a) the client of siw0 (b):
#   - pfr: ice's own PF reset: the driver lets go of a working function;
#   - lost: the state is gone first: the driver lets go of a function that
#     no longer answers (its first command waits out the control QP's
#     timeout; later ones fail at once).
#   - request: a critical error of the function, for which the driver
#     asks ice for a reset (the model's reset_on_request performs it).
# In each round a verified rping and an ib_write_bw run over irdma0 when
# the reset comes.  Then:
#   - the rping client is told (the device's removal, or the connection's
#     end when the driver's remove closed it first) and exits by itself;
#   - ib_write_bw, which watches no events, stops getting completions and
#     spins; a kill ends it (its context was disassociated, nothing of it
#     sits in the driver);
#   - the new irdma0 comes up with its port active, takes new connections
#     (a verified rping, an ib_write_bw run), and its peers' old processes
#     are ended by the test where the reset left them waiting (lost: no
#     RST ever reaches siw's side);
#   - the modules unload at the end: no old function, context or memory
#     of one is left behind, and the kernel log is clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=reset

t_require "$P/tools" rdma rping ib_write_bw ibv_devinfo || t_exit
t_need_ours "$P" irdma irdma_sim
t_iw_setup "$P"
work=$T_WORK
t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"
t_defer rdma link delete siw0

# sim_dir: the debugfs directory of irdma0's function
sim_dir() {
	local f
	f=$(grep -l '^ibdev: irdma0$' /sys/kernel/debug/irdma_sim/irdma_sim*/info 2>/dev/null | head -n 1)
	[ -n "$f" ] && dirname "$f"
}

# writes: irdma0's RDMA Writes sent so far
writes() { cat /sys/class/infiniband/irdma0/ports/1/hw_counters/iwOutRdmaWrites 2>/dev/null || echo 0; }

# pings FILE: the verified pings in an rping client's output
pings() { grep -c 'ping data' "$1" 2>/dev/null; }

# shellcheck disable=SC2317 # called through t_wait
# back: a new irdma0 is registered, since the mark, with its port active
back() {
	t_dmesg_since | grep -q 'irdma0 on va, ' &&
		t_port_state_is irdma0 PORT_ACTIVE
}

# stop PID NAME: end a process the reset left waiting; it must die
stop() {
	kill "$1" 2>/dev/null
	t_wait 10 eval "! kill -0 $1" || kill -KILL "$1" 2>/dev/null
	t_wait 10 eval "! kill -0 $1" || t_fail "$2" "pid $1 does not die"
	wait "$1" 2>/dev/null
}

# ask_reset KIND DIR: ask irdma0's function (debugfs DIR) for a reset
ask_reset() {
	[ -n "$2" ] || return 1
	case $1 in
	request)
		# a critical error: the driver asks for the reset, the model
		# performs it
		echo 1 >"$2/reset_on_request" &&
			echo "0x10000000 0x00010001" >"$2/crit_err"
		;;
	*) echo "$1" >"$2/reset" ;;
	esac
}

# round KIND PORT: users on irdma0, a reset of KIND, what they and the new
# function do after it
round() {
	local kind=$1 port=$2 name=$P/$1 rps rpc bws bwc w0 rc=0 t0 dir
	t_dmesg_mark "$name"
	ip netns exec "$T_NS_B" rping -s -a "$T_IP_B" -p "$port" -C 1000000 -V \
		>"$work/rps.$kind" 2>&1 &
	rps=$!
	ip netns exec "$T_NS_B" ib_write_bw -R -d siw0 -p $((port + 1)) -D 300 \
		-s 65536 >"$work/bws.$kind" 2>&1 &
	bws=$!
	if ! t_wait 10 t_rdma_listening "$port" siw0 ||
		! t_wait 10 t_rdma_listening $((port + 1)) siw0; then
		t_fail "$name/servers" "the rping and ib_write_bw servers do not listen"
		stop "$rps" "$name/rping-server-ends"
		stop "$bws" "$name/bw-server-ends"
		return
	fi
	ip netns exec "$T_NS_A" rping -c -a "$T_IP_B" -p "$port" -C 1000000 -V -v \
		>"$work/rpc.$kind" 2>&1 &
	rpc=$!
	ip netns exec "$T_NS_A" ib_write_bw -R -d irdma0 -p $((port + 1)) -D 300 \
		-s 65536 "$T_IP_B" >"$work/bwc.$kind" 2>&1 &
	bwc=$!
	w0=$(writes)
	if t_wait 60 eval "[ \$(pings $work/rpc.$kind) -ge 5 ] && [ \$(writes) -gt $((w0 + 20)) ]"; then
		t_pass "$name/users-running"
	else
		t_fail "$name/users-running" "$(pings "$work/rpc.$kind") pings verified, $(($(writes) - w0)) Writes sent"
		t_indent <"$work/rpc.$kind"
		t_indent <"$work/bwc.$kind"
	fi

	t0=$(date +%s)
	dir=$(sim_dir)
	if ask_reset "$kind" "$dir"; then
		t_pass "$name/reset-asked"
	else
		t_fail "$name/reset-asked" "cannot ask for a reset in ${dir:-(no debugfs directory of irdma0)}"
	fi
	if t_wait 120 back; then
		t_pass "$name/back"
		t_log "irdma0 back, port active, after $(($(date +%s) - t0)) s"
	else
		t_fail "$name/back" "no new irdma0 with an active port 120 s after the reset"
		t_dmesg_since | grep -E 'irdma' | tail -n 30 | t_indent
	fi

	# the rping client hears of it (the device's removal, or the
	# connection's end) and ends by itself
	t_wait_pid "$rpc" 60 || rc=$?
	if [ "$rc" -ne 124 ] && [ "$rc" -ne 125 ] &&
		grep -qE 'device removal|DISCONNECT EVENT' "$work/rpc.$kind"; then
		t_pass "$name/rping-client-told"
	else
		t_fail "$name/rping-client-told" "rping client exited $rc, told of neither the removal nor a disconnect"
	fi
	grep -v '^ping data' "$work/rpc.$kind" | tail -n 5 | t_indent
	t_log "the rping client verified $(pings "$work/rpc.$kind") pings before the reset"
	# ib_write_bw spins on a CQ that gets nothing more: a kill ends it
	if kill -0 "$bwc" 2>/dev/null; then
		stop "$bwc" "$name/bw-client-killable"
	else
		wait "$bwc"
		t_log "ib_write_bw client exited $? by itself"
	fi
	t_pass "$name/bw-client-ended"
	stop "$rps" "$name/rping-server-ends"
	stop "$bws" "$name/bw-server-ends"

	# the new function serves new connections
	t_rping "$name/rping-after" "$T_NS_B" "$T_NS_A" "$T_IP_B" $((port + 2))
	ip netns exec "$T_NS_B" timeout 60 ib_write_bw -R -d siw0 -p $((port + 3)) \
		-n 100 -s 65536 >"$work/bws2.$kind" 2>&1 &
	bws=$!
	t_wait 10 t_rdma_listening $((port + 3)) siw0
	rc=0
	t_in "$T_NS_A" timeout 60 ib_write_bw -R -d irdma0 -p $((port + 3)) -n 100 \
		-s 65536 "$T_IP_B" >"$work/bwc2.$kind" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ] && t_wait_pid "$bws" 30; then
		t_pass "$name/bw-after"
	else
		t_fail "$name/bw-after" "client exited $rc"
		t_indent <"$work/bwc2.$kind"
		t_indent <"$work/bws2.$kind"
	fi
	t_dmesg_check "$name/dmesg"
}

round pfr 7400
round lost 7410
round request 7420

t_check "$P/link-delete" rdma link delete irdma0
t_check "$P/modprobe-r" modprobe -r irdma_sim irdma
t_dmesg_check "$P/dmesg"
t_exit

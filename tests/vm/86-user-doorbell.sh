#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# A user QP's doorbell, as the application sees it (tests/progs/user_db).
# libirdma stores the QP id into the user doorbell page after each post;
# the model reads and clears that word, and acts on nothing else.  irdma0
# (netns a) is the client of siw0 (netns b):
#   - two Sends, one at a time: each rings and completes; the model saw
#     the client's doorbell stores through its watchpoint (db_traps), and
#     the watch ended with the client's mapping (db_watches back to 0);
#   - the same with irdma_sim's db_watch parameter off: the poller alone
#     finds the doorbells, and nothing traps;
#   - with irdma_sim's drop_user_db at 1 the first Send's doorbell is lost:
#     it must not complete within 500 ms; the second Send's doorbell runs
#     both, in order, and the peer receives both; the knob counts down to
#     0 and the model counts the doorbell it dropped.
# Then the kernel log is clean.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
P=user-doorbell

t_require "$P/tools" rdma || t_exit
t_need_ours "$P" irdma irdma_sim
t_need_progs "$P/progs" user_db
t_iw_setup "$P"
if ! t_check "$P/link-add-siw" t_in "$T_NS_B" rdma link add siw0 type siw netdev "$T_IF_B"; then
	t_exit
fi
t_in "$T_NS_A" ping -c 1 -W 5 "$T_IP_B" >/dev/null 2>&1

# pair NAME PORT SERVER-OPTION CLIENT-OPTION: user_db's server on siw0,
# its client on irdma0 (-l: with a lost doorbell)
pair() {
	local name=$1 port=$2 sopt=$3 lost=$4 spid src=0 crc=0
	local srv=$T_WORK/srv.$port cli=$T_WORK/cli.$port
	# shellcheck disable=SC2086 # $sopt: an option or nothing
	ip netns exec "$T_NS_B" "$T_PROGS/user_db" -s -a "$T_IP_B" -p "$port" $sopt >"$srv" 2>&1 &
	spid=$!
	if ! t_wait 10 grep -q listening "$srv"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		t_indent <"$srv"
		t_fail "$name" "user_db's server does not listen"
		return
	fi
	# shellcheck disable=SC2086 # $lost: an option or nothing
	t_in "$T_NS_A" timeout 60 "$T_PROGS/user_db" -c -a "$T_IP_B" -p "$port" $lost >"$cli" 2>&1 || crc=$?
	wait "$spid" || src=$?
	if [ "$src" -eq 0 ] && [ "$crc" -eq 0 ]; then
		t_pass "$name"
		t_indent <"$cli"
		t_indent <"$srv"
	else
		t_log "client (exit $crc):"
		t_indent <"$cli"
		t_log "server (exit $src):"
		t_indent <"$srv"
		t_iw_diag
		t_fail "$name" "see user_db's steps above"
	fi
}

# stat NAME: a counter of irdma_sim's debugfs stats
stat() { sed -n "s/^$1 //p" "$dbg/stats"; }
# unwatched: no doorbell page mapping is watched
unwatched() { [ "$(stat db_watches)" = 0 ]; }

dbg=$(t_sim_dbg)
traps=$(stat db_traps)
pair "$P/rings" 7401 "-n 2" ""
# the client's stores were watched, and its watch ended with its mapping
t_check "$P/watched" test "$(stat db_traps)" -gt "${traps:-0}"
if t_wait 10 unwatched; then
	t_pass "$P/watch-freed"
else
	t_fail "$P/watch-freed" "db_watches is $(stat db_watches) 10 s after the client exited"
fi
# with the watch off the poller alone finds the doorbells
param=/sys/module/irdma_sim/parameters/db_watch
if ! echo 0 >"$param"; then
	t_fail "$P/polled" "cannot turn irdma_sim's db_watch off"
else
	traps=$(stat db_traps)
	pair "$P/polled" 7403 "-n 2" ""
	t_check "$P/polled-untrapped" test "$(stat db_traps)" = "$traps"
	echo 1 >"$param"
fi
if [ -z "$dbg" ] || ! echo 1 >"$dbg/drop_user_db"; then
	t_fail "$P/lost" "cannot set irdma_sim's drop_user_db"
else
	before=$(sed -n 's/^user_db_dropped //p' "$dbg/stats")
	pair "$P/lost" 7402 "-n 2" -l
	t_check "$P/lost-knob" test "$(cat "$dbg/drop_user_db")" = 0
	t_check "$P/lost-counted" test "$(sed -n 's/^user_db_dropped //p' "$dbg/stats")" = "$((before + 1))"
fi

t_check "$P/link-delete-siw" t_in "$T_NS_B" rdma link delete siw0
t_dmesg_check "$P/dmesg"
t_exit

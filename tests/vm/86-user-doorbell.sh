#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# The user doorbell page, as an application sees it.  The page is a
# write-only window: every 32-bit store to it reaches the model as one
# doorbell, nothing can be read back, and any other access is refused.
#   - tests/progs/db_page on irdma0: the words read 0; stores from the
#     main thread, from a thread older than the mapping, and to CQARM are
#     each counted once by the model (user_db, user_cqarm), and none ran
#     anything (they name no QP or CQ: user_db_ignored); a kernel write
#     into the page gets EFAULT; 64-bit and 8-bit stores die of SIGBUS
#     and are counted as refused; after the process exits, its mapping is
#     gone (irdma_sim's reference count back at its value before);
#   - tests/progs/user_db, irdma0 (netns a) the client of siw0 (netns b):
#     two Sends, one at a time, each rings once and completes;
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
t_need_progs "$P/progs" user_db db_page
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
# grew NAME BEFORE BY: the counter NAME is BEFORE + BY
grew() {
	local now
	now=$(stat "$2")
	if [ "$now" = "$(($3 + $4))" ]; then
		t_pass "$1"
	else
		t_fail "$1" "$2 went from $3 to $now, expected +$4"
	fi
}

dbg=$(t_sim_dbg)
if [ -z "$dbg" ]; then
	t_fail "$P/debugfs" "no debugfs directory of irdma0's model"
	t_exit
fi
db=$(stat user_db) arm=$(stat user_cqarm) ign=$(stat user_db_ignored)
ref=$(stat user_db_refused) modref=$(t_modref irdma_sim)
if out=$(timeout 60 "$T_PROGS/db_page" -d irdma0 -n 100 2>&1); then
	t_pass "$P/page"
else
	t_fail "$P/page" "db_page: $(grep -m1 FAIL <<<"$out")"
fi
t_indent <<<"$out"
grew "$P/stores-counted" user_db "$db" "$(sed -n 's/^stores //p' <<<"$out")"
grew "$P/stores-ran-nothing" user_db_ignored "$ign" "$(sed -n 's/^stores //p' <<<"$out")"
grew "$P/cqarm-counted" user_cqarm "$arm" "$(sed -n 's/^cqarm //p' <<<"$out")"
grew "$P/refused-counted" user_db_refused "$ref" 2
if t_modref_wait irdma_sim "$modref" 10; then
	t_pass "$P/mapping-gone"
else
	t_fail "$P/mapping-gone" "irdma_sim's refcnt is $(t_modref irdma_sim), $modref before db_page"
fi

db=$(stat user_db)
pair "$P/rings" 7401 "-n 2" ""
# one doorbell per post, each seen once
grew "$P/rings-counted" user_db "$db" 2
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
